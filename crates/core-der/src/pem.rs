//! PEM (RFC 7468) without an allocator: the blocks of a text by label, each decoded into a
//! caller's buffer, and DER encoded back as OpenSSL writes it (64-character lines, LF).
//!
//! Text around the blocks is ignored (RFC 7468 §5.2 lets parsers skip explanatory text), so a
//! file holding a key after `EC PARAMETERS` or a certificate chain reads as expected.
//! Base64 (RFC 4648 §4) is decoded and encoded with arithmetic on each character, no branch
//! or table index on it: private keys pass through here. Padding must be exact and unused
//! bits zero, so each byte string has one PEM body.

use core::fmt;

/// Why a PEM block did not decode or encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PemError {
    /// No PEM block at all, or a BEGIN line without its END line.
    NotFound,
    /// The text holds PEM blocks, but none with the label asked for (say an `RSA PRIVATE
    /// KEY` given where a PKCS#8 `PRIVATE KEY` belongs).
    WrongLabel,
    /// A character outside the base64 alphabet, padding in the wrong place or of the wrong
    /// length, or non-zero unused bits.
    BadBase64,
    /// The output buffer is too small: the result needs [`decoded_len`] of the block's body,
    /// or [`encoded_len`] of the DER. (No length here: a payload would make every key
    /// crate's error, which holds a `PemError`, four bytes longer, and every `Result` with
    /// it no longer fit a register on the Cortex-M0.)
    BufferTooSmall,
}

impl fmt::Display for PemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFound => f.write_str("no PEM block found"),
            Self::WrongLabel => f.write_str("no PEM block with the expected label"),
            Self::BadBase64 => f.write_str("malformed base64 in a PEM block"),
            Self::BufferTooSmall => f.write_str("output buffer too small"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PemError {}

const BEGIN: &str = "-----BEGIN ";
const END: &str = "-----END ";
const DASHES: &str = "-----";

/// One PEM block: its label and its base64 body (undecoded, whitespace included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block<'t> {
    /// The label of the BEGIN and END lines.
    pub label: &'t str,
    /// The base64 between them.
    pub body: &'t str,
}

/// Every `-----BEGIN {label}-----` … `-----END {label}-----` block of `text`, in order,
/// whatever its label. A block whose END line names another label is skipped.
pub fn all_blocks(text: &str) -> impl Iterator<Item = Block<'_>> {
    let mut rest = text;
    core::iter::from_fn(move || {
        loop {
            let start = rest.find(BEGIN)?;
            let after = &rest[start + BEGIN.len()..];
            let Some(label_end) = after.find(DASHES) else {
                rest = "";
                return None;
            };
            let label = &after[..label_end];
            let body_start = &after[label_end + DASHES.len()..];
            let Some(end) = body_start.find(END) else {
                rest = "";
                return None;
            };
            let body = &body_start[..end];
            let tail = &body_start[end + END.len()..];
            let closed = tail.strip_prefix(label).and_then(|t| t.strip_prefix(DASHES));
            match closed {
                Some(t) => {
                    rest = t;
                    return Some(Block { label, body });
                }
                None => rest = tail,
            }
        }
    })
}

/// The base64 bodies of every block labelled `label` in `text`, in order (undecoded; see
/// [`decode_body`]).
pub fn blocks<'t>(text: &'t str, label: &'t str) -> impl Iterator<Item = &'t str> + 't {
    all_blocks(text).filter(move |b| b.label == label).map(|b| b.body)
}

/// The first block labelled `label` in `text`, decoded into `out`. No such block is
/// [`PemError::WrongLabel`] when the text holds other blocks, else [`PemError::NotFound`].
pub fn decode_first<'o>(text: &str, label: &str, out: &'o mut [u8]) -> Result<&'o [u8], PemError> {
    match blocks(text, label).next() {
        Some(body) => decode_body(body, out),
        None if all_blocks(text).next().is_some() => Err(PemError::WrongLabel),
        None => Err(PemError::NotFound),
    }
}

/// Decodes the first block labelled `label` in `text` into an `N`-byte buffer on the stack,
/// hands the bytes to `f`, and wipes the buffer: for key loaders that take a `&str` and no
/// scratch. A block longer than `N` is [`PemError::BufferTooSmall`].
pub fn with_decoded<const N: usize, R>(
    text: &str,
    label: &str,
    f: impl FnOnce(&[u8]) -> R,
) -> Result<R, PemError> {
    let mut buf = [0u8; N];
    let r = decode_first(text, label, &mut buf).map(f);
    zeroize::Zeroize::zeroize(&mut buf);
    r
}

/// A key crate's error type as PEM key files need it: with these three constructors,
/// [`read_key`] and [`write_key`] are the whole PEM side of every key type's encodings.
pub trait KeyPemError: Sized {
    /// The block is longer than any DER this reader takes (its `N`): no key it can load.
    fn too_long() -> Self;
    /// The caller's output buffer is too small for the PEM text.
    fn buffer_too_small() -> Self;
    /// No block, the wrong label, or bad base64.
    fn pem(e: PemError) -> Self;
}

/// Decodes the first `label` block of `text` into an `N`-byte stack buffer (wiped after) and
/// reads its DER with `f`: a key loader's `from_*_pem`. A block longer than `N` is
/// [`KeyPemError::too_long`].
pub fn read_key<const N: usize, T, E: KeyPemError>(
    text: &str,
    label: &str,
    f: impl FnOnce(&[u8]) -> Result<T, E>,
) -> Result<T, E> {
    match with_decoded::<N, _>(text, label, f) {
        Ok(r) => r,
        Err(PemError::BufferTooSmall) => Err(E::too_long()),
        Err(e) => Err(E::pem(e)),
    }
}

/// Writes DER with `write` into an `N`-byte stack buffer (wiped after) and wraps it in a PEM
/// block labelled `label` in `out`: a key's `to_*_pem`. An `out` too small is
/// [`KeyPemError::buffer_too_small`].
pub fn write_key<'o, const N: usize, E: KeyPemError>(
    label: &str,
    out: &'o mut [u8],
    write: impl FnOnce(&mut [u8]) -> Result<usize, E>,
) -> Result<&'o str, E> {
    encode_with::<N, _>(label, out, write, |e| match e {
        PemError::BufferTooSmall => E::buffer_too_small(),
        e => E::pem(e),
    })
}

/// The value of base64 character `c` (`0..64`), or `-1` outside the alphabet, without a
/// branch or table on `c`: each range adds its offset under a mask made of the signs of
/// `lo − c` and `c − hi`.
fn sextet(c: u8) -> i32 {
    let c = i32::from(c);
    let within = |lo: i32, hi: i32, v: i32| (((lo - c) & (c - hi)) >> 8) & v;
    -1 + within(0x40, 0x5b, c - 64) // 'A'..='Z' → 0..26 (+1)
        + within(0x60, 0x7b, c - 70) // 'a'..='z' → 26..52
        + within(0x2f, 0x3a, c + 5) // '0'..='9' → 52..62
        + within(0x2a, 0x2c, 63) // '+' → 62
        + within(0x2e, 0x30, 64) // '/' → 63
}

/// The base64 character of `x` (`0..64`), without a branch or table on `x`.
fn b64_char(x: u32) -> u8 {
    let x = x.cast_signed();
    let mut c = x + i32::from(b'A');
    c += ((25 - x) >> 8) & 0x06; // 26.. → 'a'..
    c -= ((51 - x) >> 8) & 0x4b; // 52.. → '0'..
    c -= ((61 - x) >> 8) & 0x0f; // 62 → '+'
    c += ((62 - x) >> 8) & 0x03; // 63 → '/'
    c.cast_unsigned() as u8
}

/// Decodes one base64 body (whitespace ignored, exact `=` padding only at the end) into
/// `out`; returns the decoded bytes.
pub fn decode_body<'o>(body: &str, out: &'o mut [u8]) -> Result<&'o [u8], PemError> {
    let needed = decoded_len(body);
    let out = out.get_mut(..needed).ok_or(PemError::BufferTooSmall)?;
    let (mut acc, mut bits, mut n, mut digits, mut padding) = (0u32, 0u32, 0usize, 0usize, 0usize);
    // Collects every problem without returning early on a character.
    let mut bad = 0i32;
    for c in body.bytes().filter(|c| !c.is_ascii_whitespace()) {
        if c == b'=' {
            padding += 1;
            continue;
        }
        bad |= i32::from(padding > 0);
        let v = sextet(c);
        bad |= v >> 8; // -1 for a character outside the alphabet
        acc = (acc << 6) | (v.cast_unsigned() & 0x3f);
        bits += 6;
        digits += 1;
        if bits >= 8 {
            bits -= 8;
            if let Some(slot) = out.get_mut(n) {
                *slot = (acc >> bits) as u8;
            }
            n += 1;
        }
        acc &= (1 << bits) - 1;
    }
    let pad_ok = match digits % 4 {
        0 => padding == 0,
        2 => padding == 2,
        3 => padding == 1,
        _ => false,
    };
    if bad != 0 || !pad_ok || acc != 0 || n != needed {
        out.fill(0);
        return Err(PemError::BadBase64);
    }
    Ok(out)
}

/// The length `body` decodes to (whitespace and padding not counted), for sizing a buffer.
pub fn decoded_len(body: &str) -> usize {
    let digits = body.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=').count();
    digits * 6 / 8
}

/// Characters in the base64 of `der_len` bytes, with padding, without line breaks.
const fn base64_len(der_len: usize) -> usize {
    der_len.div_ceil(3) * 4
}

/// The exact length of [`encode`]'s output for a `der_len`-byte body labelled `label`:
/// BEGIN line, base64 in lines of 64 characters, END line, each ending in LF.
pub const fn encoded_len(label: &str, der_len: usize) -> usize {
    let b64 = base64_len(der_len);
    let lines = b64.div_ceil(64);
    BEGIN.len()
        + label.len()
        + DASHES.len()
        + 1
        + b64
        + lines
        + END.len()
        + label.len()
        + DASHES.len()
        + 1
}

/// Encodes `der` as one PEM block labelled `label` into `out`, as OpenSSL writes it (64
/// characters a line, LF line ends); returns the text written, [`encoded_len`] bytes.
pub fn encode<'o>(label: &str, der: &[u8], out: &'o mut [u8]) -> Result<&'o str, PemError> {
    let needed = encoded_len(label, der.len());
    let out = out.get_mut(..needed).ok_or(PemError::BufferTooSmall)?;
    let mut at = 0;
    let mut put = |b: &[u8]| {
        out[at..at + b.len()].copy_from_slice(b);
        at += b.len();
    };
    put(BEGIN.as_bytes());
    put(label.as_bytes());
    put(DASHES.as_bytes());
    put(b"\n");
    let mut column = 0;
    for chunk in der.chunks(3) {
        let mut group = [0u8; 3];
        group[..chunk.len()].copy_from_slice(chunk);
        let v = u32::from(group[0]) << 16 | u32::from(group[1]) << 8 | u32::from(group[2]);
        let mut quad = [b'='; 4];
        for (i, q) in quad.iter_mut().enumerate().take(chunk.len() + 1) {
            *q = b64_char((v >> (18 - 6 * i)) & 0x3f);
        }
        put(&quad);
        column += 4;
        if column == 64 {
            put(b"\n");
            column = 0;
        }
    }
    if column != 0 {
        put(b"\n");
    }
    put(END.as_bytes());
    put(label.as_bytes());
    put(DASHES.as_bytes());
    put(b"\n");
    debug_assert_eq!(at, needed);
    // Only ASCII was written.
    core::str::from_utf8(out).map_err(|_| PemError::BadBase64)
}

/// [`encode`] into a new `String`, wiped on drop (the body may be a private key).
#[cfg(feature = "alloc")]
pub fn encode_string(label: &str, der: &[u8]) -> zeroize::Zeroizing<alloc::string::String> {
    let mut buf = zeroize::Zeroizing::new(alloc::vec![0u8; encoded_len(label, der.len())]);
    let text = encode(label, der, &mut buf).map(alloc::string::String::from).unwrap_or_default();
    zeroize::Zeroizing::new(text)
}

/// Writes DER with `write` into an `N`-byte stack buffer (wiped after, as it may hold a
/// private key) and wraps it in a PEM block labelled `label` in `out`. The errors are the
/// caller's type `E`: `write`'s pass through, and `map` turns the encoder's (an `out` too
/// small is [`PemError::BufferTooSmall`]) into one.
pub fn encode_with<'o, const N: usize, E>(
    label: &str,
    out: &'o mut [u8],
    write: impl FnOnce(&mut [u8]) -> Result<usize, E>,
    map: impl FnOnce(PemError) -> E,
) -> Result<&'o str, E> {
    let mut der = [0u8; N];
    let r = write(&mut der).and_then(|n| {
        // `write` reports what it wrote, so `n <= N`; were it not, that is no panic.
        let encoded = match der.get(..n) {
            Some(der) => encode(label, der, out),
            None => Err(PemError::BufferTooSmall),
        };
        encoded.map_err(map)
    });
    zeroize::Zeroize::zeroize(&mut der);
    r
}

/// As [`encode_with`], into a new `String`, wiped on drop.
#[cfg(feature = "alloc")]
pub fn encode_string_with<const N: usize, E>(
    label: &str,
    write: impl FnOnce(&mut [u8]) -> Result<usize, E>,
) -> Result<zeroize::Zeroizing<alloc::string::String>, E> {
    let mut der = [0u8; N];
    let r = write(&mut der).map(|n| encode_string(label, der.get(..n).unwrap_or_default()));
    zeroize::Zeroize::zeroize(&mut der);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "junk\n-----BEGIN OTHER-----\nAAAA\n-----END OTHER-----\n\
        -----BEGIN THING-----\naGVs\nbG8=\n-----END THING-----\n\
        -----BEGIN THING-----\nd29ybGQ=\n-----END THING-----\n";

    #[test]
    fn blocks_decode_by_label() {
        let mut buf = [0u8; 16];
        let bodies: std::vec::Vec<_> = blocks(TEXT, "THING").collect();
        assert_eq!(bodies.len(), 2);
        assert_eq!(decode_body(bodies[0], &mut buf), Ok(&b"hello"[..]));
        assert_eq!(decode_body(bodies[1], &mut buf), Ok(&b"world"[..]));
        assert_eq!(decode_first(TEXT, "OTHER", &mut buf), Ok(&[0u8, 0, 0][..]));
        assert_eq!(decode_first(TEXT, "NONE", &mut buf), Err(PemError::WrongLabel));
        assert_eq!(decode_first("no pem here", "NONE", &mut buf), Err(PemError::NotFound));
        assert_eq!(decode_first(TEXT, "THING", &mut buf[..4]), Err(PemError::BufferTooSmall));
        assert_eq!(blocks(TEXT, "THING").next().map(decoded_len), Some(5));
        assert_eq!(blocks("-----BEGIN THING-----\nno end", "THING").count(), 0);
        // An END line for another label does not close the block.
        let mismatched = "-----BEGIN A-----\nAAAA\n-----END B-----\n";
        assert_eq!(all_blocks(mismatched).count(), 0);
    }

    #[test]
    fn base64_is_strict() {
        let mut buf = [0u8; 16];
        assert_eq!(decode_body("aG=Vs", &mut buf), Err(PemError::BadBase64));
        assert_eq!(decode_body("aG!s", &mut buf), Err(PemError::BadBase64));
        assert_eq!(decode_body("aGVt", &mut buf).map(<[u8]>::len), Ok(3));
        // Non-zero leftover bits and missing or extra padding are not canonical base64.
        assert_eq!(decode_body("aGF=", &mut buf), Err(PemError::BadBase64));
        assert_eq!(decode_body("aGVsbG8", &mut buf), Err(PemError::BadBase64));
        assert_eq!(decode_body("aGVsbG8==", &mut buf), Err(PemError::BadBase64));
        assert_eq!(decode_body("a===", &mut buf), Err(PemError::BadBase64));
        assert_eq!(decode_body("", &mut buf), Ok(&[][..]));
    }

    #[test]
    fn alphabet_matches_rfc4648() {
        let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (i, &c) in (0..).zip(alphabet) {
            assert_eq!(sextet(c), i, "{}", c as char);
            assert_eq!(b64_char(i.cast_unsigned()), c);
        }
        for c in 0..=255u8 {
            if !alphabet.contains(&c) {
                assert_eq!(sextet(c), -1, "{c}");
            }
        }
    }

    #[test]
    fn encode_round_trips_at_every_length() {
        let data: std::vec::Vec<u8> = (0..200u8).map(|i| i.wrapping_mul(37)).collect();
        for len in 0..data.len() {
            let mut out = [0u8; 400];
            let text = encode("X", &data[..len], &mut out).unwrap();
            assert_eq!(text.len(), encoded_len("X", len));
            assert!(text.lines().all(|l| l.len() <= 64));
            let mut back = [0u8; 200];
            assert_eq!(decode_first(text, "X", &mut back), Ok(&data[..len]));
        }
        let mut small = [0u8; 10];
        assert_eq!(encode("X", b"abc", &mut small), Err(PemError::BufferTooSmall));
        assert_eq!(encoded_len("X", 3), 39);
    }

    /// The stack-buffer helper writes what `encode` writes, and every error comes out in the
    /// caller's type: the writer's as they are, the encoder's through the map, a writer
    /// claiming more than the buffer as a too-small buffer rather than a panic.
    #[test]
    fn key_wrappers_map_errors() {
        #[derive(Debug, PartialEq)]
        enum E {
            TooLong,
            Small,
            Pem(PemError),
            Reader,
        }
        impl KeyPemError for E {
            fn too_long() -> Self {
                Self::TooLong
            }
            fn buffer_too_small() -> Self {
                Self::Small
            }
            fn pem(e: PemError) -> Self {
                Self::Pem(e)
            }
        }
        let len = |der: &[u8]| Ok::<_, E>(der.len());
        assert_eq!(read_key::<8, _, E>(TEXT, "THING", len), Ok(5));
        assert_eq!(read_key::<4, _, E>(TEXT, "THING", len), Err(E::TooLong));
        assert_eq!(read_key::<8, _, E>(TEXT, "NONE", len), Err(E::Pem(PemError::WrongLabel)));
        assert_eq!(read_key::<8, _, E>("", "THING", len), Err(E::Pem(PemError::NotFound)));
        assert_eq!(read_key::<8, usize, E>(TEXT, "THING", |_| Err(E::Reader)), Err(E::Reader));
        let write = |b: &mut [u8]| {
            b[..5].copy_from_slice(b"hello");
            Ok(5)
        };
        let mut out = [0u8; 64];
        let text = write_key::<8, E>("THING", &mut out, write).map(std::string::String::from);
        assert_eq!(text.as_deref().map(|t| read_key::<8, _, E>(t, "THING", len)), Ok(Ok(5)));
        assert_eq!(write_key::<8, E>("THING", &mut [0u8; 10], write), Err(E::Small));
        assert_eq!(write_key::<8, E>("THING", &mut out, |_| Err(E::Reader)), Err(E::Reader));
    }

    #[test]
    fn encode_with_maps_errors() {
        #[derive(Debug, PartialEq)]
        enum E {
            Writer,
            Pem(PemError),
        }
        let write = |b: &mut [u8]| {
            b[..3].copy_from_slice(b"abc");
            Ok(3)
        };
        let mut out = [0u8; 64];
        let mut want = [0u8; 64];
        let text = encode_with::<8, E>("X", &mut out, write, E::Pem).map(std::string::String::from);
        assert_eq!(text.as_deref().ok(), encode("X", b"abc", &mut want).ok());
        let mut small = [0u8; 10];
        assert_eq!(
            encode_with::<8, E>("X", &mut small, write, E::Pem),
            Err(E::Pem(PemError::BufferTooSmall))
        );
        assert_eq!(encode_with::<8, E>("X", &mut out, |_| Err(E::Writer), E::Pem), Err(E::Writer));
        assert_eq!(
            encode_with::<8, E>("X", &mut out, |_| Ok(9), E::Pem),
            Err(E::Pem(PemError::BufferTooSmall))
        );
        let string = encode_string_with::<8, E>("X", write).unwrap();
        assert_eq!(Some(string.as_str()), text.ok().as_deref());
    }
}
