//! core-ec under secret keys: on every Curve25519 field implementation, X25519 with a secret
//! scalar (against a public point, and the fixed-base public-key computation), and Ed25519
//! key derivation and signing from a secret seed over public messages; on every NIST-curve
//! field implementation of P-256, P-384 and P-521, ECDH with a secret scalar, the public key
//! of a secret scalar, and ECDSA signing (RFC 6979 nonces, so scalar inversion and the nonce
//! derivation run on secrets). Verification handles public data only and may be
//! variable-time, so it is not run here.

use core_ec::Implementation as _;
use core_ec::{ed25519, x25519};

use crate::{Tally, every, public, secret_array};

/// Every check in this module.
pub(crate) fn run(t: &mut Tally) {
    curve25519(t);
    nist!(t, p256, P256Impl, "p256", 32);
    nist!(t, p384, P384Impl, "p384", 48);
    nist!(t, p521, P521Impl, "p521", 66);
}

/// ECDH, public-key derivation and ECDSA signing with secret scalars on every field
/// implementation of one curve.
macro_rules! nist {
    ($t:expr, $curve:ident, $imp:ident, $name:literal, $len:literal) => {{
        use core_ec::$curve::{SecretKey, SigningKey, $imp as NistImpl};
        let t: &mut Tally = $t;
        // A valid scalar: below the group order of every curve (top byte small).
        let scalar_for = |seed: u8| {
            let mut s: [u8; $len] = secret_array(seed);
            s[0] = 0;
            s[1] = 1;
            s
        };
        let peer = SecretKey::from_bytes(&public_scalar::<$len>(50)).map(|k| k.public_key());
        for imp in every::<NistImpl>() {
            t.cover($name, imp.name());
            let (Ok(peer), Ok(key)) =
                (peer.clone(), SecretKey::from_bytes_with_impl(&scalar_for(51), imp))
            else {
                t.expect(concat!($name, " keys"), false);
                continue;
            };
            let peer = peer.with_impl(imp);
            match key.diffie_hellman(&peer) {
                Ok(shared) => t.agree(concat!($name, " ecdh"), shared.as_bytes()),
                Err(_) => t.expect(concat!($name, " ecdh"), false),
            }
            t.agree(concat!($name, " public key"), &key.public_key().to_sec1_bytes());
            let signing = SigningKey::from(key);
            for len in [0, 100] {
                let msg = public(len, 52);
                t.agree(&format!("{} sign {len}", $name), &signing.sign(&msg).to_bytes());
            }
        }
    }};
}
use nist;

/// A public scalar below every curve's group order.
fn public_scalar<const N: usize>(seed: u8) -> [u8; N] {
    let mut s = [0u8; N];
    s.copy_from_slice(&public(N, seed));
    s[0] = 0;
    s[1] = 1;
    s
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
