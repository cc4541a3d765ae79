//! rustls's [`hmac::Hmac`] over `core_hash::Hmac` (RFC 2104): the TLS 1.2 PRF's MAC.

use rustls::crypto::hmac::{self, Tag};

/// HMAC over a `core_hash` hash function.
pub(crate) struct Hmac<H>(core::marker::PhantomData<fn() -> H>);

/// HMAC-SHA256.
pub(crate) static HMAC_SHA256: Hmac<core_hash::Sha256> = Hmac(core::marker::PhantomData);
/// HMAC-SHA384.
pub(crate) static HMAC_SHA384: Hmac<core_hash::Sha384> = Hmac(core::marker::PhantomData);

impl<H: core_hash::Hash + Send + Sync + 'static> hmac::Hmac for Hmac<H> {
    fn with_key(&self, key: &[u8]) -> Box<dyn hmac::Key> {
        Box::new(Key(core_hash::Hmac::<H>::new(key)))
    }

    fn hash_output_len(&self) -> usize {
        H::OUTPUT_LEN
    }
}

/// A keyed HMAC state, cloned for each tag so the key is hashed once.
struct Key<H: core_hash::Hash>(core_hash::Hmac<H>);

impl<H: core_hash::Hash + Send + Sync + 'static> hmac::Key for Key<H> {
    fn sign_concat(&self, first: &[u8], middle: &[&[u8]], last: &[u8]) -> Tag {
        let mut mac = self.0.clone();
        mac.update(first);
        for part in middle {
            mac.update(part);
        }
        mac.update(last);
        Tag::new(mac.finalize().as_ref())
    }

    fn tag_len(&self) -> usize {
        H::OUTPUT_LEN
    }
}
