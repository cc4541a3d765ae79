//! [`portable15`](super::portable15)'s product on the Cortex-M0 (32-bit Arm with `asm`), its
//! row loops in Thumb-1 assembly (`core_asm::thumbv6m::rsa`): the first `(to − from) mod 4`
//! digits of a row in Rust, then groups of four by hand. Compiled from Rust at opt-level z, the
//! loop keeps its nine live values in eight low registers by spilling, and a step costs about
//! 31 cycles; by hand, with all eight low registers, it is 17.5 (with two digits per pass it was
//! 19, and RSA-2048 signing 2% slower). Everything but the rows is `portable15`'s.

use super::portable15::{Rows, mac_row_rust, red_row_rust};
use core_asm::thumbv6m::rsa::{head, mac_quads, red_quads};

/// The 15-bit engine with Thumb-1 row loops.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Thumb1;

impl Rows for Thumb1 {
    #[inline(always)]
    fn mac_row(
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
        let c = mac_row_rust(r, x, n, from, head(from, to), xi, m, c);
        mac_quads(r, x, n, from, to, xi, m, c)
    }

    #[inline(always)]
    fn red_row(r: &mut [u16], n: &[u16], from: usize, to: usize, m: u32, c: u32) -> u32 {
        assert!(1 <= from && from <= to && to <= r.len() && to <= n.len());
        let c = red_row_rust(r, n, from, head(from, to), m, c);
        red_quads(r, n, from, to, m, c)
    }
}
