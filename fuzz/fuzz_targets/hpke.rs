//! HPKE (core-hpke) in the suite the first input byte picks (each KEM, each KDF, each AEAD
//! reached): a recipient set up from an arbitrary private key and encapsulated key, opening
//! an arbitrary ciphertext, gets a typed refusal, never a panic; and with key pairs, PSK and
//! ephemeral seed from the input, in the mode the input picks, a message sealed by the
//! sender opens to itself at the recipient and both export the same secret.
#![no_main]

use core_hpke::{
    Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, DhKemP256HkdfSha256, DhKemP384HkdfSha384,
    DhKemP521HkdfSha512, DhKemX25519HkdfSha256, Error, HkdfSha256, HkdfSha384, HkdfSha512, Hpke,
    Kdf, Kem, Mode, Psk,
};
use halite_fuzz::Input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    match input.byte() % 4 {
        0 => run::<DhKemX25519HkdfSha256, HkdfSha256, Aes128Gcm>(input),
        1 => run::<DhKemP256HkdfSha256, HkdfSha384, ChaCha20Poly1305>(input),
        2 => run::<DhKemP384HkdfSha384, HkdfSha512, Aes256Gcm>(input),
        _ => run::<DhKemP521HkdfSha512, HkdfSha256, ChaCha20Poly1305>(input),
    }
});

fn run<K: Kem, F: Kdf, A: core_hpke::Aead>(mut input: Input<'_>) {
    let mode = input.byte();
    let ikm_r: [u8; 32] = input.array();
    let ikm_s: [u8; 32] = input.array();
    let ikm_e: [u8; 32] = input.array();
    let mut field = || {
        let n = usize::from(input.byte());
        input.bytes(n)
    };
    let (sk_bytes, enc, psk, psk_id, info, aad) = (field(), field(), field(), field(), field(), field());
    let message = input.rest();

    // Arbitrary keys and ciphertexts: refused with an error, or (for a valid key and
    // encapsulated key) a context under which the ciphertext does not authenticate.
    let _ = K::deserialize_public_key(enc);
    if let Ok(sk) = K::deserialize_private_key(sk_bytes) {
        if let Ok(mut r) = Hpke::<K, F, A>::setup_recipient(enc, &sk, info, Mode::Base) {
            let mut out = vec![0; message.len()];
            assert_eq!(r.open(aad, message, &mut out), Err(Error::OpenFailed));
            assert_eq!(r.sequence_number(), 0);
        }
    }

    // A round trip in the mode the input picks.
    let (sk_r, pk_r) = K::derive_key_pair(&ikm_r).expect("a key pair from 32 bytes");
    let (sk_s, pk_s) = K::derive_key_pair(&ikm_s).expect("a key pair from 32 bytes");
    let psk = Psk { key: psk, id: psk_id };
    let (send, receive) = match mode % 4 {
        0 => (Mode::Base, Mode::Base),
        1 => (Mode::Psk(psk), Mode::Psk(psk)),
        2 => (Mode::Auth(&sk_s), Mode::Auth(&pk_s)),
        _ => (Mode::AuthPsk(&sk_s, psk), Mode::AuthPsk(&pk_s, psk)),
    };
    let sent = Hpke::<K, F, A>::setup_sender_derand(&pk_r, info, send, &ikm_e);
    let empty_psk = psk.key.is_empty() || psk.id.is_empty();
    let (enc, mut s) = match sent {
        Err(Error::InvalidPsk) if mode % 2 == 1 && empty_psk => return,
        sent => sent.expect("setup with valid inputs"),
    };
    let mut r = Hpke::<K, F, A>::setup_recipient(enc.as_ref(), &sk_r, info, receive).unwrap();
    let mut sealed = vec![0; message.len() + A::TAG_LEN];
    assert_eq!(s.seal(aad, message, &mut sealed), Ok(sealed.len()));
    let mut opened = vec![0; message.len()];
    assert_eq!(r.open(aad, &sealed, &mut opened), Ok(message.len()));
    assert_eq!(opened, message);
    let (mut a, mut b) = ([0; 40], [0; 40]);
    s.export(aad, &mut a).unwrap();
    r.export(aad, &mut b).unwrap();
    assert_eq!(a, b);
}
