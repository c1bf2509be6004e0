//! The search with the Syzygy tables (chapter 19): from random won positions of KQvK, KRvK,
//! KBNvK and KPvK the engine, playing both sides at a few thousand nodes a move, mates within the
//! fifty-move rule; from random drawn KRvKP positions neither side ever loses; inside the tree a
//! capture into a won ending is scored as a tablebase win, and the switches and options are obeyed.

mod common;

use chess::rng::Rng;
use chess::{Move, Position};
use engine::score::{TB_WIN_BOUND, is_mate, tb_win_in};
use engine::tablebase::{Probing, Tablebases, Wdl};
use engine::{
    HceEvaluator, Limits, Note, Params, SearchOptions, Techniques, ThreadPool, TranspositionTable,
};
use std::path::PathBuf;
use std::sync::Arc;

fn tables() -> Arc<Tablebases> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy");
    let loaded = Tablebases::open(&dir.display().to_string()).expect("the test tables");
    Arc::new(loaded.tablebases)
}

fn searcher() -> ThreadPool<HceEvaluator> {
    let tt = Arc::new(TranspositionTable::new(8));
    ThreadPool::new(tt, HceEvaluator::default)
}

/// Every technique on but `syzygy`, which is `on`.
fn syzygy(search: &mut ThreadPool<HceEvaluator>, on: bool) {
    let techniques = Techniques {
        syzygy: on,
        ..Techniques::default()
    };
    search.set_switches(&techniques, &Params::default());
}

fn options(probing: Option<Probing>) -> SearchOptions {
    SearchOptions {
        tablebases: probing,
        ..SearchOptions::default()
    }
}

/// A random legal position with `white` and `black` pieces (letters, kings included), the side to
/// move at random, halfmove clock 0.
fn random_position(rng: &mut Rng, white: &str, black: &str) -> Position {
    let pieces: Vec<char> = white
        .chars()
        .chain(black.chars().map(|c| c.to_ascii_lowercase()))
        .collect();
    loop {
        if let Some(pos) = common::random_placement(rng, &pieces)
            && pos.has_legal_moves()
        {
            return pos;
        }
    }
}

#[derive(Debug, PartialEq)]
enum End {
    /// The side that was mated was White (`true`) or Black.
    Mated {
        white: bool,
    },
    Draw(&'static str),
    TooLong,
}

/// Plays `start` out with the engine on both sides, `nodes` a move.
fn play(
    search: &mut ThreadPool<HceEvaluator>,
    probing: &Probing,
    start: &Position,
) -> (End, usize) {
    let mut pos = start.clone();
    let mut history: Vec<u64> = Vec::new();
    let limits = Limits {
        nodes: Some(3_000),
        ..Limits::default()
    };
    let options = options(Some(probing.clone()));
    for ply in 0..400 {
        if !pos.has_legal_moves() {
            return if pos.is_check() {
                let white = pos.side_to_move() == chess::Color::White;
                (End::Mated { white }, ply)
            } else {
                (End::Draw("stalemate"), ply)
            };
        }
        if pos.halfmove_clock() >= 100 {
            return (End::Draw("fifty-move rule"), ply);
        }
        if pos.has_insufficient_material() {
            return (End::Draw("insufficient material"), ply);
        }
        let repeats = history.iter().filter(|&&k| k == pos.hash()).count();
        if repeats >= 2 {
            return (End::Draw("threefold repetition"), ply);
        }
        let result = search.search(&pos, &history, &limits, &options, &mut |_| {});
        let mv: Move = result.best_move.expect("a legal move");
        assert!(pos.is_legal(mv), "{}: {mv}", pos.to_fen());
        history.push(pos.hash());
        pos.make_move(mv);
    }
    (End::TooLong, 400)
}

#[test]
fn won_endings_are_mated_and_drawn_ones_never_lost() {
    let probing = Probing::new(tables());
    let mut search = searcher();
    let mut rng = Rng::new(19);
    for (white, black, games) in [
        ("KQ", "K", 6),
        ("KR", "K", 6),
        ("KBN", "K", 4),
        ("KP", "K", 6),
    ] {
        let mut played = 0;
        while played < games {
            let pos = random_position(&mut rng, white, black);
            let Some((Wdl::Win | Wdl::Loss, _)) = probing.tables.root_moves(&pos, true) else {
                continue;
            };
            // Only positions White wins: the side to move wins or loses accordingly.
            let (wdl, _) = probing.tables.root_moves(&pos, true).expect("probed");
            let white_to_move = pos.side_to_move() == chess::Color::White;
            if (wdl == Wdl::Win) != white_to_move {
                continue;
            }
            search.clear();
            let (end, plies) = play(&mut search, &probing, &pos);
            assert_eq!(
                end,
                End::Mated { white: false },
                "{white}v{black} from {} ended after {plies} plies",
                pos.to_fen()
            );
            played += 1;
        }
    }
    let mut played = 0;
    while played < 6 {
        let pos = random_position(&mut rng, "KR", "KP");
        if !matches!(probing.tables.root_moves(&pos, true), Some((Wdl::Draw, _))) {
            continue;
        }
        search.clear();
        let (end, plies) = play(&mut search, &probing, &pos);
        assert!(
            matches!(end, End::Draw(_)),
            "drawn KRvKP from {} ended {end:?} after {plies} plies",
            pos.to_fen()
        );
        played += 1;
    }
}

fn run(
    search: &mut ThreadPool<HceEvaluator>,
    fen: &str,
    depth: i32,
    probing: Option<Probing>,
) -> engine::SearchResult {
    let pos = Position::from_fen(fen).expect("fen");
    search.clear();
    search.set_tt(Arc::new(TranspositionTable::new(8)));
    search.search(
        &pos,
        &[],
        &Limits::depth(depth),
        &options(probing),
        &mut |_| {},
    )
}

#[test]
fn a_capture_into_a_won_ending_scores_as_a_tablebase_win() {
    // Five pieces: the queen takes the rook, into a won four-piece ending (the king may take the
    // queen back, which leaves king and rook against king: still won).
    let fen = "8/8/8/4k3/3r4/8/2R5/3QK3 w - - 0 1";
    let probing = Probing::new(tables());
    let mut search = searcher();

    let with = run(&mut search, fen, 8, Some(probing.clone()));
    let hits = search.counters().get(Note::TbHit);
    assert!(hits > 0);
    assert!(search.counters().get(Note::TbCutoff) > 0);
    assert_eq!(with.best_move.map(|m| m.to_string()), Some("d1d4".into()));
    assert!(
        with.score >= TB_WIN_BOUND && !is_mate(with.score),
        "{}",
        with.score
    );
    assert_eq!(with.score, tb_win_in(1));

    // Without tables, or with the switch off, it is an ordinary evaluation.
    let without = run(&mut search, fen, 8, None);
    assert!(without.score < TB_WIN_BOUND);
    assert_eq!(search.counters().get(Note::TbHit), 0);
    syzygy(&mut search, false);
    let off = run(&mut search, fen, 8, Some(probing.clone()));
    assert_eq!(search.counters().get(Note::TbHit), 0);
    assert_eq!(off.score, without.score);
    syzygy(&mut search, true);

    // SyzygyProbeLimit 0 probes nothing; 3 probes only three-piece positions.
    let none = Probing {
        limit: 0,
        ..probing.clone()
    };
    run(&mut search, fen, 8, Some(none));
    assert_eq!(search.counters().get(Note::TbHit), 0);
    let three = Probing {
        limit: 3,
        ..probing.clone()
    };
    let r3 = run(&mut search, fen, 8, Some(three));
    assert!(search.counters().get(Note::TbHit) < hits);
    assert_ne!(r3.score, tb_win_in(1));
}

#[test]
fn the_root_keeps_only_the_moves_that_hold_the_result() {
    let probing = Probing::new(tables());
    let mut search = searcher();
    // KRvKR, a draw: whatever the search thinks, the move played keeps the draw, and the score
    // reported is the draw's.
    let mut rng = Rng::new(7);
    let mut tested = 0;
    while tested < 20 {
        let pos = random_position(&mut rng, "KR", "KR");
        let Some((wdl, keep)) = probing.tables.root_moves(&pos, true) else {
            continue;
        };
        // Positions where some move would lose the result.
        if keep.len() == pos.legal_moves().len() {
            continue;
        }
        let result = search.search(
            &pos,
            &[],
            &Limits::depth(6),
            &options(Some(probing.clone())),
            &mut |_| {},
        );
        let best = result.best_move.expect("a move");
        assert!(keep.contains(&best), "{} {best} ({wdl:?})", pos.to_fen());
        tested += 1;
    }
}
