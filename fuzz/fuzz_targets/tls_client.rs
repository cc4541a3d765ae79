//! A TLS client, after its ClientHello, fed arbitrary bytes as the server's records, in pieces
//! whose size the first input byte's low seven bits pick (their square; 0 for all at once);
//! its top bit picks the client that offers an external PSK and small record limits
//! (`psk_small_records`), so the server's answers to those extensions are reached too. Nothing may panic;
//! a failure must be a typed error that sticks (see `halite_fuzz::tls_peer::feed`); a
//! finished handshake must say what it negotiated. The seeds are a real server flight for
//! this (deterministic) client, with and without application data after it, so mutations
//! reach every handshake state.
#![no_main]

use halite_fuzz::tls_peer::{feed_and_check, psk_small_records, with_client_hello_config};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, bytes)) = data.split_first() else { return };
    let tweak = |c: &mut tls::ClientConfig<'_>| {
        if first & 0x80 != 0 {
            psk_small_records(c);
        }
    };
    with_client_hello_config(tweak, |client, _| feed_and_check(client, bytes, first & 0x7f));
});
