//! The `cb2026` binary: a UCI engine on stdin/stdout, or one command given as arguments.

use chess::{CastlingMode, Position, divide};
use std::io::{BufRead, Write};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut uci = Uci::new();
    if !args.is_empty() {
        uci.command(&args.join(" "));
        return;
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if !uci.command(&line) {
            break;
        }
    }
}

struct Uci {
    position: Position,
    chess960: bool,
}

impl Uci {
    fn new() -> Uci {
        Uci {
            position: Position::startpos(),
            chess960: false,
        }
    }

    fn mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Runs one command line; false when the engine should quit.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        match words.next() {
            None => {}
            Some("uci") => {
                println!("id name cb2026 {}", env!("CARGO_PKG_VERSION"));
                println!("id author the cb2026 developers");
                println!("option name UCI_Chess960 type check default false");
                println!("uciok");
            }
            Some("isready") => println!("readyok"),
            Some("quit") => return false,
            Some("setoption") => {
                let rest: Vec<&str> = words.collect();
                if rest.len() == 4
                    && rest[0] == "name"
                    && rest[1] == "UCI_Chess960"
                    && rest[2] == "value"
                {
                    self.chess960 = rest[3] == "true";
                } else {
                    println!("info string error: unknown option '{}'", rest.join(" "));
                }
            }
            Some("position") => {
                let rest: Vec<&str> = words.collect();
                match self.parse_position(&rest) {
                    Ok(pos) => self.position = pos,
                    Err(e) => println!("info string error: {e}"),
                }
            }
            Some("go") => match (words.next(), words.next().map(str::parse::<u32>)) {
                (Some("perft"), Some(Ok(depth))) => self.perft(depth),
                _ => println!("info string error: only 'go perft DEPTH' is supported so far"),
            },
            Some("perft") => {
                let depth = words.next().map(str::parse::<u32>);
                let fen: Vec<&str> = words.collect();
                match depth {
                    Some(Ok(depth)) => {
                        if !fen.is_empty() {
                            match Position::from_fen_with(&fen.join(" "), CastlingMode::Chess960) {
                                Ok(pos) => self.position = pos,
                                Err(e) => {
                                    println!("info string error: {e}");
                                    return true;
                                }
                            }
                        }
                        self.perft(depth);
                    }
                    _ => println!("info string error: usage: perft DEPTH [FEN]"),
                }
            }
            Some("d") => {
                print!("{}", self.position.board_string());
                println!("Fen: {}", self.position.to_fen());
                println!("Hash: {:016x}", self.position.hash());
            }
            Some(other) => println!("info string error: unknown command '{other}'"),
        }
        let _ = std::io::stdout().flush();
        true
    }

    fn parse_position(&self, args: &[&str]) -> Result<Position, String> {
        let moves_at = args
            .iter()
            .position(|&w| w == "moves")
            .unwrap_or(args.len());
        let mut pos = match args.first() {
            Some(&"startpos") => Position::startpos(),
            Some(&"fen") => Position::from_fen_with(&args[1..moves_at].join(" "), self.mode())
                .map_err(|e| e.to_string())?,
            _ => return Err("expected 'position startpos' or 'position fen FEN'".into()),
        };
        for text in args.iter().skip(moves_at + 1) {
            let mv = pos.parse_uci_move(text).map_err(|e| e.to_string())?;
            pos.make_move(mv);
        }
        Ok(pos)
    }

    fn perft(&self, depth: u32) {
        let start = Instant::now();
        let mut total = 0;
        for (mv, nodes) in divide(&self.position, depth) {
            println!("{}: {nodes}", mv.to_uci(self.chess960));
            total += nodes;
        }
        let elapsed = start.elapsed();
        let nps = total as f64 / elapsed.as_secs_f64().max(1e-9);
        println!();
        println!("Nodes searched: {total}");
        println!("Time: {} ms", elapsed.as_millis());
        println!("NPS: {nps:.0}");
    }
}
