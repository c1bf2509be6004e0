//! FEN and EPD: reading positions from text and writing them back.
//!
//! The parser never panics. Each malformed field gives a [`FenError`] that names the field and
//! says what is wrong with it, and a position that is impossible to reach (no king, a pawn on the
//! back rank, the side not to move in check...) is refused as well.

use crate::bitboard::Bitboard;
use crate::castling::{CastleSide, back_rank};
use crate::piece::{Color, Piece, PieceType};
use crate::position::Position;
use crate::square::{File, Rank, Square};
use crate::zobrist::{self, KEYS};
use std::fmt;

pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// How castling rights are read. Standard chess requires the king on the e-file and the rooks in
/// the corners; Chess960 allows any files, with `KQkq` meaning the outermost rook (X-FEN) or a
/// file letter naming the rook (Shredder-FEN).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CastlingMode {
    #[default]
    Standard,
    Chess960,
}

/// The part of a FEN an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    /// The whole string (field count), or the position as a whole.
    Whole,
    Placement,
    SideToMove,
    Castling,
    EnPassant,
    HalfmoveClock,
    FullmoveNumber,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Whole => "position",
            FenField::Placement => "piece placement",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en passant square",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
        })
    }
}

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    pub field: FenField,
    pub reason: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN: {}: {}", self.field, self.reason)
    }
}

impl std::error::Error for FenError {}

fn error(field: FenField, reason: impl Into<String>) -> FenError {
    FenError {
        field,
        reason: reason.into(),
    }
}

/// At most this many full moves: far past any real game, and a larger number is more likely a
/// damaged field than a position.
const MAX_FULLMOVE: u32 = 30_000;
/// The largest halfmove clock a FEN may give (the counters are 32 bits wide and saturate, so a
/// long move list after it can't wrap them).
const MAX_HALFMOVE_CLOCK: u32 = 65_535;

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS).expect("the start position is valid")
    }

    /// Reads a FEN with standard castling rules. The clocks may be left out (as in EPD).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, CastlingMode::Standard)
    }

    /// Reads a FEN with the given castling rules.
    pub fn from_fen_with(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(error(
                FenField::Whole,
                format!("expected 4 to 6 fields, found {}", fields.len()),
            ));
        }
        let halfmove = fields.get(4).copied().unwrap_or("0");
        let fullmove = fields.get(5).copied().unwrap_or("1");
        Position::from_fields(
            [
                fields[0], fields[1], fields[2], fields[3], halfmove, fullmove,
            ],
            mode,
        )
    }

    /// Builds a position from the six FEN fields.
    pub(crate) fn from_fields(fields: [&str; 6], mode: CastlingMode) -> Result<Position, FenError> {
        let [placement, side, castling, en_passant, halfmove, fullmove] = fields;
        let mut pos = Position::empty();
        parse_placement(&mut pos, placement)?;
        validate_material(&pos)?;

        pos.side = match side {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(error(
                    FenField::SideToMove,
                    format!("expected 'w' or 'b', found '{other}'"),
                ));
            }
        };
        if pos.side == Color::Black {
            pos.hash ^= KEYS.black_to_move;
        }
        // The side that just moved can't have left its king in check.
        let waiting = !pos.side;
        if pos.is_attacked_by(pos.king_square(waiting), pos.side, pos.occupied()) {
            return Err(error(
                FenField::Whole,
                format!("the side not to move ({}) is in check", color_name(waiting)),
            ));
        }

        parse_castling(&mut pos, castling, mode)?;
        pos.hash ^= pos.castling.hash();
        parse_en_passant(&mut pos, en_passant)?;

        pos.halfmove_clock = match halfmove.parse::<u32>() {
            Ok(n) if n <= MAX_HALFMOVE_CLOCK => n,
            _ => {
                return Err(error(
                    FenField::HalfmoveClock,
                    format!("'{halfmove}' is not a whole number from 0 to {MAX_HALFMOVE_CLOCK}"),
                ));
            }
        };
        let fullmove_number = match fullmove.parse::<u32>() {
            // Some writers put 0 here; read it as the first move.
            Ok(n) if n <= MAX_FULLMOVE => n.max(1),
            _ => {
                return Err(error(
                    FenField::FullmoveNumber,
                    format!("'{fullmove}' is not a whole number from 1 to {MAX_FULLMOVE}"),
                ));
            }
        };
        pos.game_ply = (fullmove_number - 1) * 2 + pos.side.index() as u32;
        pos.update_check_info();
        // One move gives check with at most two pieces (a discovered check by a second one).
        if pos.checkers.popcount() > 2 {
            return Err(error(
                FenField::Whole,
                format!(
                    "{} checkers: no move gives check with more than two pieces",
                    pos.checkers.popcount()
                ),
            ));
        }
        Ok(pos)
    }

    /// Writes the position as FEN. Castling rights are written as `KQkq` when the rook is the
    /// outermost one on its side (always so in standard chess) and as the rook's file letter
    /// otherwise, so any position can be read back in Chess960 mode.
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::new(file, *rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.to_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if *rank != Rank::R1 {
                fen.push('/');
            }
        }
        fen.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        let rights = self.castling_string();
        fen.push_str(&rights);
        fen.push(' ');
        match self.en_passant {
            Some(sq) => fen.push_str(&sq.to_string()),
            None => fen.push('-'),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock,
            self.fullmove_number()
        ));
        fen
    }

    fn castling_string(&self) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                let Some(file) = self.castling.rook_file(color, side) else {
                    continue;
                };
                let outermost = outermost_rook(self, color, side) == Some(file);
                let c = match (outermost, side) {
                    (true, CastleSide::King) => 'k',
                    (true, CastleSide::Queen) => 'q',
                    (false, _) => file.to_char(),
                };
                s.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

/// A position shows as its FEN.
impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_placement(pos: &mut Position, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(error(
            FenField::Placement,
            format!("expected 8 ranks separated by '/', found {}", ranks.len()),
        ));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u8);
        let mut file = 0u8;
        let mut after_digit = false;
        for c in text.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                // FEN counts a run of empty squares with one digit: "44" is no FEN's spelling.
                if after_digit {
                    return Err(error(
                        FenField::Placement,
                        format!("two digits in a row in rank {}", rank.to_char()),
                    ));
                }
                after_digit = true;
                file += skip as u8;
            } else if let Some(piece) = Piece::from_char(c) {
                after_digit = false;
                if file < 8 {
                    pos.put_piece(piece, Square::new(File::new(file), rank));
                }
                file += 1;
            } else {
                return Err(error(
                    FenField::Placement,
                    format!(
                        "'{c}' in rank {} is neither a piece letter nor a digit 1-8",
                        rank.to_char()
                    ),
                ));
            }
            if file > 8 {
                return Err(error(
                    FenField::Placement,
                    format!("rank {} has more than 8 squares", rank.to_char()),
                ));
            }
        }
        if file != 8 {
            return Err(error(
                FenField::Placement,
                format!("rank {} has {file} squares, not 8", rank.to_char()),
            ));
        }
    }
    Ok(())
}

fn validate_material(pos: &Position) -> Result<(), FenError> {
    for color in Color::ALL {
        let kings = pos.pieces(PieceType::King, color).popcount();
        if kings != 1 {
            let count = if kings == 0 {
                "no".to_string()
            } else {
                kings.to_string()
            };
            return Err(error(
                FenField::Placement,
                format!("{} has {count} kings, not one", color_name(color)),
            ));
        }
        let pieces = pos.pieces_of_color(color).popcount();
        let pawns = pos.pieces(PieceType::Pawn, color).popcount();
        if pieces > 16 || pawns > 8 {
            return Err(error(
                FenField::Placement,
                format!(
                    "{} has {pieces} pieces, {pawns} of them pawns (at most 16 and 8)",
                    color_name(color)
                ),
            ));
        }
        // Each piece beyond the starting set came from a pawn. Besides refusing what no game
        // reaches, this is what bounds the number of legal moves (see `MAX_MOVES`).
        let promoted = promoted_pieces(pos, color);
        if pawns + promoted > 8 {
            return Err(error(
                FenField::Placement,
                format!(
                    "{} has {pawns} pawns and {promoted} promoted pieces (the queens, rooks, \
                     bishops and knights beyond 1, 2, 2 and 2): at most 8 together",
                    color_name(color)
                ),
            ));
        }
    }
    let back_ranks = Bitboard::rank(Rank::R1) | Bitboard::rank(Rank::R8);
    if let Some(sq) = (pos.pieces_of_type(PieceType::Pawn) & back_ranks).next() {
        return Err(error(
            FenField::Placement,
            format!("a pawn on {sq}, a back rank"),
        ));
    }
    Ok(())
}

/// How many of `color`'s pieces must have been promoted: those beyond the starting set's one
/// queen, two rooks, two bishops and two knights.
fn promoted_pieces(pos: &Position, color: Color) -> u32 {
    [
        (PieceType::Queen, 1),
        (PieceType::Rook, 2),
        (PieceType::Bishop, 2),
        (PieceType::Knight, 2),
    ]
    .into_iter()
    .map(|(kind, start)| pos.pieces(kind, color).popcount().saturating_sub(start))
    .sum()
}

/// The file of the rook furthest from the king on one side of it, on the colour's back rank.
fn outermost_rook(pos: &Position, color: Color, side: CastleSide) -> Option<File> {
    let rank = back_rank(color);
    let king = pos.pieces(PieceType::King, color).single()?;
    if king.rank() != rank {
        return None;
    }
    let rooks = pos.pieces(PieceType::Rook, color) & Bitboard::rank(rank);
    let files = rooks.map(Square::file).filter(|&f| match side {
        CastleSide::King => f > king.file(),
        CastleSide::Queen => f < king.file(),
    });
    match side {
        CastleSide::King => files.max(),
        CastleSide::Queen => files.min(),
    }
}

fn parse_castling(pos: &mut Position, text: &str, mode: CastlingMode) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = back_rank(color);
        let king = pos.king_square(color);
        if king.rank() != rank {
            return Err(error(
                FenField::Castling,
                format!(
                    "'{c}': the {} king is not on its back rank",
                    color_name(color)
                ),
            ));
        }
        let (side, file) = match c.to_ascii_lowercase() {
            'k' | 'q' => {
                let side = if c.eq_ignore_ascii_case(&'k') {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                let file = outermost_rook(pos, color, side).ok_or_else(|| {
                    error(
                        FenField::Castling,
                        format!(
                            "'{c}': no {} rook on the {} side of the king",
                            color_name(color),
                            side_name(side)
                        ),
                    )
                })?;
                (side, file)
            }
            'a'..='h' => {
                let file = File::from_char(c)
                    .ok_or_else(|| error(FenField::Castling, format!("'{c}'")))?;
                let rook_here = pos.piece_at(Square::new(file, rank))
                    == Some(Piece::new(color, PieceType::Rook));
                if !rook_here {
                    return Err(error(
                        FenField::Castling,
                        format!(
                            "'{c}': no {} rook on {}",
                            color_name(color),
                            Square::new(file, rank)
                        ),
                    ));
                }
                if file == king.file() {
                    return Err(error(
                        FenField::Castling,
                        format!("'{c}': the rook can't share the king's file"),
                    ));
                }
                let side = if file > king.file() {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                (side, file)
            }
            _ => {
                return Err(error(
                    FenField::Castling,
                    format!("'{c}' is not one of K, Q, k, q, A-H, a-h or '-'"),
                ));
            }
        };
        if mode == CastlingMode::Standard {
            let corner = match side {
                CastleSide::King => File::H,
                CastleSide::Queen => File::A,
            };
            if king.file() != File::E || file != corner {
                return Err(error(
                    FenField::Castling,
                    format!(
                        "'{c}': standard chess needs the king on e{} and the rook on {}{} (set UCI_Chess960 for Chess960)",
                        rank.to_char(),
                        corner.to_char(),
                        rank.to_char()
                    ),
                ));
            }
        }
        if pos.castling.has(color, side) {
            return Err(error(
                FenField::Castling,
                format!(
                    "'{c}': {} has two {} castling rights",
                    color_name(color),
                    side_name(side)
                ),
            ));
        }
        pos.castling.set(color, side, Some(file));
    }
    Ok(())
}

fn side_name(side: CastleSide) -> &'static str {
    match side {
        CastleSide::King => "king",
        CastleSide::Queen => "queen",
    }
}

fn parse_en_passant(pos: &mut Position, text: &str) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    let sq = Square::parse(text).ok_or_else(|| {
        error(
            FenField::EnPassant,
            format!("'{text}' is neither a square nor '-'"),
        )
    })?;
    let us = pos.side;
    let them = !us;
    // The square the opponent's pawn skipped: rank 6 with White to move, rank 3 with Black.
    let (expected, pawn_rank, start_rank) = match us {
        Color::White => (Rank::R6, Rank::R5, Rank::R7),
        Color::Black => (Rank::R3, Rank::R4, Rank::R2),
    };
    if sq.rank() != expected {
        return Err(error(
            FenField::EnPassant,
            format!(
                "{sq} is not on rank {} ({} to move)",
                expected.to_char(),
                color_name(us)
            ),
        ));
    }
    let pawn = Square::new(sq.file(), pawn_rank);
    let start = Square::new(sq.file(), start_rank);
    if pos.piece_at(pawn) != Some(Piece::new(them, PieceType::Pawn)) {
        return Err(error(
            FenField::EnPassant,
            format!(
                "{sq}: no {} pawn on {pawn} that could just have moved two squares",
                color_name(them)
            ),
        ));
    }
    if pos.piece_at(sq).is_some() || pos.piece_at(start).is_some() {
        return Err(error(
            FenField::EnPassant,
            format!("{sq}: the pawn could not have just passed it ({sq} or {start} is occupied)"),
        ));
    }
    // Recorded only if a capture there is legal, so that equal positions get equal hashes.
    pos.en_passant = pos.legal_en_passant_target(sq);
    if let Some(ep) = pos.en_passant {
        pos.hash ^= zobrist::en_passant(ep.file());
    }
    Ok(())
}

/// One line of an EPD file: a position and its operations (`bm Nf3; id "test 1";`).
///
/// Also reads the common variant that has a full six-field FEN before the operations, as perft
/// suites do (`... w KQkq - 0 1 ;D1 20 ;D2 400`).
#[derive(Clone, Debug)]
pub struct Epd {
    pub position: Position,
    /// (opcode, operand) pairs in file order, with the operand's quotes removed.
    pub operations: Vec<(String, String)>,
}

impl Epd {
    pub fn parse(line: &str, mode: CastlingMode) -> Result<Epd, FenError> {
        let line = line.trim();
        // The position is the first four fields; up to two numeric fields after them are clocks.
        let mut rest = line;
        let mut fields = Vec::with_capacity(6);
        while fields.len() < 6 {
            let trimmed = rest.trim_start();
            let end = trimmed
                .find(|c: char| c.is_ascii_whitespace() || c == ';')
                .unwrap_or(trimmed.len());
            let word = &trimmed[..end];
            let is_clock = !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit());
            if word.is_empty() || (fields.len() >= 4 && !is_clock) {
                break;
            }
            fields.push(word);
            rest = &trimmed[end..];
        }
        if fields.len() < 4 {
            return Err(error(
                FenField::Whole,
                format!(
                    "an EPD line needs 4 fields before its operations, found {}",
                    fields.len()
                ),
            ));
        }
        let operations = parse_operations(rest);
        let find = |op: &str| {
            operations
                .iter()
                .find(|(o, _)| o == op)
                .map(|(_, v)| v.as_str())
        };
        let halfmove = fields.get(4).copied().or(find("hmvc")).unwrap_or("0");
        let fullmove = fields.get(5).copied().or(find("fmvn")).unwrap_or("1");
        let position = Position::from_fields(
            [
                fields[0], fields[1], fields[2], fields[3], halfmove, fullmove,
            ],
            mode,
        )?;
        Ok(Epd {
            position,
            operations,
        })
    }

    /// The operand of the first operation with this opcode.
    pub fn operation(&self, opcode: &str) -> Option<&str> {
        self.operations
            .iter()
            .find(|(op, _)| op == opcode)
            .map(|(_, operand)| operand.as_str())
    }
}

/// Splits `op1 a b; op2 "x; y";` into opcode/operand pairs, keeping semicolons inside quotes.
fn parse_operations(text: &str) -> Vec<(String, String)> {
    let mut operations = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut flush = |current: &mut String| {
        let op = current.trim();
        if !op.is_empty() {
            let (opcode, operand) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
            let operand = operand.trim();
            let operand = operand
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .unwrap_or(operand);
            operations.push((opcode.to_string(), operand.to_string()));
        }
        current.clear();
    };
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            ';' if !quoted => flush(&mut current),
            _ => current.push(c),
        }
    }
    flush(&mut current);
    operations
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_of(fen: &str) -> FenField {
        Position::from_fen(fen).expect_err(fen).field
    }

    #[test]
    fn start_position_round_trips() {
        let pos = Position::startpos();
        assert_eq!(pos.to_fen(), STARTPOS);
        assert_eq!(pos.hash(), pos.hash_from_scratch());
    }

    #[test]
    fn each_bad_field_is_named() {
        use FenField::*;
        let cases = [
            ("", Whole),
            ("8/8/8/8/8/8/8/8 w - - 0 1 extra", Whole),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", Placement),
            (
                "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                Placement,
            ),
            (
                "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                Placement,
            ),
            (
                "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                Placement,
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                Placement,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1",
                Placement,
            ),
            (
                "rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
                Placement,
            ),
            (
                "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
                Placement,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                SideToMove,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
                Castling,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
                Castling,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1",
                Castling,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                EnPassant,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
                EnPassant,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
                EnPassant,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                HalfmoveClock,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
                HalfmoveClock,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one",
                FullmoveNumber,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999",
                FullmoveNumber,
            ),
            // Black, not to move, is in check from the rook.
            ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", Whole),
            // Found by a fuzzer: three checkers, a run of empty squares spelt "44", 17 pieces
            // and 9 pawns a side, a halfmove clock past 16 bits.
            ("4k3/8/8/8/8/8/4r3/rrrrKrrr w - - 0 1", Whole),
            ("4k3/8/44/8/8/8/8/4K3 w - - 0 1", Placement),
            ("4k3/8/8/8/8/PPPPPPPP/PPPPPPPP/NK6 w - - 0 1", Placement),
            ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", Placement),
            ("4k3/8/8/8/8/8/8/4K2R w - - 65536 1", HalfmoveClock),
            // More promoted pieces than missing pawns: 15 queens (241 legal moves), and eight
            // pawns beside a third knight.
            ("QQQQQQQQ/QQQQQQQ1/8/8/8/8/8/k6K w - - 0 1", Placement),
            ("4k3/8/8/8/8/8/PPPPPPPP/NNNQKBNR w - - 0 1", Placement),
        ];
        for (fen, field) in cases {
            assert_eq!(field_of(fen), field, "{fen}");
        }
    }

    #[test]
    fn error_messages_say_why() {
        let e = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad FEN: piece placement: white has 2 kings, not one"
        );
        let e = Position::from_fen("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1").unwrap_err();
        assert!(e.to_string().contains("black) is in check"), "{e}");
        let e = Position::from_fen("4k3/8/8/8/8/8/PPPPP3/RQQQKQQR w - - 0 1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad FEN: piece placement: white has 5 pawns and 4 promoted pieces (the queens, rooks, \
             bishops and knights beyond 1, 2, 2 and 2): at most 8 together"
        );
    }

    #[test]
    fn promoted_pieces_are_accepted_where_pawns_are_missing() {
        // Petrovic's position: nine queens, the most legal moves a position can have (218).
        let pos =
            Position::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
        assert_eq!(pos.legal_moves().len(), 218);
        // Three knights and seven pawns; four rooks and six pawns.
        for fen in [
            "4k3/8/8/8/8/8/PPPPPPP1/NNNQKB1R w - - 0 1",
            "4k3/8/8/8/8/8/PPPPPP2/RNRQKRNR w - - 0 1",
        ] {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
    }

    #[test]
    fn the_counters_neither_wrap_nor_lose_count() {
        // The highest halfmove clock a FEN may give goes on counting after it.
        let mut pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 65535 1").unwrap();
        pos.make_move(pos.parse_uci_move("h1h2").unwrap());
        assert_eq!(pos.halfmove_clock(), 65_536);
        assert!(pos.to_fen().ends_with(" b - - 65536 1"), "{}", pos.to_fen());
        // 5,600 plies from move 30,000 reach move 32,800.
        let mut pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 30000").unwrap();
        for _ in 0..1400 {
            for mv in ["h1h2", "e8d8", "h2h1", "d8e8"] {
                pos.make_move(pos.parse_uci_move(mv).unwrap());
            }
        }
        assert_eq!(pos.fullmove_number(), 32_800);
        assert!(
            pos.to_fen().ends_with(" w - - 5600 32800"),
            "{}",
            pos.to_fen()
        );
    }

    #[test]
    fn en_passant_square_only_when_a_capture_is_legal() {
        // After 1. e4 no black pawn can take on e3: the square is dropped.
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .unwrap();
        assert_eq!(pos.en_passant(), None);
        // A black pawn on d4 can take.
        let pos = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
        assert_eq!(pos.en_passant(), Square::parse("e3"));
        // ... unless the capture would expose its king along the rank.
        let pos = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1").unwrap();
        assert_eq!(pos.en_passant(), None);
    }

    #[test]
    fn clocks_are_optional_and_zero_fullmove_reads_as_one() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - -").unwrap();
        assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (0, 1));
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 5 0").unwrap();
        assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 5 1");
    }

    #[test]
    fn chess960_castling_notations() {
        // Shredder-FEN and X-FEN for the same rights.
        let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let xfen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9";
        let a = Position::from_fen_with(shredder, CastlingMode::Chess960).unwrap();
        let b = Position::from_fen_with(xfen, CastlingMode::Chess960).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_fen(), xfen);
        // Standard chess refuses rights with the king on g1.
        assert_eq!(
            Position::from_fen(shredder).unwrap_err().field,
            FenField::Castling
        );
        // An inner rook is named by its file.
        let inner = "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1";
        let pos = Position::from_fen_with(inner, CastlingMode::Chess960).unwrap();
        assert_eq!(pos.to_fen(), inner);
    }

    #[test]
    fn epd_operations() {
        let epd = Epd::parse(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"test; 1\";",
            CastlingMode::Standard,
        )
        .unwrap();
        assert_eq!(epd.operation("bm"), Some("Bb5"));
        assert_eq!(epd.operation("id"), Some("test; 1"));
        let perft = Epd::parse(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400",
            CastlingMode::Standard,
        )
        .unwrap();
        assert_eq!(perft.operation("D2"), Some("400"));
        assert_eq!(perft.position, Position::startpos());
    }
}
