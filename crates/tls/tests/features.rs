//! What a build leaves out is refused before a connection starts, in every feature set: a
//! key-exchange group or a suite whose cargo feature is off is `ApiMisuse::BadConfig` (and
//! missing from `kx::ALL_GROUPS`/`suites::ALL_SUITES`), as are the server role without
//! `server` and a client with neither `certificates` nor an external PSK; what is compiled in
//! is accepted. Run under reduced builds by `cargo xtask ci` (stage `tls features`).

use core_hash::OsRandom;
use tls::key_schedule::HashAlg;
use tls::msgs::NamedGroup;
use tls::suites::{self, Suite};
use tls::{
    ApiMisuse, Buffers, ClientConfig, Connection, Error, ExternalPsk, ServerConfig, ServerPsks,
    UnixTime,
};

const KEY: &[u8; 48] = &[7; 48];

fn psk(hash: HashAlg) -> ExternalPsk<'static> {
    ExternalPsk { identity: b"sensor-17", key: &KEY[..hash.output_len()], hash }
}

/// [`psk`] with a `'static` address, as a configuration borrows it.
fn leaked_psk(hash: HashAlg) -> &'static ExternalPsk<'static> {
    Box::leak(Box::new(psk(hash)))
}

fn bufs() -> Buffers<'static> {
    Buffers {
        received: Vec::leak(vec![0; 17_000]),
        send: Vec::leak(vec![0; 17_000]),
        handshake: Vec::leak(vec![0; 8_000]),
    }
}

fn now() -> &'static UnixTime {
    Box::leak(Box::new(UnixTime::now()))
}

/// Whether a client with `config` starts (writes its first flight) or the error it gets.
fn start(config: &ClientConfig<'static>) -> Result<(), Error> {
    Connection::client(*config, "sensor-17", bufs(), &mut OsRandom).map(|_| ())
}

/// `Ok(())` when `on`, else the refusal of a configuration naming a part that is left out.
fn expected(on: bool) -> Result<(), Error> {
    if on { Ok(()) } else { Err(Error::ApiMisuse(ApiMisuse::BadConfig)) }
}

#[test]
fn a_group_is_usable_exactly_when_its_features_are_on() {
    let base = ClientConfig {
        external_psk: Some(leaked_psk(HashAlg::Sha256)),
        ..ClientConfig::new(&[], now())
    };
    let groups = [
        (NamedGroup::X25519, cfg!(feature = "x25519")),
        (NamedGroup::SECP256R1, cfg!(feature = "p256")),
        (NamedGroup::SECP384R1, cfg!(feature = "p384")),
        (NamedGroup::SECP521R1, cfg!(feature = "p521")),
        (NamedGroup::X25519MLKEM768, cfg!(all(feature = "mlkem", feature = "x25519"))),
        (NamedGroup::SECP256R1MLKEM768, cfg!(all(feature = "mlkem", feature = "p256"))),
        (NamedGroup::SECP384R1MLKEM1024, cfg!(all(feature = "mlkem", feature = "p384"))),
    ];
    for (group, on) in groups {
        assert_eq!(tls::kx::ALL_GROUPS.contains(&group), on, "{group:?}");
        let groups: &'static [NamedGroup] = Vec::leak(vec![group]);
        assert_eq!(start(&ClientConfig { groups, ..base }), expected(on), "{group:?}");
    }
    assert_eq!(tls::kx::ALL_GROUPS.len(), groups.iter().filter(|(_, on)| *on).count());
}

#[test]
fn a_suite_is_usable_exactly_when_its_aead_is_on() {
    let all: [(Suite, bool); 5] = [
        (suites::TLS13_AES_128_GCM_SHA256, cfg!(feature = "aes-gcm")),
        (suites::TLS13_AES_256_GCM_SHA384, cfg!(feature = "aes-gcm")),
        (suites::TLS13_CHACHA20_POLY1305_SHA256, cfg!(feature = "chacha20")),
        (suites::TLS13_AES_128_CCM_SHA256, cfg!(feature = "aes-ccm")),
        (suites::TLS13_AES_128_CCM_8_SHA256, cfg!(feature = "aes-ccm")),
    ];
    for (suite, on) in all {
        assert_eq!(suites::ALL_SUITES.contains(&suite), on, "{suite:?}");
        assert_eq!(suites::is_built_in(suite.aead), on, "{suite:?}");
        // A PSK of the suite's hash, so that the suite alone decides.
        let config = ClientConfig {
            suites: Vec::leak(vec![suite]),
            external_psk: Some(leaked_psk(suite.hash)),
            ..ClientConfig::new(&[], now())
        };
        assert_eq!(start(&config), expected(on), "{suite:?}");
    }
    assert_eq!(suites::ALL_SUITES.len(), all.iter().filter(|(_, on)| *on).count());
}

#[test]
fn the_server_role_is_there_exactly_with_the_server_feature() {
    let keys = Vec::leak(vec![psk(HashAlg::Sha256)]);
    let config = ServerConfig {
        psks: Some(Box::leak(Box::new(ServerPsks { keys, psk_ke: false }))),
        ..ServerConfig::new(&[])
    };
    let got = Connection::server(config, bufs(), &mut OsRandom).map(|_| ());
    assert_eq!(got, expected(cfg!(feature = "server")));
}

/// Without `certificates` a client can authenticate its server only by an external PSK (or
/// a pinned raw key): one with neither is refused, one with a PSK starts.
#[test]
fn a_client_without_a_psk_needs_certificates() {
    let config = ClientConfig::new(&[], now());
    assert_eq!(start(&config), expected(cfg!(feature = "certificates")));
    let config = ClientConfig { external_psk: Some(leaked_psk(HashAlg::Sha256)), ..config };
    assert_eq!(start(&config), Ok(()));
}
