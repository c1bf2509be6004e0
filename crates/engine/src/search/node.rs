//! The node: one function for every node of the main search, generic over its kind (the root,
//! a PV node, a non-PV node). It reads top to bottom in the order of the book's chapters; each
//! technique is a labelled block that names its chapter and starts with its switch. Each call of
//! a node names the kind of node it calls: the recursion is `node` calling `node`, nothing between.

use super::Worker;
use super::best_move::Best;
use super::corrected_eval::{eval_from_tt, score_corrects};
use super::null_move::has_pieces;
use super::tt_access::{result_bound, result_entry, tt_cutoff_score};
use crate::correction::corrections_on;
use crate::counters::Note;
use crate::eval::Evaluator;
use crate::history::PieceTo;
use crate::movepick::{MovePicker, Stage, is_noisy};
use crate::pv::Pv as Line;
use crate::score::{DRAW, INFINITE, MATE_BOUND, MAX_PLY, mate_in, mated_in, score_from_tt};
use crate::see::see_ge;
use crate::tree::{Kind, Via};
use crate::tt::{Bound, TtEntry};
use chess::{Move, MoveList, Position};

/// A tablebase result is exact however deep the node: stored as if searched this much deeper, so
/// that ordinary results do not push it out of the table.
const TB_DEPTH_BONUS: i32 = 6;

// ANCHOR: node_types
/// The kinds of node. The root is a PV node whose moves are the root moves, searched in their own
/// order and reported; it has no table entry to probe and prunes nothing.
pub(crate) trait NodeType {
    const ROOT: bool;
    /// Searched with an open window: its score, not just a bound, matters.
    const PV: bool;
}

pub(crate) struct Root;
pub(crate) struct Pv;
pub(crate) struct NonPv;

impl NodeType for Root {
    const ROOT: bool = true;
    const PV: bool = true;
}

impl NodeType for Pv {
    const ROOT: bool = false;
    const PV: bool = true;
}

impl NodeType for NonPv {
    const ROOT: bool = false;
    const PV: bool = false;
}
// ANCHOR_END: node_types

/// What a node is asked: the score of its position searched `depth` plies deep, `ply` plies from
/// the root, within the window (`alpha`, `beta`). `cut_node`: the node is expected to fail high.
#[derive(Clone, Copy)]
pub(crate) struct NodeArgs {
    pub depth: i32,
    pub ply: usize,
    pub alpha: i32,
    pub beta: i32,
    pub cut_node: bool,
}

impl<E: Evaluator> Worker<E> {
    // ANCHOR: tree_hook
    /// A node, as the rest of the search calls it: [`Worker::node_body`], watched by the
    /// search-tree explorer when it records (otherwise the cost is one test of a field).
    #[inline(always)]
    pub(crate) fn node<N: NodeType>(
        &mut self,
        pos: &Position,
        args: NodeArgs,
        pv: &mut Line,
    ) -> i32 {
        // At the horizon the node is the quiescence search's, which records itself.
        if self.tree.is_none() || (!N::ROOT && args.depth <= 0) {
            return self.node_body::<N>(pos, args, pv);
        }
        self.record_node::<N>(pos, args, pv)
    }

    /// [`Worker::node`] while a tree is recorded: the node's record opens before and closes after.
    #[cold]
    #[inline(never)]
    fn record_node<N: NodeType>(&mut self, pos: &Position, args: NodeArgs, pv: &mut Line) -> i32 {
        let kind = match (N::ROOT, N::PV) {
            (true, _) => Kind::Root,
            (false, true) => Kind::Pv,
            (false, false) => Kind::NonPv,
        };
        let NodeArgs {
            depth,
            ply,
            alpha,
            beta,
            ..
        } = args;
        self.tree_enter(kind, ply, depth, alpha, beta);
        let score = self.node_body::<N>(pos, args, pv);
        self.tree_exit(score);
        score
    }
    // ANCHOR_END: tree_hook

    // ANCHOR: child
    /// Searches `child`, a move away from the node at `ply`, as a node of kind `C`, `depth` plies
    /// deep, within the node's window (`alpha`, `beta`) seen from the child's side, and returns
    /// its score from the node's side.
    #[inline(always)]
    pub(crate) fn child<C: NodeType>(
        &mut self,
        child: &Position,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        cut_node: bool,
        pv: &mut Line,
    ) -> i32 {
        let args = NodeArgs {
            depth,
            ply: ply + 1,
            alpha: -beta,
            beta: -alpha,
            cut_node,
        };
        -self.node::<C>(child, args, pv)
    }

    /// [`Worker::child`] within the window (`alpha`, `beta`) of its parent, a node of kind `N`:
    /// the child of a PV node is a PV node while that window is open. A window closed to a null
    /// window (alpha raised to beta - 1 with `pvs` off, or narrowed by mate distance pruning or a
    /// tablebase bound) leaves only a bound to find: the child is then a non-PV node, as every
    /// child of a non-PV node is.
    #[inline(always)]
    fn child_of<N: NodeType>(
        &mut self,
        child: &Position,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        cut_node: bool,
        pv: &mut Line,
    ) -> i32 {
        if N::PV && beta - alpha > 1 {
            self.child::<Pv>(child, depth, ply, (alpha, beta), cut_node, pv)
        } else {
            self.child::<NonPv>(child, depth, ply, (alpha, beta), cut_node, pv)
        }
    }
    // ANCHOR_END: child

    // ANCHOR: search
    /// The score of `pos` searched as `args` asks (see [`NodeArgs`]). Fail-soft: the score may lie
    /// outside the window, as a bound. `pv` receives the principal variation when the score falls
    /// inside the window.
    fn node_body<N: NodeType>(&mut self, pos: &Position, args: NodeArgs, pv: &mut Line) -> i32 {
        let NodeArgs {
            mut depth,
            ply,
            mut alpha,
            mut beta,
            cut_node,
        } = args;
        // The node's arguments as they stand, for the helpers that search it again or below it:
        // depth, alpha and beta change as the node goes on.
        let here = move |depth, alpha, beta| NodeArgs {
            depth,
            ply,
            alpha,
            beta,
            cut_node,
        };
        pv.clear();
        if !N::ROOT && depth <= 0 {
            return self.quiescence(pos, ply, alpha, beta, pv);
        }
        let pv_node = N::PV;
        // 6: every node counts itself; all but the root may end at once (stop, draw, too deep).
        if N::ROOT {
            self.nodes += 1;
            self.note(Note::Nodes);
        } else if let Some(score) = self.start_node(pos, ply, Note::Nodes) {
            return score;
        }

        // ANCHOR: mate_distance
        // 6: mate distance pruning: even mating at once can't beat a mate already found nearer
        // the root.
        if self.techniques.mate_distance_pruning && !N::ROOT {
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                self.note_node(Note::MateDistancePruning);
                return alpha;
            }
        }
        // ANCHOR_END: mate_distance

        // A singular extension's search of this same node leaves one move out.
        let excluded = self.stack[ply].excluded;
        let doubles = ply
            .checked_sub(1)
            .map_or(0, |p| self.stack[p].double_extensions);
        self.stack[ply].double_extensions = doubles;

        // ANCHOR: tt_probe
        // 8: transposition table: a deep enough result for this position may settle the node.
        let tt_entry = if N::ROOT { None } else { self.probe_tt(pos) };
        if let Some(entry) = tt_entry
            && !pv_node
            && excluded.is_none()
            && entry.depth >= depth
            && let Some(score) = tt_cutoff_score(&entry, ply, alpha, beta)
        {
            self.note_node(Note::TtCutoff);
            return score;
        }
        let tt_move = tt_entry.and_then(|e| e.mv);
        let tt_pv = pv_node || tt_entry.is_some_and(|e| e.tt_pv);
        // ANCHOR_END: tt_probe

        // ANCHOR: static_eval
        // 20: the static evaluation, corrected. The evaluator's own score (`raw_eval`) is what
        // the hash table keeps; `static_eval` is that score scaled by the material and the
        // fifty-move counter and corrected by the correction histories (corrected_eval.rs; the
        // same score while stage 20's switches are off). The root's raw score was taken when the
        // search started; a singular search of this node, with a move left out, keeps the
        // node's own.
        let in_check = pos.is_check();
        let (raw_eval, static_eval) = if in_check {
            (-INFINITE, -INFINITE)
        } else if excluded.is_some() {
            (self.stack[ply].raw_eval, self.stack[ply].static_eval)
        } else {
            let raw_eval = match tt_entry {
                _ if N::ROOT => self.stack[0].raw_eval,
                Some(entry) => entry.static_eval,
                None => self.evaluate(pos, ply),
            };
            (raw_eval, self.corrected_eval(pos, ply, raw_eval))
        };
        self.stack[ply].static_eval = static_eval;
        self.stack[ply].raw_eval = raw_eval;
        // ANCHOR_END: static_eval

        // ANCHOR: tt_eval_use
        // 20: the hash score as a better evaluation (`tt_eval`). `eval` is what reverse futility
        // pruning, razoring and null-move pruning bet on: each asks where the node stands against
        // the window, and a search's verdict on this position, where its bound says the
        // evaluation is too low or too high, answers that better than the evaluation's guess.
        // `static_eval` stays what the improving flag compares (an evaluation with the one two
        // plies before, guess with guess), what futility pruning and ProbCut's exchange threshold
        // add a move's gain to (the position as it stands, before any move), what the correction
        // histories learn against, and (raw) what the table keeps.
        let mut eval = static_eval;
        if self.techniques.tt_eval
            && !in_check
            && excluded.is_none()
            && let Some(entry) = tt_entry
            && let Some(score) = eval_from_tt(&entry, ply, static_eval)
        {
            self.note(Note::TtEval);
            eval = score;
        }
        // ANCHOR_END: tt_eval_use

        // ANCHOR: tablebase_probe
        // 19: tablebases: after a capture or pawn move with few pieces left, the tables know the
        // result. One that settles the window ends the node; on the PV, it bounds the score.
        let (mut tb_floor, mut tb_ceiling) = (-INFINITE, INFINITE);
        if !N::ROOT
            && excluded.is_none()
            && let Some((score, bound)) = self.probe_tablebase(pos, depth, ply)
        {
            let settles = match bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if settles {
                self.note_node(Note::TbCutoff);
                let depth = (depth + TB_DEPTH_BONUS).min(MAX_PLY as i32 - 1);
                let (mv, tt_pv) = (None, tt_pv);
                let entry = TtEntry {
                    mv,
                    score,
                    static_eval: raw_eval,
                    depth,
                    bound,
                    tt_pv,
                };
                self.store(pos, ply, entry);
                return score;
            }
            if pv_node && bound == Bound::Lower {
                tb_floor = score;
                alpha = alpha.max(score);
            } else if pv_node {
                tb_ceiling = score;
            }
        }
        // ANCHOR_END: tablebase_probe
        // The pruning below bets on the static evaluation: never on the principal variation or in check.
        let selective = !pv_node && !in_check;
        // Pruning the whole node also waits while one of its moves is left out.
        let prune_node = selective && excluded.is_none();
        let p = self.params;

        // ANCHOR: improving
        // 14.1: Improving: is the side to move better off than two plies ago (four, if it was in check
        // then)? Pruning can be bolder when it is, and should be more careful when it isn't.
        let improving = !in_check && {
            let before = |back: usize| ply.checked_sub(back).map(|p| self.stack[p].static_eval);
            match (before(2), before(4)) {
                (Some(two), _) if two != -INFINITE => static_eval > two,
                (_, Some(four)) if four != -INFINITE => static_eval > four,
                _ => true,
            }
        };
        // ANCHOR_END: improving

        // ANCHOR: hindsight
        // 20: Hindsight: the parent reduced this node, betting that its move was a poor one. The
        // two static evaluations, each from its side to move, add up to how far the position
        // moved against the parent across its move: below a margin the move did better than the
        // bet assumed, and a heavily reduced node gets a ply back; above another margin the move
        // did as badly as assumed, and the node gives a ply up (never on a line that was once the
        // principal variation). The parent's reduction is read once: a search of this node again
        // at this ply (null-move verification, the singular search) finds 0.
        if self.techniques.hindsight && !N::ROOT && excluded.is_none() && !in_check {
            let parent = &mut self.stack[ply - 1];
            let parent_reduction = std::mem::take(&mut parent.reduction);
            let parent_eval = parent.static_eval;
            if parent_reduction > 0 && parent_eval != -INFINITE {
                let against_parent = static_eval + parent_eval;
                if parent_reduction >= p.hindsight_ext_reduction
                    && against_parent < p.hindsight_ext_margin
                {
                    self.note(Note::HindsightExtension);
                    depth += 1;
                } else if !tt_pv
                    && depth >= 2
                    && parent_reduction >= p.hindsight_red_reduction
                    && against_parent > p.hindsight_red_margin
                {
                    self.note(Note::HindsightReduction);
                    depth -= 1;
                }
            }
        }
        // ANCHOR_END: hindsight

        // ANCHOR: reverse_futility
        // 14: Reverse futility pruning: a static evaluation this far over beta is trusted to hold
        // through the few plies left, and returned unsearched. Improving shrinks the margin, to
        // half of the plain one at the least. Never when beta itself is a mated score. (20: it
        // reads `eval`, the hash score where that knows better.)
        let improving_cut = if self.techniques.improving && improving {
            p.rfp_improving
        } else {
            0
        };
        let rfp_margin = (p.rfp_margin * depth - improving_cut).max(p.rfp_margin * depth / 2);
        if self.techniques.reverse_futility
            && prune_node
            && depth <= p.rfp_max_depth
            && beta > -MATE_BOUND
            && eval - rfp_margin >= beta
        {
            self.note_node(Note::ReverseFutility);
            return eval;
        }
        // ANCHOR_END: reverse_futility

        // ANCHOR: razoring
        // 14: Razoring: a ply or two from the horizon and hopelessly short of alpha, the node can
        // only be saved by winning material, so the quiescence search, which plays nothing but
        // captures, is asked first; if it stays at or below alpha, its score is the node's.
        if self.techniques.razoring
            && self.techniques.quiescence
            && prune_node
            && depth <= p.razor_max_depth
            && eval + p.razor_margin * depth < alpha
        {
            self.tree_via(Via::Razoring);
            let qs_score = self.quiescence(pos, ply, alpha, alpha + 1, pv);
            if self.aborted {
                return 0;
            }
            if qs_score <= alpha {
                self.note_node(Note::Razoring);
                return qs_score;
            }
            pv.clear();
        }
        // ANCHOR_END: razoring

        // 12: Null-move pruning: if passing still leaves us at or above beta after a shallower
        // search, a real move would too. (20: it reads `eval`.)
        if self.techniques.null_move
            && prune_node
            && depth >= p.nmp_min_depth
            && eval >= beta
            && beta < MATE_BOUND
            && ply >= self.nmp_min_ply
            && ply > 0
            && self.stack[ply - 1].moved.is_some()
            && has_pieces(pos)
            && let Some(score) = self.null_move(pos, here(depth, alpha, beta), eval, pv)
        {
            return score;
        }

        // M5: ProbCut (off by default): a good capture that clears beta by a margin in a much
        // shallower search ends the node. It needs the quiescence search for its first look.
        if self.techniques.probcut
            && self.techniques.quiescence
            && prune_node
            && depth >= p.probcut_min_depth
            && beta.abs() + p.probcut_margin < MATE_BOUND
        {
            let args = here(depth, alpha, beta);
            if let Some(score) = self.probcut(pos, args, static_eval, tt_entry, tt_pv) {
                return score;
            }
        }

        // ANCHOR: iir
        // 15: Internal iterative reduction: without a hash move the ordering is a guess, so search
        // a ply shallower; the next visit will have a move from this one.
        if self.techniques.iir
            && !N::ROOT
            && depth >= p.iir_min_depth
            && tt_move.is_none()
            && excluded.is_none()
            && (pv_node || cut_node)
        {
            self.note_node(Note::Iir);
            depth -= 1;
        }
        // ANCHOR_END: iir

        // The moves, best guess first; at the root, the root moves in the order of the last
        // iteration.
        let original_alpha = alpha;
        let previous = self.previous(ply);
        let countermove = previous[0].and_then(|before| self.histories.countermoves.get(before));
        let mut picker = MovePicker::new(tt_move, self.histories.killers.get(ply), countermove);
        let mut root_index = self.pv_index;
        let mut best = Best::none();
        let mut searched = 0;
        let mut quiets_tried = MoveList::new();
        let mut captures_tried = MoveList::new();
        let mut child_pv = Line::new();
        while let Some(mv) = self.next_move::<N>(pos, &mut picker, ply, previous, &mut root_index) {
            if Some(mv) == excluded {
                continue;
            }
            let quiet = !is_noisy(pos, mv);
            let best_score = best.score;

            // ANCHOR: singular
            // 15: Singular extensions: if every other move falls clearly short of the hash move's
            // score in a shallower search without it, the hash move is the only good one: search it
            // deeper. Only with a hash entry deep enough, not an upper bound and not a mate.
            let mut extension = 0;
            if self.techniques.singular_extensions
                && let Some(entry) = tt_entry
                && Some(mv) == tt_move
                && excluded.is_none()
                && depth >= p.se_min_depth
                && entry.depth >= depth - p.se_tt_depth_margin
                && entry.bound != Bound::Upper
                && score_from_tt(entry.score, ply).abs() < MATE_BOUND
            {
                let tt_score = score_from_tt(entry.score, ply);
                let singular_beta = tt_score - p.se_beta_per_depth * depth;
                let score = self.singular_search(pos, mv, here(depth, alpha, beta), singular_beta);
                if self.aborted {
                    return 0;
                }
                if score < singular_beta {
                    self.note(Note::SingularExtension);
                    extension = 1;
                    // 15: Double extensions: far short, two plies deeper, a limited number of
                    // times per line.
                    if self.techniques.double_extensions
                        && !pv_node
                        && score < singular_beta - p.se_double_margin
                        && doubles < p.se_double_max
                    {
                        self.note(Note::DoubleExtension);
                        extension = 2;
                    }
                } else if self.techniques.multi_cut && singular_beta >= beta {
                    // 15: Multi-cut: another move beats beta as well; the node will fail high.
                    self.note_node(Note::MultiCut);
                    return singular_beta;
                } else if self.techniques.negative_extensions && tt_score >= beta {
                    // 15: Negative extensions: not singular, and expected to fail high anyway:
                    // search it shallower.
                    self.note(Note::NegativeExtension);
                    extension = -1;
                }
            }
            // ANCHOR_END: singular

            let mut child = pos.clone();
            child.make_move(mv);
            let gives_check = child.is_check();

            // ANCHOR: late_move_pruning
            // 14.1: Late move pruning: near the leaves, after enough moves, the remaining quiet moves
            // are not worth a search (fewer when the position isn't improving).
            if self.techniques.late_move_pruning
                && selective
                && quiet
                && !gives_check
                && depth <= p.lmp_max_depth
                && best_score > -MATE_BOUND
            {
                let mut limit = p.lmp_base + depth * depth;
                if self.techniques.improving && !improving {
                    limit = limit * p.lmp_not_improving_percent / 100;
                }
                if searched as i32 >= limit {
                    self.note_pruned(Note::LateMovePruning, mv);
                    picker.skip_quiets();
                    continue;
                }
            }
            // ANCHOR_END: late_move_pruning

            // ANCHOR: futility
            // 14: Futility pruning: with the static evaluation plus a depth-scaled allowance still at
            // or below alpha, a quiet move, which wins no material, is not worth searching.
            if self.techniques.futility
                && selective
                && quiet
                && !gives_check
                && depth <= p.futility_max_depth
                && best_score > -MATE_BOUND
                && static_eval + p.futility_base + p.futility_per_depth * depth <= alpha
            {
                self.note_pruned(Note::Futility, mv);
                continue;
            }
            // ANCHOR_END: futility

            // ANCHOR: history_pruning
            // 14.1: History pruning: near the leaves, a quiet move that has failed again and again is
            // skipped.
            if self.techniques.history_pruning
                && selective
                && quiet
                && !gives_check
                && depth <= p.history_pruning_depth
                && best_score > -MATE_BOUND
                && self.quiet_history(pos, mv, &previous) < -p.history_pruning_margin * depth
            {
                self.note_pruned(Note::HistoryPruning, mv);
                continue;
            }
            // ANCHOR_END: history_pruning

            // ANCHOR: see_pruning
            // 14: SEE pruning: close to the horizon, a move that gives away more material than the
            // depth allows (per ply, one margin for quiet moves, another for captures) is dropped.
            if self.techniques.see_pruning
                && selective
                && searched > 0
                && !gives_check
                && depth <= p.see_max_depth
                && best_score > -MATE_BOUND
            {
                let margin = if quiet {
                    p.see_quiet_margin
                } else {
                    p.see_capture_margin
                };
                if !see_ge(pos, mv, -margin * depth) {
                    let note = if quiet {
                        Note::SeePruningQuiet
                    } else {
                        Note::SeePruningCapture
                    };
                    self.note_pruned(note, mv);
                    continue;
                }
            }
            // ANCHOR_END: see_pruning

            self.enter(pos, mv, &child, ply);
            searched += 1;

            // ANCHOR: check_extension
            // 6: Check extension: a move that gives check is searched one ply deeper.
            if self.techniques.check_extension && gives_check && extension == 0 {
                self.note(Note::CheckExtension);
                extension = 1;
            }
            // ANCHOR_END: check_extension
            let new_depth = depth - 1 + extension;
            self.stack[ply].double_extensions = doubles + (extension == 2) as i32;

            // ANCHOR: lmr
            // 13: Late move reductions: a quiet move this far down the list seldom beats alpha, so it
            // is searched shallower first, and to full depth only if it does.
            let mut reduction = 0;
            if self.techniques.lmr
                && !N::ROOT
                && depth >= p.lmr_min_depth
                && searched > 1 + pv_node as usize
                && !in_check
                && (quiet || picker.last_stage() == Stage::BadNoisy)
            {
                reduction = self.lmr_table.get(depth, searched);
                // Less on the principal variation, or where it once was.
                reduction -= tt_pv as i32 * p.lmr_tt_pv;
                reduction += cut_node as i32 * p.lmr_cut_node;
                reduction -= gives_check as i32 * p.lmr_gives_check;
                if self.techniques.improving && !improving {
                    reduction += p.lmr_not_improving;
                }
                if quiet {
                    reduction -= self.quiet_history(pos, mv, &previous) / p.lmr_history_divisor;
                }
                reduction = reduction.clamp(0, new_depth - 1);
            }
            // ANCHOR_END: lmr

            // The root counts each move's selective depth and nodes on its own.
            let nodes_before = self.nodes;
            if N::ROOT {
                self.seldepth = 0;
            }
            // 6: principal variation search, a reduced move first at its reduced depth (13).
            let args = here(new_depth, alpha, beta);
            let score =
                self.search_move::<N>(&child, args, reduction, searched == 1, &mut child_pv);
            self.unplay();
            if self.aborted {
                return 0;
            }
            if N::ROOT {
                self.root_moves[root_index - 1].nodes += self.nodes - nodes_before;
                self.update_root_move(root_index - 1, score, alpha, &child_pv);
            }

            // ANCHOR: best_move
            // 6: the best move so far; a cutoff teaches the move ordering (9, 10).
            let lines = pv_node.then_some((&mut *pv, &child_pv));
            if best.update(mv, score, &mut alpha, beta, lines) {
                if !N::ROOT {
                    self.note_cutoff(searched, picker.last_stage());
                    self.update_histories(pos, ply, depth, mv, &quiets_tried, &captures_tried);
                }
                break;
            }
            if quiet {
                quiets_tried.push(mv);
            } else {
                captures_tried.push(mv);
            }
            // ANCHOR_END: best_move
        }

        self.counters
            .add_many(Note::CaptureDeferred, picker.deferred());

        // 6: no legal move: mate or stalemate (or, leaving one out, nothing else to say).
        if searched == 0 {
            return if excluded.is_some() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }

        // 8: the result goes to the table; not the root's, and not that of a search that left a
        // move out, which isn't this node's value.
        if N::ROOT || excluded.is_some() {
            return best.score;
        }
        // ANCHOR: fail_high_blend_node
        // 20: Fail-high blending: off the principal variation, a cutoff's score is pulled
        // towards beta, less the deeper the node (see `fail_high_blend.rs`).
        if !pv_node && best.score >= beta {
            best.score = self.cutoff_score(best.score, beta, depth);
        }
        // ANCHOR_END: fail_high_blend_node
        let mut window = (original_alpha, beta);
        // 19: on the PV the tables' bound stands whatever the moves found, and is stored as the
        // bound it is (a window just below or above it makes `result_entry` say so).
        if best.score < tb_floor {
            best.score = tb_floor;
            window = (tb_floor - 1, tb_floor);
        } else if best.score > tb_ceiling {
            best.score = tb_ceiling;
            window = (tb_ceiling, tb_ceiling + 1);
        }

        // ANCHOR: correction_learn
        // 20: the correction histories learn from the result where it says something trustworthy
        // about the static evaluation (see `score_corrects`): not in check, where there is none,
        // and not when a capture or promotion was best, whose score is the material it won more
        // than an error of the evaluation. A singular search (a move left out) has returned above.
        if corrections_on(&self.techniques)
            && !in_check
            && best.mv.is_none_or(|mv| !is_noisy(pos, mv))
            && score_corrects(
                result_bound(best.score, window.0, window.1),
                best.score,
                static_eval,
            )
        {
            self.learn_correction(pos, ply, depth, best.score, static_eval);
        }
        // ANCHOR_END: correction_learn

        self.store(pos, ply, result_entry(best, window, raw_eval, depth, tt_pv));
        best.score
    }
    // ANCHOR_END: search

    // ANCHOR: pvs
    /// The search of a move once it is made, from the node `args` describes (with the move's depth,
    /// extensions included) to `child`. 6: Principal variation search: the first move with the
    /// node's window; the others with a null window that only asks "better than alpha?", and
    /// again with the node's window if the answer is yes. Without PVS every move gets the node's
    /// window. 13: a reduced move is searched at its reduced depth first, and again at full depth
    /// if it beats alpha.
    ///
    /// A function of its own, never inlined, to keep the node's code small: as a block of the node
    /// function, its calls of `node` inlined there, cachegrind counted 1.71 million first-level
    /// instruction-cache misses in `bench 7` (1.26 million before this file took the recursion
    /// over) and the bench ran about 2% slower; as a function, with ProbCut and the singular
    /// search also kept out of the node function, 1.41 million and no measurable difference.
    #[inline(never)]
    fn search_move<N: NodeType>(
        &mut self,
        child: &Position,
        args: NodeArgs,
        reduction: i32,
        first: bool,
        child_pv: &mut Line,
    ) -> i32 {
        let NodeArgs {
            depth,
            ply,
            alpha,
            beta,
            cut_node,
        } = args;
        let pvs = self.techniques.pvs;
        let window = (alpha, beta);
        let null_window = (alpha, alpha + 1);
        if first || (!pvs && reduction == 0) {
            let cut = !N::PV && !cut_node;
            return self.child_of::<N>(child, depth, ply, window, cut, child_pv);
        }
        let mut score;
        if reduction > 0 {
            self.note(Note::Lmr);
            self.tree_via(Via::Reduced(reduction.min(i8::MAX as i32) as i8));
            let reduced = depth - reduction;
            // 20: the child may judge the reduction in hindsight while it runs.
            self.stack[ply].reduction = reduction;
            score = if pvs {
                self.child::<NonPv>(child, reduced, ply, null_window, true, child_pv)
            } else {
                self.child_of::<N>(child, reduced, ply, window, true, child_pv)
            };
            self.stack[ply].reduction = 0;
            if score > alpha && !self.aborted {
                self.note(Note::LmrResearch);
                self.tree_via(Via::LmrResearch);
                score = if pvs {
                    self.child::<NonPv>(child, depth, ply, null_window, !cut_node, child_pv)
                } else {
                    self.child_of::<N>(child, depth, ply, window, false, child_pv)
                };
            }
        } else {
            // Not the first move, not reduced, and PVS on: the null window.
            score = self.child::<NonPv>(child, depth, ply, null_window, !cut_node, child_pv);
        }
        if pvs && score > alpha && score < beta && !self.aborted {
            self.note(Note::PvsResearch);
            self.tree_via(Via::PvsResearch);
            score = self.child_of::<N>(child, depth, ply, window, false, child_pv);
        }
        score
    }
    // ANCHOR_END: pvs

    /// The next move to search: at the root the next root move, elsewhere the picker's.
    #[inline]
    fn next_move<N: NodeType>(
        &self,
        pos: &Position,
        picker: &mut MovePicker,
        ply: usize,
        previous: [Option<PieceTo>; 2],
        root_index: &mut usize,
    ) -> Option<Move> {
        if N::ROOT {
            let mv = self.root_moves.get(*root_index)?.mv;
            *root_index += 1;
            return Some(mv);
        }
        picker.next(pos, &self.ordering(ply, previous))
    }
}
