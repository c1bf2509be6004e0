//! An optional record of every line sent to and read from the engines (`--log FILE`), for finding
//! out what an engine did before it was judged at fault.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

#[derive(Clone)]
pub struct UciLog {
    out: Arc<Mutex<BufWriter<File>>>,
    start: Instant,
}

impl UciLog {
    pub fn create(path: &Path) -> Result<UciLog, String> {
        let file =
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(UciLog {
            out: Arc::new(Mutex::new(BufWriter::new(file))),
            start: Instant::now(),
        })
    }

    /// `direction` is `>` for a line sent to the engine, `<` for one read from it, `!` for what
    /// arena concluded.
    pub fn line(&self, engine: &str, direction: char, text: &str) {
        let elapsed = self.start.elapsed().as_secs_f64();
        // A poisoned lock only means another thread panicked mid-write; the log is best effort.
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{elapsed:10.4} {engine} {direction} {text}");
        }
    }

    pub fn flush(&self) {
        if let Ok(mut out) = self.out.lock() {
            let _ = out.flush();
        }
    }
}
