//! RFC conformance of both roles against crafted peers (issue 20): ALPN without a server
//! list, legacy versions, alert and decode-error choices, ChangeCipherSpec and fragment
//! rules, extension placement, SNI validation, KeyUpdate coalescing, early-data skipping and
//! the errors that name what the peers lacked.
//!
//! The crafted peers are built from the public layers: a `MiniClient` that sends a real
//! client's ClientHello with its own key share (so it knows the keys) and a `MiniServer`
//! that answers a real client's ClientHello; records are sealed with [`RecordProtection`].

#![allow(clippy::doc_markdown)] // protocol message names are prose here

use core_ec::ed25519::SigningKey as Ed25519Key;
use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor};
use tls::key_schedule::{
    EarlySecret, HandshakeSecret, HashAlg, Secret, Transcript, finished_verify_data,
};
use tls::kx::KeyShare;
use tls::msgs::{AlertDescription, ContentType, InvalidMessage, NamedGroup};
use tls::record::RecordProtection;
use tls::suites;
use tls::{
    Buffers, CertifiedKey, ClientConfig, Connection, Error, PeerIncompatible, PeerMisbehaved,
    ServerConfig, Want,
};

const CA: &[u8] = include_bytes!("data/ca.der");
const SERVER_CERT: &[u8] = include_bytes!("data/server.der");
const SERVER_SEED: &[u8; 32] = include_bytes!("data/server.seed");

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

fn sized_bufs(rx: usize, tx: usize, hs: usize) -> Buffers<'static> {
    Buffers {
        received: Vec::leak(vec![0; rx]),
        send: Vec::leak(vec![0; tx]),
        handshake: Vec::leak(vec![0; hs]),
    }
}

fn bufs() -> Buffers<'static> {
    sized_bufs(17_000, 40_000, 8_000)
}

fn roots() -> &'static [TrustAnchor<'static>] {
    let der = leak(CertificateDer::from(CA));
    leak([webpki::anchor_from_trusted_cert(der).unwrap()])
}

fn certs() -> &'static [CertifiedKey<'static>] {
    let key = leak(tls::SigningKey::Ed25519(Ed25519Key::from_seed(SERVER_SEED)));
    leak([CertifiedKey { chain: leak([SERVER_CERT]), key }])
}

/// TLS 1.3 alone, for the tests of what a peer that speaks only TLS 1.3 says (the default
/// has TLS 1.2 too with the `tls12` feature).
const TLS13_ONLY: &[tls::msgs::ProtocolVersion] = &[tls::msgs::ProtocolVersion::TLSV1_3];

fn client_config() -> ClientConfig<'static> {
    ClientConfig::new(roots(), &tls::SystemClock)
}

/// A server with the default configuration but one suite (AES-128-GCM), which the crafted
/// clients use.
fn server_config() -> ServerConfig<'static> {
    ServerConfig { suites: &[suites::TLS13_AES_128_GCM_SHA256], ..ServerConfig::new(certs()) }
}

fn client_named(config: ClientConfig<'static>, name: &'static str) -> Connection<'static, 'static> {
    Connection::client(config, name, bufs(), &mut OsRandom).unwrap()
}

fn client(config: ClientConfig<'static>) -> Connection<'static, 'static> {
    client_named(config, "localhost")
}

fn server(config: ServerConfig<'static>) -> Connection<'static, 'static> {
    Connection::server(config, bufs(), &mut OsRandom).unwrap()
}

fn feed(to: &mut Connection<'_, '_>, mut data: &[u8]) -> Result<(), Error> {
    while !data.is_empty() {
        let space = to.receive_space();
        let n = space.len().min(data.len()).min(4000);
        assert!(n > 0, "receive buffer full");
        space[..n].copy_from_slice(&data[..n]);
        to.received(n)?;
        data = &data[n..];
    }
    Ok(())
}

/// Everything `from` has queued, marked sent.
fn take(from: &mut Connection<'_, '_>) -> Vec<u8> {
    let out = from.pending_send().to_vec();
    from.sent(out.len());
    out
}

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
    let data = take(from);
    feed(to, &data)
}

fn handshake(c: &mut Connection<'_, '_>, s: &mut Connection<'_, '_>) -> Result<(), Error> {
    for _ in 0..4 {
        pump(c, s)?;
        pump(s, c)?;
    }
    assert!(!c.is_handshaking() && !s.is_handshaking(), "handshake did not finish");
    Ok(())
}

fn record(typ: u8, body: &[u8]) -> Vec<u8> {
    let mut r = vec![typ, 3, 3, (body.len() >> 8) as u8, body.len() as u8];
    r.extend_from_slice(body);
    r
}

/// The whole records in `bytes`, as (type, body).
fn records(mut bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut out = Vec::new();
    while bytes.len() >= 5 {
        let len = usize::from(bytes[3]) << 8 | usize::from(bytes[4]);
        out.push((bytes[0], bytes[5..5 + len].to_vec()));
        bytes = &bytes[5 + len..];
    }
    out
}

/// Asserts that `conn` failed with `err` and queued the plaintext alert `alert` last.
fn assert_plain_alert(conn: &Connection<'_, '_>, err: Error, alert: AlertDescription) {
    assert_eq!(conn.error(), Some(err));
    assert_eq!(err.alert(), Some(alert));
    let out = conn.pending_send();
    assert!(out.len() >= 7, "no alert queued for {err:?}");
    assert_eq!(out[out.len() - 7..], [21, 3, 3, 0, 2, 2, alert.0], "alert for {err:?}");
}

/// Asserts that `conn` failed with `err`, whose alert is `alert`, and queued something (the
/// alert, protected once keys are in use).
fn assert_alert(conn: &Connection<'_, '_>, err: Error, alert: AlertDescription) {
    assert_eq!(conn.error(), Some(err));
    assert_eq!(err.alert(), Some(alert), "alert for {err:?}");
    assert_eq!(conn.want(), Want::Send, "the alert is queued");
}

fn be16(b: &[u8]) -> usize {
    usize::from(b[0]) << 8 | usize::from(b[1])
}

/// A hello's extensions, as (type, body), and where the extensions block starts.
fn hello_extensions(msg: &[u8]) -> (usize, Vec<(u16, Vec<u8>)>) {
    let mut at = 4 + 2 + 32;
    at += 1 + usize::from(msg[at]);
    if msg[0] == 1 {
        at += 2 + be16(&msg[at..]);
        at += 1 + usize::from(msg[at]);
    } else {
        at += 3;
    }
    let mut exts = Vec::new();
    let end = at + 2 + be16(&msg[at..]);
    let mut p = at + 2;
    while p < end {
        let len = be16(&msg[p + 2..]);
        exts.push((be16(&msg[p..]) as u16, msg[p + 4..p + 4 + len].to_vec()));
        p += 4 + len;
    }
    (at, exts)
}

/// `msg` (a ClientHello or ServerHello with its handshake header) with its extensions
/// changed by `edit`, the lengths fixed.
fn edit_hello(msg: &[u8], edit: impl FnOnce(&mut Vec<(u16, Vec<u8>)>)) -> Vec<u8> {
    let (at, mut exts) = hello_extensions(msg);
    edit(&mut exts);
    let mut block = Vec::new();
    for (typ, body) in &exts {
        block.extend_from_slice(&typ.to_be_bytes());
        block.extend_from_slice(&(body.len() as u16).to_be_bytes());
        block.extend_from_slice(body);
    }
    let mut out = msg[..at].to_vec();
    out.extend_from_slice(&(block.len() as u16).to_be_bytes());
    out.extend_from_slice(&block);
    let len = out.len() - 4;
    out[1..4].copy_from_slice(&(len as u32).to_be_bytes()[1..]);
    out
}

fn extension(exts: &[(u16, Vec<u8>)], typ: u16) -> Option<&[u8]> {
    exts.iter().find(|(t, _)| *t == typ).map(|(_, b)| &b[..])
}

/// A handshake message of type `typ` with `body`.
fn handshake_msg(typ: u8, body: &[u8]) -> Vec<u8> {
    let mut m = vec![typ];
    m.extend_from_slice(&(body.len() as u32).to_be_bytes()[1..]);
    m.extend_from_slice(body);
    m
}

/// A fresh client's ClientHello message (handshake header included, record header off).
fn real_client_hello(config: ClientConfig<'static>, name: &'static str) -> Vec<u8> {
    let mut c = client_named(config, name);
    let out = take(&mut c);
    assert_eq!(out[0], 22);
    out[5..].to_vec()
}

const KEY_SHARE: u16 = 51;
const X25519: NamedGroup = NamedGroup::X25519;

/// A key_share extension body of a ClientHello with one share.
fn client_share_body(share: &KeyShare) -> Vec<u8> {
    let public = share.public().unwrap();
    let key = public.as_ref();
    let mut entry = share.group().0.to_be_bytes().to_vec();
    entry.extend_from_slice(&(key.len() as u16).to_be_bytes());
    entry.extend_from_slice(key);
    let mut body = (entry.len() as u16).to_be_bytes().to_vec();
    body.extend_from_slice(&entry);
    body
}

/// A client built from the public layers: a real client's ClientHello carrying this
/// client's own key share, then the handshake keys, so it can send what a real client never
/// does.
struct MiniClient {
    share: KeyShare,
    transcript: Transcript,
    client_hs: Option<Secret>,
    hs: Option<HandshakeSecret>,
    read: Option<RecordProtection>,
    write: Option<RecordProtection>,
}

impl MiniClient {
    fn new(group: NamedGroup) -> Self {
        Self {
            share: KeyShare::keygen(group, &[], &mut OsRandom).unwrap(),
            transcript: Transcript::new(HashAlg::Sha256).unwrap(),
            client_hs: None,
            hs: None,
            read: None,
            write: None,
        }
    }

    /// A ClientHello message with our share, edited further by `edit`.
    fn hello(&self, edit: impl FnOnce(&mut Vec<(u16, Vec<u8>)>)) -> Vec<u8> {
        let body = client_share_body(&self.share);
        edit_hello(&real_client_hello(client_config(), "localhost"), |x| {
            for (typ, b) in x.iter_mut() {
                if *typ == KEY_SHARE {
                    b.clone_from(&body);
                }
            }
            edit(x);
        })
    }

    /// The record carrying `msg`, added to the transcript.
    fn send_hello(&mut self, msg: &[u8]) -> Vec<u8> {
        self.transcript.update(msg);
        record(22, msg)
    }

    /// Reads a server flight: a ServerHello (keys the handshake) or a HelloRetryRequest
    /// (returns the group asked for), then protected handshake records.
    fn read_flight(&mut self, flight: &[u8]) -> Option<NamedGroup> {
        for (typ, body) in records(flight) {
            match typ {
                20 => {}
                22 => {
                    let (_, exts) = hello_extensions(&body);
                    let ks = extension(&exts, KEY_SHARE).unwrap();
                    if body[6..38] == tls::msgs::HELLO_RETRY_REQUEST_RANDOM {
                        self.transcript.restart_for_retry();
                        self.transcript.update(&body);
                        return Some(NamedGroup(be16(ks) as u16));
                    }
                    self.transcript.update(&body);
                    let shared = self.share.decapsulate(&ks[4..]).unwrap();
                    let hs = EarlySecret::new(HashAlg::Sha256, None)
                        .unwrap()
                        .into_handshake(shared.as_ref());
                    let th = self.transcript.current();
                    let aead = suites::TLS13_AES_128_GCM_SHA256.aead;
                    self.read = Some(RecordProtection::new(aead, &hs.server_traffic(&th)).unwrap());
                    let client_hs = hs.client_traffic(&th);
                    self.write = Some(RecordProtection::new(aead, &client_hs).unwrap());
                    self.client_hs = Some(client_hs);
                    self.hs = Some(hs);
                }
                23 => {
                    let mut rec = record(23, &body);
                    let (t, content) = self.read.as_mut().unwrap().open(&mut rec).unwrap();
                    assert_eq!(t, ContentType::HANDSHAKE);
                    self.transcript.update(content);
                }
                _ => panic!("unexpected record type {typ}"),
            }
        }
        None
    }

    /// A protected record of `typ` with `content`.
    fn seal(&mut self, typ: ContentType, content: &[u8]) -> Vec<u8> {
        let mut buf = vec![0; content.len() + 64];
        let n = self.write.as_mut().unwrap().seal(typ, content, 0, &mut buf).unwrap();
        buf.truncate(n);
        buf
    }

    /// The client's Finished message (right for the transcript).
    fn finished_msg(&self) -> Vec<u8> {
        let vd = finished_verify_data(self.client_hs.as_ref().unwrap(), &self.transcript.current());
        handshake_msg(20, vd.as_ref())
    }

    /// The record carrying the client's Finished; then switches to the application key, so
    /// that [`MiniClient::seal`] protects what follows the handshake.
    fn finish(&mut self) -> Vec<u8> {
        let fin = self.seal(ContentType::HANDSHAKE, &self.finished_msg());
        let master = self.hs.take().unwrap().into_master();
        let secret = master.client_traffic(&self.transcript.current());
        let aead = suites::TLS13_AES_128_GCM_SHA256.aead;
        self.write = Some(RecordProtection::new(aead, &secret).unwrap());
        fin
    }
}

/// A server built from the public layers, answering a real client's ClientHello with a
/// ServerHello (X25519, AES-128-GCM) and then whatever protected messages a test makes up.
struct MiniServer {
    transcript: Transcript,
    write: RecordProtection,
}

impl MiniServer {
    /// Answers the ClientHello record `ch`; returns the server and its ServerHello record.
    fn answer(ch: &[u8]) -> (Self, Vec<u8>) {
        let msg = &ch[5..];
        let (_, exts) = hello_extensions(msg);
        let shares = extension(&exts, KEY_SHARE).unwrap();
        // The X25519 share: the first, or the second after an X25519MLKEM768 one.
        let mut at = 2;
        while be16(&shares[at..]) != usize::from(X25519.0) {
            at += 4 + be16(&shares[at + 2..]);
        }
        let client_key = &shares[at + 4..at + 4 + be16(&shares[at + 2..])];
        let share = KeyShare::keygen(X25519, &[], &mut OsRandom).unwrap();
        let shared = share.decapsulate(client_key).unwrap();
        let sid = &msg[39..39 + usize::from(msg[38])];
        let mut body = vec![3, 3];
        body.extend_from_slice(&[0x42; 32]);
        body.push(sid.len() as u8);
        body.extend_from_slice(sid);
        body.extend_from_slice(&[0x13, 0x01, 0]);
        let public = share.public().unwrap();
        let mut x = vec![0, 43, 0, 2, 3, 4, 0, 51];
        x.extend_from_slice(&(4 + public.as_ref().len() as u16).to_be_bytes());
        x.extend_from_slice(&[0, 0x1d, 0, public.as_ref().len() as u8]);
        x.extend_from_slice(public.as_ref());
        body.extend_from_slice(&(x.len() as u16).to_be_bytes());
        body.extend_from_slice(&x);
        let sh = handshake_msg(2, &body);
        let mut transcript = Transcript::new(HashAlg::Sha256).unwrap();
        transcript.update(msg);
        transcript.update(&sh);
        let hs = EarlySecret::new(HashAlg::Sha256, None).unwrap().into_handshake(shared.as_ref());
        let server_hs = hs.server_traffic(&transcript.current());
        let write =
            RecordProtection::new(suites::TLS13_AES_128_GCM_SHA256.aead, &server_hs).unwrap();
        (Self { transcript, write }, record(22, &sh))
    }

    /// A protected record carrying the handshake message `msg`.
    fn seal_handshake(&mut self, msg: &[u8]) -> Vec<u8> {
        self.transcript.update(msg);
        let mut buf = vec![0; msg.len() + 64];
        let n = self.write.seal(ContentType::HANDSHAKE, msg, 0, &mut buf).unwrap();
        buf.truncate(n);
        buf
    }
}

/// An EncryptedExtensions message with the raw extensions `exts`.
fn encrypted_extensions(exts: &[(u16, &[u8])]) -> Vec<u8> {
    let mut block = Vec::new();
    for (typ, body) in exts {
        block.extend_from_slice(&typ.to_be_bytes());
        block.extend_from_slice(&(body.len() as u16).to_be_bytes());
        block.extend_from_slice(body);
    }
    let mut body = (block.len() as u16).to_be_bytes().to_vec();
    body.extend_from_slice(&block);
    handshake_msg(8, &body)
}

// Item 1 (RFC 7301 §3.1).
#[test]
fn a_server_without_alpn_ignores_the_clients_offer() {
    let alpn: &'static [&'static [u8]] = leak([&b"h2"[..], b"http/1.1"]);
    let mut c = client(ClientConfig { alpn, ..client_config() });
    let mut s = server(server_config());
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(c.negotiated().unwrap().alpn, None);
    assert_eq!(s.negotiated().unwrap().alpn, None);
}

// Item 7 (RFC 8446 Appendix D.5).
#[test]
fn a_client_hello_with_legacy_version_ssl3_is_protocol_version() {
    let mut ch = real_client_hello(client_config(), "localhost");
    ch[4..6].copy_from_slice(&[3, 0]);
    let mut s = server(ServerConfig { versions: TLS13_ONLY, ..server_config() });
    let r = feed(&mut s, &record(22, &ch));
    assert_eq!(r, Err(Error::PeerIncompatible(PeerIncompatible::NoTls13)));
    assert_plain_alert(&s, r.unwrap_err(), AlertDescription::PROTOCOL_VERSION);
    // TLS 1.0 as the legacy version is fine: supported_versions decides.
    let mut ch = real_client_hello(client_config(), "localhost");
    ch[4..6].copy_from_slice(&[3, 1]);
    let mut s = server(server_config());
    feed(&mut s, &record(22, &ch)).unwrap();
}

/// The mini client completes a handshake with a real server: the harness the tests below
/// rely on is sound.
#[test]
fn the_mini_client_completes_a_handshake() {
    let mut s = server(server_config());
    let mut mc = MiniClient::new(X25519);
    let ch = mc.hello(|_| {});
    feed(&mut s, &mc.send_hello(&ch)).unwrap();
    assert_eq!(mc.read_flight(&take(&mut s)), None);
    let fin = mc.finished_msg();
    feed(&mut s, &mc.seal(ContentType::HANDSHAKE, &fin)).unwrap();
    assert!(!s.is_handshaking());
}

// Item 6 (RFC 8446 §4.4.4, §6: a message that does not parse is decode_error).
#[test]
fn a_finished_of_the_wrong_length_is_decode_error() {
    let mut s = server(server_config());
    let mut mc = MiniClient::new(X25519);
    let ch = mc.hello(|_| {});
    feed(&mut s, &mc.send_hello(&ch)).unwrap();
    mc.read_flight(&take(&mut s));
    let mut fin = mc.finished_msg();
    fin.pop();
    fin[3] -= 1;
    let r = feed(&mut s, &mc.seal(ContentType::HANDSHAKE, &fin));
    assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::BadLength)));
    assert_alert(&s, r.unwrap_err(), AlertDescription::DECODE_ERROR);
}

// Item 6 (RFC 8446 §5.4, §6).
#[test]
fn an_empty_alert_record_is_unexpected_message() {
    let mut s = server(server_config());
    let r = feed(&mut s, &record(21, &[]));
    assert_eq!(r, Err(Error::PeerMisbehaved(PeerMisbehaved::EmptyRecord)));
    assert_plain_alert(&s, r.unwrap_err(), AlertDescription::UNEXPECTED_MESSAGE);
}

// Item 6 (RFC 8446 §4.2.3: `supported_signature_algorithms<2..2^16-2>`).
#[test]
fn an_empty_signature_algorithms_or_other_non_empty_list_is_decode_error() {
    // And the other lists a ClientHello carries that may not be empty: supported_groups,
    // ALPN's protocol_name_list, supported_versions and psk_key_exchange_modes.
    let empty: [(u16, &[u8]); 5] =
        [(13, &[0, 0]), (10, &[0, 0]), (16, &[0, 0]), (43, &[0]), (45, &[0])];
    for (typ, body) in empty {
        let ch = edit_hello(&real_client_hello(client_config(), "localhost"), |x| {
            x.retain(|(t, _)| *t != typ);
            x.insert(0, (typ, body.to_vec()));
        });
        let mut s = server(server_config());
        let r = feed(&mut s, &record(22, &ch));
        assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::BadLength)), "{typ}");
        assert_plain_alert(&s, r.unwrap_err(), AlertDescription::DECODE_ERROR);
    }
}

/// A client that has taken a crafted ServerHello, and the crafted server.
fn client_after_server_hello(name: &'static str) -> (Connection<'static, 'static>, MiniServer) {
    let mut c = client_named(client_config(), name);
    let ch = take(&mut c);
    let (ms, sh) = MiniServer::answer(&ch);
    feed(&mut c, &sh).unwrap();
    (c, ms)
}

// Item 11 (RFC 8446 §4.2).
#[test]
fn encrypted_extensions_with_an_unknown_extension_is_unsupported_extension() {
    let (mut c, mut ms) = client_after_server_hello("localhost");
    let r = feed(&mut c, &ms.seal_handshake(&encrypted_extensions(&[(0x1234, &[])])));
    assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::UnexpectedExtension)));
    assert_alert(&c, r.unwrap_err(), AlertDescription::UNSUPPORTED_EXTENSION);
}

// Item 11 (RFC 8446 §4.2: no response to an extension the client did not send).
#[test]
fn unsolicited_alpn_or_server_name_in_encrypted_extensions_is_unsupported_extension() {
    let unsolicited: [(&str, u16, &[u8]); 2] =
        [("localhost", 16, &[0, 3, 2, b'h', b'2']), ("127.0.0.1", 0, &[])];
    for (name, typ, body) in unsolicited {
        let (mut c, mut ms) = client_after_server_hello(name);
        let r = feed(&mut c, &ms.seal_handshake(&encrypted_extensions(&[(typ, body)])));
        assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::UnexpectedExtension)), "{typ}");
        assert_alert(&c, r.unwrap_err(), AlertDescription::UNSUPPORTED_EXTENSION);
    }
    // The acknowledgement of a server_name the client sent is fine.
    let (mut c, mut ms) = client_after_server_hello("localhost");
    feed(&mut c, &ms.seal_handshake(&encrypted_extensions(&[(0, &[])]))).unwrap();
    assert!(c.error().is_none());
}

// Item 11 (RFC 8446 §4.1.3, Appendix D.5).
#[test]
fn a_server_hello_legacy_version_other_than_tls12_is_refused() {
    let cases = [
        (
            1u8,
            Error::InvalidMessage(InvalidMessage::IllegalValue),
            AlertDescription::ILLEGAL_PARAMETER,
        ),
        (
            4,
            Error::InvalidMessage(InvalidMessage::IllegalValue),
            AlertDescription::ILLEGAL_PARAMETER,
        ),
        (0, Error::PeerIncompatible(PeerIncompatible::NoTls13), AlertDescription::PROTOCOL_VERSION),
    ];
    for (minor, err, alert) in cases {
        let mut c = client(client_config());
        let mut s = server(server_config());
        pump(&mut c, &mut s).unwrap();
        let mut flight = take(&mut s);
        flight[10] = minor;
        assert_eq!(feed(&mut c, &flight), Err(err), "3.{minor}");
        assert_plain_alert(&c, err, alert);
    }
}

// Item 10 (RFC 8446 §4.2.11: pre_shared_key must be the last extension).
#[test]
fn an_extension_after_pre_shared_key_is_illegal_parameter() {
    let mut psk = vec![0, 10, 0, 4, b'x', b'x', b'x', b'x', 0, 0, 0, 0, 0, 33, 32];
    psk.extend_from_slice(&[0; 32]);
    let ch = edit_hello(&real_client_hello(client_config(), "localhost"), |x| {
        if extension(x, 45).is_none() {
            x.push((45, vec![1, 1]));
        }
        x.push((41, psk));
        x.push((28, vec![0x40, 0x01]));
    });
    let mut s = server(server_config());
    let r = feed(&mut s, &record(22, &ch));
    assert_eq!(r, Err(Error::InvalidMessage(InvalidMessage::IllegalValue)));
    assert_plain_alert(&s, r.unwrap_err(), AlertDescription::ILLEGAL_PARAMETER);
}

// Item 9 (RFC 8446 §5: change_cipher_spec only after the first ClientHello).
#[test]
fn change_cipher_spec_before_the_first_client_hello_is_unexpected_message() {
    let mut s = server(server_config());
    let r = feed(&mut s, &record(20, &[1]));
    assert_eq!(r, Err(Error::PeerMisbehaved(PeerMisbehaved::UnexpectedMessage)));
    assert_plain_alert(&s, r.unwrap_err(), AlertDescription::UNEXPECTED_MESSAGE);
}

/// A client, and the server's first flight for it with the ServerHello record split in two
/// records around `between`.
fn split_server_hello(between: &[u8]) -> (Connection<'static, 'static>, Vec<u8>) {
    let mut c = client(client_config());
    let mut s = server(server_config());
    pump(&mut c, &mut s).unwrap();
    let flight = take(&mut s);
    let len = be16(&flight[3..]);
    let sh = &flight[5..5 + len];
    let mut out = record(22, &sh[..10]);
    out.extend_from_slice(between);
    out.extend_from_slice(&record(22, &sh[10..]));
    out.extend_from_slice(&flight[5 + len..]);
    (c, out)
}

// Item 9 (RFC 8446 §5.1: handshake messages are not interleaved with other records).
#[test]
fn change_cipher_spec_inside_a_fragmented_handshake_message_is_unexpected_message() {
    // The split alone is fine.
    let (mut c, bytes) = split_server_hello(&[]);
    feed(&mut c, &bytes).unwrap();
    let (mut c, bytes) = split_server_hello(&record(20, &[1]));
    let r = feed(&mut c, &bytes);
    let err = Error::PeerMisbehaved(PeerMisbehaved::InterleavedOrUnalignedRecords);
    assert_eq!(r, Err(err));
    assert_plain_alert(&c, err, AlertDescription::UNEXPECTED_MESSAGE);
}

// Item 9 (RFC 8446 §5.1).
#[test]
fn close_notify_inside_a_fragmented_handshake_message_is_an_error() {
    let (mut c, bytes) = split_server_hello(&record(21, &[1, 0]));
    let r = feed(&mut c, &bytes);
    let err = Error::PeerMisbehaved(PeerMisbehaved::InterleavedOrUnalignedRecords);
    assert_eq!(r, Err(err));
    assert_ne!(c.want(), Want::Closed);
    assert_plain_alert(&c, err, AlertDescription::UNEXPECTED_MESSAGE);
}

// Item 15 (RFC 8446 §5, Appendix D.4: one change_cipher_spec per flight is all there is).
#[test]
fn a_second_change_cipher_spec_is_unexpected_message() {
    let err = Error::PeerMisbehaved(PeerMisbehaved::UnexpectedMessage);
    // To a server, after the ClientHello.
    let mut c = client(client_config());
    let mut s = server(server_config());
    let mut bytes = take(&mut c);
    bytes.extend_from_slice(&record(20, &[1]));
    feed(&mut s, &bytes).unwrap();
    assert_eq!(feed(&mut s, &record(20, &[1])), Err(err));
    assert_alert(&s, err, AlertDescription::UNEXPECTED_MESSAGE);
    // To a client, after the server's own.
    let mut c = client(client_config());
    let mut s = server(server_config());
    pump(&mut c, &mut s).unwrap();
    let flight = take(&mut s);
    let at = 5 + be16(&flight[3..]);
    assert_eq!(flight[at..at + 6], [20, 3, 3, 0, 1, 1], "the server's change_cipher_spec");
    let mut bytes = flight[..at + 6].to_vec();
    bytes.extend_from_slice(&record(20, &[1]));
    assert_eq!(feed(&mut c, &bytes), Err(err));
    assert_alert(&c, err, AlertDescription::UNEXPECTED_MESSAGE);
}

// Item 15: consuming a record no longer moves the rest of the receive buffer.
#[test]
fn many_small_records_are_received_in_linear_time() {
    // A 300 000-byte handshake message in one-byte records, 1.8 MB of them: moving the
    // rest of the buffer per record took tens of seconds; a read offset takes milliseconds.
    let n = 300_000;
    let msg = handshake_msg(1, &vec![0; n]);
    let bytes: Vec<u8> = msg.iter().flat_map(|b| [22, 3, 3, 0, 1, *b]).collect();
    let mut s =
        Connection::server(server_config(), sized_bufs(bytes.len(), 4096, n + 8), &mut OsRandom)
            .unwrap();
    let start = std::time::Instant::now();
    s.receive_space()[..bytes.len()].copy_from_slice(&bytes);
    let r = s.received(bytes.len());
    let elapsed = start.elapsed();
    assert!(matches!(r, Err(Error::InvalidMessage(_))), "{r:?}");
    assert!(elapsed < std::time::Duration::from_secs(3), "{elapsed:?}");
}

// Item 16 (RFC 8446 §4.6.3: one update answers any number of requests).
#[test]
fn key_update_requests_are_answered_once() {
    let mut c = client(client_config());
    let mut s =
        Connection::server(server_config(), sized_bufs(17_000, 2_000, 8_000), &mut OsRandom)
            .unwrap();
    handshake(&mut c, &mut s).unwrap();
    for _ in 0..tls::conn::MAX_KEY_UPDATES {
        c.key_update().unwrap();
    }
    pump(&mut c, &mut s).unwrap();
    let answer = take(&mut s);
    assert_eq!(records(&answer).len(), 1, "one KeyUpdate answers them all");
    feed(&mut c, &answer).unwrap();
    let mut buf = [0u8; 16];
    assert_eq!(c.write(b"ping").unwrap(), 4);
    pump(&mut c, &mut s).unwrap();
    assert_eq!(s.read(&mut buf).unwrap(), 4);
    assert_eq!(s.write(b"pong").unwrap(), 4);
    pump(&mut s, &mut c).unwrap();
    assert_eq!(c.read(&mut buf).unwrap(), 4);
    assert_eq!(&buf[..4], b"pong");
    // A request after application data is answered again.
    c.key_update().unwrap();
    pump(&mut c, &mut s).unwrap();
    let answer = take(&mut s);
    assert_eq!(records(&answer).len(), 1);
    feed(&mut c, &answer).unwrap();
    // An update of our own does not answer a request that comes after it.
    assert_eq!(s.write(b"x").unwrap(), 1);
    pump(&mut s, &mut c).unwrap();
    assert_eq!(c.read(&mut buf).unwrap(), 1);
    s.key_update().unwrap();
    pump(&mut s, &mut c).unwrap();
    pump(&mut c, &mut s).unwrap(); // the client's answer
    c.key_update().unwrap();
    pump(&mut c, &mut s).unwrap();
    let answer = take(&mut s);
    assert_eq!(records(&answer).len(), 1, "the request is answered");
    feed(&mut c, &answer).unwrap();
}

// Item 12: a failure for lack of room still tells the peer.
#[test]
fn a_client_hello_larger_than_the_handshake_buffer_gets_an_alert() {
    let mut s =
        Connection::server(server_config(), sized_bufs(17_000, 4096, 100), &mut OsRandom).unwrap();
    let ch = take(&mut client(client_config()));
    let r = feed(&mut s, &ch);
    let Err(e @ Error::BufferTooSmall { .. }) = r else { panic!("{r:?}") };
    assert_plain_alert(&s, e, AlertDescription::INTERNAL_ERROR);
}

/// A ClientHello whose server_name extension carries `name`.
fn hello_with_server_name(name: &[u8]) -> Vec<u8> {
    let mut body = ((name.len() + 3) as u16).to_be_bytes().to_vec();
    body.push(0);
    body.extend_from_slice(&(name.len() as u16).to_be_bytes());
    body.extend_from_slice(name);
    edit_hello(&real_client_hello(client_config(), "localhost"), |x| {
        for (t, b) in x.iter_mut() {
            if *t == 0 {
                b.clone_from(&body);
            }
        }
    })
}

// Item 13 (RFC 6066 §3: a DNS host name, ASCII, no IP literal).
#[test]
fn server_names_that_are_not_dns_host_names_are_illegal_parameter() {
    let long_label = format!("{}.example", "a".repeat(64));
    let long_name = format!("{}example", "abcdefghi.".repeat(30));
    let bad: [&[u8]; 10] = [
        b"bad name",
        b"nul\0byte.example",
        b"-leading.example",
        b"trailing-.example",
        b"a..b",
        "caf\u{e9}.example".as_bytes(),
        long_label.as_bytes(),
        long_name.as_bytes(),
        b"192.0.2.1",
        b"[2001:db8::1]",
    ];
    for name in bad {
        let mut s = server(server_config());
        let r = feed(&mut s, &record(22, &hello_with_server_name(name)));
        let err = Error::InvalidMessage(InvalidMessage::IllegalValue);
        assert_eq!(r, Err(err), "{:?}", String::from_utf8_lossy(name));
        assert_plain_alert(&s, err, AlertDescription::ILLEGAL_PARAMETER);
        assert_eq!(s.server_name(), None);
    }
    // Underscores (seen in real names), digits, mixed case and one trailing dot (dropped)
    // are accepted.
    let good: [(&[u8], &str); 3] = [
        (b"_acme-challenge.Example.COM", "_acme-challenge.Example.COM"),
        (b"a.b.c.d.10.example.", "a.b.c.d.10.example"),
        (b"xn--caf-dma.example", "xn--caf-dma.example"),
    ];
    for (name, want) in good {
        let mut s = server(server_config());
        feed(&mut s, &record(22, &hello_with_server_name(name))).unwrap();
        assert_eq!(s.server_name(), Some(want));
    }
}

/// Records standing in for 0-RTT data the server cannot read: `sizes` bodies of junk.
fn early_data_records(sizes: &[usize]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, &n) in sizes.iter().enumerate() {
        let body: Vec<u8> = (0..n).map(|j| (j * 31 + i * 7) as u8).collect();
        out.extend_from_slice(&record(23, &body));
    }
    out
}

/// A server taking a crafted ClientHello with `early_data` and then `early` records;
/// with `retry`, the server asks for P-256 first. Returns the result of the client's
/// Finished (or of the early data, if that failed), and the server.
fn with_early_data(
    retry: bool,
    early: &[u8],
    offer: bool,
) -> (Result<(), Error>, Connection<'static, 'static>) {
    let groups: &'static [NamedGroup] = if retry { &[NamedGroup::SECP256R1] } else { &[X25519] };
    let mut s = server(ServerConfig { groups, ..server_config() });
    let mut mc = MiniClient::new(X25519);
    let ch = mc.hello(|x| {
        if offer {
            x.insert(0, (42, vec![]));
        }
    });
    let mut bytes = mc.send_hello(&ch);
    bytes.extend_from_slice(&record(20, &[1]));
    bytes.extend_from_slice(early);
    if let Err(e) = feed(&mut s, &bytes) {
        return (Err(e), s);
    }
    if let Some(group) = mc.read_flight(&take(&mut s)) {
        assert!(retry);
        mc.share = KeyShare::keygen(group, &[], &mut OsRandom).unwrap();
        let ch2 = mc.hello(|_| {});
        feed(&mut s, &mc.send_hello(&ch2)).unwrap();
        assert_eq!(mc.read_flight(&take(&mut s)), None);
    }
    let fin = mc.finished_msg();
    let r = feed(&mut s, &mc.seal(ContentType::HANDSHAKE, &fin));
    (r, s)
}

// Item 8 (RFC 8446 §4.2.10: a server that declines early data skips it).
#[test]
fn declined_early_data_is_skipped_without_a_retry() {
    let early = early_data_records(&[200, 16_000]);
    let (r, s) = with_early_data(false, &early, true);
    assert_eq!(r, Ok(()));
    assert!(!s.is_handshaking());
    // Without the early_data extension, the same records are bad_record_mac.
    let (r, s) = with_early_data(false, &early, false);
    assert_eq!(r, Err(Error::DecryptFailed));
    assert_alert(&s, Error::DecryptFailed, AlertDescription::BAD_RECORD_MAC);
}

// Item 8 (RFC 8446 §4.2.10: after a HelloRetryRequest, every protected record until the
// second ClientHello).
#[test]
fn declined_early_data_is_skipped_until_the_second_client_hello() {
    let early = early_data_records(&[30, 16_000, 500]);
    let (r, s) = with_early_data(true, &early, true);
    assert_eq!(r, Ok(()));
    assert!(!s.is_handshaking());
    assert!(s.negotiated().unwrap().retried);
}

// Item 8: skipping stops at MAX_SKIPPED_EARLY_DATA bytes of records.
#[test]
fn early_data_past_the_bound_is_unexpected_message() {
    let limit = tls::conn::MAX_SKIPPED_EARLY_DATA;
    for retry in [false, true] {
        // Exactly the bound is skipped.
        let early = early_data_records(&[16_000, limit - 16_000]);
        assert_eq!(with_early_data(retry, &early, true).0, Ok(()));
        let early = early_data_records(&[16_000, limit - 16_000 + 1]);
        let (r, s) = with_early_data(retry, &early, true);
        let err = Error::PeerMisbehaved(PeerMisbehaved::TooMuchEarlyData);
        assert_eq!(r, Err(err));
        assert_eq!(s.error(), Some(err));
        assert_eq!(err.alert(), Some(AlertDescription::UNEXPECTED_MESSAGE));
    }
}

// Item 4: a server that refuses TLS 1.3 with protocol_version is named as such.
#[test]
fn a_protocol_version_alert_to_the_client_hello_says_no_tls13() {
    let mut c = client(ClientConfig { versions: TLS13_ONLY, ..client_config() });
    take(&mut c);
    let err = Error::PeerIncompatible(PeerIncompatible::NoTls13);
    assert_eq!(feed(&mut c, &record(21, &[2, 70])), Err(err));
    assert_eq!(c.error(), Some(err));
    assert!(c.pending_send().is_empty(), "no alert answers an alert");
    assert!(err.to_string().contains("does not support TLS 1.3"), "{err}");
}

// Item 4: a TLS 1.2 ServerHello (with the extensions a 1.2 server sends) says no TLS 1.3.
#[test]
fn a_tls12_server_hello_says_no_tls13() {
    let mut c = client(ClientConfig { versions: TLS13_ONLY, ..client_config() });
    let ch = take(&mut c);
    let sid = &ch[5 + 39..5 + 39 + usize::from(ch[5 + 38])];
    let mut body = vec![3, 3];
    body.extend_from_slice(&[0x17; 32]);
    body.push(sid.len() as u8);
    body.extend_from_slice(sid);
    body.extend_from_slice(&[0xc0, 0x2f, 0]);
    // renegotiation_info, ec_point_formats, extended_master_secret.
    let x = [0xff, 0x01, 0, 1, 0, 0, 0x0b, 0, 2, 1, 0, 0, 0x17, 0, 0];
    body.extend_from_slice(&(x.len() as u16).to_be_bytes());
    body.extend_from_slice(&x);
    let err = Error::PeerIncompatible(PeerIncompatible::NoTls13);
    assert_eq!(feed(&mut c, &record(22, &handshake_msg(2, &body))), Err(err));
    assert_plain_alert(&c, err, AlertDescription::PROTOCOL_VERSION);
    // A TLS 1.1 ServerHello too, whatever its legacy_version says.
    let mut c = client(ClientConfig { versions: TLS13_ONLY, ..client_config() });
    take(&mut c);
    body[1] = 2;
    assert_eq!(feed(&mut c, &record(22, &handshake_msg(2, &body))), Err(err));
    assert_plain_alert(&c, err, AlertDescription::PROTOCOL_VERSION);
    // And a TLS 1.2 client to our server.
    let ch = edit_hello(&real_client_hello(client_config(), "localhost"), |x| {
        x.retain(|(t, _)| *t != 43);
    });
    let mut s = server(ServerConfig { versions: TLS13_ONLY, ..server_config() });
    assert_eq!(feed(&mut s, &record(22, &ch)), Err(err));
    assert_plain_alert(&s, err, AlertDescription::PROTOCOL_VERSION);
    assert_eq!(err.to_string(), "the peer does not support TLS 1.3");
}

// Item 4: handshake_failure for want of a signature scheme names both sides' schemes.
#[test]
fn no_common_signature_scheme_names_the_schemes_each_side_offered() {
    // rsa_pkcs1_sha256, ecdsa_secp521r1_sha512 and two unknown ones, against Ed25519.
    let schemes = [0, 8, 4, 1, 6, 3, 0xfe, 0, 0xfe, 1];
    let ch = edit_hello(&real_client_hello(client_config(), "localhost"), |x| {
        for (t, b) in x.iter_mut() {
            if *t == 13 {
                *b = schemes.to_vec();
            }
        }
    });
    let mut s = server(server_config());
    let r = feed(&mut s, &record(22, &ch));
    let Err(err @ Error::PeerIncompatible(p)) = r else { panic!("{r:?}") };
    assert_eq!(err.alert(), Some(AlertDescription::HANDSHAKE_FAILURE));
    assert_plain_alert(&s, err, AlertDescription::HANDSHAKE_FAILURE);
    let text = err.to_string();
    assert_eq!(
        text,
        "no signature scheme in common: the peer offered rsa_pkcs1_sha256, \
         ecdsa_secp521r1_sha512 and 2 others; our certificates sign with ed25519",
    );
    let PeerIncompatible::NoSchemeInCommon { ours, theirs } = p else { panic!("{p:?}") };
    assert!(ours.iter().eq([tls::msgs::SignatureScheme::ED25519]));
    assert_eq!(theirs.iter().count(), 2);
    assert_eq!(theirs.others(), 2);
}

// Item 8 (RFC 8446 §4.1.2: early data is not offered again after a HelloRetryRequest).
#[test]
fn a_second_client_hello_offering_early_data_again_is_illegal_parameter() {
    let groups: &'static [NamedGroup] = &[NamedGroup::SECP256R1];
    let mut s = server(ServerConfig { groups, ..server_config() });
    let mut mc = MiniClient::new(X25519);
    let ch = mc.hello(|x| x.insert(0, (42, vec![])));
    feed(&mut s, &mc.send_hello(&ch)).unwrap();
    let group = mc.read_flight(&take(&mut s)).unwrap();
    mc.share = KeyShare::keygen(group, &[], &mut OsRandom).unwrap();
    let ch2 = mc.hello(|x| x.insert(0, (42, vec![])));
    let err = Error::InvalidMessage(InvalidMessage::IllegalValue);
    assert_eq!(feed(&mut s, &mc.send_hello(&ch2)), Err(err));
    assert_plain_alert(&s, err, AlertDescription::ILLEGAL_PARAMETER);
}

/// A server that a [`MiniClient`] has finished the handshake with, and the client, now under
/// its application key.
fn server_after_handshake() -> (Connection<'static, 'static>, MiniClient) {
    let mut s = server(server_config());
    let mut mc = MiniClient::new(X25519);
    let ch = mc.hello(|_| {});
    feed(&mut s, &mc.send_hello(&ch)).unwrap();
    mc.read_flight(&take(&mut s));
    feed(&mut s, &mc.finish()).unwrap();
    assert!(!s.is_handshaking());
    take(&mut s); // the tickets
    (s, mc)
}

/// `n` records of `typ` with `content`, protected by `mc`.
fn sealed(mc: &mut MiniClient, n: u8, typ: ContentType, content: &[u8]) -> Vec<u8> {
    (0..n).flat_map(|_| mc.seal(typ, content)).collect()
}

/// Reads one record's worth of application data, which must be `expected`.
fn read_data(conn: &mut Connection<'_, '_>, expected: &[u8]) {
    let mut buf = [0u8; 64];
    let n = conn.read(&mut buf).unwrap();
    assert_eq!(&buf[..n], expected);
}

// RFC 8446 §5.1 allows empty application-data records, but a peer that sends nothing else
// would keep the connection busy for ever: up to MAX_EMPTY_RECORDS in a row are accepted,
// application data starts the count again, one more is unexpected_message.
#[test]
fn too_many_empty_records_in_a_row_are_unexpected_message() {
    let (mut s, mut mc) = server_after_handshake();
    let max = tls::conn::MAX_EMPTY_RECORDS;
    let mut bytes = sealed(&mut mc, max, ContentType::APPLICATION_DATA, b"");
    bytes.extend(mc.seal(ContentType::APPLICATION_DATA, b"data"));
    bytes.extend(sealed(&mut mc, max, ContentType::APPLICATION_DATA, b""));
    feed(&mut s, &bytes).unwrap();
    read_data(&mut s, b"data");
    assert_eq!(s.error(), None);
    let r = feed(&mut s, &mc.seal(ContentType::APPLICATION_DATA, b""));
    let err = Error::PeerMisbehaved(PeerMisbehaved::TooManyEmptyRecords);
    assert_eq!(r, Err(err));
    assert_alert(&s, err, AlertDescription::UNEXPECTED_MESSAGE);
}

// RFC 8446 §6.1: user_canceled does not end the connection, but past MAX_USER_CANCELED with
// no application data in between the peer is flooding.
#[test]
fn too_many_user_canceled_alerts_are_unexpected_message() {
    let (mut s, mut mc) = server_after_handshake();
    let max = tls::conn::MAX_USER_CANCELED;
    let mut bytes = sealed(&mut mc, max, ContentType::ALERT, &[1, 90]);
    bytes.extend(mc.seal(ContentType::APPLICATION_DATA, b"data"));
    bytes.extend(sealed(&mut mc, max, ContentType::ALERT, &[1, 90]));
    feed(&mut s, &bytes).unwrap();
    read_data(&mut s, b"data");
    assert_eq!(s.error(), None);
    let r = feed(&mut s, &mc.seal(ContentType::ALERT, &[1, 90]));
    let err = Error::PeerMisbehaved(PeerMisbehaved::TooManyWarningAlerts);
    assert_eq!(r, Err(err));
    assert_alert(&s, err, AlertDescription::UNEXPECTED_MESSAGE);
}

// RFC 8446 §4.6.3: each KeyUpdate costs a key derivation; past MAX_KEY_UPDATES with no
// application data in between the peer is flooding (either role).
#[test]
fn too_many_key_updates_without_data_are_unexpected_message() {
    let mut c = client(client_config());
    let mut s = server(server_config());
    handshake(&mut c, &mut s).unwrap();
    let max = tls::conn::MAX_KEY_UPDATES;
    for _ in 0..max {
        c.key_update().unwrap();
    }
    pump(&mut c, &mut s).unwrap();
    pump(&mut s, &mut c).unwrap();
    assert_eq!(c.write(b"data").unwrap(), 4);
    pump(&mut c, &mut s).unwrap();
    read_data(&mut s, b"data");
    for _ in 0..max {
        c.key_update().unwrap();
    }
    pump(&mut c, &mut s).unwrap();
    assert_eq!(s.error(), None);
    c.key_update().unwrap();
    let err = Error::PeerMisbehaved(PeerMisbehaved::TooManyKeyUpdates);
    assert_eq!(pump(&mut c, &mut s), Err(err));
    assert_alert(&s, err, AlertDescription::UNEXPECTED_MESSAGE);
    // And the other way round.
    let mut c = client(client_config());
    let mut s = server(server_config());
    handshake(&mut c, &mut s).unwrap();
    for _ in 0..=max {
        s.key_update().unwrap();
    }
    assert_eq!(pump(&mut s, &mut c), Err(err));
    assert_alert(&c, err, AlertDescription::UNEXPECTED_MESSAGE);
}

// RFC 8446 §6: an alert's level is warning(1) or fatal(2); one of another level (BoGo's
// SendBogusAlertType sends 0x42) is a malformed alert, refused with illegal_parameter, not
// passed on as the alert its description names.
#[test]
fn an_alert_of_an_unknown_level_is_illegal_parameter() {
    let mut c = client(client_config());
    take(&mut c);
    let r = feed(&mut c, &record(21, &[0x42, 40]));
    let err = Error::InvalidMessage(InvalidMessage::IllegalValue);
    assert_eq!(r, Err(err));
    assert_plain_alert(&c, err, AlertDescription::ILLEGAL_PARAMETER);
}

// RFC 8446 §5.1: "if a handshake message is split over two or more records, there MUST NOT be
// any other records between them" — early data the server skips after a HelloRetryRequest
// (§4.2.10) included: a record of it between two fragments of the second ClientHello is
// unexpected_message, not skipped (BoGo's SkipEarlyData-HRR-Interleaved-TLS13).
#[test]
fn early_data_inside_a_fragmented_second_client_hello_is_unexpected_message() {
    let groups: &'static [NamedGroup] = &[NamedGroup::SECP256R1];
    let mut s = server(ServerConfig { groups, ..server_config() });
    let mut mc = MiniClient::new(X25519);
    let ch = mc.hello(|x| x.insert(0, (42, vec![])));
    let mut bytes = mc.send_hello(&ch);
    bytes.extend_from_slice(&record(20, &[1]));
    bytes.extend_from_slice(&early_data_records(&[4]));
    feed(&mut s, &bytes).unwrap();
    let group = mc.read_flight(&take(&mut s)).unwrap();
    mc.share = KeyShare::keygen(group, &[], &mut OsRandom).unwrap();
    let ch2 = mc.hello(|_| {});
    let mut bytes = record(22, &ch2[..16]);
    bytes.extend_from_slice(&early_data_records(&[4]));
    bytes.extend_from_slice(&record(22, &ch2[16..]));
    let err = Error::PeerMisbehaved(PeerMisbehaved::InterleavedOrUnalignedRecords);
    assert_eq!(feed(&mut s, &bytes), Err(err));
    assert_plain_alert(&s, err, AlertDescription::UNEXPECTED_MESSAGE);
}
