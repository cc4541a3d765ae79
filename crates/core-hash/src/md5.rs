//! MD5 (RFC 1321), behind the `legacy` feature, for reading old formats only: it is broken
//! for collision resistance and must never authenticate anything. Portable code only.

crate::implementation_enum! {
    /// The only MD5 implementation: portable 32-bit code.
    pub enum Md5Impl {
        accelerated {}
        portable {
            /// Portable 32-bit code (RFC 1321 §3.4).
            Portable => "portable",
        }
    }
}

/// Per-step additive constants: floor(|sin(i + 1)| · 2^32) (RFC 1321 §3.4).
const T: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// Left-rotation amounts, four per round.
const S: [[u32; 4]; 4] = [[7, 12, 17, 22], [5, 9, 14, 20], [4, 11, 16, 23], [6, 10, 15, 21]];

impl Md5Impl {
    /// Runs the compression function over `blocks`, in order.
    #[allow(clippy::unused_self)] // the same shape as every other implementation enum
    pub(crate) fn compress(self, state: &mut [u32; 4], blocks: &[[u8; 64]]) {
        for block in blocks {
            let mut x = [0u32; 16];
            for (word, bytes) in x.iter_mut().zip(block.as_chunks::<4>().0) {
                *word = u32::from_le_bytes(*bytes);
            }
            let [mut a, mut b, mut c, mut d] = *state;
            for i in 0..64 {
                let (f, g) = match i / 16 {
                    0 => ((b & c) | (!b & d), i),
                    1 => ((b & d) | (c & !d), (5 * i + 1) & 15),
                    2 => (b ^ c ^ d, (3 * i + 5) & 15),
                    _ => (c ^ (b | !d), (7 * i) & 15),
                };
                let t = a.wrapping_add(f).wrapping_add(T[i]).wrapping_add(x[g]);
                a = d;
                d = c;
                c = b;
                b = b.wrapping_add(t.rotate_left(S[i / 16][i & 3]));
            }
            for (s, v) in state.iter_mut().zip([a, b, c, d]) {
                *s = s.wrapping_add(v);
            }
        }
    }

    /// Runs the compression function over `first`'s blocks, then `rest`'s.
    #[inline]
    pub(crate) fn compress2(self, state: &mut [u32; 4], first: &[[u8; 64]], rest: &[[u8; 64]]) {
        if !first.is_empty() {
            self.compress(state, first);
        }
        self.compress(state, rest);
    }
}

crate::md::md_hash! {
    /// MD5 (RFC 1321). Legacy: collisions are trivial to make.
    Md5, Md5Impl, u32, 64, 4, 16, false,
    [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]
}
