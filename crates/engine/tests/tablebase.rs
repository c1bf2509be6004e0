//! The tablebase code against an independent prober (pyrrhic-rs, derived from the C probers
//! Fathom and Pyrrhic, on cb2026's own attack functions) on thousands of random positions of
//! 3 and 4 pieces; the root filter; and damaged or missing files.
//!
//! Not on 64-bit ARM Linux, where the independent prober does not compile (crates/engine/Cargo.toml).
#![cfg(not(all(target_arch = "aarch64", target_os = "linux")))]

mod common;

use chess::rng::Rng;
use chess::{Bitboard, Color, PieceType, Position, Square};
use engine::tablebase::{Tablebases, Wdl};
use std::path::PathBuf;

fn tables_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy")
}

/// A random legal position with both kings and one or two other pieces, halfmove clock 0.
fn random_position(rng: &mut Rng) -> Position {
    const PIECES: [char; 5] = ['P', 'N', 'B', 'R', 'Q'];
    loop {
        let mut pieces = vec!['K', 'k'];
        for _ in 0..1 + rng.next_u64() % 2 {
            let c = PIECES[(rng.next_u64() % 5) as usize];
            pieces.push(if rng.next_u64().is_multiple_of(2) {
                c
            } else {
                c.to_ascii_lowercase()
            });
        }
        if let Some(pos) = common::random_placement(rng, &pieces) {
            return pos;
        }
    }
}

#[derive(Clone)]
struct OurAttacks;

fn square(s: u64) -> Square {
    Square::from_index(s as u8).expect("a square index below 64")
}

impl pyrrhic_rs::EngineAdapter for OurAttacks {
    fn pawn_attacks(color: pyrrhic_rs::Color, s: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        chess::pawn_attacks(color, square(s)).0
    }
    fn knight_attacks(s: u64) -> u64 {
        chess::knight_attacks(square(s)).0
    }
    fn bishop_attacks(s: u64, occupied: u64) -> u64 {
        chess::bishop_attacks(square(s), Bitboard(occupied)).0
    }
    fn rook_attacks(s: u64, occupied: u64) -> u64 {
        chess::rook_attacks(square(s), Bitboard(occupied)).0
    }
    fn queen_attacks(s: u64, occupied: u64) -> u64 {
        chess::queen_attacks(square(s), Bitboard(occupied)).0
    }
    fn king_attacks(s: u64) -> u64 {
        chess::king_attacks(square(s)).0
    }
}

fn other_wdl(tb: &pyrrhic_rs::TableBases<OurAttacks>, pos: &Position) -> Option<Wdl> {
    let t = |k| pos.pieces_of_type(k).0;
    let ep = pos.en_passant().map_or(0, |s| s.index() as u32);
    let r = tb.probe_wdl(
        pos.pieces_of_color(Color::White).0,
        pos.pieces_of_color(Color::Black).0,
        t(PieceType::King),
        t(PieceType::Queen),
        t(PieceType::Rook),
        t(PieceType::Bishop),
        t(PieceType::Knight),
        t(PieceType::Pawn),
        ep,
        pos.side_to_move() == Color::White,
    );
    Some(match r.ok()? {
        pyrrhic_rs::WdlProbeResult::Loss => Wdl::Loss,
        pyrrhic_rs::WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
        pyrrhic_rs::WdlProbeResult::Draw => Wdl::Draw,
        pyrrhic_rs::WdlProbeResult::CursedWin => Wdl::CursedWin,
        pyrrhic_rs::WdlProbeResult::Win => Wdl::Win,
    })
}

#[test]
fn probes_agree_with_an_independent_prober_and_root_moves_keep_the_result() {
    let dir = tables_dir();
    let loaded = Tablebases::open(&dir.display().to_string()).expect("the test tables");
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let tb = loaded.tablebases;
    assert_eq!((tb.files(), tb.max_pieces()), (70, 4));
    // The only pyrrhic-rs handle in this test binary (it allows one per process).
    let other = pyrrhic_rs::TableBases::<OurAttacks>::new(dir.display().to_string())
        .expect("pyrrhic-rs reads the test tables");

    let mut rng = Rng::new(27);
    let mut counts = [0usize; 5];
    for i in 0..20_000 {
        let pos = random_position(&mut rng);
        let ours = tb
            .probe_wdl(&pos)
            .unwrap_or_else(|| panic!("no probe: {}", pos.to_fen()));
        assert_eq!(Some(ours), other_wdl(&other, &pos), "{}", pos.to_fen());
        counts[ours as usize] += 1;
        // The distance to zeroing agrees in sign with the result.
        let dtz = tb.probe_dtz(&pos).expect("a DTZ probe");
        match ours {
            Wdl::Win | Wdl::CursedWin => assert!(dtz > 0, "{} {dtz}", pos.to_fen()),
            Wdl::Loss | Wdl::BlessedLoss => assert!(dtz < 0, "{} {dtz}", pos.to_fen()),
            Wdl::Draw => assert_eq!(dtz, 0, "{}", pos.to_fen()),
        }
        // The root filter keeps only moves that keep the result (every 10th position: each
        // move is probed).
        if i % 10 == 0 && pos.has_legal_moves() {
            let (best, moves) = tb.root_moves(&pos, false).expect("root probe");
            assert!(!moves.is_empty());
            let expected = match ours {
                Wdl::CursedWin => Wdl::Win,
                Wdl::BlessedLoss => Wdl::Loss,
                w => w,
            };
            assert_eq!(best, expected, "{}", pos.to_fen());
            for &mv in &moves {
                let mut child = pos.clone();
                child.make_move(mv);
                if !child.has_legal_moves() {
                    continue;
                }
                let after = tb.probe_dtz(&child).expect("probe after the move");
                match best {
                    Wdl::Win => assert!(after < 0, "{} {mv}", pos.to_fen()),
                    Wdl::Loss => assert!(after > 0, "{} {mv}", pos.to_fen()),
                    _ => assert_eq!(after, 0, "{} {mv}", pos.to_fen()),
                }
            }
        }
    }
    // A fair spread of results was tested.
    assert!(
        counts.iter().filter(|&&c| c > 100).count() >= 3,
        "{counts:?}"
    );
}

#[test]
fn the_fifty_move_rule_spoils_a_slow_win() {
    let dir = tables_dir().display().to_string();
    let tb = Tablebases::open(&dir).expect("tables").tablebases;
    // KBN v K from far away: a win, but not within the few moves the clock leaves.
    let pos = Position::from_fen("8/8/8/8/8/8/8/KBN4k w - - 90 120").expect("fen");
    let (with_rule, _) = tb.root_moves(&pos, true).expect("probe");
    let (without, _) = tb.root_moves(&pos, false).expect("probe");
    assert_eq!((with_rule, without), (Wdl::CursedWin, Wdl::Win));
}

/// How the damaged copy of the test tables treats a file: cut in half, 50 bytes after the
/// header overwritten, or left as it is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Damage {
    Truncated,
    Corrupted,
    Intact,
}

fn damage_of(name: &str) -> Damage {
    if name.starts_with("KRvKP.") || name.starts_with("KQvK.") {
        Damage::Truncated
    } else if name.starts_with("KBNvK.") || name.starts_with("KRvKB.") || name.starts_with("KPvK.")
    {
        Damage::Corrupted
    } else {
        Damage::Intact
    }
}

#[test]
fn damaged_missing_and_empty_folders_are_reported_not_fatal() {
    let base = std::env::temp_dir().join(format!("cb2026-tb-{}", std::process::id()));
    let damaged = base.join("damaged");
    let empty = base.join("empty");
    let intact = base.join("intact");
    for dir in [&damaged, &empty, &intact] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let mut rng = Rng::new(5);
    for entry in std::fs::read_dir(tables_dir()).unwrap() {
        let path = entry.unwrap().path();
        let mut bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        match damage_of(&name) {
            Damage::Truncated => bytes.truncate(bytes.len() / 2),
            Damage::Corrupted => {
                for _ in 0..50 {
                    let i = 64 + (rng.next_u64() as usize) % (bytes.len() - 64);
                    bytes[i] = rng.next_u64() as u8;
                }
            }
            // Also copied alone: the answers that need no damaged file.
            Damage::Intact => std::fs::write(intact.join(&name), &bytes).unwrap(),
        }
        std::fs::write(damaged.join(&name), bytes).unwrap();
    }
    let missing = base.join("missing");
    let list = [&missing, &empty, &damaged]
        .map(|p| p.display().to_string())
        .join(&engine::tablebase::PATH_SEPARATOR.to_string());
    let loaded = Tablebases::open(&list).expect("some files still load");
    // The missing folder and each cut file are reported, one line each; nothing else is.
    let problems = &loaded.problems;
    assert!(problems[0].contains("missing"), "{problems:?}");
    let mut refused: Vec<String> = problems[1..]
        .iter()
        .map(|p| {
            p.rsplit_once(": ")
                .map_or(p.clone(), |(file, _)| file.to_string())
        })
        .map(|file| {
            file.rsplit(['/', '\\'])
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    refused.sort();
    assert_eq!(
        refused,
        ["KQvK.rtbw", "KQvK.rtbz", "KRvKP.rtbw", "KRvKP.rtbz"],
        "{problems:?}"
    );
    assert_eq!(loaded.tablebases.files(), 70 - 4);
    let only_intact = Tablebases::open(&intact.display().to_string()).unwrap();
    assert!(
        only_intact.problems.is_empty(),
        "{:?}",
        only_intact.problems
    );
    let (only_intact, damaged_tables) = (only_intact.tablebases, loaded.tablebases);
    let (mut same, mut refused_queen) = (0, 0);
    for _ in 0..20_000 {
        let pos = random_position(&mut rng);
        let wdl = damaged_tables.probe_wdl(&pos);
        let dtz = damaged_tables.probe_dtz(&pos);
        // A position that needs no damaged table gets the answers it gets without them.
        if let Some(expected) = only_intact.probe_wdl(&pos) {
            assert_eq!(wdl, Some(expected), "{}", pos.to_fen());
            assert_eq!(dtz, only_intact.probe_dtz(&pos), "{}", pos.to_fen());
            same += 1;
        }
        // A table that was refused is not probed: no answer, rather than a wrong one.
        let is_kqk =
            pos.occupied().count() == 3 && pos.pieces_of_type(PieceType::Queen).count() == 1;
        if is_kqk {
            assert_eq!((wdl, dtz), (None, None), "{}", pos.to_fen());
            refused_queen += 1;
        }
        // The corrupted tables answer something or nothing; that they do not crash is all
        // that can be asked of a table whose contents were overwritten.
    }
    assert!(
        same > 5_000 && refused_queen > 100,
        "{same} {refused_queen}"
    );
    assert!(Tablebases::open(&missing.display().to_string()).is_err());
    assert!(Tablebases::open(&empty.display().to_string()).is_err());
    std::fs::remove_dir_all(&base).unwrap();
}
