//! The `train` binary: a run, a resumed run, and errors that explain themselves.

mod common;

use chess::rng::Rng;
use common::temp_dir;
use std::process::Command;
use tune::format::{self, GameResult};

fn train(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_train"))
        .args(args)
        .output()
        .expect("the train binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_command_line_trains_resumes_and_explains_its_errors() {
    let dir = temp_dir("cli");
    // Records of random game positions.
    let mut rng = Rng::new(4);
    let mut bytes = Vec::new();
    for _ in 0..60 {
        let mut pos = chess::Position::startpos();
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let score = rng.below(400) as i32 - 200;
            bytes.extend_from_slice(&format::encode(&pos, score, GameResult::Draw).unwrap());
            pos.make_move(moves[rng.below(moves.len())]);
        }
    }
    let data = dir.join("data.bin");
    std::fs::write(&data, &bytes).unwrap();
    let (data, out) = (data.to_str().unwrap(), dir.join("run"));
    let out = out.to_str().unwrap();
    let base = ["--out", out, "--hidden", "16", "--batch", "256"];

    let (ok, err) = train(&[&["--data", data, "--epochs", "1"][..], &base].concat());
    assert!(ok, "{err}");
    assert!(err.contains("after epoch 1"), "{err}");
    let (ok, err) = train(&["--out", out, "--resume", "--epochs", "2", "--quiet"]);
    assert!(ok, "{err}");
    assert!(std::path::Path::new(out).join("net-e2.nnue").exists());

    let (ok, err) = train(&["--out", out, "--resume", "--lr", "0.5"]);
    assert!(!ok && err.contains("--lr"), "{err}");
    let (ok, err) = train(&["--out", out, "--resume", "--king-buckets", "4"]);
    assert!(!ok && err.contains("--king-buckets"), "{err}");
    let (ok, err) = train(&["--out", out, "--resume", "--mirror"]);
    assert!(!ok && err.contains("--mirror"), "{err}");

    // King buckets and mirroring: the net file carries its layout and its description the
    // options that made it, and the engine reads it back. With the factoriser too: a file of the
    // same layout and size (its shared rows are added into each bucket's), which says how it
    // was trained.
    let bucketed_run = |name: &str, extra: &[&str]| {
        let out = dir.join(name).to_str().unwrap().to_string();
        let args = [
            "--data",
            data,
            "--out",
            &out,
            "--hidden",
            "16",
            "--batch",
            "256",
            "--epochs",
            "1",
            "--king-buckets",
            "4",
            "--mirror",
            "--quiet",
        ];
        let (ok, err) = train(&[&args[..], extra].concat());
        assert!(ok, "{err}");
        let bytes = std::fs::read(std::path::Path::new(&out).join("net-e1.nnue")).unwrap();
        (
            out,
            engine::eval::nnue::Network::from_bytes(&bytes).unwrap(),
        )
    };
    let (bucketed, net) = bucketed_run("bucketed", &[]);
    let bucketed = bucketed.as_str();
    assert_eq!(
        net.layout,
        engine::eval::nnue::inputs::Layout::named(4, true).unwrap()
    );
    assert!(
        net.description.contains("--king-buckets 4 --mirror"),
        "{}",
        net.description
    );
    let (factorised, f_net) = bucketed_run("factorised", &["--factorise"]);
    let factorised = factorised.as_str();
    assert_eq!(f_net.layout, net.layout);
    assert_eq!(f_net.w1.len(), net.w1.len());
    assert_ne!(f_net.w1, net.w1);
    assert!(
        f_net
            .description
            .contains("--king-buckets 4 --mirror --factorise"),
        "{}",
        f_net.description
    );
    let (ok, err) = train(&["--out", bucketed, "--resume", "--factorise"]);
    assert!(!ok && err.contains("--factorise"), "{err}");
    let (ok, err) = train(&["--out", factorised, "--resume", "--epochs", "2", "--quiet"]);
    assert!(ok, "{err}");
    let (ok, err) = train(&[
        "--data",
        data,
        "--out",
        dir.join("f1").to_str().unwrap(),
        "--factorise",
    ]);
    assert!(
        !ok && err.contains("--factorise") && err.contains("--king-buckets"),
        "{err}"
    );
    let (ok, err) = train(&["--data", data, "--out", bucketed, "--king-buckets", "3"]);
    assert!(!ok && err.contains("--king-buckets 3"), "{err}");
    let (ok, err) = train(&[&["--data", data][..], &base].concat());
    assert!(!ok && err.contains("--resume"), "{err}");
    let other = dir.join("other");
    let other = other.to_str().unwrap();
    let (ok, err) = train(&["--data", "/nonexistent.games", "--out", other]);
    assert!(!ok && err.contains("/nonexistent.games"), "{err}");
    let (ok, err) = train(&["--data", data, "--out", other, "--hidden", "20"]);
    assert!(!ok && err.contains("--hidden 20"), "{err}");
    let (ok, err) = train(&["--out", other]);
    assert!(!ok && err.contains("--data"), "{err}");
    // A file that is not positions.
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, vec![7u8; 64]).unwrap();
    let (ok, err) = train(&["--data", junk.to_str().unwrap(), "--out", other]);
    assert!(!ok && err.contains("record 0"), "{err}");
    // A device that never ends is refused, not read until memory runs out.
    #[cfg(unix)]
    for name in ["zero.bin", "zero.games"] {
        let link = dir.join(name);
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let (ok, err) = train(&["--data", link.to_str().unwrap(), "--out", other]);
        assert!(!ok && err.contains("not a regular file"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
