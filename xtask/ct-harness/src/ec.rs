//! core-ec under secret keys: on every Curve25519 field implementation, X25519 with a secret
//! scalar (against a public point, and the fixed-base public-key computation), and Ed25519
//! key derivation and signing from a secret seed over public messages. Verification handles
//! public data only and may be variable-time, so it is not run here. The NIST curves join
//! with ECDH, ECDSA signing and scalar inversion per curve when they land.

use core_ec::Implementation as _;
use core_ec::{ed25519, x25519};

use crate::{Tally, every, public, secret_array};

/// Every check in this module.
pub(crate) fn run(t: &mut Tally) {
    curve25519(t);
}

fn curve25519(t: &mut Tally) {
    let peer: [u8; 32] = {
        let mut u = [0u8; 32];
        u.copy_from_slice(&public(32, 40));
        u
    };
    for imp in every::<x25519::FieldImpl>() {
        t.cover("curve25519", imp.name());
        for seed in [41u8, 42] {
            let scalar: [u8; 32] = secret_array(seed);
            match x25519::x25519_with_impl(imp, &scalar, &peer) {
                Ok(shared) => t.agree(&format!("x25519 {seed}"), &shared),
                Err(_) => t.expect("x25519 of a random point", false),
            }
            let key = x25519::SecretKey::from_bytes(scalar).with_impl(imp);
            t.agree(&format!("x25519 public key {seed}"), key.public_key().as_bytes());

            let seed_bytes: [u8; 32] = secret_array(seed.wrapping_add(10));
            let signing = ed25519::SigningKey::from_seed_with_impl(&seed_bytes, imp);
            // The library declares the public key public (core_hash::declassify).
            t.agree_untainted(
                &format!("ed25519 public key {seed}"),
                &signing.verifying_key().to_bytes(),
            );
            for len in [0, 32, 200] {
                let msg = public(len, seed);
                t.agree(&format!("ed25519 sign {seed} {len}"), &signing.sign(&msg).to_bytes());
            }
        }
    }
}
