//! Poly1305 known answers (RFC 8439 §2.5.2 and Appendix A.3, the eleven vectors including the
//! reduction edge cases) on every implementation, whole and in uneven pieces, and random keys
//! and messages against the radix-2^26 code and RustCrypto's `poly1305`.

mod chacha_common;

use chacha_common::{pattern, poly_impls, unhex};
use core_aead::{Error, Implementation, Poly1305, Poly1305Impl};
use proptest::prelude::*;

/// The MAC of `msg` on `imp`, fed in pieces of `piece` bytes.
fn mac(imp: Poly1305Impl, key: &[u8], msg: &[u8], piece: usize) -> [u8; 16] {
    let mut m = Poly1305::with_impl(key, imp).unwrap();
    for p in msg.chunks(piece.max(1)) {
        m.update(p);
    }
    m.finalize()
}

/// Checks `tag == Poly1305(key, msg)` on every implementation, whole and in pieces, and that
/// `verify` accepts it and rejects a one-bit change.
fn check(key: &str, msg: &[u8], tag: &str) {
    let (key, tag) = (unhex(key), unhex(tag));
    for imp in poly_impls() {
        for piece in [msg.len(), 1, 7, 15, 16, 17, 64, 100, 129] {
            assert_eq!(
                mac(imp, &key, msg, piece).to_vec(),
                tag,
                "{} pieces of {piece}",
                imp.name()
            );
        }
        let mut m = Poly1305::with_impl(&key, imp).unwrap();
        m.update(msg);
        assert_eq!(m.clone().verify(&tag), Ok(()), "{}", imp.name());
        let mut bad = tag.clone();
        bad[15] ^= 0x80;
        assert_eq!(m.verify(&bad), Err(Error::AuthenticationFailed), "{}", imp.name());
    }
}

/// RFC 8439 §2.5.2.
#[test]
fn rfc8439_2_5_2() {
    check(
        "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
        b"Cryptographic Forum Research Group",
        "a8061dc1305136c6c22b8baf0c0127a9",
    );
}

/// The IETF contribution text of RFC 8439 Appendix A.3 vectors #2 and #3 (375 bytes).
const IETF: &[u8] = b"Any submission to the IETF intended by the Contributor for publication as all or part of an IETF Internet-Draft or RFC and any statement made within the context of an IETF activity is considered an \"IETF Contribution\". Such statements include oral statements in IETF sessions, as well as written and electronic communications made at any time or place, which are addressed to";

/// RFC 8439 Appendix A.3, vectors #1–#4.
#[test]
fn rfc8439_a3_1_to_4() {
    check(&"00".repeat(32), &[0; 64], &"00".repeat(16));
    check(
        "0000000000000000000000000000000036e5f6b5c5e06070f0efca96227a863e",
        IETF,
        "36e5f6b5c5e06070f0efca96227a863e",
    );
    check(
        "36e5f6b5c5e06070f0efca96227a863e00000000000000000000000000000000",
        IETF,
        "f3477e7cd95417af89a6b8794c310cf0",
    );
    check(
        "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
        b"'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\nAll mimsy were the borogoves,\nAnd the mome raths outgrabe.",
        "4541669a7eaaee61e708dc7cbcc5eb62",
    );
}

/// RFC 8439 Appendix A.3, vectors #5–#11: partial reduction, carries, results at and near
/// 2^130 − 5, and 131-bit intermediate values.
#[test]
fn rfc8439_a3_5_to_11_edge_cases() {
    let r2 = "02000000000000000000000000000000";
    let r1 = "01000000000000000000000000000000";
    let s0 = "00000000000000000000000000000000";
    let r_4 = "01000000000000000400000000000000";
    let ff = "ffffffffffffffffffffffffffffffff";
    check(&format!("{r2}{s0}"), &unhex(ff), "03000000000000000000000000000000");
    check(&format!("{r2}{ff}"), &unhex(r2), "03000000000000000000000000000000");
    check(
        &format!("{r1}{s0}"),
        &unhex(&format!("{ff}f0ffffffffffffffffffffffffffffff11000000000000000000000000000000")),
        "05000000000000000000000000000000",
    );
    check(
        &format!("{r1}{s0}"),
        &unhex(&format!("{ff}fbfefefefefefefefefefefefefefefe01010101010101010101010101010101")),
        "00000000000000000000000000000000",
    );
    check(
        &format!("{r2}{s0}"),
        &unhex("fdffffffffffffffffffffffffffffff"),
        "faffffffffffffffffffffffffffffff",
    );
    let data10 = "e33594d7505e43b900000000000000003394d7505e4379cd010000000000000000000000000000000000000000000000";
    check(
        &format!("{r_4}{s0}"),
        &unhex(&format!("{data10}01000000000000000000000000000000")),
        "14000000000000005500000000000000",
    );
    check(&format!("{r_4}{s0}"), &unhex(data10), "13000000000000000000000000000000");
}

/// Messages long enough for the vector implementations, whose tails are not multiples of
/// their width, agree with the radix-2^26 code at every length up to 1 KiB and a few beyond.
#[test]
fn every_length_matches_portable32() {
    let data = pattern(4096 + 33, 11);
    let key = pattern(32, 12);
    let lens = (0..=1024).chain([1039, 1535, 2048, 2063, 4095, 4096, 4096 + 33]);
    for len in lens {
        let want = mac(Poly1305Impl::Portable32, &key, &data[..len], len);
        for imp in poly_impls() {
            assert_eq!(mac(imp, &key, &data[..len], len), want, "{} at length {len}", imp.name());
        }
    }
}

/// Keys whose `r` has every bit that clamping allows set, and accumulators near the modulus:
/// the largest limbs the vector code's lazy reduction has to hold.
#[test]
fn extreme_keys_and_messages() {
    let mut keys = vec![[0xffu8; 32], [0u8; 32]];
    keys.push(core::array::from_fn(|i| if i < 16 { 0xff } else { 0 }));
    for key in keys {
        for byte in [0x00, 0xff] {
            for len in [16, 64, 256, 1024, 4096] {
                let msg = vec![byte; len];
                let want = mac(Poly1305Impl::Portable32, &key, &msg, len);
                for imp in poly_impls() {
                    assert_eq!(mac(imp, &key, &msg, len), want, "{} {byte:#x}×{len}", imp.name());
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random keys and messages up to 4 KiB in random pieces: every implementation equals
    /// RustCrypto's `poly1305`.
    #[test]
    fn random_messages_match_rustcrypto(
        key in any::<[u8; 32]>(),
        data in proptest::collection::vec(any::<u8>(), 0..=4096),
        piece in 1usize..600,
    ) {
        use poly1305::universal_hash::KeyInit;
        let want: [u8; 16] = poly1305::Poly1305::new(&key.into()).compute_unpadded(&data).into();
        for imp in poly_impls() {
            prop_assert_eq!(mac(imp, &key, &data, data.len()), want, "{}", imp.name());
            prop_assert_eq!(mac(imp, &key, &data, piece), want, "{} in pieces", imp.name());
        }
    }
}
