//! Checks for `core-lattice` on the firmware: ML-KEM-768 key generation from fixed seeds `d`
//! and `z`, encapsulation from a fixed `m`, decapsulation of that ciphertext and of a
//! modified one (implicit rejection), on every implementation the firmware has (`thumb1`, the
//! default, and `portable`: the same known answers for both). Keys and ciphertexts are checked by their SHA3-256 digests, which keeps more
//! than 6 KB of expected bytes out of the flash; the host test below recomputes every
//! digest and shared key from RustCrypto's `ml-kem`, so the constants are independent of the
//! code under test.

use core_hash::Sha3_256;
use core_lattice::mlkem768::{
    CIPHERTEXT_LEN, Ciphertext, DecapsulationKey, ENCAPSULATION_KEY_LEN, EncapsulationKey,
};
use core_lattice::{Implementation, MlKemImpl};
use hex_literal::hex;

use super::{Check, ensure};

/// The core-lattice checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "mlkem::mlkem768_keygen", run: keygen },
    Check { name: "mlkem::mlkem768_encaps", run: encaps },
    Check { name: "mlkem::mlkem768_decaps", run: decaps },
    Check { name: "mlkem::mlkem768_decaps_implicit_rejection", run: decaps_rejection },
];

/// The key generation seeds and the encapsulation message.
const D: [u8; 32] = hex!("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
const Z: [u8; 32] = hex!("202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f");
const M: [u8; 32] = hex!("404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f");
/// The ciphertext byte and bit the implicit-rejection check flips.
const FLIP: (usize, u8) = (CIPHERTEXT_LEN / 2, 0x01);

/// SHA3-256 of the encapsulation key of `D`, `Z`.
const EK_SHA3: [u8; 32] = hex!("a24e16d8f8f9383a95b77050f4d9fd2f5733eec1d63ef3c23ebf9918173669a7");
/// SHA3-256 of the decapsulation key of `D`, `Z`.
const DK_SHA3: [u8; 32] = hex!("1149f17c3c4ac6ab1e3e2d9d8bd0171355ac0fa31bb8855c48ceade874c0864b");
/// SHA3-256 of the ciphertext of `M` to that key.
const CT_SHA3: [u8; 32] = hex!("b4cfbd24cef67afd3764276c6980e0f88f8e9ca57f59b7f12fe1a9c1e72f4710");
/// The shared key of `M`.
const K: [u8; 32] = hex!("9cddd089ffe70e3996e76f7c8d06746df34d07e8657bc0fcf2bb0e1c3084aea1");
/// The implicit-rejection key of the ciphertext with [`FLIP`] applied.
const K_REJECTED: [u8; 32] =
    hex!("22aa21c80f71b6b3d35bcf155527341f127460263742b4f9c0ad851926ac46d8");

// The micro:bit has 16 KiB of RAM, and a frame is allocated whole when its function starts.
// So each check holds the decapsulation key it makes (2400 bytes) and little else, and what
// needs more keys or ciphertexts at once is out of line, called after key generation has
// returned: never one key generation below another's frames.

/// ML-KEM.KeyGen_internal(D, Z): both keys by digest (the encapsulation key is the middle
/// of the decapsulation key), and the encapsulation key passes the §7.2 modulus check.
fn keygen() -> Result<(), &'static str> {
    for imp in MlKemImpl::available() {
        let dk = DecapsulationKey::from_seed_with_impl(&D, &Z, imp);
        check_keys(dk.as_bytes())?;
    }
    Ok(())
}

/// Where the encapsulation key starts in the decapsulation key: after ŝ (384·k bytes).
const EK_AT: usize = 384 * 3;

/// [`keygen`]'s checks of the decapsulation key's bytes.
#[inline(never)]
fn check_keys(dk: &[u8]) -> Result<(), &'static str> {
    ensure(Sha3_256::digest(dk) == DK_SHA3, "wrong decapsulation key")?;
    let ek = dk.get(EK_AT..EK_AT + ENCAPSULATION_KEY_LEN).ok_or("short key")?;
    ensure(Sha3_256::digest(ek) == EK_SHA3, "wrong encapsulation key")?;
    ensure(EncapsulationKey::from_bytes(ek).is_ok(), "encapsulation key refused")
}

/// ML-KEM.Encaps_internal(ek, M) to the key of `D`, `Z`: the ciphertext by digest and the
/// shared key.
fn encaps() -> Result<(), &'static str> {
    for imp in MlKemImpl::available() {
        let dk = DecapsulationKey::from_seed_with_impl(&D, &Z, imp);
        encaps_to(&dk)?;
    }
    Ok(())
}

/// [`encaps`] once the key is made.
#[inline(never)]
fn encaps_to(dk: &DecapsulationKey) -> Result<(), &'static str> {
    let (ct, k) = dk.encapsulation_key().encapsulate_deterministic(&M);
    ensure(Sha3_256::digest(ct.as_bytes()) == CT_SHA3, "wrong ciphertext")?;
    ensure(k.as_bytes() == &K, "wrong shared key")
}

/// The ciphertext of `M` to `dk`'s key, with [`FLIP`] applied if `flip`.
#[inline(never)]
fn ciphertext_to(dk: &DecapsulationKey, flip: bool) -> Result<Ciphertext, &'static str> {
    let mut bytes = *dk.encapsulation_key().encapsulate_deterministic(&M).0.as_bytes();
    if flip {
        bytes[FLIP.0] ^= FLIP.1;
    }
    Ciphertext::from_bytes(&bytes).map_err(|_| "ciphertext refused")
}

/// ML-KEM.Decaps of the ciphertext of `M`: its shared key.
fn decaps() -> Result<(), &'static str> {
    for imp in MlKemImpl::available() {
        let dk = DecapsulationKey::from_seed_with_impl(&D, &Z, imp);
        let ct = ciphertext_to(&dk, false)?;
        ensure(dk.decapsulate(&ct).as_bytes() == &K, "wrong shared key")?;
    }
    Ok(())
}

/// ML-KEM.Decaps of that ciphertext with one bit flipped: J(z ‖ c), not the shared key.
fn decaps_rejection() -> Result<(), &'static str> {
    for imp in MlKemImpl::available() {
        let dk = DecapsulationKey::from_seed_with_impl(&D, &Z, imp);
        let ct = ciphertext_to(&dk, true)?;
        ensure(dk.decapsulate(&ct).as_bytes() == &K_REJECTED, "wrong implicit-rejection key")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write as _;
    use ml_kem::kem::Decapsulate;
    use ml_kem::{B32, EncapsulateDeterministic, EncodedSizeUser, KemCore, MlKem768};

    /// Every constant above is what RustCrypto's `ml-kem` computes from the same inputs.
    #[test]
    fn constants_are_rustcryptos() {
        let (dk, ek) = MlKem768::generate_deterministic(&B32::from(D), &B32::from(Z));
        let (ct, k) = ek.encapsulate_deterministic(&B32::from(M)).unwrap();
        let mut bad = ct;
        bad[FLIP.0] ^= FLIP.1;
        let k_bad = dk.decapsulate(&bad).unwrap();
        let hex = |b: &[u8]| {
            b.iter().fold(String::new(), |mut s, x| {
                let _ = write!(s, "{x:02x}");
                s
            })
        };
        let got = [
            ("EK_SHA3", Sha3_256::digest(ek.as_bytes().as_slice())),
            ("DK_SHA3", Sha3_256::digest(dk.as_bytes().as_slice())),
            ("CT_SHA3", Sha3_256::digest(ct.as_slice())),
            ("K", k.into()),
            ("K_REJECTED", k_bad.into()),
        ];
        let want = [EK_SHA3, DK_SHA3, CT_SHA3, K, K_REJECTED];
        let wrong: Vec<String> = got
            .iter()
            .zip(want)
            .filter(|((_, got), want)| got != want)
            .map(|((name, got), _)| format!("{name} should be {}", hex(got)))
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
}
