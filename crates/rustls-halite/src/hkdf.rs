//! rustls's [`tls13::Hkdf`] directly over `core_hash::Hkdf` (RFC 5869): the PRK's HMAC state
//! is keyed once per secret and cloned per output block, rather than rebuilt through
//! rustls's generic `HkdfUsingHmac` boxes.

use rustls::crypto::hmac::Tag;
use rustls::crypto::tls13::{self, HkdfExpander, OkmBlock, OutputLengthError};

/// HKDF over a `core_hash` hash function.
pub(crate) struct Hkdf<H>(core::marker::PhantomData<fn() -> H>);

/// HKDF-SHA256.
pub(crate) static HKDF_SHA256: Hkdf<core_hash::Sha256> = Hkdf(core::marker::PhantomData);
/// HKDF-SHA384.
pub(crate) static HKDF_SHA384: Hkdf<core_hash::Sha384> = Hkdf(core::marker::PhantomData);

impl<H: core_hash::Hash + Send + Sync + 'static> Hkdf<H> {
    /// HKDF-Extract; a missing salt is `HashLen` zeros (RFC 8446 §7.1), which HMAC's key
    /// padding makes the same as an empty one.
    fn extract(salt: Option<&[u8]>, ikm: &[u8]) -> Box<dyn HkdfExpander> {
        Box::new(Expander(Some(core_hash::Hkdf::<H>::extract(salt.unwrap_or(&[]), ikm))))
    }
}

impl<H: core_hash::Hash + Send + Sync + 'static> tls13::Hkdf for Hkdf<H> {
    fn extract_from_zero_ikm(&self, salt: Option<&[u8]>) -> Box<dyn HkdfExpander> {
        let zeros = [0u8; OkmBlock::MAX_LEN];
        Self::extract(salt, &zeros[..H::OUTPUT_LEN])
    }

    fn extract_from_secret(&self, salt: Option<&[u8]>, secret: &[u8]) -> Box<dyn HkdfExpander> {
        Self::extract(salt, secret)
    }

    fn expander_for_okm(&self, okm: &OkmBlock) -> Box<dyn HkdfExpander> {
        // HMAC pads its key with zeros to a block, so a PRK padded with zeros to a hash
        // length keys the same HMAC as the PRK itself (what `HkdfUsingHmac` does with any
        // length); rustls only ever passes hash-length blocks here.
        let okm = okm.as_ref();
        let mut prk = [0u8; OkmBlock::MAX_LEN];
        prk[..okm.len()].copy_from_slice(okm);
        let len = okm.len().max(H::OUTPUT_LEN);
        let expander = Box::new(Expander(core_hash::Hkdf::<H>::from_prk(&prk[..len]).ok()));
        zeroize::Zeroize::zeroize(&mut prk);
        expander
    }

    fn hmac_sign(&self, key: &OkmBlock, message: &[u8]) -> Tag {
        Tag::new(core_hash::Hmac::<H>::mac(key.as_ref(), message).as_ref())
    }
}

/// A PRK ready for HKDF-Expand (`None` only if a PRK could not be taken, which fails every
/// expansion rather than panicking).
struct Expander<H: core_hash::Hash>(Option<core_hash::Hkdf<H>>);

impl<H: core_hash::Hash + Send + Sync + 'static> HkdfExpander for Expander<H> {
    fn expand_slice(&self, info: &[&[u8]], output: &mut [u8]) -> Result<(), OutputLengthError> {
        let prk = self.0.as_ref().ok_or(OutputLengthError)?;
        prk.expand_multi_info(info, output).map_err(|_| OutputLengthError)
    }

    fn expand_block(&self, info: &[&[u8]]) -> OkmBlock {
        let mut block = [0u8; OkmBlock::MAX_LEN];
        let out = &mut block[..H::OUTPUT_LEN];
        let okm = match self.expand_slice(info, out) {
            Ok(()) => OkmBlock::new(out),
            Err(OutputLengthError) => OkmBlock::new(&[]),
        };
        zeroize::Zeroize::zeroize(&mut block);
        okm
    }

    fn hash_len(&self) -> usize {
        H::OUTPUT_LEN
    }
}
