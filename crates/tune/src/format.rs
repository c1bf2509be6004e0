//! The training-data format: one position per 32-byte record, written by `datagen`, read by the
//! Texel tuner (and printed as text by `tune show`).
//!
//! # The record (32 bytes, little-endian)
//!
//! | bytes  | what |
//! |--------|------|
//! | 0..8   | occupancy: a `u64`, bit `i` set when square `i` (a1 = 0, b1 = 1, ..., h8 = 63) holds a piece |
//! | 8..24  | one 4-bit code per occupied square, in increasing square order, two per byte, low nibble first (at most 32 pieces; unused nibbles are 0) |
//! | 24     | side to move: 0 White, 1 Black |
//! | 25     | halfmove clock (saturated at 255) |
//! | 26..28 | fullmove number, `u16` |
//! | 28..30 | the search's score for the position, in centipawns from White's view, `i16` |
//! | 30     | the game's result from White's view: 0 Black won, 1 draw, 2 White won |
//! | 31     | 0 (reserved) |
//!
//! A piece code is `colour << 3 | kind`: colour 0 White, 1 Black; kind 0 pawn, 1 knight,
//! 2 bishop, 3 rook, 4 queen, 5 king, **6** a rook that still has its castling right (so the
//! rights take no room of their own and Chess960 rights fit too), **7** a pawn that has just
//! advanced two squares and can be taken en passant (the en-passant square is the one behind it;
//! it is only recorded when a capture there is legal, as [`Position`] does).
//!
//! Files are plain concatenations of records: `cat` joins them, `head -c $((32 * N))` cuts them,
//! and a file whose length is not a multiple of 32 (a write cut short by a kill) has its
//! incomplete tail ignored by the reader and cut off by the next `datagen` run on it.

use chess::{CastleSide, CastlingMode, Color, PieceType, Position, Square};
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The size of one record.
pub const RECORD_SIZE: usize = 32;

/// One record's bytes.
pub type Record = [u8; RECORD_SIZE];

const CASTLING_ROOK: u8 = 6;
const EN_PASSANT_PAWN: u8 = 7;

/// A game's result from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWins = 0,
    Draw = 1,
    WhiteWins = 2,
}

impl GameResult {
    fn from_byte(b: u8) -> Option<GameResult> {
        match b {
            0 => Some(GameResult::BlackWins),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWins),
            _ => None,
        }
    }

    /// White's points: 0, 0.5 or 1 (the tuner's target).
    pub fn white_points(self) -> f64 {
        self as u8 as f64 / 2.0
    }

    /// As in PGN: `1-0`, `1/2-1/2`, `0-1`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::WhiteWins => "1-0",
        }
    }

    /// The win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// A decoded record.
#[derive(Clone, Debug)]
pub struct Sample {
    pub position: Position,
    /// The search's score, from White's view.
    pub score: i16,
    pub result: GameResult,
}

/// Packs a position, its score (White's view, clamped to `i16`) and the game's result.
///
/// # Errors
/// More than 32 pieces (no legal position has that many).
pub fn encode(pos: &Position, white_score: i32, result: GameResult) -> Result<Record, String> {
    let occupied = pos.occupied();
    if occupied.popcount() > 32 {
        return Err(format!("{}: more than 32 pieces", pos.to_fen()));
    }
    let rights = pos.castling_rights();
    let castling_rooks: Vec<Square> = Color::ALL
        .iter()
        .flat_map(|&c| CastleSide::ALL.map(|side| rights.rook_square(c, side)))
        .flatten()
        .collect();
    // The pawn that can be taken en passant stands just past the en-passant square.
    let ep_pawn = pos.en_passant().map(|ep| match pos.side_to_move() {
        Color::White => ep.index() - 8,
        Color::Black => ep.index() + 8,
    });
    let mut r = [0u8; RECORD_SIZE];
    r[0..8].copy_from_slice(&occupied.0.to_le_bytes());
    for (i, sq) in occupied.enumerate() {
        let piece = pos.piece_at(sq).ok_or("occupancy without a piece")?;
        let kind = if castling_rooks.contains(&sq) {
            CASTLING_ROOK
        } else if ep_pawn == Some(sq.index()) {
            EN_PASSANT_PAWN
        } else {
            piece.piece_type.index() as u8
        };
        let code = (piece.color.index() as u8) << 3 | kind;
        r[8 + i / 2] |= code << (4 * (i % 2));
    }
    r[24] = pos.side_to_move().index() as u8;
    r[25] = pos.halfmove_clock().min(255) as u8;
    let fullmove = pos.fullmove_number().min(u16::MAX as u32) as u16;
    r[26..28].copy_from_slice(&fullmove.to_le_bytes());
    let score = white_score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    r[28..30].copy_from_slice(&score.to_le_bytes());
    r[30] = result as u8;
    Ok(r)
}

/// Unpacks a record.
///
/// # Errors
/// A record that describes no legal position (a damaged or foreign file).
pub fn decode(r: &Record) -> Result<Sample, String> {
    let occupied = u64::from_le_bytes(r[0..8].try_into().expect("8 bytes"));
    if occupied.count_ones() > 32 {
        return Err("more than 32 pieces".into());
    }
    let mut board: [Option<char>; 64] = [None; 64];
    let mut castling = String::new();
    let mut ep = None;
    let mut bits = occupied;
    let mut i = 0;
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let code = (r[8 + i / 2] >> (4 * (i % 2))) & 15;
        i += 1;
        let white = code & 8 == 0;
        let kind = code & 7;
        let letter = match kind {
            CASTLING_ROOK => {
                let file = (b'a' + (sq % 8) as u8) as char;
                castling.push(if white {
                    file.to_ascii_uppercase()
                } else {
                    file
                });
                'r'
            }
            EN_PASSANT_PAWN => {
                // The square the pawn passed over: behind it, from its own side (none behind a
                // pawn on its own back rank, which only a damaged record has).
                let behind = if white {
                    sq.checked_sub(8)
                } else {
                    Some(sq + 8)
                };
                ep = Some(
                    behind
                        .filter(|&s| s < 64)
                        .ok_or("an en-passant pawn on a back rank")?,
                );
                'p'
            }
            k => PieceType::ALL[k as usize].to_char(),
        };
        board[sq] = Some(if white {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    let mut fen = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let side = match r[24] {
        0 => "w",
        1 => "b",
        b => return Err(format!("side to move byte {b}")),
    };
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = match ep.and_then(|sq| Square::from_index(sq as u8)) {
        Some(sq) => sq.to_string(),
        None => "-".to_string(),
    };
    let fullmove = u16::from_le_bytes([r[26], r[27]]);
    let fen = format!("{fen} {side} {castling} {ep} {} {fullmove}", r[25]);
    // Rights are written as rook files, which Chess960 mode reads for any castling rook.
    let position =
        Position::from_fen_with(&fen, CastlingMode::Chess960).map_err(|e| format!("{fen}: {e}"))?;
    let result = GameResult::from_byte(r[30]).ok_or_else(|| format!("result byte {}", r[30]))?;
    Ok(Sample {
        position,
        score: i16::from_le_bytes([r[28], r[29]]),
        result,
    })
}

/// Reads records from a file in batches, ignoring an incomplete record at the end.
pub struct Reader {
    file: io::BufReader<File>,
    /// Bytes of an incomplete final record seen (0 normally).
    pub torn_tail: usize,
}

impl Reader {
    /// Opens a regular file (a pipe or a device such as `/dev/zero` could block or never end).
    pub fn open(path: &Path) -> io::Result<Reader> {
        let file = File::open(path)?;
        if !file.metadata()?.is_file() {
            return Err(io::Error::other("not a regular file"));
        }
        Ok(Reader {
            file: io::BufReader::with_capacity(1 << 20, file),
            torn_tail: 0,
        })
    }

    /// Up to `max` more records into `out` (cleared first); returns how many (0 at the end).
    pub fn read_batch(&mut self, out: &mut Vec<Record>, max: usize) -> io::Result<usize> {
        out.clear();
        let mut record = [0u8; RECORD_SIZE];
        while out.len() < max {
            let mut filled = 0;
            while filled < RECORD_SIZE {
                match self.file.read(&mut record[filled..]) {
                    Ok(0) => break,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            if filled < RECORD_SIZE {
                if filled > 0 {
                    self.torn_tail = filled;
                }
                break;
            }
            out.push(record);
        }
        Ok(out.len())
    }
}

/// Every record of a file (for tests and small files).
pub fn read_all(path: &Path) -> io::Result<Vec<Record>> {
    let mut reader = Reader::open(path)?;
    let mut all = Vec::new();
    let mut batch = Vec::new();
    while reader.read_batch(&mut batch, 1 << 16)? > 0 {
        all.append(&mut batch);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(fen: &str, mode: CastlingMode) {
        let pos = Position::from_fen_with(fen, mode).unwrap();
        for (score, result) in [
            (0, GameResult::Draw),
            (-345, GameResult::BlackWins),
            (40_000, GameResult::WhiteWins),
        ] {
            let r = encode(&pos, score, result).unwrap();
            let back = decode(&r).unwrap();
            assert_eq!(back.position.to_fen(), pos.to_fen(), "{fen}");
            assert_eq!(back.position.hash(), pos.hash(), "{fen}");
            assert_eq!(back.result, result);
            assert_eq!(back.score as i32, score.min(i16::MAX as i32));
        }
    }

    #[test]
    fn special_positions_round_trip() {
        for fen in [
            chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq - 7 19",
            // En passant, both ways.
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "rnbqkbnr/pppp1ppp/8/8/3Pp3/4P3/PPP2PPP/RNBQKBNR b KQkq d3 0 3",
            "8/8/8/8/8/8/8/K6k b - - 99 250",
            // 32 pieces, the most a record holds.
            "r1bqkbnr/pppppppp/2n5/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2",
        ] {
            round_trip(fen, CastlingMode::Standard);
        }
        // Chess960 rights (rooks on b and g files).
        round_trip(
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
            CastlingMode::Chess960,
        );
    }

    #[test]
    fn random_games_round_trip() {
        let mut rng = chess::rng::Rng::new(11);
        for _ in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                round_trip(&pos.to_fen(), CastlingMode::Standard);
                pos.make_move(moves[rng.below(moves.len())]);
            }
        }
    }

    #[test]
    fn an_en_passant_pawn_on_a_back_rank_is_an_error() {
        // One piece on a1 (White's en-passant pawn) or h8 (Black's): nothing lies behind it.
        for (square, code) in [(0, EN_PASSANT_PAWN), (63, 8 | EN_PASSANT_PAWN)] {
            let mut r = [0u8; RECORD_SIZE];
            r[0..8].copy_from_slice(&(1u64 << square).to_le_bytes());
            r[8] = code;
            let e = decode(&r).unwrap_err();
            assert_eq!(e, "an en-passant pawn on a back rank");
        }
    }

    #[test]
    fn damaged_records_are_errors_not_panics() {
        // Records of random bytes, and real ones with a few bytes changed: each decodes or is
        // refused (run in a debug build too, where an arithmetic overflow would panic).
        let mut rng = chess::rng::Rng::new(17);
        let real = encode(
            &Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
                .unwrap(),
            35,
            GameResult::WhiteWins,
        )
        .unwrap();
        let (mut decoded, mut refused) = (0, 0);
        for i in 0..200_000 {
            let mut r = [0u8; RECORD_SIZE];
            if i % 2 == 0 {
                r.iter_mut().for_each(|b| *b = rng.next_u64() as u8);
            } else {
                r = real;
                for _ in 0..1 + rng.below(3) {
                    r[rng.below(RECORD_SIZE)] = rng.next_u64() as u8;
                }
            }
            match decode(&r) {
                Ok(sample) => {
                    assert_eq!(sample.position.hash(), sample.position.hash_from_scratch());
                    decoded += 1;
                }
                Err(_) => refused += 1,
            }
        }
        assert!(decoded > 1000 && refused > 100_000, "{decoded} {refused}");
    }

    #[test]
    #[cfg(unix)]
    fn the_reader_reads_only_regular_files() {
        let e = Reader::open(Path::new("/dev/zero")).err().unwrap();
        assert_eq!(e.to_string(), "not a regular file");
    }

    #[test]
    fn reader_ignores_a_torn_tail() {
        let path = std::env::temp_dir().join(format!("tune-format-{}.bin", std::process::id()));
        let pos = Position::startpos();
        let r = encode(&pos, 12, GameResult::Draw).unwrap();
        let mut bytes = Vec::new();
        for _ in 0..3 {
            bytes.extend_from_slice(&r);
        }
        bytes.extend_from_slice(&r[..10]);
        std::fs::write(&path, &bytes).unwrap();
        let mut reader = Reader::open(&path).unwrap();
        let mut batch = Vec::new();
        assert_eq!(reader.read_batch(&mut batch, 2).unwrap(), 2);
        assert_eq!(reader.read_batch(&mut batch, 2).unwrap(), 1);
        assert_eq!(reader.read_batch(&mut batch, 2).unwrap(), 0);
        assert_eq!(reader.torn_tail, 10);
        std::fs::remove_file(&path).unwrap();
    }
}
