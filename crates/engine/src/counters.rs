//! Counters of search events, for the `stats` command: how often each technique was tried and
//! how often it paid off. The search calls `self.note(Note::X)` where an event happens.

macro_rules! counters {
    ($($name:ident: $doc:literal;)*) => {
        /// A search event worth counting.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Note {
            $(#[doc = $doc] $name,)*
        }

        impl Note {
            pub const ALL: &[Note] = &[$(Note::$name,)*];
            pub const COUNT: usize = Note::ALL.len();

            /// What the counter counts, in words.
            pub const fn meaning(self) -> &'static str {
                match self {
                    $(Note::$name => $doc,)*
                }
            }

            pub const fn name(self) -> &'static str {
                match self {
                    $(Note::$name => stringify!($name),)*
                }
            }
        }
    };
}

counters! {
    // ANCHOR: note_rows
    Nodes: "nodes of the main search (positions entered with depth > 0)";
    QNodes: "nodes of the quiescence search";
    BetaCutoff: "nodes that failed high (a move reached beta)";
    FirstMoveCutoff: "fail-high nodes where the first move searched cut off (move ordering quality)";
    PvsResearch: "null-window searches that failed high and were searched again with the full window";
    AspirationFailLow: "aspiration windows that failed low and were widened (an iteration can fail more than once)";
    AspirationFailHigh: "aspiration windows that failed high and were widened";
    MateDistancePruning: "nodes cut because no score inside the window was possible any more";
    CheckExtension: "moves that gave check and were searched a ply deeper";
    Draw: "nodes scored as draws by repetition, the fifty-move rule or insufficient material";
    StandPat: "quiescence nodes cut off by the static evaluation alone";
    TtHit: "nodes (main and quiescence) that found their position in the transposition table";
    TtCutoff: "nodes that returned the table's score without searching";
    CutoffTtMove: "cutoffs by the hash move";
    CutoffGoodCapture: "cutoffs by a capture or promotion that doesn't lose material";
    CutoffKiller: "cutoffs by a killer move";
    CutoffCountermove: "cutoffs by the countermove";
    CutoffQuiet: "cutoffs by another quiet move (ordered by history)";
    CutoffBadCapture: "cutoffs by a capture that loses material by SEE";
    // ANCHOR_END: note_rows
    NullMove: "null moves tried (chapter 12)";
    NullMoveCutoff: "nodes cut off by a null move";
    NullMoveVerification: "null-move cutoffs at high depth checked by a verification search";
    Lmr: "late moves searched with a reduced depth first (chapter 13)";
    LmrResearch: "reduced searches that beat alpha and were searched again at full depth";
    ReverseFutility: "nodes returned by reverse futility pruning (chapter 14)";
    Razoring: "nodes cut by razoring";
    Futility: "quiet moves skipped by futility pruning";
    SeePruningQuiet: "quiet moves skipped because they lose material by SEE";
    SeePruningCapture: "captures skipped because they lose material by SEE";
    QsSeePruning: "losing captures skipped in the quiescence search";
    DeltaPruning: "captures skipped in the quiescence search by delta pruning";
    LateMovePruning: "quiet moves skipped by late move pruning, each ending the node's quiet moves (chapter 14.1)";
    HistoryPruning: "quiet moves skipped by history pruning";
    Iir: "nodes searched a ply shallower for lack of a hash move (chapter 15)";
    SingularSearch: "searches to test whether the hash move is singular";
    SingularExtension: "hash moves extended for being singular";
    DoubleExtension: "singular hash moves extended by two plies";
    NegativeExtension: "hash moves searched a ply shallower for not being singular";
    MultiCut: "nodes cut because another move also beat beta in the singular search";
    ProbCut: "nodes where ProbCut was tried (milestone M5)";
    ProbCutCutoff: "nodes cut off by ProbCut";
    CaptureDeferred: "captures put after the quiet moves because they lose material by SEE";
    TbHit: "positions whose result was read from the Syzygy tablebases inside the search (chapter 19)";
    TbCutoff: "nodes ended by a tablebase result";
    // ANCHOR: correction_notes
    CorrectionApplied: "static evaluations changed by the correction histories (stage 20)";
    CorrectionSize: "the sizes of those corrections added up, in centipawns (over CorrectionApplied: the mean)";
    CorrectionUpdate: "node results the correction histories learned from";
    TtEval: "nodes whose pruning read the hash score instead of the static evaluation";
    MaterialScaling: "static evaluations changed by the material scaling";
    MaterialScalingSize: "the sizes of those changes added up, in centipawns";
    FiftyMoveScaling: "static evaluations drawn towards 0 by the fifty-move counter";
    FiftyMoveScalingSize: "the sizes of those changes added up, in centipawns";
    // ANCHOR_END: correction_notes
    // Stage 20.
    HistoryMalus: "moves penalised after a cutoff with the separate malus formulas (stage 20)";
    HindsightExtension: "nodes searched a ply deeper: heavily reduced, yet the evaluation moved the parent's way";
    HindsightReduction: "nodes searched a ply shallower: reduced, and the evaluation moved against the parent";
    FailHighBlend: "non-PV cutoff scores pulled towards beta";
    StandPatBlend: "stand-pat cutoff scores pulled towards beta";
    QsFutility: "captures skipped in the quiescence search: no material won by SEE, evaluation plus margin short of alpha";
    LowPlyHistory: "cutoffs near the root that taught the low-ply history";
}

/// One counter per note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counters {
    counts: [u64; Note::COUNT],
}

impl Default for Counters {
    fn default() -> Counters {
        Counters {
            counts: [0; Note::COUNT],
        }
    }
}

impl Counters {
    #[inline(always)]
    pub fn add(&mut self, note: Note) {
        self.counts[note as usize] += 1;
    }

    #[inline(always)]
    pub fn add_many(&mut self, note: Note, count: u64) {
        self.counts[note as usize] += count;
    }

    pub fn get(&self, note: Note) -> u64 {
        self.counts[note as usize]
    }

    pub fn clear(&mut self) {
        self.counts = [0; Note::COUNT];
    }

    /// Adds another set of counters to this one (several threads, several bench positions).
    pub fn merge(&mut self, other: &Counters) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a += b;
        }
    }

    /// Takes another set of counters away from this one (the counts of a part of a search: those
    /// at its end less those at its start).
    pub fn subtract(&mut self, other: &Counters) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a = a.saturating_sub(*b);
        }
    }

    /// One line per counter: name, count, meaning. Counters of techniques that never fired stay
    /// in the list with a zero, so a switched-off technique shows as such.
    pub fn report(&self) -> String {
        let width = Note::ALL.iter().map(|n| n.name().len()).max().unwrap_or(0);
        Note::ALL
            .iter()
            .map(|&n| {
                format!(
                    "{:width$}  {:>12}  {}\n",
                    n.name(),
                    self.get(n),
                    n.meaning()
                )
            })
            .collect()
    }
}
