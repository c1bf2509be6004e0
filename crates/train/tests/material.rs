//! Test 1: on positions labelled only by material, the network learns the material: the loss
//! falls by a large factor and the pieces' learnt values come out in the right order.

mod common;

use chess::rng::Rng;
use chess::{Color, PieceType};
use common::*;
use engine::eval::nnue::network::SCALE;
use train::Config;
use train::data::{Dataset, Sample};
use train::trainer::{State, Trainer};

#[test]
fn a_small_net_learns_material_values_in_order() {
    let config = Config {
        data: vec!["synthetic".into()],
        hidden: 32,
        epochs: 6,
        batch: 1024,
        lr: 0.005,
        wdl: 0.0,
        weight_decay: 0.0,
        seed: 5,
        ..Config::default()
    };
    let data = Dataset {
        train: material_samples(200_000, 1),
        validation: material_samples(5_000, 2),
    };
    let mut trainer = Trainer::new(config.clone(), State::new(&config));
    let before = trainer.mean_loss(&data.validation).unwrap();
    for _ in 0..config.epochs {
        trainer.epoch(&data, &mut |_, _| {});
    }
    let after = trainer.mean_loss(&data.validation).unwrap();
    eprintln!("validation loss {before:.6} -> {after:.6}");
    assert!(after < before / 20.0, "{before} -> {after}");

    // A piece's value: the net's score with the piece added for the side to move, minus
    // without it, averaged over random squares for it and both kings.
    let net = &trainer.state.net;
    let mut rng = Rng::new(9);
    let kinds = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ];
    let mut learnt = [0.0f64; 5];
    let trials = 300;
    for _ in 0..trials {
        let (mut kings, _) = random_pieces(&mut rng, 0);
        let stm = Color::ALL[rng.below(2)];
        let bare = Sample::new(&kings, stm, 0, 1).unwrap();
        let (o, t) = inputs(&bare, &net.layout);
        let base = net.forward(&o, &t) as f64;
        for (i, &kind) in kinds.iter().enumerate() {
            let sq = free_square(&mut rng, &kings, kind);
            kings.push((stm, kind, sq));
            let with = Sample::new(&kings, stm, 0, 1).unwrap();
            kings.pop();
            let (o, t) = inputs(&with, &net.layout);
            learnt[i] += (net.forward(&o, &t) as f64 - base) * SCALE as f64 / trials as f64;
        }
    }
    eprintln!("learnt P N B R Q: {learnt:.0?}");
    let [p, n, b, r, q] = learnt;
    assert!(
        p > 0.0 && p < n && p < b && n < r && b < r && r < q,
        "{learnt:?}"
    );
    // Near the true values, too (the sigmoid flattens big material, so allow 10%).
    for (v, kind) in learnt.iter().zip(kinds) {
        let t = value(kind) as f64;
        assert!((v - t).abs() < 0.1 * t, "{kind:?}: {v:.0} for {t}");
    }
}
