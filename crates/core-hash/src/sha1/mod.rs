//! SHA-1 (FIPS 180-4 §6.1). Broken for collision resistance: here only to read old
//! certificates and formats; never use it to sign. Backends:
//!
//! - [`portable`]: 32-bit integer code;
//! - [`x86_shani`]: the x86 SHA extensions (`sha1rnds4`);
//! - [`x86_avx2`]: message schedule of two blocks at once in AVX2, rounds with BMI2 `rorx`;
//! - [`aarch64`]: the Armv8 SHA-1 instructions (`sha1c`, `sha1p`, `sha1m`).

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_shani;


crate::implementation_enum! {
    /// A SHA-1 implementation. Accelerated variants carry the CPU-feature token that proves they
    /// can run, so they can only be obtained through [`Implementation::available`](crate::Implementation::available).
    pub enum Sha1Impl {
        accelerated {
            /// x86 SHA extensions.
            X86Shani(core_cpu::Sha) => "x86_shani",
            /// AVX2 message schedule for two blocks at a time, BMI2 rounds.
            X86Avx2(core_cpu::Avx2) => "x86_avx2",
            /// Armv8 SHA-1 instructions.
            Aarch64(core_cpu::ArmSha2) => "aarch64",
        }
        portable {
            /// Portable 32-bit code with a 16-word rolling schedule.
            Portable => "portable",
        }
    }
}

impl Sha1Impl {
    /// Runs the compression function over `blocks`, in order.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
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

/// The 80 rounds of one block (FIPS 180-4 §6.1.2 steps 2–4): `wk(t)` supplies K[t] + W[t]
/// and is called for t = 0, 1, …, 79 in order. Five rounds per iteration rotate the roles
/// of the working variables instead of moving them.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn rounds(state: &mut [u32; 5], mut wk: impl FnMut(usize) -> u32) {
    /// Twenty rounds with the logical function `f`, starting at round `t0`.
    #[inline(always)]
    fn twenty(
        v: &mut [u32; 5],
        t0: usize,
        f: impl Fn(u32, u32, u32) -> u32,
        wk: &mut impl FnMut(usize) -> u32,
    ) {
        /// One round: `e` becomes the new `a`, `b` is rotated into the new `c`.
        #[inline(always)]
        fn round(a: u32, b: &mut u32, e: &mut u32, f: u32, wk: u32) {
            *e = e.wrapping_add(a.rotate_left(5)).wrapping_add(f).wrapping_add(wk);
            *b = b.rotate_left(30);
        }
        let [mut a, mut b, mut c, mut d, mut e] = *v;
        for t in (t0..t0 + 20).step_by(5) {
            let x = f(b, c, d);
            round(a, &mut b, &mut e, x, wk(t));
            let x = f(a, b, c);
            round(e, &mut a, &mut d, x, wk(t + 1));
            let x = f(e, a, b);
            round(d, &mut e, &mut c, x, wk(t + 2));
            let x = f(d, e, a);
            round(c, &mut d, &mut b, x, wk(t + 3));
            let x = f(c, d, e);
            round(b, &mut c, &mut a, x, wk(t + 4));
        }
        *v = [a, b, c, d, e];
    }
    let mut v = *state;
    // Ch and Maj as sums of terms with no bits in common, so the adds can be reordered.
    twenty(&mut v, 0, |b, c, d| (b & c).wrapping_add(!b & d), &mut wk);
    twenty(&mut v, 20, |b, c, d| b ^ c ^ d, &mut wk);
    twenty(&mut v, 40, |b, c, d| (b & c).wrapping_add((b ^ c) & d), &mut wk);
    twenty(&mut v, 60, |b, c, d| b ^ c ^ d, &mut wk);
    for (s, x) in state.iter_mut().zip(v) {
        *s = s.wrapping_add(x);
    }
}

/// The SHA-1 round constants, one per group of 20 rounds (FIPS 180-4 §4.2.1).
pub(crate) const K: [u32; 4] = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

crate::md::md_hash! {
    /// SHA-1 (FIPS 180-4). Legacy: collisions are practical.
    Sha1, Sha1Impl, u32, 64, 5, 20, true,
    [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]
}
