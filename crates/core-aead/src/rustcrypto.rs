//! The RustCrypto `aead` 0.6 traits over Halite's AEADs (`rustcrypto` feature): `KeyInit`,
//! `AeadCore` and `AeadInOut` (from which `aead` derives the deprecated `AeadInPlace` and,
//! with its `alloc` feature, `Aead`) for AES-128/192/256-GCM, AES-128/256-CCM (16-byte tag,
//! and AES-128-CCM with an 8-byte tag; 12-byte nonces), ChaCha20-Poly1305 and
//! XChaCha20-Poly1305, so code generic over `aead` runs on them.
//!
//! Every call goes through this crate's [`Aead`] trait; the tag follows the ciphertext.

use aead::consts::{U8, U12, U16, U24, U32};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Tag, TagPosition};

use crate::Aead;

/// Implements the `aead` traits for AEADs of this crate through their [`Aead`] impl.
macro_rules! aead_traits {
    ($($name:ty => key $key:ty, nonce $nonce:ty, tag $tag:ty;)*) => {$(
        impl KeySizeUser for $name {
            type KeySize = $key;
        }

        impl KeyInit for $name {
            fn new(key: &Key<Self>) -> Self {
                match <$name as Aead>::new(key) {
                    Ok(aead) => aead,
                    // The only error is a key of the wrong length, which `Key<Self>` rules out.
                    Err(_) => unreachable!("a key of KEY_LEN bytes is always accepted"),
                }
            }

            fn new_from_slice(key: &[u8]) -> Result<Self, aead::common::InvalidLength> {
                <$name as Aead>::new(key).map_err(|_| aead::common::InvalidLength)
            }
        }

        impl AeadCore for $name {
            type NonceSize = $nonce;
            type TagSize = $tag;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        impl AeadInOut for $name {
            fn encrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> aead::Result<Tag<Self>> {
                let buf = buffer.into_out_with_copied_in();
                let tag = self
                    .seal_in_place_detached(nonce, associated_data, buf)
                    .map_err(|_| aead::Error)?;
                Ok(Tag::<Self>::from(tag))
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &Tag<Self>,
            ) -> aead::Result<()> {
                let buf = buffer.into_out_with_copied_in();
                self.open_in_place_detached(nonce, associated_data, buf, tag)
                    .map_err(|_| aead::Error)
            }
        }
    )*};
}

aead_traits! {
    crate::Aes128Gcm => key U16, nonce U12, tag U16;
    crate::Aes192Gcm => key U24, nonce U12, tag U16;
    crate::Aes256Gcm => key U32, nonce U12, tag U16;
    crate::Aes128Ccm => key U16, nonce U12, tag U16;
    crate::Aes128Ccm8 => key U16, nonce U12, tag U8;
    crate::Aes256Ccm => key U32, nonce U12, tag U16;
    crate::ChaCha20Poly1305 => key U32, nonce U12, tag U16;
    crate::XChaCha20Poly1305 => key U32, nonce U24, tag U16;
}
