//! Helpers shared by the fuzz targets: a cursor that carves a fuzzer's input into fields
//! (never failing: a short input yields short or empty fields), and the list of every
//! implementation of an algorithm this CPU can run.

use core_hash::Implementation;

/// Reads fields off the front of a fuzzer input.
pub struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    /// A cursor over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self(data)
    }

    /// The next byte, or 0 once the input is used up.
    pub fn byte(&mut self) -> u8 {
        self.bytes(1).first().copied().unwrap_or(0)
    }

    /// The next `n` bytes, or what is left if fewer.
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        let (head, tail) = self.0.split_at(n.min(self.0.len()));
        self.0 = tail;
        head
    }

    /// The next `N` bytes, zero-padded if the input runs out.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        let head = self.bytes(N);
        out[..head.len()].copy_from_slice(head);
        out
    }

    /// Everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        self.bytes(self.0.len())
    }
}

/// Every implementation of `I` this CPU can run, found by name so that the portable variants
/// `available()` leaves out for this word size are included.
pub fn every<I: Implementation>() -> Vec<I> {
    I::ALL.iter().filter_map(|name| I::by_name(name)).collect()
}

/// Splits `data` into pieces whose lengths come from `seed` (0 up to a few blocks, empty
/// pieces included), to drive incremental APIs through every buffering path.
pub fn pieces(data: &[u8], seed: u8) -> Vec<&[u8]> {
    let mut x = u32::from(seed) | 0x100;
    let mut rest = data;
    let mut out = Vec::new();
    while !rest.is_empty() {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let n = (x % 300) as usize;
        let (head, tail) = rest.split_at(n.min(rest.len()));
        out.push(head);
        rest = tail;
    }
    out
}

/// A deterministic [`core_hash::RandomSource`] (SplitMix64 from a seed the input gives), so that
/// a crash reproduces from its input alone: key generation, blinding, salts and the TLS
/// randoms all draw from it. Not random in any cryptographic sense, and need not be.
pub struct FixedRandom(u64);

impl FixedRandom {
    /// The stream for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
}

impl core_hash::RandomSource for FixedRandom {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), core_hash::RandomError> {
        for chunk in dest.chunks_mut(8) {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            chunk.copy_from_slice(&z.to_le_bytes()[..chunk.len()]);
        }
        Ok(())
    }
}

/// Flips bit `at` (taken modulo the length) of `bytes`; nothing if `bytes` is empty.
pub fn flip(bytes: &mut [u8], at: usize) {
    if !bytes.is_empty() {
        let at = at % (bytes.len() * 8);
        bytes[at / 8] ^= 1 << (at % 8);
    }
}
