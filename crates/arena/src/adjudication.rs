//! Ending games early when both engines agree on the result, as fishtest does: a lost game need
//! not be played to mate, nor a dead draw to the fiftieth move. The time saved goes into more
//! games; the rules are strict enough that the result is almost never wrong.

use chess::Color;

/// Resign when, for `move_count` moves of each side in a row, both engines' scores say the same
/// side is behind by at least `score` centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
}

/// Draw when, from move `move_number` on, both engines' scores stay within `score` centipawns of
/// zero for `move_count` moves of each side in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// A draw once a game reaches this many moves (of each side).
    pub max_moves: Option<u32>,
}

impl Adjudication {
    /// fishtest's settings: resign at 600 cp for 3 moves; draw from move 34 within 20 cp for
    /// 8 moves.
    pub const FISHTEST: Adjudication = Adjudication {
        resign: Some(ResignRule {
            move_count: 3,
            score: 600,
        }),
        draw: Some(DrawRule {
            move_number: 34,
            move_count: 8,
            score: 20,
        }),
        max_moves: None,
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This side is lost.
    Resign(Color),
    Draw,
}

/// The adjudicator's memory within one game: how many plies in a row each condition has held.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    rules: Adjudication,
    white_lost: u32,
    black_lost: u32,
    drawn: u32,
}

// ANCHOR: adjudicate
impl Adjudicator {
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            ..Adjudicator::default()
        }
    }

    /// Takes the score of the move just played by `mover` (from the mover's side, in
    /// centipawns; `None` if the engine gave none, which breaks every run) in full move
    /// `move_number`, and says whether the game is over.
    pub fn update(
        &mut self,
        mover: Color,
        score: Option<i32>,
        move_number: u32,
    ) -> Option<Verdict> {
        let Some(score) = score else {
            *self = Adjudicator::new(self.rules);
            return None;
        };
        let white_view = if mover == Color::White { score } else { -score };
        if let Some(rule) = self.rules.resign {
            let run = |lost: bool, count: u32| if lost { count + 1 } else { 0 };
            self.white_lost = run(white_view <= -rule.score, self.white_lost);
            self.black_lost = run(white_view >= rule.score, self.black_lost);
            // One move of each side is two plies: both engines must have agreed.
            if self.white_lost >= 2 * rule.move_count {
                return Some(Verdict::Resign(Color::White));
            }
            if self.black_lost >= 2 * rule.move_count {
                return Some(Verdict::Resign(Color::Black));
            }
        }
        if let Some(rule) = self.rules.draw {
            self.drawn = if white_view.abs() <= rule.score {
                self.drawn + 1
            } else {
                0
            };
            if move_number >= rule.move_number && self.drawn >= 2 * rule.move_count {
                return Some(Verdict::Draw);
            }
        }
        None
    }
}
// ANCHOR_END: adjudicate

#[cfg(test)]
mod tests {
    use super::*;

    fn play(
        rules: Adjudication,
        scores: &[Option<i32>],
        first_move: u32,
    ) -> Option<(usize, Verdict)> {
        let mut adjudicator = Adjudicator::new(rules);
        let mut mover = Color::White;
        for (ply, &score) in scores.iter().enumerate() {
            let move_number = first_move + ply as u32 / 2;
            if let Some(v) = adjudicator.update(mover, score, move_number) {
                return Some((ply, v));
            }
            mover = !mover;
        }
        None
    }

    #[test]
    fn resign_needs_both_sides_for_enough_moves() {
        let rules = Adjudication {
            draw: None,
            ..Adjudication::FISHTEST
        };
        // White thinks it is +700, Black agrees it is -700 (its own view): after 3 moves each
        // (6 plies), Black resigns.
        let agreed = [Some(700), Some(-700)].repeat(3);
        assert_eq!(
            play(rules, &agreed, 1),
            Some((5, Verdict::Resign(Color::Black)))
        );
        // Only White believes it: no adjudication.
        let one_sided = [Some(700), Some(0)].repeat(10);
        assert_eq!(play(rules, &one_sided, 1), None);
        // A missing score breaks the run.
        let mut broken = [Some(-900), Some(900)].repeat(2);
        broken.push(None);
        broken.extend([Some(900), Some(-900)].repeat(2));
        assert_eq!(play(rules, &broken, 1), None);
        // Mate scores count as very large.
        let mated = [Some(-29_990), Some(29_991)].repeat(3);
        assert_eq!(
            play(rules, &mated, 1),
            Some((5, Verdict::Resign(Color::White)))
        );
    }

    #[test]
    fn draw_waits_for_the_move_number() {
        let rules = Adjudication {
            resign: None,
            ..Adjudication::FISHTEST
        };
        let quiet = vec![Some(5); 40];
        // From move 30, 8 quiet moves of each side (16 plies) take until move 37.
        assert_eq!(play(rules, &quiet, 30), Some((15, Verdict::Draw)));
        // From move 20 the run is long enough early, but no draw comes before move 34.
        assert_eq!(
            play(rules, &quiet, 20).map(|(ply, _)| 20 + ply / 2),
            Some(34)
        );
        let lively = [Some(5), Some(-50)].repeat(20);
        assert_eq!(play(rules, &lively, 40), None);
    }
}
