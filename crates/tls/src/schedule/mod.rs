//! The transcript hash (RFC 8446 §4.4.1) and what every key schedule shares: the hashes,
//! their digests and secrets (wiped on drop), over `core_hash`'s HKDF and SHA-2. The TLS 1.3
//! key schedule is in [`tls13`].
//!
//! The transcript is a running hash that can be forked (cloned) to take intermediate values,
//! as CertificateVerify and Finished need.

use core::fmt;

pub use core_hash::HashAlg;
#[cfg(feature = "sha384")]
use core_hash::Sha384;
use core_hash::{Hkdf, Hmac, Sha256};
use zeroize::Zeroize;

use crate::error::{ApiMisuse, Error};

/// The largest hash output a TLS 1.3 suite uses (SHA-384).
pub const MAX_HASH_LEN: usize = 48;

/// A [`HashAlg`] a cipher suite can be defined with: SHA-256 or SHA-384, the only ones of
/// TLS 1.3's suites (RFC 8446 B.4) and the TLS 1.2 suites here. Every other hash is refused
/// where one enters (a suite, a PSK, a secret from bytes), so the schedule below is total.
/// SHA-384 only with the `sha384` feature (a SHA-384 suite is built): else it is refused
/// the same way and none of its code is linked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SuiteHash {
    Sha256,
    #[cfg(feature = "sha384")]
    Sha384,
}

impl SuiteHash {
    /// `alg` if a suite can use it, else [`ApiMisuse::BadConfig`].
    pub(crate) fn new(alg: HashAlg) -> Result<Self, Error> {
        match alg {
            HashAlg::Sha256 => Ok(Self::Sha256),
            #[cfg(feature = "sha384")]
            HashAlg::Sha384 => Ok(Self::Sha384),
            _ => Err(Error::ApiMisuse(ApiMisuse::BadConfig)),
        }
    }

    /// The hash as the public type names it.
    pub(crate) const fn alg(self) -> HashAlg {
        match self {
            Self::Sha256 => HashAlg::Sha256,
            #[cfg(feature = "sha384")]
            Self::Sha384 => HashAlg::Sha384,
        }
    }

    /// Output length in bytes.
    pub(crate) const fn output_len(self) -> usize {
        self.alg().output_len()
    }

    /// The hash of `data`.
    pub(crate) fn hash(self, data: &[u8]) -> Digest {
        let mut t = Transcript::for_suite(self);
        t.update(data);
        t.current()
    }

    /// HMAC(`key`, `data`).
    pub(crate) fn hmac(self, key: &[u8], data: &[u8]) -> Digest {
        match self {
            Self::Sha256 => Digest::from_hash(Hmac::<Sha256>::mac(key, data).as_ref()),
            #[cfg(feature = "sha384")]
            Self::Sha384 => Digest::from_hash(Hmac::<Sha384>::mac(key, data).as_ref()),
        }
    }

    /// HKDF-Extract(`salt`, `ikm`).
    pub(crate) fn extract(self, salt: &[u8], ikm: &[u8]) -> Secret {
        match self {
            Self::Sha256 => {
                Secret::for_suite(self, Hkdf::<Sha256>::extract_prk(salt, ikm).as_ref())
            }
            #[cfg(feature = "sha384")]
            Self::Sha384 => {
                Secret::for_suite(self, Hkdf::<Sha384>::extract_prk(salt, ikm).as_ref())
            }
        }
    }

    /// HKDF-Expand-Label(`secret`, `label`, `context`, `out.len()`) (RFC 8446 §7.1): the
    /// label gets the `"tls13 "` prefix here. `out` is at most 255 × the hash length and the
    /// label at most 249 bytes, which every caller in this crate respects.
    pub(crate) fn expand_label(
        self,
        secret: &Secret,
        label: &[u8],
        context: &[u8],
        out: &mut [u8],
    ) {
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
            #[cfg(feature = "sha384")]
            Self::Sha384 => {
                Hkdf::<Sha384>::from_prk(prk).and_then(|h| h.expand_multi_info(&info, out)).is_ok()
            }
        };
        debug_assert!(ok, "HKDF-Expand-Label with an impossible length");
    }

    /// A secret of the hash's length from HKDF-Expand-Label.
    pub(crate) fn expand_label_secret(
        self,
        secret: &Secret,
        label: &[u8],
        context: &[u8],
    ) -> Secret {
        let mut s = Secret { alg: self, bytes: [0; MAX_HASH_LEN] };
        self.expand_label(secret, label, context, &mut s.bytes[..self.output_len()]);
        s
    }

    /// Derive-Secret(`secret`, `label`, messages) given the transcript hash of the messages.
    pub(crate) fn derive_secret(
        self,
        secret: &Secret,
        label: &[u8],
        transcript_hash: &Digest,
    ) -> Secret {
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
    alg: SuiteHash,
    bytes: [u8; MAX_HASH_LEN],
}

impl Secret {
    /// A secret for `alg` from bytes, e.g. an imported PSK or a test vector. Only the first
    /// hash-length bytes are kept; shorter input is zero-padded. A hash no suite uses is
    /// [`ApiMisuse::BadConfig`].
    pub fn from_slice(alg: HashAlg, s: &[u8]) -> Result<Self, Error> {
        Ok(Self::for_suite(SuiteHash::new(alg)?, s))
    }

    pub(crate) fn for_suite(alg: SuiteHash, s: &[u8]) -> Self {
        let mut bytes = [0; MAX_HASH_LEN];
        let n = s.len().min(alg.output_len());
        bytes[..n].copy_from_slice(&s[..n]);
        Self { alg, bytes }
    }

    /// The hash this secret belongs to.
    pub fn alg(&self) -> HashAlg {
        self.alg.alg()
    }

    pub(crate) fn suite_hash(&self) -> SuiteHash {
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
    /// Over SHA-384 (with the `sha384` feature).
    #[cfg(feature = "sha384")]
    Sha384(Sha384),
}

impl Transcript {
    /// An empty transcript; a hash no suite uses is [`ApiMisuse::BadConfig`].
    pub fn new(alg: HashAlg) -> Result<Self, Error> {
        Ok(Self::for_suite(SuiteHash::new(alg)?))
    }

    pub(crate) fn for_suite(alg: SuiteHash) -> Self {
        match alg {
            SuiteHash::Sha256 => Self::Sha256(Sha256::new()),
            #[cfg(feature = "sha384")]
            SuiteHash::Sha384 => Self::Sha384(Sha384::new()),
        }
    }

    /// The hash it runs.
    pub fn alg(&self) -> HashAlg {
        self.suite_hash().alg()
    }

    pub(crate) fn suite_hash(&self) -> SuiteHash {
        match self {
            Self::Sha256(_) => SuiteHash::Sha256,
            #[cfg(feature = "sha384")]
            Self::Sha384(_) => SuiteHash::Sha384,
        }
    }

    /// Adds a whole handshake message (header included).
    pub fn update(&mut self, msg: &[u8]) {
        match self {
            Self::Sha256(h) => h.update(msg),
            #[cfg(feature = "sha384")]
            Self::Sha384(h) => h.update(msg),
        }
    }

    /// The hash of everything added so far; the transcript keeps running.
    pub fn current(&self) -> Digest {
        match self {
            Self::Sha256(h) => Digest::from_hash(h.clone().finalize().as_ref()),
            #[cfg(feature = "sha384")]
            Self::Sha384(h) => Digest::from_hash(h.clone().finalize().as_ref()),
        }
    }

    /// Replaces ClientHello1 by the synthetic `message_hash` message after a
    /// HelloRetryRequest (RFC 8446 §4.4.1).
    pub fn restart_for_retry(&mut self) {
        let ch1 = self.current();
        *self = Self::for_suite(self.suite_hash());
        self.update(&[254, 0, 0, ch1.len]);
        self.update(ch1.as_ref());
    }
}

/// The TLS 1.2 PRF and its secrets (master secret, extended master secret, key block,
/// Finished, exporter), not yet wired into a connection.
#[cfg(feature = "tls12")]
pub mod tls12;
pub(crate) mod tls13;
