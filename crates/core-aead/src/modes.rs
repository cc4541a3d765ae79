//! Confidentiality-only modes of AES over any implementation (SP 800-38A): CTR with the 32-bit
//! big-endian counter GCM uses, and CBC without padding or with PKCS#7 padding (RFC 5652
//! §6.3). None authenticates: use [`AesGcm`](crate::AesGcm) or [`AesCcm`](crate::AesCcm)
//! unless a protocol dictates otherwise.

use crate::Error;
use crate::aes::Aes;
use subtle::{ConstantTimeEq, ConstantTimeLess};
use zeroize::Zeroize;

/// Blocks decrypted together in CBC (the widest implementation's batch).
const CBC_BATCH: usize = 16;

impl Aes {
    /// CTR mode (SP 800-38A §6.5): XORs `buf` with the keystream `E(ctr)`, `E(ctr + 1)`…,
    /// where the counter is the block's last four bytes, big-endian, incremented modulo 2^32
    /// (GCM's inc32; SP 800-38A's vectors never carry out of them). Afterwards
    /// `counter_block` points past the blocks used, a final partial block included, so a
    /// stream can be continued at a block boundary. Encryption and decryption are the same.
    pub fn apply_ctr32(&self, counter_block: &mut [u8; 16], buf: &mut [u8]) {
        self.ctr32(counter_block, buf);
    }

    /// CBC encryption (SP 800-38A §6.2) of whole blocks in place. `iv` is updated to the last
    /// ciphertext block, so consecutive calls continue one chain. A length that is not a
    /// multiple of 16 is [`Error::InvalidLength`] and leaves `buf` unchanged.
    pub fn cbc_encrypt(&self, iv: &mut [u8; 16], buf: &mut [u8]) -> Result<(), Error> {
        let (blocks, rest) = buf.as_chunks_mut::<16>();
        if !rest.is_empty() {
            return Err(Error::InvalidLength);
        }
        self.cbc_encrypt_blocks(iv, blocks);
        Ok(())
    }

    /// CBC decryption of whole blocks in place, many blocks in parallel. `iv` is updated to
    /// the last ciphertext block. A length that is not a multiple of 16 is
    /// [`Error::InvalidLength`] and leaves `buf` unchanged.
    pub fn cbc_decrypt(&self, iv: &mut [u8; 16], buf: &mut [u8]) -> Result<(), Error> {
        let (blocks, rest) = buf.as_chunks_mut::<16>();
        if !rest.is_empty() {
            return Err(Error::InvalidLength);
        }
        if self.cbc_decrypt_blocks(iv, blocks) {
            return Ok(());
        }
        let mut prev = *iv;
        let mut saved = [[0u8; 16]; CBC_BATCH];
        for group in blocks.chunks_mut(CBC_BATCH) {
            let saved = &mut saved[..group.len()];
            saved.copy_from_slice(group);
            self.decrypt_blocks(group);
            for (i, block) in group.iter_mut().enumerate() {
                let chain = if i == 0 { &prev } else { &saved[i - 1] };
                for (b, c) in block.iter_mut().zip(chain) {
                    *b ^= c;
                }
            }
            if let Some(last) = saved.last() {
                prev = *last;
            }
        }
        *iv = prev;
        Ok(())
    }

    /// CBC encryption with PKCS#7 padding: `buf[..msg_len]` is the message, and the padded
    /// ciphertext (`16 · (msg_len / 16 + 1)` bytes, whose length is returned) is written over
    /// the start of `buf`, which must have room for it.
    pub fn cbc_encrypt_pkcs7(
        &self,
        iv: &[u8; 16],
        buf: &mut [u8],
        msg_len: usize,
    ) -> Result<usize, Error> {
        let padded = (msg_len / 16 + 1) * 16;
        let out = buf.get_mut(..padded).ok_or(Error::BufferTooSmall)?;
        let pad = (padded - msg_len) as u8;
        out[msg_len..].fill(pad);
        let mut chain = *iv;
        self.cbc_encrypt(&mut chain, out)?;
        Ok(padded)
    }

    /// CBC decryption with PKCS#7 padding, in place; returns the message length. The padding
    /// is checked in constant time. A length that is zero or not a multiple of 16, or bad
    /// padding, is [`Error::InvalidLength`], and then `buf` is zeroed.
    ///
    /// CBC has no integrity: whoever can tell a padding error from a later failure can
    /// decrypt (Vaudenay's padding oracle). Authenticate the ciphertext before calling this.
    pub fn cbc_decrypt_pkcs7(&self, iv: &[u8; 16], buf: &mut [u8]) -> Result<usize, Error> {
        if buf.is_empty() || !buf.len().is_multiple_of(16) {
            return Err(Error::InvalidLength);
        }
        let mut chain = *iv;
        self.cbc_decrypt(&mut chain, buf)?;
        let len = buf.len();
        let last = &buf[len - 16..];
        let pad = last[15];
        // Valid when 1 ≤ pad ≤ 16 and the last `pad` bytes all equal `pad`.
        let mut ok = !pad.ct_eq(&0) & pad.ct_lt(&17);
        for (i, &b) in last.iter().rev().enumerate() {
            let in_pad = (i as u8).ct_lt(&pad);
            ok &= !in_pad | b.ct_eq(&pad);
        }
        if bool::from(ok) {
            Ok(len - usize::from(pad))
        } else {
            buf.zeroize();
            Err(Error::InvalidLength)
        }
    }
}
