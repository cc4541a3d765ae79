//! SHA-512, SHA-384 and SHA-512/256 (FIPS 180-4 §6.4–6.7): one compression function on
//! 64-bit words, several backends.
//!
//! - [`portable`]: 64-bit integer code (the compiler splits it into 32-bit halves on M0);
//! - [`x86_avx2`]: message schedule of two blocks at once in AVX2, rounds with BMI2 `rorx`;
//! - [`x86_avx512`]: the same with AVX-512 rotates and three-way XORs in the schedule;
//! - `aarch64`: the Armv8.2 SHA-512 instructions (`sha512h`, `sha512su0`…).

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_avx512;

crate::implementation_enum! {
    /// A SHA-512/SHA-384/SHA-512/256 implementation. Accelerated variants carry the CPU-feature
    /// token that proves they can run, so they can only be obtained through
    /// [`Implementation::available`](crate::Implementation::available).
    pub enum Sha512Impl {
        accelerated {
            /// AVX-512VL message schedule (`vprorq`, `vpternlogq`) for two blocks, BMI2 rounds.
            X86Avx512(core_cpu::Avx512) => "x86_avx512",
            /// AVX2 message schedule for two blocks at a time, BMI2 rounds.
            X86Avx2(core_cpu::Avx2) => "x86_avx2",
            /// Armv8.2 SHA-512 instructions.
            Aarch64(core_cpu::ArmSha512) => "aarch64",
        }
        portable {
            /// Portable 64-bit code with a 16-word rolling schedule.
            Portable => "portable",
        }
    }
}

impl Sha512Impl {
    /// Runs the compression function over `blocks`, in order.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx512(token) => x86_avx512::compress(token, state, blocks),
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx2(token) => x86_avx2::compress(token, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64(token) => aarch64::compress(token, state, blocks),
            // Tokens for another architecture cannot be obtained, so only `Portable` is left.
            _ => portable::compress(state, blocks),
        }
    }

    /// Runs the compression function over `first`'s blocks, then `rest`'s.
    #[inline]
    pub(crate) fn compress2(self, state: &mut [u64; 8], first: &[[u8; 128]], rest: &[[u8; 128]]) {
        if !first.is_empty() {
            self.compress(state, first);
        }
        self.compress(state, rest);
    }
}

/// The 80 rounds of one block (FIPS 180-4 §6.4.2 steps 2–4): `wk(t)` supplies K\[t\] + W\[t\]
/// and is called for t = 0, 1, …, 79 in order, so it may compute the schedule as it goes.
/// Eight rounds per iteration rotate the roles of the working variables instead of moving
/// them.
#[inline(always)]
pub(crate) fn rounds(state: &mut [u64; 8], mut wk: impl FnMut(usize) -> u64) {
    /// One round: `d` becomes the new `e` and `h` the new `a`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn round(a: u64, b: u64, c: u64, d: &mut u64, e: u64, f: u64, g: u64, h: &mut u64, wk: u64) {
        let s1 = e.rotate_right(14) ^ e.rotate_right(18) ^ e.rotate_right(41);
        // Ch(e, f, g): the two terms have no bits in common, so it is added term by term
        // (`and`, `andn`), and h + K[t] + W[t], which does not depend on e, first.
        let t1 = h.wrapping_add(wk).wrapping_add(e & f).wrapping_add(!e & g).wrapping_add(s1);
        let s0 = a.rotate_right(28) ^ a.rotate_right(34) ^ a.rotate_right(39);
        // Maj(a, b, c) as ((a ⊕ b) ∧ (b ⊕ c)) ⊕ b: this round's b ⊕ c is the last one's a ⊕ b.
        let maj = ((a ^ b) & (b ^ c)) ^ b;
        *d = d.wrapping_add(t1);
        *h = t1.wrapping_add(s0.wrapping_add(maj));
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    // Sixteen rounds per iteration: `t % 16` is then a constant at every call of `wk`, so a
    // caller's schedule ring (16 words, or 4 or 8 vectors) is indexed statically and stays in
    // registers.
    for t0 in (0..80).step_by(16) {
        for t in [t0, t0 + 8] {
            round(a, b, c, &mut d, e, f, g, &mut h, wk(t));
            round(h, a, b, &mut c, d, e, f, &mut g, wk(t + 1));
            round(g, h, a, &mut b, c, d, e, &mut f, wk(t + 2));
            round(f, g, h, &mut a, b, c, d, &mut e, wk(t + 3));
            round(e, f, g, &mut h, a, b, c, &mut d, wk(t + 4));
            round(d, e, f, &mut g, h, a, b, &mut c, wk(t + 5));
            round(c, d, e, &mut f, g, h, a, &mut b, wk(t + 6));
            round(b, c, d, &mut e, f, g, h, &mut a, wk(t + 7));
        }
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

/// [`rounds`] fully unrolled, for the vector backends: every call of `wk` gets a constant
/// round number, so the schedule the closure computes is indexed statically throughout and
/// no loop or branch is left between the rounds. (The portable code keeps the 16-round loop
/// of [`rounds`]: this is several times larger.)
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn rounds_unrolled(state: &mut [u64; 8], mut wk: impl FnMut(usize) -> u64) {
    /// Round `T`: the working variables rotate through `v`, so round `T`'s `a` is
    /// `v[(8 - T % 8) % 8]` and nothing is moved.
    #[inline(always)]
    fn round<const T: usize>(v: &mut [u64; 8], wk: u64) {
        let at = |i: usize| (8 - T % 8 + i) % 8;
        let [a, b, c, d, e, f, g, h] = core::array::from_fn(|i| v[at(i)]);
        let s1 = e.rotate_right(14) ^ e.rotate_right(18) ^ e.rotate_right(41);
        // new e = d + T1 = (d + h + K + W) + Ch(e, f, g) + Σ1(e): the first sum does not
        // depend on e, so the new e is four dependent steps after e (Ch's terms, two
        // additions, Σ1's last XOR in parallel), not five as with d + T1.
        let dhk = d.wrapping_add(h.wrapping_add(wk));
        let new_e = dhk.wrapping_add(e & f).wrapping_add(!e & g).wrapping_add(s1);
        let s0 = a.rotate_right(28) ^ a.rotate_right(34) ^ a.rotate_right(39);
        // new a = T1 + Σ0(a) + Maj(a, b, c) with T1 = new e - d, and Maj as
        // (a ∧ (b ⊕ c)) + (b ∧ c) (the two terms have no bits in common): all but a ∧ (b ⊕ c)
        // and Σ0(a) is known before a, so a's own chain is four steps too.
        let maj_d = (a & (b ^ c)).wrapping_add((b & c).wrapping_sub(d));
        v[at(3)] = new_e;
        v[at(7)] = new_e.wrapping_add(maj_d).wrapping_add(s0);
    }
    macro_rules! each {
        ($v:ident, $wk:ident; $($t:literal)*) => { $( round::<$t>(&mut $v, $wk($t)); )* };
    }
    let mut v = *state;
    each!(v, wk; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79);
    for (s, x) in state.iter_mut().zip(v) {
        *s = s.wrapping_add(x);
    }
}

/// The SHA-512 round constants K (FIPS 180-4 §4.2.3).
pub(crate) const K: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

crate::md::md_hash! {
    /// SHA-512 (FIPS 180-4).
    Sha512, Sha512Impl, u64, 128, 8, 64, true,
    [
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
    ]
}

crate::md::md_hash! {
    /// SHA-384 (FIPS 180-4): SHA-512 with another IV, truncated to 48 bytes.
    Sha384, Sha512Impl, u64, 128, 8, 48, true,
    [
        0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
        0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4,
    ]
}

crate::md::md_hash! {
    /// SHA-512/256 (FIPS 180-4 §5.3.6.2): SHA-512 with the IV for t = 256, truncated to 32
    /// bytes.
    Sha512_256, Sha512Impl, u64, 128, 8, 32, true,
    [
        0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151, 0x963877195940eabd,
        0x96283ee2a88effe3, 0xbe5e1e2553863992, 0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2,
    ]
}

/// The raw chaining-value interface, for constructions that must control which blocks are
/// compressed (TLS CBC records' constant-time HMAC check, Lucky Thirteen): not a hash API.
impl Sha384 {
    /// The initial hash value (FIPS 180-4 §5.3.4).
    #[doc(hidden)]
    pub const INITIAL_STATE: [u64; 8] = Self::IV;
}

impl Sha512Impl {
    /// Runs this implementation's compression function over `blocks`, in order: for callers
    /// that pad and select chaining values themselves (see [`Sha384::INITIAL_STATE`]).
    #[doc(hidden)]
    #[inline]
    pub fn compress_blocks(self, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
        self.compress(state, blocks);
    }
}

/// SHA-384 and SHA-512 of the same stream, sharing one block buffer (the two differ only in
/// their initial value and output length, FIPS 180-4 §5.3.4-5.3.5): for a party that must
/// keep both running until it learns which one it needs, in 280 bytes instead of two
/// hashers' 432 (a TLS 1.2 server checking a client's `CertificateVerify`, RFC 5246 §7.4.8).
/// [`split`](Self::split) gives the two hashers to go on with.
#[derive(Clone)]
pub struct Sha384And512 {
    s384: [u64; 8],
    s512: [u64; 8],
    buffer: crate::md::BlockBuffer<128>,
    imp: Sha512Impl,
}

impl Sha384And512 {
    /// Both hashers on the fastest implementation this CPU can run.
    #[must_use]
    pub fn new() -> Self {
        let imp = <Sha512Impl as crate::Implementation>::best();
        Self { s384: Sha384::IV, s512: Sha512::IV, buffer: crate::md::BlockBuffer::default(), imp }
    }

    /// Absorbs `data` into both.
    pub fn update(&mut self, data: &[u8]) {
        let Self { s384, s512, buffer, imp } = self;
        buffer.update(data, |first, rest| {
            imp.compress2(s384, first, rest);
            imp.compress2(s512, first, rest);
        });
    }

    /// The SHA-384 and SHA-512 hashers of what was absorbed.
    #[must_use]
    pub fn split(self) -> (Sha384, Sha512) {
        let (imp, buffer) = (self.imp, self.buffer.clone());
        (
            Sha384 { state: self.s384, buffer: buffer.clone(), imp },
            Sha512 { state: self.s512, buffer, imp },
        )
    }
}

impl Default for Sha384And512 {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for Sha384And512 {
    /// Names the implementation only: the state may be derived from a secret.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Sha384And512")
            .field("implementation", &crate::Implementation::name(self.imp))
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod pair_tests {
    use super::{Sha384, Sha384And512, Sha512};

    /// The shared buffer is the point: smaller than the two hashers apart (280 bytes against
    /// 432 on 64-bit targets, as the type's documentation says).
    #[test]
    fn pair_is_smaller_than_two_hashers() {
        use core::mem::size_of;
        assert!(size_of::<Sha384And512>() + 128 <= size_of::<Sha384>() + size_of::<Sha512>());
        #[cfg(target_pointer_width = "64")]
        assert_eq!((size_of::<Sha384And512>(), 2 * size_of::<Sha512>()), (280, 432));
    }

    /// Split at any point, each half hashes what the lone hasher does, for lengths across
    /// block boundaries and updates of every size.
    #[test]
    fn pair_matches_each_hash() {
        let data: [u8; 300] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        for len in [0, 1, 111, 112, 127, 128, 129, 255, 256, 300] {
            for step in [1, 5, 64, 128, 300] {
                let mut pair = Sha384And512::new();
                for chunk in data[..len].chunks(step) {
                    pair.update(chunk);
                }
                let (mut a, mut b) = pair.split();
                assert_eq!(a.clone().finalize(), Sha384::digest(&data[..len]), "{len} {step}");
                assert_eq!(b.clone().finalize(), Sha512::digest(&data[..len]), "{len} {step}");
                // Both go on hashing on their own.
                a.update(b"x");
                b.update(b"x");
                let mut more = std::vec::Vec::from(&data[..len]);
                more.push(b'x');
                assert_eq!(a.finalize(), Sha384::digest(&more));
                assert_eq!(b.finalize(), Sha512::digest(&more));
            }
        }
    }
}
