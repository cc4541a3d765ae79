//! core-der's PEM codec and PKCS#8/SPKI envelopes on arbitrary input: the first byte picks a
//! label, the rest is the text (lossily UTF-8). Nothing may panic; a block that decodes is
//! canonical base64, so encoding its bytes under the same label gives the same base64 back;
//! and an envelope that parses writes back to the same bytes.
#![no_main]

use core_der::pem;
use core_der::pkix::{PrivateKeyInfo, SubjectPublicKeyInfo};
use libfuzzer_sys::fuzz_target;

const LABELS: [&str; 5] =
    ["PRIVATE KEY", "PUBLIC KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY", "CERTIFICATE"];

fn base64_of(text: &str) -> String {
    let body = pem::all_blocks(text).next().expect("a block").body;
    body.chars().filter(|c| !c.is_ascii_whitespace()).collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let label = LABELS[usize::from(pick) % LABELS.len()];
    let text = String::from_utf8_lossy(rest);
    for block in pem::all_blocks(&text) {
        let _ = pem::decoded_len(block.body);
    }
    let mut out = vec![0u8; 4096];
    if let Ok(der) = pem::decode_first(&text, label, &mut out) {
        let der = der.to_vec();
        let body = pem::blocks(&text, label).next().expect("the block that decoded");
        let mut again = vec![0u8; pem::encoded_len(label, der.len())];
        let encoded = pem::encode(label, &der, &mut again).expect("sized exactly");
        let original: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        assert_eq!(base64_of(encoded), original, "decoded base64 not canonical");
        let mut back = vec![0u8; der.len()];
        assert_eq!(pem::decode_first(encoded, label, &mut back), Ok(&der[..]));
    }
    // The envelopes on the raw bytes.
    if let Ok(info) = PrivateKeyInfo::from_der(rest) {
        let mut w = vec![0u8; info.encoded_len()];
        assert_eq!(info.to_der(&mut w), Ok(rest.len()));
        assert_eq!(w, rest, "PKCS#8 not canonical");
    }
    if let Ok(spki) = SubjectPublicKeyInfo::from_der(rest) {
        let mut w = vec![0u8; spki.encoded_len()];
        assert_eq!(spki.to_der(&mut w), Ok(rest.len()));
        assert_eq!(w, rest, "SPKI not canonical");
    }
});
