//! `record_size_limit` (RFC 8449) and `max_fragment_length` (RFC 6066 §4) in process: each
//! side splits what it sends to the peer's limit, works with a receive buffer sized for its
//! own limit (see `tls::Buffers`), and a bad value is refused with the right alert. (A peer
//! that exceeds a negotiated limit is tested in `src/conn.rs`, which can make one.)

use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor};
use tls::msgs::{AlertDescription, ContentType, MaxFragmentLength};
use tls::record::HEADER_LEN;
use tls::{
    ApiMisuse, Buffers, CertifiedKey, ClientConfig, Connection, Error, RecordLimits, ServerConfig,
    SigningKey,
};

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

/// Buffers with a receive buffer of `rx` bytes.
fn bufs(rx: usize) -> Buffers<'static> {
    Buffers {
        received: Vec::leak(vec![0; rx]),
        send: Vec::leak(vec![0; 40_000]),
        handshake: Vec::leak(vec![0; 8_000]),
    }
}

fn anchor(der: &'static [u8]) -> &'static [TrustAnchor<'static>] {
    let der = leak(CertificateDer::from(der));
    leak([webpki::anchor_from_trusted_cert(der).unwrap()])
}

/// Moves what `from` has queued into `to` as fast as `to`'s receive buffer allows, reading
/// application data out of `to` (into `sink`) whenever the buffer is full of it.
fn pump(
    from: &mut Connection<'_, '_>,
    to: &mut Connection<'_, '_>,
    sink: &mut Vec<u8>,
) -> Result<(), Error> {
    loop {
        let mut buf = [0u8; 700];
        loop {
            let n = to.read(&mut buf)?;
            if n == 0 {
                break;
            }
            sink.extend_from_slice(&buf[..n]);
        }
        let pending = from.pending_send();
        if pending.is_empty() {
            return Ok(());
        }
        let space = to.receive_space();
        let n = pending.len().min(space.len());
        assert!(n > 0, "receive buffer full without a whole record");
        space[..n].copy_from_slice(&pending[..n]);
        from.sent(n);
        to.received(n)?;
    }
}

fn client_config(
    record_size_limit: Option<u16>,
    max_fragment_length: Option<MaxFragmentLength>,
) -> ClientConfig<'static> {
    // Without the hybrids: their shares would not fit these receive buffers.
    ClientConfig {
        record_size_limit,
        max_fragment_length,
        groups: tls::kx::CLASSICAL_GROUPS,
        ..ClientConfig::new(anchor(include_bytes!("data/ca.der")), &tls::SystemClock)
    }
}

fn server_config(record_size_limit: Option<u16>) -> ServerConfig<'static> {
    let key = leak(SigningKey::from_pkcs8_der(include_bytes!("data/server.key.der")).unwrap());
    ServerConfig {
        record_size_limit,
        ..ServerConfig::new(leak([CertifiedKey {
            chain: leak([&include_bytes!("data/server.der")[..]]),
            key,
        }]))
    }
}

/// A client and a server with receive buffers of `client_rx` and `server_rx` bytes.
fn pair(
    client: ClientConfig<'static>,
    client_rx: usize,
    server: ServerConfig<'static>,
    server_rx: usize,
) -> (Connection<'static, 'static>, Connection<'static, 'static>) {
    let c = Connection::client(client, "localhost", bufs(client_rx), &mut OsRandom).unwrap();
    let s = Connection::server(server, bufs(server_rx), &mut OsRandom).unwrap();
    (c, s)
}

/// Runs the handshake; returns the body lengths of the protected records each side sent
/// (client's, server's).
fn handshake(
    c: &mut Connection<'_, '_>,
    s: &mut Connection<'_, '_>,
) -> Result<(Vec<usize>, Vec<usize>), Error> {
    let (mut from_c, mut from_s) = (Vec::new(), Vec::new());
    for _ in 0..4 {
        from_c.extend(record_lengths(c.pending_send()));
        pump(c, s, &mut Vec::new())?;
        from_s.extend(record_lengths(s.pending_send()));
        pump(s, c, &mut Vec::new())?;
    }
    assert!(!c.is_handshaking() && !s.is_handshaking());
    Ok((from_c, from_s))
}

/// The body lengths of the whole protected records in `data` (plaintext ones skipped).
fn record_lengths(data: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + HEADER_LEN <= data.len() {
        let protected = data[at] == ContentType::APPLICATION_DATA.0;
        let len = usize::from(u16::from_be_bytes([data[at + 3], data[at + 4]]));
        if protected {
            out.push(len);
        }
        at += HEADER_LEN + len;
    }
    assert_eq!(at, data.len());
    out
}

/// Sends `len` bytes from `from` to `to` and checks they arrive intact, in records whose
/// bodies are at most `max_body`; returns how many records carried them.
fn send_checked(
    from: &mut Connection<'_, '_>,
    to: &mut Connection<'_, '_>,
    len: usize,
    max_body: usize,
) -> usize {
    let msg: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
    let mut got = Vec::new();
    let mut records = 0;
    let mut done = 0;
    while done < msg.len() {
        done += from.write(&msg[done..]).unwrap();
        let lens = record_lengths(from.pending_send());
        assert!(lens.iter().all(|&l| l <= max_body), "{lens:?} over {max_body}");
        records += lens.len();
        pump(from, to, &mut got).unwrap();
    }
    assert_eq!(got, msg);
    records
}

#[test]
fn server_fragments_to_the_clients_limit() {
    // Records of 5 + 64 + 16 bytes, but the (unprotected) ServerHello is longer.
    let (mut c, mut s) = pair(client_config(Some(64), None), 140, server_config(None), 17_000);
    let (_, server_records) = handshake(&mut c, &mut s).unwrap();
    // The server's flight (its certificate is far over 63 bytes) arrived split, every
    // protected record within the limit, and the client reassembled it.
    assert!(server_records.len() > 10, "{server_records:?}");
    assert!(server_records.iter().all(|&l| l <= 64 + 16), "{server_records:?}");
    // The server answered with the protocol's limit: the client may send full records.
    assert_eq!(c.record_limits(), RecordLimits { send: 1 << 14, receive: 64 });
    assert_eq!(s.record_limits(), RecordLimits { send: 63, receive: (1 << 14) + 1 });
    // 63 content bytes + type byte + 16-byte tag per full record.
    assert_eq!(send_checked(&mut s, &mut c, 1000, 64 + 16), 1000usize.div_ceil(63));
    assert_eq!(send_checked(&mut c, &mut s, 20_000, (1 << 14) + 1 + 16), 2);
}

/// Both sides with small limits and receive buffers no larger than a hello and one record
/// at their limit: data far larger than either limit is split and arrives intact.
#[test]
fn small_limits_both_ways() {
    // 5 + 128 + 16: room for the ServerHello (127 bytes with x25519) and one record.
    let client_rx = 5 + 128 + 16;
    // 5 + 512 + 16: room for the ClientHello and one record.
    let server_rx = 5 + 512 + 16;
    let (mut c, mut s) =
        pair(client_config(Some(128), None), client_rx, server_config(Some(512)), server_rx);
    let (client_records, server_records) = handshake(&mut c, &mut s).unwrap();
    assert!(server_records.iter().all(|&l| l <= 128 + 16), "{server_records:?}");
    assert!(client_records.iter().all(|&l| l <= 512 + 16), "{client_records:?}");
    assert_eq!(c.record_limits(), RecordLimits { send: 511, receive: 128 });
    assert_eq!(s.record_limits(), RecordLimits { send: 127, receive: 512 });
    assert_eq!(send_checked(&mut s, &mut c, 5000, 128 + 16), 5000usize.div_ceil(127));
    assert_eq!(send_checked(&mut c, &mut s, 5000, 512 + 16), 5000usize.div_ceil(511));
    // KeyUpdate and close_notify travel within the limits too.
    c.key_update().unwrap();
    pump(&mut c, &mut s, &mut Vec::new()).unwrap();
    pump(&mut s, &mut c, &mut Vec::new()).unwrap();
    assert_eq!(send_checked(&mut s, &mut c, 300, 128 + 16), 3);
    c.close();
    pump(&mut c, &mut s, &mut Vec::new()).unwrap();
    assert_eq!(s.want(), tls::Want::Closed);
}

#[test]
fn max_fragment_length_both_ways() {
    let m = MaxFragmentLength::LEN_512;
    // 5 + 513 + 16: one record of 512 content bytes and its type byte.
    let (mut c, mut s) = pair(client_config(None, Some(m)), 534, server_config(None), 534);
    let (client_records, server_records) = handshake(&mut c, &mut s).unwrap();
    assert!(server_records.iter().all(|&l| l <= 513 + 16), "{server_records:?}");
    assert!(client_records.iter().all(|&l| l <= 513 + 16), "{client_records:?}");
    let limits = RecordLimits { send: 512, receive: 513 };
    assert_eq!((c.record_limits(), s.record_limits()), (limits, limits));
    assert_eq!(send_checked(&mut s, &mut c, 3000, 513 + 16), 6);
    assert_eq!(send_checked(&mut c, &mut s, 3000, 513 + 16), 6);
}

/// Offered both, a server that knows `record_size_limit` answers that one only (RFC 8449
/// §5), and the fragment length is not in force.
#[test]
fn record_size_limit_wins_over_max_fragment_length() {
    let client = client_config(Some(200), Some(MaxFragmentLength::LEN_512));
    let (mut c, mut s) = pair(client, 17_000, server_config(Some(1000)), 17_000);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(c.record_limits(), RecordLimits { send: 999, receive: 200 });
    assert_eq!(s.record_limits(), RecordLimits { send: 199, receive: 1000 });
}

#[test]
fn without_a_limit_records_are_full_size() {
    let (mut c, mut s) = pair(client_config(None, None), 17_000, server_config(Some(100)), 17_000);
    handshake(&mut c, &mut s).unwrap();
    // The server's own limit is only in force when the client sent the extension.
    let full = RecordLimits { send: 1 << 14, receive: (1 << 14) + 1 };
    assert_eq!((c.record_limits(), s.record_limits()), (full, full));
    assert_eq!(send_checked(&mut s, &mut c, 1000, 1000 + 1 + 16), 1);
    assert_eq!(send_checked(&mut c, &mut s, 1000, 1000 + 1 + 16), 1);
}

#[test]
fn configured_limits_out_of_range_are_refused() {
    let bad_config = Error::ApiMisuse(ApiMisuse::BadConfig);
    for limit in [0, 63, (1 << 14) + 2, u16::MAX] {
        let r = Connection::client(client_config(Some(limit), None), "x", bufs(100), &mut OsRandom);
        assert_eq!(r.map(|_| ()), Err(bad_config), "{limit}");
        let r = Connection::server(server_config(Some(limit)), bufs(100), &mut OsRandom);
        assert_eq!(r.map(|_| ()), Err(bad_config), "{limit}");
    }
    let r = Connection::client(
        client_config(None, Some(MaxFragmentLength(5))),
        "x",
        bufs(100),
        &mut OsRandom,
    );
    assert_eq!(r.map(|_| ()), Err(bad_config));
}

/// Replaces the first occurrence of `from` in `bytes` by `to` (same length).
fn patch(bytes: &mut [u8], from: &[u8], to: &[u8]) {
    let at = bytes.windows(from.len()).position(|w| w == from).expect("pattern not found");
    bytes[at..at + to.len()].copy_from_slice(to);
}

/// A `ClientHello` changed by `edit` fed to a fresh server: the server's error.
fn server_error_for(client: ClientConfig<'static>, edit: impl Fn(&mut [u8])) -> Error {
    let (mut c, mut s) = pair(client, 17_000, server_config(None), 17_000);
    let mut hello = c.pending_send().to_vec();
    edit(&mut hello);
    s.receive_space()[..hello.len()].copy_from_slice(&hello);
    let err = s.received(hello.len()).unwrap_err();
    // The alert is queued for the client.
    let mut alert = Vec::new();
    let _ = pump(&mut s, &mut c, &mut alert);
    assert_eq!(c.error(), Some(Error::AlertReceived(err.alert().unwrap())));
    err
}

#[test]
fn a_limit_below_64_is_illegal_parameter() {
    // The extension as our client writes it for 64: type 28, length 2, value 0x0040.
    let err = server_error_for(client_config(Some(64), None), |h| {
        patch(h, &[0, 28, 0, 2, 0, 64], &[0, 28, 0, 2, 0, 63]);
    });
    assert_eq!(err.alert(), Some(AlertDescription::ILLEGAL_PARAMETER));
}

#[test]
fn an_undefined_fragment_length_is_illegal_parameter() {
    for code in [0u8, 5, 255] {
        let err = server_error_for(client_config(None, Some(MaxFragmentLength::LEN_1024)), |h| {
            patch(h, &[0, 1, 0, 1, 2], &[0, 1, 0, 1, code]);
        });
        assert_eq!(err.alert(), Some(AlertDescription::ILLEGAL_PARAMETER), "{code}");
    }
}
