//! core-ec's decoders on arbitrary bytes: SEC1 points, fixed-size and DER ECDSA signatures,
//! SubjectPublicKeyInfo, PKCS#8 and SEC1 private keys on P-256, P-384 and P-521, and Ed25519
//! public keys and signatures. The first byte picks the decoder; the rest is its input. None
//! may panic, every field implementation must give the same verdict, and what decodes must
//! encode back: to the same bytes where the encoding is canonical (SEC1 points in the form they
//! came in, strict DER signatures, fixed-size signatures, Ed25519 keys, uncompressed SPKI), to
//! something that decodes to the same value otherwise (PKCS#8, which may or may not carry the
//! public key).
#![no_main]

use core_ec::ed25519;
use halite_fuzz::every;
use libfuzzer_sys::fuzz_target;

/// The checks for one NIST curve.
macro_rules! nist {
    ($curve:ident, $imp:ident, $which:expr, $data:expr) => {{
        use core_ec::$curve::{
            $imp as NistImpl, COMPRESSED_LEN, PublicKey, SecretKey, Signature, UNCOMPRESSED_LEN,
        };
        let data: &[u8] = $data;
        match $which {
            0 => {
                let mut verdicts = every::<NistImpl>()
                    .into_iter()
                    .map(|imp| PublicKey::from_sec1_bytes_with_impl(data, imp));
                let first = verdicts.next().expect("an implementation");
                for other in verdicts {
                    assert_eq!(
                        first.map(|k| k.to_sec1_bytes()),
                        other.map(|k| k.to_sec1_bytes()),
                        "implementations disagree"
                    );
                }
                if let Ok(key) = first {
                    match data.len() {
                        UNCOMPRESSED_LEN => assert_eq!(key.to_sec1_bytes().as_slice(), data),
                        COMPRESSED_LEN => assert_eq!(key.to_sec1_compressed().as_slice(), data),
                        n => panic!("a {n}-byte SEC1 point decoded"),
                    }
                    let again = PublicKey::from_sec1_bytes(&key.to_sec1_compressed())
                        .expect("compressed form decodes");
                    assert_eq!(again.to_sec1_bytes(), key.to_sec1_bytes());
                }
            }
            1 => {
                if let Ok(sig) = Signature::from_der(data) {
                    assert_eq!(sig.to_der().as_ref(), data, "DER signature not canonical");
                    assert_eq!(Signature::from_bytes(&sig.to_bytes()), Ok(sig));
                }
            }
            2 => {
                if let Ok(sig) = Signature::from_bytes(data) {
                    assert_eq!(sig.to_bytes().as_slice(), data);
                    assert_eq!(Signature::from_der(sig.to_der().as_ref()), Ok(sig));
                }
            }
            3 => {
                if let Ok(key) = PublicKey::from_spki_der(data) {
                    let mut out = [0u8; 200];
                    let n = key.to_spki_der(&mut out).expect("SPKI fits");
                    let again = PublicKey::from_spki_der(&out[..n]).expect("own SPKI decodes");
                    assert_eq!(again.to_sec1_bytes(), key.to_sec1_bytes());
                    // Only a compressed point gives a shorter SPKI for the same key.
                    if n == data.len() {
                        assert_eq!(&out[..n], data, "SPKI not canonical");
                    }
                }
            }
            4 => {
                if let Ok(key) = SecretKey::from_pkcs8_der(data) {
                    let mut out = [0u8; 300];
                    let n = key.to_pkcs8_der(&mut out).expect("PKCS#8 fits");
                    let again = SecretKey::from_pkcs8_der(&out[..n]).expect("own PKCS#8 decodes");
                    assert_eq!(again.to_bytes(), key.to_bytes());
                }
            }
            _ => {
                if let Ok(key) = SecretKey::from_sec1_der(data) {
                    let mut out = [0u8; 300];
                    let n = key.to_pkcs8_der(&mut out).expect("PKCS#8 fits");
                    let again = SecretKey::from_pkcs8_der(&out[..n]).expect("own PKCS#8 decodes");
                    assert_eq!(again.to_bytes(), key.to_bytes());
                }
            }
        }
    }};
}

fn ed25519(which: u8, data: &[u8]) {
    if which.is_multiple_of(2) {
        let mut verdicts = every::<ed25519::FieldImpl>().into_iter().map(|imp| {
            let bytes: Result<&[u8; 32], _> = data.try_into();
            bytes
                .map_err(|_| core_ec::Error::InvalidLength)
                .and_then(|b| ed25519::VerifyingKey::from_bytes_with_impl(b, imp))
                .map(|k| (k.to_bytes(), k.is_weak()))
        });
        let first = verdicts.next().expect("an implementation");
        for other in verdicts {
            assert_eq!(first, other, "implementations disagree");
        }
        assert_eq!(
            first.map(|(b, _)| b),
            ed25519::VerifyingKey::from_slice(data).map(|k| k.to_bytes())
        );
        if let Ok((bytes, _)) = first {
            assert_eq!(bytes.as_slice(), data, "an accepted key encodes back differently");
        }
    } else if let Ok(sig) = ed25519::Signature::from_slice(data) {
        assert_eq!(sig.to_bytes().as_slice(), data);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, data)) = data.split_first() else { return };
    let which = pick / 4;
    match pick % 4 {
        0 => nist!(p256, P256Impl, which % 6, data),
        1 => nist!(p384, P384Impl, which % 6, data),
        2 => nist!(p521, P521Impl, which % 6, data),
        _ => ed25519(which, data),
    }
});
