//! `--resume`: a match continued from the PGN of an earlier, interrupted run of the same match.
//!
//! A game's place in the schedule is a function of its number and the seed (`schedule.rs`), and
//! the PGN's `Round` tag is that number. So the games already in the PGN need not be played
//! again: they are counted as they ended, and the match plays the rest of the schedule. Two
//! cores play an SPRT of a few thousand games over several sittings this way, and the SPRT sees
//! one match.
//!
//! Every game read back is checked against the schedule the command line gives: the same names
//! with the same colours, the same opening, the same time control. A PGN of another match, or
//! the right PGN with another `--seed`, is an error, not a silently mixed result.

use crate::config::MatchConfig;
use crate::game::{GameRecord, GameResult, Termination};
use crate::openings::Book;
use crate::pgn::{self, PgnGame};
use crate::schedule::Schedule;
use std::collections::HashSet;
use std::path::Path;

/// The games of the earlier run.
#[derive(Debug, Default)]
pub struct Resumed {
    /// The finished games, as records for the results (no moves: only how they ended).
    pub records: Vec<GameRecord>,
    /// Their 0-based places in the schedule: the games not to play again.
    pub done: HashSet<u64>,
    /// Games the earlier run left unfinished (`*`): they are played again.
    pub unfinished: u64,
}

// ANCHOR: load
/// Reads the finished games of `path`. A missing file is a match that has not started yet.
pub fn load(
    path: &Path,
    config: &MatchConfig,
    book: &Book,
    schedule: &Schedule,
) -> Result<Resumed, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Resumed::default()),
        Err(e) => return Err(format!("cannot read {} to resume: {e}", path.display())),
    };
    let mut resumed = Resumed::default();
    for (i, game) in pgn::parse(&text).iter().enumerate() {
        let at = || format!("{}, game {}", path.display(), i + 1);
        let result = match game.result.as_deref().and_then(GameResult::from_pgn) {
            Some(GameResult::Unfinished) | None => {
                resumed.unfinished += 1;
                continue;
            }
            Some(result) => result,
        };
        let number: u64 = game
            .tag("Round")
            .and_then(|r| r.parse().ok())
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("{}: no Round tag with arena's game number", at()))?;
        let index = number - 1;
        if index >= schedule.total_games() {
            return Err(format!(
                "{}: game {number} is beyond this match's {} games (a smaller --rounds?)",
                at(),
                schedule.total_games()
            ));
        }
        if !resumed.done.insert(index) {
            return Err(format!("{}: game {number} is in the PGN twice", at()));
        }
        let mut record = scheduled(config, book, schedule, index);
        check(game, &record, config.seed).map_err(|e| format!("{}: {e}", at()))?;
        let tag = game.tag("Termination").unwrap_or("");
        let comment = game.last_comment.as_deref().unwrap_or("");
        record.termination = Termination::from_pgn(tag, comment).ok_or_else(|| {
            format!(
                "{}: cannot tell how game {number} ended (Termination \"{tag}\", \
                 final comment \"{comment}\")",
                at()
            )
        })?;
        record.result = result;
        resumed.records.push(record);
    }
    Ok(resumed)
}
// ANCHOR_END: load

/// The record the match would start for the game at `index`.
fn scheduled(config: &MatchConfig, book: &Book, schedule: &Schedule, index: u64) -> GameRecord {
    let job = schedule.job(index);
    let sides = [&config.engines[job.white], &config.engines[job.black]];
    GameRecord::new(job, sides, book.get(job.round), config.chess960)
}

/// The game read back is the one the schedule has at its number.
fn check(game: &PgnGame, expected: &GameRecord, seed: u64) -> Result<(), String> {
    let number = expected.job.number;
    for (tag, name) in [("White", &expected.names[0]), ("Black", &expected.names[1])] {
        let found = game.tag(tag).unwrap_or("");
        if found != name {
            return Err(format!(
                "game {number} has {tag} \"{found}\" where this match has \"{name}\" \
                 (other engines, names or order than the run that wrote it?)"
            ));
        }
    }
    let fen = game.tag("FEN").unwrap_or(chess::STARTPOS);
    if fen != expected.start_fen {
        return Err(format!(
            "game {number} started from \"{fen}\" but this match's opening for it is \"{}\": \
             give the --seed and --openings of the run that wrote it (this run's seed is {seed})",
            expected.start_fen
        ));
    }
    let tc = pgn::time_control_tag(expected);
    let found = game.tag("TimeControl").unwrap_or("");
    if found != tc {
        return Err(format!(
            "game {number} was played at \"{found}\", this match is at \"{tc}\""
        ));
    }
    Ok(())
}
