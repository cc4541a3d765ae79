//! The `thumb1` AES implementation, for the Cortex-M0: ct32's bitsliced cipher, key schedule
//! and loops with its hot [`Steps`] in Thumb-1 assembly (`core_asm::thumbv6m::aead::aes`):
//! `SubBytes`, the linear steps of a middle round in one pass, the transposition into and out
//! of the planes, `ShiftRows` and the keystream XOR of a CTR chunk. The Rust of
//! [`bitslice`](super::bitslice) and [`ct32`](super::ct32) is what they compute, what every
//! other target and a build without `asm` run, and what the tests compare them with.

use super::ct32::{Key, Steps, ctr32, decrypt2, encrypt2, xor_keystream_bytes};
use super::{AesImpl, Backend, batched};
use core_asm::thumbv6m::aead::aes::{ortho, shift_mix_add, shift_rows, sub_bytes};

/// The Thumb-1 steps.
pub(crate) struct Thumb1;

/// ct32's loops over the Thumb-1 steps.
impl Backend for Key<Thumb1> {
    fn implementation(&self) -> AesImpl {
        AesImpl::Thumb1
    }

    #[inline(always)]
    fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        batched::<2>(blocks, |b| encrypt2(self, b));
    }

    #[inline(always)]
    fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        batched::<2>(blocks, |b| decrypt2(self, b));
    }

    #[inline(always)]
    fn ctr32(&self, ctr: &mut [u8; 16], buf: &mut [u8]) {
        ctr32(self, ctr, buf);
    }
}

impl Steps for Thumb1 {
    #[inline(always)]
    fn ortho(q: &mut [u32; 8]) {
        ortho(q);
    }

    #[inline(always)]
    fn sub_bytes(q: &mut [u32; 8]) {
        sub_bytes(q);
    }

    #[inline(always)]
    fn encrypt_planes(key: &Key<Self>, q: &mut [u32; 8]) {
        encrypt_planes(key, q);
    }

    #[inline(always)]
    fn xor_keystream(q: &[u32; 8], chunk: &mut [u8]) {
        xor_keystream(q, chunk);
    }
}

/// The cipher on the planes of two blocks: the middle rounds' `ShiftRows`, `MixColumns` and
/// `AddRoundKey` are one pass over the planes ([`shift_mix_add`]), each plane loaded and
/// stored once a round instead of three times; the last round is `ShiftRows` and
/// `AddRoundKey` here. One out-of-line copy for `encrypt2` and `ctr32` (GCM links both).
#[inline(never)]
fn encrypt_planes(key: &Key<Thumb1>, q: &mut [u32; 8]) {
    let rk = key.used();
    let (Some(first), Some(last)) = (rk.first(), rk.last()) else { return };
    for (p, k) in q.iter_mut().zip(first) {
        *p ^= k;
    }
    for k in rk.get(1..rk.len() - 1).unwrap_or_default() {
        sub_bytes(q);
        shift_mix_add(q, k);
    }
    sub_bytes(q);
    for (p, k) in q.iter_mut().zip(last) {
        *p = shift_rows(*p) ^ k;
    }
}

/// XORs `chunk` (at most 32 bytes) with the keystream in the planes after [`ortho`]: whole
/// 32-byte chunks in assembly (about 7 cycles a byte against 18 compiled), a shorter last
/// chunk through the Rust loops.
#[inline(always)]
fn xor_keystream(q: &[u32; 8], chunk: &mut [u8]) {
    let Ok(full) = <&mut [u8; 32]>::try_from(&mut *chunk) else {
        return xor_keystream_bytes(q, chunk);
    };
    core_asm::thumbv6m::aead::aes::xor_keystream32(q, full);
}
