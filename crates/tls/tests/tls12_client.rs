//! The TLS 1.2 client against a rustls (ring) server configured for TLS 1.2 only, in memory:
//! every ECDHE suite both implement × group × certificate type, with data both ways and the
//! exporter; the server's answers Halite requires (extended master secret, downgrade
//! sentinel), patched into the forwarded `ServerHello`; and version negotiation when the
//! client offers both versions.

mod pair;

use std::io::{Read, Write};
use std::sync::Arc;

use core_hash::OsRandom;
use pair::{
    anchors, buffers, leak, pump_rustls, pump_rustls_with, ring_provider, rustls_server_config,
};
use tls::msgs::{AlertDescription, NamedGroup, ProtocolVersion};
use tls::suites::tls12::{self as s12, Suite12};
use tls::{ClientConfig, Connection, Error, PeerIncompatible, PeerMisbehaved};

struct Identity {
    ca: &'static [u8],
    cert: &'static [u8],
    key: &'static [u8],
    suites: [Suite12; 3],
}

const P256: Identity = Identity {
    ca: include_bytes!("data/ca-p256.der"),
    cert: include_bytes!("data/server-p256.der"),
    key: include_bytes!("data/server-p256.key.der"),
    suites: [
        s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        s12::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    ],
};

const RSA: Identity = Identity {
    ca: include_bytes!("data/ca-rsa.der"),
    cert: include_bytes!("data/server-rsa.der"),
    key: include_bytes!("data/server-rsa.key.der"),
    suites: [
        s12::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        s12::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        s12::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ],
};

const GROUPS: [NamedGroup; 3] = [NamedGroup::X25519, NamedGroup::SECP256R1, NamedGroup::SECP384R1];

/// A rustls server for `id`, with only `suite` (if given) and `group`, speaking `versions`.
fn rustls_server(
    id: &Identity,
    suite: Option<Suite12>,
    group: NamedGroup,
    versions: &[&'static rustls::SupportedProtocolVersion],
) -> rustls::ServerConnection {
    let suites: Vec<_> = suite.iter().map(|s| s.suite).collect();
    let provider = ring_provider(&suites, &[group]);
    let config = rustls_server_config(provider, versions, (id.cert, id.key), None);
    rustls::ServerConnection::new(Arc::new(config)).unwrap()
}

const BOTH: [ProtocolVersion; 2] = [ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2];
const ONLY12: [ProtocolVersion; 1] = [ProtocolVersion::TLSV1_2];

#[test]
fn every_suite_group_and_certificate_against_rustls() {
    let mut count = 0;
    for id in [&P256, &RSA] {
        let roots = anchors(&[id.ca]);
        for suite in id.suites {
            for group in GROUPS {
                for versions in [&ONLY12[..], &BOTH[..]] {
                    let groups = [group];
                    let suites12 = [suite];
                    let config = ClientConfig {
                        versions,
                        suites12: &suites12,
                        groups: &groups,
                        ..ClientConfig::new(roots, &tls::SystemClock)
                    };
                    let mut ours =
                        Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap();
                    let mut theirs =
                        rustls_server(id, Some(suite), group, &[&rustls::version::TLS12]);
                    let (r, _) = pump_rustls(&mut ours, &mut theirs);
                    r.unwrap_or_else(|e| panic!("{suite:?} {group:?}: {e}"));
                    assert!(!ours.is_handshaking() && !theirs.is_handshaking());
                    let n = ours.negotiated().unwrap();
                    assert_eq!(n.version, ProtocolVersion::TLSV1_2);
                    assert_eq!(n.suite, suite.suite);
                    assert_eq!(n.group, group);
                    assert_eq!(theirs.protocol_version(), Some(rustls::ProtocolVersion::TLSv1_2));

                    // Data both ways.
                    assert_eq!(ours.write(b"ping from halite").unwrap(), 16);
                    let (r, _) = pump_rustls(&mut ours, &mut theirs);
                    r.unwrap();
                    let mut buf = [0u8; 64];
                    let k = theirs.reader().read(&mut buf).unwrap();
                    assert_eq!(&buf[..k], b"ping from halite");
                    let big = vec![0x5a; 40_000];
                    theirs.writer().write_all(&big).unwrap();
                    theirs.writer().write_all(b"pong").unwrap();
                    let (r, app) = pump_rustls(&mut ours, &mut theirs);
                    r.unwrap();
                    assert_eq!(app.len(), 40_004);
                    assert_eq!(&app[40_000..], b"pong");

                    // The exporter agrees with rustls's (RFC 5705, with a context).
                    let (mut a, mut b) = ([0u8; 40], [0u8; 40]);
                    ours.export_keying_material(b"EXPORTER-test", b"ctx", &mut a).unwrap();
                    theirs.export_keying_material(&mut b, b"EXPORTER-test", Some(b"ctx")).unwrap();
                    assert_eq!(a, b);
                    assert_eq!(ours.key_update(), Err(Error::ApiMisuse(tls::ApiMisuse::BadConfig)));

                    ours.close();
                    let (r, _) = pump_rustls(&mut ours, &mut theirs);
                    r.unwrap();
                    count += 1;
                }
            }
        }
    }
    assert_eq!(count, 36);
}

/// A change to a `ServerHello`: its random and its extensions as (type, body) pairs.
type Patch = dyn FnMut(&mut [u8], &mut Vec<(u16, Vec<u8>)>);

/// Rewrites the `ServerHello` at the start of `flight` (a handshake record): `f` gets the
/// random and the extension blocks as (type, body) pairs, and the lengths are fixed up.
fn patch_server_hello(flight: &mut Vec<u8>, f: &mut Patch) {
    if flight.len() < 9 || flight[0] != 22 || flight[5] != 2 {
        return;
    }
    let rec_len = usize::from(u16::from_be_bytes([flight[3], flight[4]]));
    let hs_len =
        usize::from(flight[6]) << 16 | usize::from(flight[7]) << 8 | usize::from(flight[8]);
    let body = flight[9..9 + hs_len].to_vec();
    let sid_len = usize::from(body[34]);
    let ext_at = 35 + sid_len + 3;
    let mut head = body[..ext_at].to_vec();
    let mut exts = Vec::new();
    let mut p = ext_at + 2;
    while p < body.len() {
        let typ = u16::from_be_bytes([body[p], body[p + 1]]);
        let len = usize::from(u16::from_be_bytes([body[p + 2], body[p + 3]]));
        exts.push((typ, body[p + 4..p + 4 + len].to_vec()));
        p += 4 + len;
    }
    f(&mut head[2..34], &mut exts);
    let mut ext_bytes = Vec::new();
    for (t, b) in &exts {
        ext_bytes.extend_from_slice(&t.to_be_bytes());
        ext_bytes.extend_from_slice(&(b.len() as u16).to_be_bytes());
        ext_bytes.extend_from_slice(b);
    }
    let mut new_body = head;
    new_body.extend_from_slice(&(ext_bytes.len() as u16).to_be_bytes());
    new_body.extend(ext_bytes);
    let mut msg = vec![2, 0, (new_body.len() >> 8) as u8, new_body.len() as u8];
    msg.extend(new_body);
    let rest = flight[9 + hs_len..5 + rec_len].to_vec();
    let after = flight[5 + rec_len..].to_vec();
    let new_len = msg.len() + rest.len();
    let mut out = vec![22, 3, 3, (new_len >> 8) as u8, new_len as u8];
    out.extend(msg);
    out.extend(rest);
    out.extend(after);
    *flight = out;
}

fn patched_handshake(
    versions: &[ProtocolVersion],
    f: &mut Patch,
) -> (Connection<'static, 'static>, Result<(), Error>) {
    first_flight_patched(versions, &mut |flight| patch_server_hello(flight, f))
}

/// Runs a handshake offering `versions` with rustls's TLS 1.2 server, `patch` rewriting the
/// records of the server's first flight; returns our connection and its result.
fn first_flight_patched(
    versions: &[ProtocolVersion],
    patch: &mut dyn FnMut(&mut Vec<u8>),
) -> (Connection<'static, 'static>, Result<(), Error>) {
    let roots = anchors(&[P256.ca]);
    let versions: &'static [ProtocolVersion] = leak(versions.to_vec());
    let config = ClientConfig { versions, ..ClientConfig::new(roots, &tls::SystemClock) };
    let mut ours = Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut theirs = rustls_server(&P256, None, NamedGroup::X25519, &[&rustls::version::TLS12]);
    let mut first = true;
    let (r, _) = pump_rustls_with(&mut ours, &mut theirs, &mut |flight| {
        if first && !flight.is_empty() {
            first = false;
            patch(flight);
        }
    });
    (ours, r)
}

#[test]
fn a_server_without_extended_master_secret_is_refused() {
    let (ours, r) = patched_handshake(&BOTH, &mut |_, exts| exts.retain(|(t, _)| *t != 0x0017));
    let want = Error::PeerIncompatible(PeerIncompatible::NoExtendedMasterSecret);
    assert_eq!(r, Err(want));
    assert_eq!(want.alert(), Some(AlertDescription::HANDSHAKE_FAILURE));
    assert!(ours.negotiated().is_none());
}

#[test]
fn a_server_without_renegotiation_info_is_refused() {
    let (_, r) = patched_handshake(&BOTH, &mut |_, exts| exts.retain(|(t, _)| *t != 0xff01));
    assert_eq!(r, Err(Error::PeerIncompatible(PeerIncompatible::NoSecureRenegotiation)));
    let (_, r) = patched_handshake(&BOTH, &mut |_, exts| {
        for (t, b) in exts.iter_mut() {
            if *t == 0xff01 {
                *b = vec![1, 0];
            }
        }
    });
    assert_eq!(r, Err(Error::PeerMisbehaved(PeerMisbehaved::RenegotiationInfoNotEmpty)));
}

#[test]
fn the_downgrade_sentinel_is_refused_by_a_tls13_capable_client() {
    let sentinel = |random: &mut [u8], _: &mut Vec<(u16, Vec<u8>)>| {
        random[24..].copy_from_slice(b"DOWNGRD\x01");
    };
    let (_, r) = patched_handshake(&BOTH, &mut { sentinel });
    let want = Error::PeerMisbehaved(PeerMisbehaved::DowngradeDetected);
    assert_eq!(r, Err(want));
    assert_eq!(want.alert(), Some(AlertDescription::ILLEGAL_PARAMETER));
    // A client that offers TLS 1.2 only has not been downgraded: it goes on (and the
    // server's signature, over the patched random, then fails).
    let (_, r) = patched_handshake(&ONLY12, &mut { sentinel });
    assert_eq!(r, Err(Error::PeerMisbehaved(PeerMisbehaved::BadSignature)));
}

#[test]
fn a_tls13_server_still_negotiates_tls13_when_both_are_offered() {
    let roots = anchors(&[P256.ca]);
    let config = ClientConfig { versions: &BOTH, ..ClientConfig::new(roots, &tls::SystemClock) };
    let mut ours = Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut theirs = rustls_server(
        &P256,
        None,
        NamedGroup::X25519,
        &[&rustls::version::TLS13, &rustls::version::TLS12],
    );
    let (r, _) = pump_rustls(&mut ours, &mut theirs);
    r.unwrap();
    assert_eq!(ours.negotiated().unwrap().version, ProtocolVersion::TLSV1_3);
    assert_eq!(theirs.protocol_version(), Some(rustls::ProtocolVersion::TLSv1_3));
}

#[test]
fn a_tls13_only_client_refuses_a_tls12_server() {
    let roots = anchors(&[P256.ca]);
    let versions = &[ProtocolVersion::TLSV1_3];
    let config = ClientConfig { versions, ..ClientConfig::new(roots, &tls::SystemClock) };
    let mut ours = Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut theirs = rustls_server(&P256, None, NamedGroup::X25519, &[&rustls::version::TLS12]);
    let (r, _) = pump_rustls(&mut ours, &mut theirs);
    assert_eq!(r, Err(Error::PeerIncompatible(PeerIncompatible::NoTls13)));
}

/// A client that offered TLS 1.2 and is refused (a `protocol_version` alert, or a `ServerHello`
/// of an older version) reports no version in common, not "no TLS 1.3"; one that offered
/// TLS 1.3 only still reports `NoTls13`.
#[test]
fn a_refused_tls12_client_reports_no_common_version() {
    let roots = anchors(&[P256.ca]);
    let alert = [21, 3, 3, 0, 2, 2, AlertDescription::PROTOCOL_VERSION.0];
    for (versions, want) in [
        (&BOTH[..], PeerIncompatible::NoCommonVersion),
        (&ONLY12[..], PeerIncompatible::NoCommonVersion),
        (&[ProtocolVersion::TLSV1_3][..], PeerIncompatible::NoTls13),
    ] {
        let config = ClientConfig { versions, ..ClientConfig::new(roots, &tls::SystemClock) };
        let mut ours = Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap();
        let n = ours.pending_send().len();
        ours.sent(n);
        ours.receive_space()[..alert.len()].copy_from_slice(&alert);
        let r = ours.received(alert.len());
        assert_eq!(r, Err(Error::PeerIncompatible(want)), "{versions:?}");
        assert_eq!(Error::PeerIncompatible(want).alert(), Some(AlertDescription::PROTOCOL_VERSION));
    }
    // A TLS 1.1 ServerHello (legacy_version 3.2, no supported_versions).
    for versions in [&BOTH[..], &ONLY12[..]] {
        let config = ClientConfig { versions, ..ClientConfig::new(roots, &tls::SystemClock) };
        let mut ours = Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap();
        let mut theirs = rustls_server(&P256, None, NamedGroup::X25519, &[&rustls::version::TLS12]);
        let (r, _) = pump_rustls_with(&mut ours, &mut theirs, &mut |flight| {
            if flight.len() > 10 && flight[0] == 22 && flight[5] == 2 {
                flight[9..11].copy_from_slice(&[3, 2]);
            }
        });
        assert_eq!(r, Err(Error::PeerIncompatible(PeerIncompatible::NoCommonVersion)));
    }
}

/// A server that asks for a client certificate (optionally) gets an empty Certificate from a
/// client with none, and the handshake completes.
#[test]
fn a_certificate_request_is_answered_with_an_empty_certificate() {
    let provider = ring_provider(&[], &[]);
    let tls12 = [&rustls::version::TLS12];
    let id = (P256.cert, P256.key);
    let config = rustls_server_config(provider, &tls12, id, Some((P256.ca, false)));
    let mut theirs = rustls::ServerConnection::new(Arc::new(config)).unwrap();
    let roots = anchors(&[P256.ca]);
    let config = ClientConfig { versions: &ONLY12, ..ClientConfig::new(roots, &tls::SystemClock) };
    let mut ours = Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap();
    let (r, _) = pump_rustls(&mut ours, &mut theirs);
    r.unwrap();
    assert!(!ours.is_handshaking() && !theirs.is_handshaking());
    assert!(theirs.peer_certificates().is_none());
    assert_eq!(ours.negotiated().unwrap().client_auth, None);
    assert_eq!(ours.write(b"x").unwrap(), 1);
    let (r, _) = pump_rustls(&mut ours, &mut theirs);
    r.unwrap();
    let mut buf = [0u8; 4];
    assert_eq!(theirs.reader().read(&mut buf).unwrap(), 1);
}

/// The versions must be TLS 1.2 and/or 1.3, with suites for each offered one.
#[test]
fn versions_are_checked() {
    let roots = anchors(&[P256.ca]);
    let bad: [&[ProtocolVersion]; 3] =
        [&[], &[ProtocolVersion(0x0302)], &[ProtocolVersion(0x0305)]];
    for versions in bad {
        let config = ClientConfig { versions, ..ClientConfig::new(roots, &tls::SystemClock) };
        let r = Connection::client(config, "localhost", buffers(), &mut OsRandom);
        assert_eq!(r.err(), Some(Error::ApiMisuse(tls::ApiMisuse::BadConfig)), "{versions:?}");
    }
    let config = ClientConfig {
        versions: &ONLY12,
        suites12: &[],
        ..ClientConfig::new(roots, &tls::SystemClock)
    };
    let r = Connection::client(config, "localhost", buffers(), &mut OsRandom);
    assert_eq!(r.err(), Some(Error::ApiMisuse(tls::ApiMisuse::BadConfig)));
    // TLS 1.2 alone needs no TLS 1.3 suites.
    let config = ClientConfig {
        versions: &ONLY12,
        suites: &[],
        ..ClientConfig::new(roots, &tls::SystemClock)
    };
    assert!(Connection::client(config, "localhost", buffers(), &mut OsRandom).is_ok());
}

/// The handshake messages of the plaintext handshake records at the start of `flight`, and
/// what follows them.
fn split_flight(flight: &[u8]) -> (Vec<Vec<u8>>, Vec<u8>) {
    let (mut stream, mut at) = (Vec::new(), 0);
    while flight.len() >= at + 5 && flight[at] == 22 {
        let len = usize::from(u16::from_be_bytes([flight[at + 3], flight[at + 4]]));
        stream.extend_from_slice(&flight[at + 5..at + 5 + len]);
        at += 5 + len;
    }
    let mut msgs = Vec::new();
    let mut p = 0;
    while p + 4 <= stream.len() {
        let len = usize::from(stream[p + 1]) << 16
            | usize::from(stream[p + 2]) << 8
            | usize::from(stream[p + 3]);
        msgs.push(stream[p..p + 4 + len].to_vec());
        p += 4 + len;
    }
    (msgs, flight[at..].to_vec())
}

/// `msgs` as plaintext handshake records: one each, or all in one record when `packed`.
fn records(msgs: &[Vec<u8>], packed: bool) -> Vec<u8> {
    let record = |body: &[u8]| {
        let mut r = vec![22, 3, 3, (body.len() >> 8) as u8, body.len() as u8];
        r.extend_from_slice(body);
        r
    };
    if packed { record(&msgs.concat()) } else { msgs.iter().flat_map(|m| record(m)).collect() }
}

const HELLO_REQUEST: [u8; 4] = [0, 0, 0, 0];

/// Runs a TLS 1.2 handshake with rustls's server whose first flight `f` rewrites (given its
/// messages); returns our connection and its result.
fn handshake_with_flight(
    f: &mut dyn FnMut(Vec<Vec<u8>>) -> Vec<Vec<u8>>,
    packed: bool,
) -> (Connection<'static, 'static>, Result<(), Error>) {
    first_flight_patched(&ONLY12, &mut |flight| {
        let (msgs, after) = split_flight(flight);
        let mut out = records(&f(msgs), packed);
        out.extend(after);
        *flight = out;
    })
}

/// RFC 5246 §7.4.1.1: a `HelloRequest` during the handshake is ignored, and kept out of the
/// transcript (the Finished messages check): one after each message of the server's first
/// flight but the last (between the Certificate and `ServerKeyExchange` too, which are
/// handled as a pair), each in its own record or all packed in one.
#[test]
fn hello_requests_during_a_tls12_handshake_are_ignored() {
    for packed in [false, true] {
        let mut seen = 0;
        let (ours, r) = handshake_with_flight(
            &mut |msgs| {
                seen = msgs.len();
                let last = msgs.len() - 1;
                let mut out = Vec::new();
                for (i, m) in msgs.into_iter().enumerate() {
                    out.push(m);
                    if i != last {
                        out.push(HELLO_REQUEST.to_vec());
                    }
                }
                out
            },
            packed,
        );
        // ServerHello, Certificate, ServerKeyExchange, ServerHelloDone.
        assert_eq!(seen, 4, "packed {packed}");
        r.unwrap_or_else(|e| panic!("packed {packed}: {e}"));
        assert!(!ours.is_handshaking(), "packed {packed}");
        assert_eq!(ours.negotiated().unwrap().version, ProtocolVersion::TLSV1_2);
    }
}

/// Before the `ServerHello` the version is not chosen (and TLS 1.3 has no `HelloRequest`): a
/// `HelloRequest` there is an unexpected message. So is one with a body (RFC 5246 §7.4.1.1:
/// it is empty).
#[test]
fn hello_requests_before_the_server_hello_or_with_a_body_are_refused() {
    let unexpected = Error::PeerMisbehaved(PeerMisbehaved::UnexpectedMessage);
    let (_, r) = handshake_with_flight(
        &mut |mut msgs| {
            msgs.insert(0, HELLO_REQUEST.to_vec());
            msgs
        },
        false,
    );
    assert_eq!(r, Err(unexpected));
    let (_, r) = handshake_with_flight(
        &mut |mut msgs| {
            msgs.insert(1, vec![0, 0, 0, 1, 1]);
            msgs
        },
        false,
    );
    assert!(r.is_err(), "{r:?}");
}
