//! The X25519 function of RFC 7748 §5: the Montgomery ladder on the u-coordinate of
//! Curve25519, generic over the field implementation, with a constant-time conditional swap
//! per scalar bit and one inversion at the end.

use subtle::Choice;

use super::field::Field;

/// `u(k·P)` where `u` is the little-endian u-coordinate of `P` (top bit masked, values from p up
/// accepted) and `k` an already clamped scalar, as the 32-byte canonical encoding. Constant-time
/// in `k` and `u`.
pub(crate) fn ladder<F: Field>(k: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
    let x1 = F::from_bytes(u);
    let (mut x2, mut z2, mut x3, mut z3) = (F::ONE, F::ZERO, x1, F::ONE);
    let mut swap = Choice::from(0);
    for t in (0..255).rev() {
        let bit = Choice::from((k[t >> 3] >> (t & 7)) & 1);
        swap ^= bit;
        F::conditional_swap(&mut x2, &mut x3, swap);
        F::conditional_swap(&mut z2, &mut z3, swap);
        swap = bit;

        let a = x2.add(&z2);
        let mut aa = a.square();
        let b = x2.sub(&z2);
        let bb = b.square();
        let e = aa.sub(&bb);
        let c = x3.add(&z3);
        let d = x3.sub(&z3);
        let da = d.mul(&a);
        let cb = c.mul(&b);
        // Into the variables directly (`mul_to`, `square_to`): no copy where a field can.
        da.add(&cb).square_to(&mut x3);
        x1.mul_to(&da.sub(&cb).square(), &mut z3);
        aa.mul_to(&bb, &mut x2);
        // AA + a24·E in AA's place (AA is not needed again).
        aa.add_mul_a24(&e);
        e.mul_to(&aa, &mut z2);
    }
    F::conditional_swap(&mut x2, &mut x3, swap);
    F::conditional_swap(&mut z2, &mut z3, swap);
    x2.mul(&z2.invert()).to_bytes()
}
