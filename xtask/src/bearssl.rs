//! `cargo xtask m0 --cost --bearssl`: BearSSL measured beside Halite with the same method.
//! Fetches BearSSL's source with `apt-get source bearssl` into `target/bearssl` (it is not
//! kept in the repository), builds the pieces its published Cortex-M0+ table names with
//! `arm-none-eabi-gcc -mcpu=cortex-m0plus -mthumb -Os` (and `BR_ARMEL_CORTEXM_GCC`, its own
//! switch for low-end Cortex-M), links them into the harness `xtask/m0-cost/bearssl/harness.c`,
//! and runs that under the same counting plugin and cycle model as the Rust firmware. Flash is
//! measured as for Halite: one image per operation minus the image with none.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cost::{self, Core, Measured, ROWS, Unit};
use crate::m0::{Binutils, M0Args};
use crate::pkcs8::rsa_integers;
use crate::util::{self, Need};
use crate::workspace::Workspace;

/// The harness, its linker script and libc header shim, relative to the workspace root.
const HARNESS_DIR: &str = "xtask/m0-cost/bearssl";
/// core-rsa's RSA-2048 test key and signature, the ones the Rust firmware uses.
const RSA_PKCS8: &str = "crates/core-rsa/tests/data/rsa2048_e65537.pkcs8.der";
const RSA_SIG: &str = "crates/core-rsa/tests/data/rsa2048_e65537.sha256.sig";
/// BearSSL's source directories the measured code lives in.
const SOURCE_DIRS: &[&str] = &["hash", "symcipher", "ec", "rsa", "int", "codec"];
/// The C compiler and archiver (Debian: gcc-arm-none-eabi, binutils-arm-none-eabi).
const CC: &str = "arm-none-eabi-gcc";
const AR: &str = "arm-none-eabi-ar";
/// Code generation, for BearSSL and the harness alike.
const CFLAGS: &[&str] = &[
    "-mcpu=cortex-m0plus",
    "-mthumb",
    "-Os",
    "-ffunction-sections",
    "-fdata-sections",
    "-DBR_ARMEL_CORTEXM_GCC=1",
];
/// Where a deb-src entry is written when apt has none (Debian bookworm, main).
const DEB_SRC_FILE: &str = "/etc/apt/sources.list.d/halite-debian-src.sources";
const DEB_SRC: &str = "Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\n\
                       Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n";

/// What `--bearssl` needs beyond `m0`'s tools.
pub(crate) fn needs() -> Vec<Need> {
    vec![
        Need::Command(CC, "gcc-arm-none-eabi"),
        Need::Command(AR, "binutils-arm-none-eabi"),
        // `apt-get source` unpacks with dpkg-source.
        Need::Command("dpkg-source", "dpkg-dev"),
    ]
}

/// BearSSL's figures: measured costs, and flash bytes over the empty image when `flash`.
pub(crate) struct BearMeasured {
    pub(crate) measured: BTreeMap<String, Measured>,
    pub(crate) flash: BTreeMap<String, u64>,
}

/// Fetches, builds and measures BearSSL under `plugin`; `dir` is xtask's target directory.
pub(crate) fn measure(
    ws: &Workspace,
    dir: &Path,
    plugin: &Path,
    m0: &M0Args,
    core: Core,
    flash: bool,
) -> Result<BearMeasured, String> {
    let work = ws.target_dir.join("bearssl");
    fs::create_dir_all(&work).map_err(|e| format!("creating {}: {e}", work.display()))?;
    let source = fetch(&work)?;
    println!("xtask: BearSSL source at {}", source.display());
    let lib = build_library(&source, &work)?;
    write_rsa_header(ws, &work)?;
    let all = build_image(ws, &source, &work, &lib, "all")?;
    let (runs, marks, _) = cost::run_counted(&all, plugin, dir, m0)?;
    let measured = cost::measure(&runs, &marks, core)?;
    let mut bytes = BTreeMap::new();
    if flash {
        let tools = Binutils::find()?;
        let empty = cost::flash_bytes(&tools, &build_image(ws, &source, &work, &lib, "none")?)?;
        println!("xtask: BearSSL empty image: {empty} B of flash");
        for id in measured.keys() {
            let elf = build_image(ws, &source, &work, &lib, id)?;
            let total = cost::flash_bytes(&tools, &elf)?;
            let extra = total.checked_sub(empty).ok_or(format!("{id}: smaller than empty"))?;
            println!("xtask: BearSSL {id}: {total} B of flash, {extra} B over the empty image");
            bytes.insert(id.clone(), extra);
        }
    }
    Ok(BearMeasured { measured, flash: bytes })
}

/// The unpacked source tree under `work`, fetched with `apt-get source` unless already there.
fn fetch(work: &Path) -> Result<PathBuf, String> {
    if let Some(found) = unpacked(work) {
        return Ok(found);
    }
    let apt_source = || {
        let mut cmd = Command::new("apt-get");
        cmd.current_dir(work).args(["source", "-q", "bearssl"]);
        util::run(&mut cmd)
    };
    if let Err(first) = apt_source() {
        // Most often: no deb-src entry. Add Debian's and try once more.
        if Path::new(DEB_SRC_FILE).exists() {
            return Err(first);
        }
        println!("xtask: `apt-get source` failed ({first}); adding {DEB_SRC_FILE}");
        fs::write(DEB_SRC_FILE, DEB_SRC).map_err(|e| format!("writing {DEB_SRC_FILE}: {e}"))?;
        util::run(Command::new("apt-get").args(["update", "-q"]))?;
        apt_source()?;
    }
    unpacked(work).ok_or_else(|| format!("no bearssl-*/inc/bearssl.h under {}", work.display()))
}

fn unpacked(work: &Path) -> Option<PathBuf> {
    let mut trees: Vec<PathBuf> = fs::read_dir(work)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("bearssl-"))
                && p.join("inc/bearssl.h").is_file()
        })
        .collect();
    trees.sort();
    trees.pop()
}

/// Compiles [`SOURCE_DIRS`] into `work/libbearssl.a` (the linker keeps what is used).
fn build_library(source: &Path, work: &Path) -> Result<PathBuf, String> {
    let lib = work.join("libbearssl.a");
    if lib.is_file() {
        println!("xtask: {} is built", lib.display());
        return Ok(lib);
    }
    let objects = work.join("obj");
    fs::create_dir_all(&objects).map_err(|e| format!("creating {}: {e}", objects.display()))?;
    for sub in SOURCE_DIRS {
        let dir = source.join("src").join(sub);
        let mut files: Vec<PathBuf> = fs::read_dir(&dir)
            .map_err(|e| format!("reading {}: {e}", dir.display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        files.sort();
        let mut cmd = Command::new(CC);
        cmd.current_dir(&objects)
            .args(CFLAGS)
            .arg("-I")
            .arg(harness_include())
            .arg("-I")
            .arg(source.join("inc"))
            .arg("-I")
            .arg(source.join("src"))
            .arg("-c")
            .args(&files);
        util::run(&mut cmd)?;
    }
    let mut objs: Vec<PathBuf> = fs::read_dir(&objects)
        .map_err(|e| format!("reading {}: {e}", objects.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "o"))
        .collect();
    objs.sort();
    let partial = work.join("libbearssl.a.partial");
    let _ = fs::remove_file(&partial);
    util::run(Command::new(AR).arg("rcs").arg(&partial).args(&objs))?;
    fs::rename(&partial, &lib).map_err(|e| format!("renaming to {}: {e}", lib.display()))?;
    Ok(lib)
}

fn harness_include() -> PathBuf {
    util::workspace_root().join(HARNESS_DIR).join("include")
}

/// The harness's preprocessor switch for operation `id` (`aes128-ctr` → `OP_AES128_CTR`).
pub(crate) fn op_macro(id: &str) -> String {
    format!("OP_{}", id.to_ascii_uppercase().replace('-', "_"))
}

/// Links the harness with operation selection `select` (`all`, `none` or an id).
fn build_image(
    ws: &Workspace,
    source: &Path,
    work: &Path,
    lib: &Path,
    select: &str,
) -> Result<PathBuf, String> {
    let harness = ws.root.join(HARNESS_DIR);
    let elf = work.join(format!("bearssl-{select}.elf"));
    let mut cmd = Command::new(CC);
    cmd.args(CFLAGS).args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-fno-builtin"]);
    if select != "none" {
        cmd.arg(format!("-D{}", op_macro(select)));
    }
    cmd.arg("-I")
        .arg(harness.join("include"))
        .arg("-I")
        .arg(source.join("inc"))
        .arg("-I")
        .arg(work)
        .args(["-nostdlib", "-nostartfiles", "-Wl,--gc-sections", "-T"])
        .arg(harness.join("link.ld"))
        .arg(harness.join("harness.c"))
        .arg(lib)
        .arg("-lgcc")
        .arg("-o")
        .arg(&elf);
    util::run(&mut cmd)?;
    Ok(elf)
}

/// Writes `work/rsa_key.h`: core-rsa's RSA-2048 test key as BearSSL's structures want it.
fn write_rsa_header(ws: &Workspace, work: &Path) -> Result<(), String> {
    let read = |rel: &str| {
        let path = ws.root.join(rel);
        fs::read(&path).map_err(|e| format!("reading {}: {e}", path.display()))
    };
    let pkcs8 = read(RSA_PKCS8)?;
    let ints = rsa_integers(&pkcs8).ok_or("cannot parse the RSA PKCS#8 key")?;
    let sig = read(RSA_SIG)?;
    let mut out = String::from("/* Generated by cargo xtask m0 --cost --bearssl. */\n");
    // RSAPrivateKey: version, n, e, d, p, q, dp, dq, qinv.
    let names = [(1, "RSA_N"), (2, "RSA_E"), (4, "RSA_P"), (5, "RSA_Q")];
    let more = [(6, "RSA_DP"), (7, "RSA_DQ"), (8, "RSA_IQ")];
    for (i, name) in names.iter().chain(&more) {
        c_array(&mut out, name, ints[*i]);
    }
    c_array(&mut out, "RSA_SIG", &sig);
    let path = work.join("rsa_key.h");
    fs::write(&path, out).map_err(|e| format!("writing {}: {e}", path.display()))
}

fn c_array(out: &mut String, name: &str, bytes: &[u8]) {
    let _ = write!(out, "static const unsigned char {name}[{}] = {{", bytes.len());
    for (i, b) in bytes.iter().enumerate() {
        let _ = write!(out, "{}{b:#04x}", if i % 16 == 0 { "\n\t" } else { " " });
        out.push(',');
    }
    out.push_str("\n};\n");
}

/// Halite and BearSSL side by side, on the rows BearSSL's published table has.
pub(crate) fn render(
    halite: &BTreeMap<String, Measured>,
    halite_flash: &BTreeMap<String, u64>,
    bear: &BearMeasured,
    markdown: bool,
) -> String {
    let header = [
        "operation",
        "Halite cycles",
        "BearSSL cycles",
        "speed ratio",
        "Halite flash B",
        "BearSSL flash B",
        "Halite stack B",
        "BearSSL stack B",
        "BearSSL @48 MHz: measured (published)",
    ];
    let cycles = |unit: Unit, m: Option<&Measured>| match (unit, m) {
        (_, None) => "—".to_owned(),
        (Unit::Byte, Some(m)) => format!("{:.1} /B", m.cycles),
        (Unit::Op, Some(m)) => cost::grouped(&format!("{:.0}", m.cycles)),
    };
    let opt = |v: Option<u64>| v.map_or_else(|| "—".to_owned(), |v| v.to_string());
    let mut body = Vec::new();
    for row in ROWS {
        let Some(published) = row.bearssl else { continue };
        let (h, b) = (halite.get(row.id), bear.measured.get(row.id));
        let ratio = match (h, b) {
            (Some(h), Some(b)) => format!("{:.2}×", b.cycles / h.cycles),
            _ => "—".to_owned(),
        };
        let unit = match row.unit {
            Unit::Byte => "kB/s",
            Unit::Op => "/s",
        };
        let speeds = b.map_or_else(
            || format!("— ({} {unit})", published.speed),
            |b| {
                let ours = cost::number(cost::speed(row.unit, b.cycles));
                format!("{ours} {unit} ({} {unit}, {})", published.speed, published.implementation)
            },
        );
        body.push([
            row.label.to_owned(),
            cycles(row.unit, h),
            cycles(row.unit, b),
            ratio,
            opt(halite_flash.get(row.id).copied()),
            opt(bear.flash.get(row.id).copied()),
            opt(h.and_then(|m| m.stack)),
            opt(b.and_then(|m| m.stack)),
            speeds,
        ]);
    }
    let mut out = String::new();
    if markdown {
        let _ = writeln!(out, "| {} |", header.join(" | "));
        let align: Vec<&str> =
            (0..header.len()).map(|i| if i == 0 { "---" } else { "---:" }).collect();
        let _ = writeln!(out, "| {} |", align.join(" | "));
        for cells in &body {
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
    } else {
        let mut widths = header.map(|h| h.chars().count());
        for cells in &body {
            for (w, c) in widths.iter_mut().zip(cells) {
                *w = (*w).max(c.chars().count());
            }
        }
        for cells in std::iter::once(&header.map(str::to_owned)).chain(&body) {
            let mut line = String::new();
            for (i, (c, w)) in cells.iter().zip(widths).enumerate() {
                let pad = " ".repeat(w - c.chars().count());
                let _ = if i == 0 { write!(line, "{c}{pad}") } else { write!(line, "  {pad}{c}") };
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "BearSSL 0.6 (Debian's source) built with {CC} {} and linked into \
         {HARNESS_DIR}/harness.c, measured like Halite: the same QEMU counting plugin, cycle \
         model, message lengths, stack painting and flash definition (each image minus the \
         one with no operation). Speed ratio: BearSSL's cycles over Halite's (above 1: Halite \
         is faster). BearSSL's RSA private operation is unblinded; Halite's is blinded. \
         BR_ARMEL_CORTEXM_GCC is BearSSL's own switch for Cortex-M0/M0+/M3 (inline assembly \
         in its big-integer code); without it the RSA rows come out at BearSSL's published \
         speeds, while its published symmetric figures are below these zero-wait-state ones.",
        CFLAGS.join(" ")
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_macros() {
        assert_eq!(op_macro("aes128-ctr"), "OP_AES128_CTR");
        assert_eq!(op_macro("sha256"), "OP_SHA256");
    }

    #[test]
    fn reads_the_test_key() {
        let root = util::workspace_root();
        let der = fs::read(root.join(RSA_PKCS8)).unwrap();
        let ints = rsa_integers(&der).unwrap();
        assert_eq!(ints[1].len(), 256, "2048-bit modulus");
        assert_eq!(ints[2], [1, 0, 1], "e = 65537");
        assert_eq!((ints[4].len(), ints[5].len()), (128, 128), "two 1024-bit primes");
        assert!(rsa_integers(&der[..der.len() - 1]).is_none(), "truncated");
        assert!(rsa_integers(&[0x30, 0x00]).is_none());
    }

    #[test]
    fn side_by_side_rows() {
        let m =
            |cycles: f64| Measured { insns: cycles, cycles, stack: Some(100), large_ram: false };
        let halite = BTreeMap::from([("sha256".to_owned(), m(100.0))]);
        let flash = BTreeMap::from([("sha256".to_owned(), 1000)]);
        let bear = BearMeasured {
            measured: BTreeMap::from([("sha256".to_owned(), m(150.0))]),
            flash: BTreeMap::from([("sha256".to_owned(), 2000)]),
        };
        let text = render(&halite, &flash, &bear, false);
        let sha = text.lines().find(|l| l.starts_with("SHA-256 ")).unwrap();
        for cell in ["100.0 /B", "150.0 /B", "1.50×", "1000", "2000", "320 kB/s (320 kB/s, sha256)"]
        {
            assert!(sha.contains(cell), "{cell} missing from `{sha}`");
        }
        assert_eq!(text.lines().filter(|l| l.contains('—')).count(), 9, "other rows unmeasured");
        let md = render(&halite, &flash, &bear, true);
        assert_eq!(md.lines().filter(|l| l.starts_with('|')).count(), 2 + 10);
    }
}
