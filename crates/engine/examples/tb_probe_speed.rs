//! What a tablebase probe costs: win/draw/loss and DTZ probes of random three- and four-piece
//! positions (halfmove clock 0), timed after a first pass has opened every table.
//!
//! `cargo run --release -p engine --example tb_probe_speed [FOLDER]` (default `data/syzygy`)

use chess::Position;
use chess::rng::Rng;
use engine::tablebase::Tablebases;
use std::time::Instant;

#[path = "../tests/common/mod.rs"]
mod common;

/// A random legal position of kings and two more pieces, or `None` for an illegal placement.
fn random_position(rng: &mut Rng) -> Option<Position> {
    const PIECES: [char; 10] = ['P', 'N', 'B', 'R', 'Q', 'p', 'n', 'b', 'r', 'q'];
    let extra = [
        PIECES[rng.next_u64() as usize % 10],
        PIECES[rng.next_u64() as usize % 10],
    ];
    common::random_placement(rng, &['K', 'k', extra[0], extra[1]])
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
