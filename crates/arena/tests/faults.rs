//! Engines that crash, hang, play illegal moves, are never ready or overstep their time: each
//! fault loses the game, is counted against the right engine, and the match goes on with a
//! restarted process.

mod common;
use common::*;

/// Two game pairs of a sound fake engine against one with `flags`.
fn against(flags: &str, extra: &str) -> Played {
    let tc = if extra.contains("--tc") {
        ""
    } else {
        "--tc nodes=1"
    };
    play_fakes(
        &[("good", ""), ("bad", flags)],
        &format!(
            "--rounds 2 -c 2 --max-faults 100 --seed 3 --resign none --draw none {} {tc} {extra}",
            balanced()
        ),
    )
}

/// Every game lost by `bad`, with this PGN termination.
fn all_lost_by_bad(played: &Played, tag: &str) {
    let (run, games) = (&played.run, &played.games);
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
    let played = against("--crash-at 3", "");
    all_lost_by_bad(&played, "abandoned");
    assert_eq!(played.run.line("Faults:"), "Faults: bad: 4 crashes");
    // The crash came at the bad engine's third move of every game: a restarted process each time.
    for g in &played.games {
        let bad_moves = if g.tag("White") == Some("bad") {
            g.moves.len().div_ceil(2)
        } else {
            g.moves.len() / 2
        };
        assert_eq!(bad_moves, 2, "{g:?}");
    }
}

#[test]
fn illegal_moves_are_counted() {
    for flags in ["--illegal-at 2", "--none-at 1"] {
        let played = against(flags, "");
        all_lost_by_bad(&played, "rules infraction");
        assert_eq!(played.run.line("Faults:"), "Faults: bad: 4 illegal moves");
    }
}

#[test]
fn hangs_are_counted_and_cost_only_the_margin() {
    // The wait is asserted by what arena says it waited, not by the wall clock: the move's
    // 50 ms, the time margin's 50 ms and the hang margin of 300 ms, not the default 2 s.
    let played = against("--hang-at 2", "--tc movetime=50 --hang-margin 300");
    all_lost_by_bad(&played, "abandoned");
    assert_eq!(played.run.line("Faults:"), "Faults: bad: 4 hangs");
    let waited = "hangs: no bestmove within its 0.050s + 350ms margin";
    assert_eq!(played.text.matches(waited).count(), 4, "{}", played.text);
    // With no clock (fixed nodes), the hang timeout bounds the wait.
    let played = against("--hang-at 1", "--hang-timeout 1");
    all_lost_by_bad(&played, "abandoned");
    assert_eq!(played.run.line("Faults:"), "Faults: bad: 4 hangs");
    let waited = "hangs: no bestmove within 1s";
    assert_eq!(played.text.matches(waited).count(), 4, "{}", played.text);
}

#[test]
fn no_readyok_for_a_game_is_a_startup_fault() {
    let played = against("--not-ready-for-games", "--startup-timeout 1");
    all_lost_by_bad(&played, "abandoned");
    assert_eq!(
        played.run.line("Faults:"),
        "Faults: bad: 4 startup failures"
    );
}

#[test]
fn an_engine_that_never_starts_is_a_clear_error() {
    let never_ready = against("--no-readyok", "--startup-timeout 1").run;
    assert_eq!(never_ready.code, 1, "{}", never_ready.show());
    let expected = "engine 'bad' no uciok/readyok within 1s";
    assert!(
        never_ready.stderr.contains(expected),
        "{}",
        never_ready.show()
    );
    let mut args = fakes(&[("good", "")]);
    args.extend(words(
        "--engine cmd=/no/such/engine name=missing --tc nodes=1 --rounds 1",
    ));
    let missing = run_for(&args, std::time::Duration::from_secs(60));
    assert_eq!(missing.code, 1);
    assert!(
        missing.stderr.contains("cannot run '/no/such/engine'"),
        "{}",
        missing.show()
    );
}

#[test]
fn garbage_output_is_ignored() {
    let played = against("--garbage", "");
    assert_eq!(played.run.code, 0, "{}", played.run.show());
    assert_eq!(played.games.len(), 4);
    assert_eq!(played.run.line("Faults:"), "Faults: none");
}

#[test]
fn time_losses_are_detected_and_strict_fails() {
    let played = against("--overstep-at 3", "--tc 0.3+0.01 --strict");
    let run = &played.run;
    assert_eq!(run.code, 3, "{}", run.show());
    assert_eq!(score_of(&played.games, "bad"), (0, 0, 4));
    assert!(
        played
            .games
            .iter()
            .all(|g| g.tag("Termination") == Some("time forfeit"))
    );
    assert_eq!(run.line("Time losses:"), "Time losses: bad: 4");
    assert_eq!(run.line("Faults:"), "Faults: none");
}

#[test]
fn max_faults_ends_the_match() {
    let played = play_fakes(
        &[("good", ""), ("bad", "--crash-at 1")],
        "--tc nodes=1 --rounds 50 -c 1 --max-faults 3",
    );
    let run = &played.run;
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
    assert_eq!(played.games.len(), 3);
}
