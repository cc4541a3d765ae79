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
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) fn basemul_acc(acc: &mut Poly, a: &Poly, b: &Poly) {
    core_asm::thumbv6m::lattice::basemul_acc(&mut acc.0, &a.0, &b.0, &ZETAS_PLANTARD[64..]);
}

/// Quads `g..` of [`basemul_acc`] with `b` encoded (`ByteEncode_12`), as many as `acc`, `a`
/// and `b` hold: `acc += a ∘ b · (−2^−32)` with `a` in `-q..q` and `b` below 4096, for
/// products streamed a chunk at a time.
#[cfg(all(target_arch = "arm", feature = "asm"))]
#[inline]
pub(crate) fn basemul_encoded(acc: &mut [i16], a: &[i16], b: &[[u8; 6]], g: usize) {
    let zetas = ZETAS_PLANTARD[64..].get(g..).unwrap_or_default();
    core_asm::thumbv6m::lattice::basemul_acc_packed(acc, a, b.as_flattened(), zetas);
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

    /// q^−1 mod 2^32, as the kernels compute it.
    const QINV32: u32 = {
        let mut x: u32 = 1;
        let mut i = 0;
        while i < 5 {
            x = x.wrapping_mul(2u32.wrapping_sub((Q as u32).wrapping_mul(x)));
            i += 1;
        }
        x
    };

    /// The kernels' product, in Rust.
    fn plantard_mul(a: i16, c: u16) -> i32 {
        let c = u32::from(c).wrapping_mul(QINV32);
        let t = (i32::from(a).cast_unsigned().wrapping_mul(c).cast_signed() >> 16) + 8;
        t.wrapping_mul(i32::from(Q)) >> 16
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
