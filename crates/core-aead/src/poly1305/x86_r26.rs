//! What the AVX2 and AVX-512 Poly1305 backends share, written once over the vector width: the
//! entry points around the vector loop (whole blocks, the ChaCha20-Poly1305 tag with its
//! scalar parts compiled for BMI2) and the radix-2^26 arithmetic on one limb per register —
//! the key with its multiples by 5, the 25-product multiplication and the carry pass. Each
//! backend invokes [`r26_vector!`] and adds what depends on its lane count: loading a group
//! of blocks, the per-lane key powers and the loop itself (`blocks_vector`).

/// Generates, in the invoking module: `blocks`, `aead_tag` (the backend's entry points, taking
/// its CPU token), `M26`, `Key` (with `from_limbs`), `mul32`, `mul` and `carry`, for vectors of
/// type `$v` built with the named intrinsics (`$mul` names the `vpmuludq` kernel for them,
/// `$mul_rust` its intrinsic). `$group` is the bytes
/// one vector step absorbs (16 per lane) and `$kernel` the module's vector loop.
macro_rules! r26_vector {
    (
        token: $token:ident, features: $feat:literal,
        vector: $v:ty, mul: $mul:ident, mul_rust: $mul_rust:ident, group: $group:literal,
        kernel: $kernel:ident,
        add: $add:ident, and: $and:ident, srli: $srli:ident, slli: $slli:ident, set1: $set1:ident $(,)?
    ) => {
        /// Absorbs whole 16-byte blocks: whole groups in vector lanes, the rest on
        /// `portable_r64`.
        pub(super) fn blocks(token: $token, st: &mut State, data: &[u8]) {
            let vector = if data.len() >= MIN_LEN { data.len() & !($group - 1) } else { 0 };
            let (head, tail) = data.split_at(vector);
            if !head.is_empty() {
                // SAFETY: the token proves the vector features were detected.
                unsafe { $kernel(token, st, head) };
            }
            // SAFETY: the token proves BMI2 (`mulx`) was detected.
            unsafe { scalar_bmi2(st, tail) };
        }

        /// The ChaCha20-Poly1305 tag (see [`super::aead_tag`]): the scalar blocks, the key
        /// set-up and the final reduction inline in one function compiled with BMI2, partial
        /// blocks and the lengths assembled in registers, the ciphertext's whole blocks
        /// through [`blocks`].
        pub(super) fn aead_tag(
            token: $token,
            otk: &[u8; 32],
            aad: &[u8],
            ciphertext: &[u8],
        ) -> [u8; 16] {
            // SAFETY: the token proves BMI2 was detected.
            unsafe { aead_tag_bmi2(token, otk, aad, ciphertext) }
        }

        #[target_feature(enable = "bmi2")]
        fn aead_tag_bmi2(token: $token, otk: &[u8; 32], aad: &[u8], ciphertext: &[u8]) -> [u8; 16] {
            let mut st = State::new(otk);
            let (whole, tail) = aad.split_at(aad.len() & !15);
            st.blocks(whole, true);
            if !tail.is_empty() {
                let (w0, w1) = partial_words(tail);
                st.block_words(w0, w1, true);
            }
            let (whole, tail) = ciphertext.split_at(ciphertext.len() & !15);
            blocks(token, &mut st, whole);
            if !tail.is_empty() {
                let (w0, w1) = partial_words(tail);
                st.block_words(w0, w1, true);
            }
            st.block_words(aad.len() as u64, ciphertext.len() as u64, true);
            let tag = st.finish();
            st.zeroize();
            tag
        }

        /// `portable_r64`'s blocks compiled with BMI2, whose `mulx` leaves the flags and `rdx`
        /// alone and so needs fewer register moves around the multiplications of a block.
        #[target_feature(enable = "bmi2")]
        fn scalar_bmi2(st: &mut State, data: &[u8]) {
            st.blocks(data, true);
        }

        const M26: u64 = (1 << 26) - 1;

        /// `r`'s limbs and their multiples by 5, broadcast or per lane, ready for [`mul`].
        #[derive(Clone, Copy)]
        struct Key {
            r: [$v; 5],
            s: [$v; 4],
        }

        impl Key {
            #[inline]
            #[target_feature(enable = $feat)]
            fn from_limbs(r: [$v; 5]) -> Self {
                let s = core::array::from_fn(|i| $add(r[i + 1], $slli::<2>(r[i + 1])));
                Self { r, s }
            }
        }

        /// `vpmuludq`: the low 32 bits of each 64-bit lane of `a` times those of `b`. With
        /// `asm`, the instruction itself (`core_asm::x86_64::aead::poly1305`): written as
        /// the intrinsic, LLVM proves the accumulator limbs fit in 32 bits, drops the implied
        /// masking, and then lowers the resulting 64×64 multiply as three `vpmuludq` and two
        /// shifts. Without `asm`, the intrinsic.
        #[inline]
        #[target_feature(enable = $feat)]
        fn mul32(a: $v, b: $v) -> $v {
            #[cfg(feature = "asm")]
            let p = core_asm::x86_64::aead::poly1305::$mul(a, b);
            #[cfg(not(feature = "asm"))]
            let p = core::arch::x86_64::$mul_rust(a, b);
            p
        }

        /// `h · key` per lane, partly reduced: limbs below 2^26 (plus a few bits on limbs 1
        /// and 4). Inputs below 2^27 per limb keep every sum of products below 2^59.
        #[inline]
        #[target_feature(enable = $feat)]
        fn mul(h: [$v; 5], k: &Key) -> [$v; 5] {
            let m = mul32;
            let add = $add;
            let [h0, h1, h2, h3, h4] = h;
            let [r0, r1, r2, r3, r4] = k.r;
            let [s1, s2, s3, s4] = k.s;
            let d0 = add(add(add(m(h0, r0), m(h1, s4)), add(m(h2, s3), m(h3, s2))), m(h4, s1));
            let d1 = add(add(add(m(h0, r1), m(h1, r0)), add(m(h2, s4), m(h3, s3))), m(h4, s2));
            let d2 = add(add(add(m(h0, r2), m(h1, r1)), add(m(h2, r0), m(h3, s4))), m(h4, s3));
            let d3 = add(add(add(m(h0, r3), m(h1, r2)), add(m(h2, r1), m(h3, r0))), m(h4, s4));
            let d4 = add(add(add(m(h0, r4), m(h1, r3)), add(m(h2, r2), m(h3, r1))), m(h4, r0));
            carry([d0, d1, d2, d3, d4])
        }

        /// One carry pass over five 64-bit limbs, in two interleaved chains.
        #[inline]
        #[target_feature(enable = $feat)]
        fn carry(d: [$v; 5]) -> [$v; 5] {
            let mask = $set1(M26.cast_signed());
            let [mut d0, mut d1, mut d2, mut d3, mut d4] = d;
            let hi = $srli::<26>;
            d1 = $add(d1, hi(d0));
            d0 = $and(d0, mask);
            d4 = $add(d4, hi(d3));
            d3 = $and(d3, mask);
            d2 = $add(d2, hi(d1));
            d1 = $and(d1, mask);
            let c = hi(d4);
            d4 = $and(d4, mask);
            d0 = $add(d0, $add(c, $slli::<2>(c)));
            d3 = $add(d3, hi(d2));
            d2 = $and(d2, mask);
            d1 = $add(d1, hi(d0));
            d0 = $and(d0, mask);
            d4 = $add(d4, hi(d3));
            d3 = $and(d3, mask);
            [d0, d1, d2, d3, d4]
        }
    };
}

pub(super) use r26_vector;
