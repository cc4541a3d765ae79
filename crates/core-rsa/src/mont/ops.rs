//! Limb-width-generic building blocks on little-endian digit slices: the [`Word`] trait that
//! each limb width implements, constant-time add/subtract/select, byte conversion, schoolbook
//! multiplication, and the variable-time helpers that only ever see public or blinded values.
//!
//! Every slice here is a number of one public length (the modulus's digit count); lengths and
//! loop bounds are public, digit values may be secret.

use core::fmt::Debug;
use core::ops::{BitAnd, BitOr, BitXor};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

/// One digit of a number: `BITS` significant bits held in an unsigned integer type.
pub(crate) trait Word:
    Copy
    + Default
    + Debug
    + PartialEq
    + Eq
    + Zeroize
    + ConditionallySelectable
    + ConstantTimeEq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + 'static
{
    /// Significant bits per digit.
    const BITS: u32;
    /// Digits in a buffer: enough for [`crate::MAX_BITS`], and even.
    const CAP: usize;
    /// A buffer of `CAP` digits.
    type Buf: AsRef<[Self]> + AsMut<[Self]> + Clone + Zeroize;
    /// The window table of a constant-time exponentiation.
    type Table: AsRef<[Self]> + AsMut<[Self]> + Zeroize;
    /// A buffer of `2·CAP` digits, for double-length products.
    type Wide: AsRef<[Self]> + AsMut<[Self]> + Zeroize;
    /// The digit 0.
    const ZERO: Self;
    /// The digit 1.
    const ONE: Self;

    /// A buffer of zeros.
    fn buf() -> Self::Buf;
    /// A table of zeros.
    fn table() -> Self::Table;
    /// A double-length buffer of zeros.
    fn wide() -> Self::Wide;
    /// The low `BITS` bits of `x`.
    fn from_u64(x: u64) -> Self;
    /// The digit as a `u64`.
    fn to_u64(self) -> u64;
    /// `a + b + carry` as (digit, carry); `carry` is 0 or 1.
    fn adc(a: Self, b: Self, carry: Self) -> (Self, Self);
    /// `a - b - borrow` as (digit, borrow); `borrow` is 0 or 1.
    fn sbb(a: Self, b: Self, borrow: Self) -> (Self, Self);
    /// `a * b + c + d` as (low digit, high digit).
    fn mac(a: Self, b: Self, c: Self, d: Self) -> (Self, Self);
    /// `-x^-1 mod 2^BITS` for odd `x`: Montgomery's `n0'`.
    fn neg_inv(x: Self) -> Self {
        // Newton's iteration doubles the correct low bits each time; x·x ≡ 1 mod 8 gives 3.
        let x = x.to_u64();
        let mut y = x;
        for _ in 0..6 {
            y = y.wrapping_mul(2u64.wrapping_sub(x.wrapping_mul(y)));
        }
        Self::from_u64(y.wrapping_neg())
    }
    /// All significant bits set when `c` is true, zero otherwise.
    fn mask(c: Choice) -> Self {
        Self::conditional_select(&Self::ZERO, &Self::from_u64(u64::MAX), c)
    }
}

/// Digits needed for a number of `bytes` bytes at `W::BITS` bits a digit.
pub(crate) const fn digits_for<W: Word>(bytes: usize) -> usize {
    (bytes * 8).div_ceil(W::BITS as usize)
}

/// Loads the big-endian `bytes` into `dst` (which is zeroed first); `false` if the value does
/// not fit. Variable time only in the lengths.
pub(crate) fn load_be<W: Word>(dst: &mut [W], bytes: &[u8]) -> bool {
    if (8..=24).contains(&W::BITS) { load_be_narrow(dst, bytes) } else { load_be_wide(dst, bytes) }
}

/// [`load_be`] for any digit width, with a `u128` accumulator.
fn load_be_wide<W: Word>(dst: &mut [W], bytes: &[u8]) -> bool {
    dst.fill(W::ZERO);
    let mut acc: u128 = 0;
    let mut have = 0u32;
    let mut i = 0;
    let mut overflow = 0u8;
    for &b in bytes.iter().rev() {
        acc |= (b as u128) << have;
        have += 8;
        while have >= W::BITS {
            match dst.get_mut(i) {
                Some(d) => *d = W::from_u64(acc as u64),
                None => overflow |= u8::from(acc as u64 & mask_bits(W::BITS) != 0),
            }
            acc >>= W::BITS;
            have -= W::BITS;
            i += 1;
        }
    }
    if have > 0 {
        match dst.get_mut(i) {
            Some(d) => *d = W::from_u64(acc as u64),
            None => overflow |= u8::from(acc != 0),
        }
    }
    // Whether the number fits is public (the callers fail on it), even for a secret number.
    core_hash::declassify(overflow) == 0
}

/// [`load_be`] for digits of 8 to 24 bits (at most one digit completes per byte), with a
/// `u32` accumulator: on 32-bit targets (the Cortex-M0's 15-bit digits) no 128-bit shifts and
/// far less code.
fn load_be_narrow<W: Word>(dst: &mut [W], bytes: &[u8]) -> bool {
    dst.fill(W::ZERO);
    let mask = (1u32 << W::BITS) - 1;
    let (mut acc, mut have, mut i, mut overflow) = (0u32, 0u32, 0usize, 0u32);
    for &b in bytes.iter().rev() {
        acc |= (b as u32) << have;
        have += 8;
        if have >= W::BITS {
            match dst.get_mut(i) {
                Some(d) => *d = W::from_u64((acc & mask) as u64),
                None => overflow |= acc & mask,
            }
            acc >>= W::BITS;
            have -= W::BITS;
            i += 1;
        }
    }
    match dst.get_mut(i) {
        Some(d) => *d = W::from_u64(acc as u64),
        None => overflow |= acc,
    }
    // Whether the number fits is public (the callers fail on it), even for a secret number.
    core_hash::declassify(overflow) == 0
}

fn mask_bits(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

/// Writes `src` big-endian into all of `out`, high bytes beyond the value as zeros (the value
/// must fit, which callers guarantee by sizing `out` to the modulus).
pub(crate) fn store_be<W: Word>(src: &[W], out: &mut [u8]) {
    if (8..=24).contains(&W::BITS) { store_be_narrow(src, out) } else { store_be_wide(src, out) }
}

/// [`store_be`] for digits of 8 to 24 bits, with a `u32` accumulator (see
/// [`load_be_narrow`]).
fn store_be_narrow<W: Word>(src: &[W], out: &mut [u8]) {
    let (mut acc, mut have, mut digits) = (0u32, 0u32, src.iter());
    for o in out.iter_mut().rev() {
        if have < 8 {
            acc |= (digits.next().map_or(0, |d| d.to_u64()) as u32) << have;
            have += W::BITS;
        }
        *o = acc as u8;
        acc >>= 8;
        have -= 8;
    }
}

/// [`store_be`] for any digit width, with a `u128` accumulator.
fn store_be_wide<W: Word>(src: &[W], out: &mut [u8]) {
    let mut acc: u128 = 0;
    let mut have = 0u32;
    let mut digits = src.iter();
    for o in out.iter_mut().rev() {
        if have < 8 {
            let d = digits.next().map_or(0, |d| d.to_u64());
            acc |= (d as u128) << have;
            have += W::BITS;
        }
        *o = acc as u8;
        acc >>= 8;
        have -= 8;
    }
}

/// `a += b`, returning the carry out.
pub(crate) fn add<W: Word>(a: &mut [W], b: &[W]) -> W {
    let mut c = W::ZERO;
    for (x, &y) in a.iter_mut().zip(b) {
        (*x, c) = W::adc(*x, y, c);
    }
    c
}

/// `a -= b`, returning the borrow out.
pub(crate) fn sub<W: Word>(a: &mut [W], b: &[W]) -> W {
    let mut c = W::ZERO;
    for (x, &y) in a.iter_mut().zip(b) {
        (*x, c) = W::sbb(*x, y, c);
    }
    c
}

/// The borrow out of `a - b`, without writing.
pub(crate) fn sub_borrow<W: Word>(a: &[W], b: &[W]) -> W {
    let mut c = W::ZERO;
    for (&x, &y) in a.iter().zip(b) {
        (_, c) = W::sbb(x, y, c);
    }
    c
}

/// `a -= n` when `ctl` is set, in constant time.
pub(crate) fn cond_sub<W: Word>(a: &mut [W], n: &[W], ctl: Choice) {
    let m = W::mask(ctl);
    let mut c = W::ZERO;
    for (x, &y) in a.iter_mut().zip(n) {
        (*x, c) = W::sbb(*x, y & m, c);
    }
}

/// `a += n` when `ctl` is set, in constant time.
pub(crate) fn cond_add<W: Word>(a: &mut [W], n: &[W], ctl: Choice) {
    let m = W::mask(ctl);
    let mut c = W::ZERO;
    for (x, &y) in a.iter_mut().zip(n) {
        (*x, c) = W::adc(*x, y & m, c);
    }
}

/// Brings a value below `2n`, given as `hi·2^(BITS·len) + a` with `hi` 0 or 1, below `n`.
pub(crate) fn reduce_once<W: Word>(a: &mut [W], hi: W, n: &[W]) {
    let borrow = sub_borrow(a, n);
    // Subtract when the value overflowed the digits or did not borrow against n.
    let ctl = hi.ct_eq(&W::ONE) | borrow.ct_eq(&W::ZERO);
    cond_sub(a, n, ctl);
}

/// `a = a + b mod n` for `a, b < n`.
pub(crate) fn add_mod<W: Word>(a: &mut [W], b: &[W], n: &[W]) {
    let c = add(a, b);
    reduce_once(a, c, n);
}

/// `a = a - b mod n` for `a, b < n`.
pub(crate) fn sub_mod<W: Word>(a: &mut [W], b: &[W], n: &[W]) {
    let borrow = sub(a, b);
    cond_add(a, n, borrow.ct_eq(&W::ONE));
}

/// `a = 2a mod n` for `a < n`.
pub(crate) fn double_mod<W: Word>(a: &mut [W], n: &[W]) {
    let mut c = 0u64;
    for x in a.iter_mut() {
        let v = x.to_u64();
        *x = W::from_u64((v << 1) | c);
        c = v >> (W::BITS - 1);
    }
    reduce_once(a, W::from_u64(c), n);
}

/// Whether `a == b`, in constant time.
pub(crate) fn ct_eq<W: Word>(a: &[W], b: &[W]) -> Choice {
    let mut d = W::ZERO;
    for (&x, &y) in a.iter().zip(b) {
        d = d | (x ^ y);
    }
    d.ct_eq(&W::ZERO) & Choice::from(u8::from(a.len() == b.len()))
}

/// Whether `a < b`; variable time, for public values only.
pub(crate) fn lt_vartime<W: Word>(a: &[W], b: &[W]) -> bool {
    sub_borrow(a, b) == W::ONE
}

/// Whether `a` is zero; variable time.
pub(crate) fn is_zero_vartime<W: Word>(a: &[W]) -> bool {
    a.iter().all(|&d| d == W::ZERO)
}

/// Whether `a` is zero, in constant time.
pub(crate) fn is_zero<W: Word>(a: &[W]) -> Choice {
    a.iter().fold(W::ZERO, |acc, &d| acc | d).ct_eq(&W::ZERO)
}

/// The bit length of `a`, in constant time: for a secret modulus (a prime of a private key),
/// whose bit length is public but whose digits are not. The caller declassifies the result.
pub(crate) fn bits_ct<W: Word>(a: &[W]) -> usize {
    if W::BITS <= 24 { bits_ct_narrow(a) } else { bits_ct_wide(a) }
}

/// [`bits_ct`] for digits of at most 24 bits, in `u32` arithmetic with value barriers: the
/// masks of the wide form, on the Cortex-M0, came out as a branch on each bit of a digit (a
/// secret prime's, at key load), and its 64-bit shifts as calls. A digit's bit length is how
/// many of `v, v >> 1, …` are nonzero; `t + 2^31 − 1` has its top bit set exactly when
/// `0 < t < 2^31`. Out of line, so that `cargo xtask m0`'s ct-scan sees it.
#[inline(never)]
fn bits_ct_narrow<W: Word>(a: &[W]) -> usize {
    use core_hash::value_barrier as vb;
    const NZ: u32 = 0x7fff_ffff;
    let mut bits = 0u32;
    for (i, d) in a.iter().enumerate() {
        let v = d.to_u64() as u32;
        let mut len = 0u32;
        for j in 0..W::BITS {
            len += (vb(v >> j) + NZ) >> 31;
        }
        let nonzero = vb((len + NZ) >> 31).wrapping_neg();
        bits = (bits & !nonzero) | ((i as u32 * W::BITS + len) & nonzero);
    }
    bits as usize
}

/// [`bits_ct`] for any digit width.
fn bits_ct_wide<W: Word>(a: &[W]) -> usize {
    let mut bits = 0u64;
    for (i, d) in a.iter().enumerate() {
        let v = d.to_u64();
        let mut len = 0u64;
        for j in 0..W::BITS {
            // All ones if bit j is set: the highest set bit's length wins.
            let set = ((v >> j) & 1).wrapping_neg();
            len = (len & !set) | ((u64::from(j) + 1) & set);
        }
        let nonzero = ((v | v.wrapping_neg()) >> 63).wrapping_neg();
        bits = (bits & !nonzero) | ((i as u64 * u64::from(W::BITS) + len) & nonzero);
    }
    bits as usize
}

/// How many bytes at the front of `bytes` are zero, in constant time (the byte length of a
/// secret number is public, its bytes are not). The caller declassifies the result.
pub(crate) fn leading_zero_bytes_ct(bytes: &[u8]) -> usize {
    let mut zeros = 0usize;
    let mut leading = 1u8;
    for &b in bytes {
        leading &= b.ct_eq(&0).unwrap_u8();
        zeros += usize::from(leading);
    }
    zeros
}

/// Bit `i` of `a` (0 beyond its digits); `i` is public.
pub(crate) fn bit<W: Word>(a: &[W], i: usize) -> u64 {
    let (d, s) = (i / W::BITS as usize, i % W::BITS as usize);
    // Narrow digits shift as `u32`: no 64-bit shift routine on 32-bit targets.
    a.get(d).map_or(0, |w| {
        if W::BITS <= 32 { ((w.to_u64() as u32 >> s) & 1) as u64 } else { (w.to_u64() >> s) & 1 }
    })
}

/// `r = a·b`, with `r` of `a.len() + b.len()` digits.
pub(crate) fn mul_full<W: Word>(r: &mut [W], a: &[W], b: &[W]) {
    r.fill(W::ZERO);
    for (i, &bi) in b.iter().enumerate() {
        let mut c = W::ZERO;
        for (j, &aj) in a.iter().enumerate() {
            (r[i + j], c) = W::mac(aj, bi, r[i + j], c);
        }
        r[i + a.len()] = c;
    }
}

/// `a^-1 mod n` into `out` for odd `n` and `0 < a < n`; `false` if `a` is not invertible.
/// VARIABLE TIME: callers pass a value multiplied by a fresh random factor, so its timing says
/// nothing about a secret. 15-bit digits are inverted as they are ([`inverse15`]); wider ones
/// on 64-bit limbs. Out of line, so that its buffers (and the inversion's) are not part of the
/// callers' frames during their exponentiations: on the Cortex-M0 that is the difference
/// between fitting in 16 KiB or not.
///
/// [`inverse15`]: super::inverse15
#[inline(never)]
pub(crate) fn inv_vartime<W: Word>(out: &mut [W], a: &[W], n: &[W]) -> bool {
    const B: usize = crate::MAX_BITS / 8;
    if W::BITS == 15 {
        return super::inverse15::inv_mod_vartime(out, a, n, W::neg_inv(n[0]));
    }
    let bytes = (n.len() * W::BITS as usize).div_ceil(8).min(B);
    let limbs = bytes.div_ceil(8);
    let mut buf = [0u8; B];
    let (mut a64, mut n64, mut r64) = ([0u64; B / 8], [0u64; B / 8], [0u64; B / 8]);
    store_be(n, &mut buf[..bytes]);
    load_be(&mut n64[..limbs], &buf[..bytes]);
    store_be(a, &mut buf[..bytes]);
    load_be(&mut a64[..limbs], &buf[..bytes]);
    let ok = super::inverse::inv_mod_vartime(
        &mut r64[..limbs],
        &a64[..limbs],
        &n64[..limbs],
        u64::neg_inv(n64[0]),
    );
    store_be(&r64[..limbs], &mut buf[..bytes]);
    load_be(out, &buf[..bytes]);
    buf.fill(0);
    a64.fill(0);
    r64.fill(0);
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// The bit length the obvious way, for comparison.
    fn bits_reference(a: &[u64], digit_bits: u32) -> usize {
        (0..a.len() * digit_bits as usize)
            .rev()
            .find(|&i| a[i / digit_bits as usize] >> (i % digit_bits as usize) & 1 == 1)
            .map_or(0, |i| i + 1)
    }

    #[test]
    fn bit_length_in_constant_time() {
        let cases: [[u64; 3]; 6] =
            [[0, 0, 0], [1, 0, 0], [0, 1, 0], [u64::MAX, 0, 1 << 63], [5, 0x7fff, 0], [0, 0, 3]];
        for a in cases {
            assert_eq!(bits_ct(&a), bits_reference(&a, 64), "{a:x?}");
            let digits: Vec<u16> = a.iter().map(|&d| (d & 0x7fff) as u16).collect();
            let wide: Vec<u64> = digits.iter().map(|&d| u64::from(d)).collect();
            assert_eq!(bits_ct(&digits), bits_reference(&wide, <u16 as Word>::BITS), "{digits:x?}");
        }
    }

    /// The `u32`-accumulator byte conversions of narrow digits agree with the `u128` ones,
    /// fitting or not, at every length around the digit boundaries.
    #[test]
    fn narrow_byte_conversions_match_wide() {
        let mut bytes = [0u8; 40];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(151).wrapping_add(0x5d);
        }
        bytes[0] = 0xff;
        for n in 0..=bytes.len() {
            for l in [0usize, 1, 2, 7, 8, 21, 22] {
                let src = &bytes[..n];
                let (mut a, mut b) = ([0u16; 22], [0u16; 22]);
                let fits = load_be_narrow(&mut a[..l], src);
                assert_eq!(fits, load_be_wide(&mut b[..l], src), "{n} bytes, {l} digits");
                assert_eq!(a, b, "{n} bytes, {l} digits");
                let (mut x, mut y) = ([0u8; 40], [0u8; 40]);
                store_be_narrow(&a[..l], &mut x[..n]);
                store_be_wide(&a[..l], &mut y[..n]);
                assert_eq!(x, y, "{n} bytes, {l} digits");
                if fits {
                    assert_eq!(&x[..n], src);
                }
            }
        }
        let digits = [0x1234u16, 0x7abc, 0x0f0f];
        for i in 0..15 * 4 {
            let want = digits.get(i / 15).map_or(0, |&d| (u64::from(d) >> (i % 15)) & 1);
            assert_eq!(bit::<u16>(&digits, i), want, "bit {i}");
        }
    }

    /// The narrow bit length agrees with the wide one and the obvious one on 15-bit digits:
    /// every digit value in the low, middle and top digit of a three-digit number.
    #[test]
    fn narrow_bit_length_matches() {
        for v in 0..=0x7fffu16 {
            for a in [[v, 0, 0], [0, v, 0], [1, 0, v]] {
                let wide: Vec<u64> = a.iter().map(|&d| u64::from(d)).collect();
                let want = bits_reference(&wide, 15);
                assert_eq!(bits_ct_narrow(&a), want, "{a:x?}");
                assert_eq!(bits_ct_wide(&a), want, "{a:x?}");
            }
        }
    }

    #[test]
    fn leading_zero_bytes_and_zero_test() {
        assert_eq!(leading_zero_bytes_ct(&[]), 0);
        assert_eq!(leading_zero_bytes_ct(&[0, 0, 0]), 3);
        assert_eq!(leading_zero_bytes_ct(&[0, 0, 7, 0, 1]), 2);
        assert_eq!(leading_zero_bytes_ct(&[9, 0]), 0);
        assert!(bool::from(is_zero::<u64>(&[0, 0])));
        assert!(!bool::from(is_zero::<u64>(&[0, 1 << 40])));
        assert!(bool::from(is_zero::<u16>(&[])));
    }
}
