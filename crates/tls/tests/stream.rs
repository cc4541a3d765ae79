//! The blocking `Stream` over an in-memory transport: how it reports the end of the peer's
//! data (RFC 8446 §6.1: only close_notify is a clean end) and failures that arrive together
//! with good data, and how many transport calls it makes: each write carries as many records
//! as the send buffer holds, each read takes as much as the receive buffer has room for.

#![allow(clippy::doc_markdown)] // protocol names (close_notify) are prose

use std::io::{self, IoSlice, Read, Write};

use core_hash::OsRandom;
use pki_types::CertificateDer;
use tls::msgs::AlertDescription;
use tls::record::MAX_RECORD_LEN;
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
    with_sized_pair(17_000, 17_000, f);
}

/// [`with_pair`] with the client's send buffer and receive buffer of the given sizes (the
/// server's receive buffer as large as the client's send buffer, its send buffer as large as
/// the client's receive buffer).
fn with_sized_pair(
    send: usize,
    receive: usize,
    f: impl FnOnce(&mut Connection<'_, '_>, &mut Connection<'_, '_>),
) {
    let ca = CertificateDer::from(CA);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    let key = SigningKey::from_pkcs8_der(SERVER_KEY).unwrap();
    let chain = [SERVER_CERT];
    let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
    let (mut c_rx, mut c_tx, mut c_hs) = (vec![0; receive], vec![0; send], vec![0; 8_000]);
    let (mut s_rx, mut s_tx, mut s_hs) = (vec![0; send], vec![0; receive], vec![0; 8_000]);
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

/// A transport that counts its calls. Reads return as much of `input` as fits. Writes take at
/// most `max_write` bytes; with `block`, every other write fails with `WouldBlock`; after
/// `fail_after` successful writes, every write fails with `BrokenPipe`.
struct Counting {
    input: Vec<u8>,
    output: Vec<u8>,
    reads: usize,
    writes: usize,
    max_write: usize,
    block: bool,
    blocked: bool,
    fail_after: Option<usize>,
}

impl Counting {
    fn new() -> Self {
        Self {
            input: Vec::new(),
            output: Vec::new(),
            reads: 0,
            writes: 0,
            max_write: usize::MAX,
            block: false,
            blocked: false,
            fail_after: None,
        }
    }
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reads += 1;
        let n = buf.len().min(self.input.len());
        buf[..n].copy_from_slice(&self.input[..n]);
        self.input.drain(..n);
        Ok(n)
    }
}

impl Write for Counting {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.fail_after.is_some_and(|n| self.writes >= n) {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        if self.block {
            self.blocked = !self.blocked;
            if self.blocked {
                return Err(io::ErrorKind::WouldBlock.into());
            }
        }
        self.writes += 1;
        let n = buf.len().min(self.max_write);
        self.output.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `len` bytes of a pattern that differs from one 16 KiB record to the next.
fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8 ^ (i >> 14) as u8).collect()
}

/// Feeds `wire` to `to` as fast as its receive buffer takes it and returns the application
/// data it decrypts.
fn deliver(mut wire: &[u8], to: &mut Connection<'_, '_>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        loop {
            let n = to.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        if wire.is_empty() {
            return out;
        }
        let space = to.receive_space();
        let n = space.len().min(wire.len());
        assert!(n > 0, "the receiver has no room");
        space[..n].copy_from_slice(&wire[..n]);
        wire = &wire[n..];
        to.received(n).unwrap();
    }
}

/// Room for four records of any suite: what rustls queues before one `writev`.
const FOUR_RECORDS: usize = 4 * MAX_RECORD_LEN;

/// TLS 1.3's bytes around each record's content: header, content type, AEAD tag.
const OVERHEAD: usize = 5 + 1 + 16;

#[test]
fn a_full_send_buffer_takes_whole_records_only() {
    with_sized_pair(FOUR_RECORDS, 17_000, |c, s| {
        let sent = data(1 << 20);
        // Four whole records fit, with room left for a short fifth that is not made.
        assert_eq!(c.write(&sent).unwrap(), 4 << 14);
        assert_eq!(c.pending_send().len(), 4 * ((1 << 14) + OVERHEAD));
        assert_eq!(c.write(&sent[4 << 14..]).unwrap(), 0);
        // The tail of the data is a short record, as is one in an empty buffer that is
        // smaller than a record.
        assert_eq!(deliver(c.pending_send(), s), &sent[..4 << 14]);
        c.sent(c.pending_send().len());
        assert_eq!(c.write(&sent[..100]).unwrap(), 100);
        assert_eq!(c.write(&sent[100..200]).unwrap(), 100);
        assert_eq!(c.pending_send().len(), 2 * (100 + OVERHEAD));
    });
    with_sized_pair(2000, 17_000, |c, _| {
        assert_eq!(c.write(&data(5000)).unwrap(), 2000 - OVERHEAD);
        assert_eq!(c.write(&data(5000)).unwrap(), 0);
    });
}

#[test]
fn four_records_go_out_in_one_transport_write() {
    with_sized_pair(FOUR_RECORDS, 17_000, |c, s| {
        let sent = data(64 * 1024);
        let mut stream = Stream::new(c, Counting::new());
        stream.write_all(&sent).unwrap();
        assert_eq!(stream.sock.writes, 1, "64 KiB with a four-record send buffer");
        // 1 MiB: sixteen buffers full.
        let more = data(1 << 20);
        stream.write_all(&more).unwrap();
        assert_eq!(stream.sock.writes, 1 + 16);
        assert_eq!(
            stream.sock.output.len(),
            (sent.len() + more.len()) / 16_384 * (16_384 + OVERHEAD)
        );
        let got = deliver(&stream.sock.output, s);
        assert_eq!(got.len(), sent.len() + more.len());
        assert!(got[..sent.len()] == sent[..] && got[sent.len()..] == more[..]);
    });
}

#[test]
fn a_one_record_send_buffer_writes_once_per_record() {
    with_pair(|c, s| {
        let sent = data(64 * 1024);
        let mut stream = Stream::new(c, Counting::new());
        stream.write_all(&sent).unwrap();
        assert_eq!(stream.sock.writes, 4);
        assert_eq!(deliver(&stream.sock.output, s), sent);
    });
}

#[test]
fn short_transport_writes_send_everything_in_order() {
    with_sized_pair(FOUR_RECORDS, 17_000, |c, s| {
        let sent = data(100_000);
        let mut sock = Counting::new();
        sock.max_write = 1000;
        let mut stream = Stream::new(c, sock);
        stream.write_all(&sent).unwrap();
        // Whole records (six, and the tail), however little each transport write took...
        let wire = stream.sock.output.len();
        assert_eq!(wire, sent.len() + 7 * OVERHEAD);
        // ...and every write a full 1000 bytes but the last: the room each one frees is
        // topped up with the next whole record as soon as one fits.
        assert_eq!(stream.sock.writes, wire.div_ceil(1000));
        assert!(stream.conn.pending_send().is_empty());
        assert_eq!(deliver(&stream.sock.output, s), sent);
    });
}

#[test]
fn would_block_returns_the_bytes_taken_and_flush_sends_them() {
    with_sized_pair(FOUR_RECORDS, 17_000, |c, s| {
        let sent = data(200_000);
        let mut sock = Counting::new();
        sock.block = true;
        sock.max_write = 7000;
        let mut stream = Stream::new(c, sock);
        let (mut taken, mut would_block) = (0, 0);
        while taken < sent.len() {
            match stream.write(&sent[taken..]) {
                Ok(n) => {
                    assert!(n > 0);
                    taken += n;
                }
                Err(e) => {
                    assert_eq!(e.kind(), io::ErrorKind::WouldBlock);
                    would_block += 1;
                }
            }
        }
        loop {
            match stream.flush() {
                Ok(()) => break,
                Err(e) => assert_eq!(e.kind(), io::ErrorKind::WouldBlock),
            }
        }
        // Some calls took bytes and returned before sending them; none lost any.
        assert!(would_block > 0);
        assert!(stream.conn.pending_send().is_empty());
        assert_eq!(deliver(&stream.sock.output, s), sent);
    });
}

#[test]
fn a_transport_failure_after_bytes_were_taken_is_reported_next() {
    with_sized_pair(FOUR_RECORDS, 17_000, |c, _| {
        let mut sock = Counting::new();
        sock.fail_after = Some(1);
        let mut stream = Stream::new(c, sock);
        let sent = data(128 * 1024);
        // The first buffer full goes out; the second is taken but cannot be sent.
        assert_eq!(stream.write(&sent).unwrap(), sent.len());
        assert!(!stream.conn.pending_send().is_empty());
        assert_eq!(stream.flush().unwrap_err().kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(stream.write(b"more").unwrap_err().kind(), io::ErrorKind::BrokenPipe);
    });
}

#[test]
fn vectored_slices_share_transport_writes() {
    with_sized_pair(FOUR_RECORDS, 17_000, |c, s| {
        let sent = data(60 * 1024);
        let (a, rest) = sent.split_at(20 * 1024);
        let (b, d) = rest.split_at(20 * 1024);
        let mut stream = Stream::new(c, Counting::new());
        let slices = [IoSlice::new(a), IoSlice::new(&[]), IoSlice::new(b), IoSlice::new(d)];
        assert_eq!(stream.write_vectored(&slices).unwrap(), sent.len());
        assert_eq!(stream.sock.writes, 1);
        assert_eq!(deliver(&stream.sock.output, s), sent);
    });
}

#[test]
fn one_transport_read_takes_several_records_and_one_read_returns_them() {
    with_sized_pair(17_000, FOUR_RECORDS, |c, s| {
        let sent = data(3 * 16 * 1024 + 5);
        assert_eq!(s.write(&sent).unwrap(), sent.len());
        s.write(b"!").unwrap();
        let input = s.pending_send().to_vec();
        let mut sock = Counting::new();
        sock.input = input;
        let mut stream = Stream::new(c, sock);
        let mut buf = vec![0u8; 1 << 20];
        let n = stream.read(&mut buf).unwrap();
        assert_eq!(stream.sock.reads, 1, "five records in one receive buffer");
        assert_eq!(n, sent.len() + 1, "every record decrypted in one call");
        assert_eq!(&buf[..sent.len()], &sent[..]);
        assert_eq!(buf[sent.len()], b'!');
    });
}
