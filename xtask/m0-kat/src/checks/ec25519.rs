//! Checks for `core-ec`'s Curve25519 code as the firmware builds it (the radix-2^13 field with
//! 32-bit products and the one-row fixed-base table on the Cortex-M0): RFC 7748 X25519
//! vectors and Diffie–Hellman, the zero-secret refusal, and RFC 8032 Ed25519 verification
//! and signing.

use core_ec::Implementation;
use core_ec::ed25519::{Signature, SigningKey, VerifyingKey};
use core_ec::x25519::{self, FieldImpl, PublicKey, SecretKey};
use hex_literal::hex;

use super::{Check, ensure};

/// The Curve25519 checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "ec25519::impl_fits_target", run: impl_fits_target },
    Check { name: "ec25519::x25519_rfc7748", run: x25519_rfc7748 },
    Check { name: "ec25519::x25519_dh_rfc7748", run: x25519_dh_rfc7748 },
    Check { name: "ec25519::x25519_low_order", run: x25519_low_order },
    Check { name: "ec25519::x25519_dh_random", run: x25519_dh_random },
    Check { name: "ec25519::ed25519_verify_rfc8032", run: ed25519_verify_rfc8032 },
    Check { name: "ec25519::ed25519_sign_rfc8032", run: ed25519_sign_rfc8032 },
    #[cfg(target_arch = "arm")]
    Check { name: "ec25519::thumb1_square", run: thumb1_square },
];

/// On a 32-bit target the default field is the 32-bit-product one.
fn impl_fits_target() -> Result<(), &'static str> {
    // On 32-bit targets the 13-bit-limb field; on a 64-bit host, whatever is fastest there
    // (x86_adx or portable64), which must then be the first available.
    if cfg!(target_pointer_width = "32") {
        ensure(FieldImpl::best().name() == "portable32", "unexpected default field implementation")
    } else {
        ensure(FieldImpl::available().next() == Some(FieldImpl::best()), "best is not first")?;
        ensure(FieldImpl::best().name() != "portable32", "32-bit field chosen on a 64-bit host")
    }
}

/// RFC 7748 §5.2, first vector.
fn x25519_rfc7748() -> Result<(), &'static str> {
    let k = hex!("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
    let u = hex!("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c");
    let want = hex!("c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552");
    ensure(x25519::x25519(&k, &u) == Ok(want), "wrong output")
}

/// RFC 7748 §6.1: Alice's public key (through the Edwards comb) and the shared secret.
fn x25519_dh_rfc7748() -> Result<(), &'static str> {
    let alice = SecretKey::from_bytes(hex!(
        "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"
    ));
    let bob_pub = PublicKey::from_bytes(hex!(
        "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
    ));
    let a_pub = hex!("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
    ensure(alice.public_key().as_bytes() == &a_pub, "wrong public key")?;
    let shared = alice.diffie_hellman(&bob_pub).map_err(|_| "agreement refused")?;
    let want = hex!("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
    ensure(shared.as_bytes() == &want, "wrong shared secret")
}

/// A low-order peer key (u = 0) gives `ZeroSharedSecret`.
fn x25519_low_order() -> Result<(), &'static str> {
    let got = x25519::x25519(&[0x42; 32], &[0; 32]);
    ensure(got == Err(core_ec::Error::ZeroSharedSecret), "zero secret not refused")
}

/// Diffie–Hellman agreement between pseudo-random secrets: `a·(b·B) = b·(a·B)`, the public
/// keys through the Edwards comb and the shared secrets through the ladder. On the Cortex-M0
/// this cross-checks the field multiplication in Thumb assembly (which the host tests cannot
/// run) on values no fixed vector chose, against the two other paths through it.
fn x25519_dh_random() -> Result<(), &'static str> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut secret = || {
        let mut k = [0u8; 32];
        for b in &mut k {
            // xorshift64: fixed, so a failure reproduces.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *b = (state >> 24) as u8;
        }
        SecretKey::from_bytes(k)
    };
    for _ in 0..3 {
        let (a, b) = (secret(), secret());
        let ab = a.diffie_hellman(&b.public_key()).map_err(|_| "agreement refused")?;
        let ba = b.diffie_hellman(&a.public_key()).map_err(|_| "agreement refused")?;
        ensure(ab.as_bytes() == ba.as_bytes(), "the two sides disagree")?;
    }
    Ok(())
}

const SEED3: [u8; 32] = hex!("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7");
const PUB3: [u8; 32] = hex!("fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025");
const SIG3: [u8; 64] = hex!(
    "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
    "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
);

/// RFC 8032 §7.1 TEST 3 verifies; with a flipped bit it does not.
fn ed25519_verify_rfc8032() -> Result<(), &'static str> {
    let vk = VerifyingKey::from_bytes(&PUB3).map_err(|_| "key refused")?;
    ensure(vk.verify(&hex!("af82"), &Signature::from_bytes(SIG3)).is_ok(), "valid refused")?;
    let mut bad = SIG3;
    bad[40] ^= 4;
    ensure(vk.verify(&hex!("af82"), &Signature::from_bytes(bad)).is_err(), "forgery accepted")
}

/// RFC 8032 §7.1 TEST 3: the public key from the seed and the signature.
fn ed25519_sign_rfc8032() -> Result<(), &'static str> {
    let key = SigningKey::from_seed(&SEED3);
    ensure(key.verifying_key().to_bytes() == PUB3, "wrong public key")?;
    ensure(key.sign(&hex!("af82")).to_bytes() == SIG3, "wrong signature")
}

/// The Thumb-1 256-bit squaring (`curve25519/thumb1/square_karatsuba.rs`) against a plain
/// schoolbook product, on edge values and 200 pseudo-random ones. Besides zero, one, all-ones
/// words, 2^255 − 19 − 1, single words and half-word patterns, three values make carries
/// ripple where random ones essentially never do: through the top three words of the result
/// (the first two) and into the top word of a 128-bit square (the third, whose high 64-bit
/// half squared ends in nearly 96 one bits). With them, dropping any one instruction of the
/// assembly, or the carry of any `ADCS`/`SBCS`, fails the check (tried on a simulator).
#[cfg(target_arch = "arm")]
fn thumb1_square() -> Result<(), &'static str> {
    const ONES: u32 = !0;
    const EDGES: [[u32; 8]; 14] = [
        [0; 8],
        [1, 0, 0, 0, 0, 0, 0, 0],
        [ONES; 8],
        [ONES - 19, ONES, ONES, ONES, ONES, ONES, ONES, 0x7fff_ffff],
        [0xffff_0000; 8],
        [0x0000_ffff; 8],
        [0xffff_0000, 0xffff, 0xffff_0000, 0xffff, 0xffff_0000, 0xffff, 0xffff_0000, 0xffff],
        [ONES, 0, ONES, 0, ONES, 0, ONES, 0],
        [0, ONES, 0, ONES, 0, ONES, 0, ONES],
        [ONES, ONES, ONES, ONES, 0, 0, 0, 0],
        [0, 0, 0, 0, ONES, ONES, ONES, ONES],
        [ONES, ONES, ONES, ONES, ONES, ONES, ONES - 1, ONES],
        [ONES, ONES, ONES, ONES, 0x7fff_ffff, 0x7fff_ffff, ONES, ONES - 1],
        [ONES, ONES, 0x6842_faaa, 0xe472_38e2, 0, 0, 0, 0],
    ];
    for a in &EDGES {
        ensure(square(a) == square_ref(a), "edge value squared wrong")?;
    }
    for i in 0..8 {
        for w in [1, 0x8000_0001, ONES] {
            let mut a = [0; 8];
            a[i] = w;
            ensure(square(&a) == square_ref(&a), "single word squared wrong")?;
        }
    }
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200 {
        let mut a = [0u32; 8];
        for w in &mut a {
            // xorshift64: fixed, so a failure reproduces.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *w = (state >> 32) as u32;
        }
        ensure(square(&a) == square_ref(&a), "random value squared wrong")?;
    }
    Ok(())
}

/// The Thumb-1 squaring, through an opaque call so the inputs are not constant-folded.
#[cfg(target_arch = "arm")]
fn square(a: &[u32; 8]) -> [u32; 16] {
    core_ec::__m0_test::square(core::hint::black_box(a))
}

/// Schoolbook 256×256-bit product with 64-bit intermediate sums: slow and plain.
#[cfg(target_arch = "arm")]
fn square_ref(a: &[u32; 8]) -> [u32; 16] {
    let mut r = [0u32; 16];
    for i in 0..8 {
        let mut carry = 0u64;
        for j in 0..8 {
            let t = u64::from(a[i]) * u64::from(a[j]) + u64::from(r[i + j]) + carry;
            r[i + j] = t as u32;
            carry = t >> 32;
        }
        r[i + 8] = carry as u32;
    }
    r
}
