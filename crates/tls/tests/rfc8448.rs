//! The key schedule and the record layer against RFC 8448: every secret, key and IV of the
//! simple 1-RTT handshake (§3), the PSK-side secrets of the resumed handshake (§4), and the
//! client's Finished record byte for byte.

use hex_literal::hex;
use tls::key_schedule::*;

const CLIENT_HELLO: [u8; 196] = hex!(
    "010000c00303cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece7000006130113031302010000910000000b0009000006736572766572ff01000100000a00140012001d0017001800190100010101020103010400230000003300260024001d002099381de560e4bd43d23d8e435a7dbafeb3c06e51c13cae4d5413691e529aaf2c002b0003020304000d0020001e040305030603020308040805080604010501060102010402050206020202002d00020101001c00024001"
);
const SERVER_HELLO: [u8; 90] = hex!(
    "020000560303a6af06a4121860dc5e6e60249cd34c95930c8ac5cb1434dac155772ed3e2692800130100002e00330024001d0020c9828876112095fe66762bdbf7c672e156d6cc253b833df1dd69b1b04e751f0f002b00020304"
);
const CLIENT_PRIVATE: [u8; 32] =
    hex!("49af42ba7f7994852d713ef2784bcbcaa7911de26adc5642cb634540e7ea5005");
const SERVER_PUBLIC: [u8; 32] =
    hex!("c9828876112095fe66762bdbf7c672e156d6cc253b833df1dd69b1b04e751f0f");
const ECDHE: [u8; 32] = hex!("8bd4054fb55b9d63fdfbacf9f04b9f0d35e6d63f537563efd46272900f89492d");
const HASH_CH_SH: [u8; 32] =
    hex!("860c06edc07858ee8e78f0e7428c58edd6b43f2ca3e6e95f02ed063cf0e1cad8");
const HASH_TO_SERVER_FINISHED: [u8; 32] =
    hex!("9608102a0f1ccc6db6250b7b7e417b1a000eaada3daae4777a7686c9ff83df13");
const HASH_TO_CLIENT_FINISHED: [u8; 32] =
    hex!("209145a96ee8e2a122ff810047cc952684658d6049e86429426db87c54ad143d");
const CLIENT_HS_TRAFFIC: [u8; 32] =
    hex!("b3eddb126e067f35a780b3abf45e2d8f3b1a950738f52e9600746a0e27a55a21");

/// A transcript hash printed in the trace.
fn digest(bytes: &[u8]) -> Digest {
    Digest::from_slice(bytes).unwrap()
}

#[test]
fn transcript_and_ecdhe_match_the_trace() {
    let mut t = Transcript::new(HashAlg::Sha256).unwrap();
    t.update(&CLIENT_HELLO);
    let fork = t.clone();
    t.update(&SERVER_HELLO);
    assert_eq!(t.current().as_ref(), HASH_CH_SH);
    assert_ne!(fork.current().as_ref(), HASH_CH_SH, "the fork did not see ServerHello");
    let shared = core_ec::x25519::x25519(&CLIENT_PRIVATE, &SERVER_PUBLIC).unwrap();
    assert_eq!(shared, ECDHE);
}

#[test]
fn simple_1rtt_schedule() {
    let alg = HashAlg::Sha256;
    let early = EarlySecret::new(alg, None).unwrap();
    assert_eq!(
        early.secret().as_ref(),
        hex!("33ad0a1c607ec03b09e6cd9893680ce210adf300aa1f2660e1b22e10f170f92a")
    );
    let hs = early.into_handshake(&ECDHE);
    assert_eq!(
        hs.secret().as_ref(),
        hex!("1dc826e93606aa6fdc0aadc12f741b01046aa6b99f691ed221a9f0ca043fbeac")
    );
    let th = digest(&HASH_CH_SH);
    let c_hs = hs.client_traffic(&th);
    let s_hs = hs.server_traffic(&th);
    assert_eq!(c_hs.as_ref(), CLIENT_HS_TRAFFIC);
    assert_eq!(
        s_hs.as_ref(),
        hex!("b67b7d690cc16c4e75e54213cb2d37b4e9c912bcded9105d42befd59d391ad38")
    );
    let k = TrafficKey::derive(&s_hs, 16);
    assert_eq!(k.key(), hex!("3fce516009c21727d0f2e4e86ee403bc"));
    assert_eq!(k.iv, hex!("5d313eb2671276ee13000b30"));
    let k = TrafficKey::derive(&c_hs, 16);
    assert_eq!(k.key(), hex!("dbfaa693d1762c5b666af5d950258d01"));
    assert_eq!(k.iv, hex!("5bd3c71b836e0b76bb73265f"));

    let master = hs.into_master();
    assert_eq!(
        master.secret().as_ref(),
        hex!("18df06843d13a08bf2a449844c5f8a478001bc4d4c627984d5a41da8d0402919")
    );
    let th = digest(&HASH_TO_SERVER_FINISHED);
    let c_ap = master.client_traffic(&th);
    let s_ap = master.server_traffic(&th);
    assert_eq!(
        c_ap.as_ref(),
        hex!("9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5")
    );
    assert_eq!(
        s_ap.as_ref(),
        hex!("a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643")
    );
    assert_eq!(
        master.exporter(&th).as_ref(),
        hex!("fe22f881176eda18eb8f44529e6792c50c9a3f89452f68d8ae311b4309d3cf50")
    );
    let k = TrafficKey::derive(&s_ap, 16);
    assert_eq!(k.key(), hex!("9f02283b6c9c07efc26bb9f2ac92e356"));
    assert_eq!(k.iv, hex!("cf782b88dd83549aadf1e984"));
    let k = TrafficKey::derive(&c_ap, 16);
    assert_eq!(k.key(), hex!("17422dda596ed5d9acd890e3c63f5051"));
    assert_eq!(k.iv, hex!("5b78923dee08579033e523d9"));

    // The client's Finished covers the transcript through the server's Finished.
    let verify = finished_verify_data(&c_hs, &th);
    assert_eq!(
        verify.as_ref(),
        hex!("a8ec436d677634ae525ac1fcebe11a039ec17694fac6e98527b642f2edd5ce61")
    );
    assert!(verify_finished(
        &verify,
        &hex!("a8ec436d677634ae525ac1fcebe11a039ec17694fac6e98527b642f2edd5ce61")
    ));

    let res = master.resumption(&digest(&HASH_TO_CLIENT_FINISHED));
    assert_eq!(
        res.as_ref(),
        hex!("7df235f2031d2a051287d02b0241b0bfdaf86cc856231f2d5aba46c434ec196c")
    );
    assert_eq!(
        resumption_psk(&res, &[0, 0]).as_ref(),
        hex!("4ecd0eb6ec3b4d87f5d6028f922ca4c5851a277fd41311c9e62d2c9492e1c4f3")
    );
}

#[test]
fn resumed_handshake_schedule() {
    let alg = HashAlg::Sha256;
    let psk = hex!("4ecd0eb6ec3b4d87f5d6028f922ca4c5851a277fd41311c9e62d2c9492e1c4f3");
    let early = EarlySecret::new(alg, Some(&psk)).unwrap();
    assert_eq!(
        early.secret().as_ref(),
        hex!("9b2188e9b2fc6d64d71dc329900e20bb41915000f678aa839cbb797cb7d8332c")
    );
    assert_eq!(
        early.binder_key(false).as_ref(),
        hex!("69fe131a3bbad5d63c64eebcc30e395b9d8107726a13d074e389dbc8a4e47256")
    );
    let hs = early
        .into_handshake(&hex!("f44194756ff9ec9d25180635d66ea6824c6ab3bf179977be37f723570e7ccb2e"));
    let th = digest(&hex!("f736cb34fe25e701551bee6fd24c1cc7102a7daf9405cb15d97aafe16f757d03"));
    assert_eq!(
        hs.client_traffic(&th).as_ref(),
        hex!("2faac08f851d35fea3604fcb4de82dc62c9b164a70974d0462e27f1ab278700f")
    );
    assert_eq!(
        hs.server_traffic(&th).as_ref(),
        hex!("fe927ae271312e8bf0275b581c54eef020450dc4ecffaa05a1a35d27518e7803")
    );
    let master = hs.into_master();
    let th = digest(&hex!("b0aeffc46a2cfe33114e6fd7d51f9f04b1ca3c497dab08934a774a9d9ad7dbf3"));
    assert_eq!(
        master.client_traffic(&th).as_ref(),
        hex!("2abbf2b8e381d23dbebe1dd2a7d16a8bf484cb4950d23fb7fb7fa8547062d9a1")
    );
    assert_eq!(
        master.server_traffic(&th).as_ref(),
        hex!("cc21f1bf8feb7dd5fa505bd9c4b468a9984d554a993dc49e6d285598fb672691")
    );
}

/// The client's Finished goes out as the first record under the client handshake keys;
/// RFC 8448 prints the whole protected record.
// The trace's suite is TLS_AES_128_GCM_SHA256.
#[cfg(feature = "aes-gcm")]
#[test]
fn client_finished_record_is_byte_equal() {
    use tls::msgs::ContentType;
    use tls::record::RecordProtection;
    use tls::suites::AeadAlg;
    let finished = hex!("14000020a8ec436d677634ae525ac1fcebe11a039ec17694fac6e98527b642f2edd5ce61");
    let record = hex!(
        "170303003575ec4dc238cce60b298044a71e219c56cc77b0517fe9b93c7a4bfc44d87f38f80338ac98fc46deb384bd1caeacab6867d726c40546"
    );
    let secret = Secret::from_slice(HashAlg::Sha256, &CLIENT_HS_TRAFFIC).unwrap();
    let mut tx = RecordProtection::new(AeadAlg::Aes128Gcm, &secret).unwrap();
    let mut out = [0u8; 128];
    let n = tx.seal(ContentType::HANDSHAKE, &finished, 0, &mut out).unwrap();
    assert_eq!(out[..n], record);
    let mut rx = RecordProtection::new(AeadAlg::Aes128Gcm, &secret).unwrap();
    let mut buf = record;
    let (typ, content) = rx.open(&mut buf).unwrap();
    assert_eq!(typ, ContentType::HANDSHAKE);
    assert_eq!(content, finished);
    // Tampering with the tag releases nothing.
    let mut rx = RecordProtection::new(AeadAlg::Aes128Gcm, &secret).unwrap();
    let mut bad = record;
    bad[record.len() - 1] ^= 0x80;
    assert!(rx.open(&mut bad).is_err());
    assert!(bad[5..41].iter().all(|&b| b == 0));
}
