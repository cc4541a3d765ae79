//! ML-DSA in TLS 1.3 (draft-ietf-tls-mldsa: schemes mldsa44/65/87) and in certificates
//! (RFC 9881), Halite with Halite in memory. The roots are the LAMPS working group's example
//! ML-DSA certificates (lamps-wg/dilithium-certificates, self-signed CAs whose key is the seed
//! 00 01 … 1f); each test issues an end-entity certificate under one, signed here with that
//! seed, for an ML-DSA key loaded from PKCS#8 into a [`SigningKey`].

use core_hash::OsRandom;
use core_lattice::{mldsa44, mldsa65, mldsa87};
use pki_types::{CertificateDer, TrustAnchor, UnixTime};
use tls::msgs::{ProtocolVersion, SignatureScheme};
use tls::{
    Buffers, CertificateError, CertifiedKey, ClientAuth, ClientConfig, Connection, Error,
    ServerConfig, SigningKey,
};

/// A LAMPS example certificate (PEM).
macro_rules! lamps {
    ($name:literal) => {
        include_str!(concat!("../../core-lattice/tests/data/lamps/", $name))
    };
}

/// The seed of the LAMPS example keys.
fn lamps_seed() -> [u8; 32] {
    core::array::from_fn(|i| i as u8)
}

/// A DER element: `tag`, the length of `parts` together, and `parts`.
fn tlv(tag: u8, parts: &[&[u8]]) -> Vec<u8> {
    let len = parts.iter().map(|p| p.len()).sum();
    let mut out = vec![0u8; core_der::der::header_len(len)];
    core_der::der::Writer::new(&mut out).header(tag, len).unwrap();
    for p in parts {
        out.extend_from_slice(p);
    }
    out
}

/// The DER of the first `label` block of `pem`.
fn pem_der(pem: &str, label: &str) -> Vec<u8> {
    let mut buf = vec![0u8; pem.len()];
    core_der::pem::decode_first(pem, label, &mut buf).unwrap().to_vec()
}

/// The subject Name of a certificate: the issuer of what it signs.
fn subject(cert: &[u8]) -> Vec<u8> {
    use core_der::der::{Reader, SEQUENCE, context};
    let mut outer = Reader::new(core_der::der::only(cert, SEQUENCE).unwrap());
    let mut tbs = Reader::new(outer.read(SEQUENCE).unwrap());
    tbs.read(context(0)).unwrap(); // version
    tbs.read_any().unwrap(); // serialNumber
    tbs.read(SEQUENCE).unwrap(); // signature
    tbs.read(SEQUENCE).unwrap(); // issuer
    tbs.read(SEQUENCE).unwrap(); // validity
    tbs.read_element().unwrap().to_vec()
}

/// An end-entity key as PKCS#8 and as a `SubjectPublicKeyInfo`.
type KeyFiles = (Vec<u8>, Vec<u8>);

/// One ML-DSA parameter set: its CA, the algorithm OID, how to sign with the CA key, and the
/// end-entity's key made from `seed` as PKCS#8 and SPKI.
struct Level {
    ca_pem: &'static str,
    oid: &'static [u8],
    scheme: SignatureScheme,
    sign_as_ca: fn(&[u8]) -> Vec<u8>,
    end_entity: fn(&[u8; 32]) -> KeyFiles,
}

macro_rules! level {
    ($m:ident, $file:literal, $oid:ident, $scheme:ident) => {
        Level {
            ca_pem: lamps!($file),
            oid: core_der::pkix::oid::$oid,
            scheme: SignatureScheme::$scheme,
            sign_as_ca: |tbs| {
                let ca = $m::SigningKey::from_seed(&lamps_seed());
                ca.sign(tbs, &[], &mut OsRandom).unwrap().as_bytes().to_vec()
            },
            end_entity: |seed| {
                let key = $m::SigningKey::from_seed(seed);
                let mut pkcs8 = vec![0u8; $m::PKCS8_DER_LEN];
                key.to_pkcs8_der(&mut pkcs8).unwrap();
                let mut spki = vec![0u8; $m::PUBLIC_KEY_DER_LEN];
                key.verifying_key().to_public_key_der(&mut spki).unwrap();
                (pkcs8, spki)
            },
        }
    };
}

fn levels() -> [Level; 3] {
    [
        level!(mldsa44, "ML-DSA-44.crt", ML_DSA_44, ML_DSA_44),
        level!(mldsa65, "ML-DSA-65.crt", ML_DSA_65, ML_DSA_65),
        level!(mldsa87, "ML-DSA-87.crt", ML_DSA_87, ML_DSA_87),
    ]
}

/// An end-entity certificate for `localhost` (serverAuth and clientAuth) with the key
/// `spki`, issued by the CA of `level`; `tamper` flips a bit of its signature.
fn issue(level: &Level, spki: &[u8], tamper: bool) -> Vec<u8> {
    use core_der::der::{BIT_STRING, INTEGER, OCTET_STRING, OID, SEQUENCE, context};
    const SET: u8 = 0x31;
    let ca = pem_der(level.ca_pem, "CERTIFICATE");
    let alg = tlv(SEQUENCE, &[&tlv(OID, &[level.oid])]);
    let localhost = b"localhost";
    let name = tlv(
        SEQUENCE,
        &[&tlv(SET, &[&tlv(SEQUENCE, &[&tlv(OID, &[&[0x55, 4, 3]]), &tlv(0x0c, &[localhost])])])],
    );
    let validity =
        tlv(SEQUENCE, &[&tlv(0x17, &[b"250101000000Z"]), &tlv(0x17, &[b"391231235959Z"])]);
    let san = tlv(
        SEQUENCE,
        &[
            &tlv(OID, &[&[0x55, 0x1d, 0x11]]),
            &tlv(OCTET_STRING, &[&tlv(SEQUENCE, &[&tlv(0x82, &[localhost])])]),
        ],
    );
    let purposes = [
        tlv(OID, &[&[0x2b, 6, 1, 5, 5, 7, 3, 1]]), // serverAuth
        tlv(OID, &[&[0x2b, 6, 1, 5, 5, 7, 3, 2]]), // clientAuth
    ];
    let eku = tlv(
        SEQUENCE,
        &[
            &tlv(OID, &[&[0x55, 0x1d, 0x25]]),
            &tlv(OCTET_STRING, &[&tlv(SEQUENCE, &[&purposes[0], &purposes[1]])]),
        ],
    );
    let tbs = tlv(
        SEQUENCE,
        &[
            &tlv(context(0), &[&tlv(INTEGER, &[&[2]])]),
            &tlv(INTEGER, &[&[0x4d, 0x4c]]),
            &alg,
            &subject(&ca),
            &validity,
            &name,
            spki,
            &tlv(context(3), &[&tlv(SEQUENCE, &[&san, &eku])]),
        ],
    );
    let mut sig = (level.sign_as_ca)(&tbs);
    sig[0] ^= u8::from(tamper);
    tlv(SEQUENCE, &[&tbs, &alg, &tlv(BIT_STRING, &[&[0], &sig])])
}

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

/// Buffers with room for an ML-DSA-87 `Certificate` and `CertificateVerify` (about 12 KB).
fn bufs() -> Buffers<'static> {
    Buffers {
        received: Vec::leak(vec![0; 17_000]),
        send: Vec::leak(vec![0; 40_000]),
        handshake: Vec::leak(vec![0; 20_000]),
    }
}

fn anchor(level: &Level) -> &'static [TrustAnchor<'static>] {
    let der = Vec::leak(pem_der(level.ca_pem, "CERTIFICATE"));
    let der: &'static CertificateDer<'static> = leak(CertificateDer::from(&der[..]));
    Vec::leak(vec![webpki::anchor_from_trusted_cert(der).unwrap()])
}

/// An end-entity certificate and its key for `level`, made from `seed`.
fn identity(level: &Level, seed: u8, tamper: bool) -> CertifiedKey<'static> {
    let (pkcs8, spki) = (level.end_entity)(&[seed; 32]);
    let cert = Vec::leak(issue(level, &spki, tamper));
    let key = leak(SigningKey::from_pkcs8_der(&pkcs8).unwrap());
    CertifiedKey { chain: Vec::leak(vec![&cert[..]]), key }
}

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<bool, Error> {
    let data = from.pending_send().to_vec();
    from.sent(data.len());
    let mut at = 0;
    while at < data.len() {
        let space = to.receive_space();
        let n = space.len().min(data.len() - at);
        space[..n].copy_from_slice(&data[at..at + n]);
        to.received(n)?;
        at += n;
    }
    Ok(!data.is_empty())
}

/// Runs a handshake; the first error, with whether the client had it.
fn handshake(c: &mut Connection<'_, '_>, s: &mut Connection<'_, '_>) -> Result<(), (bool, Error)> {
    for _ in 0..10 {
        let a = pump(c, s).map_err(|e| (false, e))?;
        let b = pump(s, c).map_err(|e| (true, e))?;
        if !a && !b {
            break;
        }
    }
    Ok(())
}

/// Each parameter set authenticates the server, and (ML-DSA-44 client certificate beside)
/// the client: both sides agree on the scheme and data flows.
#[test]
fn handshakes_with_each_level() {
    for (i, level) in levels().iter().enumerate() {
        let roots = anchor(level);
        let server_id = identity(level, 1, false);
        let client_id = identity(level, 2, false);
        let config = ClientConfig {
            client_cert: Some(client_id),
            ..ClientConfig::new(roots, &tls::SystemClock)
        };
        let mut c = Connection::client(config, "localhost", bufs(), &mut OsRandom).unwrap();
        let config = ServerConfig {
            client_auth: Some(ClientAuth::new(roots, &tls::SystemClock)),
            ..ServerConfig::new(Vec::leak(vec![server_id]))
        };
        let mut s = Connection::server(config, bufs(), &mut OsRandom).unwrap();
        handshake(&mut c, &mut s).unwrap_or_else(|e| panic!("level {i}: {e:?}"));
        let (cn, sn) = (c.negotiated().unwrap(), s.negotiated().unwrap());
        assert_eq!(cn.version, ProtocolVersion::TLSV1_3);
        assert_eq!((cn.scheme, sn.scheme), (level.scheme, level.scheme));
        assert_eq!((cn.client_auth, sn.client_auth), (Some(level.scheme), Some(level.scheme)));
        c.write(b"ping").unwrap();
        pump(&mut c, &mut s).unwrap();
        let mut buf = [0u8; 8];
        assert_eq!(s.read(&mut buf).unwrap(), 4);
    }
}

/// A server may hold an ML-DSA-65 certificate beside an Ed25519 one: with a client that
/// offers both schemes it signs with the first in its list, each verified by the client.
#[test]
fn mldsa_certificate_beside_ed25519() {
    let level = &levels()[1];
    let seed: &[u8; 32] = include_bytes!("data/server.seed");
    let ed25519 = leak(SigningKey::Ed25519(core_ec::ed25519::SigningKey::from_seed(seed)));
    let ed25519 =
        CertifiedKey { chain: leak([&include_bytes!("data/server.der")[..]]), key: ed25519 };
    let ed25519_root = leak(CertificateDer::from(&include_bytes!("data/ca.der")[..]));
    let roots = Vec::leak(
        [anchor(level).to_vec(), vec![webpki::anchor_from_trusted_cert(ed25519_root).unwrap()]]
            .concat(),
    );
    let mldsa = identity(level, 1, false);
    for (certs, scheme) in [
        ([mldsa, ed25519], SignatureScheme::ML_DSA_65),
        ([ed25519, mldsa], SignatureScheme::ED25519),
    ] {
        let config = ClientConfig::new(roots, &tls::SystemClock);
        let mut c = Connection::client(config, "localhost", bufs(), &mut OsRandom).unwrap();
        let config = ServerConfig::new(Vec::leak(certs.to_vec()));
        let mut s = Connection::server(config, bufs(), &mut OsRandom).unwrap();
        handshake(&mut c, &mut s).unwrap();
        assert_eq!(c.negotiated().unwrap().scheme, scheme);
    }
}

/// A certificate whose ML-DSA signature does not verify is refused by webpki with our
/// verifier, as a bad signature.
#[test]
fn bad_certificate_signature_is_refused() {
    let level = &levels()[0];
    let config = ClientConfig::new(anchor(level), &tls::SystemClock);
    let mut c = Connection::client(config, "localhost", bufs(), &mut OsRandom).unwrap();
    let certs = Vec::leak(vec![identity(level, 1, true)]);
    let mut s = Connection::server(ServerConfig::new(certs), bufs(), &mut OsRandom).unwrap();
    let err = handshake(&mut c, &mut s).unwrap_err();
    assert_eq!(err, (true, Error::InvalidCertificate(CertificateError::BadSignature)));
}

/// The chain check alone, at a fixed time: an ML-DSA-87 end entity under the LAMPS root, and
/// the `CertificateVerify` signature check with each scheme the key does not have refused.
#[test]
fn verify_peer_checks_chain_and_scheme() {
    let level = &levels()[2];
    let (pkcs8, spki) = (level.end_entity)(&[3; 32]);
    let cert = issue(level, &spki, false);
    let key = SigningKey::from_pkcs8_der(&pkcs8).unwrap();
    let now = UnixTime::since_unix_epoch(core::time::Duration::from_secs(1_800_000_000));
    let mut sig = [0u8; tls::sign::MAX_SIGNATURE_LEN];
    let n = tls::provider::Signer::sign(&key, level.scheme, b"content", &mut OsRandom, &mut sig)
        .unwrap();
    assert_eq!(n, mldsa87::SIGNATURE_LEN);
    let peer = tls::verify::Peer::Server("localhost");
    let check = |scheme, msg: &[u8]| {
        tls::verify::verify_peer(&cert, &[], anchor(level), peer, now, scheme, msg, &sig[..n])
    };
    assert!(check(level.scheme, b"content").is_ok());
    assert!(check(level.scheme, b"contend").is_err());
    assert!(check(SignatureScheme::ML_DSA_65, b"content").is_err());
    assert!(check(SignatureScheme::ED25519, b"content").is_err());
    // Before the end entity's notBefore.
    let early = UnixTime::since_unix_epoch(core::time::Duration::from_secs(1_700_000_000));
    let r = tls::verify::verify_peer(
        &cert,
        &[],
        anchor(level),
        peer,
        early,
        level.scheme,
        b"content",
        &sig[..n],
    );
    assert_eq!(r, Err(Error::InvalidCertificate(CertificateError::NotYetValid)));
}

/// ML-DSA signs only in TLS 1.3: a key offers no TLS 1.2 scheme, and a TLS 1.2 handshake
/// with only an ML-DSA certificate fails on the server.
#[test]
fn tls12_never_uses_mldsa() {
    let level = &levels()[1];
    let id = identity(level, 1, false);
    assert_eq!(tls::provider::Signer::tls12_schemes(id.key), &[] as &[SignatureScheme]);
    assert_eq!(tls::provider::Signer::tls12_digest_schemes(id.key), &[] as &[SignatureScheme]);
    assert_eq!(tls::provider::Signer::schemes(id.key), &[SignatureScheme::ML_DSA_65]);
    let versions = &[ProtocolVersion::TLSV1_2];
    let config = ClientConfig { versions, ..ClientConfig::new(anchor(level), &tls::SystemClock) };
    let c = Connection::client(config, "localhost", bufs(), &mut OsRandom);
    let config = ServerConfig { versions, ..ServerConfig::new(Vec::leak(vec![id])) };
    let s = Connection::server(config, bufs(), &mut OsRandom);
    if !cfg!(feature = "tls12") {
        // Without TLS 1.2 a configuration naming it is refused before any handshake.
        let bad = Some(Error::ApiMisuse(tls::ApiMisuse::BadConfig));
        assert_eq!((c.err(), s.err()), (bad, bad));
        return;
    }
    let (mut c, mut s) = (c.unwrap(), s.unwrap());
    let (client, _) = handshake(&mut c, &mut s).unwrap_err();
    assert!(!client, "the server has no scheme to sign with");
}

/// Keys of each form load; a corrupt one is a typed key error.
#[test]
fn keys_load_from_pkcs8() {
    for (text, scheme) in [
        (lamps!("ML-DSA-44-seed.priv"), SignatureScheme::ML_DSA_44),
        (lamps!("ML-DSA-65-expanded.priv"), SignatureScheme::ML_DSA_65),
        (lamps!("ML-DSA-87-both.priv"), SignatureScheme::ML_DSA_87),
    ] {
        let mut scratch = vec![0u8; 8192];
        let key = SigningKey::from_pkcs8_pem(text, &mut scratch).unwrap();
        assert_eq!(tls::provider::Signer::schemes(&key), &[scheme]);
    }
    let mut scratch = vec![0u8; 8192];
    let bad = SigningKey::from_pkcs8_pem(lamps!("bad-ML-DSA-44-2.priv"), &mut scratch);
    assert_eq!(bad.err(), Some(Error::InvalidKey(tls::KeyError::BadEncoding)));
}

/// Writes the ML-DSA-65 test PKI other crates' tests use (rustls-halite's interop with
/// aws-lc-rs): `ca-mldsa65.der` (the LAMPS root), and `server-mldsa65.der` with its key
/// `server-mldsa65.key.der` (seed form, seed 65 × 32), issued as the tests above issue theirs.
/// Run with `cargo test -p tls --test mldsa -- --ignored write_mldsa65_pki`.
#[test]
#[ignore = "writes tests/data; run by hand to regenerate"]
fn write_mldsa65_pki() {
    let level = &levels()[1];
    let (pkcs8, spki) = (level.end_entity)(&[65; 32]);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    std::fs::write(format!("{dir}ca-mldsa65.der"), pem_der(level.ca_pem, "CERTIFICATE")).unwrap();
    std::fs::write(format!("{dir}server-mldsa65.der"), issue(level, &spki, false)).unwrap();
    std::fs::write(format!("{dir}server-mldsa65.key.der"), pkcs8).unwrap();
}

/// The checked-in ML-DSA-65 test PKI verifies: the server certificate chains to the root and
/// its key is the one loaded from the key file.
#[test]
fn checked_in_mldsa65_pki_verifies() {
    let roots = [webpki::anchor_from_trusted_cert(leak(CertificateDer::from(
        &include_bytes!("data/ca-mldsa65.der")[..],
    )))
    .unwrap()];
    let key = SigningKey::from_pkcs8_der(include_bytes!("data/server-mldsa65.key.der")).unwrap();
    let mut sig = [0u8; tls::sign::MAX_SIGNATURE_LEN];
    let scheme = SignatureScheme::ML_DSA_65;
    let n = tls::provider::Signer::sign(&key, scheme, b"m", &mut OsRandom, &mut sig).unwrap();
    let now = UnixTime::since_unix_epoch(core::time::Duration::from_secs(1_800_000_000));
    let cert = include_bytes!("data/server-mldsa65.der");
    let peer = tls::verify::Peer::Server("localhost");
    let r = tls::verify::verify_peer(cert, &[], &roots, peer, now, scheme, b"m", &sig[..n]);
    assert!(r.is_ok(), "{r:?}");
}
