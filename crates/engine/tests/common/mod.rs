//! What several tablebase tests (and the probe-speed example) share: random positions of a given
//! material.

use chess::Position;
use chess::rng::Rng;

/// `pieces` (FEN letters, upper case for White, kings included) on random empty squares, pawns
/// off the first and last ranks, the side to move at random, halfmove clock 0: the position, or
/// `None` when the placement is illegal (a king in check with the other side to move, ...).
pub fn random_placement(rng: &mut Rng, pieces: &[char]) -> Option<Position> {
    let mut board = ['.'; 64];
    for &c in pieces {
        loop {
            let s = (rng.next_u64() % 64) as usize;
            let pawn_rank = c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&s);
            if board[s] == '.' && !pawn_rank {
                board[s] = c;
                break;
            }
        }
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for &c in &board[rank * 8..rank * 8 + 8] {
            if c == '.' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
                empty = 0;
            }
            fen.push(c);
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if rng.next_u64().is_multiple_of(2) {
        " w - - 0 1"
    } else {
        " b - - 0 1"
    });
    Position::from_fen(&fen).ok()
}
