//! The key-encapsulation operations, counted in operations per second: ML-KEM-512, -768 and
//! -1024 (FIPS 203) key generation, encapsulation and decapsulation, as Halite and each peer
//! computes them. The message is not used: every library works on the same fixed seeds, so the
//! same key pair and (where the API takes the randomness) the same ciphertext.
//!
//! - `keygen`: a key pair from the 64-byte seed (d, z); the output is the encapsulation key.
//!   aws-lc-rs draws its own seed, so the agreement check compares whether the output is a
//!   valid encapsulation key of the right length (each parameter set's `valid_ek`).
//! - `encaps`: parses the fixed encapsulation key (the modulus check of FIPS 203 §7.2, and in
//!   Halite its hash H(ek)) and encapsulates to it, as a TLS server does with a client's
//!   share; the output is the ciphertext and the shared key, which the agreement check
//!   decapsulates with the fixed decapsulation key (each parameter set's `decapsulates`).
//! - `decaps`: the shared key of a fixed ciphertext under the fixed decapsulation key, parsed
//!   outside the timing (a server keeps its key); byte for byte the same in every library.

use super::{Canonical, Halite, Library, Op, Peer, Runner, Unit, peer};
use core_lattice::{Implementation as _, MlKemImpl};

/// The key-generation seed d of every op.
pub const MLKEM_D: [u8; 32] = *b"Halite bench ML-KEM seed d......";
/// The implicit-rejection seed z of every op.
pub const MLKEM_Z: [u8; 32] = *b"Halite bench ML-KEM seed z......";
/// The encapsulation randomness m of every op whose API takes it.
pub const MLKEM_M: [u8; 32] = *b"Halite bench ML-KEM message m...";

/// An operation counted in operations per second, without an OpenSSL column.
fn kem_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    canonical: Option<Canonical>,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "kem",
        what,
        unit: Unit::Ops,
        sizes: None,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: None,
        canonical,
    }
}

/// Declares the Halite and peer runners and the ops of one parameter set.
macro_rules! mlkem {
    (
        $module:ident, $ops:ident, $name:literal, $halite:ident, $rustcrypto:ident,
        $aws:ident, $libcrux:ident,
        keygen = $keygen:literal, encaps = $encaps:literal, decaps = $decaps:literal
    ) => {
        mod $module {
            use super::super::Runner;
            use super::{MLKEM_D, MLKEM_M, MLKEM_Z};
            use core_lattice::MlKemImpl;
            use core_lattice::$halite::{Ciphertext, DecapsulationKey, EncapsulationKey};

            /// Halite's fixed key pair, the ciphertext of `MLKEM_M` and its shared key.
            pub(super) fn fixed() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
                let dk = DecapsulationKey::from_seed(&MLKEM_D, &MLKEM_Z);
                let (ct, _) = dk.encapsulation_key().encapsulate_deterministic(&MLKEM_M);
                (
                    dk.encapsulation_key().as_bytes().to_vec(),
                    dk.as_bytes().to_vec(),
                    ct.as_bytes().to_vec(),
                )
            }

            /// Whether `ek` is a valid encapsulation key of this parameter set.
            pub(super) fn valid_ek(ek: &[u8]) -> bool {
                EncapsulationKey::from_bytes(ek).is_ok()
            }

            /// Whether `out` is a ciphertext followed by the shared key it carries under the
            /// fixed key pair.
            pub(super) fn decapsulates(out: &[u8]) -> bool {
                let Some((ct, k)) = out.split_at_checked(out.len().saturating_sub(32)) else {
                    return false;
                };
                let dk = DecapsulationKey::from_seed(&MLKEM_D, &MLKEM_Z);
                Ciphertext::from_bytes(ct).is_ok_and(|ct| dk.decapsulate(&ct).as_bytes() == k)
            }

            pub(super) fn halite_keygen(imp: MlKemImpl) -> Runner {
                Box::new(move |_, out| {
                    let dk = DecapsulationKey::from_seed_with_impl(&MLKEM_D, &MLKEM_Z, imp);
                    out.extend_from_slice(dk.encapsulation_key().as_bytes());
                })
            }

            pub(super) fn halite_encaps(imp: MlKemImpl) -> Runner {
                let (ek, _, _) = fixed();
                Box::new(move |_, out| {
                    let mut key = EncapsulationKey::from_bytes(&ek).expect("a valid key");
                    key.set_implementation(imp);
                    let (ct, k) = key.encapsulate_deterministic(&MLKEM_M);
                    out.extend_from_slice(ct.as_bytes());
                    out.extend_from_slice(k.as_bytes());
                })
            }

            pub(super) fn halite_decaps(imp: MlKemImpl) -> Runner {
                let (_, dk, ct) = fixed();
                let mut dk = DecapsulationKey::from_bytes(&dk).expect("a valid key");
                dk.set_implementation(imp);
                Box::new(move |_, out| {
                    let ct = Ciphertext::from_bytes(&ct).expect("the right length");
                    out.extend_from_slice(dk.decapsulate(&ct).as_bytes());
                })
            }

            pub(super) fn rustcrypto_keygen() -> Runner {
                use ml_kem::{B32, EncodedSizeUser as _, KemCore as _};
                Box::new(|_, out| {
                    let (_, ek) = ml_kem::$rustcrypto::generate_deterministic(
                        &B32::from(MLKEM_D),
                        &B32::from(MLKEM_Z),
                    );
                    out.extend_from_slice(&ek.as_bytes());
                })
            }

            pub(super) fn rustcrypto_encaps() -> Runner {
                use ml_kem::{B32, EncapsulateDeterministic as _, EncodedSizeUser as _, KemCore};
                type Ek = <ml_kem::$rustcrypto as KemCore>::EncapsulationKey;
                let (ek, _, _) = fixed();
                Box::new(move |_, out| {
                    let encoded = ek.as_slice().try_into().expect("the right length");
                    let key = Ek::from_bytes(encoded);
                    let (ct, k) =
                        key.encapsulate_deterministic(&B32::from(MLKEM_M)).expect("infallible");
                    out.extend_from_slice(&ct);
                    out.extend_from_slice(&k);
                })
            }

            pub(super) fn rustcrypto_decaps() -> Runner {
                use ml_kem::kem::Decapsulate as _;
                use ml_kem::{EncodedSizeUser as _, KemCore};
                type Dk = <ml_kem::$rustcrypto as KemCore>::DecapsulationKey;
                let (_, dk, ct) = fixed();
                let dk = Dk::from_bytes(dk.as_slice().try_into().expect("the right length"));
                Box::new(move |_, out| {
                    let ct = ml_kem::Ciphertext::<ml_kem::$rustcrypto>::try_from(ct.as_slice())
                        .expect("the right length");
                    out.extend_from_slice(&dk.decapsulate(&ct).expect("infallible"));
                })
            }

            pub(super) fn aws_keygen() -> Runner {
                use aws_lc_rs::kem::{DecapsulationKey, $aws};
                Box::new(|_, out| {
                    let dk = DecapsulationKey::generate(&$aws).expect("key generation");
                    let ek = dk.encapsulation_key().expect("the public key");
                    out.extend_from_slice(ek.key_bytes().expect("encoding").as_ref());
                })
            }

            pub(super) fn aws_encaps() -> Runner {
                use aws_lc_rs::kem::{EncapsulationKey, $aws};
                let (ek, _, _) = fixed();
                Box::new(move |_, out| {
                    let key = EncapsulationKey::new(&$aws, &ek).expect("a valid key");
                    let (ct, k) = key.encapsulate().expect("encapsulation");
                    out.extend_from_slice(ct.as_ref());
                    out.extend_from_slice(k.as_ref());
                })
            }

            pub(super) fn aws_decaps() -> Runner {
                use aws_lc_rs::kem::{Ciphertext, DecapsulationKey, $aws};
                let (_, dk, ct) = fixed();
                let dk = DecapsulationKey::new(&$aws, &dk).expect("a valid key");
                Box::new(move |_, out| {
                    let k = dk.decapsulate(Ciphertext::from(ct.as_slice())).expect("decapsulation");
                    out.extend_from_slice(k.as_ref());
                })
            }

            fn seed() -> [u8; 64] {
                let mut seed = [0u8; 64];
                seed[..32].copy_from_slice(&MLKEM_D);
                seed[32..].copy_from_slice(&MLKEM_Z);
                seed
            }

            pub(super) fn libcrux_keygen() -> Runner {
                use libcrux_ml_kem::$libcrux as kem;
                Box::new(|_, out| {
                    let pair = kem::generate_key_pair(seed());
                    out.extend_from_slice(pair.pk());
                })
            }

            pub(super) fn libcrux_encaps() -> Runner {
                use libcrux_ml_kem::$libcrux as kem;
                let (ek, _, _) = fixed();
                Box::new(move |_, out| {
                    let key = ek.as_slice().try_into().expect("the right length");
                    assert!(kem::validate_public_key(&key), "a valid key");
                    let (ct, k) = kem::encapsulate(&key, MLKEM_M);
                    out.extend_from_slice(ct.as_slice());
                    out.extend_from_slice(&k);
                })
            }

            pub(super) fn libcrux_decaps() -> Runner {
                use libcrux_ml_kem::$libcrux as kem;
                let (_, dk, ct) = fixed();
                let dk = dk.as_slice().try_into().expect("the right length");
                Box::new(move |_, out| {
                    let ct = ct.as_slice().try_into().expect("the right length");
                    out.extend_from_slice(&kem::decapsulate(&dk, &ct));
                })
            }
        }

        /// The three ops of one parameter set, in table order.
        fn $ops() -> Vec<Op> {
            use Library::{AwsLcRs, Libcrux, RustCrypto};
            fn keygen() -> Halite {
                halite(self::$module::halite_keygen)
            }
            fn encaps() -> Halite {
                halite(self::$module::halite_encaps)
            }
            fn decaps() -> Halite {
                halite(self::$module::halite_decaps)
            }
            fn valid(_: &[u8], out: &[u8]) -> Vec<u8> {
                vec![u8::from(self::$module::valid_ek(out))]
            }
            fn decapsulates(_: &[u8], out: &[u8]) -> Vec<u8> {
                vec![u8::from(self::$module::decapsulates(out))]
            }
            vec![
                kem_op(
                    $keygen,
                    concat!($name, " key generation from a fixed seed (d, z)"),
                    keygen,
                    Some(valid),
                    vec![
                        peer(AwsLcRs, self::$module::aws_keygen),
                        peer(Libcrux, self::$module::libcrux_keygen),
                        peer(RustCrypto, self::$module::rustcrypto_keygen),
                    ],
                ),
                kem_op(
                    $encaps,
                    concat!($name, " encapsulation, parsing and checking the key first"),
                    encaps,
                    Some(decapsulates),
                    vec![
                        peer(AwsLcRs, self::$module::aws_encaps),
                        peer(Libcrux, self::$module::libcrux_encaps),
                        peer(RustCrypto, self::$module::rustcrypto_encaps),
                    ],
                ),
                kem_op(
                    $decaps,
                    concat!($name, " decapsulation of a fixed ciphertext"),
                    decaps,
                    None,
                    vec![
                        peer(AwsLcRs, self::$module::aws_decaps),
                        peer(Libcrux, self::$module::libcrux_decaps),
                        peer(RustCrypto, self::$module::rustcrypto_decaps),
                    ],
                ),
            ]
        }
    };
}

mlkem!(
    p512,
    ops_512,
    "ML-KEM-512",
    mlkem512,
    MlKem512,
    ML_KEM_512,
    mlkem512,
    keygen = "mlkem512-keygen",
    encaps = "mlkem512-encaps",
    decaps = "mlkem512-decaps"
);
mlkem!(
    p768,
    ops_768,
    "ML-KEM-768",
    mlkem768,
    MlKem768,
    ML_KEM_768,
    mlkem768,
    keygen = "mlkem768-keygen",
    encaps = "mlkem768-encaps",
    decaps = "mlkem768-decaps"
);
mlkem!(
    p1024,
    ops_1024,
    "ML-KEM-1024",
    mlkem1024,
    MlKem1024,
    ML_KEM_1024,
    mlkem1024,
    keygen = "mlkem1024-keygen",
    encaps = "mlkem1024-encaps",
    decaps = "mlkem1024-decaps"
);

/// Halite's side of an ML-KEM op: the default, then each implementation.
fn halite(run: fn(MlKemImpl) -> Runner) -> Halite {
    Halite {
        default_impl: MlKemImpl::best().name().to_owned(),
        default: run(MlKemImpl::best()),
        impls: MlKemImpl::available().map(|imp| (imp.name().to_owned(), run(imp))).collect(),
    }
}

/// The ML-KEM operations, in table order.
pub(super) fn ops() -> Vec<Op> {
    let mut ops = ops_512();
    ops.extend(ops_768());
    ops.extend(ops_1024());
    ops
}
