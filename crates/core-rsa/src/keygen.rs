//! RSA key generation (`keygen` feature) after FIPS 186-5 §A.1.3, "generation of random
//! primes that are probably prime", for 2048-, 3072- and 4096-bit moduli.
//!
//! Each prime is drawn afresh from the caller's [`RandomSource`] as a random odd number of
//! exactly `nlen/2` bits and kept only if it is at least `√2·2^(nlen/2-1)` (so `p·q` has
//! exactly `nlen` bits), has no factor below 1024 (a trial-division sieve), has
//! `gcd(p-1, e) = 1`, passes the Miller–Rabin rounds of FIPS 186-5 Table B.1 for its size
//! (B.3.1), and, for `q`, lies more than `2^(nlen/2-100)` from `p`. Then `d = e^-1 mod λ(n)`
//! with `λ(n) = lcm(p-1, q-1)`, the CRT exponents and `q^-1 mod p`, and the key goes through
//! the same validation as a parsed one.
//!
//! What is constant time: every computation on a candidate that ends up a prime of the key —
//! the sieve's residues, `gcd(p-1, e)`, each Miller–Rabin round (a constant-time modular
//! exponentiation over all `nlen/2` exponent bits, then a fixed count of squarings), the
//! `|p-q|` test, the ordering of `p` and `q`, `gcd(p-1, q-1)`, `λ(n)`, `d`, `dp`, `dq` and
//! `q^-1 mod p` — has no secret-dependent branch or memory index. What is not: the decision
//! to throw a candidate away is a branch, so timing shows how many candidates were discarded
//! and at which step, which says nothing about the primes that are kept; and the redraw of a
//! Miller–Rabin base outside `[2, w-2]` (FIPS B.3.1 step 4.2) happens with a probability that
//! depends on the top bits of the candidate, a fraction of a bit over a whole generation.
//!
//! One restriction beyond FIPS: a candidate `w` with `2^17 | w-1` is discarded (a fraction
//! `2^-16` of them), so the Miller–Rabin squaring loop has a fixed, public length.

use crate::mont::{
    Engine, Mont, MontImpl, PORTABLE_WIDE, Portable15, Word, ct_eq, load_be, store_be,
};
use crate::{Error, PrivateKey, RandomSource};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, ConstantTimeLess};
use zeroize::Zeroize;

/// The largest modulus generated, in bits.
const MAX_KEY_BITS: usize = 4096;
/// Limbs of the largest prime.
const PL: usize = MAX_KEY_BITS / 2 / 64;
/// Limbs of the largest modulus.
const NL: usize = MAX_KEY_BITS / 64;
/// The largest 2-adic valuation of `w - 1` kept; the Miller–Rabin loop squares this often.
const MAX_TWOS: u32 = 16;
/// The smallest public exponent FIPS 186-5 allows is `2^16 + 1`.
const MIN_E: u64 = (1 << 16) + 1;
/// The top 64 bits of a candidate must be at least this: `⌈√2·2^63⌉`, so the candidate is
/// above `√2·2^(bits-1)` (the exact bound lies between this and the value below it).
const SQRT2_TOP: u64 = 0xb504_f333_f9de_6485;
/// Redraws of a candidate below `√2·2^(bits-1)` or of a Miller–Rabin base outside `[2, w-2]`
/// before giving up: each happens with a probability below 0.3, so only a stuck source gets
/// here (FIPS counts neither; a bound keeps a broken source from hanging the caller).
const MAX_REDRAWS: usize = 1000;

/// Miller–Rabin rounds for a prime of `bits` bits: FIPS 186-5 Table B.1, M-R tests only,
/// at the error probability matching the modulus's security strength (`2^-112` for 1024-bit
/// primes, `2^-128` for 1536, `2^-144` for 2048).
fn mr_rounds(prime_bits: usize) -> usize {
    if prime_bits <= 1024 { 5 } else { 4 }
}

// ---------------------------------------------------------------------------------------------
// The trial-division sieve: odd primes below 1024, multiplied together into groups whose
// product stays below 2^32. A candidate is reduced modulo each group's product 32 bits at a
// time, and that residue modulo each prime, all with Barrett reductions (multiplications
// only: no division instruction, whose timing depends on its operands on many CPUs).

/// The sieve's bound: primes below it.
const SIEVE_BOUND: usize = 1024;

const fn is_prime(n: usize) -> bool {
    let mut d = 2;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    n >= 2
}

const fn count_small_primes() -> usize {
    let (mut n, mut count) = (3, 0);
    while n < SIEVE_BOUND {
        if is_prime(n) {
            count += 1;
        }
        n += 2;
    }
    count
}

const SMALL_COUNT: usize = count_small_primes();

/// A small prime and `⌊2^32/p⌋`.
#[derive(Clone, Copy)]
struct SmallPrime {
    p: u32,
    mu: u64,
}

const fn small_primes() -> [SmallPrime; SMALL_COUNT] {
    let mut out = [SmallPrime { p: 0, mu: 0 }; SMALL_COUNT];
    let (mut n, mut i) = (3, 0);
    while n < SIEVE_BOUND {
        if is_prime(n) {
            out[i] = SmallPrime { p: n as u32, mu: (1u64 << 32) / n as u64 };
            i += 1;
        }
        n += 2;
    }
    out
}

const SMALL: [SmallPrime; SMALL_COUNT] = small_primes();

/// A product of consecutive small primes below 2^32, `⌊2^64/m⌋`, and which primes.
#[derive(Clone, Copy)]
struct Group {
    m: u64,
    mu: u64,
    start: usize,
    end: usize,
}

const fn group_count() -> usize {
    let (mut i, mut count) = (0, 0);
    while i < SMALL_COUNT {
        let mut m = 1u64;
        while i < SMALL_COUNT && m * SMALL[i].p as u64 <= u32::MAX as u64 {
            m *= SMALL[i].p as u64;
            i += 1;
        }
        count += 1;
    }
    count
}

const GROUP_COUNT: usize = group_count();

const fn groups() -> [Group; GROUP_COUNT] {
    let mut out = [Group { m: 0, mu: 0, start: 0, end: 0 }; GROUP_COUNT];
    let (mut i, mut g) = (0, 0);
    while i < SMALL_COUNT {
        let start = i;
        let mut m = 1u64;
        while i < SMALL_COUNT && m * SMALL[i].p as u64 <= u32::MAX as u64 {
            m *= SMALL[i].p as u64;
            i += 1;
        }
        out[g] = Group { m, mu: ((1u128 << 64) / m as u128) as u64, start, end: i };
        g += 1;
    }
    out
}

const GROUPS: [Group; GROUP_COUNT] = groups();

/// `x mod m` for `x < 2^64`, `x < m·2^32`, given `mu = ⌊2^64/m⌋`: the estimate is the true
/// quotient or one less, so one masked subtraction finishes.
#[inline(always)]
fn barrett64(x: u64, m: u64, mu: u64) -> u64 {
    let q = ((x as u128 * mu as u128) >> 64) as u64;
    let r = x.wrapping_sub(q.wrapping_mul(m));
    let ge = !r.ct_lt(&m);
    r.wrapping_sub(u64::conditional_select(&0, &m, ge))
}

/// Whether the odd `w` (little-endian limbs, above every small prime) has a factor below
/// [`SIEVE_BOUND`], in constant time.
fn has_small_factor(w: &[u64]) -> Choice {
    let mut found = Choice::from(0);
    for g in &GROUPS {
        let mut r = 0u64;
        for &limb in w.iter().rev() {
            r = barrett64((r << 32) | (limb >> 32), g.m, g.mu);
            r = barrett64((r << 32) | (limb & 0xffff_ffff), g.m, g.mu);
        }
        for s in &SMALL[g.start..g.end] {
            let p = s.p as u64;
            let q = (r * s.mu) >> 32;
            let mut t = r - q * p;
            t = t.wrapping_sub(u64::conditional_select(&0, &p, !t.ct_lt(&p)));
            found |= t.ct_eq(&0);
        }
    }
    found
}

// ---------------------------------------------------------------------------------------------
// Constant-time helpers on little-endian u64 limbs and on single words.

/// `x mod m` for a public word `m > 0` below 2^63, bit by bit with masked subtractions.
fn rem_word(x: &[u64], m: u64) -> u64 {
    let mut r = 0u64;
    for &limb in x.iter().rev() {
        for i in (0..64).rev() {
            r = (r << 1) | ((limb >> i) & 1);
            r = r.wrapping_sub(u64::conditional_select(&0, &m, !r.ct_lt(&m)));
        }
    }
    r
}

/// `(gcd(x, m), x^-1 mod m)` for an odd public `m` below 2^63 and `x < m`, in constant time:
/// the binary extended GCD with a fixed count of steps (each halves `a` and at most swaps it
/// with the odd `b`, so `128` steps bring `a` to zero). The inverse is meaningful only when
/// the GCD is 1.
fn gcd_inv_word(x: u64, m: u64) -> (u64, u64) {
    let (mut a, mut b, mut u, mut v) = (x, m, 1u64, 0u64);
    // Invariants: a ≡ x·u and b ≡ x·v (mod m); b odd; u, v < m.
    for _ in 0..128 {
        let odd = (a & 1).ct_eq(&1);
        let swap = odd & a.ct_lt(&b);
        u64::conditional_swap(&mut a, &mut b, swap);
        u64::conditional_swap(&mut u, &mut v, swap);
        a = a.wrapping_sub(u64::conditional_select(&0, &b, odd));
        let vv = u64::conditional_select(&0, &v, odd);
        let (d, borrow) = u.overflowing_sub(vv);
        u = d.wrapping_add(u64::conditional_select(&0, &m, Choice::from(borrow as u8)));
        a >>= 1;
        let half = u128::from(u) + u128::from(u64::conditional_select(&0, &m, (u & 1).ct_eq(&1)));
        u = (half >> 1) as u64;
    }
    (b, v)
}

/// `a < b` for equal-length numbers, in constant time.
fn lt(a: &[u64], b: &[u64]) -> Choice {
    let mut borrow = false;
    for (&x, &y) in a.iter().zip(b) {
        let (d, b1) = x.overflowing_sub(y);
        let (_, b2) = d.overflowing_sub(u64::from(borrow));
        borrow = b1 | b2;
    }
    Choice::from(u8::from(borrow))
}

/// `a -= b` where `ctl`, returning the borrow (of the subtraction done or not).
fn cond_sub(a: &mut [u64], b: &[u64], ctl: Choice) -> u64 {
    let mut borrow = 0u64;
    for (x, &y) in a.iter_mut().zip(b) {
        let y = u64::conditional_select(&0, &y, ctl);
        let (d, b1) = x.overflowing_sub(y);
        let (d, b2) = d.overflowing_sub(borrow);
        *x = d;
        borrow = u64::from(b1 | b2);
    }
    borrow
}

/// `a >>= 1`, bringing `top` in as the new top bit.
fn shr1(a: &mut [u64], top: u64) {
    let mut carry = top;
    for x in a.iter_mut().rev() {
        let out = *x & 1;
        *x = (*x >> 1) | (carry << 63);
        carry = out;
    }
}

/// `a >>= s` for a secret `s < 32`: five masked shifts by 1, 2, 4, 8 and 16 bits.
fn shr_secret(a: &mut [u64], s: u32) {
    let mut t = [0u64; NL + 1];
    for k in 0..5 {
        let sh = 1u32 << k;
        let t = &mut t[..a.len()];
        for i in 0..a.len() {
            let hi = a.get(i + 1).copied().unwrap_or(0);
            t[i] = (a[i] >> sh) | (hi << (64 - sh));
        }
        let ctl = ((s >> k) & 1).ct_eq(&1);
        for (x, &y) in a.iter_mut().zip(t.iter()) {
            x.conditional_assign(&y, ctl);
        }
    }
    t.zeroize();
}

/// The number of low zero bits of `a`, capped at `MAX_TWOS + 1`, in constant time.
fn low_zeros_capped(a: u64) -> u32 {
    let mut s = 0u32;
    for i in 1..=MAX_TWOS + 1 {
        s += u32::from((a & ((1u64 << i) - 1)).ct_eq(&0).unwrap_u8());
    }
    s
}

/// `gcd(a, b)` into `a` for an odd `b`, both `len` limbs; `b` is destroyed. Constant time:
/// `2·64·len` steps of the binary GCD, each halving `a` and at most swapping it with `b`.
fn gcd_odd(a: &mut [u64], b: &mut [u64]) {
    let l = a.len();
    for _ in 0..2 * 64 * l {
        let odd = (a[0] & 1).ct_eq(&1);
        let swap = odd & lt(a, b);
        for (x, y) in a.iter_mut().zip(b.iter_mut()) {
            u64::conditional_swap(x, y, swap);
        }
        cond_sub(a, b, odd);
        shr1(a, 0);
    }
    // a is zero now; the GCD is in b.
    a.copy_from_slice(b);
}

/// `q = x / g` for `g` dividing `x` (or not: the remainder is dropped), both `len` limbs, by
/// restoring division one bit at a time, in constant time.
fn div_big(q: &mut [u64], x: &[u64], g: &[u64]) {
    let l = x.len();
    let mut r = [0u64; NL + 1];
    let mut gg = [0u64; NL + 1];
    gg[..l].copy_from_slice(g);
    let (r, gg) = (&mut r[..=l], &gg[..=l]);
    q.fill(0);
    for i in (0..64 * l).rev() {
        // r = 2r + bit i of x
        let mut carry = (x[i / 64] >> (i % 64)) & 1;
        for w in r.iter_mut() {
            let out = *w >> 63;
            *w = (*w << 1) | carry;
            carry = out;
        }
        let ge = !lt(r, gg);
        cond_sub(r, gg, ge);
        q[i / 64] |= u64::from(ge.unwrap_u8()) << (i % 64);
    }
    r.zeroize();
}

/// `e^-1 mod m` into `out` for an even `m` of `len` limbs with `gcd(e, m) = 1`, in constant
/// time: with `k = -m^-1 mod e`, `k·m + 1` is divisible by `e` and `(k·m + 1)/e` is the
/// inverse (below `m` since `k < e`). Returns whether `gcd(e, m) = 1` held.
fn inv_e(out: &mut [u64], m: &[u64], e: u64) -> Choice {
    let l = m.len();
    let (g, inv) = gcd_inv_word(rem_word(m, e), e);
    let k = u64::conditional_select(&(e - inv), &0, inv.ct_eq(&0));
    // t = k·m + 1, l + 1 limbs.
    let mut t = [0u64; NL + 1];
    let mut carry = 1u64;
    for (ti, &mi) in t.iter_mut().zip(m) {
        let p = u128::from(k) * u128::from(mi) + u128::from(carry);
        *ti = p as u64;
        carry = (p >> 64) as u64;
    }
    t[l] = carry;
    // out = t / e, bit by bit (r < e < 2^63, so 2r + 1 fits); the quotient fits in l limbs.
    let mut r = 0u64;
    out.fill(0);
    for i in (0..64 * (l + 1)).rev() {
        r = (r << 1) | ((t[i / 64] >> (i % 64)) & 1);
        let ge = !r.ct_lt(&e);
        r = r.wrapping_sub(u64::conditional_select(&0, &e, ge));
        if i < 64 * l {
            out[i / 64] |= u64::from(ge.unwrap_u8()) << (i % 64);
        }
    }
    t.zeroize();
    g.ct_eq(&1)
}

// ---------------------------------------------------------------------------------------------
// Prime generation.

/// Fills `w` (the prime's limbs) with a fresh random odd candidate of `64·w.len()` bits,
/// redrawing (not counted as a candidate, FIPS step 4.4) until it is at least
/// `√2·2^(bits-1)`.
fn draw(w: &mut [u64], rng: &mut dyn RandomSource) -> Result<(), Error> {
    let mut bytes = [0u8; PL * 8];
    let b = &mut bytes[..8 * w.len()];
    let mut r = Err(Error::KeyGeneration);
    for _ in 0..MAX_REDRAWS {
        if rng.fill(b).is_err() {
            r = Err(Error::RandomFailed);
            break;
        }
        load_be(w, b);
        w[0] |= 1;
        // Public once kept: only discarded candidates are below the bound.
        if core_hash::declassify(w[w.len() - 1] >= SQRT2_TOP) {
            r = Ok(());
            break;
        }
    }
    bytes.zeroize();
    r
}

/// One Miller–Rabin round (FIPS 186-5 B.3.1 steps 4.1–4.7) on the odd `w` in `m`, with
/// `w - 1 = 2^s·d`: whether `w` passed. The base comes from `rng`; everything on `w` runs in
/// constant time.
#[allow(clippy::too_many_arguments)]
fn mr_round<E: Engine>(
    eng: E,
    m: &Mont<E::W>,
    w: &[u64],
    w1: &[u64],
    d: &[E::W],
    s: u32,
    rng: &mut dyn RandomSource,
) -> Result<bool, Error> {
    let l = m.len();
    let mut bytes = [0u8; PL * 8];
    let bytes = &mut bytes[..8 * w.len()];
    let mut b = [0u64; PL];
    let b = &mut b[..w.len()];
    // Step 4.1-4.2: b in [2, w-2], redrawn otherwise.
    let mut two = [0u64; PL];
    two[0] = 2;
    let mut found = false;
    for _ in 0..MAX_REDRAWS {
        rng.fill(bytes).map_err(|_| Error::RandomFailed)?;
        load_be(b, bytes);
        // Whether this base is redrawn is public (see the module documentation).
        if core_hash::declassify(bool::from(!lt(b, &two[..w.len()]) & lt(b, w1))) {
            found = true;
            break;
        }
    }
    if !found {
        return Err(Error::KeyGeneration);
    }
    let (mut x, mut z, mut t, mut one, mut minus_one) =
        (E::W::buf(), E::W::buf(), E::W::buf(), E::W::buf(), E::W::buf());
    load_be(&mut t.as_mut()[..l], bytes);
    m.enter_mont(eng, &mut x.as_mut()[..l], &t.as_ref()[..l]);
    // Step 4.3: z = b^d mod w, over every bit a d of this length could have.
    m.pow_ct(eng, z.as_mut(), &x.as_ref()[..l], d, 64 * w.len());
    // 1 and w - 1 in Montgomery form: R mod w and w - (R mod w).
    m.leave_mont(eng, &mut one.as_mut()[..l], m.rr());
    minus_one.as_mut()[..l].copy_from_slice(m.n());
    crate::mont::sub(&mut minus_one.as_mut()[..l], &one.as_ref()[..l]);
    // Step 4.4-4.5: probably prime if z = 1 or z = w - 1 now, or z = w - 1 after j < s
    // squarings; the loop runs MAX_TWOS - 1 times whatever s is.
    let mut pass = ct_eq(&z.as_ref()[..l], &one.as_ref()[..l])
        | ct_eq(&z.as_ref()[..l], &minus_one.as_ref()[..l]);
    for j in 1..MAX_TWOS {
        m.mul(eng, &mut t.as_mut()[..l], &z.as_ref()[..l], &z.as_ref()[..l]);
        z.as_mut()[..l].copy_from_slice(&t.as_ref()[..l]);
        pass |= j.ct_lt(&s) & ct_eq(&z.as_ref()[..l], &minus_one.as_ref()[..l]);
    }
    for buf in [&mut x, &mut z, &mut t, &mut one, &mut minus_one] {
        buf.zeroize();
    }
    bytes.zeroize();
    b.zeroize();
    Ok(bool::from(pass))
}

/// Whether the candidate `w` (odd, of full size) passes every test but the `|p-q|` one: no
/// small factor, `2^17 ∤ w-1`, `gcd(w-1, e) = 1`, and the Miller–Rabin rounds.
fn probably_prime<E: Engine>(
    eng: E,
    w: &[u64],
    e: u64,
    rng: &mut dyn RandomSource,
) -> Result<bool, Error> {
    // Each verdict that discards a candidate is public; a kept candidate passed them all.
    if core_hash::declassify(bool::from(has_small_factor(w))) {
        return Ok(false);
    }
    let pl = w.len();
    let mut w1 = [0u64; PL];
    let w1 = &mut w1[..pl];
    w1.copy_from_slice(w);
    w1[0] &= !1;
    let s = low_zeros_capped(w1[0]);
    if core_hash::declassify(s > MAX_TWOS) {
        return Ok(false);
    }
    if !core_hash::declassify(bool::from(gcd_inv_word(rem_word(w1, e), e).0.ct_eq(&1))) {
        return Ok(false);
    }
    let mut bytes = [0u8; PL * 8];
    let bytes = &mut bytes[..8 * pl];
    store_be(w, bytes);
    let m = Mont::<E::W>::new(eng, bytes)?;
    let mut d = [0u64; PL];
    let d = &mut d[..pl];
    d.copy_from_slice(w1);
    shr_secret(d, s);
    store_be(d, bytes);
    let mut dw = E::W::buf();
    load_be(dw.as_mut(), bytes);
    let mut pass = true;
    for _ in 0..mr_rounds(64 * pl) {
        if !core_hash::declassify(mr_round(eng, &m, w, w1, dw.as_ref(), s, rng)?) {
            pass = false;
            break;
        }
    }
    dw.zeroize();
    d.zeroize();
    w1.zeroize();
    bytes.zeroize();
    Ok(pass)
}

/// FIPS 186-5 A.1.3 step 4 (for `p`, `other` = `None`) or 5 (for `q`, `other` = `p`):
/// a probable prime of `64·w.len()` bits into `w`.
fn gen_prime<E: Engine>(
    eng: E,
    w: &mut [u64],
    other: Option<&[u64]>,
    e: u64,
    rng: &mut dyn RandomSource,
) -> Result<(), Error> {
    let pl = w.len();
    let bits = 64 * pl;
    // Step 4.7/5.8: give up after 5·nlen/2 candidates.
    for _ in 0..5 * bits {
        draw(w, rng)?;
        if let Some(p) = other {
            // Step 5.4: |p - q| > 2^(nlen/2 - 100), i.e. |p - q| - 1 has a bit at or above
            // position nlen/2 - 100.
            let mut diff = [0u64; PL];
            let diff = &mut diff[..pl];
            diff.copy_from_slice(p);
            let neg = cond_sub(diff, w, Choice::from(1));
            // Negate if p < q: diff = !diff + 1.
            let negc = neg.ct_eq(&1);
            let mut carry = u64::conditional_select(&0, &1, negc);
            for x in diff.iter_mut() {
                let v = u64::conditional_select(x, &!*x, negc);
                let (s, c) = v.overflowing_add(carry);
                *x = s;
                carry = u64::from(c);
            }
            let mut one = [0u64; PL];
            one[0] = 1;
            cond_sub(diff, &one[..pl], Choice::from(1));
            let lim = bits - 100;
            let mut high = 0u64;
            for (i, &x) in diff.iter().enumerate() {
                let lo = 64 * i;
                let m = if lo >= lim {
                    u64::MAX
                } else if lo + 64 > lim {
                    u64::MAX << (lim - lo)
                } else {
                    0
                };
                high |= x & m;
            }
            // A zero difference (q = p) wrapped to all ones above: refused separately.
            let far = !high.ct_eq(&0) & !ct_eq(p, w);
            diff.zeroize();
            if !core_hash::declassify(bool::from(far)) {
                continue;
            }
        }
        if probably_prime(eng, w, e, rng)? {
            return Ok(());
        }
    }
    Err(Error::KeyGeneration)
}

/// The parts of a generated key, little-endian limbs, wiped on drop.
struct Parts {
    p: [u64; PL],
    q: [u64; PL],
    n: [u64; NL],
    d: [u64; NL],
    dp: [u64; PL],
    dq: [u64; PL],
    qinv: [u64; PL],
}

impl Drop for Parts {
    fn drop(&mut self) {
        self.p.zeroize();
        self.q.zeroize();
        self.n.zeroize();
        self.d.zeroize();
        self.dp.zeroize();
        self.dq.zeroize();
        self.qinv.zeroize();
    }
}

/// FIPS 186-5 A.1.3 and A.1.1 (d): every part of a key of `64·2·pl` bits.
#[inline(never)] // one stack frame per engine
fn generate_parts<E: Engine>(
    eng: E,
    pl: usize,
    e: u64,
    rng: &mut dyn RandomSource,
) -> Result<Parts, Error> {
    let mut k = Parts {
        p: [0; PL],
        q: [0; PL],
        n: [0; NL],
        d: [0; NL],
        dp: [0; PL],
        dq: [0; PL],
        qinv: [0; PL],
    };
    loop {
        gen_prime(eng, &mut k.p[..pl], None, e, rng)?;
        gen_prime(eng, &mut k.q[..pl], Some(&k.p[..pl]), e, rng)?;
        // p > q, so q < p for q^-1 mod p (a masked swap: the order is secret too).
        let swap = lt(&k.p[..pl], &k.q[..pl]);
        for (x, y) in k.p[..pl].iter_mut().zip(k.q[..pl].iter_mut()) {
            u64::conditional_swap(x, y, swap);
        }
        crate::mont::mul_full(&mut k.n[..2 * pl], &k.p[..pl], &k.q[..pl]);
        // λ = (p-1)/g · (q-1) with g = gcd(p-1, q-1) = 2^min(sp,sq)·gcd of the odd parts.
        let (mut p1, mut q1) = ([0u64; PL], [0u64; PL]);
        p1[..pl].copy_from_slice(&k.p[..pl]);
        q1[..pl].copy_from_slice(&k.q[..pl]);
        p1[0] &= !1;
        q1[0] &= !1;
        let (sp, sq) = (low_zeros_capped(p1[0]), low_zeros_capped(q1[0]));
        let (mut a, mut b) = (p1, q1);
        shr_secret(&mut a[..pl], sp);
        shr_secret(&mut b[..pl], sq);
        gcd_odd(&mut a[..pl], &mut b[..pl]);
        // g = odd gcd · 2^min(sp, sq); min(sp, sq) ≤ 16, one masked doubling per step.
        let smin = u32::conditional_select(&sp, &sq, sq.ct_lt(&sp));
        for i in 0..MAX_TWOS {
            let ctl = i.ct_lt(&smin);
            let mut t = a;
            let mut carry = 0;
            for x in &mut t[..pl] {
                let out = *x >> 63;
                *x = (*x << 1) | carry;
                carry = out;
            }
            for (x, &y) in a[..pl].iter_mut().zip(&t[..pl]) {
                x.conditional_assign(&y, ctl);
            }
            t.zeroize();
        }
        let mut pg = [0u64; PL];
        div_big(&mut pg[..pl], &p1[..pl], &a[..pl]);
        let mut lambda = [0u64; NL];
        crate::mont::mul_full(&mut lambda[..2 * pl], &pg[..pl], &q1[..pl]);
        // d = e^-1 mod λ; dp = e^-1 mod (p-1); dq = e^-1 mod (q-1). gcd(e, p-1) and
        // gcd(e, q-1) are 1, so these exist.
        let ok = inv_e(&mut k.d[..2 * pl], &lambda[..2 * pl], e)
            & inv_e(&mut k.dp[..pl], &p1[..pl], e)
            & inv_e(&mut k.dq[..pl], &q1[..pl], e);
        // FIPS 186-5 A.1.1: d > 2^(nlen/2), else start again (probability about 2^-(nlen/2)).
        let mut big = 0u64;
        for &x in &k.d[pl..2 * pl] {
            big |= x;
        }
        for buf in [&mut p1, &mut q1, &mut a, &mut b, &mut pg] {
            buf.zeroize();
        }
        lambda.zeroize();
        if !core_hash::declassify(bool::from(ok)) {
            return Err(Error::KeyGeneration); // unreachable for primes that passed
        }
        if core_hash::declassify(bool::from(big.ct_eq(&0))) {
            continue;
        }
        break;
    }
    // qinv = q^(p-2) mod p (Fermat; p is prime), constant time.
    let mut bytes = [0u8; PL * 8];
    let bytes = &mut bytes[..8 * pl];
    store_be(&k.p[..pl], bytes);
    let m = Mont::<E::W>::new(eng, bytes)?;
    let l = m.len();
    let mut pm2 = [0u64; PL];
    pm2[..pl].copy_from_slice(&k.p[..pl]);
    let mut two = [0u64; PL];
    two[0] = 2;
    cond_sub(&mut pm2[..pl], &two[..pl], Choice::from(1));
    let (mut ex, mut x, mut y, mut t) = (E::W::buf(), E::W::buf(), E::W::buf(), E::W::buf());
    store_be(&pm2[..pl], bytes);
    load_be(ex.as_mut(), bytes);
    store_be(&k.q[..pl], bytes);
    load_be(&mut t.as_mut()[..l], bytes);
    m.enter_mont(eng, &mut x.as_mut()[..l], &t.as_ref()[..l]);
    m.pow_ct(eng, y.as_mut(), &x.as_ref()[..l], ex.as_ref(), 64 * pl);
    m.leave_mont(eng, &mut t.as_mut()[..l], &y.as_ref()[..l]);
    store_be(&t.as_ref()[..l], bytes);
    load_be(&mut k.qinv[..pl], bytes);
    for buf in [&mut ex, &mut x, &mut y, &mut t] {
        buf.zeroize();
    }
    pm2.zeroize();
    bytes.zeroize();
    Ok(k)
}

impl PrivateKey {
    /// A fresh key of `bits` bits (2048, 3072 or 4096) with `e = 65537`, on the best
    /// implementation for this CPU, from `rng` (FIPS 186-5 §A.1.3 probable primes, Table B.1
    /// Miller–Rabin rounds, `d = e^-1 mod λ(n)`); the key passes the same validation as a
    /// parsed one.
    ///
    /// Constant time: all work on the candidates that become the primes, and everything
    /// computed from them (`λ(n)`, `d`, the CRT values). Not: whether a candidate is thrown
    /// away (too small, a small factor, `gcd(p-1, e) ≠ 1`, composite, too close to `p`) is a
    /// branch, so timing tells how many candidates were discarded and where — about
    /// discarded candidates only. Candidates `w` with `2^17 | w-1` are discarded too (one in
    /// 65536), so the Miller–Rabin loop has a fixed length.
    ///
    /// ```
    /// use core_rsa::{HashAlg, OsRandom, PrivateKey};
    ///
    /// let key = PrivateKey::generate(2048, &mut OsRandom)?;
    /// let mut sig = [0u8; 256];
    /// key.sign_pkcs1v15(HashAlg::Sha256, b"hello", &mut OsRandom, &mut sig)?;
    /// key.public_key().verify_pkcs1v15(HashAlg::Sha256, b"hello", &sig)?;
    /// # Ok::<(), core_rsa::Error>(())
    /// ```
    pub fn generate(bits: usize, rng: &mut dyn RandomSource) -> Result<Self, Error> {
        Self::generate_with(bits, 65537, MontImpl::preferred(), rng)
    }

    /// A fresh key of `bits` bits (2048, 3072 or 4096) with the public exponent `e` (odd,
    /// above `2^16`, as FIPS 186-5 requires), on `imp`, from `rng`. Errors:
    /// [`Error::UnsupportedKeySize`], [`Error::InvalidExponent`], [`Error::RandomFailed`] when
    /// `rng` fails (nothing is returned), and [`Error::KeyGeneration`] when no prime turned up
    /// among `5·bits/2` candidates (FIPS 186-5 A.1.3 step 4.7: a broken random source).
    pub fn generate_with(
        bits: usize,
        e: u64,
        imp: MontImpl,
        rng: &mut dyn RandomSource,
    ) -> Result<Self, Error> {
        if !matches!(bits, 2048 | 3072 | 4096) || bits > crate::MAX_BITS {
            return Err(Error::UnsupportedKeySize);
        }
        if e < MIN_E || e & 1 == 0 || e >> 63 != 0 {
            return Err(Error::InvalidExponent);
        }
        let pl = bits / 128;
        let parts = match imp {
            MontImpl::Portable64 => generate_parts(PORTABLE_WIDE, pl, e, rng),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            MontImpl::Portable15 => generate_parts(Portable15, pl, e, rng),
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            MontImpl::Thumb1 => generate_parts(crate::mont::Thumb1, pl, e, rng),
            #[cfg(target_arch = "x86_64")]
            MontImpl::X86Adx(t) => generate_parts(crate::mont::X86Adx(t), pl, e, rng),
            #[cfg(not(target_arch = "x86_64"))]
            MontImpl::X86Adx(_) => generate_parts(PORTABLE_WIDE, pl, e, rng),
            #[cfg(target_arch = "x86_64")]
            MontImpl::X86Avx512Ifma(_, a) => generate_parts(crate::mont::X86Adx(a), pl, e, rng),
            #[cfg(not(target_arch = "x86_64"))]
            MontImpl::X86Avx512Ifma(..) => generate_parts(PORTABLE_WIDE, pl, e, rng),
        }?;
        // Big-endian encodings for the checked constructor.
        let (kp, kn) = (8 * pl, 16 * pl);
        let mut buf = [[0u8; NL * 8]; 7];
        let src: [(&[u64], usize); 7] = [
            (&parts.n[..2 * pl], kn),
            (&parts.d[..2 * pl], kn),
            (&parts.p[..pl], kp),
            (&parts.q[..pl], kp),
            (&parts.dp[..pl], kp),
            (&parts.dq[..pl], kp),
            (&parts.qinv[..pl], kp),
        ];
        for (b, (s, len)) in buf.iter_mut().zip(src) {
            store_be(s, &mut b[..len]);
        }
        // The modulus is the public half of the key.
        buf[0] = core_hash::declassify(buf[0]);
        let key = Self::from_components(
            &buf[0][..kn],
            &e.to_be_bytes(),
            &buf[1][..kn],
            &buf[2][..kp],
            &buf[3][..kp],
            &buf[4][..kp],
            &buf[5][..kp],
            &buf[6][..kp],
            imp,
        );
        buf.zeroize();
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sieve_tables() {
        assert_eq!(SMALL_COUNT, 171); // π(1024) - 1
        assert_eq!(SMALL[0].p, 3);
        assert_eq!(SMALL[SMALL_COUNT - 1].p, 1021);
        assert_eq!(GROUPS[GROUP_COUNT - 1].end, SMALL_COUNT);
        for g in &GROUPS {
            let prod: u64 = SMALL[g.start..g.end].iter().map(|s| s.p as u64).product();
            assert_eq!(prod, g.m);
            assert!(u32::try_from(g.m).is_ok());
        }
    }

    #[test]
    fn small_factors_found() {
        // 3·5·...: a number with a known small factor and one without.
        for (x, want) in [
            ([0u64, 1 << 63], false), // 2^127: no odd small factor (even, but only odd primes)
            ([1021 * 1019, 0], true),
            ([1031 * 1033, 0], false),
            ([u64::MAX, u64::MAX], true), // 2^128 - 1 = 3·5·17·...
        ] {
            assert_eq!(bool::from(has_small_factor(&x)), want, "{x:?}");
        }
        // Against plain remainders on random-looking numbers.
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            let mut x = [0u64; 4];
            for w in &mut x {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *w = s;
            }
            let want = SMALL.iter().any(|sp| {
                x.iter().rev().fold(0u128, |r, &w| ((r << 64) | w as u128) % sp.p as u128) == 0
            });
            assert_eq!(bool::from(has_small_factor(&x)), want);
        }
    }

    #[test]
    fn word_gcd_and_inverse() {
        for (x, m) in [(3u64, 65537u64), (65536, 65537), (12345, 1_000_003), (6, 9), (0, 7)] {
            let (g, inv) = gcd_inv_word(x, m);
            let want_g = {
                let (mut a, mut b) = (x, m);
                while b != 0 {
                    (a, b) = (b, a % b);
                }
                a
            };
            assert_eq!(g, want_g, "gcd({x}, {m})");
            if g == 1 {
                assert_eq!((x as u128 * inv as u128) % m as u128, 1, "{x}^-1 mod {m}");
            }
        }
        assert_eq!(rem_word(&[5, 7], 65537), (((7u128 << 64) | 5) % 65537) as u64);
    }

    #[test]
    fn inverse_of_e_and_division() {
        // m = 2·3·(2^64 + 13): e^-1 mod m by the k·m + 1 trick.
        let m = [78u64, 6];
        let mut out = [0u64; 2];
        assert!(bool::from(inv_e(&mut out, &m, 65537)));
        let mm = (6u128 << 64) + 78;
        let o = (out[1] as u128) << 64 | out[0] as u128;
        assert!(o < mm);
        // 65537·o mod mm = 1, checked without overflow: o·65537 < 2^17·mm.
        let prod = o.checked_mul(65537).map(|p| p % mm);
        assert_eq!(prod, Some(1));
        let mut q = [0u64; 2];
        div_big(&mut q, &[78, 6], &[6, 0]);
        assert_eq!((q[1] as u128) << 64 | q[0] as u128, mm / 6);
        let mut a = [12u64, 0];
        let mut b = [9u64, 0];
        gcd_odd(&mut a, &mut b);
        assert_eq!(a, [3, 0]);
        let mut x = [0xffff_0000u64, 0x8000_0000_0000_0001];
        shr_secret(&mut x, 17);
        assert_eq!(x, [(0xffff_0000u64 >> 17) | (1 << 47), 0x8000_0000_0000_0001 >> 17]);
        assert_eq!(low_zeros_capped(8), 3);
        assert_eq!(low_zeros_capped(1 << 40), MAX_TWOS + 1);
    }
}
