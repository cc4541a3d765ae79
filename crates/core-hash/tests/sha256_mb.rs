//! Multi-buffer SHA-256 and HMAC-SHA-256 against the single-buffer code: FIPS 180-4 and RFC
//! 4231 vectors in every lane position, every length mix that crosses the padding boundaries,
//! random lengths (proptest), and the scheduler's submit/flush contract, on every
//! multi-buffer implementation this CPU runs (the others are named as not checked).

use core_hash::{CountMismatch, Hmac, Implementation, Sha256, Sha256Many, Sha256MbImpl};
use hex_literal::hex;
use proptest::prelude::*;

/// The multi-buffer implementations this CPU runs; prints the others.
fn impls() -> Vec<Sha256MbImpl> {
    let available: Vec<Sha256MbImpl> = Sha256MbImpl::available().collect();
    for name in Sha256MbImpl::ALL {
        if !available.iter().any(|i| i.name() == *name) {
            println!("sha256-mb: implementation {name} is not available on this CPU; not checked");
        }
    }
    available
}

/// Checks `digest_many` and `mac_many` of `messages` on `imp` against the single-buffer code.
fn check_against_single(imp: Sha256MbImpl, messages: &[&[u8]]) {
    let mut out = vec![[0u8; 32]; messages.len()];
    imp.digest_many(messages, &mut out).unwrap();
    for (i, (m, d)) in messages.iter().zip(&out).enumerate() {
        assert_eq!(*d, Sha256::digest(m), "{} message {i} of {} bytes", imp.name(), m.len());
    }
    // Keys from the messages themselves: every key length class, including over a block.
    let pairs: Vec<(&[u8], &[u8])> = messages
        .iter()
        .enumerate()
        .map(|(i, m)| (messages[(i + 1) % messages.len()], *m))
        .collect();
    Hmac::<Sha256>::mac_many_with(imp, &pairs, &mut out).unwrap();
    for (i, ((k, m), t)) in pairs.iter().zip(&out).enumerate() {
        assert_eq!(*t, Hmac::<Sha256>::mac(k, m), "{} HMAC {i}", imp.name());
    }
}

/// A deterministic message of `len` bytes, different for each `seed`.
fn message(len: usize, seed: u8) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)).collect()
}

/// FIPS 180-4 examples (the NIST "abc", empty and two-block messages) in every lane position,
/// among messages of other lengths, so a transposition or lane mix-up shows.
#[test]
fn fips_vectors_in_every_lane() {
    let vectors: [(&[u8], [u8; 32]); 3] = [
        (b"abc", hex!("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")),
        (b"", hex!("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")),
        (
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            hex!("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ),
    ];
    let fillers: Vec<Vec<u8>> = (0..17).map(|i| message(i * 37, i as u8)).collect();
    for imp in impls() {
        for (msg, want) in &vectors {
            for pos in 0..17 {
                let mut messages: Vec<&[u8]> = fillers.iter().map(Vec::as_slice).collect();
                messages[pos] = msg;
                let mut out = vec![[0u8; 32]; messages.len()];
                imp.digest_many(&messages, &mut out).unwrap();
                assert_eq!(out[pos], *want, "{} lane {pos}", imp.name());
            }
        }
    }
}

/// RFC 4231 test cases 2, 3, 4, 6, 7 (SHA-256), all at once and in mixed order.
#[test]
fn rfc4231_many() {
    let key4: Vec<u8> = (1..=25).collect();
    let msg7: &[u8] = b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.";
    let cases: [(&[u8], &[u8], [u8; 32]); 5] = [
        (
            b"Jefe",
            b"what do ya want for nothing?",
            hex!("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ),
        (
            &[0xaa; 20],
            &[0xdd; 50],
            hex!("773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        ),
        (
            &key4,
            &[0xcd; 50],
            hex!("82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ),
        (
            &[0xaa; 131],
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            hex!("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ),
        (
            &[0xaa; 131],
            msg7,
            hex!("9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ),
    ];
    for imp in impls() {
        // Each case three times over, so the cases share the lanes in varying positions.
        let pairs: Vec<(&[u8], &[u8])> =
            (0..15).map(|i| (cases[i % 5].0, cases[i % 5].1)).collect();
        let mut out = vec![[0u8; 32]; pairs.len()];
        Hmac::<Sha256>::mac_many_with(imp, &pairs, &mut out).unwrap();
        for (i, tag) in out.iter().enumerate() {
            assert_eq!(*tag, cases[i % 5].2, "{} case {i}", imp.name());
        }
    }
    let mut one = [[0u8; 32]];
    Hmac::<Sha256>::mac_many(&[(cases[0].0, cases[0].1)], &mut one).unwrap();
    assert_eq!(one[0], cases[0].2);
}

/// Every length around the padding boundaries (55/56 bytes: one or two final blocks; 63, 64,
/// 65) and up to three blocks, in batches of every size up to and past two full rounds of
/// lanes, the lengths rotated so that each lane sees each length.
#[test]
fn every_length_mix() {
    let lens: Vec<usize> = (0..=200).collect();
    let msgs: Vec<Vec<u8>> = lens.iter().map(|&l| message(l, l as u8)).collect();
    for imp in impls() {
        for count in [1, 2, 7, 8, 9, 15, 16, 17, 33] {
            for start in (0..lens.len()).step_by(13) {
                let batch: Vec<&[u8]> =
                    (0..count).map(|i| msgs[(start + 7 * i) % msgs.len()].as_slice()).collect();
                check_against_single(imp, &batch);
            }
        }
    }
}

/// One long message among short ones: the short lanes are refilled while it runs.
#[test]
fn long_and_short_messages_share_the_lanes() {
    let long = message(10_000, 1);
    let short: Vec<Vec<u8>> = (0..40).map(|i| message(i * 3, i as u8)).collect();
    let mut batch: Vec<&[u8]> = short.iter().map(Vec::as_slice).collect();
    batch.insert(3, &long);
    batch.push(&long);
    for imp in impls() {
        check_against_single(imp, &batch);
    }
}

/// The scheduler hands back every id exactly once, with its digest; `submit` holds on to
/// messages only while lanes are free, and `flush` drains the rest.
#[test]
fn submit_and_flush_return_every_id_once() {
    let msgs: Vec<Vec<u8>> = (0..50).map(|i| message(i * 29 % 300, i as u8)).collect();
    for imp in impls() {
        let mut many = Sha256Many::with_impl(imp);
        assert_eq!(many.implementation(), imp);
        let mut seen = vec![false; msgs.len()];
        let mut record = |(id, digest): (usize, [u8; 32])| {
            assert!(!seen[id], "{} id {id} twice", imp.name());
            seen[id] = true;
            assert_eq!(digest, Sha256::digest(&msgs[id]), "{} id {id}", imp.name());
        };
        let mut before_full = 0;
        for (id, m) in msgs.iter().enumerate() {
            match many.submit(id, m) {
                Some(done) => record(done),
                None if id < imp.lanes() => before_full += 1,
                None => {}
            }
        }
        assert_eq!(before_full, imp.lanes() - 1, "{}: lanes fill before anything runs", imp.name());
        while let Some(done) = many.flush() {
            record(done);
        }
        assert!(seen.iter().all(|&s| s), "{}", imp.name());
        assert_eq!(many.flush(), None);
    }
}

#[test]
fn count_mismatch_is_an_error() {
    let mut out = [[0u8; 32]; 2];
    let err = Sha256::digest_many(&[b"a"], &mut out).unwrap_err();
    assert_eq!(err, CountMismatch { inputs: 1, outputs: 2 });
    assert!(err.to_string().contains("1 inputs but 2 output slots"));
    assert_eq!(
        Hmac::<Sha256>::mac_many(&[(&b"k"[..], &b"m"[..]); 3], &mut out),
        Err(CountMismatch { inputs: 3, outputs: 2 })
    );
    assert_eq!(Sha256::digest_many(&[], &mut []), Ok(()));
}

#[test]
fn lanes_per_implementation() {
    for imp in Sha256MbImpl::available() {
        let want = match imp.name() {
            "x86_avx512" => 16,
            "x86_avx2" => 8,
            _ => 1,
        };
        assert_eq!(imp.lanes(), want);
        assert!(imp.lanes() <= core_hash::MAX_LANES);
    }
    assert_eq!(
        Sha256MbImpl::available().last(),
        Some(Sha256MbImpl::by_name("sequential").unwrap())
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random batches of random lengths (0 to several blocks, mixed) on every implementation.
    #[test]
    fn random_batches_match_single_buffer(
        msgs in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..400), 1..40),
    ) {
        let batch: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        for imp in Sha256MbImpl::available() {
            check_against_single(imp, &batch);
        }
    }
}
