//! One game between two engines: the moves, the clocks, the rules, adjudication, and faults.
//!
//! Every way a game can end is a value of [`Termination`]; an engine that misbehaves loses the
//! game and the record says how, so the match can go on.

use crate::adjudication::{Adjudication, Adjudicator, Verdict};
use crate::clock::{Clock, TimeControl, go_command};
use crate::engine::{Engine, EngineConfig, EngineError, Info, Score, parse_bestmove, parse_info};
use crate::schedule::GameJob;
use chess::{CastlingMode, Color, PieceType, Position, STARTPOS, repetitions};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant, SystemTime};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// Stopped by the match (Ctrl-C, SPRT decided) or impossible to start: not counted.
    Unfinished,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// The result a PGN result token stands for: the inverse of `pgn`, `None` for anything else.
    pub fn from_pgn(token: &str) -> Option<GameResult> {
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unfinished,
        ]
        .into_iter()
        .find(|r| r.pgn() == token)
    }

    fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The score of `color`: 1, 0.5 or 0 (and 0.5 for an unfinished game, which is not counted).
    pub fn score_for(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            (GameResult::WhiteWins, Color::Black) | (GameResult::BlackWins, Color::White) => 0.0,
            _ => 0.5,
        }
    }
}

/// Ways an engine can fail other than by playing badly or slowly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// Could not be started, or no `uciok`/`readyok` in time.
    Startup,
    /// Exited or closed its pipes.
    Crash,
    IllegalMove,
    /// No `bestmove` within its time plus the hang margin.
    Hang,
}

impl FaultKind {
    pub const ALL: [FaultKind; 4] = [
        FaultKind::Startup,
        FaultKind::Crash,
        FaultKind::IllegalMove,
        FaultKind::Hang,
    ];

    pub fn label(self) -> &'static str {
        match self {
            FaultKind::Startup => "startup failures",
            FaultKind::Crash => "crashes",
            FaultKind::IllegalMove => "illegal moves",
            FaultKind::Hang => "hangs",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    /// Adjudicated: both engines' scores agreed this side is lost.
    Resign(Color),
    AdjudicatedDraw,
    MaxMoves,
    /// This side's flag fell (a draw if the other side could not possibly mate).
    TimeForfeit(Color),
    Fault {
        side: Color,
        kind: FaultKind,
        detail: String,
    },
    Interrupted,
}

impl Termination {
    /// The value of the PGN `Termination` tag (PGN standard, section 9.8.1).
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            Termination::Resign(_) | Termination::AdjudicatedDraw | Termination::MaxMoves => {
                "adjudication"
            }
            Termination::TimeForfeit(_) => "time forfeit",
            Termination::Fault {
                kind: FaultKind::IllegalMove,
                ..
            } => "rules infraction",
            Termination::Fault { .. } => "abandoned",
            Termination::Interrupted => "unterminated",
            _ => "normal",
        }
    }

    /// A sentence for the PGN's final comment.
    pub fn describe(&self, result: GameResult) -> String {
        let name = |c: Color| if c == Color::White { "White" } else { "Black" };
        match self {
            Termination::Checkmate => match result {
                GameResult::WhiteWins => "White mates".to_string(),
                _ => "Black mates".to_string(),
            },
            Termination::Stalemate => "Draw by stalemate".to_string(),
            Termination::Repetition => "Draw by 3-fold repetition".to_string(),
            Termination::FiftyMoves => "Draw by fifty moves rule".to_string(),
            Termination::InsufficientMaterial => "Draw by insufficient mating material".to_string(),
            Termination::Resign(side) => format!("{} resigns (adjudication)", name(*side)),
            Termination::AdjudicatedDraw => "Draw by adjudication".to_string(),
            Termination::MaxMoves => "Draw by maximum game length".to_string(),
            Termination::TimeForfeit(side) if result == GameResult::Draw => format!(
                "{} loses on time, but {} cannot mate: draw",
                name(*side),
                name(!*side)
            ),
            Termination::TimeForfeit(side) => format!("{} loses on time", name(*side)),
            Termination::Fault { side, detail, .. } => format!("{} {detail}", name(*side)),
            Termination::Interrupted => "Game interrupted".to_string(),
        }
    }

    /// Reads back what [`pgn_tag`](Self::pgn_tag) and [`describe`](Self::describe) wrote: the
    /// `Termination` tag and the final comment (whitespace collapsed). `None` for text arena does
    /// not write. A fault's kind is told by its tag and the start of its detail.
    pub fn from_pgn(tag: &str, comment: &str) -> Option<Termination> {
        let side = |word: &str| match word {
            "White" => Some(Color::White),
            "Black" => Some(Color::Black),
            _ => None,
        };
        let (first, rest) = comment.split_once(' ').unwrap_or((comment, ""));
        let ending = match (tag, comment) {
            ("normal", "White mates" | "Black mates") => Termination::Checkmate,
            ("normal", "Draw by stalemate") => Termination::Stalemate,
            ("normal", "Draw by 3-fold repetition") => Termination::Repetition,
            ("normal", "Draw by fifty moves rule") => Termination::FiftyMoves,
            ("normal", "Draw by insufficient mating material") => Termination::InsufficientMaterial,
            ("adjudication", "Draw by adjudication") => Termination::AdjudicatedDraw,
            ("adjudication", "Draw by maximum game length") => Termination::MaxMoves,
            ("adjudication", _) if rest == "resigns (adjudication)" => {
                Termination::Resign(side(first)?)
            }
            ("time forfeit", _) if rest.starts_with("loses on time") => {
                Termination::TimeForfeit(side(first)?)
            }
            ("rules infraction" | "abandoned", _) => {
                let kind = if tag == "rules infraction" {
                    FaultKind::IllegalMove
                } else if rest.starts_with("hangs") {
                    FaultKind::Hang
                } else if rest.starts_with("fails to start") {
                    FaultKind::Startup
                } else {
                    FaultKind::Crash
                };
                Termination::Fault {
                    side: side(first)?,
                    kind,
                    detail: rest.to_string(),
                }
            }
            _ => return None,
        };
        Some(ending)
    }
}

/// A game's starting point: a position and, from a PGN book, the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub fen: String,
    /// In UCI notation.
    pub moves: Vec<String>,
}

/// A move an engine played, with what arena saw of it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    pub san: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    /// From `go` sent to `bestmove` read.
    pub time: Duration,
    /// The mover's clock after the move, for clock controls.
    pub clock: Option<Duration>,
}

/// Arena's own time per move: from reading one engine's `bestmove` to having sent the next `go`.
/// It covers checking the move, the rules, adjudication, the record and writing the command.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overhead {
    pub total: Duration,
    pub moves: u64,
    pub max: Duration,
}

impl Overhead {
    fn add(&mut self, d: Duration) {
        self.total += d;
        self.moves += 1;
        self.max = self.max.max(d);
    }

    pub fn merge(&mut self, other: &Overhead) {
        self.total += other.total;
        self.moves += other.moves;
        self.max = self.max.max(other.max);
    }
}

/// Everything about a finished game that the PGN and the results need.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub job: GameJob,
    /// White's and Black's names.
    pub names: [String; 2],
    pub time_controls: [TimeControl; 2],
    pub start_fen: String,
    pub chess960: bool,
    /// The opening's moves, in SAN.
    pub book: Vec<String>,
    pub moves: Vec<PlayedMove>,
    pub result: GameResult,
    pub termination: Termination,
    pub date: SystemTime,
    pub overhead: Overhead,
}

impl GameRecord {
    pub fn new(job: GameJob, sides: [&EngineConfig; 2], opening: &Opening, chess960: bool) -> Self {
        GameRecord {
            job,
            names: sides.map(|c| c.name.clone()),
            time_controls: sides.map(|c| c.tc),
            start_fen: opening.fen.clone(),
            chess960,
            book: Vec::new(),
            moves: Vec::new(),
            result: GameResult::Unfinished,
            termination: Termination::Interrupted,
            date: SystemTime::now(),
            overhead: Overhead::default(),
        }
    }

    fn end(mut self, result: GameResult, termination: Termination) -> Self {
        self.result = result;
        self.termination = termination;
        self
    }

    /// The game is lost by `side` for a fault.
    pub fn lost_by_fault(self, side: Color, kind: FaultKind, detail: String) -> Self {
        self.end(
            GameResult::win_for(!side),
            Termination::Fault { side, kind, detail },
        )
    }

    /// The game after talking to `side`'s engine failed: lost by it (a timeout being the fault
    /// `on_timeout`), or unfinished if the match is stopping.
    pub fn engine_failed(
        self,
        side: Color,
        error: EngineError,
        on_timeout: (FaultKind, String),
    ) -> Self {
        match error {
            EngineError::Stopped => self.end(GameResult::Unfinished, Termination::Interrupted),
            EngineError::Closed => self.lost_by_fault(
                side,
                FaultKind::Crash,
                "disconnects (the engine exited or closed its pipes)".to_string(),
            ),
            EngineError::Spawn(message) => self.lost_by_fault(
                side,
                FaultKind::Startup,
                format!("fails to start: {message}"),
            ),
            EngineError::Timeout => self.lost_by_fault(side, on_timeout.0, on_timeout.1),
        }
    }

    /// The side at fault, if the game ended by a fault.
    pub fn faulty_side(&self) -> Option<(Color, FaultKind)> {
        match &self.termination {
            Termination::Fault { side, kind, .. } => Some((*side, *kind)),
            _ => None,
        }
    }
}

/// Margins and timeouts, the same for every game of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// A move may arrive this late after the flag and still count.
    pub time_margin: Duration,
    /// No `bestmove` this long after the flag (plus the time margin) is a hang.
    pub hang_margin: Duration,
    /// The longest a move may take when no clock bounds it (fixed nodes or depth).
    pub hang_timeout: Duration,
    /// For the handshake and each `isready`.
    pub startup_timeout: Duration,
}

/// What every game of a match shares.
pub struct GameSettings<'a> {
    pub adjudication: Adjudication,
    pub limits: Limits,
    pub chess960: bool,
    pub stop: &'a AtomicBool,
}

// ANCHOR: rules
/// The game's end by the rules, before the side to move is asked for a move.
fn end_by_rules(pos: &Position, history: &[u64]) -> Option<(GameResult, Termination)> {
    if !pos.has_legal_moves() {
        return Some(if pos.is_check() {
            (
                GameResult::win_for(!pos.side_to_move()),
                Termination::Checkmate,
            )
        } else {
            (GameResult::Draw, Termination::Stalemate)
        });
    }
    let draw = if pos.is_fifty_move_draw() {
        Termination::FiftyMoves
    } else if pos.has_insufficient_material() {
        Termination::InsufficientMaterial
    } else if repetitions(history, pos.hash(), pos.halfmove_clock()) >= 2 {
        Termination::Repetition
    } else {
        return None;
    };
    Some((GameResult::Draw, draw))
}

/// Whether `color` has enough material to mate with the help of the other side's pieces. A
/// flag against a bare king, or a lone minor piece against a bare king, is a draw (FIDE 6.9).
fn could_mate(pos: &Position, color: Color) -> bool {
    let own = pos.pieces_of_color(color).without(pos.king_square(color));
    let minors = pos.pieces(PieceType::Knight, color) | pos.pieces(PieceType::Bishop, color);
    let opponent_bare = pos.pieces_of_color(!color).popcount() == 1;
    !(own.is_empty() || (own == minors && own.popcount() == 1 && opponent_bare))
}
// ANCHOR_END: rules

/// Plays one game from `opening`; `sides` are White's and Black's engines, ready for a new game.
pub fn play(
    job: GameJob,
    opening: &Opening,
    mut sides: [(&mut Engine, &EngineConfig); 2],
    settings: &GameSettings,
) -> GameRecord {
    let mut record = GameRecord::new(job, [sides[0].1, sides[1].1], opening, settings.chess960);
    let mode = if settings.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let Ok(mut pos) = Position::from_fen_with(&opening.fen, mode) else {
        return record; // Openings are checked when loaded; this cannot happen.
    };
    // The `position` command grows by one move per ply instead of being rebuilt.
    let mut command = if opening.fen == STARTPOS && !settings.chess960 {
        String::from("position startpos moves")
    } else {
        format!("position fen {} moves", opening.fen)
    };
    let mut history = Vec::with_capacity(256);
    for uci in &opening.moves {
        let Ok(mv) = pos.parse_uci_move(uci) else {
            return record;
        };
        record.book.push(pos.san(mv));
        command.push(' ');
        command.push_str(&mv.to_uci(settings.chess960));
        history.push(pos.hash());
        pos.make_move(mv);
    }
    let mut clocks = [Clock::new(sides[0].1.tc), Clock::new(sides[1].1.tc)];
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    let limits = settings.limits;
    let mut last_read: Option<Instant> = None;

    // ANCHOR: move_loop
    loop {
        if let Some((result, termination)) = end_by_rules(&pos, &history) {
            return record.end(result, termination);
        }
        let max_plies = settings.adjudication.max_moves.map(|m| 2 * m as usize);
        if max_plies.is_some_and(|max| record.moves.len() >= max) {
            return record.end(GameResult::Draw, Termination::MaxMoves);
        }
        let side = pos.side_to_move();
        let (engine, _) = &mut sides[side.index()];
        let go = go_command(&clocks, side);
        let allowance = clocks[side.index()].allowance();
        let started = Instant::now();
        if let Err(e) = engine.send(&command).and_then(|()| engine.send(&go)) {
            return record.engine_failed(side, e, (FaultKind::Crash, String::new()));
        }
        if let Some(read) = last_read {
            record.overhead.add(read.elapsed());
        }
        let hang_deadline = started
            + allowance.map_or(limits.hang_timeout, |a| {
                a + limits.time_margin + limits.hang_margin
            });
        let mut info = Info::default();
        let mut best = String::new();
        let read = engine.read_until(hang_deadline, settings.stop, |line| {
            if let Some(bestmove) = parse_bestmove(line) {
                best = bestmove.to_string();
                return true;
            }
            match parse_info(line) {
                Some(i) if i.score.is_some() => info = i,
                _ => {}
            }
            false
        });
        let read = match read {
            Ok(at) => at,
            Err(e) => {
                let detail = match allowance {
                    Some(a) => format!(
                        "hangs: no bestmove within its {:.3}s + {}ms margin",
                        a.as_secs_f64(),
                        (limits.time_margin + limits.hang_margin).as_millis()
                    ),
                    None => format!(
                        "hangs: no bestmove within {}s",
                        limits.hang_timeout.as_secs_f64()
                    ),
                };
                engine.note(&detail);
                return record.engine_failed(side, e, (FaultKind::Hang, detail));
            }
        };
        last_read = Some(read);
        let elapsed = read.saturating_duration_since(started);
        if !clocks[side.index()].spend(elapsed, limits.time_margin) {
            let result = if could_mate(&pos, !side) {
                GameResult::win_for(!side)
            } else {
                GameResult::Draw
            };
            return record.end(result, Termination::TimeForfeit(side));
        }
        let mv = match pos.parse_uci_move(&best) {
            Ok(mv) => mv,
            Err(_) => {
                let shown: String = best.chars().take(20).collect();
                let detail = format!("makes an illegal move: {shown}");
                engine.note(&detail);
                return record.lost_by_fault(side, FaultKind::IllegalMove, detail);
            }
        };
        let move_number = pos.fullmove_number();
        record.moves.push(PlayedMove {
            san: pos.san(mv),
            score: info.score,
            depth: info.depth,
            time: elapsed,
            clock: clocks[side.index()].remaining(),
        });
        command.push(' ');
        command.push_str(&mv.to_uci(settings.chess960));
        history.push(pos.hash());
        pos.make_move(mv);
        let score = info.score.map(Score::centipawns);
        match adjudicator.update(side, score, move_number) {
            Some(Verdict::Resign(loser)) => {
                return record.end(GameResult::win_for(!loser), Termination::Resign(loser));
            }
            Some(Verdict::Draw) => {
                return record.end(GameResult::Draw, Termination::AdjudicatedDraw);
            }
            None => {}
        }
    }
    // ANCHOR_END: move_loop
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(fen: &str) -> Option<(GameResult, Termination)> {
        end_by_rules(&Position::from_fen(fen).unwrap(), &[])
    }

    #[test]
    fn terminations_read_back_from_pgn() {
        let fault = |side, kind, detail: &str| Termination::Fault {
            side,
            kind,
            detail: detail.to_string(),
        };
        let cases = [
            (Termination::Checkmate, GameResult::BlackWins),
            (Termination::Stalemate, GameResult::Draw),
            (Termination::Repetition, GameResult::Draw),
            (Termination::FiftyMoves, GameResult::Draw),
            (Termination::InsufficientMaterial, GameResult::Draw),
            (Termination::Resign(Color::White), GameResult::BlackWins),
            (Termination::AdjudicatedDraw, GameResult::Draw),
            (Termination::MaxMoves, GameResult::Draw),
            (
                Termination::TimeForfeit(Color::Black),
                GameResult::WhiteWins,
            ),
            (Termination::TimeForfeit(Color::White), GameResult::Draw),
            (
                fault(
                    Color::White,
                    FaultKind::IllegalMove,
                    "makes an illegal move: e2e5",
                ),
                GameResult::BlackWins,
            ),
            (
                fault(
                    Color::Black,
                    FaultKind::Hang,
                    "hangs: no bestmove within 60s",
                ),
                GameResult::WhiteWins,
            ),
            (
                fault(Color::Black, FaultKind::Startup, "fails to start: no uciok"),
                GameResult::WhiteWins,
            ),
            (
                fault(
                    Color::White,
                    FaultKind::Crash,
                    "disconnects (the engine exited)",
                ),
                GameResult::BlackWins,
            ),
        ];
        for (termination, result) in cases {
            let comment = termination.describe(result);
            assert_eq!(
                Termination::from_pgn(termination.pgn_tag(), &comment),
                Some(termination.clone()),
                "{comment}"
            );
        }
        assert_eq!(Termination::from_pgn("normal", "Game interrupted"), None);
        assert_eq!(
            Termination::from_pgn("adjudication", "Red resigns (adjudication)"),
            None
        );
        assert_eq!(
            Termination::from_pgn("normal", "White resigns (adjudication)"),
            None
        );
    }

    #[test]
    fn results_read_back() {
        for r in [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unfinished,
        ] {
            assert_eq!(GameResult::from_pgn(r.pgn()), Some(r));
        }
        assert_eq!(GameResult::from_pgn("1-1"), None);
        assert_eq!(GameResult::from_pgn(""), None);
    }

    #[test]
    fn rules_end_games() {
        assert_eq!(
            verdict("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),
            Some((GameResult::WhiteWins, Termination::Checkmate))
        );
        assert_eq!(
            verdict("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some((GameResult::Draw, Termination::Stalemate))
        );
        assert_eq!(
            verdict("4k3/8/8/8/8/8/8/4K2R w - - 100 80"),
            Some((GameResult::Draw, Termination::FiftyMoves))
        );
        assert_eq!(
            verdict("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"),
            Some((GameResult::Draw, Termination::InsufficientMaterial))
        );
        assert_eq!(verdict(STARTPOS), None);
    }

    #[test]
    fn flag_against_bare_king_is_a_draw() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4KN2 b - - 0 1").unwrap();
        assert!(!could_mate(&pos, Color::White));
        assert!(!could_mate(&pos, Color::Black));
        let pos = Position::from_fen("4k3/4p3/8/8/8/8/8/4KN2 b - - 0 1").unwrap();
        assert!(could_mate(&pos, Color::White)); // a knight can mate a king walled in by a pawn
        assert!(could_mate(&pos, Color::Black));
    }

    #[test]
    fn descriptions() {
        let fault = Termination::Fault {
            side: Color::Black,
            kind: FaultKind::IllegalMove,
            detail: "makes an illegal move: a1a1".to_string(),
        };
        assert_eq!(
            fault.describe(GameResult::WhiteWins),
            "Black makes an illegal move: a1a1"
        );
        assert_eq!(fault.pgn_tag(), "rules infraction");
        assert_eq!(
            Termination::TimeForfeit(Color::White).describe(GameResult::BlackWins),
            "White loses on time"
        );
    }
}
