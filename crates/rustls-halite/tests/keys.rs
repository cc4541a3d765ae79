//! The `KeyProvider`: every supported key form loads and matches its certificate, each key
//! picks the right signature scheme, and garbage or unsupported keys are refused with an
//! error rather than a panic.

mod common;

use pki_types::{PrivateKeyDer, PrivatePkcs1KeyDer, PrivatePkcs8KeyDer, PrivateSec1KeyDer};
use rustls::sign::{CertifiedKey, SigningKey};
use rustls::{SignatureAlgorithm, SignatureScheme};
use std::sync::Arc;

use common::{Cert, client_identity, server_identity};

fn load(key: PrivateKeyDer<'static>) -> Result<Arc<dyn SigningKey>, rustls::Error> {
    rustls_halite::default_provider().key_provider.load_private_key(key)
}

fn sec1(bytes: &[u8]) -> PrivateKeyDer<'static> {
    PrivateKeyDer::Sec1(PrivateSec1KeyDer::from(bytes.to_vec()))
}

fn pkcs1(bytes: &[u8]) -> PrivateKeyDer<'static> {
    PrivateKeyDer::Pkcs1(PrivatePkcs1KeyDer::from(bytes.to_vec()))
}

fn pkcs8(bytes: &[u8]) -> PrivateKeyDer<'static> {
    PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(bytes.to_vec()))
}

/// Every PKCS#8 test key loads, reports its algorithm, and its public key is the one in its
/// certificate (`keys_match` compares our SPKI with the certificate's).
#[test]
fn pkcs8_keys_load_and_match_their_certificates() {
    let cases = [
        (Cert::P256, SignatureAlgorithm::ECDSA),
        (Cert::P384, SignatureAlgorithm::ECDSA),
        (Cert::P521, SignatureAlgorithm::ECDSA),
        (Cert::Ed25519, SignatureAlgorithm::ED25519),
        (Cert::Rsa, SignatureAlgorithm::RSA),
    ];
    for (cert, alg) in cases {
        for id in [server_identity(cert), client_identity(cert)] {
            let key = load(id.key).unwrap_or_else(|e| panic!("{cert:?}: {e}"));
            assert_eq!(key.algorithm(), alg, "{cert:?}");
            CertifiedKey::new(id.chain, key)
                .keys_match()
                .unwrap_or_else(|e| panic!("{cert:?}: {e}"));
        }
    }
}

/// SEC1 EC keys and PKCS#1 RSA keys load too, and are the same keys as the PKCS#8 ones.
#[test]
fn sec1_and_pkcs1_keys_load() {
    let cases: [(&[u8], Cert); 4] = [
        (include_bytes!("data/server-p256.sec1.der"), Cert::P256),
        (include_bytes!("data/server-p384.sec1.der"), Cert::P384),
        (include_bytes!("data/server-p521.sec1.der"), Cert::P521),
        (include_bytes!("data/server-rsa.pkcs1.der"), Cert::Rsa),
    ];
    for (der, cert) in cases {
        let key = if cert == Cert::Rsa { pkcs1(der) } else { sec1(der) };
        let key = load(key).unwrap_or_else(|e| panic!("{cert:?}: {e}"));
        CertifiedKey::new(server_identity(cert).chain, key)
            .keys_match()
            .unwrap_or_else(|e| panic!("{cert:?}: {e}"));
    }
}

fn chosen(cert: Cert, offered: &[SignatureScheme]) -> Option<SignatureScheme> {
    load(server_identity(cert).key).unwrap().choose_scheme(offered).map(|s| s.scheme())
}

/// ECDSA keys sign only with their curve's scheme, Ed25519 with its own, RSA prefers PSS and
/// longer hashes.
#[test]
fn scheme_choice() {
    use SignatureScheme as S;
    let all = [
        S::RSA_PKCS1_SHA256,
        S::RSA_PKCS1_SHA384,
        S::RSA_PKCS1_SHA512,
        S::RSA_PSS_SHA256,
        S::RSA_PSS_SHA384,
        S::ECDSA_NISTP256_SHA256,
        S::ECDSA_NISTP384_SHA384,
        S::ECDSA_NISTP521_SHA512,
        S::ED25519,
    ];
    assert_eq!(chosen(Cert::P256, &all), Some(S::ECDSA_NISTP256_SHA256));
    assert_eq!(chosen(Cert::P384, &all), Some(S::ECDSA_NISTP384_SHA384));
    assert_eq!(chosen(Cert::P521, &all), Some(S::ECDSA_NISTP521_SHA512));
    assert_eq!(chosen(Cert::Ed25519, &all), Some(S::ED25519));
    assert_eq!(chosen(Cert::Rsa, &all), Some(S::RSA_PSS_SHA384));
    assert_eq!(
        chosen(Cert::Rsa, &[S::RSA_PKCS1_SHA256, S::RSA_PKCS1_SHA512]),
        Some(S::RSA_PKCS1_SHA512)
    );
    assert_eq!(chosen(Cert::P256, &[S::ECDSA_NISTP384_SHA384, S::ED25519]), None);
    assert_eq!(chosen(Cert::Ed25519, &[S::ECDSA_NISTP256_SHA256]), None);
    assert_eq!(chosen(Cert::Rsa, &[S::ED25519, S::ECDSA_NISTP256_SHA256]), None);
}

/// Signatures made by loaded keys verify with the provider's own verification algorithms.
#[test]
fn signatures_verify() {
    use SignatureScheme as S;
    let algs = rustls_halite::default_provider().signature_verification_algorithms;
    let cases = [
        (Cert::P256, S::ECDSA_NISTP256_SHA256),
        (Cert::P384, S::ECDSA_NISTP384_SHA384),
        (Cert::P521, S::ECDSA_NISTP521_SHA512),
        (Cert::Ed25519, S::ED25519),
        (Cert::Rsa, S::RSA_PSS_SHA256),
        (Cert::Rsa, S::RSA_PSS_SHA512),
        (Cert::Rsa, S::RSA_PKCS1_SHA384),
    ];
    for (cert, scheme) in cases {
        let key = load(server_identity(cert).key).unwrap();
        let spki = key.public_key().unwrap();
        let signer = key.choose_scheme(&[scheme]).unwrap();
        let msg = b"the transcript hash and its context";
        let sig = signer.sign(msg).unwrap();
        let verifier = algs.mapping.iter().find(|(s, _)| *s == scheme).unwrap().1[0];
        // The subjectPublicKey BIT STRING's contents: the SPKI's tail after the algorithm.
        let public = subject_public_key(spki.as_ref());
        verifier.verify_signature(public, msg, &sig).unwrap_or_else(|_| panic!("{scheme:?}"));
        assert!(verifier.verify_signature(public, b"another message", &sig).is_err(), "{scheme:?}");
    }
}

/// The contents of an SPKI's BIT STRING (short-form or two-byte lengths, as in these keys).
fn subject_public_key(spki: &[u8]) -> &[u8] {
    fn skip_header(der: &[u8]) -> (&[u8], usize) {
        let len = der[1];
        match len {
            0x81 => (&der[3..], der[2] as usize),
            0x82 => (&der[4..], (der[2] as usize) << 8 | der[3] as usize),
            n => (&der[2..], n as usize),
        }
    }
    let (body, _) = skip_header(spki);
    let (_, alg_len) = skip_header(body);
    let alg_header = body.len() - skip_header(body).0.len();
    let bits = &body[alg_header + alg_len..];
    let (bits, len) = skip_header(bits);
    &bits[1..len]
}

/// Garbage, truncated, mislabelled and unsupported keys are errors, never panics.
#[test]
fn bad_keys_are_refused() {
    let p256 = include_bytes!("../../tls/tests/data/server-p256.key.der").as_slice();
    let rsa = include_bytes!("../../tls/tests/data/server-rsa.key.der").as_slice();
    let ed25519 = include_bytes!("../../tls/tests/data/server.key.der").as_slice();
    let rsa_pkcs1 = include_bytes!("data/server-rsa.pkcs1.der").as_slice();
    let p256_sec1 = include_bytes!("data/server-p256.sec1.der").as_slice();
    let mut refused = 0;
    let garbage: [&[u8]; 5] =
        [&[], &[0x30], &[0x30, 0x00], &[0xff; 64], &[0x30, 0x82, 0xff, 0xff, 0x02]];
    for g in garbage {
        for key in [pkcs8(g), sec1(g), pkcs1(g)] {
            assert!(load(key).is_err(), "{g:02x?}");
            refused += 1;
        }
    }
    // Every truncation of real keys.
    for der in [p256, rsa, ed25519] {
        for n in 0..der.len() {
            assert!(load(pkcs8(&der[..n])).is_err(), "PKCS#8 truncated to {n}");
            refused += 1;
        }
    }
    // Keys in the wrong wrapper.
    for key in
        [sec1(rsa_pkcs1), pkcs1(p256_sec1), pkcs8(rsa_pkcs1), pkcs8(p256_sec1), sec1(ed25519)]
    {
        assert!(load(key).is_err());
        refused += 1;
    }
    // Well-formed keys of kinds the provider does not sign with: RSA-1024 and Ed448.
    let rsa1024 = include_bytes!("data/rsa1024.key.der").as_slice();
    let ed448 = include_bytes!("data/ed448.key.der").as_slice();
    for der in [rsa1024, ed448] {
        assert!(load(pkcs8(der)).is_err());
        refused += 1;
    }
    // One flipped byte anywhere in an Ed25519 key's framing (but the version at offset 4,
    // where 0 → 1 is still a valid RFC 5958 key).
    for i in (0..16).filter(|&i| i != 4) {
        let mut bad = ed25519.to_vec();
        bad[i] ^= 0x01;
        if let Ok(key) = load(pkcs8(&bad)) {
            panic!("byte {i} flipped still loads as {:?}", key.algorithm());
        }
        refused += 1;
    }
    assert!(refused > 300);
}

/// `rsa_pss_pss_sha256/384/512` (RFC 8446 §4.2.3), which rustls carries as unknown values.
const PSS_PSS: [SignatureScheme; 3] = [
    SignatureScheme::Unknown(0x0809),
    SignatureScheme::Unknown(0x080a),
    SignatureScheme::Unknown(0x080b),
];

/// Every scheme an rsaEncryption key may use.
const RSAE: [SignatureScheme; 6] = [
    SignatureScheme::RSA_PSS_SHA256,
    SignatureScheme::RSA_PSS_SHA384,
    SignatureScheme::RSA_PSS_SHA512,
    SignatureScheme::RSA_PKCS1_SHA256,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PKCS1_SHA512,
];

/// The id-RSASSA-PSS server keys and certificates of crates/tls's PSS PKI: one key without
/// RSASSA-PSS-params, one restricted to SHA-384 (MGF1-SHA-384, 48-byte salt).
fn pss_identities() -> [(&'static str, Arc<dyn SigningKey>, &'static [u8]); 2] {
    let id = |key: &[u8]| load(pkcs8(key)).unwrap();
    [
        (
            "unrestricted",
            id(include_bytes!("../../tls/tests/data/server-pss.key.der")),
            include_bytes!("../../tls/tests/data/server-pss.der"),
        ),
        (
            "SHA-384 only",
            id(include_bytes!("../../tls/tests/data/server-pss-sha384.key.der")),
            include_bytes!("../../tls/tests/data/server-pss-sha384.der"),
        ),
    ]
}

/// RSASSA-PSS keys load, give their certificates' id-RSASSA-PSS public keys byte for byte
/// (parameters included), and offer only the `rsa_pss_pss_*` schemes their parameters allow:
/// never `rsa_pss_rsae_*` or PKCS#1 v1.5, which would tell the peer to expect an rsaEncryption
/// key. An rsaEncryption key, conversely, never offers `rsa_pss_pss_*`.
#[test]
fn rsa_pss_keys_offer_only_their_schemes() {
    let [pss256, pss384, pss512] = PSS_PSS;
    let all = [&RSAE[..], &PSS_PSS].concat();
    let choice = |key: &Arc<dyn SigningKey>, offered: &[SignatureScheme]| {
        key.choose_scheme(offered).map(|s| s.scheme())
    };
    let [(_, free, free_cert), (_, sha384, sha384_cert)] = pss_identities();
    for (key, cert) in [(&free, free_cert), (&sha384, sha384_cert)] {
        assert_eq!(key.algorithm(), SignatureAlgorithm::RSA);
        let chain = vec![pki_types::CertificateDer::from(cert)];
        CertifiedKey::new(chain, Arc::clone(key)).keys_match().unwrap();
        assert_eq!(choice(key, &RSAE), None);
    }
    assert_eq!(choice(&free, &all), Some(pss512));
    assert_eq!(choice(&free, &[pss256, SignatureScheme::RSA_PSS_SHA512]), Some(pss256));
    assert_eq!(choice(&free, &[pss384]), Some(pss384));
    assert_eq!(choice(&sha384, &all), Some(pss384));
    assert_eq!(choice(&sha384, &[pss256, pss512]), None);
    let rsae_key = load(server_identity(Cert::Rsa).key).unwrap();
    assert_eq!(choice(&rsae_key, &PSS_PSS), None);
    assert_eq!(choice(&rsae_key, &all), Some(SignatureScheme::RSA_PSS_SHA512));
}

/// Each `rsa_pss_pss_*` signature of an RSASSA-PSS key verifies, as RFC 8446 §4.2.3 defines it
/// (the scheme's hash for the message and MGF1, a salt as long as the hash), under the public
/// key the signing key reports; another message's does not.
#[test]
fn rsa_pss_signatures_verify() {
    use core_rsa::HashAlg::{Sha256, Sha384, Sha512};
    let msg = b"the TLS 1.3 CertificateVerify content";
    let mut runs = 0;
    for (what, key, _) in pss_identities() {
        let public =
            core_rsa::PublicKey::from_spki_der(key.public_key().unwrap().as_ref()).unwrap();
        for (scheme, hash) in PSS_PSS.into_iter().zip([Sha256, Sha384, Sha512]) {
            let Some(signer) = key.choose_scheme(&[scheme]) else { continue };
            let sig = signer.sign(msg).unwrap();
            let pss = core_rsa::Pss::with_salt_len(hash, hash.output_len());
            public.verify_pss(pss, msg, &sig).unwrap_or_else(|e| panic!("{what} {scheme:?}: {e}"));
            assert!(public.verify_pss(pss, b"another message", &sig).is_err(), "{what}");
            runs += 1;
        }
    }
    // Three schemes for the key without parameters, one for the SHA-384 key.
    assert_eq!(runs, 4);
}

/// RSASSA-PSS keys restricted to parameters no TLS scheme uses — SHA-1 (empty parameters:
/// all defaults), or SHA-256 with a 20-byte salt — are refused with an error that says why.
#[test]
fn rsa_pss_keys_without_a_tls_scheme_are_refused() {
    let keys: [(&[u8], &str); 2] = [
        (include_bytes!("data/rsa-pss-sha1.key.der"), "Sha1"),
        (include_bytes!("data/rsa-pss-sha256-salt20.key.der"), "20-byte salt"),
    ];
    for (der, why) in keys {
        let err = load(pkcs8(der)).unwrap_err().to_string();
        assert!(err.contains("RFC 8446 §4.2.3") && err.contains(why), "{err}");
    }
}
