//! A fresh TLS server fed arbitrary bytes as the client's records, in pieces whose size the
//! first input byte picks (its square; 0 for all at once). Nothing may panic; a failure must
//! be a typed error that sticks (see `halite_fuzz::tls_peer::feed`); a finished handshake
//! must say what it negotiated. The seeds are real client flights for this (deterministic)
//! server — the ClientHello alone, and with the client's Finished and application data after
//! it — so mutations reach every state.
#![no_main]

use halite_fuzz::tls_peer::{feed_and_check, with_server};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&chunk, bytes)) = data.split_first() else { return };
    with_server(|server| feed_and_check(server, bytes, chunk));
});
