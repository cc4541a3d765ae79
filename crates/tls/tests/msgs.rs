//! The codec against the messages of RFC 8448 §3 (simple 1-RTT handshake): each decodes to
//! the fields the trace shows, re-encodes to something that decodes to the same value, and
//! every truncation or extra byte is refused.

use hex_literal::hex;
use proptest::prelude::*;
use tls::msgs::*;

const CLIENT_HELLO: [u8; 196] = hex!(
    "010000c00303cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece7000006130113031302010000910000000b0009000006736572766572ff01000100000a00140012001d0017001800190100010101020103010400230000003300260024001d002099381de560e4bd43d23d8e435a7dbafeb3c06e51c13cae4d5413691e529aaf2c002b0003020304000d0020001e040305030603020308040805080604010501060102010402050206020202002d00020101001c00024001"
);
const SERVER_HELLO: [u8; 90] = hex!(
    "020000560303a6af06a4121860dc5e6e60249cd34c95930c8ac5cb1434dac155772ed3e2692800130100002e00330024001d0020c9828876112095fe66762bdbf7c672e156d6cc253b833df1dd69b1b04e751f0f002b00020304"
);
const ENCRYPTED_EXTENSIONS: [u8; 40] =
    hex!("080000240022000a00140012001d00170018001901000101010201030104001c0002400100000000");
const CLIENT_FINISHED: [u8; 36] =
    hex!("14000020a8ec436d677634ae525ac1fcebe11a039ec17694fac6e98527b642f2edd5ce61");

/// The encoding of a message or body of either version.
fn encode<'a, T: Codec<'a>>(m: &T) -> Vec<u8> {
    let mut buf = vec![0u8; 1 << 16];
    let mut w = Writer::new(&mut buf);
    m.encode(&mut w).unwrap();
    let n = w.len();
    buf.truncate(n);
    buf
}

fn assert_round_trip(m: &HandshakeMessage<'_>) -> Vec<u8> {
    let bytes = encode(m);
    assert_eq!(&HandshakeMessage::decode(&bytes).unwrap(), m);
    bytes
}

/// Every strict prefix of a message is refused, and so is one extra byte.
fn assert_rejects_truncation_and_trailing(bytes: &[u8]) {
    for n in 0..bytes.len() {
        assert!(HandshakeMessage::decode(&bytes[..n]).is_err(), "prefix {n} accepted");
    }
    let mut extra = bytes.to_vec();
    extra.push(0);
    assert_eq!(HandshakeMessage::decode(&extra), Err(InvalidMessage::TrailingData));
}

#[test]
fn rfc8448_client_hello() {
    let HandshakeMessage::ClientHello(ch) = HandshakeMessage::decode(&CLIENT_HELLO).unwrap() else {
        panic!("not a ClientHello")
    };
    assert_eq!(ch.random[..4], hex!("cb34ecb1"));
    assert!(ch.session_id.is_empty());
    assert!(ch.cipher_suites.iter().eq([
        CipherSuite::TLS13_AES_128_GCM_SHA256,
        CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
        CipherSuite::TLS13_AES_256_GCM_SHA384,
    ]));
    let x = ch.extensions;
    assert_eq!(x.server_name, Some(&b"server"[..]));
    assert!(x.supported_versions.unwrap().iter().eq([ProtocolVersion::TLSV1_3]));
    let groups: Vec<_> = x.supported_groups.unwrap().iter().collect();
    assert_eq!(groups[0], NamedGroup::X25519);
    assert_eq!(groups.len(), 9);
    let shares: Vec<_> = x.key_shares.unwrap().iter().collect();
    assert_eq!(shares.len(), 1);
    assert_eq!(shares[0].group, NamedGroup::X25519);
    assert_eq!(
        shares[0].key,
        hex!("99381de560e4bd43d23d8e435a7dbafeb3c06e51c13cae4d5413691e529aaf2c")
    );
    assert_eq!(x.signature_algorithms.unwrap().iter().count(), 15);
    assert!(x.signature_algorithms.unwrap().contains(&SignatureScheme::RSA_PSS_RSAE_SHA256));
    assert!(!x.signature_algorithms.unwrap().contains(&SignatureScheme::ED25519));
    assert!(x.psk_modes.unwrap().iter().eq([PskKeyExchangeMode::PSK_DHE_KE]));
    assert_eq!(x.record_size_limit, Some(0x4001));
    assert_eq!(x.alpn, None);
    assert_round_trip(&HandshakeMessage::ClientHello(ch));
    assert_rejects_truncation_and_trailing(&CLIENT_HELLO);
}

#[test]
fn rfc8448_server_hello_reencodes_byte_equal() {
    let m = HandshakeMessage::decode(&SERVER_HELLO).unwrap();
    let HandshakeMessage::ServerHello(sh) = m else { panic!("not a ServerHello") };
    assert!(!sh.is_retry_request());
    assert_eq!(sh.cipher_suite, CipherSuite::TLS13_AES_128_GCM_SHA256);
    assert_eq!(sh.extensions.supported_version, Some(ProtocolVersion::TLSV1_3));
    let ks = sh.extensions.key_share.unwrap();
    assert_eq!(ks.group, NamedGroup::X25519);
    assert_eq!(ks.key[..4], hex!("c9828876"));
    // The trace's extension order is the one the encoder uses.
    assert_eq!(assert_round_trip(&m), SERVER_HELLO);
    assert_rejects_truncation_and_trailing(&SERVER_HELLO);
}

#[test]
fn rfc8448_encrypted_extensions_and_finished() {
    let HandshakeMessage::EncryptedExtensions(ee) =
        HandshakeMessage::decode(&ENCRYPTED_EXTENSIONS).unwrap()
    else {
        panic!("not EncryptedExtensions")
    };
    assert!(ee.server_name_ack);
    assert_eq!(ee.record_size_limit, Some(0x4001));
    assert_eq!(ee.supported_groups.unwrap().iter().count(), 9);
    assert_round_trip(&HandshakeMessage::EncryptedExtensions(ee));
    assert_rejects_truncation_and_trailing(&ENCRYPTED_EXTENSIONS);

    let fin = HandshakeMessage::decode(&CLIENT_FINISHED).unwrap();
    assert_eq!(fin, HandshakeMessage::Finished(&CLIENT_FINISHED[4..]));
    assert_eq!(assert_round_trip(&fin), CLIENT_FINISHED);
}

#[test]
fn duplicate_and_misplaced_extensions_are_refused() {
    // ServerHello with supported_versions twice.
    let mut sh = SERVER_HELLO.to_vec();
    sh.extend_from_slice(&hex!("002b00020304"));
    sh[3] += 6; // handshake length
    sh[43] += 6; // extensions length (low byte)
    assert_eq!(HandshakeMessage::decode(&sh), Err(InvalidMessage::DuplicateExtension));
    // ServerHello carrying server_name, which only ClientHello/EncryptedExtensions may.
    let mut sh = SERVER_HELLO.to_vec();
    sh.extend_from_slice(&hex!("00000000"));
    sh[3] += 4;
    sh[43] += 4;
    assert_eq!(HandshakeMessage::decode(&sh), Err(InvalidMessage::UnexpectedExtension));
}

#[test]
fn hello_retry_request_round_trips() {
    let hrr = HandshakeMessage::ServerHello(ServerHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random: HELLO_RETRY_REQUEST_RANDOM,
        session_id: &[7; 32],
        cipher_suite: CipherSuite::TLS13_AES_256_GCM_SHA384,
        extensions: ServerHelloExtensions {
            supported_version: Some(ProtocolVersion::TLSV1_3),
            selected_group: Some(NamedGroup::SECP256R1),
            cookie: Some(b"cookie!"),
            key_share: None,
            selected_identity: None,
            ..ServerHelloExtensions::default()
        },
    });
    let bytes = assert_round_trip(&hrr);
    let HandshakeMessage::ServerHello(back) = HandshakeMessage::decode(&bytes).unwrap() else {
        panic!()
    };
    assert!(back.is_retry_request());
}

#[test]
fn certificate_verify_ticket_and_key_update_round_trip() {
    let entries = [
        CertificateEntry { cert: &[0x30, 1, 2], extensions: &[] },
        CertificateEntry { cert: &[0x30, 3], extensions: &[0, 5, 0, 0] },
    ];
    let cert =
        HandshakeMessage::Certificate(Certificate { context: &[], entries: List::items(&entries) });
    let bytes = assert_round_trip(&cert);
    assert_rejects_truncation_and_trailing(&bytes);
    let cv = HandshakeMessage::CertificateVerify(CertificateVerify {
        scheme: SignatureScheme::ED25519,
        signature: &[9; 64],
    });
    assert_rejects_truncation_and_trailing(&assert_round_trip(&cv));
    let schemes = [SignatureScheme::ED25519, SignatureScheme::RSA_PSS_RSAE_SHA256];
    let cr = HandshakeMessage::CertificateRequest(tls::msgs::CertificateRequest {
        context: &[],
        signature_algorithms: Some(List::items(&schemes)),
    });
    let bytes = assert_round_trip(&cr);
    assert_eq!(bytes, hex!("0d00000d 00 000a 000d 0006 0004 0807 0804"));
    assert_rejects_truncation_and_trailing(&bytes);
    let nst = HandshakeMessage::NewSessionTicket(NewSessionTicket {
        lifetime: 7200,
        age_add: 0xdead_beef,
        nonce: &[0, 0],
        ticket: &[1, 2, 3],
        extensions: &[],
    });
    assert_rejects_truncation_and_trailing(&assert_round_trip(&nst));
    assert_eq!(
        HandshakeMessage::decode(&hex!("1800000102")),
        Err(InvalidMessage::IllegalValue),
        "KeyUpdate request values above 1 are illegal"
    );
}

#[test]
fn split_handshake_waits_for_whole_messages() {
    assert_eq!(split_handshake(&CLIENT_FINISHED[..35]), None);
    let mut two = CLIENT_FINISHED.to_vec();
    two.extend_from_slice(&[1, 2]);
    assert_eq!(split_handshake(&two), Some((&CLIENT_FINISHED[..], &[1u8, 2][..])));
}

proptest! {
    /// Arbitrary bytes never make the decoder panic, and whatever decodes re-encodes to
    /// something that decodes to the same message.
    #[test]
    fn decode_is_total(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        if let Ok(m) = HandshakeMessage::decode(&bytes) {
            let again = encode(&m);
            prop_assert_eq!(HandshakeMessage::decode(&again).unwrap(), m);
        }
    }

    /// The same for the TLS 1.2 reader: no panic, and what decodes re-encodes to a message
    /// that decodes to the same value.
    #[test]
    fn decode12_is_total(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        if let Ok(m) = HandshakeMessage12::decode(&bytes) {
            let again = encode(&m);
            prop_assert_eq!(HandshakeMessage12::decode(&again).unwrap(), m);
        }
    }

    /// Mutating one byte of the ClientHello read as TLS 1.2 never panics either, and the
    /// 1.2 reader accepts a hello only if the 1.3 one does.
    #[test]
    fn mutated_client_hello12_is_total(at in 0usize..196, v in any::<u8>()) {
        let mut ch = CLIENT_HELLO;
        ch[at] = v;
        if HandshakeMessage12::decode(&ch).is_ok() {
            prop_assert!(HandshakeMessage::decode(&ch).is_ok());
        }
    }

    /// Mutating one byte of the ClientHello either still decodes or is an error: never a panic.
    #[test]
    fn mutated_client_hello_is_total(at in 0usize..196, v in any::<u8>()) {
        let mut ch = CLIENT_HELLO;
        ch[at] = v;
        let _ = HandshakeMessage::decode(&ch);
    }
}

/// `pre_shared_key` round-trips, must be the last extension, and needs one binder per
/// identity; the binders' encoded length is what the binder computation cuts off.
#[test]
fn pre_shared_key_extension() {
    let ids = [PskIdentity { identity: b"ticket", obfuscated_age: 0x0102_0304 }];
    let binders = [PskBinder(&[0xab; 32])];
    let ch = HandshakeMessage::ClientHello(ClientHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random: [1; 32],
        session_id: &[],
        cipher_suites: List::items(&[CipherSuite::TLS13_AES_128_GCM_SHA256]),
        extensions: ClientExtensions {
            psk_modes: Some(List::items(&[PskKeyExchangeMode::PSK_DHE_KE])),
            pre_shared_key: Some(OfferedPsks {
                identities: List::items(&ids),
                binders: List::items(&binders),
            }),
            ..ClientExtensions::default()
        },
    });
    let bytes = assert_round_trip(&ch);
    assert_rejects_truncation_and_trailing(&bytes);
    let HandshakeMessage::ClientHello(back) = HandshakeMessage::decode(&bytes).unwrap() else {
        panic!()
    };
    let offer = back.extensions.pre_shared_key.unwrap();
    assert_eq!(offer.binders_encoded_len(), 2 + 1 + 32);
    assert_eq!(bytes[bytes.len() - 35..bytes.len() - 32], [0, 33, 32]);

    // Another extension after pre_shared_key.
    let mut late = bytes.clone();
    late.extend_from_slice(&[0xff, 0x01, 0, 0]);
    let n = late.len() - 4;
    late[1..4].copy_from_slice(&(n as u32).to_be_bytes()[1..]);
    // Fix the extensions block length (2 bytes after the compression methods).
    let ext_at = 4 + 2 + 32 + 1 + 2 + 2 + 2;
    let ext_len = u16::from_be_bytes([late[ext_at], late[ext_at + 1]]) + 4;
    late[ext_at..ext_at + 2].copy_from_slice(&ext_len.to_be_bytes());
    assert_eq!(HandshakeMessage::decode(&late), Err(InvalidMessage::IllegalValue));

    // Two identities, one binder.
    let ids2 = [ids[0], ids[0]];
    let ch = HandshakeMessage::ClientHello(ClientHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random: [1; 32],
        session_id: &[],
        cipher_suites: List::items(&[CipherSuite::TLS13_AES_128_GCM_SHA256]),
        extensions: ClientExtensions {
            pre_shared_key: Some(OfferedPsks {
                identities: List::items(&ids2),
                binders: List::items(&binders),
            }),
            ..ClientExtensions::default()
        },
    });
    let mut buf = vec![0u8; 512];
    let mut w = Writer::new(&mut buf);
    ch.encode(&mut w).unwrap();
    let n = w.len();
    // The hello decodes (a TLS 1.2 server ignores the extension) with the error kept, which
    // a TLS 1.3 server refuses it with.
    let Ok(HandshakeMessage::ClientHello(back)) = HandshakeMessage::decode(&buf[..n]) else {
        panic!()
    };
    assert_eq!(back.extensions.pre_shared_key, None);
    assert_eq!(back.extensions.pre_shared_key_error, Some(InvalidMessage::IllegalValue));
}

/// `max_fragment_length` (RFC 6066 §4) and `record_size_limit` (RFC 8449) in a `ClientHello`
/// and `EncryptedExtensions`: each round-trips, its wire bytes are the RFC's, and a fragment
/// length code outside 1..=4 is refused as an illegal value.
#[test]
fn record_limit_extensions() {
    let ch = HandshakeMessage::ClientHello(ClientHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random: [1; 32],
        session_id: &[],
        cipher_suites: List::items(&[CipherSuite::TLS13_AES_128_GCM_SHA256]),
        extensions: ClientExtensions {
            record_size_limit: Some(256),
            max_fragment_length: Some(MaxFragmentLength::LEN_2048),
            ..ClientExtensions::default()
        },
    });
    let bytes = assert_round_trip(&ch);
    assert!(bytes.windows(6).any(|w| w == [0, 28, 0, 2, 1, 0]), "record_size_limit 256");
    assert!(bytes.windows(5).any(|w| w == [0, 1, 0, 1, 3]), "max_fragment_length 2^11");
    assert_rejects_truncation_and_trailing(&bytes);
    for code in [0u8, 5, 0xff] {
        let mut bad = bytes.clone();
        let at = bad.windows(5).position(|w| w == [0, 1, 0, 1, 3]).unwrap();
        bad[at + 4] = code;
        assert_eq!(HandshakeMessage::decode(&bad), Err(InvalidMessage::IllegalValue), "{code}");
    }
    let ee = HandshakeMessage::EncryptedExtensions(EncryptedExtensions {
        max_fragment_length: Some(MaxFragmentLength::LEN_512),
        ..EncryptedExtensions::default()
    });
    let bytes = assert_round_trip(&ee);
    assert_eq!(bytes, [8, 0, 0, 7, 0, 5, 0, 1, 0, 1, 1]);
    assert_rejects_truncation_and_trailing(&bytes);
    let mut bad = bytes.clone();
    bad[10] = 7;
    assert_eq!(HandshakeMessage::decode(&bad), Err(InvalidMessage::IllegalValue));
    // Twice is a duplicate.
    let twice = [8, 0, 0, 12, 0, 10, 0, 1, 0, 1, 1, 0, 1, 0, 1, 1];
    assert_eq!(HandshakeMessage::decode(&twice), Err(InvalidMessage::DuplicateExtension));
    assert_eq!(MaxFragmentLength::LEN_512.bytes(), Some(512));
    assert_eq!(MaxFragmentLength::LEN_4096.bytes(), Some(4096));
    assert_eq!(MaxFragmentLength(0).bytes(), None);
}

/// The TLS 1.2 messages as [`HandshakeMessage12`] reads them: each round-trips under its
/// type and refuses truncation and trailing bytes; the 1.3 reader still refuses the 1.2-only
/// types and the 1.2 reader the 1.3-only ones.
#[test]
fn tls12_messages_have_their_own_reader() {
    use tls::msgs::tls12::*;
    fn round_trip(m: &HandshakeMessage12<'_>) -> Vec<u8> {
        let buf = encode(m);
        assert_eq!(&HandshakeMessage12::decode(&buf).unwrap(), m);
        assert_eq!(buf[0], m.typ().0);
        assert!(HandshakeMessage12::is_tls12_type(m.typ()));
        for k in 0..buf.len() {
            assert!(HandshakeMessage12::decode(&buf[..k]).is_err(), "prefix {k} accepted");
        }
        let mut extra = buf.clone();
        extra.push(0);
        assert!(HandshakeMessage12::decode(&extra).is_err());
        buf
    }
    let schemes = [SignatureScheme::RSA_PKCS1_SHA256];
    let certs = [Asn1Cert(b"\x30\x00")];
    let ske = ServerKeyExchange {
        params: EcdheParams { group: NamedGroup::X25519, public: &[9; 32] },
        scheme: SignatureScheme::RSA_PKCS1_SHA256,
        signature: &[1, 2, 3],
    };
    let msgs = [
        HandshakeMessage12::HelloRequest,
        HandshakeMessage12::Certificate(Certificate12 { certs: List::items(&certs) }),
        HandshakeMessage12::ServerKeyExchange(ske),
        HandshakeMessage12::CertificateRequest(CertificateRequest12 {
            certificate_types: &[ECDSA_SIGN],
            signature_algorithms: List::items(&schemes),
            certificate_authorities: List::items(&[]),
        }),
        HandshakeMessage12::ServerHelloDone,
        HandshakeMessage12::CertificateVerify(CertificateVerify {
            scheme: SignatureScheme::ECDSA_SECP256R1_SHA256,
            signature: &[0x30, 0],
        }),
        HandshakeMessage12::ClientKeyExchange(ClientKeyExchange { public: &[4; 65] }),
        HandshakeMessage12::Finished(&[7; 12]),
        HandshakeMessage12::NewSessionTicket(NewSessionTicket12 {
            lifetime_hint: 300,
            ticket: b"t",
        }),
    ];
    for m in &msgs {
        let bytes = round_trip(m);
        // The 1.3 reader refuses every 1.2-only type as it did before 1.2 existed.
        let only12 = [
            HandshakeType::HELLO_REQUEST,
            HandshakeType::SERVER_KEY_EXCHANGE,
            HandshakeType::SERVER_HELLO_DONE,
            HandshakeType::CLIENT_KEY_EXCHANGE,
        ];
        if only12.contains(&m.typ()) {
            assert_eq!(
                HandshakeMessage::decode(&bytes),
                Err(InvalidMessage::IllegalValue),
                "{m:?}"
            );
        }
    }
    assert_eq!(encode_hello12(&CLIENT_HELLO)[0], 1);
    assert_eq!(HandshakeMessage12::decode(&hex!("00000000")), Ok(HandshakeMessage12::HelloRequest));
    assert_eq!(
        HandshakeMessage12::decode(&hex!("0e000000")),
        Ok(HandshakeMessage12::ServerHelloDone)
    );
    assert_eq!(HandshakeMessage12::decode(&hex!("0e00000100")), Err(InvalidMessage::TrailingData));
    assert_eq!(HandshakeMessage12::decode(&hex!("00000001 00")), Err(InvalidMessage::TrailingData));
    // The 1.3-only ones are refused by the 1.2 reader.
    assert_eq!(
        HandshakeMessage12::decode(&ENCRYPTED_EXTENSIONS),
        Err(InvalidMessage::IllegalValue)
    );
    assert_eq!(HandshakeMessage12::decode(&hex!("1800000100")), Err(InvalidMessage::IllegalValue));
    assert!(!HandshakeMessage12::is_tls12_type(HandshakeType::KEY_UPDATE));
    assert!(!HandshakeMessage12::is_tls12_type(HandshakeType::ENCRYPTED_EXTENSIONS));
}

// The RFC 8448 hello read by the 1.2 reader is the same hello, re-encoded.
fn encode_hello12(bytes: &[u8]) -> Vec<u8> {
    let m = HandshakeMessage12::decode(bytes).unwrap();
    let HandshakeMessage12::ClientHello(ch) = m else { panic!("not a ClientHello") };
    let HandshakeMessage::ClientHello(ch13) = HandshakeMessage::decode(bytes).unwrap() else {
        panic!()
    };
    assert_eq!(ch.hello, ch13);
    // RFC 8448's hello carries an empty renegotiation_info and an empty session_ticket.
    assert_eq!(
        ch.tls12,
        ClientExtensions12 {
            renegotiation_info: Some(tls::msgs::tls12::RenegotiationInfo::INITIAL),
            session_ticket: Some(tls::msgs::tls12::SessionTicketExt(&[])),
            ..ClientExtensions12::default()
        }
    );
    encode(&m)
}

// `body` with the extensions block `exts` (type, body) appended, as a handshake message of
// type `typ` (with its header).
fn hello_with(typ: u8, mut body: Vec<u8>, exts: &[(u16, &[u8])]) -> Vec<u8> {
    let mut block = Vec::new();
    for (t, b) in exts {
        block.extend(t.to_be_bytes());
        block.extend(u16::try_from(b.len()).unwrap().to_be_bytes());
        block.extend(*b);
    }
    body.extend(u16::try_from(block.len()).unwrap().to_be_bytes());
    body.extend(block);
    let mut msg = vec![typ, 0];
    msg.extend(u16::try_from(body.len()).unwrap().to_be_bytes());
    msg.extend(body);
    msg
}

// A ClientHello message (with its header) whose extensions block is `exts` (type, body).
fn client_hello_with(exts: &[(u16, &[u8])]) -> Vec<u8> {
    let mut body = vec![3, 3];
    body.extend([5; 32]);
    body.extend([0, 0, 4, 0xc0, 0x2b, 0x13, 0x01, 1, 0]);
    hello_with(1, body, exts)
}

// The TLS 1.2 extensions of a ClientHello: the 1.3 reader skips them (whatever they hold),
// the 1.2 reader decodes them strictly; they round-trip ahead of pre_shared_key.
#[test]
fn client_hello_tls12_extensions() {
    use tls::msgs::tls12::{EcPointFormats, RenegotiationInfo, SessionTicketExt};
    let ids = [PskIdentity { identity: b"ticket", obfuscated_age: 7 }];
    let binders = [PskBinder(&[0xab; 32])];
    let suites = [
        CipherSuite::ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        CipherSuite::EMPTY_RENEGOTIATION_INFO_SCSV,
    ];
    let ch = ClientHello12 {
        hello: ClientHello {
            legacy_version: ProtocolVersion::TLSV1_2,
            random: [1; 32],
            session_id: &[2; 32],
            cipher_suites: List::items(&suites),
            extensions: ClientExtensions {
                psk_modes: Some(List::items(&[PskKeyExchangeMode::PSK_DHE_KE])),
                pre_shared_key: Some(OfferedPsks {
                    identities: List::items(&ids),
                    binders: List::items(&binders),
                }),
                ..ClientExtensions::default()
            },
        },
        tls12: ClientExtensions12 {
            extended_master_secret: true,
            renegotiation_info: Some(RenegotiationInfo::INITIAL),
            ec_point_formats: Some(EcPointFormats::UNCOMPRESSED_ONLY),
            session_ticket: Some(SessionTicketExt(b"old ticket")),
            encrypt_then_mac: true,
        },
    };
    let msg = encode(&HandshakeMessage12::ClientHello(ch));
    assert_eq!(HandshakeMessage12::decode(&msg), Ok(HandshakeMessage12::ClientHello(ch)));
    // The 1.3 reader takes the same bytes (pre_shared_key is still last) and sees the hello.
    let HandshakeMessage::ClientHello(h) = HandshakeMessage::decode(&msg).unwrap() else {
        panic!()
    };
    assert_eq!(h, ch.hello);
    assert!(h.has_empty_renegotiation_info_scsv());
    assert!(!h.has_fallback_scsv());
    assert!(h.offers_suite(CipherSuite::ECDHE_ECDSA_WITH_AES_128_GCM_SHA256));
    for n in 0..msg.len() {
        assert!(HandshakeMessage12::decode(&msg[..n]).is_err(), "prefix {n}");
    }
    let fallback =
        ClientHello { cipher_suites: List::items(&[CipherSuite::FALLBACK_SCSV]), ..ch.hello };
    assert!(fallback.has_fallback_scsv() && !fallback.has_empty_renegotiation_info_scsv());

    // Each malformed 1.2 extension: ignored by the 1.3 reader, refused by the 1.2 one.
    let cases: [(u16, &[u8], InvalidMessage); 6] = [
        (23, &[0], InvalidMessage::TrailingData),
        (0xff01, &[], InvalidMessage::Truncated),
        (0xff01, &[2, 0], InvalidMessage::Truncated),
        (0xff01, &[0, 0], InvalidMessage::TrailingData),
        (11, &[2, 1, 2], InvalidMessage::IllegalValue),
        (11, &[0], InvalidMessage::BadLength),
    ];
    for (typ, body, err) in cases {
        let m = client_hello_with(&[(typ, body)]);
        let HandshakeMessage::ClientHello(h) = HandshakeMessage::decode(&m).unwrap() else {
            panic!()
        };
        assert_eq!(h.extensions, ClientExtensions::default(), "{typ:#x}");
        assert_eq!(HandshakeMessage12::decode(&m), Err(err), "{typ:#x} {body:?}");
    }
    // Well-formed ones, and repeats (refused by both readers).
    let m = client_hello_with(&[(23, &[]), (11, &[3, 0, 1, 2]), (35, &[]), (0xff01, &[0])]);
    let Ok(HandshakeMessage12::ClientHello(c)) = HandshakeMessage12::decode(&m) else { panic!() };
    assert!(c.tls12.extended_master_secret);
    assert_eq!(c.tls12.ec_point_formats.map(|f| f.0.iter().count()), Some(3));
    assert_eq!(c.tls12.session_ticket, Some(SessionTicketExt(&[])));
    assert_eq!(c.tls12.renegotiation_info, Some(RenegotiationInfo::INITIAL));
    let repeats: [(u16, &[u8]); 4] = [(23, &[]), (35, &[]), (0xff01, &[0]), (11, &[1, 0])];
    for (typ, body) in repeats {
        let m = client_hello_with(&[(typ, body), (typ, body)]);
        assert_eq!(HandshakeMessage::decode(&m), Err(InvalidMessage::DuplicateExtension));
        assert_eq!(HandshakeMessage12::decode(&m), Err(InvalidMessage::DuplicateExtension));
    }
}

// A ServerHello with extensions `exts`, and supported_versions 1.3 first if `v13`.
fn server_hello_with(v13: bool, exts: &[(u16, &[u8])]) -> Vec<u8> {
    let mut body = vec![3, 3];
    body.extend([5; 32]);
    body.extend([0, 0x13, 0x01, 0]);
    let supported_versions: (u16, &[u8]) = (43, &[3, 4]);
    let all: Vec<(u16, &[u8])> =
        v13.then_some(supported_versions).into_iter().chain(exts.iter().copied()).collect();
    hello_with(2, body, &all)
}

// A ServerHello without supported_versions (TLS 1.2) has its extensions read; one with it
// (TLS 1.3) still refuses them, malformed or not, as before.
#[test]
fn server_hello_tls12_extensions() {
    use tls::msgs::tls12::{EcPointFormats, RenegotiationInfo};
    let sh = HandshakeMessage::ServerHello(ServerHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random: [4; 32],
        session_id: &[9; 32],
        cipher_suite: CipherSuite::ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        extensions: ServerHelloExtensions {
            extended_master_secret: true,
            renegotiation_info: Some(RenegotiationInfo::INITIAL),
            ec_point_formats: Some(EcPointFormats::UNCOMPRESSED_ONLY),
            session_ticket: true,
            alpn: Some(b"h2"),
            server_name_ack: true,
            max_fragment_length: Some(MaxFragmentLength::LEN_1024),
            record_size_limit: Some(1024),
            ..ServerHelloExtensions::default()
        },
    });
    let bytes = assert_round_trip(&sh);
    assert_rejects_truncation_and_trailing(&bytes);
    assert_eq!(HandshakeMessage12::decode(&bytes).unwrap().typ(), HandshakeType::SERVER_HELLO);

    let malformed: [(u16, &[u8], InvalidMessage); 7] = [
        (23, &[0], InvalidMessage::TrailingData),
        (35, b"ticket", InvalidMessage::TrailingData),
        (0xff01, &[1], InvalidMessage::Truncated),
        (11, &[1, 1], InvalidMessage::IllegalValue),
        (16, &[0, 3, 2, b'h', b'2', 0], InvalidMessage::TrailingData),
        (16, &[0, 1, 0], InvalidMessage::BadLength),
        (1, &[9], InvalidMessage::IllegalValue),
    ];
    for (typ, body, err) in malformed {
        assert_eq!(
            HandshakeMessage::decode(&server_hello_with(false, &[(typ, body)])),
            Err(err),
            "{typ}"
        );
        // In a TLS 1.3 ServerHello the type alone is refused, whatever the body.
        assert_eq!(
            HandshakeMessage::decode(&server_hello_with(true, &[(typ, body)])),
            Err(InvalidMessage::UnexpectedExtension),
            "{typ}"
        );
    }
    let two_alpn: &[u8] = &[0, 6, 2, b'h', b'2', 2, b'h', b'3'];
    assert_eq!(
        HandshakeMessage::decode(&server_hello_with(false, &[(16, two_alpn)])),
        Err(InvalidMessage::IllegalValue)
    );
    assert_eq!(
        HandshakeMessage::decode(&server_hello_with(false, &[(23, &[]), (23, &[])])),
        Err(InvalidMessage::DuplicateExtension)
    );
    // An unknown type in a 1.2 hello is one the client did not offer: unsupported_extension
    // (RFC 5246 §7.4.1.4).
    let unknown = server_hello_with(false, &[(0x1234, &[1]), (23, &[]), (0, &[])]);
    assert_eq!(HandshakeMessage::decode(&unknown), Err(InvalidMessage::UnexpectedExtension));
    // One the client offers (BoGo's SupportedCurves-ServerHello-TLS12) is skipped.
    let known = server_hello_with(false, &[(23, &[]), (0, &[]), (10, &[0, 2, 0, 29])]);
    let HandshakeMessage::ServerHello(s) = HandshakeMessage::decode(&known).unwrap() else {
        panic!()
    };
    assert!(s.extensions.extended_master_secret && s.extensions.server_name_ack);
    assert_eq!(s.extensions.supported_version, None);
}
