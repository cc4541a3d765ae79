//! Helpers the `client` and `server` examples share: PEM reading, argument parsing, and the
//! `negotiated:` line.

#![allow(dead_code)]

use std::process::exit;

use tls::Connection;
use tls::kx;
use tls::msgs::{NamedGroup, ProtocolVersion, SignatureScheme};
use tls::suites::tls12::{self as suites12, Suite12};
use tls::suites::{self, Suite};

/// Prints `msg` and exits with status 2 (a usage or configuration problem).
pub(crate) fn die(msg: &str) -> ! {
    eprintln!("error: {msg}");
    exit(2)
}

/// Every PEM block labelled `label` in the file at `path`, decoded.
pub(crate) fn pem_blocks(path: &str, label: &str) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| die(&format!("{path}: {e}")));
    tls::pem::blocks(&text, label)
        .map(|body| {
            let mut der = vec![0u8; tls::pem::decoded_len(body)];
            let n = tls::pem::decode_body(body, &mut der)
                .unwrap_or_else(|e| die(&format!("{path}: {e}")))
                .len();
            der.truncate(n);
            der
        })
        .collect()
}

/// The private key in a PKCS#8 `PRIVATE KEY` PEM file: Ed25519, ECDSA P-256/P-384, RSA or
/// RSASSA-PSS.
pub(crate) fn private_key(path: &str) -> tls::SigningKey {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| die(&format!("{path}: {e}")));
    let mut scratch = vec![0u8; text.len()];
    let key = tls::SigningKey::from_pkcs8_pem(&text, &mut scratch)
        .unwrap_or_else(|e| die(&format!("{path}: {e}")));
    scratch.fill(0);
    key
}

/// Suites from a `--suites` list of IANA names.
pub(crate) fn parse_suites(list: &str) -> Vec<Suite> {
    list.split(',')
        .map(|n| suites::by_name(n).unwrap_or_else(|| die(&format!("unknown suite {n}"))))
        .collect()
}

/// Versions from a `--versions` list (`1.2`, `1.3`, in any order), TLS 1.3 first.
pub(crate) fn parse_versions(list: &str) -> Vec<ProtocolVersion> {
    let mut versions = Vec::new();
    for v in list.split(',') {
        let v = match v {
            "1.3" => ProtocolVersion::TLSV1_3,
            "1.2" => ProtocolVersion::TLSV1_2,
            _ => die(&format!("--versions: unknown version {v} (1.2 and 1.3 are supported)")),
        };
        if !versions.contains(&v) {
            versions.push(v);
        }
    }
    versions.sort_by_key(|v| core::cmp::Reverse(v.0));
    versions
}

/// The `version=` value of the `negotiated:` line.
pub(crate) fn version_name(v: ProtocolVersion) -> &'static str {
    match v {
        ProtocolVersion::TLSV1_3 => "TLSv1.3",
        ProtocolVersion::TLSV1_2 => "TLSv1.2",
        _ => "?",
    }
}

/// Suites from a `--suites` list of IANA names (OpenSSL's too for TLS 1.2), split into the
/// TLS 1.3 and the TLS 1.2 ones; either may be empty.
pub(crate) fn parse_suites_both(list: &str) -> (Vec<Suite>, Vec<Suite12>) {
    let (mut v13, mut v12) = (Vec::new(), Vec::new());
    for n in list.split(',') {
        match (suites::by_name(n), suites12::by_name(n)) {
            (Some(s), _) => v13.push(s),
            (None, Some(s)) => v12.push(s),
            (None, None) => die(&format!("unknown suite {n}")),
        }
    }
    (v13, v12)
}

/// Groups from a `--groups` list of names (`x25519`, `secp256r1`, `secp384r1`, `secp521r1`).
pub(crate) fn parse_groups(list: &str) -> Vec<NamedGroup> {
    list.split(',')
        .map(|g| kx::group_by_name(g).unwrap_or_else(|| die(&format!("unknown group {g}"))))
        .collect()
}

/// The `negotiated:` line for stderr.
pub(crate) fn negotiated_line(
    conn: &Connection<'_, '_>,
    suites: &[Suite],
    alpn: &[&[u8]],
) -> String {
    let n = conn.negotiated().expect("handshake done");
    let suite = match suites.iter().find(|s| s.suite == n.suite) {
        Some(s) => s.iana_name(),
        None => suites12::find(suites12::ALL_SUITES12, n.suite).map_or("?", |s| s.iana_name()),
    };
    let version = version_name(n.version);
    let alpn = n.alpn.map_or("-".to_string(), |i| String::from_utf8_lossy(alpn[i]).into_owned());
    // NamedGroup(0): resumed with psk_ke, no key exchange.
    let group = kx::group_name(n.group).unwrap_or(if n.group.0 == 0 { "none" } else { "?" });
    // SignatureScheme(0): an external PSK authenticated the server, no certificate.
    let sig = if n.external_psk { "psk" } else { scheme_name(n.scheme) };
    format!(
        "negotiated: version={version} suite={suite} group={group} sig={sig} alpn={alpn} resumed={}",
        n.resumed
    )
}

/// An external PSK from `ID:HEX` (`--psk`), bound to SHA-256 as OpenSSL's `-psk` is; the
/// identity and key are leaked to live as long as the process.
pub(crate) fn parse_psk(arg: &str) -> tls::ExternalPsk<'static> {
    let (id, hex) = arg.split_once(':').unwrap_or_else(|| die("--psk takes ID:HEX"));
    let bytes = hex.as_bytes();
    if id.is_empty() || bytes.is_empty() || bytes.len() % 2 != 0 {
        die("--psk takes ID:HEX with a non-empty identity and an even number of hex digits");
    }
    let key: Vec<u8> = bytes
        .chunks(2)
        .map(|p| {
            std::str::from_utf8(p)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                .unwrap_or_else(|| die("--psk: bad hex"))
        })
        .collect();
    tls::ExternalPsk {
        identity: Box::leak(id.as_bytes().to_vec().into_boxed_slice()),
        key: Box::leak(key.into_boxed_slice()),
        hash: tls::key_schedule::HashAlg::Sha256,
    }
}

/// A number for `flag`, or exit.
pub(crate) fn parse_number<T: std::str::FromStr>(flag: &str, v: &str) -> T {
    v.parse().unwrap_or_else(|_| die(&format!("{flag}: bad number {v}")))
}

/// The IANA name of a signature scheme, as the `negotiated:` line prints it.
pub(crate) fn scheme_name(s: SignatureScheme) -> &'static str {
    match s {
        SignatureScheme::ED25519 => "ed25519",
        SignatureScheme::ECDSA_SECP256R1_SHA256 => "ecdsa_secp256r1_sha256",
        SignatureScheme::ECDSA_SECP384R1_SHA384 => "ecdsa_secp384r1_sha384",
        SignatureScheme::ECDSA_SECP521R1_SHA512 => "ecdsa_secp521r1_sha512",
        // TLS 1.2 ServerKeyExchange signatures only.
        SignatureScheme::RSA_PKCS1_SHA256 => "rsa_pkcs1_sha256",
        SignatureScheme::RSA_PKCS1_SHA384 => "rsa_pkcs1_sha384",
        SignatureScheme::RSA_PKCS1_SHA512 => "rsa_pkcs1_sha512",
        SignatureScheme::RSA_PSS_RSAE_SHA256 => "rsa_pss_rsae_sha256",
        SignatureScheme::RSA_PSS_RSAE_SHA384 => "rsa_pss_rsae_sha384",
        SignatureScheme::RSA_PSS_RSAE_SHA512 => "rsa_pss_rsae_sha512",
        SignatureScheme::RSA_PSS_PSS_SHA256 => "rsa_pss_pss_sha256",
        SignatureScheme::RSA_PSS_PSS_SHA384 => "rsa_pss_pss_sha384",
        SignatureScheme::RSA_PSS_PSS_SHA512 => "rsa_pss_pss_sha512",
        _ => "?",
    }
}
