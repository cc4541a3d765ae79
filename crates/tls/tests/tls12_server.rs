//! The TLS 1.2 server, in memory: against Halite's own TLS 1.2 client for every suite ×
//! group × certificate type (data both ways, the exporter, `Negotiated` on both ends), version
//! negotiation and the downgrade sentinel, record limits, ALPN; every refusal on a ClientHello
//! patched in flight (no extended master secret, a non-empty renegotiation_info, old
//! versions, compression, no common suite, scheme or group); and against a rustls (ring)
//! client speaking TLS 1.2 only, for every suite and group both have.
#![allow(clippy::doc_markdown)] // protocol names (ClientHello, renegotiation_info) are prose

mod pair;

use std::io::{Read, Write};

use core_hash::OsRandom;
use pair::{
    anchors, buffers, certified, connect, handshake, leak, pump, pump_rustls, pump_with,
    ring_provider, rustls_client12,
};
use tls::msgs::{
    AlertDescription, MaxFragmentLength, NamedGroup, ProtocolVersion, SignatureScheme,
};
use tls::suites::tls12::{self as s12, Suite12};
use tls::{
    ApiMisuse, CertifiedKey, ClientAuth, ClientConfig, Connection, Error, PeerIncompatible,
    PeerMisbehaved, ServerConfig,
};

struct Identity {
    name: &'static str,
    ca: &'static [u8],
    cert: &'static [u8],
    key: &'static [u8],
    /// The scheme our server signs with when the client offers everything.
    scheme: SignatureScheme,
    ecdsa: bool,
}

const P256: Identity = Identity {
    name: "p256",
    ca: include_bytes!("data/ca-p256.der"),
    cert: include_bytes!("data/server-p256.der"),
    key: include_bytes!("data/server-p256.key.der"),
    scheme: SignatureScheme::ECDSA_SECP256R1_SHA256,
    ecdsa: true,
};
const P384: Identity = Identity {
    name: "p384",
    ca: include_bytes!("data/ca-p384.der"),
    cert: include_bytes!("data/server-p384.der"),
    key: include_bytes!("data/server-p384.key.der"),
    scheme: SignatureScheme::ECDSA_SECP384R1_SHA384,
    ecdsa: true,
};
const ED25519: Identity = Identity {
    name: "ed25519",
    ca: include_bytes!("data/ca.der"),
    cert: include_bytes!("data/server.der"),
    key: include_bytes!("data/server.key.der"),
    scheme: SignatureScheme::ED25519,
    ecdsa: true,
};
const RSA: Identity = Identity {
    name: "rsa",
    ca: include_bytes!("data/ca-rsa.der"),
    cert: include_bytes!("data/server-rsa.der"),
    key: include_bytes!("data/server-rsa.key.der"),
    scheme: SignatureScheme::RSA_PSS_RSAE_SHA256,
    ecdsa: false,
};
const PSS: Identity = Identity {
    name: "pss",
    ca: include_bytes!("data/ca-pss.der"),
    cert: include_bytes!("data/server-pss.der"),
    key: include_bytes!("data/server-pss.key.der"),
    scheme: SignatureScheme::RSA_PSS_PSS_SHA256,
    ecdsa: false,
};

const ECDSA_SUITES: [Suite12; 5] = [
    s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    s12::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    s12::TLS_ECDHE_ECDSA_WITH_AES_128_CCM,
    s12::TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8,
];
const RSA_SUITES: [Suite12; 3] = [
    s12::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    s12::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    s12::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
];
const GROUPS: [NamedGroup; 4] =
    [NamedGroup::X25519, NamedGroup::SECP256R1, NamedGroup::SECP384R1, NamedGroup::SECP521R1];

const BOTH: [ProtocolVersion; 2] = [ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2];
const ONLY12: [ProtocolVersion; 1] = [ProtocolVersion::TLSV1_2];

fn certs(id: &Identity) -> &'static [CertifiedKey<'static>] {
    leak([certified(id.cert, id.key)])
}

fn client_config(id: &Identity, versions: &'static [ProtocolVersion]) -> ClientConfig<'static> {
    ClientConfig { versions, ..ClientConfig::new(anchors(&[id.ca]), &tls::SystemClock) }
}

fn server_config(id: &Identity, versions: &'static [ProtocolVersion]) -> ServerConfig<'static> {
    ServerConfig { versions, ..ServerConfig::new(certs(id)) }
}

/// Data both ways (more than a record from the server), the exporter and `Negotiated`.
fn check_traffic(c: &mut Connection<'_, '_>, s: &mut Connection<'_, '_>, what: &str) {
    assert_eq!(c.write(b"ping from the client").unwrap(), 20);
    pump(c, s).unwrap();
    let mut buf = vec![0u8; 50_000];
    assert_eq!(s.read(&mut buf).unwrap(), 20, "{what}");
    assert_eq!(&buf[..20], b"ping from the client");
    let big: Vec<u8> = (0..40_000u32).map(|i| i as u8).collect();
    let mut sent = 0;
    let mut got = Vec::new();
    while sent < big.len() {
        sent += s.write(&big[sent..]).unwrap();
        pump(s, c).unwrap();
        loop {
            let n = c.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
    }
    assert_eq!(got, big, "{what}");
    let (mut a, mut b) = ([0u8; 48], [0u8; 48]);
    c.export_keying_material(b"EXPORTER-test", b"ctx", &mut a).unwrap();
    s.export_keying_material(b"EXPORTER-test", b"ctx", &mut b).unwrap();
    assert_eq!(a, b, "{what}");
    s.export_keying_material(b"EXPORTER-test", b"", &mut b).unwrap();
    assert_ne!(a, b, "{what}: the context counts");
    assert_eq!(
        s.export_keying_material(b"key expansion", b"", &mut b),
        Err(Error::ApiMisuse(ApiMisuse::BadConfig))
    );
    assert_eq!(c.negotiated(), s.negotiated(), "{what}");
    assert_eq!(s.key_update(), Err(Error::ApiMisuse(ApiMisuse::BadConfig)));
    s.close();
    pump(s, c).unwrap();
    assert_eq!(c.want(), tls::Want::Closed);
}

#[test]
fn every_suite_group_and_certificate_with_our_client() {
    let mut count = 0;
    for id in [&P256, &P384, &ED25519, &RSA, &PSS] {
        let suites: &[Suite12] = if id.ecdsa { &ECDSA_SUITES } else { &RSA_SUITES };
        for suite in suites {
            for group in GROUPS {
                let what = format!("{} {} {group:?}", id.name, suite.iana_name());
                let suites12 = leak([*suite]);
                // An ECDSA certificate's curve must be among the client's groups (RFC 8422
                // §5.1); the server takes only `group` for the key exchange.
                let curve = match id.name {
                    "p256" => NamedGroup::SECP256R1,
                    "p384" => NamedGroup::SECP384R1,
                    _ => group,
                };
                let groups = leak([group, curve]);
                let cc = ClientConfig { suites12, groups, ..client_config(id, &ONLY12) };
                let sc = ServerConfig {
                    suites12: s12::ALL_SUITES12,
                    groups: leak([group]),
                    ..server_config(id, &BOTH)
                };
                let (mut c, mut s) = connect(cc, sc);
                handshake(&mut c, &mut s).unwrap_or_else(|e| panic!("{what}: {e:?}"));
                let n = s.negotiated().unwrap();
                assert_eq!(n.version, ProtocolVersion::TLSV1_2, "{what}");
                assert_eq!((n.suite, n.group, n.scheme), (suite.suite, group, id.scheme), "{what}");
                assert!(!n.resumed && !n.retried && n.client_auth.is_none() && n.alpn.is_none());
                assert_eq!(s.server_name(), Some("localhost"));
                assert!(s.peer_identity().is_none(), "no client certificate");
                check_traffic(&mut c, &mut s, &what);
                count += 1;
            }
        }
    }
    assert_eq!(count, (3 * 5 + 2 * 3) * 4);
}

/// The sentinel a 1.3-capable server writes into a TLS 1.2 ServerHello's random: the first
/// record our server sends starts with the ServerHello, its random at bytes 11..43.
fn sentinel_of(flight: &[u8]) -> &[u8] {
    assert_eq!((flight[0], flight[5]), (22, 2), "a ServerHello first");
    &flight[35..43]
}

#[test]
fn version_negotiation() {
    // Both offer both: TLS 1.3.
    let (mut c, mut s) = connect(client_config(&P256, &BOTH), server_config(&P256, &BOTH));
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(s.negotiated().unwrap().version, ProtocolVersion::TLSV1_3);
    assert_eq!(c.negotiated().unwrap().version, ProtocolVersion::TLSV1_3);

    // A TLS 1.2-only server with a client offering both: 1.2, and no sentinel (the server
    // cannot speak 1.3), so the 1.3-capable client goes on.
    let (mut c, mut s) = connect(client_config(&P256, &BOTH), server_config(&P256, &ONLY12));
    pump(&mut c, &mut s).unwrap();
    assert_ne!(sentinel_of(s.pending_send()), b"DOWNGRD\x01");
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(c.negotiated().unwrap().version, ProtocolVersion::TLSV1_2);

    // A 1.3-capable server with a 1.2-only client: 1.2 with the sentinel, which a 1.2-only
    // client accepts.
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), server_config(&P256, &BOTH));
    pump(&mut c, &mut s).unwrap();
    assert_eq!(sentinel_of(s.pending_send()), b"DOWNGRD\x01");
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(c.negotiated().unwrap().version, ProtocolVersion::TLSV1_2);

    // A 1.3-capable client that sees the sentinel (put there in flight) refuses.
    let (mut c, mut s) = connect(client_config(&P256, &BOTH), server_config(&P256, &ONLY12));
    pump(&mut c, &mut s).unwrap();
    let r = pump_with(&mut s, &mut c, &mut |f| f[35..43].copy_from_slice(b"DOWNGRD\x01"));
    assert_eq!(r, Err(Error::PeerMisbehaved(PeerMisbehaved::DowngradeDetected)));

    // A TLS 1.3-only client to a TLS 1.2-only server, and the reverse.
    let (mut c, mut s) =
        connect(client_config(&P256, &[ProtocolVersion::TLSV1_3]), server_config(&P256, &ONLY12));
    let want = Error::PeerIncompatible(PeerIncompatible::NoCommonVersion);
    assert_eq!(pump(&mut c, &mut s), Err(want));
    assert_eq!(want.alert(), Some(AlertDescription::PROTOCOL_VERSION));
    assert_eq!(pump(&mut s, &mut c), Err(Error::PeerIncompatible(PeerIncompatible::NoTls13)));
    let only13 =
        ServerConfig { versions: &[ProtocolVersion::TLSV1_3], ..ServerConfig::new(certs(&P256)) };
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), only13);
    assert_eq!(pump(&mut c, &mut s), Err(Error::PeerIncompatible(PeerIncompatible::NoTls13)));

    // The defaults offer and accept both: TLS 1.3 between them, TLS 1.2 with a 1.2-only peer.
    let default_client = ClientConfig::new(anchors(&[P256.ca]), &tls::SystemClock);
    let (mut c, mut s) = connect(default_client, ServerConfig::new(certs(&P256)));
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(c.negotiated().unwrap().version, ProtocolVersion::TLSV1_3);
    let (mut c, mut s) = connect(default_client, server_config(&P256, &ONLY12));
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(c.negotiated().unwrap().version, ProtocolVersion::TLSV1_2);
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), ServerConfig::new(certs(&P256)));
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(s.negotiated().unwrap().version, ProtocolVersion::TLSV1_2);

    // A server asking for client certificates serves TLS 1.2 too (tls12_server_client_auth.rs).
    let auth = ClientAuth::new(anchors(&[P256.ca]), &tls::SystemClock);
    let sc = ServerConfig { client_auth: Some(auth), ..server_config(&P256, &BOTH) };
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), sc);
    pump(&mut c, &mut s).unwrap();
    pump(&mut s, &mut c).unwrap();
    assert_eq!(c.negotiated(), None);
}

#[test]
fn server_versions_are_checked() {
    let bad: [&'static [ProtocolVersion]; 3] =
        [&[], &[ProtocolVersion(0x0302)], &[ProtocolVersion::TLSV1_2, ProtocolVersion(0x0305)]];
    for versions in bad {
        let r = Connection::server(server_config(&P256, versions), buffers(), &mut OsRandom);
        assert_eq!(r.err(), Some(Error::ApiMisuse(ApiMisuse::BadConfig)), "{versions:?}");
    }
    let sc = ServerConfig { suites12: &[], ..server_config(&P256, &ONLY12) };
    let r = Connection::server(sc, buffers(), &mut OsRandom);
    assert_eq!(r.err(), Some(Error::ApiMisuse(ApiMisuse::BadConfig)));
    // TLS 1.2 alone needs no TLS 1.3 suites.
    let sc = ServerConfig { suites: &[], ..server_config(&P256, &ONLY12) };
    assert!(Connection::server(sc, buffers(), &mut OsRandom).is_ok());
}

/// A ClientHello taken apart: what a patch may change.
struct Hello {
    version: [u8; 2],
    suites: Vec<u16>,
    compression: Vec<u8>,
    exts: Vec<(u16, Vec<u8>)>,
}

/// Rewrites the ClientHello record `flight` with `f`, fixing up the lengths.
fn patch_client_hello(flight: &mut Vec<u8>, f: &mut dyn FnMut(&mut Hello)) {
    assert_eq!((flight[0], flight[5]), (22, 1), "a ClientHello record");
    let body = flight[9..].to_vec();
    let random = body[2..34].to_vec();
    let sid_len = usize::from(body[34]);
    let sid = body[35..35 + sid_len].to_vec();
    let mut p = 35 + sid_len;
    let n = usize::from(u16::from_be_bytes([body[p], body[p + 1]]));
    let suites =
        body[p + 2..p + 2 + n].chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
    p += 2 + n;
    let n = usize::from(body[p]);
    let compression = body[p + 1..p + 1 + n].to_vec();
    p += 1 + n + 2;
    let mut exts = Vec::new();
    while p < body.len() {
        let typ = u16::from_be_bytes([body[p], body[p + 1]]);
        let len = usize::from(u16::from_be_bytes([body[p + 2], body[p + 3]]));
        exts.push((typ, body[p + 4..p + 4 + len].to_vec()));
        p += 4 + len;
    }
    let mut h = Hello { version: [body[0], body[1]], suites, compression, exts };
    f(&mut h);
    let mut b = h.version.to_vec();
    b.extend(random);
    b.push(sid.len() as u8);
    b.extend(sid);
    b.extend(((h.suites.len() * 2) as u16).to_be_bytes());
    for s in &h.suites {
        b.extend(s.to_be_bytes());
    }
    b.push(h.compression.len() as u8);
    b.extend(&h.compression);
    let mut e = Vec::new();
    for (t, v) in &h.exts {
        e.extend(t.to_be_bytes());
        e.extend((v.len() as u16).to_be_bytes());
        e.extend(v);
    }
    b.extend((e.len() as u16).to_be_bytes());
    b.extend(e);
    let mut msg = vec![1, 0, (b.len() >> 8) as u8, b.len() as u8];
    msg.extend(b);
    let mut out = vec![22, 3, 1, (msg.len() >> 8) as u8, msg.len() as u8];
    out.extend(msg);
    *flight = out;
}

/// The server's answer to our TLS 1.2 client's hello changed by `f`; the alert is checked to
/// reach the client.
fn refused(f: &mut dyn FnMut(&mut Hello), want: Error) {
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), server_config(&P256, &BOTH));
    let r = pump_with(&mut c, &mut s, &mut |flight| patch_client_hello(flight, f));
    assert_eq!(r, Err(want));
    let alert = want.alert().unwrap();
    // Our TLS 1.2 client reads protocol_version in answer to its hello as no common version.
    let got = if alert == AlertDescription::PROTOCOL_VERSION {
        Error::PeerIncompatible(PeerIncompatible::NoCommonVersion)
    } else {
        Error::AlertReceived(alert)
    };
    assert_eq!(pump(&mut s, &mut c), Err(got), "{want:?}");
    assert!(s.negotiated().is_none());
}

fn without(typ: u16) -> impl FnMut(&mut Hello) {
    move |h| h.exts.retain(|(t, _)| *t != typ)
}

#[test]
fn the_patch_changes_nothing_by_itself() {
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), server_config(&P256, &BOTH));
    pump_with(&mut c, &mut s, &mut |f| patch_client_hello(f, &mut |_| {})).unwrap();
    assert!(s.error().is_none());
}

#[test]
fn a_client_without_extended_master_secret_is_refused() {
    let want = Error::PeerIncompatible(PeerIncompatible::NoExtendedMasterSecret);
    assert_eq!(want.alert(), Some(AlertDescription::HANDSHAKE_FAILURE));
    refused(&mut without(0x0017), want);
}

#[test]
fn renegotiation_info_must_be_empty_and_may_be_absent() {
    let nonempty = |h: &mut Hello| {
        for (t, v) in &mut h.exts {
            if *t == 0xff01 {
                *v = vec![12; 13];
                v[0] = 12;
            }
        }
    };
    refused(&mut { nonempty }, Error::PeerMisbehaved(PeerMisbehaved::RenegotiationInfoNotEmpty));
    // Without the extension (or the SCSV) the server goes on, and sends none back; our
    // client, which requires one, then stops.
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), server_config(&P256, &BOTH));
    pump_with(&mut c, &mut s, &mut |f| patch_client_hello(f, &mut without(0xff01))).unwrap();
    assert_eq!(
        pump(&mut s, &mut c),
        Err(Error::PeerIncompatible(PeerIncompatible::NoSecureRenegotiation))
    );
    // With the SCSV instead, the server answers with the extension.
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), server_config(&P256, &BOTH));
    pump_with(&mut c, &mut s, &mut |f| {
        patch_client_hello(f, &mut |h| {
            h.exts.retain(|(t, _)| *t != 0xff01);
            h.suites.push(0x00ff);
        });
    })
    .unwrap();
    // The client's transcript differs from the server's: its Finished fails, after the
    // ServerHello passed its checks.
    assert_eq!(pump(&mut s, &mut c), Ok(true));
}

#[test]
fn old_versions_are_refused() {
    let want = Error::PeerIncompatible(PeerIncompatible::NoCommonVersion);
    for (legacy, listed) in [
        ([3, 3], Some(vec![0x0302, 0x0301])),
        ([3, 2], None),
        ([3, 1], None),
        ([3, 0], None),
        ([3, 0], Some(vec![0x0303])),
        ([2, 0], None),
    ] {
        refused(
            &mut |h| {
                h.version = legacy;
                h.exts.retain(|(t, _)| *t != 43);
                if let Some(l) = &listed {
                    let mut body = vec![(l.len() * 2) as u8];
                    for v in l {
                        body.extend(u16::to_be_bytes(*v));
                    }
                    h.exts.push((43, body));
                }
            },
            want,
        );
    }
    // legacy_version 1.3 without supported_versions is TLS 1.2 (RFC 8446 §4.2.1).
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), server_config(&P256, &BOTH));
    pump_with(&mut c, &mut s, &mut |f| {
        patch_client_hello(f, &mut |h| {
            h.version = [3, 4];
            h.exts.retain(|(t, _)| *t != 43);
        });
    })
    .unwrap();
    assert!(s.error().is_none());
}

/// RFC 5246 §7.4.1.2: a list without the null method is refused; one with it among others
/// is served (null is taken), as BoGo's ExtraCompressionMethods-TLS12 checks.
#[test]
fn compression_without_null_is_refused() {
    let want = Error::InvalidMessage(tls::msgs::InvalidMessage::IllegalValue);
    refused(&mut |h| h.compression = vec![1], want);
    refused(&mut |h| h.compression = vec![], want);
    for list in [vec![1, 0], vec![0, 1, 64]] {
        let (mut c, mut s) = connect(client_config(&P256, &ONLY12), server_config(&P256, &BOTH));
        let l = list.clone();
        pump_with(&mut c, &mut s, &mut |f| {
            patch_client_hello(f, &mut |h| h.compression = l.clone());
        })
        .unwrap();
        // The client's transcript lacks the patch: its Finished fails at the server, past
        // the hello (which is what is checked here).
        pump(&mut s, &mut c).unwrap();
        assert!(s.error().is_none(), "{list:?}");
    }
}

#[test]
fn nothing_in_common_is_refused() {
    // Only suites of refused families (CBC, static RSA, DHE).
    refused(
        &mut |h| h.suites = vec![0xc013, 0x002f, 0x009e, 0x00ff],
        Error::PeerIncompatible(PeerIncompatible::NoCommonSuite),
    );
    // RSA suites only, to a server with an ECDSA certificate: its suites are not the
    // client's.
    refused(
        &mut |h| h.suites = vec![0xc02f, 0xc030, 0xcca8],
        Error::PeerIncompatible(PeerIncompatible::NoCommonSuite),
    );
    // RSA schemes only, for the ECDSA suites.
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), server_config(&P256, &BOTH));
    let r = pump_with(&mut c, &mut s, &mut |f| {
        patch_client_hello(f, &mut |h| {
            for (t, v) in &mut h.exts {
                if *t == 13 {
                    *v = vec![0, 4, 4, 1, 8, 4];
                }
            }
        });
    });
    assert!(
        matches!(r, Err(Error::PeerIncompatible(PeerIncompatible::NoSchemeInCommon { .. }))),
        "{r:?}"
    );
    // No signature_algorithms: SHA-1 only, which we do not sign.
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), server_config(&P256, &BOTH));
    let r = pump_with(&mut c, &mut s, &mut |f| patch_client_hello(f, &mut without(13)));
    assert!(
        matches!(r, Err(Error::PeerIncompatible(PeerIncompatible::NoSchemeInCommon { .. }))),
        "{r:?}"
    );
    // x448 only.
    refused(
        &mut |h| {
            for (t, v) in &mut h.exts {
                if *t == 10 {
                    *v = vec![0, 2, 0, 0x1e];
                }
            }
        },
        Error::PeerIncompatible(PeerIncompatible::NoCommonGroup),
    );
    // ec_point_formats without uncompressed.
    refused(
        &mut |h| {
            for (t, v) in &mut h.exts {
                if *t == 11 {
                    *v = vec![1, 1];
                }
            }
        },
        Error::InvalidMessage(tls::msgs::InvalidMessage::IllegalValue),
    );
}

/// The server prefers its own order, and picks the certificate that fits the suite.
#[test]
fn suite_and_certificate_choice() {
    let both = leak([certified(RSA.cert, RSA.key), certified(P256.cert, P256.key)]);
    for (client_suites, want, scheme) in [
        (
            &[
                s12::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
                s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            ][..],
            s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            SignatureScheme::ECDSA_SECP256R1_SHA256,
        ),
        (
            &[s12::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256][..],
            s12::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
            SignatureScheme::RSA_PSS_RSAE_SHA256,
        ),
    ] {
        let ca = if want.auth == s12::Auth::Rsa { &RSA } else { &P256 };
        let cc =
            ClientConfig { suites12: leak(client_suites.to_vec()), ..client_config(ca, &ONLY12) };
        let sc = ServerConfig { versions: &ONLY12, ..ServerConfig::new(both) };
        let (mut c, mut s) = connect(cc, sc);
        handshake(&mut c, &mut s).unwrap();
        let n = s.negotiated().unwrap();
        assert_eq!((n.suite, n.scheme), (want.suite, scheme));
    }
    // RSA PKCS#1 v1.5 when the client offers no PSS (patched: the client itself offers
    // everything; the server answers before the transcripts are compared).
    let (mut c, mut s) = connect(client_config(&RSA, &ONLY12), server_config(&RSA, &BOTH));
    pump_with(&mut c, &mut s, &mut |f| {
        patch_client_hello(f, &mut |h| {
            for (t, v) in &mut h.exts {
                if *t == 13 {
                    *v = vec![0, 2, 5, 1];
                }
            }
        });
    })
    .unwrap();
    // The ServerKeyExchange (after ServerHello and Certificate) names rsa_pkcs1_sha384.
    let flight = s.pending_send().to_vec();
    let mut p = 0;
    let mut found = false;
    while p < flight.len() {
        let len = usize::from(u16::from_be_bytes([flight[p + 3], flight[p + 4]]));
        let rec = &flight[p + 5..p + 5 + len];
        if rec[0] == 12 {
            let point_len = usize::from(rec[4 + 3]);
            let at = 4 + 4 + point_len;
            assert_eq!(&rec[at..at + 2], &[5, 1]);
            found = true;
        }
        p += 5 + len;
    }
    assert!(found);
}

#[test]
fn alpn_and_sni() {
    let alpn: &'static [&'static [u8]] = leak([&b"h2"[..], &b"http/1.1"[..]]);
    let server_alpn: &'static [&'static [u8]] = leak([&b"http/1.1"[..]]);
    let cc = ClientConfig { alpn, ..client_config(&P256, &ONLY12) };
    let sc = ServerConfig { alpn: server_alpn, ..server_config(&P256, &BOTH) };
    let (mut c, mut s) = connect(cc, sc);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(s.negotiated().unwrap().alpn, Some(0));
    assert_eq!(c.negotiated().unwrap().alpn, Some(1));
    assert_eq!(s.server_name(), Some("localhost"));
    // No protocol in common.
    let cc = ClientConfig { alpn: leak([&b"h2"[..]]), ..client_config(&P256, &ONLY12) };
    let sc = ServerConfig { alpn: server_alpn, ..server_config(&P256, &BOTH) };
    let (mut c, mut s) = connect(cc, sc);
    assert_eq!(pump(&mut c, &mut s), Err(Error::PeerIncompatible(PeerIncompatible::NoCommonAlpn)));
    assert_eq!(
        pump(&mut s, &mut c),
        Err(Error::AlertReceived(AlertDescription::NO_APPLICATION_PROTOCOL))
    );
}

/// Every record in `flight` carries at most `max` bytes.
fn records_within(flight: &[u8], max: usize) -> usize {
    let mut p = 0;
    let mut count = 0;
    while p < flight.len() {
        let len = usize::from(u16::from_be_bytes([flight[p + 3], flight[p + 4]]));
        assert!(len <= max, "a record of {len} bytes, over {max}");
        p += 5 + len;
        count += 1;
    }
    count
}

#[test]
fn max_fragment_length_binds_the_clear_flight_too() {
    let cc = ClientConfig {
        max_fragment_length: Some(MaxFragmentLength::LEN_512),
        ..client_config(&RSA, &ONLY12)
    };
    let (mut c, mut s) = connect(cc, server_config(&RSA, &BOTH));
    pump(&mut c, &mut s).unwrap();
    // The RSA chain and signature span several records of at most 512 bytes.
    assert!(records_within(s.pending_send(), 512) > 3);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(s.record_limits(), tls::RecordLimits { send: 512, receive: 512 });
    assert_eq!(c.record_limits().send, 512);
    assert_eq!(s.write(&[7; 2000]).unwrap(), 2000);
    // AES-128-GCM: 8 explicit nonce bytes and a 16-byte tag.
    assert_eq!(records_within(s.pending_send(), 512 + 24), 4);
    pump(&mut s, &mut c).unwrap();
    let mut buf = [0u8; 600];
    assert_eq!(c.read(&mut buf).unwrap(), 512);
}

#[test]
fn record_size_limit_is_answered() {
    let cc = ClientConfig { record_size_limit: Some(256), ..client_config(&P256, &ONLY12) };
    let sc = ServerConfig { record_size_limit: Some(1000), ..server_config(&P256, &BOTH) };
    let (mut c, mut s) = connect(cc, sc);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(s.record_limits(), tls::RecordLimits { send: 255, receive: 1000 });
    assert_eq!(s.write(&[7; 1000]).unwrap(), 1000);
    assert_eq!(records_within(s.pending_send(), 255 + 24), 4);
    pump(&mut s, &mut c).unwrap();
    let mut buf = [0u8; 1000];
    let mut n = 0;
    while n < 1000 {
        let k = c.read(&mut buf[n..]).unwrap();
        assert!(k > 0 && k <= 255);
        n += k;
    }
    check_traffic(&mut c, &mut s, "record_size_limit");
}

// ---- rustls (ring) client, TLS 1.2 only ----

/// A rustls client for TLS 1.2 with only `suite` and `group`.
fn rustls_client(id: &Identity, suite: Suite12, group: NamedGroup) -> rustls::ClientConnection {
    let config = rustls_client12(ring_provider(&[suite.suite], &[group]), id.ca, None);
    let name = pki_types::ServerName::try_from("localhost").unwrap();
    rustls::ClientConnection::new(config, name).unwrap()
}

#[test]
fn rustls_client_against_our_server() {
    let mut count = 0;
    for id in [&P256, &P384, &ED25519, &RSA] {
        let suites: &[Suite12] = if id.ecdsa { &ECDSA_SUITES[..3] } else { &RSA_SUITES };
        for suite in suites {
            for group in &GROUPS[..3] {
                let what = format!("{} {} {group:?}", id.name, suite.iana_name());
                let mut theirs = rustls_client(id, *suite, *group);
                let sc = server_config(id, &BOTH);
                let mut ours = Connection::server(sc, buffers(), &mut OsRandom).unwrap();
                let (r, _) = pump_rustls(&mut ours, &mut theirs);
                r.unwrap_or_else(|e| panic!("{what}: {e:?}"));
                assert!(!ours.is_handshaking() && !theirs.is_handshaking(), "{what}");
                assert_eq!(theirs.protocol_version(), Some(rustls::ProtocolVersion::TLSv1_2));
                let n = ours.negotiated().unwrap();
                assert_eq!(
                    (n.version, n.suite, n.group),
                    (ProtocolVersion::TLSV1_2, suite.suite, *group)
                );
                assert_eq!(
                    u16::from(theirs.negotiated_cipher_suite().unwrap().suite()),
                    suite.suite.0
                );

                theirs.writer().write_all(b"ping from rustls").unwrap();
                let (r, app) = pump_rustls(&mut ours, &mut theirs);
                r.unwrap();
                assert_eq!(app, b"ping from rustls", "{what}");
                let big = vec![0x5a; 40_000];
                let mut sent = 0;
                let mut got = Vec::new();
                while sent < big.len() {
                    sent += ours.write(&big[sent..(sent + 8000).min(big.len())]).unwrap();
                    let (r, _) = pump_rustls(&mut ours, &mut theirs);
                    r.unwrap();
                    let mut buf = [0u8; 16_384];
                    while let Ok(k) = theirs.reader().read(&mut buf) {
                        if k == 0 {
                            break;
                        }
                        got.extend_from_slice(&buf[..k]);
                    }
                }
                assert_eq!(got, big);
                let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
                ours.export_keying_material(b"EXPORTER-test", b"ctx", &mut a).unwrap();
                theirs.export_keying_material(&mut b, b"EXPORTER-test", Some(b"ctx")).unwrap();
                assert_eq!(a, b, "{what}");
                count += 1;
            }
        }
    }
    assert_eq!(count, (3 * 3 + 3) * 3);
}

/// Of two ECDSA certificates the server presents the one on a curve the client lists (RFC
/// 8422 §5.1), whatever their order; with neither listed, the first.
#[test]
fn the_certificate_curve_follows_supported_groups() {
    let both = leak([certified(P256.cert, P256.key), certified(P384.cert, P384.key)]);
    for (groups, id, scheme) in [
        (
            &[NamedGroup::X25519, NamedGroup::SECP384R1][..],
            &P384,
            SignatureScheme::ECDSA_SECP384R1_SHA384,
        ),
        (
            &[NamedGroup::X25519, NamedGroup::SECP256R1][..],
            &P256,
            SignatureScheme::ECDSA_SECP256R1_SHA256,
        ),
        (&[NamedGroup::X25519][..], &P256, SignatureScheme::ECDSA_SECP256R1_SHA256),
    ] {
        let cc = ClientConfig { groups: leak(groups.to_vec()), ..client_config(id, &ONLY12) };
        let sc = ServerConfig { versions: &ONLY12, ..ServerConfig::new(both) };
        let (mut c, mut s) = connect(cc, sc);
        handshake(&mut c, &mut s).unwrap_or_else(|e| panic!("{groups:?}: {e:?}"));
        let n = s.negotiated().unwrap();
        assert_eq!((n.group, n.scheme), (NamedGroup::X25519, scheme), "{groups:?}");
    }
}

/// RFC 7507: a 1.2 hello with TLS_FALLBACK_SCSV is refused by a server that speaks 1.3, and
/// taken by one that speaks 1.2 only.
#[test]
fn fallback_scsv() {
    let want = Error::PeerMisbehaved(PeerMisbehaved::InappropriateFallback);
    assert_eq!(want.alert(), Some(AlertDescription::INAPPROPRIATE_FALLBACK));
    refused(&mut |h| h.suites.push(0x5600), want);
    // A fallback to a version we do not speak at all (TLS 1.1) is an inappropriate fallback
    // too, not protocol_version (BoGo's FallbackSCSV).
    let to_tls11 = |h: &mut Hello| {
        h.version = [3, 2];
        h.exts.retain(|(t, _)| *t != 43);
        h.suites.push(0x5600);
    };
    refused(&mut { to_tls11 }, want);
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), server_config(&P256, &ONLY12));
    pump_with(&mut c, &mut s, &mut |f| patch_client_hello(f, &mut |h| h.suites.push(0x5600)))
        .unwrap();
    assert!(s.error().is_none());
}

/// RFC 5077: a rustls client that takes our ticket resumes with it (an abbreviated
/// handshake: no certificate, no key exchange), the session's exporter differing but agreed;
/// a ticket under another key, or for a suite the server no longer accepts, gets a full
/// handshake.
#[test]
fn rustls_client_resumes_with_our_ticket() {
    let key = leak(tls::ticket::TicketKey::new(&[7; 32]).unwrap());
    let tickets = tls::ServerTickets::new(key, &tls::SystemClock);
    let suite = s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384;
    // Resumption by ticket is on, as by default.
    let config =
        rustls_client12(ring_provider(&[suite.suite], &[NamedGroup::X25519]), P256.ca, None);
    let name = pki_types::ServerName::try_from("localhost").unwrap();
    let other_key = leak(tls::ticket::TicketKey::new(&[8; 32]).unwrap());
    let other = tls::ServerTickets::new(other_key, &tls::SystemClock);
    let aes256 = leak([s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384]);
    for (round, tickets, suites12, resumed) in [
        (0, tickets, s12::DEFAULT_SUITES12, false),
        (1, tickets, s12::DEFAULT_SUITES12, true),
        (2, tickets, s12::DEFAULT_SUITES12, true),
        (3, other, s12::DEFAULT_SUITES12, false),
        (4, other, &aes256[..], true),
        (5, other, &[s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256][..], false),
    ] {
        let mut theirs = rustls::ClientConnection::new(config.clone(), name.clone()).unwrap();
        let sc = ServerConfig {
            tickets: Some(tickets),
            suites12: leak(suites12.to_vec()),
            ..server_config(&P256, &BOTH)
        };
        let mut ours = Connection::server(sc, buffers(), &mut OsRandom).unwrap();
        let (r, _) = pump_rustls(&mut ours, &mut theirs);
        // Round 5: rustls offers only the suite this server no longer accepts.
        if round == 5 {
            assert_eq!(r, Err(Error::PeerIncompatible(PeerIncompatible::NoCommonSuite)));
            continue;
        }
        r.unwrap_or_else(|e| panic!("round {round}: {e}"));
        let n = ours.negotiated().unwrap();
        assert_eq!(n.resumed, resumed, "round {round}");
        assert_eq!(n.suite, suite.suite);
        assert_eq!(n.scheme, SignatureScheme::ECDSA_SECP256R1_SHA256);
        let kind =
            if resumed { rustls::HandshakeKind::Resumed } else { rustls::HandshakeKind::Full };
        assert_eq!(theirs.handshake_kind(), Some(kind), "round {round}");
        theirs.writer().write_all(b"again").unwrap();
        let (r, app) = pump_rustls(&mut ours, &mut theirs);
        r.unwrap();
        assert_eq!(app, b"again");
        assert_eq!(ours.write(b"back").unwrap(), 4);
        let (r, _) = pump_rustls(&mut ours, &mut theirs);
        r.unwrap();
        let mut buf = [0u8; 8];
        assert_eq!(theirs.reader().read(&mut buf).unwrap(), 4);
        let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        ours.export_keying_material(b"EXPORTER-test", b"", &mut a).unwrap();
        theirs.export_keying_material(&mut b, b"EXPORTER-test", Some(b"")).unwrap();
        assert_eq!(a, b, "round {round}");
    }
}

/// A hello with no extensions block at all (RFC 5246 §7.4.1.2 allows it) decodes: to a
/// server that also speaks 1.2 it lacks the extended master secret; to a TLS 1.3-only server
/// it offers no TLS 1.3 (protocol_version, not decode_error).
#[test]
fn a_hello_without_extensions() {
    let strip = |f: &mut Vec<u8>| {
        patch_client_hello(f, &mut |h| h.exts.clear());
        // Drop the (now empty) extensions length too.
        f.truncate(f.len() - 2);
        let len = f.len() - 9;
        f[6..9].copy_from_slice(&[(len >> 16) as u8, (len >> 8) as u8, len as u8]);
        let rec = f.len() - 5;
        f[3..5].copy_from_slice(&(rec as u16).to_be_bytes());
    };
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), server_config(&P256, &BOTH));
    let r = pump_with(&mut c, &mut s, &mut { strip });
    assert_eq!(r, Err(Error::PeerIncompatible(PeerIncompatible::NoExtendedMasterSecret)));
    let only13 =
        ServerConfig { versions: &[ProtocolVersion::TLSV1_3], ..ServerConfig::new(certs(&P256)) };
    let (mut c, mut s) = connect(client_config(&P256, &ONLY12), only13);
    let r = pump_with(&mut c, &mut s, &mut { strip });
    assert_eq!(r, Err(Error::PeerIncompatible(PeerIncompatible::NoTls13)));
}
