//! The `cb2026` binary: a UCI engine on stdin/stdout, or one command given as arguments
//! (`cb2026 bench`, `cb2026 perft 6`, `cb2026 spsa`...). `cb2026 --technique-options` is the
//! engine with every technique listed as a UCI option, for match runners.

use std::io::BufRead;
use std::sync::mpsc;
use uci::Session;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--technique-options` (for match runners and scripts): list every technique as a UCI
    // option, as well as the options a player sets.
    let technique_options = args.first().is_some_and(|a| a == "--technique-options");
    if technique_options {
        args.remove(0);
    }
    let mut session = Session::new(technique_options);
    if !args.is_empty() {
        session.execute(&args.join(" "));
        session.wait();
        if session.failed() {
            std::process::exit(1);
        }
        return;
    }
    // ANCHOR: input_thread
    // Input has its own thread, so commands are read while a search runs.
    let (lines, commands) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match input.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                // Bytes that aren't UTF-8 become U+FFFD: garbage in is an error message, not a crash.
                Ok(_) => {
                    if lines
                        .send(String::from_utf8_lossy(&buffer).into_owned())
                        .is_err()
                    {
                        break;
                    }
                }
            }
        }
    });
    for line in commands {
        if !session.execute(&line) {
            // `quit`: any search was stopped.
            return;
        }
    }
    // End of input: finish what ends by itself, stop what would not.
    session.end_of_input();
    // ANCHOR_END: input_thread
}
