//! The firmware: a TLS 1.3 client (external PSK, or the server's pinned raw key with the
//! `rpk` feature) over two host pipes opened through semihosting, with every buffer in `.bss`
//! and the connection built in place on the stack.
//!
//! It prints without `core::fmt` (and its panic handler prints a fixed line): formatting, the
//! `Debug` impls it reaches and their string tables were ~11 KB of the image, none of it TLS.

use core_hash::{HmacDrbg, RandomSource, Sha256};
use semihosting::fs::File;
use semihosting::io::{Read as _, Write as _};
use tls::{Buffers, Connection, Error, Want};

use crate::{MESSAGE, TO_CLIENT, TO_SERVER, stack};

/// Exit status after a `HardFault` (a panic exits with 101, a failed run with 1).
const EXIT_HARD_FAULT: i32 = 3;

/// Exit status after a panic, as Rust's own.
const EXIT_PANIC: i32 = 101;

/// The send buffer: 256 bytes, or 192 in the certificate image, whose `ClientHello` (177 bytes
/// with a host build's extras) is shorter than the PSK image's with its binder.
const SEND_LEN: usize = if cfg!(feature = "cert") { 192 } else { 256 };

/// The handshake buffer: 256 bytes, or in the certificate image room for the server's
/// Certificate (482 bytes with its 469-byte leaf), kept while its `CertificateVerify` (at most
/// 80) arrives behind it.
const HANDSHAKE_LEN: usize = if cfg!(feature = "cert") { 576 } else { 256 };

/// Writes `parts` and a newline to the host's standard output.
fn say(parts: &[&[u8]]) {
    if let Ok(mut out) = semihosting::io::stdout() {
        for part in parts {
            let _ = out.write_all(part);
        }
        let _ = out.write_all(b"\n");
    }
}

/// `n` in decimal, in `buf` without leading zeros. Each digit by subtracting its power of ten:
/// a Cortex-M0 has no divide instruction, and `/ 10` would link a ~400-byte division routine
/// that nothing else in the image needs.
fn decimal(mut n: u32, buf: &mut [u8; 10]) -> &[u8] {
    const POWERS: [u32; 10] =
        [1_000_000_000, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];
    for (digit, power) in buf.iter_mut().zip(POWERS) {
        *digit = b'0';
        while n >= power {
            n -= power;
            *digit += 1;
        }
    }
    let first = buf.iter().position(|&d| d != b'0').unwrap_or(buf.len() - 1);
    &buf[first..]
}

/// `n` as eight hexadecimal digits after `0x`.
fn hex(n: u32) -> [u8; 10] {
    let mut out = *b"0x00000000";
    for (i, digit) in out[2..].iter_mut().enumerate() {
        let nibble = (n >> (28 - 4 * i)) as u8 & 0xf;
        *digit = if nibble < 10 { b'0' + nibble } else { b'a' + nibble - 10 };
    }
    out
}

/// The marker: the instruction-counting plugin prints its running counts each time this
/// function's first instruction runs (`xtask` reads its address from the ELF by name).
#[unsafe(no_mangle)]
#[inline(never)]
pub(crate) extern "C" fn m0_tls_mark() {
    // SAFETY: an empty assembly statement reads and writes nothing; not `nomem`, so calls are
    // not moved across the memory accesses of the phase being timed.
    unsafe { core::arch::asm!("", options(nostack, preserves_flags)) };
}

/// What can end a run early.
enum Failure {
    /// The connection failed.
    Tls(Error),
    /// A pipe could not be opened, read or written.
    Io(&'static str),
    /// The server closed the connection or echoed something else.
    Echo,
}

impl Failure {
    /// Prints the failure: a TLS error by the alert it sends (the host server prints its own
    /// side's error in full).
    fn report(&self) {
        let mut digits = [0; 10];
        match self {
            Failure::Tls(e) => match e.alert() {
                Some(alert) => {
                    say(&[b"m0-tls: FAIL tls error, alert ", decimal(alert.0.into(), &mut digits)]);
                }
                None => say(&[b"m0-tls: FAIL tls error without an alert"]),
            },
            Failure::Io(what) => say(&[b"m0-tls: FAIL ", what.as_bytes()]),
            Failure::Echo => say(&[b"m0-tls: FAIL echo"]),
        }
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Tls(e)
    }
}

/// The two pipes to the server.
struct Pipes {
    to_server: File,
    to_client: File,
}

impl Pipes {
    /// Opens the pipe to the server first, as the server opens it first (a pipe's open waits
    /// for the other end).
    fn open() -> Result<Pipes, Failure> {
        let to_server = File::create(TO_SERVER).map_err(|_| Failure::Io("open c2s"))?;
        let to_client = File::open(TO_CLIENT).map_err(|_| Failure::Io("open s2c"))?;
        Ok(Pipes { to_server, to_client })
    }

    /// Sends what the connection has queued.
    fn flush(&mut self, conn: &mut Connection<'_, '_>) -> Result<(), Failure> {
        let n = conn.pending_send().len();
        self.to_server.write_all(conn.pending_send()).map_err(|_| Failure::Io("write"))?;
        conn.sent(n);
        Ok(())
    }

    /// Sends what is queued and feeds the connection one read's worth of the server's bytes.
    fn pump(&mut self, conn: &mut Connection<'_, '_>) -> Result<(), Failure> {
        self.flush(conn)?;
        let n = self.to_client.read(conn.receive_space()).map_err(|_| Failure::Io("read"))?;
        if n == 0 {
            return Err(Failure::Io("the server closed its pipe"));
        }
        conn.received(n)?;
        Ok(())
    }
}

/// The handshake and one echoed message. Out of line, so the stack it paints is its own.
#[inline(never)]
fn run(bufs: Buffers<'_>, rng: &mut dyn RandomSource) -> Result<(), Failure> {
    let mut pipes = Pipes::open()?;
    // Not read with an external PSK or a raw key (no certificate to check, no ticket to age).
    #[cfg(not(feature = "cert"))]
    let clock = tls::UnixTime::since_unix_epoch(core::time::Duration::from_secs(0));
    #[cfg(feature = "cert")]
    let clock = crate::cert::NOW;
    #[cfg(feature = "psk")]
    let config = crate::client_config(&clock);
    #[cfg(feature = "cert")]
    let config = crate::cert::client_config(&clock);
    #[cfg(feature = "rpk")]
    let config = crate::rpk::client_config(&clock, &crate::rpk::PINS);
    m0_tls_mark();
    // Built in place: a connection returned by value would cost its size again in stack.
    let mut slot = None;
    let conn = Connection::client_in(&mut slot, config, "localhost", bufs, rng)?;
    m0_tls_mark();
    while conn.is_handshaking() {
        pipes.pump(conn)?;
    }
    m0_tls_mark();
    let mut echo = [0u8; MESSAGE.len()];
    let mut got = 0;
    if conn.write(MESSAGE)? != MESSAGE.len() {
        return Err(Failure::Echo);
    }
    while got < echo.len() {
        match conn.want() {
            Want::Read => got += conn.read(&mut echo[got..])?,
            Want::Closed | Want::Failed => return Err(Failure::Echo),
            Want::Send | Want::Receive => pipes.pump(conn)?,
        }
    }
    m0_tls_mark();
    conn.close();
    pipes.flush(conn)?;
    if echo == *MESSAGE { Ok(()) } else { Err(Failure::Echo) }
}

/// A DRBG seeded with the host's entropy through semihosting, on both boards (a device would
/// read its TRNG), built in `slot`; or the line saying what failed. Out of line and in place,
/// so that the seeding's temporaries (the file, HMAC states, the 320-byte DRBG returned by
/// value) are not in `main`'s frame, which stays live above the painted stack for the whole
/// run (it was 800 bytes with them).
#[inline(never)]
fn seed_drbg(slot: &mut Option<HmacDrbg<Sha256>>) -> Result<&mut HmacDrbg<Sha256>, &'static [u8]> {
    let mut entropy = [0u8; 32];
    File::open(c"/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut entropy))
        .map_err(|_| &b"m0-tls: FAIL no entropy"[..])?;
    let drbg =
        HmacDrbg::<Sha256>::new(&entropy, b"m0-tls", b"").map_err(|_| &b"m0-tls: FAIL drbg"[..])?;
    Ok(slot.insert(drbg))
}

/// Prints how the run ended and the stack it took, and exits with 0 only on success.
#[cortex_m_rt::entry]
fn main() -> ! {
    // Turned into `&'static mut` by `entry`: the connection's buffers, in `.bss`. With a
    // `record_size_limit` of 64 the server's protected records are at most 64 + 5 + 16 bytes
    // and the ServerHello 133; the ClientHello is the longest record we send (with the PSK
    // image's binder), and the raw key's CertificateVerify (72 bytes) the longest message.
    static mut RECEIVED: [u8; 160] = [0; 160];
    static mut SEND: [u8; SEND_LEN] = [0; SEND_LEN];
    static mut HANDSHAKE: [u8; HANDSHAKE_LEN] = [0; HANDSHAKE_LEN];
    let mut slot = None;
    let rng = match seed_drbg(&mut slot) {
        Ok(rng) => rng,
        Err(why) => {
            say(&[why]);
            semihosting::process::exit(1)
        }
    };
    let bufs = Buffers { received: RECEIVED, send: SEND, handshake: HANDSHAKE };
    let painted = stack::paint();
    let result = run(bufs, rng);
    let depth = stack::high_water(&painted);
    let mut digits = [0; 10];
    match (result, depth.and_then(|d| u32::try_from(d).ok())) {
        (Ok(()), Some(bytes)) => {
            say(&[b"m0-tls: ok, stack ", decimal(bytes, &mut digits), b" B"]);
            semihosting::process::exit(0)
        }
        (Ok(()), None) => say(&[b"m0-tls: FAIL stack overflowed its painted range"]),
        (Err(e), _) => e.report(),
    }
    semihosting::process::exit(1)
}

/// Reports a `HardFault` (a stack overflow into `.bss` ends here) and exits.
#[cortex_m_rt::exception]
unsafe fn HardFault(frame: &cortex_m_rt::ExceptionFrame) -> ! {
    say(&[b"HardFault at pc=", &hex(frame.pc()), b" lr=", &hex(frame.lr())]);
    semihosting::process::exit(EXIT_HARD_FAULT)
}

/// Reports a panic without its message (formatting it would link `core::fmt`) and exits.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    say(&[b"m0-tls: FAIL panic"]);
    semihosting::process::exit(EXIT_PANIC)
}
