//! `speed --compare BASELINE.csv`: an earlier run's CSV read back and set against this run, one
//! table row per operation and size — Halite's time per call and its ratio to each peer,
//! before → after, with the change — so a performance change shows its before and after at
//! once.
//!
//! Both sides are read from the CSV (this run's through [`crate::report::csv`]), so ratios are
//! ratios of medians on both: the CSV keeps no per-round rates to pair.

use crate::report::{Table, short_number};

/// One row of `speed --csv`: `op,bytes,library,implementation,unit,median,min,max`.
#[derive(Clone, Debug, PartialEq)]
pub struct CsvRow {
    /// The op id.
    pub op: String,
    /// The message size (0 for operations counted one by one).
    pub bytes: usize,
    /// The library's name.
    pub library: String,
    /// `default`, a Halite implementation's name, or a peer's version.
    pub implementation: String,
    /// `MB/s` or `ops/s`.
    pub unit: String,
    /// The median rate, in `unit`.
    pub median: f64,
    /// The slowest round's rate.
    pub min: f64,
    /// The fastest round's rate.
    pub max: f64,
}

/// The fields of one CSV line, with `"…"` quoting and `""` inside quotes as `report` writes.
fn fields(line: &str) -> Result<Vec<String>, String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let field = out.last_mut().expect("at least one field");
        match (c, quoted) {
            ('"', false) if field.is_empty() => quoted = true,
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', true) => quoted = false,
            (',', false) => out.push(String::new()),
            (c, _) => field.push(c),
        }
    }
    if quoted {
        return Err(format!("unterminated quote in {line:?}"));
    }
    Ok(out)
}

/// Parses the CSV `speed --csv` writes.
pub fn parse_csv(text: &str) -> Result<Vec<CsvRow>, String> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let header = lines.next().map(|(_, l)| l.trim_end());
    if header != Some("op,bytes,library,implementation,unit,median,min,max") {
        return Err(format!("not a `speed --csv` file: its header is {header:?}"));
    }
    lines
        .map(|(i, line)| {
            let at = |e: String| format!("line {}: {e}", i + 1);
            let f = fields(line.trim_end()).map_err(at)?;
            let [op, bytes, library, implementation, unit, median, min, max] = &f[..] else {
                return Err(at(format!("{} fields, not 8", f.len())));
            };
            let number = |s: &str| s.parse::<f64>().map_err(|_| at(format!("bad number {s:?}")));
            Ok(CsvRow {
                op: op.clone(),
                bytes: bytes.parse().map_err(|_| at(format!("bad size {bytes:?}")))?,
                library: library.clone(),
                implementation: implementation.clone(),
                unit: unit.clone(),
                median: number(median)?,
                min: number(min)?,
                max: number(max)?,
            })
        })
        .collect()
}

/// Halite's default row at `op` and `bytes`, if any.
fn halite<'a>(rows: &'a [CsvRow], op: &str, bytes: usize) -> Option<&'a CsvRow> {
    rows.iter().find(|r| {
        r.op == op && r.bytes == bytes && r.library == "halite" && r.implementation == "default"
    })
}

/// The time one call takes at `r`'s rate, in microseconds: a message of `bytes` at MB/s, or
/// one operation at ops/s.
fn micros(r: &CsvRow) -> f64 {
    if r.unit == "MB/s" { r.bytes as f64 / r.median } else { 1e6 / r.median }
}

/// `before → after (±x%)`, `-` on the side that has no value.
fn change(before: Option<f64>, after: Option<f64>, show: impl Fn(f64) -> String) -> String {
    let side = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), &show);
    let pct = match (before, after) {
        (Some(b), Some(a)) if b > 0.0 => format!(" ({:+.1}%)", (a / b - 1.0) * 100.0),
        _ => String::new(),
    };
    format!("{} → {}{pct}", side(before), side(after))
}

/// The comparison table: a row for every op and size of `after` (in its order), then those
/// only in `before`; columns Halite's time per call in µs (negative change: faster) and, for
/// each peer in either run, Halite's rate over the peer's (positive change: Halite gained).
#[must_use]
pub fn compare(before: &[CsvRow], after: &[CsvRow]) -> Table {
    let mut cells: Vec<(&str, usize)> = Vec::new();
    let mut peers: Vec<&str> = Vec::new();
    for r in after.iter().chain(before) {
        if !cells.contains(&(r.op.as_str(), r.bytes)) {
            cells.push((&r.op, r.bytes));
        }
        if r.library != "halite" && !peers.contains(&r.library.as_str()) {
            peers.push(&r.library);
        }
    }
    let mut headers = vec!["op".to_owned(), "bytes".to_owned(), "halite µs".to_owned()];
    headers.extend(peers.iter().map(|p| format!("halite/{p}")));
    let rows = cells
        .into_iter()
        .map(|(op, bytes)| {
            let (b, a) = (halite(before, op, bytes), halite(after, op, bytes));
            let per_op = a.or(b).is_some_and(|r| r.unit == "ops/s");
            let mut row = vec![
                op.to_owned(),
                if per_op { "-".to_owned() } else { bytes.to_string() },
                change(b.map(micros), a.map(micros), short_number),
            ];
            for peer in &peers {
                let ratio = |rows: &[CsvRow], h: Option<&CsvRow>| {
                    let p = rows
                        .iter()
                        .find(|r| r.op == op && r.bytes == bytes && r.library == *peer)?;
                    Some(h?.median / p.median).filter(|r| r.is_finite())
                };
                let (rb, ra) = (ratio(before, b), ratio(after, a));
                row.push(if rb.or(ra).is_some() {
                    change(rb, ra, |r| format!("{r:.2}x"))
                } else {
                    "-".to_owned()
                });
            }
            row
        })
        .collect();
    Table { headers, rows }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::libs::Library;
    use crate::measure::Rates;
    use crate::ops::Unit;
    use crate::report::{Record, csv};
    use crate::stats::Summary;

    fn rec(op: &str, bytes: usize, library: Library, imp: &str, unit: Unit, rate: f64) -> Record {
        Record {
            op: op.into(),
            bytes,
            library,
            implementation: imp.into(),
            unit,
            cpu: Summary { median: rate, min: rate * 0.5, max: rate * 1.25 },
            wall: None,
            rounds: Rates::default(),
        }
    }

    #[test]
    fn csv_round_trip() {
        let records = [
            rec("sha256", 64, Library::Halite, "default", Unit::Bytes, 250e6),
            rec("sha256", 64, Library::OpenSsl, "OpenSSL 3.0.19", Unit::Bytes, 200e6),
            rec("odd,id", 0, Library::AwsLcRs, "say \"1\"", Unit::Ops, 40_000.0),
        ];
        let rows = parse_csv(&csv(&records)).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(
            rows[0],
            CsvRow {
                op: "sha256".into(),
                bytes: 64,
                library: "halite".into(),
                implementation: "default".into(),
                unit: "MB/s".into(),
                median: 250.0,
                min: 125.0,
                max: 312.5,
            }
        );
        assert_eq!(rows[1].library, "openssl");
        assert_eq!((rows[2].op.as_str(), rows[2].implementation.as_str()), ("odd,id", "say \"1\""));
        assert_eq!((rows[2].unit.as_str(), rows[2].median), ("ops/s", 40_000.0));
    }

    #[test]
    fn rejects_what_speed_did_not_write() {
        assert!(parse_csv("a,b,c\n").is_err());
        let header = "op,bytes,library,implementation,unit,median,min,max\n";
        assert!(parse_csv(&format!("{header}sha256,64,halite,default,MB/s,1,1\n")).is_err());
        assert!(parse_csv(&format!("{header}sha256,x,halite,default,MB/s,1,1,1\n")).is_err());
        assert!(parse_csv(&format!("{header}\"sha256,64,halite,default,MB/s,1,1,1\n")).is_err());
        assert_eq!(parse_csv(header).unwrap(), []);
    }

    /// A small fixture: SHA-256 got faster at 64 B, aws-lc-rs vanished from p256-ecdh, and
    /// an op only the baseline measured.
    const BEFORE: &str = "\
op,bytes,library,implementation,unit,median,min,max
sha256,64,halite,default,MB/s,320.000,300.000,330.000
sha256,64,openssl,OpenSSL 3.0.19,MB/s,400.000,390.000,410.000
p256-ecdh,0,halite,default,ops/s,20000.000,19000.000,21000.000
p256-ecdh,0,aws-lc-rs,1.13.0,ops/s,16000.000,15000.000,17000.000
gone,0,halite,default,ops/s,100.000,100.000,100.000
";
    const AFTER: &str = "\
op,bytes,library,implementation,unit,median,min,max
sha256,64,halite,default,MB/s,640.000,600.000,660.000
sha256,64,halite,portable,MB/s,100.000,90.000,110.000
sha256,64,openssl,OpenSSL 3.0.19,MB/s,400.000,390.000,410.000
p256-ecdh,0,halite,default,ops/s,25000.000,24000.000,26000.000
p256-ecdh,0,openssl,OpenSSL 3.0.19,ops/s,12500.000,12000.000,13000.000
";

    #[test]
    fn compares_time_and_ratios() {
        let t = compare(&parse_csv(BEFORE).unwrap(), &parse_csv(AFTER).unwrap());
        assert_eq!(t.headers, ["op", "bytes", "halite µs", "halite/openssl", "halite/aws-lc-rs"]);
        assert_eq!(t.rows.len(), 3);
        // 64 B at 320 MB/s is 0.2 µs; at 640 MB/s, 0.1 µs: half the time, twice the ratio.
        assert_eq!(
            t.rows[0],
            ["sha256", "64", "0.200 → 0.100 (-50.0%)", "0.80x → 1.60x (+100.0%)", "-"]
        );
        // 20 000 ops/s is 50 µs; 25 000 is 40 µs. openssl only after, aws-lc-rs only before.
        assert_eq!(t.rows[1], ["p256-ecdh", "-", "50.0 → 40.0 (-20.0%)", "- → 2.00x", "1.25x → -"]);
        assert_eq!(t.rows[2], ["gone", "-", "10000 → -", "-", "-"]);
    }
}
