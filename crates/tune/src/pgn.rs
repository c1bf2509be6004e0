//! `tune pgn`: games that a match runner played and wrote as PGN (fastchess, which OpenBench's
//! workers use, or cutechess) turned into the compact game format of [`crate::games`], so that
//! games played anywhere (an OpenBench DATAGEN workload, a gauntlet) train the network like our
//! own `tune datagen` games.
//!
//! What a game needs for that is each move's search score, which match runners write in the
//! comment after the move: `{+0.43/5 0.019s, n=2227, sd=8}` (fastchess with `nodes=true
//! seldepth=true`), `{+0.43/5}` (OpenBench's compact re-upload), `{-M7/12 ...}` (a mate in 7
//! plies), `{book}` (a move of the opening, not searched). The score is the engine's, from the
//! side that moved. A game is written with the position after its last book move as its start,
//! its result, and each searched move with its score turned to White's view; the reader of the
//! games format ([`crate::games::keep`]) then leaves out, as for our own data, positions in check,
//! with a capture or promotion as best move, or with a mate score.
//!
//! A game is refused (and counted by reason) when its result says nothing about its positions
//! (unfinished, lost on time, by a disconnect or an illegal move), when a move cannot be read or
//! is illegal, when a searched move has no score, or when it is longer than any real game. A file
//! that is not PGN at all (a line longer than [`MAX_LINE`], no game in it) is an error.

use crate::format::GameResult;
use crate::games;
use chess::{CastlingMode, Move, Position};
use engine::score::{mate_in, mated_in};
use std::io::BufRead;

/// The longest line read: far beyond any tag pair or movetext line a match runner writes.
pub const MAX_LINE: usize = 1 << 20;

/// The most moves a game may have: no real game comes near it, and it bounds a game's memory.
pub const MAX_GAME_PLIES: usize = 2048;

/// Why a game was not written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Refusal {
    /// `*`, or no result at all.
    Unfinished,
    /// Lost on time, abandoned (a disconnect or a stall), an illegal move, or stopped: the result
    /// is the runner's verdict on an engine, not on the position.
    Termination,
    /// The `FEN` tag is not a position.
    BadStart,
    /// A move that is not SAN, or not legal where it stands.
    BadMove,
    /// A searched move whose comment carries no score.
    NoScore,
    /// A `book` move after searched ones.
    BookAfterSearch,
    /// No searched move at all.
    Empty,
    /// More than [`MAX_GAME_PLIES`] moves.
    TooLong,
}

impl Refusal {
    pub const ALL: [Refusal; 8] = [
        Refusal::Unfinished,
        Refusal::Termination,
        Refusal::BadStart,
        Refusal::BadMove,
        Refusal::NoScore,
        Refusal::BookAfterSearch,
        Refusal::Empty,
        Refusal::TooLong,
    ];

    pub fn describe(self) -> &'static str {
        match self {
            Refusal::Unfinished => "unfinished (no result)",
            Refusal::Termination => "ended by time, disconnect, illegal move or interruption",
            Refusal::BadStart => "unreadable FEN tag",
            Refusal::BadMove => "unreadable or illegal move",
            Refusal::NoScore => "a searched move without a score",
            Refusal::BookAfterSearch => "a book move after searched moves",
            Refusal::Empty => "no searched move",
            Refusal::TooLong => "longer than the limit on moves",
        }
    }
}

/// What an import read, wrote and refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games found in the input.
    pub read: u64,
    /// Games written.
    pub written: u64,
    /// Games refused, indexed like [`Refusal::ALL`].
    pub refused: [u64; Refusal::ALL.len()],
    /// Positions of the written games (one per searched move).
    pub positions: u64,
    /// Those the network's trainer keeps ([`games::keep`]).
    pub kept: u64,
    /// Book moves skipped at the start of written games.
    pub book_moves: u64,
    /// Results of the written games: Black wins, draws, White wins.
    pub results: [u64; 3],
}

impl Tally {
    fn refuse(&mut self, why: Refusal) {
        self.refused[Refusal::ALL.iter().position(|&r| r == why).unwrap_or(0)] += 1;
    }

    /// One line per count, for the terminal.
    pub fn report(&self) -> String {
        let mut text = format!(
            "{} games read, {} written ({} positions, {} kept for training; {} book moves skipped; \
             results 1-0 {} / draw {} / 0-1 {})",
            self.read,
            self.written,
            self.positions,
            self.kept,
            self.book_moves,
            self.results[2],
            self.results[1],
            self.results[0],
        );
        for (why, &n) in Refusal::ALL.iter().zip(&self.refused) {
            if n > 0 {
                text.push_str(&format!("\n  refused, {}: {n}", why.describe()));
            }
        }
        text
    }
}

/// A score as a match runner writes it in a move's comment, from the moving side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Said {
    Book,
    /// Centipawns, or a mate score in the engine's convention.
    Score(i32),
    Nothing,
}

/// Reads the score at the start of a move's comment: `+0.43/5 ...`, `-M7/12 ...`, `book`.
fn read_comment(comment: &str) -> Said {
    let comment = comment.trim();
    if comment == "book" {
        return Said::Book;
    }
    let Some((score, _)) = comment.split_once('/') else {
        return Said::Nothing;
    };
    let (sign, unsigned) = match score.as_bytes().first() {
        Some(b'-') => (-1, &score[1..]),
        Some(b'+') => (1, &score[1..]),
        _ => (1, score),
    };
    if let Some(plies) = unsigned.strip_prefix('M') {
        return match plies.parse::<usize>() {
            Ok(n) if n <= 1000 => Said::Score(if sign > 0 { mate_in(n) } else { mated_in(n) }),
            _ => Said::Nothing,
        };
    }
    match unsigned.parse::<f64>() {
        // Pawns with two decimals; an absurd number is no score.
        Ok(pawns) if pawns.is_finite() && pawns < 300.0 => {
            Said::Score(sign * (pawns * 100.0).round() as i32)
        }
        _ => Said::Nothing,
    }
}

/// One game's text split into what the import needs.
#[derive(Default)]
struct GameText {
    fen: Option<String>,
    chess960: bool,
    /// The `Result` tag, or the termination marker.
    result: Option<String>,
    /// The `Termination` tag (fastchess: `normal`, `adjudication`, `time forfeit`, ...).
    termination: Option<String>,
    /// Each main-line move with the comment that follows it.
    moves: Vec<(String, Option<String>)>,
    /// The movetext was cut at [`MAX_GAME_PLIES`].
    too_long: bool,
}

impl GameText {
    fn tag(&mut self, line: &str) {
        let inside = line.trim().trim_start_matches('[').trim_end_matches(']');
        let Some((name, value)) = inside.split_once(char::is_whitespace) else {
            return;
        };
        let value = value.trim().trim_matches('"').to_string();
        match name {
            "FEN" => self.fen = Some(value),
            "Variant" => {
                self.chess960 = matches!(
                    value.to_ascii_lowercase().as_str(),
                    "chess960" | "fischerandom" | "fischer random"
                )
            }
            "Result" => self.result = Some(value),
            "Termination" => self.termination = Some(value),
            _ => {}
        }
    }

    /// Adds movetext; `comment` holds a comment still open at the end of the previous line.
    fn movetext(&mut self, line: &str, comment: &mut Option<String>, depth: &mut usize) {
        let mut rest = line;
        loop {
            if let Some(open) = comment.as_mut() {
                match rest.find('}') {
                    Some(end) => {
                        open.push_str(&rest[..end]);
                        let text = comment.take().unwrap_or_default();
                        if *depth == 0
                            && let Some(last) = self.moves.last_mut()
                            && last.1.is_none()
                        {
                            last.1 = Some(text);
                        }
                        rest = &rest[end + 1..];
                    }
                    None => {
                        open.push_str(rest);
                        open.push(' ');
                        return;
                    }
                }
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else {
                return;
            };
            match c {
                '{' => {
                    *comment = Some(String::new());
                    rest = &rest[1..];
                }
                ';' => return,
                '(' => {
                    *depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    *depth = depth.saturating_sub(1);
                    rest = &rest[1..];
                }
                _ => {
                    let len = rest
                        .find(|c: char| c.is_whitespace() || "{}();".contains(c))
                        .unwrap_or(rest.len())
                        .max(c.len_utf8());
                    if *depth == 0 {
                        self.token(&rest[..len]);
                    }
                    rest = &rest[len..];
                }
            }
        }
    }

    fn token(&mut self, token: &str) {
        if token.starts_with('$') {
            return;
        }
        if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
            self.result.get_or_insert_with(|| token.to_string());
            return;
        }
        // Move numbers: `12.`, `12...`, or glued to the move, `12.e4` (but `0-0` is castling).
        let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let mv = if digits > 0 && token[digits..].starts_with('.') {
            token[digits..].trim_start_matches('.')
        } else {
            token
        };
        if mv.is_empty() {
            return;
        }
        if self.moves.len() >= MAX_GAME_PLIES {
            self.too_long = true;
            return;
        }
        self.moves.push((mv.to_string(), None));
    }
}

/// Turns one game into the game format, appending it to `out`.
fn convert(game: &GameText, tally: &mut Tally, out: &mut Vec<u8>) -> Result<(), Refusal> {
    let result = match game.result.as_deref() {
        Some("1-0") => GameResult::WhiteWins,
        Some("0-1") => GameResult::BlackWins,
        Some("1/2-1/2") => GameResult::Draw,
        _ => return Err(Refusal::Unfinished),
    };
    if let Some(t) = &game.termination
        && !matches!(t.as_str(), "normal" | "adjudication")
    {
        return Err(Refusal::Termination);
    }
    if game.too_long {
        return Err(Refusal::TooLong);
    }
    let mode = if game.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mut pos = match &game.fen {
        Some(fen) => Position::from_fen_with(fen, mode).map_err(|_| Refusal::BadStart)?,
        None => Position::startpos(),
    };
    let mut start = pos.clone();
    let mut book = 0u64;
    let mut played: Vec<(Move, i32)> = Vec::with_capacity(game.moves.len());
    for (san, comment) in &game.moves {
        let mv = pos.parse_san(san).map_err(|_| Refusal::BadMove)?;
        match comment.as_deref().map_or(Said::Nothing, read_comment) {
            Said::Book if played.is_empty() => {
                book += 1;
                pos.make_move(mv);
                start = pos.clone();
                continue;
            }
            Said::Book => return Err(Refusal::BookAfterSearch),
            Said::Nothing => return Err(Refusal::NoScore),
            Said::Score(score) => played.push((mv, score * pos.side_to_move().sign())),
        }
        pos.make_move(mv);
    }
    if played.is_empty() {
        return Err(Refusal::Empty);
    }
    let before = out.len();
    games::encode_game(&start, result, &played, out).map_err(|_| Refusal::BadStart)?;
    // Count what the trainer will keep by reading the game back as it will.
    let mut positions = 0;
    let mut kept = 0;
    let scan = games::scan(&out[before..], |ply| {
        positions += 1;
        kept += games::keep(ply) as u64;
    });
    if !matches!(scan, Ok(s) if s.games == 1) {
        out.truncate(before);
        return Err(Refusal::BadMove);
    }
    tally.written += 1;
    tally.positions += positions;
    tally.kept += kept;
    tally.book_moves += book;
    tally.results[result as usize] += 1;
    Ok(())
}

/// Reads every game of `input` and appends those it can use to `out` in the game format,
/// calling `flush` after each game with the bytes written so far (so that a caller can write
/// them out and clear the buffer).
///
/// # Errors
/// A line longer than [`MAX_LINE`] (the input is not PGN), or a read error.
pub fn import(
    mut input: impl BufRead,
    tally: &mut Tally,
    mut flush: impl FnMut(&mut Vec<u8>) -> Result<(), String>,
) -> Result<(), String> {
    let mut out = Vec::new();
    let mut game = GameText::default();
    let mut in_movetext = false;
    let mut comment: Option<String> = None;
    let mut depth = 0usize;
    let mut line = Vec::new();
    let mut number = 0u64;
    let mut finish = |game: &mut GameText, tally: &mut Tally| -> Result<(), String> {
        let game = std::mem::take(game);
        if game.moves.is_empty() && game.result.is_none() && game.fen.is_none() {
            return Ok(());
        }
        tally.read += 1;
        if let Err(why) = convert(&game, tally, &mut out) {
            tally.refuse(why);
        }
        flush(&mut out)
    };
    loop {
        line.clear();
        let n = <&mut _ as std::io::Read>::take(&mut input, MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("line {}: {e}", number + 1))?;
        if n == 0 {
            break;
        }
        number += 1;
        if line.len() > MAX_LINE {
            return Err(format!(
                "line {number} is longer than {MAX_LINE} bytes: not PGN"
            ));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        // A `%` line is an escape; a tag pair outside a comment begins a game's header.
        if text.starts_with('%') && comment.is_none() {
            continue;
        }
        if text.trim_start().starts_with('[') && comment.is_none() && depth == 0 {
            if in_movetext {
                finish(&mut game, tally)?;
                in_movetext = false;
            }
            game.tag(text);
            continue;
        }
        if !text.trim().is_empty() || comment.is_some() {
            in_movetext = true;
            game.movetext(text, &mut comment, &mut depth);
        }
    }
    finish(&mut game, tally)?;
    if tally.read == 0 {
        return Err("no game in it: not PGN".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_give_the_movers_score() {
        assert_eq!(
            read_comment("+0.43/5 0.019s, n=2227, sd=8"),
            Said::Score(43)
        );
        assert_eq!(read_comment("-1.07/9"), Said::Score(-107));
        assert_eq!(read_comment("0.00/12 0.100s"), Said::Score(0));
        assert_eq!(read_comment("+M5/20 0.1s"), Said::Score(mate_in(5)));
        assert_eq!(read_comment("-M4/20 0.1s"), Said::Score(mated_in(4)));
        assert_eq!(read_comment(" book "), Said::Book);
        assert_eq!(read_comment("unknown"), Said::Nothing);
        assert_eq!(read_comment("ERR/3 0.1s"), Said::Nothing);
        assert_eq!(read_comment("+1e300/3"), Said::Nothing);
    }

    fn run(text: &str) -> (Tally, Vec<u8>) {
        let mut tally = Tally::default();
        let mut bytes = Vec::new();
        import(text.as_bytes(), &mut tally, |out| {
            bytes.append(out);
            Ok(())
        })
        .unwrap();
        (tally, bytes)
    }

    const GAME: &str = "[Event \"x\"]\n[Result \"0-1\"]\n[Termination \"normal\"]\n\n\
        1. f3 {book} e5 {+0.50/7 0.01s, n=100, sd=9}\n2. g4 {-M2/5 0.01s} \
        Qh4# {+M1/3 0.01s,\nBlack mates} 0-1\n\n";

    #[test]
    fn a_game_starts_after_its_book_moves_and_scores_turn_to_whites_view() {
        let (tally, bytes) = run(GAME);
        assert_eq!((tally.read, tally.written, tally.book_moves), (1, 1, 1));
        let mut seen = Vec::new();
        let scan = games::scan(&bytes, |ply| {
            seen.push((ply.position.to_fen(), ply.score, ply.result))
        })
        .unwrap();
        assert_eq!(scan.games, 1);
        assert_eq!(seen.len(), 3);
        // After 1. f3 (book), Black to move; +0.50 for Black is -50 for White.
        assert!(
            seen[0]
                .0
                .starts_with("rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b")
        );
        assert_eq!(seen[0].1, -50);
        assert_eq!(seen[1].1 as i32, mated_in(2));
        assert_eq!(seen[2].1 as i32, -mate_in(1));
        assert_eq!(seen[0].2, GameResult::BlackWins);
        // Mate scores are left out by the trainer: only the first position is kept.
        assert_eq!((tally.positions, tally.kept), (3, 1));
    }

    #[test]
    fn games_whose_result_says_nothing_are_refused() {
        let time = GAME.replace("\"normal\"", "\"time forfeit\"");
        let unfinished = GAME.replace("0-1\"]", "*\"]").replace("0-1\n", "*\n");
        let illegal = GAME.replace("Qh4#", "Qh5#");
        let unscored = GAME.replace("{-M2/5 0.01s}", "");
        let text = format!("{GAME}{time}{unfinished}{illegal}{unscored}");
        let (tally, _) = run(&text);
        assert_eq!((tally.read, tally.written), (5, 1));
        let count = |r: Refusal| tally.refused[Refusal::ALL.iter().position(|&x| x == r).unwrap()];
        assert_eq!(count(Refusal::Termination), 1);
        assert_eq!(count(Refusal::Unfinished), 1);
        assert_eq!(count(Refusal::BadMove), 1);
        assert_eq!(count(Refusal::NoScore), 1);
    }

    #[test]
    fn what_is_not_pgn_is_an_error() {
        let long = vec![b'x'; MAX_LINE + 10];
        let error = import(&long[..], &mut Tally::default(), |_| Ok(())).unwrap_err();
        assert!(error.contains("longer than"), "{error}");
        assert!(import(&b"\n\n"[..], &mut Tally::default(), |_| Ok(())).is_err());
    }
}
