#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Protocol message names (ClientHello, HelloRetryRequest…) are prose here, not code.
#![allow(clippy::doc_markdown)]

#[cfg(any(feature = "std", test))]
extern crate std;

mod client;
pub mod clock;
mod compiled;
mod config;
pub mod conn;
mod der;
mod engine;
mod error;
/// The TLS 1.3 key schedule (RFC 8446 §7.1) and the transcript hash (§4.4.1), over
/// `core_hash`'s HKDF and SHA-2 for the two hashes the TLS 1.3 suites use.
///
/// The schedule moves through its stages as types — [`EarlySecret`] → [`HandshakeSecret`] →
/// [`MasterSecret`] — so a secret cannot be derived from the wrong stage. Every secret is a
/// [`Secret`], wiped on drop. The transcript is a running hash that can be forked (cloned) to
/// take intermediate values, as CertificateVerify and Finished need.
///
/// [`EarlySecret`]: crate::key_schedule::EarlySecret
/// [`HandshakeSecret`]: crate::key_schedule::HandshakeSecret
/// [`MasterSecret`]: crate::key_schedule::MasterSecret
/// [`Secret`]: crate::key_schedule::Secret
pub mod key_schedule {
    #[cfg(feature = "tls12")]
    #[doc(hidden)]
    pub use crate::schedule::tls12;
    pub use crate::schedule::tls13::*;
    pub use crate::schedule::{Digest, HashAlg, MAX_HASH_LEN, Secret, Transcript};
}
pub mod kx;
pub mod msgs;
pub mod pem;
pub mod provider;
pub mod psk;
pub mod record;
#[cfg(feature = "raw-public-keys")]
pub mod rpk;
mod schedule;
#[cfg(feature = "server")]
mod server;
pub mod sign;
#[cfg(feature = "std")]
mod stream;
pub mod suites;
pub mod ticket;
pub mod verify;

pub use clock::Clock;
#[cfg(feature = "std")]
pub use clock::SystemClock;
#[cfg(feature = "std")]
pub use core_hash::OsRandom;
pub use core_hash::{HashAlg, RandomSource};
pub use pki_types::{CertificateDer, TrustAnchor, UnixTime};
#[cfg(feature = "std")]
pub use verify::roots_from_pem;

#[cfg(feature = "tls12")]
pub use conn::ServerSessionCache;
pub use conn::{
    Buffers, CertificateChain, ClientAuth, ClientConfig, Connection, Negotiated, PeerIdentity,
    RecordLimits, ServerConfig, ServerTickets, Want,
};
pub use error::{
    ApiMisuse, BufferKind, CertificateError, Error, KeyError, PeerIncompatible, PeerMisbehaved,
    SchemeSet,
};
pub use psk::{ExternalPsk, ServerPsks};
pub use sign::{CertifiedKey, SigningKey};
#[cfg(feature = "std")]
pub use stream::Stream;
