//! Thumb-1 kernels for core-ec: the Curve25519 field on eight 32-bit words and its 512-bit
//! Karatsuba product, which P-256's field reduces its own way.

pub mod curve25519;
pub mod p256;

/// `x·y` (the low 32 bits) as a `muls` into `x`'s register: compiled, LLVM multiplies into a
/// copy of the operand that stays live (a row's `a[i]`), one `mov` per limb product.
#[inline(always)]
#[must_use]
pub fn muls(x: u32, y: u32) -> u32 {
    let mut x = x;
    // SAFETY: register-only multiply; no memory, no stack. `muls` sets the flags, which `asm!`
    // assumes clobbered without `preserves_flags`.
    unsafe {
        core::arch::asm!("muls {x}, {y}", x = inout(reg) x, y = in(reg) y, options(pure, nomem, nostack));
    }
    x
}
