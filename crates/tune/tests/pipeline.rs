//! The tuning pipeline end to end, small: self-play data, its format, the tuner's evaluation
//! against the engine's, the tuner's descent, and the file it writes.

use chess::rng::Rng;
use chess::{CastlingMode, Position};
use engine::eval::weights::{FEATURE_COUNT, FEATURES, WEIGHTS};
use engine::eval::{blend, trace};
use engine::tools::bench::BENCH_POSITIONS;
use std::path::PathBuf;
use tune::adjudication::Rules;
use tune::format::{self, GameResult, RECORD_SIZE};
use tune::{datagen, texel};

/// `datagen`'s defaults: wins at 1000 for 4 plies, no draw adjudication.
const NO_DRAW_ADJUDICATION: Rules = Rules {
    win_score: 1000,
    win_plies: 4,
    draw_score: 10,
    draw_plies: 0,
    draw_after: 60,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tune-test-{}-{name}", std::process::id()))
}

/// Positions from random games (and the bench set): a varied sample of real positions.
fn sample_positions(games: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out: Vec<Position> = BENCH_POSITIONS
        .iter()
        .map(|&(fen, chess960)| {
            let mode = if chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            Position::from_fen_with(fen, mode).unwrap()
        })
        .collect();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for ply in 0..160 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then, so that material becomes unbalanced.
            let captures: Vec<_> = moves.iter().filter(|&&m| pos.is_capture(m)).collect();
            let mv = if !captures.is_empty() && rng.below(3) > 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.make_move(mv);
            if ply % 3 == 0 {
                out.push(pos.clone());
            }
        }
    }
    out
}

#[test]
fn datagen_writes_quiet_labelled_positions_and_appends() {
    let out = temp("datagen.bin");
    let _ = std::fs::remove_file(&out);
    let config = datagen::Config {
        out: out.clone(),
        threads: 2,
        nodes: 400,
        positions: None,
        games: Some(2),
        books: vec![root().join("data/openings/balanced.epd")],
        random_plies: 8,
        mixed_parity: true,
        seed: 1,
        hash_mib: 1,
        max_plies: 400,
        rules: NO_DRAW_ADJUDICATION,
        quiet: true,
        format: datagen::DataFormat::Records,
        net: None,
    };
    let tally = datagen::run(&config).unwrap();
    let games = tally.games.load(std::sync::atomic::Ordering::Relaxed);
    assert!(games >= 2);
    let first = std::fs::read(&out).unwrap();
    assert_eq!(first.len() % RECORD_SIZE, 0);
    assert!(
        first.len() / RECORD_SIZE > 10,
        "{} positions",
        first.len() / 32
    );
    let records = format::read_all(&out).unwrap();
    for r in &records {
        let s = format::decode(r).unwrap();
        assert!(!s.position.is_check(), "{}", s.position.to_fen());
        assert!(s.score.abs() < 30_000);
    }

    // A second run appends, leaving what was there as it was; a torn tail is cut off first.
    let mut bytes = first.clone();
    bytes.extend_from_slice(&[7u8; 5]);
    std::fs::write(&out, &bytes).unwrap();
    datagen::run(&datagen::Config {
        games: Some(1),
        ..config
    })
    .unwrap();
    let second = std::fs::read(&out).unwrap();
    assert_eq!(second.len() % RECORD_SIZE, 0);
    assert!(second.len() > first.len());
    assert_eq!(&second[..first.len()], &first[..]);
    std::fs::remove_file(&out).unwrap();
}

#[test]
fn a_seed_and_game_number_give_the_same_game() {
    let config = datagen::Config {
        out: temp("unused.bin"),
        threads: 1,
        nodes: 300,
        positions: None,
        games: None,
        books: vec![],
        random_plies: 6,
        mixed_parity: true,
        seed: 0,
        hash_mib: 1,
        max_plies: 120,
        rules: NO_DRAW_ADJUDICATION,
        quiet: true,
        format: datagen::DataFormat::Records,
        net: None,
    };
    let openings = datagen::load_book(&root().join("data/openings/uho.epd")).unwrap();
    let (mut a, mut b) = (
        datagen::Player::new(1, 300, None),
        datagen::Player::new(1, 300, None),
    );
    // Player `a` plays another game first: what it keeps between games must not matter.
    let _ = a.play(&config, &openings, 42, 99);
    for index in 0..3 {
        let x = a.play(&config, &openings, 42, index).map(|g| g.bytes);
        let y = b.play(&config, &openings, 42, index).map(|g| g.bytes);
        assert_eq!(x, y, "game {index}");
    }
}

#[test]
fn the_tuners_evaluation_is_the_engines() {
    let positions = sample_positions(20, 3);
    let labelled: Vec<(Position, f64)> = positions.iter().map(|p| (p.clone(), 0.5)).collect();
    let data = texel::Dataset::from_positions(&labelled);
    let weights = texel::current_weights();
    let mut worst: f64 = 0.0;
    for (i, pos) in positions.iter().enumerate() {
        let t = trace(pos);
        let engine = blend(t.counts.score(), t.phase, t.scale) as f64;
        let tuner = data.eval(i, &weights);
        worst = worst.max((engine - tuner).abs());
        // The engine's integer divisions lose less than 2 centipawns.
        assert!(
            (engine - tuner).abs() < 2.0,
            "{}: engine {engine}, tuner {tuner}",
            pos.to_fen()
        );
    }
    assert!(positions.len() > 500);
    eprintln!(
        "{} positions, largest difference {worst:.3}",
        positions.len()
    );
}

#[test]
fn the_gradient_matches_finite_differences() {
    let positions = sample_positions(4, 5);
    let mut rng = Rng::new(9);
    let labelled: Vec<(Position, f64)> = positions
        .iter()
        .map(|p| (p.clone(), rng.below(3) as f64 / 2.0))
        .collect();
    let data = texel::Dataset::from_positions(&labelled);
    let w = texel::current_weights();
    let k = 1.1;
    let (loss, grad) = data.gradient(&w, k);
    assert!((loss - data.loss(&w, k)).abs() < 1e-12);
    // Knight material (mg, eg), a pawn square, bishop mobility, tempo.
    use engine::eval::weights::{MATERIAL, MOBILITY_BISHOP, PST, TEMPO};
    for f in [MATERIAL + 1, PST + 28, MOBILITY_BISHOP + 6, TEMPO] {
        for half in 0..2 {
            let i = 2 * f + half;
            let h = 1e-3;
            let mut up = w.clone();
            up[i] += h;
            let mut down = w.clone();
            down[i] -= h;
            let numeric = (data.loss(&up, k) - data.loss(&down, k)) / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() <= 1e-6 * numeric.abs().max(1e-4),
                "weight {i}: numeric {numeric}, analytic {}",
                grad[i]
            );
        }
    }
}

#[test]
fn tuning_lowers_the_error_and_finds_a_planted_weight() {
    // Results drawn from a "true" evaluation in which a knight is worth 150 more.
    use engine::eval::weights::MATERIAL;
    let positions = sample_positions(60, 7);
    let mut truth = texel::current_weights();
    truth[2 * (MATERIAL + 1)] += 150.0;
    truth[2 * (MATERIAL + 1) + 1] += 150.0;
    let plain: Vec<(Position, f64)> = positions.iter().map(|p| (p.clone(), 0.0)).collect();
    let probe = texel::Dataset::from_positions(&plain);
    let mut rng = Rng::new(1);
    let labelled: Vec<(Position, f64)> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let e = probe.eval(i, &truth);
            let win = 1.0 / (1.0 + 10f64.powf(-e / 400.0));
            let u = rng.unit();
            let r = if u < win * 0.8 {
                1.0
            } else if u < win * 0.8 + 0.2 {
                0.5
            } else {
                0.0
            };
            (p.clone(), r)
        })
        .collect();
    let data = texel::Dataset::from_positions(&labelled);
    let settings = texel::Settings {
        epochs: 150,
        lr: 2.0,
        patience: 0,
        print_every: 0,
        ..texel::Settings::default()
    };
    let start = texel::current_weights();
    let outcome = texel::tune(&data, &start, &settings, &mut |_| {}).unwrap();
    assert!(outcome.k > 0.1 && outcome.k < 5.0, "K = {}", outcome.k);
    assert!(
        outcome.best_loss < outcome.initial_loss,
        "{} -> {}",
        outcome.initial_loss,
        outcome.best_loss
    );
    let knight = outcome.weights[MATERIAL + 1];
    assert!(
        knight.0 > WEIGHTS[MATERIAL + 1].mg() + 20,
        "the knight's weight should rise: {knight:?}"
    );

    // Frozen blocks stay put.
    let frozen = texel::Settings {
        epochs: 20,
        freeze: vec!["MATERIAL".into(), "PST".into()],
        ..settings
    };
    let outcome = texel::tune(&data, &start, &frozen, &mut |_| {}).unwrap();
    for (f, w) in WEIGHTS.iter().enumerate().take(6 + 384) {
        assert_eq!(outcome.weights[f], (w.mg(), w.eg()), "feature {f}");
    }

    // A strong ridge penalty holds the knight near its start, which the planted change alone
    // would have moved by more than 20.
    let ridge = texel::Settings {
        l2: 1e-3,
        ..settings
    };
    let outcome = texel::tune(&data, &start, &ridge, &mut |_| {}).unwrap();
    let knight = outcome.weights[MATERIAL + 1];
    assert!(
        (knight.0 - WEIGHTS[MATERIAL + 1].mg()).abs() <= 3,
        "the ridge should hold the knight's weight: {knight:?}"
    );
}

#[test]
fn the_written_file_has_the_format_of_tuned_rs() {
    let current: Vec<(i32, i32)> = WEIGHTS.iter().map(|s| (s.mg(), s.eg())).collect();
    let text = texel::render(&current, "Test header.");
    // The body is byte for byte that of the file the engine includes.
    let tuned = std::fs::read_to_string(root().join("crates/engine/src/eval/tuned.rs")).unwrap();
    let body = |s: &str| s[s.find("pub const WEIGHTS").unwrap()..].to_string();
    assert_eq!(body(&text), body(&tuned));

    // Written and read back: every value, every block comment.
    let path = temp("tuned.rs");
    let changed: Vec<(i32, i32)> = current
        .iter()
        .enumerate()
        .map(|(i, &(mg, eg))| (mg + i as i32 % 7 - 3, -eg))
        .collect();
    texel::write(
        &path,
        &changed,
        "A header long enough to wrap: ".repeat(5).trim(),
    )
    .unwrap();
    let back = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(back.lines().all(|l| l.len() <= 100));
    assert_eq!(back.matches("S::new(").count(), FEATURE_COUNT);
    for info in FEATURES {
        assert_eq!(back.matches(&format!("    // {}\n", info.name)).count(), 1);
    }
    let values: Vec<(i32, i32)> = back
        .split("S::new(")
        .skip(1)
        .map(|s| {
            let inside = &s[..s.find(')').unwrap()];
            let (a, b) = inside.split_once(", ").unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    assert_eq!(values, changed);
    assert!(back.starts_with("// A header"));
    assert!(back.ends_with("];\n"));
}

#[test]
fn records_carry_the_result() {
    let pos = Position::startpos();
    let r = format::encode(&pos, 25, GameResult::WhiteWins).unwrap();
    assert_eq!(format::decode(&r).unwrap().result.white_points(), 1.0);
}

/// A datagen run in the game format from the repository's book: `games` games at `nodes` nodes
/// on `threads` threads, hand-crafted evaluation, no draw rule.
fn games_config(
    out: &std::path::Path,
    threads: usize,
    nodes: u64,
    games: u64,
    seed: u64,
) -> datagen::Config {
    datagen::Config {
        out: out.to_path_buf(),
        threads,
        nodes,
        positions: None,
        games: Some(games),
        books: vec![root().join("data/openings/balanced.epd")],
        random_plies: 8,
        mixed_parity: true,
        seed,
        hash_mib: 1,
        max_plies: 400,
        rules: NO_DRAW_ADJUDICATION,
        quiet: true,
        format: datagen::DataFormat::Games,
        net: None,
    }
}

#[test]
fn datagen_writes_whole_games_that_replay_and_resume() {
    let out = temp("datagen.games");
    let _ = std::fs::remove_file(&out);
    let config = games_config(&out, 2, 400, 3, 3);
    let tally = datagen::run(&config).unwrap();
    let written = tally.games.load(std::sync::atomic::Ordering::Relaxed);
    let mut kept = 0u64;
    let scan = tune::games::scan_file(&out, |ply| kept += tune::games::keep(ply) as u64).unwrap();
    // Every game replays by the rules, and the reader's filter keeps what datagen counted.
    assert_eq!(scan.games, written);
    assert_eq!(
        kept,
        tally.positions.load(std::sync::atomic::Ordering::Relaxed)
    );
    assert!(scan.positions > kept && kept > 10, "{scan:?}, {kept} kept");
    assert_eq!(scan.results.iter().sum::<u64>(), written);

    // A torn last game (a killed run) is cut off, and the next run appends whole games.
    let first = std::fs::read(&out).unwrap();
    let mut bytes = first.clone();
    bytes.extend_from_slice(&first[..45]);
    std::fs::write(&out, &bytes).unwrap();
    datagen::run(&datagen::Config {
        games: Some(1),
        ..config
    })
    .unwrap();
    let second = std::fs::read(&out).unwrap();
    assert_eq!(&second[..first.len()], &first[..]);
    let resumed = tune::games::scan_file(&out, |_| {}).unwrap();
    assert!(resumed.games > scan.games);
    assert_eq!(resumed.complete_bytes, second.len() as u64);
    std::fs::remove_file(&out).unwrap();
}

#[test]
fn datagen_ends_games_by_the_draw_rule() {
    // A draw rule that any score short of a win meets at once, from the third move on: every
    // game not decided by the rules first is a draw of exactly three moves.
    let out = temp("datagen-draws.games");
    let _ = std::fs::remove_file(&out);
    let config = datagen::Config {
        rules: Rules {
            draw_score: 999,
            draw_plies: 1,
            draw_after: 2,
            ..NO_DRAW_ADJUDICATION
        },
        ..games_config(&out, 1, 300, 4, 11)
    };
    datagen::run(&config).unwrap();
    let mut moves = Vec::new();
    let scan = tune::games::scan_file(&out, |ply| {
        if ply.index == 0 {
            moves.push(0);
        }
        *moves.last_mut().unwrap() += 1;
    })
    .unwrap();
    assert_eq!(scan.games, 4);
    assert_eq!(scan.results, [0, 4, 0], "{scan:?}");
    assert_eq!(moves, [3, 3, 3, 3]);
    std::fs::remove_file(&out).unwrap();
}
