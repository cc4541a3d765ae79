//! The certificate image (the `cert` feature): a client that checks its server's ECDSA P-256
//! certificate with `rustls-webpki` against one trust anchor, the root that signed it, and
//! the server's side of it. X25519, `record_size_limit` as the other images; it offers
//! ChaCha20-Poly1305 and AES-128-CCM (a device without a fast AES takes the first, one with
//! an AES peripheral would put CCM first).
//!
//! The chain is the `tls` tests' P-256 PKI (`crates/tls/tests/data`, `gen-more.sh`): leaf
//! "localhost" signed with ECDSA P-256/SHA-256 by "Halite Test CA (p256)". Test keys only.

#[cfg(any(target_os = "none", test))]
use tls::{
    ClientConfig, TrustAnchor, UnixTime,
    msgs::{NamedGroup, ProtocolVersion},
    suites,
};

#[cfg(any(target_os = "none", test))]
use crate::RECORD_SIZE_LIMIT;

/// The root's certificate (DER): what the firmware's trust anchor is cut from.
#[cfg(any(target_os = "none", test))]
const CA: &[u8] = include_bytes!("../../../crates/tls/tests/data/ca-p256.der");

/// The server's certificate (DER), the whole chain it sends.
#[cfg(not(target_os = "none"))]
pub(crate) const SERVER_CERT: &[u8] =
    include_bytes!("../../../crates/tls/tests/data/server-p256.der");

/// Its private key (PKCS#8 DER), for the host server only: a test key, not a secret.
#[cfg(not(target_os = "none"))]
pub(crate) const SERVER_KEY: &[u8] =
    include_bytes!("../../../crates/tls/tests/data/server-p256.key.der");

/// `len` bytes of `der` from `at`, in a constant.
#[cfg(any(target_os = "none", test))]
const fn part(der: &[u8], at: usize, len: usize) -> &[u8] {
    der.split_at(at).1.split_at(len).0
}

/// Where the root's subject `Name` and `SubjectPublicKeyInfo` contents lie in [`CA`] (offset,
/// length; `openssl asn1parse` shows each SEQUENCE's two header bytes just before).
#[cfg(any(target_os = "none", test))]
const SUBJECT: (usize, usize) = (117, 32);
#[cfg(any(target_os = "none", test))]
const SPKI: (usize, usize) = (151, 89);

/// The firmware's one trust anchor, as `rustls-webpki` makes it from [`CA`] (the contents of
/// its subject and SPKI, no name constraints), but built at compile time: no certificate is
/// parsed at run time to get it.
#[cfg(any(target_os = "none", test))]
pub(crate) static ROOTS: [TrustAnchor<'static>; 1] = [TrustAnchor {
    subject: pki_types::Der::from_slice(part(CA, SUBJECT.0, SUBJECT.1)),
    subject_public_key_info: pki_types::Der::from_slice(part(CA, SPKI.0, SPKI.1)),
    name_constraints: None,
}];

/// The firmware's clock: a fixed time inside the test chain's validity (2027-01-01), as a
/// device's real-time clock would give it.
#[cfg(any(target_os = "none", test))]
pub(crate) const NOW: UnixTime =
    UnixTime::since_unix_epoch(core::time::Duration::from_secs(1_798_761_600));

/// The firmware's client: the server's chain checked to [`ROOTS`] at `clock` for
/// "localhost", X25519, ChaCha20-Poly1305 or AES-128-CCM, and a small `record_size_limit`.
#[cfg(any(target_os = "none", test))]
pub(crate) fn client_config(clock: &UnixTime) -> ClientConfig<'_> {
    ClientConfig {
        versions: &[ProtocolVersion::TLSV1_3],
        suites: &[suites::TLS13_CHACHA20_POLY1305_SHA256, suites::TLS13_AES_128_CCM_SHA256],
        groups: &[NamedGroup::X25519],
        record_size_limit: Some(RECORD_SIZE_LIMIT),
        ..ClientConfig::new(&ROOTS, clock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The anchor's parts are the root's subject and SPKI: each the contents of a SEQUENCE
    /// whose short-form header sits just before it.
    #[test]
    fn the_anchor_is_cut_from_the_root_at_its_sequences() {
        for (at, len) in [SUBJECT, SPKI] {
            assert_eq!(CA[at - 2..at], [0x30, len as u8]);
        }
        assert_eq!(ROOTS[0].subject.as_ref(), &CA[117..149]);
    }
}
