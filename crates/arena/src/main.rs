//! The `arena` binary: parse the command line, run the match, print the summary.

use arena::cli::Cli;
use arena::report;
use arena::results::StopReason;
use arena::tournament;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let cli = Cli::try_parse_args(std::env::args_os()).unwrap_or_else(|e| e.exit());
    let config = match cli.into_config() {
        Ok(config) => config,
        Err(message) => {
            eprintln!("arena: {message}");
            return ExitCode::from(1);
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let (stop, interrupted) = (stop.clone(), interrupted.clone());
        // The first Ctrl-C ends the games in progress and prints the summary; a second one, for
        // when that is not quick enough, leaves at once. A second signal within a second of the
        // first is the same interrupt delivered twice (`timeout -s INT` signals the child and then
        // its whole process group), not a second request.
        let first = std::sync::OnceLock::new();
        let handler = ctrlc::set_handler(move || {
            if interrupted.swap(true, Ordering::Relaxed) {
                let since = first.get().map_or(Duration::MAX, Instant::elapsed);
                if since >= Duration::from_secs(1) {
                    std::process::exit(130);
                }
                return;
            }
            let _ = first.set(Instant::now());
            stop.store(true, Ordering::Relaxed);
            eprintln!("\narena: stopping (Ctrl-C again to leave at once)");
        });
        if let Err(e) = handler {
            eprintln!("arena: warning: cannot catch Ctrl-C: {e}");
        }
    }
    let outcome = match tournament::run(&config, &stop, &interrupted) {
        Ok(outcome) => outcome,
        Err(message) => {
            eprintln!("arena: {message}");
            return ExitCode::from(1);
        }
    };
    print!("{}", report::summary(&config, &outcome));
    let results = &outcome.results;
    match outcome.stop {
        StopReason::Interrupted => ExitCode::from(130),
        StopReason::MaxFaults => {
            eprintln!(
                "arena: the match was ended after {} faults (--max-faults {}); see the PGN's \
                 final comments, and --log, for what the engines did",
                results.fault_count(),
                config.max_faults
            );
            ExitCode::from(2)
        }
        _ if config.strict && results.fault_count() + results.time_loss_count() > 0 => {
            eprintln!("arena: --strict: an engine faulted or lost on time");
            ExitCode::from(3)
        }
        _ => ExitCode::SUCCESS,
    }
}
