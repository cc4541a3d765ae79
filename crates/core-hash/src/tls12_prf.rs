//! The TLS 1.2 pseudorandom function (RFC 5246 §5) over any hash's HMAC:
//! `PRF(secret, label, seed) = P_hash(secret, label ‖ seed)`, with
//! `P_hash(secret, s) = HMAC(secret, A(1) ‖ s) ‖ HMAC(secret, A(2) ‖ s) ‖ …`,
//! `A(0) = s`, `A(i) = HMAC(secret, A(i-1))`.
//!
//! Halite's TLS stack and its rustls provider both derive their TLS 1.2 secrets here.

use zeroize::Zeroize;

use crate::{Hash, Hmac};

/// Fills `out` with `PRF(secret, label, seed)` over `H` (SHA-256 for most TLS 1.2 suites,
/// SHA-384 for the `_SHA384` ones), where the seed is the concatenation of the `seed` parts
/// (so callers need not join randoms in a buffer). Any output length is allowed; a shorter
/// output is a prefix of a longer one.
pub fn tls12_prf<H: Hash>(secret: &[u8], label: &[u8], seed: &[&[u8]], out: &mut [u8]) {
    let keyed = Hmac::<H>::new(secret);
    // HMAC(secret, prefix ‖ label ‖ seed).
    let with_seed = |prefix: &[u8]| {
        let mut m = keyed.clone();
        m.update(prefix);
        m.update(label);
        for s in seed {
            m.update(s);
        }
        m.finalize()
    };
    // A(1) = HMAC(secret, A(0)), A(0) = label ‖ seed.
    let mut a = with_seed(&[]);
    let mut chunks = out.chunks_mut(H::OUTPUT_LEN).peekable();
    while let Some(chunk) = chunks.next() {
        let mut block = with_seed(a.as_ref());
        chunk.copy_from_slice(&block.as_ref()[..chunk.len()]);
        block.as_mut().zeroize();
        // A(i + 1) only if another chunk needs it: a Finished or a key block is one or two
        // chunks, and the unused A would cost two more compressions each time.
        if chunks.peek().is_some() {
            let mut m = keyed.clone();
            m.update(a.as_ref());
            let next = m.finalize();
            a.as_mut().zeroize();
            a = next;
        }
    }
    a.as_mut().zeroize();
}

#[cfg(test)]
mod tests {
    use hex_literal::hex;

    use super::tls12_prf;
    use crate::{Sha256, Sha384};

    /// The widely circulated TLS 1.2 PRF vector for SHA-256 (secret, seed, label
    /// "test label", 100 bytes), equal to OpenSSL 3.0's
    /// `openssl kdf -keylen 100 -kdfopt digest:SHA256
    /// -kdfopt hexsecret:9bbe436ba940f017b17652849a71db35
    /// -kdfopt hexseed:<hex "test label">a0ba9f936cda311827a6f796ffd5198c TLS1-PRF`.
    #[test]
    fn sha256_known_answer() {
        let mut out = [0u8; 100];
        tls12_prf::<Sha256>(
            &hex!("9bbe436ba940f017b17652849a71db35"),
            b"test label",
            &[&hex!("a0ba9f936cda311827a6f796ffd5198c")],
            &mut out,
        );
        assert_eq!(
            out,
            hex!(
                "e3f229ba727be17b8d122620557cd453c2aab21d07c3d495329b52d4e61edb5a"
                "6b301791e90d35c9c9a46b4e14baf9af0fa022f7077def17abfd3797c0564bab"
                "4fbc91666e9def9b97fce34f796789baa48082d122ee42c5a72e5a5110fff701"
                "87347b66"
            )
        );
    }

    /// The SHA-384 counterpart (148 bytes), equal to OpenSSL 3.0's
    /// `openssl kdf -keylen 148 -kdfopt digest:SHA384
    /// -kdfopt hexsecret:b80b733d6ceefcdc71566ea48e5567df
    /// -kdfopt hexseed:<hex "test label">cd665cf6a8447dd6ff8b27555edb7465 TLS1-PRF`.
    #[test]
    fn sha384_known_answer() {
        let mut out = [0u8; 148];
        tls12_prf::<Sha384>(
            &hex!("b80b733d6ceefcdc71566ea48e5567df"),
            b"test label",
            &[&hex!("cd665cf6a8447dd6ff8b27555edb7465")],
            &mut out,
        );
        assert_eq!(
            out,
            hex!(
                "7b0c18e9ced410ed1804f2cfa34a336a1c14dffb4900bb5fd7942107e81c83cd"
                "e9ca0faa60be9fe34f82b1233c9146a0e534cb400fed2700884f9dc236f80edd"
                "8bfa961144c9e8d792eca722a7b32fc3d416d473ebc2c5fd4abfdad05d918425"
                "9b5bf8cd4d90fa0d31e2dec479e4f1a26066f2eea9a69236a3e52655c9e9aee6"
                "91c8f3a26854308d5eaa3be85e0990703d73e56f"
            )
        );
    }

    /// The seed may come in parts: splitting it anywhere changes nothing.
    #[test]
    fn seed_parts_are_concatenated() {
        let seed = [7u8; 70];
        let mut whole = [0u8; 40];
        tls12_prf::<Sha256>(b"secret", b"label", &[&seed], &mut whole);
        for cut in [0, 1, 32, 69, 70] {
            let mut parts = [0u8; 40];
            tls12_prf::<Sha256>(b"secret", b"label", &[&seed[..cut], &seed[cut..]], &mut parts);
            assert_eq!(parts, whole, "cut at {cut}");
        }
    }
}
