//! core-lattice's ML-DSA decoders on arbitrary bytes, for each parameter set: raw public keys,
//! expanded signing keys and signatures, `SubjectPublicKeyInfo` and PKCS#8 DER (RFC 9881, the
//! three private-key forms), and both in PEM; and verification of any signature-sized input
//! (the hint and z checks). The first byte picks the parameter set and the decoder; the rest
//! is its input. None may panic, and what decodes must encode back: to the same bytes where
//! the encoding is canonical (raw keys and signatures, SPKI, PKCS#8 version 0 in the form the
//! key is written in), to something that decodes to the same key otherwise.
#![no_main]

use core_der::der::{self, Reader};
use core_lattice::{mldsa44, mldsa65, mldsa87};
use libfuzzer_sys::fuzz_target;

/// Whether `data` is what `to_pkcs8_der` writes for the key in it: PKCS#8 version 0 with no
/// attributes and no public key, the key in the seed or the expanded form (`both` is written
/// as the seed form).
fn as_written(data: &[u8]) -> bool {
    let Ok(info) = core_der::pkix::PrivateKeyInfo::from_der(data) else { return false };
    let version = der::only(data, der::SEQUENCE).and_then(|c| Reader::new(c).uint());
    version == Ok(&[])
        && info.attributes.is_none()
        && info.public_key.is_none()
        && info.private_key.first() != Some(&der::SEQUENCE)
}

/// The checks for one parameter set.
macro_rules! level {
    ($m:ident, $which:expr, $data:expr) => {{
        use $m::{Signature, SigningKey, VerifyingKey};
        let data: &[u8] = $data;
        match $which {
            0 => {
                if let Ok(key) = VerifyingKey::from_bytes(data) {
                    assert_eq!(key.as_bytes().as_slice(), data);
                }
            }
            1 => {
                if let Ok(key) = SigningKey::from_bytes(data) {
                    assert_eq!(key.as_bytes().as_slice(), data);
                    assert_eq!(key.seed(), None);
                }
            }
            2 => {
                if let Ok(sig) = Signature::from_bytes(data) {
                    assert_eq!(sig.as_bytes().as_slice(), data);
                    // Any bytes of the length reach the hint and range checks; a valid
                    // signature under this fixed key is not expected, and must not panic.
                    let key = SigningKey::from_seed(&[0; 32]);
                    let _ = key.verifying_key().verify(b"", b"", &sig);
                }
            }
            3 => {
                if let Ok(key) = VerifyingKey::from_public_key_der(data) {
                    let mut out = vec![0u8; $m::PUBLIC_KEY_DER_LEN];
                    assert_eq!(key.to_public_key_der(&mut out), Ok(out.len()));
                    assert_eq!(out, data, "SPKI not canonical");
                }
            }
            4 => {
                if let Ok(key) = SigningKey::from_pkcs8_der(data) {
                    let mut out = vec![0u8; $m::PKCS8_EXPANDED_DER_LEN];
                    let n = key.to_pkcs8_der(&mut out).expect("room for either form");
                    let again = SigningKey::from_pkcs8_der(&out[..n]).expect("re-encoding decodes");
                    assert_eq!(again.as_bytes(), key.as_bytes());
                    assert_eq!(again.seed(), key.seed());
                    if as_written(data) {
                        assert_eq!(&out[..n], data, "PKCS#8 not canonical");
                    }
                }
            }
            _ => {
                let Ok(text) = core::str::from_utf8(data) else { return };
                if let Ok(key) = SigningKey::from_pkcs8_pem(text) {
                    let pem = key.to_pkcs8_pem_string().expect("PEM encodes");
                    let again = SigningKey::from_pkcs8_pem(&pem).expect("PEM decodes");
                    assert_eq!(again.as_bytes(), key.as_bytes());
                }
                if let Ok(key) = VerifyingKey::from_public_key_pem(text) {
                    let pem = key.to_public_key_pem_string().expect("PEM encodes");
                    assert_eq!(VerifyingKey::from_public_key_pem(&pem).ok(), Some(key));
                }
            }
        }
    }};
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let which = selector % 6;
    match (selector / 6) % 3 {
        0 => level!(mldsa44, which, rest),
        1 => level!(mldsa65, which, rest),
        _ => level!(mldsa87, which, rest),
    }
});
