//! The UCI options cb2026 offers, and how `setoption` values are read.

use engine::params::PARAMS;
use engine::stages::{FULL, Stage};
use engine::strength::{MAX_ELO, MIN_ELO};
use engine::tablebase::{DEFAULT_PROBE_DEPTH, DEFAULT_PROBE_LIMIT};
use engine::techniques::TECHNIQUES;

pub const DEFAULT_HASH_MIB: usize = 16;
pub const MAX_HASH_MIB: usize = 65_536;
pub const MAX_MULTIPV: usize = 256;
pub const DEFAULT_MOVE_OVERHEAD: u64 = 10;
pub const MAX_MOVE_OVERHEAD: u64 = 5_000;
pub const MAX_PROBE_DEPTH: i64 = 100;
/// Syzygy tables exist for up to seven pieces.
pub const MAX_PROBE_LIMIT: i64 = 7;
/// `UCI_Elo` before it is set: the weakest strength, as Stockfish has it.
pub const DEFAULT_ELO: i32 = MIN_ELO;
/// What `SyzygyPath` shows when no tables are in use (and accepts to drop them).
pub const NO_SYZYGY_PATH: &str = "<empty>";
/// Lazy SMP's limit (see `engine::threads`).
pub const MAX_THREADS: usize = engine::threads::MAX_THREADS;

/// The values of the options that aren't techniques or parameters.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mib: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: u64,
    pub ponder: bool,
    pub chess960: bool,
    /// `UCI_ShowWDL`: win/draw/loss chances on `info` lines.
    pub show_wdl: bool,
    /// The `EvalFile` value: empty for the embedded network.
    pub eval_file: String,
    /// `SyzygyPath`: the folders of the tables in use, empty for none.
    pub syzygy_path: String,
    pub syzygy_probe_depth: i32,
    pub syzygy_probe_limit: usize,
    pub syzygy_50_move_rule: bool,
    /// `UCI_LimitStrength`: play at `elo` (`UCI_Elo`).
    pub limit_strength: bool,
    pub elo: i32,
}

/// What `EvalFile` shows for the network built into the engine (and accepts to go back to it).
pub const EMBEDDED_NET_NAME: &str = "<embedded>";

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mib: DEFAULT_HASH_MIB,
            threads: 1,
            multipv: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            ponder: false,
            chess960: false,
            show_wdl: false,
            eval_file: String::new(),
            syzygy_path: String::new(),
            syzygy_probe_depth: DEFAULT_PROBE_DEPTH,
            syzygy_probe_limit: DEFAULT_PROBE_LIMIT,
            syzygy_50_move_rule: true,
            limit_strength: false,
            elo: DEFAULT_ELO,
        }
    }
}

/// The `option` lines of the `uci` answer; the techniques' check boxes only when asked for
/// (`setoption` and `set` accept them either way).
pub fn declarations(technique_options: bool) -> Vec<String> {
    let mut lines = vec![
        format!("option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        format!(
            "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD} min 0 max {MAX_MOVE_OVERHEAD}"
        ),
        "option name Ponder type check default false".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name UCI_ShowWDL type check default false".to_string(),
        "option name Clear Hash type button".to_string(),
        format!("option name EvalFile type string default {EMBEDDED_NET_NAME}"),
        format!("option name SyzygyPath type string default {NO_SYZYGY_PATH}"),
        format!(
            "option name SyzygyProbeDepth type spin default {DEFAULT_PROBE_DEPTH} min 1 max {MAX_PROBE_DEPTH}"
        ),
        format!(
            "option name SyzygyProbeLimit type spin default {DEFAULT_PROBE_LIMIT} min 0 max {MAX_PROBE_LIMIT}"
        ),
        "option name Syzygy50MoveRule type check default true".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {DEFAULT_ELO} min {MIN_ELO} max {MAX_ELO}"),
        stage_declaration(),
    ];
    // ANCHOR: option_declarations
    // Every technique can be switched from a match runner (or a GUI, started with the flag).
    if technique_options || cfg!(feature = "tune") {
        for t in TECHNIQUES {
            lines.push(format!(
                "option name {} type check default {}",
                t.name, t.default
            ));
        }
    }
    // Parameters are options only in tuning builds; `setoption` accepts them in any build.
    if cfg!(feature = "tune") {
        for p in PARAMS {
            lines.push(format!(
                "option name {} type spin default {} min {} max {}",
                p.name, p.default, p.min, p.max
            ));
        }
    }
    // ANCHOR_END: option_declarations
    lines
}

/// `Stage`: the engine of one of the book's stages (engine::stages), or the full engine, the
/// default. A list rather than a number, since the full engine is no stage's number.
fn stage_declaration() -> String {
    let choices: String = Stage::choices()
        .iter()
        .map(|stage| format!(" var {stage}"))
        .collect();
    format!("option name Stage type combo default {FULL}{choices}")
}

/// Reads a spin value: a whole number within `min..=max`.
pub fn parse_spin(name: &str, value: &str, min: i64, max: i64) -> Result<i64, String> {
    let n: i64 = value
        .trim()
        .parse()
        .map_err(|_| format!("option {name}: '{value}' is not a whole number"))?;
    if !(min..=max).contains(&n) {
        return Err(format!("option {name}: {n} is outside {min}..{max}"));
    }
    Ok(n)
}

/// Reads a check value: `true` or `false`.
pub fn parse_check(name: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "option {name}: expected true or false, not '{value}'"
        )),
    }
}
