//! Halite's HPKE through rustls's traits: seal/open round trips against rustls's aws-lc-rs
//! suites both ways; a handshake with ECH GREASE against a rustls server; and real ECH: a
//! rustls client given an `ECHConfigList` made with a Halite key encrypts its inner
//! `ClientHello`, which is then decrypted from the wire, across Halite and aws-lc-rs both ways.
//! (rustls 0.23 has no ECH server, so the decryption is done here, as a client-facing server
//! would do it; the rustls server then answers the outer hello and the client reports the
//! rejection.)

mod common;

use std::sync::Arc;

use common::{Cert, Side, provider, server_config, server_identity};
use pki_types::ServerName;
use rustls::client::{EchConfig, EchGreaseConfig, EchMode, EchStatus, WebPkiServerVerifier};
use rustls::crypto::CryptoProvider;
use rustls::crypto::aws_lc_rs::hpke as aws;
use rustls::crypto::hpke::{EncapsulatedSecret, Hpke, HpkePrivateKey, HpkePublicKey};
use rustls::pki_types::EchConfigListBytes;
use rustls::version::TLS13;
use rustls::{ClientConfig, ClientConnection, RootCertStore, ServerConnection};
use rustls_halite::hpke as halite;

/// Every suite of rustls's aws-lc-rs provider, with Halite's of the same name.
fn pairs() -> [(&'static dyn Hpke, &'static dyn Hpke); 12] {
    macro_rules! pairs {
        ($($name:ident),*) => { [$((halite::$name as &dyn Hpke, aws::$name as &dyn Hpke)),*] };
    }
    pairs!(
        DH_KEM_X25519_HKDF_SHA256_AES_128,
        DH_KEM_X25519_HKDF_SHA256_AES_256,
        DH_KEM_X25519_HKDF_SHA256_CHACHA20_POLY1305,
        DH_KEM_P256_HKDF_SHA256_AES_128,
        DH_KEM_P256_HKDF_SHA256_AES_256,
        DH_KEM_P256_HKDF_SHA256_CHACHA20_POLY1305,
        DH_KEM_P384_HKDF_SHA384_AES_128,
        DH_KEM_P384_HKDF_SHA384_AES_256,
        DH_KEM_P384_HKDF_SHA384_CHACHA20_POLY1305,
        DH_KEM_P521_HKDF_SHA512_AES_128,
        DH_KEM_P521_HKDF_SHA512_AES_256,
        DH_KEM_P521_HKDF_SHA512_CHACHA20_POLY1305
    )
}

/// Three messages sealed by `sender` to a key pair of `recipient`, opened by `recipient`,
/// plus the one-shot forms; then a forged ciphertext.
fn round_trip(sender: &dyn Hpke, recipient: &dyn Hpke) {
    assert_eq!(sender.suite(), recipient.suite());
    let (pk, sk) = recipient.generate_key_pair().unwrap();
    let info = b"round trip info";
    let (enc, mut sealer) = sender.setup_sealer(info, &pk).unwrap();
    let mut opener = recipient.setup_opener(&enc, info, &sk).unwrap();
    for (i, msg) in [&b""[..], b"second message", &[0x5a; 1000]].into_iter().enumerate() {
        let aad = [i as u8; 7];
        let ct = sealer.seal(&aad, msg).unwrap();
        assert_eq!(ct.len(), msg.len() + 16);
        assert_eq!(opener.open(&aad, &ct).unwrap(), msg, "{:?} message {i}", sender.suite());
    }
    let (enc, ct) = sender.seal(info, b"aad", b"one shot", &pk).unwrap();
    assert_eq!(recipient.open(&enc, info, b"aad", &ct, &sk).unwrap(), b"one shot");
    let mut forged = ct.clone();
    forged[0] ^= 1;
    assert!(recipient.open(&enc, info, b"aad", &forged, &sk).is_err());
    assert!(recipient.open(&enc, b"other info", b"aad", &ct, &sk).is_err());
}

#[test]
fn seal_open_against_aws_lc_rs_both_ways() {
    for (ours, theirs) in pairs() {
        round_trip(ours, theirs);
        round_trip(theirs, ours);
        round_trip(ours, ours);
    }
}

#[test]
fn every_suite_round_trips_and_names_itself() {
    assert_eq!(halite::ALL_SUPPORTED_SUITES.len(), 18);
    for (i, suite) in halite::ALL_SUPPORTED_SUITES.iter().enumerate() {
        round_trip(*suite, *suite);
        assert!(!suite.fips());
        for other in &halite::ALL_SUPPORTED_SUITES[..i] {
            assert_ne!(other.suite(), suite.suite());
        }
    }
    assert_eq!(aws::ALL_SUPPORTED_SUITES.len(), pairs().len(), "every aws-lc-rs suite is paired");
    for (ours, theirs) in pairs() {
        assert_eq!(ours.suite(), theirs.suite());
    }
}

#[test]
fn bad_keys_are_errors() {
    for suite in halite::ALL_SUPPORTED_SUITES {
        let (pk, sk) = suite.generate_key_pair().unwrap();
        let short = HpkePublicKey(pk.0[..pk.0.len() - 1].to_vec());
        assert!(suite.setup_sealer(b"", &short).is_err());
        let (enc, _) = suite.setup_sealer(b"", &pk).unwrap();
        let bad_sk = HpkePrivateKey::from(vec![0u8; sk.secret_bytes().len() + 1]);
        assert!(suite.setup_opener(&enc, b"", &bad_sk).is_err());
        let bad_enc = EncapsulatedSecret(vec![0u8; enc.0.len()]);
        assert!(suite.setup_opener(&bad_enc, b"", &sk).is_err());
    }
}

/// A client config with `provider`, TLS 1.3, trusting the P-256 test root, with `ech`.
fn ech_client(provider: CryptoProvider, ech: EchMode) -> Arc<ClientConfig> {
    let provider = Arc::new(provider);
    let mut roots = RootCertStore::empty();
    roots.add(server_identity(Cert::P256).root).unwrap();
    let verifier = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
        .build()
        .unwrap();
    let config = ClientConfig::builder_with_provider(provider)
        .with_ech(ech)
        .unwrap()
        .with_webpki_verifier(verifier)
        .with_no_client_auth();
    Arc::new(config)
}

fn server() -> Arc<rustls::ServerConfig> {
    Arc::new(server_config(provider(Side::Ring), &TLS13, Cert::P256, None).unwrap())
}

/// ECH GREASE with each Halite suite: the client sends a fake ECH extension sealed to a
/// placeholder key, and the handshake with a rustls server (which ignores it) completes.
#[test]
fn ech_grease_handshake() {
    for suite in halite::ALL_SUPPORTED_SUITES {
        let (placeholder, _) = suite.generate_key_pair().unwrap();
        let grease = EchMode::Grease(EchGreaseConfig::new(*suite, placeholder));
        let client = ech_client(provider(Side::Halite), grease);
        let (mut c, mut s) = common::handshake(&client, &server()).unwrap();
        assert_eq!(c.ech_status(), EchStatus::Grease, "{suite:?}");
        common::exchange(&mut c, &mut s).unwrap();
    }
}

/// One `ECHConfig` (draft-ietf-tls-esni-18 §4, version 0xfe0d) for `suite` and `public_key`,
/// with config id 7 and no extensions.
fn ech_config(suite: &dyn Hpke, public_key: &[u8], public_name: &str) -> Vec<u8> {
    let s = suite.suite();
    let u16s = |n: usize| u16::try_from(n).unwrap().to_be_bytes();
    let mut contents = vec![7];
    contents.extend(u16::from(s.kem).to_be_bytes());
    contents.extend(u16s(public_key.len()));
    contents.extend(public_key);
    contents.extend(u16s(4));
    contents.extend(u16::from(s.sym.kdf_id).to_be_bytes());
    contents.extend(u16::from(s.sym.aead_id).to_be_bytes());
    contents.push(0); // maximum_name_length
    contents.push(public_name.len() as u8);
    contents.extend(public_name.as_bytes());
    contents.extend([0, 0]); // extensions
    let mut config = vec![0xfe, 0x0d];
    config.extend(u16s(contents.len()));
    config.extend(contents);
    config
}

/// A byte cursor over the `ClientHello`.
struct Reader<'a>(&'a [u8], usize);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        let out = &self.0[self.1..self.1 + n];
        self.1 += n;
        out
    }
    fn u8(&mut self) -> usize {
        self.take(1)[0] as usize
    }
    fn u16(&mut self) -> usize {
        let b = self.take(2);
        usize::from(u16::from_be_bytes([b[0], b[1]]))
    }
}

/// The parts of an outer `ClientHello`'s `encrypted_client_hello` extension, and the
/// `ClientHelloOuterAAD` (the hello with the payload zeroed).
struct OuterEch {
    config_id: u8,
    kdf_aead: [usize; 2],
    enc: Vec<u8>,
    payload: Vec<u8>,
    aad: Vec<u8>,
}

/// Finds the ECH extension in the first record `flight` holds (a `ClientHello`).
fn outer_ech(flight: &[u8]) -> OuterEch {
    assert_eq!(flight[0], 22, "a handshake record");
    let mut hs = Reader(&flight[5..], 0);
    assert_eq!(hs.u8(), 1, "a ClientHello");
    let len = hs.u16() << 8 | hs.u8();
    let body = hs.take(len);
    let mut r = Reader(body, 0);
    r.take(2 + 32);
    let n = r.u8();
    r.take(n);
    let n = r.u16();
    r.take(n);
    let n = r.u8();
    r.take(n);
    let end = r.u16() + r.1;
    while r.1 < end {
        let (ty, len) = (r.u16(), r.u16());
        if ty != 0xfe0d {
            r.take(len);
            continue;
        }
        assert_eq!(r.u8(), 0, "an outer ECH extension");
        let kdf_aead = [r.u16(), r.u16()];
        let config_id = r.u8() as u8;
        let n = r.u16();
        let enc = r.take(n).to_vec();
        let n = r.u16();
        let start = r.1;
        let payload = r.take(n).to_vec();
        let mut aad = body.to_vec();
        aad[start..start + n].fill(0);
        return OuterEch { config_id, kdf_aead, enc, payload, aad };
    }
    panic!("no encrypted_client_hello extension");
}

/// A rustls client with `client_suite` and an `ECHConfigList` for a key of `server_suite`:
/// its `ClientHelloInner`, sealed on the wire, opens with `server_suite` and names the real
/// server, which the outer hello does not. The rustls server (without ECH) then completes the
/// outer handshake for the public name, and the client reports that ECH was rejected.
fn real_ech(client_suite: &'static dyn Hpke, server_suite: &'static dyn Hpke) {
    let (pk, sk) = server_suite.generate_key_pair().unwrap();
    let config = ech_config(server_suite, &pk.0, "localhost");
    let mut list = u16::try_from(config.len()).unwrap().to_be_bytes().to_vec();
    list.extend(&config);
    let ech = EchConfig::new(EchConfigListBytes::from(list), &[client_suite]).unwrap();
    let client = ech_client(provider(Side::Halite), EchMode::Enable(ech));
    let name = ServerName::try_from("inner.example").unwrap();
    let mut c = ClientConnection::new(client, name).unwrap();

    let mut flight = Vec::new();
    while c.wants_write() {
        c.write_tls(&mut flight).unwrap();
    }
    let outer = outer_ech(&flight);
    let s = client_suite.suite().sym;
    assert_eq!(outer.config_id, 7);
    assert_eq!(
        outer.kdf_aead,
        [usize::from(u16::from(s.kdf_id)), usize::from(u16::from(s.aead_id))]
    );
    let mut info = b"tls ech\0".to_vec();
    info.extend(&config);
    let enc = EncapsulatedSecret(outer.enc);
    let inner = server_suite.open(&enc, &info, &outer.aad, &outer.payload, &sk).unwrap();
    assert_eq!(inner[..2], [3, 3], "EncodedClientHelloInner starts with legacy_version");
    let has = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
    assert!(has(&inner, b"inner.example"), "the inner hello names the real server");
    assert!(!has(&flight, b"inner.example"), "the outer hello does not");
    let mut forged = outer.aad.clone();
    forged[2] ^= 1;
    assert!(server_suite.open(&enc, &info, &forged, &outer.payload, &sk).is_err());

    // The outer handshake goes on with a server that does not do ECH.
    let mut srv = ServerConnection::new(server()).unwrap();
    let mut rd = flight.as_slice();
    while !rd.is_empty() {
        srv.read_tls(&mut rd).unwrap();
    }
    srv.process_new_packets().unwrap();
    let mut result = Ok(0);
    for _ in 0..4 {
        result =
            common::transfer(&mut srv, &mut c).and_then(|_| common::transfer(&mut c, &mut srv));
        if result.is_err() {
            break;
        }
    }
    let err = result.expect_err("a rejected ECH must not complete silently");
    assert!(err.contains("ServerRejectedEncryptedClientHello"), "{err}");
}

#[test]
fn real_ech_client_hello_opens_across_providers() {
    for (ours, theirs) in pairs() {
        real_ech(ours, ours);
        real_ech(ours, theirs);
        real_ech(theirs, ours);
    }
}
