//! The raw-public-key image (the `rpk` feature): a client that pins its server's Ed25519 key
//! by value (RFC 7250), so no X.509 and no `rustls-webpki` is linked, and the server's side of
//! it. X25519, ChaCha20-Poly1305 and `record_size_limit` as the PSK image.
//!
//! Why Ed25519: its verification runs on the Curve25519 field the X25519 key exchange links
//! anyway, and it hashes with SHA-512 alone; ECDSA P-256 would add a second field, its
//! scalar arithmetic and tables (`tls`'s `ed25519` feature is the only verifier this image
//! turns on, so the `signature_algorithms` it sends lists only Ed25519).

#[cfg(any(target_os = "none", test))]
use tls::{
    ClientConfig, UnixTime,
    msgs::{NamedGroup, ProtocolVersion},
    rpk::PinnedKeys,
    suites,
};

#[cfg(any(target_os = "none", test))]
use crate::RECORD_SIZE_LIMIT;

/// The server's Ed25519 key as a DER `SubjectPublicKeyInfo`: what the firmware pins. A test
/// key, made for this firmware (`openssl genpkey -algorithm ed25519`).
pub(crate) const SERVER_SPKI: &[u8] = &[
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00, 0xcb, 0xcb, 0x6a, 0xa3,
    0x5d, 0x87, 0x55, 0x99, 0x78, 0xca, 0x7e, 0x23, 0x65, 0x65, 0xe9, 0x3e, 0x89, 0xec, 0x0a, 0x24,
    0x76, 0x67, 0xdf, 0xa1, 0xcb, 0xad, 0xfa, 0x64, 0xb3, 0x53, 0x85, 0x16,
];

/// Its private key (PKCS#8 DER), for the host server only: a test key, not a secret.
#[cfg(not(target_os = "none"))]
pub(crate) const SERVER_KEY: &[u8] = &[
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
    0x37, 0x8a, 0x23, 0x43, 0x64, 0x0c, 0xc3, 0x21, 0xab, 0xfb, 0xda, 0x74, 0x9a, 0xbb, 0x4a, 0x2e,
    0x61, 0xa7, 0xb6, 0x62, 0x14, 0x1b, 0xb8, 0x29, 0xf7, 0x09, 0x76, 0x0b, 0x5d, 0x4a, 0x8a, 0xaa,
];

/// The firmware's one pin: the server's key, raw keys only (no certificate accepted).
#[cfg(any(target_os = "none", test))]
pub(crate) static PINS: PinnedKeys<'static> = PinnedKeys::only(&[SERVER_SPKI]);

/// The firmware's client: the server authenticated by [`PINS`] alone, X25519,
/// ChaCha20-Poly1305 and a small `record_size_limit`. `clock` is never read (no certificate,
/// no ticket).
#[cfg(any(target_os = "none", test))]
pub(crate) fn client_config<'a>(clock: &'a UnixTime, pins: &'a PinnedKeys<'a>) -> ClientConfig<'a> {
    ClientConfig {
        // TLS 1.3 only: raw keys only is TLS 1.3 only anyway (RFC 7250 is not offered in 1.2).
        versions: &[ProtocolVersion::TLSV1_3],
        suites: &[suites::TLS13_CHACHA20_POLY1305_SHA256],
        groups: &[NamedGroup::X25519],
        record_size_limit: Some(RECORD_SIZE_LIMIT),
        server_keys: Some(pins),
        ..ClientConfig::new(&[], clock)
    }
}
