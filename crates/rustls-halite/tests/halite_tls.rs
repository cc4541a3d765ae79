//! rustls on this provider against Halite's own sans-IO `tls` crate, in memory, both roles:
//! every TLS 1.3 suite both implement × every group (the ML-KEM hybrids included), Ed25519
//! certificate; and an RSASSA-PSS server key against Halite's client, which offers
//! `rsa_pss_pss_*`.

mod common;

use std::io::{Read, Write};
use std::sync::Arc;

use common::{Cert, Side, client_config, narrowed, server_config};
use core_hash::OsRandom;
use pki_types::{CertificateDer, ServerName};
use rustls::version::TLS13;
use rustls::{CipherSuite, NamedGroup};
use tls::suites::{self, Suite};
use tls::{Buffers, Connection};

const CA: &[u8] = include_bytes!("../../tls/tests/data/ca.der");
const SERVER_CERT: &[u8] = include_bytes!("../../tls/tests/data/server.der");
const SERVER_SEED: &[u8; 32] = include_bytes!("../../tls/tests/data/server.seed");

const GROUPS: [(NamedGroup, tls::msgs::NamedGroup); 7] = [
    (NamedGroup::X25519MLKEM768, tls::msgs::NamedGroup::X25519MLKEM768),
    (NamedGroup::secp256r1MLKEM768, tls::msgs::NamedGroup::SECP256R1MLKEM768),
    (NamedGroup::Unknown(0x11ed), tls::msgs::NamedGroup::SECP384R1MLKEM1024),
    (NamedGroup::X25519, tls::msgs::NamedGroup::X25519),
    (NamedGroup::secp256r1, tls::msgs::NamedGroup::SECP256R1),
    (NamedGroup::secp384r1, tls::msgs::NamedGroup::SECP384R1),
    (NamedGroup::secp521r1, tls::msgs::NamedGroup::SECP521R1),
];

/// Moves records between Halite's connection and a rustls one until neither has more,
/// collecting the application data each side receives.
fn pump<D>(
    ours: &mut Connection<'_, '_>,
    theirs: &mut rustls::ConnectionCommon<D>,
    ours_got: &mut Vec<u8>,
    theirs_got: &mut Vec<u8>,
) -> Result<(), String> {
    for _ in 0..30 {
        let mut moved = false;
        let n = ours.pending_send().len();
        if n > 0 {
            let mut data = ours.pending_send();
            while !data.is_empty() {
                theirs.read_tls(&mut data).map_err(|e| format!("rustls read: {e}"))?;
                theirs.process_new_packets().map_err(|e| format!("rustls: {e}"))?;
                let mut buf = [0u8; 4096];
                // `WouldBlock` (nothing more yet) ends the drain like end of stream.
                while let Ok(k @ 1..) = theirs.reader().read(&mut buf) {
                    theirs_got.extend_from_slice(&buf[..k]);
                }
            }
            ours.sent(n);
            moved = true;
        }
        let mut out = Vec::new();
        while theirs.wants_write() {
            theirs.write_tls(&mut out).map_err(|e| format!("rustls write: {e}"))?;
        }
        let mut at = 0;
        while at < out.len() {
            let space = ours.receive_space();
            let k = space.len().min(out.len() - at);
            space[..k].copy_from_slice(&out[at..at + k]);
            ours.received(k).map_err(|e| format!("halite: {e:?}"))?;
            at += k;
            moved = true;
            let mut sink = [0u8; 4096];
            loop {
                let k = ours.read(&mut sink).map_err(|e| format!("halite read: {e:?}"))?;
                if k == 0 {
                    break;
                }
                ours_got.extend_from_slice(&sink[..k]);
            }
        }
        if !moved {
            return Ok(());
        }
    }
    Err("the peers kept talking".into())
}

fn cases() -> impl Iterator<Item = (Suite, CipherSuite, NamedGroup, tls::msgs::NamedGroup)> {
    suites::ALL_SUITES.iter().flat_map(|&suite| {
        GROUPS
            .into_iter()
            .map(move |(ours, theirs)| (suite, CipherSuite::from(suite.suite.0), ours, theirs))
    })
}

#[test]
fn rustls_halite_client_against_halite_tls_server() {
    let key = tls::SigningKey::Ed25519(core_ec::ed25519::SigningKey::from_seed(SERVER_SEED));
    let chain: [&[u8]; 1] = [SERVER_CERT];
    let mut runs = 0;
    for (suite, rustls_suite, group, tls_group) in cases() {
        let what = format!("{rustls_suite:?} {group:?}");
        let provider = narrowed(Side::Halite, rustls_suite, group).unwrap();
        let config = client_config(provider, &TLS13, Cert::Ed25519, None).unwrap();
        let name = ServerName::try_from("localhost").unwrap();
        let mut theirs = rustls::ClientConnection::new(Arc::new(config), name).unwrap();

        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let suites = [suite];
        let groups = [tls_group];
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let config = tls::ServerConfig {
            suites: &suites,
            groups: &groups,
            ..tls::ServerConfig::new(&certs)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut ours = Connection::server(config, bufs, &mut OsRandom).unwrap();
        let (mut ours_got, mut theirs_got) = (Vec::new(), Vec::new());
        pump(&mut ours, &mut theirs, &mut ours_got, &mut theirs_got)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(!theirs.is_handshaking() && !ours.is_handshaking(), "{what}");
        assert_eq!(theirs.negotiated_cipher_suite().map(|s| s.suite()), Some(rustls_suite));
        let n = ours.negotiated().unwrap();
        assert_eq!((n.suite.0, n.group), (suite.suite.0, tls_group), "{what}");

        theirs.writer().write_all(b"hello from rustls-halite").unwrap();
        ours.write(b"hello from halite tls").unwrap();
        pump(&mut ours, &mut theirs, &mut ours_got, &mut theirs_got)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(ours_got, b"hello from rustls-halite", "{what}");
        assert_eq!(theirs_got, b"hello from halite tls", "{what}");
        runs += 1;
    }
    assert_eq!(runs, 35);
}

/// One handshake and exchange of Halite's `tls` client, trusting `ca`, against a rustls server
/// on this provider with the identity of `cert`.
fn tls_client_against_rustls_server(
    (suite, rustls_suite, group, tls_group): (
        Suite,
        CipherSuite,
        NamedGroup,
        tls::msgs::NamedGroup,
    ),
    cert: Cert,
    ca: &[u8],
) -> Result<(), String> {
    let ca = CertificateDer::from(ca);
    let roots = [webpki::anchor_from_trusted_cert(&ca).map_err(|e| e.to_string())?];
    let provider = narrowed(Side::Halite, rustls_suite, group).ok_or("no such suite")?;
    let config = server_config(provider, &TLS13, cert, None)?;
    let mut theirs = rustls::ServerConnection::new(Arc::new(config)).map_err(|e| e.to_string())?;

    let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let suites = [suite];
    let groups = [tls_group];
    let config = tls::ClientConfig {
        suites: &suites,
        groups: &groups,
        ..tls::ClientConfig::new(&roots, &tls::SystemClock)
    };
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let mut ours = Connection::client(config, "localhost", bufs, &mut OsRandom)
        .map_err(|e| format!("{e:?}"))?;
    let (mut ours_got, mut theirs_got) = (Vec::new(), Vec::new());
    pump(&mut ours, &mut theirs, &mut ours_got, &mut theirs_got)?;
    if ours.is_handshaking() || theirs.is_handshaking() {
        return Err(format!("handshake did not finish: {:?}", ours.error()));
    }
    if theirs.negotiated_cipher_suite().map(|s| s.suite()) != Some(rustls_suite) {
        return Err("rustls negotiated another suite".into());
    }
    let n = ours.negotiated().ok_or("nothing negotiated")?;
    if (n.suite.0, n.group) != (suite.suite.0, tls_group) {
        return Err(format!("halite negotiated {n:?}"));
    }

    ours.write(b"ping from halite tls").map_err(|e| format!("{e:?}"))?;
    theirs.writer().write_all(b"pong from rustls-halite").map_err(|e| e.to_string())?;
    pump(&mut ours, &mut theirs, &mut ours_got, &mut theirs_got)?;
    if theirs_got != b"ping from halite tls" || ours_got != b"pong from rustls-halite" {
        return Err("data garbled".into());
    }
    Ok(())
}

#[test]
fn halite_tls_client_against_rustls_halite_server() {
    let mut runs = 0;
    for case in cases() {
        let what = format!("{:?} {:?}", case.1, case.2);
        tls_client_against_rustls_server(case, Cert::Ed25519, CA)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        runs += 1;
    }
    assert_eq!(runs, 35);
}

/// An RSASSA-PSS key serves Halite's `tls` client, which offers and verifies
/// `rsa_pss_pss_*` (no rustls client offers them), for every suite.
#[test]
fn halite_tls_client_against_rustls_halite_rsa_pss_key() {
    let ca = include_bytes!("../../tls/tests/data/ca-pss.der");
    let mut runs = 0;
    for case in cases().filter(|c| c.2 == NamedGroup::X25519) {
        let what = format!("{:?}", case.1);
        tls_client_against_rustls_server(case, Cert::RsaPss, ca)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        runs += 1;
    }
    assert_eq!(runs, 5);
}
