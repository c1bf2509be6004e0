//! The tree as an SVG picture (`tree --out FILE.svg`): the principal variation drawn left to
//! right, one column per ply, and in each column every move the PV node before it searched, as a
//! box coloured by what decided it, with the size of its subtree. Only the PV is opened: every
//! other box stands for its whole subtree (the HTML form opens them all). A column with many
//! moves shows the first ones and folds the rest into one box; the moves not searched at all are
//! folded into one box per column, with their reasons.

use super::text::{how_text, score_text, window_text};
use super::{Kind, Outcome, Tree};
use std::collections::BTreeMap;
use std::fmt::Write;

const BOX_W: i32 = 200;
const BOX_H: i32 = 41;
const GAP_X: i32 = 36;
const GAP_Y: i32 = 6;
const TOP: i32 = 78;
const LEFT: i32 = 12;
/// Boxes per column before the rest is folded into one.
const MAX_ROWS: usize = 16;

/// Escapes text for SVG.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// What one box of a column shows.
enum Cell {
    /// One record (and its subtree).
    Node(u32),
    /// Several searched moves folded together: how many, and their nodes.
    Folded(usize, u64),
    /// The moves not searched: count per reason.
    Pruned(BTreeMap<&'static str, usize>),
}

/// The boxes of one column: the children of a PV node, the next PV node always among them.
fn column(tree: &Tree, children: &[u32], next: Option<u32>) -> Vec<Cell> {
    let searched: Vec<u32> = children
        .iter()
        .copied()
        .filter(|&c| tree.nodes[c as usize].kind != Kind::Pruned)
        .collect();
    let mut pruned: BTreeMap<&'static str, usize> = BTreeMap::new();
    for &c in children {
        let node = &tree.nodes[c as usize];
        if node.kind == Kind::Pruned {
            *pruned.entry(node.outcome.key()).or_default() += 1;
        }
    }
    let room = if pruned.is_empty() {
        MAX_ROWS
    } else {
        MAX_ROWS - 1
    };
    let mut cells = Vec::new();
    if searched.len() <= room {
        cells.extend(searched.iter().map(|&c| Cell::Node(c)));
    } else {
        // The first moves in search order, and the PV's move if it came later.
        let shown: Vec<u32> = searched
            .iter()
            .copied()
            .enumerate()
            .filter(|&(k, c)| k < room - 2 || Some(c) == next)
            .map(|(_, c)| c)
            .collect();
        let hidden: Vec<u32> = searched
            .iter()
            .copied()
            .filter(|c| !shown.contains(c))
            .collect();
        let nodes = hidden.iter().map(|&c| tree.subtree[c as usize]).sum();
        cells.extend(shown.iter().map(|&c| Cell::Node(c)));
        cells.push(Cell::Folded(hidden.len(), nodes));
    }
    if !pruned.is_empty() {
        cells.push(Cell::Pruned(pruned));
    }
    cells
}

/// A strip along the bottom of a box: what decided the records of its subtree, in proportion.
fn composition_bar(svg: &mut String, tree: &Tree, i: u32, span: usize, x: i32, y: i32) {
    let records = &tree.nodes[i as usize..i as usize + span];
    let width = (BOX_W - 10) as f64;
    let mut left = (x + 5) as f64;
    for &outcome in Outcome::ALL {
        let count = records.iter().filter(|n| n.outcome == outcome).count();
        if count == 0 {
            continue;
        }
        let w = width * count as f64 / span as f64;
        let _ = writeln!(
            svg,
            "<rect x=\"{left:.1}\" y=\"{}\" width=\"{w:.1}\" height=\"4\" fill=\"{}\"/>",
            y + BOX_H - 8,
            outcome.colour()
        );
        left += w;
    }
    let _ = writeln!(
        svg,
        "<rect x=\"{}\" y=\"{}\" width=\"{width}\" height=\"4\" fill=\"none\" stroke=\"#555\" stroke-width=\"0.4\"/>",
        x + 5,
        y + BOX_H - 8
    );
}

/// One record's box at (`x`, `y`); below a folded subtree, its composition.
fn node_box(svg: &mut String, tree: &Tree, spans: &[usize], i: u32, x: i32, y: i32, on_pv: bool) {
    let node = &tree.nodes[i as usize];
    let stroke = if on_pv {
        "stroke=\"#111\" stroke-width=\"2.5\""
    } else {
        "stroke=\"#666\" stroke-width=\"0.8\""
    };
    let _ = writeln!(
        svg,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"4\" fill=\"{}\" {stroke}/>",
        node.outcome.colour()
    );
    // The title and the outcome share the first line: clip the title to the room left (bold
    // 11-pixel text is about 7 pixels a character).
    let mut title = format!("{}  {}", tree.move_text(node), how_text(node));
    let room = ((BOX_W - 14) as usize / 7).saturating_sub(node.outcome.key().len());
    if title.chars().count() > room {
        title = title
            .chars()
            .take(room.saturating_sub(1))
            .collect::<String>()
            + "\u{2026}";
    }
    let nodes = tree.subtree[i as usize];
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"{}\" font-weight=\"bold\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
        x + 5,
        y + 14,
        escape(&title),
        x + BOX_W - 5,
        y + 14,
        escape(node.outcome.key())
    );
    let detail = format!("{} \u{2192} {}", window_text(node), score_text(node.score));
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"{}\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{} node{}</text>",
        x + 5,
        y + 28,
        escape(&detail),
        x + BOX_W - 5,
        y + 28,
        nodes,
        if nodes == 1 { "" } else { "s" }
    );
    let span = spans[i as usize];
    if !on_pv && span > 1 {
        composition_bar(svg, tree, i, span, x, y);
    }
}

/// A box for folded moves.
fn folded_box(svg: &mut String, x: i32, y: i32, first: &str, second: &str) {
    let _ = writeln!(
        svg,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"4\" fill=\"#f4f4f4\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>"
    );
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"{}\" font-style=\"italic\">{}</text><text x=\"{}\" y=\"{}\">{}</text>",
        x + 5,
        y + 14,
        escape(first),
        x + 5,
        y + 29,
        escape(second)
    );
}

/// The picture.
pub fn to_svg(tree: &Tree) -> String {
    let children = tree.children();
    let spans = tree.spans();
    let path = tree.pv_path(&children);
    // Column 0 is the root; column k + 1 the children of the PV's k-th node.
    let mut columns: Vec<Vec<Cell>> = Vec::new();
    if let Some(&root) = path.first() {
        columns.push(vec![Cell::Node(root)]);
    }
    for (k, &at) in path.iter().enumerate() {
        let kids = &children[at as usize];
        if kids.is_empty() {
            break;
        }
        columns.push(column(tree, kids, path.get(k + 1).copied()));
    }
    let rows = columns.iter().map(|c| c.len()).max().unwrap_or(1) as i32;
    let used: Vec<Outcome> = tree
        .outcome_totals()
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .map(|(o, _)| o)
        .collect();
    let legend_rows = used.len().div_ceil(3) as i32;
    let width = (LEFT * 2 + columns.len() as i32 * (BOX_W + GAP_X) - GAP_X).max(3 * 300 + 24);
    let legend_top = TOP + rows * (BOX_H + GAP_Y) + 16;
    let height = legend_top + 36 + legend_rows * 18 + 10;

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans, Verdana, sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(
        svg,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>"
    );
    let pv: Vec<String> = tree.pv.iter().map(|m| m.to_uci(tree.chess960)).collect();
    let off = if tree.off.is_empty() {
        "all techniques on".to_string()
    } else {
        format!("off: {}", tree.off.join(", "))
    };
    let _ = writeln!(
        svg,
        "<text x=\"{LEFT}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">depth {}, {}: score {}, {} nodes</text>",
        tree.depth,
        escape(&off),
        score_text(tree.score),
        tree.node_count()
    );
    let _ = writeln!(
        svg,
        "<text x=\"{LEFT}\" y=\"38\">{}</text>",
        escape(&tree.fen)
    );
    let mut notes = format!("pv {}", pv.join(" "));
    if tree.roots.len() > 1 {
        let _ = write!(
            notes,
            "  ({} root searches: aspiration; the last is drawn)",
            tree.roots.len()
        );
    }
    if tree.stopped {
        notes.push_str("  (stopped before the iteration ended)");
    }
    if tree.dropped > 0 {
        let _ = write!(
            notes,
            "  (cap reached: {} nodes not recorded)",
            tree.dropped
        );
    }
    let _ = writeln!(svg, "<text x=\"{LEFT}\" y=\"54\">{}</text>", escape(&notes));

    let y_of = |row: usize| TOP + row as i32 * (BOX_H + GAP_Y);
    // Where the PV node of each column sits, to draw the bracket to the next column.
    let mut pv_row = 0usize;
    for (k, cells) in columns.iter().enumerate() {
        let x = LEFT + k as i32 * (BOX_W + GAP_X);
        if k > 0 && !cells.is_empty() {
            // The bracket: from the PV box of the column before, to each box of this one.
            let from_y = y_of(pv_row) + BOX_H / 2;
            let spine = x - GAP_X / 2;
            let last = (y_of(cells.len() - 1) + BOX_H / 2).max(from_y);
            let _ = writeln!(
                svg,
                "<path d=\"M{} {from_y} H{spine} M{spine} {} V{last}\" stroke=\"#444\" fill=\"none\"/>",
                x - GAP_X,
                (y_of(0) + BOX_H / 2).min(from_y)
            );
            for row in 0..cells.len() {
                let y = y_of(row) + BOX_H / 2;
                let _ = writeln!(
                    svg,
                    "<path d=\"M{spine} {y} H{x}\" stroke=\"#444\" fill=\"none\"/>"
                );
            }
        }
        let next = path.get(k).copied();
        let mut next_row = pv_row;
        for (row, cell) in cells.iter().enumerate() {
            let y = y_of(row);
            match cell {
                Cell::Node(i) => {
                    let on_pv = Some(*i) == next;
                    if on_pv {
                        next_row = row;
                    }
                    node_box(&mut svg, tree, &spans, *i, x, y, on_pv);
                }
                Cell::Folded(count, nodes) => folded_box(
                    &mut svg,
                    x,
                    y,
                    &format!("{count} more moves searched"),
                    &format!("{nodes} nodes"),
                ),
                Cell::Pruned(reasons) => {
                    let total: usize = reasons.values().sum();
                    let list: Vec<String> =
                        reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
                    folded_box(
                        &mut svg,
                        x,
                        y,
                        &format!("{total} not searched (0 nodes)"),
                        &list.join(", "),
                    );
                }
            }
        }
        pv_row = next_row;
    }

    // The legend: every outcome in the tree, with its count over the whole tree.
    let totals = tree.outcome_totals();
    let _ = writeln!(
        svg,
        "<text x=\"{LEFT}\" y=\"{}\"><tspan font-weight=\"bold\">outcomes in the whole tree</tspan><tspan x=\"{LEFT}\" dy=\"14\">thick border: the principal variation; strip: the outcomes inside a folded subtree; windows and scores: the side to move's</tspan></text>",
        legend_top + 4
    );
    for (k, outcome) in used.iter().enumerate() {
        let x = LEFT + (k % 3) as i32 * 300;
        let y = legend_top + 28 + (k / 3) as i32 * 18;
        let count = totals
            .iter()
            .find(|(o, _)| o == outcome)
            .map_or(0, |&(_, n)| n);
        let _ = writeln!(
            svg,
            "<rect x=\"{x}\" y=\"{y}\" width=\"14\" height=\"12\" fill=\"{}\" stroke=\"#666\" stroke-width=\"0.6\"/><text x=\"{}\" y=\"{}\">{} {count}</text>",
            outcome.colour(),
            x + 20,
            y + 10,
            escape(outcome.key())
        );
    }
    svg.push_str("</svg>\n");
    svg
}
