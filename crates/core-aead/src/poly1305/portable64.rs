//! Poly1305 in radix 2^44: the accumulator and `r` as limbs of 44, 44 and 42 bits, products of
//! 64-bit words into 128 bits (nine per block). The default on 64-bit CPUs, and the scalar
//! path the vector implementations use for short inputs and leftover blocks.

use zeroize::Zeroize;

const M44: u64 = (1 << 44) - 1;
const M42: u64 = (1 << 42) - 1;

/// The key and accumulator.
#[derive(Clone)]
pub(crate) struct State {
    /// The clamped `r`, limbs of 44, 44 and 42 bits.
    pub(super) r: [u64; 3],
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

/// `a · b` modulo 2^130 − 5, partly reduced (limbs below 2^44, 2^44 + 2^5 and 2^42): the
/// multiplication of [`State::blocks`], for the powers of `r` the vector code needs.
#[inline(always)]
pub(super) fn mul(a: [u64; 3], b: [u64; 3]) -> [u64; 3] {
    let m = |x: u64, y: u64| u128::from(x) * u128::from(y);
    // 2^132 ≡ 4 · 5 (mod 2^130 − 5), so limb products that land at 2^132 and 2^176 fold
    // back multiplied by 20.
    let (s1, s2) = (b[1] * 20, b[2] * 20);
    let d0 = m(a[0], b[0]) + m(a[1], s2) + m(a[2], s1);
    let d1 = m(a[0], b[1]) + m(a[1], b[0]) + m(a[2], s2);
    let d2 = m(a[0], b[2]) + m(a[1], b[1]) + m(a[2], b[0]);
    carry(d0, d1, d2)
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
        let state = Self { r: limbs(r), h: [0; 3], pad };
        r.zeroize();
        state
    }

    /// Absorbs whole 16-byte blocks; `hibit` is 2^128 for full message blocks and 0 for the
    /// padded last block of a message that is not a multiple of 16 bytes (RFC 8439 §2.5.1).
    #[inline]
    pub(crate) fn blocks(&mut self, data: &[u8], hibit: bool) {
        let hibit = u64::from(hibit) << 40;
        let r = self.r;
        let [mut h0, mut h1, mut h2] = self.h;
        for block in data.chunks_exact(16) {
            let mut t = [0; 16];
            t.copy_from_slice(block);
            let t = u128::from_le_bytes(t);
            h0 += t as u64 & M44;
            h1 += (t >> 44) as u64 & M44;
            h2 += (t >> 88) as u64 | hibit;
            [h0, h1, h2] = mul([h0, h1, h2], r);
        }
        self.h = [h0, h1, h2];
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
        self.r.zeroize();
        self.h.zeroize();
        self.pad.zeroize();
    }
}
