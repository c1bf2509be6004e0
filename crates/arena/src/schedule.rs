//! Which game is played when: pairings, rounds, colours and openings.
//!
//! A game's place in the schedule is a pure function of its number, so the same seed gives the
//! same games whatever the concurrency, and a schedule of a million games costs no memory.

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// 1-based, in schedule order (the PGN's `Round`).
    pub number: u64,
    /// The round: which opening (0-based).
    pub round: u64,
    /// The game pair this game belongs to (0-based); its two games share an opening.
    pub pair: u64,
    /// Which pairing: the index of the opponent in a gauntlet, 0 head to head.
    pub pairing: usize,
    /// Engine indices.
    pub white: usize,
    pub black: usize,
}

/// Engine 0 against each of the others: one pairing head to head, a gauntlet with more engines.
#[derive(Clone, Debug)]
pub struct Schedule {
    pub engines: usize,
    /// Game pairs per pairing.
    pub rounds: u64,
}

// ANCHOR: job
impl Schedule {
    pub fn pairings(&self) -> usize {
        self.engines.saturating_sub(1)
    }

    pub fn total_games(&self) -> u64 {
        self.rounds
            .saturating_mul(self.pairings() as u64)
            .saturating_mul(2)
    }

    /// The game with 0-based index `i`. Rounds are outermost, so every opponent of a gauntlet
    /// meets the same openings as the match goes on; within a pair, engine 0 has White first.
    pub fn job(&self, i: u64) -> GameJob {
        let pairings = self.pairings().max(1) as u64;
        let pair = i / 2;
        let pairing = (pair % pairings) as usize;
        let opponent = pairing + 1;
        let (white, black) = if i.is_multiple_of(2) {
            (0, opponent)
        } else {
            (opponent, 0)
        };
        GameJob {
            number: i + 1,
            round: pair / pairings,
            pair,
            pairing,
            white,
            black,
        }
    }
}
// ANCHOR_END: job

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_to_head_pairs_swap_colours() {
        let s = Schedule {
            engines: 2,
            rounds: 3,
        };
        assert_eq!(s.total_games(), 6);
        let jobs: Vec<_> = (0..6).map(|i| s.job(i)).collect();
        assert_eq!((jobs[0].white, jobs[0].black), (0, 1));
        assert_eq!((jobs[1].white, jobs[1].black), (1, 0));
        assert_eq!(jobs[1].round, jobs[0].round);
        assert_eq!(jobs[1].pair, jobs[0].pair);
        assert_eq!(jobs[5].round, 2);
    }

    #[test]
    fn gauntlet_meets_every_opponent_each_round() {
        let s = Schedule {
            engines: 4,
            rounds: 2,
        };
        assert_eq!(s.total_games(), 12);
        let round0: Vec<_> = (0..6).map(|i| s.job(i)).collect();
        assert!(round0.iter().all(|j| j.round == 0));
        let opponents: Vec<_> = round0.iter().map(|j| j.white.max(j.black)).collect();
        assert_eq!(opponents, [1, 1, 2, 2, 3, 3]);
        assert_eq!(s.job(6).round, 1);
        assert_eq!(s.job(6).pairing, 0);
    }
}
