//! Draws by rule: fifty moves, insufficient material, repetition.

use crate::bitboard::Bitboard;
use crate::piece::PieceType;
use crate::position::Position;

/// Why a game is drawn by rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    Stalemate,
    FiftyMoves,
    InsufficientMaterial,
    Repetition,
}

/// The light squares (b1, a2, ...): a bishop never leaves its square colour.
const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);

impl Position {
    /// Fifty moves by each side without a capture or a pawn move, unless the last move mated.
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove_clock >= 100 && (!self.is_check() || self.has_legal_moves())
    }

    /// Neither side can ever mate, whatever is played: bare kings, a single minor piece, or only
    /// bishops that all stand on squares of one colour.
    pub fn has_insufficient_material(&self) -> bool {
        let heavy = self.pieces_of_type(PieceType::Pawn)
            | self.pieces_of_type(PieceType::Rook)
            | self.pieces_of_type(PieceType::Queen);
        if heavy.is_nonempty() {
            return false;
        }
        let knights = self.pieces_of_type(PieceType::Knight);
        let bishops = self.pieces_of_type(PieceType::Bishop);
        let minors = knights | bishops;
        !minors.has_many()
            || (knights.is_empty()
                && ((bishops & LIGHT_SQUARES).is_empty() || (bishops & !LIGHT_SQUARES).is_empty()))
    }
}

/// How many times the position with hash `key` occurred before, within the last `halfmove_clock`
/// positions of `history` (the hashes of the earlier positions of the game, oldest first, not
/// including the current one). Only positions with the same side to move are compared. A count of
/// 2 or more is a threefold repetition.
pub fn repetitions(history: &[u64], key: u64, halfmove_clock: u32) -> usize {
    let reach = (halfmove_clock as usize).min(history.len());
    history[history.len() - reach..]
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&k| k == key)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insufficient_material_cases() {
        let dead = [
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
            "4kb2/8/8/8/8/8/8/4K3 w - - 0 1",
            // Bishops all on dark squares (a3, c1).
            "4k3/8/8/8/8/B7/8/2B1K3 w - - 0 1",
        ];
        for fen in dead {
            assert!(
                Position::from_fen(fen).unwrap().has_insufficient_material(),
                "{fen}"
            );
        }
        let alive = [
            "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1",
            "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",
            "4k3/8/8/8/8/8/8/4KNN1 w - - 0 1",
            "4k3/p7/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
        ];
        for fen in alive {
            assert!(
                !Position::from_fen(fen).unwrap().has_insufficient_material(),
                "{fen}"
            );
        }
    }

    #[test]
    fn threefold_by_knight_shuffle() {
        let mut pos = Position::startpos();
        let mut history = Vec::new();
        let mut counts = Vec::new();
        for uci in [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ] {
            let mv = pos.parse_uci_move(uci).unwrap();
            history.push(pos.hash());
            pos.make_move(mv);
            counts.push(repetitions(&history, pos.hash(), pos.halfmove_clock()));
        }
        assert_eq!(counts, vec![0, 0, 0, 1, 1, 1, 1, 2]);
    }

    #[test]
    fn fifty_moves_but_not_when_mated() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 100 80").unwrap();
        assert!(pos.is_fifty_move_draw());
        let mated = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80").unwrap();
        assert!(!mated.is_fifty_move_draw());
    }
}
