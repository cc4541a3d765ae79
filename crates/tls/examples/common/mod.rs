//! Helpers the `client` and `server` examples share: PEM reading, argument parsing, and the
//! `negotiated:` line.

#![allow(dead_code)]

use std::process::exit;

use tls::Connection;
use tls::kx;
use tls::msgs::{NamedGroup, ProtocolVersion, SignatureScheme};
use tls::suites::{self, Suite};

/// Prints `msg` and exits with status 2 (a usage or configuration problem).
pub(crate) fn die(msg: &str) -> ! {
    eprintln!("error: {msg}");
    exit(2)
}

fn b64(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    } as u32)
}

/// Every PEM block labelled `label` in the file at `path`, decoded.
pub(crate) fn pem_blocks(path: &str, label: &str) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| die(&format!("{path}: {e}")));
    let (begin, end) = (format!("-----BEGIN {label}-----"), format!("-----END {label}-----"));
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find(&begin) {
        let body_start = i + begin.len();
        let Some(j) = rest[body_start..].find(&end) else { break };
        let body = &rest[body_start..body_start + j];
        let (mut acc, mut bits, mut der) = (0u32, 0, Vec::new());
        for c in body.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=') {
            let v = b64(c).unwrap_or_else(|| die(&format!("{path}: bad base64")));
            acc = (acc << 6) | v;
            bits += 6;
            if bits >= 8 {
                bits -= 8;
                der.push((acc >> bits) as u8);
            }
        }
        out.push(der);
        rest = &rest[body_start + j + end.len()..];
    }
    out
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

/// Versions from a `--versions` list (`1.2`, `1.3`).
#[allow(dead_code)] // the server's flag
pub(crate) fn parse_versions(list: &str) -> Vec<ProtocolVersion> {
    list.split(',')
        .map(|v| match v {
            "1.2" => ProtocolVersion::TLSV1_2,
            "1.3" => ProtocolVersion::TLSV1_3,
            _ => die(&format!("unknown version {v} (1.2 or 1.3)")),
        })
        .collect()
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
    let suite = suites.iter().find(|s| s.suite == n.suite).map(Suite::iana_name);
    let suite12 = suites::tls12::find(suites::tls12::ALL_SUITES12, n.suite);
    let suite12 = suite12.as_ref().map(suites::tls12::Suite12::iana_name);
    let suite = suite.or(suite12).unwrap_or("?");
    let version = if n.version == ProtocolVersion::TLSV1_2 { "TLSv1.2" } else { "TLSv1.3" };
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
        SignatureScheme::RSA_PSS_RSAE_SHA256 => "rsa_pss_rsae_sha256",
        SignatureScheme::RSA_PSS_RSAE_SHA384 => "rsa_pss_rsae_sha384",
        SignatureScheme::RSA_PSS_RSAE_SHA512 => "rsa_pss_rsae_sha512",
        SignatureScheme::RSA_PSS_PSS_SHA256 => "rsa_pss_pss_sha256",
        SignatureScheme::RSA_PSS_PSS_SHA384 => "rsa_pss_pss_sha384",
        SignatureScheme::RSA_PSS_PSS_SHA512 => "rsa_pss_pss_sha512",
        _ => "?",
    }
}
