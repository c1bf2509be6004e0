//! A match's configuration, checked: what the command line (`cli.rs`) builds, the match
//! (`tournament.rs`) plays, and the resumed PGN (`resume.rs`) and the summary (`report.rs`) are
//! read against.

use crate::adjudication::Adjudication;
use crate::engine::EngineConfig;
use crate::game::Limits;
use crate::openings::OpeningsConfig;
use crate::results::PairingResults;
use crate::sprt::Sprt;
use std::path::PathBuf;

/// Everything a match needs, checked.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineConfig>,
    pub rounds: u64,
    pub concurrency: usize,
    pub openings: OpeningsConfig,
    pub seed: u64,
    pub pgn: Option<PathBuf>,
    /// Count the finished games already in `pgn` and play only the rest of the schedule.
    pub resume: bool,
    /// Counts of an earlier stretch of the match whose PGN is gone (`--prior`).
    pub prior: Option<PairingResults>,
    pub sprt: Option<Sprt>,
    pub adjudication: Adjudication,
    pub limits: Limits,
    pub max_faults: u64,
    pub chess960: bool,
    pub event: String,
    pub log: Option<PathBuf>,
    pub strict: bool,
    pub quiet: bool,
}
