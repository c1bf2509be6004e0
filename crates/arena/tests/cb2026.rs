//! cb2026 against itself at fixed nodes: arena judging the real engine. The test builds the
//! engine first (`cargo build --release -p uci`), so it always plays the current source.

mod common;
use common::*;
use std::process::{Command, Stdio};

/// Builds the engine and returns the path cargo gives for it, so that the test finds it
/// wherever the target folder is (`CARGO_TARGET_DIR`, a cargo config, or `target/`).
fn build_cb2026() -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(["build", "--release", "-p", "uci", "--bin", "cb2026"])
        .arg("--message-format=json")
        .current_dir(repo_file(""))
        .stderr(Stdio::inherit())
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cb2026 does not build");
    let messages = String::from_utf8_lossy(&out.stdout);
    messages
        .lines()
        .filter(|line| line.contains(r#""reason":"compiler-artifact""#))
        .find_map(executable)
        .unwrap_or_else(|| panic!("cargo named no cb2026 binary:\n{messages}"))
}

/// The `"executable"` path of one of cargo's JSON messages, if it is cb2026's.
fn executable(message: &str) -> Option<String> {
    let key = r#""executable":""#;
    let rest = &message[message.find(key)? + key.len()..];
    // JSON escapes a backslash (Windows paths) as two; a path with a quote is not expected.
    let path = rest[..rest.find('"')?].replace(r"\\", r"\");
    let name = std::path::Path::new(&path).file_stem()?.to_str()?;
    (name == "cb2026").then_some(path)
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

#[test]
fn the_engine_is_found_where_cargo_says_it_is() {
    // The path comes from cargo's own message, so a target folder elsewhere (CARGO_TARGET_DIR)
    // is followed, and only cb2026's artifact is taken.
    let moved = r#"{"reason":"compiler-artifact","executable":"/elsewhere/ci-target/release/cb2026","fresh":true}"#;
    assert_eq!(
        executable(moved).as_deref(),
        Some("/elsewhere/ci-target/release/cb2026")
    );
    let other = r#"{"reason":"compiler-artifact","executable":"/t/release/arena"}"#;
    assert_eq!(executable(other), None);
    assert_eq!(
        executable(r#"{"reason":"build-finished","success":true}"#),
        None
    );
}
