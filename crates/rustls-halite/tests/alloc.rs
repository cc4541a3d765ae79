//! Record protection allocates no more than rustls's own ring provider does: the same bulk
//! transfer is run through both, counting heap allocations on the sending and receiving
//! paths (the one output buffer per record rustls asks for, nothing per record on receipt).
//! QUIC packet and header protection allocate nothing at all.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::{Read, Write};
use std::sync::Arc;

use common::{Cert, Side, client_config, handshake, narrowed, server_config};
use rustls::version::{TLS12, TLS13};
use rustls::{CipherSuite, NamedGroup, SupportedProtocolVersion};

/// Counts this thread's allocations while `COUNTING` is set.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter only
// reads and writes thread-local cells, which do not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            COUNT.with(|c| c.set(c.get() + 1));
        }
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout (above).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            COUNT.with(|c| c.set(c.get() + 1));
        }
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    COUNT.with(Cell::get)
}

/// (sending, receiving) allocations for 64 KiB of application data from client to server.
fn bulk(
    side: Side,
    version: &'static SupportedProtocolVersion,
    suite: CipherSuite,
) -> (usize, usize) {
    let p = || narrowed(side, suite, NamedGroup::X25519).unwrap();
    let cc = Arc::new(client_config(p(), version, Cert::P256, None).unwrap());
    let sc = Arc::new(server_config(p(), version, Cert::P256, None).unwrap());
    let (mut c, mut s) = handshake(&cc, &sc).unwrap();
    let data = vec![0x42u8; 65536];
    let mut wire = Vec::with_capacity(2 * data.len());
    let mut got = vec![0u8; data.len()];
    // Warm up once so lazily grown buffers on both sides are already there.
    for round in 0..2 {
        wire.clear();
        let send = allocations(|| {
            c.writer().write_all(&data).unwrap();
            while c.wants_write() {
                c.write_tls(&mut wire).unwrap();
            }
        });
        let mut at = 0;
        let receive = allocations(|| {
            let mut rd = wire.as_slice();
            while !rd.is_empty() {
                s.read_tls(&mut rd).unwrap();
                s.process_new_packets().unwrap();
                while let Ok(n @ 1..) = s.reader().read(&mut got[at..]) {
                    at += n;
                }
            }
        });
        assert_eq!(at, data.len());
        if round == 1 {
            return (send, receive);
        }
    }
    unreachable!()
}

#[test]
fn record_protection_allocates_no_more_than_ring() {
    let cases = [
        (&TLS13, CipherSuite::TLS13_AES_128_GCM_SHA256),
        (&TLS13, CipherSuite::TLS13_AES_256_GCM_SHA384),
        (&TLS13, CipherSuite::TLS13_CHACHA20_POLY1305_SHA256),
        (&TLS12, CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256),
        (&TLS12, CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256),
    ];
    for (version, suite) in cases {
        let ours = bulk(Side::Halite, version, suite);
        let ring = bulk(Side::Ring, version, suite);
        eprintln!("{suite:?}: halite {ours:?}, ring {ring:?} (send, receive) allocations");
        assert!(ours.0 <= ring.0 && ours.1 <= ring.1, "{suite:?}: halite {ours:?} > ring {ring:?}");
    }
}

/// Sealing, masking, unmasking and opening QUIC packets allocates nothing, for each suite.
#[test]
fn quic_packets_allocate_nothing() {
    use rustls::quic::{Keys, Version};
    for suite in
        rustls_halite::DEFAULT_CIPHER_SUITES.iter().filter_map(rustls::SupportedCipherSuite::tls13)
    {
        let quic = suite.quic.unwrap();
        let client = Keys::initial(Version::V1, suite, quic, b"dcid", rustls::Side::Client);
        let server = Keys::initial(Version::V1, suite, quic, b"dcid", rustls::Side::Server);
        let mut packet = [0x17u8; 1200];
        let count = allocations(|| {
            for pn in 0..64u64 {
                let (header, rest) = packet.split_at_mut(5);
                header[0] = 0x43;
                header[1..].copy_from_slice(&(pn as u32).to_be_bytes());
                let (payload, tag) = rest.split_at_mut(rest.len() - 16);
                let t = client.local.packet.encrypt_in_place(pn, header, payload).unwrap();
                tag.copy_from_slice(t.as_ref());
                let sample: [u8; 16] = rest[..16].try_into().unwrap();
                let (first, pn_bytes) = header.split_first_mut().unwrap();
                client.local.header.encrypt_in_place(&sample, first, pn_bytes).unwrap();
                server.remote.header.decrypt_in_place(&sample, first, pn_bytes).unwrap();
                server.remote.packet.decrypt_in_place(pn, header, rest).unwrap();
            }
        });
        assert_eq!(count, 0, "{:?}", suite.common.suite);
    }
}
