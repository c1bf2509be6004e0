//! Test 3: a run is determined by its data, options and seed. Two runs give identical weights
//! (on the same number of threads, and on different numbers too), and a run of two epochs is
//! the same, bit for bit, as a run of one epoch resumed for a second, even when its data file
//! has grown in between.

mod common;

use chess::Position;
use chess::rng::Rng;
use common::temp_dir;
use engine::eval::nnue::Network;
use std::path::{Path, PathBuf};
use train::checkpoint::Checkpoint;
use train::{Config, RunOptions};
use tune::format::{self, GameResult};
use tune::games;

/// Random games from the start position: a `.games` file and the same positions as records.
fn write_data(dir: &Path, games_count: usize, seed: u64) -> (PathBuf, PathBuf) {
    let mut rng = Rng::new(seed);
    let results = [
        GameResult::WhiteWins,
        GameResult::Draw,
        GameResult::BlackWins,
    ];
    let (mut game_bytes, mut record_bytes) = (Vec::new(), Vec::new());
    for g in 0..games_count {
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let result = results[g % 3];
        for _ in 0..80 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            let score = rng.below(1200) as i32 - 600;
            moves.push((mv, score));
            record_bytes.extend_from_slice(&format::encode(&pos, score, result).unwrap());
            pos.make_move(mv);
        }
        games::encode_game(&start, result, &moves, &mut game_bytes).unwrap();
    }
    let (g, r) = (dir.join("data.games"), dir.join("data.bin"));
    std::fs::write(&g, game_bytes).unwrap();
    std::fs::write(&r, record_bytes).unwrap();
    (g, r)
}

fn config(data: Vec<PathBuf>, epochs: u32) -> Config {
    Config {
        data,
        hidden: 16,
        epochs,
        batch: 700,
        lr: 0.002,
        validation: 0.1,
        seed: 42,
        ..Config::default()
    }
}

fn opts(out: PathBuf, threads: usize) -> RunOptions {
    RunOptions {
        out,
        threads,
        quiet: true,
    }
}

#[test]
fn runs_are_deterministic_and_resume_exactly() {
    let dir = temp_dir("determinism");
    let (games_file, records_file) = write_data(&dir, 120, 1);
    let data = vec![games_file.clone(), records_file.clone()];

    let a = train::start(config(data.clone(), 2), &opts(dir.join("a"), 2)).unwrap();
    let b = train::start(config(data.clone(), 2), &opts(dir.join("b"), 2)).unwrap();
    assert_eq!(a.net, b.net, "two runs on 2 threads");
    let c = train::start(config(data.clone(), 2), &opts(dir.join("c"), 1)).unwrap();
    assert_eq!(a.net, c.net, "1 thread and 2 threads");
    assert!(a.validation_positions > 0 && a.train_positions > 3 * a.validation_positions);

    // One epoch, then more data appended to both files, then resumed for a second.
    let d = train::start(config(data.clone(), 1), &opts(dir.join("d"), 2)).unwrap();
    assert_eq!(d.history.len(), 1);
    assert_ne!(d.net, a.net);
    let (more_games, more_records) = write_data(&dir.join("a"), 10, 2);
    for (file, more) in [(&games_file, more_games), (&records_file, more_records)] {
        let mut bytes = std::fs::read(file).unwrap();
        bytes.extend(std::fs::read(more).unwrap());
        std::fs::write(file, bytes).unwrap();
    }
    let resumed = train::resume(&opts(dir.join("d"), 1), Some(2)).unwrap();
    assert_eq!(resumed.net, a.net, "1 epoch + 1 resumed = 2 epochs");
    let (ck_a, ck_d) = (
        Checkpoint::read(&dir.join("a")).unwrap(),
        Checkpoint::read(&dir.join("d")).unwrap(),
    );
    assert_eq!(ck_a.state.m, ck_d.state.m);
    assert_eq!(ck_a.state.v, ck_d.state.v);
    assert_eq!(
        (ck_a.state.epoch, ck_a.state.step, ck_a.state.rng),
        (ck_d.state.epoch, ck_d.state.step, ck_d.state.rng)
    );
    assert_eq!(ck_a.config.epochs, 2);
    assert_eq!(ck_d.config.epochs, 2);
    assert_eq!(ck_a.files, ck_d.files);
    for (x, y) in ck_a.state.history.iter().zip(&ck_d.state.history) {
        assert_eq!(
            (x.train_loss, x.validation_loss),
            (y.train_loss, y.validation_loss)
        );
    }

    // The outputs: a net per epoch and the latest, in the engine's format.
    let out = dir.join("d");
    for name in [
        "net-e1.nnue",
        "net-e2.nnue",
        "net.nnue",
        "loss.csv",
        "loss.svg",
    ] {
        assert!(out.join(name).exists(), "{name}");
    }
    let mut latest = Network::from_bytes(&std::fs::read(out.join("net.nnue")).unwrap()).unwrap();
    // The file says how it was made: the command, the data files and the epoch.
    for part in ["train --data ", "--epochs 2 ", "; epoch 2; data: "] {
        assert!(
            latest.description.contains(part),
            "{part}: {}",
            latest.description
        );
    }
    for file in [&games_file, &records_file] {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        assert!(latest.description.contains(&format!("{name} (")), "{name}");
    }
    latest.description.clear();
    assert_eq!(latest, a.net.quantise());
    let csv = std::fs::read_to_string(out.join("loss.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3);

    // Starting over a run is refused; a changed data file is refused on resuming.
    let again = train::start(config(data.clone(), 2), &opts(dir.join("a"), 2));
    assert!(again.unwrap_err().contains("--resume"));
    let mut bytes = std::fs::read(&records_file).unwrap();
    bytes[28] ^= 1;
    std::fs::write(&records_file, bytes).unwrap();
    let changed = train::resume(&opts(dir.join("a"), 2), Some(3));
    assert!(changed.unwrap_err().contains("changed"));
    let _ = std::fs::remove_dir_all(&dir);
}
