#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod der;
pub mod pem;
pub mod pkix;

pub use pem::PemError;
pub use pkix::KeyAlgorithm;

use core::fmt;

/// Why DER input did not parse, or DER output did not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The input ends inside an element.
    Truncated,
    /// An element has another tag than the structure requires here.
    UnexpectedTag {
        /// The tag required.
        expected: u8,
        /// The tag found (0 when the input ended instead).
        found: u8,
    },
    /// An encoding BER allows and DER does not: an indefinite or non-minimal length, a
    /// non-minimal or negative INTEGER where a non-negative one belongs, a BIT STRING with
    /// unused bits, or a value outside what the structure allows (a version number).
    NonCanonical,
    /// Bytes follow the element or structure that should have ended the input.
    TrailingData,
    /// The output buffer is too small.
    BufferTooSmall,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated => f.write_str("DER input is truncated"),
            Self::UnexpectedTag { expected, found } => {
                write!(f, "DER tag {found:#04x} where {expected:#04x} was expected")
            }
            Self::NonCanonical => f.write_str("not the one encoding DER allows"),
            Self::TrailingData => f.write_str("trailing data after the DER structure"),
            Self::BufferTooSmall => f.write_str("output buffer too small"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
