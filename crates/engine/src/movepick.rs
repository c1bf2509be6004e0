//! The move picker: hands out a node's moves one at a time, best guess first, generating them in
//! stages so that a node that cuts off early never pays for the moves it didn't need.
//!
//! Stages: the hash move; captures and promotions by MVV-LVA; the two killer moves; the quiet
//! moves by history. In the quiescence search only the captures (or, in check, every evasion).

use crate::history::QuietHistory;
use crate::techniques::Techniques;
use chess::{MAX_MOVES, Move, MoveKind, MoveList, PieceType, Position};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    TtMove,
    GenerateNoisy,
    Noisy,
    Killer1,
    Killer2,
    GenerateQuiet,
    Quiet,
    Done,
}

pub struct MovePicker {
    stage: Stage,
    /// The stage of the move handed out last.
    last: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    /// Skip the quiet stages (quiescence search out of check).
    noisy_only: bool,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

/// Whether a move changes material: a capture or a promotion.
#[inline]
pub fn is_noisy(pos: &Position, mv: Move) -> bool {
    mv.kind() == MoveKind::Promotion || pos.is_capture(mv)
}

// ANCHOR: mvv_lva
/// Most valuable victim first; among equal victims, the least valuable attacker. A promotion to
/// a queen counts as winning a queen; under-promotions come last.
fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = match mv.kind() {
        MoveKind::EnPassant => PieceType::Pawn.index() as i32 + 1,
        _ => pos
            .piece_at(mv.to())
            .map_or(0, |p| p.piece_type.index() as i32 + 1),
    };
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

impl MovePicker {
    /// For the main search: every legal move, in stages.
    pub fn new(tt_move: Option<Move>, killers: [Option<Move>; 2]) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            last: Stage::TtMove,
            tt_move,
            killers,
            noisy_only: false,
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
        }
    }

    /// For the quiescence search: captures and promotions only, unless in check.
    pub fn quiescence(pos: &Position, tt_move: Option<Move>) -> MovePicker {
        let noisy_only = !pos.is_check();
        MovePicker {
            stage: Stage::TtMove,
            last: Stage::TtMove,
            tt_move: tt_move.filter(|&m| !noisy_only || is_noisy(pos, m)),
            killers: [None; 2],
            noisy_only,
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
        }
    }

    /// The stage of the move handed out last.
    pub fn last_stage(&self) -> Stage {
        self.last
    }

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

    fn already_tried(&self, mv: Move) -> bool {
        Some(mv) == self.tt_move || self.killers.contains(&Some(mv))
    }

    /// The next move to search, or `None` when all have been handed out.
    pub fn next(
        &mut self,
        pos: &Position,
        history: &QuietHistory,
        techniques: &Techniques,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateNoisy;
                    if let Some(mv) = self.tt_move {
                        if pos.is_legal(mv) {
                            self.last = Stage::TtMove;
                            return Some(mv);
                        }
                        self.tt_move = None;
                    }
                }
                Stage::GenerateNoisy => {
                    self.moves.clear();
                    pos.generate::<MoveList, false, true>(&mut self.moves);
                    // Under-promotions are only worth a look when they could be forced (in check).
                    if self.noisy_only {
                        self.moves
                            .retain(|m| m.promotion().is_none_or(|p| p == PieceType::Queen));
                    }
                    for i in 0..self.moves.len() {
                        self.scores[i] = if techniques.mvv_lva {
                            mvv_lva(pos, self.moves[i])
                        } else {
                            0
                        };
                    }
                    self.next = 0;
                    self.stage = Stage::Noisy;
                }
                Stage::Noisy => match self.pick_best() {
                    Some(mv) if Some(mv) == self.tt_move => {}
                    Some(mv) => {
                        self.last = Stage::Noisy;
                        return Some(mv);
                    }
                    None => {
                        self.stage = if self.noisy_only {
                            Stage::Done
                        } else {
                            Stage::Killer1
                        };
                    }
                },
                Stage::Killer1 | Stage::Killer2 => {
                    let current = self.stage;
                    let slot = (current == Stage::Killer2) as usize;
                    self.stage = if slot == 0 {
                        Stage::Killer2
                    } else {
                        Stage::GenerateQuiet
                    };
                    // Only a legal quiet move that isn't the hash move; remember what was really
                    // tried, so the quiet stage skips exactly those.
                    let tt_move = self.tt_move;
                    let candidate = self.killers[slot].filter(|&mv| {
                        techniques.killers
                            && Some(mv) != tt_move
                            && pos.is_legal(mv)
                            && !is_noisy(pos, mv)
                    });
                    self.killers[slot] = candidate;
                    if let Some(mv) = candidate {
                        self.last = current;
                        return Some(mv);
                    }
                }
                Stage::GenerateQuiet => {
                    self.moves.clear();
                    pos.generate::<MoveList, true, false>(&mut self.moves);
                    let side = pos.side_to_move();
                    for i in 0..self.moves.len() {
                        self.scores[i] = if techniques.history {
                            history.get(side, self.moves[i])
                        } else {
                            0
                        };
                    }
                    self.next = 0;
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => match self.pick_best() {
                    Some(mv) if self.already_tried(mv) => {}
                    Some(mv) => {
                        self.last = Stage::Quiet;
                        return Some(mv);
                    }
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}
