//! Defects BoringSSL's test suite (BoGo, `cargo xtask bogo`) found, each kept here as a test of
//! our own so that CI checks them without BoringSSL: the messages are built by hand, as the
//! runner's misbehaving peer sends them.

#![allow(clippy::doc_markdown)] // protocol message names are prose here

use core_hash::OsRandom;
#[cfg(any(feature = "server", feature = "tls12"))]
use tls::PeerMisbehaved;
use tls::key_schedule::HashAlg;
use tls::msgs::{AlertDescription, InvalidMessage};
#[cfg(feature = "tls12")]
use tls::msgs::{NamedGroup, ProtocolVersion};
use tls::{Buffers, ClientConfig, Connection, Error, ExternalPsk};
#[cfg(feature = "server")]
use tls::{ServerConfig, ServerPsks};

const PSK: ExternalPsk<'static> =
    ExternalPsk { identity: b"bogo", key: &[7; 32], hash: HashAlg::Sha256 };

fn bufs() -> Buffers<'static> {
    Buffers {
        received: Vec::leak(vec![0; 17_000]),
        send: Vec::leak(vec![0; 17_000]),
        handshake: Vec::leak(vec![0; 17_000]),
    }
}

fn client() -> Connection<'static, 'static> {
    let config =
        ClientConfig { external_psk: Some(&PSK), ..ClientConfig::new(&[], &tls::SystemClock) };
    Connection::client(config, "bogo", bufs(), &mut OsRandom).unwrap()
}

#[cfg(feature = "server")]
fn server() -> Connection<'static, 'static> {
    let psks = Some(&ServerPsks { keys: &[PSK], psk_ke: false });
    let config = ServerConfig { psks, ..ServerConfig::new(&[]) };
    Connection::server(config, bufs(), &mut OsRandom).unwrap()
}

fn feed(to: &mut Connection<'_, '_>, data: &[u8]) -> Result<(), Error> {
    to.receive_space()[..data.len()].copy_from_slice(data);
    to.received(data.len())
}

#[cfg(feature = "server")]
fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
    let data = from.pending_send().to_vec();
    from.sent(data.len());
    feed(to, &data)
}

/// A plaintext handshake record holding `msg`.
fn handshake_record(msg: &[u8]) -> Vec<u8> {
    let mut r = vec![22, 3, 3];
    r.extend_from_slice(&(msg.len() as u16).to_be_bytes());
    r.extend_from_slice(msg);
    r
}

/// A handshake message of type `typ` around `body`.
fn handshake(typ: u8, body: &[u8]) -> Vec<u8> {
    let mut m = vec![typ];
    m.extend_from_slice(&(body.len() as u32).to_be_bytes()[1..]);
    m.extend_from_slice(body);
    m
}

/// The alert a connection queued as its last plaintext record.
fn plaintext_alert(conn: &Connection<'_, '_>) -> Option<AlertDescription> {
    let out = conn.pending_send();
    let n = out.len();
    (n >= 7 && out[n - 7] == 21).then(|| AlertDescription(out[n - 1]))
}

/// The legacy_session_id of the ClientHello record a client queued.
fn session_id(client_hello_record: &[u8]) -> Vec<u8> {
    let at = 5 + 4 + 2 + 32;
    let n = client_hello_record[at] as usize;
    client_hello_record[at + 1..at + 1 + n].to_vec()
}

/// RFC 8446 §4 and §6.2: a handshake message of a type TLS 1.3 does not define (the runner adds
/// 42 to the real type; 0 is TLS 1.2's HelloRequest) is an unexpected message, not an illegal
/// parameter.
#[cfg(feature = "server")]
#[test]
fn unknown_handshake_type_is_an_unexpected_message() {
    for typ in [0u8, 2 + 42, 20 + 42] {
        let mut c = client();
        let n = c.pending_send().len();
        c.sent(n);
        let r = feed(&mut c, &handshake_record(&handshake(typ, &[0; 8])));
        assert_eq!(r, Err(Error::PeerMisbehaved(PeerMisbehaved::UnexpectedMessage)), "{typ}");
        assert_eq!(plaintext_alert(&c), Some(AlertDescription::UNEXPECTED_MESSAGE));
    }
    let mut s = server();
    let r = feed(&mut s, &handshake_record(&handshake(1 + 42, &[0; 8])));
    assert_eq!(r, Err(Error::PeerMisbehaved(PeerMisbehaved::UnexpectedMessage)));
    assert_eq!(plaintext_alert(&s), Some(AlertDescription::UNEXPECTED_MESSAGE));
}

/// RFC 8446 §4.2.2: a cookie is `opaque cookie<1..2^16-1>`; a HelloRetryRequest carrying an
/// empty one is a decode error, not a cookie to echo.
#[test]
fn empty_cookie_in_hello_retry_request_is_a_decode_error() {
    let mut c = client();
    let sid = session_id(c.pending_send());
    let n = c.pending_send().len();
    c.sent(n);
    // HelloRetryRequest: TLS 1.3, AES-128-GCM, asking for P-256 (the client's share is its
    // first group) and carrying an empty cookie.
    let mut body = vec![3, 3];
    body.extend_from_slice(&tls::msgs::HELLO_RETRY_REQUEST_RANDOM);
    body.push(sid.len() as u8);
    body.extend_from_slice(&sid);
    body.extend_from_slice(&[0x13, 0x01, 0]);
    let ext = [
        &[0x00, 0x2b, 0x00, 0x02, 0x03, 0x04][..], // supported_versions: TLS 1.3
        &[0x00, 0x33, 0x00, 0x02, 0x00, 0x17],     // key_share: secp256r1
        &[0x00, 0x2c, 0x00, 0x02, 0x00, 0x00],     // cookie: empty
    ]
    .concat();
    body.extend_from_slice(&(ext.len() as u16).to_be_bytes());
    body.extend_from_slice(&ext);
    let r = feed(&mut c, &handshake_record(&handshake(2, &body)));
    assert!(matches!(r, Err(Error::InvalidMessage(_))), "{r:?}");
    assert_eq!(plaintext_alert(&c), Some(AlertDescription::DECODE_ERROR));
}

/// RFC 8446 §4.6.3: a receiver of several KeyUpdates asking for an update answers once
/// ("an implementation which receives multiple KeyUpdates while it is silent [responds] with a
/// single update"), not once each.
#[cfg(feature = "server")]
#[test]
fn several_key_update_requests_get_one_answer() {
    let (mut c, mut s) = (client(), server());
    while c.is_handshaking() || s.is_handshaking() {
        pump(&mut c, &mut s).unwrap();
        pump(&mut s, &mut c).unwrap();
    }
    for _ in 0..3 {
        s.key_update().unwrap();
    }
    pump(&mut s, &mut c).unwrap();
    // Count the client's answers: each is one record.
    let out = c.pending_send();
    let mut records = 0;
    let mut at = 0;
    while at + 5 <= out.len() {
        records += 1;
        at += 5 + u16::from_be_bytes([out[at + 3], out[at + 4]]) as usize;
    }
    assert_eq!(records, 1, "KeyUpdate answers");
    pump(&mut c, &mut s).unwrap();
    c.write(b"after the update").unwrap();
    pump(&mut c, &mut s).unwrap();
    let mut buf = [0u8; 32];
    let n = s.read(&mut buf).unwrap();
    assert_eq!(&buf[..n], b"after the update");
}

/// RFC 8446 §4.2: "There MUST NOT be more than one extension of the same type in a given
/// extension block" — an extension Halite does not know, repeated, included.
#[cfg(feature = "server")]
#[test]
fn repeated_unknown_extension_in_client_hello_is_refused() {
    let c = client();
    let record = c.pending_send().to_vec();
    // Walk to the ClientHello's extensions block.
    let mut at = 5 + 4 + 2 + 32;
    at += 1 + record[at] as usize; // legacy_session_id
    at += 2 + u16::from_be_bytes([record[at], record[at + 1]]) as usize; // cipher_suites
    at += 1 + record[at] as usize; // legacy_compression_methods
    let ext_len = u16::from_be_bytes([record[at], record[at + 1]]) as usize;
    // Two empty extensions of one unassigned type before the others.
    let extra = [0xfe, 0xfe, 0, 0, 0xfe, 0xfe, 0, 0];
    let mut hello = record[5 + 4..at].to_vec();
    hello.extend_from_slice(&((ext_len + extra.len()) as u16).to_be_bytes());
    hello.extend_from_slice(&extra);
    hello.extend_from_slice(&record[at + 2..]);
    let mut s = server();
    let r = feed(&mut s, &handshake_record(&handshake(1, &hello)));
    assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::DuplicateExtension)));
    assert_eq!(plaintext_alert(&s), Some(AlertDescription::DECODE_ERROR));
}

/// The records in `bytes`: each one's content type and length.
#[cfg(feature = "server")]
fn records(bytes: &[u8]) -> Vec<(u8, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 5 <= bytes.len() {
        let len = u16::from_be_bytes([bytes[at + 3], bytes[at + 4]]) as usize;
        out.push((bytes[at], len));
        at += 5 + len;
    }
    out
}

#[cfg(all(feature = "server", feature = "p384"))]
const CCS: [u8; 6] = [20, 3, 3, 0, 1, 1];

/// RFC 8446 §D.4: a client in middlebox compatibility mode (a non-empty legacy_session_id,
/// which Halite always sends) sends one dummy change_cipher_spec immediately before its
/// second flight: before the second ClientHello after a HelloRetryRequest, else before its
/// encrypted flight, and never again.
// Its retry asks for secp384r1.
#[cfg(all(feature = "server", feature = "p384"))]
#[test]
fn client_sends_change_cipher_spec_before_its_second_flight() {
    // Without a retry: the Finished flight starts with it.
    let (mut c, mut s) = (client(), server());
    assert_eq!(records(c.pending_send()), [(22, c.pending_send().len() - 5)]);
    pump(&mut c, &mut s).unwrap();
    pump(&mut s, &mut c).unwrap();
    assert!(!c.is_handshaking(), "{:?}", c.error());
    assert!(c.pending_send().starts_with(&CCS), "{:?}", records(c.pending_send()));
    assert_eq!(records(c.pending_send()).iter().filter(|r| r.0 == 20).count(), 1);
    pump(&mut c, &mut s).unwrap();
    assert!(!s.is_handshaking(), "{:?}", s.error());

    // With a retry: before the second ClientHello, and not again before Finished.
    let psks = Some(&ServerPsks { keys: &[PSK], psk_ke: false });
    let groups = [tls::msgs::NamedGroup::SECP384R1];
    let config = ServerConfig { psks, groups: &groups, ..ServerConfig::new(&[]) };
    let mut s = Connection::server(config, bufs(), &mut OsRandom).unwrap();
    let mut c = client();
    pump(&mut c, &mut s).unwrap();
    pump(&mut s, &mut c).unwrap();
    assert!(c.pending_send().starts_with(&CCS), "{:?}", records(c.pending_send()));
    pump(&mut c, &mut s).unwrap();
    pump(&mut s, &mut c).unwrap();
    assert!(!c.is_handshaking(), "{:?}", c.error());
    assert!(c.negotiated().unwrap().retried);
    assert!(records(c.pending_send()).iter().all(|r| r.0 != 20), "a second CCS");
    pump(&mut c, &mut s).unwrap();
    assert!(!s.is_handshaking(), "{:?}", s.error());
}

/// A client that fails after the ServerHello sends the change_cipher_spec before its
/// (encrypted) alert, so that a peer expecting it reads the alert.
#[cfg(feature = "server")]
#[test]
fn client_sends_change_cipher_spec_before_an_alert_after_server_hello() {
    let (mut c, mut s) = (client(), server());
    pump(&mut c, &mut s).unwrap();
    let mut flight = s.pending_send().to_vec();
    let n = flight.len();
    s.sent(n);
    // Corrupt the last byte of the flight (the Finished record's tag).
    flight[n - 1] ^= 1;
    assert_eq!(feed(&mut c, &flight), Err(Error::DecryptFailed));
    let out = records(c.pending_send());
    assert_eq!(out.first().map(|r| r.0), Some(20), "{out:?}");
    assert_eq!(out.len(), 2, "{out:?}");
}

/// The length of the first protected record (EncryptedExtensions: Halite sends a record per
/// handshake message) of a server flight.
#[cfg(feature = "server")]
fn encrypted_extensions_len(flight: &[u8]) -> usize {
    records(flight).into_iter().find(|r| r.0 == 23).map(|r| r.1).unwrap()
}

/// RFC 6066 §3: "When resuming a session, the server MUST NOT include a server_name extension
/// in the server hello" — in TLS 1.3 the EncryptedExtensions of a resumed handshake carry no
/// empty server_name (four bytes) where a full handshake's do.
#[cfg(all(feature = "server", feature = "certificates"))]
#[test]
fn server_does_not_acknowledge_server_name_when_resuming() {
    use tls::ticket::{MemoryTicketStore, TicketKey};
    let store: &'static MemoryTicketStore = Box::leak(Box::default());
    let key: &'static TicketKey = Box::leak(Box::new(TicketKey::new(&[9; 32]).unwrap()));
    let ca = Box::leak(Box::new(pki_types::CertificateDer::from(
        &include_bytes!("data/ca-p256.der")[..],
    )));
    let roots: &'static [_] = Box::leak(Box::new([webpki::anchor_from_trusted_cert(ca).unwrap()]));
    let signing: &'static tls::SigningKey = Box::leak(Box::new(
        tls::SigningKey::from_pkcs8_der(include_bytes!("data/server-p256.key.der")).unwrap(),
    ));
    let chain: &'static [&'static [u8]] =
        Box::leak(Box::new([&include_bytes!("data/server-p256.der")[..]]));
    let certs: &'static [tls::CertifiedKey<'static>] =
        Box::leak(Box::new([tls::CertifiedKey { chain, key: signing }]));
    let connect = || {
        let config =
            ClientConfig { tickets: Some(store), ..ClientConfig::new(roots, &tls::SystemClock) };
        let mut c = Connection::client(config, "localhost", bufs(), &mut OsRandom).unwrap();
        let tickets = tls::ServerTickets::new(key, &tls::SystemClock);
        let config = ServerConfig { tickets: Some(tickets), ..ServerConfig::new(certs) };
        let mut s = Connection::server(config, bufs(), &mut OsRandom).unwrap();
        pump(&mut c, &mut s).unwrap();
        let ee = encrypted_extensions_len(s.pending_send());
        for _ in 0..3 {
            pump(&mut s, &mut c).unwrap();
            pump(&mut c, &mut s).unwrap();
        }
        assert!(!c.is_handshaking() && !s.is_handshaking(), "{:?} {:?}", c.error(), s.error());
        assert_eq!(s.server_name(), Some("localhost"));
        (ee, c.negotiated().unwrap().resumed)
    };
    let (full, resumed) = connect();
    assert!(!resumed);
    let (again, resumed) = connect();
    assert!(resumed);
    assert_eq!(again + 4, full, "the resumed EncryptedExtensions still acknowledge SNI");
}

/// A ClientHello record split at its session id and extensions: (version and random, session
/// id, cipher suites and compression methods, extensions block contents).
#[cfg(feature = "server")]
fn split_client_hello(record: &[u8]) -> (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>) {
    let body = &record[5 + 4..];
    let sid_len = body[34] as usize;
    let after_sid = 35 + sid_len;
    let suites_len = u16::from_be_bytes([body[after_sid], body[after_sid + 1]]) as usize;
    let comp_at = after_sid + 2 + suites_len;
    let ext_at = comp_at + 1 + body[comp_at] as usize;
    (
        body[..34].to_vec(),
        body[35..after_sid].to_vec(),
        body[after_sid..ext_at].to_vec(),
        body[ext_at + 2..].to_vec(),
    )
}

/// The ClientHello record of those parts.
#[cfg(feature = "server")]
fn join_client_hello(head: &[u8], sid: &[u8], middle: &[u8], ext: &[u8]) -> Vec<u8> {
    let mut body = head.to_vec();
    body.push(sid.len() as u8);
    body.extend_from_slice(sid);
    body.extend_from_slice(middle);
    body.extend_from_slice(&(ext.len() as u16).to_be_bytes());
    body.extend_from_slice(ext);
    handshake_record(&handshake(1, &body))
}

/// RFC 8446 §4.1.2 and §6: `legacy_session_id<0..32>`; a longer one does not parse, a
/// decode_error (BoGo's Server-TooLongSessionID-TLS13), not an illegal parameter.
#[cfg(feature = "server")]
#[test]
fn session_id_over_32_bytes_is_a_decode_error() {
    let c = client();
    let (head, _, middle, ext) = split_client_hello(c.pending_send());
    let mut s = server();
    let r = feed(&mut s, &join_client_hello(&head, &[7; 33], &middle, &ext));
    assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::BadLength)));
    assert_eq!(plaintext_alert(&s), Some(AlertDescription::DECODE_ERROR));
}

/// RFC 8446 §4.2.11: `PskBinderEntry binders<33..2^16-1>`: a pre_shared_key with no binders
/// at all does not parse (decode_error, BoGo's Resume-Server-NoPSKBinder), while as many
/// binders as identities but not equal in number stays illegal_parameter.
#[cfg(feature = "server")]
#[test]
fn pre_shared_key_without_binders_is_a_decode_error() {
    let c = client();
    let (head, sid, middle, ext) = split_client_hello(c.pending_send());
    // pre_shared_key is last: identities, then binders `00 21 20 <32 bytes>`.
    let psk_at = ext.len() - (2 + 2 + (2 + 2 + 4 + 4) + 2 + 33);
    assert_eq!(ext[psk_at..psk_at + 2], [0, 41], "the layout of the test's ClientHello");
    let identities = &ext[psk_at + 4..ext.len() - 35];
    let mut body = identities.to_vec();
    body.extend_from_slice(&[0, 0]); // no binders
    let mut ext2 = ext[..psk_at].to_vec();
    ext2.extend_from_slice(&[0, 41]);
    ext2.extend_from_slice(&(body.len() as u16).to_be_bytes());
    ext2.extend_from_slice(&body);
    let mut s = server();
    let r = feed(&mut s, &join_client_hello(&head, &sid, &middle, &ext2));
    assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::BadLength)));
    assert_eq!(plaintext_alert(&s), Some(AlertDescription::DECODE_ERROR));
}

/// RFC 7301 §3.1: `opaque ProtocolName<1..2^8-1>`: an empty protocol name does not parse,
/// a decode_error (BoGo's ALPNServer-EmptyProtocolName-TLS-TLS13), not an illegal parameter.
#[cfg(feature = "server")]
#[test]
fn empty_alpn_protocol_name_is_a_decode_error() {
    let c = client();
    let (head, sid, middle, ext) = split_client_hello(c.pending_send());
    // application_layer_protocol_negotiation with the names "h2" and "", first in the block
    // (pre_shared_key must stay last).
    let mut ext2 = vec![0, 16, 0, 6, 0, 4, 2, b'h', b'2', 0];
    ext2.extend_from_slice(&ext);
    let mut s = server();
    let r = feed(&mut s, &join_client_hello(&head, &sid, &middle, &ext2));
    assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::BadLength)));
    assert_eq!(plaintext_alert(&s), Some(AlertDescription::DECODE_ERROR));
}

/// The extensions block `ext` without the extension of type `typ`.
#[cfg(feature = "server")]
fn without_extension(ext: &[u8], typ: u16) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 4 <= ext.len() {
        let len = u16::from_be_bytes([ext[at + 2], ext[at + 3]]) as usize;
        if u16::from_be_bytes([ext[at], ext[at + 1]]) != typ {
            out.extend_from_slice(&ext[at..at + 4 + len]);
        }
        at += 4 + len;
    }
    out
}

/// RFC 8446 §9.2: a ClientHello with key_share must carry supported_groups too; one
/// without is missing_extension (BoGo's NoSupportedCurves-TLS13), not a handshake failure.
#[cfg(feature = "server")]
#[test]
fn key_share_without_supported_groups_is_missing_extension() {
    let c = client();
    let (head, sid, middle, ext) = split_client_hello(c.pending_send());
    let ext2 = without_extension(&ext, 10);
    assert!(ext2.len() < ext.len(), "the test's ClientHello has supported_groups");
    let mut s = server();
    let r = feed(&mut s, &join_client_hello(&head, &sid, &middle, &ext2));
    assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::MissingExtension)));
    assert_eq!(plaintext_alert(&s), Some(AlertDescription::MISSING_EXTENSION));
}

/// The client's ClientHello (a resumption, so pre_shared_key comes last with one 32-byte
/// binder) with that binder replaced by `len` bytes of 0x55.
#[cfg(feature = "server")]
fn client_hello_with_binder_of(c: &Connection<'_, '_>, len: u8) -> Vec<u8> {
    let (head, sid, middle, ext) = split_client_hello(c.pending_send());
    // The binders list is the block's last 35 bytes: `00 21 20 <32 bytes>`.
    let psk_at = ext.len() - (2 + 2 + 12 + 2 + 33);
    let mut body = ext[psk_at + 4..ext.len() - 35].to_vec();
    body.extend_from_slice(&[0, len + 1, len]);
    body.extend_from_slice(&vec![0x55; usize::from(len)]);
    let mut ext2 = ext[..psk_at].to_vec();
    ext2.extend_from_slice(&[0, 41]);
    ext2.extend_from_slice(&(body.len() as u16).to_be_bytes());
    ext2.extend_from_slice(&body);
    join_client_hello(&head, &sid, &middle, &ext2)
}

/// RFC 8446 §4.2.11 and §6.2: a PSK binder that does not validate is decrypt_error, a binder
/// longer than the hash included (BoGo's Resume-Server-BinderWrongLength sends one shorter
/// than 32 bytes, which does not parse: see FAILURES in the BoGo notes).
#[cfg(feature = "server")]
#[test]
fn psk_binder_of_the_wrong_length_is_decrypt_error() {
    let mut s = server();
    let r = feed(&mut s, &client_hello_with_binder_of(&client(), 33));
    assert_eq!(r, Err(Error::PeerMisbehaved(PeerMisbehaved::BadPskBinder)));
    assert_eq!(plaintext_alert(&s), Some(AlertDescription::DECRYPT_ERROR));
}

/// RFC 8446 §4.2.11 and §6: `opaque PskBinderEntry<32..255>`, so a 31-byte binder (BoGo's
/// Resume-Server-BinderWrongLength) does not parse: decode_error, not illegal_parameter.
#[cfg(feature = "server")]
#[test]
fn psk_binder_shorter_than_32_bytes_is_a_decode_error() {
    let mut s = server();
    let r = feed(&mut s, &client_hello_with_binder_of(&client(), 31));
    assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::BadLength)));
    assert_eq!(plaintext_alert(&s), Some(AlertDescription::DECODE_ERROR));
}

/// Decodes one handshake message of type `typ` and body `body`.
fn decode(typ: u8, body: &[u8]) -> Result<(), InvalidMessage> {
    use tls::msgs::{Codec, HandshakeMessage};
    HandshakeMessage::decode(&handshake(typ, body)).map(|_| ())
}

/// A NewSessionTicket body: lifetime, age_add, nonce, `ticket`, then `ext` (a block's
/// contents).
fn new_session_ticket(ticket: &[u8], ext: &[u8]) -> Vec<u8> {
    let mut b = vec![0, 0, 0x0e, 0x10, 1, 2, 3, 4, 1, 0];
    b.extend_from_slice(&(ticket.len() as u16).to_be_bytes());
    b.extend_from_slice(ticket);
    b.extend_from_slice(&(ext.len() as u16).to_be_bytes());
    b.extend_from_slice(ext);
    b
}

/// RFC 8446 §4.6.1: `opaque ticket<1..2^16-1>`: an empty ticket does not parse (decode_error,
/// BoGo's SendEmptySessionTicket-TLS13); and a NewSessionTicket's extensions are an extension
/// block like any other, so one type twice is refused (BoGo's
/// TLS13-DuplicateTicketEarlyDataSupport) and a malformed block does not parse, while unknown
/// extensions are ignored.
#[test]
fn new_session_ticket_is_checked_like_other_messages() {
    assert_eq!(decode(4, &new_session_ticket(b"", b"")), Err(InvalidMessage::BadLength));
    let early_data = [0, 42, 0, 4, 0, 0, 0x40, 0];
    assert_eq!(decode(4, &new_session_ticket(b"t", &early_data)), Ok(()));
    let twice = [&early_data[..], &early_data[..]].concat();
    assert_eq!(
        decode(4, &new_session_ticket(b"t", &twice)),
        Err(InvalidMessage::DuplicateExtension)
    );
    assert!(decode(4, &new_session_ticket(b"t", &[0, 42, 0, 9, 0])).is_err());
    assert_eq!(decode(4, &new_session_ticket(b"t", &[0xfe, 0xfe, 0, 1, 7])), Ok(()));
}

/// RFC 8446 §6.1: user_canceled is a closure alert, not an error alert: a peer that sends it
/// (as a warning, before the close_notify that should follow) does not fail the connection
/// (BoGo's SendUserCanceledAlerts-TLS13).
#[cfg(feature = "server")]
#[test]
fn user_canceled_is_not_an_error() {
    let (mut c, mut s) = (client(), server());
    pump(&mut c, &mut s).unwrap();
    // A plaintext user_canceled warning before the server's flight.
    assert_eq!(feed(&mut c, &[21, 3, 3, 0, 2, 1, 90]), Ok(()));
    assert_eq!(c.error(), None);
    pump(&mut s, &mut c).unwrap();
    assert!(!c.is_handshaking(), "{:?}", c.error());
}

/// A client offering `versions` (TLS 1.2 among them), with no PSK.
#[cfg(feature = "tls12")]
fn client_with_tls12(versions: &'static [ProtocolVersion]) -> Connection<'static, 'static> {
    let config = ClientConfig { versions, ..ClientConfig::new(&[], &tls::SystemClock) };
    Connection::client(config, "bogo", bufs(), &mut OsRandom).unwrap()
}

/// A hello's extensions (after its handshake header), as (type, body).
#[cfg(feature = "tls12")]
fn hello_extensions(msg: &[u8]) -> Vec<(u16, Vec<u8>)> {
    let be16 = |b: &[u8]| usize::from(u16::from_be_bytes([b[0], b[1]]));
    let mut at = 4 + 2 + 32;
    at += 1 + usize::from(msg[at]);
    at += 2 + be16(&msg[at..]);
    at += 1 + usize::from(msg[at]);
    let end = at + 2 + be16(&msg[at..]);
    let mut p = at + 2;
    let mut out = Vec::new();
    while p < end {
        let len = be16(&msg[p + 2..]);
        out.push((be16(&msg[p..]) as u16, msg[p + 4..p + 4 + len].to_vec()));
        p += 4 + len;
    }
    out
}

/// RFC 5246 §7.2: in TLS 1.2 a warning alert other than close_notify does not end the
/// connection; as with empty records, only a few in a row are taken (BoGo's
/// SendSNIWarningAlert: unrecognized_name before the ServerHello). A client that offers only
/// TLS 1.3 treats every alert but the closure alerts as an error (RFC 8446 §6).
#[cfg(feature = "tls12")]
#[test]
fn tls12_warning_alerts_are_skipped_a_few_in_a_row() {
    let warning = [21, 3, 3, 0, 2, 1, AlertDescription::UNRECOGNIZED_NAME.0];
    let mut c = client_with_tls12(&[ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2]);
    let n = c.pending_send().len();
    c.sent(n);
    for _ in 0..tls::conn::MAX_USER_CANCELED {
        feed(&mut c, &warning).unwrap();
    }
    assert_eq!(c.error(), None);
    assert!(c.is_handshaking());
    let err = Error::PeerMisbehaved(PeerMisbehaved::TooManyWarningAlerts);
    assert_eq!(feed(&mut c, &warning), Err(err));
    assert_eq!(plaintext_alert(&c), Some(AlertDescription::UNEXPECTED_MESSAGE));

    let mut c = client_with_tls12(&[ProtocolVersion::TLSV1_3]);
    let n = c.pending_send().len();
    c.sent(n);
    let r = feed(&mut c, &warning);
    assert_eq!(r, Err(Error::AlertReceived(AlertDescription::UNRECOGNIZED_NAME)));
}

/// RFC 8446 §5.1: the initial ClientHello's record may say TLS 1.0 (0x0301), for servers that
/// know nothing newer, as BoringSSL's does and BoGo expects; everything later says TLS 1.2.
#[test]
fn initial_client_hello_record_says_tls10() {
    let c = client();
    assert_eq!(c.pending_send()[..3], [22, 3, 1]);
}

/// A client that offers only TLS 1.2 lists no TLS 1.3-only group (the ML-KEM hybrids) and
/// sends no key_share (BoGo's TLS12ClientShouldNotOffer-X25519MLKEM768).
#[cfg(feature = "tls12")]
#[test]
fn tls12_only_client_offers_no_tls13_groups_and_no_key_share() {
    let c = client_with_tls12(&[ProtocolVersion::TLSV1_2]);
    let exts = hello_extensions(&c.pending_send()[5..]);
    assert!(exts.iter().all(|(t, _)| *t != 51), "key_share sent");
    let (_, groups) = exts.iter().find(|(t, _)| *t == 10).expect("supported_groups");
    let groups: Vec<u16> =
        groups[2..].chunks(2).map(|g| u16::from_be_bytes([g[0], g[1]])).collect();
    assert!(groups.contains(&NamedGroup::X25519.0), "{groups:x?}");
    assert!(!groups.contains(&NamedGroup::X25519MLKEM768.0), "{groups:x?}");
    // With no session to resume, its session id is empty (RFC 5246 §7.4.1.2; BoGo's
    // TLS12NoSessionID-TLS13).
    assert_eq!(session_id(c.pending_send()), b"");
    // Both versions: the hybrid is offered, with a share, and a session id for TLS 1.3's
    // compatibility mode.
    let c = client_with_tls12(&[ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2]);
    let exts = hello_extensions(&c.pending_send()[5..]);
    assert!(exts.iter().any(|(t, _)| *t == 51));
    assert_eq!(session_id(c.pending_send()).len(), 32);
}

/// The peer waits for our answer to the last message of its flight (a ClientHello, a
/// HelloRetryRequest, a TLS 1.2 ServerHelloDone): handshake data after it in its record is
/// unexpected_message, sent instead of the answer (BoGo's
/// PartialClientKeyExchangeWithClientHello and PartialSecondClientHelloAfterFirst).
#[cfg(feature = "server")]
#[test]
fn handshake_data_after_a_client_hello_in_its_record_is_unexpected_message() {
    let c = client();
    let mut record = c.pending_send().to_vec();
    record.push(16); // the first byte of a ClientKeyExchange
    let len = (record.len() - 5) as u16;
    record[3..5].copy_from_slice(&len.to_be_bytes());
    let mut s = server();
    let err = Error::PeerMisbehaved(PeerMisbehaved::InterleavedOrUnalignedRecords);
    assert_eq!(feed(&mut s, &record), Err(err));
    assert_eq!(err.alert(), Some(AlertDescription::UNEXPECTED_MESSAGE));
    // Nothing but the alert: no ServerHello.
    assert_eq!(s.pending_send(), [21, 3, 3, 0, 2, 2, AlertDescription::UNEXPECTED_MESSAGE.0]);
}

/// A ServerHello body: TLS 1.2 legacy version, `random`, session id `sid`, `suite`, null
/// compression and the extensions `ext` (already encoded).
#[cfg(any(all(feature = "p256", feature = "aes-gcm"), feature = "tls12"))]
fn server_hello(random: &[u8; 32], sid: &[u8], suite: [u8; 2], ext: &[u8]) -> Vec<u8> {
    let mut body = vec![3, 3];
    body.extend_from_slice(random);
    body.push(sid.len() as u8);
    body.extend_from_slice(sid);
    body.extend_from_slice(&[suite[0], suite[1], 0]);
    body.extend_from_slice(&(ext.len() as u16).to_be_bytes());
    body.extend_from_slice(ext);
    handshake(2, &body)
}

/// RFC 8446 §4.1.4: the ServerHello after a HelloRetryRequest keeps its selected_version;
/// one without supported_versions, or naming another version, is illegal_parameter (BoGo's
/// SecondServerHelloNoVersion-TLS13 and SecondServerHelloWrongVersion-TLS13).
// The retry asks for secp256r1 after an x25519 share, with TLS_AES_128_GCM_SHA256.
#[cfg(all(feature = "p256", feature = "aes-gcm"))]
#[test]
fn second_server_hello_must_keep_the_retry_requests_version() {
    for versions in [&[][..], &[0x00, 0x2b, 0x00, 0x02, 0x12, 0x34]] {
        let mut c = client();
        let sid = session_id(c.pending_send());
        let n = c.pending_send().len();
        c.sent(n);
        let hrr = [
            &[0x00, 0x2b, 0x00, 0x02, 0x03, 0x04][..], // supported_versions: TLS 1.3
            &[0x00, 0x33, 0x00, 0x02, 0x00, 0x17],     // key_share: secp256r1
        ]
        .concat();
        let random = tls::msgs::HELLO_RETRY_REQUEST_RANDOM;
        feed(&mut c, &handshake_record(&server_hello(&random, &sid, [0x13, 0x01], &hrr))).unwrap();
        let n = c.pending_send().len();
        assert!(n > 0, "a second ClientHello");
        c.sent(n);
        let ext = [versions, &[0x00, 0x33, 0x00, 0x05, 0x00, 0x17, 0x00, 0x01, 0x04]].concat();
        let r = feed(&mut c, &handshake_record(&server_hello(&[7; 32], &sid, [0x13, 0x01], &ext)));
        assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::IllegalValue)), "{versions:x?}");
        assert_eq!(plaintext_alert(&c), Some(AlertDescription::ILLEGAL_PARAMETER));
    }
}

/// RFC 5246 §7.4.1.4: an extension in a TLS 1.2 ServerHello that the client did not offer is
/// unsupported_extension (BoGo's UnknownExtension-Client).
#[cfg(feature = "tls12")]
#[test]
fn unknown_extension_in_a_tls12_server_hello_is_unsupported_extension() {
    let mut c = client_with_tls12(&[ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2]);
    let n = c.pending_send().len();
    c.sent(n);
    let ext = [0xfa, 0xfa, 0x00, 0x00];
    let r = feed(&mut c, &handshake_record(&server_hello(&[7; 32], &[], [0xc0, 0x2f], &ext)));
    assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::UnexpectedExtension)));
    assert_eq!(plaintext_alert(&c), Some(AlertDescription::UNSUPPORTED_EXTENSION));
}

/// RFC 5246 §7.4.2: a TLS 1.2 server's Certificate starts with its own; an empty list is a
/// malformed message, decode_error (TLS 1.2 has no certificate_required; BoGo's
/// EmptyCertificateList).
#[cfg(feature = "tls12")]
#[test]
fn empty_certificate_list_from_a_tls12_server_is_a_decode_error() {
    let mut c = client_with_tls12(&[ProtocolVersion::TLSV1_2]);
    let n = c.pending_send().len();
    c.sent(n);
    let ext = [
        &[0x00, 0x17, 0x00, 0x00][..],   // extended_master_secret
        &[0xff, 0x01, 0x00, 0x01, 0x00], // renegotiation_info: initial
    ]
    .concat();
    let mut flight = server_hello(&[7; 32], &[], [0xc0, 0x2f], &ext);
    flight.extend(handshake(11, &[0, 0, 0]));
    let mut ske = vec![3, 0x00, 0x17, 65, 4];
    ske.extend_from_slice(&[1; 64]);
    ske.extend_from_slice(&[0x04, 0x01, 0x00, 0x01, 0x00]);
    flight.extend(handshake(12, &ske));
    let r = feed(&mut c, &handshake_record(&flight));
    assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::BadLength)));
    assert_eq!(plaintext_alert(&c), Some(AlertDescription::DECODE_ERROR));
}
