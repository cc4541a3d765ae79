//! The host side: a Halite TLS server for one image (its argument: `psk`, knowing the
//! firmware's PSK, or `rpk`, authenticating with the raw key the firmware pins), which echoes
//! whatever application data it receives and ends when the client closes. `cargo xtask m0
//! --tls` starts it in the directory of the two pipes, before QEMU.

use std::ffi::{CStr, OsStr};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;
use std::process::ExitCode;

use tls::{Buffers, Connection, Error, OsRandom, ServerConfig, ServerPsks, Want};

use crate::{PSK, RECORD_SIZE_LIMIT, TO_CLIENT, TO_SERVER};

/// The server's configuration for the PSK image: the firmware's PSK only, no certificates.
fn psk_config() -> ServerConfig<'static> {
    ServerConfig {
        psks: Some(&ServerPsks { keys: &[PSK], psk_ke: false }),
        record_size_limit: Some(RECORD_SIZE_LIMIT),
        ..ServerConfig::new(&[])
    }
}

/// The server's configuration for the raw-key image: the Ed25519 key the firmware pins,
/// no certificates, no PSK.
#[cfg(feature = "rpk")]
fn rpk_config() -> Result<ServerConfig<'static>, String> {
    let key = tls::SigningKey::from_pkcs8_der(crate::rpk::SERVER_KEY).map_err(tls_error)?;
    let raw_key = tls::rpk::RawKey { spki: crate::rpk::SERVER_SPKI, key: Box::leak(Box::new(key)) };
    Ok(ServerConfig {
        raw_key: Some(Box::leak(Box::new(raw_key))),
        record_size_limit: Some(RECORD_SIZE_LIMIT),
        ..ServerConfig::new(&[])
    })
}

/// The server's configuration for the certificate image: the P-256 leaf the firmware checks
/// to its root, with its key; no PSK.
#[cfg(feature = "cert")]
fn cert_config() -> Result<ServerConfig<'static>, String> {
    let key = tls::SigningKey::from_pkcs8_der(crate::cert::SERVER_KEY).map_err(tls_error)?;
    let certified =
        tls::CertifiedKey { chain: &[crate::cert::SERVER_CERT], key: Box::leak(Box::new(key)) };
    Ok(ServerConfig {
        record_size_limit: Some(RECORD_SIZE_LIMIT),
        ..ServerConfig::new(Box::leak(Box::new([certified])))
    })
}

/// The configuration for the image named `image`.
fn config(image: &str) -> Result<ServerConfig<'static>, String> {
    match image {
        "psk" => Ok(psk_config()),
        #[cfg(feature = "rpk")]
        "rpk" => rpk_config(),
        #[cfg(feature = "cert")]
        "cert" => cert_config(),
        _ => Err(format!("no such image here: {image:?}")),
    }
}

/// Serves one connection with `config` over `input` and `output`; returns the bytes echoed.
fn serve(
    config: ServerConfig<'static>,
    input: &mut impl Read,
    output: &mut impl Write,
) -> Result<usize, String> {
    let (mut received, mut send, mut handshake) = ([0; 4096], [0; 4096], [0; 4096]);
    let bufs = Buffers { received: &mut received, send: &mut send, handshake: &mut handshake };
    let mut conn = Connection::server(config, bufs, &mut OsRandom).map_err(tls_error)?;
    let mut echoed = 0;
    let mut data = [0; 256];
    loop {
        match conn.want() {
            Want::Send => {
                output.write_all(conn.pending_send()).map_err(|e| format!("write: {e}"))?;
                conn.sent(conn.pending_send().len());
            }
            Want::Read => {
                let n = conn.read(&mut data).map_err(tls_error)?;
                conn.write(&data[..n]).map_err(tls_error)?;
                echoed += n;
            }
            Want::Receive => {
                let n = input.read(conn.receive_space()).map_err(|e| format!("read: {e}"))?;
                if n == 0 {
                    return Err("the client closed its pipe without close_notify".into());
                }
                conn.received(n).map_err(tls_error)?;
            }
            Want::Closed => return Ok(echoed),
            Want::Failed => {
                return Err(tls_error(
                    conn.error().unwrap_or(Error::ApiMisuse(tls::ApiMisuse::Closed)),
                ));
            }
        }
    }
}

fn tls_error(e: Error) -> String {
    format!("TLS: {e:?}")
}

/// Opens the pipes in the firmware's order (see `device::Pipes::open`) and serves the image
/// its argument names (`psk` without one).
pub(crate) fn main() -> ExitCode {
    let image = std::env::args().nth(1).unwrap_or_else(|| "psk".into());
    let path = |name: &CStr| Path::new(OsStr::from_bytes(name.to_bytes())).to_owned();
    let result = config(&image).and_then(|config| {
        let pipes = File::open(path(TO_SERVER))
            .and_then(|input| Ok((input, OpenOptions::new().write(true).open(path(TO_CLIENT))?)));
        let (mut input, mut output) = pipes.map_err(|e| format!("opening the pipes: {e}"))?;
        serve(config, &mut input, &mut output)
    });
    match result {
        Ok(n) => {
            println!("m0-tls server: echoed {n} B, closed by the client");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("m0-tls server: FAIL {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::net::UnixStream;

    use tls::msgs::{AlertDescription, NamedGroup, SignatureScheme};
    use tls::{CertificateError, ClientConfig, Connection, Negotiated, OsRandom, UnixTime};

    use super::*;
    use crate::{MESSAGE, client_config};

    /// A firmware client configuration and buffer sizes against [`serve`] with the
    /// configuration `server` makes (in the server's thread: with `tls12` in a workspace
    /// build, a `ServerConfig` is not `Send`), over a socket pair: the handshake, `MESSAGE`
    /// echoed, `close_notify`. Returns what was negotiated, or the client's error and the
    /// server's.
    fn echo(
        client: ClientConfig<'_>,
        server: fn() -> ServerConfig<'static>,
    ) -> Result<Negotiated, (tls::Error, Result<usize, String>)> {
        let (mut link, theirs) = UnixStream::pair().unwrap();
        let server = std::thread::spawn(move || serve(server(), &mut &theirs, &mut &theirs));
        // The firmware's buffers, but for `send`: in a workspace build the host's `tls` has
        // the features other crates ask for (`mldsa` adds three schemes to the ClientHello's
        // signature_algorithms), so its ClientHello may outgrow the firmware's 256 bytes;
        // `cargo xtask m0 --tls` runs the firmware's own. `handshake` as the certificate
        // image's (the others have 256 bytes: their longest message is much shorter).
        let (mut received, mut send, mut handshake) = ([0; 160], [0; 320], [0; 576]);
        let bufs = Buffers { received: &mut received, send: &mut send, handshake: &mut handshake };
        let mut conn = Connection::client(client, "localhost", bufs, &mut OsRandom).unwrap();
        let mut echo = Vec::new();
        let mut written = false;
        while echo.len() < MESSAGE.len() {
            if !conn.is_handshaking() && !written {
                assert_eq!(conn.write(MESSAGE).unwrap(), MESSAGE.len());
                written = true;
            }
            if conn.want() == Want::Read {
                let mut out = [0; 64];
                let n = conn.read(&mut out).unwrap();
                echo.extend_from_slice(&out[..n]);
                continue;
            }
            link.write_all(conn.pending_send()).unwrap();
            conn.sent(conn.pending_send().len());
            if let Some(e) = conn.error() {
                // Its alert is sent: the server ends on it.
                return Err((e, server.join().unwrap()));
            }
            let n = link.read(conn.receive_space()).unwrap();
            assert!(n > 0, "the server hung up");
            if let Err(e) = conn.received(n) {
                link.write_all(conn.pending_send()).unwrap();
                return Err((e, server.join().unwrap()));
            }
        }
        assert_eq!(echo, MESSAGE);
        let negotiated = conn.negotiated().unwrap();
        conn.close();
        link.write_all(conn.pending_send()).unwrap();
        assert_eq!(server.join().unwrap(), Ok(MESSAGE.len()));
        Ok(negotiated)
    }

    fn clock() -> UnixTime {
        UnixTime::since_unix_epoch(core::time::Duration::from_secs(0))
    }

    /// The PSK image: the PSK is taken in `psk_dhe_ke` mode with X25519.
    #[test]
    fn the_psk_firmware_client_gets_its_echo() {
        let clock = clock();
        let negotiated = echo(client_config(&clock), psk_config).unwrap();
        assert!(negotiated.external_psk, "{negotiated:?}");
        assert_eq!(negotiated.group, NamedGroup::X25519);
    }

    /// The raw-key image: the server authenticates with the Ed25519 key the client pins.
    #[test]
    fn the_rpk_firmware_client_gets_its_echo() {
        let clock = clock();
        let client = crate::rpk::client_config(&clock, &crate::rpk::PINS);
        let negotiated = echo(client, || rpk_config().unwrap()).unwrap();
        assert!(!negotiated.external_psk, "{negotiated:?}");
        assert_eq!(negotiated.scheme, SignatureScheme::ED25519);
        assert_eq!(negotiated.group, NamedGroup::X25519);
    }

    /// The certificate image: the server's P-256 chain is checked to the firmware's anchor,
    /// and ChaCha20-Poly1305, the client's first choice, is taken.
    #[test]
    fn the_cert_firmware_client_gets_its_echo() {
        let negotiated =
            echo(crate::cert::client_config(&crate::cert::NOW), || cert_config().unwrap()).unwrap();
        assert!(!negotiated.external_psk, "{negotiated:?}");
        assert_eq!(negotiated.scheme, SignatureScheme::ECDSA_SECP256R1_SHA256);
        assert_eq!(negotiated.group, NamedGroup::X25519);
    }

    /// The certificate image at a time before the chain is valid: the server's certificate
    /// is refused.
    #[test]
    fn the_cert_firmware_client_refuses_a_chain_not_yet_valid() {
        let early = UnixTime::since_unix_epoch(core::time::Duration::from_secs(1_700_000_000));
        let (client, _) = echo(crate::cert::client_config(&early), || cert_config().unwrap())
            .expect_err("a chain not yet valid must fail the handshake");
        assert_eq!(client, tls::Error::InvalidCertificate(CertificateError::NotYetValid));
    }

    /// The raw-key image pinning another key: the server's is refused with `bad_certificate`,
    /// which the server receives.
    #[test]
    fn the_rpk_firmware_client_refuses_a_key_it_did_not_pin() {
        let mut other = crate::rpk::SERVER_SPKI.to_vec();
        *other.last_mut().unwrap() ^= 1;
        let keys = [&other[..]];
        let pins = tls::rpk::PinnedKeys::only(&keys);
        let clock = clock();
        let (client, server) =
            echo(crate::rpk::client_config(&clock, &pins), || rpk_config().unwrap())
                .expect_err("an unpinned key must fail the handshake");
        assert_eq!(client, tls::Error::InvalidCertificate(CertificateError::UnknownRawKey));
        assert_eq!(client.alert(), Some(AlertDescription::BAD_CERTIFICATE));
        assert!(
            server.as_ref().is_err_and(|e| e.contains("BAD_CERTIFICATE") || e.contains("42")),
            "{server:?}"
        );
    }
}
