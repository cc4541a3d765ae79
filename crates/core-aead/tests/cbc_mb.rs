//! Multi-buffer AES-CBC encryption on every implementation: the SP 800-38A F.2 examples as
//! streams of a many-stream call (more streams than lanes, all three key sizes mixed), and
//! random mixes of keys, key implementations, IVs and lengths against one-stream CBC.

mod aes_common;

use aes_common::{checkable_aes, report_unavailable, unhex, vaes_is_sound};
use core_aead::{Aes, CbcMbImpl, CbcStream, Error, Implementation};
use proptest::prelude::*;

fn every_impl() -> Vec<CbcMbImpl> {
    report_unavailable::<CbcMbImpl>("aes-cbc-mb");
    let vaes_ok = vaes_is_sound();
    CbcMbImpl::available()
        .filter(|imp| vaes_ok || !matches!(imp, CbcMbImpl::X86Vaes512(_)))
        .collect()
}

const SP800_38A_IV: &str = "000102030405060708090a0b0c0d0e0f";
const SP800_38A_PT: &str = "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
                            30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710";

/// SP 800-38A F.2.1, F.2.3 and F.2.5 (CBC-AES128/192/256 encryption): key, ciphertext.
const SP800_38A_CBC: [(&str, &str); 3] = [
    (
        "2b7e151628aed2a6abf7158809cf4f3c",
        "7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2
         73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7",
    ),
    (
        "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
        "4f021db243bc633d7178183a9fa071e8 b4d9ada9ad7dedf4e5e738763f69145a
         571b242012fb7ae07fa9baac3df102e0 08b0e27988598881d920a9e64f5615cd",
    ),
    (
        "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
        "f58c4c04d6e5f1ba779eabfb5f7bfbd6 9cfc4e967edb808d679f777bc6702c7d
         39f23369a9d9bacfa530e26304231461 b2eb05e2c39be9fcda6c19078c6a9d1b",
    ),
];

/// 60 streams over the three examples, 1 to 4 blocks of each (a CBC ciphertext's prefix is
/// the prefix's ciphertext), every key implementation: each stream gives the example's
/// ciphertext and leaves its last block as the chaining value.
#[test]
fn sp800_38a_f2_through_every_implementation() {
    let iv: [u8; 16] = unhex(SP800_38A_IV).try_into().unwrap();
    let pt = unhex(SP800_38A_PT);
    let key_impls = checkable_aes();
    let keys: Vec<(Aes, Vec<u8>)> = SP800_38A_CBC
        .iter()
        .flat_map(|(k, ct)| {
            key_impls.iter().map(|imp| (Aes::with_impl(*imp, &unhex(k)).unwrap(), unhex(ct)))
        })
        .collect();
    for imp in every_impl() {
        let mut bufs: Vec<Vec<u8>> = (0..60).map(|j| pt[..16 * (j % 4 + 1)].to_vec()).collect();
        let mut streams: Vec<CbcStream<'_>> = bufs
            .iter_mut()
            .enumerate()
            .map(|(j, buf)| CbcStream { key: &keys[j % keys.len()].0, iv, buf })
            .collect();
        imp.cbc_encrypt(&mut streams).unwrap();
        for (j, s) in streams.iter().enumerate() {
            let want = &keys[j % keys.len()].1[..s.buf.len()];
            assert_eq!(&s.buf[..], want, "{} stream {j}", imp.name());
            assert_eq!(s.iv[..], want[want.len() - 16..], "{} stream {j} chain", imp.name());
        }
    }
}

#[test]
fn partial_blocks_are_refused_before_anything_is_encrypted() {
    let key = Aes::new(&[5; 16]).unwrap();
    for imp in every_impl() {
        let (mut a, mut b) = ([1u8; 32], [2u8; 33]);
        let mut streams = [
            CbcStream { key: &key, iv: [0; 16], buf: &mut a },
            CbcStream { key: &key, iv: [0; 16], buf: &mut b },
        ];
        assert_eq!(imp.cbc_encrypt(&mut streams), Err(Error::InvalidLength), "{}", imp.name());
        assert_eq!(streams[0].iv, [0; 16]);
        assert_eq!(a, [1u8; 32], "{}: untouched", imp.name());
    }
}

#[test]
fn no_streams_and_empty_streams() {
    let key = Aes::new(&[5; 32]).unwrap();
    for imp in every_impl() {
        assert_eq!(imp.cbc_encrypt(&mut []), Ok(()));
        let mut empty = [];
        let mut one = [3u8; 16];
        let mut streams = [
            CbcStream { key: &key, iv: [9; 16], buf: &mut empty },
            CbcStream { key: &key, iv: [9; 16], buf: &mut one },
        ];
        imp.cbc_encrypt(&mut streams).unwrap();
        assert_eq!(streams[0].iv, [9; 16], "{}: an empty stream keeps its IV", imp.name());
        let mut want = [3u8; 16];
        key.cbc_encrypt(&mut [9; 16], &mut want).unwrap();
        assert_eq!(one, want, "{}", imp.name());
    }
}

/// Long streams of equal and of staggered lengths, more than any implementation's lanes: the
/// kernel runs long stretches with every lane busy, and lanes are refilled mid-run.
#[test]
fn long_streams_equal_and_staggered() {
    let keys: Vec<Aes> = (0..40u8).map(|i| Aes::new(&[i; 16]).unwrap()).collect();
    for staggered in [false, true] {
        let data: Vec<Vec<u8>> = (0..40usize)
            .map(|j| {
                let blocks = if staggered { 40 + 13 * j } else { 96 };
                (0..16 * blocks).map(|i| (i ^ j) as u8).collect()
            })
            .collect();
        let mut want = data.clone();
        for (key, buf) in keys.iter().zip(&mut want) {
            key.cbc_encrypt(&mut [7; 16], buf).unwrap();
        }
        for imp in every_impl() {
            let mut bufs = data.clone();
            let mut streams: Vec<CbcStream<'_>> = bufs
                .iter_mut()
                .zip(&keys)
                .map(|(buf, key)| CbcStream { key, iv: [7; 16], buf })
                .collect();
            imp.cbc_encrypt(&mut streams).unwrap();
            drop(streams);
            assert_eq!(bufs, want, "{} staggered: {staggered}", imp.name());
        }
    }
}

/// A stream: key bytes (16, 24 or 32), which key implementation, IV, length in blocks.
fn stream_strategy() -> impl Strategy<Value = (Vec<u8>, usize, [u8; 16], usize)> {
    let key = prop_oneof![
        proptest::collection::vec(any::<u8>(), 16),
        proptest::collection::vec(any::<u8>(), 24),
        proptest::collection::vec(any::<u8>(), 32),
    ];
    // Mostly short, some a few hundred blocks, so lanes are refilled at many offsets.
    let blocks = prop_oneof![4 => 0usize..=12, 1 => 0usize..=300];
    (key, any::<usize>(), any::<[u8; 16]>(), blocks)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every multi-buffer implementation gives what one-stream CBC gives, for any mix of
    /// stream counts (fewer and more than the lanes), lengths, key sizes and key
    /// implementations, and leaves each chaining value as one-stream CBC does.
    #[test]
    fn every_implementation_matches_one_stream_cbc(
        specs in proptest::collection::vec(stream_strategy(), 0..40),
        seed in any::<u8>(),
    ) {
        let key_impls = checkable_aes();
        let keys: Vec<Aes> = specs
            .iter()
            .map(|(k, which, _, _)| Aes::with_impl(key_impls[which % key_impls.len()], k).unwrap())
            .collect();
        let data: Vec<Vec<u8>> = specs
            .iter()
            .enumerate()
            .map(|(j, s)| (0..16 * s.3).map(|i| (i * 31 + j * 7) as u8 ^ seed).collect())
            .collect();
        let mut want = data.clone();
        let mut want_iv = Vec::new();
        for ((key, spec), buf) in keys.iter().zip(&specs).zip(&mut want) {
            let mut iv = spec.2;
            key.cbc_encrypt(&mut iv, buf).unwrap();
            want_iv.push(iv);
        }
        for imp in every_impl() {
            let mut bufs = data.clone();
            let mut streams: Vec<CbcStream<'_>> = bufs
                .iter_mut()
                .zip(&keys)
                .zip(&specs)
                .map(|((buf, key), spec)| CbcStream { key, iv: spec.2, buf })
                .collect();
            imp.cbc_encrypt(&mut streams).unwrap();
            for (j, s) in streams.iter().enumerate() {
                prop_assert_eq!(&s.buf[..], &want[j][..], "{} stream {}", imp.name(), j);
                prop_assert_eq!(s.iv, want_iv[j], "{} stream {} chain", imp.name(), j);
            }
        }
    }
}
