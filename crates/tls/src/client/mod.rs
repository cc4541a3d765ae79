//! The client role: its ClientHello ([`hello`]) and the TLS 1.3 handshake after it
//! ([`tls13`]).

pub(crate) mod hello;
pub(crate) mod tls13;
