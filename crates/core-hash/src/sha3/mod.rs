//! SHA-3 and SHAKE (FIPS 202): the Keccak-f\[1600\] permutation, one sponge over it, and the
//! four fixed-length hashes and two extendable-output functions built on that sponge.
//!
//! The permutation has four implementations, all free of branches and memory indices that
//! depend on data:
//! - [`portable`]: 64-bit lanes, unrolled; the default on 64-bit CPUs without extensions;
//! - [`portable32`]: bit-interleaved 32-bit lanes, compact; the default on 32-bit CPUs;
//! - `thumb1`: `portable32`'s permutation in Thumb-1 assembly, in its place on 32-bit Arm with
//!   the `asm` feature (the Cortex-M0 above all);
//! - `aarch64`: the Armv8.2 SHA-3 instructions (`eor3`, `rax1`, `xar`, `bcax`);
//! - [`x86_avx512`]: AVX-512 rotates and three-input logic (`vprolq`, `vpternlogq`).
//!
//! Besides them, [`keccak_f1600_x4_avx2`] (`x86_avx2_x4`) runs four independent
//! permutations at once, one per 64-bit element of AVX2 registers, and
//! [`keccak_f1600_x4_avx512vl`] (`x86_avx512vl_x4`) does the same with the AVX-512
//! instructions on those registers, in half the instructions;
//! [`keccak_f1600_x8_avx512`] (`x86_avx512_x8`) runs eight, one per element of 512-bit
//! registers.

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
mod portable;
// With `thumb1` in its place, only its lane encoding and round constants are used.
#[cfg_attr(all(feature = "asm", target_arch = "arm"), allow(dead_code))]
mod portable32;
mod sponge;
#[cfg(all(feature = "asm", target_arch = "arm"))]
mod thumb1;
#[cfg(target_arch = "x86_64")]
mod x86_avx2_x4;
// `macro_use`: its round macro also makes the four-way round of `x86_avx512vl_x4`.
#[cfg(target_arch = "x86_64")]
#[macro_use]
mod x86_avx512;
#[cfg(target_arch = "x86_64")]
mod x86_avx512_x8;
#[cfg(target_arch = "x86_64")]
mod x86_avx512vl_x4;

use crate::Implementation;
use sponge::{Sponge, Squeeze};

crate::implementation_enum! {
    /// A Keccak-f\[1600\] implementation, for SHA-3 and SHAKE. Accelerated variants carry the
    /// CPU-feature token that proves they can run, so they can only be obtained through
    /// [`Implementation::available`].
    ///
    /// Both portable variants run everywhere (on 32-bit Arm with `asm`, `thumb1` alone stands
    /// in for them unless `portable-twins` is on); `available()` lists the one suited to the
    /// target's word size (`portable32` on 32-bit targets, `portable` otherwise) first.
    pub enum KeccakImpl {
        accelerated {
            /// AVX-512 `vprolq` and `vpternlogq` on 128-bit registers, one lane per register.
            X86Avx512(core_cpu::Avx512) => "x86_avx512",
            /// Armv8.2 SHA-3 instructions, one lane per vector register.
            Aarch64(core_cpu::ArmSha3) => "aarch64",
        }
        portable {
            /// `portable32`'s bit-interleaved rounds in Thumb-1 assembly, on 32-bit Arm with
            /// the `asm` feature.
            Thumb1 => "thumb1" for 32 if thumb1,
            /// Portable code on 64-bit lanes, each round written out for the compiler to
            /// schedule. Like `portable32`, left out of 32-bit Arm images with `asm` unless
            /// `portable-twins` asks for it: hashers store their implementation, so every
            /// listed variant's code is linked (with it, a Cortex-M0 image that runs SHA3-256
            /// had 2 KB more flash).
            Portable => "portable" for 64 if twin,
            /// Portable code on bit-interleaved 32-bit words, small enough for a Cortex-M0:
            /// `thumb1`'s twin.
            Portable32 => "portable32" for 32 if twin,
        }
    }
}

impl KeccakImpl {
    /// Keccak-f\[1600\] (FIPS 202 §3.3, 24 rounds of Keccak-p) on a state of 25 lanes, lane
    /// `x + 5y` holding the bits of column `x`, row `y`, bit `z` of the lane at bit `z`
    /// (so the byte string of §3.1 is the lanes in little-endian order).
    #[inline]
    pub fn permute(self, state: &mut [u64; 25]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx512(token) => x86_avx512::permute(token, state),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64(token) => aarch64::permute(token, state),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Portable32 => portable32::permute(state),
            #[cfg(all(feature = "asm", target_arch = "arm"))]
            Self::Thumb1 => thumb1::permute(state),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Portable => portable::permute(state),
            // A variant of another architecture's tokens, which cannot be obtained here: never
            // seen, but if it were it would be `PORTABLE`, in every dispatcher alike (so an
            // image with one implementation compiled in dispatches nothing).
            _ => Self::PORTABLE.permute(state),
        }
    }

    /// XORs each block into the first `R` bytes of `state` and permutes. `state` is in
    /// this implementation's lane encoding (interleaved for `Portable32`, standard
    /// otherwise); `R` is a whole number of lanes.
    #[inline]
    pub(crate) fn absorb<const R: usize>(self, state: &mut [u64; 25], blocks: &[[u8; R]]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx512(token) => x86_avx512::absorb(token, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64(token) => aarch64::absorb(token, state, blocks),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Portable32 => portable32::absorb(state, blocks),
            #[cfg(all(feature = "asm", target_arch = "arm"))]
            Self::Thumb1 => thumb1::absorb(state, blocks),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Portable => portable::absorb(state, blocks),
            _ => Self::PORTABLE.absorb(state, blocks),
        }
    }

    /// A lane of the standard encoding (as in [`permute`](Self::permute)) in this
    /// implementation's own: bit-interleaved for `Portable32` and `Thumb1`, unchanged for the
    /// others. A
    /// sponge run outside this crate over many blocks (ML-KEM's and ML-DSA's samplers) keeps
    /// its state so, converting only the lanes it writes or reads, with
    /// [`permute_native`](Self::permute_native) and [`extract`](Self::extract) in between.
    #[inline]
    pub fn to_native(self, lane: u64) -> u64 {
        if self.interleaved() { portable32::interleave(lane) } else { lane }
    }

    /// Keccak-f\[1600\] on a state in this implementation's lane encoding
    /// ([`to_native`](Self::to_native)).
    #[inline]
    pub fn permute_native(self, state: &mut [u64; 25]) {
        match self {
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Portable32 => portable32::permute_interleaved(state),
            #[cfg(all(feature = "asm", target_arch = "arm"))]
            Self::Thumb1 => thumb1::permute_interleaved(state),
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx512(_) => self.permute(state),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64(_) => self.permute(state),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Portable => self.permute(state),
            _ => Self::PORTABLE.permute_native(state),
        }
    }

    /// Copies bytes `offset..offset + out.len()` of a state in this implementation's lane
    /// encoding ([`to_native`](Self::to_native)) to `out`, as the bytes of the standard
    /// state (FIPS 202 §3.1.2). Bytes of `out` past the state's 200 are left as they are.
    #[inline]
    pub fn extract(self, state: &[u64; 25], offset: usize, out: &mut [u8]) {
        let len = out.len().min(sponge::STATE_BYTES.saturating_sub(offset));
        let Some(out) = out.get_mut(..len).filter(|out| !out.is_empty()) else { return };
        if self.interleaved() {
            sponge::extract_lanes(state, offset, out, portable32::uninterleave);
        } else {
            sponge::extract_lanes(state, offset, out, |lane| lane);
        }
    }

    /// Whether this implementation keeps lanes bit-interleaved.
    #[inline]
    fn interleaved(self) -> bool {
        match self {
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Portable32 => true,
            #[cfg(all(feature = "asm", target_arch = "arm"))]
            Self::Thumb1 => true,
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx512(_) => false,
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64(_) => false,
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Portable => false,
            _ => Self::PORTABLE.interleaved(),
        }
    }
}

/// Keccak-f\[1600\] on four independent states at once, with AVX2 (the token proves it):
/// `state[i][k]` is lane `i` (= x + 5y, standard encoding, as in [`KeccakImpl::permute`]) of
/// state `k`. For several sponges of the same shape run side by side, such as ML-KEM's matrix
/// sampling; about as fast per call as two single permutations.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn keccak_f1600_x4_avx2(token: core_cpu::Avx2, state: &mut [[u64; 4]; 25]) {
    x86_avx2_x4::permute_x4(token, state);
}

/// [`keccak_f1600_x4_avx2`] with AVX-512VL (the token proves it): `vpternlogq` and `vprolq`
/// on the same 256-bit registers and layout, the same results.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn keccak_f1600_x4_avx512vl(token: core_cpu::Avx512, state: &mut [[u64; 4]; 25]) {
    x86_avx512vl_x4::permute_x4(token, state);
}

/// Keccak-f\[1600\] on eight independent states at once, with AVX-512F on 512-bit registers
/// (the token proves it): `state[i][k]` is lane `i` of state `k`, as in
/// [`keccak_f1600_x4_avx2`]. About the cost of the four-way [`keccak_f1600_x4_avx512vl`]
/// where the CPU has full-width 512-bit units (Zen 5), so twice the throughput there.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn keccak_f1600_x8_avx512(token: core_cpu::Avx512, state: &mut [[u64; 8]; 25]) {
    x86_avx512_x8::permute_x8(token, state);
}

/// The Keccak-f\[1600\] round constants RC\[i\] (FIPS 202 §3.2.5, Algorithm 5).
pub(crate) const RC: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808a,
    0x8000000080008000,
    0x000000000000808b,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008a,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000a,
    0x000000008000808b,
    0x800000000000008b,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800a,
    0x800000008000000a,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

/// The ρ rotation of lane `x + 5y`, to the left (FIPS 202 §3.2.2, Table 2).
pub(crate) const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, //
    36, 44, 6, 55, 20, //
    3, 10, 43, 25, 39, //
    41, 45, 15, 21, 8, //
    18, 2, 61, 56, 14,
];

/// The lane that π moves to position `i` (FIPS 202 §3.2.3): position `(x, y)` takes lane
/// `(x + 3y, x)`.
pub(crate) const fn pi_source(i: usize) -> usize {
    let (x, y) = (i % 5, i / 5);
    (x + 3 * y) % 5 + 5 * x
}

/// The SHA-3 suffix `01` followed by the first bit of `pad10*1` (FIPS 202 §6.1).
const SHA3_SUFFIX: u8 = 0x06;
/// The SHAKE suffix `1111` followed by the first bit of `pad10*1` (FIPS 202 §6.2).
const SHAKE_SUFFIX: u8 = 0x1F;

/// Defines a SHA-3 hash type: the struct, its inherent API, and the [`Hash`](crate::Hash)
/// and `Zeroize` impls.
macro_rules! sha3_hash {
    ($(#[$doc:meta])* $name:ident, $rate:literal, $out:literal) => {
        $(#[$doc])*
        ///
        /// Streaming: [`update`](Self::update) any number of times, [`Clone`] to fork the
        /// state, then [`finalize`](Self::finalize). The implementation is chosen once, in
        /// [`new`](Self::new), or given with [`with_impl`](Self::with_impl).
        #[derive(Clone)]
        pub struct $name {
            sponge: Sponge<$rate>,
        }

        impl $name {
            /// Bytes of output.
            pub const OUTPUT_LEN: usize = $out;
            /// Bytes per block: the sponge's rate, `200 - 2 * OUTPUT_LEN`.
            pub const BLOCK_LEN: usize = $rate;

            /// A hasher on the fastest implementation this CPU can run
            /// ([`KeccakImpl::preferred`]).
            #[inline]
            #[must_use]
            pub fn new() -> Self {
                Self::with_impl(KeccakImpl::preferred())
            }

            /// A hasher on the given implementation.
            #[inline]
            #[must_use]
            pub fn with_impl(imp: KeccakImpl) -> Self {
                Self { sponge: Sponge::new(imp) }
            }

            /// The implementation this hasher runs on.
            #[must_use]
            pub fn implementation(&self) -> KeccakImpl {
                self.sponge.implementation()
            }

            /// Absorbs `data`.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.sponge.absorb(data);
            }

            /// Pads the message and returns the digest.
            #[inline]
            #[must_use]
            pub fn finalize(self) -> [u8; $out] {
                self.sponge.finish(SHA3_SUFFIX).first()
            }

            /// The digest of `data` in one call.
            #[inline]
            #[must_use]
            pub fn digest(data: &[u8]) -> [u8; $out] {
                let mut h = Self::new();
                h.update(data);
                h.finalize()
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl core::fmt::Debug for $name {
            /// Names the implementation only: the state may be derived from a secret.
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("implementation", &self.implementation().name())
                    .finish_non_exhaustive()
            }
        }

        impl zeroize::Zeroize for $name {
            fn zeroize(&mut self) {
                self.sponge.wipe();
            }
        }

        impl crate::Hash for $name {
            const BLOCK_LEN: usize = $rate;
            const OUTPUT_LEN: usize = $out;
            type Output = [u8; $out];
            type Impl = KeccakImpl;

            fn with_impl(imp: KeccakImpl) -> Self {
                Self::with_impl(imp)
            }
            fn implementation(&self) -> KeccakImpl {
                self.implementation()
            }
            fn update(&mut self, data: &[u8]) {
                self.update(data);
            }
            fn finalize(self) -> [u8; $out] {
                self.finalize()
            }
            fn digest(data: &[u8]) -> [u8; $out] {
                Self::digest(data)
            }
        }
    };
}

sha3_hash! {
    /// SHA3-224 (FIPS 202 §6.1).
    Sha3_224, 144, 28
}
sha3_hash! {
    /// SHA3-256 (FIPS 202 §6.1).
    Sha3_256, 136, 32
}
sha3_hash! {
    /// SHA3-384 (FIPS 202 §6.1).
    Sha3_384, 104, 48
}
sha3_hash! {
    /// SHA3-512 (FIPS 202 §6.1).
    Sha3_512, 72, 64
}

/// The output side of a SHAKE instance: [`read`](Self::read) squeezes as many bytes as
/// wanted, in as many calls as wanted; the concatenation is the same however it is split.
/// Obtained from [`Shake128::finalize_xof`] or [`Shake256::finalize_xof`].
#[derive(Clone)]
pub struct ShakeReader<const RATE: usize> {
    squeeze: Squeeze<RATE>,
}

/// The reader of [`Shake128`].
pub type Shake128Reader = ShakeReader<168>;
/// The reader of [`Shake256`].
pub type Shake256Reader = ShakeReader<136>;

impl<const RATE: usize> ShakeReader<RATE> {
    /// Fills `out` with the next `out.len()` bytes of output.
    #[inline]
    pub fn read(&mut self, out: &mut [u8]) {
        self.squeeze.read(out);
    }

    /// The implementation this reader runs on.
    #[must_use]
    pub fn implementation(&self) -> KeccakImpl {
        self.squeeze.implementation()
    }
}

impl<const RATE: usize> core::fmt::Debug for ShakeReader<RATE> {
    /// Names the implementation only: the output may be secret.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ShakeReader")
            .field("rate", &RATE)
            .field("implementation", &self.implementation().name())
            .finish_non_exhaustive()
    }
}

impl<const RATE: usize> zeroize::Zeroize for ShakeReader<RATE> {
    fn zeroize(&mut self) {
        self.squeeze.wipe();
    }
}

/// Defines a SHAKE type: the struct, its inherent API, and the `Zeroize` impl.
macro_rules! shake {
    ($(#[$doc:meta])* $name:ident, $rate:literal) => {
        $(#[$doc])*
        ///
        /// Streaming: [`update`](Self::update) any number of times, [`Clone`] to fork the
        /// state, then [`finalize_xof`](Self::finalize_xof) and read any amount of output.
        /// The implementation is chosen once, in [`new`](Self::new), or given with
        /// [`with_impl`](Self::with_impl).
        #[derive(Clone)]
        pub struct $name {
            sponge: Sponge<$rate>,
        }

        impl $name {
            /// Bytes per block: the sponge's rate.
            pub const BLOCK_LEN: usize = $rate;

            /// An instance on the fastest implementation this CPU can run
            /// ([`KeccakImpl::preferred`]).
            #[inline]
            #[must_use]
            pub fn new() -> Self {
                Self::with_impl(KeccakImpl::preferred())
            }

            /// An instance on the given implementation.
            #[inline]
            #[must_use]
            pub fn with_impl(imp: KeccakImpl) -> Self {
                Self { sponge: Sponge::new(imp) }
            }

            /// The implementation this instance runs on.
            #[must_use]
            pub fn implementation(&self) -> KeccakImpl {
                self.sponge.implementation()
            }

            /// Absorbs `data`.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.sponge.absorb(data);
            }

            /// Pads the input and switches to output.
            #[inline]
            #[must_use]
            pub fn finalize_xof(self) -> ShakeReader<$rate> {
                ShakeReader { squeeze: self.sponge.finish(SHAKE_SUFFIX) }
            }

            /// Fills `out` with the output of this function on `data`, in one call.
            #[inline]
            pub fn digest_into(data: &[u8], out: &mut [u8]) {
                let mut h = Self::new();
                h.update(data);
                h.finalize_xof().read(out);
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl core::fmt::Debug for $name {
            /// Names the implementation only: the state may be derived from a secret.
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("implementation", &self.implementation().name())
                    .finish_non_exhaustive()
            }
        }

        impl zeroize::Zeroize for $name {
            fn zeroize(&mut self) {
                self.sponge.wipe();
            }
        }
    };
}

shake! {
    /// SHAKE128 (FIPS 202 §6.2), the extendable-output function with 128-bit security.
    Shake128, 168
}
shake! {
    /// SHAKE256 (FIPS 202 §6.2), the extendable-output function with 256-bit security.
    Shake256, 136
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Hash;
    use hex_literal::hex;

    /// A state kept in each implementation's own encoding gives the standard bytes: SHAKE128
    /// of the empty string through `to_native`, `permute_native` and `extract`, and `extract`
    /// stops at the state's end.
    #[test]
    fn native_encoding_round_trips() {
        for imp in KeccakImpl::available() {
            let mut state = [0u64; 25];
            state[0] = imp.to_native(0x1f);
            state[20] = imp.to_native(0x80 << 56);
            imp.permute_native(&mut state);
            let mut out = [0u8; 16];
            imp.extract(&state, 0, &mut out);
            assert_eq!(out, hex!("7f9c2ba4e88f827d616045507605853e"), "{}", imp.name());
            let mut tail = [0xaa; 12];
            imp.extract(&state, 196, &mut tail);
            let mut want = [0u8; 8];
            imp.extract(&state, 192, &mut want);
            assert_eq!(tail[..4], want[4..], "{}", imp.name());
            assert_eq!(tail[4..], [0xaa; 8], "{}", imp.name());
            imp.extract(&state, 300, &mut tail);
            assert_eq!(tail[4..], [0xaa; 8], "{}", imp.name());
        }
    }

    /// RC[i] from the LFSR of FIPS 202 Algorithm 5: bit `2^j - 1` of RC[i] is rc(j + 7i).
    #[test]
    fn round_constants_follow_the_lfsr() {
        fn rc(t: usize) -> u64 {
            let mut r: u16 = 1;
            for _ in 0..t % 255 {
                r <<= 1;
                if r & 0x100 != 0 {
                    r ^= 0x171; // x^8 + x^6 + x^5 + x^4 + 1
                }
            }
            u64::from(r & 1)
        }
        for (i, &c) in RC.iter().enumerate() {
            let want = (0..7).fold(0, |acc, j| acc | rc(j + 7 * i) << ((1 << j) - 1));
            assert_eq!(c, want, "RC[{i}]");
        }
    }

    /// ρ offsets from FIPS 202 Algorithm 2: `(t + 1)(t + 2) / 2` along the walk from (1, 0).
    #[test]
    fn rho_offsets_follow_the_walk() {
        let mut want = [0u32; 25];
        let (mut x, mut y) = (1, 0);
        for t in 0u32..24 {
            want[x + 5 * y] = (t + 1) * (t + 2) / 2 % 64;
            (x, y) = (y, (2 * x + 3 * y) % 5);
        }
        assert_eq!(RHO, want);
    }

    #[test]
    fn pi_is_a_permutation_fixing_lane_zero() {
        let mut seen = [false; 25];
        for i in 0..25 {
            seen[pi_source(i)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(pi_source(0), 0);
        // Position (x, y) = (0, 2) takes lane (1, 0) (FIPS 202 §3.2.3).
        assert_eq!(pi_source(10), 1);
    }

    /// Keccak-f\[1600\] of the zero state, from the Keccak team's intermediate values.
    #[test]
    fn permutation_of_zero_on_every_implementation() {
        let mut reference = [0u64; 25];
        KeccakImpl::Portable.permute(&mut reference);
        assert_eq!(reference[0], 0xf1258f7940e1dde7);
        assert_eq!(reference[24], 0xeaf1ff7b5ceca249);
        for imp in KeccakImpl::available().chain([KeccakImpl::Portable32]) {
            let mut s = [0u64; 25];
            imp.permute(&mut s);
            assert_eq!(s, reference, "{imp:?}");
            // And again, from a state with every lane different.
            imp.permute(&mut s);
            let mut r = reference;
            KeccakImpl::Portable.permute(&mut r);
            assert_eq!(s, r, "{imp:?}");
        }
    }

    #[test]
    fn abc_on_every_implementation() {
        for imp in KeccakImpl::available().chain([KeccakImpl::Portable32]) {
            let mut h = Sha3_256::with_impl(imp);
            h.update(b"abc");
            assert_eq!(
                h.finalize(),
                hex!("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
                "{imp:?}"
            );
        }
    }

    #[test]
    fn portables_are_always_available_and_last_native_first() {
        let all: std::vec::Vec<KeccakImpl> = KeccakImpl::available().collect();
        let portables = &all[all.len() - 2..];
        assert_eq!(portables[0], KeccakImpl::PORTABLE);
        assert!(
            portables.contains(&KeccakImpl::Portable)
                && portables.contains(&KeccakImpl::Portable32)
        );
        assert_eq!(KeccakImpl::by_name("portable"), Some(KeccakImpl::Portable));
        assert_eq!(KeccakImpl::by_name("portable32"), Some(KeccakImpl::Portable32));
        assert_eq!(KeccakImpl::by_name("no-such-backend"), None);
        for imp in KeccakImpl::available() {
            assert!(KeccakImpl::ALL.contains(&imp.name()));
        }
        assert_eq!(<Sha3_256 as Hash>::BLOCK_LEN, 136);
        assert_eq!(Sha3_224::BLOCK_LEN, crate::MAX_BLOCK_LEN);
        assert_eq!(Sha3_512::OUTPUT_LEN, crate::MAX_OUTPUT_LEN);
    }

    #[test]
    fn preferred_is_the_best() {
        assert_eq!(KeccakImpl::preferred(), KeccakImpl::best());
        assert_eq!(Sha3_256::new().implementation(), KeccakImpl::best());
    }

    #[test]
    fn debug_names_the_implementation_only() {
        let mut h = Sha3_384::with_impl(KeccakImpl::Portable32);
        h.update(b"secret");
        let text = std::format!("{h:?}");
        assert_eq!(text, "Sha3_384 { implementation: \"portable32\", .. }");
        let r = Shake128::with_impl(KeccakImpl::Portable).finalize_xof();
        assert_eq!(
            std::format!("{r:?}"),
            "ShakeReader { rate: 168, implementation: \"portable\", .. }"
        );
    }

    #[test]
    fn zeroize_resets_to_the_empty_message() {
        use zeroize::Zeroize;
        for imp in KeccakImpl::available().chain([KeccakImpl::Portable32]) {
            let mut h = Sha3_512::with_impl(imp);
            h.update(&[0xAA; 200]);
            h.zeroize();
            assert_eq!(h.finalize(), Sha3_512::with_impl(imp).finalize(), "{imp:?}");
        }
    }
}
