//! A line of input, read once into a [`Command`]: what it asks for, with the arguments that can be
//! read without the session's state. `position`, `go` and `tree` keep their words, read when they
//! run: a `position` by the castling rules then in force, a `go`'s `searchmoves` in the position
//! then set up, a `tree` with the switches then set (commands sent before them may still wait for
//! a search, see [`Timing`]).

use crate::genfens::{self, Genfens};
use crate::go::MAX_PERFT_DEPTH;
use engine::stages::Stage;
use engine::techniques::TECHNIQUES;
use engine::tools::bench::DEFAULT_BENCH_DEPTH;

#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    /// `debug on|off`.
    Debug(bool),
    IsReady,
    /// `setoption name NAME [value VALUE]`.
    SetOption {
        name: String,
        value: String,
    },
    /// `set NAME on|off|VALUE`: a technique or a parameter.
    Set {
        name: String,
        value: String,
    },
    UciNewGame,
    Position(Vec<String>),
    Go(Vec<String>),
    Stop,
    PonderHit,
    Quit,
    /// `d`: the board, its FEN and hash.
    Display,
    /// `moves`: the legal moves.
    Moves,
    Eval,
    /// `perft DEPTH [FEN]`; the FEN is read when it runs, by the castling rules then in force.
    Perft {
        depth: u32,
        fen: Option<String>,
    },
    /// `bench [DEPTH] [--stage N]`.
    Bench {
        depth: i32,
        /// Bench the engine of this stage instead of the session's switches.
        stage: Option<Stage>,
    },
    /// `genfens N seed S book <None|FILE> [...]`: openings for an OpenBench DATAGEN workload.
    Genfens(Genfens),
    Stats,
    Spsa,
    /// `chapter-table [DEPTH] [--stage N] [NAME...]`.
    ChapterTable {
        depth: i32,
        techniques: Vec<String>,
        /// The stage whose switches the table starts from, instead of the session's.
        stage: Option<Stage>,
    },
    Tree(Vec<String>),
    /// A line that is no command, or a command whose arguments can't be read: the error to say.
    Refused(String),
}

/// How a command meets a running search.
#[derive(Debug, PartialEq, Eq)]
pub enum Timing {
    /// Carried out at once, even during a search, and never kept waiting: UCI's `isready`,
    /// `stop`, `ponderhit` and `quit` must reach the engine while it searches.
    AtOnce,
    /// Carried out at once during a search, unless commands already wait (then after them, in
    /// the order sent).
    Alongside,
    /// Needs the search state, which a running search holds: waits for the search to end.
    WhenIdle,
}

const CHAPTER_TABLE_DEPTH: i32 = 8;

impl Command {
    /// Reads one line; `None` for a line with no word.
    pub fn parse(line: &str) -> Option<Command> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (&name, args) = words.split_first()?;
        let owned = || args.iter().map(|w| w.to_string()).collect();
        let command = match name {
            "uci" => Command::Uci,
            "debug" => match args {
                ["on"] => Command::Debug(true),
                ["off"] => Command::Debug(false),
                _ => refused(format!(
                    "debug: expected on or off, not '{}'",
                    args.join(" ")
                )),
            },
            "isready" => Command::IsReady,
            "setoption" => setoption(args).unwrap_or_else(Command::Refused),
            "set" => match args {
                [name, value] => Command::Set {
                    name: name.to_ascii_lowercase(),
                    value: value.to_string(),
                },
                _ => refused("usage: set NAME on|off|VALUE"),
            },
            "ucinewgame" => Command::UciNewGame,
            "position" => Command::Position(owned()),
            "go" => Command::Go(owned()),
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "d" => Command::Display,
            "moves" => Command::Moves,
            "eval" => Command::Eval,
            "perft" => perft(args).unwrap_or_else(Command::Refused),
            "bench" => bench(args).unwrap_or_else(Command::Refused),
            "genfens" => genfens::parse(args).map_or_else(Command::Refused, Command::Genfens),
            "stats" => Command::Stats,
            "spsa" => Command::Spsa,
            "chapter-table" => chapter_table(args).unwrap_or_else(Command::Refused),
            "tree" => Command::Tree(owned()),
            other => refused(format!("unknown command '{other}'")),
        };
        Some(command)
    }

    // ANCHOR: needs_idle
    /// When the command may run while a search runs. One match over every command: a new one
    /// does not compile until it is placed here.
    pub fn timing(&self) -> Timing {
        use Command::*;
        match self {
            IsReady | Stop | PonderHit | Quit => Timing::AtOnce,
            // They change or read what a search holds: the workers, the table, the options it
            // runs with, the counters of the last search; or they run a job of their own.
            Go(_)
            | UciNewGame
            | SetOption { .. }
            | Set { .. }
            | Perft { .. }
            | Bench { .. }
            | Genfens(_)
            | Stats
            | ChapterTable { .. }
            | Tree(_) => Timing::WhenIdle,
            Uci | Debug(_) | Position(_) | Display | Moves | Eval | Spsa | Refused(_) => {
                Timing::Alongside
            }
        }
    }
    // ANCHOR_END: needs_idle
}

fn refused(message: impl Into<String>) -> Command {
    Command::Refused(message.into())
}

/// `setoption name NAME [value VALUE]`: names and values may have spaces.
fn setoption(args: &[&str]) -> Result<Command, String> {
    if args.first() != Some(&"name") {
        return Err("setoption: expected 'setoption name <name> [value <value>]'".into());
    }
    let value_at = args.iter().position(|&w| w == "value");
    let name = args[1..value_at.unwrap_or(args.len())].join(" ");
    let value = value_at
        .map(|at| args[at + 1..].join(" "))
        .unwrap_or_default();
    if name.is_empty() {
        return Err("setoption: no option name".into());
    }
    Ok(Command::SetOption { name, value })
}

fn perft(args: &[&str]) -> Result<Command, String> {
    let depth = args
        .first()
        .and_then(|d| d.parse::<u32>().ok())
        .filter(|&d| d <= MAX_PERFT_DEPTH)
        .ok_or_else(|| format!("usage: perft DEPTH [FEN] (depth 0 to {MAX_PERFT_DEPTH})"))?;
    let fen = (args.len() > 1).then(|| args[1..].join(" "));
    Ok(Command::Perft { depth, fen })
}

/// Takes `--stage N` (or `stage N`) out of a command's words: the stage, and the other words.
fn take_stage<'a>(
    command: &str,
    args: &[&'a str],
) -> Result<(Option<Stage>, Vec<&'a str>), String> {
    let Some(at) = args.iter().position(|&w| w == "--stage" || w == "stage") else {
        return Ok((None, args.to_vec()));
    };
    let value = args
        .get(at + 1)
        .ok_or_else(|| format!("{command}: --stage needs full or a stage number"))?;
    let stage = Stage::parse(value).map_err(|e| format!("{command}: {e}"))?;
    let rest: Vec<&str> = args[..at].iter().chain(&args[at + 2..]).copied().collect();
    if rest.iter().any(|&w| w == "--stage" || w == "stage") {
        return Err(format!("{command}: one --stage"));
    }
    Ok((Some(stage), rest))
}

fn bench(args: &[&str]) -> Result<Command, String> {
    let usage = "usage: bench [depth 1-64] [--stage N|full]";
    let (stage, rest) = take_stage("bench", args)?;
    let depth = match rest.as_slice() {
        [] => DEFAULT_BENCH_DEPTH,
        [depth] => depth
            .parse::<i32>()
            .ok()
            .filter(|d| (1..=64).contains(d))
            .ok_or(usage)?,
        _ => return Err(usage.into()),
    };
    Ok(Command::Bench { depth, stage })
}

fn chapter_table(args: &[&str]) -> Result<Command, String> {
    let (stage, args) = take_stage("chapter-table", args)?;
    let args = args.as_slice();
    let (depth, names) = match args.first().map(|a| a.parse::<i32>()) {
        Some(Ok(d)) => (d, &args[1..]),
        _ => (CHAPTER_TABLE_DEPTH, args),
    };
    if !(1..=20).contains(&depth) {
        return Err("chapter-table: depth from 1 to 20".into());
    }
    if let Some(bad) = names
        .iter()
        .find(|n| TECHNIQUES.iter().all(|t| t.name != **n))
    {
        return Err(format!("chapter-table: no technique called '{bad}'"));
    }
    Ok(Command::ChapterTable {
        depth,
        techniques: names.iter().map(|n| n.to_string()).collect(),
        stage,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        Command::parse(line).expect("a command")
    }

    #[test]
    fn commands_are_read_with_their_arguments() {
        assert_eq!(Command::parse(" \t\r"), None);
        assert_eq!(parse("isready\r"), Command::IsReady);
        assert_eq!(parse("debug on"), Command::Debug(true));
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: "30".into()
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: String::new()
            }
        );
        assert_eq!(
            parse("set Killers off"),
            Command::Set {
                name: "killers".into(),
                value: "off".into()
            }
        );
        assert_eq!(
            parse("perft 3 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Command::Perft {
                depth: 3,
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into())
            }
        );
        assert_eq!(
            parse("bench"),
            Command::Bench {
                depth: 13,
                stage: None
            }
        );
        assert_eq!(
            parse("bench 9 --stage 17"),
            Command::Bench {
                depth: 9,
                stage: Some(Stage::Book(17))
            }
        );
        assert_eq!(
            parse("bench stage 6"),
            Command::Bench {
                depth: 13,
                stage: Some(Stage::Book(6))
            }
        );
        assert_eq!(
            parse("bench --stage FULL"),
            Command::Bench {
                depth: 13,
                stage: Some(Stage::Full)
            }
        );
        assert_eq!(
            parse("go depth 5"),
            Command::Go(vec!["depth".into(), "5".into()])
        );
        assert_eq!(
            parse("chapter-table lmr"),
            Command::ChapterTable {
                depth: 8,
                techniques: vec!["lmr".into()],
                stage: None
            }
        );
        assert_eq!(
            parse("chapter-table 10 --stage 13 lmr"),
            Command::ChapterTable {
                depth: 10,
                techniques: vec!["lmr".into()],
                stage: Some(Stage::Book(13))
            }
        );
        for bad in [
            "debug maybe",
            "set killers",
            "setoption Hash",
            "setoption name",
            "perft x",
            "perft 21",
            "bench 0",
            "bench 9 9",
            "bench --stage",
            "bench --stage 5",
            "bench --stage x",
            "bench --stage 9 --stage 10",
            "chapter-table --stage 99 lmr",
            "chapter-table 99",
            "chapter-table no_such_thing",
            "frobnicate",
        ] {
            assert!(matches!(parse(bad), Command::Refused(_)), "{bad}");
        }
    }

    #[test]
    fn only_the_commands_that_need_the_search_state_wait_for_a_search() {
        for (line, timing) in [
            ("isready", Timing::AtOnce),
            ("stop", Timing::AtOnce),
            ("ponderhit", Timing::AtOnce),
            ("quit", Timing::AtOnce),
            ("go", Timing::WhenIdle),
            ("setoption name Hash value 1", Timing::WhenIdle),
            ("ucinewgame", Timing::WhenIdle),
            ("bench 1", Timing::WhenIdle),
            ("genfens 1 seed 1 book None", Timing::WhenIdle),
            ("stats", Timing::WhenIdle),
            ("position startpos", Timing::Alongside),
            ("d", Timing::Alongside),
            ("frobnicate", Timing::Alongside),
        ] {
            assert_eq!(parse(line).timing(), timing, "{line}");
        }
    }
}
