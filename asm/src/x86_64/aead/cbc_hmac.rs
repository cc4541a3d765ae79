//! Stitched AES-CBC encryption and SHA-256 or SHA-1 compression for `core_aead`'s TLS CBC
//! records (`cbc_hmac`, MAC-then-encrypt sealing): one loop that, per 64-byte block of the
//! MAC's input, compresses the block with the SHA extensions and CBC-encrypts four blocks of
//! the record with AES-NI, the instructions of the two interleaved. The CBC chain is serial
//! (each block waits ten `aesenc` latencies) and leaves the vector ports mostly idle; the
//! hash rounds are a serial chain of their own, and filling one's gaps with the other is the
//! "function stitching" of Gueron et al., "Improving OpenSSL Performance" (2015), which
//! OpenSSL's `aesni_cbc_sha256_enc_shaext` and `aesni_cbc_sha1_enc_shaext` apply to the same
//! pairs. Both chains stay in registers for the whole record: the Rust loop these replace
//! (`cbc_hmac`'s composition, their twin) reloaded the round keys and reshuffled the hash
//! state into the instructions' order at every 64-byte step.
//!
//! Registers common to both: `xmm10` the CBC chain, `xmm11`/`xmm12` the first and last
//! round keys, `xmm13` the byte-order pattern, `xmm14` a plaintext block, `xmm15` a middle
//! round key (loaded per round with `movdqu`: the schedule is not 16-byte aligned, which
//! legacy-SSE memory operands require, and the loads are off both chains). The hashes' own
//! are listed with their loops.

use core::arch::asm;
use core_cpu::{Aes, Sha};

// SHA-256: `xmm0` the round-constant-added schedule words (`sha256rnds2`'s implicit operand),
// `xmm1`/`xmm2` the state as ABEF/CDGH, `xmm3`–`xmm6` the message schedule, `xmm7` a schedule
// temporary, `xmm8`/`xmm9` the state at the block's start.

/// SHA-256's round constants (FIPS 180-4 §4.2.2), aligned for `paddd`'s memory operand.
#[repr(align(16))]
struct RoundConstants([u32; 64]);
static K: RoundConstants = RoundConstants([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/// The block "after" the last one a kernel encrypts (see `aes_last!`).
static ZERO: Pattern = Pattern([0; 16]);

/// The `pshufb` pattern that reverses the bytes of each 32-bit lane: the message is big-endian.
#[repr(align(16))]
struct Pattern([u8; 16]);
static BSWAP32: Pattern = Pattern([3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12]);

/// Four SHA-256 rounds (one of the sixteen groups of a block) on the schedule register
/// `$cur` (words 4i..4i+4), at byte offset `$k` of the constants; with `$next $prev`, also
/// finishes the next group's words (`sha256msg2` after adding W[t−7]); with `$far`, starts
/// the words three groups on (`sha256msg1`). The same data flow as core-hash's SHA-NI
/// `compress`, whose intrinsics it follows one for one.
macro_rules! quad {
    ($k:literal, $cur:literal, [$($next:literal $prev:literal)?], [$($far:literal)?]) => {
        concat!(
            "movdqa xmm0, ", $cur, "\n",
            "paddd xmm0, xmmword ptr [{k} + ", $k, "]\n",
            "sha256rnds2 xmm2, xmm1\n",
            $(
                "movdqa xmm7, ", $cur, "\n",
                "palignr xmm7, ", $prev, ", 4\n",
                "paddd ", $next, ", xmm7\n",
                "sha256msg2 ", $next, ", ", $cur, "\n",
            )?
            "pshufd xmm0, xmm0, 0x0E\n",
            "sha256rnds2 xmm1, xmm2\n",
            $("sha256msg1 ", $far, ", ", $cur, "\n",)?
        )
    };
}

/// The first middle rounds of a CBC block, at the byte offsets `$r` of the schedule: the
/// chain register already holds the block's input after the first round key (see
/// `aes_last!`).
macro_rules! aes_first {
    ([$($r:literal)*]) => {
        aes_rounds!([$($r)*])
    };
}

/// Middle rounds of the block in flight, at the byte offsets `$r` of the schedule.
macro_rules! aes_rounds {
    ([$($r:literal)*]) => {
        concat!($(
            "movdqu xmm15, xmmword ptr [{keys} + ", $r, "]\n",
            "aesenc xmm10, xmm15\n",
        )*)
    };
}

/// The block in flight's last middle rounds, then its final round and its store at `$at`,
/// with the next block's start folded in: with `u` the next plaintext block (at `$next`) XOR
/// the first round key, `aesenclast` under the last round key XOR `u` leaves `C ⊕ u`, which is
/// the next block's input after its first round; `C` itself is that XOR `u`, off the chain.
/// So the chain runs from `aesenclast` straight into the next block's first `aesenc`, one
/// `pxor` latency per block shorter than `aesenc(C ⊕ P ⊕ k₀)`.
macro_rules! aes_last {
    ($at:literal, $next:literal, [$($r:literal)*]) => {
        concat!(
            aes_rounds!([$($r)*]),
            "movdqu xmm14, xmmword ptr [", $next, "]\n",
            "pxor xmm14, xmm11\n",
            "movdqa xmm15, xmm14\n",
            "pxor xmm15, xmm12\n",
            "aesenclast xmm10, xmm15\n",
            "pxor xmm14, xmm10\n",
            "movdqu xmmword ptr [{buf} + ", $at, "], xmm14\n",
        )
    };
}

/// One 64-byte step: the block's sixteen groups of SHA-256 rounds, with one of the four CBC
/// blocks after every four of them, split in four parts (`$a`…`$d`, the middle rounds' key
/// offsets) between the groups.
macro_rules! sha256_step {
    ([$($a:literal)*], [$($b:literal)*], [$($c:literal)*], [$($d:literal)*]) => {
        concat!(
            quad!("0", "xmm3", [], []),
            aes_first!([$($a)*]),
            quad!("16", "xmm4", [], ["xmm3"]),
            aes_rounds!([$($b)*]),
            quad!("32", "xmm5", [], ["xmm4"]),
            aes_rounds!([$($c)*]),
            quad!("48", "xmm6", ["xmm3" "xmm5"], ["xmm5"]),
            aes_last!("0", "{buf} + 16", [$($d)*]),
            quad!("64", "xmm3", ["xmm4" "xmm6"], ["xmm6"]),
            aes_first!([$($a)*]),
            quad!("80", "xmm4", ["xmm5" "xmm3"], ["xmm3"]),
            aes_rounds!([$($b)*]),
            quad!("96", "xmm5", ["xmm6" "xmm4"], ["xmm4"]),
            aes_rounds!([$($c)*]),
            quad!("112", "xmm6", ["xmm3" "xmm5"], ["xmm5"]),
            aes_last!("16", "{buf} + 32", [$($d)*]),
            quad!("128", "xmm3", ["xmm4" "xmm6"], ["xmm6"]),
            aes_first!([$($a)*]),
            quad!("144", "xmm4", ["xmm5" "xmm3"], ["xmm3"]),
            aes_rounds!([$($b)*]),
            quad!("160", "xmm5", ["xmm6" "xmm4"], ["xmm4"]),
            aes_rounds!([$($c)*]),
            quad!("176", "xmm6", ["xmm3" "xmm5"], ["xmm5"]),
            aes_last!("32", "{buf} + 48", [$($d)*]),
            quad!("192", "xmm3", ["xmm4" "xmm6"], ["xmm6"]),
            aes_first!([$($a)*]),
            quad!("208", "xmm4", ["xmm5" "xmm3"], []),
            aes_rounds!([$($b)*]),
            quad!("224", "xmm5", ["xmm6" "xmm4"], []),
            aes_rounds!([$($c)*]),
            quad!("240", "xmm6", [], []),
            aes_last!("48", "{nx}", [$($d)*]),
        )
    };
}

/// Generates `$name`, the SHA-256 loop for one AES key size: `$last` is the byte offset of the
/// last round key, `$a`…`$d` the middle rounds' offsets in the four parts of a block.
macro_rules! sha256_loop {
    ($name:ident, $last:literal, $a:tt, $b:tt, $c:tt, $d:tt) => {
        /// # Safety
        ///
        /// The CPU must have AES-NI, SSSE3, SSE4.1 and the SHA extensions; `buf` must be
        /// valid for reads and writes of `64 * steps` bytes and for reads of `64 * steps`
        /// bytes from `buf + lead`; `steps` is at least one.
        unsafe fn $name(
            keys: &[[u8; 16]; 15],
            chain: &mut [u8; 16],
            state: &mut [u32; 8],
            buf: *mut u8,
            lead: usize,
            steps: usize,
        ) {
            // SAFETY: the caller's contract; the loop reads the schedule (15 blocks), the
            // constants and pattern (statics), the chain and state (references), reads
            // `64 * steps` bytes from `buf + lead` and reads and writes as many from `buf`,
            // each step's hash block loaded before the step's ciphertext is stored over any
            // of it. It clobbers only the registers and flags declared, and touches no stack.
            unsafe {
                asm!(
                    // The state into ABEF/CDGH order, the keys and chain into registers.
                    "movdqu xmm1, xmmword ptr [{state}]",
                    "movdqu xmm2, xmmword ptr [{state} + 16]",
                    "pshufd xmm1, xmm1, 0xB1",
                    "pshufd xmm2, xmm2, 0x1B",
                    "movdqa xmm7, xmm1",
                    "palignr xmm1, xmm2, 8",
                    "pblendw xmm2, xmm7, 0xF0",
                    "movdqa xmm13, xmmword ptr [{mask}]",
                    "movdqu xmm11, xmmword ptr [{keys}]",
                    "movdqu xmm10, xmmword ptr [{chain}]",
                    "movdqu xmm14, xmmword ptr [{buf}]",
                    "pxor xmm14, xmm11",
                    "pxor xmm10, xmm14",
                    concat!("movdqu xmm12, xmmword ptr [{keys} + ", $last, "]"),
                    "2:",
                    // The block after this step's last: the next step's first, or zeros after
                    // the last step (whose result is then the ciphertext XOR the first key).
                    "lea {nx}, [{buf} + 64]",
                    "cmp {n}, 1",
                    "cmove {nx}, {zero}",
                    "movdqu xmm3, xmmword ptr [{hp}]",
                    "pshufb xmm3, xmm13",
                    "movdqu xmm4, xmmword ptr [{hp} + 16]",
                    "pshufb xmm4, xmm13",
                    "movdqu xmm5, xmmword ptr [{hp} + 32]",
                    "pshufb xmm5, xmm13",
                    "movdqu xmm6, xmmword ptr [{hp} + 48]",
                    "pshufb xmm6, xmm13",
                    "movdqa xmm8, xmm1",
                    "movdqa xmm9, xmm2",
                    sha256_step!($a, $b, $c, $d),
                    "paddd xmm1, xmm8",
                    "paddd xmm2, xmm9",
                    "add {buf}, 64",
                    "add {hp}, 64",
                    "dec {n}",
                    "jnz 2b",
                    // The chain and the state back, in the state's word order.
                    "movdqu xmmword ptr [{chain}], xmm14",
                    "pshufd xmm1, xmm1, 0x1B",
                    "pshufd xmm2, xmm2, 0xB1",
                    "movdqa xmm7, xmm1",
                    "pblendw xmm1, xmm2, 0xF0",
                    "palignr xmm2, xmm7, 8",
                    "movdqu xmmword ptr [{state}], xmm1",
                    "movdqu xmmword ptr [{state} + 16], xmm2",
                    // No key, plaintext or state left in a register.
                    "pxor xmm0, xmm0",
                    "pxor xmm1, xmm1",
                    "pxor xmm2, xmm2",
                    "pxor xmm3, xmm3",
                    "pxor xmm4, xmm4",
                    "pxor xmm5, xmm5",
                    "pxor xmm6, xmm6",
                    "pxor xmm7, xmm7",
                    "pxor xmm8, xmm8",
                    "pxor xmm9, xmm9",
                    "pxor xmm10, xmm10",
                    "pxor xmm11, xmm11",
                    "pxor xmm12, xmm12",
                    "pxor xmm14, xmm14",
                    "pxor xmm15, xmm15",
                    keys = in(reg) keys.as_ptr(),
                    k = in(reg) K.0.as_ptr(),
                    mask = in(reg) BSWAP32.0.as_ptr(),
                    chain = in(reg) chain.as_mut_ptr(),
                    state = in(reg) state.as_mut_ptr(),
                    buf = inout(reg) buf => _,
                    hp = inout(reg) buf.wrapping_add(lead) => _,
                    n = inout(reg) steps => _,
                    nx = out(reg) _,
                    zero = in(reg) ZERO.0.as_ptr(),
                    out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                    out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
                    out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
                    out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
                    options(nostack),
                );
            }
        }
    };
}

sha256_loop!(sha256_aes128, "160", ["16"], ["32" "48" "64"], ["80" "96" "112"], ["128" "144"]);
sha256_loop!(
    sha256_aes192,
    "192",
    ["16" "32"],
    ["48" "64" "80"],
    ["96" "112" "128"],
    ["144" "160" "176"]
);
sha256_loop!(
    sha256_aes256,
    "224",
    ["16" "32" "48"],
    ["64" "80" "96"],
    ["112" "128" "144"],
    ["160" "176" "192" "208"]
);

// SHA-1: `xmm0` ABCD (word-reversed, as `sha1rnds4` wants it), `xmm1`/`xmm2` in turn a group's
// words plus E and the next group's in the making, `xmm3`–`xmm6` the message schedule, `xmm7`
// ABCD at the block's start, `xmm8` E (in the top lane) at the block's start.

/// The `pshufb` pattern that reverses all 16 bytes: big-endian words, word 0 in the top lane.
static REVERSE: Pattern = Pattern([15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

/// Four SHA-1 rounds (group j of twenty) with the round function `$f`, on `$x` (`W[4j..4j+4]`
/// with E added); `$y` takes a copy of ABCD before them and then `sha1nexte` of it with `$w`,
/// the next group's words (or, after the last, the block's starting E): the next group's
/// operand. The schedule register `$cur` holds `W[4j..4j+4]`; the bracketed registers are the
/// words of groups j + 1 (finished by `sha1msg2`), j + 3 (started by `sha1msg1`) and j + 2
/// (`W[4j..]` folded in by `pxor`), where those groups exist:
/// `W[i] = ROL1(W[i−3] ⊕ W[i−8] ⊕ W[i−14] ⊕ W[i−16])` four words at a time (FIPS 180-4 §6.1.2).
macro_rules! sha1_quad {
    (
        $f:literal, $cur:literal, $x:literal, $y:literal, $w:literal,
        [$($next:literal)?], [$($far:literal)?], [$($mid:literal)?]
    ) => {
        concat!(
            "movdqa ", $y, ", xmm0\n",
            $("sha1msg2 ", $next, ", ", $cur, "\n",)?
            "sha1rnds4 xmm0, ", $x, ", ", $f, "\n",
            "sha1nexte ", $y, ", ", $w, "\n",
            $("sha1msg1 ", $far, ", ", $cur, "\n",)?
            $("pxor ", $mid, ", ", $cur, "\n",)?
        )
    };
}

/// One 64-byte step: the block's twenty groups of SHA-1 rounds, with one of the four CBC
/// blocks after every five of them, split in five parts (`$a`…`$e`, the middle rounds' key
/// offsets) between the groups.
macro_rules! sha1_step {
    ([$($a:literal)*], [$($b:literal)*], [$($c:literal)*], [$($d:literal)*], [$($e:literal)*]) => {
        concat!(
            sha1_quad!("0", "xmm3", "xmm1", "xmm2", "xmm4", [], [], []),
            aes_first!([$($a)*]),
            sha1_quad!("0", "xmm4", "xmm2", "xmm1", "xmm5", [], ["xmm3"], []),
            aes_rounds!([$($b)*]),
            sha1_quad!("0", "xmm5", "xmm1", "xmm2", "xmm6", [], ["xmm4"], ["xmm3"]),
            aes_rounds!([$($c)*]),
            sha1_quad!("0", "xmm6", "xmm2", "xmm1", "xmm3", ["xmm3"], ["xmm5"], ["xmm4"]),
            aes_rounds!([$($d)*]),
            sha1_quad!("0", "xmm3", "xmm1", "xmm2", "xmm4", ["xmm4"], ["xmm6"], ["xmm5"]),
            aes_last!("0", "{buf} + 16", [$($e)*]),
            sha1_quad!("1", "xmm4", "xmm2", "xmm1", "xmm5", ["xmm5"], ["xmm3"], ["xmm6"]),
            aes_first!([$($a)*]),
            sha1_quad!("1", "xmm5", "xmm1", "xmm2", "xmm6", ["xmm6"], ["xmm4"], ["xmm3"]),
            aes_rounds!([$($b)*]),
            sha1_quad!("1", "xmm6", "xmm2", "xmm1", "xmm3", ["xmm3"], ["xmm5"], ["xmm4"]),
            aes_rounds!([$($c)*]),
            sha1_quad!("1", "xmm3", "xmm1", "xmm2", "xmm4", ["xmm4"], ["xmm6"], ["xmm5"]),
            aes_rounds!([$($d)*]),
            sha1_quad!("1", "xmm4", "xmm2", "xmm1", "xmm5", ["xmm5"], ["xmm3"], ["xmm6"]),
            aes_last!("16", "{buf} + 32", [$($e)*]),
            sha1_quad!("2", "xmm5", "xmm1", "xmm2", "xmm6", ["xmm6"], ["xmm4"], ["xmm3"]),
            aes_first!([$($a)*]),
            sha1_quad!("2", "xmm6", "xmm2", "xmm1", "xmm3", ["xmm3"], ["xmm5"], ["xmm4"]),
            aes_rounds!([$($b)*]),
            sha1_quad!("2", "xmm3", "xmm1", "xmm2", "xmm4", ["xmm4"], ["xmm6"], ["xmm5"]),
            aes_rounds!([$($c)*]),
            sha1_quad!("2", "xmm4", "xmm2", "xmm1", "xmm5", ["xmm5"], ["xmm3"], ["xmm6"]),
            aes_rounds!([$($d)*]),
            sha1_quad!("2", "xmm5", "xmm1", "xmm2", "xmm6", ["xmm6"], ["xmm4"], ["xmm3"]),
            aes_last!("32", "{buf} + 48", [$($e)*]),
            sha1_quad!("3", "xmm6", "xmm2", "xmm1", "xmm3", ["xmm3"], ["xmm5"], ["xmm4"]),
            aes_first!([$($a)*]),
            sha1_quad!("3", "xmm3", "xmm1", "xmm2", "xmm4", ["xmm4"], ["xmm6"], ["xmm5"]),
            aes_rounds!([$($b)*]),
            sha1_quad!("3", "xmm4", "xmm2", "xmm1", "xmm5", ["xmm5"], [], ["xmm6"]),
            aes_rounds!([$($c)*]),
            sha1_quad!("3", "xmm5", "xmm1", "xmm2", "xmm6", ["xmm6"], [], []),
            aes_rounds!([$($d)*]),
            sha1_quad!("3", "xmm6", "xmm2", "xmm1", "xmm8", [], [], []),
            aes_last!("48", "{nx}", [$($e)*]),
        )
    };
}

/// Generates `$name`, the SHA-1 loop for one AES key size: `$last` is the byte offset of the
/// last round key, `$a`…`$e` the middle rounds' offsets in the five parts of a block.
macro_rules! sha1_loop {
    ($name:ident, $last:literal, $a:tt, $b:tt, $c:tt, $d:tt, $e:tt) => {
        /// # Safety
        ///
        /// As for the SHA-256 loops.
        unsafe fn $name(
            keys: &[[u8; 16]; 15],
            chain: &mut [u8; 16],
            state: &mut [u32; 5],
            buf: *mut u8,
            lead: usize,
            steps: usize,
        ) {
            // SAFETY: as for the SHA-256 loops; the state is 20 bytes, read and written as
            // 16 and 4.
            unsafe {
                asm!(
                    // ABCD word-reversed, E in the top lane, the keys and chain in registers.
                    "movdqu xmm0, xmmword ptr [{state}]",
                    "pshufd xmm0, xmm0, 0x1B",
                    "movd xmm8, dword ptr [{state} + 16]",
                    "pslldq xmm8, 12",
                    "movdqa xmm13, xmmword ptr [{mask}]",
                    "movdqu xmm11, xmmword ptr [{keys}]",
                    "movdqu xmm10, xmmword ptr [{chain}]",
                    "movdqu xmm14, xmmword ptr [{buf}]",
                    "pxor xmm14, xmm11",
                    "pxor xmm10, xmm14",
                    concat!("movdqu xmm12, xmmword ptr [{keys} + ", $last, "]"),
                    "2:",
                    // The block after this step's last: the next step's first, or zeros after
                    // the last step (whose result is then the ciphertext XOR the first key).
                    "lea {nx}, [{buf} + 64]",
                    "cmp {n}, 1",
                    "cmove {nx}, {zero}",
                    "movdqu xmm3, xmmword ptr [{hp}]",
                    "pshufb xmm3, xmm13",
                    "movdqu xmm4, xmmword ptr [{hp} + 16]",
                    "pshufb xmm4, xmm13",
                    "movdqu xmm5, xmmword ptr [{hp} + 32]",
                    "pshufb xmm5, xmm13",
                    "movdqu xmm6, xmmword ptr [{hp} + 48]",
                    "pshufb xmm6, xmm13",
                    "movdqa xmm7, xmm0",
                    "movdqa xmm1, xmm8",
                    "paddd xmm1, xmm3",
                    sha1_step!($a, $b, $c, $d, $e),
                    // The last group left the next block's E in xmm1.
                    "movdqa xmm8, xmm1",
                    "paddd xmm0, xmm7",
                    "add {buf}, 64",
                    "add {hp}, 64",
                    "dec {n}",
                    "jnz 2b",
                    "movdqu xmmword ptr [{chain}], xmm14",
                    "pshufd xmm0, xmm0, 0x1B",
                    "movdqu xmmword ptr [{state}], xmm0",
                    "pextrd dword ptr [{state} + 16], xmm8, 3",
                    // No key, plaintext or state left in a register.
                    "pxor xmm0, xmm0",
                    "pxor xmm1, xmm1",
                    "pxor xmm2, xmm2",
                    "pxor xmm3, xmm3",
                    "pxor xmm4, xmm4",
                    "pxor xmm5, xmm5",
                    "pxor xmm6, xmm6",
                    "pxor xmm7, xmm7",
                    "pxor xmm8, xmm8",
                    "pxor xmm10, xmm10",
                    "pxor xmm11, xmm11",
                    "pxor xmm12, xmm12",
                    "pxor xmm14, xmm14",
                    "pxor xmm15, xmm15",
                    keys = in(reg) keys.as_ptr(),
                    mask = in(reg) REVERSE.0.as_ptr(),
                    chain = in(reg) chain.as_mut_ptr(),
                    state = in(reg) state.as_mut_ptr(),
                    buf = inout(reg) buf => _,
                    hp = inout(reg) buf.wrapping_add(lead) => _,
                    n = inout(reg) steps => _,
                    nx = out(reg) _,
                    zero = in(reg) ZERO.0.as_ptr(),
                    out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                    out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
                    out("xmm8") _, out("xmm10") _, out("xmm11") _,
                    out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
                    options(nostack),
                );
            }
        }
    };
}

sha1_loop!(
    sha1_aes128,
    "160",
    ["16" "32"],
    ["48" "64"],
    ["80" "96"],
    ["112" "128"],
    ["144"]
);
sha1_loop!(
    sha1_aes192,
    "192",
    ["16" "32"],
    ["48" "64"],
    ["80" "96" "112"],
    ["128" "144"],
    ["160" "176"]
);
sha1_loop!(
    sha1_aes256,
    "224",
    ["16" "32" "48"],
    ["64" "80" "96"],
    ["112" "128" "144"],
    ["160" "176"],
    ["192" "208"]
);

/// The stitched steps of a TLS CBC record's sealing: for each step `i` while
/// `lead + 64(i + 1) ≤ buf.len()`, compresses the 64 bytes at `lead + 64i` (plaintext: each is
/// read before the step encrypts over it) into the SHA-256 `state`, and CBC-encrypts the four
/// blocks at `64i` in place under the AES schedule `keys` of `rounds` rounds (10, 12 or 14),
/// chaining from and updating `chain`. Returns the number of steps, which are then done; none
/// when `rounds` is another number. The Rust twin is the composition in
/// `core_aead::cbc_hmac` (one `cbc_encrypt_blocks` and one `compress_blocks` per step), which
/// the record tests compare it with.
///
/// At 16 KiB with AES-128, 1.40 TSC ticks per byte on this project's Xeon (SHA-NI, VAES):
/// the CBC chain's latency, ten `aesenc` per block, with the SHA-256 rounds hidden in it (the
/// composition it replaced: 1.71; OpenSSL's `aesni_cbc_sha256_enc_shaext`: 1.41).
#[allow(clippy::too_many_arguments)]
pub fn seal_sha256(
    aes: Aes,
    sha: Sha,
    keys: &[[u8; 16]; 15],
    rounds: usize,
    chain: &mut [u8; 16],
    state: &mut [u32; 8],
    buf: &mut [u8],
    lead: usize,
) -> usize {
    let (_, _) = (aes, sha);
    let steps = buf.len().saturating_sub(lead) / 64;
    if steps == 0 {
        return 0;
    }
    let (keys, buf) = (keys, buf.as_mut_ptr());
    // SAFETY: the `Aes` and `Sha` tokens prove AES-NI, SSSE3, SSE4.1 and the SHA extensions;
    // `64 * steps ≤ buf.len() − lead`, so both the encrypted bytes (`..64 * steps`) and the
    // hashed ones (`lead..lead + 64 * steps`) lie in `buf`.
    unsafe {
        match rounds {
            10 => sha256_aes128(keys, chain, state, buf, lead, steps),
            12 => sha256_aes192(keys, chain, state, buf, lead, steps),
            14 => sha256_aes256(keys, chain, state, buf, lead, steps),
            _ => return 0,
        }
    }
    steps
}

/// [`seal_sha256`] with SHA-1: the same steps, `state` the five words of a SHA-1 chaining
/// value. The Rust twin is the same composition with core-hash's SHA-1.
#[allow(clippy::too_many_arguments)]
pub fn seal_sha1(
    aes: Aes,
    sha: Sha,
    keys: &[[u8; 16]; 15],
    rounds: usize,
    chain: &mut [u8; 16],
    state: &mut [u32; 5],
    buf: &mut [u8],
    lead: usize,
) -> usize {
    let (_, _) = (aes, sha);
    let steps = buf.len().saturating_sub(lead) / 64;
    if steps == 0 {
        return 0;
    }
    let (keys, buf) = (keys, buf.as_mut_ptr());
    // SAFETY: as in `seal_sha256`.
    unsafe {
        match rounds {
            10 => sha1_aes128(keys, chain, state, buf, lead, steps),
            12 => sha1_aes192(keys, chain, state, buf, lead, steps),
            14 => sha1_aes256(keys, chain, state, buf, lead, steps),
            _ => return 0,
        }
    }
    steps
}
