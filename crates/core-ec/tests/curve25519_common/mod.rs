//! Helpers shared by the X25519 and Ed25519 suites: every field implementation this CPU can
//! run (saying once which it cannot), hex decoding and a scripted random source.
#![allow(dead_code, unreachable_pub)]

use core_ec::{Implementation, RandomSource, x25519::FieldImpl};

/// Every Curve25519 field implementation this CPU can run, including those `available()`
/// leaves out but `by_name()` finds; prints once the ones it cannot run.
pub fn field_impls() -> Vec<FieldImpl> {
    static ONCE: std::sync::Once = std::sync::Once::new();
    let mut all: Vec<FieldImpl> = FieldImpl::available().collect();
    let mut missing = Vec::new();
    for name in FieldImpl::ALL {
        match FieldImpl::by_name(name) {
            Some(imp) if !all.contains(&imp) => all.push(imp),
            Some(_) => {}
            None => missing.push(*name),
        }
    }
    ONCE.call_once(|| {
        if missing.is_empty() {
            println!("curve25519: every implementation is available and checked");
        } else {
            println!("curve25519: not available on this CPU, not checked: {}", missing.join(", "));
        }
    });
    all
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

/// A fixed-size array from a hex string.
pub fn arr<const N: usize>(s: &str) -> [u8; N] {
    unhex(s).try_into().expect("hex string of the right length")
}

/// A random source that replays a counter-derived byte stream, or fails when asked to.
pub struct Scripted {
    pub next: u8,
    pub fail: bool,
}

impl RandomSource for Scripted {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), core_hash::RandomError> {
        if self.fail {
            return Err(core_hash::RandomError::Unavailable);
        }
        for b in dest {
            *b = self.next;
            self.next = self.next.wrapping_mul(5).wrapping_add(17);
        }
        Ok(())
    }
}
