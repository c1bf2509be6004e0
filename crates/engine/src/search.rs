//! The search: negamax alpha-beta with principal variation search, fail-soft, over copies of the
//! position. Each technique is a short block with its switch in `self.techniques`, its numbers in
//! `self.params`, and a counter in `self.notes`.

use crate::eval::Evaluator;
use crate::history::{Killers, QuietHistory, history_bonus};
use crate::movepick::{MovePicker, Stage, is_noisy};
use crate::notes::{Note, Notes};
use crate::params::Params;
use crate::pv::Pv;
use crate::root::RootMove;
use crate::score::{DRAW, INFINITE, MAX_PLY, mate_in, mated_in, score_from_tt, score_to_tt};
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

/// One search thread's state. It lives between searches, so what it learned (histories) carries
/// over from move to move.
pub struct Search {
    pub techniques: Techniques,
    pub params: Params,
    /// The counters of the last search, for `stats`.
    pub notes: Notes,
    pub(crate) tt: Arc<TranspositionTable>,
    pub(crate) evaluator: Box<dyn Evaluator>,
    pub(crate) history: QuietHistory,
    pub(crate) killers: Killers,
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
            history: QuietHistory::default(),
            killers: Killers::default(),
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
        }
    }

    /// Forgets what was learned (`ucinewgame`).
    pub fn clear(&mut self) {
        self.history.clear();
        self.killers.clear();
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
    pub(crate) fn evaluate(&mut self, pos: &Position) -> i32 {
        self.evaluator.evaluate(pos)
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

    /// Makes `mv` on a copy of `pos`, telling the evaluation and the repetition history.
    #[inline]
    pub(crate) fn play(&mut self, pos: &Position, mv: Move, ply: usize) -> Position {
        let mut child = pos.clone();
        child.make_move(mv);
        self.evaluator.push(pos, Some(mv), &child, ply);
        self.keys.push(pos.hash());
        child
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

    /// Rewards the quiet move that cut off and penalises the quiet moves tried before it.
    fn update_quiet_stats(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &MoveList,
    ) {
        if self.techniques.killers {
            self.killers.add(ply, best);
        }
        if self.techniques.history {
            let bonus = history_bonus(&self.params, depth);
            let side = pos.side_to_move();
            self.history.update(side, best, bonus);
            for &mv in tried.iter() {
                self.history.update(side, mv, -bonus);
            }
        }
    }

    // ANCHOR: search
    /// The score of `pos` searched `depth` plies deep, within the window (`alpha`, `beta`).
    /// Fail-soft: the score may lie outside the window, as a bound. `cut_node`: a node expected to
    /// fail high. `pv` receives the principal variation when the score falls inside the window.
    // `cut_node` is only passed down until the selective techniques (chapters 12 to 14) read it.
    #[allow(clippy::too_many_arguments, clippy::only_used_in_recursion)]
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        depth: i32,
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
        self.nodes += 1;
        self.note(Note::Nodes);
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // Draws by rule.
        if self.is_draw(pos) {
            self.note(Note::Draw);
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }

        // Mate distance pruning: even mating at once can't beat a mate already found nearer the root.
        if self.techniques.mate_distance_pruning {
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                self.note(Note::MateDistancePruning);
                return alpha;
            }
        }

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
            let score = score_from_tt(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if !pv_node && entry.depth >= depth && usable {
                self.note(Note::TtCutoff);
                return score;
            }
        }
        let tt_move = tt_entry.and_then(|e| e.mv);
        let tt_pv = pv_node || tt_entry.is_some_and(|e| e.tt_pv);

        let in_check = pos.is_check();
        let static_eval = match tt_entry {
            _ if in_check => -INFINITE,
            Some(entry) => entry.static_eval,
            None => self.evaluate(pos),
        };

        // The moves, best guess first.
        let original_alpha = alpha;
        let mut picker = MovePicker::new(tt_move, self.killers.get(ply));
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut searched = 0;
        let mut quiets_tried = MoveList::new();
        let mut child_pv = Pv::new();
        while let Some(mv) = picker.next(pos, &self.history, &self.techniques) {
            let quiet = !is_noisy(pos, mv);
            let child = self.play(pos, mv, ply);
            searched += 1;

            // Check extension: a move that gives check is searched one ply deeper.
            let mut extension = 0;
            if self.techniques.check_extension && child.is_check() {
                self.note(Note::CheckExtension);
                extension = 1;
            }
            let new_depth = depth - 1 + extension;

            // Principal variation search: the first move with the full window, the others with a
            // null window that only asks "better than alpha?", searched again if the answer is yes.
            let score = if searched == 1 || !self.techniques.pvs {
                -self.search(
                    &child,
                    new_depth,
                    ply + 1,
                    -beta,
                    -alpha,
                    !pv_node && !cut_node,
                    &mut child_pv,
                )
            } else {
                let score = -self.search(
                    &child,
                    new_depth,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    !cut_node,
                    &mut child_pv,
                );
                if score > alpha && score < beta {
                    self.note(Note::PvsResearch);
                    -self.search(
                        &child,
                        new_depth,
                        ply + 1,
                        -beta,
                        -alpha,
                        false,
                        &mut child_pv,
                    )
                } else {
                    score
                }
            };
            self.unplay();
            if self.aborted {
                return 0;
            }

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
                        if matches!(picker.last_stage(), Stage::Killer1 | Stage::Killer2) {
                            self.note(Note::KillerCutoff);
                        }
                        if quiet {
                            self.update_quiet_stats(pos, ply, depth, mv, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }

        // No legal move: mate or stalemate.
        if searched == 0 {
            return if in_check { mated_in(ply) } else { DRAW };
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
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
