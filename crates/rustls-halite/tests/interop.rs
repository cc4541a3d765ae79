//! rustls with this provider against rustls with ring and with aws-lc-rs (both directions) and
//! against itself,
//! in memory: every suite × group × certificate type for TLS 1.3 and TLS 1.2, each run
//! checking the negotiated suite, group and version and that data flows both ways; then
//! resumption, client authentication, `KeyUpdate` and tampered records.

mod common;

use std::sync::Arc;

use common::{
    Cert, Side, client_config, exchange, handshake, narrowed, provider, server_config, transfer,
};
use rustls::version::{TLS12, TLS13};
use rustls::{CipherSuite, HandshakeKind, NamedGroup, ProtocolVersion, SupportedProtocolVersion};

const TLS13_SUITES: [CipherSuite; 5] = [
    CipherSuite::TLS13_AES_128_GCM_SHA256,
    CipherSuite::TLS13_AES_256_GCM_SHA384,
    CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
    CipherSuite::TLS13_AES_128_CCM_SHA256,
    CipherSuite::TLS13_AES_128_CCM_8_SHA256,
];
const TLS12_ECDSA_SUITES: [CipherSuite; 3] = [
    CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
];
const TLS12_RSA_SUITES: [CipherSuite; 3] = [
    CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    CipherSuite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
];
const GROUPS: [NamedGroup; 4] =
    [NamedGroup::X25519, NamedGroup::secp256r1, NamedGroup::secp384r1, NamedGroup::secp521r1];
const CERTS: [Cert; 5] = [Cert::P256, Cert::P384, Cert::P521, Cert::Ed25519, Cert::Rsa];

/// One handshake with exactly `suite` and `group` offered, checked and exercised.
fn run_case(
    client: Side,
    server: Side,
    version: &'static SupportedProtocolVersion,
    suite: CipherSuite,
    group: NamedGroup,
    cert: Cert,
) -> Result<(), String> {
    let (Some(cp), Some(sp)) = (narrowed(client, suite, group), narrowed(server, suite, group))
    else {
        return Err("provider lacks the suite or group".into());
    };
    let cc = Arc::new(client_config(cp, version, cert, None)?);
    let sc = Arc::new(server_config(sp, version, cert, None)?);
    let (mut c, mut s) = handshake(&cc, &sc)?;
    for (who, common) in [("client", &*c as &rustls::CommonState), ("server", &*s)] {
        let got_suite = common.negotiated_cipher_suite().map(|s| s.suite());
        let got_group =
            common.negotiated_key_exchange_group().map(rustls::crypto::SupportedKxGroup::name);
        let got_version = common.protocol_version();
        if got_suite != Some(suite)
            || got_group != Some(group)
            || got_version != Some(version.version)
        {
            return Err(format!("{who} negotiated {got_suite:?} {got_group:?} {got_version:?}"));
        }
    }
    exchange(&mut c, &mut s)
}

/// Whether a side can run a case at all: ring and aws-lc-rs have no AES-CCM and no P-521
/// group, and ring no P-521 certificates.
fn supported(side: Side, suite: CipherSuite, group: NamedGroup, cert: Cert) -> bool {
    let ccm = matches!(
        suite,
        CipherSuite::TLS13_AES_128_CCM_SHA256 | CipherSuite::TLS13_AES_128_CCM_8_SHA256
    );
    match side {
        Side::Halite => true,
        Side::AwsLc => !ccm && group != NamedGroup::secp521r1,
        Side::Ring => !ccm && group != NamedGroup::secp521r1 && cert != Cert::P521,
    }
}

/// Runs every case of `version` between the two sides; returns how many passed.
fn matrix(client: Side, server: Side, version: &'static SupportedProtocolVersion) -> usize {
    let mut passed = 0;
    let mut failed = Vec::new();
    for cert in CERTS {
        let suites: &[CipherSuite] = match (version.version, cert) {
            (ProtocolVersion::TLSv1_3, _) => &TLS13_SUITES,
            (_, Cert::Rsa) => &TLS12_RSA_SUITES,
            _ => &TLS12_ECDSA_SUITES,
        };
        for &suite in suites {
            for group in GROUPS {
                if !supported(client, suite, group, cert) || !supported(server, suite, group, cert)
                {
                    continue;
                }
                match run_case(client, server, version, suite, group, cert) {
                    Ok(()) => passed += 1,
                    Err(e) => failed.push(format!("{cert:?} {suite:?} {group:?}: {e}")),
                }
            }
        }
    }
    assert!(failed.is_empty(), "{client:?} client, {server:?} server: {failed:#?}");
    eprintln!("{client:?} client ↔ {server:?} server, {:?}: {passed} cases", version.version);
    passed
}

// TLS 1.3: ring offers 3 suites × 3 groups × 4 certificates; Halite alone 5 × 4 × 5.
#[test]
fn tls13_halite_client_ring_server() {
    assert_eq!(matrix(Side::Halite, Side::Ring, &TLS13), 36);
}

#[test]
fn tls13_ring_client_halite_server() {
    assert_eq!(matrix(Side::Ring, Side::Halite, &TLS13), 36);
}

// aws-lc-rs: 3 suites × 3 groups × 5 certificates, each version.
#[test]
fn tls13_halite_client_aws_lc_server() {
    assert_eq!(matrix(Side::Halite, Side::AwsLc, &TLS13), 45);
}

#[test]
fn tls13_aws_lc_client_halite_server() {
    assert_eq!(matrix(Side::AwsLc, Side::Halite, &TLS13), 45);
}

#[test]
fn tls13_halite_both_sides() {
    assert_eq!(matrix(Side::Halite, Side::Halite, &TLS13), 100);
}

// TLS 1.2: 3 suites of the certificate's kind × 3 groups × 4 certificates with ring;
// × 4 groups × 5 certificates with Halite alone.
#[test]
fn tls12_halite_client_ring_server() {
    assert_eq!(matrix(Side::Halite, Side::Ring, &TLS12), 36);
}

#[test]
fn tls12_ring_client_halite_server() {
    assert_eq!(matrix(Side::Ring, Side::Halite, &TLS12), 36);
}

#[test]
fn tls12_halite_client_aws_lc_server() {
    assert_eq!(matrix(Side::Halite, Side::AwsLc, &TLS12), 45);
}

#[test]
fn tls12_aws_lc_client_halite_server() {
    assert_eq!(matrix(Side::AwsLc, Side::Halite, &TLS12), 45);
}

#[test]
fn tls12_halite_both_sides() {
    assert_eq!(matrix(Side::Halite, Side::Halite, &TLS12), 60);
}

const PAIRS: [(Side, Side); 5] = [
    (Side::Halite, Side::Ring),
    (Side::Ring, Side::Halite),
    (Side::Halite, Side::AwsLc),
    (Side::AwsLc, Side::Halite),
    (Side::Halite, Side::Halite),
];

/// A second connection with the same configs resumes (TLS 1.3 tickets, TLS 1.2 session IDs)
/// and carries data.
#[test]
fn resumption() {
    for (client, server) in PAIRS {
        for (version, cert) in [(&TLS13, Cert::P256), (&TLS12, Cert::P256), (&TLS12, Cert::Rsa)] {
            let what = format!("{client:?}→{server:?} {:?} {cert:?}", version.version);
            let cc = Arc::new(client_config(provider(client), version, cert, None).unwrap());
            let sc = Arc::new(server_config(provider(server), version, cert, None).unwrap());
            let (c, s) = handshake(&cc, &sc).unwrap();
            assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full), "{what}");
            assert_eq!(s.handshake_kind(), Some(HandshakeKind::Full), "{what}");
            let (mut c, mut s) = handshake(&cc, &sc).unwrap();
            assert_eq!(c.handshake_kind(), Some(HandshakeKind::Resumed), "{what}");
            assert_eq!(s.handshake_kind(), Some(HandshakeKind::Resumed), "{what}");
            exchange(&mut c, &mut s).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
    }
}

/// Resumption with stateless tickets sealed by this provider's `Ticketer`, for clients on
/// each provider, TLS 1.3 and TLS 1.2 (RFC 5077 tickets).
#[test]
fn resumption_with_halite_tickets() {
    for client in [Side::Halite, Side::Ring, Side::AwsLc] {
        for version in [&TLS13, &TLS12] {
            let what = format!("{client:?} client {:?}", version.version);
            let cc = Arc::new(client_config(provider(client), version, Cert::P256, None).unwrap());
            let mut sc = server_config(provider(Side::Halite), version, Cert::P256, None).unwrap();
            sc.ticketer = rustls_halite::Ticketer::new().unwrap();
            // No server-side session cache: only the ticket can resume the session.
            sc.session_storage = Arc::new(rustls::server::NoServerSessionStorage {});
            let sc = Arc::new(sc);
            let (c, _) = handshake(&cc, &sc).unwrap();
            assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full), "{what}");
            let (mut c, mut s) = handshake(&cc, &sc).unwrap();
            assert_eq!(c.handshake_kind(), Some(HandshakeKind::Resumed), "{what}");
            assert_eq!(s.handshake_kind(), Some(HandshakeKind::Resumed), "{what}");
            exchange(&mut c, &mut s).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
    }
}

/// A client whose first key share the server does not take is asked again
/// (`HelloRetryRequest`) and completes on the group the server chose.
#[test]
fn hello_retry_request() {
    for (client, server) in PAIRS {
        for group in [NamedGroup::secp256r1, NamedGroup::secp384r1] {
            let what = format!("{client:?}→{server:?} {group:?}");
            let mut cp = provider(client);
            cp.kx_groups.retain(|g| [NamedGroup::X25519, group].contains(&g.name()));
            let mut sp = provider(server);
            sp.kx_groups.retain(|g| g.name() == group);
            let cc = Arc::new(client_config(cp, &TLS13, Cert::P256, None).unwrap());
            let sc = Arc::new(server_config(sp, &TLS13, Cert::P256, None).unwrap());
            let (mut c, mut s) = handshake(&cc, &sc).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(
                c.handshake_kind(),
                Some(HandshakeKind::FullWithHelloRetryRequest),
                "{what}"
            );
            let got = c.negotiated_key_exchange_group().map(rustls::crypto::SupportedKxGroup::name);
            assert_eq!(got, Some(group), "{what}");
            exchange(&mut c, &mut s).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
    }
}

/// The client presents each kind of certificate and the server sees it.
#[test]
fn client_authentication() {
    let mut runs = 0;
    for (client, server) in PAIRS {
        for version in [&TLS13, &TLS12] {
            for auth in [Cert::P256, Cert::P384, Cert::Ed25519, Cert::Rsa] {
                let what = format!("{client:?}→{server:?} {:?} {auth:?}", version.version);
                let cc = client_config(provider(client), version, Cert::P256, Some(auth)).unwrap();
                let sc = server_config(provider(server), version, Cert::P256, Some(auth)).unwrap();
                let (mut c, mut s) = handshake(&Arc::new(cc), &Arc::new(sc))
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let seen = s.peer_certificates().map(<[_]>::to_vec);
                assert_eq!(seen, Some(common::client_identity(auth).chain), "{what}");
                exchange(&mut c, &mut s).unwrap_or_else(|e| panic!("{what}: {e}"));
                runs += 1;
            }
        }
    }
    assert_eq!(runs, 40);
}

/// Both sides update their TLS 1.3 sending keys, twice each, on every AEAD; records keep
/// flowing under the new keys.
#[test]
fn key_update() {
    for (client, server) in PAIRS {
        for suite in TLS13_SUITES {
            if !supported(client, suite, NamedGroup::X25519, Cert::P256)
                || !supported(server, suite, NamedGroup::X25519, Cert::P256)
            {
                continue;
            }
            let what = format!("{client:?}→{server:?} {suite:?}");
            let cp = narrowed(client, suite, NamedGroup::X25519).unwrap();
            let sp = narrowed(server, suite, NamedGroup::X25519).unwrap();
            let cc = Arc::new(client_config(cp, &TLS13, Cert::P256, None).unwrap());
            let sc = Arc::new(server_config(sp, &TLS13, Cert::P256, None).unwrap());
            let (mut c, mut s) = handshake(&cc, &sc).unwrap();
            for _ in 0..2 {
                c.refresh_traffic_keys().unwrap();
                exchange(&mut c, &mut s).unwrap_or_else(|e| panic!("{what}: {e}"));
                s.refresh_traffic_keys().unwrap();
                exchange(&mut c, &mut s).unwrap_or_else(|e| panic!("{what}: {e}"));
            }
        }
    }
}

/// A record with one flipped bit is refused by a Halite receiver with a decrypt error, for
/// every AEAD and both versions.
#[test]
fn tampered_record_is_refused() {
    let cases = TLS13_SUITES
        .iter()
        .map(|&s| (&TLS13, s))
        .chain(TLS12_ECDSA_SUITES.iter().map(|&s| (&TLS12, s)));
    for (version, suite) in cases {
        let cp = narrowed(Side::Halite, suite, NamedGroup::X25519).unwrap();
        let sp = narrowed(Side::Halite, suite, NamedGroup::X25519).unwrap();
        let cc = Arc::new(client_config(cp, version, Cert::P256, None).unwrap());
        let sc = Arc::new(server_config(sp, version, Cert::P256, None).unwrap());
        let (mut c, mut s) = handshake(&cc, &sc).unwrap();
        std::io::Write::write_all(&mut c.writer(), b"attack at dawn").unwrap();
        let mut wire = Vec::new();
        while c.wants_write() {
            c.write_tls(&mut wire).unwrap();
        }
        let last = wire.len() - 1;
        wire[last] ^= 1;
        s.read_tls(&mut wire.as_slice()).unwrap();
        let err = s.process_new_packets().unwrap_err();
        assert_eq!(err, rustls::Error::DecryptError, "{suite:?}");
    }
    // The unmodified path works, so the refusal above is the tampering's doing.
    let cc = Arc::new(client_config(provider(Side::Halite), &TLS13, Cert::P256, None).unwrap());
    let sc = Arc::new(server_config(provider(Side::Halite), &TLS13, Cert::P256, None).unwrap());
    let (mut c, mut s) = handshake(&cc, &sc).unwrap();
    std::io::Write::write_all(&mut c.writer(), b"attack at dawn").unwrap();
    assert!(transfer(&mut c, &mut s).unwrap() > 0);
}

/// An RSASSA-PSS server key and a rustls client (which offers no `rsa_pss_pss_*` scheme, with
/// either provider): the server refuses for want of a common scheme rather than sign with an
/// rsaEncryption scheme the key's certificate forbids.
#[test]
fn rsa_pss_key_refuses_rustls_clients() {
    for client in [Side::Halite, Side::Ring, Side::AwsLc] {
        let suite = CipherSuite::TLS13_AES_128_GCM_SHA256;
        let cp = narrowed(client, suite, NamedGroup::X25519).unwrap();
        let sp = narrowed(Side::Halite, suite, NamedGroup::X25519).unwrap();
        let cc = Arc::new(client_config(cp, &TLS13, Cert::RsaPss, None).unwrap());
        let sc = Arc::new(server_config(sp, &TLS13, Cert::RsaPss, None).unwrap());
        let Err(err) = handshake(&cc, &sc) else { panic!("{client:?}: handshake succeeded") };
        assert!(err.contains("NoSignatureSchemesInCommon"), "{client:?}: {err}");
    }
}
