//! GHASH with the Armv8 64×64 polynomial multiply (`pmull`/`pmull2`) and aggregated
//! reduction over eight blocks, as [`x86_pclmul`](super::x86_pclmul) does: three multiplies per
//! block (Karatsuba) and two per reduction. Little-endian aarch64 only.

use super::h_times_x_inverse;
use core::arch::aarch64::{
    uint8x16_t, vdupq_n_u8, veorq_u8, vextq_u8, vgetq_lane_p64, vld1q_u8, vmull_high_p64,
    vmull_p64, vreinterpretq_p64_u8, vreinterpretq_u8_p128, vrev64q_u8, vst1q_u8,
};
use core_cpu::ArmAesPmull;
use zeroize::Zeroize;

/// Blocks per reduction.
pub(crate) const BATCH: usize = 8;

/// Powers of the key: `h[i]` is `H^(i+1)` in `H·x⁻¹` form, `k[i]` the XOR of its halves in
/// both lanes (the Karatsuba middle operand).
#[derive(Clone)]
pub(crate) struct Key {
    h: [[u8; 16]; BATCH],
    k: [[u8; 16]; BATCH],
}

impl Key {
    pub(super) fn new(token: ArmAesPmull, h: &[u8; 16]) -> Self {
        // SAFETY: the `ArmAesPmull` token proves NEON and PMULL were detected.
        unsafe { powers(token, h) }
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        self.h.zeroize();
        self.k.zeroize();
    }
}

/// Absorbs whole blocks into `y`.
pub(super) fn update(token: ArmAesPmull, key: &Key, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
    // SAFETY: the `ArmAesPmull` token proves NEON and PMULL were detected.
    unsafe { update_pmull(token, key, y, blocks) }
}

#[inline(always)]
fn load(bytes: &[u8; 16]) -> uint8x16_t {
    // SAFETY: `bytes` is 16 readable bytes; `ld1` has no alignment requirement for bytes.
    unsafe { vld1q_u8(bytes.as_ptr()) }
}

#[inline(always)]
fn store(bytes: &mut [u8; 16], x: uint8x16_t) {
    // SAFETY: `bytes` is 16 writable bytes; `st1` has no alignment requirement for bytes.
    unsafe { vst1q_u8(bytes.as_mut_ptr(), x) }
}

/// The key powers as registers.
pub(crate) struct Powers {
    h: [uint8x16_t; BATCH],
    k: [uint8x16_t; BATCH],
}

impl Key {
    #[inline(always)]
    pub(crate) fn load(&self) -> Powers {
        Powers { h: self.h.map(|p| load(&p)), k: self.k.map(|p| load(&p)) }
    }
}

/// All sixteen bytes reversed: memory order to the integer's lane order and back.
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn bswap(x: uint8x16_t) -> uint8x16_t {
    let r = vrev64q_u8(x);
    vextq_u8::<8>(r, r)
}

/// The two 64-bit halves exchanged.
#[target_feature(enable = "neon")]
#[inline]
fn swap_halves(x: uint8x16_t) -> uint8x16_t {
    vextq_u8::<8>(x, x)
}

/// The product of the low halves.
#[target_feature(enable = "neon,aes")]
#[inline]
fn pmull_lo(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    let a = vgetq_lane_p64::<0>(vreinterpretq_p64_u8(a));
    let b = vgetq_lane_p64::<0>(vreinterpretq_p64_u8(b));
    vreinterpretq_u8_p128(vmull_p64(a, b))
}

/// The product of the high halves.
#[target_feature(enable = "neon,aes")]
#[inline]
fn pmull_hi(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    vreinterpretq_u8_p128(vmull_high_p64(vreinterpretq_p64_u8(a), vreinterpretq_p64_u8(b)))
}

/// Unreduced Karatsuba partial products, summed over blocks.
#[derive(Clone, Copy)]
pub(crate) struct Sums {
    lo: uint8x16_t,
    mid: uint8x16_t,
    hi: uint8x16_t,
}

impl Sums {
    #[target_feature(enable = "neon")]
    #[inline]
    pub(crate) fn new() -> Self {
        Self { lo: vdupq_n_u8(0), mid: vdupq_n_u8(0), hi: vdupq_n_u8(0) }
    }

    /// Adds `x · h`, where `k` holds the XOR of `h`'s halves.
    #[target_feature(enable = "neon,aes")]
    #[inline]
    pub(crate) fn add(&mut self, x: uint8x16_t, h: uint8x16_t, k: uint8x16_t) {
        self.lo = veorq_u8(self.lo, pmull_lo(x, h));
        self.hi = veorq_u8(self.hi, pmull_hi(x, h));
        self.mid = veorq_u8(self.mid, pmull_lo(veorq_u8(x, swap_halves(x)), k));
    }

    /// The reduced field element.
    #[target_feature(enable = "neon,aes")]
    #[inline]
    pub(crate) fn reduce(self) -> uint8x16_t {
        let zero = vdupq_n_u8(0);
        let mid = veorq_u8(self.mid, veorq_u8(self.lo, self.hi));
        let lo = veorq_u8(self.lo, vextq_u8::<8>(zero, mid));
        let hi = veorq_u8(self.hi, vextq_u8::<8>(mid, zero));
        reduce(hi, lo)
    }
}

/// Montgomery reduction of `(hi, lo)`, as in [`super::reduce`].
#[target_feature(enable = "neon,aes")]
#[inline]
fn reduce(hi: uint8x16_t, lo: uint8x16_t) -> uint8x16_t {
    let q = load(&0xC200_0000_0000_0000_u128.to_le_bytes());
    let t = pmull_lo(lo, q);
    let lo = veorq_u8(swap_halves(lo), t);
    let t = pmull_lo(lo, q);
    let lo = veorq_u8(swap_halves(lo), t);
    veorq_u8(hi, lo)
}

#[target_feature(enable = "neon,aes")]
fn powers(_: ArmAesPmull, h: &[u8; 16]) -> Key {
    let h1 = load(&h_times_x_inverse(h).to_le_bytes());
    let k1 = veorq_u8(h1, swap_halves(h1));
    let mut key = Key { h: [[0; 16]; BATCH], k: [[0; 16]; BATCH] };
    let mut p = h1;
    for i in 0..BATCH {
        store(&mut key.h[i], p);
        store(&mut key.k[i], veorq_u8(p, swap_halves(p)));
        let mut s = Sums::new();
        s.add(p, h1, k1);
        p = s.reduce();
    }
    key
}

/// Multiplies `blocks` (with `acc` added to the first) by `H^n…H^1` and reduces once.
#[target_feature(enable = "neon,aes")]
#[inline]
pub(crate) fn absorb(acc: uint8x16_t, blocks: &[[u8; 16]], p: &Powers) -> uint8x16_t {
    let n = blocks.len();
    let mut s = Sums::new();
    for (i, block) in blocks.iter().enumerate() {
        let mut x = bswap(load(block));
        if i == 0 {
            x = veorq_u8(x, acc);
        }
        s.add(x, p.h[n - 1 - i], p.k[n - 1 - i]);
    }
    s.reduce()
}

#[target_feature(enable = "neon,aes")]
fn update_pmull(_: ArmAesPmull, key: &Key, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
    let p = key.load();
    let mut acc = bswap(load(y));
    for chunk in blocks.chunks(BATCH) {
        acc = absorb(acc, chunk, &p);
    }
    store(y, bswap(acc));
}
