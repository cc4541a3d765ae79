//! core-hash under secret inputs: every SHA-1, SHA-2 and SHA-3 implementation hashing secret
//! data (one-shot and in uneven pieces), SHAKE squeezing, HMAC keyed with a secret on every
//! implementation of its hash (tag, full and truncated verification of a right and a forged
//! tag, keys longer than a block), HKDF extract and expand, HMAC-DRBG instantiate,
//! generate and reseed, and multi-buffer SHA-256 and HMAC-SHA256 on every lane count.

use core_hash::{
    Hash, Hkdf, Hmac, HmacDrbg, Implementation, KeccakImpl, Sha1, Sha3_224, Sha3_256, Sha3_384,
    Sha3_512, Sha224, Sha256, Sha256MbImpl, Sha384, Sha512, Sha512_256, Shake128, Shake256,
};

use crate::{LENGTHS, Tally, every, public, secret, verdict};

/// Every check in this module.
pub(crate) fn run(t: &mut Tally) {
    hash_and_hmac::<Sha1>(t, "sha1", "sha1");
    hash_and_hmac::<Sha224>(t, "sha256", "sha224");
    hash_and_hmac::<Sha256>(t, "sha256", "sha256");
    hash_and_hmac::<Sha384>(t, "sha512", "sha384");
    hash_and_hmac::<Sha512>(t, "sha512", "sha512");
    hash_and_hmac::<Sha512_256>(t, "sha512", "sha512-256");
    hash_and_hmac::<Sha3_224>(t, "sha3", "sha3-224");
    hash_and_hmac::<Sha3_256>(t, "sha3", "sha3-256");
    hash_and_hmac::<Sha3_384>(t, "sha3", "sha3-384");
    hash_and_hmac::<Sha3_512>(t, "sha3", "sha3-512");
    shake(t);
    hkdf::<Sha256>(t, "sha256");
    hkdf::<Sha384>(t, "sha384");
    hkdf::<Sha512>(t, "sha512");
    drbg::<Sha256>(t, "sha256");
    drbg::<Sha512>(t, "sha512");
    multi_buffer(t);
}

/// Multi-buffer SHA-256 and HMAC-SHA256 on every implementation: twelve secret messages of
/// the test lengths side by side (their lengths are public, as the scheduler's lane refills
/// show; their bytes and the HMAC keys are secret), every digest and tag compared across
/// implementations.
fn multi_buffer(t: &mut Tally) {
    let messages: Vec<Vec<u8>> =
        LENGTHS.iter().chain(LENGTHS).zip(10..).map(|(&len, seed)| secret(len, seed)).collect();
    let messages: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let keys: Vec<Vec<u8>> =
        (0..messages.len()).zip(30..).map(|(i, s)| secret(20 + 9 * i, s)).collect();
    let pairs: Vec<(&[u8], &[u8])> =
        keys.iter().map(Vec::as_slice).zip(messages.iter().copied()).collect();
    for imp in every::<Sha256MbImpl>() {
        t.cover("sha256-mb", imp.name());
        let mut digests = vec![[0u8; 32]; messages.len()];
        t.expect("sha256-mb digest_many", imp.digest_many(&messages, &mut digests).is_ok());
        for ((i, d), m) in digests.iter().enumerate().zip(&messages) {
            digest(t, &format!("sha256-mb {i}"), m.len(), d);
        }
        let mut tags = vec![[0u8; 32]; pairs.len()];
        let ok = Hmac::<Sha256>::mac_many_with(imp, &pairs, &mut tags).is_ok();
        t.expect("hmac-sha256-mb mac_many", ok);
        for (i, tag) in tags.iter().enumerate() {
            t.agree(&format!("hmac-sha256-mb {i}"), tag);
        }
    }
}

/// Compares the digest of a `len`-byte secret message: tainted unless the message is empty.
fn digest(t: &mut Tally, what: &str, len: usize, output: &[u8]) {
    if len == 0 {
        t.agree_untainted(what, output);
    } else {
        t.agree(what, output);
    }
}

/// Hashing and HMAC on every implementation of `H` (registered as `family`).
fn hash_and_hmac<H: Hash>(t: &mut Tally, family: &str, name: &str) {
    for imp in every::<H::Impl>() {
        t.cover(family, imp.name());
        for &len in LENGTHS {
            let data = secret(len, 1);
            let mut h = H::with_impl(imp);
            h.update(&data);
            digest(t, &format!("{name} {len}"), len, h.finalize().as_ref());
            // The same data in uneven pieces must give the same digest.
            let mut h = H::with_impl(imp);
            for piece in data.chunks(7 + len / 3) {
                h.update(piece);
            }
            digest(t, &format!("{name} {len}"), len, h.finalize().as_ref());
        }
        // Keys shorter than, equal to and longer than a block (the last is hashed first).
        for key_len in [16, H::BLOCK_LEN, H::BLOCK_LEN + 9] {
            let key = secret(key_len, 2);
            let message = secret(100, 3);
            let mac = |message: &[u8]| {
                let mut m = Hmac::<H>::with_impl(imp, &key);
                m.update(message);
                m
            };
            let tag = mac(&message).finalize();
            t.agree(&format!("hmac-{name} key {key_len}"), tag.as_ref());
            let mut forged = tag;
            forged.as_mut()[0] ^= 1;
            t.expect(
                &format!("hmac-{name} verify"),
                verdict(mac(&message).verify(tag.as_ref())).is_ok(),
            );
            t.expect(
                &format!("hmac-{name} verify forged"),
                verdict(mac(&message).verify(forged.as_ref())).is_err(),
            );
            t.expect(
                &format!("hmac-{name} verify truncated"),
                verdict(mac(&message).verify_truncated(&tag.as_ref()[..H::OUTPUT_LEN / 2])).is_ok(),
            );
            t.expect(
                &format!("hmac-{name} verify truncated forged"),
                verdict(mac(&message).verify_truncated(&forged.as_ref()[..H::OUTPUT_LEN / 2]))
                    .is_err(),
            );
        }
    }
}

/// SHAKE128 and SHAKE256 absorbing secret data and squeezing more than a block.
fn shake(t: &mut Tally) {
    for imp in every::<KeccakImpl>() {
        for &len in LENGTHS {
            let data = secret(len, 4);
            let mut out = [0u8; 400];
            let mut xof = Shake128::with_impl(imp);
            xof.update(&data);
            let mut reader = xof.finalize_xof();
            reader.read(&mut out[..150]);
            reader.read(&mut out[150..]);
            digest(t, &format!("shake128 {len}"), len, &out);
            let mut xof = Shake256::with_impl(imp);
            xof.update(&data);
            xof.finalize_xof().read(&mut out);
            digest(t, &format!("shake256 {len}"), len, &out);
        }
    }
}

/// HKDF (on the best implementation of `H`) from a secret input key and from a secret PRK.
fn hkdf<H: Hash>(t: &mut Tally, name: &str) {
    let salt = public(32, 5);
    let ikm = secret(48, 6);
    let mut okm = [0u8; 200];
    let ok = Hkdf::<H>::extract(&salt, &ikm).expand(b"ct-harness", &mut okm).is_ok();
    t.expect(&format!("hkdf-{name} expand"), ok);
    t.agree(&format!("hkdf-{name} okm"), &okm);
    let prk = secret(H::OUTPUT_LEN, 7);
    let ok = Hkdf::<H>::from_prk(&prk)
        .and_then(|hkdf| hkdf.expand_multi_info(&[b"a", b"bc"], &mut okm))
        .is_ok();
    t.expect(&format!("hkdf-{name} from_prk"), ok);
    t.agree(&format!("hkdf-{name} okm from prk"), &okm);
}

/// HMAC-DRBG (on the best implementation of `H`) seeded with secret entropy and nonce.
fn drbg<H: Hash>(t: &mut Tally, name: &str) {
    let Ok(mut drbg) = HmacDrbg::<H>::new(&secret(32, 8), &secret(16, 9), b"ct-harness") else {
        t.expect(&format!("hmac-drbg-{name} new"), false);
        return;
    };
    let mut out = [0u8; 300];
    t.expect(&format!("hmac-drbg-{name} generate"), drbg.generate(&mut out, b"").is_ok());
    t.agree(&format!("hmac-drbg-{name} out"), &out);
    t.expect(&format!("hmac-drbg-{name} reseed"), drbg.reseed(&secret(32, 10), b"x").is_ok());
    t.expect(
        &format!("hmac-drbg-{name} generate"),
        drbg.generate(&mut out, &secret(8, 11)).is_ok(),
    );
    t.agree(&format!("hmac-drbg-{name} out after reseed"), &out);
}
