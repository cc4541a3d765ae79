//! Connections in memory, for the tests that need no network: Halite with Halite or with
//! rustls (ring). The Ed25519 test identity, buffers, record pumping and a full handshake;
//! leaked configuration pieces (roots, certificates, buffers) for tests that build many
//! `'static` connections; rustls configurations and the pump between rustls and Halite; and
//! the hand-made `HelloRetryRequest` and `ServerHello` records the group tests feed the client.

#![allow(dead_code)] // each test binary uses its own part of this module

use std::sync::Arc;

use core_ec::ed25519::SigningKey;
use core_hash::OsRandom;
use pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, TrustAnchor};
use tls::msgs::{
    AlertDescription, CipherSuite, Codec, HELLO_RETRY_REQUEST_RANDOM, HandshakeMessage, NamedGroup,
    ProtocolVersion, ServerHello, ServerHelloExtensions, Writer,
};
use tls::suites;
use tls::{Buffers, CertifiedKey, ClientConfig, Connection, Error, ServerConfig};

pub(crate) const CA: &[u8] = include_bytes!("../data/ca.der");
pub(crate) const SERVER_CERT: &[u8] = include_bytes!("../data/server.der");
pub(crate) const SERVER_SEED: &[u8; 32] = include_bytes!("../data/server.seed");

pub(crate) struct Bufs([Vec<u8>; 3]);

impl Bufs {
    pub(crate) fn new() -> Self {
        Self([vec![0; 17_000], vec![0; 40_000], vec![0; 8_000]])
    }
    pub(crate) fn get(&mut self) -> Buffers<'_> {
        let [a, b, c] = &mut self.0;
        Buffers { received: a, send: b, handshake: c }
    }
}

pub(crate) fn roots() -> Vec<TrustAnchor<'static>> {
    let der: &'static CertificateDer<'static> = Box::leak(Box::new(CertificateDer::from(CA)));
    vec![webpki::anchor_from_trusted_cert(der).unwrap()]
}

pub(crate) fn key() -> tls::SigningKey {
    tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED))
}

pub(crate) fn client<'a, 'b>(
    roots: &'a [TrustAnchor<'a>],
    groups: &'a [NamedGroup],
    bufs: &'b mut Bufs,
) -> Connection<'a, 'b> {
    let config = ClientConfig { groups, ..ClientConfig::new(roots, &tls::SystemClock) };
    Connection::client(config, "localhost", bufs.get(), &mut OsRandom).unwrap()
}

pub(crate) fn server<'a, 'b>(
    key: &'a tls::SigningKey,
    chain: &'a [&'a [u8]],
    groups: &'a [NamedGroup],
    bufs: &'b mut Bufs,
) -> Connection<'a, 'b> {
    let config = ServerConfig {
        groups,
        ..ServerConfig::new(Box::leak(Box::new([tls::CertifiedKey { chain, key }])))
    };
    Connection::server(config, bufs.get(), &mut OsRandom).unwrap()
}

/// Moves `from`'s pending records into `to`; whether there were any.
pub(crate) fn pump(
    from: &mut Connection<'_, '_>,
    to: &mut Connection<'_, '_>,
) -> Result<bool, Error> {
    pump_with(from, to, &mut |_| {})
}

/// [`pump`], letting `patch` change the records first; they go in as pieces as large as
/// `to`'s receive space.
pub(crate) fn pump_with(
    from: &mut Connection<'_, '_>,
    to: &mut Connection<'_, '_>,
    patch: &mut dyn FnMut(&mut Vec<u8>),
) -> Result<bool, Error> {
    let mut data = from.pending_send().to_vec();
    from.sent(data.len());
    patch(&mut data);
    let mut at = 0;
    while at < data.len() {
        let space = to.receive_space();
        let n = space.len().min(data.len() - at);
        assert!(n > 0, "no receive space for {} bytes", data.len() - at);
        space[..n].copy_from_slice(&data[at..at + n]);
        to.received(n)?;
        at += n;
    }
    Ok(!data.is_empty())
}

pub(crate) fn feed(to: &mut Connection<'_, '_>, data: &[u8]) -> Result<(), Error> {
    to.receive_space()[..data.len()].copy_from_slice(data);
    to.received(data.len())
}

/// Runs the handshake (and what follows it, such as tickets) until neither side sends; the
/// first error, with whether the client (`true`) or the server had it.
pub(crate) fn handshake(
    c: &mut Connection<'_, '_>,
    s: &mut Connection<'_, '_>,
) -> Result<(), (bool, Error)> {
    for _ in 0..10 {
        let a = pump(c, s).map_err(|e| (false, e))?;
        let b = pump(s, c).map_err(|e| (true, e))?;
        if !a && !b {
            break;
        }
    }
    assert!(!c.is_handshaking() && !s.is_handshaking(), "stalled");
    Ok(())
}

pub(crate) fn run(
    client_groups: &[NamedGroup],
    server_groups: &[NamedGroup],
) -> (NamedGroup, bool) {
    let (roots, key, chain) = (roots(), key(), [SERVER_CERT]);
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let mut c = client(&roots, client_groups, &mut cb);
    let mut s = server(&key, &chain, server_groups, &mut sb);
    handshake(&mut c, &mut s).unwrap();
    let (cn, sn) = (c.negotiated().unwrap(), s.negotiated().unwrap());
    assert_eq!(cn.group, sn.group);
    assert_eq!(cn.retried, sn.retried);
    c.write(b"ping").unwrap();
    pump(&mut c, &mut s).unwrap();
    let mut buf = [0u8; 8];
    assert_eq!(s.read(&mut buf).unwrap(), 4);
    assert_eq!(&buf[..4], b"ping");
    (cn.group, cn.retried)
}

// ---- Leaked pieces: `'static` configurations, one line each ----

/// `v` for the rest of the test: configurations borrow their pieces for `'static`.
pub(crate) fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

/// One connection's buffers, leaked: a whole record (TLS 1.2's too) each way, and room for
/// the RSA chain in the handshake buffer.
pub(crate) fn buffers() -> Buffers<'static> {
    Buffers {
        received: Vec::leak(vec![0; 18_500]),
        send: Vec::leak(vec![0; 18_500]),
        handshake: Vec::leak(vec![0; 10_000]),
    }
}

/// The trust anchors of the root certificates `cas` (DER).
pub(crate) fn anchors(cas: &[&'static [u8]]) -> &'static [TrustAnchor<'static>] {
    let anchor = |der| webpki::anchor_from_trusted_cert(leak(CertificateDer::from(der))).unwrap();
    Vec::leak(cas.iter().copied().map(anchor).collect())
}

/// A one-certificate chain `cert` (DER) with its PKCS#8 `key`.
pub(crate) fn certified(cert: &'static [u8], key: &'static [u8]) -> CertifiedKey<'static> {
    CertifiedKey { chain: leak([cert]), key: leak(tls::SigningKey::from_pkcs8_der(key).unwrap()) }
}

/// A client of `cc` (to `localhost`) and a server of `sc`, on [`buffers`].
pub(crate) fn connect(
    cc: ClientConfig<'static>,
    sc: ServerConfig<'static>,
) -> (Connection<'static, 'static>, Connection<'static, 'static>) {
    let c = Connection::client(cc, "localhost", buffers(), &mut OsRandom).unwrap();
    let s = Connection::server(sc, buffers(), &mut OsRandom).unwrap();
    (c, s)
}

// ---- rustls (ring) as the peer ----

/// ring's provider with only `suites` and `groups` (an empty list keeps them all); every
/// suite asked for must be one rustls has.
pub(crate) fn ring_provider(
    suites: &[CipherSuite],
    groups: &[NamedGroup],
) -> rustls::crypto::CryptoProvider {
    let mut p = rustls::crypto::ring::default_provider();
    if !suites.is_empty() {
        p.cipher_suites.retain(|s| suites.iter().any(|w| w.0 == u16::from(s.suite())));
        assert_eq!(p.cipher_suites.len(), suites.len(), "{suites:?}");
    }
    if !groups.is_empty() {
        p.kx_groups.retain(|g| groups.iter().any(|w| w.0 == u16::from(g.name())));
    }
    p
}

/// A rustls store of the root certificates `cas` (DER).
pub(crate) fn rustls_roots(cas: &[&[u8]]) -> rustls::RootCertStore {
    let mut roots = rustls::RootCertStore::empty();
    for ca in cas {
        roots.add(CertificateDer::from(ca.to_vec())).unwrap();
    }
    roots
}

/// A rustls TLS 1.2 client of `provider` trusting `ca`, with the client certificate and
/// PKCS#8 key `cert` if given.
pub(crate) fn rustls_client12(
    provider: rustls::crypto::CryptoProvider,
    ca: &[u8],
    cert: Option<(&[u8], &[u8])>,
) -> Arc<rustls::ClientConfig> {
    let builder = rustls::ClientConfig::builder_with_provider(Arc::new(provider))
        .with_protocol_versions(&[&rustls::version::TLS12])
        .unwrap()
        .with_root_certificates(rustls_roots(&[ca]));
    let config = match cert {
        None => builder.with_no_client_auth(),
        Some((cert, key)) => builder
            .with_client_auth_cert(vec![CertificateDer::from(cert.to_vec())], pkcs8(key))
            .unwrap(),
    };
    Arc::new(config)
}

/// A rustls server of `provider` speaking `versions`, holding `cert` and its PKCS#8 `key`;
/// with `client_ca`, asking for client certificates from that root (required or not).
pub(crate) fn rustls_server_config(
    provider: rustls::crypto::CryptoProvider,
    versions: &[&'static rustls::SupportedProtocolVersion],
    (cert, key): (&[u8], &[u8]),
    client_ca: Option<(&[u8], bool)>,
) -> rustls::ServerConfig {
    let provider = Arc::new(provider);
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(versions)
        .unwrap();
    let builder = match client_ca {
        None => builder.with_no_client_auth(),
        Some((ca, required)) => {
            let v = rustls::server::WebPkiClientVerifier::builder_with_provider(
                rustls_roots(&[ca]).into(),
                provider,
            );
            let v = if required { v } else { v.allow_unauthenticated() };
            builder.with_client_cert_verifier(v.build().unwrap())
        }
    };
    builder.with_single_cert(vec![CertificateDer::from(cert.to_vec())], pkcs8(key)).unwrap()
}

fn pkcs8(key: &[u8]) -> PrivateKeyDer<'static> {
    PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.to_vec()))
}

/// Moves records between `ours` and a rustls connection until neither has more to send.
/// Our first error, and the application data we read on the way (as it comes, so more than
/// a receive buffer can pass). rustls's own error stops what it takes; its alert reaches us.
pub(crate) fn pump_rustls<D>(
    ours: &mut Connection<'_, '_>,
    theirs: &mut rustls::ConnectionCommon<D>,
) -> (Result<(), Error>, Vec<u8>) {
    pump_rustls_with(ours, theirs, &mut |_| {})
}

/// [`pump_rustls`], letting `patch` change what rustls sends before we receive it.
pub(crate) fn pump_rustls_with<D>(
    ours: &mut Connection<'_, '_>,
    theirs: &mut rustls::ConnectionCommon<D>,
    patch: &mut dyn FnMut(&mut Vec<u8>),
) -> (Result<(), Error>, Vec<u8>) {
    let mut app = Vec::new();
    for _ in 0..20 {
        let mut moved = false;
        if !ours.pending_send().is_empty() {
            let mut data = ours.pending_send();
            let n = data.len();
            while !data.is_empty() {
                theirs.read_tls(&mut data).unwrap();
                if theirs.process_new_packets().is_err() {
                    break;
                }
            }
            ours.sent(n);
            moved = true;
        }
        let mut out = Vec::new();
        while theirs.wants_write() {
            theirs.write_tls(&mut out).unwrap();
        }
        patch(&mut out);
        let mut at = 0;
        while at < out.len() {
            let space = ours.receive_space();
            let n = space.len().min(out.len() - at);
            space[..n].copy_from_slice(&out[at..at + n]);
            if let Err(e) = ours.received(n) {
                return (Err(e), app);
            }
            at += n;
            moved = true;
            let mut sink = [0u8; 4096];
            loop {
                match ours.read(&mut sink) {
                    Ok(0) => break,
                    Ok(k) => app.extend_from_slice(&sink[..k]),
                    Err(e) => return (Err(e), app),
                }
            }
        }
        if !moved {
            break;
        }
    }
    (Ok(()), app)
}

// ---- Hand-made records ----

/// A plaintext `HelloRetryRequest` record.
pub(crate) fn hrr_record(
    session_id: &[u8],
    group: Option<NamedGroup>,
    cookie: Option<&[u8]>,
) -> Vec<u8> {
    let msg = HandshakeMessage::ServerHello(ServerHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random: HELLO_RETRY_REQUEST_RANDOM,
        session_id,
        cipher_suite: suites::TLS13_AES_128_GCM_SHA256.suite,
        extensions: ServerHelloExtensions {
            supported_version: Some(ProtocolVersion::TLSV1_3),
            selected_group: group,
            cookie,
            ..ServerHelloExtensions::default()
        },
    });
    let mut buf = [0u8; 512];
    let mut w = Writer::new(&mut buf);
    msg.encode(&mut w).unwrap();
    let n = w.len();
    let mut rec = vec![22, 3, 3, (n >> 8) as u8, n as u8];
    rec.extend_from_slice(&buf[..n]);
    rec
}

pub(crate) fn assert_refused(
    c: &mut Connection<'_, '_>,
    rec: &[u8],
    err: Error,
    alert: AlertDescription,
) {
    assert_eq!(feed(c, rec), Err(err));
    let out = c.pending_send();
    assert_eq!(out[out.len() - 7..], [21, 3, 3, 0, 2, 2, alert.0], "alert for {err:?}");
}

/// A real first server record (the `ServerHello`) for client `c` offering `group`, and where
/// the server's key share starts in it.
pub(crate) fn server_hello_for(c: &mut Connection<'_, '_>, group: NamedGroup) -> (Vec<u8>, usize) {
    let (key, chain) = (key(), [SERVER_CERT]);
    let mut sb = Bufs::new();
    let groups = [group];
    let mut s = server(&key, &chain, &groups, &mut sb);
    pump(c, &mut s).unwrap();
    let flight = s.pending_send().to_vec();
    let len = usize::from(flight[3]) << 8 | usize::from(flight[4]);
    let sh = flight[..5 + len].to_vec();
    let HandshakeMessage::ServerHello(parsed) = HandshakeMessage::decode(&sh[5..]).unwrap() else {
        panic!()
    };
    let share = parsed.extensions.key_share.unwrap().key;
    let at = share.as_ptr() as usize - parsed.session_id.as_ptr() as usize;
    // Offset of the share in `sh`: the session id sits at 5 + 4 + 2 + 32 + 1.
    (sh, 5 + 4 + 2 + 32 + 1 + at)
}
