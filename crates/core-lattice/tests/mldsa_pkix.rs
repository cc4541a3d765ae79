//! ML-DSA key files (RFC 9881): the LAMPS working group's example keys and certificates
//! (lamps-wg/dilithium-certificates `examples/`, commit 785a549, the seed 00 01 … 1f in all
//! three private-key forms, its public key, a self-signed certificate, and three keys that
//! must be refused), read and written back byte for byte; and RustCrypto `ml-dsa`'s PKCS#8
//! and SPKI encoders against ours on random seeds.

use core_der::der::{self, Reader};
use core_lattice::{Error, KeyAlgorithm, mldsa44, mldsa65, mldsa87};
use ml_dsa::pkcs8::{EncodePrivateKey, EncodePublicKey};
use ml_dsa::{B32, MlDsa44, MlDsa65, MlDsa87};
use proptest::prelude::*;

/// One of the LAMPS example files.
macro_rules! example {
    ($($name:expr),+) => {
        include_str!(concat!("data/lamps/", $($name),+))
    };
}

/// The seed of every example key.
const SEED: [u8; 32] = {
    let mut s = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        s[i] = i as u8;
        i += 1;
    }
    s
};

/// The `TBSCertificate`, the signature algorithm and the signature of a certificate (DER).
fn split_certificate(der: &[u8]) -> (&[u8], &[u8], &[u8]) {
    let mut cert = Reader::new(der::only(der, der::SEQUENCE).unwrap());
    let tbs = cert.read_element().unwrap();
    let alg = cert.read(der::SEQUENCE).unwrap();
    let sig = cert.bit_string().unwrap();
    cert.finish().unwrap();
    (tbs, alg, sig)
}

/// The DER of a PEM block.
fn pem_der(text: &str, label: &str) -> Vec<u8> {
    let mut buf = vec![0u8; text.len()];
    core_der::pem::decode_first(text, label, &mut buf).unwrap().to_vec()
}

macro_rules! lamps_examples {
    ($test:ident, $m:ident, $name:literal, $other:ident, $kind:ident) => {
        #[test]
        fn $test() {
            let seed_pem = example!($name, "-seed.priv");
            let public_pem = example!($name, ".pub");
            let key = $m::SigningKey::from_pkcs8_pem(seed_pem).unwrap();
            assert_eq!(key.seed(), Some(&SEED));
            let public = $m::VerifyingKey::from_public_key_pem(public_pem).unwrap();
            assert_eq!(key.verifying_key(), &public);

            // Written back exactly: the seed form, and the SPKI.
            let mut out = vec![0u8; $m::PKCS8_PEM_LEN];
            assert_eq!(key.to_pkcs8_pem(&mut out).unwrap(), seed_pem);
            assert_eq!(&*key.to_pkcs8_pem_string().unwrap(), seed_pem);
            let mut out = vec![0u8; $m::PUBLIC_KEY_PEM_LEN];
            assert_eq!(public.to_public_key_pem(&mut out).unwrap(), public_pem);
            assert_eq!(public.to_public_key_pem_string().unwrap(), public_pem);
            let mut der = vec![0u8; $m::PKCS8_DER_LEN];
            assert_eq!(key.to_pkcs8_der(&mut der), Ok($m::PKCS8_DER_LEN));
            assert_eq!(der, pem_der(seed_pem, "PRIVATE KEY"));
            let mut short = [0u8; 16];
            assert_eq!(key.to_pkcs8_der(&mut short), Err(Error::BufferTooSmall));
            assert_eq!(public.to_public_key_pem(&mut short), Err(Error::BufferTooSmall));

            // The expanded form reads as the same key, knows no seed, and is written back
            // in its own form, exactly.
            let expanded_pem = example!($name, "-expanded.priv");
            let expanded = $m::SigningKey::from_pkcs8_pem(expanded_pem).unwrap();
            assert_eq!(expanded.as_bytes(), key.as_bytes());
            assert_eq!(expanded.seed(), None);
            let mut der = vec![0u8; $m::PKCS8_EXPANDED_DER_LEN];
            assert_eq!(expanded.to_pkcs8_der(&mut der), Ok($m::PKCS8_EXPANDED_DER_LEN));
            assert_eq!(der, pem_der(expanded_pem, "PRIVATE KEY"));

            // Both: the same key, written in the seed form.
            let both = $m::SigningKey::from_pkcs8_pem(example!($name, "-both.priv"));
            let both = both.unwrap();
            assert_eq!(both.as_bytes(), key.as_bytes());
            assert_eq!(both.seed(), Some(&SEED));

            // Another parameter set's key is named, not misread.
            assert_eq!(
                $other::SigningKey::from_pkcs8_pem(seed_pem).err(),
                Some(Error::WrongAlgorithm { found: KeyAlgorithm::$kind })
            );
            assert_eq!(
                $other::VerifyingKey::from_public_key_pem(public_pem).err(),
                Some(Error::WrongAlgorithm { found: KeyAlgorithm::$kind })
            );

            // The self-signed certificate: its key is the example's, and its signature (pure
            // ML-DSA over the TBSCertificate, empty context: RFC 9881 §3) verifies.
            let cert = pem_der(example!($name, ".crt"), "CERTIFICATE");
            let (tbs, alg, sig) = split_certificate(&cert);
            assert_eq!(der::only(alg, der::OID).ok(), Some(oid(KeyAlgorithm::$kind)));
            let sig = $m::Signature::from_bytes(sig).unwrap();
            assert_eq!(public.verify(tbs, b"", &sig), Ok(()));
            assert_eq!(public.verify(&tbs[1..], b"", &sig), Err(Error::InvalidSignature));
        }
    };
}

lamps_examples!(lamps_mldsa44, mldsa44, "ML-DSA-44", mldsa65, MlDsa44);
lamps_examples!(lamps_mldsa65, mldsa65, "ML-DSA-65", mldsa87, MlDsa65);
lamps_examples!(lamps_mldsa87, mldsa87, "ML-DSA-87", mldsa44, MlDsa87);

/// The OID contents of an ML-DSA key kind.
fn oid(kind: KeyAlgorithm) -> &'static [u8] {
    match kind {
        KeyAlgorithm::MlDsa44 => core_der::pkix::oid::ML_DSA_44,
        KeyAlgorithm::MlDsa65 => core_der::pkix::oid::ML_DSA_65,
        _ => core_der::pkix::oid::ML_DSA_87,
    }
}

/// The LAMPS examples of keys to refuse: a `both` whose halves disagree, and two expanded
/// keys whose t₀ or tr is not the one their ρ, s₁ and s₂ give.
#[test]
fn lamps_bad_keys_are_refused() {
    for text in [
        example!("bad-ML-DSA-44-1.priv"),
        example!("bad-ML-DSA-44-2.priv"),
        example!("bad-ML-DSA-44-3.priv"),
    ] {
        assert_eq!(mldsa44::SigningKey::from_pkcs8_pem(text).err(), Some(Error::InvalidSigningKey));
    }
}

/// Malformed envelopes: parameters present, a public key beside the private one that is not
/// its own, a seed of the wrong length, an unknown CHOICE tag, trailing bytes, and keys of
/// other algorithms.
#[test]
fn malformed_keys_are_refused() {
    let key = mldsa44::SigningKey::from_seed(&SEED);
    let mut der = vec![0u8; mldsa44::PKCS8_DER_LEN];
    key.to_pkcs8_der(&mut der).unwrap();
    // 30 34 | 02 01 00 | 30 0b 06 09 <oid> | 04 22 80 20 <seed>
    assert_eq!(&der[..7], &[0x30, 0x34, 0x02, 0x01, 0x00, 0x30, 0x0b]);
    assert_eq!(&der[18..22], &[0x04, 0x22, 0x80, 0x20]);

    let with_params =
        [&[0x30, 0x36, 0x02, 0x01, 0x00, 0x30, 0x0d][..], &der[7..18], &[0x05, 0x00], &der[18..]]
            .concat();
    assert_eq!(mldsa44::SigningKey::from_pkcs8_der(&with_params).err(), Some(Error::InvalidDer));

    let mut other_tag = der.clone();
    other_tag[20] = 0x81;
    assert_eq!(mldsa44::SigningKey::from_pkcs8_der(&other_tag).err(), Some(Error::InvalidDer));

    let short_seed =
        [&[0x30, 0x33][..], &der[2..18], &[0x04, 0x21, 0x80, 0x1f], &der[23..]].concat();
    assert_eq!(mldsa44::SigningKey::from_pkcs8_der(&short_seed).err(), Some(Error::InvalidLength));

    let mut trailing = der.clone();
    trailing.push(0);
    assert_eq!(mldsa44::SigningKey::from_pkcs8_der(&trailing).err(), Some(Error::InvalidDer));
    assert_eq!(mldsa44::SigningKey::from_pkcs8_der(&der[..53]).err(), Some(Error::InvalidDer));

    // OneAsymmetricKey (version 1) with a public key: this key's is accepted, another not.
    let with_public = |pk: &[u8]| {
        let info = core_der::pkix::PrivateKeyInfo::from_der(&der).unwrap();
        let info = core_der::pkix::PrivateKeyInfo { public_key: Some(pk), ..info };
        let mut out = vec![0u8; info.encoded_len()];
        info.to_der(&mut out).unwrap();
        out
    };
    let own = with_public(key.verifying_key().as_bytes());
    assert!(mldsa44::SigningKey::from_pkcs8_der(&own).is_ok());
    let other = mldsa44::SigningKey::from_seed(&[7; 32]);
    let theirs = with_public(other.verifying_key().as_bytes());
    assert_eq!(mldsa44::SigningKey::from_pkcs8_der(&theirs).err(), Some(Error::InvalidSigningKey));

    // RFC 8410 §10.3's Ed25519 key is named as such.
    let ed25519 = "-----BEGIN PRIVATE KEY-----\n\
        MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n\
        -----END PRIVATE KEY-----\n";
    assert_eq!(
        mldsa44::SigningKey::from_pkcs8_pem(ed25519).err(),
        Some(Error::WrongAlgorithm { found: KeyAlgorithm::Ed25519 })
    );
    assert_eq!(
        mldsa44::SigningKey::from_pkcs8_pem("no pem").err(),
        Some(Error::Pem(core_der::PemError::NotFound))
    );
    // A public key of the wrong length.
    let mut spki = vec![0u8; mldsa44::PUBLIC_KEY_DER_LEN];
    key.verifying_key().to_public_key_der(&mut spki).unwrap();
    let short = core_der::pkix::SubjectPublicKeyInfo::from_der(&spki).unwrap();
    let short =
        core_der::pkix::SubjectPublicKeyInfo { public_key: &short.public_key[1..], ..short };
    let mut out = vec![0u8; short.encoded_len()];
    short.to_der(&mut out).unwrap();
    assert_eq!(mldsa44::VerifyingKey::from_public_key_der(&out).err(), Some(Error::InvalidLength));
}

macro_rules! matches_rustcrypto {
    ($test:ident, $m:ident, $rc:ident) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(8))]
            /// Our PKCS#8 and SPKI DER are RustCrypto's, byte for byte, and read back.
            #[test]
            fn $test(seed in any::<[u8; 32]>()) {
                let ours = $m::SigningKey::from_seed(&seed);
                let theirs = ml_dsa::SigningKey::<$rc>::from_seed(&B32::from(seed));
                let mut der = [0u8; $m::PKCS8_DER_LEN];
                ours.to_pkcs8_der(&mut der).unwrap();
                let their_der = theirs.to_pkcs8_der().unwrap();
                prop_assert_eq!(&der[..], their_der.as_bytes());
                let mut spki = vec![0u8; $m::PUBLIC_KEY_DER_LEN];
                ours.verifying_key().to_public_key_der(&mut spki).unwrap();
                let their_spki = ml_dsa::Keypair::verifying_key(&theirs).to_public_key_der().unwrap();
                prop_assert_eq!(&spki[..], their_spki.as_bytes());
                let back = $m::SigningKey::from_pkcs8_der(&der).unwrap();
                prop_assert_eq!(back.as_bytes(), ours.as_bytes());
                let back = $m::VerifyingKey::from_public_key_der(&spki).unwrap();
                prop_assert_eq!(&back, ours.verifying_key());
            }
        }
    };
}

matches_rustcrypto!(rustcrypto_mldsa44, mldsa44, MlDsa44);
matches_rustcrypto!(rustcrypto_mldsa65, mldsa65, MlDsa65);
matches_rustcrypto!(rustcrypto_mldsa87, mldsa87, MlDsa87);
