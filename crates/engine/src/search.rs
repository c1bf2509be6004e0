//! The search: negamax alpha-beta with principal variation search, fail-soft, over copies of the
//! position. Each technique is a short block with its switch in `self.techniques`, its numbers in
//! `self.params`, and a counter in `self.notes`.

use crate::eval::Evaluator;
use crate::history::{Histories, PieceTo, history_bonus};
use crate::movepick::{MovePicker, OrderingContext, Stage, captured, is_noisy, quiet_score};
use crate::notes::{Note, Notes};
use crate::params::Params;
use crate::pv::Pv;
use crate::root::RootMove;
use crate::score::{
    DRAW, INFINITE, MATE_BOUND, MAX_PLY, mate_in, mated_in, score_from_tt, score_to_tt,
};
use crate::see::see_ge;
use crate::techniques::Techniques;
use crate::time::TimeManager;
use crate::tt::{Bound, TranspositionTable, TtEntry};
use chess::{Move, MoveList, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Flags the UCI thread sets while a search runs.
#[derive(Default)]
pub struct Signals {
    /// Stop now (`stop`, `quit`).
    pub stop: AtomicBool,
    /// Pondering: no time limit until `ponderhit` clears this.
    pub pondering: AtomicBool,
}

/// What the search keeps for each ply of the current line.
#[derive(Clone, Copy, Default)]
pub(crate) struct Frame {
    /// The static evaluation at this ply (`-INFINITE` in check).
    pub static_eval: i32,
    /// The move made from this ply (`None`: a null move, or none yet).
    pub moved: Option<PieceTo>,
    /// A move the node at this ply must not search: set during a singular extension's search.
    pub excluded: Option<Move>,
    /// Double extensions on the line up to and including this ply.
    pub double_extensions: i32,
}

// ANCHOR: lmr_table
/// Late move reductions by depth and move number: `base + ln(depth) * ln(moves) / divisor`
/// plies, both numbers in hundredths. Deep nodes and late moves are reduced most.
pub(crate) struct LmrTable {
    table: Box<[[i32; 64]; 64]>,
}

impl LmrTable {
    pub(crate) fn new(p: &Params) -> LmrTable {
        let mut table = Box::new([[0; 64]; 64]);
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                let ln = (depth as f64).ln() * (moves as f64).ln();
                *r = (p.lmr_base as f64 / 100.0 + ln * 100.0 / p.lmr_divisor as f64) as i32;
            }
        }
        LmrTable { table }
    }

    #[inline]
    fn get(&self, depth: i32, moves: usize) -> i32 {
        self.table[(depth as usize).min(63)][moves.min(63)]
    }
}
// ANCHOR_END: lmr_table

// ANCHOR: tt_usable
/// The score a table entry proves for the window (`alpha`, `beta`), if it proves one: an exact
/// score always, a lower bound at or above beta, an upper bound at or below alpha.
#[inline]
pub(crate) fn tt_cutoff_score(entry: &TtEntry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let score = score_from_tt(entry.score, ply);
    let proves = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    proves.then_some(score)
}
// ANCHOR_END: tt_usable

// ANCHOR: result_bound
/// What a node's result says about its true score, given the window it was searched with.
#[inline]
pub(crate) fn result_bound(best: i32, original_alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}
// ANCHOR_END: result_bound

/// Whether the side to move has a piece other than pawns and the king: without one, zugzwang is
/// common and passing is no test of the position.
#[inline]
fn has_pieces(pos: &Position) -> bool {
    let us = pos.side_to_move();
    (pos.pieces_of_color(us)
        & !pos.pieces(chess::PieceType::Pawn, us)
        & !pos.pieces(chess::PieceType::King, us))
    .is_nonempty()
}

/// One search thread's state. It lives between searches, so what it learned (histories) carries
/// over from move to move.
pub struct Search {
    pub techniques: Techniques,
    pub params: Params,
    /// The counters of the last search, for `stats`.
    pub notes: Notes,
    pub(crate) tt: Arc<TranspositionTable>,
    pub(crate) evaluator: Box<dyn Evaluator>,
    pub(crate) histories: Histories,
    /// One frame per ply of the current line.
    pub(crate) stack: Box<[Frame; MAX_PLY + 2]>,
    /// Hashes of the positions before the current one: the game's, then the search path's.
    pub(crate) keys: Vec<u64>,
    pub(crate) nodes: u64,
    pub(crate) seldepth: usize,
    /// The search was stopped: every score computed after this is meaningless.
    pub(crate) aborted: bool,
    pub(crate) signals: Arc<Signals>,
    pub(crate) time: TimeManager,
    pub(crate) node_limit: u64,
    /// Stop only when told to (`go infinite`).
    pub(crate) infinite: bool,
    pub(crate) was_pondering: bool,
    pub(crate) root_moves: Vec<RootMove>,
    /// Null moves are not tried before this ply: set during null-move verification searches.
    pub(crate) nmp_min_ply: usize,
    pub(crate) lmr_table: LmrTable,
}

impl Search {
    pub fn new(
        tt: Arc<TranspositionTable>,
        evaluator: Box<dyn Evaluator>,
        signals: Arc<Signals>,
    ) -> Search {
        Search {
            techniques: Techniques::default(),
            params: Params::default(),
            notes: Notes::default(),
            tt,
            evaluator,
            histories: Histories::default(),
            stack: Box::new([Frame::default(); MAX_PLY + 2]),
            keys: Vec::with_capacity(1024),
            nodes: 0,
            seldepth: 0,
            aborted: false,
            signals,
            time: TimeManager::new(None),
            node_limit: u64::MAX,
            infinite: false,
            was_pondering: false,
            root_moves: Vec::new(),
            nmp_min_ply: 0,
            lmr_table: LmrTable::new(&Params::default()),
        }
    }

    /// Forgets what was learned (`ucinewgame`).
    pub fn clear(&mut self) {
        self.histories.clear();
    }

    /// Another evaluation (a new network from `EvalFile`), from the next search on.
    pub fn set_evaluator(&mut self, evaluator: Box<dyn Evaluator>) {
        self.evaluator = evaluator;
    }

    pub fn set_tt(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt;
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    #[inline(always)]
    pub(crate) fn note(&mut self, note: Note) {
        self.notes.add(note);
    }

    #[inline]
    pub(crate) fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        self.evaluator.evaluate(pos, ply)
    }

    /// Whether to stop now: the node limit, and every 1024 nodes the stop flag and the clock.
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes & 1023 == 0 {
            self.poll();
        }
        self.aborted
    }

    fn poll(&mut self) {
        if self.signals.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        if self.signals.pondering.load(Ordering::Relaxed) {
            return;
        }
        if self.was_pondering {
            // `ponderhit`: our own clock starts now.
            self.was_pondering = false;
            self.time.restart();
        }
        if !self.infinite && self.time.hard_expired() {
            self.aborted = true;
        }
    }

    // ANCHOR: start_node
    /// What every node does first: count itself, poll the clock, and end at once on a draw by
    /// rule or at the deepest ply. `Some(score)` ends the node.
    #[inline]
    pub(crate) fn start_node(&mut self, pos: &Position, ply: usize, kind: Note) -> Option<i32> {
        self.nodes += 1;
        self.note(kind);
        if self.should_stop() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        // ANCHOR: draws
        // Draws by rule.
        if self.is_draw(pos) {
            self.note(Note::Draw);
            return Some(DRAW);
        }
        // ANCHOR_END: draws
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(pos, ply));
        }
        None
    }
    // ANCHOR_END: start_node

    // ANCHOR: is_draw
    /// Repetition, the fifty-move rule or insufficient material. Any earlier occurrence of the
    /// position since the last capture or pawn move counts: if repeating was good once, it will be
    /// again.
    pub(crate) fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmove_clock() >= 100 && (!pos.is_check() || pos.has_legal_moves()) {
            return true;
        }
        if pos.has_insufficient_material() {
            return true;
        }
        let reach = (pos.halfmove_clock() as usize).min(self.keys.len());
        let key = pos.hash();
        self.keys[self.keys.len() - reach..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }

    // ANCHOR_END: is_draw

    /// Makes `mv` on a copy of `pos`, telling the evaluation and the repetition history.
    #[inline]
    pub(crate) fn play(&mut self, pos: &Position, mv: Move, ply: usize) -> Position {
        let mut child = pos.clone();
        child.make_move(mv);
        self.enter(pos, mv, &child, ply);
        child
    }

    /// Records that the search goes from `pos` to `child` by `mv`: the move for the histories,
    /// the evaluation's update, the position for repetitions. Undone by [`Search::unplay`].
    #[inline]
    pub(crate) fn enter(&mut self, pos: &Position, mv: Move, child: &Position, ply: usize) {
        // The child's first act is to probe the table: start fetching its bucket now.
        if self.techniques.tt {
            self.tt.prefetch(child.hash());
        }
        self.stack[ply].moved = pos
            .piece_at(mv.from())
            .map(|piece| PieceTo { piece, to: mv.to() });
        self.evaluator.push(pos, Some(mv), child, ply);
        self.keys.push(pos.hash());
    }

    /// A quiet move's history scores, as the move picker adds them up.
    fn quiet_history(&self, pos: &Position, mv: Move, previous: &[Option<PieceTo>; 2]) -> i32 {
        let ctx = OrderingContext {
            histories: &self.histories,
            techniques: &self.techniques,
            previous: *previous,
        };
        quiet_score(pos, mv, &ctx)
    }

    /// Searches `child`, reached from this node at `ply`, within this node's window
    /// (`alpha`, `beta`), and returns its score from this node's side.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn search_child(
        &mut self,
        child: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        cut_node: bool,
        pv: &mut Pv,
    ) -> i32 {
        -self.search(child, depth, ply + 1, -beta, -alpha, cut_node, pv)
    }

    /// The moves one and two plies before `ply`, for the continuation histories.
    #[inline]
    pub(crate) fn previous(&self, ply: usize) -> [Option<PieceTo>; 2] {
        [
            ply.checked_sub(1).and_then(|p| self.stack[p].moved),
            ply.checked_sub(2).and_then(|p| self.stack[p].moved),
        ]
    }

    /// Undoes what [`Search::play`] recorded (the position itself is just dropped).
    #[inline]
    pub(crate) fn unplay(&mut self) {
        self.keys.pop();
    }

    /// Stores a result in the table, with the mate distance made relative to this node.
    pub(crate) fn store(&mut self, pos: &Position, ply: usize, entry: TtEntry) {
        if self.techniques.tt {
            let score = score_to_tt(entry.score, ply);
            self.tt.store(pos.hash(), TtEntry { score, ..entry });
        }
    }

    // ANCHOR: update_histories
    /// After a cutoff: rewards the move that cut off and penalises the moves of its kind tried
    /// before it. A quiet move also becomes a killer and the countermove of the previous move.
    fn update_histories(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        best: Move,
        quiets: &MoveList,
        captures: &MoveList,
    ) {
        let bonus = history_bonus(&self.params, depth);
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
            if t.countermove {
                if let Some(before) = previous[0] {
                    h.countermoves.set(before, best);
                }
            }
            if t.history {
                h.quiet.update(side, best, bonus);
                for &mv in quiets.iter() {
                    h.quiet.update(side, mv, -bonus);
                }
            }
            if t.continuation_history {
                for before in previous.into_iter().flatten() {
                    if let Some(now) = piece_to(best) {
                        h.continuation.update(before, now, bonus);
                    }
                    for &mv in quiets.iter() {
                        if let Some(now) = piece_to(mv) {
                            h.continuation.update(before, now, -bonus);
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
                update(best, bonus);
            }
            for &mv in captures.iter() {
                update(mv, -bonus);
            }
        }
    }
    // ANCHOR_END: update_histories

    // ANCHOR: search
    /// The score of `pos` searched `depth` plies deep, within the window (`alpha`, `beta`).
    /// Fail-soft: the score may lie outside the window, as a bound. `cut_node`: a node expected to
    /// fail high. `pv` receives the principal variation when the score falls inside the window.
    // `cut_node` is only passed down until the selective techniques (chapters 12 to 14) read it.
    #[allow(clippy::too_many_arguments, clippy::only_used_in_recursion)]
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_node: bool,
        pv: &mut Pv,
    ) -> i32 {
        pv.clear();
        if depth <= 0 {
            return self.quiescence(pos, ply, alpha, beta, pv);
        }
        let pv_node = beta - alpha > 1;
        if let Some(score) = self.start_node(pos, ply, Note::Nodes) {
            return score;
        }

        // ANCHOR: mate_distance
        // Mate distance pruning: even mating at once can't beat a mate already found nearer the root.
        if self.techniques.mate_distance_pruning {
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                self.note(Note::MateDistancePruning);
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
        // Transposition table: a deep enough result for this position may settle the node.
        let tt_entry = if self.techniques.tt {
            self.tt.probe(pos.hash())
        } else {
            None
        };
        if tt_entry.is_some() {
            self.note(Note::TtHit);
        }
        if let Some(entry) = tt_entry {
            if !pv_node && excluded.is_none() && entry.depth >= depth {
                if let Some(score) = tt_cutoff_score(&entry, ply, alpha, beta) {
                    self.note(Note::TtCutoff);
                    return score;
                }
            }
        }
        let tt_move = tt_entry.and_then(|e| e.mv);
        let tt_pv = pv_node || tt_entry.is_some_and(|e| e.tt_pv);
        // ANCHOR_END: tt_probe

        let in_check = pos.is_check();
        let static_eval = match tt_entry {
            _ if in_check => -INFINITE,
            Some(entry) => entry.static_eval,
            None => self.evaluate(pos, ply),
        };
        self.stack[ply].static_eval = static_eval;
        // The pruning below bets on the static evaluation: never on the principal variation or in check.
        let selective = !pv_node && !in_check;
        // Pruning the whole node also waits while one of its moves is left out.
        let prune_node = selective && excluded.is_none();
        let p = self.params;

        // ANCHOR: improving
        // Improving: is the side to move better off than two plies ago (four, if it was in check
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

        // ANCHOR: reverse_futility
        // Reverse futility pruning: a static evaluation this far over beta is trusted to hold
        // through the few plies left, and returned unsearched. Improving shrinks the margin, to
        // half of the plain one at the least. Never when beta itself is a mated score.
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
            && static_eval - rfp_margin >= beta
        {
            self.note(Note::ReverseFutility);
            return static_eval;
        }
        // ANCHOR_END: reverse_futility

        // ANCHOR: razoring
        // Razoring: a ply or two from the horizon and hopelessly short of alpha, the node can
        // only be saved by winning material, so the quiescence search, which plays nothing but
        // captures, is asked first; if it stays at or below alpha, its score is the node's.
        if prune_node
            && self.techniques.razoring
            && self.techniques.quiescence
            && depth <= p.razor_max_depth
            && static_eval + p.razor_margin * depth < alpha
        {
            let qs_score = self.quiescence(pos, ply, alpha, alpha + 1, pv);
            if self.aborted {
                return 0;
            }
            if qs_score <= alpha {
                self.note(Note::Razoring);
                return qs_score;
            }
            pv.clear();
        }
        // ANCHOR_END: razoring

        // ANCHOR: null_move
        // Null-move pruning: if passing still leaves us at or above beta after a shallower search,
        // a real move would too.
        if self.techniques.null_move
            && prune_node
            && depth >= p.nmp_min_depth
            && static_eval >= beta
            && beta < MATE_BOUND
            && ply >= self.nmp_min_ply
            && ply > 0
            && self.stack[ply - 1].moved.is_some()
            && has_pieces(pos)
        {
            self.note(Note::NullMove);
            let reduction = p.nmp_base_reduction
                + depth / p.nmp_depth_divisor
                + ((static_eval - beta) / p.nmp_eval_divisor).min(p.nmp_eval_max);
            let null_depth = depth - reduction;
            let verify_depth = p.nmp_verify_depth;
            let mut child = pos.clone();
            child.make_null_move();
            self.stack[ply].moved = None;
            self.evaluator.push(pos, None, &child, ply);
            self.keys.push(pos.hash());
            let score = self.search_child(&child, null_depth, ply, beta - 1, beta, !cut_node, pv);
            self.unplay();
            if self.aborted {
                return 0;
            }
            if score >= beta {
                // A mate found after passing is no proof: report a plain cutoff.
                let score = if score >= MATE_BOUND { beta } else { score };
                if depth < verify_depth || self.nmp_min_ply > 0 {
                    self.note(Note::NullMoveCutoff);
                    return score;
                }
                // Deep down, verify with a real search in which we may not pass for a while
                // (zugzwang: positions where every move is worse than passing).
                self.note(Note::NullMoveVerification);
                self.nmp_min_ply = ply + 3 * null_depth.max(0) as usize / 4;
                let verified = self.search(pos, null_depth, ply, beta - 1, beta, false, pv);
                self.nmp_min_ply = 0;
                if self.aborted {
                    return 0;
                }
                if verified >= beta {
                    self.note(Note::NullMoveCutoff);
                    return score;
                }
            }
            pv.clear();
        }
        // ANCHOR_END: null_move

        // ANCHOR: probcut
        // ProbCut (off by default) wagers that a capture which clears beta by `probcut_margin`
        // in a search `probcut_reduction` plies shallower would clear beta at full depth too,
        // and ends the node on the first capture that does. The wager is skipped when the hash
        // table holds an exact score or upper bound under the raised bound from a search at
        // least as deep as ProbCut's own would be.
        let probcut_beta = beta + p.probcut_margin;
        let probcut_depth = depth - p.probcut_reduction;
        let tt_says_no = |entry: TtEntry| {
            entry.bound != Bound::Lower
                && entry.depth > probcut_depth
                && score_from_tt(entry.score, ply) < probcut_beta
        };
        if prune_node
            && self.techniques.probcut
            && self.techniques.quiescence
            && depth >= p.probcut_min_depth
            && beta.abs() + p.probcut_margin < MATE_BOUND
            && !tt_entry.is_some_and(tt_says_no)
        {
            self.note(Note::ProbCut);
            let mut picker = MovePicker::captures(tt_move, pos);
            let mut probcut_pv = Pv::new();
            loop {
                let ordering = OrderingContext {
                    histories: &self.histories,
                    techniques: &self.techniques,
                    previous: self.previous(ply),
                };
                let Some(mv) = picker.next(pos, &ordering) else {
                    break;
                };
                // The exchange alone has to make up the gap between the static evaluation and
                // the raised bound; a capture that can't is not tried.
                if !see_ge(pos, mv, probcut_beta - static_eval) {
                    continue;
                }
                let child = self.play(pos, mv, ply);
                // Two looks, both with a null window under the raised bound: the cheap
                // quiescence search, and only for a capture that passes it, the reduced search
                // that settles the wager.
                let qs_score = -self.quiescence(
                    &child,
                    ply + 1,
                    -probcut_beta,
                    -probcut_beta + 1,
                    &mut probcut_pv,
                );
                let score = if qs_score >= probcut_beta && probcut_depth > 0 && !self.aborted {
                    self.search_child(
                        &child,
                        probcut_depth,
                        ply,
                        probcut_beta - 1,
                        probcut_beta,
                        !cut_node,
                        &mut probcut_pv,
                    )
                } else {
                    qs_score
                };
                self.unplay();
                if self.aborted {
                    return 0;
                }
                if score >= probcut_beta {
                    self.note(Note::ProbCutCutoff);
                    // Stored as a lower bound, at the depth actually searched: the reduced
                    // search's plus the ply of the capture.
                    self.store(
                        pos,
                        ply,
                        TtEntry {
                            mv: Some(mv),
                            score,
                            static_eval,
                            depth: probcut_depth + 1,
                            bound: Bound::Lower,
                            tt_pv,
                        },
                    );
                    return score;
                }
            }
        }
        // ANCHOR_END: probcut

        // ANCHOR: iir
        // Internal iterative reduction: without a hash move the ordering is a guess, so search
        // a ply shallower; the next visit will have a move from this one.
        if self.techniques.iir
            && depth >= p.iir_min_depth
            && tt_move.is_none()
            && excluded.is_none()
            && (pv_node || cut_node)
        {
            self.note(Note::Iir);
            depth -= 1;
        }
        // ANCHOR_END: iir

        // The moves, best guess first.
        let original_alpha = alpha;
        let previous = self.previous(ply);
        let countermove = previous[0].and_then(|before| self.histories.countermoves.get(before));
        let mut picker = MovePicker::new(tt_move, self.histories.killers.get(ply), countermove);
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut searched = 0;
        let mut quiets_tried = MoveList::new();
        let mut captures_tried = MoveList::new();
        let mut child_pv = Pv::new();
        loop {
            let ordering = OrderingContext {
                histories: &self.histories,
                techniques: &self.techniques,
                previous,
            };
            let Some(mv) = picker.next(pos, &ordering) else {
                break;
            };
            if Some(mv) == excluded {
                continue;
            }
            let quiet = !is_noisy(pos, mv);

            // ANCHOR: singular
            // Singular extension: if every other move falls clearly short of the hash move's
            // score in a shallower search, the hash move is the only good one; search it deeper.
            let mut extension = 0;
            if let Some(entry) = tt_entry
                && self.techniques.singular_extensions
                && Some(mv) == tt_move
                && excluded.is_none()
                && depth >= p.se_min_depth
                && entry.depth >= depth - p.se_tt_depth_margin
                && entry.bound != Bound::Upper
                && score_from_tt(entry.score, ply).abs() < MATE_BOUND
            {
                let tt_score = score_from_tt(entry.score, ply);
                let singular_beta = tt_score - p.se_beta_per_depth * depth;
                self.note(Note::SingularSearch);
                self.stack[ply].excluded = Some(mv);
                let mut scratch = Pv::new();
                let score = self.search(
                    pos,
                    (depth - 1) / 2,
                    ply,
                    singular_beta - 1,
                    singular_beta,
                    cut_node,
                    &mut scratch,
                );
                self.stack[ply].excluded = None;
                if self.aborted {
                    return 0;
                }
                if score < singular_beta {
                    self.note(Note::SingularExtension);
                    extension = 1;
                    // Far short: two plies deeper, a limited number of times per line.
                    if self.techniques.double_extensions
                        && !pv_node
                        && score < singular_beta - p.se_double_margin
                        && doubles < p.se_double_max
                    {
                        self.note(Note::DoubleExtension);
                        extension = 2;
                    }
                } else if self.techniques.multi_cut && singular_beta >= beta {
                    // Multi-cut: another move beats beta as well; the node will fail high.
                    self.note(Note::MultiCut);
                    return singular_beta;
                } else if self.techniques.negative_extensions && tt_score >= beta {
                    // Not singular, and expected to fail high anyway: search it shallower.
                    self.note(Note::NegativeExtension);
                    extension = -1;
                }
            }
            // ANCHOR_END: singular

            let mut child = pos.clone();
            child.make_move(mv);
            let gives_check = child.is_check();

            // ANCHOR: late_move_pruning
            // Late move pruning: near the leaves, after enough moves, the remaining quiet moves
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
                    limit /= 2;
                }
                if searched as i32 >= limit {
                    self.note(Note::LateMovePruning);
                    picker.skip_quiets();
                    continue;
                }
            }
            // ANCHOR_END: late_move_pruning

            // ANCHOR: futility
            // Futility pruning: with the static evaluation plus a depth-scaled allowance still at
            // or below alpha, a quiet move, which wins no material, is not worth searching.
            if self.techniques.futility
                && selective
                && quiet
                && !gives_check
                && depth <= p.futility_max_depth
                && best_score > -MATE_BOUND
                && static_eval + p.futility_base + p.futility_per_depth * depth <= alpha
            {
                self.note(Note::Futility);
                continue;
            }
            // ANCHOR_END: futility

            // ANCHOR: history_pruning
            // History pruning: near the leaves, a quiet move that has failed again and again is
            // skipped.
            if self.techniques.history_pruning
                && selective
                && quiet
                && !gives_check
                && depth <= p.history_pruning_depth
                && best_score > -MATE_BOUND
                && self.quiet_history(pos, mv, &previous) < -p.history_pruning_margin * depth
            {
                self.note(Note::HistoryPruning);
                continue;
            }
            // ANCHOR_END: history_pruning

            // ANCHOR: see_pruning
            // SEE pruning: close to the horizon, a move that gives away more material than the
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
                    self.note(if quiet {
                        Note::SeePruningQuiet
                    } else {
                        Note::SeePruningCapture
                    });
                    continue;
                }
            }
            // ANCHOR_END: see_pruning

            self.enter(pos, mv, &child, ply);
            searched += 1;

            // ANCHOR: check_extension
            // Check extension: a move that gives check is searched one ply deeper.
            if self.techniques.check_extension && gives_check && extension == 0 {
                self.note(Note::CheckExtension);
                extension = 1;
            }
            // ANCHOR_END: check_extension
            let new_depth = depth - 1 + extension;
            self.stack[ply].double_extensions = doubles + (extension == 2) as i32;

            // ANCHOR: lmr
            // Late move reductions: a quiet move this far down the list seldom beats alpha, so it
            // is searched shallower first, and to full depth only if it does.
            let mut reduction = 0;
            if self.techniques.lmr
                && depth >= p.lmr_min_depth
                && searched > 1 + pv_node as usize
                && !in_check
                && (quiet || picker.last_stage() == Stage::BadNoisy)
            {
                reduction = self.lmr_table.get(depth, searched);
                // Less on the principal variation, or where it once was.
                reduction -= tt_pv as i32;
                reduction += cut_node as i32;
                reduction -= gives_check as i32;
                if self.techniques.improving && !improving {
                    reduction += 1;
                }
                if quiet {
                    reduction -= self.quiet_history(pos, mv, &previous) / p.lmr_history_divisor;
                }
                reduction = reduction.clamp(0, new_depth - 1);
            }
            // ANCHOR_END: lmr

            // ANCHOR: pvs
            // Principal variation search: the first move with the full window, the others with a
            // null window that only asks "better than alpha?", searched again if the answer is yes.
            // Without PVS every move gets the full window. A reduced move that beats alpha is first
            // searched again at full depth.
            let null_window = self.techniques.pvs;
            let (zw_alpha, zw_beta) = if null_window {
                (alpha, alpha + 1)
            } else {
                (alpha, beta)
            };
            let score = if searched == 1 || (!null_window && reduction == 0) {
                let cut = !pv_node && !cut_node;
                self.search_child(&child, new_depth, ply, alpha, beta, cut, &mut child_pv)
            } else {
                let mut score;
                if reduction > 0 {
                    self.note(Note::Lmr);
                    let reduced = new_depth - reduction;
                    score = self.search_child(
                        &child,
                        reduced,
                        ply,
                        zw_alpha,
                        zw_beta,
                        true,
                        &mut child_pv,
                    );
                    if score > alpha && !self.aborted {
                        self.note(Note::LmrResearch);
                        let cut = if null_window { !cut_node } else { false };
                        score = self.search_child(
                            &child,
                            new_depth,
                            ply,
                            zw_alpha,
                            zw_beta,
                            cut,
                            &mut child_pv,
                        );
                    }
                } else {
                    score = self.search_child(
                        &child,
                        new_depth,
                        ply,
                        zw_alpha,
                        zw_beta,
                        !cut_node,
                        &mut child_pv,
                    );
                }
                if null_window && score > alpha && score < beta && !self.aborted {
                    self.note(Note::PvsResearch);
                    score = self.search_child(
                        &child,
                        new_depth,
                        ply,
                        alpha,
                        beta,
                        false,
                        &mut child_pv,
                    );
                }
                score
            };
            // ANCHOR_END: pvs
            self.unplay();
            if self.aborted {
                return 0;
            }

            // ANCHOR: best_move
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        pv.set(mv, &child_pv);
                    }
                    if score >= beta {
                        self.note(Note::BetaCutoff);
                        if searched == 1 {
                            self.note(Note::FirstMoveCutoff);
                        }
                        self.note(match picker.last_stage() {
                            Stage::TtMove => Note::CutoffTtMove,
                            Stage::Killer1 | Stage::Killer2 => Note::CutoffKiller,
                            Stage::Countermove => Note::CutoffCountermove,
                            Stage::Quiet => Note::CutoffQuiet,
                            Stage::BadNoisy => Note::CutoffBadCapture,
                            _ => Note::CutoffGoodCapture,
                        });
                        self.update_histories(pos, ply, depth, mv, &quiets_tried, &captures_tried);
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            } else {
                captures_tried.push(mv);
            }
            // ANCHOR_END: best_move
        }

        self.notes
            .add_many(Note::CaptureDeferred, picker.deferred());

        // No legal move: mate or stalemate (or, leaving one out, nothing else to say).
        if searched == 0 {
            return if excluded.is_some() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }

        // The result of a search that left a move out isn't this node's value: don't store it.
        if excluded.is_some() {
            return best_score;
        }
        let bound = result_bound(best_score, original_alpha, beta);
        self.store(
            pos,
            ply,
            TtEntry {
                mv: best_move,
                score: best_score,
                static_eval,
                depth,
                bound,
                tt_pv,
            },
        );
        best_score
    }
    // ANCHOR_END: search
}
