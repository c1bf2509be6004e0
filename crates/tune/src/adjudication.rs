//! Ending self-play games by their scores: the rules `datagen` plays by, and the study that
//! replays finished games under other rules (`tune adjudicate`) to see what a rule would have
//! saved and what it would have got wrong before a single new game is played.
//!
//! Two rules, each looking at the search's score after every move the engine plays:
//!
//! - **win**: the score (or a mate score) is at least `win_score` for the same side on
//!   `win_plies` consecutive plies: that side wins;
//! - **draw**: from the `draw_after`th move the engine plays, the score is within `draw_score`
//!   of zero on `draw_plies` consecutive plies: a draw. `draw_plies` 0 switches it off.
//!
//! A decided game costs as much per move as an open one, and the moves after the decision teach
//! the network little: a won ending played out to mate, or two sides shuffling in a dead level
//! position until the fifty-move rule, add positions whose label was already known. Stopping
//! them early buys more games, and so more openings, in the same time.

use crate::format::GameResult;
use engine::score::is_mate;

/// The score rules a game is adjudicated by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub win_score: i32,
    pub win_plies: usize,
    pub draw_score: i32,
    /// 0: no draw adjudication.
    pub draw_plies: usize,
    /// Moves the engine plays before the draw rule starts counting.
    pub draw_after: usize,
}

/// One game's count of the plies each rule has seen in a row.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Rules,
    /// The side the score favours by at least `win_score` (+1 White, -1 Black), and for how
    /// many plies in a row.
    win_streak: (i32, usize),
    /// Plies in a row within `draw_score` of zero, from `draw_after` on.
    draw_streak: usize,
    /// Moves seen so far.
    moves: usize,
}

impl Adjudicator {
    pub fn new(rules: Rules) -> Adjudicator {
        Adjudicator {
            rules,
            win_streak: (0, 0),
            draw_streak: 0,
            moves: 0,
        }
    }

    /// Takes the search's score (White's view) of the move just chosen; returns the verdict if
    /// a rule now ends the game.
    pub fn observe(&mut self, white_score: i32) -> Option<GameResult> {
        let r = &self.rules;
        self.moves += 1;
        let mate = is_mate(white_score);
        if mate || white_score.abs() >= r.win_score {
            let side = white_score.signum();
            self.win_streak = if self.win_streak.0 == side {
                (side, self.win_streak.1 + 1)
            } else {
                (side, 1)
            };
            if self.win_streak.1 >= r.win_plies {
                return Some(if side > 0 {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                });
            }
        } else {
            self.win_streak = (0, 0);
        }
        if r.draw_plies > 0
            && self.moves > r.draw_after
            && !mate
            && white_score.abs() <= r.draw_score
        {
            self.draw_streak += 1;
            if self.draw_streak >= r.draw_plies {
                return Some(GameResult::Draw);
            }
        } else {
            self.draw_streak = 0;
        }
        None
    }
}

/// What replaying games under a set of rules found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Study {
    pub games: u64,
    /// Moves played and kept positions in the games as they were played ...
    pub moves: u64,
    pub kept: u64,
    /// ... and up to where the rules would have ended them.
    pub moves_with_rules: u64,
    pub kept_with_rules: u64,
    /// Games the rules end before their recorded end, by verdict: draws, wins.
    pub ended_draw: u64,
    pub ended_win: u64,
    /// Of those, games whose verdict differs from the recorded result, and the kept positions
    /// that would carry the wrong label.
    pub wrong: u64,
    pub wrong_kept: u64,
    /// Recorded results (Black wins, draws, White wins) and the results with the rules.
    pub results: [u64; 3],
    pub results_with_rules: [u64; 3],
}

/// Adds one game to a study: `plies` is each move's (White's-view score, kept) in order,
/// `result` the recorded result.
pub fn study_game(study: &mut Study, rules: Rules, plies: &[(i32, bool)], result: GameResult) {
    let mut adjudicator = Adjudicator::new(rules);
    let mut verdict = None;
    let mut end = plies.len();
    for (i, &(score, _)) in plies.iter().enumerate() {
        if let Some(v) = adjudicator.observe(score) {
            // The game as played ended here too: the rule the games were played with.
            if i + 1 < plies.len() {
                verdict = Some(v);
            }
            end = i + 1;
            break;
        }
    }
    let kept = plies.iter().filter(|p| p.1).count() as u64;
    let kept_with_rules = plies[..end].iter().filter(|p| p.1).count() as u64;
    study.games += 1;
    study.moves += plies.len() as u64;
    study.kept += kept;
    study.moves_with_rules += end as u64;
    study.kept_with_rules += kept_with_rules;
    study.results[result as usize] += 1;
    let final_result = verdict.unwrap_or(result);
    study.results_with_rules[final_result as usize] += 1;
    if let Some(v) = verdict {
        match v {
            GameResult::Draw => study.ended_draw += 1,
            _ => study.ended_win += 1,
        }
        if v != result {
            study.wrong += 1;
            study.wrong_kept += kept_with_rules;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: Rules = Rules {
        win_score: 1000,
        win_plies: 4,
        draw_score: 10,
        draw_plies: 6,
        draw_after: 20,
    };

    #[test]
    fn a_win_needs_its_plies_in_a_row_for_one_side() {
        let mut a = Adjudicator::new(RULES);
        for s in [1200, 1500, -1100, 1300, 1300, 1300] {
            assert_eq!(a.observe(s), None);
        }
        assert_eq!(a.observe(2000), Some(GameResult::WhiteWins));
        let mut b = Adjudicator::new(RULES);
        for s in [-1000, -32000, -1000] {
            assert_eq!(b.observe(s), None);
        }
        assert_eq!(b.observe(-1000), Some(GameResult::BlackWins));
    }

    #[test]
    fn a_draw_waits_for_its_move_and_needs_level_scores_in_a_row() {
        let mut a = Adjudicator::new(RULES);
        for _ in 0..20 {
            assert_eq!(
                a.observe(0),
                None,
                "too early: the draw rule starts at move 21"
            );
        }
        for s in [5, -10, 0, 0, 11] {
            assert_eq!(a.observe(s), None);
        }
        for _ in 0..5 {
            assert_eq!(a.observe(-3), None);
        }
        assert_eq!(a.observe(3), Some(GameResult::Draw));
        let off = Rules {
            draw_plies: 0,
            ..RULES
        };
        let mut b = Adjudicator::new(off);
        assert!((0..300).all(|_| b.observe(0).is_none()));
    }

    #[test]
    fn the_study_counts_what_a_rule_saves_and_gets_wrong() {
        let mut study = Study::default();
        // A level game that White won in the end: the draw rule ends it at move 26, wrongly.
        let mut game: Vec<(i32, bool)> = vec![(0, true); 40];
        game.extend([
            (500, true),
            (1000, true),
            (1000, true),
            (1000, false),
            (1000, true),
        ]);
        study_game(&mut study, RULES, &game, GameResult::WhiteWins);
        // A game that ended by the win rule the games were played with: unchanged.
        let won = vec![(1000, true); 4];
        study_game(&mut study, RULES, &won, GameResult::WhiteWins);
        assert_eq!(study.games, 2);
        assert_eq!((study.moves, study.moves_with_rules), (49, 30));
        assert_eq!((study.kept, study.kept_with_rules), (48, 30));
        assert_eq!((study.ended_draw, study.ended_win), (1, 0));
        assert_eq!((study.wrong, study.wrong_kept), (1, 26));
        assert_eq!(study.results, [0, 0, 2]);
        assert_eq!(study.results_with_rules, [0, 1, 1]);
    }
}
