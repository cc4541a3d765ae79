//! Helpers shared by the ChaCha20, Poly1305 and ChaCha20-Poly1305 suites: every implementation
//! this CPU can run (saying once which it cannot), and hex decoding.
#![allow(dead_code, unreachable_pub)]

use core_aead::{ChaCha20Impl, Implementation, Poly1305Impl};

/// Every implementation of `I` this CPU can run, including any that `available()` leaves out
/// but `by_name()` finds; prints, once per algorithm, the ones it cannot run.
fn every<I: Implementation>(algorithm: &str, once: &std::sync::Once) -> Vec<I> {
    let mut all: Vec<I> = I::available().collect();
    let mut missing = Vec::new();
    for name in I::ALL {
        match I::by_name(name) {
            Some(imp) if !all.contains(&imp) => all.push(imp),
            Some(_) => {}
            None => missing.push(*name),
        }
    }
    once.call_once(|| {
        if missing.is_empty() {
            println!("{algorithm}: every implementation is available and checked");
        } else {
            println!("{algorithm}: not available on this CPU, not checked: {}", missing.join(", "));
        }
    });
    all
}

/// Every ChaCha20 implementation this CPU can run.
pub fn chacha_impls() -> Vec<ChaCha20Impl> {
    static ONCE: std::sync::Once = std::sync::Once::new();
    every("chacha20", &ONCE)
}

/// Every Poly1305 implementation this CPU can run (both portable ones everywhere).
pub fn poly_impls() -> Vec<Poly1305Impl> {
    static ONCE: std::sync::Once = std::sync::Once::new();
    every("poly1305", &ONCE)
}

/// Every pairing of a ChaCha20 and a Poly1305 implementation this CPU can run.
pub fn aead_impls() -> Vec<(ChaCha20Impl, Poly1305Impl)> {
    let polys = poly_impls();
    chacha_impls().into_iter().flat_map(|c| polys.iter().map(move |&p| (c, p))).collect()
}

/// Bytes from a hex string; whitespace is ignored.
pub fn unhex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(digits.len().is_multiple_of(2), "odd number of hex digits");
    digits
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).expect("hex digit"))
        .collect()
}

/// A deterministic pseudo-random byte string (xorshift), for long test messages.
pub fn pattern(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}
