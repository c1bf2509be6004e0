//! The session's settings: `setoption` and `set`, and the options that load something (a network,
//! the tablebases) or touch the hash table.

use super::Session;
use crate::options;
use crate::output::{self, error, say};
use engine::TranspositionTable;
use engine::eval::nnue::{self, Network};
use engine::stages::Stage;
use engine::strength;
use engine::tablebase::{Probing, Tablebases};
use engine::techniques::parse_switch;
use std::sync::Arc;

/// A net file's bytes. Only a regular file is read (a pipe or a device such as `/dev/zero` could
/// block or never end), and no more than the largest network's size.
fn read_net_file(path: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    use nnue::inputs::MAX_KING_BUCKETS;
    use nnue::network::{MAX_DESCRIPTION, MAX_HIDDEN, MAX_OUTPUT_BUCKETS, file_size};
    let limit = file_size(
        MAX_HIDDEN,
        MAX_KING_BUCKETS,
        MAX_OUTPUT_BUCKETS,
        MAX_DESCRIPTION,
    ) as u64;
    if meta.len() > limit {
        return Err(format!("{} bytes, larger than any network", meta.len()));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}

impl Session {
    /// `setoption name NAME value VALUE`: names in any case; on an error nothing changes.
    pub(super) fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "hash" => {
                let mib =
                    options::parse_spin(name, value, 1, options::MAX_HASH_MIB as i64)? as usize;
                if mib != self.options.hash_mib {
                    let tt = Arc::new(TranspositionTable::try_new(mib)?);
                    self.pool.set_tt(tt);
                    self.options.hash_mib = mib;
                }
            }
            "threads" => {
                let threads =
                    options::parse_spin(name, value, 1, options::MAX_THREADS as i64)? as usize;
                self.pool.set_threads(threads)?;
                self.options.threads = threads;
            }
            "multipv" => {
                self.options.multipv =
                    options::parse_spin(name, value, 1, options::MAX_MULTIPV as i64)? as usize;
            }
            "move overhead" => {
                self.options.move_overhead =
                    options::parse_spin(name, value, 0, options::MAX_MOVE_OVERHEAD as i64)? as u64;
            }
            "ponder" => self.options.ponder = options::parse_check(name, value)?,
            "uci_chess960" => self.options.chess960 = options::parse_check(name, value)?,
            "uci_showwdl" => self.options.show_wdl = options::parse_check(name, value)?,
            "clear hash" => self.clear_hash(),
            "evalfile" => self.load_net(value)?,
            "syzygypath" => self.load_tablebases(value)?,
            "syzygyprobedepth" => {
                self.options.syzygy_probe_depth =
                    options::parse_spin(name, value, 1, options::MAX_PROBE_DEPTH)? as i32;
            }
            "syzygyprobelimit" => {
                self.options.syzygy_probe_limit =
                    options::parse_spin(name, value, 0, options::MAX_PROBE_LIMIT)? as usize;
            }
            "uci_limitstrength" => {
                self.options.limit_strength = options::parse_check(name, value)?;
            }
            "uci_elo" => {
                self.options.elo = options::parse_spin(
                    name,
                    value,
                    strength::MIN_ELO as i64,
                    strength::MAX_ELO as i64,
                )? as i32;
            }
            "syzygy50moverule" => {
                self.options.syzygy_50_move_rule = options::parse_check(name, value)?
            }
            "stage" => {
                let stage = Stage::parse(value).map_err(|e| format!("option {name}: {e}"))?;
                self.set_stage(stage);
            }
            _ => {
                // ANCHOR: setoption_switches
                // Technique and parameter names are lower case; like the others, any case goes.
                if self.techniques.get(&lower).is_some() {
                    let on = options::parse_check(name, value)?;
                    self.techniques.set(&lower, on)?;
                } else if self.params.get(&lower).is_some() {
                    let v =
                        options::parse_spin(name, value, i32::MIN as i64, i32::MAX as i64)? as i32;
                    self.params.set(&lower, v)?;
                } else {
                    return Err(format!("unknown option '{name}'"));
                }
                // ANCHOR_END: setoption_switches
            }
        }
        Ok(())
    }

    // ANCHOR: set_command
    /// `set NAME on|off` for a technique, `set NAME VALUE` for a parameter, `set stage N` for a
    /// stage's switches (`name` in lower case, as `setoption` reads names in any case).
    pub(super) fn set(&mut self, name: &str, value: &str) {
        if name == "stage" {
            match Stage::parse(value) {
                Ok(stage) => {
                    self.set_stage(stage);
                    say!("{}", output::stage_line(stage));
                }
                Err(e) => error(format!("set {e}")),
            }
            return;
        }
        let result = if self.techniques.get(name).is_some() {
            match parse_switch(value) {
                Some(on) => self.techniques.set(name, on),
                None => Err(format!("set {name}: expected on or off, not '{value}'")),
            }
        } else if self.params.get(name).is_some() {
            value
                .parse::<i32>()
                .map_err(|_| format!("set {name}: '{value}' is not a whole number"))
                .and_then(|v| self.params.set(name, v))
        } else {
            Err(format!("set: no technique or parameter called '{name}'"))
        };
        match result {
            Ok(()) => say!("{}", output::setting_line(name, value)),
            Err(e) => error(e),
        }
    }
    // ANCHOR_END: set_command

    /// `Stage`: every switch as the book had it at that stage (see `engine::stages`), or the
    /// defaults for `full`; switches set after it apply on top. The parameters stay as they are:
    /// a stage is a set of techniques, not of their margins.
    fn set_stage(&mut self, stage: Stage) {
        self.techniques = stage.techniques();
    }

    /// `ucinewgame` and `Clear Hash`: the table emptied in place by every search thread's share
    /// of the cores (see `TranspositionTable::clear_on_threads`).
    pub(super) fn clear_hash(&mut self) {
        self.pool.tt().clear_on_threads(self.options.threads);
    }

    /// Reads a network for `EvalFile`: on any error the current one stays.
    fn load_net(&mut self, value: &str) -> Result<(), String> {
        let value = value.trim();
        let net = if value.is_empty() || value == options::EMBEDDED_NET_NAME {
            nnue::embedded()
        } else {
            let bytes = read_net_file(value).map_err(|e| format!("EvalFile {value}: {e}"))?;
            let net = Network::from_bytes(&bytes).map_err(|e| format!("EvalFile {value}: {e}"))?;
            Arc::new(net)
        };
        let shown = if value.is_empty() {
            options::EMBEDDED_NET_NAME
        } else {
            value
        };
        output::text(&output::network_loaded(shown, &net));
        self.net = net.clone();
        self.options.eval_file = value.to_string();
        self.pool.set_network(net);
        Ok(())
    }

    // ANCHOR: syzygy_path
    /// Reads the tables of `SyzygyPath`'s folders. Tables found are reported and used, with a line
    /// for each folder or file that could not be read; with none found, the tables in use stay.
    fn load_tablebases(&mut self, value: &str) -> Result<(), String> {
        let value = value.trim();
        if value.is_empty() || value == options::NO_SYZYGY_PATH {
            self.tablebases = None;
            self.options.syzygy_path.clear();
            return Ok(());
        }
        let loaded = Tablebases::open(value).map_err(|e| format!("SyzygyPath: {e}"))?;
        for problem in &loaded.problems {
            error(format!("SyzygyPath: {problem}"));
        }
        let tables = loaded.tablebases;
        say!(
            "{}",
            output::tablebases_found(tables.files(), tables.max_pieces())
        );
        self.tablebases = Some(Arc::new(tables));
        self.options.syzygy_path = value.to_string();
        Ok(())
    }
    // ANCHOR_END: syzygy_path

    /// The tables and the Syzygy options, for a search.
    pub(super) fn probing(&self) -> Option<Probing> {
        let tables = self.tablebases.clone()?;
        Some(Probing {
            tables,
            depth: self.options.syzygy_probe_depth,
            limit: self.options.syzygy_probe_limit,
            fifty_move_rule: self.options.syzygy_50_move_rule,
        })
    }
}
