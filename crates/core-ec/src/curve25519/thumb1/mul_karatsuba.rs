//! The 256×256→512-bit product for the Cortex-M0 as one level of Karatsuba over 128-bit
//! halves: three 128×128 products, each product scanning in Thumb-1 assembly. `MULS` gives
//! only the low 32 bits of a product, so each 32×32→64 word product takes four 16×16→32
//! `MULS` on the operands' halves (the Cortex-M0 has no `UMULL`); the middle product of
//! Karatsuba is `|a0 − a1|·|b0 − b1|` with its sign applied by masks, so nothing branches on
//! the values.

/// Adds the word product `a[i]·b[j]` (operands on the stack: `a` at `sp`, `b` at `sp + 16`,
/// byte offsets `$a` and `$b`) into the column accumulator `$h:$l` and counts its carry out
/// in r8. r0, r1, r4, r5 and r6 are scratch. The halves' products: `al·bl` (r6), `ah·bl`
/// (r5), `ah·bh` (r0), `al·bh` (r1); the two middle ones are added at bit 16 into
/// `r0:r6`, which cannot overflow since the whole product is below 2^64.
macro_rules! mac {
    ($a:literal, $b:literal, $l:literal, $h:literal) => {
        concat!(mac!(@product $a, $b), "adds ", $l, ", r6\n", "adcs ", $h, ", r0\n",
            "movs r4, #0\n", "adcs r4, r4\n", "add r8, r4\n")
    };
    // The last product of a column that cannot carry out of `$h:$l`.
    ($a:literal, $b:literal, $l:literal, $h:literal, nocarry) => {
        concat!(mac!(@product $a, $b), "adds ", $l, ", r6\n", "adcs ", $h, ", r0\n")
    };
    (@product $a:literal, $b:literal) => {
        concat!(
            "ldr r0, [sp, #", $a, "]\n",
            "ldr r1, [sp, #", $b, "]\n",
            "uxth r4, r0\n",
            "lsrs r0, r0, #16\n",
            "uxth r5, r1\n",
            "lsrs r1, r1, #16\n",
            "mov r6, r4\n",
            "muls r6, r5, r6\n",
            "muls r5, r0, r5\n",
            "muls r0, r1, r0\n",
            "muls r1, r4, r1\n",
            "lsls r4, r5, #16\n",
            "lsrs r5, r5, #16\n",
            "adds r6, r6, r4\n",
            "adcs r0, r5\n",
            "lsls r4, r1, #16\n",
            "lsrs r1, r1, #16\n",
            "adds r6, r6, r4\n",
            "adcs r0, r1\n",
        )
    };
}

/// The end of a column: its low word `$l` is output word `$k` (byte offset, output pointer
/// in r9), and the accumulator shifts down a word: `$h` becomes the low word and `$l` takes
/// the carries counted in r8, which restarts at zero.
macro_rules! column_end {
    ($k:literal, $l:literal) => {
        concat!(
            "mov r0, r9\n",
            "str ", $l, ", [r0, #", $k, "]\n",
            "mov ", $l, ", r8\n",
            "movs r0, #0\n",
            "mov r8, r0\n",
        )
    };
}

/// `a·b` for 128-bit `a` and `b`: sixteen word products, column by column, fully written
/// out (no loop, no branch).
#[inline(never)]
fn mul128(a: &[u32; 4], b: &[u32; 4]) -> [u32; 8] {
    let mut out = [0u32; 8];
    // SAFETY: reads the four words at `a` and at `b` and writes the eight of `out`, through
    // the pointers passed in r0, r1 and r9; uses 32 bytes of stack below sp, given back
    // before the end. r0–r5, r8 and r9 are declared clobbered; r6 (reserved by Rust) is
    // pushed first and popped last; r7 (the frame pointer) is not touched.
    unsafe {
        core::arch::asm!(
            "push {{r6}}",
            "mov r9, r2",
            "ldm r1!, {{r3, r4, r5, r6}}",
            "push {{r3, r4, r5, r6}}",
            "ldm r0!, {{r3, r4, r5, r6}}",
            "push {{r3, r4, r5, r6}}",
            "movs r2, #0",
            "movs r3, #0",
            "mov r8, r2",
            // Column 0.
            mac!("0", "16", "r2", "r3", nocarry),
            column_end!("0", "r2"),
            // Column 1 (low word r3, high r2).
            mac!("0", "20", "r3", "r2"),
            mac!("4", "16", "r3", "r2"),
            column_end!("4", "r3"),
            // Column 2.
            mac!("0", "24", "r2", "r3"),
            mac!("4", "20", "r2", "r3"),
            mac!("8", "16", "r2", "r3"),
            column_end!("8", "r2"),
            // Column 3.
            mac!("0", "28", "r3", "r2"),
            mac!("4", "24", "r3", "r2"),
            mac!("8", "20", "r3", "r2"),
            mac!("12", "16", "r3", "r2"),
            column_end!("12", "r3"),
            // Column 4.
            mac!("4", "28", "r2", "r3"),
            mac!("8", "24", "r2", "r3"),
            mac!("12", "20", "r2", "r3"),
            column_end!("16", "r2"),
            // Column 5.
            mac!("8", "28", "r3", "r2"),
            mac!("12", "24", "r3", "r2"),
            column_end!("20", "r3"),
            // Column 6 and the top word: the product is below 2^256, nothing carries out.
            mac!("12", "28", "r2", "r3", nocarry),
            "mov r0, r9",
            "str r2, [r0, #24]",
            "str r3, [r0, #28]",
            "add sp, #32",
            "pop {{r6}}",
            inout("r0") a.as_ptr() => _,
            inout("r1") b.as_ptr() => _,
            inout("r2") out.as_mut_ptr() => _,
            out("r3") _, out("r4") _, out("r5") _, out("r8") _, out("r9") _,
        );
    }
    out
}

/// `(|x − y|, mask)` for 128-bit `x` and `y`: the mask is all ones when `x < y`.
#[inline(always)]
fn abs_diff(x: &[u32; 4], y: &[u32; 4]) -> ([u32; 4], u32) {
    let mut d = [0u32; 4];
    let mut t = 0u64;
    for i in 0..4 {
        t = (x[i] as u64).wrapping_sub(y[i] as u64).wrapping_sub(t >> 63);
        d[i] = t as u32;
    }
    let mask = 0u32.wrapping_sub((t >> 63) as u32);
    // Negate under the mask: (d ^ mask) + (mask & 1).
    let mut c = (mask & 1) as u64;
    for w in &mut d {
        c += (*w ^ mask) as u64;
        *w = c as u32;
        c >>= 32;
    }
    (d, mask)
}

/// `a·b`, the full 512-bit product of two values below 2^256: `a0·b0 + (a0·b0 + a1·b1 −
/// (a0 − a1)·(b0 − b1))·2^128 + a1·b1·2^256` for the 128-bit halves.
pub(super) fn mul(a: &[u32; 8], b: &[u32; 8]) -> [u32; 16] {
    let (a0, a1) = ([a[0], a[1], a[2], a[3]], [a[4], a[5], a[6], a[7]]);
    let (b0, b1) = ([b[0], b[1], b[2], b[3]], [b[4], b[5], b[6], b[7]]);
    let (da, sa) = abs_diff(&a0, &a1);
    let (db, sb) = abs_diff(&b0, &b1);
    let lo = mul128(&a0, &b0);
    let hi = mul128(&a1, &b1);
    let m = mul128(&da, &db);
    // (a0 − a1)(b0 − b1) is +m when the signs agree: then subtract m, as the two's
    // complement (m ^ sub) + 1 with sign-extension word `sub`; otherwise add it.
    let sub = !(sa ^ sb);
    let mut mid = [0u32; 9];
    let mut c = (sub & 1) as u64;
    for i in 0..8 {
        c += lo[i] as u64 + hi[i] as u64 + (m[i] ^ sub) as u64;
        mid[i] = c as u32;
        c >>= 32;
    }
    mid[8] = (c as u32).wrapping_add(sub);
    let mut r = [0u32; 16];
    r[..4].copy_from_slice(&lo[..4]);
    let mut c = 0u64;
    for i in 4..16 {
        let l = if i < 8 { lo[i] } else { 0 };
        let h = if i >= 8 { hi[i - 8] } else { 0 };
        let md = if i - 4 < 9 { mid[i - 4] } else { 0 };
        c += l as u64 + h as u64 + md as u64;
        r[i] = c as u32;
        c >>= 32;
    }
    r
}
