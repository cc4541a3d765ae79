//! A blocking `Read + Write` stream over a [`Connection`] and any transport (`std` only): the
//! sans-IO engine driven by a loop that flushes what it wants sent and reads when it wants
//! records.

use std::io::{self, IoSlice, Read, Write};

use crate::conn::{Connection, Want};
use crate::error::{ApiMisuse, Error};

/// A connection bound to a transport.
///
/// Writes encrypt as many whole records as the connection's send buffer
/// ([`Buffers::send`](crate::Buffers)) holds and hand them to the transport in one `write`
/// (after a short write, the room it freed is topped up with the next whole records), so the
/// buffer's size sets how many records each system call carries: a send buffer of
/// `k * `[`MAX_RECORD_LEN`](crate::record::MAX_RECORD_LEN) bytes holds `k` full 16 KiB
/// records of any suite (four, about 65 KB, is what rustls queues before one `writev`); one of
/// a single record's size makes a `write` call per record. Reads take from the transport as
/// much as the receive buffer has room for, several records at once when it holds several,
/// and a `read` returns the data of every record already decrypted that fits.
#[derive(Debug)]
pub struct Stream<'c, 'a, 'b, S> {
    /// The connection.
    pub conn: &'c mut Connection<'a, 'b>,
    /// The transport.
    pub sock: S,
}

fn io_err(e: Error) -> io::Error {
    io::Error::other(e)
}

impl<'c, 'a, 'b, S: Read + Write> Stream<'c, 'a, 'b, S> {
    /// Binds `conn` to the transport `sock`; the handshake runs on the first read or write
    /// (or [`Stream::handshake`]). A client over TCP, with nothing but this crate:
    ///
    /// ```no_run
    /// use std::io::{Read, Write};
    /// use std::net::TcpStream;
    /// use tls::{Buffers, ClientConfig, Connection, OsRandom, Stream, SystemClock};
    ///
    /// let roots = tls::roots_from_pem(&std::fs::read_to_string("ca.pem")?)?;
    /// let config = ClientConfig::new(&roots, &SystemClock);
    /// let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 17_000]);
    /// let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    /// let mut conn = Connection::client(config, "example.com", bufs, &mut OsRandom)?;
    /// let mut stream = Stream::new(&mut conn, TcpStream::connect("example.com:443")?);
    /// stream.write_all(b"GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")?;
    /// let mut page = Vec::new();
    /// // Until the server's close_notify; a connection cut short is an error.
    /// stream.read_to_end(&mut page)?;
    /// stream.close()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn new(conn: &'c mut Connection<'a, 'b>, sock: S) -> Self {
        Self { conn, sock }
    }

    /// Writes out everything the connection has queued.
    pub fn flush_records(&mut self) -> io::Result<()> {
        while !self.conn.pending_send().is_empty() {
            self.send_queued()?;
        }
        self.sock.flush()
    }

    /// Reads once from the transport into the connection; `false` at end of stream.
    fn fill(&mut self) -> io::Result<bool> {
        let space = self.conn.receive_space();
        if space.is_empty() {
            // Only when a whole record is waiting to be read out; never while one is partial.
            return Err(io_err(Error::ApiMisuse(ApiMisuse::Closed)));
        }
        let n = self.sock.read(space)?;
        if n == 0 {
            return Ok(false);
        }
        let r = self.conn.received(n);
        // Send any alert before reporting the error.
        self.flush_records()?;
        r.map_err(io_err)?;
        Ok(true)
    }

    /// Runs the handshake to completion.
    pub fn handshake(&mut self) -> io::Result<()> {
        loop {
            self.flush_records()?;
            if !self.conn.is_handshaking() {
                return Ok(());
            }
            if let Some(e) = self.conn.error() {
                return Err(io_err(e));
            }
            if !self.fill()? {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the peer closed the transport during the handshake",
                ));
            }
        }
    }

    /// One transport write of everything queued; `WriteZero` when the transport takes none.
    fn send_queued(&mut self) -> io::Result<()> {
        let n = self.sock.write(self.conn.pending_send())?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        self.conn.sent(n);
        Ok(())
    }

    /// Queues the slices of `bufs` in order, as many records as the send buffer holds, and
    /// hands everything queued to the transport in each `write`, topping up after each one,
    /// until every slice is queued and everything queued is sent; returns the bytes taken.
    ///
    /// Once some bytes are taken a failure returns their count instead (so `write` keeps its
    /// contract: an error means nothing was taken); the bytes stay queued, and the next write
    /// or [`Write::flush`] sends them or reports the failure again.
    fn write_slices(&mut self, bufs: &[IoSlice<'_>]) -> io::Result<usize> {
        self.handshake()?;
        let mut done = 0;
        let (mut slice, mut offset) = (0, 0);
        loop {
            // Fill the send buffer from the slices not yet taken.
            while let Some(buf) = bufs.get(slice) {
                let n = match self.conn.write(&buf[offset..]) {
                    Ok(n) => n,
                    Err(_) if done > 0 => return Ok(done),
                    Err(e) => return Err(io_err(e)),
                };
                done += n;
                offset += n;
                if offset < buf.len() {
                    break;
                }
                (slice, offset) = (slice + 1, 0);
            }
            if self.conn.pending_send().is_empty() {
                return self.sock.flush().map(|()| done);
            }
            match self.send_queued() {
                Ok(()) => {}
                Err(_) if done > 0 => return Ok(done),
                Err(e) => return Err(e),
            }
        }
    }

    /// Copies the application data already decrypted into `buf`, record after record while it
    /// has room, without touching the transport. A failure after some data is left for the
    /// next call (the connection's error is sticky).
    fn take_ready(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        let mut n = self.conn.read(buf)?;
        while n > 0 && n < buf.len() {
            match self.conn.read(&mut buf[n..]) {
                Ok(m) if m > 0 => n += m,
                _ => break,
            }
        }
        Ok(n)
    }

    /// Sends close_notify.
    pub fn close(&mut self) -> io::Result<()> {
        self.conn.close();
        self.flush_records()
    }
}

/// The error for a transport that ended before the peer's close_notify.
fn truncated() -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "the peer closed the transport without close_notify: its data may be truncated",
    )
}

impl<S: Read + Write> Read for Stream<'_, '_, '_, S> {
    /// Reads application data; `Ok(0)` once the peer has sent close_notify.
    ///
    /// A transport that ends without close_notify is an [`io::ErrorKind::UnexpectedEof`]
    /// error, not `Ok(0)`: only close_notify says the peer's data is complete, so a cut-off
    /// connection must not look like a clean end (RFC 8446 §6.1).
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.handshake()?;
        loop {
            let r = self.take_ready(buf);
            // Send what reading queued (a KeyUpdate answer, or the alert of a failure) before
            // reporting anything; good data is returned even if that send fails (the next
            // call reports it).
            let flushed = self.flush_records();
            let n = r.map_err(io_err)?;
            if n > 0 {
                return Ok(n);
            }
            flushed?;
            match self.conn.want() {
                Want::Closed => return Ok(0),
                Want::Failed => {
                    return Err(io_err(
                        self.conn.error().unwrap_or(Error::ApiMisuse(ApiMisuse::Closed)),
                    ));
                }
                _ => {}
            }
            if !self.fill()? {
                return Err(truncated());
            }
        }
    }
}

impl<S: Read + Write> Write for Stream<'_, '_, '_, S> {
    /// Encrypts `buf` and sends it, each transport write carrying as many records as the send
    /// buffer holds; returns once all of `buf` is taken and sent.
    ///
    /// Once some bytes are taken, a transport failure returns their count rather than the
    /// error, as `write` must; they stay queued, and the next write or `flush` sends them or
    /// reports the failure.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_slices(&[IoSlice::new(buf)])
    }

    /// Like `write`, for the slices in order and in the same transport writes. Records do not
    /// span slices (each is encrypted where it lies), so many small slices make small records.
    fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> io::Result<usize> {
        self.write_slices(bufs)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_records()
    }
}
