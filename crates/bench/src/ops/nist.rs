//! The NIST-curve operations, counted in operations per second: ECDH with fixed keys, ECDSA
//! signing (SHA-256 on P-256, SHA-384 on P-384; output `r ‖ s`) and verification, on P-256 and
//! P-384, as Halite and each peer computes them. Every library uses the same key (imported
//! from the scalar, or from the PKCS#8 document Halite exports for it). ring and aws-lc-rs
//! sign with random nonces, so signatures are compared by whether Halite verifies them.

use super::{Halite, Library, Op, Peer, Runner, Unit, peer, verify_runner};
use core_ec::Implementation as _;

/// An ECDSA or ECDH operation, in operations per second; no `openssl-speed` column (its
/// public-key output is not parsed yet).
fn nist_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    canonical: Option<super::Canonical>,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "ec",
        what,
        unit: Unit::Ops,
        sizes: None,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: None,
        canonical,
    }
}

macro_rules! curve_ops {
    (
        $curve:ident, $imp:ident, $len:literal, $hash:ty, $ring_sign:ident, $ring_verify:ident,
        $ring_ecdh:ident, $rc:ident, $graviola:ty, $secret:expr, $peer_secret:expr
    ) => {
        #[doc = concat!("The ", stringify!($curve), " operations.")]
        pub mod $curve {
            use super::*;
            use ::$rc as rc;
            use core_ec::$curve as halite;

            /// The private scalar of every op.
            pub const SECRET: [u8; $len] = $secret;
            /// The peer's private scalar (its public key is what ECDH derives against).
            pub const PEER_SECRET: [u8; $len] = $peer_secret;

            fn peer_public() -> Vec<u8> {
                let key = halite::SecretKey::from_bytes(&PEER_SECRET).expect("a valid scalar");
                key.public_key().to_sec1_bytes().to_vec()
            }

            fn public() -> Vec<u8> {
                let key = halite::SecretKey::from_bytes(&SECRET).expect("a valid scalar");
                key.public_key().to_sec1_bytes().to_vec()
            }

            fn pkcs8() -> Vec<u8> {
                let key = halite::SecretKey::from_bytes(&SECRET).expect("a valid scalar");
                let mut out = vec![0; 512];
                let n = key.to_pkcs8_der(&mut out).expect("room for the document");
                out.truncate(n);
                out
            }

            /// Whether Halite verifies `sig` (`r ‖ s`) of `message` under [`SECRET`]'s key.
            pub fn verifies(message: &[u8], sig: &[u8]) -> Vec<u8> {
                let key = halite::PublicKey::from_sec1_bytes(&public()).expect("a valid key");
                let ok = halite::Signature::from_bytes(sig)
                    .is_ok_and(|sig| key.verify(message, &sig).is_ok());
                vec![u8::from(ok)]
            }

            pub(in super::super) fn ops() -> Vec<Op> {
                use Library::{AwsLcRs, Ring, RustCrypto};
                vec![
                    nist_op(
                        concat!(stringify!($curve), "-ecdh"),
                        concat!(stringify!($curve), " ECDH shared secret from fixed keys"),
                        halite_ecdh,
                        None,
                        vec![
                            peer(AwsLcRs, aws_ecdh),
                            graviola!(graviola_ecdh),
                            peer(RustCrypto, rustcrypto_ecdh),
                        ],
                    ),
                    nist_op(
                        concat!(stringify!($curve), "-ecdsa-sign"),
                        concat!("ECDSA ", stringify!($curve), " signature of the message"),
                        halite_sign,
                        Some(verifies),
                        vec![
                            peer(Ring, ring_sign),
                            peer(AwsLcRs, aws_sign),
                            graviola!(graviola_sign),
                            peer(RustCrypto, rustcrypto_sign),
                        ],
                    ),
                    nist_op(
                        concat!(stringify!($curve), "-ecdsa-verify"),
                        concat!("ECDSA ", stringify!($curve), " verification of a signature"),
                        halite_verify,
                        None,
                        vec![
                            peer(Ring, ring_verify),
                            peer(AwsLcRs, aws_verify),
                            graviola!(graviola_verify),
                            peer(RustCrypto, rustcrypto_verify),
                        ],
                    ),
                ]
            }

            fn halite_each(run: fn(halite::$imp) -> Runner) -> Halite {
                use halite::$imp as NistImpl;
                Halite {
                    default_impl: NistImpl::best().name().to_owned(),
                    default: run(NistImpl::best()),
                    impls: NistImpl::available().map(|i| (i.name().to_owned(), run(i))).collect(),
                }
            }

            fn signing(imp: halite::$imp) -> halite::SigningKey {
                halite::SigningKey::from(
                    halite::SecretKey::from_bytes_with_impl(&SECRET, imp).expect("a valid scalar"),
                )
            }

            /// Halite's ECDH.
            pub fn halite_ecdh() -> Halite {
                halite_each(|imp| {
                    let key = halite::SecretKey::from_bytes_with_impl(&SECRET, imp)
                        .expect("a valid scalar");
                    let peer = halite::PublicKey::from_sec1_bytes_with_impl(&peer_public(), imp)
                        .expect("a valid key");
                    Box::new(move |_, out| {
                        let s = key.diffie_hellman(&peer).expect("a valid peer");
                        out.extend_from_slice(s.as_bytes());
                    })
                })
            }

            /// Halite's ECDSA signing.
            pub fn halite_sign() -> Halite {
                halite_each(|imp| {
                    let key = signing(imp);
                    Box::new(move |m, out| out.extend_from_slice(&key.sign(m).to_bytes()))
                })
            }

            /// Halite's ECDSA verification.
            pub fn halite_verify() -> Halite {
                halite_each(|imp| {
                    let key = signing(imp);
                    let public = halite::PublicKey::from_sec1_bytes_with_impl(&public(), imp)
                        .expect("a valid key");
                    verify_runner(
                        move |m| key.sign(m).to_bytes().to_vec(),
                        move |m, sig| {
                            halite::Signature::from_bytes(sig)
                                .is_ok_and(|sig| public.verify(m, &sig).is_ok())
                        },
                    )
                })
            }

            /// aws-lc-rs's ECDH with a static key.
            pub fn aws_ecdh() -> Runner {
                use aws_lc_rs::agreement::{PrivateKey, UnparsedPublicKey, agree, $ring_ecdh};
                let key = PrivateKey::from_private_key(&$ring_ecdh, &SECRET).expect("a key");
                let peer = peer_public();
                Box::new(move |_, out| {
                    agree(&key, UnparsedPublicKey::new(&$ring_ecdh, &peer), (), |s| {
                        out.extend_from_slice(s);
                        Ok(())
                    })
                    .expect("a valid peer");
                })
            }

            /// graviola's ECDH with a static key.
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            pub fn graviola_ecdh() -> Runner {
                use graviola::key_agreement::$curve::{PublicKey, StaticPrivateKey};
                let key = StaticPrivateKey::from_bytes(&SECRET).expect("a key");
                let peer = PublicKey::from_x962_uncompressed(&peer_public()).expect("a key");
                Box::new(move |_, out| {
                    out.extend_from_slice(&key.diffie_hellman(&peer).expect("a peer").0);
                })
            }

            /// RustCrypto's ECDH.
            pub fn rustcrypto_ecdh() -> Runner {
                let key = rc::SecretKey::from_slice(&SECRET).expect("a key");
                let peer = rc::PublicKey::from_sec1_bytes(&peer_public()).expect("a key");
                Box::new(move |_, out| {
                    let s = rc::ecdh::diffie_hellman(key.to_nonzero_scalar(), peer.as_affine());
                    out.extend_from_slice(s.raw_secret_bytes());
                })
            }

            /// ring's ECDSA signing (random nonces).
            pub fn ring_sign() -> Runner {
                use ring::signature::{EcdsaKeyPair, $ring_sign};
                let rng = ring::rand::SystemRandom::new();
                let key = EcdsaKeyPair::from_pkcs8(&$ring_sign, &pkcs8(), &rng).expect("a key");
                Box::new(move |m, out| {
                    out.extend_from_slice(key.sign(&rng, m).expect("a signature").as_ref());
                })
            }

            /// aws-lc-rs's ECDSA signing (random nonces).
            pub fn aws_sign() -> Runner {
                use aws_lc_rs::signature::{EcdsaKeyPair, $ring_sign};
                let rng = aws_lc_rs::rand::SystemRandom::new();
                let key = EcdsaKeyPair::from_pkcs8(&$ring_sign, &pkcs8()).expect("a key");
                Box::new(move |m, out| {
                    out.extend_from_slice(key.sign(&rng, m).expect("a signature").as_ref());
                })
            }

            /// graviola's ECDSA signing (RFC 6979 nonces hedged with randomness).
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            pub fn graviola_sign() -> Runner {
                use graviola::signing::ecdsa::SigningKey;
                let key = SigningKey::<$graviola>::from_pkcs8_der(&pkcs8()).expect("a key");
                Box::new(move |m, out| {
                    let mut sig = [0u8; 2 * $len];
                    let sig = key.sign::<$hash>(&[m], &mut sig).expect("a signature");
                    out.extend_from_slice(sig);
                })
            }

            /// RustCrypto's ECDSA signing (RFC 6979 nonces).
            pub fn rustcrypto_sign() -> Runner {
                use rc::ecdsa::signature::Signer as _;
                let key = rc::ecdsa::SigningKey::from_slice(&SECRET).expect("a key");
                Box::new(move |m, out| {
                    let sig: rc::ecdsa::Signature = key.sign(m);
                    out.extend_from_slice(&sig.to_bytes());
                })
            }

            /// ring's ECDSA verification.
            pub fn ring_verify() -> Runner {
                use ring::signature::{EcdsaKeyPair, UnparsedPublicKey, $ring_sign, $ring_verify};
                let rng = ring::rand::SystemRandom::new();
                let key = EcdsaKeyPair::from_pkcs8(&$ring_sign, &pkcs8(), &rng).expect("a key");
                let public = public();
                verify_runner(
                    move |m| key.sign(&rng, m).expect("a signature").as_ref().to_vec(),
                    move |m, sig| {
                        UnparsedPublicKey::new(&$ring_verify, &public).verify(m, sig).is_ok()
                    },
                )
            }

            /// aws-lc-rs's ECDSA verification.
            pub fn aws_verify() -> Runner {
                use aws_lc_rs::signature::{
                    EcdsaKeyPair, UnparsedPublicKey, $ring_sign, $ring_verify,
                };
                let rng = aws_lc_rs::rand::SystemRandom::new();
                let key = EcdsaKeyPair::from_pkcs8(&$ring_sign, &pkcs8()).expect("a key");
                let public = public();
                verify_runner(
                    move |m| key.sign(&rng, m).expect("a signature").as_ref().to_vec(),
                    move |m, sig| {
                        UnparsedPublicKey::new(&$ring_verify, &public).verify(m, sig).is_ok()
                    },
                )
            }

            /// graviola's ECDSA verification.
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            pub fn graviola_verify() -> Runner {
                use graviola::signing::ecdsa::{SigningKey, VerifyingKey};
                let key = SigningKey::<$graviola>::from_pkcs8_der(&pkcs8()).expect("a key");
                let public =
                    VerifyingKey::<$graviola>::from_x962_uncompressed(&public()).expect("a key");
                verify_runner(
                    move |m| {
                        let mut sig = [0u8; 2 * $len];
                        key.sign::<$hash>(&[m], &mut sig).expect("a signature").to_vec()
                    },
                    move |m, sig| public.verify::<$hash>(&[m], sig).is_ok(),
                )
            }

            /// RustCrypto's ECDSA verification.
            pub fn rustcrypto_verify() -> Runner {
                use rc::ecdsa::signature::{Signer as _, Verifier as _};
                let key = rc::ecdsa::SigningKey::from_slice(&SECRET).expect("a key");
                let public = *key.verifying_key();
                verify_runner(
                    move |m| {
                        let sig: rc::ecdsa::Signature = key.sign(m);
                        sig.to_bytes().to_vec()
                    },
                    move |m, sig| {
                        rc::ecdsa::Signature::from_slice(sig)
                            .is_ok_and(|sig| public.verify(m, &sig).is_ok())
                    },
                )
            }
        }
    };
}

curve_ops!(
    p256,
    P256Impl,
    32,
    graviola::hashing::Sha256,
    ECDSA_P256_SHA256_FIXED_SIGNING,
    ECDSA_P256_SHA256_FIXED,
    ECDH_P256,
    p256,
    graviola::signing::ecdsa::P256,
    *b"Halite bench P-256 secret scalar",
    *b"Halite bench P-256 peer's scalar"
);
curve_ops!(
    p384,
    P384Impl,
    48,
    graviola::hashing::Sha384,
    ECDSA_P384_SHA384_FIXED_SIGNING,
    ECDSA_P384_SHA384_FIXED,
    ECDH_P384,
    p384,
    graviola::signing::ecdsa::P384,
    *b"Halite bench P-384 secret scalar, 48 bytes long!",
    *b"Halite bench P-384 peer's scalar, 48 bytes long!"
);

/// The NIST-curve operations, in table order.
pub(super) fn ops() -> Vec<Op> {
    let mut ops = p256::ops();
    ops.extend(p384::ops());
    ops
}
