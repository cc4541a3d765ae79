//! Thumb-1 (Cortex-M0) kernels for core-lattice: the layers of ML-KEM's NTT and inverse NTT and
//! the coefficient-wise product by a constant, on 256 signed 16-bit coefficients modulo
//! q = 3329. Their Rust twin is core-lattice's `mlkem/portable.rs` (the same transforms with
//! Montgomery products); `mlkem/thumb1.rs` there drives these layers and tests the two against
//! each other.
//!
//! Every product by a constant is Plantard's (R. Plantard, "Efficient word size modular
//! arithmetic", IEEE TETC 2021, with the signed variant of J. Huang et al., "Improved Plantard
//! arithmetic for lattice-based cryptography", TCHES 2022(4)): for a constant `c` in `0..q`,
//! `c' = c·q^−1 mod 2^32` (one `muls` here, so tables stay 16-bit), and a coefficient `a`,
//!
//! ```text
//! r = ((((a·c' mod 2^32) >> 16) + 8)·q) >> 16        (32-bit products, arithmetic shifts)
//! ```
//!
//! is `a·c·(−2^−32) mod q` in `−q/2..q/2`: two single-cycle `muls`, two shifts and an add, no
//! division, no branch, and one register for the constant where a Montgomery product needs two
//! (the constant and its product with q^−1 mod 2^16) — which leaves the butterfly loops within
//! the eight low registers. core-lattice's test checks the formula for every 16-bit `a` and
//! every constant it uses. Coefficients are loaded and stored as halfwords: a word of two
//! would need a split and a repack costing more than the loads it saves.
//!
//! Cortex-M0+ cycles (`muls`, ALU 1, loads and stores 2, taken branch 2): a forward butterfly
//! 20, an inverse one 21, a product by a constant 14 a coefficient.

/// The modulus q.
const Q: u32 = 3329;

/// q^−1 mod 2^32, by Newton's iteration (each step doubles the correct low bits).
const QINV: u32 = {
    let mut x: u32 = 1;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u32.wrapping_sub(Q.wrapping_mul(x)));
        i += 1;
    }
    x
};

/// Plantard's product of the 32-bit value in `$r` with the constant `c'` in `$c` (q in `$q`):
/// `$r·c·(−2^−32) mod q` in `−q/2..q/2`, into `$r`.
macro_rules! plantard {
    ($r:literal, $c:literal, $q:literal) => {
        concat!(
            "muls ", $r, ", ", $c, ", ", $r, "\n", "asrs ", $r, ", ", $r, ", #16\n", "adds ", $r,
            ", #8\n", "muls ", $r, ", ", $q, ", ", $r, "\n", "asrs ", $r, ", ", $r, ", #16\n",
        )
    };
}

/// The loops of one NTT layer over `$p` (`&mut [i16; 256]`): blocks of `2·$off` bytes, each
/// with the twiddle `c' = zetas[k]·q^−1` in r4 (the halfword at r0 after `$step`, which moves
/// r0 by one halfword) and running `$butterfly` for r3 over its first half (`b` at r3 + r2 =
/// r3 + `$off`; r0 and r1 scratch, q in r5). r8 keeps the twiddle pointer (from `$zetas`), r9
/// q^−1, r10 the block's middle, r12 the end of `$p`.
macro_rules! layer {
    ($p:expr, $off:expr, $zetas:expr, [$($step:literal),+], $butterfly:expr) => {
        core::arch::asm!(
            "mov r8, r0",
            "mov r9, r1",
            "mov r12, r4",
            "2:",
            "mov r0, r8",
            $($step,)+
            "mov r8, r0",
            "mov r0, r9",
            "muls r4, r0, r4",
            "adds r0, r3, r2",
            "mov r10, r0",
            "3:",
            $butterfly,
            "adds r3, #2",
            "cmp r3, r10",
            "bne 3b",
            "adds r3, r3, r2",
            "cmp r3, r12",
            "bne 2b",
            inout("r0") $zetas => _,
            inout("r1") QINV => _,
            in("r2") $off,
            inout("r3") $p.as_mut_ptr() => _,
            inout("r4") $p.as_mut_ptr().wrapping_add(256) => _,
            in("r5") Q,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r12") _,
            options(nostack),
        )
    };
}

/// One Cooley–Tukey layer of the NTT (FIPS 203 Algorithm 9's inner loops) on `p`: blocks of
/// `2·len` coefficients, `len` = 128, 64, … 2 for `layer` = 0 … 6, the block `k` of the layer
/// taking the twiddle constant `zetas[2^layer + k]`; each butterfly is `t = c·b` (Plantard),
/// `b = a − t`, `a = a + t`, wrapping at 16 bits (the caller keeps the sums within `i16`).
/// `b` is sign-extended for the product; `a` need not be, as only its low 16 bits are stored.
/// Layers outside `0..7` do nothing.
#[inline(never)]
pub fn ntt_layer(p: &mut [i16; 256], zetas: &[u16; 128], layer: u32) {
    if layer >= 7 {
        return;
    }
    let blocks = 1usize << layer;
    let off = 256usize >> layer; // bytes from a to b: len coefficients
    // SAFETY: the loop writes only `p`: r3 runs from `p` to its end (r12 = p + 512) over
    // `blocks` blocks of `2·off` bytes (blocks · 2·off = 512), touching the halfwords at r3
    // and r3 + off below each block's middle (r10). The twiddles read are
    // `zetas[blocks..2·blocks]` (from r0 = `zetas + blocks`, one halfword a block, then
    // stepping up), inside the 128 entries as `blocks ≤ 64`. r6 and r7 are not touched; every
    // other register written is declared; no stack use.
    unsafe {
        layer!(
            p,
            off,
            zetas.as_ptr().wrapping_add(blocks),
            ["ldrh r4, [r0]", "adds r0, #2"],
            concat!(
                "ldrsh r1, [r3, r2]\n",
                plantard!("r1", "r4", "r5"),
                "ldrh r0, [r3]\n",
                "adds r0, r0, r1\n",
                "strh r0, [r3]\n",
                "lsls r1, r1, #1\n",
                "subs r0, r0, r1\n",
                "strh r0, [r3, r2]\n",
            )
        );
    }
}

/// One Gentleman–Sande layer of the inverse NTT (FIPS 203 Algorithm 10's inner loops) on `p`:
/// blocks of `2·len` coefficients, `len` = 2, 4, … 128 for `layer` = 6 … 0, the block `k` of
/// the layer taking the twiddle constant `zetas[2^(layer+1) − 1 − k]` (the forward twiddles
/// backwards: `b − a` below, not `a − b`, makes each the inverse's); each butterfly is
/// `a = a + b`, `b = c·(b − a)` (Plantard), wrapping at 16 bits: the caller keeps `a + b`
/// within `i16` (so also `b − a`, which is formed modulo 2^16 and sign-extended). Layers
/// outside `0..7` do nothing.
#[inline(never)]
pub fn inv_ntt_layer(p: &mut [i16; 256], zetas: &[u16; 128], layer: u32) {
    if layer >= 7 {
        return;
    }
    let blocks = 1usize << layer;
    let off = 256usize >> layer;
    // SAFETY: as in `ntt_layer`, the loop writes only `p` (r3 from `p` to r12 = p + 512 in
    // `blocks` blocks of `2·off` bytes). r0 starts at `zetas + 2·blocks` and steps down one
    // halfword before each block's load, reading `zetas[blocks..2·blocks]` (2·blocks ≤ 128).
    // r6 and r7 are not touched; every other register written is declared; no stack use.
    unsafe {
        layer!(
            p,
            off,
            zetas.as_ptr().wrapping_add(2 * blocks),
            ["subs r0, #2", "ldrh r4, [r0]"],
            concat!(
                "ldrh r0, [r3]\n",
                "ldrh r1, [r3, r2]\n",
                "adds r0, r0, r1\n",
                "strh r0, [r3]\n",
                "lsls r1, r1, #1\n",
                "subs r1, r1, r0\n",
                "sxth r1, r1\n",
                plantard!("r1", "r4", "r5"),
                "strh r1, [r3, r2]\n",
            )
        );
    }
}

/// Every coefficient `a` of `p` becomes its Plantard product with the constant `c` (taken
/// modulo 2^16; `0..q` for the range above): `a·c·(−2^−32) mod q` in `−q/2..q/2`, for any
/// 16-bit `a`. With `c = −2^32 mod q` this is a full reduction to the centred representative.
#[inline(never)]
pub fn mul_const(p: &mut [i16; 256], c: u16) {
    // SAFETY: r0 runs over the 256 halfwords of `p` (to r1 = p + 512), each read and written
    // once; nothing else is read or written. r6 and r7 are not touched; every other register
    // written is declared; no stack use.
    unsafe {
        core::arch::asm!(
            "muls r2, r4, r2",
            "2:",
            "ldrh r4, [r0]",
            "sxth r4, r4",
            plantard!("r4", "r2", "r3"),
            "strh r4, [r0]",
            "adds r0, #2",
            "cmp r0, r1",
            "bne 2b",
            inout("r0") p.as_mut_ptr() => _,
            in("r1") p.as_mut_ptr().wrapping_add(256),
            inout("r2") u32::from(c) => _,
            in("r3") Q,
            inout("r4") QINV => _,
            options(nostack),
        );
    }
}

/// One product of degree-one polynomials in [`basemul_acc`] and [`basemul_acc_packed`] at
/// byte offset `$o` of `a` (r8) and `acc` (r10), modulo X² − z with z in r7, the two
/// coefficients of `b` (from r9) first put in r2 and r4 by `$load_b` (which may use r0, r1 and
/// r3): `acc[o] += P(a0·b0 + P(a1·b1)·z)`, `acc[o+1] += P(a0·b1 + a1·b0)` with P Plantard's
/// reduction (q^−1 in r5, q in r6). Each sum is below 2^25 in absolute value for `a` in
/// `−q..q`, `b` in `−4096..4096` and z in `0..q`.
macro_rules! basemul_pair {
    ($o:literal, $o2:literal, $load_b:expr) => {
        concat!(
            $load_b,
            "mov r0, r8\n",
            "ldrh r1, [r0, #",
            $o,
            "]\n",
            "ldrh r3, [r0, #",
            $o2,
            "]\n",
            "sxth r1, r1\n",
            "sxth r3, r3\n",
            "mov r0, r3\n",
            "muls r0, r4, r0\n",
            plantard!("r0", "r5", "r6"),
            "muls r0, r7, r0\n",
            "muls r4, r1, r4\n",
            "muls r1, r2, r1\n",
            "adds r0, r0, r1\n",
            "muls r3, r2, r3\n",
            "adds r4, r4, r3\n",
            plantard!("r0", "r5", "r6"),
            plantard!("r4", "r5", "r6"),
            "mov r1, r10\n",
            "ldrh r2, [r1, #",
            $o,
            "]\n",
            "adds r0, r0, r2\n",
            "strh r0, [r1, #",
            $o,
            "]\n",
            "ldrh r2, [r1, #",
            $o2,
            "]\n",
            "adds r4, r4, r2\n",
            "strh r4, [r1, #",
            $o2,
            "]\n",
        )
    };
}

/// [`basemul_pair`]'s `$load_b` for `b` as signed halfwords at byte offsets `$o`, `$o2`.
macro_rules! load_b_i16 {
    ($o:literal, $o2:literal) => {
        concat!(
            "mov r0, r9\n",
            "ldrh r2, [r0, #",
            $o,
            "]\n",
            "ldrh r4, [r0, #",
            $o2,
            "]\n",
            "sxth r2, r2\n",
            "sxth r4, r4\n",
        )
    };
}

/// [`basemul_pair`]'s `$load_b` for `b` as two 12-bit values in the three bytes at offsets
/// `$o`, `$o1`, `$o2` (`ByteEncode_12`'s order: the low 8 bits of the first, then its high 4
/// bits and the low 4 of the second, then the second's high 8): `0..4096`.
macro_rules! load_b_12 {
    ($o:literal, $o1:literal, $o2:literal) => {
        concat!(
            "mov r0, r9\n",
            "ldrb r2, [r0, #",
            $o,
            "]\n",
            "ldrb r4, [r0, #",
            $o1,
            "]\n",
            "lsls r3, r4, #28\n",
            "lsrs r3, r3, #20\n",
            "adds r2, r2, r3\n",
            "lsrs r4, r4, #4\n",
            "ldrb r3, [r0, #",
            $o2,
            "]\n",
            "lsls r3, r3, #4\n",
            "adds r4, r4, r3\n",
        )
    };
}

/// `acc += a ∘ b` in `T_q` (FIPS 203 Algorithms 11–12), each product times −2^−32 (Plantard's
/// factor), on the first `n` quads of the slices, `n` the least of `acc.len() / 4`,
/// `a.len() / 4`, `b.len() / 4` and `zetas.len()`: for `i` in `0..n`, the two products of
/// degree-one polynomials of coefficients `4i, 4i+1` modulo X² − z and `4i+2, 4i+3` modulo
/// X² + z, with `z·(−2^−32)` given as `zetas[i]` in `0..q`. A whole polynomial is 64 quads
/// with the last 64 twiddles (`zetas[64..]` of the NTT's table). ML-KEM on the Cortex-M0 now
/// multiplies by encoded vectors only ([`basemul_acc_packed`]); this form stays for products
/// of two decoded polynomials. Three reductions
/// a product, not five: the sums of two products are reduced once. `a` and `b` in `−q..q`;
/// each call adds less than q/2 in absolute value to each coefficient of `acc` (wrapping at 16
/// bits). About 100 Cortex-M0+ cycles a pair of products, and about 30 a call.
#[inline(never)]
pub fn basemul_acc(acc: &mut [i16], a: &[i16], b: &[i16], zetas: &[u16]) {
    let n = (acc.len() / 4).min(a.len() / 4).min(b.len() / 4).min(zetas.len());
    if n == 0 {
        return;
    }
    // SAFETY: n ≥ 1 passes (r10 from `acc` to r12 = acc + 4n, 8 bytes a pass) each read the
    // halfwords at offsets 0..8 from r8 (`a`) and r9 (`b`), read and write those from r10
    // (`acc`), and read one halfword from r11 (`zetas`), all four advancing in step: inside
    // the slices, which hold at least 4n, 4n, 4n and n elements. r6 and r7 are saved on the
    // stack and restored (8 bytes, balanced); every other register written is declared.
    unsafe {
        core::arch::asm!(
            "push {{r6, r7}}",
            "mov r8, r0",
            "mov r9, r1",
            "mov r10, r2",
            "mov r11, r3",
            "mov r12, r4",
            "movs r6, #13",
            "lsls r6, r6, #8",
            "adds r6, #1",
            "2:",
            "mov r0, r11",
            "ldrh r7, [r0]",
            "adds r0, #2",
            "mov r11, r0",
            basemul_pair!("0", "2", load_b_i16!("0", "2")),
            "rsbs r7, r7, #0",
            basemul_pair!("4", "6", load_b_i16!("4", "6")),
            "movs r0, #8",
            "add r8, r0",
            "add r9, r0",
            "add r10, r0",
            "cmp r10, r12",
            "bne 2b",
            "pop {{r6, r7}}",
            inout("r0") a.as_ptr() => _,
            inout("r1") b.as_ptr() => _,
            inout("r2") acc.as_mut_ptr() => _,
            inout("r3") zetas.as_ptr() => _,
            inout("r4") acc.as_mut_ptr().wrapping_add(4 * n) => _,
            in("r5") QINV,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
        );
    }
}

/// [`basemul_acc`] with `b` encoded (`ByteEncode_12`, FIPS 203 Algorithm 5: six bytes a quad,
/// values in `0..4096`), as ML-KEM keeps the vector ŷ while it streams the matrix: on the
/// first `n` quads, `n` the least of `acc.len() / 4`, `a.len() / 4` and `zetas.len()`, and
/// nothing if `b` is shorter than `6n` bytes (no division: the Cortex-M0 has none, and the
/// library's is refused in secret-processing code). `a` in `−q..q`; each call adds less than q/2 in absolute value to each
/// coefficient of `acc` (wrapping at 16 bits). About 110 Cortex-M0+ cycles a pair of
/// products, and about 30 a call.
#[inline(never)]
pub fn basemul_acc_packed(acc: &mut [i16], a: &[i16], b: &[u8], zetas: &[u16]) {
    let n = (acc.len() / 4).min(a.len() / 4).min(zetas.len());
    if n == 0 || b.len() < 6 * n {
        return;
    }
    // SAFETY: n ≥ 1 passes (r10 from `acc` to r12 = acc + 4n, 8 bytes a pass) each read the
    // halfwords at offsets 0..8 from r8 (`a`), the bytes at offsets 0..6 from r9 (`b`), read
    // and write the halfwords at offsets 0..8 from r10 (`acc`), and read one halfword from
    // r11 (`zetas`), all four advancing in step (8, 6, 8 and 2 bytes a pass): inside the
    // slices, which hold at least 4n, 6n, 4n and n elements. r6 and r7 are saved on the stack
    // and restored (8 bytes, balanced); every other register written is declared.
    unsafe {
        core::arch::asm!(
            "push {{r6, r7}}",
            "mov r8, r0",
            "mov r9, r1",
            "mov r10, r2",
            "mov r11, r3",
            "mov r12, r4",
            "movs r6, #13",
            "lsls r6, r6, #8",
            "adds r6, #1",
            "2:",
            "mov r0, r11",
            "ldrh r7, [r0]",
            "adds r0, #2",
            "mov r11, r0",
            basemul_pair!("0", "2", load_b_12!("0", "1", "2")),
            "rsbs r7, r7, #0",
            basemul_pair!("4", "6", load_b_12!("3", "4", "5")),
            "movs r0, #8",
            "add r8, r0",
            "add r10, r0",
            "movs r0, #6",
            "add r9, r0",
            "cmp r10, r12",
            "bne 2b",
            "pop {{r6, r7}}",
            inout("r0") a.as_ptr() => _,
            inout("r1") b.as_ptr() => _,
            inout("r2") acc.as_mut_ptr() => _,
            inout("r3") zetas.as_ptr() => _,
            inout("r4") acc.as_mut_ptr().wrapping_add(4 * n) => _,
            in("r5") QINV,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
        );
    }
}

/// `SampleNTT`'s rejection step (FIPS 203 Algorithm 7, lines 5–13) on public bytes: each
/// whole triple of `bytes` (two 12-bit values in `ByteEncode_12`'s order) has its two values
/// written to `out` in turn, the write position advancing past each only if it is below q
/// (a rejected value is overwritten by the next), while a triple is left and `out` has two
/// places left. Returns how many bytes were used (three a triple) and how many values were
/// kept. The values are public (the matrix Â), so the loop may branch on them; nothing is
/// written past `out`, and no length is divided (a library call on the Cortex-M0). About 28
/// Cortex-M0+ cycles a triple, against 38 compiled. Inlined: it is called for a few triples
/// at a time (a sampler reads 24 bytes at once).
#[inline(always)]
pub fn rejection_sample(bytes: &[u8], out: &mut [i16]) -> (usize, usize) {
    let (Some(places), Some(last)) = (out.len().checked_sub(1), bytes.len().checked_sub(2)) else {
        return (0, 0);
    };
    let src = bytes.as_ptr();
    let dst = out.as_mut_ptr();
    let (src_after, dst_after): (*const u8, *mut i16);
    // SAFETY: r0 reads three bytes a pass from `src`, only while r0 < r1 = src + len − 2, so
    // the last byte read is below src + len: inside `bytes`. r2 writes two halfwords a pass,
    // at r2 and at r2 (+ 2), only while r2 < r3 = dst + 2·(out.len() − 1): at most at
    // dst + 2·(out.len() − 1), inside `out`. Nothing else is read or written; r6 and r7 are
    // saved on the stack and restored (8 bytes, balanced); every other register written is
    // declared.
    unsafe {
        core::arch::asm!(
            "push {{r6, r7}}",
            "b 3f",
            "2:",
            "ldrb r5, [r0]",
            "ldrb r6, [r0, #1]",
            "lsls r7, r6, #28",
            "lsrs r7, r7, #20",
            "orrs r5, r7",
            "strh r5, [r2]",
            "lsrs r6, r6, #4",
            "ldrb r7, [r0, #2]",
            "lsls r7, r7, #4",
            "orrs r6, r7",
            "adds r0, #3",
            "cmp r5, r4",
            "bhs 4f",
            "adds r2, #2",
            "4:",
            "strh r6, [r2]",
            "cmp r6, r4",
            "bhs 3f",
            "adds r2, #2",
            "3:",
            "cmp r0, r1",
            "bhs 5f",
            "cmp r2, r3",
            "blo 2b",
            "5:",
            "pop {{r6, r7}}",
            inout("r0") src => src_after,
            in("r1") src.wrapping_add(last),
            inout("r2") dst => dst_after,
            in("r3") dst.wrapping_add(places),
            in("r4") Q,
            out("r5") _,
        );
    }
    (src_after.addr() - src.addr(), (dst_after.addr() - dst.addr()) / 2)
}
