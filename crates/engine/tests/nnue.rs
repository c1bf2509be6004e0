//! The network's inference: the incremental accumulator equals a from-scratch computation after
//! every move of random games and of real searches; the vector code equals the plain code; a
//! position and its colour-flipped twin score the same for the side to move.

use chess::rng::Rng;
use chess::{CastlingMode, Move, Position};
use engine::eval::nnue::inputs::{Layout, for_each_active};
use engine::eval::nnue::network::{QA, QB, WEIGHT_LIMIT};
use engine::eval::nnue::{Activation, Network, NnueEvaluator, Simd};
use engine::eval::{EvalTrace, Evaluator, HceEvaluator};
use engine::tools::bench::BENCH_POSITIONS;
use engine::{Limits, Params, SearchOptions, Techniques, ThreadPool, TranspositionTable};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// A network with random weights of a realistic size, so that scores spread widely and any
/// missed or doubled update shows. Eight output buckets where a test says so: the incremental
/// evaluation picks its bucket from the position, the reference code from its inputs. King
/// buckets and mirroring as `layout` says: the incremental evaluation rebuilds a view through
/// its cache when the king changes bucket, the reference code starts from nothing.
fn random_net(
    hidden: usize,
    activation: Activation,
    buckets: usize,
    layout: Layout,
    seed: u64,
) -> Arc<Network> {
    let mut rng = Rng::new(seed);
    let mut f = move |scale: f32| ((rng.next_u64() % 20_001) as f32 / 10_000.0 - 1.0) * scale;
    // Float weights rounded as `train` quantises them.
    let q = |w: f32, unit: i32| (w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT) * unit as f32).round();
    let w1 = (0..layout.inputs() * hidden)
        .map(|_| q(f(0.3), QA) as i16)
        .collect();
    let b1 = (0..hidden).map(|_| q(f(0.3) + 0.2, QA) as i16).collect();
    let w2 = (0..buckets * 2 * hidden)
        .map(|_| q(f(1.5), QB) as i16)
        .collect();
    let b2 = (0..buckets)
        .map(|_| (f(0.2) * (QA * QB) as f32).round() as i32)
        .collect();
    Arc::new(Network {
        description: String::new(),
        hidden,
        activation,
        layout,
        w1,
        b1,
        buckets,
        w2,
        b2,
    })
}

fn mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// The score from scratch, by the reference code.
fn scratch(net: &Network, pos: &Position) -> i32 {
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for_each_active(pos, &net.layout, |w, b| {
        white.push(w);
        black.push(b);
    });
    let cp = match pos.side_to_move() {
        chess::Color::White => net.evaluate_inputs(&white, &black),
        chess::Color::Black => net.evaluate_inputs(&black, &white),
    };
    cp.clamp(-30_000, 30_000)
}

/// Start positions with castling (standard and Chess960), en passant and promotions close.
const STARTS: &[(&str, CastlingMode)] = &[
    (chess::STARTPOS, CastlingMode::Standard),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        CastlingMode::Standard,
    ),
    (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        CastlingMode::Standard,
    ),
    (
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        CastlingMode::Standard,
    ),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        CastlingMode::Chess960,
    ),
    (
        "4k3/1P6/8/3pP3/8/8/6p1/4K3 w - d6 0 1",
        CastlingMode::Standard,
    ),
];

/// The layouts the tests run each check with: the plain inputs, mirroring alone, four king
/// buckets mirrored, and eight buckets without mirroring.
fn layouts() -> [Layout; 4] {
    [
        Layout::PLAIN,
        Layout::named(1, true).unwrap(),
        Layout::named(4, true).unwrap(),
        Layout::named(8, false).unwrap(),
    ]
}

#[test]
fn incremental_equals_scratch_over_random_games() {
    for layout in layouts() {
        incremental_equals_scratch(layout);
    }
}

fn incremental_equals_scratch(layout: Layout) {
    let net = random_net(64, Activation::SCReLU, 8, layout, 1);
    let mut rng = Rng::new(2);
    let mut checked = 0;
    let mut evaluator = NnueEvaluator::new(net.clone());
    for game in 0..120 {
        let (fen, mode) = STARTS[game % STARTS.len()];
        let mut line = vec![Position::from_fen_with(fen, mode).unwrap()];
        evaluator.reset(&line[0]);
        // A walk that goes down by random moves (and sometimes a null move), evaluates only
        // some of the nodes (the update is lazy), and steps back up now and then, as a search does.
        for _ in 0..160 {
            let ply = line.len() - 1;
            let pos = line[ply].clone();
            if !rng.next_u64().is_multiple_of(3) {
                assert_eq!(
                    evaluator.evaluate(&pos, ply),
                    scratch(&net, &pos),
                    "{}",
                    pos.to_fen()
                );
                checked += 1;
            }
            let moves = pos.legal_moves();
            let back = rng.next_u64().is_multiple_of(5) && ply > 0;
            if moves.is_empty() || back || ply >= 100 {
                line.pop();
                if line.is_empty() {
                    break;
                }
                continue;
            }
            let mut child = pos.clone();
            if !pos.is_check() && rng.next_u64().is_multiple_of(10) {
                child.make_null_move();
            } else {
                let mv: Move = moves[(rng.next_u64() % moves.len() as u64) as usize];
                child.make_move(mv);
            }
            evaluator.push(&pos, &child, ply);
            line.push(child);
        }
    }
    assert!(checked > 10_000, "{checked}");
    assert_eq!(evaluator.refreshes(), 0);
    // With king buckets the random kings cross their buckets often: the cache's rebuilds are
    // checked above like every other evaluation.
    let rebuilds = evaluator.rebuilds();
    if layout == Layout::PLAIN {
        assert_eq!(rebuilds, 0);
    } else {
        assert!(rebuilds > 200, "{rebuilds} rebuilds in {layout:?}");
    }
}

/// Every evaluation of 120 random plies from each start, through the vector path `fast` and
/// through the plain code, gives the same score.
fn vector_path_equals_plain_code(fast: Simd) {
    let shapes = [
        (Activation::SCReLU, Layout::PLAIN),
        (Activation::CReLU, Layout::PLAIN),
        (Activation::SCReLU, Layout::named(1, true).unwrap()),
        (Activation::SCReLU, Layout::named(4, true).unwrap()),
    ];
    for (activation, layout) in shapes {
        let net = random_net(128, activation, 8, layout, 3);
        let mut fast = NnueEvaluator::with_simd(net.clone(), fast);
        let mut plain = NnueEvaluator::with_simd(net.clone(), Simd::SCALAR);
        // The two evaluators run different code: the comparison below is not scalar with scalar.
        assert!(!fast.simd().is_scalar() && plain.simd().is_scalar());
        let mut rng = Rng::new(4);
        for (fen, mode) in STARTS {
            let mut pos = Position::from_fen_with(fen, *mode).unwrap();
            fast.reset(&pos);
            plain.reset(&pos);
            for ply in 0..120 {
                assert_eq!(fast.evaluate(&pos, ply), plain.evaluate(&pos, ply));
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mut child = pos.clone();
                child.make_move(moves[(rng.next_u64() % moves.len() as u64) as usize]);
                fast.push(&pos, &child, ply);
                plain.push(&pos, &child, ply);
                pos = child;
            }
        }
    }
}

#[test]
fn vector_code_equals_plain_code() {
    let Some(vector) = Simd::vector() else {
        // Nothing to compare on this processor: say so where the test output shows it.
        eprintln!("SKIPPED vector_code_equals_plain_code: this processor has no vector path");
        return;
    };
    vector_path_equals_plain_code(vector);
    // The default evaluator takes the vector code where the processor has it (unless the
    // variable that forces a path for measurements says otherwise).
    if std::env::var_os(engine::eval::nnue::simd::FORCE_VARIABLE).is_none() {
        let net = random_net(128, Activation::SCReLU, 8, Layout::PLAIN, 3);
        assert_eq!(NnueEvaluator::new(net).simd(), vector);
    }
}

/// One x86-64 path, named `name`, against the plain code, or a line saying that the test of
/// that name had nothing to compare on this processor (which lacks `what`).
fn x86_path_equals_plain_code(test: &str, path: Option<Simd>, name: &str, what: &str) {
    let Some(simd) = path else {
        eprintln!("SKIPPED {test}: this processor has no {what}");
        return;
    };
    assert_eq!(simd.name(), name);
    vector_path_equals_plain_code(simd);
}

#[test]
fn avx2_code_equals_plain_code() {
    x86_path_equals_plain_code("avx2_code_equals_plain_code", Simd::avx2(), "AVX2", "AVX2");
}

#[test]
fn avx512_code_equals_plain_code() {
    x86_path_equals_plain_code(
        "avx512_code_equals_plain_code",
        Simd::avx512(),
        "AVX512",
        "AVX-512 F and BW",
    );
}

#[test]
fn a_position_and_its_colour_flipped_twin_score_the_same() {
    for layout in layouts() {
        let net = random_net(64, Activation::SCReLU, 8, layout, 5);
        let mut eval = NnueEvaluator::new(net.clone());
        for &(fen, chess960) in BENCH_POSITIONS {
            let pos = Position::from_fen_with(fen, mode(chess960)).unwrap();
            let twin = pos.mirrored();
            eval.reset(&pos);
            let a = eval.evaluate(&pos, 0);
            eval.reset(&twin);
            assert_eq!(a, eval.evaluate(&twin, 0), "{fen}");
        }
    }
}

/// The network as the search sees it, checking every evaluation against a fresh computation.
struct Checked {
    nnue: NnueEvaluator,
    net: Arc<Network>,
    checked: Arc<AtomicU64>,
    wrong: Arc<Mutex<Vec<String>>>,
    /// The evaluator's count of evaluations it answered from scratch (none, in a search).
    refreshes: Arc<AtomicU64>,
    /// Views rebuilt through the refresh cache, over every evaluator of the test.
    rebuilds: Arc<AtomicU64>,
    /// This evaluator's rebuilds already added to `rebuilds`.
    rebuilds_seen: u64,
}

impl Evaluator for Checked {
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let fast = self.nnue.evaluate(pos, ply);
        if fast != scratch(&self.net, pos) {
            self.wrong.lock().unwrap().push(pos.to_fen());
        }
        self.checked.fetch_add(1, Ordering::Relaxed);
        self.refreshes
            .store(self.nnue.refreshes(), Ordering::Relaxed);
        let rebuilds = self.nnue.rebuilds();
        self.rebuilds
            .fetch_add(rebuilds - self.rebuilds_seen, Ordering::Relaxed);
        self.rebuilds_seen = rebuilds;
        fast
    }
    fn trace(&mut self, pos: &Position) -> EvalTrace {
        HceEvaluator::default().trace(pos)
    }
    fn reset(&mut self, root: &Position) {
        self.nnue.reset(root);
    }
    fn push(&mut self, parent: &Position, _mv: Option<Move>, child: &Position, ply: usize) {
        self.nnue.push(parent, child, ply);
    }
}

#[test]
fn every_evaluation_of_a_real_search_is_exact() {
    for layout in layouts() {
        a_real_search_is_exact(layout);
    }
}

fn a_real_search_is_exact(layout: Layout) {
    let net = random_net(64, Activation::SCReLU, 1, layout, 6);
    let checked = Arc::new(AtomicU64::new(0));
    let wrong = Arc::new(Mutex::new(Vec::new()));
    let refreshes = Arc::new(AtomicU64::new(0));
    let rebuilds = Arc::new(AtomicU64::new(0));
    let (counter, errors, refreshed) = (checked.clone(), wrong.clone(), refreshes.clone());
    let rebuilt = rebuilds.clone();
    let evaluator = move || Checked {
        nnue: NnueEvaluator::new(net.clone()),
        net: net.clone(),
        checked: counter.clone(),
        wrong: errors.clone(),
        refreshes: refreshed.clone(),
        rebuilds: rebuilt.clone(),
        rebuilds_seen: 0,
    };
    let tt = Arc::new(TranspositionTable::new(8));
    let mut search = ThreadPool::new(tt, evaluator);
    // Every technique on, ProbCut too: each makes and evaluates moves in its own way.
    let techniques = Techniques {
        probcut: true,
        ..Techniques::default()
    };
    search.set_switches(&techniques, &Params::default());
    for &(fen, chess960) in BENCH_POSITIONS.iter().take(12) {
        let pos = Position::from_fen_with(fen, mode(chess960)).unwrap();
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        search.search(&pos, &[], &limits, &SearchOptions::default(), &mut |_| {});
    }
    let wrong = wrong.lock().unwrap();
    assert!(
        wrong.is_empty(),
        "{} wrong, first {:?}",
        wrong.len(),
        wrong.first()
    );
    assert!(checked.load(Ordering::Relaxed) > 50_000);
    // Every evaluation came from the stack kept up to date move by move, none from scratch.
    assert_eq!(refreshes.load(Ordering::Relaxed), 0);
    // With king buckets or mirroring the searches' king moves rebuilt views through the cache,
    // and those evaluations were among the ones checked.
    let rebuilds = rebuilds.load(Ordering::Relaxed);
    if layout == Layout::PLAIN {
        assert_eq!(rebuilds, 0);
    } else {
        assert!(rebuilds > 0, "no rebuilds in {layout:?}");
    }
}
