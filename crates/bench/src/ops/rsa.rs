//! The RSA operations, counted in operations per second: RSA-2048 (e = 65537) PKCS#1 v1.5
//! signing with SHA-256 (deterministic, so every library's signature is byte-equal), PSS
//! signing with SHA-256 (random salt: compared by whether Halite verifies it), and PKCS#1 v1.5
//! verification, as Halite and each peer computes them; PKCS#1 v1.5 signing and verification
//! at 3072 and 4096 bits too. The keys are core-rsa's OpenSSL-made test fixtures
//! (`openssl genpkey`), imported from their PKCS#8 documents by every library.

use super::{Halite, Library, Op, Peer, Runner, Unit, peer, verify_runner};
use core_rsa::{HashAlg, Implementation as _, MontImpl, PrivateKey, Pss};

/// The RSA-2048 private key (PKCS#8 DER), made once with `openssl genpkey`.
pub const KEY_2048: &[u8] = include_bytes!("../../../core-rsa/tests/data/rsa2048_e65537.pkcs8.der");
/// The RSA-3072 private key (PKCS#8 DER), made once with `openssl genpkey`.
pub const KEY_3072: &[u8] = include_bytes!("../../../core-rsa/tests/data/rsa3072_e65537.pkcs8.der");
/// The RSA-4096 private key (PKCS#8 DER), made once with `openssl genpkey`.
pub const KEY_4096: &[u8] = include_bytes!("../../../core-rsa/tests/data/rsa4096_e65537.pkcs8.der");

/// The fixture key of `BITS` bits.
const fn key<const BITS: usize>() -> &'static [u8] {
    match BITS {
        3072 => KEY_3072,
        4096 => KEY_4096,
        _ => KEY_2048,
    }
}

fn rsa_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    canonical: Option<super::Canonical>,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "rsa",
        what,
        unit: Unit::Ops,
        sizes: None,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: None,
        canonical,
    }
}

/// PKCS#1 v1.5 signing at `BITS` bits, by Halite and every peer.
fn pkcs1_sign_op<const BITS: usize>(id: &'static str, what: &'static str) -> Op {
    use Library::{AwsLcRs, Ring, RustCrypto};
    rsa_op(
        id,
        what,
        halite_pkcs1_sign::<BITS>,
        None,
        vec![
            peer(Ring, ring_pkcs1_sign::<BITS>),
            peer(AwsLcRs, aws_pkcs1_sign::<BITS>),
            graviola!(graviola_pkcs1_sign::<BITS>),
            peer(RustCrypto, rustcrypto_pkcs1_sign::<BITS>),
        ],
    )
}

/// PKCS#1 v1.5 verification at `BITS` bits, by Halite and every peer.
fn pkcs1_verify_op<const BITS: usize>(id: &'static str, what: &'static str) -> Op {
    use Library::{AwsLcRs, Ring, RustCrypto};
    rsa_op(
        id,
        what,
        halite_pkcs1_verify::<BITS>,
        None,
        vec![
            peer(Ring, ring_pkcs1_verify::<BITS>),
            peer(AwsLcRs, aws_pkcs1_verify::<BITS>),
            graviola!(graviola_pkcs1_verify::<BITS>),
            peer(RustCrypto, rustcrypto_pkcs1_verify::<BITS>),
        ],
    )
}

/// The RSA operations, in table order.
pub(super) fn ops() -> Vec<Op> {
    use Library::{AwsLcRs, Ring};
    vec![
        pkcs1_sign_op::<2048>("rsa2048-pkcs1-sign", "RSA-2048 PKCS#1 v1.5 SHA-256 signature"),
        rsa_op(
            "rsa2048-pss-sign",
            "RSA-2048 PSS SHA-256 signature (32-byte salt)",
            halite_pss_sign,
            Some(pss_verifies),
            vec![
                peer(Ring, ring_pss_sign),
                peer(AwsLcRs, aws_pss_sign),
                graviola!(graviola_pss_sign),
            ],
        ),
        pkcs1_verify_op::<2048>(
            "rsa2048-pkcs1-verify",
            "RSA-2048 PKCS#1 v1.5 SHA-256 verification",
        ),
        pkcs1_sign_op::<3072>("rsa3072-pkcs1-sign", "RSA-3072 PKCS#1 v1.5 SHA-256 signature"),
        pkcs1_verify_op::<3072>(
            "rsa3072-pkcs1-verify",
            "RSA-3072 PKCS#1 v1.5 SHA-256 verification",
        ),
        pkcs1_sign_op::<4096>("rsa4096-pkcs1-sign", "RSA-4096 PKCS#1 v1.5 SHA-256 signature"),
        pkcs1_verify_op::<4096>(
            "rsa4096-pkcs1-verify",
            "RSA-4096 PKCS#1 v1.5 SHA-256 verification",
        ),
    ]
}

/// Whether Halite verifies a PSS signature of `message` under the key.
fn pss_verifies(message: &[u8], sig: &[u8]) -> Vec<u8> {
    let key = PrivateKey::from_pkcs8_der(KEY_2048).expect("the fixture key").public_key();
    vec![u8::from(key.verify_pss(Pss::new(HashAlg::Sha256), message, sig).is_ok())]
}

/// The public key's PKCS#1 `RSAPublicKey` DER (what ring and aws-lc-rs verify with).
fn public_pkcs1<const BITS: usize>() -> Vec<u8> {
    let key = PrivateKey::from_pkcs8_der(key::<BITS>()).expect("the fixture key").public_key();
    let mut out = vec![0; 1200];
    let n = key.to_pkcs1_der(&mut out).expect("room for the key");
    out.truncate(n);
    out
}

fn halite_each(run: fn(MontImpl) -> Runner) -> Halite {
    Halite {
        default_impl: MontImpl::best().name().to_owned(),
        default: run(MontImpl::best()),
        impls: MontImpl::available().map(|i| (i.name().to_owned(), run(i))).collect(),
    }
}

fn halite_key<const BITS: usize>(imp: MontImpl) -> PrivateKey {
    PrivateKey::from_pkcs8_der_with_impl(key::<BITS>(), imp).expect("the fixture key")
}

/// Halite's PKCS#1 v1.5 signing.
pub fn halite_pkcs1_sign<const BITS: usize>() -> Halite {
    halite_each(|imp| {
        let key = halite_key::<BITS>(imp);
        Box::new(move |m, out| {
            let mut sig = [0u8; 512];
            let n = key
                .sign_pkcs1v15(HashAlg::Sha256, m, &mut core_hash::OsRandom, &mut sig)
                .expect("a signature");
            out.extend_from_slice(&sig[..n]);
        })
    })
}

/// Halite's PSS signing.
pub fn halite_pss_sign() -> Halite {
    halite_each(|imp| {
        let key = halite_key::<2048>(imp);
        Box::new(move |m, out| {
            let mut sig = [0u8; 256];
            let n = key
                .sign_pss(Pss::new(HashAlg::Sha256), m, &mut core_hash::OsRandom, &mut sig)
                .expect("a signature");
            out.extend_from_slice(&sig[..n]);
        })
    })
}

/// Halite's PKCS#1 v1.5 verification of its own signature.
pub fn halite_pkcs1_verify<const BITS: usize>() -> Halite {
    halite_each(|imp| {
        let key = halite_key::<BITS>(imp);
        let public = key.public_key();
        verify_runner(
            move |m| {
                let mut sig = [0u8; 512];
                let n = key
                    .sign_pkcs1v15(HashAlg::Sha256, m, &mut core_hash::OsRandom, &mut sig)
                    .expect("a signature");
                sig[..n].to_vec()
            },
            move |m, sig| public.verify_pkcs1v15(HashAlg::Sha256, m, sig).is_ok(),
        )
    })
}

macro_rules! ringlike {
    ($krate:ident, $sign:ident, $pss_sign:ident, $verify:ident) => {
        /// PKCS#1 v1.5 signing.
        pub fn $sign<const BITS: usize>() -> Runner {
            use $krate::signature::{RSA_PKCS1_SHA256, RsaKeyPair};
            let key = RsaKeyPair::from_pkcs8(key::<BITS>()).expect("the fixture key");
            let rng = $krate::rand::SystemRandom::new();
            Box::new(move |m, out| {
                let mut sig = vec![0; BITS / 8];
                key.sign(&RSA_PKCS1_SHA256, &rng, m, &mut sig).expect("a signature");
                out.extend_from_slice(&sig);
            })
        }

        /// PSS signing.
        pub fn $pss_sign() -> Runner {
            use $krate::signature::{RSA_PSS_SHA256, RsaKeyPair};
            let key = RsaKeyPair::from_pkcs8(KEY_2048).expect("the fixture key");
            let rng = $krate::rand::SystemRandom::new();
            Box::new(move |m, out| {
                let mut sig = vec![0; 256];
                key.sign(&RSA_PSS_SHA256, &rng, m, &mut sig).expect("a signature");
                out.extend_from_slice(&sig);
            })
        }

        /// PKCS#1 v1.5 verification of its own signature.
        pub fn $verify<const BITS: usize>() -> Runner {
            use $krate::signature::{
                RSA_PKCS1_2048_8192_SHA256, RSA_PKCS1_SHA256, RsaKeyPair, UnparsedPublicKey,
            };
            let key = RsaKeyPair::from_pkcs8(key::<BITS>()).expect("the fixture key");
            let rng = $krate::rand::SystemRandom::new();
            let public = public_pkcs1::<BITS>();
            verify_runner(
                move |m| {
                    let mut sig = vec![0; BITS / 8];
                    key.sign(&RSA_PKCS1_SHA256, &rng, m, &mut sig).expect("a signature");
                    sig
                },
                move |m, sig| {
                    UnparsedPublicKey::new(&RSA_PKCS1_2048_8192_SHA256, &public)
                        .verify(m, sig)
                        .is_ok()
                },
            )
        }
    };
}

ringlike!(ring, ring_pkcs1_sign, ring_pss_sign, ring_pkcs1_verify);
ringlike!(aws_lc_rs, aws_pkcs1_sign, aws_pss_sign, aws_pkcs1_verify);

/// graviola's PKCS#1 v1.5 signing.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub fn graviola_pkcs1_sign<const BITS: usize>() -> Runner {
    let key = graviola::signing::rsa::SigningKey::from_pkcs8_der(key::<BITS>()).expect("the key");
    Box::new(move |m, out| {
        let mut sig = vec![0u8; BITS / 8];
        out.extend_from_slice(key.sign_pkcs1_sha256(&mut sig, m).expect("a signature"));
    })
}

/// graviola's PSS signing.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub fn graviola_pss_sign() -> Runner {
    let key = graviola::signing::rsa::SigningKey::from_pkcs8_der(KEY_2048).expect("the key");
    Box::new(move |m, out| {
        let mut sig = [0u8; 256];
        out.extend_from_slice(key.sign_pss_sha256(&mut sig, m).expect("a signature"));
    })
}

/// graviola's PKCS#1 v1.5 verification.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub fn graviola_pkcs1_verify<const BITS: usize>() -> Runner {
    let key = graviola::signing::rsa::SigningKey::from_pkcs8_der(key::<BITS>()).expect("the key");
    let public = key.public_key();
    verify_runner(
        move |m| {
            let mut sig = vec![0u8; BITS / 8];
            key.sign_pkcs1_sha256(&mut sig, m).expect("a signature").to_vec()
        },
        move |m, sig| public.verify_pkcs1_sha256(sig, m).is_ok(),
    )
}

/// RustCrypto's PKCS#1 v1.5 signing.
pub fn rustcrypto_pkcs1_sign<const BITS: usize>() -> Runner {
    use rsa::pkcs8::DecodePrivateKey as _;
    use rsa::signature::{SignatureEncoding as _, Signer as _};
    let key = rsa::RsaPrivateKey::from_pkcs8_der(key::<BITS>()).expect("the key");
    let signer = rsa::pkcs1v15::SigningKey::<sha2::Sha256>::new(key);
    Box::new(move |m, out| out.extend_from_slice(&signer.sign(m).to_bytes()))
}

/// RustCrypto's PKCS#1 v1.5 verification.
pub fn rustcrypto_pkcs1_verify<const BITS: usize>() -> Runner {
    use rsa::pkcs8::DecodePrivateKey as _;
    use rsa::signature::{Keypair as _, SignatureEncoding as _, Signer as _, Verifier as _};
    let key = rsa::RsaPrivateKey::from_pkcs8_der(key::<BITS>()).expect("the key");
    let signer = rsa::pkcs1v15::SigningKey::<sha2::Sha256>::new(key);
    let verifier = signer.verifying_key();
    verify_runner(
        move |m| signer.sign(m).to_vec(),
        move |m, sig| {
            rsa::pkcs1v15::Signature::try_from(sig).is_ok_and(|s| verifier.verify(m, &s).is_ok())
        },
    )
}
