//! The AES block cipher (FIPS 197) with 128-, 192- and 256-bit keys, on five implementations:
//!
//! - [`ct64`]: bitsliced over 64-bit words, four blocks at a time (portable default on 64-bit);
//! - [`ct32`]: bitsliced over 32-bit words, two blocks at a time (32-bit default);
//! - `thumb1`: ct32 with its hot steps in Thumb-1 assembly (the Cortex-M0, with `asm`);
//! - [`x86_aesni`]: AES-NI, eight blocks in flight;
//! - [`x86_vaes`]: VAES on 256-bit registers with AVX2 (16 blocks in flight) or on 512-bit
//!   registers with AVX-512 (32 blocks, `x86_vaes512`);
//! - `aarch64`: the Armv8 AES instructions (`aese`/`aesmc`), eight blocks in flight.
//!
//! None uses a table: the key expansion runs `SubWord` through the bitsliced circuit, so even
//! key setup has no secret-dependent memory access. The schedule is built once, when the key
//! is, in the form its implementation wants, and wiped when the key is dropped.

mod bitslice;
// Only its shared loops and key schedule run on the Cortex-M0 without `portable-twins`.
#[cfg_attr(
    not(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins")),
    allow(dead_code)
)]
mod ct32;
// On 32-bit targets only its ShiftRows (shared with ct32 through `bitslice`) is used.
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
mod ct64;

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(all(feature = "asm", target_arch = "arm"))]
mod thumb1;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_aesni;
#[cfg(target_arch = "x86_64")]
mod x86_vaes;

use crate::{Error, Implementation};
use core::fmt;
use zeroize::Zeroize;

core_hash::implementation_enum! {
    /// An AES implementation. Accelerated variants carry the CPU-feature token that proves they
    /// can run, so they can only be obtained through [`Implementation::available`](crate::Implementation::available).
    /// The bitsliced code for the native word size comes first: ct64's 64-bit shifts cost two
    /// or more instructions each on a 32-bit core.
    pub enum AesImpl {
        accelerated {
            /// VAES with AVX-512, thirty-two blocks in flight.
            X86Vaes512(core_cpu::Vaes512) => "x86_vaes512",
            /// VAES with AVX2, sixteen blocks in flight.
            X86Vaes(core_cpu::VaesAvx2) => "x86_vaes",
            /// AES-NI, eight blocks in flight.
            X86Aesni(core_cpu::Aes) => "x86_aesni",
            /// Armv8 AES instructions, eight blocks in flight.
            Aarch64(core_cpu::ArmAes) => "aarch64",
        }
        portable {
            /// Bitsliced over 64-bit words, four blocks at a time.
            /// Only on 64-bit targets: elsewhere it would be slower than ct32 and only cost flash.
            Ct64 => "ct64" for 64 if target_pointer_width = "64",
            /// ct32 with its S-box, round and transposition in Thumb-1 assembly: the Cortex-M0.
            Thumb1 => "thumb1" for 32 if thumb1,
            /// Bitsliced over 32-bit words, two blocks at a time: `thumb1`'s twin.
            Ct32 => "ct32" for 32 if twin,
        }
    }
}

/// The FIPS 197 §5.2 key expansion: `rk[i]` is round key `i` as four little-endian words (the
/// bitsliced 32-bit code takes them as they are); [`bytes`](Self::bytes) gives the state's
/// byte order, as the AES instructions load it.
// Only ct32 and thumb1 run where the pointer is 32 bits, and they expand with
// `expand_words_with`.
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
pub(crate) struct RoundKeys {
    rk: [[u32; 4]; 15],
    rounds: usize,
}

#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
impl RoundKeys {
    /// Expands a 16-, 24- or 32-byte key.
    fn expand(key: &[u8]) -> Result<Self, Error> {
        Self::expand_with(key, ct32::sub_word::<ct32::Ct32>)
    }

    /// [`RoundKeys::expand`] with another `SubWord` (one that uses the AES instructions).
    fn expand_with(key: &[u8], sub_word: impl Fn(u32) -> u32) -> Result<Self, Error> {
        key_rounds(key.len())?;
        let mut rk = [[0u32; 4]; 15];
        let rounds = expand_words_with(key, rk.as_flattened_mut(), sub_word);
        Ok(Self { rk, rounds })
    }

    /// Round key `i` as bytes. The caller wipes the copy.
    pub(crate) fn bytes(&self, i: usize) -> [u8; 16] {
        core::array::from_fn(|j| (self.rk[i][j / 4] >> (8 * (j % 4))) as u8)
    }
}

/// `Nr` for a key of `len` bytes (FIPS 197 §5, figure 4), or the error for any other length.
fn key_rounds(len: usize) -> Result<usize, Error> {
    match len {
        16 => Ok(10),
        24 => Ok(12),
        32 => Ok(14),
        _ => Err(Error::InvalidKeyLength),
    }
}

/// The FIPS 197 §5.2 key expansion of a key of a length [`key_rounds`] accepts into
/// `w[..4·(Nr + 1)]` (little-endian words, four per round key; `w` holds at least 60), with
/// the given `SubWord`: returns `Nr`. Separate from [`RoundKeys`] so that ct32 can expand into
/// its own schedule's storage; the `SubWord` is the implementation's (the bitsliced one costs
/// two orthogonalizations and a bitsliced S-box per call, where AES-NI's `aeskeygenassist` is
/// one instruction).
fn expand_words_with(key: &[u8], w: &mut [u32], sub_word: impl Fn(u32) -> u32) -> usize {
    let nk = key.len() / 4;
    let rounds = nk + 6;
    // Words are little-endian, so byte 0 of a word is its low byte.
    for (word, bytes) in w.iter_mut().zip(key.as_chunks::<4>().0) {
        *word = u32::from_le_bytes(*bytes);
    }
    let mut rcon = 1u32;
    for i in nk..w.len().min(4 * (rounds + 1)) {
        let mut t = w[i - 1];
        if i % nk == 0 {
            // RotWord moves byte 1 to byte 0; Rcon goes into byte 0.
            t = sub_word(t.rotate_right(8)) ^ rcon;
            rcon = (rcon << 1) ^ (0x11b & 0u32.wrapping_sub(rcon >> 7));
        } else if nk > 6 && i % nk == 4 {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    rounds
}

impl Drop for RoundKeys {
    fn drop(&mut self) {
        self.rk.zeroize();
    }
}

/// Multiplication by x in GF(2^8), without a branch.
#[cfg(any(target_arch = "aarch64", all(test, target_arch = "x86_64")))]
fn xtime(b: u8) -> u8 {
    (b << 1) ^ (0x1b & 0u8.wrapping_sub(b >> 7))
}

/// FIPS 197 §5.3.3 `InvMixColumns` on one round key, for the equivalent inverse cipher.
// x86 uses `aesimc` (see `x86_aesni::expand_key`).
#[cfg(any(target_arch = "aarch64", all(test, target_arch = "x86_64")))]
fn inv_mix_columns(block: &[u8; 16]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (o, a) in out.chunks_exact_mut(4).zip(block.chunks_exact(4)) {
        // (0e 0b 0d 09) = (02 03 01 01) · (05 00 04 00), as in the bitsliced code.
        let u: [u8; 4] = core::array::from_fn(|r| a[r] ^ xtime(xtime(a[r] ^ a[(r + 2) % 4])));
        for r in 0..4 {
            let t = u[r] ^ u[(r + 1) % 4];
            o[r] = xtime(t) ^ u[(r + 1) % 4] ^ u[(r + 2) % 4] ^ u[(r + 3) % 4];
        }
    }
    out
}

/// The schedule the AES instructions use: encryption round keys as expanded, and decryption
/// keys for the equivalent inverse cipher (FIPS 197 §5.3.5) — in reverse order, the middle
/// ones through `InvMixColumns` — which is what both `aesdec` and `aesd`+`aesimc` expect.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[derive(Clone)]
pub(crate) struct HwKey {
    pub(crate) enc: [[u8; 16]; 15],
    pub(crate) dec: [[u8; 16]; 15],
    pub(crate) rounds: usize,
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
impl HwKey {
    // x86 keys are built by `x86_aesni::expand_key`, with the AES instructions.
    #[cfg(any(target_arch = "aarch64", all(test, target_arch = "x86_64")))]
    fn new(keys: &RoundKeys) -> Self {
        Self::with_inv_mix(keys, inv_mix_columns)
    }

    /// The schedule from `keys`, the decryption keys through the given `InvMixColumns`.
    fn with_inv_mix(keys: &RoundKeys, inv_mix_columns: impl Fn(&[u8; 16]) -> [u8; 16]) -> Self {
        let rounds = keys.rounds;
        let mut enc = [[0u8; 16]; 15];
        for (i, e) in enc[..=rounds].iter_mut().enumerate() {
            *e = keys.bytes(i);
        }
        let mut dec = [[0u8; 16]; 15];
        dec[0] = enc[rounds];
        for i in 1..rounds {
            dec[i] = inv_mix_columns(&enc[rounds - i]);
        }
        dec[rounds] = enc[0];
        Self { enc, dec, rounds }
    }
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
impl Drop for HwKey {
    // A vectorised fill behind a barrier, not a volatile write per byte (480 bytes per key).
    fn drop(&mut self) {
        crate::chacha20::wipe(&mut self.enc);
        crate::chacha20::wipe(&mut self.dec);
    }
}

/// Fewer blocks than this go through AES-NI even when the key is for VAES: a wide register
/// would be mostly empty, and its loop pads a partial group through a buffer (CCM's
/// one-block CBC-MAC steps and GCM's hash key are the callers that matter).
#[cfg(target_arch = "x86_64")]
const FEW: usize = 8;

/// A key schedule for the AES instructions, with the token that proves they can run.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[derive(Clone)]
pub(crate) struct Hw<T>(pub(crate) T, pub(crate) HwKey);

/// What an AES implementation does with its key schedule: each backend file implements it for
/// its schedule type, and [`Schedule`] for the enum of them, by one `match` per call. The
/// provided methods are the generic loops over [`Backend::encrypt_blocks`], for the
/// implementations without a dedicated one.
pub(crate) trait Backend {
    /// The implementation this schedule is for.
    fn implementation(&self) -> AesImpl;

    /// Encrypts independent blocks in place, as many in parallel as the implementation can.
    fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]);

    /// Decrypts independent blocks in place.
    fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]);

    /// CTR with a 32-bit big-endian counter, as [`Aes::ctr32`] describes it.
    fn ctr32(&self, ctr: &mut [u8; 16], buf: &mut [u8]);

    /// CBC encryption of whole blocks, as [`Aes::cbc_encrypt_blocks`] describes it: here one
    /// block at a time through [`Backend::encrypt_blocks`].
    #[inline(always)]
    fn cbc_encrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
        for block in blocks {
            for (b, v) in block.iter_mut().zip(iv.iter()) {
                *b ^= v;
            }
            self.encrypt_blocks(core::slice::from_mut(block));
            *iv = *block;
        }
    }

    /// CBC decryption of whole blocks, as [`Aes::cbc_decrypt_blocks`] describes it: here none
    /// (`false`), so the caller batches through [`Backend::decrypt_blocks`].
    #[inline(always)]
    fn cbc_decrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) -> bool {
        let _ = (iv, blocks);
        false
    }

    /// CCM's payload pass, as [`Aes::ccm_payload`] describes it: here through two-block calls
    /// of [`Backend::encrypt_blocks`] (one pass of the bitsliced rounds).
    #[inline(always)]
    fn ccm_payload<const ENCRYPT: bool>(
        &self,
        mac: &mut [u8; 16],
        ks: &mut [u8; 16],
        ctr: &mut [u8; 16],
        buf: &mut [u8],
    ) {
        let mut c = counter(ctr);
        let mut lanes = [[0u8; 16]; 2];
        for chunk in buf.chunks_mut(16) {
            let mut plain = [0u8; 16];
            plain[..chunk.len()].copy_from_slice(chunk);
            for (i, (b, k)) in chunk.iter_mut().zip(ks.iter()).enumerate() {
                *b ^= k;
                if !ENCRYPT {
                    plain[i] = *b;
                }
            }
            for (m, p) in lanes[0].iter_mut().zip(mac.iter().zip(&plain)) {
                *m = p.0 ^ p.1;
            }
            lanes[1] = *ctr;
            set_counter(&mut lanes[1], c);
            c = c.wrapping_add(1);
            self.encrypt_blocks(&mut lanes);
            [*mac, *ks] = lanes;
        }
        set_counter(ctr, c);
        lanes.zeroize();
    }

    /// The encryption round keys and round count for the x86 AES instructions, if this
    /// schedule is theirs (see [`Aes::x86_enc_keys`]).
    #[inline(always)]
    fn x86_enc_keys(&self) -> Option<(&[[u8; 16]; 15], usize)> {
        None
    }
}

/// Declares [`Schedule`] with one variant per implementation compiled for the target, and its
/// [`Backend`] as one `match` per method: the only place the implementations' `cfg`s appear
/// besides [`AesImpl`] and [`Aes::with_impl`].
macro_rules! schedules {
    ($($(#[$cfg:meta])* $variant:ident($schedule:ty),)*) => {
        /// A key schedule in the form of the implementation chosen for it (ring's `DynKey`):
        /// the per-call dispatch is one `match`, never a fresh CPU check. Each variant is named
        /// after its [`AesImpl`].
        // No allocator: the schedule lives inline, and the bitsliced 64-bit one is the largest.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone)]
        pub(crate) enum Schedule {
            $($(#[$cfg])* $variant($schedule),)*
        }

        // Each arm inlines its backend's method, so a call costs what a `match` on the
        // schedule with the backend's code in its arms did.
        impl Backend for Schedule {
            #[inline(always)]
            fn implementation(&self) -> AesImpl {
                match self { $($(#[$cfg])* Self::$variant(k) => k.implementation(),)* }
            }

            #[inline(always)]
            fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                match self { $($(#[$cfg])* Self::$variant(k) => k.encrypt_blocks(blocks),)* }
            }

            #[inline(always)]
            fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                match self { $($(#[$cfg])* Self::$variant(k) => k.decrypt_blocks(blocks),)* }
            }

            #[inline(always)]
            fn ctr32(&self, ctr: &mut [u8; 16], buf: &mut [u8]) {
                match self { $($(#[$cfg])* Self::$variant(k) => k.ctr32(ctr, buf),)* }
            }

            #[inline(always)]
            fn cbc_encrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
                match self {
                    $($(#[$cfg])* Self::$variant(k) => k.cbc_encrypt_blocks(iv, blocks),)*
                }
            }

            #[inline(always)]
            fn cbc_decrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) -> bool {
                match self {
                    $($(#[$cfg])* Self::$variant(k) => k.cbc_decrypt_blocks(iv, blocks),)*
                }
            }

            #[inline(always)]
            fn ccm_payload<const ENCRYPT: bool>(
                &self,
                mac: &mut [u8; 16],
                ks: &mut [u8; 16],
                ctr: &mut [u8; 16],
                buf: &mut [u8],
            ) {
                match self {
                    $($(#[$cfg])* Self::$variant(k) => k.ccm_payload::<ENCRYPT>(mac, ks, ctr, buf),)*
                }
            }

            #[inline(always)]
            fn x86_enc_keys(&self) -> Option<(&[[u8; 16]; 15], usize)> {
                match self { $($(#[$cfg])* Self::$variant(k) => k.x86_enc_keys(),)* }
            }
        }
    };
}

schedules! {
    #[cfg(target_pointer_width = "64")]
    Ct64(ct64::Key),
    #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
    Ct32(ct32::Key<ct32::Ct32>),
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Thumb1(ct32::Key<thumb1::Thumb1>),
    #[cfg(target_arch = "x86_64")]
    X86Aesni(Hw<core_cpu::Aes>),
    #[cfg(target_arch = "x86_64")]
    X86Vaes(Hw<core_cpu::VaesAvx2>),
    #[cfg(target_arch = "x86_64")]
    X86Vaes512(Hw<core_cpu::Vaes512>),
    #[cfg(target_arch = "aarch64")]
    Aarch64(Hw<core_cpu::ArmAes>),
}

/// An AES key, expanded for one implementation. Dropping it wipes the schedule.
///
/// ```
/// use core_aead::Aes;
///
/// let aes = Aes::new(&[0u8; 16]).unwrap();
/// let mut block = [0u8; 16];
/// aes.encrypt_block(&mut block);
/// assert_eq!(block[..4], [0x66, 0xe9, 0x4b, 0xd4]);
/// aes.decrypt_block(&mut block);
/// assert_eq!(block, [0u8; 16]);
/// ```
#[derive(Clone)]
pub struct Aes {
    pub(crate) schedule: Schedule,
    key_len: usize,
}

impl fmt::Debug for Aes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Aes")
            .field("implementation", &self.implementation().name())
            .field("key_bits", &(8 * self.key_len))
            .finish_non_exhaustive()
    }
}

impl Aes {
    /// Expands a 16-, 24- or 32-byte key on the preferred implementation for this CPU
    /// ([`AesImpl::preferred`]).
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_impl(AesImpl::preferred(), key)
    }

    /// Expands a 16-, 24- or 32-byte key for the given implementation.
    pub fn with_impl(imp: AesImpl, key: &[u8]) -> Result<Self, Error> {
        key_rounds(key.len())?;
        // ct32 expands in its own schedule's storage: no second copy of the round keys on
        // the stack of a Cortex-M0.
        #[cfg(target_pointer_width = "64")]
        let keys = || RoundKeys::expand(key);
        let schedule = match imp {
            #[cfg(target_arch = "x86_64")]
            AesImpl::X86Aesni(token) => {
                Schedule::X86Aesni(Hw(token, x86_aesni::expand_key(token, key)?))
            }
            #[cfg(target_arch = "x86_64")]
            AesImpl::X86Vaes(token) => {
                Schedule::X86Vaes(Hw(token, x86_aesni::expand_key(token.weaken(), key)?))
            }
            #[cfg(target_arch = "x86_64")]
            AesImpl::X86Vaes512(token) => {
                Schedule::X86Vaes512(Hw(token, x86_aesni::expand_key(token.weaken(), key)?))
            }
            #[cfg(target_arch = "aarch64")]
            AesImpl::Aarch64(token) => Schedule::Aarch64(Hw(token, HwKey::new(&keys()?))),
            #[cfg(target_pointer_width = "64")]
            AesImpl::Ct64 => Schedule::Ct64(ct64::Key::new(&keys()?)),
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            AesImpl::Thumb1 => Schedule::Thumb1(ct32::Key::new(key)),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            AesImpl::Ct32 => Schedule::Ct32(ct32::Key::new(key)),
            // Tokens for another architecture cannot be obtained.
            _ => return Self::with_impl(AesImpl::PORTABLE, key),
        };
        Ok(Self { schedule, key_len: key.len() })
    }

    /// The implementation this key was expanded for.
    pub fn implementation(&self) -> AesImpl {
        self.schedule.implementation()
    }

    /// The encryption round keys and round count for the x86 AES instructions, if this key
    /// was expanded for them (the multi-buffer CBC kernels take any such key, whichever x86
    /// implementation holds it).
    pub(crate) fn x86_enc_keys(&self) -> Option<(&[[u8; 16]; 15], usize)> {
        self.schedule.x86_enc_keys()
    }

    /// The key length in bytes: 16, 24 or 32.
    pub fn key_len(&self) -> usize {
        self.key_len
    }

    /// Encrypts one block in place (the bare cipher: use a mode for messages).
    pub fn encrypt_block(&self, block: &mut [u8; 16]) {
        self.encrypt_blocks(core::slice::from_mut(block));
    }

    /// Decrypts one block in place.
    pub fn decrypt_block(&self, block: &mut [u8; 16]) {
        self.decrypt_blocks(core::slice::from_mut(block));
    }

    /// Encrypts independent blocks in place, as many in parallel as the implementation can.
    pub(crate) fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        self.schedule.encrypt_blocks(blocks);
    }

    /// Decrypts independent blocks in place.
    pub(crate) fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        self.schedule.decrypt_blocks(blocks);
    }

    /// XORs `buf` with the keystream of CTR mode (SP 800-38A §6.5) from the counter block
    /// `ctr`, whose last four bytes are a big-endian counter incremented modulo 2^32 (GCM's
    /// inc32). Afterwards `ctr` is advanced by one per block, a final partial block included.
    pub(crate) fn ctr32(&self, ctr: &mut [u8; 16], buf: &mut [u8]) {
        self.schedule.ctr32(ctr, buf);
    }

    /// CBC encryption of whole blocks, chaining from `iv` (which is updated): a serial chain,
    /// so the hardware implementations keep their round keys in registers across it.
    pub(crate) fn cbc_encrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
        self.schedule.cbc_encrypt_blocks(iv, blocks);
    }

    /// CBC decryption of whole blocks, chaining from `iv` (which is updated). Returns `false`
    /// when this implementation has no dedicated loop (the caller then goes through
    /// [`Aes::decrypt_blocks`]).
    pub(crate) fn cbc_decrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) -> bool {
        self.schedule.cbc_decrypt_blocks(iv, blocks)
    }

    /// CCM's payload pass: for each 16-byte piece of `buf` (the last may be shorter), XOR it
    /// with the keystream block `ks`, fold the plaintext (zero-padded) into the CBC-MAC `mac`,
    /// and make the next keystream block from the counter block `ctr`, which advances (32-bit
    /// big-endian increment: CCM's length limits keep it inside the counter field). The MAC
    /// step and the next keystream block are encrypted side by side.
    pub(crate) fn ccm_payload<const ENCRYPT: bool>(
        &self,
        mac: &mut [u8; 16],
        ks: &mut [u8; 16],
        ctr: &mut [u8; 16],
        buf: &mut [u8],
    ) {
        self.schedule.ccm_payload::<ENCRYPT>(mac, ks, ctr, buf);
    }
}

/// Runs `f` over `blocks` in groups of `N`, the last group padded with zeros.
#[inline(always)]
fn batched<const N: usize>(blocks: &mut [[u8; 16]], mut f: impl FnMut(&mut [[u8; 16]; N])) {
    let mut chunks = blocks.chunks_exact_mut(N);
    for chunk in &mut chunks {
        if let Ok(group) = <&mut [[u8; 16]; N]>::try_from(chunk) {
            f(group);
        }
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let mut group = [[0u8; 16]; N];
        group[..rest.len()].copy_from_slice(rest);
        f(&mut group);
        rest.copy_from_slice(&group[..rest.len()]);
        group.zeroize();
    }
}

/// The counter in the last four bytes of a counter block.
#[inline(always)]
pub(crate) fn counter(ctr: &[u8; 16]) -> u32 {
    u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]])
}

/// Sets the counter in the last four bytes of a counter block.
#[inline(always)]
pub(crate) fn set_counter(ctr: &mut [u8; 16], value: u32) {
    ctr[12..].copy_from_slice(&value.to_be_bytes());
}

/// CTR over an implementation that encrypts `N` blocks at a time (ct32 has its own loop).
#[cfg(target_pointer_width = "64")]
#[inline(always)]
fn ctr32_batched<const N: usize>(
    ctr: &mut [u8; 16],
    buf: &mut [u8],
    mut encrypt: impl FnMut(&mut [[u8; 16]; N]),
) {
    let mut c = counter(ctr);
    let mut ks = [[0u8; 16]; N];
    for chunk in buf.chunks_mut(16 * N) {
        for block in &mut ks {
            *block = *ctr;
            set_counter(block, c);
            c = c.wrapping_add(1);
        }
        encrypt(&mut ks);
        for (b, k) in chunk.iter_mut().zip(ks.as_flattened()) {
            *b ^= k;
        }
        // Only the blocks this chunk used count (the last chunk may be partial).
        c = c.wrapping_sub((N - chunk.len().div_ceil(16)) as u32);
    }
    set_counter(ctr, c);
    ks.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;
    use hex_literal::hex;

    #[test]
    fn fips197_a1_key_expansion() {
        let keys = RoundKeys::expand(&hex!("2b7e151628aed2a6abf7158809cf4f3c")).unwrap();
        assert_eq!(keys.bytes(1), hex!("a0fafe1788542cb123a339392a6c7605"));
        assert_eq!(keys.bytes(10), hex!("d014f9a8c9ee2589e13f0cc8b6630ca6"));
        let keys = RoundKeys::expand(&hex!(
            "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"
        ))
        .unwrap();
        assert_eq!(keys.bytes(14), hex!("fe4890d1e6188d0b046df344706c631e"));
    }

    /// The AES-NI expansion (`aeskeygenassist`, `aesimc`) gives the portable schedule, for
    /// every key length and keys whose words hit many S-box inputs.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn aesni_key_expansion_matches_the_portable_one() {
        let Some(token) = core_cpu::Aes::get() else {
            std::println!("AES-NI: not available on this CPU");
            return;
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for len in [16, 24, 32] {
            for _ in 0..64 {
                let key: std::vec::Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        (seed >> 56) as u8
                    })
                    .collect();
                let portable = HwKey::new(&RoundKeys::expand(&key).unwrap());
                let hw = x86_aesni::expand_key(token, &key).unwrap();
                assert_eq!(hw.rounds, portable.rounds);
                assert_eq!(hw.enc, portable.enc, "{key:02x?}");
                assert_eq!(hw.dec, portable.dec, "{key:02x?}");
            }
        }
    }

    #[test]
    fn bad_key_lengths_are_errors() {
        for len in [0, 1, 15, 17, 20, 23, 25, 31, 33, 64] {
            assert!(matches!(Aes::new(&[0u8; 64][..len]), Err(Error::InvalidKeyLength)));
        }
    }

    #[test]
    fn registry_order() {
        let all: std::vec::Vec<_> = AesImpl::available().collect();
        assert!(all.contains(&AesImpl::Ct64) && all.contains(&AesImpl::Ct32));
        assert_eq!(AesImpl::by_name("ct32"), Some(AesImpl::Ct32));
        assert_eq!(AesImpl::by_name("nope"), None);
        for imp in all {
            assert!(AesImpl::ALL.contains(&imp.name()));
        }
    }
}
