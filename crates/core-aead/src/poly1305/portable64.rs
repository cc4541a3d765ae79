//! Poly1305 in radix 2^44: the accumulator and `r` as limbs of 44, 44 and 42 bits, products of
//! 64-bit words into 128 bits (nine per block). Blocks go in pairs, `h ← (h + m1)·r² + m2·r`
//! with `r²` computed with the key, so the serial chain of multiplications and carries that
//! bounds short messages is half as long. The default on 64-bit CPUs, and the scalar path the
//! vector implementations use for short inputs and leftover blocks.

use crate::chacha20::wipe;
use zeroize::Zeroize;

const M44: u64 = (1 << 44) - 1;
const M42: u64 = (1 << 42) - 1;

/// The key and accumulator.
#[derive(Clone)]
pub(crate) struct State {
    /// The clamped `r`, limbs of 44, 44 and 42 bits.
    pub(super) r: [u64; 3],
    /// `r²`, partly reduced.
    pub(super) r2: [u64; 3],
    /// The accumulator, limbs of about 44, 44 and 42 bits (partly reduced between blocks).
    pub(super) h: [u64; 3],
    /// `s`, the key half added at the end.
    pad: u128,
}

/// `r`'s clamp (RFC 8439 §2.5): the top four bits of bytes 3, 7, 11, 15 and the low two bits of
/// bytes 4, 8, 12 are cleared.
const CLAMP: u128 = 0x0fff_fffc_0fff_fffc_0fff_fffc_0fff_ffff;

/// A value below 2^130 as limbs of 44, 44 and 42 bits.
#[inline(always)]
pub(super) fn limbs(x: u128) -> [u64; 3] {
    [x as u64 & M44, (x >> 44) as u64 & M44, (x >> 88) as u64]
}

/// `a · b` modulo 2^130 − 5, partly reduced (limbs below 2^44, 2^44 + 2^14 and 2^42): the
/// multiplication of [`State::blocks`], also for the powers of `r` the vector code needs.
#[inline(always)]
pub(super) fn mul(a: [u64; 3], b: [u64; 3]) -> [u64; 3] {
    let [d0, d1, d2] = products(a, b);
    carry(d0, d1, d2)
}

/// `a · b + c · d` modulo 2^130 − 5 with one carry pass, partly reduced as [`mul`]'s.
#[inline(always)]
fn mul_add(a: [u64; 3], b: [u64; 3], c: [u64; 3], d: [u64; 3]) -> [u64; 3] {
    let [x0, x1, x2] = products(a, b);
    let [y0, y1, y2] = products(c, d);
    carry(x0 + y0, x1 + y1, x2 + y2)
}

/// The three column sums of `a · b` before carrying. With limbs of `a` below 2^46 and of `b`
/// below 2^45, each is below 2^97.
#[inline(always)]
fn products(a: [u64; 3], b: [u64; 3]) -> [u128; 3] {
    let m = |x: u64, y: u64| u128::from(x) * u128::from(y);
    // 2^132 ≡ 4 · 5 (mod 2^130 − 5), so limb products that land at 2^132 and 2^176 fold
    // back multiplied by 20.
    let (s1, s2) = (b[1] * 20, b[2] * 20);
    [
        m(a[0], b[0]) + m(a[1], s2) + m(a[2], s1),
        m(a[0], b[1]) + m(a[1], b[0]) + m(a[2], s2),
        m(a[0], b[2]) + m(a[1], b[1]) + m(a[2], b[0]),
    ]
}

/// The partial carry after a multiplication.
#[inline(always)]
fn carry(d0: u128, mut d1: u128, mut d2: u128) -> [u64; 3] {
    d1 += d0 >> 44;
    let h0 = d0 as u64 & M44;
    d2 += d1 >> 44;
    let h1 = d1 as u64 & M44;
    let c = (d2 >> 42) as u64;
    let h2 = d2 as u64 & M42;
    let h0 = h0 + c * 5;
    [h0 & M44, h1 + (h0 >> 44), h2]
}

impl State {
    /// The state for a 32-byte one-time key `r || s` (RFC 8439 §2.5), clamping `r`.
    pub(crate) fn new(key: &[u8; 32]) -> Self {
        let (r, s) = key.split_at(16);
        let mut r = u128::from_le_bytes(r.try_into().unwrap_or([0; 16])) & CLAMP;
        let pad = u128::from_le_bytes(s.try_into().unwrap_or([0; 16]));
        let state = Self { r: limbs(r), r2: mul(limbs(r), limbs(r)), h: [0; 3], pad };
        r.zeroize();
        state
    }

    /// Absorbs whole 16-byte blocks; `hibit` is 2^128 for full message blocks and 0 for the
    /// padded last block of a message that is not a multiple of 16 bytes (RFC 8439 §2.5.1).
    #[inline(always)]
    pub(crate) fn blocks(&mut self, data: &[u8], hibit: bool) {
        let hibit = u64::from(hibit) << 40;
        let block = |b: &[u8]| {
            let mut t = [0; 16];
            t.copy_from_slice(b);
            let [t0, t1, t2] = limbs(u128::from_le_bytes(t));
            [t0, t1, t2 | hibit]
        };
        let add = |h: [u64; 3], m: [u64; 3]| [h[0] + m[0], h[1] + m[1], h[2] + m[2]];
        let (r, r2) = (self.r, self.r2);
        let mut h = self.h;
        let mut pairs = data.chunks_exact(32);
        for pair in &mut pairs {
            let (m1, m2) = pair.split_at(16);
            h = mul_add(add(h, block(m1)), r2, block(m2), r);
        }
        if let Some(last) = pairs.remainder().get(..16) {
            h = mul(add(h, block(last)), r);
        }
        self.h = h;
    }

    /// The tag: the accumulator fully reduced modulo 2^130 − 5, plus `s`, modulo 2^128.
    pub(crate) fn finish(&self) -> [u8; 16] {
        let [mut h0, mut h1, mut h2] = self.h;
        // Full carry.
        h1 += h0 >> 44;
        h0 &= M44;
        h2 += h1 >> 44;
        h1 &= M44;
        h0 += (h2 >> 42) * 5;
        h2 &= M42;
        h1 += h0 >> 44;
        h0 &= M44;
        h2 += h1 >> 44;
        h1 &= M44;
        h0 += (h2 >> 42) * 5;
        h2 &= M42;

        // g = h + 5 − 2^130; keep g if it did not borrow (h ≥ p), else h.
        let mut g0 = h0 + 5;
        let mut g1 = h1 + (g0 >> 44);
        g0 &= M44;
        let g2 = (h2 + (g1 >> 44)).wrapping_sub(1 << 42);
        g1 &= M44;
        let keep_g = (g2 >> 63).wrapping_sub(1);
        let sel = |g: u64, h: u64| (g & keep_g) | (h & !keep_g);
        (h0, h1, h2) = (sel(g0, h0), sel(g1, h1), sel(g2, h2));

        let h = u128::from(h0) | (u128::from(h1) << 44) | (u128::from(h2) << 88);
        h.wrapping_add(self.pad).to_le_bytes()
    }
}

impl Zeroize for State {
    fn zeroize(&mut self) {
        wipe(&mut self.r);
        wipe(&mut self.r2);
        wipe(&mut self.h);
        self.pad.zeroize();
    }
}
