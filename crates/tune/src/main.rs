//! The `tune` binary: `datagen`, `texel`, `spsa` and `show`. See the crate documentation
//! (`src/lib.rs`) and the README's "Tuning" section for the recipe.

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tune::{adjudication, datagen, files, format, games, pgn, spsa, texel};

/// The bigger opening book, where this machine has it, else the repository's.
fn default_book() -> PathBuf {
    let shared = Path::new("../shared/data/openings/balanced.epd");
    if shared.exists() {
        shared.to_path_buf()
    } else {
        PathBuf::from("data/openings/balanced.epd")
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

const EXAMPLES: &str = "\
Examples:
  tune datagen --out data/tune/selfplay.bin --positions 5000000
  tune texel data/tune/selfplay.bin --out crates/engine/src/eval/tuned.rs
  tune spsa --params rfp_margin,razor_margin --iterations 2000 --pairs-per-iteration 8 --tc 4+0.04
  tune show data/tune/selfplay.bin --limit 5";

/// cb2026's tuning tools: self-play data, the Texel tuner for the evaluation's weights, SPSA for
/// the search's parameters.
#[derive(Parser, Debug)]
#[command(name = "tune", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    Datagen(DatagenArgs),
    Texel(TexelArgs),
    Spsa(SpsaArgs),
    Show(ShowArgs),
    Games(GamesArgs),
    Adjudicate(AdjudicateArgs),
    Pgn(PgnArgs),
}

/// Self-play at a fixed node count: writes quiet positions with the game's result (32-byte
/// records, appended; a killed run keeps every finished game, and a new run appends more).
#[derive(clap::Args, Debug)]
struct DatagenArgs {
    /// The data file (created, or appended to).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Games played at once, one search thread each [default: the number of cores].
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Stop after writing this many positions [default: run until killed, or --games].
    #[arg(long, value_name = "N")]
    positions: Option<u64>,
    /// Stop after this many games.
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    /// EPD opening book, a random line per game; may be repeated [default:
    /// ../shared/data/openings/balanced.epd if present, else data/openings/balanced.epd].
    #[arg(long, value_name = "FILE")]
    book: Vec<PathBuf>,
    /// Start every game from the initial position instead of a book.
    #[arg(long, conflicts_with = "book")]
    startpos: bool,
    /// Random legal moves after the opening (one more in half the games, so that both colours
    /// make the last random move equally often).
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Exactly --random-plies random moves in every game.
    #[arg(long)]
    fixed_random_plies: bool,
    /// Seed of the opening choice and the random moves [default: from the clock].
    #[arg(long)]
    seed: Option<u64>,
    /// Transposition table per thread, in MiB (cleared before each game). 1 MiB keeps each
    /// thread's table in its core's cache: 10% more positions a second than 16 MiB, and no weaker
    /// at 5,000 nodes (chapter 18, "Data per hour").
    #[arg(long, default_value_t = 1)]
    hash: usize,
    /// A game still going at this ply is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    #[command(flatten)]
    rules: RulesArgs,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
    /// `records`: the kept positions as 32-byte records (for `texel`); `games`: every game whole,
    /// 4 bytes a move (the network's data; `tune games` reads it).
    #[arg(long, value_enum, default_value_t = FormatArg::Records)]
    format: FormatArg,
    /// Play with this network (a file `train` wrote) instead of the hand-crafted evaluation;
    /// `embedded` for the engine's own.
    #[arg(long, value_name = "FILE")]
    eval_file: Option<PathBuf>,
}

/// The score rules that end a self-play game early (see `tune::adjudication`).
#[derive(clap::Args, Debug)]
struct RulesArgs {
    /// Adjudicate a win when the score is at least this (centipawns) ...
    #[arg(long, default_value_t = 1000)]
    win_score: i32,
    /// ... for the same side on this many consecutive plies.
    #[arg(long, default_value_t = 4)]
    win_plies: usize,
    /// Adjudicate a draw when the score is within this of zero (centipawns) ...
    #[arg(long, default_value_t = 10)]
    draw_score: i32,
    /// ... on this many consecutive plies (0: never) ...
    #[arg(long, default_value_t = 0)]
    draw_plies: usize,
    /// ... counted from the engine's move after this many of its moves.
    #[arg(long, default_value_t = 60)]
    draw_after: usize,
}

impl RulesArgs {
    fn rules(&self) -> adjudication::Rules {
        adjudication::Rules {
            win_score: self.win_score,
            win_plies: self.win_plies,
            draw_score: self.draw_score,
            draw_plies: self.draw_plies,
            draw_after: self.draw_after,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum FormatArg {
    Records,
    Games,
}

/// Replays games of `datagen --format games` under other adjudication rules: how many moves and
/// kept positions the rules would have saved, and how many games they would have ended with
/// another result than the one played out. Rules stricter than those the games were played with
/// cannot end a game earlier than it ended, so such games keep their recorded end.
#[derive(clap::Args, Debug)]
struct AdjudicateArgs {
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Reads files of `datagen --format games`: checks every move, counts games, positions and
/// results, prints the first kept positions, and with --unpack writes the kept positions as
/// 32-byte records (the format `texel` and `show` read).
#[derive(clap::Args, Debug)]
struct GamesArgs {
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Kept positions to print.
    #[arg(long, default_value_t = 0)]
    limit: usize,
    /// Write the kept positions here as records.
    #[arg(long, value_name = "FILE")]
    unpack: Option<PathBuf>,
}

/// Turns games a match runner wrote as PGN (fastchess, as OpenBench's DATAGEN workloads play
/// them, or cutechess), with each move's score in its comment, into the game format `train`
/// reads (appended to --out). Prints what it read, wrote and refused, and why.
#[derive(clap::Args, Debug)]
struct PgnArgs {
    /// PGN files; `-` reads standard input (e.g. `bzip2 -dc games.pgn.bz2 | tune pgn - ...`).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The game file to append to (created if missing).
    #[arg(long, value_name = "FILE.games")]
    out: PathBuf,
}

/// Fits the evaluation's weights to game results (Texel's method, Adam) and writes them as
/// Rust source in the format of crates/engine/src/eval/tuned.rs.
#[derive(clap::Args, Debug)]
struct TexelArgs {
    /// Data files written by datagen.
    #[arg(required = true, value_name = "FILE")]
    data: Vec<PathBuf>,
    /// Where to write the weights (crates/engine/src/eval/tuned.rs to adopt them).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Use at most this many positions (from the first files first).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Full-batch epochs at most.
    #[arg(long, default_value_t = 1000)]
    epochs: usize,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Stop when the error has not improved for this many epochs (0: never).
    #[arg(long, default_value_t = 100)]
    patience: usize,
    /// Print the error every this many epochs.
    #[arg(long, default_value_t = 10)]
    print_every: usize,
    /// Held-out data to report the error on before and after tuning (never fitted): a tuning
    /// that lowers the training error but raises this one has overfitted.
    #[arg(long, value_name = "FILE")]
    validate: Vec<PathBuf>,
    /// Use this K instead of fitting it.
    #[arg(long)]
    k: Option<f64>,
    /// Blocks of the weight table to leave as they are (names as in eval/weights.rs, e.g.
    /// MATERIAL,TEMPO).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    freeze: Vec<String>,
    /// Ridge penalty: adds L2 · Σ (weight − starting weight)² to the error, so that weights few
    /// positions inform stay near their start (0: none; choose it by the held-out error).
    #[arg(long, default_value_t = 0.0, value_name = "L2")]
    l2: f64,
    /// Threads [default: the number of cores].
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Fewer messages.
    #[arg(long)]
    quiet: bool,
}

/// SPSA over search parameters (OpenBench's schedule), the games played by arena between a +
/// and a − engine each iteration. Needs a build with `--features tune` (scripts/spsa.sh makes
/// one). Resumes from its log.
#[derive(clap::Args, Debug)]
struct SpsaArgs {
    /// The parameters to tune (names from engine::params) [default: chapter 14's margins].
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "NAMES",
        default_value = "rfp_margin,razor_margin,futility_base,futility_per_depth,see_quiet_margin,see_capture_margin"
    )]
    params: Vec<String>,
    /// Iterations (N in the schedules).
    #[arg(long)]
    iterations: u64,
    /// Game pairs per iteration.
    #[arg(long, default_value_t = 8)]
    pairs_per_iteration: u64,
    /// Time control, in arena's form (4+0.04, nodes=5000, ...).
    #[arg(long, default_value = "4+0.04")]
    tc: String,
    /// The engine, built with --features tune.
    #[arg(long, value_name = "PATH", default_value = "target/spsa/cb2026-tune")]
    engine: PathBuf,
    #[arg(long, value_name = "PATH", default_value = "target/release/arena")]
    arena: PathBuf,
    /// EPD book for arena [default: as datagen's --book].
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Games at once [default: the number of cores].
    #[arg(long, value_name = "N")]
    concurrency: Option<usize>,
    /// Hash per engine, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Seed of the perturbations and the openings (keep it to resume a run).
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// The log, one line per iteration; an existing log of the same run is resumed.
    #[arg(long, value_name = "FILE", default_value = "target/spsa/spsa.log")]
    log: PathBuf,
    /// OpenBench's r_end: the learning rate at the last iteration.
    #[arg(long, default_value_t = spsa::R_END)]
    r_end: f64,
    /// A as a fraction of the iterations.
    #[arg(long, default_value_t = spsa::A_RATIO)]
    a_ratio: f64,
    #[arg(long, default_value_t = spsa::ALPHA)]
    alpha: f64,
    #[arg(long, default_value_t = spsa::GAMMA)]
    gamma: f64,
    /// More arguments for arena (after `--`).
    #[arg(last = true)]
    arena_args: Vec<String>,
}

/// Prints a data file's first records as `FEN | result | score`, and counts its results.
#[derive(clap::Args, Debug)]
struct ShowArgs {
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Records to print.
    #[arg(long, default_value_t = 10)]
    limit: usize,
    /// Records to skip first.
    #[arg(long, default_value_t = 0)]
    skip: usize,
}

fn datagen_cmd(a: DatagenArgs) -> Result<(), String> {
    let seed = a.seed.unwrap_or_else(clock_seed);
    let books = if a.startpos {
        Vec::new()
    } else if a.book.is_empty() {
        vec![default_book()]
    } else {
        a.book
    };
    let net = match &a.eval_file {
        None => None,
        Some(p) if p.as_os_str() == "embedded" => Some(engine::eval::nnue::embedded()),
        Some(p) => Some(std::sync::Arc::new(files::read_network(p)?)),
    };
    let config = datagen::Config {
        net,
        out: a.out,
        threads: a.threads.unwrap_or_else(cores),
        nodes: a.nodes,
        positions: a.positions,
        games: a.games,
        books,
        random_plies: a.random_plies,
        mixed_parity: !a.fixed_random_plies,
        seed,
        hash_mib: a.hash,
        max_plies: a.max_plies,
        rules: a.rules.rules(),
        quiet: a.quiet,
        format: match a.format {
            FormatArg::Records => datagen::DataFormat::Records,
            FormatArg::Games => datagen::DataFormat::Games,
        },
    };
    datagen::run(&config).map(|_| ())
}

fn texel_cmd(a: TexelArgs) -> Result<(), String> {
    if let Some(n) = a.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    let command = std::iter::once("tune".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let settings = texel::Settings {
        epochs: a.epochs,
        lr: a.lr,
        patience: a.patience,
        print_every: a.print_every,
        k: a.k,
        freeze: a.freeze,
        l2: a.l2,
        ..texel::Settings::default()
    };
    texel::trainable(&settings.freeze)?;
    if !(settings.l2 >= 0.0 && settings.l2.is_finite()) {
        return Err(format!("--l2 must be 0 or more, not {}", settings.l2));
    }
    let started = std::time::Instant::now();
    let data = texel::Dataset::load(&a.data, a.limit, a.quiet)?;
    eprintln!(
        "{} positions traced in {:.1} s ({} MiB); {} threads",
        data.len(),
        started.elapsed().as_secs_f64(),
        data.memory() >> 20,
        rayon::current_num_threads()
    );
    let quiet = a.quiet;
    let outcome = texel::tune(
        &data,
        &texel::current_weights(),
        &settings,
        &mut |line: &str| {
            if !quiet || !line.starts_with("epoch") {
                eprintln!("{line}");
            }
        },
    )?;
    let mut about = texel::about(&command, &data, &outcome);
    if !a.validate.is_empty() {
        let held_out = texel::Dataset::load(&a.validate, None, a.quiet)?;
        let tuned: Vec<f64> = outcome
            .weights
            .iter()
            .flat_map(|&(mg, eg)| [mg as f64, eg as f64])
            .collect();
        let before = held_out.loss(&texel::current_weights(), outcome.k);
        let after = held_out.loss(&tuned, outcome.k);
        let line = format!(
            " Held-out error ({} positions): {before:.6} -> {after:.6}.",
            held_out.len()
        );
        eprintln!("{}", line.trim());
        about.push_str(&line);
    }
    texel::write(&a.out, &outcome.weights, &about)?;
    eprintln!("weights written to {}", a.out.display());
    Ok(())
}

fn spsa_cmd(a: SpsaArgs) -> Result<(), String> {
    if !a.engine.exists() {
        return Err(format!(
            "{}: no such engine. Build one with the tune feature (scripts/spsa.sh does it):\n  \
             CARGO_TARGET_DIR=target/spsa-build cargo build --release -p uci --features tune\n  \
             mkdir -p target/spsa && cp target/spsa-build/release/cb2026 target/spsa/cb2026-tune",
            a.engine.display()
        ));
    }
    let config = spsa::Config {
        names: a.params,
        schedule: spsa::Schedule {
            iterations: a.iterations,
            alpha: a.alpha,
            gamma: a.gamma,
            a_ratio: a.a_ratio,
            r_end: a.r_end,
        },
        pairs: a.pairs_per_iteration,
        tc: a.tc,
        engine: a.engine,
        arena: a.arena,
        openings: a.openings.unwrap_or_else(default_book),
        concurrency: a.concurrency.unwrap_or_else(cores),
        hash_mib: a.hash,
        seed: a.seed,
        log: a.log,
        arena_args: a.arena_args,
    };
    let params = spsa::run(&config)?;
    println!(
        "SPSA result after {} iterations:",
        config.schedule.iterations
    );
    for p in &params {
        println!(
            "{} = {} (default {}, {:.2} before rounding)",
            p.info.name,
            p.value.round() as i32,
            p.info.default,
            p.value
        );
    }
    println!(
        "To test them: set the defaults in crates/engine/src/params.rs and run scripts/sprt.sh, \
         or give them to both arena engines as option.NAME=VALUE."
    );
    Ok(())
}

fn games_cmd(a: GamesArgs) -> Result<(), String> {
    let mut out = Vec::new();
    let mut printed = 0;
    let mut results = [0u64; 3];
    let (mut games, mut positions, mut kept) = (0u64, 0u64, 0u64);
    for file in &a.files {
        let scan = games::scan_file(file, |ply| {
            if !games::keep(ply) {
                return;
            }
            kept += 1;
            if printed < a.limit {
                println!(
                    "{} | {} | {} | {}",
                    ply.position.to_fen(),
                    ply.best_move,
                    ply.result.pgn(),
                    ply.score
                );
                printed += 1;
            }
            if a.unpack.is_some()
                && let Ok(record) = format::encode(ply.position, ply.score as i32, ply.result)
            {
                out.extend_from_slice(&record);
            }
        })?;
        games += scan.games;
        positions += scan.positions;
        for (total, n) in results.iter_mut().zip(scan.results) {
            *total += n;
        }
        if scan.complete_bytes != std::fs::metadata(file).map_or(0, |m| m.len()) {
            eprintln!("{}: an incomplete last game, left out", file.display());
        }
    }
    println!(
        "{games} games, {positions} positions, {kept} kept; results from White's view: 1-0 {} / 1/2-1/2 {} / 0-1 {}",
        results[2], results[1], results[0]
    );
    if let Some(path) = &a.unpack {
        std::fs::write(path, &out).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{kept} records -> {}", path.display());
    }
    Ok(())
}

fn adjudicate_cmd(a: AdjudicateArgs) -> Result<(), String> {
    let rules = a.rules.rules();
    let mut study = adjudication::Study::default();
    let mut game: Vec<(i32, bool)> = Vec::with_capacity(512);
    let mut result = format::GameResult::Draw;
    for file in &a.files {
        games::scan_file(file, |ply| {
            if ply.index == 0 && !game.is_empty() {
                adjudication::study_game(&mut study, rules, &game, result);
                game.clear();
            }
            result = ply.result;
            game.push((ply.score as i32, games::keep(ply)));
        })?;
        if !game.is_empty() {
            adjudication::study_game(&mut study, rules, &game, result);
            game.clear();
        }
    }
    let pct = |part: u64, whole: u64| 100.0 * part as f64 / whole.max(1) as f64;
    let s = &study;
    println!("rules: {rules:?}");
    println!(
        "games {}; ended earlier by the rules: {} ({:.2}%), {} as draws, {} as wins",
        s.games,
        s.ended_draw + s.ended_win,
        pct(s.ended_draw + s.ended_win, s.games),
        s.ended_draw,
        s.ended_win
    );
    println!(
        "with another result than played out: {} games ({:.2}%), {} kept positions ({:.2}%)",
        s.wrong,
        pct(s.wrong, s.games),
        s.wrong_kept,
        pct(s.wrong_kept, s.kept_with_rules)
    );
    println!(
        "moves searched: {} -> {} ({:.2}%); kept positions: {} -> {} ({:.2}%)",
        s.moves,
        s.moves_with_rules,
        pct(s.moves_with_rules, s.moves),
        s.kept,
        s.kept_with_rules,
        pct(s.kept_with_rules, s.kept)
    );
    println!(
        "results (1-0 / 1/2 / 0-1): {} / {} / {} -> {} / {} / {}",
        s.results[2],
        s.results[1],
        s.results[0],
        s.results_with_rules[2],
        s.results_with_rules[1],
        s.results_with_rules[0]
    );
    println!(
        "games per move searched: x{:.3}; kept positions per move searched: x{:.3}",
        s.moves as f64 / s.moves_with_rules.max(1) as f64,
        (s.kept_with_rules as f64 / s.moves_with_rules.max(1) as f64)
            / (s.kept as f64 / s.moves.max(1) as f64)
    );
    Ok(())
}

fn pgn_cmd(a: PgnArgs) -> Result<(), String> {
    use std::io::{BufReader, Write};
    let (mut file, before) = datagen::open_output(&a.out, datagen::DataFormat::Games)?;
    let mut tally = pgn::Tally::default();
    for path in &a.files {
        let mut write = |bytes: &mut Vec<u8>| {
            file.write_all(bytes)
                .map_err(|e| format!("{}: {e}", a.out.display()))?;
            bytes.clear();
            Ok(())
        };
        let named = |e: String| format!("{}: {e}", path.display());
        if path.as_os_str() == "-" {
            pgn::import(std::io::stdin().lock(), &mut tally, &mut write).map_err(named)?;
        } else {
            let input = std::fs::File::open(path).map_err(|e| named(e.to_string()))?;
            pgn::import(BufReader::new(input), &mut tally, &mut write).map_err(named)?;
        }
    }
    println!("{}", tally.report());
    println!(
        "{} now holds {} games",
        a.out.display(),
        before + tally.written
    );
    Ok(())
}

fn show_cmd(a: ShowArgs) -> Result<(), String> {
    let err = |e: std::io::Error| format!("{}: {e}", a.file.display());
    let records = format::read_all(&a.file).map_err(err)?;
    for r in records.iter().skip(a.skip).take(a.limit) {
        let s = format::decode(r)?;
        println!("{} | {} | {}", s.position.to_fen(), s.result.pgn(), s.score);
    }
    let mut results = [0u64; 3];
    for r in &records {
        if let Some(slot) = results.get_mut(r[30] as usize) {
            *slot += 1;
        }
    }
    println!(
        "{}: {} positions; results 1-0 {}, 1/2-1/2 {}, 0-1 {}",
        a.file.display(),
        records.len(),
        results[2],
        results[1],
        results[0]
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Datagen(a) => datagen_cmd(a),
        Cmd::Texel(a) => texel_cmd(a),
        Cmd::Spsa(a) => spsa_cmd(a),
        Cmd::Show(a) => show_cmd(a),
        Cmd::Games(a) => games_cmd(a),
        Cmd::Adjudicate(a) => adjudicate_cmd(a),
        Cmd::Pgn(a) => pgn_cmd(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::FAILURE
        }
    }
}
