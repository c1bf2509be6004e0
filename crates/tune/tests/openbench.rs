//! `tune pgn` on the PGN an OpenBench worker uploads: OpenBench's own client code
//! (`scripts/openbench-client.py`, with the pinned client of `../shared/tools/openbench`) rewrites
//! the fastchess fixture in its compact and verbose forms, and both become the same training data.
//! Skipped, loudly, where that folder or Python is missing (a user's machine); CI has both.

use std::path::Path;
use std::process::Command;

#[test]
fn the_pgn_openbench_uploads_becomes_training_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let client = root.join("../shared/tools/openbench/openbench-client.tar.xz");
    if !client.exists() {
        eprintln!("SKIPPED: no OpenBench client at {}", client.display());
        return;
    }
    let run = match Command::new("python3")
        .arg(root.join("scripts/openbench-client.py"))
        .arg("--tune")
        .arg(env!("CARGO_BIN_EXE_tune"))
        .arg("--client")
        .arg(&client)
        .output()
    {
        Ok(run) => run,
        Err(e) => {
            eprintln!("SKIPPED: python3 did not start: {e}");
            return;
        }
    };
    let out = String::from_utf8_lossy(&run.stdout);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{out}\n{err}");
    assert_eq!(
        out.matches("\nok   ").count() + out.starts_with("ok   ") as usize,
        2,
        "{out}"
    );
}
