//! `genfens N seed S book <None|FILE> [plies K] [maxscore CP] [nodes N]`: openings for an
//! OpenBench DATAGEN workload. OpenBench's worker runs
//! `cb2026 "genfens N seed S book <None|FILE> EXTRA" quit` once per thread, reads each opening
//! from a line `info string genfens FEN`, and gives up on an engine that stays silent for 15
//! seconds; then fastchess plays ordinary games from them. The openings are made by
//! [`engine::openings::generate`]: a book line (or the initial position) and 8 or 9 random plies
//! by default, refused when decided at a short search or already given; the same arguments give
//! the same openings. EXTRA is free text in OpenBench's test form: our words `plies`, `maxscore`
//! and `nodes` there change the random plies, the score beyond which an opening counts as
//! decided, and the nodes of the short search.

use chess::{CastlingMode, Position};
use engine::openings::{self, OpeningSettings};
use std::path::PathBuf;

/// The most openings one call makes: a DATAGEN workload asks each thread for some thousands.
pub const MAX_OPENINGS: usize = 10_000_000;

/// The most random plies asked for: beyond some tens, an opening is a random middlegame.
pub const MAX_RANDOM_PLIES: usize = 64;

/// The largest short search, in nodes.
pub const MAX_NODES: u64 = 10_000_000;

/// The nodes of the short search that judges an opening, unless `nodes` says otherwise: as many
/// as a move of our own datagen.
pub const DEFAULT_NODES: u64 = 5_000;

/// A `genfens` command, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genfens {
    pub count: usize,
    pub seed: u64,
    /// `None`: from the initial position.
    pub book: Option<PathBuf>,
    pub settings: OpeningSettings,
    /// Nodes of the short search that judges each opening.
    pub nodes: u64,
}

/// A word of the input, cut short for an error message.
fn clip(word: &str) -> String {
    word.chars().take(40).collect()
}

fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    word: &str,
    value: Option<&&str>,
    max: T,
) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("genfens: {word} needs a number"))?;
    match value.parse::<T>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!(
            "genfens: {word} must be a number up to {max}, not {}",
            clip(value)
        )),
    }
}

/// Reads the words after `genfens`.
pub fn parse(args: &[&str]) -> Result<Genfens, String> {
    let usage = "usage: genfens N seed S book <None|FILE> [plies K] [maxscore CP] [nodes N]";
    let count =
        number("the count", args.first(), MAX_OPENINGS).map_err(|e| format!("{e}; {usage}"))?;
    let mut request = Genfens {
        count,
        seed: 0,
        book: None,
        settings: OpeningSettings::default(),
        nodes: DEFAULT_NODES,
    };
    let mut seen_seed = false;
    let mut words = args.iter().skip(1);
    while let Some(&word) = words.next() {
        let value = words.next();
        match word {
            "seed" => {
                request.seed = number("seed", value, u64::MAX)?;
                seen_seed = true;
            }
            "book" => {
                let file =
                    value.ok_or_else(|| format!("genfens: book needs a file or None; {usage}"))?;
                request.book = (!file.eq_ignore_ascii_case("none")).then(|| PathBuf::from(file));
            }
            "plies" => request.settings.random_plies = number("plies", value, MAX_RANDOM_PLIES)?,
            "maxscore" => request.settings.max_score = number("maxscore", value, 30_000)?,
            "nodes" => request.nodes = number("nodes", value, MAX_NODES)?.max(1),
            _ => return Err(format!("genfens: unknown word {}; {usage}", clip(word))),
        }
    }
    if !seen_seed {
        return Err(format!("genfens: no seed; {usage}"));
    }
    Ok(request)
}

/// Makes the openings and prints each as `info string genfens FEN` through `say`. `score` is a
/// short search's score of a position (side to move's view) at `request.nodes` nodes, `None`
/// once told to stop.
///
/// # Errors
/// The book can't be read, or too few openings pass the filters.
pub fn run(
    request: &Genfens,
    mode: CastlingMode,
    score: impl FnMut(&Position) -> Option<i32>,
    mut say: impl FnMut(String),
) -> Result<(), String> {
    let book = match &request.book {
        Some(path) => openings::read_book(path, mode)?,
        None => Vec::new(),
    };
    openings::generate(
        &book,
        &request.settings,
        request.count,
        request.seed,
        score,
        |pos| say(format!("info string genfens {}", pos.to_fen())),
    )
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openbench_s_command_reads() {
        let request = parse(&["10", "seed", "42", "book", "None"]).unwrap();
        assert_eq!((request.count, request.seed, request.book), (10, 42, None));
        let request = parse(&[
            "3",
            "seed",
            "1",
            "book",
            "Books/x.epd",
            "plies",
            "6",
            "nodes",
            "1000",
        ])
        .unwrap();
        assert_eq!(request.book, Some(PathBuf::from("Books/x.epd")));
        assert_eq!((request.settings.random_plies, request.nodes), (6, 1000));
        for bad in [
            &["x", "seed", "1"][..],
            &["3", "book", "None"],
            &["3", "seed", "-1"],
            &["3", "seed", "1", "plies", "1000"],
            &["3", "seed", "1", "colour", "blue"],
            &["99999999999", "seed", "1"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn openings_are_printed_as_openbench_reads_them() {
        let request = parse(&["5", "seed", "7", "book", "None"]).unwrap();
        let mut lines = Vec::new();
        run(
            &request,
            CastlingMode::Standard,
            |_| Some(0),
            |l| lines.push(l),
        )
        .unwrap();
        assert_eq!(lines.len(), 5);
        for line in &lines {
            let fen = line.strip_prefix("info string genfens ").unwrap();
            // Six fields: OpenBench turns the last two into `hmvc` and `fmvn`.
            assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
            Position::from_fen(fen).unwrap();
        }
    }
}
