//! The host side: a Halite TLS server that knows the firmware's PSK, echoes whatever
//! application data it receives, and ends when the client closes. `cargo xtask m0 --tls`
//! starts it in the directory of the two pipes, before QEMU.

use std::ffi::{CStr, OsStr};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;
use std::process::ExitCode;

use tls::{Buffers, Connection, Error, OsRandom, ServerConfig, ServerPsks, Want};

use crate::{PSK, RECORD_SIZE_LIMIT, TO_CLIENT, TO_SERVER};

/// The server's configuration: the firmware's PSK only, no certificates.
fn config() -> ServerConfig<'static> {
    ServerConfig {
        psks: Some(ServerPsks { keys: &[PSK], psk_ke: false }),
        record_size_limit: Some(RECORD_SIZE_LIMIT),
        ..ServerConfig::new(&[])
    }
}

/// Serves one connection over `input` and `output`; returns the bytes echoed.
fn serve(input: &mut impl Read, output: &mut impl Write) -> Result<usize, String> {
    let (mut received, mut send, mut handshake) = ([0; 4096], [0; 4096], [0; 4096]);
    let bufs = Buffers { received: &mut received, send: &mut send, handshake: &mut handshake };
    let mut conn = Connection::server(config(), bufs, &mut OsRandom).map_err(tls_error)?;
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

/// Opens the pipes in the firmware's order (see `device::Pipes::open`) and serves.
pub(crate) fn main() -> ExitCode {
    let path = |name: &CStr| Path::new(OsStr::from_bytes(name.to_bytes())).to_owned();
    let pipes = File::open(path(TO_SERVER))
        .and_then(|input| Ok((input, OpenOptions::new().write(true).open(path(TO_CLIENT))?)));
    let result = pipes
        .map_err(|e| format!("opening the pipes: {e}"))
        .and_then(|(mut i, mut o)| serve(&mut i, &mut o));
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

    use tls::msgs::NamedGroup;
    use tls::{Connection, OsRandom, UnixTime};

    use super::*;
    use crate::{MESSAGE, client_config};

    /// The firmware's client configuration and buffer sizes against [`serve`], over a socket
    /// pair: the PSK is taken in `psk_dhe_ke` mode with X25519, the message comes back, and
    /// the server ends cleanly on `close_notify`.
    #[test]
    fn the_firmware_client_gets_its_echo() {
        let (mut link, theirs) = UnixStream::pair().unwrap();
        let server = std::thread::spawn(move || serve(&mut &theirs, &mut &theirs));
        let clock = UnixTime::since_unix_epoch(core::time::Duration::from_secs(0));
        // The firmware's buffers, but for `send`: in a workspace build the host's `tls` has
        // the features other crates ask for (`mldsa` adds three schemes to the ClientHello's
        // signature_algorithms), so its ClientHello may outgrow the firmware's 256 bytes;
        // `cargo xtask m0 --tls` runs the firmware's own.
        let (mut received, mut send, mut handshake) = ([0; 160], [0; 320], [0; 256]);
        let bufs = Buffers { received: &mut received, send: &mut send, handshake: &mut handshake };
        let mut conn =
            Connection::client(client_config(&clock), "localhost", bufs, &mut OsRandom).unwrap();
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
            let n = link.read(conn.receive_space()).unwrap();
            assert!(n > 0, "the server hung up");
            conn.received(n).unwrap();
        }
        assert_eq!(echo, MESSAGE);
        let negotiated = conn.negotiated().unwrap();
        assert!(negotiated.external_psk, "{negotiated:?}");
        assert_eq!(negotiated.group, NamedGroup::X25519);
        conn.close();
        link.write_all(conn.pending_send()).unwrap();
        assert_eq!(server.join().unwrap(), Ok(MESSAGE.len()));
    }
}
