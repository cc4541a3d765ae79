//! core-aead under secret keys and plaintexts: every AES implementation (key schedule for
//! each key size, block encryption and decryption, CTR, CBC), every GHASH and Poly1305
//! implementation keyed with a secret, every ChaCha20 implementation and HChaCha20, and
//! AES-GCM (every registered implementation and every AES × GHASH composition), AES-CCM (over
//! every AES) and (X)ChaCha20-Poly1305 (every ChaCha20 × Poly1305 pair): seal, open, and
//! open of a forged tag, whose rejection must not depend on where the tags differ; and
//! multi-buffer CBC encryption on every lane count; TLS CBC records (AES-CBC with
//! HMAC-SHA1/SHA-256/SHA-384) on every AES × hash pair: MAC-then-encrypt seal, open, and open
//! with bad padding and a bad MAC, which must take the same path (Lucky Thirteen), and
//! encrypt-then-MAC seal, open (MAC check, then the padding under masks) and open of a bad
//! MAC.

use core_aead::{
    Aead, Aes, AesCbcHmac, AesCcm, AesGcm, AesImpl, CbcMbImpl, CbcStream, ChaCha20, ChaCha20Impl,
    ChaCha20Poly1305, Error, GcmImpl, Ghash, GhashImpl, Implementation, Poly1305, Poly1305Impl,
    RecordError, RecordHash, RecordHeader, XChaCha20Poly1305, hchacha20,
};
use core_hash::{Sha1, Sha256, Sha384};

use crate::{LENGTHS, Tally, every, public, secret, secret_array, verdict};

/// Every check in this module.
pub(crate) fn run(t: &mut Tally) {
    aes(t);
    cbc_mb(t);
    ghash(t);
    poly1305(t);
    chacha20(t);
    gcm(t);
    ccm(t);
    chacha20poly1305(t);
    cbc_hmac::<Sha1>(t, "sha1");
    cbc_hmac::<Sha256>(t, "sha256");
    cbc_hmac::<Sha384>(t, "sha384");
}

fn aes(t: &mut Tally) {
    for imp in every::<AesImpl>() {
        t.cover("aes", imp.name());
        for key_len in [16, 24, 32] {
            let key = secret(key_len, 20);
            let Ok(aes) = Aes::with_impl(imp, &key) else {
                t.expect("aes key schedule", false);
                continue;
            };
            let mut block: [u8; 16] = secret_array(21);
            aes.encrypt_block(&mut block);
            t.agree(&format!("aes-{key_len} block"), &block);
            aes.decrypt_block(&mut block);
            t.agree(&format!("aes-{key_len} block decrypted"), &block);
            for &len in LENGTHS {
                let mut buf = secret(len, 22);
                let mut counter = [0xff; 16];
                counter[..12].copy_from_slice(&public(12, 23));
                aes.apply_ctr32(&mut counter, &mut buf);
                t.agree(&format!("aes-{key_len} ctr {len}"), &buf);
                let mut buf = secret(len / 16 * 16, 24);
                let mut iv = [7u8; 16];
                t.expect("aes cbc encrypt", aes.cbc_encrypt(&mut iv, &mut buf).is_ok());
                t.agree(&format!("aes-{key_len} cbc {len}"), &buf);
                let mut iv = [7u8; 16];
                t.expect("aes cbc decrypt", aes.cbc_decrypt(&mut iv, &mut buf).is_ok());
                t.agree(&format!("aes-{key_len} cbc decrypted {len}"), &buf);
            }
        }
    }
}

/// Multi-buffer CBC encryption on every implementation: twelve streams of the test lengths
/// (whole blocks; lengths are public, as the scheduler's lane refills show) under secret
/// AES-128/192/256 keys and IVs, each ciphertext and final IV compared across implementations.
fn cbc_mb(t: &mut Tally) {
    let keys: Vec<Aes> =
        (0..12).filter_map(|i| Aes::new(&secret([16, 24, 32][i % 3], 40 + i as u8)).ok()).collect();
    t.expect("aes-cbc-mb keys", keys.len() == 12);
    for imp in every::<CbcMbImpl>() {
        t.cover("aes-cbc-mb", imp.name());
        let mut bufs: Vec<Vec<u8>> = LENGTHS
            .iter()
            .chain(LENGTHS)
            .zip(60..)
            .map(|(&len, seed)| secret(len / 16 * 16, seed))
            .collect();
        let mut streams: Vec<CbcStream<'_>> = keys
            .iter()
            .zip(&mut bufs)
            .zip(80..)
            .map(|((key, buf), seed)| CbcStream { key, iv: secret_array(seed), buf })
            .collect();
        t.expect("aes-cbc-mb encrypt", imp.cbc_encrypt(&mut streams).is_ok());
        for (i, s) in streams.iter().enumerate() {
            t.agree(&format!("aes-cbc-mb {i}"), s.buf);
            t.agree(&format!("aes-cbc-mb {i} iv"), &s.iv);
        }
    }
}

fn ghash(t: &mut Tally) {
    for imp in every::<GhashImpl>() {
        t.cover("ghash", imp.name());
        for &len in LENGTHS {
            let mut g = Ghash::with_impl(imp, &secret_array(30));
            g.update_padded(&public(13, 31));
            g.update_padded(&secret(len, 32));
            t.agree(&format!("ghash {len}"), &g.finish());
        }
    }
}

fn poly1305(t: &mut Tally) {
    for imp in every::<Poly1305Impl>() {
        t.cover("poly1305", imp.name());
        let key = secret(32, 40);
        for &len in LENGTHS {
            let message = secret(len, 41);
            let mac = || {
                let mut p = Poly1305::with_impl(&key, imp).expect("32-byte key");
                // Uneven pieces, to run the buffering as well as the bulk path.
                let (a, b) = message.split_at(len / 3);
                p.update(a);
                p.update(b);
                p
            };
            let tag = mac().finalize();
            t.agree(&format!("poly1305 {len}"), &tag);
            t.expect("poly1305 verify", verdict(mac().verify(&tag)).is_ok());
            let mut forged = tag;
            forged[15] ^= 0x80;
            t.expect(
                "poly1305 verify forged",
                verdict(mac().verify(&forged)) == Err(Error::AuthenticationFailed),
            );
        }
    }
}

fn chacha20(t: &mut Tally) {
    let nonce = public(12, 50);
    for imp in every::<ChaCha20Impl>() {
        t.cover("chacha20", imp.name());
        let key = secret(32, 51);
        let cipher = ChaCha20::with_impl(&key, imp).expect("32-byte key");
        for &len in LENGTHS {
            let mut buf = secret(len, 52);
            t.expect("chacha20", cipher.apply_keystream(&nonce, 1, &mut buf).is_ok());
            t.agree(&format!("chacha20 {len}"), &buf);
        }
    }
    let mut subkey = hchacha20(&secret_array(53), &[9; 16]);
    t.agree("hchacha20", &subkey);
    subkey.fill(0);
}

/// Seals a secret plaintext, declassifies ciphertext and tag, opens them, and opens them again
/// under a forged tag (which must fail and leave zeros). `label` names the output for the
/// cross-implementation comparison.
fn round_trip<A: Aead>(t: &mut Tally, aead: &A, nonce: &[u8], label: &str) {
    let aad = public(21, 60);
    for &len in LENGTHS {
        let plaintext = secret(len, 61);
        let mut buf = plaintext.clone();
        let Ok(tag) = aead.seal_in_place_detached(nonce, &aad, &mut buf) else {
            t.expect(&format!("{label} seal"), false);
            continue;
        };
        t.agree(&format!("{label} {len} ciphertext"), &buf);
        t.agree(&format!("{label} {len} tag"), tag.as_ref());
        let sealed = buf.clone();
        let opened = verdict(aead.open_in_place_detached(nonce, &aad, &mut buf, tag.as_ref()));
        t.expect(&format!("{label} open"), opened.is_ok());
        t.agree(&format!("{label} {len} opened"), &buf);
        let mut forged = tag;
        let last = forged.as_ref().len() - 1;
        forged.as_mut()[last] ^= 0x40;
        let mut buf = sealed;
        let refused = verdict(aead.open_in_place_detached(nonce, &aad, &mut buf, forged.as_ref()));
        t.expect(&format!("{label} forged"), refused == Err(Error::AuthenticationFailed));
        t.expect(&format!("{label} forged zeroes"), buf.iter().all(|&b| b == 0));
    }
}

/// Every registered GCM implementation, then every other AES × GHASH pair.
fn gcm(t: &mut Tally) {
    let mut all: Vec<GcmImpl> = every::<GcmImpl>().collect();
    for aes in every::<AesImpl>() {
        for ghash in every::<GhashImpl>() {
            let imp = GcmImpl::Composed(aes, ghash);
            if !all.contains(&imp) {
                all.push(imp);
            }
        }
    }
    let nonce = public(12, 62);
    for imp in all {
        if every::<GcmImpl>().any(|i| i == imp) {
            t.cover("aes-gcm", imp.name());
        }
        let key = secret(16, 63);
        let gcm = AesGcm::<16>::with_impl(imp, &key).expect("16-byte key");
        round_trip(t, &gcm, &nonce, "aes-128-gcm");
        let key = secret(32, 64);
        let gcm = AesGcm::<32>::with_impl(imp, &key).expect("32-byte key");
        round_trip(t, &gcm, &nonce, "aes-256-gcm");
        // An IV other than 96 bits goes through GHASH first.
        let iv = public(8, 65);
        let mut buf = secret(40, 66);
        let tag = gcm.seal_in_place_detached_with_iv(&iv, b"", &mut buf);
        t.expect("aes-gcm 64-bit iv", tag.is_ok());
        t.agree("aes-256-gcm 64-bit iv", &buf);
        if let Ok(tag) = tag {
            t.agree("aes-256-gcm 64-bit iv tag", &tag);
            let opened = verdict(gcm.open_in_place_detached_with_iv(&iv, b"", &mut buf, &tag));
            t.expect("aes-gcm 64-bit iv open", opened.is_ok());
            t.agree("aes-256-gcm 64-bit iv opened", &buf);
        }
    }
}

fn ccm(t: &mut Tally) {
    let nonce = public(12, 70);
    for imp in every::<AesImpl>() {
        let key = secret(16, 71);
        let ccm = AesCcm::<16, 16>::with_impl(imp, &key).expect("16-byte key");
        round_trip(t, &ccm, &nonce, "aes-128-ccm");
        let ccm = AesCcm::<16, 8>::with_impl(imp, &key).expect("16-byte key");
        round_trip(t, &ccm, &nonce, "aes-128-ccm-8");
        let key = secret(32, 72);
        let ccm = AesCcm::<32, 16>::with_impl(imp, &key).expect("32-byte key");
        round_trip(t, &ccm, &nonce, "aes-256-ccm");
    }
}

fn chacha20poly1305(t: &mut Tally) {
    for chacha in every::<ChaCha20Impl>() {
        for poly in every::<Poly1305Impl>() {
            let key = secret(32, 80);
            let aead = ChaCha20Poly1305::with_impls(&key, chacha, poly).expect("32-byte key");
            round_trip(t, &aead, &public(12, 81), "chacha20-poly1305");
            let aead = XChaCha20Poly1305::with_impls(&key, chacha, poly).expect("32-byte key");
            round_trip(t, &aead, &public(24, 82), "xchacha20-poly1305");
        }
    }
}

/// TLS CBC records under secret AES and MAC keys and a secret plaintext: every AES
/// implementation with the best hash and every hash implementation with the best AES (the
/// bitsliced AES is slow under valgrind, and the pairs share no code): the sealed record
/// (public), its opening, and openings of the record changed through CBC's malleability in
/// the padding length byte, in a padding byte and in the MAC — all must be refused alike,
/// with no branch or index on the decrypted bytes.
fn cbc_hmac<H: RecordHash>(t: &mut Tally, hash: &str) {
    let header = RecordHeader { sequence: 7, content_type: 23, version: 0x0303 };
    let pairs = every::<AesImpl>()
        .map(|aes| (aes, H::Impl::best()))
        .chain(every::<H::Impl>().map(|imp| (AesImpl::best(), imp)));
    for (aes, imp) in pairs {
        let label = format!("aes-128-cbc-hmac-{hash}");
        let Ok(key) = AesCbcHmac::<H>::with_impls(aes, imp, &secret(16, 90), &secret(32, 91))
        else {
            t.expect(&format!("{label} key"), false);
            continue;
        };
        // Lengths that leave paddings of several lengths with either MAC, one of them past
        // the 256-byte window the open checks.
        for len in [0, 1, 63, 300] {
            let mut buf = vec![0u8; AesCbcHmac::<H>::sealed_len(len)];
            buf[16..16 + len].copy_from_slice(&secret(len, 92));
            let iv: [u8; 16] = public(16, 93).try_into().unwrap_or_default();
            let Ok(n) = key.seal_in_place(&header, &iv, &mut buf, len) else {
                t.expect(&format!("{label} seal"), false);
                continue;
            };
            t.agree(&format!("{label} {len} record"), &buf[..n]);
            let sealed = buf.clone();
            let opened = verdict(key.open_in_place(&header, &mut buf).map(|p| p.to_vec()));
            t.expect(&format!("{label} open"), opened.as_ref().is_ok_and(|p| p.len() == len));
            if let Ok(plaintext) = opened {
                t.agree(&format!("{label} {len} opened"), &plaintext);
            }
            // Flipping a ciphertext byte flips the byte 16 later in the decryption: the
            // padding length, the byte before it (padding, or the MAC's last when the
            // padding is its length byte alone), the MAC's last byte.
            let pad = n - 16 - len - H::OUTPUT_LEN - 1;
            for (what, back) in [("pad length", 1), ("pad byte", 2), ("mac", pad + 2)] {
                let mut bad = sealed.clone();
                bad[n - 16 - back] ^= 0x01;
                let refused = verdict(key.open_in_place(&header, &mut bad).map(|_| ()));
                t.expect(
                    &format!("{label} {len} bad {what}"),
                    refused == Err(RecordError::BadRecordMac),
                );
                t.expect(&format!("{label} bad {what} zeroes"), bad.iter().all(|&b| b == 0));
            }
            cbc_hmac_etm(t, &key, &label, len);
        }
    }
}

/// Encrypt-then-MAC records of a secret `len`-byte plaintext under `key`: the sealed record
/// (public), its opening (the MAC compared in constant time, then the padding checked under
/// masks: the plaintext is secret), and the opening of a record with its MAC's last byte or a
/// ciphertext byte flipped, refused alike.
fn cbc_hmac_etm<H: RecordHash>(t: &mut Tally, key: &AesCbcHmac<H>, label: &str, len: usize) {
    let header = RecordHeader { sequence: 8, content_type: 23, version: 0x0303 };
    let mut buf = vec![0u8; AesCbcHmac::<H>::etm_sealed_len(len)];
    buf[16..16 + len].copy_from_slice(&secret(len, 94));
    let iv: [u8; 16] = public(16, 95).try_into().unwrap_or_default();
    let Ok(n) = key.seal_etm_in_place(&header, &iv, &mut buf, len) else {
        t.expect(&format!("{label} etm seal"), false);
        return;
    };
    t.agree(&format!("{label} etm {len} record"), &buf[..n]);
    let sealed = buf.clone();
    let opened = verdict(key.open_etm_in_place(&header, &mut buf).map(|p| p.to_vec()));
    t.expect(&format!("{label} etm open"), opened.as_ref().is_ok_and(|p| p.len() == len));
    if let Ok(plaintext) = opened {
        t.agree(&format!("{label} etm {len} opened"), &plaintext);
    }
    for (what, back) in [("mac", 1), ("ciphertext", H::OUTPUT_LEN + 1)] {
        let mut bad = sealed.clone();
        bad[n - back] ^= 0x01;
        let refused = verdict(key.open_etm_in_place(&header, &mut bad).map(|_| ()));
        t.expect(&format!("{label} etm bad {what}"), refused == Err(RecordError::BadRecordMac));
        t.expect(&format!("{label} etm bad {what} zeroes"), bad.iter().all(|&b| b == 0));
    }
}
