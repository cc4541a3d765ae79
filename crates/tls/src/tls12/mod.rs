//! TLS 1.2 (RFC 5246 with the modern requirements: ECDHE only, AEAD only, extended master
//! secret, secure renegotiation indication) as building blocks the 1.2 client and server
//! state machines compose: the PRF and its secrets ([`prf`]), AEAD record protection
//! ([`record`]), the eight suites ([`suites`]) and the 1.2-only messages and extensions
//! ([`msgs`]). None of it allocates.

pub mod msgs;
pub mod prf;
pub mod record;
pub mod suites;
