//! A client and a server written against the `tls` crate alone: its re-exports (`UnixTime`,
//! `CertificateDer`, `TrustAnchor`, `OsRandom`), trust anchors read from PEM, and
//! `Stream::new`. No `pki_types`, `webpki` or `core_hash` path appears here on purpose.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};

use tls::{
    Buffers, CertificateDer, CertificateError, CertifiedKey, ClientConfig, Connection, Error,
    OsRandom, ServerConfig, SigningKey, Stream, TrustAnchor, UnixTime,
};

const CA_PEM: &str = include_str!("data/ca.pem");
const CA_P256_PEM: &str = include_str!("data/ca-p256.pem");
const SERVER_CERT: &[u8] = include_bytes!("data/server.der");
const SERVER_KEY: &str = include_str!("data/server.key");

#[test]
fn roots_from_pem_reads_every_certificate_of_a_bundle() {
    let bundle = format!("{CA_PEM}{CA_P256_PEM}");
    let roots: Vec<TrustAnchor<'static>> = tls::roots_from_pem(&bundle).unwrap();
    assert_eq!(roots.len(), 2);
    assert_ne!(roots[0].subject, roots[1].subject);
    assert_eq!(tls::roots_from_pem("no certificates here"), Ok(Vec::new()));
    let bad = "-----BEGIN CERTIFICATE-----\nMII!\n-----END CERTIFICATE-----\n";
    let encoding = Err(Error::InvalidCertificate(CertificateError::BadEncoding));
    assert_eq!(tls::roots_from_pem(bad).map(|r| r.len()), encoding);
    let not_a_cert = "-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n";
    assert_eq!(tls::roots_from_pem(not_a_cert).map(|r| r.len()), encoding);
}

#[test]
fn a_client_and_server_need_only_the_tls_crate() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let key = SigningKey::from_pkcs8_pem(SERVER_KEY, &mut [0u8; 256]).unwrap();
        let chain = [CertificateDer::from(SERVER_CERT)];
        let chain: Vec<&[u8]> = chain.iter().map(AsRef::as_ref).collect();
        let certs = [CertifiedKey { chain: &chain, key: &key }];
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::server(ServerConfig::new(&certs), bufs, &mut OsRandom).unwrap();
        let (sock, _) = listener.accept().unwrap();
        let mut stream = Stream::new(&mut conn, sock);
        let mut buf = [0u8; 5];
        stream.read_exact(&mut buf).unwrap();
        stream.write_all(&buf).unwrap();
        stream.close().unwrap();
    });
    let roots = tls::roots_from_pem(CA_PEM).unwrap();
    let now = UnixTime::now();
    let config = ClientConfig::new(&roots, &now);
    let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let mut conn = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
    let mut stream = Stream::new(&mut conn, TcpStream::connect(("127.0.0.1", port)).unwrap());
    stream.write_all(b"hello").unwrap();
    let mut echoed = Vec::new();
    stream.read_to_end(&mut echoed).unwrap();
    assert_eq!(echoed, b"hello");
    server.join().unwrap();
}
