//! OpenSSL as a peer, through the `openssl` binary: `openssl speed` runs the measurement and
//! its table is parsed; `openssl dgst`/`mac` computes the same outputs for the agreement check.
//!
//! `openssl speed` reports bytes per second of its process's user CPU time, which is the same
//! basis as the `speed` tool's main numbers; the wall-clock rate is its operation count over
//! the seconds it was asked to run.

use std::io::Write as _;
use std::process::{Command, Stdio};

use crate::ops::OpensslSpec;

/// One `openssl speed` run at one message size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpeedRun {
    /// Bytes per second of CPU time, from the table.
    pub cpu_rate: f64,
    /// Bytes per second of wall-clock time: operations × size over the seconds asked for, when
    /// the `Doing …` line was found.
    pub wall_rate: Option<f64>,
}

/// The arguments of an `openssl speed` run of `spec` at `size` bytes for `seconds`.
#[must_use]
pub fn speed_args(spec: &OpensslSpec, size: usize, seconds: u32) -> Vec<String> {
    let mut args = vec![
        "speed".to_owned(),
        "-seconds".to_owned(),
        seconds.to_string(),
        "-bytes".to_owned(),
        size.to_string(),
    ];
    args.extend(spec.speed.iter().cloned());
    args
}

/// Runs `openssl speed` for `spec` at `size` bytes.
pub fn run_speed(spec: &OpensslSpec, size: usize, seconds: u32) -> Result<SpeedRun, String> {
    let args = speed_args(spec, size, seconds);
    let out = Command::new("openssl")
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run openssl: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let table = parse_speed_table(&stdout)
        .map_err(|e| format!("`openssl {}`: {e}; it said: {}", args.join(" "), stderr.trim()))?;
    let cpu_rate = table
        .iter()
        .flat_map(|row| row.rates.iter())
        .find(|(s, _)| *s == size)
        .map(|&(_, r)| r)
        .ok_or_else(|| format!("`openssl {}` printed no rate for {size} bytes", args.join(" ")))?;
    let wall_rate = parse_doing_line(&stderr)
        .map(|doing| doing.count as f64 * size as f64 / f64::from(seconds));
    Ok(SpeedRun { cpu_rate, wall_rate })
}

/// One row of the `openssl speed` table: the algorithm and its rate at each size.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedRow {
    /// The algorithm as OpenSSL labels it (`sha256`, `hmac(sha256)`, `AES-128-GCM`).
    pub label: String,
    /// (message size in bytes, bytes per second) for each column.
    pub rates: Vec<(usize, f64)>,
}

/// Parses the table `openssl speed` prints for bulk algorithms:
///
/// ```text
/// The 'numbers' are in 1000s of bytes per second processed.
/// type           1350 bytes
/// sha256          282514.79k
/// ```
///
/// Rates are returned in bytes per second (OpenSSL's `k` is 1000 bytes).
pub fn parse_speed_table(stdout: &str) -> Result<Vec<SpeedRow>, String> {
    let mut lines = stdout.lines().skip_while(|l| !l.starts_with("type "));
    let header = lines.next().ok_or("no `type … bytes` table header")?;
    let words: Vec<&str> = header.split_whitespace().skip(1).collect();
    if words.is_empty() || !words.len().is_multiple_of(2) {
        return Err(format!("unexpected table header {header:?}"));
    }
    let sizes = words
        .chunks(2)
        .map(|pair| match pair {
            [n, "bytes"] => n.parse::<usize>().map_err(|_| format!("bad size {n:?} in {header:?}")),
            _ => Err(format!("unexpected table header {header:?}")),
        })
        .collect::<Result<Vec<usize>, String>>()?;
    let mut rows = Vec::new();
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() <= sizes.len() {
            break; // the end of the table (a blank line or another section)
        }
        let (label, values) = words.split_at(words.len() - sizes.len());
        let rates = values
            .iter()
            .zip(&sizes)
            .map(|(v, &size)| {
                let k = v.strip_suffix('k').unwrap_or(v);
                k.parse::<f64>().map(|r| (size, r * 1000.0)).map_err(|_| format!("bad rate {v:?}"))
            })
            .collect::<Result<Vec<_>, String>>()?;
        rows.push(SpeedRow { label: label.join(" "), rates });
    }
    if rows.is_empty() {
        return Err("the table has no rows".to_owned());
    }
    Ok(rows)
}

/// What `openssl speed` says on stderr as it runs:
/// `Doing sha256 for 1s on 1350 size blocks: 98357 sha256's in 0.47s`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Doing {
    /// Operations completed.
    pub count: u64,
    /// Message size in bytes.
    pub size: usize,
    /// CPU seconds they took.
    pub cpu_seconds: f64,
}

/// The last `Doing … size blocks: N …'s in Ts` line of `openssl speed`'s stderr.
#[must_use]
pub fn parse_doing_line(stderr: &str) -> Option<Doing> {
    stderr.lines().rev().find_map(|line| {
        let rest = line.strip_prefix("Doing ")?;
        let (before, after) = rest.split_once(" size blocks: ")?;
        let size = before.rsplit(' ').next()?.parse().ok()?;
        let mut words = after.split_whitespace();
        let count = words.next()?.parse().ok()?;
        let seconds = words.last()?.strip_suffix('s')?.parse().ok()?;
        Some(Doing { count, size, cpu_seconds: seconds })
    })
}

/// Runs `openssl ARGS` on `input` (an [`OpensslSpec::check`] command) and returns its output,
/// for the agreement check.
pub fn compute(args: &[String], input: &[u8]) -> Result<Vec<u8>, String> {
    let mut child = Command::new("openssl")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run openssl: {e}"))?;
    let mut stdin = child.stdin.take().expect("stdin was piped");
    let data = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().map_err(|e| format!("openssl failed: {e}"))?;
    writer.join().expect("the writer thread does not panic").map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "`openssl {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(out.stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Captured from `openssl speed -seconds 1 -bytes 1350 -evp sha256` (OpenSSL 3.0.19).
    const ONE_SIZE: &str = "\
version: 3.0.19
built on: Fri Apr  3 12:29:32 2026 UTC
options: bn(64,64)
compiler: gcc -fPIC -pthread -m64 -Wa,--noexecstack -Wall -O2 -DNDEBUG
CPUINFO: OPENSSL_ia32cap=0xfffa32034f8bffff:0x81cd19e67eb
The 'numbers' are in 1000s of bytes per second processed.
type           1350 bytes
sha256          282514.79k
";
    const ONE_SIZE_STDERR: &str =
        "Doing sha256 for 1s on 1350 size blocks: 98357 sha256's in 0.47s\n";

    /// The layout without `-bytes`: every default size, labels with parentheses and spaces.
    const ALL_SIZES: &str = "\
The 'numbers' are in 1000s of bytes per second processed.
type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes
hmac(sha256)     14542.76k    45046.82k   121473.16k   227115.90k   300010.33k   304955.73k
AES-128-GCM     402127.12k  1156304.98k  2107654.85k  2521931.26k  2629163.89k  2640000.00k

";

    #[test]
    fn parses_one_size() {
        let rows = parse_speed_table(ONE_SIZE).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].label, "sha256");
        assert_eq!(rows[0].rates.len(), 1);
        assert_eq!(rows[0].rates[0].0, 1350);
        assert!((rows[0].rates[0].1 - 282_514_790.0).abs() < 1e-3);
    }

    #[test]
    fn parses_every_size_and_row() {
        let rows = parse_speed_table(ALL_SIZES).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].label, "hmac(sha256)");
        assert_eq!(rows[1].label, "AES-128-GCM");
        let sizes: Vec<usize> = rows[1].rates.iter().map(|r| r.0).collect();
        assert_eq!(sizes, [16, 64, 256, 1024, 8192, 16384]);
        assert!((rows[0].rates[1].1 - 45_046_820.0).abs() < 1e-3);
    }

    #[test]
    fn rejects_output_without_a_table() {
        assert!(parse_speed_table("speed: no-such is an unknown cipher or digest\n").is_err());
        assert!(parse_speed_table("type 16 bytes\n").is_err());
        assert!(parse_speed_table("type 16 octets\nsha256 1.0k\n").is_err());
        assert!(parse_speed_table("type 16 bytes\nsha256 lots\n").is_err());
    }

    #[test]
    fn parses_the_doing_line() {
        let d = parse_doing_line(ONE_SIZE_STDERR).unwrap();
        assert_eq!(d, Doing { count: 98357, size: 1350, cpu_seconds: 0.47 });
        assert_eq!(parse_doing_line("nothing here\n"), None);
    }

    #[test]
    fn speed_arguments() {
        let spec = OpensslSpec { speed: vec!["-evp".into(), "sha256".into()], check: None };
        assert_eq!(speed_args(&spec, 64, 1).join(" "), "speed -seconds 1 -bytes 64 -evp sha256");
    }
}
