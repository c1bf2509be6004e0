//! The jobs a session runs on the search thread (a search, `perft`, `bench`, `tree`), so that
//! the input thread goes on answering `isready` and `stop` reaches them; and the one function
//! through which a `go` calls the workers ([`run_search`]).

use super::Session;
use crate::genfens::{self, Genfens};
use crate::go::{Go, parse_go};
use crate::output::{self, bestmove_line, error, say};
use crate::report::SearchReport;
use crate::tree::Format;
use chess::rng::Rng;
use chess::{Color, Move, Position, divide};
use engine::clock::Instant;
use engine::strength::{self, Lines, Strength};
use engine::time::Limits;
use engine::tools::bench::{self, BENCH_POSITIONS};
use engine::tools::chapter_table::chapter_table;
use engine::tools::tree::TreeRequest;
use engine::{Info, Params, SearchOptions, SearchResult, Techniques, ThreadPool};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What a `go` hands the search thread.
struct SearchRequest {
    position: Position,
    /// Hashes of the positions before `position` in the game.
    history: Vec<u64>,
    limits: Limits,
    options: SearchOptions,
    techniques: Techniques,
    params: Params,
}

/// The search of a `go`, on every thread of the pool, reporting each line to `report`: the one
/// place a `go` calls into the workers.
fn run_search(
    pool: &mut ThreadPool,
    request: &SearchRequest,
    report: &mut dyn FnMut(&Info),
) -> SearchResult {
    pool.set_switches(&request.techniques, &request.params);
    let SearchRequest {
        position,
        history,
        limits,
        options,
        ..
    } = request;
    pool.search(position, history, limits, options, report)
}

/// Whether a search with `limits` in `position` ends by itself: a depth or node limit, a fixed
/// time, or a clock for the side to move. `infinite` and `ponder` wait for `stop` or
/// `ponderhit` whatever the limits, and `mate`, `movestogo` or an increment alone set no limit.
fn ends_by_itself(limits: &Limits, position: &Position) -> bool {
    let clock = match position.side_to_move() {
        Color::White => limits.wtime,
        Color::Black => limits.btime,
    };
    !limits.infinite
        && !limits.ponder
        && (limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime.is_some()
            || clock.is_some())
}

/// The answer to a `go` whose search could not start: a legal move (among `searchmoves` if
/// given), or none.
fn fallback_move(position: &Position, limits: &Limits) -> Option<Move> {
    let moves = position.legal_moves();
    let mut allowed = moves
        .iter()
        .filter(|mv| limits.searchmoves.is_empty() || limits.searchmoves.contains(mv));
    allowed.next().copied()
}

/// Waits for `stop`, or with `infinite` false for the end of pondering (`ponderhit`).
fn wait_for_stop(stop: &AtomicBool, pondering: &AtomicBool, infinite: bool) {
    while !stop.load(Ordering::Relaxed) && (infinite || pondering.load(Ordering::Relaxed)) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Draws a recorded tree in `format`.
fn write_tree(
    tree: &engine::tree::Tree,
    format: Format,
    sink: &mut impl std::io::Write,
) -> std::io::Result<()> {
    match format {
        Format::Svg => sink.write_all(engine::tree::svg::to_svg(tree).as_bytes()),
        Format::Html => engine::tree::html::write_html(tree, sink),
        Format::Json => engine::tree::json::write_json(tree, sink),
    }
}

impl Session {
    /// `go`: a search, answered by exactly one `bestmove` (or `go perft`, a count).
    pub(super) fn go(&mut self, args: &[&str]) {
        let go_received = Instant::now();
        let limits = match parse_go(args, &self.position) {
            Ok(Go::Search { limits, errors }) => {
                if !errors.is_empty() {
                    error(format!("go: {}", errors.join("; ")));
                }
                limits
            }
            Ok(Go::Perft(depth)) => {
                let position = self.position.clone();
                self.perft(position, depth);
                return;
            }
            Err(e) => {
                error(e);
                return;
            }
        };
        let (mut techniques, params) = (self.techniques.clone(), self.params);
        let chess960 = self.options.chess960;
        // The win/draw/loss model reads the move number of the position searched.
        let wdl_move = self
            .options
            .show_wdl
            .then_some(self.position.fullmove_number());
        let mut options = SearchOptions {
            multipv: self.options.multipv,
            move_overhead: self.options.move_overhead,
            go_received: Some(go_received),
            tablebases: self.probing(),
        };
        // ANCHOR: limit_strength
        // A chosen strength: fewer nodes, and a move drawn among several lines.
        let strength = self
            .options
            .limit_strength
            .then(|| Strength::new(self.options.elo));
        let mut limits = limits;
        if let Some(strength) = strength {
            limits.nodes = Some(limits.nodes.unwrap_or(u64::MAX).min(strength.nodes()));
            options.multipv = options.multipv.max(strength::CANDIDATES);
            // The levels were measured with the hand-crafted evaluation (chapter 19): the
            // network, worth about a hundred Elo at the same nodes, would play above them.
            techniques.nnue = false;
        }
        self.choice_seed = self.choice_seed.wrapping_add(1);
        let mut rng = Rng::new(self.choice_seed ^ self.position.hash());
        // ANCHOR_END: limit_strength
        let endless = !ends_by_itself(&limits, &self.position);
        if self.needs_limit && endless {
            self.failed.store(true, Ordering::Relaxed);
            error(
                "go: nothing can stop a search here: give it depth, nodes, movetime or the clock of the side to move",
            );
            return;
        }
        if self.debug {
            self.say_time_limits(&limits);
        }
        self.pool
            .signals()
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        // Should the job not start, the answer is a legal move all the same.
        let fallback = fallback_move(&self.position, &limits);
        let request = SearchRequest {
            position: self.position.clone(),
            history: self.history.clone(),
            limits,
            options,
            techniques,
            params,
        };
        let answered = self.answered.clone();
        let signals = self.pool.signals().clone();
        // ANCHOR: search_thread
        let job = Box::new(move |pool: &mut ThreadPool| {
            let mut report = SearchReport::new(chess960, go_received, wdl_move);
            let mut lines = Lines::default();
            let mut result = run_search(pool, &request, &mut |info| {
                report.info(info);
                lines.record(info);
            });
            if let Some((mv, ponder)) = strength.and_then(|s| lines.choose(s, &mut rng)) {
                (result.best_move, result.ponder_move) = (Some(mv), ponder);
            }
            let limits = &request.limits;
            if result.best_move.is_none() && (limits.infinite || limits.ponder) {
                // UCI: such a search ends only at `stop` (or `ponderhit`), even with no move.
                wait_for_stop(&signals.stop, &signals.pondering, limits.infinite);
            }
            answered.store(true, Ordering::Relaxed);
            report.finish(&result);
        });
        // ANCHOR_END: search_thread
        if self.start_job(job) {
            self.endless = endless;
        } else {
            say!("{}", bestmove_line(fallback, None, chess960));
        }
    }

    // ANCHOR: say_time_limits
    /// `debug on`: what the time manager allots to this `go` (the search draws the same limits
    /// from the same clock), so that a user can see the effect of `Move Overhead` or `movestogo`.
    fn say_time_limits(&self, limits: &Limits) {
        let side = self.position.side_to_move();
        let allotted = engine::time::allot(limits, side, self.options.move_overhead, &self.params);
        say!("{}", output::time_limits_line(allotted));
    }
    // ANCHOR_END: say_time_limits

    /// Runs `job` on the search thread (in a synchronous session: here, to its end). False, with
    /// an error said, if it could not be started.
    fn start_job(&mut self, job: engine::threads::Job<engine::Evaluation>) -> bool {
        self.endless = false;
        self.pool.signals().stop.store(false, Ordering::Relaxed);
        self.answered.store(false, Ordering::Relaxed);
        if let Err(e) = self.pool.start(job) {
            error(e);
            return false;
        }
        if self.synchronous {
            // The job is done and its workers are back: keep its counters for `stats`, as
            // `wait` does when a job on the search thread ends.
            self.keep_notes();
        }
        true
    }

    /// `perft DEPTH [FEN]`: counts the game's position, or the FEN's, which is read by the same
    /// castling rules as `position fen` and does not become the game's position.
    pub(super) fn perft_command(&mut self, depth: u32, fen: Option<&str>) {
        let position = match fen {
            Some(fen) => match Position::from_fen_with(fen, self.mode()) {
                Ok(pos) => pos,
                Err(e) => {
                    error(e);
                    return;
                }
            },
            None => self.position.clone(),
        };
        self.perft(position, depth);
    }

    /// Counts on the search thread; `stop` ends the count early, and it says so.
    fn perft(&mut self, position: Position, depth: u32) {
        let chess960 = self.options.chess960;
        let signals = self.pool.signals().clone();
        let answered = self.answered.clone();
        // An error if it can't start: `perft` owes no answer.
        self.start_job(Box::new(move |_| {
            let start = Instant::now();
            let total = divide(&position, depth, &signals.stop, |mv, nodes| {
                say!("{}", output::perft_move_line(mv, nodes, chess960));
            });
            answered.store(true, Ordering::Relaxed);
            output::text(&output::perft_summary(total, start.elapsed()));
        }));
    }

    /// `bench`: the bench positions searched to `depth` on the search thread, like a search:
    /// `isready` is answered meanwhile, `stop` ends it. One thread, whatever `Threads` says: the
    /// node count is the search's fingerprint.
    pub(super) fn bench(&mut self, depth: i32) {
        let (techniques, params) = (self.techniques.clone(), self.params);
        let net = self.net.clone();
        let signals = self.pool.signals().clone();
        let answered = self.answered.clone();
        // An error if it can't start: `bench` owes no answer.
        self.start_job(Box::new(move |pool: &mut ThreadPool| {
            let report =
                bench::run_with_signals(BENCH_POSITIONS, depth, &techniques, &params, net, signals);
            answered.store(true, Ordering::Relaxed);
            // `stats` shows the bench's counters, as after a search.
            pool.show_counters(report.counters.clone());
            output::text(&output::bench_report(&report, BENCH_POSITIONS.len()));
        }));
    }

    /// `genfens ...` (see [`crate::genfens`]): the openings, each judged by a short search of
    /// the pool with the session's switches, on the search thread like `bench` (`stop` ends it).
    /// The searches share the hash table as a game's moves do; a fresh engine with the same
    /// arguments and one thread gives the same openings.
    pub(super) fn genfens(&mut self, request: Genfens) {
        let (techniques, params) = (self.techniques.clone(), self.params);
        let mode = self.mode();
        let signals = self.pool.signals().clone();
        let answered = self.answered.clone();
        let failed = self.failed.clone();
        let started = self.start_job(Box::new(move |pool: &mut ThreadPool| {
            pool.set_switches(&techniques, &params);
            let limits = Limits {
                nodes: Some(request.nodes),
                ..Limits::default()
            };
            let options = SearchOptions::default();
            let score = |pos: &Position| {
                let result = pool.search(pos, &[], &limits, &options, &mut |_| {});
                (!signals.stop.load(Ordering::Relaxed)).then_some(result.score)
            };
            let made = genfens::run(&request, mode, score, |line| say!("{line}"));
            answered.store(true, Ordering::Relaxed);
            if let Err(e) = made {
                failed.store(true, Ordering::Relaxed);
                error(format!("genfens: {e}"));
            }
        }));
        if !started {
            self.failed.store(true, Ordering::Relaxed);
        }
    }

    /// `tree ...` (see [`crate::tree`]): one search recorded on the search thread, like `bench`,
    /// then written to a file or shown as text.
    pub(super) fn tree(&mut self, args: &[&str]) {
        let parsed = match crate::tree::parse(args, &self.techniques, self.mode()) {
            Ok(parsed) => parsed,
            Err(e) => {
                self.failed.store(true, Ordering::Relaxed);
                error(e);
                return;
            }
        };
        let (position, history) = match parsed.position {
            Some(pos) => (pos, Vec::new()),
            None => (self.position.clone(), self.history.clone()),
        };
        if !position.has_legal_moves() {
            self.failed.store(true, Ordering::Relaxed);
            error("tree: the position has no legal move");
            return;
        }
        let request = TreeRequest {
            position,
            history,
            depth: parsed.depth,
            techniques: parsed.techniques,
            params: self.params,
            cap: parsed.cap,
            chess960: self.options.chess960,
        };
        let (out, print) = (parsed.out, parsed.print);
        let net = self.net.clone();
        let signals = self.pool.signals().clone();
        let answered = self.answered.clone();
        let failed = self.failed.clone();
        let started = self.start_job(Box::new(move |pool: &mut ThreadPool| {
            let tree = engine::tools::tree::record(&request, net, signals);
            answered.store(true, Ordering::Relaxed);
            pool.show_counters(tree.counters.clone());
            if let Some(format) = print {
                let mut drawing = Vec::new();
                match write_tree(&tree, format, &mut drawing) {
                    Ok(()) => output::text(&String::from_utf8_lossy(&drawing)),
                    Err(e) => error(format!("tree: {e}")),
                }
                return;
            }
            let Some((path, format)) = out else {
                output::text(&engine::tree::text::to_text(&tree));
                return;
            };
            let written = std::fs::File::create(&path).and_then(|file| {
                use std::io::Write;
                let mut sink = std::io::BufWriter::new(file);
                write_tree(&tree, format, &mut sink)?;
                sink.flush()
            });
            match written {
                Ok(()) => say!("{}", output::tree_written(&tree, &path)),
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    error(format!("tree: cannot write {path}: {e}"));
                }
            }
        }));
        if !started {
            self.failed.store(true, Ordering::Relaxed);
        }
    }

    /// `chapter-table`: each technique's bench with and without it, here on the session's thread
    /// (a tool for the book, not for a GUI).
    pub(super) fn chapter_table(&mut self, depth: i32, techniques: &[String]) {
        let names: Vec<&str> = techniques.iter().map(String::as_str).collect();
        match chapter_table(&names, depth, &self.techniques, &self.params) {
            Ok(table) => output::text(&table),
            Err(e) => error(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fallback_move;
    use chess::Position;
    use engine::time::Limits;

    /// The answer when a search job cannot start: a legal move of the position, one of
    /// `searchmoves` when the `go` named some, and none when there is no legal move.
    #[test]
    fn the_fallback_is_a_legal_move_within_searchmoves() {
        let pos = Position::startpos();
        let any = fallback_move(&pos, &Limits::default()).expect("a move");
        assert!(pos.legal_moves().contains(&any));

        let last = *pos.legal_moves().iter().last().expect("moves");
        let only_last = Limits {
            searchmoves: vec![last],
            ..Limits::default()
        };
        assert_eq!(fallback_move(&pos, &only_last), Some(last));

        let mated =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .expect("fool's mate");
        assert_eq!(fallback_move(&mated, &Limits::default()), None);
    }
}
