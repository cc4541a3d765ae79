//! TLS CBC records (AES-CBC with HMAC-SHA1/SHA-256/SHA-384, MAC-then-encrypt and
//! encrypt-then-MAC): SP 800-38A vectors through sealing, every pair of AES and hash
//! implementations against the plain composition (`Aes::cbc_encrypt` and `Hmac`) on random
//! records with any padding length, and the padding-oracle cases, which must all give the
//! one error.

use core_aead::{Aes, AesCbcHmac, AesImpl, Implementation, RecordError, RecordHash, RecordHeader};
use core_hash::{Hmac, Sha1, Sha256, Sha384};
use hex_literal::hex;
use proptest::prelude::*;

const HEADER: RecordHeader =
    RecordHeader { sequence: 0x0102_0304_0506_0708, content_type: 23, version: 0x0303 };

/// Every pair of implementations, and a line naming the AES ones this CPU lacks.
fn pairs<H: RecordHash>() -> Vec<(AesImpl, H::Impl)> {
    for name in AesImpl::ALL {
        if AesImpl::by_name(name).is_none() {
            println!("aes {name}: not available on this CPU");
        }
    }
    AesImpl::available().flat_map(|a| H::Impl::available().map(move |h| (a, h))).collect()
}

/// The record MAC (RFC 5246 §6.2.3.1) through core-hash's `Hmac`.
fn record_mac<H: RecordHash>(mac_key: &[u8], header: &RecordHeader, plaintext: &[u8]) -> Vec<u8> {
    let mut mac = Hmac::<H>::new(mac_key);
    mac.update(&header.sequence.to_be_bytes());
    mac.update(&[header.content_type]);
    mac.update(&header.version.to_be_bytes());
    mac.update(&(plaintext.len() as u16).to_be_bytes());
    mac.update(plaintext);
    mac.finalize().as_ref().to_vec()
}

/// The record as the plain composition builds it: HMAC over the header and plaintext, then
/// `pad` + 1 bytes of padding (any valid length, not only the shortest), then CBC.
fn reference<H: RecordHash>(
    aes_key: &[u8],
    mac_key: &[u8],
    header: &RecordHeader,
    iv: &[u8; 16],
    plaintext: &[u8],
    pad: u8,
) -> Vec<u8> {
    let mut body = plaintext.to_vec();
    body.extend_from_slice(&record_mac::<H>(mac_key, header, plaintext));
    body.extend(std::iter::repeat_n(pad, usize::from(pad) + 1));
    assert_eq!(body.len() % 16, 0, "the caller picks a padding that fills the last block");
    let mut chain = *iv;
    Aes::new(aes_key).unwrap().cbc_encrypt(&mut chain, &mut body).unwrap();
    let mut record = iv.to_vec();
    record.extend_from_slice(&body);
    record
}

/// A padding length ≥ `at_least` that fills the block, for a plaintext of `len` bytes.
fn padding_for<H: RecordHash>(len: usize, at_least: u8) -> u8 {
    let shortest = 15 - (len + H::OUTPUT_LEN) % 16;
    let blocks = usize::from(at_least).saturating_sub(shortest).div_ceil(16);
    (shortest + blocks.min((255 - shortest) / 16) * 16) as u8
}

/// Seals on every pair and checks the record against the composition, then opens it, and a
/// record with `pad`-ish padding from the composition too.
fn round_trip<H: RecordHash>(
    aes_key: &[u8],
    mac_key: &[u8],
    iv: &[u8; 16],
    plaintext: &[u8],
    pad: u8,
) {
    let shortest = padding_for::<H>(plaintext.len(), 0);
    let expected = reference::<H>(aes_key, mac_key, &HEADER, iv, plaintext, shortest);
    let padded = reference::<H>(
        aes_key,
        mac_key,
        &HEADER,
        iv,
        plaintext,
        padding_for::<H>(plaintext.len(), pad),
    );
    for (a, h) in pairs::<H>() {
        let key = AesCbcHmac::<H>::with_impls(a, h, aes_key, mac_key).unwrap();
        let mut buf = vec![0x77u8; expected.len() + 5];
        buf[16..16 + plaintext.len()].copy_from_slice(plaintext);
        let n = key.seal_in_place(&HEADER, iv, &mut buf, plaintext.len()).unwrap();
        assert_eq!(n, AesCbcHmac::<H>::sealed_len(plaintext.len()));
        assert_eq!(&buf[..n], &expected[..], "{} {}", a.name(), h.name());
        assert_eq!(&buf[n..], &[0x77; 5], "bytes past the record are left alone");
        assert_eq!(key.open_in_place(&HEADER, &mut buf[..n]).unwrap(), plaintext);
        let mut record = padded.clone();
        assert_eq!(
            key.open_in_place(&HEADER, &mut record).unwrap(),
            plaintext,
            "{} {}",
            a.name(),
            h.name()
        );
    }
}

/// Every plaintext length up to past two SHA-384 blocks, through every pair: the stitched
/// steps start at 51 bytes (115 with SHA-384) and the MAC's last blocks are padded by length,
/// so the short records and each boundary between them are covered, not left to chance.
#[test]
fn every_short_length_matches_the_composition() {
    let plaintext: Vec<u8> =
        (0..300u32).map(|i| i.wrapping_mul(2_654_435_761).to_le_bytes()[3]).collect();
    for len in 0..=plaintext.len() {
        round_trip::<Sha1>(&[1; 16], b"mac key", &[2; 16], &plaintext[..len], 0);
        round_trip::<Sha256>(&[3; 32], b"mac key", &[4; 16], &plaintext[..len], 17);
        round_trip::<Sha384>(&[5; 16], b"mac key", &[6; 16], &plaintext[..len], 255);
    }
}

/// SP 800-38A F.2.1 and F.2.5: CBC is prefix-preserving, so a record whose plaintext is the
/// vectors' four blocks starts with their ciphertext.
#[test]
fn sp800_38a_cbc_vectors_through_seal() {
    let iv = hex!("000102030405060708090a0b0c0d0e0f");
    let plaintext = hex!(
        "6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
        "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710"
    );
    let cases: [(&[u8], [u8; 64]); 2] = [
        (
            &hex!("2b7e151628aed2a6abf7158809cf4f3c"),
            hex!(
                "7649abac8119b246cee98e9b12e9197d" "5086cb9b507219ee95db113a917678b2"
                "73bed6b8e3c1743b7116e69e22229516" "3ff1caa1681fac09120eca307586e1a7"
            ),
        ),
        (
            &hex!("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
            hex!(
                "f58c4c04d6e5f1ba779eabfb5f7bfbd6" "9cfc4e967edb808d679f777bc6702c7d"
                "39f23369a9d9bacfa530e26304231461" "b2eb05e2c39be9fcda6c19078c6a9d1b"
            ),
        ),
    ];
    for (key, ciphertext) in cases {
        for (a, h) in pairs::<Sha256>() {
            let key = AesCbcHmac::<Sha256>::with_impls(a, h, key, b"mac key").unwrap();
            let mut buf = [0u8; 16 + 64 + 48];
            buf[16..80].copy_from_slice(&plaintext);
            let n = key.seal_in_place(&HEADER, &iv, &mut buf, 64).unwrap();
            assert_eq!(n, buf.len());
            assert_eq!(buf[..16], iv);
            assert_eq!(buf[16..80], ciphertext, "{}", a.name());
        }
        round_trip::<Sha1>(key, &[0x0b; 20], &iv, &plaintext, 0);
    }
}

/// Every bad padding length (each byte of it wrong in turn, and a padding length byte too
/// large for the record), a bad MAC, and truncated records give the same error and zero the
/// buffer; the good record opens.
fn oracle<H: RecordHash>() {
    let (aes_key, mac_key, iv) = ([9u8; 16], [5u8; 32], [1u8; 16]);
    let plaintext = [0x42u8; 100];
    for (n, (a, h)) in pairs::<H>().into_iter().enumerate() {
        let key = AesCbcHmac::<H>::with_impls(a, h, &aes_key, &mac_key).unwrap();
        let open = |record: &mut [u8]| match key.open_in_place(&HEADER, record) {
            Ok(_) => Ok(()),
            Err(e) => {
                assert!(record.iter().all(|&b| b == 0), "the buffer is zeroed on error");
                Err(e)
            }
        };
        // Every valid padding length (they differ by 16); every byte of the padding wrong on
        // the first pair, the first, middle and last on the others.
        for at_least in (0..=255u8).step_by(16) {
            let pad = padding_for::<H>(plaintext.len(), at_least);
            let mut body = plaintext.to_vec();
            body.extend_from_slice(&record_mac::<H>(&mac_key, &HEADER, &plaintext));
            let mac_end = body.len();
            body.extend(std::iter::repeat_n(pad, usize::from(pad) + 1));
            let seal = |body: &[u8]| {
                let (mut chain, mut out) = (iv, body.to_vec());
                Aes::new(&aes_key).unwrap().cbc_encrypt(&mut chain, &mut out).unwrap();
                [&iv[..], &out].concat()
            };
            assert_eq!(open(&mut seal(&body)), Ok(()), "pad {pad}");
            let last = body.len() - 1;
            let every: Vec<usize> = (mac_end..last).collect();
            let some = [mac_end, mac_end.midpoint(last), last - 1];
            for &i in if n == 0 { &every[..] } else { &some[..pad.min(3) as usize] } {
                let mut bad = body.clone();
                bad[i] ^= 0x01;
                assert_eq!(
                    open(&mut seal(&bad)),
                    Err(RecordError::BadRecordMac),
                    "pad {pad} byte {i}"
                );
            }
            let mut bad = body.clone();
            bad[mac_end - 1] ^= 0x80;
            assert_eq!(open(&mut seal(&bad)), Err(RecordError::BadRecordMac), "MAC, pad {pad}");
        }
        // The padding length byte claims more than the record holds.
        let mut body = vec![0xffu8; 16 * ((H::OUTPUT_LEN + 16) / 16 + 1)];
        let last = body.len() - 1;
        body[last] = 0xff;
        let (mut chain, mut out) = (iv, body);
        Aes::new(&aes_key).unwrap().cbc_encrypt(&mut chain, &mut out).unwrap();
        assert_eq!(open(&mut [&iv[..], &out].concat()), Err(RecordError::BadRecordMac));
        // Truncated: no IV, no block, not whole blocks, too short for a MAC.
        let good =
            reference::<H>(&aes_key, &mac_key, &HEADER, &iv, &plaintext, padding_for::<H>(100, 0));
        for len in [0, 1, 15, 16, 17, 31, 32, good.len() - 16, good.len() - 1] {
            let mut record = good[..len].to_vec();
            assert_eq!(open(&mut record), Err(RecordError::BadRecordMac), "len {len}");
        }
        // Another header (sequence number) is a bad MAC too.
        let mut record = good.clone();
        let other = RecordHeader { sequence: 1, ..HEADER };
        assert_eq!(key.open_in_place(&other, &mut record), Err(RecordError::BadRecordMac));
    }
}

#[test]
fn padding_oracle_sha1() {
    oracle::<Sha1>();
}

#[test]
fn padding_oracle_sha256() {
    oracle::<Sha256>();
}

#[test]
fn padding_oracle_sha384() {
    oracle::<Sha384>();
}

/// An encrypt-then-MAC record (RFC 7366 §3) as the plain composition builds it: CBC over
/// the plaintext and `pad` + 1 bytes of padding, then HMAC over the header (with the length
/// of `iv ‖ ciphertext`), the IV and the ciphertext.
fn reference_etm<H: RecordHash>(
    aes_key: &[u8],
    mac_key: &[u8],
    iv: &[u8; 16],
    plaintext: &[u8],
    pad: u8,
) -> Vec<u8> {
    let mut body = plaintext.to_vec();
    body.extend(std::iter::repeat_n(pad, usize::from(pad) + 1));
    let mut chain = *iv;
    Aes::new(aes_key).unwrap().cbc_encrypt(&mut chain, &mut body).unwrap();
    let mut record = iv.to_vec();
    record.extend_from_slice(&body);
    let mac = record_mac::<H>(mac_key, &HEADER, &record);
    record.extend_from_slice(&mac);
    record
}

/// Encrypt-then-MAC seals as the composition does on every pair, and opens the
/// composition's records with `pad`-ish padding.
fn round_trip_etm<H: RecordHash>(
    aes_key: &[u8],
    mac_key: &[u8],
    iv: &[u8; 16],
    plaintext: &[u8],
    pad: u8,
) {
    let len = plaintext.len();
    let expected = reference_etm::<H>(aes_key, mac_key, iv, plaintext, 15 - (len % 16) as u8);
    let longer = (15 - len % 16 + usize::from(pad) / 16 * 16) as u8;
    let padded = reference_etm::<H>(aes_key, mac_key, iv, plaintext, longer);
    for (a, h) in pairs::<H>() {
        let key = AesCbcHmac::<H>::with_impls(a, h, aes_key, mac_key).unwrap();
        let mut buf = vec![0x77u8; expected.len() + 3];
        buf[16..16 + len].copy_from_slice(plaintext);
        let n = key.seal_etm_in_place(&HEADER, iv, &mut buf, len).unwrap();
        assert_eq!(&buf[..n], &expected[..], "{} {} len {len}", a.name(), h.name());
        assert_eq!(&buf[n..], &[0x77; 3]);
        let mut record = padded.clone();
        assert_eq!(key.open_etm_in_place(&HEADER, &mut record).unwrap(), plaintext);
    }
}

/// Encrypt-then-MAC on every pair: sealing matches the composition for plaintexts of 0 to
/// 70 bytes and lengths around the stitched loop's block steps (one to several 64- and
/// 128-byte MAC blocks), the composition's records with longer padding open, and a flip of
/// any byte (or another sequence number, or a cut) is `BadRecordMac` with the buffer zeroed.
fn etm<H: RecordHash>() {
    let (aes_key, mac_key, iv) = ([3u8; 16], [4u8; 20], [5u8; 16]);
    let plaintext: Vec<u8> = (0..1100u32).map(|i| i as u8).collect();
    let lengths = (0..70).chain([98, 99, 100, 127, 128, 226, 227, 255, 256, 483, 1099]);
    for (a, h) in pairs::<H>() {
        let key = AesCbcHmac::<H>::with_impls(a, h, &aes_key, &mac_key).unwrap();
        for len in lengths.clone() {
            let pt = &plaintext[..len];
            let expected = reference_etm::<H>(&aes_key, &mac_key, &iv, pt, 15 - (len % 16) as u8);
            let mut buf = vec![0x77u8; expected.len() + 3];
            buf[16..16 + len].copy_from_slice(pt);
            let n = key.seal_etm_in_place(&HEADER, &iv, &mut buf, len).unwrap();
            assert_eq!(n, AesCbcHmac::<H>::etm_sealed_len(len));
            assert_eq!(&buf[..n], &expected[..], "{} {} len {len}", a.name(), h.name());
            assert_eq!(&buf[n..], &[0x77; 3]);
            assert_eq!(key.open_etm_in_place(&HEADER, &mut buf[..n]).unwrap(), pt);
            let mut longer =
                reference_etm::<H>(&aes_key, &mac_key, &iv, pt, 15 - (len % 16) as u8 + 32);
            assert_eq!(key.open_etm_in_place(&HEADER, &mut longer).unwrap(), pt);
        }
        let good = reference_etm::<H>(&aes_key, &mac_key, &iv, &plaintext[..20], 11);
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x01;
            assert_eq!(key.open_etm_in_place(&HEADER, &mut bad), Err(RecordError::BadRecordMac));
            assert!(bad.iter().all(|&b| b == 0), "zeroed");
        }
        let other = RecordHeader { sequence: 9, ..HEADER };
        let mut record = good.clone();
        assert_eq!(key.open_etm_in_place(&other, &mut record), Err(RecordError::BadRecordMac));
        for len in [0, 16, 31, good.len() - H::OUTPUT_LEN, good.len() - 1] {
            let mut record = good[..len].to_vec();
            assert_eq!(key.open_etm_in_place(&HEADER, &mut record), Err(RecordError::BadRecordMac));
        }
        // An authentic record whose padding is bad (MAC'd as it is): the same error.
        let mut body = plaintext[..30].to_vec();
        body.extend_from_slice(&[1; 2]);
        body[31] = 5;
        let mut chain = iv;
        Aes::new(&aes_key).unwrap().cbc_encrypt(&mut chain, &mut body).unwrap();
        let mut record = [&iv[..], &body].concat();
        let mac = record_mac::<H>(&mac_key, &HEADER, &record);
        record.extend_from_slice(&mac);
        assert_eq!(key.open_etm_in_place(&HEADER, &mut record), Err(RecordError::BadRecordMac));
    }
}

#[test]
fn encrypt_then_mac_sha1() {
    etm::<Sha1>();
}

#[test]
fn encrypt_then_mac_sha256() {
    etm::<Sha256>();
}

#[test]
fn encrypt_then_mac_sha384() {
    etm::<Sha384>();
}

/// `record_iv` is the record key's encryption of the seed with the sequence number (by XOR)
/// in its last eight bytes, on every implementation.
#[test]
fn record_ivs_encrypt_the_seed_and_sequence_number() {
    let (aes_key, seed) = (hex!("2b7e151628aed2a6abf7158809cf4f3c"), [0xa5u8; 16]);
    for (a, h) in pairs::<Sha1>() {
        let key = AesCbcHmac::<Sha1>::with_impls(a, h, &aes_key, b"k").unwrap();
        for seq in [0u64, 1, 0x0102_0304_0506_0708, u64::MAX] {
            let mut block = seed;
            for (b, s) in block[8..].iter_mut().zip(seq.to_be_bytes()) {
                *b ^= s;
            }
            Aes::new(&aes_key).unwrap().encrypt_block(&mut block);
            assert_eq!(key.record_iv(&seed, seq), block, "{} {seq}", a.name());
        }
    }
}

#[test]
fn overlong_records_are_refused() {
    let key = AesCbcHmac::<Sha256>::new(&[0; 16], &[0; 32]).unwrap();
    let mut buf = vec![0u8; 20_000];
    assert_eq!(
        key.seal_in_place(&HEADER, &[0; 16], &mut buf, (1 << 14) + 1),
        Err(RecordError::RecordOverflow)
    );
    assert_eq!(
        key.seal_in_place(&HEADER, &[0; 16], &mut buf[..100], 80),
        Err(RecordError::BufferTooSmall)
    );
    let max = AesCbcHmac::<Sha256>::MAX_FRAGMENT_LEN;
    assert_eq!(
        key.open_in_place(&HEADER, &mut vec![0u8; max + 16]),
        Err(RecordError::RecordOverflow)
    );
    // The longest plaintext seals and opens.
    let n = key.seal_in_place(&HEADER, &[0; 16], &mut buf, 1 << 14).unwrap();
    assert!(n <= max);
    assert_eq!(key.open_in_place(&HEADER, &mut buf[..n]).unwrap().len(), 1 << 14);
}

fn aes_key() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 16),
        proptest::collection::vec(any::<u8>(), 32)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every pair of implementations seals as the composition does and opens records with
    /// any padding length, for the three MACs, both constructions and AES-128/256.
    #[test]
    fn every_implementation_matches_the_composition(
        aes_key in aes_key(),
        mac_key in proptest::collection::vec(any::<u8>(), 0..100),
        iv in any::<[u8; 16]>(),
        plaintext in proptest::collection::vec(any::<u8>(), 0..5000),
        pad in any::<u8>(),
    ) {
        round_trip::<Sha1>(&aes_key, &mac_key, &iv, &plaintext, pad);
        round_trip::<Sha256>(&aes_key, &mac_key, &iv, &plaintext, pad);
        round_trip::<Sha384>(&aes_key, &mac_key, &iv, &plaintext, pad);
        round_trip_etm::<Sha1>(&aes_key, &mac_key, &iv, &plaintext, pad);
        round_trip_etm::<Sha256>(&aes_key, &mac_key, &iv, &plaintext, pad);
        round_trip_etm::<Sha384>(&aes_key, &mac_key, &iv, &plaintext, pad);
    }
}
