//! External PSKs (RFC 8446 §4.2.11) in memory: a client and a server sharing a key handshake
//! without certificates in `psk_dhe_ke` and `psk_ke` mode, with SHA-256 and SHA-384 keys,
//! through a `HelloRetryRequest`, and into ticket resumption; a wrong key is refused with
//! `decrypt_error`; an unknown identity falls back to the server's certificate, or, at a
//! server with PSKs only, is refused with `unknown_psk_identity`.

use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor};
use tls::key_schedule::HashAlg;
use tls::msgs::{AlertDescription, NamedGroup, PskKeyExchangeMode, SignatureScheme};
use tls::suites;
use tls::ticket::{MemoryTicketStore, TicketKey};
use tls::{
    ApiMisuse, Buffers, CertifiedKey, ClientAuth, ClientConfig, Connection, Error, ExternalPsk,
    Negotiated, PeerIdentity, PeerIncompatible, PeerMisbehaved, ServerConfig, ServerPsks,
    ServerTickets, SigningKey,
};

const KEY: &[u8] = b"0123456789abcdef0123456789abcdef";
const PSK: ExternalPsk<'static> =
    ExternalPsk { identity: b"sensor-17", key: KEY, hash: HashAlg::Sha256 };

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

fn bufs() -> Buffers<'static> {
    Buffers {
        received: Vec::leak(vec![0; 17_000]),
        send: Vec::leak(vec![0; 40_000]),
        handshake: Vec::leak(vec![0; 8_000]),
    }
}

fn roots() -> &'static [TrustAnchor<'static>] {
    let der = leak(CertificateDer::from(&include_bytes!("data/ca.der")[..]));
    leak([webpki::anchor_from_trusted_cert(der).unwrap()])
}

fn certs() -> &'static [CertifiedKey<'static>] {
    let key = leak(SigningKey::from_pkcs8_der(include_bytes!("data/server.key.der")).unwrap());
    leak([CertifiedKey { chain: leak([&include_bytes!("data/server.der")[..]]), key }])
}

/// A client with `psk` and no trusted roots: a server certificate would fail it.
fn client(psk: Option<ExternalPsk<'static>>) -> ClientConfig<'static> {
    ClientConfig { external_psk: psk.map(leak), ..ClientConfig::new(&[], &tls::SystemClock) }
}

/// A server with `keys` and no certificates.
fn server(keys: &'static [ExternalPsk<'static>], psk_ke: bool) -> ServerConfig<'static> {
    ServerConfig { psks: Some(leak(ServerPsks { keys, psk_ke })), ..ServerConfig::new(&[]) }
}

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
    let data = from.pending_send().to_vec();
    from.sent(data.len());
    if data.is_empty() {
        return Ok(());
    }
    to.receive_space()[..data.len()].copy_from_slice(&data);
    to.received(data.len())
}

/// Runs a handshake; the first error and whose it was (`true`: the server's).
fn handshake(
    c: ClientConfig<'static>,
    s: ServerConfig<'static>,
) -> Result<Negotiated, (bool, Error)> {
    let mut c = Connection::client(c, "localhost", bufs(), &mut OsRandom).unwrap();
    let mut s = Connection::server(s, bufs(), &mut OsRandom).unwrap();
    for _ in 0..4 {
        pump(&mut c, &mut s).map_err(|e| (true, e))?;
        pump(&mut s, &mut c).map_err(|e| (false, e))?;
    }
    assert!(!c.is_handshaking() && !s.is_handshaking());
    // Data flows both ways under the PSK-derived keys.
    assert_eq!(c.write(b"reading: 21.5C").unwrap(), 14);
    pump(&mut c, &mut s).unwrap();
    let mut buf = [0u8; 32];
    let k = s.read(&mut buf).unwrap();
    assert_eq!(&buf[..k], b"reading: 21.5C");
    assert_eq!(s.write(b"ack").unwrap(), 3);
    pump(&mut s, &mut c).unwrap();
    let k = c.read(&mut buf).unwrap();
    assert_eq!(&buf[..k], b"ack");
    let n = c.negotiated().unwrap();
    assert_eq!(s.negotiated(), Some(n), "both sides agree");
    Ok(n)
}

#[test]
fn psk_dhe_ke_without_certificates() {
    let n = handshake(client(Some(PSK)), server(leak([PSK]), false)).unwrap();
    assert!(n.external_psk && !n.resumed);
    assert_eq!(n.scheme, SignatureScheme(0), "no CertificateVerify");
    // The first default group and suite: X25519MLKEM768 and AES-128-GCM with every feature.
    assert_eq!(n.group, tls::kx::DEFAULT_GROUPS[0]);
    assert_eq!(n.suite, suites::DEFAULT_SUITES[0].suite);
}

#[test]
fn psk_ke_when_both_sides_allow_it() {
    let only_ke = ClientConfig { psk_modes: &[PskKeyExchangeMode::PSK_KE], ..client(Some(PSK)) };
    let n = handshake(only_ke, server(leak([PSK]), true)).unwrap();
    assert!(n.external_psk);
    assert_eq!(n.group, NamedGroup(0), "no key exchange");
    // A client listing both gets psk_ke from a server that prefers it, and psk_dhe_ke from
    // one that does not.
    let both = [PskKeyExchangeMode::PSK_KE, PskKeyExchangeMode::PSK_DHE_KE];
    let both = ClientConfig { psk_modes: leak(both), ..client(Some(PSK)) };
    assert_eq!(handshake(both, server(leak([PSK]), true)).unwrap().group, NamedGroup(0));
    let dhe = handshake(both, server(leak([PSK]), false)).unwrap().group;
    assert_eq!(dhe, tls::kx::DEFAULT_GROUPS[0]);
    // A client listing only psk_ke at a server that requires psk_dhe_ke: no PSK can be
    // taken, and this server has no certificate.
    let err = handshake(only_ke, server(leak([PSK]), false)).unwrap_err();
    assert_eq!(err, (true, Error::PeerIncompatible(PeerIncompatible::UnknownPskIdentity)));
}

// The one SHA-384 suite is AES-256-GCM's.
#[cfg(feature = "aes-gcm")]
#[test]
fn a_sha384_key_takes_a_sha384_suite() {
    let psk = ExternalPsk { hash: HashAlg::Sha384, ..PSK };
    let n = handshake(client(Some(psk)), server(leak([psk]), false)).unwrap();
    assert!(n.external_psk);
    assert_eq!(n.suite, suites::TLS13_AES_256_GCM_SHA384.suite);
}

#[test]
fn the_server_looks_the_identity_up() {
    let other = ExternalPsk { identity: b"sensor-16", key: b"another key, 16+", ..PSK };
    let n = handshake(client(Some(PSK)), server(leak([other, PSK]), false)).unwrap();
    assert!(n.external_psk);
}

#[cfg(feature = "p256")]
#[test]
fn psk_through_a_hello_retry_request() {
    let c =
        ClientConfig { groups: &[NamedGroup::SECP256R1, NamedGroup::X25519], ..client(Some(PSK)) };
    let s = ServerConfig { groups: &[NamedGroup::X25519], ..server(leak([PSK]), false) };
    let n = handshake(c, s).unwrap();
    assert!(n.external_psk && n.retried);
    assert_eq!(n.group, NamedGroup::X25519);
}

#[test]
fn a_wrong_key_is_decrypt_error() {
    let wrong = ExternalPsk { key: b"0123456789abcdef0123456789abcdeF", ..PSK };
    let mut c =
        Connection::client(client(Some(wrong)), "localhost", bufs(), &mut OsRandom).unwrap();
    let mut s = Connection::server(server(leak([PSK]), false), bufs(), &mut OsRandom).unwrap();
    assert_eq!(pump(&mut c, &mut s), Err(Error::PeerMisbehaved(PeerMisbehaved::BadPskBinder)));
    assert_eq!(pump(&mut s, &mut c), Err(Error::AlertReceived(AlertDescription::DECRYPT_ERROR)));
    assert!(c.negotiated().is_none() && s.negotiated().is_none());
}

#[test]
fn an_unknown_identity_at_a_psk_only_server_is_unknown_psk_identity() {
    let stranger = ExternalPsk { identity: b"sensor-99", ..PSK };
    let mut c =
        Connection::client(client(Some(stranger)), "localhost", bufs(), &mut OsRandom).unwrap();
    let mut s = Connection::server(server(leak([PSK]), false), bufs(), &mut OsRandom).unwrap();
    let err = Error::PeerIncompatible(PeerIncompatible::UnknownPskIdentity);
    assert_eq!(pump(&mut c, &mut s), Err(err));
    assert_eq!(err.alert(), Some(AlertDescription::UNKNOWN_PSK_IDENTITY));
    let alert = Error::AlertReceived(AlertDescription::UNKNOWN_PSK_IDENTITY);
    assert_eq!(pump(&mut s, &mut c), Err(alert));
    // A client offering no PSK at all gets the same answer.
    let err = handshake(client(None), server(leak([PSK]), false)).unwrap_err();
    assert_eq!(err, (true, Error::PeerIncompatible(PeerIncompatible::UnknownPskIdentity)));
}

#[test]
fn an_unknown_identity_falls_back_to_the_certificate() {
    let stranger = ExternalPsk { identity: b"sensor-99", ..PSK };
    let with_certs = ServerConfig { certs: certs(), ..server(leak([PSK]), false) };
    let c = ClientConfig { roots: roots(), ..client(Some(stranger)) };
    let n = handshake(c, with_certs).unwrap();
    assert!(!n.external_psk);
    assert_eq!(n.scheme, SignatureScheme::ED25519);
    // And the known one at the same server is taken, without the certificate (this client
    // trusts no root, so a certificate would have failed it).
    let n = handshake(client(Some(PSK)), with_certs).unwrap();
    assert!(n.external_psk);
    // A client without roots whose PSK is not known fails on the certificate.
    let err = handshake(client(Some(stranger)), with_certs).unwrap_err();
    assert_eq!(err, (false, Error::InvalidCertificate(tls::CertificateError::UnknownIssuer)));
}

/// A server requiring client certificates takes the PSK as the client's authentication
/// and sends no `CertificateRequest` (RFC 8446 §4.3.2).
#[test]
fn no_certificate_request_with_a_psk() {
    let s = ServerConfig {
        certs: certs(),
        client_auth: Some(ClientAuth::new(roots(), &tls::SystemClock)),
        ..server(leak([PSK]), false)
    };
    let n = handshake(client(Some(PSK)), s).unwrap();
    assert!(n.external_psk);
    assert_eq!(n.client_auth, None);
}

/// Tickets issued on a PSK session resume it; the resumed session has no certificate either.
#[test]
fn tickets_from_a_psk_session_resume_it() {
    let store = leak(MemoryTicketStore::default());
    let key = leak(TicketKey::new(&[7; 32]).unwrap());
    let tickets = ServerTickets { lifetime: 3600, ..ServerTickets::new(key, &tls::SystemClock) };
    let s = ServerConfig { tickets: Some(tickets), ..server(leak([PSK]), false) };
    let c = ClientConfig { tickets: Some(store), ..client(Some(PSK)) };
    let n = handshake(c, s).unwrap();
    assert!(n.external_psk && !n.resumed);
    assert!(!store.is_empty());
    let n = handshake(c, s).unwrap();
    assert!(n.resumed && !n.external_psk);
    assert_eq!(n.scheme, SignatureScheme(0));
}

#[test]
fn bad_configurations_are_refused() {
    let bad = Err(Error::ApiMisuse(ApiMisuse::BadConfig));
    let start = |c| Connection::client(c, "localhost", bufs(), &mut OsRandom).map(|_| ());
    // No suite of the key's hash, an empty identity, an empty key.
    let sha384 = ExternalPsk { hash: HashAlg::Sha384, ..PSK };
    let c = ClientConfig { suites: &[suites::TLS13_AES_128_GCM_SHA256], ..client(Some(sha384)) };
    assert_eq!(start(c), bad);
    assert_eq!(start(client(Some(ExternalPsk { identity: b"", ..PSK }))), bad);
    assert_eq!(start(client(Some(ExternalPsk { key: b"", ..PSK }))), bad);
    // A server with neither certificates nor PSKs, or with a bad PSK.
    let start = |s| Connection::server(s, bufs(), &mut OsRandom).map(|_| ());
    assert_eq!(start(server(&[], false)), bad);
    assert_eq!(start(ServerConfig { psks: None, ..server(leak([PSK]), false) }), bad);
    assert_eq!(start(server(leak([ExternalPsk { key: b"", ..PSK }]), false)), bad);
}

/// The PSK authenticated the client, so its tickets resume at a server that requires client
/// certificates (no `CertificateRequest`, the PSK identity carried over); a ticket whose PSK the
/// server no longer has is not resumed.
#[test]
fn a_psk_session_resumes_at_a_server_requiring_client_certificates() {
    let store = leak(MemoryTicketStore::default());
    let key = leak(TicketKey::new(&[7; 32]).unwrap());
    let tickets = ServerTickets { lifetime: 3600, ..ServerTickets::new(key, &tls::SystemClock) };
    let s = ServerConfig {
        certs: certs(),
        client_auth: Some(ClientAuth::new(roots(), &tls::SystemClock)),
        tickets: Some(tickets),
        ..server(leak([PSK]), false)
    };
    let c = ClientConfig { tickets: Some(store), ..client(Some(PSK)) };
    let n = handshake(c, s).unwrap();
    assert!(n.external_psk && !n.resumed);
    let n = handshake(c, s).unwrap();
    assert!(n.resumed && !n.external_psk, "resumed on the PSK's authentication");
    // The server forgets the PSK: its sessions are not resumed, so the server falls back to
    // its certificate, which this client (no roots) refuses.
    let other = ExternalPsk { identity: b"sensor-16", ..PSK };
    let forgot =
        ServerConfig { psks: Some(leak(ServerPsks { keys: leak([other]), psk_ke: false })), ..s };
    let err = handshake(c, forgot).unwrap_err();
    assert_eq!(err, (false, Error::InvalidCertificate(tls::CertificateError::UnknownIssuer)));
}

/// A server can tell PSK clients apart: the identity of the PSK that authenticated the client
/// is exposed, after the PSK handshake and after a resumption of its session; the client sees
/// its own PSK's identity (the one that authenticated the server).
#[test]
fn the_server_sees_which_psk_authenticated_the_client() {
    let other = ExternalPsk { identity: b"sensor-16", key: b"another key, 16+", ..PSK };
    let store = leak(MemoryTicketStore::default());
    let key = leak(TicketKey::new(&[7; 32]).unwrap());
    let tickets = ServerTickets { lifetime: 3600, ..ServerTickets::new(key, &tls::SystemClock) };
    let s = ServerConfig { tickets: Some(tickets), ..server(leak([other, PSK]), false) };
    let c = ClientConfig { tickets: Some(store), ..client(Some(PSK)) };
    for resumed in [false, true] {
        let mut c = Connection::client(c, "localhost", bufs(), &mut OsRandom).unwrap();
        let mut s = Connection::server(s, bufs(), &mut OsRandom).unwrap();
        for _ in 0..4 {
            pump(&mut c, &mut s).unwrap();
            pump(&mut s, &mut c).unwrap();
        }
        assert_eq!(s.negotiated().unwrap().resumed, resumed);
        assert_eq!(s.peer_identity(), Some(PeerIdentity::ExternalPsk(b"sensor-17")), "{resumed}");
        if !resumed {
            assert_eq!(c.peer_identity(), Some(PeerIdentity::ExternalPsk(b"sensor-17")));
        }
    }
}
