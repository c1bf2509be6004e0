//! `tune datagen`: self-play games by cb2026 at a fixed node count, written as training data for
//! the Texel tuner (the format is in [`crate::format`]).
//!
//! Each worker thread owns a one-thread [`ThreadPool`] with its own transposition table (cleared, with the
//! histories, before every game) and evaluation (the hand-crafted one, or the network given). A game starts from an opening (a random
//! line of an EPD book, or the initial position) plus `random_plies` uniformly random legal
//! moves, or one more in half the games (a game that ends during them is skipped); then both
//! sides play the search's best move at `nodes` nodes, with no randomness. The extra ply in half
//! the games matters: the side that makes the last random move is the one whose random blunder
//! is punished first, since the other side then searches while its own blunder can still be
//! repaired. From White-to-move openings, always 8 random plies gave 59 White wins to 35 (100
//! games at 1000 nodes), always 9 gave 32 to 54. A game ends
//!
//! - by the rules: checkmate, stalemate, threefold repetition (over the game's hash history),
//!   the fifty-move rule, insufficient material;
//! - by adjudication ([`crate::adjudication`]): a win once the search's score (or a mate score)
//!   is at least `win_score` for the same side on `win_plies` consecutive plies; a draw once it
//!   is within `draw_score` of zero on `draw_plies` consecutive plies from the engine's
//!   `draw_after`th move (if `draw_plies` is not 0); a draw at ply `max_plies`.
//!
//! The positions kept are those where the side to move is not in check, the best move is neither
//! a capture nor a promotion and the score is not a mate score: "quiet" positions, whose static
//! evaluation means something. Each is labelled with the game's final result.
//!
//! A game is written whole, in one `write` to the file opened for appending, once it ends: a run
//! that is killed loses only the games in progress, and a new run on the same file appends to it
//! (an incomplete last record, from a write cut short, is cut off first). The opening choice is
//! seeded by `seed` mixed with the number of records already in the file, so resuming with the
//! same `--seed` does not replay the same openings, while a fresh file and a seed reproduce them.

use crate::adjudication::{Adjudicator, Rules};
use crate::format::{self, GameResult, RECORD_SIZE};
use crate::games;
use chess::rng::{self, Rng};
use chess::{CastlingMode, Epd, Position, repetitions};
use engine::eval::nnue::{self, Network};
use engine::openings::random_opening;
use engine::score::is_mate;
use engine::{Limits, Params, SearchOptions, Techniques, ThreadPool, TranspositionTable};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Everything `datagen` needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub out: PathBuf,
    pub threads: usize,
    pub nodes: u64,
    /// Stop once this many positions have been written by this run.
    pub positions: Option<u64>,
    /// Stop once this many games have been written by this run.
    pub games: Option<u64>,
    /// Opening books (EPD); empty: every game starts from the initial position.
    pub books: Vec<PathBuf>,
    pub random_plies: usize,
    /// Play `random_plies + 1` random plies in half the games (see [`Player::play`]).
    pub mixed_parity: bool,
    pub seed: u64,
    pub hash_mib: usize,
    pub max_plies: usize,
    /// When a game is ended by its scores.
    pub rules: Rules,
    pub quiet: bool,
    /// How the games are written.
    pub format: DataFormat,
    /// Play with this network (`--eval-file`); `None`: with the hand-crafted evaluation.
    pub net: Option<Arc<Network>>,
}

/// The two ways `datagen` writes its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataFormat {
    /// The kept positions, each as a 32-byte record ([`crate::format`]): what the Texel tuner reads.
    Records,
    /// Each game whole, its start position and 4 bytes a move ([`crate::games`]): the network's data.
    Games,
}

/// The tally of a run.
#[derive(Debug, Default)]
pub struct Tally {
    pub positions: AtomicU64,
    pub games: AtomicU64,
    /// Games that ended during the random plies.
    pub skipped: AtomicU64,
    /// White wins, draws, Black wins.
    pub results: [AtomicU64; 3],
}

/// One finished game, encoded and ready to write.
pub struct Game {
    pub bytes: Vec<u8>,
    /// The positions kept (written as records, or counted as trainable in a game).
    pub positions: u64,
    pub result: GameResult,
    pub plies: usize,
}

/// Reads the openings of an EPD book; unreadable lines are skipped with a count.
pub fn load_book(path: &Path) -> Result<Vec<Position>, String> {
    let bytes = crate::files::read_regular_file(path, crate::files::ANY_SIZE)?;
    let text =
        String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
    let mut positions = Vec::new();
    let mut bad = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match Epd::parse(line, CastlingMode::Standard) {
            Ok(epd) => positions.push(epd.position),
            Err(_) => bad += 1,
        }
    }
    if bad > 0 {
        eprintln!("{}: {bad} lines skipped (not EPD)", path.display());
    }
    if positions.is_empty() {
        return Err(format!("{}: no openings", path.display()));
    }
    Ok(positions)
}

/// How a game stands by the rules: `Some(result)` if it is over.
fn rules_result(pos: &Position, history: &[u64]) -> Option<GameResult> {
    if !pos.has_legal_moves() {
        return Some(if pos.is_check() {
            GameResult::win_for(!pos.side_to_move())
        } else {
            GameResult::Draw
        });
    }
    if pos.is_fifty_move_draw()
        || pos.has_insufficient_material()
        || repetitions(history, pos.hash(), pos.halfmove_clock()) >= 2
    {
        return Some(GameResult::Draw);
    }
    None
}

/// One worker's engine.
pub struct Player {
    search: ThreadPool,
    tt: Arc<TranspositionTable>,
    limits: Limits,
    options: SearchOptions,
}

impl Player {
    /// A player searching `nodes` a move, with the network if one is given, else with the
    /// hand-crafted evaluation.
    pub fn new(hash_mib: usize, nodes: u64, net: Option<Arc<Network>>) -> Player {
        let tt = Arc::new(TranspositionTable::new(hash_mib));
        // Without a network the `nnue` switch stays off: the hand-crafted evaluation plays.
        let mut search =
            ThreadPool::with_network(Arc::clone(&tt), net.clone().unwrap_or_else(nnue::embedded));
        let techniques = Techniques {
            nnue: net.is_some(),
            ..Techniques::default()
        };
        search.set_switches(&techniques, &Params::default());
        Player {
            search,
            tt,
            limits: Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            options: SearchOptions::default(),
        }
    }

    /// Plays game number `index` of a run seeded with `seed`; `None` if it ended during the
    /// random plies.
    pub fn play(
        &mut self,
        config: &Config,
        openings: &[Position],
        seed: u64,
        index: u64,
    ) -> Option<Game> {
        let mut rng = Rng::new(rng::derive(seed, index));
        let (mut pos, mut history) =
            random_opening(openings, config.random_plies, config.mixed_parity, &mut rng)?;
        history.reserve(config.max_plies);

        self.tt.clear();
        self.search.clear();
        let start = pos.clone();
        let mut played: Vec<(chess::Move, i32)> = Vec::with_capacity(256);
        let mut kept: Vec<(Position, i32)> = Vec::with_capacity(256);
        let mut kept_count = 0u64;
        let mut plies = history.len();
        let mut adjudicator = Adjudicator::new(config.rules);
        // ANCHOR: keep
        let result = loop {
            if let Some(result) = rules_result(&pos, &history) {
                break result;
            }
            if plies >= config.max_plies {
                break GameResult::Draw;
            }
            let found =
                self.search
                    .search(&pos, &history, &self.limits, &self.options, &mut |_| {});
            let Some(mv) = found.best_move else {
                break GameResult::Draw; // unreachable: the rules said there are moves
            };
            let white_score = found.score * pos.side_to_move().sign();
            let quiet = !pos.is_check() && !pos.is_capture(mv) && mv.promotion().is_none();
            // The record format stores what is kept; the game format stores every move and
            // leaves the choice to its reader (`games::keep`, the same test).
            if quiet && !is_mate(found.score) {
                kept_count += 1;
                if config.format == DataFormat::Records {
                    kept.push((pos.clone(), white_score));
                }
            }
            if config.format == DataFormat::Games {
                played.push((mv, white_score));
            }
            if let Some(verdict) = adjudicator.observe(white_score) {
                break verdict;
            }
            history.push(pos.hash());
            pos.make_move(mv);
            plies += 1;
        };
        // ANCHOR_END: keep
        // A legal position has at most 32 pieces, so encoding can't fail.
        let bytes = match config.format {
            DataFormat::Records => {
                let mut bytes = Vec::with_capacity(RECORD_SIZE * kept.len());
                for (p, score) in &kept {
                    bytes.extend_from_slice(&format::encode(p, *score, result).ok()?);
                }
                bytes
            }
            DataFormat::Games => {
                let mut bytes = Vec::with_capacity(games::game_size(played.len()));
                games::encode_game(&start, result, &played, &mut bytes).ok()?;
                bytes
            }
        };
        Some(Game {
            positions: kept_count,
            bytes,
            result,
            plies,
        })
    }
}

/// Opens the output for appending, first cutting off an incomplete last record or game. Returns
/// the file and the number of whole records (or games) already in it.
pub fn open_output(path: &Path, data: DataFormat) -> Result<(File, u64), String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(err)?;
    let len = file.metadata().map_err(err)?.len();
    let (whole, count, what) = match data {
        DataFormat::Records => {
            let whole = len - len % RECORD_SIZE as u64;
            (whole, whole / RECORD_SIZE as u64, "record")
        }
        DataFormat::Games => {
            let scan = games::scan_file(path, |_| {})?;
            (scan.complete_bytes, scan.games, "game")
        }
    };
    if whole != len {
        eprintln!(
            "{}: cutting off an incomplete last {what} ({} bytes)",
            path.display(),
            len - whole
        );
        file.set_len(whole).map_err(err)?;
    }
    Ok((file, count))
}

/// The adjudication rules in words, for the run's first line.
fn describe_rules(r: &Rules) -> String {
    let draws = if r.draw_plies == 0 {
        "no draw adjudication".to_string()
    } else {
        format!(
            "draws within {} cp for {} plies after move {}",
            r.draw_score, r.draw_plies, r.draw_after
        )
    };
    format!(
        "wins at {} cp for {} plies, {draws}",
        r.win_score, r.win_plies
    )
}

/// Runs `datagen`; returns the tally.
pub fn run(config: &Config) -> Result<Arc<Tally>, String> {
    let mut openings = Vec::new();
    for book in &config.books {
        openings.extend(load_book(book)?);
    }
    let (file, existing) = open_output(&config.out, config.format)?;
    let seed = rng::derive(config.seed, existing);
    let threads = config.threads.max(1);
    let source = if config.books.is_empty() {
        "the initial position".to_string()
    } else {
        let names: Vec<String> = config
            .books
            .iter()
            .map(|b| b.display().to_string())
            .collect();
        format!("{} openings from {}", openings.len(), names.join(", "))
    };
    eprintln!(
        "datagen: {threads} threads, {} nodes a move, {}, {source} + {}{} random plies, {}, seed {} -> {}{}",
        config.nodes,
        match &config.net {
            Some(net) => format!("the network ({})", net.shape()),
            None => "the hand-crafted evaluation".to_string(),
        },
        config.random_plies,
        if config.mixed_parity {
            " or 1 more"
        } else {
            ""
        },
        describe_rules(&config.rules),
        config.seed,
        config.out.display(),
        if existing > 0 {
            let unit = match config.format {
                DataFormat::Records => "positions",
                DataFormat::Games => "games",
            };
            format!(" (appending to its {existing} {unit})")
        } else {
            String::new()
        }
    );

    let out = Mutex::new(file);
    let tally = Arc::new(Tally::default());
    let next_game = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    let error: Mutex<Option<String>> = Mutex::new(None);
    let enough = |t: &Tally| {
        config
            .positions
            .is_some_and(|n| t.positions.load(Ordering::Relaxed) >= n)
            || config
                .games
                .is_some_and(|n| t.games.load(Ordering::Relaxed) >= n)
    };
    let progress = Progress::new(config);
    let start = Instant::now();

    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut player = Player::new(config.hash_mib, config.nodes, config.net.clone());
                while !enough(&tally) && !done.load(Ordering::Relaxed) {
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = player.play(config, &openings, seed, index) else {
                        tally.skipped.fetch_add(1, Ordering::Relaxed);
                        continue;
                    };
                    let written = {
                        let mut f = out.lock().unwrap_or_else(|e| e.into_inner());
                        f.write_all(&game.bytes).and_then(|()| f.flush())
                    };
                    if let Err(e) = written {
                        *error.lock().unwrap_or_else(|e| e.into_inner()) =
                            Some(format!("{}: {e}", config.out.display()));
                        done.store(true, Ordering::Relaxed);
                        break;
                    }
                    tally.positions.fetch_add(game.positions, Ordering::Relaxed);
                    tally.games.fetch_add(1, Ordering::Relaxed);
                    let slot = match game.result {
                        GameResult::WhiteWins => 0,
                        GameResult::Draw => 1,
                        GameResult::BlackWins => 2,
                    };
                    tally.results[slot].fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        // The progress display, until every worker is through.
        scope.spawn(|| {
            let mut last = Instant::now();
            loop {
                std::thread::sleep(Duration::from_millis(200));
                let finished = enough(&tally) || done.load(Ordering::Relaxed);
                if last.elapsed() >= Duration::from_millis(1000) || finished {
                    progress.update(&tally, start.elapsed());
                    last = Instant::now();
                }
                if finished {
                    break;
                }
            }
        });
    });
    progress.finish(&tally, start.elapsed());
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(tally)
}

/// The summary of a tally: positions per second, games, results.
pub fn describe(t: &Tally, elapsed: Duration) -> String {
    let positions = t.positions.load(Ordering::Relaxed);
    let games = t.games.load(Ordering::Relaxed);
    let [w, d, b] = [0, 1, 2].map(|i| t.results[i].load(Ordering::Relaxed));
    let secs = elapsed.as_secs_f64().max(1e-9);
    format!(
        "{positions} positions, {:.0} pos/s; {games} games ({:.1} positions a game), \
         1-0 {w} / draw {d} / 0-1 {b}; {} skipped",
        positions as f64 / secs,
        positions as f64 / games.max(1) as f64,
        t.skipped.load(Ordering::Relaxed)
    )
}

/// An indicatif bar on a terminal, a plain line every 30 s otherwise, nothing with `--quiet`.
enum Progress {
    /// The bar, and whether it counts games (else positions).
    Bar(ProgressBar, bool),
    Plain(Mutex<Instant>),
    Quiet,
}

impl Progress {
    fn new(config: &Config) -> Progress {
        if config.quiet {
            return Progress::Quiet;
        }
        if !std::io::stderr().is_terminal() {
            return Progress::Plain(Mutex::new(Instant::now()));
        }
        let (bar, template) = match (config.positions, config.games) {
            (Some(n), _) => (
                ProgressBar::new(n),
                "{elapsed_precise} [{bar:30}] {pos}/{len} positions, {msg}",
            ),
            (None, Some(n)) => (
                ProgressBar::new(n),
                "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg}",
            ),
            (None, None) => (
                ProgressBar::no_length(),
                "{elapsed_precise} {pos} positions, {msg}",
            ),
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
        Progress::Bar(bar, config.positions.is_none() && config.games.is_some())
    }

    fn message(t: &Tally, elapsed: Duration) -> String {
        let positions = t.positions.load(Ordering::Relaxed);
        let games = t.games.load(Ordering::Relaxed);
        format!(
            "{:.0} pos/s, {games} games, {:.2} games/s",
            positions as f64 / elapsed.as_secs_f64().max(1e-9),
            games as f64 / elapsed.as_secs_f64().max(1e-9)
        )
    }

    fn update(&self, t: &Tally, elapsed: Duration) {
        match self {
            Progress::Bar(bar, counts_games) => {
                let counter = if *counts_games {
                    &t.games
                } else {
                    &t.positions
                };
                bar.set_position(counter.load(Ordering::Relaxed));
                bar.set_message(Progress::message(t, elapsed));
            }
            Progress::Plain(last) => {
                let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
                if last.elapsed() >= Duration::from_secs(30) {
                    eprintln!(
                        "datagen: {} positions, {}",
                        t.positions.load(Ordering::Relaxed),
                        Progress::message(t, elapsed)
                    );
                    *last = Instant::now();
                }
            }
            Progress::Quiet => {}
        }
    }

    fn finish(&self, t: &Tally, elapsed: Duration) {
        if let Progress::Bar(bar, _) = self {
            self.update(t, elapsed);
            bar.finish();
        }
        eprintln!("datagen: {}", describe(t, elapsed));
    }
}
