//! AES-GCM with AES-NI and PCLMULQDQ stitched into one loop (the "function stitching" of
//! Gopal et al. for OpenSSL 1.0.2): each iteration runs the AES rounds of eight counter
//! blocks and, between them, the GHASH multiplications of eight ciphertext blocks, so the two
//! instruction streams — `aesenc` on one port, `pclmulqdq` and shuffles on another — overlap
//! instead of running one after the other.
//!
//! Encryption hashes the ciphertext of the previous iteration while encrypting the next
//! eight blocks (a lag of two iterations measured slower on 1350-byte records: one more batch
//! runs unstitched at each end); decryption hashes the eight blocks it is decrypting. With
//! `asm`, the iteration is one kernel in VEX (AVX) encoding
//! (`core_asm::x86_64::aead::gcm::stitched_batch`): written as intrinsics, the compiler groups
//! all `aesenc` of a batch together, which fills the scheduler with work for one port and
//! serialises the two streams again. Without `asm` the iteration hashes, then encrypts.
//!
//! The whole message is handled here — AAD, batches, the tail, the length block and the tag
//! mask E(J₀), which rides along as one more lane of the tail's AES — so a short record costs
//! one pass over the round keys and as few GHASH reductions as possible.

use crate::aes::HwKey;
use crate::aes::x86_aesni::{self, load, load_keys, store};
use crate::ghash::x86_pclmul::{self, Powers};
use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_set_epi32, _mm_setzero_si128, _mm_shuffle_epi8, _mm_xor_si128,
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
    // SSSE3, everything the batch's kernel and the intrinsics around it use.
    unsafe { crypt_stitched::<ENCRYPT>(key, hkey, j0, aad, buf) }
}

/// Eight counter blocks from the byte-reversed counter `*c` (which advances) through all
/// rounds and XOR-ed into the 128 bytes at `dst`, while the eight blocks at `src` are
/// multiplied by H⁸…H¹ and `*acc` joins as `acc · H⁸`: with `asm`, one stitched block of
/// assembly (`core_asm::x86_64::aead::gcm::stitched_batch`, whose schedule interleaves the
/// two streams); without, its Rust twin hashes `src` and then runs [`plain_batch`].
///
/// # Safety
///
/// AES-NI, PCLMULQDQ, SSSE3 and AVX must be available; `src` must be readable and `dst`
/// readable and writable for 128 bytes (they may be the same).
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
    #[cfg(feature = "asm")]
    // SAFETY: the caller guarantees the CPU features and the 128 bytes at `src` and `dst`;
    // `nr` is a key's round count, at most 14.
    unsafe {
        core_asm::x86_64::aead::gcm::stitched_batch(rk, nr, c, acc, &p.h, &p.k, src, dst);
    }
    #[cfg(not(feature = "asm"))]
    // SAFETY: the caller guarantees the CPU features (the target features of `absorb` and
    // `plain_batch`) and the 128 bytes at `src` and `dst`; the shared borrow of `src` ends
    // before `dst` is borrowed mutably, so they may be the same bytes.
    unsafe {
        *acc = x86_pclmul::absorb(*acc, &*src.cast::<[[u8; 16]; LANES]>(), p);
        plain_batch(rk, nr, c, &mut *dst.cast::<[u8; 16 * LANES]>());
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

#[cfg(all(test, feature = "asm"))]
mod tests {
    use super::*;

    /// The stitched kernel against its Rust twin (hash, then [`plain_batch`]): every key
    /// size, both counter forms (a low byte that carries within the batch and one that does
    /// not), hashing other blocks and the blocks being overwritten.
    #[test]
    fn stitched_batch_matches_rust_twin() {
        let (Some(_), Some(_), Some(_)) = (Aes::get(), ClMul::get(), Avx::get()) else {
            std::println!("x86_aesni_pclmul: AES-NI/PCLMULQDQ/AVX not available on this CPU");
            return;
        };
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut bytes = || -> [u8; 16] { core::array::from_fn(|i| (next() >> i) as u8) };
        let h: [[u8; 16]; LANES] = core::array::from_fn(|_| bytes());
        let k = h.map(|h| {
            let mut k = [0; 16];
            for i in 0..8 {
                k[i] = h[i] ^ h[i + 8];
            }
            k
        });
        let p = Powers { h, k };
        let rk_bytes: [[u8; 16]; 15] = core::array::from_fn(|_| bytes());
        let rk = load_keys(&rk_bytes);
        // One batch by the kernel or by the twin; returns the counter, the accumulator and
        // the buffer written (`dst`, or `src` when in place).
        let run = |twin: bool,
                   nr: usize,
                   c: __m128i,
                   acc: __m128i,
                   src: [u8; 128],
                   dst: [u8; 128],
                   in_place: bool| {
            let (mut c, mut acc, mut s, mut d) = (c, acc, src, dst);
            let dp = if in_place { s.as_mut_ptr() } else { d.as_mut_ptr() };
            // SAFETY: the features were detected above; both buffers are 128 bytes, and the
            // twin's shared borrow of `s` ends before `dp` is borrowed mutably.
            unsafe {
                if twin {
                    acc = x86_pclmul::absorb(acc, &*s.as_ptr().cast::<[[u8; 16]; LANES]>(), &p);
                    plain_batch(&rk, nr, &mut c, &mut *dp.cast::<[u8; 128]>());
                } else {
                    batch(&rk, nr, &mut c, &mut acc, &p, s.as_ptr(), dp);
                }
            }
            let (mut cb, mut ab) = ([0; 16], [0; 16]);
            store(&mut cb, c);
            store(&mut ab, acc);
            (cb, ab, if in_place { s } else { d })
        };
        for nr in [10, 12, 14] {
            for low in [0u8, 0x42, 0xf8, 0xf9, 0xff] {
                for in_place in [false, true] {
                    let src: [u8; 128] = core::array::from_fn(|i| bytes()[i % 16] ^ 0x5a);
                    let dst: [u8; 128] = core::array::from_fn(|i| bytes()[i % 16]);
                    // The counter (byte-reversed, as the loop keeps it) with the low byte given.
                    let mut cb = bytes();
                    cb[0] = low;
                    let c = load(&cb);
                    let acc = load(&bytes());
                    assert_eq!(
                        run(false, nr, c, acc, src, dst, in_place),
                        run(true, nr, c, acc, src, dst, in_place),
                        "nr {nr}, low byte {low:#x}, in place {in_place}"
                    );
                }
            }
        }
    }
}
