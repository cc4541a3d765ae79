//! [`declassify`]: marks a value that is public by design although computed from secrets (a
//! tag verdict, a public key derived from a private one, whether a shared secret is zero), so
//! that the constant-time check (`cargo xtask ct`, valgrind's memcheck with secrets marked
//! undefined) does not report the branch that acts on it — as BoringSSL's
//! `CONSTTIME_DECLASSIFY`. Without the `ct-check` feature, or off `x86_64`, it is the identity
//! and compiles to nothing; with it, it is one memcheck client request, which natively only
//! rotates a register by 128 bits and swaps `rbx` with itself.
//!
//! [`value_barrier`]: hides a secret word from the optimiser on Arm, so that a carry or borrow
//! taken from it stays arithmetic instead of becoming a branch on Thumb-1 (checked on the
//! Cortex-M0 firmware by `cargo xtask m0`'s `ct-scan` stage).

/// `value`, declared public: see the module documentation. Call it only on what a protocol
/// reveals anyway (a verdict, a public key), right where the secret-derived value becomes
/// public, never on a secret.
#[inline(always)]
#[must_use]
pub fn declassify<T: Copy>(value: T) -> T {
    #[cfg(all(feature = "ct-check", target_arch = "x86_64"))]
    {
        let mut value = value;
        make_defined(core::ptr::from_mut(&mut value).cast(), size_of::<T>());
        // Read back through memory, so the compiler cannot keep using a copy made before the
        // request.
        // SAFETY: `value` is a live, initialised local of type `T`.
        unsafe { core::ptr::read_volatile(&raw const value) }
    }
    #[cfg(not(all(feature = "ct-check", target_arch = "x86_64")))]
    value
}

/// `x`, through a value barrier the optimiser cannot see through, on Arm; elsewhere `x`
/// unchanged. Thumb-1 (the Cortex-M0) has no conditional select, so when LLVM recognises a
/// carry or borrow computed from secret words (`a < b`, an `overflowing_sub`, the top bit of a
/// difference) it turns it into a compare and a conditional branch. Passing the word the flag
/// is extracted from through this barrier hides where it came from, and the extraction stays
/// arithmetic. The empty assembly costs nothing: it claims to change `x` in its register.
#[inline(always)]
#[must_use]
pub fn value_barrier(x: u32) -> u32 {
    #[cfg(target_arch = "arm")]
    {
        let mut x = x;
        // SAFETY: an empty assembly statement that only claims to change `x` in its register;
        // it touches no memory, stack or flags.
        unsafe {
            core::arch::asm!(
                "/* {0} */",
                inout(reg) x,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        x
    }
    #[cfg(not(target_arch = "arm"))]
    x
}

/// Memcheck's `VG_USERREQ__MAKE_MEM_DEFINED` on `len` bytes at `ptr` (`memcheck.h`:
/// `VG_USERREQ_TOOL_BASE('M', 'C') + 2`), through valgrind's x86-64 client-request sequence.
#[cfg(all(feature = "ct-check", target_arch = "x86_64"))]
#[inline(never)]
fn make_defined(ptr: *mut u8, len: usize) {
    const MAKE_MEM_DEFINED: usize = (((b'M' as usize) << 24) | ((b'C' as usize) << 16)) + 2;
    let args = [MAKE_MEM_DEFINED, ptr as usize, len, 0, 0, 0];
    // SAFETY: the rotations of `rdi` total 128 bits and `xchg rbx, rbx` swaps a register with
    // itself, so natively nothing changes but the flags (clobbered by default). Under valgrind
    // the core reads the six words at `rax`, alive for the call, and only changes memcheck's
    // shadow state of `len` bytes at `ptr`, which the caller owns; `rdx` gets the result.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") 0usize => _,
            in("rax") args.as_ptr(),
            inout("rdi") 0usize => _,
            options(nostack),
        );
    }
}

#[cfg(test)]
mod tests {
    /// Natively (with or without the feature) a declassified value is unchanged.
    #[test]
    fn value_barrier_is_the_identity() {
        for x in [0, 1, 0x8000_0000, u32::MAX, 0x1234_5678] {
            assert_eq!(super::value_barrier(x), x);
        }
    }

    #[test]
    fn declassify_is_the_identity_natively() {
        assert_eq!(super::declassify(0x1234_5678_u32), 0x1234_5678);
        assert!(super::declassify(true));
        assert_eq!(super::declassify([7u8; 33]), [7u8; 33]);
    }
}
