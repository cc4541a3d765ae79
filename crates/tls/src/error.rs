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
    /// a handshake message spanned a key change or followed the end of the peer's flight in
    /// its record.
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
    /// More empty application-data records in a row than [`crate::conn::MAX_EMPTY_RECORDS`].
    TooManyEmptyRecords,
    /// More KeyUpdates with no application data in between than
    /// [`crate::conn::MAX_KEY_UPDATES`].
    TooManyKeyUpdates,
    /// More warning alerts (user_canceled, or in TLS 1.2 any warning) with no application
    /// data in between than [`crate::conn::MAX_USER_CANCELED`].
    TooManyWarningAlerts,
    /// A TLS 1.2 peer's renegotiation_info was not empty on the initial handshake (RFC 5746
    /// §3.4, §3.6): it claims a previous connection this one never had.
    RenegotiationInfoNotEmpty,
    /// A client retrying with a lower version (its ClientHello carries
    /// `TLS_FALLBACK_SCSV`, RFC 7507) reached a server that speaks a higher one: the first
    /// attempt was interfered with, and the connection ends with inappropriate_fallback.
    InappropriateFallback,
}

/// The peer and we share no way to talk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PeerIncompatible {
    /// The peer does not support TLS 1.3: it offered or chose no TLS 1.3, claimed SSL 3.0
    /// in its hello (RFC 8446 Appendix D.5), or (to a client that offered TLS 1.3 only)
    /// refused the ClientHello with a protocol_version alert.
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
    /// A TLS 1.2 peer did not offer (client) or agree to (server) the extended master secret
    /// (RFC 7627), which Halite requires: without it a handshake's keys are not bound to its
    /// transcript.
    NoExtendedMasterSecret,
    /// A TLS 1.2 server resumed a CBC session with encrypt_then_mac (RFC 7366) where the
    /// session had none, or the reverse: §3.1 binds the choice to the session
    /// (handshake_failure).
    EncryptThenMacChanged,
    /// A TLS 1.2 server sent no `renegotiation_info` (RFC 5746): it may be open to the
    /// renegotiation attack, and Halite requires the extension.
    NoSecureRenegotiation,
    /// A TLS 1.2 peer asked to renegotiate (a server's HelloRequest, a client's ClientHello
    /// after the handshake), which Halite refuses: the connection ends with a fatal
    /// `no_renegotiation` alert.
    Renegotiation,
    /// No protocol version in common (protocol_version): a server that accepts TLS 1.2 found
    /// none it accepts among the client's (SSL 3.0, TLS 1.0 or 1.1 only, or TLS 1.3 only to
    /// a TLS 1.2-only server), or a client that offered TLS 1.2 got an older version or a
    /// protocol_version alert in answer to its ClientHello.
    NoCommonVersion,
    /// No certificate type in common (RFC 7250 §4.2, `unsupported_certificate`): the peer
    /// lists only raw public keys where we have (or accept) only X.509, or the reverse, or
    /// it does not know RFC 7250 and we accept raw keys only.
    NoCommonCertificateType,
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

/// Why a certificate chain was refused: `rustls-webpki`'s cause, kept so the caller (and
/// the alert, RFC 8446 §6.2) can tell an unknown CA from an expired or misused certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CertificateError {
    /// The chain does not lead to a trusted root.
    UnknownIssuer,
    /// The certificate is not valid for the server name.
    NotValidForName,
    /// A certificate in the chain has expired.
    Expired,
    /// A certificate in the chain is not valid yet.
    NotYetValid,
    /// A CA certificate (basicConstraints CA:TRUE) was presented as the end entity.
    CaUsedAsEndEntity,
    /// An end-entity certificate was used to sign another certificate.
    EndEntityUsedAsCa,
    /// The certificate's extended key usage does not allow this role (a server certificate
    /// presented by a client, say).
    InvalidPurpose,
    /// A signature in the chain did not verify.
    BadSignature,
    /// A certificate is signed with an algorithm we do not verify, or one its issuer's key
    /// type cannot make.
    UnsupportedSignatureAlgorithm,
    /// A certificate carries a critical extension we do not understand.
    UnhandledCriticalExtension,
    /// A name or path-length constraint of a CA in the chain is violated.
    ConstraintViolated,
    /// The peer sent more certificates than we accept
    /// ([`MAX_INTERMEDIATES`](crate::verify::MAX_INTERMEDIATES) intermediates), or no path
    /// was found within the search limits.
    ChainTooLong,
    /// A certificate is not well-formed DER or X.509.
    BadEncoding,
    /// Any other reason the chain was refused.
    BadCertificate,
    /// The peer sent no certificate.
    NoCertificate,
    /// The end-entity certificate has a keyUsage extension without digitalSignature, so its
    /// key may not sign a CertificateVerify (RFC 5280 §4.2.1.3, RFC 8446 §4.4.2.4).
    KeyUsageForbidsSigning,
    /// This build checks no certificates (`tls` without its `x509` feature): only an
    /// external PSK authenticates the peer.
    NotBuiltIn,
    /// The peer's raw public key (RFC 7250) is none of the pinned ones
    /// ([`PinnedKeys`](crate::rpk::PinnedKeys)), or its Certificate does not hold exactly one.
    UnknownRawKey,
}

impl fmt::Display for CertificateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::UnknownIssuer => "it does not chain to a trusted root",
            Self::NotValidForName => "it is not valid for the server name",
            Self::Expired => "it has expired",
            Self::NotYetValid => "it is not valid yet",
            Self::CaUsedAsEndEntity => "a CA certificate was presented as the end entity",
            Self::EndEntityUsedAsCa => "an end-entity certificate was used as a CA",
            Self::InvalidPurpose => "its extended key usage does not allow this role",
            Self::BadSignature => "a signature in the chain did not verify",
            Self::UnsupportedSignatureAlgorithm => {
                "it is signed with an algorithm that is not supported"
            }
            Self::UnhandledCriticalExtension => "it has a critical extension that is not supported",
            Self::ConstraintViolated => "a name or path-length constraint is violated",
            Self::ChainTooLong => "the chain is too long",
            Self::BadEncoding => "it is not well-formed",
            Self::BadCertificate => "the chain is not valid",
            Self::NoCertificate => "the peer sent no certificate",
            Self::KeyUsageForbidsSigning => "its key usage does not allow signing",
            Self::NotBuiltIn => "this build checks no certificates",
            Self::UnknownRawKey => "the raw public key is not a pinned one",
        })
    }
}

/// Why a private key was refused when it was loaded
/// ([`SigningKey::from_pkcs8_der`](crate::SigningKey::from_pkcs8_der) and `_pem`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyError {
    /// The text has no `PRIVATE KEY` (PKCS#8) PEM block.
    NoPemBlock,
    /// The text has a PEM block of another kind: `RSA PRIVATE KEY` (PKCS#1) or
    /// `EC PRIVATE KEY` (SEC1), to be converted with `openssl pkcs8 -topk8 -nocrypt`, or an
    /// `ENCRYPTED PRIVATE KEY`, to be decrypted first.
    NotPkcs8Pem,
    /// The PEM block's base64 is malformed.
    BadBase64,
    /// The scratch buffer is too small for the decoded key: it must hold `needed` bytes.
    ScratchTooSmall {
        /// The decoded key's length.
        needed: usize,
    },
    /// The DER is not a well-formed PKCS#8 `PrivateKeyInfo`, or the key inside it is not.
    BadEncoding,
    /// The key's algorithm (or curve) is not one we sign with: Ed25519, ECDSA P-256/P-384,
    /// RSA, RSASSA-PSS and (with the `mldsa` feature) ML-DSA are.
    UnsupportedAlgorithm,
    /// An RSA modulus outside 2048 bits to `core_rsa::MAX_BITS`.
    UnsupportedKeySize,
    /// RSASSA-PSS key parameters TLS cannot sign with (RFC 8446 §4.2.3 needs MGF1 with the
    /// message hash and a salt as long as the hash).
    UnsupportedPssParameters,
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoPemBlock => f.write_str("there is no PRIVATE KEY (PKCS#8) PEM block"),
            Self::NotPkcs8Pem => f.write_str(
                "the PEM block is not an unencrypted PKCS#8 PRIVATE KEY (convert PKCS#1 or SEC1 \
                 keys with `openssl pkcs8 -topk8 -nocrypt`)",
            ),
            Self::BadBase64 => f.write_str("the PEM block's base64 is malformed"),
            Self::ScratchTooSmall { needed } => {
                write!(f, "the scratch buffer is too small: the key needs {needed} bytes")
            }
            Self::BadEncoding => f.write_str("the key is not well-formed PKCS#8 DER"),
            Self::UnsupportedAlgorithm => f.write_str(
                "the key's algorithm is not supported (Ed25519, ECDSA P-256/P-384, RSA, \
                 RSASSA-PSS and ML-DSA are)",
            ),
            Self::UnsupportedKeySize => {
                write!(f, "the RSA key size is not supported (2048 to {} bits)", core_rsa::MAX_BITS)
            }
            Self::UnsupportedPssParameters => f.write_str(
                "the RSASSA-PSS key's parameters cannot sign TLS 1.3 (MGF1 must use the \
                 message hash, and the salt be as long as the hash)",
            ),
        }
    }
}

/// One of a connection's buffers, or the caller's, as named by [`Error::BufferTooSmall`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BufferKind {
    /// [`Buffers::received`](crate::Buffers::received): it must hold one whole record.
    Received,
    /// [`Buffers::send`](crate::Buffers::send): it must hold a whole flight.
    Send,
    /// [`Buffers::handshake`](crate::Buffers::handshake): it must hold the largest handshake
    /// message pair.
    Handshake,
    /// The output buffer passed to the call.
    Output,
}

impl fmt::Display for BufferKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Received => "receive",
            Self::Send => "send",
            Self::Handshake => "handshake",
            Self::Output => "output",
        })
    }
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
    /// A configuration lists a TLS 1.2 CBC suite (`cbc` feature) without setting
    /// `enable_cbc`: they are off unless asked for twice, since CBC records are open to
    /// padding-oracle and timing attacks (Lucky Thirteen) where a peer has no
    /// encrypt_then_mac (RFC 7366).
    CbcNotEnabled,
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
    BufferTooSmall {
        /// Which buffer.
        buffer: BufferKind,
        /// How many bytes it must hold at least for this record or message.
        needed: usize,
    },
    /// A private key was refused when it was loaded.
    InvalidKey(KeyError),
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
                | PeerMisbehaved::TooMuchEarlyData
                | PeerMisbehaved::TooManyEmptyRecords
                | PeerMisbehaved::TooManyKeyUpdates
                | PeerMisbehaved::TooManyWarningAlerts => AlertDescription::UNEXPECTED_MESSAGE,
                PeerMisbehaved::SelectedUnofferedParameter
                | PeerMisbehaved::InvalidKeyShare
                | PeerMisbehaved::DowngradeDetected
                | PeerMisbehaved::UselessRetryRequest => AlertDescription::ILLEGAL_PARAMETER,
                PeerMisbehaved::BadFinished
                | PeerMisbehaved::BadSignature
                | PeerMisbehaved::BadPskBinder => AlertDescription::DECRYPT_ERROR,
                PeerMisbehaved::RenegotiationInfoNotEmpty => AlertDescription::HANDSHAKE_FAILURE,
                PeerMisbehaved::InappropriateFallback => AlertDescription::INAPPROPRIATE_FALLBACK,
            },
            Self::PeerIncompatible(
                PeerIncompatible::NoTls13 | PeerIncompatible::NoCommonVersion,
            ) => AlertDescription::PROTOCOL_VERSION,
            Self::PeerIncompatible(PeerIncompatible::Renegotiation) => {
                AlertDescription::NO_RENEGOTIATION
            }
            Self::PeerIncompatible(PeerIncompatible::NoCommonAlpn) => {
                AlertDescription::NO_APPLICATION_PROTOCOL
            }
            Self::PeerIncompatible(PeerIncompatible::UnknownPskIdentity) => {
                AlertDescription::UNKNOWN_PSK_IDENTITY
            }
            Self::PeerIncompatible(PeerIncompatible::NoCommonCertificateType) => {
                AlertDescription::UNSUPPORTED_CERTIFICATE
            }
            Self::PeerIncompatible(_) => AlertDescription::HANDSHAKE_FAILURE,
            Self::InvalidCertificate(c) => match c {
                CertificateError::UnknownIssuer => AlertDescription::UNKNOWN_CA,
                // RFC 8446 §6.2: "has expired or is not currently valid".
                CertificateError::Expired | CertificateError::NotYetValid => {
                    AlertDescription::CERTIFICATE_EXPIRED
                }
                CertificateError::InvalidPurpose
                | CertificateError::UnhandledCriticalExtension
                | CertificateError::KeyUsageForbidsSigning
                | CertificateError::NotBuiltIn => AlertDescription::UNSUPPORTED_CERTIFICATE,
                CertificateError::NoCertificate => AlertDescription::CERTIFICATE_REQUIRED,
                _ => AlertDescription::BAD_CERTIFICATE,
            },
            Self::DecryptFailed => AlertDescription::BAD_RECORD_MAC,
            Self::RecordOverflow => AlertDescription::RECORD_OVERFLOW,
            // A buffer too small for what the peer sent (a ClientHello longer than the
            // handshake buffer, say) still ends with an alert rather than a silent close.
            Self::SequenceExhausted | Self::RandomFailed | Self::BufferTooSmall { .. } => {
                AlertDescription::INTERNAL_ERROR
            }
            Self::AlertReceived(_) | Self::ApiMisuse(_) | Self::InvalidKey(_) => return None,
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

impl Error {
    /// [`Error::BufferTooSmall`] for `buffer`, which must hold `needed` bytes.
    pub(crate) const fn too_small(buffer: BufferKind, needed: usize) -> Self {
        Self::BufferTooSmall { buffer, needed }
    }
}

impl From<KeyError> for Error {
    fn from(e: KeyError) -> Self {
        Self::InvalidKey(e)
    }
}

impl fmt::Display for PeerMisbehaved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::UnexpectedMessage => "it sent a message the handshake does not expect here",
            Self::SelectedUnofferedParameter => {
                "it selected a suite, group, version or scheme that was not offered"
            }
            Self::InvalidKeyShare => "its key share is not a valid public key",
            Self::BadFinished => "its Finished message did not verify",
            Self::BadSignature => "its CertificateVerify signature did not verify",
            Self::InterleavedOrUnalignedRecords => {
                "it interleaved records with a fragmented handshake message, or split one \
                 across a key change"
            }
            Self::EmptyRecord => "it sent an empty record",
            Self::DowngradeDetected => "its ServerHello carries a downgrade sentinel",
            Self::BadPskBinder => "its PSK binder did not verify",
            Self::UselessRetryRequest => {
                "its HelloRetryRequest asks for nothing that would change the ClientHello"
            }
            Self::TooMuchEarlyData => {
                "it sent more early data than a server that declines it skips"
            }
            Self::TooManyEmptyRecords => {
                "it sent too many empty records in a row, with no application data"
            }
            Self::TooManyKeyUpdates => {
                "it sent too many KeyUpdates with no application data in between"
            }
            Self::TooManyWarningAlerts => {
                "it sent too many warning alerts with no application data in between"
            }
            Self::RenegotiationInfoNotEmpty => {
                "its renegotiation_info names a previous connection on an initial handshake"
            }
            Self::InappropriateFallback => {
                "it fell back to a lower version than both sides speak (TLS_FALLBACK_SCSV)"
            }
        })
    }
}

impl fmt::Display for PeerIncompatible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoTls13 => "the peer does not support TLS 1.3",
            Self::NoCommonSuite => "no cipher suite in common",
            Self::NoCommonGroup => "no key-exchange group in common",
            Self::NoCommonSignatureScheme => {
                "no signature scheme in common (or the certificate's key type is not supported)"
            }
            Self::NoCommonAlpn => "no ALPN protocol in common",
            Self::UnknownPskIdentity => "none of the client's PSK identities is known",
            Self::NoExtendedMasterSecret => {
                "the TLS 1.2 peer does not support extended_master_secret"
            }
            Self::EncryptThenMacChanged => {
                "the TLS 1.2 server resumed a session without its encrypt_then_mac choice"
            }
            Self::NoSecureRenegotiation => "the TLS 1.2 peer sent no renegotiation_info",
            Self::Renegotiation => "the peer asked to renegotiate, which is refused",
            Self::NoCommonVersion => "no protocol version in common",
            Self::NoCommonCertificateType => {
                "no certificate type (X.509, raw public key) in common"
            }
            Self::NoSchemeInCommon { ours, theirs } => {
                return write!(
                    f,
                    "no signature scheme in common: the peer offered {theirs}; our certificates \
                     sign with {ours}"
                );
            }
        })
    }
}

impl fmt::Display for ApiMisuse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::HandshakeNotComplete => "the handshake has not completed yet",
            Self::Closed => "the connection is already closed or failed",
            Self::BadConfig => "a configuration value is not usable",
            Self::CbcNotEnabled => "a CBC suite is listed without enable_cbc",
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidMessage(e) => write!(f, "a message from the peer is invalid: {e}"),
            Self::PeerMisbehaved(e) => write!(f, "the peer broke the protocol: {e}"),
            // These two say it whole.
            Self::PeerIncompatible(
                e @ (PeerIncompatible::NoTls13 | PeerIncompatible::NoSchemeInCommon { .. }),
            ) => write!(f, "{e}"),
            Self::PeerIncompatible(e) => write!(f, "the peer is incompatible: {e}"),
            Self::InvalidCertificate(e) => write!(f, "the peer's certificate was refused: {e}"),
            Self::DecryptFailed => f.write_str("a record from the peer failed authentication"),
            Self::RecordOverflow => f.write_str("a record from the peer is longer than allowed"),
            Self::AlertReceived(a) => {
                f.write_str("the peer sent a ")?;
                match a.name() {
                    // The registry name as the RFC spells it: `handshake_failure`.
                    Some(name) => {
                        for c in name.chars() {
                            write!(f, "{}", c.to_ascii_lowercase())?;
                        }
                    }
                    None => write!(f, "{}", a.0)?,
                }
                f.write_str(" alert")
            }
            Self::ApiMisuse(e) => write!(f, "API misuse: {e}"),
            Self::BufferTooSmall { buffer, needed } => {
                write!(f, "the {buffer} buffer is too small: it must hold {needed} bytes")
            }
            Self::InvalidKey(e) => write!(f, "the private key was refused: {e}"),
            Self::SequenceExhausted => {
                f.write_str("the record sequence number is exhausted; the connection must close")
            }
            Self::RandomFailed => f.write_str("the random source failed"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
