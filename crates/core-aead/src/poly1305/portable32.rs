//! Poly1305 in radix 2^26: the accumulator and `r` as five 26-bit limbs, products of 32-bit
//! words into 64 bits. It needs nothing wider than a 32×32→64 multiply, so it is the path for
//! 32-bit CPUs (the Cortex-M0 included) and the reference the faster ones are checked against.

use crate::chacha20::wipe;
use zeroize::Zeroize;

const M26: u32 = (1 << 26) - 1;

/// The key and accumulator.
#[derive(Clone)]
pub(super) struct State {
    /// The clamped `r`, five 26-bit limbs.
    r: [u32; 5],
    /// The accumulator, five limbs of about 26 bits (partly reduced between blocks).
    h: [u32; 5],
    /// `s`, the key half added at the end, as four little-endian words.
    pad: [u32; 4],
}

impl State {
    /// The state for a 32-byte one-time key `r || s` (RFC 8439 §2.5), clamping `r`.
    pub(super) fn new(key: &[u8; 32]) -> Self {
        let w = |i: usize| u32::from_le_bytes([key[i], key[i + 1], key[i + 2], key[i + 3]]);
        let r = [
            w(0) & 0x03ff_ffff,
            (w(3) >> 2) & 0x03ff_ff03,
            (w(6) >> 4) & 0x03ff_c0ff,
            (w(9) >> 6) & 0x03f0_3fff,
            (w(12) >> 8) & 0x000f_ffff,
        ];
        Self { r, h: [0; 5], pad: [w(16), w(20), w(24), w(28)] }
    }

    /// Absorbs whole 16-byte blocks; `hibit` is 2^128 for full message blocks and 0 for the
    /// padded last block of a message that is not a multiple of 16 bytes (RFC 8439 §2.5.1).
    pub(super) fn blocks(&mut self, data: &[u8], hibit: bool) {
        let hibit = u32::from(hibit) << 24;
        let [r0, r1, r2, r3, r4] = self.r;
        let (s1, s2, s3, s4) = (r1 * 5, r2 * 5, r3 * 5, r4 * 5);
        let [mut h0, mut h1, mut h2, mut h3, mut h4] = self.h;
        for block in data.chunks_exact(16) {
            let t =
                |i: usize| u32::from_le_bytes([block[i], block[i + 1], block[i + 2], block[i + 3]]);
            let (t0, t1, t2, t3) = (t(0), t(4), t(8), t(12));
            h0 += t0 & M26;
            h1 += ((t0 >> 26) | (t1 << 6)) & M26;
            h2 += ((t1 >> 20) | (t2 << 12)) & M26;
            h3 += ((t2 >> 14) | (t3 << 18)) & M26;
            h4 += (t3 >> 8) | hibit;

            let m = |a: u32, b: u32| u64::from(a) * u64::from(b);
            let d0 = m(h0, r0) + m(h1, s4) + m(h2, s3) + m(h3, s2) + m(h4, s1);
            let mut d1 = m(h0, r1) + m(h1, r0) + m(h2, s4) + m(h3, s3) + m(h4, s2);
            let mut d2 = m(h0, r2) + m(h1, r1) + m(h2, r0) + m(h3, s4) + m(h4, s3);
            let mut d3 = m(h0, r3) + m(h1, r2) + m(h2, r1) + m(h3, r0) + m(h4, s4);
            let mut d4 = m(h0, r4) + m(h1, r3) + m(h2, r2) + m(h3, r1) + m(h4, r0);

            // Partial carry: every limb ends below 2^26 except h1, below 2^26 + 2^6.
            d1 += d0 >> 26;
            h0 = d0 as u32 & M26;
            d2 += d1 >> 26;
            h1 = d1 as u32 & M26;
            d3 += d2 >> 26;
            h2 = d2 as u32 & M26;
            d4 += d3 >> 26;
            h3 = d3 as u32 & M26;
            let c = (d4 >> 26) as u32;
            h4 = d4 as u32 & M26;
            h0 += c * 5;
            h1 += h0 >> 26;
            h0 &= M26;
        }
        self.h = [h0, h1, h2, h3, h4];
    }

    /// The tag: the accumulator fully reduced modulo 2^130 − 5, plus `s`, modulo 2^128.
    pub(super) fn finish(&self) -> [u8; 16] {
        let [mut h0, mut h1, mut h2, mut h3, mut h4] = self.h;
        // Full carry.
        h2 += h1 >> 26;
        h1 &= M26;
        h3 += h2 >> 26;
        h2 &= M26;
        h4 += h3 >> 26;
        h3 &= M26;
        h0 += (h4 >> 26) * 5;
        h4 &= M26;
        h1 += h0 >> 26;
        h0 &= M26;

        // g = h + 5 − 2^130; keep g if it did not borrow (h ≥ p), else h.
        let mut g0 = h0 + 5;
        let mut g1 = h1 + (g0 >> 26);
        g0 &= M26;
        let mut g2 = h2 + (g1 >> 26);
        g1 &= M26;
        let mut g3 = h3 + (g2 >> 26);
        g2 &= M26;
        let g4 = (h4 + (g3 >> 26)).wrapping_sub(1 << 26);
        g3 &= M26;
        // All ones if g4 did not borrow (top bit clear).
        let keep_g = (g4 >> 31).wrapping_sub(1);
        let sel = |g: u32, h: u32| (g & keep_g) | (h & !keep_g);
        (h0, h1, h2, h3, h4) = (sel(g0, h0), sel(g1, h1), sel(g2, h2), sel(g3, h3), sel(g4, h4));

        // h mod 2^128 as four words, plus s.
        let w = [
            h0 | (h1 << 26),
            (h1 >> 6) | (h2 << 20),
            (h2 >> 12) | (h3 << 14),
            (h3 >> 18) | (h4 << 8),
        ];
        let mut tag = [0; 16];
        let mut carry = 0u64;
        for ((out, w), s) in tag.chunks_exact_mut(4).zip(w).zip(self.pad) {
            carry += u64::from(w) + u64::from(s);
            out.copy_from_slice(&(carry as u32).to_le_bytes());
            carry >>= 32;
        }
        tag
    }
}

impl Zeroize for State {
    fn zeroize(&mut self) {
        wipe(&mut self.r);
        wipe(&mut self.h);
        wipe(&mut self.pad);
    }
}
