//! What decided a node: the technique that ended it early, the move that cut it off, or the
//! plain result of searching every move. One table, so that the JSON names, the colours of the
//! pictures and the counters they must agree with are written down once.

use crate::counters::Note;

macro_rules! outcomes {
    ($($name:ident, $key:literal, $colour:literal, $note:expr, $doc:literal;)*) => {
        /// What decided a node (or why a move was not searched).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Outcome {
            $(#[doc = $doc] $name,)*
        }

        impl Outcome {
            pub const ALL: &[Outcome] = &[$(Outcome::$name,)*];

            /// The name in the JSON format.
            pub const fn key(self) -> &'static str {
                match self { $(Outcome::$name => $key,)* }
            }

            /// The fill colour of the pictures.
            pub const fn colour(self) -> &'static str {
                match self { $(Outcome::$name => $colour,)* }
            }

            /// The counter that counts exactly the nodes (or skipped moves) with this outcome.
            pub const fn note(self) -> Option<Note> {
                match self { $(Outcome::$name => $note,)* }
            }

            /// In words, for legends.
            pub const fn meaning(self) -> &'static str {
                match self { $(Outcome::$name => $doc,)* }
            }
        }
    };
}

outcomes! {
    Exact, "exact", "#ffffff", None, "searched every move; the score fell inside the window";
    FailLow, "fail-low", "#d0d4da", None, "searched every move; none reached alpha";
    BetaCutoff, "beta-cutoff", "#6dbb6d", Some(Note::BetaCutoff), "a move reached beta";
    FailHigh, "fail-high", "#8cc78c", None, "reached beta without a counted cutoff (a root window, a capture in the quiescence search)";
    TtCutoff, "tt-cutoff", "#e3c44a", Some(Note::TtCutoff), "the transposition table's score settled it";
    MateDistance, "mate-distance", "#b07cc6", Some(Note::MateDistancePruning), "mate distance pruning: no score inside the window was possible";
    ReverseFutility, "reverse-futility", "#e8843c", Some(Note::ReverseFutility), "reverse futility pruning: the static evaluation was far above beta";
    Razoring, "razoring", "#de7d6a", Some(Note::Razoring), "razoring: far below alpha, and the quiescence search agreed";
    NullMove, "null-move", "#79a6dc", Some(Note::NullMoveCutoff), "null-move pruning: passing still reached beta";
    ProbCut, "probcut", "#978de0", Some(Note::ProbCutCutoff), "ProbCut: a capture cleared a raised beta in a shallow search";
    MultiCut, "multi-cut", "#bb93cf", Some(Note::MultiCut), "multi-cut: the singular search found another move above beta";
    Draw, "draw", "#a0a0a0", Some(Note::Draw), "a draw by repetition, the fifty-move rule or material";
    Tablebase, "tablebase", "#5fb3a1", Some(Note::TbCutoff), "the Syzygy tablebases' result settled it";
    StandPat, "stand-pat", "#9ed9cf", Some(Note::StandPat), "quiescence: the static evaluation alone reached beta";
    Quiet, "quiet", "#cfeee8", None, "quiescence: no capture was searched; the static evaluation stands";
    Checkmate, "checkmate", "#d07070", None, "no legal move, in check";
    Stalemate, "stalemate", "#b0b0b0", None, "no legal move, not in check";
    Aborted, "aborted", "#ffffff", None, "the search was stopped inside this node";
    Open, "open", "#ffffff", None, "never closed (the tree was cut short)";
    Futility, "futility", "#f2b8a0", Some(Note::Futility), "skipped by futility pruning";
    LateMovePruning, "late-move-pruning", "#f5d6a8", Some(Note::LateMovePruning), "skipped by late move pruning, with every quiet move after it";
    HistoryPruning, "history-pruning", "#e8c6e0", Some(Note::HistoryPruning), "skipped by history pruning";
    SeeQuiet, "see-quiet", "#f0a8a8", Some(Note::SeePruningQuiet), "a quiet move skipped by SEE pruning";
    SeeCapture, "see-capture", "#e08080", Some(Note::SeePruningCapture), "a capture skipped by SEE pruning";
    QsSee, "qs-see", "#d8b0b0", Some(Note::QsSeePruning), "a losing capture skipped in the quiescence search";
    Delta, "delta", "#c8c0a0", Some(Note::DeltaPruning), "a capture skipped by delta pruning";
}

impl Outcome {
    /// The outcome a counter gives the node it is counted at, when that counter ends the node.
    pub(crate) fn ending(note: Note) -> Option<Outcome> {
        Some(match note {
            Note::BetaCutoff => Outcome::BetaCutoff,
            Note::TtCutoff => Outcome::TtCutoff,
            Note::MateDistancePruning => Outcome::MateDistance,
            Note::ReverseFutility => Outcome::ReverseFutility,
            Note::Razoring => Outcome::Razoring,
            Note::NullMoveCutoff => Outcome::NullMove,
            Note::ProbCutCutoff => Outcome::ProbCut,
            Note::MultiCut => Outcome::MultiCut,
            Note::Draw => Outcome::Draw,
            Note::TbCutoff => Outcome::Tablebase,
            Note::StandPat => Outcome::StandPat,
            _ => return None,
        })
    }

    /// The outcome of a move skipped for the reason `note` counts.
    pub(crate) fn pruning(note: Note) -> Option<Outcome> {
        Some(match note {
            Note::Futility => Outcome::Futility,
            Note::LateMovePruning => Outcome::LateMovePruning,
            Note::HistoryPruning => Outcome::HistoryPruning,
            Note::SeePruningQuiet => Outcome::SeeQuiet,
            Note::SeePruningCapture => Outcome::SeeCapture,
            Note::QsSeePruning => Outcome::QsSee,
            Note::DeltaPruning => Outcome::Delta,
            _ => return None,
        })
    }

    /// A move that was skipped rather than searched.
    pub fn is_pruning(self) -> bool {
        self.note().is_some_and(|n| Outcome::pruning(n).is_some())
    }

    /// Looks up a JSON name.
    pub fn from_key(key: &str) -> Option<Outcome> {
        Outcome::ALL.iter().copied().find(|o| o.key() == key)
    }
}
