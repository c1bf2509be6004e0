//! The tree as one self-contained HTML page (`tree --out FILE.html`): every node, folded. The
//! principal variation opens at load; a click opens or closes any other node. The records travel
//! in the page as a compact array and a short script builds a node's children only when it is
//! opened, so a tree of a million nodes stays quick to load. No external file is used.

use super::json::quote;
use super::text::{how_text, score_text, window_text};
use super::{Kind, NO_PARENT, Outcome, Tree};
use std::fmt::Write;

const STYLE: &str = "
body { font-family: DejaVu Sans, Verdana, sans-serif; font-size: 13px; margin: 1em 2em; }
ul { list-style: none; padding-left: 1.4em; margin: 0; }
li { margin: 1px 0; white-space: nowrap; }
.t { display: inline-block; width: 1.1em; cursor: pointer; color: #444; }
.s { display: inline-block; width: 0.9em; height: 0.9em; border: 1px solid #666;
     vertical-align: -1px; margin-right: 0.4em; }
.pv > .l { font-weight: bold; }
.m { display: inline-block; min-width: 7.5em; }
.h { color: #555; display: inline-block; min-width: 11em; }
.w { display: inline-block; min-width: 14em; }
.o { display: inline-block; min-width: 10em; }
.n { color: #555; }
table.legend td { padding: 0 0.8em 0 0; }
";

const SCRIPT: &str = "
const kids = N.map(() => []);
N.forEach((n, i) => { if (n[0] >= 0) kids[n[0]].push(i); });
const onPv = new Set(PV);
function item(i) {
  const n = N[i], li = document.createElement('li');
  if (onPv.has(i)) li.className = 'pv';
  const t = document.createElement('span');
  t.className = 't';
  t.textContent = kids[i].length ? '\\u25b8' : '';
  const l = document.createElement('span');
  l.className = 'l';
  const o = O[n[6]];
  l.innerHTML = '<span class=\"s\" style=\"background:' + o[1] + '\" title=\"' + o[2] +
    '\"></span><span class=\"m\">' + n[1] + '</span><span class=\"h\">' + n[2] +
    '</span><span class=\"w\">' + (n[3] ? n[3] + ' \\u2192 ' + n[4] : '') +
    '</span><span class=\"o\">' + o[0] + '</span><span class=\"n\">' + n[5] +
    (n[5] == 1 ? ' node' : ' nodes') + (kids[i].length == 1 ? ', 1 child' :
    kids[i].length ? ', ' + kids[i].length + ' children' : '') + '</span>';
  li.append(t, l);
  if (kids[i].length) {
    let ul = null;
    t.onclick = () => {
      if (ul) { ul.remove(); ul = null; t.textContent = '\\u25b8'; return; }
      ul = document.createElement('ul');
      kids[i].forEach(c => ul.append(item(c)));
      li.append(ul);
      t.textContent = '\\u25be';
    };
    if (onPv.has(i)) t.onclick();
  }
  return li;
}
const list = document.getElementById('tree');
ROOTS.forEach(r => list.append(item(r)));
";

/// The page, as a string (for tests and small trees).
pub fn to_html(tree: &Tree) -> String {
    let mut bytes = Vec::new();
    // Writing into memory can't fail.
    let _ = write_html(tree, &mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Writes the page to `sink` a piece at a time (a tree at the cap makes a page of some hundred
/// megabytes).
pub fn write_html(tree: &Tree, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    let children = tree.children();
    let path = tree.pv_path(&children);
    let mut out = String::with_capacity(1 << 17);
    let pv: Vec<String> = tree.pv.iter().map(|m| m.to_uci(tree.chess960)).collect();
    let off = if tree.off.is_empty() {
        "all techniques on".to_string()
    } else {
        format!("off: {}", tree.off.join(", "))
    };
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>cb2026 tree, depth {}</title><style>{STYLE}</style></head><body>\n",
        tree.depth
    );
    let _ = writeln!(
        out,
        "<h2>depth {}, {}: score {}, {} nodes</h2>\n<p>{}<br>pv {}</p>",
        tree.depth,
        escape(&off),
        score_text(tree.score),
        tree.node_count(),
        escape(&tree.fen),
        escape(&pv.join(" "))
    );
    if tree.dropped > 0 {
        let _ = writeln!(
            out,
            "<p><b>The cap of {} records was reached: {} more nodes were not recorded.</b></p>",
            tree.cap, tree.dropped
        );
    }
    if tree.stopped {
        out.push_str("<p><b>The search was stopped before the iteration ended.</b></p>\n");
    }
    out.push_str("<table class=\"legend\">\n");
    for (outcome, count) in tree.outcome_totals() {
        if count > 0 {
            let _ = writeln!(
                out,
                "<tr><td><span class=\"s\" style=\"background:{}\"></span>{}</td><td>{count}</td><td>{}</td></tr>",
                outcome.colour(),
                outcome.key(),
                escape(outcome.meaning())
            );
        }
    }
    out.push_str("</table>\n<p>Each line: move, how it was searched (depth, reduction r, extension, qs), window \u{2192} score, outcome, nodes in its subtree. A click on \u{25b8} opens a node; the principal variation is open and in bold.</p>\n<ul id=\"tree\"></ul>\n<script>\n");
    let outcomes: Vec<String> = Outcome::ALL
        .iter()
        .map(|o| {
            format!(
                "[{},{},{}]",
                quote(o.key()),
                quote(o.colour()),
                quote(o.meaning())
            )
        })
        .collect();
    let _ = writeln!(out, "const O = [{}];", outcomes.join(","));
    out.push_str("const N = [\n");
    for (i, node) in tree.nodes.iter().enumerate() {
        let parent = if node.parent == NO_PARENT {
            -1
        } else {
            node.parent as i64
        };
        let outcome = Outcome::ALL
            .iter()
            .position(|&o| o == node.outcome)
            .unwrap_or(0);
        // A pruned move has no window or score of its own; a quiescence node says "qs" once.
        let (how, window, score) = match node.kind {
            Kind::Pruned => ("pruned".to_string(), String::new(), String::new()),
            Kind::Quiescence => (how_text(node), window_text(node), score_text(node.score)),
            kind => (
                format!("{} {}", kind.name(), how_text(node)),
                window_text(node),
                score_text(node.score),
            ),
        };
        let _ = writeln!(
            out,
            "[{parent},{},{},{},{},{},{outcome}],",
            quote(&escape(&tree.move_text(node))),
            quote(&escape(&how)),
            quote(&escape(&window)),
            quote(&score),
            tree.subtree[i],
        );
        if out.len() >= 1 << 16 {
            sink.write_all(out.as_bytes())?;
            out.clear();
        }
    }
    out.push_str("];\n");
    let path: Vec<String> = path.iter().map(|p| p.to_string()).collect();
    let roots: Vec<String> = tree.roots.iter().map(|r| r.to_string()).collect();
    let _ = writeln!(out, "const PV = [{}];", path.join(","));
    let _ = writeln!(out, "const ROOTS = [{}];", roots.join(","));
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body></html>\n");
    sink.write_all(out.as_bytes())
}

/// Escapes text for HTML (also inside the script's strings, which go into `innerHTML`).
fn escape(text: &str) -> String {
    super::svg::escape(text)
}
