//! cb2026's rules against shakmaty's, an established implementation (a dev-dependency only).
//!
//! From every position of the perft suites, random games are played in both libraries at once.
//! At every ply the two must agree on the legal moves, on each move's SAN, on check, mate and
//! stalemate, on insufficient material and on the FEN; and cb2026's incremental hashes (the
//! position's, the pawns', each colour's non-pawn pieces', the minor and major pieces') must equal
//! hashes computed from scratch.

use chess::{CastlingMode, Color, Move, Position};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Position as _};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// xorshift64: reproducible random games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn fens(name: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/perft")
        .join(name);
    std::fs::read_to_string(path)
        .expect("suite file")
        .lines()
        .filter_map(|line| line.split(';').next())
        .map(|fen| fen.trim().to_string())
        .filter(|fen| !fen.is_empty())
        .collect()
}

fn shakmaty_position(fen: &str, mode: CastlingMode) -> Chess {
    let mode = match mode {
        CastlingMode::Standard => shakmaty::CastlingMode::Standard,
        CastlingMode::Chess960 => shakmaty::CastlingMode::Chess960,
    };
    fen.parse::<Fen>()
        .expect("shakmaty reads the FEN")
        .into_position::<Chess>(mode)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .expect("shakmaty accepts the position")
}

/// Compares everything at one ply and returns the common legal moves, keyed by UCI text.
fn compare(ours: &Position, theirs: &Chess, context: &str) -> Vec<(Move, shakmaty::Move)> {
    assert_eq!(ours.hash(), ours.hash_from_scratch(), "hash in {context}");
    assert_eq!(
        ours.pawn_key(),
        ours.pawn_key_from_scratch(),
        "pawn key in {context}"
    );
    for color in [Color::White, Color::Black] {
        assert_eq!(
            ours.non_pawn_key(color),
            ours.non_pawn_key_from_scratch(color),
            "{color:?} non-pawn key in {context}"
        );
    }
    assert_eq!(
        ours.minor_key(),
        ours.minor_key_from_scratch(),
        "minor key in {context}"
    );
    assert_eq!(
        ours.major_key(),
        ours.major_key_from_scratch(),
        "major key in {context}"
    );
    if !ours.is_check() {
        let mut passed = ours.clone();
        passed.make_null_move();
        assert_eq!(
            passed.hash(),
            passed.hash_from_scratch(),
            "null move in {context}"
        );
    }
    let fen = Fen::from_position(theirs.clone(), EnPassantMode::Legal).to_string();
    assert_eq!(ours.to_fen(), fen, "FEN in {context}");

    let their_moves: BTreeMap<String, shakmaty::Move> = theirs
        .legal_moves()
        .into_iter()
        .map(|m| {
            (
                UciMove::from_move(&m, shakmaty::CastlingMode::Chess960).to_string(),
                m,
            )
        })
        .collect();
    let our_moves: BTreeMap<String, Move> = ours
        .legal_moves()
        .iter()
        .map(|&m| (m.to_uci(true), m))
        .collect();
    assert_eq!(
        our_moves.keys().collect::<Vec<_>>(),
        their_moves.keys().collect::<Vec<_>>(),
        "legal moves in {context}"
    );
    assert_eq!(ours.count_legal_moves() as usize, our_moves.len());
    assert_eq!(ours.is_check(), theirs.is_check(), "check in {context}");
    assert_eq!(
        !ours.has_legal_moves() && ours.is_check(),
        theirs.is_checkmate()
    );
    assert_eq!(
        !ours.has_legal_moves() && !ours.is_check(),
        theirs.is_stalemate()
    );
    assert_eq!(
        ours.has_insufficient_material(),
        theirs.is_insufficient_material(),
        "insufficient material in {context}"
    );

    // Noisy and quiet moves split the legal moves exactly, as captures-or-promotions and the rest.
    let noisy = ours.noisy_moves();
    let quiet = ours.quiet_moves();
    assert_eq!(
        noisy.len() + quiet.len(),
        our_moves.len(),
        "noisy + quiet in {context}"
    );
    for m in noisy.iter() {
        let theirs_m = &their_moves[&m.to_uci(true)];
        assert!(
            theirs_m.is_capture() || theirs_m.is_promotion(),
            "{m:?} noisy in {context}"
        );
        assert!(ours.is_capture(*m) == theirs_m.is_capture());
    }
    for m in quiet.iter() {
        let theirs_m = &their_moves[&m.to_uci(true)];
        assert!(
            !theirs_m.is_capture() && !theirs_m.is_promotion(),
            "{m:?} quiet in {context}"
        );
    }

    our_moves
        .into_iter()
        .map(|(uci, m)| (m, their_moves[&uci].clone()))
        .collect()
}

fn play_games(
    name: &str,
    mode: CastlingMode,
    games_per_position: usize,
    max_plies: usize,
    seed: u64,
) {
    let mut rng = Rng(seed);
    let mut plies = 0;
    for fen in fens(name) {
        for game in 0..games_per_position {
            let mut ours = Position::from_fen_with(&fen, mode).expect("cb2026 reads the FEN");
            let mut theirs = shakmaty_position(&fen, mode);
            for ply in 0..max_plies {
                let context = format!("{fen}, game {game}, ply {ply}: {}", ours.to_fen());
                let moves = compare(&ours, &theirs, &context);
                if moves.is_empty() {
                    break;
                }
                // SAN and the text notations of every move, both ways.
                for (ours_m, theirs_m) in &moves {
                    let san = SanPlus::from_move(theirs.clone(), theirs_m).to_string();
                    assert_eq!(ours.san(*ours_m), san, "SAN of {ours_m:?} in {context}");
                    assert_eq!(
                        ours.parse_san(&san),
                        Ok(*ours_m),
                        "parse {san} in {context}"
                    );
                    assert_eq!(ours.parse_uci_move(&ours_m.to_uci(true)), Ok(*ours_m));
                    // Standard notation names a Chess960 castling whose king moves one square
                    // or none ambiguously: that text means the plain king move.
                    let king_steps = ours_m.from().index().abs_diff(ours_m.king_to().index());
                    if !ours_m.is_castle() || king_steps >= 2 {
                        assert_eq!(ours.parse_uci_move(&ours_m.to_uci(false)), Ok(*ours_m));
                    }
                }
                let (ours_m, theirs_m) = &moves[rng.below(moves.len())];
                ours.make_move(*ours_m);
                theirs.play_unchecked(theirs_m);
                plies += 1;
            }
        }
    }
    assert!(plies > 1000, "only {plies} plies played");
}

#[test]
fn random_games_from_the_standard_suite() {
    play_games("standard.epd", CastlingMode::Standard, 4, 80, 0x1234_5678);
}

#[test]
fn random_games_from_the_chess960_suite() {
    play_games("chess960.epd", CastlingMode::Chess960, 1, 60, 0x9e37_79b9);
}

#[test]
fn random_games_from_the_tricky_suite() {
    play_games("tricky.epd", CastlingMode::Chess960, 20, 80, 0xdead_beef);
}

/// `is_legal` on every one of the 65,536 possible 16-bit moves agrees with the generated list.
#[test]
fn single_move_legality_matches_generation() {
    let mut rng = Rng(77);
    let mut positions = Vec::new();
    for (name, mode) in [
        ("standard.epd", CastlingMode::Standard),
        ("tricky.epd", CastlingMode::Chess960),
    ] {
        for fen in fens(name) {
            let mut pos = Position::from_fen_with(&fen, mode).expect("suite FEN");
            for _ in 0..6 {
                positions.push(pos.clone());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.below(moves.len())]);
            }
        }
    }
    for pos in &positions {
        let legal = pos.legal_moves();
        for bits in 1..=u16::MAX {
            let Some(mv) = Move::from_bits(bits) else {
                continue;
            };
            assert_eq!(
                pos.is_legal(mv),
                legal.contains(&mv),
                "{mv:?} in {}",
                pos.to_fen()
            );
        }
    }
}
