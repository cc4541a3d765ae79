//! ChaCha20 and HChaCha20 known answers (RFC 8439 §2.3.2, §2.4.2, Appendix A.1 and A.2;
//! draft-irtf-cfrg-xchacha §2.2.1) on every implementation, whole and split at every block
//! boundary, and random keys, nonces, counters and lengths against the portable code and
//! RustCrypto's `chacha20`.

mod chacha_common;

use chacha_common::{chacha_impls, pattern, unhex};
use core_aead::{ChaCha20, ChaCha20Impl, Error, Implementation, hchacha20};
use proptest::prelude::*;

/// The key 00 01 02 … 1f used by several RFC 8439 examples.
fn counting_key() -> [u8; 32] {
    core::array::from_fn(|i| i as u8)
}

/// Checks that `plaintext` encrypts to `ciphertext` on every implementation, in one call and
/// in pieces split at block boundaries (the counter advancing with them).
fn check(key: &[u8], nonce: &[u8], counter: u32, plaintext: &[u8], ciphertext: &[u8]) {
    assert_eq!(plaintext.len(), ciphertext.len());
    for imp in chacha_impls() {
        let cipher = ChaCha20::with_impl(key, imp).unwrap();
        let mut buf = plaintext.to_vec();
        cipher.apply_keystream(nonce, counter, &mut buf).unwrap();
        assert_eq!(buf, ciphertext, "{}", imp.name());
        cipher.apply_keystream(nonce, counter, &mut buf).unwrap();
        assert_eq!(buf, plaintext, "{} decrypts", imp.name());
        for blocks in [1, 2, 3, 5] {
            let mut buf = plaintext.to_vec();
            for (i, piece) in buf.chunks_mut(64 * blocks).enumerate() {
                let c = counter + (i * blocks) as u32;
                cipher.apply_keystream(nonce, c, piece).unwrap();
            }
            assert_eq!(buf, ciphertext, "{} in pieces of {blocks} blocks", imp.name());
        }
        let mut out = vec![0xaa; plaintext.len() + 3];
        cipher.xor_keystream(nonce, counter, plaintext, &mut out).unwrap();
        assert_eq!(&out[..plaintext.len()], ciphertext, "{} buffer to buffer", imp.name());
        assert_eq!(&out[plaintext.len()..], [0xaa; 3], "{} writes past the end", imp.name());
    }
}

/// The serialized keystream block for the given state words after the final addition.
fn serialize(words: [u32; 16]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// RFC 8439 §2.3.2: the block function on key 00..1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00,
/// block counter 1.
#[test]
fn rfc8439_2_3_2_block_function() {
    let want = serialize([
        0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3, 0xc7f4d1c7, 0x0368c033, 0x9aaa2204,
        0x4e6cd4c3, 0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9, 0xd19c12b5, 0xb94e16de,
        0xe883d0cb, 0x4e3c50a2,
    ]);
    check(&counting_key(), &unhex("000000090000004a00000000"), 1, &[0; 64], &want);
}

/// RFC 8439 §2.4.2: the "sunscreen" encryption, two blocks and a partial one.
#[test]
fn rfc8439_2_4_2_encryption() {
    let plaintext = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
    let ciphertext = unhex(
        "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b
         f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8
         07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736
         5af90bbf74a35be6b40b8eedf2785e42874d",
    );
    check(&counting_key(), &unhex("000000000000004a00000000"), 1, plaintext, &ciphertext);
}

/// RFC 8439 Appendix A.1: five block-function vectors (keystream of one block).
#[test]
fn rfc8439_a1_block_functions() {
    let zero = [0u8; 32];
    let mut one = [0u8; 32];
    one[31] = 1;
    let mut ff = [0u8; 32];
    ff[1] = 0xff;
    let mut nonce2 = [0u8; 12];
    nonce2[11] = 2;
    let cases: [(&[u8], &[u8], u32, &str); 5] = [
        (
            &zero,
            &[0; 12],
            0,
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
        ),
        (
            &zero,
            &[0; 12],
            1,
            "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f",
        ),
        (
            &one,
            &[0; 12],
            1,
            "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0",
        ),
        (
            &ff,
            &[0; 12],
            2,
            "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096",
        ),
        (
            &zero,
            &nonce2,
            0,
            "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c78a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d",
        ),
    ];
    for (key, nonce, counter, keystream) in cases {
        check(key, nonce, counter, &[0; 64], &unhex(keystream));
    }
}

/// The IETF contribution text of RFC 8439 Appendix A.2 vector #2 and A.3 (375 bytes).
pub const IETF: &[u8] = b"Any submission to the IETF intended by the Contributor for publication as all or part of an IETF Internet-Draft or RFC and any statement made within the context of an IETF activity is considered an \"IETF Contribution\". Such statements include oral statements in IETF sessions, as well as written and electronic communications made at any time or place, which are addressed to";
/// The poem of RFC 8439 Appendix A.2 vector #3 and A.3 vector #4 (127 bytes).
pub const JABBERWOCK: &[u8] = b"'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\nAll mimsy were the borogoves,\nAnd the mome raths outgrabe.";

/// RFC 8439 Appendix A.2: three encryption vectors.
#[test]
fn rfc8439_a2_encryption() {
    let mut one = [0u8; 32];
    one[31] = 1;
    let mut nonce2 = [0u8; 12];
    nonce2[11] = 2;
    check(
        &[0; 32],
        &[0; 12],
        0,
        &[0; 64],
        &unhex(
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
        ),
    );
    assert_eq!(IETF.len(), 375);
    check(
        &one,
        &nonce2,
        1,
        IETF,
        &unhex(
            "a3fbf07df3fa2fde4f376ca23e82737041605d9f4f4f57bd8cff2c1d4b7955ec
             2a97948bd3722915c8f3d337f7d370050e9e96d647b7c39f56e031ca5eb6250d
             4042e02785ececfa4b4bb5e8ead0440e20b6e8db09d881a7c6132f420e527950
             42bdfa7773d8a9051447b3291ce1411c680465552aa6c405b7764d5e87bea85a
             d00f8449ed8f72d0d662ab052691ca66424bc86d2df80ea41f43abf937d3259d
             c4b2d0dfb48a6c9139ddd7f76966e928e635553ba76c5c879d7b35d49eb2e62b
             0871cdac638939e25e8a1e0ef9d5280fa8ca328b351c3c765989cbcf3daa8b6c
             cc3aaf9f3979c92b3720fc88dc95ed84a1be059c6499b9fda236e7e818b04b0b
             c39c1e876b193bfe5569753f88128cc08aaa9b63d1a16f80ef2554d7189c411f
             5869ca52c5b83fa36ff216b9c1d30062bebcfd2dc5bce0911934fda79a86f6e6
             98ced759c3ff9b6477338f3da4f9cd8514ea9982ccafb341b2384dd902f3d1ab
             7ac61dd29c6f21ba5b862f3730e37cfdc4fd806c22f221",
        ),
    );
    assert_eq!(JABBERWOCK.len(), 127);
    check(
        &unhex("1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"),
        &nonce2,
        42,
        JABBERWOCK,
        &unhex(
            "62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf
             166d3df2d721caf9b21e5fb14c616871fd84c54f9d65b283196c7fe4f60553eb
             f39c6402c42234e32a356b3e764312a61a5532055716ead6962568f87d3f3f77
             04c6a8d1bcd1bf4d50d6154b6da731b187b58dfd728afa36757a797ac188d1",
        ),
    );
}

/// draft-irtf-cfrg-xchacha §2.2.1: the HChaCha20 subkey for key 00..1f and nonce
/// 00000009 0000004a 00000000 31415927.
#[test]
fn xchacha_draft_hchacha20() {
    let nonce: [u8; 16] = unhex("000000090000004a0000000031415927").try_into().unwrap();
    assert_eq!(
        hchacha20(&counting_key(), &nonce).to_vec(),
        unhex("82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc")
    );
}

/// The keystream may run up to block 2^32 − 1 and no further (RFC 8439 §2.4).
#[test]
fn counter_limit_on_every_implementation() {
    for imp in chacha_impls() {
        let cipher = ChaCha20::with_impl(&[9; 32], imp).unwrap();
        // A long buffer ending exactly at the last block, and one byte more.
        let mut buf = vec![0; 64 * 20];
        assert_eq!(cipher.apply_keystream(&[1; 12], u32::MAX - 19, &mut buf), Ok(()));
        let mut want = vec![0; 64 * 20];
        ChaCha20::with_impl(&[9; 32], ChaCha20Impl::Portable)
            .unwrap()
            .apply_keystream(&[1; 12], u32::MAX - 19, &mut want)
            .unwrap();
        assert_eq!(buf, want, "{}", imp.name());
        let mut over = vec![0; 64 * 20 + 1];
        assert_eq!(
            cipher.apply_keystream(&[1; 12], u32::MAX - 19, &mut over),
            Err(Error::MessageTooLong),
            "{}",
            imp.name()
        );
        assert!(over.iter().all(|&b| b == 0), "{} must not touch a refused buffer", imp.name());
    }
}

/// Every implementation agrees with the portable one on every length up to 40 blocks, so each
/// lane count and tail path of the vector code is reached.
#[test]
fn every_length_matches_portable() {
    let data = pattern(64 * 40 + 1, 7);
    let portable = ChaCha20::with_impl(&[0x5a; 32], ChaCha20Impl::Portable).unwrap();
    for imp in chacha_impls() {
        let cipher = ChaCha20::with_impl(&[0x5a; 32], imp).unwrap();
        for len in 0..=data.len() {
            let mut want = data[..len].to_vec();
            portable.apply_keystream(&[3; 12], 5, &mut want).unwrap();
            let mut got = data[..len].to_vec();
            cipher.apply_keystream(&[3; 12], 5, &mut got).unwrap();
            assert!(got == want, "{} differs at length {len}", imp.name());
        }
    }
}

/// RustCrypto's ChaCha20 (RFC 8439 variant) over `data` from block `counter`.
fn rustcrypto(key: &[u8; 32], nonce: &[u8; 12], counter: u32, data: &[u8]) -> Vec<u8> {
    use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
    let mut c = chacha20::ChaCha20::new(key.into(), nonce.into());
    c.seek(u64::from(counter) * 64);
    let mut out = data.to_vec();
    c.apply_keystream(&mut out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random keys, nonces, counters and lengths up to 4 KiB: every implementation equals
    /// RustCrypto's `chacha20`.
    #[test]
    fn random_inputs_match_rustcrypto(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 12]>(),
        counter in prop_oneof![0u32..1000, (u32::MAX - 80)..=u32::MAX - 64],
        data in proptest::collection::vec(any::<u8>(), 0..=4096),
    ) {
        let want = rustcrypto(&key, &nonce, counter, &data);
        for imp in chacha_impls() {
            let mut got = data.clone();
            ChaCha20::with_impl(&key, imp).unwrap().apply_keystream(&nonce, counter, &mut got).unwrap();
            prop_assert_eq!(&got, &want, "{}", imp.name());
        }
    }
}
