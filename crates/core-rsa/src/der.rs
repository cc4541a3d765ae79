//! A strict DER reader and a small writer, for the RSA key formats (RFC 8017 Appendix A.1,
//! RFC 5280 §4.1 `SubjectPublicKeyInfo`, RFC 5208 PKCS#8). The reader accepts only the one
//! encoding DER allows: definite minimal lengths, minimal non-negative INTEGERs, no trailing
//! bytes. Every problem is [`Error::InvalidDer`]; nothing panics.

use crate::Error;

pub(crate) const SEQUENCE: u8 = 0x30;
pub(crate) const INTEGER: u8 = 0x02;
pub(crate) const BIT_STRING: u8 = 0x03;
pub(crate) const OCTET_STRING: u8 = 0x04;
pub(crate) const NULL: u8 = 0x05;
pub(crate) const OID: u8 = 0x06;

/// The rsaEncryption OID 1.2.840.113549.1.1.1, content bytes.
pub(crate) const RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

/// A cursor over DER bytes.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    /// The contents of the next element, which must have tag `tag`.
    pub(crate) fn read(&mut self, tag: u8) -> Result<&'a [u8], Error> {
        let (&t, rest) = self.data.split_first().ok_or(Error::InvalidDer)?;
        if t != tag {
            return Err(Error::InvalidDer);
        }
        let (&first, mut rest) = rest.split_first().ok_or(Error::InvalidDer)?;
        let len = if first < 0x80 {
            first as usize
        } else {
            let count = (first & 0x7f) as usize;
            // 0x80 is BER's indefinite length; more than four length bytes is never needed.
            if count == 0 || count > 4 || rest.len() < count {
                return Err(Error::InvalidDer);
            }
            let (bytes, after) = rest.split_at(count);
            rest = after;
            if bytes[0] == 0 {
                return Err(Error::InvalidDer);
            }
            let len = bytes.iter().fold(0usize, |acc, &b| (acc << 8) | b as usize);
            if len < 0x80 {
                return Err(Error::InvalidDer);
            }
            len
        };
        if rest.len() < len {
            return Err(Error::InvalidDer);
        }
        let (content, after) = rest.split_at(len);
        self.data = after;
        Ok(content)
    }

    /// A nested reader over the next SEQUENCE's contents.
    pub(crate) fn sequence(&mut self) -> Result<Reader<'a>, Error> {
        self.read(SEQUENCE).map(Reader::new)
    }

    /// The magnitude of the next INTEGER, which must be non-negative and minimally encoded,
    /// without its leading zero byte (zero is the empty slice).
    pub(crate) fn uint(&mut self) -> Result<&'a [u8], Error> {
        let c = self.read(INTEGER)?;
        match c {
            [] => Err(Error::InvalidDer),
            [b, ..] if b & 0x80 != 0 => Err(Error::InvalidDer),
            [0] => Ok(&c[1..]),
            [0, b, ..] if b & 0x80 == 0 => Err(Error::InvalidDer),
            [0, rest @ ..] => Ok(rest),
            _ => Ok(c),
        }
    }

    /// The next INTEGER, which must be the small value `v` (a version field).
    pub(crate) fn expect_uint(&mut self, v: u8) -> Result<(), Error> {
        let m = self.uint()?;
        let ok = if v == 0 { m.is_empty() } else { m == [v] };
        if ok { Ok(()) } else { Err(Error::InvalidDer) }
    }

    /// An `AlgorithmIdentifier` that must be rsaEncryption with NULL parameters.
    pub(crate) fn rsa_algorithm(&mut self) -> Result<(), Error> {
        let mut alg = self.sequence()?;
        if alg.read(OID)? != RSA_ENCRYPTION || !alg.read(NULL)?.is_empty() {
            return Err(Error::InvalidDer);
        }
        alg.finish()
    }

    /// Fails unless every byte was consumed.
    pub(crate) fn finish(self) -> Result<(), Error> {
        if self.data.is_empty() { Ok(()) } else { Err(Error::InvalidDer) }
    }
}

/// The encoded length of a TLV with `len` content bytes.
pub(crate) const fn tlv_len(len: usize) -> usize {
    1 + header_len_bytes(len) + len
}

const fn header_len_bytes(len: usize) -> usize {
    if len < 0x80 {
        1
    } else if len < 0x100 {
        2
    } else if len < 0x1_0000 {
        3
    } else {
        4
    }
}

/// Content length of the INTEGER encoding of the magnitude `m` (no leading zeros).
pub(crate) fn uint_content_len(m: &[u8]) -> usize {
    match m.first() {
        None => 1,
        Some(&b) => m.len() + usize::from(b & 0x80 != 0),
    }
}

/// A writer into a caller's buffer; every write is checked against its length.
pub(crate) struct Writer<'a> {
    out: &'a mut [u8],
    pos: usize,
}

impl<'a> Writer<'a> {
    pub(crate) fn new(out: &'a mut [u8]) -> Self {
        Self { out, pos: 0 }
    }

    pub(crate) fn bytes(&mut self, b: &[u8]) -> Result<(), Error> {
        let end = self.pos.checked_add(b.len()).ok_or(Error::BufferTooSmall)?;
        self.out.get_mut(self.pos..end).ok_or(Error::BufferTooSmall)?.copy_from_slice(b);
        self.pos = end;
        Ok(())
    }

    /// A tag and length header.
    pub(crate) fn header(&mut self, tag: u8, len: usize) -> Result<(), Error> {
        let mut h = [tag, 0, 0, 0, 0];
        let n = header_len_bytes(len);
        if n == 1 {
            h[1] = len as u8;
        } else {
            h[1] = 0x80 | (n - 1) as u8;
            for i in 0..n - 1 {
                h[2 + i] = (len >> (8 * (n - 2 - i))) as u8;
            }
        }
        self.bytes(&h[..=n])
    }

    /// An INTEGER with magnitude `m` (no leading zeros).
    pub(crate) fn uint(&mut self, m: &[u8]) -> Result<(), Error> {
        self.header(INTEGER, uint_content_len(m))?;
        if m.first().is_none_or(|&b| b & 0x80 != 0) {
            self.bytes(&[0])?;
        }
        self.bytes(m)
    }

    /// The rsaEncryption `AlgorithmIdentifier`.
    pub(crate) fn rsa_algorithm(&mut self) -> Result<(), Error> {
        self.header(SEQUENCE, tlv_len(RSA_ENCRYPTION.len()) + 2)?;
        self.header(OID, RSA_ENCRYPTION.len())?;
        self.bytes(RSA_ENCRYPTION)?;
        self.bytes(&[NULL, 0])
    }

    /// Bytes written so far.
    pub(crate) fn len(&self) -> usize {
        self.pos
    }
}

/// The encoded length of the rsaEncryption `AlgorithmIdentifier`.
pub(crate) const RSA_ALGORITHM_LEN: usize = tlv_len(tlv_len(RSA_ENCRYPTION.len()) + 2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_must_be_minimal_and_definite() {
        assert_eq!(Reader::new(&[0x04, 0x01, 0xaa]).read(OCTET_STRING), Ok(&[0xaa][..]));
        assert!(Reader::new(&[0x04, 0x81, 0x01, 0xaa]).read(OCTET_STRING).is_err());
        assert!(Reader::new(&[0x04, 0x80, 0xaa, 0, 0]).read(OCTET_STRING).is_err());
        assert!(Reader::new(&[0x04, 0x82, 0x00, 0x81]).read(OCTET_STRING).is_err());
        assert!(Reader::new(&[0x04, 0x02, 0xaa]).read(OCTET_STRING).is_err(), "truncated");
        assert!(Reader::new(&[0x05, 0x00]).read(OCTET_STRING).is_err(), "wrong tag");
        assert!(Reader::new(&[]).read(NULL).is_err());
        let mut long = [7u8; 0x83];
        long[..3].copy_from_slice(&[0x04, 0x81, 0x80]);
        assert_eq!(Reader::new(&long).read(OCTET_STRING).map(<[u8]>::len), Ok(0x80));
    }

    #[test]
    fn integers_must_be_minimal_and_non_negative() {
        fn int(b: &[u8]) -> Result<&[u8], Error> {
            Reader::new(b).uint()
        }
        assert_eq!(int(&[0x02, 0x01, 0x00]), Ok(&[][..]));
        assert_eq!(int(&[0x02, 0x01, 0x7f]), Ok(&[0x7f][..]));
        assert_eq!(int(&[0x02, 0x02, 0x00, 0x80]), Ok(&[0x80][..]));
        assert!(int(&[0x02, 0x02, 0x00, 0x7f]).is_err(), "non-minimal");
        assert!(int(&[0x02, 0x01, 0x80]).is_err(), "negative");
        assert!(int(&[0x02, 0x00]).is_err(), "empty");
    }

    #[test]
    fn writer_round_trips() {
        let mut buf = [0u8; 300];
        let mut w = Writer::new(&mut buf);
        w.uint(&[0x80, 1]).unwrap();
        w.uint(&[]).unwrap();
        w.header(OCTET_STRING, 200).unwrap();
        w.bytes(&[9; 200]).unwrap();
        let n = w.len();
        assert_eq!(n, tlv_len(3) + tlv_len(1) + tlv_len(200));
        let mut r = Reader::new(&buf[..n]);
        assert_eq!(r.uint(), Ok(&[0x80, 1][..]));
        assert_eq!(r.uint(), Ok(&[][..]));
        assert_eq!(r.read(OCTET_STRING), Ok(&[9u8; 200][..]));
        r.finish().unwrap();
        let mut small = [0u8; 2];
        assert_eq!(Writer::new(&mut small).uint(&[1, 2]), Err(Error::BufferTooSmall));
    }
}
