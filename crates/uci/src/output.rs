//! Writing to the GUI, and the lines the session writes: `info`, `bestmove`, errors. A closed
//! stdout (the GUI went away, or `cb2026 bench | head`) ends the engine quietly instead of
//! panicking.
//!
//! A thread may instead hand its output to a sink ([`set_sink`]): the browser build has no
//! stdout, and drives the session on one thread, so everything the session says there goes to
//! the sink and on to the page.

use chess::Move;
use engine::clock::Instant;
use engine::score::UciScore;
use engine::{Bound, Info};
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
