//! SHA-256 and SHA-224 (FIPS 180-4 §6.2, §6.3): one compression function, three backends.
//!
//! - [`portable`]: 32-bit integer code, compact enough for a Cortex-M0;
//! - [`x86_shani`]: the x86 SHA extensions (`sha256rnds2`);
//! - [`x86_avx2`]: message schedule of two blocks at once in AVX2, rounds with BMI2 `rorx`;
//! - `aarch64`: the Armv8 SHA-2 instructions (`sha256h`).
//!
//! Besides them, [`mb`] hashes many messages at once, one per SIMD lane
//! ([`x86_avx512_mb`]: 16, [`x86_avx2_mb`]: 8).

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod mb;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_avx2_mb;
#[cfg(target_arch = "x86_64")]
mod x86_avx512_mb;
#[cfg(target_arch = "x86_64")]
mod x86_shani;

pub use mb::{CountMismatch, MAX_LANES, Sha256Many, Sha256MbImpl};

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

    /// Runs the compression function over `first`'s blocks, then `rest`'s: in one call to
    /// the SHA-NI kernel, which keeps the state in registers across both.
    #[inline]
    pub(crate) fn compress2(self, state: &mut [u32; 8], first: &[[u8; 64]], rest: &[[u8; 64]]) {
        #[cfg(target_arch = "x86_64")]
        if let Self::X86Shani(token) = self {
            return x86_shani::compress2(token, state, first, rest);
        }
        if !first.is_empty() {
            self.compress(state, first);
        }
        self.compress(state, rest);
    }
}

/// The 64 rounds of one block (FIPS 180-4 §6.2.2 steps 2–4), fully unrolled for the vector
/// backends: `wk(t)` supplies K\[t\] + W\[t\] and is called for t = 0, 1, …, 63 in order, each
/// time with a constant round number, so the schedule the closure computes is indexed
/// statically throughout and no loop or branch is left between the rounds. (The portable code
/// keeps a compact loop: this is several times larger.)
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn rounds_unrolled(state: &mut [u32; 8], mut wk: impl FnMut(usize) -> u32) {
    /// Round `T`: the working variables rotate through `v`, so round `T`'s `a` is
    /// `v[(8 - T % 8) % 8]` and nothing is moved.
    #[inline(always)]
    fn round<const T: usize>(v: &mut [u32; 8], wk: u32) {
        let at = |i: usize| (8 - T % 8 + i) % 8;
        let (a, b, c, e, f, g) = (v[at(0)], v[at(1)], v[at(2)], v[at(4)], v[at(5)], v[at(6)]);
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let t1 =
            v[at(7)].wrapping_add(wk).wrapping_add(e & f).wrapping_add(!e & g).wrapping_add(s1);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = ((a ^ b) & (b ^ c)) ^ b;
        v[at(3)] = v[at(3)].wrapping_add(t1);
        v[at(7)] = t1.wrapping_add(s0.wrapping_add(maj));
    }
    macro_rules! each {
        ($v:ident, $wk:ident; $($t:literal)*) => { $( round::<$t>(&mut $v, $wk($t)); )* };
    }
    let mut v = *state;
    each!(v, wk; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
    for (s, x) in state.iter_mut().zip(v) {
        *s = s.wrapping_add(x);
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

/// The raw chaining-value interface, for constructions that must control which blocks are
/// compressed (TLS CBC records' constant-time HMAC check, Lucky Thirteen): not a hash API.
impl Sha256 {
    /// The initial hash value (FIPS 180-4 §5.3).
    #[doc(hidden)]
    pub const INITIAL_STATE: [u32; 8] = Self::IV;
}

impl Sha256Impl {
    /// Runs this implementation's compression function over `blocks`, in order: for callers
    /// that pad and select chaining values themselves (see [`Sha256::INITIAL_STATE`]).
    #[doc(hidden)]
    #[inline]
    pub fn compress_blocks(self, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
        self.compress(state, blocks);
    }
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
