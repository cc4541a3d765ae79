//! Checks for `core-ec`'s NIST curves on the firmware's `mont15` arithmetic (15-bit limbs,
//! 32-bit products only): a P-256 ECDSA verification of the RFC 6979 A.2.5 signature, its
//! rejection once a bit of the message changes, and the RFC 5903 §8.1 P-256 ECDH exchange;
//! on the Cortex-M0 (P-256 on `p256_thumb1`, the Thumb-1 field the host cannot run) every
//! field operation and ECDH, signing and verification against `mont15`'s P-256, on edge and
//! pseudo-random values.

use core_ec::p256::{P256Impl, PublicKey, SecretKey, Signature};
use core_hash::Implementation;
use hex_literal::hex;

use super::{Check, ensure};

/// The core-ec NIST-curve checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "nist::p256_ecdsa_verify_rfc6979", run: p256_ecdsa_verify },
    Check { name: "nist::p256_ecdh_rfc5903", run: p256_ecdh },
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Check { name: "nist::p256_impl_fits_target", run: thumb1::impl_fits_target },
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Check { name: "nist::p256_thumb1_field_ops", run: thumb1::field_ops },
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Check { name: "nist::p256_thumb1_vs_mont15", run: thumb1::vs_mont15 },
];

/// RFC 6979 A.2.5: the public key and the SHA-256 signature of "sample".
fn p256_ecdsa_verify() -> Result<(), &'static str> {
    let public = hex!(
        "04 60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6
            7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"
    );
    let sig = hex!(
        "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716
         F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"
    );
    let mut ran = false;
    for imp in P256Impl::available() {
        let key = PublicKey::from_sec1_bytes_with_impl(&public, imp).map_err(|_| imp.name())?;
        let sig = Signature::from_bytes(&sig).map_err(|_| "signature rejected")?;
        ensure(key.verify(b"sample", &sig).is_ok(), imp.name())?;
        ensure(key.verify(b"samplf", &sig).is_err(), "forgery accepted")?;
        ran = true;
    }
    ensure(ran, "no implementation available")
}

/// RFC 5903 §8.1: the initiator's public key from its private key, and the shared secret
/// with the responder.
fn p256_ecdh() -> Result<(), &'static str> {
    let i = hex!("C88F01F510D9AC3F70A292DAA2316DE544E9AAB8AFE84049C62A9C57862D1433");
    let gi = hex!(
        "04 DAD0B65394221CF9B051E1FECA5787D098DFE637FC90B9EF945D0C3772581180
            5271A0461CDB8252D61F1C456FA3E59AB1F45B33ACCF5F58389E0577B8990BB3"
    );
    let gr = hex!(
        "04 D12DFB5289C8D4F81208B70270398C342296970A0BCCB74C736FC7554494BF63
            56FBF3CA366CC23E8157854C13C58D6AAC23F046ADA30F8353E74F33039872AB"
    );
    let gir = hex!("D6840F6B42F6EDAFD13116E0E12565202FEF8E9ECE7DCE03812464D04B9442DE");
    let mut ran = false;
    for imp in P256Impl::available() {
        let sk = SecretKey::from_bytes_with_impl(&i, imp).map_err(|_| imp.name())?;
        ensure(sk.public_key().to_sec1_bytes() == gi, "public key differs")?;
        let peer = PublicKey::from_sec1_bytes_with_impl(&gr, imp).map_err(|_| imp.name())?;
        let shared = sk.diffie_hellman(&peer).map_err(|_| imp.name())?;
        ensure(*shared.as_bytes() == gir, "shared secret differs")?;
        ran = true;
    }
    ensure(ran, "no implementation available")
}

/// `p256_thumb1` against `mont15` on the device.
#[cfg(all(target_arch = "arm", feature = "asm"))]
mod thumb1 {
    use core_ec::__m0_test as t;
    use core_ec::p256::{P256Impl, SecretKey};
    use core_hash::Implementation;
    use hex_literal::hex;

    use super::ensure;

    /// The default P-256 field on the Cortex-M0 is the Thumb-1 one.
    pub(super) fn impl_fits_target() -> Result<(), &'static str> {
        ensure(P256Impl::best().name() == "p256_thumb1", "unexpected default P-256 field")
    }

    /// A fixed xorshift64 stream, so a failure reproduces.
    struct Rng(u64);

    impl Rng {
        fn bytes(&mut self) -> [u8; 32] {
            let mut b = [0u8; 32];
            for x in &mut b {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                *x = (self.0 >> 24) as u8;
            }
            b
        }
    }

    const M: u32 = u32::MAX;

    /// Big-endian edges: 0, 1, 2, p − 1, p − 2, p and p + 1 (refused), 2^256 − 1, 2^255,
    /// R mod p = 2^256 − p, (p − 1)/2, (p + 1)/2, 2^224, 2^96 − 1 and alternating words.
    const EDGES: [[u8; 32]; 15] = [
        [0; 32],
        hex!("0000000000000000000000000000000000000000000000000000000000000001"),
        hex!("0000000000000000000000000000000000000000000000000000000000000002"),
        hex!("ffffffff00000001000000000000000000000000fffffffffffffffffffffffe"),
        hex!("ffffffff00000001000000000000000000000000fffffffffffffffffffffffd"),
        hex!("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"),
        hex!("ffffffff00000001000000000000000000000001000000000000000000000000"),
        [0xff; 32],
        hex!("8000000000000000000000000000000000000000000000000000000000000000"),
        hex!("00000000fffffffeffffffffffffffffffffffff000000000000000000000001"),
        hex!("7fffffff800000008000000000000000000000007fffffffffffffffffffffff"),
        hex!("7fffffff80000000800000000000000000000000800000000000000000000000"),
        hex!("0000000100000000000000000000000000000000000000000000000000000000"),
        hex!("0000000000000000000000000000000000000000ffffffffffffffffffffffff"),
        hex!("ffffffff00000000ffffffff00000000ffffffff00000000ffffffff00000000"),
    ];

    /// Montgomery forms at the edges of the representation (little-endian words, below p):
    /// p − 1, all ones below the top two words, the top bit alone, one, R mod p, and
    /// words of p's shape.
    const WORD_EDGES: [[u32; 8]; 6] = [
        [M - 1, M, M, 0, 0, 0, 1, M],
        [M, M, M, M, M, M, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0x8000_0000],
        [1, 0, 0, 0, 0, 0, 0, 0],
        [1, 0, 0, M, M, M, M - 1, 0],
        [M, M, M, 0, 0, 0, 0, M - 1],
    ];

    /// Every field operation against `mont15` on every pair of edges (plain and of the
    /// representation) and on pseudo-random pairs.
    pub(super) fn field_ops() -> Result<(), &'static str> {
        let mut values = [[0u8; 32]; EDGES.len() + WORD_EDGES.len()];
        values[..EDGES.len()].copy_from_slice(&EDGES);
        for (v, w) in values[EDGES.len()..].iter_mut().zip(&WORD_EDGES) {
            *v = t::p256_plain_of_words(w);
        }
        for a in &values {
            for b in &values {
                t::p256_field_ops_agree(a, b)?;
            }
        }
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..20 {
            t::p256_field_ops_agree(&rng.bytes(), &rng.bytes())?;
        }
        Ok(())
    }

    /// Public keys, ECDH, signatures and verification on both fields, for pseudo-random
    /// keys and hashes.
    pub(super) fn vs_mont15() -> Result<(), &'static str> {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..3 {
            let mut d = rng.bytes();
            d[0] &= 0x7f;
            let mut e = rng.bytes();
            e[0] &= 0x7f;
            let peer = SecretKey::from_bytes(&e).map_err(|_| "key refused")?.public_key();
            let sec1 = peer.to_sec1_bytes();
            let mut xy = [0u8; 64];
            xy.copy_from_slice(&sec1[1..]);
            t::p256_thumb1_against_mont15(&d, &xy, &rng.bytes())?;
        }
        Ok(())
    }
}
