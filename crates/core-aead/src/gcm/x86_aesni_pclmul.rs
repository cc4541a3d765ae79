//! AES-GCM with AES-NI and PCLMULQDQ stitched into one loop (the "function stitching" of
//! Gopal et al. for OpenSSL 1.0.2): each iteration runs the AES rounds of eight counter
//! blocks and, between them, the GHASH multiplications of eight ciphertext blocks, so the two
//! instruction streams — `aesenc` on one port, `pclmulqdq` and shuffles on another — overlap
//! instead of running one after the other.
//!
//! Encryption hashes the ciphertext of the previous iteration while encrypting the next
//! eight blocks (a lag of two iterations measured slower on 1350-byte records: one more batch
//! runs unstitched at each end); decryption hashes the eight blocks it is decrypting. The iteration is one `asm!`
//! block in VEX (AVX) encoding: written as intrinsics, the compiler groups all `aesenc` of a
//! batch together, which fills the scheduler with work for one port and serialises the two
//! streams again, and the three-operand forms save the register copies the SSE forms need.
//!
//! The whole message is handled here — AAD, batches, the tail, the length block and the tag
//! mask E(J₀), which rides along as one more lane of the tail's AES — so a short record costs
//! one pass over the round keys and as few GHASH reductions as possible.

use crate::aes::HwKey;
use crate::aes::x86_aesni::{self, load, load_keys, store};
use crate::ghash::x86_pclmul::{self, Powers};
use core::arch::asm;
use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_set_epi32, _mm_setzero_si128, _mm_shuffle_epi8,
    _mm_xor_si128,
};
use core_cpu::{Aes, Avx, ClMul};
use zeroize::Zeroize;

/// Blocks per iteration: one GHASH batch.
const LANES: usize = x86_pclmul::BATCH;

/// Encrypts (or decrypts) `buf` in CTR mode from `j0 + 1` and returns the tag over `aad` and
/// the ciphertext.
#[allow(clippy::too_many_arguments)]
pub(super) fn crypt<const ENCRYPT: bool>(
    aes: Aes,
    clmul: ClMul,
    avx: Avx,
    key: &HwKey,
    hkey: &x86_pclmul::Key,
    j0: &[u8; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let _ = (aes, clmul, avx);
    // SAFETY: the `Aes`, `ClMul` and `Avx` tokens prove AES-NI, PCLMULQDQ, AVX, SSE2 and
    // SSSE3, everything the batch's `asm!` and the intrinsics around it use.
    unsafe { crypt_stitched::<ENCRYPT>(key, hkey, j0, aad, buf) }
}

/// Constants the batch reads from memory.
#[repr(C, align(16))]
struct Consts {
    /// `vpshufb` mask reversing the 16 bytes of a block.
    bswap: [u8; 16],
    /// 1 in the low 32-bit lane: the counter increment in byte-reversed form.
    one: [u8; 16],
    /// The reduction constant `y^57 + y^62 + y^63` in the low 64-bit lane.
    q: [u8; 16],
    /// 8 in the low 32-bit lane: a batch's counter advance, in byte-reversed form.
    eight: [u8; 16],
    /// `i` in the last byte, for `i` = 1…7: added byte-wise to a big-endian counter block whose
    /// last byte is at most 248, they give the next seven counter blocks without a shuffle.
    inc: [[u8; 16]; 7],
}

static CONSTS: Consts = Consts {
    bswap: [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    one: 1u128.to_le_bytes(),
    q: 0xC200_0000_0000_0000u128.to_le_bytes(),
    eight: 8u128.to_le_bytes(),
    inc: {
        let mut inc = [[0; 16]; 7];
        let mut i = 0;
        while i < 7 {
            inc[i][15] = i as u8 + 1;
            i += 1;
        }
        inc
    },
};

/// The eight counter blocks of a batch from the byte-reversed counter in xmm15, which
/// advances by 8: each block byte-reversed on its own (eight `vpshufb`, all on the shuffle
/// port that `vpclmulqdq` also needs).
macro_rules! counters_shuffled {
    () => {
        concat!(
            "vpshufb xmm0, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm1, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm2, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm3, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm4, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm5, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm6, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm7, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
        )
    };
}

/// The same blocks when the counter's low byte is at most 248, so no block carries out of
/// it: one shuffle, then byte additions to the last byte of the big-endian block (the
/// shuffle-free counter of OpenSSL's AES-GCM code).
macro_rules! counters_added {
    () => {
        concat!(
            "vpshufb xmm0, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 48]\n",
            "vpaddb xmm1, xmm0, xmmword ptr [{cst} + 64]\n",
            "vpaddb xmm2, xmm0, xmmword ptr [{cst} + 80]\n",
            "vpaddb xmm3, xmm0, xmmword ptr [{cst} + 96]\n",
            "vpaddb xmm4, xmm0, xmmword ptr [{cst} + 112]\n",
            "vpaddb xmm5, xmm0, xmmword ptr [{cst} + 128]\n",
            "vpaddb xmm6, xmm0, xmmword ptr [{cst} + 144]\n",
            "vpaddb xmm7, xmm0, xmmword ptr [{cst} + 160]\n",
        )
    };
}

/// Eight `vaesenc` with the round key at `[{rk} + $off]`.
macro_rules! round {
    ($off:literal) => {
        concat!(
            "vmovdqa xmm13, xmmword ptr [{rk} + ",
            $off,
            "]\n",
            "vaesenc xmm0, xmm0, xmm13\n",
            "vaesenc xmm1, xmm1, xmm13\n",
            "vaesenc xmm2, xmm2, xmm13\n",
            "vaesenc xmm3, xmm3, xmm13\n",
            "vaesenc xmm4, xmm4, xmm13\n",
            "vaesenc xmm5, xmm5, xmm13\n",
            "vaesenc xmm6, xmm6, xmm13\n",
            "vaesenc xmm7, xmm7, xmm13\n",
        )
    };
}

/// One block at `[{src} + $off]` times the key power at `$pow` (Karatsuba), added to the sums
/// in xmm8 (low), xmm9 (middle), xmm10 (high).
macro_rules! hash_block {
    ($off:literal, $pow:literal) => {
        concat!(
            "vmovdqu xmm11, xmmword ptr [{src} + ",
            $off,
            "]\n",
            "vpshufb xmm11, xmm11, xmmword ptr [{cst}]\n",
            "vpshufd xmm12, xmm11, 0x4e\n",
            "vpxor xmm12, xmm12, xmm11\n",
            "vpclmulqdq xmm12, xmm12, xmmword ptr [{k} + ",
            $pow,
            "], 0x00\n",
            "vpxor xmm9, xmm9, xmm12\n",
            "vpclmulqdq xmm12, xmm11, xmmword ptr [{h} + ",
            $pow,
            "], 0x00\n",
            "vpxor xmm8, xmm8, xmm12\n",
            "vpclmulqdq xmm11, xmm11, xmmword ptr [{h} + ",
            $pow,
            "], 0x11\n",
            "vpxor xmm10, xmm10, xmm11\n",
        )
    };
}

/// The body of [`batch`], with the counter code `$counters` (one of the two macros above).
/// The operands name `batch`'s arguments, passed in so that the macro can see them.
macro_rules! stitched {
    ($counters:ident, $rk:ident, $nr:ident, $c:ident, $acc:ident, $p:ident, $src:ident, $dst:ident) => {
        asm!(
            // Counter blocks, whitened with round key 0.
            $counters!(),
            "vmovdqa xmm13, xmmword ptr [{rk}]",
            "vpxor xmm0, xmm0, xmm13",
            "vpxor xmm1, xmm1, xmm13",
            "vpxor xmm2, xmm2, xmm13",
            "vpxor xmm3, xmm3, xmm13",
            "vpxor xmm4, xmm4, xmm13",
            "vpxor xmm5, xmm5, xmm13",
            "vpxor xmm6, xmm6, xmm13",
            "vpxor xmm7, xmm7, xmm13",
            "vpxor xmm8, xmm8, xmm8",
            "vpxor xmm9, xmm9, xmm9",
            "vpxor xmm10, xmm10, xmm10",
            // Rounds 1–8, block i times H^(8−i) after round i + 1.
            round!(16), hash_block!(0, 112),
            round!(32), hash_block!(16, 96),
            round!(48), hash_block!(32, 80),
            round!(64), hash_block!(48, 64),
            round!(80), hash_block!(64, 48),
            round!(96), hash_block!(80, 32),
            round!(112), hash_block!(96, 16),
            round!(128), hash_block!(112, 0),
            // Round 9, acc · H⁸, and the Karatsuba recombination and first reduction step.
            round!(144),
            "vpshufd xmm12, xmm14, 0x4e",
            "vpxor xmm12, xmm12, xmm14",
            "vpclmulqdq xmm12, xmm12, xmmword ptr [{k} + 112], 0x00",
            "vpxor xmm9, xmm9, xmm12",
            "vpclmulqdq xmm12, xmm14, xmmword ptr [{h} + 112], 0x00",
            "vpxor xmm8, xmm8, xmm12",
            "vpclmulqdq xmm11, xmm14, xmmword ptr [{h} + 112], 0x11",
            "vpxor xmm10, xmm10, xmm11",
            "vpxor xmm9, xmm9, xmm8",
            "vpxor xmm9, xmm9, xmm10",
            "vpslldq xmm12, xmm9, 8",
            "vpxor xmm8, xmm8, xmm12",
            "vpsrldq xmm9, xmm9, 8",
            "vpxor xmm10, xmm10, xmm9",
            "vpclmulqdq xmm12, xmm8, xmmword ptr [{cst} + 32], 0x00",
            "vpshufd xmm8, xmm8, 0x4e",
            "vpxor xmm8, xmm8, xmm12",
            // Rounds 10 … Nr − 1 (none for AES-128).
            "lea {i}, [{rk} + 160]",
            "2:",
            "cmp {i}, {last}",
            "je 3f",
            "vmovdqa xmm13, xmmword ptr [{i}]",
            "vaesenc xmm0, xmm0, xmm13",
            "vaesenc xmm1, xmm1, xmm13",
            "vaesenc xmm2, xmm2, xmm13",
            "vaesenc xmm3, xmm3, xmm13",
            "vaesenc xmm4, xmm4, xmm13",
            "vaesenc xmm5, xmm5, xmm13",
            "vaesenc xmm6, xmm6, xmm13",
            "vaesenc xmm7, xmm7, xmm13",
            "add {i}, 16",
            "jmp 2b",
            "3:",
            // Second reduction step, then the last round and the XOR into `dst`.
            "vpclmulqdq xmm12, xmm8, xmmword ptr [{cst} + 32], 0x00",
            "vpshufd xmm8, xmm8, 0x4e",
            "vpxor xmm8, xmm8, xmm12",
            "vpxor xmm14, xmm10, xmm8",
            "vmovdqa xmm13, xmmword ptr [{last}]",
            "vaesenclast xmm0, xmm0, xmm13",
            "vaesenclast xmm1, xmm1, xmm13",
            "vaesenclast xmm2, xmm2, xmm13",
            "vaesenclast xmm3, xmm3, xmm13",
            "vaesenclast xmm4, xmm4, xmm13",
            "vaesenclast xmm5, xmm5, xmm13",
            "vaesenclast xmm6, xmm6, xmm13",
            "vaesenclast xmm7, xmm7, xmm13",
            "vpxor xmm0, xmm0, xmmword ptr [{dst}]",
            "vmovdqu xmmword ptr [{dst}], xmm0",
            "vpxor xmm1, xmm1, xmmword ptr [{dst} + 16]",
            "vmovdqu xmmword ptr [{dst} + 16], xmm1",
            "vpxor xmm2, xmm2, xmmword ptr [{dst} + 32]",
            "vmovdqu xmmword ptr [{dst} + 32], xmm2",
            "vpxor xmm3, xmm3, xmmword ptr [{dst} + 48]",
            "vmovdqu xmmword ptr [{dst} + 48], xmm3",
            "vpxor xmm4, xmm4, xmmword ptr [{dst} + 64]",
            "vmovdqu xmmword ptr [{dst} + 64], xmm4",
            "vpxor xmm5, xmm5, xmmword ptr [{dst} + 80]",
            "vmovdqu xmmword ptr [{dst} + 80], xmm5",
            "vpxor xmm6, xmm6, xmmword ptr [{dst} + 96]",
            "vmovdqu xmmword ptr [{dst} + 96], xmm6",
            "vpxor xmm7, xmm7, xmmword ptr [{dst} + 112]",
            "vmovdqu xmmword ptr [{dst} + 112], xmm7",
            rk = in(reg) $rk.as_ptr(),
            last = in(reg) $rk.as_ptr().add($nr),
            i = out(reg) _,
            h = in(reg) $p.h.as_ptr(),
            k = in(reg) $p.k.as_ptr(),
            src = in(reg) $src,
            dst = in(reg) $dst,
            cst = in(reg) &raw const CONSTS,
            inout("xmm15") *$c,
            inout("xmm14") *$acc,
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm12") _, out("xmm13") _,
            options(nostack),
        );
    };
}

/// Eight counter blocks from the byte-reversed counter `*c` (which advances) through all
/// rounds and XOR-ed into the 128 bytes at `dst`, while the eight blocks at `src` are
/// multiplied by H⁸…H¹ between the rounds and `*acc` joins as `acc · H⁸`, reduced into the
/// new `*acc` over the last rounds. One `asm!` block, so the schedule is the one written:
/// eight `vaesenc` per round, one block's three `vpclmulqdq` after each of rounds 1–8, the
/// accumulator and the first reduction step after round 9, the second before the last round.
///
/// # Safety
///
/// AES-NI, PCLMULQDQ and AVX must be available; `src` must be readable and `dst` readable
/// and writable for 128 bytes (they may be the same: `src` is read before `dst` is written).
#[inline]
unsafe fn batch(
    rk: &[__m128i; 15],
    nr: usize,
    c: &mut __m128i,
    acc: &mut __m128i,
    p: &Powers,
    src: *const u8,
    dst: *mut u8,
) {
    // SAFETY: the caller guarantees the CPU features and the 128 bytes at `src` and `dst`;
    // the round keys (`rk[..=nr]`, `nr ≤ 14`), the powers and the constants are in bounds.
    // Which counter code runs depends only on the counter, which is public.
    unsafe {
        if (_mm_cvtsi128_si32(*c) & 0xff) <= 0xf8 {
            stitched!(counters_added, rk, nr, c, acc, p, src, dst);
        } else {
            stitched!(counters_shuffled, rk, nr, c, acc, p, src, dst);
        }
    }
}

/// Eight counter blocks through all rounds, XOR-ed into `out`, hashing nothing (the first
/// batches of an encryption, before there is ciphertext to hash).
#[target_feature(enable = "aes,sse2,ssse3")]
#[inline]
fn plain_batch(rk: &[__m128i; 15], nr: usize, c: &mut __m128i, out: &mut [u8; 16 * LANES]) {
    let bswap = x86_aesni::bswap_mask();
    let one = _mm_set_epi32(0, 0, 0, 1);
    let mut x = [_mm_setzero_si128(); LANES];
    for b in &mut x {
        *b = _mm_shuffle_epi8(*c, bswap);
        *c = _mm_add_epi32(*c, one);
    }
    x86_aesni::rounds::<true>(rk, nr, &mut x, LANES);
    let (blocks, _) = out.as_chunks_mut::<16>();
    for (block, k) in blocks.iter_mut().zip(&x) {
        store(block, _mm_xor_si128(load(block), *k));
    }
}

/// Blocks waiting to be hashed, loaded and byte-reversed, so that a short message's AAD,
/// tail and length block share reductions. At most 2 · 8 + 1 wait at once: a partial batch of
/// AAD (flushed before any whole batch of the message), the message's tail, the length block.
struct Pending {
    x: [__m128i; 2 * LANES + 1],
    n: usize,
}

impl Pending {
    /// Queues the zero-padded blocks of `data`.
    #[target_feature(enable = "sse2,ssse3")]
    #[inline]
    fn push(&mut self, data: &[u8]) {
        let bswap = x86_aesni::bswap_mask();
        let (blocks, rest) = data.as_chunks::<16>();
        for block in blocks {
            self.x[self.n] = _mm_shuffle_epi8(load(block), bswap);
            self.n += 1;
        }
        if !rest.is_empty() {
            let mut last = [0u8; 16];
            last[..rest.len()].copy_from_slice(rest);
            self.x[self.n] = _mm_shuffle_epi8(load(&last), bswap);
            self.n += 1;
            last.zeroize();
        }
    }

    /// Hashes everything queued into `acc`.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    fn flush(&mut self, acc: __m128i, p: &Powers) -> __m128i {
        let mut acc = acc;
        for group in self.x[..self.n].chunks(LANES) {
            acc = x86_pclmul::absorb_loaded(acc, group, p);
        }
        self.n = 0;
        acc
    }
}

#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,avx")]
fn crypt_stitched<const ENCRYPT: bool>(
    key: &HwKey,
    hkey: &x86_pclmul::Key,
    j0: &[u8; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let rk = load_keys(&key.enc);
    let nr = key.rounds;
    let p = hkey;
    let bswap = x86_aesni::bswap_mask();
    let one = _mm_set_epi32(0, 0, 0, 1);
    let j0 = load(j0);
    let mut c = _mm_add_epi32(_mm_shuffle_epi8(j0, bswap), one);
    let mut acc = _mm_setzero_si128();

    // The AAD's whole batches now; its last partial batch waits in `pending`, to be hashed
    // with the tail and the length block unless full batches of data come first.
    let mut pending = Pending { x: [_mm_setzero_si128(); 2 * LANES + 1], n: 0 };
    let whole = aad.len() / (16 * LANES) * (16 * LANES);
    for group in aad[..whole].as_chunks::<16>().0.chunks_exact(LANES) {
        acc = x86_pclmul::absorb(acc, group, p);
    }
    pending.push(&aad[whole..]);

    let (batches, rest) = buf.as_chunks_mut::<{ 16 * LANES }>();
    if !batches.is_empty() {
        acc = pending.flush(acc, p);
    }
    if ENCRYPT {
        // Batch i hashes the ciphertext of batch i − 1, which is stored by the time batch i
        // starts; only the first batch's rounds and the last batch's hashing run alone.
        for i in 0..batches.len() {
            let (done, todo) = batches.split_at_mut(i);
            match done.len().checked_sub(1) {
                // SAFETY: the features are this function's; `done[j]` and `todo[0]` are
                // 128-byte batches of `buf`.
                Some(j) => unsafe {
                    batch(&rk, nr, &mut c, &mut acc, p, done[j].as_ptr(), todo[0].as_mut_ptr());
                },
                None => plain_batch(&rk, nr, &mut c, &mut todo[0]),
            }
        }
        for last in &batches[batches.len().saturating_sub(1)..] {
            acc = x86_pclmul::absorb(acc, last.as_chunks::<16>().0, p);
        }
    } else {
        for b in batches.iter_mut() {
            let b = b.as_mut_ptr();
            // SAFETY: the features are this function's; `b` is a 128-byte batch of `buf`,
            // hashed before it is decrypted in place.
            unsafe { batch(&rk, nr, &mut c, &mut acc, p, b, b) };
        }
    }

    // The tail (up to 127 bytes) and E(J₀) in one pass of the rounds.
    if !ENCRYPT {
        pending.push(rest);
    }
    let blocks = rest.len().div_ceil(16);
    let mut x = [_mm_setzero_si128(); LANES];
    for b in &mut x[..blocks] {
        *b = _mm_shuffle_epi8(c, bswap);
        c = _mm_add_epi32(c, one);
    }
    let mask = if blocks < LANES {
        x[blocks] = j0;
        x86_aesni::rounds::<true>(&rk, nr, &mut x, blocks + 1);
        x[blocks]
    } else {
        x86_aesni::rounds::<true>(&rk, nr, &mut x, blocks);
        let mut m = [_mm_setzero_si128(); LANES];
        m[0] = j0;
        x86_aesni::rounds::<true>(&rk, nr, &mut m, 1);
        m[0]
    };
    let (full, partial) = rest.as_chunks_mut::<16>();
    for (block, ks) in full.iter_mut().zip(&x) {
        store(block, _mm_xor_si128(load(block), *ks));
    }
    if !partial.is_empty() {
        let mut last = [0u8; 16];
        last[..partial.len()].copy_from_slice(partial);
        let v = _mm_xor_si128(load(&last), x[full.len()]);
        store(&mut last, v);
        partial.copy_from_slice(&last[..partial.len()]);
        last.zeroize();
    }
    if ENCRYPT {
        pending.push(rest);
    }

    let mut lengths = [0u8; 16];
    lengths[..8].copy_from_slice(&(8 * aad.len() as u64).to_be_bytes());
    lengths[8..].copy_from_slice(&(8 * buf.len() as u64).to_be_bytes());
    pending.push(&lengths);
    acc = pending.flush(acc, p);

    let mut tag = [0u8; 16];
    store(&mut tag, _mm_xor_si128(_mm_shuffle_epi8(acc, bswap), mask));
    tag
}
