//! Writing to the GUI, and the text of everything the session writes: `info` and `bestmove`
//! lines, errors, and the answers of the other commands. The session decides what to say; how it
//! reads is here. A closed stdout (the GUI went away, or `cb2026 bench | head`) ends the engine
//! quietly instead of panicking.
//!
//! A thread may instead hand its output to a sink ([`set_sink`]): the browser build has no
//! stdout, and drives the session on one thread, so everything the session says there goes to
//! the sink and on to the page.

use chess::{Move, Position};
use engine::clock::Instant;
use engine::eval::nnue::{Network, PieceValues};
use engine::score::UciScore;
use engine::stages::Stage;
use engine::time::TimeLimits;
use engine::tools::bench::BenchReport;
use engine::{Bound, Info, Techniques};
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// Receives each piece of output: one line with its newline, or a block of lines.
pub type Sink = Box<dyn FnMut(&str)>;

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// Sends this thread's output to `sink` instead of stdout (`None`: back to stdout); returns the
/// sink that was set before. Output written on other threads (the search thread of the binary)
/// is not affected.
pub fn set_sink(sink: Option<Sink>) -> Option<Sink> {
    SINK.with(|cell| std::mem::replace(&mut *cell.borrow_mut(), sink))
}

/// Runs `f` with this thread's output captured: each piece goes to `on_piece` as it is written
/// (so a search's `info` lines can be shown while it runs), and all of it is returned. The sink
/// set before, if any, is set again afterwards.
pub fn capture(f: impl FnOnce(), mut on_piece: impl FnMut(&str) + 'static) -> String {
    let collected = Rc::new(RefCell::new(String::new()));
    let into = collected.clone();
    let previous = set_sink(Some(Box::new(move |text: &str| {
        into.borrow_mut().push_str(text);
        on_piece(text);
    })));
    f();
    set_sink(previous);
    collected.take()
}

/// Hands this thread's sink to `give`; false if it has none (then `give` is not called, so
/// stdout's path formats nothing extra).
fn to_sink(give: impl FnOnce(&mut Sink)) -> bool {
    SINK.with(|cell| match cell.borrow_mut().as_mut() {
        Some(sink) => {
            give(sink);
            true
        }
        None => false,
    })
}

/// Writes `text` as it is (multi-line text ending in a newline).
pub fn text(text: &str) {
    if to_sink(|sink| sink(text)) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

/// Writes one line.
pub fn line(args: std::fmt::Arguments) {
    if to_sink(|sink| sink(&format!("{args}\n"))) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{args}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// `println!` for the GUI: see [`line`].
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))
    };
}
pub(crate) use say;

// ANCHOR: error
/// Says that a command could not be carried out: one line, and nothing else changes.
pub fn error(message: impl std::fmt::Display) {
    say!("info string error: {}", clip(&message.to_string()));
}
// ANCHOR_END: error

/// The longest word an error message repeats whole: a bad token is echoed so the user sees what
/// was refused, but a megabyte of garbage comes back as its first 40 characters and an ellipsis.
const ECHO_WORD_CHARS: usize = 40;
/// The longest error message: twenty thousand short words come back as their first few dozen.
/// The longest message written here (a usage line with a clipped word in it) is under 200.
pub const ERROR_CHARS: usize = 240;

/// `message` with each word cut to [`ECHO_WORD_CHARS`] and the whole to [`ERROR_CHARS`].
fn clip(message: &str) -> String {
    let mut clipped = String::new();
    let mut chars = 0;
    for (i, word) in message.split(' ').enumerate() {
        if i > 0 {
            clipped.push(' ');
            chars += 1;
        }
        if word.chars().nth(ECHO_WORD_CHARS).is_some() {
            clipped.extend(word.chars().take(ECHO_WORD_CHARS));
            clipped.push_str("...");
            chars += ECHO_WORD_CHARS + 3;
        } else {
            clipped.push_str(word);
            chars += word.chars().count();
        }
        if chars > ERROR_CHARS {
            let cut: String = clipped.chars().take(ERROR_CHARS).collect();
            return cut + "...";
        }
    }
    clipped
}

/// An `info` line in UCI's format; with `wdl_move` (`UCI_ShowWDL`, the root's move number) the
/// score's win/draw/loss chances too.
pub fn info_line(info: &Info, chess960: bool, start: Instant, wdl_move: Option<u32>) -> String {
    let score = UciScore::from_score(info.score);
    let mut bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    }
    .to_string();
    if let Some(fullmove) = wdl_move {
        let [w, d, l] = engine::wdl::wdl(info.score, fullmove);
        bound.push_str(&format!(" wdl {w} {d} {l}"));
    }
    let millis = start.elapsed().as_millis().max(info.time.as_millis());
    let nps = (info.nodes as f64 / (millis.max(1) as f64 / 1000.0)) as u64;
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_uci(chess960)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} hashfull {} tbhits {} time {millis} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.hashfull,
        info.tbhits,
        pv.join(" ")
    )
}

/// `bestmove`: the move, and the reply to ponder on if there is one; `0000` (the null move, which
/// GUIs accept) when there is no legal move.
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>, chess960: bool) -> String {
    match (best, ponder) {
        (Some(best), Some(ponder)) => format!(
            "bestmove {} ponder {}",
            best.to_uci(chess960),
            ponder.to_uci(chess960)
        ),
        (Some(best), None) => format!("bestmove {}", best.to_uci(chess960)),
        (None, _) => "bestmove 0000".to_string(),
    }
}

/// The answer to `uci`: who the engine is, its options (`declarations`), `uciok`.
pub fn handshake(declarations: &[String]) -> String {
    let mut text = format!(
        "id name cb2026 {}\nid author the cb2026 developers\n",
        env!("CARGO_PKG_VERSION")
    );
    for line in declarations {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str("uciok\n");
    text
}

/// `set`'s answer: the switch or parameter as it now is.
pub fn setting_line(name: &str, value: &str) -> String {
    format!("info string {name} = {value}")
}

/// `set stage N`: the stage and its chapter's title.
pub fn stage_line(stage: Stage) -> String {
    format!("info string stage = {stage} ({})", stage.title())
}

/// `debug on`: what the time manager allots to a `go`.
pub fn time_limits_line(allotted: Option<TimeLimits>) -> String {
    match allotted {
        Some(t) if t.fixed => format!("info string time: fixed {} ms", t.hard.as_millis()),
        Some(t) => format!(
            "info string time: soft {} ms, hard {} ms",
            t.soft.as_millis(),
            t.hard.as_millis()
        ),
        None => "info string time: no clock, no time limit".to_string(),
    }
}

/// `moves`: the legal moves in UCI notation on one line (the word alone when there is none).
pub fn legal_moves_line(position: &Position, chess960: bool) -> String {
    let mut line = String::from("moves");
    for mv in position.legal_moves().iter() {
        line.push(' ');
        line.push_str(&mv.to_uci(chess960));
    }
    line
}

/// `d`: the board, its FEN, hash and checkers.
pub fn board(position: &Position) -> String {
    let checkers: Vec<String> = position.checkers().map(|s| s.to_string()).collect();
    format!(
        "{}Fen: {}\nHash: {:016x}\nCheckers: {}\n",
        position.board_string(),
        position.to_fen(),
        position.hash(),
        checkers.join(" ")
    )
}

/// The lines that say a network was loaded (`EvalFile`), `name` as the option shows it.
pub fn network_loaded(name: &str, net: &Network) -> String {
    let mut text = format!("info string network {name} ({}) loaded\n", net.shape());
    if !net.description.is_empty() {
        text.push_str(&format!(
            "info string network made by: {}\n",
            net.description
        ));
    }
    text
}

/// `SyzygyPath`'s answer, in the words GUIs know from Stockfish.
pub fn tablebases_found(files: usize, max_pieces: usize) -> String {
    format!("info string Found {files} tablebase files, up to {max_pieces} pieces")
}

/// `eval`'s second part, after the hand-crafted evaluation's report: the network, what each
/// piece is worth to it, and its score; `in_use`: whether the search evaluates with it.
pub fn network_evaluation(
    net: &Network,
    values: &PieceValues,
    position: &Position,
    techniques: &Techniques,
) -> String {
    let description = if net.description.is_empty() {
        "(no description in its file)"
    } else {
        &net.description
    };
    format!(
        "\nnetwork: {}, made by: {description}\n\
         network: what each piece is worth to it, in pawns, from White's view\n\
         {}network score {} cp from White's view, {} cp for the side to move ({})\n",
        net.shape(),
        values.board(position),
        values.white_score,
        values.white_score * position.side_to_move().sign(),
        if techniques.nnue {
            "the search uses it: nnue on"
        } else if techniques.hce {
            "not used: nnue off, the search uses the hand-crafted evaluation"
        } else {
            "not used: nnue and hce off, the search uses material and piece-square tables"
        }
    )
}

/// One root move's count of a `perft`.
pub fn perft_move_line(mv: Move, nodes: u64, chess960: bool) -> String {
    format!("{}: {nodes}", mv.to_uci(chess960))
}

/// The end of a `perft`: its total, time and speed, or that it was stopped (`total` `None`).
pub fn perft_summary(total: Option<u64>, elapsed: std::time::Duration) -> String {
    match total {
        Some(total) => format!(
            "\nNodes searched: {total}\nTime: {} ms\nNPS: {:.0}\n",
            elapsed.as_millis(),
            total as f64 / elapsed.as_secs_f64().max(1e-9)
        ),
        None => format!(
            "\ninfo string perft stopped after {} ms\n",
            elapsed.as_millis()
        ),
    }
}

/// `bench`: a line per position searched, whether it was stopped, and the total last (its node
/// count is the search's fingerprint, which scripts read from the last line).
pub fn bench_report(report: &BenchReport, positions: usize) -> String {
    let mut text = String::new();
    for (i, line) in report.lines.iter().enumerate() {
        text.push_str(&format!(
            "position {:>2}/{positions}: {:>10} nodes {:>6} ms  {}\n",
            i + 1,
            line.nodes,
            line.time.as_millis(),
            line.fen
        ));
    }
    if report.stopped {
        text.push_str(&format!(
            "info string bench stopped after {} of {positions} positions\n",
            report.lines.len(),
        ));
    }
    text.push_str(&format!("{} nodes {} nps\n", report.nodes, report.nps()));
    text
}

/// `tree ... out FILE`: what was written, and why it may be less than the whole tree.
pub fn tree_written(tree: &engine::tree::Tree, path: &str) -> String {
    let mut capped = String::new();
    if tree.dropped > 0 {
        capped = format!(" (cap reached: {} nodes not recorded)", tree.dropped);
    }
    if tree.stopped {
        capped.push_str(" (stopped before the iteration ended)");
    }
    format!(
        "info string tree depth {}: {} nodes written to {path}{capped}",
        tree.depth,
        tree.node_count()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_clipped_word_by_word_and_as_a_whole() {
        assert_eq!(clip("go: unknown argument 'x'"), "go: unknown argument 'x'");
        let huge = format!("bad '{}' here", "x".repeat(1000));
        assert_eq!(clip(&huge), format!("bad '{}... here", "x".repeat(39)));
        let many = format!("setoption: {}", "ab ".repeat(20_000));
        let clipped = clip(&many);
        assert_eq!(clipped.chars().count(), ERROR_CHARS + 3);
        assert!(clipped.starts_with("setoption: ab ab") && clipped.ends_with("..."));
    }
}
