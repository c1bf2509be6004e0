//! The move picker: hands out a node's moves one at a time, best guess first, generating them in
//! stages so that a node that cuts off early never pays for the moves it didn't need.
//!
//! Stages: the hash move; captures and promotions that don't lose material, by MVV-LVA and
//! capture history; the two killer moves; the countermove; the quiet moves by their histories;
//! last, the captures that lose material by SEE. In the quiescence search only the captures (or,
//! in check, every evasion).

use crate::history::{Histories, LowPlyHistory, PieceTo};
use crate::params::Params;
use crate::see::see_ge;
use crate::techniques::Techniques;
use chess::{MAX_MOVES, Move, MoveKind, MoveList, PieceType, Position};

// ANCHOR: stages
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Countermove,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    Done,
}
// ANCHOR_END: stages

/// What the picker reads to score moves.
pub struct OrderingContext<'a> {
    pub histories: &'a Histories,
    pub techniques: &'a Techniques,
    /// The moves one and two plies before this node (`None` after a null move or near the root).
    pub previous: [Option<PieceTo>; 2],
    pub params: &'a Params,
    /// The node's distance from the root, for the low-ply history.
    pub ply: usize,
}

pub struct MovePicker {
    stage: Stage,
    /// The stage of the move handed out last.
    last: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    countermove: Option<Move>,
    /// Skip the quiet stages (quiescence search out of check).
    noisy_only: bool,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
    /// Captures that lose material, kept for the last stage.
    bad: MoveList,
    next_bad: usize,
}

/// Whether a move changes material: a capture or a promotion.
#[inline]
pub fn is_noisy(pos: &Position, mv: Move) -> bool {
    mv.kind() == MoveKind::Promotion || pos.is_capture(mv)
}

/// The piece type a move captures, if any.
#[inline]
pub fn captured(pos: &Position, mv: Move) -> Option<PieceType> {
    match mv.kind() {
        MoveKind::EnPassant => Some(PieceType::Pawn),
        MoveKind::Castle => None,
        _ => pos.piece_at(mv.to()).map(|p| p.piece_type),
    }
}

// ANCHOR: mvv_lva
/// Most valuable victim first; among equal victims, the least valuable attacker. A promotion to
/// a queen counts as winning a queen; under-promotions come last.
fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = captured(pos, mv).map_or(0, |p| p.index() as i32 + 1);
    let attacker = pos
        .piece_at(mv.from())
        .map_or(0, |p| p.piece_type.index() as i32);
    let promotion = match mv.promotion() {
        Some(PieceType::Queen) => 5 * 16,
        Some(_) => -10 * 16,
        None => 0,
    };
    victim * 16 - attacker + promotion
}
// ANCHOR_END: mvv_lva

// ANCHOR: scores
/// The ordering score of a capture or promotion.
fn noisy_score(pos: &Position, mv: Move, ctx: &OrderingContext) -> i32 {
    let mut score = 0;
    if ctx.techniques.mvv_lva {
        score += 128 * mvv_lva(pos, mv);
    }
    if ctx.techniques.capture_history
        && let (Some(piece), Some(victim)) = (pos.piece_at(mv.from()), captured(pos, mv))
    {
        score += ctx.histories.capture.get(piece, mv.to(), victim) / 8;
    }
    score
}

/// The ordering score of a quiet move: its butterfly history plus its continuation histories.
pub fn quiet_score(pos: &Position, mv: Move, ctx: &OrderingContext) -> i32 {
    let mut score = 0;
    if ctx.techniques.history {
        score += ctx.histories.quiet.get(pos.side_to_move(), mv);
    }
    if ctx.techniques.continuation_history
        && let Some(piece) = pos.piece_at(mv.from())
    {
        let now = PieceTo { piece, to: mv.to() };
        for before in ctx.previous.into_iter().flatten() {
            score += ctx.histories.continuation.get(before, now);
        }
    }
    score
}
// ANCHOR_END: scores

impl MovePicker {
    fn with(
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        countermove: Option<Move>,
        noisy_only: bool,
    ) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            last: Stage::TtMove,
            tt_move,
            killers,
            countermove,
            noisy_only,
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
            bad: MoveList::new(),
            next_bad: 0,
        }
    }

    /// For the main search: every legal move, in stages.
    pub fn new(
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        countermove: Option<Move>,
    ) -> MovePicker {
        MovePicker::with(tt_move, killers, countermove, false)
    }

    // ANCHOR: picker_quiescence
    /// For the quiescence search: captures and promotions only, unless in check.
    pub fn quiescence(pos: &Position, tt_move: Option<Move>) -> MovePicker {
        let noisy_only = !pos.is_check();
        let tt_move = tt_move.filter(|&m| {
            !noisy_only || (is_noisy(pos, m) && m.promotion().is_none_or(|p| p == PieceType::Queen))
        });
        MovePicker::with(tt_move, [None; 2], None, noisy_only)
    }
    // ANCHOR_END: picker_quiescence

    /// For ProbCut: captures only, even in the main search.
    pub fn captures(tt_move: Option<Move>, pos: &Position) -> MovePicker {
        let tt_move = tt_move.filter(|&m| pos.is_capture(m));
        MovePicker::with(tt_move, [None; 2], None, true)
    }

    /// The stage of the move handed out last.
    pub fn last_stage(&self) -> Stage {
        self.last
    }

    /// How many captures were put off to the last stage for losing material.
    pub fn deferred(&self) -> u64 {
        self.bad.len() as u64
    }

    /// From now on, hand out no more quiet moves (late move pruning).
    pub fn skip_quiets(&mut self) {
        self.noisy_only = true;
    }

    // ANCHOR: pick_best
    /// Takes the best-scored move not yet handed out (selection sort: nodes usually cut off after
    /// a few moves, so sorting the whole list would waste time).
    fn pick_best(&mut self) -> Option<Move> {
        let len = self.moves.len();
        if self.next >= len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
    // ANCHOR_END: pick_best

    // ANCHOR: low_ply_ordering
    /// 20: Low-ply history: near the root, each quiet move's ordering score also gets its entry
    /// in the table of its ply, weighed `low_ply_history_scale` percent, divided by 1 + 2 x ply:
    /// the nearer the root, the more the table of that ply knows better than the main history.
    /// (Not in `quiet_score`: LMR and history pruning read the main histories alone.)
    fn add_low_ply_history(&mut self, ctx: &OrderingContext) {
        let Some(row) = LowPlyHistory::row(ctx.ply) else {
            return;
        };
        let divisor = 100 * (1 + 2 * ctx.ply as i32);
        let scale = ctx.params.low_ply_history_scale;
        for i in 0..self.moves.len() {
            let entry = ctx.histories.low_ply.get(row, self.moves[i]);
            self.scores[i] += entry * scale / divisor;
        }
    }
    // ANCHOR_END: low_ply_ordering

    fn already_tried(&self, mv: Move) -> bool {
        Some(mv) == self.tt_move || self.killers.contains(&Some(mv)) || Some(mv) == self.countermove
    }

    fn hand_out(&mut self, stage: Stage, mv: Move) -> Option<Move> {
        self.last = stage;
        Some(mv)
    }

    // ANCHOR: special
    /// A move from the killer or countermove slots: only a legal quiet move not tried before.
    /// None once the quiet moves are cut off (late move pruning).
    fn special(&self, pos: &Position, mv: Option<Move>, earlier: &[Option<Move>]) -> Option<Move> {
        if self.noisy_only {
            return None;
        }
        mv.filter(|&m| {
            Some(m) != self.tt_move
                && !earlier.contains(&Some(m))
                && pos.is_legal(m)
                && !is_noisy(pos, m)
        })
    }
    // ANCHOR_END: special

    /// The next move to search, or `None` when all have been handed out.
    pub fn next(&mut self, pos: &Position, ctx: &OrderingContext) -> Option<Move> {
        loop {
            match self.stage {
                // ANCHOR: tt_move_stage
                Stage::TtMove => {
                    self.stage = Stage::GenerateNoisy;
                    if let Some(mv) = self.tt_move {
                        if pos.is_legal(mv) {
                            return self.hand_out(Stage::TtMove, mv);
                        }
                        self.tt_move = None;
                    }
                }
                // ANCHOR_END: tt_move_stage
                // ANCHOR: generate_noisy
                Stage::GenerateNoisy => {
                    self.moves.clear();
                    pos.generate::<MoveList, false, true>(&mut self.moves);
                    // Under-promotions are only worth a look when they could be forced (in check).
                    if self.noisy_only {
                        self.moves
                            .retain(|m| m.promotion().is_none_or(|p| p == PieceType::Queen));
                    }
                    for i in 0..self.moves.len() {
                        self.scores[i] = noisy_score(pos, self.moves[i], ctx);
                    }
                    self.next = 0;
                    self.stage = Stage::GoodNoisy;
                }
                // ANCHOR_END: generate_noisy
                // ANCHOR: good_noisy
                Stage::GoodNoisy => match self.pick_best() {
                    Some(mv) if Some(mv) == self.tt_move => {}
                    // A capture that loses material waits until after the quiet moves.
                    Some(mv)
                        if ctx.techniques.see_ordering
                            && mv.promotion().is_none()
                            && !see_ge(pos, mv, 0) =>
                    {
                        self.bad.push(mv);
                    }
                    Some(mv) => return self.hand_out(Stage::GoodNoisy, mv),
                    None => {
                        self.stage = if self.noisy_only {
                            Stage::BadNoisy
                        } else {
                            Stage::Killer1
                        };
                    }
                },
                // ANCHOR_END: good_noisy
                // ANCHOR: killer_stages
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    let killer = if ctx.techniques.killers {
                        self.killers[0]
                    } else {
                        None
                    };
                    self.killers[0] = self.special(pos, killer, &[]);
                    if let Some(mv) = self.killers[0] {
                        return self.hand_out(Stage::Killer1, mv);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Countermove;
                    let killer = if ctx.techniques.killers {
                        self.killers[1]
                    } else {
                        None
                    };
                    self.killers[1] = self.special(pos, killer, &[self.killers[0]]);
                    if let Some(mv) = self.killers[1] {
                        return self.hand_out(Stage::Killer2, mv);
                    }
                }
                // ANCHOR_END: killer_stages
                // ANCHOR: countermove_stage
                Stage::Countermove => {
                    self.stage = Stage::GenerateQuiet;
                    let counter = if ctx.techniques.countermove {
                        self.countermove
                    } else {
                        None
                    };
                    self.countermove = self.special(pos, counter, &self.killers);
                    if let Some(mv) = self.countermove {
                        return self.hand_out(Stage::Countermove, mv);
                    }
                }
                // ANCHOR_END: countermove_stage
                // ANCHOR: quiet_stage
                Stage::GenerateQuiet => {
                    if self.noisy_only {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    self.moves.clear();
                    pos.generate::<MoveList, true, false>(&mut self.moves);
                    for i in 0..self.moves.len() {
                        self.scores[i] = quiet_score(pos, self.moves[i], ctx);
                    }
                    if ctx.techniques.low_ply_history {
                        self.add_low_ply_history(ctx);
                    }
                    self.next = 0;
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if self.noisy_only {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    match self.pick_best() {
                        Some(mv) if self.already_tried(mv) => {}
                        Some(mv) => return self.hand_out(Stage::Quiet, mv),
                        None => self.stage = Stage::BadNoisy,
                    }
                }
                // ANCHOR_END: quiet_stage
                // ANCHOR: bad_noisy
                Stage::BadNoisy => {
                    if self.next_bad < self.bad.len() {
                        self.next_bad += 1;
                        return self.hand_out(Stage::BadNoisy, self.bad[self.next_bad - 1]);
                    }
                    self.stage = Stage::Done;
                }
                // ANCHOR_END: bad_noisy
                Stage::Done => return None,
            }
        }
    }
}
