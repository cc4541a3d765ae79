//! A blocking `Read + Write` stream over a [`Connection`] and any transport (`std` only): the
//! sans-IO engine driven by a loop that flushes what it wants sent and reads when it wants
//! records.

use std::io::{self, Read, Write};

use crate::conn::{Connection, Want};
use crate::error::{ApiMisuse, Error};

/// A connection bound to a transport.
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
            let n = self.sock.write(self.conn.pending_send())?;
            if n == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
            self.conn.sent(n);
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
            let r = self.conn.read(buf);
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
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.handshake()?;
        let mut done = 0;
        while done < buf.len() {
            let n = self.conn.write(&buf[done..]).map_err(io_err)?;
            done += n;
            self.flush_records()?;
        }
        Ok(done)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_records()
    }
}
