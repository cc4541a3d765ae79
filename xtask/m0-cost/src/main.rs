//! m0-cost: the cost-model firmware behind `cargo xtask m0 --cost`. Each operation of
//! [`ops`] runs between two calls of the marker function [`m0_cost_mark`]; xtask reads the
//! marker's address from the ELF, and its QEMU plugin (`xtask/m0-cost/plugin/m0count.c`)
//! prints the running instruction counts, by cycle class, every time the marker runs. The
//! firmware prints one line per measurement, in the same order as the marks:
//!
//! `cost <id> <bytes> <stack bytes or ?> <marks> ok` (or `... FAIL <reason>`),
//!
//! then `m0-cost: N measured, M failed`. Bulk operations run at two lengths, so xtask can
//! take the difference and cancel fixed costs; the `overhead` line (an empty timed span)
//! calibrates the marker itself. The stack depth of each run is measured by painting, with
//! the code of `m0-kat`.
//!
//! Which operations are linked is chosen when building, by the environment variable
//! `HALITE_M0_COST_OP`: unset or `all` links every one that fits the micro:bit's RAM (and
//! prints `skip <id> large-ram` for each of [`ops::LARGE_RAM`]), `none` links none (the empty
//! image the flash figures are relative to), an operation id links just that one. A
//! large-RAM operation is linked only into an image built with `HALITE_M0_COST_RAM=128`, for
//! QEMU's `netduino2` (128 KiB of RAM). On the host the same program runs every operation
//! and checks their answers.
#![cfg_attr(target_os = "none", no_std, no_main)]

#[cfg(target_os = "none")]
mod mem;
mod ops;
#[path = "../../m0-kat/src/stack.rs"]
mod stack;

#[cfg(target_os = "none")]
use semihosting::println;

/// The operation selection this image was built with.
const SELECTION: Option<&str> = option_env!("HALITE_M0_COST_OP");

/// Whether this image is linked for 128 KiB of RAM (see `build.rs`).
const LARGE_RAM_IMAGE: bool = match option_env!("HALITE_M0_COST_RAM") {
    Some(kib) => same(kib, "128"),
    None => false,
};

/// Bytes of the message buffer bulk operations work on; room for the longest length.
const BUF_LEN: usize = 4096;

/// Exit status when every operation ran and gave the right answer.
const EXIT_PASS: i32 = 0;
/// Exit status when an operation failed.
const EXIT_FAIL: i32 = 1;
/// Exit status after a `HardFault`.
#[cfg(target_os = "none")]
const EXIT_HARD_FAULT: i32 = 3;

/// `a == b`, usable in constants.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `id` is one of [`ops::LARGE_RAM`].
const fn large_ram(id: &str) -> bool {
    let mut i = 0;
    while i < ops::LARGE_RAM.len() {
        if same(ops::LARGE_RAM[i], id) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether the selection is every operation (that fits).
const fn selects_all() -> bool {
    match SELECTION {
        None => true,
        Some(selection) => same(selection, "all"),
    }
}

/// Whether operation `id` is linked into this image: `all` leaves out the large-RAM ones on
/// the Cortex-M0 (the host has room for everything).
pub(crate) const fn selected(id: &str) -> bool {
    let fits = cfg!(not(target_os = "none")) || !large_ram(id);
    match SELECTION {
        None => fits,
        Some(selection) => (same(selection, "all") && fits) || same(selection, id),
    }
}

/// Whether every large-RAM operation linked into a firmware image has the RAM to run.
const fn large_ram_fits() -> bool {
    if cfg!(not(target_os = "none")) || LARGE_RAM_IMAGE {
        return true;
    }
    let mut i = 0;
    while i < ops::LARGE_RAM.len() {
        if selected(ops::LARGE_RAM[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether the selection names something that exists.
const fn selection_known() -> bool {
    let Some(selection) = SELECTION else { return true };
    if same(selection, "all") || same(selection, "none") {
        return true;
    }
    let mut i = 0;
    while i < ops::IDS.len() {
        if same(ops::IDS[i], selection) {
            return true;
        }
        i += 1;
    }
    false
}

const _: () = assert!(selection_known(), "HALITE_M0_COST_OP names no operation of src/ops.rs");
const _: () = assert!(large_ram_fits(), "a large-RAM operation needs HALITE_M0_COST_RAM=128");

/// The marker: the plugin prints the running counts each time this function's first
/// instruction runs. Its address is read from the ELF by name.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn m0_cost_mark() {
    // SAFETY: an empty assembly statement reads and writes nothing. It is not marked `pure` or
    // `nomem`, so the compiler must assume it touches memory: calls to the marker are neither
    // removed nor moved across the memory accesses of the operation being timed.
    unsafe { core::arch::asm!("", options(nostack, preserves_flags)) };
}

/// Brackets the part of an operation that is measured, counting the marks it makes.
pub(crate) struct Timer {
    marks: u32,
}

impl Timer {
    /// Runs `f` between two marks and returns its result (through `black_box`, so the work
    /// is not deferred past the second mark).
    #[inline(always)]
    pub(crate) fn time<R>(&mut self, f: impl FnOnce() -> R) -> R {
        m0_cost_mark();
        let result = core::hint::black_box(f());
        m0_cost_mark();
        self.marks += 2;
        result
    }
}

/// Paints the stack again below the caller, so the figure an operation reports leaves out
/// what its setup used below this point (a key generation before an encapsulation), but
/// keeps the caller's frame with whatever the setup left in it.
pub(crate) fn forget_setup_stack() {
    let _ = stack::paint();
}

/// How many measurements passed and failed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Summary {
    measured: u32,
    failed: u32,
}

/// Runs one operation at one length, with the stack painted, and prints its line.
#[inline(never)]
fn measure(op: &ops::Op, len: usize, buf: &mut [u8; BUF_LEN], summary: &mut Summary) {
    for (i, b) in buf.iter_mut().enumerate() {
        *b = i as u8;
    }
    let mut timer = Timer { marks: 0 };
    let painted = stack::paint();
    let result = (op.run)(&mut buf[..len], &mut timer);
    let depth = stack::high_water(&painted);
    let marks = timer.marks;
    let id = op.id;
    match (result, depth) {
        (Ok(()), Some(bytes)) => println!("cost {id} {len} {bytes} {marks} ok"),
        (Ok(()), None) => println!("cost {id} {len} ? {marks} ok"),
        (Err(reason), _) => println!("cost {id} {len} ? {marks} FAIL {reason}"),
    }
    match result {
        Ok(()) => summary.measured += 1,
        Err(_) => summary.failed += 1,
    }
}

/// Runs the calibration and every linked operation, then prints the summary line.
fn run_all() -> Summary {
    let mut buf = [0u8; BUF_LEN];
    let mut summary = Summary::default();
    #[cfg(target_os = "none")]
    if selects_all()
        && let Err(which) = mem::check()
    {
        println!("m0-cost: the firmware's {which} is wrong");
        summary.failed += 1;
    }
    if selects_all() {
        for id in ops::LARGE_RAM.iter().filter(|id| !selected(id)) {
            println!("skip {id} large-ram");
        }
    }
    // Through `black_box`, so the loop is not unrolled over this image's list: the empty
    // image then holds the same harness code as a one-operation image.
    for op in core::hint::black_box(ops::picked()) {
        for len in op.kind.lengths() {
            measure(op, len, &mut buf, &mut summary);
        }
    }
    println!("m0-cost: {} measured, {} failed", summary.measured, summary.failed);
    summary
}

impl Summary {
    fn exit_code(self) -> i32 {
        if self.failed == 0 { EXIT_PASS } else { EXIT_FAIL }
    }
}

/// Firmware entry point.
#[cfg(target_os = "none")]
#[cortex_m_rt::entry]
fn main() -> ! {
    semihosting::process::exit(run_all().exit_code())
}

/// Host entry point: the same operations, as an ordinary program.
#[cfg(not(target_os = "none"))]
fn main() {
    std::process::exit(run_all().exit_code());
}

/// Exit status after a panic (as std's).
#[cfg(target_os = "none")]
const EXIT_PANIC: i32 = 101;

/// Exits on a panic without printing its message or location: like a production firmware's
/// handler (`panic-halt` and the like), so that no image links panic message strings, which
/// would otherwise count in the flash figures (C code such as BearSSL's has none). m0-kat runs
/// the same code with messages, for debugging.
#[cfg(target_os = "none")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    println!("m0-cost: panicked");
    semihosting::process::exit(EXIT_PANIC)
}

/// Reports a `HardFault` and exits instead of spinning until xtask's timeout.
#[cfg(target_os = "none")]
#[cortex_m_rt::exception]
unsafe fn HardFault(frame: &cortex_m_rt::ExceptionFrame) -> ! {
    println!("HardFault at pc={:#010x} lr={:#010x}", frame.pc(), frame.lr());
    semihosting::process::exit(EXIT_HARD_FAULT)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation runs and gives the right answer on the host too.
    #[test]
    fn every_operation_passes_on_the_host() {
        let summary = run_all();
        assert!(summary.measured as usize > ops::IDS.len(), "too few measurements");
        assert_eq!(summary.failed, 0, "see the FAIL lines in the captured output");
    }

    #[test]
    fn selection_is_compared_exactly() {
        assert!(same("sha256", "sha256"));
        assert!(!same("sha256", "sha25"));
        assert!(!same("sha256", "sha512"));
        assert!(selection_known());
        assert!(ops::LARGE_RAM.iter().all(|id| ops::IDS.contains(id)));
        // RSA-2048 signing fits the micro:bit with core-rsa's `max-bits-2048` cap.
        assert!(!large_ram("rsa2048-private") && !large_ram("rsa2048-public"));
    }

    #[test]
    fn bulk_lengths_are_whole_blocks_and_fit() {
        for block in [16, 64, 128, 136] {
            let lengths: Vec<usize> = ops::Kind::Bulk(block).lengths().collect();
            let [short, long] = lengths[..] else { panic!("two lengths") };
            assert_eq!((short % block, long % block), (0, 0));
            assert!(short < long && long <= BUF_LEN);
            assert!(long - short >= 2048);
        }
        assert_eq!(ops::Kind::Once.lengths().collect::<Vec<_>>(), [0]);
    }
}
