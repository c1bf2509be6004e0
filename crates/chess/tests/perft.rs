//! Every position of the perft suites in `data/perft/`, to every depth whose count is below
//! ten million nodes (all depths with `cargo test --release -- --ignored`), and the FEN round
//! trip of each position.

use chess::{CastlingMode, Position, perft};
use std::path::PathBuf;

/// Counts above this are left to the ignored deep test.
const QUICK_LIMIT: u64 = 10_000_000;

struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
}

/// Reads `FEN ;D1 n ;D2 n ...` lines (either spacing around `;`).
fn suite(name: &str) -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/perft")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or_default().trim().to_string();
            let counts = parts
                .map(|part| {
                    let (depth, count) = part.trim().split_once(' ').expect("'Dk n'");
                    let depth = depth.trim_start_matches('D').parse().expect("depth");
                    (depth, count.trim().parse().expect("count"))
                })
                .collect();
            Case { fen, counts }
        })
        .collect()
}

fn check(name: &str, mode: CastlingMode, limit: u64, part: Option<(usize, usize)>) {
    let cases = suite(name);
    let mut checked = 0;
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        if let Some((index, parts)) = part
            && i % parts != index
        {
            continue;
        }
        let pos = Position::from_fen_with(&case.fen, mode)
            .unwrap_or_else(|e| panic!("{name} line {}: {e}", i + 1));
        let again = Position::from_fen_with(&pos.to_fen(), mode).expect("to_fen reads back");
        assert_eq!(again, pos, "FEN round trip of {}", case.fen);
        assert_eq!(again.to_fen(), pos.to_fen());
        for &(depth, expected) in &case.counts {
            if expected > limit {
                continue;
            }
            let nodes = perft(&pos, depth);
            checked += 1;
            if nodes != expected {
                failures.push(format!(
                    "{} depth {depth}: {nodes}, expected {expected}",
                    case.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} perft failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 0);
}

#[test]
fn standard_suite() {
    check("standard.epd", CastlingMode::Standard, QUICK_LIMIT, None);
}

#[test]
fn standard_suite_also_reads_as_chess960() {
    check("standard.epd", CastlingMode::Chess960, 100_000, None);
}

#[test]
fn tricky_suite_with_chess960_castling() {
    check("tricky.epd", CastlingMode::Chess960, QUICK_LIMIT, None);
}

#[test]
fn chess960_suite_first_half() {
    check(
        "chess960.epd",
        CastlingMode::Chess960,
        QUICK_LIMIT,
        Some((0, 2)),
    );
}

#[test]
fn chess960_suite_second_half() {
    check(
        "chess960.epd",
        CastlingMode::Chess960,
        QUICK_LIMIT,
        Some((1, 2)),
    );
}

// The deep counts CI runs (`cargo test --release -p chess --test perft -- --ignored deep_`):
// about 1.6e10 nodes, a minute or two on two cores. The whole of `all_suites_every_depth` is
// 5.3e11 nodes, more than half an hour.

#[test]
#[ignore = "every depth of the standard suite: half a minute"]
fn deep_standard_suite_every_depth() {
    check("standard.epd", CastlingMode::Standard, u64::MAX, None);
}

/// One position in 48 of the Chess960 suite (20 of 960, spread over it by line number), at
/// every depth: 1.1e10 of the suite's 5.2e11 nodes.
#[test]
#[ignore = "every depth of a sample of the Chess960 suite: a minute"]
fn deep_chess960_sample_every_depth() {
    check(
        "chess960.epd",
        CastlingMode::Chess960,
        u64::MAX,
        Some((7, 48)),
    );
}

#[test]
#[ignore = "every depth of every suite: minutes to hours"]
fn all_suites_every_depth() {
    check("standard.epd", CastlingMode::Standard, u64::MAX, None);
    check("tricky.epd", CastlingMode::Chess960, u64::MAX, None);
    check("chess960.epd", CastlingMode::Chess960, u64::MAX, None);
}
