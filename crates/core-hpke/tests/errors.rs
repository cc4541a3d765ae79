//! Every refusal is a typed error, and a refused call leaves the context as it was: forged
//! and truncated ciphertexts, PSK inputs, key encodings, low-order X25519 keys, long exports,
//! short buffers. And the suites agree with themselves across modes and randomness.

use core_hpke::{
    Aes256Gcm, DhKemP256HkdfSha256, DhKemX25519HkdfSha256, Error, HkdfSha256, HkdfSha384, Hpke,
    Kem, Mode, OsRandom, Psk,
};

type X25519Suite = Hpke<DhKemX25519HkdfSha256, HkdfSha384, Aes256Gcm>;
type P256Suite = Hpke<DhKemP256HkdfSha256, HkdfSha256, Aes256Gcm>;

#[test]
fn forged_ciphertext_is_refused_and_the_sequence_number_stays() {
    let (sk_r, pk_r) = DhKemX25519HkdfSha256::generate_key_pair(&mut OsRandom).unwrap();
    let (enc, mut s) = X25519Suite::setup_sender(&pk_r, b"i", Mode::Base, &mut OsRandom).unwrap();
    let mut r = X25519Suite::setup_recipient(&enc, &sk_r, b"i", Mode::Base).unwrap();
    let mut ct = [0u8; 21];
    assert_eq!(s.seal(b"aad", b"hello", &mut ct), Ok(21));
    let mut out = [0xaa; 5];
    for i in 0..ct.len() {
        let mut forged = ct;
        forged[i] ^= 1;
        assert_eq!(r.open(b"aad", &forged, &mut out), Err(Error::OpenFailed), "byte {i}");
        assert_ne!(out, *b"hello");
    }
    assert_eq!(r.open(b"aad", &ct[..15], &mut out), Err(Error::OpenFailed), "shorter than a tag");
    assert_eq!(r.open(b"other", &ct, &mut out), Err(Error::OpenFailed), "wrong aad");
    assert_eq!(r.sequence_number(), 0);
    assert_eq!(r.open(b"aad", &ct, &mut out), Ok(5));
    assert_eq!(&out, b"hello");
    assert_eq!(r.sequence_number(), 1);
    // Replaying it under the next sequence number fails.
    assert_eq!(r.open(b"aad", &ct, &mut out), Err(Error::OpenFailed));
    // A short output buffer is the AEAD's complaint, not a forgery.
    assert_eq!(
        s.seal(b"", b"hello", &mut [0; 20]),
        Err(Error::Aead(core_aead::Error::BufferTooSmall))
    );
    assert_eq!(s.sequence_number(), 1);
}

#[test]
fn psk_modes_need_both_psk_and_id() {
    let (sk_r, pk_r) = DhKemP256HkdfSha256::generate_key_pair(&mut OsRandom).unwrap();
    for psk in [Psk { key: b"", id: b"id" }, Psk { key: &[1; 32], id: b"" }] {
        let sent = P256Suite::setup_sender(&pk_r, b"", Mode::Psk(psk), &mut OsRandom);
        assert_eq!(sent.err(), Some(Error::InvalidPsk));
        let (sk_s, pk_s) = DhKemP256HkdfSha256::generate_key_pair(&mut OsRandom).unwrap();
        let sent = P256Suite::setup_sender(&pk_r, b"", Mode::AuthPsk(&sk_s, psk), &mut OsRandom);
        assert_eq!(sent.err(), Some(Error::InvalidPsk));
        let enc = DhKemP256HkdfSha256::serialize_public_key(&pk_s);
        let received = P256Suite::setup_recipient(&enc, &sk_r, b"", Mode::AuthPsk(&pk_s, psk));
        assert_eq!(received.err(), Some(Error::InvalidPsk));
    }
}

/// A recipient with the wrong PSK, the wrong sender key or the wrong info derives other keys:
/// the first message does not open.
#[test]
fn mismatched_setups_do_not_open() {
    let (sk_r, pk_r) = DhKemP256HkdfSha256::generate_key_pair(&mut OsRandom).unwrap();
    let (sk_s, pk_s) = DhKemP256HkdfSha256::generate_key_pair(&mut OsRandom).unwrap();
    let (_, other_pk) = DhKemP256HkdfSha256::generate_key_pair(&mut OsRandom).unwrap();
    let psk = Psk { key: &[9; 32], id: b"psk" };
    let wrong_psk = Psk { key: &[8; 32], id: b"psk" };
    let (enc, mut s) =
        P256Suite::setup_sender(&pk_r, b"info", Mode::AuthPsk(&sk_s, psk), &mut OsRandom).unwrap();
    let mut ct = [0u8; 17];
    s.seal(b"", b"m", &mut ct).unwrap();
    let tries = [
        (&b"info"[..], Mode::AuthPsk(&pk_s, wrong_psk)),
        (b"info", Mode::AuthPsk(&other_pk, psk)),
        (b"info", Mode::Psk(psk)),
        (b"ofni", Mode::AuthPsk(&pk_s, psk)),
    ];
    for (info, mode) in tries {
        let mut r = P256Suite::setup_recipient(&enc, &sk_r, info, mode).unwrap();
        assert_eq!(r.open(b"", &ct, &mut [0; 1]), Err(Error::OpenFailed), "{mode:?}");
    }
    let mut r =
        P256Suite::setup_recipient(&enc, &sk_r, b"info", Mode::AuthPsk(&pk_s, psk)).unwrap();
    assert_eq!(r.open(b"", &ct, &mut [0; 1]), Ok(1));
}

#[test]
fn key_encodings_are_checked() {
    type X = DhKemX25519HkdfSha256;
    type P = DhKemP256HkdfSha256;
    assert_eq!(X::deserialize_public_key(&[9; 31]).err(), Some(Error::InvalidPublicKey));
    assert_eq!(X::deserialize_private_key(&[9; 33]).err(), Some(Error::InvalidPrivateKey));
    let (_, pk) = P::derive_key_pair(b"seed of thirty-two bytes or more").unwrap();
    let sec1 = P::serialize_public_key(&pk);
    assert_eq!(sec1[0], 4);
    let mut off_curve = sec1;
    off_curve[64] ^= 1;
    assert_eq!(P::deserialize_public_key(&off_curve).err(), Some(Error::InvalidPublicKey));
    assert_eq!(P::deserialize_public_key(&sec1[..33]).err(), Some(Error::InvalidPublicKey));
    assert_eq!(P::deserialize_private_key(&[0; 32]).err(), Some(Error::InvalidPrivateKey));
    assert_eq!(P::deserialize_private_key(&[0xff; 32]).err(), Some(Error::InvalidPrivateKey));
    assert_eq!(P::deserialize_private_key(&[1; 31]).err(), Some(Error::InvalidPrivateKey));
}

/// A low-order X25519 encapsulated key (or recipient key) gives an all-zero DH result: refused.
#[test]
fn low_order_x25519_keys_are_refused() {
    type X = DhKemX25519HkdfSha256;
    let (sk_r, _) = X::generate_key_pair(&mut OsRandom).unwrap();
    for low in [[0u8; 32], {
        let mut one = [0u8; 32];
        one[0] = 1;
        one
    }] {
        let r = X25519Suite::setup_recipient(&low, &sk_r, b"", Mode::Base);
        assert_eq!(r.err(), Some(Error::InvalidSharedSecret));
        let pk = X::deserialize_public_key(&low).unwrap();
        let s = X25519Suite::setup_sender(&pk, b"", Mode::Base, &mut OsRandom);
        assert_eq!(s.err(), Some(Error::InvalidSharedSecret));
    }
}

#[test]
fn exports_up_to_255_hash_lengths() {
    let (sk_r, pk_r) = DhKemX25519HkdfSha256::generate_key_pair(&mut OsRandom).unwrap();
    let (enc, s) = X25519Suite::setup_sender(&pk_r, b"", Mode::Base, &mut OsRandom).unwrap();
    let r = X25519Suite::setup_recipient(&enc, &sk_r, b"", Mode::Base).unwrap();
    let (mut a, mut b) = ([0u8; 255 * 48 + 1], [0u8; 255 * 48]);
    assert_eq!(s.export(b"c", &mut a), Err(Error::ExportTooLong));
    s.export(b"c", &mut a[..255 * 48]).unwrap();
    r.export(b"c", &mut b).unwrap();
    assert_eq!(a[..255 * 48], b);
    r.export(b"d", &mut b).unwrap();
    assert_ne!(a[..255 * 48], b, "the exporter context matters");
}

/// Two encapsulations to the same key differ (fresh ephemeral keys), and each context pair
/// agrees.
#[test]
fn encapsulation_is_randomized() {
    let (sk_r, pk_r) = DhKemP256HkdfSha256::generate_key_pair(&mut OsRandom).unwrap();
    let (enc1, shared1) = DhKemP256HkdfSha256::encap(&pk_r, None, &mut OsRandom).unwrap();
    let (enc2, shared2) = DhKemP256HkdfSha256::encap(&pk_r, None, &mut OsRandom).unwrap();
    assert_ne!(enc1, enc2);
    assert_ne!(shared1.as_bytes(), shared2.as_bytes());
    let back = DhKemP256HkdfSha256::decap(&enc2, &sk_r, None).unwrap();
    assert_eq!(back.as_bytes(), shared2.as_bytes());
}
