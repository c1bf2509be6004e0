//! Openings for games played to learn from: a line of an opening book (or the initial position)
//! followed by a few uniformly random legal moves, so that no two games start alike, filtered so
//! that each is worth playing. OpenBench asks an engine for such openings before a DATAGEN
//! workload (`genfens`, see the UCI crate); they are made here, deterministically for a seed.
//!
//! An opening is refused when the random moves end the game (mate, stalemate, a draw by rule),
//! when a short search finds it already decided (the random moves can hang a piece or walk into
//! a mating attack: such a game teaches little and ends early), or when it repeats one already
//! given. The search is the caller's (a closure), so this file needs no search of its own.

use chess::rng::{self, Rng};
use chess::{CastlingMode, Epd, Position, repetitions};
use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

/// The largest opening book read: the field's biggest EPD books are some tens of megabytes.
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

/// How to make openings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningSettings {
    /// Random plies after the book line: this many in half the openings and one more in the
    /// other half, so that each side makes the last random move equally often (a fixed count
    /// lets one colour blunder last, and lose, more often).
    pub random_plies: usize,
    /// Refuse an opening whose short search scores it beyond this, in centipawns, for either side.
    pub max_score: i32,
    /// Give up after this many tries for each opening asked for (a book of mates, a tiny book).
    pub tries_per_opening: usize,
}

impl Default for OpeningSettings {
    fn default() -> OpeningSettings {
        OpeningSettings {
            random_plies: 8,
            max_score: 400,
            tries_per_opening: 1000,
        }
    }
}

/// What a run of the generator refused, and why.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Refused {
    /// The random moves ended the game.
    pub game_over: u64,
    /// The short search found it decided.
    pub decided: u64,
    /// Given already.
    pub duplicate: u64,
}

/// Reads the positions of an EPD book (one per line; blank lines and `#` comments skipped).
///
/// # Errors
/// The file can't be read, is larger than [`MAX_BOOK_BYTES`], or holds no position.
pub fn read_book(path: &Path, mode: CastlingMode) -> Result<Vec<Position>, String> {
    let named = |e: String| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| named(e.to_string()))?;
    let mut text = String::new();
    file.take(MAX_BOOK_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| named(e.to_string()))?;
    if text.len() as u64 > MAX_BOOK_BYTES {
        return Err(named(format!("larger than {MAX_BOOK_BYTES} bytes")));
    }
    let positions: Vec<Position> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| Epd::parse(line, mode).ok().map(|epd| epd.position))
        .collect();
    if positions.is_empty() {
        return Err(named("no position in it".into()));
    }
    Ok(positions)
}

/// Whether the game is over by the rules in `pos` (the engine cannot claim a draw: threefold), reached through the positions of `history`.
fn game_over(pos: &Position, history: &[u64]) -> bool {
    !pos.has_legal_moves()
        || pos.is_fifty_move_draw()
        || pos.has_insufficient_material()
        || repetitions(history, pos.hash(), pos.halfmove_clock()) >= 2
}

// ANCHOR: random_plies
/// An opening: a random line of `book` (the initial position when it is empty) and then
/// `random_plies` uniformly random legal moves, one more in half the openings when
/// `mixed_parity` (the side that makes the last random move is the one whose random blunder
/// the other exploits first, so a fixed count favours one colour). Returns the position and the
/// hashes of those before it since the book line (for repetitions), or `None` if the game ended
/// on the way.
pub fn random_opening(
    book: &[Position],
    random_plies: usize,
    mixed_parity: bool,
    rng: &mut Rng,
) -> Option<(Position, Vec<u64>)> {
    let mut pos = if book.is_empty() {
        Position::startpos()
    } else {
        book[rng.below(book.len())].clone()
    };
    let mut history = Vec::with_capacity(random_plies + 1);
    if game_over(&pos, &history) {
        return None;
    }
    let plies = random_plies + (mixed_parity && rng.below(2) == 1) as usize;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        let mv = moves[rng.below(moves.len())];
        history.push(pos.hash());
        pos.make_move(mv);
        if game_over(&pos, &history) {
            return None;
        }
    }
    Some((pos, history))
}
// ANCHOR_END: random_plies

/// Makes `count` openings from `book` (the initial position when empty) and gives each to
/// `emit` as it is found; `score` is a short search's score of a position, from the side to
/// move's view, or `None` when the caller wants to stop. The same book, settings and seed give
/// the same openings in the same order.
///
/// # Errors
/// Fewer than `count` acceptable openings in `count × tries_per_opening` tries, or stopped.
pub fn generate(
    book: &[Position],
    settings: &OpeningSettings,
    count: usize,
    seed: u64,
    mut score: impl FnMut(&Position) -> Option<i32>,
    mut emit: impl FnMut(&Position),
) -> Result<Refused, String> {
    let mut refused = Refused::default();
    let mut seen = HashSet::with_capacity(count);
    let tries = (count as u64).saturating_mul(settings.tries_per_opening.max(1) as u64);
    let mut found = 0;
    for index in 0..tries {
        if found == count {
            break;
        }
        let mut rng = Rng::new(rng::derive(seed, index));
        let Some((pos, _)) = random_opening(book, settings.random_plies, true, &mut rng) else {
            refused.game_over += 1;
            continue;
        };
        if seen.contains(&pos.hash()) {
            refused.duplicate += 1;
            continue;
        }
        let Some(score) = score(&pos) else {
            return Err(format!("stopped after {found} of {count} openings"));
        };
        if score.abs() > settings.max_score {
            refused.decided += 1;
            continue;
        }
        seen.insert(pos.hash());
        emit(&pos);
        found += 1;
    }
    if found < count {
        return Err(format!(
            "only {found} of {count} openings in {tries} tries ({} ended by the random moves, \
             {} decided, {} repeated)",
            refused.game_over, refused.decided, refused.duplicate
        ));
    }
    Ok(refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fens(book: &[Position], settings: &OpeningSettings, count: usize, seed: u64) -> Vec<String> {
        let mut out = Vec::new();
        generate(
            book,
            settings,
            count,
            seed,
            |_| Some(0),
            |p| out.push(p.to_fen()),
        )
        .unwrap();
        out
    }

    #[test]
    fn openings_are_reproducible_distinct_and_playable() {
        let settings = OpeningSettings::default();
        let a = fens(&[], &settings, 200, 7);
        assert_eq!(a, fens(&[], &settings, 200, 7));
        assert_ne!(a, fens(&[], &settings, 200, 8));
        let distinct: HashSet<&String> = a.iter().collect();
        assert_eq!(distinct.len(), a.len());
        for fen in &a {
            let pos = Position::from_fen(fen).unwrap();
            assert!(pos.has_legal_moves(), "{fen}");
            // 8 or 9 random plies from the initial position: move 5, either side to move.
            assert!(fen.ends_with(" 5"), "{fen}");
        }
        let plies_parity: HashSet<bool> = a
            .iter()
            .map(|f| Position::from_fen(f).unwrap().side_to_move() == chess::Color::White)
            .collect();
        assert_eq!(plies_parity.len(), 2, "both counts of random plies occur");
    }

    #[test]
    fn decided_openings_are_refused_and_a_hopeless_request_fails() {
        let settings = OpeningSettings {
            max_score: 100,
            ..OpeningSettings::default()
        };
        // A "search" that finds every position with a black queen missing lost for Black.
        let mut calls = 0;
        let score = |p: &Position| {
            calls += 1;
            Some(if p.hash().is_multiple_of(3) { 500 } else { 0 })
        };
        let refused =
            generate(&[], &settings, 50, 1, score, |p| assert!(p.hash() % 3 != 0)).unwrap();
        assert!(refused.decided > 0);
        assert!(calls >= 50);
        let never = generate(&[], &settings, 5, 1, |_| Some(1000), |_| {});
        assert!(never.unwrap_err().contains("only 0 of 5"));
        let stopped = generate(&[], &settings, 5, 1, |_| None, |_| {});
        assert!(stopped.unwrap_err().contains("stopped"));
    }
}
