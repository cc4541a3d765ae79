//! Constant-time helpers: value barriers that stop the optimiser from turning arithmetic on
//! secrets into branches, and the Thumb-1 rotation that keeps hash and cipher rounds cheap.
//!
//! With the `asm` feature, each barrier is an empty `asm!` statement that claims to change its
//! operand in its register: it emits nothing and costs nothing, and the compiler can no longer
//! see where the value came from. Without it the barriers are [`core::hint::black_box`], which
//! does the same through a trip to the stack (slower, still opaque in practice) — except where a
//! barrier only serves speed ([`keep_in_memory`], [`rotr`]), which then does nothing special.

/// `x` through a barrier the optimiser cannot see through, on 32-bit Arm; elsewhere `x`.
///
/// Thumb-1 (the Cortex-M0) has no conditional select, so when LLVM recognises a carry or
/// borrow computed from secret words (`a < b`, an `overflowing_sub`, the top bit of a
/// difference) it turns it into a compare and a conditional branch. Passing the word the flag
/// is extracted from through this barrier hides where it came from, and the extraction stays
/// arithmetic (checked on the Cortex-M0 firmware by `cargo xtask m0`'s `ct-scan` stage).
#[inline(always)]
#[must_use]
pub fn value_barrier_u32(x: u32) -> u32 {
    #[cfg(all(feature = "asm", target_arch = "arm"))]
    {
        let mut x = x;
        // SAFETY: an empty template that only claims to change `x` in its register; it
        // touches no memory, stack or flags.
        unsafe {
            core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
        }
        x
    }
    #[cfg(all(not(feature = "asm"), target_arch = "arm"))]
    {
        core::hint::black_box(x)
    }
    #[cfg(not(target_arch = "arm"))]
    x
}

/// `m` (typically a secret all-ones-or-zero mask) through a barrier the optimiser cannot see
/// through, on every target: LLVM otherwise turns `x & m` into a branch on the mask's sign.
/// On `x86_64` with `asm` the value stays in its register (`black_box` costs a store and a
/// store-forwarded load, a stall per use in tight loops).
#[inline(always)]
#[must_use]
pub fn value_barrier_u64(m: u64) -> u64 {
    #[cfg(all(feature = "asm", target_arch = "x86_64"))]
    {
        let mut m = m;
        // SAFETY: an empty template that only claims to change `m` in its register; it
        // touches no memory, stack or flags.
        unsafe {
            core::arch::asm!("/* {0} */", inout(reg) m, options(pure, nomem, nostack, preserves_flags));
        }
        m
    }
    #[cfg(not(all(feature = "asm", target_arch = "x86_64")))]
    {
        core::hint::black_box(m)
    }
}

/// [`value_barrier_u64`] for a signed mask.
#[inline(always)]
#[must_use]
pub fn value_barrier_i64(m: i64) -> i64 {
    value_barrier_u64(m.cast_unsigned()).cast_signed()
}

/// On 32-bit Arm with `asm`, makes the compiler assume `*x` was read and written here, so the
/// whole object is stored before this point and reloaded after it: given to a state kept in
/// memory between rounds (the Cortex-M0 has eight general registers for sixteen state words),
/// each round loads what it needs instead of the register allocator spilling whatever it picks.
/// `at` is the index of any element (one already in a register is cheapest; every element's
/// address exposes the whole object). Elsewhere it does nothing: it only serves speed.
#[inline(always)]
pub fn keep_in_memory<T>(x: &mut [T], at: usize) {
    #[cfg(all(feature = "asm", target_arch = "arm"))]
    {
        let p = x.as_mut_ptr().wrapping_add(at);
        // SAFETY: the template is empty: it executes nothing, touches no stack and keeps the
        // flags. Given an address in `x` without `nomem`, the compiler must assume it reads and
        // writes `x`, which is all this is for.
        unsafe { core::arch::asm!("/* {0} */", in(reg) p, options(nostack, preserves_flags)) };
    }
    #[cfg(not(all(feature = "asm", target_arch = "arm")))]
    let _ = (x, at);
}

/// `x` rotated right by `N`. On 32-bit Arm with `asm` it is a `movs` of the count and a register
/// `rors`: compiled, LLVM keeps each count of a hash or cipher round in a register across the
/// rounds (a Thumb-1 `movs` sets the flags, so it is not rematerialised) and then spills them,
/// and a count reloaded from the stack costs two cycles where `movs` costs one, besides the
/// register it ties up. Elsewhere it is [`u32::rotate_right`].
#[inline(always)]
#[must_use]
pub fn rotr<const N: u32>(x: u32) -> u32 {
    #[cfg(all(feature = "asm", target_arch = "arm"))]
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
    #[cfg(not(all(feature = "asm", target_arch = "arm")))]
    x.rotate_right(N)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn barriers_are_the_identity() {
        for x in [0, 1, 0x8000_0000, u32::MAX, 0x1234_5678] {
            assert_eq!(value_barrier_u32(x), x);
            assert_eq!(value_barrier_u64(u64::from(x) << 17), u64::from(x) << 17);
            assert_eq!(value_barrier_i64(-i64::from(x)), -i64::from(x));
        }
        let mut a = [1u32, 2, 3];
        keep_in_memory(&mut a, 1);
        assert_eq!(a, [1, 2, 3]);
    }

    #[test]
    fn rotates_right() {
        let x = 0x8123_4567u32;
        assert_eq!(rotr::<0>(x), x);
        assert_eq!(rotr::<4>(x), 0x7812_3456);
        assert_eq!(rotr::<31>(x), x.rotate_left(1));
    }
}
