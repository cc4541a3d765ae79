//! Four Keccak-f\[1600\] permutations at once on x86-64 with AVX2: lane `i` of the four states
//! sits in one 256-bit register, one state per 64-bit element, so each step of a round is one
//! vector instruction for all four (ρ's rotations are a shift pair and an OR; χ uses
//! `vpandn`). Each round is straight-line code over literal lane indices and rotation
//! counts (written out from FIPS 202's ρ table and π), so lanes stay in registers or at fixed
//! stack slots. For callers that run several independent sponges of the same shape, such as
//! ML-KEM's matrix sampling; a single sponge gains nothing from it.

use super::RC;
use core::arch::x86_64::{
    __m256i, _mm256_andnot_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi64x,
    _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_xor_si256,
};
use core_cpu::Avx2;

/// Keccak-f\[1600\] on four states, interleaved: `state[i][k]` is lane `i` (= x + 5y) of
/// state `k`, in the standard lane encoding.
pub(crate) fn permute_x4(token: Avx2, state: &mut [[u64; 4]; 25]) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { permute_x4_avx2(token, state) }
}

/// Each 64-bit element of `a` rotated left by the literal `n` (0 < n < 64).
macro_rules! rotl {
    ($a:expr, $n:literal) => {{
        let a = $a;
        _mm256_or_si256(_mm256_slli_epi64::<$n>(a), _mm256_srli_epi64::<{ 64 - $n }>(a))
    }};
}

/// The XOR of five registers (a column parity of θ).
#[inline]
#[target_feature(enable = "avx2")]
fn xor5(a: __m256i, b: __m256i, c: __m256i, d: __m256i, e: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d)), e)
}

#[target_feature(enable = "avx2")]
fn permute_x4_avx2(_: Avx2, state: &mut [[u64; 4]; 25]) {
    let mut a: [__m256i; 25] = core::array::from_fn(|i| {
        // SAFETY: `state[i]` is 32 readable bytes; `loadu` takes any alignment. AVX2 is
        // enabled on this function, reached only through the `Avx2` token.
        unsafe { _mm256_loadu_si256(state[i].as_ptr().cast()) }
    });
    for &rc in &RC {
        // θ
        let c0 = xor5(a[0], a[5], a[10], a[15], a[20]);
        let c1 = xor5(a[1], a[6], a[11], a[16], a[21]);
        let c2 = xor5(a[2], a[7], a[12], a[17], a[22]);
        let c3 = xor5(a[3], a[8], a[13], a[18], a[23]);
        let c4 = xor5(a[4], a[9], a[14], a[19], a[24]);
        let d0 = _mm256_xor_si256(c4, rotl!(c1, 1));
        let d1 = _mm256_xor_si256(c0, rotl!(c2, 1));
        let d2 = _mm256_xor_si256(c1, rotl!(c3, 1));
        let d3 = _mm256_xor_si256(c2, rotl!(c4, 1));
        let d4 = _mm256_xor_si256(c3, rotl!(c0, 1));
        // θ's XOR, ρ and π: b[i] is lane pi_source(i), with its column's d, rotated.
        let b0 = _mm256_xor_si256(a[0], d0);
        let b1 = rotl!(_mm256_xor_si256(a[6], d1), 44);
        let b2 = rotl!(_mm256_xor_si256(a[12], d2), 43);
        let b3 = rotl!(_mm256_xor_si256(a[18], d3), 21);
        let b4 = rotl!(_mm256_xor_si256(a[24], d4), 14);
        let b5 = rotl!(_mm256_xor_si256(a[3], d3), 28);
        let b6 = rotl!(_mm256_xor_si256(a[9], d4), 20);
        let b7 = rotl!(_mm256_xor_si256(a[10], d0), 3);
        let b8 = rotl!(_mm256_xor_si256(a[16], d1), 45);
        let b9 = rotl!(_mm256_xor_si256(a[22], d2), 61);
        let b10 = rotl!(_mm256_xor_si256(a[1], d1), 1);
        let b11 = rotl!(_mm256_xor_si256(a[7], d2), 6);
        let b12 = rotl!(_mm256_xor_si256(a[13], d3), 25);
        let b13 = rotl!(_mm256_xor_si256(a[19], d4), 8);
        let b14 = rotl!(_mm256_xor_si256(a[20], d0), 18);
        let b15 = rotl!(_mm256_xor_si256(a[4], d4), 27);
        let b16 = rotl!(_mm256_xor_si256(a[5], d0), 36);
        let b17 = rotl!(_mm256_xor_si256(a[11], d1), 10);
        let b18 = rotl!(_mm256_xor_si256(a[17], d2), 15);
        let b19 = rotl!(_mm256_xor_si256(a[23], d3), 56);
        let b20 = rotl!(_mm256_xor_si256(a[2], d2), 62);
        let b21 = rotl!(_mm256_xor_si256(a[8], d3), 55);
        let b22 = rotl!(_mm256_xor_si256(a[14], d4), 39);
        let b23 = rotl!(_mm256_xor_si256(a[15], d0), 41);
        let b24 = rotl!(_mm256_xor_si256(a[21], d1), 2);
        // χ
        a[0] = _mm256_xor_si256(b0, _mm256_andnot_si256(b1, b2));
        a[1] = _mm256_xor_si256(b1, _mm256_andnot_si256(b2, b3));
        a[2] = _mm256_xor_si256(b2, _mm256_andnot_si256(b3, b4));
        a[3] = _mm256_xor_si256(b3, _mm256_andnot_si256(b4, b0));
        a[4] = _mm256_xor_si256(b4, _mm256_andnot_si256(b0, b1));
        a[5] = _mm256_xor_si256(b5, _mm256_andnot_si256(b6, b7));
        a[6] = _mm256_xor_si256(b6, _mm256_andnot_si256(b7, b8));
        a[7] = _mm256_xor_si256(b7, _mm256_andnot_si256(b8, b9));
        a[8] = _mm256_xor_si256(b8, _mm256_andnot_si256(b9, b5));
        a[9] = _mm256_xor_si256(b9, _mm256_andnot_si256(b5, b6));
        a[10] = _mm256_xor_si256(b10, _mm256_andnot_si256(b11, b12));
        a[11] = _mm256_xor_si256(b11, _mm256_andnot_si256(b12, b13));
        a[12] = _mm256_xor_si256(b12, _mm256_andnot_si256(b13, b14));
        a[13] = _mm256_xor_si256(b13, _mm256_andnot_si256(b14, b10));
        a[14] = _mm256_xor_si256(b14, _mm256_andnot_si256(b10, b11));
        a[15] = _mm256_xor_si256(b15, _mm256_andnot_si256(b16, b17));
        a[16] = _mm256_xor_si256(b16, _mm256_andnot_si256(b17, b18));
        a[17] = _mm256_xor_si256(b17, _mm256_andnot_si256(b18, b19));
        a[18] = _mm256_xor_si256(b18, _mm256_andnot_si256(b19, b15));
        a[19] = _mm256_xor_si256(b19, _mm256_andnot_si256(b15, b16));
        a[20] = _mm256_xor_si256(b20, _mm256_andnot_si256(b21, b22));
        a[21] = _mm256_xor_si256(b21, _mm256_andnot_si256(b22, b23));
        a[22] = _mm256_xor_si256(b22, _mm256_andnot_si256(b23, b24));
        a[23] = _mm256_xor_si256(b23, _mm256_andnot_si256(b24, b20));
        a[24] = _mm256_xor_si256(b24, _mm256_andnot_si256(b20, b21));
        // ι
        a[0] = _mm256_xor_si256(a[0], _mm256_set1_epi64x(rc.cast_signed()));
    }
    for (lane, out) in a.iter().zip(state.iter_mut()) {
        // SAFETY: `out` is 32 writable bytes; `storeu` takes any alignment. AVX2 is enabled
        // on this function, reached only through the `Avx2` token.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), *lane) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of the four states comes out as the scalar permutation makes it, on this
    /// four-way permutation and on `x86_avx512vl_x4`'s, over several rounds of chaining
    /// (different states in each position).
    #[test]
    fn four_way_permutations_match_the_scalar_one() {
        type FourWay = std::boxed::Box<dyn Fn(&mut [[u64; 4]; 25])>;
        let avx2 = Avx2::get().map(|t| std::boxed::Box::new(move |s: &mut _| permute_x4(t, s)));
        let avx512vl = core_cpu::Avx512::get().map(|t| {
            std::boxed::Box::new(move |s: &mut _| super::super::keccak_f1600_x4_avx512vl(t, s))
        });
        let four_ways: [(&str, Option<FourWay>); 2] = [
            ("x86_avx2", avx2.map(|f| f as FourWay)),
            ("x86_avx512vl", avx512vl.map(|f| f as FourWay)),
        ];
        for (name, permute) in four_ways {
            let Some(permute) = permute else {
                std::println!("keccak x4/{name}: not available on this CPU");
                continue;
            };
            let mut x = 0x0123_4567_89ab_cdef_u64;
            let mut scalar: [[u64; 25]; 4] = core::array::from_fn(|_| {
                core::array::from_fn(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x
                })
            });
            scalar[3] = [0; 25];
            let mut four: [[u64; 4]; 25] =
                core::array::from_fn(|i| core::array::from_fn(|k| scalar[k][i]));
            for _ in 0..3 {
                permute(&mut four);
                for s in &mut scalar {
                    super::super::portable::permute(s);
                }
                for (k, s) in scalar.iter().enumerate() {
                    for (i, lane) in s.iter().enumerate() {
                        assert_eq!(four[i][k], *lane, "{name}: state {k}, lane {i}");
                    }
                }
            }
        }
    }
}
