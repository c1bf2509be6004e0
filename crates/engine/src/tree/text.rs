//! The tree as plain text (`tree` without `--out`): a summary, then the principal variation one
//! node at a time with all of that node's children, so a terminal shows where the work went.
//! The short labels here are shared by the pictures.

use super::{Kind, Tree, TreeNode, Via};
use crate::score::{INFINITE, MATE, MATE_BOUND};

/// A score as the pictures write it: centipawns, `#3` / `#-3` for mates in moves, `inf`.
pub fn score_text(score: i32) -> String {
    if score >= INFINITE {
        "inf".to_string()
    } else if score <= -INFINITE {
        "-inf".to_string()
    } else if score >= MATE_BOUND {
        format!("#{}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("#-{}", (MATE + score) / 2)
    } else {
        score.to_string()
    }
}

/// The window, `(alpha, beta)`; a null window as `(alpha, +1)`.
pub fn window_text(node: &TreeNode) -> String {
    if node.beta == node.alpha + 1 {
        format!("({}, +1)", score_text(node.alpha))
    } else {
        format!("({}, {})", score_text(node.alpha), score_text(node.beta))
    }
}

/// How the node was searched, in a few characters: `d3`, `d2 r2`, `d4 ext+1`, `qs`, `pvs again`...
pub fn how_text(node: &TreeNode) -> String {
    let mut parts = Vec::new();
    match node.kind {
        Kind::Quiescence => parts.push("qs".to_string()),
        Kind::Pruned => {}
        _ => parts.push(format!("d{}", node.depth)),
    }
    match node.via {
        Via::Reduced(r) => parts.push(format!("r{r}")),
        Via::LmrResearch => parts.push("lmr again".to_string()),
        Via::PvsResearch => parts.push("pvs again".to_string()),
        Via::Verification => parts.push("verify".to_string()),
        Via::Singular => parts.push("singular".to_string()),
        Via::Razoring => parts.push("razor".to_string()),
        Via::ProbCutQs | Via::ProbCut => parts.push("probcut".to_string()),
        _ => {}
    }
    if node.extension > 0 {
        parts.push(format!("ext+{}", node.extension));
    } else if node.extension < 0 {
        parts.push(format!("ext{}", node.extension));
    }
    if node.iir {
        parts.push("iir".to_string());
    }
    parts.join(" ")
}

/// One line for record `i`.
pub fn line(tree: &Tree, i: u32) -> String {
    let node = &tree.nodes[i as usize];
    if node.kind == Kind::Pruned {
        return format!("{:<7} pruned: {}", tree.move_text(node), node.outcome.key());
    }
    format!(
        "{:<7} {:<5} {:<14} {:<16} -> {:>6}  {:<17} {:>8} nodes",
        tree.move_text(node),
        node.kind.name(),
        how_text(node),
        window_text(node),
        score_text(node.score),
        node.outcome.key(),
        tree.subtree[i as usize]
    )
}

/// The summary and the principal variation with its siblings.
pub fn to_text(tree: &Tree) -> String {
    let mut out = String::new();
    let pv: Vec<String> = tree.pv.iter().map(|m| m.to_uci(tree.chess960)).collect();
    out.push_str(&format!(
        "tree of {} at depth {}: score {}, pv {}\n",
        tree.fen,
        tree.depth,
        score_text(tree.score),
        pv.join(" ")
    ));
    let pruned = tree.nodes.len() as u64 - tree.node_count();
    out.push_str(&format!(
        "{} nodes recorded ({} counted by the search), {} root search(es), {} moves pruned\n",
        tree.node_count(),
        tree.counted_nodes(),
        tree.roots.len(),
        pruned
    ));
    if !tree.off.is_empty() {
        out.push_str(&format!("switched off: {}\n", tree.off.join(", ")));
    }
    if tree.dropped > 0 {
        out.push_str(&format!(
            "the cap of {} records was reached: {} more nodes were not recorded\n",
            tree.cap, tree.dropped
        ));
    }
    if tree.stopped {
        out.push_str("the search was stopped before the iteration ended\n");
    }
    let totals: Vec<String> = tree
        .outcome_totals()
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .map(|(o, n)| format!("{} {n}", o.key()))
        .collect();
    out.push_str(&format!("outcomes: {}\n", totals.join(", ")));
    let children = tree.children();
    let path = tree.pv_path(&children);
    for (step, &at) in path.iter().enumerate() {
        out.push_str(&format!("\nply {step}: {}\n", line(tree, at)));
        let next = path.get(step + 1).copied();
        for &c in &children[at as usize] {
            let mark = if Some(c) == next { "*" } else { " " };
            out.push_str(&format!("  {mark} {}\n", line(tree, c)));
        }
    }
    out
}
