//! The search techniques of stage 20 (history bonus and malus, hindsight, fail-high blending,
//! quiescence futility, low-ply history): off by default, each changes the search when switched
//! on, and with all of them on the search stays deterministic and plays legal lines.

use chess::{CastlingMode, Move, Position};
use engine::tools::bench::{self, BENCH_POSITIONS};
use engine::{
    HceEvaluator, Limits, Note, Params, SearchOptions, TECHNIQUES, Techniques, ThreadPool,
    TranspositionTable,
};
use std::sync::Arc;

mod bundles;
use bundles::bundle;

const STAGE_20: [&str; 5] = [
    "history_bonus_malus",
    "hindsight",
    "fail_high_blend",
    "qs_futility",
    "low_ply_history",
];

/// What each technique counts when it acts.
const NOTES: [(&str, Note); 5] = [
    ("history_bonus_malus", Note::HistoryMalus),
    ("hindsight", Note::HindsightExtension),
    ("fail_high_blend", Note::FailHighBlend),
    ("qs_futility", Note::QsFutility),
    ("low_ply_history", Note::LowPlyHistory),
];

/// The default switches with the evaluation by hand (fast, and the same in every build) and
/// `names` switched on.
fn with_on(names: &[&str]) -> Techniques {
    let mut t = Techniques {
        nnue: false,
        ..Techniques::default()
    };
    for name in names {
        t.set(name, true).expect("a technique");
    }
    t
}

fn positions() -> &'static [(&'static str, bool)] {
    &BENCH_POSITIONS[..10]
}

#[test]
fn stage_20_is_switched_off_by_default_and_listed() {
    for name in STAGE_20 {
        let info = TECHNIQUES
            .iter()
            .find(|t| t.name == name)
            .expect("in the table");
        assert!(!info.default, "{name}");
        assert_eq!(info.chapter, "20", "{name}");
        assert_eq!(Techniques::default().get(name), Some(false), "{name}");
    }
}

#[test]
fn each_technique_changes_the_search_and_counts_itself() {
    let params = Params::default();
    let plain = bench::run(positions(), 8, &with_on(&[]), &params);
    for (name, note) in NOTES {
        assert_eq!(plain.counters.get(note), 0, "{name} off");
        let on = bench::run(positions(), 8, &with_on(&[name]), &params);
        assert_ne!(on.nodes, plain.nodes, "{name} changes the search");
        assert!(on.counters.get(note) > 0, "{name} counts {}", note.name());
    }
}

#[test]
fn all_on_the_search_is_deterministic() {
    let params = Params::default();
    let all = with_on(&STAGE_20);
    let first = bench::run(positions(), 9, &all, &params);
    let second = bench::run(positions(), 9, &all, &params);
    assert_eq!(first.nodes, second.nodes);
    assert_eq!(first.counters, second.counters);
    for (a, b) in first.lines.iter().zip(&second.lines) {
        assert_eq!(a.nodes, b.nodes, "{}", a.fen);
    }
    for note in [
        Note::HistoryMalus,
        Note::HindsightExtension,
        Note::HindsightReduction,
        Note::FailHighBlend,
        Note::StandPatBlend,
        Note::QsFutility,
        Note::LowPlyHistory,
    ] {
        assert!(first.counters.get(note) > 0, "{}", note.name());
    }
}

/// Whether every move of `line` is legal, each after the ones before it.
fn legal_line(pos: &Position, line: &[Move]) -> bool {
    let mut pos = pos.clone();
    for &mv in line {
        if !pos.legal_moves().contains(&mv) {
            return false;
        }
        pos.make_move(mv);
    }
    true
}

#[test]
fn all_on_every_reported_line_is_legal() {
    let tt = Arc::new(TranspositionTable::new(8));
    let mut search = ThreadPool::new(tt, HceEvaluator::default);
    search.set_switches(&with_on(&STAGE_20), &Params::default());
    for &(fen, chess960) in positions() {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let pos = Position::from_fen_with(fen, mode).expect("a bench position");
        let mut lines = Vec::new();
        let result = search.search(
            &pos,
            &[],
            &Limits::depth(9),
            &SearchOptions::default(),
            &mut |info| lines.push(info.pv.clone()),
        );
        let best = result.best_move.expect("a move");
        let ponder: Vec<Move> = result.ponder_move.into_iter().collect();
        assert!(legal_line(&pos, &[&[best], &ponder[..]].concat()), "{fen}");
        assert!(!lines.is_empty(), "{fen}");
        for line in &lines {
            assert!(legal_line(&pos, line), "{fen}: {line:?}");
        }
    }
}

#[test]
fn the_two_bundles_are_stage_20_whole() {
    // The SPRT of stage 20 switches on what the two bundle files list: together they must be
    // every technique of chapter 20, each once, and the search half exactly this file's list.
    let search = bundle("stage-20-search");
    assert_eq!(search, STAGE_20.map(String::from).to_vec());
    let mut both = [bundle("stage-20-corrections"), search].concat();
    both.sort();
    let mut chapter: Vec<String> = TECHNIQUES
        .iter()
        .filter(|t| t.chapter == "20")
        .map(|t| t.name.to_string())
        .collect();
    chapter.sort();
    assert_eq!(both, chapter);
}

#[test]
fn the_whole_stage_on_is_deterministic_and_changes_the_search() {
    let params = Params::default();
    let names = [bundle("stage-20-corrections"), bundle("stage-20-search")].concat();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let all = with_on(&names);
    let plain = bench::run(positions(), 8, &with_on(&[]), &params);
    let first = bench::run(positions(), 8, &all, &params);
    let second = bench::run(positions(), 8, &all, &params);
    assert_ne!(first.nodes, plain.nodes);
    assert_eq!(first.nodes, second.nodes);
    assert_eq!(first.counters, second.counters);
    for note in [
        Note::CorrectionApplied,
        Note::HistoryMalus,
        Note::QsFutility,
    ] {
        assert!(first.counters.get(note) > 0, "{}", note.name());
    }
}
