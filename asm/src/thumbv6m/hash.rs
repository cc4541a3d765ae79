//! Thumb-1 (Cortex-M0) kernels for core-hash: Keccak-f\[1600\] on the bit-interleaved state of
//! core-hash's `portable32` (its twin, which documents the encoding and the round).
//!
//! The permutation is one naked function, straight-line but for the loop over pairs of
//! rounds. The state is copied into the frame, where every word is one `sp`-relative load or
//! store away (a register base reaches only 124 bytes, the state is 200); the two rounds of a
//! pair read one copy and write the other, so no copy is made between rounds. A round is
//! θ's ten column parities (five loads and four `eors` each), the ten θ terms built from
//! them in registers (five kept in r8–r12, five stored), then, row half by row half, five
//! words gathered through θ, ρ and π (a load of the word, its θ term, an `eors`, and a `rors`
//! by a register for ρ) and χ on them (`mov`, `bics`, `eors`, a store). Every address and
//! rotation amount is a constant; nothing depends on the data. On the Cortex-M0+ model
//! (`cargo xtask m0 --cost`) SHA3-256 costs 156.9 cycles/B with it (21 300 a block, about
//! 19 000 of them the permutation) against 215.7 with the compiled `portable32`.
//!
//! The byte offsets in the `parity!`, `term!` and `row!` lines below are the `portable32`
//! tables (`GATHER`, the θ terms) written out for a state at `sp + 0` (words A) or
//! `sp + 200` (words B); θ term x is in r8 + x for x < 5
//! and at `sp + 380 + 4x` for the other five (`sp + 400` … `sp + 416`).

/// θ's parity of one column half into `$r`: the XOR of the five words at `sp + $a` … `$e`
/// (40 bytes apart). r2 is scratch.
macro_rules! parity {
    ($r:literal, $a:literal $b:literal $c:literal $d:literal $e:literal) => {
        concat!(
            "ldr ",
            $r,
            ", [sp, #",
            $a,
            "]\n",
            "ldr r2, [sp, #",
            $b,
            "]\n",
            "eors ",
            $r,
            ", r2\n",
            "ldr r2, [sp, #",
            $c,
            "]\n",
            "eors ",
            $r,
            ", r2\n",
            "ldr r2, [sp, #",
            $d,
            "]\n",
            "eors ",
            $r,
            ", r2\n",
            "ldr r2, [sp, #",
            $e,
            "]\n",
            "eors ",
            $r,
            ", r2\n",
        )
    };
}

/// A θ term, `$p ^ rotl($n, 1)` (r7 holds 31) or `$p ^ $n`, kept where `put!` says. r3 is
/// scratch.
macro_rules! term {
    ($p:literal ^ rotl1 $n:literal => $at:tt) => {
        concat!("mov r3, ", $n, "\n", "rors r3, r7\n", "eors r3, ", $p, "\n", put!($at))
    };
    ($p:literal ^ $n:literal => $at:tt) => {
        concat!("mov r3, ", $p, "\n", "eors r3, ", $n, "\n", put!($at))
    };
}

/// Keeps r3, a θ term, at `sp + $at`, or in a high register (r8–r12 hold five of the ten:
/// a `mov` from one costs a cycle, a load two).
macro_rules! put {
    ($at:literal) => {
        concat!("str r3, [sp, #", $at, "]\n")
    };
    ($r:ident) => {
        concat!("mov ", stringify!($r), ", r3\n")
    };
}

/// Fetches a θ term into r5 from `sp + $at` or from a high register.
macro_rules! fetch {
    ($at:literal) => {
        concat!("ldr r5, [sp, #", $at, "]\n")
    };
    ($r:ident) => {
        concat!("mov r5, ", stringify!($r), "\n")
    };
}

/// One gathered word into `$b`: the word at `sp + $s` XOR its θ term (`fetch!`), rotated
/// right by `$r` (ρ's left rotation, interleaved). r5 is scratch.
macro_rules! gather {
    ($b:literal, $s:literal, $d:tt, 0) => {
        concat!("ldr ", $b, ", [sp, #", $s, "]\n", fetch!($d), "eors ", $b, ", r5\n")
    };
    ($b:literal, $s:literal, $d:tt, $r:tt) => {
        concat!(gather!($b, $s, $d, 0), "movs r5, #", $r, "\n", "rors ", $b, ", r5\n")
    };
}

/// χ for one word: `$a ^ (!$b & $c)`, then the XOR with r6 (ι's constant) when `iota_…` is
/// given, stored at `sp + $at`. r5 is scratch.
macro_rules! chi {
    ($a:literal, $b:literal, $c:literal, $at:literal $(, $iota:ident)?) => {
        concat!(
            "mov r5, ", $c, "\n",
            "bics r5, ", $b, "\n",
            "eors r5, ", $a, "\n",
            $(chi!(@$iota),)?
            "str r5, [sp, #", $at, "]\n",
        )
    };
    (@iota_even) => { "eors r5, r6\n" };
    (@iota_odd) => { "eors r5, r6\n" };
}

/// One row half: five words gathered into r0–r4 (`source θ-term rotation` each), then χ
/// stored to the five output offsets. `iota_even` and `iota_odd` (the first two row halves
/// of a round, lane 0) also apply ι: the round constant's even word from the pointer at
/// `sp + 420` into r6, then its odd word, after which the pointer moves to the next round's.
macro_rules! row {
    (
        $s0:literal $d0:tt $r0:tt; $s1:literal $d1:tt $r1:tt;
        $s2:literal $d2:tt $r2:tt; $s3:literal $d3:tt $r3:tt;
        $s4:literal $d4:tt $r4:tt => $o0:literal $o1:literal $o2:literal $o3:literal
        $o4:literal $($iota:ident)?
    ) => {
        concat!(
            $(row!(@before $iota),)?
            gather!("r0", $s0, $d0, $r0),
            gather!("r1", $s1, $d1, $r1),
            gather!("r2", $s2, $d2, $r2),
            gather!("r3", $s3, $d3, $r3),
            gather!("r4", $s4, $d4, $r4),
            chi!("r0", "r1", "r2", $o0 $(, $iota)?),
            chi!("r1", "r2", "r3", $o1),
            chi!("r2", "r3", "r4", $o2),
            chi!("r3", "r4", "r0", $o3),
            chi!("r4", "r0", "r1", $o4),
            $(row!(@after $iota),)?
        )
    };
    (@before iota_even) => { "ldr r7, [sp, #420]\nldr r6, [r7]\n" };
    (@before iota_odd) => { "ldr r6, [r7, #4]\n" };
    (@after iota_even) => { "" };
    (@after iota_odd) => { "adds r7, #8\nstr r7, [sp, #420]\n" };
}

/// Copies 50 words from r0 to r1, both advanced past them, through r2–r7.
macro_rules! copy_50_words {
    () => {
        concat!(
            "ldm r0!, {{r2-r7}}\nstm r1!, {{r2-r7}}\n",
            "ldm r0!, {{r2-r7}}\nstm r1!, {{r2-r7}}\n",
            "ldm r0!, {{r2-r7}}\nstm r1!, {{r2-r7}}\n",
            "ldm r0!, {{r2-r7}}\nstm r1!, {{r2-r7}}\n",
            "ldm r0!, {{r2-r7}}\nstm r1!, {{r2-r7}}\n",
            "ldm r0!, {{r2-r7}}\nstm r1!, {{r2-r7}}\n",
            "ldm r0!, {{r2-r7}}\nstm r1!, {{r2-r7}}\n",
            "ldm r0!, {{r2-r7}}\nstm r1!, {{r2-r7}}\n",
            "ldm r0!, {{r2-r3}}\nstm r1!, {{r2-r3}}\n",
        )
    };
}

/// Keccak-f\[1600\] (FIPS 202 §3.3) on a bit-interleaved state: lane `i` holds in its low 32
/// bits the even bits of lane `i` of the standard state and in its high 32 bits the odd ones,
/// as core-hash's `portable32` keeps it; `rc` holds the 24 round constants so interleaved,
/// `[even, odd]`. About 19 000 Cortex-M0+ cycles; 436 bytes of frame besides the 36 pushed
/// (472 in all, 8-aligned: 432 used and one spare word).
///
/// A safe function: its only obligations are carried by its references (it reads `rc` and
/// reads and writes `state`, nothing else outside its own frame), and it follows the C ABI
/// (r4–r11 and `lr` saved). It contains Thumb-1 (ARMv6-M) instructions only, which every
/// 32-bit Arm core this module is compiled for runs (ARMv6-M and later, in Thumb state).
#[unsafe(naked)]
pub extern "C" fn keccak_f1600_interleaved(state: &mut [u64; 25], rc: &[[u32; 2]; 24]) {
    // Frame: words A at sp + 0, words B at sp + 200, θ terms 5–9 at sp + 400, then the
    // round constant pointer (420), its end (424) and `state` (428); 432 is padding.
    core::arch::naked_asm!(
        "push {{r4-r7, lr}}",
        "mov r4, r8",
        "mov r5, r9",
        "mov r6, r10",
        "mov r7, r11",
        "push {{r4-r7}}",
        "sub sp, #436",
        "str r0, [sp, #428]",
        "str r1, [sp, #420]",
        "adds r1, #192",
        "str r1, [sp, #424]",
        "mov r1, sp",
        copy_50_words!(),
        "2:",
        // Rounds 2i (A to B) and 2i + 1 (B to A). θ's column parities along the cycle
        // 8 3 6 1 4 9 2 7 0 5 of columns, each term d[x] stored as soon as both its
        // parities are in registers (r7 = 31 rotates left by one).
        "movs r7, #31",
        parity!("r6", 32 72 112 152 192),
        parity!("r0", 12 52 92 132 172),
        term!("r6" ^ rotl1 "r0" => r8),
        parity!("r1", 24 64 104 144 184),
        term!("r0" ^ "r1" => 400),
        parity!("r0", 4 44 84 124 164),
        term!("r1" ^ rotl1 "r0" => 412),
        parity!("r1", 16 56 96 136 176),
        term!("r0" ^ "r1" => r11),
        parity!("r0", 36 76 116 156 196),
        term!("r1" ^ rotl1 "r0" => 404),
        parity!("r1", 8 48 88 128 168),
        term!("r0" ^ "r1" => r9),
        parity!("r0", 28 68 108 148 188),
        term!("r1" ^ rotl1 "r0" => r12),
        parity!("r1", 0 40 80 120 160),
        term!("r0" ^ "r1" => 416),
        parity!("r0", 20 60 100 140 180),
        term!("r1" ^ rotl1 "r0" => r10),
        term!("r0" ^ "r6" => 408),
        // θ's addition, ρ, π and χ, row half by row half (ι in the first two).
        row!(0 r8 0; 48 r10 10; 100 400 10; 148 408 21; 192 412 25 => 200 208 216 224 232 iota_even),
        row!(4 r9 0; 52 r11 10; 96 r12 11; 144 404 22; 196 416 25 => 204 212 220 228 236 iota_odd),
        row!(24 404 18; 72 412 22; 84 r9 30; 132 r11 9; 180 400 1 => 240 248 256 264 272),
        row!(28 408 18; 76 416 22; 80 r8 31; 128 r10 10; 176 r12 2 => 244 252 260 268 276),
        row!(12 r11 31; 56 r12 29; 108 408 19; 152 412 28; 160 r8 23 => 280 288 296 304 312),
        row!(8 r10 0; 60 400 29; 104 404 20; 156 416 28; 164 r9 23 => 284 292 300 308 316),
        row!(36 416 18; 40 r8 14; 88 r10 27; 140 400 24; 184 404 4 => 320 328 336 344 352),
        row!(32 412 19; 44 r9 14; 92 r11 27; 136 r12 25; 188 408 4 => 324 332 340 348 356),
        row!(16 r12 1; 68 408 4; 116 416 12; 124 r9 11; 168 r10 31 => 360 368 376 384 392),
        row!(20 400 1; 64 404 5; 112 412 13; 120 r8 12; 172 r11 31 => 364 372 380 388 396),
        "movs r7, #31",
        parity!("r6", 232 272 312 352 392),
        parity!("r0", 212 252 292 332 372),
        term!("r6" ^ rotl1 "r0" => r8),
        parity!("r1", 224 264 304 344 384),
        term!("r0" ^ "r1" => 400),
        parity!("r0", 204 244 284 324 364),
        term!("r1" ^ rotl1 "r0" => 412),
        parity!("r1", 216 256 296 336 376),
        term!("r0" ^ "r1" => r11),
        parity!("r0", 236 276 316 356 396),
        term!("r1" ^ rotl1 "r0" => 404),
        parity!("r1", 208 248 288 328 368),
        term!("r0" ^ "r1" => r9),
        parity!("r0", 228 268 308 348 388),
        term!("r1" ^ rotl1 "r0" => r12),
        parity!("r1", 200 240 280 320 360),
        term!("r0" ^ "r1" => 416),
        parity!("r0", 220 260 300 340 380),
        term!("r1" ^ rotl1 "r0" => r10),
        term!("r0" ^ "r6" => 408),
        row!(200 r8 0; 248 r10 10; 300 400 10; 348 408 21; 392 412 25 => 0 8 16 24 32 iota_even),
        row!(204 r9 0; 252 r11 10; 296 r12 11; 344 404 22; 396 416 25 => 4 12 20 28 36 iota_odd),
        row!(224 404 18; 272 412 22; 284 r9 30; 332 r11 9; 380 400 1 => 40 48 56 64 72),
        row!(228 408 18; 276 416 22; 280 r8 31; 328 r10 10; 376 r12 2 => 44 52 60 68 76),
        row!(212 r11 31; 256 r12 29; 308 408 19; 352 412 28; 360 r8 23 => 80 88 96 104 112),
        row!(208 r10 0; 260 400 29; 304 404 20; 356 416 28; 364 r9 23 => 84 92 100 108 116),
        row!(236 416 18; 240 r8 14; 288 r10 27; 340 400 24; 384 404 4 => 120 128 136 144 152),
        row!(232 412 19; 244 r9 14; 292 r11 27; 336 r12 25; 388 408 4 => 124 132 140 148 156),
        row!(216 r12 1; 268 408 4; 316 416 12; 324 r9 11; 368 r10 31 => 160 168 176 184 192),
        row!(220 400 1; 264 404 5; 312 412 13; 320 r8 12; 372 r11 31 => 164 172 180 188 196),
        // r7 is the next round's constant: the end after round 23. The loop is longer than
        // a `b` reaches (2 KB), so it jumps back with `bl` (lr was saved).
        "ldr r6, [sp, #424]",
        "cmp r7, r6",
        "beq 3f",
        "bl 2b",
        "3:",
        "mov r0, sp",
        "ldr r1, [sp, #428]",
        copy_50_words!(),
        "add sp, #436",
        "pop {{r4-r7}}",
        "mov r8, r4",
        "mov r9, r5",
        "mov r10, r6",
        "mov r11, r7",
        "pop {{r4-r7, pc}}",
    );
}
