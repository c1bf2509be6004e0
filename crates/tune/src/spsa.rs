//! `tune spsa`: tunes the search's [`Params`](engine::Params) by SPSA, playing the games with
//! `arena`, as OpenBench runs SPSA.
//!
//! For `N` iterations and each parameter `θ` with its table row (default, min, max, step):
//!
//! ```text
//! A   = 0.1 · N                           (a_ratio · N)
//! c   = c_end · N^γ                       c_end = the parameter's step
//! a   = r_end · c_end² · (A + N)^α        r_end = 0.002 by default
//! iteration k = 1..N:
//!   c_k = max(c / k^γ, 0.5)     a_k = a / (A + k)^α     r_k = a_k / c_k²
//!   Δ   = ±1 (a fair coin per parameter)
//!   θ+  = round(θ + c_k·Δ), θ− = round(θ − c_k·Δ)   (one shared random rounding, then clamped)
//!   play P game pairs, θ+ against θ− (each opening with both colours): W, D, L from θ+'s side
//!   θ  += r_k · c_k · (W − L) · Δ   = (a_k / c_k) · (W − L) · Δ, clamped to [min, max]
//! ```
//!
//! with α = 0.602 and γ = 0.101. The schedules are chosen so that the last iteration perturbs by
//! exactly `c_end` and has `r_k = r_end`. `W − L` is the difference of the two engines' points
//! over the batch, `y+ − y−`; Spall's gradient estimate is `(y+ − y−) / (2·c_k·Δ)`, so the
//! update is Spall's `θ += a'_k · ĝ` with `a'_k = 2·a_k` (OpenBench folds the 2 into `a`).
//!
//! The games are played by the `arena` binary, one call per iteration, with both engines the same
//! binary given the parameters as UCI options. `arena` only sends options an engine declares, and
//! cb2026 declares its parameters only when built with `--features tune`: [`check_engine`] makes
//! sure it does. The log file starts with the run's settings and the values it starts from (two
//! `#` lines); every iteration is appended to it (one line, `key=value` words), from which an
//! interrupted run resumes: the same command again continues after the last logged
//! iteration. The final values are printed as `name = value` lines.

use chess::rng::{self, Rng};
use engine::params::{PARAMS, ParamInfo};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// OpenBench's defaults.
pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;
pub const A_RATIO: f64 = 0.1;
pub const R_END: f64 = 0.002;

/// One tuned parameter.
#[derive(Clone, Debug)]
pub struct Param {
    pub info: ParamInfo,
    /// The current estimate.
    pub value: f64,
    /// `c`: the perturbation at iteration 1.
    pub c: f64,
    /// `a`: the gain's numerator.
    pub a: f64,
}

/// The schedule constants.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    pub iterations: u64,
    pub alpha: f64,
    pub gamma: f64,
    pub a_ratio: f64,
    pub r_end: f64,
}

impl Schedule {
    fn big_a(&self) -> f64 {
        self.a_ratio * self.iterations as f64
    }

    /// `c` and `a` of a parameter whose `c_end` is `step`.
    pub fn constants(&self, step: f64) -> (f64, f64) {
        let n = self.iterations as f64;
        let c = step * n.powf(self.gamma);
        let a = self.r_end * step * step * (self.big_a() + n).powf(self.alpha);
        (c, a)
    }

    /// `c_k` and `a_k` at iteration `k` (from 1).
    pub fn at(&self, p: &Param, k: u64) -> (f64, f64) {
        let c_k = (p.c / (k as f64).powf(self.gamma)).max(0.5);
        let a_k = p.a / (self.big_a() + k as f64).powf(self.alpha);
        (c_k, a_k)
    }
}

/// The parameters called `names`, starting at their defaults.
pub fn params(names: &[String], schedule: &Schedule) -> Result<Vec<Param>, String> {
    names
        .iter()
        .map(|name| {
            let info = *PARAMS.iter().find(|p| p.name == name).ok_or_else(|| {
                format!(
                    "no search parameter called '{name}' (the parameters: {})",
                    PARAMS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
                )
            })?;
            let (c, a) = schedule.constants(info.step as f64);
            Ok(Param {
                info,
                value: info.default as f64,
                c,
                a,
            })
        })
        .collect()
}

/// One iteration's perturbation: the values of the + and − engines and the signs.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub plus: Vec<i32>,
    pub minus: Vec<i32>,
    pub signs: Vec<i32>,
}

// ANCHOR: spsa_step
/// Draws iteration `k`'s perturbation (seeded by `seed` and `k`).
pub fn perturb(params: &[Param], schedule: &Schedule, seed: u64, k: u64) -> Perturbation {
    let mut rng = Rng::new(rng::derive(seed, k));
    let mut out = Perturbation {
        plus: Vec::new(),
        minus: Vec::new(),
        signs: Vec::new(),
    };
    for p in params {
        let (c_k, _) = schedule.at(p, k);
        let sign = rng.sign();
        // OpenBench's probabilistic rounding: one uniform number for both engines.
        let u = rng.unit();
        let clamp = |x: f64| (x + u).floor().clamp(p.info.min as f64, p.info.max as f64) as i32;
        out.plus.push(clamp(p.value + sign as f64 * c_k));
        out.minus.push(clamp(p.value - sign as f64 * c_k));
        out.signs.push(sign);
    }
    out
}

/// Applies iteration `k`'s result (`wins - losses` from the + engine's side).
pub fn update(params: &mut [Param], schedule: &Schedule, k: u64, signs: &[i32], net: i64) {
    for (p, &sign) in params.iter_mut().zip(signs) {
        let (c_k, a_k) = schedule.at(p, k);
        let r_k = a_k / (c_k * c_k);
        p.value = (p.value + r_k * c_k * net as f64 * sign as f64)
            .clamp(p.info.min as f64, p.info.max as f64);
    }
}
// ANCHOR_END: spsa_step

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Reads `arena`'s summary line `Games: N in T (results from NAME's side: W W, D D, L L)`.
pub fn parse_arena_summary(text: &str) -> Option<Wdl> {
    let line = text.lines().rev().find(|l| l.starts_with("Games: "))?;
    let inside = line.rsplit_once(": ")?.1.trim_end_matches(')');
    let mut wdl = Wdl::default();
    for part in inside.split(',') {
        let mut words = part.split_whitespace();
        let n: u64 = words.next()?.parse().ok()?;
        match words.next()? {
            "W" => wdl.wins = n,
            "D" => wdl.draws = n,
            "L" => wdl.losses = n,
            _ => return None,
        }
    }
    Some(wdl)
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub names: Vec<String>,
    pub schedule: Schedule,
    pub pairs: u64,
    pub tc: String,
    pub engine: PathBuf,
    pub arena: PathBuf,
    pub openings: PathBuf,
    pub concurrency: usize,
    pub hash_mib: usize,
    pub seed: u64,
    pub log: PathBuf,
    /// More arguments for arena.
    pub arena_args: Vec<String>,
}

/// Checks that `engine` declares every parameter as a UCI option (a `--features tune` build):
/// arena would silently skip options the engine does not declare.
pub fn check_engine(engine: &Path, names: &[String]) -> Result<(), String> {
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", engine.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"uci\nquit\n");
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{}: {e}", engine.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let declared = |name: &str| {
        text.lines().any(|l| {
            l.strip_prefix("option name ")
                .and_then(|rest| rest.split(" type ").next())
                .is_some_and(|n| n.trim().eq_ignore_ascii_case(name))
        })
    };
    let missing: Vec<&String> = names.iter().filter(|n| !declared(n)).collect();
    if !missing.is_empty() {
        return Err(format!(
            "{} does not declare {} as UCI options: build it with the tune feature \
             (cargo build --release -p uci --features tune, or scripts/spsa.sh does it)",
            engine.display(),
            missing
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(())
}

/// The log's first line: everything that makes two runs the same run, so that a resumed run
/// with other settings is refused. arena's extra arguments (switches set on both engines, for
/// one) are part of it when there are any; a log written without them reads as before.
fn header(config: &Config) -> String {
    let s = &config.schedule;
    let arena = if config.arena_args.is_empty() {
        String::new()
    } else {
        format!(" arena={}", config.arena_args.join(" "))
    };
    format!(
        "# spsa params={} iterations={} pairs={} tc={} alpha={} gamma={} a_ratio={} r_end={} seed={}{arena}",
        config.names.join(","),
        s.iterations,
        config.pairs,
        config.tc,
        s.alpha,
        s.gamma,
        s.a_ratio,
        s.r_end,
        config.seed
    )
}

/// The log's second line: the values the run starts from (the engine's defaults when it began),
/// so that the log alone says where each parameter came from. A resumed run skips it.
fn start_line(params: &[Param]) -> String {
    let names: Vec<&str> = params.iter().map(|p| p.info.name).collect();
    format!(
        "# start {}",
        values_text(&names, params.iter().map(|p| p.value.to_string()))
    )
}

/// `name:value,name:value` words.
fn values_text(names: &[&str], values: impl Iterator<Item = String>) -> String {
    names
        .iter()
        .zip(values)
        .map(|(n, v)| format!("{n}:{v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// One iteration's log line.
pub fn log_line(k: u64, params: &[Param], pert: &Perturbation, wdl: Wdl) -> String {
    let names: Vec<&str> = params.iter().map(|p| p.info.name).collect();
    format!(
        "k={k} w={} d={} l={} plus={} minus={} theta={}",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        values_text(&names, pert.plus.iter().map(|v| v.to_string())),
        values_text(&names, pert.minus.iter().map(|v| v.to_string())),
        values_text(&names, params.iter().map(|p| format!("{:.4}", p.value)))
    )
}

/// The state logged so far: the last iteration and θ after it.
pub fn resume_point(log: &str, config: &Config) -> Result<Option<(u64, Vec<f64>)>, String> {
    let mut lines = log.lines().filter(|l| !l.trim().is_empty());
    let Some(first) = lines.next() else {
        return Ok(None);
    };
    if first != header(config) {
        return Err(format!(
            "{}: the log is of another run:\n  {first}\nnot\n  {}\n(use another --log, or delete it)",
            config.log.display(),
            header(config)
        ));
    }
    let mut last = None;
    for line in lines {
        let field = |key: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
        };
        let (Some(k), Some(theta)) = (field("k"), field("theta")) else {
            continue;
        };
        let k: u64 = k.parse().map_err(|_| format!("bad log line: {line}"))?;
        let mut values = Vec::new();
        for (pair, name) in theta.split(',').zip(&config.names) {
            let (n, v) = pair
                .split_once(':')
                .ok_or_else(|| format!("bad log line: {line}"))?;
            if n != name {
                return Err(format!("bad log line (expected {name}): {line}"));
            }
            values.push(v.parse().map_err(|_| format!("bad log line: {line}"))?);
        }
        if values.len() != config.names.len() {
            return Err(format!("bad log line: {line}"));
        }
        last = Some((k, values));
    }
    Ok(last)
}

/// Plays one iteration's games with arena; returns the + engine's result.
pub fn play(config: &Config, k: u64, params: &[Param], pert: &Perturbation) -> Result<Wdl, String> {
    let engine = |name: &str, values: &[i32]| {
        let mut words = vec![
            format!("cmd={}", config.engine.display()),
            format!("name={name}"),
        ];
        for (p, v) in params.iter().zip(values) {
            words.push(format!("option.{}={v}", p.info.name));
        }
        words
    };
    let mut cmd = Command::new(&config.arena);
    cmd.arg("--engine")
        .args(engine("plus", &pert.plus))
        .arg("--engine")
        .args(engine("minus", &pert.minus))
        .arg("--each")
        .arg(format!("option.Hash={}", config.hash_mib))
        .arg("option.Threads=1")
        .args(["--tc", &config.tc])
        .args(["--rounds", &config.pairs.to_string()])
        .args(["--concurrency", &config.concurrency.to_string()])
        .arg("--openings")
        .arg(format!("file={}", config.openings.display()))
        .args(["--seed", &rng::derive(config.seed ^ 0x5a5a, k).to_string()])
        .arg("--quiet")
        .args(&config.arena_args)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit());
    let out = cmd
        .output()
        .map_err(|e| format!("{}: {e}", config.arena.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "arena failed ({}) at iteration {k}:\n{text}",
            out.status
        ));
    }
    // Counted like any other game, but a loss on time or a crash at this time control says the
    // games measure something else than the parameters: show it.
    for line in text.lines() {
        let trouble = ["Faults: ", "Time losses: "]
            .iter()
            .any(|p| line.starts_with(p) && !line.ends_with("none"));
        if trouble {
            eprintln!("spsa: warning: iteration {k}: arena reports {line}");
        }
    }
    parse_arena_summary(&text)
        .ok_or_else(|| format!("no 'Games:' line in arena's output at iteration {k}:\n{text}"))
}

/// Runs (or resumes) SPSA; returns the final parameters.
pub fn run(config: &Config) -> Result<Vec<Param>, String> {
    let mut params = params(&config.names, &config.schedule)?;
    check_engine(&config.engine, &config.names)?;
    if !config.arena.exists() {
        return Err(format!(
            "{}: no arena (cargo build --release -p arena)",
            config.arena.display()
        ));
    }
    let previous = std::fs::read_to_string(&config.log).unwrap_or_default();
    let mut first = 1;
    if let Some((k, values)) = resume_point(&previous, config)? {
        for (p, v) in params.iter_mut().zip(values) {
            p.value = v;
        }
        first = k + 1;
        eprintln!(
            "spsa: resuming {} after iteration {k}",
            config.log.display()
        );
    }
    if let Some(dir) = config.log.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&config.log)
        .map_err(|e| format!("{}: {e}", config.log.display()))?;
    if previous.trim().is_empty() {
        writeln!(log, "{}\n{}", header(config), start_line(&params)).map_err(|e| e.to_string())?;
    }
    let mut total = Wdl::default();
    for k in first..=config.schedule.iterations {
        let pert = perturb(&params, &config.schedule, config.seed, k);
        let wdl = play(config, k, &params, &pert)?;
        update(
            &mut params,
            &config.schedule,
            k,
            &pert.signs,
            wdl.wins as i64 - wdl.losses as i64,
        );
        writeln!(log, "{}", log_line(k, &params, &pert, wdl)).map_err(|e| e.to_string())?;
        total.wins += wdl.wins;
        total.draws += wdl.draws;
        total.losses += wdl.losses;
        eprintln!(
            "spsa: iteration {k}/{}: +{} ={} -{} (this run +{} ={} -{}); {}",
            config.schedule.iterations,
            wdl.wins,
            wdl.draws,
            wdl.losses,
            total.wins,
            total.draws,
            total.losses,
            params
                .iter()
                .map(|p| format!("{} {:.2}", p.info.name, p.value))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(n: u64) -> Schedule {
        Schedule {
            iterations: n,
            alpha: ALPHA,
            gamma: GAMMA,
            a_ratio: A_RATIO,
            r_end: R_END,
        }
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let s = schedule(1000);
        let p = &params(&["rfp_margin".to_string()], &s).unwrap()[0];
        let (c_k, a_k) = s.at(p, 1000);
        assert!((c_k - p.info.step as f64).abs() < 1e-9);
        assert!((a_k / (c_k * c_k) - R_END).abs() < 1e-12);
        let (c_1, _) = s.at(p, 1);
        assert!(c_1 > c_k);
    }

    #[test]
    fn perturbations_are_symmetric_and_updates_follow_the_winner() {
        let s = schedule(100);
        let names = ["rfp_margin".to_string(), "razor_margin".to_string()];
        let mut ps = params(&names, &s).unwrap();
        let pert = perturb(&ps, &s, 7, 1);
        assert_eq!(pert, perturb(&ps, &s, 7, 1));
        for (i, p) in ps.iter().enumerate() {
            let d = p.info.default;
            assert_eq!(
                (pert.plus[i] - d).signum(),
                pert.signs[i],
                "{}",
                p.info.name
            );
            assert!((pert.plus[i] + pert.minus[i] - 2 * d).abs() <= 1);
        }
        let before: Vec<f64> = ps.iter().map(|p| p.value).collect();
        update(&mut ps, &s, 1, &pert.signs, 5);
        for (i, p) in ps.iter().enumerate() {
            assert_eq!(
                (p.value - before[i]).signum() as i32,
                pert.signs[i],
                "the + engine won: move towards it"
            );
        }
    }

    #[test]
    fn arena_summary_is_read() {
        let text = "\nMatch: plus vs minus\nSettings: ...\nEnded: all games played\n\
                    Games: 8 in 0:00:03 (results from plus's side: 3 W, 4 D, 1 L)\nScore: 62.50%\n";
        assert_eq!(
            parse_arena_summary(text),
            Some(Wdl {
                wins: 3,
                draws: 4,
                losses: 1
            })
        );
        assert_eq!(parse_arena_summary("nothing"), None);
    }

    #[test]
    fn the_log_resumes() {
        let s = schedule(10);
        let names = vec!["rfp_margin".to_string(), "razor_margin".to_string()];
        let config = Config {
            names: names.clone(),
            schedule: s,
            pairs: 2,
            tc: "nodes=500".into(),
            engine: "x".into(),
            arena: "y".into(),
            openings: "z".into(),
            concurrency: 2,
            hash_mib: 16,
            seed: 1,
            log: "log".into(),
            arena_args: vec![],
        };
        let mut ps = params(&names, &s).unwrap();
        let mut log = header(&config) + "\n" + &start_line(&ps) + "\n";
        let d = engine::params::Params::default();
        let start = format!(
            "# start rfp_margin:{},razor_margin:{}\n",
            d.rfp_margin, d.razor_margin
        );
        assert!(log.contains(&start));
        for k in 1..=3 {
            let pert = perturb(&ps, &s, 1, k);
            update(&mut ps, &s, k, &pert.signs, 2);
            log += &(log_line(k, &ps, &pert, Wdl::default()) + "\n");
        }
        let (k, values) = resume_point(&log, &config).unwrap().unwrap();
        assert_eq!(k, 3);
        for (v, p) in values.iter().zip(&ps) {
            assert!((v - p.value).abs() < 1e-3);
        }
        assert_eq!(resume_point("", &config).unwrap(), None);
        let other = Config {
            pairs: 3,
            ..config.clone()
        };
        assert!(resume_point(&log, &other).is_err());
        // The same run with a technique switched on for both engines is another run.
        let switched = Config {
            arena_args: vec!["--each".into(), "option.tt_eval=true".into()],
            ..config.clone()
        };
        assert!(resume_point(&log, &switched).is_err());
        assert!(header(&switched).ends_with(" arena=--each option.tt_eval=true"));
    }
}
