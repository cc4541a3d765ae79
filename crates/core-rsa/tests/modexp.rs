//! Modular exponentiation: every implementation against every other and against RustCrypto's
//! `num-bigint-dig` (through `rsa::BigUint`) on random odd moduli of 2 to 4096 bits, random
//! bases and exponents (and full-length ones at every RSA size from 512 to 4096 bits), both
//! the constant-time and the public-exponent paths; known small answers; and bad moduli and
//! lengths refused with the right error.

use core_rsa::{Error, Implementation, Modulus, MontImpl, modexp, modexp_vartime};
use proptest::prelude::*;
use rsa::BigUint;

fn impls() -> Vec<MontImpl> {
    let all: Vec<_> = MontImpl::ALL.iter().filter_map(|n| MontImpl::by_name(n)).collect();
    let missing: Vec<_> = MontImpl::ALL.iter().filter(|n| MontImpl::by_name(n).is_none()).collect();
    if !missing.is_empty() {
        eprintln!("not available on this CPU, not checked: {missing:?}");
    }
    all
}

fn reference(base: &[u8], exp: &[u8], n: &[u8]) -> Vec<u8> {
    let n_big = BigUint::from_bytes_be(n);
    let r = BigUint::from_bytes_be(base).modpow(&BigUint::from_bytes_be(exp), &n_big);
    let len = n_big.bits().div_ceil(8);
    let mut out = vec![0; len];
    let b = r.to_bytes_be();
    if r.bits() > 0 {
        out[len - b.len()..].copy_from_slice(&b);
    }
    out
}

fn check(base: &[u8], exp: &[u8], n: &[u8]) {
    let want = reference(base, exp, n);
    for imp in impls() {
        let m = Modulus::with_impl(n, imp).unwrap();
        assert_eq!(m.byte_len(), want.len());
        let mut out = vec![0; want.len()];
        m.pow(base, exp, &mut out).unwrap();
        assert_eq!(out, want, "{} pow", imp.name());
        let mut out = vec![0; want.len()];
        m.pow_vartime(base, exp, &mut out).unwrap();
        assert_eq!(out, want, "{} pow_vartime", imp.name());
    }
}

/// A random odd modulus of exactly `bits` bits from `seed` bytes.
fn modulus(bits: usize, seed: &[u8]) -> Vec<u8> {
    let len = bits.div_ceil(8);
    let mut n: Vec<u8> = seed.iter().cycle().take(len).copied().collect();
    let top = bits - 8 * (len - 1);
    n[0] &= ((1u16 << top) - 1) as u8;
    n[0] |= 1 << (top - 1);
    n[len - 1] |= 1;
    n
}

#[test]
fn small_known_answers() {
    let mut out = [0u8; 2];
    // 7^1000 mod 3001 = 1 (3001 is prime, 1000 divides 3000... 7 has order dividing 3000).
    modexp(&[7], &[0x03, 0xe8], &[0x0b, 0xb9], &mut out).unwrap();
    let want = reference(&[7], &[0x03, 0xe8], &[0x0b, 0xb9]);
    assert_eq!(out.to_vec(), want);
    let mut one = [0u8; 1];
    modexp(&[5], &[], &[7], &mut one).unwrap();
    assert_eq!(one, [1], "x^0 = 1");
    modexp_vartime(&[5], &[0], &[7], &mut one).unwrap();
    assert_eq!(one, [1], "x^0 = 1 (vartime)");
    modexp(&[0], &[5], &[7], &mut one).unwrap();
    assert_eq!(one, [0]);
    modexp(&[3], &[1], &[0, 0, 7], &mut one).unwrap();
    assert_eq!(one, [3], "leading zero bytes of the modulus are ignored");
}

#[test]
fn bad_moduli_and_lengths() {
    let mut out = [0u8; 1];
    for n in [&[][..], &[0], &[0, 0], &[1], &[8], &[0x10, 0x00]] {
        assert_eq!(Modulus::new(n).err(), Some(Error::InvalidModulus), "{n:?}");
    }
    let big = vec![0xffu8; 1025];
    assert_eq!(Modulus::new(&big).err(), Some(Error::InvalidModulus));
    let m = Modulus::new(&[0x0b, 0xb9]).unwrap();
    assert_eq!(m.pow(&[1], &[1], &mut out), Err(Error::InvalidLength), "short output");
    let mut out = [0u8; 2];
    assert_eq!(m.pow(&[1, 2, 3], &[1], &mut out), Err(Error::InvalidLength), "long base");
    assert_eq!(m.pow(&[1], &[1; 1025], &mut out), Err(Error::InvalidLength), "long exponent");
}

#[test]
fn max_size_modulus() {
    let n = modulus(8192, &[0x9d, 0x31, 0x77, 0xe2, 0x05]);
    let base: Vec<u8> = (0..1024u32).map(|i| (i * 7 + 3) as u8).collect();
    check(&base, &[0x01, 0x00, 0x01], &n);
    check(&base[..40], &base[..64], &n);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn matches_reference(
        bits in 2usize..=4096,
        seed in proptest::collection::vec(any::<u8>(), 1..64),
        base in proptest::collection::vec(any::<u8>(), 0..=512),
        exp in proptest::collection::vec(any::<u8>(), 0..=64),
    ) {
        let n = modulus(bits, &seed);
        let base = &base[..base.len().min(n.len())];
        check(base, &exp, &n);
    }

    /// RSA-sized moduli of any length from 512 to 4096 bits, with a base and an exponent as
    /// long as the modulus (or shorter, with leading zeros kept).
    #[test]
    fn rsa_sizes_full_length(
        bits in 512usize..=4096,
        nbytes in proptest::collection::vec(any::<u8>(), 512),
        bbytes in proptest::collection::vec(any::<u8>(), 512),
        ebytes in proptest::collection::vec(any::<u8>(), 512),
        exp_percent in prop_oneof![Just(100usize), 1usize..=100],
    ) {
        let n = modulus(bits, &nbytes[..bits.div_ceil(8)]);
        let base = &bbytes[..n.len()];
        let exp = &ebytes[..(n.len() * exp_percent).div_ceil(100)];
        check(base, exp, &n);
    }

    #[test]
    fn full_length_exponents(
        bits in prop_oneof![Just(512usize), Just(1024), Just(1536), Just(2048)],
        seed in proptest::collection::vec(any::<u8>(), 8..64),
        bseed in proptest::collection::vec(any::<u8>(), 8..64),
    ) {
        let n = modulus(bits, &seed);
        let base: Vec<u8> = bseed.iter().cycle().take(n.len()).copied().collect();
        let exp: Vec<u8> = seed.iter().rev().cycle().take(n.len()).copied().collect();
        check(&base, &exp, &n);
    }
}

/// The registry lists every implementation under "rsa-mont", available exactly when
/// `by_name` finds it, and the best one is available.
#[test]
fn registry_rows_match_implementations() {
    let rows: Vec<_> = core_rsa::implementations().collect();
    assert_eq!(rows.len(), MontImpl::ALL.len());
    for r in &rows {
        assert_eq!(r.algorithm, "rsa-mont");
        assert_eq!(r.available, MontImpl::by_name(r.implementation).is_some(), "{r:?}");
    }
    assert!(rows.iter().any(|r| r.implementation == MontImpl::best().name() && r.available));
    assert!(MontImpl::by_name("portable64").is_some() && MontImpl::by_name("portable15").is_some());
}
