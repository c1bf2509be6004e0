//! cb2026's search and evaluation. The UCI crate drives it through a [`ThreadPool`] with a
//! position, [`Limits`] and a callback for [`Info`]; the search itself knows no protocol.

pub mod clock;
pub mod correction;
pub mod counters;
pub mod eval;
pub mod history;
pub mod movepick;
pub mod openings;
pub mod params;
pub mod pv;
pub mod score;
pub mod search;
pub mod see;
pub mod strength;
pub mod tablebase;
pub mod techniques;
pub mod threads;
pub mod time;
pub mod tools;
pub mod tree;
pub mod tt;
pub mod wdl;

pub use chess;
pub use counters::{Counters, Note};
pub use eval::{EvalTrace, Evaluation, Evaluator, HceEvaluator};
pub use params::{PARAMS, Params};
pub use search::{Info, SearchOptions, SearchResult, Worker};
pub use techniques::{TECHNIQUES, Techniques};
pub use threads::{SearchThread, Signals, ThreadPool};
pub use time::Limits;
pub use tt::{Bound, TranspositionTable};
