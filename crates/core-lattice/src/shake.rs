//! The one-block SHAKE sponges both ML-KEM's and ML-DSA's samplers run on: their inputs are
//! all shorter than one block, so the whole sponge is one Keccak state, or four side by side
//! on a four-way Keccak-f (AVX2 or AVX-512VL).

use core_hash::KeccakImpl;
use zeroize::Zeroize;

/// SHAKE (FIPS 202 §6.2) of an input shorter than one block, run on
/// [`KeccakImpl::permute_native`] directly: all of ML-KEM's SampleNTT and PRF inputs are 33 or
/// 34 bytes and all of ML-DSA's sampler inputs at most 66, so the
/// whole sponge is 200 bytes of state, where `core-hash`'s streaming `Shake128` and its reader
/// each hold a state and a block buffer (about 1 KiB more on a Cortex-M0 stack). The state
/// stays in the implementation's lane encoding from the input to the last block (on the
/// Cortex-M0, `portable32`'s bit-interleaved one), so each block converts only the lanes it
/// reads out, not all 25 both ways. Wiped on drop (PRF outputs are secret).
pub(crate) struct OneBlockShake<const RATE: usize> {
    state: [u64; 25],
    keccak: KeccakImpl,
    /// How many bytes of the current block [`read`](Self::read) has handed out (`RATE`: all,
    /// or none squeezed yet).
    used: usize,
}

impl<const RATE: usize> OneBlockShake<RATE> {
    /// Absorbs the concatenation of `parts` (fewer than `RATE` bytes in all) and pads it. Not
    /// inlined: inlined, the state is built in a local and copied into the caller's variable,
    /// a second 200 bytes in the caller's frame on the Cortex-M0 while it squeezes.
    #[inline(never)]
    pub(crate) fn new(keccak: KeccakImpl, parts: &[&[u8]]) -> Self {
        let mut this = Self { state: [0u64; 25], keccak, used: RATE };
        absorb(&mut this.state, keccak, parts, RATE, SHAKE_DOMAIN);
        this
    }

    /// Fills `out` (at most `RATE` bytes) with the next block of output; each call starts a
    /// new block.
    pub(crate) fn squeeze_block(&mut self, out: &mut [u8]) {
        self.keccak.permute_native(&mut self.state);
        self.keccak.extract(&self.state, 0, out);
        self.used = RATE;
    }

    /// Fills `out` with the next bytes of output, across blocks: a sampler reads it a few
    /// lanes at a time, so it needs no block buffer, and the lanes it does not reach (after
    /// the polynomial is full) are never converted from the implementation's encoding.
    pub(crate) fn read(&mut self, out: &mut [u8]) {
        read(&mut self.state, self.keccak, &mut self.used, RATE, out);
    }
}

/// SHAKE's domain bits 1111 and pad10*1's first 1 (FIPS 202 §6.2, B.2).
const SHAKE_DOMAIN: u8 = 0x1f;
/// SHA-3's domain bits 01 and pad10*1's first 1 (FIPS 202 §6.1, B.2).
#[cfg(any(test, not(any(target_arch = "x86_64", target_arch = "aarch64"))))]
const SHA3_DOMAIN: u8 = 0x06;

/// SHA3 (FIPS 202 §6.1) of the concatenation of `parts` (fewer than `RATE` bytes in all),
/// its first `out.len()` bytes (at most `RATE`) into `out`: ML-KEM's G (SHA3-512, rate 72,
/// of 33 or 64 bytes) on one Keccak state, as [`OneBlockShake`], where core-hash's streaming
/// hasher keeps a block buffer besides (about 250 bytes less flash on the Cortex-M0, and
/// 600 less stack).
#[cfg(any(test, not(any(target_arch = "x86_64", target_arch = "aarch64"))))]
#[inline(never)]
pub(crate) fn sha3_one_block<const RATE: usize>(
    keccak: KeccakImpl,
    parts: &[&[u8]],
    out: &mut [u8],
) {
    let mut state = [0u64; 25];
    absorb(&mut state, keccak, parts, RATE, SHA3_DOMAIN);
    keccak.permute_native(&mut state);
    keccak.extract(&state, 0, out.get_mut(..RATE.min(out.len())).unwrap_or_default());
    state.zeroize();
}

/// [`OneBlockShake::new`]'s absorbing, for any rate and domain (one copy of the code for
/// every rate: 200 bytes less flash).
fn absorb(state: &mut [u64; 25], keccak: KeccakImpl, parts: &[&[u8]], rate: usize, domain: u8) {
    fn xor_byte(state: &mut [u64; 25], at: usize, b: u8) {
        state[at / 8] ^= u64::from(b) << (8 * (at % 8));
    }
    let mut at = 0;
    for &b in parts.iter().flat_map(|p| p.iter()) {
        xor_byte(state, at, b);
        at += 1;
    }
    xor_byte(state, at, domain);
    xor_byte(state, rate - 1, 0x80); // pad10*1's last 1
    // Only the input's lanes and the last one of the rate are not zero (which is zero in
    // every encoding).
    for (i, lane) in state.iter_mut().enumerate().take(rate / 8) {
        if i <= at / 8 || i == rate / 8 - 1 {
            *lane = keccak.to_native(*lane);
        }
    }
}

/// [`OneBlockShake::read`] for any rate, `used` bytes of the current block already read.
/// Inlined: a frame of its own would be on the samplers' deepest path.
#[inline(always)]
fn read(
    state: &mut [u64; 25],
    keccak: KeccakImpl,
    used: &mut usize,
    rate: usize,
    mut out: &mut [u8],
) {
    while !out.is_empty() {
        if *used >= rate {
            keccak.permute_native(state);
            *used = 0;
        }
        let (head, rest) = out.split_at_mut(out.len().min(rate - *used));
        keccak.extract(state, *used, head);
        *used += head.len();
        out = rest;
    }
}

impl<const RATE: usize> Drop for OneBlockShake<RATE> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

/// A four-way Keccak-f\[1600\] of `core-hash`, with the token that proves it runs: the
/// same states in, the same states out.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeccakX4 {
    /// [`core_hash::keccak_f1600_x4_avx2`].
    Avx2(core_cpu::Avx2),
    /// [`core_hash::keccak_f1600_x4_avx512vl`]: about 1.7 times as fast.
    Avx512Vl(core_cpu::Avx512),
}

#[cfg(target_arch = "x86_64")]
impl From<core_cpu::Avx2> for KeccakX4 {
    fn from(token: core_cpu::Avx2) -> Self {
        Self::Avx2(token)
    }
}

/// Four SHAKE sponges side by side on a four-way Keccak-f, each over one input shorter than
/// a block (`RATE` bytes): `prefix` followed by the lane's own suffix. Wiped on drop (noise
/// sampling's outputs are secret). ML-KEM's and ML-DSA's x86 samplers run on it.
#[cfg(target_arch = "x86_64")]
pub(crate) struct ShakeX4<const RATE: usize> {
    pub(crate) state: [[u64; 4]; 25],
    keccak: KeccakX4,
}

#[cfg(target_arch = "x86_64")]
impl<const RATE: usize> ShakeX4<RATE> {
    /// Absorbs and pads `prefix ‖ suffixes[k]` in lane k, for up to four lanes.
    pub(crate) fn new(keccak: impl Into<KeccakX4>, prefix: &[u8], suffixes: &[&[u8]]) -> Self {
        Self { state: absorb_lanes::<RATE, 4>(prefix, suffixes), keccak: keccak.into() }
    }

    /// The next block of every lane's output.
    pub(crate) fn squeeze(&mut self, out: &mut [[u8; RATE]; 4]) {
        self.permute();
        for (k, block) in out.iter_mut().enumerate() {
            for (bytes, lane) in block.as_chunks_mut::<8>().0.iter_mut().zip(&self.state) {
                *bytes = lane[k].to_le_bytes();
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl<const RATE: usize> ShakeX4<RATE> {
    /// Runs the permutation: the next block of output is in the state's first `RATE / 8`
    /// lanes.
    pub(crate) fn permute(&mut self) {
        match self.keccak {
            KeccakX4::Avx2(token) => core_hash::keccak_f1600_x4_avx2(token, &mut self.state),
            KeccakX4::Avx512Vl(token) => {
                core_hash::keccak_f1600_x4_avx512vl(token, &mut self.state);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl<const RATE: usize> Drop for ShakeX4<RATE> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

/// `W` states with `prefix ‖ suffixes[k]` absorbed and padded in lane k (at most `W` lanes;
/// the others are zero), the input shorter than a block (`RATE` bytes). Absorbed straight
/// into the state, which alone the caller wipes (a byte buffer would cost a byte-by-byte
/// volatile wipe).
#[cfg(target_arch = "x86_64")]
fn absorb_lanes<const RATE: usize, const W: usize>(
    prefix: &[u8],
    suffixes: &[&[u8]],
) -> [[u64; W]; 25] {
    let mut state = [[0u64; W]; 25];
    let mut xor_byte =
        |k: usize, at: usize, b: u8| state[at / 8][k] ^= u64::from(b) << (8 * (at % 8));
    for (k, suffix) in suffixes.iter().take(W).enumerate() {
        let input = prefix.iter().chain(suffix.iter());
        let mut len = 0;
        for (at, &b) in input.enumerate() {
            xor_byte(k, at, b);
            len = at + 1;
        }
        xor_byte(k, len, 0x1f); // SHAKE's domain bits and pad10*1's first 1
        xor_byte(k, RATE - 1, 0x80); // pad10*1's last 1
    }
    state
}

/// Copies lane `k` of the first `RATE / 8` lanes of `state`, a block of output, into `out`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn extract_lane<const RATE: usize, const W: usize>(
    state: &[[u64; W]; 25],
    k: usize,
    out: &mut [u8; RATE],
) {
    for (bytes, lane) in out.as_chunks_mut::<8>().0.iter_mut().zip(state) {
        *bytes = lane[k].to_le_bytes();
    }
}

/// Eight SHAKE sponges side by side on `core-hash`'s eight-way Keccak-f (AVX-512F, 512-bit
/// registers), each over one input shorter than a block: [`ShakeX4`]'s layout and absorbing,
/// twice as wide. ML-DSA's samplers run on it on the AVX-512 implementation. Wiped on drop.
#[cfg(target_arch = "x86_64")]
pub(crate) struct ShakeX8<const RATE: usize> {
    state: [[u64; 8]; 25],
    token: core_cpu::Avx512,
}

#[cfg(target_arch = "x86_64")]
impl<const RATE: usize> ShakeX8<RATE> {
    /// Absorbs and pads `prefix ‖ suffixes[k]` in lane k, for up to eight lanes.
    pub(crate) fn new(token: core_cpu::Avx512, prefix: &[u8], suffixes: &[&[u8]]) -> Self {
        Self { state: absorb_lanes::<RATE, 8>(prefix, suffixes), token }
    }
}

#[cfg(target_arch = "x86_64")]
impl<const RATE: usize> Drop for ShakeX8<RATE> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

/// Sponges run side by side ([`ShakeX4`], [`ShakeX8`]), for samplers written once for
/// either width.
#[cfg(target_arch = "x86_64")]
pub(crate) trait Sponges<const RATE: usize> {
    /// The next block of output of the first `out.len()` sponges (four or eight at most).
    fn squeeze_into(&mut self, out: &mut [[u8; RATE]]);
}

#[cfg(target_arch = "x86_64")]
impl<const RATE: usize> Sponges<RATE> for ShakeX4<RATE> {
    fn squeeze_into(&mut self, out: &mut [[u8; RATE]]) {
        self.permute();
        for (k, block) in out.iter_mut().take(4).enumerate() {
            extract_lane(&self.state, k, block);
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl<const RATE: usize> Sponges<RATE> for ShakeX8<RATE> {
    fn squeeze_into(&mut self, out: &mut [[u8; RATE]]) {
        core_hash::keccak_f1600_x8_avx512(self.token, &mut self.state);
        for (k, block) in out.iter_mut().take(8).enumerate() {
            extract_lane(&self.state, k, block);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core_hash::Implementation;

    /// The one-block SHA3-512 and SHA3-256 are core-hash's, for inputs up to one byte short
    /// of the rate.
    #[test]
    fn sha3_one_block_matches_core_hash() {
        use core_hash::{Sha3_256, Sha3_512};
        for keccak in KeccakImpl::available() {
            for len in [0, 1, 33, 64, 71, 135] {
                let input: std::vec::Vec<u8> = (0..len).map(|i| i as u8).collect();
                let (a, b) = input.split_at(len / 3);
                if len < 72 {
                    let mut ours = [0u8; 64];
                    sha3_one_block::<72>(keccak, &[a, b], &mut ours);
                    assert_eq!(ours, Sha3_512::digest(&input), "SHA3-512, {len} bytes");
                }
                let mut ours = [0u8; 32];
                sha3_one_block::<136>(keccak, &[a, b], &mut ours);
                assert_eq!(ours, Sha3_256::digest(&input), "SHA3-256, {len} bytes");
            }
        }
    }

    /// The one-block sponge gives SHAKE128 and SHAKE256 output, over several blocks, for
    /// inputs up to one byte short of the rate (where both padding bits share a byte).
    #[test]
    fn one_block_shake_matches_core_hash() {
        use core_hash::{Shake128, Shake256};
        for keccak in KeccakImpl::available() {
            for len in [0, 1, 33, 34, 135, 167] {
                let input: std::vec::Vec<u8> = (0..len).map(|i| i as u8).collect();
                let (a, b) = input.split_at(len / 2);
                if len < 168 {
                    let mut ours = [0u8; 3 * 168];
                    let mut x = OneBlockShake::<168>::new(keccak, &[a, b]);
                    ours.chunks_mut(168).for_each(|c| x.squeeze_block(c));
                    let mut want = [0u8; 3 * 168];
                    Shake128::digest_into(&input, &mut want);
                    assert_eq!(ours, want, "SHAKE128, {len} bytes, {}", keccak.name());
                }
                if len < 136 {
                    let mut ours = [0u8; 2 * 136];
                    let mut x = OneBlockShake::<136>::new(keccak, &[a, b]);
                    ours.chunks_mut(136).for_each(|c| x.squeeze_block(c));
                    let mut want = [0u8; 2 * 136];
                    Shake256::digest_into(&input, &mut want);
                    assert_eq!(ours, want, "SHAKE256, {len} bytes, {}", keccak.name());
                    // `read` in pieces that straddle lanes and blocks gives the same stream.
                    for piece in [1, 7, 24, 100] {
                        let mut x = OneBlockShake::<136>::new(keccak, &[a, b]);
                        ours.fill(0);
                        ours.chunks_mut(piece).for_each(|c| x.read(c));
                        assert_eq!(ours, want, "read({piece}), {len} bytes, {}", keccak.name());
                    }
                }
            }
        }
    }
}
