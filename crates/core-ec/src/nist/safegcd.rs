//! Constant-time inversion modulo any odd modulus of up to 521 bits by Bernstein and Yang's
//! "safegcd" (2019), in the half-delta form (`delta` starts at 1/2) whose iteration bound
//! Wuille computed (`safegcd-bounds`): `⌊(3787·b + 2166)/1644⌋` division steps for a `b`-bit
//! modulus (591 for 256 bits, 885 for 384, 1201 for 521). The steps go in batches of 60 (the
//! last one shorter), each worked out on the low 64 bits of `f` and `g` alone as a 2×2
//! transition matrix that is then applied to the full values in signed radix-2^62 limbs; `L` is
//! the limb count. A batch is two rounds of 30 steps whose matrix rows fit a word each (half
//! the matrix work per step), on `x86_64` in `asm!` with conditional moves. No branch or
//! memory index depends on the input. For P-256's scalars this is several times faster than
//! the 256 squarings of a Fermat power, which a latency-bound Montgomery product cannot
//! overlap. Verification, whose inputs are public, has a
//! variable-time variant that skips runs of zeros and cancels several bits per step.
//!
//! It is the crate's one divstep implementation: [`curve25519::safegcd`](crate::curve25519)
//! inverts modulo 2^255 − 19 through it, with p's constants in a `Modulus<5>`.

// Limb-indexed loops read as the textbook algorithms do.
#![allow(clippy::needless_range_loop)]

const M62: u64 = u64::MAX >> 2;

/// The scale of a batch's transition matrix, 2^62, matching the limbs (and the steps of a
/// variable-time batch).
const STEPS: usize = 62;

/// An odd modulus `m` in signed radix 2^62 (`L` limbs, enough for `m` and a sign), with what
/// the inversion needs, computed at compile time.
#[derive(Debug)]
pub(crate) struct Modulus<const L: usize> {
    /// `m`, limbs 0 to `L − 2` in `0..2^62`.
    m: [i64; L],
    /// `m⁻¹ mod 2^62`.
    m_inv62: u64,
    /// Batches of division steps that reach `g = 0` for every input below `m`: all but the
    /// last have [`BATCH`].
    batches: usize,
    /// The last batch's steps (1 to [`BATCH`]), so the total is the bound, not a multiple of
    /// the batch.
    last: usize,
}

impl<const L: usize> Modulus<L> {
    /// The constants for the odd modulus with little-endian 64-bit limbs `m` (panics at compile
    /// time if it does not fit `L` signed limbs or is even).
    pub(crate) const fn new(m: &[u64]) -> Self {
        assert!(m[0] & 1 == 1, "even modulus");
        // The bit length b.
        let mut bits = 64 * m.len();
        let mut i = m.len();
        while i > 0 && m[i - 1] == 0 {
            bits -= 64;
            i -= 1;
        }
        assert!(i > 0, "zero modulus");
        bits -= m[i - 1].leading_zeros() as usize;
        // (−2m, m) must fit with a sign bit to spare: 62(L − 1) + 63 bits signed.
        assert!(bits + 2 < 62 * (L - 1) + 63, "modulus too long for L limbs");
        assert!(bits >= 23, "the bound below needs m ≥ 4257874");
        // Wuille's hddivsteps bound for 0 ≤ g ≤ f < 2^b (verified for b ≤ 3805).
        let steps = (3787 * bits + 2166) / 1644;
        let batches = steps.div_ceil(BATCH);
        let limbs = to_signed::<L>(m);
        // Newton's iteration for m⁻¹ mod 2^64; m is its own inverse mod 8.
        let mut inv = m[0];
        let mut k = 0;
        while k < 6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(m[0].wrapping_mul(inv)));
            k += 1;
        }
        let last = steps - BATCH * (batches - 1);
        Self { m: limbs, m_inv62: inv & M62, batches, last }
    }
}

/// The little-endian limbs `x` in signed radix 2^62: limb `i` holds bits `62i` to `62i + 61`,
/// the top limb all the rest.
const fn to_signed<const L: usize>(x: &[u64]) -> [i64; L] {
    let mut out = [0i64; L];
    let mut i = 0;
    while i < L {
        let bit = 62 * i;
        let (w, s) = (bit / 64, bit % 64);
        let mut v = 0u64;
        if w < x.len() {
            v = x[w] >> s;
            if s > 0 && w + 1 < x.len() {
                v |= x[w + 1] << (64 - s);
            }
        }
        // The top limb takes the rest (the callers' values fit in 63 bits there).
        if i + 1 < L {
            v &= M62;
        }
        out[i] = v.cast_signed();
        i += 1;
    }
    out
}

/// The 64-bit little-endian limbs of `d`, which is in [0, m): limbs 0 to `L − 2` in
/// `0..2^62`, the top one non-negative.
fn from_signed<const L: usize>(d: &[i64; L], out: &mut [u64]) {
    for (k, o) in out.iter_mut().enumerate() {
        let bit = 64 * k;
        let (i, s) = (bit / 62, bit % 62);
        let mut w = d[i].cast_unsigned() >> s;
        // s = 2k mod 62 is at most 60, so two limbs cover the 64 bits.
        if i + 1 < L {
            w |= d[i + 1].cast_unsigned() << (62 - s);
        }
        *o = w;
    }
}

/// `steps` (at most 62, public) division steps on the low bits of `f` (odd) and `g`, in the
/// `zeta = −(delta + 1/2)` form: the new `zeta` and the transition matrix `(u, v, q, r)`
/// scaled by 2^62, such that `2^62·(f', g') = (u·f + v·g, q·f + r·g)`. One unpacked batch,
/// what [`divsteps_batch`] is checked against.
#[cfg(test)]
fn divsteps(mut zeta: i64, f0: u64, g0: u64, steps: usize) -> (i64, [i64; 4]) {
    // Starting from 2^(62 − steps), `steps` doublings make the scale 2^62; every row keeps
    // |u| + |v| ≤ 2^(62 − steps + i) after i steps, so the entries fit.
    let one = 1u64 << (STEPS - steps);
    let (mut u, mut v, mut q, mut r) = (one, 0u64, 0u64, one);
    let (mut f, mut g) = (f0, g0);
    for _ in 0..steps {
        // c1: zeta < 0 (delta > 0); c2: g odd. Both are all-ones or zero masks.
        let c1 = (zeta >> 63).cast_unsigned();
        let c2 = (g & 1).wrapping_neg();
        // g, q, r += (f, u, v), negated if zeta < 0, when g is odd.
        let x = (f ^ c1).wrapping_sub(c1);
        let y = (u ^ c1).wrapping_sub(c1);
        let z = (v ^ c1).wrapping_sub(c1);
        g = g.wrapping_add(x & c2);
        q = q.wrapping_add(y & c2);
        r = r.wrapping_add(z & c2);
        // When both hold, the step swaps: zeta = −zeta − 2 and (f, u, v) = old (g, q, r),
        // which is (f, u, v) + new (g, q, r); otherwise zeta = zeta − 1.
        let c = c1 & c2;
        zeta = (zeta ^ c.cast_signed()) - 1;
        f = f.wrapping_add(g & c);
        u = u.wrapping_add(q & c);
        v = v.wrapping_add(r & c);
        // g is even now: halve it, and double (u, v) instead of halving (q, r).
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    (zeta, [u.cast_signed(), v.cast_signed(), q.cast_signed(), r.cast_signed()])
}

/// Division steps per batch of the constant-time inversion: two rounds of [`ROUND`], the
/// matrix then scaled by 2^2 to the limbs' 2^62.
const BATCH: usize = 2 * ROUND;

/// Division steps per round: the transition matrix entries stay within ±2^30, so `(u, v)` and
/// `(q, r)` each fit one 64-bit word (`u + 2^32·v`), and every step updates two words of
/// matrix instead of four.
const ROUND: usize = 30;

/// `steps` (at most [`ROUND`], public) division steps on the low bits of `f` (odd) and `g`, in
/// the `zeta = −(delta + 1/2)` form, with the matrix rows packed two entries to a word: the new
/// `zeta`, `f` and `g` (their low `64 − steps` bits right) and the transition matrix
/// `(u, v, q, r)` scaled by 2^steps, `2^steps·(f', g') = (u·f + v·g, q·f + r·g)`.
/// Portable Rust on masks; on `x86_64` [`divsteps_packed`] runs the same steps in `asm!`.
#[cfg_attr(all(target_arch = "x86_64", feature = "asm"), allow(dead_code))]
#[inline(always)]
fn divsteps_packed_masks(
    mut zeta: i64,
    mut f: u64,
    mut g: u64,
    steps: usize,
) -> (i64, u64, u64, [i64; 4]) {
    // (u, v) = (1, 0) and (q, r) = (0, 1); |u| + |v| ≤ 2^i after i steps.
    let mut uv = 1u64;
    let mut qr = 1u64 << 32;
    for _ in 0..steps {
        // c1: zeta < 0 (delta > 0); c2: g odd. Both are all-ones or zero masks.
        let c1 = (zeta >> 63).cast_unsigned();
        let c2 = (g & 1).wrapping_neg();
        // g, (q, r) += f, (u, v), negated if zeta < 0, when g is odd.
        let x = (f ^ c1).wrapping_sub(c1);
        let y = (uv ^ c1).wrapping_sub(c1);
        g = g.wrapping_add(x & c2);
        qr = qr.wrapping_add(y & c2);
        // When both hold, the step swaps: zeta = −zeta − 2 and (f, u, v) = old (g, q, r),
        // which is (f, u, v) + new (g, q, r); otherwise zeta = zeta − 1.
        let c = c1 & c2;
        zeta = (zeta ^ c.cast_signed()) - 1;
        f = f.wrapping_add(g & c);
        uv = uv.wrapping_add(qr & c);
        // g is even now: halve it, and double (u, v) instead of halving (q, r).
        g >>= 1;
        uv <<= 1;
    }
    let [u, v] = unpack(uv);
    let [q, r] = unpack(qr);
    (zeta, f, g, [u, v, q, r])
}

/// [`divsteps_packed_masks`].
#[cfg(not(all(target_arch = "x86_64", feature = "asm")))]
#[inline(always)]
fn divsteps_packed(zeta: i64, f: u64, g: u64, steps: usize) -> (i64, u64, u64, [i64; 4]) {
    divsteps_packed_masks(zeta, f, g, steps)
}

/// [`divsteps_packed_masks`] in assembly with conditional moves
/// (`core_asm::x86_64::ec::safegcd`): four cycles per step where the masks took five or six.
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
#[inline(always)]
fn divsteps_packed(zeta: i64, f: u64, g: u64, steps: usize) -> (i64, u64, u64, [i64; 4]) {
    let (zeta, f, g, uv, qr) = core_asm::x86_64::ec::safegcd::divsteps_packed(zeta, f, g, steps);
    let [u, v] = unpack(uv);
    let [q, r] = unpack(qr);
    (zeta, f, g, [u, v, q, r])
}

/// The two entries of a packed word `a + 2^32·b`, `a, b` in `−2^31..2^31`.
#[inline(always)]
fn unpack(w: u64) -> [i64; 2] {
    let w = w.cast_signed();
    let b = (w + (1 << 31)) >> 32;
    [w - (b << 32), b]
}

/// `steps` (at most [`BATCH`], public) division steps as two packed rounds: the new `zeta`
/// and the transition matrix scaled by 2^62, as `divsteps` gives it.
#[inline(always)]
fn divsteps_batch(zeta: i64, f: u64, g: u64, steps: usize) -> (i64, [i64; 4]) {
    let first = steps.min(ROUND);
    let (zeta, f, g, [u1, v1, q1, r1]) = divsteps_packed(zeta, f, g, first);
    let (zeta, _, _, [u2, v2, q2, r2]) = divsteps_packed(zeta, f, g, steps - first);
    // The product of the two matrices (entries within ±2^steps), scaled up to 2^62.
    let s = STEPS - steps;
    let m = [u2 * u1 + v2 * q1, u2 * v1 + v2 * r1, q2 * u1 + r2 * q1, q2 * v1 + r2 * r1];
    (zeta, m.map(|e| e << s))
}

/// 62 division steps of the original form (`eta = −delta`, starting at −1) on the low bits of
/// `f` (odd) and `g`, for public inputs only: runs of zeros are skipped at once and up to six
/// bits of `g` cancelled by one multiple of `f`, so the time depends on the values. The same
/// scaled matrix as `divsteps`.
fn divsteps_vartime(mut eta: i64, f0: u64, g0: u64) -> (i64, [i64; 4]) {
    let (mut u, mut v, mut q, mut r) = (1u64, 0u64, 0u64, 1u64);
    let (mut f, mut g) = (f0, g0);
    // Steps left.
    let mut i = STEPS as u32;
    loop {
        // The zeros at the bottom of g are steps that only halve it (at most i of them).
        let zeros = (g | (u64::MAX << i)).trailing_zeros();
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= i64::from(zeros);
        i -= zeros;
        if i == 0 {
            break;
        }
        // f and g are odd. With delta > 0 the step swaps: (f, g) = (g, −f), delta negated;
        // what is left of it is then the non-swapping (g + f)/2.
        if eta < 0 {
            eta = -eta;
            (f, g) = (g, f.wrapping_neg());
            (u, v, q, r) = (q, r, u.wrapping_neg(), v.wrapping_neg());
        }
        // The next `limit` steps cannot swap (delta stays ≤ 0): add the multiple `w·f` that
        // clears that many low bits of g, as those steps' additions of f would.
        let limit = i.min(6).min(u32::try_from(eta + 1).unwrap_or(u32::MAX));
        let mask = (u64::MAX >> (64 - limit)) & 63;
        // f⁻¹ mod 64 by one Newton step from f⁻¹ ≡ f (mod 8).
        let f_inv = f.wrapping_mul(2u64.wrapping_sub(f.wrapping_mul(f)));
        let w = g.wrapping_mul(f_inv).wrapping_neg() & mask;
        g = g.wrapping_add(f.wrapping_mul(w));
        q = q.wrapping_add(u.wrapping_mul(w));
        r = r.wrapping_add(v.wrapping_mul(w));
    }
    (eta, [u.cast_signed(), v.cast_signed(), q.cast_signed(), r.cast_signed()])
}

/// `mask` (all ones or zero, from a secret sign) hidden from the optimiser, which otherwise
/// turns `x & mask` into a branch on the sign: the shared barrier
/// ([`core_asm::ct::value_barrier_i64`]; in a register on `x86_64` with `asm`).
#[inline(always)]
fn opaque(mask: i64) -> i64 {
    core_asm::ct::value_barrier_i64(mask)
}

impl<const L: usize> Modulus<L> {
    /// `(f, g) = (u·f + v·g, q·f + r·g) / 2^62`, exactly.
    #[inline(always)]
    fn update_fg(f: &mut [i64; L], g: &mut [i64; L], t: [i64; 4]) {
        let [u, v, q, r] = t.map(i128::from);
        let mut cf = u * i128::from(f[0]) + v * i128::from(g[0]);
        let mut cg = q * i128::from(f[0]) + r * i128::from(g[0]);
        cf >>= 62;
        cg >>= 62;
        for i in 1..L {
            cf += u * i128::from(f[i]) + v * i128::from(g[i]);
            cg += q * i128::from(f[i]) + r * i128::from(g[i]);
            f[i - 1] = ((cf as i64).cast_unsigned() & M62).cast_signed();
            g[i - 1] = ((cg as i64).cast_unsigned() & M62).cast_signed();
            cf >>= 62;
            cg >>= 62;
        }
        f[L - 1] = cf as i64;
        g[L - 1] = cg as i64;
    }

    /// `(d, e) = (u·d + v·e, q·d + r·e) / 2^62 mod m`, kept in (−2m, m): multiples of m chosen
    /// to clear the low 62 bits are added first (plus one more m for each negative input).
    #[inline(always)]
    fn update_de(&self, d: &mut [i64; L], e: &mut [i64; L], t: [i64; 4]) {
        let [u, v, q, r] = t;
        let sd = opaque(d[L - 1] >> 63);
        let se = opaque(e[L - 1] >> 63);
        let mut md = (u & sd) + (v & se);
        let mut me = (q & sd) + (r & se);
        let [u, v, q, r] = t.map(i128::from);
        let mut cd = u * i128::from(d[0]) + v * i128::from(e[0]);
        let mut ce = q * i128::from(d[0]) + r * i128::from(e[0]);
        md -= (self
            .m_inv62
            .wrapping_mul((cd as i64).cast_unsigned())
            .wrapping_add(md.cast_unsigned())
            & M62)
            .cast_signed();
        me -= (self
            .m_inv62
            .wrapping_mul((ce as i64).cast_unsigned())
            .wrapping_add(me.cast_unsigned())
            & M62)
            .cast_signed();
        let (md, me) = (i128::from(md), i128::from(me));
        cd += i128::from(self.m[0]) * md;
        ce += i128::from(self.m[0]) * me;
        cd >>= 62;
        ce >>= 62;
        for i in 1..L {
            cd += u * i128::from(d[i]) + v * i128::from(e[i]) + i128::from(self.m[i]) * md;
            ce += q * i128::from(d[i]) + r * i128::from(e[i]) + i128::from(self.m[i]) * me;
            d[i - 1] = ((cd as i64).cast_unsigned() & M62).cast_signed();
            e[i - 1] = ((ce as i64).cast_unsigned() & M62).cast_signed();
            cd >>= 62;
            ce >>= 62;
        }
        d[L - 1] = cd as i64;
        e[L - 1] = ce as i64;
    }

    /// Carries limbs 0 to `L − 2` into the next, leaving them in 0..2^62.
    #[inline(always)]
    fn propagate(r: &mut [i64; L]) {
        for i in 0..L - 1 {
            r[i + 1] += r[i] >> 62;
            r[i] &= M62.cast_signed();
        }
    }

    /// `r` in (−2m, m), negated when `negate` is all ones, reduced to [0, m).
    #[inline(always)]
    fn normalize(&self, r: &mut [i64; L], negate: i64) {
        let negate = opaque(negate);
        let add = opaque(r[L - 1] >> 63);
        for (ri, mi) in r.iter_mut().zip(self.m) {
            *ri += mi & add;
        }
        for ri in r.iter_mut() {
            *ri = (*ri ^ negate) - negate;
        }
        Self::propagate(r);
        let add = opaque(r[L - 1] >> 63);
        for (ri, mi) in r.iter_mut().zip(self.m) {
            *ri += mi & add;
        }
        Self::propagate(r);
    }

    /// `c·x⁻¹ mod m` (zero for `x = 0`) for `x, c < m` as little-endian 64-bit limbs (`out`
    /// the same length), in constant time. With `c = R² mod m` this inverts in Montgomery
    /// form: `(aR)⁻¹·R² = a⁻¹R`.
    #[inline]
    pub(crate) fn mul_inverse(&self, x: &[u64], c: &[u64], out: &mut [u64]) {
        let mut g = to_signed::<L>(x);
        let mut e = to_signed::<L>(c);
        let mut f = self.m;
        let mut d = [0i64; L];
        let mut zeta = -1;
        // Invariant: d·x ≡ c·f and e·x ≡ c·g (mod m); at the end g = 0 and f = ±1 (gcd(x, m)
        // = 1 unless x = 0, where d stays 0).
        for i in 0..self.batches {
            let steps = if i + 1 == self.batches { self.last } else { BATCH };
            let (z, t) = divsteps_batch(zeta, f[0].cast_unsigned(), g[0].cast_unsigned(), steps);
            zeta = z;
            self.update_de(&mut d, &mut e, t);
            Self::update_fg(&mut f, &mut g, t);
        }
        self.normalize(&mut d, f[L - 1] >> 63);
        from_signed(&d, out);
        zeroize::Zeroize::zeroize(&mut d);
        zeroize::Zeroize::zeroize(&mut e);
        zeroize::Zeroize::zeroize(&mut g);
    }
}

impl<const L: usize> Modulus<L> {
    /// [`Self::mul_inverse`] for public `x` (verification's `s`): batches of
    /// [`divsteps_vartime`] until `g = 0`, so the time depends on `x`.
    pub(crate) fn mul_inverse_vartime(&self, x: &[u64], c: &[u64], out: &mut [u64]) {
        let mut g = to_signed::<L>(x);
        let mut e = to_signed::<L>(c);
        let mut f = self.m;
        let mut d = [0i64; L];
        let mut eta = -1;
        // g = 0 comes within the original divsteps' bound (⌊(49b + 57)/17⌋ steps for b
        // bits, under twice the constant-time count); the cap only guards the loop.
        for _ in 0..2 * self.batches + 2 {
            if g.iter().all(|&l| l == 0) {
                break;
            }
            let (z, t) = divsteps_vartime(eta, f[0].cast_unsigned(), g[0].cast_unsigned());
            eta = z;
            self.update_de(&mut d, &mut e, t);
            Self::update_fg(&mut f, &mut g, t);
        }
        self.normalize(&mut d, f[L - 1] >> 63);
        from_signed(&d, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nist::{Field, Modulus64};
    use proptest::prelude::*;
    use std::vec::Vec;

    /// Big-endian bytes to little-endian limbs.
    fn limbs<const N: usize>(be: &[u8]) -> [u64; N] {
        let mut x = [0u64; N];
        for (i, &b) in be.iter().rev().enumerate() {
            x[i / 8] |= u64::from(b) << (8 * (i % 8));
        }
        x
    }

    /// `x⁻¹ mod m` by safegcd against Fermat in [`Fixed64`](crate::nist::Fixed64) (its
    /// default trait `invert`), both taken out of Montgomery form, for a value `x` below `m`.
    fn check<M: Modulus64<N>, const N: usize, const L: usize>(x_be: &[u8]) {
        let f = crate::nist::Fixed64::<M, N>::new();
        let modulus = Modulus::<L>::new(&limbs::<N>(f.modulus()));
        let (xm, ok) = f.import_be(x_be);
        assert!(bool::from(ok));
        let mut one = [0u64; N];
        one[0] = 1;
        let x = limbs::<N>(x_be);
        let mut got = [0u64; N];
        modulus.mul_inverse(&x, &one, &mut got);
        let mut got_vartime = [0u64; N];
        modulus.mul_inverse_vartime(&x, &one, &mut got_vartime);
        assert_eq!(got, got_vartime, "{x_be:02x?}");
        let want_m = Field::pow_public(&f, &xm, &minus_two(f.modulus()));
        let mut want = [0u8; 66];
        let len = f.modulus().len();
        f.to_be(&want_m, &mut want[..len]);
        assert_eq!(got, limbs::<N>(&want[..len]), "{x_be:02x?}");
        // And x·x⁻¹ = 1 unless x = 0.
        let (gm, _) = f.import_be(&be(&got, len));
        let prod = f.mul(&gm, &xm);
        assert_eq!(bool::from(f.eq(&prod, &f.one())), !x.iter().all(|&w| w == 0));
    }

    fn be<const N: usize>(x: &[u64; N], len: usize) -> Vec<u8> {
        let mut out: Vec<u8> = x.iter().rev().flat_map(|w| w.to_be_bytes()).collect();
        out.drain(..8 * N - len);
        out
    }

    fn minus_two(m: &[u8]) -> Vec<u8> {
        let mut e = m.to_vec();
        let mut borrow = 2u16;
        for b in e.iter_mut().rev() {
            let v = u16::from(*b).wrapping_sub(borrow);
            *b = v as u8;
            borrow = (v >> 15) & 1;
        }
        e
    }

    /// Edge values for a modulus: 0, 1, 2, 3, m − 1, m − 2, (m − 1)/2, 2^k.
    fn edges(m: &[u8]) -> Vec<Vec<u8>> {
        let len = m.len();
        let small = |v: u8| {
            let mut x = std::vec![0u8; len];
            x[len - 1] = v;
            x
        };
        let sub = |k: u16| {
            let mut e = m.to_vec();
            let mut borrow = k;
            for b in e.iter_mut().rev() {
                let v = u16::from(*b).wrapping_sub(borrow);
                *b = v as u8;
                borrow = (v >> 15) & 1;
            }
            e
        };
        let mut half = sub(1);
        let mut carry = 0;
        for b in &mut half {
            let next = *b & 1;
            *b = (*b >> 1) | (carry << 7);
            carry = next;
        }
        let mut out = std::vec![small(0), small(1), small(2), small(3), sub(1), sub(2), half];
        for k in (0..8 * len - 9).step_by(61) {
            let mut x = std::vec![0u8; len];
            x[len - 1 - k / 8] = 1 << (k % 8);
            out.push(x);
        }
        out
    }

    fn all_edges() {
        use crate::{p256, p384, p521};
        for x in edges(&p256::P_BYTES) {
            check::<p256::P, 4, 5>(&x);
        }
        for x in edges(<p256::Q as Modulus64<4>>::MONT.modulus_be()) {
            check::<p256::Q, 4, 5>(&x);
        }
        for x in edges(<p384::P as Modulus64<6>>::MONT.modulus_be()) {
            check::<p384::P, 6, 7>(&x);
        }
        for x in edges(<p384::Q as Modulus64<6>>::MONT.modulus_be()) {
            check::<p384::Q, 6, 7>(&x);
        }
        for x in edges(<p521::P as Modulus64<9>>::MONT.modulus_be()) {
            check::<p521::P, 9, 9>(&x);
        }
        for x in edges(<p521::Q as Modulus64<9>>::MONT.modulus_be()) {
            check::<p521::Q, 9, 9>(&x);
        }
    }

    #[test]
    fn matches_fermat_on_edge_values() {
        all_edges();
    }

    #[test]
    fn batch_counts() {
        // 591, 885 and 1201 steps.
        let counts = |b: usize, last: usize| BATCH * (b - 1) + last;
        let m = Modulus::<5>::new(&[u64::MAX; 4]);
        assert_eq!(counts(m.batches, m.last), 591);
        let m = Modulus::<7>::new(&[u64::MAX; 6]);
        assert_eq!(counts(m.batches, m.last), 885);
        let mut limbs = [u64::MAX; 9];
        limbs[8] = 0x1ff;
        let m = Modulus::<9>::new(&limbs);
        assert_eq!(counts(m.batches, m.last), 1201);
    }

    /// A value below the big-endian modulus `m`: `x` with its top byte cleared.
    fn below(m: &[u8], x: &[u8]) -> Vec<u8> {
        let mut v = x[..m.len()].to_vec();
        v[0] &= m[0] >> 1;
        v
    }

    proptest! {
        // A handful of cases under Miri (no failure file: Miri isolates the file system).
        #![proptest_config(if cfg!(miri) {
            ProptestConfig { cases: 4, failure_persistence: None, ..ProptestConfig::default() }
        } else {
            ProptestConfig::default()
        })]

        /// The packed two-round batch against one unpacked batch of as many steps, on any
        /// low words (`f` odd) and any `zeta` a run can reach.
        #[test]
        fn packed_batch_matches_unpacked(
            f in any::<u64>(),
            g in any::<u64>(),
            zeta in -1200i64..1200,
            steps in 0usize..=BATCH,
        ) {
            let f = f | 1;
            prop_assert_eq!(divsteps_batch(zeta, f, g, steps), divsteps(zeta, f, g, steps));
        }

        /// The round that runs (`asm!` on `x86_64`) against the portable one on masks.
        #[test]
        fn packed_round_matches_masks(
            f in any::<u64>(),
            g in any::<u64>(),
            zeta in -1200i64..1200,
            steps in 0usize..=ROUND,
        ) {
            let f = f | 1;
            prop_assert_eq!(
                divsteps_packed(zeta, f, g, steps),
                divsteps_packed_masks(zeta, f, g, steps)
            );
        }

        #[test]
        fn matches_fermat_on_random_values(x in proptest::collection::vec(any::<u8>(), 66)) {
            use crate::{p256, p384, p521};
            check::<p256::P, 4, 5>(&below(&p256::P_BYTES, &x));
            check::<p256::Q, 4, 5>(&below(<p256::Q as Modulus64<4>>::MONT.modulus_be(), &x));
            check::<p384::P, 6, 7>(&below(<p384::P as Modulus64<6>>::MONT.modulus_be(), &x));
            check::<p384::Q, 6, 7>(&below(<p384::Q as Modulus64<6>>::MONT.modulus_be(), &x));
            check::<p521::P, 9, 9>(&below(<p521::P as Modulus64<9>>::MONT.modulus_be(), &x));
            check::<p521::Q, 9, 9>(&below(<p521::Q as Modulus64<9>>::MONT.modulus_be(), &x));
        }
    }
}
