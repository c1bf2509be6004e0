//! The engine never loses on time. Games are played against the engine by itself, each side with
//! its own clock kept here from wall time (as a GUI keeps it): sent `go`, received `bestmove`,
//! the difference comes off the mover's clock, then the increment goes on. Every move must come
//! back before the mover's flag falls, as far as this side of the pipe can tell
//! ([`READ_DELAY_MS`]).

mod common;

use chess::Position;
use common::Engine;
use std::time::{Duration, Instant};

/// How late after the flag a move may be read here and still count. The test keeps the clock on
/// its own side of a pipe, on a machine whose two cores run other builds: a move the engine sent
/// in time can be read late by the scheduler's delay on each side (a time slice, about 12 ms on
/// two loaded cores). So a move is late only past 25 ms after the flag. The engine's own
/// allowance for such delays is `Move Overhead` (10 ms here, as a GUI sets it); a time manager
/// that overran would overrun by far more (a hard limit past the clock).
const READ_DELAY_MS: i64 = 25;

struct Clock {
    name: &'static str,
    base_ms: i64,
    inc_ms: i64,
    /// Moves per period (with `movestogo`), `None` for sudden death.
    moves_per_period: Option<u32>,
}

/// What `play` does when the game ends by the rules before `max_plies`.
#[derive(Clone, Copy, PartialEq)]
enum AtTheEnd {
    /// Stop there: the test is about a whole game.
    Stop,
    /// Set the start position up again and play on with the clocks as they are: the test is
    /// about the clock (a period of `movestogo` to its end), and a game that ends early (its
    /// length depends on timing) must not cut it short.
    PlayOn,
}

/// Plays up to `max_plies` plies from `start` and returns how many moves were played in time.
fn play(e: &mut Engine, clock: &Clock, start: &str, max_plies: usize, at_end: AtTheEnd) -> usize {
    let mut pos = Position::from_fen(start).unwrap();
    let mut moves: Vec<String> = Vec::new();
    let mut plies = 0;
    let mut time = [clock.base_ms, clock.base_ms];
    let mut moves_made = [0u32; 2];
    // Each ply's clock before the move and the time it took, for the message of a failure.
    let mut spent: Vec<String> = Vec::new();
    let (mut total_used, mut longest, mut least_left) = (0, 0, i64::MAX);
    e.send("ucinewgame");
    e.is_ready();
    for ply in 0..max_plies {
        if !pos.has_legal_moves() || pos.is_fifty_move_draw() || pos.has_insufficient_material() {
            if at_end == AtTheEnd::Stop {
                break;
            }
            pos = Position::from_fen(start).unwrap();
            moves.clear();
        }
        // The clocks are White's and Black's: after a restart the colours need not alternate
        // with the plies.
        let side = pos.side_to_move() as usize;
        let mut go = format!(
            "go wtime {} btime {} winc {} binc {}",
            time[0], time[1], clock.inc_ms, clock.inc_ms
        );
        if let Some(period) = clock.moves_per_period {
            let played = moves_made[side] % period;
            go.push_str(&format!(" movestogo {}", period - played));
        }
        e.send(&format!("position fen {start} moves {}", moves.join(" ")));
        let sent = Instant::now();
        e.send(&go);
        let lines = e.until(
            "bestmove",
            Duration::from_millis(time[side].max(0) as u64 + 5000),
        );
        // Whole milliseconds, rounded up: a part of one is never free.
        let used = sent.elapsed().as_micros().div_ceil(1000) as i64;
        spent.push(format!("{}/{used}", time[side]));
        assert!(
            used < time[side] + READ_DELAY_MS,
            "ply {ply}: used {used} ms with {} ms on the clock ({go}); clock/used so far: {}",
            time[side],
            spent.join(" ")
        );
        // Past the flag but within the read delay: the next `go` says 0 ms left.
        time[side] = (time[side] - used).max(0);
        total_used += used;
        longest = longest.max(used);
        least_left = least_left.min(time[side]);
        time[side] += clock.inc_ms;
        moves_made[side] += 1;
        if let Some(period) = clock.moves_per_period {
            // A new period begins after the last move of this one.
            if moves_made[side] % period == 0 {
                time[side] += clock.base_ms;
            }
        }
        let best = Engine::best_move(&lines);
        let mv = pos
            .parse_uci_move(&best)
            .unwrap_or_else(|e| panic!("ply {ply}: {e}"));
        pos.make_move(mv);
        moves.push(best);
        plies += 1;
    }
    // Shown with `--nocapture`: how close the game came to the flag.
    println!(
        "{}: {plies} plies, mean {:.1} ms a move, longest {longest} ms, least left {least_left} ms",
        clock.name,
        total_used as f64 / plies.max(1) as f64
    );
    plies
}

const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";

#[test]
fn survives_fast_and_tricky_clocks() {
    let mut e = Engine::start();
    e.send("setoption name Move Overhead value 10");
    // 1 s + 10 ms a move: a whole game.
    let one = Clock {
        name: "1 s + 0.01 s",
        base_ms: 1000,
        inc_ms: 10,
        moves_per_period: None,
    };
    assert!(play(&mut e, &one, chess::STARTPOS, 240, AtTheEnd::Stop) > 20);
    // 40 moves in 10 s with movestogo: through the 40th move of the period and past it.
    let forty = Clock {
        name: "40 moves in 10 s",
        base_ms: 10_000,
        inc_ms: 0,
        moves_per_period: Some(40),
    };
    assert_eq!(play(&mut e, &forty, MIDDLEGAME, 84, AtTheEnd::PlayOn), 84);
    // 0.1 s left, no increment: twenty moves each.
    let scraps = Clock {
        name: "0.1 s, no increment",
        base_ms: 100,
        inc_ms: 0,
        moves_per_period: None,
    };
    assert_eq!(play(&mut e, &scraps, MIDDLEGAME, 40, AtTheEnd::PlayOn), 40);
    // 10 s + 0.1 s: the opening and early middlegame.
    let ten = Clock {
        name: "10 s + 0.1 s",
        base_ms: 10_000,
        inc_ms: 100,
        moves_per_period: None,
    };
    assert_eq!(
        play(&mut e, &ten, chess::STARTPOS, 30, AtTheEnd::PlayOn),
        30
    );
}
