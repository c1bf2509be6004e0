//! The drivers above the search: they set up a [`ThreadPool`](crate::threads::ThreadPool), run
//! searches through it and make something of the result. Nothing below imports them.
//!
//! - [`bench`]: the fixed positions whose node count is the search's fingerprint;
//! - [`chapter_table`]: the node counts of the book's tables;
//! - [`tree`]: the search-tree explorer's search, recorded node by node (the recorder itself,
//!   which the search calls, and the drawings are in [`crate::tree`]).

pub mod bench;
pub mod chapter_table;
pub mod tree;
