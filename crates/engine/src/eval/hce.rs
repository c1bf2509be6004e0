//! The hand-crafted evaluation (stage 16): material, piece-square tables, mobility, the bishop
//! pair, pawn structure, passed pawns, rooks on open files, outposts, threats, king safety, space
//! and tempo, tapered between middlegame and endgame, with drawish endgames scaled down.
//!
//! Every term counts features (see `weights.rs`); the weights come from the tuner.

use super::feature_sink::{Counts, FeatureSink, Sum};
use super::masks::{
    attack_span, distance, forward, outpost_ranks, passed_span, relative_rank, relative_square,
    space_area,
};
use super::pawns::{PawnCache, pawn_structure};
use super::score_pair::S;
use super::weights::*;
use super::{EvalTrace, Evaluator, MAX_PHASE, Term};
use chess::{
    Bitboard, Color, PieceType, Position, Square, bishop_attacks, king_attacks, knight_attacks,
    pawn_attacks, rook_attacks,
};

/// What each piece type adds to the game phase.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// What a side's attacks cover, built once and read by the later terms.
#[derive(Default, Clone, Copy)]
struct Attacks {
    by_type: [Bitboard; 6],
    all: Bitboard,
}

/// The scale of the endgame half, out of `SCALE_NORMAL`.
pub const SCALE_NORMAL: i32 = 128;

// ANCHOR: taper
/// The final blend: middlegame and endgame weighted by phase, the endgame part scaled for
/// drawish material.
#[inline]
pub fn blend(score: S, phase: i32, scale: i32) -> i32 {
    let phase = phase.clamp(0, MAX_PHASE);
    (score.mg() * phase + score.eg() * (MAX_PHASE - phase) * scale / SCALE_NORMAL) / MAX_PHASE
}
// ANCHOR_END: taper

/// The hand-crafted evaluation, with its pawn cache.
#[derive(Default)]
pub struct HceEvaluator {
    pawns: PawnCache,
}

/// Everything about a position's evaluation except the weights: feature counts per colour, the
/// phase and the endgame scale. What the tuner fits the weights to.
pub struct Trace {
    pub counts: Counts,
    pub phase: i32,
    pub scale: i32,
}

// ANCHOR: trace
/// The feature counts of a position (for the tuner and the `eval` command).
pub fn trace(pos: &Position) -> Trace {
    let mut counts = Counts::default();
    let passed = pawn_structure(pos, &mut counts);
    let phase = evaluate_pieces(pos, &mut counts, passed);
    let scale = scale(pos, counts.score());
    Trace {
        counts,
        phase,
        scale,
    }
}
// ANCHOR_END: trace

impl HceEvaluator {
    // ANCHOR: evaluate
    #[inline(always)]
    fn evaluate_inline(&mut self, pos: &Position) -> i32 {
        let (pawn_score, passed) = self.pawns.probe(pos);
        let mut sum = Sum { score: pawn_score };
        let phase = evaluate_pieces(pos, &mut sum, passed);
        let scale = scale(pos, sum.score);
        blend(sum.score, phase, scale) * pos.side_to_move().sign()
    }
    // ANCHOR_END: evaluate

    // ANCHOR: popcnt
    /// The same evaluation compiled to use the POPCNT instruction: the evaluation counts squares
    /// dozens of times, and the portable build (any x86-64) counts each set with a dozen
    /// instructions instead of one.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn evaluate_popcnt(&mut self, pos: &Position) -> i32 {
        self.evaluate_inline(pos)
    }
    // ANCHOR_END: popcnt
}

impl Evaluator for HceEvaluator {
    fn evaluate(&mut self, pos: &Position, _ply: usize) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has POPCNT, just checked (std caches the answer).
            return unsafe { self.evaluate_popcnt(pos) };
        }
        self.evaluate_inline(pos)
    }

    fn trace(&mut self, pos: &Position) -> EvalTrace {
        let t = trace(pos);
        let mut terms: Vec<Term> = Vec::new();
        for info in FEATURES {
            let (mut white, mut black) = (S::ZERO, S::ZERO);
            for f in info.start..info.start + info.len {
                let [w, b] = t.counts.counts[f];
                white += weight(f) * w;
                black += weight(f) * b;
            }
            match terms.iter_mut().find(|term| term.name == info.group) {
                Some(term) => {
                    term.white += white;
                    term.black += black;
                }
                None => terms.push(Term {
                    name: info.group,
                    white,
                    black,
                }),
            }
        }
        EvalTrace {
            terms,
            phase: t.phase,
            scale: t.scale,
            white_score: blend(t.counts.score(), t.phase, t.scale),
            side_to_move: pos.side_to_move(),
        }
    }
}

/// Every term but the pawn structure (cached separately); returns the phase.
#[inline(always)]
fn evaluate_pieces<A: FeatureSink>(pos: &Position, acc: &mut A, passed: [Bitboard; 2]) -> i32 {
    let occupied = pos.occupied();
    let mut attacks = [Attacks::default(); 2];
    let mut phase = 0;

    // ANCHOR: attacks
    // Pawns' and kings' attacks first: mobility and king safety need them.
    for color in Color::ALL {
        let a = &mut attacks[color.index()];
        let pawns = pos.pieces(PieceType::Pawn, color);
        a.by_type[PieceType::Pawn.index()] =
            pawns.fold(Bitboard::EMPTY, |b, sq| b | pawn_attacks(color, sq));
        a.by_type[PieceType::King.index()] = king_attacks(pos.king_square(color));
        a.all = a.by_type[PieceType::Pawn.index()] | a.by_type[PieceType::King.index()];
    }

    for color in Color::ALL {
        let them = !color;
        let their_king = pos.king_square(them);
        let king_zone = king_attacks(their_king).with(their_king);
        let our_pawns = pos.pieces(PieceType::Pawn, color);
        let their_pawns = pos.pieces(PieceType::Pawn, them);
        // Where a piece's moves count: not onto our own pawns or king, not where an enemy pawn takes.
        let mobility_area = !(our_pawns | pos.pieces(PieceType::King, color))
            & !attacks[them.index()].by_type[PieceType::Pawn.index()];
        // ANCHOR_END: attacks

        // ANCHOR: material
        for piece in PieceType::ALL {
            for sq in pos.pieces(piece, color) {
                acc.add(MATERIAL + piece.index(), color, 1);
                acc.add(
                    PST + piece.index() * 64 + relative_square(color, sq).index(),
                    color,
                    1,
                );
                phase += PHASE[piece.index()];
            }
        }
        // ANCHOR_END: material

        // ANCHOR: pieces
        for (piece, mobility) in [
            (PieceType::Knight, MOBILITY_KNIGHT),
            (PieceType::Bishop, MOBILITY_BISHOP),
            (PieceType::Rook, MOBILITY_ROOK),
            (PieceType::Queen, MOBILITY_QUEEN),
        ] {
            for sq in pos.pieces(piece, color) {
                let reach = match piece {
                    PieceType::Knight => knight_attacks(sq),
                    PieceType::Bishop => bishop_attacks(sq, occupied),
                    PieceType::Rook => rook_attacks(sq, occupied),
                    _ => bishop_attacks(sq, occupied) | rook_attacks(sq, occupied),
                };
                let a = &mut attacks[color.index()];
                a.by_type[piece.index()] |= reach;
                a.all |= reach;
                acc.add(
                    mobility + (reach & mobility_area).popcount() as usize,
                    color,
                    1,
                );
                let zone_hits = (reach & king_zone).popcount() as i32;
                if zone_hits > 0 {
                    acc.add(KING_ZONE_ATTACKS + piece.index() - 1, color, zone_hits);
                }
                match piece {
                    PieceType::Rook => {
                        let file = Bitboard::file(sq.file());
                        if (file & our_pawns).is_empty() {
                            acc.add(
                                if (file & their_pawns).is_empty() {
                                    ROOK_OPEN
                                } else {
                                    ROOK_HALF_OPEN
                                },
                                color,
                                1,
                            );
                        }
                    }
                    PieceType::Knight | PieceType::Bishop => {
                        // An outpost: in the enemy half, defended by a pawn, out of reach of enemy pawns.
                        let defended = (pawn_attacks(them, sq) & our_pawns).is_nonempty();
                        if outpost_ranks(color).contains(sq)
                            && defended
                            && (attack_span(color, sq) & their_pawns).is_empty()
                        {
                            let feature = if piece == PieceType::Knight {
                                OUTPOST_KNIGHT
                            } else {
                                OUTPOST_BISHOP
                            };
                            acc.add(feature, color, 1);
                        }
                    }
                    _ => {}
                }
            }
        }
        if pos.pieces(PieceType::Bishop, color).has_many() {
            acc.add(BISHOP_PAIR, color, 1);
        }
        // ANCHOR_END: pieces
    }

    // ANCHOR: space_tempo
    for color in Color::ALL {
        threats(pos, acc, color, &attacks);
        king_safety(pos, acc, color, &attacks);
        passed_pawns(pos, acc, color, passed[color.index()], &attacks);
        let safe = space_area(color)
            & !attacks[(!color).index()].by_type[PieceType::Pawn.index()]
            & !pos.pieces(PieceType::Pawn, color);
        acc.add(SPACE, color, safe.popcount() as i32);
    }
    acc.add(TEMPO, pos.side_to_move(), 1);
    phase.min(MAX_PHASE)
    // ANCHOR_END: space_tempo
}

// ANCHOR: threats
/// Enemy pieces attacked by our pawns, minor pieces and rooks (by the victim's type), and enemy
/// pieces attacked and not defended at all.
#[inline(always)]
fn threats<A: FeatureSink>(pos: &Position, acc: &mut A, color: Color, attacks: &[Attacks; 2]) {
    let ours = &attacks[color.index()];
    let theirs = &attacks[(!color).index()];
    let by_minor =
        ours.by_type[PieceType::Knight.index()] | ours.by_type[PieceType::Bishop.index()];
    for victim in [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ] {
        let targets = pos.pieces(victim, !color);
        let v = victim.index();
        let count = |by: Bitboard| (targets & by).popcount() as i32;
        acc.add(
            THREAT_BY_PAWN + v,
            color,
            count(ours.by_type[PieceType::Pawn.index()]),
        );
        acc.add(THREAT_BY_MINOR + v, color, count(by_minor));
        acc.add(
            THREAT_BY_ROOK + v,
            color,
            count(ours.by_type[PieceType::Rook.index()]),
        );
    }
    let their_pieces = pos.pieces_of_color(!color) & !pos.pieces(PieceType::King, !color);
    acc.add(
        HANGING,
        color,
        (their_pieces & ours.all & !theirs.all).popcount() as i32,
    );
}
// ANCHOR_END: threats

// ANCHOR: king_safety
/// `color` attacking the enemy king: safe checks and weak squares around it. And `color`'s own
/// king: the pawns that shield it and the enemy pawns that storm it.
#[inline(always)]
fn king_safety<A: FeatureSink>(pos: &Position, acc: &mut A, color: Color, attacks: &[Attacks; 2]) {
    let them = !color;
    let ours = &attacks[color.index()];
    let theirs = &attacks[them.index()];
    let occupied = pos.occupied();
    let their_king = pos.king_square(them);

    // Squares from which a piece could check, that the enemy doesn't defend and we don't occupy.
    let safe = !theirs.all & !pos.pieces_of_color(color);
    let bishop_lines = bishop_attacks(their_king, occupied);
    let rook_lines = rook_attacks(their_king, occupied);
    let checks = [
        knight_attacks(their_king) & ours.by_type[PieceType::Knight.index()],
        bishop_lines & ours.by_type[PieceType::Bishop.index()],
        rook_lines & ours.by_type[PieceType::Rook.index()],
        (bishop_lines | rook_lines) & ours.by_type[PieceType::Queen.index()],
    ];
    for (i, squares) in checks.into_iter().enumerate() {
        acc.add(SAFE_CHECKS + i, color, (squares & safe).popcount() as i32);
    }
    // Squares next to the enemy king that we attack and only its king or queen defends.
    let defenders = theirs.by_type[PieceType::Pawn.index()]
        | theirs.by_type[PieceType::Knight.index()]
        | theirs.by_type[PieceType::Bishop.index()]
        | theirs.by_type[PieceType::Rook.index()];
    let weak = king_attacks(their_king) & ours.all & !defenders;
    acc.add(WEAK_KING_SQUARES, color, weak.popcount() as i32);

    // Our king's shelter: on its file and the two beside, our nearest pawn in front of it and the
    // nearest enemy pawn coming.
    let king = pos.king_square(color);
    let king_rank = relative_rank(color, king) as i32;
    let file = king.file().index() as i32;
    for f in (file - 1).max(0)..=(file + 1).min(7) {
        let column = Bitboard::file(chess::File::new(f as u8));
        let ahead = passed_span(color, king) & column;
        let nearest = |pawns: Bitboard| {
            pawns
                .map(|sq| relative_rank(color, sq) as i32 - king_rank)
                .min()
                .map_or(0, |d| d.clamp(1, 7) as usize)
        };
        acc.add(
            SHIELD + nearest(ahead & pos.pieces(PieceType::Pawn, color)),
            color,
            1,
        );
        acc.add(
            STORM + nearest(ahead & pos.pieces(PieceType::Pawn, them)),
            color,
            1,
        );
    }
}
// ANCHOR_END: king_safety

// ANCHOR: passed_pawns
/// Passed pawns: by rank, blocked or free to run, the kings' distances to the square in front,
/// and a pawn the enemy king can no longer catch when the enemy has only pawns.
#[inline(always)]
fn passed_pawns<A: FeatureSink>(
    pos: &Position,
    acc: &mut A,
    color: Color,
    passed: Bitboard,
    attacks: &[Attacks; 2],
) {
    let them = !color;
    let occupied = pos.occupied();
    let up = if color == Color::White { 1 } else { -1 };
    let their_pieces = pos.pieces_of_color(them)
        & !pos.pieces(PieceType::Pawn, them)
        & !pos.pieces(PieceType::King, them);
    for sq in passed {
        let rank = relative_rank(color, sq);
        acc.add(PASSED + rank, color, 1);
        let Some(stop) = sq.offset(0, up) else {
            continue;
        };
        if occupied.contains(stop) {
            acc.add(PASSED_BLOCKED + rank, color, 1);
        }
        let path = forward(color, sq);
        if (path & occupied).is_empty() && (path & attacks[them.index()].all).is_empty() {
            acc.add(PASSED_FREE + rank, color, 1);
        }
        acc.add(
            PASSED_OWN_KING + rank,
            color,
            distance(pos.king_square(color), stop),
        );
        acc.add(
            PASSED_ENEMY_KING + rank,
            color,
            distance(pos.king_square(them), stop),
        );
        // The rule of the square: the enemy king can't reach the promotion square in time.
        if their_pieces.is_empty() && (path & pos.pieces_of_color(color)).is_empty() {
            let promotion = Square::new(sq.file(), chess::back_rank(them));
            let moves = (7 - rank as i32) - (rank == 1) as i32;
            let tempo = (pos.side_to_move() == them) as i32;
            if distance(pos.king_square(them), promotion) - tempo > moves {
                acc.add(PASSED_UNSTOPPABLE, color, 1);
            }
        }
    }
}
// ANCHOR_END: passed_pawns

// ANCHOR: scale
/// How much of the endgame score to keep (out of 128) when the material is drawish: opposite-
/// coloured bishops, a side ahead by no more than a minor piece with no pawns left, or a side
/// with nothing but one or two knights.
#[inline(always)]
fn scale(pos: &Position, score: S) -> i32 {
    let strong = if score.eg() >= 0 {
        Color::White
    } else {
        Color::Black
    };
    let weak = !strong;
    let material = |c: Color| {
        3 * (pos.pieces(PieceType::Knight, c) | pos.pieces(PieceType::Bishop, c)).popcount() as i32
            + 5 * pos.pieces(PieceType::Rook, c).popcount() as i32
            + 9 * pos.pieces(PieceType::Queen, c).popcount() as i32
    };
    if pos.pieces(PieceType::Pawn, strong).is_empty() {
        // Two knights can't force mate, so knights alone are not enough either.
        let knights_only = material(strong)
            == 3 * pos.pieces(PieceType::Knight, strong).popcount() as i32
            && material(strong) <= 6;
        if knights_only || material(strong) - material(weak) <= 3 {
            return SCALE_NORMAL / 8;
        }
    }
    let light = Bitboard(0x55aa_55aa_55aa_55aa);
    let bishops = |c: Color| pos.pieces(PieceType::Bishop, c);
    let only_bishops = material(Color::White) == 3
        && material(Color::Black) == 3
        && bishops(Color::White).popcount() == 1
        && bishops(Color::Black).popcount() == 1;
    if only_bishops
        && ((bishops(Color::White) & light).is_empty()
            != (bishops(Color::Black) & light).is_empty())
    {
        return SCALE_NORMAL / 2;
    }
    SCALE_NORMAL
}
// ANCHOR_END: scale

#[cfg(test)]
mod tests {
    use super::*;

    fn scale_of(fen: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let mut eval = HceEvaluator::default();
        eval.trace(&pos).scale
    }

    #[test]
    fn drawish_material_is_scaled_down() {
        // Two knights, a lone knight, a bishop: no mate can be forced.
        assert_eq!(
            scale_of("8/8/4k3/8/8/8/8/1N2K1N1 w - - 0 1"),
            SCALE_NORMAL / 8
        );
        assert_eq!(
            scale_of("8/8/4k3/8/8/8/8/1n2K1n1 b - - 0 1"),
            SCALE_NORMAL / 8
        );
        assert_eq!(
            scale_of("8/8/4k3/8/8/8/8/4K1N1 w - - 0 1"),
            SCALE_NORMAL / 8
        );
        assert_eq!(scale_of("8/8/4k3/8/8/8/8/4KB2 w - - 0 1"), SCALE_NORMAL / 8);
        // A rook against a minor piece.
        assert_eq!(
            scale_of("8/8/4k3/3b4/8/8/8/R3K3 w - - 0 1"),
            SCALE_NORMAL / 8
        );
        // Opposite-coloured bishops, a pawn up.
        assert_eq!(
            scale_of("8/5k2/8/1P1b4/8/2B5/8/4K3 w - - 0 1"),
            SCALE_NORMAL / 2
        );
    }

    #[test]
    fn winning_material_is_not_scaled() {
        // Bishop and knight, two bishops, a rook: mate can be forced.
        assert_eq!(scale_of("8/8/4k3/8/8/8/8/2B1K1N1 w - - 0 1"), SCALE_NORMAL);
        assert_eq!(scale_of("8/8/4k3/8/8/8/8/2B1KB2 w - - 0 1"), SCALE_NORMAL);
        assert_eq!(scale_of("8/8/4k3/8/8/8/8/R3K3 w - - 0 1"), SCALE_NORMAL);
        // Three knights can mate; a pawn keeps winning chances.
        assert_eq!(scale_of("8/8/4k3/8/8/8/8/1N1NK1N1 w - - 0 1"), SCALE_NORMAL);
        assert_eq!(
            scale_of("8/8/4k3/8/8/8/4P3/1N2K1N1 w - - 0 1"),
            SCALE_NORMAL
        );
    }
}
