//! Helpers shared by the vector suites: run a vector through every implementation, whole and
//! in uneven pieces, and say which implementations this CPU could not check.
#![allow(dead_code, unreachable_pub)]

use core_hash::{Hash, Implementation};

/// Prints the implementations of `H` this CPU cannot run, so a green run says what it skipped.
pub fn report_unavailable<H: Hash>(algorithm: &str) {
    let available: Vec<&str> = H::implementations().map(Implementation::name).collect();
    for name in <H::Impl as Implementation>::ALL {
        if !available.contains(name) {
            println!(
                "{algorithm}: implementation {name} is not available on this CPU; not checked"
            );
        }
    }
}

/// Hashes `msg` with `imp`, feeding it in pieces of `chunk` bytes.
pub fn hash_chunked<H: Hash>(imp: H::Impl, msg: &[u8], chunk: usize) -> H::Output {
    let mut h = H::with_impl(imp);
    for piece in msg.chunks(chunk.max(1)) {
        h.update(piece);
    }
    h.finalize()
}

/// Checks `want == H(msg)` on every implementation, in one piece and in several uneven ones.
pub fn check<H: Hash>(algorithm: &str, msg: &[u8], want: &[u8]) {
    report_unavailable::<H>(algorithm);
    assert_eq!(want.len(), H::OUTPUT_LEN, "{algorithm}: vector has the wrong length");
    for imp in H::implementations() {
        for chunk in [msg.len(), 1, 7, H::BLOCK_LEN - 1, H::BLOCK_LEN, 3 * H::BLOCK_LEN + 5] {
            if chunk == 1 && msg.len() > 4096 {
                continue; // byte-at-a-time over a megabyte adds time, not coverage
            }
            let got = hash_chunked::<H>(imp, msg, chunk);
            assert_eq!(
                got.as_ref(),
                want,
                "{algorithm}/{}: {} bytes fed in pieces of {chunk}",
                imp.name(),
                msg.len()
            );
        }
    }
}

/// One million repetitions of 'a' (FIPS 180-2 appendix examples).
pub fn million_a() -> Vec<u8> {
    vec![b'a'; 1_000_000]
}

/// The 448-bit FIPS 180 example message.
pub const MSG_448: &[u8] = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
/// The 896-bit FIPS 180 example message.
pub const MSG_896: &[u8] = b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
