//! A `CertVerifier` in place of `rustls-webpki` and configured roots, in memory: a client that
//! pins the server's certificate by its SHA-256 needs no roots and refuses any other
//! certificate; the pin decides trust but the `CertificateVerify` signature is still checked;
//! a server that pins client certificates authenticates them and resumes their sessions only
//! while its verifier still trusts the pin.

use core_hash::{OsRandom, Sha256};
use pki_types::UnixTime;
use tls::msgs::{AlertDescription, SignatureScheme};
use tls::ticket::{MemoryTicketStore, TicketKey};
use tls::verify::{self, CertVerifier, Peer};
use tls::{
    Buffers, CertificateError, CertifiedKey, ClientAuth, ClientConfig, Connection, Error,
    PeerMisbehaved, ServerConfig, ServerTickets, SigningKey,
};

macro_rules! data {
    ($f:literal) => {
        include_bytes!(concat!("data/", $f))
    };
}

/// Trusts exactly the end-entity certificate whose SHA-256 is `sha256`, of a client or a server.
#[derive(Debug)]
struct Pin {
    sha256: [u8; 32],
    client: bool,
    /// Whether sessions it authenticated may resume (`trusts`).
    resumable: bool,
}

impl CertVerifier for Pin {
    fn verify(
        &self,
        end_entity: &[u8],
        _intermediates: &[&[u8]],
        peer: Peer<'_>,
        _now: UnixTime,
        scheme: SignatureScheme,
        message: &[u8],
        signature: &[u8],
    ) -> Result<[u8; 32], Error> {
        if Sha256::digest(end_entity) != self.sha256 || matches!(peer, Peer::Client) != self.client
        {
            return Err(Error::InvalidCertificate(CertificateError::UnknownIssuer));
        }
        verify::verify_signature(end_entity, scheme, message, signature)?;
        Ok(self.sha256)
    }

    fn trusts(&self, digest: &[u8; 32]) -> bool {
        self.resumable && *digest == self.sha256
    }
}

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

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
    let data = from.pending_send().to_vec();
    from.sent(data.len());
    to.receive_space()[..data.len()].copy_from_slice(&data);
    to.received(data.len())
}

/// Runs a handshake; the first error and whose it was (`true`: the server's).
fn run(
    c: ClientConfig<'static>,
    s: ServerConfig<'static>,
) -> Result<tls::Negotiated, (bool, Error)> {
    let mut c = Connection::client(c, "localhost", bufs(), &mut OsRandom).unwrap();
    let mut s = Connection::server(s, bufs(), &mut OsRandom).unwrap();
    for _ in 0..4 {
        pump(&mut c, &mut s).map_err(|e| (true, e))?;
        pump(&mut s, &mut c).map_err(|e| (false, e))?;
    }
    assert!(!c.is_handshaking() && !s.is_handshaking());
    Ok(s.negotiated().unwrap())
}

/// The Ed25519 server of `data/server.der`, with `key` (its own unless told otherwise).
fn server(key: &'static [u8]) -> ServerConfig<'static> {
    let key = leak(SigningKey::from_pkcs8_der(key).unwrap());
    ServerConfig::new(leak([CertifiedKey { chain: leak([&data!("server.der")[..]]), key }]))
}

/// A client without roots, trusting what `verifier` trusts.
fn client(verifier: &'static Pin) -> ClientConfig<'static> {
    ClientConfig { verifier: Some(verifier), ..ClientConfig::new(&[], &tls::SystemClock) }
}

#[test]
fn a_pinned_server_certificate_needs_no_roots() {
    let pin =
        leak(Pin { sha256: Sha256::digest(data!("server.der")), client: false, resumable: false });
    let n = run(client(pin), server(data!("server.key.der"))).unwrap();
    assert_eq!(n.scheme, SignatureScheme::ED25519);
    // Another certificate is refused, with the alert the verifier's error calls for.
    let other = leak(Pin { sha256: Sha256::digest(data!("server-p256.der")), ..*pin });
    let err = run(client(other), server(data!("server.key.der"))).unwrap_err();
    assert_eq!(err, (false, Error::InvalidCertificate(CertificateError::UnknownIssuer)));
    assert_eq!(err.1.alert(), Some(AlertDescription::UNKNOWN_CA));
}

/// The pin is trust in the certificate, not a signature: a server signing with a key that is
/// not its certificate's is refused.
#[test]
fn a_pinned_certificate_still_needs_its_keys_signature() {
    let pin =
        leak(Pin { sha256: Sha256::digest(data!("server.der")), client: false, resumable: false });
    let err = run(client(pin), server(data!("server-p256.key.der"))).unwrap_err();
    assert_eq!(err, (false, Error::PeerMisbehaved(PeerMisbehaved::BadSignature)));
}

/// A server pinning client certificates: authenticated without roots, and resumed only while
/// the verifier trusts the pin (the default `trusts` does not).
#[test]
fn a_server_pins_client_certificates_and_resumes_only_what_it_still_trusts() {
    let cert = data!("client-p256.der");
    for resumable in [true, false] {
        let pin = leak(Pin { sha256: Sha256::digest(cert), client: true, resumable });
        let store = leak(MemoryTicketStore::default());
        let key = leak(TicketKey::new(&[9; 32]).unwrap());
        let server_pin = leak(Pin {
            sha256: Sha256::digest(data!("server.der")),
            client: false,
            resumable: false,
        });
        let c = ClientConfig {
            client_cert: Some(CertifiedKey {
                chain: leak([&cert[..]]),
                key: leak(SigningKey::from_pkcs8_der(data!("client-p256.key.der")).unwrap()),
            }),
            tickets: Some(store),
            ..client(server_pin)
        };
        let s = ServerConfig {
            client_auth: Some(ClientAuth {
                verifier: Some(pin),
                ..ClientAuth::new(&[], &tls::SystemClock)
            }),
            tickets: Some(ServerTickets::new(key, &tls::SystemClock)),
            ..server(data!("server.key.der"))
        };
        let first = run(c, s).unwrap();
        assert_eq!(
            (first.resumed, first.client_auth),
            (false, Some(SignatureScheme::ECDSA_SECP256R1_SHA256))
        );
        let second = run(c, s).unwrap();
        assert_eq!(second.resumed, resumable);
        assert_eq!(second.client_auth, Some(SignatureScheme::ECDSA_SECP256R1_SHA256));
    }
}

/// Trusts any chain and checks no signature: the most a verifier can wave through.
#[derive(Debug)]
struct AnyChain;

impl CertVerifier for AnyChain {
    fn verify(
        &self,
        _end_entity: &[u8],
        _intermediates: &[&[u8]],
        _peer: Peer<'_>,
        _now: UnixTime,
        _scheme: SignatureScheme,
        _message: &[u8],
        _signature: &[u8],
    ) -> Result<[u8; 32], Error> {
        Ok([0; 32])
    }
}

/// RFC 8446 §4.4.2.4, RFC 5280 §4.2.1.3: a key whose keyUsage lacks digitalSignature may not
/// sign a `CertificateVerify`, and the connection checks it before the verifier, so not even a
/// verifier that trusts everything lets one through.
#[test]
fn no_verifier_accepts_a_key_usage_that_forbids_signing() {
    let key = leak(SigningKey::from_pkcs8_der(data!("server-p256.key.der")).unwrap());
    let server =
        |cert: &'static [u8]| ServerConfig::new(leak([CertifiedKey { chain: leak([cert]), key }]));
    let client =
        ClientConfig { verifier: Some(&AnyChain), ..ClientConfig::new(&[], &tls::SystemClock) };
    let err = run(client, server(data!("server-p256-ku-encipherment.der"))).unwrap_err();
    assert_eq!(err, (false, Error::InvalidCertificate(CertificateError::KeyUsageForbidsSigning)));
    assert_eq!(err.1.alert(), Some(AlertDescription::UNSUPPORTED_CERTIFICATE));
    let client =
        ClientConfig { verifier: Some(&AnyChain), ..ClientConfig::new(&[], &tls::SystemClock) };
    assert!(run(client, server(data!("server-p256.der"))).is_ok());
}
