//! The parts of ML-KEM that no backend needs to replace: the polynomial type, the byte
//! encodings (FIPS 203 §4.2.1), Compress/Decompress, and the two samplers (§4.2.2), written
//! once over `i16` coefficients.
//!
//! Compress is the one place where the reference algorithm divides by `q`; here it is a
//! multiplication by a fixed reciprocal and a shift (KyberSlash: a division compiles to `div`
//! on x86 and to `__aeabi_uidiv` on the Cortex-M0, both variable-time), checked against the
//! exact formula for every input by a unit test.

use crate::shake::OneBlockShake;
use core_hash::KeccakImpl;
use zeroize::Zeroize;

/// Coefficients per polynomial.
pub(crate) const N: usize = 256;
/// The modulus q = 3329 = 13·2^8 + 1.
pub(crate) const Q: i16 = 3329;

/// A polynomial of R_q or T_q: 256 coefficients, whose range each function states.
#[derive(Clone)]
pub(crate) struct Poly(pub(crate) [i16; N]);

impl Poly {
    /// The zero polynomial.
    pub(crate) const ZERO: Self = Self([0; N]);
}

impl Zeroize for Poly {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Default for Poly {
    fn default() -> Self {
        Self::ZERO
    }
}

/// `a += b` coefficient-wise (the caller keeps the sums within `i16`).
pub(crate) fn add_assign(a: &mut Poly, b: &Poly) {
    for (x, y) in a.0.iter_mut().zip(&b.0) {
        *x = x.wrapping_add(*y);
    }
}

/// The representative in `0..q` of a coefficient in `-q..q`, without a branch: the sign mask
/// goes through a value barrier, as Thumb-1 code built without it tests the sign with a
/// `bpl` around the addition of q (on secret coefficients: ŝ, ŷ and re-encrypted ones).
#[inline]
pub(crate) fn to_unsigned(x: i16) -> u16 {
    let sign = core_hash::value_barrier(i32::from(x >> 15).cast_unsigned()) as u16;
    x.cast_unsigned().wrapping_add(sign & Q as u16)
}

/// ⌈2^21 / q⌉ = 630: `(n · 630) >> 21` is `⌊n / q⌋` or one more for every `n` Compress forms
/// (below 2^23, so the product fits 32 bits: no 64-bit multiply, which the Cortex-M0 does in a
/// library call).
pub(crate) const RECIPROCAL: u32 = (1 << 21) / Q as u32 + 1;

/// Compress_d (FIPS 203 §4.2.1, eq. 4.7): `⌈(2^d / q) · x⌋ mod 2^d` for `x` in `0..q` and
/// `d ≤ 11`, as `⌊(2^d·x + ⌊q/2⌋) / q⌋` (rounding `(2^d·x)/q` half up gives the same because q
/// is odd) computed by a multiplication, a shift and a masked correction, never by division.
/// The test `compress_matches_exact_rounding` checks every input.
#[inline]
pub(crate) fn compress(x: u16, d: u32) -> u16 {
    let n = (u32::from(x) << d) + (Q as u32 >> 1);
    // Wrapping (it never wraps, as the test shows) so that a build with overflow checks does
    // not widen the product to 64 bits to check it, a library call on the Cortex-M0.
    let mut t = n.wrapping_mul(RECIPROCAL) >> 21;
    // The estimate is at most one too large: subtract one where n − t·q is negative (its top
    // bit set, as it lies in −q..q).
    t -= n.wrapping_sub(t.wrapping_mul(Q as u32)) >> 31;
    (t as u16) & ((1 << d) - 1)
}

/// Decompress_d (FIPS 203 §4.2.1, eq. 4.8): `⌈(q / 2^d) · y⌋` for `y` in `0..2^d`.
#[inline]
pub(crate) fn decompress(y: u16, d: u32) -> i16 {
    ((y as u32 * Q as u32 + (1 << (d - 1))) >> d) as i16
}

/// ByteEncode_d (FIPS 203 Algorithm 5) of the 256 values `f(0)…f(255)` (each below 2^d):
/// calls `emit(k, byte)` for the `32·d` bytes in order, the values' bits one after another,
/// least significant first.
pub(crate) fn encode_bytes(
    d: u32,
    mut emit: impl FnMut(usize, u8),
    mut f: impl FnMut(usize) -> u16,
) {
    let mut acc: u32 = 0;
    let mut bits = 0;
    let mut o = 0;
    for i in 0..N {
        acc |= u32::from(f(i)) << bits;
        bits += d;
        while bits >= 8 {
            emit(o, acc as u8);
            o += 1;
            acc >>= 8;
            bits -= 8;
        }
    }
}

/// [`encode_bytes`] into `out` (`32·d` bytes): the tests' reference.
#[cfg(test)]
pub(crate) fn encode_with(d: u32, out: &mut [u8], f: impl FnMut(usize) -> u16) {
    encode_bytes(d, |o, b| out[o] = b, f);
}

/// ByteDecode_d (FIPS 203 Algorithm 6) without the final reduction: calls `f(i, value)` for the
/// 256 `d`-bit values packed in `input` (`32·d` bytes).
pub(crate) fn decode_with(d: u32, input: &[u8], mut f: impl FnMut(usize, u16)) {
    let mask = (1u32 << d) - 1;
    let mut acc: u32 = 0;
    let mut bits = 0;
    let mut i = 0;
    for &b in input {
        acc |= u32::from(b) << bits;
        bits += 8;
        while bits >= d {
            f(i, (acc & mask) as u16);
            i += 1;
            acc >>= d;
            bits -= d;
        }
    }
}

/// ByteEncode_12 of a polynomial with coefficients in `-q..q` (stored as their representative
/// in `0..q`) into 384 bytes (`out`'s first; nothing if it is shorter): two coefficients to
/// three bytes, a quarter of the instructions of `encode_with`'s bit loop on the Cortex-M0.
pub(crate) fn encode12(p: &Poly, out: &mut [u8]) {
    let Some(out) = out.first_chunk_mut::<384>() else { return };
    // Chunks of a fixed-size array: their count is a constant, not a division.
    for (c, pair) in out.as_chunks_mut::<3>().0.iter_mut().zip(p.0.as_chunks::<2>().0) {
        let (d1, d2) = (to_unsigned(pair[0]), to_unsigned(pair[1]));
        *c = [d1 as u8, ((d1 >> 8) | (d2 << 4)) as u8, (d2 >> 4) as u8];
    }
}

/// ByteDecode_12 (FIPS 203 Algorithm 6 with m = q): 384 bytes (`input`'s first; nothing if it
/// is shorter) to coefficients in `0..q`, each 12-bit value reduced modulo q by a masked
/// subtraction (values from q up occur only in a decapsulation key from elsewhere;
/// encapsulation keys with one are refused before this). Three bytes to two coefficients.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
pub(crate) fn decode12(input: &[u8], p: &mut Poly) {
    let Some(input) = input.first_chunk::<384>() else { return };
    let reduce = |v: u16| {
        let x = v.cast_signed() - Q;
        x + ((x >> 15) & Q)
    };
    for (c, pair) in input.as_chunks::<3>().0.iter().zip(p.0.as_chunks_mut::<2>().0) {
        let [b0, b1, b2] = c.map(u16::from);
        pair[0] = reduce(b0 | ((b1 & 0x0f) << 8));
        pair[1] = reduce((b1 >> 4) | (b2 << 4));
    }
}

/// Whether every 12-bit value in `input` (an encoded vector of polynomials) is below q: the
/// encapsulation-key modulus check of FIPS 203 §7.2. Public data, so it may stop early.
pub(crate) fn all_below_q(input: &[u8]) -> bool {
    input.chunks_exact(3).all(|c| {
        let d1 = u16::from(c[0]) | (u16::from(c[1] & 0x0f) << 8);
        let d2 = u16::from(c[1] >> 4) | (u16::from(c[2]) << 4);
        d1 < Q as u16 && d2 < Q as u16
    })
}

/// Bytes of a noise polynomial packed by [`pack_noise`]: 3 bits a coefficient.
pub(crate) const NOISE_BYTES: usize = 96;

/// A noise polynomial (coefficients in `-3..=3`: SamplePolyCBD_η with η ≤ 3) packed 3 bits a
/// coefficient, each plus 3, eight to three bytes: how the small cores keep y[k−1] while they
/// encrypt, in a fifth of the bytes of its NTT encoded. No branch and no table: the
/// coefficients are secret.
pub(crate) fn pack_noise(p: &Poly, out: &mut [u8; NOISE_BYTES]) {
    for (o, c) in out.as_chunks_mut::<3>().0.iter_mut().zip(p.0.as_chunks::<8>().0) {
        let mut w = 0u32;
        for (k, &x) in c.iter().enumerate() {
            w |= (x.wrapping_add(3).cast_unsigned() as u32 & 7) << (3 * k);
        }
        *o = [w as u8, (w >> 8) as u8, (w >> 16) as u8];
    }
}

/// The inverse of [`pack_noise`]: coefficients in `-3..=3`.
pub(crate) fn unpack_noise(input: &[u8; NOISE_BYTES], p: &mut Poly) {
    for (i, c) in input.as_chunks::<3>().0.iter().zip(p.0.as_chunks_mut::<8>().0) {
        let w = u32::from(i[0]) | (u32::from(i[1]) << 8) | (u32::from(i[2]) << 16);
        let x = |k: u32| ((w >> (3 * k)) & 7) as i16 - 3;
        // Written out: the loop over eight is not unrolled at opt-level z (6 000 Cortex-M0+
        // cycles more a decapsulation, for 50 bytes of flash).
        *c = [x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7)];
    }
}

/// Compress_d then ByteEncode_d of a polynomial with coefficients in `-q..q`: its `32·d`
/// bytes, handed to `emit(k, bytes)` in order from byte `k` on. The width of u in ML-KEM-512
/// and -768's ciphertexts (d = 10, three quarters of them) goes four coefficients to five
/// bytes, as ByteEncode_12 does, at about half the instructions of the bit loop with a call
/// per byte on the Cortex-M0; the others through the bit loop (grouping d = 4 as well saved
/// under 1 % of encapsulation's and decapsulation's cycles for 60–80 bytes of flash).
pub(crate) fn compress_encode(p: &Poly, d: u32, mut emit: impl FnMut(usize, &[u8])) {
    match d {
        10 => {
            for (k, x) in p.0.as_chunks::<4>().0.iter().enumerate() {
                let [a, b, c, e] = x.map(|v| compress(to_unsigned(v), 10));
                let bytes =
                    [a, (a >> 8) | (b << 2), (b >> 6) | (c << 4), (c >> 4) | (e << 6), e >> 2];
                emit(5 * k, &bytes.map(|v| v as u8));
            }
        }
        _ => encode_bytes(d, |k, b| emit(k, &[b]), |i| compress(to_unsigned(p.0[i]), d)),
    }
}

/// ByteDecode_d then Decompress_d of `32·d` bytes: coefficients in `0..q`. Five bytes to four
/// coefficients for d = 10, as [`compress_encode`].
pub(crate) fn decode_decompress(input: &[u8], d: u32, p: &mut Poly) {
    match (d, input.first_chunk::<320>()) {
        (10, Some(input)) => {
            for (b, out) in input.as_chunks::<5>().0.iter().zip(p.0.as_chunks_mut::<4>().0) {
                let b = b.map(u16::from);
                let v = [
                    b[0] | ((b[1] & 0x03) << 8),
                    (b[1] >> 2) | ((b[2] & 0x0f) << 6),
                    (b[2] >> 4) | ((b[3] & 0x3f) << 4),
                    (b[3] >> 6) | (b[4] << 2),
                ];
                *out = v.map(|v| decompress(v, 10));
            }
        }
        _ => decode_with(d, input, |i, v| p.0[i] = decompress(v, d)),
    }
}

/// Decompress_1(ByteDecode_1(m)): each message bit becomes 0 or ⌈q/2⌋ = 1665, through a mask.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) fn from_message(m: &[u8; 32], p: &mut Poly) {
    for (i, c) in p.0.iter_mut().enumerate() {
        let bit = i16::from((m[i / 8] >> (i % 8)) & 1);
        *c = -bit & 0x0681; // 1665
    }
}

/// `p += Decompress_1(ByteDecode_1(m))`, as [`from_message`] without a polynomial of its own.
pub(crate) fn add_message(m: &[u8; 32], p: &mut Poly) {
    for (i, c) in p.0.iter_mut().enumerate() {
        let bit = i16::from((m[i / 8] >> (i % 8)) & 1);
        *c = c.wrapping_add(-bit & 0x0681); // 1665
    }
}

/// PRF_η(s, b) = SHAKE256(s ‖ b, 64·η) (FIPS 203 §4.1) sampled straight into a polynomial by
/// SamplePolyCBD_η (Algorithm 8): coefficients in `-η..=η`, computed by bit counting without
/// branches. `η` is 2 or 3. The output is read `8·η` bytes (32 coefficients) at a time, so no
/// `64·η`-byte buffer is on the stack.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
pub(crate) fn sample_cbd(keccak: KeccakImpl, eta: u32, seed: &[u8; 32], nonce: u8, p: &mut Poly) {
    sample_cbd_with(keccak, eta, seed, nonce, p, |_, e| e);
}

/// [`sample_cbd`] added to `p` (for noise added to a sum, without a polynomial of its own).
pub(crate) fn sample_cbd_add(
    keccak: KeccakImpl,
    eta: u32,
    seed: &[u8; 32],
    nonce: u8,
    p: &mut Poly,
) {
    sample_cbd_with(keccak, eta, seed, nonce, p, i16::wrapping_add);
}

/// [`sample_cbd`] with each coefficient `c` of `p` replaced by `land(c, noise)`.
#[inline(always)]
fn sample_cbd_with(
    keccak: KeccakImpl,
    eta: u32,
    seed: &[u8; 32],
    nonce: u8,
    p: &mut Poly,
    land: impl Fn(i16, i16) -> i16 + Copy,
) {
    let mut prf = OneBlockShake::<136>::new(keccak, &[seed, &[nonce]]);
    let mut bytes = [0u8; 8 * 3];
    let bytes = &mut bytes[..8 * eta as usize];
    for out in p.0.as_chunks_mut::<32>().0 {
        prf.read(bytes);
        cbd_into(eta, bytes, out, land);
    }
    bytes.zeroize();
}

/// SamplePolyCBD_η (FIPS 203 Algorithm 8) of `64·η` bytes.
#[cfg(any(test, target_arch = "x86_64"))]
pub(crate) fn cbd(eta: u32, bytes: &[u8], p: &mut Poly) {
    let step = 8 * eta as usize;
    for (k, out) in p.0.as_chunks_mut::<32>().0.iter_mut().enumerate() {
        cbd_into(eta, bytes.get(step * k..step * (k + 1)).unwrap_or_default(), out, |_, e| e);
    }
}

/// SamplePolyCBD_η of `8·η` bytes: 32 coefficients, each landing in `out` by `land(old, new)`.
#[inline(always)]
fn cbd_into(eta: u32, bytes: &[u8], out: &mut [i16; 32], land: impl Fn(i16, i16) -> i16) {
    if eta == 2 {
        // Eight coefficients per 32-bit word, four bits each: two bits for x, two for y.
        for (w, out) in bytes.as_chunks::<4>().0.iter().zip(out.as_chunks_mut::<8>().0) {
            let w = u32::from_le_bytes(*w);
            let t = (w & 0x5555_5555) + ((w >> 1) & 0x5555_5555);
            for (j, c) in out.iter_mut().enumerate() {
                let x = ((t >> (4 * j)) & 3) as i16;
                let y = ((t >> (4 * j + 2)) & 3) as i16;
                *c = land(*c, x - y);
            }
        }
    } else {
        // Four coefficients per 24 bits, six bits each: three for x, three for y. Chunks of
        // a fixed-size array: their count is a constant, not a division (a library call on
        // the Cortex-M0).
        let Some(bytes) = bytes.first_chunk::<24>() else { return };
        for (w, out) in bytes.as_chunks::<3>().0.iter().zip(out.as_chunks_mut::<4>().0) {
            let w = u32::from(w[0]) | (u32::from(w[1]) << 8) | (u32::from(w[2]) << 16);
            let t = (w & 0x0024_9249) + ((w >> 1) & 0x0024_9249) + ((w >> 2) & 0x0024_9249);
            for (j, c) in out.iter_mut().enumerate() {
                let x = ((t >> (6 * j)) & 7) as i16;
                let y = ((t >> (6 * j + 3)) & 7) as i16;
                *c = land(*c, x - y);
            }
        }
    }
}

/// SampleNTT (FIPS 203 Algorithm 7) of XOF(ρ ‖ a ‖ b) = SHAKE128: rejection sampling of
/// 12-bit values below q, coefficients in `0..q`. The output is read three lanes (16 values)
/// at a time, so no block buffer is on the stack and the lanes after the last value taken are
/// never converted. The matrix is public, so the data-dependent loop leaks nothing secret.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
#[inline(never)]
pub(crate) fn sample_ntt(keccak: KeccakImpl, rho: &[u8], a: u8, b: u8, p: &mut Poly) {
    let mut xof = OneBlockShake::<168>::new(keccak, &[rho, &[a, b]]);
    sample_ntt_from(|bytes| xof.read(bytes), p);
}

/// SampleNTT's rejection loop over any stream of bytes, read 24 at a time, however many it
/// takes.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
pub(crate) fn sample_ntt_from(mut next: impl FnMut(&mut [u8; 24]), p: &mut Poly) {
    let mut bytes = [0u8; 24];
    let mut n = 0;
    while n < N {
        next(&mut bytes);
        n = rejection_fill(&bytes, p, n);
    }
}

/// `SampleNTT`'s rejection step for the streamed products: each whole triple of `bytes` has
/// its two 12-bit values written to `out` in turn, the position advancing past each only if
/// it is below q, while a triple is left and `out` has two places left; returns how many
/// bytes were used (three a triple) and how many values kept. `thumb1`'s twin (core-asm's
/// `rejection_sample`); no length is divided. The values are public (the matrix Â).
pub(crate) fn rejection_sample(bytes: &[u8], out: &mut [i16]) -> (usize, usize) {
    let mut n = 0;
    let mut used = 0;
    while let (Some(&[b0, b1, b2]), Some([x, y])) =
        (bytes.get(used..used + 3), out.get_mut(n..n + 2))
    {
        let (b0, b1, b2) = (u16::from(b0), u16::from(b1), u16::from(b2));
        let d1 = b0 | ((b1 & 0x0f) << 8);
        let d2 = (b1 >> 4) | (b2 << 4);
        if d1 < Q as u16 {
            *x = d1.cast_signed();
            *y = d2.cast_signed();
            n += 1;
        } else {
            *x = d2.cast_signed();
        }
        n += usize::from(d2 < Q as u16);
        used += 3;
    }
    (used, n)
}

/// One block (or the rest of one) of SampleNTT's rejection loop: appends the 12-bit values of
/// `block` that are below q to `p` from coefficient `n` on, until `p` is full; returns the new count.
///
/// While two free places are left, both values are written and the count advances past the
/// ones below q (a rejected value is overwritten by the next one kept): no branch on the
/// values, which are random, so a branch on them would be mispredicted about once in five.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
pub(crate) fn rejection_fill(block: &[u8], p: &mut Poly, mut n: usize) -> usize {
    for c in block.chunks_exact(3) {
        let d1 = u16::from(c[0]) | (u16::from(c[1] & 0x0f) << 8);
        let d2 = u16::from(c[1] >> 4) | (u16::from(c[2]) << 4);
        if n + 2 <= N {
            p.0[n] = d1.cast_signed();
            n += usize::from(d1 < Q as u16);
            p.0[n] = d2.cast_signed();
            n += usize::from(d2 < Q as u16);
            continue;
        }
        if n == N {
            break;
        }
        if d1 < Q as u16 {
            p.0[n] = d1.cast_signed();
            n += 1;
        }
        if d2 < Q as u16 && n < N {
            p.0[n] = d2.cast_signed();
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compress_d by its definition, with exact rational rounding (half up).
    fn exact_compress(x: u16, d: u32) -> u16 {
        // round(2^d·x / q) = ⌊(2^(d+1)·x + q) / 2q⌋
        let num = (u64::from(x) << (d + 1)) + Q as u64;
        ((num / (2 * Q as u64)) % (1 << d)) as u16
    }

    #[test]
    fn compress_matches_exact_rounding() {
        for d in [1, 4, 5, 10, 11] {
            for x in 0..Q as u16 {
                assert_eq!(compress(x, d), exact_compress(x, d), "d = {d}, x = {x}");
            }
        }
    }

    #[test]
    fn decompress_matches_exact_rounding_and_round_trips() {
        for d in [1u32, 4, 5, 10, 11] {
            for y in 0..(1u16 << d) {
                let num = u64::from(y) * 2 * Q as u64 + (1 << d);
                let want = (num / (2 << d)) as i16;
                assert_eq!(decompress(y, d), want, "d = {d}, y = {y}");
                assert_eq!(compress(decompress(y, d).cast_unsigned(), d), y, "d = {d}, y = {y}");
            }
        }
    }

    #[test]
    fn encode_decode_round_trip_every_width() {
        for d in [1u32, 4, 5, 10, 11, 12] {
            let values: [u16; N] =
                core::array::from_fn(|i| ((i * 2_654_435_761) % (1 << d)) as u16);
            let mut bytes = [0u8; 384];
            encode_with(d, &mut bytes[..32 * d as usize], |i| values[i]);
            let mut back = [0u16; N];
            decode_with(d, &bytes[..32 * d as usize], |i, v| back[i] = v);
            assert_eq!(back, values, "d = {d}");
        }
    }

    /// The byte-wise ByteEncode_12/ByteDecode_12 agree with the bit loop they replace.
    #[test]
    fn encode12_and_decode12_match_the_bit_loop() {
        let p = Poly(core::array::from_fn(|i| {
            i16::try_from((i * 2_654_435_761) % 6657).unwrap() - 3328
        }));
        let (mut fast, mut slow) = ([0u8; 384], [0u8; 384]);
        encode12(&p, &mut fast);
        encode_with(12, &mut slow, |i| to_unsigned(p.0[i]));
        assert_eq!(fast, slow);
        let bytes: [u8; 384] = core::array::from_fn(|i| (i * 97 + 13) as u8);
        let mut got = Poly::ZERO;
        decode12(&bytes, &mut got);
        let mut want = [0i16; N];
        decode_with(12, &bytes, |i, v| want[i] = (v % Q as u16).cast_signed());
        assert_eq!(got.0, want);
    }

    /// The grouped Compress/ByteEncode and ByteDecode/Decompress of d = 10 and 4 agree with
    /// the bit loop.
    #[test]
    fn grouped_widths_match_the_bit_loop() {
        let p = Poly(core::array::from_fn(|i| {
            i16::try_from((i * 2_654_435_761) % 6657).unwrap() - 3328
        }));
        let bytes: [u8; 320] = core::array::from_fn(|i| (i * 97 + 13) as u8);
        for d in [4u32, 10] {
            let len = 32 * d as usize;
            let (mut fast, mut slow) = ([0u8; 320], [0u8; 320]);
            compress_encode(&p, d, |k, b| fast[k..k + b.len()].copy_from_slice(b));
            encode_with(d, &mut slow[..len], |i| compress(to_unsigned(p.0[i]), d));
            assert_eq!(fast, slow, "encode, d = {d}");
            let mut got = Poly::ZERO;
            decode_decompress(&bytes[..len], d, &mut got);
            let mut want = [0i16; N];
            decode_with(d, &bytes[..len], |i, v| want[i] = decompress(v, d));
            assert_eq!(got.0, want, "decode, d = {d}");
        }
    }

    #[test]
    fn decode12_reduces_modulo_q() {
        let mut bytes = [0u8; 384];
        encode_with(12, &mut bytes, |i| [0, 3328, 3329, 4095][i % 4]);
        let mut p = Poly::ZERO;
        decode12(&bytes, &mut p);
        assert_eq!(&p.0[..4], &[0, 3328, 0, 4095 - 3329]);
        assert!(!all_below_q(&bytes));
    }

    #[test]
    fn cbd_counts_bits() {
        // eta = 2: bytes 0b0000_0011 give x = 2, y = 0 for the first coefficient and 0 next.
        let mut bytes = [0u8; 192];
        bytes[0] = 0b1100_0011;
        let mut p = Poly::ZERO;
        cbd(2, &bytes[..128], &mut p);
        assert_eq!(&p.0[..3], &[2, -2, 0]);
        bytes[0] = 0b0011_1111;
        cbd(3, &bytes, &mut p);
        assert_eq!(&p.0[..2], &[3 - 3, 0]);
        bytes[0] = 0b0000_0111;
        cbd(3, &bytes, &mut p);
        assert_eq!(p.0[0], 3);
        bytes[0] = 0b0011_1000;
        cbd(3, &bytes, &mut p);
        assert_eq!(p.0[0], -3);
    }

    /// Seeds whose stream rejects many values need more than the usual 3·168 bytes; the loop
    /// reads as many as it takes.
    #[test]
    fn sample_ntt_reads_as_many_bytes_as_rejections_need() {
        let mut reads: u16 = 0;
        let mut p = Poly::ZERO;
        sample_ntt_from(
            |bytes| {
                reads += 1;
                // Four blocks (672 bytes) of nothing but rejected values (0xfff), then values
                // 1, 2, 3…
                if reads <= 4 * 7 {
                    bytes.fill(0xff);
                } else {
                    for (k, c) in bytes.chunks_exact_mut(3).enumerate() {
                        let v = 16 * (reads - 4 * 7 - 1) + 2 * k as u16 + 2;
                        let (d1, d2) = (v - 1, v);
                        c[0] = d1 as u8;
                        c[1] = ((d1 >> 8) as u8) | ((d2 << 4) as u8);
                        c[2] = (d2 >> 4) as u8;
                    }
                }
            },
            &mut p,
        );
        assert_eq!(reads, 4 * 7 + 16); // 16 values per read
        let want: [i16; N] = core::array::from_fn(|i| i16::try_from(i).unwrap() + 1);
        assert_eq!(p.0, want);
    }
}
