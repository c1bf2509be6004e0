//! The accumulator stack's ways out: when it is asked for a position it does not hold (no
//! search reset it, another position at a ply, a ply past its end, a "move" between unrelated
//! positions), it computes from scratch. A search never takes them (tests/nnue.rs checks that
//! it doesn't), so here each is forced, and its score compared with a full recomputation.

use chess::{Color, Position};
use engine::eval::nnue::inputs::for_each_active;
use engine::eval::nnue::{Network, NnueEvaluator, embedded};

/// The score from scratch, by the reference code.
fn scratch(net: &Network, pos: &Position) -> i32 {
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for_each_active(pos, &net.layout, |w, b| {
        white.push(w);
        black.push(b);
    });
    match pos.side_to_move() {
        Color::White => net.evaluate_inputs(&white, &black),
        Color::Black => net.evaluate_inputs(&black, &white),
    }
}

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

/// The position after `mv` (in UCI notation).
fn after(pos: &Position, mv: &str) -> Position {
    let mut child = pos.clone();
    child.make_move(pos.parse_uci_move(mv).unwrap());
    child
}

const MIDDLEGAME: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// A ply past the end of any stack a search makes.
const FAR: usize = 10_000;

#[test]
fn every_way_out_of_the_stack_gives_the_score_from_scratch() {
    let net = embedded();
    let start = Position::startpos();
    let e4 = after(&start, "e2e4");
    let other = position(MIDDLEGAME);
    let mut eval = NnueEvaluator::new(net.clone());
    let expect = |eval: &mut NnueEvaluator, pos: &Position, ply: usize, refreshes: u64| {
        assert_eq!(
            eval.evaluate(pos, ply),
            scratch(&net, pos),
            "{}",
            pos.to_fen()
        );
        assert_eq!(eval.refreshes(), refreshes, "{} at ply {ply}", pos.to_fen());
    };

    // No reset: a move is noted, but nothing below it was ever computed.
    eval.push(&start, &e4, 0);
    expect(&mut eval, &e4, 1, 1);

    // Reset, then asked for another position than the one the stack holds at a ply.
    eval.reset(&start);
    expect(&mut eval, &start, 0, 1);
    expect(&mut eval, &other, 0, 2);
    // The stack still holds what it held: the next move is updated, not recomputed.
    eval.push(&start, &e4, 0);
    expect(&mut eval, &e4, 1, 2);

    // A ply past the stack's end.
    expect(&mut eval, &other, FAR, 3);
    // A move noted past the end is dropped, and its position answered from scratch.
    eval.push(&other, &after(&other, "e2a6"), FAR - 1);
    expect(&mut eval, &after(&other, "e2a6"), FAR, 4);

    // Two unrelated positions as parent and child: the child is computed afresh when noted
    // (not counted as an answer from scratch), and moves after it are updated from it.
    eval.reset(&start);
    eval.push(&start, &other, 0);
    expect(&mut eval, &other, 1, 4);
    let next = after(&other, "e1g1");
    eval.push(&other, &next, 1);
    expect(&mut eval, &next, 2, 4);
}
