//! Multi-buffer SHA-256: many independent messages hashed at once, one per SIMD lane (16 with
//! AVX-512, 8 with AVX2), as OpenSSL's `sha256_multi_block` and Intel's multi-buffer manager
//! do. SHA-256 is serial within a message, so lanes are the only parallelism a vector unit
//! can add; on a CPU whose SHA extensions already hash one message fast, it pays off when
//! many messages are ready together (Merkle trees, many TLS records, many MACs).
//!
//! The scheduler keeps the lanes busy when lengths differ: a lane whose message ends is
//! handed the next one while the others continue ([`Sha256Many::submit`]). Each lane's stream
//! is a run of at most three segments — an optional prefix block (HMAC's padded key), the
//! message's whole blocks where they lie, and its padded final one or two blocks (copied, as
//! they are shorter than a block) — and the kernel runs all lanes for as many blocks as the
//! shortest current segment has. Everything sits on the stack, sized for [`MAX_LANES`].

use super::{Sha256, Sha256Impl};
use crate::{Hmac, Implementation};
use core::fmt;

crate::implementation_enum! {
    /// A multi-buffer SHA-256 implementation: how many messages run side by side, and on
    /// what. Accelerated variants carry the CPU-feature token that proves they can run.
    pub enum Sha256MbImpl {
        accelerated {
            /// 16 lanes in AVX-512 registers (`vprord`, `vpternlogd`).
            X86Avx512(core_cpu::Avx512) => "x86_avx512",
            /// 8 lanes in AVX2 registers.
            X86Avx2(core_cpu::Avx2) => "x86_avx2",
        }
        portable {
            /// One message after another on the best single-buffer backend.
            Sequential => "sequential",
        }
    }
}

/// The most lanes any implementation runs (AVX-512's 16 32-bit lanes).
pub const MAX_LANES: usize = 16;

/// The working state of every lane, transposed: `state[w][l]` is word `w` of lane `l`, so a
/// row loads into one vector register.
pub(super) type LaneState = [[u32; MAX_LANES]; 8];

/// The number of messages and of outputs (or of keys) given to a many-message call differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountMismatch {
    /// How many inputs were given.
    pub inputs: usize,
    /// How many output slots were given.
    pub outputs: usize,
}

impl fmt::Display for CountMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} inputs but {} output slots: one digest per input", self.inputs, self.outputs)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for CountMismatch {}

impl Sha256MbImpl {
    /// How many messages this implementation hashes side by side.
    #[must_use]
    pub fn lanes(self) -> usize {
        match self {
            Self::X86Avx512(_) => 16,
            Self::X86Avx2(_) => 8,
            Self::Sequential => 1,
        }
    }

    /// Runs every lane over its blocks (all the same number, as the scheduler cuts them),
    /// lanes past [`lanes`](Self::lanes) ignored; `single` is the backend of `Sequential`.
    #[inline]
    fn compress(
        self,
        single: Sha256Impl,
        state: &mut LaneState,
        blocks: &[&[[u8; 64]]; MAX_LANES],
    ) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx512(token) => super::x86_avx512_mb::compress(token, state, blocks),
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx2(token) => super::x86_avx2_mb::compress(token, state, blocks),
            // `Sequential`, or a token of another architecture, which cannot be obtained.
            _ => {
                let mut one: [u32; 8] = core::array::from_fn(|w| state[w][0]);
                single.compress(&mut one, blocks[0]);
                for (row, word) in state.iter_mut().zip(one) {
                    row[0] = word;
                }
            }
        }
    }

    /// The SHA-256 digest of each message into the output slot of the same index, with the
    /// lanes refilled as messages end.
    pub fn digest_many(
        self,
        messages: &[&[u8]],
        out: &mut [[u8; 32]],
    ) -> Result<(), CountMismatch> {
        check_counts(messages.len(), out.len())?;
        if self == Self::Sequential {
            for (m, o) in messages.iter().zip(out.iter_mut()) {
                *o = Sha256::digest(m);
            }
            return Ok(());
        }
        let mut many = Sha256Many::with_impl(self);
        for (i, m) in messages.iter().enumerate() {
            let (body, tail) = m.as_chunks::<64>();
            many.load(i, None, body, tail, m.len() as u64);
            many.flush_if_full_into(out);
        }
        while many.flush_into(|id| out.get_mut(id)).is_some() {}
        Ok(())
    }
}

fn check_counts(inputs: usize, outputs: usize) -> Result<(), CountMismatch> {
    if inputs == outputs { Ok(()) } else { Err(CountMismatch { inputs, outputs }) }
}

impl Sha256 {
    /// The SHA-256 digest of each of `messages` into `out` (one slot per message, in order),
    /// hashed side by side on the best multi-buffer implementation for this CPU. Lengths may
    /// differ freely; the result is the same as [`Sha256::digest`] of each.
    ///
    /// ```
    /// use core_hash::Sha256;
    ///
    /// let messages: [&[u8]; 3] = [b"abc", b"", &[7u8; 1000]];
    /// let mut out = [[0u8; 32]; 3];
    /// Sha256::digest_many(&messages, &mut out).unwrap();
    /// assert_eq!(out[2], Sha256::digest(&[7u8; 1000]));
    /// ```
    pub fn digest_many(messages: &[&[u8]], out: &mut [[u8; 32]]) -> Result<(), CountMismatch> {
        Sha256MbImpl::best().digest_many(messages, out)
    }
}

/// The multi-buffer scheduler (Intel's "job manager"): messages are submitted one at a time
/// and hashed side by side, each lane refilled as its message ends; finished digests come
/// back tagged with the caller's id, not necessarily in submission order.
///
/// [`submit`](Self::submit) returns a digest once every lane is busy (it runs the lanes until
/// one message ends); [`flush`](Self::flush) finishes what is left, one digest per call. No
/// allocation: the state of [`MAX_LANES`] lanes and their final blocks live in this value,
/// and message blocks are read where they lie. Lane buffers (which may hold message bytes)
/// and states are wiped on drop.
///
/// ```
/// use core_hash::{Sha256, Sha256Many};
///
/// let messages: [&[u8]; 3] = [b"a", &[1u8; 300], b"abc"];
/// let mut many = Sha256Many::new();
/// let mut out = [[0u8; 32]; 3];
/// for (id, m) in messages.iter().enumerate() {
///     if let Some((done, digest)) = many.submit(id, m) {
///         out[done] = digest;
///     }
/// }
/// while let Some((done, digest)) = many.flush() {
///     out[done] = digest;
/// }
/// assert_eq!(out[1], Sha256::digest(&[1u8; 300]));
/// ```
pub struct Sha256Many<'a> {
    imp: Sha256MbImpl,
    single: Sha256Impl,
    state: LaneState,
    /// Lanes with blocks left to run, and lanes whose digest waits to be handed out (bit `l`
    /// for lane `l`); the other lanes are free.
    busy: u32,
    done: u32,
    /// Busy lanes whose prefix block (`prefix[l]`) is still to run.
    prefixed: u32,
    /// Per lane: the caller's id, the message's whole blocks still to run, and the range of
    /// `tails[l]` still to run after them.
    ids: [usize; MAX_LANES],
    body: [&'a [[u8; 64]]; MAX_LANES],
    tail: [(u8, u8); MAX_LANES],
    prefix: [[u8; 64]; MAX_LANES],
    tails: [[[u8; 64]; 2]; MAX_LANES],
}

/// The lanes in `mask`, lowest first.
fn lanes_in(mut mask: u32) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        let l = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (l < MAX_LANES).then_some(l)
    })
}

impl<'a> Sha256Many<'a> {
    /// A scheduler on the best multi-buffer implementation for this CPU.
    #[must_use]
    pub fn new() -> Self {
        Self::with_impl(Sha256MbImpl::best())
    }

    /// A scheduler on the given implementation.
    #[must_use]
    pub fn with_impl(imp: Sha256MbImpl) -> Self {
        Self {
            imp,
            single: Sha256Impl::best(),
            state: [[0; MAX_LANES]; 8],
            busy: 0,
            done: 0,
            prefixed: 0,
            ids: [0; MAX_LANES],
            body: [&[]; MAX_LANES],
            tail: [(0, 0); MAX_LANES],
            prefix: [[0; 64]; MAX_LANES],
            tails: [[[0; 64]; 2]; MAX_LANES],
        }
    }

    /// The implementation this scheduler runs on.
    #[must_use]
    pub fn implementation(&self) -> Sha256MbImpl {
        self.imp
    }

    /// The lanes not in use (busy or holding a digest).
    fn free(&self) -> u32 {
        let all = (1u32 << self.imp.lanes()) - 1;
        all & !(self.busy | self.done)
    }

    /// Queues `message` under `id`. Once every lane is busy, runs them until a message ends
    /// and returns that one's id and digest (or a digest already finished); otherwise `None`.
    pub fn submit(&mut self, id: usize, message: &'a [u8]) -> Option<(usize, [u8; 32])> {
        let (body, tail) = message.as_chunks::<64>();
        self.load(id, None, body, tail, message.len() as u64);
        self.flush_if_full()
    }

    /// After a `load`: runs once no lane is free, so that the next `load` finds one.
    fn flush_if_full(&mut self) -> Option<(usize, [u8; 32])> {
        if self.free() == 0 { self.flush() } else { None }
    }

    /// [`flush_if_full`](Self::flush_if_full) into the caller's output slots.
    fn flush_if_full_into(&mut self, out: &mut [[u8; 32]]) {
        if self.free() == 0 {
            self.flush_into(|id| out.get_mut(id));
        }
    }

    /// Returns a finished digest if there is one, or else runs the busy lanes until a message
    /// ends and returns it; `None` once nothing is left.
    pub fn flush(&mut self) -> Option<(usize, [u8; 32])> {
        let mut digest = [0u8; 32];
        let id = self.flush_into(|_| Some(&mut digest))?;
        Some((id, digest))
    }

    /// [`flush`](Self::flush), writing the digest to the slot `slot(id)` gives (if any) and
    /// returning the id. Multi-buffer calls write each digest straight into the caller's
    /// output: the words are stored one by one, and a copy through a returned value would
    /// then load them 16 bytes at a time, which stalls (no store-to-load forwarding).
    fn flush_into<'o>(
        &mut self,
        slot: impl FnOnce(usize) -> Option<&'o mut [u8; 32]>,
    ) -> Option<usize> {
        if self.done == 0 {
            self.run();
        }
        let l = lanes_in(self.done).next()?;
        self.done &= !(1 << l);
        let id = self.ids[l];
        if let Some(out) = slot(id) {
            for (chunk, row) in out.chunks_exact_mut(4).zip(self.state.iter()) {
                chunk.copy_from_slice(&row[l].to_be_bytes());
            }
        }
        Some(id)
    }

    /// Puts a message into a free lane (the caller keeps one free: `submit` runs as soon as
    /// none is): the lane's state starts at the IV, and its stream is `prefix` (if any),
    /// `body`, then `tail` (shorter than a block) with the padding for a message of `len`
    /// bytes in all.
    fn load(
        &mut self,
        id: usize,
        prefix: Option<&[u8; 64]>,
        body: &'a [[u8; 64]],
        tail: &[u8],
        len: u64,
    ) {
        let Some(l) = lanes_in(self.free()).next() else {
            return;
        };
        for (row, word) in self.state.iter_mut().zip(Sha256::IV) {
            row[l] = word;
        }
        if let Some(p) = prefix {
            self.prefix[l] = *p;
            self.prefixed |= 1 << l;
        }
        self.tails[l] = [[0; 64]; 2];
        let n = crate::md::pad_tail::<64, 8>(&mut self.tails[l], tail, len, true);
        self.ids[l] = id;
        self.body[l] = body;
        self.tail[l] = (0, n as u8);
        self.busy |= 1 << l;
    }

    /// Runs the busy lanes until at least one message ends (nothing if none is busy).
    fn run(&mut self) {
        while self.busy != 0 {
            // The current segment of every busy lane; idle lanes run over a busy lane's
            // blocks, and their results are never read. The kernel runs as many blocks as
            // the shortest segment has.
            let mut segment: [&[[u8; 64]]; MAX_LANES] = [&[]; MAX_LANES];
            for l in lanes_in(self.busy) {
                segment[l] = if self.prefixed & (1 << l) != 0 {
                    core::slice::from_ref(&self.prefix[l])
                } else if !self.body[l].is_empty() {
                    self.body[l]
                } else {
                    let (from, to) = self.tail[l];
                    &self.tails[l][from as usize..to as usize]
                };
            }
            let filler = segment[self.busy.trailing_zeros() as usize];
            let idle = !self.busy & ((1u32 << self.imp.lanes()) - 1);
            for l in lanes_in(idle) {
                segment[l] = filler;
            }
            let n = lanes_in(self.busy).map(|l| segment[l].len()).min().unwrap_or(0);
            self.imp.compress(self.single, &mut self.state, &segment);
            for l in lanes_in(self.busy) {
                if self.prefixed & (1 << l) != 0 {
                    self.prefixed &= !(1 << l);
                } else if !self.body[l].is_empty() {
                    self.body[l] = &self.body[l][n..];
                } else {
                    self.tail[l].0 += n as u8;
                    if self.tail[l].0 == self.tail[l].1 {
                        self.busy &= !(1 << l);
                        self.done |= 1 << l;
                    }
                }
            }
            if self.done != 0 {
                return;
            }
        }
    }
}

impl Default for Sha256Many<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Sha256Many<'_> {
    /// Names the implementation only: lanes may hold secret data.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sha256Many")
            .field("implementation", &self.imp.name())
            .finish_non_exhaustive()
    }
}

impl Drop for Sha256Many<'_> {
    fn drop(&mut self) {
        crate::wipe(self.prefix.as_flattened_mut());
        crate::wipe(self.tails.as_flattened_mut().as_flattened_mut());
        self.state = [[0; MAX_LANES]; 8];
        zeroize::optimization_barrier(&self.state);
    }
}

impl Hmac<Sha256> {
    /// HMAC-SHA-256 (RFC 2104) of each `(key, message)` pair into `out` (one slot per pair, in
    /// order), inner and outer hashes both run side by side on the best multi-buffer
    /// implementation; the same tags as [`Hmac::mac`] of each.
    pub fn mac_many(pairs: &[(&[u8], &[u8])], out: &mut [[u8; 32]]) -> Result<(), CountMismatch> {
        Self::mac_many_with(Sha256MbImpl::best(), pairs, out)
    }

    /// [`mac_many`](Self::mac_many) on the given multi-buffer implementation.
    pub fn mac_many_with(
        imp: Sha256MbImpl,
        pairs: &[(&[u8], &[u8])],
        out: &mut [[u8; 32]],
    ) -> Result<(), CountMismatch> {
        check_counts(pairs.len(), out.len())?;
        if imp == Sha256MbImpl::Sequential {
            for ((key, message), o) in pairs.iter().zip(out.iter_mut()) {
                *o = Self::mac(key, message);
            }
            return Ok(());
        }
        // The inner hashes, H((K ⊕ ipad) ‖ m), land in `out`; the outer ones,
        // H((K ⊕ opad) ‖ inner), replace them.
        for outer in [false, true] {
            let mut many = Sha256Many::with_impl(imp);
            for (i, (key, message)) in pairs.iter().enumerate() {
                let mut block = padded_key(key, if outer { 0x5c } else { 0x36 });
                if outer {
                    let Some(inner) = out.get(i).copied() else { break };
                    many.load(i, Some(&block), &[], &inner, 64 + 32);
                } else {
                    let (body, tail) = message.as_chunks::<64>();
                    many.load(i, Some(&block), body, tail, 64 + message.len() as u64);
                }
                crate::wipe(&mut block);
                many.flush_if_full_into(out);
            }
            while many.flush_into(|id| out.get_mut(id)).is_some() {}
        }
        Ok(())
    }
}

/// The HMAC key block K ⊕ `pad` (RFC 2104 §2): keys longer than a block are hashed first.
fn padded_key(key: &[u8], pad: u8) -> [u8; 64] {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        let mut digest = Sha256::digest(key);
        block[..32].copy_from_slice(&digest);
        crate::wipe(&mut digest);
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    for b in &mut block {
        *b ^= pad;
    }
    block
}
