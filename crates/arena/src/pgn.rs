//! PGN: writing each finished game, and reading games back (opening books, tests).

use crate::engine::Score;
use crate::game::{GameRecord, PlayedMove};
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// The export format's suggested line length (PGN standard, section 8.2.2).
const LINE: usize = 79;

/// The civil date (year, month, day) of a number of days since 1970-01-01, by Howard Hinnant's
/// `civil_from_days`, so that no date crate is needed for one tag.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn pgn_date(time: SystemTime) -> String {
    let days = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| (d.as_secs() / 86_400) as i64);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `+0.31/12 0.153s, 7.851s left` (score from the mover's side, depth, time used, clock left).
fn move_comment(mv: &PlayedMove) -> String {
    let mut comment = String::new();
    match mv.score {
        Some(Score::Cp(cp)) => {
            let _ = write!(comment, "{:+.2}", f64::from(cp) / 100.0);
        }
        Some(Score::Mate(n)) => {
            let _ = write!(comment, "{}M{}", if n > 0 { '+' } else { '-' }, n.abs());
        }
        None => {}
    }
    if let (Some(depth), true) = (mv.depth, mv.score.is_some()) {
        let _ = write!(comment, "/{depth}");
    }
    if !comment.is_empty() {
        comment.push(' ');
    }
    let _ = write!(comment, "{:.3}s", mv.time.as_secs_f64());
    if let Some(left) = mv.clock {
        let _ = write!(comment, ", {:.3}s left", left.as_secs_f64());
    }
    comment
}

/// Joins tokens into lines of at most [`LINE`] characters.
struct Wrapper {
    text: String,
    line_len: usize,
}

impl Wrapper {
    fn push(&mut self, token: &str) {
        if self.line_len > 0 && self.line_len + 1 + token.len() > LINE {
            self.text.push('\n');
            self.line_len = 0;
        } else if self.line_len > 0 {
            self.text.push(' ');
            self.line_len += 1;
        }
        self.text.push_str(token);
        self.line_len += token.len();
    }
}

/// The `TimeControl` tag: one time control, or White's and Black's when they differ.
pub fn time_control_tag(record: &GameRecord) -> String {
    let [white_tc, black_tc] = record.time_controls;
    if white_tc == black_tc {
        white_tc.to_string()
    } else {
        format!("{white_tc}:{black_tc}")
    }
}

// ANCHOR: write
/// The game as PGN text, ending with a blank line.
pub fn write_game(record: &GameRecord, event: &str) -> String {
    let mut out = String::with_capacity(2048);
    let time_control = time_control_tag(record);
    let plies = record.book.len() + record.moves.len();
    let mut tags = vec![
        ("Event", event.to_string()),
        ("Site", "?".to_string()),
        ("Date", pgn_date(record.date)),
        ("Round", record.job.number.to_string()),
        ("White", record.names[0].clone()),
        ("Black", record.names[1].clone()),
        ("Result", record.result.pgn().to_string()),
    ];
    if record.start_fen != chess::STARTPOS || record.chess960 {
        tags.push(("FEN", record.start_fen.clone()));
        tags.push(("SetUp", "1".to_string()));
    }
    if record.chess960 {
        tags.push(("Variant", "Chess960".to_string()));
    }
    tags.push(("TimeControl", time_control));
    tags.push(("PlyCount", plies.to_string()));
    tags.push(("Termination", record.termination.pgn_tag().to_string()));
    for (name, value) in tags {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(&value));
    }
    out.push('\n');

    let mut fields = record.start_fen.split_ascii_whitespace();
    let black_first = fields.nth(1) == Some("b");
    let mut number: u32 = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut black = black_first;
    let mut text = Wrapper {
        text: out,
        line_len: 0,
    };
    let comments = record
        .book
        .iter()
        .map(|san| (san, "book".to_string()))
        .chain(record.moves.iter().map(|mv| (&mv.san, move_comment(mv))));
    for (san, comment) in comments {
        // Every move has a comment, so a Black move always gets its own number (section 8.2.2.2).
        text.push(&if black {
            format!("{number}...")
        } else {
            format!("{number}.")
        });
        text.push(san);
        text.push(&format!("{{{comment}}}"));
        if black {
            number += 1;
        }
        black = !black;
    }
    text.push(&format!(
        "{{{}}}",
        record.termination.describe(record.result)
    ));
    text.push(record.result.pgn());
    text.text.push_str("\n\n");
    text.text
}
// ANCHOR_END: write

/// A game read from PGN: its tags and main-line moves in SAN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: Option<String>,
    /// The last comment of the movetext, whitespace collapsed: in arena's games, the sentence
    /// that says how the game ended (`resume` reads it back).
    pub last_comment: Option<String>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty() && self.result.is_none()
    }
}

/// The length of a tag pair starting at `[`, up to its `]` (a `]` inside the quoted value does
/// not count).
fn tag_len(text: &str) -> usize {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ']' if !quoted => return i + 1,
            '\n' => return i,
            _ => {}
        }
    }
    text.len()
}

/// Reads a tag pair, `[Name "value"]`, with `\"` and `\\` escapes in the value.
fn parse_tag(text: &str) -> Option<(String, String)> {
    let inside = text.strip_prefix('[')?.trim_start();
    let (name, rest) = inside.split_once(char::is_whitespace)?;
    let mut value = String::new();
    let mut chars = rest.trim_start().strip_prefix('"')?.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return Some((name.to_string(), value)),
            c => value.push(c),
        }
    }
    None
}

// ANCHOR: parse
/// Reads every game of a PGN text. Comments, variations, NAGs, move numbers and escape lines are
/// skipped; what is left are the tags, the main line's moves and the result. Never fails: text
/// it cannot make sense of is kept as a move or left out, and the caller finds out when it plays
/// the moves.
pub fn parse(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut variation_depth = 0usize;
    let mut line_start = true;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let to_line_end = rest.find('\n').unwrap_or(rest.len());
        let taken = match c {
            '%' if line_start => to_line_end,
            ';' => to_line_end,
            '{' => {
                let len = rest.find('}').map_or(rest.len(), |end| end + 1);
                let inside = rest[1..len].trim_end_matches('}');
                if variation_depth == 0 {
                    let words: Vec<&str> = inside.split_whitespace().collect();
                    game.last_comment = Some(words.join(" "));
                }
                len
            }
            '[' if variation_depth == 0 => {
                // Tags after movetext begin the next game.
                if !game.moves.is_empty() || game.result.is_some() {
                    games.push(std::mem::take(&mut game));
                }
                let len = tag_len(rest);
                game.tags.extend(parse_tag(&rest[..len]));
                len
            }
            '(' => {
                variation_depth += 1;
                1
            }
            ')' => {
                variation_depth = variation_depth.saturating_sub(1);
                1
            }
            c if c.is_whitespace() => c.len_utf8(),
            _ => {
                let len = rest
                    .find(|c: char| c.is_whitespace() || "{}()[];".contains(c))
                    .unwrap_or(rest.len())
                    .max(c.len_utf8());
                if variation_depth == 0 {
                    take_token(&mut game, &mut games, &rest[..len]);
                }
                len
            }
        };
        line_start = c == '\n';
        rest = &rest[taken..];
    }
    if !game.is_empty() {
        games.push(game);
    }
    games
}
// ANCHOR_END: parse

/// A movetext token: a move number, a NAG, a result, or a move.
fn take_token(game: &mut PgnGame, games: &mut Vec<PgnGame>, token: &str) {
    if token.starts_with('$') {
        return;
    }
    if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
        game.result = Some(token.to_string());
        games.push(std::mem::take(game));
        return;
    }
    // `12.`, `12...` or a number glued to its move, `12.e4`; but `0-0` is castling.
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let mv = if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    };
    if !mv.is_empty() {
        game.moves.push(mv.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;
    use crate::game::{GameResult, Overhead, Termination};
    use crate::schedule::GameJob;
    use chess::Color;
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
    }

    fn record() -> GameRecord {
        let played = |san: &str, score| PlayedMove {
            san: san.to_string(),
            score,
            depth: Some(9),
            time: Duration::from_millis(153),
            clock: Some(Duration::from_millis(7851)),
        };
        GameRecord {
            job: GameJob {
                number: 3,
                round: 1,
                pair: 1,
                pairing: 0,
                white: 0,
                black: 1,
            },
            names: ["new \"x\"".to_string(), "base".to_string()],
            time_controls: ["8+0.08".parse::<TimeControl>().unwrap(); 2],
            start_fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_string(),
            chess960: false,
            book: vec!["e5".to_string()],
            moves: vec![
                played("Nf3", Some(Score::Cp(31))),
                played("Nc6", Some(Score::Mate(-3))),
                played("Bb5", None),
            ],
            result: GameResult::BlackWins,
            termination: Termination::TimeForfeit(Color::White),
            date: UNIX_EPOCH,
            overhead: Overhead::default(),
        }
    }

    #[test]
    fn written_game_reads_back() {
        let text = write_game(&record(), "test");
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(text.contains("[White \"new \\\"x\\\"\"]"), "{text}");
        assert!(
            text.contains("[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]")
        );
        assert!(text.contains("[Termination \"time forfeit\"]"));
        assert!(flat.contains("1... e5 {book} 2. Nf3 {+0.31/9 0.153s, 7.851s left} 2... Nc6"));
        assert!(flat.contains("{-M3/9 0.153s, 7.851s left}"), "{text}");
        assert!(flat.ends_with("{White loses on time} 0-1"), "{text}");
        assert!(text.lines().all(|l| l.len() <= LINE), "{text}");
        let games = parse(&text);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tag("White"), Some("new \"x\""));
        assert_eq!(games[0].moves, ["e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(games[0].result.as_deref(), Some("0-1"));
        assert_eq!(
            games[0].last_comment.as_deref(),
            Some("White loses on time")
        );
    }

    #[test]
    fn reads_awkward_pgn() {
        let text = "% escape line\n[Event \"a ] b\"]\n[Site \"?\"]\n\n\
                    1.e4 $1 e5 {a comment\nover two lines} 2. Nf3 (2. f4 exf4 (2... d5)) 2...Nc6 \
                    ; to the end\n3. O-O 0-0 1/2-1/2\n[Event \"next\"]\n1. d4 *\n1. c4";
        let games = parse(text);
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].tag("Event"), Some("a ] b"));
        assert_eq!(games[0].moves, ["e4", "e5", "Nf3", "Nc6", "O-O", "0-0"]);
        assert_eq!(
            games[0].last_comment.as_deref(),
            Some("a comment over two lines")
        );
        assert_eq!(games[1].moves, ["d4"]);
        assert_eq!(games[2].moves, ["c4"]);
        assert_eq!(games[2].result, None);
        assert!(parse("").is_empty());
        // Garbage never panics.
        for junk in ["[", "{", "(((", "]]]", "[a \"\\", "é1. ñ"] {
            let _ = parse(junk);
        }
    }
}
