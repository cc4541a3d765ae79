//! Arbitrary input to every decoder: a typed error or a value, never a panic; and what
//! decodes re-encodes to the same bytes.

use core_der::pkix::{PrivateKeyInfo, SubjectPublicKeyInfo};
use core_der::{der, pem};
use proptest::prelude::*;

proptest! {
    #[test]
    fn pem_round_trips(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        let mut text = vec![0u8; pem::encoded_len("PRIVATE KEY", data.len())];
        let text = pem::encode("PRIVATE KEY", &data, &mut text).unwrap();
        let mut back = vec![0u8; data.len()];
        prop_assert_eq!(pem::decode_first(text, "PRIVATE KEY", &mut back), Ok(&data[..]));
        prop_assert_eq!(pem::decode_first(text, "PUBLIC KEY", &mut back), Err(pem::PemError::WrongLabel));
    }

    #[test]
    fn pem_decoder_never_panics(text in "\\PC{0,300}", body in "[A-Za-z0-9+/=\\s!]{0,200}") {
        let mut out = [0u8; 256];
        let _ = pem::decode_first(&text, "PRIVATE KEY", &mut out);
        let _ = pem::decode_body(&body, &mut out);
        let framed = format!("-----BEGIN X-----\n{body}\n-----END X-----\n");
        if let Ok(der) = pem::decode_first(&framed, "X", &mut out) {
            // A body that decodes is canonical: it re-encodes to the same base64.
            let der = der.to_vec();
            let mut again = vec![0u8; pem::encoded_len("X", der.len())];
            let again = pem::encode("X", &der, &mut again).unwrap();
            let strip = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
            prop_assert_eq!(strip(again), strip(&framed));
        }
    }

    #[test]
    fn der_decoders_never_panic_and_round_trip(data in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut r = der::Reader::new(&data);
        while r.read_any().is_ok() {}
        if let Ok(info) = PrivateKeyInfo::from_der(&data) {
            let mut out = vec![0u8; info.encoded_len()];
            prop_assert_eq!(info.to_der(&mut out), Ok(data.len()));
            prop_assert_eq!(&out, &data);
        }
        if let Ok(spki) = SubjectPublicKeyInfo::from_der(&data) {
            let mut out = vec![0u8; spki.encoded_len()];
            prop_assert_eq!(spki.to_der(&mut out), Ok(data.len()));
            prop_assert_eq!(&out, &data);
        }
    }
}
