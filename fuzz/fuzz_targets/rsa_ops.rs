//! core-rsa's operations on arbitrary input with one fixed, checked-in 2048-bit key
//! (`crates/core-rsa/tests/data/rsa2048_e65537.pkcs8.der`), on every implementation: PKCS#1
//! v1.5 and PSS verification of arbitrary signatures, OAEP and PKCS#1 v1.5 decryption of
//! arbitrary ciphertexts (each refusal the one typed error its function promises, never a
//! panic, the same verdict everywhere), and round trips that reach the accepting paths:
//! sign or encrypt, optionally flip one bit, then verify or decrypt.
#![no_main]

use std::sync::OnceLock;

use core_rsa::{Error, HashAlg, MontImpl, Oaep, PrivateKey, Pss};
use halite_fuzz::{FixedRandom, Input, every, flip};
use libfuzzer_sys::fuzz_target;

const KEY: &[u8] = include_bytes!("../../crates/core-rsa/tests/data/rsa2048_e65537.pkcs8.der");

/// The key on every implementation this CPU runs.
fn keys() -> &'static [PrivateKey] {
    static KEYS: OnceLock<Vec<PrivateKey>> = OnceLock::new();
    KEYS.get_or_init(|| {
        every::<MontImpl>()
            .into_iter()
            .map(|imp| PrivateKey::from_pkcs8_der_with_impl(KEY, imp).expect("test key parses"))
            .collect()
    })
}

const HASHES: [HashAlg; 6] = [
    HashAlg::Sha1,
    HashAlg::Sha224,
    HashAlg::Sha256,
    HashAlg::Sha384,
    HashAlg::Sha512,
    HashAlg::Sha512_256,
];

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let mode = input.byte();
    let hash = HASHES[usize::from(input.byte()) % HASHES.len()];
    let salt_len = input.byte();
    let at = usize::from(u16::from_le_bytes(input.array()));
    let seed = u64::from_le_bytes(input.array());
    let msg_len = usize::from(input.byte());
    let msg = input.bytes(msg_len);
    let rest = input.rest();
    let mut rng = FixedRandom::new(seed);
    let keys = keys();
    let k = keys[0].modulus_len();
    // The salt length in PSS: any (the verifier's default), or one the input names.
    let pss = if salt_len >= 0x80 {
        Pss::new(hash)
    } else {
        Pss::with_salt_len(hash, usize::from(salt_len))
    };
    let oaep = Oaep::new(hash);
    match mode % 6 {
        0 | 1 => {
            let verdicts: Vec<_> = keys
                .iter()
                .map(|key| {
                    let public = key.public_key();
                    if mode.is_multiple_of(6) {
                        public.verify_pkcs1v15(hash, msg, rest)
                    } else {
                        public.verify_pss(pss, msg, rest)
                    }
                })
                .collect();
            for v in &verdicts {
                assert!(matches!(v, Ok(()) | Err(Error::InvalidSignature)), "{v:?}");
                assert_eq!(*v, verdicts[0], "implementations disagree");
            }
        }
        2 | 3 => {
            // One implementation per input (the private operation is the slow part).
            let key = &keys[at % keys.len()];
            let mut out = vec![0u8; k];
            let r = if mode % 6 == 2 {
                key.decrypt_oaep(oaep, msg, rest, &mut rng, &mut out)
            } else {
                key.decrypt_pkcs1v15(rest, &mut rng, &mut out)
            };
            assert!(matches!(r, Ok(_) | Err(Error::Decryption)), "{r:?}");
            if rest.len() != k {
                assert_eq!(r, Err(Error::Decryption));
            }
        }
        4 => {
            let key = &keys[at % keys.len()];
            let mut ct = vec![0u8; k];
            match key.public_key().encrypt_oaep(oaep, msg, rest, &mut rng, &mut ct) {
                Ok(n) => assert_eq!(n, k),
                Err(e) => {
                    assert_eq!(e, Error::MessageTooLong);
                    assert!(rest.len() > oaep.max_message_len(k));
                    return;
                }
            }
            let flipped = salt_len & 1 == 1;
            if flipped {
                flip(&mut ct, at);
            }
            let mut out = vec![0u8; k];
            let r = key.decrypt_oaep(oaep, msg, &ct, &mut rng, &mut out);
            if flipped {
                assert_eq!(r, Err(Error::Decryption), "a flipped ciphertext decrypted");
            } else {
                assert_eq!(r, Ok(rest.len()));
                assert_eq!(&out[..rest.len()], rest);
            }
        }
        _ => {
            let key = &keys[at % keys.len()];
            let mut sig = vec![0u8; k];
            let pkcs1 = salt_len & 2 == 0;
            let signed = if pkcs1 {
                key.sign_pkcs1v15(hash, msg, &mut rng, &mut sig)
            } else {
                key.sign_pss(pss, msg, &mut rng, &mut sig)
            };
            match signed {
                Ok(n) => assert_eq!(n, k),
                Err(e) => {
                    let too_long = pss.salt_len.is_some_and(|s| s + hash.output_len() + 2 > k);
                    assert!(
                        (e == Error::UnsupportedHash && hash == HashAlg::Sha1)
                            || (e == Error::MessageTooLong && !pkcs1 && too_long),
                        "{e:?}"
                    );
                    return;
                }
            }
            let flipped = salt_len & 1 == 1;
            if flipped {
                flip(&mut sig, at);
            }
            for key in keys {
                let public = key.public_key();
                let r = if pkcs1 {
                    public.verify_pkcs1v15(hash, msg, &sig)
                } else {
                    public.verify_pss(pss, msg, &sig)
                };
                assert_eq!(r.is_ok(), !flipped, "{r:?}");
            }
        }
    }
});
