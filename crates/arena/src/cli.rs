//! The command line: what the user types, checked and turned into a [`MatchConfig`].

use crate::adjudication::{Adjudication, DrawRule, ResignRule};
use crate::clock::TimeControl;
use crate::config::MatchConfig;
use crate::engine::EngineConfig;
use crate::game::Limits;
use crate::openings::{Format, OpeningsConfig, Order};
use crate::results::PairingResults;
use crate::sprt::{EloModel, Sprt};
use clap::{ArgAction, CommandFactory, FromArgMatches, Parser, ValueEnum};
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

const EXAMPLES: &str = "\
Examples:
  Two engines, 100 game pairs at 10+0.1, 2 games at once:
    arena --engine cmd=./new name=new --engine cmd=./base name=base \\
          --each option.Hash=16 option.Threads=1 --tc 10+0.1 --rounds 100 -c 2 \\
          --openings file=data/openings/balanced.epd --pgn games.pgn
  Stop as soon as the SPRT decides:
    arena --engine cmd=./new --engine cmd=./base --tc 8+0.08 \\
          --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 --openings file=data/openings/balanced.epd
  A gauntlet (the first engine against each of the others), 5000 nodes a move:
    arena --engine cmd=./cb2026 --engine cmd=/usr/games/stockfish \\
          option.UCI_LimitStrength=true option.UCI_Elo=1500 --engine cmd=/usr/games/toga2 \\
          --tc nodes=5000 --rounds 20

Exit status: 0 the match ended (all games played, or the SPRT decided), 1 bad arguments or
set-up, 2 the --max-faults limit ended it, 3 --strict and an engine faulted or lost on time,
130 interrupted (Ctrl-C).";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Variant {
    Standard,
    #[value(alias = "chess960", alias = "frc")]
    Fischerandom,
}

/// Plays UCI chess engines against each other: matches, gauntlets and SPRT tests.
#[derive(Debug, Parser)]
#[command(name = "arena", version, after_help = EXAMPLES)]
pub struct Cli {
    /// An engine: cmd=PATH [name=NAME] [args="A B"] [dir=DIR] [option.NAME=VALUE]... [tc=TC].
    /// Give two engines for a match; with more, the first plays each of the others (gauntlet).
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., required = true,
          action = ArgAction::Append)]
    engine: Vec<String>,

    /// `--engine`'s words grouped by occurrence (clap's derive flattens them).
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,

    /// Settings for every engine, in --engine's form; an engine's own settings win.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,

    /// Time control: BASE+INC in seconds (8+0.08, 40+0.4), MOVES/BASE+INC (40/60+0.6),
    /// movetime=MS, nodes=N or depth=N.
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,

    /// Game pairs per opponent, each opening played with both colours [default without
    /// --sprt: required; with --sprt: until it decides].
    #[arg(long, value_name = "N")]
    pub rounds: Option<u64>,

    /// Games played at once [default: the number of cores].
    #[arg(long, short = 'c', value_name = "N")]
    pub concurrency: Option<usize>,

    /// Opening book: file=PATH [format=epd|pgn] [order=random|sequential] [plies=N] [start=N].
    /// Without it every game starts from the initial position.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub openings: Vec<String>,

    /// Seed of the opening order: the same seed gives the same schedule [default: from the clock,
    /// and printed].
    #[arg(long)]
    pub seed: Option<u64>,

    /// Append every finished game to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,

    /// Continue the match whose games are in --pgn: its finished games count, and only the rest
    /// of the schedule is played. Give the same engines, --tc, --openings and --seed as the run
    /// that wrote it (checked game by game); a missing file starts the match.
    #[arg(long, requires = "pgn")]
    pub resume: bool,

    /// Counts of an earlier stretch of this test whose PGN is lost: wdl=W/D/L (the first
    /// engine's) pentanomial=LL,LD,DD+WL,WD,WW. They count towards the SPRT and the estimates.
    /// Two engines only.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub prior: Option<Vec<String>>,

    /// Stop when the SPRT decides: elo0=E elo1=E [alpha=0.05] [beta=0.05]
    /// [model=normalized|logistic]. Two engines only.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Option<Vec<String>>,

    /// Resign adjudication: movecount=N score=CP, or none [default: movecount=3 score=600].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub resign: Option<Vec<String>>,

    /// Draw adjudication: movenumber=N movecount=N score=CP, or none
    /// [default: movenumber=34 movecount=8 score=20].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub draw: Option<Vec<String>>,

    /// Adjudicate a draw after this many moves.
    #[arg(long, value_name = "N")]
    pub maxmoves: Option<u32>,

    /// End the match after this many faults (crashes, illegal moves, hangs, failed starts).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_faults: u64,

    /// A move this late after the flag still counts (pipe and scheduling delays).
    #[arg(long, value_name = "MS", default_value_t = 50)]
    pub timemargin: u64,

    /// No bestmove this long after the flag (plus the time margin) is a hang: the engine is
    /// killed and restarted.
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    pub hang_margin: u64,

    /// The longest wait for a move at fixed nodes or depth.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub hang_timeout: u64,

    /// The longest wait for uciok or readyok.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    pub startup_timeout: u64,

    #[arg(long, value_enum, default_value_t = Variant::Standard)]
    pub variant: Variant,

    /// The PGN Event tag.
    #[arg(long, default_value = "arena")]
    pub event: String,

    /// Write every line exchanged with the engines to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,

    /// Exit with status 3 if any engine faulted or lost on time (for CI).
    #[arg(long)]
    pub strict: bool,

    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
}

/// `key=value` words; a word without `=` is an error.
fn pairs(words: &[String], what: &str) -> Result<Vec<(String, String)>, String> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => Err(format!("{what}: expected KEY=VALUE, found '{w}'")),
        })
        .collect()
}

fn parse<T: FromStr>(value: &str, what: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{what}: '{value}' is not a valid value"))
}

// ANCHOR: engine_spec
/// One engine from `--each` and its own `--engine` words, the latter applied last.
fn engine_config(
    words: &[String],
    each: &[(String, String)],
    default_tc: Option<TimeControl>,
) -> Result<EngineConfig, String> {
    let own = pairs(words, "--engine")?;
    let mut name = None;
    let mut cmd = None;
    let mut args = Vec::new();
    let mut dir = None;
    let mut tc = default_tc;
    let mut options: Vec<(String, String)> = Vec::new();
    for (key, value) in each.iter().chain(&own) {
        match key.as_str() {
            "name" => name = Some(value.clone()),
            "cmd" => cmd = Some(value.clone()),
            "args" => args = value.split_whitespace().map(String::from).collect(),
            "dir" => dir = Some(PathBuf::from(value)),
            "tc" => tc = Some(value.parse()?),
            "nodes" | "depth" | "movetime" => tc = Some(format!("{key}={value}").parse()?),
            _ => {
                let Some(option) = key.strip_prefix("option.") else {
                    return Err(format!(
                        "unknown engine setting '{key}' (expected name, cmd, args, dir, tc, \
                         nodes, depth, movetime or option.NAME)"
                    ));
                };
                options.retain(|(n, _)| !n.eq_ignore_ascii_case(option));
                options.push((option.to_string(), value.clone()));
            }
        }
    }
    let cmd = cmd.ok_or("every --engine needs cmd=PATH")?;
    let name = name.unwrap_or_else(|| {
        std::path::Path::new(&cmd)
            .file_stem()
            .map_or(cmd.clone(), |s| s.to_string_lossy().into_owned())
    });
    let tc = tc.ok_or_else(|| format!("no time control for '{name}': give --tc"))?;
    Ok(EngineConfig {
        name,
        cmd,
        args,
        dir,
        options,
        tc,
    })
}
// ANCHOR_END: engine_spec

fn openings_config(words: &[String]) -> Result<OpeningsConfig, String> {
    let mut config = OpeningsConfig::default();
    let mut format = None;
    for (key, value) in pairs(words, "--openings")? {
        match key.as_str() {
            "file" => config.file = Some(PathBuf::from(value)),
            "format" => {
                format = Some(match value.as_str() {
                    "epd" => Format::Epd,
                    "pgn" => Format::Pgn,
                    _ => return Err(format!("--openings: unknown format '{value}'")),
                })
            }
            "order" => {
                config.order = match value.as_str() {
                    "random" => Order::Random,
                    "sequential" => Order::Sequential,
                    _ => return Err(format!("--openings: unknown order '{value}'")),
                }
            }
            "plies" => config.plies = Some(parse(&value, "--openings plies")?),
            "start" => config.start = parse(&value, "--openings start")?,
            _ => return Err(format!("--openings: unknown setting '{key}'")),
        }
    }
    let by_extension = config
        .file
        .as_ref()
        .is_some_and(|f| f.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")));
    config.format = format.unwrap_or(if by_extension {
        Format::Pgn
    } else {
        Format::Epd
    });
    Ok(config)
}

fn sprt_config(words: &[String]) -> Result<Sprt, String> {
    let mut sprt = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Normalized,
    };
    for (key, value) in pairs(words, "--sprt")? {
        match key.as_str() {
            "elo0" => sprt.elo0 = parse(&value, "--sprt elo0")?,
            "elo1" => sprt.elo1 = parse(&value, "--sprt elo1")?,
            "alpha" => sprt.alpha = parse(&value, "--sprt alpha")?,
            "beta" => sprt.beta = parse(&value, "--sprt beta")?,
            "model" => {
                sprt.model = match value.as_str() {
                    "normalized" => EloModel::Normalized,
                    "logistic" => EloModel::Logistic,
                    _ => return Err(format!("--sprt: unknown model '{value}'")),
                }
            }
            _ => return Err(format!("--sprt: unknown setting '{key}'")),
        }
    }
    // NaN (a bound not given) fails this too.
    if sprt.elo0.partial_cmp(&sprt.elo1) != Some(std::cmp::Ordering::Less) {
        return Err("--sprt needs elo0 < elo1".to_string());
    }
    let probability = 0.0..0.5;
    if !probability.contains(&sprt.alpha)
        || !probability.contains(&sprt.beta)
        || sprt.alpha <= 0.0
        || sprt.beta <= 0.0
    {
        return Err("--sprt: alpha and beta must be between 0 and 0.5".to_string());
    }
    Ok(sprt)
}

/// An adjudication rule: its default when the option is not given, off with `none` (or `off`),
/// otherwise the default with the given keys set by `set`.
fn rule<R: Copy>(
    words: Option<&[String]>,
    default: Option<R>,
    option: &str,
    mut set: impl FnMut(&mut R, &str, &str) -> Result<(), String>,
) -> Result<Option<R>, String> {
    let Some(words) = words else {
        return Ok(default);
    };
    if matches!(words, [w] if w == "none" || w == "off") {
        return Ok(None);
    }
    let mut rule = default.ok_or(format!("{option} has no default rule"))?;
    for (key, value) in pairs(words, option)? {
        set(&mut rule, &key, &value).map_err(|e| format!("{option}: {e}"))?;
    }
    Ok(Some(rule))
}

fn resign_rule(words: Option<&[String]>) -> Result<Option<ResignRule>, String> {
    rule(
        words,
        Adjudication::FISHTEST.resign,
        "--resign",
        |r, key, value| {
            match key {
                "movecount" => r.move_count = parse(value, key)?,
                "score" => r.score = parse(value, key)?,
                "twosided" if value == "true" => {} // always two-sided
                _ => return Err(format!("unknown setting '{key}'")),
            }
            Ok(())
        },
    )
}

fn draw_rule(words: Option<&[String]>) -> Result<Option<DrawRule>, String> {
    rule(
        words,
        Adjudication::FISHTEST.draw,
        "--draw",
        |r, key, value| {
            match key {
                "movenumber" => r.move_number = parse(value, key)?,
                "movecount" => r.move_count = parse(value, key)?,
                "score" => r.score = parse(value, key)?,
                _ => return Err(format!("unknown setting '{key}'")),
            }
            Ok(())
        },
    )
}

/// Distinct names, so that the PGN and the tables can tell two builds of one engine apart.
fn unique_names(engines: &mut [EngineConfig]) {
    for i in 1..engines.len() {
        let (before, rest) = engines.split_at_mut(i);
        let base = rest[0].name.clone();
        let mut n = 2;
        while before.iter().any(|e| e.name == rest[0].name) {
            rest[0].name = format!("{base}-{n}");
            n += 1;
        }
    }
}

// ANCHOR: config
impl Cli {
    /// Parses the arguments (the first is the program name), keeping each `--engine`'s words
    /// together.
    pub fn try_parse_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = Cli::command().try_get_matches_from(args)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        cli.engines = matches
            .get_occurrences::<String>("engine")
            .map(|groups| groups.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(cli)
    }

    pub fn into_config(self) -> Result<MatchConfig, String> {
        let default_tc = self.tc.as_deref().map(str::parse).transpose()?;
        let each = pairs(&self.each, "--each")?;
        let mut engines = self
            .engines
            .iter()
            .map(|words| engine_config(words, &each, default_tc))
            .collect::<Result<Vec<_>, _>>()?;
        if engines.len() < 2 {
            return Err("give at least two engines (--engine ... --engine ...)".to_string());
        }
        unique_names(&mut engines);
        let sprt = self.sprt.as_deref().map(sprt_config).transpose()?;
        if sprt.is_some() && engines.len() != 2 {
            return Err("--sprt needs exactly two engines".to_string());
        }
        let prior = match &self.prior {
            Some(words) => Some(PairingResults::parse_prior(&pairs(words, "--prior")?)?),
            None => None,
        };
        if prior.is_some() && engines.len() != 2 {
            return Err("--prior needs exactly two engines".to_string());
        }
        let rounds = match (self.rounds, sprt) {
            (Some(0), _) => return Err("--rounds must be at least 1".to_string()),
            (Some(rounds), _) => rounds,
            (None, Some(_)) => 1_000_000,
            (None, None) => return Err("give --rounds N (game pairs per opponent)".to_string()),
        };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let concurrency = self.concurrency.unwrap_or(cores).max(1);
        let seed = self.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
        });
        Ok(MatchConfig {
            engines,
            rounds,
            concurrency,
            openings: openings_config(&self.openings)?,
            seed,
            pgn: self.pgn,
            resume: self.resume,
            prior,
            sprt,
            adjudication: Adjudication {
                resign: resign_rule(self.resign.as_deref())?,
                draw: draw_rule(self.draw.as_deref())?,
                max_moves: self.maxmoves,
            },
            limits: Limits {
                time_margin: Duration::from_millis(self.timemargin),
                hang_margin: Duration::from_millis(self.hang_margin),
                hang_timeout: Duration::from_secs(self.hang_timeout.max(1)),
                startup_timeout: Duration::from_secs(self.startup_timeout.max(1)),
            },
            max_faults: self.max_faults.max(1),
            chess960: self.variant == Variant::Fischerandom,
            event: self.event,
            log: self.log,
            strict: self.strict,
            quiet: self.quiet,
        })
    }
}
// ANCHOR_END: config

#[cfg(test)]
mod tests {
    use super::*;

    fn config(args: &str) -> Result<MatchConfig, String> {
        let words = std::iter::once("arena").chain(args.split_whitespace());
        Cli::try_parse_args(words)
            .map_err(|e| e.to_string())?
            .into_config()
    }

    #[test]
    fn engines_and_each() {
        let c = config(
            "--engine cmd=/x/new option.Hash=64 --engine cmd=/x/new tc=1+0.01 \
             --each option.Hash=16 option.Threads=1 --tc 8+0.08 --rounds 5",
        )
        .unwrap();
        assert_eq!(c.engines[0].name, "new");
        assert_eq!(c.engines[1].name, "new-2");
        assert_eq!(
            c.engines[0].options,
            [
                ("Threads".to_string(), "1".to_string()),
                ("Hash".to_string(), "64".to_string())
            ]
        );
        assert_eq!(c.engines[1].options.len(), 2);
        assert_eq!(c.engines[0].tc, "8+0.08".parse().unwrap());
        assert_eq!(c.engines[1].tc, "1+0.01".parse().unwrap());
        assert_eq!(c.rounds, 5);
        assert_eq!(c.adjudication, Adjudication::FISHTEST);
    }

    #[test]
    fn sprt_and_adjudication() {
        let c = config(
            "--engine cmd=a --engine cmd=b --tc nodes=1000 --sprt elo0=0 elo1=5 \
             --resign none --draw movenumber=40 --maxmoves 200",
        )
        .unwrap();
        let sprt = c.sprt.unwrap();
        assert_eq!((sprt.elo0, sprt.elo1, sprt.alpha), (0.0, 5.0, 0.05));
        assert_eq!(sprt.model, EloModel::Normalized);
        assert_eq!(c.adjudication.resign, None);
        assert_eq!(c.adjudication.draw.unwrap().move_number, 40);
        assert_eq!(c.adjudication.draw.unwrap().move_count, 8);
        assert_eq!(c.adjudication.max_moves, Some(200));
    }

    #[test]
    fn mistakes_are_explained() {
        let cases = [
            ("--engine cmd=a --tc 1+0 --rounds 1", "at least two"),
            (
                "--engine cmd=a --engine cmd=b --rounds 1",
                "no time control",
            ),
            ("--engine cmd=a --engine cmd=b --tc 1+0", "--rounds"),
            (
                "--engine cmd=a --engine name=b --tc 1+0 --rounds 1",
                "cmd=PATH",
            ),
            (
                "--engine cmd=a hash=1 --engine cmd=b --tc 1+0 --rounds 1",
                "unknown engine setting",
            ),
            (
                "--engine cmd=a --engine cmd=b --tc 1+0 --sprt elo0=5 elo1=0",
                "elo0 < elo1",
            ),
            (
                "--engine cmd=a --engine cmd=b --engine cmd=c --tc 1+0 --sprt elo0=0 elo1=5",
                "exactly two",
            ),
            (
                "--engine cmd=a --engine cmd=b --tc x --rounds 1",
                "time control",
            ),
            (
                "--engine cmd=a --engine cmd=b --engine cmd=c --tc 1+0 --rounds 1 \
                 --prior wdl=1/0/1 pentanomial=0,0,1,0,0",
                "exactly two",
            ),
            (
                "--engine cmd=a --engine cmd=b --tc 1+0 --rounds 1 --prior wdl=2/0/0 \
                 pentanomial=0,0,1,0,0",
                "disagree",
            ),
        ];
        for (args, expected) in cases {
            let error = config(args).err().unwrap_or_default();
            assert!(error.contains(expected), "{args}: {error}");
        }
    }

    #[test]
    fn openings_format_from_extension() {
        let c = openings_config(&["file=book.PGN".to_string(), "plies=8".to_string()]).unwrap();
        assert_eq!(c.format, Format::Pgn);
        assert_eq!(c.plies, Some(8));
        assert!(openings_config(&["order=shuffled".to_string()]).is_err());
    }
}
