//! Opening books: the positions games start from, read from an EPD or PGN file and put in an
//! order fixed by the seed.

use crate::game::Opening;
use crate::pgn;
use chess::rng::Rng;
use chess::{CastlingMode, Epd, Position, STARTPOS};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Epd,
    Pgn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Random,
    Sequential,
}

/// `--openings file=PATH format=epd|pgn order=random|sequential plies=N start=N`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsConfig {
    /// Without a file every game starts from the initial position.
    pub file: Option<PathBuf>,
    pub format: Format,
    pub order: Order,
    /// From a PGN book, at most this many plies of each game.
    pub plies: Option<usize>,
    /// The first opening to use (1-based, in file order or in the shuffled order).
    pub start: usize,
}

impl Default for OpeningsConfig {
    fn default() -> OpeningsConfig {
        OpeningsConfig {
            file: None,
            format: Format::Epd,
            order: Order::Random,
            plies: None,
            start: 1,
        }
    }
}

/// The openings of a match in the order they are played.
#[derive(Clone, Debug)]
pub struct Book {
    openings: Vec<Opening>,
    /// Lines of the file that were not usable openings.
    pub skipped: usize,
}

// ANCHOR: book
impl Book {
    pub fn load(config: &OpeningsConfig, mode: CastlingMode, seed: u64) -> Result<Book, String> {
        let Some(path) = &config.file else {
            let start = Opening {
                fen: STARTPOS.to_string(),
                moves: Vec::new(),
            };
            return Ok(Book {
                openings: vec![start],
                skipped: 0,
            });
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read openings from {}: {e}", path.display()))?;
        let (mut openings, skipped) = match config.format {
            Format::Epd => from_epd(&text, mode),
            Format::Pgn => from_pgn(&text, mode, config.plies),
        };
        if openings.is_empty() {
            return Err(format!("no usable opening in {}", path.display()));
        }
        if config.order == Order::Random {
            Rng::new(seed).shuffle(&mut openings);
        }
        let start = (config.start.max(1) - 1) % openings.len();
        openings.rotate_left(start);
        Ok(Book { openings, skipped })
    }

    /// The opening of round `round` (both games of a pair share it); the book wraps around.
    pub fn get(&self, round: u64) -> &Opening {
        &self.openings[(round % self.openings.len() as u64) as usize]
    }

    pub fn len(&self) -> usize {
        self.openings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }
}
// ANCHOR_END: book

/// A position can start a game if it is legal and not already over.
fn playable(pos: &Position) -> bool {
    pos.has_legal_moves() && !pos.is_fifty_move_draw() && !pos.has_insufficient_material()
}

fn from_epd(text: &str, mode: CastlingMode) -> (Vec<Opening>, usize) {
    let mut openings = Vec::new();
    let mut skipped = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match Epd::parse(line, mode) {
            Ok(epd) if playable(&epd.position) => openings.push(Opening {
                fen: epd.position.to_fen(),
                moves: Vec::new(),
            }),
            _ => skipped += 1,
        }
    }
    (openings, skipped)
}

fn from_pgn(text: &str, mode: CastlingMode, plies: Option<usize>) -> (Vec<Opening>, usize) {
    let mut openings = Vec::new();
    let mut skipped = 0;
    for game in pgn::parse(text) {
        let fen = game.tag("FEN").unwrap_or(STARTPOS);
        let Ok(mut pos) = Position::from_fen_with(fen, mode) else {
            skipped += 1;
            continue;
        };
        let fen = pos.to_fen();
        let mut moves = Vec::new();
        let mut ok = true;
        for san in game.moves.iter().take(plies.unwrap_or(usize::MAX)) {
            match pos.parse_san(san) {
                Ok(mv) => {
                    moves.push(mv.to_uci(mode == CastlingMode::Chess960));
                    pos.make_move(mv);
                }
                Err(_) => {
                    ok = false;
                    break;
                }
            }
        }
        if ok && playable(&pos) {
            openings.push(Opening { fen, moves });
        } else {
            skipped += 1;
        }
    }
    (openings, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("arena-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn epd_book_is_shuffled_by_seed_and_skips_bad_lines() {
        let path = write(
            "book.epd",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
             # a comment\n\
             not a fen\n\
             rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n\
             rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1 ;id \"x\";\n\
             R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1\n",
        );
        let config = OpeningsConfig {
            file: Some(path.clone()),
            ..OpeningsConfig::default()
        };
        let a = Book::load(&config, CastlingMode::Standard, 1).unwrap();
        let b = Book::load(&config, CastlingMode::Standard, 1).unwrap();
        assert_eq!(a.len(), 3);
        assert_eq!(a.skipped, 2); // the bad FEN and the mated position
        assert_eq!(
            (0..3).map(|i| a.get(i)).collect::<Vec<_>>(),
            (0..3).map(|i| b.get(i)).collect::<Vec<_>>()
        );
        assert_eq!(a.get(0), a.get(3));
        let sequential = OpeningsConfig {
            order: Order::Sequential,
            start: 2,
            ..config
        };
        let c = Book::load(&sequential, CastlingMode::Standard, 1).unwrap();
        assert!(c.get(0).fen.starts_with("rnbqkbnr/pppppppp/8/8/3P4"));
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn pgn_book_keeps_the_moves() {
        let path = write(
            "book.pgn",
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3 {main} (2. f4) Nc6 3. Bb5 a6 *\n\n\
             [Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 1-0\n",
        );
        let config = OpeningsConfig {
            file: Some(path.clone()),
            format: Format::Pgn,
            order: Order::Sequential,
            plies: Some(4),
            start: 1,
        };
        let book = Book::load(&config, CastlingMode::Standard, 0).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book.get(0).fen, STARTPOS);
        assert_eq!(book.get(0).moves, ["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(book.get(1).moves, ["e2e4", "e8d7"]);
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn no_file_means_the_start_position() {
        let book = Book::load(&OpeningsConfig::default(), CastlingMode::Standard, 0).unwrap();
        assert_eq!(book.len(), 1);
        assert_eq!(book.get(5).fen, STARTPOS);
    }
}
