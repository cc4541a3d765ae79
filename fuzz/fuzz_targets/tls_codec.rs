//! The TLS handshake-message codecs of both versions: whatever `HandshakeMessage::decode`
//! (TLS 1.3) or `HandshakeMessage12::decode` (TLS 1.2) accepts must encode, and its encoding
//! must be canonical — it decodes to the same message and encodes to the same bytes again.
//! The input itself comes back byte for byte unless it used a freedom the codec normalises
//! (unknown extensions, which it drops, extension order, the legacy version fields), so the
//! canonical form is never longer than the input. The TLS 1.2 message bodies and extension
//! bodies (`tls::msgs::tls12`) have no such freedom: each that decodes the input encodes it
//! back exactly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tls::msgs::tls12::{
    Certificate12, CertificateRequest12, ClientKeyExchange, EcPointFormats, ExtendedMasterSecret,
    NewSessionTicket12, RenegotiationInfo, ServerHelloDone, ServerKeyExchange, SessionTicketExt,
};
use tls::msgs::{Codec, HandshakeMessage, HandshakeMessage12, Writer};

fn encode<'a>(m: &impl Codec<'a>) -> Vec<u8> {
    let mut buf = vec![0u8; 1 << 17];
    let mut w = Writer::new(&mut buf);
    m.encode(&mut w).expect("a decoded message encodes");
    let n = w.len();
    buf.truncate(n);
    buf
}

/// The canonical-form check for a whole handshake message type of either version (a macro:
/// the re-decoded message borrows from a local encoding, so its lifetime differs).
macro_rules! canonical {
    ($t:ident, $data:expr) => {{
        let data: &[u8] = $data;
        if let Ok(m) = $t::decode(data) {
            let bytes = encode(&m);
            let again = $t::decode(&bytes).expect("the encoding decodes");
            assert_eq!(again, m, "decode(encode(m)) != m");
            assert_eq!(encode(&again), bytes, "the encoding is not canonical");
            assert!(bytes.len() <= data.len(), "the canonical form is longer than the input");
        }
    }};
}

/// The exact round trip for a TLS 1.2 body `T`: decode, encode, the same bytes.
fn exact<'a, T: Codec<'a> + PartialEq + core::fmt::Debug>(data: &'a [u8]) {
    let Ok(m) = T::decode(data) else { return };
    assert_eq!(encode(&m), data, "{m:?} does not encode back to its input");
}

fuzz_target!(|data: &[u8]| {
    canonical!(HandshakeMessage, data);
    canonical!(HandshakeMessage12, data);
    exact::<ServerKeyExchange<'_>>(data);
    exact::<ClientKeyExchange<'_>>(data);
    exact::<CertificateRequest12<'_>>(data);
    exact::<ServerHelloDone>(data);
    exact::<Certificate12<'_>>(data);
    exact::<NewSessionTicket12<'_>>(data);
    exact::<ExtendedMasterSecret>(data);
    exact::<RenegotiationInfo<'_>>(data);
    exact::<EcPointFormats<'_>>(data);
    exact::<SessionTicketExt<'_>>(data);
});
