//! TLS 1.3 record protection (RFC 8446 §5): the 5-byte record header, the TLSInnerPlaintext
//! (content, true content type, zero padding), the per-record nonce (IV XOR sequence number)
//! and the AEAD of the negotiated suite, all in place in the caller's buffer.
//!
//! A record that fails authentication is an error and its buffer holds zeros: no plaintext
//! of it is ever released, and the sequence number does not advance (so a server can skip
//! early data it declined by trial decryption, RFC 8446 §4.2.10). Lengths over the
//! protocol's limits are `record_overflow`.

use crate::error::{Error, PeerMisbehaved};
use crate::msgs::ContentType;

/// Bytes in a record header.
pub const HEADER_LEN: usize = 5;
/// The largest plaintext fragment (2^14).
pub const MAX_PLAINTEXT_LEN: usize = 1 << 14;
/// The largest protected record body (2^14 + 256).
pub const MAX_CIPHERTEXT_LEN: usize = MAX_PLAINTEXT_LEN + 256;
/// A buffer this long holds any record a peer may send.
pub const MAX_RECORD_LEN: usize = HEADER_LEN + MAX_CIPHERTEXT_LEN;

/// A record header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordHeader {
    /// The (outer) content type.
    pub typ: ContentType,
    /// The body length.
    pub len: usize,
}

impl RecordHeader {
    /// Parses a header at the start of `buf`: `Ok(None)` if fewer than five bytes are there.
    /// Refuses unknown content types, a version other than 3.x, and bodies longer than
    /// protected records may be.
    pub fn parse(buf: &[u8]) -> Result<Option<Self>, Error> {
        Self::parse_max(buf, MAX_CIPHERTEXT_LEN)
    }

    /// As [`RecordHeader::parse`], with bodies up to `max` bytes (TLS 1.2 allows
    /// 2^14 + 2048, `tls12::MAX_CIPHERTEXT_LEN` with the `tls12` feature).
    pub fn parse_max(buf: &[u8], max: usize) -> Result<Option<Self>, Error> {
        let Some(h) = buf.get(..HEADER_LEN) else { return Ok(None) };
        let typ = ContentType(h[0]);
        if typ.name().is_none() {
            return Err(PeerMisbehaved::UnexpectedMessage.into());
        }
        if h[1] != 3 {
            return Err(crate::msgs::InvalidMessage::IllegalValue.into());
        }
        let len = usize::from(u16::from_be_bytes([h[3], h[4]]));
        if len > max {
            return Err(Error::RecordOverflow);
        }
        Ok(Some(Self { typ, len }))
    }

    /// Writes a header (with legacy version 3.3) into `out[..5]`.
    pub fn write(typ: ContentType, len: usize, out: &mut [u8]) {
        out[0] = typ.0;
        out[1] = 3;
        out[2] = 3;
        out[3..5].copy_from_slice(&(len as u16).to_be_bytes());
    }
}

/// TLS 1.2 AEAD record protection (explicit and XOR nonces).
#[doc(hidden)]
#[cfg(feature = "tls12")]
pub mod tls12;
mod tls13;

pub use tls13::RecordProtection;
