//! Client and server configuration, the buffers a connection works in, the limits it
//! enforces, and the checks a configuration gets before a connection starts.

use pki_types::TrustAnchor;

use crate::clock::Clock;
use crate::engine::handshake::Pins;
use crate::error::{ApiMisuse, Error};
use crate::key_schedule::HashAlg;
use crate::msgs::{MaxFragmentLength, NamedGroup, ProtocolVersion, PskKeyExchangeMode};
use crate::provider::KeyExchange;
use crate::psk::{ExternalPsk, ServerPsks};
use crate::record::MAX_PLAINTEXT_LEN;
#[cfg(feature = "raw-public-keys")]
use crate::rpk::{PinnedKeys, RawKey};
use crate::schedule::SuiteHash;
use crate::sign::CertifiedKey;
#[cfg(feature = "tls12")]
use crate::suites::tls12::Suite12;
use crate::suites::{self, Suite};
#[cfg(feature = "tls12")]
use crate::ticket::SessionCache;
use crate::ticket::{TicketKey, TicketStore};
use crate::verify::{self, CertVerifier};

/// The most entries a configured list (suites, groups, ALPN protocols) may hold.
pub(crate) const MAX_LIST: usize = 16;

/// The most certificates a received chain may hold.
pub(crate) const MAX_CHAIN: usize = 1 + verify::MAX_INTERMEDIATES;

/// The most early data a server skips (RFC 8446 §4.2.10), counted as the bodies of the
/// records it skips: 16 KiB of data plus 2 KiB for the records' type bytes, padding and tags.
/// This server never accepts early data; a client that offers it anyway is answered with a
/// full handshake, and the 0-RTT records it sends meanwhile — those that fail to decrypt with
/// the handshake key, or every protected record until the second ClientHello after a
/// HelloRetryRequest — are dropped up to this bound, past which the connection fails with
/// unexpected_message ([`crate::error::PeerMisbehaved::TooMuchEarlyData`]). Each skipped record must fit
/// the receive buffer.
pub const MAX_SKIPPED_EARLY_DATA: usize = (1 << 14) + (1 << 11);

/// The most empty application-data records a peer may send in a row, with no application
/// data in between. RFC 8446 §5.1 allows empty application-data records (as traffic-analysis
/// cover), but each costs a decryption and carries nothing: a peer that sends more than this
/// is flooding, and the connection fails with unexpected_message
/// ([`crate::error::PeerMisbehaved::TooManyEmptyRecords`]). BoringSSL uses the same bound.
pub const MAX_EMPTY_RECORDS: u8 = 32;

/// The most KeyUpdate messages (RFC 8446 §4.6.3) a peer may send with no application data
/// in between; each costs a key derivation and can ask for an answer, so past this bound the
/// connection fails with unexpected_message ([`crate::error::PeerMisbehaved::TooManyKeyUpdates`]).
/// BoringSSL uses the same bound.
pub const MAX_KEY_UPDATES: u8 = 32;

/// The most warning alerts a peer may send with no application data in between: user_canceled
/// (RFC 8446 §6.1, the only alert other than close_notify that does not end a TLS 1.3
/// connection) and, in TLS 1.2, any warning but close_notify (RFC 5246 §7.2). Past this bound
/// the connection fails with unexpected_message
/// ([`crate::error::PeerMisbehaved::TooManyWarningAlerts`]). BoringSSL uses the same bound.
pub const MAX_USER_CANCELED: u8 = 4;

/// The versions [`ClientConfig::new`] offers and [`ServerConfig::new`] accepts: TLS 1.3 and
/// TLS 1.2 with the `tls12` feature (the highest both ends speak is taken), TLS 1.3 alone
/// without it.
#[cfg(feature = "tls12")]
pub const DEFAULT_VERSIONS: &[ProtocolVersion] =
    &[ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2];
/// The versions [`ClientConfig::new`] offers and [`ServerConfig::new`] accepts: TLS 1.3 (and
/// TLS 1.2 as well with the `tls12` feature).
#[cfg(not(feature = "tls12"))]
pub const DEFAULT_VERSIONS: &[ProtocolVersion] = &[ProtocolVersion::TLSV1_3];

/// A client's settings.
#[derive(Clone, Copy, Debug)]
pub struct ClientConfig<'a> {
    /// The protocol versions to offer: TLS 1.3 ([`ProtocolVersion::TLSV1_3`]) and/or TLS 1.2
    /// ([`ProtocolVersion::TLSV1_2`]), the latter only with the `tls12` feature (a
    /// configuration naming it without is [`ApiMisuse::BadConfig`]). The default is both with
    /// the feature (a server that speaks TLS 1.3 gets it, and its downgrade sentinel is
    /// checked, RFC 8446 §4.1.3), TLS 1.3 alone without it ([`DEFAULT_VERSIONS`]).
    pub versions: &'a [ProtocolVersion],
    /// Suites to offer, in order of preference.
    pub suites: &'a [Suite],
    /// TLS 1.2 suites to offer (after the TLS 1.3 ones) when `versions` has TLS 1.2. Only
    /// with the `tls12` feature.
    #[cfg(feature = "tls12")]
    pub suites12: &'a [Suite12],
    /// Allows the CBC suites of [`suites::tls12::CBC_SUITES12`] in `suites12` (`cbc`
    /// feature; `false` by default, and a configuration that lists one without it is
    /// [`ApiMisuse::CbcNotEnabled`]). CBC with MAC-then-encrypt invites padding-oracle and
    /// timing attacks (Lucky Thirteen, POODLE; RFC 9325 §4.2 recommends AEADs only): Halite
    /// opens such records in constant time and uses encrypt_then_mac (RFC 7366) whenever
    /// the peer agrees, but list them only for peers that have nothing else.
    #[cfg(feature = "cbc")]
    pub enable_cbc: bool,
    /// Trusted roots for the server's chain.
    pub roots: &'a [TrustAnchor<'a>],
    /// A check of the server's certificate in place of `roots` (pinning, a private PKI;
    /// `None`: `rustls-webpki` to `roots`).
    pub verifier: Option<&'a dyn CertVerifier>,
    /// ALPN protocols to offer (empty: no ALPN).
    pub alpn: &'a [&'a [u8]],
    /// Key-exchange groups to offer, in order of preference; the ClientHello carries a key
    /// share for the first only (a server that wants another asks with a HelloRetryRequest).
    pub groups: &'a [NamedGroup],
    /// Implementations that compute groups in place of `core-ec`, or add groups it lacks
    /// (empty: `core-ec` for every group); see [`crate::provider::KeyExchange`].
    pub key_exchanges: &'a [&'static dyn KeyExchange],
    /// The clock certificates are checked and tickets aged by, read at each use.
    pub clock: &'a dyn Clock,
    /// The certificate and key to answer a server's CertificateRequest with (`None`: answer
    /// with an empty Certificate). In TLS 1.2 the key signs a hash of the handshake
    /// ([`crate::provider::Signer::tls12_digest_schemes`]): an Ed25519 key, or a signer
    /// without digest schemes, answers a TLS 1.2 request with an empty Certificate.
    pub client_cert: Option<CertifiedKey<'a>>,
    /// Where tickets are kept: a ticket for the server name is offered for resumption, and
    /// the server's NewSessionTickets are stored (`None`: no resumption). TLS 1.2 sessions
    /// go into the same store after each handshake (with the server's RFC 5077 ticket, or
    /// by its session id) and are offered the same way
    /// ([`crate::ticket::Session::is_tls12`]).
    pub tickets: Option<&'a dyn TicketStore>,
    /// The resumption modes to offer (empty: `psk_dhe_ke` only). Listing `psk_ke` lets a
    /// server resume without a fresh key exchange (no forward secrecy for that session).
    pub psk_modes: &'a [PskKeyExchangeMode],
    /// The `record_size_limit` (RFC 8449) to advertise: the longest TLSInnerPlaintext
    /// (content, its type byte and any padding) one protected record to us may carry, 64 to
    /// 16385 (`None`: none advertised). Once the server answers with its own, records longer
    /// than ours are `record_overflow` and we split what we send to the server's; see
    /// [`Buffers`] for the buffer sizes that allows.
    pub record_size_limit: Option<u16>,
    /// The `max_fragment_length` (RFC 6066 §4) to offer, for servers without
    /// `record_size_limit` (`None`: none offered). A server that accepts it echoes it, and
    /// then neither side sends records with more than that many content bytes (with padding,
    /// a TLSInnerPlaintext of at most that plus one). When both are offered, a server that
    /// knows `record_size_limit` answers that one only (RFC 8449 §5).
    pub max_fragment_length: Option<MaxFragmentLength>,
    /// An external PSK to offer (RFC 8446 §4.2.11), in the modes of `psk_modes`, when no
    /// ticket is offered instead; `suites` must hold one with its hash. A server that takes
    /// it sends no certificate; one that does not falls back to its certificate, checked
    /// against `roots` as usual. Borrowed, as the raw-key settings below: with them by
    /// value this struct outgrew 256 bytes on 64-bit targets, which every by-value move of a
    /// configuration (and every test helper taking one) pays.
    pub external_psk: Option<&'a ExternalPsk<'a>>,
    /// The server's raw public keys (RFC 7250), pinned by value (`None`: X.509 only). Offered
    /// in `server_certificate_type`; a server that answers with a raw key must present one
    /// of these, and with [`PinnedKeys::allow_x509`] a server without RFC 7250 is checked
    /// against `roots` as usual. Raw keys only (`allow_x509: false`) means TLS 1.3 only
    /// (TLS 1.2 is not offered whatever `versions` says). Borrowed, as the other raw-key
    /// settings, so that a connection grows by a pointer for each. See [`crate::rpk`].
    #[cfg(feature = "raw-public-keys")]
    pub server_keys: Option<&'a PinnedKeys<'a>>,
    /// Our raw public key (RFC 7250), offered in `client_certificate_type` (before X.509
    /// when `client_cert` is set too) for a server that asks for a client certificate
    /// (`None`: none offered).
    #[cfg(feature = "raw-public-keys")]
    pub client_raw_key: Option<&'a RawKey<'a>>,
}

impl<'a> ClientConfig<'a> {
    /// A client that trusts `roots` and reads the time from `clock` (a [`crate::UnixTime`] for a
    /// fixed time, [`crate::SystemClock`] with std), offering the default
    /// suites ([`suites::DEFAULT_SUITES`]) and groups ([`crate::kx::DEFAULT_GROUPS`]) and
    /// nothing else: no ALPN, client certificate, resumption, record limits or external PSK.
    /// Set other fields with struct update syntax:
    ///
    /// ```
    /// # use tls::ClientConfig;
    /// # let roots = [];
    /// let alpn: [&[u8]; 1] = [b"h2"];
    /// let config = ClientConfig { alpn: &alpn, ..ClientConfig::new(&roots, &tls::SystemClock) };
    /// ```
    pub const fn new(roots: &'a [TrustAnchor<'a>], clock: &'a dyn Clock) -> Self {
        Self {
            versions: DEFAULT_VERSIONS,
            suites: suites::DEFAULT_SUITES,
            #[cfg(feature = "tls12")]
            suites12: suites::tls12::DEFAULT_SUITES12,
            #[cfg(feature = "cbc")]
            enable_cbc: false,
            roots,
            verifier: None,
            alpn: &[],
            groups: crate::kx::DEFAULT_GROUPS,
            key_exchanges: &[],
            clock,
            client_cert: None,
            tickets: None,
            psk_modes: &[],
            record_size_limit: None,
            max_fragment_length: None,
            external_psk: None,
            #[cfg(feature = "raw-public-keys")]
            server_keys: None,
            #[cfg(feature = "raw-public-keys")]
            client_raw_key: None,
        }
    }
}

// A configuration is moved by value (`Connection::client` takes one, and callers build and
// pass them): kept within clippy's `large_types_passed_by_value` limit with every feature,
// optional settings borrowed rather than held (a pointer each).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(core::mem::size_of::<ClientConfig<'_>>() <= 256);
// As for `ClientConfig`.
#[cfg(all(feature = "server", target_pointer_width = "64"))]
const _: () = assert!(core::mem::size_of::<ServerConfig<'_>>() <= 256);

/// How a server issues session tickets and resumes sessions from them.
#[derive(Clone, Copy, Debug)]
pub struct ServerTickets<'a> {
    /// The key tickets are sealed with.
    pub key: &'a TicketKey,
    /// How long a ticket may be used, in seconds (at most 604800, seven days).
    pub lifetime: u32,
    /// How many tickets to send after each handshake.
    pub count: u8,
    /// The clock ticket ages and lifetimes are measured by, read at each use.
    pub clock: &'a dyn Clock,
    /// Resume without a fresh key exchange (`psk_ke`) when the client lists that mode,
    /// rather than with (EC)DHE: cheaper for a small server, no forward secrecy for the
    /// resumed session. `false`: always `psk_dhe_ke`.
    pub psk_ke: bool,
    /// How long after the full handshake that authenticated a session it may still be
    /// resumed, in seconds, however many resumptions came between: tickets carry the time
    /// of that handshake, and their lifetime is cut to what remains (RFC 8446 §4.6.1; at
    /// most 604800, seven days, the default).
    pub max_auth_age: u32,
}

/// The longest a ticket may live, and a session's authentication be resumed: seven days
/// (RFC 8446 §4.6.1).
pub const MAX_TICKET_LIFETIME: u32 = 604_800;

impl<'a> ServerTickets<'a> {
    /// Tickets sealed with `key`, aged by `clock`, one per handshake, valid for two hours,
    /// resumed with `psk_dhe_ke` only, and for at most seven days after the full handshake.
    /// Set other fields with struct update syntax.
    pub const fn new(key: &'a TicketKey, clock: &'a dyn Clock) -> Self {
        Self {
            key,
            lifetime: 7200,
            count: 1,
            clock,
            psk_ke: false,
            max_auth_age: MAX_TICKET_LIFETIME,
        }
    }
}

/// How a TLS 1.2 server keeps sessions for resumption by session id (RFC 5246 §7.4.1.2).
/// A full handshake that issues no ticket sends a fresh random 32-byte session id and, once
/// the client's Finished is checked, stores the session in `cache` under it; a ClientHello
/// offering that id resumes it (abbreviated handshake) while the cache keeps it, it is
/// younger than `lifetime`, and the client offers its suite and names the same SNI host.
/// A session resumed by id is not stored again: it lives as long as its cache entry. Only
/// with the `tls12` feature.
#[cfg(feature = "tls12")]
#[derive(Clone, Copy, Debug)]
pub struct ServerSessionCache<'a> {
    /// Where sessions are kept.
    pub cache: &'a dyn SessionCache,
    /// How long a session may be resumed after the full handshake that made it, in
    /// seconds (at most 604800, seven days).
    pub lifetime: u32,
    /// The clock sessions are aged by, read at each use.
    pub clock: &'a dyn Clock,
}

#[cfg(feature = "tls12")]
impl<'a> ServerSessionCache<'a> {
    /// Sessions kept in `cache`, aged by `clock`, resumable for two hours. Set other fields
    /// with struct update syntax.
    pub const fn new(cache: &'a dyn SessionCache, clock: &'a dyn Clock) -> Self {
        Self { cache, lifetime: 7200, clock }
    }
}

/// How a server authenticates clients by certificate.
#[derive(Clone, Copy, Debug)]
pub struct ClientAuth<'a> {
    /// Trusted roots for the client's chain.
    pub roots: &'a [TrustAnchor<'a>],
    /// A check of client certificates in place of `roots` (`None`: `rustls-webpki` to
    /// `roots`). Sessions it authenticated resume only while its
    /// [`CertVerifier::trusts`] says so.
    pub verifier: Option<&'a dyn CertVerifier>,
    /// Whether a client without a certificate is refused (with a certificate_required
    /// alert) rather than let through unauthenticated.
    pub required: bool,
    /// The clock client certificates are checked by, read at each use.
    pub clock: &'a dyn Clock,
    /// The clients' raw public keys (RFC 7250), pinned by value (`None`: X.509 only). A
    /// client that lists raw keys in `client_certificate_type` is asked for one; with
    /// [`PinnedKeys::allow_x509`] one that does not is asked for a certificate (checked by
    /// `roots` or `verifier`), without it it is refused with `unsupported_certificate`.
    /// Sessions a raw key authenticated resume only while it is pinned.
    #[cfg(feature = "raw-public-keys")]
    pub raw_keys: Option<&'a PinnedKeys<'a>>,
}

impl<'a> ClientAuth<'a> {
    /// Client certificates required, checked to `roots` by `clock`. Set other fields with
    /// struct update syntax.
    pub const fn new(roots: &'a [TrustAnchor<'a>], clock: &'a dyn Clock) -> Self {
        Self {
            roots,
            verifier: None,
            required: true,
            clock,
            #[cfg(feature = "raw-public-keys")]
            raw_keys: None,
        }
    }

    /// The clients' pinned raw keys, if any (none without the `raw-public-keys` feature).
    #[cfg(feature = "server")]
    #[cfg_attr(not(feature = "raw-public-keys"), allow(clippy::unused_self))]
    pub(crate) fn pins(&self) -> Option<&'a Pins<'a>> {
        #[cfg(feature = "raw-public-keys")]
        return self.raw_keys;
        #[cfg(not(feature = "raw-public-keys"))]
        None
    }

    /// Whether client certificates (X.509) are accepted: without raw keys, or beside them.
    #[cfg_attr(not(feature = "raw-public-keys"), allow(clippy::unused_self))]
    pub(crate) fn accepts_x509(&self) -> bool {
        #[cfg(feature = "raw-public-keys")]
        return self.raw_keys.is_none_or(|p| p.allow_x509);
        #[cfg(not(feature = "raw-public-keys"))]
        true
    }
}

/// A server's settings.
#[derive(Clone, Copy, Debug)]
pub struct ServerConfig<'a> {
    /// The protocol versions to accept: TLS 1.3 ([`ProtocolVersion::TLSV1_3`]) and/or TLS 1.2
    /// ([`ProtocolVersion::TLSV1_2`]); the highest the client offers is taken, before
    /// suites are looked at (a client with TLS 1.3 but no TLS 1.3 suite in common is
    /// refused, not served TLS 1.2). TLS 1.2 needs the `tls12` feature (a configuration naming
    /// it without is [`ApiMisuse::BadConfig`]); the default is both with the feature, TLS 1.3
    /// alone without it ([`DEFAULT_VERSIONS`]). A server with both writes the downgrade sentinel into its
    /// random when it negotiates TLS 1.2 (RFC 8446 §4.1.3). TLS 1.2 needs `certs` (no
    /// external PSKs in 1.2): without them, a client is served TLS 1.3 or refused. With
    /// `client_auth`, a TLS 1.2 client's chain is checked by `roots` or by the verifier's
    /// [`CertVerifier::verify_chain`].
    pub versions: &'a [ProtocolVersion],
    /// Suites to accept, in the server's order of preference.
    pub suites: &'a [Suite],
    /// TLS 1.2 suites to accept, in the server's order of preference, when `versions` has
    /// TLS 1.2. Only with the `tls12` feature.
    #[cfg(feature = "tls12")]
    pub suites12: &'a [Suite12],
    /// Allows the CBC suites of [`suites::tls12::CBC_SUITES12`] in `suites12` (`cbc`
    /// feature; `false` by default, and a configuration that lists one without it is
    /// [`ApiMisuse::CbcNotEnabled`]). CBC with MAC-then-encrypt invites padding-oracle and
    /// timing attacks (Lucky Thirteen, POODLE; RFC 9325 §4.2 recommends AEADs only): Halite
    /// opens such records in constant time and uses encrypt_then_mac (RFC 7366) whenever
    /// the peer agrees, but list them only for peers that have nothing else.
    #[cfg(feature = "cbc")]
    pub enable_cbc: bool,
    /// Declines encrypt_then_mac (RFC 7366) though the client offers it, so that CBC records
    /// are MAC-then-encrypt (`cbc` feature; `false` by default): a test knob, for the
    /// MAC-then-encrypt path between peers that both always take encrypt_then_mac. Weakens
    /// the connection; never set it otherwise.
    #[cfg(feature = "cbc")]
    #[doc(hidden)]
    pub cbc_decline_etm: bool,
    /// The certificates to choose from, each a chain and its key: the first whose name
    /// matches the client's SNI and whose key can sign with a scheme the client offered, else
    /// the first that can sign.
    pub certs: &'a [CertifiedKey<'a>],
    /// ALPN protocols the server speaks, in its order of preference (empty: the server does
    /// no ALPN and ignores a client's offer, RFC 7301 §3.1).
    pub alpn: &'a [&'a [u8]],
    /// Key-exchange groups to accept, in the server's order of preference: the first one the
    /// client sent a share for is taken, else a HelloRetryRequest asks for the first one the
    /// client supports.
    pub groups: &'a [NamedGroup],
    /// Implementations that compute groups in place of `core-ec`, or add groups it lacks
    /// (empty: `core-ec` for every group); see [`crate::provider::KeyExchange`].
    pub key_exchanges: &'a [&'static dyn KeyExchange],
    /// Ask clients for a certificate and check it (`None`: no client authentication).
    pub client_auth: Option<ClientAuth<'a>>,
    /// Issue session tickets and accept them for resumption (`None`: neither).
    pub tickets: Option<ServerTickets<'a>>,
    /// TLS 1.2: keep sessions made without a ticket and resume them by session id (`None`:
    /// the ServerHello of a full handshake has an empty session id). Borrowed, which keeps
    /// this configuration small enough to pass by value. Only with the `tls12` feature.
    #[cfg(feature = "tls12")]
    pub session_cache: Option<&'a ServerSessionCache<'a>>,
    /// The `record_size_limit` (RFC 8449) answered to a client that sends one, 64 to 16385:
    /// records from such a client with a longer TLSInnerPlaintext are `record_overflow`
    /// (`None`: answer 16385, the protocol's limit, so the client knows its own limit is
    /// respected). A client without the extension may send full-size records whatever this
    /// says. A client's `max_fragment_length` is always accepted (unless it also sent
    /// `record_size_limit`, which wins).
    pub record_size_limit: Option<u16>,
    /// External PSKs to accept (RFC 8446 §4.2.11): a client offering one of these identities
    /// with a valid binder is authenticated by the key, and no certificate is sent. With
    /// these, `certs` may be empty: a client with no known identity is then refused with
    /// `unknown_psk_identity`. Borrowed, as a client's `external_psk` (see
    /// [`ClientConfig::external_psk`]).
    pub psks: Option<&'a ServerPsks<'a>>,
    /// Our raw public key (RFC 7250), for clients that list raw keys in
    /// `server_certificate_type` (`None`: X.509 only). With it `certs` may be empty: a
    /// client that accepts only X.509 is then refused with `unsupported_certificate`, and
    /// TLS 1.2 is not served. See [`crate::rpk`].
    #[cfg(feature = "raw-public-keys")]
    pub raw_key: Option<&'a RawKey<'a>>,
}

impl<'a> ServerConfig<'a> {
    /// A server with the certificates `certs`, accepting the default suites
    /// ([`suites::DEFAULT_SUITES`]) and groups ([`crate::kx::DEFAULT_GROUPS`]), and nothing
    /// else: no ALPN, client authentication, tickets or external PSKs; record_size_limit
    /// answered with the protocol's 16385. Set other fields with struct update syntax, as
    /// for [`ClientConfig::new`].
    pub const fn new(certs: &'a [CertifiedKey<'a>]) -> Self {
        Self {
            versions: DEFAULT_VERSIONS,
            suites: suites::DEFAULT_SUITES,
            #[cfg(feature = "tls12")]
            suites12: suites::tls12::DEFAULT_SUITES12,
            #[cfg(feature = "cbc")]
            enable_cbc: false,
            #[cfg(feature = "cbc")]
            cbc_decline_etm: false,
            certs,
            alpn: &[],
            groups: crate::kx::DEFAULT_GROUPS,
            key_exchanges: &[],
            client_auth: None,
            tickets: None,
            #[cfg(feature = "tls12")]
            session_cache: None,
            record_size_limit: None,
            psks: None,
            #[cfg(feature = "raw-public-keys")]
            raw_key: None,
        }
    }
}

/// The buffers a connection works in.
///
/// - `received` must hold one whole record. Without a negotiated limit that is
///   [`crate::record::MAX_RECORD_LEN`] (16 645 bytes). Once a limit is negotiated, a
///   protected record is at most `5 + P + 16` bytes (`+ 8` with CCM_8), where `P` is the
///   longest TLSInnerPlaintext we accept: our `record_size_limit` `L`, or `M + 1` for a
///   `max_fragment_length` of `M` bytes (content plus type byte; padding counts against
///   it). The peer's unprotected hello must fit too: a ServerHello record is about 130 bytes
///   (about 230 with a P-521 share, 1220 with X25519MLKEM768's, 1765 with
///   SecP384r1MLKEM1024's), a ClientHello a few hundred (plus the ticket when it resumes;
///   about 1.5 KB with the default X25519MLKEM768 and X25519 shares). A device with smaller
///   buffers configures [`crate::kx::CLASSICAL_GROUPS`]. So a client offering `L = 256`
///   (with classical groups) needs 277 bytes, with
///   `max_fragment_length` 512, 534; a server answering `L` needs `5 + L + 16` or the
///   ClientHello, whichever is longer. A limit is only in force if the peer negotiated it: a
///   peer that ignored the extension may send full-size records, which are then
///   [`Error::BufferTooSmall`].
/// - `send` must hold the largest flight: the server's is its chain plus about 600 bytes,
///   plus 22 bytes per extra record when the peer's limit splits it; a client's is its
///   ClientHello, or its Certificate, CertificateVerify and Finished.
/// - `handshake` must hold the largest handshake message pair (Certificate +
///   CertificateVerify) and the peer's hello (see above); messages are reassembled there across records whatever the record
///   size. A client offering a session ticket keeps the ticket at its end until the
///   ServerHello (to send it again after a HelloRetryRequest), and offers none longer than
///   half of it ([`crate::Connection::refused_ticket`] says so). The peer's Certificate message
///   stays at its start after the handshake, for [`crate::Connection::peer_identity`], until a
///   later message (a NewSessionTicket, a KeyUpdate) needs the room: no size to add. A TLS
///   1.2 client keeps the ticket of the server's NewSessionTicket at its end until the
///   server's Finished (one that does not fit is dropped, as
///   [`crate::Connection::refused_ticket`] says).
#[derive(Debug)]
pub struct Buffers<'b> {
    /// Received bytes not yet processed.
    pub received: &'b mut [u8],
    /// Records waiting to be sent.
    pub send: &'b mut [u8],
    /// Handshake message reassembly.
    pub handshake: &'b mut [u8],
}

/// Whether a configured `record_size_limit` is one RFC 8449 allows in TLS 1.3.
pub(crate) fn valid_record_size_limit(limit: Option<u16>) -> bool {
    limit.is_none_or(|l| (64..=MAX_PLAINTEXT_LEN as u16 + 1).contains(&l))
}

/// Whether `v` is a version this build speaks: TLS 1.3, and TLS 1.2 with the `tls12` feature
/// (without it, a configuration naming TLS 1.2 is [`ApiMisuse::BadConfig`]).
fn known_version(v: ProtocolVersion) -> bool {
    v == ProtocolVersion::TLSV1_3 || (cfg!(feature = "tls12") && v == ProtocolVersion::TLSV1_2)
}

/// Whether the key schedule runs every one of the suites' `hashes` (SHA-256 and SHA-384: a
/// custom suite naming another is [`ApiMisuse::BadConfig`]).
fn runs_hashes(mut hashes: impl Iterator<Item = HashAlg>) -> bool {
    hashes.all(|h| SuiteHash::new(h).is_ok())
}

impl ClientConfig<'_> {
    /// The checks a client configuration gets before a connection to `server_name` starts:
    /// a group to send a share for, suites, lists within [`MAX_LIST`], a name that fits SNI,
    /// valid record limits, and an external PSK with a suite for its hash.
    pub(crate) fn check(&self, server_name: &str) -> Result<(), Error> {
        #[cfg(feature = "cbc")]
        check_cbc(self.suites12, self.enable_cbc)?;
        #[cfg(feature = "tls12")]
        let bad12 = (self.offers(ProtocolVersion::TLSV1_2) && self.suites12.is_empty())
            || self.suites.len() + self.suites12.len() > 2 * MAX_LIST
            || !runs_hashes(self.suites12.iter().map(|s| s.hash));
        #[cfg(not(feature = "tls12"))]
        let bad12 = false;
        if self.groups.is_empty()
            || self.versions.is_empty()
            || !self.versions.iter().all(|v| known_version(*v))
            || (self.offers(ProtocolVersion::TLSV1_3) && self.suites.is_empty())
            || bad12
            || !runs_hashes(self.suites.iter().map(|s| s.hash))
            || !self.suites.iter().all(|s| suites::is_built_in(s.aead))
            || self.suites.len() > MAX_LIST
            || self.groups.len() > MAX_LIST
            || self.alpn.len() > MAX_LIST
            || server_name.len() > 255
            || !valid_record_size_limit(self.record_size_limit)
            || self.max_fragment_length.is_some_and(|m| m.bytes().is_none())
            || self
                .external_psk
                .is_some_and(|p| !p.is_valid() || !self.suites.iter().any(|s| s.hash == p.hash))
            // Without certificates only an external PSK or a pinned raw key can
            // authenticate the server.
            || (!cfg!(feature = "x509")
                && self.accepts_x509()
                && self.external_psk.is_none())
            || self.raw_keys_only() && !self.versions.contains(&ProtocolVersion::TLSV1_3)
            || (!cfg!(feature = "tickets") && self.tickets.is_some())
            || !self.raw_keys_valid()
            || self.groups.iter().any(|&g| {
                crate::kx::is_left_out(g) && !self.key_exchanges.iter().any(|k| k.group() == g)
            })
        {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        Ok(())
    }
}

impl<'a> ClientConfig<'a> {
    /// The ticket store: [`Self::tickets`] with the `tickets` feature, else none (and a
    /// configuration that names one is [`ApiMisuse::BadConfig`]), so that no resumption is
    /// linked.
    pub(crate) fn ticket_store(&self) -> Option<&'a dyn TicketStore> {
        if cfg!(feature = "tickets") { self.tickets } else { None }
    }

    /// Whether `version` is offered: TLS 1.2 not when only raw keys authenticate the server
    /// (RFC 7250 is done in TLS 1.3 only).
    pub(crate) fn offers(&self, version: ProtocolVersion) -> bool {
        self.versions.contains(&version)
            && !(version == ProtocolVersion::TLSV1_2 && self.raw_keys_only())
    }

    /// Whether the server may authenticate with an X.509 certificate: without pinned raw
    /// keys, or with [`PinnedKeys::allow_x509`].
    pub(crate) fn accepts_x509(&self) -> bool {
        !self.raw_keys_only()
    }

    /// The server's pinned raw keys, if any (none without the `raw-public-keys` feature).
    #[cfg_attr(not(feature = "raw-public-keys"), allow(clippy::unused_self))]
    pub(crate) fn server_pins(&self) -> Option<&Pins<'_>> {
        #[cfg(feature = "raw-public-keys")]
        return self.server_keys;
        #[cfg(not(feature = "raw-public-keys"))]
        None
    }

    /// Whether only pinned raw keys authenticate the server.
    #[cfg_attr(not(feature = "raw-public-keys"), allow(clippy::unused_self))]
    pub(crate) fn raw_keys_only(&self) -> bool {
        #[cfg(feature = "raw-public-keys")]
        return self.server_keys.is_some_and(|p| !p.allow_x509);
        #[cfg(not(feature = "raw-public-keys"))]
        false
    }

    /// Whether the raw keys configured are usable: pins and keys not empty, and pins only
    /// with a signature scheme built in to check them with.
    #[cfg_attr(not(feature = "raw-public-keys"), allow(clippy::unused_self))]
    fn raw_keys_valid(&self) -> bool {
        #[cfg(feature = "raw-public-keys")]
        return self.server_keys.is_none_or(PinnedKeys::is_usable)
            && self.client_raw_key.is_none_or(|k| !k.spki.is_empty());
        #[cfg(not(feature = "raw-public-keys"))]
        true
    }

    /// Whether the TLS 1.2 suite `suite` is offered (for a stored session).
    #[cfg(all(feature = "tls12", feature = "tickets"))]
    pub(crate) fn offers_suite12(&self, suite: crate::msgs::CipherSuite) -> bool {
        suites::tls12::find(self.suites12, suite).is_some()
    }

    /// Never: TLS 1.2 is not built (the `tls12` feature).
    #[cfg(all(not(feature = "tls12"), feature = "tickets"))]
    #[allow(clippy::unused_self)] // the signature of the `tls12` build
    pub(crate) fn offers_suite12(&self, _suite: crate::msgs::CipherSuite) -> bool {
        false
    }

    /// Whether the ClientHello must also be hashed with SHA-384, until the ServerHello picks
    /// the suite: an offered suite's hash is SHA-384, or our key may sign a TLS 1.2
    /// CertificateVerify over a running hash other than the suite's.
    #[cfg(feature = "sha384")]
    pub(crate) fn needs_sha384(&self) -> bool {
        let tls13 = self.offers(ProtocolVersion::TLSV1_3)
            && self.suites.iter().any(|s| s.hash == HashAlg::Sha384);
        #[cfg(feature = "tls12")]
        let tls12 = self.offers(ProtocolVersion::TLSV1_2)
            && (self.suites12.iter().any(|s| s.hash == HashAlg::Sha384)
                || self.client_cert.is_some_and(|ck| !ck.key.tls12_digest_schemes().is_empty()));
        #[cfg(not(feature = "tls12"))]
        let tls12 = false;
        tls13 || tls12
    }

    /// The highest version offered.
    #[cfg(feature = "tls12")]
    pub(crate) fn max_version(&self) -> ProtocolVersion {
        if self.offers(ProtocolVersion::TLSV1_3) {
            ProtocolVersion::TLSV1_3
        } else {
            ProtocolVersion::TLSV1_2
        }
    }
}

#[cfg_attr(not(feature = "server"), allow(dead_code))]
impl ServerConfig<'_> {
    /// The checks a server configuration gets before a connection starts: suites and groups,
    /// certificates with chains (or external PSKs to authenticate by instead), valid PSKs
    /// and record limit.
    pub(crate) fn check(&self) -> Result<(), Error> {
        #[cfg(feature = "cbc")]
        check_cbc(self.suites12, self.enable_cbc)?;
        // Without certificates only external PSKs can authenticate the server.
        let psk_only = self.psks.is_some_and(|p| !p.keys.is_empty());
        #[cfg(feature = "tls12")]
        let bad12 = (self.accepts(ProtocolVersion::TLSV1_2) && self.suites12.is_empty())
            || self.suites12.len() > MAX_LIST
            || !runs_hashes(self.suites12.iter().map(|s| s.hash));
        #[cfg(not(feature = "tls12"))]
        let bad12 = false;
        if self.versions.is_empty()
            || !self.versions.iter().all(|v| known_version(*v))
            || (self.accepts(ProtocolVersion::TLSV1_3) && self.suites.is_empty())
            || bad12
            || !runs_hashes(self.suites.iter().map(|s| s.hash))
            || !self.suites.iter().all(|s| suites::is_built_in(s.aead))
            || self.groups.is_empty()
            || self.groups.iter().any(|&g| {
                crate::kx::is_left_out(g) && !self.key_exchanges.iter().any(|k| k.group() == g)
            })
            || (self.certs.is_empty() && !psk_only && !self.has_raw_key())
            // Without certificates a client's cannot be checked.
            || (!cfg!(feature = "x509")
                && self.client_auth.is_some_and(|a| a.accepts_x509()))
            || !self.raw_keys_valid()
            || self.certs.iter().any(|c| c.chain.is_empty())
            || self.psks.is_some_and(|p| p.keys.iter().any(|k| !k.is_valid()))
            || !valid_record_size_limit(self.record_size_limit)
        {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        Ok(())
    }

    /// Whether `version` is accepted.
    pub(crate) fn accepts(&self, version: ProtocolVersion) -> bool {
        self.versions.contains(&version)
    }

    /// Whether we have a raw public key to authenticate with.
    #[cfg_attr(not(feature = "raw-public-keys"), allow(clippy::unused_self))]
    pub(crate) fn has_raw_key(&self) -> bool {
        #[cfg(feature = "raw-public-keys")]
        return self.raw_key.is_some();
        #[cfg(not(feature = "raw-public-keys"))]
        false
    }

    /// Whether the raw keys configured are usable: pins and key not empty, and pins only
    /// with a signature scheme built in to check them with.
    #[cfg_attr(not(feature = "raw-public-keys"), allow(clippy::unused_self))]
    fn raw_keys_valid(&self) -> bool {
        #[cfg(feature = "raw-public-keys")]
        return self.raw_key.is_none_or(|k| !k.spki.is_empty())
            && self.client_auth.and_then(|a| a.raw_keys).is_none_or(PinnedKeys::is_usable);
        #[cfg(not(feature = "raw-public-keys"))]
        true
    }
}

/// [`ApiMisuse::CbcNotEnabled`] for a CBC suite among `suites12` without `enable_cbc`.
#[cfg(feature = "cbc")]
fn check_cbc(suites12: &[Suite12], enable_cbc: bool) -> Result<(), Error> {
    if !enable_cbc && suites12.iter().any(Suite12::is_cbc) {
        return Err(Error::ApiMisuse(ApiMisuse::CbcNotEnabled));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ticket::SliceTicketStore;

    /// A ticket store is taken with the `tickets` feature, and is `BadConfig` without it
    /// (where no resumption is linked to use it); an external PSK alone is fine either way.
    #[test]
    fn a_ticket_store_needs_the_tickets_feature() {
        let clock = pki_types::UnixTime::since_unix_epoch(core::time::Duration::from_secs(0));
        let psk = ExternalPsk { identity: b"device", key: &[7; 32], hash: HashAlg::Sha256 };
        let base = ClientConfig { external_psk: Some(&psk), ..ClientConfig::new(&[], &clock) };
        assert_eq!(base.check("server.example"), Ok(()));
        let mut storage = [0u8; 256];
        let store = SliceTicketStore::new(&mut storage);
        let with_store = ClientConfig { tickets: Some(&store), ..base };
        let expected = if cfg!(feature = "tickets") {
            Ok(())
        } else {
            Err(Error::ApiMisuse(ApiMisuse::BadConfig))
        };
        assert_eq!(with_store.check("server.example"), expected);
        assert_eq!(with_store.ticket_store().is_some(), cfg!(feature = "tickets"));
    }
}
