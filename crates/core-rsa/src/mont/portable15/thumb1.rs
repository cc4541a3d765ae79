//! The row loops of [`portable15`](super) on the Cortex-M0: the first `(to − from) mod 4`
//! digits in Rust, then groups of four in Thumb-1 assembly (`core_asm::thumbv6m::rsa`).
//! Compiled from Rust at opt-level z, the loop keeps its nine live values in eight low
//! registers by spilling, and a step costs about 31 cycles; by hand, with all eight low
//! registers, it is 17.5 (with two digits per pass it was 19, and RSA-2048 signing 2% slower).

use super::{mac_row_rust, red_row_rust};
use core_asm::thumbv6m::rsa::{mac_quads, red_quads};

/// `mac_row`: the first `(to − from) mod 4` digits in Rust, then groups of four in
/// assembly.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn mac_row(
    r: &mut [u16],
    x: &[u16],
    n: &[u16],
    from: usize,
    to: usize,
    xi: u32,
    m: u32,
    c: u32,
) -> u32 {
    assert!(1 <= from && from <= to && to <= r.len() && to <= x.len() && to <= n.len());
    let odd = from + ((to - from) & 3);
    let c = mac_row_rust(r, x, n, from, odd, xi, m, c);
    if to > odd {
        // SAFETY: `to − odd` is a nonzero multiple of four, `1 ≤ from ≤ odd`, and `to` is at
        // most each length (asserted above).
        unsafe { mac_quads(r, x, n, odd, to, xi, m, c) }
    } else {
        c
    }
}

/// `red_row`: the first `(to − from) mod 4` digits in Rust, then groups of four in
/// assembly.
#[inline(always)]
pub(super) fn red_row(r: &mut [u16], n: &[u16], from: usize, to: usize, m: u32, c: u32) -> u32 {
    assert!(1 <= from && from <= to && to <= r.len() && to <= n.len());
    let odd = from + ((to - from) & 3);
    let c = red_row_rust(r, n, from, odd, m, c);
    if to > odd {
        // SAFETY: as in `mac_row`.
        unsafe { red_quads(r, n, odd, to, m, c) }
    } else {
        c
    }
}
