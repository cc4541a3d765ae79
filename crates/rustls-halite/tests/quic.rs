//! QUIC on this provider: the packets of RFC 9001 Appendix A byte for byte (A.2 client Initial,
//! A.3 server Initial, A.5 ChaCha20-Poly1305 short header), Initial keys derived through
//! rustls's `quic::Keys::initial`; then full rustls QUIC handshakes in memory, Halite on both
//! sides and against ring, for each suite, with handshake, 1-RTT and key-updated packets sealed
//! by one side and opened by the other, and tampered packets refused.

mod common;

use std::sync::Arc;

use hex_literal::hex;
use pki_types::ServerName;
use rustls::crypto::cipher::{AeadKey, Iv};
use rustls::quic::{self, DirectionalKeys, KeyChange, Keys, PacketKeySet, Version};
use rustls::version::TLS13;
use rustls::{CipherSuite, NamedGroup, Tls13CipherSuite};

use common::{Cert, Side, client_config, narrowed, server_config};

/// The client's Destination Connection ID of RFC 9001 Appendix A.
const DCID: [u8; 8] = hex!("8394c8f03e515708");

/// A.2: the client Initial's header (packet number 2 in four bytes) and its CRYPTO frame,
/// padded to 1162 bytes with PADDING frames.
const A2_HEADER: [u8; 22] = hex!("c300000001088394c8f03e5157080000449e00000002");
const A2_CRYPTO: [u8; 245] = hex!(
    "060040f1010000ed0303ebf8fa56f12939b9584a3896472ec40bb863cfd3e868"
    "04fe3a47f06a2b69484c00000413011302010000c000000010000e00000b6578"
    "616d706c652e636f6dff01000100000a00080006001d00170018001000070005"
    "04616c706e000500050100000000003300260024001d00209370b2c9caa47fba"
    "baf4559fedba753de171fa71f50f1ce15d43e994ec74d748002b000302030400"
    "0d0010000e0403050306030203080408050806002d00020101001c0002400100"
    "3900320408ffffffffffffffff05048000ffff07048000ffff08011001048000"
    "75300901100f088394c8f03e51570806048000ffff"
);
const A2_PAYLOAD_LEN: usize = 1162;
/// A.2: the protected client Initial, 1200 bytes.
const A2_PROTECTED: [u8; 1200] = hex!(
    "c000000001088394c8f03e5157080000449e7b9aec34d1b1c98dd7689fb8ec11"
    "d242b123dc9bd8bab936b47d92ec356c0bab7df5976d27cd449f63300099f399"
    "1c260ec4c60d17b31f8429157bb35a1282a643a8d2262cad67500cadb8e7378c"
    "8eb7539ec4d4905fed1bee1fc8aafba17c750e2c7ace01e6005f80fcb7df6212"
    "30c83711b39343fa028cea7f7fb5ff89eac2308249a02252155e2347b63d58c5"
    "457afd84d05dfffdb20392844ae812154682e9cf012f9021a6f0be17ddd0c208"
    "4dce25ff9b06cde535d0f920a2db1bf362c23e596d11a4f5a6cf3948838a3aec"
    "4e15daf8500a6ef69ec4e3feb6b1d98e610ac8b7ec3faf6ad760b7bad1db4ba3"
    "485e8a94dc250ae3fdb41ed15fb6a8e5eba0fc3dd60bc8e30c5c4287e53805db"
    "059ae0648db2f64264ed5e39be2e20d82df566da8dd5998ccabdae053060ae6c"
    "7b4378e846d29f37ed7b4ea9ec5d82e7961b7f25a9323851f681d582363aa5f8"
    "9937f5a67258bf63ad6f1a0b1d96dbd4faddfcefc5266ba6611722395c906556"
    "be52afe3f565636ad1b17d508b73d8743eeb524be22b3dcbc2c7468d54119c74"
    "68449a13d8e3b95811a198f3491de3e7fe942b330407abf82a4ed7c1b311663a"
    "c69890f4157015853d91e923037c227a33cdd5ec281ca3f79c44546b9d90ca00"
    "f064c99e3dd97911d39fe9c5d0b23a229a234cb36186c4819e8b9c5927726632"
    "291d6a418211cc2962e20fe47feb3edf330f2c603a9d48c0fcb5699dbfe58964"
    "25c5bac4aee82e57a85aaf4e2513e4f05796b07ba2ee47d80506f8d2c25e50fd"
    "14de71e6c418559302f939b0e1abd576f279c4b2e0feb85c1f28ff18f58891ff"
    "ef132eef2fa09346aee33c28eb130ff28f5b766953334113211996d20011a198"
    "e3fc433f9f2541010ae17c1bf202580f6047472fb36857fe843b19f5984009dd"
    "c324044e847a4f4a0ab34f719595de37252d6235365e9b84392b061085349d73"
    "203a4a13e96f5432ec0fd4a1ee65accdd5e3904df54c1da510b0ff20dcc0c77f"
    "cb2c0e0eb605cb0504db87632cf3d8b4dae6e705769d1de354270123cb11450e"
    "fc60ac47683d7b8d0f811365565fd98c4c8eb936bcab8d069fc33bd801b03ade"
    "a2e1fbc5aa463d08ca19896d2bf59a071b851e6c239052172f296bfb5e724047"
    "90a2181014f3b94a4e97d117b438130368cc39dbb2d198065ae3986547926cd2"
    "162f40a29f0c3c8745c0f50fba3852e566d44575c29d39a03f0cda721984b6f4"
    "40591f355e12d439ff150aab7613499dbd49adabc8676eef023b15b65bfc5ca0"
    "6948109f23f350db82123535eb8a7433bdabcb909271a6ecbcb58b936a88cd4e"
    "8f2e6ff5800175f113253d8fa9ca8885c2f552e657dc603f252e1a8e308f76f0"
    "be79e2fb8f5d5fbbe2e30ecadd220723c8c0aea8078cdfcb3868263ff8f09400"
    "54da48781893a7e49ad5aff4af300cd804a6b6279ab3ff3afb64491c85194aab"
    "760d58a606654f9f4400e8b38591356fbf6425aca26dc85244259ff2b19c41b9"
    "f96f3ca9ec1dde434da7d2d392b905ddf3d1f9af93d1af5950bd493f5aa731b4"
    "056df31bd267b6b90a079831aaf579be0a39013137aac6d404f518cfd4684064"
    "7e78bfe706ca4cf5e9c5453e9f7cfd2b8b4c8d169a44e55c88d4a9a7f9474241"
    "e221af44860018ab0856972e194cd934"
);

/// A.3: the server Initial's header (packet number 1 in two bytes), payload (ACK and CRYPTO
/// frames) and protected packet.
const A3_HEADER: [u8; 20] = hex!("c1000000010008f067a5502a4262b50040750001");
const A3_PAYLOAD: [u8; 99] = hex!(
    "02000000000600405a020000560303eefce7f7b37ba1d1632e96677825ddf739"
    "88cfc79825df566dc5430b9a045a1200130100002e00330024001d00209d3c94"
    "0d89690b84d08a60993c144eca684d1081287c834d5311bcf32bb9da1a002b00"
    "020304"
);
const A3_PROTECTED: [u8; 135] = hex!(
    "cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a"
    "5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3"
    "dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84"
    "022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4"
    "2158407dd074ee"
);

fn tls13(suite: rustls::SupportedCipherSuite) -> &'static Tls13CipherSuite {
    suite.tls13().unwrap()
}

fn quic_alg(suite: &'static Tls13CipherSuite) -> &'static dyn quic::Algorithm {
    suite.quic.expect("the suite offers QUIC")
}

/// The Initial keys of `side` for the RFC's connection ID, on Halite's AES-128-GCM suite.
fn initial_keys(side: rustls::Side) -> Keys {
    let suite = tls13(rustls_halite::cipher_suite::TLS13_AES_128_GCM_SHA256);
    Keys::initial(Version::V1, suite, quic_alg(suite), &DCID, side)
}

/// Protects a packet (RFC 9001 §5.3, §5.4): seals `payload` behind `header`, whose last
/// `pn_len` bytes are the packet number, then masks the header with the sample taken four bytes
/// past the packet number's start.
fn protect(
    keys: &DirectionalKeys,
    pn: u64,
    header: &[u8],
    pn_len: usize,
    payload: &[u8],
) -> Vec<u8> {
    let mut packet = [header, payload].concat();
    let tag = keys.packet.encrypt_in_place(pn, header, &mut packet[header.len()..]).unwrap();
    packet.extend_from_slice(tag.as_ref());
    let pn_offset = header.len() - pn_len;
    let sample = packet[pn_offset + 4..pn_offset + 4 + keys.header.sample_len()].to_vec();
    let (first, rest) = packet.split_first_mut().unwrap();
    keys.header
        .encrypt_in_place(&sample, first, &mut rest[pn_offset - 1..pn_offset - 1 + pn_len])
        .unwrap();
    packet
}

/// Removes protection as a receiver does, knowing only where the packet number starts: the
/// header mask over four bytes, then the payload under the full packet number `pn`, whose low
/// bytes must be the ones on the wire. Returns the plaintext payload.
fn unprotect(
    keys: &DirectionalKeys,
    pn: u64,
    pn_offset: usize,
    packet: &mut [u8],
) -> Result<Vec<u8>, String> {
    let sample = packet[pn_offset + 4..pn_offset + 4 + keys.header.sample_len()].to_vec();
    let (first, rest) = packet.split_first_mut().unwrap();
    keys.header
        .decrypt_in_place(&sample, first, &mut rest[pn_offset - 1..pn_offset + 3])
        .map_err(|e| format!("header: {e}"))?;
    let pn_len = usize::from(packet[0] & 3) + 1;
    if packet[pn_offset..pn_offset + pn_len] != pn.to_be_bytes()[8 - pn_len..] {
        return Err("packet number".into());
    }
    let (header, payload) = packet.split_at_mut(pn_offset + pn_len);
    keys.packet.decrypt_in_place(pn, header, payload).map(<[u8]>::to_vec).map_err(|e| e.to_string())
}

/// A.2: the client's Initial keys seal and mask the client Initial into the RFC's 1200 bytes;
/// the server's open it back.
#[test]
fn rfc9001_a2_client_initial() {
    let mut payload = A2_CRYPTO.to_vec();
    payload.resize(A2_PAYLOAD_LEN, 0);
    let client = initial_keys(rustls::Side::Client);
    let packet = protect(&client.local, 2, &A2_HEADER, 4, &payload);
    assert_eq!(packet.len(), A2_PROTECTED.len());
    assert_eq!(packet, A2_PROTECTED);

    let server = initial_keys(rustls::Side::Server);
    let mut packet = A2_PROTECTED.to_vec();
    assert_eq!(unprotect(&server.remote, 2, 18, &mut packet).unwrap(), payload);
    assert_eq!(packet[..A2_HEADER.len()], A2_HEADER);
}

/// A.3: the server's Initial keys seal and mask the server Initial (a two-byte packet number)
/// into the RFC's bytes; the client's open it back.
#[test]
fn rfc9001_a3_server_initial() {
    let server = initial_keys(rustls::Side::Server);
    let packet = protect(&server.local, 1, &A3_HEADER, 2, &A3_PAYLOAD);
    assert_eq!(packet, A3_PROTECTED);

    let client = initial_keys(rustls::Side::Client);
    let mut packet = A3_PROTECTED.to_vec();
    assert_eq!(unprotect(&client.remote, 1, 18, &mut packet).unwrap(), A3_PAYLOAD);
    assert_eq!(packet[..A3_HEADER.len()], A3_HEADER);
}

/// A.5: ChaCha20-Poly1305 on a short header with a three-byte packet number (654360564), from
/// the RFC's key, IV and header protection key: mask `aefefe7d03`, then the 21-byte packet.
#[test]
fn rfc9001_a5_chacha20_short_header() {
    const PN: u64 = 654_360_564;
    let alg = quic_alg(tls13(rustls_halite::cipher_suite::TLS13_CHACHA20_POLY1305_SHA256));
    assert_eq!(alg.aead_key_len(), 32);
    let keys = DirectionalKeys {
        header: alg.header_protection_key(AeadKey::from(hex!(
            "25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4"
        ))),
        packet: alg.packet_key(
            AeadKey::from(hex!("c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8")),
            Iv::new(hex!("e0459b3474bdd0e44a41c144")),
        ),
    };
    let packet = protect(&keys, PN, &hex!("4200bff4"), 3, &hex!("01"));
    assert_eq!(packet, hex!("4cfe4189655e5cd55c41f69080575d7999c25a5bfb"));
    // The mask itself, through zero packet number bytes: a four-byte packet number (first byte
    // 0x43) takes all four mask bytes, a one-byte one (0x40) only the first; a short header's
    // first byte takes the mask's low five bits.
    for (first, want) in [(0x43u8, hex!("fefe7d03")), (0x40, hex!("fe000000"))] {
        let (mut masked, mut pn) = (first, [0u8; 4]);
        keys.header.encrypt_in_place(&packet[5..21], &mut masked, &mut pn).unwrap();
        assert_eq!((masked, pn), (first ^ (0xae & 0x1f), want));
        keys.header.decrypt_in_place(&packet[5..21], &mut masked, &mut pn).unwrap();
        assert_eq!((masked, pn), (first, [0; 4]));
    }

    let mut packet = packet;
    assert_eq!(unprotect(&keys, PN, 1, &mut packet).unwrap(), hex!("01"));
}

/// Header protection refuses a sample of the wrong length and a packet number longer than four
/// bytes, leaving the header as it was.
#[test]
fn header_protection_refuses_bad_lengths() {
    for suite in
        rustls_halite::DEFAULT_CIPHER_SUITES.iter().filter_map(rustls::SupportedCipherSuite::tls13)
    {
        let keys = Keys::initial(Version::V1, suite, quic_alg(suite), &DCID, rustls::Side::Client);
        let hp = &keys.local.header;
        assert_eq!(hp.sample_len(), 16);
        let (mut first, mut pn) = (0xc3u8, [1u8, 2, 3, 4, 5]);
        assert!(hp.encrypt_in_place(&[0; 15], &mut first, &mut pn[..4]).is_err());
        assert!(hp.encrypt_in_place(&[0; 17], &mut first, &mut pn[..4]).is_err());
        assert!(hp.decrypt_in_place(&[0; 16], &mut first, &mut pn).is_err());
        assert_eq!((first, pn), (0xc3, [1, 2, 3, 4, 5]));
        assert_eq!(keys.local.packet.tag_len(), 16);
    }
}

const SUITES: [CipherSuite; 3] = [
    CipherSuite::TLS13_AES_128_GCM_SHA256,
    CipherSuite::TLS13_AES_256_GCM_SHA384,
    CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
];

/// The keys one side of a QUIC handshake was handed, in order.
#[derive(Default)]
struct Received {
    handshake: Option<Keys>,
    one_rtt: Option<(Keys, quic::Secrets)>,
}

impl Received {
    fn take(&mut self, change: KeyChange) {
        match change {
            KeyChange::Handshake { keys } => self.handshake = Some(keys),
            KeyChange::OneRtt { keys, next } => self.one_rtt = Some((keys, next)),
        }
    }
}

/// Moves all of `from`'s pending handshake data to `to`, delivering what was written under
/// one set of keys before `from` turns to the next (as a QUIC stack would send each in its own
/// packet space), and keeping the keys `from` is handed.
fn step(
    from: &mut quic::Connection,
    to: &mut quic::Connection,
    keys: &mut Received,
) -> Result<usize, String> {
    let mut moved = 0;
    loop {
        let mut buf = Vec::new();
        let change = from.write_hs(&mut buf);
        if !buf.is_empty() {
            to.read_hs(&buf).map_err(|e| format!("read_hs: {e}"))?;
            moved += buf.len();
        }
        match change {
            Some(change) => keys.take(change),
            None if buf.is_empty() => return Ok(moved),
            None => {}
        }
    }
}

/// A QUIC handshake between `client` and `server` offering only `suite`; returns the keys
/// each was handed.
fn quic_handshake(
    client: Side,
    server: Side,
    suite: CipherSuite,
) -> Result<(Received, Received), String> {
    let (Some(cp), Some(sp)) =
        (narrowed(client, suite, NamedGroup::X25519), narrowed(server, suite, NamedGroup::X25519))
    else {
        return Err("provider lacks the suite".into());
    };
    let mut cc = client_config(cp, &TLS13, Cert::P256, None)?;
    let mut sc = server_config(sp, &TLS13, Cert::P256, None)?;
    cc.alpn_protocols = vec![b"hq-interop".to_vec()];
    sc.alpn_protocols = vec![b"hq-interop".to_vec()];
    let name = ServerName::try_from("localhost").map_err(|e| e.to_string())?;
    let mut c: quic::Connection =
        quic::ClientConnection::new(Arc::new(cc), Version::V1, name, b"client params".to_vec())
            .map_err(|e| format!("client: {e}"))?
            .into();
    let mut s: quic::Connection =
        quic::ServerConnection::new(Arc::new(sc), Version::V1, b"server params".to_vec())
            .map_err(|e| format!("server: {e}"))?
            .into();
    let (mut ck, mut sk) = (Received::default(), Received::default());
    for _ in 0..8 {
        let moved = step(&mut c, &mut s, &mut ck)? + step(&mut s, &mut c, &mut sk)?;
        if moved == 0 && !c.is_handshaking() && !s.is_handshaking() {
            for (who, conn, params) in
                [("client", &c, b"server params"), ("server", &s, b"client params")]
            {
                let got = conn.negotiated_cipher_suite().map(|s| s.suite());
                if got != Some(suite) {
                    return Err(format!("{who} negotiated {got:?}"));
                }
                if conn.quic_transport_parameters() != Some(&params[..]) {
                    return Err(format!("{who} got the wrong transport parameters"));
                }
            }
            return Ok((ck, sk));
        }
    }
    Err("QUIC handshake did not finish".into())
}

/// A 1200-byte short-header packet from `from`'s keys opens under `to`'s, for a few packet
/// numbers; with any one byte of the header, payload or tag flipped, or under another packet
/// number, it does not.
fn check_direction(from: &DirectionalKeys, to: &DirectionalKeys, what: &str) {
    let payload: Vec<u8> = (0..1200 - 5 - 16u32).map(|i| (i * 31 + 7) as u8).collect();
    for pn in [0u64, 1, 0x1234, 0x00ff_ffff] {
        let header = [&[0x43u8][..], &(pn as u32).to_be_bytes()].concat();
        let packet = protect(from, pn, &header, 4, &payload);
        assert_eq!(packet.len(), 1200);
        assert_eq!(unprotect(to, pn, 1, &mut packet.clone()).unwrap(), payload, "{what} pn {pn}");
        // Flip a clear bit of the first byte, and bytes of the ciphertext and the tag outside
        // the header protection sample (bytes 5..21, which would change the unmasked packet
        // number instead: a wrong nonce, checked next).
        for i in [0usize, 21, 600, 1183, 1184, 1199] {
            let mut bad = packet.clone();
            bad[i] ^= if i == 0 { 0x20 } else { 0x01 };
            assert!(unprotect(to, pn, 1, &mut bad).is_err(), "{what}: byte {i} flipped opened");
        }
        let mut sealed = packet[5..].to_vec();
        let wrong_pn = to.packet.decrypt_in_place(pn + 1, &header, &mut sealed);
        assert!(wrong_pn.is_err(), "{what}: opened under the wrong packet number");
        let mut sealed = packet[5..].to_vec();
        assert_eq!(to.packet.decrypt_in_place(pn, &header, &mut sealed).unwrap(), payload);
    }
}

fn check_packet_keys(sending: &PacketKeySet, receiving: &PacketKeySet, what: &str) {
    let header = [0x40u8, 0, 0, 0, 9];
    let mut packet = b"after a key update".to_vec();
    let tag = sending.local.encrypt_in_place(9, &header, &mut packet).unwrap();
    packet.extend_from_slice(tag.as_ref());
    let mut tampered = packet.clone();
    tampered[3] ^= 4;
    assert_eq!(
        receiving.remote.decrypt_in_place(9, &header, &mut packet).unwrap(),
        b"after a key update",
        "{what}"
    );
    assert!(receiving.remote.decrypt_in_place(9, &header, &mut tampered).is_err(), "{what}");
}

/// Runs a QUIC handshake for every suite between the two sides, and checks the handshake,
/// 1-RTT and updated 1-RTT keys each side got against the other's in both directions.
fn quic_matrix(client: Side, server: Side) {
    for suite in SUITES {
        let what = format!("{client:?} client, {server:?} server, {suite:?}");
        let (c, s) =
            quic_handshake(client, server, suite).unwrap_or_else(|e| panic!("{what}: {e}"));
        let (ch, sh) = (
            c.handshake.expect("client handshake keys"),
            s.handshake.expect("server handshake keys"),
        );
        check_direction(&ch.local, &sh.remote, &format!("{what}, handshake, client to server"));
        check_direction(&sh.local, &ch.remote, &format!("{what}, handshake, server to client"));
        let ((c1, mut c_next), (s1, mut s_next)) =
            (c.one_rtt.expect("client 1-RTT"), s.one_rtt.expect("server 1-RTT"));
        check_direction(&c1.local, &s1.remote, &format!("{what}, 1-RTT, client to server"));
        check_direction(&s1.local, &c1.remote, &format!("{what}, 1-RTT, server to client"));
        // Key update (RFC 9001 §6): both sides step to the next generation together.
        let (cu, su) = (c_next.next_packet_keys(), s_next.next_packet_keys());
        check_packet_keys(&cu, &su, &format!("{what}, updated, client to server"));
        check_packet_keys(&su, &cu, &format!("{what}, updated, server to client"));
        // The old generation's packets do not open under the new one.
        let mut packet = b"old".to_vec();
        let tag = c1.local.packet.encrypt_in_place(3, &[0x40], &mut packet).unwrap();
        packet.extend_from_slice(tag.as_ref());
        assert!(su.remote.decrypt_in_place(3, &[0x40], &mut packet).is_err(), "{what}");
    }
}

#[test]
fn quic_halite_both_sides() {
    quic_matrix(Side::Halite, Side::Halite);
}

#[test]
fn quic_halite_client_ring_server() {
    quic_matrix(Side::Halite, Side::Ring);
}

#[test]
fn quic_ring_client_halite_server() {
    quic_matrix(Side::Ring, Side::Halite);
}

/// Initial keys derived by Halite and by ring for the same connection ID protect a packet into
/// the same bytes, for each suite, QUIC version 1 and 2, both sides, and the multipath nonce.
#[test]
fn same_packets_as_ring() {
    let ring = rustls::crypto::ring::default_provider();
    let header = hex!("c300000001088394c8f03e5157080000449e00000002");
    let payload = [0x5au8; 300];
    for suite in SUITES {
        let ours = rustls_halite::ALL_CIPHER_SUITES.iter().find(|s| s.suite() == suite);
        let theirs = ring.cipher_suites.iter().find(|s| s.suite() == suite);
        let (ours, theirs) = (ours.unwrap().tls13().unwrap(), theirs.unwrap().tls13().unwrap());
        for (dcid, version) in
            [(&DCID[..], Version::V1), (b"", Version::V1), (&[0xa5; 20], Version::V2)]
        {
            for side in [rustls::Side::Client, rustls::Side::Server] {
                let a = Keys::initial(version, ours, quic_alg(ours), dcid, side);
                let b = Keys::initial(version, theirs, quic_alg(theirs), dcid, side);
                let what = format!("{suite:?} {version:?} {side:?}");
                assert_eq!(
                    protect(&a.local, 77, &header, 4, &payload),
                    protect(&b.local, 77, &header, 4, &payload),
                    "{what}"
                );
                let (mut pa, mut pb) = (payload, payload);
                let ta =
                    a.remote.packet.encrypt_in_place_for_path(3, 77, &header, &mut pa).unwrap();
                let tb =
                    b.remote.packet.encrypt_in_place_for_path(3, 77, &header, &mut pb).unwrap();
                assert_eq!((pa, ta.as_ref()), (pb, tb.as_ref()), "{what}, path 3");
                let mut sealed = [&pa[..], ta.as_ref()].concat();
                let opened = a.remote.packet.decrypt_in_place_for_path(3, 77, &header, &mut sealed);
                assert_eq!(opened.unwrap(), payload, "{what}, path 3");
            }
        }
    }
}
