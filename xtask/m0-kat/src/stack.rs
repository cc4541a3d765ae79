//! Stack high-water measurement for each check on the Cortex-M0: the free stack below the
//! current stack pointer is painted with a known word before a check runs, and afterwards the
//! lowest overwritten word tells how deep the check went. On the host there is nothing to
//! measure and every call returns `None`.

/// How many bytes below the painting function's own stack pointer are left unpainted, for the
/// frames of the painting and scanning code itself.
#[cfg(target_os = "none")]
const GUARD: usize = 64;

/// The word painted over free stack; unlikely to be written by any check.
#[cfg(target_os = "none")]
const PAINT: u32 = 0x5AC3_3CA5;

/// The current stack pointer.
#[cfg(target_os = "none")]
#[inline(always)]
fn sp() -> usize {
    let sp: usize;
    // SAFETY: reads the stack pointer register into a general register; no memory is touched.
    unsafe {
        core::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags));
    };
    sp
}

/// The lowest RAM address the stack may reach: the end of `.bss` and `.data` (cortex-m-rt's
/// `__sheap`, as the firmware has no heap).
#[cfg(target_os = "none")]
fn floor() -> usize {
    unsafe extern "C" {
        static __sheap: u32;
    }
    // Only the symbol's address is taken; it is never read through.
    core::ptr::addr_of!(__sheap) as usize
}

/// A painted stack, ready to be measured after a check ran.
pub(crate) struct Painted {
    /// The stack pointer of the caller when painting began: depth is measured from here.
    #[cfg(target_os = "none")]
    top: usize,
}

/// Paints the free stack below the caller. Call it from the function that then runs the check,
/// and pass the result to [`high_water`] right after.
#[cfg(target_os = "none")]
#[inline(never)]
pub(crate) fn paint() -> Painted {
    let top = sp();
    let mut at = (floor() + 3) & !3;
    let end = top.saturating_sub(GUARD) & !3;
    while at < end {
        // SAFETY: `[floor, sp - GUARD)` is free stack below every live frame (the stack grows
        // down from the top of RAM to `__sheap`), word-aligned and inside RAM.
        unsafe { core::ptr::write_volatile(at as *mut u32, PAINT) };
        at += 4;
    }
    Painted { top }
}

/// On the host: nothing to paint.
#[cfg(not(target_os = "none"))]
pub(crate) fn paint() -> Painted {
    Painted {}
}

/// The deepest stack use, in bytes below the painter's caller, since [`paint`]; `None` on the
/// host, or if the check overflowed into `.bss` (every painted word was overwritten).
#[cfg(target_os = "none")]
#[inline(never)]
pub(crate) fn high_water(painted: &Painted) -> Option<usize> {
    let mut at = (floor() + 3) & !3;
    let end = painted.top.saturating_sub(GUARD) & !3;
    // SAFETY: the same free-stack range that `paint` wrote, read back word by word; the frames of
    // this function lie above `end`, so the range is not live.
    while at < end && unsafe { core::ptr::read_volatile(at as *const u32) } == PAINT {
        at += 4;
    }
    if at == ((floor() + 3) & !3) { None } else { Some(painted.top - at) }
}

/// On the host: no measurement.
#[cfg(not(target_os = "none"))]
pub(crate) fn high_water(_painted: &Painted) -> Option<usize> {
    None
}
