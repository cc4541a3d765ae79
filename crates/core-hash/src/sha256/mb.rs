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
            put(out, many.submit(i, m));
        }
        while let Some(done) = many.flush() {
            put(out, Some(done));
        }
        Ok(())
    }
}

/// Stores a finished digest in its caller's slot.
fn put(out: &mut [[u8; 32]], done: Option<(usize, [u8; 32])>) {
    if let Some((id, digest)) = done
        && let Some(o) = out.get_mut(id)
    {
        *o = digest;
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

/// Where one lane is in its stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// No message.
    Free,
    /// Blocks left to run.
    Busy,
    /// Finished: the digest is in the state, waiting to be handed out.
    Done,
}

/// One lane's message: an id for the caller, and the blocks still to run — the prefix block
/// in `buf[0]` if `prefix`, then `body`, then `buf[tail.0..tail.1]`.
#[derive(Clone, Copy, Debug)]
struct Lane<'a> {
    id: usize,
    phase: Phase,
    prefix: bool,
    body: &'a [[u8; 64]],
    tail: (usize, usize),
}

impl Lane<'_> {
    const FREE: Self = Self { id: 0, phase: Phase::Free, prefix: false, body: &[], tail: (1, 1) };
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
    lanes: [Lane<'a>; MAX_LANES],
    /// Per lane: the prefix block, then the padded final one or two blocks.
    buf: [[[u8; 64]; 3]; MAX_LANES],
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
            lanes: [Lane::FREE; MAX_LANES],
            buf: [[[0; 64]; 3]; MAX_LANES],
        }
    }

    /// The implementation this scheduler runs on.
    #[must_use]
    pub fn implementation(&self) -> Sha256MbImpl {
        self.imp
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
        if self.lanes[..self.imp.lanes()].iter().any(|l| l.phase == Phase::Free) {
            None
        } else {
            self.flush()
        }
    }

    /// Returns a finished digest if there is one, or else runs the busy lanes until a message
    /// ends and returns it; `None` once nothing is left.
    pub fn flush(&mut self) -> Option<(usize, [u8; 32])> {
        if !self.lanes.iter().any(|l| l.phase == Phase::Done) {
            self.run();
        }
        let l = self.lanes.iter().position(|l| l.phase == Phase::Done)?;
        self.lanes[l].phase = Phase::Free;
        let mut digest = [0u8; 32];
        for (chunk, row) in digest.chunks_exact_mut(4).zip(self.state.iter()) {
            chunk.copy_from_slice(&row[l].to_be_bytes());
        }
        Some((self.lanes[l].id, digest))
    }

    /// Puts a message into a free lane: the lane's state starts at the IV, the stream is
    /// `prefix` (if any), `body`, then `tail` (shorter than a block) with the padding for a
    /// message of `len` bytes in all. The caller keeps a lane free (`submit` runs as soon as
    /// none is).
    fn load(
        &mut self,
        id: usize,
        prefix: Option<&[u8; 64]>,
        body: &'a [[u8; 64]],
        tail: &[u8],
        len: u64,
    ) {
        let lanes = self.imp.lanes();
        let Some(l) = self.lanes[..lanes].iter().position(|l| l.phase == Phase::Free) else {
            return;
        };
        for (row, word) in self.state.iter_mut().zip(Sha256::IV) {
            row[l] = word;
        }
        let buf = &mut self.buf[l];
        if let Some(p) = prefix {
            buf[0] = *p;
        }
        let mut last = [[0u8; 64]; 2];
        let n = crate::md::pad_tail::<64, 8>(&mut last, tail, len, true);
        buf[1..3].copy_from_slice(&last);
        crate::wipe(last.as_flattened_mut());
        self.lanes[l] =
            Lane { id, phase: Phase::Busy, prefix: prefix.is_some(), body, tail: (1, 1 + n) };
    }

    /// Runs the busy lanes until at least one message ends (nothing if none is busy).
    fn run(&mut self) {
        let Self { imp, single, state, lanes, buf } = self;
        let count = imp.lanes();
        loop {
            // The current segment of every busy lane, and the shortest one's length.
            let segment = |l: usize| -> &[[u8; 64]] {
                let lane = &lanes[l];
                if lane.prefix {
                    &buf[l][..1]
                } else if !lane.body.is_empty() {
                    lane.body
                } else {
                    &buf[l][lane.tail.0..lane.tail.1]
                }
            };
            let busy = |l: &usize| lanes[*l].phase == Phase::Busy;
            let Some(n) = (0..count).filter(busy).map(|l| segment(l).len()).min() else {
                return;
            };
            // Idle lanes run over a busy lane's blocks, and their results are never read.
            let filler = (0..count).find(busy).map_or(&[][..], segment);
            let blocks: [&[[u8; 64]]; MAX_LANES] = core::array::from_fn(|l| {
                let s =
                    if l < count && lanes[l].phase == Phase::Busy { segment(l) } else { filler };
                &s[..n]
            });
            imp.compress(*single, state, &blocks);
            let mut ended = false;
            for lane in lanes[..count].iter_mut().filter(|l| l.phase == Phase::Busy) {
                if lane.prefix {
                    lane.prefix = false;
                } else if !lane.body.is_empty() {
                    lane.body = &lane.body[n..];
                } else {
                    lane.tail.0 += n;
                    if lane.tail.0 == lane.tail.1 {
                        lane.phase = Phase::Done;
                        ended = true;
                    }
                }
            }
            if ended {
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
        crate::wipe(self.buf.as_flattened_mut().as_flattened_mut());
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
                put(out, many.flush_if_full());
            }
            while let Some(done) = many.flush() {
                put(out, Some(done));
            }
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
