//! Scores in centipawns from the side to move's view, and how mates are written among them.

// ANCHOR: mate_scores
/// The deepest ply the search reaches; arrays indexed by ply have this many entries.
pub const MAX_PLY: usize = 128;

/// Mate at the root. A mate `n` plies from the root scores `MATE - n`.
pub const MATE: i32 = 32_000;

/// Above every real score: the initial window.
pub const INFINITE: i32 = 32_001;

/// Scores at or beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// A win the tablebases prove, at the root: just below every mate, so that a mate found by the
/// search still ranks above it. A tablebase win `n` plies from the root scores `TB_WIN - n`.
pub const TB_WIN: i32 = MATE_BOUND - 1;

/// Scores at or beyond this (in absolute value) are proven wins or losses: mates, or tablebase
/// results.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

pub const DRAW: i32 = 0;

/// The score of being mated at `ply`.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The score of mating at `ply`.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}
// ANCHOR_END: mate_scores

/// The score of a tablebase win found at `ply`.
#[inline]
pub const fn tb_win_in(ply: usize) -> i32 {
    TB_WIN - ply as i32
}

/// The score of a tablebase loss found at `ply`.
#[inline]
pub const fn tb_loss_in(ply: usize) -> i32 {
    -TB_WIN + ply as i32
}

#[inline]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

// ANCHOR: score_tt
/// A mate score in the table counts plies from the stored node, not from the root, so that it
/// stays right when the node is reached again at another ply; so does a tablebase win or loss.
#[inline]
pub const fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`]: back to plies from the root.
#[inline]
pub const fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}
// ANCHOR_END: score_tt

// ANCHOR: uci_score
/// A score as UCI writes it: `cp N` or `mate N` (in moves, negative when being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    Centipawns(i32),
    Mate(i32),
}

impl UciScore {
    pub fn from_score(score: i32) -> UciScore {
        if score >= MATE_BOUND {
            UciScore::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            UciScore::Mate(-(MATE + score) / 2)
        } else {
            UciScore::Centipawns(score)
        }
    }
}
// ANCHOR_END: uci_score

impl std::fmt::Display for UciScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UciScore::Centipawns(cp) => write!(f, "cp {cp}"),
            UciScore::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_in_moves() {
        assert_eq!(UciScore::from_score(mate_in(1)), UciScore::Mate(1));
        assert_eq!(UciScore::from_score(mate_in(3)), UciScore::Mate(2));
        assert_eq!(UciScore::from_score(mated_in(0)), UciScore::Mate(0));
        assert_eq!(UciScore::from_score(mated_in(2)), UciScore::Mate(-1));
        assert_eq!(UciScore::from_score(35), UciScore::Centipawns(35));
    }

    #[test]
    fn tt_adjustment_round_trips() {
        for score in [
            mate_in(5),
            mated_in(7),
            tb_win_in(9),
            tb_loss_in(4),
            120,
            -3,
        ] {
            for ply in [0, 3, 40] {
                assert_eq!(score_from_tt(score_to_tt(score, ply), ply), score);
            }
        }
        // Mate 5 plies from the root, seen at ply 3: 2 plies from that node.
        assert_eq!(score_to_tt(mate_in(5), 3), mate_in(2));
        assert_eq!(score_to_tt(tb_win_in(5), 3), tb_win_in(2));
    }

    #[test]
    fn tablebase_scores_lie_between_mates_and_evaluations() {
        assert!(tb_win_in(MAX_PLY - 1) > TB_WIN_BOUND);
        assert!(tb_win_in(0) < mate_in(MAX_PLY - 1));
        assert!(!is_mate(tb_win_in(0)) && !is_mate(tb_loss_in(0)));
        assert_eq!(
            UciScore::from_score(tb_win_in(3)),
            UciScore::Centipawns(TB_WIN - 3)
        );
    }
}
