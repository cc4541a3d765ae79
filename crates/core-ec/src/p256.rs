//! p256: filled in by the NIST-curve work.
