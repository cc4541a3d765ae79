//! Key encodings of every key type (PKCS#8, SPKI, SEC1; DER and PEM): known-answer round
//! trips on committed OpenSSL-made keys (what decodes re-encodes to the same bytes), every
//! error path with its typed error, arbitrary input never panicking, and interop with the
//! `openssl` CLI (keys both ways, signatures both ways, ECDH), skipped with a message where
//! `openssl` is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

use core_der::pem::{self, PemError};
use core_ec::{Error, KeyAlgorithm, ed25519, x25519};
use proptest::prelude::*;

const MSG: &[u8] = b"Halite key encodings: signed by one side, checked by the other";

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/keys").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The DER of the first block of a PEM text, whatever its label.
fn der_of(text: &str) -> Vec<u8> {
    let block = pem::all_blocks(text).last().expect("a PEM block");
    let mut out = vec![0u8; pem::decoded_len(block.body)];
    pem::decode_body(block.body, &mut out).unwrap().to_vec()
}

fn rsa_pkcs8() -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../core-rsa/tests/data/rsa2048_e65537.pkcs8.der"),
    )
    .unwrap()
}

fn rsa_spki() -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../core-rsa/tests/data/rsa2048_e65537.spki.der"),
    )
    .unwrap()
}

/// A text whose first PEM block's base64 has one character replaced by `!`.
fn corrupt_base64(text: &str) -> String {
    let at = text.find("-----\n").unwrap() + 10;
    let mut s = text.to_string();
    s.replace_range(at..=at, "!");
    s
}

/// Every strict prefix and one byte of trailing data: [`Error::InvalidDer`], never a panic.
fn truncations_and_trailing<T: std::fmt::Debug>(
    der: &[u8],
    load: impl Fn(&[u8]) -> Result<T, Error>,
) {
    for cut in 0..der.len() {
        assert_eq!(load(&der[..cut]).err(), Some(Error::InvalidDer), "prefix of {cut} bytes");
    }
    let mut long = der.to_vec();
    long.push(0);
    assert_eq!(load(&long).err(), Some(Error::InvalidDer), "trailing byte");
}

macro_rules! nist_tests {
    ($test:ident, $m:ident, $name:literal, $hash:literal) => {
        mod $test {
            use super::*;
            use core_ec::$m::{self as c, PublicKey, SecretKey, Signature, SigningKey};

            #[test]
            fn openssl_keys_round_trip_byte_for_byte() {
                let (pkcs8, spki, sec1) = (
                    fixture(concat!($name, ".pkcs8.pem")),
                    fixture(concat!($name, ".spki.pem")),
                    fixture(concat!($name, ".sec1.pem")),
                );
                let key = SecretKey::from_pkcs8_pem(&pkcs8).unwrap();
                let from_sec1 = SecretKey::from_sec1_pem(&sec1).unwrap();
                assert_eq!(key.to_bytes(), from_sec1.to_bytes());
                let public = PublicKey::from_public_key_pem(&spki).unwrap();
                assert_eq!(public, key.public_key());

                let mut buf = [0u8; 1024];
                assert_eq!(key.to_pkcs8_pem(&mut buf).unwrap(), pkcs8);
                assert_eq!(key.to_sec1_pem(&mut buf).unwrap(), sec1);
                assert_eq!(public.to_public_key_pem(&mut buf).unwrap(), spki);
                assert_eq!(key.to_pkcs8_pem(&mut buf).unwrap().len(), c::PKCS8_PEM_LEN);
                assert_eq!(key.to_sec1_pem(&mut buf).unwrap().len(), c::SEC1_PEM_LEN);
                assert_eq!(public.to_public_key_pem(&mut buf).unwrap().len(), c::PUBLIC_KEY_PEM_LEN);

                let n = key.to_pkcs8_der(&mut buf).unwrap();
                assert_eq!((&buf[..n], n), (&der_of(&pkcs8)[..], c::PKCS8_DER_LEN));
                let n = key.to_sec1_der(&mut buf).unwrap();
                assert_eq!((&buf[..n], n), (&der_of(&sec1)[..], c::SEC1_DER_LEN));
                let n = public.to_public_key_der(&mut buf).unwrap();
                assert_eq!((&buf[..n], n), (&der_of(&spki)[..], c::PUBLIC_KEY_DER_LEN));

                // The owned forms and the signing key say the same.
                assert_eq!(&*key.to_pkcs8_pem_string().unwrap(), &pkcs8);
                assert_eq!(&*key.to_sec1_pem_string().unwrap(), &sec1);
                assert_eq!(public.to_public_key_pem_string().unwrap(), spki);
                let signing = SigningKey::from_pkcs8_pem(&pkcs8).unwrap();
                assert_eq!(signing.verifying_key(), &public);
                assert_eq!(SigningKey::from_sec1_der(&der_of(&sec1)).unwrap().verifying_key(), &public);
                assert_eq!(&*signing.to_pkcs8_pem_string().unwrap(), &pkcs8);
            }

            #[test]
            fn every_error_is_typed() {
                let pkcs8 = der_of(&fixture(concat!($name, ".pkcs8.pem")));
                let sec1 = der_of(&fixture(concat!($name, ".sec1.pem")));
                let spki = der_of(&fixture(concat!($name, ".spki.pem")));
                truncations_and_trailing(&pkcs8, SecretKey::from_pkcs8_der);
                truncations_and_trailing(&sec1, SecretKey::from_sec1_der);
                truncations_and_trailing(&spki, PublicKey::from_public_key_der);

                // Another algorithm or curve says which.
                let wrong = |found| Some(Error::WrongAlgorithm { found });
                let other = if $name == "p256" { "p384" } else { "p256" };
                let other_kind =
                    if $name == "p256" { KeyAlgorithm::EcP384 } else { KeyAlgorithm::EcP256 };
                let other_pkcs8 = der_of(&fixture(&format!("{other}.pkcs8.pem")));
                let other_sec1 = der_of(&fixture(&format!("{other}.sec1.pem")));
                let other_spki = der_of(&fixture(&format!("{other}.spki.pem")));
                assert_eq!(SecretKey::from_pkcs8_der(&other_pkcs8).err(), wrong(other_kind));
                assert_eq!(SecretKey::from_sec1_der(&other_sec1).err(), wrong(other_kind));
                assert_eq!(PublicKey::from_public_key_der(&other_spki).err(), wrong(other_kind));
                for (file, kind) in [
                    ("ed25519.pkcs8.pem", KeyAlgorithm::Ed25519),
                    ("x25519.pkcs8.pem", KeyAlgorithm::X25519),
                    ("ed448.pkcs8.pem", KeyAlgorithm::Ed448),
                    ("secp256k1.pkcs8.pem", KeyAlgorithm::EcOther),
                ] {
                    assert_eq!(SecretKey::from_pkcs8_pem(&fixture(file)).err(), wrong(kind), "{file}");
                }
                assert_eq!(SecretKey::from_pkcs8_der(&rsa_pkcs8()).err(), wrong(KeyAlgorithm::Rsa));
                assert_eq!(PublicKey::from_public_key_der(&rsa_spki()).err(), wrong(KeyAlgorithm::Rsa));
                let ed_spki = fixture("ed25519.spki.pem");
                assert_eq!(PublicKey::from_public_key_pem(&ed_spki).err(), wrong(KeyAlgorithm::Ed25519));

                // PEM: the wrong label, no block, bad base64.
                let pem_err = |e| Some(Error::Pem(e));
                let sec1_text = fixture(concat!($name, ".sec1.pem"));
                let pkcs8_text = fixture(concat!($name, ".pkcs8.pem"));
                assert_eq!(SecretKey::from_pkcs8_pem(&sec1_text).err(), pem_err(PemError::WrongLabel));
                assert_eq!(SecretKey::from_sec1_pem(&pkcs8_text).err(), pem_err(PemError::WrongLabel));
                assert_eq!(PublicKey::from_public_key_pem(&pkcs8_text).err(), pem_err(PemError::WrongLabel));
                assert_eq!(SecretKey::from_pkcs8_pem("not PEM").err(), pem_err(PemError::NotFound));
                let bad = corrupt_base64(&pkcs8_text);
                assert_eq!(SecretKey::from_pkcs8_pem(&bad).err(), pem_err(PemError::BadBase64));

                // A public key that does not match the private one.
                let mut mismatched = sec1.clone();
                let last = mismatched.len() - 1;
                mismatched[last] ^= 1;
                assert!(SecretKey::from_sec1_der(&mismatched).is_err());

                // Output buffers too small.
                let key = SecretKey::from_pkcs8_der(&pkcs8).unwrap();
                let mut small = [0u8; 16];
                assert_eq!(key.to_pkcs8_der(&mut small).err(), Some(Error::BufferTooSmall));
                assert_eq!(key.to_sec1_pem(&mut small).err(), Some(Error::BufferTooSmall));
                let mut one_short = vec![0u8; c::PUBLIC_KEY_PEM_LEN - 1];
                assert_eq!(
                    key.public_key().to_public_key_pem(&mut one_short).err(),
                    Some(Error::BufferTooSmall)
                );
                // Error messages say what was found.
                let e = SecretKey::from_pkcs8_der(&rsa_pkcs8()).unwrap_err();
                assert_eq!(e.to_string(), "key is for another algorithm or curve: RSA");
            }

            #[test]
            fn openssl_interop() {
                let Some(dir) = openssl_dir(concat!("ec-", $name)) else { return };
                let curve = match $name {
                    "p256" => "P-256",
                    "p384" => "P-384",
                    _ => "P-521",
                };
                // OpenSSL's keys, loaded by Halite; signatures both ways.
                openssl(&dir, &["genpkey", "-algorithm", "EC", "-pkeyopt",
                    &format!("ec_paramgen_curve:{curve}"), "-out", "key.pem"]);
                openssl(&dir, &["pkey", "-in", "key.pem", "-pubout", "-out", "pub.pem"]);
                openssl(&dir, &["pkey", "-in", "key.pem", "-traditional", "-out", "sec1.pem"]);
                let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
                let key = SigningKey::from_pkcs8_pem(&read("key.pem")).unwrap();
                let sec1 = SigningKey::from_sec1_pem(&read("sec1.pem")).unwrap();
                let public = PublicKey::from_public_key_pem(&read("pub.pem")).unwrap();
                assert_eq!(sec1.verifying_key(), &public);
                assert_eq!(key.verifying_key(), &public);
                std::fs::write(dir.join("msg"), MSG).unwrap();
                std::fs::write(dir.join("sig.der"), key.sign(MSG).to_der().as_ref()).unwrap();
                openssl(&dir, &["dgst", concat!("-", $hash), "-verify", "pub.pem", "-signature",
                    "sig.der", "msg"]);
                openssl(&dir, &["dgst", concat!("-", $hash), "-sign", "key.pem", "-out",
                    "osig.der", "msg"]);
                let osig = Signature::from_der(&std::fs::read(dir.join("osig.der")).unwrap()).unwrap();
                public.verify(MSG, &osig).unwrap();

                // Halite's keys, read and checked by OpenSSL.
                let mine = SecretKey::generate(&mut core_hash::OsRandom).unwrap();
                let mut buf = [0u8; 1024];
                std::fs::write(dir.join("h.pem"), mine.to_pkcs8_pem(&mut buf).unwrap()).unwrap();
                std::fs::write(dir.join("h-sec1.pem"), mine.to_sec1_pem(&mut buf).unwrap()).unwrap();
                let mine_pub = mine.public_key().to_public_key_pem(&mut buf).unwrap().to_string();
                std::fs::write(dir.join("h-pub.pem"), &mine_pub).unwrap();
                openssl(&dir, &["pkey", "-in", "h.pem", "-check", "-noout"]);
                openssl(&dir, &["ec", "-in", "h-sec1.pem", "-check", "-noout"]);
                openssl(&dir, &["pkey", "-pubin", "-in", "h-pub.pem", "-noout"]);
                let derived_pub = openssl(&dir, &["pkey", "-in", "h.pem", "-pubout"]);
                assert_eq!(derived_pub, mine_pub.as_bytes());
                let from_sec1 = openssl(&dir, &["pkey", "-in", "h-sec1.pem"]);
                assert_eq!(from_sec1, mine.to_pkcs8_pem(&mut buf).unwrap().as_bytes());

                // ECDH: OpenSSL's secret with Halite's public key, and Halite's the other way.
                let shared = openssl(&dir, &["pkeyutl", "-derive", "-inkey", "key.pem",
                    "-peerkey", "h-pub.pem"]);
                let ours = mine.diffie_hellman(&public).unwrap();
                assert_eq!(shared, ours.as_bytes());
            }

            proptest! {
                #[test]
                fn arbitrary_input_never_panics(data in proptest::collection::vec(any::<u8>(), 0..300)) {
                    let _ = SecretKey::from_pkcs8_der(&data);
                    let _ = SecretKey::from_sec1_der(&data);
                    let _ = PublicKey::from_public_key_der(&data);
                    let text = String::from_utf8_lossy(&data);
                    let _ = SecretKey::from_pkcs8_pem(&text);
                    let _ = SecretKey::from_sec1_pem(&text);
                    let _ = PublicKey::from_public_key_pem(&text);
                }

                #[test]
                fn mutated_keys_never_panic(at in any::<usize>(), byte in any::<u8>()) {
                    for file in [".pkcs8.pem", ".sec1.pem", ".spki.pem"] {
                        let mut der = der_of(&fixture(&format!("{}{file}", $name)));
                        let i = at % der.len();
                        der[i] = byte;
                        let mut buf = [0u8; 512];
                        if let Ok(k) = SecretKey::from_pkcs8_der(&der) {
                            // What decodes re-encodes to a form that decodes to itself.
                            let n = k.to_pkcs8_der(&mut buf).unwrap();
                            let again = SecretKey::from_pkcs8_der(&buf[..n]).unwrap();
                            prop_assert_eq!(again.to_bytes(), k.to_bytes());
                        }
                        if let Ok(k) = SecretKey::from_sec1_der(&der) {
                            let n = k.to_sec1_der(&mut buf).unwrap();
                            prop_assert_eq!(SecretKey::from_sec1_der(&buf[..n]).unwrap().to_bytes(), k.to_bytes());
                        }
                        if let Ok(k) = PublicKey::from_public_key_der(&der) {
                            let n = k.to_public_key_der(&mut buf).unwrap();
                            prop_assert_eq!(PublicKey::from_public_key_der(&buf[..n]).unwrap(), k);
                        }
                    }
                }
            }
        }
    };
}

nist_tests!(p256_keys, p256, "p256", "sha256");
nist_tests!(p384_keys, p384, "p384", "sha384");
nist_tests!(p521_keys, p521, "p521", "sha512");

/// A fresh directory for one interop test, or `None` (with a message) without `openssl`.
fn openssl_dir(name: &str) -> Option<PathBuf> {
    if !Command::new("openssl").arg("version").output().is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: the openssl CLI is not installed");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("halite-keys-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    Some(dir)
}

/// Runs `openssl args…` in `dir`; panics with its stderr unless it succeeds; returns stdout.
fn openssl(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new("openssl").args(args).current_dir(dir).output().unwrap();
    assert!(
        out.status.success(),
        "openssl {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn ed25519_keys_round_trip_byte_for_byte() {
    let (pkcs8, spki) = (fixture("ed25519.pkcs8.pem"), fixture("ed25519.spki.pem"));
    let key = ed25519::SigningKey::from_pkcs8_pem(&pkcs8).unwrap();
    let public = ed25519::VerifyingKey::from_public_key_pem(&spki).unwrap();
    assert_eq!(key.verifying_key(), public);
    let mut buf = [0u8; 256];
    assert_eq!(key.to_pkcs8_pem(&mut buf).unwrap(), pkcs8);
    assert_eq!(public.to_public_key_pem(&mut buf).unwrap(), spki);
    assert_eq!(key.to_pkcs8_der(&mut buf), Ok(ed25519::PKCS8_DER_LEN));
    assert_eq!(&buf[..ed25519::PKCS8_DER_LEN], &der_of(&pkcs8)[..]);
    assert_eq!(public.to_public_key_der(&mut buf), Ok(ed25519::PUBLIC_KEY_DER_LEN));
    assert_eq!(&buf[..ed25519::PUBLIC_KEY_DER_LEN], &der_of(&spki)[..]);
    assert_eq!((ed25519::PKCS8_PEM_LEN, ed25519::PUBLIC_KEY_PEM_LEN), (pkcs8.len(), spki.len()));
    assert_eq!(&*key.to_pkcs8_pem_string().unwrap(), &pkcs8);
    assert_eq!(public.to_public_key_pem_string().unwrap(), spki);
}

#[test]
fn x25519_keys_round_trip_byte_for_byte() {
    let (pkcs8, spki) = (fixture("x25519.pkcs8.pem"), fixture("x25519.spki.pem"));
    let key = x25519::SecretKey::from_pkcs8_pem(&pkcs8).unwrap();
    let public = x25519::PublicKey::from_public_key_pem(&spki).unwrap();
    assert_eq!(key.public_key(), public);
    let mut buf = [0u8; 256];
    assert_eq!(key.to_pkcs8_pem(&mut buf).unwrap(), pkcs8);
    assert_eq!(public.to_public_key_pem(&mut buf).unwrap(), spki);
    assert_eq!(key.to_pkcs8_der(&mut buf), Ok(x25519::PKCS8_DER_LEN));
    assert_eq!(&buf[..x25519::PKCS8_DER_LEN], &der_of(&pkcs8)[..]);
    assert_eq!(public.to_public_key_der(&mut buf), Ok(x25519::PUBLIC_KEY_DER_LEN));
    assert_eq!(&buf[..x25519::PUBLIC_KEY_DER_LEN], &der_of(&spki)[..]);
    assert_eq!((x25519::PKCS8_PEM_LEN, x25519::PUBLIC_KEY_PEM_LEN), (pkcs8.len(), spki.len()));
}

/// RFC 8410 §10: its example keys, including a version-1 key carrying its public key.
#[test]
fn rfc8410_examples() {
    let public = "-----BEGIN PUBLIC KEY-----\n\
        MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n\
        -----END PUBLIC KEY-----\n";
    let private = "-----BEGIN PRIVATE KEY-----\n\
        MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n\
        -----END PRIVATE KEY-----\n";
    let key = ed25519::SigningKey::from_pkcs8_pem(private).unwrap();
    let vk = ed25519::VerifyingKey::from_public_key_pem(public).unwrap();
    assert_eq!(key.verifying_key(), vk);
    // §10.3's second example: version 1 with the public key [1] (and an attribute).
    let v1 = "-----BEGIN PRIVATE KEY-----\n\
        MHICAQEwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n\
        oB8wHQYKKoZIhvcNAQkJFDEPDA1DdXJkbGUgQ2hhaXJzgSEAGb9ECWmEzf6FQbrB\n\
        Z9w7lshQhqowtrbLDFw4rXAxZuE=\n\
        -----END PRIVATE KEY-----\n";
    let key1 = ed25519::SigningKey::from_pkcs8_pem(v1).unwrap();
    assert_eq!(key1.seed(), key.seed());
    // The same with a public key that does not match is refused.
    let mut der = der_of(v1);
    let last = der.len() - 1;
    der[last] ^= 1;
    assert_eq!(ed25519::SigningKey::from_pkcs8_der(&der).err(), Some(Error::InvalidEncoding));
}

#[test]
fn curve25519_errors_are_typed() {
    let wrong = |found| Some(Error::WrongAlgorithm { found });
    let (ed, x) = (fixture("ed25519.pkcs8.pem"), fixture("x25519.pkcs8.pem"));
    let (ed_pub, x_pub) = (fixture("ed25519.spki.pem"), fixture("x25519.spki.pem"));
    truncations_and_trailing(&der_of(&ed), ed25519::SigningKey::from_pkcs8_der);
    truncations_and_trailing(&der_of(&x), x25519::SecretKey::from_pkcs8_der);
    truncations_and_trailing(&der_of(&ed_pub), ed25519::VerifyingKey::from_public_key_der);
    truncations_and_trailing(&der_of(&x_pub), x25519::PublicKey::from_public_key_der);
    assert_eq!(ed25519::SigningKey::from_pkcs8_pem(&x).err(), wrong(KeyAlgorithm::X25519));
    assert_eq!(x25519::SecretKey::from_pkcs8_pem(&ed).err(), wrong(KeyAlgorithm::Ed25519));
    assert_eq!(
        ed25519::VerifyingKey::from_public_key_pem(&x_pub).err(),
        wrong(KeyAlgorithm::X25519)
    );
    assert_eq!(x25519::PublicKey::from_public_key_pem(&ed_pub).err(), wrong(KeyAlgorithm::Ed25519));
    let p256 = fixture("p256.pkcs8.pem");
    assert_eq!(ed25519::SigningKey::from_pkcs8_pem(&p256).err(), wrong(KeyAlgorithm::EcP256));
    assert_eq!(x25519::SecretKey::from_pkcs8_der(&rsa_pkcs8()).err(), wrong(KeyAlgorithm::Rsa));
    let ed448 = fixture("ed448.pkcs8.pem");
    assert_eq!(ed25519::SigningKey::from_pkcs8_pem(&ed448).err(), wrong(KeyAlgorithm::Ed448));
    assert_eq!(
        ed25519::SigningKey::from_pkcs8_pem(&ed_pub).err(),
        Some(Error::Pem(PemError::WrongLabel))
    );
    assert_eq!(
        x25519::PublicKey::from_public_key_pem(&corrupt_base64(&x_pub)).err(),
        Some(Error::Pem(PemError::BadBase64))
    );
    // RFC 8410 §3: the parameters must be absent.
    let mut with_null = der_of(&ed_pub);
    with_null.splice(4..11, [0x30, 0x07, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x05, 0x00]);
    with_null[1] += 2;
    assert_eq!(
        ed25519::VerifyingKey::from_public_key_der(&with_null).err(),
        Some(Error::InvalidDer)
    );
    let mut small = [0u8; 47];
    let key = ed25519::SigningKey::from_pkcs8_pem(&ed).unwrap();
    assert_eq!(key.to_pkcs8_der(&mut small).err(), Some(Error::BufferTooSmall));
}

#[test]
fn curve25519_openssl_interop() {
    let Some(dir) = openssl_dir("curve25519") else { return };
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let mut buf = [0u8; 256];

    // Ed25519: OpenSSL's key signs and verifies with Halite, and the reverse.
    openssl(&dir, &["genpkey", "-algorithm", "ED25519", "-out", "ed.pem"]);
    openssl(&dir, &["pkey", "-in", "ed.pem", "-pubout", "-out", "ed-pub.pem"]);
    let key = ed25519::SigningKey::from_pkcs8_pem(&read("ed.pem")).unwrap();
    let public = ed25519::VerifyingKey::from_public_key_pem(&read("ed-pub.pem")).unwrap();
    assert_eq!(key.verifying_key(), public);
    std::fs::write(dir.join("msg"), MSG).unwrap();
    std::fs::write(dir.join("sig"), key.sign(MSG).to_bytes()).unwrap();
    openssl(
        &dir,
        &[
            "pkeyutl",
            "-verify",
            "-pubin",
            "-inkey",
            "ed-pub.pem",
            "-rawin",
            "-in",
            "msg",
            "-sigfile",
            "sig",
        ],
    );
    let osig = openssl(&dir, &["pkeyutl", "-sign", "-inkey", "ed.pem", "-rawin", "-in", "msg"]);
    public.verify(MSG, &ed25519::Signature::from_slice(&osig).unwrap()).unwrap();
    let mine = ed25519::SigningKey::generate(&mut core_hash::OsRandom).unwrap();
    std::fs::write(dir.join("h-ed.pem"), mine.to_pkcs8_pem(&mut buf).unwrap()).unwrap();
    let mine_pub = mine.verifying_key().to_public_key_pem(&mut buf).unwrap().to_string();
    std::fs::write(dir.join("h-ed-pub.pem"), &mine_pub).unwrap();
    openssl(&dir, &["pkey", "-in", "h-ed.pem", "-check", "-noout"]);
    openssl(&dir, &["pkey", "-pubin", "-in", "h-ed-pub.pem", "-noout"]);
    assert_eq!(openssl(&dir, &["pkey", "-in", "h-ed.pem", "-pubout"]), mine_pub.as_bytes());

    // X25519: both halves of the exchange agree with OpenSSL's derive.
    openssl(&dir, &["genpkey", "-algorithm", "X25519", "-out", "x.pem"]);
    openssl(&dir, &["pkey", "-in", "x.pem", "-pubout", "-out", "x-pub.pem"]);
    let theirs = x25519::PublicKey::from_public_key_pem(&read("x-pub.pem")).unwrap();
    assert_eq!(x25519::SecretKey::from_pkcs8_pem(&read("x.pem")).unwrap().public_key(), theirs);
    let mine = x25519::SecretKey::generate(&mut core_hash::OsRandom).unwrap();
    std::fs::write(dir.join("h-x.pem"), mine.to_pkcs8_pem(&mut buf).unwrap()).unwrap();
    let mine_pub = mine.public_key().to_public_key_pem(&mut buf).unwrap().to_string();
    std::fs::write(dir.join("h-x-pub.pem"), &mine_pub).unwrap();
    openssl(&dir, &["pkey", "-in", "h-x.pem", "-check", "-noout"]);
    assert_eq!(openssl(&dir, &["pkey", "-in", "h-x.pem", "-pubout"]), mine_pub.as_bytes());
    let shared =
        openssl(&dir, &["pkeyutl", "-derive", "-inkey", "x.pem", "-peerkey", "h-x-pub.pem"]);
    assert_eq!(shared, mine.diffie_hellman(&theirs).unwrap().as_bytes());
    let shared =
        openssl(&dir, &["pkeyutl", "-derive", "-inkey", "h-x.pem", "-peerkey", "x-pub.pem"]);
    assert_eq!(shared, mine.diffie_hellman(&theirs).unwrap().as_bytes());
}

proptest! {
    #[test]
    fn curve25519_decoders_never_panic(data in proptest::collection::vec(any::<u8>(), 0..120)) {
        let mut buf = [0u8; 64];
        if let Ok(k) = ed25519::SigningKey::from_pkcs8_der(&data) {
            let n = k.to_pkcs8_der(&mut buf).unwrap();
            prop_assert_eq!(*ed25519::SigningKey::from_pkcs8_der(&buf[..n]).unwrap().seed(), *k.seed());
        }
        if let Ok(k) = x25519::SecretKey::from_pkcs8_der(&data) {
            let n = k.to_pkcs8_der(&mut buf).unwrap();
            prop_assert_eq!(x25519::SecretKey::from_pkcs8_der(&buf[..n]).unwrap().to_bytes(), k.to_bytes());
        }
        if let Ok(k) = ed25519::VerifyingKey::from_public_key_der(&data) {
            let n = k.to_public_key_der(&mut buf).unwrap();
            prop_assert_eq!(&buf[..n], &data[..]);
        }
        if let Ok(k) = x25519::PublicKey::from_public_key_der(&data) {
            let n = k.to_public_key_der(&mut buf).unwrap();
            prop_assert_eq!(&buf[..n], &data[..]);
        }
        let text = String::from_utf8_lossy(&data);
        let _ = ed25519::SigningKey::from_pkcs8_pem(&text);
        let _ = ed25519::VerifyingKey::from_public_key_pem(&text);
        let _ = x25519::SecretKey::from_pkcs8_pem(&text);
        let _ = x25519::PublicKey::from_public_key_pem(&text);
    }

    /// A valid key with one byte changed: a typed error or a key, never a panic.
    #[test]
    fn curve25519_mutated_keys(at in any::<usize>(), byte in any::<u8>()) {
        for file in ["ed25519.pkcs8.pem", "x25519.pkcs8.pem", "ed25519.spki.pem", "x25519.spki.pem"] {
            let mut der = der_of(&fixture(file));
            let i = at % der.len();
            der[i] = byte;
            let _ = ed25519::SigningKey::from_pkcs8_der(&der);
            let _ = x25519::SecretKey::from_pkcs8_der(&der);
            let _ = ed25519::VerifyingKey::from_public_key_der(&der);
            let _ = x25519::PublicKey::from_public_key_der(&der);
        }
    }
}

/// The size constants are the lengths OpenSSL's encodings of these keys have.
#[test]
fn size_constants() {
    use core_ec::{p256, p384, p521};
    assert_eq!((p256::PKCS8_DER_LEN, p256::SEC1_DER_LEN, p256::PUBLIC_KEY_DER_LEN), (138, 121, 91));
    assert_eq!(
        (p384::PKCS8_DER_LEN, p384::SEC1_DER_LEN, p384::PUBLIC_KEY_DER_LEN),
        (185, 167, 120)
    );
    assert_eq!(
        (p521::PKCS8_DER_LEN, p521::SEC1_DER_LEN, p521::PUBLIC_KEY_DER_LEN),
        (241, 223, 158)
    );
    assert_eq!((ed25519::PKCS8_DER_LEN, ed25519::PUBLIC_KEY_DER_LEN), (48, 44));
    assert_eq!((x25519::PKCS8_DER_LEN, x25519::PUBLIC_KEY_DER_LEN), (48, 44));
}
