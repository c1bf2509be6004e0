//! The accumulator stack's ways out: when it is asked for a position it does not hold (no
//! search reset it, another position at a ply, a ply past its end, a "move" between unrelated
//! positions), it computes from scratch. A search never takes them (tests/nnue.rs checks that
//! it doesn't), so here each is forced, and its score compared with a full recomputation, with
//! the embedded net and with a net of four king buckets, mirrored.

use chess::{Color, Position};
use engine::eval::nnue::inputs::{Layout, for_each_active};
use engine::eval::nnue::{Network, NnueEvaluator, embedded};
use std::sync::Arc;

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

/// The embedded net's weights in four king buckets, mirrored: each bucket's copy of the first
/// layer shifted by its own amount, so that a wrong bucket shows in the score.
fn bucketed() -> Arc<Network> {
    let plain = embedded();
    let mut net = (*plain).clone();
    net.layout = Layout::named(4, true).unwrap();
    net.w1 = (0..4i16)
        .flat_map(|b| plain.w1.iter().map(move |w| w.wrapping_add(3 * b)))
        .collect();
    assert!(net.validate().is_ok());
    Arc::new(net)
}

#[test]
fn every_way_out_of_the_stack_gives_the_score_from_scratch() {
    ways_out(embedded());
    ways_out(bucketed());
}

fn ways_out(net: Arc<Network>) {
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

    // Unrelated positions whose difference looks like a move, the king's among it (e1 to d1,
    // the queen gone): in the bucketed net White's view changes half of the board and is
    // rebuilt through the cache; the plain net updates it like any move.
    let queenless = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBK1BNR w kq - 0 1");
    eval.reset(&start);
    let before = eval.rebuilds();
    eval.push(&start, &queenless, 0);
    expect(&mut eval, &queenless, 1, 4);
    let rebuilt = if net.layout == Layout::PLAIN { 0 } else { 1 };
    assert_eq!(eval.rebuilds() - before, rebuilt);
}
