//! The `train` binary: the command line over [`train::run`].

use clap::Parser;
use engine::eval::nnue::Activation;
use std::path::PathBuf;
use std::process::ExitCode;
use train::checkpoint::Checkpoint;
use train::{Config, RunOptions};

const EXAMPLES: &str = "\
Examples:
  train --data /root/nnue/hce.games --data selfplay.bin --out /root/nnue/run1 --epochs 30
  train --out /root/nnue/run1 --resume --epochs 40

Files ending in .games are read as whole games (the positions tune::games::keep keeps), any
other as 32-byte records. The learning rate is multiplied by --lr-gamma every --lr-drop-epoch
epochs. With --resume every option comes from DIR/checkpoint.bin; only --epochs (the total),
--threads and --quiet may be given, or others equal to the checkpoint's.";

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ActivationArg {
    Screlu,
    Crelu,
}

/// cb2026's NNUE trainer: learns the (768 → N) × 2 → 1 network (or K × 768 inputs with king
/// buckets) from self-play positions, on the CPU, and writes it in the engine's format after
/// every epoch.
#[derive(Parser, Debug)]
#[command(name = "train", version, after_help = EXAMPLES)]
struct Cli {
    /// Training data: .games files and files of 32-byte records (repeat, or list several).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    data: Vec<PathBuf>,
    /// The output folder: checkpoint.bin, net-eE.nnue, net.nnue, loss.csv, loss.svg.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Neurons of the first layer, a multiple of 16 [default: 128].
    #[arg(long, value_name = "N")]
    hidden: Option<usize>,
    /// The activation [default: screlu].
    #[arg(long, value_enum)]
    activation: Option<ActivationArg>,
    /// Output buckets by the number of pieces, 1 to 8 [default: 1].
    #[arg(long, value_name = "B")]
    output_buckets: Option<usize>,
    /// King buckets of the inputs, by the square of the viewing side's king: 1, 2, 4 or 8
    /// (the maps are in the engine's `inputs::Layout::named`) [default: 1].
    #[arg(long, value_name = "K")]
    king_buckets: Option<usize>,
    /// Mirror each side's view so that its king stands on files a-d.
    #[arg(long)]
    mirror: bool,
    /// With king buckets: train 768 more rows that every bucket shares (a factoriser), so that
    /// what holds whatever the king's bucket is learnt from all the positions; they are added into
    /// each bucket's rows in the written net, which has the same size as without.
    #[arg(long)]
    factorise: bool,
    /// Epochs in all (with --resume: the new total) [default: 10].
    #[arg(long, value_name = "N")]
    epochs: Option<u32>,
    /// Positions per optimiser step [default: 16384].
    #[arg(long, value_name = "N")]
    batch: Option<usize>,
    /// AdamW's learning rate [default: 0.001].
    #[arg(long)]
    lr: Option<f32>,
    /// Multiply the learning rate by --lr-gamma every this many epochs; 0: never [default: 0].
    #[arg(long, value_name = "E")]
    lr_drop_epoch: Option<u32>,
    /// The factor of each learning-rate drop [default: 0.1].
    #[arg(long, value_name = "GAMMA")]
    lr_gamma: Option<f32>,
    /// λ: the weight of the game's result in the target, the rest is the score's [default: 0.3].
    #[arg(long)]
    wdl: Option<f32>,
    /// K: the target for a score s is σ(s / K), the prediction σ(output · 400 / K) [default: 400].
    #[arg(long, value_name = "K")]
    scale: Option<f32>,
    /// AdamW's decoupled weight decay [default: 0.01].
    #[arg(long, value_name = "WD")]
    weight_decay: Option<f32>,
    /// The fraction of games held out for validation [default: 0.02].
    #[arg(long, value_name = "FRACTION")]
    validation: Option<f64>,
    /// Worker threads [default: one per core]; the result does not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// The seed of the first weights, the shuffling and the validation choice [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Continue the run in --out from its checkpoint.
    #[arg(long)]
    resume: bool,
    /// No progress output.
    #[arg(long)]
    quiet: bool,
}

impl Cli {
    /// The configuration: the given options over `base` (the defaults, or a checkpoint's).
    fn config(&self, base: &Config) -> Config {
        Config {
            data: if self.data.is_empty() {
                base.data.clone()
            } else {
                self.data.clone()
            },
            hidden: self.hidden.unwrap_or(base.hidden),
            activation: match self.activation {
                Some(ActivationArg::Screlu) => Activation::SCReLU,
                Some(ActivationArg::Crelu) => Activation::CReLU,
                None => base.activation,
            },
            output_buckets: self.output_buckets.unwrap_or(base.output_buckets),
            king_buckets: self.king_buckets.unwrap_or(base.king_buckets),
            mirror: self.mirror || base.mirror,
            factorise: self.factorise || base.factorise,
            epochs: self.epochs.unwrap_or(base.epochs),
            batch: self.batch.unwrap_or(base.batch),
            lr: self.lr.unwrap_or(base.lr),
            lr_drop_epoch: self.lr_drop_epoch.unwrap_or(base.lr_drop_epoch),
            lr_gamma: self.lr_gamma.unwrap_or(base.lr_gamma),
            wdl: self.wdl.unwrap_or(base.wdl),
            scale: self.scale.unwrap_or(base.scale),
            weight_decay: self.weight_decay.unwrap_or(base.weight_decay),
            validation: self.validation.unwrap_or(base.validation),
            seed: self.seed.unwrap_or(base.seed),
        }
    }
}

fn run(cli: &Cli) -> Result<(), String> {
    let opts = RunOptions {
        out: cli.out.clone(),
        threads: cli.threads.unwrap_or(0),
        quiet: cli.quiet,
    };
    if cli.resume {
        let saved = Checkpoint::read(&cli.out)?.config;
        let wanted = cli.config(&saved);
        // Everything but the number of epochs must be what the run started with.
        let differ: Vec<&str> = [
            ("--data", wanted.data != saved.data),
            ("--hidden", wanted.hidden != saved.hidden),
            ("--activation", wanted.activation != saved.activation),
            (
                "--output-buckets",
                wanted.output_buckets != saved.output_buckets,
            ),
            ("--king-buckets", wanted.king_buckets != saved.king_buckets),
            ("--mirror", wanted.mirror != saved.mirror),
            ("--factorise", wanted.factorise != saved.factorise),
            ("--batch", wanted.batch != saved.batch),
            ("--lr", wanted.lr != saved.lr),
            (
                "--lr-drop-epoch",
                wanted.lr_drop_epoch != saved.lr_drop_epoch,
            ),
            ("--lr-gamma", wanted.lr_gamma != saved.lr_gamma),
            ("--wdl", wanted.wdl != saved.wdl),
            ("--scale", wanted.scale != saved.scale),
            ("--weight-decay", wanted.weight_decay != saved.weight_decay),
            ("--validation", wanted.validation != saved.validation),
            ("--seed", wanted.seed != saved.seed),
        ]
        .into_iter()
        .filter_map(|(name, differs)| differs.then_some(name))
        .collect();
        if !differ.is_empty() {
            return Err(format!(
                "--resume continues the run as it was started, but {} differ from its \
                 checkpoint's (only --epochs, --threads and --quiet may change)",
                differ.join(", ")
            ));
        }
        train::resume(&opts, cli.epochs)?;
    } else {
        if cli.data.is_empty() {
            return Err("give the training data with --data FILE".into());
        }
        train::start(cli.config(&Config::default()), &opts)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train: {e}");
            ExitCode::FAILURE
        }
    }
}
