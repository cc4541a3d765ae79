//! AES-GCM with VAES and VPCLMULQDQ on 512-bit registers, stitched: each iteration runs the
//! AES rounds of 32 counter blocks (eight ZMM registers of four) and, between those rounds,
//! the GHASH multiplications (Karatsuba, three per register) of 32 ciphertext blocks by
//! H³²…H¹ (precomputed when the key is built), summed unreduced across blocks and lanes and
//! reduced once per 32 blocks; a 16-block iteration takes a remaining 256 bytes. Measured on
//! Zen 5: `vaesenc` (two per cycle, latency four) and `vpclmulqdq` (one per two cycles) issue
//! on different ports, so the two streams overlap — if eight AES registers are in flight
//! (with four, the rounds are a latency chain at half rate) and if the program order mixes
//! them: the compiler put all the rounds first and the loop ran at the sum of the two
//! streams' times, not the larger, so an empty assembly fence after every second round makes
//! it emit two registers' GHASH steps there (after every round measured 2–5% slower).
//!
//! Where it stands (Zen 5, core cycles per 32 AES-128 blocks, best of 3000 16 KiB messages):
//! the loop runs in about 70; its bound is the 26 `vpclmulqdq` (24 Karatsuba products and two
//! reduction steps) at one per two cycles, 52, above the 80 `vaesenc` at two per cycle, 40 (a
//! throughput kernel of 80 `vaesenc` and 26 `vpclmulqdq` runs in 52; of every instruction in
//! the loop, independent of each other, in 59–61). `vpclmulqdq` shares no port with
//! `vaesenc`, shifts, `vpshufd`, `vpxord`, `vpternlogq` or `vpshufb`; `vpshufb` and
//! `vpternlogq` do slow `vaesenc`. Replacing the two reduction multiplies by XORs (as a probe)
//! or hashing register 0, the one that waits for the previous reduction, last left the loop
//! within a cycle of 70: no single unit's throughput holds it there.
//!
//! Hand scheduling did not close the gap (session 20; time-stamp ticks at 2.6 GHz, where
//! the 70 cycles above are about 48 ticks; best of 15 000 16 KiB messages, and the slope
//! from 16 to 32 KiB, alternated with this code in the same minutes on a loaded machine).
//! The whole loop as one `asm!` block (`core_asm`'s `wide_loop`, commit 8a26276, reverted:
//! AES-128/192/256, all GCM tests passing) ran no faster than this code in four
//! arrangements: GHASH spread one register per round 3–9, the reduction of iteration i over
//! rounds 1–2 of iteration i + 1, register 0 last, round keys broadcast from memory per round
//! (about 4% slower); the same with each product between `vaesenc` pairs (equal); round keys
//! 1–8 kept in registers and each GHASH input loaded two rounds ahead (16 KiB seal 47.9–52.0
//! ticks per 32 blocks against 46.3–50.4 here, slope 42–48 against 44–48: equal); the products
//! front-loaded into rounds 3–6 as the compiler does (equal for AES-128, about 5% slower for
//! AES-256). `speed --quick` rows agreed within their ±20–40% spread. Probes of the asm
//! loop (same minutes) show where the time goes: with the GHASH products taken out it runs
//! 27.6 ticks per 32 blocks, which is the 80 `vaesenc` at two per cycle if a tick is 1.45
//! cycles (the conversion used here); with the middle rounds taken out (GHASH, reduction,
//! loads and the last round left) it runs 38–43 ticks, 55–62 cycles, at or a little above
//! the 52 of its 26 `vpclmulqdq`; both together, 44–46 ticks, 64–67 cycles. Dropping the
//! inputs' eight `vpshufb` gained under a tick. So the loop is the GHASH stream plus about
//! 15%, not the sum of the two streams; program order no longer matters (out-of-order issue
//! finds the overlap), and getting below ~60 means taking cycles off the `vpclmulqdq` port
//! or making the GHASH stream alone reach its 52, not another order.
//!
//! On an Intel host with 512-bit ports 0 and 5 (session 23: KVM "Intel Xeon", AVX512-FP16
//! and AMX, so Sapphire Rapids or later; `bench/examples/gcm_ticks.rs`, best of 3000 16 KiB
//! messages, 1.61 cycles per tick from a 3-cycle `imul` chain) the picture differs:
//! `vaesenc zmm` issues once per cycle (port 0, latency 3), `vpclmulqdq` and `vpshufb zmm`
//! once per cycle (port 5), XORs on either; 8 `vaesenc zmm` with 8 `vpxord` or 2
//! `vpclmulqdq` take 8 cycles. The bound is then the loop's 512-bit uops over the two ports
//! (counted in the disassembly, AES-128: seal 194, 97 cycles; open 179, 89.5) or port 0's
//! `vaesenc` (AES-256: 112). The loop runs at seal 64.7 ticks per 32 blocks (104 cycles, 7%
//! over), open 68.5 (110, 23%),
//! AES-256 seal 78.3 and open 78.7 (126–127, 13% over). Session 20's asm loop (8a26276,
//! re-applied) ran seal 68.8, open 68.8–69.6, AES-256 seal 79.2 (same minutes: slower or
//! equal). Schoolbook products (`Sums::add`, four `vpclmulqdq` and no Karatsuba shuffles:
//! fewer uops on the two ports) ran seal 62.9, open 64.0, AES-256 seal 73.7 but open 80.0
//! (−3%, −6.5%, −6%, +2%); not taken, as on Zen 5 Karatsuba measured faster and choosing
//! per microarchitecture needs a detection this crate lacks. A fence after every round, or
//! register 0 hashed last, ran no faster. The lever here is fewer 512-bit uops (counter
//! whitening and increments, 16 a group; the Karatsuba shuffles, 8), not the order.
//!
//! Encryption hashes the previous iteration's ciphertext, still in registers; decryption
//! hashes the blocks it is decrypting. Everything shorter than 16 blocks — the AAD's last
//! blocks, the message's tail, the length block — goes through one short path with
//! byte-masked AVX-512 loads and stores (no copies to padded buffers) whose blocks share one
//! reduction: each run of blocks is multiplied by the powers that its place in the sequence
//! calls for. E(J₀), the tag mask, rides along with the tail's rounds in a 128-bit register,
//! so a 64-byte record is one pass over the round keys and one reduction.

use crate::aes::HwKey;
use crate::ghash::x86_vpclmul;
use core::arch::x86_64::{
    __m128i, __m512i, _MM_PERM_ENUM, _mm_aesenc_si128, _mm_aesenclast_si128, _mm_cvtsi128_si32,
    _mm_loadu_si128, _mm_set_epi64x, _mm_shuffle_epi8, _mm_storeu_si128, _mm_xor_si128,
    _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_xor_si256, _mm512_add_epi8,
    _mm512_add_epi32, _mm512_aesenc_epi128, _mm512_aesenclast_epi128, _mm512_broadcast_i32x4,
    _mm512_castsi512_si128, _mm512_castsi512_si256, _mm512_clmulepi64_epi128,
    _mm512_extracti64x4_epi64, _mm512_loadu_si512, _mm512_mask_storeu_epi8,
    _mm512_maskz_loadu_epi8, _mm512_maskz_loadu_epi64, _mm512_maskz_mov_epi8, _mm512_set_epi32,
    _mm512_set1_epi64, _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_shuffle_epi32,
    _mm512_storeu_si512, _mm512_ternarylogic_epi64, _mm512_xor_si512, _mm512_zextsi128_si512,
};
use core_cpu::Vaes512;

/// Blocks per short group: four registers of four.
const GROUP: usize = 16;
/// Bytes per short group.
const GROUP_BYTES: usize = 16 * GROUP;
/// Blocks per main-loop iteration: eight registers of four.
const WIDE: usize = 32;
/// Bytes per main-loop iteration.
const WIDE_BYTES: usize = 16 * WIDE;

/// The key powers as the wide GHASH lays them out: `h[b]` is H^(32 − b).
type Table = [[u8; 16]; WIDE];

/// Encrypts (or decrypts) `buf` in CTR mode from `j0 + 1` and returns the tag over `aad` and
/// the ciphertext.
pub(super) fn crypt<const ENCRYPT: bool>(
    token: Vaes512,
    key: &HwKey,
    hkey: &x86_vpclmul::Key,
    j0: &[u8; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let _ = token;
    let h = hkey.powers32();
    // SAFETY: the `Vaes512` token proves VAES, VPCLMULQDQ, AES-NI, PCLMULQDQ and AVX-512
    // F/BW/VL/DQ with AVX2, everything the functions below are compiled for.
    unsafe {
        match key.rounds {
            10 => run::<ENCRYPT, 10>(&key.enc, h, j0, aad, buf),
            12 => run::<ENCRYPT, 12>(&key.enc, h, j0, aad, buf),
            _ => run::<ENCRYPT, 14>(&key.enc, h, j0, aad, buf),
        }
    }
}

/// Byte reversal of each 128-bit lane.
#[target_feature(enable = "avx512f,avx512bw,sse2")]
#[inline]
fn bswap() -> __m512i {
    _mm512_broadcast_i32x4(_mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f))
}

/// The byte mask for `n` ≥ 0 bytes of a 64-byte register (all of it from 64 on).
#[inline(always)]
fn byte_mask(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

#[inline(always)]
fn load1(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: `bytes` is 16 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// The first `n.min(64)` bytes at `p`, zero above.
///
/// # Safety
///
/// `p` must be readable for `n.min(64)` bytes; AVX-512 BW must be available.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn load_part(p: *const u8, n: usize) -> __m512i {
    // SAFETY: the caller guarantees the bytes the mask selects; masked-off bytes are not
    // accessed (and cannot fault).
    unsafe { _mm512_maskz_loadu_epi8(byte_mask(n), p.cast()) }
}

/// Stores the first `n.min(64)` bytes of `x` at `p`.
///
/// # Safety
///
/// `p` must be writable for `n.min(64)` bytes; AVX-512 BW must be available.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn store_part(p: *mut u8, n: usize, x: __m512i) {
    // SAFETY: as for `load_part`.
    unsafe { _mm512_mask_storeu_epi8(p.cast(), byte_mask(n), x) }
}

/// `a ^ b ^ c` in one instruction.
#[target_feature(enable = "avx512f")]
#[inline]
fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<0x96>(a, b, c)
}

/// The XOR of a register's four 128-bit lanes.
#[target_feature(enable = "avx512f,avx2")]
#[inline]
fn fold(x: __m512i) -> __m128i {
    let y = _mm256_xor_si256(_mm512_castsi512_si256(x), _mm512_extracti64x4_epi64::<1>(x));
    _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256::<1>(y))
}

/// Unreduced products, lane by lane: `lo`, `mid` (both cross terms) and `hi` 128-bit words.
#[derive(Clone, Copy)]
struct Sums {
    lo: __m512i,
    mid: __m512i,
    hi: __m512i,
}

impl Sums {
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn new() -> Self {
        Self { lo: _mm512_setzero_si512(), mid: _mm512_setzero_si512(), hi: _mm512_setzero_si512() }
    }

    /// Adds the lane-wise products `x · h` (schoolbook: four multiplies, no shuffles).
    #[target_feature(enable = "avx512f,vpclmulqdq")]
    #[inline]
    fn add(&mut self, x: __m512i, h: __m512i) {
        self.lo = _mm512_xor_si512(self.lo, _mm512_clmulepi64_epi128::<0x00>(x, h));
        self.hi = _mm512_xor_si512(self.hi, _mm512_clmulepi64_epi128::<0x11>(x, h));
        self.mid = xor3(
            self.mid,
            _mm512_clmulepi64_epi128::<0x01>(x, h),
            _mm512_clmulepi64_epi128::<0x10>(x, h),
        );
    }

    /// Adds the lane-wise products `x · h`, Karatsuba: the middle word of each product is
    /// one multiply of the halves' sums, `(x₀+x₁)(h₀+h₁)`, less `lo` and `hi` (taken off in
    /// [`Sums::finish`]); three multiplies rather than four. On Zen 5 VPCLMULQDQ issues once
    /// per two cycles at any width, so fewer multiplies measured faster.
    #[target_feature(enable = "avx512f,vpclmulqdq")]
    #[inline]
    fn karatsuba(&mut self, x: __m512i, h: __m512i) {
        let k =
            |v: __m512i| _mm512_xor_si512(v, _mm512_shuffle_epi32::<{ 0x4e as _MM_PERM_ENUM }>(v));
        self.lo = _mm512_xor_si512(self.lo, _mm512_clmulepi64_epi128::<0x00>(x, h));
        self.hi = _mm512_xor_si512(self.hi, _mm512_clmulepi64_epi128::<0x11>(x, h));
        self.mid = _mm512_xor_si512(self.mid, _mm512_clmulepi64_epi128::<0x00>(k(x), k(h)));
    }

    /// The sums after [`Sums::karatsuba`]: `lo` and `hi` taken off the middle words.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn finish(mut self) -> Self {
        self.mid = xor3(self.mid, self.lo, self.hi);
        self
    }

    /// The sum over all lanes, reduced: the two Montgomery steps of
    /// [`x86_pclmul::reduce`](crate::ghash::x86_pclmul::reduce) on every lane, with the middle words folded in along the way
    /// rather than first (the low word's step lands on the middle, the middle's on the high),
    /// then the four lanes added.
    #[target_feature(enable = "avx512f,avx512bw,avx2,vpclmulqdq")]
    #[inline]
    fn reduce(self) -> __m128i {
        let q = _mm512_set1_epi64(0xC200_0000_0000_0000_u64.cast_signed());
        let t = _mm512_clmulepi64_epi128::<0x00>(self.lo, q);
        let mid = xor3(self.mid, _mm512_shuffle_epi32::<{ 0x4e as _MM_PERM_ENUM }>(self.lo), t);
        let t = _mm512_clmulepi64_epi128::<0x00>(mid, q);
        fold(xor3(self.hi, _mm512_shuffle_epi32::<{ 0x4e as _MM_PERM_ENUM }>(mid), t))
    }
}

/// The eight registers of powers for a wide group: H³²…H¹ (the last four: H¹⁶…H¹).
#[target_feature(enable = "avx512f")]
#[inline]
fn group_powers(h: &Table) -> [__m512i; 8] {
    let mut p = [_mm512_setzero_si512(); 8];
    for (j, r) in p.iter_mut().enumerate() {
        // SAFETY: blocks 4j…4j+3 of the 32-block table are 64 readable bytes.
        *r = unsafe { _mm512_loadu_si512(h[4 * j..].as_ptr().cast()) };
    }
    p
}

/// Register `j` of the powers for `n` blocks starting at table entry `first`: entries
/// `first + 4j …`, zero past the `n`th.
#[target_feature(enable = "avx512f")]
#[inline]
fn powers_at(h: &Table, first: usize, n: usize, j: usize) -> __m512i {
    let lanes = (n - 4 * j).min(4);
    let mask = ((1u32 << (2 * lanes)) - 1) as u8;
    let p = h.as_ptr().cast::<u8>().wrapping_add(16 * (first + 4 * j));
    // SAFETY: `first + n ≤ 32`, so the lanes the mask selects are table entries; the others
    // are not accessed.
    unsafe { _mm512_maskz_loadu_epi64(mask, p.cast()) }
}

/// A run of `n` blocks in registers (byte-reversed, zero past the `n`th) that sits at
/// places `first…first + n` of a sequence ending at table entry 31.
struct Run<'a> {
    x: &'a [__m512i],
    n: usize,
}

/// `(acc + s₀)·Hᵀ + s₁·Hᵀ⁻¹ + … + s_{T−1}·H` over the blocks of `runs`, `T` ≤ 32 in all,
/// with one reduction.
#[target_feature(enable = "avx512f,avx512bw,avx2,vpclmulqdq,pclmulqdq,sse2")]
#[inline]
fn hash_runs(acc: __m128i, h: &Table, runs: &[Run<'_>]) -> __m128i {
    let total: usize = runs.iter().map(|r| r.n).sum();
    let mut first = WIDE - total;
    let mut s = Sums::new();
    let mut carry = _mm512_zextsi128_si512(acc);
    for run in runs {
        for j in 0..run.n.div_ceil(4) {
            let mut x = run.x[j];
            if j == 0 {
                x = _mm512_xor_si512(x, carry);
                carry = _mm512_setzero_si512();
            }
            s.add(x, powers_at(h, first, run.n, j));
        }
        first += run.n;
    }
    if total == 0 { acc } else { s.reduce() }
}

/// Hashes the blocks of `runs` into `acc`, as few reductions as the 32-block table allows:
/// consecutive runs share one while they fit in 32 blocks. Each run has at most 32 blocks.
#[target_feature(enable = "avx512f,avx512bw,avx2,vpclmulqdq,pclmulqdq,sse2")]
#[inline]
fn hash_seq(mut acc: __m128i, h: &Table, runs: &[Run<'_>]) -> __m128i {
    let mut start = 0;
    let mut total = 0;
    for (i, run) in runs.iter().enumerate() {
        if total + run.n > WIDE {
            acc = hash_runs(acc, h, &runs[start..i]);
            start = i;
            total = 0;
        }
        total += run.n;
    }
    hash_runs(acc, h, &runs[start..])
}

/// Up to `4N` blocks of `data` (zero-padded), byte-reversed, in `N` registers.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn load_blocks<const N: usize>(data: &[u8]) -> [__m512i; N] {
    let swap = bswap();
    let mut x = [_mm512_setzero_si512(); N];
    for (j, r) in x.iter_mut().enumerate().take(data.len().div_ceil(64)) {
        // SAFETY: `64j < data.len()`, and at most the `data.len() − 64j` bytes left are read.
        *r = _mm512_shuffle_epi8(
            unsafe { load_part(data.as_ptr().add(64 * j), data.len() - 64 * j) },
            swap,
        );
    }
    x
}

/// `N` registers of counter blocks from the byte-reversed counters `*ctr` (four lanes,
/// consecutive), which advance by `4N`, whitened with round key 0.
///
/// When the low byte of the first counter is at most 256 − 4N, no block carries out of it:
/// one shuffle, then byte additions to the big-endian blocks (the shuffle-free counters of
/// OpenSSL's AES-GCM code). Which way runs depends only on the counter, which is public.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn counters<const N: usize>(ctr: &mut __m512i, rk0: __m512i) -> [__m512i; N] {
    let swap = bswap();
    let mut x = [_mm512_setzero_si512(); N];
    let low = _mm_cvtsi128_si32(_mm512_castsi512_si128(*ctr)).cast_unsigned() & 0xff;
    if low as usize <= 256 - 4 * N {
        let be = _mm512_shuffle_epi8(*ctr, swap);
        for (j, r) in x.iter_mut().enumerate() {
            let step = (4 * j as u32).cast_signed() << 24;
            let inc = _mm512_set_epi32(step, 0, 0, 0, step, 0, 0, 0, step, 0, 0, 0, step, 0, 0, 0);
            *r = _mm512_xor_si512(_mm512_add_epi8(be, inc), rk0);
        }
        let n = (4 * N as u32).cast_signed();
        *ctr = _mm512_add_epi32(
            *ctr,
            _mm512_set_epi32(0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n),
        );
    } else {
        let four = _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4);
        for r in &mut x {
            *r = _mm512_xor_si512(_mm512_shuffle_epi8(*ctr, swap), rk0);
            *ctr = _mm512_add_epi32(*ctr, four);
        }
    }
    x
}

/// One middle round on each register.
#[target_feature(enable = "avx512f,vaes")]
#[inline]
fn round<const N: usize>(x: &mut [__m512i; N], k: __m512i) {
    for r in x {
        *r = _mm512_aesenc_epi128(*r, k);
    }
}

/// The last round on each register.
#[target_feature(enable = "avx512f,vaes")]
#[inline]
fn last<const N: usize>(x: &mut [__m512i; N], k: __m512i) {
    for r in x {
        *r = _mm512_aesenclast_epi128(*r, k);
    }
}

/// `4A` counter blocks (`A` = 4 or 8 registers) through all rounds while, if `$hash`, the
/// registers `$hx` (byte-reversed, `$acc` added to the first) are multiplied by the last of
/// the powers `$hp` (H³²…H¹) and reduced into `$acc`; the key stream is XOR-ed with the
/// `64A` bytes at `$p` in place, and the result is the macro's value.
///
/// Eight registers of counter blocks keep both VAES units of Zen 5 busy (latency four, two
/// per cycle); with four, the rounds are a chain that half fills them. A macro rather than a
/// function, as LLVM left the function out of line (arrays through memory) and
/// `#[inline(always)]` cannot go with `#[target_feature]`; expanded only in [`bulk`], which
/// has the features, and only where `$p` is readable and writable for `64A` bytes.
macro_rules! group {
    ($nr:expr, $a:literal, $rk:expr, $ctr:expr, $acc:expr, $hash:expr, $hx:expr, $hp:expr, $p:expr) => {{
        let rk: &[__m512i; 15] = $rk;
        let p: *mut u8 = $p;
        let mut x = counters::<$a>($ctr, rk[0]);
        if $hash {
            let mut hx = *$hx;
            let n = hx.len();
            let hp = &$hp[8 - n..];
            hx[0] = _mm512_xor_si512(hx[0], _mm512_zextsi128_si512($acc));
            let mut s = Sums::new();
            // Round r, then GHASH step r: register r − 1's products, or the reduction after
            // the last; a fence after every second; written out (a loop over r stayed a loop).
            macro_rules! step {
                ($r:literal) => {
                    round(&mut x, rk[$r]);
                    if let (Some(&xr), Some(&hr)) = (hx.get($r - 1), hp.get($r - 1)) {
                        s.karatsuba(xr, hr);
                    } else if $r == n + 1 {
                        $acc = s.finish().reduce();
                    }
                    if $r % 2 == 0 {
                        let mut next = hx.get($r).copied().unwrap_or(_mm512_setzero_si512());
                        fence(&mut x, &mut s, &mut next);
                        if let Some(r) = hx.get_mut($r) {
                            *r = next;
                        }
                    }
                };
            }
            step!(1);
            step!(2);
            step!(3);
            step!(4);
            step!(5);
            step!(6);
            step!(7);
            step!(8);
            step!(9);
            if $nr > 10 {
                step!(10);
                step!(11);
            }
            if $nr > 12 {
                step!(12);
                step!(13);
            }
        } else {
            for k in &rk[1..$nr] {
                round(&mut x, *k);
            }
        }
        last(&mut x, rk[$nr]);
        let mut out = [_mm512_setzero_si512(); $a];
        for (j, (o, k)) in out.iter_mut().zip(&x).enumerate() {
            // SAFETY: the expansion site guarantees 64A bytes at `p`.
            unsafe {
                *o = _mm512_xor_si512(_mm512_loadu_si512(p.add(64 * j).cast()), *k);
                _mm512_storeu_si512(p.add(64 * j).cast(), *o);
            }
        }
        out
    }};
}

/// Nothing, as far as the CPU is concerned; to the compiler, with `asm`, a point that the AES
/// state, the GHASH sums and the next GHASH input all pass through
/// (`core_asm::x86_64::aead::gcm::fence_zmm`), so that it emits the GHASH steps between the
/// rounds' `vaesenc`s rather than all of them in one run (which measured slower: the
/// multiplies then wait behind a long queue of rounds). Without `asm`, nothing at all.
#[target_feature(enable = "avx512f")]
#[inline]
fn fence<const A: usize>(x: &mut [__m512i; A], s: &mut Sums, next: &mut __m512i) {
    #[cfg(feature = "asm")]
    core_asm::x86_64::aead::gcm::fence_zmm(x, [&mut s.lo, &mut s.mid, &mut s.hi, next]);
    #[cfg(not(feature = "asm"))]
    let _ = (x, s, next);
}

/// `A` registers of blocks at `q`, byte-reversed.
///
/// # Safety
///
/// AVX-512 BW must be available; `q` readable for `64A` bytes.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn load_swapped<const A: usize>(q: *const u8) -> [__m512i; A] {
    let swap = bswap();
    let mut hx = [_mm512_setzero_si512(); A];
    for (j, r) in hx.iter_mut().enumerate() {
        // SAFETY: the caller guarantees the 64 bytes of register j.
        *r = _mm512_shuffle_epi8(unsafe { _mm512_loadu_si512(q.add(64 * j).cast()) }, swap);
    }
    hx
}

/// The `NR + 1` round keys, each in all four lanes (zero above).
#[target_feature(enable = "avx512f")]
#[inline]
fn broadcast_keys<const NR: usize>(keys: &[[u8; 16]; 15]) -> [__m512i; 15] {
    let mut rk = [_mm512_setzero_si512(); 15];
    for (r, k) in rk.iter_mut().zip(keys).take(NR + 1) {
        *r = _mm512_broadcast_i32x4(load1(k));
    }
    rk
}

/// The whole message for `NR` rounds.
///
/// # Safety
///
/// The features below must be available.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmulqdq,sse2,ssse3"
)]
unsafe fn run<const ENCRYPT: bool, const NR: usize>(
    keys: &[[u8; 16]; 15],
    h: &Table,
    j0: &[u8; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let swap = bswap();
    let j0 = load1(j0);
    let mut ctr = _mm512_add_epi32(
        _mm512_shuffle_epi8(_mm512_broadcast_i32x4(j0), swap),
        _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1),
    );
    let mut acc = _mm_xor_si128(j0, j0);

    // The AAD's whole groups; its last blocks wait to share a reduction with the tail.
    let (aad_groups, aad_rest) = aad.split_at(aad.len() / GROUP_BYTES * GROUP_BYTES);
    for g in aad_groups.chunks_exact(GROUP_BYTES) {
        let x = load_blocks::<4>(g);
        acc = hash_runs(acc, h, &[Run { x: &x, n: GROUP }]);
    }
    let ax = load_blocks::<4>(aad_rest);
    let mut an = aad_rest.len().div_ceil(16);

    let len = buf.len();
    let wide = len / WIDE_BYTES;
    let short = len % WIDE_BYTES >= GROUP_BYTES;
    let done = WIDE_BYTES * wide + if short { GROUP_BYTES } else { 0 };
    let p = buf.as_mut_ptr();
    if done > 0 {
        acc = hash_runs(acc, h, &[Run { x: &ax, n: an }]);
        an = 0;
        // SAFETY: the groups are the first `done` bytes of `buf`; the features are ours.
        (acc, ctr) = unsafe { bulk::<ENCRYPT, NR>(keys, h, ctr, acc, p, wide, short) };
    }

    let tail = &mut buf[done..];
    let mut lengths = [0u8; 16];
    lengths[..8].copy_from_slice(&(8 * aad.len() as u64).to_be_bytes());
    lengths[8..].copy_from_slice(&(8 * len as u64).to_be_bytes());
    let lengths =
        _mm512_zextsi128_si512(_mm_shuffle_epi8(load1(&lengths), _mm512_castsi512_si128(swap)));
    let (acc, mask) = match tail.len().div_ceil(64) {
        0 => finish::<ENCRYPT, NR, 0>(keys, ctr, acc, j0, h, &ax, an, tail, lengths),
        1 => finish::<ENCRYPT, NR, 1>(keys, ctr, acc, j0, h, &ax, an, tail, lengths),
        2 => finish::<ENCRYPT, NR, 2>(keys, ctr, acc, j0, h, &ax, an, tail, lengths),
        3 => finish::<ENCRYPT, NR, 3>(keys, ctr, acc, j0, h, &ax, an, tail, lengths),
        _ => finish::<ENCRYPT, NR, 4>(keys, ctr, acc, j0, h, &ax, an, tail, lengths),
    };
    let mut tag = [0u8; 16];
    let t = _mm_xor_si128(_mm_shuffle_epi8(acc, _mm512_castsi512_si128(swap)), mask);
    // SAFETY: `tag` is 16 writable bytes and `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(tag.as_mut_ptr().cast(), t) };
    tag
}

/// The whole groups of a message: `wide` groups of 32 blocks from `p`, then one of 16 if
/// `short`; returns the hash and the next counters. Round keys and counters go in and out by
/// value: passed by reference, they were spilled to the stack on every call, which cost
/// 64-byte records about 5% (out of line, the function cost 1350-byte ones 10%).
///
/// # Safety
///
/// The features below must be available; `p` readable and writable for the groups' bytes.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmulqdq,sse2,ssse3"
)]
#[inline]
unsafe fn bulk<const ENCRYPT: bool, const NR: usize>(
    keys: &[[u8; 16]; 15],
    h: &Table,
    mut ctr: __m512i,
    mut acc: __m128i,
    p: *mut u8,
    wide: usize,
    short: bool,
) -> (__m128i, __m512i) {
    let ctr = &mut ctr;
    let swap = bswap();
    let rk = &broadcast_keys::<NR>(keys);
    let hp = group_powers(h);
    let sw = |o: __m512i| _mm512_shuffle_epi8(o, swap);
    if ENCRYPT {
        // Each group hashes the previous one's ciphertext (the first none); the last is
        // hashed after. Wide group i is bytes 512i… of `buf`, the short group the 256
        // after them.
        let mut prev = [_mm512_setzero_si512(); 8];
        for i in 0..wide {
            let r = p.wrapping_add(WIDE_BYTES * i);
            // Wide group i is in `buf`.
            let out = group!(NR, 8, rk, ctr, acc, i > 0, &prev, &hp, r);
            prev = out.map(sw);
        }
        if short {
            let r = p.wrapping_add(WIDE_BYTES * wide);
            let hash = wide > 0;
            // The short group is in `buf`.
            let out = group!(NR, 4, rk, ctr, acc, hash, &prev, &hp, r);
            acc = hash_runs(acc, h, &[Run { x: &out.map(sw), n: GROUP }]);
        } else {
            acc = hash_runs(acc, h, &[Run { x: &prev, n: WIDE }]);
        }
    } else {
        // Each group hashes the ciphertext it decrypts, read before it is overwritten.
        for i in 0..wide {
            let q = p.wrapping_add(WIDE_BYTES * i);
            // SAFETY: wide group i is bytes 512i… of `buf`.
            let hx = unsafe { load_swapped::<8>(q) };
            // Wide group i is in `buf`.
            group!(NR, 8, rk, ctr, acc, true, &hx, &hp, q);
        }
        if short {
            let q = p.wrapping_add(WIDE_BYTES * wide);
            // SAFETY: the short group is the 256 bytes after the wide ones.
            let hx = unsafe { load_swapped::<4>(q) };
            // The short group is in `buf`.
            group!(NR, 4, rk, ctr, acc, true, &hx, &hp, q);
        }
    }
    (acc, *ctr)
}

/// The tail of fewer than 256 bytes in `N` registers of counter blocks, with E(J₀) in a
/// 128-bit lane of its own through the same rounds; then the waiting AAD blocks, the tail's
/// ciphertext and the length block hashed with as few reductions as fit. Returns the hash
/// and E(J₀).
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmulqdq,sse2,ssse3"
)]
#[inline]
#[allow(clippy::too_many_arguments)]
fn finish<const ENCRYPT: bool, const NR: usize, const N: usize>(
    keys: &[[u8; 16]; 15],
    mut ctr: __m512i,
    acc: __m128i,
    j0: __m128i,
    h: &Table,
    ax: &[__m512i; 4],
    an: usize,
    tail: &mut [u8],
    lengths: __m512i,
) -> (__m128i, __m128i) {
    let swap = bswap();
    let rk = &broadcast_keys::<NR>(keys);
    let mut x = counters::<N>(&mut ctr, rk[0]);
    let mut m = _mm_xor_si128(j0, _mm512_castsi512_si128(rk[0]));
    for k in &rk[1..NR] {
        round(&mut x, *k);
        m = _mm_aesenc_si128(m, _mm512_castsi512_si128(*k));
    }
    last(&mut x, rk[NR]);
    m = _mm_aesenclast_si128(m, _mm512_castsi512_si128(rk[NR]));
    let len = tail.len();
    let p = tail.as_mut_ptr();
    let mut cx = [_mm512_setzero_si512(); 4];
    for (j, (c, k)) in cx.iter_mut().zip(&x).enumerate() {
        let n = len - 64 * j;
        // SAFETY: register j covers bytes 64j… of the tail, `N = ⌈len / 64⌉`, and at most
        // the `n` bytes left are read and written.
        unsafe {
            let q = p.add(64 * j);
            let input = load_part(q, n);
            let output = _mm512_xor_si512(input, *k);
            store_part(q, n, output);
            let ct = if ENCRYPT { _mm512_maskz_mov_epi8(byte_mask(n), output) } else { input };
            *c = _mm512_shuffle_epi8(ct, swap);
        }
    }
    let acc = hash_seq(
        acc,
        h,
        &[
            Run { x: ax, n: an },
            Run { x: &cx, n: len.div_ceil(16) },
            Run { x: core::slice::from_ref(&lengths), n: 1 },
        ],
    );
    (acc, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_masks() {
        assert_eq!(byte_mask(0), 0);
        assert_eq!(byte_mask(13), 0x1fff);
        assert_eq!(byte_mask(64), u64::MAX);
        assert_eq!(byte_mask(200), u64::MAX);
    }
}
