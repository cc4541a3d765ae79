//! GHASH (SP 800-38D §6.4), the universal hash of GCM: `Y ← (Y ⊕ X) · H` in GF(2^128) over each
//! 16-byte block, on four implementations:
//!
//! - [`ct64`]: carry-less multiplication from integer multiplies on 64-bit words, with the
//!   operands split into bit classes spaced five apart so no carry reaches a bit that counts;
//! - [`ct32`]: the same on 32-bit words, 16×16-bit products (holes three apart) whose whole
//!   result fits a word, under three Karatsuba levels: the 32-bit default;
//! - `thumb1`: ct32 with its 32×32 products in Thumb-1 assembly (the Cortex-M0, with `asm`);
//! - [`x86_vpclmul`]: VPCLMULQDQ on YMM (`x86_vpclmul`, 8 blocks per reduction) or ZMM
//!   registers (`x86_vpclmul512`, 16 blocks), one block per 128-bit lane;
//! - [`x86_pclmul`]: `pclmulqdq`, eight blocks per reduction with precomputed powers of H;
//! - `aarch64`: `pmull`/`pmull2`, likewise.
//!
//! All share one representation: a block read big-endian is a 128-bit integer whose top bit is
//! the coefficient of x^0 (GCM's bit order), and the key is kept as `H·x⁻¹`. Then the
//! 255-bit carry-less product of a block and the key, Montgomery-reduced by 2^128 modulo the
//! bit-reversed polynomial, is exactly the field product: no 1-bit shift is needed.

// Only its shared multiplication runs on the Cortex-M0 without `portable-twins`.
#[cfg_attr(
    not(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins")),
    allow(dead_code)
)]
mod ct32;
#[cfg(target_pointer_width = "64")]
mod ct64;
#[cfg(all(target_arch = "arm", feature = "asm"))]
mod thumb1;

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_pclmul;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_vpclmul;

use crate::Implementation;
use core::fmt;
use zeroize::Zeroize;

core_hash::implementation_enum! {
    /// A GHASH implementation. Accelerated variants carry the CPU-feature token that proves
    /// they can run, so they can only be obtained through [`Implementation::available`](crate::Implementation::available).
    pub enum GhashImpl {
        accelerated {
            /// VPCLMULQDQ on ZMM registers with AVX-512, sixteen blocks per reduction.
            X86Vpclmul512(core_cpu::Vaes512) => "x86_vpclmul512",
            /// VPCLMULQDQ on YMM registers with AVX2, eight blocks per reduction.
            X86Vpclmul(core_cpu::Vaes) => "x86_vpclmul",
            /// PCLMULQDQ, eight blocks per reduction.
            X86Pclmul(core_cpu::ClMul) => "x86_pclmul",
            /// Armv8 PMULL, eight blocks per reduction.
            Aarch64(core_cpu::ArmAesPmull) => "aarch64",
        }
        portable {
            /// Constant-time multiplication with 64-bit integer multiplies.
            /// Only on 64-bit targets: elsewhere it would be slower than ct32 and only cost flash.
            Ct64 => "ct64" for 64 if target_pointer_width = "64",
            /// ct32 with its carry-less products in Thumb-1 assembly: the Cortex-M0.
            Thumb1 => "thumb1" for 32 if thumb1,
            /// Constant-time multiplication with 32-bit integer multiplies: `thumb1`'s twin.
            Ct32 => "ct32" for 32 if twin,
        }
    }
}

/// The GHASH key `H·x⁻¹` as a 128-bit integer in GCM's bit order (see the module comment).
pub(crate) fn h_times_x_inverse(h: &[u8; 16]) -> u128 {
    let h = u128::from_be_bytes(*h);
    // Dividing by x shifts toward the x^127 end (left here); the x^0 coefficient falls out as
    // x⁻¹ = x^127 + x^6 + x + 1 (from x^128 = x^7 + x^2 + x + 1).
    let carry = 0u128.wrapping_sub(h >> 127);
    (h << 1) ^ (carry & 0xC200_0000_0000_0000_0000_0000_0000_0001)
}

/// Montgomery reduction of a 256-bit carry-less product `(hi, lo)`: `(hi, lo) · 2^-128`
/// modulo `P*(y) = y^128 + y^127 + y^126 + y^121 + 1`, the bit-reversed GCM polynomial. As
/// `P* ≡ 1 (mod y^64)`, each 64-bit step adds `d₀ · P*`, which is `d₀` shifted by 57, 62, 63
/// and 128.
// 32-bit targets have only ct32, which reduces on words (its test checks it against this).
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
#[inline(always)]
pub(crate) fn reduce(hi: u128, lo: u128) -> u128 {
    let fold = |d: u64| -> u128 {
        let d = u128::from(d);
        (d << 57) ^ (d << 62) ^ (d << 63)
    };
    let d0 = lo as u64;
    let t = fold(d0);
    let d1 = (lo >> 64) as u64 ^ t as u64;
    let mid = (t >> 64) as u64 ^ d0; // added to d2
    let t = fold(d1);
    hi ^ u128::from(mid) ^ u128::from(d1) << 64 ^ t
}

/// A GHASH key in the form of the implementation chosen for it.
// No allocator: the eight precomputed powers live inline.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub(crate) enum GhashKey {
    #[cfg(target_pointer_width = "64")]
    Ct64(ct64::Key),
    #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
    Ct32(ct32::Key),
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Thumb1(ct32::Key),
    #[cfg(target_arch = "x86_64")]
    X86Pclmul(core_cpu::ClMul, x86_pclmul::Key),
    #[cfg(target_arch = "x86_64")]
    X86Vpclmul(core_cpu::Vaes, x86_vpclmul::Key),
    #[cfg(target_arch = "x86_64")]
    X86Vpclmul512(core_cpu::Vaes512, x86_vpclmul::Key),
    #[cfg(target_arch = "aarch64")]
    Aarch64(core_cpu::ArmAesPmull, aarch64::Key),
}

impl GhashKey {
    /// Precomputes what `imp` needs from the hash key `h = E(K, 0^128)`.
    pub(crate) fn new(imp: GhashImpl, h: &[u8; 16]) -> Self {
        match imp {
            #[cfg(target_arch = "x86_64")]
            GhashImpl::X86Pclmul(token) => Self::X86Pclmul(token, x86_pclmul::Key::new(token, h)),
            #[cfg(target_arch = "x86_64")]
            GhashImpl::X86Vpclmul(token) => {
                Self::X86Vpclmul(token, x86_vpclmul::Key::new(token, h))
            }
            #[cfg(target_arch = "x86_64")]
            GhashImpl::X86Vpclmul512(token) => {
                Self::X86Vpclmul512(token, x86_vpclmul::Key::new512(token, h))
            }
            #[cfg(target_arch = "aarch64")]
            GhashImpl::Aarch64(token) => Self::Aarch64(token, aarch64::Key::new(token, h)),
            #[cfg(target_pointer_width = "64")]
            GhashImpl::Ct64 => Self::Ct64(ct64::Key::new(h)),
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            GhashImpl::Thumb1 => {
                let mut key = Self::Thumb1(ct32::Key::zero());
                key.set_ct32(h);
                key
            }
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            GhashImpl::Ct32 => {
                let mut key = Self::Ct32(ct32::Key::zero());
                key.set_ct32(h);
                key
            }
            // Tokens for another architecture cannot be obtained.
            _ => Self::new(GhashImpl::PORTABLE, h),
        }
    }

    /// Keys the ct32 schedule where it is kept (see `ct32::Key::zero`).
    #[inline(always)]
    fn set_ct32(&mut self, h: &[u8; 16]) {
        match self {
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Ct32(k) => k.set(h),
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            Self::Thumb1(k) => k.set(h),
            #[allow(unreachable_patterns)]
            _ => {}
        }
    }

    pub(crate) fn implementation(&self) -> GhashImpl {
        match self {
            #[cfg(target_pointer_width = "64")]
            Self::Ct64(_) => GhashImpl::Ct64,
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Ct32(_) => GhashImpl::Ct32,
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            Self::Thumb1(_) => GhashImpl::Thumb1,
            #[cfg(target_arch = "x86_64")]
            Self::X86Pclmul(token, _) => GhashImpl::X86Pclmul(*token),
            #[cfg(target_arch = "x86_64")]
            Self::X86Vpclmul(token, _) => GhashImpl::X86Vpclmul(*token),
            #[cfg(target_arch = "x86_64")]
            Self::X86Vpclmul512(token, _) => GhashImpl::X86Vpclmul512(*token),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64(token, _) => GhashImpl::Aarch64(*token),
        }
    }

    /// Absorbs whole blocks into the accumulator `y`.
    pub(crate) fn update_blocks(&self, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
        match self {
            #[cfg(target_pointer_width = "64")]
            Self::Ct64(k) => ct64::update(k, y, blocks),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Ct32(k) => ct32::update(k, y, blocks),
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            Self::Thumb1(k) => thumb1::update(k, y, blocks),
            #[cfg(target_arch = "x86_64")]
            Self::X86Pclmul(token, k) => x86_pclmul::update(*token, k, y, blocks),
            #[cfg(target_arch = "x86_64")]
            Self::X86Vpclmul(token, k) => x86_vpclmul::update(*token, k, y, blocks),
            #[cfg(target_arch = "x86_64")]
            Self::X86Vpclmul512(token, k) => x86_vpclmul::update512(*token, k, y, blocks),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64(token, k) => aarch64::update(*token, k, y, blocks),
        }
    }

    /// Absorbs `data` zero-padded to a whole number of blocks, as GCM does with the AAD and
    /// the ciphertext.
    pub(crate) fn update_padded(&self, y: &mut [u8; 16], data: &[u8]) {
        let (blocks, rest) = data.as_chunks::<16>();
        self.update_blocks(y, blocks);
        if !rest.is_empty() {
            let mut last = [0u8; 16];
            last[..rest.len()].copy_from_slice(rest);
            self.update_blocks(y, core::slice::from_ref(&last));
            last.zeroize();
        }
    }
}

/// GHASH under one key (SP 800-38D §6.4), for GCM and for tests of its implementations.
///
/// ```
/// use core_aead::Ghash;
///
/// // GCM test case 2: H = E(0^128, 0^128), one ciphertext block, then the length block.
/// let h = [0x66, 0xe9, 0x4b, 0xd4, 0xef, 0x8a, 0x2c, 0x3b,
///          0x88, 0x4c, 0xfa, 0x59, 0xca, 0x34, 0x2b, 0x2e];
/// let mut g = Ghash::new(&h);
/// g.update_padded(&[0x03, 0x88, 0xda, 0xce, 0x60, 0xb6, 0xa3, 0x92,
///                   0xf3, 0x28, 0xc2, 0xb9, 0x71, 0xb2, 0xfe, 0x78]);
/// g.update_padded(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80]);
/// assert_eq!(g.finish()[..4], [0xf3, 0x8c, 0xbb, 0x1a]);
/// ```
#[derive(Clone)]
pub struct Ghash {
    key: GhashKey,
    y: [u8; 16],
}

impl fmt::Debug for Ghash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ghash")
            .field("implementation", &self.key.implementation().name())
            .finish_non_exhaustive()
    }
}

impl Ghash {
    /// GHASH keyed with `h` on the preferred implementation for this CPU
    /// ([`GhashImpl::preferred`]).
    pub fn new(h: &[u8; 16]) -> Self {
        Self::with_impl(GhashImpl::preferred(), h)
    }

    /// GHASH keyed with `h` on the given implementation.
    pub fn with_impl(imp: GhashImpl, h: &[u8; 16]) -> Self {
        Self { key: GhashKey::new(imp, h), y: [0; 16] }
    }

    /// The implementation this hash runs on.
    pub fn implementation(&self) -> GhashImpl {
        self.key.implementation()
    }

    /// Absorbs `data`, zero-padded to a multiple of 16 bytes (each call is padded separately,
    /// as GCM pads the AAD and the ciphertext).
    pub fn update_padded(&mut self, data: &[u8]) {
        self.key.update_padded(&mut self.y, data);
    }

    /// The hash of everything absorbed.
    pub fn finish(mut self) -> [u8; 16] {
        let y = self.y;
        self.y.zeroize();
        y
    }
}

impl Drop for Ghash {
    fn drop(&mut self) {
        self.y.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field product by the definition (SP 800-38D §6.3, Algorithm 1), bit by bit.
    fn mul_reference(x: u128, y: u128) -> u128 {
        let r = 0xE1u128 << 120;
        let (mut z, mut v) = (0u128, y);
        for i in 0..128 {
            if (x >> (127 - i)) & 1 == 1 {
                z ^= v;
            }
            v = if v & 1 == 1 { (v >> 1) ^ r } else { v >> 1 };
        }
        z
    }

    #[test]
    fn every_implementation_multiplies_like_the_definition() {
        let mut seed = 0x0123_4567_89ab_cdef_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..200 {
            let h = (u128::from(next()) << 64) | u128::from(next());
            let x = match round {
                0 => 0,
                1 => 1,
                2 => 1 << 127,
                3 => u128::MAX,
                _ => (u128::from(next()) << 64) | u128::from(next()),
            };
            let want = mul_reference(x, h);
            for imp in GhashImpl::available() {
                let key = GhashKey::new(imp, &h.to_be_bytes());
                let mut y = [0u8; 16];
                key.update_blocks(&mut y, &[x.to_be_bytes()]);
                assert_eq!(u128::from_be_bytes(y), want, "{imp:?}: {x:032x} · {h:032x}");
            }
        }
    }
}
