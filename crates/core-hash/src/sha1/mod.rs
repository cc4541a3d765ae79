//! SHA-1 (FIPS 180-4 §6.1). Broken for collision resistance: here only to read old
//! certificates and formats; never use it to sign. Backends:
//!
//! - [`portable`]: 32-bit integer code;
//! - [`x86_shani`]: the x86 SHA extensions (`sha1rnds4`);
//! - [`x86_avx2`]: message schedule of two blocks at once in AVX2, rounds with BMI2 `rorx`;
//! - `aarch64`: the Armv8 SHA-1 instructions (`sha1c`, `sha1p`, `sha1m`).

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

    /// Runs the compression function over `first`'s blocks, then `rest`'s: in one call to
    /// the SHA-NI kernel, which keeps the state in registers across both.
    #[inline]
    pub(crate) fn compress2(self, state: &mut [u32; 5], first: &[[u8; 64]], rest: &[[u8; 64]]) {
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

/// The 80 rounds of one block (FIPS 180-4 §6.1.2 steps 2–4), fully unrolled for the vector
/// backend: `wk(t)` supplies K\[t\] + W\[t\] and is called for t = 0, 1, …, 79 in order, each
/// time with a constant round number, so the schedule the closure computes is indexed
/// statically throughout and no loop or branch is left between the rounds.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn rounds_unrolled(state: &mut [u32; 5], mut wk: impl FnMut(usize) -> u32) {
    /// Round `T`: the working variables rotate through `v`, so round `T`'s `a` is
    /// `v[(5 - T % 5) % 5]` and nothing is moved.
    #[inline(always)]
    fn round<const T: usize>(v: &mut [u32; 5], wk: u32) {
        let at = |i: usize| (5 - T % 5 + i) % 5;
        let (a, b, c, d) = (v[at(0)], v[at(1)], v[at(2)], v[at(3)]);
        // Ch and Maj as sums of terms with no bits in common, so the adds can be reordered.
        let f = match T / 20 {
            0 => (b & c).wrapping_add(!b & d),
            2 => (b & c).wrapping_add((b ^ c) & d),
            _ => b ^ c ^ d,
        };
        v[at(4)] = v[at(4)].wrapping_add(a.rotate_left(5)).wrapping_add(f).wrapping_add(wk);
        v[at(1)] = b.rotate_left(30);
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

/// The SHA-1 round constants, one per group of 20 rounds (FIPS 180-4 §4.2.1).
pub(crate) const K: [u32; 4] = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

crate::md::md_hash! {
    /// SHA-1 (FIPS 180-4). Legacy: collisions are practical.
    Sha1, Sha1Impl, u32, 64, 5, 20, true,
    [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]
}

/// The raw chaining-value interface, for constructions that must control which blocks are
/// compressed (TLS CBC records' constant-time HMAC check, Lucky Thirteen): not a hash API.
impl Sha1 {
    /// The initial hash value (FIPS 180-4 §5.3).
    #[doc(hidden)]
    pub const INITIAL_STATE: [u32; 5] = Self::IV;
}

impl Sha1Impl {
    /// Runs this implementation's compression function over `blocks`, in order: for callers
    /// that pad and select chaining values themselves (see [`Sha1::INITIAL_STATE`]).
    #[doc(hidden)]
    #[inline]
    pub fn compress_blocks(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        self.compress(state, blocks);
    }
}
