//! Montgomery arithmetic modulo an odd prime with 64-bit limbs and `u128` products (CIOS,
//! Koç–Acar–Kaliski 1996), generic over the limb count: the default field and scalar
//! arithmetic on 64-bit hosts. Every operation runs the same instructions whatever the values;
//! the final conditional subtractions are masks, never branches.

// Limb-indexed loops read as the textbook algorithms do.
#![allow(clippy::needless_range_loop)]

use super::Field;
use subtle::Choice;

/// The most limbs of any modulus here (P-521's nine).
const MAX_LIMBS: usize = 9;

/// A modulus `m` with everything Montgomery multiplication modulo `m` needs, in `N` 64-bit
/// limbs (least significant first); `R = 2^(64·N)`.
#[derive(Debug)]
pub(crate) struct Mont64<const N: usize> {
    /// The modulus, little-endian limbs.
    m: [u64; N],
    /// `−m⁻¹ mod 2^64`.
    m0inv: u64,
    /// `R² mod m`, which converts into Montgomery form.
    r2: [u64; N],
    /// `R mod m`: one in Montgomery form.
    one: [u64; N],
    /// The modulus, big-endian, in `len` bytes.
    be: &'static [u8],
}

impl<const N: usize> Mont64<N> {
    /// The constants for the odd modulus given big-endian in `be` (at most `8·N` bytes, top
    /// limb not all zero), computed at compile time.
    pub(crate) const fn new(be: &'static [u8]) -> Self {
        let mut m = [0u64; N];
        let mut i = 0;
        while i < be.len() {
            let pos = be.len() - 1 - i;
            m[i / 8] |= (be[pos] as u64) << (8 * (i % 8));
            i += 1;
        }
        // Newton's iteration for m⁻¹ mod 2^64: each step doubles the number of correct bits,
        // and any odd m is its own inverse mod 8.
        let mut inv = m[0];
        let mut k = 0;
        while k < 6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(m[0].wrapping_mul(inv)));
            k += 1;
        }
        // R mod m and R² mod m by doubling 1 modulo m.
        let mut x = [0u64; N];
        x[0] = 1;
        let mut one = [0u64; N];
        let mut d = 0;
        while d < 128 * N {
            x = const_double(&x, &m);
            if d + 1 == 64 * N {
                one = x;
            }
            d += 1;
        }
        Self { m, m0inv: inv.wrapping_neg(), r2: x, one, be }
    }
}

impl<const N: usize> Mont64<N> {
    /// The modulus, big-endian (for the `x86_adx` code and tests).
    #[cfg(any(all(target_arch = "x86_64", feature = "asm"), test))]
    pub(crate) const fn modulus_be(&self) -> &'static [u8] {
        self.be
    }

    /// The modulus, little-endian limbs.
    pub(crate) const fn limbs_le(&self) -> &[u64; N] {
        &self.m
    }

    /// `(aR)⁻¹·R² = a⁻¹R mod m` for `aR` in Montgomery form (zero for zero) by constant-time
    /// safegcd with `L` signed 62-bit limbs, the modulus's constants in `s`.
    #[inline]
    pub(crate) fn invert_safegcd<const L: usize>(
        &self,
        s: &super::safegcd::Modulus<L>,
        a: &[u64; N],
    ) -> [u64; N] {
        let mut out = [0u64; N];
        s.mul_inverse(a, &self.r2, &mut out);
        out
    }

    /// [`Self::invert_safegcd`] for a public `aR`, in variable time.
    pub(crate) fn invert_safegcd_vartime<const L: usize>(
        &self,
        s: &super::safegcd::Modulus<L>,
        a: &[u64; N],
    ) -> [u64; N] {
        let mut out = [0u64; N];
        s.mul_inverse_vartime(a, &self.r2, &mut out);
        out
    }

    /// One in Montgomery form (`R mod m`).
    #[inline(always)]
    pub(crate) const fn one(&self) -> [u64; N] {
        self.one
    }

    /// `a·b·R⁻¹ mod m` at compile time (the same CIOS steps as [`Mont64::mont_mul`]).
    const fn const_mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let mut t = [0u64; N];
        let mut hi = 0u64;
        let mut i = 0;
        while i < N {
            let mut c = 0u64;
            let mut j = 0;
            while j < N {
                let v = a[i] as u128 * b[j] as u128 + t[j] as u128 + c as u128;
                t[j] = v as u64;
                c = (v >> 64) as u64;
                j += 1;
            }
            let h = hi as u128 + c as u128;
            let q = t[0].wrapping_mul(self.m0inv);
            let mut c = ((q as u128 * self.m[0] as u128 + t[0] as u128) >> 64) as u64;
            j = 1;
            while j < N {
                let v = q as u128 * self.m[j] as u128 + t[j] as u128 + c as u128;
                t[j - 1] = v as u64;
                c = (v >> 64) as u64;
                j += 1;
            }
            let top = (h as u64) as u128 + c as u128;
            t[N - 1] = top as u64;
            hi = ((h >> 64) + (top >> 64)) as u64;
            i += 1;
        }
        let (d, borrow) = const_sub(&t, &self.m);
        if hi == 1 || borrow == 0 { d } else { t }
    }

    /// A comb table of `K` affine points, each `x‖y` in `len` big-endian bytes (the layout
    /// of [`tables`](super::tables)), converted at compile time into
    /// Montgomery form, so the 64-bit scalar multiplication selects limbs directly.
    pub(crate) const fn comb<const K: usize>(
        &self,
        bytes: &[u8],
        len: usize,
    ) -> [[[u64; N]; 2]; K] {
        let mut out = [[[0u64; N]; 2]; K];
        let mut e = 0;
        while e < K {
            let mut c = 0;
            while c < 2 {
                let start = (2 * e + c) * len;
                let mut x = [0u64; N];
                let mut i = 0;
                while i < len {
                    x[i / 8] |= (bytes[start + len - 1 - i] as u64) << (8 * (i % 8));
                    i += 1;
                }
                out[e][c] = self.const_mul(&x, &self.r2);
                c += 1;
            }
            e += 1;
        }
        out
    }
}

#[cfg(all(test, target_arch = "x86_64", feature = "asm"))]
impl Mont64<4> {
    /// The modulus's limbs, little-endian, followed by `−m⁻¹ mod 2^64`: what the assembly
    /// kernels' static operands must hold (checked in the ADX backends' tests).
    pub(crate) const fn limbs_and_m0inv(&self) -> [u64; 5] {
        [self.m[0], self.m[1], self.m[2], self.m[3], self.m0inv]
    }
}

#[cfg(all(test, target_arch = "x86_64", feature = "asm"))]
impl Mont64<6> {
    /// As `limbs_and_m0inv`, for six limbs.
    pub(crate) const fn limbs_and_m0inv6(&self) -> [u64; 7] {
        let m = &self.m;
        [m[0], m[1], m[2], m[3], m[4], m[5], self.m0inv]
    }
}

/// `2x mod m` for `x < m`, at compile time.
const fn const_double<const N: usize>(x: &[u64; N], m: &[u64; N]) -> [u64; N] {
    let mut t = [0u64; N];
    let mut carry = 0u64;
    let mut i = 0;
    while i < N {
        t[i] = (x[i] << 1) | carry;
        carry = x[i] >> 63;
        i += 1;
    }
    let (d, borrow) = const_sub(&t, m);
    if carry == 1 || borrow == 0 { d } else { t }
}

/// `a − b` and the borrow out, at compile time.
const fn const_sub<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut d = [0u64; N];
    let mut borrow = 0u64;
    let mut i = 0;
    while i < N {
        let (x, b1) = a[i].overflowing_sub(b[i]);
        let (y, b2) = x.overflowing_sub(borrow);
        d[i] = y;
        borrow = (b1 | b2) as u64;
        i += 1;
    }
    (d, borrow)
}

/// `a + b + carry` as (sum, carry out).
#[inline(always)]
fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a − b − borrow` as (difference, borrow out ∈ {0, 1}).
#[inline(always)]
fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, ((t >> 64) as u64) & 1)
}

/// `a·b + c + d` as (low, high): never overflows 128 bits.
#[inline(always)]
fn mac(a: u64, b: u64, c: u64, d: u64) -> (u64, u64) {
    let t = a as u128 * b as u128 + c as u128 + d as u128;
    (t as u64, (t >> 64) as u64)
}

impl<const N: usize> Mont64<N> {
    /// `(hi·2^(64N) + t) − m` if that is non-negative, else `t`, for a value below `2m`.
    #[inline(always)]
    pub(crate) fn reduce_once(&self, t: [u64; N], hi: u64) -> [u64; N] {
        let mut d = [0u64; N];
        let mut borrow = 0;
        for i in 0..N {
            (d[i], borrow) = sbb(t[i], self.m[i], borrow);
        }
        // Keep the difference unless it borrowed past `hi`.
        let (_, under) = sbb(hi, 0, borrow);
        // Through `Choice` (an optimisation barrier): with a plain mask LLVM turns this select
        // into a branch on the secret borrow, which `cargo xtask ct` reports.
        let keep_t = u64::from(Choice::from(under as u8).unwrap_u8()).wrapping_neg();
        let mut r = [0u64; N];
        for i in 0..N {
            r[i] = (t[i] & keep_t) | (d[i] & !keep_t);
        }
        r
    }

    /// Montgomery product `a·b·R⁻¹ mod m` for `a, b < m` (CIOS, with the multiply and reduce
    /// passes of each outer step kept separate, so every intermediate fits in 128 bits).
    #[inline(always)]
    fn mont_mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let mut t = [0u64; N];
        let mut hi = 0u64;
        for &ai in a {
            let mut c = 0;
            for j in 0..N {
                (t[j], c) = mac(ai, b[j], t[j], c);
            }
            let (h, h2) = adc(hi, c, 0);
            let q = t[0].wrapping_mul(self.m0inv);
            let (_, mut c) = mac(q, self.m[0], t[0], 0);
            for j in 1..N {
                (t[j - 1], c) = mac(q, self.m[j], t[j], c);
            }
            let (top, c2) = adc(h, c, 0);
            t[N - 1] = top;
            hi = h2 + c2;
        }
        self.reduce_once(t, hi)
    }

    /// Montgomery square `a²·R⁻¹ mod m` for `a < m`: the product with each cross term
    /// `a_i·a_j` taken once and doubled (`N(N+1)/2` limb products instead of `N²`), then
    /// reduced word by word (separated operand scanning), the carry out of each step kept for
    /// the next; the result is below `2m` and one masked subtraction finishes.
    #[inline(always)]
    fn mont_sqr(&self, a: &[u64; N]) -> [u64; N] {
        // 2N limbs; the array is sized for the longest modulus here (P-521, nine limbs).
        let mut t = [0u64; 2 * MAX_LIMBS];
        for i in 0..N {
            let mut c = 0;
            for j in i + 1..N {
                (t[i + j], c) = mac(a[i], a[j], t[i + j], c);
            }
            t[i + N] = c;
        }
        let mut top = 0;
        for limb in &mut t[..2 * N] {
            let next = *limb >> 63;
            *limb = (*limb << 1) | top;
            top = next;
        }
        let mut c = 0;
        for i in 0..N {
            let (lo, hi) = mac(a[i], a[i], 0, 0);
            (t[2 * i], c) = adc(t[2 * i], lo, c);
            (t[2 * i + 1], c) = adc(t[2 * i + 1], hi, c);
        }
        let mut carry = 0;
        for i in 0..N {
            let q = t[i].wrapping_mul(self.m0inv);
            let mut c = 0;
            for j in 0..N {
                (t[i + j], c) = mac(q, self.m[j], t[i + j], c);
            }
            (t[i + N], carry) = adc(t[i + N], c, carry);
        }
        let mut r = [0u64; N];
        r.copy_from_slice(&t[N..2 * N]);
        self.reduce_once(r, carry)
    }

    /// Little-endian limbs of a big-endian byte string of at most `8·N` bytes.
    fn limbs(bytes: &[u8]) -> [u64; N] {
        let mut x = [0u64; N];
        for (i, &b) in bytes.iter().rev().enumerate().take(8 * N) {
            x[i / 8] |= u64::from(b) << (8 * (i % 8));
        }
        x
    }

    /// Whether `x < m`, in constant time.
    fn below_m(&self, x: &[u64; N]) -> Choice {
        let mut borrow = 0;
        for i in 0..N {
            (_, borrow) = sbb(x[i], self.m[i], borrow);
        }
        Choice::from(borrow as u8)
    }
}

/// A modulus known at compile time: `MONT` holds its constants, so every limb of it folds
/// into the code that [`Fixed64`] generates (multiplications by its all-ones and zero
/// limbs disappear), which a modulus read through a pointer would not allow.
pub(crate) trait Modulus64<const N: usize>: Sync + 'static {
    /// The modulus's constants.
    const MONT: Mont64<N>;
    /// The generator comb table in Montgomery form, for a field prime (empty otherwise).
    const COMB: &'static [[[u64; N]; 2]] = &[];
    /// `G, 3G, …, 127G` affine in Montgomery form, for a field prime (empty otherwise).
    const ODD_G: &'static [[[u64; N]; 2]] = &[];
}

/// The [`Field`] of the compile-time modulus `M`: a zero-sized handle.
pub(crate) struct Fixed64<M, const N: usize>(core::marker::PhantomData<M>);

impl<M, const N: usize> Fixed64<M, N> {
    /// The handle.
    pub(crate) const fn new() -> Self {
        Self(core::marker::PhantomData)
    }
}

impl<M: Modulus64<N>, const N: usize> Field for Fixed64<M, N> {
    type E = [u64; N];

    fn modulus(&self) -> &'static [u8] {
        M::MONT.be
    }

    #[inline]
    fn zero(&self) -> [u64; N] {
        [0; N]
    }

    #[inline]
    fn one(&self) -> [u64; N] {
        M::MONT.one
    }

    #[inline]
    fn add(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        M::MONT.add(a, b)
    }

    #[inline]
    fn halve(&self, a: &[u64; N]) -> [u64; N] {
        M::MONT.halve(a)
    }

    #[inline]
    fn sub(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        M::MONT.sub(a, b)
    }

    #[inline]
    fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        M::MONT.mont_mul(a, b)
    }

    #[inline]
    fn sqr(&self, a: &[u64; N]) -> [u64; N] {
        M::MONT.mont_sqr(a)
    }

    #[inline]
    fn select(a: &[u64; N], b: &[u64; N], choice: Choice) -> [u64; N] {
        Mont64::<N>::select(a, b, choice)
    }

    fn is_zero(a: &[u64; N]) -> Choice {
        Mont64::<N>::is_zero(a)
    }

    fn import_be(&self, bytes: &[u8]) -> ([u64; N], Choice) {
        M::MONT.import_be(bytes)
    }

    fn import_be_reduce(&self, bytes: &[u8]) -> [u64; N] {
        M::MONT.import_be_reduce(bytes)
    }

    fn to_be(&self, a: &[u64; N], out: &mut [u8]) {
        M::MONT.to_be(a, out);
    }

    fn comb(&self) -> &'static [[[u64; N]; 2]] {
        M::COMB
    }

    fn odd_g(&self) -> &'static [[[u64; N]; 2]] {
        M::ODD_G
    }

    /// By safegcd with nine signed limbs, enough for every modulus here (P-521's 521 bits).
    fn invert(&self, a: &[u64; N]) -> [u64; N] {
        M::MONT.invert_safegcd(const { &super::safegcd::Modulus::<9>::new(M::MONT.limbs_le()) }, a)
    }

    fn invert_vartime(&self, a: &[u64; N]) -> [u64; N] {
        M::MONT.invert_safegcd_vartime(
            const { &super::safegcd::Modulus::<9>::new(M::MONT.limbs_le()) },
            a,
        )
    }
}

impl<const N: usize> Mont64<N> {
    #[inline(always)]
    pub(crate) fn add(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let mut t = [0u64; N];
        let mut c = 0;
        for i in 0..N {
            (t[i], c) = adc(a[i], b[i], c);
        }
        self.reduce_once(t, c)
    }

    /// `a/2 mod m` for `a < m`: `a`, plus `m` when `a` is odd (a mask, no branch), shifted
    /// right by one bit with the carry as the new top bit; below `m` since `(a + m)/2 < m`.
    #[inline(always)]
    pub(crate) fn halve(&self, a: &[u64; N]) -> [u64; N] {
        // Through `Choice`, an optimisation barrier, so the add stays branch-free.
        let mask = u64::from(Choice::from((a[0] & 1) as u8).unwrap_u8()).wrapping_neg();
        let mut t = [0u64; N];
        let mut c = 0;
        for i in 0..N {
            (t[i], c) = adc(a[i], self.m[i] & mask, c);
        }
        for i in 0..N - 1 {
            t[i] = (t[i] >> 1) | (t[i + 1] << 63);
        }
        t[N - 1] = (t[N - 1] >> 1) | (c << 63);
        t
    }

    #[inline(always)]
    pub(crate) fn sub(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let mut t = [0u64; N];
        let mut borrow = 0;
        for i in 0..N {
            (t[i], borrow) = sbb(a[i], b[i], borrow);
        }
        // Add m back if the subtraction borrowed.
        // Through `Choice`, an optimisation barrier, so the add-back stays branch-free.
        let mask = u64::from(Choice::from(borrow as u8).unwrap_u8()).wrapping_neg();
        let mut c = 0;
        for i in 0..N {
            (t[i], c) = adc(t[i], self.m[i] & mask, c);
        }
        t
    }

    #[inline]
    pub(crate) fn select(a: &[u64; N], b: &[u64; N], choice: Choice) -> [u64; N] {
        let mask = u64::from(choice.unwrap_u8()).wrapping_neg();
        let mut r = [0u64; N];
        for i in 0..N {
            r[i] = a[i] ^ ((a[i] ^ b[i]) & mask);
        }
        r
    }

    pub(crate) fn is_zero(a: &[u64; N]) -> Choice {
        let acc = a.iter().fold(0u64, |acc, &x| acc | x);
        Choice::from(((acc | acc.wrapping_neg()) >> 63) as u8 ^ 1)
    }

    pub(crate) fn import_be(&self, bytes: &[u8]) -> ([u64; N], Choice) {
        let x = Self::limbs(bytes);
        let ok = self.below_m(&x);
        let x = Self::select(&[0; N], &x, ok);
        (self.mont_mul(&x, &self.r2), ok)
    }

    pub(crate) fn import_be_reduce(&self, bytes: &[u8]) -> [u64; N] {
        let x = Self::limbs(bytes);
        let x = self.reduce_once(x, 0);
        self.mont_mul(&x, &self.r2)
    }

    pub(crate) fn to_be(&self, a: &[u64; N], out: &mut [u8]) {
        let mut one = [0u64; N];
        one[0] = 1;
        let x = self.mont_mul(a, &one);
        let len = out.len();
        for (i, o) in out.iter_mut().enumerate() {
            let k = len - 1 - i;
            *o = if k / 8 < N { (x[k / 8] >> (8 * (k % 8))) as u8 } else { 0 };
        }
    }
}
