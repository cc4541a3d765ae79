//! The wire codec every TLS message is built on: a [`Reader`] cursor over a borrowed slice
//! that decodes without allocating, a [`Writer`] that encodes into a caller's buffer, and
//! length-prefixed vectors typed by the width of their length ([`U8`], [`U16`], [`U24`]).
//!
//! Decoding is strict: a length that runs past its enclosing vector, or bytes left over where
//! a structure should end, is an [`InvalidMessage`], never a silent truncation.

use core::fmt;
use core::marker::PhantomData;

/// Why received bytes were not a valid message. Each variant is the peer's fault and maps to
/// the `decode_error` or `illegal_parameter` alert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidMessage {
    /// The input ended inside a field or a length-prefixed vector.
    Truncated,
    /// Bytes remained after a structure that should have ended.
    TrailingData,
    /// A vector's length is not a whole number of its items, or is outside its allowed range.
    BadLength,
    /// A field holds a value the protocol forbids here (e.g. a compression method other
    /// than null, an empty list that must not be empty).
    IllegalValue,
    /// The same extension appears twice in one message.
    DuplicateExtension,
    /// An extension appears in a message that must not carry it.
    UnexpectedExtension,
    /// A required extension is missing.
    MissingExtension,
}

impl fmt::Display for InvalidMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Truncated => "message truncated",
            Self::TrailingData => "trailing bytes after message",
            Self::BadLength => "vector length is invalid",
            Self::IllegalValue => "illegal field value",
            Self::DuplicateExtension => "duplicate extension",
            Self::UnexpectedExtension => "extension not allowed in this message",
            Self::MissingExtension => "required extension missing",
        })
    }
}

/// The caller's buffer is too small for what was to be encoded, or a vector is longer than
/// its length prefix can say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeError;

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("buffer too small or vector too long to encode")
    }
}

/// A cursor over received bytes. Every read either consumes exactly what it returns or fails
/// without consuming.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Self { buf, pos: 0 }
    }

    /// The bytes not yet read.
    pub fn rest(&self) -> &'a [u8] {
        &self.buf[self.pos..]
    }

    /// How many bytes are left.
    pub fn left(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.left() == 0
    }

    /// Succeeds only if every byte has been read: how a structure rejects trailing data.
    pub fn expect_empty(&self) -> Result<(), InvalidMessage> {
        if self.is_empty() { Ok(()) } else { Err(InvalidMessage::TrailingData) }
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], InvalidMessage> {
        if n > self.left() {
            return Err(InvalidMessage::Truncated);
        }
        let out = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// The next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], InvalidMessage> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// A big-endian integer of `width` bytes (1 to 4).
    fn uint(&mut self, width: usize) -> Result<u32, InvalidMessage> {
        Ok(self.take(width)?.iter().fold(0u32, |acc, &b| (acc << 8) | u32::from(b)))
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8, InvalidMessage> {
        Ok(self.take(1)?[0])
    }

    /// A big-endian `u16`.
    pub fn u16(&mut self) -> Result<u16, InvalidMessage> {
        Ok(self.uint(2)? as u16)
    }

    /// A big-endian 24-bit integer.
    pub fn u24(&mut self) -> Result<u32, InvalidMessage> {
        self.uint(3)
    }

    /// A big-endian `u32`.
    pub fn u32(&mut self) -> Result<u32, InvalidMessage> {
        self.uint(4)
    }

    /// A vector prefixed by a length of width `W`: a sub-reader over exactly its body.
    pub fn sub<W: LenWidth>(&mut self) -> Result<Reader<'a>, InvalidMessage> {
        let save = self.pos;
        let len = self.uint(W::BYTES)? as usize;
        match self.take(len) {
            Ok(body) => Ok(Reader::new(body)),
            Err(e) => {
                self.pos = save;
                Err(e)
            }
        }
    }
}

/// An encoder writing into a caller-provided buffer; running out of room is an
/// [`EncodeError`], never a panic or a partial silent write.
#[derive(Debug)]
pub struct Writer<'b> {
    buf: &'b mut [u8],
    len: usize,
    /// Only count what would be written (see [`Writer::measuring`]).
    measure: bool,
}

impl<'b> Writer<'b> {
    /// A writer at the start of `buf`.
    pub fn new(buf: &'b mut [u8]) -> Self {
        Self { buf, len: 0, measure: false }
    }

    /// A writer that stores nothing and only counts: its [`len`](Self::len) after an encode
    /// is the encoded length, so a caller can say how large a buffer must be.
    pub fn measuring() -> Writer<'static> {
        Writer { buf: &mut [], len: 0, measure: true }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// What has been written so far.
    pub fn written(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }

    /// Appends `bytes`.
    pub fn put(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        let end = self.len.checked_add(bytes.len()).ok_or(EncodeError)?;
        if self.measure {
            self.len = end;
            return Ok(());
        }
        self.buf.get_mut(self.len..end).ok_or(EncodeError)?.copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }

    /// Appends one byte.
    pub fn u8(&mut self, v: u8) -> Result<(), EncodeError> {
        self.put(&[v])
    }

    /// Appends a big-endian `u16`.
    pub fn u16(&mut self, v: u16) -> Result<(), EncodeError> {
        self.put(&v.to_be_bytes())
    }

    /// Appends a big-endian 24-bit integer; values of 2^24 or more are refused.
    pub fn u24(&mut self, v: u32) -> Result<(), EncodeError> {
        if v >= 1 << 24 {
            return Err(EncodeError);
        }
        self.put(&v.to_be_bytes()[1..])
    }

    /// Appends a big-endian `u32`.
    pub fn u32(&mut self, v: u32) -> Result<(), EncodeError> {
        self.put(&v.to_be_bytes())
    }

    /// Writes a vector prefixed by a length of width `W`: `body` writes the contents, and the
    /// length is filled in afterwards (refused if it does not fit `W`).
    pub fn prefixed<W: LenWidth>(
        &mut self,
        body: impl FnOnce(&mut Self) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        let at = self.open_prefix(W::BYTES)?;
        body(self)?;
        self.close_prefix(at, W::BYTES, W::MAX)
    }

    /// Reserves a length prefix of `width` bytes; returns where it starts. Out of line, as
    /// [`close_prefix`](Self::close_prefix): `prefixed` is instantiated for every vector of
    /// every message, and only its body differs (on a Cortex-M0 the copies were ~2 KB).
    #[inline(never)]
    fn open_prefix(&mut self, width: usize) -> Result<usize, EncodeError> {
        let at = self.len;
        self.put(&[0u8; 4][..width])?;
        Ok(at)
    }

    /// Fills in the prefix of `width` bytes at `at` with the length written since, refused
    /// over `max`.
    #[inline(never)]
    fn close_prefix(&mut self, at: usize, width: usize, max: usize) -> Result<(), EncodeError> {
        let n = self.len - at - width;
        if n > max {
            return Err(EncodeError);
        }
        if self.measure {
            return Ok(());
        }
        let be = (n as u32).to_be_bytes();
        self.buf[at..at + width].copy_from_slice(&be[4 - width..]);
        Ok(())
    }

    /// Writes `bytes` as a vector with a length prefix of width `W`.
    pub fn bytes<W: LenWidth>(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.prefixed::<W>(|w| w.put(bytes))
    }
}

/// The width of a vector's length prefix, as a type so each vector says which it has.
pub trait LenWidth: Copy + fmt::Debug + 'static {
    /// Bytes in the prefix.
    const BYTES: usize;
    /// The largest length the prefix can carry.
    const MAX: usize;
}

/// A one-byte length prefix (`<0..2^8-1>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct U8;
/// A two-byte length prefix (`<0..2^16-1>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct U16;
/// A three-byte length prefix (`<0..2^24-1>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct U24;

impl LenWidth for U8 {
    const BYTES: usize = 1;
    const MAX: usize = 0xff;
}
impl LenWidth for U16 {
    const BYTES: usize = 2;
    const MAX: usize = 0xffff;
}
impl LenWidth for U24 {
    const BYTES: usize = 3;
    const MAX: usize = 0xff_ffff;
}

/// Something with a wire encoding. Decoding may borrow from the input (`'a`).
pub trait Codec<'a>: Sized {
    /// Appends the encoding to `w`.
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError>;
    /// Reads one value from `r`.
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage>;

    /// Decodes `bytes` as exactly one value: trailing bytes are an error.
    fn decode(bytes: &'a [u8]) -> Result<Self, InvalidMessage> {
        let mut r = Reader::new(bytes);
        let v = Self::read(&mut r)?;
        r.expect_empty()?;
        Ok(v)
    }
}

/// Opaque bytes with a length prefix of width `W` (`opaque x<0..2^N-1>`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Payload<'a, W: LenWidth>(pub &'a [u8], pub PhantomData<W>);

impl<'a, W: LenWidth> Payload<'a, W> {
    /// Wraps `bytes`.
    pub const fn new(bytes: &'a [u8]) -> Self {
        Self(bytes, PhantomData)
    }
}

impl<W: LenWidth> fmt::Debug for Payload<'_, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Payload(")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl<'a, W: LenWidth> Codec<'a> for Payload<'a, W> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<W>(self.0)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        Ok(Self::new(r.sub::<W>()?.rest()))
    }
}

/// A vector of `T` with a length prefix of width `W`, without an allocator: either items the
/// caller holds (to encode) or the validated wire bytes (after decoding), iterated the same way.
#[derive(Clone, Copy)]
pub enum List<'a, T, W: LenWidth> {
    /// Items held by the caller.
    Items(&'a [T]),
    /// The body of a received vector, already checked to decode as whole items.
    Wire(&'a [u8], PhantomData<W>),
}

impl<'a, T: Codec<'a> + Copy, W: LenWidth> List<'a, T, W> {
    /// A list of the caller's items.
    pub const fn items(items: &'a [T]) -> Self {
        Self::Items(items)
    }

    /// The items, in order.
    pub fn iter(&self) -> ListIter<'a, T> {
        match *self {
            Self::Items(items) => ListIter::Items(items.iter()),
            Self::Wire(bytes, _) => ListIter::Wire(Reader::new(bytes)),
        }
    }

    /// Whether the list has no items.
    pub fn is_empty(&self) -> bool {
        match self {
            Self::Items(items) => items.is_empty(),
            Self::Wire(bytes, _) => bytes.is_empty(),
        }
    }

    /// Whether `item` is in the list.
    pub fn contains(&self, item: &T) -> bool
    where
        T: PartialEq,
    {
        self.iter().any(|x| x == *item)
    }
}

impl<'a, T: Codec<'a> + Copy, W: LenWidth> IntoIterator for &List<'a, T, W> {
    type Item = T;
    type IntoIter = ListIter<'a, T>;
    fn into_iter(self) -> ListIter<'a, T> {
        self.iter()
    }
}

/// Iterates a [`List`].
#[derive(Clone, Debug)]
pub enum ListIter<'a, T> {
    /// Over the caller's items.
    Items(core::slice::Iter<'a, T>),
    /// Over validated wire bytes.
    Wire(Reader<'a>),
}

impl<'a, T: Codec<'a> + Copy> Iterator for ListIter<'a, T> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        match self {
            Self::Items(it) => it.next().copied(),
            // The bytes were checked to decode as whole items when the list was read.
            Self::Wire(r) => {
                if r.is_empty() {
                    None
                } else {
                    T::read(r).ok()
                }
            }
        }
    }
}

impl<'a, T: Codec<'a> + Copy + fmt::Debug, W: LenWidth> fmt::Debug for List<'a, T, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: Codec<'a> + Copy + PartialEq, W: LenWidth> PartialEq for List<'a, T, W> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl<'a, T: Codec<'a> + Copy + Eq, W: LenWidth> Eq for List<'a, T, W> {}

impl<'a, T: Codec<'a> + Copy, W: LenWidth> Codec<'a> for List<'a, T, W> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.prefixed::<W>(|w| self.iter().try_for_each(|item| item.encode(w)))
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let mut body = r.sub::<W>()?;
        let bytes = body.rest();
        while !body.is_empty() {
            T::read(&mut body).map_err(|e| match e {
                InvalidMessage::Truncated => InvalidMessage::BadLength,
                e => e,
            })?;
        }
        Ok(Self::Wire(bytes, PhantomData))
    }
}

impl Codec<'_> for u8 {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.u8(*self)
    }
    fn read(r: &mut Reader<'_>) -> Result<Self, InvalidMessage> {
        r.u8()
    }
}

impl Codec<'_> for u16 {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.u16(*self)
    }
    fn read(r: &mut Reader<'_>) -> Result<Self, InvalidMessage> {
        r.u16()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_rejects_short_and_trailing_input() {
        let mut r = Reader::new(&[1, 2, 3]);
        assert_eq!(r.u16(), Ok(0x0102));
        assert_eq!(r.u16(), Err(InvalidMessage::Truncated));
        assert_eq!(r.expect_empty(), Err(InvalidMessage::TrailingData));
        assert_eq!(r.u8(), Ok(3));
        assert_eq!(r.expect_empty(), Ok(()));
    }

    #[test]
    fn sub_reader_is_bounded_and_restores_on_failure() {
        let mut r = Reader::new(&[0, 3, 9, 9]);
        assert_eq!(r.sub::<U16>().map(|s| s.left()), Err(InvalidMessage::Truncated));
        assert_eq!(r.left(), 4, "a failed read consumes nothing");
        let mut r = Reader::new(&[2, 7, 8, 5]);
        let s = r.sub::<U8>().unwrap();
        assert_eq!(s.rest(), &[7, 8]);
        assert_eq!(r.rest(), &[5]);
    }

    #[test]
    fn writer_fills_lengths_and_refuses_overflow() {
        let mut buf = [0u8; 8];
        let mut w = Writer::new(&mut buf);
        w.prefixed::<U24>(|w| w.u16(0xabcd)).unwrap();
        assert_eq!(w.written(), &[0, 0, 2, 0xab, 0xcd]);
        assert_eq!(w.put(&[0; 4]), Err(EncodeError));
        assert_eq!(w.len(), 5, "a refused write writes nothing");
        let mut big = [0u8; 300];
        let mut w = Writer::new(&mut big);
        assert_eq!(w.bytes::<U8>(&[0u8; 256]), Err(EncodeError));
        assert_eq!(w.u24(1 << 24), Err(EncodeError));
    }

    #[test]
    fn list_rejects_partial_items() {
        // A u16 list whose body is three bytes long.
        let bytes = [0, 3, 0, 1, 2];
        assert_eq!(
            List::<'_, u16, U16>::decode(&bytes).map(|_| ()),
            Err(InvalidMessage::BadLength)
        );
        let ok = [0, 4, 0, 1, 0, 2];
        let list = List::<'_, u16, U16>::decode(&ok).unwrap();
        assert!(list.iter().eq([1u16, 2]));
        assert_eq!(list, List::items(&[1, 2]));
    }
}
