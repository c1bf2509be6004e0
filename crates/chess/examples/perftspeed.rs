use chess::{Position, perft};
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args[1].parse().unwrap();
    let fen = args.get(2).cloned().unwrap_or(chess::STARTPOS.to_string());
    let pos = Position::from_fen(&fen).unwrap();
    let t = Instant::now();
    let n = perft(&pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes {:.3} s {:.1} Mnps", s, n as f64 / s / 1e6);
}
