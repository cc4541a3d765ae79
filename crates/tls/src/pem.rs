//! PEM (RFC 7468) decoding without an allocator: the blocks of a given label in a text, each
//! decoded into a caller's buffer, for certificate chains and PKCS#8 private keys.

/// Why a PEM block did not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PemError {
    /// No block with the label, or a BEGIN line without its END line.
    NotFound,
    /// A character outside the base64 alphabet, or padding in the wrong place.
    BadBase64,
    /// The output buffer is too small for the block, which decodes to `needed` bytes.
    BufferTooSmall {
        /// The decoded length.
        needed: usize,
    },
}

/// The base64 bodies of every `-----BEGIN {label}-----` … `-----END {label}-----` block in
/// `text`, in order (undecoded; see [`decode_body`]).
pub fn blocks<'t>(text: &'t str, label: &'t str) -> impl Iterator<Item = &'t str> + 't {
    let mut rest = text;
    core::iter::from_fn(move || {
        loop {
            let start = rest.find("-----BEGIN ")?;
            let after = &rest[start + 11..];
            let Some(label_end) = after.find("-----") else {
                rest = "";
                return None;
            };
            let found = &after[..label_end];
            let body_start = &after[label_end + 5..];
            let Some(end) = body_start.find("-----END ") else {
                rest = "";
                return None;
            };
            let body = &body_start[..end];
            rest = &body_start[end + 9..];
            if found == label {
                return Some(body);
            }
        }
    })
}

fn sextet(c: u8) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    }))
}

/// Decodes one base64 body (whitespace ignored, `=` padding only at the end) into `out`;
/// returns the decoded bytes.
pub fn decode_body<'o>(body: &str, out: &'o mut [u8]) -> Result<&'o [u8], PemError> {
    let (mut acc, mut bits, mut n, mut padding) = (0u32, 0u32, 0usize, 0usize);
    for c in body.bytes().filter(|c| !c.is_ascii_whitespace()) {
        if c == b'=' {
            padding += 1;
            continue;
        }
        if padding > 0 {
            return Err(PemError::BadBase64);
        }
        acc = (acc << 6) | sextet(c).ok_or(PemError::BadBase64)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            *out.get_mut(n).ok_or(PemError::BufferTooSmall { needed: decoded_len(body) })? =
                (acc >> bits) as u8;
            n += 1;
        }
        acc &= (1 << bits) - 1;
    }
    if padding > 2 || acc != 0 {
        return Err(PemError::BadBase64);
    }
    Ok(&out[..n])
}

/// The length `body` decodes to (whitespace and padding not counted), for sizing a buffer.
pub fn decoded_len(body: &str) -> usize {
    let digits = body.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=').count();
    digits * 6 / 8
}

/// The first block labelled `label` in `text`, decoded into `out`.
pub fn decode_first<'o>(text: &str, label: &str, out: &'o mut [u8]) -> Result<&'o [u8], PemError> {
    let body = blocks(text, label).next().ok_or(PemError::NotFound)?;
    decode_body(body, out)
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
        assert_eq!(decode_first(TEXT, "NONE", &mut buf), Err(PemError::NotFound));
        assert_eq!(
            decode_first(TEXT, "THING", &mut buf[..4]),
            Err(PemError::BufferTooSmall { needed: 5 })
        );
        assert_eq!(decode_body("aG=Vs", &mut buf), Err(PemError::BadBase64));
        assert_eq!(decode_body("aG!s", &mut buf), Err(PemError::BadBase64));
        // Non-zero leftover bits are not canonical base64.
        assert_eq!(decode_body("aGVt", &mut buf).map(<[u8]>::len), Ok(3));
        assert_eq!(decode_body("aGF=", &mut buf), Err(PemError::BadBase64));
        assert_eq!(blocks("-----BEGIN THING-----\nno end", "THING").count(), 0);
    }
}
