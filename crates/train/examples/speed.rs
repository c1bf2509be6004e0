//! Where a training step's time goes:
//! `cargo run --release -p train --example speed [HIDDEN] [KING_BUCKETS] [mirror] [factorise]`. Times, on
//! one thread, the forward pass alone, the forward and backward pass of a chunk, and whole steps
//! (with the optimiser) on all threads, over synthetic positions of 26 pieces.

use chess::rng::Rng;
use chess::{Color, PieceType};
use std::time::Instant;
use train::Config;
use train::data::Sample;
use train::gradient::{self, Isa, Work};
use train::trainer::{CHUNK, State, Trainer};

fn positions(n: usize) -> Vec<Sample> {
    let mut rng = Rng::new(1);
    let kinds = [
        PieceType::Pawn,
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ];
    (0..n)
        .map(|_| {
            let mut squares: Vec<usize> = (0..64).collect();
            rng.shuffle(&mut squares);
            let mut pieces = vec![
                (Color::White, PieceType::King, squares[0]),
                (Color::Black, PieceType::King, squares[1]),
            ];
            for &sq in &squares[2..26] {
                pieces.push((Color::ALL[rng.below(2)], kinds[rng.below(6)], sq));
            }
            let score = rng.below(600) as i16 - 300;
            Sample::new(&pieces, Color::ALL[rng.below(2)], score, 1).unwrap_or_default()
        })
        .collect()
}

fn main() {
    let hidden = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(128);
    let king_buckets = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1);
    let mirror = std::env::args().nth(3).is_some_and(|a| a == "mirror");
    let factorise = std::env::args().nth(4).is_some_and(|a| a == "factorise");
    let samples = positions(1 << 20);
    let config = Config {
        data: vec!["synthetic".into()],
        hidden,
        king_buckets,
        mirror,
        factorise,
        ..Config::default()
    };
    if let Err(e) = config.validate() {
        eprintln!("speed: {e}");
        return;
    }
    let layout = config.layout();
    println!(
        "{} inputs{}, {hidden} neurons",
        layout.inputs(),
        if mirror { ", mirrored" } else { "" }
    );
    let state = State::new(&config);
    let obj = config.objective();
    let ids: Vec<u32> = (0..samples.len() as u32).collect();
    let t = Instant::now();
    let mut check = 0usize;
    for s in &samples {
        let i = std::hint::black_box(s).inputs(&layout);
        check += i.ours[..i.len].iter().map(|&x| x as usize).sum::<usize>();
    }
    println!(
        "decoding the inputs: {:.2}M pos/s ({check})",
        samples.len() as f64 / t.elapsed().as_secs_f64() / 1e6
    );
    for isa in Isa::available() {
        let mut work = Work::new(hidden, config.output_buckets, state.net.rows());
        let t = Instant::now();
        for c in ids.chunks(CHUNK) {
            gradient::loss_sum(isa, &state.net, &obj, &samples, c, &mut work);
        }
        let forward = samples.len() as f64 / t.elapsed().as_secs_f64();
        let t = Instant::now();
        for c in ids.chunks(CHUNK) {
            work.grad.clear();
            gradient::accumulate_gradient(isa, &state.net, &obj, &samples, c, 1e-4, &mut work);
        }
        let both = samples.len() as f64 / t.elapsed().as_secs_f64();
        println!(
            "{:>8}, one thread: forward {:.2}M pos/s, forward + backward {:.2}M pos/s",
            isa.name(),
            forward / 1e6,
            both / 1e6
        );
    }
    let mut trainer = Trainer::new(config.clone(), state);
    let t = Instant::now();
    for batch in ids.chunks(config.batch) {
        trainer.step(&samples, batch, 0.001);
    }
    println!(
        "whole steps ({} loops, {} threads, batch {}): {:.2}M pos/s",
        trainer.isa.name(),
        rayon::current_num_threads(),
        config.batch,
        samples.len() as f64 / t.elapsed().as_secs_f64() / 1e6
    );
}
