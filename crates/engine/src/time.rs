//! How long to think: the search's limits and the soft and hard time limits drawn from the clock.

use crate::clock::Instant;
use crate::params::Params;
use chess::{Color, Move};
use std::time::Duration;

/// What `go` asked for. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Search only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Whether a clock (or fixed move time) limits the search.
    pub fn is_timed(&self) -> bool {
        self.movetime.is_some() || self.wtime.is_some() || self.btime.is_some()
    }
}

/// The soft limit: the time a move is expected to take; the search starts no new iteration once
/// a share of it (scaled by how settled the search is) is spent. The hard limit: stop wherever we
/// are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    pub soft: Duration,
    pub hard: Duration,
    /// A fixed time per move (`go movetime`): use all of it, stop only at the hard limit.
    pub fixed: bool,
}

/// In sudden death, the moves whose overhead is set aside where the increment doesn't pay it.
const OVERHEAD_MOVES: u64 = 50;

// ANCHOR: allot
/// Divides the remaining time. `overhead` (the `Move Overhead` option) is time lost between the
/// engine's answer and the GUI's clock, so it is never counted as usable.
pub fn allot(limits: &Limits, side: Color, overhead: u64, p: &Params) -> Option<TimeLimits> {
    if let Some(movetime) = limits.movetime {
        let t = Duration::from_millis(movetime.saturating_sub(overhead).max(1));
        return Some(TimeLimits {
            soft: t,
            hard: t,
            fixed: true,
        });
    }
    let (time, inc) = match side {
        Color::White => (limits.wtime?, limits.winc.unwrap_or(0)),
        Color::Black => (limits.btime?, limits.binc.unwrap_or(0)),
    };
    let usable = time.saturating_sub(overhead);
    // Sudden death: shared out as if `tm_moves_to_go` moves were left, whatever the move number.
    // The share of what is left stays the same, so the early moves, with the most on the clock,
    // get the most time, and the clock drains geometrically instead of running out.
    let moves = limits
        .movestogo
        .map_or(p.tm_moves_to_go.max(1) as u64, |m| {
            u64::from(m.clamp(1, 50))
        });
    // The time for the coming moves, shared out evenly: each brings its increment and loses the
    // overhead. In sudden death the moves after those may come too: where the increment doesn't
    // pay their overhead, the difference is set aside for a long game's worth of them. A clock
    // too short for all that leaves nothing to think with.
    let beyond = match limits.movestogo {
        Some(_) => 0,
        None => overhead
            .saturating_sub(inc)
            .saturating_mul(OVERHEAD_MOVES.saturating_sub(moves)),
    };
    let total = time
        .saturating_add(inc.saturating_mul(moves - 1))
        .saturating_sub(overhead.saturating_mul(moves))
        .saturating_sub(beyond);
    let soft = total / moves;
    // An iteration may overrun the soft limit; the hard limit caps that at a few times the
    // soft limit, and never more than three quarters of what is left.
    let hard = (soft * p.tm_hard_percent.max(100) as u64 / 100).min(usable * 3 / 4);
    // No floor: with nothing usable both limits are zero, and the search answers after depth 1
    // (which never polls the clock) instead of spending the reserve a millisecond a move.
    Some(TimeLimits {
        soft: Duration::from_millis(soft.min(hard)),
        hard: Duration::from_millis(hard),
        fixed: false,
    })
}
// ANCHOR_END: allot

/// The clock of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    limits: Option<TimeLimits>,
}

impl TimeManager {
    pub fn new(limits: Option<TimeLimits>) -> TimeManager {
        TimeManager::starting_at(Instant::now(), limits)
    }

    /// A clock that started at `start` (when `go` arrived), not now.
    pub fn starting_at(start: Instant, limits: Option<TimeLimits>) -> TimeManager {
        TimeManager { start, limits }
    }

    /// Starts the clock again (at `ponderhit`: the time spent pondering was the opponent's).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    // ANCHOR: hard_expired
    /// Past the hard limit: stop now.
    pub fn hard_expired(&self) -> bool {
        self.limits.is_some_and(|l| self.elapsed() >= l.hard)
    }
    // ANCHOR_END: hard_expired

    // ANCHOR: soft_expired
    /// Whether to start no further iteration: once `scale` times the soft limit is spent. The
    /// caller's scale is a share of the soft limit (an iteration started just before it usually
    /// ends well past it: the next iteration takes about as long as everything before it),
    /// raised for an unsettled search and lowered for a settled one.
    pub fn soft_expired(&self, scale: f64) -> bool {
        self.limits.is_some_and(|l| {
            !l.fixed && self.elapsed().as_secs_f64() >= l.soft.as_secs_f64() * scale
        })
    }
    // ANCHOR_END: soft_expired

    pub fn limits(&self) -> Option<TimeLimits> {
        self.limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: u64, inc: u64, movestogo: Option<u32>) -> Limits {
        Limits {
            wtime: Some(time),
            btime: Some(time),
            winc: Some(inc),
            binc: Some(inc),
            movestogo,
            ..Limits::default()
        }
    }

    #[test]
    fn limits_stay_inside_the_clock() {
        for (time, inc, mtg) in [
            (1000, 10, None),
            (10_000, 100, None),
            (10_000, 0, Some(40)),
            (100, 0, None),
            (5, 0, None),
            (300, 0, Some(1)),
            (60_000, 0, Some(1)),
        ] {
            let l = allot(&clock(time, inc, mtg), Color::White, 10, &Params::default()).unwrap();
            assert!(l.soft <= l.hard, "{time} {inc} {mtg:?}: {l:?}");
            let usable = time.saturating_sub(10);
            assert!(
                l.hard.as_millis() as u64 <= usable * 3 / 4,
                "{time} {inc} {mtg:?}: {l:?}"
            );
        }
        // At or under the overhead nothing is usable: answer after the first iteration.
        let scraps = allot(&clock(8, 0, None), Color::White, 10, &Params::default()).unwrap();
        assert_eq!((scraps.soft, scraps.hard), (Duration::ZERO, Duration::ZERO));
        let l = allot(
            &clock(10_000, 100, None),
            Color::Black,
            10,
            &Params::default(),
        )
        .unwrap();
        assert_eq!(
            l.soft,
            Duration::from_millis((10_000 + 100 * 19 - 10 * 20) / 20)
        );
        let movetime = Limits {
            movetime: Some(500),
            ..Limits::default()
        };
        assert_eq!(
            allot(&movetime, Color::White, 10, &Params::default())
                .unwrap()
                .hard,
            Duration::from_millis(490)
        );
        assert_eq!(
            allot(&Limits::depth(5), Color::White, 10, &Params::default()),
            None
        );
    }

    /// If every move takes its soft limit and the GUI charges the full overhead on top, a clock
    /// that holds the overhead of the moves to go never runs out, increment or not. (Taking the
    /// overhead off only once, a sudden-death second ran out after 45 such moves; setting it
    /// aside only for the 20 moves the soft limit assumes, after 53.)
    #[test]
    fn the_overhead_is_paid_on_every_move() {
        let overhead = 10;
        for (time, inc) in [
            (1000, 0),
            (3000, 0),
            (60_000, 0),
            (1000, 5),
            (1000, 10),
            (10_000, 100),
        ] {
            let mut left = time as i64;
            for moves in 0..60 {
                let l = allot(
                    &clock(left as u64, inc, None),
                    Color::White,
                    overhead,
                    &Params::default(),
                )
                .unwrap();
                left -= (l.soft.as_millis() as u64 + overhead) as i64;
                assert!(
                    left > 0,
                    "{time}+{inc}: out of time after {} moves",
                    moves + 1
                );
                left += inc as i64;
            }
        }
        // Under the overhead of the moves to go, every move is answered after depth 1.
        let scraps = allot(
            &clock(100, 0, None),
            Color::White,
            overhead,
            &Params::default(),
        )
        .unwrap();
        assert_eq!((scraps.soft, scraps.hard), (Duration::ZERO, Duration::ZERO));
    }
}
