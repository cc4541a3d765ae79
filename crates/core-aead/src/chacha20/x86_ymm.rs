//! The YMM code paths that the AVX2 and AVX-512 ChaCha20 backends share, written once: the
//! loop that covers a message (or what the AVX-512 sixteen-block passes left of it) eight,
//! four or two blocks at a time, the eight-block pass in the word-per-register layout with
//! its 8×8 transpose, and the row-layout pass for the last few blocks. The backends differ
//! only in the quarter round (AVX2 rotates with byte shuffles and shift pairs, AVX-512VL with
//! `vprold`) and in how a block is written (AVX-512BW masks partial blocks), which each passes
//! to [`ymm_passes!`].

/// Generates `ymm_passes`, `eight_blocks` and `rows` in the invoking module, compiled with
/// `$feat`, using its `$quarter(&mut a, &mut b, &mut c, &mut d)` on YMM registers and its
/// `$write(sink, at, lo, hi)` to send a block's two halves where the sink wants them.
macro_rules! ymm_passes {
    (features: $feat:literal, quarter: $quarter:ident, write: $write:ident $(,)?) => {
        /// Covers what is left of `out`, from block `counter` on: eight blocks at a time while
        /// more than four are left, then four or two in the row layout.
        #[inline]
        #[target_feature(enable = $feat)]
        fn ymm_passes(state: &[u32; 16], mut counter: u32, out: &mut Sink<'_>) {
            while out.blocks_left() > 0 {
                let start = out.position();
                let emit = |sink: &mut Sink<'_>, block: usize, lo: __m256i, hi: __m256i| {
                    $write(sink, start + (64 * block).cast_signed(), lo, hi);
                };
                let width = match out.bytes_left() {
                    257.. => {
                        eight_pass(state, counter, out);
                        8
                    }
                    129.. => {
                        rows::<2>(state, counter, |b, lo, hi| emit(out, b, lo, hi));
                        4
                    }
                    _ => {
                        rows::<1>(state, counter, |b, lo, hi| emit(out, b, lo, hi));
                        2
                    }
                };
                out.advance(width);
                counter = counter.wrapping_add(width as u32);
            }
        }

        /// One [`eight_blocks`] pass from block `counter` to `out`'s next eight blocks. Kept out
        /// of line: inlined, its set-up (sixteen broadcast state words, spilled) is hoisted to
        /// the top of [`ymm_passes`], where a short message would pay for it.
        #[inline(never)]
        #[target_feature(enable = $feat)]
        fn eight_pass(state: &[u32; 16], counter: u32, out: &mut Sink<'_>) {
            let start = out.position();
            eight_blocks(state, counter, |b, lo, hi| {
                $write(out, start + (64 * b).cast_signed(), lo, hi);
            });
        }

        /// The keystream of eight blocks from `counter` on, in the word-per-register layout,
        /// block by block (two halves) to `emit`.
        #[inline]
        #[target_feature(enable = $feat)]
        fn eight_blocks(
            state: &[u32; 16],
            counter: u32,
            mut emit: impl FnMut(usize, __m256i, __m256i),
        ) {
            let mut init: [__m256i; 16] =
                core::array::from_fn(|i| _mm256_set1_epi32(state[i].cast_signed()));
            init[12] = _mm256_add_epi32(
                _mm256_set1_epi32(counter.cast_signed()),
                _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
            );
            let mut x = init;
            for _ in 0..10 {
                let [x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15] = &mut x;
                $quarter(x0, x4, x8, x12);
                $quarter(x1, x5, x9, x13);
                $quarter(x2, x6, x10, x14);
                $quarter(x3, x7, x11, x15);
                $quarter(x0, x5, x10, x15);
                $quarter(x1, x6, x11, x12);
                $quarter(x2, x7, x8, x13);
                $quarter(x3, x4, x9, x14);
            }
            for (x, s) in x.iter_mut().zip(init) {
                *x = _mm256_add_epi32(*x, s);
            }
            // groups[g][k]: words 4g..4g+4 of block k (low lane) and k + 4 (high lane).
            let groups: [[__m256i; 4]; 4] = core::array::from_fn(|g| {
                let [a, b, c, d] = [x[4 * g], x[4 * g + 1], x[4 * g + 2], x[4 * g + 3]];
                let (ab_lo, ab_hi) = (_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b));
                let (cd_lo, cd_hi) = (_mm256_unpacklo_epi32(c, d), _mm256_unpackhi_epi32(c, d));
                [
                    _mm256_unpacklo_epi64(ab_lo, cd_lo),
                    _mm256_unpackhi_epi64(ab_lo, cd_lo),
                    _mm256_unpacklo_epi64(ab_hi, cd_hi),
                    _mm256_unpackhi_epi64(ab_hi, cd_hi),
                ]
            });
            for k in 0..4 {
                let [g0, g1, g2, g3] = groups.map(|g| g[k]);
                emit(
                    k,
                    _mm256_permute2x128_si256::<0x20>(g0, g1),
                    _mm256_permute2x128_si256::<0x20>(g2, g3),
                );
                emit(
                    k + 4,
                    _mm256_permute2x128_si256::<0x31>(g0, g1),
                    _mm256_permute2x128_si256::<0x31>(g2, g3),
                );
            }
        }

        /// The keystream of `2 * N` blocks from `counter` on in the row layout: one register
        /// per state row, two blocks per register, `N` register sets side by side so their
        /// rounds overlap.
        #[inline]
        #[target_feature(enable = $feat)]
        fn rows<const N: usize>(
            state: &[u32; 16],
            counter: u32,
            emit: impl FnMut(usize, __m256i, __m256i),
        ) {
            // SAFETY: `state` is 16 words; each load reads words 4i..4i+4 for i < 4.
            let row = |i: usize| unsafe {
                _mm256_broadcastsi128_si256(_mm_loadu_si128(state.as_ptr().add(4 * i).cast()))
            };
            rows_from::<N>([row(0), row(1), row(2), row(3)], counter, emit);
        }

        /// [`rows`] from the state's four rows, each in both 128-bit lanes of a register (the
        /// counter word of the last is replaced).
        #[inline]
        #[target_feature(enable = $feat)]
        fn rows_from<const N: usize>(
            [r0, r1, r2, r3]: [__m256i; 4],
            counter: u32,
            mut emit: impl FnMut(usize, __m256i, __m256i),
        ) {
            // Row 3 with the counter word of the low lane set to `c`, of the high lane `c + 1`.
            let d = |c: u32| {
                let ctr = _mm256_setr_epi32(
                    c.cast_signed(),
                    0,
                    0,
                    0,
                    c.wrapping_add(1).cast_signed(),
                    0,
                    0,
                    0,
                );
                _mm256_blend_epi32::<0x11>(r3, ctr)
            };
            let init: [[__m256i; 4]; N] =
                core::array::from_fn(|s| [r0, r1, r2, d(counter.wrapping_add(2 * s as u32))]);
            let mut x = init;
            for _ in 0..10 {
                for [a, b, c, d] in &mut x {
                    $quarter(a, b, c, d);
                    // Diagonals into columns: rotate rows 0, 2, 3 by three, one and two words.
                    // Row 1, the last one the quarter round writes, stays put, so no shuffle
                    // waits on it.
                    *a = _mm256_shuffle_epi32::<0x93>(*a);
                    *c = _mm256_shuffle_epi32::<0x39>(*c);
                    *d = _mm256_shuffle_epi32::<0x4e>(*d);
                    $quarter(a, b, c, d);
                    *a = _mm256_shuffle_epi32::<0x39>(*a);
                    *c = _mm256_shuffle_epi32::<0x93>(*c);
                    *d = _mm256_shuffle_epi32::<0x4e>(*d);
                }
            }
            for (s, (x, init)) in x.iter().zip(init).enumerate() {
                let v: [__m256i; 4] = core::array::from_fn(|i| _mm256_add_epi32(x[i], init[i]));
                emit(
                    2 * s,
                    _mm256_permute2x128_si256::<0x20>(v[0], v[1]),
                    _mm256_permute2x128_si256::<0x20>(v[2], v[3]),
                );
                emit(
                    2 * s + 1,
                    _mm256_permute2x128_si256::<0x31>(v[0], v[1]),
                    _mm256_permute2x128_si256::<0x31>(v[2], v[3]),
                );
            }
        }
    };
}

pub(super) use ymm_passes;
