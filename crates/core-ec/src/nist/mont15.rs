//! Montgomery arithmetic modulo an odd prime in 15-bit limbs held in `u32` words, generic over
//! the limb count: the default on 32-bit targets. The Cortex-M0 multiplier gives only the low
//! 32 bits of a product (`MULS`), so every product here is of two 15-bit values and fits in 32
//! bits, with room for the running sum (BearSSL's "i15"/"m15" code makes the same choice); a
//! 32-bit radix would need `u64` products, which on the M0 are a library call of four
//! multiplications and carries. Radix-2^15 CIOS keeps every intermediate below 2^32:
//! `t + a·b + q·m + c < 2^15 + 2·(2^15)^2 + 2^17`. Every operation runs the same instructions
//! whatever the values.

// Limb-indexed loops read as the textbook algorithms do.
#![allow(clippy::needless_range_loop)]

use super::Field;
use subtle::Choice;

/// Bits per limb.
const W: u32 = 15;
/// The limb mask.
const MASK: u32 = (1 << W) - 1;

/// A modulus `m` with everything Montgomery multiplication modulo `m` needs, in `N` 15-bit
/// limbs (least significant first); `R = 2^(15·N)`.
#[derive(Debug)]
pub(crate) struct Mont15<const N: usize> {
    /// The modulus, little-endian 15-bit limbs.
    m: [u32; N],
    /// `−m⁻¹ mod 2^15`.
    m0inv: u32,
    /// `R² mod m`.
    r2: [u32; N],
    /// `R mod m`.
    one: [u32; N],
    /// The modulus, big-endian.
    be: &'static [u8],
}

/// Runs `$body` with `$i` bound to each limb index in order: written out for `N = 18`
/// (P-256), where at the size-optimised levels a Cortex-M0 is built with compilers keep a loop
/// over limbs as a loop over stack arrays addressed by index (and a closure as a call).
macro_rules! for_limbs {
    ($i:ident => $body:block) => {
        if N == 18 {
            for_limbs!(@each $i $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17);
        } else {
            for $i in 0..N $body
        }
    };
    (@each $i:ident $body:block; $($k:literal)*) => {$({
        let $i: usize = $k;
        $body
    })*};
}

/// `x · y` (both below 2^16 here, so the product fits). On Arm with `asm` a `muls` into
/// `x`'s register (`core_asm::thumbv6m::ec::muls`): LLVM otherwise multiplies into a copy
/// of the operand that stays live (the row's `a[i]`), one `mov` per limb product, about 7% of
/// a P-256 multiplication.
#[inline(always)]
fn mul_into(x: u32, y: u32) -> u32 {
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    return core_asm::thumbv6m::ec::muls(x, y);
    #[cfg(not(all(target_arch = "arm", feature = "asm")))]
    {
        x * y
    }
}

/// Little-endian 15-bit limbs of the big-endian `bytes` (bits beyond `15·N` are dropped).
const fn const_limbs<const N: usize>(bytes: &[u8]) -> [u32; N] {
    let mut x = [0u32; N];
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[bytes.len() - 1 - i] as u32;
        let bit = 8 * i;
        let (limb, off) = (bit / 15, (bit % 15) as u32);
        if limb < N {
            x[limb] |= (byte << off) & MASK;
        }
        if off > 7 && limb + 1 < N {
            x[limb + 1] |= byte >> (15 - off);
        }
        i += 1;
    }
    x
}

impl<const N: usize> Mont15<N> {
    /// The constants for the odd modulus given big-endian in `be` (below `2^(15·N − 1)`),
    /// computed at compile time.
    pub(crate) const fn new(be: &'static [u8]) -> Self {
        let m = const_limbs::<N>(be);
        let mut inv = m[0];
        let mut k = 0;
        while k < 4 {
            inv = inv.wrapping_mul(2u32.wrapping_sub(m[0].wrapping_mul(inv)));
            k += 1;
        }
        let mut x = [0u32; N];
        x[0] = 1;
        let mut one = [0u32; N];
        let mut d = 0;
        while d < 30 * N {
            // x = 2x mod m: limbs stay below 2^15 after the carry pass.
            let mut t = [0u32; N];
            let mut carry = 0;
            let mut i = 0;
            while i < N {
                let v = (x[i] << 1) | carry;
                t[i] = v & MASK;
                carry = v >> W;
                i += 1;
            }
            let mut s = [0u32; N];
            let mut borrow = 0;
            i = 0;
            while i < N {
                let v = t[i].wrapping_sub(m[i]).wrapping_sub(borrow);
                s[i] = v & MASK;
                borrow = v >> 31;
                i += 1;
            }
            x = if carry == 1 || borrow == 0 { s } else { t };
            if d + 1 == 15 * N {
                one = x;
            }
            d += 1;
        }
        Self { m, m0inv: inv.wrapping_neg() & MASK, r2: x, one, be }
    }

    /// `t − m` if `t ≥ m` (with `hi` an extra top bit), else `t`.
    #[inline(always)]
    fn reduce_once(&self, t: [u32; N], hi: u32) -> [u32; N] {
        let mut d = [0u32; N];
        let mut borrow = 0;
        for_limbs!(i => {
            let v = t[i].wrapping_sub(self.m[i]).wrapping_sub(borrow);
            d[i] = v & MASK;
            borrow = v >> 31;
        });
        // The difference is kept unless it borrowed past `hi`.
        let under = hi.wrapping_sub(borrow) >> 31;
        // Through `Choice` (an optimisation barrier): with a plain mask LLVM turns this select
        // into a branch on the secret borrow, which `cargo xtask ct` reports.
        let keep_t = u32::from(Choice::from(under as u8).unwrap_u8()).wrapping_neg();
        let mut r = [0u32; N];
        for_limbs!(i => {
            r[i] = (t[i] & keep_t) | (d[i] & !keep_t);
        });
        r
    }

    /// Montgomery product `a·b·R⁻¹ mod m` for `a, b < m`.
    #[inline(always)]
    fn mont_mul(&self, a: &[u32; N], b: &[u32; N]) -> [u32; N] {
        if N == 18 {
            return self.mont_mul_18(a, b);
        }
        let mut t = [0u32; N];
        let mut hi = 0u32;
        for &ai in a {
            let q = (t[0].wrapping_add(ai.wrapping_mul(b[0]))).wrapping_mul(self.m0inv) & MASK;
            let mut c = (t[0] + ai * b[0] + q * self.m[0]) >> W;
            for j in 1..N {
                let v = t[j] + ai * b[j] + q * self.m[j] + c;
                t[j - 1] = v & MASK;
                c = v >> W;
            }
            let v = hi + c;
            t[N - 1] = v & MASK;
            hi = v >> W;
        }
        self.reduce_once(t, hi)
    }

    /// [`mont_mul`](Self::mont_mul) for 18 limbs (P-256's field and order) with the inner loop
    /// written out: compilers do not unroll it at the size-optimised levels a Cortex-M0 is
    /// built with, and unrolled, the limbs of a compile-time modulus fold into the code (for
    /// P-256's prime, `m0inv = 1` and every `q·m[j]` is zero, `q`, a shift or a shift and a
    /// subtraction: no multiplication left).
    #[inline(always)]
    fn mont_mul_18(&self, a: &[u32; N], b: &[u32; N]) -> [u32; N] {
        let mut t = [0u32; N];
        let mut hi = 0u32;
        for &ai in a {
            let q = (t[0].wrapping_add(ai.wrapping_mul(b[0]))).wrapping_mul(self.m0inv) & MASK;
            let mut c = (t[0] + ai * b[0] + q * self.m[0]) >> W;
            macro_rules! steps {
                ($($j:literal)*) => {$(
                    let v = t[$j] + mul_into(b[$j], ai) + q * self.m[$j] + c;
                    t[$j - 1] = v & MASK;
                    c = v >> W;
                )*};
            }
            steps!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17);
            let v = hi + c;
            t[N - 1] = v & MASK;
            hi = v >> W;
        }
        self.reduce_once(t, hi)
    }

    /// Whether `x < m`, in constant time.
    fn below_m(&self, x: &[u32; N]) -> Choice {
        let mut borrow = 0;
        for i in 0..N {
            borrow = x[i].wrapping_sub(self.m[i]).wrapping_sub(borrow) >> 31;
        }
        Choice::from(borrow as u8)
    }
}

/// A modulus known at compile time: `MONT` holds its constants, so every limb of it folds
/// into the code that [`Fixed15`] generates (multiplications by its all-ones and zero
/// limbs disappear), which a modulus read through a pointer would not allow.
pub(crate) trait Modulus15<const N: usize>: Sync + 'static {
    /// The modulus's constants.
    const MONT: Mont15<N>;
    /// The curve's comb table, for the field prime ([`Field::comb_bytes`]); empty for the
    /// group order.
    const COMB_BYTES: &'static [u8] = &[];
}

/// The [`Field`] of the compile-time modulus `M`: a zero-sized handle.
pub(crate) struct Fixed15<M, const N: usize>(core::marker::PhantomData<M>);

impl<M, const N: usize> Fixed15<M, N> {
    /// The handle.
    pub(crate) const fn new() -> Self {
        Self(core::marker::PhantomData)
    }
}

impl<M: Modulus15<N>, const N: usize> Field for Fixed15<M, N> {
    type E = [u32; N];

    fn modulus(&self) -> &'static [u8] {
        M::MONT.be
    }

    fn comb_bytes(&self) -> &'static [u8] {
        M::COMB_BYTES
    }

    #[inline]
    fn zero(&self) -> [u32; N] {
        [0; N]
    }

    #[inline]
    fn one(&self) -> [u32; N] {
        M::MONT.one
    }

    #[inline]
    fn add(&self, a: &[u32; N], b: &[u32; N]) -> [u32; N] {
        M::MONT.add(a, b)
    }

    #[inline]
    fn halve(&self, a: &[u32; N]) -> [u32; N] {
        M::MONT.halve(a)
    }

    #[inline]
    fn sub(&self, a: &[u32; N], b: &[u32; N]) -> [u32; N] {
        M::MONT.sub(a, b)
    }

    #[inline]
    fn mul(&self, a: &[u32; N], b: &[u32; N]) -> [u32; N] {
        M::MONT.mont_mul(a, b)
    }

    #[inline]
    fn select(a: &[u32; N], b: &[u32; N], choice: Choice) -> [u32; N] {
        Mont15::<N>::select(a, b, choice)
    }

    fn is_zero(a: &[u32; N]) -> Choice {
        Mont15::<N>::is_zero(a)
    }

    // The conversions into and out of Montgomery form go through `Self::mul`, the one
    // out-of-line copy of the (written-out) Montgomery product, rather than each inlining
    // their own: on the Cortex-M0 that is about 1.4 KB less code per modulus.
    fn import_be(&self, bytes: &[u8]) -> ([u32; N], Choice) {
        let (x, ok) = M::MONT.import_be_plain(bytes);
        (self.mul(&x, &M::MONT.r2), ok)
    }

    fn below_modulus(&self, bytes: &[u8]) -> Choice {
        M::MONT.import_be_plain(bytes).1
    }

    fn import_be_reduce(&self, bytes: &[u8]) -> [u32; N] {
        let x = M::MONT.import_be_reduce_plain(bytes);
        self.mul(&x, &M::MONT.r2)
    }

    fn to_be(&self, a: &[u32; N], out: &mut [u8]) {
        let mut one = [0u32; N];
        one[0] = 1;
        Mont15::<N>::plain_to_be(&self.mul(a, &one), out);
    }
}

impl<const N: usize> Mont15<N> {
    #[inline(always)]
    pub(crate) fn add(&self, a: &[u32; N], b: &[u32; N]) -> [u32; N] {
        let mut t = [0u32; N];
        let mut c = 0;
        for_limbs!(i => {
            let v = a[i] + b[i] + c;
            t[i] = v & MASK;
            c = v >> W;
        });
        self.reduce_once(t, c)
    }

    /// `a/2 mod m` for `a < m`: `a`, plus `m` when `a` is odd (a mask, no branch), shifted
    /// right by one bit across the 15-bit limbs, the carry becoming the new top bit.
    #[inline(always)]
    pub(crate) fn halve(&self, a: &[u32; N]) -> [u32; N] {
        // Through `Choice`, an optimisation barrier, so the add stays branch-free.
        let mask = u32::from(Choice::from((a[0] & 1) as u8).unwrap_u8()).wrapping_neg();
        let mut t = [0u32; N];
        let mut c = 0;
        for_limbs!(i => {
            let v = a[i] + (self.m[i] & mask) + c;
            t[i] = v & MASK;
            c = v >> W;
        });
        let mut r = [0u32; N];
        for_limbs!(i => {
            let above = if i + 1 < N { t[i + 1] } else { c };
            r[i] = (t[i] >> 1) | ((above & 1) << (W - 1));
        });
        r
    }

    // The add-back's carry out of the top limb is dropped (the sum wraps back below `m`);
    // written out, its last assignment is never read.
    #[allow(unused_assignments)]
    #[inline(always)]
    pub(crate) fn sub(&self, a: &[u32; N], b: &[u32; N]) -> [u32; N] {
        let mut t = [0u32; N];
        let mut borrow = 0;
        for_limbs!(i => {
            let v = a[i].wrapping_sub(b[i]).wrapping_sub(borrow);
            t[i] = v & MASK;
            borrow = v >> 31;
        });
        // Through `Choice`, an optimisation barrier, so the add-back stays branch-free.
        let mask = u32::from(Choice::from(borrow as u8).unwrap_u8()).wrapping_neg();
        let mut c = 0;
        for_limbs!(i => {
            let v = t[i] + (self.m[i] & mask) + c;
            t[i] = v & MASK;
            c = v >> W;
        });
        t
    }

    #[inline]
    pub(crate) fn select(a: &[u32; N], b: &[u32; N], choice: Choice) -> [u32; N] {
        let mask = u32::from(choice.unwrap_u8()).wrapping_neg();
        let mut r = [0u32; N];
        // Written out for P-256: every limb stored in straight-line code, so the zeroing of
        // `r` is dropped (as a loop it was a `memclr` call, then the loop).
        for_limbs!(i => {
            r[i] = a[i] ^ ((a[i] ^ b[i]) & mask);
        });
        r
    }

    pub(crate) fn is_zero(a: &[u32; N]) -> Choice {
        let acc = a.iter().fold(0u32, |acc, &x| acc | x);
        Choice::from(((acc | acc.wrapping_neg()) >> 31) as u8 ^ 1)
    }

    /// `bytes` as limbs (not in Montgomery form), zero and `false` if not below `m`.
    pub(crate) fn import_be_plain(&self, bytes: &[u8]) -> ([u32; N], Choice) {
        let x = const_limbs::<N>(bytes);
        // Bits at or beyond 15·N were dropped by the conversion: look for them separately.
        let mut spill = 0u32;
        for (i, &b) in bytes.iter().rev().enumerate() {
            let bit = 8 * i;
            if bit + 8 > 15 * N {
                let keep = (15 * N).saturating_sub(bit) as u32;
                spill |= u32::from(b) >> keep;
            }
        }
        let no_spill = Choice::from(((spill | spill.wrapping_neg()) >> 31) as u8 ^ 1);
        let ok = self.below_m(&x) & no_spill;
        (Self::select(&[0; N], &x, ok), ok)
    }

    /// `bytes` as limbs reduced once modulo `m` (not in Montgomery form).
    pub(crate) fn import_be_reduce_plain(&self, bytes: &[u8]) -> [u32; N] {
        self.reduce_once(const_limbs::<N>(bytes), 0)
    }

    /// Limbs `x` (not in Montgomery form) as big-endian bytes filling `out`.
    pub(crate) fn plain_to_be(x: &[u32; N], out: &mut [u8]) {
        let len = out.len();
        for (i, o) in out.iter_mut().enumerate() {
            let bit = 8 * (len - 1 - i);
            let (limb, off) = (bit / 15, (bit % 15) as u32);
            let mut v = if limb < N { x[limb] >> off } else { 0 };
            if off > 7 && limb + 1 < N {
                v |= x[limb + 1] << (15 - off);
            }
            *o = v as u8;
        }
    }
}
