//! p521: filled in by the NIST-curve work.
