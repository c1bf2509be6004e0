//! Whole matches between fake engines: the PGN reads back and agrees with the summary, the SPRT
//! decides, gauntlets report per opponent, seeds fix the schedule, Chess960 and PGN books work.

mod common;
use arena::pgn::{self, PgnGame};
use common::*;

/// Checks what every finished match's PGN must satisfy: each game replays legally from its FEN,
/// `PlyCount` is the number of moves, and a game ended by the rules really is over.
fn check_games(games: &[PgnGame]) {
    for g in games {
        let pos = replay(g);
        assert_eq!(
            g.tag("PlyCount").and_then(|n| n.parse().ok()),
            Some(g.moves.len()),
            "{:?}",
            g.tags
        );
        assert_eq!(g.result.as_deref(), g.tag("Result"));
        if g.tag("Termination") == Some("normal") {
            let over = !pos.has_legal_moves()
                || pos.is_fifty_move_draw()
                || pos.has_insufficient_material()
                || g.tag("Result") == Some("1/2-1/2"); // repetition needs the history
            assert!(over, "{:?} ends in a live position", g.tags);
        }
    }
}

/// A finished match that exited cleanly.
fn ok(played: Played) -> Played {
    assert_eq!(played.run.code, 0, "{}", played.run.show());
    played
}

#[test]
fn fake_match_pgn_reads_back_and_adds_up() {
    let played = ok(play_fakes(
        &[("strong", "--strong --score"), ("weak", "--score --seed 9")],
        &format!("--tc nodes=1 --rounds 30 -c 2 --seed 11 {}", balanced()),
    ));
    let games = &played.games;
    assert_eq!(games.len(), 60);
    check_games(games);
    let strong = score_of(games, "strong");
    assert_eq!(strong.0 + strong.1 + strong.2, 60);
    assert_eq!(summary_wdl(&played.run), strong);
    assert!(strong.0 > strong.2, "{strong:?}");
    // 30 complete pairs in the pentanomial.
    let penta = played.run.line("Pentanomial");
    let counts: u64 = penta[penta.find(": [").unwrap() + 3..penta.len() - 1]
        .split(", ")
        .map(|n| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(counts, 30, "{penta}");
    // The adjudicated games carry the scores in their comments.
    assert!(played.text.contains("/1 0.0"));
}

#[test]
fn sprt_accepts_h1_for_a_stronger_engine_and_h0_for_a_weaker() {
    for (first, second, verdict) in [
        ("--strong --score", "--score", "H1 accepted"),
        ("--score", "--strong --score", "H0 accepted"),
    ] {
        let played = ok(play_fakes(
            &[("first", first), ("second", second)],
            &format!(
                "--tc nodes=1 -c 2 --seed 5 --sprt elo0=0 elo1=10 {}",
                balanced()
            ),
        ));
        let run = &played.run;
        assert!(run.line("Ended:").ends_with(verdict), "{}", run.show());
        assert!(run.line("SPRT:").ends_with(verdict), "{}", run.show());
    }
}

#[test]
fn gauntlet_reports_each_opponent() {
    let played = ok(play_fakes(
        &[
            ("hero", "--strong --score"),
            ("rand-a", "--score --seed 1"),
            ("rand-b", "--score --seed 2"),
            ("greedy", "--strong --score --seed 3"),
        ],
        &format!("--tc nodes=1 --rounds 4 -c 2 {}", balanced()),
    ));
    for opponent in ["rand-a", "rand-b", "greedy", "total"] {
        let row = played.run.line(opponent);
        let games: u64 = row.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(games, if opponent == "total" { 24 } else { 8 }, "{row}");
    }
}

/// (Round, White, FEN) of every game, sorted: the schedule, whatever order games finished in.
fn schedule(seed: u64, concurrency: usize) -> Vec<(u64, String, String)> {
    let played = ok(play_fakes(
        &[("a", ""), ("b", "")],
        &format!(
            "--tc nodes=1 --rounds 6 --maxmoves 10 --seed {seed} -c {concurrency} {}",
            balanced()
        ),
    ));
    let mut games: Vec<_> = played
        .games
        .iter()
        .map(|g| {
            let tag = |t: &str| g.tag(t).unwrap_or_default().to_string();
            (tag("Round").parse().unwrap(), tag("White"), tag("FEN"))
        })
        .collect();
    games.sort();
    games
}

#[test]
fn the_same_seed_gives_the_same_schedule() {
    let one = schedule(42, 1);
    assert_eq!(one.len(), 12);
    assert_eq!(one, schedule(42, 2));
    assert_ne!(one, schedule(43, 2));
    // Pairs: the same opening twice, colours swapped.
    for pair in one.chunks(2) {
        assert_eq!(pair[0].2, pair[1].2);
        assert_ne!(pair[0].1, pair[1].1);
    }
}

#[test]
fn chess960_games_from_an_epd_book() {
    let played = ok(play_fakes(
        &[("a", "--strong --score"), ("b", "--score")],
        &format!(
            "--variant fischerandom --tc nodes=1 --rounds 8 --openings file={}",
            repo_file("data/perft/chess960.epd")
        ),
    ));
    assert_eq!(played.games.len(), 16);
    assert!(
        played
            .games
            .iter()
            .all(|g| g.tag("Variant") == Some("Chess960"))
    );
    check_games(&played.games);
}

#[test]
fn pgn_opening_book() {
    let book = temp("book.pgn");
    std::fs::write(
        &book,
        "[Event \"x\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 *\n\n[Event \"y\"]\n\n1. d4 Nf6 2. c4 e6 *\n",
    )
    .unwrap();
    let played = ok(play_fakes(
        &[("a", ""), ("b", "")],
        &format!(
            "--tc nodes=1 --rounds 2 --maxmoves 20 --openings file={} plies=4 order=sequential",
            book.display()
        ),
    ));
    let _ = std::fs::remove_file(book);
    assert_eq!(played.games.len(), 4);
    check_games(&played.games);
    let mut starts: Vec<_> = played
        .games
        .iter()
        .map(|g| g.moves[..4].join(" "))
        .collect();
    starts.sort();
    assert_eq!(
        starts,
        [
            "d4 Nf6 c4 e6",
            "d4 Nf6 c4 e6",
            "e4 c5 Nf3 d6",
            "e4 c5 Nf3 d6"
        ]
    );
    assert!(
        played.text.contains("1. e4 {book} 1... c5 {book}"),
        "{}",
        played.text
    );
}

#[test]
fn clocks_are_kept_and_shown() {
    let played = ok(play_fakes(
        &[
            ("a", "--use-time --strong --score"),
            ("b", "--use-time --score"),
        ],
        &format!("--tc 2+0.02 --rounds 1 -c 2 --strict {}", balanced()),
    ));
    assert!(played.text.contains("[TimeControl \"2+0.02\"]"));
    assert!(played.text.contains("s left}"), "{}", played.text);
    assert_eq!(played.run.line("Time losses:"), "Time losses: none");
}

/// Runs arena between fake engines with `extra` arguments and the PGN `pgn`, kept.
fn run_with_pgn(engines: &[(&str, &str)], extra: &str, pgn: &std::path::Path) -> Run {
    let mut args = fakes(engines);
    args.extend(words(extra));
    args.extend(["--pgn".to_string(), pgn.display().to_string()]);
    run_for(&args, std::time::Duration::from_secs(120))
}

fn rounds_in(games: &[PgnGame]) -> Vec<u64> {
    let mut rounds: Vec<u64> = games
        .iter()
        .map(|g| g.tag("Round").unwrap().parse().unwrap())
        .collect();
    rounds.sort();
    rounds
}

#[test]
fn resume_plays_only_the_rest_of_the_schedule() {
    let engines = [("strong", "--strong --score"), ("weak", "--score --seed 9")];
    let args = format!("--tc nodes=1 --rounds 10 -c 2 --seed 7 {}", balanced());
    let full = temp("full.pgn");
    let run = run_with_pgn(&engines, &args, &full);
    assert_eq!(run.code, 0, "{}", run.show());
    let text = std::fs::read_to_string(&full).unwrap();
    let _ = std::fs::remove_file(&full);

    // An interrupted run: games 1 to 14 but game 5 (finished out of order), and game 15 cut
    // off unfinished.
    let mut kept = String::new();
    for chunk in text.split("[Event ").filter(|c| !c.is_empty()) {
        let game = format!("[Event {chunk}");
        let parsed = &pgn::parse(&game)[0];
        let number: u64 = parsed.tag("Round").unwrap().parse().unwrap();
        if number <= 14 && number != 5 {
            kept.push_str(&game);
        } else if number == 15 {
            let result = parsed.result.as_deref().unwrap();
            let body = game.trim_end().strip_suffix(result).unwrap();
            kept.push_str(&format!("{body}*\n\n"));
        }
    }
    let partial = temp("partial.pgn");
    std::fs::write(&partial, &kept).unwrap();

    // Another seed gives other openings: refused, and the PGN is left as it was.
    let wrong = run_with_pgn(
        &engines,
        &args.replace("--seed 7", "--seed 8 --resume"),
        &partial,
    );
    assert_eq!(wrong.code, 1, "{}", wrong.show());
    assert!(wrong.stderr.contains("--seed"), "{}", wrong.show());
    assert_eq!(std::fs::read_to_string(&partial).unwrap(), kept);

    let resumed = run_with_pgn(&engines, &format!("{args} --resume"), &partial);
    assert_eq!(resumed.code, 0, "{}", resumed.show());
    assert!(
        resumed
            .line("Resumed:")
            .starts_with("Resumed: 13 of these games")
    );
    let games = pgn::parse(&std::fs::read_to_string(&partial).unwrap());
    let _ = std::fs::remove_file(&partial);
    let finished: Vec<PgnGame> = games
        .into_iter()
        .filter(|g| g.result.as_deref() != Some("*"))
        .collect();
    assert_eq!(rounds_in(&finished), (1..=20).collect::<Vec<u64>>());
    check_games(&finished);
    assert_eq!(summary_wdl(&resumed), score_of(&finished, "strong"));
    assert!(resumed.line("Games:").starts_with("Games: 20 in"));
}

#[test]
fn resume_after_a_decided_sprt_plays_nothing() {
    let engines = [("strong", "--strong --score"), ("weak", "--score")];
    let args = format!(
        "--tc nodes=1 --sprt elo0=0 elo1=50 -c 2 --seed 3 {}",
        balanced()
    );
    let pgn_path = temp("sprt.pgn");
    let first = run_with_pgn(&engines, &args, &pgn_path);
    assert_eq!(first.code, 0, "{}", first.show());
    let verdict = first.line("SPRT:").to_string();
    assert!(verdict.contains("H1 accepted"), "{verdict}");
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    let again = run_with_pgn(&engines, &format!("{args} --resume"), &pgn_path);
    assert_eq!(again.code, 0, "{}", again.show());
    assert_eq!(std::fs::read_to_string(&pgn_path).unwrap(), text);
    let _ = std::fs::remove_file(&pgn_path);
    assert_eq!(again.line("SPRT:"), verdict);
    assert_eq!(
        again.line("Games:").split(" in ").next(),
        first.line("Games:").split(" in ").next()
    );
}
