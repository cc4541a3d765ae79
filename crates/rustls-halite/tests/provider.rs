//! The provider's shape (what is on by default, `fips()`), its randomness, and its HKDF,
//! HMAC and hash checked against published vectors.

use rustls::crypto::tls13::OkmBlock;
use rustls::{CipherSuite, NamedGroup, SupportedCipherSuite};

#[test]
fn default_provider_shape() {
    let p = rustls_halite::default_provider();
    assert!(!p.fips());
    let suites: Vec<CipherSuite> =
        p.cipher_suites.iter().map(SupportedCipherSuite::suite).collect();
    assert_eq!(suites.len(), 9);
    assert!(!suites.contains(&CipherSuite::TLS13_AES_128_CCM_SHA256));
    assert!(!suites.contains(&CipherSuite::TLS13_AES_128_CCM_8_SHA256));
    assert_eq!(rustls_halite::ALL_CIPHER_SUITES.len(), 11);
    let groups: Vec<NamedGroup> = p.kx_groups.iter().map(|g| g.name()).collect();
    assert_eq!(
        groups,
        [
            NamedGroup::X25519MLKEM768,
            NamedGroup::X25519,
            NamedGroup::secp256r1,
            NamedGroup::secp384r1,
            NamedGroup::secp521r1
        ]
    );
    // The NIST hybrids are implemented, not on by default; none is usable in TLS 1.2.
    let all: Vec<NamedGroup> = rustls_halite::ALL_KX_GROUPS.iter().map(|g| g.name()).collect();
    assert_eq!(all[5..], [NamedGroup::secp256r1MLKEM768, NamedGroup::Unknown(0x11ed)]);
    for g in rustls_halite::ALL_KX_GROUPS {
        let hybrid = u16::from(g.name()) >> 8 == 0x11;
        assert_eq!(g.usable_for_version(rustls::ProtocolVersion::TLSv1_2), !hybrid, "{g:?}");
    }
    // Usable as the process default, with safe defaults.
    let config =
        rustls::ClientConfig::builder_with_provider(p.into()).with_safe_default_protocol_versions();
    assert!(config.is_ok());
}

#[test]
fn secure_random_fills() {
    let p = rustls_halite::default_provider();
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    p.secure_random.fill(&mut a).unwrap();
    p.secure_random.fill(&mut b).unwrap();
    assert_ne!(a, [0u8; 32]);
    assert_ne!(a, b);
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// RFC 5869 A.1 (HKDF-SHA256), through the AES-128-GCM-SHA256 suite's HKDF.
#[test]
fn hkdf_sha256_rfc5869_case_1() {
    let suite = rustls_halite::cipher_suite::TLS13_AES_128_GCM_SHA256.tls13().unwrap();
    let hkdf = suite.hkdf_provider;
    let ikm = hex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b");
    let salt = hex("000102030405060708090a0b0c");
    let info = hex("f0f1f2f3f4f5f6f7f8f9");
    let expander = hkdf.extract_from_secret(Some(&salt), &ikm);
    let mut okm = [0u8; 42];
    expander.expand_slice(&[&info[..5], &info[5..]], &mut okm).unwrap();
    assert_eq!(
        okm.to_vec(),
        hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    );
    // The same PRK re-entered as an OKM block expands identically.
    let prk = hex("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5");
    let again = hkdf.expander_for_okm(&OkmBlock::new(&prk));
    let mut okm2 = [0u8; 42];
    again.expand_slice(&[&info], &mut okm2).unwrap();
    assert_eq!(okm, okm2);
    // Too long an output is an error, not a panic (255 × 32 bytes is the limit).
    let mut huge = vec![0u8; 255 * 32 + 1];
    assert!(expander.expand_slice(&[&info], &mut huge).is_err());
    // RFC 5869 A.3: no salt, no info.
    let expander = hkdf.extract_from_secret(None, &ikm);
    expander.expand_slice(&[], &mut okm).unwrap();
    assert_eq!(
        okm.to_vec(),
        hex("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    );
    // HMAC-SHA256 (RFC 4231 case 2) through `hmac_sign`.
    let key = OkmBlock::new(b"Jefe");
    let tag = hkdf.hmac_sign(&key, b"what do ya want for nothing?");
    assert_eq!(
        tag.as_ref(),
        hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    );
}

/// The transcript hashes: SHA-256 and SHA-384 of "abc" (FIPS 180-4 examples), one-shot and
/// incrementally with a fork in the middle.
#[test]
fn transcript_hashes() {
    let cases = [
        (
            rustls_halite::cipher_suite::TLS13_AES_128_GCM_SHA256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        ),
        (
            rustls_halite::cipher_suite::TLS13_AES_256_GCM_SHA384,
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
        ),
    ];
    for (suite, want) in cases {
        let hash = suite.tls13().unwrap().common.hash_provider;
        assert_eq!(hash.hash(b"abc").as_ref(), hex(want));
        assert_eq!(hash.output_len(), want.len() / 2);
        let mut ctx = hash.start();
        ctx.update(b"a");
        let fork = ctx.fork();
        ctx.update(b"bc");
        assert_eq!(ctx.fork_finish().as_ref(), hex(want));
        assert_eq!(ctx.finish().as_ref(), hex(want));
        assert_eq!(fork.finish().as_ref(), hash.hash(b"a").as_ref());
    }
}

/// Tickets open under the ticketer that sealed them, and nothing else does.
#[test]
fn ticketer_round_trip_and_refusals() {
    let t = rustls_halite::Ticketer::new().unwrap();
    assert!(t.enabled());
    assert!(t.lifetime() > 0);
    let plain = b"session state to resume from".to_vec();
    let ticket = t.encrypt(&plain).unwrap();
    assert_eq!(t.decrypt(&ticket), Some(plain.clone()));
    // Fresh nonces: the same state never seals to the same ticket.
    assert_ne!(t.encrypt(&plain).unwrap(), ticket);
    for i in 0..ticket.len() {
        let mut bad = ticket.clone();
        bad[i] ^= 0x80;
        assert_eq!(t.decrypt(&bad), None, "byte {i} flipped");
    }
    for n in 0..ticket.len() {
        assert_eq!(t.decrypt(&ticket[..n]), None, "truncated to {n}");
    }
    let other = rustls_halite::Ticketer::new().unwrap();
    assert_eq!(other.decrypt(&ticket), None);
}
