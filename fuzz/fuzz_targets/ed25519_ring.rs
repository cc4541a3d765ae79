//! Ed25519 verification against ring, on the field implementation the input picks (one per
//! input keeps the rate up; the fuzzer reaches each). So that valid signatures
//! are reached, the input names a seed, a message and a mode: the signature that seed makes as
//! it is, with one bit flipped in the signature, the message or the public key, or signature
//! and public key taken from the input as they are.
//!
//! Halite verifies strictly (see `core_ec::ed25519`): besides what ring checks it refuses
//! non-canonical encodings of `A` and small-order `A` or `R`. So what Halite accepts ring must
//! accept, always; what ring accepts Halite must accept unless one of those rules applies.
#![no_main]

use core_ec::ed25519::{FieldImpl, Signature, SigningKey, VerifyingKey};
use halite_fuzz::{Input, every, flip};
use libfuzzer_sys::fuzz_target;
use ring::signature::{ED25519, UnparsedPublicKey};

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let mode = input.byte();
    let pick = input.byte();
    let at = usize::from(u16::from_le_bytes(input.array()));
    let seed: [u8; 32] = input.array();
    let msg_len = usize::from(input.byte());
    let mut msg = input.bytes(msg_len).to_vec();
    let all = every::<FieldImpl>();
    let imp = all[usize::from(pick) % all.len()];
    let key = SigningKey::from_seed_with_impl(&seed, imp);
    let mut sig = key.sign(&msg).to_bytes();
    let mut public = key.verifying_key().to_bytes();
    match mode % 5 {
        0 => {}
        1 => flip(&mut sig, at),
        2 => flip(&mut msg, at),
        3 => flip(&mut public, at),
        _ => {
            public = input.array();
            sig = input.array();
        }
    }
    let ring_ok = UnparsedPublicKey::new(&ED25519, public).verify(&msg, &sig).is_ok();
    if mode.is_multiple_of(5) {
        assert!(ring_ok, "ring refused our signature");
    }
    let first = VerifyingKey::from_bytes_with_impl(&public, imp)
        .map(|k| (k.is_weak(), k.verify(&msg, &Signature::from_bytes(sig)).is_ok()));
    match first {
        Ok((_, true)) => assert!(ring_ok, "we accepted what ring refused"),
        Ok((weak, false)) if ring_ok => {
            let mut r = [0u8; 32];
            r.copy_from_slice(&sig[..32]);
            assert!(
                weak || small_order(&r),
                "ring accepted a signature we refused, with neither A nor R of small order"
            );
        }
        Ok(_) => {}
        Err(_) => assert!(
            !ring_ok || y_not_canonical(&public) || x_negative_zero(&public),
            "ring accepted a key we could not decode"
        ),
    }
});

/// Whether `r` encodes a point of small order: decodes, and is weak as a key.
fn small_order(r: &[u8; 32]) -> bool {
    VerifyingKey::from_bytes(r).is_ok_and(|k| k.is_weak())
}

/// Whether the encoded `y` (sign bit aside) is p = 2^255 − 19 or more.
fn y_not_canonical(a: &[u8; 32]) -> bool {
    a[0] >= 0xed && a[1..31].iter().all(|&b| b == 0xff) && a[31] & 0x7f == 0x7f
}

/// Whether this is `y = ±1` (so `x = 0`) with the sign bit set.
fn x_negative_zero(a: &[u8; 32]) -> bool {
    let mut y = *a;
    y[31] &= 0x7f;
    let one = y[0] == 1 && y[1..].iter().all(|&b| b == 0);
    let minus_one = y[0] == 0xec && y[1..31].iter().all(|&b| b == 0xff) && y[31] == 0x7f;
    a[31] & 0x80 != 0 && (one || minus_one)
}
