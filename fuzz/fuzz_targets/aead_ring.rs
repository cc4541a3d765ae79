//! Differential against ring: AES-128-GCM, AES-256-GCM and ChaCha20-Poly1305 with a key, nonce,
//! associated data and message from the input, on one Halite implementation the input picks
//! (one per input keeps the rate up; the fuzzer reaches each). It must seal to ring's
//! ciphertext and tag, and give ring's verdict on opening the sealed message with one bit
//! flipped and on opening the input itself as ciphertext and tag.
#![no_main]

use core_aead::{
    Aead, Aes128Gcm, Aes256Gcm, ChaCha20Impl, ChaCha20Poly1305, Error, GcmImpl, Poly1305Impl,
};
use halite_fuzz::{Input, every};
use libfuzzer_sys::fuzz_target;
use ring::aead::{
    AES_128_GCM, AES_256_GCM, Aad, Algorithm, CHACHA20_POLY1305, LessSafeKey, Nonce, Tag,
    UnboundKey,
};

/// ring's verdict and plaintext on opening `ciphertext` || `tag`.
fn ring_open(
    key: &LessSafeKey,
    nonce: [u8; 12],
    aad: &[u8],
    ciphertext: &[u8],
    tag: &[u8],
) -> Option<Vec<u8>> {
    let mut buf = [ciphertext, tag].concat();
    let nonce = Nonce::assume_unique_for_key(nonce);
    key.open_in_place(nonce, Aad::from(aad), &mut buf).ok().map(|p| p.to_vec())
}

/// Seals with ring, then checks each Halite key against it.
fn check<A: Aead>(
    algorithm: &'static Algorithm,
    keys: Vec<A>,
    key: &[u8],
    nonce: [u8; 12],
    aad: &[u8],
    message: &[u8],
    flip: u16,
) {
    let ring_key = LessSafeKey::new(UnboundKey::new(algorithm, key).expect("key length"));
    let mut want = message.to_vec();
    let want_tag: Tag = ring_key
        .seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::from(aad), &mut want)
        .expect("ring seals any message of fuzzer size");
    let want_tag = want_tag.as_ref();

    let total_bits = (want.len() + 16) * 8;
    let at = usize::from(flip) % total_bits;
    let mut flipped = [want.as_slice(), want_tag].concat();
    flipped[at / 8] ^= 1 << (at % 8);
    let (flipped_c, flipped_t) = flipped.split_at(want.len());
    let split = message.len().saturating_sub(16);
    let (raw_c, raw_t) = message.split_at(split);
    let ring_flipped = ring_open(&ring_key, nonce, aad, flipped_c, flipped_t);
    let ring_raw = ring_open(&ring_key, nonce, aad, raw_c, raw_t);
    assert!(ring_flipped.is_none());

    for ours in keys {
        let mut buf = message.to_vec();
        let tag = ours.seal_in_place_detached(&nonce, aad, &mut buf).expect("seal");
        assert_eq!(buf, want, "ciphertext differs from ring's");
        assert_eq!(tag.as_ref(), want_tag, "tag differs from ring's");
        for (c, t, ring) in [(flipped_c, flipped_t, &ring_flipped), (raw_c, raw_t, &ring_raw)] {
            let mut buf = c.to_vec();
            let got = ours.open_in_place_detached(&nonce, aad, &mut buf, t);
            match ring {
                Some(plain) => {
                    assert_eq!(got, Ok(()), "ring opened, we did not");
                    assert_eq!(&buf, plain);
                }
                None => assert!(
                    matches!(got, Err(Error::AuthenticationFailed | Error::InvalidTagLength)),
                    "ring refused, we said {got:?}"
                ),
            }
        }
    }
}

/// The implementation `pick` selects from `all`.
fn one<T>(mut all: Vec<T>, pick: u8) -> Vec<T> {
    let i = usize::from(pick) % all.len();
    vec![all.swap_remove(i)]
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let which = input.byte();
    let pick = input.byte();
    let key: [u8; 32] = input.array();
    let nonce: [u8; 12] = input.array();
    let aad_len = usize::from(input.byte());
    let aad = input.bytes(aad_len);
    let flip = u16::from_le_bytes(input.array());
    let message = input.rest();
    match which % 3 {
        0 => {
            let keys = one(every::<GcmImpl>(), pick)
                .into_iter()
                .map(|i| Aes128Gcm::with_impl(i, &key[..16]).expect("key"))
                .collect();
            check(&AES_128_GCM, keys, &key[..16], nonce, aad, message, flip);
        }
        1 => {
            let keys = one(every::<GcmImpl>(), pick)
                .into_iter()
                .map(|i| Aes256Gcm::with_impl(i, &key).expect("key"))
                .collect();
            check(&AES_256_GCM, keys, &key, nonce, aad, message, flip);
        }
        _ => {
            let chacha = one(every::<ChaCha20Impl>(), pick)[0];
            let poly = one(every::<Poly1305Impl>(), pick / 16)[0];
            let keys = vec![ChaCha20Poly1305::with_impls(&key, chacha, poly).expect("key")];
            check(&CHACHA20_POLY1305, keys, &key, nonce, aad, message, flip);
        }
    }
});
