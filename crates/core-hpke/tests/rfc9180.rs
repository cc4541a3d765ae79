//! RFC 9180 Appendix A, byte for byte: every vector of every suite this crate implements, in
//! all four modes. For each, the derived key pairs and their encodings, the KEM's `enc` and
//! shared secret both ways, every encryption's ciphertext (sealed) and plaintext (opened) at
//! its sequence number, and every export from both contexts.
//!
//! `data/rfc9180.json` is the appendix in the CFRG `test-vectors.json` shape, filtered to the
//! supported suites by `data/rfc9180_appendix.py` (its docstring has the command): all of
//! the appendix but its export-only suite, 24 vectors (X25519 and P-256 with AES-128-GCM and
//! ChaCha20-Poly1305 under HKDF-SHA256, P-256 with AES-128-GCM under HKDF-SHA512, P-521 with
//! AES-256-GCM under HKDF-SHA512), 144 encryptions and 72 exports. The appendix has no P-384
//! vector; `rustls-halite`'s tests check P-384 against aws-lc-rs.

use core_hpke::{
    Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, DhKemP256HkdfSha256, DhKemP521HkdfSha512,
    DhKemX25519HkdfSha256, HkdfSha256, HkdfSha512, Hpke, Kdf, Kem, Mode, Psk, RecipientContext,
    SenderContext,
};
use serde_json::Value;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn field(v: &Value, name: &str) -> Vec<u8> {
    hex(v[name].as_str().unwrap_or_else(|| panic!("vector has no {name}")))
}

/// What one vector checked, summed over the file.
#[derive(Default)]
struct Counts {
    vectors: usize,
    encryptions: usize,
    exports: usize,
}

/// A key pair from `ikm`, checked against the vector's serialized private and public keys
/// (and their deserialization back).
fn key_pair<K: Kem>(v: &Value, role: &str) -> (K::SecretKey, K::PublicKey) {
    let (sk, pk) = K::derive_key_pair(&field(v, &format!("ikm{role}"))).unwrap();
    let skm = field(v, &format!("sk{role}m"));
    let pkm = field(v, &format!("pk{role}m"));
    assert_eq!(K::serialize_private_key(&sk).as_ref(), skm, "sk{role}m");
    assert_eq!(K::serialize_public_key(&pk).as_ref(), pkm, "pk{role}m");
    let sk2 = K::deserialize_private_key(&skm).unwrap();
    assert_eq!(
        K::serialize_public_key(&K::public_key(&sk2)).as_ref(),
        pkm,
        "pk{role}m of sk{role}m"
    );
    let pk2 = K::deserialize_public_key(&pkm).unwrap();
    assert_eq!(K::serialize_public_key(&pk2).as_ref(), pkm);
    (sk, pk)
}

fn check<K: Kem, F: Kdf, A: core_hpke::Aead>(v: &Value, counts: &mut Counts) {
    let mode_id = v["mode"].as_u64().unwrap();
    let (sk_r, pk_r) = key_pair::<K>(v, "R");
    let _ephemeral = key_pair::<K>(v, "E");
    let sender = (mode_id >= 2).then(|| key_pair::<K>(v, "S"));
    let has_psk = mode_id & 1 == 1;
    let psk_fields = has_psk.then(|| (field(v, "psk"), field(v, "psk_id")));
    let psk = psk_fields.as_ref().map(|(key, id)| Psk { key, id });
    let (info, ikm_e, enc) = (field(v, "info"), field(v, "ikmE"), field(v, "enc"));

    // The KEM alone, both ways.
    let sk_s = sender.as_ref().map(|(sk, _)| sk);
    let pk_s = sender.as_ref().map(|(_, pk)| pk);
    let (kem_enc, shared) = K::encap_derand(&pk_r, sk_s, &ikm_e).unwrap();
    assert_eq!(kem_enc.as_ref(), enc, "enc");
    assert_eq!(shared.as_bytes(), field(v, "shared_secret"), "shared_secret (encap)");
    let shared = K::decap(&enc, &sk_r, pk_s).unwrap();
    assert_eq!(shared.as_bytes(), field(v, "shared_secret"), "shared_secret (decap)");

    let (send_mode, receive_mode) = match (&sender, psk) {
        (None, None) => (Mode::Base, Mode::Base),
        (None, Some(p)) => (Mode::Psk(p), Mode::Psk(p)),
        (Some((sk, pk)), None) => (Mode::Auth(sk), Mode::Auth(pk)),
        (Some((sk, pk)), Some(p)) => (Mode::AuthPsk(sk, p), Mode::AuthPsk(pk, p)),
    };
    let (setup_enc, mut s) =
        Hpke::<K, F, A>::setup_sender_derand(&pk_r, &info, send_mode, &ikm_e).unwrap();
    assert_eq!(setup_enc.as_ref(), enc);
    let mut r = Hpke::<K, F, A>::setup_recipient(&enc, &sk_r, &info, receive_mode).unwrap();

    for e in v["encryptions"].as_array().unwrap() {
        let seq = e["seq"].as_u64().unwrap();
        advance(&mut s, &mut r, seq);
        let (pt, aad, ct) = (field(e, "pt"), field(e, "aad"), field(e, "ct"));
        let mut out = vec![0u8; pt.len() + A::TAG_LEN];
        assert_eq!(s.seal(&aad, &pt, &mut out), Ok(ct.len()));
        assert_eq!(out, ct, "ct at sequence number {seq}");
        let mut opened = vec![0u8; pt.len()];
        assert_eq!(r.open(&aad, &ct, &mut opened), Ok(pt.len()));
        assert_eq!(opened, pt, "pt at sequence number {seq}");
        counts.encryptions += 1;
    }
    for x in v["exports"].as_array().unwrap() {
        let context = field(x, "exporter_context");
        let want = field(x, "exported_value");
        let len = usize::try_from(x["L"].as_u64().unwrap()).unwrap();
        let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
        s.export(&context, &mut a).unwrap();
        r.export(&context, &mut b).unwrap();
        assert_eq!(a, want, "sender's export");
        assert_eq!(b, want, "recipient's export");
        counts.exports += 1;
    }
    counts.vectors += 1;
}

/// Seals and opens empty messages until both contexts are at sequence number `seq`.
fn advance<F: Kdf, A: core_hpke::Aead>(
    s: &mut SenderContext<F, A>,
    r: &mut RecipientContext<F, A>,
    seq: u64,
) {
    while s.sequence_number() < seq {
        let mut buf = [0u8; 16];
        let n = s.seal_in_place_append_tag(b"", &mut buf, 0).unwrap();
        assert!(r.open_in_place(b"", &mut buf[..n]).unwrap().is_empty());
    }
    assert_eq!(r.sequence_number(), seq);
}

#[test]
fn rfc9180_appendix_a() {
    let vectors: Value = serde_json::from_str(include_str!("data/rfc9180.json")).unwrap();
    let mut counts = Counts::default();
    for v in vectors.as_array().unwrap() {
        let suite = ["kem_id", "kdf_id", "aead_id"].map(|k| v[k].as_u64().unwrap());
        match suite {
            [0x20, 1, 1] => check::<DhKemX25519HkdfSha256, HkdfSha256, Aes128Gcm>(v, &mut counts),
            [0x20, 1, 3] => {
                check::<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>(v, &mut counts);
            }
            [0x10, 1, 1] => check::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>(v, &mut counts),
            [0x10, 1, 3] => {
                check::<DhKemP256HkdfSha256, HkdfSha256, ChaCha20Poly1305>(v, &mut counts);
            }
            [0x10, 3, 1] => check::<DhKemP256HkdfSha256, HkdfSha512, Aes128Gcm>(v, &mut counts),
            [0x12, 3, 2] => check::<DhKemP521HkdfSha512, HkdfSha512, Aes256Gcm>(v, &mut counts),
            other => panic!("vector for unsupported suite {other:x?} in the filtered file"),
        }
    }
    assert_eq!((counts.vectors, counts.encryptions, counts.exports), (24, 144, 72));
}
