//! One switch per technique, read in the search as `self.techniques.name`.
//!
//! `set NAME on|off` flips one, and so does `setoption name NAME value true|false`, so that a
//! match runner can play the engine against itself with a technique switched off.

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct TechniqueInfo {
    pub name: &'static str,
    pub default: bool,
    /// The book chapter that describes it.
    pub chapter: &'static str,
    pub doc: &'static str,
}

macro_rules! techniques {
    ($($name:ident: $default:expr, $chapter:literal, $doc:literal;)*) => {
        /// Which techniques the search uses.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Techniques {
            $(#[doc = $doc] pub $name: bool,)*
        }

        impl Default for Techniques {
            fn default() -> Techniques {
                Techniques { $($name: $default,)* }
            }
        }

        pub const TECHNIQUES: &[TechniqueInfo] = &[
            $(TechniqueInfo { name: stringify!($name), default: $default, chapter: $chapter, doc: $doc },)*
        ];

        impl Techniques {
            fn slot(&mut self, name: &str) -> Option<&mut bool> {
                match name {
                    $(stringify!($name) => Some(&mut self.$name),)*
                    _ => None,
                }
            }

            pub fn get(&self, name: &str) -> Option<bool> {
                match name {
                    $(stringify!($name) => Some(self.$name),)*
                    _ => None,
                }
            }
        }
    };
}

// ANCHOR: techniques_table
techniques! {
    pvs: true, "6", "principal variation search: null windows after the first move, re-search on fail high";
    aspiration: true, "6", "aspiration windows around the previous iteration's score";
    mate_distance_pruning: true, "6", "cut nodes that can't beat a mate already found nearer the root";
    check_extension: true, "6", "search moves that give check one ply deeper";
    quiescence: true, "7", "resolve captures at the leaves instead of trusting the static evaluation";
    tt: true, "8", "the transposition table: cutoffs, the hash move and stored evaluations";
    mvv_lva: true, "9", "order captures by most valuable victim, least valuable attacker";
    killers: true, "9", "try two quiet moves that cut off at the same ply before other quiet moves";
    history: true, "9", "order quiet moves by how often they cut off before (butterfly history with gravity)";
    countermove: true, "10.1", "try the quiet move that last refuted the previous move right after the killers";
    continuation_history: true, "10.1", "order quiet moves also by how good they were as replies to the moves one and two plies before";
    capture_history: true, "10.2", "order captures also by how often each (piece, square, victim) cut off";
    null_move: true, "12", "null-move pruning: pass, and cut off if a shallower search still reaches beta";
    lmr: true, "13", "late move reductions: search late quiet moves shallower, again at full depth if they beat alpha";
    see_ordering: true, "14", "search captures that lose material by static exchange after the quiet moves";
    reverse_futility: true, "14", "reverse futility pruning: return the static evaluation when it is far above beta near the leaves";
    razoring: true, "14", "razoring: far below alpha at depth 1-2, trust the quiescence search";
    futility: true, "14", "futility pruning: skip quiet moves that can't lift a hopeless evaluation to alpha";
    see_pruning: true, "14", "SEE pruning: skip moves that lose material near the leaves, and losing captures in the quiescence search";
    improving: true, "14.1", "the improving flag: a smaller reverse futility margin, less reduction and more moves before late move pruning when the side to move is better off than two plies ago";
    late_move_pruning: true, "14.1", "late move pruning: skip the remaining quiet moves near the leaves after enough moves";
    history_pruning: true, "14.1", "history pruning: skip quiet moves with a bad history near the leaves";
    iir: true, "15", "internal iterative reduction: a ply less where there is no hash move";
    singular_extensions: true, "15", "search the hash move a ply deeper when every other move falls short of its score";
    double_extensions: true, "15", "two plies deeper when the others fall far short (off the PV, a few times per line)";
    negative_extensions: true, "15", "a ply shallower for a hash move that isn't singular but is expected to fail high";
    multi_cut: true, "15", "cut the node when a move other than the hash move also beats beta in the singular search";
    probcut: false, "M5", "ProbCut: cut the node when a good capture beats beta by a margin in a search 4 plies shallower (off by default until an SPRT finds it helps)";
    delta_pruning: true, "14", "delta pruning: skip captures in the quiescence search that can't reach alpha even with a margin";
    nnue: true, "17", "evaluate with the network (NNUE) instead of the hand-crafted evaluation";
    syzygy: true, "19", "Syzygy tablebases (once SyzygyPath names some): keep only the root moves that hold the best result, and read the result of positions after a capture or pawn move";
    // Stage 20: correcting the evaluation (off until an SPRT of the bundle accepts them).
    pawn_correction: false, "20", "pawn correction history: correct the static evaluation by what searches taught about positions with the same pawns (per side to move)";
    non_pawn_correction: false, "20", "non-pawn correction history: the same, by each colour's pieces other than pawns";
    minor_correction: false, "20", "minor-piece correction history: the same, by the knights, bishops and kings";
    major_correction: false, "20", "major-piece correction history: the same, by the rooks, queens and kings";
    continuation_correction: false, "20", "continuation correction history: the same, by the last two moves (piece and square)";
    tt_eval: false, "20", "the hash score as a better evaluation for pruning, where its bound says the evaluation is too low or too high";
    material_scaling: false, "20", "scale the evaluation by the material left: a lead means more with more pieces to play";
    fifty_move_scaling: false, "20", "draw the evaluation towards 0 as the fifty-move counter grows";
    // Stage 20: what strong engines added to the search since 2021. Off until an SPRT of the
    // bundle, switched on against off in one binary, accepts them.
    history_bonus_malus: false, "20", "separate, capped bonus and malus formulas for the quiet, capture and continuation histories (off: one formula serves all six)";
    hindsight: false, "20", "hindsight: a node its parent reduced searches a ply deeper or shallower by how the static evaluation moved across the parent's move";
    fail_high_blend: false, "20", "fail-high blending: a non-PV node's cutoff score, and a stand-pat cutoff's, pulled towards beta";
    qs_futility: false, "20", "quiescence futility: skip captures that don't win material by SEE when the evaluation plus a margin can't reach alpha";
    low_ply_history: false, "20", "low-ply history: a history of quiet moves for each of the first plies below the root, added to their ordering there";
}
// ANCHOR_END: techniques_table

impl Techniques {
    /// Switches one technique on or off.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), String> {
        match self.slot(name) {
            Some(slot) => {
                *slot = on;
                Ok(())
            }
            None => Err(format!("no technique called '{name}'")),
        }
    }

    /// Everything off: the plain alpha-beta search the book starts from.
    pub fn none() -> Techniques {
        let mut t = Techniques::default();
        for info in TECHNIQUES {
            let _ = t.set(info.name, false);
        }
        t
    }
}

/// Reads `on`/`off` (and `true`/`false`, `1`/`0`).
pub fn parse_switch(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" => Some(true),
        "off" | "false" | "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_by_name() {
        let mut t = Techniques::default();
        assert!(t.set("killers", false).is_ok());
        assert!(!t.killers);
        assert_eq!(t.get("killers"), Some(false));
        assert!(t.set("nonsense", true).is_err());
        assert!(
            TECHNIQUES
                .iter()
                .all(|i| Techniques::none().get(i.name) == Some(false))
        );
        assert_eq!(parse_switch("ON"), Some(true));
        assert_eq!(parse_switch("maybe"), None);
    }
}
