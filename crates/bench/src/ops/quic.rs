//! QUIC packet protection (group `tls`): one 1200-byte short-header packet per call, sealed
//! in place under the packet key and then header-protected (RFC 9001 §5.3, §5.4), through
//! rustls's `quic` API on each provider: Halite's (`rustls-halite`) against rustls's aws-lc-rs
//! and ring providers. Every library gets the same Initial keys (`quic::Keys::initial` with one
//! connection ID on its own copy of the suite) and the same packet number, so every output is
//! the same bytes and the agreement check compares them. The packet is copied into a reused
//! buffer first, the same 1200-byte copy for everyone.

use rustls::SupportedCipherSuite;
use rustls::crypto::CryptoProvider;
use rustls::quic::{DirectionalKeys, Keys, Version};

use super::{Halite, Library, Op, Runner, Unit, peer};

/// The packet size: RFC 9000 §14.1's minimum for a client's first datagram.
const PACKET_LEN: usize = 1200;
/// A short header: the first byte (four-byte packet number) and the packet number.
const HEADER: [u8; 5] = [0x43, 0, 0, 0, 7];
/// The packet number in [`HEADER`].
const PACKET_NUMBER: u64 = 7;

/// The client's Initial sending keys for `suite` on `provider`.
fn keys(provider: &CryptoProvider, suite: u16) -> DirectionalKeys {
    let tls13 = provider
        .cipher_suites
        .iter()
        .find(|s| u16::from(s.suite()) == suite)
        .and_then(SupportedCipherSuite::tls13)
        .expect("the provider has the suite");
    let quic = tls13.quic.expect("the suite offers QUIC");
    Keys::initial(Version::V1, tls13, quic, b"halite bench", rustls::Side::Client).local
}

/// A runner sealing and header-protecting one packet of the message per call (its first
/// `PACKET_LEN - 5 - 16` bytes after the header), appending the protected packet.
fn runner(keys: DirectionalKeys) -> Runner {
    let mut packet = vec![0u8; PACKET_LEN];
    Box::new(move |m, out| {
        let (header, rest) = packet.split_at_mut(HEADER.len());
        header.copy_from_slice(&HEADER);
        let (payload, tag) = rest.split_at_mut(rest.len() - 16);
        let n = payload.len().min(m.len());
        payload[..n].copy_from_slice(&m[..n]);
        let t = keys.packet.encrypt_in_place(PACKET_NUMBER, header, payload).unwrap();
        tag.copy_from_slice(t.as_ref());
        let sample: [u8; 16] = rest[..16].try_into().unwrap();
        let (first, pn) = header.split_first_mut().unwrap();
        keys.header.encrypt_in_place(&sample, first, pn).unwrap();
        out.extend_from_slice(&packet);
    })
}

fn halite(suite: u16) -> Runner {
    runner(keys(&rustls_halite::default_provider(), suite))
}

fn aws_lc(suite: u16) -> Runner {
    runner(keys(&rustls::crypto::aws_lc_rs::default_provider(), suite))
}

fn ring(suite: u16) -> Runner {
    runner(keys(&rustls::crypto::ring::default_provider(), suite))
}

fn halite_side(make: fn() -> Runner) -> Halite {
    Halite {
        default_impl: "rustls-halite".to_owned(),
        default: make(),
        impls: vec![("rustls-halite".to_owned(), make())],
    }
}

/// The QUIC operations: one per TLS 1.3 suite QUIC uses.
pub(super) fn ops() -> Vec<Op> {
    let op = |id, what, halite: fn() -> Halite, aws: fn() -> Runner, ring: fn() -> Runner| Op {
        id,
        group: "tls",
        what,
        unit: Unit::Bytes,
        sizes: Some(&[PACKET_LEN]),
        halite,
        peers: [peer(Library::RustlsAwsLc, aws), peer(Library::RustlsRing, ring)]
            .into_iter()
            .flatten()
            .collect(),
        openssl: None,
        canonical: None,
    };
    vec![
        op(
            "quic-aes-128-gcm",
            "QUIC 1200-byte packet: AES-128-GCM seal and AES header protection (rustls quic API)",
            || halite_side(|| halite(0x1301)),
            || aws_lc(0x1301),
            || ring(0x1301),
        ),
        op(
            "quic-aes-256-gcm",
            "QUIC 1200-byte packet: AES-256-GCM seal and AES header protection (rustls quic API)",
            || halite_side(|| halite(0x1302)),
            || aws_lc(0x1302),
            || ring(0x1302),
        ),
        op(
            "quic-chacha20-poly1305",
            "QUIC 1200-byte packet: ChaCha20-Poly1305 seal and ChaCha20 header protection",
            || halite_side(|| halite(0x1303)),
            || aws_lc(0x1303),
            || ring(0x1303),
        ),
    ]
}
