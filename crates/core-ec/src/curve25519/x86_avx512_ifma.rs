//! The X25519 Montgomery ladder four lanes wide with AVX-512 IFMA: the two ladder points
//! `(x2 : z2)` and `(x3 : z3)` sit in the four 64-bit lanes of 256-bit registers, one register
//! per radix-2^51 limb, and each ladder step is three four-way field multiplications
//! (`vpmadd52luq`/`vpmadd52huq`, 52×52-bit products without carry flags) where the scalar
//! `x86_adx` code does nine serial ones on the two ports that run its carry chains. The
//! fixed-base comb (X25519 public keys, Ed25519 signing) runs four independent accumulators,
//! one per lane, over the same radix-16 digits. Ed25519 verification's double-scalar
//! multiplication keeps one point's `(X, Y, Z, T)` in the four lanes, so a doubling or an
//! addition is two four-way products. Everything else (inversions, encodings) is `x86_adx`'s.
//!
//! Limbs are kept below 2^52 wherever they feed a multiplication (IFMA reads only the low 52
//! bits of each lane): products, sums and differences are all carried once in parallel, which
//! leaves limbs below 2^51 + 2^15.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_cmpeq_epi64_mask, _mm256_extract_epi64,
    _mm256_madd52hi_epu64, _mm256_madd52lo_epu64, _mm256_mask_blend_epi64, _mm256_mask_sub_epi64,
    _mm256_maskz_mov_epi64, _mm256_permute4x64_epi64, _mm256_set_epi64x, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_sub_epi64, _mm256_xor_si256,
};

use super::edwards::{Point, naf_vartime, radix16};
use super::field::Field;
use super::{portable64, tables, x86_adx};

/// Four field elements, lane `i` of every limb register being element `i`, in radix 2^51.
#[derive(Clone, Copy)]
struct Fe4([__m256i; 5]);

const MASK51: u64 = (1 << 51) - 1;

/// The limbs of 2p, lane-broadcast: what a difference adds so that it stays non-negative.
const TWO_P: [u64; 5] =
    [(1 << 52) - 38, (1 << 52) - 2, (1 << 52) - 2, (1 << 52) - 2, (1 << 52) - 2];

/// `(A − 2)/4 + 1 = 121666`: the ladder's `z2 = E·(BB + 121666·E)`.
const A24_PLUS_1: i64 = 121_666;

/// `19·x` (2^255 ≡ 19), by shifts: valid while `19·x` fits in 64 bits.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn mul19(x: __m256i) -> __m256i {
    _mm256_add_epi64(_mm256_add_epi64(x, _mm256_slli_epi64::<1>(x)), _mm256_slli_epi64::<4>(x))
}

/// One parallel carry round: limb `k` keeps its low 51 bits and gets the carry of limb
/// `k − 1` (limb 0 gets 19 times the carry of limb 4). Limbs below 2^61 come out below
/// 2^51 + 2^15; limbs below 2^55, below 2^51 + 2^9.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn carry(v: [__m256i; 5]) -> Fe4 {
    let m = _mm256_set1_epi64x(MASK51.cast_signed());
    let c = v.map(|x| _mm256_srli_epi64::<51>(x));
    let l = v.map(|x| _mm256_and_si256(x, m));
    Fe4([
        _mm256_add_epi64(l[0], mul19(c[4])),
        _mm256_add_epi64(l[1], c[0]),
        _mm256_add_epi64(l[2], c[1]),
        _mm256_add_epi64(l[3], c[2]),
        _mm256_add_epi64(l[4], c[3]),
    ])
}

/// Lane-wise `a·b`, for limbs below 2^52; the result has limbs below 2^51 + 2^15.
///
/// Each 52×52-bit product `a_i·b_j` is split by IFMA at bit 52: its low half belongs to
/// column `i + j` and its high half, weighing 2^52 = 2·2^51, twice to column `i + j + 1`.
/// Columns 5 to 9 fold back times 19, then one parallel carry round.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn mul(a: &Fe4, b: &Fe4) -> Fe4 {
    let z = _mm256_setzero_si256();
    let mut lo = [z; 9];
    let mut hi = [z; 9];
    for i in 0..5 {
        for j in 0..5 {
            lo[i + j] = _mm256_madd52lo_epu64(lo[i + j], a.0[i], b.0[j]);
            hi[i + j] = _mm256_madd52hi_epu64(hi[i + j], a.0[i], b.0[j]);
        }
    }
    reduce(&lo, &hi)
}

/// Lane-wise `a²`, for limbs below 2^52, as [`mul`] computes it but with each cross product
/// `a_i·a_j` (`i < j`) taken once and doubled: 15 products instead of 25.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn square(a: &Fe4) -> Fe4 {
    let z = _mm256_setzero_si256();
    let mut lo = [z; 9];
    let mut hi = [z; 9];
    for i in 0..5 {
        for j in i + 1..5 {
            lo[i + j] = _mm256_madd52lo_epu64(lo[i + j], a.0[i], a.0[j]);
            hi[i + j] = _mm256_madd52hi_epu64(hi[i + j], a.0[i], a.0[j]);
        }
    }
    lo = lo.map(|x| _mm256_slli_epi64::<1>(x));
    hi = hi.map(|x| _mm256_slli_epi64::<1>(x));
    for i in 0..5 {
        lo[2 * i] = _mm256_madd52lo_epu64(lo[2 * i], a.0[i], a.0[i]);
        hi[2 * i] = _mm256_madd52hi_epu64(hi[2 * i], a.0[i], a.0[i]);
    }
    reduce(&lo, &hi)
}

/// The product from its IFMA column sums: `lo[k]` holds the low halves and `hi[k]` the high
/// halves of the 52×52-bit products of column `k` (sums no larger than those of five).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn reduce(lo: &[__m256i; 9], hi: &[__m256i; 9]) -> Fe4 {
    // Column k = lo_k + 2·hi_(k−1): below 15·2^52.
    let col = |k: usize| -> __m256i {
        match k {
            0 => lo[0],
            9 => _mm256_slli_epi64::<1>(hi[8]),
            _ => _mm256_add_epi64(lo[k], _mm256_slli_epi64::<1>(hi[k - 1])),
        }
    };
    // r_k = col_k + 19·col_(k+5): below 300·2^52 < 2^61, so one parallel carry round leaves
    // limbs below 2^51 + 2^15.
    carry(core::array::from_fn(|k| _mm256_add_epi64(col(k), mul19(col(k + 5)))))
}

/// `add + c·v` lane-wise, for `v` with limbs below 2^52, `c` below 2^20 and `add` with limbs
/// below 2^51 + 2^15; carried once.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn mul_small_add(v: &Fe4, c: i64, add: &Fe4) -> Fe4 {
    let c = _mm256_set1_epi64x(c);
    let z = _mm256_setzero_si256();
    let lo: [__m256i; 5] = core::array::from_fn(|k| _mm256_madd52lo_epu64(add.0[k], v.0[k], c));
    let hi2: [__m256i; 5] =
        core::array::from_fn(|k| _mm256_slli_epi64::<1>(_mm256_madd52hi_epu64(z, v.0[k], c)));
    carry([
        _mm256_add_epi64(lo[0], mul19(hi2[4])),
        _mm256_add_epi64(lo[1], hi2[0]),
        _mm256_add_epi64(lo[2], hi2[1]),
        _mm256_add_epi64(lo[3], hi2[2]),
        _mm256_add_epi64(lo[4], hi2[3]),
    ])
}

/// The same permutation of lanes in every limb.
#[inline]
#[target_feature(enable = "avx2")]
fn permute<const IMM: i32>(v: &Fe4) -> Fe4 {
    Fe4(v.0.map(|x| _mm256_permute4x64_epi64::<IMM>(x)))
}

/// One ladder step on `s = (x2, z2, x3, z3)` (already conditionally swapped) with
/// `x1v = (1, 1, 1, x1)`: the doubling of `(x2 : z2)` and the differential addition into
/// `(x3 : z3)`, as in RFC 7748 §5.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn step(s: &Fe4, x1v: &Fe4) -> Fe4 {
    let two_p = TWO_P.map(|l| _mm256_set1_epi64x(l.cast_signed()));
    // v = (A, B, C, D) = (x2 + z2, x2 − z2, x3 + z3, x3 − z3).
    let y = permute::<0xA0>(s); // (x2, x2, x3, x3)
    let w = permute::<0xF5>(s); // (z2, z2, z3, z3)
    let v = carry(core::array::from_fn(|k| {
        _mm256_add_epi64(y.0[k], _mm256_mask_sub_epi64(w.0[k], 0b1010, two_p[k], w.0[k]))
    }));
    // m1 = (A·A, B·B, C·B, D·A) = (AA, BB, CB, DA).
    let m1 = mul(&v, &permute::<0x14>(&v));
    // l = (AA, E, DA + CB, DA − CB) with E = AA − BB.
    let p1 = permute::<0xB1>(&m1); // (BB, AA, DA, CB)
    let l = carry(core::array::from_fn(|k| {
        let f = _mm256_mask_blend_epi64(0b0010, m1.0[k], p1.0[k]); // (AA, AA, CB, DA)
        let g = _mm256_mask_blend_epi64(0b1100, m1.0[k], p1.0[k]); // (AA, BB, DA, CB)
        let g = _mm256_mask_sub_epi64(g, 0b1010, two_p[k], g); // (AA, −BB, DA, −CB)
        _mm256_add_epi64(f, _mm256_maskz_mov_epi64(0b1110, g))
    }));
    // r = (BB, BB + 121666·E, DA + CB, DA − CB): lane 1 of m1 + 121666·l is BB + 121666·E.
    let k = mul_small_add(&l, A24_PLUS_1, &m1);
    let r = Fe4(core::array::from_fn(|i| {
        let t = _mm256_mask_blend_epi64(0b0010, l.0[i], k.0[i]);
        _mm256_mask_blend_epi64(0b0001, t, p1.0[i])
    }));
    // (x2, z2, x3, (DA − CB)²), then z3 = x1·(DA − CB)².
    let m2 = mul(&l, &r);
    mul(&m2, x1v)
}

/// The radix-2^51 limbs of a little-endian u-coordinate, bit 255 ignored (values from p up
/// are kept as they are: every limb is below 2^51).
fn limbs(u: &[u8; 32]) -> [u64; 5] {
    let w: [u64; 4] = core::array::from_fn(|i| {
        u64::from_le_bytes(u[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]))
    });
    [
        w[0] & MASK51,
        (w[0] >> 51 | w[1] << 13) & MASK51,
        (w[1] >> 38 | w[2] << 26) & MASK51,
        (w[2] >> 25 | w[3] << 39) & MASK51,
        (w[3] >> 12) & MASK51,
    ]
}

/// The four-limb element with the value of radix-2^51 limbs below 2^51 + 2^15 (a value below
/// 2^256).
fn to_adx(l: [u64; 5]) -> x86_adx::Fe {
    let mut acc = u128::from(l[0]) + (u128::from(l[1]) << 51);
    let w0 = acc as u64;
    acc >>= 64;
    acc += u128::from(l[2]) << 38;
    let w1 = acc as u64;
    acc >>= 64;
    acc += u128::from(l[3]) << 25;
    let w2 = acc as u64;
    acc >>= 64;
    acc += u128::from(l[4]) << 12;
    x86_adx::Fe([w0, w1, w2, acc as u64])
}

/// Lane `LANE` of every limb.
#[inline]
#[target_feature(enable = "avx2")]
fn lane<const LANE: i32>(v: &Fe4) -> [u64; 5] {
    v.0.map(|x| _mm256_extract_epi64::<LANE>(x).cast_unsigned())
}

/// Swaps the lanes (0, 1) with (2, 3) where `mask` is all ones, in constant time.
#[inline]
#[target_feature(enable = "avx2")]
fn cswap(s: &Fe4, mask: __m256i) -> Fe4 {
    Fe4(s.0.map(|x| {
        let t = _mm256_permute4x64_epi64::<0x4E>(x);
        _mm256_xor_si256(x, _mm256_and_si256(_mm256_xor_si256(x, t), mask))
    }))
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn ladder_ifma(k: &[u8; 32], u: &[u8; 32]) -> (x86_adx::Fe, x86_adx::Fe) {
    let x1 = limbs(u);
    let one = |i: usize| i64::from(i == 0);
    // s = (x2, z2, x3, z3) = (1, 0, x1, 1); x1v = (1, 1, 1, x1).
    let mut s =
        Fe4(core::array::from_fn(|i| _mm256_set_epi64x(one(i), x1[i].cast_signed(), 0, one(i))));
    let x1v = Fe4(core::array::from_fn(|i| {
        _mm256_set_epi64x(x1[i].cast_signed(), one(i), one(i), one(i))
    }));
    let mut swap = 0u64;
    for t in (0..255).rev() {
        let bit = u64::from((k[t >> 3] >> (t & 7)) & 1);
        swap ^= bit;
        s = cswap(&s, _mm256_set1_epi64x(0i64.wrapping_sub(swap.cast_signed())));
        swap = bit;
        s = step(&s, &x1v);
    }
    s = cswap(&s, _mm256_set1_epi64x(0i64.wrapping_sub(swap.cast_signed())));
    (to_adx(lane::<0>(&s)), to_adx(lane::<1>(&s)))
}

/// `u(k·P)` as [`super::montgomery::ladder`] computes it, for a clamped `k`; the tokens prove
/// that the CPU has AVX-512 IFMA (the ladder) and BMI2/ADX (the inversion).
pub(crate) fn ladder(
    _adx: core_cpu::Adx,
    _ifma: core_cpu::Avx512Ifma,
    k: &[u8; 32],
    u: &[u8; 32],
) -> [u8; 32] {
    // SAFETY: the `Avx512Ifma` token proves AVX2, AVX-512 F/VL and IFMA are present.
    let (x2, z2) = unsafe { ladder_ifma(k, u) };
    // `x86_adx::Fe` needs BMI2 and ADX, which the `Adx` token proves.
    x2.mul(&z2.invert()).to_bytes()
}

/// The fixed-base comb in lane layout: `COMB4[g][j][c][l]` holds, in lane `i`, limb `l` of
/// coordinate `c` (`y + x`, `y − x`, `2dxy`) of `(j + 1)·16^(2(4g + i))·B`, the entry `j` of row
/// `4g + i` of [`tables::COMB`].
static COMB4: [[[[__m256i; 5]; 3]; 8]; 8] = {
    const fn lanes() -> [[[[[u64; 4]; 5]; 3]; 8]; 8] {
        let mut out = [[[[[0u64; 4]; 5]; 3]; 8]; 8];
        let mut g = 0;
        while g < 8 {
            let mut j = 0;
            while j < 8 {
                let mut c = 0;
                while c < 3 {
                    let mut i = 0;
                    while i < 4 {
                        let fe = portable64::Fe::from_bytes_const(&tables::COMB[4 * g + i][j][c]);
                        let mut l = 0;
                        while l < 5 {
                            out[g][j][c][l][i] = fe.0[l];
                            l += 1;
                        }
                        i += 1;
                    }
                    c += 1;
                }
                j += 1;
            }
            g += 1;
        }
        out
    }
    // SAFETY: `[u64; 4]` and `__m256i` have the same size, and every bit pattern is a valid
    // `__m256i`.
    unsafe {
        core::mem::transmute::<[[[[[u64; 4]; 5]; 3]; 8]; 8], [[[[__m256i; 5]; 3]; 8]; 8]>(lanes())
    }
};

/// Four points in extended coordinates, one per lane.
#[derive(Clone, Copy)]
struct Point4 {
    x: Fe4,
    y: Fe4,
    z: Fe4,
    t: Fe4,
}

/// `a + b`, carried.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn add(a: &Fe4, b: &Fe4) -> Fe4 {
    carry(core::array::from_fn(|k| _mm256_add_epi64(a.0[k], b.0[k])))
}

/// `a − b` as `a + 2p − b`, carried; limbs of `b` must not exceed those of 2p.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn sub(a: &Fe4, b: &Fe4) -> Fe4 {
    carry(core::array::from_fn(|k| {
        let two_p = _mm256_set1_epi64x(TWO_P[k].cast_signed());
        _mm256_add_epi64(a.0[k], _mm256_sub_epi64(two_p, b.0[k]))
    }))
}

/// The same element in every lane, from radix-2^51 limbs.
#[inline]
#[target_feature(enable = "avx2")]
fn splat(l: [u64; 5]) -> Fe4 {
    Fe4(l.map(|x| _mm256_set1_epi64x(x.cast_signed())))
}

/// Lane `i` gets entry `|d_i| − 1` of row `4g + i` (negated where `d_i < 0`, the identity
/// where `d_i = 0`), for `d_i` in −8..=8; every entry of the four rows is read, so the memory
/// access pattern does not depend on the digits.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn select(g: usize, d: [i8; 4]) -> [Fe4; 3] {
    let neg = d.map(|x| x.cast_unsigned() >> 7);
    let abs: [u8; 4] = core::array::from_fn(|i| {
        (d[i].cast_unsigned() ^ 0u8.wrapping_sub(neg[i])).wrapping_add(neg[i])
    });
    let neg_mask = neg[0] | neg[1] << 1 | neg[2] << 2 | neg[3] << 3;
    let absv = _mm256_set_epi64x(
        i64::from(abs[3]),
        i64::from(abs[2]),
        i64::from(abs[1]),
        i64::from(abs[0]),
    );
    let one = splat([1, 0, 0, 0, 0]);
    let mut out = [one, one, splat([0; 5])];
    for (j, entry) in (1i64..).zip(&COMB4[g]) {
        let hit = _mm256_cmpeq_epi64_mask(absv, _mm256_set1_epi64x(j));
        for (o, e) in out.iter_mut().zip(entry) {
            for (ol, el) in o.0.iter_mut().zip(e) {
                *ol = _mm256_mask_blend_epi64(hit, *ol, *el);
            }
        }
    }
    // −(y + x, y − x, 2dxy) = (y − x, y + x, −2dxy).
    let [ypx, ymx, xy2d] = out;
    [
        Fe4(core::array::from_fn(|l| _mm256_mask_blend_epi64(neg_mask, ypx.0[l], ymx.0[l]))),
        Fe4(core::array::from_fn(|l| _mm256_mask_blend_epi64(neg_mask, ymx.0[l], ypx.0[l]))),
        Fe4(core::array::from_fn(|l| {
            let two_p = _mm256_set1_epi64x(TWO_P[l].cast_signed());
            _mm256_mask_sub_epi64(xy2d.0[l], neg_mask, two_p, xy2d.0[l])
        })),
    ]
}

/// The sums, differences and products that finish a doubling or an addition: `(E, F, G, H)`
/// to `(E·F, G·H, F·G, E·H)`, without `T` when `with_t` is false.
///
/// # Safety
///
/// As for [`double_lanes`].
#[inline(always)]
unsafe fn finish(e: &Fe4, f: &Fe4, g: &Fe4, h: &Fe4, with_t: bool) -> Point4 {
    // SAFETY: the caller guarantees the CPU features.
    unsafe {
        Point4 { x: mul(e, f), y: mul(g, h), z: mul(f, g), t: if with_t { mul(e, h) } else { *e } }
    }
}

impl Point4 {
    /// `self + q` lane-wise for affine Niels `q` (7 four-way products).
    ///
    /// # Safety
    ///
    /// As for [`double_lanes`].
    #[inline(always)]
    unsafe fn add_niels(&self, q: &[Fe4; 3]) -> Self {
        // SAFETY: the caller guarantees the CPU features.
        unsafe {
            let a = mul(&sub(&self.y, &self.x), &q[1]);
            let b = mul(&add(&self.y, &self.x), &q[0]);
            let c = mul(&self.t, &q[2]);
            let d = add(&self.z, &self.z);
            finish(&sub(&b, &a), &sub(&d, &c), &add(&d, &c), &add(&b, &a), true)
        }
    }

    /// `2·self` lane-wise, from `X`, `Y` and `Z` only (the `a = −1` doubling with every
    /// intermediate negated, as in [`super::edwards`]); `T` is computed when `with_t`.
    ///
    /// # Safety
    ///
    /// As for [`double_lanes`].
    #[inline(always)]
    unsafe fn double(&self, with_t: bool) -> Self {
        // SAFETY: the caller guarantees the CPU features.
        unsafe {
            let a = mul(&self.x, &self.x);
            let b = mul(&self.y, &self.y);
            let zz = mul(&self.z, &self.z);
            let c = add(&zz, &zz);
            let h = add(&a, &b);
            let xy = add(&self.x, &self.y);
            let e = sub(&h, &mul(&xy, &xy));
            let g = sub(&a, &b);
            let f = add(&c, &g);
            finish(&e, &f, &g, &h, with_t)
        }
    }

    /// Lane `LANE` as a point of `x86_adx`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn lane<const LANE: i32>(&self) -> Point<x86_adx::Fe> {
        Point::from_extended(
            to_adx(lane::<LANE>(&self.x)),
            to_adx(lane::<LANE>(&self.y)),
            to_adx(lane::<LANE>(&self.z)),
            to_adx(lane::<LANE>(&self.t)),
        )
    }
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn mul_base_ifma(k: &[u8; 32]) -> [Point<x86_adx::Fe>; 4] {
    let e = radix16(k);
    let zero = splat([0; 5]);
    let one = splat([1, 0, 0, 0, 0]);
    let mut acc = Point4 { x: zero, y: one, z: one, t: zero };
    // Lane i sums the odd digits of rows i, i + 4, ..., times 16, then the even ones.
    for g in 0..8 {
        let q = select(g, core::array::from_fn(|i| e[2 * (4 * g + i) + 1]));
        // SAFETY: `add_niels` and `double` need this function's target features.
        acc = unsafe { acc.add_niels(&q) };
    }
    // SAFETY: as above.
    acc = unsafe { acc.double(false).double(false).double(false).double(true) };
    for g in 0..8 {
        let q = select(g, core::array::from_fn(|i| e[2 * (4 * g + i)]));
        // SAFETY: as above.
        acc = unsafe { acc.add_niels(&q) };
    }
    [acc.lane::<0>(), acc.lane::<1>(), acc.lane::<2>(), acc.lane::<3>()]
}

/// `k·B` for a 256-bit little-endian `k` below 2^255, in constant time, as
/// [`Point::mul_base`] with the full comb computes it: the 32 rows are shared out over four
/// lanes, each adding 16 table entries, and the four partial sums are added at the end. The
/// tokens prove AVX-512 IFMA (the comb) and BMI2/ADX (the final additions).
pub(crate) fn mul_base(
    _adx: core_cpu::Adx,
    _ifma: core_cpu::Avx512Ifma,
    k: &[u8; 32],
) -> Point<x86_adx::Fe> {
    // SAFETY: the `Avx512Ifma` token proves AVX2, AVX-512 F/VL and IFMA are present.
    let [p0, p1, p2, p3] = unsafe { mul_base_ifma(k) };
    // `x86_adx::Fe` needs BMI2 and ADX, which the `Adx` token proves.
    p0.add_cached(&p1.cached()).add_cached(&p2.add_cached(&p3.cached()).cached())
}

/// `permute4x64` selector putting source lanes `a`, `b`, `c`, `d` in lanes 0 to 3.
const fn sel(a: i32, b: i32, c: i32, d: i32) -> i32 {
    a | b << 2 | c << 4 | d << 6
}

/// The lanes in `M` of `v`, the others zero.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn keep<const M: u8>(v: &Fe4) -> Fe4 {
    Fe4(v.0.map(|x| _mm256_maskz_mov_epi64(M, x)))
}

/// `v` with the lanes in `M` negated (as `2p − v`; limbs of `v` must not exceed those of 2p).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn neg_lanes<const M: u8>(v: &Fe4) -> Fe4 {
    Fe4(core::array::from_fn(|l| {
        _mm256_mask_sub_epi64(v.0[l], M, _mm256_set1_epi64x(TWO_P[l].cast_signed()), v.0[l])
    }))
}

/// The lane-wise sum of up to four elements with limbs below 2^53, carried once.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn sum(terms: &[Fe4]) -> Fe4 {
    carry(core::array::from_fn(|l| {
        terms.iter().fold(_mm256_setzero_si256(), |acc, t| _mm256_add_epi64(acc, t.0[l]))
    }))
}

/// `2·p` for a point with its coordinates `(X, Y, Z, T)` in the four lanes (two four-way
/// products): the doubling of [`super::edwards`], `(X², Y², Z², (X + Y)²)` in one product and
/// `(E·F, G·H, F·G, E·H)` in the other.
///
/// # Safety
///
/// The CPU must have AVX2, AVX-512 F/VL and IFMA. Not a `target_feature` function so that it
/// can be inlined into its callers, which are.
#[inline(always)]
unsafe fn double_lanes(p: &Fe4) -> Fe4 {
    // SAFETY: the caller guarantees the CPU features.
    unsafe {
        let xy = keep::<0b1000>(&permute::<{ sel(0, 1, 2, 1) }>(p));
        let v = sum(&[permute::<{ sel(0, 1, 2, 0) }>(p), xy]); // (X, Y, Z, X + Y)
        let sq = square(&v); // (A, B, ZZ, S)
        let a = permute::<{ sel(0, 0, 0, 0) }>(&sq);
        let b = permute::<{ sel(1, 1, 1, 1) }>(&sq);
        let zz = permute::<{ sel(2, 2, 2, 2) }>(&sq);
        let s = permute::<{ sel(3, 3, 3, 3) }>(&sq);
        let zz2 = Fe4(zz.0.map(|x| _mm256_slli_epi64::<1>(x)));
        // (E, G, F, E) = (A + B − S, A − B, 2ZZ + A − B, A + B − S): the negated intermediates.
        let u = sum(&[
            a,
            neg_lanes::<0b0110>(&b),
            keep::<0b1001>(&neg_lanes::<0b1001>(&s)),
            keep::<0b0100>(&zz2),
        ]);
        // (F, H, G, H) = (2ZZ + A − B, A + B, A − B, A + B).
        let w = sum(&[a, neg_lanes::<0b0101>(&b), keep::<0b0001>(&zz2)]);
        mul(&u, &w)
    }
}

/// `p + q` for `p` in lanes `(X, Y, Z, T)` and `q` in lanes `(Y − X, Y + X, 2d·T, 2·Z)` (two
/// four-way products): `(a, b, c, d)` in one, then `(E·F, G·H, F·G, E·H)` with
/// `E = b − a, F = d − c, G = d + c, H = b + a`.
///
/// # Safety
///
/// As for [`double_lanes`].
#[inline(always)]
unsafe fn add_lanes(p: &Fe4, q: &Fe4) -> Fe4 {
    // SAFETY: the caller guarantees the CPU features.
    unsafe {
        let m = mul(&diff_sum(p), q);
        let u = sum(&[
            permute::<{ sel(1, 3, 3, 1) }>(&m),
            neg_lanes::<0b1101>(&permute::<{ sel(0, 2, 2, 0) }>(&m)),
        ]);
        let w = sum(&[
            permute::<{ sel(3, 1, 3, 1) }>(&m),
            neg_lanes::<0b0001>(&permute::<{ sel(2, 0, 2, 0) }>(&m)),
        ]);
        mul(&u, &w)
    }
}

/// `(Y − X, Y + X, T, Z)` from lanes `(X, Y, Z, T)`.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn diff_sum(p: &Fe4) -> Fe4 {
    let x = neg_lanes::<0b0001>(&keep::<0b0011>(&permute::<{ sel(0, 0, 0, 0) }>(p)));
    sum(&[permute::<{ sel(1, 1, 3, 2) }>(p), x])
}

/// `−q` for `q` in lanes `(Y − X, Y + X, 2d·T, 2·Z)`: swap the first two, negate the third.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn neg_cached(q: &Fe4) -> Fe4 {
    neg_lanes::<0b0100>(&permute::<{ sel(1, 0, 2, 3) }>(q))
}

/// `ODD_B4[i]` holds `(2i + 1)·B` of [`tables::ODD_B`] in lanes `(y − x, y + x, 2d·x·y, 2)`,
/// the operand [`add_lanes`] takes.
static ODD_B4: [[__m256i; 5]; 64] = {
    const fn lanes() -> [[[u64; 4]; 5]; 64] {
        let mut out = [[[0u64; 4]; 5]; 64];
        let mut i = 0;
        while i < 64 {
            let ypx = portable64::Fe::from_bytes_const(&tables::ODD_B[i][0]);
            let ymx = portable64::Fe::from_bytes_const(&tables::ODD_B[i][1]);
            let xy2d = portable64::Fe::from_bytes_const(&tables::ODD_B[i][2]);
            let mut l = 0;
            while l < 5 {
                out[i][l] = [ymx.0[l], ypx.0[l], xy2d.0[l], if l == 0 { 2 } else { 0 }];
                l += 1;
            }
            i += 1;
        }
        out
    }
    // SAFETY: `[u64; 4]` and `__m256i` have the same size, and every bit pattern is a valid
    // `__m256i`.
    unsafe { core::mem::transmute::<[[[u64; 4]; 5]; 64], [[__m256i; 5]; 64]>(lanes()) }
};

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn double_mul_base_ifma(p: [[u64; 5]; 4], a: &[u8; 32], b: &[u8; 32]) -> Fe4 {
    let naf_a = naf_vartime(a, 5);
    let naf_b = naf_vartime(b, 8);
    let lanes4 = |c: [[u64; 5]; 4]| {
        Fe4(core::array::from_fn(|l| {
            let v = c.map(|x| x[l].cast_signed());
            _mm256_set_epi64x(v[3], v[2], v[1], v[0])
        }))
    };
    let one = [1, 0, 0, 0, 0];
    let identity = lanes4([[0; 5], one, one, [0; 5]]);
    let p = lanes4(p);
    // (Y − X, Y + X, T, Z) times (1, 1, 2d, 2).
    let to_cached = lanes4([one, one, portable64::Fe::D2.0, [2, 0, 0, 0, 0]]);
    let cached = |p: &Fe4| mul(&diff_sum(p), &to_cached);
    // SAFETY: `double_lanes` and `add_lanes` need this function's target features.
    let twice = unsafe { double_lanes(&p) };
    let mut odd = [cached(&p); 8];
    for i in 1..8 {
        // SAFETY: as above.
        odd[i] = cached(&unsafe { add_lanes(&twice, &odd[i - 1]) });
    }
    let Some(top) = (0..256).rev().find(|&i| naf_a[i] != 0 || naf_b[i] != 0) else {
        return identity;
    };
    let mut r = identity;
    for i in (0..=top).rev() {
        // SAFETY: as above.
        r = unsafe { double_lanes(&r) };
        let (da, db) = (naf_a[i], naf_b[i]);
        if da != 0 {
            let q = &odd[usize::from(da.unsigned_abs() / 2)];
            // SAFETY: as above.
            r = unsafe { add_lanes(&r, &if da > 0 { *q } else { neg_cached(q) }) };
        }
        if db != 0 {
            let q = Fe4(ODD_B4[usize::from(db.unsigned_abs() / 2)]);
            // SAFETY: as above.
            r = unsafe { add_lanes(&r, &if db > 0 { q } else { neg_cached(&q) }) };
        }
    }
    r
}

/// `a·p + b·B` as [`Point::double_mul_base_vartime`] computes it, in variable time (for
/// verification), with the four coordinates of the running point in the four lanes: each
/// doubling and each addition is two four-way products instead of seven or eight serial ones.
/// The same width-5 NAF of `a` over eight odd multiples of `p` and width-8 NAF of `b` over the
/// static odd multiples of B. The tokens prove AVX-512 IFMA and BMI2/ADX (the conversions).
pub(crate) fn double_mul_base_vartime(
    _adx: core_cpu::Adx,
    _ifma: core_cpu::Avx512Ifma,
    p: &Point<x86_adx::Fe>,
    a: &[u8; 32],
    b: &[u8; 32],
) -> Point<x86_adx::Fe> {
    let coords = p.extended().map(|c| limbs(&c.to_bytes()));
    // SAFETY: the `Avx512Ifma` token proves AVX2, AVX-512 F/VL and IFMA are present.
    let (x, y, z, t) = unsafe {
        let r = double_mul_base_ifma(coords, a, b);
        (lane::<0>(&r), lane::<1>(&r), lane::<2>(&r), lane::<3>(&r))
    };
    Point::from_extended(to_adx(x), to_adx(y), to_adx(z), to_adx(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve25519::portable32;

    fn tokens() -> Option<(core_cpu::Adx, core_cpu::Avx512Ifma)> {
        Some((core_cpu::Adx::get()?, core_cpu::Avx512Ifma::get()?))
    }

    /// A deterministic pseudo-random 32-byte string.
    fn bytes(seed: u64) -> [u8; 32] {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        core::array::from_fn(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
    }

    #[test]
    fn limbs_round_trip() {
        for seed in 0..200 {
            let mut u = bytes(seed);
            if seed == 0 {
                u = [0xff; 32];
            }
            let fe = to_adx(limbs(&u));
            assert_eq!(fe.to_bytes(), portable32::Fe::from_bytes(&u).to_bytes(), "{seed}");
        }
        // The largest limbs the ladder leaves still convert exactly.
        let top = [MASK51 + (1 << 15); 5];
        let fe = to_adx(top);
        let mut want = portable32::Fe::ZERO;
        let mut weight = portable32::Fe::ONE;
        let mut two51 = [0u8; 32];
        two51[6] = 8; // 2^51
        let two51 = portable32::Fe::from_bytes(&two51);
        for l in top {
            let mut b = [0u8; 32];
            b[..8].copy_from_slice(&l.to_le_bytes());
            want = want.add(&portable32::Fe::from_bytes(&b).mul(&weight));
            weight = weight.mul(&two51);
        }
        assert_eq!(fe.to_bytes(), want.to_bytes());
    }

    #[test]
    fn ladder_matches_portable32() {
        let Some((adx, ifma)) = tokens() else { return };
        for seed in 0..300 {
            let mut k = bytes(seed);
            k[0] &= 0xf8;
            k[31] = (k[31] & 0x7f) | 0x40;
            let mut u = bytes(seed + 1_000_003);
            match seed {
                0 => u = [0xff; 32],
                1 => u = [0; 32],
                2 => {
                    u = [0xff; 32];
                    u[0] = 0xec; // p − 1
                    u[31] = 0x7f;
                }
                _ => {}
            }
            let want = super::super::montgomery::ladder::<portable32::Fe>(&k, &u);
            assert_eq!(ladder(adx, ifma, &k, &u), want, "seed {seed}");
        }
    }

    #[test]
    fn mul_base_matches_portable32() {
        let Some((adx, ifma)) = tokens() else { return };
        for seed in 0..200 {
            let mut k = bytes(seed + 7);
            k[31] &= 0x7f;
            match seed {
                0 => k = [0; 32],
                1 => {
                    k = [0xff; 32];
                    k[31] = 0x7f;
                }
                2 => k = [0x88; 32], // every digit −8 after recoding
                _ => {}
            }
            let want = Point::<portable32::Fe>::mul_base(&k).encode();
            assert_eq!(mul_base(adx, ifma, &k).encode(), want, "seed {seed}");
        }
    }

    /// The lane-parallel double-scalar multiplication against the generic one of `x86_adx`,
    /// on random points and scalars, zero scalars, the largest NAF inputs and the identity.
    #[test]
    fn double_mul_base_matches_x86_adx() {
        let Some((adx, ifma)) = tokens() else { return };
        let mut top = [0xff; 32];
        top[31] = 0x7f;
        for seed in 0..200 {
            let mut k = bytes(seed + 11);
            k[31] &= 0x7f;
            let p = match seed {
                0 => Point::IDENTITY,
                _ => mul_base(adx, ifma, &k).double(),
            };
            let (mut a, mut b) = (bytes(seed + 5_000), bytes(seed + 9_000));
            a[31] &= 0x1f;
            b[31] &= 0x1f;
            match seed {
                1 => a = [0; 32],
                2 => b = [0; 32],
                3 => (a, b) = ([0; 32], [0; 32]),
                4 => (a, b) = (top, top),
                5 => (a, b) = ([0x55; 32], [0xaa; 32]),
                _ => {}
            }
            if seed == 5 {
                a[31] = 0x15;
                b[31] = 0x2a;
            }
            let want = p.double_mul_base_vartime(&a, &b).encode();
            let got = double_mul_base_vartime(adx, ifma, &p, &a, &b);
            assert_eq!(got.encode(), want, "seed {seed}");
            assert_eq!(got.encode_vartime(), want, "seed {seed}");
            // The extended coordinates are consistent: X·Y = Z·T.
            let [x, y, z, t] = got.extended();
            assert_eq!(x.mul(&y).to_bytes(), z.mul(&t).to_bytes(), "seed {seed}");
        }
    }

    /// The squaring against the multiplication, on random limbs up to the 2^52 − 1 they may
    /// reach, lane by lane.
    #[test]
    fn square_matches_mul() {
        if tokens().is_none() {
            return;
        }
        for seed in 0..500u64 {
            let l: [[u64; 4]; 5] = core::array::from_fn(|i| {
                core::array::from_fn(|lane| {
                    let b = bytes(seed * 20 + (i * 4 + lane) as u64);
                    let v = u64::from_le_bytes(b[..8].try_into().unwrap());
                    if seed == 0 { (1 << 52) - 1 } else { v >> 12 }
                })
            });
            // SAFETY: the tokens above prove AVX2, AVX-512 F/VL and IFMA are present.
            let (sq, m) = unsafe {
                let a = Fe4(l.map(|x| {
                    _mm256_set_epi64x(
                        x[3].cast_signed(),
                        x[2].cast_signed(),
                        x[1].cast_signed(),
                        x[0].cast_signed(),
                    )
                }));
                let (sq, m) = (square(&a), mul(&a, &a));
                (
                    [lane::<0>(&sq), lane::<1>(&sq), lane::<2>(&sq), lane::<3>(&sq)],
                    [lane::<0>(&m), lane::<1>(&m), lane::<2>(&m), lane::<3>(&m)],
                )
            };
            assert_eq!(sq, m, "seed {seed}");
        }
    }
}
