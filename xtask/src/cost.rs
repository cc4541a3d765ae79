//! `cargo xtask m0 --cost`: the Cortex-M0+ cost model. Builds the `m0-cost` firmware (every
//! operation between calls of a marker function), runs it on QEMU's micro:bit model with the
//! instruction-counting plugin `xtask/m0-cost/plugin/m0count.c` (built here with the host C
//! compiler), and turns the counts between marks into instructions and estimated cycles per
//! byte or per operation, with the stack depth the firmware measured by painting. Then it
//! builds one image per operation and one with none, and reports each operation's flash as
//! the difference. The table puts BearSSL's published Cortex-M0+ figures beside ours;
//! `--markdown` prints it for the README.
//!
//! The cycle model lives here rather than in the plugin: the plugin only sorts executed
//! instructions into the classes the Cortex-M0+ timing table tells apart, so the model is
//! unit-tested and the M0 timings are one switch away.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use crate::bearssl;
use crate::m0::{Binutils, M0Args, TARGET};
use crate::size;
use crate::util::{self, Report};
use crate::workspace::Workspace;

/// The firmware package.
const PACKAGE: &str = "m0-cost";
/// The Cargo profile it is measured in (the size profile: opt-level z, fat LTO).
const PROFILE: &str = "size";
/// The marker function whose first instruction the plugin watches.
const MARKER: &str = "m0_cost_mark";
/// The build-time operation selection (see `xtask/m0-cost/src/main.rs`).
const SELECT_ENV: &str = "HALITE_M0_COST_OP";
/// The plugin source, relative to the workspace root.
const PLUGIN_SOURCE: &str = "xtask/m0-cost/plugin/m0count.c";
/// The build-time RAM switch of the firmware (see `xtask/m0-cost/build.rs`), and its value for
/// the large-RAM board.
const RAM_ENV: (&str, &str) = ("HALITE_M0_COST_RAM", "128");
/// The QEMU board that large-RAM operations run on (an STM32F205 with 128 KiB of RAM, run
/// with the same `-cpu` as the micro:bit), and how the table marks their rows.
const LARGE_RAM_MACHINE: &str = "netduino2";
const LARGE_RAM_MARK: &str = " ‡";
/// The clock the speeds are quoted at, as in BearSSL's table.
const CLOCK_HZ: f64 = 48e6;

/// What a row's figures are per.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Per byte of a long message; speeds in kB/s (1 kB = 1000 bytes).
    Byte,
    /// Per operation; speeds in operations per second.
    Op,
}

/// BearSSL's published Cortex-M0+ figure at 48 MHz: kB/s or operations per second, and the
/// implementation it was measured with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bear {
    pub(crate) speed: f64,
    pub(crate) implementation: &'static str,
}

/// One row of the table: an operation id of the firmware, its label and BearSSL's figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Row {
    pub(crate) id: &'static str,
    pub(crate) label: &'static str,
    pub(crate) unit: Unit,
    pub(crate) bearssl: Option<Bear>,
}

const fn row(
    id: &'static str,
    label: &'static str,
    unit: Unit,
    bear: Option<(f64, &'static str)>,
) -> Row {
    let bearssl = match bear {
        Some((speed, implementation)) => Some(Bear { speed, implementation }),
        None => None,
    };
    Row { id, label, unit, bearssl }
}

/// Every row, in table order. A row whose id the firmware does not measure (yet) reads "not
/// yet built"; BearSSL's figures are from its speed page (Cortex-M0+ at 48 MHz).
pub(crate) const ROWS: &[Row] = &[
    row("sha256", "SHA-256", Unit::Byte, Some((320.0, "sha256"))),
    row("sha512", "SHA-512", Unit::Byte, Some((156.0, "sha512"))),
    row("sha3-256", "SHA3-256 (thumb1)", Unit::Byte, None),
    row("shake128-squeeze", "SHAKE128 output (thumb1)", Unit::Byte, None),
    row("aes128-ctr", "AES-128-CTR (thumb1)", Unit::Byte, Some((112.7, "aes_ct ctr"))),
    row("aes128-cbc-enc", "AES-128-CBC encrypt (thumb1)", Unit::Byte, None),
    row("aes128-cbc-dec", "AES-128-CBC decrypt (thumb1)", Unit::Byte, None),
    row("aes128-gcm", "AES-128-GCM seal (thumb1+thumb1)", Unit::Byte, None),
    row("chacha20", "ChaCha20 (thumb1)", Unit::Byte, Some((550.7, "chacha20_ct"))),
    row("chacha20-unaligned", "ChaCha20 (thumb1), buffer at an odd address", Unit::Byte, None),
    row("chacha20-poly1305", "ChaCha20-Poly1305 seal", Unit::Byte, None),
    row("ghash", "GHASH (thumb1)", Unit::Byte, Some((152.7, "ghash_ctmul32"))),
    row("poly1305", "Poly1305 (thumb1)", Unit::Byte, Some((522.7, "poly1305_ctmul32"))),
    row("x25519", "X25519 point mul", Unit::Op, Some((4.42, "c25519_m15"))),
    row("x25519-base", "X25519 public key (fixed base)", Unit::Op, None),
    row("fe25519-mul", "Curve25519 field mul (thumb1)", Unit::Op, None),
    row("fe25519-square", "Curve25519 field square (thumb1)", Unit::Op, None),
    row("ed25519-sign", "Ed25519 sign", Unit::Op, None),
    row("ed25519-verify", "Ed25519 verify", Unit::Op, None),
    row("p256-fe-mul", "P-256 field mul (p256_thumb1)", Unit::Op, None),
    row("p256-fe-square", "P-256 field square (p256_thumb1)", Unit::Op, None),
    row("p256-ecdh", "P-256 ECDH point mul", Unit::Op, Some((1.72, "p256_m15"))),
    row("p256-sign", "ECDSA P-256 sign", Unit::Op, None),
    row("p256-verify", "ECDSA P-256 verify", Unit::Op, None),
    row("rsa2048-public", "RSA-2048 public", Unit::Op, Some((2.22, "i15"))),
    row("rsa2048-private", "RSA-2048 private (CRT)", Unit::Op, Some((0.128, "i15"))),
    row("mlkem768-keygen", "ML-KEM-768 KeyGen (thumb1)", Unit::Op, None),
    row("mlkem768-encaps", "ML-KEM-768 Encaps (thumb1)", Unit::Op, None),
    row("mlkem768-decaps", "ML-KEM-768 Decaps (thumb1)", Unit::Op, None),
    row("mldsa44-verify", "ML-DSA-44 Verify (portable)", Unit::Op, None),
    row("mldsa65-verify", "ML-DSA-65 Verify (portable)", Unit::Op, None),
    row("mldsa44-sign", "ML-DSA-44 Sign, deterministic (portable)", Unit::Op, None),
];

/// Running instruction counts by cycle class, as the plugin prints them at each mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    /// Every instruction.
    pub(crate) insns: u64,
    /// Single-cycle instructions.
    pub(crate) alu: u64,
    /// `MULS`.
    pub(crate) mul: u64,
    /// Single loads and stores.
    pub(crate) ldst: u64,
    /// `LDM`, `STM`, `PUSH`, and `POP` without PC.
    pub(crate) multi: u64,
    /// `POP {…, PC}`.
    pub(crate) poppc: u64,
    /// Registers moved by `multi` and `poppc` instructions.
    pub(crate) regs: u64,
    /// Unconditional `B`.
    pub(crate) b: u64,
    /// Conditional branches executed.
    pub(crate) bcc: u64,
    /// Conditional branches taken.
    pub(crate) taken: u64,
    /// `BL`.
    pub(crate) bl: u64,
    /// `BX`, `BLX`.
    pub(crate) bx: u64,
    /// `ADD`/`MOV` writing PC.
    pub(crate) pcw: u64,
    /// `MRS`, `MSR`, barriers.
    pub(crate) sys: u64,
}

impl Counts {
    /// The counts from one `m0count …` line's `key=value` fields; every key must be present.
    fn parse_fields(fields: &str) -> Option<Counts> {
        let mut map = BTreeMap::new();
        for field in fields.split_whitespace() {
            let (key, value) = field.split_once('=')?;
            map.insert(key, value.parse::<u64>().ok()?);
        }
        let get = |key: &str| map.get(key).copied();
        Some(Counts {
            insns: get("insns")?,
            alu: get("alu")?,
            mul: get("mul")?,
            ldst: get("ldst")?,
            multi: get("multi")?,
            poppc: get("poppc")?,
            regs: get("regs")?,
            b: get("b")?,
            bcc: get("bcc")?,
            taken: get("taken")?,
            bl: get("bl")?,
            bx: get("bx")?,
            pcw: get("pcw")?,
            sys: get("sys")?,
        })
    }

    /// `self - earlier`, field by field; `None` if any count went down.
    pub(crate) fn since(&self, earlier: &Counts) -> Option<Counts> {
        let d = |a: u64, b: u64| a.checked_sub(b);
        Some(Counts {
            insns: d(self.insns, earlier.insns)?,
            alu: d(self.alu, earlier.alu)?,
            mul: d(self.mul, earlier.mul)?,
            ldst: d(self.ldst, earlier.ldst)?,
            multi: d(self.multi, earlier.multi)?,
            poppc: d(self.poppc, earlier.poppc)?,
            regs: d(self.regs, earlier.regs)?,
            b: d(self.b, earlier.b)?,
            bcc: d(self.bcc, earlier.bcc)?,
            taken: d(self.taken, earlier.taken)?,
            bl: d(self.bl, earlier.bl)?,
            bx: d(self.bx, earlier.bx)?,
            pcw: d(self.pcw, earlier.pcw)?,
            sys: d(self.sys, earlier.sys)?,
        })
    }
}

/// Which core's instruction timings turn counts into cycles (zero flash wait states).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Core {
    /// Cortex-M0+ (ARM DDI0484, table 3.1), single-cycle multiplier.
    M0Plus,
    /// Cortex-M0 (ARM DDI0432), single-cycle multiplier: branches cost one cycle more.
    #[cfg_attr(not(test), allow(dead_code))]
    M0,
}

impl Core {
    /// Estimated cycles for `c`.
    pub(crate) fn cycles(self, c: &Counts) -> u64 {
        let branch = match self {
            Core::M0Plus => 2,
            Core::M0 => 3,
        };
        c.alu
            + c.mul
            + 2 * c.ldst
            + c.multi
            + c.regs
            + (branch + 1) * c.poppc
            + branch * c.b
            + c.bcc
            + (branch - 1) * c.taken
            + (branch + 1) * c.bl
            + branch * (c.bx + c.pcw)
            + (branch + 1) * c.sys
    }

    /// The model, as stated under the table.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Core::M0Plus => {
                "Cortex-M0+ timings (ARM DDI0484 table 3.1), zero flash wait states: 1 cycle per \
                 instruction, except single loads/stores 2, LDM/STM/PUSH/POP 1+N, POP {..,PC} \
                 3+N, B and taken B<cond> 2, BL 3, BX/BLX and writes to PC 2, MRS/MSR/barriers \
                 3, MULS 1 (single-cycle multiplier)"
            }
            Core::M0 => {
                "Cortex-M0 timings (ARM DDI0432), zero wait states: as the M0+ but every \
                 branch one cycle more (B and taken B<cond> 3, BL 4, BX 3, POP {..,PC} 4+N)"
            }
        }
    }
}

/// The counts at each mark, from the plugin's log.
pub(crate) fn parse_marks(log: &str) -> Result<Vec<Counts>, String> {
    log.lines()
        .filter_map(|line| line.trim().strip_prefix("m0count mark "))
        .map(|rest| {
            let (_, fields) = rest.split_once(' ').unwrap_or((rest, ""));
            Counts::parse_fields(fields).ok_or_else(|| format!("bad plugin line `{rest}`"))
        })
        .collect()
}

/// One `cost <id> <bytes> <stack> <marks> ok|FAIL reason` line of the firmware.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) id: String,
    pub(crate) len: u64,
    pub(crate) stack: Option<u64>,
    pub(crate) marks: usize,
    pub(crate) failure: Option<String>,
}

/// The firmware's measurement lines, in order.
pub(crate) fn parse_runs(output: &str) -> Result<Vec<Run>, String> {
    output
        .lines()
        .filter_map(|line| line.trim().strip_prefix("cost "))
        .map(|rest| {
            let bad = || format!("bad firmware line `cost {rest}`");
            let mut fields = rest.splitn(5, ' ');
            let mut next = || fields.next().ok_or_else(bad);
            let id = next()?.to_owned();
            let len = next()?.parse().map_err(|_| bad())?;
            let stack = match next()? {
                "?" => None,
                n => Some(n.parse().map_err(|_| bad())?),
            };
            let marks = next()?.parse().map_err(|_| bad())?;
            let status = next()?;
            let failure = match status {
                "ok" => None,
                s => Some(s.strip_prefix("FAIL ").ok_or_else(bad)?.to_owned()),
            };
            Ok(Run { id, len, stack, marks, failure })
        })
        .collect()
}

/// The operations the firmware left out as too large for the micro:bit's RAM
/// (`skip <id> large-ram` lines).
pub(crate) fn parse_large_ram_skips(output: &str) -> Vec<String> {
    output
        .lines()
        .filter_map(|line| line.trim().strip_prefix("skip "))
        .filter_map(|rest| rest.strip_suffix(" large-ram"))
        .map(str::to_owned)
        .collect()
}

/// One operation's measured cost: per byte or per operation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Measured {
    pub(crate) insns: f64,
    pub(crate) cycles: f64,
    pub(crate) stack: Option<u64>,
    /// Measured on the large-RAM board, as it does not fit the micro:bit's 16 KiB.
    pub(crate) large_ram: bool,
}

/// One timed span: message length, counts between its marks, stack depth.
type Span = (u64, Counts, Option<u64>);

/// `n` as a float; instruction counts stay far below 2^52, where the conversion is exact.
#[allow(clippy::cast_precision_loss)]
fn float(n: u64) -> f64 {
    n as f64
}

/// Pairs each run with its two marks and works out every operation's cost under `core`:
/// per-operation runs minus the `overhead` calibration span, bulk runs (two lengths) as the
/// difference over the extra bytes.
pub(crate) fn measure(
    runs: &[Run],
    marks: &[Counts],
    core: Core,
) -> Result<BTreeMap<String, Measured>, String> {
    let mut spans: BTreeMap<&str, Vec<Span>> = BTreeMap::new();
    let mut at = 0;
    for run in runs {
        if let Some(why) = &run.failure {
            return Err(format!("{} failed on the firmware: {why}", run.id));
        }
        if run.marks != 2 {
            return Err(format!("{} made {} marks, not 2", run.id, run.marks));
        }
        let (Some(start), Some(end)) = (marks.get(at), marks.get(at + 1)) else {
            return Err(format!(
                "the plugin logged {} marks, fewer than the runs made",
                marks.len()
            ));
        };
        at += 2;
        let delta = end.since(start).ok_or("plugin counts went down between marks")?;
        spans.entry(&run.id).or_default().push((run.len, delta, run.stack));
    }
    if at != marks.len() {
        return Err(format!("the plugin logged {} marks but the runs made {at}", marks.len()));
    }
    let overhead = match spans.get("overhead").map(Vec::as_slice) {
        Some([(0, counts, _)]) => *counts,
        _ => return Err("no single `overhead` calibration run".into()),
    };
    let mut out = BTreeMap::new();
    for (id, runs) in &spans {
        if *id == "overhead" {
            continue;
        }
        let stack = runs.iter().filter_map(|r| r.2).max();
        let measured = match runs.as_slice() {
            [(0, counts, _)] => {
                let net = counts.since(&overhead).ok_or(format!("{id}: below the overhead"))?;
                Measured {
                    insns: float(net.insns),
                    cycles: float(core.cycles(&net)),
                    stack,
                    large_ram: false,
                }
            }
            [(short, a, _), (long, b, _)] if long > short => {
                let extra = b.since(a).ok_or(format!("{id}: the long run cost less"))?;
                let bytes = float(long - short);
                Measured {
                    insns: float(extra.insns) / bytes,
                    cycles: float(core.cycles(&extra)) / bytes,
                    stack,
                    large_ram: false,
                }
            }
            _ => return Err(format!("{id}: neither one run nor two of different lengths")),
        };
        out.insert((*id).to_owned(), measured);
    }
    Ok(out)
}

/// Our speed at [`CLOCK_HZ`]: kB/s for a per-byte figure, operations per second otherwise.
pub(crate) fn speed(unit: Unit, cycles: f64) -> f64 {
    match unit {
        Unit::Byte => CLOCK_HZ / cycles / 1000.0,
        Unit::Op => CLOCK_HZ / cycles,
    }
}

/// A number with three significant digits at most after the point, like BearSSL's table.
pub(crate) fn number(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else if x >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// A string of digits in groups of three: `3 612 480`.
pub(crate) fn grouped(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// The table: measured figures next to BearSSL's; `flash` holds each operation's flash
/// bytes over the empty image, when measured.
pub(crate) fn render(
    measured: &BTreeMap<String, Measured>,
    flash: &BTreeMap<String, u64>,
    core: Core,
    markdown: bool,
) -> String {
    let header = [
        "operation",
        "instructions",
        "est. cycles",
        "at 48 MHz",
        "stack B",
        "flash B",
        "BearSSL M0+ @48 MHz",
        "ratio",
    ];
    let mut body: Vec<[String; 8]> = Vec::new();
    for row in ROWS {
        let bear = row.bearssl.map_or_else(
            || "—".to_owned(),
            |b| match row.unit {
                Unit::Byte => format!("{} kB/s ({})", b.speed, b.implementation),
                Unit::Op => format!("{} /s ({})", b.speed, b.implementation),
            },
        );
        let Some(m) = measured.get(row.id) else {
            let missing = "not yet built".to_owned();
            body.push([
                row.label.to_owned(),
                missing.clone(),
                missing.clone(),
                missing.clone(),
                missing.clone(),
                missing.clone(),
                bear,
                "—".to_owned(),
            ]);
            continue;
        };
        let ours = speed(row.unit, m.cycles);
        let (insns, cycles, rate) = match row.unit {
            Unit::Byte => (
                format!("{:.1} /B", m.insns),
                format!("{:.1} /B", m.cycles),
                format!("{} kB/s", number(ours)),
            ),
            Unit::Op => (
                grouped(&format!("{:.0}", m.insns)),
                grouped(&format!("{:.0}", m.cycles)),
                format!("{} /s", number(ours)),
            ),
        };
        let ratio =
            row.bearssl.map_or_else(|| "—".to_owned(), |b| format!("{:.2}×", ours / b.speed));
        let mark = if m.large_ram { LARGE_RAM_MARK } else { "" };
        body.push([
            format!("{}{mark}", row.label),
            insns,
            cycles,
            rate,
            m.stack.map_or_else(|| "?".to_owned(), |s| s.to_string()),
            flash.get(row.id).map_or_else(|| "—".to_owned(), ToString::to_string),
            bear,
            ratio,
        ]);
    }
    let mut out = String::new();
    if markdown {
        let _ = writeln!(out, "| {} |", header.join(" | "));
        let align: Vec<&str> =
            header.iter().enumerate().map(|(i, _)| if i == 0 { "---" } else { "---:" }).collect();
        let _ = writeln!(out, "| {} |", align.join(" | "));
        for cells in &body {
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        let _ = writeln!(out);
    } else {
        let mut widths = header.map(|h| h.chars().count());
        for cells in &body {
            for (w, c) in widths.iter_mut().zip(cells) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (i, (c, w)) in cells.iter().zip(widths).enumerate() {
                let pad = " ".repeat(w - c.chars().count());
                let _ = if i == 0 { write!(s, "{c}{pad}") } else { write!(s, "  {pad}{c}") };
            }
            s.trim_end().to_owned()
        };
        let _ = writeln!(out, "{}", line(&header.map(str::to_owned)));
        for cells in &body {
            let _ = writeln!(out, "{}", line(cells));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "Instructions and cycles are per byte (/B: the difference between two message lengths \
         {}+ bytes apart, so fixed costs cancel) or per operation (the marker's own cost \
         subtracted). Cycles are estimated from executed-instruction counts on QEMU's Cortex-M0 \
         (micro:bit) with the {}. Real parts at 48 MHz usually add flash wait states, so these \
         are lower bounds on time. Stack: deepest use during the call (setup included), by \
         stack painting. Flash: .vector_table + .text + .rodata + .data of an image linking only \
         that operation, minus the image linking none ({PROFILE} profile), which holds the \
         harness (timing, stack painting, output), and minus the stored inputs the firmware \
         gives ML-DSA (keys, signatures and message: 3.8 KB for ML-DSA-44 verification, 5.3 KB \
         for -65; the other rows' inputs, the RSA key the largest, are counted, as in BearSSL's \
         images), so what is left is the operation's code, its tables and the libc routines it \
         calls; the firmware brings small word-copy \
         memcpy/memmove/memset in Thumb-1 assembly, of the kind the BearSSL harness's C has, \
         in place of compiler_builtins' (whose memcpy alone is about 600 B), and a panic handler \
         that prints no message, as production firmware has (panic-halt and the like), so no \
         panic message strings or locations are linked (bounds checks and their branches stay). \
         Ratio: our speed over \
         BearSSL's (above 1 is faster). kB = 1000 bytes.",
        2048,
        core.describe()
    );
    if measured.values().any(|m| m.large_ram) {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{} Needs more stack than the micro:bit's 16 KiB of RAM: measured in an image of \
             its own on QEMU's `{LARGE_RAM_MACHINE}` board (an STM32F205 with 128 KiB of RAM) \
             with the same Cortex-M0 CPU model; the stack figure is what it needs.",
            LARGE_RAM_MARK.trim()
        );
    }
    out
}

/// Options of the cost model, from `cargo xtask m0`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CostArgs {
    /// Print the table in Markdown.
    pub(crate) markdown: bool,
    /// Skip the per-operation flash images (one firmware build per operation).
    pub(crate) no_flash: bool,
    /// Also fetch, build and measure BearSSL the same way (`crate::bearssl`).
    pub(crate) bearssl: bool,
}

/// Runs the cost-model stages into `report`.
pub(crate) fn run(report: &mut Report, ws: &Workspace, m0: &M0Args, args: CostArgs) {
    let core = Core::M0Plus;
    let dir = ws.target_dir.join("xtask");
    let mut plugin = None;
    report.stage("m0 cost plugin", || {
        plugin = Some(build_plugin(ws, &dir)?);
        Ok(())
    });
    let mut elf = None;
    report.stage("m0 cost build", || {
        elf = Some(build(ws, &dir, "all")?);
        Ok(())
    });
    let (Some(plugin), Some(elf)) = (plugin, elf) else {
        report.skip("m0 cost run", "an earlier stage failed");
        return;
    };
    let mut measured = None;
    report.stage("m0 cost run", || {
        let (runs, marks, output) = run_counted(&elf, &plugin, &dir, m0)?;
        let mut table = measure(&runs, &marks, core)?;
        for id in parse_large_ram_skips(&output) {
            let elf = build_large_ram(ws, &dir, &id)?;
            let big = M0Args { machine: LARGE_RAM_MACHINE.to_owned(), ..m0.clone() };
            println!("xtask: {id} needs more RAM: measuring it on -machine {LARGE_RAM_MACHINE}");
            let (runs, marks, _) = run_counted(&elf, &plugin, &dir, &big)?;
            let mut one = measure(&runs, &marks, core)?;
            let mut m = one.remove(&id).ok_or(format!("the {id} image did not measure it"))?;
            m.large_ram = true;
            table.insert(id, m);
        }
        for id in table.keys() {
            if !ROWS.iter().any(|r| r.id == id) {
                return Err(format!("the firmware measured `{id}`, which has no row in cost.rs"));
            }
        }
        measured = Some(table);
        Ok(())
    });
    let mut bear = None;
    if args.bearssl {
        report.stage("m0 cost bearssl", || {
            bear = Some(bearssl::measure(ws, &dir, &plugin, m0, core, !args.no_flash)?);
            Ok(())
        });
    }
    let Some(measured) = measured else {
        if let Some(bear) = &bear {
            // BearSSL's figures alone are still worth printing.
            println!();
            print!("{}", bearssl::render(&BTreeMap::new(), &BTreeMap::new(), bear, args.markdown));
        }
        report.skip("m0 cost table", "the run failed");
        return;
    };
    let mut flash = BTreeMap::new();
    if args.no_flash {
        report.skip("m0 cost flash", "--no-flash");
    } else {
        report.stage("m0 cost flash", || {
            let tools = Binutils::find()?;
            let empty = flash_bytes(&tools, &build(ws, &dir, "none")?)?;
            println!("xtask: empty image: {empty} B of flash");
            for (id, m) in &measured {
                let elf =
                    if m.large_ram { build_large_ram(ws, &dir, id)? } else { build(ws, &dir, id)? };
                let bytes = flash_bytes(&tools, &elf)?;
                let inputs = input_bytes(&tools, &elf)?;
                let extra = bytes
                    .checked_sub(empty + inputs)
                    .ok_or(format!("{id}: smaller than the empty image and its inputs"))?;
                println!(
                    "xtask: {id}: {bytes} B of flash, {extra} B over the empty image and the \
                     {inputs} B of stored inputs"
                );
                flash.insert(id.clone(), extra);
            }
            Ok(())
        });
    }
    report.stage("m0 cost table", || {
        println!();
        print!("{}", render(&measured, &flash, core, args.markdown));
        if let Some(bear) = &bear {
            println!();
            print!("{}", bearssl::render(&measured, &flash, bear, args.markdown));
        }
        Ok(())
    });
}

/// Builds the plugin into `dir` unless an up-to-date copy is there.
pub(crate) fn build_plugin(ws: &Workspace, dir: &Path) -> Result<PathBuf, String> {
    let source = ws.root.join(PLUGIN_SOURCE);
    let plugin = dir.join("libm0count.so");
    let modified = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
    if modified(&plugin).zip(modified(&source)).is_some_and(|(built, src)| built > src) {
        println!("xtask: {} is up to date", plugin.display());
        return Ok(plugin);
    }
    fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let mut cmd = Command::new(cc);
    cmd.args(["-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&plugin)
        .arg(&source);
    util::run(&mut cmd)?;
    Ok(plugin)
}

/// Builds the firmware with operation selection `select` and returns a copy of the ELF
/// named after it.
/// Builds the image linking every operation (what `m0 ct-scan` disassembles besides m0-kat).
pub(crate) fn build_all(ws: &Workspace) -> Result<PathBuf, String> {
    build(ws, &ws.target_dir.join("xtask"), "all")
}

fn build(ws: &Workspace, dir: &Path, select: &str) -> Result<PathBuf, String> {
    build_with(ws, dir, select, false)
}

/// Builds the image of the one operation `id`, linked for the large-RAM board.
fn build_large_ram(ws: &Workspace, dir: &Path, id: &str) -> Result<PathBuf, String> {
    build_with(ws, dir, id, true)
}

fn build_with(
    ws: &Workspace,
    dir: &Path,
    select: &str,
    large_ram: bool,
) -> Result<PathBuf, String> {
    let mut cmd = util::cargo();
    if large_ram {
        cmd.env(RAM_ENV.0, RAM_ENV.1);
    } else {
        cmd.env_remove(RAM_ENV.0);
    }
    cmd.env(SELECT_ENV, select).args([
        "build",
        "-p",
        PACKAGE,
        "--target",
        TARGET,
        "--profile",
        PROFILE,
    ]);
    util::run(&mut cmd)?;
    let built = ws.target_dir.join(TARGET).join(PROFILE).join(PACKAGE);
    fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let suffix = if large_ram { "-large-ram" } else { "" };
    let copy = dir.join(format!("{PACKAGE}-{select}{suffix}.elf"));
    fs::copy(&built, &copy)
        .map_err(|e| format!("copying {} to {}: {e}", built.display(), copy.display()))?;
    Ok(copy)
}

/// The address of `symbol` in `elf`, from `nm`.
fn symbol_address(tools: &Binutils, elf: &Path, symbol: &str) -> Result<u64, String> {
    let listing = util::output(Command::new(&tools.nm).arg(elf))?;
    find_symbol(&listing, symbol).ok_or_else(|| format!("no `{symbol}` in {}", elf.display()))
}

/// The address of `symbol` in `nm` output (`addr type name`, hexadecimal).
pub(crate) fn find_symbol(listing: &str, symbol: &str) -> Option<u64> {
    listing.lines().find_map(|line| {
        let mut fields = line.split_whitespace();
        let (addr, _kind, name) = (fields.next()?, fields.next()?, fields.next()?);
        (name == symbol).then(|| u64::from_str_radix(addr, 16).ok()).flatten()
    })
}

/// QEMU running `elf` with semihosting and the counting plugin watching the function
/// `marker`, logging to `log` (removed first: QEMU appends to an existing log).
pub(crate) fn counted_qemu(
    elf: &Path,
    marker: &str,
    plugin: &Path,
    log: &Path,
    m0: &M0Args,
) -> Result<Command, String> {
    let mark = symbol_address(&Binutils::find()?, elf, marker)?;
    let _ = fs::remove_file(log);
    let mut cmd = Command::new("qemu-system-arm");
    cmd.args(["-cpu", &m0.cpu, "-machine", &m0.machine, "-nographic"])
        .args(["-semihosting-config", "enable=on,target=native"])
        .arg("-plugin")
        .arg(format!("{},mark={mark:#x}", plugin.display()))
        .args(["-d", "plugin", "-D"])
        .arg(log)
        .arg("-kernel")
        .arg(elf);
    Ok(cmd)
}

/// Runs `elf` under QEMU with the counting plugin; returns the firmware's runs, the marks and
/// its output.
pub(crate) fn run_counted(
    elf: &Path,
    plugin: &Path,
    dir: &Path,
    m0: &M0Args,
) -> Result<(Vec<Run>, Vec<Counts>, String), String> {
    let log = dir.join("m0-cost-plugin.log");
    let mut cmd = counted_qemu(elf, MARKER, plugin, &log, m0)?;
    let started = SystemTime::now();
    let run = util::run_captured(&mut cmd, Duration::from_secs(m0.timeout))?;
    match run.status.and_then(|s| s.code()) {
        Some(0) => {}
        None => return Err("QEMU timed out or was killed".into()),
        Some(code) => return Err(format!("the firmware exited with status {code}")),
    }
    let fresh = fs::metadata(&log)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= started - Duration::from_secs(1));
    if !fresh {
        return Err(format!("the plugin wrote no log at {}", log.display()));
    }
    let text = fs::read_to_string(&log).map_err(|e| format!("reading {}: {e}", log.display()))?;
    Ok((parse_runs(&run.output)?, parse_marks(&text)?, run.output))
}

/// Where the firmware keeps the known-answer inputs that are left out of an operation's flash
/// figure (`xtask/m0-cost/src/ops.rs`): the data it is given, not its code.
const INPUTS_MODULE: &str = "m0_cost::ops::inputs::";

/// Bytes of the firmware's stored inputs ([`INPUTS_MODULE`]) in `elf`, from `nm`.
fn input_bytes(tools: &Binutils, elf: &Path) -> Result<u64, String> {
    let listing = util::output(Command::new(&tools.nm).args(["-S", "-C"]).arg(elf))?;
    Ok(inputs_size(&listing))
}

/// The total size of the [`INPUTS_MODULE`] symbols in `nm -S -C` output (`addr size type
/// name`, hexadecimal).
fn inputs_size(listing: &str) -> u64 {
    listing
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let (_addr, size, _kind) = (fields.next()?, fields.next()?, fields.next()?);
            let name = fields.next()?;
            name.starts_with(INPUTS_MODULE).then(|| u64::from_str_radix(size, 16).ok()).flatten()
        })
        .sum()
}

/// Flash bytes of `elf`: `.vector_table + .text + .rodata + .data`.
pub(crate) fn flash_bytes(tools: &Binutils, elf: &Path) -> Result<u64, String> {
    let sections =
        size::parse_sections(&util::output(Command::new(&tools.size).arg("-A").arg(elf))?);
    Ok(sections
        .iter()
        .filter(|s| [".vector_table", ".text", ".rodata", ".data"].contains(&s.name.as_str()))
        .map(|s| s.size)
        .sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts with `insns` single-cycle instructions and the given extras.
    fn counts(insns: u64) -> Counts {
        Counts { insns, alu: insns, ..Counts::default() }
    }

    #[test]
    fn cycle_model_follows_the_timing_tables() {
        let one_each = Counts {
            insns: 12,
            alu: 1,
            mul: 1,
            ldst: 1,
            multi: 1,
            poppc: 1,
            regs: 5, // e.g. PUSH {r4-r6} and POP {r4, r5, pc}
            b: 1,
            bcc: 2,
            taken: 1,
            bl: 1,
            bx: 1,
            pcw: 1,
            sys: 1,
        };
        // M0+: 1 + 1 + 2 + (1 + 3 + 5) + 2 + (1 + 2) + 3 + 2 + 2 + 3.
        assert_eq!(Core::M0Plus.cycles(&one_each), 28);
        // M0: one more for each of B, taken B<cond>, BL, BX, PC write, POP {pc}, MRS/MSR.
        assert_eq!(Core::M0.cycles(&one_each), 35);
        assert_eq!(Core::M0Plus.cycles(&counts(100)), 100);
        let loads = Counts { insns: 10, ldst: 10, ..Counts::default() };
        assert_eq!(Core::M0Plus.cycles(&loads), 20, "loads and stores take 2");
        let not_taken = Counts { insns: 4, bcc: 4, ..Counts::default() };
        assert_eq!(Core::M0Plus.cycles(&not_taken), 4, "untaken branches take 1");
        assert!(Core::M0Plus.describe().contains("zero flash wait states"));
    }

    const LOG: &str = "\
m0count mark 0 insns=100 alu=60 mul=0 ldst=20 multi=5 poppc=1 b=4 bcc=8 bl=1 bx=1 pcw=0 sys=0 regs=12 taken=3
m0count mark 1 insns=104 alu=62 mul=0 ldst=20 multi=5 poppc=1 b=4 bcc=8 bl=2 bx=2 pcw=0 sys=0 regs=12 taken=3
m0count mark 2 insns=154 alu=112 mul=0 ldst=20 multi=5 poppc=1 b=4 bcc=8 bl=2 bx=2 pcw=0 sys=0 regs=12 taken=3
m0count mark 3 insns=1154 alu=1110 mul=0 ldst=20 multi=5 poppc=1 b=4 bcc=8 bl=3 bx=3 pcw=0 sys=0 regs=12 taken=3
m0count mark 4 insns=1204 alu=1160 mul=0 ldst=20 multi=5 poppc=1 b=4 bcc=8 bl=3 bx=3 pcw=0 sys=0 regs=12 taken=3
m0count mark 5 insns=1404 alu=1360 mul=0 ldst=20 multi=5 poppc=1 b=4 bcc=8 bl=3 bx=3 pcw=0 sys=0 regs=12 taken=3
m0count mark 6 insns=1454 alu=1410 mul=0 ldst=20 multi=5 poppc=1 b=4 bcc=8 bl=3 bx=3 pcw=0 sys=0 regs=12 taken=3
m0count mark 7 insns=2454 alu=2410 mul=0 ldst=20 multi=5 poppc=1 b=4 bcc=8 bl=3 bx=3 pcw=0 sys=0 regs=12 taken=3
m0count mark 8 insns=2504 alu=2460 mul=0 ldst=20 multi=5 poppc=1 b=4 bcc=8 bl=3 bx=3 pcw=0 sys=0 regs=12 taken=3
m0count mark 9 insns=2508 alu=2462 mul=0 ldst=20 multi=5 poppc=1 b=4 bcc=8 bl=4 bx=4 pcw=0 sys=0 regs=12 taken=3
m0count exit insns=2515 alu=2469 mul=0 ldst=20 multi=5 poppc=1 b=4 bcc=8 bl=4 bx=4 pcw=0 sys=0 regs=12 taken=3
";

    const OUTPUT: &str = "\
cost overhead 0 64 2 ok
cost x25519 0 3228 2 ok
cost sha256 512 500 2 ok
cost sha256 2560 576 2 ok
m0-cost: 4 measured, 0 failed
";

    #[test]
    fn parses_plugin_and_firmware_lines() {
        let marks = parse_marks(LOG).unwrap();
        assert_eq!(marks.len(), 10, "the exit line is not a mark");
        assert_eq!((marks[1].insns, marks[1].bl, marks[1].taken, marks[1].regs), (104, 2, 3, 12));
        assert_eq!(marks[3].since(&marks[2]).map(|d| d.insns), Some(1000));
        assert!(parse_marks("m0count mark 0 insns=1 alu=1\n").is_err(), "missing classes");
        assert!(parse_marks("m0count mark 0 insns=x alu=1\n").is_err());
        let runs = parse_runs(OUTPUT).unwrap();
        assert_eq!(runs.len(), 4);
        assert_eq!(
            runs[3],
            Run { id: "sha256".into(), len: 2560, stack: Some(576), marks: 2, failure: None }
        );
        let failed = parse_runs("cost x25519 0 ? 2 FAIL wrong X25519 output\n").unwrap();
        assert_eq!(
            (failed[0].stack, failed[0].failure.as_deref()),
            (None, Some("wrong X25519 output"))
        );
        assert!(parse_runs("cost x25519 0 ? 2 maybe\n").is_err());
        assert!(parse_runs("cost x25519 zero ? 2 ok\n").is_err());
        let skips = "cost overhead 0 64 2 ok\nskip rsa2048-private large-ram\nskip x maybe\n";
        assert_eq!(parse_large_ram_skips(skips), ["rsa2048-private"]);
    }

    #[test]
    fn stored_inputs_are_the_inputs_module_symbols() {
        let listing = "00002a38 00000520 r m0_cost::ops::inputs::MLDSA44_PK\n\
                       00002f58 00000974 r m0_cost::ops::inputs::MLDSA44_SIG\n\
                       00001000 00000100 t m0_cost::ops::mldsa44_verify\n\
                       20000000 R __edata\n";
        assert_eq!(inputs_size(listing), 1312 + 2420);
        assert_eq!(inputs_size(""), 0);
    }

    #[test]
    fn per_byte_is_the_difference_and_per_op_drops_the_overhead() {
        let marks = parse_marks(LOG).unwrap();
        let runs = parse_runs(OUTPUT).unwrap();
        let table = measure(&runs[..3], &marks[..6], Core::M0Plus);
        assert!(table.is_err(), "runs and marks out of step: {table:?}");
        let mut runs = runs;
        runs.push(Run { id: "empty".into(), len: 0, stack: None, marks: 2, failure: None });
        let table = measure(&runs, &marks, Core::M0Plus).unwrap();
        assert!(!table.contains_key("overhead"));
        // x25519: 1000 instructions (1 BL, 1 BX among them) minus the overhead (2 ALU, 1 BL,
        // 1 BX): 996 ALU instructions, all single-cycle.
        let x = &table["x25519"];
        assert_eq!((x.insns, x.cycles, x.stack), (996.0, 996.0, Some(3228)));
        // sha256: (1000 - 200) instructions over 2048 more bytes; deepest stack of the two.
        let s = &table["sha256"];
        assert_eq!((s.insns, s.cycles, s.stack), (800.0 / 2048.0, 800.0 / 2048.0, Some(576)));
        // A span equal to the overhead costs nothing.
        assert!(table["empty"].insns.abs() < f64::EPSILON);
    }

    #[test]
    fn failures_and_bad_spans_are_errors() {
        let marks = parse_marks(LOG).unwrap();
        let mut runs = parse_runs(OUTPUT).unwrap();
        runs[1].failure = Some("wrong".into());
        assert!(measure(&runs, &marks[..6], Core::M0Plus).unwrap_err().contains("x25519 failed"));
        let runs = parse_runs("cost overhead 0 64 2 ok\ncost sha256 512 1 2 ok\n").unwrap();
        let err = measure(&runs, &marks[..4], Core::M0Plus).unwrap_err();
        assert!(err.contains("neither one run nor two"), "{err}");
        let runs = parse_runs("cost sha256 0 1 2 ok\n").unwrap();
        assert!(measure(&runs, &marks[..2], Core::M0Plus).unwrap_err().contains("overhead"));
        let runs = parse_runs("cost overhead 0 64 1 ok\n").unwrap();
        assert!(measure(&runs, &marks[..2], Core::M0Plus).unwrap_err().contains("1 marks"));
    }

    #[test]
    fn speeds_at_48_mhz() {
        // 150 cycles per byte at 48 MHz is 320 kB/s; 10.86 M cycles is 4.42 operations/s.
        assert!((speed(Unit::Byte, 150.0) - 320.0).abs() < 1e-9);
        assert!((speed(Unit::Op, 48e6 / 4.42) - 4.42).abs() < 1e-9);
    }

    #[test]
    fn finds_the_marker_in_nm_output() {
        let nm = "0000665c T m0_cost_mark\n00000100 t m0_cost_mark_x\n         U undefined\n";
        assert_eq!(find_symbol(nm, "m0_cost_mark"), Some(0x665c));
        assert_eq!(find_symbol(nm, "nothing"), None);
    }

    #[test]
    fn rows_are_unique_and_bearssl_figures_present() {
        for (i, row) in ROWS.iter().enumerate() {
            assert!(ROWS[..i].iter().all(|r| r.id != row.id), "duplicate {}", row.id);
        }
        let bear = ROWS.iter().filter(|r| r.bearssl.is_some()).count();
        assert_eq!(bear, 10, "every figure of BearSSL's table has a row");
    }

    #[test]
    fn table_formatting() {
        let mut measured = BTreeMap::new();
        measured.insert(
            "sha256".to_owned(),
            Measured { insns: 123.31, cycles: 150.0, stack: Some(576), large_ram: false },
        );
        measured.insert(
            "x25519".to_owned(),
            Measured { insns: 3_000_000.0, cycles: 48e6 / 8.84, stack: None, large_ram: false },
        );
        measured.insert(
            "rsa2048-private".to_owned(),
            Measured { insns: 1e8, cycles: 48e7, stack: Some(90_000), large_ram: true },
        );
        let flash = BTreeMap::from([("sha256".to_owned(), 1234)]);
        let text = render(&measured, &flash, Core::M0Plus, false);
        let line = |label: &str| text.lines().find(|l| l.starts_with(label)).unwrap().to_owned();
        let sha = line("SHA-256 ");
        for cell in
            ["123.3 /B", "150.0 /B", "320 kB/s", "576", "1234", "320 kB/s (sha256)", "1.00×"]
        {
            assert!(sha.contains(cell), "{cell} missing from `{sha}`");
        }
        let x = line("X25519 point mul");
        for cell in ["3 000 000", "5 429 864", "8.84 /s", "?", "4.42 /s (c25519_m15)", "2.00×"] {
            assert!(x.contains(cell), "{cell} missing from `{x}`");
        }
        assert!(line("SHA-512").contains("not yet built"));
        let rsa = line("RSA-2048 private (CRT) ‡");
        for cell in ["100 000 000", "0.100 /s", "90000", "0.128 /s (i15)", "0.78×"] {
            assert!(rsa.contains(cell), "{cell} missing from `{rsa}`");
        }
        assert!(line("RSA-2048 public").contains("not yet built"));
        assert!(text.contains("‡ Needs more stack than the micro:bit's 16 KiB"));
        assert!(text.contains(Core::M0Plus.describe()));
        let md = render(&measured, &flash, Core::M0Plus, true);
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
        assert_eq!(rows.len(), 2 + ROWS.len());
        assert!(rows[1].starts_with("| --- | ---: |"));
        assert!(rows.iter().all(|r| r.matches(" | ").count() == 7), "8 columns everywhere");
        assert!(md.contains("| SHA-256 | 123.3 /B | 150.0 /B | 320 kB/s | 576 | 1234 |"), "{md}");
    }

    #[test]
    fn command_line_flags() {
        use clap::Parser;
        let cli = crate::Cli::try_parse_from(["xtask", "m0", "--cost", "--markdown"]).unwrap();
        let crate::Task::M0(args) = cli.task else { panic!("not m0") };
        assert!(args.cost && args.markdown && !args.no_flash);
        assert!(crate::Cli::try_parse_from(["xtask", "m0", "--markdown"]).is_err(), "needs --cost");
        assert!(crate::Cli::try_parse_from(["xtask", "m0", "--no-flash"]).is_err(), "needs --cost");
        let cli = crate::Cli::try_parse_from(["xtask", "m0", "--cost", "--bearssl"]).unwrap();
        let crate::Task::M0(args) = cli.task else { panic!("not m0") };
        assert!(args.cost && args.bearssl && !args.markdown);
        assert!(crate::Cli::try_parse_from(["xtask", "m0", "--bearssl"]).is_err(), "needs --cost");
        let cli = crate::Cli::try_parse_from(["xtask", "ci", "--skip", "m0-cost"]).unwrap();
        let crate::Task::Ci(args) = cli.task else { panic!("not ci") };
        assert_eq!(args.skip, [crate::ci::Stage::M0Cost]);
    }

    #[test]
    fn numbers_and_groups() {
        assert_eq!(grouped("0"), "0");
        assert_eq!(grouped("999"), "999");
        assert_eq!(grouped("1000"), "1 000");
        assert_eq!(grouped("19329569"), "19 329 569");
        assert_eq!(
            (number(281.4), number(52.64), number(2.478), number(0.1281)),
            ("281".to_owned(), "52.6".to_owned(), "2.48".to_owned(), "0.128".to_owned())
        );
    }
}
