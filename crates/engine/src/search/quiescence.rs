//! The quiescence search: at the horizon, keep searching captures until the position is quiet,
//! so the static evaluation is never trusted in the middle of an exchange.

use super::Worker;
use super::best_move::Best;
use super::corrected_eval::eval_from_tt;
use super::tt_access::{result_entry, tt_cutoff_score};
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::movepick::{MovePicker, captured};
use crate::pv::Pv;
use crate::score::{INFINITE, mated_in};
use crate::see::{SEE_VALUES, see_ge};
use crate::tree::Kind;
use chess::{Move, Position};

impl<E: Evaluator> Worker<E> {
    /// The quiescence search as the rest of the search calls it: [`Worker::quiescence_body`],
    /// watched by the search-tree explorer when it records (otherwise one test of a field).
    #[inline(always)]
    pub(crate) fn quiescence(
        &mut self,
        pos: &Position,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv: &mut Pv,
    ) -> i32 {
        if self.tree.is_none() {
            return self.quiescence_body(pos, ply, alpha, beta, pv);
        }
        self.record_quiescence(pos, ply, alpha, beta, pv)
    }

    #[cold]
    #[inline(never)]
    fn record_quiescence(
        &mut self,
        pos: &Position,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv: &mut Pv,
    ) -> i32 {
        // Switched off, the quiescence search is a bare evaluation: no node, no record.
        if !self.techniques.quiescence {
            if let Some(tree) = self.tree.as_deref_mut() {
                tree.forget_via();
            }
            return self.quiescence_body(pos, ply, alpha, beta, pv);
        }
        self.tree_enter(Kind::Quiescence, ply, 0, alpha, beta);
        let score = self.quiescence_body(pos, ply, alpha, beta, pv);
        self.tree_exit(score);
        score
    }

    // ANCHOR: quiescence
    /// Captures and promotions only, with "stand pat": the side to move may decline them all and
    /// keep the static evaluation. In check there is no standing pat: every evasion is searched.
    fn quiescence_body(
        &mut self,
        pos: &Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv: &mut Pv,
    ) -> i32 {
        // ANCHOR: qs_start
        pv.clear();
        if !self.techniques.quiescence {
            return self.evaluate(pos, ply);
        }
        let pv_node = beta - alpha > 1;
        if let Some(score) = self.start_node(pos, ply, Note::QNodes) {
            return score;
        }
        // ANCHOR_END: qs_start

        // ANCHOR: qs_tt
        let tt_entry = self.probe_tt(pos);
        if let Some(entry) = tt_entry
            && !pv_node
            && let Some(score) = tt_cutoff_score(&entry, ply, alpha, beta)
        {
            self.note_node(Note::TtCutoff);
            return score;
        }
        // ANCHOR_END: qs_tt

        // ANCHOR: stand_pat
        let in_check = pos.is_check();
        let mut best = Best::none();
        // The evaluator's own score, which the table keeps, and the corrected one the quiescence
        // search reads (20; the same while stage 20's techniques are off).
        let (raw_eval, static_eval);
        if in_check {
            (raw_eval, static_eval) = (-INFINITE, -INFINITE);
        } else {
            raw_eval = match tt_entry {
                Some(entry) => entry.static_eval,
                None => self.evaluate(pos, ply),
            };
            static_eval = self.corrected_eval(pos, ply, raw_eval);
            // ANCHOR: qs_tt_eval
            // 20: where the hash score says the evaluation is too low or too high (`tt_eval`),
            // standing pat is worth the hash score. Delta pruning below keeps adding the victim
            // to the static evaluation: the position as it stands, before the capture.
            let mut stand_pat = static_eval;
            if self.techniques.tt_eval
                && let Some(entry) = tt_entry
                && let Some(score) = eval_from_tt(&entry, ply, static_eval)
            {
                self.note(Note::TtEval);
                stand_pat = score;
            }
            // ANCHOR_END: qs_tt_eval
            // Stand pat: not capturing is always allowed, so the evaluation is a lower bound.
            if stand_pat >= beta {
                self.note_node(Note::StandPat);
                return self.stand_pat_score(stand_pat, beta);
            }
            alpha = alpha.max(stand_pat);
            best = Best::at_least(stand_pat);
        }
        // ANCHOR_END: stand_pat

        // ANCHOR: qs_picker
        let original_alpha = alpha;
        let mut picker = MovePicker::quiescence(pos, tt_entry.and_then(|e| e.mv));
        let mut searched = 0;
        let mut child_pv = Pv::new();
        loop {
            let ordering = self.ordering(ply, [None; 2]);
            let Some(mv) = picker.next(pos, &ordering) else {
                break;
            };
            // ANCHOR_END: qs_picker
            if !in_check {
                // ANCHOR: qs_see_pruning
                // SEE pruning: a capture that loses material can't do better than standing pat.
                if self.techniques.see_pruning && !see_ge(pos, mv, 0) {
                    self.note_pruned(Note::QsSeePruning, mv);
                    continue;
                }
                // ANCHOR_END: qs_see_pruning
                // ANCHOR: delta_pruning
                // Delta pruning: even winning the victim for free, with a margin, leaves us short.
                let victim = captured(pos, mv).map_or(0, |p| SEE_VALUES[p.index()]);
                if self.techniques.delta_pruning
                    && mv.promotion().is_none()
                    && static_eval + victim + self.params.delta_margin <= alpha
                {
                    self.note_pruned(Note::DeltaPruning, mv);
                    continue;
                }
                // ANCHOR_END: delta_pruning
                // ANCHOR: qs_futility
                // 20: Quiescence futility: when even the evaluation plus a margin can't reach
                // alpha, a capture that wins no material by SEE (an even trade at best) can't
                // either. A promotion and a recapture on the square of the move before are
                // spared: those change the material the evaluation counted. What a skipped
                // capture might have scored, the evaluation plus the margin, still bounds the
                // node's score from above, so the fail-low score is raised to it.
                if self.techniques.qs_futility
                    && mv.promotion().is_none()
                    && static_eval + self.params.qs_futility_margin <= alpha
                    && !self.is_recapture(mv, ply)
                    && !see_ge(pos, mv, 1)
                {
                    best.score = best.score.max(static_eval + self.params.qs_futility_margin);
                    self.note_pruned(Note::QsFutility, mv);
                    continue;
                }
                // ANCHOR_END: qs_futility
            }
            // ANCHOR: qs_child
            let child = self.play(pos, mv, ply);
            searched += 1;
            let score = -self.quiescence(&child, ply + 1, -beta, -alpha, &mut child_pv);
            self.unplay();
            if self.aborted {
                return 0;
            }
            let lines = pv_node.then_some((&mut *pv, &child_pv));
            if best.update(mv, score, &mut alpha, beta, lines) {
                break;
            }
        }
        // ANCHOR_END: qs_child
        // ANCHOR: qs_end
        if in_check && searched == 0 {
            return mated_in(ply);
        }

        let window = (original_alpha, beta);
        self.store(pos, ply, result_entry(best, window, raw_eval, 0, pv_node));
        best.score
        // ANCHOR_END: qs_end
    }
    // ANCHOR_END: quiescence

    /// Whether `mv`, at `ply`, lands on the square the move before it went to.
    #[inline]
    fn is_recapture(&self, mv: Move, ply: usize) -> bool {
        ply.checked_sub(1)
            .and_then(|before| self.stack[before].moved)
            .is_some_and(|moved| moved.to == mv.to())
    }
}
