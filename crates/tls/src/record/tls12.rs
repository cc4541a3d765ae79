//! TLS 1.2 record protection (RFC 5246 §6.2.3), in place in the caller's buffer: AEAD
//! records (§6.2.3.3), and with the `cbc` feature AES-CBC with an HMAC (§6.2.3.2, RFC 7366).
//!
//! The AEAD's additional data is `seq_num(8) ‖ type ‖ version(3,3) ‖ plaintext length(2)`.
//! The nonce depends on the AEAD:
//!
//! - AES-GCM (RFC 5288) and AES-CCM / CCM_8 (RFC 6655, RFC 7251): the 4-byte fixed IV of the
//!   key block ‖ an 8-byte explicit nonce that travels at the start of the record body. We
//!   send the sequence number as the explicit part (so nonces never repeat under a key), and
//!   take whatever the peer sent.
//! - ChaCha20-Poly1305 (RFC 7905): the 12-byte IV XOR the sequence number padded on the
//!   left, with nothing explicit on the wire.
//!
//! A CBC record is `IV ‖ CBC(plaintext ‖ MAC ‖ padding)` (MAC-then-encrypt, opened in
//! constant time by `core_aead::AesCbcHmac`), or `IV ‖ CBC(plaintext ‖ padding) ‖ MAC` once
//! encrypt_then_mac is negotiated. Each record's IV must be unpredictable (§6.2.3.2): ours is
//! the encryption under the write key of the sequence number XOR a secret seed, the 16 bytes
//! of the key block that an AEAD suite would take as its write IV
//! (`core_aead::AesCbcHmac::record_iv`), which no one without the master secret can predict.
//!
//! A record that fails authentication is [`Error::DecryptFailed`] (`bad_record_mac`), its body
//! holds no plaintext afterwards and the sequence number stays where it was; for CBC, bad
//! padding is the same error. A plaintext over 2^14 bytes or a body over 2^14 + 2048 is
//! [`Error::RecordOverflow`].

use core_aead::{Aead, Aes128Ccm, Aes128Ccm8, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305};
use zeroize::Zeroize;

use crate::error::{ApiMisuse, BufferKind, Error, PeerMisbehaved};
use crate::key_schedule::tls12::{KeyBlock, MasterSecret, Sender};
use crate::msgs::{ContentType, InvalidMessage, ProtocolVersion};
use crate::record::{HEADER_LEN, MAX_PLAINTEXT_LEN};
use crate::suites::AeadAlg;
use crate::suites::tls12::Bulk12;

/// Bytes of explicit nonce a GCM or CCM record carries.
pub const EXPLICIT_NONCE_LEN: usize = 8;
/// The largest protected record body TLS 1.2 allows (2^14 + 2048, RFC 5246 §6.2.3).
pub const MAX_CIPHERTEXT_LEN: usize = MAX_PLAINTEXT_LEN + 2048;
/// Bytes of additional data (RFC 5246 §6.2.3.3).
const AAD_LEN: usize = 13;

/// How an AEAD builds its per-record nonce in TLS 1.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonceShape {
    /// 4-byte fixed IV ‖ 8-byte explicit nonce carried in the record (GCM, CCM).
    Explicit,
    /// 12-byte IV XOR the sequence number, nothing on the wire (ChaCha20-Poly1305).
    Xor,
}

impl NonceShape {
    /// The shape `alg` uses in TLS 1.2; `None` for a custom AEAD, whose nonce construction
    /// this layer cannot know.
    pub fn of(alg: AeadAlg) -> Option<Self> {
        match alg {
            AeadAlg::Aes128Gcm | AeadAlg::Aes256Gcm | AeadAlg::Aes128Ccm | AeadAlg::Aes128Ccm8 => {
                Some(Self::Explicit)
            }
            AeadAlg::ChaCha20Poly1305 => Some(Self::Xor),
            AeadAlg::Custom(_) => None,
        }
    }

    /// Bytes of the write IV the key block gives (RFC 5288 §3, RFC 7905 §2).
    pub const fn iv_len(self) -> usize {
        match self {
            Self::Explicit => 4,
            Self::Xor => 12,
        }
    }

    /// Bytes of explicit nonce in each record.
    pub const fn explicit_len(self) -> usize {
        match self {
            Self::Explicit => EXPLICIT_NONCE_LEN,
            Self::Xor => 0,
        }
    }
}

/// A keyed AEAD of one of the 1.2 suites, or the keys of a CBC suite.
enum Cipher {
    Aes128Gcm(Aes128Gcm),
    Aes256Gcm(Aes256Gcm),
    ChaCha20Poly1305(ChaCha20Poly1305),
    Aes128Ccm(Aes128Ccm),
    Aes128Ccm8(Aes128Ccm8),
    #[cfg(feature = "cbc")]
    Cbc(cbc::CbcKeys),
}

macro_rules! with_aead {
    ($c:expr, $a:ident => $body:expr, $cbc:pat => $other:expr) => {
        match $c {
            Cipher::Aes128Gcm($a) => $body,
            Cipher::Aes256Gcm($a) => $body,
            Cipher::ChaCha20Poly1305($a) => $body,
            Cipher::Aes128Ccm($a) => $body,
            Cipher::Aes128Ccm8($a) => $body,
            #[cfg(feature = "cbc")]
            $cbc => $other,
        }
    };
}

/// One direction's TLS 1.2 record protection: the keyed AEAD and write IV (or the CBC suite's
/// keys) and the sequence number.
pub struct RecordProtection12 {
    cipher: Cipher,
    bulk: Bulk12,
    /// The AEAD's nonce shape (`Explicit` for CBC, where it is not used).
    shape: NonceShape,
    /// The fixed IV in the first 4 bytes (explicit shape) or the whole 12-byte IV (XOR).
    iv: [u8; 12],
    seq: u64,
}

impl core::fmt::Debug for RecordProtection12 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RecordProtection12({:?}, seq {})", self.bulk, self.seq)
    }
}

impl Drop for RecordProtection12 {
    fn drop(&mut self) {
        self.iv.zeroize();
    }
}

/// `seq_num ‖ type ‖ version ‖ length`.
fn aad(seq: u64, typ: ContentType, len: usize) -> [u8; AAD_LEN] {
    let mut a = [0u8; AAD_LEN];
    a[..8].copy_from_slice(&seq.to_be_bytes());
    a[8] = typ.0;
    a[9..11].copy_from_slice(&ProtocolVersion::TLSV1_2.0.to_be_bytes());
    a[11..].copy_from_slice(&(len as u16).to_be_bytes());
    a
}

/// Both directions' write keys and IVs (and MAC keys) for a suite (RFC 5246 §6.3), kept from
/// the master secret until the ChangeCipherSpec that puts each in force: about 200 bytes,
/// where a keyed [`RecordProtection12`] (AES-GCM with its GHASH tables) is about 2 KiB. The
/// key block is wiped on drop.
pub(crate) struct PendingKeys {
    bulk: Bulk12,
    block: KeyBlock,
    /// Whether encrypt_then_mac was negotiated (RFC 7366; CBC suites only).
    etm: bool,
}

impl PendingKeys {
    /// The key block of `master` for `suite`: what both roles derive once the master secret
    /// is known; `etm` says whether a CBC suite's records are encrypt-then-MAC.
    pub(crate) fn derive(
        suite: &crate::suites::tls12::Suite12,
        master: &MasterSecret,
        (client_random, server_random): (&[u8; 32], &[u8; 32]),
        etm: bool,
    ) -> Result<Self, Error> {
        let block = master.key_block_with_mac(
            suite.mac_key_len(),
            suite.key_len(),
            suite.iv_len(),
            client_random,
            server_random,
        )?;
        Ok(Self { bulk: suite.bulk, block, etm })
    }

    /// Keys `sender`'s write direction: the client's or the server's write key and IV.
    pub(crate) fn protection(&self, sender: Sender) -> Result<RecordProtection12, Error> {
        RecordProtection12::keyed(self.bulk, &self.block, sender, self.etm)
    }
}

impl RecordProtection12 {
    /// Keys a direction from the write key and write IV of the key block: the key must be
    /// `alg.key_len()` bytes, the IV [`NonceShape::iv_len`] bytes (4, or 12 for
    /// ChaCha20-Poly1305). A custom AEAD is not supported yet; it and wrong lengths are
    /// [`ApiMisuse::BadConfig`].
    pub fn new(alg: AeadAlg, key: &[u8], iv: &[u8]) -> Result<Self, Error> {
        fn keyed<A: Aead>(key: &[u8]) -> Result<A, Error> {
            A::new(key).map_err(|_| Error::ApiMisuse(ApiMisuse::BadConfig))
        }
        let shape = NonceShape::of(alg).ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
        if iv.len() != shape.iv_len() || key.len() != alg.key_len() {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        let cipher = match alg {
            AeadAlg::Aes128Gcm => Cipher::Aes128Gcm(keyed(key)?),
            AeadAlg::Aes256Gcm => Cipher::Aes256Gcm(keyed(key)?),
            AeadAlg::ChaCha20Poly1305 => Cipher::ChaCha20Poly1305(keyed(key)?),
            AeadAlg::Aes128Ccm => Cipher::Aes128Ccm(keyed(key)?),
            AeadAlg::Aes128Ccm8 => Cipher::Aes128Ccm8(keyed(key)?),
            AeadAlg::Custom(_) => return Err(Error::ApiMisuse(ApiMisuse::BadConfig)),
        };
        let mut fixed = [0u8; 12];
        fixed[..iv.len()].copy_from_slice(iv);
        Ok(Self { cipher, bulk: Bulk12::Aead(alg), shape, iv: fixed, seq: 0 })
    }

    /// Keys `sender`'s direction of `bulk` from a key block; `etm` (CBC suites only) for
    /// encrypt-then-MAC records (RFC 7366).
    pub fn keyed(bulk: Bulk12, kb: &KeyBlock, sender: Sender, etm: bool) -> Result<Self, Error> {
        let (mac, key, iv) = match sender {
            Sender::Client => (kb.client_mac_key(), kb.client_key(), kb.client_iv()),
            Sender::Server => (kb.server_mac_key(), kb.server_key(), kb.server_iv()),
        };
        #[cfg(not(feature = "cbc"))]
        let _ = (mac, etm);
        match bulk {
            Bulk12::Aead(alg) => Self::new(alg, key, iv),
            #[cfg(feature = "cbc")]
            Bulk12::Cbc(alg) => Ok(Self {
                cipher: Cipher::Cbc(cbc::CbcKeys::new(alg, mac, key, iv, etm)?),
                bulk,
                shape: NonceShape::Explicit,
                iv: [0; 12],
                seq: 0,
            }),
        }
    }

    /// The record protection in use.
    pub fn bulk(&self) -> Bulk12 {
        self.bulk
    }

    /// The sequence number of the next record.
    pub fn sequence(&self) -> u64 {
        self.seq
    }

    /// Where the plaintext starts in a record: after the header and any explicit nonce (or
    /// a CBC record's IV).
    pub fn payload_offset(&self) -> usize {
        with_aead!(&self.cipher, _a => HEADER_LEN + self.shape.explicit_len(),
            Cipher::Cbc(_) => HEADER_LEN + cbc::IV_LEN)
    }

    /// Bytes a protected record adds to its plaintext, header excluded: for CBC, the most
    /// (IV, MAC and the longest padding a peer may send).
    pub fn overhead(&self) -> usize {
        with_aead!(&self.cipher, _a => self.shape.explicit_len() + self.aead_tag_len(),
            Cipher::Cbc(k) => k.max_overhead())
    }

    /// The AEAD's tag length (0 for CBC).
    fn aead_tag_len(&self) -> usize {
        match self.bulk {
            Bulk12::Aead(a) => a.tag_len(),
            #[cfg(feature = "cbc")]
            Bulk12::Cbc(_) => 0,
        }
    }

    /// The length of the whole record (header included) that sealing `len` bytes writes.
    pub fn sealed_len(&self, len: usize) -> usize {
        with_aead!(&self.cipher, _a => HEADER_LEN + self.overhead() + len,
            Cipher::Cbc(k) => HEADER_LEN + k.sealed_len(len))
    }

    /// The current sequence number, refused once it is the last one so it never wraps.
    fn current_seq(&self) -> Result<u64, Error> {
        if self.seq == u64::MAX {
            return Err(Error::SequenceExhausted);
        }
        Ok(self.seq)
    }

    /// The nonce for a record: from the explicit part on the wire or from `seq`.
    fn nonce(&self, seq: u64, explicit: &[u8]) -> [u8; 12] {
        let mut nonce = self.iv;
        match self.shape {
            NonceShape::Explicit => nonce[4..].copy_from_slice(explicit),
            NonceShape::Xor => {
                for (n, s) in nonce[4..].iter_mut().zip(seq.to_be_bytes()) {
                    *n ^= s;
                }
            }
        }
        nonce
    }

    /// Protects `content` of type `typ` into `out` as one whole record; returns the bytes
    /// written.
    pub fn seal(
        &mut self,
        typ: ContentType,
        content: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let at = self.payload_offset();
        let needed = self.sealed_len(content.len());
        out.get_mut(at..at + content.len())
            .ok_or(Error::too_small(BufferKind::Output, needed))?
            .copy_from_slice(content);
        self.seal_in_place(typ, out, content.len())
    }

    /// As [`RecordProtection12::seal`], with the content already at
    /// `buf[payload_offset()..][..len]`: the header, explicit nonce and tag (or IV, MAC and
    /// padding) are written around it. Content over 2^14 bytes is [`Error::RecordOverflow`].
    pub fn seal_in_place(
        &mut self,
        typ: ContentType,
        buf: &mut [u8],
        len: usize,
    ) -> Result<usize, Error> {
        if len > MAX_PLAINTEXT_LEN {
            return Err(Error::RecordOverflow);
        }
        let total = self.sealed_len(len);
        let out = buf.get_mut(..total).ok_or(Error::too_small(BufferKind::Output, total))?;
        let seq = self.current_seq()?;
        let (header, rest) = out.split_at_mut(HEADER_LEN);
        header[0] = typ.0;
        header[1..3].copy_from_slice(&ProtocolVersion::TLSV1_2.0.to_be_bytes());
        header[3..5].copy_from_slice(&((total - HEADER_LEN) as u16).to_be_bytes());
        #[cfg(feature = "cbc")]
        if let Cipher::Cbc(k) = &self.cipher {
            k.seal(seq, typ, rest, len)?;
            self.seq += 1;
            return Ok(total);
        }
        let (explicit, rest) = rest.split_at_mut(self.shape.explicit_len());
        explicit.copy_from_slice(&seq.to_be_bytes()[..explicit.len()]);
        let nonce = self.nonce(seq, explicit);
        let (body, tag_out) = rest.split_at_mut(len);
        let aad = aad(seq, typ, len);
        with_aead!(&self.cipher, a => a
            .seal_in_place_detached(&nonce, &aad, body)
            .map(|t| tag_out.copy_from_slice(t.as_ref()))
            .map_err(|_| Error::RecordOverflow)?,
            Cipher::Cbc(_) => return Err(Error::ApiMisuse(ApiMisuse::BadConfig)));
        self.seq += 1;
        Ok(total)
    }

    /// Opens the whole protected record in `record` (header included) in place and returns
    /// its content type and plaintext. The header must say version 3.3 and match the
    /// record's length; a body too short for the nonce and tag is `bad_record_mac`, as is a
    /// failed authentication (the body is zeroed and the sequence number kept). An empty
    /// record of a type other than application data is [`PeerMisbehaved::EmptyRecord`]
    /// (RFC 5246 §6.2.1).
    pub fn open<'b>(&mut self, record: &'b mut [u8]) -> Result<(ContentType, &'b mut [u8]), Error> {
        let h = record.get(..HEADER_LEN).ok_or(InvalidMessage::Truncated)?;
        let typ = ContentType(h[0]);
        if typ.name().is_none() {
            return Err(PeerMisbehaved::UnexpectedMessage.into());
        }
        if u16::from_be_bytes([h[1], h[2]]) != ProtocolVersion::TLSV1_2.0 {
            return Err(InvalidMessage::IllegalValue.into());
        }
        let len = usize::from(u16::from_be_bytes([h[3], h[4]]));
        if len > MAX_CIPHERTEXT_LEN {
            return Err(Error::RecordOverflow);
        }
        if record.len() != HEADER_LEN + len {
            return Err(InvalidMessage::BadLength.into());
        }
        let seq = self.current_seq()?;
        let (_, rest) = record.split_at_mut(HEADER_LEN);
        #[cfg(feature = "cbc")]
        if let Cipher::Cbc(k) = &self.cipher {
            let body = k.open(seq, typ, rest)?;
            if body.len() > MAX_PLAINTEXT_LEN {
                body.zeroize();
                return Err(Error::RecordOverflow);
            }
            return self.opened(typ, body);
        }
        let Some(plain_len) = len.checked_sub(self.overhead()) else {
            return Err(Error::DecryptFailed);
        };
        if plain_len > MAX_PLAINTEXT_LEN {
            return Err(Error::RecordOverflow);
        }
        let (explicit, rest) = rest.split_at_mut(self.shape.explicit_len());
        let nonce = self.nonce(seq, explicit);
        let (body, tag) = rest.split_at_mut(plain_len);
        let aad = aad(seq, typ, plain_len);
        let opened = with_aead!(&self.cipher,
            a => a.open_in_place_detached(&nonce, &aad, body, tag).is_ok(),
            Cipher::Cbc(_) => false);
        if !opened {
            body.zeroize();
            return Err(Error::DecryptFailed);
        }
        self.opened(typ, body)
    }

    /// A record that authenticated: the sequence number moves on, and an empty record of a
    /// type other than application data is refused.
    fn opened<'b>(
        &mut self,
        typ: ContentType,
        body: &'b mut [u8],
    ) -> Result<(ContentType, &'b mut [u8]), Error> {
        self.seq += 1;
        if body.is_empty() && typ != ContentType::APPLICATION_DATA {
            return Err(PeerMisbehaved::EmptyRecord.into());
        }
        Ok((typ, body))
    }
}

/// CBC records (`cbc` feature): the keyed `AesCbcHmac` of the suite's hash, the IV generator
/// and whether encrypt_then_mac is in force.
#[cfg(feature = "cbc")]
mod cbc {
    use core_aead::RecordHeader;
    use core_aead::{
        AesCbcHmac, AesCbcHmacSha1, AesCbcHmacSha256, AesCbcHmacSha384, RecordError, RecordHash,
    };
    use zeroize::Zeroize;

    use crate::error::{ApiMisuse, Error};
    use crate::msgs::{ContentType, ProtocolVersion};
    use crate::suites::tls12::CbcAlg;

    /// A CBC record's explicit IV.
    pub(super) const IV_LEN: usize = 16;
    /// The longest padding a record may carry, its length byte included.
    const MAX_PADDING: usize = 256;

    /// The record cipher, by MAC hash.
    enum Mac {
        Sha1(AesCbcHmacSha1),
        Sha256(AesCbcHmacSha256),
        Sha384(AesCbcHmacSha384),
    }

    macro_rules! with_mac {
        ($m:expr, $k:ident => $body:expr) => {
            match $m {
                Mac::Sha1($k) => $body,
                Mac::Sha256($k) => $body,
                Mac::Sha384($k) => $body,
            }
        };
    }

    /// One direction's CBC keys.
    pub(super) struct CbcKeys {
        mac: Mac,
        /// The secret seed of the records' IVs (`AesCbcHmac::record_iv`).
        iv_seed: [u8; IV_LEN],
        etm: bool,
    }

    impl Drop for CbcKeys {
        fn drop(&mut self) {
            self.iv_seed.zeroize();
        }
    }

    fn refused(_: core_aead::Error) -> Error {
        Error::ApiMisuse(ApiMisuse::BadConfig)
    }

    /// `BadRecordMac` is `bad_record_mac`; the other errors cannot happen for a record the
    /// length checks let through, and are `record_overflow` should they.
    fn record_error(e: RecordError) -> Error {
        match e {
            RecordError::BadRecordMac => Error::DecryptFailed,
            _ => Error::RecordOverflow,
        }
    }

    impl CbcKeys {
        pub(super) fn new(
            alg: CbcAlg,
            mac_key: &[u8],
            key: &[u8],
            iv_seed: &[u8],
            etm: bool,
        ) -> Result<Self, Error> {
            let Ok(&iv_seed) = <&[u8; IV_LEN]>::try_from(iv_seed) else {
                return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
            };
            if key.len() != alg.key_len() || mac_key.len() != alg.mac_len() {
                return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
            }
            let mac = match alg {
                CbcAlg::Aes128Sha1 | CbcAlg::Aes256Sha1 => {
                    Mac::Sha1(AesCbcHmac::new(key, mac_key).map_err(refused)?)
                }
                CbcAlg::Aes128Sha256 => {
                    Mac::Sha256(AesCbcHmac::new(key, mac_key).map_err(refused)?)
                }
                CbcAlg::Aes256Sha384 => {
                    Mac::Sha384(AesCbcHmac::new(key, mac_key).map_err(refused)?)
                }
            };
            Ok(Self { mac, iv_seed, etm })
        }

        fn mac_len(&self) -> usize {
            fn len<H: RecordHash>(_: &AesCbcHmac<H>) -> usize {
                AesCbcHmac::<H>::MAC_LEN
            }
            with_mac!(&self.mac, k => len(k))
        }

        /// The body (IV included) sealing `len` bytes writes.
        pub(super) fn sealed_len(&self, len: usize) -> usize {
            fn sealed<H: RecordHash>(_: &AesCbcHmac<H>, etm: bool, len: usize) -> usize {
                if etm {
                    AesCbcHmac::<H>::etm_sealed_len(len)
                } else {
                    AesCbcHmac::<H>::sealed_len(len)
                }
            }
            with_mac!(&self.mac, k => sealed(k, self.etm, len))
        }

        /// The most a peer's record may add to its plaintext: the IV, the MAC and the
        /// longest padding.
        pub(super) fn max_overhead(&self) -> usize {
            IV_LEN + self.mac_len() + MAX_PADDING
        }

        fn header(seq: u64, typ: ContentType) -> RecordHeader {
            RecordHeader { sequence: seq, content_type: typ.0, version: ProtocolVersion::TLSV1_2.0 }
        }

        /// Seals `len` bytes at `body[16..]` into `body` (IV first).
        pub(super) fn seal(
            &self,
            seq: u64,
            typ: ContentType,
            body: &mut [u8],
            len: usize,
        ) -> Result<(), Error> {
            let h = Self::header(seq, typ);
            with_mac!(&self.mac, k => if self.etm {
                k.seal_etm_in_place(&h, &k.record_iv(&self.iv_seed, seq), body, len)
            } else {
                k.seal_in_place(&h, &k.record_iv(&self.iv_seed, seq), body, len)
            })
            .map_err(record_error)?;
            Ok(())
        }

        /// Opens a record's body (IV first) in place: its plaintext.
        pub(super) fn open<'b>(
            &self,
            seq: u64,
            typ: ContentType,
            body: &'b mut [u8],
        ) -> Result<&'b mut [u8], Error> {
            let h = Self::header(seq, typ);
            with_mac!(&self.mac, k => if self.etm {
                k.open_etm_in_place(&h, body)
            } else {
                k.open_in_place(&h, body)
            })
            .map_err(record_error)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hex_literal::hex;

    const ALL: [AeadAlg; 5] = [
        AeadAlg::Aes128Gcm,
        AeadAlg::Aes256Gcm,
        AeadAlg::ChaCha20Poly1305,
        AeadAlg::Aes128Ccm,
        AeadAlg::Aes128Ccm8,
    ];

    fn keyed(alg: AeadAlg) -> RecordProtection12 {
        let shape = NonceShape::of(alg).unwrap();
        let key: std::vec::Vec<u8> = (0..alg.key_len() as u8).collect();
        let iv: std::vec::Vec<u8> = (0x40..0x40 + shape.iv_len() as u8).collect();
        RecordProtection12::new(alg, &key, &iv).unwrap()
    }

    #[test]
    fn every_aead_round_trips_with_its_overhead() {
        for alg in ALL {
            let (mut tx, mut rx) = (keyed(alg), keyed(alg));
            let mut buf = [0u8; 128];
            for (i, msg) in [&b"hello"[..], b"", b"a longer message than that"].iter().enumerate() {
                let n = tx.seal(ContentType::APPLICATION_DATA, msg, &mut buf).unwrap();
                let explicit = if alg == AeadAlg::ChaCha20Poly1305 { 0 } else { 8 };
                assert_eq!(n, 5 + explicit + msg.len() + alg.tag_len(), "{alg:?}");
                assert_eq!(buf[..5], [23, 3, 3, 0, (n - 5) as u8]);
                if explicit == 8 {
                    assert_eq!(buf[5..13], (i as u64).to_be_bytes(), "explicit nonce = seq");
                }
                let (typ, content) = rx.open(&mut buf[..n]).unwrap();
                assert_eq!((typ, &*content), (ContentType::APPLICATION_DATA, *msg), "{alg:?}");
            }
            assert_eq!((tx.sequence(), rx.sequence()), (3, 3));
        }
    }

    #[test]
    fn every_byte_flip_and_a_wrong_sequence_number_fail() {
        for alg in ALL {
            let mut rec = [0u8; 64];
            let n = keyed(alg).seal(ContentType::HANDSHAKE, b"secret!", &mut rec).unwrap();
            for i in 0..n {
                let mut t = rec;
                t[i] ^= 0x01;
                let mut rx = keyed(alg);
                assert!(rx.open(&mut t[..n]).is_err(), "{alg:?} accepted a flip of byte {i}");
                assert!(!t[..n].windows(7).any(|w| w == b"secret!"), "plaintext released");
                assert_eq!(rx.sequence(), 0);
            }
            // The sequence number is in the additional data even where the nonce is explicit.
            let mut rx = keyed(alg);
            rx.seq = 1;
            let mut t = rec;
            assert_eq!(rx.open(&mut t[..n]).map(|_| ()), Err(Error::DecryptFailed), "{alg:?}");
            assert_eq!(rx.sequence(), 1);
            // The same record replayed fails the second time.
            let mut rx = keyed(alg);
            let mut t = rec;
            assert!(rx.open(&mut t[..n]).is_ok());
            let mut t = rec;
            assert_eq!(rx.open(&mut t[..n]).map(|_| ()), Err(Error::DecryptFailed));
        }
    }

    #[test]
    fn short_long_and_malformed_records_are_typed_errors() {
        for alg in ALL {
            let mut rx = keyed(alg);
            let overhead = rx.overhead();
            // Too short for the explicit nonce and the tag.
            for len in 0..overhead {
                let mut r = std::vec![23, 3, 3, 0, len as u8];
                r.resize(5 + len, 0);
                assert_eq!(rx.open(&mut r).map(|_| ()), Err(Error::DecryptFailed), "{alg:?}");
            }
            // A plaintext over 2^14.
            let len = MAX_PLAINTEXT_LEN + 1 + overhead;
            let mut r = std::vec![0u8; 5 + len];
            r[..5].copy_from_slice(&[23, 3, 3, (len >> 8) as u8, len as u8]);
            assert_eq!(rx.open(&mut r).map(|_| ()), Err(Error::RecordOverflow));
            // A body over 2^14 + 2048.
            let len = MAX_CIPHERTEXT_LEN + 1;
            let mut r = std::vec![0u8; 5 + len];
            r[..5].copy_from_slice(&[23, 3, 3, (len >> 8) as u8, len as u8]);
            assert_eq!(rx.open(&mut r).map(|_| ()), Err(Error::RecordOverflow));
        }
        let mut rx = keyed(AeadAlg::Aes128Gcm);
        let bad = |r: &mut [u8], rx: &mut RecordProtection12| rx.open(r).map(|_| ());
        assert_eq!(bad(&mut [23, 3, 3], &mut rx), Err(InvalidMessage::Truncated.into()));
        assert_eq!(bad(&mut [23, 3, 1, 0, 0], &mut rx), Err(InvalidMessage::IllegalValue.into()));
        assert_eq!(
            bad(&mut [99, 3, 3, 0, 0], &mut rx),
            Err(PeerMisbehaved::UnexpectedMessage.into())
        );
        assert_eq!(bad(&mut [23, 3, 3, 0, 30, 0], &mut rx), Err(InvalidMessage::BadLength.into()));
        // Sealing: content over 2^14, a buffer too small, an exhausted sequence.
        let mut tx = keyed(AeadAlg::Aes128Gcm);
        let big = std::vec![0u8; MAX_PLAINTEXT_LEN + 1];
        let mut out = std::vec![0u8; MAX_PLAINTEXT_LEN + 64];
        assert_eq!(
            tx.seal(ContentType::APPLICATION_DATA, &big, &mut out),
            Err(Error::RecordOverflow)
        );
        let n = tx.seal(ContentType::APPLICATION_DATA, &big[1..], &mut out).unwrap();
        assert_eq!(rx.open(&mut out[..n]).unwrap().1.len(), MAX_PLAINTEXT_LEN);
        assert_eq!(
            tx.seal(ContentType::APPLICATION_DATA, b"x", &mut out[..20]),
            Err(Error::too_small(BufferKind::Output, 30))
        );
        tx.seq = u64::MAX;
        assert_eq!(
            tx.seal(ContentType::APPLICATION_DATA, b"", &mut out),
            Err(Error::SequenceExhausted)
        );
    }

    #[test]
    fn empty_records_only_for_application_data() {
        let (mut tx, mut rx) = (keyed(AeadAlg::ChaCha20Poly1305), keyed(AeadAlg::ChaCha20Poly1305));
        let mut buf = [0u8; 64];
        let n = tx.seal(ContentType::HANDSHAKE, b"", &mut buf).unwrap();
        assert_eq!(rx.open(&mut buf[..n]).map(|_| ()), Err(PeerMisbehaved::EmptyRecord.into()));
        assert_eq!(rx.sequence(), 1, "it authenticated, so the sequence moves on");
    }

    #[test]
    fn bad_keys_and_ivs_are_refused() {
        let e = Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        let r = |alg, k: &[u8], iv: &[u8]| RecordProtection12::new(alg, k, iv).map(|_| ());
        assert_eq!(r(AeadAlg::Aes128Gcm, &[0; 16], &[0; 12]), e);
        assert_eq!(r(AeadAlg::Aes128Gcm, &[0; 32], &[0; 4]), e);
        assert_eq!(r(AeadAlg::ChaCha20Poly1305, &[0; 32], &[0; 4]), e);
        assert_eq!(r(AeadAlg::Aes128Ccm8, &[0; 16], &[0; 4]), Ok(()));
    }

    /// RFC 5288 and RFC 6655 give no TLS record vectors, so the layout is checked against the
    /// AEAD called directly with the nonce and additional data written out from RFC 5246
    /// §6.2.3.3 and RFC 5288 §3: key 00..0f, fixed IV 40 41 42 43, seq 0, "hello".
    #[test]
    fn aes128gcm_layout_is_fixed_iv_then_seq() {
        let mut tx = keyed(AeadAlg::Aes128Gcm);
        let mut buf = [0u8; 64];
        let n = tx.seal(ContentType::APPLICATION_DATA, b"hello", &mut buf).unwrap();
        // Recompute with core-aead directly from the RFC's definitions.
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        let gcm = Aes128Gcm::new(&key).unwrap();
        let nonce = hex!("40414243 0000000000000000");
        let aad = hex!("0000000000000000 17 0303 0005");
        let mut body = *b"hello";
        let tag = gcm.seal_in_place_detached(&nonce, &aad, &mut body).unwrap();
        assert_eq!(&buf[13..18], &body);
        assert_eq!(&buf[18..n], tag.as_ref());
    }

    /// rustls's TLS 1.2 record layer (its ring provider) produces the same records and opens
    /// ours, for the AEADs whose 32-byte keys its public `AeadKey` can hold.
    #[test]
    fn records_match_rustls() {
        use rustls::SupportedCipherSuite;
        use rustls::crypto::cipher::{
            AeadKey, InboundOpaqueMessage, OutboundChunks, OutboundPlainMessage,
        };
        use rustls::crypto::ring::cipher_suite as cs;
        for (suite, alg) in [
            (cs::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, AeadAlg::Aes256Gcm),
            (cs::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, AeadAlg::ChaCha20Poly1305),
        ] {
            let SupportedCipherSuite::Tls12(s) = suite else { panic!("not 1.2") };
            let key: [u8; 32] = core::array::from_fn(|i| i as u8);
            let shape = NonceShape::of(alg).unwrap();
            let iv: std::vec::Vec<u8> = (0x40..0x40 + shape.iv_len() as u8).collect();
            // rustls takes the 8 explicit bytes as "extra" and XORs the sequence into them:
            // zeros make its explicit nonce the sequence number, as ours is.
            let mut enc = s.aead_alg.encrypter(AeadKey::from(key), &iv, &[0; 8]);
            let mut dec = s.aead_alg.decrypter(AeadKey::from(key), &iv);
            let (mut tx, mut rx) = (keyed(alg), keyed(alg));
            for (seq, msg) in [&b"first"[..], b"", &[0x5a; 300]].iter().enumerate() {
                let chunks = [*msg];
                let plain = OutboundPlainMessage {
                    typ: rustls::ContentType::ApplicationData,
                    version: rustls::ProtocolVersion::TLSv1_2,
                    payload: OutboundChunks::new(&chunks),
                };
                let theirs = enc.encrypt(plain, seq as u64).unwrap().encode();
                let mut ours = [0u8; 512];
                let n = tx.seal(ContentType::APPLICATION_DATA, msg, &mut ours).unwrap();
                assert_eq!(&ours[..n], &theirs[..], "{alg:?} record {seq}");
                let mut body = ours[5..n].to_vec();
                let opened = dec
                    .decrypt(
                        InboundOpaqueMessage::new(
                            rustls::ContentType::ApplicationData,
                            rustls::ProtocolVersion::TLSv1_2,
                            &mut body,
                        ),
                        seq as u64,
                    )
                    .unwrap();
                assert_eq!(opened.payload, *msg);
                let mut theirs = theirs;
                assert_eq!(rx.open(&mut theirs).unwrap().1, *msg);
            }
        }
    }

    /// CBC records, MAC-then-encrypt and encrypt-then-MAC: round trips with fresh IVs, and a
    /// flip of any byte, a cut, or a replay is `bad_record_mac` with the sequence number kept.
    #[cfg(feature = "cbc")]
    #[test]
    fn cbc_records_in_both_modes() {
        use crate::schedule::tls12::MasterSecret;
        use crate::suites::tls12::CBC_SUITES12;
        for s in CBC_SUITES12 {
            let ms = MasterSecret::from_bytes(s.hash, &[3; 48]).unwrap();
            let (mac, key, iv) = (s.mac_key_len(), s.key_len(), s.iv_len());
            let kb = ms.key_block_with_mac(mac, key, iv, &[1; 32], &[2; 32]).unwrap();
            for etm in [false, true] {
                let keyed = || RecordProtection12::keyed(s.bulk, &kb, Sender::Client, etm).unwrap();
                let (mut tx, mut rx) = (keyed(), keyed());
                let mut recs = std::vec::Vec::new();
                for msg in [&b"hello"[..], b"", &[0x5a; 300]] {
                    let mut buf = [0u8; 512];
                    let n = tx.seal(ContentType::APPLICATION_DATA, msg, &mut buf).unwrap();
                    assert_eq!(n, tx.sealed_len(msg.len()));
                    assert!(n - 5 <= msg.len() + rx.overhead());
                    recs.push(buf[..n].to_vec());
                    let (_, content) = rx.open(&mut buf[..n]).unwrap();
                    assert_eq!(&*content, msg, "{s:?} etm {etm}");
                }
                assert_ne!(recs[0][5..21], recs[1][5..21], "a fresh IV per record");
                let mut tx = keyed();
                let mut rec = [0u8; 128];
                let n = tx.seal(ContentType::HANDSHAKE, b"secret!", &mut rec).unwrap();
                for i in 5..n {
                    let mut t = rec;
                    t[i] ^= 0x01;
                    let mut rx = keyed();
                    assert_eq!(rx.open(&mut t[..n]).map(|_| ()), Err(Error::DecryptFailed));
                    assert!(!t[..n].windows(7).any(|w| w == b"secret!"), "plaintext released");
                    assert_eq!(rx.sequence(), 0);
                }
                let mut cut = rec[..n - 16].to_vec();
                cut[3..5].copy_from_slice(&((n - 21) as u16).to_be_bytes());
                assert_eq!(keyed().open(&mut cut).map(|_| ()), Err(Error::DecryptFailed));
                let mut rx = keyed();
                let mut t = rec;
                assert!(rx.open(&mut t[..n]).is_ok());
                let mut t = rec;
                assert_eq!(rx.open(&mut t[..n]).map(|_| ()), Err(Error::DecryptFailed), "replay");
            }
        }
    }
}
