//! P-384 (SP 800-186 §3.2.1.4): ECDH and ECDSA with SHA-384, with keys and signatures in SEC1, DER,
//! SPKI and PKCS#8 forms.
//!
//! Arithmetic runs on one of the [`P384Impl`] field implementations, chosen when a key is built
//! (`x86_adx` where the CPU has BMI2 and ADX, else `mont64` on 64-bit targets, `mont15`
//! elsewhere). Private-key operations are constant-time;
//! [`PublicKey::verify`] is variable-time, as it handles only public data.
//!
//! ```
//! use core_ec::p384::{PublicKey, SecretKey, Signature, SigningKey};
//!
//! let signing = SigningKey::from_bytes(&[7u8; 48])?;
//! let sig = signing.sign(b"message");
//! let public = PublicKey::from_sec1_bytes(&signing.verifying_key().to_sec1_bytes())?;
//! public.verify(b"message", &Signature::from_der(sig.to_der().as_ref())?)?;
//! assert!(public.verify(b"massage", &sig).is_err());
//!
//! let alice = SecretKey::from_bytes(&[1u8; 48])?;
//! let bob = SecretKey::from_bytes(&[2u8; 48])?;
//! let ab = alice.diffie_hellman(&bob.public_key())?;
//! let ba = bob.diffie_hellman(&alice.public_key())?;
//! assert_eq!(ab.as_bytes(), ba.as_bytes());
//! # Ok::<(), core_ec::Error>(())
//! ```

use crate::nist::point::Params;
use crate::nist::{Fixed15, Modulus15, Mont15, hex, tables};
#[cfg(target_pointer_width = "64")]
use crate::nist::{Fixed64, Modulus64, Mont64};

const P_BYTES: [u8; 48] = hex(
    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff",
);
const N: [u8; 48] = hex(
    "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
);
const B: [u8; 48] = hex(
    "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
);
const GX: [u8; 48] = hex(
    "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
);
const GY: [u8; 48] = hex(
    "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f",
);
/// secp384r1 (1.3.132.0.34).
const OID: [u8; 5] = hex("2b81040022");

/// The comb table for the 15-bit field (see [`Field::comb_bytes`](crate::nist::Field::comb_bytes)).
const COMB_BYTES: &[u8] = &tables::P384_COMB;

static PARAMS: Params = Params { len: 48, qlen: 384, n: &N, b: &B, gx: &GX, gy: &GY, oid: &OID };

/// The field prime and the group order as compile-time moduli.
pub(crate) struct P;
pub(crate) struct Q;

#[cfg(target_pointer_width = "64")]
impl Modulus64<6> for P {
    const MONT: Mont64<6> = Mont64::new(&P_BYTES);
    const COMB: &'static [[[u64; 6]; 2]] = &COMB64;
    const ODD_G: &'static [[[u64; 6]; 2]] = &ODDG64;
}
/// `G, 3G, …, 127G` in 64-bit Montgomery form, converted at compile time.
#[cfg(target_pointer_width = "64")]
pub(crate) static ODDG64: [[[u64; 6]; 2]; 64] =
    <P as Modulus64<6>>::MONT.comb(&tables::P384_ODD_G, 48);
/// The full comb table (a row per scalar digit, no doublings) in 64-bit Montgomery form,
/// converted at compile time: what the two 64-bit fields use for `k·G`.
#[cfg(target_pointer_width = "64")]
static COMB64: [[[u64; 6]; 2]; tables::P384_FULL_COMB.len() / (2 * 48)] =
    <P as Modulus64<6>>::MONT.comb(&tables::P384_FULL_COMB, 48);
#[cfg(target_pointer_width = "64")]
impl Modulus64<6> for Q {
    const MONT: Mont64<6> = Mont64::new(&N);
}
impl Modulus15<26> for P {
    const MONT: Mont15<26> = Mont15::new(&P_BYTES);
    const COMB_BYTES: &'static [u8] = COMB_BYTES;
}
impl Modulus15<26> for Q {
    const MONT: Mont15<26> = Mont15::new(&N);
}

#[cfg(target_pointer_width = "64")]
pub(crate) static FP64: Fixed64<P, 6> = Fixed64::new();
#[cfg(target_pointer_width = "64")]
pub(crate) static FQ64: Fixed64<Q, 6> = Fixed64::new();
pub(crate) static FP15: Fixed15<P, 26> = Fixed15::new();
static FQ15: Fixed15<Q, 26> = Fixed15::new();

/// Runs `$body` with `$c` bound to the P-384 curve on implementation `$imp`: the shared
/// NIST-curve fields, or on ADX the field and scalars in `asm!`.
macro_rules! with_curve {
    ($imp:expr, |$c:ident| $body:expr) => {
        match $imp {
            #[cfg(all(target_arch = "x86_64", feature = "asm"))]
            $crate::nist::P384Impl::X86Adx(token) => {
                let fp = $crate::nist::p384_x86_adx::P384X86Adx(token);
                let fq = $crate::nist::p384_x86_adx::P384ScalarX86Adx(token);
                let $c = $crate::nist::point::Curve::new(&fp, &fq, &PARAMS);
                $body
            }
            #[cfg(target_pointer_width = "64")]
            $crate::nist::P384Impl::Mont64 => {
                let $c = $crate::nist::point::Curve::new(&FP64, &FQ64, &PARAMS);
                $body
            }
            $crate::nist::P384Impl::Mont15 => {
                let $c = $crate::nist::point::Curve::new(&FP15, &FQ15, &PARAMS);
                $body
            }
        }
    };
}

crate::nist::api::nist_api!("P-384", 48, core_hash::Sha384, "SHA-384", P384Impl);

/// The full comb table of the 64-bit fields is checked against one computed from scratch.
#[cfg(all(test, target_pointer_width = "64"))]
#[test]
fn full_comb_table_is_right() {
    with_curve!(P384Impl::Mont64, |c| {
        let table = crate::nist::point::full_comb_table(&c);
        assert!(table == tables::P384_FULL_COMB, "P-384 full comb table differs");
    });
}

/// Prints the full comb table as hex, for regenerating `tables.rs`:
/// `cargo test -p core-ec --lib p384::print_full_comb_table -- --ignored --nocapture`.
#[cfg(all(test, target_pointer_width = "64"))]
#[test]
#[ignore = "generator, not a test"]
fn print_full_comb_table() {
    let table = with_curve!(P384Impl::Mont15, |c| crate::nist::point::full_comb_table(&c));
    std::print!("FULLTABLE ");
    for b in table {
        std::print!("{b:02x}");
    }
    std::println!();
}

/// Prints the odd multiples of `G` as hex, for regenerating `tables.rs`.
#[cfg(all(test, target_pointer_width = "64"))]
#[test]
#[ignore = "generator, not a test"]
fn print_odd_g_table() {
    let table = with_curve!(P384Impl::Mont15, |c| crate::nist::point::odd_g_table(&c));
    std::print!("ODDG ");
    for b in table {
        std::print!("{b:02x}");
    }
    std::println!();
}

/// The odd multiples of `G` of the 64-bit fields are checked against ones computed from
/// scratch.
#[cfg(all(test, target_pointer_width = "64"))]
#[test]
fn odd_g_table_is_right() {
    with_curve!(P384Impl::Mont15, |c| {
        let table = crate::nist::point::odd_g_table(&c);
        assert!(table == tables::P384_ODD_G, "P384 odd multiples of G differ");
    });
}

/// Every implementation's scalar multiplications agree on edge scalars (see
/// [`check_edge_scalars`](crate::nist::point::check_edge_scalars)).
#[cfg(test)]
#[test]
fn scalar_multiplications_agree_on_edge_scalars() {
    use core_hash::Implementation;
    for imp in P384Impl::available() {
        with_curve!(imp, |c| crate::nist::point::check_edge_scalars(&c));
    }
}

/// Every implementation's whole-point routines equal the generic formulas (see
/// [`check_point_hooks`](crate::nist::point::check_point_hooks)).
#[cfg(test)]
#[test]
fn point_routines_match_the_formulas() {
    use core_hash::Implementation;
    for imp in P384Impl::available() {
        with_curve!(imp, |c| crate::nist::point::check_point_hooks(&c));
    }
}
