//! The loss per epoch as a table (`loss.csv`) and a chart (`loss.svg`), rewritten after every
//! epoch from the run's whole history. The chart is plain SVG written by hand: two polylines
//! on labelled axes with a legend, readable in any browser.

use crate::trainer::EpochStats;
use std::fmt::Write;

/// `epoch,lr,train_loss,validation_loss,seconds,positions_per_second`, one line an epoch
/// (the validation loss empty when nothing was held out).
pub fn csv(history: &[EpochStats]) -> String {
    let mut out =
        String::from("epoch,lr,train_loss,validation_loss,seconds,positions_per_second\n");
    for e in history {
        let validation = e
            .validation_loss
            .map_or(String::new(), |v| format!("{v:.7}"));
        let _ = writeln!(
            out,
            "{},{:.4e},{:.7},{validation},{:.2},{:.0}",
            e.epoch,
            e.lr,
            e.train_loss,
            e.seconds,
            e.positions_per_second()
        );
    }
    out
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 440.0;
/// Room for the tick labels and axis titles: left, right, top, bottom.
const MARGIN: (f64, f64, f64, f64) = (80.0, 24.0, 40.0, 56.0);
const TRAIN_COLOUR: &str = "#1f77b4";
const VALIDATION_COLOUR: &str = "#d62728";

/// A step of 1, 2 or 5 times a power of ten giving about `ticks` intervals over `span`.
fn nice_step(span: f64, ticks: f64) -> f64 {
    let raw = (span / ticks).max(f64::MIN_POSITIVE);
    let power = 10f64.powf(raw.log10().floor());
    let m = raw / power;
    let nice = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * power
}

/// Decimals enough to tell ticks `step` apart.
fn decimals(step: f64) -> usize {
    (-step.log10().floor()).max(0.0) as usize
}

/// The chart of the training and validation loss against the epoch.
pub fn svg(history: &[EpochStats]) -> String {
    let (left, right, top, bottom) = MARGIN;
    let (pw, ph) = (WIDTH - left - right, HEIGHT - top - bottom);
    let train: Vec<(f64, f64)> = history
        .iter()
        .map(|e| (e.epoch as f64, e.train_loss))
        .filter(|p| p.1.is_finite())
        .collect();
    let validation: Vec<(f64, f64)> = history
        .iter()
        .filter_map(|e| e.validation_loss.map(|v| (e.epoch as f64, v)))
        .filter(|p| p.1.is_finite())
        .collect();
    let ys = train.iter().chain(&validation).map(|p| p.1);
    let (mut lo, mut hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
        (lo.min(y), hi.max(y))
    });
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if hi - lo < 1e-9 {
        (lo, hi) = (lo - 0.5 * lo.abs().max(1e-3), hi + 0.5 * hi.abs().max(1e-3));
    }
    let y_step = nice_step(hi - lo, 5.0);
    let (y0, y1) = (
        (lo / y_step).floor() * y_step,
        (hi / y_step).ceil() * y_step,
    );
    let last = history.iter().map(|e| e.epoch).max().unwrap_or(1).max(2) as f64;
    let (x0, x1) = (1.0, last);
    let x_step = nice_step(x1 - x0, 10.0).max(1.0);
    let px = |x: f64| left + (x - x0) / (x1 - x0) * pw;
    let py = |y: f64| top + (y1 - y) / (y1 - y0) * ph;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="24" text-anchor="middle" font-size="15">Loss per epoch</text>"#,
        left + pw / 2.0
    );
    // Grid and tick labels.
    let mut y = y0;
    while y <= y1 + y_step / 2.0 {
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="#e0e0e0"/><text x="{2:.1}" y="{3:.1}" text-anchor="end">{4:.5$}</text>"##,
            py(y),
            left + pw,
            left - 6.0,
            py(y) + 4.0,
            y,
            decimals(y_step),
        );
        y += y_step;
    }
    let mut x = x0;
    while x <= x1 + 1e-9 {
        let _ = writeln!(
            s,
            r##"<line x1="{0:.1}" y1="{top}" x2="{0:.1}" y2="{1:.1}" stroke="#f0f0f0"/><text x="{0:.1}" y="{2:.1}" text-anchor="middle">{3}</text>"##,
            px(x),
            top + ph,
            top + ph + 18.0,
            x as u64
        );
        x = if x == x0 && x_step > 1.0 {
            x_step
        } else {
            x + x_step
        };
    }
    // Axes and their titles.
    let _ = writeln!(
        s,
        r#"<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">epoch</text>"#,
        left + pw / 2.0,
        HEIGHT - 14.0
    );
    let _ = writeln!(
        s,
        r#"<text x="18" y="{0:.1}" text-anchor="middle" transform="rotate(-90 18 {0:.1})">mean loss</text>"#,
        top + ph / 2.0
    );
    // The two series, with a dot on each epoch so that a run of one epoch shows too.
    for (points, colour) in [(&train, TRAIN_COLOUR), (&validation, VALIDATION_COLOUR)] {
        if points.is_empty() {
            continue;
        }
        let coords: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"#,
            coords.join(" ")
        );
        for &(x, y) in points.iter() {
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="2.5" fill="{colour}"/>"#,
                px(x),
                py(y)
            );
        }
    }
    // The legend, top right inside the plot.
    let (lx, ly) = (left + pw - 130.0, top + 10.0);
    let _ = writeln!(
        s,
        r#"<rect x="{lx}" y="{ly}" width="120" height="44" fill="white" stroke="gray"/>"#
    );
    for (i, (name, colour)) in [
        ("training", TRAIN_COLOUR),
        ("validation", VALIDATION_COLOUR),
    ]
    .into_iter()
    .enumerate()
    {
        let y = ly + 15.0 + 17.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="{colour}" stroke-width="2"/><text x="{}" y="{}">{name}</text>"#,
            lx + 8.0,
            lx + 32.0,
            lx + 40.0,
            y + 4.0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(n: u32) -> Vec<EpochStats> {
        (1..=n)
            .map(|e| EpochStats {
                epoch: e,
                lr: 0.001,
                train_loss: 0.05 / e as f64,
                validation_loss: Some(0.055 / e as f64 + 0.002),
                seconds: 2.0,
                train_seconds: 1.5,
                positions: 3_000_000,
            })
            .collect()
    }

    #[test]
    fn the_chart_has_both_lines_and_the_table_every_epoch() {
        for n in [1, 2, 7, 40] {
            let h = history(n);
            let chart = svg(&h);
            assert!(chart.starts_with("<svg") && chart.ends_with("</svg>\n"));
            assert_eq!(chart.matches("<polyline").count(), 2);
            assert_eq!(chart.matches("<circle").count(), 2 * n as usize);
            assert!(chart.contains(">training<") && chart.contains(">validation<"));
            assert!(!chart.contains("NaN") && !chart.contains("inf"));
            let table = csv(&h);
            assert_eq!(table.lines().count(), n as usize + 1);
            assert!(
                table
                    .lines()
                    .nth(1)
                    .unwrap()
                    .starts_with("1,1.0000e-3,0.0500000,0.0570000,")
            );
        }
        assert!(svg(&[]).contains("</svg>"));
    }
}
