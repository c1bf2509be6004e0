//! What a run shows while it trains: an indicatif bar on a terminal (positions/s, epoch, loss,
//! ETA), a plain line every 30 seconds otherwise (a log file), nothing when quiet. Lines such
//! as each epoch's summary go to standard error either way.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    /// When the last plain line was printed (without a bar).
    last_line: Instant,
    epoch_started: Instant,
    per_epoch: u64,
    /// Epochs done before this process started, and the run's total.
    first_epoch: u32,
    epochs: u32,
}

impl Progress {
    pub fn new(quiet: bool, first_epoch: u32, epochs: u32, per_epoch: u64) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let total = per_epoch * epochs.saturating_sub(first_epoch) as u64;
            let bar = ProgressBar::new(total);
            if let Ok(style) = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {percent:>3}% {msg}, ETA {eta_precise}",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
            bar.set_message(format!("epoch {}/{epochs}", first_epoch + 1));
            bar
        });
        Progress {
            bar,
            quiet,
            last_line: Instant::now(),
            epoch_started: Instant::now(),
            per_epoch,
            first_epoch,
            epochs,
        }
    }

    pub fn start_epoch(&mut self) {
        self.epoch_started = Instant::now();
    }

    /// `done` positions of epoch `epoch` (from 1) trained, at a mean loss of `loss` so far.
    pub fn update(&mut self, epoch: u32, done: u64, loss: f64) {
        if self.quiet {
            return;
        }
        let rate = done as f64 / self.epoch_started.elapsed().as_secs_f64().max(1e-9);
        let msg = format!(
            "epoch {epoch}/{}, loss {loss:.6}, {:.2}M pos/s",
            self.epochs,
            rate / 1e6
        );
        match &self.bar {
            Some(bar) => {
                let before = epoch.saturating_sub(1 + self.first_epoch) as u64;
                bar.set_position(before * self.per_epoch + done);
                bar.set_message(msg);
            }
            None => {
                if self.last_line.elapsed() >= Duration::from_secs(30) {
                    eprintln!("train: {msg}");
                    self.last_line = Instant::now();
                }
            }
        }
    }

    /// A line above the bar.
    pub fn line(&self, line: &str) {
        if self.quiet {
            return;
        }
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
