//! What a tablebase probe costs: win/draw/loss and DTZ probes of random three- and four-piece
//! positions (halfmove clock 0), timed after a first pass has opened every table.
//!
//! `cargo run --release -p engine --example tb_probe_speed [FOLDER]` (default `data/syzygy`)

use chess::Position;
use chess::rng::Rng;
use engine::tablebase::Tablebases;
use std::time::Instant;

/// A random legal position of kings and two more pieces, or `None` for an illegal placement.
fn random_position(rng: &mut Rng) -> Option<Position> {
    const PIECES: [char; 10] = ['P', 'N', 'B', 'R', 'Q', 'p', 'n', 'b', 'r', 'q'];
    let mut board = ['1'; 64];
    for c in [
        'K',
        'k',
        PIECES[rng.next_u64() as usize % 10],
        PIECES[rng.next_u64() as usize % 10],
    ] {
        let s = rng.next_u64() as usize % 64;
        let pawn_rank = c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&s);
        if board[s] != '1' || pawn_rank {
            return None;
        }
        board[s] = c;
    }
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|r| board[r * 8..r * 8 + 8].iter().collect())
        .collect();
    let side = if rng.next_u64() % 2 == 0 { 'w' } else { 'b' };
    // Runs of '1' are valid FEN only one digit at a time: merge them.
    let placement: Vec<String> = ranks.iter().map(|r| merge_empties(r)).collect();
    Position::from_fen(&format!("{} {side} - - 0 1", placement.join("/"))).ok()
}

fn merge_empties(rank: &str) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for c in rank.chars() {
        if c == '1' {
            empty += 1;
            continue;
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
            empty = 0;
        }
        out.push(c);
    }
    if empty > 0 {
        out.push_str(&empty.to_string());
    }
    out
}

/// The median over five passes of the time `probe` takes per position, in nanoseconds.
fn median_ns(positions: &[Position], probe: impl Fn(&Position) -> bool) -> f64 {
    let mut times: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            let answered = positions.iter().filter(|p| probe(p)).count();
            std::hint::black_box(answered);
            start.elapsed().as_secs_f64() * 1e9 / positions.len() as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[2]
}

fn main() {
    let folder = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "data/syzygy".into());
    let tables = match Tablebases::open(&folder) {
        Ok(loaded) => loaded.tablebases,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut rng = Rng::new(2026);
    let positions: Vec<Position> = std::iter::from_fn(|| Some(random_position(&mut rng)))
        .flatten()
        .take(200_000)
        .collect();
    // The first pass opens and maps the tables.
    let answered = positions
        .iter()
        .filter(|p| tables.probe_wdl(p).is_some())
        .count();
    let wdl = median_ns(&positions, |p| tables.probe_wdl(p).is_some());
    let dtz = median_ns(&positions, |p| tables.probe_dtz(p).is_some());
    println!(
        "{} positions, 5 passes each: win/draw/loss probe {wdl:.0} ns, DTZ probe {dtz:.0} ns (medians)",
        positions.len()
    );
    println!("{answered} of {} positions answered", positions.len());
}
