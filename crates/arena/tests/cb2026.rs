//! cb2026 against itself at fixed nodes: arena judging the real engine. The test builds the
//! engine first (`cargo build --release -p uci`), so it always plays the current source.

mod common;
use common::*;
use std::process::Command;

fn build_cb2026() -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let status = Command::new(cargo)
        .args(["build", "--release", "-p", "uci", "--bin", "cb2026"])
        .current_dir(repo_file(""))
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cb2026 does not build");
    repo_file("target/release/cb2026")
}

#[test]
fn cb2026_plays_itself_at_fixed_nodes() {
    let cb2026 = build_cb2026();
    let engines = words(&format!(
        "--engine cmd={cb2026} name=cb2026-a --engine cmd={cb2026} name=cb2026-b"
    ));
    let extra = format!(
        "--each option.Hash=16 option.Threads=1 --tc nodes=2000 --rounds 3 -c 2 --seed 2026 \
         --strict --max-faults 1 --hang-timeout 10 {}",
        balanced()
    );
    let played = play(engines, &extra, std::time::Duration::from_secs(300));
    let (run, games) = (&played.run, &played.games);
    assert_eq!(run.code, 0, "{}", run.show());
    assert_eq!(run.line("Faults:"), "Faults: none");
    assert_eq!(run.line("Time losses:"), "Time losses: none");
    assert_eq!(games.len(), 6, "{}", run.show());
    let a = score_of(games, "cb2026-a");
    let b = score_of(games, "cb2026-b");
    assert_eq!(a.0 + a.1 + a.2, 6);
    assert_eq!((a.0, a.1, a.2), (b.2, b.1, b.0));
    assert_eq!(summary_wdl(run), a);
    for g in games {
        replay(g);
        assert_eq!(
            g.tag("PlyCount").and_then(|n| n.parse().ok()),
            Some(g.moves.len())
        );
    }
    // The engine reported scores, and the PGN kept them.
    assert!(
        played.text.contains("{+") || played.text.contains("{-"),
        "{}",
        played.text
    );
}
