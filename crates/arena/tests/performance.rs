//! arena's own cost: under 1 ms per move, and memory that does not grow with the number of games.
//! The bounds are loose on purpose (a shared two-core machine runs other tests at the same time);
//! the measured figures are in the book's testing chapter.

mod common;
use common::*;

fn instant_match(rounds: u32, pgn: &std::path::Path) -> Run {
    let mut args = fake("a", "--strong --score");
    args.extend(fake("b", "--score"));
    args.extend(words(&format!(
        "--tc nodes=1 --rounds {rounds} -c 2 --seed 1 --resign none --draw none --openings file={} --pgn {}",
        repo_file("data/openings/balanced.epd"),
        pgn.display()
    )));
    run(&args)
}

fn number_after(line: &str, word: &str) -> f64 {
    let rest = &line[line.find(word).unwrap_or_else(|| panic!("{line}")) + word.len()..];
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn overhead_per_move_is_under_a_millisecond() {
    let pgn = temp("overhead.pgn");
    let run = instant_match(100, &pgn);
    assert_eq!(run.code, 0, "{}", run.show());
    let line = run.line("Arena overhead per move:");
    let mean_us = number_after(line, "mean");
    let moves = number_after(line, " over ");
    assert!(moves > 5000.0, "{line}");
    assert!(mean_us < 1000.0, "{line}");
    let _ = std::fs::remove_file(pgn);
}

#[test]
fn memory_stays_flat_over_a_thousand_games() {
    let peak = |rounds| {
        let pgn = temp("memory.pgn");
        let run = instant_match(rounds, &pgn);
        assert_eq!(run.code, 0, "{}", run.show());
        assert_eq!(read_pgn(&pgn).len(), 2 * rounds as usize);
        let _ = std::fs::remove_file(pgn);
        number_after(run.line("Arena peak memory:"), "memory:")
    };
    let (hundred, thousand) = (peak(50), peak(500));
    // A leak of even a kilobyte a game would show as a megabyte here.
    assert!(
        thousand < hundred + 1.0,
        "{hundred} MiB after 100 games, {thousand} after 1000"
    );
}
