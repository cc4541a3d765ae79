//! GF(p) for P-256's prime `p = 2^256 − 2^224 + 2^192 + 2^96 − 1` on the Cortex-M0 with the
//! `asm` feature: eight packed 32-bit words in Montgomery form (`R = 2^256`), kept below `p`.
//! The 512-bit product is the Curve25519 field's Thumb-1 one (`curve25519/thumb1`); the
//! reduction is specialised to `p` in Thumb-1 assembly (`core_asm::thumbv6m::ec::p256`): `p ≡ −1 (mod 2^96)`, so each
//! Montgomery step's multiplier is the current low word `q` itself, and adding `q·p` is adding
//! `q` three, six and eight words up and subtracting it seven up — no multiplication. Taken
//! column by column with a signed carry, the eight steps are 45 word loads and additions,
//! against the 324 limb products of `mont15`'s 15-bit Montgomery product. Addition,
//! subtraction, halving and the select are Thumb-1 too: fixed addresses, straight-line but
//! for halving's shift (a loop of fixed count), the final corrections masks (compiled masked selects can become branches on Thumb-1). The comb
//! table, and apart from it verification's `G, 3G, 5G, 7G`, are converted into this form at
//! compile time; inversion is Fermat's.

use super::Field;
use crate::curve25519::thumb1;
use core_asm::thumbv6m::ec::p256 as kernel;
use subtle::{Choice, ConstantTimeEq};

/// `p`, little-endian words.
const P: [u32; 8] = [u32::MAX, u32::MAX, u32::MAX, 0, 0, 0, 1, u32::MAX];

/// `R mod p = 2^256 − p`: one in Montgomery form.
const ONE: [u32; 8] = [1, 0, 0, u32::MAX, u32::MAX, u32::MAX, u32::MAX - 1, 0];

/// `R² mod p`, which converts into Montgomery form.
const R2: [u32; 8] = {
    let mut x = ONE;
    let mut i = 0;
    while i < 256 {
        x = const_add(&x, &x);
        i += 1;
    }
    x
};

/// The 256×256→512-bit product: every product of this field goes through here.
#[inline(always)]
fn mul_wide(a: &[u32; 8], b: &[u32; 8]) -> [u32; 16] {
    thumb1::mul_wide(a, b)
}

/// The 512-bit square: every square of this field goes through here.
#[inline(always)]
fn square_wide(a: &[u32; 8]) -> [u32; 16] {
    thumb1::square_wide(a)
}

/// `a + b mod p` for `a, b < p`, at compile time.
const fn const_add(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    let mut s = [0u32; 8];
    let mut c = 0u64;
    let mut i = 0;
    while i < 8 {
        let v = a[i] as u64 + b[i] as u64 + c;
        s[i] = v as u32;
        c = v >> 32;
        i += 1;
    }
    const_reduce_once(&s, c as u32)
}

/// `t − p` if `c·2^256 + t ≥ p`, else `t`, at compile time.
const fn const_reduce_once(t: &[u32; 8], c: u32) -> [u32; 8] {
    let mut d = [0u32; 8];
    let mut borrow = 0u64;
    let mut i = 0;
    while i < 8 {
        let v = (t[i] as u64).wrapping_sub(P[i] as u64).wrapping_sub(borrow);
        d[i] = v as u32;
        borrow = v >> 63;
        i += 1;
    }
    if c == 1 || borrow == 0 { d } else { *t }
}

/// `a·b·R⁻¹ mod p` at compile time (word-serial Montgomery, `−p⁻¹ ≡ 1 mod 2^32`).
const fn const_mul(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    let mut t = [0u32; 10];
    let mut i = 0;
    while i < 8 {
        let mut c = 0u64;
        let mut j = 0;
        while j < 8 {
            let v = a[i] as u64 * b[j] as u64 + t[j] as u64 + c;
            t[j] = v as u32;
            c = v >> 32;
            j += 1;
        }
        let v = t[8] as u64 + c;
        t[8] = v as u32;
        t[9] = (v >> 32) as u32;
        let q = t[0] as u64;
        let mut c = (q * P[0] as u64 + t[0] as u64) >> 32;
        j = 1;
        while j < 8 {
            let v = q * P[j] as u64 + t[j] as u64 + c;
            t[j - 1] = v as u32;
            c = v >> 32;
            j += 1;
        }
        let v = t[8] as u64 + c;
        t[7] = v as u32;
        t[8] = t[9] + (v >> 32) as u32;
        t[9] = 0;
        i += 1;
    }
    let mut r = [0u32; 8];
    let mut k = 0;
    while k < 8 {
        r[k] = t[k];
        k += 1;
    }
    const_reduce_once(&r, t[8])
}

/// The little-endian words of the 32 big-endian bytes at `bytes[at..]`.
const fn const_words(bytes: &[u8], at: usize) -> [u32; 8] {
    let mut w = [0u32; 8];
    let mut i = 0;
    while i < 32 {
        w[i / 4] |= (bytes[at + 31 - i] as u32) << (8 * (i % 4));
        i += 1;
    }
    w
}

/// A comb table of affine points `x‖y` (32 big-endian bytes each, the layout of
/// [`tables`](super::tables)) in Montgomery form, at compile time.
const fn const_comb<const K: usize>(bytes: &[u8]) -> [[[u32; 8]; 2]; K] {
    let mut out = [[[0u32; 8]; 2]; K];
    let mut e = 0;
    while e < K {
        out[e][0] = const_mul(&const_words(bytes, 64 * e), &R2);
        out[e][1] = const_mul(&const_words(bytes, 64 * e + 32), &R2);
        e += 1;
    }
    out
}

/// The comb table ([`Field::comb`]) in this field's form, converted at compile time.
static COMB: [[[u32; 8]; 2]; super::tables::P256_COMB.len() / 64] =
    const_comb(&super::tables::P256_COMB);

/// `G, 3G, 5G, 7G` ([`Field::odd_g`]: entries 1, 3, 5 and 7 of the comb's first row), apart
/// from the comb so that verification links 256 bytes of table rather than 2.5 KiB.
static ODD_G4: [[[u32; 8]; 2]; 4] = {
    let row: [[[u32; 8]; 2]; 8] = const_comb(&super::tables::P256_COMB);
    [row[0], row[2], row[4], row[6]]
};

/// `t·R⁻¹ mod p` for a 512-bit `t < p·R` (`t` is scratch), out of line: every product and
/// square goes through it.
#[inline(never)]
fn redc(t: &mut [u32; 16]) -> [u32; 8] {
    kernel::redc(t)
}

/// `a·b·R⁻¹ mod p`.
#[inline(never)]
fn mul(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    redc(&mut mul_wide(a, b))
}

/// `a²·R⁻¹ mod p`.
#[inline(never)]
fn sqr(a: &[u32; 8]) -> [u32; 8] {
    redc(&mut square_wide(a))
}

/// `a + b mod p` for `a, b < p`.
#[inline(never)]
fn add(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    kernel::add(a, b)
}

/// `a − b mod p` for `a, b < p`.
#[inline(never)]
fn sub(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    kernel::sub(a, b)
}

/// `a/2 mod p` for `a < p`.
#[inline(never)]
fn halve(a: &[u32; 8]) -> [u32; 8] {
    kernel::halve(a)
}

/// `b` if `choice` is set, else `a`: `a ^ ((a ^ b) & mask)` a word at a time (the Curve25519
/// field's select).
#[inline(never)]
fn select(a: &[u32; 8], b: &[u32; 8], choice: Choice) -> [u32; 8] {
    core_asm::thumbv6m::ec::curve25519::select(
        a,
        b,
        0u32.wrapping_sub(u32::from(choice.unwrap_u8())),
    )
}

/// The value of up to 32 big-endian bytes as words, those bytes right-aligned in 32, and
/// whether bytes beyond 32 (if any) were all zero.
fn words_of(bytes: &[u8]) -> ([u32; 8], [u8; 32], Choice) {
    let mut buf = [0u8; 32];
    let n = bytes.len().min(32);
    let (spill, tail) = bytes.split_at(bytes.len() - n);
    buf[32 - n..].copy_from_slice(tail);
    let spill = spill.iter().fold(0u8, |acc, &b| acc | b);
    let mut w = [0u32; 8];
    for (i, word) in w.iter_mut().enumerate() {
        let at = 28 - 4 * i;
        *word = u32::from_be_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]);
    }
    (w, buf, spill.ct_eq(&0))
}

/// The P-256 field on the Cortex-M0 in Thumb-1 assembly.
#[derive(Debug)]
pub(crate) struct P256Thumb1;

impl Field for P256Thumb1 {
    type E = [u32; 8];

    fn modulus(&self) -> &'static [u8] {
        &crate::p256::P_BYTES
    }

    #[inline]
    fn zero(&self) -> [u32; 8] {
        [0; 8]
    }

    #[inline]
    fn one(&self) -> [u32; 8] {
        ONE
    }

    #[inline]
    fn add(&self, a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
        add(a, b)
    }

    #[inline]
    fn sub(&self, a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
        sub(a, b)
    }

    #[inline]
    fn mul(&self, a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
        mul(a, b)
    }

    #[inline]
    fn sqr(&self, a: &[u32; 8]) -> [u32; 8] {
        sqr(a)
    }

    #[inline]
    fn halve(&self, a: &[u32; 8]) -> [u32; 8] {
        halve(a)
    }

    #[inline]
    fn select(a: &[u32; 8], b: &[u32; 8], choice: Choice) -> [u32; 8] {
        select(a, b, choice)
    }

    fn is_zero(a: &[u32; 8]) -> Choice {
        let acc = a[0] | a[1] | a[2] | a[3] | a[4] | a[5] | a[6] | a[7];
        Choice::from(((acc | acc.wrapping_neg()) >> 31) as u8 ^ 1)
    }

    /// Any `x < 2^256` converts as `x·R² ·R⁻¹`, reduced (`x·R² < p·R`); `x < p` exactly
    /// when converting back gives `x` again (rather than a comparison of its own: imports are
    /// few, and this keeps their code small).
    fn import_be(&self, bytes: &[u8]) -> ([u32; 8], Choice) {
        let (x, buf, fits) = words_of(bytes);
        let y = mul(&x, &R2);
        let mut back = [0u8; 32];
        self.to_be(&y, &mut back);
        let ok = fits & back.ct_eq(&buf);
        (select(&[0; 8], &y, ok), ok)
    }

    fn import_be_reduce(&self, bytes: &[u8]) -> [u32; 8] {
        mul(&words_of(bytes).0, &R2)
    }

    fn to_be(&self, a: &[u32; 8], out: &mut [u8]) {
        let mut t = [0u32; 16];
        t[..8].copy_from_slice(a);
        let w = redc(&mut t);
        let n = out.len();
        for (i, o) in out.iter_mut().enumerate() {
            let k = n - 1 - i;
            *o = if k < 32 { (w[k / 4] >> (8 * (k % 4))) as u8 } else { 0 };
        }
    }

    fn comb(&self) -> &'static [[[u32; 8]; 2]] {
        &COMB
    }

    fn odd_g(&self) -> &'static [[[u32; 8]; 2]] {
        &ODD_G4
    }
}

/// The results of every field operation on the big-endian `a` and `b` in field `f`, as
/// canonical big-endian bytes, with the names of the operations: what the firmware's checks
/// compare between this field and `mont15` (the host cannot run this one). Inputs not below
/// `p` are refused by `import_be` (their flags and zeros are compared too).
pub(crate) fn field_results<F: Field>(
    f: &F,
    a: &[u8; 32],
    b: &[u8; 32],
) -> [(&'static str, [u8; 32]); 17] {
    let out = |v: &F::E| {
        let mut o = [0u8; 32];
        f.to_be(v, &mut o);
        o
    };
    let flag = |c: Choice| {
        let mut o = [0u8; 32];
        o[0] = c.unwrap_u8();
        o
    };
    let (x, okx) = f.import_be(a);
    let (y, oky) = f.import_be(b);
    [
        ("import a", out(&x)),
        ("import a flag", flag(okx)),
        ("import b flag", flag(oky)),
        ("import_be_reduce", out(&f.import_be_reduce(a))),
        ("add", out(&f.add(&x, &y))),
        ("sub", out(&f.sub(&x, &y))),
        ("sub reversed", out(&f.sub(&y, &x))),
        ("mul", out(&f.mul(&x, &y))),
        ("sqr", out(&f.sqr(&x))),
        ("neg", out(&f.neg(&x))),
        ("halve", out(&f.halve(&x))),
        ("invert", out(&f.invert(&x))),
        ("eq", flag(f.eq(&x, &y))),
        ("is_zero", flag(F::is_zero(&x))),
        ("select 0", out(&F::select(&x, &y, Choice::from(0)))),
        ("select 1", out(&F::select(&x, &y, Choice::from(1)))),
        ("chain", out(&f.mul(&f.sqr(&f.add(&x, &y)), &f.halve(&f.sub(&y, &x))))),
    ]
}

/// The big-endian value whose Montgomery form in this field is the words `w` (any value
/// below `p`): `w·R⁻¹ mod p`, so that the firmware's checks reach edge values of the
/// representation itself (all-ones words, words near `p`).
pub(crate) fn plain_of_words(w: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    P256Thumb1.to_be(w, &mut out);
    out
}

/// [`mul`] for the cost model's field rows.
pub(crate) fn mul_raw(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    mul(a, b)
}

/// [`sqr`] for the cost model's field rows.
pub(crate) fn sqr_raw(a: &[u32; 8]) -> [u32; 8] {
    sqr(a)
}
