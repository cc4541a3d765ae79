//! The AEADs of RFC 9180 §7.3, from core-aead: AES-128-GCM, AES-256-GCM and
//! ChaCha20-Poly1305, all with 12-byte nonces and 16-byte tags.

use core_aead::{Aes128Gcm, Aes256Gcm, ChaCha20Poly1305};

/// An HPKE AEAD: a core-aead cipher with its registered identifier. `Nk`, `Nn` and `Nt` are
/// its `KEY_LEN`, `NONCE_LEN` and `TAG_LEN`.
pub trait Aead: core_aead::Aead {
    /// `aead_id` (RFC 9180 §7.3).
    const ID: u16;
}

impl Aead for Aes128Gcm {
    const ID: u16 = 0x0001;
}

impl Aead for Aes256Gcm {
    const ID: u16 = 0x0002;
}

impl Aead for ChaCha20Poly1305 {
    const ID: u16 = 0x0003;
}
