//! Integers modulo the edwards25519 group order `L = 2^252 + 27742317777372353535851937790883648493`
//! for Ed25519 (RFC 8032 §5.1.6–7): reducing a 512-bit hash and computing `S = r + k·a mod L`,
//! in constant time. Two implementations share one interface:
//!
//! - `mont64`: Montgomery multiplication with four 64-bit limbs and 128-bit products, the
//!   default on 64-bit targets;
//! - `serial32`: shift-and-subtract with eight 32-bit words and no multiplication at all, the
//!   default on 32-bit targets (Cortex-M0 has no 32×32→64 multiply, and a software one is not
//!   guaranteed constant-time). It costs about 800 add/subtract passes, far below the scalar
//!   multiplication beside it.

use subtle::{Choice, ConditionallySelectable};

/// L, little-endian bytes.
pub(crate) const L_BYTES: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
];

/// Whether the little-endian `s` is below L (variable-time: for public signature values).
pub(crate) fn is_canonical_vartime(s: &[u8; 32]) -> bool {
    for i in (0..32).rev() {
        if s[i] != L_BYTES[i] {
            return s[i] < L_BYTES[i];
        }
    }
    false
}

/// `x mod L` for a 512-bit little-endian `x`.
pub(crate) fn reduce_wide(x: &[u8; 64]) -> [u8; 32] {
    if cfg!(target_pointer_width = "64") {
        mont64::reduce_wide(x)
    } else {
        serial32::reduce_wide(x)
    }
}

/// `a·b + c mod L` for `a` below 2^256 and `b`, `c` below L.
pub(crate) fn mul_add(a: &[u8; 32], b: &[u8; 32], c: &[u8; 32]) -> [u8; 32] {
    if cfg!(target_pointer_width = "64") {
        mont64::mul_add(a, b, c)
    } else {
        serial32::mul_add(a, b, c)
    }
}

/// Montgomery arithmetic modulo L with `R = 2^256`.
pub(crate) mod mont64 {
    use super::{Choice, ConditionallySelectable};

    type U = [u64; 4];
    const L: U = [0x5812631a5cf5d3ed, 0x14def9dea2f79cd6, 0, 0x1000000000000000];
    /// `−L⁻¹ mod 2^64`.
    const LINV: u64 = 0xd2b51da312547e1b;
    /// `R mod L`.
    const R1: U = [0xd6ec31748d98951d, 0xc6ef5bf4737dcf70, 0xfffffffffffffffe, 0x0fffffffffffffff];
    /// `R² mod L`.
    const R2: U = [0xa40611e3449c0f01, 0xd00e1ba768859347, 0xceec73d217f5be65, 0x0399411b7c309a3d];

    fn load(b: &[u8]) -> U {
        let mut r = [0; 4];
        for (r, c) in r.iter_mut().zip(b.chunks_exact(8)) {
            *r = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        }
        r
    }

    fn store(x: &U) -> [u8; 32] {
        let mut out = [0; 32];
        for (c, w) in out.chunks_exact_mut(8).zip(x) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// `x − L` if `x ≥ L`, else `x`, for `x` below 2L (which is below 2^254).
    fn sub_l(x: &U) -> U {
        let mut d = [0; 4];
        let mut borrow = 0u64;
        for i in 0..4 {
            let (t, b1) = x[i].overflowing_sub(L[i]);
            let (t, b2) = t.overflowing_sub(borrow);
            d[i] = t;
            borrow = u64::from(b1 | b2);
        }
        let keep = Choice::from(borrow as u8);
        let mut r = [0; 4];
        for i in 0..4 {
            r[i] = u64::conditional_select(&d[i], &x[i], keep);
        }
        r
    }

    fn add(a: &U, b: &U) -> U {
        let mut s = [0; 4];
        let mut carry = 0u128;
        for i in 0..4 {
            carry += u128::from(a[i]) + u128::from(b[i]);
            s[i] = carry as u64;
            carry >>= 64;
        }
        sub_l(&s)
    }

    /// `a·b·R⁻¹ mod L` (CIOS), for `a·b < L·R`; fully reduced.
    fn mont_mul(a: &U, b: &U) -> U {
        let mut t = [0u64; 6];
        for &ai in a {
            let mut carry = 0u128;
            for j in 0..4 {
                carry += u128::from(t[j]) + u128::from(ai) * u128::from(b[j]);
                t[j] = carry as u64;
                carry >>= 64;
            }
            carry += u128::from(t[4]);
            t[4] = carry as u64;
            t[5] = (carry >> 64) as u64;

            let m = t[0].wrapping_mul(LINV);
            let mut carry = (u128::from(t[0]) + u128::from(m) * u128::from(L[0])) >> 64;
            for j in 1..4 {
                carry += u128::from(t[j]) + u128::from(m) * u128::from(L[j]);
                t[j - 1] = carry as u64;
                carry >>= 64;
            }
            carry += u128::from(t[4]);
            t[3] = carry as u64;
            t[4] = t[5] + (carry >> 64) as u64;
            t[5] = 0;
        }
        sub_l(&[t[0], t[1], t[2], t[3]])
    }

    pub(crate) fn reduce_wide(x: &[u8; 64]) -> [u8; 32] {
        let lo = mont_mul(&load(&x[..32]), &R1);
        let hi = mont_mul(&load(&x[32..]), &R2);
        store(&add(&lo, &hi))
    }

    pub(crate) fn mul_add(a: &[u8; 32], b: &[u8; 32], c: &[u8; 32]) -> [u8; 32] {
        let ab = mont_mul(&mont_mul(&load(a), &load(b)), &R2);
        store(&add(&ab, &load(c)))
    }
}

/// Bit-serial arithmetic modulo L on eight 32-bit words, with no multiplications.
pub(crate) mod serial32 {
    use super::{Choice, ConditionallySelectable};

    type U = [u32; 8];

    fn load(b: &[u8]) -> U {
        let mut r = [0; 8];
        for (r, c) in r.iter_mut().zip(b.chunks_exact(4)) {
            *r = u32::from_le_bytes(c.try_into().unwrap_or([0; 4]));
        }
        r
    }

    fn store(x: &U) -> [u8; 32] {
        let mut out = [0; 32];
        for (c, w) in out.chunks_exact_mut(4).zip(x) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// `x − L` if `x ≥ L`, else `x`, for `x` below 2L.
    fn sub_l(x: &U) -> U {
        let l = load(&super::L_BYTES);
        let mut d = [0; 8];
        let mut borrow = 0u32;
        for i in 0..8 {
            // The borrow out of `x − l − borrow`, from the words' top bits. The difference
            // passes through a value barrier: from `overflowing_sub` LLVM made compares, which
            // Thumb-1 (no conditional select) turned into branches on the secret words.
            let t = core_hash::value_barrier(x[i].wrapping_sub(l[i]).wrapping_sub(borrow));
            d[i] = t;
            borrow = ((!x[i] & l[i]) | (!(x[i] ^ l[i]) & t)) >> 31;
        }
        let keep = Choice::from(borrow as u8);
        let mut r = [0; 8];
        for i in 0..8 {
            r[i] = u32::conditional_select(&d[i], &x[i], keep);
        }
        r
    }

    /// `(a + b) mod L` for `a`, `b` below L.
    fn add(a: &U, b: &U) -> U {
        let mut s = [0; 8];
        let mut carry = 0u32;
        for i in 0..8 {
            let (t, c1) = a[i].overflowing_add(b[i]);
            let (t, c2) = t.overflowing_add(carry);
            s[i] = t;
            carry = u32::from(c1 | c2);
        }
        sub_l(&s)
    }

    /// `(2x + bit) mod L` for `x` below L.
    fn double_add_bit(x: &U, bit: u32) -> U {
        let mut s = [0; 8];
        let mut carry = bit;
        for i in 0..8 {
            s[i] = (x[i] << 1) | carry;
            carry = x[i] >> 31;
        }
        sub_l(&s)
    }

    pub(crate) fn reduce_wide(x: &[u8; 64]) -> [u8; 32] {
        let mut r = [0u32; 8];
        for i in (0..512).rev() {
            r = double_add_bit(&r, u32::from((x[i >> 3] >> (i & 7)) & 1));
        }
        store(&r)
    }

    pub(crate) fn mul_add(a: &[u8; 32], b: &[u8; 32], c: &[u8; 32]) -> [u8; 32] {
        let b = load(b);
        let mut r = [0u32; 8];
        for i in (0..256).rev() {
            r = double_add_bit(&r, 0);
            let sum = add(&r, &b);
            let bit = Choice::from((a[i >> 3] >> (i & 7)) & 1);
            for (r, s) in r.iter_mut().zip(sum) {
                r.conditional_assign(&s, bit);
            }
        }
        store(&add(&r, &load(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic byte pattern.
    fn bytes<const N: usize>(seed: u32) -> [u8; N] {
        let mut x = seed.wrapping_mul(0x9e37_79b9) | 1;
        core::array::from_fn(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
    }

    #[test]
    fn implementations_agree() {
        // A handful under Miri, which runs this thousands of times slower.
        let cases = if cfg!(miri) { 1 } else { 300 };
        for seed in 0..cases {
            let mut wide: [u8; 64] = bytes(seed);
            if seed == 0 {
                wide = [0xff; 64];
            }
            let r64 = mont64::reduce_wide(&wide);
            assert_eq!(r64, serial32::reduce_wide(&wide), "reduce {seed}");
            assert!(is_canonical_vartime(&r64));
            let a: [u8; 32] = bytes(seed + 1000);
            let b = mont64::reduce_wide(&bytes(seed + 2000));
            let c = mont64::reduce_wide(&bytes(seed + 3000));
            let m = mont64::mul_add(&a, &b, &c);
            assert_eq!(m, serial32::mul_add(&a, &b, &c), "mul_add {seed}");
            assert!(is_canonical_vartime(&m));
        }
    }

    #[test]
    fn known_values() {
        // L itself and L + 1 reduce to 0 and 1; L − 1 is the largest canonical value.
        let mut wide = [0u8; 64];
        wide[..32].copy_from_slice(&L_BYTES);
        assert_eq!(reduce_wide(&wide), [0; 32]);
        wide[0] += 1;
        let mut one = [0u8; 32];
        one[0] = 1;
        assert_eq!(reduce_wide(&wide), one);
        assert!(!is_canonical_vartime(&L_BYTES));
        let mut below = L_BYTES;
        below[0] -= 1;
        assert!(is_canonical_vartime(&below));
        // (L − 1)·(L − 1) + 1 = L² − 2L + 2 ≡ 2.
        let mut two = [0u8; 32];
        two[0] = 2;
        assert_eq!(mont64::mul_add(&below, &below, &one), two);
        assert_eq!(serial32::mul_add(&below, &below, &one), two);
        // 2^256 mod L, from the wide reduction of 2^256.
        let mut w = [0u8; 64];
        w[32] = 1;
        let r = reduce_wide(&w);
        assert_eq!(serial32::reduce_wide(&w), r);
    }
}
