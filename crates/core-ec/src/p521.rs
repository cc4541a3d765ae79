//! P-521 (SP 800-186 §3.2.1.5): ECDH and ECDSA with SHA-512, with keys and signatures in SEC1, DER,
//! SPKI and PKCS#8 forms.
//!
//! Arithmetic runs on one of the [`P521Impl`] field implementations, chosen when a key is built
//! (`mont64` on 64-bit targets, `mont15` elsewhere). Private-key operations are constant-time;
//! [`PublicKey::verify`] is variable-time, as it handles only public data.
//!
//! ```
//! use core_ec::p521::{PublicKey, SecretKey, Signature, SigningKey};
//!
//! // Scalars are 66 bytes below n ≈ 2^521: the top byte is at most 1.
//! let mut d = [7u8; 66];
//! d[0] = 1;
//! let signing = SigningKey::from_bytes(&d)?;
//! let sig = signing.sign(b"message");
//! let public = PublicKey::from_sec1_bytes(&signing.verifying_key().to_sec1_bytes())?;
//! public.verify(b"message", &Signature::from_der(sig.to_der().as_ref())?)?;
//! assert!(public.verify(b"massage", &sig).is_err());
//!
//! let alice = SecretKey::from_bytes(&[1u8; 66])?;
//! d[0] = 0;
//! let bob = SecretKey::from_bytes(&d)?;
//! let ab = alice.diffie_hellman(&bob.public_key())?;
//! let ba = bob.diffie_hellman(&alice.public_key())?;
//! assert_eq!(ab.as_bytes(), ba.as_bytes());
//! # Ok::<(), core_ec::Error>(())
//! ```

use crate::nist::point::Params;
use crate::nist::{Fixed15, Modulus15, Mont15, hex, tables};
#[cfg(target_pointer_width = "64")]
use crate::nist::{Fixed64, Modulus64, Mont64};

const P_BYTES: [u8; 66] = hex(
    "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
);
const N: [u8; 66] = hex(
    "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409",
);
const B: [u8; 66] = hex(
    "0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00",
);
const GX: [u8; 66] = hex(
    "00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66",
);
const GY: [u8; 66] = hex(
    "011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd16650",
);
/// secp521r1 (1.3.132.0.35).
const OID: [u8; 5] = hex("2b81040023");

/// The comb table for the 15-bit field (see [`Field::comb_bytes`](crate::nist::Field::comb_bytes)).
const COMB_BYTES: &[u8] = &tables::P521_COMB;

static PARAMS: Params = Params { len: 66, qlen: 521, n: &N, b: &B, gx: &GX, gy: &GY, oid: &OID };

/// The field prime and the group order as compile-time moduli.
pub(crate) struct P;
pub(crate) struct Q;

#[cfg(target_pointer_width = "64")]
impl Modulus64<9> for P {
    const MONT: Mont64<9> = Mont64::new(&P_BYTES);
    const COMB: &'static [[[u64; 9]; 2]] = &COMB64;
}
/// The comb table in 64-bit Montgomery form, converted at compile time.
#[cfg(target_pointer_width = "64")]
static COMB64: [[[u64; 9]; 2]; tables::P521_COMB.len() / (2 * 66)] =
    <P as Modulus64<9>>::MONT.comb(&tables::P521_COMB, 66);
#[cfg(target_pointer_width = "64")]
impl Modulus64<9> for Q {
    const MONT: Mont64<9> = Mont64::new(&N);
}
impl Modulus15<35> for P {
    const MONT: Mont15<35> = Mont15::new(&P_BYTES);
    const COMB_BYTES: &'static [u8] = COMB_BYTES;
}
impl Modulus15<35> for Q {
    const MONT: Mont15<35> = Mont15::new(&N);
}

#[cfg(target_pointer_width = "64")]
static FP64: Fixed64<P, 9> = Fixed64::new();
#[cfg(target_pointer_width = "64")]
static FQ64: Fixed64<Q, 9> = Fixed64::new();
static FP15: Fixed15<P, 35> = Fixed15::new();
static FQ15: Fixed15<Q, 35> = Fixed15::new();

use crate::nist::api::with_curve;

crate::nist::api::nist_api!("P-521", 66, core_hash::Sha512, "SHA-512", P521Impl);

/// Every implementation's scalar multiplications agree on edge scalars (see
/// [`check_edge_scalars`](crate::nist::point::check_edge_scalars)).
#[cfg(test)]
#[test]
fn scalar_multiplications_agree_on_edge_scalars() {
    use core_hash::Implementation;
    for imp in P521Impl::available() {
        with_curve!(imp, |c| crate::nist::point::check_edge_scalars(&c));
    }
}
