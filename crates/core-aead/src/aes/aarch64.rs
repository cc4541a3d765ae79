//! AES with the Armv8 Cryptographic Extension: `aese` (`AddRoundKey`, `SubBytes`, `ShiftRows`) fused
//! with `aesmc` (`MixColumns`), eight blocks in flight to cover their latency. Decryption uses
//! `aesd`/`aesimc` with the equivalent inverse cipher's keys. Little-endian aarch64 only, as
//! Rust's tier-1 and tier-2 aarch64 targets are.

use super::{AesImpl, Backend, Hw, HwKey, counter, set_counter};
use core::arch::aarch64::{
    uint8x16_t, vaesdq_u8, vaeseq_u8, vaesimcq_u8, vaesmcq_u8, vdupq_n_u8, veorq_u8, vld1q_u8,
    vreinterpretq_u8_u32, vreinterpretq_u32_u8, vsetq_lane_u32, vst1q_u8,
};
use core_cpu::ArmAes;
use zeroize::Zeroize;

/// Blocks processed together.
const LANES: usize = 8;

/// The Armv8 AES instructions, eight blocks in flight.
impl Backend for Hw<ArmAes> {
    fn implementation(&self) -> AesImpl {
        AesImpl::Aarch64(self.0)
    }

    #[inline(always)]
    fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        // SAFETY: the `ArmAes` token proves NEON and the AES instructions were detected.
        unsafe { crypt_blocks_ce::<true>(self.0, &self.1, blocks) }
    }

    #[inline(always)]
    fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        // SAFETY: the `ArmAes` token proves NEON and the AES instructions were detected.
        unsafe { crypt_blocks_ce::<false>(self.0, &self.1, blocks) }
    }

    #[inline(always)]
    fn ctr32(&self, ctr: &mut [u8; 16], buf: &mut [u8]) {
        // SAFETY: the `ArmAes` token proves NEON and the AES instructions were detected.
        unsafe { ctr32_ce(self.0, &self.1, ctr, buf) }
    }

    #[inline(always)]
    fn cbc_encrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
        // SAFETY: the `ArmAes` token proves NEON and the AES instructions were detected.
        unsafe { cbc_encrypt_ce(self.0, &self.1, iv, blocks) }
    }

    #[inline(always)]
    fn cbc_decrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) -> bool {
        // SAFETY: the `ArmAes` token proves NEON and the AES instructions were detected.
        unsafe { cbc_decrypt_ce(self.0, &self.1, iv, blocks) };
        true
    }

    #[inline(always)]
    fn ccm_payload<const ENCRYPT: bool>(
        &self,
        mac: &mut [u8; 16],
        ks: &mut [u8; 16],
        ctr: &mut [u8; 16],
        buf: &mut [u8],
    ) {
        // SAFETY: the `ArmAes` token proves NEON and the AES instructions were detected.
        unsafe { ccm_ce::<ENCRYPT>(self.0, &self.1, mac, ks, ctr, buf) }
    }
}

/// A 16-byte load.
#[inline(always)]
pub(crate) fn load(bytes: &[u8; 16]) -> uint8x16_t {
    // SAFETY: `bytes` is 16 readable bytes; `ld1` has no alignment requirement for bytes.
    unsafe { vld1q_u8(bytes.as_ptr()) }
}

/// A 16-byte store.
#[inline(always)]
pub(crate) fn store(bytes: &mut [u8; 16], x: uint8x16_t) {
    // SAFETY: `bytes` is 16 writable bytes; `st1` has no alignment requirement for bytes.
    unsafe { vst1q_u8(bytes.as_mut_ptr(), x) }
}

/// Runs all rounds on `x[..n]`. `aese` XORs the round key first, so the last round key is
/// added with a plain XOR after the final `aese`.
#[target_feature(enable = "neon,aes")]
#[inline]
pub(crate) fn rounds<const ENCRYPT: bool>(
    rk: &[uint8x16_t; 15],
    nr: usize,
    x: &mut [uint8x16_t; LANES],
    n: usize,
) {
    for k in &rk[..nr - 1] {
        for b in &mut x[..n] {
            *b = if ENCRYPT {
                vaesmcq_u8(vaeseq_u8(*b, *k))
            } else {
                vaesimcq_u8(vaesdq_u8(*b, *k))
            };
        }
    }
    for b in &mut x[..n] {
        let last = if ENCRYPT { vaeseq_u8(*b, rk[nr - 1]) } else { vaesdq_u8(*b, rk[nr - 1]) };
        *b = veorq_u8(last, rk[nr]);
    }
}

#[target_feature(enable = "neon,aes")]
fn crypt_blocks_ce<const ENCRYPT: bool>(_: ArmAes, key: &HwKey, blocks: &mut [[u8; 16]]) {
    let rk = (if ENCRYPT { &key.enc } else { &key.dec }).map(|k| load(&k));
    for group in blocks.chunks_mut(LANES) {
        let mut x = [vdupq_n_u8(0); LANES];
        for (r, b) in x.iter_mut().zip(group.iter()) {
            *r = load(b);
        }
        if group.len() == LANES {
            rounds::<ENCRYPT>(&rk, key.rounds, &mut x, LANES);
        } else {
            rounds::<ENCRYPT>(&rk, key.rounds, &mut x, group.len());
        }
        for (r, b) in x.iter().zip(group.iter_mut()) {
            store(b, *r);
        }
    }
}

/// The counter block for counter value `c`: `base` with its last word replaced.
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn counter_block(base: uint8x16_t, c: u32) -> uint8x16_t {
    vreinterpretq_u8_u32(vsetq_lane_u32::<3>(c.swap_bytes(), vreinterpretq_u32_u8(base)))
}

#[target_feature(enable = "neon,aes")]
fn ctr32_ce(_: ArmAes, key: &HwKey, ctr: &mut [u8; 16], buf: &mut [u8]) {
    let rk = key.enc.map(|k| load(&k));
    let base = load(ctr);
    let mut c = counter(ctr);
    let mut chunks = buf.chunks_exact_mut(16 * LANES);
    for chunk in &mut chunks {
        let mut x = [vdupq_n_u8(0); LANES];
        for b in &mut x {
            *b = counter_block(base, c);
            c = c.wrapping_add(1);
        }
        rounds::<true>(&rk, key.rounds, &mut x, LANES);
        let (blocks, _) = chunk.as_chunks_mut::<16>();
        for (block, ks) in blocks.iter_mut().zip(&x) {
            store(block, veorq_u8(load(block), *ks));
        }
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let n = rest.len().div_ceil(16);
        let mut x = [vdupq_n_u8(0); LANES];
        for b in &mut x[..n] {
            *b = counter_block(base, c);
            c = c.wrapping_add(1);
        }
        rounds::<true>(&rk, key.rounds, &mut x, n);
        let (full, partial) = rest.as_chunks_mut::<16>();
        for (block, ks) in full.iter_mut().zip(&x) {
            store(block, veorq_u8(load(block), *ks));
        }
        if !partial.is_empty() {
            let mut last = [0u8; 16];
            last[..partial.len()].copy_from_slice(partial);
            let v = veorq_u8(load(&last), x[full.len()]);
            store(&mut last, v);
            partial.copy_from_slice(&last[..partial.len()]);
            last.zeroize();
        }
    }
    set_counter(ctr, c);
}

#[target_feature(enable = "neon,aes")]
fn cbc_encrypt_ce(_: ArmAes, key: &HwKey, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
    let rk = key.enc.map(|k| load(&k));
    let mut x = [vdupq_n_u8(0); LANES];
    x[0] = load(iv);
    for block in blocks {
        x[0] = veorq_u8(x[0], load(block));
        rounds::<true>(&rk, key.rounds, &mut x, 1);
        store(block, x[0]);
    }
    store(iv, x[0]);
}

#[target_feature(enable = "neon,aes")]
fn ccm_ce<const ENCRYPT: bool>(
    _: ArmAes,
    key: &HwKey,
    mac: &mut [u8; 16],
    ks: &mut [u8; 16],
    ctr: &mut [u8; 16],
    buf: &mut [u8],
) {
    let rk = key.enc.map(|k| load(&k));
    let base = load(ctr);
    let mut c = counter(ctr);
    let mut x = [vdupq_n_u8(0); LANES];
    let (mut m, mut k) = (load(mac), load(ks));
    let (blocks, partial) = buf.as_chunks_mut::<16>();
    for block in blocks {
        let d = load(block);
        let out = veorq_u8(d, k);
        store(block, out);
        let plain = if ENCRYPT { d } else { out };
        // The MAC of this block and the keystream of the next, side by side.
        x[0] = veorq_u8(m, plain);
        x[1] = counter_block(base, c);
        c = c.wrapping_add(1);
        rounds::<true>(&rk, key.rounds, &mut x, 2);
        (m, k) = (x[0], x[1]);
    }
    if !partial.is_empty() {
        let n = partial.len();
        let mut last = [0u8; 16];
        last[..n].copy_from_slice(partial);
        let d = load(&last);
        store(&mut last, veorq_u8(d, k));
        partial.copy_from_slice(&last[..n]);
        if ENCRYPT {
            store(&mut last, d);
        } else {
            last[n..].fill(0);
        }
        x[0] = veorq_u8(m, load(&last));
        rounds::<true>(&rk, key.rounds, &mut x, 1);
        m = x[0];
        last.zeroize();
    }
    store(mac, m);
    store(ks, k);
    set_counter(ctr, c);
}

#[target_feature(enable = "neon,aes")]
fn cbc_decrypt_ce(_: ArmAes, key: &HwKey, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
    let rk = key.dec.map(|k| load(&k));
    let mut prev = load(iv);
    for group in blocks.chunks_mut(LANES) {
        let n = group.len();
        let mut c = [vdupq_n_u8(0); LANES];
        for (r, b) in c.iter_mut().zip(group.iter()) {
            *r = load(b);
        }
        let mut x = c;
        if n == LANES {
            rounds::<false>(&rk, key.rounds, &mut x, LANES);
        } else {
            rounds::<false>(&rk, key.rounds, &mut x, n);
        }
        for (i, b) in group.iter_mut().enumerate() {
            let chain = if i == 0 { prev } else { c[i - 1] };
            store(b, veorq_u8(x[i], chain));
        }
        prev = c[n - 1];
    }
    store(iv, prev);
}
