//! core-rsa under secret keys, on every Montgomery implementation valgrind can run: a
//! 2048-bit key built from its components with `d`, `p`, `q`, `dp`, `dq` and `qinv` secret
//! (so the consistency checks of key loading run on secrets too), the raw private operation
//! (CRT, with blinding values from a random source whose output is secret), PKCS#1 v1.5 and
//! PSS signing (the salt secret until the signature is released), OAEP and PKCS#1 v1.5
//! decryption of a good and of a badly padded ciphertext (the constant-time unpadding; the
//! library declassifies the padding verdict, and the message length once the padding is good,
//! which is where the API makes them public), and `Modulus::pow` with a secret base and
//! exponent; and key generation (2048 bits) from a random source whose every output is
//! secret, where the library declassifies only the verdicts that throw a candidate away.
//! Verification, encryption and everything with the public key only handle public data and
//! may be variable-time, so they are not run here.

use core_rsa::Implementation as _;
use core_rsa::{Error, HashAlg, Modulus, MontImpl, Oaep, PrivateKey, Pss, RandomSource};

use crate::valgrind;
use crate::{Tally, every, public, secret, verdict};

/// The test key of `crates/core-rsa/tests/data` (PKCS#1 `RSAPrivateKey`, e = 65537).
const KEY: &[u8] = include_bytes!("../../../crates/core-rsa/tests/data/rsa2048_e65537.pkcs1.der");

/// A deterministic random source whose every output is marked secret: blinding factors and
/// salts are secrets as long as they are in use.
struct SecretRandom(u8);

impl RandomSource for SecretRandom {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), core_hash::RandomError> {
        self.0 = self.0.wrapping_add(1);
        dest.copy_from_slice(&public(dest.len(), self.0));
        valgrind::classify(dest);
        Ok(())
    }
}

/// The content of the DER TLV at the front of `der`, and what follows it.
fn tlv(der: &[u8]) -> (&[u8], &[u8]) {
    let (len, head) = match der[1] {
        n if n < 0x80 => (usize::from(n), 2),
        0x81 => (usize::from(der[2]), 3),
        _ => (usize::from(der[2]) << 8 | usize::from(der[3]), 4),
    };
    (&der[head..head + len], &der[head + len..])
}

/// The nine integers of a PKCS#1 `RSAPrivateKey` (version first).
fn components(der: &[u8]) -> Vec<&[u8]> {
    let (mut rest, _) = tlv(der);
    let mut out = Vec::new();
    while !rest.is_empty() {
        let (int, after) = tlv(rest);
        out.push(int);
        rest = after;
    }
    out
}

/// Every check in this module.
pub(crate) fn run(t: &mut Tally) {
    let parts = components(KEY);
    let [_, n, e, d, p, q, dp, dq, qinv] = parts[..] else {
        t.expect("rsa test key parses", false);
        return;
    };
    // The private components, secret from here on.
    let hide = |bytes: &[u8]| {
        let mut v = bytes.to_vec();
        valgrind::classify(&mut v);
        v
    };
    let (d, p, q, dp, dq, qinv) = (hide(d), hide(p), hide(q), hide(dp), hide(dq), hide(qinv));
    let msg = public(100, 60);
    // A good OAEP ciphertext, a good PKCS#1 v1.5 one and a badly padded one (public inputs).
    let Ok(public_key) = PrivateKey::from_pkcs1_der(KEY).map(|k| k.public_key()) else {
        t.expect("rsa test key parses", false);
        return;
    };
    let k = public_key.modulus_len();
    let oaep = Oaep::new(HashAlg::Sha256);
    let mut oaep_ct = vec![0u8; k];
    let mut v15_ct = vec![0u8; k];
    let mut em = vec![0x5au8; k];
    em[0] = 0;
    em[1] = 2;
    em[k - 33] = 0;
    let encrypted = public_key
        .encrypt_oaep(oaep, b"label", &msg[..32], &mut PublicRandom, &mut oaep_ct)
        .and_then(|_| public_key.raw_public(&em, &mut v15_ct));
    if encrypted.is_err() {
        t.expect("rsa test ciphertexts", false);
        return;
    }
    let bad_ct = public(k - 1, 61);
    let bad_ct = [&[0u8][..], &bad_ct].concat();

    for imp in every::<MontImpl>() {
        t.cover("rsa-mont", imp.name());
        let key = PrivateKey::from_components(n, e, &d, &p, &q, &dp, &dq, &qinv, imp);
        let Ok(key) = verdict(key) else {
            t.expect("rsa key from secret components", false);
            continue;
        };
        let mut rng = SecretRandom(0);
        let mut out = vec![0u8; k];

        let input = public(k - 1, 62);
        let input = [&[0u8][..], &input].concat();
        let r = verdict(key.raw_private(&input, &mut out, &mut rng));
        t.expect("rsa raw private", r.is_ok());
        t.agree("rsa raw private", &out);

        let r = verdict(key.sign_pkcs1v15(HashAlg::Sha256, &msg, &mut rng, &mut out));
        t.expect("rsa sign pkcs1", r == Ok(k));
        t.agree("rsa sign pkcs1", &out);

        let r = verdict(key.sign_pss(Pss::new(HashAlg::Sha256), &msg, &mut rng, &mut out));
        t.expect("rsa sign pss", r == Ok(k));
        t.agree("rsa sign pss", &out);

        let mut plain = vec![0u8; k];
        let r = verdict(key.decrypt_oaep(oaep, b"label", &oaep_ct, &mut rng, &mut plain));
        t.expect("rsa decrypt oaep", r == Ok(32));
        t.agree("rsa decrypt oaep", &plain[..32]);
        let r = verdict(key.decrypt_oaep(oaep, b"label", &bad_ct, &mut rng, &mut plain));
        t.expect("rsa decrypt oaep, bad padding", r == Err(Error::Decryption));
        let r = verdict(key.decrypt_oaep(oaep, b"other label", &oaep_ct, &mut rng, &mut plain));
        t.expect("rsa decrypt oaep, wrong label", r == Err(Error::Decryption));

        let r = verdict(key.decrypt_pkcs1v15(&v15_ct, &mut rng, &mut plain));
        t.expect("rsa decrypt pkcs1", r == Ok(32));
        t.agree("rsa decrypt pkcs1", &plain[..32]);
        let r = verdict(key.decrypt_pkcs1v15(&bad_ct, &mut rng, &mut plain));
        t.expect("rsa decrypt pkcs1, bad padding", r == Err(Error::Decryption));

        // Modular exponentiation with a secret base and exponent, on the public modulus.
        match Modulus::with_impl(n, imp) {
            Ok(m) => {
                let mut out = vec![0u8; m.byte_len()];
                let r = m.pow(&secret(k - 1, 63), &secret(k, 64), &mut out);
                t.expect("rsa modexp", r.is_ok());
                t.agree("rsa modexp", &out);
            }
            Err(_) => t.expect("rsa modulus", false),
        }
    }
    keygen(t);
}

/// A deterministic random stream, every byte marked secret: the candidates of key generation
/// and its Miller–Rabin bases. Unlike [`SecretRandom`] it does not repeat within a key's
/// hundreds of draws.
struct SecretStream(u64);

impl RandomSource for SecretStream {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), core_hash::RandomError> {
        for b in dest.iter_mut() {
            // xorshift64*: any fixed, varied bytes will do.
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            *b = (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8;
        }
        valgrind::classify(dest);
        Ok(())
    }
}

/// Key generation on every implementation from the same secret stream: the keys must be the
/// same, shown by a PKCS#1 v1.5 signature of each (deterministic, and tainted by the key).
fn keygen(t: &mut Tally) {
    let msg = public(100, 66);
    for imp in every::<MontImpl>() {
        t.cover("rsa-keygen", imp.name());
        let key = verdict(PrivateKey::generate_with(2048, 65537, imp, &mut SecretStream(7)));
        let Ok(key) = key else {
            t.expect("rsa keygen", false);
            continue;
        };
        let mut sig = vec![0u8; key.modulus_len()];
        let r = verdict(key.sign_pkcs1v15(HashAlg::Sha256, &msg, &mut SecretRandom(0), &mut sig));
        t.expect("rsa keygen, sign", r == Ok(sig.len()));
        t.agree("rsa keygen, sign", &sig);
    }
}

/// A deterministic random source for the public inputs (an OAEP seed of a test ciphertext).
struct PublicRandom;

impl RandomSource for PublicRandom {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), core_hash::RandomError> {
        dest.copy_from_slice(&public(dest.len(), 65));
        Ok(())
    }
}
