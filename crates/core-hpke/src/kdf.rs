//! The KDFs of RFC 9180 §7.2: HKDF over SHA-256, SHA-384 and SHA-512, from core-hash.

use core_hash::{Hash, Sha256, Sha384, Sha512};

/// An HPKE KDF: HKDF over `Hash`, with its registered identifier.
pub trait Kdf {
    /// `kdf_id` (RFC 9180 §7.2).
    const ID: u16;
    /// The hash HKDF runs on; `Nh` is its output length. (Its output, an array, can move
    /// between threads, so contexts can.)
    type Hash: Hash<Output: Send + Sync>;
}

/// HKDF-SHA256, `kdf_id` 0x0001.
#[derive(Clone, Copy, Debug)]
pub struct HkdfSha256;

/// HKDF-SHA384, `kdf_id` 0x0002.
#[derive(Clone, Copy, Debug)]
pub struct HkdfSha384;

/// HKDF-SHA512, `kdf_id` 0x0003.
#[derive(Clone, Copy, Debug)]
pub struct HkdfSha512;

impl Kdf for HkdfSha256 {
    const ID: u16 = 0x0001;
    type Hash = Sha256;
}

impl Kdf for HkdfSha384 {
    const ID: u16 = 0x0002;
    type Hash = Sha384;
}

impl Kdf for HkdfSha512 {
    const ID: u16 = 0x0003;
    type Hash = Sha512;
}
