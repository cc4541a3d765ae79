//! Key generation (`keygen` feature): keys from a seeded HMAC-DRBG are the same on every
//! implementation and from run to run (pinned by a digest), pass the crate's validation on
//! import, sign, verify and decrypt; their parts satisfy FIPS 186-5 (checked with
//! RustCrypto's big integers); ring and RustCrypto `rsa` accept the PKCS#8 and agree on
//! signatures; bad sizes, exponents and random sources get typed errors.
#![cfg(feature = "keygen")]

use core_hash::{HmacDrbg, RandomError, RandomSource, Sha256};
use core_rsa::{
    Error, HashAlg, Implementation, MontImpl, Oaep, OsRandom, PrivateKey, Pss, PublicKey,
};
use rsa::BigUint;

fn impls() -> Vec<MontImpl> {
    let missing: Vec<_> = MontImpl::ALL.iter().filter(|n| MontImpl::by_name(n).is_none()).collect();
    if !missing.is_empty() {
        eprintln!("not available on this CPU, not checked: {missing:?}");
    }
    MontImpl::ALL.iter().filter_map(|n| MontImpl::by_name(n)).collect()
}

fn drbg(seed: u8) -> HmacDrbg<Sha256> {
    HmacDrbg::new(&[seed; 32], b"core-rsa keygen test", b"").unwrap()
}

fn pkcs8(key: &PrivateKey) -> Vec<u8> {
    let mut buf = vec![0u8; 4096];
    let len = key.to_pkcs8_der(&mut buf).unwrap();
    buf.truncate(len);
    buf
}

/// The PKCS#1 `RSAPrivateKey` integers `n, e, d, p, q, dp, dq, qinv`, read with RustCrypto.
fn parts(key: &PrivateKey) -> Vec<BigUint> {
    use rsa::pkcs1::EncodeRsaPrivateKey;
    use rsa::pkcs8::DecodePrivateKey;
    use rsa::traits::{PrivateKeyParts, PublicKeyParts};
    let rc = rsa::RsaPrivateKey::from_pkcs8_der(&pkcs8(key)).unwrap();
    rc.validate().unwrap();
    // The DER RustCrypto writes back must be ours: it kept every part as given.
    let mut buf = vec![0u8; 4096];
    let len = key.to_pkcs1_der(&mut buf).unwrap();
    assert_eq!(rc.to_pkcs1_der().unwrap().as_bytes(), &buf[..len]);
    let [p, q] = rc.primes() else { panic!("two primes") };
    let dp = rc.dp().unwrap().clone();
    let dq = rc.dq().unwrap().clone();
    vec![rc.n().clone(), rc.e().clone(), rc.d().clone(), p.clone(), q.clone(), dp, dq]
}

fn gcd(mut a: BigUint, mut b: BigUint) -> BigUint {
    let zero = BigUint::from(0u8);
    while b != zero {
        let r = &a % &b;
        a = b;
        b = r;
    }
    a
}

/// FIPS 186-5 A.1.1/A.1.3 conditions on a generated key, checked with num-bigint-dig.
fn check_fips(key: &PrivateKey, bits: usize) {
    let v = parts(key);
    let (n, e, d, p, q, dp, dq) = (&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]);
    let one = BigUint::from(1u8);
    let half = bits / 2;
    assert_eq!(n.bits(), bits, "|n| exact");
    assert_eq!(&(p * q), n);
    assert!(p > q, "p > q");
    // p, q ≥ √2·2^(half-1): p² ≥ 2^(2·half-1).
    for x in [p, q] {
        assert_eq!(x.bits(), half);
        assert!(x * x >= one.clone() << (2 * half - 1), "above √2·2^(nlen/2-1)");
        // Fermat to bases 2, 3, 5, 7: a cross-check of the Miller–Rabin verdict.
        for b in [2u8, 3, 5, 7] {
            assert_eq!(BigUint::from(b).modpow(&(x - &one), x), one, "Fermat base {b}");
        }
        assert_eq!(gcd(x - &one, e.clone()), one, "gcd(p-1, e) = 1");
    }
    assert!(p - q > one.clone() << (half - 100), "|p - q| > 2^(nlen/2-100)");
    let p1 = p - &one;
    let q1 = q - &one;
    let lambda = &p1 * &q1 / gcd(p1.clone(), q1.clone());
    assert_eq!((d * e) % &lambda, one, "d = e^-1 mod λ(n)");
    assert!(d < &lambda && d > &(one.clone() << half), "2^(nlen/2) < d < λ(n)");
    assert_eq!(dp, &(d % &p1));
    assert_eq!(dq, &(d % &q1));
}

/// A seeded 2048-bit key is the same on every implementation (the implementation only runs
/// the Miller–Rabin exponentiations and `q^-1 mod p`), and the same from run to run.
#[test]
fn deterministic_on_every_implementation() {
    let mut first: Option<Vec<u8>> = None;
    for imp in impls() {
        let key = PrivateKey::generate_with(2048, 65537, imp, &mut drbg(7)).unwrap();
        assert_eq!(key.implementation(), imp);
        assert_eq!(key.bits(), 2048);
        let der = pkcs8(&key);
        match &first {
            None => first = Some(der),
            Some(f) => assert_eq!(&der, f, "{} differs", imp.name()),
        }
    }
    // Pinned: a change to the generation procedure shows here.
    let digest = Sha256::digest(&first.unwrap());
    assert_eq!(
        digest,
        hex_literal::hex!("369b8b7a14ab5d17d17de28cd38ed73bf75412ecab7a5924e91e863a343b67d3"),
        "digest of the seeded key's PKCS#8"
    );
}

#[test]
fn generated_keys_work_and_meet_fips() {
    for (bits, seed) in [(2048, 1u8), (3072, 2), (4096, 3)] {
        let key =
            PrivateKey::generate_with(bits, 65537, MontImpl::best(), &mut drbg(seed)).unwrap();
        check_fips(&key, bits);
        let k = key.modulus_len();
        assert_eq!(k, bits / 8);
        // Export and import on every implementation (which validates the key), then use it.
        let der = pkcs8(&key);
        for imp in impls().into_iter().filter(|i| bits <= 2048 || *i != MontImpl::Portable15) {
            let back = PrivateKey::from_pkcs8_der_with_impl(&der, imp).unwrap();
            assert_eq!(pkcs8(&back), der, "{bits} {} round trip", imp.name());
            let public = back.public_key();
            let mut sig = vec![0u8; k];
            back.sign_pkcs1v15(HashAlg::Sha256, b"msg", &mut OsRandom, &mut sig).unwrap();
            public.verify_pkcs1v15(HashAlg::Sha256, b"msg", &sig).unwrap();
            back.sign_pss(Pss::new(HashAlg::Sha384), b"msg", &mut OsRandom, &mut sig).unwrap();
            public.verify_pss(Pss::new(HashAlg::Sha384), b"msg", &sig).unwrap();
            let mut ct = vec![0u8; k];
            let oaep = Oaep::new(HashAlg::Sha256);
            public.encrypt_oaep(oaep, b"l", b"secret", &mut OsRandom, &mut ct).unwrap();
            let mut pt = vec![0u8; k];
            let n = back.decrypt_oaep(oaep, b"l", &ct, &mut OsRandom, &mut pt).unwrap();
            assert_eq!(&pt[..n], b"secret");
            let mut spki = vec![0u8; 1024];
            let len = public.to_spki_der(&mut spki).unwrap();
            let p2 = PublicKey::from_spki_der(&spki[..len]).unwrap();
            p2.verify_pss(Pss::new(HashAlg::Sha384), b"msg", &sig).unwrap();
        }
    }
}

/// ring parses the generated PKCS#8 (it checks the key's consistency itself), makes the same
/// PKCS#1 v1.5 signature as Halite, and verifies Halite's PSS signature; RustCrypto verifies
/// it too.
#[test]
fn ring_and_rustcrypto_accept_generated_keys() {
    use rsa::pkcs8::DecodePrivateKey;
    use rsa::signature::Verifier;
    let key = PrivateKey::generate(2048, &mut drbg(9)).unwrap();
    let der = pkcs8(&key);
    let ring_key = ring::rsa::KeyPair::from_pkcs8(&der).unwrap();
    let msg = b"generated by Halite";
    let mut theirs = vec![0u8; 256];
    ring_key
        .sign(
            &ring::signature::RSA_PKCS1_SHA256,
            &ring::rand::SystemRandom::new(),
            msg,
            &mut theirs,
        )
        .unwrap();
    let mut ours = vec![0u8; 256];
    key.sign_pkcs1v15(HashAlg::Sha256, msg, &mut OsRandom, &mut ours).unwrap();
    assert_eq!(ours, theirs, "PKCS#1 v1.5 is deterministic");
    let mut pss = vec![0u8; 256];
    key.sign_pss(Pss::new(HashAlg::Sha256), msg, &mut OsRandom, &mut pss).unwrap();
    let public = ring_key.public().as_ref().to_vec();
    ring::signature::UnparsedPublicKey::new(&ring::signature::RSA_PSS_2048_8192_SHA256, &public)
        .verify(msg, &pss)
        .unwrap();
    let rc = rsa::RsaPrivateKey::from_pkcs8_der(&der).unwrap();
    let verifier = rsa::pss::VerifyingKey::<sha2::Sha256>::new(rc.to_public_key());
    verifier.verify(msg, &rsa::pss::Signature::try_from(&pss[..]).unwrap()).unwrap();
}

/// Delivers `budget` bytes, then fails; counts what it delivered.
struct Failing {
    budget: usize,
    used: usize,
    inner: HmacDrbg<Sha256>,
}

impl RandomSource for Failing {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), RandomError> {
        if dest.len() > self.budget - self.used {
            return Err(RandomError::Unavailable);
        }
        self.used += dest.len();
        self.inner.fill(dest)
    }
}

/// Always the same byte.
struct Constant(u8);

impl RandomSource for Constant {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), RandomError> {
        dest.fill(self.0);
        Ok(())
    }
}

#[test]
fn bad_arguments_and_sources() {
    let best = MontImpl::best();
    for bits in [0, 1024, 2047, 2049, 8192] {
        assert_eq!(
            PrivateKey::generate_with(bits, 65537, best, &mut OsRandom).err(),
            Some(Error::UnsupportedKeySize),
            "{bits}"
        );
    }
    for e in [0, 1, 3, 65535, 65536, 65538, 1 << 63 | 1] {
        assert_eq!(
            PrivateKey::generate_with(2048, e, best, &mut OsRandom).err(),
            Some(Error::InvalidExponent),
            "e = {e}"
        );
    }
    // How much a seeded generation draws; then a source failing at once, half way, and on
    // the very last request.
    let mut rng = Failing { budget: usize::MAX, used: 0, inner: drbg(4) };
    PrivateKey::generate(2048, &mut rng).unwrap();
    let total = rng.used;
    for budget in [0, total / 2, total - 1] {
        let mut rng = Failing { budget, used: 0, inner: drbg(4) };
        assert_eq!(
            PrivateKey::generate(2048, &mut rng).err(),
            Some(Error::RandomFailed),
            "budget {budget}"
        );
    }
    // Stuck sources: all zeros never reaches √2·2^(bits-1); all ones is divisible by 3.
    for b in [0x00, 0xff] {
        assert_eq!(
            PrivateKey::generate(2048, &mut Constant(b)).err(),
            Some(Error::KeyGeneration),
            "constant {b:#x}"
        );
    }
    // e other than 65537 is honoured.
    let key = PrivateKey::generate_with(2048, 65539, best, &mut drbg(5)).unwrap();
    assert_eq!(key.public_key().exponent(), 65539);
    check_fips(&key, 2048);
}
