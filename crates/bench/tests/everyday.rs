//! Halite issue 25's acceptance check, as a test that can fail: each everyday task written
//! twice, with Halite and with the shorter of its RustCrypto/ring equivalents, each between
//! `// task: NAME (who)` and `// end` markers. The tests run both and check they agree (each
//! side checks the other's output), and `halite_is_never_longer` counts the non-blank,
//! non-comment lines between the markers of this very file and fails if Halite's code for a
//! task is longer than its peer's.

use std::error::Error;
use std::io::Write;

const RSA_PKCS8: &str = include_str!("../../core-rsa/tests/data/keys/rsa2048.pkcs8.pem");
const RSA_PKCS1: &str = include_str!("../../core-rsa/tests/data/keys/rsa2048.pkcs1.pem");

// task: hash (halite)
fn halite_hash_file(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use core_hash::Sha256;
    let mut h = Sha256::new();
    std::io::copy(&mut std::fs::File::open(path)?, &mut h)?;
    Ok(h.finalize().to_vec())
}
// end

// task: hash (peer)
fn peer_hash_file(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    std::io::copy(&mut std::fs::File::open(path)?, &mut h)?;
    Ok(h.finalize().to_vec())
}
// end

// task: aead (halite)
fn halite_seal(key: &[u8; 32], msg: &[u8]) -> Result<([u8; 12], Vec<u8>), Box<dyn Error>> {
    use core_aead::{Aead, Aes256Gcm, Nonce};
    let nonce = Nonce::random(&mut core_hash::OsRandom)?;
    let mut sealed = msg.to_vec();
    Aes256Gcm::new(key)?.seal_in_place_vec(nonce.as_bytes(), b"", &mut sealed)?;
    Ok((*nonce.as_bytes(), sealed))
}

fn halite_open(key: &[u8; 32], nonce: &[u8; 12], sealed: &[u8]) -> Result<Vec<u8>, Box<dyn Error>> {
    use core_aead::{Aead, Aes256Gcm};
    let mut opened = sealed.to_vec();
    Aes256Gcm::new(key)?.open_in_place_vec(nonce, b"", &mut opened)?;
    Ok(opened)
}
// end

// task: aead (peer)
fn peer_seal(key: &[u8; 32], msg: &[u8]) -> Result<([u8; 12], Vec<u8>), aes_gcm::Error> {
    use aes_gcm::aead::{Aead, AeadCore, KeyInit, OsRng};
    use aes_gcm::{Aes256Gcm, Key};
    let aead = Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(key));
    let nonce = Aes256Gcm::generate_nonce(&mut OsRng);
    let sealed = aead.encrypt(&nonce, msg)?;
    Ok((nonce.into(), sealed))
}

fn peer_open(key: &[u8; 32], nonce: &[u8; 12], sealed: &[u8]) -> Result<Vec<u8>, aes_gcm::Error> {
    use aes_gcm::aead::{Aead, KeyInit};
    use aes_gcm::{Aes256Gcm, Key, Nonce};
    let aead = Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(key));
    aead.decrypt(Nonce::from_slice(nonce), sealed)
}
// end

// task: ecdsa (halite)
/// Generate → PKCS#8 PEM → load → sign → verify; returns the SEC1 public key and signature.
fn halite_ecdsa(msg: &[u8]) -> Result<(Vec<u8>, Vec<u8>), core_ec::Error> {
    use core_ec::p256;
    let key = p256::SigningKey::generate(&mut core_hash::OsRandom)?;
    let mut buf = [0u8; p256::PKCS8_PEM_LEN];
    let key = p256::SigningKey::from_pkcs8_pem(key.to_pkcs8_pem(&mut buf)?)?;
    let sig = key.sign(msg);
    key.verifying_key().verify(msg, &sig)?;
    Ok((key.verifying_key().to_sec1_bytes().to_vec(), sig.to_bytes().to_vec()))
}
// end

// task: ecdsa (peer)
fn peer_ecdsa(msg: &[u8]) -> Result<(Vec<u8>, Vec<u8>), Box<dyn Error>> {
    use p256::ecdsa::signature::{Signer, Verifier};
    use p256::ecdsa::{Signature, SigningKey};
    use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
    let key = SigningKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
    let key = SigningKey::from_pkcs8_pem(&key.to_pkcs8_pem(LineEnding::LF)?)?;
    let sig: Signature = key.sign(msg);
    key.verifying_key().verify(msg, &sig)?;
    Ok((key.verifying_key().to_encoded_point(false).as_bytes().to_vec(), sig.to_vec()))
}
// end

// task: ed25519 (halite)
fn halite_ed25519(msg: &[u8]) -> Result<([u8; 32], [u8; 64]), core_ec::Error> {
    use core_ec::ed25519;
    let key = ed25519::SigningKey::generate(&mut core_hash::OsRandom)?;
    let sig = key.sign(msg);
    key.verifying_key().verify(msg, &sig)?;
    Ok((key.verifying_key().to_bytes(), sig.to_bytes()))
}
// end

// task: ed25519 (peer)
fn peer_ed25519(msg: &[u8]) -> Result<(Vec<u8>, Vec<u8>), ring::error::Unspecified> {
    use ring::signature::{ED25519, Ed25519KeyPair, KeyPair, UnparsedPublicKey};
    let rng = ring::rand::SystemRandom::new();
    let pkcs8 = Ed25519KeyPair::generate_pkcs8(&rng)?;
    let key = Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).map_err(|_| ring::error::Unspecified)?;
    let sig = key.sign(msg);
    UnparsedPublicKey::new(&ED25519, key.public_key().as_ref()).verify(msg, sig.as_ref())?;
    Ok((key.public_key().as_ref().to_vec(), sig.as_ref().to_vec()))
}
// end

// task: x25519 (halite)
/// Our public key and the secret shared with `peer`.
fn halite_x25519(peer: &[u8; 32]) -> Result<([u8; 32], [u8; 32]), core_ec::Error> {
    use core_ec::x25519::{PublicKey, SecretKey};
    let ours = SecretKey::generate(&mut core_hash::OsRandom)?;
    let shared = ours.diffie_hellman(&PublicKey::from_bytes(*peer))?;
    Ok((*ours.public_key().as_bytes(), *shared.as_bytes()))
}
// end

// task: x25519 (peer)
fn peer_x25519(peer: &[u8; 32]) -> ([u8; 32], [u8; 32]) {
    use x25519_dalek::{PublicKey, StaticSecret};
    let ours = StaticSecret::random();
    let shared = ours.diffie_hellman(&PublicKey::from(*peer));
    (PublicKey::from(&ours).to_bytes(), shared.to_bytes())
}
// end

// task: rsa (halite)
/// Loads the key from PKCS#8 PEM to PSS-sign and verify `msg` and from PKCS#1 PEM to
/// OAEP-decrypt `ct`; returns the signature and the plaintext.
fn halite_rsa(msg: &[u8], ct: &[u8]) -> Result<(Vec<u8>, Vec<u8>), core_rsa::Error> {
    use core_rsa::{HashAlg, Oaep, OsRandom, PrivateKey, Pss};
    let key = PrivateKey::from_pkcs8_pem(RSA_PKCS8)?;
    let mut sig = [0u8; 256];
    let n = key.sign_pss(Pss::new(HashAlg::Sha256), msg, &mut OsRandom, &mut sig)?;
    key.public_key().verify_pss(Pss::new(HashAlg::Sha256), msg, &sig[..n])?;
    let mut pt = [0u8; 256];
    let key = PrivateKey::from_pkcs1_pem(RSA_PKCS1)?;
    let m = key.decrypt_oaep(Oaep::new(HashAlg::Sha256), b"", ct, &mut OsRandom, &mut pt)?;
    Ok((sig[..n].to_vec(), pt[..m].to_vec()))
}
// end

// task: rsa (peer)
fn peer_rsa(msg: &[u8], ct: &[u8]) -> Result<(Vec<u8>, Vec<u8>), Box<dyn Error>> {
    use rsa::pkcs1::DecodeRsaPrivateKey;
    use rsa::pkcs8::DecodePrivateKey;
    use rsa::pss::{BlindedSigningKey, VerifyingKey};
    use rsa::signature::{RandomizedSigner, SignatureEncoding, Verifier};
    use rsa::{Oaep, RsaPrivateKey, sha2::Sha256};
    let key = RsaPrivateKey::from_pkcs8_pem(RSA_PKCS8)?;
    let signer = BlindedSigningKey::<Sha256>::new(key.clone());
    let sig = signer.sign_with_rng(&mut rsa::rand_core::OsRng, msg);
    VerifyingKey::<Sha256>::new(key.to_public_key()).verify(msg, &sig)?;
    let pt = RsaPrivateKey::from_pkcs1_pem(RSA_PKCS1)?.decrypt(Oaep::new::<Sha256>(), ct)?;
    Ok((sig.to_vec(), pt))
}
// end

#[test]
fn hash_agrees() {
    let mut file = std::env::temp_dir();
    file.push(format!("halite-everyday-{}", std::process::id()));
    std::fs::File::create(&file).unwrap().write_all(&vec![0x5a; 100_000]).unwrap();
    let (ours, theirs) = (halite_hash_file(&file).unwrap(), peer_hash_file(&file).unwrap());
    std::fs::remove_file(&file).unwrap();
    assert_eq!(ours, theirs);
}

#[test]
fn aead_each_opens_the_other() {
    let key = [7u8; 32];
    let (nonce, sealed) = halite_seal(&key, b"attack at dawn").unwrap();
    assert_eq!(peer_open(&key, &nonce, &sealed).unwrap(), b"attack at dawn");
    let (nonce, sealed) = peer_seal(&key, b"attack at dusk").unwrap();
    assert_eq!(halite_open(&key, &nonce, &sealed).unwrap(), b"attack at dusk");
}

#[test]
fn ecdsa_each_verifies_the_other() {
    use p256::ecdsa::signature::Verifier;
    let (public, sig) = halite_ecdsa(b"message").unwrap();
    let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(&public).unwrap();
    key.verify(b"message", &p256::ecdsa::Signature::from_slice(&sig).unwrap()).unwrap();
    let (public, sig) = peer_ecdsa(b"message").unwrap();
    let key = core_ec::p256::PublicKey::from_sec1_bytes(&public).unwrap();
    key.verify(b"message", &core_ec::p256::Signature::from_bytes(&sig).unwrap()).unwrap();
    assert!(key.verify(b"massage", &core_ec::p256::Signature::from_bytes(&sig).unwrap()).is_err());
}

#[test]
fn ed25519_each_verifies_the_other() {
    use ring::signature::{ED25519, UnparsedPublicKey};
    let (public, sig) = halite_ed25519(b"message").unwrap();
    UnparsedPublicKey::new(&ED25519, public).verify(b"message", &sig).unwrap();
    let (public, sig) = peer_ed25519(b"message").unwrap();
    let key = core_ec::ed25519::VerifyingKey::from_bytes(&public.try_into().unwrap()).unwrap();
    let sig = core_ec::ed25519::Signature::from_slice(&sig).unwrap();
    key.verify(b"message", &sig).unwrap();
    assert!(key.verify(b"massage", &sig).is_err());
}

#[test]
fn x25519_both_sides_share_one_secret() {
    let (their_public, _) = peer_x25519(&[9; 32]);
    let (our_public, ours) = halite_x25519(&their_public).unwrap();
    let peer = x25519_dalek::StaticSecret::random();
    let peer_public = x25519_dalek::PublicKey::from(&peer).to_bytes();
    let (_, ours_with_dalek) = halite_x25519(&peer_public).unwrap();
    assert_ne!(ours, ours_with_dalek, "fresh keys each run");
    assert_eq!(our_public.len(), 32);
    // A fixed peer secret on each side: both compute the same shared secret.
    let (halite_public, halite_shared) = halite_x25519(&peer_public).unwrap();
    let dalek_shared = peer.diffie_hellman(&x25519_dalek::PublicKey::from(halite_public));
    assert_eq!(halite_shared, dalek_shared.to_bytes());
}

#[test]
fn rsa_each_checks_the_other() {
    use rsa::pkcs8::DecodePublicKey;
    let public = rsa::RsaPublicKey::from_public_key_pem(include_str!(
        "../../core-rsa/tests/data/keys/rsa2048.spki.pem"
    ))
    .unwrap();
    let ct =
        public.encrypt(&mut rsa::rand_core::OsRng, rsa::Oaep::new::<sha2::Sha256>(), b"k").unwrap();
    let (sig, pt) = halite_rsa(b"message", &ct).unwrap();
    assert_eq!(pt, b"k");
    let pss = rsa::pss::VerifyingKey::<sha2::Sha256>::new(public);
    rsa::signature::Verifier::verify(&pss, b"message", &sig.as_slice().try_into().unwrap())
        .unwrap();
    let key = core_rsa::PrivateKey::from_pkcs8_pem(RSA_PKCS8).unwrap().public_key();
    let oaep = core_rsa::Oaep::new(core_rsa::HashAlg::Sha256);
    let mut ct = [0u8; 256];
    key.encrypt_oaep(oaep, b"", b"k2", &mut core_rsa::OsRandom, &mut ct).unwrap();
    let (sig, pt) = peer_rsa(b"message", &ct).unwrap();
    assert_eq!(pt, b"k2");
    key.verify_pss(core_rsa::Pss::new(core_rsa::HashAlg::Sha256), b"message", &sig).unwrap();
}

/// Non-blank lines that are not only a comment, between `// task: NAME (who)` and `// end`.
fn line_counts(source: &str) -> Vec<(String, String, usize)> {
    let mut counts = Vec::new();
    let mut open: Option<(String, String, usize)> = None;
    for line in source.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("// task: ") {
            let (task, who) = rest.split_once(' ').expect("// task: NAME (who)");
            open = Some((task.to_owned(), who.trim_matches(['(', ')']).to_owned(), 0));
        } else if line == "// end" {
            counts.push(open.take().expect("// end without // task:"));
        } else if let Some((_, _, n)) = &mut open {
            *n += usize::from(!line.is_empty() && !line.starts_with("//"));
        }
    }
    assert!(open.is_none(), "a task without // end");
    counts
}

#[test]
fn halite_is_never_longer() {
    let counts = line_counts(include_str!("everyday.rs"));
    let tasks = ["hash", "aead", "ecdsa", "ed25519", "x25519", "rsa"];
    assert_eq!(counts.len(), 2 * tasks.len(), "{counts:?}");
    for task in tasks {
        let count =
            |who: &str| counts.iter().find(|c| c.0 == task && c.1 == who).map(|c| c.2).expect(task);
        let (halite, peer) = (count("halite"), count("peer"));
        println!("{task:8} halite {halite:3}  peer {peer:3}");
        assert!(halite <= peer, "{task}: Halite {halite} lines, the peer {peer}");
    }
}

#[test]
fn the_counter_counts_code_only() {
    let src = "// task: t (halite)\nfn f() {\n\n    // a comment\n    g();\n}\n// end\n";
    assert_eq!(line_counts(src), [("t".to_owned(), "halite".to_owned(), 3)]);
}
