//! m0-tls: TLS 1.3 clients as firmware images for an emulated Cortex-M0, and, built for the
//! host, the Halite server they talk to. `cargo xtask m0 --tls` builds both, makes two named
//! pipes, starts the server on them and runs each image on QEMU's micro:bit model (16 KiB of
//! RAM), which opens the same pipes through semihosting.
//!
//! Three images, one per cargo feature, each linking only what it uses: `psk`, a client that
//! offers an external PSK in `psk_dhe_ke` mode; `rpk` (see [`rpk`]), one that pins its
//! server's Ed25519 raw public key (RFC 7250); and `cert` (see `cert`), one that checks its
//! server's ECDSA P-256 chain with webpki against one trust anchor and also offers
//! AES-128-CCM. All use X25519 and `TLS_CHACHA20_POLY1305_SHA256`, advertise a
//! `record_size_limit` of [`RECORD_SIZE_LIMIT`], send `MESSAGE`, read it back and exit 0.
//! The firmware prints the painted stack peak (below `main`'s frame) and calls a marker
//! between phases, so the instruction-counting plugin of `m0 --cost` can time the handshake.
//! The host build has every feature and serves the image its argument names.
#![cfg_attr(target_os = "none", no_std, no_main)]

#[cfg(all(
    target_os = "none",
    any(
        all(feature = "psk", feature = "rpk"),
        all(feature = "cert", any(feature = "psk", feature = "rpk"))
    )
))]
compile_error!(
    "one image at a time: build the firmware with --no-default-features and `psk`, `rpk` or `cert`"
);
#[cfg(all(target_os = "none", not(any(feature = "psk", feature = "rpk", feature = "cert"))))]
compile_error!("no image chosen: build the firmware with the `psk`, `rpk` or `cert` feature");

#[cfg(feature = "cert")]
mod cert;
#[cfg(target_os = "none")]
mod device;
#[cfg(feature = "rpk")]
mod rpk;
#[cfg(not(target_os = "none"))]
mod server;
#[cfg(target_os = "none")]
#[path = "../../m0-kat/src/stack.rs"]
mod stack;

use core::ffi::CStr;

#[cfg(any(all(target_os = "none", feature = "psk"), test))]
use tls::{
    ClientConfig, UnixTime,
    msgs::{NamedGroup, ProtocolVersion, PskKeyExchangeMode},
    suites,
};
#[cfg(any(feature = "psk", not(target_os = "none")))]
use tls::{ExternalPsk, key_schedule::HashAlg};

/// The pipe the client writes and the server reads, relative to QEMU's working directory.
pub(crate) const TO_SERVER: &CStr = c"m0-tls-c2s";
/// The pipe the server writes and the client reads.
pub(crate) const TO_CLIENT: &CStr = c"m0-tls-s2c";

/// The key both ends share. A test key: a device would keep its own in protected storage.
#[cfg(any(feature = "psk", not(target_os = "none")))]
pub(crate) const PSK: ExternalPsk<'static> = ExternalPsk {
    identity: b"microbit-1",
    key: b"m0-tls test key: not a secret!!!",
    hash: HashAlg::Sha256,
};

/// The `record_size_limit` both ends advertise (RFC 8449's smallest).
pub(crate) const RECORD_SIZE_LIMIT: u16 = 64;

/// What the client sends and expects back.
#[cfg(any(target_os = "none", test))]
pub(crate) const MESSAGE: &[u8] = b"hello from a Cortex-M0";

#[cfg(any(all(target_os = "none", feature = "psk"), test))]
/// The PSK image's client: the PSK in `psk_dhe_ke` mode with X25519, ChaCha20-Poly1305, and a
/// small `record_size_limit`. `clock` is never read (no certificate to check, no ticket).
pub(crate) fn client_config(clock: &UnixTime) -> ClientConfig<'_> {
    ClientConfig {
        // TLS 1.3 only, also where the host build's `tls` has `tls12` (workspace feature
        // unification): its ClientHello must fit the firmware's 256-byte send buffer there too.
        versions: &[ProtocolVersion::TLSV1_3],
        suites: &[suites::TLS13_CHACHA20_POLY1305_SHA256],
        groups: &[NamedGroup::X25519],
        psk_modes: &[PskKeyExchangeMode::PSK_DHE_KE],
        record_size_limit: Some(RECORD_SIZE_LIMIT),
        external_psk: Some(&PSK),
        ..ClientConfig::new(&[], clock)
    }
}

/// Host entry point: the server side (see [`server`]).
#[cfg(not(target_os = "none"))]
fn main() -> std::process::ExitCode {
    server::main()
}
