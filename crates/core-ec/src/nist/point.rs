//! Points on a short-Weierstrass curve `y² = x³ − 3x + b` in projective coordinates, with the
//! complete addition formulas of Renes, Costello and Batina ("Complete addition formulas for
//! prime order elliptic curves", 2016, algorithms 4–6 for a = −3): one formula for every pair
//! of points, identity included, so scalar multiplication needs no exceptional-case branches.
//! Three scalar multiplications build on them: a constant-time signed fixed window for any
//! point, a constant-time comb over a precomputed table for the generator, and a variable-time
//! interleaved wNAF for `u₁·G + u₂·Q` in signature verification.

use super::{Field, MAX_LEN};
use crate::Error;
use subtle::{Choice, ConstantTimeEq};

/// A curve's constants, big-endian, and its generator table.
#[derive(Debug)]
pub(crate) struct Params {
    /// Bytes in a field element and in a scalar.
    pub(crate) len: usize,
    /// Bits in the group order `n`.
    pub(crate) qlen: usize,
    /// The group order.
    pub(crate) n: &'static [u8],
    /// The curve coefficient `b`.
    pub(crate) b: &'static [u8],
    /// The generator's affine coordinates.
    #[cfg_attr(not(test), expect(dead_code, reason = "the tables are built and checked from it"))]
    pub(crate) gx: &'static [u8],
    /// The generator's y-coordinate.
    #[cfg_attr(not(test), expect(dead_code, reason = "the tables are built and checked from it"))]
    pub(crate) gy: &'static [u8],
    /// The curve's named-curve OID, DER content bytes.
    pub(crate) oid: &'static [u8],
}

/// Signed 4-bit digits of a scalar per comb-table row: 4 (P-256's table 8.5 KiB, 12
/// doublings per base-point multiplication), or 16 with the `small-tables` feature for
/// flash-constrained targets (2.5 KiB, 60 doublings). Tables built into the 64-bit fields
/// (full or converted) follow it too.
pub(crate) const COMB_SPACING: usize = if cfg!(feature = "small-tables") { 16 } else { 4 };

/// The width of the public key's NAF in signature verification (`Curve::mul2_vartime`): 5,
/// a table of eight Jacobian points (768 bytes of stack for P-256 on 32-bit words), or 4 with
/// `small-tables`, four points, for RAM-constrained targets: on the Cortex-M0 that is 384
/// bytes off the deepest frame of a TLS handshake with a certificate (issue 26), for about
/// four more point additions per verification (8 more additions in the loop, 4 fewer to
/// build the table).
pub(crate) const VERIFY_Q_WIDTH: u32 = if cfg!(feature = "small-tables") { 4 } else { 5 };

/// Digits in the width-w NAF of a `len`-byte scalar, for any width (see [`wnaf`]).
pub(crate) const fn naf_digits(len: usize) -> usize {
    8 * len + 1
}

/// [`naf_digits`] of the longest scalar of any curve.
#[cfg(test)]
const MAX_NAF_DIGITS: usize = naf_digits(MAX_LEN);

/// Rows in a comb table with rows `spacing` digits apart.
pub(crate) const fn comb_rows_spaced(len: usize, spacing: usize) -> usize {
    digits(len).div_ceil(spacing)
}

/// Rows in a curve's comb table: one per [`COMB_SPACING`] signed 4-bit digits of a scalar.
pub(crate) const fn comb_rows(len: usize) -> usize {
    comb_rows_spaced(len, COMB_SPACING)
}

/// Signed 4-bit digits in a recoded scalar of `len` bytes (one more than its nibbles, for the
/// final carry).
const fn digits(len: usize) -> usize {
    2 * len + 1
}

/// The most signed digits of any curve.
const MAX_DIGITS: usize = digits(MAX_LEN);

/// Rows in a full comb table of signed `w`-bit digits for `len`-byte scalars (a digit each,
/// with room for the final carry): `2·len + 1` for `w = 4`. Always inlined, so that a table
/// size compared with it folds (on the Cortex-M0 a call kept the full-comb path linked).
#[inline(always)]
pub(crate) const fn full_comb_rows(len: usize, w: usize) -> usize {
    8 * len / w + 1
}

/// Bits per signed window of the variable-base multiplication [`Curve::mul_affine`]: 5 on 64-bit
/// targets (a table of 16 points), 4 elsewhere to keep the Cortex-M0's stack small (8 points).
#[cfg(target_pointer_width = "64")]
const WINDOW: usize = 5;
/// Bits per signed window of the variable-base multiplication [`Curve::mul`].
#[cfg(not(target_pointer_width = "64"))]
const WINDOW: usize = 4;

/// Points in [`Curve::mul_affine`]'s table: `1p … 2^(WINDOW−1)·p`.
const TABLE: usize = 1 << (WINDOW - 1);

/// Signed [`WINDOW`]-bit digits of a `len`-byte scalar, with room for the final carry.
const fn wdigits(len: usize) -> usize {
    8 * len / WINDOW + 1
}

/// The most signed [`WINDOW`]-bit digits of any curve.
const MAX_WDIGITS: usize = wdigits(MAX_LEN);

/// Entries in [`Field::odd_g`] tables: `G, 3G, …, 127G`, for a width-8 NAF.
pub(crate) const ODD_G: usize = 64;

/// A point `(X : Y : Z)` standing for `(X/Z, Y/Z)`, or the identity when `Z = 0`.
#[derive(Clone, Copy)]
pub(crate) struct Proj<E> {
    pub(crate) x: E,
    pub(crate) y: E,
    pub(crate) z: E,
}

/// One curve over one field implementation: the field and scalar arithmetic and the curve's
/// constants in that representation.
pub(crate) struct Curve<'a, F: Field, S: Field> {
    /// Arithmetic modulo `p`.
    pub(crate) fp: &'a F,
    /// Arithmetic modulo `n`.
    pub(crate) fq: &'a S,
    /// The constants.
    pub(crate) params: &'static Params,
    /// `b` in `fp`'s representation.
    b: F::E,
}

impl<'a, F: Field, S: Field> Curve<'a, F, S> {
    /// The curve with field `fp`, scalars `fq` and constants `params`.
    pub(crate) fn new(fp: &'a F, fq: &'a S, params: &'static Params) -> Self {
        let (b, _) = fp.import_be(params.b);
        Self { fp, fq, params, b }
    }

    /// The identity `(0 : 1 : 0)`.
    pub(crate) fn identity(&self) -> Proj<F::E> {
        Proj { x: self.fp.zero(), y: self.fp.one(), z: self.fp.zero() }
    }

    /// The generator (the scalar multiplications read it from the comb table; the tables are
    /// built and checked from this).
    #[cfg(test)]
    pub(crate) fn generator(&self) -> Proj<F::E> {
        let (x, _) = self.fp.import_be(self.params.gx);
        let (y, _) = self.fp.import_be(self.params.gy);
        Proj { x, y, z: self.fp.one() }
    }

    /// `b` if `choice`, else `a`.
    pub(crate) fn select(a: &Proj<F::E>, b: &Proj<F::E>, choice: Choice) -> Proj<F::E> {
        Proj {
            x: F::select(&a.x, &b.x, choice),
            y: F::select(&a.y, &b.y, choice),
            z: F::select(&a.z, &b.z, choice),
        }
    }

    /// `−p`.
    #[cfg(test)]
    pub(crate) fn neg(&self, p: &Proj<F::E>) -> Proj<F::E> {
        Proj { x: p.x, y: self.fp.neg(&p.y), z: p.z }
    }

    /// `p + q` for any two points (RCB algorithm 4): the reference the tests check the
    /// other formulas and the scalar multiplications against.
    #[cfg(test)]
    pub(crate) fn add(&self, p: &Proj<F::E>, q: &Proj<F::E>) -> Proj<F::E> {
        let f = self.fp;
        let (x1, y1, z1) = (&p.x, &p.y, &p.z);
        let (x2, y2, z2) = (&q.x, &q.y, &q.z);
        let mut t0 = f.mul(x1, x2);
        let mut t1 = f.mul(y1, y2);
        let mut t2 = f.mul(z1, z2);
        let mut t3 = f.add(x1, y1);
        let mut t4 = f.add(x2, y2);
        t3 = f.mul(&t3, &t4);
        t4 = f.add(&t0, &t1);
        t3 = f.sub(&t3, &t4);
        t4 = f.add(y1, z1);
        let mut x3 = f.add(y2, z2);
        t4 = f.mul(&t4, &x3);
        x3 = f.add(&t1, &t2);
        t4 = f.sub(&t4, &x3);
        x3 = f.add(x1, z1);
        let mut y3 = f.add(x2, z2);
        x3 = f.mul(&x3, &y3);
        y3 = f.add(&t0, &t2);
        y3 = f.sub(&x3, &y3);
        let mut z3 = f.mul(&self.b, &t2);
        x3 = f.sub(&y3, &z3);
        z3 = f.add(&x3, &x3);
        x3 = f.add(&x3, &z3);
        z3 = f.sub(&t1, &x3);
        x3 = f.add(&t1, &x3);
        y3 = f.mul(&self.b, &y3);
        t1 = f.add(&t2, &t2);
        t2 = f.add(&t1, &t2);
        y3 = f.sub(&y3, &t2);
        y3 = f.sub(&y3, &t0);
        t1 = f.add(&y3, &y3);
        y3 = f.add(&t1, &y3);
        t1 = f.add(&t0, &t0);
        t0 = f.add(&t1, &t0);
        t0 = f.sub(&t0, &t2);
        t1 = f.mul(&t4, &y3);
        t2 = f.mul(&t0, &y3);
        y3 = f.mul(&x3, &z3);
        y3 = f.add(&y3, &t2);
        x3 = f.mul(&t3, &x3);
        x3 = f.sub(&x3, &t1);
        z3 = f.mul(&t4, &z3);
        t1 = f.mul(&t3, &t0);
        z3 = f.add(&z3, &t1);
        Proj { x: x3, y: y3, z: z3 }
    }

    /// `p + (x2, y2)` for an affine (so not identity) second point (RCB algorithm 5).
    pub(crate) fn add_affine(&self, p: &Proj<F::E>, x2: &F::E, y2: &F::E) -> Proj<F::E> {
        let f = self.fp;
        let (x1, y1, z1) = (&p.x, &p.y, &p.z);
        let mut t0 = f.mul(x1, x2);
        let mut t1 = f.mul(y1, y2);
        let mut t3 = f.add(x2, y2);
        let mut t4 = f.add(x1, y1);
        t3 = f.mul(&t3, &t4);
        t4 = f.add(&t0, &t1);
        t3 = f.sub(&t3, &t4);
        t4 = f.mul(y2, z1);
        t4 = f.add(&t4, y1);
        let mut y3 = f.mul(x2, z1);
        y3 = f.add(&y3, x1);
        let mut z3 = f.mul(&self.b, z1);
        let mut x3 = f.sub(&y3, &z3);
        z3 = f.add(&x3, &x3);
        x3 = f.add(&x3, &z3);
        z3 = f.sub(&t1, &x3);
        x3 = f.add(&t1, &x3);
        y3 = f.mul(&self.b, &y3);
        t1 = f.add(z1, z1);
        let mut t2 = f.add(&t1, z1);
        y3 = f.sub(&y3, &t2);
        y3 = f.sub(&y3, &t0);
        t1 = f.add(&y3, &y3);
        y3 = f.add(&t1, &y3);
        t1 = f.add(&t0, &t0);
        t0 = f.add(&t1, &t0);
        t0 = f.sub(&t0, &t2);
        t1 = f.mul(&t4, &y3);
        t2 = f.mul(&t0, &y3);
        y3 = f.mul(&x3, &z3);
        y3 = f.add(&y3, &t2);
        x3 = f.mul(&t3, &x3);
        x3 = f.sub(&x3, &t1);
        z3 = f.mul(&t4, &z3);
        t1 = f.mul(&t3, &t0);
        z3 = f.add(&z3, &t1);
        Proj { x: x3, y: y3, z: z3 }
    }

    /// `2p` (RCB algorithm 6), a reference for the tests as [`Self::add`].
    #[cfg(test)]
    pub(crate) fn double(&self, p: &Proj<F::E>) -> Proj<F::E> {
        let f = self.fp;
        let (x, y, z) = (&p.x, &p.y, &p.z);
        let mut t0 = f.sqr(x);
        let t1 = f.sqr(y);
        let mut t2 = f.sqr(z);
        let mut t3 = f.mul(x, y);
        t3 = f.add(&t3, &t3);
        let mut z3 = f.mul(x, z);
        z3 = f.add(&z3, &z3);
        let mut y3 = f.mul(&self.b, &t2);
        y3 = f.sub(&y3, &z3);
        let mut x3 = f.add(&y3, &y3);
        y3 = f.add(&x3, &y3);
        x3 = f.sub(&t1, &y3);
        y3 = f.add(&t1, &y3);
        y3 = f.mul(&x3, &y3);
        x3 = f.mul(&x3, &t3);
        t3 = f.add(&t2, &t2);
        t2 = f.add(&t2, &t3);
        z3 = f.mul(&self.b, &z3);
        z3 = f.sub(&z3, &t2);
        z3 = f.sub(&z3, &t0);
        t3 = f.add(&z3, &z3);
        z3 = f.add(&z3, &t3);
        t3 = f.add(&t0, &t0);
        t0 = f.add(&t3, &t0);
        t0 = f.sub(&t0, &t2);
        t0 = f.mul(&t0, &z3);
        y3 = f.add(&y3, &t0);
        t0 = f.mul(y, z);
        t0 = f.add(&t0, &t0);
        z3 = f.mul(&t0, &z3);
        x3 = f.sub(&x3, &z3);
        z3 = f.mul(&t0, &t1);
        z3 = f.add(&z3, &z3);
        z3 = f.add(&z3, &z3);
        Proj { x: x3, y: y3, z: z3 }
    }

    /// `2^n·p`, with the doublings in Jacobian coordinates (`(X : Y : Z)` for
    /// `(X/Z², Y/Z³)`), whose `a = −3` doubling costs 3 multiplications and 5 squarings
    /// ("dbl-2001-b", Bernstein–Lange EFD) against 13 for the projective formula; the two
    /// conversions cost 3 each. The doubling has no exceptional case on a prime-order curve
    /// as long as the identity keeps a non-zero `Y`, so the identity `(0 : Y : 0)` maps to
    /// itself rather than to zeros. The same operations run for every input.
    pub(crate) fn double_n(&self, p: &Proj<F::E>, n: usize) -> Proj<F::E> {
        let f = self.fp;
        // To Jacobian: (XZ : YZ² : Z), or (0 : Y : 0) for the identity.
        let zz = f.sqr(&p.z);
        let mut j = [f.mul(&p.x, &p.z), F::select(&f.mul(&p.y, &zz), &p.y, F::is_zero(&p.z)), p.z];
        for _ in 0..n {
            self.jac_double(&mut j);
        }
        self.jacobian_to_proj(&j[0], &j[1], &j[2])
    }

    /// The Jacobian `(X : Y : Z)` as a projective point: `(XZ : Y : Z³)`.
    pub(crate) fn jacobian_to_proj(&self, x: &F::E, y: &F::E, z: &F::E) -> Proj<F::E> {
        let f = self.fp;
        let zz = f.sqr(z);
        Proj { x: f.mul(x, z), y: *y, z: f.mul(&zz, z) }
    }

    /// Twice the Jacobian `(X : Y : Z)` for a = −3 ("dbl-2004-hmv", Bernstein–Lange EFD:
    /// 4 multiplications, 4 squarings and a halving): with `M = 3(X − Z²)(X + Z²)` and
    /// `S = 4XY²`, `X₃ = M² − 2S`, `Y₃ = M(S − X₃) − 8Y⁴`, `Z₃ = 2YZ`. One product more than
    /// "dbl-2001-b" but seven fewer additions, which made P-256 ECDH about 10% faster on
    /// `x86_adx`. The identity stays one as long as its `Y` is non-zero. In place, through
    /// [`Field::jac_double`] where the field has its own routine.
    fn jac_double(&self, p: &mut [F::E; 3]) {
        if !self.fp.jac_double(p) {
            *p = self.jac_double_formula(p);
        }
    }

    /// The formula of [`Self::jac_double`] on the field operations. Not inlined: a copy in
    /// each of [`Self::mul_affine`]'s unrolled doublings crowded the instruction cache (P-384 ECDH
    /// about 20% slower).
    #[inline(never)]
    pub(crate) fn jac_double_formula(&self, p: &[F::E; 3]) -> [F::E; 3] {
        let f = self.fp;
        let [x, y, z] = p;
        let zz = f.sqr(z);
        let t = f.mul(&f.sub(x, &zz), &f.add(x, &zz));
        let m = f.add(&f.add(&t, &t), &t);
        let y2 = f.add(y, y);
        let z3 = f.mul(&y2, z);
        let yy = f.sqr(&y2);
        let s = f.mul(&yy, x);
        let y4 = f.halve(&f.sqr(&yy));
        let x3 = f.sub(&f.sqr(&m), &f.add(&s, &s));
        let y3 = f.sub(&f.mul(&f.sub(&s, &x3), &m), &y4);
        [x3, y3, z3]
    }

    /// `p ← p + q` in Jacobian coordinates by [`Self::jac_add`] (the field's routine where it
    /// has one), with the identity and `p = q` (then a doubling) taken by branches; `q` is not
    /// the identity. Variable time: for verification only.
    fn add_vartime(&self, p: &mut [F::E; 3], q: &[F::E; 3]) {
        if bool::from(F::is_zero(&p[2])) {
            *p = *q;
            return;
        }
        let (sum, same) = self.jac_add(p, q);
        if bool::from(same) { self.jac_double(p) } else { *p = sum }
    }

    /// `p ← p + (x2, y2)` for an affine second point by [`Self::jac_add_affine`], with the
    /// identity and `p = (x2, y2)` taken by branches, as [`Self::add_vartime`].
    fn add_affine_vartime(&self, p: &mut [F::E; 3], x2: &F::E, y2: &F::E) {
        if bool::from(F::is_zero(&p[2])) {
            *p = [*x2, *y2, self.fp.one()];
            return;
        }
        let (sum, same) = self.jac_add_affine(p, x2, y2);
        if bool::from(same) { self.jac_double(p) } else { *p = sum }
    }

    /// The affine coordinates of `p` and whether `p` is the identity (then both are zero).
    pub(crate) fn to_affine(&self, p: &Proj<F::E>) -> (F::E, F::E, Choice) {
        let zinv = self.fp.invert(&p.z);
        (self.fp.mul(&p.x, &zinv), self.fp.mul(&p.y, &zinv), F::is_zero(&p.z))
    }

    /// Whether `(x, y)` satisfies `y² = x³ − 3x + b`.
    pub(crate) fn on_curve(&self, x: &F::E, y: &F::E) -> Choice {
        let f = self.fp;
        let rhs = f.mul(&f.sqr(x), x);
        let x3 = f.add(&f.add(x, x), x);
        let rhs = f.add(&f.sub(&rhs, &x3), &self.b);
        f.eq(&f.sqr(y), &rhs)
    }

    /// Decodes a SEC1 point (`04‖X‖Y`, or `02`/`03‖X` compressed) and checks that its
    /// coordinates are below `p` and that it is on the curve. The identity (`00`) is
    /// refused. Public data: variable time.
    pub(crate) fn decode(&self, sec1: &[u8]) -> Result<(F::E, F::E), Error> {
        let len = self.params.len;
        let (&tag, rest) = sec1.split_first().ok_or(Error::InvalidLength)?;
        match tag {
            0x00 if rest.is_empty() => Err(Error::PointAtInfinity),
            0x04 if rest.len() == 2 * len => {
                let (x, okx) = self.fp.import_be(&rest[..len]);
                let (y, oky) = self.fp.import_be(&rest[len..]);
                if !bool::from(okx & oky) {
                    return Err(Error::InvalidEncoding);
                }
                if !bool::from(self.on_curve(&x, &y)) {
                    return Err(Error::PointNotOnCurve);
                }
                Ok((x, y))
            }
            0x02 | 0x03 if rest.len() == len => {
                let f = self.fp;
                let (x, okx) = f.import_be(rest);
                if !bool::from(okx) {
                    return Err(Error::InvalidEncoding);
                }
                let x3 = f.add(&f.add(&x, &x), &x);
                let rhs = f.add(&f.sub(&f.mul(&f.sqr(&x), &x), &x3), &self.b);
                let (y, ok) = f.sqrt(&rhs);
                if !bool::from(ok) {
                    return Err(Error::InvalidEncoding);
                }
                let mut bytes = [0u8; MAX_LEN];
                f.to_be(&y, &mut bytes[..len]);
                let odd = bytes[len - 1] & 1;
                let y = if odd == tag & 1 { y } else { f.neg(&y) };
                Ok((x, y))
            }
            0x00 | 0x02 | 0x03 | 0x04 => Err(Error::InvalidLength),
            _ => Err(Error::InvalidEncoding),
        }
    }

    /// `k·p` by [`Self::mul_table`] for any point `p`, the identity included: the tests'
    /// reference for [`Self::mul_affine`], which ECDH uses. The table's odd multiples by
    /// [`Self::jac_add`].
    #[cfg(test)]
    pub(crate) fn mul(&self, p: &Proj<F::E>, k: &[u8]) -> Proj<F::E> {
        let f = self.fp;
        // To Jacobian: (XZ : YZ² : Z), or (0 : Y : 0) for the identity.
        let zz = f.sqr(&p.z);
        let pj = [f.mul(&p.x, &p.z), F::select(&f.mul(&p.y, &zz), &p.y, F::is_zero(&p.z)), p.z];
        // table[j] = (j + 1)·p: the even multiples by doubling (half the cost of an addition),
        // the odd ones as the even one below plus p (never p + p).
        let mut table = [pj; TABLE];
        for j in 1..TABLE {
            table[j] = if j % 2 == 1 {
                let mut d = table[j / 2];
                self.jac_double(&mut d);
                d
            } else {
                self.jac_add(&table[j - 1], &pj).0
            };
        }
        self.mul_table(&mut table, k, F::is_zero(&p.z))
    }

    /// `k·(x, y)` by [`Self::mul_table`] for an affine point on the curve, not the identity
    /// (the peer's key in ECDH): the table's odd multiples by mixed additions of `(x, y)`
    /// ([`Self::jac_add_affine`], four products and a squaring fewer than [`Self::jac_add`]),
    /// which never meet their exceptional cases: the even multiple `(j + 1)·p` they start
    /// from, `2 ≤ j + 1 < 2^(WINDOW−1)`, is neither `±p` nor the identity on a curve of
    /// prime order above `2^WINDOW`.
    pub(crate) fn mul_affine(&self, x: &F::E, y: &F::E, k: &[u8]) -> Proj<F::E> {
        let pj = [*x, *y, self.fp.one()];
        let mut table = [pj; TABLE];
        for j in 1..TABLE {
            table[j] = if j % 2 == 1 {
                let mut d = table[j / 2];
                self.jac_double(&mut d);
                d
            } else {
                self.jac_add_affine(&table[j - 1], x, y).0
            };
        }
        self.mul_table(&mut table, k, Choice::from(0))
    }

    /// `k·p` from `table` (`1p … 2^(WINDOW−1)·p` in Jacobian coordinates; `p_inf` whether
    /// `p` is the identity) for a scalar `0 ≤ k < n` given big-endian in `len` bytes, in
    /// constant time: signed [`WINDOW`]-bit windows over the table, selected by masks, all in Jacobian coordinates (no conversion per window; `a = −3` doublings and
    /// [`Self::jac_add`]), or with the table made affine and [`Self::jac_add_affine`] where
    /// the field asks for it ([`Field::AFFINE_WINDOW_TABLE`]; the identity's table is zeros
    /// then, and its result is set to the identity at the end). The Jacobian addition is not complete, so its exceptional cases are
    /// handled in constant time: the accumulator or the digit at the identity by selection,
    /// `acc = −pick` gives the identity by itself (`H = 0` makes `Z₃ = 0`), and `acc = pick`
    /// cannot happen before the last window: there `acc = 2^W·m·p` with
    /// `0 ≤ 2^W·m ≤ k/2^W + 2^W < n − 2^(W−1)`, which meets `±digit` only at `m = 0`. In the
    /// last window (`k ≡ 2·digit`, as for `k = n − 2`) the doubling of the accumulator is
    /// computed too and selected when the addition reports equal inputs.
    fn mul_table(&self, table: &mut [[F::E; 3]; TABLE], k: &[u8], p_inf: Choice) -> Proj<F::E> {
        let f = self.fp;
        if F::AFFINE_WINDOW_TABLE {
            self.table_to_affine(table);
        }
        let mut d = [0i8; MAX_WDIGITS];
        let d = &mut d[..wdigits(self.params.len)];
        recode_window(k, d, WINDOW);
        let mut acc = [f.one(), f.one(), f.zero()];
        for (i, &digit) in d.iter().enumerate().rev() {
            if i + 1 != d.len() {
                for _ in 0..WINDOW {
                    self.jac_double(&mut acc);
                }
            }
            let (abs, neg) = split_digit(digit);
            let mut pick = f.select_point(table, abs);
            pick[1] = F::select(&pick[1], &f.neg(&pick[1]), neg);
            let (mut sum, same) = if F::AFFINE_WINDOW_TABLE {
                self.jac_add_affine(&acc, &pick[0], &pick[1])
            } else {
                self.jac_add(&acc, &pick)
            };
            if i == 0 {
                let mut dbl = acc;
                self.jac_double(&mut dbl);
                for (s, t) in sum.iter_mut().zip(dbl) {
                    *s = F::select(s, &t, same);
                }
            }
            let acc_inf = F::is_zero(&acc[2]);
            let keep = abs.ct_eq(&0);
            for ((s, a), q) in sum.iter_mut().zip(&mut acc).zip(&pick) {
                *a = F::select(&F::select(s, q, acc_inf), a, keep);
            }
        }
        zeroize::Zeroize::zeroize(d);
        let mut out = self.jacobian_to_proj(&acc[0], &acc[1], &acc[2]);
        if F::AFFINE_WINDOW_TABLE {
            out = Self::select(&out, &self.identity(), p_inf);
        }
        // Keep the identity a valid `(0 : Y : 0)` with `Y ≠ 0`.
        out.y = F::select(&out.y, &f.one(), F::is_zero(&out.z));
        out
    }

    /// The Jacobian points of `table` as affine `(x, y, 1)` with one inversion (Montgomery's
    /// trick: prefix products of the Z's), for [`Self::mul_affine`]'s mixed additions (see
    /// [`Field::AFFINE_WINDOW_TABLE`]). A table of identities comes out as zeros. The
    /// inversion is variable-time: the table is made from the point alone, which is public
    /// (the peer's key in ECDH), never from the scalar.
    fn table_to_affine<const N: usize>(&self, table: &mut [[F::E; 3]; N]) {
        let f = self.fp;
        let mut prefix = [f.one(); N];
        let mut prod = f.one();
        for (pre, t) in prefix.iter_mut().zip(table.iter()) {
            *pre = prod;
            prod = f.mul(&prod, &t[2]);
        }
        let mut inv = f.invert_vartime(&prod);
        for (t, pre) in table.iter_mut().zip(&prefix).rev() {
            let zinv = f.mul(&inv, pre);
            inv = f.mul(&inv, &t[2]);
            let zz = f.sqr(&zinv);
            *t = [f.mul(&t[0], &zz), f.mul(&t[1], &f.mul(&zz, &zinv)), f.one()];
        }
    }

    /// `p + q` in Jacobian coordinates ("add-1998-cmo-2", Bernstein–Lange EFD: 12
    /// multiplications and 4 squarings, but seven additions against thirteen for
    /// "add-2007-bl", which is faster with these fields), and whether `H = R = 0` (`p = q`,
    /// when the result is wrong and the caller must double instead). Either input at the
    /// identity gives a result with `Z = 0`; `p = −q` gives the identity (`Z = 0`, `Y = −R³`
    /// non-zero). Constant time.
    fn jac_add(&self, p: &[F::E; 3], q: &[F::E; 3]) -> ([F::E; 3], Choice) {
        match self.fp.jac_add(p, q) {
            Some(r) => r,
            None => self.jac_add_formula(p, q),
        }
    }

    /// The formula of [`Self::jac_add`] on the field operations.
    pub(crate) fn jac_add_formula(&self, p: &[F::E; 3], q: &[F::E; 3]) -> ([F::E; 3], Choice) {
        let f = self.fp;
        let z1z1 = f.sqr(&p[2]);
        let z2z2 = f.sqr(&q[2]);
        let u1 = f.mul(&p[0], &z2z2);
        let u2 = f.mul(&q[0], &z1z1);
        let s1 = f.mul(&p[1], &f.mul(&q[2], &z2z2));
        let s2 = f.mul(&q[1], &f.mul(&p[2], &z1z1));
        let h = f.sub(&u2, &u1);
        let r = f.sub(&s2, &s1);
        let same = F::is_zero(&h) & F::is_zero(&r);
        let hh = f.sqr(&h);
        let hhh = f.mul(&h, &hh);
        let v = f.mul(&u1, &hh);
        let x3 = f.sub(&f.sub(&f.sqr(&r), &hhh), &f.add(&v, &v));
        let y3 = f.sub(&f.mul(&r, &f.sub(&v, &x3)), &f.mul(&s1, &hhh));
        let z3 = f.mul(&f.mul(&p[2], &q[2]), &h);
        ([x3, y3, z3], same)
    }

    /// `k·G` for a scalar `k` given big-endian in `len` bytes, in constant time, with the
    /// comb table: with `s =` [`COMB_SPACING`] digits per row, digit `s·i + t` of `k`
    /// multiplies row `i`, so `k·G = Σ_t 16^t · Σ_i d[s·i+t]·(16^(s·i)·G)`, evaluated by
    /// Horner's rule in `t` with `4·(s − 1)` doublings (12, or 60 with `small-tables`) and one
    /// mixed addition per digit. A field whose built-in table has a row for
    /// every digit (row `i` holding `j·2^(w·i)·G` for signed `w`-bit digits, as
    /// `full_comb_table` makes) needs no doublings: one pass, digit `i` on row `i`.
    pub(crate) fn mul_base(&self, k: &[u8]) -> Proj<F::E> {
        let len = self.params.len;
        let table = self.fp.comb();
        if let Some(w) = self.full_comb_window() {
            let mut d = [0i8; MAX_DIGITS];
            let d = &mut d[..full_comb_rows(len, w)];
            recode_window(k, d, w);
            let acc = self.mul_base_full(table, d, 1 << (w - 1));
            zeroize::Zeroize::zeroize(d);
            return acc;
        }
        let mut d = [0i8; MAX_DIGITS];
        let d = &mut d[..digits(len)];
        recode(k, d);
        // Digits per row: `COMB_SPACING` for the shared table, 1 for a full one.
        let spacing = if table.len() == 8 * d.len() { 1 } else { COMB_SPACING };
        let rows = d.len().div_ceil(spacing);
        let mut acc = self.identity();
        for t in (0..spacing).rev() {
            if t + 1 != spacing {
                acc = self.double_n(&acc, 4);
            }
            for i in 0..rows {
                let Some(&digit) = d.get(spacing * i + t) else { continue };
                let (abs, neg) = split_digit(digit);
                let (x, y) = if table.is_empty() {
                    self.comb_entry_from_bytes(i, abs)
                } else {
                    let [x, y] = self.fp.select_entry(&table[i * 8..i * 8 + 8], abs);
                    (x, y)
                };
                let y = F::select(&y, &self.fp.neg(&y), neg);
                let sum = self.add_affine(&acc, &x, &y);
                acc = Self::select(&sum, &acc, abs.ct_eq(&0));
            }
        }
        zeroize::Zeroize::zeroize(d);
        acc
    }

    /// The digit width `w` of the field's built-in comb table when it is a full one (a row
    /// per signed `w`-bit digit, `2^(w−1)` entries each: 4 or 5), for a group order that fills
    /// its bytes (which [`Self::mul_base_full`]'s exceptional cases need); `None` otherwise.
    pub(crate) fn full_comb_window(&self) -> Option<usize> {
        // The field's length (the curve's): a constant where the field is a zero-sized
        // type, as is the table's size, so that with no built-in table (`mont15`) or one
        // with the shared spacing (`p256_thumb1`) the full-comb path compiles away on the
        // Cortex-M0.
        let len = self.fp.modulus().len();
        let table = self.fp.comb().len();
        if table == 0 || self.params.qlen != 8 * len {
            return None;
        }
        if table == full_comb_rows(len, 4) << 3 {
            Some(4)
        } else if table == full_comb_rows(len, 5) << 4 {
            Some(5)
        } else {
            None
        }
    }

    /// `Σ d[i]·B^i·G` over a full comb table of `entries = B/2` points a row (row `i` holding
    /// `j·B^i·G`, `B = 16` or 32), in constant time, accumulating in Jacobian coordinates with
    /// mixed additions ([`Self::jac_add_affine`], 7 multiplications and 4 squarings against 13
    /// for the projective one). Its exceptional cases: the accumulator or the digit at the
    /// identity are selected around; `acc = −T` gives the identity by itself; `acc = T` needs
    /// `A ≡ ±d·B^r (mod n)` for the integer `A = Σ_{i<r} d[i]·B^i`, `|A| < B^r`, so a non-zero
    /// integer below `(B/2 + 1)·B^r`, which is below `n` for every row but the last two when
    /// `n > 2^(8·len − 1)` (the caller checks that `n` fills its bytes): `17·32^r < 2^255` up
    /// to `r = 50` of P-256's 52 rows. On those two rows the doubling is computed and
    /// selected.
    fn mul_base_full(&self, table: &[[F::E; 2]], d: &[i8], entries: usize) -> Proj<F::E> {
        let f = self.fp;
        let mut acc = [f.one(), f.one(), f.zero()];
        for (i, &digit) in d.iter().enumerate() {
            let row = &table[i * entries..(i + 1) * entries];
            let check_double = i + 2 >= d.len();
            if check_double || !f.comb_add(&mut acc, row, digit) {
                self.comb_step(&mut acc, row, digit, check_double);
            }
        }
        let mut out = self.jacobian_to_proj(&acc[0], &acc[1], &acc[2]);
        out.y = F::select(&out.y, &f.one(), F::is_zero(&out.z));
        out
    }

    /// One row of [`Self::mul_base_full`] on the field operations: `acc + d·T` for the row
    /// `T` and the digit `d` (see [`Field::comb_add`]), with the doubling computed and
    /// selected when `check_double` (the last two rows).
    pub(crate) fn comb_step(
        &self,
        acc: &mut [F::E; 3],
        row: &[[F::E; 2]],
        digit: i8,
        check_double: bool,
    ) {
        let f = self.fp;
        let (abs, neg) = split_digit(digit);
        let [x, y] = f.select_entry(row, abs);
        let y = F::select(&y, &f.neg(&y), neg);
        let (mut sum, same) = self.jac_add_affine(acc, &x, &y);
        if check_double {
            let mut dbl = *acc;
            self.jac_double(&mut dbl);
            for (s, t) in sum.iter_mut().zip(dbl) {
                *s = F::select(s, &t, same);
            }
        }
        let acc_inf = F::is_zero(&acc[2]);
        let keep = abs.ct_eq(&0);
        for ((s, a), q) in sum.iter_mut().zip(acc.iter_mut()).zip([x, y, f.one()]) {
            *a = F::select(&F::select(s, &q, acc_inf), a, keep);
        }
    }

    /// `p + (x2, y2)` in Jacobian coordinates for an affine second point ("madd-2004-hmv",
    /// Bernstein–Lange EFD: 8 multiplications and 3 squarings, but seven additions against
    /// fifteen for "madd-2007-bl", which is faster with these fields), and whether
    /// `p = (x2, y2)` (then the result is wrong and the caller must double). `p` at the
    /// identity gives a result with `Z = 0`; `p = −(x2, y2)` gives the identity (`Z = 0`,
    /// `Y = −R³` non-zero). Constant time.
    fn jac_add_affine(&self, p: &[F::E; 3], x2: &F::E, y2: &F::E) -> ([F::E; 3], Choice) {
        match self.fp.jac_add_affine(p, x2, y2) {
            Some(r) => r,
            None => self.jac_add_affine_formula(p, x2, y2),
        }
    }

    /// The formula of [`Self::jac_add_affine`] on the field operations.
    pub(crate) fn jac_add_affine_formula(
        &self,
        p: &[F::E; 3],
        x2: &F::E,
        y2: &F::E,
    ) -> ([F::E; 3], Choice) {
        let f = self.fp;
        let z1z1 = f.sqr(&p[2]);
        let u2 = f.mul(x2, &z1z1);
        let s2 = f.mul(y2, &f.mul(&p[2], &z1z1));
        let h = f.sub(&u2, &p[0]);
        let r = f.sub(&s2, &p[1]);
        let same = F::is_zero(&h) & F::is_zero(&r);
        let z3 = f.mul(&p[2], &h);
        let hh = f.sqr(&h);
        let hhh = f.mul(&hh, &h);
        let v = f.mul(&hh, &p[0]);
        let x3 = f.sub(&f.sub(&f.sqr(&r), &f.add(&v, &v)), &hhh);
        let y3 = f.sub(&f.mul(&f.sub(&v, &x3), &r), &f.mul(&hhh, &p[1]));
        ([x3, y3, z3], same)
    }

    /// Entry `abs` (1..=8; anything else gives zeros) of comb row `i`, read from the
    /// byte table: every entry is read, eight bytes at a time, and masked in.
    fn comb_entry_from_bytes(&self, i: usize, abs: u8) -> (F::E, F::E) {
        let len = self.params.len;
        let entry = 2 * len;
        let row = &self.fp.comb_bytes()[i * 8 * entry..(i + 1) * 8 * entry];
        let mut pick = [0u64; 2 * MAX_LEN / 8 + 1];
        let words = entry.div_ceil(8);
        for (j, candidate) in row.chunks_exact(entry).enumerate() {
            let mask = 0u64.wrapping_sub(u64::from((j as u8 + 1).ct_eq(&abs).unwrap_u8()));
            for (w, chunk) in pick[..words].iter_mut().zip(candidate.chunks(8)) {
                let mut b = [0u8; 8];
                b[..chunk.len()].copy_from_slice(chunk);
                *w |= u64::from_ne_bytes(b) & mask;
            }
        }
        let mut bytes = [0u8; 2 * MAX_LEN + 8];
        for (chunk, w) in bytes.chunks_exact_mut(8).zip(&pick[..words]) {
            chunk.copy_from_slice(&w.to_ne_bytes());
        }
        let (x, _) = self.fp.import_be(&bytes[..len]);
        let (y, _) = self.fp.import_be(&bytes[len..entry]);
        (x, y)
    }

    /// `u1·G + u2·q` as a Jacobian point, in variable time (Straus's interleaving), for
    /// signature verification, where everything is public. `G`'s odd multiples are affine:
    /// `1G…127G` built in (width-8 NAF) where the field has them, else `1G…7G` from the comb
    /// table's first row (width-4 NAF); `q`'s `1q…15q` (width-5 NAF; `1q…7q`, width 4, with
    /// `small-tables`, see [`VERIFY_Q_WIDTH`]) are made in Jacobian coordinates and then
    /// affine with one inversion where [`Field::AFFINE_VERIFY_TABLE`] says that pays, so
    /// every addition is a mixed one. `NAF` is the digits held per scalar: at least
    /// [`naf_digits`] of the scalars' length (the curve's), so that P-256's two digit arrays
    /// take 514 bytes of stack rather than the 1058 that would fit P-521's (issue 26).
    pub(crate) fn mul2_vartime<const NAF: usize>(
        &self,
        u1: &[u8],
        u2: &[u8],
        q: &Proj<F::E>,
    ) -> [F::E; 3] {
        let f = self.fp;
        // A built-in `G, 3G, …, 127G` allows a width-8 NAF for `u1`; read in place, so
        // the 32-bit targets' stack holds only the four from the comb's first row. A field
        // may build in just `G, 3G, 5G, 7G` (width 4), so that verification does not link
        // its whole comb table.
        let odd = f.odd_g();
        let gwidth = if odd.len() == ODD_G { 8 } else { 4 };
        let tg4: [[F::E; 2]; 4];
        let tg = if odd.len() == ODD_G || odd.len() == 4 {
            odd
        } else {
            // 1G, 3G, 5G, 7G: entries 1, 3, 5, 7 of comb row 0 (`j·G`).
            let comb = f.comb();
            tg4 = core::array::from_fn(|i| {
                if comb.is_empty() {
                    let len = self.params.len;
                    let at = 2 * i * 2 * len;
                    let bytes = f.comb_bytes();
                    let (x, _) = f.import_be(&bytes[at..at + len]);
                    let (y, _) = f.import_be(&bytes[at + len..at + 2 * len]);
                    [x, y]
                } else {
                    comb[2 * i]
                }
            });
            &tg4[..]
        };
        let mut n1 = [0i8; NAF];
        let mut n2 = [0i8; NAF];
        let mut top = wnaf(u1, &mut n1, gwidth);
        // 1q, 3q, …, 15q (or …, 7q) in Jacobian coordinates (XZ : YZ² : Z): 2q, then each the
        // one below plus 2q (never ±2q, the group order being a prime above 30). The
        // identity's multiples are all the identity: its digits are left out.
        let mut tq = [[f.zero(); 3]; 1 << (VERIFY_Q_WIDTH - 2)];
        if !bool::from(F::is_zero(&q.z)) {
            let zz = f.sqr(&q.z);
            tq[0] = [f.mul(&q.x, &q.z), f.mul(&q.y, &zz), q.z];
            let mut q2 = tq[0];
            self.jac_double(&mut q2);
            for j in 1..tq.len() {
                tq[j] = self.jac_add(&tq[j - 1], &q2).0;
            }
            if F::AFFINE_VERIFY_TABLE {
                self.table_to_affine(&mut tq);
            }
            top = top.max(wnaf(u2, &mut n2, VERIFY_Q_WIDTH));
        }
        let mut acc = [f.one(), f.one(), f.zero()];
        for i in (0..top).rev() {
            if !bool::from(F::is_zero(&acc[2])) {
                self.jac_double(&mut acc);
            }
            let digit = n1[i];
            if digit != 0 {
                let [x, y] = tg[usize::from(digit.unsigned_abs()) / 2];
                let y = if digit < 0 { f.neg(&y) } else { y };
                self.add_affine_vartime(&mut acc, &x, &y);
            }
            let digit = n2[i];
            if digit != 0 {
                let mut point = tq[usize::from(digit.unsigned_abs()) / 2];
                if digit < 0 {
                    point[1] = f.neg(&point[1]);
                }
                if F::AFFINE_VERIFY_TABLE {
                    self.add_affine_vartime(&mut acc, &point[0], &point[1]);
                } else {
                    self.add_vartime(&mut acc, &point);
                }
            }
        }
        acc
    }
}

/// The magnitude and sign of a digit in `−8..=8`, without branching.
fn split_digit(digit: i8) -> (u8, Choice) {
    let sign = digit.cast_unsigned() >> 7;
    let abs = (digit.cast_unsigned() ^ sign.wrapping_neg()).wrapping_add(sign);
    (abs, Choice::from(sign))
}

/// Signed 4-bit digits `d[i] ∈ −7..=8`, least significant first, with `Σ d[i]·16^i = k` for
/// the big-endian `k`: each nibble plus the carry in, less 16 when above 8. Constant time.
fn recode(k: &[u8], d: &mut [i8]) {
    let mut carry = 0u8;
    let nibbles = k.iter().rev().flat_map(|&b| [b & 15, b >> 4]);
    for (slot, nibble) in d.iter_mut().zip(nibbles.chain(core::iter::repeat(0))) {
        let v = nibble + carry;
        carry = (v + 7) >> 4;
        *slot = v.cast_signed() - (carry << 4).cast_signed();
    }
}

/// Signed `w`-bit digits `d[i] ∈ −(2^(w−1) − 1)..=2^(w−1)`, least significant first, with
/// `Σ d[i]·2^(w·i) = k` for the big-endian `k`: each `w`-bit chunk plus the carry in, less
/// `2^w` when above `2^(w−1)`. Constant time (the bit positions are public).
fn recode_window(k: &[u8], d: &mut [i8], w: usize) {
    // k as little-endian 64-bit words, zero-padded past its top (a word to spare for the
    // window that straddles the last one).
    let mut words = [0u64; MAX_LEN / 8 + 3];
    for (i, &b) in k.iter().rev().enumerate() {
        words[i / 8] |= u64::from(b) << (8 * (i % 8));
    }
    let mask = (1u64 << w) - 1;
    let mut carry = 0u8;
    for (i, slot) in d.iter_mut().enumerate() {
        // Bits w·i to w·i + w − 1 (w ≤ 7, so at most two words).
        let (at, shift) = ((w * i) / 64, (w * i) % 64);
        let lo = words.get(at).map_or(0, |&x| x >> shift);
        let hi = match (words.get(at + 1), shift) {
            (Some(&x), 1..) => x << (64 - shift),
            _ => 0,
        };
        let v = ((lo | hi) & mask) as u8 + carry;
        carry = (v + (1 << (w - 1)) - 1) >> w;
        *slot = v.cast_signed() - (carry << w).cast_signed();
    }
    zeroize::Zeroize::zeroize(&mut words);
}

/// The width-`width` non-adjacent form of the big-endian `k`, least significant first: odd
/// digits below `2^(width−1)` in absolute value, each followed by at least `width − 1` zeros,
/// in `out` (zeros elsewhere; `8·len + 1` digits hold any `len`-byte `k`, and digits that would
/// fall past `out` are dropped). Returns the number of digits written. One pass: `carry` is the
/// `2^pos` still owed by the digits below, so a run of bits equal to it (zeros owing nothing,
/// ones turned into zeros by the carry) is skipped in one step, and a window of `width` bits
/// plus the carry makes the next digit, less `2^width` (a carry onward) when its top bit is set.
/// `width` is 2 to 8. Variable time: for public scalars only.
fn wnaf(k: &[u8], out: &mut [i8], width: u32) -> usize {
    // k as little-endian 64-bit words, zero-padded past its top (bytes past MAX_LEN ignored).
    let mut words = [0u64; MAX_LEN / 8 + 2];
    for (i, &b) in k.iter().rev().enumerate() {
        if let Some(w) = words.get_mut(i / 8) {
            *w |= u64::from(b) << (8 * (i % 8));
        }
    }
    // Bits `at..at + 64` of k.
    let bits = |at: usize| {
        let (i, shift) = (at / 64, at % 64);
        let lo = words.get(i).map_or(0, |&w| w >> shift);
        let hi = match (words.get(i + 1), shift) {
            (Some(&w), 1..) => w << (64 - shift),
            _ => 0,
        };
        lo | hi
    };
    out.fill(0);
    // Past the top bit only a carry can make a digit, at most one position up.
    let end = (8 * k.len().min(MAX_LEN) + 1).min(out.len());
    let mask = (1u64 << width) - 1;
    let mut carry = 0u64;
    let mut at = 0;
    let mut len = 0;
    while at < end {
        let window = bits(at);
        let run = if carry == 0 { window.trailing_zeros() } else { window.trailing_ones() };
        if run > 0 {
            at += run as usize;
            continue;
        }
        // Odd: its low bit differs from the carry.
        let v = (window & mask) + carry;
        carry = v >> (width - 1);
        out[at] = (v.cast_signed() - (carry << width).cast_signed()) as i8;
        len = at + 1;
        at += width as usize;
    }
    len
}

/// The comb table for `params` computed from scratch, in the layout of [`tables`](super::tables): what
/// the checked-in tables are tested against (and how they were made).
#[cfg(test)]
pub(crate) fn comb_table<F: Field, S: Field>(c: &Curve<'_, F, S>) -> std::vec::Vec<u8> {
    comb_table_rows(c, comb_rows(c.params.len), 4 * COMB_SPACING)
}

/// The full comb table: a row for each of the `2·len + 1` signed 4-bit digits of a scalar, row
/// `i` holding `j·16^i·G` for `j = 1..=8`, in the byte layout of [`tables`](super::tables). Four times
/// the rows of the shared table, and [`Curve::mul_base`] on it needs no doublings.
#[cfg(test)]
pub(crate) fn full_comb_table<F: Field, S: Field>(c: &Curve<'_, F, S>) -> std::vec::Vec<u8> {
    full_comb_table_window(c, 4)
}

/// The full comb table for signed `w`-bit digits: a row per digit, row `i` holding
/// `j·2^(w·i)·G` for `j = 1..=2^(w−1)`, in the byte layout of [`tables`](super::tables).
#[cfg(test)]
pub(crate) fn full_comb_table_window<F: Field, S: Field>(
    c: &Curve<'_, F, S>,
    w: usize,
) -> std::vec::Vec<u8> {
    comb_table_rows_of(c, full_comb_rows(c.params.len, w), w, 1 << (w - 1))
}

/// `rows` rows of `j·2^(shift·i)·G`, `j = 1..=8`, affine `x‖y` big-endian.
#[cfg(test)]
fn comb_table_rows<F: Field, S: Field>(
    c: &Curve<'_, F, S>,
    rows: usize,
    shift: usize,
) -> std::vec::Vec<u8> {
    comb_table_rows_of(c, rows, shift, 8)
}

/// `rows` rows of `j·2^(shift·i)·G`, `j = 1..=entries`, affine `x‖y` big-endian.
#[cfg(test)]
fn comb_table_rows_of<F: Field, S: Field>(
    c: &Curve<'_, F, S>,
    rows: usize,
    shift: usize,
    entries: usize,
) -> std::vec::Vec<u8> {
    let len = c.params.len;
    let mut out = std::vec::Vec::new();
    let mut base = c.generator();
    for _ in 0..rows {
        let mut p = base;
        for _ in 0..entries {
            let (x, y, _) = c.to_affine(&p);
            let mut buf = [0u8; MAX_LEN];
            c.fp.to_be(&x, &mut buf[..len]);
            out.extend_from_slice(&buf[..len]);
            c.fp.to_be(&y, &mut buf[..len]);
            out.extend_from_slice(&buf[..len]);
            p = c.add(&p, &base);
        }
        for _ in 0..shift {
            base = c.double(&base);
        }
    }
    out
}

/// The odd multiples `G, 3G, …, 127G`, affine `x‖y` big-endian (the layout of
/// [`tables`](super::tables)): the generator's table for the width-8 NAF of signature verification
/// on the 64-bit fields (see [`Field::odd_g`]).
#[cfg(test)]
pub(crate) fn odd_g_table<F: Field, S: Field>(c: &Curve<'_, F, S>) -> std::vec::Vec<u8> {
    let len = c.params.len;
    let mut out = std::vec::Vec::new();
    let g = c.generator();
    let g2 = c.double(&g);
    let mut p = g;
    for _ in 0..ODD_G {
        let (x, y, _) = c.to_affine(&p);
        let mut buf = [0u8; MAX_LEN];
        c.fp.to_be(&x, &mut buf[..len]);
        out.extend_from_slice(&buf[..len]);
        c.fp.to_be(&y, &mut buf[..len]);
        out.extend_from_slice(&buf[..len]);
        p = c.add(&p, &g2);
    }
    out
}

/// Checks the constant-time scalar multiplications on edge scalars against each other and
/// against the complete projective formulas: `k·G` by [`Curve::mul`] and [`Curve::mul_base`]
/// for `k = 1…40` (against repeated [`Curve::add`]) and for `n − k` (against `−(k·G)`),
/// where the Jacobian formulas' exceptional cases (`acc = ±pick`, the last window's doubling)
/// live; and `u₁·G + u₂·G` by [`Curve::mul2_vartime`] where it meets them too.
#[cfg(test)]
pub(crate) fn check_edge_scalars<F: Field, S: Field>(c: &Curve<'_, F, S>) {
    let len = c.params.len;
    let affine = |p: &Proj<F::E>| {
        let (x, y, inf) = c.to_affine(p);
        let mut out = [0u8; 2 * MAX_LEN + 1];
        c.fp.to_be(&x, &mut out[..len]);
        c.fp.to_be(&y, &mut out[len..2 * len]);
        out[2 * len] = inf.unwrap_u8();
        out
    };
    // `n − k` and `k`, big-endian.
    let scalar = |k: u8, from_n: bool| {
        let mut out = [0u8; MAX_LEN];
        let out_k = &mut out[..len];
        if from_n {
            out_k.copy_from_slice(c.params.n);
            let mut borrow = u16::from(k);
            for b in out_k.iter_mut().rev() {
                let v = u16::from(*b).wrapping_sub(borrow);
                *b = v as u8;
                borrow = (v >> 15) & 1;
            }
        } else {
            out_k[len - 1] = k;
        }
        out
    };
    let mul2 = |u1: &[u8], u2: &[u8], q: &Proj<F::E>| {
        let [x, y, z] = c.mul2_vartime::<MAX_NAF_DIGITS>(u1, u2, q);
        c.jacobian_to_proj(&x, &y, &z)
    };
    let g = c.generator();
    let mut kg = c.identity();
    for k in 1..=40u8 {
        kg = c.add(&kg, &g);
        let want = affine(&kg);
        let small = scalar(k, false);
        assert!(want == affine(&c.mul(&g, &small[..len])), "mul, k = {k}");
        assert!(want == affine(&c.mul_affine(&g.x, &g.y, &small[..len])), "mul_affine, k = {k}");
        assert!(want == affine(&c.mul_base(&small[..len])), "mul_base, k = {k}");
        let neg = affine(&c.neg(&kg));
        let big = scalar(k, true);
        assert!(neg == affine(&c.mul(&g, &big[..len])), "mul, k = n − {k}");
        assert!(neg == affine(&c.mul_affine(&g.x, &g.y, &big[..len])), "mul_affine, k = n − {k}");
        // Another base point (k·G, made affine): mul_affine against mul.
        let (kx, ky, _) = c.to_affine(&kg);
        assert!(
            affine(&c.mul(&kg, &big[..len])) == affine(&c.mul_affine(&kx, &ky, &big[..len])),
            "mul_affine of {k}·G"
        );
        assert!(neg == affine(&c.mul_base(&big[..len])), "mul_base, k = n − {k}");
        // (n − k)·G + k·G = O, and 1·G + k·G = (k + 1)·G, through every exceptional case.
        let one = scalar(1, false);
        let zero = affine(&mul2(&big[..len], &small[..len], &g));
        assert!(zero[2 * len] == 1, "mul2_vartime, (n − {k}) + {k}");
        let next = c.add(&kg, &g);
        assert!(
            affine(&next) == affine(&mul2(&one[..len], &small[..len], &g)),
            "mul2_vartime, 1 + {k}"
        );
        assert!(
            affine(&c.double(&kg)) == affine(&mul2(&small[..len], &small[..len], &g)),
            "mul2_vartime, {k} + {k}"
        );
    }
    // The identity as input.
    let id = affine(&c.mul(&c.identity(), &scalar(5, false)[..len]));
    assert!(id[2 * len] == 1, "mul of the identity");
}

/// Checks a field's whole-point routines ([`Field::jac_double`], and the additions where it
/// has them) against the generic formulas, limb for limb: on Jacobian points `k·G` with
/// varied `Z`, their negatives, the identities `(1 : 1 : 0)` and `(0 : Y : 0)`, and through
/// every pair of them (equal points, opposite points, identity on either side).
#[cfg(test)]
pub(crate) fn check_point_hooks<F: Field, S: Field>(c: &Curve<'_, F, S>) {
    let f = c.fp;
    let len = c.params.len;
    let enc = |p: &[F::E; 3]| {
        let mut out = [0u8; 3 * MAX_LEN];
        for (chunk, e) in out.chunks_mut(MAX_LEN).zip(p) {
            f.to_be(e, &mut chunk[..len]);
        }
        out
    };
    // Deterministic pseudo-random bytes (xorshift).
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut bytes = || {
        let mut out = [0u8; MAX_LEN];
        for b in &mut out[..len] {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *b = state as u8;
        }
        out
    };
    let mut points = std::vec![[f.one(), f.one(), f.zero()], [f.zero(), f.one(), f.zero()]];
    for i in 0..12 {
        let mut k = bytes();
        k[0] &= 0x7f;
        let p = c.mul_base(&k[..len]);
        // To Jacobian with a factor λ: (λ²·XZ : λ³·YZ² : λ·Z).
        let l = f.import_be_reduce(&bytes()[..len]);
        let l2 = f.sqr(&l);
        let zz = f.sqr(&p.z);
        let j = [
            f.mul(&l2, &f.mul(&p.x, &p.z)),
            f.mul(&f.mul(&l2, &l), &f.mul(&p.y, &zz)),
            f.mul(&l, &p.z),
        ];
        points.push(j);
        points.push([j[0], f.neg(&j[1]), j[2]]);
        if i == 0 {
            // The same point with another Z, and its double.
            let l = f.add(&l, &f.one());
            let l2 = f.sqr(&l);
            points.push([f.mul(&l2, &j[0]), f.mul(&f.mul(&l2, &l), &j[1]), f.mul(&l, &j[2])]);
            points.push(c.jac_double_formula(&j));
        }
    }
    let mut hooked = [0; 3];
    for p in &points {
        let mut d = *p;
        if f.jac_double(&mut d) {
            hooked[0] += 1;
            assert!(enc(&d) == enc(&c.jac_double_formula(p)), "jac_double");
        }
        for q in &points {
            if let Some((sum, same)) = f.jac_add(p, q) {
                hooked[2] += 1;
                let (want, want_same) = c.jac_add_formula(p, q);
                assert!(enc(&sum) == enc(&want), "jac_add");
                assert!(same.unwrap_u8() == want_same.unwrap_u8(), "jac_add flag");
            }
            // q made affine (the identity's affine coordinates are zeros), and p + q.
            let (qx, qy, _) = c.to_affine(&c.jacobian_to_proj(&q[0], &q[1], &q[2]));
            if let Some((sum, same)) = f.jac_add_affine(p, &qx, &qy) {
                hooked[1] += 1;
                let (want, want_same) = c.jac_add_affine_formula(p, &qx, &qy);
                assert!(enc(&sum) == enc(&want), "jac_add_affine");
                assert!(same.unwrap_u8() == want_same.unwrap_u8(), "jac_add_affine flag");
            }
        }
    }
    // The comb step on a few rows, every digit, every point (the identities included).
    let table = f.comb();
    let entries = c.full_comb_window().map_or(8, |w| 1 << (w - 1));
    let mut combs = 0;
    for r in [0, 1, 17, 40] {
        let Some(row) = table.get(entries * r..entries * (r + 1)) else { continue };
        for p in &points {
            for digit in -(entries as i8)..=entries as i8 {
                let mut acc = *p;
                if f.comb_add(&mut acc, row, digit) {
                    combs += 1;
                    let mut want = *p;
                    c.comb_step(&mut want, row, digit, false);
                    assert!(enc(&acc) == enc(&want), "comb_add, row {r}, digit {digit}");
                }
            }
        }
    }
    std::eprintln!(
        "whole-point routines checked: {} doublings, {} mixed and {} full additions, {} comb steps",
        hooked[0],
        hooked[1],
        hooked[2],
        combs
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`recode_window`] bit by bit, as it was first written.
    fn recode_window_bitwise(k: &[u8], d: &mut [i8], w: usize) {
        let bit = |i: usize| match k.len().checked_sub(1 + i / 8) {
            Some(at) => (k[at] >> (i % 8)) & 1,
            None => 0,
        };
        let mut carry = 0u8;
        for (i, slot) in d.iter_mut().enumerate() {
            let mut v = carry;
            for b in 0..w {
                v += bit(w * i + b) << b;
            }
            carry = (v + (1 << (w - 1)) - 1) >> w;
            *slot = v.cast_signed() - (carry << w).cast_signed();
        }
    }

    /// [`wnaf`] as it was first written: a bit at a time, the digit subtracted from (or its
    /// magnitude added to) the whole number, which is then shifted right by one.
    fn wnaf_shifting(k: &[u8], out: &mut [i8], width: u32) -> usize {
        let mut w = [0u32; MAX_LEN / 4 + 2];
        for (i, &b) in k.iter().rev().enumerate() {
            w[i / 4] |= u32::from(b) << (8 * (i % 4));
        }
        let mut len = 0;
        let mut i = 0;
        while w.iter().any(|&x| x != 0) && i < out.len() {
            if w[0] & 1 == 1 {
                let mut digit = (w[0] & ((1 << width) - 1)).cast_signed();
                if digit > 1 << (width - 1) {
                    digit -= 1 << width;
                }
                if digit > 0 {
                    w[0] -= digit.cast_unsigned();
                } else {
                    let mut carry = digit.unsigned_abs();
                    for word in &mut w {
                        let (s, c) = word.overflowing_add(carry);
                        *word = s;
                        carry = u32::from(c);
                    }
                }
                out[i] = digit as i8;
                len = i + 1;
            }
            for j in 0..w.len() {
                let next = w.get(j + 1).copied().unwrap_or(0);
                w[j] = (w[j] >> 1) | (next << 31);
            }
            i += 1;
        }
        len
    }

    /// Checks [`wnaf`]'s digits against [`wnaf_shifting`]'s and against the NAF's
    /// definition: odd, below `2^(width−1)` in magnitude, `width − 1` zeros after each,
    /// summing to `k`.
    fn check_wnaf(k: &[u8], width: u32) {
        let (mut got, mut want) = ([0x55i8; 8 * MAX_LEN + 1], [0i8; 8 * MAX_LEN + 1]);
        let len = wnaf(k, &mut got, width);
        assert_eq!(len, wnaf_shifting(k, &mut want, width), "k {k:02x?}, width {width}");
        assert_eq!(got, want, "k {k:02x?}, width {width}");
        // Σ d[i]·2^i in 32-bit words, two's complement.
        let mut sum = [0u32; MAX_LEN / 4 + 2];
        let mut last = None;
        for (i, &d) in got.iter().enumerate().filter(|&(_, &d)| d != 0) {
            assert!(d % 2 != 0 && d.unsigned_abs() < 1 << (width - 1), "digit {d}");
            assert!(last.is_none_or(|l| i >= l + width as usize), "digits too close");
            last = Some(i);
            let add = i64::from(d) << (i % 32);
            let mut carry = add;
            for word in &mut sum[i / 32..] {
                let v = i64::from(*word) + carry;
                *word = v.cast_unsigned() as u32;
                carry = v >> 32;
            }
        }
        let mut expect = [0u32; MAX_LEN / 4 + 2];
        for (i, &b) in k.iter().rev().enumerate() {
            expect[i / 4] |= u32::from(b) << (8 * (i % 4));
        }
        assert_eq!(sum, expect, "k {k:02x?}, width {width}: digits do not sum to k");
    }

    proptest! {
        #[test]
        fn wnaf_matches_shifting(
            k in proptest::collection::vec(any::<u8>(), 0..=MAX_LEN),
            width in 2u32..=8,
        ) {
            check_wnaf(&k, width);
        }

        #[test]
        fn recode_window_matches_bitwise(
            k in proptest::collection::vec(any::<u8>(), 66),
            len in prop::sample::select(std::vec![32usize, 48, 66]),
            w in 4usize..=5,
        ) {
            let k = &k[..len];
            let n = full_comb_rows(len, w);
            let (mut got, mut want) = ([0i8; MAX_DIGITS], [0i8; MAX_DIGITS]);
            recode_window(k, &mut got[..n], w);
            recode_window_bitwise(k, &mut want[..n], w);
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn wnaf_edges() {
        for len in [0, 1, 32, 48, 66] {
            // The top bit alone.
            let mut top = std::vec![0u8; len];
            if let Some(b) = top.first_mut() {
                *b = 0x80;
            }
            for width in 2..=8 {
                check_wnaf(&top, width);
                for fill in [0u8, 0xff, 0x80, 0x01, 0x55, 0xaa, 0x7f] {
                    check_wnaf(&std::vec![fill; len], width);
                }
            }
        }
        // Too short an output drops the top digits and stays in bounds; a scalar longer
        // than any curve's is read up to MAX_LEN bytes.
        let mut short = [0i8; 7];
        assert!(wnaf(&[0xff; 32], &mut short, 5) <= 7);
        let mut out = [0i8; 8 * MAX_LEN + 1];
        assert!(wnaf(&[0xff; 100], &mut out, 5) <= out.len());
    }

    #[test]
    fn recode_window_edges() {
        for len in [32, 48, 66] {
            for fill in [0u8, 0xff, 0x80, 0x0f] {
                let k = std::vec![fill; len];
                for w in [4, 5] {
                    let n = full_comb_rows(len, w);
                    let (mut got, mut want) = ([0i8; MAX_DIGITS], [0i8; MAX_DIGITS]);
                    recode_window(&k, &mut got[..n], w);
                    recode_window_bitwise(&k, &mut want[..n], w);
                    assert_eq!(got, want, "len {len}, fill {fill:#x}, w {w}");
                }
            }
        }
    }
}
