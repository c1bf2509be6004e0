//! Which thread's move to play after a Lazy SMP search.

use crate::score::MATE_BOUND;
use crate::search::SearchResult;
use chess::Move;

// ANCHOR: vote
/// Which thread's move to play. Each thread that completed an iteration votes for its move with
/// a weight that grows with its depth and with its score above the worst; the thread whose move
/// has the most weight wins, the deepest of them if several share that move. A proven mate
/// overrides the vote: the shortest one found is played.
pub(crate) fn vote(results: &[SearchResult]) -> usize {
    let voters = || {
        results
            .iter()
            .filter(|r| r.depth > 0 && r.best_move.is_some())
    };
    let Some(worst) = voters().map(|r| r.score).min() else {
        return 0;
    };
    let weight = |r: &SearchResult| (r.score - worst + 10) as i64 * r.depth as i64;
    let votes_for =
        |mv: Option<Move>| -> i64 { voters().filter(|r| r.best_move == mv).map(weight).sum() };
    let mut best = 0;
    for (i, r) in results.iter().enumerate().skip(1) {
        if r.depth == 0 || r.best_move.is_none() {
            continue;
        }
        let b = &results[best];
        let better = if r.score >= MATE_BOUND || b.score >= MATE_BOUND {
            r.score > b.score
        } else {
            let (mine, theirs) = (votes_for(r.best_move), votes_for(b.best_move));
            b.depth == 0 || mine > theirs || (mine == theirs && r.depth > b.depth)
        };
        if better {
            best = i;
        }
    }
    best
}
// ANCHOR_END: vote
