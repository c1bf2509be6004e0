//! What a run trains: the data, the network's shape and the hyperparameters. A checkpoint
//! stores it, and a resumed run takes it from there (only the number of epochs may grow).

use crate::loss::Objective;
use crate::schedule::Schedule;
use engine::eval::nnue::Activation;
use engine::eval::nnue::inputs::Layout;
use engine::eval::nnue::network::{MAX_HIDDEN, MAX_OUTPUT_BUCKETS};
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// `.games` files and files of 32-byte records.
    pub data: Vec<PathBuf>,
    /// Neurons of the first layer (a multiple of 16).
    pub hidden: usize,
    pub activation: Activation,
    /// Output buckets by the number of pieces (1: a single output).
    pub output_buckets: usize,
    /// King buckets of the inputs: one of [`Layout::named`]'s maps (1: the plain inputs).
    pub king_buckets: usize,
    /// Mirror each view so that its king stands on files a-d.
    pub mirror: bool,
    /// Train the king buckets with a factoriser: 768 more rows that every bucket shares, added
    /// into each bucket's rows when the net is written (see [`FloatNetwork`](crate::FloatNetwork)).
    pub factorise: bool,
    /// Epochs in all (a resumed run counts the ones already done).
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch: usize,
    pub lr: f32,
    /// Multiply the rate by `lr_gamma` every this many epochs (0: never).
    pub lr_drop_epoch: u32,
    pub lr_gamma: f32,
    /// λ, the weight of the game's result in the target.
    pub wdl: f32,
    /// K, the centipawns of the sigmoid's unit.
    pub scale: f32,
    pub weight_decay: f32,
    /// The fraction of games held out.
    pub validation: f64,
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            data: Vec::new(),
            hidden: 128,
            activation: Activation::SCReLU,
            output_buckets: 1,
            king_buckets: 1,
            mirror: false,
            factorise: false,
            epochs: 10,
            batch: 16384,
            lr: 0.001,
            lr_drop_epoch: 0,
            lr_gamma: 0.1,
            wdl: 0.3,
            scale: 400.0,
            weight_decay: 0.01,
            validation: 0.02,
            seed: 1,
        }
    }
}

impl Config {
    /// How a net was made, for its file's description: the command that trains it again (the
    /// data by file name, with the bytes used and their hash, since paths differ between
    /// machines) and the epoch it is from.
    pub fn describe(&self, files: &[crate::data::FileUsed], epoch: u32) -> String {
        let name = |p: &std::path::Path| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        };
        let data: Vec<String> = self.data.iter().map(|p| name(p)).collect();
        let used: Vec<String> = files
            .iter()
            .map(|f| {
                format!(
                    "{} ({} bytes, hash {:016x})",
                    name(&f.path),
                    f.bytes,
                    f.hash
                )
            })
            .collect();
        format!(
            "cb2026 train {}: train --data {} --hidden {} --activation {}{}{}{} --epochs {} --batch {} \
             --lr {} --lr-drop-epoch {} --lr-gamma {} --wdl {} --scale {} --weight-decay {} \
             --validation {} --seed {}; epoch {epoch}; data: {}",
            env!("CARGO_PKG_VERSION"),
            data.join(" "),
            self.hidden,
            self.activation.name().to_lowercase(),
            // Said only where it is not the default, so that the nets made before the option
            // existed keep their description's command.
            if self.output_buckets == 1 {
                String::new()
            } else {
                format!(" --output-buckets {}", self.output_buckets)
            },
            match (self.king_buckets, self.mirror) {
                (1, false) => String::new(),
                (k, false) => format!(" --king-buckets {k}"),
                (k, true) => format!(" --king-buckets {k} --mirror"),
            },
            if self.factorise { " --factorise" } else { "" },
            self.epochs,
            self.batch,
            self.lr,
            self.lr_drop_epoch,
            self.lr_gamma,
            self.wdl,
            self.scale,
            self.weight_decay,
            self.validation,
            self.seed,
            used.join(", ")
        )
    }

    /// # Errors
    /// A value the trainer cannot work with, with what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let h = self.hidden;
        if h == 0 || !h.is_multiple_of(16) || h > MAX_HIDDEN {
            return Err(format!(
                "--hidden {h}: must be a multiple of 16 from 16 to {MAX_HIDDEN}"
            ));
        }
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&self.output_buckets) {
            return Err(format!(
                "--output-buckets {}: must be 1 to {MAX_OUTPUT_BUCKETS}",
                self.output_buckets
            ));
        }
        Layout::named(self.king_buckets, self.mirror)
            .map_err(|e| format!("--king-buckets {}: {e}", self.king_buckets))?;
        if self.factorise && self.king_buckets < 2 {
            return Err("--factorise shares weights between king buckets: it needs --king-buckets 2 or more".into());
        }
        if self.batch == 0 {
            return Err("--batch must be at least 1".into());
        }
        let positive = [("--lr", self.lr), ("--scale", self.scale)];
        for (name, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("{name} {v}: must be positive"));
            }
        }
        if !(self.lr_gamma.is_finite() && self.lr_gamma > 0.0) {
            return Err(format!("--lr-gamma {}: must be positive", self.lr_gamma));
        }
        if !(0.0..=1.0).contains(&self.wdl) {
            return Err(format!("--wdl {}: must be within 0..1", self.wdl));
        }
        if !(self.weight_decay.is_finite() && self.weight_decay >= 0.0) {
            return Err(format!(
                "--weight-decay {}: must be at least 0",
                self.weight_decay
            ));
        }
        if !(0.0..1.0).contains(&self.validation) {
            return Err(format!(
                "--validation {}: must be at least 0 and below 1",
                self.validation
            ));
        }
        if self.data.is_empty() {
            return Err("no --data files".into());
        }
        Ok(())
    }

    /// The inputs' layout (a configuration [`Config::validate`] accepted has one).
    pub fn layout(&self) -> Layout {
        Layout::named(self.king_buckets, self.mirror).unwrap_or(Layout::PLAIN)
    }

    pub fn objective(&self) -> Objective {
        Objective {
            k: self.scale,
            wdl: self.wdl,
        }
    }

    pub fn schedule(&self) -> Schedule {
        Schedule {
            lr: self.lr,
            drop_every: self.lr_drop_epoch,
            gamma: self.lr_gamma,
        }
    }
}
