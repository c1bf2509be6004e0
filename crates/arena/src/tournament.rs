//! The match: workers that play games, one collector that writes and counts them and decides
//! when to stop.
//!
//! Each worker owns its engine processes, so an engine process only ever plays one game at a
//! time; a process at fault is dropped (killed) and the next game starts a fresh one.

use crate::config::MatchConfig;
use crate::engine::{Engine, EngineError};
use crate::game::{self, FaultKind, GameRecord, GameResult, GameSettings};
use crate::log::UciLog;
use crate::openings::Book;
use crate::pgn;
use crate::progress::Progress;
use crate::report;
use crate::results::{Outcome, Results, StopReason};
use crate::resume::{self, Resumed};
use crate::schedule::{GameJob, Schedule};
use chess::{CastlingMode, Color};
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::thread;
use std::time::{Duration, Instant};

/// What the match shares with every worker.
struct Shared<'a> {
    config: &'a MatchConfig,
    book: &'a Book,
    schedule: Schedule,
    next: AtomicU64,
    /// Games of the schedule already played (by an earlier run, `--resume`).
    done: HashSet<u64>,
    stop: &'a AtomicBool,
    log: Option<UciLog>,
}

fn mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

fn describe_error(error: &EngineError, timeout: Duration) -> String {
    match error {
        EngineError::Spawn(message) => message.clone(),
        EngineError::Closed => "exited during the handshake".to_string(),
        EngineError::Timeout => format!("no uciok/readyok within {}s", timeout.as_secs()),
        EngineError::Stopped => "stopped".to_string(),
    }
}

/// Starts every engine once before the match, so that a wrong path or a broken engine is one
/// clear error instead of a match of faults. Prints what each engine calls itself.
fn probe(config: &MatchConfig, stop: &AtomicBool, log: &Option<UciLog>) -> Result<(), String> {
    for engine in &config.engines {
        let timeout = config.limits.startup_timeout;
        let label = format!("{}#probe", engine.name);
        let started = Engine::start(engine, label, config.chess960, timeout, stop, log.clone())
            .map_err(|e| format!("engine '{}' {}", engine.name, describe_error(&e, timeout)))?;
        let id = started.id_name.as_deref().unwrap_or("(no id name)");
        eprintln!("{}: {id} ({})", engine.name, engine.cmd);
        for option in &started.skipped_options {
            eprintln!(
                "warning: {} has no option '{option}'; it is not sent",
                engine.name
            );
        }
        started.quit();
    }
    Ok(())
}

// ANCHOR: run
/// Plays the match. `stop` ends it early from outside (Ctrl-C); `interrupted` says it was that.
pub fn run(
    config: &MatchConfig,
    stop: &AtomicBool,
    interrupted: &AtomicBool,
) -> Result<Outcome, String> {
    let book = Book::load(&config.openings, mode(config.chess960), config.seed)?;
    let log = config.log.as_deref().map(UciLog::create).transpose()?;
    probe(config, stop, &log)?;
    let schedule = Schedule {
        engines: config.engines.len(),
        rounds: config.rounds,
    };
    let resumed = match (&config.pgn, config.resume) {
        (Some(path), true) => resume::load(path, config, &book, &schedule)?,
        _ => Resumed::default(),
    };
    let mut pgn_file = match &config.pgn {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let shared = Shared {
        config,
        book: &book,
        schedule,
        next: AtomicU64::new(0),
        done: resumed.done,
        stop,
        log: log.clone(),
    };
    let started = Instant::now();
    let total = shared.schedule.total_games();
    let mut progress = Progress::new(config.sprt.is_none().then_some(total), config.quiet);
    let mut results = Results::new(config.engines.len());
    if let Some(prior) = &config.prior {
        results.pairings[0].merge(prior);
        eprintln!(
            "prior: {} games of an earlier stretch counted ({:?} pentanomial)",
            prior.games(),
            prior.pentanomial
        );
    }
    for record in &resumed.records {
        results.add(record);
    }
    let mut llr = config
        .sprt
        .map(|sprt| sprt.llr(&results.total().pentanomial));
    // The earlier run may have stopped just as the SPRT decided.
    let mut decided = config
        .sprt
        .zip(llr)
        .and_then(|(sprt, llr)| sprt.verdict(llr))
        .map(StopReason::Sprt);
    if decided.is_some() {
        stop.store(true, Ordering::Relaxed);
    }
    if !resumed.records.is_empty() {
        eprintln!(
            "resumed: {} finished games read back from the PGN{}",
            resumed.records.len(),
            if resumed.unfinished > 0 {
                format!(
                    " ({} unfinished ones will be played again)",
                    resumed.unfinished
                )
            } else {
                String::new()
            }
        );
    }
    let (sender, records) = channel();
    thread::scope(|scope| -> Result<(), String> {
        for worker in 0..config.concurrency {
            let sender = sender.clone();
            let shared = &shared;
            scope.spawn(move || play_games(worker, shared, sender));
        }
        drop(sender);
        // Ends when every worker has finished and dropped its sender.
        for record in records {
            if record.result == GameResult::Unfinished || decided.is_some() {
                continue;
            }
            if let Some(file) = pgn_file.as_mut() {
                write_pgn(file, &record, &config.event)?;
            }
            results.add(&record);
            if let Some(sprt) = &config.sprt {
                let value = sprt.llr(&results.total().pentanomial);
                llr = Some(value);
                decided = sprt.verdict(value).map(StopReason::Sprt);
            }
            if results.fault_count() >= config.max_faults {
                decided = Some(StopReason::MaxFaults);
            }
            if decided.is_some() {
                stop.store(true, Ordering::Relaxed);
            }
            progress.update(
                results.games(),
                &report::progress_line(&results, config.sprt, llr),
            );
        }
        Ok(())
    })?;
    progress.finish();
    if let Some(log) = &log {
        log.flush();
    }
    let stop_reason = match decided {
        Some(reason) => reason,
        None if interrupted.load(Ordering::Relaxed) => StopReason::Interrupted,
        None => StopReason::AllGamesPlayed,
    };
    Ok(Outcome {
        results,
        stop: stop_reason,
        llr,
        elapsed: started.elapsed(),
        openings: book.len(),
        resumed: resumed.records.len() as u64,
    })
}
// ANCHOR_END: run

/// Appends a game and flushes, so that a killed arena loses at most the games being played.
fn write_pgn(file: &mut File, record: &GameRecord, event: &str) -> Result<(), String> {
    file.write_all(pgn::write_game(record, event).as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| format!("cannot write the PGN: {e}"))
}

// ANCHOR: worker
/// A worker: takes the next game of the schedule until there is none or the match stops.
fn play_games(worker: usize, shared: &Shared, sender: Sender<GameRecord>) {
    let config = shared.config;
    let mut slots: Vec<Option<Engine>> = config.engines.iter().map(|_| None).collect();
    while !shared.stop.load(Ordering::Relaxed) {
        let i = shared.next.fetch_add(1, Ordering::Relaxed);
        if i >= shared.schedule.total_games() {
            break;
        }
        if shared.done.contains(&i) {
            continue;
        }
        let job = shared.schedule.job(i);
        let record = play_job(worker, shared, job, &mut slots);
        if let Some((side, _)) = record.faulty_side() {
            let engine = if side == Color::White {
                job.white
            } else {
                job.black
            };
            slots[engine] = None; // killed; restarted by the next game that needs it
        }
        if sender.send(record).is_err() {
            break;
        }
    }
    for engine in slots.into_iter().flatten() {
        engine.quit();
    }
}

/// Gets both engines ready (starting them if needed) and plays the game.
fn play_job(
    worker: usize,
    shared: &Shared,
    job: GameJob,
    slots: &mut [Option<Engine>],
) -> GameRecord {
    let config = shared.config;
    let opening = shared.book.get(job.round);
    let configs = [&config.engines[job.white], &config.engines[job.black]];
    let record = GameRecord::new(job, configs, opening, config.chess960);
    let timeout = config.limits.startup_timeout;
    for (color, index) in [(Color::White, job.white), (Color::Black, job.black)] {
        let engine_config = &config.engines[index];
        let slot = &mut slots[index];
        let ready = match slot {
            Some(engine) => engine.new_game(timeout, shared.stop),
            None => {
                let label = format!("{}#{worker}", engine_config.name);
                let log = shared.log.clone();
                Engine::start(
                    engine_config,
                    label,
                    config.chess960,
                    timeout,
                    shared.stop,
                    log,
                )
                .and_then(|mut engine| {
                    let ready = engine.new_game(timeout, shared.stop);
                    *slot = Some(engine);
                    ready
                })
            }
        };
        if let Err(error) = ready {
            let detail = format!("fails to start: {}", describe_error(&error, timeout));
            return match error {
                EngineError::Stopped => {
                    record.engine_failed(color, error, (FaultKind::Startup, detail))
                }
                _ => record.lost_by_fault(color, FaultKind::Startup, detail),
            };
        }
    }
    let (white, black) = two_mut(slots, job.white, job.black);
    let (Some(white), Some(black)) = (white.as_mut(), black.as_mut()) else {
        return record; // both were just made ready
    };
    let settings = GameSettings {
        adjudication: config.adjudication,
        limits: config.limits,
        chess960: config.chess960,
        stop: shared.stop,
    };
    game::play(
        job,
        opening,
        [(white, configs[0]), (black, configs[1])],
        &settings,
    )
}
// ANCHOR_END: worker

/// Two distinct elements of a slice, both mutable.
fn two_mut<T>(items: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    if a < b {
        let (left, right) = items.split_at_mut(b);
        (&mut left[a], &mut right[0])
    } else {
        let (left, right) = items.split_at_mut(a);
        (&mut right[0], &mut left[b])
    }
}
