//! TLS 1.2 handshake signatures (`ServerKeyExchange`, `CertificateVerify`): every scheme each of
//! our key types lists for 1.2 signs, verifies with our verifier under the 1.2 rules and
//! with ring's (through rustls's scheme mapping) on the same message, fails on another
//! message; and the 1.3 rules are unchanged — RSA PKCS#1 v1.5 is still refused there, and
//! an `ecdsa_*` scheme is still bound to its curve.

use core_hash::OsRandom;
use pki_types::CertificateDer;
use tls::msgs::{ProtocolVersion, SignatureScheme};
use tls::provider::Signer;
use tls::sign::MAX_SIGNATURE_LEN;
use tls::verify::{self, SUPPORTED_SCHEMES_TLS12, tls12_verifiers, verify_signature_for};
use tls::{Error, PeerMisbehaved, SigningKey};

macro_rules! data {
    ($f:literal) => {
        include_bytes!(concat!("data/", $f)).as_slice()
    };
}

/// Each key type's certificate and PKCS#8 key.
fn keys() -> Vec<(&'static str, &'static [u8], SigningKey)> {
    let k = |der: &[u8]| SigningKey::from_pkcs8_der(der).unwrap();
    vec![
        ("ed25519", data!("client-ed25519.der"), k(data!("client-ed25519.key.der"))),
        ("p256", data!("client-p256.der"), k(data!("client-p256.key.der"))),
        ("p384", data!("client-p384.der"), k(data!("client-p384.key.der"))),
        ("rsa", data!("client-rsa.der"), k(data!("client-rsa.key.der"))),
        ("pss", data!("client-pss.der"), k(data!("client-pss.key.der"))),
    ]
}

/// Whether ring, through rustls's TLS 1.2 mapping of `scheme` to its verifiers, accepts
/// `sig` over `msg` by `cert`'s key; `None` when ring has no verifier for the scheme.
fn ring_accepts(cert: &[u8], scheme: SignatureScheme, msg: &[u8], sig: &[u8]) -> Option<bool> {
    let algs = rustls::crypto::ring::default_provider().signature_verification_algorithms;
    let want = rustls::SignatureScheme::from(scheme.0);
    let (_, verifiers) = algs.mapping.iter().find(|(s, _)| *s == want)?;
    let der = CertificateDer::from(cert);
    let ee = webpki::EndEntityCert::try_from(&der).unwrap();
    Some(verifiers.iter().any(|alg| ee.verify_signature(*alg, msg, sig).is_ok()))
}

#[test]
fn every_tls12_scheme_signs_and_verifies_against_ring() {
    let msg = b"client_random || server_random || ServerECDHParams";
    let mut cross_checked = 0;
    for (name, cert, key) in keys() {
        assert!(!key.tls12_schemes().is_empty(), "{name}");
        // What a key signs with in 1.3 it still signs with in 1.2.
        for s in key.schemes() {
            assert!(key.tls12_schemes().contains(s), "{name} {s:?}");
        }
        for &scheme in key.tls12_schemes() {
            assert!(SUPPORTED_SCHEMES_TLS12.contains(&scheme), "{name} {scheme:?}");
            assert!(!tls12_verifiers(scheme).is_empty());
            let mut sig = [0u8; MAX_SIGNATURE_LEN];
            let n = key.sign(scheme, msg, &mut OsRandom, &mut sig).unwrap();
            let sig = &sig[..n];
            assert_eq!(
                verify_signature_for(ProtocolVersion::TLSV1_2, cert, scheme, msg, sig),
                Ok(()),
                "{name} {scheme:?}"
            );
            assert_eq!(
                verify_signature_for(ProtocolVersion::TLSV1_2, cert, scheme, b"other", sig),
                Err(Error::PeerMisbehaved(PeerMisbehaved::BadSignature)),
                "{name} {scheme:?}"
            );
            match ring_accepts(cert, scheme, msg, sig) {
                Some(ok) => {
                    assert!(ok, "ring refuses {name} {scheme:?}");
                    assert_eq!(ring_accepts(cert, scheme, b"other", sig), Some(false));
                    cross_checked += 1;
                }
                // ring has no ECDSA with SHA-512 (checked by Wycheproof in tests/verify.rs)
                // and no RSASSA-PSS keys (tests/pss.rs checks those).
                None => assert!(
                    scheme == SignatureScheme::ECDSA_SECP521R1_SHA512 || name == "pss",
                    "{name} {scheme:?}"
                ),
            }
            let in13 = key.schemes().contains(&scheme);
            let r13 = verify_signature_for(ProtocolVersion::TLSV1_3, cert, scheme, msg, sig);
            assert_eq!(r13, verify::verify_signature(cert, scheme, msg, sig), "{name} {scheme:?}");
            assert_eq!(r13.is_ok(), in13, "{name} {scheme:?}: the 1.3 rules are unchanged");
        }
    }
    // Ed25519 1; P-256 and P-384: 3 ECDSA hashes each, 2 in ring; RSA 6.
    assert_eq!(cross_checked, 1 + 2 + 2 + 6);
}

#[test]
fn pkcs1_is_for_tls12_only() {
    let (_, cert, key) = keys().into_iter().find(|k| k.0 == "rsa").unwrap();
    for scheme in [
        SignatureScheme::RSA_PKCS1_SHA256,
        SignatureScheme::RSA_PKCS1_SHA384,
        SignatureScheme::RSA_PKCS1_SHA512,
    ] {
        assert!(!key.schemes().contains(&scheme), "a 1.3 handshake never picks {scheme:?}");
        assert_eq!(key.choose_scheme(|s| s == scheme), None);
        assert_eq!(key.choose_scheme_tls12(|s| s == scheme), Some(scheme));
        let mut sig = [0u8; MAX_SIGNATURE_LEN];
        let n = key.sign(scheme, b"m", &mut OsRandom, &mut sig).unwrap();
        let unoffered = Err(Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter));
        assert_eq!(verify::verify_signature(cert, scheme, b"m", &sig[..n]), unoffered);
        assert_eq!(
            verify_signature_for(ProtocolVersion::TLSV1_3, cert, scheme, b"m", &sig[..n]),
            unoffered
        );
        assert_eq!(
            verify_signature_for(ProtocolVersion::TLSV1_2, cert, scheme, b"m", &sig[..n]),
            Ok(())
        );
        // PKCS#1 v1.5 is deterministic: the same signature again.
        let mut again = [0u8; MAX_SIGNATURE_LEN];
        key.sign(scheme, b"m", &mut OsRandom, &mut again).unwrap();
        assert_eq!(sig[..n], again[..n]);
    }
    // An RSASSA-PSS key cannot sign PKCS#1 v1.5, in any version.
    let (_, _, pss) = keys().into_iter().find(|k| k.0 == "pss").unwrap();
    let mut sig = [0u8; MAX_SIGNATURE_LEN];
    assert!(pss.sign(SignatureScheme::RSA_PKCS1_SHA256, b"m", &mut OsRandom, &mut sig).is_err());
    assert_eq!(pss.choose_scheme_tls12(|s| s == SignatureScheme::RSA_PKCS1_SHA256), None);
}

#[test]
fn ecdsa_schemes_name_the_hash_in_tls12() {
    // A P-256 key signing "ECDSA with SHA-384": fine in 1.2, refused in 1.3, where the scheme
    // means P-384.
    let (_, cert, key) = keys().into_iter().find(|k| k.0 == "p256").unwrap();
    let scheme = SignatureScheme::ECDSA_SECP384R1_SHA384;
    assert_eq!(key.choose_scheme(|s| s == scheme), None);
    assert_eq!(key.choose_scheme_tls12(|s| s == scheme), Some(scheme));
    let mut sig = [0u8; MAX_SIGNATURE_LEN];
    let n = key.sign(scheme, b"m", &mut OsRandom, &mut sig).unwrap();
    assert_eq!(
        verify_signature_for(ProtocolVersion::TLSV1_2, cert, scheme, b"m", &sig[..n]),
        Ok(())
    );
    assert!(verify::verify_signature(cert, scheme, b"m", &sig[..n]).is_err());
    // The signature is over SHA-384: the same bytes do not verify as SHA-256.
    assert_eq!(
        verify_signature_for(
            ProtocolVersion::TLSV1_2,
            cert,
            SignatureScheme::ECDSA_SECP256R1_SHA256,
            b"m",
            &sig[..n]
        ),
        Err(Error::PeerMisbehaved(PeerMisbehaved::BadSignature))
    );
    // A key of another type for the scheme, SHA-1 and unknown schemes, other versions.
    let (_, rsa_cert, _) = keys().into_iter().find(|k| k.0 == "rsa").unwrap();
    assert_eq!(
        verify_signature_for(ProtocolVersion::TLSV1_2, rsa_cert, scheme, b"m", &sig[..n]),
        Err(Error::PeerMisbehaved(PeerMisbehaved::BadSignature))
    );
    for s in [SignatureScheme(0x0201), SignatureScheme(0x0203), SignatureScheme::ED448] {
        assert!(tls12_verifiers(s).is_empty());
        assert_eq!(
            verify_signature_for(ProtocolVersion::TLSV1_2, cert, s, b"m", &sig[..n]),
            Err(Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter))
        );
    }
    assert!(matches!(
        verify_signature_for(ProtocolVersion(0x0302), cert, scheme, b"m", &sig[..n]),
        Err(Error::ApiMisuse(_))
    ));
}

/// What a TLS 1.2 client's `CertificateVerify` uses: every scheme a key lists in
/// `tls12_digest_schemes` signs a SHA-256 or SHA-384 digest into a signature that verifies
/// over the message (ours under the 1.2 rules, and ring's where it has the scheme), fails over another message; a
/// digest of the wrong length and a scheme not listed are refused; Ed25519 lists none.
#[test]
fn digest_signatures_verify_as_message_signatures() {
    use core_hash::{Sha256, Sha384};
    let msg = b"every handshake message so far";
    let mut checked = 0;
    for (name, cert, key) in keys() {
        assert_eq!(key.tls12_digest_schemes().is_empty(), name == "ed25519", "{name}");
        for &scheme in key.tls12_digest_schemes() {
            assert!(key.tls12_schemes().contains(&scheme), "{name} {scheme:?}");
            let sha384 = format!("{scheme:?}").contains("384");
            let digest = if sha384 {
                Sha384::digest(msg).as_ref().to_vec()
            } else {
                Sha256::digest(msg).as_ref().to_vec()
            };
            let mut sig = [0u8; MAX_SIGNATURE_LEN];
            let n = key.sign_digest(scheme, &digest, &mut OsRandom, &mut sig).unwrap();
            let sig = &sig[..n];
            verify_signature_for(ProtocolVersion::TLSV1_2, cert, scheme, msg, sig)
                .unwrap_or_else(|e| panic!("{name} {scheme:?}: {e}"));
            // ring has no verifier for the rsa_pss_pss schemes.
            assert_ne!(ring_accepts(cert, scheme, msg, sig), Some(false), "{name} {scheme:?}");
            assert!(
                verify_signature_for(ProtocolVersion::TLSV1_2, cert, scheme, b"other", sig)
                    .is_err()
            );
            let short = &digest[1..];
            assert!(
                key.sign_digest(scheme, short, &mut OsRandom, &mut [0; MAX_SIGNATURE_LEN]).is_err()
            );
            checked += 1;
        }
        let digest = Sha256::digest(msg);
        assert!(
            key.sign_digest(
                SignatureScheme::ED25519,
                digest.as_ref(),
                &mut OsRandom,
                &mut [0; MAX_SIGNATURE_LEN]
            )
            .is_err(),
            "{name}"
        );
    }
    // P-256: 2, P-384: 2, RSA: 4, RSASSA-PSS: 2.
    assert_eq!(checked, 10);
}
