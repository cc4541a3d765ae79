//! core-rsa's key parsers on arbitrary bytes: PKCS#1 `RSAPublicKey`, `SubjectPublicKeyInfo`,
//! PKCS#1 `RSAPrivateKey` and PKCS#8 `PrivateKeyInfo`, picked by the first byte. None may
//! panic, and since the parsers take strict DER only, whatever parses must encode back to the
//! same bytes; a private key's public half must match the key parsed from its own public
//! encodings, on every implementation.
#![no_main]

use core_rsa::{MontImpl, PrivateKey, PublicKey};
use halite_fuzz::every;
use libfuzzer_sys::fuzz_target;

/// Room for any key's DER (an 8192-bit private key is about 4.7 KB).
const MAX_DER: usize = 5 * 1024 + 64;

fn public_round_trip(key: &PublicKey) {
    let mut pkcs1 = vec![0u8; MAX_DER];
    let n = key.to_pkcs1_der(&mut pkcs1).expect("PKCS#1 fits");
    let mut spki = vec![0u8; MAX_DER];
    let m = key.to_spki_der(&mut spki).expect("SPKI fits");
    for imp in every::<MontImpl>() {
        let a = PublicKey::from_pkcs1_der_with_impl(&pkcs1[..n], imp).expect("own PKCS#1 parses");
        let b = PublicKey::from_spki_der_with_impl(&spki[..m], imp).expect("own SPKI parses");
        for k in [a, b] {
            assert_eq!((k.bits(), k.exponent()), (key.bits(), key.exponent()));
            let mut again = vec![0u8; MAX_DER];
            let l = k.to_pkcs1_der(&mut again).expect("PKCS#1 fits");
            assert_eq!(again[..l], pkcs1[..n], "{imp:?} encodes differently");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, data)) = data.split_first() else { return };
    let mut out = vec![0u8; MAX_DER];
    match pick % 4 {
        0 => {
            if let Ok(key) = PublicKey::from_pkcs1_der(data) {
                let n = key.to_pkcs1_der(&mut out).expect("fits");
                assert_eq!(&out[..n], data, "PKCS#1 public key not canonical");
                public_round_trip(&key);
            }
        }
        1 => {
            if let Ok(key) = PublicKey::from_spki_der(data) {
                let n = key.to_spki_der(&mut out).expect("fits");
                assert_eq!(&out[..n], data, "SPKI not canonical");
                public_round_trip(&key);
            }
        }
        2 => {
            if let Ok(key) = PrivateKey::from_pkcs1_der(data) {
                let n = key.to_pkcs1_der(&mut out).expect("fits");
                assert_eq!(&out[..n], data, "PKCS#1 private key not canonical");
                public_round_trip(&key.public_key());
            }
        }
        _ => {
            if let Ok(key) = PrivateKey::from_pkcs8_der(data) {
                let n = key.to_pkcs8_der(&mut out).expect("fits");
                assert_eq!(&out[..n], data, "PKCS#8 not canonical");
                for imp in every::<MontImpl>() {
                    let k = PrivateKey::from_pkcs8_der_with_impl(data, imp)
                        .expect("parses on every implementation");
                    let mut again = vec![0u8; MAX_DER];
                    let l = k.to_pkcs8_der(&mut again).expect("fits");
                    assert_eq!(again[..l], out[..n], "{imp:?} encodes differently");
                }
                public_round_trip(&key.public_key());
            }
        }
    }
});
