//! The ML-KEM hybrid groups against an independent implementation: rustls with its aws-lc-rs
//! provider (ML-KEM from aws-lc), in memory, in both roles — Halite's `tls` client and server,
//! and the rustls-halite provider. aws-lc-rs has X25519MLKEM768 and SecP256r1MLKEM768;
//! SecP384r1MLKEM1024 is checked against aws-lc's ML-KEM-1024 and P-384 joined here in the
//! draft's order (P-384 first), so its ML-KEM part is still aws-lc's.
//!
//! This lives in `bench` because `bench` already builds aws-lc-rs (a slow C build that the
//! `tls` and `rustls-halite` test builds avoid).

#![allow(clippy::doc_markdown)] // group names are prose here

use std::io::{Read, Write};
use std::sync::Arc;

use core_hash::OsRandom;
use pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::crypto::{
    ActiveKeyExchange, CompletedKeyExchange, CryptoProvider, SharedSecret, SupportedKxGroup,
};
use rustls::{HandshakeKind, NamedGroup, ProtocolVersion};
use tls::msgs::NamedGroup as Group;
use tls::{Buffers, Connection};

/// The ECDSA P-256 test PKI of the `tls` crate.
const ROOT: &[u8] = include_bytes!("../../tls/tests/data/ca-p256.der");
const LEAF: &[u8] = include_bytes!("../../tls/tests/data/server-p256.der");
const KEY: &[u8] = include_bytes!("../../tls/tests/data/server-p256.key.der");
const SECP384R1MLKEM1024: NamedGroup = NamedGroup::Unknown(0x11ed);

/// SecP384r1MLKEM1024 from aws-lc's parts: P-384 ECDH first, then ML-KEM-1024, in shares and
/// in the secret (draft-ietf-tls-ecdhe-mlkem §3).
#[derive(Debug)]
struct AwsP384MlKem1024;

static AWS_P384_MLKEM1024: &dyn SupportedKxGroup = &AwsP384MlKem1024;

const P384_LEN: usize = 97;

impl SupportedKxGroup for AwsP384MlKem1024 {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, rustls::Error> {
        let ecdh = rustls::crypto::aws_lc_rs::kx_group::SECP384R1.start()?;
        let kem = rustls::crypto::aws_lc_rs::kx_group::MLKEM1024.start()?;
        let public = [ecdh.pub_key(), kem.pub_key()].concat();
        Ok(Box::new(AwsP384MlKem1024Exchange { ecdh, kem, public }))
    }

    fn start_and_complete(&self, share: &[u8]) -> Result<CompletedKeyExchange, rustls::Error> {
        let bad = rustls::Error::PeerMisbehaved(rustls::PeerMisbehaved::InvalidKeyShare);
        let (ecdh, kem) = share.split_at_checked(P384_LEN).ok_or(bad)?;
        let ecdh = rustls::crypto::aws_lc_rs::kx_group::SECP384R1.start_and_complete(ecdh)?;
        let kem = rustls::crypto::aws_lc_rs::kx_group::MLKEM1024.start_and_complete(kem)?;
        Ok(CompletedKeyExchange {
            group: SECP384R1MLKEM1024,
            pub_key: [ecdh.pub_key, kem.pub_key].concat(),
            secret: SharedSecret::from(
                [ecdh.secret.secret_bytes(), kem.secret.secret_bytes()].concat(),
            ),
        })
    }

    fn name(&self) -> NamedGroup {
        SECP384R1MLKEM1024
    }

    fn usable_for_version(&self, version: ProtocolVersion) -> bool {
        version == ProtocolVersion::TLSv1_3
    }
}

struct AwsP384MlKem1024Exchange {
    ecdh: Box<dyn ActiveKeyExchange>,
    kem: Box<dyn ActiveKeyExchange>,
    public: Vec<u8>,
}

impl ActiveKeyExchange for AwsP384MlKem1024Exchange {
    fn complete(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, rustls::Error> {
        let bad = rustls::Error::PeerMisbehaved(rustls::PeerMisbehaved::InvalidKeyShare);
        let (ecdh, kem) = peer.split_at_checked(P384_LEN).ok_or(bad)?;
        let ecdh = self.ecdh.complete(ecdh)?;
        let kem = self.kem.complete(kem)?;
        Ok(SharedSecret::from([ecdh.secret_bytes(), kem.secret_bytes()].concat()))
    }

    fn pub_key(&self) -> &[u8] {
        &self.public
    }

    fn group(&self) -> NamedGroup {
        SECP384R1MLKEM1024
    }
}

/// rustls's aws-lc-rs provider with these groups, in this order.
fn aws(groups: &[NamedGroup]) -> CryptoProvider {
    let mut all = rustls::crypto::aws_lc_rs::ALL_KX_GROUPS.to_vec();
    all.push(AWS_P384_MLKEM1024);
    let kx_groups =
        groups.iter().map(|g| *all.iter().find(|k| k.name() == *g).expect("a group")).collect();
    CryptoProvider { kx_groups, ..rustls::crypto::aws_lc_rs::default_provider() }
}

/// The rustls-halite provider with these groups, in this order.
fn halite(groups: &[NamedGroup]) -> CryptoProvider {
    let all = rustls_halite::ALL_KX_GROUPS;
    let kx_groups =
        groups.iter().map(|g| *all.iter().find(|k| k.name() == *g).expect("a group")).collect();
    CryptoProvider { kx_groups, ..rustls_halite::default_provider() }
}

fn rustls_client(provider: CryptoProvider) -> rustls::ClientConnection {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from(ROOT)).unwrap();
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(provider))
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = ServerName::try_from("localhost").unwrap();
    rustls::ClientConnection::new(Arc::new(config), name).unwrap()
}

fn rustls_server(provider: CryptoProvider) -> rustls::ServerConnection {
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(KEY));
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(provider))
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![CertificateDer::from(LEAF)], key)
        .unwrap();
    rustls::ServerConnection::new(Arc::new(config)).unwrap()
}

/// Moves everything `from` has to send into `to`; whether anything moved.
fn rustls_move<A, B>(
    from: &mut rustls::ConnectionCommon<A>,
    to: &mut rustls::ConnectionCommon<B>,
    wire: &mut Vec<u8>,
) -> bool {
    wire.clear();
    while from.wants_write() {
        from.write_tls(wire).unwrap();
    }
    let mut rd = &wire[..];
    while !rd.is_empty() {
        to.read_tls(&mut rd).unwrap();
        to.process_new_packets().unwrap_or_else(|e| panic!("rustls: {e}"));
    }
    !wire.is_empty()
}

/// Two rustls connections to completion and one message each way; the client's group and
/// whether it took a HelloRetryRequest.
fn rustls_pair(
    mut c: rustls::ClientConnection,
    mut s: rustls::ServerConnection,
) -> (NamedGroup, bool) {
    let mut wire = Vec::new();
    c.writer().write_all(b"ping").unwrap();
    for _ in 0..16 {
        let a = rustls_move(&mut c, &mut s, &mut wire);
        let b = rustls_move(&mut s, &mut c, &mut wire);
        if !a && !b {
            break;
        }
    }
    assert!(!c.is_handshaking() && !s.is_handshaking());
    let mut got = [0u8; 4];
    s.reader().read_exact(&mut got).unwrap();
    assert_eq!(&got, b"ping");
    let group = c.negotiated_key_exchange_group().unwrap().name();
    assert_eq!(s.negotiated_key_exchange_group().unwrap().name(), group);
    (group, c.handshake_kind() == Some(HandshakeKind::FullWithHelloRetryRequest))
}

/// Moves records between Halite's connection and a rustls one until neither has more; the
/// application data rustls received and Halite received.
fn pump<D>(
    ours: &mut Connection<'_, '_>,
    theirs: &mut rustls::ConnectionCommon<D>,
) -> (Vec<u8>, Vec<u8>) {
    let (mut theirs_got, mut ours_got) = (Vec::new(), Vec::new());
    for _ in 0..30 {
        let mut moved = false;
        let n = ours.pending_send().len();
        if n > 0 {
            let mut data = ours.pending_send();
            while !data.is_empty() {
                theirs.read_tls(&mut data).unwrap();
                theirs.process_new_packets().unwrap_or_else(|e| panic!("rustls: {e}"));
                let mut buf = [0u8; 4096];
                while let Ok(k @ 1..) = theirs.reader().read(&mut buf) {
                    theirs_got.extend_from_slice(&buf[..k]);
                }
            }
            ours.sent(n);
            moved = true;
        }
        let mut out = Vec::new();
        while theirs.wants_write() {
            theirs.write_tls(&mut out).unwrap();
        }
        let mut at = 0;
        while at < out.len() {
            let space = ours.receive_space();
            let k = space.len().min(out.len() - at);
            space[..k].copy_from_slice(&out[at..at + k]);
            ours.received(k).unwrap_or_else(|e| panic!("halite: {e:?}"));
            at += k;
            moved = true;
            let mut sink = [0u8; 4096];
            loop {
                let k = ours.read(&mut sink).unwrap();
                if k == 0 {
                    break;
                }
                ours_got.extend_from_slice(&sink[..k]);
            }
        }
        if !moved {
            return (theirs_got, ours_got);
        }
    }
    panic!("the peers kept talking")
}

struct Bufs([Vec<u8>; 3]);

impl Bufs {
    fn new() -> Self {
        Self([vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]])
    }
    fn get(&mut self) -> Buffers<'_> {
        let [a, b, c] = &mut self.0;
        Buffers { received: a, send: b, handshake: c }
    }
}

/// Halite's client with `groups` against a rustls server on `provider`: the negotiated
/// group and whether it retried.
fn halite_client(groups: &[Group], provider: CryptoProvider) -> (Group, bool) {
    let ca = CertificateDer::from(ROOT);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    let config = tls::ClientConfig { groups, ..tls::ClientConfig::new(&roots, &tls::SystemClock) };
    let mut bufs = Bufs::new();
    let mut ours = Connection::client(config, "localhost", bufs.get(), &mut OsRandom).unwrap();
    let mut theirs = rustls_server(provider);
    pump(&mut ours, &mut theirs);
    assert!(!ours.is_handshaking(), "{:?}", ours.error());
    ours.write(b"ping").unwrap();
    assert_eq!(pump(&mut ours, &mut theirs).0, b"ping");
    let n = ours.negotiated().unwrap();
    let theirs_group = theirs.negotiated_key_exchange_group().unwrap().name();
    assert_eq!(u16::from(theirs_group), n.group.0);
    (n.group, n.retried)
}

/// A rustls client on `provider` against Halite's server with `groups`.
fn halite_server(provider: CryptoProvider, groups: &[Group]) -> (Group, bool) {
    let key = tls::SigningKey::from_pkcs8_der(KEY).unwrap();
    let chain: [&[u8]; 1] = [LEAF];
    let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
    let config = tls::ServerConfig { groups, ..tls::ServerConfig::new(&certs) };
    let mut bufs = Bufs::new();
    let mut ours = Connection::server(config, bufs.get(), &mut OsRandom).unwrap();
    let mut theirs = rustls_client(provider);
    theirs.writer().write_all(b"ping").unwrap();
    let (_, got) = pump(&mut ours, &mut theirs);
    assert!(!ours.is_handshaking(), "{:?}", ours.error());
    assert_eq!(got, b"ping");
    let n = ours.negotiated().unwrap();
    let theirs_group = theirs.negotiated_key_exchange_group().unwrap().name();
    assert_eq!(u16::from(theirs_group), n.group.0);
    (n.group, n.retried)
}

const X25519MLKEM768: NamedGroup = NamedGroup::X25519MLKEM768;
const SECP256R1MLKEM768: NamedGroup = NamedGroup::secp256r1MLKEM768;
const HYBRIDS: [(NamedGroup, Group); 3] = [
    (X25519MLKEM768, Group::X25519MLKEM768),
    (SECP256R1MLKEM768, Group::SECP256R1MLKEM768),
    (SECP384R1MLKEM1024, Group::SECP384R1MLKEM1024),
];

#[test]
fn halite_tls_client_against_rustls_aws_lc_server() {
    // Defaults against aws-lc-rs's prefer-post-quantum order: the hybrid, no retry.
    let aws_default = [X25519MLKEM768, NamedGroup::X25519, NamedGroup::secp256r1];
    let got = halite_client(tls::kx::DEFAULT_GROUPS, aws(&aws_default));
    assert_eq!(got, (Group::X25519MLKEM768, false));
    for (theirs, ours) in HYBRIDS {
        assert_eq!(halite_client(&[ours], aws(&[theirs])), (ours, false), "{ours:?}");
        // A HelloRetryRequest from aws-lc to the hybrid (P-521 is in no hybrid, so its
        // share goes alone).
        let offer = [Group::SECP521R1, ours];
        assert_eq!(halite_client(&offer, aws(&[theirs])), (ours, true), "{ours:?} retry");
    }
}

#[test]
fn rustls_aws_lc_client_against_halite_tls_server() {
    let aws_default = [X25519MLKEM768, NamedGroup::X25519, NamedGroup::secp256r1];
    let got = halite_server(aws(&aws_default), tls::kx::DEFAULT_GROUPS);
    assert_eq!(got, (Group::X25519MLKEM768, false));
    // aws-lc's X25519 share (its hybrid's X25519 part) to a server without hybrids.
    let got = halite_server(aws(&aws_default), tls::kx::CLASSICAL_GROUPS);
    assert_eq!(got, (Group::X25519, false));
    for (theirs, ours) in HYBRIDS {
        assert_eq!(halite_server(aws(&[theirs]), &[ours]), (ours, false), "{ours:?}");
        let offer = [NamedGroup::X25519, theirs];
        assert_eq!(halite_server(aws(&offer), &[ours]), (ours, true), "{ours:?} retry");
    }
}

#[test]
fn rustls_halite_provider_against_rustls_aws_lc_provider() {
    for (g, _) in HYBRIDS {
        assert_eq!(rustls_pair(rustls_client(halite(&[g])), rustls_server(aws(&[g]))), (g, false));
        assert_eq!(rustls_pair(rustls_client(aws(&[g])), rustls_server(halite(&[g]))), (g, false));
        let offer = [NamedGroup::X25519, g];
        let retried = rustls_pair(rustls_client(halite(&offer)), rustls_server(aws(&[g])));
        assert_eq!(retried, (g, true), "{g:?}");
    }
    // The defaults of both: X25519MLKEM768; and rustls-halite's X25519 share (its hybrid's
    // X25519 part) to an aws-lc server without hybrids.
    let d = rustls_pair(
        rustls_client(rustls_halite::default_provider()),
        rustls_server(aws(&[X25519MLKEM768, NamedGroup::X25519])),
    );
    assert_eq!(d, (X25519MLKEM768, false));
    let c = rustls_pair(
        rustls_client(rustls_halite::default_provider()),
        rustls_server(aws(&[NamedGroup::X25519])),
    );
    assert_eq!(c, (NamedGroup::X25519, false));
}
