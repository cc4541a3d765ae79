//! Checks of ML-DSA-44 verification on the firmware (`portable`, streamed, on the Cortex-M0):
//! a deterministic signature of a short message under the key of a fixed seed verifies, and
//! the same signature with one bit flipped does not. The key and signature are stored as
//! bytes (`data/mldsa44.pk`, `data/mldsa44.sig`, 3.7 KB of flash): key generation and signing
//! need more stack than the micro:bit's 16 KiB leave. The host test below recomputes both from
//! RustCrypto's `ml-dsa`, so the bytes are independent of the code under test.

use core_lattice::mldsa44::{SIGNATURE_LEN, VerifyingKey};

use super::{Check, ensure};

/// The ML-DSA checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "mldsa::mldsa44_verify", run: verify },
    Check { name: "mldsa::mldsa44_verify_flipped_bit", run: verify_flipped },
];

/// ML-DSA.KeyGen(ξ) of ξ = 00 01 … 1f, encoded (FIPS 204 Algorithm 22).
const PK: &[u8] = include_bytes!("../../data/mldsa44.pk");
/// ML-DSA.Sign(sk, [`MSG`], ctx = "") of that key, deterministic variant.
const SIG: &[u8] = include_bytes!("../../data/mldsa44.sig");
/// The signed message.
const MSG: &[u8] = b"m0-kat: ML-DSA-44 on a Cortex-M0";
/// The signature byte and bit [`verify_flipped`] flips: in z, the middle of the signature.
const FLIP: (usize, u8) = (1210, 0x10);

/// Verifies [`SIG`] with one byte of it xored with `flip`: the copy verified in place
/// ([`VerifyingKey::verify_bytes`]) and the key matched out of its `Result` (not moved by
/// `map_err(..)?`), so one copy of each is on the stack.
#[inline(never)]
fn verify_with(flip: (usize, u8)) -> Result<Result<(), core_lattice::Error>, &'static str> {
    let Ok(key) = VerifyingKey::from_bytes(PK) else { return Err("public key refused") };
    let mut bytes: [u8; SIGNATURE_LEN] = SIG.try_into().map_err(|_| "short signature")?;
    bytes[flip.0] ^= flip.1;
    Ok(key.verify_bytes(MSG, b"", &bytes))
}

/// ML-DSA.Verify(pk, [`MSG`], [`SIG`], ctx = ""): valid.
fn verify() -> Result<(), &'static str> {
    ensure(verify_with((0, 0))?.is_ok(), "valid signature refused")
}

/// The same with one bit of z flipped: refused.
fn verify_flipped() -> Result<(), &'static str> {
    ensure(verify_with(FLIP)?.is_err(), "modified signature accepted")
}

#[cfg(test)]
mod tests {
    use super::*;
    use ml_dsa::{B32, Keypair, MlDsa44, MlDsa65};

    /// The stored keys and signatures (ML-DSA-44 here; ML-DSA-44 and -65 in m0-cost's rows)
    /// are what RustCrypto's `ml-dsa` computes from the seed.
    #[test]
    fn bytes_are_rustcryptos() {
        let seed = B32::from(core::array::from_fn::<u8, 32, _>(|i| i as u8));
        let key = ml_dsa::SigningKey::<MlDsa44>::from_seed(&seed);
        let sig = key.expanded_key().sign_deterministic(MSG, b"").unwrap();
        assert_eq!(&key.verifying_key().encode()[..], PK);
        assert_eq!(&sig.encode()[..], SIG);
        let key = ml_dsa::SigningKey::<MlDsa65>::from_seed(&seed);
        let sig = key.expanded_key().sign_deterministic(MSG, b"").unwrap();
        assert_eq!(&key.verifying_key().encode()[..], include_bytes!("../../data/mldsa65.pk"));
        assert_eq!(&sig.encode()[..], include_bytes!("../../data/mldsa65.sig"));
    }
}
