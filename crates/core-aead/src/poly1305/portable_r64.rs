//! Poly1305 in radix 2^64: the accumulator as two 64-bit words and a few bits above them, `r`
//! as two words, four 64×64→128 products and two small ones per block. Clamping leaves the low
//! two bits of `r`'s high word clear, so the products that land at 2^128 fold back exactly as
//! `r1 · 5/4`. Half the instructions of the radix-2^44 code and a shorter carry chain: the
//! default on 64-bit CPUs, and the scalar path of the vector implementations.

use crate::chacha20::wipe;
use zeroize::Zeroize;

/// The key and accumulator.
#[derive(Clone)]
pub(crate) struct State {
    /// The clamped `r` as two words.
    r: [u64; 2],
    /// The accumulator: two words and the bits from 2^128 up (at most 4 between blocks).
    pub(super) h: [u64; 3],
    /// `s`, the key half added at the end, as two words.
    pad: [u64; 2],
}

/// Little-endian word `i` of `bytes`.
#[inline(always)]
fn word(bytes: &[u8], i: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&bytes[8 * i..8 * i + 8]);
    u64::from_le_bytes(w)
}

/// `a + b + carry` and the carry out.
#[inline(always)]
fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = u128::from(a) + u128::from(b) + u128::from(carry);
    (t as u64, (t >> 64) as u64)
}

impl State {
    /// The state for a 32-byte one-time key `r || s` (RFC 8439 §2.5), clamping `r`.
    pub(crate) fn new(key: &[u8; 32]) -> Self {
        Self {
            r: [word(key, 0) & 0x0fff_fffc_0fff_ffff, word(key, 1) & 0x0fff_fffc_0fff_fffc],
            h: [0; 3],
            pad: [word(key, 2), word(key, 3)],
        }
    }

    /// The state for a one-time key given as its four little-endian 64-bit words.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn from_words(key: [u64; 4]) -> Self {
        Self {
            r: [key[0] & 0x0fff_fffc_0fff_ffff, key[1] & 0x0fff_fffc_0fff_fffc],
            h: [0; 3],
            pad: [key[2], key[3]],
        }
    }

    /// The clamped `r` as a number.
    #[cfg(target_arch = "x86_64")]
    pub(super) fn r(&self) -> u128 {
        u128::from(self.r[0]) | (u128::from(self.r[1]) << 64)
    }

    /// Absorbs whole 16-byte blocks; `hibit` is 2^128 for full message blocks and 0 for the
    /// padded last block of a message that is not a multiple of 16 bytes (RFC 8439 §2.5.1).
    #[inline(always)]
    pub(crate) fn blocks(&mut self, data: &[u8], hibit: bool) {
        for block in data.chunks_exact(16) {
            self.block_words(word(block, 0), word(block, 1), hibit);
        }
    }

    /// Absorbs one block given as its two little-endian words.
    #[inline(always)]
    pub(crate) fn block_words(&mut self, m0: u64, m1: u64, hibit: bool) {
        let [r0, r1] = self.r;
        // r1 · 2^128 ≡ (r1 / 4) · 5 (mod 2^130 − 5), exact because r1's low two bits are clear.
        let s1 = r1 + (r1 >> 2);
        let m = |a: u64, b: u64| u128::from(a) * u128::from(b);
        let [h0, h1, h2] = self.h;
        let (t0, c) = adc(h0, m0, 0);
        let (t1, c) = adc(h1, m1, c);
        let t2 = h2 + c + u64::from(hibit);
        // (t0 + t1·2^64 + t2·2^128) · (r0 + r1·2^64), with t2 below 8 and r's words below
        // 2^60, as columns d0 (2^0), d1 (2^64) and d2 (2^128).
        let d0 = m(t0, r0) + m(t1, s1);
        let d1 = m(t0, r1) + m(t1, r0) + u128::from(t2 * s1) + (d0 >> 64);
        let d2 = t2 * r0 + (d1 >> 64) as u64;
        // Everything from 2^130 up folds back times 5.
        let fold = (d2 & !3) + (d2 >> 2);
        let (t0, c) = adc(d0 as u64, fold, 0);
        let (t1, c) = adc(d1 as u64, 0, c);
        self.h = [t0, t1, (d2 & 3) + c];
    }

    /// The tag: the accumulator fully reduced modulo 2^130 − 5, plus `s`, modulo 2^128.
    pub(crate) fn finish(&self) -> [u8; 16] {
        let [h0, h1, h2] = self.h;
        // h < 5 · 2^128 < 2p, so one conditional subtraction of p suffices: g = h + 5 − 2^130
        // is kept when it does not borrow, that is when h + 5 reaches 2^130.
        let (g0, c) = adc(h0, 5, 0);
        let (g1, c) = adc(h1, 0, c);
        let keep_g = 0u64.wrapping_sub((h2 + c) >> 2);
        let h0 = (g0 & keep_g) | (h0 & !keep_g);
        let h1 = (g1 & keep_g) | (h1 & !keep_g);
        let (t0, c) = adc(h0, self.pad[0], 0);
        let (t1, _) = adc(h1, self.pad[1], c);
        let mut tag = [0; 16];
        tag[..8].copy_from_slice(&t0.to_le_bytes());
        tag[8..].copy_from_slice(&t1.to_le_bytes());
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

/// The two little-endian words of a partial block (`tail`, under 16 bytes) padded with zeros,
/// put together in registers rather than through a zeroed copy on the stack.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn partial_words(tail: &[u8]) -> (u64, u64) {
    let (lo, hi) = tail.split_at(tail.len().min(8));
    let pack = |bytes: &[u8]| {
        bytes.iter().take(8).enumerate().fold(0, |w, (i, &b)| w | (u64::from(b) << (8 * i)))
    };
    (pack(lo), pack(hi))
}
