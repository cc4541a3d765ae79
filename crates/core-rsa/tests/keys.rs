//! RSA keys and schemes against the OpenSSL-made fixtures in `tests/data` (2048/3072/4096
//! bits, e = 65537 and e = 3): every DER form parses and re-exports byte for byte, PKCS#1 v1.5
//! signatures are byte-equal to OpenSSL's, OpenSSL's PSS signatures verify, our PSS and OAEP
//! round-trip, all on every implementation; bad DER, bad keys and bad inputs get typed errors.

use core_rsa::{
    Error, HashAlg, Implementation, MontImpl, Oaep, OsRandom, PrivateKey, Pss, PublicKey,
};

const MESSAGE: &[u8] = b"Halite RSA test message\n";

struct Fixture {
    name: &'static str,
    bits: usize,
    pkcs1: &'static [u8],
    pkcs8: &'static [u8],
    spki: &'static [u8],
    pub_pkcs1: &'static [u8],
    sigs: [(HashAlg, &'static [u8]); 3],
    pss: &'static [u8],
}

macro_rules! fixture {
    ($name:literal, $bits:expr) => {
        Fixture {
            name: $name,
            bits: $bits,
            pkcs1: include_bytes!(concat!("data/", $name, ".pkcs1.der")),
            pkcs8: include_bytes!(concat!("data/", $name, ".pkcs8.der")),
            spki: include_bytes!(concat!("data/", $name, ".spki.der")),
            pub_pkcs1: include_bytes!(concat!("data/", $name, ".pub.pkcs1.der")),
            sigs: [
                (HashAlg::Sha256, include_bytes!(concat!("data/", $name, ".sha256.sig"))),
                (HashAlg::Sha384, include_bytes!(concat!("data/", $name, ".sha384.sig"))),
                (HashAlg::Sha512, include_bytes!(concat!("data/", $name, ".sha512.sig"))),
            ],
            pss: include_bytes!(concat!("data/", $name, ".pss-sha256.sig")),
        }
    };
}

const FIXTURES: [Fixture; 6] = [
    fixture!("rsa2048_e65537", 2048),
    fixture!("rsa2048_e3", 2048),
    fixture!("rsa3072_e65537", 3072),
    fixture!("rsa3072_e3", 3072),
    fixture!("rsa4096_e65537", 4096),
    fixture!("rsa4096_e3", 4096),
];

/// The implementations a fixture's private-key checks run on: `portable15` only up to 3072
/// bits, where its speed in the test profile allows (it is cross-checked against
/// `portable64` at every size in `tests/modexp.rs`).
fn private_impls(bits: usize) -> Vec<MontImpl> {
    impls().into_iter().filter(|i| bits <= 3072 || *i != MontImpl::Portable15).collect()
}

fn impls() -> Vec<MontImpl> {
    let missing: Vec<_> = MontImpl::ALL.iter().filter(|n| MontImpl::by_name(n).is_none()).collect();
    if !missing.is_empty() {
        eprintln!("not available on this CPU, not checked: {missing:?}");
    }
    MontImpl::ALL.iter().filter_map(|n| MontImpl::by_name(n)).collect()
}

#[test]
fn der_round_trips() {
    let mut buf = vec![0u8; 8192];
    for f in &FIXTURES {
        for imp in impls() {
            let n = format!("{} {}", f.name, imp.name());
            let k1 = PrivateKey::from_pkcs1_der_with_impl(f.pkcs1, imp).unwrap();
            let k8 = PrivateKey::from_pkcs8_der_with_impl(f.pkcs8, imp).unwrap();
            assert_eq!(k1.bits(), f.bits, "{n}");
            assert_eq!(k1.implementation(), imp);
            let len = k1.to_pkcs1_der(&mut buf).unwrap();
            assert_eq!(&buf[..len], f.pkcs1, "{n} PKCS#1 export");
            let len = k8.to_pkcs8_der(&mut buf).unwrap();
            assert_eq!(&buf[..len], f.pkcs8, "{n} PKCS#8 export");
            let p = PublicKey::from_spki_der(f.spki).unwrap().with_impl(imp).unwrap();
            let len = p.to_spki_der(&mut buf).unwrap();
            assert_eq!(&buf[..len], f.spki, "{n} SPKI export");
            let len = k8.public_key().to_pkcs1_der(&mut buf).unwrap();
            assert_eq!(&buf[..len], f.pub_pkcs1, "{n} public PKCS#1 export");
            let q = PublicKey::from_pkcs1_der(f.pub_pkcs1).unwrap();
            assert_eq!(q.exponent(), p.exponent());
            assert_eq!(q.modulus_len(), f.bits / 8);
            // A buffer one byte short is refused, not overrun.
            assert_eq!(k1.to_pkcs1_der(&mut buf[..f.pkcs1.len() - 1]), Err(Error::BufferTooSmall));
            assert_eq!(p.to_spki_der(&mut buf[..f.spki.len() - 1]), Err(Error::BufferTooSmall));
        }
    }
}

#[test]
fn pkcs1v15_signatures_equal_openssls() {
    for f in &FIXTURES {
        for imp in private_impls(f.bits) {
            let key = PrivateKey::from_pkcs8_der_with_impl(f.pkcs8, imp).unwrap();
            let public = key.public_key();
            for (hash, want) in f.sigs {
                let n = format!("{} {} {hash:?}", f.name, imp.name());
                let mut sig = vec![0u8; key.modulus_len()];
                let len = key.sign_pkcs1v15(hash, MESSAGE, &mut OsRandom, &mut sig).unwrap();
                assert_eq!(len, want.len());
                assert_eq!(sig, want, "{n} signature");
                public.verify_pkcs1v15(hash, MESSAGE, want).unwrap();
                assert_eq!(
                    public.verify_pkcs1v15(hash, b"Halite RSA test message", want),
                    Err(Error::InvalidSignature),
                    "{n} other message"
                );
                let other = if hash == HashAlg::Sha256 { HashAlg::Sha384 } else { HashAlg::Sha256 };
                assert_eq!(
                    public.verify_pkcs1v15(other, MESSAGE, want),
                    Err(Error::InvalidSignature)
                );
                let mut bad = want.to_vec();
                bad[want.len() / 2] ^= 0x10;
                assert_eq!(
                    public.verify_pkcs1v15(hash, MESSAGE, &bad),
                    Err(Error::InvalidSignature)
                );
                assert_eq!(
                    public.verify_pkcs1v15(hash, MESSAGE, &want[1..]),
                    Err(Error::InvalidSignature),
                    "{n} short signature"
                );
            }
        }
    }
}

#[test]
fn pss_sign_verify_and_openssl() {
    for f in &FIXTURES {
        for imp in private_impls(f.bits) {
            let n = format!("{} {}", f.name, imp.name());
            let key = PrivateKey::from_pkcs1_der_with_impl(f.pkcs1, imp).unwrap();
            let public = key.public_key();
            public.verify_pss(Pss::new(HashAlg::Sha256), MESSAGE, f.pss).unwrap();
            public.verify_pss(Pss::with_salt_len(HashAlg::Sha256, 32), MESSAGE, f.pss).unwrap();
            assert_eq!(
                public.verify_pss(Pss::with_salt_len(HashAlg::Sha256, 20), MESSAGE, f.pss),
                Err(Error::InvalidSignature),
                "{n} wrong required salt length"
            );
            for pss in [
                Pss::new(HashAlg::Sha256),
                Pss::new(HashAlg::Sha384),
                Pss::new(HashAlg::Sha512),
                Pss::with_salt_len(HashAlg::Sha256, 0),
                Pss { hash: HashAlg::Sha512, mgf1_hash: HashAlg::Sha256, salt_len: Some(17) },
            ] {
                let mut a = vec![0u8; key.modulus_len()];
                let mut b = vec![0u8; key.modulus_len()];
                key.sign_pss(pss, MESSAGE, &mut OsRandom, &mut a).unwrap();
                key.sign_pss(pss, MESSAGE, &mut OsRandom, &mut b).unwrap();
                if pss.salt_len == Some(0) {
                    assert_eq!(a, b, "{n} {pss:?}: no salt, deterministic");
                } else {
                    assert_ne!(a, b, "{n} {pss:?}: salts differ");
                }
                public.verify_pss(pss, MESSAGE, &a).unwrap();
                assert_eq!(public.verify_pss(pss, b"x", &a), Err(Error::InvalidSignature));
            }
            assert_eq!(
                key.sign_pss(Pss::new(HashAlg::Sha1), MESSAGE, &mut OsRandom, &mut [0; 512]),
                Err(Error::UnsupportedHash)
            );
            assert_eq!(
                key.sign_pkcs1v15(HashAlg::Sha1, MESSAGE, &mut OsRandom, &mut [0; 512]),
                Err(Error::UnsupportedHash)
            );
        }
    }
}

#[test]
fn oaep_round_trips_and_rejects() {
    for f in &FIXTURES {
        for imp in private_impls(f.bits) {
            let n = format!("{} {}", f.name, imp.name());
            let key = PrivateKey::from_pkcs8_der_with_impl(f.pkcs8, imp).unwrap();
            let public = key.public_key();
            let k = key.modulus_len();
            for oaep in [
                Oaep::new(HashAlg::Sha256),
                Oaep::new(HashAlg::Sha1),
                Oaep { hash: HashAlg::Sha512, mgf1_hash: HashAlg::Sha1 },
            ] {
                let max = oaep.max_message_len(k);
                for len in [0, 1, max / 2, max] {
                    let msg: Vec<u8> = (0..len).map(|i| i as u8).collect();
                    let mut ct = vec![0u8; k];
                    public.encrypt_oaep(oaep, b"label", &msg, &mut OsRandom, &mut ct).unwrap();
                    let mut out = vec![0u8; max];
                    let got =
                        key.decrypt_oaep(oaep, b"label", &ct, &mut OsRandom, &mut out).unwrap();
                    assert_eq!(&out[..got], &msg[..], "{n} {oaep:?} {len}");
                    assert_eq!(
                        key.decrypt_oaep(oaep, b"other", &ct, &mut OsRandom, &mut out),
                        Err(Error::Decryption),
                        "{n} wrong label"
                    );
                    let mut bad = ct.clone();
                    bad[k - 1] ^= 1;
                    assert_eq!(
                        key.decrypt_oaep(oaep, b"label", &bad, &mut OsRandom, &mut out),
                        Err(Error::Decryption),
                        "{n} changed ciphertext"
                    );
                }
                let too_long = vec![0u8; max + 1];
                assert_eq!(
                    public.encrypt_oaep(oaep, b"", &too_long, &mut OsRandom, &mut [0u8; 512]),
                    Err(Error::MessageTooLong)
                );
            }
            // A ciphertext of n itself (not below n) or of the wrong length.
            let mut out = vec![0u8; k];
            let mut nbytes = vec![0u8; k];
            public.write_modulus(&mut nbytes).unwrap();
            let o = Oaep::new(HashAlg::Sha256);
            assert_eq!(
                key.decrypt_oaep(o, b"", &nbytes, &mut OsRandom, &mut out),
                Err(Error::Decryption)
            );
            assert_eq!(
                key.decrypt_oaep(o, b"", &nbytes[1..], &mut OsRandom, &mut out),
                Err(Error::Decryption)
            );
            assert_eq!(
                key.decrypt_oaep(o, b"", &nbytes, &mut OsRandom, &mut out[..10]),
                Err(Error::BufferTooSmall)
            );
            assert_eq!(
                key.decrypt_pkcs1v15(&nbytes, &mut OsRandom, &mut out[..10]),
                Err(Error::BufferTooSmall)
            );
        }
    }
}

#[test]
fn raw_operations_invert_each_other() {
    let f = &FIXTURES[0];
    for imp in impls() {
        let key = PrivateKey::from_pkcs1_der_with_impl(f.pkcs1, imp).unwrap();
        let public = key.public_key();
        let k = key.modulus_len();
        for seed in 0u8..4 {
            let mut m: Vec<u8> = (0..k).map(|i| (i as u8).wrapping_mul(seed + 3)).collect();
            m[0] &= 0x3f;
            let (mut s, mut back) = (vec![0u8; k], vec![0u8; k]);
            key.raw_private(&m, &mut s, &mut OsRandom).unwrap();
            public.raw_public(&s, &mut back).unwrap();
            assert_eq!(back, m);
        }
        let mut nbytes = vec![0u8; k];
        public.write_modulus(&mut nbytes).unwrap();
        let mut out = vec![0u8; k];
        assert_eq!(public.raw_public(&nbytes, &mut out), Err(Error::OutOfRange));
        assert_eq!(key.raw_private(&nbytes, &mut out, &mut OsRandom), Err(Error::OutOfRange));
        assert_eq!(public.raw_public(&nbytes[1..], &mut out), Err(Error::InvalidLength));
    }
}

/// Every truncation and many single-byte changes of every DER fixture give an error or a
/// valid key, never a panic; truncations always give `InvalidDer`.
#[test]
fn malformed_der_is_refused() {
    for f in &FIXTURES[..2] {
        for cut in 0..f.pkcs8.len() {
            assert_eq!(PrivateKey::from_pkcs8_der(&f.pkcs8[..cut]).err(), Some(Error::InvalidDer));
        }
        for cut in 0..f.pkcs1.len() {
            assert_eq!(PrivateKey::from_pkcs1_der(&f.pkcs1[..cut]).err(), Some(Error::InvalidDer));
        }
        for cut in 0..f.spki.len() {
            assert_eq!(PublicKey::from_spki_der(&f.spki[..cut]).err(), Some(Error::InvalidDer));
        }
        let mut extra = f.spki.to_vec();
        extra.push(0);
        assert_eq!(PublicKey::from_spki_der(&extra).err(), Some(Error::InvalidDer));
        // Each header byte of the PKCS#1 key changed: never a panic.
        for i in 0..40 {
            let mut d = f.pkcs1.to_vec();
            d[i] ^= 0x41;
            assert!(PrivateKey::from_pkcs1_der(&d).is_err(), "byte {i}");
        }
        // The wrong format for each parser.
        assert_eq!(PrivateKey::from_pkcs8_der(f.pkcs1).err(), Some(Error::InvalidDer));
        assert_eq!(PublicKey::from_spki_der(f.pub_pkcs1).err(), Some(Error::InvalidDer));
    }
}

/// Keys whose numbers disagree are refused with `InvalidPrivateKey`; bad public parameters
/// with their own errors.
#[test]
fn inconsistent_keys_are_refused() {
    use rsa::pkcs8::DecodePrivateKey;
    use rsa::traits::{PrivateKeyParts, PublicKeyParts};
    let f = &FIXTURES[0];
    let k = rsa::RsaPrivateKey::from_pkcs8_der(f.pkcs8).unwrap();
    let n = k.n().to_bytes_be();
    let e = k.e().to_bytes_be();
    let d = k.d().to_bytes_be();
    let (p, q) = (k.primes()[0].to_bytes_be(), k.primes()[1].to_bytes_be());
    let dp = k.dp().unwrap().to_bytes_be();
    let dq = k.dq().unwrap().to_bytes_be();
    let qinv = k.crt_coefficient().unwrap().to_bytes_be();
    let bump = |v: &[u8]| {
        let mut v = v.to_vec();
        let last = v.len() - 1;
        v[last] ^= 2;
        v
    };
    let bad = Some(Error::InvalidPrivateKey);
    // Every implementation: the check runs on each one's arithmetic.
    for imp in private_impls(n.len() * 8) {
        PrivateKey::from_components(&n, &e, &d, &p, &q, &dp, &dq, &qinv, imp).unwrap();
        assert_eq!(
            PrivateKey::from_components(&n, &e, &d, &bump(&p), &q, &dp, &dq, &qinv, imp).err(),
            bad
        );
        assert_eq!(
            PrivateKey::from_components(&n, &e, &d, &p, &q, &bump(&dp), &dq, &qinv, imp).err(),
            bad
        );
        assert_eq!(
            PrivateKey::from_components(&n, &e, &d, &p, &q, &dp, &bump(&dq), &qinv, imp).err(),
            bad
        );
        assert_eq!(
            PrivateKey::from_components(&n, &e, &d, &p, &q, &dp, &dq, &bump(&qinv), imp).err(),
            bad
        );
        assert_eq!(
            PrivateKey::from_components(&n, &e, &d, &q, &p, &dq, &dp, &qinv, imp).err(),
            bad,
            "swapped primes, qinv for the other order"
        );
    }
    let imp = MontImpl::best();
    assert_eq!(
        PrivateKey::from_components(&n, &[1, 0, 0], &d, &p, &q, &dp, &dq, &qinv, imp).err(),
        Some(Error::InvalidExponent)
    );
    assert_eq!(PublicKey::from_components(&n, &[1]).err(), Some(Error::InvalidExponent));
    assert_eq!(PublicKey::from_components(&n, &[4]).err(), Some(Error::InvalidExponent));
    assert_eq!(PublicKey::from_components(&n, &[1; 9]).err(), Some(Error::InvalidExponent));
    let mut even = n.clone();
    even[255] &= 0xfe;
    assert_eq!(PublicKey::from_components(&even, &e).err(), Some(Error::InvalidModulus), "even");
    let mut small = n[..100].to_vec();
    small[99] |= 1;
    assert_eq!(PublicKey::from_components(&small, &e).err(), Some(Error::UnsupportedKeySize));
    let mut huge = std::vec![0xffu8; core_rsa::MAX_BITS / 8 + 1];
    huge[0] = 0;
    huge.push(0xff);
    assert_eq!(
        PublicKey::from_components(&huge, &e).err(),
        Some(Error::UnsupportedKeySize),
        "a modulus above MAX_BITS"
    );
    let mut n1024 = n[..128].to_vec();
    n1024[0] |= 0x80;
    n1024[127] |= 1;
    let p1024 = PublicKey::from_components(&n1024, &e).unwrap();
    assert_eq!(p1024.bits(), 1024, "1024-bit keys load for verification");
    assert_eq!(
        p1024.encrypt_oaep(Oaep::new(HashAlg::Sha256), b"", b"m", &mut OsRandom, &mut [0; 128]),
        Err(Error::UnsupportedKeySize),
        "but do not encrypt"
    );
}

/// Signing a digest is signing its message: PKCS#1 v1.5 byte for byte (OpenSSL's
/// signatures), PSS by verification; a digest of the wrong length is refused.
#[test]
fn prehash_signatures_equal_message_signatures() {
    use sha2::Digest;
    let f = &FIXTURES[0];
    let key = PrivateKey::from_pkcs8_der(f.pkcs8).unwrap();
    let public = key.public_key();
    let digest = |hash: HashAlg| match hash {
        HashAlg::Sha256 => sha2::Sha256::digest(MESSAGE).to_vec(),
        HashAlg::Sha384 => sha2::Sha384::digest(MESSAGE).to_vec(),
        _ => sha2::Sha512::digest(MESSAGE).to_vec(),
    };
    for (hash, want) in f.sigs {
        let mut sig = vec![0u8; key.modulus_len()];
        let len = key.sign_pkcs1v15_prehash(hash, &digest(hash), &mut OsRandom, &mut sig).unwrap();
        assert_eq!(&sig[..len], want, "{hash:?}");
        let pss = Pss::new(hash);
        let len = key.sign_pss_prehash(pss, &digest(hash), &mut OsRandom, &mut sig).unwrap();
        public.verify_pss(pss, MESSAGE, &sig[..len]).unwrap();
        public.verify_pss_prehash(pss, &digest(hash), &sig[..len]).unwrap();
        public.verify_pkcs1v15_prehash(hash, &digest(hash), want).unwrap();
        let mut bad = want.to_vec();
        bad[5] ^= 1;
        assert_eq!(
            public.verify_pkcs1v15_prehash(hash, &digest(hash), &bad),
            Err(Error::InvalidSignature)
        );
        assert_eq!(
            public.verify_pss_prehash(pss, &digest(hash), &bad),
            Err(Error::InvalidSignature)
        );
        let short = &digest(hash)[1..];
        assert_eq!(
            key.sign_pkcs1v15_prehash(hash, short, &mut OsRandom, &mut sig),
            Err(Error::InvalidLength)
        );
        assert_eq!(
            key.sign_pss_prehash(pss, short, &mut OsRandom, &mut sig),
            Err(Error::InvalidLength)
        );
        assert_eq!(public.verify_pkcs1v15_prehash(hash, short, want), Err(Error::InvalidLength));
        assert_eq!(public.verify_pss_prehash(pss, short, &sig[..len]), Err(Error::InvalidLength));
    }
}
