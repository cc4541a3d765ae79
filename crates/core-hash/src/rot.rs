//! [`rotr`]: a 32-bit rotation by a constant that stays cheap on the Cortex-M0.

/// `x` rotated right by `N`. On Arm (the Cortex-M0 path) it is a `movs` of the count and a
/// register `rors`, written as assembly: compiled, LLVM keeps each count of a hash or cipher
/// round in a register across the rounds (a Thumb-1 `movs` sets the flags, so it is not
/// rematerialised) and then spills them, and a count reloaded from the stack costs two
/// cycles where `movs` costs one, besides the register it ties up. Elsewhere it is
/// [`u32::rotate_right`].
#[inline(always)]
#[must_use]
pub fn rotr<const N: u32>(x: u32) -> u32 {
    #[cfg(target_arch = "arm")]
    {
        let mut x = x;
        // SAFETY: register-only: `x` is rotated in place through the scratch register `n`;
        // no memory, no stack. The flags are clobbered, which `asm!` assumes without
        // `preserves_flags`.
        unsafe {
            core::arch::asm!(
                "movs {n}, #{count}",
                "rors {x}, {n}",
                x = inout(reg) x,
                n = out(reg) _,
                count = const N % 32,
                options(pure, nomem, nostack),
            );
        }
        x
    }
    #[cfg(not(target_arch = "arm"))]
    x.rotate_right(N)
}

#[cfg(test)]
mod tests {
    use super::rotr;

    #[test]
    fn rotates_right() {
        let x = 0x8123_4567u32;
        assert_eq!(rotr::<0>(x), x);
        assert_eq!(rotr::<4>(x), 0x7812_3456);
        assert_eq!(rotr::<31>(x), x.rotate_left(1));
    }
}
