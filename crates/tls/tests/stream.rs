//! The blocking `Stream` over an in-memory transport: how it reports the end of the peer's
//! data (RFC 8446 §6.1: only close_notify is a clean end) and failures that arrive together
//! with good data.

#![allow(clippy::doc_markdown)] // protocol names (close_notify) are prose

use std::io::{self, Read, Write};

use core_hash::OsRandom;
use pki_types::CertificateDer;
use tls::msgs::AlertDescription;
use tls::{Buffers, ClientConfig, Connection, Error, ServerConfig, SigningKey, Stream};

const CA: &[u8] = include_bytes!("data/ca.der");
const SERVER_CERT: &[u8] = include_bytes!("data/server.der");
const SERVER_KEY: &[u8] = include_bytes!("data/server.key.der");

/// A transport whose reads return `input` in one piece, then end of stream; writes are kept.
#[derive(Default)]
struct Wire {
    input: Vec<u8>,
    output: Vec<u8>,
}

impl Read for Wire {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.input.len());
        buf[..n].copy_from_slice(&self.input[..n]);
        self.input.drain(..n);
        Ok(n)
    }
}

impl Write for Wire {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.output.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
    let n = from.pending_send().len();
    to.receive_space()[..n].copy_from_slice(from.pending_send());
    from.sent(n);
    to.received(n)
}

/// Runs `f` with a client and a server that have completed their handshake in memory.
fn with_pair(f: impl FnOnce(&mut Connection<'_, '_>, &mut Connection<'_, '_>)) {
    let ca = CertificateDer::from(CA);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    let key = SigningKey::from_pkcs8_der(SERVER_KEY).unwrap();
    let chain = [SERVER_CERT];
    let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
    let (mut c_rx, mut c_tx, mut c_hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let (mut s_rx, mut s_tx, mut s_hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let cb = Buffers { received: &mut c_rx, send: &mut c_tx, handshake: &mut c_hs };
    let sb = Buffers { received: &mut s_rx, send: &mut s_tx, handshake: &mut s_hs };
    let config = ClientConfig::new(&roots, &tls::SystemClock);
    let mut c = Connection::client(config, "localhost", cb, &mut OsRandom).unwrap();
    let mut s = Connection::server(ServerConfig::new(&certs), sb, &mut OsRandom).unwrap();
    while c.is_handshaking() || s.is_handshaking() {
        pump(&mut c, &mut s).unwrap();
        pump(&mut s, &mut c).unwrap();
    }
    f(&mut c, &mut s);
}

#[test]
fn end_of_stream_without_close_notify_is_unexpected_eof() {
    with_pair(|c, s| {
        s.write(b"hello").unwrap();
        let wire = Wire { input: s.pending_send().to_vec(), output: Vec::new() };
        let mut stream = Stream { conn: c, sock: wire };
        let mut buf = [0u8; 64];
        assert_eq!(stream.read(&mut buf).unwrap(), 5);
        assert_eq!(&buf[..5], b"hello");
        // The transport ends with no close_notify: the data may have been cut short.
        let e = stream.read(&mut buf).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof, "{e}");
    });
}

#[test]
fn close_notify_then_end_of_stream_is_a_clean_end() {
    with_pair(|c, s| {
        s.write(b"hello").unwrap();
        s.close();
        let wire = Wire { input: s.pending_send().to_vec(), output: Vec::new() };
        let mut stream = Stream { conn: c, sock: wire };
        let mut buf = [0u8; 64];
        assert_eq!(stream.read(&mut buf).unwrap(), 5);
        assert_eq!(stream.read(&mut buf).unwrap(), 0);
        assert_eq!(stream.read(&mut buf).unwrap(), 0);
    });
}

#[test]
fn data_before_a_bad_record_is_returned_and_the_alert_is_sent() {
    with_pair(|c, s| {
        s.write(b"hello").unwrap();
        let good = s.pending_send().len();
        s.write(b"world").unwrap();
        // The second record fails authentication: one flipped ciphertext byte.
        let mut input = s.pending_send().to_vec();
        s.sent(input.len());
        input[good + 6] ^= 1;
        let mut stream = Stream { conn: c, sock: Wire { input, output: Vec::new() } };
        let mut buf = [0u8; 64];
        // Both records arrive in one read: the good data first...
        assert_eq!(stream.read(&mut buf).unwrap(), 5);
        assert_eq!(&buf[..5], b"hello");
        // ...and the bad_record_mac alert was sent to the peer, not left queued.
        let sent = std::mem::take(&mut stream.sock.output);
        assert!(!sent.is_empty(), "no alert was sent");
        s.receive_space()[..sent.len()].copy_from_slice(&sent);
        assert_eq!(
            s.received(sent.len()),
            Err(Error::AlertReceived(AlertDescription::BAD_RECORD_MAC))
        );
        // The failure is reported on the next call, and stays.
        for _ in 0..2 {
            let e = stream.read(&mut buf).unwrap_err();
            let inner = e.get_ref().and_then(|e| e.downcast_ref::<Error>());
            assert_eq!(inner, Some(&Error::DecryptFailed), "{e}");
        }
    });
}

#[test]
fn data_before_a_fatal_alert_is_returned_first() {
    with_pair(|c, s| {
        s.write(b"hello").unwrap();
        let mut input = s.pending_send().to_vec();
        s.sent(input.len());
        // The peer fails (its own internal error) right after its data.
        let mut peer_alert = Vec::new();
        {
            // An unexpected record from the client makes the server fail with an alert.
            c.write(b"x").unwrap();
            let n = c.pending_send().len();
            let mut bad = c.pending_send().to_vec();
            c.sent(n);
            bad[n - 1] ^= 1;
            s.receive_space()[..n].copy_from_slice(&bad);
            assert_eq!(s.received(n), Err(Error::DecryptFailed));
            peer_alert.extend_from_slice(s.pending_send());
        }
        input.extend_from_slice(&peer_alert);
        let mut stream = Stream { conn: c, sock: Wire { input, output: Vec::new() } };
        let mut buf = [0u8; 64];
        assert_eq!(stream.read(&mut buf).unwrap(), 5);
        assert_eq!(&buf[..5], b"hello");
        let e = stream.read(&mut buf).unwrap_err();
        let inner = e.get_ref().and_then(|e| e.downcast_ref::<Error>());
        assert_eq!(inner, Some(&Error::AlertReceived(AlertDescription::BAD_RECORD_MAC)), "{e}");
    });
}
