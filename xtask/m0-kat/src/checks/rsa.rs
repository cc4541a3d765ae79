//! Checks for `core-rsa` on the firmware: an RSA-2048 PKCS#1 v1.5 SHA-256 signature made by
//! OpenSSL (the crate's test fixture) verifies through the SPKI key on every implementation
//! the target can run (on the Cortex-M0 `thumb1` with `asm`, its Rust twin `portable15`
//! without: `cargo xtask m0 --no-asm`; both portable ones on a host), and a changed message or
//! signature does not; plus a small modexp known answer.
//!
//! The private key signs the same message and must give the same signature (PKCS#1 v1.5 is
//! deterministic; the blinding randomness must not show): on the Cortex-M0 this needs
//! core-rsa's `max-bits-2048` cap, which this firmware enables for bare-metal builds, and then
//! a 3072-bit key must be refused.

use core_rsa::{
    Error, HashAlg, Implementation, Modulus, MontImpl, PrivateKey, PublicKey, RandomSource,
};

use super::{Check, ensure};

/// The core-rsa checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "rsa::modexp_small", run: modexp_small },
    Check { name: "rsa::modexp_all_ones", run: modexp_all_ones },
    Check { name: "rsa::pkcs1v15_sha256_verify_2048", run: pkcs1v15_verify_2048 },
    Check { name: "rsa::pkcs1v15_sha256_sign_2048", run: pkcs1v15_sign_2048 },
    Check { name: "rsa::max_bits_cap", run: max_bits_cap },
];

const SPKI: &[u8] =
    include_bytes!("../../../../crates/core-rsa/tests/data/rsa2048_e65537.spki.der");
const SIG: &[u8] =
    include_bytes!("../../../../crates/core-rsa/tests/data/rsa2048_e65537.sha256.sig");
const MESSAGE: &[u8] = include_bytes!("../../../../crates/core-rsa/tests/data/message.txt");
const PKCS8: &[u8] =
    include_bytes!("../../../../crates/core-rsa/tests/data/rsa2048_e65537.pkcs8.der");
const SPKI_3072: &[u8] =
    include_bytes!("../../../../crates/core-rsa/tests/data/rsa3072_e65537.spki.der");

/// A fixed xorshift32 stream for the blinding factors: any value must give the same signature.
struct Xorshift(u32);

impl RandomSource for Xorshift {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), core_hash::RandomError> {
        for b in dest {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 17;
            self.0 ^= self.0 << 5;
            *b = self.0 as u8;
        }
        Ok(())
    }
}

/// 2^10 mod 3001 = 1024, and the constant-time and variable-time paths agree on 7^1000.
fn modexp_small() -> Result<(), &'static str> {
    for imp in MontImpl::available() {
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

/// Moduli `2^(8B) − 1` (all digits all ones, so every carry of the Montgomery rows fires, in
/// the Thumb-1 assembly on the Cortex-M0) at lengths that make the rows' digit counts odd and
/// even: `2^e ≡ 2^(e mod 8B)`, `(−1)^e = ±1` and `(−2)^e = ±2^(e mod 8B)`, constant time and
/// not.
fn modexp_all_ones() -> Result<(), &'static str> {
    const E: u32 = 0x1234_5677; // odd
    let mut n = [0xffu8; 128];
    let mut base = [0u8; 128];
    let mut want = [0u8; 128];
    let mut got = [0u8; 128];
    for imp in MontImpl::available() {
        for len in [2usize, 4, 15, 16, 17, 30, 31, 32, 33, 64, 128] {
            let (n, base, want, got) =
                (&mut n[..len], &mut base[..len], &mut want[..len], &mut got[..len]);
            n.fill(0xff);
            let m = Modulus::with_impl(n, imp).map_err(|_| "modulus refused")?;
            let shift = (E % (8 * len as u32)) as usize;
            for case in 0..3 {
                base.fill(0);
                want.fill(0);
                match case {
                    // 2^E = 2^shift
                    0 => {
                        base[len - 1] = 2;
                        want[len - 1 - shift / 8] = 1 << (shift % 8);
                    }
                    // (−1)^E = −1 = n − 1
                    1 => {
                        base.copy_from_slice(n);
                        base[len - 1] = 0xfe;
                        want.copy_from_slice(base);
                    }
                    // (−2)^E = −2^shift = n − 2^shift
                    _ => {
                        base.copy_from_slice(n);
                        base[len - 1] = 0xfd;
                        want.fill(0xff);
                        want[len - 1 - shift / 8] ^= 1 << (shift % 8);
                    }
                }
                m.pow(base, &E.to_be_bytes(), got).map_err(|_| "pow failed")?;
                ensure(got == want, "pow with an all-ones modulus")?;
                m.pow_vartime(base, &E.to_be_bytes(), got).map_err(|_| "pow_vartime failed")?;
                ensure(got == want, "pow_vartime with an all-ones modulus")?;
            }
        }
    }
    Ok(())
}

fn pkcs1v15_verify_2048() -> Result<(), &'static str> {
    let portable = ["thumb1", "portable15", "portable64"];
    for imp in portable.iter().filter_map(|n| MontImpl::by_name(n)) {
        // One key at a time: each takes 2 KiB of the 16.
        let key = PublicKey::from_spki_der_with_impl(SPKI, imp).map_err(|_| "SPKI refused")?;
        ensure(key.bits() == 2048, "key size")?;
        ensure(key.verify_pkcs1v15(HashAlg::Sha256, MESSAGE, SIG).is_ok(), imp.name())?;
        ensure(
            matches!(
                key.verify_pkcs1v15(HashAlg::Sha256, b"Halite RSA test message", SIG),
                Err(Error::InvalidSignature)
            ),
            "changed message accepted",
        )?;
        let mut bad = [0u8; 256];
        bad.copy_from_slice(SIG);
        bad[100] ^= 4;
        ensure(
            matches!(
                key.verify_pkcs1v15(HashAlg::Sha256, MESSAGE, &bad),
                Err(Error::InvalidSignature)
            ),
            "changed signature accepted",
        )?;
    }
    Ok(())
}

/// The PKCS#8 key signs the message into the OpenSSL signature, with two different blinding
/// streams, on every implementation the target runs (`thumb1` on the Cortex-M0 with `asm`,
/// `portable15` without); a wrong output length is refused.
fn pkcs1v15_sign_2048() -> Result<(), &'static str> {
    for imp in MontImpl::available() {
        // Borrowed out of the Result: a move would be a second copy of the key on the stack.
        let parsed = PrivateKey::from_pkcs8_der_with_impl(PKCS8, imp);
        let Ok(key) = &parsed else { return Err("PKCS#8 key refused") };
        for seed in [0x2545_f491, 0x9e37_79b9] {
            let mut sig = [0u8; 256];
            let len = key
                .sign_pkcs1v15(HashAlg::Sha256, MESSAGE, &mut Xorshift(seed), &mut sig)
                .map_err(|_| "signing failed")?;
            ensure(len == 256 && sig[..] == *SIG, imp.name())?;
        }
        let mut short = [0u8; 255];
        ensure(
            matches!(
                key.raw_private(&short.clone(), &mut short, &mut Xorshift(1)),
                Err(Error::InvalidLength)
            ),
            "short input accepted",
        )?;
    }
    Ok(())
}

/// Keys above `core_rsa::MAX_BITS` are refused; without a cap, 3072 bits are accepted.
fn max_bits_cap() -> Result<(), &'static str> {
    let key = PublicKey::from_spki_der_with_impl(SPKI_3072, MontImpl::preferred());
    if core_rsa::MAX_BITS < 3072 {
        ensure(matches!(key, Err(Error::UnsupportedKeySize)), "3072-bit key over the cap")
    } else {
        ensure(key.is_ok_and(|k| k.bits() == 3072), "3072-bit key refused")
    }
}
