//! m0-kat: Halite's known-answer checks as one firmware image for an emulated Cortex-M0, which
//! `cargo xtask m0` builds for `thumbv6m-none-eabi`, runs on QEMU's micro:bit model and measures.
//!
//! The same source builds on the host as an ordinary std binary whose unit test runs every
//! check, so `cargo test --workspace` covers the check list without an emulator. Output is one
//! line per check (`ok   name [stack N B]` / `FAIL name: reason`; the stack depth is measured
//! on the Cortex-M0 only) and then the summary line
//! `m0-kat: N passed, M failed`, which `xtask` parses; the exit status (through semihosting on
//! the Cortex-M0) is [`EXIT_PASS`] only if every check passed.
#![cfg_attr(target_os = "none", no_std, no_main)]

mod checks;
#[cfg(target_os = "none")]
mod panic;
mod stack;

#[cfg(target_os = "none")]
use semihosting::println;

/// Exit status when every check passed.
const EXIT_PASS: i32 = 0;
/// Exit status when at least one check failed.
const EXIT_FAIL: i32 = 1;
/// Exit status after a `HardFault` (a panic exits with 101, like std).
#[cfg(target_os = "none")]
const EXIT_HARD_FAULT: i32 = 3;

/// How many checks passed and failed in one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Summary {
    passed: u32,
    failed: u32,
}

impl Summary {
    /// The process exit status this run should end with.
    fn exit_code(self) -> i32 {
        if self.failed == 0 { EXIT_PASS } else { EXIT_FAIL }
    }
}

/// Runs every registered check in order, printing one line per check and then the summary
/// line.
fn run_all() -> Summary {
    let mut summary = Summary::default();
    for check in checks::all() {
        let painted = stack::paint();
        let result = (check.run)();
        let depth = stack::high_water(&painted);
        match result {
            Ok(()) => {
                summary.passed += 1;
                match depth {
                    Some(bytes) => println!("ok   {} [stack {bytes} B]", check.name),
                    None => println!("ok   {}", check.name),
                }
            }
            Err(reason) => {
                summary.failed += 1;
                println!("FAIL {}: {reason}", check.name);
            }
        }
    }
    println!("m0-kat: {} passed, {} failed", summary.passed, summary.failed);
    summary
}

/// Firmware entry point, called by cortex-m-rt's reset handler once `.data` and `.bss` are set
/// up.
#[cfg(target_os = "none")]
#[cortex_m_rt::entry]
fn main() -> ! {
    semihosting::process::exit(run_all().exit_code())
}

/// Host entry point: the same checks, as an ordinary program.
#[cfg(not(target_os = "none"))]
fn main() {
    std::process::exit(run_all().exit_code());
}

/// Reports a `HardFault` and exits with [`EXIT_HARD_FAULT`]. cortex-m-rt's default handler spins
/// forever, which would leave QEMU running until `xtask`'s timeout.
#[cfg(target_os = "none")]
#[cortex_m_rt::exception]
unsafe fn HardFault(frame: &cortex_m_rt::ExceptionFrame) -> ! {
    println!("HardFault at pc={:#010x} lr={:#010x}", frame.pc(), frame.lr());
    semihosting::process::exit(EXIT_HARD_FAULT)
}

#[cfg(test)]
mod tests {
    /// The whole check list passes on the host too.
    #[test]
    fn every_check_passes_on_the_host() {
        let summary = super::run_all();
        assert!(summary.passed > 0, "no check ran");
        assert_eq!(summary.failed, 0, "see the FAIL lines in the captured output");
        assert_eq!(summary.exit_code(), super::EXIT_PASS);
    }
}
