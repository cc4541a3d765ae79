//! `speed --plot FILE.svg`: throughput against message size, one panel per operation and one
//! line per library, message size on a log₂ axis. Hand-written SVG, so it needs no plotting
//! dependency and renders in a browser or on GitHub.

use std::fmt::Write as _;

use crate::libs::Library;
use crate::ops::Unit;
use crate::report::{Column, Record, in_unit};

const PANEL_W: f64 = 760.0;
const PANEL_H: f64 = 330.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// The colour of a library's line; Halite's named implementations get their own shades.
fn colour(column: &Column, index_among_impls: usize) -> &'static str {
    match (column.library, &column.implementation) {
        (Library::Halite, None) => "#d62728",
        (Library::Halite, Some(_)) => {
            ["#e377c2", "#7f7f7f", "#bcbd22", "#17becf"][index_among_impls % 4]
        }
        (Library::Ring, _) => "#1f77b4",
        (Library::AwsLcRs, _) => "#ff7f0e",
        (Library::Graviola, _) => "#2ca02c",
        (Library::RustCrypto, _) => "#9467bd",
        (Library::Libcrux, _) => "#e377c2",
        (Library::OpenSsl, _) => "#8c564b",
        (Library::RustlsAwsLc, _) => "#ffbb78",
        (Library::RustlsRing, _) => "#aec7e8",
        (Library::RustlsHalite, _) => "#ff9896",
        (Library::OpensslSpeed, _) => "#c49c94",
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A size label: `64`, `1K`, `16K`, `1M`.
#[must_use]
pub fn size_label(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{}M", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{}K", bytes >> 10)
    } else {
        bytes.to_string()
    }
}

/// A round step for about five ticks up to `max`: 1, 2 or 5 times a power of ten.
#[must_use]
pub fn nice_step(max: f64) -> f64 {
    if max <= 0.0 || !max.is_finite() {
        return 1.0;
    }
    let rough = max / 5.0;
    let power = 10f64.powf(rough.log10().floor());
    let m = rough / power;
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

/// The SVG document: for each op in `ops`, a panel with a line per column in `columns`
/// (CPU-time rates, medians).
#[must_use]
pub fn svg(records: &[Record], ops: &[&str], columns: &[Column], title: &str) -> String {
    // Operations counted one by one have no size axis to plot.
    let panels: Vec<&str> = ops
        .iter()
        .copied()
        .filter(|op| records.iter().any(|r| r.op == *op && r.unit == Unit::Bytes))
        .collect();
    let height = TOP + panels.len() as f64 * PANEL_H + 10.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{PANEL_W}" height="{height}" viewBox="0 0 {PANEL_W} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" font-size="15" text-anchor="middle">{}</text>"#,
        PANEL_W / 2.0,
        escape(title)
    );
    for (i, op) in panels.iter().enumerate() {
        panel(&mut s, records, op, columns, TOP + i as f64 * PANEL_H);
    }
    s.push_str("</svg>\n");
    s
}

fn panel(s: &mut String, records: &[Record], op: &str, columns: &[Column], y0: f64) {
    let here: Vec<&Record> = records.iter().filter(|r| r.op == op).collect();
    let unit = here[0].unit;
    let (x_left, x_right) = (LEFT, PANEL_W - RIGHT);
    let (y_top, y_bottom) = (y0 + 25.0, y0 + PANEL_H - BOTTOM);
    let min_size = here.iter().map(|r| r.bytes.max(1)).min().unwrap_or(1) as f64;
    let max_size = here.iter().map(|r| r.bytes.max(1)).max().unwrap_or(1) as f64;
    let (lx0, mut lx1) = (min_size.log2(), max_size.log2());
    let single_size = lx1 - lx0 < 1e-9;
    if single_size {
        lx1 = lx0 + 1.0;
    }
    let x_of = |bytes: f64| {
        if single_size {
            f64::midpoint(x_left, x_right)
        } else {
            x_left + (bytes.log2() - lx0) / (lx1 - lx0) * (x_right - x_left)
        }
    };
    let y_max_data = here.iter().map(|r| in_unit(r.cpu.median, unit)).fold(0.0, f64::max);
    let step = nice_step(y_max_data);
    let y_max = (y_max_data / step).ceil().max(1.0) * step;
    let y_of = |v: f64| y_bottom - v / y_max * (y_bottom - y_top);

    let _ = writeln!(
        s,
        r#"<text x="{x_left}" y="{}" font-size="14" font-weight="bold">{}</text>"#,
        y0 + 15.0,
        escape(op)
    );
    // Axes, grid and ticks.
    let mut v = 0.0;
    while v <= y_max + step / 2.0 {
        let y = y_of(v);
        let _ = writeln!(
            s,
            r##"<line x1="{x_left}" y1="{y:.1}" x2="{x_right}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
            x_left - 6.0,
            y + 4.0,
            crate::report::short_number(v)
        );
        v += step;
    }
    let mut p = 2f64.powf(lx0.ceil());
    let ticks = (lx1.floor() - lx0.ceil()) as usize + 1;
    let every = if ticks > 10 { 2.0 } else { 1.0 };
    while p.log2() <= lx1 + 1e-9 {
        let x = x_of(p);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{y_top}" x2="{x:.1}" y2="{y_bottom}" stroke="#eee"/><text x="{x:.1}" y="{}" text-anchor="middle">{}</text>"##,
            y_bottom + 16.0,
            size_label(p as u64)
        );
        p *= 2f64.powf(every);
    }
    let _ = writeln!(
        s,
        r##"<rect x="{x_left}" y="{y_top}" width="{}" height="{}" fill="none" stroke="#444"/>"##,
        x_right - x_left,
        y_bottom - y_top
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">message size (bytes, log scale)</text>"#,
        f64::midpoint(x_left, x_right),
        y_bottom + 36.0
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate({},{}) rotate(-90)" text-anchor="middle">{} per CPU-second</text>"#,
        x_left - 50.0,
        f64::midpoint(y_top, y_bottom),
        unit.label()
    );
    // One line per column, with a legend entry.
    let mut legend_y = y_top + 10.0;
    // Peers first, so Halite's lines are drawn on top.
    let mut series = String::new();
    for column in columns {
        let mut points: Vec<(f64, f64)> = here
            .iter()
            .filter(|r| column.matches(r))
            .map(|r| (r.bytes.max(1) as f64, in_unit(r.cpu.median, unit)))
            .collect();
        if points.is_empty() {
            continue;
        }
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Halite's implementations keep one colour each across panels.
        let impl_index = columns
            .iter()
            .filter(|c| c.implementation.is_some())
            .position(|c| c == column)
            .unwrap_or(0);
        let c = colour(column, impl_index);
        let dash = if column.implementation.is_some() { r#" stroke-dasharray="6 3""# } else { "" };
        let width = if column.library == Library::Halite { 2.5 } else { 1.8 };
        let path: Vec<String> =
            points.iter().map(|&(b, v)| format!("{:.1},{:.1}", x_of(b), y_of(v))).collect();
        let mut line = format!(
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="{width}"{dash}/>"#,
            path.join(" ")
        );
        line.push('\n');
        for &(b, v) in &points {
            let _ = writeln!(
                line,
                r#"<circle cx="{:.1}" cy="{:.1}" r="2.5" fill="{c}"/>"#,
                x_of(b),
                y_of(v)
            );
        }
        series.insert_str(0, &line);
        let lx = x_right + 12.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{legend_y}" x2="{}" y2="{legend_y}" stroke="{c}" stroke-width="{width}"{dash}/><text x="{}" y="{}">{}</text>"#,
            lx + 22.0,
            lx + 28.0,
            legend_y + 4.0,
            escape(&column.header())
        );
        legend_y += 18.0;
    }
    s.push_str(&series);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Summary;

    #[test]
    #[allow(clippy::float_cmp)] // round numbers, exactly representable
    fn steps_and_labels() {
        assert_eq!(nice_step(1000.0), 200.0);
        assert_eq!(nice_step(230.0), 50.0);
        assert_eq!(nice_step(0.0), 1.0);
        assert_eq!(size_label(64), "64");
        assert_eq!(size_label(1350), "1350");
        assert_eq!(size_label(16384), "16K");
        assert_eq!(size_label(1 << 20), "1M");
    }

    #[test]
    fn one_line_per_library_and_a_panel_per_op() {
        let rec = |op: &str, bytes, library| Record {
            op: op.into(),
            bytes,
            library,
            implementation: "default".into(),
            unit: Unit::Bytes,
            cpu: Summary::single(1e8),
            wall: None,
            rounds: crate::measure::Rates::default(),
        };
        let records = [
            rec("sha256", 64, Library::Halite),
            rec("sha256", 1024, Library::Halite),
            rec("sha256", 64, Library::Ring),
            rec("sha512", 64, Library::Ring),
        ];
        let columns = [
            Column { library: Library::Halite, implementation: None },
            Column { library: Library::Ring, implementation: None },
            Column { library: Library::OpenSsl, implementation: None },
        ];
        let svg = svg(&records, &["sha256", "sha512", "sha1"], &columns, "a <title>");
        assert!(svg.starts_with("<svg "));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 3);
        assert_eq!(svg.matches("font-weight=\"bold\"").count(), 2);
        assert!(svg.contains("a &lt;title&gt;"));
    }
}
