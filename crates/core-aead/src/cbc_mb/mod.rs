//! Multi-buffer AES-CBC encryption: many independent (key, IV, buffer) streams encrypted at
//! once, one stream per lane, as OpenSSL's `aesni_multi_cbc_encrypt` and Intel's
//! multi-buffer manager do. CBC encryption is a serial chain within a stream (each block
//! waits for the previous one's ten to fourteen rounds), so a single stream leaves the AES
//! unit idle for most of every round's latency; independent streams fill those slots.
//!
//! The scheduler keeps the lanes busy when lengths differ: a lane whose stream ends is
//! handed the next one while the others continue, and the kernel runs every lane for as many
//! blocks as the shortest current stream has left. Each lane has its own key, so the round
//! keys are kept transposed (`keys[round][lane]`: one row is what a wide register loads for
//! four neighbouring lanes). Streams are grouped by key length, as the round counts differ.
//! Everything sits on the stack, sized for [`CBC_MAX_LANES`], and is wiped afterwards.

#[cfg(target_arch = "x86_64")]
mod x86_aesni;
#[cfg(target_arch = "x86_64")]
mod x86_vaes512;

use crate::{Aes, Error, Implementation};
use core::fmt;

core_hash::implementation_enum! {
    /// A multi-buffer AES-CBC encryption implementation: how many streams run side by side,
    /// and on what. Accelerated variants carry the CPU-feature token that proves they can run.
    pub enum CbcMbImpl {
        accelerated {
            /// Four streams per ZMM register of VAES, four registers: sixteen streams.
            X86Vaes512(core_cpu::Vaes512) => "x86_vaes512",
            /// AES-NI, eight streams interleaved so that `aesenc`'s latency is hidden.
            X86Aesni(core_cpu::Aes) => "x86_aesni",
        }
        portable {
            /// One stream after another on each key's own implementation.
            Sequential => "sequential",
        }
    }
}

/// The most lanes any implementation runs (VAES-512's four registers of four blocks).
pub const CBC_MAX_LANES: usize = 16;

/// Blocks an idle lane may run at a time: idle lanes (when fewer streams than lanes are
/// left) encrypt a scratch buffer of this many blocks, so the kernel needs no lane mask.
const SCRATCH_BLOCKS: usize = 8;

/// Round keys of every lane, transposed: `keys[r][l]` is round key `r` of lane `l`.
pub(crate) type LaneKeys = [[[u8; 16]; CBC_MAX_LANES]; 15];

/// One stream of a multi-buffer CBC encryption: `buf` (whole blocks) is encrypted in place
/// under `key`, chaining from `iv`, which afterwards holds the last ciphertext block (as
/// [`Aes::cbc_encrypt`] leaves it), so a stream can be continued.
pub struct CbcStream<'a> {
    /// The stream's key, on any implementation.
    pub key: &'a Aes,
    /// The chaining value: the IV before, the last ciphertext block after.
    pub iv: [u8; 16],
    /// The plaintext, replaced by the ciphertext; a multiple of 16 bytes.
    pub buf: &'a mut [u8],
}

impl fmt::Debug for CbcStream<'_> {
    /// The length only: the buffer and chain may be secret.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CbcStream").field("len", &self.buf.len()).finish_non_exhaustive()
    }
}

impl CbcMbImpl {
    /// How many streams this implementation encrypts side by side.
    #[must_use]
    pub fn lanes(self) -> usize {
        match self {
            Self::X86Vaes512(_) => 16,
            Self::X86Aesni(_) => 8,
            Self::Sequential => 1,
        }
    }

    /// Encrypts every stream in CBC mode (SP 800-38A §6.2), side by side; the result is the
    /// same as [`Aes::cbc_encrypt`] on each. A buffer that is not a whole number of blocks is
    /// [`Error::InvalidLength`], found before anything is encrypted.
    pub fn cbc_encrypt(self, streams: &mut [CbcStream<'_>]) -> Result<(), Error> {
        if streams.iter().any(|s| !s.buf.len().is_multiple_of(16)) {
            return Err(Error::InvalidLength);
        }
        // Keys without a schedule for the AES instructions go one by one, as does everything
        // on `Sequential`.
        let lanes = self.lanes();
        for s in streams.iter_mut().filter(|s| lanes == 1 || s.key.x86_enc_keys().is_none()) {
            s.key.cbc_encrypt(&mut s.iv, s.buf)?;
        }
        if lanes > 1 {
            for rounds in [10, 12, 14] {
                let mut group = streams
                    .iter_mut()
                    .filter(|s| s.key.x86_enc_keys().is_some_and(|(_, r)| r == rounds));
                Scheduler::new(self, rounds).run(&mut group);
            }
        }
        Ok(())
    }
}

impl Aes {
    /// Encrypts many independent CBC streams, each under its own key and IV, side by side on
    /// the best multi-buffer implementation for this CPU (see [`CbcMbImpl::cbc_encrypt`]).
    /// Lengths may differ freely: lanes are refilled as streams end.
    ///
    /// ```
    /// use core_aead::{Aes, CbcStream};
    ///
    /// let (k1, k2) = (Aes::new(&[1; 16]).unwrap(), Aes::new(&[2; 32]).unwrap());
    /// let (mut a, mut b) = ([7u8; 64], [9u8; 1024]);
    /// let mut streams = [
    ///     CbcStream { key: &k1, iv: [0; 16], buf: &mut a },
    ///     CbcStream { key: &k2, iv: [3; 16], buf: &mut b },
    /// ];
    /// Aes::cbc_encrypt_many(&mut streams).unwrap();
    ///
    /// let (mut one, mut iv) = ([7u8; 64], [0; 16]);
    /// k1.cbc_encrypt(&mut iv, &mut one).unwrap();
    /// assert_eq!(one, a);
    /// ```
    pub fn cbc_encrypt_many(streams: &mut [CbcStream<'_>]) -> Result<(), Error> {
        CbcMbImpl::best().cbc_encrypt(streams)
    }
}

/// The lanes in `mask`, lowest first.
fn lanes_in(mut mask: u32) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        let l = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (l < CBC_MAX_LANES).then_some(l)
    })
}

/// The lanes of one run over streams whose keys have the same number of rounds.
struct Scheduler<'s> {
    imp: CbcMbImpl,
    rounds: usize,
    keys: LaneKeys,
    chain: [[u8; 16]; CBC_MAX_LANES],
    /// Per busy lane: the blocks still to encrypt and where its chaining value goes.
    rest: [&'s mut [[u8; 16]]; CBC_MAX_LANES],
    iv: [Option<&'s mut [u8; 16]>; CBC_MAX_LANES],
    busy: u32,
    /// What idle lanes encrypt.
    scratch: [[[u8; 16]; SCRATCH_BLOCKS]; CBC_MAX_LANES],
}

impl<'s> Scheduler<'s> {
    fn new(imp: CbcMbImpl, rounds: usize) -> Self {
        Self {
            imp,
            rounds,
            keys: [[[0; 16]; CBC_MAX_LANES]; 15],
            chain: [[0; 16]; CBC_MAX_LANES],
            rest: core::array::from_fn(|_| <&mut [[u8; 16]]>::default()),
            iv: core::array::from_fn(|_| None),
            busy: 0,
            scratch: [[[0; 16]; SCRATCH_BLOCKS]; CBC_MAX_LANES],
        }
    }

    /// Encrypts every stream `streams` yields (their keys have a hardware schedule of
    /// `self.rounds` rounds), refilling lanes as streams end.
    fn run<'a: 's>(mut self, streams: &mut impl Iterator<Item = &'s mut CbcStream<'a>>) {
        let all = (1u32 << self.imp.lanes()) - 1;
        loop {
            for l in lanes_in(all & !self.busy) {
                // Empty streams have nothing to encrypt and keep their IV.
                let Some(s) = streams.by_ref().find(|s| !s.buf.is_empty()) else { break };
                let Some((enc, _)) = s.key.x86_enc_keys() else { continue };
                for (row, k) in self.keys.iter_mut().zip(enc) {
                    row[l] = *k;
                }
                self.chain[l] = s.iv;
                self.rest[l] = s.buf.as_chunks_mut::<16>().0;
                self.iv[l] = Some(&mut s.iv);
                self.busy |= 1 << l;
            }
            if self.busy == 0 {
                return;
            }
            let idle = all & !self.busy;
            let shortest = lanes_in(self.busy).map(|l| self.rest[l].len()).min().unwrap_or(0);
            let n = if idle == 0 { shortest } else { shortest.min(SCRATCH_BLOCKS) };
            let mut blocks: [&mut [[u8; 16]]; CBC_MAX_LANES] =
                core::array::from_fn(|_| <&mut [[u8; 16]]>::default());
            for ((l, lane), scratch) in blocks.iter_mut().enumerate().zip(&mut self.scratch) {
                *lane = if self.busy & (1 << l) != 0 {
                    let (head, tail) = core::mem::take(&mut self.rest[l]).split_at_mut(n);
                    self.rest[l] = tail;
                    head
                } else if idle & (1 << l) != 0 {
                    &mut scratch[..n]
                } else {
                    // Past this implementation's lanes: never read.
                    &mut []
                };
            }
            self.imp.kernel(self.rounds, &self.keys, &mut self.chain, &mut blocks);
            for l in lanes_in(self.busy) {
                if self.rest[l].is_empty() {
                    if let Some(iv) = self.iv[l].take() {
                        *iv = self.chain[l];
                    }
                    self.busy &= !(1 << l);
                }
            }
        }
    }
}

impl CbcMbImpl {
    /// Runs every lane (up to [`lanes`](Self::lanes)) over its blocks, all the same number.
    #[inline]
    fn kernel(
        self,
        rounds: usize,
        keys: &LaneKeys,
        chain: &mut [[u8; 16]; CBC_MAX_LANES],
        blocks: &mut [&mut [[u8; 16]]; CBC_MAX_LANES],
    ) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Self::X86Vaes512(token) => x86_vaes512::cbc_encrypt(token, rounds, keys, chain, blocks),
            #[cfg(target_arch = "x86_64")]
            Self::X86Aesni(token) => x86_aesni::cbc_encrypt(token, rounds, keys, chain, blocks),
            // Never called with one lane; tokens of another architecture cannot be obtained.
            _ => {
                let _ = (rounds, keys, chain, blocks);
            }
        }
    }
}

impl Drop for Scheduler<'_> {
    fn drop(&mut self) {
        crate::chacha20::wipe(self.keys.as_flattened_mut());
        crate::chacha20::wipe(&mut self.chain);
        crate::chacha20::wipe(self.scratch.as_flattened_mut());
    }
}
