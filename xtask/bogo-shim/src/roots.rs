//! Trust anchors for the runner's own certificates.
//!
//! BoringSSL's shim accepts any peer certificate unless a test asks for verification;
//! Halite always verifies. The runner issues every certificate from a root made on the fly
//! whose key is one of its fixed test keys (`ssl/test/runner/*_key.pem`, in the directory the
//! runner starts the shim in) and whose name is `Test <key> Root` (or `Test Root`), so a trust
//! anchor is that name with that key's public key: the chains are then verified for real.

use core_ec::{p256, p384};
use tls::SigningKey;

/// One anchor: the DER contents (no outer tag) of the subject Name and of the
/// `SubjectPublicKeyInfo`, as `TrustAnchor` holds them.
pub(crate) struct Anchor {
    pub(crate) subject: Vec<u8>,
    pub(crate) spki: Vec<u8>,
}

/// The runner's root names for each key file (`runner.go`, `initCertificates`).
const ROOTS: &[(&str, &[&str])] = &[
    ("rsa_2048_key.pem", &["Test RSA-2048 Root", "Test Root"]),
    ("ecdsa_p256_key.pem", &["Test ECDSA P-256 Root"]),
    ("ecdsa_p384_key.pem", &["Test ECDSA P-384 Root"]),
    ("ed25519_key.pem", &["Test Ed25519 Root"]),
];

/// A DER TLV with `tag` around `body`.
fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = body.len();
    if n < 0x80 {
        out.push(n as u8);
    } else if n < 0x100 {
        out.extend([0x81, n as u8]);
    } else {
        out.extend([0x82, (n >> 8) as u8, n as u8]);
    }
    out.extend_from_slice(body);
    out
}

/// The contents of a DER TLV (its tag and length stripped).
fn contents(der: &[u8]) -> Option<&[u8]> {
    let len_byte = *der.get(1)?;
    let header = match len_byte {
        0..=0x7f => 2,
        0x81 => 3,
        0x82 => 4,
        _ => return None,
    };
    der.get(header..)
}

/// The contents of a Name holding one commonName, as Go's `pkix.Name` encodes it
/// (`PrintableString` for these names).
fn common_name(cn: &str) -> Vec<u8> {
    const OID_CN: [u8; 5] = [0x06, 0x03, 0x55, 0x04, 0x03];
    let atv = tlv(0x30, &[&OID_CN[..], &tlv(0x13, cn.as_bytes())].concat());
    tlv(0x31, &atv)
}

/// The `SubjectPublicKeyInfo` contents of `key`'s public half.
fn spki(key: &SigningKey) -> Option<Vec<u8>> {
    let mut buf = [0u8; 1200];
    let der: Vec<u8> = match key {
        SigningKey::Ed25519(k) => {
            // AlgorithmIdentifier id-Ed25519 (RFC 8410 §3), then the key as a BIT STRING.
            let alg = tlv(0x30, &[0x06, 0x03, 0x2b, 0x65, 0x70]);
            let bits = tlv(0x03, &[&[0u8][..], &k.verifying_key().to_bytes()].concat());
            tlv(0x30, &[alg, bits].concat())
        }
        SigningKey::EcdsaP256(k) => {
            let k: &p256::SigningKey = k;
            let n = k.verifying_key().to_spki_der(&mut buf).ok()?;
            buf[..n].to_vec()
        }
        SigningKey::EcdsaP384(k) => {
            let k: &p384::SigningKey = k;
            let n = k.verifying_key().to_spki_der(&mut buf).ok()?;
            buf[..n].to_vec()
        }
        SigningKey::Rsa(k) => {
            let n = k.public_key().to_spki_der(&mut buf).ok()?;
            buf[..n].to_vec()
        }
        // The runner's RSA keys are rsaEncryption keys.
        SigningKey::RsaPss { .. } => return None,
    };
    contents(&der).map(<[u8]>::to_vec)
}

/// The anchors for the runner's roots whose key files are in the current directory.
pub(crate) fn runner_roots() -> Vec<Anchor> {
    let mut out = Vec::new();
    for (file, names) in ROOTS {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let mut scratch = vec![0u8; text.len()];
        let Ok(key) = SigningKey::from_pkcs8_pem(&text, &mut scratch) else { continue };
        let Some(spki) = spki(&key) else { continue };
        for name in *names {
            out.push(Anchor { subject: common_name(name), spki: spki.clone() });
        }
    }
    out
}
