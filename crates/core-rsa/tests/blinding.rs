//! The blinding pair a private key keeps between operations (drawn once, squared for each
//! later operation, redrawn every 32): many signatures with one key, on every
//! implementation and from several threads at once, must all be the deterministic PKCS#1 v1.5
//! signature OpenSSL made (any slip in the pair would change the result or trip the fault
//! check, which returns an error).

use core_rsa::{HashAlg, Implementation, MontImpl, OsRandom, PrivateKey, RandomSource};

const MESSAGE: &[u8] = b"Halite RSA test message\n";
const KEY: &[u8] = include_bytes!("data/rsa2048_e65537.pkcs1.der");
const SIG: &[u8] = include_bytes!("data/rsa2048_e65537.sha256.sig");

fn sign(key: &PrivateKey, rng: &mut dyn RandomSource) -> Vec<u8> {
    let mut sig = vec![0u8; key.modulus_len()];
    let n = key.sign_pkcs1v15(HashAlg::Sha256, MESSAGE, rng, &mut sig).expect("signs");
    assert_eq!(n, sig.len());
    sig
}

#[test]
fn a_hundred_signatures_with_one_key_are_all_right() {
    for imp in MontImpl::ALL.iter().filter_map(|name| MontImpl::by_name(name)) {
        let key = PrivateKey::from_pkcs1_der_with_impl(KEY, imp).expect("key parses");
        // Over three refreshes of the pair (32 uses each), and the squarings in between.
        for i in 0..100 {
            assert_eq!(sign(&key, &mut OsRandom), SIG, "{} signature {i}", imp.name());
        }
    }
}

#[test]
fn threads_signing_with_one_key_agree() {
    let key = PrivateKey::from_pkcs1_der(KEY).expect("key parses");
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..40 {
                    assert_eq!(sign(&key, &mut OsRandom), SIG);
                }
            });
        }
    });
}

/// A source that fails: once a pair is kept, signing needs no randomness until the pair is
/// spent — which shows the cache is used (on targets that have it).
struct Failing;

impl RandomSource for Failing {
    fn fill(&mut self, _dest: &mut [u8]) -> Result<(), core_hash::RandomError> {
        Err(core_hash::RandomError::Unavailable)
    }
}

#[test]
fn a_kept_pair_serves_thirty_one_more_operations() {
    let key = PrivateKey::from_pkcs1_der(KEY).expect("key parses");
    assert_eq!(sign(&key, &mut OsRandom), SIG);
    for i in 0..31 {
        let mut sig = vec![0u8; key.modulus_len()];
        let r = key.sign_pkcs1v15(HashAlg::Sha256, MESSAGE, &mut Failing, &mut sig);
        assert_eq!(r, Ok(sig.len()), "operation {i} after the draw");
        assert_eq!(sig, SIG);
    }
    // The pair is spent: the next operation draws, and the failing source fails it.
    let mut sig = vec![0u8; key.modulus_len()];
    let r = key.sign_pkcs1v15(HashAlg::Sha256, MESSAGE, &mut Failing, &mut sig);
    assert_eq!(r, Err(core_rsa::Error::RandomFailed));
    // A working source draws a fresh pair.
    assert_eq!(sign(&key, &mut OsRandom), SIG);
}
