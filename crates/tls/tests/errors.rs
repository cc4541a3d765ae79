//! Errors say what went wrong: `Display` writes a sentence (never a Debug name), key loading
//! says why a key was refused, certificate errors keep `rustls-webpki`'s cause, and
//! `BufferTooSmall` names the buffer and the size that works.

use core::time::Duration;

use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor, UnixTime};
use tls::msgs::{AlertDescription, InvalidMessage, SignatureScheme};
use tls::{
    ApiMisuse, BufferKind, Buffers, CertificateError, ClientConfig, Connection, Error, KeyError,
    PeerIncompatible, PeerMisbehaved, ServerConfig, SigningKey,
};

macro_rules! data {
    ($name:literal) => {
        include_bytes!(concat!("data/", $name)).as_slice()
    };
}

fn anchor(der: &'static [u8]) -> TrustAnchor<'static> {
    let der: &'static CertificateDer<'static> = Box::leak(Box::new(CertificateDer::from(der)));
    webpki::anchor_from_trusted_cert(der).unwrap()
}

/// Whether `s` reads as words: no CamelCase identifier (a Debug name such as `NoCommonAlpn`).
fn is_prose(s: &str) -> bool {
    s.split(|c: char| !c.is_alphanumeric() && c != '_').all(|w| {
        let upper = w.chars().filter(char::is_ascii_uppercase).count();
        let lower = w.chars().filter(char::is_ascii_lowercase).count();
        // "TLS", "ALPN", "PSK", "CertificateVerify" and "ClientHello" are the protocol's
        // names; a Debug name of ours has two capitals or more and lower-case letters.
        ["CertificateVerify", "ClientHello", "HelloRetryRequest", "ServerHello"].contains(&w)
            || upper < 2
            || lower == 0
    })
}

#[test]
fn display_writes_a_sentence_for_every_variant() {
    let errors = [
        Error::InvalidMessage(InvalidMessage::Truncated),
        Error::PeerMisbehaved(PeerMisbehaved::UnexpectedMessage),
        Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter),
        Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare),
        Error::PeerMisbehaved(PeerMisbehaved::BadFinished),
        Error::PeerMisbehaved(PeerMisbehaved::BadSignature),
        Error::PeerMisbehaved(PeerMisbehaved::InterleavedOrUnalignedRecords),
        Error::PeerMisbehaved(PeerMisbehaved::EmptyRecord),
        Error::PeerMisbehaved(PeerMisbehaved::DowngradeDetected),
        Error::PeerMisbehaved(PeerMisbehaved::BadPskBinder),
        Error::PeerMisbehaved(PeerMisbehaved::UselessRetryRequest),
        Error::PeerIncompatible(PeerIncompatible::NoTls13),
        Error::PeerIncompatible(PeerIncompatible::NoCommonSuite),
        Error::PeerIncompatible(PeerIncompatible::NoCommonGroup),
        Error::PeerIncompatible(PeerIncompatible::NoCommonSignatureScheme),
        Error::PeerIncompatible(PeerIncompatible::NoCommonAlpn),
        Error::PeerIncompatible(PeerIncompatible::UnknownPskIdentity),
        Error::InvalidCertificate(CertificateError::UnknownIssuer),
        Error::InvalidCertificate(CertificateError::NotValidForName),
        Error::InvalidCertificate(CertificateError::Expired),
        Error::InvalidCertificate(CertificateError::NotYetValid),
        Error::InvalidCertificate(CertificateError::CaUsedAsEndEntity),
        Error::InvalidCertificate(CertificateError::EndEntityUsedAsCa),
        Error::InvalidCertificate(CertificateError::InvalidPurpose),
        Error::InvalidCertificate(CertificateError::BadSignature),
        Error::InvalidCertificate(CertificateError::UnsupportedSignatureAlgorithm),
        Error::InvalidCertificate(CertificateError::UnhandledCriticalExtension),
        Error::InvalidCertificate(CertificateError::ConstraintViolated),
        Error::InvalidCertificate(CertificateError::ChainTooLong),
        Error::InvalidCertificate(CertificateError::BadEncoding),
        Error::InvalidCertificate(CertificateError::BadCertificate),
        Error::InvalidCertificate(CertificateError::NoCertificate),
        Error::DecryptFailed,
        Error::RecordOverflow,
        Error::AlertReceived(AlertDescription::HANDSHAKE_FAILURE),
        Error::AlertReceived(AlertDescription(200)),
        Error::ApiMisuse(ApiMisuse::HandshakeNotComplete),
        Error::ApiMisuse(ApiMisuse::Closed),
        Error::ApiMisuse(ApiMisuse::BadConfig),
        Error::BufferTooSmall { buffer: BufferKind::Received, needed: 16_645 },
        Error::BufferTooSmall { buffer: BufferKind::Send, needed: 1 },
        Error::BufferTooSmall { buffer: BufferKind::Handshake, needed: 1 },
        Error::BufferTooSmall { buffer: BufferKind::Output, needed: 1 },
        Error::InvalidKey(KeyError::NoPemBlock),
        Error::InvalidKey(KeyError::NotPkcs8Pem),
        Error::InvalidKey(KeyError::BadBase64),
        Error::InvalidKey(KeyError::ScratchTooSmall { needed: 1217 }),
        Error::InvalidKey(KeyError::BadEncoding),
        Error::InvalidKey(KeyError::UnsupportedAlgorithm),
        Error::InvalidKey(KeyError::UnsupportedKeySize),
        Error::InvalidKey(KeyError::UnsupportedPssParameters),
        Error::SequenceExhausted,
        Error::RandomFailed,
    ];
    let mut seen = std::collections::HashSet::new();
    for e in errors {
        let s = e.to_string();
        assert!(is_prose(&s), "{e:?} displays a Debug name: {s:?}");
        assert!(seen.insert(s.clone()), "{e:?} displays the same as another error: {s:?}");
    }
    let alpn = Error::PeerIncompatible(PeerIncompatible::NoCommonAlpn).to_string();
    assert_eq!(alpn, "the peer is incompatible: no ALPN protocol in common");
    let alert = Error::AlertReceived(AlertDescription::HANDSHAKE_FAILURE).to_string();
    assert_eq!(alert, "the peer sent a handshake_failure alert");
    let small = Error::BufferTooSmall { buffer: BufferKind::Received, needed: 16_645 };
    assert_eq!(small.to_string(), "the receive buffer is too small: it must hold 16645 bytes");
}

/// An Ed448 key (`openssl genpkey -algorithm ed448`): a valid PKCS#8 key of an algorithm we do
/// not sign with.
const ED448_PEM: &str = "-----BEGIN PRIVATE KEY-----
MEcCAQAwBQYDK2VxBDsEOdOI0qdszVe1jCEYxjhZ3Ifkgy5ZwCh8sceM+TgYf0+M
VJb+HJdVQ/ONrLHyaTzc20/GZmQapegrGA==
-----END PRIVATE KEY-----
";

/// A P-521 ECDSA key (`openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-521`): a
/// curve we do not sign with.
const P521_PEM: &str = "-----BEGIN PRIVATE KEY-----
MIHuAgEAMBAGByqGSM49AgEGBSuBBAAjBIHWMIHTAgEBBEIB4l4PrEQZp6Qwtp65
j5+Rk4cl5V5E1Z1J1ggsCVVtRkj+R2rEqA+tzqmU2iGCG8CaNLqD6vJh15pzkqVk
HLkA+FOhgYkDgYYABAA3BNB4PRbdPifVpge0Yr0FCMoypNR/MtiJSEky0yS5icW/
XeGOfY7yMrQA3a9IiWYlhbCywflu3mlpyAYStxLXcAAifhSk+PIBKoETl7eWtPIj
bWBWCDP53LRFvKl0xseplNtUAiVx6kacSd/Mza63ynsW6unjwfP3I/Li8j4LyMro
LA==
-----END PRIVATE KEY-----
";

fn key_error(r: Result<SigningKey, Error>) -> Error {
    r.map(|_| ()).unwrap_err()
}

#[test]
fn key_loading_says_why_a_key_is_refused() {
    let mut scratch = [0u8; 4096];
    let unsupported = Error::InvalidKey(KeyError::UnsupportedAlgorithm);
    assert_eq!(key_error(SigningKey::from_pkcs8_pem(ED448_PEM, &mut scratch)), unsupported);
    assert_eq!(key_error(SigningKey::from_pkcs8_pem(P521_PEM, &mut scratch)), unsupported);
    // A well-formed RSA key with one byte of its modulus changed is still RSA, but broken.
    let mut rsa = data!("server-rsa.key.der").to_vec();
    let bad = Error::InvalidKey(KeyError::BadEncoding);
    assert_eq!(key_error(SigningKey::from_pkcs8_der(&rsa[..rsa.len() - 1])), bad);
    rsa.push(0);
    assert_eq!(key_error(SigningKey::from_pkcs8_der(&rsa)), bad);
    assert_eq!(key_error(SigningKey::from_pkcs8_der(b"\x30\x03\x02\x01\x00")), bad);
    // The scratch buffer's needed size is exact: that many bytes work, one fewer does not.
    let pem = std::str::from_utf8(data!("server-rsa.key")).unwrap();
    let der_len = data!("server-rsa.key.der").len();
    let small = Error::InvalidKey(KeyError::ScratchTooSmall { needed: der_len });
    assert_eq!(key_error(SigningKey::from_pkcs8_pem(pem, &mut scratch[..100])), small);
    assert!(SigningKey::from_pkcs8_pem(pem, &mut scratch[..der_len]).is_ok());
    // Not PKCS#8 PEM: says so (and how to convert), rather than "no key".
    let pkcs1 = "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n";
    let not_pkcs8 = Error::InvalidKey(KeyError::NotPkcs8Pem);
    assert_eq!(key_error(SigningKey::from_pkcs8_pem(pkcs1, &mut scratch)), not_pkcs8);
    let none = Error::InvalidKey(KeyError::NoPemBlock);
    assert_eq!(key_error(SigningKey::from_pkcs8_pem("no key here", &mut scratch)), none);
    let b64 = "-----BEGIN PRIVATE KEY-----\nMEc!\n-----END PRIVATE KEY-----\n";
    let bad64 = Error::InvalidKey(KeyError::BadBase64);
    assert_eq!(key_error(SigningKey::from_pkcs8_pem(b64, &mut scratch)), bad64);
    // Every key type we sign with still loads.
    for der in [
        data!("server.key.der"),
        data!("server-p256.key.der"),
        data!("server-p384.key.der"),
        data!("server-rsa.key.der"),
    ] {
        assert!(SigningKey::from_pkcs8_der(der).is_ok());
    }
}

fn chain_error(ee: &[u8], roots: &[TrustAnchor<'_>], now: UnixTime) -> Error {
    // The chain is checked before the signature, so a dummy signature is never reached.
    tls::verify::verify_server(
        ee,
        &[],
        roots,
        "localhost",
        now,
        SignatureScheme::ED25519,
        b"",
        &[0; 64],
    )
    .unwrap_err()
}

#[test]
fn certificate_errors_keep_the_webpki_cause() {
    let roots = [anchor(data!("ca.der"))];
    let now = UnixTime::now();
    let cert = |e| Error::InvalidCertificate(e);
    assert_eq!(
        chain_error(data!("ca.der"), &roots, now),
        cert(CertificateError::CaUsedAsEndEntity)
    );
    let year_2300 = UnixTime::since_unix_epoch(Duration::from_secs(10_414_195_200));
    assert_eq!(
        chain_error(data!("server.der"), &roots, year_2300),
        cert(CertificateError::Expired)
    );
    let epoch = UnixTime::since_unix_epoch(Duration::ZERO);
    let not_yet = cert(CertificateError::NotYetValid);
    assert_eq!(chain_error(data!("server.der"), &roots, epoch), not_yet);
    // A client certificate (EKU clientAuth only) presented by a server.
    let p256_roots = [anchor(data!("ca-p256.der"))];
    let purpose = cert(CertificateError::InvalidPurpose);
    assert_eq!(chain_error(data!("client-p256.der"), &p256_roots, now), purpose);
    let garbage = cert(CertificateError::BadEncoding);
    assert_eq!(chain_error(b"\x30\x03\x02\x01\x00", &roots, now), garbage);
    // Each cause is answered with the alert RFC 8446 §6.2 names for it.
    assert_eq!(not_yet.alert(), Some(AlertDescription::CERTIFICATE_EXPIRED));
    assert_eq!(purpose.alert(), Some(AlertDescription::UNSUPPORTED_CERTIFICATE));
    let ca_as_ee = cert(CertificateError::CaUsedAsEndEntity);
    assert_eq!(ca_as_ee.alert(), Some(AlertDescription::BAD_CERTIFICATE));
}

/// Moves what `from` has to send into `to`, as far as `to` has room.
#[cfg(all(feature = "server", feature = "certificates"))]
fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
    while !from.pending_send().is_empty() {
        let space = to.receive_space();
        let n = from.pending_send().len().min(space.len());
        if n == 0 {
            break;
        }
        space[..n].copy_from_slice(&from.pending_send()[..n]);
        from.sent(n);
        to.received(n)?;
    }
    Ok(())
}

/// A client/server pair over buffers of the given sizes (receive, send, handshake) for the
/// client and full-size ones for the server, on the Ed25519 test identity.
#[cfg(all(feature = "server", feature = "certificates"))]
fn handshake_with_client_buffers(rx: usize, tx: usize, hs: usize) -> Result<(), Error> {
    let roots = [anchor(data!("ca.der"))];
    let key = SigningKey::from_pkcs8_der(data!("server.key.der")).unwrap();
    let chain = [data!("server.der")];
    let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
    let (mut c_rx, mut c_tx, mut c_hs) = (vec![0; rx], vec![0; tx], vec![0; hs]);
    let (mut s_rx, mut s_tx, mut s_hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 17_000]);
    let cb = Buffers { received: &mut c_rx, send: &mut c_tx, handshake: &mut c_hs };
    let sb = Buffers { received: &mut s_rx, send: &mut s_tx, handshake: &mut s_hs };
    let config = ClientConfig::new(&roots, &tls::SystemClock);
    let mut c = Connection::client(config, "localhost", cb, &mut OsRandom)?;
    let mut s = Connection::server(ServerConfig::new(&certs), sb, &mut OsRandom).unwrap();
    for _ in 0..10 {
        pump(&mut c, &mut s)?;
        pump(&mut s, &mut c)?;
        if !c.is_handshaking() && !s.is_handshaking() {
            return Ok(());
        }
    }
    Err(Error::ApiMisuse(ApiMisuse::Closed))
}

#[cfg(all(feature = "server", feature = "certificates"))]
#[test]
fn buffer_too_small_names_the_buffer_and_the_size_that_works() {
    assert_eq!(handshake_with_client_buffers(17_000, 4_000, 4_000), Ok(()));
    // Each buffer in turn too small: the error names it and a size that is more than it has;
    // growing the buffer to that size gets past the message (a later, larger one may ask
    // for more), until the handshake completes.
    for (kind, at, small) in [
        (BufferKind::Received, 0, 200),
        (BufferKind::Send, 1, 100),
        (BufferKind::Handshake, 2, 100),
    ] {
        let mut sizes = [17_000, 4_000, 4_000];
        sizes[at] = small;
        let mut asked = Vec::new();
        loop {
            match handshake_with_client_buffers(sizes[0], sizes[1], sizes[2]) {
                Ok(()) => break,
                Err(Error::BufferTooSmall { buffer, needed }) => {
                    assert_eq!(buffer, kind);
                    assert!(needed > sizes[at], "{kind:?}: needs {needed}, has {}", sizes[at]);
                    assert!(asked.len() < 4, "{kind:?}: asked for {asked:?}");
                    asked.push(needed);
                    sizes[at] = needed;
                }
                Err(e) => panic!("{kind:?}: {e:?}"),
            }
        }
        assert!(!asked.is_empty());
        eprintln!("{kind:?}: from {small} bytes, asked for {asked:?}");
    }
}

/// The versions a configuration offers by default: TLS 1.3 and TLS 1.2 with the `tls12`
/// feature, TLS 1.3 alone without it; and without it, a configuration naming TLS 1.2 is
/// refused before a connection starts.
#[test]
fn default_versions_follow_the_tls12_feature() {
    use tls::key_schedule::HashAlg;
    use tls::msgs::ProtocolVersion;
    use tls::{ExternalPsk, ServerPsks};

    let now = UnixTime::now();
    let client = ClientConfig::new(&[], &now);
    let server = ServerConfig::new(&[]);
    let expected: &[ProtocolVersion] = if cfg!(feature = "tls12") {
        &[ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2]
    } else {
        &[ProtocolVersion::TLSV1_3]
    };
    assert_eq!(client.versions, expected);
    assert_eq!(server.versions, expected);

    let psk = ExternalPsk { identity: b"sensor-17", key: &[7; 32], hash: HashAlg::Sha256 };
    let keys = [psk];
    let psks = Some(&ServerPsks { keys: &keys, psk_ke: false });
    let (mut cb, mut sb) = ([[0u8; 4096]; 3], [[0u8; 4096]; 3]);
    for versions in
        [&[ProtocolVersion::TLSV1_2][..], &[ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2]]
    {
        let client = ClientConfig { versions, ..client };
        let [r, t, h] = &mut cb;
        let b = Buffers { received: r, send: t, handshake: h };
        let c = Connection::client(client, "sensor-17", b, &mut OsRandom);
        let server = ServerConfig { versions, psks, ..server };
        let [r, t, h] = &mut sb;
        let b = Buffers { received: r, send: t, handshake: h };
        let s = Connection::server(server, b, &mut OsRandom);
        let bad = Some(Error::ApiMisuse(ApiMisuse::BadConfig));
        if cfg!(feature = "tls12") {
            assert!(c.is_ok() && s.is_ok(), "{versions:?}");
        } else {
            assert_eq!((c.err(), s.err()), (bad, bad), "{versions:?}");
        }
    }
}
