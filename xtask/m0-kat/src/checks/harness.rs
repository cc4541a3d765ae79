//! Self-test of the runtime the other checks stand on: the compiler's integer helpers (the
//! Cortex-M0 has no divide and no 64-bit multiply), the start-up code that fills `.data` and
//! zeroes `.bss`, and a stack deep enough for nested calls. If these fail, no KAT result can be
//! trusted.

use core::hint::black_box;
use core::sync::atomic::{AtomicU32, Ordering};

use super::{Check, ensure};

/// The harness checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "harness::integer_helpers", run: integer_helpers },
    Check { name: "harness::statics", run: statics },
    Check { name: "harness::stack", run: stack },
];

/// 32- and 64-bit multiply, divide and remainder, through `black_box` so they run on the
/// target (`__aeabi_lmul`, `__aeabi_uldivmod`, … on the M0) instead of being constant-folded.
fn integer_helpers() -> Result<(), &'static str> {
    let a: u32 = black_box(0x1234_5678);
    ensure(a.wrapping_mul(black_box(0x9ABC_DEF0)) == 0x242d_2080, "u32 multiply")?;
    let x: u64 = black_box(0x0123_4567_89AB_CDEF);
    ensure(
        x.wrapping_mul(black_box(0xFEDC_BA98_7654_3210)) == 0x2236_d88f_e561_8cf0,
        "u64 multiply",
    )?;
    let max: u64 = black_box(u64::MAX);
    ensure(max / black_box(10) == 1_844_674_407_370_955_161, "u64 divide")?;
    ensure(max % black_box(10) == 5, "u64 remainder")?;
    let y: u64 = black_box(0xDEAD_BEEF_CAFE_F00D);
    ensure(y / black_box(0x123_4567) == 0xc3_b6b5_2d42, "u64 divide by 25 bits")?;
    ensure(y % black_box(0x123_4567) == 0xe0_f07f, "u64 remainder by 25 bits")?;
    ensure(y.rotate_left(black_box(13)) == 0xb7dd_f95f_de01_bbd5, "u64 rotate")?;
    Ok(())
}

/// Initialised in `.data`: the reset handler must have copied it from flash.
static DATA: AtomicU32 = AtomicU32::new(0xC0FF_EE42);
/// Zero-initialised in `.bss`: the reset handler must have cleared it.
static BSS: AtomicU32 = AtomicU32::new(0);

/// `.data` holds its initial value, `.bss` starts at zero, and both are writable RAM.
fn statics() -> Result<(), &'static str> {
    ensure(DATA.load(Ordering::Relaxed) == 0xC0FF_EE42, ".data not initialised")?;
    ensure(BSS.load(Ordering::Relaxed) == 0, ".bss not zeroed")?;
    BSS.store(black_box(7), Ordering::Relaxed);
    DATA.store(black_box(9), Ordering::Relaxed);
    let written = BSS.load(Ordering::Relaxed) == 7 && DATA.load(Ordering::Relaxed) == 9;
    BSS.store(0, Ordering::Relaxed);
    DATA.store(0xC0FF_EE42, Ordering::Relaxed);
    ensure(written, "statics are not writable")
}

/// Recursion with a 32-byte array in every frame: about 3 KiB of stack at depth 64.
fn stack() -> Result<(), &'static str> {
    #[inline(never)]
    fn nested(depth: u32) -> u32 {
        let frame = black_box([depth; 8]);
        if depth == 0 { 0 } else { frame.iter().sum::<u32>() + nested(depth - 1) }
    }
    // 8 * (1 + 2 + … + 64) = 4 * 64 * 65
    ensure(nested(black_box(64)) == 16_640, "nested calls returned a wrong sum")
}
