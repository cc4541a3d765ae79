//! Halite's TLS: a sans-IO TLS 1.3 client and server composed from Halite's own primitives
//! (`core-hash`, `core-aead`, `core-ec`), for everything from a Cortex-M0 to a server.
//!
//! This first milestone holds the layers the connections are built from: the wire codec
//! ([`msgs`]), the key schedule and transcript ([`key_schedule`]), and the record protection
//! ([`record`]), each checked against the RFC 8448 traces. Nothing in the core allocates;
//! callers provide the buffers.
//!
//! ```
//! use tls::msgs::{Codec, HandshakeMessage, KeyUpdateRequest, Writer};
//!
//! let mut buf = [0u8; 8];
//! let mut w = Writer::new(&mut buf);
//! HandshakeMessage::KeyUpdate(KeyUpdateRequest::UPDATE_REQUESTED).encode(&mut w).unwrap();
//! let n = w.len();
//! assert_eq!(&buf[..n], &[24, 0, 0, 1, 1]);
//! assert_eq!(
//!     HandshakeMessage::decode(&buf[..n]),
//!     Ok(HandshakeMessage::KeyUpdate(KeyUpdateRequest::UPDATE_REQUESTED))
//! );
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Protocol message names (ClientHello, HelloRetryRequest…) are prose here, not code.
#![allow(clippy::doc_markdown)]

#[cfg(any(feature = "std", test))]
extern crate std;

pub mod conn;
mod error;
pub mod key_schedule;
pub mod kx;
pub mod msgs;
pub mod pem;
pub mod psk;
pub mod record;
pub mod sign;
#[cfg(feature = "std")]
mod stream;
pub mod suites;
pub mod ticket;
pub mod verify;

pub use conn::{
    Buffers, ClientAuth, ClientConfig, Connection, Negotiated, RecordLimits, ServerConfig,
    ServerTickets, Want,
};
pub use error::{ApiMisuse, CertificateError, Error, PeerIncompatible, PeerMisbehaved};
pub use psk::{ExternalPsk, ServerPsks};
pub use sign::{CertifiedKey, SigningKey};
#[cfg(feature = "std")]
pub use stream::Stream;
