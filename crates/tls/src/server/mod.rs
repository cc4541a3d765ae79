//! The server role: the ClientHello answered ([`hello`]), the PSK chosen ([`psk`]), and the
//! TLS 1.3 handshake after the server's flight ([`tls13`]).

pub(crate) mod hello;
pub(crate) mod psk;
pub(crate) mod tls13;
