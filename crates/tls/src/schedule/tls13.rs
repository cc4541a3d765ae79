//! The TLS 1.3 key schedule (RFC 8446 §7.1), over `core_hash`'s HKDF.
//!
//! The schedule moves through its stages as types — [`EarlySecret`] → [`HandshakeSecret`] →
//! [`MasterSecret`] — so a secret cannot be derived from the wrong stage. Every secret is a
//! [`Secret`], wiped on drop.

use core::fmt;

use zeroize::Zeroize;

#[cfg(test)]
use super::Transcript;
use super::{Digest, HashAlg, MAX_HASH_LEN, Secret, SuiteHash};
use crate::error::Error;

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
    /// Early Secret = HKDF-Extract(0, PSK), with a zero PSK when there is none; a hash no
    /// suite uses is [`ApiMisuse::BadConfig`](crate::error::ApiMisuse::BadConfig).
    pub fn new(alg: HashAlg, psk: Option<&[u8]>) -> Result<Self, Error> {
        Ok(Self::for_suite(SuiteHash::new(alg)?, psk))
    }

    pub(crate) fn for_suite(alg: SuiteHash, psk: Option<&[u8]>) -> Self {
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
        let mut t = Transcript::for_suite(SuiteHash::Sha256);
        t.update(b"client hello 1");
        t.restart_for_retry();
        let mut want = std::vec![254, 0, 0, 32];
        want.extend_from_slice(SuiteHash::Sha256.hash(b"client hello 1").as_ref());
        assert_eq!(t.current(), SuiteHash::Sha256.hash(&want));
    }

    #[test]
    fn hashes_no_suite_uses_are_refused() {
        for alg in [HashAlg::Sha1, HashAlg::Sha224, HashAlg::Sha512, HashAlg::Sha512_256] {
            assert!(Transcript::new(alg).is_err(), "{alg:?}");
            assert!(EarlySecret::new(alg, None).is_err(), "{alg:?}");
            assert!(Secret::from_slice(alg, &[1; 32]).is_err(), "{alg:?}");
        }
        // SHA-384 is a suite hash only when a SHA-384 suite is built.
        let sha384 = Transcript::new(HashAlg::Sha384).map(|t| t.alg());
        if cfg!(feature = "sha384") {
            assert_eq!(sha384, Ok(HashAlg::Sha384));
        } else {
            assert_eq!(sha384, Err(Error::ApiMisuse(crate::ApiMisuse::BadConfig)));
        }
    }

    #[test]
    fn finished_comparison_checks_length_and_bytes() {
        let d = SuiteHash::Sha256.hash(b"x");
        assert!(verify_finished(&d, d.as_ref()));
        assert!(!verify_finished(&d, &d.as_ref()[..31]));
        let mut bad = d.as_ref().to_vec();
        bad[31] ^= 1;
        assert!(!verify_finished(&d, &bad));
    }
}
