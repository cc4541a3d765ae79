//! `cargo xtask m0 --tls`: the TLS 1.3 client firmware images (`xtask/m0-tls`) against a
//! Halite server on the host. Builds the server (the same package, for the host) and each
//! image ([`IMAGES`]: an external PSK, a pinned raw public key; and [`CERT_IMAGE`], an
//! ECDSA P-256 certificate chain checked by webpki), makes two named pipes,
//! starts the server on them for that image and runs the image under QEMU with the
//! instruction-counting plugin of `m0 --cost`; the firmware opens the pipes through
//! semihosting, completes its handshake, has one message echoed and exits 0. Then one
//! summary line per image: flash, RAM (static + painted stack peak) and the handshake's
//! estimated Cortex-M0+ cycles by phase.
//!
//! The image is linked for and run on the micro:bit map (`-M microbit`: 16 KiB of RAM), where
//! a stack that overruns RAM locks the CPU up and fails the run. `HALITE_M0_TLS_RAM=128` still
//! links it for `netduino2` (128 KiB) by hand, to measure a client that does not fit; the
//! certificate image is relinked and run there by itself when it fails on the micro:bit (its
//! RAM goal not met), with a line saying so.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::cost::{self, Core, Counts};
use crate::m0::{Binutils, M0Args, TARGET};
use crate::size;
use crate::util::{self, Report, StageResult};
use crate::workspace::Workspace;

/// The firmware and host-server package.
const PACKAGE: &str = "m0-tls";
/// The Cargo profile the firmware is measured in.
const PROFILE: &str = "size";
/// The marker function between phases (see `xtask/m0-tls/src/device.rs`).
const MARKER: &str = "m0_tls_mark";
/// The pipes, as the firmware and server name them (relative to the run directory).
const PIPES: [&str; 2] = ["m0-tls-c2s", "m0-tls-s2c"];
/// The phases between the firmware's four marks.
const PHASES: [&str; 3] = ["ClientHello", "rest of handshake", "echo"];
/// The build-time RAM switch (see `xtask/m0-tls/build.rs`), unset here: the micro:bit map.
const RAM_ENV: &str = "HALITE_M0_TLS_RAM";
/// [`RAM_ENV`]'s value for the `netduino2` map, and that board.
const LARGE_RAM: &str = "128";
const LARGE_RAM_MACHINE: &str = "netduino2";
/// The firmware images: each is the package's cargo feature of that name alone, and the
/// server's argument for it.
const IMAGES: [&str; 2] = ["psk", "rpk"];
/// The certificate-chain image (ECDSA P-256 through webpki), the same way; run by
/// [`run_cert`], which falls back to `netduino2` while it does not fit the micro:bit.
const CERT_IMAGE: &str = "cert";

/// Runs the `m0 tls` stages into `report`.
pub(crate) fn run(report: &mut Report, ws: &Workspace, args: &M0Args) {
    let dir = ws.target_dir.join("xtask").join("m0-tls");
    let mut built = None;
    report.stage("m0 tls build", || {
        // The host build has every image's feature (the package's defaults).
        util::run(util::cargo().args(["build", "-p", PACKAGE]))?;
        let server = ws.target_dir.join("debug").join(PACKAGE);
        let images = IMAGES.map(|image| build(ws, &dir, image));
        let plugin = cost::build_plugin(ws, &dir)?;
        let [psk, rpk] = images;
        let cert = build(ws, &dir, CERT_IMAGE);
        built = Some((server, [psk?, rpk?], cert?, plugin));
        Ok(())
    });
    let Some((server, elfs, cert, plugin)) = built else {
        report.skip("m0 tls run", "the build failed");
        return;
    };
    for (image, elf) in IMAGES.iter().zip(&elfs) {
        report.stage(&format!("m0 tls {image} run (micro:bit, 16 KiB)"), || {
            run_image(image, elf, &server, &plugin, &dir, args)
        });
    }
    report.stage(&format!("m0 tls {CERT_IMAGE} run"), || {
        run_cert(ws, &cert, &server, &plugin, &dir, args)
    });
}

/// The certificate image ([`CERT_IMAGE`]), on the micro:bit if it runs there; if not (its
/// RAM goal is not met yet), relinked for `netduino2` (128 KiB) and measured there, with a
/// line saying so: the stage fails only if it fails on both.
fn run_cert(
    ws: &Workspace,
    elf: &Path,
    server: &Path,
    plugin: &Path,
    dir: &Path,
    m0: &M0Args,
) -> StageResult {
    let Err(small) = run_image(CERT_IMAGE, elf, server, plugin, dir, m0) else {
        return Ok(());
    };
    let big = build_large_ram(ws, dir, CERT_IMAGE)?;
    let large = M0Args { machine: LARGE_RAM_MACHINE.to_owned(), ..m0.clone() };
    run_image(CERT_IMAGE, &big, server, plugin, dir, &large)?;
    println!(
        "m0-tls {CERT_IMAGE}: goal not met: it does not run in the micro:bit's 16 KiB ({small}); \
         measured above on {LARGE_RAM_MACHINE} (128 KiB)"
    );
    Ok(())
}

/// Builds the firmware `image` for the micro:bit map; returns a copy of the ELF.
fn build(ws: &Workspace, dir: &Path, image: &str) -> Result<PathBuf, String> {
    build_for(ws, dir, image, None)
}

/// Builds the firmware `image` for the `netduino2` map (128 KiB of RAM); returns a copy of
/// the ELF.
fn build_large_ram(ws: &Workspace, dir: &Path, image: &str) -> Result<PathBuf, String> {
    build_for(ws, dir, image, Some(LARGE_RAM))
}

/// Builds the firmware `image` with [`RAM_ENV`] set to `ram` (unset: the micro:bit map);
/// returns a copy of the ELF, named by both.
fn build_for(
    ws: &Workspace,
    dir: &Path,
    image: &str,
    ram: Option<&str>,
) -> Result<PathBuf, String> {
    let mut cmd = util::cargo();
    cmd.args(["build", "-p", PACKAGE, "--target", TARGET, "--profile", PROFILE]);
    cmd.args(["--no-default-features", "--features", image]);
    match ram {
        Some(kib) => cmd.env(RAM_ENV, kib),
        None => cmd.env_remove(RAM_ENV),
    };
    util::run(&mut cmd)?;
    let elf = ws.target_dir.join(TARGET).join(PROFILE).join(PACKAGE);
    fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let copy = match ram {
        Some(kib) => dir.join(format!("m0-tls-{image}-{kib}k.elf")),
        None => dir.join(format!("m0-tls-{image}.elf")),
    };
    fs::copy(&elf, &copy).map_err(|e| format!("copying {}: {e}", elf.display()))?;
    Ok(copy)
}

/// Fresh pipes in `dir`, the server started on them for `image`, the firmware run, both
/// judged.
fn run_image(
    image: &str,
    elf: &Path,
    server: &Path,
    plugin: &Path,
    dir: &Path,
    m0: &M0Args,
) -> StageResult {
    for pipe in PIPES {
        let path = dir.join(pipe);
        let _ = fs::remove_file(&path);
        util::run(Command::new("mkfifo").arg(&path))?;
    }
    let mut server = Command::new(server)
        .arg(image)
        .current_dir(dir)
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("starting {}: {e}", server.display()))?;
    let client = run_client(elf, plugin, dir, m0);
    let served = finish(&mut server, client.is_ok());
    let (marks, stack) = client?;
    served?;
    let phases = marks
        .windows(2)
        .map(|w| w[1].since(&w[0]).map(|d| Core::M0Plus.cycles(&d)))
        .collect::<Option<Vec<u64>>>()
        .filter(|p| p.len() == PHASES.len())
        .ok_or_else(|| format!("expected {} marks, got {}", PHASES.len() + 1, marks.len()))?;
    let tools = Binutils::find()?;
    let sections =
        size::parse_sections(&util::output(Command::new(&tools.size).arg("-A").arg(elf))?);
    let of = |name: &str| sections.iter().find(|s| s.name == name).map_or(0, |s| s.size);
    let flash = cost::flash_bytes(&tools, elf)?;
    let ram = of(".data") + of(".bss") + of(".uninit");
    let by_phase = PHASES
        .iter()
        .zip(&phases)
        .map(|(name, c)| format!("{name} {}", thousands(*c)))
        .collect::<Vec<_>>()
        .join(", ");
    println!(
        "m0-tls {image} ({}): flash {} B (.text {} + .rodata {}), RAM {} + {} B (static + stack peak), \
         handshake {} M0+ cycles ({by_phase})",
        m0.machine,
        thousands(flash),
        thousands(of(".text")),
        thousands(of(".rodata")),
        thousands(ram),
        thousands(stack),
        thousands(phases[0] + phases[1]),
    );
    Ok(())
}

/// Runs the firmware with the counting plugin; returns the marks and the painted stack peak.
fn run_client(
    elf: &Path,
    plugin: &Path,
    dir: &Path,
    m0: &M0Args,
) -> Result<(Vec<Counts>, u64), String> {
    let log = dir.join("m0-tls-plugin.log");
    let mut cmd = cost::counted_qemu(elf, MARKER, plugin, &log, m0)?;
    cmd.current_dir(dir);
    let run = util::run_captured(&mut cmd, Duration::from_secs(m0.timeout))?;
    let stack = parse_ok(&run.output);
    match (run.status.and_then(|s| s.code()), stack) {
        (Some(0), Some(stack)) => {
            let text =
                fs::read_to_string(&log).map_err(|e| format!("reading {}: {e}", log.display()))?;
            Ok((cost::parse_marks(&text)?, stack))
        }
        (None, _) if run.status.is_none() => Err("QEMU timed out".into()),
        (None, _) => Err("QEMU was killed (a CPU lockup: the stack overran RAM?)".into()),
        (Some(code), _) => Err(format!("the firmware exited with status {code}")),
    }
}

/// The stack peak from the firmware's `m0-tls: ok, stack N B` line.
fn parse_ok(output: &str) -> Option<u64> {
    output.lines().find_map(|line| {
        line.trim().strip_prefix("m0-tls: ok, stack ")?.strip_suffix(" B")?.parse().ok()
    })
}

/// Waits for the server after a successful client (killing it otherwise: it may be waiting on
/// a pipe the firmware never opened) and judges it by its exit status.
fn finish(server: &mut Child, client_ok: bool) -> StageResult {
    if !client_ok {
        let _ = server.kill();
    }
    match server.wait() {
        Ok(status) if status.success() || !client_ok => Ok(()),
        Ok(status) => Err(format!("the server failed ({status})")),
        Err(e) => Err(format!("waiting for the server: {e}")),
    }
}

/// `n` in groups of three digits, as the cost table prints counts.
fn thousands(n: u64) -> String {
    cost::grouped(&n.to_string())
}
