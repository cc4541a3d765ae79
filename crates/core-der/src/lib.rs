//! Halite's key encodings, shared by the key crates (`core-ec`, `core-rsa`) and `tls`: one PEM
//! codec (RFC 7468, [`pem`]), one strict DER reader and writer ([`der`]), and the two
//! envelopes every key format sits in, PKCS#8 `PrivateKeyInfo` and X.509
//! `SubjectPublicKeyInfo`, with the algorithm identifiers that say what a key is ([`pkix`]).
//!
//! Everything works in caller buffers with no allocator, never panics on any input, and says
//! what went wrong with a typed error; the `alloc` feature adds an owned `String` PEM encoder.
//! Base64 is decoded and encoded without branches or table lookups on the data, as the bytes
//! are often private keys.
//!
//! # Keys
//!
//! The key crates build on this; a user mostly meets it through their `from_pkcs8_pem` and
//! friends, and through [`KeyAlgorithm`], which names the key a loader found when it was
//! given the wrong kind:
//!
//! ```
//! use core_der::{pem, pkix, KeyAlgorithm};
//!
//! // An Ed25519 public key (RFC 8410 §10.1).
//! let text = "-----BEGIN PUBLIC KEY-----\n\
//!             MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n\
//!             -----END PUBLIC KEY-----\n";
//! let mut der = [0u8; 64];
//! let der = pem::decode_first(text, "PUBLIC KEY", &mut der)?;
//! let spki = pkix::SubjectPublicKeyInfo::from_der(der)?;
//! assert_eq!(spki.algorithm.kind(), KeyAlgorithm::Ed25519);
//! assert_eq!(spki.public_key.len(), 32);
//!
//! // Back to PEM, byte for byte.
//! let mut out = [0u8; 128];
//! assert_eq!(pem::encode("PUBLIC KEY", der, &mut out)?, text);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
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
