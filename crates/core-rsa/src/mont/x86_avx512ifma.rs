//! Constant-time modular exponentiation on 52-bit limbs in ZMM registers with AVX-512 IFMA
//! (`vpmadd52luq`/`vpmadd52huq`), for moduli of 7 to 32 64-bit limbs (2 to 5 chunks of eight
//! 52-bit limbs: the 1024-, 1536- and 2048-bit primes of RSA-2048/3072/4096, and `modexp`
//! from 512 to 2048 bits), and public exponents (no table) on up to 64 limbs (10 chunks: the
//! RSA-3072/4096 verification). Single multiplications, and exponentiations of other sizes,
//! go to `x86_adx`.
//!
//! The multiplication is word-by-word "almost Montgomery" (Gueron and Krasnov's AMM): with
//! `R = 2^(52·k)` and `n < R/4`, inputs below `2n` give a result below `2n`, so there is no
//! conditional subtraction inside the exponentiation; each limb's 64-bit lane collects the
//! low and high halves of the 52×52-bit products without carrying, and carries are
//! propagated once per multiplication, in the vector unit. Numbers are normalised (below `n`)
//! only when they leave for the 64-bit representation at the end. Two exponentiations (the
//! halves of an RSA-CRT private operation) can run in one loop, whose independent
//! dependency chains fill each other's latency.

use super::{Engine, Mont, PowJob, X86Adx, ops::bit};
use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_alignr_epi64, _mm512_and_si512, _mm512_broadcastq_epi64,
    _mm512_castsi512_si128, _mm512_cmpeq_epi64_mask, _mm512_cmpeq_epu64_mask,
    _mm512_cmpgt_epu64_mask, _mm512_loadu_si512, _mm512_madd52hi_epu64, _mm512_madd52lo_epu64,
    _mm512_mask_add_epi64, _mm512_mask_mov_epi64, _mm512_maskz_srli_epi64, _mm512_set1_epi64,
    _mm512_setzero_si512, _mm512_srli_epi64,
};
use zeroize::Zeroize;

/// The IFMA engine; its tokens prove AVX-512 F/VL/IFMA (the exponentiation) and BMI2/ADX (the
/// single multiplications it hands to `x86_adx`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct X86Avx512Ifma(pub(crate) core_cpu::Avx512Ifma, pub(crate) core_cpu::Adx);

impl Engine for X86Avx512Ifma {
    type W = u64;
    const SQR_SCRATCH: bool = true;

    #[inline]
    fn mul(self, r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64) {
        X86Adx(self.1).mul(r, a, b, n, n0);
    }

    #[inline]
    fn sqr(self, r: &mut [u64], a: &[u64], n: &[u64], n0: u64, scratch: &mut [u64]) {
        X86Adx(self.1).sqr(r, a, n, n0, scratch);
    }

    fn pow_ct_jobs(self, jobs: &mut [PowJob<'_, u64>]) -> bool {
        match jobs {
            [a] => pow_sized::<1>(self, [a]),
            [a, b] => pow_sized::<2>(self, [a, b]),
            _ => false,
        }
    }

    fn pow_vartime_job(self, job: &mut PowJob<'_, u64>) -> bool {
        pow_public(self, job)
    }

    #[cfg(not(target_os = "none"))]
    fn pow_e_job(
        self,
        m: &Mont<u64>,
        out: &mut [u64],
        x: &[u64],
        exp: u64,
        mont_out: bool,
    ) -> bool {
        pow_e_public(self, m, out, x, exp, mont_out)
    }
}

/// The low 52 bits.
const MASK52: u64 = (1 << 52) - 1;
/// The most chunks of eight limbs (5·8·52 = 2080 bits) of the table-driven exponentiation.
const MAX_CHUNKS: usize = 5;
/// The most chunks of the public-exponent one, which keeps no table (10·8·52 = 4160 bits:
/// the RSA-3072 and RSA-4096 moduli of a verification).
const MAX_PUBLIC_CHUNKS: usize = 10;

/// A number of `C` chunks of eight 52-bit limbs, least significant first.
type Num<const C: usize> = [__m512i; C];

/// For a modulus of `len` 64-bit limbs: the limb count `k` (rows of a multiplication, with
/// `52·k ≥ 64·len + 2` so that `n < R/4` for `R = 2^(52·k)`), the chunks that hold it, and the
/// power `j` of two with `2^(64·len + j) = R²/2^(64·len)`, which turns a 64-bit Montgomery
/// form into the 52-bit one with one multiplication; `None` when the size is not covered or
/// `2^j` is not below `n`. (A 1024-bit modulus has 20 limbs in 3 chunks: the last four lanes
/// stay zero in every operand, and only 20 rows are run.)
fn shape(len: usize, bits: usize, max_chunks: usize) -> Option<Shape> {
    let rows = (64 * len + 2).div_ceil(52);
    let chunks = rows.div_ceil(8);
    let j = (104 * rows).checked_sub(128 * len)?;
    ((2..=max_chunks).contains(&chunks) && j + 1 < bits).then_some(Shape { rows, chunks, j })
}

/// What [`shape`] finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    rows: usize,
    chunks: usize,
    j: usize,
}

/// The 64-bit constants `[K, D]` of a modulus `m` with [`Shape`]'s `j`:
/// `K = R²/2^(64·len)` and `D = 2^(64·len)`, both mod `m`, exact.
type Consts = [[u64; crate::MAX_BITS / 64]; 2];

/// [`Consts`] for `m` and `j`.
fn consts(e: X86Avx512Ifma, m: &Mont<u64>, j: usize) -> Consts {
    let len = m.len();
    let mut out = [[0u64; crate::MAX_BITS / 64]; 2];
    let mut pow2 = [0u64; crate::MAX_BITS / 64];
    pow2[j / 64] = 1 << (j % 64);
    let [k, d] = &mut out;
    m.mul(e, &mut k[..len], m.rr(), &pow2[..len]);
    r64(e, m, &mut d[..len]);
    out
}

/// `d = 2^(64·len) mod m`, exact.
fn r64(e: X86Avx512Ifma, m: &Mont<u64>, d: &mut [u64]) {
    if m.bits() == 64 * m.len() {
        // m > 2^(64·len)/2 (the RSA primes and moduli): 2^(64·len) − m, a negation.
        let mut borrow = false;
        for (x, &mj) in d.iter_mut().zip(m.n()) {
            let (v, b1) = 0u64.overflowing_sub(mj);
            let (v, b2) = v.overflowing_sub(u64::from(borrow));
            (*x, borrow) = (v, b1 | b2);
        }
    } else {
        // The Montgomery form of 1: R²·1/R.
        let mut one = [0u64; crate::MAX_BITS / 64];
        one[0] = 1;
        m.mul(e, d, m.rr(), &one[..d.len()]);
    }
}

/// An exponentiation by a public exponent (the RSA `e` of a verification, of the blinding
/// and of the fault check, on moduli up to 4160 bits): left-to-right square-and-multiply with
/// no table, branching on the exponent's bits only; `false` if the size is not one this file
/// handles or the exponent is zero.
fn pow_public(e: X86Avx512Ifma, job: &mut PowJob<'_, u64>) -> bool {
    let len = job.m.len();
    let Some(sh) = shape(len, job.m.bits(), MAX_PUBLIC_CHUNKS) else {
        return false;
    };
    let Some(top) = (0..job.bits).rev().find(|&i| bit(job.exp, i) == 1) else {
        return false;
    };
    let mut consts = consts(e, job.m, sh.j);
    let [k, d] = &consts;
    let mut public = Public {
        m: job.m,
        out: &mut *job.out,
        base: job.base,
        entry: Entry::Mont(&k[..len]),
        exp: job.exp,
        top,
        exit: &d[..len],
    };
    run_public(&mut public, sh);
    consts.zeroize();
    true
}

/// `out = x^exp` for `x < m` in normal form and a public `exp`, in normal form or (with
/// `mont_out`) in the 64-bit Montgomery form, as [`pow_public`] but with no conversion on
/// `x86_adx`: `x` enters by a product with `R² mod m`, itself two products from the 64-bit
/// `R² mod m` the modulus keeps, and leaves by a product with 1 (or with `2^(64·len) mod m`).
/// `false` if the size is not one this file handles or the exponent is zero.
pub(super) fn pow_e_public(
    e: X86Avx512Ifma,
    m: &Mont<u64>,
    out: &mut [u64],
    x: &[u64],
    exp: u64,
    mont_out: bool,
) -> bool {
    let len = m.len();
    let Some(sh) = shape(len, m.bits(), MAX_PUBLIC_CHUNKS) else {
        return false;
    };
    // `2^(2j)` must be below `m` to be a product's operand.
    if exp == 0 || 2 * sh.j + 1 >= m.bits() {
        return false;
    }
    let mut exit = [0u64; crate::MAX_BITS / 64];
    if mont_out {
        r64(e, m, &mut exit[..len]);
    } else {
        exit[0] = 1;
    }
    let mut public = Public {
        m,
        out,
        base: x,
        entry: Entry::Normal(2 * sh.j),
        exp: &[exp],
        top: 63 - exp.leading_zeros() as usize,
        exit: &exit[..len],
    };
    run_public(&mut public, sh);
    exit.zeroize();
    true
}

/// One exponentiation for [`pow_public_ifma`]: `out = base^exp·exit/R`, from `base` brought
/// into the 52-bit Montgomery form by `entry`, with `top` the exponent's highest set bit.
struct Public<'a> {
    m: &'a Mont<u64>,
    out: &'a mut [u64],
    base: &'a [u64],
    entry: Entry<'a>,
    exp: &'a [u64],
    top: usize,
    exit: &'a [u64],
}

/// How the base enters the 52-bit Montgomery form.
enum Entry<'a> {
    /// From the 64-bit form, by a product with [`Consts`]'s `K`.
    Mont(&'a [u64]),
    /// From normal form, by a product with `R² = RR·RR/R·2^(2j)/R mod m` (`RR` the 64-bit
    /// form's, `R²/2^(128·len) = 2^j`); the number is `2j`.
    Normal(usize),
}

/// Runs `job` on the instantiation for `sh`.
fn run_public(job: &mut Public<'_>, sh: Shape) {
    let Shape { rows, chunks, .. } = sh;
    // SAFETY: callers hold an `X86Avx512Ifma`, whose `Avx512Ifma` token proves AVX-512 F, VL
    // and IFMA were detected.
    unsafe {
        match chunks {
            3 if rows == 20 => pow_public_ifma::<3, 20>(job, rows),
            4 if rows == 30 => pow_public_ifma::<4, 30>(job, rows),
            5 if rows == 40 => pow_public_ifma::<5, 40>(job, rows),
            2 => pow_public_ifma::<2, 0>(job, rows),
            3 => pow_public_ifma::<3, 0>(job, rows),
            4 => pow_public_ifma::<4, 0>(job, rows),
            5 => pow_public_ifma::<5, 0>(job, rows),
            6 => pow_public_ifma::<6, 0>(job, rows),
            7 => pow_public_ifma::<7, 0>(job, rows),
            8 => pow_public_ifma::<8, 0>(job, rows),
            9 => pow_public_ifma::<9, 0>(job, rows),
            _ => pow_public_ifma::<10, 0>(job, rows),
        }
    }
}

/// [`pow_public`]'s and [`pow_e_public`]'s loop.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn pow_public_ifma<const C: usize, const ROWS: usize>(job: &mut Public<'_>, rows: usize) {
    let m = job.m;
    let len = m.len();
    let n: [Num<C>; 1] = [to52(m.n())];
    let n0 = [splat(m.n0 & MASK52)];
    let rows = if ROWS > 0 { ROWS } else { rows.min(8 * C) };
    let mut k = match job.entry {
        Entry::Mont(k) => to52::<C>(k),
        Entry::Normal(two_j) => {
            let mut rr = to52::<C>(&m.rr()[..len]);
            let mut p = [0u64; 4];
            p[two_j / 64] = 1 << (two_j % 64);
            let p = to52::<C>(&p);
            let [mut t] = amm::<C, 1, ROWS>([&rr], [&rr], &n, &n0, rows);
            let [k] = amm::<C, 1, ROWS>([&t], [&p], &n, &n0, rows);
            // A private key's prime makes these secret (the fault check).
            wipe(&mut rr);
            wipe(&mut t);
            k
        }
    };
    let mut d = to52::<C>(job.exit);
    let mut base = to52::<C>(&job.base[..len]);
    // b·R; then b^e·R; out: b^e·R·exit/R, below 2n.
    let [mut b] = amm::<C, 1, ROWS>([&base], [&k], &n, &n0, rows);
    let mut acc = b;
    for i in (0..job.top).rev() {
        [acc] = amm::<C, 1, ROWS>([&acc], [&acc], &n, &n0, rows);
        if bit(job.exp, i) == 1 {
            [acc] = amm::<C, 1, ROWS>([&acc], [&b], &n, &n0, rows);
        }
    }
    let [mut res] = amm::<C, 1, ROWS>([&acc], [&d], &n, &n0, rows);
    let out = &mut job.out[..len];
    let hi = from52(out, &res);
    super::ops::reduce_once(out, hi, m.n());
    wipe(&mut acc);
    wipe(&mut res);
    wipe(&mut b);
    wipe(&mut base);
    wipe(&mut k);
    wipe(&mut d);
}

/// Runs `P` exponentiations whose moduli have one length; `false` if that length is not one
/// this file handles.
fn pow_sized<const P: usize>(e: X86Avx512Ifma, jobs: [&mut PowJob<'_, u64>; P]) -> bool {
    let len = jobs[0].m.len();
    if jobs.iter().any(|j| j.m.len() != len) {
        return false;
    }
    let mut shapes = [Shape { rows: 0, chunks: 0, j: 0 }; P];
    for (p, job) in jobs.iter().enumerate() {
        match shape(len, job.m.bits(), MAX_CHUNKS) {
            Some(sh) => shapes[p] = sh,
            None => return false,
        }
    }
    // Rows and chunks depend on the length only.
    let Shape { rows, chunks, .. } = shapes[0];
    let js = shapes.map(|sh| sh.j);
    let mut consts: [Consts; P] = core::array::from_fn(|p| consts(e, jobs[p].m, js[p]));
    // SAFETY: the `Avx512Ifma` token proves AVX-512 F, VL and IFMA were detected.
    unsafe {
        match chunks {
            // The RSA sizes with their row counts known to the compiler, the others not.
            3 if rows == 20 => pow_ifma::<3, P, 20>(jobs, &consts, rows),
            4 if rows == 30 => pow_ifma::<4, P, 30>(jobs, &consts, rows),
            5 if rows == 40 => pow_ifma::<5, P, 40>(jobs, &consts, rows),
            2 => pow_ifma::<2, P, 0>(jobs, &consts, rows),
            3 => pow_ifma::<3, P, 0>(jobs, &consts, rows),
            4 => pow_ifma::<4, P, 0>(jobs, &consts, rows),
            _ => pow_ifma::<5, P, 0>(jobs, &consts, rows),
        }
    }
    // K and D are functions of n, which may be a secret prime.
    consts.zeroize();
    true
}

/// `x` in every lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn splat(x: u64) -> __m512i {
    _mm512_set1_epi64(x.cast_signed())
}

/// Limb `i` of `x`.
#[inline(always)]
fn limb<const C: usize>(x: &Num<C>, i: usize) -> u64 {
    assert!(i < 8 * C);
    // SAFETY: `x` is `C` vectors of eight u64 lanes, plain data laid out contiguously, and
    // `i < 8·C` was just checked.
    unsafe { x.as_ptr().cast::<u64>().add(i).read() }
}

/// The little-endian 64-bit `src` in 52-bit limbs.
#[inline]
#[target_feature(enable = "avx512f")]
fn to52<const C: usize>(src: &[u64]) -> Num<C> {
    let mut buf = [0u64; 8 * MAX_PUBLIC_CHUNKS];
    for (i, d) in buf.iter_mut().enumerate().take(8 * C) {
        let (w, s) = (52 * i / 64, 52 * i % 64);
        let lo = src.get(w).map_or(0, |&x| x >> s);
        let hi = if s > 12 { src.get(w + 1).map_or(0, |&x| x << (64 - s)) } else { 0 };
        *d = (lo | hi) & MASK52;
    }
    let mut out = [_mm512_setzero_si512(); C];
    for (c, v) in out.iter_mut().enumerate() {
        // SAFETY: `buf` has `8·MAX_PUBLIC_CHUNKS ≥ 8·C` limbs; `loadu` needs no alignment.
        *v = unsafe { _mm512_loadu_si512(buf.as_ptr().add(8 * c).cast()) };
    }
    buf.zeroize();
    out
}

/// The normalised `x` (limbs below 2^52) as little-endian 64-bit limbs in `dst`, and the
/// bit just above them.
#[inline]
#[target_feature(enable = "avx512f")]
fn from52<const C: usize>(dst: &mut [u64], x: &Num<C>) -> u64 {
    dst.fill(0);
    let l = dst.len();
    let mut top = 0;
    for i in 0..8 * C {
        let v = limb(x, i);
        let (w, s) = (52 * i / 64, 52 * i % 64);
        for (k, part) in [(w, v << s), (w + 1, if s > 12 { v >> (64 - s) } else { 0 })] {
            match dst.get_mut(k) {
                Some(d) => *d |= part,
                None if k == l => top |= part & 1,
                None => {}
            }
        }
    }
    top
}

/// Brings every lane below 2^52 by moving carries up, in constant time. One shift-and-add
/// pass leaves lanes below 2^52 + 2^12; what carries after that carries exactly one, and
/// only through lanes that are all ones, so the lanes receiving it come from one addition
/// on bit masks (generate `g`, propagate `p`: `((g << 1) + p) ^ p`), as in a carry-lookahead
/// adder. The value must fit in the `C` chunks (at most 16).
#[inline]
#[target_feature(enable = "avx512f")]
fn normalise<const C: usize>(x: &mut Num<C>) {
    let mask = splat(MASK52);
    let zero = _mm512_setzero_si512();
    let mut carry = [zero; C];
    for c in 0..C {
        carry[c] = _mm512_srli_epi64::<52>(x[c]);
        x[c] = _mm512_and_si512(x[c], mask);
    }
    for c in 0..C {
        let below = if c == 0 { zero } else { carry[c - 1] };
        x[c] = _mm512_add_epi64(x[c], _mm512_alignr_epi64::<7>(carry[c], below));
    }
    // One bit a lane: 64 bits hold up to eight chunks, 128 bits the public path's ten.
    let (mut g, mut p) = (0u128, 0u128);
    for (c, v) in x.iter().enumerate() {
        g |= u128::from(_mm512_cmpgt_epu64_mask(*v, mask)) << (8 * c);
        p |= u128::from(_mm512_cmpeq_epu64_mask(*v, mask)) << (8 * c);
    }
    let inc = if C <= 8 {
        let (g, p) = (g as u64, p as u64);
        u128::from(((g << 1).wrapping_add(p)) ^ p)
    } else {
        ((g << 1).wrapping_add(p)) ^ p
    };
    let one = _mm512_set1_epi64(1);
    for (c, v) in x.iter_mut().enumerate() {
        *v = _mm512_mask_add_epi64(*v, (inc >> (8 * c)) as u8, *v, one);
        *v = _mm512_and_si512(*v, mask);
    }
}

/// `P` almost-Montgomery multiplications side by side: `a[p]·b[p]/R mod n[p]`, below `2n`
/// for inputs below `2n`, normalised. Row `i` adds `m·n` (low halves) to an accumulator that
/// already holds `a·b[i]`'s low halves, where `m = lane0·n0 mod 2^52` makes lane 0 divisible
/// by 2^52; then the accumulator moves down one lane, lane 0's carry going into the new lane
/// 0, and a second vector is added: the high halves of `a·b[i]` and `m·n` (which belong one
/// lane up, that is where the shifted accumulator has them) and the low halves of the next
/// row's `a·b[i+1]`. Everything in that vector but `m·n` is independent of `m`, so it is
/// computed off the chain `lane0 → m → m·n → shift` that bounds each row's latency.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn amm<const C: usize, const P: usize, const ROWS: usize>(
    a: [&Num<C>; P],
    b: [&Num<C>; P],
    n: &[Num<C>; P],
    n0: &[__m512i; P],
    rows: usize,
) -> [Num<C>; P] {
    let zero = _mm512_setzero_si512();
    let mut acc = [[zero; C]; P];
    for p in 0..P {
        let b0 = splat(limb(b[p], 0));
        for c in 0..C {
            acc[p][c] = _mm512_madd52lo_epu64(zero, a[p][c], b0);
        }
    }
    let rows = if ROWS > 0 { ROWS } else { rows.min(8 * C) };
    for i in 0..rows {
        for p in 0..P {
            let x = &mut acc[p];
            let bi = splat(limb(b[p], i));
            let next = if i + 1 < rows { limb(b[p], i + 1) } else { 0 };
            let bn = splat(next);
            let mut t = [zero; C];
            for c in 0..C {
                t[c] = _mm512_madd52hi_epu64(zero, a[p][c], bi);
                t[c] = _mm512_madd52lo_epu64(t[c], a[p][c], bn);
            }
            let m = _mm512_madd52lo_epu64(zero, x[0], n0[p]);
            let m = _mm512_broadcastq_epi64(_mm512_castsi512_si128(m));
            for c in 0..C {
                x[c] = _mm512_madd52lo_epu64(x[c], n[p][c], m);
                t[c] = _mm512_madd52hi_epu64(t[c], n[p][c], m);
            }
            t[0] = _mm512_add_epi64(t[0], _mm512_maskz_srli_epi64::<52>(1, x[0]));
            for c in 0..C - 1 {
                x[c] = _mm512_add_epi64(_mm512_alignr_epi64::<1>(x[c + 1], x[c]), t[c]);
            }
            x[C - 1] = _mm512_add_epi64(_mm512_alignr_epi64::<1>(zero, x[C - 1]), t[C - 1]);
        }
    }
    for x in &mut acc {
        normalise(x);
    }
    acc
}

/// `r[p] = a[p]²/R mod n[p]`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn asqr<const C: usize, const P: usize, const ROWS: usize>(
    a: &[Num<C>; P],
    n: &[Num<C>; P],
    n0: &[__m512i; P],
    rows: usize,
) -> [Num<C>; P] {
    let refs: [&Num<C>; P] = core::array::from_fn(|p| &a[p]);
    amm::<C, P, ROWS>(refs, refs, n, n0, rows)
}

/// The table entry `idx` (secret) of exponentiation `p`, reading every entry with a masked
/// move that takes only the wanted one.
#[inline]
#[target_feature(enable = "avx512f")]
fn select<const C: usize, const P: usize>(table: &[[Num<C>; P]], p: usize, idx: u64) -> Num<C> {
    let want = splat(idx);
    let mut r = [_mm512_setzero_si512(); C];
    for (e, entry) in table.iter().enumerate() {
        let k = _mm512_cmpeq_epi64_mask(splat(e as u64), want);
        for c in 0..C {
            r[c] = _mm512_mask_mov_epi64(r[c], k, entry[p][c]);
        }
    }
    r
}

/// The window width.
const WINDOW: usize = 5;

/// The exponentiations: convert in, fill the tables, square-and-multiply over fixed windows
/// with every table entry read each time, convert out.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn pow_ifma<const C: usize, const P: usize, const ROWS: usize>(
    mut jobs: [&mut PowJob<'_, u64>; P],
    consts: &[[[u64; crate::MAX_BITS / 64]; 2]; P],
    rows: usize,
) {
    let len = jobs[0].m.len();
    let zero = _mm512_setzero_si512();
    let mut n: [Num<C>; P] = core::array::from_fn(|p| to52(jobs[p].m.n()));
    let n0: [__m512i; P] = core::array::from_fn(|p| splat(jobs[p].m.n0 & MASK52));
    let rows = if ROWS > 0 { ROWS } else { rows.min(8 * C) };
    let mut k: [Num<C>; P] = core::array::from_fn(|p| to52(&consts[p][0][..len]));
    let mut d: [Num<C>; P] = core::array::from_fn(|p| to52(&consts[p][1][..len]));
    let mut base: [Num<C>; P] = core::array::from_fn(|p| to52(&jobs[p].base[..len]));
    let kr: [&Num<C>; P] = core::array::from_fn(|p| &k[p]);
    let mut table = [[[zero; C]; P]; 1 << WINDOW];
    // table[0] = R (K·D/R), table[1] = b·R (b·2^(64·len)·K/R), then powers.
    table[0] = amm::<C, P, ROWS>(kr, core::array::from_fn(|p| &d[p]), &n, &n0, rows);
    table[1] = amm::<C, P, ROWS>(core::array::from_fn(|p| &base[p]), kr, &n, &n0, rows);
    for i in 2..1 << WINDOW {
        table[i] = if i % 2 == 0 {
            asqr::<C, P, ROWS>(&table[i / 2], &n, &n0, rows)
        } else {
            amm::<C, P, ROWS>(
                core::array::from_fn(|p| &table[i - 1][p]),
                core::array::from_fn(|p| &table[1][p]),
                &n,
                &n0,
                rows,
            )
        };
    }
    let bits = jobs.iter().map(|j| j.bits).max().unwrap_or(0);
    let windows = bits.div_ceil(WINDOW).max(1);
    let digit = |exp: &[u64], w: usize| -> u64 {
        (0..WINDOW).fold(0, |acc, j| acc | (bit(exp, w * WINDOW + j) << j))
    };
    let mut acc: [Num<C>; P] =
        core::array::from_fn(|p| select(&table, p, digit(jobs[p].exp, windows - 1)));
    for w in (0..windows - 1).rev() {
        for _ in 0..WINDOW {
            acc = asqr::<C, P, ROWS>(&acc, &n, &n0, rows);
        }
        let sel: [Num<C>; P] = core::array::from_fn(|p| select(&table, p, digit(jobs[p].exp, w)));
        acc = amm::<C, P, ROWS>(
            core::array::from_fn(|p| &acc[p]),
            core::array::from_fn(|p| &sel[p]),
            &n,
            &n0,
            rows,
        );
    }
    // Out: b^e·R·D/R = b^e·2^(64·len), below 2n; one subtraction brings it below n.
    let mut res = amm::<C, P, ROWS>(
        core::array::from_fn(|p| &acc[p]),
        core::array::from_fn(|p| &d[p]),
        &n,
        &n0,
        rows,
    );
    for (p, job) in jobs.iter_mut().enumerate() {
        let out = &mut job.out[..len];
        let top = from52(out, &res[p]);
        super::ops::reduce_once(out, top, job.m.n());
    }
    // Wipe the secrets kept on the stack.
    wipe(&mut table);
    wipe(&mut acc);
    wipe(&mut res);
    wipe(&mut base);
    wipe(&mut n);
    wipe(&mut k);
    wipe(&mut d);
}

/// Overwrites `x` (vectors only) with zeros in a way the compiler keeps.
#[inline]
fn wipe<T: Copy>(x: &mut T) {
    // SAFETY: `T` is made of `__m512i` vectors only (plain data, any bit pattern valid, with
    // the 64-byte alignment of u64's 8), so its bytes can be viewed as `size_of::<T>() / 8`
    // u64s, which `zeroize` overwrites with volatile writes.
    let words = unsafe {
        core::slice::from_raw_parts_mut(core::ptr::from_mut(x).cast::<u64>(), size_of::<T>() / 8)
    };
    words.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_cover_rsa_halves() {
        let m = MAX_CHUNKS;
        assert_eq!(shape(16, 1024, m), Some(Shape { rows: 20, chunks: 3, j: 32 }));
        assert_eq!(shape(24, 1536, m), Some(Shape { rows: 30, chunks: 4, j: 48 }));
        assert_eq!(shape(32, 2048, m), Some(Shape { rows: 40, chunks: 5, j: 64 }));
        assert_eq!(shape(8, 512, m), Some(Shape { rows: 10, chunks: 2, j: 16 }));
        // 4096 bits: too many chunks for the table; 2^j not below a short n.
        assert_eq!(shape(64, 4096, m), None);
        assert_eq!(shape(8, 16, m), None);
        // The public exponent's whole RSA moduli.
        let m = MAX_PUBLIC_CHUNKS;
        assert_eq!(shape(48, 3072, m), Some(Shape { rows: 60, chunks: 8, j: 96 }));
        assert_eq!(shape(64, 4096, m), Some(Shape { rows: 79, chunks: 10, j: 24 }));
        assert_eq!(shape(65, 4160, m), None);
    }

    /// The conversions and the carry propagation round-trip awkward values.
    #[test]
    fn conversions_and_normalisation() {
        let Some(_) = core_cpu::Avx512Ifma::get() else {
            std::println!("no AVX-512 IFMA on this CPU: x86_avx512ifma not checked");
            return;
        };
        let src: std::vec::Vec<u64> =
            (0..16u64).map(|i| u64::MAX - i * 0x0123_4567_89ab_cdef).collect();
        // SAFETY: the token above proves AVX-512 F.
        unsafe {
            let x = to52::<3>(&src);
            let mut back = [0u64; 16];
            assert_eq!(from52(&mut back, &x), 0);
            assert_eq!(back.as_slice(), src.as_slice());
            // All-ones limbs below the top one, plus 1: the carry ripples through all of
            // them. Then a lane far above 52 bits.
            let mut y = [splat(MASK52); 3];
            y[2] = _mm512_mask_mov_epi64(y[2], 0x80, _mm512_setzero_si512());
            y[0] = _mm512_mask_add_epi64(y[0], 1, y[0], _mm512_set1_epi64(1));
            normalise(&mut y);
            for i in 0..24 {
                assert_eq!(limb(&y, i), u64::from(i == 23), "lane {i}");
            }
            let mut z = [_mm512_setzero_si512(); 3];
            z[1] = _mm512_mask_mov_epi64(z[1], 0x80, _mm512_set1_epi64((1 << 62) + 5));
            normalise(&mut z);
            for i in 0..24 {
                let want = match i {
                    15 => 5,
                    16 => 1 << 10,
                    _ => 0,
                };
                assert_eq!(limb(&z, i), want, "lane {i}");
            }
        }
    }

    /// A xorshift stream: test inputs without a dependency.
    fn stream(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed | 1;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// Single and paired exponentiations, and public-exponent ones, against `x86_adx`'s
    /// generic ones, on random moduli of
    /// every covered size: full-length ones (top bit set, where `2n` overflows the 64-bit
    /// limbs), an all-ones one (the largest `n` for its length), shorter ones, pairs of
    /// different bit lengths, and full-length secret exponents, short ones and zero.
    #[test]
    fn matches_x86_adx() {
        let (Some(ifma), Some(adx)) = (core_cpu::Avx512Ifma::get(), core_cpu::Adx::get()) else {
            std::println!("no AVX-512 IFMA on this CPU: x86_avx512ifma not checked");
            return;
        };
        let (fast, slow) = (X86Avx512Ifma(ifma, adx), X86Adx(adx));
        let mut rnd = stream(0x1f2e_3d4c_5b6a_7988);
        let mut covered = 0;
        let sizes = [1024usize, 1536, 2048, 1023, 1536, 2047, 1000, 832, 1600];
        for (case, bits) in sizes.iter().enumerate() {
            let modulus = |rnd: &mut dyn FnMut() -> u64, bits: usize, ones: bool, len: usize| {
                let bytes = bits.div_ceil(8);
                let mut n: std::vec::Vec<u8> = (0..bytes).map(|_| rnd() as u8).collect();
                if ones {
                    n.fill(0xff);
                }
                n[0] &= 0xff >> (8 * bytes - bits);
                n[0] |= 0x80 >> (8 * bytes - bits);
                n[bytes - 1] |= 1;
                Mont::<u64>::new_padded(slow, &n, len).unwrap()
            };
            let p = modulus(&mut rnd, *bits, case == 1, 0);
            // q is up to two bits shorter, on p's limb count (as the primes of a key are).
            let q = modulus(&mut rnd, bits - case % 3, false, p.len());
            let l = p.len();
            covered += usize::from(shape(l, q.bits(), MAX_CHUNKS).is_some());
            for exp_bits in [*bits, 17, 1, 0] {
                let mut exp = [[0u64; 64]; 2];
                for e in &mut exp {
                    for (i, d) in e.iter_mut().enumerate().take(exp_bits.div_ceil(64)) {
                        *d = rnd();
                        if 64 * (i + 1) > exp_bits {
                            *d &= u64::MAX >> (64 * (i + 1) - exp_bits);
                        }
                    }
                }
                let mut base = [[0u64; 64]; 2];
                for (b, m) in base.iter_mut().zip([&p, &q]) {
                    let plain: std::vec::Vec<u64> = (0..l).map(|_| rnd()).collect();
                    // Any value below R; in Montgomery form it is below n.
                    m.enter_mont(slow, &mut b[..l], &plain);
                }
                let mut want = [[0u64; 64]; 2];
                let mut got = [[0u64; 64]; 2];
                let mut pair = [[0u64; 64]; 2];
                for (k, m) in [&p, &q].into_iter().enumerate() {
                    m.pow_ct(slow, &mut want[k], &base[k][..l], &exp[k], exp_bits);
                    m.pow_ct(fast, &mut got[k], &base[k][..l], &exp[k], exp_bits);
                }
                let [o1, o2] = &mut pair;
                Mont::pow_ct_pair(
                    fast,
                    PowJob { m: &p, out: o1, base: &base[0][..l], exp: &exp[0], bits: exp_bits },
                    PowJob { m: &q, out: o2, base: &base[1][..l], exp: &exp[1], bits: exp_bits },
                );
                assert_eq!(got, want, "{bits} bits, exponent of {exp_bits}");
                // The public-exponent path, also with short exponents such as 65537.
                for (k, m) in [&p, &q].into_iter().enumerate() {
                    let (mut v_slow, mut v_fast) = ([0u64; 64], [0u64; 64]);
                    for ebits in [exp_bits, 17, 2] {
                        m.pow_vartime(slow, &mut v_slow, &base[k][..l], &exp[k], ebits);
                        m.pow_vartime(fast, &mut v_fast, &base[k][..l], &exp[k], ebits);
                        assert_eq!(v_fast, v_slow, "{bits} bits, public exponent of {ebits}");
                    }
                }
                assert_eq!(pair, want, "{bits} bits, exponent of {exp_bits}, paired");
            }
        }
        assert!(covered >= 6, "only {covered} sizes went through IFMA");
    }

    /// The public-exponent paths (from Montgomery form, up to the table's sizes and beyond;
    /// from normal form, to either form) agree with `x86_adx`, for exponents 65537, 3, long odd
    /// and even ones, on random moduli of 600 to 4096 bits and an all-ones one; 4160 bits
    /// (eleven chunks) stays on `x86_adx`.
    #[test]
    fn public_matches_x86_adx_to_4160_bits() {
        let (Some(ifma), Some(adx)) = (core_cpu::Avx512Ifma::get(), core_cpu::Adx::get()) else {
            std::println!("no AVX-512 IFMA on this CPU: x86_avx512ifma not checked");
            return;
        };
        let (fast, slow) = (X86Avx512Ifma(ifma, adx), X86Adx(adx));
        let mut rnd = stream(0x5a5a_0123_4567_89ab);
        let mut covered = 0;
        for (case, bits) in
            [3072usize, 4096, 4096, 3071, 2500, 3500, 4000, 4095, 2112, 4160, 2048, 1024, 600]
                .into_iter()
                .enumerate()
        {
            let bytes = bits.div_ceil(8);
            let mut n: std::vec::Vec<u8> = (0..bytes).map(|_| rnd() as u8).collect();
            if case == 2 {
                n.fill(0xff);
            }
            n[0] &= 0xff >> (8 * bytes - bits);
            n[0] |= 0x80 >> (8 * bytes - bits);
            n[bytes - 1] |= 1;
            let m = Mont::<u64>::new(slow, &n).unwrap();
            let l = m.len();
            covered += usize::from(shape(l, m.bits(), MAX_PUBLIC_CHUNKS).is_some());
            let plain: std::vec::Vec<u64> = (0..l).map(|_| rnd()).collect();
            let mut base = [0u64; 128];
            m.enter_mont(slow, &mut base[..l], &plain);
            let mut long = [0u64; 64];
            for d in &mut long {
                *d = rnd();
            }
            let mut even = long;
            long[0] |= 1;
            even[0] &= !1;
            let exps: [(&[u64], usize); 4] =
                [(&[65537], 17), (&[3], 2), (&long, bits), (&even, bits - 3)];
            for (exp, ebits) in exps {
                let (mut v_slow, mut v_fast) = ([0u64; 128], [0u64; 128]);
                m.pow_vartime(slow, &mut v_slow, &base[..l], exp, ebits);
                m.pow_vartime(fast, &mut v_fast, &base[..l], exp, ebits);
                assert_eq!(v_fast, v_slow, "{bits} bits, public exponent of {ebits} bits");
            }
            // From normal form (`base`, below n, taken as a plain number), both outputs.
            for exp in [65537, 3, u64::MAX, long[0]] {
                for mont_out in [false, true] {
                    let (mut v_slow, mut v_fast) = ([0u64; 128], [0u64; 128]);
                    m.pow_e_vartime(slow, &mut v_slow[..l], &base[..l], exp, mont_out);
                    let ran = pow_e_public(fast, &m, &mut v_fast[..l], &base[..l], exp, mont_out);
                    assert_eq!(ran, bits <= 4096, "{bits} bits: IFMA ran {ran}");
                    if !ran {
                        m.pow_e_vartime(fast, &mut v_fast[..l], &base[..l], exp, mont_out);
                    }
                    assert_eq!(v_fast, v_slow, "{bits} bits, e = {exp}, {mont_out}");
                }
            }
        }
        assert_eq!(covered, 12, "the sizes up to 4096 bits go through IFMA, 4160 does not");
    }
}
