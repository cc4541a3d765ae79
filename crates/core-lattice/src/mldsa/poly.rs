//! The parts of ML-DSA that no backend replaces: the polynomial type, the reductions to a
//! chosen representative, Power2Round, Decompose and the hints (FIPS 204 §7.4), the bit
//! packings (§7.1) and the samplers (§7.3), written once over `i32` coefficients.
//!
//! Decompose is where the reference algorithm divides a secret by 2γ₂; here it is a
//! multiplication by a fixed reciprocal, a shift and a masked correction (a division compiles
//! to `div` on x86 and to `__aeabi_uidiv` on the Cortex-M0, both variable-time), checked
//! against the definition for every element of Z_q by a unit test.

use crate::shake::OneBlockShake;
use core_hash::KeccakImpl;
use zeroize::Zeroize;

/// Coefficients per polynomial.
pub(crate) const N: usize = 256;
/// The modulus q = 2^23 − 2^13 + 1.
pub(crate) const Q: i32 = 8_380_417;
/// d: the bits Power2Round drops from t.
pub(crate) const D: u32 = 13;

/// A polynomial of R_q or T_q: 256 coefficients, whose range each function states.
#[derive(Clone)]
pub(crate) struct Poly(pub(crate) [i32; N]);

impl Poly {
    /// The zero polynomial.
    pub(crate) const ZERO: Self = Self([0; N]);
}

impl Zeroize for Poly {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// A representative of `a` in `-6 283 008..=6 283 008` for `|a| < 2^31 − 2^22`.
#[inline]
pub(crate) fn reduce32(a: i32) -> i32 {
    let t = (a + (1 << 22)) >> 23;
    a - t * Q
}

/// The representative of `a` in `0..q`, for `|a| < 2^31 − 2^22`, without a branch.
#[inline]
pub(crate) fn freeze(a: i32) -> i32 {
    let r = reduce32(a);
    r + ((r >> 31) & Q)
}

/// `a mod± q`: the representative in `-(q−1)/2..=(q−1)/2`, for `|a| < 2^31 − 2^22`.
#[inline]
pub(crate) fn centered(a: i32) -> i32 {
    let r = freeze(a);
    r - ((((Q - 1) / 2) - r) >> 31 & Q)
}

/// All ones when `|a| ≥ bound` (`a` centred, `bound` positive), else zero: the infinity-norm
/// check of one coefficient, without a branch.
#[inline]
pub(crate) fn exceeds(a: i32, bound: i32) -> u32 {
    let abs = a - ((a >> 31) & (2 * a));
    ((bound - 1 - abs) >> 31).cast_unsigned()
}

/// Power2Round (FIPS 204 Algorithm 35) of `r` in `0..q`: (r₁, r₀) with r = r₁·2^13 + r₀ and
/// r₀ in `-2^12+1..=2^12`.
#[inline]
pub(crate) fn power2round(r: i32) -> (i32, i32) {
    let r1 = (r + (1 << (D - 1)) - 1) >> D;
    (r1, r - (r1 << D))
}

/// What Decompose needs of γ₂: 2γ₂ (a multiple of 128 in both sets) and ⌈2^24 / (2γ₂/128)⌉,
/// the reciprocal that divides by it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gamma2 {
    /// γ₂: (q−1)/88 or (q−1)/32.
    #[expect(clippy::struct_field_names, reason = "γ₂ itself, as FIPS 204 names it")]
    pub(crate) gamma2: i32,
    reciprocal: u32,
    /// (q−1)/(2γ₂), computed when compiling: a division at run time would be one by a
    /// variable wherever the parameters are not constant-folded.
    high_values: i32,
}

impl Gamma2 {
    /// The constants for `gamma2`, computed when compiling.
    pub(crate) const fn new(gamma2: i32) -> Self {
        let divisor = (2 * gamma2.cast_unsigned()) >> 7;
        Self { gamma2, reciprocal: (1 << 24) / divisor + 1, high_values: (Q - 1) / (2 * gamma2) }
    }

    /// (q−1)/(2γ₂): the number of values of HighBits (44 or 16).
    pub(crate) const fn high_values(self) -> i32 {
        self.high_values
    }

    /// Bits per coefficient of w₁Encode: bitlen((q−1)/(2γ₂) − 1), 6 or 4.
    pub(crate) const fn w1_bits(self) -> u32 {
        32 - (self.high_values().cast_unsigned() - 1).leading_zeros()
    }

    /// Decompose (FIPS 204 Algorithm 36) of `r` in `0..q`: (r₁, r₀) with
    /// r ≡ r₁·2γ₂ + r₀, r₀ in `-γ₂..=γ₂`, except that the top value r₁ = (q−1)/(2γ₂) wraps to 0
    /// with r₀ one smaller. Constant-time: r₁ = ⌊(r + γ₂ − 1)/(2γ₂)⌋ by the reciprocal (an
    /// estimate that is exact or one too large, corrected by a mask), the wrap by a mask.
    #[inline]
    pub(crate) fn decompose(self, r: i32) -> (i32, i32) {
        let two_gamma2 = 2 * self.gamma2;
        let x = (r + self.gamma2 - 1).cast_unsigned();
        // 2γ₂ = 128·divisor, so ⌊x/2γ₂⌋ = ⌊⌊x/128⌋/divisor⌋; x < 2^24, so the product < 2^31.
        let mut r1 = ((x >> 7) * self.reciprocal) >> 24;
        r1 -= x.wrapping_sub(r1 * two_gamma2.cast_unsigned()) >> 31;
        let r1 = r1.cast_signed();
        let mut r0 = r - r1 * two_gamma2;
        // r − r₀ = q − 1: r₁ becomes 0 and r₀ one smaller (all ones in `top` when so).
        let top = ((r1 ^ self.high_values()) - 1) >> 31;
        r0 += top; // −1 where top
        (r1 & !top, r0)
    }

    /// HighBits (FIPS 204 Algorithm 37) of `r` in `0..q`.
    #[inline]
    pub(crate) fn high_bits(self, r: i32) -> i32 {
        self.decompose(r).0
    }

    /// UseHint (FIPS 204 Algorithm 40) of the hint bit `h` (0 or 1) on `r` in `0..q`: r₁
    /// moved one step up (r₀ > 0) or down (r₀ ≤ 0) modulo (q−1)/(2γ₂) where `h` is 1.
    /// Verification only (`h` and `r` are public), but without a branch all the same, so a
    /// loop over a row vectorizes.
    #[inline]
    pub(crate) fn use_hint(self, h: i32, r: i32) -> i32 {
        let (r1, r0) = self.decompose(r);
        let m = self.high_values();
        let up = (-r0) >> 31; // all ones where r₀ > 0
        let v = r1 + (((up & 2) - 1) & h.wrapping_neg());
        // v is in -1..=m: −1 wraps to m − 1 and m to 0.
        let v = v + ((v >> 31) & m);
        v - (((m - 1 - v) >> 31) & m)
    }
}

/// Packs the 256 values `f(0)…f(255)` (each below 2^`bits`, `bits ≤ 20`) into `out`
/// (`32·bits` bytes), least significant bit first: the bit string of SimpleBitPack and BitPack
/// (FIPS 204 Algorithms 16 and 17), which differ only in what `f` computes.
pub(crate) fn pack(out: &mut [u8], bits: u32, f: impl Fn(usize) -> u32) {
    #[cfg(target_arch = "x86_64")]
    match bits {
        3 => return pack_groups::<3>(out, f),
        4 => return pack_groups::<4>(out, f),
        6 => return pack_groups::<6>(out, f),
        10 => return pack_groups::<10>(out, f),
        13 => return pack_groups::<13>(out, f),
        18 => return pack_groups::<18>(out, f),
        20 => return pack_groups::<20>(out, f),
        _ => {}
    }
    pack_bits(out, bits, f);
}

/// [`pack`] a value at a time, for any width: the code for the Cortex-M0 (one copy, little
/// flash) and the reference the grouped one is tested against.
fn pack_bits(out: &mut [u8], bits: u32, f: impl Fn(usize) -> u32) {
    let mut acc: u32 = 0;
    let mut held = 0;
    let mut at = 0;
    for i in 0..N {
        acc |= f(i) << held;
        held += bits;
        while held >= 8 {
            out[at] = acc as u8;
            at += 1;
            acc >>= 8;
            held -= 8;
        }
    }
}

/// The inverse of [`pack`]: calls `f(i, value)` for the 256 `bits`-bit values in `input`
/// (`32·bits` bytes).
pub(crate) fn unpack(input: &[u8], bits: u32, f: impl FnMut(usize, u32)) {
    #[cfg(target_arch = "x86_64")]
    match bits {
        3 => return unpack_groups::<3>(input, f),
        4 => return unpack_groups::<4>(input, f),
        6 => return unpack_groups::<6>(input, f),
        10 => return unpack_groups::<10>(input, f),
        13 => return unpack_groups::<13>(input, f),
        18 => return unpack_groups::<18>(input, f),
        20 => return unpack_groups::<20>(input, f),
        _ => {}
    }
    unpack_bits(input, bits, f);
}

/// Values per group of [`pack_groups`] and [`unpack_groups`] for `bits`-bit values: eight
/// (`bits` bytes) while they fit in 128 bits, else four.
#[cfg(target_arch = "x86_64")]
const fn group_values(bits: usize) -> usize {
    if bits <= 16 { 8 } else { 4 }
}

/// [`pack`] for a width known when compiling, a group of values ([`group_values`]) at a
/// time: one 128-bit word each, stored as whole bytes (x86-64, where the copy per width
/// costs no scarce flash).
#[cfg(target_arch = "x86_64")]
#[inline]
fn pack_groups<const BITS: usize>(out: &mut [u8], f: impl Fn(usize) -> u32) {
    let values = group_values(BITS);
    let bytes = BITS * values / 8;
    for (g, chunk) in out.chunks_exact_mut(bytes).take(N / values).enumerate() {
        let mut acc = 0u128;
        for k in 0..values {
            acc |= u128::from(f(values * g + k)) << (BITS * k);
        }
        chunk.copy_from_slice(&acc.to_le_bytes()[..bytes]);
    }
}

/// [`unpack`] for a width known when compiling, a group of values at a time as
/// [`pack_groups`] stores them.
#[cfg(target_arch = "x86_64")]
#[inline]
fn unpack_groups<const BITS: usize>(input: &[u8], mut f: impl FnMut(usize, u32)) {
    let values = group_values(BITS);
    let bytes = BITS * values / 8;
    let mask = (1u128 << BITS) - 1;
    for (g, chunk) in input.chunks_exact(bytes).take(N / values).enumerate() {
        let mut word = [0u8; 16];
        word[..bytes].copy_from_slice(chunk);
        let acc = u128::from_le_bytes(word);
        for k in 0..values {
            f(values * g + k, ((acc >> (BITS * k)) & mask) as u32);
        }
    }
}

/// [`unpack`] a byte at a time, for any width (as [`pack_bits`]).
fn unpack_bits(input: &[u8], bits: u32, mut f: impl FnMut(usize, u32)) {
    let mask = (1u32 << bits) - 1;
    let mut acc: u32 = 0;
    let mut held = 0;
    let mut i = 0;
    for &b in input {
        acc |= u32::from(b) << held;
        held += 8;
        while held >= bits {
            f(i, acc & mask);
            i += 1;
            acc >>= bits;
            held -= bits;
        }
    }
}

/// BitPack(w, a, b) (FIPS 204 Algorithm 17) of coefficients in `-a..=b`: each as `b − w`.
pub(crate) fn pack_signed(p: &Poly, b: i32, bits: u32, out: &mut [u8]) {
    pack(out, bits, |i| (b - p.0[i]).cast_unsigned());
}

/// BitUnpack (FIPS 204 Algorithm 19) into coefficients `b − value`.
pub(crate) fn unpack_signed(input: &[u8], b: i32, bits: u32, p: &mut Poly) {
    unpack(input, bits, |i, v| p.0[i] = b - v.cast_signed());
}

/// RejNTTPoly (FIPS 204 Algorithm 30) of SHAKE128(ρ ‖ s ‖ r): the entry Â[r, s] of
/// ExpandA (Algorithm 32), coefficients in `0..q`. The matrix is public (ρ is in the public
/// key), so the data-dependent loop leaks nothing secret.
pub(crate) fn sample_uniform(keccak: KeccakImpl, rho: &[u8; 32], s: u8, r: u8, p: &mut Poly) {
    sample_uniform_each(keccak, rho, s, r, |n, v| p.0[n] = v);
}

/// [`sample_uniform`] handing each coefficient to `f(index, value)` as it is sampled rather
/// than storing it: a product with the entry then needs no polynomial for it.
pub(crate) fn sample_uniform_each(
    keccak: KeccakImpl,
    rho: &[u8; 32],
    s: u8,
    r: u8,
    mut f: impl FnMut(usize, i32),
) {
    let mut xof = OneBlockShake::<168>::new(keccak, &[rho, &[s, r]]);
    let mut block = [0u8; 168];
    let mut n = 0;
    while n < N {
        xof.squeeze_block(&mut block);
        n = rejection_each(&block, n, &mut f);
    }
}

/// RejNTTPoly's loop over (the rest of) one block of SHAKE128 output: fills `p` from
/// coefficient `n` on with the 23-bit values below q and returns how far it got (for the
/// four-way samplers).
#[cfg(target_arch = "x86_64")]
pub(crate) fn rejection_fill(block: &[u8], p: &mut Poly, n: usize) -> usize {
    rejection_each(block, n, |n, v| p.0[n] = v)
}

/// [`rejection_fill`] handing each value to `f(index, value)`.
#[inline]
fn rejection_each(block: &[u8], mut n: usize, mut f: impl FnMut(usize, i32)) -> usize {
    for c in block.chunks_exact(3) {
        let v = u32::from(c[0]) | (u32::from(c[1]) << 8) | (u32::from(c[2] & 0x7f) << 16);
        if v < Q as u32 && n < N {
            f(n, v.cast_signed());
            n += 1;
        }
    }
    n
}

/// RejBoundedPoly (FIPS 204 Algorithm 31) of SHAKE256(ρ′ ‖ IntegerToBytes(r, 2)):
/// coefficients in `-η..=η`, for ExpandS (Algorithm 33). The seed is secret. Whether a
/// half-byte is kept depends only on that half-byte, and the kept ones are uniform whatever
/// was rejected before them, so the positions (which are declassified, for `xtask ct`) reveal
/// nothing about the values; the values are computed without a branch or a division
/// (CoeffFromHalfByte's `mod 5` is a multiplication and a shift).
pub(crate) fn sample_bounded(keccak: KeccakImpl, seed: &[u8; 64], r: u16, eta: u32, p: &mut Poly) {
    let mut xof = OneBlockShake::<136>::new(keccak, &[seed, &r.to_le_bytes()]);
    let mut block = [0u8; 136];
    let mut n = 0;
    while n < N {
        xof.squeeze_block(&mut block);
        n = bounded_fill(&block, eta, p, n);
    }
    block.zeroize();
}

/// RejBoundedPoly's loop over one block of SHAKE256 output: fills `p` from coefficient `n`
/// on with the coefficients of the half-bytes kept, and returns how far it got.
pub(crate) fn bounded_fill(block: &[u8; 136], eta: u32, p: &mut Poly, mut n: usize) -> usize {
    for &b in block {
        for z in [u32::from(b & 15), u32::from(b >> 4)] {
            let (keep, value) = coeff_from_half_byte(z, eta);
            if core_hash::declassify(keep) && n < N {
                p.0[n] = value;
                n += 1;
            }
        }
    }
    n
}

/// CoeffFromHalfByte (FIPS 204 Algorithm 15): whether `z` (below 16) gives a coefficient, and
/// which: `2 − (z mod 5)` for η = 2 (kept below 15), `4 − z` for η = 4 (kept below 9).
#[inline]
fn coeff_from_half_byte(z: u32, eta: u32) -> (bool, i32) {
    if eta == 2 {
        // ⌊z/5⌋ = ⌊z·205 / 2^10⌋ for z < 16.
        let mod5 = z - 5 * ((z * 205) >> 10);
        (z < 15, 2 - mod5.cast_signed())
    } else {
        (z < 9, 4 - z.cast_signed())
    }
}

/// ExpandMask's polynomial (FIPS 204 Algorithm 34, one row): BitUnpack(SHAKE256(ρ″ ‖
/// IntegerToBytes(κ, 2)), γ₁ − 1, γ₁), coefficients in `-γ₁+1..=γ₁`; `gamma1_bits` is 17 or 19.
pub(crate) fn expand_mask(
    keccak: KeccakImpl,
    seed: &[u8; 64],
    kappa: u16,
    gamma1_bits: u32,
    p: &mut Poly,
) {
    let mut xof = OneBlockShake::<136>::new(keccak, &[seed, &kappa.to_le_bytes()]);
    let mut bytes = [0u8; 5 * 136];
    let bits = gamma1_bits + 1;
    for block in bytes.chunks_mut(136) {
        xof.squeeze_block(block);
    }
    unpack_signed(&bytes[..32 * bits as usize], 1 << gamma1_bits, bits, p);
    bytes.zeroize();
}

/// The challenge c of SampleInBall (FIPS 204 Algorithm 29) as its τ nonzero coefficients,
/// for verification, where c̃ and c are public: each entry is an index below 256 plus 256
/// where the coefficient is −1 (it is +1 elsewhere). Multiplying by it is τ signed shifts
/// ([`Challenge::sub_times`]). Signing uses [`sample_in_ball_secret`] instead.
pub(crate) struct Challenge {
    entries: [u16; 64],
    tau: usize,
}

impl Challenge {
    /// SampleInBall of the commitment hash c̃, which is public: its loop and indices depend
    /// on c̃. The algorithm's swap c_i ← c_j, c_j ← ±1 moves the entry at j (if any) to i,
    /// which no entry holds yet (all are below i), and adds one at j.
    pub(crate) fn sample(keccak: KeccakImpl, c_tilde: &[u8], tau: usize) -> Self {
        let mut c = Self { entries: [0; 64], tau };
        ball_positions(keccak, c_tilde, tau, |k, i, j, negative| {
            let j = u16::from(j);
            for e in &mut c.entries[..k] {
                if *e & 0xff == j {
                    *e = (*e & 0x100) | i as u16;
                }
            }
            c.entries[k] = j | u16::from(negative) << 8;
        });
        c
    }

    /// The challenge as a polynomial.
    pub(crate) fn to_poly(&self, c: &mut Poly) {
        c.0 = [0; N];
        for &e in &self.entries[..self.tau] {
            c.0[usize::from(e & 0xff)] = 1 - 2 * i32::from(e >> 8);
        }
    }

    /// `acc` −= c·t in R_q = Z_q\[X\]/(X^256 + 1), unreduced, with t's coefficients `t(0)…t(255)`:
    /// each adds or subtracts each `t(i)` once per entry, so `|t(i)|·τ` bounds the change.
    /// Verification only: c is public, and so is t.
    pub(crate) fn sub_times(&self, acc: &mut Poly, t: impl Fn(usize) -> i32) {
        for i in 0..N {
            let v = t(i);
            for &e in &self.entries[..self.tau] {
                // Bit 8 of i + e: the coefficient's sign, flipped where X^(i + index) wraps
                // past X^256 = −1.
                let k = i + usize::from(e);
                if k & 0x100 == 0 {
                    acc.0[k & 0xff] -= v;
                } else {
                    acc.0[k & 0xff] += v;
                }
            }
        }
    }
}

/// SampleInBall's loop (FIPS 204 Algorithm 29) over SHAKE256(c̃): calls `swap(k, i, j, sign)`
/// for the k-th of the τ steps, i = 256 − τ + k, with the position j ≤ i drawn from the
/// stream and the sign bit k of its first eight bytes.
///
/// Only whether each byte is rejected (j > i) is declassified: that depends on the rejected
/// bytes alone, and an accepted j is uniform in `0..=i` whatever was rejected before it, so
/// the pattern says nothing of c (as `sample_bounded`'s positions say nothing of s). It sets
/// the number of blocks squeezed, which is one but with a probability below 2^−87 (τ = 60;
/// 2^−140 for τ = 49, 2^−202 for τ = 39: τ acceptances among 128 bytes, each byte kept with
/// probability (i + 1)/256 ≥ 196/256), so a second block is not worth making constant.
#[inline(always)]
fn ball_positions(
    keccak: KeccakImpl,
    c_tilde: &[u8],
    tau: usize,
    mut swap: impl FnMut(usize, usize, u8, bool),
) {
    let mut xof = OneBlockShake::<136>::new(keccak, &[c_tilde]);
    let mut block = [0u8; 136];
    xof.squeeze_block(&mut block);
    let mut signs = u64::from_le_bytes([
        block[0], block[1], block[2], block[3], block[4], block[5], block[6], block[7],
    ]);
    let mut at = 8;
    for (k, i) in (N - tau..N).enumerate() {
        let j = loop {
            if at == block.len() {
                xof.squeeze_block(&mut block);
                at = 0;
            }
            let j = block[at];
            at += 1;
            if core_hash::declassify(usize::from(j) <= i) {
                break j;
            }
        };
        swap(k, i, j, (signs >> k) & 1 == 1);
    }
    block.zeroize();
    signs.zeroize();
}

/// SampleInBall (FIPS 204 Algorithm 29) of the commitment hash c̃ as a polynomial (see
/// [`Challenge::sample`]), for verification: c̃ is public.
pub(crate) fn sample_in_ball(keccak: KeccakImpl, c_tilde: &[u8], tau: usize, c: &mut Poly) {
    Challenge::sample(keccak, c_tilde, tau).to_poly(c);
}

/// SampleInBall of a candidate's c̃ in signing, in constant time: the c of a candidate that is
/// then rejected is never published, and what its positions leak weakens the key
/// (see `dsa::sign`). Beside the rejected bytes' pattern ([`ball_positions`]), nothing
/// depends on c̃: each swap at the secret position j is a masked pass over c₀…c_i (i is
/// public), with no index, branch or address that follows j or the sign. c is held as
/// bytes, 32 to an AVX2 register, then widened into `out` (coefficients −1, 0, 1).
#[inline(always)]
pub(crate) fn sample_in_ball_secret(
    keccak: KeccakImpl,
    c_tilde: &[u8],
    tau: usize,
    out: &mut Poly,
) {
    let mut c = [0i8; N];
    ball_positions(keccak, c_tilde, tau, |_, i, j, negative| {
        let value = 1 - 2 * i8::from(negative);
        // c_i is 0 here (no earlier step reached i). One pass takes c_j out and writes ±1
        // there; c_i then gets the old c_j (0 when j = i, leaving the ±1 just written).
        let mut moved = 0i8;
        for (t, x) in c[..=i].iter_mut().enumerate() {
            // All ones where t = j: (t ⊕ j) − 1 borrows into the high byte only from zero.
            let hit = (u16::from(t as u8 ^ j).wrapping_sub(1) >> 8) as i8;
            moved |= *x & hit;
            *x = (*x & !hit) | (value & hit);
        }
        c[i] |= moved;
    });
    for (o, &x) in out.0.iter_mut().zip(&c) {
        *o = i32::from(x);
    }
    c.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;

    const G44: Gamma2 = Gamma2::new((Q - 1) / 88);
    const G65: Gamma2 = Gamma2::new((Q - 1) / 32);

    /// Decompose by its definition (FIPS 204 Algorithm 36), with division.
    fn decompose_by_definition(r: i32, gamma2: i32) -> (i32, i32) {
        let mut r0 = r.rem_euclid(2 * gamma2);
        if r0 > gamma2 {
            r0 -= 2 * gamma2;
        }
        if r - r0 == Q - 1 { (0, r0 - 1) } else { ((r - r0) / (2 * gamma2), r0) }
    }

    #[test]
    fn decompose_matches_the_definition_on_all_of_z_q() {
        for g in [G44, G65] {
            for r in 0..Q {
                assert_eq!(g.decompose(r), decompose_by_definition(r, g.gamma2), "r = {r}");
            }
        }
        assert_eq!((G44.w1_bits(), G65.w1_bits()), (6, 4));
    }

    #[test]
    fn power2round_matches_the_definition() {
        for r in (0..Q).step_by(7).chain([0, 4095, 4096, 4097, Q - 1]) {
            let (r1, r0) = power2round(r);
            let mut want0 = r.rem_euclid(1 << D);
            if want0 > 1 << (D - 1) {
                want0 -= 1 << D;
            }
            assert_eq!((r1, r0), ((r - want0) >> D, want0), "r = {r}");
        }
    }

    /// The CCTV example for r = 6 010 000 (c2sp.org/CCTV/ML-DSA, field operation tests).
    #[test]
    fn cctv_field_example() {
        let r = 6_010_000;
        assert_eq!(centered(r), -2_370_417);
        assert_eq!(power2round(r), (734, 8_377_489 - Q));
        assert_eq!(G44.decompose(r), (32, -84_848));
        assert_eq!(G44.use_hint(1, r), 31);
        assert_eq!(G65.decompose(r), (11, 248_464));
        assert_eq!(G65.use_hint(1, r), 12);
    }

    #[test]
    fn reductions_give_their_representatives() {
        for a in [i32::MIN + (1 << 22) + 1, -Q - 1, -1, 0, 1, Q, 2 * Q + 5, i32::MAX - (1 << 22)] {
            let (r, f, c) = (reduce32(a), freeze(a), centered(a));
            assert!(r.abs() <= 6_283_008 && (0..Q).contains(&f) && c.abs() <= (Q - 1) / 2);
            for x in [r, f, c] {
                assert_eq!((i64::from(x) - i64::from(a)).rem_euclid(i64::from(Q)), 0);
            }
        }
        assert_eq!((exceeds(-5, 5), exceeds(4, 5), exceeds(-4, 5)), (!0, 0, 0));
    }

    #[test]
    fn coeff_from_half_byte_matches_the_definition() {
        for z in 0..16u32 {
            assert_eq!(coeff_from_half_byte(z, 2), (z < 15, 2 - (z % 5).cast_signed()));
            assert_eq!(coeff_from_half_byte(z, 4), (z < 9, 4 - z.cast_signed()));
        }
    }

    /// The challenge's signed shifts are the product in Z[X]/(X^256 + 1), checked against
    /// schoolbook multiplication by its polynomial.
    #[test]
    fn challenge_product_matches_schoolbook() {
        let keccak = <KeccakImpl as crate::Implementation>::best();
        for (tau, seed) in [(39, 1u8), (49, 2), (60, 3)] {
            let c = Challenge::sample(keccak, &[seed; 32], tau);
            let mut dense = Poly::ZERO;
            c.to_poly(&mut dense);
            assert_eq!(dense.0.iter().filter(|&&x| x != 0).count(), tau);
            let t = |i: usize| i32::from((i as u16).wrapping_mul(7919) & 1023) - 512;
            let mut want = [0i32; N];
            for (j, &cj) in dense.0.iter().enumerate() {
                for i in 0..N {
                    let (k, sign) = if i + j < N { (i + j, 1) } else { (i + j - N, -1) };
                    want[k] -= sign * cj * t(i);
                }
            }
            let mut got = Poly::ZERO;
            c.sub_times(&mut got, t);
            assert_eq!(got.0, want, "tau = {tau}");
        }
    }

    /// Signing's constant-time SampleInBall gives verification's, on 64 challenges for each τ
    /// (with j = i, which moves nothing, about once in six).
    #[test]
    fn secret_sample_in_ball_matches_public() {
        let keccak = <KeccakImpl as crate::Implementation>::best();
        let (mut public, mut secret) = (Poly::ZERO, Poly::ZERO);
        for tau in [39, 49, 60] {
            for seed in 0..64u8 {
                let c_tilde = [seed, tau as u8, 7, 1];
                sample_in_ball(keccak, &c_tilde, tau, &mut public);
                sample_in_ball_secret(keccak, &c_tilde, tau, &mut secret);
                assert_eq!(secret.0, public.0, "tau = {tau}, seed = {seed}");
                assert_eq!(secret.0.iter().filter(|&&x| x != 0).count(), tau);
            }
        }
    }

    /// The grouped packing and unpacking give the bit-at-a-time ones' bytes and values.
    #[test]
    fn grouped_packing_matches_bitwise() {
        for bits in [3u32, 4, 6, 10, 13, 18, 20] {
            let value = |i: usize| (i as u32).wrapping_mul(2_654_435_761) >> (32 - bits);
            let len = 32 * bits as usize;
            let (mut ours, mut want) = ([0u8; 640], [0u8; 640]);
            pack(&mut ours[..len], bits, value);
            pack_bits(&mut want[..len], bits, value);
            assert_eq!(ours, want, "pack, bits = {bits}");
            let (mut got, mut expect) = ([0u32; N], [0u32; N]);
            unpack(&want[..len], bits, |i, v| got[i] = v);
            unpack_bits(&want[..len], bits, |i, v| expect[i] = v);
            assert_eq!(got, expect, "unpack, bits = {bits}");
        }
    }

    /// UseHint without a branch agrees with FIPS 204 Algorithm 40 as written, on all of Z_q
    /// (a stride) and around each boundary of r₁.
    #[test]
    fn use_hint_matches_the_definition() {
        for g in [G44, G65] {
            let m = g.high_values();
            let by_definition = |h: bool, r: i32| {
                let (r1, r0) = g.decompose(r);
                match (h, r0 > 0) {
                    (false, _) => r1,
                    (true, true) => (r1 + 1) % m,
                    (true, false) => (r1 - 1 + m) % m,
                }
            };
            let edges = (0..=m).flat_map(|k| {
                let at = k * 2 * g.gamma2;
                [at - g.gamma2 - 1, at - g.gamma2, at - 1, at, at + 1, at + g.gamma2]
            });
            for r in (0..Q).step_by(101).chain(edges.filter(|r| (0..Q).contains(r))) {
                for h in [false, true] {
                    assert_eq!(g.use_hint(i32::from(h), r), by_definition(h, r), "r = {r}");
                }
            }
        }
    }

    #[test]
    fn pack_round_trips_every_width() {
        for bits in [3u32, 4, 6, 10, 13, 18, 20] {
            let p = Poly(core::array::from_fn(|i| {
                ((i as u32).wrapping_mul(2_654_435_761) % (1 << bits)).cast_signed()
            }));
            let mut bytes = [0u8; 640];
            let b = (1 << bits) - 1;
            pack_signed(&p, b, bits, &mut bytes[..32 * bits as usize]);
            let mut back = Poly::ZERO;
            unpack_signed(&bytes[..32 * bits as usize], b, bits, &mut back);
            assert_eq!(back.0, p.0, "bits = {bits}");
        }
    }
}
