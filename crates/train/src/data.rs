//! The training positions in memory, and reading them from `tune`'s two file formats.
//!
//! A position is kept in 32 bytes ([`Sample`]): the occupied squares, a 4-bit piece code for
//! each, the side to move, and the search's score and the game's result, both already turned to
//! the side to move's view. 20 million positions take 640 MB, and the network's inputs are
//! cheap to rebuild from it on every visit ([`Sample::inputs`]), cheaper than reading 64
//! precomputed indices from memory.
//!
//! Positions are held out for validation by game, so that the validation loss measures how
//! well the network does on games it has not seen rather than on the neighbours of positions it
//! trained on:
//!
//! - in a `.games` file the game boundaries are known, and game `g` of file `f` is held out when
//!   a hash of (seed, f, g) falls below the validation fraction. Games appended to the file later
//!   do not change the choice for earlier ones;
//! - a file of 32-byte records has no boundaries, but `datagen` writes each game's positions
//!   together and in order, so a record starts a new group when its fullmove number goes down
//!   or its result differs from the previous record's; groups (nearly always games) are held
//!   out the same way.

use chess::{Color, PieceType, Position};
use engine::eval::nnue::inputs::Layout;
use engine::score::is_mate;
use rayon::prelude::*;
use std::ops::Range;
use std::path::{Path, PathBuf};
use tune::format::{RECORD_SIZE, Record};
use tune::{files, games};

/// The most pieces a position has, so the most inputs one perspective has.
pub const MAX_PIECES: usize = 32;

/// One training position in 32 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Sample {
    /// Bit `i` set when square `i` (a1 = 0 .. h8 = 63) holds a piece.
    pub occupancy: u64,
    /// One code per occupied square in increasing square order, two per byte, low nibble first:
    /// `colour << 3 | kind` (colour 0 White, 1 Black; kind as [`PieceType`], 0 pawn .. 5 king).
    pub pieces: [u8; 16],
    /// 0 White, 1 Black.
    pub stm: u8,
    /// The game's result for the side to move: 0 lost, 1 drawn, 2 won.
    pub result: u8,
    /// The search's score in centipawns, from the side to move's view.
    pub score: i16,
    _pad: [u8; 4],
}

/// The two perspectives' active inputs of one position.
pub struct Inputs {
    /// The side to move's view.
    pub ours: [u16; MAX_PIECES],
    /// The opponent's view.
    pub theirs: [u16; MAX_PIECES],
    /// How many of each are used.
    pub len: usize,
}

impl Sample {
    /// A sample from its parts: `pieces` as (colour, kind, square), in any order.
    ///
    /// # Errors
    /// More than 32 pieces, or two on one square.
    pub fn new(
        pieces: &[(Color, PieceType, usize)],
        stm: Color,
        score: i16,
        result: u8,
    ) -> Result<Sample, String> {
        if pieces.len() > MAX_PIECES {
            return Err(format!("{} pieces (at most {MAX_PIECES})", pieces.len()));
        }
        let mut board = [None; 64];
        let mut occupancy = 0u64;
        for &(color, kind, sq) in pieces {
            if sq >= 64 || board[sq].is_some() {
                return Err(format!("square {sq} is off the board or taken twice"));
            }
            board[sq] = Some((color.index() as u8) << 3 | kind.index() as u8);
            occupancy |= 1 << sq;
        }
        let mut sample = Sample {
            occupancy,
            stm: stm.index() as u8,
            result: result.min(2),
            score,
            ..Sample::default()
        };
        for (i, code) in board.iter().flatten().enumerate() {
            sample.pieces[i / 2] |= code << (4 * (i % 2));
        }
        Ok(sample)
    }

    /// The sample of a position, with the score and result from White's view (result 0 Black
    /// won, 1 draw, 2 White won, as in `tune`'s files).
    pub fn from_position(pos: &Position, white_score: i16, white_result: u8) -> Sample {
        let mut pieces = Vec::with_capacity(MAX_PIECES);
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                pieces.push((p.color, p.piece_type, sq.index()));
            }
        }
        let stm = pos.side_to_move();
        // A legal position has at most 32 pieces on distinct squares.
        Sample::new(
            &pieces,
            stm,
            to_side(white_score, stm),
            result_for(white_result, stm),
        )
        .unwrap_or_default()
    }

    pub fn side_to_move(&self) -> Color {
        if self.stm == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Every piece as (colour, kind, square).
    pub fn pieces(&self) -> impl Iterator<Item = (Color, PieceType, usize)> + '_ {
        let mut bits = self.occupancy;
        let mut i = 0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let code = (self.pieces[i / 2] >> (4 * (i % 2))) & 15;
            i += 1;
            let color = if code & 8 == 0 {
                Color::White
            } else {
                Color::Black
            };
            // Codes are made by `new` and `decode_record`, which only write kinds 0..6.
            let kind = PieceType::ALL[(code & 7).min(5) as usize];
            Some((color, kind, sq))
        })
    }

    /// The network's inputs in `layout`, exactly as the engine computes them
    /// ([`engine::eval::nnue::inputs::View::index`]): the side to move's perspective first.
    #[inline(always)]
    pub fn inputs(&self, layout: &Layout) -> Inputs {
        let mut inputs = Inputs {
            ours: [0; MAX_PIECES],
            theirs: [0; MAX_PIECES],
            len: 0,
        };
        let us = self.side_to_move();
        let (mut ours, mut theirs) = (layout.view(us, 0), layout.view(!us, 0));
        // Where the kings stand matters only with king buckets or mirroring: the plain layout
        // skips the extra pass.
        if !layout.is_plain() {
            // The first king of each colour, in square order, as the engine takes it.
            let (mut found_ours, mut found_theirs) = (false, false);
            for (color, kind, sq) in self.pieces() {
                if kind == PieceType::King {
                    if color == us && !found_ours {
                        ours = layout.view(us, sq);
                        found_ours = true;
                    } else if color != us && !found_theirs {
                        theirs = layout.view(!us, sq);
                        found_theirs = true;
                    }
                }
            }
        }
        for (color, kind, sq) in self.pieces() {
            let n = inputs.len;
            if n == MAX_PIECES {
                break;
            }
            inputs.ours[n] = ours.index(color, kind, sq) as u16;
            inputs.theirs[n] = theirs.index(color, kind, sq) as u16;
            inputs.len += 1;
        }
        inputs
    }

    /// The game's result for the side to move as a score: 1 won, 0.5 drawn, 0 lost.
    pub fn wdl(&self) -> f32 {
        self.result as f32 / 2.0
    }
}

/// A score from White's view turned to `stm`'s.
fn to_side(white_score: i16, stm: Color) -> i16 {
    match stm {
        Color::White => white_score,
        Color::Black => (-(white_score as i32)).clamp(i16::MIN as i32, i16::MAX as i32) as i16,
    }
}

/// A result byte from White's view (0 Black won, 1 draw, 2 White won) turned to `stm`'s.
fn result_for(white_result: u8, stm: Color) -> u8 {
    match stm {
        Color::White => white_result.min(2),
        Color::Black => 2 - white_result.min(2),
    }
}

/// The training and validation positions.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub train: Vec<Sample>,
    pub validation: Vec<Sample>,
}

/// What was read from one file, for the checkpoint: a resumed run reads the same bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileUsed {
    pub path: PathBuf,
    /// How many bytes of the file were used (whole games or records only).
    pub bytes: u64,
    /// A hash of those bytes, to notice a file that was replaced rather than appended to.
    pub hash: u64,
}

/// A count of what one file gave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileStats {
    /// Games (`.games`) or groups of records.
    pub games: u64,
    pub validation_games: u64,
    /// Positions kept.
    pub positions: u64,
    pub validation_positions: u64,
    /// Positions left out (by `games::keep`, or mate scores in record files).
    pub skipped: u64,
}

/// Whether item `key` of a run seeded `seed` is held out.
fn held_out(seed: u64, file: usize, key: u64, fraction: f64) -> bool {
    let h = chess::rng::derive(seed ^ 0x7661_6c69_6461_7465, ((file as u64) << 40) ^ key);
    ((h >> 11) as f64 / (1u64 << 53) as f64) < fraction
}

/// A hash of a byte string, 8 bytes at a time.
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = bytes.len() as u64;
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    for w in words {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        h = chess::rng::mix(h ^ u64::from_le_bytes(word));
    }
    let mut last = [0u8; 8];
    last[..tail.len()].copy_from_slice(tail);
    chess::rng::mix(h ^ u64::from_le_bytes(last))
}

/// Where each complete game of a `.games` file lies, and the end of the last complete one.
pub fn split_games(bytes: &[u8]) -> (Vec<Range<usize>>, usize) {
    let mut games = Vec::new();
    let mut at = 0;
    let mut complete = 0;
    'games: while at + RECORD_SIZE <= bytes.len() {
        let start = at;
        at += RECORD_SIZE;
        while at + 4 <= bytes.len() {
            let word = &bytes[at..at + 4];
            at += 4;
            if word == [0; 4] {
                games.push(start..at);
                complete = at;
                continue 'games;
            }
        }
        break;
    }
    (games, complete)
}

/// Reads a `.games` file's first `limit` bytes (all its complete games when `None`): the kept
/// positions of each game, into `out`.
fn read_games(
    path: &Path,
    file: usize,
    limit: Option<u64>,
    seed: u64,
    fraction: f64,
    out: &mut Dataset,
) -> Result<(FileUsed, FileStats), String> {
    let bytes = read_prefix(path, limit)?;
    let (ranges, complete) = split_games(&bytes);
    if limit.is_some_and(|l| l != complete as u64) {
        return Err(format!(
            "{}: the first {} bytes do not end with a whole game",
            path.display(),
            bytes.len()
        ));
    }
    let bytes = &bytes[..complete];
    // Replaying a game checks every move, the slow part of reading: one game per task.
    let per_game: Vec<(Vec<Sample>, u64)> = ranges
        .par_iter()
        .enumerate()
        .map(|(g, range)| {
            let mut kept = Vec::with_capacity(128);
            let mut skipped = 0u64;
            let scan = games::scan(&bytes[range.clone()], |ply| {
                if games::keep(ply) {
                    kept.push(Sample::from_position(
                        ply.position,
                        ply.score,
                        ply.result as u8,
                    ));
                } else {
                    skipped += 1;
                }
            })
            .map_err(|e| {
                // The scan saw one game at offset 0: say where it is in the file instead.
                let what = e.split_once(": ").map_or(e.as_str(), |(_, w)| w);
                format!(
                    "{}: game {g} at byte {}: {what}",
                    path.display(),
                    range.start
                )
            })?;
            if scan.games != 1 {
                return Err(format!(
                    "{}: game {g} at byte {} does not read as one game",
                    path.display(),
                    range.start
                ));
            }
            Ok((kept, skipped))
        })
        .collect::<Result<_, String>>()?;
    let mut stats = FileStats::default();
    for (g, (kept, skipped)) in per_game.into_iter().enumerate() {
        stats.games += 1;
        stats.positions += kept.len() as u64;
        stats.skipped += skipped;
        if held_out(seed, file, g as u64, fraction) {
            stats.validation_games += 1;
            stats.validation_positions += kept.len() as u64;
            out.validation.extend_from_slice(&kept);
        } else {
            out.train.extend_from_slice(&kept);
        }
    }
    let used = FileUsed {
        path: path.to_path_buf(),
        bytes: complete as u64,
        hash: hash_bytes(bytes),
    };
    Ok((used, stats))
}

/// Decodes a 32-byte record (see `tune::format`) without building a position: the castling
/// rook and the en-passant pawn codes become a plain rook and pawn, and the score and result
/// are turned to the side to move's view.
///
/// # Errors
/// A record that cannot be a position: more than 32 pieces, not one king a side, a bad side
/// to move or result byte.
pub fn decode_record(r: &Record) -> Result<Sample, String> {
    let mut occ = [0u8; 8];
    occ.copy_from_slice(&r[0..8]);
    let occupancy = u64::from_le_bytes(occ);
    let n = occupancy.count_ones() as usize;
    if n > MAX_PIECES {
        return Err(format!("{n} pieces"));
    }
    let stm = match r[24] {
        0 => Color::White,
        1 => Color::Black,
        b => return Err(format!("side to move byte {b}")),
    };
    if r[30] > 2 {
        return Err(format!("result byte {}", r[30]));
    }
    let mut pieces = [0u8; 16];
    let mut kings = [0; 2];
    for i in 0..n {
        let code = (r[8 + i / 2] >> (4 * (i % 2))) & 15;
        let kind = match code & 7 {
            6 => PieceType::Rook as u8,
            7 => PieceType::Pawn as u8,
            k => k,
        };
        if kind == PieceType::King as u8 {
            kings[(code >> 3) as usize] += 1;
        }
        pieces[i / 2] |= (code & 8 | kind) << (4 * (i % 2));
    }
    if kings != [1, 1] {
        return Err(format!("{} white and {} black kings", kings[0], kings[1]));
    }
    Ok(Sample {
        occupancy,
        pieces,
        stm: stm.index() as u8,
        result: result_for(r[30], stm),
        score: to_side(i16::from_le_bytes([r[28], r[29]]), stm),
        _pad: [0; 4],
    })
}

/// Reads a file of 32-byte records (its first `limit` bytes, or every whole record).
fn read_records(
    path: &Path,
    file: usize,
    limit: Option<u64>,
    seed: u64,
    fraction: f64,
    out: &mut Dataset,
) -> Result<(FileUsed, FileStats), String> {
    let bytes = read_prefix(path, limit)?;
    let whole = bytes.len() / RECORD_SIZE * RECORD_SIZE;
    if limit.is_some_and(|l| l != whole as u64) {
        return Err(format!(
            "{}: {} bytes are not whole records",
            path.display(),
            bytes.len()
        ));
    }
    let bytes = &bytes[..whole];
    let mut stats = FileStats::default();
    let mut previous: Option<Record> = None;
    let mut group_out = false;
    for (i, r) in bytes.chunks_exact(RECORD_SIZE).enumerate() {
        let mut record = [0u8; RECORD_SIZE];
        record.copy_from_slice(r);
        let r = &record;
        let fullmove = |r: &Record| u16::from_le_bytes([r[26], r[27]]);
        let new_group = match previous {
            None => true,
            Some(p) => fullmove(r) < fullmove(&p) || r[30] != p[30],
        };
        previous = Some(record);
        if new_group {
            group_out = held_out(seed, file, stats.games, fraction);
            stats.games += 1;
            stats.validation_games += group_out as u64;
        }
        let sample = decode_record(r)
            .map_err(|e| format!("{}: record {i} is no position: {e}", path.display()))?;
        if is_mate(sample.score as i32) {
            stats.skipped += 1;
            continue;
        }
        stats.positions += 1;
        if group_out {
            stats.validation_positions += 1;
            out.validation.push(sample);
        } else {
            out.train.push(sample);
        }
    }
    let used = FileUsed {
        path: path.to_path_buf(),
        bytes: whole as u64,
        hash: hash_bytes(bytes),
    };
    Ok((used, stats))
}

/// The file, or its first `limit` bytes.
fn read_prefix(path: &Path, limit: Option<u64>) -> Result<Vec<u8>, String> {
    let mut bytes = files::read_regular_file(path, files::ANY_SIZE)?;
    if let Some(limit) = limit {
        if (bytes.len() as u64) < limit {
            return Err(format!(
                "{} has {} bytes, fewer than the {limit} the run started with",
                path.display(),
                bytes.len()
            ));
        }
        bytes.truncate(limit as usize);
    }
    Ok(bytes)
}

/// Whether a path is read as whole games (else as 32-byte records).
pub fn is_games_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "games")
}

/// Reads one file into `out`: a `.games` file with [`games::scan`] (the positions
/// [`games::keep`] keeps), any other as 32-byte records. `limit` is the number of bytes to use
/// (a resumed run's), `None` for every complete game or record.
pub fn read_file(
    path: &Path,
    file: usize,
    limit: Option<u64>,
    seed: u64,
    fraction: f64,
    out: &mut Dataset,
) -> Result<(FileUsed, FileStats), String> {
    if is_games_file(path) {
        read_games(path, file, limit, seed, fraction, out)
    } else {
        read_records(path, file, limit, seed, fraction, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::CastlingMode;
    use tune::format::{self, GameResult};

    #[test]
    fn a_sample_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Sample>(), 32);
        assert_eq!(std::mem::align_of::<Sample>(), 32);
    }

    /// Random game positions: the sample's inputs are the engine's (in the plain layout and with
    /// king buckets, mirrored or not), and a record decodes to the same sample as the position it
    /// came from.
    #[test]
    fn inputs_match_the_engine_and_records_decode_directly() {
        let mut rng = chess::rng::Rng::new(3);
        let mut checked = 0;
        for _ in 0..100 {
            let mut pos = Position::startpos();
            for _ in 0..100 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let score = rng.below(2000) as i32 - 1000;
                let sample = Sample::from_position(&pos, score as i16, 2);
                for layout in [
                    Layout::PLAIN,
                    Layout::named(4, true).unwrap(),
                    Layout::named(8, false).unwrap(),
                ] {
                    let mut white = Vec::new();
                    let mut black = Vec::new();
                    engine::eval::nnue::inputs::for_each_active(&pos, &layout, |w, b| {
                        white.push(w as u16);
                        black.push(b as u16);
                    });
                    let inputs = sample.inputs(&layout);
                    let (mut ours, mut theirs) = (
                        inputs.ours[..inputs.len].to_vec(),
                        inputs.theirs[..inputs.len].to_vec(),
                    );
                    if pos.side_to_move() == Color::Black {
                        std::mem::swap(&mut white, &mut black);
                    }
                    for v in [&mut white, &mut black, &mut ours, &mut theirs] {
                        v.sort();
                    }
                    assert_eq!((ours, theirs), (white, black), "{}", pos.to_fen());
                }
                let stm_score = score * pos.side_to_move().sign();
                assert_eq!(sample.score as i32, stm_score);
                let won = pos.side_to_move() == Color::White;
                assert_eq!(sample.result, if won { 2 } else { 0 });

                let record = format::encode(&pos, score, GameResult::WhiteWins).unwrap();
                assert_eq!(decode_record(&record).unwrap(), sample, "{}", pos.to_fen());
                checked += 1;
                pos.make_move(moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 5000);
        // Castling rights and en passant are codes 6 and 7 in a record.
        for fen in [
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ] {
            let pos = Position::from_fen_with(fen, CastlingMode::Standard).unwrap();
            let record = format::encode(&pos, 0, GameResult::Draw).unwrap();
            assert_eq!(
                decode_record(&record).unwrap(),
                Sample::from_position(&pos, 0, 1)
            );
        }
    }

    #[test]
    fn a_foreign_record_is_refused() {
        let mut r = [0u8; RECORD_SIZE];
        assert!(decode_record(&r).unwrap_err().contains("kings"));
        r[24] = 3;
        assert!(decode_record(&r).unwrap_err().contains("side to move"));
    }

    #[test]
    fn games_split_at_their_end_markers_and_a_torn_tail_is_left_out() {
        let pos = Position::startpos();
        let mut bytes = Vec::new();
        let e4 = pos.parse_uci_move("e2e4").unwrap();
        games::encode_game(&pos, GameResult::Draw, &[(e4, 30)], &mut bytes).unwrap();
        games::encode_game(&pos, GameResult::WhiteWins, &[], &mut bytes).unwrap();
        let whole = bytes.len();
        games::encode_game(&pos, GameResult::Draw, &[(e4, 30)], &mut bytes).unwrap();
        bytes.truncate(bytes.len() - 1);
        let (ranges, complete) = split_games(&bytes);
        assert_eq!(ranges, vec![0..40, 40..76]);
        assert_eq!(complete, whole);

        // Read back: the torn game is left out; a damaged move (h8-h8 is legal nowhere) is
        // reported where it is in the file.
        let path = std::env::temp_dir().join(format!("train-data-{}.games", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let mut data = Dataset::default();
        let (used, stats) = read_file(&path, 0, None, 1, 0.0, &mut data).unwrap();
        assert_eq!((used.bytes, stats.games, stats.positions), (76, 2, 1));
        assert_eq!(data.train.len(), 1);
        let mut damaged = bytes[..whole].to_vec();
        games::encode_game(&pos, GameResult::Draw, &[(e4, 30)], &mut damaged).unwrap();
        damaged[whole + 32..whole + 34].copy_from_slice(&0x0fffu16.to_le_bytes());
        std::fs::write(&path, &damaged).unwrap();
        let e = read_file(&path, 0, None, 1, 0.0, &mut data).unwrap_err();
        assert!(e.contains("game 2 at byte 76: move 0"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }
}
