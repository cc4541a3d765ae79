//! Every key decoder of core-ec and core-rsa, in DER and in PEM, on arbitrary input: the first
//! byte picks the key type and format, the rest is the input (DER bytes, or text read lossily
//! as UTF-8). None may panic, and what decodes re-encodes to a fixed point: encoding it,
//! decoding that and encoding again gives the same bytes; where the format has one encoding
//! per key (SPKI with an uncompressed point, RSA's strict DER, RFC 8410 public keys) the first
//! encoding is the input itself.
#![no_main]

use core_ec::{ed25519, p256, p384, p521, x25519};
use core_rsa::{PrivateKey, PublicKey};
use libfuzzer_sys::fuzz_target;

/// The encoding of what `decode` makes of `input` (if anything), checked to be a fixed point.
fn fixed_point<K>(
    input: &[u8],
    decode: impl Fn(&[u8]) -> Option<K>,
    encode: impl Fn(&K, &mut [u8]) -> usize,
) -> Option<Vec<u8>> {
    let key = decode(input)?;
    let mut first = vec![0u8; 8192];
    let n = encode(&key, &mut first);
    first.truncate(n);
    let again = decode(&first).expect("own encoding decodes");
    let mut second = vec![0u8; 8192];
    let m = encode(&again, &mut second);
    assert_eq!(&second[..m], &first[..], "encoding is not a fixed point");
    Some(first)
}

/// The same through PEM text: the decoded key's PEM re-decodes to the same PEM.
fn pem_fixed_point<K>(
    text: &str,
    decode: impl Fn(&str) -> Option<K>,
    encode: impl Fn(&K, &mut [u8]) -> String,
) {
    let Some(key) = decode(text) else { return };
    let mut buf = vec![0u8; 16384];
    let first = encode(&key, &mut buf);
    let again = decode(&first).expect("own PEM decodes");
    assert_eq!(encode(&again, &mut buf), first, "PEM is not a fixed point");
}

macro_rules! nist {
    ($m:ident, $which:expr, $data:expr, $text:expr) => {{
        use $m::{PublicKey as P, SecretKey as S};
        match $which % 6 {
            0 => {
                fixed_point($data, |d| S::from_pkcs8_der(d).ok(), |k, o| k.to_pkcs8_der(o).unwrap());
            }
            1 => {
                fixed_point($data, |d| S::from_sec1_der(d).ok(), |k, o| k.to_sec1_der(o).unwrap());
            }
            2 => {
                let out = fixed_point(
                    $data,
                    |d| P::from_public_key_der(d).ok(),
                    |k, o| k.to_public_key_der(o).unwrap(),
                );
                if let Some(out) = out.filter(|o| o.len() == $data.len()) {
                    assert_eq!(out, $data, "uncompressed SPKI not canonical");
                }
            }
            3 => pem_fixed_point($text, |t| S::from_pkcs8_pem(t).ok(), |k, o| {
                k.to_pkcs8_pem(o).unwrap().to_string()
            }),
            4 => pem_fixed_point($text, |t| S::from_sec1_pem(t).ok(), |k, o| {
                k.to_sec1_pem(o).unwrap().to_string()
            }),
            _ => pem_fixed_point($text, |t| P::from_public_key_pem(t).ok(), |k, o| {
                k.to_public_key_pem(o).unwrap().to_string()
            }),
        }
    }};
}

fn curve25519(which: u8, data: &[u8], text: &str) {
    match which % 6 {
        0 => {
            fixed_point(
                data,
                |d| ed25519::SigningKey::from_pkcs8_der(d).ok(),
                |k, o| k.to_pkcs8_der(o).unwrap(),
            );
        }
        1 => {
            fixed_point(
                data,
                |d| x25519::SecretKey::from_pkcs8_der(d).ok(),
                |k, o| k.to_pkcs8_der(o).unwrap(),
            );
        }
        2 => {
            if let Some(out) = fixed_point(
                data,
                |d| ed25519::VerifyingKey::from_public_key_der(d).ok(),
                |k, o| k.to_public_key_der(o).unwrap(),
            ) {
                assert_eq!(out, data, "Ed25519 SPKI not canonical");
            }
            if let Some(out) = fixed_point(
                data,
                |d| x25519::PublicKey::from_public_key_der(d).ok(),
                |k, o| k.to_public_key_der(o).unwrap(),
            ) {
                assert_eq!(out, data, "X25519 SPKI not canonical");
            }
        }
        3 => pem_fixed_point(text, |t| ed25519::SigningKey::from_pkcs8_pem(t).ok(), |k, o| {
            k.to_pkcs8_pem(o).unwrap().to_string()
        }),
        4 => pem_fixed_point(text, |t| x25519::SecretKey::from_pkcs8_pem(t).ok(), |k, o| {
            k.to_pkcs8_pem(o).unwrap().to_string()
        }),
        _ => {
            pem_fixed_point(text, |t| ed25519::VerifyingKey::from_public_key_pem(t).ok(), |k, o| {
                k.to_public_key_pem(o).unwrap().to_string()
            });
            pem_fixed_point(text, |t| x25519::PublicKey::from_public_key_pem(t).ok(), |k, o| {
                k.to_public_key_pem(o).unwrap().to_string()
            });
        }
    }
}

fn rsa(which: u8, data: &[u8], text: &str) {
    match which % 6 {
        0 => {
            // Strict DER, and the algorithm (PSS parameters too) kept: the same bytes back.
            let out = fixed_point(
                data,
                |d| PrivateKey::from_pkcs8_der(d).ok(),
                |k, o| k.to_pkcs8_der(o).unwrap(),
            );
            if let Some(out) = out {
                assert_eq!(out, data, "PKCS#8 RSA key not canonical");
            }
        }
        1 => {
            if let Some(out) = fixed_point(
                data,
                |d| PublicKey::from_public_key_der(d).ok(),
                |k, o| k.to_public_key_der(o).unwrap(),
            ) {
                assert_eq!(out, data, "RSA SPKI not canonical");
            }
        }
        2 => pem_fixed_point(text, |t| PrivateKey::from_pkcs8_pem(t).ok(), |k, o| {
            k.to_pkcs8_pem(o).unwrap().to_string()
        }),
        3 => pem_fixed_point(text, |t| PrivateKey::from_pkcs1_pem(t).ok(), |k, o| {
            k.to_pkcs1_pem(o).unwrap().to_string()
        }),
        4 => pem_fixed_point(text, |t| PublicKey::from_public_key_pem(t).ok(), |k, o| {
            k.to_public_key_pem(o).unwrap().to_string()
        }),
        _ => pem_fixed_point(text, |t| PublicKey::from_pkcs1_pem(t).ok(), |k, o| {
            k.to_pkcs1_pem(o).unwrap().to_string()
        }),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, data)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(data);
    let which = pick / 5;
    match pick % 5 {
        0 => nist!(p256, which, data, &text),
        1 => nist!(p384, which, data, &text),
        2 => nist!(p521, which, data, &text),
        3 => curve25519(which, data, &text),
        _ => rsa(which, data, &text),
    }
});
