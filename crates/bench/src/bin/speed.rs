//! `speed`: Halite against ring, aws-lc-rs, graviola, RustCrypto, libcrux and OpenSSL in one run, like
//! `openssl speed` but comparative. Rows are operations × message sizes, columns libraries, and
//! the last column Halite's default over the best peer, computed from this run.
//!
//! `cargo run --release -p bench --bin speed -- --quick` for a first look; `--help` for the
//! op ids, the flags and how the numbers are taken.

use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bench::check::{check_in_process, check_openssl};
use bench::libs::{Library, peer_version};
use bench::measure::{Contestant, Rates, Settings, round_robin, tsc_hz};
use bench::ops::{Op, Unit, message, registry};
use bench::report::{self, Column, Metric, Record};
use bench::stats::Summary;
use bench::{compare, openssl, plot, system};
use clap::{CommandFactory as _, FromArgMatches as _, Parser};

/// The default message sizes: a tiny message, a full TLS record's worth of a typical MTU, and
/// a 16 KiB maximum-size TLS record.
const DEFAULT_SIZES: &[usize] = &[64, 1350, 16384];

/// The input of operations counted one by one (HKDF's IKM, later a message to sign).
const OPS_INPUT_LEN: usize = 32;

/// `openssl speed -seconds`: its shortest run.
const OPENSSL_SECONDS: u32 = 1;

/// With `--quick`, about the most cells in which `openssl speed` runs (a second each); past
/// this, it runs at fewer sizes per op (smallest and largest, or the middle one), so the quick
/// run stays under a minute.
const QUICK_OPENSSL_CELLS: usize = 32;

#[derive(Parser, Debug)]
#[allow(clippy::struct_excessive_bools)] // command-line switches
#[command(
    name = "speed",
    about = "Halite side by side with ring, aws-lc-rs, graviola, RustCrypto, libcrux and OpenSSL, in one run"
)]
struct Cli {
    /// A full run in under a minute: 4 ms batches, 7 rounds, and with openssl-speed one
    /// `openssl speed` run per cell (at fewer sizes when there are over 32 cells).
    #[arg(long)]
    quick: bool,
    /// Only the operations whose id matches this regular expression (e.g. `^sha(256|512)$`).
    #[arg(long, value_name = "REGEX")]
    only: Option<String>,
    /// Also measure every Halite implementation this CPU can run, each in its own column.
    #[arg(long)]
    impls: bool,
    /// Message sizes. Alone: the sweep from 16 B to 1 MiB, doubling. With a value: a
    /// comma-separated list such as `64,1350,16K,1M`. Default: 64,1350,16384. (`tls-bulk`
    /// is always measured with 1 KiB and 16 KiB records.)
    #[arg(long, value_name = "LIST", num_args = 0..=1, default_missing_value = "sweep")]
    sizes: Option<String>,
    /// Only these libraries, comma-separated, from halite, ring, aws-lc-rs, graviola,
    /// rustcrypto, libcrux, openssl, rustls-aws-lc-rs, rustls-ring, rustls-halite and
    /// openssl-speed (only measured when named here). Halite is always measured.
    #[arg(long, value_name = "LIST")]
    libs: Option<String>,
    /// Timed rounds per cell (default 11, or 7 with --quick).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    rounds: Option<u16>,
    /// Also write every measurement to FILE as CSV:
    /// op,bytes,library,implementation,unit,median,min,max.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Print the results as JSON (with wall-clock rates and cycles) instead of tables.
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// Print the tables as Markdown, for the README.
    #[arg(long)]
    markdown: bool,
    /// Also draw throughput against message size to FILE.svg, one line per library.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Also print this run against an earlier one's `--csv` file: per op and size, Halite's
    /// time per call and its ratio to each peer, before → after, with the change.
    #[arg(long, value_name = "BASELINE.csv", conflicts_with = "json")]
    compare: Option<PathBuf>,
}

fn after_help() -> String {
    let mut s = String::from("Operations (op ids, for --only and the CSV op column):\n");
    for op in registry() {
        let _ = writeln!(s, "  {:<14} {}", op.id, op.what);
    }
    s.push_str(
        "
Method:
  Before measuring, every library and every Halite implementation must give the same output
  for the same message and key as Halite's default (the run stops if not). Each library is
  warmed up and calibrated to a batch of calls taking a fixed CPU time, then timed batches are
  taken round-robin across libraries, so drift on a shared machine hits all alike; the table
  shows the median over the rounds and, after ±, how far the farther of min and max lies from
  it. Rates are per CPU-second of the measuring thread (CLOCK_THREAD_CPUTIME_ID), as
  `openssl speed` counts them; wall-clock rates are printed alongside. MB = 10^6 bytes.
  Cycles are TSC reference cycles: the TSC rate, measured against CLOCK_MONOTONIC at start-up
  (not the nominal frequency, not the turbo clock), times CPU seconds, per byte.
  openssl is OpenSSL's libcrypto linked in process (EVP digests and AEADs with contexts
  reused per key, HMAC_CTX, EVP_PKEY signatures and derivations), measured in the same rounds
  as the others. openssl-speed, only when --libs names it, is the `openssl` binary on PATH:
  `openssl speed -seconds 1 -bytes N -evp ALG`, run between rounds and parsed, a cross-check
  of the in-process column that takes no part in halite/best; graviola is left out, with a note, on CPUs it does not support.
  The tls-* rows pair each library with itself (client and server connections in the
  measuring thread, bytes moved between them in memory): Halite's `tls` crate against rustls
  on aws-lc-rs and on ring, all limited to TLS 1.3, TLS_AES_128_GCM_SHA256 and X25519; the
  agreement check compares what each negotiated. Memory per connection and two-thread scaling
  are printed by `cargo run --release -p bench --bin tls-conn`.

Columns: halite is Halite's default choice for this CPU; halite/NAME (with --impls) one named
implementation; halite/best is Halite's default over the fastest peer (above 1: Halite wins): the median over
rounds of the two rates measured in the same round.
In the CSV, implementation is `default` for Halite's default, the implementation's name for
the others, and the version for peers; median, min and max are per CPU-second.",
    );
    s
}

fn main() -> ExitCode {
    let matches = Cli::command().after_help(after_help()).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("speed: {e}");
            ExitCode::from(2)
        }
    }
}

/// Parses `--sizes`: `sweep`, or a list of sizes with optional K/M suffixes.
fn parse_sizes(arg: Option<&str>) -> Result<Vec<usize>, String> {
    let Some(arg) = arg else { return Ok(DEFAULT_SIZES.to_vec()) };
    if arg == "sweep" {
        return Ok((4..=20).map(|p| 1usize << p).collect());
    }
    let mut sizes = arg
        .split(',')
        .map(|s| {
            let s = s.trim();
            let (digits, mult) = match s.strip_suffix(['K', 'k']) {
                Some(d) => (d, 1024),
                None => match s.strip_suffix(['M', 'm']) {
                    Some(d) => (d, 1 << 20),
                    None => (s, 1),
                },
            };
            match digits.parse::<usize>() {
                Ok(n) if n > 0 && n * mult <= 1 << 26 => Ok(n * mult),
                _ => Err(format!("bad size {s:?} (1 B to 64 MiB)")),
            }
        })
        .collect::<Result<Vec<usize>, String>>()?;
    sizes.sort_unstable();
    sizes.dedup();
    Ok(sizes)
}

/// The libraries asked for and usable here, and notes on those left out.
fn libraries(arg: Option<&str>) -> Result<(Vec<Library>, Vec<String>), String> {
    let wanted: Vec<Library> = match arg {
        None => Library::ALL.into_iter().filter(|&l| l != Library::OpensslSpeed).collect(),
        Some(list) => {
            let mut v = vec![Library::Halite];
            for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                let lib = Library::from_name(name)
                    .ok_or_else(|| format!("unknown library {name:?} in --libs"))?;
                if !v.contains(&lib) {
                    v.push(lib);
                }
            }
            v
        }
    };
    let mut usable = Vec::new();
    let mut notes = Vec::new();
    for lib in wanted {
        match lib.availability() {
            Ok(()) => usable.push(lib),
            Err(why) => notes.push(format!("{lib} not measured: {why}")),
        }
    }
    Ok((usable, notes))
}

/// The progress line on stderr: redrawn in place on a terminal, a line per cell otherwise.
struct Progress {
    total: usize,
    done: usize,
    tty: bool,
    start: Instant,
}

impl Progress {
    fn new(total: usize) -> Progress {
        Progress { total, done: 0, tty: std::io::stderr().is_terminal(), start: Instant::now() }
    }

    fn show(&self, what: &str) {
        let width = 30;
        let filled = width * self.done / self.total.max(1);
        let bar = format!("{}{}", "#".repeat(filled), ".".repeat(width - filled));
        let line = format!(
            "[{bar}] {}/{} {:>4.0}s  {what}",
            self.done,
            self.total,
            self.start.elapsed().as_secs_f64()
        );
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r\x1b[K{line}");
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }

    fn finish(&self) {
        if self.tty {
            eprint!("\r\x1b[K");
        }
        eprintln!("measured {} cells in {:.1}s", self.total, self.start.elapsed().as_secs_f64());
    }
}

/// The in-process contestants of `op`: Halite's default, each named implementation when
/// asked, and each usable peer.
fn contestants(
    op: &Op,
    libs: &[Library],
    impls: bool,
    versions: &[(Library, String)],
) -> Vec<Contestant> {
    let halite = (op.halite)();
    let mut v = vec![Contestant {
        library: Library::Halite,
        implementation: "default".into(),
        runner: halite.default,
    }];
    if impls {
        v.extend(halite.impls.into_iter().map(|(name, runner)| Contestant {
            library: Library::Halite,
            implementation: name,
            runner,
        }));
    }
    for peer in op.peers.iter().filter(|p| libs.contains(&p.library)) {
        let version = versions.iter().find(|(l, _)| *l == peer.library).map(|(_, v)| v.clone());
        v.push(Contestant {
            library: peer.library,
            implementation: version.unwrap_or_default(),
            runner: (peer.make)(),
        });
    }
    v
}

/// `k` of `sizes` (sorted), spread out: all of them, the smallest and largest, or the middle.
fn pick_sizes(sizes: &[usize], k: usize) -> Vec<usize> {
    let n = sizes.len();
    match k {
        _ if k >= n => sizes.to_vec(),
        0 => Vec::new(),
        1 => vec![sizes[n / 2]],
        _ => {
            let mut v: Vec<usize> = (0..k).map(|i| sizes[i * (n - 1) / (k - 1)]).collect();
            v.dedup();
            v
        }
    }
}

/// The rounds before which `openssl speed` runs: `runs` of them, spread over `rounds`.
fn openssl_rounds(rounds: usize, runs: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..runs.min(rounds)).map(|i| i * rounds / runs.min(rounds)).collect();
    v.dedup();
    v
}

#[allow(clippy::too_many_lines)]
fn run(cli: &Cli) -> Result<(), String> {
    // Read the baseline first: a bad path should not cost a whole run.
    let baseline = match &cli.compare {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| e.to_string())
                .and_then(|text| compare::parse_csv(&text))
                .map_err(|e| format!("--compare {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut settings = if cli.quick { Settings::QUICK } else { Settings::FULL };
    if let Some(r) = cli.rounds {
        settings.rounds = r.into();
    }
    let openssl_runs = if cli.quick { 1 } else { 3 };
    let sizes = parse_sizes(cli.sizes.as_deref())?;
    let only = match &cli.only {
        Some(re) => Some(regex::Regex::new(re).map_err(|e| format!("--only: {e}"))?),
        None => None,
    };
    let ops: Vec<Op> = registry()
        .into_iter()
        .filter(|op| only.as_ref().is_none_or(|re| re.is_match(op.id)))
        .collect();
    if ops.is_empty() {
        return Err(format!(
            "no operation matches --only; the op ids are: {}",
            bench::ops::op_ids().join(", ")
        ));
    }
    let (libs, mut notes) = libraries(cli.libs.as_deref())?;
    let versions: Vec<(Library, String)> = libs.iter().map(|&l| (l, l.version())).collect();

    // Which machine, which peers.
    let tsc = tsc_hz(Duration::from_millis(50));
    let mut meta: Vec<(&str, String)> = vec![
        ("date", system::utc_date()),
        ("cpu", system::cpu_model()),
        ("logical_cpus", system::cpu_count().to_string()),
        ("halite_cpu_features", core_cpu::features().to_string()),
    ];
    let defaults: Vec<String> =
        ops.iter().map(|op| format!("{} {}", op.id, (op.halite)().default_impl)).collect();
    meta.push(("halite_defaults", defaults.join(", ")));
    let peers: Vec<String> = versions
        .iter()
        .filter(|(l, _)| *l != Library::Halite)
        .map(|(l, v)| match l {
            Library::AwsLcRs => {
                format!("{l} {v} (aws-lc-sys {})", peer_version("aws-lc-sys").unwrap_or("?"))
            }
            Library::RustCrypto => format!(
                "{l} (sha1 {}, sha2 {}, sha3 {}, ml-kem {})",
                peer_version("sha1").unwrap_or("?"),
                peer_version("sha2").unwrap_or("?"),
                peer_version("sha3").unwrap_or("?"),
                peer_version("ml-kem").unwrap_or("?")
            ),
            Library::OpenSsl | Library::OpensslSpeed => format!("{l} ({v})"),
            Library::RustlsAwsLc => format!("{l} (rustls {v} on aws-lc-rs)"),
            Library::RustlsRing => format!("{l} (rustls {v} on ring)"),
            Library::RustlsHalite => format!("{l} (rustls {v} on Halite's primitives)"),
            _ => format!("{l} {v}"),
        })
        .collect();
    meta.push(("peers", peers.join(", ")));
    meta.push((
        "tsc",
        tsc.map_or_else(|| "unavailable".to_owned(), |hz| format!("{:.3} GHz", hz / 1e9)),
    ));
    meta.push((
        "method",
        format!(
            "median of {} rounds of {} ms CPU-time batches per library, round-robin; openssl-speed: {} run(s) of `openssl speed -seconds {OPENSSL_SECONDS}`",
            settings.rounds,
            settings.batch.as_millis(),
            openssl_runs
        ),
    ));

    // Cells: bulk ops at every size, the rest (counted in operations) once.
    let cells: Vec<(&Op, usize)> = ops
        .iter()
        .flat_map(|op| {
            let at: &[usize] = match op.unit {
                Unit::Bytes => op.sizes.unwrap_or(&sizes),
                Unit::Ops => &[0],
            };
            at.iter().map(move |&size| (op, size))
        })
        .collect();
    let bulk_ops = ops.iter().filter(|op| op.unit == Unit::Bytes).count().max(1);
    let openssl_sizes = if cli.quick {
        pick_sizes(&sizes, (QUICK_OPENSSL_CELLS / bulk_ops).max(1))
    } else {
        sizes.clone()
    };
    if openssl_sizes.len() < sizes.len() && libs.contains(&Library::OpensslSpeed) {
        let at = if openssl_sizes.len() <= 3 {
            let list: Vec<String> = openssl_sizes.iter().map(ToString::to_string).collect();
            format!("{} B", list.join(" and "))
        } else {
            format!("{} of the {} sizes", openssl_sizes.len(), sizes.len())
        };
        notes.push(format!(
            "--quick: openssl-speed measured at {at} only, to keep {} cells under a minute",
            cells.len()
        ));
    }

    // Agreement first: a table of different computations is worthless.
    let mut openssl_ok: Vec<&str> = Vec::new();
    let mut disagreements = Vec::new();
    for op in &ops {
        disagreements.extend(check_in_process(op, &libs, &sizes));
        if libs.contains(&Library::OpensslSpeed) && op.openssl.is_some() {
            if op.openssl.as_ref().is_some_and(|spec| spec.check.is_none()) {
                notes.push(format!(
                    "openssl-speed's {} output is not checked: its command line has no way to compute it",
                    op.id
                ));
            }
            match check_openssl(op) {
                Ok(found) if found.is_empty() => openssl_ok.push(op.id),
                Ok(found) => disagreements.extend(found),
                Err(why) => notes.push(format!("openssl-speed not measured for {}: {why}", op.id)),
            }
        }
    }
    if !disagreements.is_empty() {
        for d in &disagreements {
            eprintln!("speed: DISAGREEMENT: {d}");
        }
        return Err(format!(
            "{} outputs disagree with Halite's; refusing to measure",
            disagreements.len()
        ));
    }
    eprintln!(
        "every library agrees with Halite on {} operation(s) over {} message lengths",
        ops.len(),
        bench::check::EDGE_LENGTHS.len() + sizes.len()
    );

    // Measure.
    let openssl_version = versions
        .iter()
        .find(|(l, _)| *l == Library::OpensslSpeed)
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let mut records = Vec::new();
    let mut progress = Progress::new(cells.len());
    for &(op, size) in &cells {
        let what =
            if op.unit == Unit::Bytes { format!("{} {size} B", op.id) } else { op.id.to_owned() };
        progress.show(&what);
        // Operations counted one by one get a fixed input (a key's worth).
        let input = message(if op.unit == Unit::Bytes { size } else { OPS_INPUT_LEN });
        let mut cs = contestants(op, &libs, cli.impls, &versions);
        let work = match op.unit {
            Unit::Bytes => f64::from(u32::try_from(size).expect("sizes are at most 64 MiB")),
            Unit::Ops => 1.0,
        };
        // Only bulk ops for now: the parser reads `openssl speed`'s bulk table.
        let spec = op.openssl.as_ref().filter(|_| {
            op.unit == Unit::Bytes && openssl_ok.contains(&op.id) && openssl_sizes.contains(&size)
        });
        let when = openssl_rounds(settings.rounds, openssl_runs);
        let mut ossl: Vec<openssl::SpeedRun> = Vec::new();
        let mut ossl_err = None;
        let rates = round_robin(&mut cs, &input, work, settings, |round| {
            if let Some(spec) = spec
                && when.contains(&round)
                && ossl_err.is_none()
            {
                progress.show(&format!("{what} (openssl speed)"));
                match openssl::run_speed(spec, size, OPENSSL_SECONDS) {
                    Ok(r) => ossl.push(r),
                    Err(e) => ossl_err = Some(e),
                }
            }
        });
        for (c, r) in cs.iter().zip(rates) {
            records.push(Record {
                op: op.id.to_owned(),
                bytes: size,
                library: c.library,
                implementation: c.implementation.clone(),
                unit: op.unit,
                cpu: Summary::of(&r.cpu).expect("at least one round"),
                wall: Summary::of(&r.wall),
                rounds: r,
            });
        }
        if let Some(e) = ossl_err {
            notes.push(format!("openssl-speed failed for {} at {size} B: {e}", op.id));
        } else if let Some(cpu) = Summary::of(&ossl.iter().map(|r| r.cpu_rate).collect::<Vec<_>>())
        {
            let walls: Option<Vec<f64>> = ossl.iter().map(|r| r.wall_rate).collect();
            records.push(Record {
                op: op.id.to_owned(),
                bytes: size,
                library: Library::OpensslSpeed,
                implementation: openssl_version.clone(),
                unit: op.unit,
                cpu,
                wall: walls.and_then(|w| Summary::of(&w)),
                rounds: Rates::default(),
            });
        }
        progress.done += 1;
    }
    progress.finish();

    // Columns: Halite's default, its implementations when asked, then every peer measured.
    let ids: Vec<&str> = ops.iter().map(|op| op.id).collect();
    let mut columns = vec![Column { library: Library::Halite, implementation: None }];
    if cli.impls {
        for r in
            records.iter().filter(|r| r.library == Library::Halite && r.implementation != "default")
        {
            let c =
                Column { library: Library::Halite, implementation: Some(r.implementation.clone()) };
            if !columns.contains(&c) {
                columns.push(c);
            }
        }
    }
    for lib in Library::ALL.into_iter().filter(|&l| l != Library::Halite) {
        if records.iter().any(|r| r.library == lib) {
            columns.push(Column { library: lib, implementation: None });
        }
    }

    if let Some(path) = &cli.csv {
        std::fs::write(path, report::csv(&records))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    if let Some(path) = &cli.plot {
        let title = format!("Halite speed, {} — {}", system::utc_date(), system::cpu_model());
        std::fs::write(path, plot::svg(&records, &ids, &columns, &title))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }

    let mut out = String::new();
    if cli.json {
        let mut encoded: Vec<(&str, String)> =
            meta.iter().map(|(k, v)| (*k, report::json_string(v))).collect();
        encoded.push(("tsc_hz", tsc.map_or_else(|| "null".to_owned(), |hz| format!("{hz:.0}"))));
        let notes: Vec<String> = notes.iter().map(|n| report::json_string(n)).collect();
        encoded.push(("notes", format!("[{}]", notes.join(", "))));
        out.push_str(&report::json(&encoded, &records, tsc));
    } else {
        let md = cli.markdown;
        let unit =
            if ops.iter().all(|op| op.unit == Unit::Bytes) { "MB/s" } else { "MB/s or ops/s" };
        for (k, v) in &meta {
            if md {
                let _ = writeln!(out, "- {k}: {v}");
            } else {
                let _ = writeln!(out, "{k:<20} {v}");
            }
        }
        for n in &notes {
            let _ = writeln!(out, "{}note: {n}", if md { "- " } else { "" });
        }
        let render = |t: &report::Table| {
            if md { report::render_markdown(t) } else { report::render_text(t) }
        };
        let mut tables = vec![(format!("{unit} per CPU-second (higher is better)"), Metric::Cpu)];
        if let Some(hz) = tsc {
            let per = if unit == "MB/s" { "per byte" } else { "per byte, or per operation" };
            tables.push((format!("cycles {per} (lower is better)"), Metric::Cycles(hz)));
        }
        if !md {
            tables.push((format!("{unit} by the wall clock"), Metric::Wall));
        }
        for (title, metric) in tables {
            out.push('\n');
            let _ = writeln!(out, "{}{title}", if md { "#### " } else { "" });
            if md {
                out.push('\n');
            }
            out.push_str(&render(&report::table(&records, &ids, &columns, metric)));
        }
        if let (Some(before), Some(path)) = (&baseline, &cli.compare) {
            let after = compare::parse_csv(&report::csv(&records))?;
            out.push('\n');
            let title = format!(
                "against {}: Halite's µs per call (lower is better) and halite/peer (higher is better), ratios of medians",
                path.display()
            );
            let _ = writeln!(out, "{}{title}", if md { "#### " } else { "" });
            if md {
                out.push('\n');
            }
            out.push_str(&render(&compare::compare(before, &after)));
        }
    }
    std::io::stdout().write_all(out.as_bytes()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_sizes(None).unwrap(), DEFAULT_SIZES);
        let sweep = parse_sizes(Some("sweep")).unwrap();
        assert_eq!((sweep[0], *sweep.last().unwrap(), sweep.len()), (16, 1 << 20, 17));
        assert_eq!(parse_sizes(Some("1350, 64,16K,1M,64")).unwrap(), [64, 1350, 16384, 1 << 20]);
        assert!(parse_sizes(Some("0")).is_err());
        assert!(parse_sizes(Some("lots")).is_err());
    }

    #[test]
    fn quick_openssl_sizes() {
        let sizes = [64, 1350, 16384];
        assert_eq!(pick_sizes(&sizes, 3), sizes);
        assert_eq!(pick_sizes(&sizes, 5), sizes);
        assert_eq!(pick_sizes(&sizes, 2), [64, 16384]);
        assert_eq!(pick_sizes(&sizes, 1), [1350]);
        let sweep: Vec<usize> = (4..=20).map(|p| 1 << p).collect();
        assert_eq!(pick_sizes(&sweep, 3), [16, 4096, 1 << 20]);
    }

    #[test]
    fn openssl_runs_are_spread_over_the_rounds() {
        assert_eq!(openssl_rounds(11, 3), [0, 3, 7]);
        assert_eq!(openssl_rounds(5, 1), [0]);
        assert_eq!(openssl_rounds(2, 3), [0, 1]);
    }

    #[test]
    fn the_cli_is_consistent() {
        Cli::command().debug_assert();
    }
}
