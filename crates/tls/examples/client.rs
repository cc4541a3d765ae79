//! `client HOST PORT [--server-name NAME] [--cafile PEM] [--alpn P]... [--versions 1.2,1.3]
//! [--groups g1,g2] [--suites s1,s2] [--key-update]`: connects over TCP, sends stdin to the
//! server until EOF (then close_notify), prints everything received to stdout until the
//! server's close_notify, and prints the `negotiated:` line (`version=TLSv1.3` or
//! `version=TLSv1.2`, …) to stderr. `--versions` are the versions offered (both by default,
//! though the library's default `ClientConfig` offers TLS 1.3 alone). `--suites` takes IANA
//! names of either version: it replaces the suites of each version it names any for, and
//! leaves the other version's defaults. Groups are `x25519`,
//! `secp256r1`, `secp384r1`, `secp521r1` (a key share is sent for the first; the server may ask
//! for another). `--cert PEM --key PEM` (PKCS#8: Ed25519, ECDSA P-256/P-384, RSA) answer a
//! server's certificate request. With `--resume` it connects twice: the first connection only
//! waits for a session ticket, and the second (which carries stdin) must resume with it.
//! `--insecure-no-verify` is accepted by the command line but not implemented yet.
//! `--psk ID:HEX` offers an external PSK (SHA-256; no `--cafile` needed then, `sig=psk` when
//! the server takes it), `--record-size-limit N` (64 to 16385) and `--max-fragment-length N`
//! (512, 1024, 2048 or 4096) ask the server for small records.

#![allow(clippy::doc_markdown)] // protocol names (close_notify) are prose

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::mpsc;
use std::time::Duration;

use common::die;
use tls::msgs::ProtocolVersion;
use tls::ticket::MemoryTicketStore;
use tls::{Buffers, ClientConfig, Connection, OsRandom, Stream, Want};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut pos = Vec::new();
    let (mut cert, mut key, mut resume) = (None::<String>, None::<String>, false);
    let mut groups = tls::kx::DEFAULT_GROUPS.to_vec();
    let (mut name, mut cafile, mut alpn, mut suites, mut key_update) =
        (None, None, Vec::new(), tls::suites::DEFAULT_SUITES.to_vec(), false);
    let mut suites12 = tls::suites::tls12::DEFAULT_SUITES12.to_vec();
    let mut versions = vec![ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2];
    let (mut psk, mut record_size_limit, mut max_fragment_length) = (None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().unwrap_or_else(|| die(&format!("{a} needs a value")));
        match a.as_str() {
            "--server-name" => name = Some(val()),
            "--cafile" => cafile = Some(val()),
            "--alpn" => alpn.push(val().into_bytes()),
            "--groups" => groups = common::parse_groups(&val()),
            "--versions" => versions = common::parse_versions(&val()),
            "--suites" => {
                let (v13, v12) = common::parse_suites_both(&val());
                if !v13.is_empty() {
                    suites = v13;
                }
                if !v12.is_empty() {
                    suites12 = v12;
                }
            }
            "--key-update" => key_update = true,
            "--cert" => cert = Some(val()),
            "--key" => key = Some(val()),
            "--resume" => resume = true,
            "--psk" => psk = Some(common::parse_psk(&val())),
            "--record-size-limit" => record_size_limit = Some(common::parse_number(a, &val())),
            "--max-fragment-length" => {
                let m = match common::parse_number::<u16>(a, &val()) {
                    512 => tls::msgs::MaxFragmentLength::LEN_512,
                    1024 => tls::msgs::MaxFragmentLength::LEN_1024,
                    2048 => tls::msgs::MaxFragmentLength::LEN_2048,
                    4096 => tls::msgs::MaxFragmentLength::LEN_4096,
                    _ => die("--max-fragment-length is 512, 1024, 2048 or 4096"),
                };
                max_fragment_length = Some(m);
            }
            "--insecure-no-verify" => die(&format!("{a} is not implemented yet")),
            _ if a.starts_with("--") => die(&format!("unknown option {a}")),
            _ => pos.push(a.clone()),
        }
    }
    let [host, port] = pos.as_slice() else { die("usage: client HOST PORT [options]") };
    let name = name.unwrap_or_else(|| host.clone());
    let cafile = match (cafile, psk) {
        (Some(f), _) => Some(f),
        (None, Some(_)) => None,
        (None, None) => die("--cafile is required (no system roots yet)"),
    };
    let client_chain: Vec<Vec<u8>> = match (&cert, &key) {
        (Some(c), Some(_)) => common::pem_blocks(c, "CERTIFICATE"),
        (None, None) => Vec::new(),
        _ => die("--cert and --key go together"),
    };
    if cert.is_some() && client_chain.is_empty() {
        die("--cert: no certificates");
    }
    let client_chain_refs: Vec<&[u8]> = client_chain.iter().map(Vec::as_slice).collect();
    let client_key = key.as_deref().map(common::private_key);
    let client_cert =
        client_key.as_ref().map(|key| tls::CertifiedKey { chain: &client_chain_refs, key });
    let roots = match cafile.as_deref() {
        Some(f) => {
            let text = std::fs::read_to_string(f).unwrap_or_else(|e| die(&format!("{f}: {e}")));
            let roots = tls::roots_from_pem(&text).unwrap_or_else(|e| die(&format!("{f}: {e}")));
            if roots.is_empty() {
                die(&format!("{f}: no certificates"));
            }
            roots
        }
        None => Vec::new(),
    };
    let alpn_refs: Vec<&[u8]> = alpn.iter().map(Vec::as_slice).collect();

    let port = port.parse::<u16>().unwrap_or_else(|_| die("bad port"));
    // Small records (a Finished, then a line of stdin) go out at once: Nagle's algorithm
    // would hold the second until the first is acknowledged, up to a delayed-ACK 40 ms.
    let connect = || {
        let sock = TcpStream::connect((host.as_str(), port))
            .unwrap_or_else(|e| die(&format!("connect: {e}")));
        sock.set_nodelay(true).unwrap_or_else(|e| die(&format!("{e}")));
        sock
    };
    let store = MemoryTicketStore::default();
    let config = ClientConfig {
        versions: &versions,
        suites: &suites,
        suites12: &suites12,
        alpn: &alpn_refs,
        groups: &groups,
        client_cert,
        tickets: Some(&store),
        record_size_limit,
        max_fragment_length,
        external_psk: psk.as_ref(),
        ..ClientConfig::new(&roots, &tls::SystemClock)
    };
    if resume {
        // A first connection only to get a ticket: handshake, wait for a NewSessionTicket,
        // close. The second, below, must resume with it.
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 40_000], vec![0; 20_000]);
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::client(config, &name, bufs, &mut OsRandom)
            .unwrap_or_else(|e| die(&format!("{e}")));
        let mut stream = Stream { conn: &mut conn, sock: connect() };
        if let Err(e) = stream.handshake() {
            eprintln!("error: handshake: {e}");
            std::process::exit(1);
        }
        eprintln!("{}", common::negotiated_line(stream.conn, &suites, &alpn_refs));
        // Tickets come right after the handshake; the timeout only ends a wait for a server
        // that sends none.
        stream.sock.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
        let mut buf = vec![0u8; 17_000];
        while store.is_empty() && stream.conn.refused_ticket().is_none() {
            match stream.sock.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => feed(stream.conn, &stream.sock, &buf[..n], &mut std::io::sink())
                    .unwrap_or_else(|e| die(&e)),
            }
        }
        let _ = stream.close();
        if let Some(e) = stream.conn.refused_ticket() {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
        if store.is_empty() {
            eprintln!("error: the server sent no session ticket");
            std::process::exit(1);
        }
    }
    let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 40_000], vec![0; 20_000]);
    let sock = connect();
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let mut conn = Connection::client(config, &name, bufs, &mut OsRandom)
        .unwrap_or_else(|e| die(&format!("{e}")));
    let mut stream = Stream { conn: &mut conn, sock };
    if let Err(e) = stream.handshake() {
        eprintln!("error: handshake: {e}");
        std::process::exit(1);
    }
    eprintln!("{}", common::negotiated_line(stream.conn, &suites, &alpn_refs));
    if resume && !stream.conn.negotiated().is_some_and(|n| n.resumed) {
        eprintln!("error: the second handshake did not resume");
        std::process::exit(1);
    }
    if key_update {
        stream.conn.key_update().unwrap_or_else(|e| die(&format!("{e}")));
        stream.flush_records().unwrap_or_else(|e| die(&format!("{e}")));
    }

    // The connection stays on this thread; two others only move bytes: one reads stdin, one
    // blocks on the socket, and both hand what they read over a channel. Nothing waits on a
    // timeout, so nothing is delayed once the handshake is done.
    let Stream { sock, .. } = stream;
    let (events, next) = mpsc::channel::<Event>();
    let stdin_events = events.clone();
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 16_384];
        let mut stdin = std::io::stdin();
        loop {
            let n = stdin.read(&mut buf).unwrap_or(0);
            if stdin_events.send(Event::Stdin(buf[..n].to_vec())).is_err() || n == 0 {
                return;
            }
        }
    });
    let mut reader = sock.try_clone().unwrap_or_else(|e| die(&format!("{e}")));
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 17_000];
        loop {
            let r = reader.read(&mut buf).map(|n| buf[..n].to_vec());
            let end = !matches!(&r, Ok(data) if !data.is_empty());
            if events.send(Event::Socket(r)).is_err() || end {
                return;
            }
        }
    });
    let mut stdout = std::io::stdout();
    let mut stdin_open = true;
    while let Ok(event) = next.recv() {
        let r = match event {
            Event::Stdin(data) if data.is_empty() => {
                stdin_open = false;
                Stream { conn: &mut conn, sock: &sock }.close().map_err(|e| e.to_string())
            }
            Event::Stdin(data) if stdin_open => {
                Stream { conn: &mut conn, sock: &sock }.write_all(&data).map_err(|e| e.to_string())
            }
            Event::Stdin(_) => Ok(()),
            Event::Socket(Ok(data)) if data.is_empty() => {
                if conn.want() == Want::Closed {
                    return;
                }
                Err("the server closed the connection without close_notify".into())
            }
            Event::Socket(Ok(data)) => feed(&mut conn, &sock, &data, &mut stdout),
            Event::Socket(Err(e)) => Err(e.to_string()),
        };
        if let Err(e) = r {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
        if conn.want() == Want::Closed {
            return;
        }
    }
}

/// What the stdin and socket threads hand to the connection's thread.
enum Event {
    /// Bytes from stdin; empty at its end.
    Stdin(Vec<u8>),
    /// Bytes from the socket; empty at its end.
    Socket(std::io::Result<Vec<u8>>),
}

/// Hands `data` from the socket to the connection, writes the application data it releases to
/// `out`, and sends what the connection queues in answer (a KeyUpdate, an alert).
fn feed(
    conn: &mut Connection<'_, '_>,
    sock: &TcpStream,
    mut data: &[u8],
    out: &mut impl Write,
) -> Result<(), String> {
    let mut buf = vec![0u8; 16_384];
    while !data.is_empty() {
        let space = conn.receive_space();
        let n = space.len().min(data.len());
        if n == 0 {
            return Err("the receive buffer is full".into());
        }
        space[..n].copy_from_slice(&data[..n]);
        data = &data[n..];
        // Data that came before a failure is written out first, then the alert is sent,
        // then the failure is reported.
        let mut result = conn.received(n);
        loop {
            match conn.read(&mut buf) {
                Ok(0) => break,
                Ok(got) => out
                    .write_all(&buf[..got])
                    .and_then(|()| out.flush())
                    .map_err(|e| e.to_string())?,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        let flushed = Stream { conn: &mut *conn, sock }.flush_records();
        result.map_err(|e| e.to_string())?;
        flushed.map_err(|e| e.to_string())?;
    }
    Ok(())
}
