//! SHA-256 and SHA-224 (FIPS 180-4 §6.2, §6.3): one compression function, three backends.
//!
//! - [`portable`]: 32-bit integer code, compact enough for a Cortex-M0;
//! - [`x86_shani`]: the x86 SHA extensions (`sha256rnds2`);
//! - [`x86_avx2`]: message schedule of two blocks at once in AVX2, rounds with BMI2 `rorx`;
//! - [`aarch64`]: the Armv8 SHA-2 instructions (`sha256h`).

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_shani;


crate::implementation_enum! {
    /// A SHA-256/SHA-224 implementation. Accelerated variants carry the CPU-feature token that
    /// proves they can run, so they can only be obtained through [`Implementation::available`](crate::Implementation::available).
    pub enum Sha256Impl {
        accelerated {
            /// x86 SHA extensions.
            X86Shani(core_cpu::Sha) => "x86_shani",
            /// AVX2 message schedule for two blocks at a time, BMI2 rounds.
            X86Avx2(core_cpu::Avx2) => "x86_avx2",
            /// Armv8 SHA-2 instructions.
            Aarch64(core_cpu::ArmSha2) => "aarch64",
        }
        portable {
            /// Portable 32-bit code (FIPS 180-4 as written, with a 16-word rolling schedule).
            Portable => "portable",
        }
    }
}

impl Sha256Impl {
    /// Runs the compression function over `blocks`, in order.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Self::X86Shani(token) => x86_shani::compress(token, state, blocks),
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx2(token) => x86_avx2::compress(token, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64(token) => aarch64::compress(token, state, blocks),
            // Tokens for another architecture cannot be obtained, so only `Portable` is left.
            _ => portable::compress(state, blocks),
        }
    }
}

/// The 64 rounds of one block (FIPS 180-4 §6.2.2 steps 2–4): `wk(t)` supplies K[t] + W[t]
/// and is called for t = 0, 1, …, 63 in order. Eight rounds per iteration rotate the roles
/// of the working variables instead of moving them.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn rounds(state: &mut [u32; 8], mut wk: impl FnMut(usize) -> u32) {
    /// One round: `d` becomes the new `e` and `h` the new `a`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn round(a: u32, b: u32, c: u32, d: &mut u32, e: u32, f: u32, g: u32, h: &mut u32, wk: u32) {
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        // Ch(e, f, g): the two terms have no bits in common, so it is added term by term
        // (`and`, `andn`), and h + K[t] + W[t], which does not depend on e, first.
        let t1 = h.wrapping_add(wk).wrapping_add(e & f).wrapping_add(!e & g).wrapping_add(s1);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        // Maj(a, b, c) as ((a ⊕ b) ∧ (b ⊕ c)) ⊕ b: this round's b ⊕ c is the last one's a ⊕ b.
        let maj = ((a ^ b) & (b ^ c)) ^ b;
        *d = d.wrapping_add(t1);
        *h = t1.wrapping_add(s0.wrapping_add(maj));
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for t in (0..64).step_by(8) {
        round(a, b, c, &mut d, e, f, g, &mut h, wk(t));
        round(h, a, b, &mut c, d, e, f, &mut g, wk(t + 1));
        round(g, h, a, &mut b, c, d, e, &mut f, wk(t + 2));
        round(f, g, h, &mut a, b, c, d, &mut e, wk(t + 3));
        round(e, f, g, &mut h, a, b, c, &mut d, wk(t + 4));
        round(d, e, f, &mut g, h, a, b, &mut c, wk(t + 5));
        round(c, d, e, &mut f, g, h, a, &mut b, wk(t + 6));
        round(b, c, d, &mut e, f, g, h, &mut a, wk(t + 7));
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

/// The SHA-256 round constants K (FIPS 180-4 §4.2.2).
pub(crate) const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

crate::md::md_hash! {
    /// SHA-256 (FIPS 180-4).
    Sha256, Sha256Impl, u32, 64, 8, 32, true,
    [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
}

crate::md::md_hash! {
    /// SHA-224 (FIPS 180-4): SHA-256 with another IV, truncated to 28 bytes.
    Sha224, Sha256Impl, u32, 64, 8, 28, true,
    [0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Hash, Implementation};
    use hex_literal::hex;

    #[test]
    fn abc_on_every_implementation() {
        for imp in Sha256::implementations() {
            let mut h = Sha256::with_impl(imp);
            h.update(b"abc");
            assert_eq!(
                h.finalize(),
                hex!("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
                "{imp:?}"
            );
        }
    }

    #[test]
    fn portable_is_always_available_and_last() {
        assert_eq!(Sha256Impl::available().last(), Some(Sha256Impl::Portable));
        assert_eq!(Sha256Impl::by_name("portable"), Some(Sha256Impl::Portable));
        assert_eq!(Sha256Impl::by_name("no-such-backend"), None);
        for imp in Sha256Impl::available() {
            assert!(Sha256Impl::ALL.contains(&imp.name()));
        }
    }
}
