//! TLS CBC records (AES-CBC with HMAC-SHA1/SHA-256/SHA-384, MAC-then-encrypt or
//! encrypt-then-MAC): the input picks the MAC, the construction, the AES key size, the keys,
//! a header, an IV, a bit to flip and a message. On every AES × hash pair,
//! sealing must agree with the first pair, opening what was sealed must give the message
//! back, and opening the record with one bit flipped — or the raw input as a fragment — must
//! be refused with `BadRecordMac` (or `RecordOverflow` for an overlong one) and leave zeros;
//! nothing may panic.
#![no_main]

use core_aead::{AesCbcHmac, AesImpl, RecordError, RecordHash, RecordHeader};
use core_hash::{Sha1, Sha256, Sha384};
use halite_fuzz::{Input, every};
use libfuzzer_sys::fuzz_target;

/// Opens `fragment` MAC-then-encrypt, or encrypt-then-MAC with `etm`.
fn open<'b, H: RecordHash>(
    key: &AesCbcHmac<H>,
    header: &RecordHeader,
    fragment: &'b mut [u8],
    etm: bool,
) -> Result<&'b mut [u8], RecordError> {
    if etm { key.open_etm_in_place(header, fragment) } else { key.open_in_place(header, fragment) }
}

/// Opening must fail and leave only zeros after a MAC failure.
fn must_refuse<H: RecordHash>(
    key: &AesCbcHmac<H>,
    header: &RecordHeader,
    fragment: &[u8],
    etm: bool,
) {
    let mut buf = fragment.to_vec();
    match open(key, header, &mut buf, etm) {
        Ok(_) => panic!("a forged record opened"),
        Err(RecordError::BadRecordMac) => {
            assert!(buf.iter().all(|&b| b == 0), "plaintext released after a failed open");
        }
        Err(e) => assert_eq!(e, RecordError::RecordOverflow, "refused with {e:?}"),
    }
}

fn records<H: RecordHash>(input: &mut Input<'_>, key_len: usize, etm: bool) {
    let aes_key = input.bytes(key_len).to_vec();
    let mac_len = usize::from(input.byte() % 80);
    let mac_key = input.bytes(mac_len).to_vec();
    let header = RecordHeader {
        sequence: u64::from_le_bytes(input.array()),
        content_type: input.byte(),
        version: u16::from_le_bytes(input.array()),
    };
    let iv: [u8; 16] = input.array();
    let flip = u16::from_le_bytes(input.array());
    let message = input.rest();
    let mut first: Option<Vec<u8>> = None;
    for aes in every::<AesImpl>() {
        for hash in every::<H::Impl>() {
            let Ok(key) = AesCbcHmac::<H>::with_impls(aes, hash, &aes_key, &mac_key) else {
                // Only a short input leaves the AES key short.
                assert!(aes_key.len() < key_len);
                return;
            };
            must_refuse(&key, &header, message, etm);
            let len = message.len();
            let room = if etm {
                AesCbcHmac::<H>::etm_sealed_len(len)
            } else {
                AesCbcHmac::<H>::sealed_len(len)
            };
            let mut buf = vec![0u8; room];
            buf[16..16 + len].copy_from_slice(message);
            let sealed = if etm {
                key.seal_etm_in_place(&header, &iv, &mut buf, len)
            } else {
                key.seal_in_place(&header, &iv, &mut buf, len)
            };
            let n = match sealed {
                Ok(n) => n,
                Err(e) => {
                    assert_eq!(e, RecordError::RecordOverflow);
                    assert!(len > AesCbcHmac::<H>::MAX_PLAINTEXT_LEN);
                    return;
                }
            };
            match &first {
                None => first = Some(buf[..n].to_vec()),
                Some(f) => assert!(f[..] == buf[..n], "implementations disagree"),
            }
            let sealed = buf[..n].to_vec();
            assert_eq!(
                open(&key, &header, &mut buf[..n], etm).expect("sealed record opens"),
                message
            );
            let mut bad = sealed;
            let at = usize::from(flip) % (8 * n);
            bad[at / 8] ^= 1 << (at % 8);
            must_refuse(&key, &header, &bad, etm);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let which = input.byte();
    let key_len = if which & 1 == 0 { 16 } else { 32 };
    let etm = which & 2 != 0;
    match (which >> 2) % 3 {
        0 => records::<Sha1>(&mut input, key_len, etm),
        1 => records::<Sha256>(&mut input, key_len, etm),
        _ => records::<Sha384>(&mut input, key_len, etm),
    }
});
