//! Inversion modulo p = 2^255 − 19 by Bernstein and Yang's constant-time "safegcd" (2019): ten
//! batches of 59 division steps (590, enough for any input below 2^256), each batch worked
//! out on the low 64 bits of `f` and `g` alone as a 2×2 transition matrix that is then applied
//! to the full values in signed radix-2^62 limbs. No branch or memory index depends on the
//! input. About half the cost of the 254 squarings and 11 multiplications of Fermat's chain,
//! which a latency-bound 64-bit field cannot overlap. A variable-time variant for public
//! values (Ed25519 verification) skips runs of zero bits and stops as soon as `g` is zero.

/// A signed radix-2^62 number: `Σ v[i]·2^(62i)`, limbs 0 to 3 below 2^62 when normalised,
/// limb 4 signed.
type Signed62 = [i64; 5];

const M62: u64 = u64::MAX >> 2;

/// p in signed radix 2^62.
const P: Signed62 = [(1 << 62) - 19, (1 << 62) - 1, (1 << 62) - 1, (1 << 62) - 1, 127];

/// p^−1 mod 2^62.
const P_INV62: u64 = 0x3943_5e50_d794_35e5;

/// 59 division steps on the low bits of `f` (odd) and `g`, in the `zeta = −(delta + 1/2)` form:
/// the new `zeta` and the transition matrix `(u, v, q, r)` scaled by 2^62, such that
/// `2^62·(f', g') = (u·f + v·g, q·f + r·g)`.
fn divsteps_59(mut zeta: i64, f0: u64, g0: u64) -> (i64, [i64; 4]) {
    // Starting from 8 = 2^3, 59 doublings make the scale 2^62.
    let (mut u, mut v, mut q, mut r) = (8u64, 0u64, 0u64, 8u64);
    let (mut f, mut g) = (f0, g0);
    for _ in 0..59 {
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

/// `(f, g) = (u·f + v·g, q·f + r·g) / 2^62`, exactly.
fn update_fg(f: &mut Signed62, g: &mut Signed62, t: [i64; 4]) {
    let [u, v, q, r] = t.map(i128::from);
    let mut cf = u * i128::from(f[0]) + v * i128::from(g[0]);
    let mut cg = q * i128::from(f[0]) + r * i128::from(g[0]);
    cf >>= 62;
    cg >>= 62;
    for i in 1..5 {
        cf += u * i128::from(f[i]) + v * i128::from(g[i]);
        cg += q * i128::from(f[i]) + r * i128::from(g[i]);
        f[i - 1] = ((cf as i64).cast_unsigned() & M62).cast_signed();
        g[i - 1] = ((cg as i64).cast_unsigned() & M62).cast_signed();
        cf >>= 62;
        cg >>= 62;
    }
    f[4] = cf as i64;
    g[4] = cg as i64;
}

/// `(d, e) = (u·d + v·e, q·d + r·e) / 2^62 mod p`, kept in (−2p, p): multiples of p chosen to
/// clear the low 62 bits are added first (plus one more p for each negative input).
fn update_de(d: &mut Signed62, e: &mut Signed62, t: [i64; 4]) {
    let [u, v, q, r] = t;
    let sd = opaque(d[4] >> 63);
    let se = opaque(e[4] >> 63);
    let mut md = (u & sd) + (v & se);
    let mut me = (q & sd) + (r & se);
    let [u, v, q, r] = t.map(i128::from);
    let mut cd = u * i128::from(d[0]) + v * i128::from(e[0]);
    let mut ce = q * i128::from(d[0]) + r * i128::from(e[0]);
    md -= (P_INV62.wrapping_mul((cd as i64).cast_unsigned()).wrapping_add(md.cast_unsigned())
        & M62)
        .cast_signed();
    me -= (P_INV62.wrapping_mul((ce as i64).cast_unsigned()).wrapping_add(me.cast_unsigned())
        & M62)
        .cast_signed();
    let (md, me) = (i128::from(md), i128::from(me));
    cd += i128::from(P[0]) * md;
    ce += i128::from(P[0]) * me;
    cd >>= 62;
    ce >>= 62;
    for i in 1..5 {
        cd += u * i128::from(d[i]) + v * i128::from(e[i]) + i128::from(P[i]) * md;
        ce += q * i128::from(d[i]) + r * i128::from(e[i]) + i128::from(P[i]) * me;
        d[i - 1] = ((cd as i64).cast_unsigned() & M62).cast_signed();
        e[i - 1] = ((ce as i64).cast_unsigned() & M62).cast_signed();
        cd >>= 62;
        ce >>= 62;
    }
    d[4] = cd as i64;
    e[4] = ce as i64;
}

/// `mask` (all ones or zero, from a secret sign) hidden from the optimiser, which otherwise
/// turns `x & mask` into a branch on the sign.
#[inline(always)]
fn opaque(mask: i64) -> i64 {
    core::hint::black_box(mask)
}

/// Carries limbs 0 to 3 into the next, leaving them in 0..2^62.
fn propagate(r: &mut Signed62) {
    for i in 0..4 {
        r[i + 1] += r[i] >> 62;
        r[i] &= M62.cast_signed();
    }
}

/// `r` in (−2p, p), negated when `negate` is all ones, reduced to [0, p).
fn normalize(r: &mut Signed62, negate: i64) {
    let negate = opaque(negate);
    let add = opaque(r[4] >> 63);
    for (ri, pi) in r.iter_mut().zip(P) {
        *ri += pi & add;
    }
    for ri in r.iter_mut() {
        *ri = (*ri ^ negate) - negate;
    }
    propagate(r);
    let add = opaque(r[4] >> 63);
    for (ri, pi) in r.iter_mut().zip(P) {
        *ri += pi & add;
    }
    propagate(r);
}

/// `x^−1 mod p` (zero for zero) for `x` below p as four little-endian 64-bit words (the
/// 590-step bound holds for inputs below 2^256, but callers pass reduced values); the result
/// is fully reduced.
pub(crate) fn invert(x: &[u64; 4]) -> [u64; 4] {
    let mut g = to_signed62(x);
    let mut f = P;
    let (mut d, mut e): (Signed62, Signed62) = ([0; 5], [1, 0, 0, 0, 0]);
    let mut zeta = -1;
    for _ in 0..10 {
        let (z, t) = divsteps_59(zeta, f[0].cast_unsigned(), g[0].cast_unsigned());
        zeta = z;
        update_de(&mut d, &mut e, t);
        update_fg(&mut f, &mut g, t);
    }
    // f is ±1 now (gcd(x, p) = 1 unless x ≡ 0, where d is 0): d·f is the inverse.
    normalize(&mut d, f[4] >> 63);
    from_signed62(&d)
}

/// [`invert`] in variable time, for public inputs only (verification): batches of the NIST
/// fields' variable-time division steps
/// ([`divsteps_vartime`](crate::nist::safegcd::divsteps_vartime), the same 62-step matrix)
/// until `g` is zero, typically about half as many steps as the fixed 590 and cheaper ones.
pub(crate) fn invert_vartime(x: &[u64; 4]) -> [u64; 4] {
    let mut g = to_signed62(x);
    let mut f = P;
    let (mut d, mut e): (Signed62, Signed62) = ([0; 5], [1, 0, 0, 0, 0]);
    let mut eta = -1;
    while g != [0; 5] {
        let (n, t) =
            crate::nist::safegcd::divsteps_vartime(eta, f[0].cast_unsigned(), g[0].cast_unsigned());
        eta = n;
        update_de(&mut d, &mut e, t);
        update_fg(&mut f, &mut g, t);
    }
    // f is ±1 (or p itself for x ≡ 0, where d is 0): d·f is the inverse.
    normalize(&mut d, f[4] >> 63);
    from_signed62(&d)
}

/// Four little-endian 64-bit words below 2^256 in signed radix 2^62.
fn to_signed62(x: &[u64; 4]) -> Signed62 {
    [
        (x[0] & M62).cast_signed(),
        ((x[0] >> 62 | x[1] << 2) & M62).cast_signed(),
        ((x[1] >> 60 | x[2] << 4) & M62).cast_signed(),
        ((x[2] >> 58 | x[3] << 6) & M62).cast_signed(),
        (x[3] >> 56).cast_signed(),
    ]
}

/// A normalised value (limbs 0 to 3 in 0..2^62, limb 4 below 2^8) as four 64-bit words.
fn from_signed62(d: &Signed62) -> [u64; 4] {
    let w = d.map(i64::cast_unsigned);
    [w[0] | w[1] << 62, w[1] >> 2 | w[2] << 60, w[2] >> 4 | w[3] << 58, w[3] >> 6 | w[4] << 56]
}

/// [`invert`] on canonical little-endian bytes, as the field implementations' `to_bytes` gives
/// them.
pub(crate) fn invert_bytes(b: &[u8; 32]) -> [u8; 32] {
    bytes_map(b, invert)
}

/// [`invert_vartime`] on canonical little-endian bytes.
pub(crate) fn invert_bytes_vartime(b: &[u8; 32]) -> [u8; 32] {
    bytes_map(b, invert_vartime)
}

/// `op` on the little-endian words of `b`, back to bytes.
fn bytes_map(b: &[u8; 32], op: fn(&[u64; 4]) -> [u64; 4]) -> [u8; 32] {
    let w = core::array::from_fn(|i| {
        let mut limb = [0u8; 8];
        limb.copy_from_slice(&b[8 * i..8 * i + 8]);
        u64::from_le_bytes(limb)
    });
    let r = op(&w);
    let mut out = [0u8; 32];
    for (chunk, limb) in out.chunks_exact_mut(8).zip(r) {
        chunk.copy_from_slice(&limb.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve25519::Field;
    use crate::curve25519::portable32;

    fn words(b: &[u8; 32]) -> [u64; 4] {
        core::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap()))
    }

    fn bytes(w: &[u64; 4]) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (chunk, limb) in out.chunks_exact_mut(8).zip(w) {
            chunk.copy_from_slice(&limb.to_le_bytes());
        }
        out
    }

    #[test]
    fn matches_fermat() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        let mut p_minus_1 = [0xffu8; 32];
        p_minus_1[0] = 0xec;
        p_minus_1[31] = 0x7f;
        let mut one = [0u8; 32];
        one[0] = 1;
        // A handful under Miri, which runs this thousands of times slower.
        let cases = if cfg!(miri) { 8 } else { 2003 };
        for i in 0..cases {
            let c: [u8; 32] = match i {
                0 => [0; 32],
                1 => p_minus_1,
                2 => one,
                _ => core::array::from_fn(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                }),
            };
            let r = portable32::Fe::from_bytes(&c);
            let got = bytes(&invert(&words(&r.to_bytes())));
            assert_eq!(got, r.invert().to_bytes(), "{c:02x?}");
            let got = bytes(&invert_vartime(&words(&r.to_bytes())));
            assert_eq!(got, r.invert().to_bytes(), "vartime {c:02x?}");
        }
    }
}
