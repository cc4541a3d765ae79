//! RSA key encodings in PEM and DER (PKCS#8, PKCS#1 private and public, SPKI; rsaEncryption
//! and id-RSASSA-PSS keys with and without parameters): known-answer round trips on
//! committed OpenSSL-made keys, every error path with its typed error, arbitrary input never
//! panicking, and interop with the `openssl` CLI (skipped with a message where it is missing).

use std::path::{Path, PathBuf};
use std::process::Command;

use core_der::pem;
use core_rsa::{
    Error, HashAlg, KeyAlgorithm, MAX_PKCS1_PEM_LEN, MAX_PKCS8_DER_LEN, MAX_PKCS8_PEM_LEN,
    MAX_PUBLIC_KEY_PEM_LEN, OsRandom, PemError, PrivateKey, Pss, PssKeyParams, PublicKey,
};
use proptest::prelude::*;

const MSG: &[u8] = b"Halite RSA key encodings, signed by one side and checked by the other";

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/keys").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The DER of a PEM text's last block, whatever its label.
fn der_of(text: &str) -> Vec<u8> {
    let block = pem::all_blocks(text).last().expect("a PEM block");
    let mut out = vec![0u8; pem::decoded_len(block.body)];
    pem::decode_body(block.body, &mut out).unwrap().to_vec()
}

/// Every strict prefix and one byte of trailing data: [`Error::InvalidDer`], never a panic.
fn truncations_and_trailing<T: std::fmt::Debug>(
    der: &[u8],
    load: impl Fn(&[u8]) -> Result<T, Error>,
) {
    for cut in (0..der.len()).step_by(7).chain([der.len() - 1]) {
        assert_eq!(load(&der[..cut]).err(), Some(Error::InvalidDer), "prefix of {cut} bytes");
    }
    let mut long = der.to_vec();
    long.push(0);
    assert_eq!(load(&long).err(), Some(Error::InvalidDer), "trailing byte");
}

#[test]
fn openssl_keys_round_trip_byte_for_byte() {
    let (pkcs8, pkcs1, spki, pub1) = (
        fixture("rsa2048.pkcs8.pem"),
        fixture("rsa2048.pkcs1.pem"),
        fixture("rsa2048.spki.pem"),
        fixture("rsa2048.pub.pkcs1.pem"),
    );
    let key = PrivateKey::from_pkcs8_pem(&pkcs8).unwrap();
    assert_eq!(key.algorithm(), KeyAlgorithm::Rsa);
    assert_eq!(key.pss_params(), None);
    let key1 = PrivateKey::from_pkcs1_pem(&pkcs1).unwrap();
    let public = PublicKey::from_public_key_pem(&spki).unwrap();
    let public1 = PublicKey::from_pkcs1_pem(&pub1).unwrap();
    let mut buf = vec![0u8; MAX_PKCS8_PEM_LEN];
    assert_eq!(key.to_pkcs8_pem(&mut buf).unwrap(), pkcs8);
    assert_eq!(key1.to_pkcs8_pem(&mut buf).unwrap(), pkcs8);
    assert_eq!(key.to_pkcs1_pem(&mut buf).unwrap(), pkcs1);
    assert_eq!(public.to_public_key_pem(&mut buf).unwrap(), spki);
    assert_eq!(public1.to_public_key_pem(&mut buf).unwrap(), spki);
    assert_eq!(public.to_pkcs1_pem(&mut buf).unwrap(), pub1);
    assert_eq!(key.public_key().to_public_key_pem(&mut buf).unwrap(), spki);
    let n = key.to_pkcs8_der(&mut buf).unwrap();
    assert_eq!(&buf[..n], &der_of(&pkcs8)[..]);
    let n = public.to_public_key_der(&mut buf).unwrap();
    assert_eq!(&buf[..n], &der_of(&spki)[..]);
    assert_eq!(&*key.to_pkcs8_pem_string().unwrap(), &pkcs8);
    assert_eq!(&*key.to_pkcs1_pem_string().unwrap(), &pkcs1);
    assert_eq!(public.to_public_key_pem_string().unwrap(), spki);
    // The size bounds hold for the largest key this build takes.
    assert!(pkcs8.len() <= MAX_PKCS8_PEM_LEN && pkcs1.len() <= MAX_PKCS1_PEM_LEN);
    assert!(spki.len() <= MAX_PUBLIC_KEY_PEM_LEN && der_of(&pkcs8).len() <= MAX_PKCS8_DER_LEN);
}

/// RSASSA-PSS keys (RFC 4055), without parameters and restricted to SHA-256 with a 32-byte
/// salt, keep their identifier through a round trip and sign PSS.
#[test]
fn pss_keys_round_trip_byte_for_byte() {
    for (name, params) in [("pss", false), ("pss-sha256", true)] {
        let pkcs8 = fixture(&format!("{name}.pkcs8.pem"));
        let spki = fixture(&format!("{name}.spki.pem"));
        let key = PrivateKey::from_pkcs8_pem(&pkcs8).unwrap();
        let public = PublicKey::from_public_key_pem(&spki).unwrap();
        assert_eq!(
            (key.algorithm(), public.algorithm()),
            (KeyAlgorithm::RsaPss, KeyAlgorithm::RsaPss)
        );
        let restriction = key.pss_params().map(PssKeyParams::restriction);
        let want = params.then_some(Pss::with_salt_len(HashAlg::Sha256, 32));
        assert_eq!(restriction, Some(want), "{name}");
        assert_eq!(public.pss_params(), key.pss_params());
        let mut buf = vec![0u8; MAX_PKCS8_PEM_LEN];
        assert_eq!(key.to_pkcs8_pem(&mut buf).unwrap(), pkcs8, "{name}");
        assert_eq!(public.to_public_key_pem(&mut buf).unwrap(), spki, "{name}");
        assert_eq!(key.public_key().to_public_key_pem(&mut buf).unwrap(), spki, "{name}");
        let mut sig = [0u8; 256];
        let pss = Pss::with_salt_len(HashAlg::Sha256, 32);
        let n = key.sign_pss(pss, MSG, &mut OsRandom, &mut sig).unwrap();
        public.verify_pss(pss, MSG, &sig[..n]).unwrap();
    }
}

#[test]
fn every_error_is_typed() {
    let pkcs8 = der_of(&fixture("rsa2048.pkcs8.pem"));
    let pkcs1 = der_of(&fixture("rsa2048.pkcs1.pem"));
    let spki = der_of(&fixture("rsa2048.spki.pem"));
    let pss = der_of(&fixture("pss-sha256.pkcs8.pem"));
    truncations_and_trailing(&pkcs8, PrivateKey::from_pkcs8_der);
    truncations_and_trailing(&pkcs1, PrivateKey::from_pkcs1_der);
    truncations_and_trailing(&spki, PublicKey::from_public_key_der);
    truncations_and_trailing(&pss, PrivateKey::from_pkcs8_der);

    // Another algorithm says which: an EC key is not InvalidDer.
    let wrong = |found| Some(Error::WrongAlgorithm { found });
    assert_eq!(
        PrivateKey::from_pkcs8_pem(&fixture("p256.pkcs8.pem")).err(),
        wrong(KeyAlgorithm::EcP256)
    );
    let ed = fixture("ed25519.spki.pem");
    assert_eq!(PublicKey::from_public_key_pem(&ed).err(), wrong(KeyAlgorithm::Ed25519));
    let e = PrivateKey::from_pkcs8_pem(&fixture("p256.pkcs8.pem")).unwrap_err();
    assert_eq!(e.to_string(), "not an RSA key: the key is EC P-256");

    // PEM: the wrong label, no block, bad base64.
    let pem_err = |e| Some(Error::Pem(e));
    let pkcs1_text = fixture("rsa2048.pkcs1.pem");
    let pkcs8_text = fixture("rsa2048.pkcs8.pem");
    assert_eq!(PrivateKey::from_pkcs8_pem(&pkcs1_text).err(), pem_err(PemError::WrongLabel));
    assert_eq!(PrivateKey::from_pkcs1_pem(&pkcs8_text).err(), pem_err(PemError::WrongLabel));
    assert_eq!(PublicKey::from_public_key_pem(&pkcs8_text).err(), pem_err(PemError::WrongLabel));
    assert_eq!(
        PublicKey::from_pkcs1_pem(&fixture("rsa2048.spki.pem")).err(),
        pem_err(PemError::WrongLabel)
    );
    assert_eq!(PrivateKey::from_pkcs8_pem("").err(), pem_err(PemError::NotFound));
    let at = pkcs8_text.find("-----\n").unwrap() + 20;
    let mut bad = pkcs8_text.clone();
    bad.replace_range(at..=at, "*");
    assert_eq!(PrivateKey::from_pkcs8_pem(&bad).err(), pem_err(PemError::BadBase64));

    // rsaEncryption's parameters must be NULL; bad PSS parameters are refused.
    let mut no_null = spki.clone();
    let null_at = no_null.windows(2).position(|w| w == [0x05, 0x00]).unwrap();
    no_null[null_at] = 0x04; // an empty OCTET STRING in place of NULL
    assert_eq!(PublicKey::from_public_key_der(&no_null).err(), Some(Error::InvalidDer));
    let mut bad_trailer = pss.clone();
    let salt_at = bad_trailer.windows(5).position(|w| w == [0xa2, 0x03, 0x02, 0x01, 0x20]).unwrap();
    bad_trailer[salt_at] = 0xa3; // a trailer field of 32
    assert_eq!(PrivateKey::from_pkcs8_der(&bad_trailer).err(), Some(Error::InvalidDer));

    // Output buffers too small.
    let key = PrivateKey::from_pkcs8_der(&pkcs8).unwrap();
    let mut small = [0u8; 100];
    assert_eq!(key.to_pkcs8_der(&mut small).err(), Some(Error::BufferTooSmall));
    assert_eq!(key.to_pkcs8_pem(&mut small).err(), Some(Error::BufferTooSmall));
    assert_eq!(key.public_key().to_public_key_pem(&mut small).err(), Some(Error::BufferTooSmall));
}

/// A fresh directory for one interop test, or `None` (with a message) without `openssl`.
fn openssl_dir(name: &str) -> Option<PathBuf> {
    if !Command::new("openssl").arg("version").output().is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: the openssl CLI is not installed");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("halite-rsa-keys-{}-{name}", std::process::id()));
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
fn openssl_interop() {
    let Some(dir) = openssl_dir("rsa") else { return };
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let mut buf = vec![0u8; MAX_PKCS8_PEM_LEN];

    // OpenSSL's key in every form, loaded by Halite; signatures both ways.
    openssl(
        &dir,
        &["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "key.pem"],
    );
    openssl(&dir, &["pkey", "-in", "key.pem", "-traditional", "-out", "key1.pem"]);
    openssl(&dir, &["pkey", "-in", "key.pem", "-pubout", "-out", "pub.pem"]);
    openssl(&dir, &["rsa", "-in", "key.pem", "-RSAPublicKey_out", "-out", "pub1.pem"]);
    let key = PrivateKey::from_pkcs8_pem(&read("key.pem")).unwrap();
    let key1 = PrivateKey::from_pkcs1_pem(&read("key1.pem")).unwrap();
    let public = PublicKey::from_public_key_pem(&read("pub.pem")).unwrap();
    let public1 = PublicKey::from_pkcs1_pem(&read("pub1.pem")).unwrap();
    assert_eq!(key1.to_pkcs8_pem(&mut buf).unwrap(), read("key.pem"));
    assert_eq!(public1.to_public_key_pem(&mut buf).unwrap(), read("pub.pem"));
    std::fs::write(dir.join("msg"), MSG).unwrap();
    let mut sig = [0u8; 256];
    let n = key.sign_pss(Pss::new(HashAlg::Sha256), MSG, &mut OsRandom, &mut sig).unwrap();
    std::fs::write(dir.join("pss.sig"), &sig[..n]).unwrap();
    openssl(
        &dir,
        &[
            "dgst",
            "-sha256",
            "-sigopt",
            "rsa_padding_mode:pss",
            "-sigopt",
            "rsa_pss_saltlen:auto",
            "-verify",
            "pub.pem",
            "-signature",
            "pss.sig",
            "msg",
        ],
    );
    let n = key1.sign_pkcs1v15(HashAlg::Sha384, MSG, &mut OsRandom, &mut sig).unwrap();
    std::fs::write(dir.join("v15.sig"), &sig[..n]).unwrap();
    openssl(&dir, &["dgst", "-sha384", "-verify", "pub1.pem", "-signature", "v15.sig", "msg"]);
    openssl(
        &dir,
        &[
            "dgst",
            "-sha512",
            "-sigopt",
            "rsa_padding_mode:pss",
            "-sign",
            "key.pem",
            "-out",
            "o.sig",
            "msg",
        ],
    );
    public
        .verify_pss(Pss::new(HashAlg::Sha512), MSG, &std::fs::read(dir.join("o.sig")).unwrap())
        .unwrap();

    // Halite's own key, read and checked by OpenSSL in every form.
    let mine = PrivateKey::generate(2048, &mut OsRandom).unwrap();
    std::fs::write(dir.join("h.pem"), mine.to_pkcs8_pem(&mut buf).unwrap()).unwrap();
    std::fs::write(dir.join("h1.pem"), mine.to_pkcs1_pem(&mut buf).unwrap()).unwrap();
    let mine_pub = mine.public_key().to_public_key_pem(&mut buf).unwrap().to_string();
    std::fs::write(dir.join("h-pub.pem"), &mine_pub).unwrap();
    std::fs::write(dir.join("h-pub1.pem"), mine.public_key().to_pkcs1_pem(&mut buf).unwrap())
        .unwrap();
    openssl(&dir, &["pkey", "-in", "h.pem", "-check", "-noout"]);
    openssl(&dir, &["rsa", "-in", "h1.pem", "-check", "-noout"]);
    openssl(&dir, &["pkey", "-pubin", "-in", "h-pub.pem", "-noout"]);
    assert_eq!(openssl(&dir, &["pkey", "-in", "h.pem", "-pubout"]), mine_pub.as_bytes());
    assert_eq!(
        openssl(&dir, &["rsa", "-RSAPublicKey_in", "-in", "h-pub1.pem", "-pubout"]),
        mine_pub.as_bytes()
    );
    let n = mine.sign_pss(Pss::new(HashAlg::Sha256), MSG, &mut OsRandom, &mut sig).unwrap();
    std::fs::write(dir.join("h.sig"), &sig[..n]).unwrap();
    openssl(
        &dir,
        &[
            "dgst",
            "-sha256",
            "-sigopt",
            "rsa_padding_mode:pss",
            "-sigopt",
            "rsa_pss_saltlen:auto",
            "-verify",
            "h-pub.pem",
            "-signature",
            "h.sig",
            "msg",
        ],
    );

    // An RSASSA-PSS key restricted to SHA-256: OpenSSL's, signing with Halite.
    openssl(
        &dir,
        &[
            "genpkey",
            "-algorithm",
            "RSA-PSS",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-pkeyopt",
            "rsa_pss_keygen_md:sha256",
            "-pkeyopt",
            "rsa_pss_keygen_mgf1_md:sha256",
            "-pkeyopt",
            "rsa_pss_keygen_saltlen:32",
            "-out",
            "pss.pem",
        ],
    );
    openssl(&dir, &["pkey", "-in", "pss.pem", "-pubout", "-out", "pss-pub.pem"]);
    let pss = PrivateKey::from_pkcs8_pem(&read("pss.pem")).unwrap();
    assert_eq!(pss.algorithm(), KeyAlgorithm::RsaPss);
    let n = pss
        .sign_pss(Pss::with_salt_len(HashAlg::Sha256, 32), MSG, &mut OsRandom, &mut sig)
        .unwrap();
    std::fs::write(dir.join("p.sig"), &sig[..n]).unwrap();
    openssl(&dir, &["dgst", "-sha256", "-verify", "pss-pub.pem", "-signature", "p.sig", "msg"]);
    std::fs::write(dir.join("h-pss.pem"), pss.to_pkcs8_pem(&mut buf).unwrap()).unwrap();
    openssl(&dir, &["pkey", "-in", "h-pss.pem", "-check", "-noout"]);
}

proptest! {
    #[test]
    fn arbitrary_input_never_panics(data in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = PrivateKey::from_pkcs8_der(&data);
        let _ = PrivateKey::from_pkcs1_der(&data);
        let _ = PublicKey::from_public_key_der(&data);
        let _ = PublicKey::from_pkcs1_der(&data);
        let text = String::from_utf8_lossy(&data);
        let _ = PrivateKey::from_pkcs8_pem(&text);
        let _ = PrivateKey::from_pkcs1_pem(&text);
        let _ = PublicKey::from_public_key_pem(&text);
        let _ = PublicKey::from_pkcs1_pem(&text);
    }

    /// A valid key with one byte changed: a typed error or a key that re-encodes to a form
    /// that decodes to itself, never a panic.
    #[test]
    fn mutated_keys(at in any::<usize>(), byte in any::<u8>(), file in 0usize..4) {
        let name = ["rsa2048.spki.pem", "pss-sha256.spki.pem", "pss.spki.pem", "rsa2048.pub.pkcs1.pem"][file];
        let mut der = der_of(&fixture(name));
        let i = at % der.len();
        der[i] = byte;
        let mut buf = vec![0u8; 1024];
        if let Ok(k) = PublicKey::from_public_key_der(&der) {
            let n = k.to_public_key_der(&mut buf).unwrap();
            prop_assert_eq!(&buf[..n], &der[..]);
        }
        if let Ok(k) = PublicKey::from_pkcs1_der(&der) {
            let n = k.to_pkcs1_der(&mut buf).unwrap();
            prop_assert_eq!(&buf[..n], &der[..]);
        }
    }
}
