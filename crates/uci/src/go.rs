//! Reading `go` and `position` arguments. Both are parsed completely before anything changes, so
//! a bad command leaves the engine's state exactly as it was.

use chess::{CastlingMode, Move, Position};
use engine::Limits;

/// What `go` asks for: a search with limits, or a perft count.
#[derive(Debug)]
pub enum Go {
    Search(Limits),
    Perft(u32),
}

fn number(keyword: &str, value: Option<&&str>) -> Result<i64, String> {
    let value = value.ok_or_else(|| format!("go: '{keyword}' needs a number"))?;
    value
        .parse::<i64>()
        .map_err(|_| format!("go: '{keyword} {value}': not a whole number"))
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
        n => Err(format!("go: '{keyword} {n}': must be at least 1")),
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

pub fn parse_go(args: &[&str], pos: &Position) -> Result<Go, String> {
    let mut limits = Limits::default();
    let mut i = 0;
    while i < args.len() {
        let keyword = args[i];
        let value = args.get(i + 1);
        i += 2;
        match keyword {
            "wtime" => limits.wtime = Some(non_negative(keyword, value)?),
            "btime" => limits.btime = Some(non_negative(keyword, value)?),
            "winc" => limits.winc = Some(non_negative(keyword, value)?),
            "binc" => limits.binc = Some(non_negative(keyword, value)?),
            "movestogo" => {
                limits.movestogo = Some(non_negative(keyword, value)?.min(10_000) as u32)
            }
            "movetime" => limits.movetime = Some(non_negative(keyword, value)?),
            "depth" => limits.depth = Some(positive(keyword, value)?.min(1000) as i32),
            "nodes" => limits.nodes = Some(positive(keyword, value)?),
            "mate" => limits.mate = Some(positive(keyword, value)?.min(1000) as u32),
            "perft" => {
                let depth = non_negative(keyword, value)?;
                if depth > 20 {
                    return Err(format!("go perft {depth}: too deep (at most 20)"));
                }
                // `go perft N` is a command of its own, not a search limit among others.
                if args.len() != 2 {
                    return Err("go perft: expected 'go perft DEPTH' and nothing else".into());
                }
                return Ok(Go::Perft(depth as u32));
            }
            "infinite" => {
                limits.infinite = true;
                i -= 1;
            }
            "ponder" => {
                limits.ponder = true;
                i -= 1;
            }
            "searchmoves" => {
                i -= 1;
                while i < args.len() && !KEYWORDS.contains(&args[i]) {
                    let mv = pos
                        .parse_uci_move(args[i])
                        .map_err(|e| format!("go searchmoves: {e}"))?;
                    limits.searchmoves.push(mv);
                    i += 1;
                }
            }
            other => return Err(format!("go: unknown argument '{other}'")),
        }
    }
    Ok(Go::Search(limits))
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

    #[test]
    fn go_arguments() {
        let Ok(Go::Search(l)) = go("wtime 1000 btime -5 winc 10 binc 10 movestogo 20") else {
            panic!()
        };
        assert_eq!(
            (l.wtime, l.btime, l.movestogo),
            (Some(1000), Some(0), Some(20))
        );
        let Ok(Go::Search(l)) = go("infinite searchmoves e2e4 d2d4 depth 3") else {
            panic!()
        };
        assert!(l.infinite);
        assert_eq!(l.searchmoves.len(), 2);
        assert_eq!(l.depth, Some(3));
        assert!(matches!(go("perft 3"), Ok(Go::Perft(3))));
        for bad in [
            "wtime",
            "wtime x",
            "depth 3 nonsense",
            "searchmoves e2e5",
            "nodes 1e9",
            "perft 99",
            "perft 3 junk",
            "depth 3 perft 3",
            "depth 0",
            "depth -5",
            "nodes 0",
            "mate 0",
        ] {
            assert!(go(bad).is_err(), "{bad}");
        }
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
