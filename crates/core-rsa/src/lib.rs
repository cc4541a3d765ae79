//! Halite RSA: constant-time Montgomery arithmetic and RSA signatures (PKCS#1 v1.5, PSS) and
//! encryption (OAEP). Filled in by the RSA work.
#![no_std]
#![warn(missing_docs)]
