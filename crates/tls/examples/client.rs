//! `client HOST PORT [--server-name NAME] [--cafile PEM] [--alpn P]... [--groups g1,g2]
//! [--suites s1,s2] [--key-update]`: connects over TCP, sends stdin to the server until EOF
//! (then close_notify), prints everything received to stdout until the server's
//! close_notify, and prints the `negotiated:` line to stderr. Groups are `x25519`,
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
use std::time::{Duration, Instant};

use common::die;
use core_hash::OsRandom;
use pki_types::CertificateDer;
use tls::ticket::MemoryTicketStore;
use tls::{Buffers, ClientConfig, Connection, Stream, Want};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut pos = Vec::new();
    let (mut cert, mut key, mut resume) = (None::<String>, None::<String>, false);
    let mut groups = tls::kx::DEFAULT_GROUPS.to_vec();
    let (mut name, mut cafile, mut alpn, mut suites, mut key_update) =
        (None, None, Vec::new(), tls::suites::DEFAULT_SUITES.to_vec(), false);
    let (mut psk, mut record_size_limit, mut max_fragment_length) = (None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().unwrap_or_else(|| die(&format!("{a} needs a value")));
        match a.as_str() {
            "--server-name" => name = Some(val()),
            "--cafile" => cafile = Some(val()),
            "--alpn" => alpn.push(val().into_bytes()),
            "--groups" => groups = common::parse_groups(&val()),
            "--suites" => suites = common::parse_suites(&val()),
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
    let ders: Vec<CertificateDer<'static>> = cafile
        .as_deref()
        .map(|f| common::pem_blocks(f, "CERTIFICATE"))
        .unwrap_or_default()
        .into_iter()
        .map(CertificateDer::from)
        .collect();
    let ders: &'static [CertificateDer<'static>] = Box::leak(ders.into_boxed_slice());
    let roots: Vec<_> = ders
        .iter()
        .map(|d| {
            webpki::anchor_from_trusted_cert(d)
                .unwrap_or_else(|e| die(&format!("{}: {e:?}", cafile.as_deref().unwrap_or("-"))))
        })
        .collect();
    let alpn_refs: Vec<&[u8]> = alpn.iter().map(Vec::as_slice).collect();

    let port = port.parse::<u16>().unwrap_or_else(|_| die("bad port"));
    let connect = || {
        TcpStream::connect((host.as_str(), port)).unwrap_or_else(|e| die(&format!("connect: {e}")))
    };
    let store = MemoryTicketStore::default();
    let config = ClientConfig {
        suites: &suites,
        alpn: &alpn_refs,
        groups: &groups,
        client_cert,
        tickets: Some(&store),
        record_size_limit,
        max_fragment_length,
        external_psk: psk,
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
        stream.sock.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
        let start = Instant::now();
        let mut buf = [0u8; 4096];
        while store.is_empty()
            && stream.conn.refused_ticket().is_none()
            && start.elapsed() < Duration::from_secs(3)
        {
            match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => die(&format!("{e}")),
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

    // stdin is read on its own thread; the socket is polled with a short timeout.
    let (send, recv) = mpsc::channel::<Option<Vec<u8>>>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 16384];
        let mut stdin = std::io::stdin();
        loop {
            match stdin.read(&mut buf) {
                Ok(0) | Err(_) => {
                    let _ = send.send(None);
                    return;
                }
                Ok(n) => {
                    if send.send(Some(buf[..n].to_vec())).is_err() {
                        return;
                    }
                }
            }
        }
    });
    stream.sock.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
    let mut stdout = std::io::stdout();
    let mut stdin_open = true;
    let mut buf = [0u8; 16384];
    loop {
        while stdin_open {
            match recv.try_recv() {
                Ok(Some(data)) => stream.write_all(&data).unwrap_or_else(|e| die(&format!("{e}"))),
                Ok(None) | Err(mpsc::TryRecvError::Disconnected) => {
                    stdin_open = false;
                    stream.close().unwrap_or_else(|e| die(&format!("{e}")));
                }
                Err(mpsc::TryRecvError::Empty) => break,
            }
        }
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                stdout.write_all(&buf[..n]).unwrap();
                stdout.flush().unwrap();
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
        if stream.conn.want() == Want::Closed {
            break;
        }
    }
}
