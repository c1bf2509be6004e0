//! Reading `go` and `position` arguments. Both are parsed completely before anything changes, so
//! a bad command leaves the engine's state exactly as it was.

use chess::{CastlingMode, Move, Position};
use engine::Limits;

/// What `go` asks for: a search with limits, or a perft count.
#[derive(Debug)]
pub enum Go {
    /// A search with the limits that could be read, and what could not (each refused argument
    /// is left out, and the search goes on without it: a `go` always gets its `bestmove`).
    Search { limits: Limits, errors: Vec<String> },
    /// `go perft DEPTH`: a count, not a search.
    Perft(u32),
}

fn number(keyword: &str, value: Option<&&str>) -> Result<i64, String> {
    let value = value.ok_or_else(|| format!("'{keyword}' needs a number"))?;
    value
        .parse::<i64>()
        .map_err(|_| format!("'{keyword} {value}': not a whole number"))
}

/// A time or count: negative values (a GUI past its flag) read as zero.
fn non_negative(keyword: &str, value: Option<&&str>) -> Result<u64, String> {
    Ok(number(keyword, value)?.max(0) as u64)
}

/// A depth, node or mate count: at least 1 (`go depth 0` would search nothing, and `go mate 0`
/// asks for a mate that is already on the board).
fn positive(keyword: &str, value: Option<&&str>) -> Result<u64, String> {
    match number(keyword, value)? {
        n if n >= 1 => Ok(n as u64),
        n => Err(format!("'{keyword} {n}': must be at least 1")),
    }
}

const KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// The deepest `go perft` (and `perft`): deeper would run for days.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// `go perft DEPTH`: the depth, or why it can't be counted.
fn perft_depth(args: &[&str]) -> Result<u32, String> {
    let usage = format!(
        "go perft: expected 'go perft DEPTH' and nothing else (depth 0 to {MAX_PERFT_DEPTH})"
    );
    match args {
        [_, depth] => depth
            .parse::<u32>()
            .ok()
            .filter(|&d| d <= MAX_PERFT_DEPTH)
            .ok_or(usage),
        _ => Err(usage),
    }
}

/// Reads `go`'s arguments. `Err` only for a `go perft` that can't be counted; a search is read as
/// far as it can be (see [`Go::Search`]).
pub fn parse_go(args: &[&str], pos: &Position) -> Result<Go, String> {
    if args.first() == Some(&"perft") {
        return perft_depth(args).map(Go::Perft);
    }
    let mut limits = Limits::default();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let keyword = args[i];
        // A keyword's value, unless the next word is a keyword itself (`go depth wtime 100`).
        let value = args.get(i + 1).filter(|v| !KEYWORDS.contains(v));
        i += 1;
        let read = match keyword {
            "wtime" => non_negative(keyword, value).map(|t| limits.wtime = Some(t)),
            "btime" => non_negative(keyword, value).map(|t| limits.btime = Some(t)),
            "winc" => non_negative(keyword, value).map(|t| limits.winc = Some(t)),
            "binc" => non_negative(keyword, value).map(|t| limits.binc = Some(t)),
            "movestogo" => {
                non_negative(keyword, value).map(|n| limits.movestogo = Some(n.min(10_000) as u32))
            }
            "movetime" => non_negative(keyword, value).map(|t| limits.movetime = Some(t)),
            "depth" => positive(keyword, value).map(|d| limits.depth = Some(d.min(1000) as i32)),
            "nodes" => positive(keyword, value).map(|n| limits.nodes = Some(n)),
            "mate" => positive(keyword, value).map(|n| limits.mate = Some(n.min(1000) as u32)),
            "infinite" => {
                limits.infinite = true;
                continue;
            }
            "ponder" => {
                limits.ponder = true;
                continue;
            }
            "searchmoves" => {
                while i < args.len() && !KEYWORDS.contains(&args[i]) {
                    match pos.parse_uci_move(args[i]) {
                        Ok(mv) => limits.searchmoves.push(mv),
                        Err(e) => errors.push(format!("searchmoves: {e}")),
                    }
                    i += 1;
                }
                continue;
            }
            "perft" => Err("'perft' is a command of its own: 'go perft DEPTH'".to_string()),
            other => {
                errors.push(format!("unknown argument '{other}'"));
                continue;
            }
        };
        // The value was read, or refused: either way it is used up.
        if value.is_some() {
            i += 1;
        }
        if let Err(e) = read {
            errors.push(e);
        }
    }
    Ok(Go::Search { limits, errors })
}

/// A parsed `position` command: the position reached, and the hashes of the positions before it.
pub struct PositionCommand {
    pub position: Position,
    pub history: Vec<u64>,
}

// ANCHOR: parse_position
pub fn parse_position(args: &[&str], mode: CastlingMode) -> Result<PositionCommand, String> {
    let moves_at = args.iter().position(|&w| w == "moves");
    let setup = &args[..moves_at.unwrap_or(args.len())];
    let mut position = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => Position::startpos(),
        Some(&"fen") => {
            Position::from_fen_with(&setup[1..].join(" "), mode).map_err(|e| e.to_string())?
        }
        _ => {
            return Err(
                "position: expected 'startpos' or 'fen <FEN>', then optionally 'moves ...'".into(),
            );
        }
    };
    let mut history = Vec::new();
    if let Some(at) = moves_at {
        for (n, text) in args[at + 1..].iter().enumerate() {
            let mv: Move = position
                .parse_uci_move(text)
                .map_err(|e| format!("position: move {} ({text}): {e}", n + 1))?;
            history.push(position.hash());
            position.make_move(mv);
        }
    }
    Ok(PositionCommand { position, history })
}
// ANCHOR_END: parse_position

#[cfg(test)]
mod tests {
    use super::*;

    fn go(text: &str) -> Result<Go, String> {
        let args: Vec<&str> = text.split_whitespace().collect();
        parse_go(&args, &Position::startpos())
    }

    /// The limits `go` reads and how many arguments it refused.
    fn search(text: &str) -> (Limits, usize) {
        match go(text) {
            Ok(Go::Search { limits, errors }) => (limits, errors.len()),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn go_arguments() {
        let (l, errors) = search("wtime 1000 btime -5 winc 10 binc 10 movestogo 20");
        assert_eq!(
            (l.wtime, l.btime, l.movestogo, errors),
            (Some(1000), Some(0), Some(20), 0)
        );
        let (l, errors) = search("infinite searchmoves e2e4 d2d4 depth 3");
        assert!(l.infinite);
        assert_eq!((l.searchmoves.len(), l.depth, errors), (2, Some(3), 0));
        assert!(matches!(go("perft 3"), Ok(Go::Perft(3))));
        for bad in ["perft 99", "perft 3 junk", "perft", "perft -1"] {
            assert!(go(bad).is_err(), "{bad}");
        }
        // What can't be read is refused and the rest is kept.
        for (bad, depth, refused) in [
            ("wtime", None, 1),
            ("wtime x depth 4", Some(4), 1),
            ("depth 3 nonsense", Some(3), 1),
            ("searchmoves e2e5 e2e4 depth 2", Some(2), 1),
            ("nodes 1e9", None, 1),
            ("depth 3 perft 3", Some(3), 1),
            ("depth 0", None, 1),
            ("depth -5", None, 1),
            ("nodes 0 mate 0", None, 2),
            ("depth wtime 100", None, 1),
        ] {
            let (l, errors) = search(bad);
            assert_eq!((l.depth, errors), (depth, refused), "{bad}");
        }
        let (l, _) = search("depth wtime 100");
        assert_eq!(l.wtime, Some(100), "a keyword is no value");
        let (l, _) = search("searchmoves e2e5 e2e4");
        assert_eq!(l.searchmoves.len(), 1);
    }

    #[test]
    fn position_arguments() {
        let args = ["startpos", "moves", "e2e4", "e7e5"];
        let p = parse_position(&args, CastlingMode::Standard).unwrap();
        assert_eq!(p.history.len(), 2);
        assert!(
            parse_position(
                &["startpos", "moves", "e2e4", "e2e4"],
                CastlingMode::Standard
            )
            .is_err()
        );
        assert!(
            parse_position(
                &["fen", "8/8/8/8/8/8/8/8", "w", "-", "-"],
                CastlingMode::Standard
            )
            .is_err()
        );
        assert!(parse_position(&[], CastlingMode::Standard).is_err());
        assert!(parse_position(&["startpos", "extra"], CastlingMode::Standard).is_err());
    }
}
