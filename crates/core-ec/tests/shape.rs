//! Every key type answers to the same names: `from_bytes`/`to_bytes`, `generate`,
//! `public_key()`, `sign`/`verify`, and `sign_prehash` refuses a prehash of the wrong length.

use core_ec::{Error, OsRandom, ed25519, p256, p384, p521, x25519};

#[test]
fn ed25519_bytes_round_trip_and_public_key() {
    let key = ed25519::SigningKey::generate(&mut OsRandom).unwrap();
    let again = ed25519::SigningKey::from_bytes(&key.to_bytes());
    assert_eq!(again.as_bytes(), key.seed());
    assert_eq!(again.public_key(), key.verifying_key());
    let sig = again.sign(b"msg");
    key.public_key().verify(b"msg", &sig).unwrap();
}

#[test]
fn x25519_bytes_round_trip_and_public_key() {
    let key = x25519::SecretKey::generate(&mut OsRandom).unwrap();
    let again = x25519::SecretKey::from_bytes(key.to_bytes());
    assert_eq!(again.public_key().as_bytes(), key.public_key().as_bytes());
}

macro_rules! nist_shape {
    ($test:ident, $curve:ident, $hash:ty) => {
        #[test]
        fn $test() {
            let key = $curve::SigningKey::generate(&mut OsRandom).unwrap();
            let again = $curve::SigningKey::from_bytes(&key.to_bytes()).unwrap();
            assert_eq!(again.public_key(), key.verifying_key());
            let h = <$hash>::digest(b"msg");
            let sig = again.sign_prehash(h.as_ref()).unwrap();
            key.public_key().verify(b"msg", &sig).unwrap();
            assert_eq!(sig, key.sign(b"msg"));
            let h = h.as_ref();
            assert_eq!(again.sign_prehash(&h[1..]), Err(Error::InvalidLength));
            assert_eq!(again.sign_prehash(&[]), Err(Error::InvalidLength));
            let mut long = h.to_vec();
            long.push(0);
            assert_eq!(again.sign_prehash(&long), Err(Error::InvalidLength));
        }
    };
}

nist_shape!(p256_shape, p256, core_hash::Sha256);
nist_shape!(p384_shape, p384, core_hash::Sha384);
nist_shape!(p521_shape, p521, core_hash::Sha512);
