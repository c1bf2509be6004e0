//! Syzygy endgame tablebases: the exact result of every position with few enough pieces.
//!
//! Two kinds of file per material balance: `.rtbw` (win, draw or loss, with the fifty-move rule's
//! cursed wins and blessed losses) and `.rtbz` (the distance to the next capture or pawn move,
//! "zeroing", on the way to that result). The search asks the first kind inside the tree and the
//! second at the root.
//!
//! The files are read by the `shakmaty-syzygy` crate. The other well-known prober for Rust
//! engines, `pyrrhic-rs` (a transliteration of the C prober Fathom/Pyrrhic), works on cb2026's
//! own bitboards and attack functions, but it reads through raw pointers: given a table with a
//! few damaged bytes it crashed the process (a segmentation fault, tried here on the 3-4 piece
//! set with 50 random bytes changed per file), and it allows one set of tables per process.
//! shakmaty-syzygy is safe Rust: a damaged or cut-short file is an error for the probe that
//! meets it, and the engine goes on. The price is a conversion of each probed position into
//! shakmaty's type: a few bitboard copies, no allocation.

use chess::{Color, Move, PieceType, Position};
use shakmaty::{
    Bitboard as SBitboard, Board, ByColor, ByRole, CastlingMode, Chess, FromSetup, Setup,
};
use shakmaty_syzygy::{MaybeRounded, Tablebase, Wdl as SWdl};
use std::path::Path;
use std::sync::Arc;

/// A tablebase result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    /// A loss that the fifty-move rule turns into a draw.
    BlessedLoss,
    Draw,
    /// A win that the fifty-move rule turns into a draw.
    CursedWin,
    Win,
}

impl Wdl {
    fn from_syzygy(w: SWdl) -> Wdl {
        match w {
            SWdl::Loss => Wdl::Loss,
            SWdl::BlessedLoss => Wdl::BlessedLoss,
            SWdl::Draw => Wdl::Draw,
            SWdl::CursedWin => Wdl::CursedWin,
            SWdl::Win => Wdl::Win,
        }
    }

    /// The same result for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// The separator of folders in `SyzygyPath`, as the operating system writes path lists.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// The tables found in the folders of a `SyzygyPath`.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    files: usize,
}

/// What loading found: the tables, and a line for each folder or file that could not be used.
pub struct Loaded {
    pub tablebases: Tablebases,
    pub problems: Vec<String>,
}

/// A set of tables to add files to, reading them through memory maps.
#[cfg(not(target_arch = "wasm32"))]
fn empty_tables() -> Result<Tablebase<Chess>, String> {
    // SAFETY: the tables are memory-mapped, as every engine reads them: a probe then costs
    // no system call (through `read` calls, each probe took about 50 µs here and the search's
    // speed halved with the tables on; see the book's chapter 19). The contract is that a
    // file is not changed or cut short while the engine has it open, which holds for a
    // tablebase folder in use. A file damaged or short *before* it is opened is no danger:
    // the map covers what is there, and every read of it is bounds-checked.
    Ok(unsafe { Tablebase::with_mmap_filesystem() })
}

/// The browser build has no file system to read tables from (nor memory maps).
#[cfg(target_arch = "wasm32")]
fn empty_tables() -> Result<Tablebase<Chess>, String> {
    Err("tablebases cannot be read in the browser build (it has no file system)".into())
}

impl Tablebases {
    /// Reads every `.rtbw` and `.rtbz` file in the folders of `paths` (separated by
    /// [`PATH_SEPARATOR`]). A folder that does not exist or a file the prober refuses is
    /// reported and skipped; only finding no table at all is an error.
    pub fn open(paths: &str) -> Result<Loaded, String> {
        let mut tables = empty_tables()?;
        let mut files = 0;
        let mut problems = Vec::new();
        for folder in paths
            .split(PATH_SEPARATOR)
            .map(str::trim)
            .filter(|f| !f.is_empty())
        {
            let entries = match std::fs::read_dir(folder) {
                Ok(entries) => entries,
                Err(e) => {
                    problems.push(format!("{folder}: {e}"));
                    continue;
                }
            };
            let mut names: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            names.sort();
            for path in names {
                let is_table = path
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| e == "rtbw" || e == "rtbz");
                if !is_table || !path.is_file() {
                    continue;
                }
                match tables.add_file(&path) {
                    Ok(()) => files += 1,
                    Err(e) => problems.push(format!("{}: {e}", display(&path))),
                }
            }
        }
        if files == 0 {
            let why = if problems.is_empty() {
                String::new()
            } else {
                format!(" ({})", problems.join("; "))
            };
            return Err(format!("no tablebase files found in '{paths}'{why}"));
        }
        Ok(Loaded {
            tablebases: Tablebases { tables, files },
            problems,
        })
    }

    /// The number of table files read.
    pub fn files(&self) -> usize {
        self.files
    }

    /// The most pieces (kings included) of any table.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// Whether a position is in range of the tables: few enough pieces and no castling right
    /// (the tables know none).
    pub fn covers(&self, pos: &Position) -> bool {
        pos.occupied().count() <= self.max_pieces() && !pos.castling_rights().any()
    }

    /// The result for the side to move of a position reached by a capture or a pawn move (its
    /// halfmove clock is 0), which is what the win/draw/loss tables answer exactly. `None` when
    /// the tables do not cover it or a table could not be read.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        if !self.covers(pos) {
            return None;
        }
        let chess = to_shakmaty(pos)?;
        self.tables
            .probe_wdl_after_zeroing(&chess)
            .ok()
            .map(Wdl::from_syzygy)
    }

    /// The distance to zeroing, in plies, for the side to move: positive when it wins, negative
    /// when it loses, 0 for a draw; beyond ±100 for a win or loss the fifty-move rule spoils.
    /// The tables may round it up by one ply.
    pub fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        if !self.covers(pos) {
            return None;
        }
        let chess = to_shakmaty(pos)?;
        match self.tables.probe_dtz(&chess).ok()? {
            MaybeRounded::Precise(d) | MaybeRounded::Rounded(d) => Some(d.0),
        }
    }

    /// The root moves that keep the best result the tables allow, with that result: a win is
    /// never given up, a loss never walked into while a draw exists, and under the fifty-move
    /// rule (`fifty_move_rule`) a win that the clock would spoil counts as a draw. Among winning
    /// moves only those that reach the next zeroing move soonest are kept (so the win makes
    /// progress); among losing moves those that put it off longest. `None` when the tables do
    /// not cover the position or a probe fails.
    pub fn root_moves(&self, pos: &Position, fifty_move_rule: bool) -> Option<(Wdl, Vec<Move>)> {
        if !self.covers(pos) {
            return None;
        }
        let clock = pos.halfmove_clock() as i32;
        let mut ranked = Vec::new();
        // ANCHOR: root_rank
        for &mv in &pos.legal_moves() {
            let mut child = pos.clone();
            child.make_move(mv);
            // The distance from the root to the next zeroing move, from the root's view.
            let dtz = if !child.has_legal_moves() {
                if child.is_check() { 1 } else { 0 }
            } else if child.halfmove_clock() == 0 {
                match self.probe_wdl(&child)?.flip() {
                    Wdl::Win => 1,
                    Wdl::CursedWin => 101,
                    Wdl::Draw => 0,
                    Wdl::BlessedLoss => -101,
                    Wdl::Loss => -1,
                }
            } else {
                match self.probe_dtz(&child)? {
                    d if d < 0 => -d + 1,
                    d if d > 0 => -(d + 1),
                    _ => 0,
                }
            };
            let wdl = match dtz {
                d if d > 0 && (!fifty_move_rule || d + clock <= 99) => Wdl::Win,
                d if d > 0 => Wdl::CursedWin,
                d if d < 0 && (!fifty_move_rule || -d + clock <= 99) => Wdl::Loss,
                d if d < 0 => Wdl::BlessedLoss,
                _ => Wdl::Draw,
            };
            ranked.push((wdl, dtz, mv));
        }
        // ANCHOR_END: root_rank
        let best = ranked.iter().map(|&(w, _, _)| w).max()?;
        // Wins: the soonest zeroing move; losses: the latest (both the smallest signed dtz).
        let keep_dtz = match best {
            Wdl::Draw => None,
            _ => ranked.iter().filter(|r| r.0 == best).map(|r| r.1).min(),
        };
        let moves = ranked
            .into_iter()
            .filter(|&(w, d, _)| w == best && keep_dtz.is_none_or(|k| d == k))
            .map(|(_, _, mv)| mv)
            .collect();
        Some((best, moves))
    }
}

/// How the search uses the tables: the values of the Syzygy options.
#[derive(Clone)]
pub struct Probing {
    pub tables: Arc<Tablebases>,
    /// `SyzygyProbeDepth`: with as many pieces as the largest tables (or the limit) hold, probe
    /// only at this remaining depth or more; with fewer, always.
    pub depth: i32,
    /// `SyzygyProbeLimit`: probe no position with more pieces than this.
    pub limit: usize,
    /// `Syzygy50MoveRule`: a win the fifty-move rule spoils counts as a draw.
    pub fifty_move_rule: bool,
}

pub const DEFAULT_PROBE_DEPTH: i32 = 1;
pub const DEFAULT_PROBE_LIMIT: usize = 7;

impl Probing {
    /// The tables with the options' defaults.
    pub fn new(tables: Arc<Tablebases>) -> Probing {
        Probing {
            tables,
            depth: DEFAULT_PROBE_DEPTH,
            limit: DEFAULT_PROBE_LIMIT,
            fifty_move_rule: true,
        }
    }

    /// The most pieces of a position the search probes: the limit, or the largest tables.
    pub fn cardinality(&self) -> usize {
        self.limit.min(self.tables.max_pieces())
    }
}

impl std::fmt::Debug for Probing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Probing {{ {} files, up to {} pieces, depth {}, limit {}, fifty-move rule {} }}",
            self.tables.files(),
            self.tables.max_pieces(),
            self.depth,
            self.limit,
            self.fifty_move_rule
        )
    }
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

/// cb2026's position as shakmaty's, without castling rights (the tables have none) and with its
/// en-passant square, if a capture there is legal.
fn to_shakmaty(pos: &Position) -> Option<Chess> {
    let bb = |t: PieceType| SBitboard(pos.pieces_of_type(t).0);
    let by_role = ByRole {
        pawn: bb(PieceType::Pawn),
        knight: bb(PieceType::Knight),
        bishop: bb(PieceType::Bishop),
        rook: bb(PieceType::Rook),
        queen: bb(PieceType::Queen),
        king: bb(PieceType::King),
    };
    let by_color = ByColor {
        white: SBitboard(pos.pieces_of_color(Color::White).0),
        black: SBitboard(pos.pieces_of_color(Color::Black).0),
    };
    let board = Board::from_bitboards(by_role, by_color);
    let setup = Setup {
        board,
        promoted: SBitboard::EMPTY,
        pockets: None,
        turn: match pos.side_to_move() {
            Color::White => shakmaty::Color::White,
            Color::Black => shakmaty::Color::Black,
        },
        castling_rights: SBitboard::EMPTY,
        ep_square: pos
            .en_passant()
            .map(|s| shakmaty::Square::new(s.index() as u32)),
        remaining_checks: None,
        halfmoves: pos.halfmove_clock(),
        fullmoves: std::num::NonZeroU32::new(pos.fullmove_number().max(1))?,
    };
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .ok()
}
