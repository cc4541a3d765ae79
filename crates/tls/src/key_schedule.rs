//! The TLS 1.3 key schedule (RFC 8446 §7.1) and the transcript hash (§4.4.1), over
//! `core_hash`'s HKDF and SHA-2 for the two hashes the TLS 1.3 suites use.
//!
//! The schedule moves through its stages as types — [`EarlySecret`] → [`HandshakeSecret`] →
//! [`MasterSecret`] — so a secret cannot be derived from the wrong stage. Every secret is a
//! [`Secret`], wiped on drop. The transcript is a running hash that can be forked (cloned) to
//! take intermediate values, as CertificateVerify and Finished need.

use core::fmt;

use core_hash::{Hkdf, Hmac, Sha256, Sha384};
use zeroize::Zeroize;

/// The largest hash output a TLS 1.3 suite uses (SHA-384).
pub const MAX_HASH_LEN: usize = 48;

/// The hash a TLS 1.3 cipher suite is defined with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashAlg {
    /// SHA-256.
    Sha256,
    /// SHA-384.
    Sha384,
}

impl HashAlg {
    /// Output length in bytes.
    pub const fn output_len(self) -> usize {
        match self {
            Self::Sha256 => 32,
            Self::Sha384 => 48,
        }
    }

    /// The hash of `data`.
    pub fn hash(self, data: &[u8]) -> Digest {
        let mut t = Transcript::new(self);
        t.update(data);
        t.current()
    }

    /// HMAC(`key`, `data`).
    pub fn hmac(self, key: &[u8], data: &[u8]) -> Digest {
        match self {
            Self::Sha256 => Digest::from_hash(Hmac::<Sha256>::mac(key, data).as_ref()),
            Self::Sha384 => Digest::from_hash(Hmac::<Sha384>::mac(key, data).as_ref()),
        }
    }

    /// HKDF-Extract(`salt`, `ikm`).
    pub fn extract(self, salt: &[u8], ikm: &[u8]) -> Secret {
        match self {
            Self::Sha256 => {
                Secret::from_slice(self, Hkdf::<Sha256>::extract_prk(salt, ikm).as_ref())
            }
            Self::Sha384 => {
                Secret::from_slice(self, Hkdf::<Sha384>::extract_prk(salt, ikm).as_ref())
            }
        }
    }

    /// HKDF-Expand-Label(`secret`, `label`, `context`, `out.len()`) (RFC 8446 §7.1): the
    /// label gets the `"tls13 "` prefix here. `out` is at most 255 × the hash length and the
    /// label at most 249 bytes, which every caller in this crate respects.
    pub fn expand_label(self, secret: &Secret, label: &[u8], context: &[u8], out: &mut [u8]) {
        let len = (out.len() as u16).to_be_bytes();
        let label_len = [(6 + label.len()) as u8];
        let context_len = [context.len() as u8];
        let info: [&[u8]; 6] = [&len, &label_len, b"tls13 ", label, &context_len, context];
        let prk = secret.as_ref();
        // Expansion only fails for an output longer than 255 hash blocks or a PRK shorter
        // than the hash; neither can happen for the fixed sizes used here.
        let ok = match self {
            Self::Sha256 => {
                Hkdf::<Sha256>::from_prk(prk).and_then(|h| h.expand_multi_info(&info, out)).is_ok()
            }
            Self::Sha384 => {
                Hkdf::<Sha384>::from_prk(prk).and_then(|h| h.expand_multi_info(&info, out)).is_ok()
            }
        };
        debug_assert!(ok, "HKDF-Expand-Label with an impossible length");
    }

    /// A secret of the hash's length from HKDF-Expand-Label.
    pub fn expand_label_secret(self, secret: &Secret, label: &[u8], context: &[u8]) -> Secret {
        let mut s = Secret { alg: self, bytes: [0; MAX_HASH_LEN] };
        self.expand_label(secret, label, context, &mut s.bytes[..self.output_len()]);
        s
    }

    /// Derive-Secret(`secret`, `label`, messages) given the transcript hash of the messages.
    pub fn derive_secret(self, secret: &Secret, label: &[u8], transcript_hash: &Digest) -> Secret {
        self.expand_label_secret(secret, label, transcript_hash.as_ref())
    }
}

/// A hash output (public: a transcript hash or a Finished value).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Digest {
    bytes: [u8; MAX_HASH_LEN],
    len: u8,
}

impl Digest {
    /// A digest from bytes (a hash computed elsewhere, or a test vector); `None` if longer
    /// than [`MAX_HASH_LEN`].
    pub fn from_slice(s: &[u8]) -> Option<Self> {
        if s.len() > MAX_HASH_LEN {
            return None;
        }
        Some(Self::from_hash(s))
    }

    fn from_hash(s: &[u8]) -> Self {
        let mut bytes = [0; MAX_HASH_LEN];
        bytes[..s.len()].copy_from_slice(s);
        Self { bytes, len: s.len() as u8 }
    }
}

impl AsRef<[u8]> for Digest {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.as_ref() {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// A secret of the schedule (or a traffic secret): a hash-length value, wiped on drop and
/// never printed.
#[derive(Clone)]
pub struct Secret {
    alg: HashAlg,
    bytes: [u8; MAX_HASH_LEN],
}

impl Secret {
    /// A secret for `alg` from bytes, e.g. an imported PSK or a test vector. Only the first
    /// hash-length bytes are kept; shorter input is zero-padded.
    pub fn from_slice(alg: HashAlg, s: &[u8]) -> Self {
        let mut bytes = [0; MAX_HASH_LEN];
        let n = s.len().min(alg.output_len());
        bytes[..n].copy_from_slice(&s[..n]);
        Self { alg, bytes }
    }

    /// The hash this secret belongs to.
    pub fn alg(&self) -> HashAlg {
        self.alg
    }
}

impl AsRef<[u8]> for Secret {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.alg.output_len()]
    }
}

impl Drop for Secret {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secret({:?}, ..)", self.alg)
    }
}

/// The running hash of the handshake messages. Clone it to fork.
#[derive(Clone, Debug)]
pub enum Transcript {
    /// Over SHA-256.
    Sha256(Sha256),
    /// Over SHA-384.
    Sha384(Sha384),
}

impl Transcript {
    /// An empty transcript.
    pub fn new(alg: HashAlg) -> Self {
        match alg {
            HashAlg::Sha256 => Self::Sha256(Sha256::new()),
            HashAlg::Sha384 => Self::Sha384(Sha384::new()),
        }
    }

    /// The hash it runs.
    pub fn alg(&self) -> HashAlg {
        match self {
            Self::Sha256(_) => HashAlg::Sha256,
            Self::Sha384(_) => HashAlg::Sha384,
        }
    }

    /// Adds a whole handshake message (header included).
    pub fn update(&mut self, msg: &[u8]) {
        match self {
            Self::Sha256(h) => h.update(msg),
            Self::Sha384(h) => h.update(msg),
        }
    }

    /// The hash of everything added so far; the transcript keeps running.
    pub fn current(&self) -> Digest {
        match self {
            Self::Sha256(h) => Digest::from_hash(h.clone().finalize().as_ref()),
            Self::Sha384(h) => Digest::from_hash(h.clone().finalize().as_ref()),
        }
    }

    /// Replaces ClientHello1 by the synthetic `message_hash` message after a
    /// HelloRetryRequest (RFC 8446 §4.4.1).
    pub fn restart_for_retry(&mut self) {
        let ch1 = self.current();
        *self = Self::new(self.alg());
        self.update(&[254, 0, 0, ch1.len]);
        self.update(ch1.as_ref());
    }
}

/// The Early Secret stage.
#[derive(Debug)]
pub struct EarlySecret(Secret);

/// The Handshake Secret stage.
#[derive(Debug)]
pub struct HandshakeSecret(Secret);

/// The Master Secret stage.
#[derive(Debug)]
pub struct MasterSecret(Secret);

impl EarlySecret {
    /// Early Secret = HKDF-Extract(0, PSK), with a zero PSK when there is none.
    pub fn new(alg: HashAlg, psk: Option<&[u8]>) -> Self {
        let zeros = [0u8; MAX_HASH_LEN];
        Self(alg.extract(&zeros[..alg.output_len()], psk.unwrap_or(&zeros[..alg.output_len()])))
    }

    /// The stage's secret.
    pub fn secret(&self) -> &Secret {
        &self.0
    }

    /// The PSK binder key: `ext binder` for external PSKs, `res binder` for resumption.
    pub fn binder_key(&self, external: bool) -> Secret {
        let alg = self.0.alg;
        let label: &[u8] = if external { b"ext binder" } else { b"res binder" };
        alg.derive_secret(&self.0, label, &alg.hash(&[]))
    }

    /// Handshake Secret = HKDF-Extract(Derive-Secret(., "derived", ""), (EC)DHE).
    pub fn into_handshake(self, ecdhe: &[u8]) -> HandshakeSecret {
        let alg = self.0.alg;
        let salt = alg.derive_secret(&self.0, b"derived", &alg.hash(&[]));
        HandshakeSecret(alg.extract(salt.as_ref(), ecdhe))
    }
}

impl HandshakeSecret {
    /// The stage's secret.
    pub fn secret(&self) -> &Secret {
        &self.0
    }

    /// `c hs traffic` over the transcript through ServerHello.
    pub fn client_traffic(&self, transcript_hash: &Digest) -> Secret {
        self.0.alg.derive_secret(&self.0, b"c hs traffic", transcript_hash)
    }

    /// `s hs traffic` over the transcript through ServerHello.
    pub fn server_traffic(&self, transcript_hash: &Digest) -> Secret {
        self.0.alg.derive_secret(&self.0, b"s hs traffic", transcript_hash)
    }

    /// Master Secret = HKDF-Extract(Derive-Secret(., "derived", ""), 0).
    pub fn into_master(self) -> MasterSecret {
        let alg = self.0.alg;
        let salt = alg.derive_secret(&self.0, b"derived", &alg.hash(&[]));
        MasterSecret(alg.extract(salt.as_ref(), &[0u8; MAX_HASH_LEN][..alg.output_len()]))
    }
}

impl MasterSecret {
    /// The stage's secret.
    pub fn secret(&self) -> &Secret {
        &self.0
    }

    /// `c ap traffic` over the transcript through server Finished.
    pub fn client_traffic(&self, transcript_hash: &Digest) -> Secret {
        self.0.alg.derive_secret(&self.0, b"c ap traffic", transcript_hash)
    }

    /// `s ap traffic` over the transcript through server Finished.
    pub fn server_traffic(&self, transcript_hash: &Digest) -> Secret {
        self.0.alg.derive_secret(&self.0, b"s ap traffic", transcript_hash)
    }

    /// `exp master` over the transcript through server Finished.
    pub fn exporter(&self, transcript_hash: &Digest) -> Secret {
        self.0.alg.derive_secret(&self.0, b"exp master", transcript_hash)
    }

    /// `res master` over the transcript through client Finished.
    pub fn resumption(&self, transcript_hash: &Digest) -> Secret {
        self.0.alg.derive_secret(&self.0, b"res master", transcript_hash)
    }
}

/// The PSK a NewSessionTicket with `nonce` stands for (RFC 8446 §4.6.1).
pub fn resumption_psk(resumption_master: &Secret, nonce: &[u8]) -> Secret {
    resumption_master.alg.expand_label_secret(resumption_master, b"resumption", nonce)
}

/// The next generation of a traffic secret, after a KeyUpdate (RFC 8446 §7.2).
pub fn next_traffic_secret(secret: &Secret) -> Secret {
    secret.alg.expand_label_secret(secret, b"traffic upd", &[])
}

/// A record protection key and IV derived from a traffic secret (RFC 8446 §7.3).
pub struct TrafficKey {
    /// The AEAD key; only the first `key_len` bytes are used.
    pub key: [u8; 32],
    /// The key's length.
    pub key_len: usize,
    /// The per-connection IV.
    pub iv: [u8; 12],
}

impl TrafficKey {
    /// Derives `key` (of `key_len` bytes, at most 32) and `iv` from `secret`.
    pub fn derive(secret: &Secret, key_len: usize) -> Self {
        let alg = secret.alg;
        let mut k = Self { key: [0; 32], key_len: key_len.min(32), iv: [0; 12] };
        alg.expand_label(secret, b"key", &[], &mut k.key[..k.key_len]);
        alg.expand_label(secret, b"iv", &[], &mut k.iv);
        k
    }

    /// The key bytes.
    pub fn key(&self) -> &[u8] {
        &self.key[..self.key_len]
    }
}

impl Drop for TrafficKey {
    fn drop(&mut self) {
        self.key.zeroize();
        self.iv.zeroize();
    }
}

impl fmt::Debug for TrafficKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TrafficKey({} bytes, ..)", self.key_len)
    }
}

/// The Finished `verify_data` for a side whose traffic secret is `base_key`, over the
/// transcript hash up to the message before Finished (RFC 8446 §4.4.4).
pub fn finished_verify_data(base_key: &Secret, transcript_hash: &Digest) -> Digest {
    let alg = base_key.alg;
    let finished_key = alg.expand_label_secret(base_key, b"finished", &[]);
    alg.hmac(finished_key.as_ref(), transcript_hash.as_ref())
}

/// Compares a received Finished value with the expected one in constant time.
pub fn verify_finished(expected: &Digest, received: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    bool::from(expected.as_ref().ct_eq(received))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_transcript_uses_message_hash() {
        let mut t = Transcript::new(HashAlg::Sha256);
        t.update(b"client hello 1");
        t.restart_for_retry();
        let mut want = std::vec![254, 0, 0, 32];
        want.extend_from_slice(HashAlg::Sha256.hash(b"client hello 1").as_ref());
        assert_eq!(t.current(), HashAlg::Sha256.hash(&want));
    }

    #[test]
    fn finished_comparison_checks_length_and_bytes() {
        let d = HashAlg::Sha384.hash(b"x");
        assert!(verify_finished(&d, d.as_ref()));
        assert!(!verify_finished(&d, &d.as_ref()[..47]));
        let mut bad = d.as_ref().to_vec();
        bad[47] ^= 1;
        assert!(!verify_finished(&d, &bad));
    }
}
