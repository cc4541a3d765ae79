//! The bitsliced AES round, shared by [`ct64`](super::ct64) and [`ct32`](super::ct32): the state
//! of several blocks is held as eight bit planes (plane `i` holds bit `i` of every byte), so
//! `SubBytes` is a fixed Boolean circuit and the other steps are masks and rotations — no table,
//! no secret-dependent index or branch.
//!
//! Within a plane the bits are grouped by state row: each row is one lane of a quarter of the
//! word, ordered by column and then by block. Only the lane width differs between the 32-bit
//! and the 64-bit layout, so everything here is generic over [`Plane`] and the two layouts
//! supply `ShiftRows` (a rotation inside each lane) and the row rotations `MixColumns` needs.

use core::ops::{BitAnd, BitXor, Not};

/// A machine word used as one bit plane of the bitsliced state.
pub(super) trait Plane:
    Copy + Default + BitXor<Output = Self> + BitAnd<Output = Self> + Not<Output = Self>
{
    /// Moves every row's lane up by one (row `r` receives row `r + 1`, row 3 receives row 0).
    fn rows_up1(self) -> Self;
    /// Moves every row's lane up by two.
    fn rows_up2(self) -> Self;
    /// FIPS 197 §5.1.2 `ShiftRows`: row `r`'s lane rotated by `r` columns.
    fn shift_rows(self) -> Self;
    /// FIPS 197 §5.3.1 `InvShiftRows`.
    fn inv_shift_rows(self) -> Self;
    /// [`sub_bytes`] on eight planes of this type: inlined on 64-bit words, one shared
    /// out-of-line copy on 32-bit words (the Cortex-M0 path, where each copy of the circuit
    /// costs about 700 bytes of flash and a call costs a fraction of a percent of a round).
    fn sub_bytes(q: &mut [Self; 8]);
}

/// FIPS 197 §5.1.1 `SubBytes` on every byte of the planes at once: the 113-gate circuit of
/// Boyar and Peralta ("A new combinational logic minimization technique with applications to
/// cryptology", 2009), which computes the inversion in GF(2^8) through GF(2^4) and folds the
/// affine map into its linear layers. The names follow the paper, where `u0` is the most
/// significant bit (plane 7) and `s0` the most significant output bit.
#[inline(always)]
pub(super) fn sub_bytes<T: Plane>(q: &mut [T; 8]) {
    let [u7, u6, u5, u4, u3, u2, u1, u0] = *q;

    // Top linear layer.
    let y14 = u3 ^ u5;
    let y13 = u0 ^ u6;
    let y9 = u0 ^ u3;
    let y8 = u0 ^ u5;
    let t0 = u1 ^ u2;
    let y1 = t0 ^ u7;
    let y4 = y1 ^ u3;
    let y12 = y13 ^ y14;
    let y2 = y1 ^ u0;
    let y5 = y1 ^ u6;
    let y3 = y5 ^ y8;
    let t1 = u4 ^ y12;
    let y15 = t1 ^ u5;
    let y20 = t1 ^ u1;
    let y6 = y15 ^ u7;
    let y10 = y15 ^ t0;
    let y11 = y20 ^ y9;
    let y7 = u7 ^ y11;
    let y17 = y10 ^ y11;
    let y19 = y10 ^ y8;
    let y16 = t0 ^ y11;
    let y21 = y13 ^ y16;
    let y18 = u0 ^ y16;

    // Nonlinear middle: inversion in GF(2^4)^2.
    let t2 = y12 & y15;
    let t3 = y3 & y6;
    let t4 = t3 ^ t2;
    let t5 = y4 & u7;
    let t6 = t5 ^ t2;
    let t7 = y13 & y16;
    let t8 = y5 & y1;
    let t9 = t8 ^ t7;
    let t10 = y2 & y7;
    let t11 = t10 ^ t7;
    let t12 = y9 & y11;
    let t13 = y14 & y17;
    let t14 = t13 ^ t12;
    let t15 = y8 & y10;
    let t16 = t15 ^ t12;
    let t17 = t4 ^ t14;
    let t18 = t6 ^ t16;
    let t19 = t9 ^ t14;
    let t20 = t11 ^ t16;
    let t21 = t17 ^ y20;
    let t22 = t18 ^ y19;
    let t23 = t19 ^ y21;
    let t24 = t20 ^ y18;

    let t25 = t21 ^ t22;
    let t26 = t21 & t23;
    let t27 = t24 ^ t26;
    let t28 = t25 & t27;
    let t29 = t28 ^ t22;
    let t30 = t23 ^ t24;
    let t31 = t22 ^ t26;
    let t32 = t31 & t30;
    let t33 = t32 ^ t24;
    let t34 = t23 ^ t33;
    let t35 = t27 ^ t33;
    let t36 = t24 & t35;
    let t37 = t36 ^ t34;
    let t38 = t27 ^ t36;
    let t39 = t29 & t38;
    let t40 = t25 ^ t39;

    let t41 = t40 ^ t37;
    let t42 = t29 ^ t33;
    let t43 = t29 ^ t40;
    let t44 = t33 ^ t37;
    let t45 = t42 ^ t41;
    let z0 = t44 & y15;
    let z1 = t37 & y6;
    let z2 = t33 & u7;
    let z3 = t43 & y16;
    let z4 = t40 & y1;
    let z5 = t29 & y7;
    let z6 = t42 & y11;
    let z7 = t45 & y17;
    let z8 = t41 & y10;
    let z9 = t44 & y12;
    let z10 = t37 & y3;
    let z11 = t33 & y4;
    let z12 = t43 & y13;
    let z13 = t40 & y5;
    let z14 = t29 & y2;
    let z15 = t42 & y9;
    let z16 = t45 & y14;
    let z17 = t41 & y8;

    // Bottom linear layer, with the affine constant 0x63 as the four complemented outputs.
    let t46 = z15 ^ z16;
    let t47 = z10 ^ z11;
    let t48 = z5 ^ z13;
    let t49 = z9 ^ z10;
    let t50 = z2 ^ z12;
    let t51 = z2 ^ z5;
    let t52 = z7 ^ z8;
    let t53 = z0 ^ z3;
    let t54 = z6 ^ z7;
    let t55 = z16 ^ z17;
    let t56 = z12 ^ t48;
    let t57 = t50 ^ t53;
    let t58 = z4 ^ t46;
    let t59 = z3 ^ t54;
    let t60 = t46 ^ t57;
    let t61 = z14 ^ t57;
    let t62 = t52 ^ t58;
    let t63 = t49 ^ t58;
    let t64 = z4 ^ t59;
    let t65 = t61 ^ t62;
    let t66 = z1 ^ t63;
    let s0 = t59 ^ t63;
    let s6 = t56 ^ !t62;
    let s7 = t48 ^ !t60;
    let t67 = t64 ^ t65;
    let s3 = t53 ^ t66;
    let s4 = t51 ^ t66;
    let s5 = t47 ^ t65;
    let s1 = t64 ^ !s3;
    let s2 = t55 ^ !t67;

    *q = [s7, s6, s5, s4, s3, s2, s1, s0];
}

/// The affine map of `InvSubBytes` (FIPS 197 §5.3.2): bit `i` becomes
/// `b[i+2] ⊕ b[i+5] ⊕ b[i+7] ⊕ d[i]` with `d = 0x05`. It is the inverse of `SubBytes`' affine
/// step, so `InvSubBytes` = A⁻¹ ∘ `SubBytes` ∘ A⁻¹ (the inversion in GF(2^8) is its own inverse).
#[inline(always)]
fn inv_affine<T: Plane>(q: &mut [T; 8]) {
    let b = *q;
    for (i, out) in q.iter_mut().enumerate() {
        *out = b[(i + 2) % 8] ^ b[(i + 5) % 8] ^ b[(i + 7) % 8];
    }
    q[0] = !q[0];
    q[2] = !q[2];
}

/// FIPS 197 §5.3.2 `InvSubBytes`, around the forward circuit `sub_bytes`.
#[inline(always)]
pub(super) fn inv_sub_bytes<T: Plane>(q: &mut [T; 8], sub_bytes: impl Fn(&mut [T; 8])) {
    inv_affine(q);
    sub_bytes(q);
    inv_affine(q);
}

/// Multiplication by x in GF(2^8) on every byte: a shift across planes, reduced by
/// x^8 = x^4 + x^3 + x + 1.
#[inline(always)]
fn xtime<T: Plane>(t: [T; 8]) -> [T; 8] {
    [t[7], t[0] ^ t[7], t[1], t[2] ^ t[7], t[3] ^ t[7], t[4], t[5], t[6]]
}

/// `f` applied to each of the eight planes, written out: at the size-optimised levels a
/// Cortex-M0 is built with, compilers keep a loop over the planes as a loop, with every plane
/// addressed on the stack through the index.
#[inline(always)]
fn each<T: Copy>(q: &mut [T; 8], f: impl Fn(T, usize) -> T) {
    let [q0, q1, q2, q3, q4, q5, q6, q7] = *q;
    *q = [f(q0, 0), f(q1, 1), f(q2, 2), f(q3, 3), f(q4, 4), f(q5, 5), f(q6, 6), f(q7, 7)];
}

/// `ShiftRows` on the eight planes, a loop over them: at size-optimised levels one copy of
/// the shifts instead of eight; hosts' optimisers unroll it. (The Cortex-M0's cipher has its
/// own pass, `thumb1::shift_mix_add`.)
#[inline(always)]
fn shift_rows<T: Plane>(q: &mut [T; 8]) {
    for p in q.iter_mut() {
        *p = p.shift_rows();
    }
}

/// `InvShiftRows` on the eight planes, written out like [`shift_rows`].
#[inline(always)]
fn inv_shift_rows<T: Plane>(q: &mut [T; 8]) {
    let [q0, q1, q2, q3, q4, q5, q6, q7] = *q;
    *q = [
        q0.inv_shift_rows(),
        q1.inv_shift_rows(),
        q2.inv_shift_rows(),
        q3.inv_shift_rows(),
        q4.inv_shift_rows(),
        q5.inv_shift_rows(),
        q6.inv_shift_rows(),
        q7.inv_shift_rows(),
    ];
}

/// FIPS 197 §5.1.3 `MixColumns`: row `r` becomes `2·a[r] ⊕ 3·a[r+1] ⊕ a[r+2] ⊕ a[r+3]`, written
/// as `2·(a[r] ⊕ a[r+1]) ⊕ a[r+1] ⊕ (a[r+2] ⊕ a[r+3])`.
#[inline(always)]
pub(super) fn mix_columns<T: Plane>(q: &mut [T; 8]) {
    let mut a1 = *q;
    each(&mut a1, |p, _| p.rows_up1());
    let mut t = *q;
    each(&mut t, |p, i| p ^ a1[i]);
    let t2 = xtime(t);
    each(q, |_, i| t2[i] ^ a1[i] ^ t[i].rows_up2());
}

/// FIPS 197 §5.3.3 `InvMixColumns`, as `MixColumns` after the map `a[r] ⊕ 4·(a[r] ⊕ a[r+2])`: the
/// circulant (0e 0b 0d 09) is (02 03 01 01) times (05 00 04 00).
#[inline(always)]
pub(super) fn inv_mix_columns<T: Plane>(q: &mut [T; 8]) {
    let mut t = *q;
    each(&mut t, |p, _| p ^ p.rows_up2());
    let t4 = xtime(xtime(t));
    each(q, |p, i| p ^ t4[i]);
    mix_columns(q);
}

#[inline(always)]
fn add_round_key<T: Plane>(q: &mut [T; 8], k: &[T; 8]) {
    each(q, |p, i| p ^ k[i]);
}

/// FIPS 197 §5.1 Cipher on bitsliced blocks; `rk` holds the `Nr + 1` round keys. The last
/// round (no `MixColumns`) shares the loop: the test is on the public round index, and one
/// copy of the round is half the code.
#[inline(always)]
pub(super) fn encrypt<T: Plane>(q: &mut [T; 8], rk: &[[T; 8]]) {
    let Some((first, rest)) = rk.split_first() else { return };
    add_round_key(q, first);
    for (i, k) in rest.iter().enumerate() {
        T::sub_bytes(q);
        shift_rows(q);
        if i + 1 < rest.len() {
            mix_columns(q);
        }
        add_round_key(q, k);
    }
}

/// FIPS 197 §5.3 `InvCipher` on bitsliced blocks, its last round in the loop like [`encrypt`]'s.
#[inline(always)]
pub(super) fn decrypt<T: Plane>(q: &mut [T; 8], rk: &[[T; 8]]) {
    decrypt_with(q, rk, T::sub_bytes);
}

/// [`decrypt`] with another `SubBytes` circuit on the planes (the Cortex-M0's assembly).
#[inline(always)]
pub(super) fn decrypt_with<T: Plane>(
    q: &mut [T; 8],
    rk: &[[T; 8]],
    sub_bytes: impl Fn(&mut [T; 8]) + Copy,
) {
    let Some((last, rest)) = rk.split_last() else { return };
    add_round_key(q, last);
    for (i, k) in rest.iter().enumerate().rev() {
        inv_shift_rows(q);
        inv_sub_bytes(q, sub_bytes);
        add_round_key(q, k);
        if i > 0 {
            inv_mix_columns(q);
        }
    }
}

/// `SubWord` (FIPS 197 §5.2): the four bytes of `w` through the same circuit, one byte per
/// bit of each plane, gathered and scattered bit by bit. The reference for the key
/// expansion's [`ct32::sub_word`](super::ct32::sub_word), which transposes instead.
#[cfg(test)]
pub(super) fn sub_word(w: u32) -> u32 {
    let mut q = [0u32; 8];
    for (i, plane) in q.iter_mut().enumerate() {
        for byte in 0..4 {
            *plane |= ((w >> (8 * byte + i)) & 1) << byte;
        }
    }
    u32::sub_bytes(&mut q);
    let mut out = 0;
    for (i, plane) in q.iter().enumerate() {
        for byte in 0..4 {
            out |= ((plane >> byte) & 1) << (8 * byte + i);
        }
    }
    out
}

impl Plane for u32 {
    #[inline(always)]
    fn rows_up1(self) -> Self {
        self.rotate_right(8)
    }
    #[inline(always)]
    fn rows_up2(self) -> Self {
        self.rotate_right(16)
    }
    #[inline(always)]
    fn shift_rows(self) -> Self {
        super::ct32::shift_rows(self)
    }
    #[inline(always)]
    fn inv_shift_rows(self) -> Self {
        super::ct32::inv_shift_rows(self)
    }
    #[inline]
    fn sub_bytes(q: &mut [Self; 8]) {
        super::ct32::sub_bytes(q);
    }
}

impl Plane for u64 {
    #[inline(always)]
    fn rows_up1(self) -> Self {
        self.rotate_right(16)
    }
    #[inline(always)]
    fn rows_up2(self) -> Self {
        self.rotate_right(32)
    }
    #[inline(always)]
    fn shift_rows(self) -> Self {
        super::ct64::shift_rows(self)
    }
    #[inline(always)]
    fn inv_shift_rows(self) -> Self {
        super::ct64::inv_shift_rows(self)
    }
    #[inline(always)]
    fn sub_bytes(q: &mut [Self; 8]) {
        sub_bytes(q);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The S-box by its definition (multiplicative inverse, then the affine map), computed
    /// slowly and only here, to check the circuit on all 256 inputs.
    fn sbox_reference(x: u8) -> u8 {
        fn mul(mut a: u8, mut b: u8) -> u8 {
            let mut p = 0;
            while b != 0 {
                if b & 1 != 0 {
                    p ^= a;
                }
                a = (a << 1) ^ if a & 0x80 != 0 { 0x1b } else { 0 };
                b >>= 1;
            }
            p
        }
        let inv = (1..=255u8).find(|&y| mul(x, y) == 1).unwrap_or(0);
        let mut s = 0x63;
        for i in 0..8 {
            let bit = (inv >> i) ^ (inv >> ((i + 4) % 8)) ^ (inv >> ((i + 5) % 8));
            let bit = bit ^ (inv >> ((i + 6) % 8)) ^ (inv >> ((i + 7) % 8));
            s ^= (bit & 1) << i;
        }
        s
    }

    #[test]
    fn circuit_is_the_sbox_and_its_inverse() {
        for x in 0..=255u8 {
            let w = u32::from(x) * 0x0101_0101;
            let s = sub_word(w);
            assert_eq!(s, u32::from(sbox_reference(x)) * 0x0101_0101, "S({x:#04x})");

            let mut q = [0u32; 8];
            for (i, p) in q.iter_mut().enumerate() {
                *p = u32::from((s as u8 >> i) & 1);
            }
            inv_sub_bytes(&mut q, u32::sub_bytes);
            let back = q.iter().enumerate().fold(0u8, |acc, (i, p)| acc | ((*p as u8 & 1) << i));
            assert_eq!(back, x, "InvS(S({x:#04x}))");
        }
    }
}
