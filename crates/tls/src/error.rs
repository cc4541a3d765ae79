//! Typed errors that say whose fault a failure is — the peer misbehaved, the peer is
//! incompatible, a message was malformed, or the API was misused — and which alert, if any,
//! the connection sends when it aborts because of it.

use core::fmt;

use crate::msgs::{AlertDescription, InvalidMessage, SignatureScheme};

/// The peer sent something well-formed that the protocol does not allow here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PeerMisbehaved {
    /// A message arrived that the handshake state does not expect.
    UnexpectedMessage,
    /// The server picked a suite, group or version the client did not offer.
    SelectedUnofferedParameter,
    /// The key share is not a valid point (or gives an all-zero X25519 result).
    InvalidKeyShare,
    /// The Finished value did not verify.
    BadFinished,
    /// The CertificateVerify signature did not verify.
    BadSignature,
    /// Data of another content type was interleaved with a fragmented handshake message, or
    /// a handshake message spanned a key change.
    InterleavedOrUnalignedRecords,
    /// A record had no content type after padding, or an empty non-application record.
    EmptyRecord,
    /// A ServerHello carried a TLS 1.2/1.1 downgrade sentinel.
    DowngradeDetected,
    /// A PSK binder did not verify.
    BadPskBinder,
    /// A HelloRetryRequest asked for nothing that would change the ClientHello (no new
    /// group, no cookie).
    UselessRetryRequest,
    /// A client sent more early data than the server skips when it declines it
    /// ([`crate::conn::MAX_SKIPPED_EARLY_DATA`], RFC 8446 §4.2.10).
    TooMuchEarlyData,
}

/// The peer and we share no way to talk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PeerIncompatible {
    /// The peer does not support TLS 1.3: it offered or chose no TLS 1.3, claimed SSL 3.0
    /// in its hello (RFC 8446 Appendix D.5), or (to a client) refused the ClientHello with a
    /// protocol_version alert.
    NoTls13,
    /// No cipher suite in common.
    NoCommonSuite,
    /// No key-exchange group in common (and no retry possible).
    NoCommonGroup,
    /// No signature scheme in common, or the certificate's key type is not supported.
    NoCommonSignatureScheme,
    /// None of the signature schemes the peer offered can be used with our keys: what each
    /// side had (RFC 8446 §4.2.3).
    NoSchemeInCommon {
        /// The schemes our keys (for a server, its certificates' keys) sign with.
        ours: SchemeSet,
        /// The schemes the peer offered.
        theirs: SchemeSet,
    },
    /// No ALPN protocol in common.
    NoCommonAlpn,
    /// A server with only external PSKs found none it knows among the client's identities.
    UnknownPskIdentity,
}

/// A set of signature schemes in a fixed size, without an allocator: which of the schemes
/// of [`SchemeSet::KNOWN`] it holds, and how many others, so an error can say what a peer
/// offered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemeSet {
    known: u16,
    others: u16,
}

impl SchemeSet {
    /// The schemes a set names: those of the TLS 1.3 registry (RFC 8446 §4.2.3) and the
    /// legacy SHA-1 ones, with their registry names.
    pub const KNOWN: [(SignatureScheme, &'static str); 16] = [
        (SignatureScheme(0x0401), "rsa_pkcs1_sha256"),
        (SignatureScheme(0x0501), "rsa_pkcs1_sha384"),
        (SignatureScheme(0x0601), "rsa_pkcs1_sha512"),
        (SignatureScheme(0x0403), "ecdsa_secp256r1_sha256"),
        (SignatureScheme(0x0503), "ecdsa_secp384r1_sha384"),
        (SignatureScheme(0x0603), "ecdsa_secp521r1_sha512"),
        (SignatureScheme(0x0804), "rsa_pss_rsae_sha256"),
        (SignatureScheme(0x0805), "rsa_pss_rsae_sha384"),
        (SignatureScheme(0x0806), "rsa_pss_rsae_sha512"),
        (SignatureScheme(0x0807), "ed25519"),
        (SignatureScheme(0x0808), "ed448"),
        (SignatureScheme(0x0809), "rsa_pss_pss_sha256"),
        (SignatureScheme(0x080a), "rsa_pss_pss_sha384"),
        (SignatureScheme(0x080b), "rsa_pss_pss_sha512"),
        (SignatureScheme(0x0201), "rsa_pkcs1_sha1"),
        (SignatureScheme(0x0203), "ecdsa_sha1"),
    ];

    /// The set of `schemes` (repeats count once among the known, each time among others).
    pub fn new(schemes: impl IntoIterator<Item = SignatureScheme>) -> Self {
        let mut set = Self::default();
        for s in schemes {
            match Self::KNOWN.iter().position(|(k, _)| *k == s) {
                Some(i) => set.known |= 1 << i,
                None => set.others = set.others.saturating_add(1),
            }
        }
        set
    }

    /// The known schemes in the set, in the order of [`SchemeSet::KNOWN`].
    pub fn iter(&self) -> impl Iterator<Item = SignatureScheme> + '_ {
        Self::KNOWN.iter().enumerate().filter(|(i, _)| self.known >> i & 1 != 0).map(|(_, k)| k.0)
    }

    /// How many schemes outside [`SchemeSet::KNOWN`] the set had.
    pub fn others(&self) -> usize {
        usize::from(self.others)
    }
}

/// Lists the schemes by name: "ed25519, rsa_pss_rsae_sha256 and 2 others", or "none".
impl fmt::Display for SchemeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = Self::KNOWN.iter().enumerate().filter(|(i, _)| self.known >> i & 1 != 0);
        let count = names.clone().count();
        for (n, (_, (_, name))) in names.enumerate() {
            let sep = match n {
                0 => "",
                _ if n + 1 == count && self.others == 0 => " and ",
                _ => ", ",
            };
            write!(f, "{sep}{name}")?;
        }
        match (count, self.others) {
            (0, 0) => f.write_str("none"),
            (0, 1) => f.write_str("1 other"),
            (0, n) => write!(f, "{n} others"),
            (_, 0) => Ok(()),
            (_, 1) => f.write_str(" and 1 other"),
            (_, n) => write!(f, " and {n} others"),
        }
    }
}

/// Why a certificate chain was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CertificateError {
    /// The chain does not lead to a trusted root.
    UnknownIssuer,
    /// The certificate is not valid for the server name.
    NotValidForName,
    /// The certificate has expired or is not yet valid.
    Expired,
    /// A signature in the chain did not verify, or the chain is malformed.
    BadCertificate,
    /// The peer sent no certificate.
    NoCertificate,
}

/// The caller used the connection in a way it does not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ApiMisuse {
    /// Application data was written before the handshake finished.
    HandshakeNotComplete,
    /// The connection has already closed or failed.
    Closed,
    /// A configuration value is not usable (empty suite list, bad key).
    BadConfig,
}

/// Everything that can go wrong on a connection. Once one is returned the connection is
/// dead: every later call returns it again (the error is sticky).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A message from the peer did not parse.
    InvalidMessage(InvalidMessage),
    /// The peer broke the protocol.
    PeerMisbehaved(PeerMisbehaved),
    /// The peer shares no parameters with us.
    PeerIncompatible(PeerIncompatible),
    /// The peer's certificate was refused.
    InvalidCertificate(CertificateError),
    /// A record failed authentication; none of its plaintext was released.
    DecryptFailed,
    /// A record was longer than the protocol (or the negotiated limit) allows.
    RecordOverflow,
    /// The peer sent a fatal alert (or a warning other than close_notify).
    AlertReceived(AlertDescription),
    /// The API was misused.
    ApiMisuse(ApiMisuse),
    /// A caller-provided buffer is too small for the next record or message (the connection
    /// fails with an internal_error alert when it was receiving).
    BufferTooSmall,
    /// The record sequence number would wrap; the connection must be closed.
    SequenceExhausted,
    /// The random source failed.
    RandomFailed,
}

impl Error {
    /// The alert this error is answered with, if any.
    pub fn alert(&self) -> Option<AlertDescription> {
        Some(match self {
            Self::InvalidMessage(InvalidMessage::IllegalValue) => {
                AlertDescription::ILLEGAL_PARAMETER
            }
            Self::InvalidMessage(InvalidMessage::MissingExtension) => {
                AlertDescription::MISSING_EXTENSION
            }
            Self::InvalidMessage(InvalidMessage::UnexpectedExtension) => {
                AlertDescription::UNSUPPORTED_EXTENSION
            }
            Self::InvalidMessage(_) => AlertDescription::DECODE_ERROR,
            Self::PeerMisbehaved(p) => match p {
                PeerMisbehaved::UnexpectedMessage
                | PeerMisbehaved::InterleavedOrUnalignedRecords
                | PeerMisbehaved::EmptyRecord
                | PeerMisbehaved::TooMuchEarlyData => AlertDescription::UNEXPECTED_MESSAGE,
                PeerMisbehaved::SelectedUnofferedParameter
                | PeerMisbehaved::InvalidKeyShare
                | PeerMisbehaved::DowngradeDetected
                | PeerMisbehaved::UselessRetryRequest => AlertDescription::ILLEGAL_PARAMETER,
                PeerMisbehaved::BadFinished
                | PeerMisbehaved::BadSignature
                | PeerMisbehaved::BadPskBinder => AlertDescription::DECRYPT_ERROR,
            },
            Self::PeerIncompatible(PeerIncompatible::NoTls13) => AlertDescription::PROTOCOL_VERSION,
            Self::PeerIncompatible(PeerIncompatible::NoCommonAlpn) => {
                AlertDescription::NO_APPLICATION_PROTOCOL
            }
            Self::PeerIncompatible(PeerIncompatible::UnknownPskIdentity) => {
                AlertDescription::UNKNOWN_PSK_IDENTITY
            }
            Self::PeerIncompatible(_) => AlertDescription::HANDSHAKE_FAILURE,
            Self::InvalidCertificate(c) => match c {
                CertificateError::UnknownIssuer => AlertDescription::UNKNOWN_CA,
                CertificateError::NotValidForName | CertificateError::BadCertificate => {
                    AlertDescription::BAD_CERTIFICATE
                }
                CertificateError::Expired => AlertDescription::CERTIFICATE_EXPIRED,
                CertificateError::NoCertificate => AlertDescription::CERTIFICATE_REQUIRED,
            },
            Self::DecryptFailed => AlertDescription::BAD_RECORD_MAC,
            Self::RecordOverflow => AlertDescription::RECORD_OVERFLOW,
            // A buffer too small for what the peer sent (a ClientHello longer than the
            // handshake buffer, say) still ends with an alert rather than a silent close.
            Self::SequenceExhausted | Self::RandomFailed | Self::BufferTooSmall => {
                AlertDescription::INTERNAL_ERROR
            }
            Self::AlertReceived(_) | Self::ApiMisuse(_) => return None,
        })
    }
}

impl From<InvalidMessage> for Error {
    fn from(e: InvalidMessage) -> Self {
        Self::InvalidMessage(e)
    }
}

impl From<PeerMisbehaved> for Error {
    fn from(e: PeerMisbehaved) -> Self {
        Self::PeerMisbehaved(e)
    }
}

impl From<PeerIncompatible> for Error {
    fn from(e: PeerIncompatible) -> Self {
        Self::PeerIncompatible(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidMessage(e) => write!(f, "invalid message from peer: {e}"),
            Self::PeerMisbehaved(e) => write!(f, "peer misbehaved: {e:?}"),
            Self::PeerIncompatible(PeerIncompatible::NoTls13) => {
                f.write_str("the peer does not support TLS 1.3")
            }
            Self::PeerIncompatible(PeerIncompatible::NoSchemeInCommon { ours, theirs }) => write!(
                f,
                "no signature scheme in common: the peer offered {theirs}; our certificates \
                 sign with {ours}"
            ),
            Self::PeerIncompatible(e) => write!(f, "peer is incompatible: {e:?}"),
            Self::InvalidCertificate(e) => write!(f, "invalid peer certificate: {e:?}"),
            Self::DecryptFailed => f.write_str("record failed authentication"),
            Self::RecordOverflow => f.write_str("record too long"),
            Self::AlertReceived(a) => write!(f, "peer sent alert {a:?}"),
            Self::ApiMisuse(e) => write!(f, "API misuse: {e:?}"),
            Self::BufferTooSmall => f.write_str("buffer too small"),
            Self::SequenceExhausted => f.write_str("record sequence number exhausted"),
            Self::RandomFailed => f.write_str("random source failed"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
