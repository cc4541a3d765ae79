//! Writes the seed corpora of the EC, RSA and TLS targets into `fuzz/corpus/<target>/`, laid
//! out as each target reads its input, from the test vectors (RFC 7748, RFC 8032, RFC 6979,
//! RFC 8448, core-rsa's and tls's test data) and from deterministic in-memory handshakes
//! (the TLS 1.2 ones against rustls, until Halite has a TLS 1.2 server), and records sealed
//! by rustls-halite for `rustls_records`.
//! Run from `fuzz/`: `cargo +nightly run --example seeds`. The output is checked in; rerun it
//! only when a target's input layout changes.

use std::fs;
use std::path::Path;
use std::sync::Arc;

use core_ec::{ed25519, p256, p384, p521};
use halite_fuzz::FixedRandom;
use halite_fuzz::rustls_records::{SUITES, sides};
use halite_fuzz::tls_peer::{
    psk_small_records, with_client_hello, with_client_hello_config, with_client12_hello,
    with_server,
};
use rustls::crypto::cipher::{OutboundChunks, OutboundPlainMessage};
use rustls::{ContentType, ProtocolVersion};
use tls::{Connection, Want};

fn unhex(s: &str) -> Vec<u8> {
    let s: Vec<u8> = s.bytes().filter(u8::is_ascii_hexdigit).collect();
    s.chunks(2).map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap()).collect()
}

fn write(target: &str, name: &str, parts: &[&[u8]]) {
    let dir = Path::new("corpus").join(target);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(name), parts.concat()).unwrap();
}

/// The content of the first TLV in `der` and what follows it (short and long lengths).
fn tlv(der: &[u8]) -> (&[u8], &[u8]) {
    let (len, head) = match der[1] {
        n if n < 0x80 => (usize::from(n), 2),
        0x81 => (usize::from(der[2]), 3),
        _ => (usize::from(der[2]) << 8 | usize::from(der[3]), 4),
    };
    (&der[head..head + len], &der[head + len..])
}

/// The SEC1 `ECPrivateKey` inside a PKCS#8 `PrivateKeyInfo`.
fn sec1_of_pkcs8(der: &[u8]) -> Vec<u8> {
    let (seq, _) = tlv(der);
    let (_, rest) = tlv(seq); // version
    let (_, rest) = tlv(rest); // algorithm
    let (key, _) = tlv(rest);
    key.to_vec()
}

macro_rules! nist_decode {
    ($curve:ident, $name:literal, $pick:expr, $scalar:expr) => {{
        let key = $curve::SigningKey::from_bytes(&unhex($scalar)).unwrap();
        let public = key.verifying_key();
        let sig = key.sign(b"sample");
        let mut spki = [0u8; 200];
        let n = public.to_spki_der(&mut spki).unwrap();
        let mut pkcs8 = [0u8; 300];
        let m = key.secret_key().to_pkcs8_der(&mut pkcs8).unwrap();
        let pick = |which: u8| [which * 4 + $pick];
        write("ec_decode", concat!($name, "-sec1"), &[&pick(0), &public.to_sec1_bytes()]);
        write(
            "ec_decode",
            concat!($name, "-sec1-compressed"),
            &[&pick(0), &public.to_sec1_compressed()],
        );
        write("ec_decode", concat!($name, "-sig-der"), &[&pick(1), sig.to_der().as_ref()]);
        write("ec_decode", concat!($name, "-sig-fixed"), &[&pick(2), &sig.to_bytes()]);
        write("ec_decode", concat!($name, "-spki"), &[&pick(3), &spki[..n]]);
        write("ec_decode", concat!($name, "-pkcs8"), &[&pick(4), &pkcs8[..m]]);
        write(
            "ec_decode",
            concat!($name, "-sec1-private"),
            &[&pick(5), &sec1_of_pkcs8(&pkcs8[..m])],
        );
    }};
}

fn ec() {
    // RFC 6979 A.2.5 (P-256), A.2.6 (P-384) and A.2.7 (P-521) private keys.
    let d256 = "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721";
    let d384 = "6B9D3DAD2E1B8C1C05B19875B6659F4DE23C3B667BF297BA9AA47740787137D8\
                96D5724E4C70A825F872C9EA60D2EDF5";
    let d521 = "00FAD06DAA62BA3B25D2FB40133DA757205DE67F5BB0018FEE8C86E1B68C7E75CA\
                A896EB32F1F47C70855836A6D16FCC1466F6D8FBEC67DB89EC0C08B0E996B83538";
    nist_decode!(p256, "p256", 0, d256);
    nist_decode!(p384, "p384", 1, d384);
    nist_decode!(p521, "p521", 2, d521);
    // RFC 8032 §7.1 test 2: key and signature.
    let public = unhex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c");
    let sig = unhex(
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da\
         085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    );
    write("ec_decode", "ed25519-key", &[&[3], &public]);
    write("ec_decode", "ed25519-sig", &[&[7], &sig]);

    // ecdsa_ring: curve, mode, implementation, flip position, scalar, message length,
    // message (, public key length, key, signature).
    for (curve, d, len) in [(0u8, d256, 32), (1, d384, 48)] {
        let d = unhex(d);
        let msg = b"sample";
        for mode in [0u8, 1, 3] {
            let name = format!("p{}-mode{mode}", if curve == 0 { 256 } else { 384 });
            write("ecdsa_ring", &name, &[&[curve, mode, mode, 7, 1], &d[..len], &[6], msg]);
        }
    }
    let key = p256::SigningKey::from_bytes(&unhex(d256)).unwrap();
    let public = key.verifying_key().to_sec1_bytes();
    let sig = key.sign(b"test").to_bytes();
    write(
        "ecdsa_ring",
        "p256-given",
        &[&[0, 5, 1, 0, 0], &unhex(d256), &[4], b"test", &[public.len() as u8], &public, &sig],
    );

    // ed25519_ring: mode, implementation, flip position, seed, message length, message (,
    // key, signature).
    let seed = unhex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb");
    for mode in [0u8, 1, 3] {
        write(
            "ed25519_ring",
            &format!("rfc8032-2-mode{mode}"),
            &[&[mode, mode, 9, 0], &seed, &[1, 0x72]],
        );
    }
    write(
        "ed25519_ring",
        "rfc8032-2-given",
        &[&[4, 1, 0, 0], &seed, &[1, 0x72], &public_of(&seed), &sig_of(&seed)],
    );
    let small_order = [0u8; 32];
    write(
        "ed25519_ring",
        "small-order-key",
        &[&[4, 2, 0, 0], &seed, &[1, 0x72], &small_order, &[0u8; 64]],
    );

    // x25519: scalar, u, implementation. RFC 7748 §5.2, and low-order and non-canonical u.
    write(
        "x25519",
        "rfc7748-1",
        &[
            &unhex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"),
            &unhex("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c"),
        ],
    );
    write(
        "x25519",
        "rfc7748-2",
        &[
            &unhex("4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d"),
            &unhex("e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493"),
            &[1],
        ],
    );
    let k = [0x42u8; 32];
    write("x25519", "u-zero", &[&k, &[0; 32]]);
    write("x25519", "u-one", &[&k, &[1], &[0; 31]]);
    write(
        "x25519",
        "u-p",
        &[&k, &unhex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"), &[1]],
    );
    write(
        "x25519",
        "u-order-8",
        &[&k, &unhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"), &[2]],
    );
    write("x25519", "u-top-bit", &[&k, &[9], &[0; 30], &[0x80]]);
}

fn public_of(seed: &[u8]) -> [u8; 32] {
    ed25519::SigningKey::from_seed(seed.try_into().unwrap()).verifying_key().to_bytes()
}

fn sig_of(seed: &[u8]) -> [u8; 64] {
    ed25519::SigningKey::from_seed(seed.try_into().unwrap()).sign(&[0x72]).to_bytes()
}

fn rsa() {
    let data = |name: &str| fs::read(format!("../crates/core-rsa/tests/data/{name}")).unwrap();
    write("rsa_decode", "rsa2048-public-pkcs1", &[&[0], &data("rsa2048_e65537.pub.pkcs1.der")]);
    write("rsa_decode", "rsa2048-spki", &[&[1], &data("rsa2048_e3.spki.der")]);
    write("rsa_decode", "rsa2048-private-pkcs1", &[&[2], &data("rsa2048_e3.pkcs1.der")]);
    write("rsa_decode", "rsa2048-pkcs8", &[&[3], &data("rsa2048_e65537.pkcs8.der")]);

    // rsa_ops: mode, hash (index), salt byte, flip position, rng seed, message length,
    // message, rest.
    let msg = data("message.txt");
    let m = [msg.len() as u8];
    let head = |mode: u8, hash: u8, salt: u8| [mode, hash, salt, 3, 1, 1, 2, 3, 4, 5, 6, 7, 8];
    write(
        "rsa_ops",
        "verify-pkcs1-sha256",
        &[&head(0, 2, 0), &m, &msg, &data("rsa2048_e65537.sha256.sig")],
    );
    write(
        "rsa_ops",
        "verify-pss-sha256",
        &[&head(1, 2, 0x80), &m, &msg, &data("rsa2048_e65537.pss-sha256.sig")],
    );
    let key = core_rsa::PrivateKey::from_pkcs8_der(&data("rsa2048_e65537.pkcs8.der")).unwrap();
    let mut ct = [0u8; 256];
    let oaep = core_rsa::Oaep::new(core_rsa::HashAlg::Sha256);
    key.public_key()
        .encrypt_oaep(oaep, b"label", b"secret", &mut FixedRandom::new(5), &mut ct)
        .unwrap();
    write("rsa_ops", "decrypt-oaep-sha256", &[&head(2, 2, 0), &[5], b"label", &ct]);
    let mut ct = [0u8; 256];
    let mut em = [0u8; 256];
    em[1] = 2;
    em[2..200].fill(0x5a);
    em[201..].fill(7);
    key.public_key().raw_public(&em, &mut ct).unwrap();
    write("rsa_ops", "decrypt-pkcs1", &[&head(3, 2, 0), &[0], &ct]);
    write("rsa_ops", "encrypt-oaep", &[&head(4, 2, 0), &[5], b"label", b"secret"]);
    write("rsa_ops", "encrypt-oaep-flip", &[&head(4, 1, 1), &[0], b"secret"]);
    write("rsa_ops", "sign-pkcs1", &[&head(5, 2, 0), &m, &msg]);
    write("rsa_ops", "sign-pss-flip", &[&head(5, 4, 3), &m, &msg]);

    // rsa_ring: key, scheme, mode, implementation, flip position, rng seed, message length,
    // message, rest.
    for (key, scheme, mode) in [(0u8, 0u8, 0u8), (1, 3, 0), (2, 1, 1), (5, 5, 2)] {
        let name = format!("key{key}-scheme{scheme}-mode{mode}");
        let head = [key, scheme, mode, key, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8];
        write("rsa_ring", &name, &[&head, &m, &msg]);
    }
    write(
        "rsa_ring",
        "given-pkcs1-sha256",
        &[
            &[0, 0, 3, 1, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8],
            &m,
            &msg,
            &data("rsa2048_e65537.sha256.sig"),
        ],
    );
}

/// Moves what `from` has to send into `to`, returning the bytes.
fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Vec<u8> {
    let bytes = from.pending_send().to_vec();
    from.sent(bytes.len());
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        let space = to.receive_space();
        let n = rest.len().min(space.len());
        space[..n].copy_from_slice(&rest[..n]);
        to.received(n).unwrap();
        rest = &rest[n..];
        let mut out = [0u8; 256];
        while to.want() == Want::Read {
            to.read(&mut out).unwrap();
        }
    }
    bytes
}

fn tls() {
    with_client_hello(|client, hello| {
        with_server(|server| {
            let space = server.receive_space();
            space[..hello.len()].copy_from_slice(hello);
            server.received(hello.len()).unwrap();
            let server_flight = pump(server, client);
            let client_flight = pump(client, server);
            assert!(!client.is_handshaking() && !server.is_handshaking(), "handshake completes");
            client.write(b"GET / HTTP/1.1\r\n\r\n").unwrap();
            client.close();
            let client_data = pump(client, server);
            server.write(b"HTTP/1.1 200 OK\r\n\r\n").unwrap();
            server.key_update().unwrap();
            server.write(b"after a key update").unwrap();
            let server_data = pump(server, client);

            write("tls_server", "client-hello", &[&[0], hello]);
            write("tls_server", "client-hello-pieces", &[&[5], hello]);
            write("tls_server", "client-all", &[&[0], hello, &client_flight, &client_data]);
            write("tls_client", "server-flight", &[&[0], &server_flight]);
            write("tls_client", "server-flight-pieces", &[&[11], &server_flight]);
            write("tls_client", "server-all", &[&[0], &server_flight, &server_data]);
            // The plaintext handshake messages: each record's body after the 5-byte header.
            write("tls_codec", "client-hello", &[&hello[5..]]);
            let server_hello_len =
                usize::from(server_flight[3]) << 8 | usize::from(server_flight[4]);
            write("tls_codec", "server-hello", &[&server_flight[5..5 + server_hello_len]]);
        });
    });
    // A client offering the server's external PSK and small record limits: the server takes
    // the PSK (no certificate) and answers record_size_limit, so mutations start there.
    with_client_hello_config(psk_small_records, |client, hello| {
        with_server(|server| {
            let space = server.receive_space();
            space[..hello.len()].copy_from_slice(hello);
            server.received(hello.len()).unwrap();
            let server_flight = pump(server, client);
            let client_flight = pump(client, server);
            assert!(!client.is_handshaking() && !server.is_handshaking(), "handshake completes");
            assert!(server.negotiated().is_some_and(|n| n.external_psk), "the PSK is taken");
            client.write(&[b'x'; 600]).unwrap();
            client.close();
            let client_data = pump(client, server);
            server.write(&[b'y'; 300]).unwrap();
            let server_data = pump(server, client);
            write("tls_server", "client-all-psk", &[&[0], hello, &client_flight, &client_data]);
            // The top bit of the first byte makes `tls_client` use this client's configuration.
            write("tls_client", "server-flight-psk", &[&[0x80], &server_flight]);
            write("tls_client", "server-all-psk", &[&[0x80 | 7], &server_flight, &server_data]);
        });
    });
    // RFC 8448 §3: EncryptedExtensions and the client's Finished.
    write(
        "tls_codec",
        "rfc8448-encrypted-extensions",
        &[&unhex(
            "080000240022000a00140012001d00170018001901000101010201030104001c0002400100000000",
        )],
    );
    write(
        "tls_codec",
        "rfc8448-finished",
        &[&unhex("14000020a8ec436d677634ae525ac1fcebe11a039ec17694fac6e98527b642f2edd5ce61")],
    );
    write("tls_codec", "key-update", &[&[24, 0, 0, 1, 1]]);
}

/// A rustls server speaking TLS 1.2 only, with the certificate and PKCS#8 key in
/// `crates/tls/tests/data/` named `cert` and `key`, and tickets on or off.
fn rustls12(cert: &str, key: &str, tickets: bool) -> rustls::ServerConnection {
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
    let data = |name: &str| fs::read(format!("../crates/tls/tests/data/{name}")).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS12])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![CertificateDer::from(data(cert))],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(data(key))),
        )
        .unwrap();
    if tickets {
        config.ticketer = rustls::crypto::ring::Ticketer::new().unwrap();
    }
    rustls::ServerConnection::new(Arc::new(config)).unwrap()
}

/// Hands `bytes` to the rustls server and returns everything it then has to send.
fn to_rustls(server: &mut rustls::ServerConnection, bytes: &[u8]) -> Vec<u8> {
    let mut rest = bytes;
    while !rest.is_empty() {
        server.read_tls(&mut rest).unwrap();
        server.process_new_packets().unwrap();
    }
    let mut out = Vec::new();
    while server.wants_write() {
        server.write_tls(&mut out).unwrap();
    }
    out
}

/// Hands `bytes` to `client`, reading any application data, and returns what it then sends.
fn to_client(client: &mut Connection<'_, '_>, bytes: &[u8]) -> Vec<u8> {
    let mut rest = bytes;
    while !rest.is_empty() {
        let space = client.receive_space();
        let n = rest.len().min(space.len());
        space[..n].copy_from_slice(&rest[..n]);
        client.received(n).unwrap();
        rest = &rest[n..];
        let mut out = [0u8; 256];
        while client.want() == Want::Read {
            client.read(&mut out).unwrap();
        }
    }
    let out = client.pending_send().to_vec();
    client.sent(out.len());
    out
}

/// The `tls12_client` seeds: the rustls server's flights (ServerHello … ServerHelloDone;
/// ChangeCipherSpec, Finished and, with tickets, NewSessionTicket; application data) for the
/// deterministic TLS 1.2 client, offering TLS 1.2 alone or with TLS 1.3 (the top bit of the
/// first byte), with the Ed25519 and RSA certificates. The handshake messages also seed
/// `tls_codec`.
fn tls12() {
    let identities = [
        ("ed25519", "server.der", "server.key.der"),
        ("rsa", "server-rsa.der", "server-rsa.key.der"),
    ];
    for (name, cert, key) in identities {
        for also_tls13 in [false, true] {
            with_client12_hello(also_tls13, |client, hello| {
                let mut server = rustls12(cert, key, name == "rsa");
                let flight1 = to_rustls(&mut server, hello);
                let finished = to_client(client, &flight1);
                let flight2 = to_rustls(&mut server, &finished);
                assert!(to_client(client, &flight2).is_empty());
                assert!(
                    !client.is_handshaking() && !server.is_handshaking(),
                    "handshake completes"
                );
                let n = client.negotiated().unwrap();
                assert_eq!(n.version, tls::msgs::ProtocolVersion::TLSV1_2);
                std::io::Write::write_all(&mut server.writer(), b"HTTP/1.1 200 OK\r\n\r\n")
                    .unwrap();
                server.send_close_notify();
                let data = to_rustls(&mut server, &[]);
                to_client(client, &data);
                let (top, v) = if also_tls13 { (0x80, "both") } else { (0, "12") };
                let seed = |s: &str| format!("{name}-{v}-{s}");
                write("tls12_client", &seed("flight1"), &[&[top], &flight1]);
                write("tls12_client", &seed("flight1-pieces"), &[&[top | 11], &flight1]);
                write("tls12_client", &seed("all"), &[&[top], &flight1, &flight2, &data]);
                write(
                    "tls12_client",
                    &seed("all-pieces"),
                    &[&[top | 5], &flight1, &flight2, &data],
                );
                if also_tls13 {
                    return;
                }
                // Each plaintext handshake message of the first flight (one record each, or
                // several in one record), for `tls_codec`.
                let mut records = &flight1[..];
                let mut messages = Vec::new();
                while records.len() >= 5 {
                    let len = usize::from(records[3]) << 8 | usize::from(records[4]);
                    messages.extend_from_slice(&records[5..5 + len]);
                    records = &records[5 + len..];
                }
                let mut rest = &messages[..];
                while rest.len() >= 4 {
                    let len = usize::from(rest[1]) << 16
                        | usize::from(rest[2]) << 8
                        | usize::from(rest[3]);
                    let typ = rest[0];
                    write("tls_codec", &format!("tls12-{name}-type{typ}"), &[&rest[..4 + len]]);
                    rest = &rest[4 + len..];
                }
                write("tls_codec", "tls12-client-hello", &[&hello[5..]]);
            });
        }
    }
}

/// One `rustls_records` record as the target reads it: flags 0, type, version, length, payload.
fn record_bytes(typ: ContentType, version: ProtocolVersion, payload: &[u8]) -> Vec<u8> {
    let len = u16::try_from(payload.len()).unwrap();
    [&[0, u8::from(typ)][..], &u16::from(version).to_be_bytes(), &len.to_be_bytes(), payload]
        .concat()
}

/// Per suite: records Halite sealed at consecutive sequence numbers (a wrap-around for one
/// suite), and one that is not a valid ciphertext.
fn rustls_records() {
    for selector in 0..SUITES {
        let material = [selector.wrapping_mul(29).wrapping_add(1); 32];
        let iv: [u8; 12] = core::array::from_fn(|i| i as u8 ^ selector);
        let seq: u64 = if selector == 2 { u64::MAX } else { u64::from(selector) * 1000 };
        let mut sides = sides(selector, &material, &iv);
        let mut input = [&[selector][..], &material, &iv, &seq.to_be_bytes()].concat();
        let plain: [(ContentType, &[u8]); 3] = [
            (ContentType::ApplicationData, b"GET / HTTP/1.1\r\n\r\n"),
            (ContentType::Handshake, &[0x14, 0, 0, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
            (ContentType::Alert, &[1, 0]),
        ];
        for (i, (typ, payload)) in plain.into_iter().enumerate() {
            let msg = OutboundPlainMessage {
                typ,
                version: ProtocolVersion::TLSv1_2,
                payload: OutboundChunks::Single(payload),
            };
            let sealed = sides.halite.enc.encrypt(msg, seq.wrapping_add(i as u64)).unwrap();
            input.extend(record_bytes(sealed.typ, sealed.version, sealed.payload.as_ref()));
        }
        input.extend(record_bytes(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            &[7; 40],
        ));
        write("rustls_records", &format!("suite{selector}"), &[&input]);
    }
}

fn main() {
    ec();
    rsa();
    tls();
    tls12();
    rustls_records();
    println!("seeds written under corpus/");
}
