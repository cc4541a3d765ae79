//! The safegcd division steps of core-ec's constant-time inversions (P-256, P-384, P-521 and
//! Curve25519), a batch on conditional moves.

use core::arch::asm;

/// `steps` safegcd division steps (Bernstein–Yang, "Fast constant-time gcd computation and
/// modular inversion", 2019) on the low bits of `f` (odd) and `g`, in the
/// `zeta = −(delta + 1/2)` form, with the transition matrix's rows packed two entries to a word
/// (`u + 2^32·v`, entries within ±2^30 for at most 30 steps): returns the new `zeta`, `f`, `g`
/// and the packed rows `uv`, `qr` (starting from `(1, 0)` and `(0, 1)`). Core-ec's
/// `divsteps_packed_masks` is the same on masks in Rust, and its tests compare the two.
///
/// On conditional moves: the chain from one `g` to the
/// next is a test, a move, an add and a shift (four cycles where the masks took five or
/// six), which is what bounds a division step. Every step runs the same instructions; the
/// loop count is public.
#[inline(always)]
#[must_use]
pub fn divsteps_packed(
    mut zeta: i64,
    mut f: u64,
    mut g: u64,
    steps: usize,
) -> (i64, u64, u64, u64, u64) {
    let mut uv = 1u64;
    let mut qr = 1u64 << 32;
    // SAFETY: baseline x86-64 instructions (`cmov` is part of it) on registers only; no
    // memory, no stack. The loop runs `steps` times, a public count.
    unsafe {
        asm!(
            "test {n}, {n}",
            "jz 3f",
            "2:",
            // m1 = 1 when zeta < 0; x, y = (f, (u, v)) negated when zeta < 0.
            "mov {m1}, {zeta}",
            "shr {m1}, 63",
            "mov {x}, {f}",
            "neg {x}",
            "mov {y}, {uv}",
            "neg {y}",
            "test {zeta}, {zeta}",
            "cmovns {x}, {f}",
            "cmovns {y}, {uv}",
            // Nothing to add when g is even.
            "test {g}, 1",
            "cmovz {x}, {zero}",
            "cmovz {y}, {zero}",
            // g odd and zeta < 0: swap, (f, (u, v)) = old (g, (q, r)), zeta = −zeta − 2.
            "test {g}, {m1}",
            "cmovnz {f}, {g}",
            "cmovnz {uv}, {qr}",
            "mov {nz}, {zeta}",
            "not {nz}",
            "cmovnz {zeta}, {nz}",
            "add {g}, {x}",
            "add {qr}, {y}",
            "shr {g}, 1",
            "add {uv}, {uv}",
            "sub {zeta}, 1",
            "dec {n}",
            "jnz 2b",
            "3:",
            zeta = inout(reg) zeta,
            f = inout(reg) f,
            g = inout(reg) g,
            uv = inout(reg) uv,
            qr = inout(reg) qr,
            n = inout(reg) steps => _,
            zero = in(reg) 0u64,
            m1 = out(reg) _,
            x = out(reg) _,
            y = out(reg) _,
            nz = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    (zeta, f, g, uv, qr)
}
