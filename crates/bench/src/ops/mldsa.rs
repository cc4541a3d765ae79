//! The post-quantum signature operations, counted in operations per second: ML-DSA-44, -65
//! and -87 (FIPS 204) key generation, signing and verification, as Halite and each peer
//! computes them, all from the same fixed seed ξ and with the empty context.
//!
//! - `keygen`: the key pair of the seed; the output is the public key, byte for byte the same
//!   in every library.
//! - `sign`: the signature of the message by the fixed key, parsed outside the timing.
//!   Halite, RustCrypto and libcrux sign deterministically (libcrux with zero randomness,
//!   which is the same); aws-lc-rs only hedged, so the agreement check compares whether the
//!   signature verifies under the fixed public key.
//! - `verify`: each library's verification of its own signature of the message.
//! - `sign-cached`: `sign` with the key expanded once beforehand (Â, and s₁, s₂ and t₀
//!   decoded or in NTT form): Halite's `ExpandedSigningKey`, against RustCrypto's `ExpandedSigningKey`,
//!   the one peer here that caches them (its `sign` row uses the same key); aws-lc-rs and
//!   libcrux re-expand on every signature and have no cached form.

use super::{Halite, Library, Op, Runner, Unit, peer};
use core_lattice::{Implementation as _, MlDsaImpl};

/// The key-generation seed ξ of every op.
pub const MLDSA_SEED: [u8; 32] = *b"Halite bench ML-DSA seed xi.....";

/// Declares the Halite and peer runners and the ops of one parameter set.
macro_rules! mldsa {
    (
        $module:ident, $ops:ident, $name:literal, $halite:ident, $rustcrypto:ident,
        $aws:ident, $aws_signing:ident, $libcrux:ident,
        keygen = $keygen:literal, sign = $sign:literal, verify = $verify:literal,
        sign_cached = $sign_cached:literal
    ) => {
        mod $module {
            use super::super::{Runner, verify_runner};
            use super::MLDSA_SEED;
            use core_lattice::MlDsaImpl;
            use core_lattice::$halite::{ExpandedSigningKey, Signature, SigningKey};

            /// Whether `sig` is a signature of `m` under the fixed key.
            pub(super) fn verifies(m: &[u8], sig: &[u8]) -> Vec<u8> {
                let key = SigningKey::from_seed(&MLDSA_SEED);
                let ok = Signature::from_bytes(sig)
                    .is_ok_and(|sig| key.verifying_key().verify(m, b"", &sig).is_ok());
                vec![u8::from(ok)]
            }

            pub(super) fn halite_keygen(imp: MlDsaImpl) -> Runner {
                Box::new(move |_, out| {
                    let key = SigningKey::from_seed_with_impl(&MLDSA_SEED, imp);
                    out.extend_from_slice(key.verifying_key().as_bytes());
                })
            }

            pub(super) fn halite_sign(imp: MlDsaImpl) -> Runner {
                let key = SigningKey::from_seed_with_impl(&MLDSA_SEED, imp);
                Box::new(move |m, out| {
                    let sig = key.sign_deterministic(m, b"").expect("an empty context");
                    out.extend_from_slice(sig.as_bytes());
                })
            }

            pub(super) fn halite_sign_cached(imp: MlDsaImpl) -> Runner {
                let key =
                    ExpandedSigningKey::new(SigningKey::from_seed_with_impl(&MLDSA_SEED, imp));
                Box::new(move |m, out| {
                    let sig = key.sign_deterministic(m, b"").expect("an empty context");
                    out.extend_from_slice(sig.as_bytes());
                })
            }

            pub(super) fn halite_verify(imp: MlDsaImpl) -> Runner {
                let key = SigningKey::from_seed_with_impl(&MLDSA_SEED, imp);
                let public = key.verifying_key().clone();
                verify_runner(
                    move |m| {
                        key.sign_deterministic(m, b"")
                            .expect("an empty context")
                            .as_bytes()
                            .to_vec()
                    },
                    move |m, sig| {
                        Signature::from_bytes(sig)
                            .is_ok_and(|sig| public.verify(m, b"", &sig).is_ok())
                    },
                )
            }

            pub(super) fn rustcrypto_keygen() -> Runner {
                use ml_dsa::{B32, Keypair as _};
                Box::new(|_, out| {
                    let key = ml_dsa::SigningKey::<ml_dsa::$rustcrypto>::from_seed(&B32::from(
                        MLDSA_SEED,
                    ));
                    out.extend_from_slice(&key.verifying_key().encode());
                })
            }

            pub(super) fn rustcrypto_sign() -> Runner {
                use ml_dsa::B32;
                let key =
                    ml_dsa::SigningKey::<ml_dsa::$rustcrypto>::from_seed(&B32::from(MLDSA_SEED));
                Box::new(move |m, out| {
                    let sig =
                        key.expanded_key().sign_deterministic(m, b"").expect("an empty context");
                    out.extend_from_slice(&sig.encode());
                })
            }

            pub(super) fn rustcrypto_verify() -> Runner {
                use ml_dsa::{B32, Keypair as _};
                let key =
                    ml_dsa::SigningKey::<ml_dsa::$rustcrypto>::from_seed(&B32::from(MLDSA_SEED));
                let public = key.verifying_key();
                verify_runner(
                    move |m| {
                        key.expanded_key()
                            .sign_deterministic(m, b"")
                            .expect("an empty context")
                            .encode()
                            .to_vec()
                    },
                    move |m, sig| {
                        ml_dsa::Signature::<ml_dsa::$rustcrypto>::try_from(sig)
                            .is_ok_and(|sig| public.verify_with_context(m, b"", &sig))
                    },
                )
            }

            pub(super) fn libcrux_keygen() -> Runner {
                use libcrux_ml_dsa::$libcrux as dsa;
                Box::new(|_, out| {
                    let pair = dsa::generate_key_pair(MLDSA_SEED);
                    out.extend_from_slice(pair.verification_key.as_slice());
                })
            }

            pub(super) fn libcrux_sign() -> Runner {
                use libcrux_ml_dsa::$libcrux as dsa;
                let pair = dsa::generate_key_pair(MLDSA_SEED);
                Box::new(move |m, out| {
                    let sig =
                        dsa::sign(&pair.signing_key, m, b"", [0; 32]).expect("an empty context");
                    out.extend_from_slice(sig.as_slice());
                })
            }

            pub(super) fn libcrux_verify() -> Runner {
                use libcrux_ml_dsa::$libcrux as dsa;
                let pair = dsa::generate_key_pair(MLDSA_SEED);
                let public = pair.verification_key.clone();
                verify_runner(
                    move |m| {
                        dsa::sign(&pair.signing_key, m, b"", [0; 32])
                            .expect("an empty context")
                            .as_slice()
                            .to_vec()
                    },
                    move |m, sig| {
                        sig.try_into().is_ok_and(|sig: [u8; _]| {
                            dsa::verify(&public, m, b"", &libcrux_ml_dsa::MLDSASignature::new(sig))
                                .is_ok()
                        })
                    },
                )
            }

            pub(super) fn aws_keygen() -> Runner {
                use aws_lc_rs::signature::{KeyPair as _, PqdsaKeyPair, $aws_signing};
                Box::new(|_, out| {
                    let key = PqdsaKeyPair::from_seed(&$aws_signing, &MLDSA_SEED)
                        .expect("a 32-byte seed");
                    out.extend_from_slice(key.public_key().as_ref());
                })
            }

            fn aws_signer() -> impl FnMut(&[u8]) -> Vec<u8> {
                use aws_lc_rs::signature::{PqdsaKeyPair, $aws_signing};
                let key =
                    PqdsaKeyPair::from_seed(&$aws_signing, &MLDSA_SEED).expect("a 32-byte seed");
                move |m| {
                    let mut sig = vec![0; $aws_signing.signature_len()];
                    key.sign(m, &mut sig).expect("signing");
                    sig
                }
            }

            pub(super) fn aws_sign() -> Runner {
                let mut sign = aws_signer();
                Box::new(move |m, out| out.extend_from_slice(&sign(m)))
            }

            pub(super) fn aws_verify() -> Runner {
                use aws_lc_rs::signature::{
                    KeyPair as _, PqdsaKeyPair, UnparsedPublicKey, $aws, $aws_signing,
                };
                let key =
                    PqdsaKeyPair::from_seed(&$aws_signing, &MLDSA_SEED).expect("a 32-byte seed");
                let public = key.public_key().as_ref().to_vec();
                verify_runner(aws_signer(), move |m, sig| {
                    UnparsedPublicKey::new(&$aws, &public).verify(m, sig).is_ok()
                })
            }
        }

        /// The three ops of one parameter set, in table order.
        fn $ops() -> Vec<Op> {
            use Library::{AwsLcRs, Libcrux, RustCrypto};
            fn keygen() -> Halite {
                halite(self::$module::halite_keygen)
            }
            fn sign() -> Halite {
                halite(self::$module::halite_sign)
            }
            fn verify() -> Halite {
                halite(self::$module::halite_verify)
            }
            fn sign_cached() -> Halite {
                halite(self::$module::halite_sign_cached)
            }
            vec![
                op(
                    $keygen,
                    concat!($name, " key generation from a fixed seed ξ"),
                    keygen,
                    None,
                    vec![
                        peer(AwsLcRs, self::$module::aws_keygen),
                        peer(Libcrux, self::$module::libcrux_keygen),
                        peer(RustCrypto, self::$module::rustcrypto_keygen),
                    ],
                ),
                op(
                    $sign,
                    concat!(
                        $name,
                        " signing (deterministic where the API allows, else hedged), empty context"
                    ),
                    sign,
                    Some(self::$module::verifies),
                    vec![
                        peer(AwsLcRs, self::$module::aws_sign),
                        peer(Libcrux, self::$module::libcrux_sign),
                        peer(RustCrypto, self::$module::rustcrypto_sign),
                    ],
                ),
                op(
                    $verify,
                    concat!(
                        $name,
                        " verification of a signature of the message, parsing the signature"
                    ),
                    verify,
                    None,
                    vec![
                        peer(AwsLcRs, self::$module::aws_verify),
                        peer(Libcrux, self::$module::libcrux_verify),
                        peer(RustCrypto, self::$module::rustcrypto_verify),
                    ],
                ),
                op(
                    $sign_cached,
                    concat!(
                        $name,
                        " deterministic signing with a key expanded beforehand, empty context"
                    ),
                    sign_cached,
                    Some(self::$module::verifies),
                    vec![peer(RustCrypto, self::$module::rustcrypto_sign)],
                ),
            ]
        }
    };
}

mldsa!(
    p44,
    ops_44,
    "ML-DSA-44",
    mldsa44,
    MlDsa44,
    ML_DSA_44,
    ML_DSA_44_SIGNING,
    ml_dsa_44,
    keygen = "mldsa44-keygen",
    sign = "mldsa44-sign",
    verify = "mldsa44-verify",
    sign_cached = "mldsa44-sign-cached"
);
mldsa!(
    p65,
    ops_65,
    "ML-DSA-65",
    mldsa65,
    MlDsa65,
    ML_DSA_65,
    ML_DSA_65_SIGNING,
    ml_dsa_65,
    keygen = "mldsa65-keygen",
    sign = "mldsa65-sign",
    verify = "mldsa65-verify",
    sign_cached = "mldsa65-sign-cached"
);
mldsa!(
    p87,
    ops_87,
    "ML-DSA-87",
    mldsa87,
    MlDsa87,
    ML_DSA_87,
    ML_DSA_87_SIGNING,
    ml_dsa_87,
    keygen = "mldsa87-keygen",
    sign = "mldsa87-sign",
    verify = "mldsa87-verify",
    sign_cached = "mldsa87-sign-cached"
);

/// An operation counted in operations per second, without an OpenSSL column.
fn op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    canonical: Option<super::Canonical>,
    peers: Vec<Option<super::Peer>>,
) -> Op {
    Op {
        id,
        group: "mldsa",
        what,
        unit: Unit::Ops,
        sizes: None,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: None,
        canonical,
    }
}

/// Halite's side of an ML-DSA op: the default, then each implementation.
fn halite(run: fn(MlDsaImpl) -> Runner) -> Halite {
    Halite {
        default_impl: MlDsaImpl::best().name().to_owned(),
        default: run(MlDsaImpl::best()),
        impls: MlDsaImpl::available().map(|imp| (imp.name().to_owned(), run(imp))).collect(),
    }
}

/// The ML-DSA operations, in table order.
pub(super) fn ops() -> Vec<Op> {
    let mut ops = ops_44();
    ops.extend(ops_65());
    ops.extend(ops_87());
    ops
}
