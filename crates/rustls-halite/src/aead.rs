//! Record protection: rustls's [`Tls13AeadAlgorithm`] and [`Tls12AeadAlgorithm`] over any
//! `core_aead::Aead`. Each encrypter and decrypter keeps the expanded key schedule (AES round
//! keys and GHASH table, or the ChaCha20 key) for the life of the traffic key, so a record
//! costs one nonce XOR, one in-place seal or open, and — on the sending side, as in rustls's
//! own providers — the one output buffer rustls hands back.

use core::marker::PhantomData;

use core_aead::Aead;
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, KeyBlockShape, MessageDecrypter,
    MessageEncrypter, NONCE_LEN, Nonce, OutboundOpaqueMessage, OutboundPlainMessage,
    PrefixedPayload, Tls12AeadAlgorithm, Tls13AeadAlgorithm, UnsupportedOperationError,
    make_tls12_aad, make_tls13_aad,
};
use rustls::{ConnectionTrafficSecrets, ContentType, Error, ProtocolVersion};

/// The largest `TLSPlaintext` fragment (RFC 8446 §5.1, RFC 5246 §6.2.1).
const MAX_FRAGMENT_LEN: usize = 16384;

/// How a suite's key and IV are handed out by `extract_keys` (for kTLS and the like), or
/// `None` where rustls has no name for the algorithm (AES-CCM).
type Extract = Option<fn(AeadKey, Iv) -> ConnectionTrafficSecrets>;

fn aes128_gcm_secrets(key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
    ConnectionTrafficSecrets::Aes128Gcm { key, iv }
}

fn aes256_gcm_secrets(key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
    ConnectionTrafficSecrets::Aes256Gcm { key, iv }
}

fn chacha_secrets(key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
    ConnectionTrafficSecrets::Chacha20Poly1305 { key, iv }
}

/// A record or packet protector whose key could not be built (never for the key lengths
/// rustls derives): it refuses every record instead of panicking.
pub(crate) struct Refused;

impl MessageEncrypter for Refused {
    fn encrypt(
        &mut self,
        _: OutboundPlainMessage<'_>,
        _: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        Err(Error::EncryptError)
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len
    }
}

impl MessageDecrypter for Refused {
    fn decrypt<'a>(
        &mut self,
        _: InboundOpaqueMessage<'a>,
        _: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        Err(Error::DecryptError)
    }
}

/// A TLS 1.3 AEAD (RFC 8446 §5.2) on `core_aead` algorithm `A`.
pub(crate) struct Tls13Aead<A> {
    extract: Extract,
    _alg: PhantomData<fn() -> A>,
}

impl<A> Tls13Aead<A> {
    const fn new(extract: Extract) -> Self {
        Self { extract, _alg: PhantomData }
    }
}

/// TLS 1.3 AES-128-GCM.
pub(crate) static TLS13_AES_128_GCM: Tls13Aead<core_aead::Aes128Gcm> =
    Tls13Aead::new(Some(aes128_gcm_secrets));
/// TLS 1.3 AES-256-GCM.
pub(crate) static TLS13_AES_256_GCM: Tls13Aead<core_aead::Aes256Gcm> =
    Tls13Aead::new(Some(aes256_gcm_secrets));
/// TLS 1.3 ChaCha20-Poly1305.
pub(crate) static TLS13_CHACHA20_POLY1305: Tls13Aead<core_aead::ChaCha20Poly1305> =
    Tls13Aead::new(Some(chacha_secrets));
/// TLS 1.3 AES-128-CCM.
pub(crate) static TLS13_AES_128_CCM: Tls13Aead<core_aead::Aes128Ccm> = Tls13Aead::new(None);
/// TLS 1.3 AES-128-CCM with an 8-byte tag.
pub(crate) static TLS13_AES_128_CCM_8: Tls13Aead<core_aead::Aes128Ccm8> = Tls13Aead::new(None);

impl<A: Aead + Send + Sync + 'static> Tls13AeadAlgorithm for Tls13Aead<A> {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageEncrypter> {
        match A::new(key.as_ref()) {
            Ok(key) => Box::new(Tls13Protector { key, iv }),
            Err(_) => Box::new(Refused),
        }
    }

    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageDecrypter> {
        match A::new(key.as_ref()) {
            Ok(key) => Box::new(Tls13Protector { key, iv }),
            Err(_) => Box::new(Refused),
        }
    }

    fn key_len(&self) -> usize {
        A::KEY_LEN
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: Iv,
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        self.extract.map(|f| f(key, iv)).ok_or(UnsupportedOperationError)
    }
}

/// One direction's TLS 1.3 record key: the expanded key and the static IV.
struct Tls13Protector<A> {
    key: A,
    iv: Iv,
}

impl<A: Aead + Send + Sync> MessageEncrypter for Tls13Protector<A> {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls13_aad(total_len);
        // TLSInnerPlaintext: content, then the real content type, then (no) padding.
        let mut payload = PrefixedPayload::with_capacity(total_len);
        payload.extend_from_chunks(&msg.payload);
        payload.extend_from_slice(&[u8::from(msg.typ)]);
        let tag = self
            .key
            .seal_in_place_detached(&nonce, &aad, payload.as_mut())
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(tag.as_ref());
        Ok(OutboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            payload,
        ))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + A::TAG_LEN
    }
}

impl<A: Aead + Send + Sync> MessageDecrypter for Tls13Protector<A> {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let payload = &mut msg.payload;
        let Some(plain_len) = payload.len().checked_sub(A::TAG_LEN) else {
            return Err(Error::DecryptError);
        };
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls13_aad(payload.len());
        let (text, tag) = payload.split_at_mut(plain_len);
        self.key
            .open_in_place_detached(&nonce, &aad, text, tag)
            .map_err(|_| Error::DecryptError)?;
        payload.truncate(plain_len);
        msg.into_tls13_unpadded_message()
    }
}

/// Bytes of the explicit nonce AES-GCM records carry in TLS 1.2 (RFC 5288 §3).
const GCM_EXPLICIT_NONCE_LEN: usize = 8;

/// TLS 1.2 AES-GCM (RFC 5288) on `core_aead` algorithm `A`: a 4-byte salt from the key
/// block and an 8-byte explicit nonce per record, which (as in rustls's providers) is the
/// 8 extra key-block bytes XOR-ed with the sequence number.
pub(crate) struct Tls12Gcm<A> {
    extract: fn(AeadKey, Iv) -> ConnectionTrafficSecrets,
    _alg: PhantomData<fn() -> A>,
}

/// TLS 1.2 AES-128-GCM.
pub(crate) static TLS12_AES_128_GCM: Tls12Gcm<core_aead::Aes128Gcm> =
    Tls12Gcm { extract: aes128_gcm_secrets, _alg: PhantomData };
/// TLS 1.2 AES-256-GCM.
pub(crate) static TLS12_AES_256_GCM: Tls12Gcm<core_aead::Aes256Gcm> =
    Tls12Gcm { extract: aes256_gcm_secrets, _alg: PhantomData };

/// The 12-byte GCM nonce base: the salt and the extra key-block bytes.
fn gcm_iv(salt: &[u8], explicit: &[u8]) -> Iv {
    let mut iv = [0u8; NONCE_LEN];
    let (head, tail) = iv.split_at_mut(4);
    if salt.len() == head.len() && explicit.len() == tail.len() {
        head.copy_from_slice(salt);
        tail.copy_from_slice(explicit);
    }
    Iv::new(iv)
}

impl<A: Aead + Send + Sync + 'static> Tls12AeadAlgorithm for Tls12Gcm<A> {
    fn encrypter(&self, key: AeadKey, iv: &[u8], extra: &[u8]) -> Box<dyn MessageEncrypter> {
        match A::new(key.as_ref()) {
            Ok(key) => Box::new(GcmEncrypter { key, iv: gcm_iv(iv, extra) }),
            Err(_) => Box::new(Refused),
        }
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        let mut salt = [0u8; 4];
        match (A::new(key.as_ref()), iv.len() == salt.len()) {
            (Ok(key), true) => {
                salt.copy_from_slice(iv);
                Box::new(GcmDecrypter { key, salt })
            }
            _ => Box::new(Refused),
        }
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape {
            enc_key_len: A::KEY_LEN,
            fixed_iv_len: 4,
            explicit_nonce_len: GCM_EXPLICIT_NONCE_LEN,
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Ok((self.extract)(key, gcm_iv(iv, explicit)))
    }
}

/// One direction's TLS 1.2 AES-GCM sending key.
struct GcmEncrypter<A> {
    key: A,
    iv: Iv,
}

impl<A: Aead + Send + Sync> MessageEncrypter for GcmEncrypter<A> {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, msg.payload.len());
        let mut payload = PrefixedPayload::with_capacity(total_len);
        payload.extend_from_slice(&nonce[4..]);
        payload.extend_from_chunks(&msg.payload);
        let tag = self
            .key
            .seal_in_place_detached(&nonce, &aad, &mut payload.as_mut()[GCM_EXPLICIT_NONCE_LEN..])
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(tag.as_ref());
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + GCM_EXPLICIT_NONCE_LEN + A::TAG_LEN
    }
}

/// One direction's TLS 1.2 AES-GCM receiving key: the explicit nonce comes with each record.
struct GcmDecrypter<A> {
    key: A,
    salt: [u8; 4],
}

impl<A: Aead + Send + Sync> MessageDecrypter for GcmDecrypter<A> {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let len = msg.payload.len();
        let Some(plain_len) = len.checked_sub(GCM_EXPLICIT_NONCE_LEN + A::TAG_LEN) else {
            return Err(Error::DecryptError);
        };
        let mut nonce = [0u8; NONCE_LEN];
        nonce[..4].copy_from_slice(&self.salt);
        nonce[4..].copy_from_slice(&msg.payload[..GCM_EXPLICIT_NONCE_LEN]);
        let aad = make_tls12_aad(seq, msg.typ, msg.version, plain_len);
        let body = &mut msg.payload[GCM_EXPLICIT_NONCE_LEN..];
        let (text, tag) = body.split_at_mut(plain_len);
        self.key
            .open_in_place_detached(&nonce, &aad, text, tag)
            .map_err(|_| Error::DecryptError)?;
        if plain_len > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        Ok(msg.into_plain_message_range(GCM_EXPLICIT_NONCE_LEN..GCM_EXPLICIT_NONCE_LEN + plain_len))
    }
}

/// TLS 1.2 ChaCha20-Poly1305 (RFC 7905): a 12-byte IV from the key block XOR-ed with the
/// sequence number, no explicit nonce.
pub(crate) struct Tls12ChaCha;

/// TLS 1.2 ChaCha20-Poly1305.
pub(crate) static TLS12_CHACHA20_POLY1305: Tls12ChaCha = Tls12ChaCha;

impl Tls12AeadAlgorithm for Tls12ChaCha {
    fn encrypter(&self, key: AeadKey, iv: &[u8], _extra: &[u8]) -> Box<dyn MessageEncrypter> {
        match (core_aead::ChaCha20Poly1305::new(key.as_ref()), iv.len() == NONCE_LEN) {
            (Ok(key), true) => Box::new(Tls12Protector { key, iv: Iv::copy(iv) }),
            _ => Box::new(Refused),
        }
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        match (core_aead::ChaCha20Poly1305::new(key.as_ref()), iv.len() == NONCE_LEN) {
            (Ok(key), true) => Box::new(Tls12Protector { key, iv: Iv::copy(iv) }),
            _ => Box::new(Refused),
        }
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape { enc_key_len: 32, fixed_iv_len: NONCE_LEN, explicit_nonce_len: 0 }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        _explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        if iv.len() != NONCE_LEN {
            return Err(UnsupportedOperationError);
        }
        Ok(chacha_secrets(key, Iv::copy(iv)))
    }
}

/// One direction's TLS 1.2 ChaCha20-Poly1305 key.
struct Tls12Protector<A> {
    key: A,
    iv: Iv,
}

impl<A: Aead + Send + Sync> MessageEncrypter for Tls12Protector<A> {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let total_len = self.encrypted_payload_len(msg.payload.len());
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, msg.payload.len());
        let mut payload = PrefixedPayload::with_capacity(total_len);
        payload.extend_from_chunks(&msg.payload);
        let tag = self
            .key
            .seal_in_place_detached(&nonce, &aad, payload.as_mut())
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(tag.as_ref());
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + A::TAG_LEN
    }
}

impl<A: Aead + Send + Sync> MessageDecrypter for Tls12Protector<A> {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let payload = &mut msg.payload;
        let Some(plain_len) = payload.len().checked_sub(A::TAG_LEN) else {
            return Err(Error::DecryptError);
        };
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, plain_len);
        let (text, tag) = payload.split_at_mut(plain_len);
        self.key
            .open_in_place_detached(&nonce, &aad, text, tag)
            .map_err(|_| Error::DecryptError)?;
        if plain_len > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        payload.truncate(plain_len);
        Ok(msg.into_plain_message())
    }
}
