//! Raw public keys (RFC 7250) in TLS 1.3: a peer authenticates with a bare DER
//! SubjectPublicKeyInfo that the other side knows by value (pinned), and no X.509 path is
//! built. The `server_certificate_type` and `client_certificate_type` extensions negotiate it
//! (§4); a Certificate then carries one entry, the SPKI (§3), and the CertificateVerify is
//! checked with that key through the same verifiers and scheme table as a certificate's
//! ([`crate::verify::SUPPORTED_SCHEMES`]), so nothing of `rustls-webpki` is linked for it:
//! the point for a device that pins its server's key.
//!
//! ```
//! # use tls::{ClientConfig, rpk::PinnedKeys};
//! // The server's SubjectPublicKeyInfo, as `openssl pkey -pubout -outform DER` writes it.
//! let server_spki: &[u8] = &[0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
//!     0xd7, 0x5a, 0x98, 0x01, 0x82, 0xb1, 0x0a, 0xb7, 0xd5, 0x4b, 0xfe, 0xd3, 0xc9, 0x64, 0x07, 0x3a,
//!     0x0e, 0xe1, 0x72, 0xf3, 0xda, 0xa6, 0x23, 0x25, 0xaf, 0x02, 0x1a, 0x68, 0xf7, 0x07, 0x51, 0x1a];
//! let pins = [server_spki];
//! let config = ClientConfig {
//!     // Only this key: no roots, TLS 1.3 only, no certificate accepted.
//!     server_keys: Some(&PinnedKeys::only(&pins)),
//!     ..ClientConfig::new(&[], &tls::SystemClock)
//! };
//! # let _ = config;
//! ```
//!
//! A server offers its key beside (or instead of) its chains with
//! [`ServerConfig::raw_key`](crate::ServerConfig::raw_key), and pins its clients' keys with
//! [`ClientAuth::raw_keys`](crate::ClientAuth::raw_keys); a client answers a server that
//! asks for a raw key with [`ClientConfig::client_raw_key`](crate::ClientConfig).

use pki_types::SignatureVerificationAlgorithm;
use subtle::ConstantTimeEq;

use crate::der;
use crate::error::{CertificateError, Error, PeerMisbehaved};
use crate::msgs::{CertificateType, SignatureScheme};
use crate::provider::Signer;

/// Our own raw public key: the DER SubjectPublicKeyInfo a peer pins, and the private key
/// that signs our CertificateVerify with it.
#[derive(Clone, Copy, Debug)]
pub struct RawKey<'a> {
    /// The DER SubjectPublicKeyInfo sent in our Certificate.
    pub spki: &'a [u8],
    /// Its private key: a [`SigningKey`](crate::SigningKey) or a user's [`Signer`].
    pub key: &'a dyn Signer,
}

/// The raw public keys a peer may authenticate with, each a DER SubjectPublicKeyInfo
/// compared byte for byte (in constant time) with what the peer sends.
#[derive(Clone, Copy, Debug)]
pub struct PinnedKeys<'a> {
    /// The pinned SubjectPublicKeyInfos (DER).
    pub keys: &'a [&'a [u8]],
    /// Whether the peer may present an X.509 certificate instead (offered after the raw key,
    /// and checked as without pins: by the roots or the verifier). `false`: raw keys only,
    /// so a peer without RFC 7250 is refused with `unsupported_certificate`, and a client
    /// offers TLS 1.3 only.
    pub allow_x509: bool,
}

impl<'a> PinnedKeys<'a> {
    /// Raw keys only: the peer must present one of `keys`.
    pub const fn only(keys: &'a [&'a [u8]]) -> Self {
        Self { keys, allow_x509: false }
    }

    /// One of `keys`, or else an X.509 certificate checked as usual.
    pub const fn or_x509(keys: &'a [&'a [u8]]) -> Self {
        Self { keys, allow_x509: true }
    }

    /// Whether the pins are valid: at least one, none empty.
    pub(crate) fn is_valid(&self) -> bool {
        !self.keys.is_empty() && self.keys.iter().all(|k| !k.is_empty())
    }

    /// Whether the pins can authenticate a peer: valid, and with a signature scheme built in
    /// (the `ed25519`, `ecdsa`, `rsa` features) to check its CertificateVerify with.
    pub(crate) fn is_usable(&self) -> bool {
        self.is_valid() && !crate::verify::SUPPORTED_SCHEMES.is_empty()
    }

    /// The certificate types we accept, in order of preference, for the peer's extension.
    pub(crate) fn types(&self) -> &'static [CertificateType] {
        if self.allow_x509 {
            &[CertificateType::RAW_PUBLIC_KEY, CertificateType::X509]
        } else {
            &[CertificateType::RAW_PUBLIC_KEY]
        }
    }

    /// Whether `spki` is one of the pinned keys: each compared in constant time (lengths
    /// are public), every pin looked at.
    pub(crate) fn holds(&self, spki: &[u8]) -> bool {
        let mut found = subtle::Choice::from(0);
        for pin in self.keys {
            found |= pin.ct_eq(spki);
        }
        found.into()
    }
}

/// The certificate type a side takes from a peer's list `offered` (in the peer's order of
/// preference; `None`: the peer sent no extension, so X.509, RFC 7250 §4.2), when it can do
/// X.509 (`x509`) and/or raw keys (`raw`). No type in common is
/// [`PeerIncompatible::NoCommonCertificateType`](crate::error::PeerIncompatible::NoCommonCertificateType) (`unsupported_certificate`).
#[cfg(feature = "server")]
pub(crate) fn choose_type(
    offered: Option<impl IntoIterator<Item = CertificateType>>,
    x509: bool,
    raw: bool,
) -> Result<CertificateType, Error> {
    use crate::error::PeerIncompatible;
    let ours = |t: &CertificateType| {
        (*t == CertificateType::X509 && x509) || (*t == CertificateType::RAW_PUBLIC_KEY && raw)
    };
    match offered {
        None if x509 => Ok(CertificateType::X509),
        None => Err(PeerIncompatible::NoCommonCertificateType.into()),
        Some(l) => l.into_iter().find(ours).ok_or(PeerIncompatible::NoCommonCertificateType.into()),
    }
}

/// Checks a peer's raw public key `spki` (the one entry of its Certificate) against `pins`
/// ([`CertificateError::UnknownRawKey`], `bad_certificate`, when it is none of them), then its
/// CertificateVerify signature `sig` with `scheme` over `message` by that key.
pub(crate) fn verify(
    spki: &[u8],
    pins: &PinnedKeys<'_>,
    scheme: SignatureScheme,
    message: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    if !pins.holds(spki) {
        return Err(Error::InvalidCertificate(CertificateError::UnknownRawKey));
    }
    verify_signature(spki, scheme, message, sig)
}

/// Checks a TLS 1.3 CertificateVerify signature `sig` with `scheme` over `message` by the key
/// of the DER SubjectPublicKeyInfo `spki` (RFC 8446 §4.4.3, RFC 7250 §3): the scheme's
/// verifier of [`crate::verify::SUPPORTED_SCHEMES`] if the key's algorithm is the one it
/// verifies (an `rsa_pss_pss_*` scheme also takes an RSASSA-PSS key restricted to its hash).
/// A scheme we do not verify is [`PeerMisbehaved::SelectedUnofferedParameter`]; a key of
/// another algorithm, or a bad signature, [`PeerMisbehaved::BadSignature`]; an SPKI that is
/// not DER, [`CertificateError::BadEncoding`].
pub fn verify_signature(
    spki: &[u8],
    scheme: SignatureScheme,
    message: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    const SEQUENCE: u8 = 0x30;
    let bad_der = Error::InvalidCertificate(CertificateError::BadEncoding);
    let Some((SEQUENCE, body, [])) = der::element(spki) else { return Err(bad_der) };
    let Some((SEQUENCE, alg_id, rest)) = der::element(body) else { return Err(bad_der) };
    // subjectPublicKey BIT STRING, whole bytes only.
    let Some((0x03, [0, key @ ..], [])) = der::element(rest) else { return Err(bad_der) };
    let alg = crate::verify::SUPPORTED_SCHEMES
        .iter()
        .find(|(s, _)| *s == scheme)
        .map(|(_, a)| *a)
        .ok_or(PeerMisbehaved::SelectedUnofferedParameter)?;
    let restricted = crate::verify::restricted_pss(scheme);
    let key_is = |a: &dyn SignatureVerificationAlgorithm| *a.public_key_alg_id() == *alg_id;
    let alg = if key_is(alg) { Some(alg) } else { restricted.filter(|a| key_is(*a)) };
    match alg {
        Some(alg) if alg.verify_signature(key, message, sig).is_ok() => Ok(()),
        _ => Err(PeerMisbehaved::BadSignature.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::PinnedKeys;
    #[cfg(feature = "server")]
    use super::choose_type;
    use crate::client::tls13::client_certificate_types;
    use crate::config::ClientConfig;
    use crate::error::{Error, PeerIncompatible};
    use crate::msgs::InvalidMessage::{IllegalValue, UnexpectedExtension};
    use crate::msgs::{CertificateType as T, EncryptedExtensions};

    const NONE: Error = Error::PeerIncompatible(PeerIncompatible::NoCommonCertificateType);
    static CLOCK: pki_types::UnixTime =
        pki_types::UnixTime::since_unix_epoch(core::time::Duration::ZERO);

    #[cfg(feature = "server")]
    #[test]
    fn the_first_type_both_sides_have_is_chosen() {
        let (raw, x509) = (T::RAW_PUBLIC_KEY, T::X509);
        assert_eq!(choose_type(Some([raw, x509]), true, true), Ok(raw));
        assert_eq!(choose_type(Some([x509, raw]), true, true), Ok(x509));
        assert_eq!(choose_type(Some([T(1), raw]), false, true), Ok(raw));
        assert_eq!(choose_type(Some([raw]), true, false), Err(NONE));
        assert_eq!(choose_type(Some([x509]), false, true), Err(NONE));
        // Without the extension: X.509, if we have it.
        assert_eq!(choose_type(None::<[T; 0]>, true, false), Ok(x509));
        assert_eq!(choose_type(None::<[T; 0]>, false, true), Err(NONE));
    }

    #[test]
    fn pins_match_whole_keys_only() {
        let pins = PinnedKeys::only(&[b"key one", b"key two"]);
        assert!(pins.holds(b"key one") && pins.holds(b"key two"));
        assert!(!pins.holds(b"key") && !pins.holds(b"key one!") && !pins.holds(b""));
        assert!(pins.is_valid());
        assert!(!PinnedKeys::only(&[]).is_valid() && !PinnedKeys::or_x509(&[b""]).is_valid());
    }

    /// The client's checks of the types in EncryptedExtensions (RFC 7250 §4.2), including the
    /// answers our server never sends.
    #[test]
    fn server_type_answers_are_checked() {
        let pin: &[u8] = b"spki";
        let only = ClientConfig {
            server_keys: Some(&PinnedKeys { keys: core::slice::from_ref(&pin), allow_x509: false }),
            ..ClientConfig::new(&[], &CLOCK)
        };
        let plain = ClientConfig::new(&[], &CLOCK);
        let ee = |server, client| EncryptedExtensions {
            server_certificate_type: server,
            client_certificate_type: client,
            ..EncryptedExtensions::default()
        };
        let raw = Some(T::RAW_PUBLIC_KEY);
        assert_eq!(client_certificate_types(&only, &ee(raw, None), false), Ok((true, false)));
        // A server that ignored the extension sends X.509: refused, unless a PSK spares it.
        assert_eq!(client_certificate_types(&only, &ee(None, None), false), Err(NONE));
        assert_eq!(client_certificate_types(&only, &ee(None, None), true), Ok((false, false)));
        // A type we did not list, answers to extensions we did not send.
        let x509 = Some(T::X509);
        assert_eq!(
            client_certificate_types(&only, &ee(x509, None), false),
            Err(IllegalValue.into())
        );
        let unsent = Err(UnexpectedExtension.into());
        assert_eq!(client_certificate_types(&only, &ee(raw, raw), false), unsent);
        assert_eq!(client_certificate_types(&plain, &ee(x509, None), false), unsent);
        assert_eq!(client_certificate_types(&plain, &ee(None, None), false), Ok((false, false)));
    }
}
