//! What one search says: an `info` line for each line the search reports, then `bestmove`. A GUI
//! shows the last principal variation as the engine's plan, and match runners check that the move
//! played begins it; the search's last report need not (an iteration stopped after it found a new
//! best move, the threads' vote, a move drawn at a limited strength), so the report keeps what it
//! last sent and, where the move played differs, sends one more line that begins with it.

use crate::output::{bestmove_line, info_line, say};
use chess::Move;
use engine::clock::Instant;
use engine::{Info, SearchResult};

pub struct SearchReport {
    chess960: bool,
    /// When `go` arrived: `info` lines count their time from it.
    go_received: Instant,
    /// `UCI_ShowWDL`: the move number of the position searched (see [`info_line`]).
    wdl_move: Option<u32>,
    /// The last line sent of each MultiPV number of the deepest set: a move drawn among the lines
    /// is shown with its own.
    lines: Vec<Info>,
    /// The last line sent for the best line (`multipv 1`): the one a GUI shows as the plan.
    last_best: Option<Info>,
}

impl SearchReport {
    pub fn new(chess960: bool, go_received: Instant, wdl_move: Option<u32>) -> SearchReport {
        SearchReport {
            chess960,
            go_received,
            wdl_move,
            lines: Vec::new(),
            last_best: None,
        }
    }

    /// Sends `info` as an `info` line.
    pub fn info(&mut self, info: &Info) {
        self.send(info);
        if info.multipv == 1 {
            self.last_best = Some(info.clone());
        }
        if info.bound.is_none() && !info.pv.is_empty() {
            self.lines.retain(|line| line.multipv != info.multipv);
            self.lines.push(info.clone());
        }
    }

    fn send(&self, info: &Info) {
        say!(
            "{}",
            info_line(info, self.chess960, self.go_received, self.wdl_move)
        );
    }

    /// Sends `bestmove` for `result`, after a last `info` line if the last one sent for the best
    /// line does not begin with the move played.
    pub fn finish(&mut self, result: &SearchResult) {
        if let (Some(best), Some(last)) = (result.best_move, &self.last_best)
            && last.pv.first() != Some(&best)
        {
            let closing = self.closing_line(best, result, last);
            self.send(&closing);
        }
        say!(
            "{}",
            bestmove_line(result.best_move, result.ponder_move, self.chess960)
        );
    }

    /// The line that shows `best`: a line sent for it, as the best line now, or else one made of
    /// the result (its depth and score, the move and the reply expected).
    fn closing_line(&self, best: Move, result: &SearchResult, last: &Info) -> Info {
        if let Some(line) = self
            .lines
            .iter()
            .find(|line| line.pv.first() == Some(&best))
        {
            return Info {
                multipv: 1,
                ..line.clone()
            };
        }
        Info {
            depth: result.depth.max(1),
            multipv: 1,
            score: result.score,
            bound: None,
            nodes: result.nodes.max(last.nodes),
            pv: std::iter::once(best).chain(result.ponder_move).collect(),
            ..last.clone()
        }
    }
}
