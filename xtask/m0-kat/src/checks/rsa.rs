//! Checks for `core-rsa` on the firmware: an RSA-2048 PKCS#1 v1.5 SHA-256 signature made by
//! OpenSSL (the crate's test fixture) verifies through the SPKI key on every implementation
//! the target can run (the 15-bit `portable15` on the Cortex-M0, both portable ones anywhere),
//! and a changed message or signature does not; plus a small modexp known answer.
//!
//! A private-key operation is not run here: a 2048-bit CRT key prepared for `portable15`
//! with its working buffers needs more than the 16 KiB of RAM the micro:bit has.

use core_rsa::{Error, HashAlg, Implementation, Modulus, MontImpl, PublicKey};

use super::{Check, ensure};

/// The core-rsa checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "rsa::modexp_small", run: modexp_small },
    Check { name: "rsa::pkcs1v15_sha256_verify_2048", run: pkcs1v15_verify_2048 },
];

const SPKI: &[u8] =
    include_bytes!("../../../../crates/core-rsa/tests/data/rsa2048_e65537.spki.der");
const SIG: &[u8] =
    include_bytes!("../../../../crates/core-rsa/tests/data/rsa2048_e65537.sha256.sig");
const MESSAGE: &[u8] = include_bytes!("../../../../crates/core-rsa/tests/data/message.txt");

/// 2^10 mod 3001 = 1024, and the constant-time and variable-time paths agree on 7^1000.
fn modexp_small() -> Result<(), &'static str> {
    for imp in MontImpl::available().chain(MontImpl::by_name("portable15")) {
        let m = Modulus::with_impl(&[0x0b, 0xb9], imp).map_err(|_| "modulus refused")?;
        let mut out = [0u8; 2];
        m.pow(&[0x07], &[0x03, 0xe8], &mut out).map_err(|_| "pow failed")?;
        let mut check = [0u8; 2];
        m.pow_vartime(&[0x07], &[0x03, 0xe8], &mut check).map_err(|_| "pow_vartime failed")?;
        ensure(out == check, "pow and pow_vartime disagree")?;
        m.pow(&[0x02], &[0x0a], &mut out).map_err(|_| "pow failed")?;
        ensure(out == [0x04, 0x00], "2^10 mod 3001")?;
    }
    Ok(())
}

fn pkcs1v15_verify_2048() -> Result<(), &'static str> {
    let portable = ["portable15", "portable64"];
    for imp in portable.iter().filter_map(|n| MontImpl::by_name(n)) {
        // One key at a time: each takes 2 KiB of the 16.
        let key = PublicKey::from_spki_der_with_impl(SPKI, imp).map_err(|_| "SPKI refused")?;
        ensure(key.bits() == 2048, "key size")?;
        ensure(key.verify_pkcs1v15(HashAlg::Sha256, MESSAGE, SIG).is_ok(), imp.name())?;
        ensure(
            key.verify_pkcs1v15(HashAlg::Sha256, b"Halite RSA test message", SIG)
                == Err(Error::InvalidSignature),
            "changed message accepted",
        )?;
        let mut bad = [0u8; 256];
        bad.copy_from_slice(SIG);
        bad[100] ^= 4;
        ensure(
            key.verify_pkcs1v15(HashAlg::Sha256, MESSAGE, &bad) == Err(Error::InvalidSignature),
            "changed signature accepted",
        )?;
    }
    Ok(())
}
