//! Deliberate failures for `cargo xtask m0 --self-test`, which proves that the harness turns a
//! failing check and a `HardFault` into a non-zero exit status instead of a pass or a hang. The
//! list is empty unless the `inject-failure` or `inject-fault` feature is on.

use super::Check;

/// The injected checks selected by Cargo features.
pub(super) const CHECKS: &[Check] = &[
    #[cfg(feature = "inject-failure")]
    Check { name: "inject::failure", run: failure },
    #[cfg(feature = "inject-fault")]
    Check { name: "inject::hard_fault", run: hard_fault },
];

/// Always fails.
#[cfg(feature = "inject-failure")]
fn failure() -> Result<(), &'static str> {
    Err("deliberate failure (feature inject-failure)")
}

/// Executes a permanently undefined instruction, which the Cortex-M0 escalates to a `HardFault`;
/// the firmware's handler reports it and exits, so this never returns.
#[cfg(all(feature = "inject-fault", target_arch = "arm"))]
fn hard_fault() -> Result<(), &'static str> {
    // SAFETY: `udf` touches no memory or registers; it raises an exception whose handler
    // (`HardFault` in main.rs) exits the program, so nothing after it has to be valid.
    unsafe { core::arch::asm!("udf #0", options(noreturn, nomem, nostack)) }
}

/// Off the Cortex-M0 there is no `HardFault` to provoke; the check fails so the feature still
/// makes the run fail.
#[cfg(all(feature = "inject-fault", not(target_arch = "arm")))]
fn hard_fault() -> Result<(), &'static str> {
    Err("deliberate fault (feature inject-fault; only faults on the Cortex-M0)")
}
