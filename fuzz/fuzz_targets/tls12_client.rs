//! A TLS client offering TLS 1.2, after its ClientHello, fed arbitrary bytes as the server's
//! records, in pieces whose size the first input byte's low seven bits pick (their square; 0
//! for all at once); its top bit makes the client offer TLS 1.3 too (so version negotiation,
//! the downgrade sentinel check and a 1.3 answer are reached), else it offers TLS 1.2 alone.
//! Nothing may panic; a failure must be a typed error that sticks (see
//! `halite_fuzz::tls_peer::feed`); a finished handshake must say what it negotiated.
//!
//! Random records rarely get past the ServerHello, so the seeds (`examples/seeds.rs`) are
//! real TLS 1.2 server flights for this (deterministic) client — ServerHello, Certificate,
//! ServerKeyExchange (Ed25519, RSA), ServerHelloDone, then ChangeCipherSpec and Finished
//! and application data — recorded from rustls: mutations start from every handshake state.
#![no_main]

use halite_fuzz::tls_peer::{feed_and_check, with_client12_hello};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, bytes)) = data.split_first() else { return };
    with_client12_hello(first & 0x80 != 0, |client, _| feed_and_check(client, bytes, first & 0x7f));
});
