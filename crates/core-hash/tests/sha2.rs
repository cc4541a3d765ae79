//! SHA-1 and SHA-2 known answers (FIPS 180-4 examples, NIST SHAVS short-message samples) on
//! every implementation, and random messages against RustCrypto's `sha1`/`sha2`.

mod common;

use common::{MSG_448, MSG_896, check, hash_chunked, million_a};
use core_hash::{Hash, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_256};
use hex_literal::hex;
use proptest::prelude::*;

#[test]
fn sha1_fips() {
    check::<Sha1>("sha1", b"", &hex!("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
    check::<Sha1>("sha1", b"abc", &hex!("a9993e364706816aba3e25717850c26c9cd0d89d"));
    check::<Sha1>("sha1", MSG_448, &hex!("84983e441c3bd26ebaae4aa1f95129e5e54670f1"));
    check::<Sha1>("sha1", &million_a(), &hex!("34aa973cd4c4daa4f61eeb2bdbad27316534016f"));
}

#[test]
fn sha224_fips() {
    check::<Sha224>(
        "sha224",
        b"",
        &hex!("d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"),
    );
    check::<Sha224>(
        "sha224",
        b"abc",
        &hex!("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
    );
    check::<Sha224>(
        "sha224",
        MSG_448,
        &hex!("75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"),
    );
    check::<Sha224>(
        "sha224",
        &million_a(),
        &hex!("20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67"),
    );
}

#[test]
fn sha256_fips() {
    check::<Sha256>(
        "sha256",
        b"",
        &hex!("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    );
    check::<Sha256>(
        "sha256",
        b"abc",
        &hex!("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    );
    check::<Sha256>(
        "sha256",
        MSG_448,
        &hex!("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    );
    check::<Sha256>(
        "sha256",
        MSG_896,
        &hex!("cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    );
    check::<Sha256>(
        "sha256",
        &million_a(),
        &hex!("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    );
}

/// SHAVS `SHA256ShortMsg.rsp` samples (Len = 8 and 16 bits).
#[test]
fn sha256_shavs_short() {
    check::<Sha256>(
        "sha256",
        &hex!("d3"),
        &hex!("28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1"),
    );
    check::<Sha256>(
        "sha256",
        &hex!("11af"),
        &hex!("5ca7133fa735326081558ac312c620eeca9970d1e70a4b95533d956f072d1f98"),
    );
}

#[test]
fn sha384_fips() {
    check::<Sha384>(
        "sha384",
        b"",
        &hex!(
            "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b"
        ),
    );
    check::<Sha384>(
        "sha384",
        b"abc",
        &hex!(
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
        ),
    );
    check::<Sha384>(
        "sha384",
        MSG_896,
        &hex!(
            "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039"
        ),
    );
    check::<Sha384>(
        "sha384",
        &million_a(),
        &hex!(
            "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985"
        ),
    );
}

#[test]
fn sha512_fips() {
    check::<Sha512>(
        "sha512",
        b"",
        &hex!(
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        ),
    );
    check::<Sha512>(
        "sha512",
        b"abc",
        &hex!(
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
    );
    check::<Sha512>(
        "sha512",
        MSG_896,
        &hex!(
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
        ),
    );
    check::<Sha512>(
        "sha512",
        &million_a(),
        &hex!(
            "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"
        ),
    );
}

#[test]
fn sha512_256_fips() {
    check::<Sha512_256>(
        "sha512/256",
        b"",
        &hex!("c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a"),
    );
    check::<Sha512_256>(
        "sha512/256",
        b"abc",
        &hex!("53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"),
    );
}

/// Forking a transcript: a clone continues independently of the original.
#[test]
fn clone_forks_state() {
    let mut a = Sha384::new();
    a.update(b"hello ");
    let mut b = a.clone();
    a.update(b"world");
    b.update(b"there");
    assert_eq!(a.finalize(), Sha384::digest(b"hello world"));
    assert_eq!(b.finalize(), Sha384::digest(b"hello there"));
}

/// Debug output must not reveal the state.
#[test]
fn debug_hides_state() {
    let mut h = Sha256::new();
    h.update(b"secret key material");
    let shown = format!("{h:?}");
    assert!(shown.starts_with("Sha256 { implementation: "), "{shown}");
    assert!(!shown.contains("state"), "{shown}");
}

/// Every implementation agrees with RustCrypto on `data` fed in the given pieces.
fn agree<H: Hash, R: sha2::Digest>(data: &[u8], chunk: usize) {
    let want = R::digest(data);
    for imp in H::implementations() {
        let got = hash_chunked::<H>(imp, data, chunk);
        assert_eq!(got.as_ref(), want.as_slice(), "{imp:?}, {} bytes", data.len());
    }
    assert_eq!(H::digest(data).as_ref(), want.as_slice(), "one-shot, {} bytes", data.len());
}

/// The one-shot `digest` (whole blocks in place, padded tail built apart) and streaming agree
/// with RustCrypto at every length around the block and padding boundaries.
#[test]
fn every_length_up_to_three_blocks() {
    let data: Vec<u8> = (0..400u32).map(|i| (i * 131 % 251) as u8).collect();
    for len in 0..=400 {
        for chunk in [1, 55, 64, 400] {
            agree::<Sha1, sha1::Sha1>(&data[..len], chunk);
            agree::<Sha224, sha2::Sha224>(&data[..len], chunk);
            agree::<Sha256, sha2::Sha256>(&data[..len], chunk);
            agree::<Sha384, sha2::Sha384>(&data[..len], chunk);
            agree::<Sha512, sha2::Sha512>(&data[..len], chunk);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_messages_match_rustcrypto(
        data in proptest::collection::vec(any::<u8>(), 0..=10 * 1024),
        chunk in 1usize..300,
    ) {
        agree::<Sha1, sha1::Sha1>(&data, chunk);
        agree::<Sha224, sha2::Sha224>(&data, chunk);
        agree::<Sha256, sha2::Sha256>(&data, chunk);
        agree::<Sha384, sha2::Sha384>(&data, chunk);
        agree::<Sha512, sha2::Sha512>(&data, chunk);
        agree::<Sha512_256, sha2::Sha512_256>(&data, chunk);
    }
}

/// RFC 1321 §A.5 test suite (MD5 is behind the `legacy` feature).
#[cfg(feature = "legacy")]
#[test]
fn md5_rfc1321() {
    use core_hash::Md5;
    check::<Md5>("md5", b"", &hex!("d41d8cd98f00b204e9800998ecf8427e"));
    check::<Md5>("md5", b"a", &hex!("0cc175b9c0f1b6a831c399e269772661"));
    check::<Md5>("md5", b"abc", &hex!("900150983cd24fb0d6963f7d28e17f72"));
    check::<Md5>("md5", b"message digest", &hex!("f96b697d7cb7938d525a2f31aaf161d0"));
    check::<Md5>(
        "md5",
        b"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
        &hex!("57edf4a22be3c955ac49da2e2107b67a"),
    );
    let data: Vec<u8> = (0..5000u32).map(|i| (i * 31 % 251) as u8).collect();
    for chunk in [1, 63, 64, 65, 1000] {
        use md5::Digest;
        assert_eq!(
            hash_chunked::<Md5>(core_hash::Md5Impl::Portable, &data, chunk)[..],
            md5::Md5::digest(&data)[..]
        );
    }
}

/// `finalize_reset` returns the digest and leaves a fresh hasher behind, for every family.
#[test]
fn finalize_reset_restarts() {
    fn restarts<H: Hash>() {
        for imp in H::implementations() {
            let mut h = H::with_impl(imp);
            h.update(&[7; 300]);
            assert_eq!(h.finalize_reset(), H::digest(&[7; 300]), "{imp:?}");
            h.update(b"again");
            assert_eq!(h.finalize(), H::digest(b"again"), "{imp:?}");
        }
    }
    restarts::<Sha1>();
    restarts::<Sha256>();
    restarts::<Sha512_256>();
    restarts::<core_hash::Sha3_256>();
}

/// `finalize_with` (HMAC's last step) gives the digest of everything absorbed plus its
/// argument, whether or not a partial block is buffered, on every implementation.
#[test]
fn finalize_with_appends_its_data() {
    fn check<H: Hash>() {
        let data: Vec<u8> = (0..300u32).map(|i| (i * 7 % 253) as u8).collect();
        for imp in H::implementations() {
            for split in [0, 1, 63, 64, 65, 127, 128, 129, 200] {
                // split + 20/32/48: exactly one digest appended, HMAC's outer-hash case.
                for end in [
                    split,
                    split + 1,
                    split + 20,
                    split + 32,
                    split + 48,
                    split + 55,
                    split + 64,
                    300,
                ] {
                    let end = end.min(300);
                    let mut h = H::with_impl(imp);
                    h.update(&data[..split]);
                    let got = h.finalize_with(&data[split..end]);
                    assert_eq!(got, H::digest(&data[..end]), "{imp:?} {split} {end}");
                }
            }
        }
    }
    check::<Sha1>();
    check::<Sha256>();
    check::<Sha384>();
    check::<core_hash::Sha3_256>();
}
