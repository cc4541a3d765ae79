//! TLS 1.3 record protection: the TLSInnerPlaintext and the per-record nonce under the
//! suite's AEAD.

use core_aead::Aead;
#[cfg(feature = "chacha20")]
use core_aead::ChaCha20Poly1305;
#[cfg(feature = "aes-ccm")]
use core_aead::{Aes128Ccm, Aes128Ccm8};
#[cfg(feature = "aes-gcm")]
use core_aead::{Aes128Gcm, Aes256Gcm};
use zeroize::Zeroize;

use super::{HEADER_LEN, MAX_PLAINTEXT_LEN, RecordHeader};
use crate::error::{BufferKind, Error, PeerMisbehaved};
use crate::msgs::ContentType;
use crate::provider::{MAX_AEAD_KEY_LEN, MAX_AEAD_TAG_LEN, RecordAead};
use crate::schedule::Secret;
use crate::schedule::tls13::TrafficKey;
use crate::suites::AeadAlg;

/// A keyed AEAD of one of the suites.
enum Cipher {
    #[cfg(feature = "aes-gcm")]
    Aes128Gcm(Aes128Gcm),
    #[cfg(feature = "aes-gcm")]
    Aes256Gcm(Aes256Gcm),
    #[cfg(feature = "chacha20")]
    ChaCha20Poly1305(ChaCha20Poly1305),
    #[cfg(feature = "aes-ccm")]
    Aes128Ccm(Aes128Ccm),
    #[cfg(feature = "aes-ccm")]
    Aes128Ccm8(Aes128Ccm8),
    /// A user's AEAD and the key it is handed on every call.
    Custom(&'static dyn RecordAead, CustomKey),
}

/// A custom AEAD's key, wiped on drop.
struct CustomKey {
    bytes: [u8; MAX_AEAD_KEY_LEN],
    len: usize,
}

impl CustomKey {
    fn get(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl Drop for CustomKey {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

macro_rules! with_builtin {
    ($c:expr, $a:ident => $body:expr, $custom:pat => $other:expr) => {
        match $c {
            #[cfg(feature = "aes-gcm")]
            Cipher::Aes128Gcm($a) => $body,
            #[cfg(feature = "aes-gcm")]
            Cipher::Aes256Gcm($a) => $body,
            #[cfg(feature = "chacha20")]
            Cipher::ChaCha20Poly1305($a) => $body,
            #[cfg(feature = "aes-ccm")]
            Cipher::Aes128Ccm($a) => $body,
            #[cfg(feature = "aes-ccm")]
            Cipher::Aes128Ccm8($a) => $body,
            $custom => $other,
        }
    };
}

/// One direction's record protection: the keyed AEAD, the IV and the sequence number.
pub struct RecordProtection {
    cipher: Cipher,
    alg: AeadAlg,
    iv: [u8; 12],
    seq: u64,
}

impl core::fmt::Debug for RecordProtection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RecordProtection({:?}, seq {})", self.alg, self.seq)
    }
}

impl RecordProtection {
    /// Keys a direction from its traffic secret.
    pub fn new(alg: AeadAlg, secret: &Secret) -> Result<Self, Error> {
        let tk = TrafficKey::derive(secret, alg.key_len());
        Self::from_key(alg, tk.key(), &tk.iv)
    }

    /// Keys a direction from a key and IV directly; the key must be `alg.key_len()` bytes,
    /// and a custom AEAD's lengths within [`MAX_AEAD_KEY_LEN`] and [`MAX_AEAD_TAG_LEN`].
    pub fn from_key(alg: AeadAlg, key: &[u8], iv: &[u8; 12]) -> Result<Self, Error> {
        #[cfg_attr(
            not(any(feature = "aes-gcm", feature = "chacha20", feature = "aes-ccm")),
            allow(dead_code)
        )]
        fn keyed<A: Aead>(key: &[u8]) -> Result<A, Error> {
            A::new(key).map_err(|_| Error::ApiMisuse(crate::error::ApiMisuse::BadConfig))
        }
        let cipher = match alg {
            AeadAlg::Custom(aead) => {
                let tag_len = aead.tag_len();
                if key.len() != aead.key_len()
                    || key.len() > MAX_AEAD_KEY_LEN
                    || key.is_empty()
                    || !(1..=MAX_AEAD_TAG_LEN).contains(&tag_len)
                {
                    return Err(Error::ApiMisuse(crate::error::ApiMisuse::BadConfig));
                }
                let mut k = CustomKey { bytes: [0; MAX_AEAD_KEY_LEN], len: key.len() };
                k.bytes[..key.len()].copy_from_slice(key);
                Cipher::Custom(aead, k)
            }
            #[cfg(feature = "aes-gcm")]
            AeadAlg::Aes128Gcm => Cipher::Aes128Gcm(keyed(key)?),
            #[cfg(feature = "aes-gcm")]
            AeadAlg::Aes256Gcm => Cipher::Aes256Gcm(keyed(key)?),
            #[cfg(feature = "chacha20")]
            AeadAlg::ChaCha20Poly1305 => Cipher::ChaCha20Poly1305(keyed(key)?),
            #[cfg(feature = "aes-ccm")]
            AeadAlg::Aes128Ccm => Cipher::Aes128Ccm(keyed(key)?),
            #[cfg(feature = "aes-ccm")]
            AeadAlg::Aes128Ccm8 => Cipher::Aes128Ccm8(keyed(key)?),
            // An AEAD whose feature is off.
            #[allow(unreachable_patterns)]
            _ => return Err(Error::ApiMisuse(crate::error::ApiMisuse::BadConfig)),
        };
        Ok(Self { cipher, alg, iv: *iv, seq: 0 })
    }

    /// The AEAD in use.
    pub fn alg(&self) -> AeadAlg {
        self.alg
    }

    /// The sequence number of the next record.
    pub fn sequence(&self) -> u64 {
        self.seq
    }

    /// The nonce for the current record; refuses the last sequence number, so it never
    /// wraps.
    fn nonce(&self) -> Result<[u8; 12], Error> {
        if self.seq == u64::MAX {
            return Err(Error::SequenceExhausted);
        }
        let mut nonce = self.iv;
        for (n, s) in nonce[4..].iter_mut().zip(self.seq.to_be_bytes()) {
            *n ^= s;
        }
        Ok(nonce)
    }

    /// The nonce for the current record, and advances the sequence number.
    fn next_nonce(&mut self) -> Result<[u8; 12], Error> {
        let nonce = self.nonce()?;
        self.seq += 1;
        Ok(nonce)
    }

    /// The length of the protected record (header included) that [`RecordProtection::seal`]
    /// writes for `len` bytes of content and `padding` zero bytes.
    pub fn sealed_len(&self, len: usize, padding: usize) -> usize {
        HEADER_LEN + len + 1 + padding + self.alg.tag_len()
    }

    /// Protects `content` of type `typ` with `padding` zero bytes into `out` as one whole
    /// record; returns the bytes written.
    pub fn seal(
        &mut self,
        typ: ContentType,
        content: &[u8],
        padding: usize,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let needed = self.sealed_len(content.len(), padding);
        let body = out
            .get_mut(HEADER_LEN..HEADER_LEN + content.len())
            .ok_or(Error::too_small(BufferKind::Output, needed))?;
        body.copy_from_slice(content);
        self.seal_in_place(typ, out, content.len(), padding)
    }

    /// As [`RecordProtection::seal`], with the content already at `buf[5..5 + len]`: the
    /// header, content type, padding and tag are written around it.
    pub fn seal_in_place(
        &mut self,
        typ: ContentType,
        buf: &mut [u8],
        len: usize,
        padding: usize,
    ) -> Result<usize, Error> {
        let inner = len + 1 + padding;
        if inner > MAX_PLAINTEXT_LEN + 1 {
            return Err(Error::RecordOverflow);
        }
        let total = self.sealed_len(len, padding);
        let out = buf.get_mut(..total).ok_or(Error::too_small(BufferKind::Output, total))?;
        let nonce = self.next_nonce()?;
        let (header, rest) = out.split_at_mut(HEADER_LEN);
        RecordHeader::write(ContentType::APPLICATION_DATA, total - HEADER_LEN, header);
        let (body, tag_out) = rest.split_at_mut(inner);
        body[len] = typ.0;
        body[len + 1..].fill(0);
        with_builtin!(&self.cipher, a => a
            .seal_in_place_detached(&nonce, header, body)
            .map(|t| tag_out.copy_from_slice(t.as_ref()))
            .map_err(|_| Error::RecordOverflow)?,
            Cipher::Custom(aead, key) => aead.seal(key.get(), &nonce, header, body, tag_out)?);
        Ok(total)
    }

    /// Opens the whole protected record in `record` (header included) in place, and returns
    /// its true content type and content. On failure the body holds no plaintext, and an
    /// authentication failure leaves the sequence number as it was.
    pub fn open<'b>(&mut self, record: &'b mut [u8]) -> Result<(ContentType, &'b mut [u8]), Error> {
        let header = RecordHeader::parse(record)?
            .ok_or(Error::InvalidMessage(crate::msgs::InvalidMessage::Truncated))?;
        if header.typ != ContentType::APPLICATION_DATA {
            return Err(PeerMisbehaved::UnexpectedMessage.into());
        }
        if record.len() != HEADER_LEN + header.len {
            return Err(crate::msgs::InvalidMessage::BadLength.into());
        }
        let tag_len = self.alg.tag_len();
        if header.len < tag_len + 1 {
            return Err(Error::DecryptFailed);
        }
        // RFC 8446 §5.4: the whole TLSInnerPlaintext, padding included, is at most 2^14 + 1.
        if header.len - tag_len > MAX_PLAINTEXT_LEN + 1 {
            return Err(Error::RecordOverflow);
        }
        let nonce = self.nonce()?;
        let (aad, rest) = record.split_at_mut(HEADER_LEN);
        let (body, tag) = rest.split_at_mut(header.len - tag_len);
        let opened = with_builtin!(&self.cipher, a => a
            .open_in_place_detached(&nonce, aad, body, tag)
            .is_ok(),
            Cipher::Custom(aead, key) => aead.open(key.get(), &nonce, aad, body, tag).is_ok());
        if !opened {
            // core-aead zeroes the buffer itself; a custom AEAD might not.
            body.zeroize();
            return Err(Error::DecryptFailed);
        }
        self.seq += 1;
        // The padding is the sender's choice and public to it; scanning it is not a secret
        // dependence on anything the receiver holds.
        let Some(type_at) = body.iter().rposition(|&b| b != 0) else {
            return Err(PeerMisbehaved::EmptyRecord.into());
        };
        if type_at > MAX_PLAINTEXT_LEN {
            return Err(Error::RecordOverflow);
        }
        let typ = ContentType(body[type_at]);
        Ok((typ, &mut body[..type_at]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::MAX_RECORD_LEN;
    use crate::suites::ALL_SUITES;

    /// An AEAD this build has (the first suite's): the record layer's own checks hold for
    /// any, and each suite's AEAD is checked in `every_suite_round_trips_and_refuses_every_bit_flip`.
    fn any_aead() -> AeadAlg {
        ALL_SUITES[0].aead
    }

    fn pair(alg: AeadAlg) -> (RecordProtection, RecordProtection) {
        let key = [7u8; 32];
        let iv = [9u8; 12];
        (
            RecordProtection::from_key(alg, &key[..alg.key_len()], &iv).unwrap(),
            RecordProtection::from_key(alg, &key[..alg.key_len()], &iv).unwrap(),
        )
    }

    #[test]
    fn every_suite_round_trips_and_refuses_every_bit_flip() {
        for s in ALL_SUITES {
            let (mut tx, mut rx) = pair(s.aead);
            let mut buf = [0u8; 128];
            for (i, msg) in [&b"hello"[..], b"", b"world!"].iter().enumerate() {
                let n = tx.seal(ContentType::HANDSHAKE, msg, i * 3, &mut buf).unwrap();
                assert_eq!(n, tx.sealed_len(msg.len(), i * 3));
                let (typ, content) = rx.open(&mut buf[..n]).unwrap();
                assert_eq!((typ, &*content), (ContentType::HANDSHAKE, *msg), "{s:?}");
            }
            let n = tx.seal(ContentType::APPLICATION_DATA, b"secret", 0, &mut buf).unwrap();
            for bit in 0..n * 8 {
                let (_, mut rx) = pair(s.aead);
                let mut t = [0u8; 128];
                let mut tx2 = pair(s.aead).0;
                let m = tx2.seal(ContentType::APPLICATION_DATA, b"secret", 0, &mut t).unwrap();
                t[bit / 8] ^= 1 << (bit % 8);
                let r = rx.open(&mut t[..m]);
                assert!(r.is_err(), "{s:?} accepted a flip of bit {bit}");
                assert!(!t[..m].windows(6).any(|w| w == b"secret"), "plaintext released");
            }
        }
    }

    /// An AEAD whose feature is off keys no record layer: `ApiMisuse::BadConfig`.
    #[test]
    fn only_the_aeads_of_this_build_key_records() {
        let key = [7u8; 32];
        for alg in [
            AeadAlg::Aes128Gcm,
            AeadAlg::Aes256Gcm,
            AeadAlg::ChaCha20Poly1305,
            AeadAlg::Aes128Ccm,
            AeadAlg::Aes128Ccm8,
        ] {
            let r = RecordProtection::from_key(alg, &key[..alg.key_len()], &[9; 12]).map(|_| ());
            let off = Err(Error::ApiMisuse(crate::error::ApiMisuse::BadConfig));
            assert_eq!(r, if crate::suites::is_built_in(alg) { Ok(()) } else { off }, "{alg:?}");
        }
    }

    #[test]
    fn replayed_or_reordered_records_fail() {
        let (mut tx, mut rx) = pair(any_aead());
        let mut a = [0u8; 64];
        let mut b = [0u8; 64];
        let na = tx.seal(ContentType::APPLICATION_DATA, b"one", 0, &mut a).unwrap();
        let nb = tx.seal(ContentType::APPLICATION_DATA, b"two", 0, &mut b).unwrap();
        assert_eq!(rx.open(&mut b[..nb]).map(|_| ()), Err(Error::DecryptFailed));
        let _ = na;
    }

    #[test]
    fn limits_are_enforced() {
        let (mut tx, mut rx) = pair(any_aead());
        let big = std::vec![1u8; MAX_PLAINTEXT_LEN + 1];
        let mut out = std::vec![0u8; MAX_RECORD_LEN + 64];
        assert_eq!(
            tx.seal(ContentType::APPLICATION_DATA, &big, 0, &mut out),
            Err(Error::RecordOverflow)
        );
        let n =
            tx.seal(ContentType::APPLICATION_DATA, &big[..MAX_PLAINTEXT_LEN], 0, &mut out).unwrap();
        assert_eq!(rx.open(&mut out[..n]).unwrap().1.len(), MAX_PLAINTEXT_LEN);
        assert_eq!(
            tx.seal(ContentType::APPLICATION_DATA, b"x", 0, &mut out[..10]),
            Err(Error::BufferTooSmall { buffer: BufferKind::Output, needed: 23 })
        );
        assert_eq!(RecordHeader::parse(&[23, 3, 3, 0x41, 0x01]), Err(Error::RecordOverflow));
        assert_eq!(RecordHeader::parse(&[23, 3, 3]), Ok(None));
        assert!(RecordHeader::parse(&[99, 3, 3, 0, 1]).is_err());
        // A record that is all padding has no content type.
        let (mut tx, mut rx) = pair(any_aead());
        let mut t = [0u8; 64];
        let n = tx.seal(ContentType(0), b"", 4, &mut t).unwrap();
        assert_eq!(
            rx.open(&mut t[..n]).map(|_| ()),
            Err(Error::PeerMisbehaved(PeerMisbehaved::EmptyRecord))
        );
    }

    #[test]
    fn sequence_numbers_refuse_to_wrap() {
        let (mut tx, _) = pair(any_aead());
        tx.seq = u64::MAX;
        let mut t = [0u8; 64];
        assert_eq!(
            tx.seal(ContentType::APPLICATION_DATA, b"", 0, &mut t),
            Err(Error::SequenceExhausted)
        );
    }
}
