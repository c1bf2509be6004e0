//! What arena prints: the progress line's text and the summary at the end.

use crate::config::MatchConfig;
use crate::game::FaultKind;
use crate::results::{Outcome, PairingResults, Results, StopReason};
use crate::sprt::Sprt;
use crate::stats::{Estimate, estimate};
use std::fmt::Write as _;
use std::time::Duration;

/// From the game pairs when there are any, as they are the better model; from single games
/// before the first pair completes.
fn estimate_of(results: &PairingResults) -> Option<Estimate> {
    if results.pentanomial.iter().sum::<u64>() > 0 {
        estimate(&results.pentanomial)
    } else {
        estimate(&results.ldw)
    }
}

fn sprt_bounds(sprt: &Sprt, llr: f64) -> String {
    format!(
        "LLR {llr:.2} [{:.2}, {:.2}]",
        sprt.lower_bound(),
        sprt.upper_bound()
    )
}

pub fn progress_line(results: &Results, sprt: Option<Sprt>, llr: Option<f64>) -> String {
    let total = results.total();
    let [l, d, w] = total.ldw;
    let mut line = format!("W {w} D {d} L {l}");
    if let Some(e) = estimate_of(&total) {
        let _ = write!(line, "  Elo {:+.1} ± {:.1}", e.elo.value, e.elo.error());
    }
    if let (Some(sprt), Some(llr)) = (sprt, llr) {
        let _ = write!(line, "  {}", sprt_bounds(&sprt, llr));
    }
    let faults = results.fault_count() + results.time_loss_count();
    if faults > 0 {
        let _ = write!(line, "  faults/time losses {faults}");
    }
    line
}

fn duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

/// The peak resident memory of this process, from Linux's `/proc/self/status` (`VmHWM`).
pub fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The items joined, or "none".
fn list_or_none(items: &[String], separator: &str) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(separator)
    }
}

fn stop_text(stop: StopReason) -> String {
    match stop {
        StopReason::AllGamesPlayed => "all games played".to_string(),
        StopReason::Sprt(verdict) => format!("SPRT: {verdict}"),
        StopReason::MaxFaults => "too many faults (--max-faults): the match was ended".to_string(),
        StopReason::Interrupted => "interrupted".to_string(),
    }
}

fn estimate_lines(out: &mut String, results: &PairingResults) {
    let Some(e) = estimate_of(results) else {
        return;
    };
    let _ = writeln!(
        out,
        "Elo: {:+.2} ± {:.2} (95%, logistic)   nElo: {:+.2} ± {:.2} (95%, normalized)   LOS: {:.1}%",
        e.elo.value,
        e.elo.error(),
        e.nelo.value,
        e.nelo.error(),
        100.0 * e.los
    );
}

fn gauntlet_table(out: &mut String, config: &MatchConfig, results: &Results) {
    let _ = writeln!(
        out,
        "{:<20} {:>6} {:>5} {:>5} {:>5} {:>7} {:>18} {:>18}",
        "opponent", "games", "W", "D", "L", "score", "Elo (95%)", "nElo (95%)"
    );
    let rows = results
        .pairings
        .iter()
        .enumerate()
        .map(|(i, p)| (config.engines[i + 1].name.as_str(), p.clone()))
        .chain(std::iter::once(("total", results.total())));
    for (name, p) in rows {
        let [l, d, w] = p.ldw;
        let cell = |value: f64, error: f64| format!("{value:+.1} ± {error:.1}");
        let (score, elo, nelo) = match estimate_of(&p) {
            Some(e) => (
                format!("{:.1}%", 100.0 * e.score),
                cell(e.elo.value, e.elo.error()),
                cell(e.nelo.value, e.nelo.error()),
            ),
            None => ("-".to_string(), "-".to_string(), "-".to_string()),
        };
        let _ = writeln!(
            out,
            "{name:<20} {:>6} {w:>5} {d:>5} {l:>5} {score:>7} {elo:>18} {nelo:>18}",
            p.games()
        );
    }
}

fn fault_lines(out: &mut String, config: &MatchConfig, results: &Results) {
    let mut faults = Vec::new();
    for (engine, counts) in config.engines.iter().zip(&results.faults) {
        let kinds: Vec<String> = FaultKind::ALL
            .iter()
            .filter_map(|k| counts.get(k).map(|n| format!("{n} {}", k.label())))
            .collect();
        if !kinds.is_empty() {
            faults.push(format!("{}: {}", engine.name, kinds.join(", ")));
        }
    }
    let _ = writeln!(out, "Faults: {}", list_or_none(&faults, "; "));
    let losses: Vec<String> = config
        .engines
        .iter()
        .zip(&results.time_losses)
        .filter(|(_, n)| **n > 0)
        .map(|(e, n)| format!("{}: {n}", e.name))
        .collect();
    let _ = writeln!(out, "Time losses: {}", list_or_none(&losses, "; "));
}

// ANCHOR: summary
/// The summary printed at the end of a match, or when it is interrupted.
pub fn summary(config: &MatchConfig, outcome: &Outcome) -> String {
    let mut out = String::new();
    let results = &outcome.results;
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let _ = writeln!(out, "\nMatch: {} vs {}", names[0], names[1..].join(", "));
    let tcs: Vec<String> = config.engines.iter().map(|e| e.tc.to_string()).collect();
    let tc = if tcs.iter().all(|t| *t == tcs[0]) {
        tcs[0].clone()
    } else {
        tcs.join(" / ")
    };
    let book = match &config.openings.file {
        Some(file) => format!("{} ({} openings)", file.display(), outcome.openings),
        None => "the initial position".to_string(),
    };
    let _ = writeln!(
        out,
        "Settings: tc {tc}, {} games at once, seed {}, openings from {book}",
        config.concurrency, config.seed
    );
    let _ = writeln!(out, "Ended: {}", stop_text(outcome.stop));
    let total = results.total();
    let [l, d, w] = total.ldw;
    let _ = writeln!(
        out,
        "Games: {} in {} ({} from {}'s side: {w} W, {d} D, {l} L)",
        results.games(),
        duration(outcome.elapsed),
        if names.len() > 2 { "total" } else { "results" },
        names[0]
    );
    if outcome.resumed > 0 {
        let _ = writeln!(
            out,
            "Resumed: {} of these games were read back from the PGN; the time is this run's",
            outcome.resumed
        );
    }
    if let Some(prior) = &config.prior {
        let _ = writeln!(
            out,
            "Prior: {} of these games are an earlier stretch's counts (--prior), not in the PGN",
            prior.games()
        );
    }
    let _ = writeln!(
        out,
        "Pentanomial [LL, LD, DD+WL, WD, WW]: {:?}",
        total.pentanomial
    );
    if names.len() > 2 {
        gauntlet_table(&mut out, config, results);
    } else if let Some(e) = estimate_of(&total) {
        let _ = writeln!(out, "Score: {:.2}%", 100.0 * e.score);
        estimate_lines(&mut out, &total);
    }
    if let (Some(sprt), Some(llr)) = (config.sprt, outcome.llr) {
        let verdict = match outcome.stop {
            StopReason::Sprt(v) => v.to_string(),
            _ => "no decision yet".to_string(),
        };
        let _ = writeln!(
            out,
            "SPRT: elo0={} elo1={} alpha={} beta={} ({:?} Elo): {}: {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.model,
            sprt_bounds(&sprt, llr)
        );
    }
    let endings: Vec<String> = results
        .endings
        .iter()
        .map(|(how, n)| format!("{n} {how}"))
        .collect();
    let _ = writeln!(out, "Endings: {}", list_or_none(&endings, ", "));
    fault_lines(&mut out, config, results);
    let overhead = results.overhead;
    if overhead.moves > 0 {
        let mean = overhead.total.as_secs_f64() / overhead.moves as f64;
        let _ = writeln!(
            out,
            "Arena overhead per move: mean {:.1} us, max {:.2} ms, over {} moves",
            mean * 1e6,
            overhead.max.as_secs_f64() * 1e3,
            overhead.moves
        );
    }
    if let Some(kib) = peak_memory_kib() {
        let _ = writeln!(out, "Arena peak memory: {:.1} MiB", kib as f64 / 1024.0);
    }
    out
}
// ANCHOR_END: summary
