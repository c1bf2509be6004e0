//! The tree as JSON (`tree --out FILE.json`), written by hand: the format is small and flat, and
//! the engine crate needs no serialisation library for it.
//!
//! The format (version 1), one object:
//!
//! ```text
//! {
//!   "format": "cb2026-tree", "version": 1,
//!   "fen": "...",            the position searched
//!   "depth": 5,              the iteration recorded (the last one)
//!   "score": 35,             the search's score, centipawns for the side to move
//!                            (mates: 32000 - plies, negative when being mated)
//!   "best_move": "e2e4",     UCI notation; null without a legal move
//!   "pv": ["e2e4", ...],
//!   "off": ["lmr"],          techniques switched off
//!   "cap": 2000000,          the most records kept
//!   "dropped": 0,            nodes searched but not recorded, past the cap
//!   "stopped": false,        the search was stopped before the iteration ended
//!   "counters": {"Nodes": 1234, "QNodes": 567, ...}
//!                            every counter of `stats`, for this iteration only
//!   "outcomes": {"beta-cutoff": 321, ...}
//!                            records per outcome (every outcome is listed)
//!   "roots": [0, 1500],      the root searches (aspiration windows), the last one final
//!   "nodes": [ {...}, ... ]  the records, in the order the search entered them
//! }
//! ```
//!
//! Each record:
//!
//! ```text
//! {"id": 7, "parent": 3,     index in "nodes"; the parent's (null for a root search)
//!  "move": "g1f3",           the move from the parent; null for a root, a null move or a
//!                            second look at the parent's own position
//!  "kind": "nonpv",          root | pv | nonpv | qs | pruned (a move not searched: no node)
//!  "via": "reduced",         how the parent searched it: root | full | null-window | reduced |
//!                            lmr-research | pvs-research | null-move | verification | singular |
//!                            razoring | probcut-qs | probcut | pruned
//!  "reduction": 2,           plies of late move reduction (via "reduced"), else 0
//!  "extension": 0,           plies the move was extended by (negative: shortened)
//!  "iir": false,             internal iterative reduction took a ply off this node
//!  "ply": 2, "depth": 3,     depth as asked (0 in the quiescence search)
//!  "alpha": -20, "beta": -19, "score": -45,
//!                            window and result, from the side to move at this node
//!  "outcome": "beta-cutoff", what decided it (the list is in the book's chapter)
//!  "searched": 4,            searches it started (its records that are not pruned moves)
//!  "subtree": 57}            nodes in its subtree, itself included
//! ```
//!
//! Every record of kind root, pv, nonpv or qs is one node the search counted, so their number is
//! `counters.Nodes + counters.QNodes` (less `dropped`), and each outcome that has a counter
//! (`reverse-futility` and `ReverseFutility`, ...) has as many records as that counter.

use super::{NO_PARENT, Tree};
use crate::counters::Note;

/// A JSON string literal.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The whole tree in the format above, as a string (for tests and small trees).
pub fn to_json(tree: &Tree) -> String {
    let mut bytes = Vec::new();
    // Writing into memory can't fail.
    let _ = write_json(tree, &mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Writes the tree in the format above to `sink` a piece at a time: at the cap, the text runs to
/// hundreds of megabytes, which need not all be in memory at once.
pub fn write_json(tree: &Tree, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut out = String::with_capacity(1 << 17);
    let moves = |list: &[chess::Move]| -> String {
        let items: Vec<String> = list
            .iter()
            .map(|m| quote(&m.to_uci(tree.chess960)))
            .collect();
        format!("[{}]", items.join(", "))
    };
    out.push_str("{\n");
    out.push_str("  \"format\": \"cb2026-tree\",\n  \"version\": 1,\n");
    out.push_str(&format!("  \"fen\": {},\n", quote(&tree.fen)));
    out.push_str(&format!("  \"depth\": {},\n", tree.depth));
    out.push_str(&format!("  \"score\": {},\n", tree.score));
    let best = tree
        .best_move
        .map_or("null".to_string(), |m| quote(&m.to_uci(tree.chess960)));
    out.push_str(&format!("  \"best_move\": {best},\n"));
    out.push_str(&format!("  \"pv\": {},\n", moves(&tree.pv)));
    let off: Vec<String> = tree.off.iter().map(|n| quote(n)).collect();
    out.push_str(&format!("  \"off\": [{}],\n", off.join(", ")));
    out.push_str(&format!("  \"cap\": {},\n", tree.cap));
    out.push_str(&format!("  \"dropped\": {},\n", tree.dropped));
    out.push_str(&format!("  \"stopped\": {},\n", tree.stopped));
    let counters: Vec<String> = Note::ALL
        .iter()
        .map(|&n| format!("{}: {}", quote(n.name()), tree.counters.get(n)))
        .collect();
    out.push_str(&format!("  \"counters\": {{{}}},\n", counters.join(", ")));
    let outcomes: Vec<String> = tree
        .outcome_totals()
        .iter()
        .map(|(o, n)| format!("{}: {n}", quote(o.key())))
        .collect();
    out.push_str(&format!("  \"outcomes\": {{{}}},\n", outcomes.join(", ")));
    let roots: Vec<String> = tree.roots.iter().map(|r| r.to_string()).collect();
    out.push_str(&format!("  \"roots\": [{}],\n", roots.join(", ")));
    out.push_str("  \"nodes\": [\n");
    for (i, node) in tree.nodes.iter().enumerate() {
        let parent = if node.parent == NO_PARENT {
            "null".to_string()
        } else {
            node.parent.to_string()
        };
        let mv = node
            .mv
            .map_or("null".to_string(), |m| quote(&m.to_uci(tree.chess960)));
        out.push_str(&format!(
            "    {{\"id\": {i}, \"parent\": {parent}, \"move\": {mv}, \"kind\": \"{}\", \"via\": \"{}\", \"reduction\": {}, \"extension\": {}, \"iir\": {}, \"ply\": {}, \"depth\": {}, \"alpha\": {}, \"beta\": {}, \"score\": {}, \"outcome\": \"{}\", \"searched\": {}, \"subtree\": {}}}",
            node.kind.name(),
            node.via.name(),
            node.via.reduction(),
            node.extension,
            node.iir,
            node.ply,
            node.depth,
            node.alpha,
            node.beta,
            node.score,
            node.outcome.key(),
            node.searched,
            tree.subtree[i],
        ));
        if out.len() >= 1 << 16 {
            sink.write_all(out.as_bytes())?;
            out.clear();
        }
        out.push_str(if i + 1 < tree.nodes.len() {
            ",\n"
        } else {
            "\n"
        });
    }
    out.push_str("  ]\n}\n");
    sink.write_all(out.as_bytes())
}
