//! A TLS client, after its ClientHello, fed arbitrary bytes as the server's records, in pieces
//! whose size the first input byte picks (its square; 0 for all at once). Nothing may panic;
//! a failure must be a typed error that sticks (see `halite_fuzz::tls_peer::feed`); a
//! finished handshake must say what it negotiated. The seeds are a real server flight for
//! this (deterministic) client, with and without application data after it, so mutations
//! reach every handshake state.
#![no_main]

use halite_fuzz::tls_peer::{feed, with_client};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&chunk, bytes)) = data.split_first() else { return };
    with_client(|client| {
        let chunk = if chunk == 0 { usize::MAX } else { usize::from(chunk).pow(2) };
        let error = feed(client, bytes, chunk);
        if !client.is_handshaking() {
            assert!(client.negotiated().is_some(), "finished without negotiating");
        }
        if error.is_none() {
            assert!(client.error().is_none());
        }
    });
});
