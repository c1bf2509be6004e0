//! The `cb2026` binary: a UCI engine on stdin/stdout, or one command given as arguments
//! (`cb2026 bench`, `cb2026 perft 6`, `cb2026 spsa`...). `cb2026 --technique-options` is the
//! engine with every technique listed as a UCI option, for match runners.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;
use uci::Session;
use uci::input::{MAX_LINE_BYTES, Read, read_line};

/// What the input thread hands the session.
enum Input {
    Line(String),
    /// A line past [`MAX_LINE_BYTES`], skipped.
    TooLong,
}

/// Lines read ahead of the session: with each at most [`MAX_LINE_BYTES`], what waits in the
/// channel is bounded too (the session takes a line in microseconds, so this is no delay).
const LINES_AHEAD: usize = 16;

/// How often the session looks whether the search that commands wait for has ended.
const WAITING_POLL: Duration = Duration::from_millis(1);

/// The commands of a command line: `cb2026 perft 5 FEN` is one command of several words, and
/// `cb2026 "setoption name Threads value 2" "go depth 9" quit` (the first argument holds a
/// space) is one command per argument, as OpenBench's `"genfens N seed S book None" quit`.
fn command_line(args: Vec<String>) -> Vec<String> {
    if args.len() > 1 && args[0].contains(char::is_whitespace) {
        args
    } else {
        vec![args.join(" ")]
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--technique-options` (for match runners and scripts): list every technique as a UCI
    // option, as well as the options a player sets.
    let technique_options = args.first().is_some_and(|a| a == "--technique-options");
    if technique_options {
        args.remove(0);
    }
    if !args.is_empty() {
        // Nothing can stop a command given here, so a search needs a limit.
        let mut session = Session::without_input(technique_options);
        for command in command_line(args) {
            // Each to its end before the next: OpenBench runs `cb2026 "genfens ..." quit`.
            let go_on = session.execute(&command);
            session.wait();
            if !go_on {
                break;
            }
        }
        if session.failed() {
            std::process::exit(1);
        }
        return;
    }
    let mut session = Session::new(technique_options);
    // ANCHOR: input_thread
    // Input has its own thread, so commands are read while a search runs.
    let (lines, commands) = mpsc::sync_channel::<Input>(LINES_AHEAD);
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut buffer = Vec::new();
        loop {
            let line = match read_line(&mut input, &mut buffer, MAX_LINE_BYTES) {
                Read::End => break,
                Read::TooLong => Input::TooLong,
                // Bytes that aren't UTF-8 become U+FFFD: garbage in is an error message, not a crash.
                Read::Line => Input::Line(String::from_utf8_lossy(&buffer).into_owned()),
            };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    loop {
        // Commands that came during a search wait for it: look now and then whether it ended.
        let input = if session.has_waiting() {
            match commands.recv_timeout(WAITING_POLL) {
                Ok(input) => input,
                Err(RecvTimeoutError::Timeout) => {
                    session.run_waiting();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match commands.recv() {
                Ok(input) => input,
                Err(_) => break,
            }
        };
        match input {
            Input::Line(line) => {
                if !session.execute(&line) {
                    // `quit`: every search was stopped and answered.
                    return;
                }
            }
            Input::TooLong => session.line_too_long(MAX_LINE_BYTES),
        }
    }
    // End of input: finish what ends by itself, stop what would not.
    session.end_of_input();
    // ANCHOR_END: input_thread
}
