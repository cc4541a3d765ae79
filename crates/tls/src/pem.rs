//! PEM (RFC 7468) decoding without an allocator: the blocks of a given label in a text, each
//! decoded into a caller's buffer, for certificate chains and PKCS#8 private keys. The codec
//! is `core-der`'s, shared with the key crates; this module keeps `tls::pem`'s paths.

pub use core_der::pem::{PemError, blocks, decode_body, decode_first, decoded_len};
