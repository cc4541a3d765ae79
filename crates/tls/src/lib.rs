//! Halite's TLS: a sans-IO TLS 1.3 (and 1.2) client and server composed from Halite's own primitives
//! (`core-hash`, `core-aead`, `core-ec`, `core-rsa`), for everything from a Cortex-M0 to a
//! server.
//!
//! A [`Connection`] does no I/O: the caller copies received bytes into
//! [`Connection::receive_space`] and reports them with [`Connection::received`], sends what
//! [`Connection::pending_send`] holds and reports it with [`Connection::sent`], and moves
//! application data with [`Connection::write`] and [`Connection::read`];
//! [`Connection::want`] says which of these is due. Nothing in the core allocates: records
//! live in the [`Buffers`] the caller provides (sizes in its documentation). The `std`
//! feature adds a blocking [`Stream`] over any `Read + Write`, the OS random source
//! ([`OsRandom`]) and [`roots_from_pem`]; with the re-exported [`UnixTime`],
//! [`CertificateDer`] and [`TrustAnchor`], a client or server needs no other crate (see
//! [`Stream::new`]).
//!
//! The `tls12` feature (on by default) adds TLS 1.2 (RFC 5246: ECDHE with AEAD suites, the
//! extended master secret required): a client then offers TLS 1.3 and 1.2 and a server
//! accepts both, the highest common one taken ([`conn::DEFAULT_VERSIONS`]). A build without
//! it speaks TLS 1.3 only, smaller: the TLS 1.2 handshakes, record protection, PRF and
//! suites are not compiled, and a configuration that names TLS 1.2 is
//! [`ApiMisuse::BadConfig`].
//!
//! A client and a server sharing an external PSK (no certificates: a device pairing, say)
//! handshake in memory and exchange a message:
//!
//! ```
//! use tls::key_schedule::HashAlg;
//! use tls::{Buffers, ClientConfig, Connection, ExternalPsk, OsRandom, ServerConfig, ServerPsks};
//! use tls::UnixTime;
//!
//! let psk = ExternalPsk { identity: b"sensor-17", key: &[7; 32], hash: HashAlg::Sha256 };
//! let now = UnixTime::now();
//! let client_config = ClientConfig { external_psk: Some(psk), ..ClientConfig::new(&[], &now) };
//! let keys = [psk];
//! let psks = Some(ServerPsks { keys: &keys, psk_ke: false });
//! let server_config = ServerConfig { psks, ..ServerConfig::new(&[]) };
//!
//! let (mut c_rx, mut c_tx, mut c_hs) = ([0u8; 2048], [0u8; 2048], [0u8; 2048]);
//! let (mut s_rx, mut s_tx, mut s_hs) = ([0u8; 2048], [0u8; 2048], [0u8; 2048]);
//! let c_bufs = Buffers { received: &mut c_rx, send: &mut c_tx, handshake: &mut c_hs };
//! let s_bufs = Buffers { received: &mut s_rx, send: &mut s_tx, handshake: &mut s_hs };
//! let mut client = Connection::client(client_config, "sensor-17", c_bufs, &mut OsRandom)?;
//! let mut server = Connection::server(server_config, s_bufs, &mut OsRandom)?;
//!
//! // Moves one side's pending records to the other.
//! fn pump(from: &mut Connection, to: &mut Connection) -> Result<(), tls::Error> {
//!     let n = from.pending_send().len();
//!     to.receive_space()[..n].copy_from_slice(from.pending_send());
//!     from.sent(n);
//!     to.received(n)
//! }
//! while client.is_handshaking() || server.is_handshaking() {
//!     pump(&mut client, &mut server)?;
//!     pump(&mut server, &mut client)?;
//! }
//! client.write(b"reading: 21.5C")?;
//! pump(&mut client, &mut server)?;
//! let mut buf = [0u8; 64];
//! let n = server.read(&mut buf)?;
//! assert_eq!(&buf[..n], b"reading: 21.5C");
//! assert!(server.negotiated().is_some_and(|n| n.external_psk));
//! # Ok::<(), tls::Error>(())
//! ```
//!
//! The layers underneath are public too: the wire codec ([`msgs`], which rejects every
//! malformed or trailing byte), the key schedule and transcript ([`key_schedule`]), record
//! protection ([`record`]), key exchange ([`kx`]), signatures ([`sign`]) and certificate
//! verification through `rustls-webpki` ([`verify`]).
//!
//! The cryptography comes from a provider table whose defaults are Halite's primitives; a
//! configuration can put a user's AEAD, key-exchange group or signing key in place of any
//! entry (a hardware AES engine, a key in a secure element, a group Halite lacks) through the
//! traits of [`provider`], still without an allocator.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Protocol message names (ClientHello, HelloRetryRequest…) are prose here, not code.
#![allow(clippy::doc_markdown)]

#[cfg(any(feature = "std", test))]
extern crate std;

mod client;
pub mod clock;
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
mod schedule;
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
pub use core_hash::RandomSource;
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
