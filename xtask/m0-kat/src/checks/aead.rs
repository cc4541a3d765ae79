//! Checks for `core-aead` on the firmware: AES-128 CTR and CBC over 4 KiB, AES-128-GCM
//! (McGrew–Viega test case 4), RFC 8439 ChaCha20-Poly1305 and Poly1305, ChaCha20 over blocks and
//! tails at aligned and unaligned addresses, and RFC 3610 AES-CCM
//! known answers on every implementation the target can run, that a forged tag is refused
//! with the buffer zeroed, and that a 32-bit target defaults to the bitsliced 32-bit AES and
//! GHASH.

use core_aead::{
    Aead, Aes, Aes128Ccm, AesCcm, AesImpl, ChaCha20, ChaCha20Impl, ChaCha20Poly1305, GcmImpl,
    Implementation, Poly1305, Poly1305Impl,
};
use core_hash::Sha256;
use hex_literal::hex;

use super::{Check, ensure};

/// The core-aead checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "aead::aes128_gcm_mv4", run: aes128_gcm_mv4 },
    Check { name: "aead::aes_gcm_default_is_thumb1", run: aes_gcm_default_is_thumb1 },
    Check { name: "aead::aes128_ctr_cbc_4k", run: aes128_ctr_cbc_4k },
    Check { name: "aead::chacha20_poly1305_rfc8439", run: chacha20_poly1305_rfc8439 },
    Check { name: "aead::chacha20_blocks_tails", run: chacha20_blocks_tails },
    Check { name: "aead::poly1305_vectors", run: poly1305_vectors },
    Check { name: "aead::aes128_ccm8_rfc3610", run: aes128_ccm8_rfc3610 },
    Check { name: "aead::aes128_ccm_round_trip", run: aes128_ccm_round_trip },
];

/// Seals `pt` and checks ciphertext and tag, then opens it back, then checks that a flipped
/// tag bit is refused and leaves only zeros behind.
fn seal_open<A: Aead>(
    key: &A,
    nonce: &[u8],
    aad: &[u8],
    pt: &[u8],
    ct: &[u8],
    tag: &[u8],
) -> Result<(), &'static str> {
    let mut buf = [0u8; 128];
    let buf = buf.get_mut(..pt.len()).ok_or("message too long for the check buffer")?;
    buf.copy_from_slice(pt);
    let got = key.seal_in_place_detached(nonce, aad, buf).map_err(|_| "seal refused")?;
    ensure(buf == ct, "ciphertext")?;
    ensure(got.as_ref() == tag, "tag")?;
    key.open_in_place_detached(nonce, aad, buf, tag).map_err(|_| "open refused")?;
    ensure(buf == pt, "decryption")?;

    buf.copy_from_slice(ct);
    let mut forged = [0u8; 16];
    let forged = forged.get_mut(..tag.len()).ok_or("tag too long")?;
    forged.copy_from_slice(tag);
    forged[0] ^= 1;
    ensure(key.open_in_place_detached(nonce, aad, buf, forged).is_err(), "forged tag accepted")?;
    ensure(buf.iter().all(|&b| b == 0), "buffer not zeroed after a forged tag")
}

/// "The Galois/Counter Mode of Operation", appendix B, test case 4: 60 bytes with 20 bytes of
/// AAD, on every GCM composition this target can run.
fn aes128_gcm_mv4() -> Result<(), &'static str> {
    let key = hex!("feffe9928665731c6d6a8f9467308308");
    let pt = hex!(
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
    );
    let ct = hex!(
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
        "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091"
    );
    let aad = hex!("feedfacedeadbeeffeedfacedeadbeefabaddad2");
    let nonce = hex!("cafebabefacedbaddecaf888");
    let tag = hex!("5bc94fbc3221a5db94fae95ae7121a47");
    let mut ran = false;
    for imp in GcmImpl::available() {
        let k = core_aead::Aes128Gcm::with_impl(imp, &key).map_err(|_| imp.name())?;
        seal_open(&k, &nonce, &aad, &pt, &ct, &tag).map_err(|_| imp.name())?;
        ran = true;
    }
    ensure(ran, "no implementation available")
}

/// AES-128 over 4 KiB on every implementation this target can run: the CTR keystream and the
/// CBC encryption of a byte pattern, checked by their SHA-256 (worked out with OpenSSL), and
/// CBC decryption back to the pattern. Enough blocks that every S-box input occurs in every
/// round, in whole 32-byte CTR chunks (the long-message path) and one block at a time.
fn aes128_ctr_cbc_4k() -> Result<(), &'static str> {
    let key = hex!("2b7e151628aed2a6abf7158809cf4f3c");
    let ctr_sha = hex!("770ffab2de2b363cd2b8ea6833383eb06c9aab07c0a897f80a9a884545c73722");
    let cbc_sha = hex!("e9960a26807b52a068533fee2b457d59cb62d4ec88aa0fecf98683c34b0d4813");
    let mut ran = false;
    for imp in AesImpl::available() {
        let aes = Aes::with_impl(imp, &key).map_err(|_| imp.name())?;
        let mut buf = [0u8; 512];
        let mut ctr = hex!("f0f1f2f3f4f5f6f7f8f9fafb00000000");
        let mut h = Sha256::new();
        for _ in 0..8 {
            buf.fill(0);
            aes.apply_ctr32(&mut ctr, &mut buf);
            h.update(&buf);
        }
        ensure(h.finalize() == ctr_sha, imp.name())?;

        let (mut enc_iv, mut dec_iv) = ([0u8; 16], [0u8; 16]);
        for (i, (e, d)) in enc_iv.iter_mut().zip(dec_iv.iter_mut()).enumerate() {
            (*e, *d) = (i as u8, i as u8);
        }
        let mut h = Sha256::new();
        for chunk in 0..8 {
            let pattern = |i: usize| ((512 * chunk + i) * 7 + 3) as u8;
            for (i, b) in buf.iter_mut().enumerate() {
                *b = pattern(i);
            }
            aes.cbc_encrypt(&mut enc_iv, &mut buf).map_err(|_| imp.name())?;
            h.update(&buf);
            aes.cbc_decrypt(&mut dec_iv, &mut buf).map_err(|_| imp.name())?;
            ensure(buf.iter().enumerate().all(|(i, &b)| b == pattern(i)), imp.name())?;
        }
        ensure(h.finalize() == cbc_sha, imp.name())?;
        ran = true;
    }
    ensure(ran, "no implementation available")
}

/// On the Cortex-M0 with `asm` the default is the Thumb-1 AES with the Thumb-1 GHASH, with their portable
/// twins (ct32) still listed, so the checks above run both and cross-check them.
fn aes_gcm_default_is_thumb1() -> Result<(), &'static str> {
    if cfg!(all(target_arch = "arm", target_os = "none", feature = "asm")) {
        ensure(AesImpl::preferred().name() == "thumb1", "AES default is not thumb1")?;
        ensure(GcmImpl::preferred().name() == "thumb1+thumb1", "GCM default is not thumb1")?;
        let key = core_aead::Aes128Gcm::new(&[0; 16]).map_err(|_| "key refused")?;
        ensure(key.implementation().name() == "thumb1+thumb1", "new() does not use thumb1")?;
    }
    ensure(AesImpl::available().any(|imp| imp.name() == "ct32"), "ct32 missing")
}

/// Poly1305 alone on every implementation this target can run: RFC 8439 §2.5.2, and the
/// all-ones key and message (the largest clamped `r`, every limb at its bound; 15 blocks and
/// a 10-byte tail), whose tag was worked out with integers outside this code.
fn poly1305_vectors() -> Result<(), &'static str> {
    let key = hex!("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
    let tag = hex!("a8061dc1305136c6c22b8baf0c0127a9");
    let ones = [0xffu8; 250];
    let ones_tag = hex!("c8348242441b569e6e827c125bff37dc");
    let mut ran = false;
    for imp in Poly1305Impl::available() {
        for (key, msg, want) in [
            (&key, &b"Cryptographic Forum Research Group"[..], &tag),
            (&[0xff; 32], &ones, &ones_tag),
        ] {
            let mut p = Poly1305::with_impl(key, imp).map_err(|_| imp.name())?;
            p.update(msg);
            ensure(p.finalize() == *want, imp.name())?;
        }
        ran = true;
    }
    ensure(ran, "no implementation available")
}

/// RFC 8439 §2.8.2 on every ChaCha20 × Poly1305 pairing this target can run.
fn chacha20_poly1305_rfc8439() -> Result<(), &'static str> {
    let key: [u8; 32] = core::array::from_fn(|i| 0x80 + i as u8);
    let nonce = hex!("070000004041424344454647");
    let aad = hex!("50515253c0c1c2c3c4c5c6c7");
    let pt = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
    let ct = hex!(
        "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
        "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
        "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
        "3ff4def08e4b7a9de576d26586cec64b6116"
    );
    let tag = hex!("1ae10b594f09e26a7e902ecbd0600691");
    let mut ran = false;
    for chacha in ChaCha20Impl::available() {
        for poly in Poly1305Impl::available() {
            let k = ChaCha20Poly1305::with_impls(&key, chacha, poly).map_err(|_| poly.name())?;
            seal_open(&k, &nonce, &aad, pt, &ct, &tag).map_err(|_| poly.name())?;
            ran = true;
        }
    }
    ensure(ran, "no implementation available")
}

/// A buffer on a word boundary, so that the offsets below are known aligned or not.
#[repr(C, align(4))]
struct Aligned<const N: usize>([u8; N]);

/// ChaCha20 from block 7 over seven blocks and a 37-byte tail, in place at a word-aligned and
/// at an unaligned address, over three and four blocks and a 4- and a 3-byte tail at the two
/// other offsets, and over two whole blocks: the SHA-256 of the five outputs against the
/// value Python's `cryptography` (OpenSSL) gives, and each decrypted back. RFC 8439's vector
/// is one block and a tail; this one catches a wrong counter step between blocks, a wrong
/// tail, and a wrong path for unaligned buffers (the Cortex-M0 block works on aligned words,
/// and goes through a copy otherwise, in words of four bytes and then bytes).
fn chacha20_blocks_tails() -> Result<(), &'static str> {
    let key: [u8; 32] = core::array::from_fn(|i| (7 * i + 1) as u8);
    let nonce = hex!("000000090000004a00000000");
    // for (off, len) in [(0, 485), (1, 485), (2, 196), (3, 259), (0, 128)]: p = bytes((13·i + 5)
    // mod 256), out = ChaCha20(key, counter 7 (4 bytes LE) || nonce).encrypt(p); SHA-256 of
    // the outs.
    let want = hex!("cb0aad5aa8ecf8b51a273ad5780086a6ee6b47ee360b613e942a0860f6a8ed48");
    let mut buf = Aligned([0u8; 488]);
    let mut ran = false;
    for imp in ChaCha20Impl::available() {
        let k = ChaCha20::with_impl(&key, imp).map_err(|_| imp.name())?;
        let mut h = Sha256::new();
        for (off, len) in [(0, 485), (1, 485), (2, 196), (3, 259), (0, 128)] {
            let b = &mut buf.0[off..off + len];
            for (i, x) in b.iter_mut().enumerate() {
                *x = (13 * i + 5) as u8;
            }
            k.apply_keystream(&nonce, 7, b).map_err(|_| imp.name())?;
            h.update(b);
            k.apply_keystream(&nonce, 7, b).map_err(|_| imp.name())?;
            ensure(b.iter().enumerate().all(|(i, &x)| x == (13 * i + 5) as u8), imp.name())?;
        }
        ensure(h.finalize() == want, imp.name())?;
        ran = true;
    }
    ensure(ran, "no implementation available")
}

/// RFC 3610 §8 packet vector 1: 13-byte nonce, 8 bytes of AAD, 8-byte tag (the tag length of CCM-8).
fn aes128_ccm8_rfc3610() -> Result<(), &'static str> {
    let key = hex!("c0c1c2c3c4c5c6c7c8c9cacbcccdcecf");
    let nonce = hex!("00000003020100a0a1a2a3a4a5");
    let aad = hex!("0001020304050607");
    let pt: [u8; 23] = core::array::from_fn(|i| 8 + i as u8);
    let want = hex!("588c979a61c663d2f066d0c2c0f989806d5f6b61dac38417e8d12cfdf926e0");
    let mut ran = false;
    for imp in AesImpl::available() {
        let k = AesCcm::<16, 8>::with_impl(imp, &key).map_err(|_| imp.name())?;
        let mut buf = pt;
        let tag =
            k.seal_in_place_detached_with_nonce(&nonce, &aad, &mut buf).map_err(|_| imp.name())?;
        ensure(buf[..] == want[..23] && tag[..] == want[23..], imp.name())?;
        k.open_in_place_detached_with_nonce(&nonce, &aad, &mut buf, &tag)
            .map_err(|_| imp.name())?;
        ensure(buf == pt, imp.name())?;
        ran = true;
    }
    ensure(ran, "no implementation available")
}

/// TLS's AES-128-CCM (12-byte nonce, 16-byte tag): seal, open, and a forged tag refused.
fn aes128_ccm_round_trip() -> Result<(), &'static str> {
    let key = Aes128Ccm::new(&hex!("c0c1c2c3c4c5c6c7c8c9cacbcccdcecf")).map_err(|_| "key")?;
    let nonce = [0x42; 12];
    let pt = *b"a short TLS record on a Cortex-M0";
    let mut ct = pt;
    let tag = key.seal_in_place_detached(&nonce, b"hdr", &mut ct).map_err(|_| "seal refused")?;
    ensure(ct != pt, "nothing was encrypted")?;
    seal_open(&key, &nonce, b"hdr", &pt, &ct, &tag)
}
