//! The compact game format for the network's training data: a game's start position once, then
//! four bytes for each move the engine played.
//!
//! The 32-byte record format of [`crate::format`] stores every kept position whole, which suits
//! the Texel tuner but costs 32 bytes a position. Self-play for a network needs tens of millions
//! of positions, generated slowly on two cores and committed to the repository, so here a game
//! is stored as the moves that lead through it. A reader replays them and gets every position
//! back, with the search's score and best move for each, and decides at reading time which to
//! keep (no check, no capture or promotion as best move, no mate score: [`keep`]).
//!
//! # A game (little-endian)
//!
//! | bytes | what |
//! |-------|------|
//! | 32 | the position the engine started to play from (after the opening and the random plies), as a [`crate::format`] record; its score field is 0 and its result byte is the game's result from White's view |
//! | 4 × n | for each move played: the move's 16 bits ([`chess::Move::to_bits`]), then the search's score from White's view (`i16`, mate scores as the engine writes them, clamped) |
//! | 4 | four zero bytes: the end of the game (no move is 0) |
//!
//! A file is a concatenation of games. A game is written in one `write` when it ends, so a run
//! that is killed leaves at most an incomplete last game, which [`scan`] finds and the next run
//! cuts off before appending. The same scan validates every move against the rules, so a damaged
//! file is reported at the game where the damage starts rather than misread.

use crate::format::{self, GameResult, RECORD_SIZE, Record};
use chess::{Move, Position};
use std::path::Path;

/// The bytes of the end marker.
const END: [u8; 4] = [0; 4];

/// Bytes of one game with `moves` moves.
pub const fn game_size(moves: usize) -> usize {
    RECORD_SIZE + 4 * moves + END.len()
}

/// Appends one game to `out`: its start position, its result and each move with its score.
///
/// # Errors
/// A start position with more than 32 pieces (no legal position has that many).
pub fn encode_game(
    start: &Position,
    result: GameResult,
    moves: &[(Move, i32)],
    out: &mut Vec<u8>,
) -> Result<(), String> {
    out.extend_from_slice(&format::encode(start, 0, result)?);
    for &(mv, white_score) in moves {
        let score = white_score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        out.extend_from_slice(&mv.to_bits().to_le_bytes());
        out.extend_from_slice(&score.to_le_bytes());
    }
    out.extend_from_slice(&END);
    Ok(())
}

/// One position of a game, as a reader sees it.
pub struct Ply<'a> {
    /// The position before the move.
    pub position: &'a Position,
    /// The move the engine played there (its search's best move).
    pub best_move: Move,
    /// The search's score, from White's view.
    pub score: i16,
    /// The game's result, from White's view.
    pub result: GameResult,
    /// The move's number in its game, from 0: a 0 starts a new game.
    pub index: u64,
}

/// Whether a position is one to train on, as the field filters them: the side to move is not in
/// check, the best move is neither a capture nor a promotion (so the score is a quiet one that a
/// static evaluation can learn) and the score is not a mate score.
pub fn keep(ply: &Ply) -> bool {
    !ply.position.is_check()
        && !ply.position.is_capture(ply.best_move)
        && ply.best_move.promotion().is_none()
        && !engine::score::is_mate(ply.score as i32)
}

/// What a scan of a file found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// Complete games.
    pub games: u64,
    /// Positions in them (one per move played).
    pub positions: u64,
    /// Bytes up to the end of the last complete game.
    pub complete_bytes: u64,
    /// The complete games' results from White's view, indexed by [`GameResult`] as a number
    /// (Black wins, draws, White wins).
    pub results: [u64; 3],
}

/// Walks every complete game of `bytes`, calling `visit` for each of its positions in order, and
/// stops at the first incomplete game (a torn tail: not an error).
///
/// # Errors
/// A game whose start record does not decode, or a move that is not legal where it stands:
/// the message gives the game's number and byte offset.
pub fn scan(bytes: &[u8], mut visit: impl FnMut(&Ply)) -> Result<Scan, String> {
    let mut scan = Scan::default();
    let mut at = 0usize;
    while at + RECORD_SIZE <= bytes.len() {
        let game_start = at;
        let bad = |what: String| format!("game {} at byte {game_start}: {what}", scan.games);
        let record: Record = bytes[at..at + RECORD_SIZE]
            .try_into()
            .map_err(|_| bad("short record".into()))?;
        let sample = format::decode(&record).map_err(bad)?;
        let mut pos = sample.position;
        let result = sample.result;
        at += RECORD_SIZE;
        let mut positions = 0u64;
        let mut complete = false;
        while at + 4 <= bytes.len() {
            let word = &bytes[at..at + 4];
            at += 4;
            if word == END {
                complete = true;
                break;
            }
            let bits = u16::from_le_bytes([word[0], word[1]]);
            let score = i16::from_le_bytes([word[2], word[3]]);
            let mv = Move::from_bits(bits)
                .filter(|&m| pos.legal_moves().contains(&m))
                .ok_or_else(|| {
                    bad(format!(
                        "move {positions}: bits {bits:#06x} are no legal move in {}",
                        pos.to_fen()
                    ))
                })?;
            visit(&Ply {
                position: &pos,
                best_move: mv,
                score,
                result,
                index: positions,
            });
            pos.make_move(mv);
            positions += 1;
        }
        if !complete {
            break;
        }
        scan.games += 1;
        scan.positions += positions;
        scan.results[result as usize] += 1;
        scan.complete_bytes = at as u64;
    }
    Ok(scan)
}

/// Reads a file and scans it (see [`scan`]).
///
/// # Errors
/// The file cannot be read, or it is damaged.
pub fn scan_file(path: &Path, visit: impl FnMut(&Ply)) -> Result<Scan, String> {
    let bytes = crate::files::read_regular_file(path, crate::files::ANY_SIZE)?;
    scan(&bytes, visit).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::rng::Rng;

    /// A start position, a result and the moves with their scores.
    type TestGame = (Position, GameResult, Vec<(Move, i32)>);

    fn encode_all(games: &[TestGame]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for (start, result, moves) in games {
            encode_game(start, *result, moves, &mut bytes).unwrap();
        }
        bytes
    }

    /// Random games, each with its positions, moves and invented scores.
    fn random_games(n: usize, seed: u64) -> Vec<TestGame> {
        let mut rng = Rng::new(seed);
        let results = [
            GameResult::WhiteWins,
            GameResult::Draw,
            GameResult::BlackWins,
        ];
        (0..n)
            .map(|i| {
                let mut pos = Position::startpos();
                for _ in 0..rng.below(12) {
                    let moves = pos.legal_moves();
                    pos.make_move(moves[rng.below(moves.len())]);
                }
                let start = pos.clone();
                let mut moves = Vec::new();
                for _ in 0..1 + rng.below(200) {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let mv = legal[rng.below(legal.len())];
                    let score = rng.below(80_000) as i32 - 40_000;
                    moves.push((mv, score));
                    pos.make_move(mv);
                }
                (start, results[i % 3], moves)
            })
            .collect()
    }

    #[test]
    fn games_round_trip() {
        let games = random_games(300, 5);
        let bytes = encode_all(&games);
        let expected: usize = games.iter().map(|g| game_size(g.2.len())).sum();
        assert_eq!(bytes.len(), expected);
        // Replay the games alongside the reader.
        let mut seen = Vec::new();
        let scan = scan(&bytes, |p| {
            seen.push((p.position.to_fen(), p.best_move, p.score, p.result))
        })
        .unwrap();
        assert_eq!(scan.games, games.len() as u64);
        assert_eq!(scan.complete_bytes, bytes.len() as u64);
        let mut i = 0;
        for (start, result, moves) in &games {
            let mut pos = start.clone();
            for &(mv, score) in moves {
                let (fen, best, s, r) = &seen[i];
                assert_eq!(fen, &pos.to_fen());
                assert_eq!(*best, mv);
                assert_eq!(*s as i32, score.clamp(i16::MIN as i32, i16::MAX as i32));
                assert_eq!(r, result);
                pos.make_move(mv);
                i += 1;
            }
        }
        assert_eq!(i, seen.len());
        assert_eq!(scan.positions, seen.len() as u64);
    }

    #[test]
    fn a_torn_last_game_is_left_out() {
        let games = random_games(3, 9);
        let bytes = encode_all(&games);
        let whole = scan(&bytes, |_| {}).unwrap();
        let two = game_size(games[0].2.len()) + game_size(games[1].2.len());
        // Every cut inside the third game leaves the first two.
        for cut in two..bytes.len() {
            let s = scan(&bytes[..cut], |_| {}).unwrap();
            assert_eq!(s.games, 2, "cut at {cut}");
            assert_eq!(s.complete_bytes, two as u64);
        }
        assert_eq!(whole.games, 3);
    }

    #[test]
    fn a_damaged_move_is_an_error_not_a_misread() {
        let games = random_games(2, 13);
        let mut bytes = encode_all(&games);
        // h8-h8 (from and to the same square) is legal nowhere.
        let first_move = RECORD_SIZE;
        bytes[first_move..first_move + 2].copy_from_slice(&0x0fffu16.to_le_bytes());
        let err = scan(&bytes, |_| {}).unwrap_err();
        assert!(err.starts_with("game 0 at byte 0: move 0"), "{err}");
    }
}
