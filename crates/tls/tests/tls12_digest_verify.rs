//! `verify::verify_signature_digest12`, the check a TLS 1.2 server makes of a client's
//! `CertificateVerify` from its running transcript hash: for every key type and every scheme of
//! `TLS12_DIGEST_SCHEMES` the key signs (SHA-512 ones included), it accepts what the message path
//! (`verify_signature_for`) accepts, and refuses a flipped signature, another digest, a
//! digest of the wrong length, a scheme of another key type and any Ed25519 scheme.

use core_hash::{OsRandom, Sha256, Sha384, Sha512};
use tls::msgs::{ProtocolVersion, SignatureScheme};
use tls::provider::Signer;
use tls::sign::MAX_SIGNATURE_LEN;
use tls::verify::{TLS12_DIGEST_SCHEMES, verify_signature_digest12, verify_signature_for};
use tls::{Error, PeerMisbehaved, SigningKey};

macro_rules! data {
    ($f:literal) => {
        include_bytes!(concat!("data/", $f)).as_slice()
    };
}

const MSG: &[u8] = b"client hello .. client key exchange";

fn digest(scheme: SignatureScheme, msg: &[u8]) -> Vec<u8> {
    match scheme {
        SignatureScheme::ECDSA_SECP384R1_SHA384
        | SignatureScheme::RSA_PSS_RSAE_SHA384
        | SignatureScheme::RSA_PKCS1_SHA384 => Sha384::digest(msg).as_ref().to_vec(),
        SignatureScheme::RSA_PSS_RSAE_SHA512 | SignatureScheme::RSA_PKCS1_SHA512 => {
            Sha512::digest(msg).as_ref().to_vec()
        }
        _ => Sha256::digest(msg).as_ref().to_vec(),
    }
}

#[test]
fn digest_path_agrees_with_message_path() {
    let bad_sig = Error::PeerMisbehaved(PeerMisbehaved::BadSignature);
    let mut checked = 0;
    for (name, cert, key) in [
        ("p256", data!("client-p256.der"), data!("client-p256.key.der")),
        ("p384", data!("client-p384.der"), data!("client-p384.key.der")),
        ("rsa", data!("client-rsa.der"), data!("client-rsa.key.der")),
    ] {
        let key = SigningKey::from_pkcs8_der(key).unwrap();
        for &scheme in TLS12_DIGEST_SCHEMES {
            let id = format!("{name} {scheme:?}");
            let d = digest(scheme, MSG);
            // The SHA-512 schemes a key signs messages with only (its digest signing keeps
            // SHA-256 and SHA-384, as a TLS 1.2 client does).
            let by_digest = key.tls12_digest_schemes().contains(&scheme);
            if !by_digest && !key.tls12_schemes().contains(&scheme) {
                // A scheme of another key type never verifies.
                let mut sig = [0u8; MAX_SIGNATURE_LEN];
                let other = [0x30u8, 6, 2, 1, 1, 2, 1, 1];
                sig[..8].copy_from_slice(&other);
                assert!(verify_signature_digest12(cert, scheme, &d, &sig[..8]).is_err(), "{id}");
                continue;
            }
            let mut sig = [0u8; MAX_SIGNATURE_LEN];
            let n = if by_digest {
                key.sign_digest(scheme, &d, &mut OsRandom, &mut sig).unwrap()
            } else {
                key.sign(scheme, MSG, &mut OsRandom, &mut sig).unwrap()
            };
            let sig = &sig[..n];
            verify_signature_for(ProtocolVersion::TLSV1_2, cert, scheme, MSG, sig)
                .unwrap_or_else(|e| panic!("message path {id}: {e}"));
            verify_signature_digest12(cert, scheme, &d, sig)
                .unwrap_or_else(|e| panic!("digest path {id}: {e}"));
            let other = digest(scheme, b"another transcript");
            assert_eq!(verify_signature_digest12(cert, scheme, &other, sig), Err(bad_sig), "{id}");
            assert_eq!(verify_signature_digest12(cert, scheme, &d[1..], sig), Err(bad_sig), "{id}");
            let mut flipped = sig.to_vec();
            let last = flipped.len() - 1;
            flipped[last] ^= 1;
            assert_eq!(verify_signature_digest12(cert, scheme, &d, &flipped), Err(bad_sig), "{id}");
            checked += 1;
        }
    }
    // P-256 and P-384 each sign both ECDSA schemes; RSA its six.
    assert_eq!(checked, 10);
}

#[test]
fn ed25519_and_unlisted_schemes_are_refused() {
    let unoffered = Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter);
    assert!(!TLS12_DIGEST_SCHEMES.contains(&SignatureScheme::ED25519));
    let cert = data!("client-ed25519.der");
    let d = Sha256::digest(MSG);
    assert_eq!(
        verify_signature_digest12(cert, SignatureScheme::ED25519, d.as_ref(), &[0; 64]),
        Err(unoffered)
    );
    for scheme in [SignatureScheme::ECDSA_SECP521R1_SHA512, SignatureScheme::RSA_PSS_PSS_SHA256] {
        assert_eq!(
            verify_signature_digest12(data!("client-rsa.der"), scheme, d.as_ref(), &[0; 256]),
            Err(unoffered),
            "{scheme:?}"
        );
    }
}
