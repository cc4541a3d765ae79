//! Inversion modulo p = 2^255 − 19 by Bernstein and Yang's constant-time "safegcd" (2019): the
//! NIST fields' implementation ([`Modulus`], the half-delta division steps in batches of 60,
//! on `x86_64` with `asm` in conditional moves, applied in signed radix-2^62 limbs) over five
//! limbs with p's constants, 588 steps for a 255-bit modulus. No branch or memory index
//! depends on the input. About half the cost of the 254 squarings and 11 multiplications of
//! Fermat's chain, which a latency-bound 64-bit field cannot overlap. A variable-time variant
//! for public values (Ed25519 verification) skips runs of zero bits and stops as soon as `g`
//! is zero. Only the constants are this curve's: there is one divstep loop in the crate.

use crate::nist::safegcd::Modulus;

/// p = 2^255 − 19 with safegcd's constants, computed at compile time.
const P: Modulus<5> = Modulus::new(&[
    0xffff_ffff_ffff_ffed,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffff,
    0x7fff_ffff_ffff_ffff,
]);

/// `x^−1 mod p` (zero for zero) for `x` below p as four little-endian 64-bit words, fully
/// reduced.
pub(crate) fn invert(x: &[u64; 4]) -> [u64; 4] {
    let mut out = [0u64; 4];
    P.mul_inverse(x, &[1, 0, 0, 0], &mut out);
    out
}

/// [`invert`] in variable time, for public inputs only (verification): batches of
/// variable-time division steps until `g` is zero, typically about half as many steps as the
/// constant-time 588 and cheaper ones.
pub(crate) fn invert_vartime(x: &[u64; 4]) -> [u64; 4] {
    let mut out = [0u64; 4];
    P.mul_inverse_vartime(x, &[1, 0, 0, 0], &mut out);
    out
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
