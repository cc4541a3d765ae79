//! The elliptic-curve operations, counted in operations per second: X25519 (a derivation with
//! fixed keys, and a full agreement with a fresh key) and Ed25519 (sign, verify), as Halite
//! and each peer computes them. Keys are fixed (see [`X25519_SECRET`], [`ED25519_SEED`]) so
//! that every library computes the same thing; verification ops verify a signature made once
//! per message, outside the timing.

use super::{Canonical, Halite, Library, Op, Peer, Runner, Unit, peer, verify_runner};
use core_ec::Implementation as _;

/// The secret X25519 key of every `x25519-derive` op.
pub const X25519_SECRET: [u8; 32] = *b"Halite bench X25519 secret key!!";
/// The peer's secret X25519 key: its public key is what every op derives against, and it lets
/// the agreement check recompute a fresh key's shared secret.
pub const X25519_PEER_SECRET: [u8; 32] = *b"Halite bench X25519 peer secret!";
/// The Ed25519 seed of every signing and verification op.
pub const ED25519_SEED: [u8; 32] = *b"Halite bench Ed25519 seed bytes!";

/// The peer's X25519 public key.
fn x25519_peer_public() -> [u8; 32] {
    *core_ec::x25519::SecretKey::from_bytes(X25519_PEER_SECRET).public_key().as_bytes()
}

/// An operation counted in operations per second; no `openssl-speed` column (its public-key
/// output is not parsed yet).
fn ec_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    canonical: Option<Canonical>,
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

/// The elliptic-curve operations, in table order.
pub(super) fn ops() -> Vec<Op> {
    use Library::{AwsLcRs, Ring, RustCrypto};
    vec![
        ec_op(
            "x25519-derive",
            "X25519 shared secret from a fixed secret key and peer key",
            halite_x25519_derive,
            None,
            vec![
                peer(AwsLcRs, aws_x25519_derive),
                graviola!(graviola_x25519_derive),
                peer(RustCrypto, rustcrypto_x25519_derive),
            ],
        ),
        ec_op(
            "x25519-agree",
            "X25519 key agreement: fresh secret key, its public key, shared secret",
            halite_x25519_agree,
            Some(x25519_agreement_holds),
            vec![
                peer(Ring, ring_x25519_agree),
                peer(AwsLcRs, aws_x25519_agree),
                graviola!(graviola_x25519_agree),
                peer(RustCrypto, rustcrypto_x25519_agree),
            ],
        ),
        ec_op(
            "ed25519-sign",
            "Ed25519 signature of the message",
            halite_ed25519_sign,
            None,
            vec![
                peer(Ring, ring_ed25519_sign),
                peer(AwsLcRs, aws_ed25519_sign),
                graviola!(graviola_ed25519_sign),
                peer(RustCrypto, rustcrypto_ed25519_sign),
            ],
        ),
        ec_op(
            "ed25519-verify",
            "Ed25519 verification of a signature of the message",
            halite_ed25519_verify,
            None,
            vec![
                peer(Ring, ring_ed25519_verify),
                peer(AwsLcRs, aws_ed25519_verify),
                graviola!(graviola_ed25519_verify),
                peer(RustCrypto, rustcrypto_ed25519_verify),
            ],
        ),
    ]
}

/// `x25519-agree`'s output is the fresh public key and the shared secret; a correct one is a
/// pair whose secret the peer's key derives again from that public key.
fn x25519_agreement_holds(_message: &[u8], out: &[u8]) -> Vec<u8> {
    let Some((public, secret)) = out.split_first_chunk::<32>() else { return vec![0] };
    let again = core_ec::x25519::x25519(&X25519_PEER_SECRET, public);
    vec![u8::from(again.is_ok_and(|s| s[..] == *secret))]
}

// ---- Halite ----------------------------------------------------------------------------

/// Halite's side of a Curve25519 op: the default, then each field implementation.
fn halite_25519(run: fn(core_ec::x25519::FieldImpl) -> Runner) -> Halite {
    use core_ec::x25519::FieldImpl;
    Halite {
        default_impl: FieldImpl::best().name().to_owned(),
        default: run(FieldImpl::best()),
        impls: FieldImpl::available().map(|imp| (imp.name().to_owned(), run(imp))).collect(),
    }
}

/// Halite's `x25519-derive`.
#[must_use]
pub fn halite_x25519_derive() -> Halite {
    halite_25519(|imp| {
        let key = core_ec::x25519::SecretKey::from_bytes(X25519_SECRET).with_impl(imp);
        let peer = core_ec::x25519::PublicKey::from(x25519_peer_public());
        Box::new(move |_, out| {
            let secret = key.diffie_hellman(&peer).expect("the peer key is not low-order");
            out.extend_from_slice(secret.as_bytes());
        })
    })
}

/// Halite's `x25519-agree`.
#[must_use]
pub fn halite_x25519_agree() -> Halite {
    halite_25519(|imp| {
        let peer = core_ec::x25519::PublicKey::from(x25519_peer_public());
        Box::new(move |_, out| {
            let key = core_ec::x25519::SecretKey::generate(&mut core_hash::OsRandom)
                .expect("OS entropy")
                .with_impl(imp);
            out.extend_from_slice(key.public_key().as_bytes());
            let secret = key.diffie_hellman(&peer).expect("the peer key is not low-order");
            out.extend_from_slice(secret.as_bytes());
        })
    })
}

/// Halite's `ed25519-sign`.
#[must_use]
pub fn halite_ed25519_sign() -> Halite {
    halite_25519(|imp| {
        let key = core_ec::ed25519::SigningKey::from_seed_with_impl(&ED25519_SEED, imp);
        Box::new(move |m, out| out.extend_from_slice(&key.sign(m).to_bytes()))
    })
}

/// Halite's `ed25519-verify`.
#[must_use]
pub fn halite_ed25519_verify() -> Halite {
    halite_25519(|imp| {
        let key = core_ec::ed25519::SigningKey::from_seed_with_impl(&ED25519_SEED, imp);
        let public = key.verifying_key();
        verify_runner(
            move |m| key.sign(m).to_bytes().to_vec(),
            move |m, sig| {
                core_ec::ed25519::Signature::from_slice(sig)
                    .and_then(|sig| public.verify(m, &sig))
                    .is_ok()
            },
        )
    })
}

// ---- Peers -----------------------------------------------------------------------------

/// aws-lc-rs's `x25519-derive`.
#[must_use]
pub fn aws_x25519_derive() -> Runner {
    use aws_lc_rs::agreement::{PrivateKey, UnparsedPublicKey, X25519, agree};
    let key = PrivateKey::from_private_key(&X25519, &X25519_SECRET).expect("an X25519 key");
    let peer = x25519_peer_public();
    Box::new(move |_, out| {
        let peer = UnparsedPublicKey::new(&X25519, &peer);
        agree(&key, peer, (), |s| {
            out.extend_from_slice(s);
            Ok(())
        })
        .expect("the peer key is valid");
    })
}

/// graviola's `x25519-derive`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_x25519_derive() -> Runner {
    use graviola::key_agreement::x25519::{PublicKey, StaticPrivateKey};
    let key = StaticPrivateKey::from_array(&X25519_SECRET);
    let peer = PublicKey::from_array(&x25519_peer_public());
    Box::new(move |_, out| {
        out.extend_from_slice(&key.diffie_hellman(&peer).expect("the peer key is valid").0);
    })
}

/// RustCrypto's (x25519-dalek's) `x25519-derive`.
#[must_use]
pub fn rustcrypto_x25519_derive() -> Runner {
    let key = x25519_dalek::StaticSecret::from(X25519_SECRET);
    let peer = x25519_dalek::PublicKey::from(x25519_peer_public());
    Box::new(move |_, out| out.extend_from_slice(key.diffie_hellman(&peer).as_bytes()))
}

/// ring's `x25519-agree` (ring has ephemeral X25519 keys only).
#[must_use]
pub fn ring_x25519_agree() -> Runner {
    use ring::agreement::{EphemeralPrivateKey, UnparsedPublicKey, X25519, agree_ephemeral};
    let rng = ring::rand::SystemRandom::new();
    let peer = x25519_peer_public();
    Box::new(move |_, out| {
        let key = EphemeralPrivateKey::generate(&X25519, &rng).expect("OS entropy");
        out.extend_from_slice(key.compute_public_key().expect("a public key").as_ref());
        agree_ephemeral(key, &UnparsedPublicKey::new(&X25519, &peer), |s| {
            out.extend_from_slice(s);
        })
        .expect("the peer key is valid");
    })
}

/// aws-lc-rs's `x25519-agree`.
#[must_use]
pub fn aws_x25519_agree() -> Runner {
    use aws_lc_rs::agreement::{PrivateKey, UnparsedPublicKey, X25519, agree};
    let peer = x25519_peer_public();
    Box::new(move |_, out| {
        let key = PrivateKey::generate(&X25519).expect("OS entropy");
        out.extend_from_slice(key.compute_public_key().expect("a public key").as_ref());
        agree(&key, UnparsedPublicKey::new(&X25519, &peer), (), |s| {
            out.extend_from_slice(s);
            Ok(())
        })
        .expect("the peer key is valid");
    })
}

/// graviola's `x25519-agree`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_x25519_agree() -> Runner {
    use graviola::key_agreement::x25519::{PrivateKey, PublicKey};
    let peer = PublicKey::from_array(&x25519_peer_public());
    Box::new(move |_, out| {
        let key = PrivateKey::new_random().expect("OS entropy");
        out.extend_from_slice(&key.public_key().as_bytes());
        out.extend_from_slice(&key.diffie_hellman(&peer).expect("the peer key is valid").0);
    })
}

/// RustCrypto's (x25519-dalek's) `x25519-agree`.
#[must_use]
pub fn rustcrypto_x25519_agree() -> Runner {
    let peer = x25519_dalek::PublicKey::from(x25519_peer_public());
    Box::new(move |_, out| {
        let key = x25519_dalek::EphemeralSecret::random();
        out.extend_from_slice(x25519_dalek::PublicKey::from(&key).as_bytes());
        out.extend_from_slice(key.diffie_hellman(&peer).as_bytes());
    })
}

/// ring's `ed25519-sign`.
#[must_use]
pub fn ring_ed25519_sign() -> Runner {
    let key = ring::signature::Ed25519KeyPair::from_seed_unchecked(&ED25519_SEED)
        .expect("a 32-byte seed");
    Box::new(move |m, out| out.extend_from_slice(key.sign(m).as_ref()))
}

/// aws-lc-rs's `ed25519-sign`.
#[must_use]
pub fn aws_ed25519_sign() -> Runner {
    let key = aws_lc_rs::signature::Ed25519KeyPair::from_seed_unchecked(&ED25519_SEED)
        .expect("a 32-byte seed");
    Box::new(move |m, out| out.extend_from_slice(key.sign(m).as_ref()))
}

/// graviola's `ed25519-sign`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_ed25519_sign() -> Runner {
    let key = graviola::signing::eddsa::Ed25519SigningKey::from_bytes(&ED25519_SEED)
        .expect("a 32-byte seed");
    Box::new(move |m, out| out.extend_from_slice(&key.sign(m)))
}

/// RustCrypto's (ed25519-dalek's) `ed25519-sign`.
#[must_use]
pub fn rustcrypto_ed25519_sign() -> Runner {
    use ed25519_dalek::Signer as _;
    let key = ed25519_dalek::SigningKey::from_bytes(&ED25519_SEED);
    Box::new(move |m, out| out.extend_from_slice(&key.sign(m).to_bytes()))
}

/// ring's `ed25519-verify`.
#[must_use]
pub fn ring_ed25519_verify() -> Runner {
    use ring::signature::{ED25519, Ed25519KeyPair, KeyPair as _, UnparsedPublicKey};
    let key = Ed25519KeyPair::from_seed_unchecked(&ED25519_SEED).expect("a 32-byte seed");
    let public = key.public_key().as_ref().to_vec();
    verify_runner(
        move |m| key.sign(m).as_ref().to_vec(),
        move |m, sig| UnparsedPublicKey::new(&ED25519, &public).verify(m, sig).is_ok(),
    )
}

/// aws-lc-rs's `ed25519-verify`.
#[must_use]
pub fn aws_ed25519_verify() -> Runner {
    use aws_lc_rs::signature::{ED25519, Ed25519KeyPair, KeyPair as _, UnparsedPublicKey};
    let key = Ed25519KeyPair::from_seed_unchecked(&ED25519_SEED).expect("a 32-byte seed");
    let public = key.public_key().as_ref().to_vec();
    verify_runner(
        move |m| key.sign(m).as_ref().to_vec(),
        move |m, sig| UnparsedPublicKey::new(&ED25519, &public).verify(m, sig).is_ok(),
    )
}

/// graviola's `ed25519-verify`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_ed25519_verify() -> Runner {
    use graviola::signing::eddsa::Ed25519SigningKey;
    let key = Ed25519SigningKey::from_bytes(&ED25519_SEED).expect("a 32-byte seed");
    let public = key.public_key();
    verify_runner(move |m| key.sign(m).to_vec(), move |m, sig| public.verify(sig, m).is_ok())
}

/// RustCrypto's (ed25519-dalek's) `ed25519-verify`.
#[must_use]
pub fn rustcrypto_ed25519_verify() -> Runner {
    use ed25519_dalek::{Signer as _, Verifier as _};
    let key = ed25519_dalek::SigningKey::from_bytes(&ED25519_SEED);
    let public = key.verifying_key();
    verify_runner(
        move |m| key.sign(m).to_bytes().to_vec(),
        move |m, sig| {
            ed25519_dalek::Signature::from_slice(sig)
                .is_ok_and(|sig| public.verify(m, &sig).is_ok())
        },
    )
}
