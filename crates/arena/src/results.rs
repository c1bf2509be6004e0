//! The running tally of a match: results from engine 0's side per pairing, game pairs, faults,
//! time losses and arena's overhead.

use crate::game::{FaultKind, GameRecord, GameResult, Overhead, Termination};
use crate::sprt::Verdict;
use chess::Color;
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// Results of engine 0 against one opponent.
#[derive(Clone, Debug, Default)]
pub struct PairingResults {
    /// Losses, draws, wins.
    pub ldw: [u64; 3],
    /// Game pairs scoring 0, 0.5, 1, 1.5, 2 points: LL, LD, DD+WL, WD, WW.
    pub pentanomial: [u64; 5],
    /// Score of the first finished game of each pair whose other game is still being played.
    /// Entries leave when the pair completes, so this stays as small as the concurrency.
    pending: HashMap<u64, f64>,
}

impl PairingResults {
    pub fn games(&self) -> u64 {
        self.ldw.iter().sum()
    }

    fn add(&mut self, pair: u64, score: f64) {
        self.ldw[(score * 2.0) as usize] += 1;
        if let Some(first) = self.pending.remove(&pair) {
            self.pentanomial[((first + score) * 2.0) as usize] += 1;
        } else {
            self.pending.insert(pair, score);
        }
    }
}

// ANCHOR: prior
impl PairingResults {
    /// `--prior wdl=W/D/L pentanomial=LL,LD,DD+WL,WD,WW`: the counts of an earlier stretch of
    /// the same test whose PGN is not at hand (a machine lost with its files). The SPRT and the
    /// estimates depend on the counts alone, not on the order of the games, so adding them
    /// continues that test. The two must agree: two games a pair, and the same points.
    pub fn parse_prior(words: &[(String, String)]) -> Result<PairingResults, String> {
        fn numbers<const N: usize>(value: &str, sep: char, what: &str) -> Result<[u64; N], String> {
            let parsed: Result<Vec<u64>, _> = value.split(sep).map(|n| n.trim().parse()).collect();
            parsed
                .ok()
                .and_then(|v| <[u64; N]>::try_from(v).ok())
                .ok_or_else(|| format!("--prior {what}: expected {N} counts, found '{value}'"))
        }
        let (mut wdl, mut pentanomial) = (None, None);
        for (key, value) in words {
            match key.as_str() {
                "wdl" => wdl = Some(numbers::<3>(value, '/', "wdl")?),
                "pentanomial" => pentanomial = Some(numbers::<5>(value, ',', "pentanomial")?),
                _ => return Err(format!("--prior: unknown setting '{key}'")),
            }
        }
        let (Some([w, d, l]), Some(pentanomial)) = (wdl, pentanomial) else {
            return Err("--prior needs wdl=W/D/L and pentanomial=LL,LD,DD+WL,WD,WW".to_string());
        };
        let pairs: u64 = pentanomial.iter().sum();
        // In half points: a pair scores 0..=4 of them.
        let half_points: u64 = pentanomial.iter().zip(0..).map(|(n, k)| n * k).sum();
        if 2 * pairs != w + d + l || half_points != 2 * w + d {
            return Err(format!(
                "--prior: {w}/{d}/{l} and the pentanomial {pentanomial:?} disagree ({} games \
                 and {} points against {} and {})",
                w + d + l,
                w as f64 + d as f64 / 2.0,
                2 * pairs,
                half_points as f64 / 2.0
            ));
        }
        Ok(PairingResults {
            ldw: [l, d, w],
            pentanomial,
            pending: HashMap::new(),
        })
    }

    /// Adds another tally's finished games and pairs.
    pub fn merge(&mut self, other: &PairingResults) {
        for (count, add) in self.ldw.iter_mut().zip(other.ldw) {
            *count += add;
        }
        for (count, add) in self.pentanomial.iter_mut().zip(other.pentanomial) {
            *count += add;
        }
    }
}
// ANCHOR_END: prior

#[derive(Clone, Debug)]
pub struct Results {
    pub pairings: Vec<PairingResults>,
    /// Per engine, per kind of fault.
    pub faults: Vec<BTreeMap<FaultKind, u64>>,
    pub time_losses: Vec<u64>,
    /// How games ended, by the words of the PGN's final comment without the side.
    pub endings: BTreeMap<&'static str, u64>,
    pub overhead: Overhead,
}

// ANCHOR: add
impl Results {
    pub fn new(engines: usize) -> Results {
        Results {
            pairings: vec![PairingResults::default(); engines.saturating_sub(1).max(1)],
            faults: vec![BTreeMap::new(); engines],
            time_losses: vec![0; engines],
            endings: BTreeMap::new(),
            overhead: Overhead::default(),
        }
    }

    /// Counts a finished game; an unfinished one is ignored.
    pub fn add(&mut self, record: &GameRecord) {
        if record.result == GameResult::Unfinished {
            return;
        }
        let job = record.job;
        let engine_of = |color: Color| match color {
            Color::White => job.white,
            Color::Black => job.black,
        };
        let first_color = if job.white == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Some(pairing) = self.pairings.get_mut(job.pairing) {
            pairing.add(job.pair, record.result.score_for(first_color));
        }
        match &record.termination {
            Termination::Fault { side, kind, .. } => {
                if let Some(faults) = self.faults.get_mut(engine_of(*side)) {
                    *faults.entry(*kind).or_default() += 1;
                }
            }
            Termination::TimeForfeit(side) => {
                if let Some(losses) = self.time_losses.get_mut(engine_of(*side)) {
                    *losses += 1;
                }
            }
            _ => {}
        }
        *self.endings.entry(ending(&record.termination)).or_default() += 1;
        self.overhead.merge(&record.overhead);
    }
    // ANCHOR_END: add

    pub fn games(&self) -> u64 {
        self.pairings.iter().map(PairingResults::games).sum()
    }

    /// Engine 0's results against everyone together.
    pub fn total(&self) -> PairingResults {
        let mut total = PairingResults::default();
        for p in &self.pairings {
            total.merge(p);
        }
        total
    }

    pub fn fault_count(&self) -> u64 {
        self.faults.iter().flat_map(|f| f.values()).sum()
    }

    pub fn time_loss_count(&self) -> u64 {
        self.time_losses.iter().sum()
    }
}

fn ending(termination: &Termination) -> &'static str {
    match termination {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::Repetition => "3-fold repetition",
        Termination::FiftyMoves => "fifty moves",
        Termination::InsufficientMaterial => "insufficient material",
        Termination::Resign(_) => "resign adjudication",
        Termination::AdjudicatedDraw => "draw adjudication",
        Termination::MaxMoves => "maximum length",
        Termination::TimeForfeit(_) => "time forfeit",
        Termination::Fault { kind, .. } => kind.label(),
        Termination::Interrupted => "interrupted",
    }
}

/// Why the match ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StopReason {
    AllGamesPlayed,
    Sprt(Verdict),
    MaxFaults,
    Interrupted,
}

pub struct Outcome {
    pub results: Results,
    pub stop: StopReason,
    pub llr: Option<f64>,
    pub elapsed: Duration,
    pub openings: usize,
    /// Games read back from the PGN by `--resume` (counted in `results`, not played now).
    pub resumed: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_complete_in_any_order() {
        let mut p = PairingResults::default();
        p.add(0, 1.0);
        p.add(1, 0.5);
        p.add(1, 0.5); // DD
        p.add(0, 0.0); // WL
        p.add(2, 1.0);
        assert_eq!(p.ldw, [1, 2, 2]);
        assert_eq!(p.pentanomial, [0, 0, 2, 0, 0]);
        assert_eq!(p.pending.len(), 1);
        p.add(2, 1.0);
        assert_eq!(p.pentanomial, [0, 0, 2, 0, 1]);
        assert!(p.pending.is_empty());
    }

    fn words(text: &str) -> Vec<(String, String)> {
        text.split_whitespace()
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn prior_is_checked_and_added() {
        let prior =
            PairingResults::parse_prior(&words("wdl=146/427/127 pentanomial=15,72,158,89,16"))
                .unwrap();
        assert_eq!(prior.ldw, [127, 427, 146]);
        assert_eq!(prior.games(), 700);
        let mut results = Results::new(2);
        results.pairings[0].merge(&prior);
        results.pairings[0].add(0, 1.0);
        results.pairings[0].add(0, 0.5);
        assert_eq!(results.games(), 702);
        assert_eq!(results.total().ldw, [127, 428, 147]);
        assert_eq!(results.total().pentanomial, [15, 72, 158, 90, 16]);
        // One game too many, the points off by one, a count missing, a word misspelt.
        for bad in [
            "wdl=147/427/127 pentanomial=15,72,158,89,16",
            "wdl=146/427/127 pentanomial=15,72,158,90,15",
            "wdl=146/427 pentanomial=15,72,158,89,16",
            "wdl=146/427/127",
            "wdl=146/427/127 penta=15,72,158,89,16",
        ] {
            assert!(PairingResults::parse_prior(&words(bad)).is_err(), "{bad}");
        }
    }
}
