//! `tune pgn` on games fastchess wrote as an OpenBench DATAGEN workload has them written (the
//! fixture and its command: `tests/fixtures/README.md`).

use std::process::Command;
use tune::games;

#[test]
fn games_fastchess_wrote_become_training_data() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fastchess-openbench.pgn"
    );
    let dir = tempfile_dir();
    let out = dir.join("fixture.games");
    let run = Command::new(env!("CARGO_BIN_EXE_tune"))
        .args(["pgn", fixture, "--out"])
        .arg(&out)
        .output()
        .expect("tune runs");
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{report}");
    assert!(
        report.contains("4 games read, 4 written (526 positions, 374 kept for training"),
        "{report}"
    );
    // What train will read: every move replays legally, with the games' results.
    let mut kept = 0;
    let scan = games::scan_file(&out, |ply| kept += games::keep(ply) as u64).unwrap();
    assert_eq!((scan.games, scan.positions, kept), (4, 526, 374));
    assert_eq!(scan.results, [2, 2, 0]);
    // A second import appends: the file then holds both.
    let again = Command::new(env!("CARGO_BIN_EXE_tune"))
        .args(["pgn", fixture, "--out"])
        .arg(&out)
        .output()
        .expect("tune runs");
    assert!(String::from_utf8_lossy(&again.stdout).contains("now holds 8 games"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_file_that_is_not_pgn_is_refused_with_a_reason() {
    let dir = tempfile_dir();
    let binary = dir.join("not.pgn");
    std::fs::write(&binary, vec![0u8; 3 << 20]).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_tune"))
        .args(["pgn"])
        .arg(&binary)
        .arg("--out")
        .arg(dir.join("x.games"))
        .output()
        .expect("tune runs");
    assert!(!run.status.success());
    let error = String::from_utf8_lossy(&run.stderr);
    assert!(error.contains("not PGN"), "{error}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A fresh folder of this test's own under the system's temporary folder.
fn tempfile_dir() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tune-pgn-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
