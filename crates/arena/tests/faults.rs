//! Engines that crash, hang, play illegal moves, are never ready or overstep their time: each
//! fault loses the game, is counted against the right engine, and the match goes on with a
//! restarted process.

mod common;
use common::*;

/// Two game pairs of a sound fake engine against one with `flags`; returns the run and its PGN.
fn against(flags: &str, extra: &str) -> (Run, Vec<arena::pgn::PgnGame>) {
    let pgn = temp("faults.pgn");
    let mut args = fake("good", "");
    args.extend(fake("bad", flags));
    args.extend(words(&format!(
        "--rounds 2 -c 2 --max-faults 100 --seed 3 --resign none --draw none --pgn {} \
         --openings file={} {extra}",
        pgn.display(),
        repo_file("data/openings/balanced.epd")
    )));
    if !extra.contains("--tc") {
        args.extend(words("--tc nodes=1"));
    }
    let run = run(&args);
    let games = read_pgn(&pgn);
    let _ = std::fs::remove_file(pgn);
    (run, games)
}

/// Every game lost by `bad` with this PGN termination and final comment.
fn all_lost_by_bad(run: &Run, games: &[arena::pgn::PgnGame], tag: &str) {
    assert_eq!(run.code, 0, "{}", run.show());
    assert_eq!(games.len(), 4, "{}", run.show());
    assert_eq!(score_of(games, "bad"), (0, 0, 4), "{}", run.show());
    for g in games {
        assert_eq!(g.tag("Termination"), Some(tag), "{:?}", g.tags);
        replay(g);
    }
    assert_eq!(summary_wdl(run), (4, 0, 0));
}

#[test]
fn crashes_are_counted_and_the_match_goes_on() {
    let (run, games) = against("--crash-at 3", "");
    all_lost_by_bad(&run, &games, "abandoned");
    assert_eq!(run.line("Faults:"), "Faults: bad: 4 crashes");
    // The crash came at the bad engine's third move of every game: a restarted process each time.
    for g in &games {
        let bad_moves = if g.tag("White") == Some("bad") {
            g.moves.len().div_ceil(2)
        } else {
            g.moves.len() / 2
        };
        assert_eq!(bad_moves, 2, "{:?}", g);
    }
}

#[test]
fn illegal_moves_are_counted() {
    let (run, games) = against("--illegal-at 2", "");
    all_lost_by_bad(&run, &games, "rules infraction");
    assert_eq!(run.line("Faults:"), "Faults: bad: 4 illegal moves");
    let (run, games) = against("--none-at 1", "");
    all_lost_by_bad(&run, &games, "rules infraction");
    assert_eq!(run.line("Faults:"), "Faults: bad: 4 illegal moves");
}

#[test]
fn hangs_are_counted_and_cost_only_the_margin() {
    let start = std::time::Instant::now();
    let (run, games) = against("--hang-at 2", "--tc movetime=50 --hang-margin 300");
    all_lost_by_bad(&run, &games, "abandoned");
    assert_eq!(run.line("Faults:"), "Faults: bad: 4 hangs");
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
    // With no clock (fixed nodes), the hang timeout bounds the wait.
    let (run, games) = against("--hang-at 1", "--hang-timeout 1");
    all_lost_by_bad(&run, &games, "abandoned");
    assert_eq!(run.line("Faults:"), "Faults: bad: 4 hangs");
}

#[test]
fn no_readyok_for_a_game_is_a_startup_fault() {
    let (run, games) = against("--not-ready-for-games", "--startup-timeout 1");
    all_lost_by_bad(&run, &games, "abandoned");
    assert_eq!(run.line("Faults:"), "Faults: bad: 4 startup failures");
}

#[test]
fn an_engine_that_never_starts_is_a_clear_error() {
    let (never_ready, _) = against("--no-readyok", "--startup-timeout 1");
    assert_eq!(never_ready.code, 1, "{}", never_ready.show());
    assert!(
        never_ready
            .stderr
            .contains("engine 'bad' no uciok/readyok within 1s"),
        "{}",
        never_ready.show()
    );
    let mut args = fake("good", "");
    args.extend(words(
        "--engine cmd=/no/such/engine name=missing --tc nodes=1 --rounds 1",
    ));
    let missing = run(&args);
    assert_eq!(missing.code, 1);
    assert!(
        missing.stderr.contains("cannot run '/no/such/engine'"),
        "{}",
        missing.show()
    );
}

#[test]
fn garbage_output_is_ignored() {
    let (run, games) = against("--garbage", "");
    assert_eq!(run.code, 0, "{}", run.show());
    assert_eq!(games.len(), 4);
    assert_eq!(run.line("Faults:"), "Faults: none");
}

#[test]
fn time_losses_are_detected_and_strict_fails() {
    let (run, games) = against("--overstep-at 3", "--tc 0.3+0.01 --strict");
    assert_eq!(run.code, 3, "{}", run.show());
    assert_eq!(score_of(&games, "bad"), (0, 0, 4));
    assert!(
        games
            .iter()
            .all(|g| g.tag("Termination") == Some("time forfeit"))
    );
    assert_eq!(run.line("Time losses:"), "Time losses: bad: 4");
    assert_eq!(run.line("Faults:"), "Faults: none");
}

#[test]
fn max_faults_ends_the_match() {
    let mut args = fake("good", "");
    args.extend(fake("bad", "--crash-at 1"));
    args.extend(words("--tc nodes=1 --rounds 50 -c 1 --max-faults 3"));
    let run = run(&args);
    assert_eq!(run.code, 2, "{}", run.show());
    assert!(
        run.stdout.contains("Ended: too many faults"),
        "{}",
        run.show()
    );
    assert!(
        run.stderr.contains("ended after 3 faults"),
        "{}",
        run.show()
    );
    assert_eq!(run.line("Faults:"), "Faults: bad: 3 crashes");
}
