//! The live progress line: an indicatif bar on a terminal, a plain line every few seconds in a
//! log (CI), nothing with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How often a plain progress line is printed when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

pub enum Progress {
    Bar(ProgressBar),
    /// `shown`: whether `line` has been printed already.
    Plain {
        last: Instant,
        line: String,
        shown: bool,
    },
    Quiet,
}

impl Progress {
    /// `total` is the number of games when it is known (not for an SPRT, which stops itself).
    pub fn new(total: Option<u64>, quiet: bool) -> Progress {
        if quiet {
            return Progress::Quiet;
        }
        if !std::io::stderr().is_terminal() {
            return Progress::Plain {
                last: Instant::now(),
                line: String::new(),
                shown: true,
            };
        }
        let (bar, template) = match total {
            Some(n) => (
                ProgressBar::new(n),
                "{elapsed_precise} [{bar:20}] {pos}/{len} {msg}",
            ),
            None => (
                ProgressBar::no_length(),
                "{elapsed_precise} {pos} games {msg}",
            ),
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
        // Games at long time controls take minutes: keep the elapsed time moving between them.
        bar.enable_steady_tick(Duration::from_secs(1));
        Progress::Bar(bar)
    }

    pub fn update(&mut self, games: u64, message: &str) {
        match self {
            Progress::Bar(bar) => {
                bar.set_position(games);
                bar.set_message(message.to_string());
            }
            Progress::Plain { last, line, shown } => {
                *line = format!("{games} games: {message}");
                *shown = last.elapsed() >= PLAIN_EVERY;
                if *shown {
                    eprintln!("{line}");
                    *last = Instant::now();
                }
            }
            Progress::Quiet => {}
        }
    }

    pub fn finish(&self) {
        match self {
            Progress::Bar(bar) => bar.finish(),
            Progress::Plain { line, shown, .. } if !shown => eprintln!("{line}"),
            _ => {}
        }
    }
}
