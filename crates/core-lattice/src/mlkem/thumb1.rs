//! `thumb1`: `portable`'s ring arithmetic (the NTT, its inverse, the products in T_q and the
//! reductions) in Thumb-1 assembly (core-asm's `thumbv6m::lattice`), for 32-bit Arm with the
//! `asm` feature: the Cortex-M0 default.
//!
//! The kernels reduce with Plantard's multiplication rather than Montgomery's (one register
//! per constant, which keeps a butterfly in the eight low registers), so their constants are
//! [`plantard`] forms of `portable`'s Montgomery ones, with the same multiplier: the NTT
//! (fully reduced) gives `portable`'s values exactly. The products in T_q carry Plantard's
//! factor −2^−32 where `portable`'s carry R^−1 = 2^−16, so the two functions that undo it,
//! the inverse NTT and `to_mont`, multiply by −2^32 where `portable`'s multiply by R: the
//! results agree modulo q once both are applied (in a narrower range here).
//!
//! Ranges in the inverse NTT: the input is reduced to `−q/2..q/2`, four layers double it to
//! `8q` at most, a second reduction, three more layers (`4q`), and the final scaling by
//! R/128 back to `−q/2..q/2`: every sum stays within `i16` (8q = 26 632), and every `b − a`
//! too. On the Cortex-M0+ model about 20 cycles a butterfly against about 60 compiled at
//! opt-level z.

#[cfg(all(target_arch = "arm", feature = "asm"))]
use super::poly::Poly;
use super::poly::Q;
use super::portable::ZETAS;

/// The Plantard constant with the multiplier of the Montgomery constant `m`: `c` in `0..q`
/// with `c·(−2^−32) ≡ m·2^−16 (mod q)`, that is `c = −m·2^16 mod q`.
const fn plantard(m: i16) -> u16 {
    (-(m as i64) * 65536).rem_euclid(Q as i64) as u16
}

/// [`plantard`] of every twiddle factor, in `ZETAS`'s order.
const ZETAS_PLANTARD: [u16; 128] = {
    let mut z = [0u16; 128];
    let mut i = 0;
    while i < 128 {
        z[i] = plantard(ZETAS[i]);
        i += 1;
    }
    z
};

/// −2^32 mod q: a Plantard product carries its inverse.
const MINUS_2_32: i64 = (-(1i64 << 32)).rem_euclid(Q as i64);

/// 128^−1 mod q.
const INV_128: i64 = 3303;

/// The Plantard constant with the multiplier `x`: `c` in `0..q` with `c·(−2^−32) ≡ x`.
const fn plantard_value(x: i64) -> u16 {
    (x.rem_euclid(Q as i64) * MINUS_2_32).rem_euclid(Q as i64) as u16
}

/// Multiplies by 1: the full reduction.
const ONE: u16 = plantard_value(1);

/// The NTT (as `portable::ntt`): coefficients in `-q..q` in, `-(q−1)/2..=(q−1)/2` out.
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) fn ntt(p: &mut Poly) {
    use core_asm::thumbv6m::lattice;
    for layer in 0..7 {
        lattice::ntt_layer(&mut p.0, &ZETAS_PLANTARD, layer);
    }
    lattice::mul_const(&mut p.0, ONE);
}

/// The inverse NTT times −2^32 (where `portable::inv_ntt` multiplies by R, for [`basemul_acc`]'s
/// factor): coefficients in `-8q..8q` in, `-q/2..q/2` out.
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) fn inv_ntt(p: &mut Poly) {
    use core_asm::thumbv6m::lattice;
    lattice::mul_const(&mut p.0, ONE);
    for layer in (3..7).rev() {
        lattice::inv_ntt_layer(&mut p.0, &ZETAS_PLANTARD, layer);
    }
    lattice::mul_const(&mut p.0, ONE);
    for layer in (0..3).rev() {
        lattice::inv_ntt_layer(&mut p.0, &ZETAS_PLANTARD, layer);
    }
    lattice::mul_const(&mut p.0, const { plantard_value(MINUS_2_32 * INV_128) });
}

/// `acc += a ∘ b · (−2^−32)` (as `portable::basemul_acc`, with Plantard's factor): `a` and `b`
/// in `-q..q`; each call adds less than q/2 in absolute value to each coefficient of `acc`.
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) fn basemul_acc(acc: &mut Poly, a: &Poly, b: &Poly) {
    core_asm::thumbv6m::lattice::basemul_acc(&mut acc.0, &a.0, &b.0, &ZETAS_PLANTARD);
}

/// q^−1 mod 2^32: a Plantard product multiplies one factor by it first (the kernels' constants
/// carry it already).
const QINV32: u32 = {
    let mut x: u32 = 1;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u32.wrapping_sub((Q as u32).wrapping_mul(x)));
        i += 1;
    }
    x
};

/// Plantard's product `a·c·(−2^−32) mod q` in `−q/2..q/2` for any 16-bit `a` and `c` in
/// `0..q`: the kernels' `plantard!`, in Rust.
#[inline(always)]
fn plantard_mul(a: i16, c: u16) -> i16 {
    let c = u32::from(c).wrapping_mul(QINV32);
    let t = (i32::from(a).cast_unsigned().wrapping_mul(c).cast_signed() >> 16) + 8;
    (t.wrapping_mul(i32::from(Q)) >> 16) as i16
}

/// Quad `g` (coefficients `4g..4g + 4`, `g` < 64) of [`basemul_acc`] in Rust, for products
/// streamed a quad at a time: `out += a ∘ b · (−2^−32)`, `a` any 16-bit values, `b` in
/// `0..q`; adds less than q in absolute value to each coefficient of `out`.
#[inline]
pub(crate) fn basemul_quad(out: &mut [i16; 4], a: &[i16; 4], b: &[i16; 4], g: usize) {
    let zeta = ZETAS_PLANTARD[64 + g % 64];
    for o in [0, 2] {
        let (a0, a1) = (a[o], a[o + 1]);
        let (b0, b1) = (b[o].cast_unsigned(), b[o + 1].cast_unsigned());
        let t = plantard_mul(plantard_mul(a1, b1), zeta);
        // ζ for the first product, −ζ for the second.
        let t = if o == 0 { t } else { -t };
        let r0 = t + plantard_mul(a0, b0);
        let r1 = plantard_mul(a0, b1) + plantard_mul(a1, b0);
        out[o] = out[o].wrapping_add(r0);
        out[o + 1] = out[o + 1].wrapping_add(r1);
    }
}

/// Multiplies by −2^32, undoing [`basemul_acc`]'s factor where no inverse NTT follows (as
/// `portable::to_mont` undoes its R^−1): `-8q..8q` in, `-q/2..q/2` out.
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) fn to_mont(p: &mut Poly) {
    core_asm::thumbv6m::lattice::mul_const(&mut p.0, const { plantard_value(MINUS_2_32) });
}

/// The full reduction (as `portable::reduce`, the same values).
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) fn reduce(p: &mut Poly) {
    core_asm::thumbv6m::lattice::mul_const(&mut p.0, ONE);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernels' product, in Rust.
    fn plantard_mul(a: i16, c: u16) -> i32 {
        let c = u32::from(c).wrapping_mul(QINV32);
        let t = (i32::from(a).cast_unsigned().wrapping_mul(c).cast_signed() >> 16) + 8;
        t.wrapping_mul(i32::from(Q)) >> 16
    }

    /// The streamed quad product agrees with `portable`'s modulo q once each is scaled by
    /// its factor (−2^−32 here, R^−1 there), for `a` over the 16-bit range's ends and middle
    /// and every `b` below q; and adds less than q in absolute value.
    #[test]
    fn basemul_quad_matches_portable() {
        let modq = |x: i64| x.rem_euclid(i64::from(Q));
        // −2^−32 ≡ R^−1 · (−2^−16): scale portable's sum by −2^−16 = −169 (mod q).
        let to_plantard = |x: i16| modq(-169 * i64::from(x));
        let mut a_values = [i16::MIN, -1665, -1, 0, 1, 1664, 3328, i16::MAX].into_iter().cycle();
        for b in 0..Q {
            for g in [0, 17, 63] {
                let a = [(); 4].map(|()| a_values.next().unwrap_or(0));
                let b = [b, Q - 1 - b, b / 2, (b * 7) % Q];
                let (mut ours, mut want) = ([0i16; 4], [0i16; 4]);
                basemul_quad(&mut ours, &a, &b, g);
                // portable's Montgomery products need inputs in `-q..q`.
                let a_reduced = a.map(|x| modq(i64::from(x)) as i16);
                super::super::portable::basemul_quad(&mut want, &a_reduced, &b, g);
                for (o, w) in ours.iter().zip(want) {
                    assert!(o.abs() < Q, "a = {a:?}, b = {b:?}");
                    assert_eq!(
                        modq(i64::from(*o)),
                        to_plantard(w),
                        "a = {a:?}, b = {b:?}, g = {g}"
                    );
                }
            }
        }
    }

    /// For every 16-bit input and every constant the kernels use, the product is the
    /// Montgomery product's multiple modulo q and lies in `−q/2..q/2` (so after the NTT it is
    /// the centred representative, which Barrett reduction gives too).
    #[test]
    fn plantard_products_are_exact_and_centred() {
        assert_eq!(QINV32.wrapping_mul(Q as u32), 1);
        assert_eq!(128 * INV_128 % i64::from(Q), 1);
        // Each constant with its multiplier: the twiddles' are ζ^k = ZETAS[i]·2^−16.
        let r_inv = 169; // 2^16 · 169 ≡ 1 (mod q)
        let zetas = ZETAS_PLANTARD.iter().zip(ZETAS).map(|(&c, m)| (c, i64::from(m) * r_inv));
        let others = [(ONE, 1), (plantard_value(MINUS_2_32), MINUS_2_32)];
        let scale = MINUS_2_32 * INV_128;
        for (c, x) in zetas.chain(others).chain([(plantard_value(scale), scale)]) {
            for a in i16::MIN..=i16::MAX {
                let r = plantard_mul(a, c);
                assert!(2 * r.abs() < i32::from(Q), "a = {a}, x = {x}");
                let d = i64::from(a) * x - i64::from(r);
                assert_eq!(d.rem_euclid(i64::from(Q)), 0, "a = {a}, x = {x}");
            }
        }
    }
}
