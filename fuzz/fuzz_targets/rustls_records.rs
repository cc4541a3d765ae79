//! Differential against rustls's ring provider: rustls-halite's record protection for every
//! TLS 1.3 suite and the TLS 1.2 AEADs (AES-GCM with its explicit nonce, ChaCha20-Poly1305),
//! keyed identically from the input. Each record of the input is opened by both, which must
//! give the same verdict (the same `rustls::Error`) and the same plaintext; its payload is also
//! sealed by both, which must give the same bytes, and each side must open the other's record
//! back to the plaintext (and agree again after one bit of it is flipped). ring has no AES-CCM,
//! so the two CCM suites are checked against Halite itself: round trip, flipped bit refused,
//! and no panic on any record.
//!
//! Input: suite selector, 32 bytes of key material, 12 bytes of IV (TLS 1.2 AES-GCM: a 4-byte
//! salt and the 8 bytes its explicit nonces start from), an 8-byte big-endian sequence number
//! (one more per record), then records of flags, content type, version, 2-byte length and
//! payload. Flags bit 0 zero-pads a short payload up to its length, so oversized records are
//! reached; the high bits pick the bit flipped in the sealed record.
#![no_main]

use halite_fuzz::Input;
use halite_fuzz::rustls_records::{Keys, Sides, sides};
use libfuzzer_sys::fuzz_target;
use rustls::crypto::cipher::{
    InboundOpaqueMessage, MessageDecrypter, MessageEncrypter, OutboundChunks, OutboundPlainMessage,
};
use rustls::{ContentType, Error, ProtocolVersion};

/// The largest `TLSPlaintext` fragment (RFC 8446 §5.1).
const MAX_FRAGMENT_LEN: usize = 16384;

/// One record from the input.
struct Record {
    typ: ContentType,
    version: ProtocolVersion,
    payload: Vec<u8>,
    flip: usize,
}

/// Takes one record off the front of `rest`.
fn record(rest: &mut &[u8]) -> Record {
    let mut input = Input::new(rest);
    let flags = input.byte();
    let typ = ContentType::from(input.byte());
    let version = ProtocolVersion::from(u16::from_be_bytes(input.array()));
    let len = usize::from(u16::from_be_bytes(input.array()));
    let mut payload = input.bytes(len).to_vec();
    if flags & 1 == 1 {
        payload.resize(len, 0);
    }
    *rest = input.rest();
    Record { typ, version, payload, flip: usize::from(flags >> 1) }
}

/// What a decrypter made of a record, owned, so two verdicts can be compared.
type Opened = Result<(ContentType, ProtocolVersion, Vec<u8>), Error>;

fn open(
    dec: &mut dyn MessageDecrypter,
    typ: ContentType,
    version: ProtocolVersion,
    bytes: &[u8],
    seq: u64,
) -> Opened {
    let mut buf = bytes.to_vec();
    dec.decrypt(InboundOpaqueMessage::new(typ, version, &mut buf), seq)
        .map(|m| (m.typ, m.version, m.payload.to_vec()))
}

/// A sealed record: type, version and payload as they go on the wire.
type Sealed = (ContentType, ProtocolVersion, Vec<u8>);

fn seal(enc: &mut dyn MessageEncrypter, r: &Record, seq: u64) -> Result<Sealed, Error> {
    let want = enc.encrypted_payload_len(r.payload.len());
    let msg = OutboundPlainMessage {
        typ: r.typ,
        version: r.version,
        payload: OutboundChunks::Single(&r.payload),
    };
    let sealed = enc.encrypt(msg, seq)?;
    let payload = sealed.payload.as_ref().to_vec();
    assert_eq!(payload.len(), want, "encrypted_payload_len");
    Ok((sealed.typ, sealed.version, payload))
}

/// What a correct decrypter gives for a record sealed from `r`: TLS 1.3 hides the type in the
/// record and reports TLS 1.3; a type of 0 is padding there and a protected change_cipher_spec
/// is refused (RFC 8446 §5), so only other types come back. A payload over the 2^14-byte limit
/// is refused on opening.
fn expected(r: &Record, tls13: bool) -> Option<(ContentType, ProtocolVersion, Vec<u8>)> {
    if r.payload.len() > MAX_FRAGMENT_LEN {
        return None;
    }
    if !tls13 {
        return Some((r.typ, r.version, r.payload.clone()));
    }
    let refused = u8::from(r.typ) == 0 || r.typ == ContentType::ChangeCipherSpec;
    (!refused).then(|| (r.typ, ProtocolVersion::TLSv1_3, r.payload.clone()))
}

fn flipped(sealed: &Sealed, flip: usize) -> Vec<u8> {
    let mut bytes = sealed.2.clone();
    if !bytes.is_empty() {
        let at = flip % (bytes.len() * 8);
        bytes[at / 8] ^= 1 << (at % 8);
    }
    bytes
}

/// Both sides on one record at `seq`.
fn differential(ours: &mut Keys, theirs: &mut Keys, r: &Record, seq: u64, tls13: bool) {
    // The record as it came.
    let a = open(ours.dec.as_mut(), r.typ, r.version, &r.payload, seq);
    let b = open(theirs.dec.as_mut(), r.typ, r.version, &r.payload, seq);
    assert_eq!(a, b, "opening the input record");

    // Sealed by each: the same bytes, and each opens the other's.
    let sealed = seal(ours.enc.as_mut(), r, seq);
    let reference = seal(theirs.enc.as_mut(), r, seq);
    assert_eq!(sealed, reference, "sealing");
    let Ok(sealed) = sealed else { return };
    let a = open(theirs.dec.as_mut(), sealed.0, sealed.1, &sealed.2, seq);
    let b = open(ours.dec.as_mut(), sealed.0, sealed.1, &sealed.2, seq);
    assert_eq!(a, b, "opening the sealed record");
    if let Some(want) = expected(r, tls13) {
        assert_eq!(a, Ok(want), "round trip");
    }

    let bytes = flipped(&sealed, r.flip);
    let a = open(ours.dec.as_mut(), sealed.0, sealed.1, &bytes, seq);
    let b = open(theirs.dec.as_mut(), sealed.0, sealed.1, &bytes, seq);
    assert_eq!(a, b, "opening the sealed record with a bit flipped");
}

/// Halite alone (AES-CCM): no panic, round trip, a flipped bit refused.
fn alone(ours: &mut Keys, r: &Record, seq: u64) {
    let _ = open(ours.dec.as_mut(), r.typ, r.version, &r.payload, seq);
    let sealed = seal(ours.enc.as_mut(), r, seq).expect("sealing a fuzzer-sized record");
    let back = open(ours.dec.as_mut(), sealed.0, sealed.1, &sealed.2, seq);
    if let Some(want) = expected(r, true) {
        assert_eq!(back, Ok(want), "round trip");
    }
    let bytes = flipped(&sealed, r.flip);
    let refused = open(ours.dec.as_mut(), sealed.0, sealed.1, &bytes, seq);
    assert_eq!(refused, Err(Error::DecryptError), "a flipped bit");
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let selector = input.byte();
    let material: [u8; 32] = input.array();
    let iv: [u8; 12] = input.array();
    let mut seq = u64::from_be_bytes(input.array());

    let Sides { halite: mut ours, ring: mut theirs, tls13 } = sides(selector, &material, &iv);
    let mut rest = input.rest();
    while !rest.is_empty() {
        let r = record(&mut rest);
        match theirs.as_mut() {
            Some(theirs) => differential(&mut ours, theirs, &r, seq, tls13),
            None => alone(&mut ours, &r, seq),
        }
        seq = seq.wrapping_add(1);
    }
});
