//! Checks for `core-ec`'s NIST curves on the firmware's `mont15` arithmetic (15-bit limbs,
//! 32-bit products only): a P-256 ECDSA verification of the RFC 6979 A.2.5 signature, its
//! rejection once a bit of the message changes, and the RFC 5903 §8.1 P-256 ECDH exchange.

use core_ec::p256::{NistImpl, PublicKey, SecretKey, Signature};
use core_hash::Implementation;
use hex_literal::hex;

use super::{Check, ensure};

/// The core-ec NIST-curve checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "nist::p256_ecdsa_verify_rfc6979", run: p256_ecdsa_verify },
    Check { name: "nist::p256_ecdh_rfc5903", run: p256_ecdh },
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
    for imp in NistImpl::available() {
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
    for imp in NistImpl::available() {
        let sk = SecretKey::from_bytes_with_impl(&i, imp).map_err(|_| imp.name())?;
        ensure(sk.public_key().to_sec1_bytes() == gi, "public key differs")?;
        let peer = PublicKey::from_sec1_bytes_with_impl(&gr, imp).map_err(|_| imp.name())?;
        let shared = sk.diffie_hellman(&peer).map_err(|_| imp.name())?;
        ensure(*shared.as_bytes() == gir, "shared secret differs")?;
        ran = true;
    }
    ensure(ran, "no implementation available")
}
