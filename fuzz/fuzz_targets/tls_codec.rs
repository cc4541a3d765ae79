//! The TLS handshake-message codec: whatever `HandshakeMessage::decode` accepts must encode,
//! and its encoding must be canonical — it decodes to the same message and encodes to the
//! same bytes again. The input itself comes back byte for byte unless it used a freedom the
//! codec normalises (unknown extensions, which it drops, extension order, the legacy version
//! fields), so the canonical form is never longer than the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tls::msgs::{Codec, HandshakeMessage, Writer};

fn encode(m: &HandshakeMessage<'_>) -> Vec<u8> {
    let mut buf = vec![0u8; 1 << 17];
    let mut w = Writer::new(&mut buf);
    m.encode(&mut w).expect("a decoded message encodes");
    let n = w.len();
    buf.truncate(n);
    buf
}

fuzz_target!(|data: &[u8]| {
    let Ok(m) = HandshakeMessage::decode(data) else { return };
    let bytes = encode(&m);
    let again = HandshakeMessage::decode(&bytes).expect("the encoding decodes");
    assert_eq!(again, m, "decode(encode(m)) != m");
    assert_eq!(encode(&again), bytes, "the encoding is not canonical");
    assert!(bytes.len() <= data.len(), "the canonical form is longer than the input");
});
