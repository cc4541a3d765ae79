//! ChaCha20's block in Thumb-1 assembly, for the Cortex-M0: the 20 rounds, the final addition
//! and the XOR into a word-aligned block in one call ([`xor_block`]), and the XOR of a
//! keystream block into bytes at any alignment ([`xor_bytes`]). Their Rust twin is
//! `core_aead`'s `chacha20/portable.rs`, which every other target (and a build without `asm`)
//! runs, and which the tests compare them with.

/// `chunk` as the sixteen words [`xor_block`] works on, if it starts on a word boundary (the
/// Cortex-M0 faults on an unaligned word access); `None` otherwise. The address is public, so
/// the test is too.
#[inline(always)]
pub fn as_words(chunk: &mut [u8; 64]) -> Option<&mut [u32; 16]> {
    if !chunk.as_ptr().addr().is_multiple_of(4) {
        return None;
    }
    // SAFETY: `chunk` is 64 bytes on a word boundary (checked above), so it is a valid
    // `[u32; 16]`, exclusively borrowed for as long as the result is; every bit pattern is a
    // valid `u32` and `u8`.
    Some(unsafe { &mut *chunk.as_mut_ptr().cast::<[u32; 16]>() })
}

/// XORs the keystream block of `state` (RFC 8439 §2.3) into the 16 words of `data`.
///
/// The state is copied, transposed, to a 64-byte frame, so that a column is four consecutive
/// words: the column round is a loop over the columns (one copy of the quarter round, for
/// flash), each loaded into `r0`–`r3` (a, b, c, d) with one `ldm` and stored with one `stm`.
/// The diagonals wrap around their rows, so they are written out with single loads and
/// stores, the first taking word 15 from the last column in a register. The rotation counts
/// stay in registers (`rors` reads a count modulo 32): `r4` is 16 and, in steps of 32, the
/// double-round counter; `r6` is 20, stepped to 24 and 25 in the columns; `r5` holds 24 and
/// 25 in the diagonals. The final addition and the XOR go two words a step, then the frame
/// is wiped. The column-major frame saves about 240 cycles a block against row-major single
/// loads and stores; in all about 2 700 cycles a block against about 3 700 for the compiled
/// Rust (whose XOR went a byte at a time), in fewer bytes. `r12` and `lr` hold loop ends:
/// unlike `r8`–`r11` the compiler need not save them. Constant time: adds, XORs, rotations
/// by fixed counts, loads and stores at fixed offsets, and loops over public counts.
#[inline(never)]
pub fn xor_block(state: &[u32; 16], data: &mut [u32; 16]) {
    // SAFETY: reads the sixteen words of `state` and reads and writes the sixteen words of
    // `data`, through the pointers passed in `r0` and `r1` (both word-aligned references, 64
    // bytes each), and a 76-byte frame below the stack pointer that it allocates, wipes and
    // releases (the working state, then the two pointers and `r6`). The copy pass reads
    // `state` through `r0` for 4 passes of 16 bytes and stores at offsets 0 to 60 of the
    // frame; the column pointer `r5` runs over the working state (4 passes of 16 bytes);
    // the diagonals use fixed offsets 0 to 60 from `sp`; the final pass reads 4 × 16 bytes
    // through `r0` (`state`) and reads and writes 4 × 16 bytes through `r1` (`data`); the
    // wipe stores 4 × 16 bytes from `sp`. `r6`, which the compiler may reserve, is saved and
    // restored, `r7` is not touched, and every other register written is declared clobbered.
    unsafe {
        core::arch::asm!(
            "push {{r0, r1, r6}}",
            "sub sp, #64",
            // x at sp + 0..64: `state` transposed (x[4r + c] at sp + 16c + 4r), a row a pass;
            // `rors` reads its count's low byte modulo 32, so r6 counts the passes down from
            // 20 + 32·3 by 32 and ends at −12: a rotation by 20.
            "add r1, sp, #64",
            "mov r12, r1", // r12 = sp + 64, the end of x
            "mov r1, sp",
            "movs r6, #116",
            "1:",
            "ldm r0!, {{r2, r3, r4, r5}}",
            "str r2, [r1, #0]",
            "str r3, [r1, #16]",
            "str r4, [r1, #32]",
            "str r5, [r1, #48]",
            "adds r1, #4",
            "subs r6, #32",
            "bpl 1b",
            "mov lr, r1", // lr = sp + 16, the end of the first column
            // r4 = 16 + 32·9: a rotation by 16, less 32 after each double round, and the round
            // counter: the loop ends when it turns negative.
            "movs r4, #38",
            "lsls r4, r4, #3",
            "2:",
            // Column round: column i loaded and stored whole at r5.
            "mov r5, sp",
            "3:",
            "ldm r5!, {{r0, r1, r2, r3}}",
            "adds r0, r1", // a += b
            "eors r3, r0", // d ^= a
            "rors r3, r4", // d >>>= 16
            "adds r2, r3", // c += d
            "eors r1, r2", // b ^= c
            "rors r1, r6", // b >>>= 20
            "adds r6, #4", // r6 = 24
            "adds r0, r1",
            "eors r3, r0",
            "rors r3, r6", // d >>>= 24
            "adds r6, #1", // r6 = 25
            "adds r2, r3",
            "eors r1, r2",
            "rors r1, r6", // b >>>= 25
            "subs r6, #5", // r6 = 20
            "subs r5, #16",
            "stm r5!, {{r0, r1, r2, r3}}",
            "cmp r5, r12",
            "bne 3b",
            // Diagonal round, written out; r5 = 24 or 25 for the last two rotations.
            "movs r5, #24",
            // Diagonal 0: x[0], x[5], x[10], x[15] (x[15] is in r3 from column 3).
            "ldr r0, [sp, #0]",
            "ldr r1, [sp, #20]",
            "ldr r2, [sp, #40]",
            "adds r0, r1", // a += b
            "eors r3, r0", // d ^= a
            "rors r3, r4", // d >>>= 16
            "adds r2, r3", // c += d
            "eors r1, r2", // b ^= c
            "rors r1, r6", // b >>>= 20
            "adds r0, r1",
            "eors r3, r0",
            "rors r3, r5", // d >>>= 24
            "adds r5, #1", // r5 = 25
            "adds r2, r3",
            "eors r1, r2",
            "rors r1, r5", // b >>>= 25
            "str r0, [sp, #0]",
            "str r1, [sp, #20]",
            "str r2, [sp, #40]",
            "str r3, [sp, #60]",
            // Diagonal 1: x[1], x[6], x[11], x[12].
            "ldr r0, [sp, #16]",
            "ldr r1, [sp, #36]",
            "ldr r2, [sp, #56]",
            "ldr r3, [sp, #12]",
            "subs r5, #1", // r5 = 24
            "adds r0, r1",
            "eors r3, r0",
            "rors r3, r4",
            "adds r2, r3",
            "eors r1, r2",
            "rors r1, r6",
            "adds r0, r1",
            "eors r3, r0",
            "rors r3, r5",
            "adds r5, #1",
            "adds r2, r3",
            "eors r1, r2",
            "rors r1, r5",
            "str r0, [sp, #16]",
            "str r1, [sp, #36]",
            "str r2, [sp, #56]",
            "str r3, [sp, #12]",
            // Diagonal 2: x[2], x[7], x[8], x[13].
            "ldr r0, [sp, #32]",
            "ldr r1, [sp, #52]",
            "ldr r2, [sp, #8]",
            "ldr r3, [sp, #28]",
            "subs r5, #1", // r5 = 24
            "adds r0, r1",
            "eors r3, r0",
            "rors r3, r4",
            "adds r2, r3",
            "eors r1, r2",
            "rors r1, r6",
            "adds r0, r1",
            "eors r3, r0",
            "rors r3, r5",
            "adds r5, #1",
            "adds r2, r3",
            "eors r1, r2",
            "rors r1, r5",
            "str r0, [sp, #32]",
            "str r1, [sp, #52]",
            "str r2, [sp, #8]",
            "str r3, [sp, #28]",
            // Diagonal 3: x[3], x[4], x[9], x[14].
            "ldr r0, [sp, #48]",
            "ldr r1, [sp, #4]",
            "ldr r2, [sp, #24]",
            "ldr r3, [sp, #44]",
            "subs r5, #1", // r5 = 24
            "adds r0, r1",
            "eors r3, r0",
            "rors r3, r4",
            "adds r2, r3",
            "eors r1, r2",
            "rors r1, r6",
            "adds r0, r1",
            "eors r3, r0",
            "rors r3, r5",
            "adds r5, #1",
            "adds r2, r3",
            "eors r1, r2",
            "rors r1, r5",
            "str r0, [sp, #48]",
            "str r1, [sp, #4]",
            "str r2, [sp, #24]",
            "str r3, [sp, #44]",
            "subs r4, #32",
            "bpl 2b",
            // data[i] ^= x[i] + state[i], a row a pass (r2 = &x[4r]), two words a step.
            "ldr r0, [sp, #64]",
            "ldr r1, [sp, #68]",
            "mov r2, sp",
            "4:",
            "ldr r3, [r2, #0]",
            "ldr r4, [r2, #16]",
            "ldm r0!, {{r5, r6}}",
            "adds r3, r5",
            "adds r4, r6",
            "ldr r5, [r1, #0]",
            "ldr r6, [r1, #4]",
            "eors r3, r5",
            "eors r4, r6",
            "stm r1!, {{r3, r4}}",
            "ldr r3, [r2, #32]",
            "ldr r4, [r2, #48]",
            "ldm r0!, {{r5, r6}}",
            "adds r3, r5",
            "adds r4, r6",
            "ldr r5, [r1, #0]",
            "ldr r6, [r1, #4]",
            "eors r3, r5",
            "eors r4, r6",
            "stm r1!, {{r3, r4}}",
            "adds r2, #4",
            "cmp r2, lr",
            "bne 4b",
            // Wipe x: the rounds run backwards from it to the key.
            "movs r3, #0",
            "movs r4, #0",
            "movs r5, #0",
            "movs r6, #0",
            "mov r2, sp",
            "5:",
            "stm r2!, {{r3, r4, r5, r6}}",
            "cmp r2, r12",
            "bne 5b",
            "add sp, #64",
            "pop {{r0, r1, r6}}",
            inout("r0") state.as_ptr() => _,
            inout("r1") data.as_mut_ptr() => _,
            out("r2") _, out("r3") _, out("r4") _, out("r5") _, out("r12") _, out("lr") _,
        );
    }
}

/// XORs the first `data.len()` (at most 64) bytes of `key` into `data`, at any alignment:
/// each key word is loaded once and its four bytes go out with byte loads and stores and
/// shifts by 8, in a loop over whole words (7.5 cycles a byte, against 15 for the compiled
/// byte loop), then a byte loop over the last 0 to 3. Word-aligned loads and stores into
/// `data` would need the key shifted by its offset, and bytes handled at both ends: more
/// flash than the ChaCha20 image has to spare. Constant time: the key only goes through
/// XORs and shifts by fixed counts; the branches depend on the length of `data` only,
/// which is public.
pub fn xor_bytes(key: &[u32; 16], data: &mut [u8]) {
    assert!(data.len() <= 64);
    // SAFETY: writes only the `data.len()` bytes from `r1` (`data`): `r2` counts the bytes
    // left, the word loop runs while at least 4 are (it touches `r1 + 0..4`, then steps `r1`
    // by 4 and `r2` down by 4), the byte loop over the 0 to 3 after it. It reads one key word
    // (aligned, through `r0`) for each 4 bytes or part of them, so at most 16: all within
    // `key`. Registers written are declared clobbered; `r6` and `r7` are not touched.
    unsafe {
        core::arch::asm!(
            "subs r2, #4",
            "bcc 2f",
            "1:",
            "ldm r0!, {{r3}}",
            "ldrb r4, [r1, #0]",
            "eors r4, r3",
            "strb r4, [r1, #0]",
            "lsrs r3, r3, #8",
            "ldrb r4, [r1, #1]",
            "eors r4, r3",
            "strb r4, [r1, #1]",
            "lsrs r3, r3, #8",
            "ldrb r4, [r1, #2]",
            "eors r4, r3",
            "strb r4, [r1, #2]",
            "lsrs r3, r3, #8",
            "ldrb r4, [r1, #3]",
            "eors r4, r3",
            "strb r4, [r1, #3]",
            "adds r1, #4",
            "subs r2, #4",
            "bcs 1b",
            "2:",
            "adds r2, #4", // the 0 to 3 bytes left
            "beq 4f",
            "ldm r0!, {{r3}}",
            "3:",
            "ldrb r4, [r1]",
            "eors r4, r3",
            "strb r4, [r1]",
            "lsrs r3, r3, #8",
            "adds r1, #1",
            "subs r2, #1",
            "bne 3b",
            "4:",
            inout("r0") key.as_ptr() => _,
            inout("r1") data.as_mut_ptr() => _,
            inout("r2") data.len() => _,
            out("r3") _, out("r4") _,
        );
    }
}
