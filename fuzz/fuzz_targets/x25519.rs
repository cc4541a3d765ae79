//! X25519 with an arbitrary scalar and an arbitrary u-coordinate (non-canonical values from p
//! up, the top bit, the low-order points all included) on the field implementation the last
//! input byte picks (one per input keeps the rate up; the fuzzer reaches each), against
//! RustCrypto's `x25519-dalek`: the same shared secret, and `ZeroSharedSecret` exactly when
//! the reference's result is all zero. The key-pair API must agree with the function.
#![no_main]

use core_ec::Error;
use core_ec::x25519::{FieldImpl, PublicKey, SecretKey, x25519_with_impl};
use halite_fuzz::{Input, every};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let scalar: [u8; 32] = input.array();
    let u: [u8; 32] = input.array();
    let all = every::<FieldImpl>();
    let imp = all[usize::from(input.byte()) % all.len()];
    let want = x25519_dalek::x25519(scalar, u);
    {
        let got = x25519_with_impl(imp, &scalar, &u);
        if want == [0; 32] {
            assert_eq!(got, Err(Error::ZeroSharedSecret), "{imp:?}");
        } else {
            assert_eq!(got, Ok(want), "{imp:?}");
        }
        let key = SecretKey::from_bytes(scalar).with_impl(imp);
        let shared = key.diffie_hellman(&PublicKey::from_bytes(u)).map(|s| *s.as_bytes());
        assert_eq!(shared, got, "the key-pair API differs, {imp:?}");
        let public = x25519_dalek::x25519(scalar, x25519_dalek::X25519_BASEPOINT_BYTES);
        assert_eq!(key.public_key().as_bytes(), &public, "public key, {imp:?}");
    }
});
