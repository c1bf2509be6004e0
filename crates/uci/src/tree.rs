//! `tree`: the search-tree explorer's command, the same in UCI mode and on the command line.
//!
//! ```text
//! tree [depth N] [fen FEN] [stage N|full] [off NAME,NAME...] [cap N]
//!      [out FILE.svg|FILE.html|FILE.json] [print svg|html|json]
//! ```
//!
//! Each keyword may also be written with two dashes (`cb2026 tree --depth 5 --off lmr`). The
//! position is the game's unless a FEN is given; the switches are the session's (`set NAME off`),
//! or stage N's with `stage` (the book's stages, `engine::stages`), with the `off` ones switched
//! off too. Without `out`, a text summary is printed; `print` writes the drawing itself to the
//! output instead of a file (the browser build has no files).

use chess::{CastlingMode, Position};
use engine::Techniques;
use engine::stages::Stage;
use engine::tools::tree::MAX_TREE_DEPTH;
use engine::tree::DEFAULT_CAP;

/// The depth when none is given: a tree small enough to read.
pub const DEFAULT_TREE_DEPTH: i32 = 5;

/// The file formats, by extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Html,
    Json,
}

impl Format {
    /// The format a file name's extension asks for.
    fn of_file(name: &str) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        let extension = lower.rsplit_once('.')?.1;
        Format::named(extension).or((extension == "htm").then_some(Format::Html))
    }

    /// The format called `name` (`svg`, `html` or `json`).
    fn named(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "svg" => Some(Format::Svg),
            "html" => Some(Format::Html),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

/// A parsed `tree` command.
pub struct TreeArgs {
    pub depth: i32,
    /// `None`: the game's position.
    pub position: Option<Position>,
    pub techniques: Techniques,
    pub cap: usize,
    pub out: Option<(String, Format)>,
    /// Write the drawing to the output, in this format.
    pub print: Option<Format>,
}

const KEYWORDS: [&str; 7] = ["depth", "fen", "stage", "off", "cap", "out", "print"];

fn keyword(word: &str) -> Option<&'static str> {
    let bare = word.strip_prefix("--").unwrap_or(word);
    KEYWORDS.iter().copied().find(|&k| k == bare)
}

/// Reads the arguments of `tree`; `techniques` are the session's switches.
pub fn parse(
    args: &[&str],
    techniques: &Techniques,
    mode: CastlingMode,
) -> Result<TreeArgs, String> {
    let usage = "usage: tree [depth N] [fen FEN] [stage N|full] [off NAME,...] [cap N] [out FILE.svg|.html|.json] [print svg|html|json]";
    let mut parsed = TreeArgs {
        depth: DEFAULT_TREE_DEPTH,
        position: None,
        techniques: techniques.clone(),
        cap: DEFAULT_CAP,
        out: None,
        print: None,
    };
    // Switched off after the loop, so that `off` comes after `stage` in whatever order written.
    let mut off = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let Some(key) = keyword(args[i]) else {
            return Err(format!("tree: unexpected '{}'; {usage}", args[i]));
        };
        // The words up to the next keyword are this keyword's value.
        let end = (i + 1..args.len())
            .find(|&j| keyword(args[j]).is_some())
            .unwrap_or(args.len());
        let value = args[i + 1..end].join(" ");
        if value.is_empty() {
            return Err(format!("tree: '{key}' needs a value; {usage}"));
        }
        match key {
            "depth" => {
                parsed.depth = value
                    .parse::<i32>()
                    .ok()
                    .filter(|d| (1..=MAX_TREE_DEPTH).contains(d))
                    .ok_or_else(|| {
                        format!("tree: depth '{value}' is not from 1 to {MAX_TREE_DEPTH}")
                    })?;
            }
            "fen" => {
                let pos = Position::from_fen_with(&value, mode)
                    .map_err(|e| format!("tree: bad FEN: {e}"))?;
                if !pos.has_legal_moves() {
                    return Err("tree: the position has no legal move".into());
                }
                parsed.position = Some(pos);
            }
            "stage" => {
                let stage = Stage::parse(&value).map_err(|e| format!("tree: {e}"))?;
                parsed.techniques = stage.techniques();
            }
            "off" => {
                off.extend(
                    value
                        .split([',', ' '])
                        .filter(|n| !n.is_empty())
                        .map(str::to_ascii_lowercase),
                );
            }
            "cap" => {
                parsed.cap = value
                    .parse::<usize>()
                    .ok()
                    .filter(|c| (1..=50_000_000).contains(c))
                    .ok_or_else(|| format!("tree: cap '{value}' is not from 1 to 50000000"))?;
            }
            "out" => {
                let format = Format::of_file(&value).ok_or_else(|| {
                    format!("tree: '{value}': the file name must end in .svg, .html or .json")
                })?;
                parsed.out = Some((value, format));
            }
            "print" => {
                let format = Format::named(&value).ok_or_else(|| {
                    format!("tree: print '{value}': the format is svg, html or json")
                })?;
                parsed.print = Some(format);
            }
            _ => unreachable!("every keyword is handled"),
        }
        i = end;
    }
    for name in &off {
        parsed
            .techniques
            .set(name, false)
            .map_err(|e| format!("tree: {e}"))?;
    }
    if parsed.out.is_some() && parsed.print.is_some() {
        return Err(format!(
            "tree: 'out' writes a file and 'print' the output: one of them; {usage}"
        ));
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_line(line: &str) -> Result<TreeArgs, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        parse(&words, &Techniques::default(), CastlingMode::Standard)
    }

    #[test]
    fn reads_every_keyword_with_or_without_dashes() {
        let a = parse_line(
            "--depth 4 fen 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1 --off lmr,futility out t.svg",
        )
        .expect("parses");
        assert_eq!(a.depth, 4);
        assert!(a.position.is_some());
        assert_eq!(a.techniques.get("lmr"), Some(false));
        assert_eq!(a.techniques.get("futility"), Some(false));
        assert_eq!(a.out, Some(("t.svg".to_string(), Format::Svg)));
        assert_eq!(a.print, None);
        // A stage's switches, with `off` on top whichever comes first.
        let a = parse_line("--off killers --stage 9 --depth 3").expect("parses");
        let mut nine = Techniques::for_stage(9).expect("a stage");
        nine.killers = false;
        assert_eq!(a.techniques, nine);
        let a = parse_line("depth 3 print html").expect("parses");
        assert_eq!((a.out, a.print), (None, Some(Format::Html)));
        let a = parse_line("out T.HTM").expect("parses");
        assert_eq!(a.out, Some(("T.HTM".to_string(), Format::Html)));
    }

    #[test]
    fn refuses_bad_input_with_a_message() {
        for bad in [
            "depth",
            "depth 0",
            "depth 99",
            "depth x",
            "fen not a fen",
            "off nosuchthing",
            "stage 5",
            "stage x",
            "stage",
            "out tree.png",
            "out svg",
            "print png",
            "print",
            "out t.svg print svg",
            "cap 0",
            "sideways",
            "fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1 depth 3",
        ] {
            assert!(parse_line(bad).is_err(), "{bad}");
        }
    }
}
