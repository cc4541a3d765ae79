//! AES-GCM (SP 800-38D): CTR encryption with GCM's 32-bit counter and a GHASH tag, over any
//! AES and GHASH implementation, plus two stitched implementations:
//!
//! - [`x86_vaes_vpclmul`]: VAES and VPCLMULQDQ on 512-bit registers, 32 blocks of CTR
//!   interleaved round by round with the GHASH of 32 others, one reduction per 32 blocks, and
//!   a masked short path for records under 256 bytes;
//! - [`x86_aesni_pclmul`]: AES-NI and PCLMULQDQ in one loop, eight blocks of CTR interleaved
//!   with the GHASH of eight others, in both directions;
//! - otherwise an AES implementation's CTR over a chunk, then a GHASH implementation over the
//!   same chunk while it is still in L1 (`GcmImpl::Composed`).
//!
//! The choice is made once, when the key is built, and kept with both key schedules. Nonces
//! are 12 bytes on the [`Aead`] path; other IV lengths (SP 800-38D §7.1, J₀ from GHASH) are
//! accepted by [`AesGcm::seal_in_place_detached_with_iv`] and its `open` twin.

#[cfg(target_arch = "x86_64")]
mod x86_aesni_pclmul;
#[cfg(target_arch = "x86_64")]
mod x86_vaes_vpclmul;

use crate::aes::{Aes, AesImpl, counter, set_counter};
#[cfg(target_arch = "x86_64")]
use crate::aes::{Hw, Schedule};
use crate::ghash::{GhashImpl, GhashKey};
use crate::{Aead, Error, Implementation};
use core::fmt;
use zeroize::Zeroize;

core_cpu::implementation_enum! {
    /// An AES-GCM implementation: a stitched x86 loop, or an AES implementation composed with
    /// a GHASH implementation. `available()` lists the stitched loops first: with VAES and
    /// VPCLMULQDQ on 512-bit registers the wide one, otherwise the 128-bit one, which measures
    /// ahead of every composition on AES-NI machines.
    pub enum GcmImpl {
        accelerated {
            /// VAES and VPCLMULQDQ on 512-bit registers, interleaved in one loop.
            X86VaesVpclmul512(core_cpu::Vaes512) => "x86_vaes_vpclmul512",
            /// AES-NI and PCLMULQDQ interleaved in one loop (VEX-encoded, so AVX too).
            X86AesniPclmul(core_cpu::Aes, core_cpu::ClMul, core_cpu::Avx) => "x86_aesni_pclmul",
        }
        composed {
            /// CTR from an AES implementation, then GHASH from a GHASH implementation, per
            /// chunk. Any pair runs (and is named `aes+ghash`); `available()` offers each AES
            /// implementation with the GHASH one [`pair`](Self::pair) gives it.
            Composed(AesImpl, GhashImpl) paired by GcmImpl::pair => [
                "x86_vaes512+x86_vpclmul512",
                "x86_vaes+x86_vpclmul",
                "x86_vaes+x86_pclmul",
                "x86_aesni+x86_pclmul",
                "aarch64+aarch64",
                "ct64+ct64",
                "thumb1+thumb1",
                "ct32+ct32",
            ],
        }
    }
}

impl GcmImpl {
    /// The GHASH implementation that goes with `aes` by default: the same hardware family if
    /// this CPU has it, else the portable GHASH of the AES implementation's name (`ct64`,
    /// `thumb1`, `ct32`), else the portable one for the word size.
    fn pair(aes: AesImpl) -> GhashImpl {
        let cpu = core_cpu::detected();
        let hardware = match aes {
            AesImpl::X86Vaes512(token) => Some(GhashImpl::X86Vpclmul512(token)),
            AesImpl::X86Vaes(_) => core_cpu::Vaes::from_features(cpu)
                .map(GhashImpl::X86Vpclmul)
                .or_else(|| core_cpu::ClMul::from_features(cpu).map(GhashImpl::X86Pclmul)),
            AesImpl::X86Aesni(_) => core_cpu::ClMul::from_features(cpu).map(GhashImpl::X86Pclmul),
            AesImpl::Aarch64(_) => {
                core_cpu::ArmAesPmull::from_features(cpu).map(GhashImpl::Aarch64)
            }
            portable => GhashImpl::by_name(portable.name()),
        };
        hardware.unwrap_or(GhashImpl::PORTABLE)
    }
}

/// The longest plaintext GCM allows: 2^32 − 2 blocks (SP 800-38D §5.2.1.1).
pub const GCM_MAX_MESSAGE_LEN: u64 = (1 << 36) - 32;
/// The longest AAD or IV: 2^64 − 1 bits, rounded down to whole bytes.
const MAX_AAD_LEN: u64 = (1 << 61) - 1;
/// Bytes of CTR output that are hashed before the next chunk is encrypted: small enough to
/// stay in L1 between the two passes.
const CHUNK: usize = 4096;

/// SP 800-38D §5.2.1.1: at most 2^39 − 256 bits of plaintext and 2^64 − 1 bits of AAD.
fn check_lengths(aad_len: u64, msg_len: u64) -> Result<(), Error> {
    if msg_len > GCM_MAX_MESSAGE_LEN || aad_len > MAX_AAD_LEN {
        Err(Error::MessageTooLong)
    } else {
        Ok(())
    }
}

/// Both key schedules of an AES-GCM key.
#[derive(Clone)]
struct GcmKey {
    aes: Aes,
    ghash: GhashKey,
    /// The stitched loop this key uses, if any.
    stitched: Stitched,
}

/// Which stitched loop a key runs (the tokens are in its schedules).
#[derive(Clone, Copy)]
enum Stitched {
    /// AES and GHASH one after the other, per chunk.
    No,
    /// [`x86_aesni_pclmul`], with the AVX token it also needs.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    AesniPclmul(core_cpu::Avx),
    /// [`x86_vaes_vpclmul`].
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    VaesVpclmul512,
}

impl GcmKey {
    fn new(imp: GcmImpl, key: &[u8]) -> Result<Self, Error> {
        let (aes_imp, ghash_imp, stitched) = match imp {
            GcmImpl::X86AesniPclmul(a, c, v) => {
                (AesImpl::X86Aesni(a), GhashImpl::X86Pclmul(c), Stitched::AesniPclmul(v))
            }
            GcmImpl::X86VaesVpclmul512(t) => {
                (AesImpl::X86Vaes512(t), GhashImpl::X86Vpclmul512(t), Stitched::VaesVpclmul512)
            }
            GcmImpl::Composed(a, g) => (a, g, Stitched::No),
        };
        let aes = Aes::with_impl(aes_imp, key)?;
        let mut h = [0u8; 16];
        aes.encrypt_block(&mut h);
        let ghash = GhashKey::new(ghash_imp, &h);
        h.zeroize();
        Ok(Self { aes, ghash, stitched })
    }

    fn implementation(&self) -> GcmImpl {
        match (self.aes.implementation(), self.ghash.implementation(), self.stitched) {
            (AesImpl::X86Aesni(a), GhashImpl::X86Pclmul(c), Stitched::AesniPclmul(v)) => {
                GcmImpl::X86AesniPclmul(a, c, v)
            }
            (AesImpl::X86Vaes512(t), GhashImpl::X86Vpclmul512(_), Stitched::VaesVpclmul512) => {
                GcmImpl::X86VaesVpclmul512(t)
            }
            (a, g, _) => GcmImpl::Composed(a, g),
        }
    }

    /// The pre-counter block J₀ (SP 800-38D §7.1 step 2).
    fn j0(&self, iv: &[u8]) -> Result<[u8; 16], Error> {
        if iv.is_empty() || iv.len() as u64 > MAX_AAD_LEN {
            return Err(Error::InvalidNonceLength);
        }
        let mut j0 = [0u8; 16];
        if let Ok(iv) = <[u8; 12]>::try_from(iv) {
            j0[..12].copy_from_slice(&iv);
            j0[15] = 1;
        } else {
            self.ghash.update_padded(&mut j0, iv);
            let mut lengths = [0u8; 16];
            lengths[8..].copy_from_slice(&(8 * iv.len() as u64).to_be_bytes());
            self.ghash.update_blocks(&mut j0, &[lengths]);
        }
        Ok(j0)
    }

    /// Encrypts `buf` in place, or decrypts it, from counter block `ctr`, and hashes the
    /// ciphertext into `y`: CTR over a chunk, then GHASH over it while it is in L1.
    fn crypt<const ENCRYPT: bool>(&self, ctr: &mut [u8; 16], y: &mut [u8; 16], buf: &mut [u8]) {
        for chunk in buf.chunks_mut(CHUNK) {
            if ENCRYPT {
                self.aes.ctr32(ctr, chunk);
                self.ghash.update_padded(y, chunk);
            } else {
                self.ghash.update_padded(y, chunk);
                self.aes.ctr32(ctr, chunk);
            }
        }
    }

    /// The tag over `aad` and the ciphertext, encrypting or decrypting `buf` on the way.
    fn run<const ENCRYPT: bool>(
        &self,
        iv: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        check_lengths(aad.len() as u64, buf.len() as u64)?;
        let mut j0 = self.j0(iv)?;
        #[cfg(target_arch = "x86_64")]
        match (&self.aes.schedule, &self.ghash, self.stitched) {
            (
                Schedule::X86Vaes512(Hw(t, aes)),
                GhashKey::X86Vpclmul512(_, ghash),
                Stitched::VaesVpclmul512,
            ) => {
                let tag = x86_vaes_vpclmul::crypt::<ENCRYPT>(*t, aes, ghash, &j0, aad, buf);
                j0.zeroize();
                return Ok(tag);
            }
            (
                Schedule::X86Aesni(Hw(a, aes)),
                GhashKey::X86Pclmul(c, ghash),
                Stitched::AesniPclmul(v),
            ) => {
                let tag = x86_aesni_pclmul::crypt::<ENCRYPT>(*a, *c, v, aes, ghash, &j0, aad, buf);
                j0.zeroize();
                return Ok(tag);
            }
            _ => {}
        }
        let mut y = [0u8; 16];
        self.ghash.update_padded(&mut y, aad);
        let mut ctr = j0;
        set_counter(&mut ctr, counter(&j0).wrapping_add(1));
        self.crypt::<ENCRYPT>(&mut ctr, &mut y, buf);
        let mut lengths = [0u8; 16];
        lengths[..8].copy_from_slice(&(8 * aad.len() as u64).to_be_bytes());
        lengths[8..].copy_from_slice(&(8 * buf.len() as u64).to_be_bytes());
        self.ghash.update_blocks(&mut y, &[lengths]);
        self.aes.encrypt_block(&mut j0);
        for (t, m) in y.iter_mut().zip(&j0) {
            *t ^= m;
        }
        j0.zeroize();
        ctr.zeroize();
        Ok(y)
    }

    fn seal(&self, iv: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<[u8; 16], Error> {
        self.run::<true>(iv, aad, buf)
    }

    fn open(&self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> Result<(), Error> {
        if tag.len() != 16 {
            return Err(Error::InvalidTagLength);
        }
        let mut want = self.run::<false>(iv, aad, buf)?;
        let ok = crate::tag_eq(&want, tag);
        want.zeroize();
        if ok {
            Ok(())
        } else {
            buf.zeroize();
            Err(Error::AuthenticationFailed)
        }
    }
}

/// AES-GCM with a `KEY_LEN`-byte key and 16-byte tags: [`Aes128Gcm`], [`Aes192Gcm`],
/// [`Aes256Gcm`]. Build it with [`Aead::new`] (best implementation for this CPU) or
/// [`AesGcm::with_impl`].
///
/// ```
/// use core_aead::{Aead, Aes128Gcm};
///
/// let key = Aes128Gcm::new(&[0u8; 16]).unwrap();
/// let mut record = *b"hello";
/// let tag = key.seal_in_place_detached(&[0u8; 12], b"header", &mut record).unwrap();
/// key.open_in_place_detached(&[0u8; 12], b"header", &mut record, &tag).unwrap();
/// assert_eq!(&record, b"hello");
/// ```
#[derive(Clone)]
pub struct AesGcm<const KEY_LEN: usize> {
    key: GcmKey,
}

/// AES-128-GCM.
pub type Aes128Gcm = AesGcm<16>;
/// AES-192-GCM.
pub type Aes192Gcm = AesGcm<24>;
/// AES-256-GCM.
pub type Aes256Gcm = AesGcm<32>;

impl<const KEY_LEN: usize> fmt::Debug for AesGcm<KEY_LEN> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AesGcm")
            .field("key_bits", &(8 * KEY_LEN))
            .field("implementation", &self.implementation().name())
            .finish_non_exhaustive()
    }
}

impl<const KEY_LEN: usize> AesGcm<KEY_LEN> {
    /// Expands `key` (exactly `KEY_LEN` bytes) for the given implementation.
    pub fn with_impl(imp: GcmImpl, key: &[u8]) -> Result<Self, Error> {
        if key.len() != KEY_LEN {
            return Err(Error::InvalidKeyLength);
        }
        Ok(Self { key: GcmKey::new(imp, key)? })
    }

    /// The implementation this key runs on.
    pub fn implementation(&self) -> GcmImpl {
        self.key.implementation()
    }

    /// Like [`Aead::seal_in_place_detached`], with an IV of any length from 1 byte
    /// (SP 800-38D §8.2.2; 12 bytes is the fast path and the one to use).
    pub fn seal_in_place_detached_with_iv(
        &self,
        iv: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        self.key.seal(iv, aad, buf)
    }

    /// Like [`Aead::open_in_place_detached`], with an IV of any length from 1 byte.
    pub fn open_in_place_detached_with_iv(
        &self,
        iv: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        self.key.open(iv, aad, buf, tag)
    }
}

impl<const KEY_LEN: usize> Aead for AesGcm<KEY_LEN> {
    const KEY_LEN: usize = KEY_LEN;
    const NONCE_LEN: usize = 12;
    const TAG_LEN: usize = 16;
    type Tag = [u8; 16];

    fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_impl(GcmImpl::preferred(), key)
    }

    fn seal_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        if nonce.len() != 12 {
            return Err(Error::InvalidNonceLength);
        }
        self.key.seal(nonce, aad, buf)
    }

    fn open_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        if nonce.len() != 12 {
            return Err(Error::InvalidNonceLength);
        }
        self.key.open(nonce, aad, buf, tag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_limits() {
        assert_eq!(check_lengths(0, GCM_MAX_MESSAGE_LEN), Ok(()));
        assert_eq!(check_lengths(0, GCM_MAX_MESSAGE_LEN + 1), Err(Error::MessageTooLong));
        assert_eq!(check_lengths(MAX_AAD_LEN, 0), Ok(()));
        assert_eq!(check_lengths(MAX_AAD_LEN + 1, 0), Err(Error::MessageTooLong));
        assert_eq!(GCM_MAX_MESSAGE_LEN, (1 << 36) - 32);
    }

    #[test]
    fn composed_names_and_labels() {
        for a in AesImpl::available() {
            for g in GhashImpl::available() {
                let name = GcmImpl::Composed(a, g).name();
                assert_eq!(name, std::format!("{}+{}", a.name(), g.name()));
            }
        }
        // The listed compositions less those whose halves this target does not compile.
        let mut want = std::vec!["x86_vaes_vpclmul512", "x86_aesni_pclmul"];
        want.extend(["x86_vaes512+x86_vpclmul512", "x86_vaes+x86_vpclmul"]);
        want.extend(["x86_vaes+x86_pclmul", "x86_aesni+x86_pclmul", "aarch64+aarch64"]);
        if cfg!(target_pointer_width = "64") {
            want.push("ct64+ct64");
        }
        if cfg!(all(target_arch = "arm", feature = "asm")) {
            want.push("thumb1+thumb1");
        }
        if !cfg!(all(target_arch = "arm", feature = "asm")) || cfg!(feature = "portable-twins") {
            want.push("ct32+ct32");
        }
        assert_eq!(GcmImpl::ALL, want);
        for imp in GcmImpl::available() {
            assert!(GcmImpl::ALL.contains(&imp.name()), "{imp:?}");
        }
        assert_eq!(GcmImpl::best(), GcmImpl::available().next().unwrap_or(GcmImpl::PORTABLE));
    }
}
