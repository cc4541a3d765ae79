//! `portable`: ML-KEM's ring arithmetic on signed 16-bit coefficients with Montgomery
//! multiplication (R = 2^16) and Barrett reduction, in plain Rust for every target; the
//! Cortex-M0 default, whose only multiplier is 32×32→32 bits.
//!
//! The NTT is FIPS 203 Algorithm 9 (seven Cooley–Tukey layers), its inverse Algorithm 10 with
//! Gentleman–Sande butterflies, and the product in T_q Algorithms 11–12, with the twiddle
//! factors ζ^BitRev7(i) kept in Montgomery form (`ZETAS`, computed at compile time). Nothing
//! branches on or indexes by a coefficient, and nothing divides: reductions are a multiply,
//! a shift and a subtraction.

use super::poly::{Poly, Q};

/// q^−1 mod 2^16, as a signed 16-bit value.
pub(super) const QINV: i16 = -3327;
/// R^2 mod q: a Montgomery product with it puts a value into Montgomery form.
pub(super) const R2: i16 = 1353;
/// R^2/128 mod q: the inverse NTT's final scaling by 1/128, leaving a factor R that cancels
/// the R^−1 of the products in T_q before it.
pub(super) const INV_NTT_SCALE: i16 = 1441;

/// `ZETAS[i]` = ζ^BitRev7(i)·R mod q with ζ = 17, centred in `-(q−1)/2..=(q−1)/2`.
pub(super) const ZETAS: [i16; 128] = {
    let mut z = [0i16; 128];
    let mut i = 0;
    while i < 128 {
        // BitRev7(i)
        let mut e = 0;
        let mut b = 0;
        while b < 7 {
            e |= ((i >> b) & 1) << (6 - b);
            b += 1;
        }
        let mut p: u32 = 1;
        let mut k = 0;
        while k < e {
            p = p * 17 % Q as u32;
            k += 1;
        }
        let m = (p << 16) % Q as u32;
        z[i] = if m > (Q as u32 - 1) / 2 { m as i16 - Q } else { m as i16 };
        i += 1;
    }
    z
};

/// `a·R^−1 mod q` in `-q+1..q` for `|a| < q·2^15`: Montgomery reduction.
#[inline(always)]
fn montgomery_reduce(a: i32) -> i16 {
    let t = (a as i16).wrapping_mul(QINV);
    ((a - i32::from(t) * i32::from(Q)) >> 16) as i16
}

/// `a·b·R^−1 mod q` in `-q+1..q`.
#[inline(always)]
fn fqmul(a: i16, b: i16) -> i16 {
    montgomery_reduce(i32::from(a) * i32::from(b))
}

/// The representative of `a mod q` in `-(q−1)/2..=(q−1)/2`: Barrett reduction with
/// ⌊2^26/q⌉ = 20159.
#[inline(always)]
fn barrett_reduce(a: i16) -> i16 {
    const V: i32 = ((1 << 26) + Q as i32 / 2) / Q as i32;
    let t = (V * i32::from(a) + (1 << 25)) >> 26;
    (i32::from(a) - t * i32::from(Q)) as i16
}

/// NTT (FIPS 203 Algorithm 9) in place: coefficients in `-q..q` in, the NTT in `-q..q`
/// (Barrett-reduced) out.
pub(crate) fn ntt(p: &mut Poly) {
    let mut zetas = ZETAS[1..].iter();
    let mut len = 128;
    while len >= 2 {
        // Each block of 2·len coefficients is split in halves and the halves zipped, so the
        // butterfly loop has no bounds check and the block count needs no division.
        let mut rest = &mut p.0[..];
        while let (Some(&zeta), Some((block, tail))) =
            (zetas.next(), rest.split_at_mut_checked(2 * len))
        {
            let (lo, hi) = block.split_at_mut(len);
            for (a, b) in lo.iter_mut().zip(hi) {
                let t = fqmul(zeta, *b);
                *b = a.wrapping_sub(t);
                *a = a.wrapping_add(t);
            }
            rest = tail;
            if rest.is_empty() {
                break;
            }
        }
        len >>= 1;
    }
    reduce(p);
}

/// NTT^−1 (FIPS 203 Algorithm 10) in place, times R: coefficients in `-8q..8q` in (reduced
/// first, so the first layer's sums stay within `i16`), the result in `-q..q` out. Applied to a
/// sum of [`basemul_acc`] products (which carry R^−1), it leaves the plain product.
pub(crate) fn inv_ntt(p: &mut Poly) {
    reduce(p);
    let mut zetas = ZETAS[1..].iter().rev();
    let mut len = 2;
    while len <= 128 {
        let mut rest = &mut p.0[..];
        while let (Some(&zeta), Some((block, tail))) =
            (zetas.next(), rest.split_at_mut_checked(2 * len))
        {
            let (lo, hi) = block.split_at_mut(len);
            for (a, b) in lo.iter_mut().zip(hi) {
                let t = *a;
                *a = barrett_reduce(t.wrapping_add(*b));
                *b = fqmul(zeta, b.wrapping_sub(t));
            }
            rest = tail;
            if rest.is_empty() {
                break;
            }
        }
        len <<= 1;
    }
    for c in &mut p.0 {
        *c = fqmul(*c, INV_NTT_SCALE);
    }
}

/// `acc += a ∘ b · R^−1` (MultiplyNTTs, FIPS 203 Algorithms 11–12): 128 products of degree-one
/// polynomials modulo X² − ζ^(2·BitRev7(i)+1). `a` and `b` in `-q..q`; each call adds less than
/// 2q in absolute value to each coefficient of `acc`, so up to four calls on a zero `acc`
/// stay within `-8q..8q`.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
pub(crate) fn basemul_acc(acc: &mut Poly, a: &Poly, b: &Poly) {
    let quads = acc.0.as_chunks_mut::<4>().0.iter_mut();
    let quads = quads.zip(a.0.as_chunks::<4>().0).zip(b.0.as_chunks::<4>().0);
    for (g, ((out, a), b)) in quads.enumerate() {
        basemul_quad(out, *a, *b, g);
    }
}

/// Quads `g..` of [`basemul_acc`] with `b` encoded (`ByteEncode_12`), as many as `acc`, `a`
/// and `b` hold: `acc += a ∘ b · R^−1` with `a` in `-q..q` and `b` below 4096, for products
/// streamed a chunk at a time.
pub(crate) fn basemul_encoded(acc: &mut [i16], a: &[i16], b: &[[u8; 6]], g: usize) {
    let quads = acc.as_chunks_mut::<4>().0.iter_mut().zip(a.as_chunks::<4>().0);
    for (k, ((out, a), b)) in quads.zip(b).enumerate() {
        let b = b.map(u16::from);
        let b = [
            b[0] | ((b[1] & 0x0f) << 8),
            (b[1] >> 4) | (b[2] << 4),
            b[3] | ((b[4] & 0x0f) << 8),
            (b[4] >> 4) | (b[5] << 4),
        ]
        .map(u16::cast_signed);
        basemul_quad(out, *a, b, g + k);
    }
}

/// Quad `g` (coefficients `4g..4g + 4`, `g` < 64) of [`basemul_acc`]: `out += a ∘ b · R^−1`
/// for the two degree-one products there, modulo X² − ζ_g and X² + ζ_g.
#[inline]
fn basemul_quad(out: &mut [i16; 4], a: [i16; 4], b: [i16; 4], g: usize) {
    let zeta = ZETAS[64 + g % 64];
    for (o, z) in [(0, zeta), (2, -zeta)] {
        let (a0, a1, b0, b1) = (a[o], a[o + 1], b[o], b[o + 1]);
        let r0 = fqmul(fqmul(a1, b1), z) + fqmul(a0, b0);
        let r1 = fqmul(a0, b1) + fqmul(a1, b0);
        out[o] = out[o].wrapping_add(r0);
        out[o + 1] = out[o + 1].wrapping_add(r1);
    }
}

/// Multiplies every coefficient by R (into Montgomery form): from `-8q..8q` to `-q..q`. Undoes
/// the R^−1 of [`basemul_acc`] where no inverse NTT follows (the public key's t̂).
pub(crate) fn to_mont(p: &mut Poly) {
    for c in &mut p.0 {
        *c = fqmul(*c, R2);
    }
}

/// Barrett-reduces every coefficient to `-(q−1)/2..=(q−1)/2`.
pub(crate) fn reduce(p: &mut Poly) {
    for c in &mut p.0 {
        *c = barrett_reduce(*c);
    }
}

#[cfg(test)]
mod tests {
    use super::super::poly::N;
    use super::*;

    fn modq(x: i64) -> i64 {
        x.rem_euclid(i64::from(Q))
    }

    #[test]
    fn zetas_start_at_r_and_are_powers_of_17() {
        assert_eq!(ZETAS[0], -1044); // R mod q = 2285, centred
        assert_eq!(modq(i64::from(ZETAS[1])), modq(1729 * 2285)); // 17^64 = 1729
    }

    #[test]
    fn reductions_are_exact() {
        for a in i16::MIN..=i16::MAX {
            let r = barrett_reduce(a);
            assert!(r.abs() <= (Q - 1) / 2);
            assert_eq!(modq(i64::from(r)), modq(i64::from(a)));
        }
        let r_inv = 169; // 2^16 · 169 ≡ 1 (mod q)
        assert_eq!(modq(65536 * r_inv), 1);
        for a in [-(i32::from(Q) << 15) + 1, -1, 0, 1, 12345, (i32::from(Q) << 15) - 1] {
            let r = montgomery_reduce(a);
            assert!(r.abs() < Q);
            assert_eq!(modq(i64::from(r)), modq(i64::from(a) * r_inv));
        }
    }

    /// The NTT, products in T_q and the inverse NTT multiply polynomials in Z_q[X]/(X^256 + 1),
    /// checked against schoolbook multiplication.
    #[test]
    fn ntt_multiplication_matches_schoolbook() {
        let a: [i16; N] =
            core::array::from_fn(|i| i16::try_from((i * 7919 + 3) % 3329).unwrap() - 1664);
        let b: [i16; N] =
            core::array::from_fn(|i| i16::try_from((i * i * 31 + 11) % 5).unwrap() - 2);
        let mut want = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let prod = i64::from(a[i]) * i64::from(b[j]);
                if i + j < N {
                    want[i + j] += prod;
                } else {
                    want[i + j - N] -= prod;
                }
            }
        }
        let (mut pa, mut pb) = (Poly(a), Poly(b));
        ntt(&mut pa);
        ntt(&mut pb);
        let mut acc = Poly::ZERO;
        basemul_acc(&mut acc, &pa, &pb);
        inv_ntt(&mut acc);
        for (i, (got, want)) in acc.0.iter().zip(want).enumerate() {
            assert_eq!(modq(i64::from(*got)), modq(want), "coefficient {i}");
        }
        // And the round trip without a product: NTT^−1(NTT(a)) = a·R.
        let mut pa = Poly(a);
        ntt(&mut pa);
        inv_ntt(&mut pa);
        for (i, (got, a)) in pa.0.iter().zip(a).enumerate() {
            assert_eq!(modq(i64::from(*got)), modq(i64::from(a) * 2285), "coefficient {i}");
        }
    }
}
