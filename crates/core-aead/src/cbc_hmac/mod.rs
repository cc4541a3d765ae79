//! AES-CBC with HMAC-SHA1, -SHA256 or -SHA384 as TLS 1.1 and 1.2 protect records (RFC 5246
//! §6.2.3.2, MAC-then-encrypt): the MAC covers `seq ‖ type ‖ version ‖ length ‖ plaintext`,
//! then `plaintext ‖ MAC ‖ padding` is CBC-encrypted under an explicit per-record IV. One
//! call per record, in place, on caller buffers.
//!
//! Sealing is stitched: one loop hashes a block of the MAC's input and CBC-encrypts the next
//! block's worth of plaintext (64 bytes, 128 for SHA-384), so that out-of-order execution
//! runs the two serial chains (the CBC chain waits an AES latency per block) side by side,
//! on any pair of implementations. Where the AES key is for the AES instructions and the MAC
//! runs on the SHA extensions (HMAC-SHA1, HMAC-SHA256), the loop is one `asm!` kernel
//! (`core_asm::x86_64::aead::cbc_hmac`, reached through `x86_stitched`) with both chains in
//! registers and the SHA rounds interleaved with the AES ones, as OpenSSL's
//! `aesni_cbc_sha*_enc_shaext` do; the Rust loop is its twin. Against OpenSSL's stitched
//! `EVP_aes_128_cbc_hmac_sha256`/`_sha1` in the same process (`speed`, binaries alternated
//! three times, medians of the ratios; Xeon with SHA-NI and VAES): HMAC-SHA256 0.91× → 1.10×
//! at 1350 bytes and 0.83× → 1.02× at 16 KiB, HMAC-SHA1 0.98× → 1.14× and 0.91× → 1.08×. At
//! 16 KiB both are at the CBC chain's latency (ten `aesenc` per block), which bounds any
//! single-record CBC encryption. Opening decrypts with the pipelined CBC first, then checks;
//! its masked loops (padding, MAC gather, the MAC's last blocks) work on bytes so that they
//! run in vector registers, which took it from 0.91× to 1.15× OpenSSL's at 1350 bytes with
//! HMAC-SHA256 (1.01× → 1.04× at 16 KiB) and from 0.94× to 1.15× with HMAC-SHA1 (1.07× →
//! 1.10×).
//!
//! # Opening in constant time (Lucky Thirteen)
//!
//! MAC-then-encrypt leaks through timing unless opening does the same work for every
//! padding (Al Fardan and Paterson, "Lucky Thirteen", IEEE S&P 2013). [`AesCbcHmac::open_in_place`]
//! depends only on the record's length:
//!
//! - after the CBC decryption, the padding is checked with masks over the last 256 bytes (or
//!   the whole record if shorter), and a bad padding is taken as no padding, so the rest
//!   runs on the same lengths either way;
//! - the MAC's inner hash compresses every block that ends before the shortest message the
//!   record can hold (its length less the MAC and 256 bytes) as usual, then every block that
//!   could hold the end of the message or its padding and length field, each built with
//!   masks, keeping the chaining value after the one that is final for the actual length
//!   (a constant-time select): about five 64-byte blocks more than a plain HMAC, or three
//!   128-byte ones with SHA-384;
//! - the received MAC is gathered from its secret position by one pass over the last
//!   `MAC + 256` bytes into a rotated copy, then rotated back in `log₂(MAC)` masked steps;
//! - bad padding and bad MAC end in the same comparison and the same error,
//!   [`RecordError::BadRecordMac`] (RFC 5246 §6.2.3.2 item 2), and only that verdict is
//!   declared public. A record too short or not a whole number of blocks gets the same
//!   error: its length is public anyway.
//!
//! SHA-384 changes the numbers, not the argument. The leak Lucky Thirteen measured is the
//! count of compressions, which steps where the message, its 0x80 byte and its length field
//! cross a block boundary: at 55 bytes into a 64-byte block for SHA-1/SHA-256 (8-byte
//! field), at 111 into a 128-byte block for SHA-384 (16-byte field), one SHA-512 compression
//! (about twice a SHA-256 one) either side, so a variable-time HMAC-SHA384 would leak more,
//! not less. Here the blocks compressed run from the last one the shortest possible message
//! fills to `(max_end + 16) / 128`, all public; the 16-byte field only moves which of them is
//! final (`(end + 16) / 128`, a masked compare), and the bit count fits its last 8 bytes (the
//! first 8 are zero for any record). The padding check and the MAC scan (now over 48 + 256
//! bytes, the rotation in six masked steps) are the same code.
//!
//! `cargo xtask ct` runs good and bad paddings and a bad MAC under valgrind with the keys and
//! plaintext secret, for each hash.
//!
//! # Encrypt-then-MAC (RFC 7366)
//!
//! [`AesCbcHmac::seal_etm_in_place`] and [`AesCbcHmac::open_etm_in_place`] protect records
//! the way RFC 7366 negotiates: `iv ‖ CBC(plaintext ‖ padding) ‖ MAC`, the MAC over
//! `seq ‖ type ‖ version ‖ length ‖ iv ‖ ciphertext` (the length of `iv ‖ ciphertext`).
//! Sealing is stitched here too, the other way round: the MAC runs over the ciphertext, so
//! each step encrypts the next block's worth and hashes the block the step before finished.
//! Measured against the two passes it replaced (CBC, then HMAC; `x86_vaes512` + `x86_shani`,
//! minimum rdtsc ticks per byte of one-record samples, binaries alternated three times):
//! HMAC-SHA256 3.63 → 2.89 at 1350 bytes and 3.24 → 2.51 at 16 KiB, HMAC-SHA1 3.58 → 2.79
//! and 3.18 → 2.37.
//! Opening checks the MAC (a constant-time comparison) before it decrypts anything, so the
//! padding is only ever seen in authentic records; it is still checked with masks, since
//! the bytes it ends are secret plaintext, and only the plaintext length is declassified.

mod mac;
#[cfg(all(feature = "asm", target_arch = "x86_64"))]
mod x86_stitched;

pub use mac::RecordHash;

use crate::{Aes, AesImpl, Error, Implementation};
use core::fmt;
use core_hash::{Sha1, Sha256, Sha384, value_barrier};
use mac::{Block as _, MAX_MAC_LEN, MacKey, eq_mask, lt_mask};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

const MAX_PLAINTEXT_LEN: usize = 1 << 14;
const MAX_FRAGMENT_LEN: usize = MAX_PLAINTEXT_LEN + 2048;
const IV_LEN: usize = 16;
/// Bytes of the MAC's input before the plaintext: sequence number, type, version, length.
const HEADER_LEN: usize = 13;
/// The padding is at most this long, its length byte included.
const MAX_PADDING: usize = 256;

/// Why a record could not be sealed or opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordError {
    /// The record did not decrypt to valid padding and a valid MAC, or is too short or not a
    /// whole number of blocks: the TLS `bad_record_mac` alert. One error for all, so that
    /// they cannot be told apart. The buffer has been zeroed.
    BadRecordMac,
    /// The plaintext is longer than [`AesCbcHmac::MAX_PLAINTEXT_LEN`], or the fragment longer than
    /// [`AesCbcHmac::MAX_FRAGMENT_LEN`]: the TLS `record_overflow` alert.
    RecordOverflow,
    /// The buffer has no room for the IV, the MAC and the padding
    /// ([`AesCbcHmac::sealed_len`] bytes in all).
    BufferTooSmall,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::BadRecordMac => "bad record MAC",
            Self::RecordOverflow => {
                "record overflow: plaintext over 2^14 or fragment over 2^14 + 2048 bytes"
            }
            Self::BufferTooSmall => "buffer too small for the IV, MAC and padding",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for RecordError {}

/// What the record MAC covers besides the plaintext (RFC 5246 §6.2.3.1): the sequence
/// number, `TLSCompressed.type` and `.version` (the length is the plaintext's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordHeader {
    /// The record's sequence number.
    pub sequence: u64,
    /// The content type, e.g. 23 for application data.
    pub content_type: u8,
    /// The protocol version, e.g. `0x0303` for TLS 1.2.
    pub version: u16,
}

impl RecordHeader {
    /// The 13 bytes the MAC starts with, for a plaintext of `len` bytes (secret when opening:
    /// written with shifts, no branch).
    fn mac_prefix(&self, len: usize) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        out[..8].copy_from_slice(&self.sequence.to_be_bytes());
        out[8] = self.content_type;
        out[9..11].copy_from_slice(&self.version.to_be_bytes());
        out[11] = (len >> 8) as u8;
        out[12] = len as u8;
        out
    }
}

/// The keys of one direction of a TLS CBC cipher suite: an AES key (16 or 32 bytes in TLS)
/// and an HMAC key, on implementations chosen once. Dropping it wipes both.
///
/// ```
/// use core_aead::{AesCbcHmacSha256, RecordHeader};
///
/// let key = AesCbcHmacSha256::new(&[1; 16], &[2; 32]).unwrap();
/// let header = RecordHeader { sequence: 0, content_type: 23, version: 0x0303 };
/// let mut record = [0u8; 64];
/// record[16..21].copy_from_slice(b"hello");
/// let n = key.seal_in_place(&header, &[3; 16], &mut record, 5).unwrap();
/// assert_eq!(n, AesCbcHmacSha256::sealed_len(5));
/// assert_eq!(key.open_in_place(&header, &mut record[..n]).unwrap(), b"hello");
/// ```
#[derive(Clone)]
pub struct AesCbcHmac<H: RecordHash> {
    aes: Aes,
    mac: MacKey<H>,
}

/// AES-CBC with HMAC-SHA1: the TLS `_WITH_AES_128_CBC_SHA` and `_AES_256_CBC_SHA` suites.
pub type AesCbcHmacSha1 = AesCbcHmac<Sha1>;
/// AES-CBC with HMAC-SHA256: the TLS `_WITH_AES_128_CBC_SHA256` and `_AES_256_CBC_SHA256`
/// suites.
pub type AesCbcHmacSha256 = AesCbcHmac<Sha256>;
/// AES-CBC with HMAC-SHA384: the TLS `_WITH_AES_256_CBC_SHA384` suites (RFC 5289).
pub type AesCbcHmacSha384 = AesCbcHmac<Sha384>;

impl<H: RecordHash> fmt::Debug for AesCbcHmac<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AesCbcHmac")
            .field("aes", &self.aes)
            .field("hash", &self.mac.implementation().name())
            .finish_non_exhaustive()
    }
}

impl<H: RecordHash> AesCbcHmac<H> {
    /// The MAC length in bytes: 20 for HMAC-SHA1, 32 for HMAC-SHA256, 48 for HMAC-SHA384.
    pub const MAC_LEN: usize = H::OUTPUT_LEN;
    /// The explicit IV that starts every record's fragment.
    pub const IV_LEN: usize = IV_LEN;
    /// The largest TLS plaintext fragment (RFC 5246 §6.2.1): 2^14 bytes.
    pub const MAX_PLAINTEXT_LEN: usize = MAX_PLAINTEXT_LEN;
    /// The largest `TLSCiphertext.fragment` [`open_in_place`](Self::open_in_place) takes
    /// (RFC 5246 §6.2.3: 2^14 + 2048 bytes).
    pub const MAX_FRAGMENT_LEN: usize = MAX_FRAGMENT_LEN;

    /// Keys AES (16, 24 or 32 bytes) and HMAC (any length; TLS uses the hash's output
    /// length) on the preferred AES implementation and the best HMAC one for this CPU.
    pub fn new(aes_key: &[u8], mac_key: &[u8]) -> Result<Self, Error> {
        Self::with_impls(AesImpl::preferred(), H::Impl::best(), aes_key, mac_key)
    }

    /// Keys AES and HMAC on the given implementations.
    pub fn with_impls(
        aes: AesImpl,
        hash: H::Impl,
        aes_key: &[u8],
        mac_key: &[u8],
    ) -> Result<Self, Error> {
        Ok(Self { aes: Aes::with_impl(aes, aes_key)?, mac: MacKey::new(hash, mac_key) })
    }

    /// The AES implementation this key runs on.
    pub fn aes_implementation(&self) -> AesImpl {
        self.aes.implementation()
    }

    /// The hash implementation the MAC runs on.
    pub fn hash_implementation(&self) -> H::Impl {
        self.mac.implementation()
    }

    /// An unpredictable IV for the record with this sequence number (RFC 5246 §6.2.3.2): the
    /// encryption of `seed ⊕ sequence` under the record key, where `seed` is 16 secret bytes
    /// the peer need not know (TLS: the unused write IV of the key block). Without the seed no
    /// one can choose a block whose encryption is a future IV, so the IVs are as good as
    /// random to an attacker, and no second key schedule is kept for them.
    pub fn record_iv(&self, seed: &[u8; 16], sequence: u64) -> [u8; 16] {
        let mut iv = *seed;
        for (b, s) in iv[8..].iter_mut().zip(sequence.to_be_bytes()) {
            *b ^= s;
        }
        self.aes.encrypt_block(&mut iv);
        iv
    }

    /// The fragment length [`seal_in_place`](Self::seal_in_place) produces for a plaintext of
    /// `plaintext_len` bytes: the IV, then the plaintext, MAC and at least one byte of
    /// padding, rounded up to whole blocks.
    pub const fn sealed_len(plaintext_len: usize) -> usize {
        IV_LEN + (plaintext_len + H::OUTPUT_LEN + 16) / 16 * 16
    }

    /// Seals one record in place: `buf` holds [`Self::IV_LEN`] bytes of room, then the plaintext
    /// (`plaintext_len` bytes), then room for the MAC and padding; afterwards its first
    /// [`sealed_len`](Self::sealed_len) bytes, whose length is returned, are the record's
    /// fragment: `iv ‖ CBC(plaintext ‖ MAC ‖ padding)`. The padding is the shortest. `iv`
    /// must be unpredictable (a fresh random block per record, RFC 5246 §6.2.3.2). Bytes
    /// past the fragment are left alone; on error `buf` is unchanged.
    pub fn seal_in_place(
        &self,
        header: &RecordHeader,
        iv: &[u8; 16],
        buf: &mut [u8],
        plaintext_len: usize,
    ) -> Result<usize, RecordError> {
        if plaintext_len > MAX_PLAINTEXT_LEN {
            return Err(RecordError::RecordOverflow);
        }
        let total = Self::sealed_len(plaintext_len);
        let (head, body) =
            buf.get_mut(..total).ok_or(RecordError::BufferTooSmall)?.split_at_mut(IV_LEN);
        head.copy_from_slice(iv);
        let prefix = header.mac_prefix(plaintext_len);
        // Stitched: each step hashes one block of `prefix ‖ plaintext` and CBC-encrypts the
        // next block's worth of plaintext (64 bytes, 128 for SHA-384). The CBC chain is
        // serial (one AES block per AES latency) and leaves the core's other units idle, the
        // hash is a serial chain of its own: in one loop, out-of-order execution runs the two
        // side by side. The hash reads a block less the header ahead of the encryption, so
        // its block is copied out before the cipher overwrites the first bytes of it.
        let block_len = H::BLOCK_LEN;
        let lead = block_len - HEADER_LEN;
        let mut state = self.mac.inner();
        let mut chain = *iv;
        let steps = plaintext_len.saturating_sub(lead) / block_len;
        let mut block = H::Block::ZERO;
        let mut stitched = 0;
        if steps > 0 {
            block.as_mut()[..HEADER_LEN].copy_from_slice(&prefix);
            block.as_mut()[HEADER_LEN..].copy_from_slice(&body[..lead]);
            self.mac.absorb(&mut state, core::slice::from_ref(&block));
            // A kernel that does whole steps in one loop, for the pairs that have one; the
            // loop below is its twin, and does the steps it leaves.
            let buf = &mut body[..lead + block_len * steps];
            stitched = H::seal_steps(
                self.mac.implementation(),
                &self.aes,
                &mut chain,
                &mut state,
                buf,
                lead,
            );
        }
        for k in stitched..steps {
            let at = lead + block_len * k;
            block.as_mut().copy_from_slice(&body[at..at + block_len]);
            let (blocks, _) = body[block_len * k..block_len * (k + 1)].as_chunks_mut::<16>();
            self.aes.cbc_encrypt_blocks(&mut chain, blocks);
            self.mac.absorb(&mut state, core::slice::from_ref(&block));
        }
        block.zeroize();
        // The rest of the MAC's input, under two blocks: copied out, so that the plaintext's
        // whole blocks left can be encrypted while the MAC's last blocks are hashed (two
        // independent chains again, in program order for out-of-order execution to overlap).
        let done = if steps > 0 { steps + 1 } else { 0 };
        let mut rest_blocks = [H::Block::ZERO; 2];
        let rest = H::Block::flat_mut(&mut rest_blocks);
        let rest_len = if steps > 0 {
            let from = lead + block_len * steps;
            rest[..plaintext_len - from].copy_from_slice(&body[from..plaintext_len]);
            plaintext_len - from
        } else {
            rest[..HEADER_LEN].copy_from_slice(&prefix);
            rest[HEADER_LEN..HEADER_LEN + plaintext_len].copy_from_slice(&body[..plaintext_len]);
            HEADER_LEN + plaintext_len
        };
        let whole = plaintext_len / 16 * 16;
        let (blocks, _) = body[block_len * steps..whole].as_chunks_mut::<16>();
        self.aes.cbc_encrypt_blocks(&mut chain, blocks);
        let mut tag = self.mac.finish_public(state, done, &rest[..rest_len]);
        rest_blocks.zeroize();
        let (mac, padding) = body[plaintext_len..].split_at_mut(H::OUTPUT_LEN);
        mac.copy_from_slice(&tag[..H::OUTPUT_LEN]);
        tag.zeroize();
        padding.fill((padding.len() - 1) as u8);
        let (blocks, _) = body[whole..].as_chunks_mut::<16>();
        self.aes.cbc_encrypt_blocks(&mut chain, blocks);
        Ok(total)
    }

    /// Opens one record in place: `fragment` is `iv ‖ ciphertext` as received; on success
    /// the plaintext is returned (inside `fragment`, after the IV). The time taken depends on
    /// the fragment's length only (see the module documentation). Bad padding, a bad MAC, and
    /// a fragment that is too short or not a whole number of blocks are all
    /// [`RecordError::BadRecordMac`], and then `fragment` is zeroed.
    pub fn open_in_place<'b>(
        &self,
        header: &RecordHeader,
        fragment: &'b mut [u8],
    ) -> Result<&'b mut [u8], RecordError> {
        if fragment.len() > MAX_FRAGMENT_LEN {
            return Err(RecordError::RecordOverflow);
        }
        let mac_len = H::OUTPUT_LEN;
        let body_len = fragment.len().wrapping_sub(IV_LEN);
        if fragment.len() < IV_LEN + mac_len + 1 || !body_len.is_multiple_of(16) {
            fragment.zeroize();
            return Err(RecordError::BadRecordMac);
        }
        let (iv, body) = fragment.split_at_mut(IV_LEN);
        let mut chain: [u8; 16] = iv.try_into().unwrap_or_default();
        if self.aes.cbc_decrypt(&mut chain, body).is_err() {
            fragment.zeroize();
            return Err(RecordError::BadRecordMac);
        }
        let (good, len) = check_padding(body, mac_len);
        // The message is `body[..len]`: the MAC runs over the window `len` may end in.
        let max_len = body_len - mac_len - 1;
        let min_len = max_len.saturating_sub(MAX_PADDING - 1);
        let mut ours = self.mac.mac(&header.mac_prefix(len), &body[..max_len], len, min_len);
        let mut theirs = extract_mac(body, len, mac_len);
        let ok = good.ct_eq(&usize::MAX) & ours[..mac_len].ct_eq(&theirs[..mac_len]);
        ours.zeroize();
        theirs.zeroize();
        if core_hash::declassify(bool::from(ok)) {
            let len = core_hash::declassify(len);
            Ok(&mut fragment[IV_LEN..IV_LEN + len])
        } else {
            fragment.zeroize();
            Err(RecordError::BadRecordMac)
        }
    }
}

impl<H: RecordHash> AesCbcHmac<H> {
    /// The fragment length [`seal_etm_in_place`](Self::seal_etm_in_place) produces for a
    /// plaintext of `plaintext_len` bytes: the IV, the plaintext and at least one byte of
    /// padding rounded up to whole blocks, and the MAC.
    pub const fn etm_sealed_len(plaintext_len: usize) -> usize {
        IV_LEN + (plaintext_len + 16) / 16 * 16 + H::OUTPUT_LEN
    }

    /// Seals one record in place, encrypt-then-MAC (RFC 7366 §3): `buf` holds
    /// [`Self::IV_LEN`] bytes of room, then the plaintext (`plaintext_len` bytes), then room
    /// for the padding and MAC; afterwards its first [`etm_sealed_len`](Self::etm_sealed_len)
    /// bytes, whose length is returned, are `iv ‖ CBC(plaintext ‖ padding) ‖ MAC`. The
    /// padding is the shortest; `iv` must be unpredictable. On error `buf` is unchanged.
    pub fn seal_etm_in_place(
        &self,
        header: &RecordHeader,
        iv: &[u8; 16],
        buf: &mut [u8],
        plaintext_len: usize,
    ) -> Result<usize, RecordError> {
        if plaintext_len > MAX_PLAINTEXT_LEN {
            return Err(RecordError::RecordOverflow);
        }
        let total = Self::etm_sealed_len(plaintext_len);
        let sealed = total - H::OUTPUT_LEN;
        let out = buf.get_mut(..total).ok_or(RecordError::BufferTooSmall)?;
        out[..IV_LEN].copy_from_slice(iv);
        let (body, mac) = out.split_at_mut(sealed);
        let padding = &mut body[IV_LEN + plaintext_len..];
        padding.fill((padding.len() - 1) as u8);
        // Stitched: the MAC covers `prefix ‖ iv ‖ ciphertext`, so its block k is complete once
        // the cipher has written the k-th block's worth of ciphertext. Each step encrypts the
        // next block's worth and hashes the block the step before completed: the two serial
        // chains (CBC, the hash) do not wait on each other within a step, and out-of-order
        // execution overlaps them.
        let block_len = H::BLOCK_LEN;
        let prefix = header.mac_prefix(sealed);
        let mut chain = *iv;
        let mut encrypted = IV_LEN;
        let mut encrypt_to = |body: &mut [u8], to: usize| {
            let to = to.min(sealed);
            let (blocks, _) = body[encrypted..to].as_chunks_mut::<16>();
            self.aes.cbc_encrypt_blocks(&mut chain, blocks);
            encrypted = to;
        };
        encrypt_to(body, IV_LEN + block_len);
        let mut state = self.mac.inner();
        // The MAC's whole blocks: those that end inside the message.
        let whole = (HEADER_LEN + sealed) / block_len;
        for k in 0..whole {
            encrypt_to(body, IV_LEN + block_len * (k + 2));
            if k == 0 {
                let mut first = H::Block::ZERO;
                first.as_mut()[..HEADER_LEN].copy_from_slice(&prefix);
                first.as_mut()[HEADER_LEN..].copy_from_slice(&body[..block_len - HEADER_LEN]);
                self.mac.absorb(&mut state, core::slice::from_ref(&first));
            } else {
                let at = block_len * k - HEADER_LEN;
                self.mac.absorb(&mut state, H::Block::chunks(&body[at..at + block_len]));
            }
        }
        encrypt_to(body, sealed);
        let mut tag = self.mac.finish(state, whole, &prefix, body, sealed, sealed);
        mac.copy_from_slice(&tag[..H::OUTPUT_LEN]);
        tag.zeroize();
        Ok(total)
    }

    /// Opens one encrypt-then-MAC record in place: `fragment` is `iv ‖ ciphertext ‖ MAC` as
    /// received; the MAC is checked first, in constant time, and only an authentic record is
    /// decrypted. On success the plaintext is returned (inside `fragment`, after the IV). A
    /// bad MAC, bad padding, and a fragment too short or not a whole number of blocks are
    /// all [`RecordError::BadRecordMac`], and then `fragment` is zeroed.
    pub fn open_etm_in_place<'b>(
        &self,
        header: &RecordHeader,
        fragment: &'b mut [u8],
    ) -> Result<&'b mut [u8], RecordError> {
        if fragment.len() > MAX_FRAGMENT_LEN {
            return Err(RecordError::RecordOverflow);
        }
        let sealed = fragment.len().wrapping_sub(H::OUTPUT_LEN);
        if fragment.len() < IV_LEN + 16 + H::OUTPUT_LEN || !sealed.is_multiple_of(16) {
            fragment.zeroize();
            return Err(RecordError::BadRecordMac);
        }
        let (body, theirs) = fragment.split_at_mut(sealed);
        let mut ours = self.mac.mac(&header.mac_prefix(sealed), body, sealed, sealed);
        // The verdict is public (the alert says it), the MAC it came from is not.
        let authentic = core_hash::declassify(bool::from(ours[..H::OUTPUT_LEN].ct_eq(theirs)));
        ours.zeroize();
        let (iv, ciphertext) = body.split_at_mut(IV_LEN);
        let mut chain: [u8; 16] = iv.try_into().unwrap_or_default();
        if !authentic || self.aes.cbc_decrypt(&mut chain, ciphertext).is_err() {
            fragment.zeroize();
            return Err(RecordError::BadRecordMac);
        }
        // Authentic: the padding is the peer's own, but the bytes it ends are plaintext, so it
        // is checked with the same masks as MAC-then-encrypt's (with no MAC before it), and
        // only the verdict and the length left, which the caller is given, are declassified.
        let (good, len) = check_padding(ciphertext, 0);
        if !core_hash::declassify(bool::from(good.ct_eq(&usize::MAX))) {
            fragment.zeroize();
            return Err(RecordError::BadRecordMac);
        }
        let len = core_hash::declassify(len);
        Ok(&mut fragment[IV_LEN..IV_LEN + len])
    }
}

/// Checks the TLS padding that ends `body` (the padding length `p` in the last byte, and `p`
/// more bytes equal to it, leaving room for the MAC) with masks over the last 256 bytes.
/// Returns all ones if it is valid and the message length: `body.len() − mac_len − 1 − p`,
/// or with `p` taken as 0 when the padding is invalid.
fn check_padding(body: &[u8], mac_len: usize) -> (usize, usize) {
    let n = body.len();
    let pad = usize::from(body[n - 1]);
    // pad + 1 + mac_len ≤ n.
    let good = lt_mask(pad + mac_len, n);
    // On bytes, so that the loop runs in vector registers: the last 256 bytes, the i-th from
    // the end in the padding when i ≤ pad, any of those unequal to `pad` leaving bits in
    // `bad`. The barrier keeps the optimiser from reasoning about `pad`'s range.
    let pad8 = value_barrier(u32::from(body[n - 1])) as u8;
    let mut bad = 0u8;
    for (i, &b) in body.iter().rev().take(MAX_PADDING).enumerate() {
        let in_padding = 0u8.wrapping_sub(u8::from(i as u8 <= pad8));
        bad |= in_padding & (b ^ pad8);
    }
    let good = good & eq_mask(usize::from(bad), 0);
    (good, n - mac_len - 1 - (pad & good))
}

/// The `mac_len` bytes at the secret offset `start` of `body` (which leaves room for them),
/// read without a secret index: one pass over the last `mac_len + 256` bytes collects them
/// rotated by `(start − scan) mod mac_len`, and `log₂ mac_len` masked rotations undo that.
fn extract_mac(body: &[u8], start: usize, mac_len: usize) -> [u8; MAX_MAC_LEN] {
    let scan = body.len().saturating_sub(mac_len + MAX_PADDING);
    let mut rotated = [0u8; MAX_MAC_LEN];
    // By chunks of the MAC's length, byte `j` of each going to `rotated[j]`, with positions
    // relative to `scan` in 16-bit lanes (below `mac_len + 256`), so that the inner loop runs
    // in vector registers; `start − scan` is below 256, and hidden from the optimiser.
    let from = value_barrier(start.wrapping_sub(scan) as u32) as u16;
    let to = from + mac_len as u16;
    let mut offset = 0u8;
    for (c, chunk) in body[scan..].chunks(mac_len).enumerate() {
        for (j, (r, &b)) in rotated.iter_mut().zip(chunk).enumerate() {
            let at = (c * mac_len + j) as u16;
            *r |= b & 0u8.wrapping_sub(u8::from(from <= at) & u8::from(at < to));
            offset |= j as u8 & 0u8.wrapping_sub(u8::from(at == from));
        }
    }
    let offset = usize::from(offset);
    let mut shifted = [0u8; MAX_MAC_LEN];
    let mut bit = 0;
    while 1 << bit < mac_len {
        // Through `Choice`, which hides the bit from the optimiser: as a plain mask, LLVM
        // turns this select into a branch.
        let take = Choice::from(((offset >> bit) & 1) as u8);
        shifted[..mac_len].copy_from_slice(&rotated[..mac_len]);
        shifted[..mac_len].rotate_left(1 << bit);
        for (r, s) in rotated.iter_mut().zip(&shifted) {
            r.conditional_assign(s, take);
        }
        bit += 1;
    }
    shifted.zeroize();
    rotated
}
