//! Helpers shared by the fuzz targets: a cursor that carves a fuzzer's input into fields
//! (never failing: a short input yields short or empty fields), and the list of every
//! implementation of an algorithm this CPU can run.

use core_hash::Implementation;

pub mod rustls_records;

/// Reads fields off the front of a fuzzer input.
pub struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    /// A cursor over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self(data)
    }

    /// The next byte, or 0 once the input is used up.
    pub fn byte(&mut self) -> u8 {
        self.bytes(1).first().copied().unwrap_or(0)
    }

    /// The next `n` bytes, or what is left if fewer.
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        let (head, tail) = self.0.split_at(n.min(self.0.len()));
        self.0 = tail;
        head
    }

    /// The next `N` bytes, zero-padded if the input runs out.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        let head = self.bytes(N);
        out[..head.len()].copy_from_slice(head);
        out
    }

    /// Everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        self.bytes(self.0.len())
    }
}

/// Every implementation of `I` this CPU can run, found by name so that the portable variants
/// `available()` leaves out for this word size are included.
pub fn every<I: Implementation>() -> Vec<I> {
    I::ALL.iter().filter_map(|name| I::by_name(name)).collect()
}

/// Splits `data` into pieces whose lengths come from `seed` (0 up to a few blocks, empty
/// pieces included), to drive incremental APIs through every buffering path.
pub fn pieces(data: &[u8], seed: u8) -> Vec<&[u8]> {
    let mut x = u32::from(seed) | 0x100;
    let mut rest = data;
    let mut out = Vec::new();
    while !rest.is_empty() {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let n = (x % 300) as usize;
        let (head, tail) = rest.split_at(n.min(rest.len()));
        out.push(head);
        rest = tail;
    }
    out
}

/// A deterministic [`core_hash::RandomSource`] (SplitMix64 from a seed the input gives), so that
/// a crash reproduces from its input alone: key generation, blinding, salts and the TLS
/// randoms all draw from it. Not random in any cryptographic sense, and need not be.
pub struct FixedRandom(u64);

impl FixedRandom {
    /// The stream for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
}

impl core_hash::RandomSource for FixedRandom {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), core_hash::RandomError> {
        for chunk in dest.chunks_mut(8) {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            chunk.copy_from_slice(&z.to_le_bytes()[..chunk.len()]);
        }
        Ok(())
    }
}

/// Flips bit `at` (taken modulo the length) of `bytes`; nothing if `bytes` is empty.
pub fn flip(bytes: &mut [u8], at: usize) {
    if !bytes.is_empty() {
        let at = at % (bytes.len() * 8);
        bytes[at / 8] ^= 1 << (at % 8);
    }
}

/// A TLS client and server over the test PKI of `crates/tls/tests/data` (an Ed25519 server
/// certificate for `localhost` under a test CA), with every random value from [`FixedRandom`]
/// and a fixed clock, so that a flight recorded once (the seed corpora) is still valid input
/// for the next run, and the checks shared by the TLS targets.
pub mod tls_peer {
    use core::time::Duration;

    use core_ec::ed25519::SigningKey;
    use pki_types::{CertificateDer, TrustAnchor, UnixTime};
    use tls::{Buffers, ClientConfig, Connection, ServerConfig, Want};

    use crate::FixedRandom;

    /// The test CA's certificate.
    pub const CA: &[u8] = include_bytes!("../../crates/tls/tests/data/ca.der");
    /// The server's certificate (`localhost`, Ed25519).
    pub const SERVER_CERT: &[u8] = include_bytes!("../../crates/tls/tests/data/server.der");
    /// The server certificate key's seed.
    pub const SERVER_SEED: &[u8; 32] = include_bytes!("../../crates/tls/tests/data/server.seed");
    /// The seed of the client's random stream.
    pub const CLIENT_RANDOM: u64 = 1;
    /// The seed of the server's random stream.
    pub const SERVER_RANDOM: u64 = 2;
    /// The clock: 2027-01-15, inside the test certificates' validity.
    pub const NOW: Duration = Duration::from_secs(1_800_000_000);

    /// The external PSK the server knows (identity `fuzz`, SHA-256).
    pub const FUZZ_PSK: tls::ExternalPsk<'static> = tls::ExternalPsk {
        identity: b"fuzz",
        key: &[0x42; 32],
        hash: tls::key_schedule::HashAlg::Sha256,
    };

    /// The client configuration of the PSK seeds and of `tls_client` inputs whose first byte
    /// has its top bit set: it offers [`FUZZ_PSK`] and asks for small records (RFC 8449
    /// record_size_limit and RFC 6066 max_fragment_length), so the server's answers to those
    /// extensions are parsed.
    pub fn psk_small_records(c: &mut ClientConfig<'_>) {
        c.external_psk = Some(&FUZZ_PSK);
        c.record_size_limit = Some(256);
        c.max_fragment_length = Some(tls::msgs::MaxFragmentLength::LEN_512);
    }

    /// The buffers one connection needs.
    pub struct Space {
        received: Vec<u8>,
        send: Vec<u8>,
        handshake: Vec<u8>,
    }

    impl Default for Space {
        fn default() -> Self {
            Self { received: vec![0; 17_000], send: vec![0; 17_000], handshake: vec![0; 8_000] }
        }
    }

    impl Space {
        fn buffers(&mut self) -> Buffers<'_> {
            Buffers {
                received: &mut self.received,
                send: &mut self.send,
                handshake: &mut self.handshake,
            }
        }
    }

    /// Runs `f` with a fresh client for `localhost` whose ClientHello has been taken (so
    /// [`Connection::pending_send`] is empty), handing it that ClientHello record too.
    pub fn with_client_hello<R>(f: impl FnOnce(&mut Connection<'_, '_>, &[u8]) -> R) -> R {
        with_client_hello_config(|_| {}, f)
    }

    /// [`with_client_hello`] for a client whose configuration `tweak` changes first (to
    /// offer [`FUZZ_PSK`] or a record size limit).
    pub fn with_client_hello_config<R>(
        tweak: impl FnOnce(&mut ClientConfig<'_>),
        f: impl FnOnce(&mut Connection<'_, '_>, &[u8]) -> R,
    ) -> R {
        let ca = CertificateDer::from(CA);
        let roots: [TrustAnchor<'_>; 1] =
            [webpki::anchor_from_trusted_cert(&ca).expect("test CA parses")];
        let alpn: [&[u8]; 2] = [b"h2", b"http/1.1"];
        let now = UnixTime::since_unix_epoch(NOW);
        // The TLS 1.3 client (`tls12_client` fuzzes TLS 1.2): the default offers TLS 1.2 too.
        let versions = &[tls::msgs::ProtocolVersion::TLSV1_3];
        let config = ClientConfig { alpn: &alpn, versions, ..ClientConfig::new(&roots, &now) };
        let mut config = config;
        tweak(&mut config);
        let mut space = Space::default();
        let mut rng = FixedRandom::new(CLIENT_RANDOM);
        let mut client =
            Connection::client(config, "localhost", space.buffers(), &mut rng).expect("client");
        let hello = client.pending_send().to_vec();
        client.sent(hello.len());
        f(&mut client, &hello)
    }

    /// The RSA test CA's certificate, trusted by the TLS 1.2 client next to [`CA`] so that
    /// flights signed with RSA (PKCS#1 v1.5 and PSS ServerKeyExchange signatures) verify.
    pub const CA_RSA: &[u8] = include_bytes!("../../crates/tls/tests/data/ca-rsa.der");

    /// [`with_client_hello`] for a client that offers TLS 1.2 (with every TLS 1.2 suite of
    /// `ClientConfig::new`), alone or, if `also_tls13`, after TLS 1.3, and trusts [`CA`] and
    /// [`CA_RSA`]: the client of the `tls12_client` target.
    pub fn with_client12_hello<R>(
        also_tls13: bool,
        f: impl FnOnce(&mut Connection<'_, '_>, &[u8]) -> R,
    ) -> R {
        use tls::msgs::ProtocolVersion;
        const ONLY12: &[ProtocolVersion] = &[ProtocolVersion::TLSV1_2];
        const BOTH: &[ProtocolVersion] = &[ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2];
        let (ca, ca_rsa) = (CertificateDer::from(CA), CertificateDer::from(CA_RSA));
        let roots: [TrustAnchor<'_>; 2] = [
            webpki::anchor_from_trusted_cert(&ca).expect("test CA parses"),
            webpki::anchor_from_trusted_cert(&ca_rsa).expect("RSA test CA parses"),
        ];
        let alpn: [&[u8]; 2] = [b"h2", b"http/1.1"];
        let now = UnixTime::since_unix_epoch(NOW);
        let versions = if also_tls13 { BOTH } else { ONLY12 };
        let config = ClientConfig { alpn: &alpn, versions, ..ClientConfig::new(&roots, &now) };
        let mut space = Space::default();
        let mut rng = FixedRandom::new(CLIENT_RANDOM);
        let mut client =
            Connection::client(config, "localhost", space.buffers(), &mut rng).expect("client");
        let hello = client.pending_send().to_vec();
        client.sent(hello.len());
        f(&mut client, &hello)
    }

    /// Runs `f` with a fresh server for the test certificate.
    pub fn with_server<R>(f: impl FnOnce(&mut Connection<'_, '_>) -> R) -> R {
        let key = tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED));
        let chain: [&[u8]; 1] = [SERVER_CERT];
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let alpn: [&[u8]; 1] = [b"http/1.1"];
        // The CBC suites after the default ones: a hello that offers only those gets one,
        // and its records are opened by the CBC code (encrypt_then_mac or not, as offered).
        let suites12: Vec<_> = tls::suites::tls12::DEFAULT_SUITES12
            .iter()
            .chain(tls::suites::tls12::CBC_SUITES12)
            .copied()
            .collect();
        let config = ServerConfig {
            alpn: &alpn,
            suites12: &suites12,
            enable_cbc: true,
            // Reached only by inputs that offer them: a limit of its own to answer
            // record_size_limit with, and an external PSK to look identities up in.
            record_size_limit: Some(512),
            psks: Some(&tls::ServerPsks { keys: &[FUZZ_PSK], psk_ke: true }),
            ..ServerConfig::new(&certs)
        };
        let mut space = Space::default();
        let mut rng = FixedRandom::new(SERVER_RANDOM);
        let mut server = Connection::server(config, space.buffers(), &mut rng).expect("server");
        f(&mut server)
    }

    /// Feeds `bytes` to `conn` in pieces of at most `chunk` bytes, taking whatever it sends
    /// and reading whatever application data it releases, and checks the contract of a
    /// failure: the error is the connection's sticky error, returned again by every later
    /// call (a failure in the records after application data comes from the read after the
    /// one that returns the data), and the connection then wants only to send its alert or
    /// to be dropped. Returns the first error, if any.
    pub fn feed(conn: &mut Connection<'_, '_>, bytes: &[u8], chunk: usize) -> Option<tls::Error> {
        let mut rest = bytes;
        let mut out = [0u8; 4096];
        while !rest.is_empty() {
            let space = conn.receive_space();
            let n = rest.len().min(chunk.max(1)).min(space.len());
            space[..n].copy_from_slice(&rest[..n]);
            rest = &rest[n..];
            let r = conn.received(n);
            if let Err(e) = r {
                check_failed(conn, e);
                return Some(e);
            }
            assert_eq!(conn.error(), None);
            loop {
                match conn.want() {
                    Want::Send => {
                        let n = conn.pending_send().len();
                        conn.sent(n);
                    }
                    Want::Read => match conn.read(&mut out) {
                        Ok(n) => assert!(n > 0, "Want::Read with nothing to read"),
                        Err(e) => {
                            check_failed(conn, e);
                            return Some(e);
                        }
                    },
                    Want::Receive | Want::Closed => break,
                    // Data read just before a failure was returned first; the failure comes
                    // from the next call.
                    Want::Failed => match conn.read(&mut out) {
                        Err(e) => {
                            check_failed(conn, e);
                            return Some(e);
                        }
                        Ok(_) => panic!("failed without an error returned"),
                    },
                }
            }
            if n == 0 {
                // No room to receive, and nothing was consumed.
                break;
            }
        }
        None
    }

    /// A TLS target's whole run: [`feed`]s `bytes` to `conn` in pieces of `piece²` bytes (all
    /// at once for 0), then checks that a finished handshake says what it negotiated and
    /// that a connection [`feed`] saw no failure in has no error.
    pub fn feed_and_check(conn: &mut Connection<'_, '_>, bytes: &[u8], piece: u8) {
        let chunk = if piece == 0 { usize::MAX } else { usize::from(piece).pow(2) };
        let error = feed(conn, bytes, chunk);
        if !conn.is_handshaking() {
            assert!(conn.negotiated().is_some(), "finished without negotiating");
        }
        if error.is_none() {
            assert!(conn.error().is_none());
        }
    }

    fn check_failed(conn: &mut Connection<'_, '_>, e: tls::Error) {
        assert_eq!(conn.error(), Some(e), "the error returned is not the sticky one");
        assert!(matches!(conn.want(), Want::Send | Want::Failed), "{:?}", conn.want());
        assert_eq!(conn.received(0), Err(e), "the error is not sticky");
        assert_eq!(conn.write(b"x"), Err(e), "write after failure");
        let n = conn.pending_send().len();
        conn.sent(n);
        assert_eq!(conn.want(), Want::Failed);
    }
}
