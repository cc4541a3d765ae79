//! A strict DER reader and a small writer (X.690 §10): what every key format here is made of.
//! The reader accepts only the one encoding DER allows (definite minimal lengths of at most
//! four bytes, minimal non-negative INTEGERs where it reads numbers) and the writer produces
//! only that, into a caller buffer checked on every write.

use crate::Error;

/// Tag of a SEQUENCE (constructed).
pub const SEQUENCE: u8 = 0x30;
/// Tag of an INTEGER.
pub const INTEGER: u8 = 0x02;
/// Tag of a BIT STRING.
pub const BIT_STRING: u8 = 0x03;
/// Tag of an OCTET STRING.
pub const OCTET_STRING: u8 = 0x04;
/// Tag of NULL.
pub const NULL: u8 = 0x05;
/// Tag of an OBJECT IDENTIFIER.
pub const OID: u8 = 0x06;

/// The tag of the constructed context-specific field `[n]` (`n` below 31).
pub const fn context(n: u8) -> u8 {
    0xa0 | n
}

/// A cursor over DER input; each read consumes one element.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader over `data`.
    pub const fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    /// The tag of the next element, if there is one.
    pub fn peek(&self) -> Option<u8> {
        self.data.first().copied()
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        self.data
    }

    /// Whether every byte was read.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The tag and contents of the next element, whatever its tag.
    pub fn read_any(&mut self) -> Result<(u8, &'a [u8]), Error> {
        let (&tag, rest) = self.data.split_first().ok_or(Error::Truncated)?;
        let (&first, mut rest) = rest.split_first().ok_or(Error::Truncated)?;
        let len = if first < 0x80 {
            usize::from(first)
        } else {
            let count = usize::from(first & 0x7f);
            // 0x80 is BER's indefinite length; no key needs more than four length bytes.
            if count == 0 || count > 4 {
                return Err(Error::NonCanonical);
            }
            let (bytes, after) = rest.split_at_checked(count).ok_or(Error::Truncated)?;
            rest = after;
            if bytes[0] == 0 {
                return Err(Error::NonCanonical);
            }
            let len = bytes.iter().fold(0u32, |acc, &b| (acc << 8) | u32::from(b));
            if len < 0x80 {
                return Err(Error::NonCanonical);
            }
            usize::try_from(len).map_err(|_| Error::Truncated)?
        };
        let (contents, after) = rest.split_at_checked(len).ok_or(Error::Truncated)?;
        self.data = after;
        Ok((tag, contents))
    }

    /// The contents of the next element, which must have tag `tag`.
    pub fn read(&mut self, tag: u8) -> Result<&'a [u8], Error> {
        match self.peek() {
            // An empty reader is `read_any`'s `Truncated`.
            Some(found) if found != tag => Err(Error::UnexpectedTag { expected: tag, found }),
            _ => self.read_any().map(|(_, contents)| contents),
        }
    }

    /// The contents of the next element if it has tag `tag`, else `None` (nothing read).
    pub fn read_optional(&mut self, tag: u8) -> Result<Option<&'a [u8]>, Error> {
        if self.peek() == Some(tag) { self.read(tag).map(Some) } else { Ok(None) }
    }

    /// The whole next element (tag, length and contents), as encoded.
    pub fn read_element(&mut self) -> Result<&'a [u8], Error> {
        let start = self.data;
        self.read_any()?;
        Ok(&start[..start.len() - self.data.len()])
    }

    /// A reader over the contents of the next element, which must be a SEQUENCE.
    pub fn sequence(&mut self) -> Result<Reader<'a>, Error> {
        self.read(SEQUENCE).map(Reader::new)
    }

    /// The magnitude of the next INTEGER, which must be non-negative and minimally encoded,
    /// without its leading zero byte (zero is the empty slice).
    pub fn uint(&mut self) -> Result<&'a [u8], Error> {
        let c = self.read(INTEGER)?;
        let (&first, rest) = c.split_first().ok_or(Error::NonCanonical)?;
        // A zero byte leads exactly when the magnitude's top bit is set (or it is zero):
        // otherwise the INTEGER is negative or not minimal.
        let lead_zero = first == 0;
        let m = if lead_zero { rest } else { c };
        let top_set = m.first().is_none_or(|&b| b & 0x80 != 0);
        if top_set == lead_zero { Ok(m) } else { Err(Error::NonCanonical) }
    }

    /// The next INTEGER, which must be the small value `v` (a version field).
    pub fn expect_uint(&mut self, v: u8) -> Result<(), Error> {
        let m = self.uint()?;
        let ok = if v == 0 { m.is_empty() } else { m == [v] };
        if ok { Ok(()) } else { Err(Error::NonCanonical) }
    }

    /// The contents of the next BIT STRING, which must have no unused bits (as every key
    /// encoding here has).
    pub fn bit_string(&mut self) -> Result<&'a [u8], Error> {
        match self.read(BIT_STRING)?.split_first() {
            Some((0, bits)) => Ok(bits),
            _ => Err(Error::NonCanonical),
        }
    }

    /// Fails unless every byte was read.
    pub fn finish(&self) -> Result<(), Error> {
        if self.data.is_empty() { Ok(()) } else { Err(Error::TrailingData) }
    }
}

/// The contents of `der`, which must be exactly one element with tag `tag`.
pub fn only(der: &[u8], tag: u8) -> Result<&[u8], Error> {
    let mut r = Reader::new(der);
    let contents = r.read(tag)?;
    r.finish()?;
    Ok(contents)
}

/// Bytes in the tag and length of an element with `len` content bytes.
pub const fn header_len(len: usize) -> usize {
    if len < 0x80 {
        2
    } else if len < 0x100 {
        3
    } else if len < 0x1_0000 {
        4
    } else {
        5
    }
}

/// Bytes in a whole element with `len` content bytes.
pub const fn tlv_len(len: usize) -> usize {
    header_len(len) + len
}

/// Content bytes of the INTEGER whose magnitude is `m` (big-endian, no leading zeros).
pub const fn uint_content_len(m: &[u8]) -> usize {
    match m.first() {
        None => 1,
        Some(&b) => m.len() + (b >> 7) as usize,
    }
}

/// A writer into a caller's buffer; every write is checked against its length.
#[derive(Debug)]
pub struct Writer<'a> {
    out: &'a mut [u8],
    pos: usize,
}

impl<'a> Writer<'a> {
    /// A writer at the start of `out`.
    pub fn new(out: &'a mut [u8]) -> Self {
        Self { out, pos: 0 }
    }

    /// Raw bytes.
    pub fn bytes(&mut self, b: &[u8]) -> Result<(), Error> {
        let end = self.pos.checked_add(b.len()).ok_or(Error::BufferTooSmall)?;
        self.out.get_mut(self.pos..end).ok_or(Error::BufferTooSmall)?.copy_from_slice(b);
        self.pos = end;
        Ok(())
    }

    /// A tag and the length header for `len` content bytes.
    pub fn header(&mut self, tag: u8, len: usize) -> Result<(), Error> {
        let n = header_len(len);
        let mut h = [tag, 0, 0, 0, 0];
        if n == 2 {
            h[1] = len as u8;
        } else {
            h[1] = 0x80 | (n - 2) as u8;
            for i in 0..n - 2 {
                h[2 + i] = (len >> (8 * (n - 3 - i))) as u8;
            }
        }
        self.bytes(&h[..n])
    }

    /// A whole element: `tag`, the length of `contents`, and `contents`.
    pub fn tlv(&mut self, tag: u8, contents: &[u8]) -> Result<(), Error> {
        self.header(tag, contents.len())?;
        self.bytes(contents)
    }

    /// An INTEGER with magnitude `m` (big-endian, no leading zeros; empty for zero).
    pub fn uint(&mut self, m: &[u8]) -> Result<(), Error> {
        self.header(INTEGER, uint_content_len(m))?;
        if m.first().is_none_or(|&b| b & 0x80 != 0) {
            self.bytes(&[0])?;
        }
        self.bytes(m)
    }

    /// A BIT STRING of whole bytes.
    pub fn bit_string(&mut self, bits: &[u8]) -> Result<(), Error> {
        self.header(BIT_STRING, 1 + bits.len())?;
        self.bytes(&[0])?;
        self.bytes(bits)
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.pos
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.pos == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_must_be_minimal_and_definite() {
        assert_eq!(Reader::new(&[0x04, 0x01, 0xaa]).read(OCTET_STRING), Ok(&[0xaa][..]));
        let err = |b: &[u8]| Reader::new(b).read(OCTET_STRING).unwrap_err();
        assert_eq!(err(&[0x04, 0x81, 0x01, 0xaa]), Error::NonCanonical);
        assert_eq!(err(&[0x04, 0x80, 0xaa, 0, 0]), Error::NonCanonical);
        assert_eq!(err(&[0x04, 0x82, 0x00, 0x81]), Error::NonCanonical);
        assert_eq!(err(&[0x04, 0x85, 1, 0, 0, 0, 0]), Error::NonCanonical);
        assert_eq!(err(&[0x04, 0x02, 0xaa]), Error::Truncated);
        assert_eq!(err(&[0x04, 0x82, 0x01]), Error::Truncated);
        assert_eq!(err(&[0x04]), Error::Truncated);
        assert_eq!(err(&[]), Error::Truncated);
        assert_eq!(err(&[0x05, 0x00]), Error::UnexpectedTag { expected: 0x04, found: 0x05 });
        let mut long = [7u8; 0x83];
        long[..3].copy_from_slice(&[0x04, 0x81, 0x80]);
        assert_eq!(Reader::new(&long).read(OCTET_STRING).map(<[u8]>::len), Ok(0x80));
        assert_eq!(only(&[0x05, 0x00, 0x00], NULL), Err(Error::TrailingData));
    }

    #[test]
    fn integers_must_be_minimal_and_non_negative() {
        let int = |b: &'static [u8]| Reader::new(b).uint();
        assert_eq!(int(&[0x02, 0x01, 0x00]), Ok(&[][..]));
        assert_eq!(int(&[0x02, 0x01, 0x7f]), Ok(&[0x7f][..]));
        assert_eq!(int(&[0x02, 0x02, 0x00, 0x80]), Ok(&[0x80][..]));
        assert_eq!(int(&[0x02, 0x02, 0x00, 0x7f]), Err(Error::NonCanonical));
        assert_eq!(int(&[0x02, 0x01, 0x80]), Err(Error::NonCanonical));
        assert_eq!(int(&[0x02, 0x00]), Err(Error::NonCanonical));
        assert_eq!(Reader::new(&[0x02, 0x01, 0x01]).expect_uint(1), Ok(()));
        assert_eq!(Reader::new(&[0x02, 0x01, 0x02]).expect_uint(1), Err(Error::NonCanonical));
    }

    #[test]
    fn writer_round_trips() {
        let mut buf = std::vec![0u8; 70_000];
        let mut w = Writer::new(&mut buf);
        w.uint(&[0x80, 1]).unwrap();
        w.uint(&[]).unwrap();
        w.header(OCTET_STRING, 200).unwrap();
        w.bytes(&[9; 200]).unwrap();
        w.bit_string(&[1, 2]).unwrap();
        w.tlv(OCTET_STRING, &std::vec![5; 0x1_0001]).unwrap();
        let n = w.len();
        assert_eq!(n, tlv_len(3) + tlv_len(1) + tlv_len(200) + tlv_len(3) + tlv_len(0x1_0001));
        let mut r = Reader::new(&buf[..n]);
        assert_eq!(r.uint(), Ok(&[0x80, 1][..]));
        assert_eq!(r.uint(), Ok(&[][..]));
        assert_eq!(r.read(OCTET_STRING), Ok(&[9u8; 200][..]));
        assert_eq!(r.bit_string(), Ok(&[1u8, 2][..]));
        assert_eq!(r.read(OCTET_STRING).map(<[u8]>::len), Ok(0x1_0001));
        r.finish().unwrap();
        let mut small = [0u8; 2];
        assert_eq!(Writer::new(&mut small).uint(&[1, 2]), Err(Error::BufferTooSmall));
    }

    #[test]
    fn optional_and_raw_elements() {
        let der = [0xa0, 0x01, 0x05, 0x05, 0x00];
        let mut r = Reader::new(&der);
        assert_eq!(r.read_optional(context(1)), Ok(None));
        assert_eq!(r.read_optional(context(0)), Ok(Some(&[0x05][..])));
        assert_eq!(r.read_element(), Ok(&[0x05, 0x00][..]));
        assert!(r.is_empty());
    }
}
