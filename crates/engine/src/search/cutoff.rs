//! What a beta cutoff teaches the move ordering (chapters 9 and 10): the move that cut off is
//! rewarded in the histories, the moves of its kind tried before it are penalised, and the
//! cutoff is counted by the stage the move came from.

use super::Worker;
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::history::{HistoryDeltas, LowPlyHistory, PieceTo};
use crate::movepick::{Stage, captured, is_noisy};
use chess::{Move, MoveList, Position};

impl<E: Evaluator> Worker<E> {
    /// Counts a beta cutoff: by the first move or a later one, and by the stage the move came from.
    pub(crate) fn note_cutoff(&mut self, searched: usize, stage: Stage) {
        self.note_node(Note::BetaCutoff);
        if searched == 1 {
            self.note(Note::FirstMoveCutoff);
        }
        self.note(match stage {
            Stage::TtMove => Note::CutoffTtMove,
            Stage::Killer1 | Stage::Killer2 => Note::CutoffKiller,
            Stage::Countermove => Note::CutoffCountermove,
            Stage::Quiet => Note::CutoffQuiet,
            Stage::BadNoisy => Note::CutoffBadCapture,
            _ => Note::CutoffGoodCapture,
        });
    }

    // ANCHOR: update_histories
    /// After a cutoff: rewards the move that cut off and penalises the moves of its kind tried
    /// before it. A quiet move also becomes a killer and the countermove of the previous move.
    pub(crate) fn update_histories(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        best: Move,
        quiets: &MoveList,
        captures: &MoveList,
    ) {
        // 9, and 20's separate bonus and malus formulas where `history_bonus_malus` is on.
        let separate = self.techniques.history_bonus_malus;
        let deltas = HistoryDeltas::new(&self.params, separate, depth);
        let (quiet, capture, cont) = (deltas.quiet, deltas.capture, deltas.continuation);
        let side = pos.side_to_move();
        let previous = self.previous(ply);
        let t = &self.techniques;
        let h = &mut self.histories;
        let piece_to = |mv: Move| {
            pos.piece_at(mv.from())
                .map(|piece| PieceTo { piece, to: mv.to() })
        };
        if !is_noisy(pos, best) {
            if t.killers {
                h.killers.add(ply, best);
            }
            if t.countermove
                && let Some(before) = previous[0]
            {
                h.countermoves.set(before, best);
            }
            if t.history {
                h.quiet.update(side, best, quiet.bonus);
                for &mv in quiets.iter() {
                    h.quiet.update(side, mv, -quiet.malus);
                }
            }
            if t.continuation_history {
                for before in previous.into_iter().flatten() {
                    if let Some(now) = piece_to(best) {
                        h.continuation.update(before, now, cont.bonus);
                    }
                    for &mv in quiets.iter() {
                        if let Some(now) = piece_to(mv) {
                            h.continuation.update(before, now, -cont.malus);
                        }
                    }
                }
            }
        }
        if t.capture_history {
            let mut update = |mv: Move, bonus: i32| {
                if let (Some(piece), Some(victim)) = (pos.piece_at(mv.from()), captured(pos, mv)) {
                    h.capture.update(piece, mv.to(), victim, bonus);
                }
            };
            if is_noisy(pos, best) {
                update(best, capture.bonus);
            }
            for &mv in captures.iter() {
                update(mv, -capture.malus);
            }
        }
        // ANCHOR: low_ply_history_update
        // 20: Low-ply history: a quiet cutoff near the root teaches the table of its ply as well,
        // with a share of the quiet history's bonus and malus.
        if self.techniques.low_ply_history
            && !is_noisy(pos, best)
            && let Some(row) = LowPlyHistory::row(ply)
        {
            let percent = self.params.low_ply_history_percent;
            let table = &mut self.histories.low_ply;
            table.update(row, best, quiet.bonus * percent / 100);
            for &mv in quiets.iter() {
                table.update(row, mv, -quiet.malus * percent / 100);
            }
            self.note(Note::LowPlyHistory);
        }
        // ANCHOR_END: low_ply_history_update
        if separate {
            let quiets_penalised = if is_noisy(pos, best) { 0 } else { quiets.len() };
            let penalised = quiets_penalised + captures.len();
            self.counters.add_many(Note::HistoryMalus, penalised as u64);
        }
    }
    // ANCHOR_END: update_histories
}
