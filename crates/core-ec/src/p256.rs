//! P-256 (FIPS 186-5 and SP 800-186 §3.2.1.3): ECDH and ECDSA with SHA-256, with keys and signatures in SEC1, DER,
//! SPKI and PKCS#8 forms.
//!
//! Arithmetic runs on one of the [`P256Impl`] field implementations, chosen when a key is built
//! (`x86_adx` where the CPU has BMI2 and ADX, else `p256_mont64` on 64-bit targets,
//! `p256_thumb1` on 32-bit Arm with the `asm` feature, `mont15` elsewhere). Private-key operations are constant-time;
//! [`PublicKey::verify`] is variable-time, as it handles only public data.
//!
//! ```
//! use core_ec::p256::{PublicKey, SecretKey, Signature, SigningKey};
//!
//! let signing = SigningKey::from_bytes(&[7u8; 32])?;
//! let sig = signing.sign(b"message");
//! let public = PublicKey::from_sec1_bytes(&signing.verifying_key().to_sec1_bytes())?;
//! public.verify(b"message", &Signature::from_der(sig.to_der().as_ref())?)?;
//! assert!(public.verify(b"massage", &sig).is_err());
//!
//! let alice = SecretKey::from_bytes(&[1u8; 32])?;
//! let bob = SecretKey::from_bytes(&[2u8; 32])?;
//! let ab = alice.diffie_hellman(&bob.public_key())?;
//! let ba = bob.diffie_hellman(&alice.public_key())?;
//! assert_eq!(ab.as_bytes(), ba.as_bytes());
//! # Ok::<(), core_ec::Error>(())
//! ```

use crate::nist::point::Params;
use crate::nist::{Fixed15, Modulus15, Mont15, hex, tables};
#[cfg(target_pointer_width = "64")]
use crate::nist::{Fixed64, Modulus64, Mont64};

pub(crate) const P_BYTES: [u8; 32] =
    hex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff");
const N: [u8; 32] = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
const B: [u8; 32] = hex("5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b");
const GX: [u8; 32] = hex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296");
const GY: [u8; 32] = hex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5");
/// prime256v1 (1.2.840.10045.3.1.7).
const OID: [u8; 8] = hex("2a8648ce3d030107");

/// The comb table for the 15-bit field (see [`Field::comb_bytes`](crate::nist::Field::comb_bytes)).
const COMB_BYTES: &[u8] = &tables::P256_COMB;

static PARAMS: Params = Params { len: 32, qlen: 256, n: &N, b: &B, gx: &GX, gy: &GY, oid: &OID };

/// The field prime and the group order as compile-time moduli.
pub(crate) struct P;
pub(crate) struct Q;

#[cfg(target_pointer_width = "64")]
impl Modulus64<4> for P {
    const MONT: Mont64<4> = Mont64::new(&P_BYTES);
    const COMB: &'static [[[u64; 4]; 2]] = &COMB64;
    const ODD_G: &'static [[[u64; 4]; 2]] = &ODDG64;
}
/// `G, 3G, …, 127G` in 64-bit Montgomery form, converted at compile time.
#[cfg(target_pointer_width = "64")]
pub(crate) static ODDG64: [[[u64; 4]; 2]; 64] =
    <P as Modulus64<4>>::MONT.comb(&tables::P256_ODD_G, 32);
/// The full comb table (a row per scalar digit, no doublings) in 64-bit Montgomery form,
/// converted at compile time: what the three 64-bit fields use for `k·G`.
#[cfg(target_pointer_width = "64")]
pub(crate) static COMB64: [[[u64; 4]; 2]; tables::P256_FULL_COMB.len() / (2 * 32)] =
    <P as Modulus64<4>>::MONT.comb(&tables::P256_FULL_COMB, 32);
#[cfg(target_pointer_width = "64")]
impl Modulus64<4> for Q {
    const MONT: Mont64<4> = Mont64::new(&N);
}
impl Modulus15<18> for P {
    const MONT: Mont15<18> = Mont15::new(&P_BYTES);
    const COMB_BYTES: &'static [u8] = COMB_BYTES;
}
impl Modulus15<18> for Q {
    const MONT: Mont15<18> = Mont15::new(&N);
}

#[cfg(target_pointer_width = "64")]
pub(crate) static FP64: Fixed64<P, 4> = Fixed64::new();
#[cfg(target_pointer_width = "64")]
pub(crate) static FQ64: Fixed64<Q, 4> = Fixed64::new();
pub(crate) static FP15: Fixed15<P, 18> = Fixed15::new();
static FQ15: Fixed15<Q, 18> = Fixed15::new();

/// Runs `$body` with `$c` bound to the P-256 curve on implementation `$imp`: the shared
/// NIST-curve fields, or one specialised to P-256's prime (with the generic scalar field, or
/// on ADX with the scalar multiplication in `asm!` too).
macro_rules! with_curve {
    ($imp:expr, |$c:ident| $body:expr) => {
        match $imp {
            #[cfg(all(target_arch = "x86_64", feature = "asm"))]
            $crate::nist::P256Impl::X86Adx(token) => {
                let fp = $crate::nist::p256_x86_adx::P256X86Adx(token);
                let fq = $crate::nist::p256_x86_adx::P256ScalarX86Adx(token);
                let $c = $crate::nist::point::Curve::new(&fp, &fq, &PARAMS);
                $body
            }
            #[cfg(target_pointer_width = "64")]
            $crate::nist::P256Impl::P256Mont64 => {
                let fp = $crate::nist::p256_mont64::P256Mont64;
                let $c = $crate::nist::point::Curve::new(&fp, &FQ64, &PARAMS);
                $body
            }
            #[cfg(target_pointer_width = "64")]
            $crate::nist::P256Impl::Mont64 => {
                let $c = $crate::nist::point::Curve::new(&FP64, &FQ64, &PARAMS);
                $body
            }
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            $crate::nist::P256Impl::P256Thumb1 => {
                let fp = $crate::nist::p256_thumb1::P256Thumb1;
                let $c = $crate::nist::point::Curve::new(&fp, &FQ15, &PARAMS);
                $body
            }
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            $crate::nist::P256Impl::Mont15 => {
                let $c = $crate::nist::point::Curve::new(&FP15, &FQ15, &PARAMS);
                $body
            }
        }
    };
}

/// On the Cortex-M0 with `asm`, where the API reaches only `p256_thumb1`: public key, ECDH,
/// signature and verification (of the signature and of a forgery) on `p256_thumb1` and on
/// `mont15`, for the firmware's checks; the name of the first result that differs.
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) fn thumb1_against_mont15(
    d: &[u8; 32],
    peer: &[u8; 64],
    hash: &[u8; 32],
) -> Result<(), &'static str> {
    use crate::nist::{Field, ops, point::Curve};
    type Results = ([u8; 64], [u8; 32], Result<(), Error>, [u8; 64], Result<(), Error>, bool);
    fn run<F: Field, S: Field>(
        c: &Curve<'_, F, S>,
        d: &[u8],
        peer: &[u8],
        h: &[u8; 32],
    ) -> Results {
        let mut public = [0u8; 64];
        let ok = ops::public_key(c, d, &mut public);
        let mut shared = [0u8; 32];
        let ecdh = ops::ecdh(c, d, peer, &mut shared);
        let mut sig = [0u8; 64];
        let signed = ops::sign::<core_hash::Sha256, _, _>(c, d, h, &[], &mut sig).and(ok);
        let mut bad = *h;
        bad[5] ^= 0x10;
        let verify = ops::verify::<_, _, { crate::nist::point::naf_digits(32) }>;
        let verified =
            verify(c, &public, h, &sig).is_ok() && verify(c, &public, &bad, &sig).is_err();
        (public, shared, ecdh, sig, signed, verified)
    }
    let fp = crate::nist::p256_thumb1::P256Thumb1;
    let t = run(&crate::nist::point::Curve::new(&fp, &FQ15, &PARAMS), d, peer, hash);
    let m = run(&crate::nist::point::Curve::new(&FP15, &FQ15, &PARAMS), d, peer, hash);
    if !t.5 || !m.5 {
        return Err("verification");
    }
    let checks = [
        ("public key", t.0 == m.0),
        ("shared secret", t.1 == m.1 && t.2 == m.2),
        ("signature", t.3 == m.3 && t.4 == m.4),
    ];
    checks.iter().find(|(_, same)| !same).map_or(Ok(()), |(name, _)| Err(*name))
}

/// On the Cortex-M0 with `asm`: every field operation of `p256_thumb1` against `mont15`'s
/// P-256 field on `a` and `b` (see `p256_thumb1::field_results`).
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) fn thumb1_field_against_mont15(a: &[u8; 32], b: &[u8; 32]) -> Result<(), &'static str> {
    let t = crate::nist::p256_thumb1::field_results(&crate::nist::p256_thumb1::P256Thumb1, a, b);
    let m = crate::nist::p256_thumb1::field_results(&FP15, a, b);
    t.iter().zip(&m).find(|(x, y)| x.1 != y.1).map_or(Ok(()), |(x, _)| Err(x.0))
}

crate::nist::api::nist_api!("P-256", 32, core_hash::Sha256, "SHA-256", P256Impl);

/// The full comb table of the 64-bit fields is checked against one computed from scratch.
#[cfg(all(test, target_pointer_width = "64"))]
#[test]
fn full_comb_table_is_right() {
    with_curve!(P256Impl::P256Mont64, |c| {
        let table = crate::nist::point::full_comb_table_window(&c, 5);
        assert!(table == tables::P256_FULL_COMB, "P-256 full comb table differs");
    });
}

/// Prints the full comb table as hex, for regenerating `tables.rs`:
/// `cargo test -p core-ec --lib print_full_comb_table -- --ignored --nocapture`.
#[cfg(all(test, target_pointer_width = "64"))]
#[test]
#[ignore = "generator, not a test"]
fn print_full_comb_table() {
    let table =
        with_curve!(P256Impl::P256Mont64, |c| crate::nist::point::full_comb_table_window(&c, 5));
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
    let table = with_curve!(P256Impl::Mont15, |c| crate::nist::point::odd_g_table(&c));
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
    with_curve!(P256Impl::Mont15, |c| {
        let table = crate::nist::point::odd_g_table(&c);
        assert!(table == tables::P256_ODD_G, "P256 odd multiples of G differ");
    });
}

/// Every implementation's scalar multiplications agree on edge scalars (see
/// [`check_edge_scalars`](crate::nist::point::check_edge_scalars)).
#[cfg(test)]
#[test]
fn scalar_multiplications_agree_on_edge_scalars() {
    use core_hash::Implementation;
    for imp in P256Impl::available() {
        with_curve!(imp, |c| crate::nist::point::check_edge_scalars(&c));
    }
}

/// Every implementation's whole-point routines equal the generic formulas (see
/// [`check_point_hooks`](crate::nist::point::check_point_hooks)).
#[cfg(test)]
#[test]
fn point_routines_match_the_formulas() {
    use core_hash::Implementation;
    for imp in P256Impl::available() {
        with_curve!(imp, |c| crate::nist::point::check_point_hooks(&c));
    }
}

/// Private scalars at the edges of `1..n` are accepted or refused on every implementation
/// (the range check works on the bytes, through `Field::below_modulus`).
#[cfg(test)]
#[test]
fn scalar_range_edges() {
    use core_hash::Implementation;
    let mut below = N;
    below[31] -= 1;
    let mut above = N;
    above[31] += 1;
    let mut one = [0u8; 32];
    one[31] = 1;
    for imp in P256Impl::available() {
        for (k, ok) in [(N, false), (above, false), ([0; 32], false), (below, true), (one, true)] {
            let got = SecretKey::from_bytes_with_impl(&k, imp).is_ok();
            assert_eq!(got, ok, "{} on {k:02x?}", imp.name());
        }
    }
}
