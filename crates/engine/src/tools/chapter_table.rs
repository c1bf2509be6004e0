//! `chapter-table`: the node counts behind the book's tables, the six positions searched with
//! every technique on and with each named one switched off.

use super::bench::{SIX_POSITIONS, run};
use crate::params::Params;
use crate::techniques::Techniques;

/// The node counts on the six positions at `depth`, with all techniques on and with each named
/// one switched off: a Markdown table for the book.
pub fn chapter_table(
    names: &[&str],
    depth: i32,
    base: &Techniques,
    params: &Params,
) -> Result<String, String> {
    let six: Vec<(&'static str, bool)> = SIX_POSITIONS.iter().map(|&f| (f, false)).collect();
    let mut columns = vec![("all on".to_string(), run(&six, depth, base, params))];
    for name in names {
        let mut techniques = base.clone();
        techniques.set(name, false)?;
        columns.push((
            format!("`{name}` off"),
            run(&six, depth, &techniques, params),
        ));
    }
    let mut table = String::from("| position |");
    for (title, _) in &columns {
        table.push_str(&format!(" {title} |"));
    }
    table.push_str("\n|---|");
    table.push_str(&"---:|".repeat(columns.len()));
    table.push('\n');
    for i in 0..six.len() {
        table.push_str(&format!("| {} |", i + 1));
        for (_, report) in &columns {
            table.push_str(&format!(" {} |", report.lines[i].nodes));
        }
        table.push('\n');
    }
    table.push_str("| **total** |");
    let all_on = columns[0].1.nodes.max(1);
    for (i, (_, report)) in columns.iter().enumerate() {
        if i == 0 {
            table.push_str(&format!(" **{}** |", report.nodes));
        } else {
            table.push_str(&format!(
                " **{}** ({:.2}x) |",
                report.nodes,
                report.nodes as f64 / all_on as f64
            ));
        }
    }
    table.push('\n');
    Ok(table)
}
