//! `server --cert PEM --key PEM [--cert PEM --key PEM]... [--port N] [--alpn P]...
//! [--groups g1,g2] [--suites s1,s2] [--versions 1.2,1.3] [--max-connections N]
//! [--timeout SECS]`: serves TLS 1.3 and 1.2 on 127.0.0.1, echoes back every byte it receives on each connection (each on its own
//! thread, closed after SECS seconds without data, 30 by default), prints the `negotiated:`
//! line per connection, and exits once N connections are served if given. Keys are PKCS#8
//! PEM (Ed25519, ECDSA P-256/P-384, RSA, RSASSA-PSS); with several `--cert/--key` pairs the certificate is
//! chosen by the client's SNI (the first pair is the default). `--client-ca PEM` requires
//! every client to present a certificate chaining to one of the roots in PEM. `--psk ID:HEX`
//! accepts an external PSK (SHA-256; `--cert/--key` may then be left out, and clients without
//! the identity are refused), `--record-size-limit N` (64 to 16385) is the limit answered to
//! clients that send `record_size_limit`. `--versions 1.2,1.3` (the default) lists the
//! versions served; TLS 1.2 is served without `--client-ca` only.

#![allow(clippy::doc_markdown)] // protocol names (close_notify) are prose

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use common::die;
use tls::ticket::TicketKey;
use tls::{
    Buffers, CertifiedKey, ClientAuth, Connection, OsRandom, ServerConfig, ServerTickets,
    SigningKey, Stream,
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut certs, mut keys, mut port, mut alpn, mut max) =
        (Vec::new(), Vec::new(), 4433u16, Vec::new(), None);
    let mut suites = tls::suites::DEFAULT_SUITES.to_vec();
    let mut groups = tls::kx::DEFAULT_GROUPS.to_vec();
    let mut versions =
        vec![tls::msgs::ProtocolVersion::TLSV1_3, tls::msgs::ProtocolVersion::TLSV1_2];
    let mut client_ca = None::<String>;
    let (mut psks, mut record_size_limit, mut timeout) = (Vec::new(), None, 30);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().unwrap_or_else(|| die(&format!("{a} needs a value")));
        match a.as_str() {
            "--cert" => certs.push(val()),
            "--key" => keys.push(val()),
            "--port" => port = val().parse().unwrap_or_else(|_| die("bad port")),
            "--alpn" => alpn.push(val().into_bytes()),
            "--groups" => groups = common::parse_groups(&val()),
            "--versions" => versions = common::parse_versions(&val()),
            "--suites" => suites = common::parse_suites(&val()),
            "--max-connections" => {
                max = Some(val().parse::<usize>().unwrap_or_else(|_| die("bad count")));
            }
            "--client-ca" => client_ca = Some(val()),
            "--psk" => psks.push(common::parse_psk(&val())),
            "--record-size-limit" => record_size_limit = Some(common::parse_number(a, &val())),
            "--timeout" => timeout = common::parse_number(a, &val()),
            _ => die(&format!("unknown argument {a}")),
        }
    }
    if (certs.is_empty() && psks.is_empty()) || certs.len() != keys.len() {
        die("give --cert PEM --key PEM (one --key per --cert; the first pair is the default)");
    }
    let chains: Vec<Vec<Vec<u8>>> = certs
        .iter()
        .map(|c| {
            let chain = common::pem_blocks(c, "CERTIFICATE");
            if chain.is_empty() {
                die(&format!("{c}: no certificates"));
            }
            chain
        })
        .collect();
    let chain_refs: Vec<Vec<&[u8]>> =
        chains.iter().map(|c| c.iter().map(Vec::as_slice).collect()).collect();
    let signing_keys: Vec<SigningKey> = keys.iter().map(|k| common::private_key(k)).collect();
    let certified: Vec<CertifiedKey<'_>> = chain_refs
        .iter()
        .zip(&signing_keys)
        .map(|(chain, key)| CertifiedKey { chain, key })
        .collect();
    let alpn_refs: Vec<&[u8]> = alpn.iter().map(Vec::as_slice).collect();
    let client_roots = client_ca.as_deref().map_or_else(Vec::new, |f| {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| die(&format!("{f}: {e}")));
        tls::roots_from_pem(&text).unwrap_or_else(|e| die(&format!("{f}: {e}")))
    });
    if client_ca.is_some() && client_roots.is_empty() {
        die("--client-ca: no certificates");
    }
    let listener =
        TcpListener::bind(("127.0.0.1", port)).unwrap_or_else(|e| die(&format!("bind: {e}")));
    // Session tickets under a key made for this run.
    let mut key_bytes = [0u8; 32];
    tls::RandomSource::fill(&mut OsRandom, &mut key_bytes).unwrap_or_else(|_| die("no randomness"));
    let ticket_key = TicketKey::new(&key_bytes).unwrap_or_else(|e| die(&format!("{e}")));
    let server_psks = tls::ServerPsks { keys: &psks, psk_ke: false };
    // One thread per connection, each with a read timeout, so an idle or slow client holds
    // only its own thread.
    let serve = |sock: TcpStream| {
        // No Nagle delay for small records (see the client).
        let set = sock.set_nodelay(true);
        if let Err(e) = set.and_then(|()| sock.set_read_timeout(Some(Duration::from_secs(timeout))))
        {
            eprintln!("error: {e}");
            return;
        }
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 40_000], vec![0; 20_000]);
        let config = ServerConfig {
            versions: &versions,
            suites: &suites,
            alpn: &alpn_refs,
            groups: &groups,
            client_auth: client_ca
                .is_some()
                .then(|| ClientAuth::new(&client_roots, &tls::SystemClock)),
            tickets: Some(ServerTickets {
                key: &ticket_key,
                lifetime: 7200,
                count: 2,
                clock: &tls::SystemClock,
                psk_ke: false,
                max_auth_age: 604_800,
            }),
            record_size_limit,
            psks: (!psks.is_empty()).then_some(&server_psks),
            ..ServerConfig::new(&certified)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = match Connection::server(config, bufs, &mut OsRandom) {
            Ok(c) => c,
            Err(e) => return eprintln!("error: {e}"),
        };
        let mut stream = Stream { conn: &mut conn, sock };
        if let Err(e) = stream.handshake() {
            eprintln!("error: handshake: {e}");
            return;
        }
        eprintln!("{}", common::negotiated_line(stream.conn, &suites, &alpn_refs));
        let mut buf = [0u8; 16384];
        loop {
            match stream.read(&mut buf) {
                Ok(0) => {
                    let _ = stream.close();
                    break;
                }
                Ok(n) => {
                    if stream.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    break;
                }
            }
        }
    };
    std::thread::scope(|scope| {
        let mut served = 0;
        while max.is_none_or(|m| served < m) {
            let Ok((sock, _)) = listener.accept() else { continue };
            served += 1;
            scope.spawn(|| serve(sock));
        }
    });
}
