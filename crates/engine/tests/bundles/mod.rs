//! The bundle files of scripts/bundles (the techniques an SPRT switches on together), read the
//! way the match scripts read them, for the tests that check them against the techniques table.

use std::path::Path;

/// The names a bundle file lists, one a line, `#` lines and blank lines left out.
pub fn bundle(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts/bundles")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.trim().to_string())
        .collect()
}
