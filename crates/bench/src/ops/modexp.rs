//! The MIRACL-style modular exponentiation table, counted in operations per second:
//! `base^exp mod n` for a random base, a full-length random exponent and a random odd modulus
//! of 512, 1024, 2048, 4096 and 8192 bits, by Halite's constant-time [`core_rsa::Modulus::pow`]
//! on every implementation (the modulus prepared once, as a protocol would), and by
//! RustCrypto's `num-bigint-dig` (`rsa::BigUint::modpow`: variable time, no reusable context)
//! for scale. The exponent and modulus are fixed and the base is a fixed number with the
//! message folded into it, so the agreement check sees a different base at every message
//! length and every library's result is byte-equal.

use super::{Halite, Library, Op, Runner, Unit, peer};
use core_rsa::{Implementation as _, Modulus, MontImpl};

/// `(base, exponent, modulus)` of `BITS` bits each, big-endian: the same every run (xorshift
/// from a fixed seed), the modulus odd with its top bit set, the base below it.
fn numbers<const BITS: usize>() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut x = 0x2545_f491_4f6c_dd1d_u64 ^ BITS as u64;
    let mut next = |len: usize| -> Vec<u8> {
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 56) as u8
            })
            .collect()
    };
    let len = BITS / 8;
    let mut n = next(len);
    n[0] |= 0x80;
    n[len - 1] |= 1;
    let mut base = next(len);
    base[0] &= 0x7f;
    let exp = next(len);
    (base, exp, n)
}

/// `base` with `message` xor-ed into it (cycled; the top bit kept clear, so it stays below the
/// modulus).
fn fold(base: &mut [u8], message: &[u8]) {
    if !message.is_empty() {
        for (b, m) in base.iter_mut().zip(message.iter().cycle()) {
            *b ^= m;
        }
        base[0] &= 0x7f;
    }
}

fn modexp_op<const BITS: usize>(id: &'static str, what: &'static str) -> Op {
    Op {
        id,
        group: "modexp",
        what,
        unit: Unit::Ops,
        sizes: None,
        halite: halite_modexp::<BITS>,
        peers: vec![peer(Library::RustCrypto, rustcrypto_modexp::<BITS>)]
            .into_iter()
            .flatten()
            .collect(),
        openssl: None,
        canonical: None,
    }
}

/// The modexp operations, in table order.
pub(super) fn ops() -> Vec<Op> {
    vec![
        modexp_op::<512>("modexp-512", "512-bit constant-time modular exponentiation"),
        modexp_op::<1024>("modexp-1024", "1024-bit constant-time modular exponentiation"),
        modexp_op::<2048>("modexp-2048", "2048-bit constant-time modular exponentiation"),
        modexp_op::<4096>("modexp-4096", "4096-bit constant-time modular exponentiation"),
        modexp_op::<8192>("modexp-8192", "8192-bit constant-time modular exponentiation"),
    ]
}

fn halite_on<const BITS: usize>(imp: MontImpl) -> Runner {
    let (base, exp, n) = numbers::<BITS>();
    let m = Modulus::with_impl(&n, imp).expect("an odd modulus");
    let mut b = base.clone();
    Box::new(move |msg, out| {
        b.copy_from_slice(&base);
        fold(&mut b, msg);
        let at = out.len();
        out.resize(at + BITS / 8, 0);
        m.pow(&b, &exp, &mut out[at..]).expect("sizes match");
    })
}

/// Halite's constant-time exponentiation, on the best implementation and on each one.
pub fn halite_modexp<const BITS: usize>() -> Halite {
    Halite {
        default_impl: MontImpl::best().name().to_owned(),
        default: halite_on::<BITS>(MontImpl::best()),
        impls: MontImpl::available().map(|i| (i.name().to_owned(), halite_on::<BITS>(i))).collect(),
    }
}

/// RustCrypto's `num-bigint-dig` `modpow`, padded to the modulus length.
pub fn rustcrypto_modexp<const BITS: usize>() -> Runner {
    let (base, exp, n) = numbers::<BITS>();
    let (exp, n) = (rsa::BigUint::from_bytes_be(&exp), rsa::BigUint::from_bytes_be(&n));
    let mut b = base.clone();
    Box::new(move |msg, out| {
        b.copy_from_slice(&base);
        fold(&mut b, msg);
        let r = rsa::BigUint::from_bytes_be(&b).modpow(&exp, &n).to_bytes_be();
        out.resize(out.len() + BITS / 8 - r.len(), 0);
        out.extend_from_slice(&r);
    })
}
