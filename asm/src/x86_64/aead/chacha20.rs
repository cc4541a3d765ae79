//! ChaCha20's byte rotations for `core_aead`'s AVX2 backend (`chacha20/x86_avx2.rs`).

use core::arch::asm;
use core::arch::x86_64::__m256i;

/// `vpshufb` patterns that rotate each 32-bit lane left by 16 and by 8 bits. They stay in
/// memory and are used as memory operands, so the eight-block pass keeps both registers for
/// state words.
#[repr(align(32))]
// Read only by the assembly, through the symbol.
#[allow(dead_code)]
struct Pattern([u8; 32]);
static ROT16: Pattern = Pattern([
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14,
    15, 12, 13,
]);
static ROT8: Pattern = Pattern([
    3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15,
    12, 13, 14,
]);

/// Generates `$name`, `vpshufb` of a vector by a pattern in memory.
macro_rules! shuffle_by {
    ($(#[$meta:meta])* $name:ident, $pattern:ident) => {
        $(#[$meta])*
        ///
        /// # Safety
        ///
        /// The CPU must have AVX2: a caller compiled with that target feature calls it safely.
        #[inline]
        #[target_feature(enable = "avx2")]
        #[must_use]
        pub fn $name(x: __m256i) -> __m256i {
            let mut x = x;
            // SAFETY: `vpshufb` reading the 32-byte static pattern; AVX2 is this function's
            // target feature, which a safe caller holds through its own (from a `core_cpu`
            // token).
            unsafe {
                asm!(
                    "vpshufb {x}, {x}, ymmword ptr [rip + {pattern}]",
                    x = inout(ymm_reg) x,
                    pattern = sym $pattern,
                    options(pure, readonly, nostack, preserves_flags),
                );
            }
            x
        }
    };
}

shuffle_by! {
    /// Each 32-bit lane of `x` rotated left by 16 bits, as one `vpshufb` by a pattern in
    /// memory. Written as intrinsics (or as two shifts, its Rust twin), LLVM rewrites
    /// `shuffle(d ^ a)` as `shuffle(d) ^ shuffle(a)` when `d` came out of a shuffle, and splits
    /// the 16-bit rotation into `vpshuflw` and `vpshufhw`, doubling the work on the one port
    /// that does shuffles; and it would keep the patterns in registers that the state words
    /// need.
    rotl16_ymm, ROT16
}

shuffle_by! {
    /// Each 32-bit lane of `x` rotated left by 8 bits, as [`rotl16_ymm`] does by 16.
    rotl8_ymm, ROT8
}
