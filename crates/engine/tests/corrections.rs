//! Stage 20's evaluation corrections, switched on together: the search stays deterministic and
//! legal, each part does something (its counters move), and the defaults leave them all off.

use chess::Position;
use engine::score::{UciScore, mate_in};
use engine::tools::bench::{BENCH_POSITIONS, run};
use engine::{
    HceEvaluator, Limits, Note, Params, SearchOptions, TECHNIQUES, Techniques, ThreadPool,
    TranspositionTable,
};
use std::sync::Arc;

mod bundles;
use bundles::bundle;

/// The switches of stage 20's evaluation corrections, as the match runners' bundle lists them.
fn stage_20() -> Vec<String> {
    bundle("stage-20-corrections")
}

fn stage_20_on() -> Techniques {
    let mut t = Techniques::default();
    for name in stage_20() {
        t.set(&name, true).expect("a technique");
    }
    t
}

#[test]
fn every_correction_is_off_by_default() {
    let names = stage_20();
    assert_eq!(names.len(), 8);
    for name in &names {
        let info = TECHNIQUES.iter().find(|t| t.name == *name).expect(name);
        assert!(!info.default, "{name}");
        assert_eq!(info.chapter, "20", "{name}");
    }
}

#[test]
fn the_bench_with_every_correction_is_deterministic_and_different() {
    let positions = &BENCH_POSITIONS[..12];
    let on = run(positions, 7, &stage_20_on(), &Params::default());
    let again = run(positions, 7, &stage_20_on(), &Params::default());
    assert_eq!(on.nodes, again.nodes);
    assert_eq!(on.counters, again.counters);
    for note in [
        Note::CorrectionApplied,
        Note::CorrectionSize,
        Note::CorrectionUpdate,
        Note::TtEval,
        Note::MaterialScaling,
        Note::FiftyMoveScaling,
    ] {
        assert!(on.counters.get(note) > 0, "{note:?}");
    }
    // Corrections average a few centipawns to a few dozen, not hundreds.
    let mean = on.counters.get(Note::CorrectionSize) / on.counters.get(Note::CorrectionApplied);
    assert!((1..=64).contains(&mean), "mean correction {mean}");

    let off = run(positions, 7, &Techniques::default(), &Params::default());
    assert_ne!(on.nodes, off.nodes);
    for note in [Note::CorrectionApplied, Note::TtEval, Note::MaterialScaling] {
        assert_eq!(off.counters.get(note), 0, "{note:?}");
    }
}

/// With every correction on, the search still finds mates with their exact distance (a
/// correction never makes a mate score), and its moves and lines are legal; twice the same.
#[test]
fn searches_with_every_correction_stay_legal_and_exact() {
    let positions = [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            None,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", None),
        ("4r1k1/1p3ppp/p7/8/8/P7/1P3PPP/4R1K1 w - - 60 80", None),
        ("5r1k/6pp/8/6N1/2Q5/8/6PP/6K1 w - - 0 1", Some(4)),
        ("6k1/5ppp/4p3/8/8/8/4QPPP/4R1K1 w - - 0 1", Some(5)),
    ];
    let tt = Arc::new(TranspositionTable::new(16));
    let mut pool = ThreadPool::new(tt.clone(), HceEvaluator::default);
    pool.set_switches(&stage_20_on(), &Params::default());
    for (fen, mate) in positions {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut results = Vec::new();
        for _ in 0..2 {
            tt.clear();
            pool.clear();
            let mut pv = Vec::new();
            // A mate search goes on until it proves the shortest mate, as tests/mates.rs asks.
            let limits = match mate {
                Some(moves) => Limits {
                    mate: Some(moves as u32),
                    depth: Some(2 * moves + 12),
                    ..Limits::default()
                },
                None => Limits::depth(11),
            };
            let result = pool.search(&pos, &[], &limits, &SearchOptions::default(), &mut |i| {
                pv = i.pv.clone();
            });
            let mut line = pos.clone();
            for &mv in &pv {
                assert!(line.is_legal(mv), "{fen}: {mv} in {pv:?}");
                line.make_move(mv);
            }
            assert_eq!(result.best_move, pv.first().copied(), "{fen}");
            if let Some(moves) = mate {
                assert_eq!(UciScore::from_score(result.score), UciScore::Mate(moves));
                assert_eq!(result.score, mate_in(2 * moves as usize - 1));
            }
            results.push((result.best_move, result.score, result.nodes));
        }
        assert_eq!(results[0], results[1], "{fen}");
    }
}
