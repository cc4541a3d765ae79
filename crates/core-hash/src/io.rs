//! `std::io` adapters (feature `std`): every hasher, SHAKE and HMAC is an [`io::Write`] sink, so
//! `io::copy(&mut file, &mut hasher)` hashes a file, and a SHAKE reader is an [`io::Read`]
//! source. Writes never fail and never write short; `flush` does nothing.

use crate::{Hash, Hmac, ShakeReader};
use std::io;

/// Implements [`io::Write`] for hashers with an inherent `update`: each type comes after its
/// generic parameters in brackets (`[]` when it has none).
macro_rules! write_by_update {
    ($([$($generics:tt)*] $name:ty),* $(,)?) => {$(
        impl<$($generics)*> io::Write for $name {
            /// Absorbs all of `buf`.
            #[inline]
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                self.update(buf);
                Ok(buf.len())
            }

            #[inline]
            fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
                self.update(buf);
                Ok(())
            }

            #[inline]
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
    )*};
}

write_by_update!(
    [] crate::Sha1,
    [] crate::Sha224,
    [] crate::Sha256,
    [] crate::Sha384,
    [] crate::Sha512,
    [] crate::Sha512_256,
    [] crate::Sha3_224,
    [] crate::Sha3_256,
    [] crate::Sha3_384,
    [] crate::Sha3_512,
    [] crate::Shake128,
    [] crate::Shake256,
    [H: Hash] Hmac<H>,
);
#[cfg(feature = "legacy")]
write_by_update!([] crate::Md5);

impl<const RATE: usize> io::Read for ShakeReader<RATE> {
    /// Fills all of `buf` with the next output bytes: the stream never ends.
    #[inline]
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        ShakeReader::read(self, buf);
        Ok(buf.len())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Hmac, Sha3_256, Sha256, Shake128};
    use std::io::{self, Read, Write};
    use std::vec::Vec;

    /// A reader that hands out at most 7 bytes per call, so `io::copy` makes many writes.
    struct Dribble<'a>(&'a [u8]);

    impl Read for Dribble<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(7).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn message() -> Vec<u8> {
        (0..1000u32).map(|i| (i.wrapping_mul(31) >> 2) as u8).collect()
    }

    #[test]
    fn io_copy_equals_one_shot() {
        let msg = message();
        let mut h = Sha256::new();
        assert_eq!(io::copy(&mut Dribble(&msg), &mut h).unwrap(), 1000);
        assert_eq!(h.finalize(), Sha256::digest(&msg));

        let mut h = Sha3_256::new();
        io::copy(&mut Dribble(&msg), &mut h).unwrap();
        assert_eq!(h.finalize(), Sha3_256::digest(&msg));

        let mut mac = Hmac::<Sha256>::new(b"key");
        io::copy(&mut Dribble(&msg), &mut mac).unwrap();
        assert_eq!(mac.finalize(), Hmac::<Sha256>::mac(b"key", &msg));
    }

    #[test]
    fn write_reports_every_byte_taken() {
        let mut h = Sha256::new();
        assert_eq!(h.write(b"abc").unwrap(), 3);
        assert_eq!(h.write(b"").unwrap(), 0);
        h.flush().unwrap();
        assert_eq!(h.finalize(), Sha256::digest(b"abc"));
        let mut g = Sha256::new();
        write!(g, "ab{}", 100u8 as char).unwrap();
        assert_eq!(g.finalize(), Sha256::digest(b"abd"));
    }

    #[test]
    fn shake_reader_reads_the_stream() {
        let mut whole = [0u8; 100];
        Shake128::digest_into(b"seed", &mut whole);
        let mut h = Shake128::new();
        h.write_all(b"se").unwrap();
        h.write_all(b"ed").unwrap();
        let mut r = h.finalize_xof();
        let mut got = [0u8; 100];
        r.read_exact(&mut got[..33]).unwrap();
        r.read_exact(&mut got[33..]).unwrap();
        assert_eq!(got, whole);
    }
}
