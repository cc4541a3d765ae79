//! Poly1305's vector multiply for `core_aead`'s radix-2^26 AVX2 and AVX-512 backends
//! (`poly1305/x86_r26.rs`).

use core::arch::asm;
use core::arch::x86_64::{__m256i, __m512i};

/// Generates `$name`, `vpmuludq` on vectors `$v` in register class `$reg`.
macro_rules! vpmuludq {
    ($(#[$meta:meta])* $name:ident, $v:ty, $reg:ident, $feat:literal) => {
        $(#[$meta])*
        ///
        /// # Safety
        ///
        #[doc = concat!("The CPU must have `", $feat, "`: a caller compiled with that target")]
        /// feature calls it safely.
        #[inline]
        #[target_feature(enable = $feat)]
        #[must_use]
        pub fn $name(a: $v, b: $v) -> $v {
            let out: $v;
            // SAFETY: `vpmuludq` on registers only; the target feature (which a safe caller
            // holds through its own, from a `core_cpu` token) covers the vector width.
            unsafe {
                asm!(
                    "vpmuludq {out}, {a}, {b}",
                    out = lateout($reg) out,
                    a = in($reg) a,
                    b = in($reg) b,
                    options(pure, nomem, nostack, preserves_flags),
                );
            }
            out
        }
    };
}

vpmuludq! {
    /// The low 32 bits of each 64-bit lane of `a` times those of `b` (`_mm256_mul_epu32`, its
    /// Rust twin), as the one instruction: written as the intrinsic, LLVM proves Poly1305's
    /// accumulator limbs fit in 32 bits, drops the implied masking, and then lowers the
    /// resulting 64×64 multiply as three `vpmuludq` and two shifts.
    mul32_ymm, __m256i, ymm_reg, "avx2"
}

vpmuludq! {
    /// [`mul32_ymm`] on 512-bit vectors (`_mm512_mul_epu32`).
    mul32_zmm, __m512i, zmm_reg, "avx512f"
}
