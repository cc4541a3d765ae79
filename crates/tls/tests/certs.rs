//! Certificates and signatures in memory: Ed25519, ECDSA P-256/P-384 and RSA-2048 server
//! certificates (the chains made by OpenSSL in `tests/data`, so every certificate signature
//! checked here is OpenSSL's), the scheme each negotiates, the certificate chosen by SNI from
//! a set, and a key that does not match its certificate refused as a bad signature.

use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor};
use tls::msgs::{AlertDescription, SignatureScheme};
use tls::{
    Buffers, CertificateError, CertifiedKey, ClientConfig, Connection, Error, PeerMisbehaved,
    ServerConfig, SigningKey,
};

/// One test identity: its root, the server chain and key, and what it negotiates.
struct Pki {
    ca: &'static [u8],
    cert: &'static [u8],
    key: &'static [u8],
    scheme: SignatureScheme,
}

macro_rules! data {
    ($f:literal) => {
        include_bytes!(concat!("data/", $f))
    };
}

const ED25519: Pki = Pki {
    ca: data!("ca.der"),
    cert: data!("server.der"),
    key: data!("server.key.der"),
    scheme: SignatureScheme::ED25519,
};
const P256: Pki = Pki {
    ca: data!("ca-p256.der"),
    cert: data!("server-p256.der"),
    key: data!("server-p256.key.der"),
    scheme: SignatureScheme::ECDSA_SECP256R1_SHA256,
};
const P384: Pki = Pki {
    ca: data!("ca-p384.der"),
    cert: data!("server-p384.der"),
    key: data!("server-p384.key.der"),
    scheme: SignatureScheme::ECDSA_SECP384R1_SHA384,
};
const RSA: Pki = Pki {
    ca: data!("ca-rsa.der"),
    cert: data!("server-rsa.der"),
    key: data!("server-rsa.key.der"),
    scheme: SignatureScheme::RSA_PSS_RSAE_SHA256,
};
const RSA_SHA384: Pki = Pki { cert: data!("server-rsa-sha384.der"), ..RSA };
const RSA_SHA512: Pki = Pki { cert: data!("server-rsa-sha512.der"), ..RSA };
const ALL: [&Pki; 6] = [&ED25519, &P256, &P384, &RSA, &RSA_SHA384, &RSA_SHA512];

fn anchor(der: &'static [u8]) -> TrustAnchor<'static> {
    let der: &'static CertificateDer<'static> = Box::leak(Box::new(CertificateDer::from(der)));
    webpki::anchor_from_trusted_cert(der).unwrap()
}

fn bufs() -> Buffers<'static> {
    Buffers {
        received: Vec::leak(vec![0; 17_000]),
        send: Vec::leak(vec![0; 40_000]),
        handshake: Vec::leak(vec![0; 8_000]),
    }
}

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<bool, Error> {
    let data = from.pending_send().to_vec();
    from.sent(data.len());
    to.receive_space()[..data.len()].copy_from_slice(&data);
    to.received(data.len())?;
    Ok(!data.is_empty())
}

/// Runs a handshake between a client trusting `roots` and asking for `name`, and a server
/// holding `certs` (certificate and PKCS#8 key, DER); returns the first error (and whether the client saw it) or the scheme.
fn run(
    roots: &[&'static [u8]],
    name: &str,
    certs: &[(&'static [u8], &'static [u8])],
) -> Result<SignatureScheme, (bool, Error, Option<Error>)> {
    let roots: &'static [TrustAnchor<'static>] =
        Vec::leak(roots.iter().map(|r| anchor(r)).collect());
    let name: &'static str = String::leak(name.to_string());
    let keys: &'static [(&'static [u8], SigningKey)] = Vec::leak(
        certs.iter().map(|(c, k)| (*c, SigningKey::from_pkcs8_der(k).unwrap())).collect(),
    );
    let certified: &'static [CertifiedKey<'static>] = Vec::leak(
        keys.iter().map(|(c, k)| CertifiedKey { chain: Vec::leak(vec![*c]), key: k }).collect(),
    );
    let config = ClientConfig::new(roots, &tls::SystemClock);
    let mut c = Connection::client(config, name, bufs(), &mut OsRandom).unwrap();
    let config = ServerConfig::new(certified);
    let mut s = Connection::server(config, bufs(), &mut OsRandom).unwrap();
    for _ in 0..6 {
        if let Err(e) = pump(&mut c, &mut s) {
            return Err((false, e, pump(&mut s, &mut c).err()));
        }
        if let Err(e) = pump(&mut s, &mut c) {
            return Err((true, e, pump(&mut c, &mut s).err()));
        }
    }
    assert!(!c.is_handshaking() && !s.is_handshaking());
    let (cn, sn) = (c.negotiated().unwrap(), s.negotiated().unwrap());
    assert_eq!(cn.scheme, sn.scheme);
    Ok(cn.scheme)
}

const CLIENT_P256: Pki = Pki {
    ca: data!("ca-p256.der"),
    cert: data!("client-p256.der"),
    key: data!("client-p256.key.der"),
    scheme: SignatureScheme::ECDSA_SECP256R1_SHA256,
};
const CLIENT_RSA: Pki = Pki {
    ca: data!("ca-rsa.der"),
    cert: data!("client-rsa.der"),
    key: data!("client-rsa.key.der"),
    scheme: SignatureScheme::RSA_PSS_RSAE_SHA256,
};

fn key(p: &Pki) -> SigningKey {
    SigningKey::from_pkcs8_der(p.key).unwrap()
}

fn pair(p: &Pki) -> (&'static [u8], &'static [u8]) {
    (p.cert, p.key)
}

#[test]
fn every_certificate_type_completes_with_its_scheme() {
    for p in ALL {
        assert_eq!(run(&[p.ca], "localhost", &[pair(p)]), Ok(p.scheme));
    }
}

#[test]
fn the_server_picks_its_certificate_by_sni() {
    let roots = [ED25519.ca, P256.ca, P384.ca, RSA.ca];
    let set = [pair(&ED25519), pair(&P256), pair(&P384), pair(&RSA)];
    for (name, scheme) in [
        ("test.halite", ED25519.scheme),
        ("p256.halite", P256.scheme),
        ("p384.halite", P384.scheme),
        ("rsa.halite", RSA.scheme),
        // Every certificate is valid for localhost: the first is taken.
        ("localhost", ED25519.scheme),
    ] {
        assert_eq!(run(&roots, name, &set), Ok(scheme), "{name}");
    }
}

#[test]
fn a_key_that_does_not_match_its_certificate_is_a_bad_signature() {
    for (p, wrong) in [(&P256, &CLIENT_P256), (&RSA, &CLIENT_RSA), (&ED25519, &P256)] {
        let e = run(&[p.ca], "localhost", &[(p.cert, wrong.key)]).unwrap_err();
        // A key of another type makes a signature for another scheme, which the end-entity
        // key cannot have made: also a bad signature.
        assert_eq!(
            (e.0, e.1, e.2),
            (
                true,
                Error::PeerMisbehaved(PeerMisbehaved::BadSignature),
                Some(Error::AlertReceived(AlertDescription::DECRYPT_ERROR))
            ),
            "{:?}",
            p.scheme
        );
    }
}

#[test]
fn an_untrusted_root_of_another_type_is_unknown_ca() {
    let e = run(&[P256.ca], "localhost", &[pair(&RSA)]).unwrap_err();
    assert_eq!(e.1, Error::InvalidCertificate(tls::CertificateError::UnknownIssuer));
    assert_eq!(e.2, Some(Error::AlertReceived(AlertDescription::UNKNOWN_CA)));
}

#[test]
fn pkcs8_keys_load_by_type() {
    assert!(matches!(key(&ED25519), SigningKey::Ed25519(_)));
    assert!(matches!(key(&P256), SigningKey::EcdsaP256(_)));
    assert!(matches!(key(&P384), SigningKey::EcdsaP384(_)));
    assert!(matches!(key(&RSA), SigningKey::Rsa(_)));
    assert!(SigningKey::from_pkcs8_der(&[0x30, 0x00]).is_err());
    assert!(SigningKey::from_pkcs8_der(ED25519.cert).is_err());
}

#[test]
fn rsa_scheme_follows_the_peers_preference_within_ours() {
    let k = key(&RSA);
    let only = |want: SignatureScheme| move |s: SignatureScheme| s == want;
    assert_eq!(
        k.choose_scheme(only(SignatureScheme::RSA_PSS_RSAE_SHA512)),
        Some(SignatureScheme::RSA_PSS_RSAE_SHA512)
    );
    assert_eq!(k.choose_scheme(only(SignatureScheme::RSA_PKCS1_SHA256)), None);
    assert_eq!(key(&P384).choose_scheme(only(SignatureScheme::ECDSA_SECP256R1_SHA256)), None);
}

#[test]
fn pkcs8_pem_keys_load() {
    let pem = include_str!("data/server-rsa.key");
    let mut scratch = [0u8; 2048];
    assert!(matches!(SigningKey::from_pkcs8_pem(pem, &mut scratch), Ok(SigningKey::Rsa(_))));
    let pem = include_str!("data/server-p384.key");
    assert!(matches!(SigningKey::from_pkcs8_pem(pem, &mut scratch), Ok(SigningKey::EcdsaP384(_))));
    // The certificate file holds no key; a short scratch buffer is refused, not a panic.
    assert!(SigningKey::from_pkcs8_pem(include_str!("data/server-rsa.pem"), &mut scratch).is_err());
    assert!(
        SigningKey::from_pkcs8_pem(include_str!("data/server-rsa.key"), &mut scratch[..100])
            .is_err()
    );
}

/// A server chain of `p`'s root with another leaf certificate for the same key.
fn with_cert(
    p: &Pki,
    cert: &'static [u8],
) -> Result<SignatureScheme, (bool, Error, Option<Error>)> {
    run(&[p.ca], "localhost", &[(cert, p.key)])
}

#[test]
fn a_key_usage_without_digital_signature_is_refused_for_certificate_verify() {
    // RFC 5280 §4.2.1.3, RFC 8446 §4.4.2.4: the CertificateVerify key must allow signing.
    for (p, cert) in [
        (&P256, &data!("server-p256-ku-encipherment.der")[..]),
        (&RSA, &data!("server-rsa-ku-encipherment.der")[..]),
    ] {
        let Err((client_saw, e, server_got)) = with_cert(p, cert) else {
            panic!("a keyEncipherment-only certificate was accepted")
        };
        assert!(client_saw);
        assert_eq!(e, Error::InvalidCertificate(CertificateError::KeyUsageForbidsSigning));
        assert_eq!(
            server_got,
            Some(Error::AlertReceived(AlertDescription::UNSUPPORTED_CERTIFICATE))
        );
    }
}

#[test]
fn a_key_usage_with_digital_signature_or_none_at_all_is_accepted() {
    assert_eq!(with_cert(&P256, data!("server-p256-ku-absent.der")), Ok(P256.scheme));
    assert_eq!(with_cert(&RSA, data!("server-rsa-ku-both.der")), Ok(RSA.scheme));
    assert_eq!(with_cert(&P256, data!("server-p256.der")), Ok(P256.scheme));
}

#[test]
fn a_custom_verifier_cannot_skip_the_key_usage_check() {
    // verify_signature (what a pinning verifier calls) checks keyUsage too.
    let cert = data!("server-p256-ku-encipherment.der");
    let key = key(&P256);
    let msg = b"signed content";
    let mut sig = [0u8; tls::sign::MAX_SIGNATURE_LEN];
    let scheme = SignatureScheme::ECDSA_SECP256R1_SHA256;
    let n = tls::provider::Signer::sign(&key, scheme, msg, &mut OsRandom, &mut sig).unwrap();
    assert_eq!(
        tls::verify::verify_signature(
            cert,
            SignatureScheme::ECDSA_SECP256R1_SHA256,
            msg,
            &sig[..n]
        ),
        Err(Error::InvalidCertificate(CertificateError::KeyUsageForbidsSigning))
    );
    let good = data!("server-p256.der");
    assert_eq!(
        tls::verify::verify_signature(
            good,
            SignatureScheme::ECDSA_SECP256R1_SHA256,
            msg,
            &sig[..n]
        ),
        Ok(())
    );
}
