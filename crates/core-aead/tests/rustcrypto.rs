//! The `rustcrypto` feature: Halite's AEADs through the RustCrypto `aead` 0.6 traits agree
//! with Halite's own API and with RustCrypto's `aes-gcm`, `ccm` and `chacha20poly1305` (the
//! workspace's `aead` 0.5 generation), on random keys, nonces, associated data and messages;
//! a forged tag is refused through the trait.

use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit, Nonce, Tag};
use aes_gcm::aead::{AeadInPlace as AeadInPlace05, KeyInit as KeyInit05};
use proptest::prelude::*;

/// Seals `msg` through the `aead` 0.6 traits alone, as generic code would: ciphertext || tag.
fn seal_generic<A: KeyInit + AeadInOut>(
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    msg: &[u8],
) -> Vec<u8> {
    let cipher = A::new_from_slice(key).unwrap();
    let nonce = Nonce::<A>::try_from(nonce).unwrap();
    // Separate input and output buffers: the in-out form.
    let mut out = vec![0; msg.len()];
    let tag =
        cipher.encrypt_inout_detached(&nonce, aad, InOutBuf::new(msg, &mut out).unwrap()).unwrap();
    out.extend_from_slice(&tag);
    out
}

/// Opens `sealed` (ciphertext || tag) through the `aead` 0.6 traits, in place.
fn open_generic<A: KeyInit + AeadInOut>(
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    sealed: &[u8],
) -> Result<Vec<u8>, aead::Error> {
    let cipher = A::new_from_slice(key).unwrap();
    let nonce = Nonce::<A>::try_from(nonce).unwrap();
    let (body, tag) = sealed.split_at(sealed.len() - Tag::<A>::default().len());
    let mut buf = body.to_vec();
    cipher.decrypt_inout_detached(
        &nonce,
        aad,
        buf.as_mut_slice().into(),
        &Tag::<A>::try_from(tag).unwrap(),
    )?;
    Ok(buf)
}

/// Seals through the `aead` 0.5 traits of RustCrypto's own implementations.
fn seal_theirs<C: KeyInit05 + AeadInPlace05>(
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    msg: &[u8],
) -> Vec<u8> {
    let cipher = C::new_from_slice(key).unwrap();
    let mut out = msg.to_vec();
    let tag = cipher
        .encrypt_in_place_detached(aes_gcm::aead::Nonce::<C>::from_slice(nonce), aad, &mut out)
        .unwrap();
    out.extend_from_slice(&tag);
    out
}

/// Every check of one algorithm: `A` is Halite's type, `C` RustCrypto's.
fn agree<A, C>(key: &[u8], nonce: &[u8], aad: &[u8], msg: &[u8])
where
    A: KeyInit + AeadInOut + core_aead::Aead,
    C: KeyInit05 + AeadInPlace05,
{
    let (key, nonce) = (&key[..A::KEY_LEN], &nonce[..A::NONCE_LEN]);
    let sealed = seal_generic::<A>(key, nonce, aad, msg);

    // Halite's own API gives the same bytes.
    let mut native = vec![0; msg.len() + A::TAG_LEN];
    let n = <A as core_aead::Aead>::new(key).unwrap().seal(nonce, aad, msg, &mut native).unwrap();
    assert_eq!(n, native.len());
    assert_eq!(sealed, native);

    // So does RustCrypto's implementation.
    assert_eq!(sealed, seal_theirs::<C>(key, nonce, aad, msg));

    // Round trip through the trait; any flipped bit is refused.
    assert_eq!(open_generic::<A>(key, nonce, aad, &sealed).unwrap(), msg);
    for i in [0, sealed.len() / 2, sealed.len() - 1] {
        let mut forged = sealed.clone();
        forged[i] ^= 0x01;
        assert!(open_generic::<A>(key, nonce, aad, &forged).is_err(), "bit flipped at {i}");
    }
    if !aad.is_empty() {
        assert!(open_generic::<A>(key, nonce, &aad[1..], &sealed).is_err());
    }

    // A key of the wrong length is an error, not a panic.
    assert!(A::new_from_slice(&[0; 15]).is_err());
}

type Ccm128 = ccm::Ccm<aes::Aes128, ccm::consts::U16, ccm::consts::U12>;
type Ccm128Tag8 = ccm::Ccm<aes::Aes128, ccm::consts::U8, ccm::consts::U12>;
type Ccm256 = ccm::Ccm<aes::Aes256, ccm::consts::U16, ccm::consts::U12>;
type Gcm192 = aes_gcm::AesGcm<aes::Aes192, aes_gcm::aead::consts::U12>;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn aead_traits_agree_with_native_and_rustcrypto(
        key in proptest::array::uniform32(any::<u8>()),
        nonce in proptest::array::uniform24(any::<u8>()),
        aad in proptest::collection::vec(any::<u8>(), 0..40),
        msg in proptest::collection::vec(any::<u8>(), 0..300),
    ) {
        agree::<core_aead::Aes128Gcm, aes_gcm::Aes128Gcm>(&key, &nonce, &aad, &msg);
        agree::<core_aead::Aes192Gcm, Gcm192>(&key, &nonce, &aad, &msg);
        agree::<core_aead::Aes256Gcm, aes_gcm::Aes256Gcm>(&key, &nonce, &aad, &msg);
        agree::<core_aead::Aes128Ccm, Ccm128>(&key, &nonce, &aad, &msg);
        agree::<core_aead::Aes128Ccm8, Ccm128Tag8>(&key, &nonce, &aad, &msg);
        agree::<core_aead::Aes256Ccm, Ccm256>(&key, &nonce, &aad, &msg);
        agree::<core_aead::ChaCha20Poly1305, chacha20poly1305::ChaCha20Poly1305>(&key, &nonce, &aad, &msg);
        agree::<core_aead::XChaCha20Poly1305, chacha20poly1305::XChaCha20Poly1305>(&key, &nonce, &aad, &msg);
    }
}
