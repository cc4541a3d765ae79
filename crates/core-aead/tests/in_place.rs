//! The appended-tag in-place AEAD calls (`seal_in_place_append_tag`, `open_in_place`, and their
//! `Vec` forms) on every AEAD: the same bytes as the detached calls, the tag stripped again,
//! and nothing released when a tag is forged or a buffer is short.

use core_aead::{
    Aead, Aes128Ccm8, Aes128Gcm, Aes256Ccm, Aes256Gcm, ChaCha20Poly1305, Error, XChaCha20Poly1305,
};

fn message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_mul(29) ^ 0x3c).collect()
}

/// Every check, for one AEAD type.
fn check<A: Aead>(name: &str) {
    let key: Vec<u8> = (0..A::KEY_LEN as u8).collect();
    let aead = A::new(&key).unwrap();
    let nonce: Vec<u8> = (0..A::NONCE_LEN as u8).map(|b| b ^ 0x5a).collect();
    let aad = b"header";
    for len in [0, 1, 15, 16, 17, 64, 100] {
        let msg = message(len);

        // The appended form is the detached ciphertext followed by the detached tag.
        let mut detached = msg.clone();
        let tag = aead.seal_in_place_detached(&nonce, aad, &mut detached).unwrap();
        let mut buf = msg.clone();
        buf.resize(len + A::TAG_LEN + 3, 0xee);
        let n = aead.seal_in_place_append_tag(&nonce, aad, &mut buf, len).unwrap();
        assert_eq!(n, len + A::TAG_LEN, "{name} {len}");
        assert_eq!(&buf[..len], &detached[..], "{name} {len}");
        assert_eq!(&buf[len..n], tag.as_ref(), "{name} {len}");
        assert_eq!(&buf[n..], [0xee; 3], "{name} {len}: bytes past the tag untouched");

        let opened = aead.open_in_place(&nonce, aad, &mut buf[..n]).unwrap();
        assert_eq!(opened, &msg[..], "{name} {len}");

        // The Vec forms agree with the slice ones.
        let mut v = msg.clone();
        aead.seal_in_place_vec(&nonce, aad, &mut v).unwrap();
        assert_eq!(v.len(), n, "{name} {len}");
        let mut sealed = msg.clone();
        sealed.resize(n, 0);
        aead.seal_in_place_append_tag(&nonce, aad, &mut sealed, len).unwrap();
        assert_eq!(v, sealed, "{name} {len}");
        aead.open_in_place_vec(&nonce, aad, &mut v).unwrap();
        assert_eq!(v, msg, "{name} {len}");

        // A forged tag, or other associated data: an error and nothing left of the buffer.
        for forge in [true, false] {
            let mut bad = sealed.clone();
            let aad: &[u8] = if forge {
                bad[n - 1] ^= 0x80;
                aad
            } else {
                b"other"
            };
            let e = aead.open_in_place(&nonce, aad, &mut bad);
            assert_eq!(e, Err(Error::AuthenticationFailed), "{name} {len}");
            assert!(bad.iter().all(|&b| b == 0), "{name} {len}: buffer zeroed");
            let mut bad = sealed.clone();
            if forge {
                bad[0] ^= 1;
            }
            let e = aead.open_in_place_vec(&nonce, aad, &mut bad);
            assert_eq!(e, Err(Error::AuthenticationFailed), "{name} {len}");
            assert!(bad.is_empty(), "{name} {len}: Vec emptied");
        }
    }

    // No room for the tag; a plaintext length past the buffer; input shorter than a tag.
    let mut short = vec![1u8; 10 + A::TAG_LEN - 1];
    let e = aead.seal_in_place_append_tag(&nonce, aad, &mut short, 10);
    assert_eq!(e, Err(Error::BufferTooSmall), "{name}");
    assert_eq!(short, vec![1u8; 10 + A::TAG_LEN - 1], "{name}: unchanged on error");
    let e = aead.seal_in_place_append_tag(&nonce, aad, &mut short, usize::MAX);
    assert_eq!(e, Err(Error::MessageTooLong), "{name}");
    let mut tiny = vec![9u8; A::TAG_LEN - 1];
    assert_eq!(aead.open_in_place(&nonce, aad, &mut tiny), Err(Error::InvalidTagLength), "{name}");
    assert!(tiny.iter().all(|&b| b == 0), "{name}");
    let mut tiny = vec![9u8; A::TAG_LEN - 1];
    let e = aead.open_in_place_vec(&nonce, aad, &mut tiny);
    assert_eq!(e, Err(Error::InvalidTagLength), "{name}");
    assert!(tiny.is_empty(), "{name}");

    // A wrong nonce length is refused before anything is sealed.
    let mut v = message(5);
    assert!(aead.seal_in_place_vec(&nonce[1..], aad, &mut v).is_err(), "{name}");
    assert_eq!(v, message(5), "{name}: unchanged on error");
}

#[test]
fn every_aead() {
    check::<Aes128Gcm>("AES-128-GCM");
    check::<Aes256Gcm>("AES-256-GCM");
    check::<Aes128Ccm8>("AES-128-CCM-8");
    check::<Aes256Ccm>("AES-256-CCM");
    check::<ChaCha20Poly1305>("ChaCha20-Poly1305");
    check::<XChaCha20Poly1305>("XChaCha20-Poly1305");
}
