//! The book's stages as presets: `setoption name Stage value N`, `set stage N` and `--stage N`
//! switch on what the book had built by stage N, and nothing else.

mod common;

use common::Engine;
use engine::stages::{FIRST_STAGE, last_stage, stage_of};
use engine::techniques::TECHNIQUES;
use std::time::Duration;

const MINUTE: Duration = Duration::from_secs(60);

/// The node count of a `bench` command: its last line is `N nodes M nps`.
fn bench_nodes(e: &mut Engine, bench: &str) -> u64 {
    e.send(bench);
    loop {
        let line = e.line(MINUTE).expect("bench's lines");
        assert!(!line.starts_with("info string error"), "{bench}: {line}");
        if line.ends_with(" nps") && !line.starts_with("position") {
            return line
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a node count");
        }
    }
}

/// `cb2026 ARGS...` on the command line: the node count of its last line.
fn command_line_nodes(args: &[&str]) -> u64 {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_cb2026"))
        .args(args)
        .output()
        .expect("run cb2026");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{args:?}: {stdout}");
    let last = stdout.lines().last().unwrap_or_default();
    last.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{args:?}: no node count in {last:?}"))
}

/// The counters `stats` prints after the last job, by name.
fn stats(e: &mut Engine) -> Vec<(String, u64)> {
    e.send("stats");
    e.send("isready");
    e.until("readyok", MINUTE)
        .iter()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let name = words.next()?;
            let count = words.next()?.parse().ok()?;
            Some((name.to_string(), count))
        })
        .collect()
}

#[test]
fn the_option_the_command_and_the_argument_bench_the_same_engine() {
    let from_the_command_line = command_line_nodes(&["bench", "6", "--stage", "17"]);
    let mut e = Engine::start();
    e.send("setoption name Stage value 17");
    assert_eq!(bench_nodes(&mut e, "bench 6"), from_the_command_line);
    e.send("set stage 17");
    assert_eq!(
        e.line(MINUTE).as_deref(),
        Some("info string stage = 17 (NNUE: a network as the evaluation)")
    );
    assert_eq!(bench_nodes(&mut e, "bench 6"), from_the_command_line);
    // A stage given to one bench leaves the session's switches alone.
    e.send("setoption name Stage value 16");
    let sixteen = bench_nodes(&mut e, "bench 6");
    assert_ne!(sixteen, from_the_command_line, "the network is stage 17's");
    assert_eq!(
        bench_nodes(&mut e, "bench 6 --stage 17"),
        from_the_command_line
    );
    assert_eq!(bench_nodes(&mut e, "bench 6"), sixteen);
}

#[test]
fn the_option_is_listed_and_its_default_is_the_full_engine() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", MINUTE);
    let stages: String = (FIRST_STAGE..=last_stage())
        .map(|n| format!(" var {n}"))
        .collect();
    let declared = format!("option name Stage type combo default full var full{stages}");
    assert!(lines.contains(&declared), "{lines:?}");
    assert!(declared.ends_with(" var 19 var 20"), "{declared}");
    let default = bench_nodes(&mut e, "bench 6");
    e.send("setoption name Stage value 9");
    assert_ne!(bench_nodes(&mut e, "bench 6"), default);
    e.send("setoption name Stage value full");
    assert_eq!(bench_nodes(&mut e, "bench 6"), default);
    // Stage 20 is every technique the book has built, its own too, which the defaults leave off.
    e.send("setoption name Stage value 20");
    assert_ne!(bench_nodes(&mut e, "bench 6"), default);
    e.send("set stage FULL");
    assert_eq!(
        e.line(MINUTE).as_deref(),
        Some("info string stage = full (the engine's default switches)")
    );
    assert_eq!(bench_nodes(&mut e, "bench 6"), default);
}

/// A stage is the switches a reader would set by hand from the book's contents: the ones of the
/// later chapters off (here written out, not read from the techniques table).
#[test]
fn a_stage_benches_as_its_switches_set_by_hand() {
    let mut e = Engine::start();
    // Stage 17: the full engine but the tablebases (and stage 20's, off by default anyway).
    e.send("set syzygy off");
    e.is_ready();
    let by_hand = bench_nodes(&mut e, "bench 6");
    assert_eq!(bench_nodes(&mut e, "bench 6 --stage 17"), by_hand);
    // Stage 14: without chapter 15's extensions and reductions, nor the evaluations of 16 and 17.
    e.send("set stage full");
    for later in [
        "iir",
        "singular_extensions",
        "double_extensions",
        "negative_extensions",
        "multi_cut",
        "hce",
        "nnue",
        "syzygy",
    ] {
        e.send(&format!("set {later} off"));
    }
    e.is_ready();
    let by_hand = bench_nodes(&mut e, "bench 5");
    assert_eq!(bench_nodes(&mut e, "bench 5 --stage 14"), by_hand);
}

/// Each stage that adds a technique the bench reaches changes the bench; a stage that adds none
/// (11, 18) or only the tablebases, which the bench has none of (19), repeats the one before.
/// Each pair is benched at one depth: 2 up to stage 9 (the engines before move ordering search
/// millions of nodes at depth 4), then 5 (the shallowest at which every stage's techniques fire).
#[test]
fn each_stage_that_adds_a_technique_changes_the_bench() {
    let mut e = Engine::start();
    let mut bench =
        |stage: u32, depth: u32| bench_nodes(&mut e, &format!("bench {depth} --stage {stage}"));
    for stage in FIRST_STAGE + 1..=last_stage() {
        let depth = if stage <= 9 { 2 } else { 5 };
        let (before, nodes) = (bench(stage - 1, depth), bench(stage, depth));
        let added: Vec<&str> = TECHNIQUES
            .iter()
            .filter(|t| stage_of(t.chapter) == Some(stage) && t.name != "syzygy")
            .map(|t| t.name)
            .collect();
        if added.is_empty() {
            assert_eq!(
                nodes, before,
                "stage {stage} adds no technique the bench reaches"
            );
        } else {
            assert_ne!(nodes, before, "stage {stage} adds {added:?}");
        }
    }
}

#[test]
fn switches_set_after_a_stage_apply_on_top_and_bad_values_change_nothing() {
    let mut e = Engine::start();
    e.send("set stage 12");
    e.is_ready();
    let twelve = bench_nodes(&mut e, "bench 5");
    e.send("set lmr on");
    let with_lmr = bench_nodes(&mut e, "bench 5");
    assert_ne!(with_lmr, twelve);
    assert_eq!(
        with_lmr,
        bench_nodes(&mut e, "bench 5 --stage 13"),
        "lmr is stage 13"
    );
    // Refused, each with an error, and the switches stay as they were (stage 12 with lmr).
    for bad in [
        "set stage 5",
        "set stage 99",
        "set stage twelve",
        "setoption name Stage value 0",
        "setoption name Stage value x",
        "setoption name Stage value 21",
        "set stage fullest",
        "bench 5 --stage 4",
        "tree --stage 21",
    ] {
        e.send(bad);
        let line = e.line(MINUTE).expect("an answer");
        assert!(line.starts_with("info string error: "), "{bad}: {line}");
    }
    assert_eq!(bench_nodes(&mut e, "bench 5"), with_lmr);
    // A stage again resets every switch to its preset.
    e.send("setoption name Stage value 12");
    assert_eq!(bench_nodes(&mut e, "bench 5"), twelve);
}

/// The engine of chapter 6 is alpha-beta with PVS, aspiration windows, mate distance pruning and
/// the check extension: no counter of a later technique moves in its bench.
#[test]
fn stage_6_fires_no_later_technique() {
    let mut e = Engine::start();
    e.send("set stage 6");
    bench_nodes(&mut e, "bench 4");
    let counters = stats(&mut e);
    assert!(counters.len() > 30, "{counters:?}");
    // What stage 6 counts; how cutoffs divide among kinds of move is counted whatever orders them.
    let of_stage_6 = [
        "Nodes",
        "BetaCutoff",
        "FirstMoveCutoff",
        "PvsResearch",
        "AspirationFailLow",
        "AspirationFailHigh",
        "MateDistancePruning",
        "CheckExtension",
        "Draw",
        "CutoffGoodCapture",
        "CutoffQuiet",
        "CutoffBadCapture",
    ];
    for (name, count) in &counters {
        if !of_stage_6.contains(&name.as_str()) {
            assert_eq!(*count, 0, "{name} fired at stage 6");
        }
    }
    for name in ["Nodes", "BetaCutoff", "PvsResearch", "CheckExtension"] {
        assert!(
            counters.iter().any(|(n, c)| n == name && *c > 0),
            "{name}: {counters:?}"
        );
    }
    // And the next stages switch theirs on.
    // (Null move starts at depth 3, so its bench is deeper.)
    for (stage, depth, counter) in [
        (7, 2, "QNodes"),
        (8, 2, "TtCutoff"),
        (9, 2, "CutoffKiller"),
        (12, 4, "NullMove"),
    ] {
        bench_nodes(&mut e, &format!("bench {depth} --stage {stage}"));
        let counters = stats(&mut e);
        assert!(
            counters.iter().any(|(n, c)| n == counter && *c > 0),
            "stage {stage}: {counter} {counters:?}"
        );
    }
}

#[test]
fn tree_and_chapter_table_take_a_stage() {
    let mut e = Engine::start();
    e.send("tree depth 2 --stage 6 --off check_extension");
    let lines = e.until("outcomes", MINUTE);
    let off = lines
        .iter()
        .find(|l| l.starts_with("switched off: "))
        .expect("the switches");
    assert!(
        off.contains("check_extension") && off.contains("quiescence, tt,"),
        "{off}"
    );
    assert!(!off.contains("pvs"), "{off}");
    e.send("chapter-table 3 --stage 8 tt");
    let table = e.until("| **total**", MINUTE);
    e.send("set stage 8");
    e.send("chapter-table 3 tt");
    assert_eq!(e.until("| **total**", MINUTE).last(), table.last());
}
