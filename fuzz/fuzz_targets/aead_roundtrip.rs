//! AEAD round trips: the input picks an algorithm, a key, a nonce (of any length, to reach the
//! length checks), associated data and a message. On every implementation, sealing must agree
//! with the first implementation, opening what was sealed must give the message back, and
//! opening the input itself as ciphertext and tag — or the sealed message with one bit
//! flipped — must fail with `AuthenticationFailed` and leave zeros; nothing may panic.
#![no_main]

use core_aead::{
    Aead, AesCcm, AesGcm, AesImpl, ChaCha20Impl, ChaCha20Poly1305, Error, GcmImpl, Poly1305Impl,
    XChaCha20Poly1305,
};
use halite_fuzz::{Input, every};
use libfuzzer_sys::fuzz_target;

/// One AEAD under test, keyed: seal and open with an arbitrary nonce.
trait Cipher {
    fn seal(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Vec<u8>, Error>;
    fn open(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> Result<(), Error>;
}

impl<const K: usize> Cipher for AesGcm<K> {
    fn seal(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Vec<u8>, Error> {
        self.seal_in_place_detached_with_iv(nonce, aad, buf).map(|t| t.to_vec())
    }
    fn open(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> Result<(), Error> {
        self.open_in_place_detached_with_iv(nonce, aad, buf, tag)
    }
}

impl<const K: usize, const T: usize> Cipher for AesCcm<K, T> {
    fn seal(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Vec<u8>, Error> {
        self.seal_in_place_detached_with_nonce(nonce, aad, buf).map(|t| t.to_vec())
    }
    fn open(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> Result<(), Error> {
        self.open_in_place_detached_with_nonce(nonce, aad, buf, tag)
    }
}

macro_rules! via_aead_trait {
    ($($ty:ty),*) => {$(
        impl Cipher for $ty {
            fn seal(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Vec<u8>, Error> {
                self.seal_in_place_detached(nonce, aad, buf).map(|t| t.to_vec())
            }
            fn open(&self, nonce: &[u8], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> Result<(), Error> {
                self.open_in_place_detached(nonce, aad, buf, tag)
            }
        }
    )*};
}
via_aead_trait!(ChaCha20Poly1305, XChaCha20Poly1305);

/// Every keyed instance of the algorithm `which` selects, one per implementation.
fn instances(which: u8, key: &[u8]) -> Vec<Box<dyn Cipher>> {
    let aes = every::<AesImpl>();
    let mut out: Vec<Box<dyn Cipher>> = Vec::new();
    match which % 7 {
        0 => out.extend(every::<GcmImpl>().into_iter().map(|i| {
            Box::new(AesGcm::<16>::with_impl(i, &key[..16]).expect("key")) as Box<dyn Cipher>
        })),
        1 => {
            out.extend(every::<GcmImpl>().into_iter().map(|i| {
                Box::new(AesGcm::<32>::with_impl(i, key).expect("key")) as Box<dyn Cipher>
            }))
        }
        2 => out.extend(aes.into_iter().map(|i| {
            Box::new(AesCcm::<16, 16>::with_impl(i, &key[..16]).expect("key")) as Box<dyn Cipher>
        })),
        3 => out.extend(aes.into_iter().map(|i| {
            Box::new(AesCcm::<16, 8>::with_impl(i, &key[..16]).expect("key")) as Box<dyn Cipher>
        })),
        4 => out.extend(aes.into_iter().map(|i| {
            Box::new(AesCcm::<32, 16>::with_impl(i, key).expect("key")) as Box<dyn Cipher>
        })),
        5 | 6 => {
            for chacha in every::<ChaCha20Impl>() {
                for poly in every::<Poly1305Impl>() {
                    out.push(if which % 7 == 5 {
                        Box::new(ChaCha20Poly1305::with_impls(key, chacha, poly).expect("key"))
                    } else {
                        Box::new(XChaCha20Poly1305::with_impls(key, chacha, poly).expect("key"))
                    });
                }
            }
        }
        _ => unreachable!(),
    }
    out
}

/// A ciphertext and its tag.
type Sealed = (Vec<u8>, Vec<u8>);

/// Opening must fail with `AuthenticationFailed` (or a length error, for a tag of the wrong
/// length) and leave only zeros.
fn must_refuse(cipher: &dyn Cipher, nonce: &[u8], aad: &[u8], ciphertext: &[u8], tag: &[u8]) {
    let mut buf = ciphertext.to_vec();
    match cipher.open(nonce, aad, &mut buf, tag) {
        Ok(()) => panic!("a forged message opened"),
        Err(Error::AuthenticationFailed) => {
            assert!(buf.iter().all(|&b| b == 0), "plaintext released after a failed open");
        }
        Err(_) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let which = input.byte();
    let key: [u8; 32] = input.array();
    // Mostly the algorithm's usual nonce length; sometimes any length up to 31 bytes.
    let nonce_len = match input.byte() {
        b @ 0xe0.. => usize::from(b & 31),
        _ if which % 7 == 6 => 24,
        _ => 12,
    };
    let nonce = input.bytes(nonce_len);
    let aad_len = usize::from(input.byte());
    let aad = input.bytes(aad_len);
    let flip = u16::from_le_bytes(input.array());
    let message = input.rest();

    // The first implementation's result, which every other must match.
    let mut first: Option<Result<Sealed, Error>> = None;
    for cipher in instances(which, &key) {
        let mut buf = message.to_vec();
        let sealed = cipher.seal(nonce, aad, &mut buf).map(|tag| (buf.clone(), tag));
        match &first {
            None => first = Some(sealed.clone()),
            Some(f) => assert!(f == &sealed, "implementations disagree"),
        }
        let tag = match sealed {
            Ok((_, tag)) => tag,
            Err(e) => {
                // A refusal is for the nonce's or message's length.
                assert!(
                    matches!(e, Error::InvalidNonceLength | Error::MessageTooLong),
                    "seal refused with {e:?}"
                );
                must_refuse(cipher.as_ref(), nonce, aad, message, &[0; 16]);
                continue;
            }
        };
        // The round trip.
        let mut opened = buf.clone();
        cipher.open(nonce, aad, &mut opened, &tag).expect("what was sealed must open");
        assert_eq!(opened, message);
        // One flipped bit anywhere in ciphertext, tag or associated data.
        let total = buf.len() + tag.len() + aad.len();
        let at = usize::from(flip) % (total * 8);
        let (mut c, mut t, mut a) = (buf.clone(), tag.clone(), aad.to_vec());
        let byte = at / 8;
        let target = if byte < c.len() {
            &mut c[byte]
        } else if byte < c.len() + t.len() {
            &mut t[byte - c.len()]
        } else {
            &mut a[byte - c.len() - t.len()]
        };
        *target ^= 1 << (at % 8);
        must_refuse(cipher.as_ref(), nonce, &a, &c, &t);
        // The raw input as ciphertext and tag (a tag of the right length if there is room).
        let split = message.len().saturating_sub(tag.len());
        must_refuse(cipher.as_ref(), nonce, aad, &message[..split], &message[split..]);
    }
});
