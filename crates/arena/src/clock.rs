//! Time controls and the clocks arena keeps for each side.
//!
//! The clocks run on arena's wall time, from the moment the `go` command is written to the moment
//! the `bestmove` line is read, never on what the engine reports. Arena's own work between moves
//! is therefore charged to no one.

use chess::Color;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How long an engine may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `base+inc` seconds, or `moves/base+inc` with `base` added every `moves` moves.
    Clock {
        moves: Option<u32>,
        base: Duration,
        inc: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed number of nodes per move; no clock.
    Nodes(u64),
    /// A fixed depth per move; no clock.
    Depth(u32),
}

impl TimeControl {
    pub fn is_timed(&self) -> bool {
        matches!(self, TimeControl::Clock { .. } | TimeControl::MoveTime(_))
    }
}

fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(0.0..=1e7).contains(&value) {
        return Err(format!("'{text}' seconds is out of range"));
    }
    Ok(Duration::from_secs_f64(value))
}

fn number<T: FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("'{text}' is not a valid {what}"))
}

// ANCHOR: parse
impl FromStr for TimeControl {
    type Err = String;

    /// `8+0.08`, `40+0.4`, `60` (seconds, no increment), `40/60+0.6` (40 moves per period),
    /// `movetime=100` (milliseconds), `nodes=5000`, `depth=8`.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        parse_time_control(text.trim()).map_err(|e| format!("time control '{text}': {e}"))
    }
}

fn parse_time_control(text: &str) -> Result<TimeControl, String> {
    if let Some((key, value)) = text.split_once('=') {
        return match key {
            "movetime" => {
                let ms: u64 = number(value, "number of milliseconds")?;
                if ms == 0 {
                    return Err("movetime must be at least 1 ms".to_string());
                }
                Ok(TimeControl::MoveTime(Duration::from_millis(ms)))
            }
            "nodes" => Ok(TimeControl::Nodes(number(value, "node count")?)),
            "depth" => Ok(TimeControl::Depth(number(value, "depth")?)),
            _ => Err(
                "expected base+inc, moves/base+inc, movetime=MS, nodes=N or depth=N".to_string(),
            ),
        };
    }
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => (Some(number::<u32>(moves, "move count")?), rest),
        None => (None, text),
    };
    if moves == Some(0) {
        return Err("moves per period must be at least 1".to_string());
    }
    let (base, inc) = match rest.split_once('+') {
        Some((base, inc)) => (seconds(base)?, seconds(inc)?),
        None => (seconds(rest)?, Duration::ZERO),
    };
    if base.is_zero() && inc.is_zero() {
        return Err("no time at all".to_string());
    }
    Ok(TimeControl::Clock { moves, base, inc })
}
// ANCHOR_END: parse

/// The PGN `TimeControl` tag's form: seconds, `moves/seconds`, `+increment`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { moves, base, inc } => {
                if let Some(moves) = moves {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", base.as_secs_f64())?;
                if !inc.is_zero() {
                    write!(f, "+{}", inc.as_secs_f64())?;
                }
                Ok(())
            }
            TimeControl::MoveTime(t) => write!(f, "movetime={}", t.as_millis()),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// One side's clock through a game.
#[derive(Clone, Debug)]
pub struct Clock {
    pub tc: TimeControl,
    remaining: Duration,
    /// Moves left before the next period's time is added, when the control has periods.
    moves_to_go: Option<u32>,
}

impl Clock {
    pub fn new(tc: TimeControl) -> Clock {
        let (remaining, moves_to_go) = match tc {
            TimeControl::Clock { moves, base, .. } => (base, moves),
            _ => (Duration::ZERO, None),
        };
        Clock {
            tc,
            remaining,
            moves_to_go,
        }
    }

    /// The time left on the clock, for clock controls.
    pub fn remaining(&self) -> Option<Duration> {
        matches!(self.tc, TimeControl::Clock { .. }).then_some(self.remaining)
    }

    /// How long the next move may take before the flag falls; `None` when nothing but nodes or
    /// depth limits it.
    pub fn allowance(&self) -> Option<Duration> {
        match self.tc {
            TimeControl::Clock { .. } => Some(self.remaining),
            TimeControl::MoveTime(t) => Some(t),
            TimeControl::Nodes(_) | TimeControl::Depth(_) => None,
        }
    }

    // ANCHOR: spend
    /// Charges a move that took `elapsed`. Returns false if the flag fell: the move came later
    /// than the allowance plus `margin`. A move within the margin leaves the clock at zero (plus
    /// the increment): the margin forgives pipe and scheduling delays, it does not lend time.
    pub fn spend(&mut self, elapsed: Duration, margin: Duration) -> bool {
        match self.tc {
            TimeControl::Clock { moves, base, inc } => {
                if elapsed > self.remaining + margin {
                    self.remaining = Duration::ZERO;
                    return false;
                }
                self.remaining = self.remaining.saturating_sub(elapsed) + inc;
                if let (Some(period), Some(left)) = (moves, self.moves_to_go.as_mut()) {
                    *left -= 1;
                    if *left == 0 {
                        *left = period;
                        self.remaining += base;
                    }
                }
                true
            }
            TimeControl::MoveTime(t) => elapsed <= t + margin,
            TimeControl::Nodes(_) | TimeControl::Depth(_) => true,
        }
    }
    // ANCHOR_END: spend
}

// ANCHOR: go
/// The `go` command for `side` to move. Both clocks are given, as GUIs do, when both sides play
/// on a clock; `movestogo` is the mover's.
pub fn go_command(clocks: &[Clock; 2], side: Color) -> String {
    let mover = &clocks[side.index()];
    match mover.tc {
        TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Clock { .. } => {
            let mut go = String::from("go");
            for (color, prefix) in [(Color::White, 'w'), (Color::Black, 'b')] {
                let clock = &clocks[color.index()];
                if let TimeControl::Clock { inc, .. } = clock.tc {
                    go += &format!(
                        " {prefix}time {} {prefix}inc {}",
                        clock.remaining.as_millis(),
                        inc.as_millis()
                    );
                }
            }
            if let Some(moves) = mover.moves_to_go {
                go += &format!(" movestogo {moves}");
            }
            go
        }
    }
}
// ANCHOR_END: go

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_the_usual_forms() {
        let clock = |moves, base, inc| TimeControl::Clock {
            moves,
            base: ms(base),
            inc: ms(inc),
        };
        assert_eq!("8+0.08".parse(), Ok(clock(None, 8000, 80)));
        assert_eq!("40+0.4".parse(), Ok(clock(None, 40_000, 400)));
        assert_eq!("60".parse(), Ok(clock(None, 60_000, 0)));
        assert_eq!("40/60+0.6".parse(), Ok(clock(Some(40), 60_000, 600)));
        assert_eq!("movetime=100".parse(), Ok(TimeControl::MoveTime(ms(100))));
        assert_eq!("nodes=5000".parse(), Ok(TimeControl::Nodes(5000)));
        assert_eq!("depth=8".parse(), Ok(TimeControl::Depth(8)));
        for bad in [
            "", "x", "8+", "+1", "0/10", "-1+0", "nodes=", "depth=x", "0+0", "foo=1",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(clock(Some(40), 60_000, 600).to_string(), "40/60+0.6");
        assert_eq!(clock(None, 8000, 80).to_string(), "8+0.08");
    }

    #[test]
    fn increment_and_flag() {
        let mut clock = Clock::new("1+0.1".parse().unwrap());
        assert!(clock.spend(ms(300), ms(50)));
        assert_eq!(clock.remaining(), Some(ms(800)));
        // Late by less than the margin: in time, clock emptied, then the increment.
        assert!(clock.spend(ms(830), ms(50)));
        assert_eq!(clock.remaining(), Some(ms(100)));
        // Late by more than the margin: flag.
        assert!(!clock.spend(ms(151), ms(50)));
    }

    #[test]
    fn periods_refill() {
        let mut clock = Clock::new("2/10".parse().unwrap());
        let go = go_command(&[clock.clone(), clock.clone()], Color::White);
        assert_eq!(go, "go wtime 10000 winc 0 btime 10000 binc 0 movestogo 2");
        assert!(clock.spend(ms(1000), ms(0)));
        assert_eq!(clock.moves_to_go, Some(1));
        assert!(clock.spend(ms(1000), ms(0)));
        assert_eq!(clock.remaining(), Some(ms(18_000)));
        assert_eq!(clock.moves_to_go, Some(2));
    }

    #[test]
    fn fixed_limits() {
        let mut movetime = Clock::new("movetime=100".parse().unwrap());
        assert!(movetime.spend(ms(120), ms(50)));
        assert!(!movetime.spend(ms(151), ms(50)));
        let nodes = Clock::new(TimeControl::Nodes(2000));
        assert_eq!(nodes.allowance(), None);
        assert_eq!(
            go_command(&[nodes.clone(), nodes], Color::Black),
            "go nodes 2000"
        );
    }
}
