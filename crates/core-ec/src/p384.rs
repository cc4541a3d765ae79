//! p384: filled in by the NIST-curve work.
