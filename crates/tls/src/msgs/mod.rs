//! The TLS wire format: a strict cursor codec ([`codec`]), the protocol's registries as open
//! newtypes ([`enums`]), and the handshake messages with their extensions ([`handshake`]).
//! Nothing here allocates: decoding borrows from the input, encoding writes into a caller's
//! buffer.

pub mod codec;
pub mod enums;
pub mod handshake;
/// The TLS 1.2-only messages and extensions, and the RFC 8446 downgrade sentinels.
#[doc(hidden)]
pub mod tls12;

pub use codec::{Codec, EncodeError, InvalidMessage, List, Payload, Reader, U8, U16, U24, Writer};
pub use enums::*;
pub use handshake::*;
