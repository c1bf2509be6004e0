//! `tree` in UCI mode and on the command line: switches set with `set` reach the recorded
//! search, files of each format are written, and bad input is an error, never a crash (on the
//! command line, with exit status 1).

mod common;

use common::Engine;
use std::process::Command;
use std::time::Duration;

const SECOND: Duration = Duration::from_secs(1);
const FEN: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("cb2026-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name).to_string_lossy().into_owned()
}

/// The number in `"key": N` of a JSON text (enough for the top-level counters).
fn json_number(json: &str, key: &str) -> u64 {
    let at = json.find(&format!("\"{key}\": ")).expect(key) + key.len() + 4;
    json[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .expect("a number")
}

#[test]
fn uci_tree_follows_set_and_writes_every_format() {
    let mut e = Engine::start();
    let json_on = temp("on.json");
    e.send(&format!("tree depth 5 fen {FEN} out {json_on}"));
    let lines = e.until("info string tree", 60 * SECOND);
    assert!(lines.last().unwrap().contains("written to"), "{lines:?}");
    e.send("set reverse_futility off");
    e.until("info string reverse_futility", 10 * SECOND);
    let json_off = temp("off.json");
    e.send(&format!("tree depth 5 fen {FEN} out {json_off}"));
    e.until("info string tree", 60 * SECOND);
    let on = std::fs::read_to_string(&json_on).expect("written");
    let off = std::fs::read_to_string(&json_off).expect("written");
    assert!(json_number(&on, "ReverseFutility") > 0);
    assert_eq!(
        json_number(&off, "ReverseFutility"),
        0,
        "set reaches the tree"
    );
    assert!(off.contains("\"off\": [\"reverse_futility\"]"));
    // `stats` shows the tree's counters, as after a search.
    e.send("stats");
    let stats = e.until("CaptureDeferred", 10 * SECOND);
    assert!(
        stats
            .iter()
            .any(|l| l.starts_with("ReverseFutility") && l.contains(" 0 "))
    );

    for (name, start) in [("t.svg", "<svg"), ("t.html", "<!DOCTYPE html>")] {
        let path = temp(name);
        e.send(&format!("tree depth 4 out {path}"));
        e.until("info string tree", 60 * SECOND);
        let text = std::fs::read_to_string(&path).expect("written");
        assert!(text.starts_with(start), "{name}");
    }
    // Without a file: the text summary, PV first.
    e.send("tree depth 3");
    let text = e.until("ply 0", 60 * SECOND);
    assert!(text[0].starts_with("tree of "), "{text:?}");
    e.send("isready");
    e.until("readyok", 10 * SECOND);
}

#[test]
fn stop_ends_a_deep_tree_and_says_so() {
    let mut e = Engine::start();
    let path = temp("stopped.json");
    e.send(&format!("tree depth 20 out {path}"));
    e.send("isready");
    e.until("readyok", 10 * SECOND);
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let lines = e.until("info string tree", 30 * SECOND);
    assert!(
        lines
            .last()
            .unwrap()
            .ends_with("(stopped before the iteration ended)"),
        "{lines:?}"
    );
    let json = std::fs::read_to_string(&path).expect("written");
    assert!(json.contains("\"stopped\": true"));
}

#[test]
fn uci_tree_refuses_bad_input_and_stays_up() {
    let mut e = Engine::start();
    for bad in [
        "tree depth 0",
        "tree depth eleven",
        "tree fen nonsense",
        "tree off warp_drive",
        "tree out tree.png",
        "tree out /no/such/dir/t.json",
        "tree sideways",
    ] {
        e.send(bad);
        let line = e.until("info string error", 30 * SECOND);
        assert!(
            line.last().unwrap().starts_with("info string error: tree"),
            "{bad}: {line:?}"
        );
    }
    e.send("isready");
    e.until("readyok", 10 * SECOND);
}

#[test]
fn command_line_tree_with_switches_and_exit_status() {
    let path = temp("cli.json");
    let ok = Command::new(env!("CARGO_BIN_EXE_cb2026"))
        .args([
            "tree",
            "--depth",
            "4",
            "--off",
            "lmr,futility",
            "--out",
            &path,
        ])
        .output()
        .expect("run tree");
    assert!(ok.status.success());
    let json = std::fs::read_to_string(&path).expect("written");
    assert_eq!(json_number(&json, "Lmr"), 0);
    assert_eq!(json_number(&json, "Futility"), 0);
    for bad in [
        &["tree", "--depth", "0"][..],
        &["tree", "--fen", "8/8/8"],
        &["tree", "--off", "nothing"],
        &["tree", "--out", "x.txt"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_cb2026"))
            .args(bad)
            .output()
            .expect("run tree");
        assert_eq!(out.status.code(), Some(1), "{bad:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("info string error: tree"));
    }
}
