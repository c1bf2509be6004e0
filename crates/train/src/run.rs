//! A run from start to end: read the data, train epoch after epoch, and after each write the
//! checkpoint, the quantised networks and the loss table and chart into the output folder.
//!
//! | file | what |
//! |---|---|
//! | `checkpoint.bin` | everything to continue the run ([`crate::checkpoint`]) |
//! | `net-eE.nnue` | the network after epoch E, quantised, in the engine's format |
//! | `net.nnue` | the latest of them |
//! | `loss.csv`, `loss.svg` | the mean training and validation loss per epoch |

use crate::FloatNetwork;
use crate::checkpoint::{self, Checkpoint, write_atomic};
use crate::config::Config;
use crate::data::{self, Dataset, FileUsed};
use crate::plot;
use crate::progress::Progress;
use crate::trainer::{EpochStats, State, Trainer};
use std::path::{Path, PathBuf};

/// How a run is carried out, as opposed to what it learns: none of this changes the weights.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The output folder.
    pub out: PathBuf,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// No progress output.
    pub quiet: bool,
}

/// What a finished run reports.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Every epoch of the run, including those before a resume.
    pub history: Vec<EpochStats>,
    pub net: FloatNetwork,
    /// Over the epochs this process trained (0 when there were none).
    pub positions_per_second: f64,
    pub seconds_per_epoch: f64,
    pub train_positions: usize,
    pub validation_positions: usize,
}

/// Starts a new run in `opts.out`, which must not hold a checkpoint already.
///
/// # Errors
/// A bad option, unreadable or damaged data, or an output folder that cannot be written.
pub fn start(config: Config, opts: &RunOptions) -> Result<Summary, String> {
    config.validate()?;
    let ck = opts.out.join(checkpoint::FILE_NAME);
    if ck.exists() {
        return Err(format!(
            "{} exists: continue that run with --resume, or choose another --out",
            ck.display()
        ));
    }
    create_dir(&opts.out)?;
    with_threads(opts.threads, || {
        let (data, files) = load(&config, None, opts)?;
        let state = State::new(&config);
        train(Trainer::new(config, state), &data, files, opts)
    })
}

/// Continues the run whose checkpoint is in `opts.out`, to `epochs` epochs in all if given
/// (else to the number it was started with), with exactly the data it started with.
///
/// # Errors
/// No readable checkpoint, or data that changed since the run started.
pub fn resume(opts: &RunOptions, epochs: Option<u32>) -> Result<Summary, String> {
    let ck = Checkpoint::read(&opts.out)?;
    let mut config = ck.config;
    if let Some(e) = epochs {
        config.epochs = e;
    }
    config.validate()?;
    with_threads(opts.threads, || {
        let (data, files) = load(&config, Some(&ck.files), opts)?;
        say(
            opts,
            &format!(
                "train: resuming {} after epoch {} of {}",
                opts.out.display(),
                ck.state.epoch,
                config.epochs
            ),
        );
        train(Trainer::new(config, ck.state), &data, files, opts)
    })
}

fn say(opts: &RunOptions, line: &str) {
    if !opts.quiet {
        eprintln!("{line}");
    }
}

fn create_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))
}

/// Runs `f` on a pool of `threads` threads (0: one per core).
fn with_threads<T: Send>(
    threads: usize,
    f: impl FnOnce() -> Result<T, String> + Send,
) -> Result<T, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    pool.install(f)
}

/// Reads every data file (to the lengths in `limits` when resuming, checking they are the
/// same bytes).
fn load(
    config: &Config,
    limits: Option<&[FileUsed]>,
    opts: &RunOptions,
) -> Result<(Dataset, Vec<FileUsed>), String> {
    let mut data = Dataset::default();
    let mut files = Vec::new();
    for (i, path) in config.data.iter().enumerate() {
        let before = limits.and_then(|l| l.get(i));
        let (used, s) = data::read_file(
            path,
            i,
            before.map(|f| f.bytes),
            config.seed,
            config.validation,
            &mut data,
        )?;
        if let Some(before) = before.filter(|b| b.hash != used.hash) {
            return Err(format!(
                "{}: its first {} bytes changed since the run started",
                path.display(),
                before.bytes
            ));
        }
        let unit = if data::is_games_file(path) {
            "games"
        } else {
            "record groups"
        };
        say(
            opts,
            &format!(
                "data: {}: {} {unit} ({} held out), {} positions ({} held out), {} left out",
                path.display(),
                s.games,
                s.validation_games,
                s.positions,
                s.validation_positions,
                s.skipped
            ),
        );
        files.push(used);
    }
    if data.train.is_empty() {
        return Err("no training positions in the data".into());
    }
    if data.train.len() > u32::MAX as usize {
        return Err(format!("{} positions: at most 2^32 fit", data.train.len()));
    }
    say(
        opts,
        &format!(
            "data: {} training and {} validation positions, {} MiB",
            data.train.len(),
            data.validation.len(),
            ((data.train.len() + data.validation.len()) * std::mem::size_of::<data::Sample>())
                >> 20
        ),
    );
    Ok((data, files))
}

/// The epochs still to do, writing the output after each.
fn train(
    mut trainer: Trainer,
    data: &Dataset,
    files: Vec<FileUsed>,
    opts: &RunOptions,
) -> Result<Summary, String> {
    let config = trainer.config.clone();
    let first = trainer.state.epoch;
    say(
        opts,
        &format!(
            "train: {}{} → {}×2 → 1{}, {}, batch {}, lr {} ({}), λ {}, K {}, \
             weight decay {}, seed {}; {} threads, {} loops",
            config.layout().inputs(),
            match (config.layout().describe().as_str(), config.factorise) {
                ("", _) => String::new(),
                (d, false) => format!(" ({d})"),
                (d, true) => format!(" ({d}, factorised: 768 shared rows while training)"),
            },
            config.hidden,
            match config.output_buckets {
                1 => String::new(),
                b => format!(" in {b} output buckets"),
            },
            config.activation.name(),
            config.batch,
            config.lr,
            match config.lr_drop_epoch {
                0 => "constant".to_string(),
                e => format!("×{} every {e} epochs", config.lr_gamma),
            },
            config.wdl,
            config.scale,
            config.weight_decay,
            config.seed,
            rayon::current_num_threads(),
            trainer.isa.name()
        ),
    );
    let mut progress = Progress::new(opts.quiet, first, config.epochs, data.train.len() as u64);
    while trainer.state.epoch < config.epochs {
        let epoch = trainer.state.epoch + 1;
        progress.start_epoch();
        let stats = trainer.epoch(data, &mut |done, loss| progress.update(epoch, done, loss));
        write_outputs(&trainer, &files, &opts.out)?;
        let validation = stats
            .validation_loss
            .map_or("-".to_string(), |v| format!("{v:.6}"));
        progress.line(&format!(
            "epoch {epoch}/{}: lr {:.3e}, train loss {:.6}, validation loss {validation}, \
             {:.1} s, {:.2}M pos/s",
            config.epochs,
            stats.lr,
            stats.train_loss,
            stats.seconds,
            stats.positions_per_second() / 1e6
        ));
    }
    progress.finish();
    let now = &trainer.state.history[first as usize..];
    let positions: u64 = now.iter().map(|e| e.positions).sum();
    let train_seconds: f64 = now.iter().map(|e| e.train_seconds).sum();
    let seconds: f64 = now.iter().map(|e| e.seconds).sum();
    let summary = Summary {
        history: trainer.state.history.clone(),
        net: trainer.state.net.clone(),
        positions_per_second: if train_seconds > 0.0 {
            positions as f64 / train_seconds
        } else {
            0.0
        },
        seconds_per_epoch: seconds / now.len().max(1) as f64,
        train_positions: data.train.len(),
        validation_positions: data.validation.len(),
    };
    if now.is_empty() {
        say(
            opts,
            &format!(
                "train: nothing to do, the run is already at epoch {} of {}",
                summary.history.len(),
                trainer.config.epochs
            ),
        );
    } else if let Some(last) = summary.history.last() {
        say(
            opts,
            &format!(
                "train: {:.2}M positions/s, {:.1} s per epoch; after epoch {}: train loss {:.6}, \
                 validation loss {}; {}",
                summary.positions_per_second / 1e6,
                summary.seconds_per_epoch,
                last.epoch,
                last.train_loss,
                last.validation_loss
                    .map_or("-".to_string(), |v| format!("{v:.6}")),
                opts.out.join("net.nnue").display()
            ),
        );
    }
    Ok(summary)
}

/// The checkpoint, the networks and the loss table and chart after an epoch.
fn write_outputs(trainer: &Trainer, files: &[FileUsed], dir: &Path) -> Result<(), String> {
    let state = &trainer.state;
    let mut net = state.net.quantise();
    net.description = trainer.config.describe(files, state.epoch);
    let net = net.to_bytes();
    write_atomic(&dir.join(format!("net-e{}.nnue", state.epoch)), &net)?;
    write_atomic(&dir.join("net.nnue"), &net)?;
    write_atomic(&dir.join("loss.csv"), plot::csv(&state.history).as_bytes())?;
    write_atomic(&dir.join("loss.svg"), plot::svg(&state.history).as_bytes())?;
    // The checkpoint last: a run killed before it redoes the epoch, and rewrites the same files.
    Checkpoint {
        config: trainer.config.clone(),
        files: files.to_vec(),
        state: state.clone(),
    }
    .write(dir)
}
