//! External pre-shared keys (RFC 8446 §4.2.11): a key agreed out of band between a client
//! and a server, so that devices without certificates can still authenticate each other.
//! The client offers one; the server looks offered identities up in its list. Binders use
//! the `ext binder` label, and a handshake that takes the PSK has no certificate messages.
//!
//! RFC 9257 §4 asks for a key of at least 128 bits of entropy, used by one client and one
//! server only, and bound to one hash: the suite negotiated with it must use that hash.

use crate::key_schedule::HashAlg;
use crate::schedule::SuiteHash;

/// The longest identity a PSK may have (`opaque identity<1..2^16-1>`).
pub const MAX_IDENTITY_LEN: usize = 0xffff;

/// One external PSK: the identity both sides know it by, the key, and its hash.
#[derive(Clone, Copy)]
pub struct ExternalPsk<'a> {
    /// The identity sent in the ClientHello (public, sent in clear), 1 to 65535 bytes.
    pub identity: &'a [u8],
    /// The key itself (the caller keeps and wipes it); at least one byte, 16 or more
    /// recommended.
    pub key: &'a [u8],
    /// The hash the key is used with: only suites with this hash can take it.
    pub hash: HashAlg,
}

impl ExternalPsk<'_> {
    /// Whether the identity and key have lengths the protocol can carry, and the hash is
    /// one a suite can use (SHA-256 or SHA-384).
    pub fn is_valid(&self) -> bool {
        (1..=MAX_IDENTITY_LEN).contains(&self.identity.len())
            && !self.key.is_empty()
            && SuiteHash::new(self.hash).is_ok()
    }
}

impl core::fmt::Debug for ExternalPsk<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ExternalPsk")
            .field("identity", &self.identity)
            .field("hash", &self.hash)
            .finish_non_exhaustive()
    }
}

/// A server's external PSKs.
#[derive(Clone, Copy, Debug)]
pub struct ServerPsks<'a> {
    /// The keys, looked up by identity (the first match wins).
    pub keys: &'a [ExternalPsk<'a>],
    /// Take a PSK without a fresh key exchange (`psk_ke`) when the client lists that mode:
    /// cheaper for a small device, but no forward secrecy. `false`: `psk_dhe_ke` only.
    pub psk_ke: bool,
}

impl<'a> ServerPsks<'a> {
    /// The key with `identity`, if any.
    pub fn find(&self, identity: &[u8]) -> Option<&'a ExternalPsk<'a>> {
        self.keys.iter().find(|k| k.identity == identity)
    }
}
