//! Turning measurements into the outputs people and scripts read: the aligned text table, the
//! Markdown table for the README, CSV (`op,bytes,library,implementation,unit,median,min,max`,
//! which scripts rely on) and JSON.

use std::fmt::Write as _;

use crate::libs::Library;
use crate::measure::Rates;
use crate::ops::Unit;
use crate::stats::{Summary, paired_ratio, ratio_to_best};

/// One measured rate: an operation at one size by one library (or Halite implementation).
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The op id.
    pub op: String,
    /// The message size in bytes (0 for public-key operations).
    pub bytes: usize,
    /// Whose code.
    pub library: Library,
    /// `default` for Halite's default path, an implementation name for Halite's named
    /// implementations, the version for peers.
    pub implementation: String,
    /// What the rate counts.
    pub unit: Unit,
    /// Work units (bytes or operations) per CPU-second of the measuring thread.
    pub cpu: Summary,
    /// Work units per wall-clock second, when known.
    pub wall: Option<Summary>,
    /// The per-round rates behind `cpu` and `wall`, in round order, for ratios paired by
    /// round; empty where there were no rounds shared with Halite (OpenSSL).
    pub rounds: Rates,
}

impl Record {
    /// Whether this is Halite's default path (the `halite` column).
    #[must_use]
    pub fn is_halite_default(&self) -> bool {
        self.library == Library::Halite && self.implementation == "default"
    }
}

/// Which number a table shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Metric {
    /// MB/s (or ops/s) per CPU-second, with the Halite/best-peer ratio.
    Cpu,
    /// MB/s (or ops/s) per wall-clock second, with the ratio.
    Wall,
    /// TSC reference cycles per byte (or per operation), given the TSC rate in Hz.
    Cycles(f64),
}

/// A column of a table: one library, or one named Halite implementation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// Whose code.
    pub library: Library,
    /// `Some(name)` for a named Halite implementation; `None` for the library's main entry
    /// (Halite's default, or the peer).
    pub implementation: Option<String>,
}

impl Column {
    /// The column header: the library name, or `halite/NAME` for an implementation.
    #[must_use]
    pub fn header(&self) -> String {
        match &self.implementation {
            Some(name) => format!("halite/{name}"),
            None => self.library.name().to_owned(),
        }
    }

    /// Whether record `r` belongs in this column.
    #[must_use]
    pub fn matches(&self, r: &Record) -> bool {
        r.library == self.library
            && match &self.implementation {
                Some(name) => r.implementation == *name,
                None => r.library != Library::Halite || r.implementation == "default",
            }
    }
}

/// A rendered table: headers and rows of cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Column headers.
    pub headers: Vec<String>,
    /// Rows of cells, as many as headers.
    pub rows: Vec<Vec<String>>,
}

/// `value` (work units per second) in the table's unit: MB/s (10^6 bytes) or ops/s.
#[must_use]
pub fn in_unit(value: f64, unit: Unit) -> f64 {
    match unit {
        Unit::Bytes => value / 1e6,
        Unit::Ops => value,
    }
}

/// A number with about three significant digits and no exponent: `12.3`, `456`, `78901`.
#[must_use]
pub fn short_number(v: f64) -> String {
    let a = v.abs();
    if a >= 100.0 || a == 0.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// A cell: the median, and the spread when there was one (`1234 ±2%`).
fn cell(s: &Summary) -> String {
    if s.max - s.min <= f64::EPSILON * s.max.abs() {
        short_number(s.median)
    } else {
        format!("{} ±{:.0}%", short_number(s.median), s.spread_percent())
    }
}

/// The table of `metric` with one row per op (in `ops` order) and size, one column per entry
/// of `columns`, and for rates a last column with Halite's default over the best peer.
#[must_use]
pub fn table(records: &[Record], ops: &[&str], columns: &[Column], metric: Metric) -> Table {
    let rates = !matches!(metric, Metric::Cycles(_));
    let mut headers = vec!["op".to_owned(), "bytes".to_owned()];
    headers.extend(columns.iter().map(Column::header));
    if rates {
        headers.push("halite/best".to_owned());
    }
    let mut rows = Vec::new();
    for &op in ops {
        let mut sizes: Vec<usize> =
            records.iter().filter(|r| r.op == op).map(|r| r.bytes).collect();
        sizes.sort_unstable();
        sizes.dedup();
        for size in sizes {
            let here: Vec<&Record> =
                records.iter().filter(|r| r.op == op && r.bytes == size).collect();
            let value = |r: &Record| -> Option<Summary> {
                match metric {
                    Metric::Cpu => Some(r.cpu.scaled(in_unit(1.0, r.unit))),
                    Metric::Wall => r.wall.map(|w| w.scaled(in_unit(1.0, r.unit))),
                    Metric::Cycles(hz) => Some(r.cpu.reciprocal(hz)),
                }
            };
            // Operations counted one by one have no message size.
            let per_op = here.iter().all(|r| r.unit == Unit::Ops);
            let mut row =
                vec![op.to_owned(), if per_op { "-".to_owned() } else { size.to_string() }];
            for column in columns {
                let found = here.iter().find(|r| column.matches(r)).and_then(|r| value(r));
                row.push(found.as_ref().map_or_else(|| "-".to_owned(), cell));
            }
            if rates {
                let halite = here.iter().find(|r| r.is_halite_default());
                let ratios: Vec<(Library, f64)> = here
                    .iter()
                    // rustls-halite is Halite's own primitives under rustls, openssl-speed a
                    // cross-check of the openssl column: shown, not peers.
                    .filter(|r| {
                        !matches!(
                            r.library,
                            Library::Halite | Library::RustlsHalite | Library::OpensslSpeed
                        )
                    })
                    .filter_map(|r| Some((r.library, ratio(halite?, r, metric)?)))
                    .collect();
                row.push(match ratio_to_best(&ratios) {
                    Some((ratio, best)) => format!("{ratio:.2}x {best}"),
                    None => "-".to_owned(),
                });
            }
            rows.push(row);
        }
    }
    Table { headers, rows }
}

/// Halite's rate over `peer`'s: paired by round where both were measured in the same rounds,
/// otherwise (a CSV read back) the ratio of medians.
fn ratio(halite: &Record, peer: &Record, metric: Metric) -> Option<f64> {
    let (h, p) = match metric {
        Metric::Cpu => (&halite.rounds.cpu, &peer.rounds.cpu),
        Metric::Wall => (&halite.rounds.wall, &peer.rounds.wall),
        Metric::Cycles(_) => return None,
    };
    paired_ratio(h, p).or_else(|| {
        let median = |r: &Record| match metric {
            Metric::Wall => r.wall.map(|w| w.median),
            _ => Some(r.cpu.median),
        };
        Some(median(halite)? / median(peer)?)
    })
}

/// The table as aligned text: op and size left-aligned, numbers right-aligned.
#[must_use]
pub fn render_text(t: &Table) -> String {
    let widths = widths(t);
    // Names read left to right; numbers line up on the right.
    let left: Vec<bool> =
        t.headers.iter().enumerate().map(|(i, h)| i < 2 || h == "halite/best").collect();
    let mut s = String::new();
    let line = |s: &mut String, cells: &[String]| {
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            let sep = if i == 0 { "" } else { "  " };
            if left[i] {
                let _ = write!(s, "{sep}{c:<w$}");
            } else {
                let _ = write!(s, "{sep}{c:>w$}");
            }
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
    };
    line(&mut s, &t.headers);
    let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
    line(&mut s, &rule);
    for row in &t.rows {
        line(&mut s, row);
    }
    s
}

/// The table as GitHub Markdown.
#[must_use]
pub fn render_markdown(t: &Table) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "| {} |", t.headers.join(" | "));
    let align: Vec<&str> =
        (0..t.headers.len()).map(|i| if i < 2 { ":--" } else { "--:" }).collect();
    let _ = writeln!(s, "| {} |", align.join(" | "));
    for row in &t.rows {
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
    s
}

fn widths(t: &Table) -> Vec<usize> {
    (0..t.headers.len())
        .map(|i| {
            std::iter::once(&t.headers[i])
                .chain(t.rows.iter().map(|r| &r[i]))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// One CSV field, quoted when it holds a comma, quote or newline.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// The CSV scripts read: `op,bytes,library,implementation,unit,median,min,max`, one row per
/// measurement, rates per CPU-second in MB/s or ops/s.
#[must_use]
pub fn csv(records: &[Record]) -> String {
    let mut s = String::from("op,bytes,library,implementation,unit,median,min,max\n");
    for r in records {
        let v = r.cpu.scaled(in_unit(1.0, r.unit));
        let _ = writeln!(
            s,
            "{},{},{},{},{},{:.3},{:.3},{:.3}",
            csv_field(&r.op),
            r.bytes,
            r.library,
            csv_field(&r.implementation),
            r.unit.label(),
            v.median,
            v.min,
            v.max
        );
    }
    s
}

/// A JSON string literal.
#[must_use]
pub fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_number(v: f64) -> String {
    if v.is_finite() { format!("{v:.4}") } else { "null".to_owned() }
}

fn json_summary(s: Option<Summary>) -> String {
    match s {
        Some(s) => format!(
            "{{\"median\": {}, \"min\": {}, \"max\": {}}}",
            json_number(s.median),
            json_number(s.min),
            json_number(s.max)
        ),
        None => "null".to_owned(),
    }
}

/// The whole run as JSON: `meta` (already-encoded key/value pairs about the machine and run),
/// then one object per record with CPU and wall rates in the record's unit and, when the TSC
/// rate is known, cycles per byte or per operation.
#[must_use]
pub fn json(meta: &[(&str, String)], records: &[Record], tsc_hz: Option<f64>) -> String {
    let mut s = String::from("{\n");
    for (k, v) in meta {
        let _ = writeln!(s, "  {}: {},", json_string(k), v);
    }
    s.push_str("  \"results\": [\n");
    for (i, r) in records.iter().enumerate() {
        let f = in_unit(1.0, r.unit);
        let cycles = tsc_hz.map(|hz| r.cpu.reciprocal(hz));
        let _ = write!(
            s,
            "    {{\"op\": {}, \"bytes\": {}, \"library\": {}, \"implementation\": {}, \
             \"unit\": {}, \"cpu\": {}, \"wall\": {}, \"cycles_per_{}\": {}}}",
            json_string(&r.op),
            r.bytes,
            json_string(r.library.name()),
            json_string(&r.implementation),
            json_string(r.unit.label()),
            json_summary(Some(r.cpu.scaled(f))),
            json_summary(r.wall.map(|w| w.scaled(f))),
            match r.unit {
                Unit::Bytes => "byte",
                Unit::Ops => "op",
            },
            json_summary(cycles)
        );
        s.push_str(if i + 1 == records.len() { "\n" } else { ",\n" });
    }
    s.push_str("  ]\n}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(op: &str, bytes: usize, library: Library, imp: &str, mbps: f64) -> Record {
        let cpu = Summary { median: mbps * 1e6, min: mbps * 0.9e6, max: mbps * 1.1e6 };
        Record {
            op: op.into(),
            bytes,
            library,
            implementation: imp.into(),
            unit: Unit::Bytes,
            cpu,
            wall: Some(cpu.scaled(0.5)),
            rounds: Rates::default(),
        }
    }

    fn sample() -> Vec<Record> {
        vec![
            rec("sha256", 64, Library::Halite, "default", 200.0),
            rec("sha256", 64, Library::Halite, "portable", 200.0),
            rec("sha256", 64, Library::Ring, "0.17.14", 400.0),
            rec("sha256", 64, Library::OpenSsl, "OpenSSL 3.0.19", 100.0),
            rec("sha256", 1350, Library::Halite, "default", 300.0),
            rec("sha256", 1350, Library::Ring, "0.17.14", 250.0),
        ]
    }

    #[test]
    fn csv_has_the_documented_columns() {
        let text = csv(&sample()[..3]);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("op,bytes,library,implementation,unit,median,min,max"));
        assert_eq!(lines.next(), Some("sha256,64,halite,default,MB/s,200.000,180.000,220.000"));
        assert_eq!(lines.next(), Some("sha256,64,halite,portable,MB/s,200.000,180.000,220.000"));
        assert_eq!(lines.next(), Some("sha256,64,ring,0.17.14,MB/s,400.000,360.000,440.000"));
        assert_eq!(lines.next(), None);
    }

    #[test]
    fn csv_quotes_fields_that_need_it() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn table_cells_and_ratio() {
        let columns = [
            Column { library: Library::Halite, implementation: None },
            Column { library: Library::Halite, implementation: Some("portable".into()) },
            Column { library: Library::Ring, implementation: None },
            Column { library: Library::OpenSsl, implementation: None },
        ];
        let t = table(&sample(), &["sha256"], &columns, Metric::Cpu);
        assert_eq!(
            t.headers,
            ["op", "bytes", "halite", "halite/portable", "ring", "openssl", "halite/best"]
        );
        assert_eq!(t.rows.len(), 2);
        assert_eq!(
            t.rows[0],
            ["sha256", "64", "200 ±10%", "200 ±10%", "400 ±10%", "100 ±10%", "0.50x ring"]
        );
        assert_eq!(t.rows[1], ["sha256", "1350", "300 ±10%", "-", "250 ±10%", "-", "1.20x ring"]);
        // Wall-clock rates are half the CPU ones in the sample; the ratio is unchanged.
        let t = table(&sample(), &["sha256"], &columns, Metric::Wall);
        assert_eq!(t.rows[1][2], "150 ±10%");
        assert_eq!(t.rows[1][6], "1.20x ring");
    }

    #[test]
    fn ratio_is_paired_by_round() {
        // Medians give 40/100 = 0.4, but in each round Halite ran at 0.8 or 0.4 of ring's rate
        // (0.8 twice): the paired ratio is 0.8.
        let mut h = rec("sha256", 64, Library::Halite, "default", 0.0);
        let mut p = rec("sha256", 64, Library::Ring, "0.17.14", 0.0);
        h.rounds.cpu = vec![80.0, 40.0, 40.0];
        p.rounds.cpu = vec![100.0, 50.0, 100.0];
        h.cpu = Summary::of(&h.rounds.cpu).unwrap();
        p.cpu = Summary::of(&p.rounds.cpu).unwrap();
        let columns = [Column { library: Library::Ring, implementation: None }];
        let t = table(&[h, p], &["sha256"], &columns, Metric::Cpu);
        assert_eq!(t.rows[0][3], "0.80x ring");
    }

    #[test]
    fn cycles_per_byte_from_the_tsc_rate() {
        let columns = [Column { library: Library::Halite, implementation: None }];
        // 2.5 GHz at 250 MB/s is 10 cycles per byte.
        let mut r = rec("sha256", 64, Library::Halite, "default", 250.0);
        r.cpu = Summary::single(250e6);
        let t = table(&[r], &["sha256"], &columns, Metric::Cycles(2.5e9));
        assert_eq!(t.headers, ["op", "bytes", "halite"]);
        assert_eq!(t.rows[0][2], "10.0");
    }

    #[test]
    fn operations_have_no_size() {
        let mut r = rec("hkdf-sha256", 0, Library::Halite, "default", 0.0);
        r.unit = Unit::Ops;
        r.cpu = Summary::single(500_000.0);
        let columns = [Column { library: Library::Halite, implementation: None }];
        let t = table(&[r.clone()], &["hkdf-sha256"], &columns, Metric::Cpu);
        assert_eq!(t.rows[0][..3], ["hkdf-sha256", "-", "500000"]);
        // 2.5 GHz at 500 000 ops/s is 5000 cycles per operation.
        let t = table(&[r.clone()], &["hkdf-sha256"], &columns, Metric::Cycles(2.5e9));
        assert_eq!(t.rows[0][2], "5000");
        assert_eq!(
            csv(&[r]).lines().nth(1),
            Some("hkdf-sha256,0,halite,default,ops/s,500000.000,500000.000,500000.000")
        );
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short_number(12345.6), "12346");
        assert_eq!(short_number(123.4), "123");
        assert_eq!(short_number(12.34), "12.3");
        assert_eq!(short_number(1.234), "1.23");
        assert_eq!(short_number(0.1234), "0.123");
        assert_eq!(short_number(0.0), "0");
    }

    #[test]
    fn markdown_and_text_render_every_row() {
        let columns = [Column { library: Library::Ring, implementation: None }];
        let t = table(&sample(), &["sha256"], &columns, Metric::Cpu);
        let md = render_markdown(&t);
        assert!(md.starts_with("| op | bytes | ring | halite/best |\n| :-- | :-- | --: | --: |\n"));
        assert_eq!(md.lines().count(), 4);
        let text = render_text(&t);
        assert_eq!(text.lines().count(), 4);
        assert!(text.lines().nth(2).unwrap().starts_with("sha256  64 "));
    }

    #[test]
    fn json_escapes_and_nests() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        let j = json(&[("cpu", json_string("Xeon"))], &sample()[..1], Some(2.5e9));
        assert!(j.contains("\"cpu\": \"Xeon\","));
        assert!(j.contains("\"op\": \"sha256\", \"bytes\": 64, \"library\": \"halite\""));
        assert!(j.contains("\"cycles_per_byte\": {\"median\": 12.5000"));
        assert!(j.trim_end().ends_with('}'));
    }
}
