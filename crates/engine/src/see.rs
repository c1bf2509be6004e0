//! Static exchange evaluation (SEE): what a move wins or loses in material once the captures
//! on its destination square have run their course. Both sides bring in their cheapest attacker
//! each time and either may break the sequence off where carrying on would cost it. Nothing is
//! searched and nothing evaluated, so every capture can afford it: the move picker sorts losing
//! captures to the back with it, and the pruning drops moves it marks as losing.

use chess::{Bitboard, Color, Move, MoveKind, PieceType, Position, Square};

// ANCHOR: see_values
/// Piece values for exchanges: pawn, knight, bishop, rook, queen, king (a king is never taken).
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];
// ANCHOR_END: see_values

#[inline]
fn value(piece_type: PieceType) -> i32 {
    SEE_VALUES[piece_type.index()]
}

/// The least valuable piece of `ours` (attackers of one side), and its square.
#[inline]
fn least_valuable(pos: &Position, ours: Bitboard) -> Option<(PieceType, Square)> {
    PieceType::ALL.into_iter().find_map(|piece_type| {
        let set = ours & pos.pieces_of_type(piece_type);
        (!set.is_empty()).then(|| (piece_type, set.lsb()))
    })
}

/// Every piece still on the board (`occupied`) that attacks `to`. Called again after each capture
/// with the capturer lifted off, so that a slider lined up behind it (an x-ray) comes into play.
#[inline]
fn attackers_through(pos: &Position, to: Square, occupied: Bitboard) -> Bitboard {
    pos.attackers_to(to, occupied) & occupied
}

// ANCHOR: first_capture
/// What the move captures first and what it leaves on the square: (gain, piece on the square,
/// occupancy after the move). `None` for castling, which exchanges nothing.
#[inline]
fn first_capture(pos: &Position, mv: Move) -> Option<(i32, PieceType, Bitboard, Color)> {
    let from = mv.from();
    let to = mv.to();
    let mover = pos.piece_at(from)?;
    let mut occupied = pos.occupied().without(from);
    let mut gain = match mv.kind() {
        MoveKind::Castle => return None,
        MoveKind::EnPassant => {
            occupied = occupied.without(Square::new(to.file(), from.rank()));
            value(PieceType::Pawn)
        }
        _ => pos.piece_at(to).map_or(0, |p| value(p.piece_type)),
    };
    let on_square = match mv.promotion() {
        Some(promoted) => {
            gain += value(promoted) - value(PieceType::Pawn);
            promoted
        }
        None => mover.piece_type,
    };
    Some((gain, on_square, occupied, mover.color))
}
// ANCHOR_END: first_capture

// ANCHOR: see
/// The exchange's value in centipawns for the side playing `mv`, negative when it comes out
/// behind. A move that takes nothing is worth 0 at best, and below 0 when the moved piece stands
/// where the opponent wins material by taking it. Pins and checks don't exist for it; castling
/// is worth 0.
pub fn see(pos: &Position, mv: Move) -> i32 {
    let Some((first_gain, mut on_square, mut occupied, mover)) = first_capture(pos, mv) else {
        return 0;
    };
    let to = mv.to();
    // gains[i]: the material of the side that made capture i, if the exchange stops after it.
    let mut gains = [0i32; 32];
    gains[0] = first_gain;
    let mut count = 1;
    let mut side = !mover;
    let mut attackers = attackers_through(pos, to, occupied);
    while count < gains.len() {
        let Some((piece_type, square)) = least_valuable(pos, attackers & pos.pieces_of_color(side))
        else {
            break;
        };
        // This side takes the piece on the square with its least valuable attacker.
        gains[count] = value(on_square) - gains[count - 1];
        count += 1;
        on_square = piece_type;
        occupied = occupied.without(square);
        attackers = attackers_through(pos, to, occupied);
        side = !side;
        // Taking with the king is legal only if no recapture is left: otherwise cancel that
        // capture and end the exchange before it.
        if piece_type == PieceType::King && !(attackers & pos.pieces_of_color(side)).is_empty() {
            count -= 1;
            break;
        }
    }
    // Backwards: each side may decline to go on with the exchange.
    while count > 1 {
        count -= 1;
        gains[count - 1] = gains[count - 1].min(-gains[count]);
    }
    gains[0]
}
// ANCHOR_END: see

// ANCHOR: see_ge
/// Whether `see(pos, mv) >= threshold`, found without building the whole exchange: the same game
/// played as a yes-or-no question, which usually settles after a capture or two. The pruning asks
/// exactly this question, so it gets the faster answer.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    let to = mv.to();
    let Some((first_gain, mut on_square, mut occupied, mover)) = first_capture(pos, mv) else {
        return 0 >= threshold;
    };
    // The mover's material so far; the opponent moves next.
    let mut balance = first_gain;
    let mut side = !mover;
    let mut attackers = attackers_through(pos, to, occupied);
    loop {
        if side != mover {
            // The opponent may stop now, keeping us short; or we stay ahead even if it takes.
            if balance < threshold {
                return false;
            }
            if balance - value(on_square) >= threshold {
                return true;
            }
        } else if balance + value(on_square) < threshold {
            // Even taking back leaves us short, and the opponent could stop right after.
            return false;
        }
        // The side to move must capture to change the verdict; without a capture it stops, and
        // the verdict stands: good for us if the opponent is the one who can't go on.
        let Some((piece_type, square)) = least_valuable(pos, attackers & pos.pieces_of_color(side))
        else {
            return side != mover;
        };
        occupied = occupied.without(square);
        attackers = attackers_through(pos, to, occupied);
        if piece_type == PieceType::King && !(attackers & pos.pieces_of_color(!side)).is_empty() {
            return side != mover;
        }
        balance += if side == mover {
            value(on_square)
        } else {
            -value(on_square)
        };
        on_square = piece_type;
        side = !side;
    }
}
// ANCHOR_END: see_ge
