//! The checkpoint: everything needed to continue a run exactly where it stopped, written after
//! every epoch to `DIR/checkpoint.bin`.
//!
//! # The file (little-endian)
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | `CB26TRCK` |
//! | 8..12 | format version, 4 (3, without the factoriser, and 2, without king buckets, are read too) |
//! | 12..20 | a hash of everything after byte 32 (a damaged file is refused, not misread) |
//! | 20..32 | zero |
//! | 32.. | the configuration (data files with the bytes used and their hash, then every option); epochs done, steps taken, the shuffling generator's state; the history of epochs; the float weights (`w1`, `b1`, `w2`, `b2`); Adam's first moments and second moments in the same order |
//!
//! Strings are a `u32` length and UTF-8; lists a `u32` count. Floats are stored bit for bit, so
//! a resumed run continues with exactly the numbers it stopped with.

use crate::FloatNetwork;
use crate::config::Config;
use crate::data::{FileUsed, hash_bytes};
use crate::optimiser::Moments;
use crate::trainer::{EpochStats, State};
use engine::eval::nnue::Activation;
use engine::eval::nnue::inputs::Layout;
use engine::eval::nnue::network::{MAX_HIDDEN, MAX_OUTPUT_BUCKETS};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"CB26TRCK";
const VERSION: u32 = 4;
/// The version before the factoriser, still read (as a run without it).
const UNFACTORISED_VERSION: u32 = 3;
/// The version before king buckets and mirroring, still read (as a run without them). A
/// checkpoint stores the number of king buckets and the mirroring, not the bucket map: the map is
/// [`Layout::named`]'s for that number, which must therefore never change.
const PLAIN_VERSION: u32 = 2;
const HEADER: usize = 32;

/// The checkpoint's name in the output folder.
pub const FILE_NAME: &str = "checkpoint.bin";

#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub config: Config,
    /// The data as the run first read it.
    pub files: Vec<FileUsed>,
    pub state: State,
}

/// Appends little-endian values.
struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }
    fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
    fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn floats(&mut self, v: &[f32]) {
        for &x in v {
            self.f32(x);
        }
    }
}

/// Takes little-endian values, failing at the end of the bytes instead of panicking.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let end = self.at + N;
        let slice = self
            .bytes
            .get(self.at..end)
            .ok_or("the checkpoint ends too soon")?;
        self.at = end;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_bits(self.u32()?))
    }
    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_bits(self.u64()?))
    }
    fn str(&mut self) -> Result<String, String> {
        let n = self.u32()? as usize;
        let end = self.at.checked_add(n).ok_or("a string too long")?;
        let bytes = self
            .bytes
            .get(self.at..end)
            .ok_or("the checkpoint ends too soon")?;
        self.at = end;
        String::from_utf8(bytes.to_vec()).map_err(|_| "a string that is not UTF-8".to_string())
    }
    fn floats(&mut self, n: usize) -> Result<Vec<f32>, String> {
        if self.bytes.len().saturating_sub(self.at) < 4 * n {
            return Err("the checkpoint ends too soon".into());
        }
        (0..n).map(|_| self.f32()).collect()
    }
}

fn write_config(w: &mut Writer, c: &Config, files: &[FileUsed]) -> Result<(), String> {
    w.u32(files.len() as u32);
    for f in files {
        let path = f
            .path
            .to_str()
            .ok_or_else(|| format!("{}: the path is not UTF-8", f.path.display()))?;
        w.str(path);
        w.u64(f.bytes);
        w.u64(f.hash);
    }
    w.u32(c.hidden as u32);
    w.u32(c.activation as u32);
    w.u32(c.output_buckets as u32);
    w.u32(c.king_buckets as u32);
    w.u32(c.mirror as u32);
    w.u32(c.factorise as u32);
    w.u32(c.epochs);
    w.u64(c.batch as u64);
    w.f32(c.lr);
    w.u32(c.lr_drop_epoch);
    w.f32(c.lr_gamma);
    w.f32(c.wdl);
    w.f32(c.scale);
    w.f32(c.weight_decay);
    w.f64(c.validation);
    w.u64(c.seed);
    Ok(())
}

/// A flag stored as a `u32`, 0 or 1.
fn flag(r: &mut Reader, what: &str) -> Result<bool, String> {
    match r.u32()? {
        0 => Ok(false),
        1 => Ok(true),
        f => Err(format!("a {what} flag of {f}")),
    }
}

fn read_config(r: &mut Reader, version: u32) -> Result<(Config, Vec<FileUsed>), String> {
    let n = r.u32()?;
    let mut files = Vec::new();
    for _ in 0..n {
        files.push(FileUsed {
            path: PathBuf::from(r.str()?),
            bytes: r.u64()?,
            hash: r.u64()?,
        });
    }
    let hidden = r.u32()? as usize;
    if hidden == 0 || !hidden.is_multiple_of(16) || hidden > MAX_HIDDEN {
        return Err(format!("a first layer of {hidden} neurons"));
    }
    let activation = match r.u32()? {
        0 => Activation::SCReLU,
        1 => Activation::CReLU,
        a => return Err(format!("activation {a}")),
    };
    let output_buckets = r.u32()? as usize;
    if !(1..=MAX_OUTPUT_BUCKETS).contains(&output_buckets) {
        return Err(format!("{output_buckets} output buckets"));
    }
    let (king_buckets, mirror) = if version >= UNFACTORISED_VERSION {
        let k = r.u32()? as usize;
        let m = flag(r, "mirroring")?;
        Layout::named(k, m)?;
        (k, m)
    } else {
        (1, false)
    };
    let factorise = version >= VERSION && flag(r, "factoriser")?;
    if factorise && king_buckets < 2 {
        return Err("a factoriser without king buckets".into());
    }
    let config = Config {
        data: files.iter().map(|f| f.path.clone()).collect(),
        hidden,
        activation,
        output_buckets,
        king_buckets,
        mirror,
        factorise,
        epochs: r.u32()?,
        batch: r.u64()? as usize,
        lr: r.f32()?,
        lr_drop_epoch: r.u32()?,
        lr_gamma: r.f32()?,
        wdl: r.f32()?,
        scale: r.f32()?,
        weight_decay: r.f32()?,
        validation: r.f64()?,
        seed: r.u64()?,
    };
    Ok((config, files))
}

impl Checkpoint {
    /// # Errors
    /// A data path that is not UTF-8.
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let mut w = Writer(Vec::new());
        write_config(&mut w, &self.config, &self.files)?;
        let s = &self.state;
        w.u32(s.epoch);
        w.u64(s.step);
        w.u64(s.rng);
        w.u32(s.history.len() as u32);
        for e in &s.history {
            w.u32(e.epoch);
            w.f32(e.lr);
            w.f64(e.train_loss);
            w.f64(e.validation_loss.unwrap_or(f64::NAN));
            w.f64(e.seconds);
            w.f64(e.train_seconds);
            w.u64(e.positions);
        }
        let net = &s.net;
        w.floats(&net.w1);
        w.floats(&net.b1);
        w.floats(&net.w2);
        w.floats(&net.b2);
        for m in [&s.m, &s.v] {
            w.floats(&m.w1);
            w.floats(&m.b1);
            w.floats(&m.w2);
            w.floats(&m.b2);
        }
        let payload = w.0;
        let mut out = Vec::with_capacity(HEADER + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&hash_bytes(&payload).to_le_bytes());
        out.resize(HEADER, 0);
        out.extend_from_slice(&payload);
        Ok(out)
    }

    /// # Errors
    /// Not a checkpoint, another version, or damaged.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err("not a cb2026 training checkpoint".into());
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u32()?;
        if !(PLAIN_VERSION..=VERSION).contains(&version) {
            return Err(format!(
                "checkpoint version {version}, expected {PLAIN_VERSION} to {VERSION}"
            ));
        }
        let hash = r.u64()?;
        let payload = &bytes[HEADER..];
        if hash != hash_bytes(payload) {
            return Err("checksum mismatch: the checkpoint is damaged".into());
        }
        let mut r = Reader {
            bytes: payload,
            at: 0,
        };
        let (config, files) = read_config(&mut r, version)?;
        let epoch = r.u32()?;
        let step = r.u64()?;
        let rng = r.u64()?;
        let n = r.u32()?;
        let mut history = Vec::new();
        for _ in 0..n {
            let epoch = r.u32()?;
            let lr = r.f32()?;
            let train_loss = r.f64()?;
            let validation = r.f64()?;
            history.push(EpochStats {
                epoch,
                lr,
                train_loss,
                validation_loss: (!validation.is_nan()).then_some(validation),
                seconds: r.f64()?,
                train_seconds: r.f64()?,
                positions: r.u64()?,
            });
        }
        let (h, buckets) = (config.hidden, config.output_buckets);
        let layout = config.layout();
        let rows = crate::float_network::rows(&layout, config.factorise);
        let net = FloatNetwork {
            hidden: h,
            activation: config.activation,
            layout,
            w1: r.floats(rows * h)?,
            factorised: config.factorise,
            b1: r.floats(h)?,
            buckets,
            w2: r.floats(buckets * 2 * h)?,
            b2: r.floats(buckets)?,
        };
        let mut moments = || -> Result<Moments, String> {
            Ok(Moments {
                w1: r.floats(rows * h)?,
                b1: r.floats(h)?,
                w2: r.floats(buckets * 2 * h)?,
                b2: r.floats(buckets)?,
            })
        };
        let m = moments()?;
        let v = moments()?;
        if r.at != payload.len() {
            return Err(format!(
                "{} bytes too many at the end",
                payload.len() - r.at
            ));
        }
        Ok(Checkpoint {
            config,
            files,
            state: State {
                net,
                m,
                v,
                epoch,
                step,
                rng,
                history,
            },
        })
    }

    /// Writes `dir/checkpoint.bin` atomically.
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        write_atomic(&dir.join(FILE_NAME), &self.to_bytes()?)
    }

    pub fn read(dir: &Path) -> Result<Checkpoint, String> {
        let path = dir.join(FILE_NAME);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Writes a file so that a reader (or a run killed halfway) sees the old file or the new one,
/// never a part: into a temporary file beside it, flushed, then renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let err = |e: std::io::Error| format!("{}: {e}", tmp.display());
    let mut file = std::fs::File::create(&tmp).map_err(err)?;
    file.write_all(bytes).map_err(err)?;
    file.sync_all().map_err(err)?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_survives_its_file_and_damage_is_refused() {
        let config = Config {
            data: vec![PathBuf::from("a.games")],
            hidden: 16,
            output_buckets: 8,
            king_buckets: 4,
            mirror: true,
            ..Config::default()
        };
        let mut state = State::new(&config);
        state.epoch = 3;
        state.step = 77;
        state.m.w1[5] = 0.25;
        state.history.push(EpochStats {
            epoch: 1,
            lr: 0.001,
            train_loss: 0.03,
            validation_loss: None,
            seconds: 1.5,
            train_seconds: 1.0,
            positions: 1000,
        });
        let c = Checkpoint {
            config,
            files: vec![FileUsed {
                path: PathBuf::from("a.games"),
                bytes: 4000,
                hash: 99,
            }],
            state,
        };
        let bytes = c.to_bytes().unwrap();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), c);
        let mut damaged = bytes.clone();
        damaged[HEADER + 100] ^= 4;
        assert!(
            Checkpoint::from_bytes(&damaged)
                .unwrap_err()
                .contains("damaged")
        );
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        assert!(Checkpoint::from_bytes(b"CB26NNUE").is_err());
    }

    /// A checkpoint of the version before king buckets (no layout in its configuration) is read
    /// as a plain run, one of the version before the factoriser as a run without it; a bad
    /// layout or flag in a current one is refused.
    #[test]
    fn an_older_checkpoint_reads_as_a_plain_run() {
        let config = Config {
            data: vec![PathBuf::from("a.games")],
            hidden: 16,
            ..Config::default()
        };
        let c = Checkpoint {
            state: State::new(&config),
            config,
            files: vec![FileUsed {
                path: PathBuf::from("a.games"),
                bytes: 64,
                hash: 5,
            }],
        };
        let bytes = c.to_bytes().unwrap();
        // The configuration's king buckets, mirroring and factoriser follow the output buckets:
        // after the file list (count, path "a.games", bytes, hash) and hidden, activation,
        // output buckets.
        let at = HEADER + 4 + (4 + 7) + 8 + 8 + 3 * 4;
        assert_eq!(&bytes[at..at + 12], &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let rehash = |mut b: Vec<u8>| {
            let h = hash_bytes(&b[HEADER..]);
            b[12..20].copy_from_slice(&h.to_le_bytes());
            b
        };
        for (version, dropped) in [(PLAIN_VERSION, 12), (UNFACTORISED_VERSION, 4)] {
            let mut old = bytes[..at + 12 - dropped].to_vec();
            old.extend_from_slice(&bytes[at + 12..]);
            old[8..12].copy_from_slice(&version.to_le_bytes());
            assert_eq!(Checkpoint::from_bytes(&rehash(old)).unwrap(), c);
        }
        for (offset, value, what) in [
            (0, 3, "king buckets"),
            (4, 2, "mirroring"),
            (8, 2, "factoriser"),
            (8, 1, "without king buckets"),
        ] {
            let mut bad = bytes.clone();
            bad[at + offset] = value;
            let e = Checkpoint::from_bytes(&rehash(bad)).unwrap_err();
            assert!(e.contains(what), "{e}");
        }
    }
}
