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

#[cfg(target_arch = "x86_64")]
use crate::aes::Schedule;
use crate::aes::{Aes, AesImpl, counter, set_counter};
use crate::ghash::{GhashImpl, GhashKey};
use crate::{Aead, Error, Implementation};
use core::fmt;
use zeroize::Zeroize;

/// An AES-GCM implementation: the stitched x86 loop, or an AES implementation composed with a
/// GHASH implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GcmImpl {
    /// VAES and VPCLMULQDQ on 512-bit registers, interleaved in one loop.
    X86VaesVpclmul512(core_cpu::Vaes512),
    /// AES-NI and PCLMULQDQ interleaved in one loop (VEX-encoded, so AVX too).
    X86AesniPclmul(core_cpu::Aes, core_cpu::ClMul, core_cpu::Avx),
    /// CTR from an AES implementation, then GHASH from a GHASH implementation, per chunk.
    Composed(AesImpl, GhashImpl),
}

/// `AES_NAMES`, `GHASH_NAMES` and `COMPOSED` (`[["a+g", …], …]`) from the lists of AES and
/// GHASH implementation names.
macro_rules! composed_names {
    ([$($a:literal),*], $g:tt) => {
        const AES_NAMES: &[&str] = &[$($a),*];
        const GHASH_NAMES: &[&str] = &composed_names!(@list $g);
        const COMPOSED: [[&str; 7]; 7] = [$(composed_names!(@row $a, $g)),*];
    };
    (@list [$($g:literal),*]) => { [$($g),*] };
    (@row $a:literal, [$($g:literal),*]) => { [$(concat!($a, "+", $g)),*] };
}

// Every name on every target, so a composition's name is looked up by position here, not in
// `AesImpl::ALL` / `GhashImpl::ALL`, which drop ct64 on 32-bit targets and thumb1 off the
// Cortex-M0 (a test checks that
// those are these lists, in order, less what the target lacks).
composed_names!(
    ["x86_vaes512", "x86_vaes", "x86_aesni", "aarch64", "ct64", "thumb1", "ct32"],
    ["x86_vpclmul512", "x86_vpclmul", "x86_pclmul", "aarch64", "ct64", "thumb1", "ct32"]
);

impl GcmImpl {
    /// The GHASH implementation that goes with `aes` by default: the same hardware family if
    /// this CPU has it, else the bitsliced word size's.
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
            #[cfg(target_pointer_width = "64")]
            AesImpl::Ct64 => Some(GhashImpl::Ct64),
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            AesImpl::Thumb1 => Some(GhashImpl::Thumb1),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            AesImpl::Ct32 => Some(GhashImpl::Ct32),
        };
        hardware.unwrap_or(GhashImpl::PORTABLE)
    }

    /// The implementation a default constructor runs on: [`best`](Implementation::best) where
    /// detection may find hardware, elsewhere both portable constants (`thumb1+thumb1` on the
    /// Cortex-M0 with `asm`), so that a small device's image links one of each.
    #[must_use]
    pub fn preferred() -> Self {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        return Self::best();
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        Self::Composed(AesImpl::PORTABLE, GhashImpl::PORTABLE)
    }
}

impl Implementation for GcmImpl {
    const ALL: &'static [&'static str] = &[
        "x86_vaes_vpclmul512",
        "x86_vaes512+x86_vpclmul512",
        "x86_aesni_pclmul",
        "x86_vaes+x86_vpclmul",
        "x86_vaes+x86_pclmul",
        "x86_aesni+x86_pclmul",
        "aarch64+aarch64",
        #[cfg(target_pointer_width = "64")]
        "ct64+ct64",
        #[cfg(all(target_arch = "arm", feature = "asm"))]
        "thumb1+thumb1",
        #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
        "ct32+ct32",
    ];

    fn name(self) -> &'static str {
        match self {
            Self::X86AesniPclmul(..) => "x86_aesni_pclmul",
            Self::X86VaesVpclmul512(_) => "x86_vaes_vpclmul512",
            Self::Composed(aes, ghash) => {
                let last = |names: &[&str]| names.len() - 1;
                let a = AES_NAMES.iter().position(|n| *n == aes.name()).unwrap_or(last(AES_NAMES));
                let g = GHASH_NAMES
                    .iter()
                    .position(|n| *n == ghash.name())
                    .unwrap_or(last(GHASH_NAMES));
                COMPOSED[a][g]
            }
        }
    }

    fn best() -> Self {
        Self::available().next().unwrap_or(Self::Composed(AesImpl::PORTABLE, GhashImpl::PORTABLE))
    }

    /// Fastest first: with VAES and VPCLMULQDQ on 512-bit registers, the wide stitched loop,
    /// then the wide composition (four blocks per instruction on both sides); otherwise the
    /// stitched 128-bit loop, which measures ahead of every composition on AES-NI machines.
    fn available() -> impl Iterator<Item = Self> {
        let cpu = core_cpu::detected();
        let wide = core_cpu::Vaes512::from_features(cpu).into_iter().flat_map(|t| {
            [
                Self::X86VaesVpclmul512(t),
                Self::Composed(AesImpl::X86Vaes512(t), GhashImpl::X86Vpclmul512(t)),
            ]
        });
        let stitched = core_cpu::Aes::from_features(cpu)
            .zip(core_cpu::ClMul::from_features(cpu))
            .zip(core_cpu::Avx::from_features(cpu))
            .map(|((a, c), v)| Self::X86AesniPclmul(a, c, v));
        wide.chain(stitched).chain(
            AesImpl::available()
                .filter(|aes| !matches!(aes, AesImpl::X86Vaes512(_)))
                .map(|aes| Self::Composed(aes, Self::pair(aes)))
                .filter(|imp| Self::ALL.contains(&imp.name())),
        )
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
                Schedule::X86Vaes512(t, aes),
                GhashKey::X86Vpclmul512(_, ghash),
                Stitched::VaesVpclmul512,
            ) => {
                let tag = x86_vaes_vpclmul::crypt::<ENCRYPT>(*t, aes, ghash, &j0, aad, buf);
                j0.zeroize();
                return Ok(tag);
            }
            (
                Schedule::X86Aesni(a, aes),
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
    fn composed_names_follow_both_registries() {
        for (a, row) in AES_NAMES.iter().zip(&COMPOSED) {
            for (g, name) in GHASH_NAMES.iter().zip(row) {
                assert_eq!(*name, std::format!("{a}+{g}"));
            }
        }
        assert_eq!(COMPOSED.len(), AES_NAMES.len());
        assert_eq!(COMPOSED[0].len(), GHASH_NAMES.len());
        let on_target = |names: &[&str], all: &[&str]| -> std::vec::Vec<std::string::String> {
            names
                .iter()
                .filter(|n| cfg!(target_pointer_width = "64") || **n != "ct64")
                .filter(|n| cfg!(all(target_arch = "arm", feature = "asm")) || **n != "thumb1")
                .filter(|n| all.contains(n))
                .map(|n| std::string::String::from(*n))
                .collect()
        };
        assert_eq!(on_target(AES_NAMES, AesImpl::ALL), AesImpl::ALL);
        assert_eq!(on_target(GHASH_NAMES, GhashImpl::ALL), GhashImpl::ALL);
        let thumb1 = usize::from(cfg!(all(target_arch = "arm", feature = "asm")));
        let ct64 = usize::from(cfg!(target_pointer_width = "64"));
        assert_eq!(AesImpl::ALL.len(), 5 + ct64 + thumb1);
        assert_eq!(GhashImpl::ALL.len(), 5 + ct64 + thumb1);
        for imp in GcmImpl::available() {
            assert!(GcmImpl::ALL.contains(&imp.name()), "{imp:?}");
        }
    }
}
