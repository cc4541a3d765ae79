//! Sans-IO TLS 1.3 connections, client and server, over three caller-provided buffers
//! (BearSSL style): received records, records to send, and handshake reassembly. The caller
//! moves bytes between the buffers and the network; the connection says what it wants next
//! ([`Connection::want`]) and every error is sticky.
//!
//! The handshake is one state type per expected message; each consumes its message and
//! returns the next state. It negotiates the groups of [`crate::kx`] (with HelloRetryRequest
//! in both roles), Ed25519, ECDSA and RSA certificates in both directions (verified through
//! `rustls-webpki`; the server's chosen by SNI, client certificates on request), the
//! signature scheme, SNI and ALPN, resumption from tickets and external PSKs (no certificates
//! then), `record_size_limit` (RFC 8449) and `max_fragment_length` (RFC 6066) so that small
//! devices can use small record buffers, answers KeyUpdate, and turns every failure into a
//! typed [`Error`] and, where the RFC has one, an alert.

use core::mem;

use core_hash::{HmacDrbg, RandomSource, Sha256};
use pki_types::{TrustAnchor, UnixTime};

use crate::clock::Clock;
use crate::error::{
    ApiMisuse, BufferKind, CertificateError, Error, PeerIncompatible, PeerMisbehaved, SchemeSet,
};
use crate::key_schedule::{
    Digest, EarlySecret, HashAlg, MasterSecret, Secret, Transcript, finished_verify_data,
    next_traffic_secret, resumption_psk, verify_finished,
};
use crate::kx::KeyShare;
use crate::msgs::{
    AlertDescription, AlertLevel, Certificate, CertificateEntry, CertificateRequest,
    CertificateVerify, CipherSuite, ClientExtensions, ClientHello, Codec, ContentType,
    EncryptedExtensions, HandshakeMessage, HandshakeType, KeyShareEntry, KeyUpdateRequest, List,
    MaxFragmentLength, NamedGroup, ProtocolName, ProtocolVersion, ServerHello,
    ServerHelloExtensions, SignatureScheme, Writer, split_handshake,
};
use crate::msgs::{NewSessionTicket, OfferedPsks, PskBinder, PskIdentity, PskKeyExchangeMode};
use crate::provider::{KeyExchange, choose_scheme};
use crate::psk::{ExternalPsk, ServerPsks};
use crate::record::{HEADER_LEN, MAX_PLAINTEXT_LEN, RecordHeader, RecordProtection};
use crate::sign::{CertifiedKey, MAX_SIGNATURE_LEN};
use crate::suites::{self, Suite};
use crate::ticket::{
    ClientIdentity, Session, Ticket, TicketKey, TicketState, TicketStore, TicketTooLong,
};
use crate::verify::{self, CertVerifier};

/// The most entries a configured list (suites, groups, ALPN protocols) may hold.
const MAX_LIST: usize = 16;

/// The most certificates a received chain may hold.
const MAX_CHAIN: usize = 1 + verify::MAX_INTERMEDIATES;

/// The most early data a server skips (RFC 8446 §4.2.10), counted as the bodies of the
/// records it skips: 16 KiB of data plus 2 KiB for the records' type bytes, padding and tags.
/// This server never accepts early data; a client that offers it anyway is answered with a
/// full handshake, and the 0-RTT records it sends meanwhile — those that fail to decrypt with
/// the handshake key, or every protected record until the second ClientHello after a
/// HelloRetryRequest — are dropped up to this bound, past which the connection fails with
/// unexpected_message ([`PeerMisbehaved::TooMuchEarlyData`]). Each skipped record must fit
/// the receive buffer.
pub const MAX_SKIPPED_EARLY_DATA: usize = (1 << 14) + (1 << 11);

/// The most empty application-data records a peer may send in a row, with no application
/// data in between. RFC 8446 §5.1 allows empty application-data records (as traffic-analysis
/// cover), but each costs a decryption and carries nothing: a peer that sends more than this
/// is flooding, and the connection fails with unexpected_message
/// ([`PeerMisbehaved::TooManyEmptyRecords`]). BoringSSL uses the same bound.
pub const MAX_EMPTY_RECORDS: u8 = 32;

/// The most KeyUpdate messages (RFC 8446 §4.6.3) a peer may send with no application data
/// in between; each costs a key derivation and can ask for an answer, so past this bound the
/// connection fails with unexpected_message ([`PeerMisbehaved::TooManyKeyUpdates`]).
/// BoringSSL uses the same bound.
pub const MAX_KEY_UPDATES: u8 = 32;

/// The most user_canceled alerts (RFC 8446 §6.1, the only alert other than close_notify that
/// does not end the connection) a peer may send with no application data in between: past
/// this bound the connection fails with unexpected_message
/// ([`PeerMisbehaved::TooManyWarningAlerts`]). BoringSSL uses the same bound for warnings.
pub const MAX_USER_CANCELED: u8 = 4;

/// A client's settings.
#[derive(Clone, Copy, Debug)]
pub struct ClientConfig<'a> {
    /// Suites to offer, in order of preference.
    pub suites: &'a [Suite],
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
    /// with an empty Certificate).
    pub client_cert: Option<CertifiedKey<'a>>,
    /// Where tickets are kept: a ticket for the server name is offered for resumption, and
    /// the server's NewSessionTickets are stored (`None`: no resumption).
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
    /// against `roots` as usual.
    pub external_psk: Option<ExternalPsk<'a>>,
}

impl<'a> ClientConfig<'a> {
    /// A client that trusts `roots` and reads the time from `clock` (a [`UnixTime`] for a
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
            suites: suites::DEFAULT_SUITES,
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
        }
    }
}

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
}

impl<'a> ClientAuth<'a> {
    /// Client certificates required, checked to `roots` by `clock`. Set other fields with
    /// struct update syntax.
    pub const fn new(roots: &'a [TrustAnchor<'a>], clock: &'a dyn Clock) -> Self {
        Self { roots, verifier: None, required: true, clock }
    }
}

/// A server's settings.
#[derive(Clone, Copy, Debug)]
pub struct ServerConfig<'a> {
    /// Suites to accept, in the server's order of preference.
    pub suites: &'a [Suite],
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
    /// `unknown_psk_identity`.
    pub psks: Option<ServerPsks<'a>>,
}

impl<'a> ServerConfig<'a> {
    /// A server with the certificates `certs`, accepting the default suites
    /// ([`suites::DEFAULT_SUITES`]) and groups ([`crate::kx::DEFAULT_GROUPS`]), and nothing
    /// else: no ALPN, client authentication, tickets or external PSKs; record_size_limit
    /// answered with the protocol's 16385. Set other fields with struct update syntax, as
    /// for [`ClientConfig::new`].
    pub const fn new(certs: &'a [CertifiedKey<'a>]) -> Self {
        Self {
            suites: suites::DEFAULT_SUITES,
            certs,
            alpn: &[],
            groups: crate::kx::DEFAULT_GROUPS,
            key_exchanges: &[],
            client_auth: None,
            tickets: None,
            record_size_limit: None,
            psks: None,
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
///   (about 230 with a P-521 share), a ClientHello a few hundred (plus the ticket when it
///   resumes). So a client offering `L = 256` needs 277 bytes, with
///   `max_fragment_length` 512, 534; a server answering `L` needs `5 + L + 16` or the
///   ClientHello, whichever is longer. A limit is only in force if the peer negotiated it: a
///   peer that ignored the extension may send full-size records, which are then
///   [`Error::BufferTooSmall`].
/// - `send` must hold the largest flight: the server's is its chain plus about 600 bytes,
///   plus 22 bytes per extra record when the peer's limit splits it; a client's is its
///   ClientHello, or its Certificate, CertificateVerify and Finished.
/// - `handshake` must hold the largest handshake message pair (Certificate +
///   CertificateVerify); messages are reassembled there across records whatever the record
///   size. A client offering a session ticket keeps the ticket at its end until the
///   ServerHello (to send it again after a HelloRetryRequest), and offers none longer than
///   half of it ([`Connection::refused_ticket`] says so). The peer's Certificate message
///   stays at its start after the handshake, for [`Connection::peer_identity`], until a
///   later message (a NewSessionTicket, a KeyUpdate) needs the room: no size to add.
#[derive(Debug)]
pub struct Buffers<'b> {
    /// Received bytes not yet processed.
    pub received: &'b mut [u8],
    /// Records waiting to be sent.
    pub send: &'b mut [u8],
    /// Handshake message reassembly.
    pub handshake: &'b mut [u8],
}

/// The record sizes in force on a connection (RFC 8449, RFC 6066 §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordLimits {
    /// The most content bytes one protected record we send carries: 2^14, or the peer's
    /// `record_size_limit` less one, or the negotiated `max_fragment_length`.
    pub send: usize,
    /// The longest TLSInnerPlaintext (content, type byte, padding) we accept in a protected
    /// record: 2^14 + 1, or our `record_size_limit`, or the `max_fragment_length` plus one.
    /// Longer is `record_overflow`.
    pub receive: usize,
}

/// What the connection needs from the caller next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// Records are waiting in [`Connection::pending_send`]; send them.
    Send,
    /// Application data is ready for [`Connection::read`].
    Read,
    /// More records from the peer are needed.
    Receive,
    /// The peer closed the connection cleanly (and nothing remains to send).
    Closed,
    /// The connection failed (and nothing remains to send); see [`Connection::error`].
    Failed,
}

/// The negotiated parameters once the handshake is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Negotiated {
    /// The suite.
    pub suite: CipherSuite,
    /// The key-exchange group.
    pub group: NamedGroup,
    /// The server's signature scheme.
    pub scheme: SignatureScheme,
    /// The index of the selected ALPN protocol in the local configuration's list.
    pub alpn: Option<usize>,
    /// Whether the handshake went through a HelloRetryRequest.
    pub retried: bool,
    /// The scheme the client's CertificateVerify used, if the client authenticated with a
    /// certificate.
    pub client_auth: Option<SignatureScheme>,
    /// Whether the session was resumed from a ticket (with `group` `NamedGroup(0)` when it
    /// was resumed with `psk_ke`, without a key exchange).
    pub resumed: bool,
    /// Whether an external PSK authenticated the handshake (no certificates; `scheme` is
    /// `SignatureScheme(0)`, and `group` `NamedGroup(0)` in `psk_ke` mode).
    pub external_psk: bool,
}

/// How the peer authenticated (RFC 8446 §4.4.2, §4.2.11), so an application can tell peers
/// apart; see [`Connection::peer_identity`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerIdentity<'c> {
    /// A certificate: checked in this handshake, or, on a server, in the handshake a
    /// resumed session came from.
    Certificate {
        /// The SHA-256 of the end-entity certificate's DER: also known on a resumed session
        /// (the server's ticket carries it).
        end_entity_sha256: [u8; 32],
        /// The chain as the peer sent it, end-entity first: kept in the handshake buffer
        /// after the handshake (`None` on a resumed session, which has no chain, or once a
        /// later handshake message needed the room).
        chain: Option<CertificateChain<'c>>,
    },
    /// An external PSK, by its identity: the one this handshake took, or, on a server, the
    /// one the handshake a resumed session came from took.
    ExternalPsk(&'c [u8]),
}

/// A peer's certificate chain as received, borrowed from the handshake buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CertificateChain<'c>(List<'c, CertificateEntry<'c>, crate::msgs::U24>);

impl<'c> CertificateChain<'c> {
    /// The end-entity certificate (DER).
    pub fn end_entity(&self) -> Option<&'c [u8]> {
        self.iter().next()
    }

    /// The certificates (DER), end-entity first, then the intermediates as sent.
    pub fn iter(&self) -> impl Iterator<Item = &'c [u8]> + use<'c> {
        self.0.iter().map(|e| e.cert)
    }
}

struct ClientHelloSent {
    key: KeyShare,
    random: [u8; 32],
    session_id: [u8; 32],
    th256: Transcript,
    th384: Transcript,
    /// The PSK offered, if any.
    psk: Option<Offered>,
}

/// The PSK a client offers: a ticket for resumption, or the configured external PSK.
enum Offered {
    /// The ticket's session; the ticket itself is kept at the end of the handshake buffer
    /// until the ServerHello.
    Ticket(Session),
    External,
}

impl Offered {
    /// The hash the PSK is bound to.
    fn hash(&self, config: &ClientConfig<'_>) -> Option<HashAlg> {
        match self {
            Self::Ticket(t) => ticket_hash(t),
            Self::External => config.external_psk.map(|p| p.hash),
        }
    }

    /// The key.
    fn key<'k>(&'k self, config: &ClientConfig<'k>) -> &'k [u8] {
        match self {
            Self::Ticket(t) => t.psk(),
            Self::External => config.external_psk.map_or(&[], |p| p.key),
        }
    }
}

/// After a HelloRetryRequest and the second ClientHello: the suite is fixed and the
/// transcript holds `message_hash(ClientHello1)`, the HRR and ClientHello2.
struct RetrySent {
    key: KeyShare,
    session_id: [u8; 32],
    suite: Suite,
    transcript: Transcript,
    psk: Option<Offered>,
}

struct Handshaking {
    suite: Suite,
    transcript: Transcript,
    client_hs: Secret,
    server_hs: Secret,
    master: MasterSecret,
    /// Client only: what the server's CertificateRequest, if any, calls for.
    reply: CertificateReply,
}

/// A client's answer to a CertificateRequest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CertificateReply {
    /// No CertificateRequest came.
    NotRequested,
    /// An empty Certificate: no certificate configured, or none the server accepts.
    Empty,
    /// Our certificate, and a CertificateVerify with this scheme.
    Sign(SignatureScheme),
}

struct ClientExpectFinished {
    hs: Handshaking,
}

struct ServerExpectFinished {
    client_hs: Secret,
    client_app: Secret,
    /// The exporter master secret (over the transcript through server Finished).
    exporter: Secret,
    transcript: Transcript,
    suite: Suite,
    master: MasterSecret,
    /// Whether the client listed a resumption mode we take, so tickets are of use to it.
    send_tickets: bool,
}

struct Retry {
    suite: Suite,
    group: NamedGroup,
    transcript: Transcript,
}

struct Traffic {
    suite: Suite,
    read_secret: Secret,
    write_secret: Secret,
    /// The exporter master secret, for [`Connection::export_keying_material`].
    exporter: Secret,
    /// Client: the resumption master secret, for the PSKs of NewSessionTickets.
    resumption: Option<Secret>,
    /// Whether we have answered a peer's update_requested and sent no application data
    /// since: another request is then answered already (RFC 8446 §4.6.3: any number of
    /// requests while we are silent get a single update).
    updated_since_data: bool,
}

/// One handshake state per expected message. The client's hello states carry the offered
/// ticket, so they are the large ones; with no allocator there is nothing to box into.
#[allow(clippy::large_enum_variant)]
enum State {
    ClientExpectServerHello(ClientHelloSent),
    ClientExpectServerHello2(RetrySent),
    ClientExpectEncryptedExtensions(Handshaking),
    ClientExpectCertificate(Handshaking),
    ClientExpectFinished(ClientExpectFinished),
    ServerExpectClientHello {
        random: [u8; 32],
    },
    /// After a HelloRetryRequest: the suite is fixed and the transcript holds
    /// `message_hash(ClientHello1)` and the HRR.
    ServerExpectClientHello2 {
        random: [u8; 32],
        retry: Retry,
    },
    /// With client authentication: the client's Certificate (and CertificateVerify) come
    /// before its Finished.
    ServerExpectCertificate(ServerExpectFinished),
    ServerExpectFinished(ServerExpectFinished),
    Traffic(Traffic),
    Dead,
}

/// The record side of a connection: the send and receive buffers and the keys.
struct Io<'b> {
    rx: &'b mut [u8],
    /// Where the unprocessed received bytes start: records are consumed by moving this
    /// offset, and the bytes are moved to the front only when that is worth it (see
    /// [`Connection::receive_space`]), so receiving costs time linear in the bytes received.
    rx_start: usize,
    /// Where the received bytes end.
    rx_len: usize,
    tx: &'b mut [u8],
    tx_len: usize,
    /// The most content bytes one protected record to the peer may carry: 2^14, or less when
    /// the peer's `record_size_limit` or a `max_fragment_length` asks for it.
    send_limit: usize,
    /// The longest TLSInnerPlaintext (content, type byte and padding) a protected record from
    /// the peer may carry: 2^14 + 1, or the negotiated limit (longer is `record_overflow`).
    recv_limit: usize,
    read_key: Option<RecordProtection>,
    write_key: Option<RecordProtection>,
}

impl Io<'_> {
    /// Queues one handshake message as one record (protected once keys are set), adding it
    /// to `transcript`.
    fn send_handshake(
        &mut self,
        msg: &HandshakeMessage<'_>,
        transcript: Option<&mut Transcript>,
    ) -> Result<(), Error> {
        self.send_handshake_patched(msg, transcript, |_| Ok(()))
    }

    /// As [`send_handshake`](Self::send_handshake), letting `patch` change the encoded
    /// message before it is hashed and sealed (to fill in PSK binders).
    fn send_handshake_patched(
        &mut self,
        msg: &HandshakeMessage<'_>,
        transcript: Option<&mut Transcript>,
        patch: impl FnOnce(&mut [u8]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let start = self.tx_len;
        let too_small = |io: &Self| {
            let mut m = Writer::measuring();
            let n = msg.encode(&mut m).map_or(0, |()| m.len());
            Error::too_small(BufferKind::Send, start + io.queued_len(n))
        };
        let Some(body) = self.tx.get_mut(start + HEADER_LEN..) else {
            return Err(too_small(self));
        };
        let mut w = Writer::new(body);
        if msg.encode(&mut w).is_err() {
            return Err(too_small(self));
        }
        let n = w.len();
        if n > MAX_PLAINTEXT_LEN {
            // A handshake message is sent in one record: a certificate chain that long is not
            // usable.
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        patch(&mut self.tx[start + HEADER_LEN..start + HEADER_LEN + n])?;
        if let Some(t) = transcript {
            t.update(&self.tx[start + HEADER_LEN..start + HEADER_LEN + n]);
        }
        self.seal_queued(ContentType::HANDSHAKE, start, n)
    }

    /// The bytes `n` bytes of content take once queued: one record before keys, else as
    /// many protected records as the peer's limit asks for.
    fn queued_len(&self, n: usize) -> usize {
        let Some(k) = &self.write_key else { return HEADER_LEN + n };
        let limit = self.send_limit.max(1);
        let count = n.div_ceil(limit).max(1);
        k.sealed_len(limit, 0) * (count - 1) + k.sealed_len(n - limit * (count - 1), 0)
    }

    /// Protects (or frames, before keys) `n` bytes already at `tx[start + 5..]`. Protected
    /// content longer than the peer's record size limit is split over several records: the
    /// chunks are moved apart (last first, so none is overwritten) to make room for each
    /// record's header, type byte and tag, then sealed in order.
    fn seal_queued(&mut self, typ: ContentType, start: usize, n: usize) -> Result<(), Error> {
        let Some(k) = &mut self.write_key else {
            RecordHeader::write(typ, n, &mut self.tx[start..]);
            self.tx_len += HEADER_LEN + n;
            return Ok(());
        };
        let limit = self.send_limit.max(1);
        let count = n.div_ceil(limit).max(1);
        let per = k.sealed_len(limit, 0);
        let last = n - limit * (count - 1);
        let end = start + per * (count - 1) + k.sealed_len(last, 0);
        if end > self.tx.len() {
            return Err(Error::too_small(BufferKind::Send, end));
        }
        for i in (1..count).rev() {
            let from = start + HEADER_LEN + i * limit;
            let len = limit.min(n - i * limit);
            self.tx.copy_within(from..from + len, start + i * per + HEADER_LEN);
        }
        for i in 0..count {
            let len = limit.min(n - i * limit);
            let total = k.seal_in_place(typ, &mut self.tx[start + i * per..], len, 0)?;
            self.tx_len += total;
        }
        Ok(())
    }

    fn send_plain(&mut self, typ: ContentType, data: &[u8]) -> Result<(), Error> {
        let start = self.tx_len;
        let needed = start + self.queued_len(data.len());
        let body = self
            .tx
            .get_mut(start + HEADER_LEN..start + HEADER_LEN + data.len())
            .ok_or(Error::too_small(BufferKind::Send, needed))?;
        body.copy_from_slice(data);
        self.seal_queued(typ, start, data.len())
    }

    fn send_alert(&mut self, desc: AlertDescription) {
        let level = if desc == AlertDescription::CLOSE_NOTIFY {
            AlertLevel::WARNING
        } else {
            AlertLevel::FATAL
        };
        // Best effort: with no room left the alert is dropped, the error stays.
        let _ = self.send_plain(ContentType::ALERT, &[level.0, desc.0]);
    }
}

/// Everything but the handshake buffer and the state, so a handler can borrow a message from
/// the buffer while it changes the rest.
struct Core<'a, 'b> {
    io: Io<'b>,
    client: Option<ClientConfig<'a>>,
    server: Option<ServerConfig<'a>>,
    sni: [u8; 255],
    sni_len: usize,
    /// Where the current application-data record's plaintext sits in `rx`, and where the
    /// record ends.
    app: Option<(usize, usize, usize)>,
    error: Option<Error>,
    peer_closed: bool,
    /// Whether the peer's change_cipher_spec has come: it sends one at most (RFC 8446
    /// Appendix D.4), so a second is unexpected_message.
    ccs_received: bool,
    /// Server: while the early data a client offered (which we decline) is still to be
    /// skipped (RFC 8446 §4.2.10), the record bytes skipped so far.
    skip_early: Option<usize>,
    /// What the peer sent that carries no application data since the last record that did.
    since_data: SinceData,
    negotiated: Option<Negotiated>,
    key_changed: bool,
    /// The server's application write secret between its Finished and the client's.
    server_app: Option<Secret>,
    /// The parameters agreed so far; copied to `negotiated` when the handshake completes.
    params: Negotiated,
    /// A per-connection generator seeded from the caller's source at construction, for the
    /// randomness needed while handling messages (key shares chosen by the peer, signatures).
    rng: HmacDrbg<Sha256>,
    /// Client: the last session ticket that did not fit its storage.
    refused_ticket: Option<TicketTooLong>,
    /// Server: who the client is (for the tickets we issue).
    client_identity: ClientIdentity,
    /// Server: when the session was authenticated, if before this handshake (resumed).
    authenticated_at: Option<u64>,
    /// The SHA-256 of the peer's end-entity certificate (server: also from a ticket).
    peer_cert_sha256: Option<[u8; 32]>,
    /// The identity of the external PSK that authenticated the peer (server: also of a
    /// resumed session's).
    peer_psk: Option<&'a [u8]>,
}

/// Counts of records and messages that carry no application data, received since the last
/// application-data record that did; each is bounded (by [`MAX_EMPTY_RECORDS`],
/// [`MAX_KEY_UPDATES`] and [`MAX_USER_CANCELED`]) so that a peer cannot keep a connection busy
/// without end while sending nothing.
#[derive(Clone, Copy, Debug, Default)]
struct SinceData {
    empty_records: u8,
    key_updates: u8,
    user_canceled: u8,
}

impl SinceData {
    /// Counts one more of what `count` picks; `err` once past `max`.
    fn count(
        &mut self,
        count: fn(&mut Self) -> &mut u8,
        max: u8,
        err: PeerMisbehaved,
    ) -> Result<(), Error> {
        let n = count(self);
        *n = n.saturating_add(1);
        if *n > max { Err(err.into()) } else { Ok(()) }
    }
}

/// A TLS 1.3 connection, client or server, over caller-provided buffers.
///
/// See `tests/handshake.rs` for a client and a server driven against each other in memory.
pub struct Connection<'a, 'b> {
    c: Core<'a, 'b>,
    hs: &'b mut [u8],
    hs_len: usize,
    /// Where handshake reassembly starts in `hs`: after the peer's Certificate message once
    /// it is checked (kept for [`Connection::peer_identity`] until the room is needed).
    hs_start: usize,
    /// Where handshake reassembly ends in `hs`: its length, less the ticket a client offers
    /// (kept at the end until the ServerHello, to be sent again after a HelloRetryRequest).
    hs_end: usize,
    state: State,
}

impl core::fmt::Debug for Connection<'_, '_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Connection")
            .field("negotiated", &self.c.negotiated)
            .field("error", &self.c.error)
            .finish_non_exhaustive()
    }
}

fn random<const N: usize>(rng: &mut dyn RandomSource) -> Result<[u8; N], Error> {
    let mut out = [0u8; N];
    rng.fill(&mut out).map_err(|_| Error::RandomFailed)?;
    Ok(out)
}

impl<'a, 'b> Connection<'a, 'b> {
    fn new(bufs: Buffers<'b>, state: State, rng: &mut dyn RandomSource) -> Result<Self, Error> {
        let Buffers { received, send, handshake } = bufs;
        let rng = HmacDrbg::from_source(&mut &mut *rng, b"halite tls connection")
            .map_err(|_| Error::RandomFailed)?;
        Ok(Self {
            c: Core {
                io: Io {
                    rx: received,
                    rx_start: 0,
                    rx_len: 0,
                    tx: send,
                    tx_len: 0,
                    send_limit: MAX_PLAINTEXT_LEN,
                    recv_limit: MAX_PLAINTEXT_LEN + 1,
                    read_key: None,
                    write_key: None,
                },
                client: None,
                server: None,
                sni: [0; 255],
                sni_len: 0,
                app: None,
                error: None,
                peer_closed: false,
                ccs_received: false,
                since_data: SinceData::default(),
                skip_early: None,
                negotiated: None,
                key_changed: false,
                server_app: None,
                params: Negotiated {
                    suite: CipherSuite(0),
                    group: NamedGroup(0),
                    scheme: SignatureScheme(0),
                    alpn: None,
                    retried: false,
                    client_auth: None,
                    resumed: false,
                    external_psk: false,
                },
                rng,
                refused_ticket: None,
                client_identity: ClientIdentity::Anonymous,
                authenticated_at: None,
                peer_cert_sha256: None,
                peer_psk: None,
            },
            hs_end: handshake.len(),
            hs: handshake,
            hs_len: 0,
            hs_start: 0,
            state,
        })
    }

    /// Starts a client handshake with `server_name` (sent as SNI and checked against the
    /// certificate); the ClientHello is queued at once.
    pub fn client(
        config: ClientConfig<'a>,
        server_name: &'a str,
        bufs: Buffers<'b>,
        rng: &mut dyn RandomSource,
    ) -> Result<Self, Error> {
        let Some(&first_group) = config.groups.first() else {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        };
        if config.suites.is_empty()
            || config.suites.len() > MAX_LIST
            || config.groups.len() > MAX_LIST
            || config.alpn.len() > MAX_LIST
            || server_name.len() > 255
            || !valid_record_size_limit(config.record_size_limit)
            || config.max_fragment_length.is_some_and(|m| m.bytes().is_none())
            || config
                .external_psk
                .is_some_and(|p| !p.is_valid() || !config.suites.iter().any(|s| s.hash == p.hash))
        {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        let mut conn = Self::new(bufs, State::Dead, rng)?;
        conn.c.client = Some(config);
        let name = server_name.as_bytes();
        conn.c.sni[..name.len()].copy_from_slice(name);
        conn.c.sni_len = name.len();
        let key = KeyShare::generate(first_group, config.key_exchanges, rng)?;
        let random_bytes: [u8; 32] = random(rng)?;
        let session_id: [u8; 32] = random(rng)?;
        // A ticket for the server if there is one, else the external PSK.
        let psk = conn.take_ticket(&config, server_name).map(Offered::Ticket);
        let psk = psk.or(config.external_psk.map(|_| Offered::External));
        let mut th256 = Transcript::new(HashAlg::Sha256);
        let binder_base = psk.as_ref().and_then(|p| Some(Transcript::new(p.hash(&config)?)));
        let offer = psk.as_ref().zip(binder_base).map(|(p, t)| (p, &conn.hs[conn.hs_end..], t));
        send_client_hello(&mut conn.c, &random_bytes, &session_id, &key, None, &mut th256, offer)?;
        let mut th384 = Transcript::new(HashAlg::Sha384);
        th384.update(&conn.c.io.tx[HEADER_LEN..conn.c.io.tx_len]);
        conn.state = State::ClientExpectServerHello(ClientHelloSent {
            key,
            random: random_bytes,
            session_id,
            th256,
            th384,
            psk,
        });
        Ok(conn)
    }

    /// Client: takes the store's ticket for `server_name` into the end of the handshake
    /// buffer, where it stays until the ServerHello. It may use half the buffer; the rest is
    /// for the ServerHello (or HelloRetryRequest). Returns its session if it can be offered:
    /// within its lifetime, for a suite we offer.
    fn take_ticket(&mut self, config: &ClientConfig<'_>, server_name: &str) -> Option<Session> {
        let store = config.tickets?;
        let room = self.hs.len() / 2;
        let (len, session) = match store.take(server_name, &mut self.hs[..room]) {
            Ok(t) => t.map(|t| (t.ticket().len(), t.into_session()))?,
            Err(e) => {
                self.c.refused_ticket = Some(e);
                return None;
            }
        };
        let now = config.clock.now().as_secs();
        if !session.is_valid_at(now) || suites::find(config.suites, session.suite()).is_none() {
            return None;
        }
        self.hs_end = self.hs.len() - len;
        self.hs.copy_within(..len, self.hs_end);
        Some(session)
    }

    /// Starts a server connection, waiting for a ClientHello.
    pub fn server(
        config: ServerConfig<'a>,
        bufs: Buffers<'b>,
        rng: &mut dyn RandomSource,
    ) -> Result<Self, Error> {
        // Without certificates only external PSKs can authenticate the server.
        let psk_only = config.psks.is_some_and(|p| !p.keys.is_empty());
        if config.suites.is_empty()
            || config.groups.is_empty()
            || (config.certs.is_empty() && !psk_only)
            || config.certs.iter().any(|c| c.chain.is_empty())
            || config.psks.is_some_and(|p| p.keys.iter().any(|k| !k.is_valid()))
            || !valid_record_size_limit(config.record_size_limit)
        {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        let random = random(rng)?;
        let mut conn = Self::new(bufs, State::ServerExpectClientHello { random }, rng)?;
        conn.c.server = Some(config);
        Ok(conn)
    }

    /// What the connection needs next.
    pub fn want(&self) -> Want {
        if self.c.io.tx_len > 0 {
            Want::Send
        } else if self.c.error.is_some() {
            Want::Failed
        } else if self.c.app.is_some() {
            Want::Read
        } else if self.c.peer_closed {
            Want::Closed
        } else {
            Want::Receive
        }
    }

    /// Client: the last session ticket that did not fit its storage, with its length and
    /// the room there was — a NewSessionTicket the [`TicketStore`] could not keep, or a kept
    /// ticket longer than half the handshake buffer, which is then not offered. The
    /// connection goes on without it (no resumption next time).
    pub fn refused_ticket(&self) -> Option<TicketTooLong> {
        self.c.refused_ticket
    }

    /// The sticky error, once the connection has failed.
    pub fn error(&self) -> Option<Error> {
        self.c.error
    }

    /// Whether the handshake is still running.
    pub fn is_handshaking(&self) -> bool {
        !matches!(self.state, State::Traffic(_))
    }

    /// The negotiated parameters, once the handshake is done.
    pub fn negotiated(&self) -> Option<Negotiated> {
        self.c.negotiated
    }

    /// How the peer authenticated, once the handshake is done: its certificate (the chain
    /// itself while it is kept in the handshake buffer, which costs the buffer the size of
    /// the peer's Certificate message for the rest of the connection, given up when a later
    /// message needs the room), or the external PSK. On a resumed session a server knows
    /// what its ticket carried: the end-entity certificate's SHA-256 or the PSK identity; a
    /// client, the server certificate's SHA-256 its ticket kept (`None` for a session an
    /// external PSK authenticated). `None` as well for a client that did not authenticate.
    pub fn peer_identity(&self) -> Option<PeerIdentity<'_>> {
        self.c.negotiated?;
        if let Some(identity) = self.c.peer_psk {
            return Some(PeerIdentity::ExternalPsk(identity));
        }
        let end_entity_sha256 = self.c.peer_cert_sha256?;
        let chain = match HandshakeMessage::decode(&self.hs[..self.hs_start]) {
            Ok(HandshakeMessage::Certificate(cert)) => Some(CertificateChain(cert.entries)),
            _ => None,
        };
        Some(PeerIdentity::Certificate { end_entity_sha256, chain })
    }

    /// The record sizes in force: the protocol's until the handshake negotiates smaller ones
    /// (the client learns them from EncryptedExtensions).
    pub fn record_limits(&self) -> RecordLimits {
        RecordLimits { send: self.c.io.send_limit, receive: self.c.io.recv_limit }
    }

    /// The server name: the one asked for (client) or received as SNI (server, a DNS host
    /// name without a trailing dot: anything else is refused, RFC 6066 §3), if any.
    pub fn server_name(&self) -> Option<&str> {
        let name = &self.c.sni[..self.c.sni_len];
        if name.is_empty() { None } else { core::str::from_utf8(name).ok() }
    }

    /// Bytes to send to the peer.
    pub fn pending_send(&self) -> &[u8] {
        &self.c.io.tx[..self.c.io.tx_len]
    }

    /// Marks the first `n` bytes of [`Connection::pending_send`] as sent.
    pub fn sent(&mut self, n: usize) {
        let n = n.min(self.c.io.tx_len);
        self.c.io.tx.copy_within(n..self.c.io.tx_len, 0);
        self.c.io.tx_len -= n;
    }

    /// The free space received bytes go into; follow with [`Connection::received`].
    ///
    /// The unprocessed bytes are first moved to the front of the buffer when the processed
    /// ones before them are at least as many (so each byte moved was paid for by one
    /// consumed) or when the record they start cannot complete where it is; never while
    /// application data waits to be read.
    pub fn receive_space(&mut self) -> &mut [u8] {
        let io = &mut self.c.io;
        if io.rx_start > 0 && self.c.app.is_none() {
            let live = io.rx_len - io.rx_start;
            let need = match RecordHeader::parse(&io.rx[io.rx_start..io.rx_len]) {
                Ok(Some(h)) => HEADER_LEN + h.len,
                _ => HEADER_LEN,
            };
            if io.rx_start >= live || io.rx_start + need > io.rx.len() {
                io.rx.copy_within(io.rx_start..io.rx_len, 0);
                io.rx_len = live;
                io.rx_start = 0;
            }
        }
        &mut self.c.io.rx[self.c.io.rx_len..]
    }

    /// Processes `n` bytes just written into [`Connection::receive_space`].
    pub fn received(&mut self, n: usize) -> Result<(), Error> {
        if let Some(e) = self.c.error {
            return Err(e);
        }
        self.c.io.rx_len = (self.c.io.rx_len + n).min(self.c.io.rx.len());
        let r = self.process();
        self.fail_on(r)
    }

    /// Copies received application data into `out`; returns the bytes copied (0 when none
    /// is ready: check [`Connection::want`]). Data that arrived before a failure is returned
    /// first: when the records after it fail, the error (and its alert, queued to send) comes
    /// from the next call.
    pub fn read(&mut self, out: &mut [u8]) -> Result<usize, Error> {
        let Some((start, end, record_end)) = self.c.app else {
            return self.c.error.map_or(Ok(0), Err);
        };
        let n = out.len().min(end - start);
        out[..n].copy_from_slice(&self.c.io.rx[start..start + n]);
        if start + n == end {
            self.c.app = None;
            self.consume_rx(record_end - self.c.io.rx_start);
            // A failure in the records after this one is sticky: the next call returns it.
            let r = self.process();
            let _ = self.fail_on(r);
        } else {
            self.c.app = Some((start + n, end, record_end));
        }
        Ok(n)
    }

    /// Queues application data as records; returns the bytes taken (fewer than `data.len()`
    /// when the send buffer is full).
    pub fn write(&mut self, data: &[u8]) -> Result<usize, Error> {
        if let Some(e) = self.c.error {
            return Err(e);
        }
        if self.is_handshaking() {
            return Err(Error::ApiMisuse(ApiMisuse::HandshakeNotComplete));
        }
        let mut done = 0;
        while done < data.len() {
            let overhead = HEADER_LEN + 1 + 16;
            let room = self.c.io.tx.len() - self.c.io.tx_len;
            if room <= overhead {
                break;
            }
            let n = (data.len() - done).min(room - overhead).min(self.c.io.send_limit);
            self.c.io.send_plain(ContentType::APPLICATION_DATA, &data[done..done + n])?;
            done += n;
        }
        if let (State::Traffic(t), true) = (&mut self.state, done > 0) {
            t.updated_since_data = false;
        }
        Ok(done)
    }

    /// Queues a close_notify alert.
    pub fn close(&mut self) {
        self.c.io.send_alert(AlertDescription::CLOSE_NOTIFY);
    }

    /// Asks the peer to update its keys and updates ours (RFC 8446 §4.6.3).
    pub fn key_update(&mut self) -> Result<(), Error> {
        let State::Traffic(t) = &mut self.state else {
            return Err(Error::ApiMisuse(ApiMisuse::HandshakeNotComplete));
        };
        let msg = HandshakeMessage::KeyUpdate(KeyUpdateRequest::UPDATE_REQUESTED);
        self.c.io.send_handshake(&msg, None)?;
        t.write_secret = next_traffic_secret(&t.write_secret);
        self.c.io.write_key = Some(RecordProtection::new(t.suite.aead, &t.write_secret)?);
        Ok(())
    }

    /// Fills `out` with keying material exported under `label` and `context` (RFC 8446 §7.5,
    /// RFC 5705): `HKDF-Expand-Label(Derive-Secret(exporter_master_secret, label, ""),
    /// "exporter", Hash(context), out.len())`, the same on both ends of the connection, for
    /// protocols that bind keys or tokens to the TLS session. TLS 1.3 makes no difference
    /// between an empty and an absent context. Only once the handshake is done
    /// ([`ApiMisuse::HandshakeNotComplete`] before, the sticky error after a failure); a label
    /// over 249 bytes or more than 255 hash lengths of output is [`ApiMisuse::BadConfig`].
    pub fn export_keying_material(
        &self,
        label: &[u8],
        context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        if let Some(e) = self.c.error {
            return Err(e);
        }
        let State::Traffic(t) = &self.state else {
            return Err(Error::ApiMisuse(ApiMisuse::HandshakeNotComplete));
        };
        let alg = t.suite.hash;
        if label.len() > 249 || out.len() > 255 * alg.output_len() {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        let secret = alg.derive_secret(&t.exporter, label, &alg.hash(&[]));
        alg.expand_label(&secret, b"exporter", alg.hash(context).as_ref(), out);
        Ok(())
    }

    fn fail_on(&mut self, r: Result<(), Error>) -> Result<(), Error> {
        if let Err(e) = r {
            if self.c.error.is_none() {
                self.c.error = Some(e);
                self.c.app = None;
                self.state = State::Dead;
                if let Some(alert) = e.alert() {
                    self.c.io.send_alert(alert);
                }
            }
            return Err(e);
        }
        Ok(())
    }

    /// Marks the next `n` received bytes processed.
    fn consume_rx(&mut self, n: usize) {
        let io = &mut self.c.io;
        io.rx_start += n;
        if io.rx_start == io.rx_len {
            io.rx_start = 0;
            io.rx_len = 0;
        }
    }

    /// Reads whole records from the receive buffer until application data is ready or
    /// more bytes are needed.
    fn process(&mut self) -> Result<(), Error> {
        while self.c.app.is_none() && !self.c.peer_closed {
            let base = self.c.io.rx_start;
            let Some(header) = RecordHeader::parse(&self.c.io.rx[base..self.c.io.rx_len])? else {
                break;
            };
            // RFC 8449 §4 and RFC 8446 §5.4: a protected record's TLSInnerPlaintext (its body
            // less the tag) within our limit, an unprotected one within 2^14. Checked on the
            // header, so a record over the limit is `record_overflow` even when it would not
            // fit a receive buffer sized for the limit. Early data we may skip was sent before
            // the client knew our limit: it is checked once it decrypts.
            let max_body = match &self.c.io.read_key {
                Some(k) if header.typ != ContentType::CHANGE_CIPHER_SPEC => {
                    self.c.io.recv_limit + k.alg().tag_len()
                }
                _ => MAX_PLAINTEXT_LEN,
            };
            let skipping =
                self.c.skip_early.is_some() && header.typ == ContentType::APPLICATION_DATA;
            if header.len > max_body && !skipping {
                return Err(Error::RecordOverflow);
            }
            let total = HEADER_LEN + header.len;
            if total > self.c.io.rx.len() {
                return Err(Error::too_small(BufferKind::Received, total));
            }
            if self.c.io.rx_len - base < total {
                break;
            }
            if header.typ == ContentType::CHANGE_CIPHER_SPEC {
                // Middlebox compatibility: one byte 0x01, only after the first ClientHello
                // and before the peer's Finished (RFC 8446 §5), never inside a fragmented
                // handshake message (§5.1).
                if self.hs_len != 0 {
                    return Err(PeerMisbehaved::InterleavedOrUnalignedRecords.into());
                }
                if !self.is_handshaking()
                    || self.c.ccs_received
                    || matches!(self.state, State::ServerExpectClientHello { .. })
                    || self.c.io.rx[base + HEADER_LEN..base + total] != [1]
                {
                    return Err(PeerMisbehaved::UnexpectedMessage.into());
                }
                self.c.ccs_received = true;
                self.consume_rx(total);
                continue;
            }
            // Where the content sits in `rx`; `None` for early data to skip (RFC 8446
            // §4.2.10): before the second ClientHello every protected record, after a
            // ServerHello those that fail with the handshake key (which leaves its sequence
            // number as it was).
            let opened = match &mut self.c.io.read_key {
                None if skipping => None,
                None => Some((header.typ, base + HEADER_LEN, base + total)),
                Some(k) => match k.open(&mut self.c.io.rx[base..base + total]) {
                    Ok((typ, content)) => {
                        Some((typ, base + HEADER_LEN, base + HEADER_LEN + content.len()))
                    }
                    Err(Error::DecryptFailed) if skipping => None,
                    Err(e) => return Err(e),
                },
            };
            let Some((typ, start, end)) = opened else {
                // Early data we would skip still may not come between the fragments of a
                // handshake message (RFC 8446 §5.1).
                if self.hs_len != 0 {
                    return Err(PeerMisbehaved::InterleavedOrUnalignedRecords.into());
                }
                let skipped = self.c.skip_early.unwrap_or(0) + header.len;
                if skipped > MAX_SKIPPED_EARLY_DATA {
                    return Err(PeerMisbehaved::TooMuchEarlyData.into());
                }
                self.c.skip_early = Some(skipped);
                self.consume_rx(total);
                continue;
            };
            if skipping {
                // The client's first record under the handshake key ends its early data.
                self.c.skip_early = None;
                if header.len > max_body {
                    return Err(Error::RecordOverflow);
                }
            }
            if self.c.io.read_key.is_none() && typ == ContentType::APPLICATION_DATA {
                return Err(PeerMisbehaved::UnexpectedMessage.into());
            }
            match typ {
                ContentType::HANDSHAKE => {
                    if start == end {
                        return Err(PeerMisbehaved::EmptyRecord.into());
                    }
                    let n = end - start;
                    if self.hs_start + self.hs_len + n > self.hs_end && self.hs_start > 0 {
                        // The kept peer certificate gives its room to reassembly.
                        self.hs.copy_within(self.hs_start..self.hs_start + self.hs_len, 0);
                        self.hs_start = 0;
                    }
                    // Room for the message so far plus whatever sits past hs_end (a ticket
                    // being offered).
                    let needed = self.hs_len + n + (self.hs.len() - self.hs_end);
                    let dst = self.hs[self.hs_start..self.hs_end]
                        .get_mut(self.hs_len..self.hs_len + n)
                        .ok_or(Error::too_small(BufferKind::Handshake, needed))?;
                    dst.copy_from_slice(&self.c.io.rx[start..end]);
                    self.hs_len += end - start;
                    self.consume_rx(total);
                    self.process_handshake()?;
                }
                ContentType::ALERT => {
                    let body = &self.c.io.rx[start..end];
                    // RFC 8446 §5.4 and §6: an empty alert record is unexpected_message,
                    // any other length but two decode_error.
                    if body.is_empty() {
                        return Err(PeerMisbehaved::EmptyRecord.into());
                    }
                    if body.len() != 2 {
                        return Err(crate::msgs::InvalidMessage::BadLength.into());
                    }
                    // RFC 8446 §6: AlertLevel is warning(1) or fatal(2); any other level is
                    // not an alert we can act on but a malformed one, illegal_parameter.
                    if !matches!(body[0], 1 | 2) {
                        return Err(crate::msgs::InvalidMessage::IllegalValue.into());
                    }
                    let desc = AlertDescription(body[1]);
                    self.consume_rx(total);
                    // A close inside a fragmented handshake message is a truncation, not a
                    // clean close (RFC 8446 §5.1).
                    if desc == AlertDescription::CLOSE_NOTIFY && self.hs_len != 0 {
                        return Err(PeerMisbehaved::InterleavedOrUnalignedRecords.into());
                    }
                    // RFC 8446 §6.1: user_canceled is a closure alert, not an error; the
                    // close_notify that should follow ends the connection.
                    if desc == AlertDescription::USER_CANCELED {
                        self.c.since_data.count(
                            |s| &mut s.user_canceled,
                            MAX_USER_CANCELED,
                            PeerMisbehaved::TooManyWarningAlerts,
                        )?;
                        continue;
                    }
                    // A server that answers our ClientHello with protocol_version does not
                    // speak TLS 1.3: say so rather than only pass the alert on.
                    let refused_hello = matches!(
                        self.state,
                        State::ClientExpectServerHello(_) | State::ClientExpectServerHello2(_)
                    ) && desc == AlertDescription::PROTOCOL_VERSION;
                    if desc == AlertDescription::CLOSE_NOTIFY {
                        self.c.peer_closed = true;
                    } else {
                        let e = if refused_hello {
                            PeerIncompatible::NoTls13.into()
                        } else {
                            Error::AlertReceived(desc)
                        };
                        self.c.error = Some(e);
                        self.state = State::Dead;
                        return Err(e);
                    }
                }
                ContentType::APPLICATION_DATA => {
                    if self.is_handshaking() || self.hs_len != 0 {
                        return Err(PeerMisbehaved::UnexpectedMessage.into());
                    }
                    if start == end {
                        self.c.since_data.count(
                            |s| &mut s.empty_records,
                            MAX_EMPTY_RECORDS,
                            PeerMisbehaved::TooManyEmptyRecords,
                        )?;
                        self.consume_rx(total);
                    } else {
                        self.c.since_data = SinceData::default();
                        self.c.app = Some((start, end, base + total));
                    }
                }
                _ => return Err(PeerMisbehaved::UnexpectedMessage.into()),
            }
        }
        Ok(())
    }

    /// Handles every whole message in the handshake buffer.
    fn process_handshake(&mut self) -> Result<(), Error> {
        loop {
            let base = self.hs_start;
            let buf = &self.hs[base..base + self.hs_len];
            let Some((first, rest)) = split_handshake(buf) else { break };
            // A type TLS 1.3 does not send (HelloRequest, a TLS 1.2 message, a number no one
            // assigned) is an unexpected message whatever it holds (RFC 8446 §4, §6.2).
            if !is_tls13_message(HandshakeType(first[0])) {
                return Err(PeerMisbehaved::UnexpectedMessage.into());
            }
            let state = mem::replace(&mut self.state, State::Dead);
            // A Certificate is handled together with the CertificateVerify after it, so the
            // certificate need not be copied out of the buffer; once checked it stays there
            // (`keep`) for `peer_identity`.
            let (used, next, keep) = match state {
                State::ClientExpectCertificate(hs)
                    if first.first() != Some(&HandshakeType::CERTIFICATE_REQUEST.0) =>
                {
                    let Some((second, _)) = split_handshake(rest) else {
                        self.state = State::ClientExpectCertificate(hs);
                        break;
                    };
                    if !is_tls13_message(HandshakeType(second[0])) {
                        return Err(PeerMisbehaved::UnexpectedMessage.into());
                    }
                    let next = client_certificate(&mut self.c, hs, first, second)?;
                    (first.len() + second.len(), next, first.len())
                }
                State::ServerExpectCertificate(st) => {
                    let HandshakeMessage::Certificate(cert) = HandshakeMessage::decode(first)?
                    else {
                        return Err(PeerMisbehaved::UnexpectedMessage.into());
                    };
                    if cert.entries.iter().next().is_none() {
                        let next = server_no_client_certificate(&mut self.c, st, first, &cert)?;
                        (first.len(), next, 0)
                    } else {
                        let Some((second, _)) = split_handshake(rest) else {
                            self.state = State::ServerExpectCertificate(st);
                            break;
                        };
                        if !is_tls13_message(HandshakeType(second[0])) {
                            return Err(PeerMisbehaved::UnexpectedMessage.into());
                        }
                        let next = server_client_certificate(&mut self.c, st, first, second)?;
                        (first.len() + second.len(), next, first.len())
                    }
                }
                state => {
                    let msg = HandshakeMessage::decode(first)?;
                    let first_len = first.len();
                    let ticket = &self.hs[self.hs_end..];
                    let next = handle(&mut self.c, state, first, msg, ticket)?;
                    (first_len, next, 0)
                }
            };
            self.state = next;
            if !matches!(self.state, State::ClientExpectServerHello2(_)) {
                // The offered ticket is not sent again: its room is for reassembly now.
                self.hs_end = self.hs.len();
            }
            self.hs.copy_within(base + used..base + self.hs_len, base + keep);
            self.hs_len -= used;
            self.hs_start += keep;
            if self.c.key_changed && self.hs_len != 0 {
                return Err(PeerMisbehaved::InterleavedOrUnalignedRecords.into());
            }
            self.c.key_changed = false;
        }
        Ok(())
    }
}

impl Core<'_, '_> {
    fn set_read(&mut self, suite: Suite, secret: &Secret) -> Result<(), Error> {
        self.io.read_key = Some(RecordProtection::new(suite.aead, secret)?);
        self.key_changed = true;
        Ok(())
    }

    fn set_write(&mut self, suite: Suite, secret: &Secret) -> Result<(), Error> {
        self.io.write_key = Some(RecordProtection::new(suite.aead, secret)?);
        Ok(())
    }
}

/// The schemes we verify, for `signature_algorithms`, written into `buf`.
fn supported_schemes(buf: &mut [SignatureScheme; MAX_LIST]) -> &[SignatureScheme] {
    let mut n = 0;
    for ((s, _), slot) in verify::SUPPORTED_SCHEMES.iter().zip(buf.iter_mut()) {
        *slot = *s;
        n += 1;
    }
    &buf[..n]
}

/// Queues a ClientHello (the first, or the second after a HelloRetryRequest with `key` in the
/// group it asked for and its `cookie`), adding it to `transcript`.
fn send_client_hello(
    c: &mut Core<'_, '_>,
    random: &[u8; 32],
    session_id: &[u8; 32],
    key: &KeyShare,
    cookie: Option<&[u8]>,
    transcript: &mut Transcript,
    psk: Option<(&Offered, &[u8], Transcript)>,
) -> Result<(), Error> {
    let config = c.client.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    let now = config.clock.now().as_secs();
    // A PSK offer: the ticket or the external identity (whose age is 0, RFC 8446
    // §4.2.11), and a placeholder binder filled in below.
    let hash_len = psk.as_ref().map_or(0, |(_, _, t)| t.alg().output_len());
    let zero_binder = [0u8; 48];
    let identity = psk.as_ref().map(|(p, ticket, _)| match p {
        Offered::Ticket(t) => {
            PskIdentity { identity: ticket, obfuscated_age: t.obfuscated_age(now) }
        }
        Offered::External => PskIdentity {
            identity: config.external_psk.map_or(&[], |e| e.identity),
            obfuscated_age: 0,
        },
    });
    let identities = identity.as_slice();
    let binders = [PskBinder(&zero_binder[..hash_len])];
    let mut suites_buf = [CipherSuite(0); MAX_LIST];
    for (slot, s) in suites_buf.iter_mut().zip(config.suites) {
        *slot = s.suite;
    }
    let mut alpn_buf = [ProtocolName(&[]); MAX_LIST];
    for (slot, p) in alpn_buf.iter_mut().zip(config.alpn) {
        *slot = ProtocolName(p);
    }
    let mut schemes = [SignatureScheme(0); MAX_LIST];
    let public = key.public();
    let shares = [KeyShareEntry { group: key.group(), key: public.as_ref() }];
    let name = &c.sni[..c.sni_len];
    let ch = HandshakeMessage::ClientHello(ClientHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random: *random,
        session_id,
        cipher_suites: List::items(&suites_buf[..config.suites.len()]),
        extensions: ClientExtensions {
            server_name: sends_sni(name).then_some(name),
            supported_versions: Some(List::items(&[ProtocolVersion::TLSV1_3])),
            supported_groups: Some(List::items(config.groups)),
            signature_algorithms: Some(List::items(supported_schemes(&mut schemes))),
            key_shares: Some(List::items(&shares)),
            alpn: (!config.alpn.is_empty()).then(|| List::items(&alpn_buf[..config.alpn.len()])),
            cookie,
            record_size_limit: config.record_size_limit,
            max_fragment_length: config.max_fragment_length,
            // With a store, psk_dhe_ke says we take tickets even when we offer none (RFC
            // 8446 §4.2.9: servers send tickets only for modes the client lists).
            psk_modes: (psk.is_some() || config.tickets.is_some())
                .then(|| List::items(client_psk_modes(&config))),
            early_data: false,
            pre_shared_key: psk.is_some().then(|| OfferedPsks {
                identities: List::items(identities),
                binders: List::items(&binders),
            }),
        },
    });
    c.io.send_handshake_patched(&ch, Some(transcript), |msg| {
        let Some((offered, _, mut bt)) = psk else { return Ok(()) };
        // RFC 8446 §4.2.11.2: the binder is over the ClientHello up to the binders list.
        let cut =
            msg.len().checked_sub(3 + hash_len).ok_or(crate::msgs::InvalidMessage::BadLength)?;
        bt.update(&msg[..cut]);
        let early = EarlySecret::new(bt.alg(), Some(offered.key(&config)));
        let external = matches!(offered, Offered::External);
        let binder = finished_verify_data(&early.binder_key(external), &bt.current());
        msg[cut + 3..].copy_from_slice(binder.as_ref());
        Ok(())
    })
}

/// Whether a client sends `name` as SNI: not when it is empty or an IP address (RFC 6066
/// §3).
fn sends_sni(name: &[u8]) -> bool {
    core::str::from_utf8(name)
        .is_ok_and(|n| !n.is_empty() && n.parse::<core::net::IpAddr>().is_err())
}

/// The resumption modes a client offers.
fn client_psk_modes<'a>(config: &ClientConfig<'a>) -> &'a [PskKeyExchangeMode] {
    if config.psk_modes.is_empty() { &[PskKeyExchangeMode::PSK_DHE_KE] } else { config.psk_modes }
}

/// The hash of the suite a ticket was issued under.
fn ticket_hash(t: &Session) -> Option<HashAlg> {
    suites::find(suites::ALL_SUITES, t.suite()).map(|s| s.hash)
}

/// Whether `typ` is a handshake message TLS 1.3 sends and this crate reads.
fn is_tls13_message(typ: HandshakeType) -> bool {
    [
        HandshakeType::CLIENT_HELLO,
        HandshakeType::SERVER_HELLO,
        HandshakeType::NEW_SESSION_TICKET,
        HandshakeType::ENCRYPTED_EXTENSIONS,
        HandshakeType::CERTIFICATE,
        HandshakeType::CERTIFICATE_REQUEST,
        HandshakeType::CERTIFICATE_VERIFY,
        HandshakeType::FINISHED,
        HandshakeType::KEY_UPDATE,
    ]
    .contains(&typ)
}

/// Derives the handshake secrets after the hellos and keys both directions.
fn enter_handshake(
    c: &mut Core<'_, '_>,
    suite: Suite,
    transcript: Transcript,
    shared: &[u8],
    psk: Option<&[u8]>,
    client: bool,
) -> Result<Handshaking, Error> {
    let hs_secret = EarlySecret::new(suite.hash, psk).into_handshake(shared);
    let th = transcript.current();
    let client_hs = hs_secret.client_traffic(&th);
    let server_hs = hs_secret.server_traffic(&th);
    if client {
        c.set_read(suite, &server_hs)?;
        c.set_write(suite, &client_hs)?;
    } else {
        c.set_read(suite, &client_hs)?;
        c.set_write(suite, &server_hs)?;
    }
    Ok(Handshaking {
        suite,
        transcript,
        client_hs,
        server_hs,
        master: hs_secret.into_master(),
        reply: CertificateReply::NotRequested,
    })
}

// The message is destructured by the match; a reference would only add indirection.
#[allow(clippy::large_types_passed_by_value)]
fn handle(
    c: &mut Core<'_, '_>,
    state: State,
    raw: &[u8],
    msg: HandshakeMessage<'_>,
    ticket: &[u8],
) -> Result<State, Error> {
    match (state, msg) {
        (State::ClientExpectServerHello(st), HandshakeMessage::ServerHello(sh)) => {
            client_server_hello(c, st, raw, &sh, ticket)
        }
        (State::ClientExpectServerHello2(st), HandshakeMessage::ServerHello(sh)) => {
            if sh.is_retry_request() {
                // RFC 8446 §4.1.4: a second HelloRetryRequest is unexpected_message.
                return Err(PeerMisbehaved::UnexpectedMessage.into());
            }
            client_check_hello(&sh, &st.session_id)?;
            if sh.cipher_suite != st.suite.suite {
                return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
            }
            client_key_exchange(c, &st.key, st.suite, st.transcript, raw, &sh, st.psk.as_ref())
        }
        (
            State::ClientExpectEncryptedExtensions(mut hs),
            HandshakeMessage::EncryptedExtensions(ee),
        ) => {
            hs.transcript.update(raw);
            let config = c.client.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
            // RFC 8446 §4.2: no answer to an extension we did not send.
            let unsolicited = crate::msgs::InvalidMessage::UnexpectedExtension;
            if ee.server_name_ack && !sends_sni(&c.sni[..c.sni_len]) {
                return Err(unsolicited.into());
            }
            let alpn = match ee.alpn {
                None => None,
                Some(_) if config.alpn.is_empty() => return Err(unsolicited.into()),
                Some(p) => Some(
                    config
                        .alpn
                        .iter()
                        .position(|o| *o == p)
                        .ok_or(PeerMisbehaved::SelectedUnofferedParameter)?,
                ),
            };
            c.params.alpn = alpn;
            client_record_limits(c, &config, &ee)?;
            // A PSK handshake has no certificate messages (RFC 8446 §2.2).
            Ok(if c.params.resumed || c.params.external_psk {
                State::ClientExpectFinished(ClientExpectFinished { hs })
            } else {
                State::ClientExpectCertificate(hs)
            })
        }
        (State::ClientExpectCertificate(mut hs), HandshakeMessage::CertificateRequest(cr))
            if hs.reply == CertificateReply::NotRequested =>
        {
            // RFC 8446 §4.3.2: the context is empty during the handshake, and
            // signature_algorithms must be there.
            if !cr.context.is_empty() {
                return Err(crate::msgs::InvalidMessage::IllegalValue.into());
            }
            let offered =
                cr.signature_algorithms.ok_or(crate::msgs::InvalidMessage::MissingExtension)?;
            let config = c.client.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
            hs.reply = match config
                .client_cert
                .and_then(|cert| choose_scheme(cert.key, |s| offered.contains(&s)))
            {
                Some(scheme) => CertificateReply::Sign(scheme),
                None => CertificateReply::Empty,
            };
            hs.transcript.update(raw);
            Ok(State::ClientExpectCertificate(hs))
        }
        (State::ClientExpectFinished(st), HandshakeMessage::Finished(fin)) => {
            client_finished(c, st, raw, fin)
        }
        (State::ServerExpectClientHello { random }, HandshakeMessage::ClientHello(ch)) => {
            server_client_hello(c, random, raw, &ch, None)
        }
        (State::ServerExpectClientHello2 { random, retry }, HandshakeMessage::ClientHello(ch)) => {
            server_client_hello(c, random, raw, &ch, Some(retry))
        }
        (State::ServerExpectFinished(st), HandshakeMessage::Finished(fin)) => {
            let expected = finished_verify_data(&st.client_hs, &st.transcript.current());
            check_finished(&expected, fin)?;
            c.set_read(st.suite, &st.client_app)?;
            c.negotiated = Some(c.params);
            // The server's write secret is the one already in use; keep a copy for KeyUpdate.
            let write_secret = c.server_app.take().ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
            let mut st = st;
            st.transcript.update(raw);
            send_tickets(c, &st)?;
            Ok(State::Traffic(Traffic {
                suite: st.suite,
                read_secret: st.client_app,
                write_secret,
                exporter: st.exporter,
                resumption: None,
                updated_since_data: false,
            }))
        }
        // Only servers send tickets; they are kept when the client has a store.
        (State::Traffic(t), HandshakeMessage::NewSessionTicket(nst)) if c.client.is_some() => {
            let config = c.client.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
            if let (Some(store), Some(rms)) = (config.tickets, &t.resumption) {
                let psk = resumption_psk(rms, nst.nonce);
                let now = config.clock.now().as_secs();
                let session = Session::new(
                    t.suite.suite,
                    c.params.scheme,
                    psk.as_ref(),
                    (nst.age_add, nst.lifetime),
                    now,
                    c.peer_cert_sha256,
                );
                let ticket = session.and_then(|s| Ticket::new(s, nst.ticket));
                let name = core::str::from_utf8(&c.sni[..c.sni_len]).unwrap_or("");
                if let Some(ticket) = ticket.filter(|_| nst.lifetime > 0)
                    && let Err(e) = store.put(name, &ticket)
                {
                    c.refused_ticket = Some(e);
                }
            }
            Ok(State::Traffic(t))
        }
        (State::Traffic(mut t), HandshakeMessage::KeyUpdate(req)) => {
            c.since_data.count(
                |s| &mut s.key_updates,
                MAX_KEY_UPDATES,
                PeerMisbehaved::TooManyKeyUpdates,
            )?;
            t.read_secret = next_traffic_secret(&t.read_secret);
            c.set_read(t.suite, &t.read_secret)?;
            if req == KeyUpdateRequest::UPDATE_REQUESTED && !t.updated_since_data {
                t.updated_since_data = true;
                let msg = HandshakeMessage::KeyUpdate(KeyUpdateRequest::UPDATE_NOT_REQUESTED);
                c.io.send_handshake(&msg, None)?;
                t.write_secret = next_traffic_secret(&t.write_secret);
                c.set_write(t.suite, &t.write_secret)?;
            }
            Ok(State::Traffic(t))
        }
        _ => Err(PeerMisbehaved::UnexpectedMessage.into()),
    }
}

/// Client: applies the server's answer to `record_size_limit` or `max_fragment_length`.
/// Only an offered extension may be answered (else `unsupported_extension`), a limit below
/// 64, a different fragment length, or both at once are `illegal_parameter` (RFC 8449 §4, §5;
/// RFC 6066 §4).
fn client_record_limits(
    c: &mut Core<'_, '_>,
    config: &ClientConfig<'_>,
    ee: &EncryptedExtensions<'_>,
) -> Result<(), Error> {
    use crate::msgs::InvalidMessage::{IllegalValue, UnexpectedExtension};
    match (ee.record_size_limit, ee.max_fragment_length) {
        (Some(_), Some(_)) => return Err(IllegalValue.into()),
        (Some(limit), None) => {
            let ours = config.record_size_limit.ok_or(UnexpectedExtension)?;
            if limit < 64 {
                return Err(IllegalValue.into());
            }
            c.io.send_limit = (usize::from(limit) - 1).min(MAX_PLAINTEXT_LEN);
            c.io.recv_limit = usize::from(ours);
        }
        (None, Some(m)) => {
            let offered = config.max_fragment_length.ok_or(UnexpectedExtension)?;
            let len = m.bytes().filter(|_| m == offered).ok_or(IllegalValue)?;
            c.io.send_limit = len;
            c.io.recv_limit = len + 1;
        }
        (None, None) => {}
    }
    Ok(())
}

/// Server: takes the client's `record_size_limit` (answering with ours) or, without one, its
/// `max_fragment_length` (echoed), and sets both directions' limits; returns what
/// EncryptedExtensions carries (RFC 8449 §4, §5; RFC 6066 §4).
fn server_record_limits(
    c: &mut Core<'_, '_>,
    config: &ServerConfig<'_>,
    x: &ClientExtensions<'_>,
) -> Result<(Option<u16>, Option<MaxFragmentLength>), Error> {
    if let Some(limit) = x.record_size_limit {
        if limit < 64 {
            return Err(crate::msgs::InvalidMessage::IllegalValue.into());
        }
        let ours = config.record_size_limit.unwrap_or(MAX_PLAINTEXT_LEN as u16 + 1);
        c.io.send_limit = (usize::from(limit) - 1).min(MAX_PLAINTEXT_LEN);
        c.io.recv_limit = usize::from(ours);
        return Ok((Some(ours), None));
    }
    if let Some(m) = x.max_fragment_length {
        let len = m.bytes().ok_or(crate::msgs::InvalidMessage::IllegalValue)?;
        c.io.send_limit = len;
        c.io.recv_limit = len + 1;
        return Ok((None, Some(m)));
    }
    Ok((None, None))
}

/// Whether a configured `record_size_limit` is one RFC 8449 allows in TLS 1.3.
fn valid_record_size_limit(limit: Option<u16>) -> bool {
    limit.is_none_or(|l| (64..=MAX_PLAINTEXT_LEN as u16 + 1).contains(&l))
}

/// The checks every ServerHello and HelloRetryRequest gets: legacy_version TLS 1.2, TLS 1.3
/// selected and our session id echoed.
fn client_check_hello(sh: &ServerHello<'_>, session_id: &[u8; 32]) -> Result<(), Error> {
    // A server that chose an older version (or claims SSL 3.0, RFC 8446 Appendix D.5) does
    // not speak TLS 1.3; one that chose TLS 1.3 has legacy_version TLS 1.2 (§4.1.3).
    if sh.legacy_version.0 <= 0x0300
        || sh.extensions.supported_version != Some(ProtocolVersion::TLSV1_3)
    {
        return Err(PeerIncompatible::NoTls13.into());
    }
    if sh.legacy_version != ProtocolVersion::TLSV1_2 {
        return Err(crate::msgs::InvalidMessage::IllegalValue.into());
    }
    if sh.session_id != session_id {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    }
    // RFC 8446 §4.1.3: a TLS 1.3 client that negotiated 1.3 must still refuse the sentinels a
    // 1.2 or older server puts in its random.
    if sh.random[24..31] == *b"DOWNGRD" && matches!(sh.random[31], 0 | 1) {
        return Err(PeerMisbehaved::DowngradeDetected.into());
    }
    Ok(())
}

fn client_server_hello(
    c: &mut Core<'_, '_>,
    st: ClientHelloSent,
    raw: &[u8],
    sh: &ServerHello<'_>,
    ticket: &[u8],
) -> Result<State, Error> {
    let config = c.client.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    client_check_hello(sh, &st.session_id)?;
    let suite = suites::find(config.suites, sh.cipher_suite)
        .ok_or(PeerMisbehaved::SelectedUnofferedParameter)?;
    let mut transcript = match suite.hash {
        HashAlg::Sha256 => st.th256,
        HashAlg::Sha384 => st.th384,
    };
    if !sh.is_retry_request() {
        return client_key_exchange(c, &st.key, suite, transcript, raw, sh, st.psk.as_ref());
    }
    // HelloRetryRequest (RFC 8446 §4.1.4): a group we offered but sent no share for, and/or
    // a cookie to echo; anything that would leave ClientHello2 unchanged is illegal.
    let x = &sh.extensions;
    let key = match x.selected_group {
        Some(g) if g == st.key.group() || !config.groups.contains(&g) => {
            return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
        }
        Some(g) => KeyShare::generate(g, config.key_exchanges, &mut c.rng)?,
        None if x.cookie.is_none() => return Err(PeerMisbehaved::UselessRetryRequest.into()),
        None => st.key,
    };
    transcript.restart_for_retry();
    transcript.update(raw);
    // Middlebox compatibility mode (RFC 8446 §D.4): a dummy change_cipher_spec before the
    // second flight.
    c.io.send_plain(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
    // The PSK stays on offer only if its hash is the suite's (RFC 8446 §4.1.4), with its
    // binder now over message_hash, the HRR and ClientHello2.
    let psk = st.psk.filter(|p| p.hash(&config) == Some(suite.hash));
    let offer = psk.as_ref().map(|t| (t, ticket, transcript.clone()));
    send_client_hello(c, &st.random, &st.session_id, &key, x.cookie, &mut transcript, offer)?;
    c.params.retried = true;
    Ok(State::ClientExpectServerHello2(RetrySent {
        key,
        session_id: st.session_id,
        suite,
        transcript,
        psk,
    }))
}

/// Completes the key exchange with the ServerHello's share, which must be in `key`'s group.
fn client_key_exchange(
    c: &mut Core<'_, '_>,
    key: &KeyShare,
    suite: Suite,
    mut transcript: Transcript,
    raw: &[u8],
    sh: &ServerHello<'_>,
    offered: Option<&Offered>,
) -> Result<State, Error> {
    let config = c.client.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    let modes = client_psk_modes(&config);
    // RFC 8446 §4.2.11: the server may only pick the one identity we offered, with a suite
    // of the PSK's hash.
    let psk = match (sh.extensions.selected_identity, offered) {
        (None, _) => None,
        (Some(0), Some(p)) if p.hash(&config) == Some(suite.hash) => Some(p),
        (Some(_), _) => return Err(PeerMisbehaved::SelectedUnofferedParameter.into()),
    };
    // A key share, unless the server resumed with psk_ke (which we must have listed); with
    // a PSK, a share means psk_dhe_ke, which we must have listed too.
    let zeros = [0u8; 48];
    let shared;
    let (ikm, group): (&[u8], NamedGroup) = match sh.extensions.key_share {
        Some(share) => {
            if share.group != key.group()
                || (psk.is_some() && !modes.contains(&PskKeyExchangeMode::PSK_DHE_KE))
            {
                return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
            }
            shared = key.agree(share.key)?;
            (shared.as_ref(), share.group)
        }
        None if psk.is_some() && modes.contains(&PskKeyExchangeMode::PSK_KE) => {
            (&zeros[..suite.hash.output_len()], NamedGroup(0))
        }
        None => return Err(crate::msgs::InvalidMessage::MissingExtension.into()),
    };
    transcript.update(raw);
    c.params.suite = suite.suite;
    c.params.group = group;
    match psk {
        Some(Offered::Ticket(t)) => {
            c.params.resumed = true;
            c.params.scheme = t.scheme();
            c.peer_cert_sha256 = t.server_cert_sha256();
        }
        Some(Offered::External) => {
            c.params.external_psk = true;
            c.peer_psk = config.external_psk.map(|p| p.identity);
        }
        None => {}
    }
    let key = psk.map(|p| p.key(&config));
    // Middlebox compatibility mode (RFC 8446 §D.4): our ClientHello carried a session id, so
    // a dummy change_cipher_spec goes out before our second flight (and before an alert we
    // send from now on), unprotected, once: after a HelloRetryRequest it went before the
    // second ClientHello.
    if !c.params.retried {
        c.io.send_plain(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
    }
    Ok(State::ClientExpectEncryptedExtensions(enter_handshake(
        c, suite, transcript, ikm, key, true,
    )?))
}

fn client_certificate(
    c: &mut Core<'_, '_>,
    mut hs: Handshaking,
    raw_cert: &[u8],
    raw_cv: &[u8],
) -> Result<State, Error> {
    let config = c.client.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    let name = core::str::from_utf8(&c.sni[..c.sni_len]).unwrap_or("");
    let (scheme, identity) = check_certificate(
        &mut hs.transcript,
        raw_cert,
        raw_cv,
        (config.roots, config.verifier),
        verify::Peer::Server(name),
        config.clock.now(),
    )?;
    c.params.scheme = scheme;
    if let ClientIdentity::Certificate { end_entity, .. } = identity {
        c.peer_cert_sha256 = Some(end_entity);
    }
    Ok(State::ClientExpectFinished(ClientExpectFinished { hs }))
}

/// Checks a peer's Certificate and CertificateVerify (the chain to `roots` at `now` for
/// `peer`, or by the verifier when there is one, then the signature over the transcript up
/// to the Certificate), adding both to `transcript`; returns the scheme used and the peer's
/// identity: the SHA-256 of its end-entity certificate and the digest of what the chain was
/// trusted through ([`verify::anchor_digest`] of its root, or the verifier's).
fn check_certificate(
    transcript: &mut Transcript,
    raw_cert: &[u8],
    raw_cv: &[u8],
    (roots, verifier): (&[TrustAnchor<'_>], Option<&dyn CertVerifier>),
    peer: verify::Peer<'_>,
    now: UnixTime,
) -> Result<(SignatureScheme, ClientIdentity), Error> {
    let HandshakeMessage::Certificate(cert) = HandshakeMessage::decode(raw_cert)? else {
        return Err(PeerMisbehaved::UnexpectedMessage.into());
    };
    let HandshakeMessage::CertificateVerify(cv) = HandshakeMessage::decode(raw_cv)? else {
        return Err(PeerMisbehaved::UnexpectedMessage.into());
    };
    if !cert.context.is_empty() {
        return Err(crate::msgs::InvalidMessage::IllegalValue.into());
    }
    refuse_entry_extensions(&cert)?;
    let mut chain: [&[u8]; MAX_CHAIN] = [&[]; MAX_CHAIN];
    let mut n = 0;
    for entry in &cert.entries {
        if n == MAX_CHAIN {
            return Err(Error::InvalidCertificate(CertificateError::ChainTooLong));
        }
        chain[n] = entry.cert;
        n += 1;
    }
    if n == 0 {
        return Err(Error::InvalidCertificate(CertificateError::NoCertificate));
    }
    if !verify::SUPPORTED_SCHEMES.iter().any(|(s, _)| *s == cv.scheme) {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    }
    transcript.update(raw_cert);
    let mut content = [0u8; 200];
    let server = matches!(peer, verify::Peer::Server(_));
    let len = verify::signed_content(server, transcript.current().as_ref(), &mut content);
    let (ee, inter, message) = (chain[0], &chain[1..n], &content[..len]);
    // Whatever vouches for the chain (webpki or a pinning verifier), the key must be
    // allowed to sign (RFC 8446 §4.4.2.4).
    verify::check_key_usage(ee)?;
    let anchor = match verifier {
        Some(v) => v.verify(ee, inter, peer, now, cv.scheme, message, cv.signature)?,
        None => verify::verify_peer(ee, inter, roots, peer, now, cv.scheme, message, cv.signature)?,
    };
    transcript.update(raw_cv);
    let end_entity = Sha256::digest(chain[0]);
    Ok((cv.scheme, ClientIdentity::Certificate { scheme: cv.scheme, end_entity, anchor }))
}

/// Refuses a Certificate any of whose entries carries an extension: Halite asks for neither
/// status_request nor signed_certificate_timestamp, and a CertificateEntry extension must
/// answer one the ClientHello (or CertificateRequest) offered (RFC 8446 §4.4.2), so any is
/// unsolicited: unsupported_extension (§4.2). The codec keeps them, for a faithful re-encoding.
fn refuse_entry_extensions(cert: &Certificate<'_>) -> Result<(), Error> {
    if cert.entries.iter().any(|entry| !entry.extensions.is_empty()) {
        return Err(crate::msgs::InvalidMessage::UnexpectedExtension.into());
    }
    Ok(())
}

/// Server: the client sent an empty Certificate.
fn server_no_client_certificate(
    c: &mut Core<'_, '_>,
    mut st: ServerExpectFinished,
    raw: &[u8],
    cert: &Certificate<'_>,
) -> Result<State, Error> {
    let config = c.server.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    if !cert.context.is_empty() {
        return Err(crate::msgs::InvalidMessage::IllegalValue.into());
    }
    if config.client_auth.is_none_or(|a| a.required) {
        return Err(Error::InvalidCertificate(CertificateError::NoCertificate));
    }
    st.transcript.update(raw);
    Ok(State::ServerExpectFinished(st))
}

/// Server: the client's Certificate and CertificateVerify.
fn server_client_certificate(
    c: &mut Core<'_, '_>,
    mut st: ServerExpectFinished,
    raw_cert: &[u8],
    raw_cv: &[u8],
) -> Result<State, Error> {
    let config = c.server.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    let auth = config.client_auth.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    let (scheme, identity) = check_certificate(
        &mut st.transcript,
        raw_cert,
        raw_cv,
        (auth.roots, auth.verifier),
        verify::Peer::Client,
        auth.clock.now(),
    )?;
    c.params.client_auth = Some(scheme);
    c.client_identity = identity;
    if let ClientIdentity::Certificate { end_entity, .. } = identity {
        c.peer_cert_sha256 = Some(end_entity);
    }
    Ok(State::ServerExpectFinished(st))
}

/// Checks a peer's Finished: one of the wrong length does not parse (`decode_error`, RFC
/// 8446 §4.4.4 and §6), one with the wrong value is `decrypt_error`.
fn check_finished(expected: &Digest, fin: &[u8]) -> Result<(), Error> {
    if fin.len() != expected.as_ref().len() {
        return Err(crate::msgs::InvalidMessage::BadLength.into());
    }
    if !verify_finished(expected, fin) {
        return Err(PeerMisbehaved::BadFinished.into());
    }
    Ok(())
}

fn client_finished(
    c: &mut Core<'_, '_>,
    st: ClientExpectFinished,
    raw: &[u8],
    fin: &[u8],
) -> Result<State, Error> {
    let mut hs = st.hs;
    let expected = finished_verify_data(&hs.server_hs, &hs.transcript.current());
    check_finished(&expected, fin)?;
    hs.transcript.update(raw);
    let th = hs.transcript.current();
    let client_app = hs.master.client_traffic(&th);
    let server_app = hs.master.server_traffic(&th);
    let exporter = hs.master.exporter(&th);
    if hs.reply != CertificateReply::NotRequested {
        send_client_certificate(c, hs.reply, &mut hs.transcript)?;
    }
    let verify_data = finished_verify_data(&hs.client_hs, &hs.transcript.current());
    let fin = HandshakeMessage::Finished(verify_data.as_ref());
    c.io.send_handshake(&fin, Some(&mut hs.transcript))?;
    c.set_write(hs.suite, &client_app)?;
    c.set_read(hs.suite, &server_app)?;
    c.negotiated = Some(c.params);
    let resumption = hs.master.resumption(&hs.transcript.current());
    Ok(State::Traffic(Traffic {
        suite: hs.suite,
        read_secret: server_app,
        write_secret: client_app,
        exporter,
        resumption: Some(resumption),
        updated_since_data: false,
    }))
}

/// Server: the client's share in our most preferred group, or (as `Err`) the state after a
/// HelloRetryRequest for one the client supports (RFC 8446 §4.1.4).
#[allow(clippy::too_many_arguments)] // the hello, its context, and the retry state
fn select_share<'m>(
    c: &mut Core<'_, '_>,
    config: &ServerConfig<'_>,
    random: [u8; 32],
    raw: &[u8],
    ch: &ClientHello<'m>,
    suite: Suite,
    retry: Option<&Retry>,
) -> Result<Result<KeyShareEntry<'m>, State>, Error> {
    let x = &ch.extensions;
    // RFC 8446 §9.2: key_share and supported_groups come together, else missing_extension.
    let shares = x.key_shares.ok_or(crate::msgs::InvalidMessage::MissingExtension)?;
    if x.supported_groups.is_none() {
        return Err(crate::msgs::InvalidMessage::MissingExtension.into());
    }
    let share = match retry {
        // RFC 8446 §4.1.2: the second ClientHello must carry the share we asked for.
        Some(r) => Some(
            shares
                .iter()
                .find(|s| s.group == r.group)
                .ok_or(PeerMisbehaved::SelectedUnofferedParameter)?,
        ),
        // Our most preferred group among those the client sent a share for.
        None => config.groups.iter().find_map(|g| shares.iter().find(|s| s.group == *g)),
    };
    let Some(share) = share else {
        // HelloRetryRequest (RFC 8446 §4.1.4) for our most preferred group the client
        // supports.
        let group = config
            .groups
            .iter()
            .copied()
            .find(|g| x.supported_groups.is_some_and(|l| l.contains(g)))
            .ok_or(PeerIncompatible::NoCommonGroup)?;
        let mut transcript = Transcript::new(suite.hash);
        transcript.update(raw);
        transcript.restart_for_retry();
        let hrr = HandshakeMessage::ServerHello(ServerHello {
            legacy_version: ProtocolVersion::TLSV1_2,
            random: crate::msgs::HELLO_RETRY_REQUEST_RANDOM,
            session_id: ch.session_id,
            cipher_suite: suite.suite,
            extensions: ServerHelloExtensions {
                supported_version: Some(ProtocolVersion::TLSV1_3),
                selected_group: Some(group),
                ..ServerHelloExtensions::default()
            },
        });
        c.io.send_handshake(&hrr, Some(&mut transcript))?;
        if !ch.session_id.is_empty() {
            c.io.send_plain(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
        }
        return Ok(Err(State::ServerExpectClientHello2 {
            random,
            retry: Retry { suite, group, transcript },
        }));
    };
    Ok(Ok(share))
}

/// Server: the Certificate and CertificateVerify of a full handshake.
fn send_server_certificate(
    c: &mut Core<'_, '_>,
    certified: &CertifiedKey<'_>,
    scheme: SignatureScheme,
    transcript: &mut Transcript,
) -> Result<(), Error> {
    let mut entries = [CertificateEntry { cert: &[], extensions: &[] }; MAX_CHAIN];
    let n = certified.chain.len().min(MAX_CHAIN);
    for (e, der) in entries.iter_mut().zip(certified.chain) {
        e.cert = der;
    }
    let cert = HandshakeMessage::Certificate(Certificate {
        context: &[],
        entries: List::items(&entries[..n]),
    });
    c.io.send_handshake(&cert, Some(transcript))?;
    let mut content = [0u8; 200];
    let len = verify::signed_content(true, transcript.current().as_ref(), &mut content);
    let mut sig = [0u8; MAX_SIGNATURE_LEN];
    let sig_len = certified.key.sign(scheme, &content[..len], &mut c.rng, &mut sig)?;
    let cv = HandshakeMessage::CertificateVerify(CertificateVerify {
        scheme,
        signature: &sig[..sig_len],
    });
    c.io.send_handshake(&cv, Some(transcript))
}

/// A PSK the server takes: one of its tickets, or one of its external PSKs.
enum ServerPsk<'a> {
    Ticket(TicketState),
    External(&'a ExternalPsk<'a>),
}

impl ServerPsk<'_> {
    fn key(&self) -> &[u8] {
        match self {
            Self::Ticket(t) => &t.psk[..t.psk_len],
            Self::External(p) => p.key,
        }
    }
}

/// The PSK a server takes: which, the index of its identity in the ClientHello, the mode,
/// and the suite it is used with.
struct ChosenPsk<'a> {
    psk: ServerPsk<'a>,
    index: usize,
    mode: PskKeyExchangeMode,
    suite: Suite,
}

/// The mode a PSK is taken in: `psk_ke` if we allow it and the client lists it, else
/// `psk_dhe_ke` if the client lists that.
fn psk_mode(
    modes: List<'_, PskKeyExchangeMode, crate::msgs::U8>,
    allow_psk_ke: bool,
) -> Option<PskKeyExchangeMode> {
    if allow_psk_ke && modes.contains(&PskKeyExchangeMode::PSK_KE) {
        Some(PskKeyExchangeMode::PSK_KE)
    } else if modes.contains(&PskKeyExchangeMode::PSK_DHE_KE) {
        Some(PskKeyExchangeMode::PSK_DHE_KE)
    } else {
        None
    }
}

/// Server: the first PSK identity offered that we can take (RFC 8446 §4.2.11) — one of our
/// tickets within its lifetime, or one of our external PSKs — in a mode both sides list,
/// with a suite of its hash that both sides have (for a ticket its own suite first). The
/// binder is checked later, over the whole transcript.
fn choose_psk<'a>(config: &ServerConfig<'a>, ch: &ClientHello<'_>) -> Option<ChosenPsk<'a>> {
    let x = &ch.extensions;
    let modes = x.psk_modes?;
    let offer = x.pre_shared_key?;
    let common = |hash: HashAlg, first: Option<CipherSuite>| {
        let shared = |s: &Suite| s.hash == hash && ch.cipher_suites.contains(&s.suite);
        first
            .and_then(|f| suites::find(config.suites, f))
            .filter(shared)
            .or_else(|| config.suites.iter().copied().find(shared))
    };
    for (index, identity) in offer.identities.iter().enumerate() {
        let ticket = config.tickets.and_then(|t| Some((t, t.key.open(identity.identity)?)));
        if let Some((tickets, state)) = ticket {
            let now = tickets.clock.now().as_secs();
            let max_age = tickets.max_auth_age.min(MAX_TICKET_LIFETIME);
            let fresh = now >= state.issued_at
                && now - state.issued_at < u64::from(tickets.lifetime)
                && now >= state.authenticated_at
                && now - state.authenticated_at < u64::from(max_age);
            let identity_ok = client_identity_holds(config, &state.client);
            let hash = suites::find(suites::ALL_SUITES, state.suite).map(|s| s.hash);
            let mode = psk_mode(modes, tickets.psk_ke);
            if let (true, Some(hash), Some(mode)) = (fresh && identity_ok, hash, mode)
                && let Some(suite) = common(hash, Some(state.suite))
            {
                return Some(ChosenPsk { psk: ServerPsk::Ticket(state), index, mode, suite });
            }
            continue;
        }
        let Some(psks) = config.psks else { continue };
        let Some(psk) = psks.find(identity.identity) else { continue };
        if let (Some(mode), Some(suite)) = (psk_mode(modes, psks.psk_ke), common(psk.hash, None)) {
            return Some(ChosenPsk { psk: ServerPsk::External(psk), index, mode, suite });
        }
    }
    None
}

/// Server: whether a ticket's client identity still stands under `config`. An anonymous
/// session resumes unless client authentication is required; a certificate-authenticated
/// one only while a root of `ClientAuth.roots` is the one its chain was verified to (a
/// server that dropped the root, or client authentication, does not resume it); one
/// authenticated by an external PSK (which counts as client authentication) only while the
/// server still has that PSK. Costs a SHA-256 per configured root or PSK identity.
fn client_identity_holds(config: &ServerConfig<'_>, client: &ClientIdentity) -> bool {
    match client {
        ClientIdentity::Anonymous => !config.client_auth.is_some_and(|a| a.required),
        ClientIdentity::Certificate { anchor, .. } => {
            config.client_auth.is_some_and(|a| match a.verifier {
                Some(v) => v.trusts(anchor),
                None => a.roots.iter().any(|r| verify::anchor_digest(r) == *anchor),
            })
        }
        ClientIdentity::ExternalPsk { identity } => config
            .psks
            .is_some_and(|p| p.keys.iter().any(|k| Sha256::digest(k.identity) == *identity)),
    }
}

/// Server: the certificate to authenticate with when no PSK is taken. A server with only
/// external PSKs refuses with `unknown_psk_identity` (RFC 8446 §6.2); certificate
/// authentication needs `signature_algorithms` (§4.2.3).
fn server_certificate<'a>(
    config: &ServerConfig<'a>,
    x: &ClientExtensions<'_>,
) -> Result<(&'a CertifiedKey<'a>, SignatureScheme), Error> {
    if config.certs.is_empty() {
        return Err(PeerIncompatible::UnknownPskIdentity.into());
    }
    let offered = x.signature_algorithms.ok_or(crate::msgs::InvalidMessage::MissingExtension)?;
    choose_certificate(config.certs, x.server_name, |s| offered.contains(&s)).ok_or_else(|| {
        let ours = config.certs.iter().flat_map(|c| c.key.schemes().iter().copied());
        let (ours, theirs) = (SchemeSet::new(ours), SchemeSet::new(offered.iter()));
        PeerIncompatible::NoSchemeInCommon { ours, theirs }.into()
    })
}

/// Server: sends the configured number of NewSessionTickets (RFC 8446 §4.6.1) after the
/// client's Finished, each sealing the PSK for its nonce.
fn send_tickets(c: &mut Core<'_, '_>, st: &ServerExpectFinished) -> Result<(), Error> {
    let config = c.server.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    let Some(tickets) = config.tickets.filter(|_| st.send_tickets) else { return Ok(()) };
    let now = tickets.clock.now().as_secs();
    // A resumed session's authentication ages from its full handshake (RFC 8446 §4.6.1):
    // the tickets live no longer than what remains of it.
    let authenticated_at = c.authenticated_at.unwrap_or(now);
    let max_age = tickets.max_auth_age.min(MAX_TICKET_LIFETIME);
    let remaining = authenticated_at.saturating_add(u64::from(max_age)).saturating_sub(now);
    let remaining = u32::try_from(remaining).unwrap_or(u32::MAX);
    let lifetime = tickets.lifetime.min(MAX_TICKET_LIFETIME).min(remaining);
    if lifetime == 0 {
        return Ok(());
    }
    let rms = st.master.resumption(&st.transcript.current());
    for i in 0..tickets.count {
        let nonce = [i];
        let psk = resumption_psk(&rms, &nonce);
        let extra: [u8; 16] = random(&mut c.rng)?;
        let age_add = u32::from_be_bytes([extra[0], extra[1], extra[2], extra[3]]);
        let mut state = TicketState {
            suite: st.suite.suite,
            scheme: c.params.scheme,
            issued_at: now,
            authenticated_at,
            client: c.client_identity,
            age_add,
            psk: [0; 48],
            psk_len: psk.as_ref().len(),
        };
        state.psk[..state.psk_len].copy_from_slice(psk.as_ref());
        let mut seal_nonce = [0u8; 12];
        seal_nonce.copy_from_slice(&extra[4..]);
        let sealed = tickets.key.seal(&state, &seal_nonce);
        let nst = HandshakeMessage::NewSessionTicket(NewSessionTicket {
            lifetime,
            age_add,
            nonce: &nonce,
            ticket: &sealed,
            extensions: &[],
        });
        c.io.send_handshake(&nst, None)?;
    }
    Ok(())
}

/// Client: answers a CertificateRequest with our Certificate (empty if we have none the
/// server accepts) and, with one, a CertificateVerify.
fn send_client_certificate(
    c: &mut Core<'_, '_>,
    reply: CertificateReply,
    transcript: &mut Transcript,
) -> Result<(), Error> {
    let config = c.client.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    let mut entries = [CertificateEntry { cert: &[], extensions: &[] }; MAX_CHAIN];
    let (cert, scheme) = match (reply, config.client_cert) {
        (CertificateReply::Sign(scheme), Some(cert)) => (Some(cert), Some(scheme)),
        _ => (None, None),
    };
    let chain = cert.map_or(&[][..], |c| c.chain);
    let n = chain.len().min(MAX_CHAIN);
    for (e, der) in entries.iter_mut().zip(chain) {
        e.cert = der;
    }
    let msg = HandshakeMessage::Certificate(Certificate {
        context: &[],
        entries: List::items(&entries[..n]),
    });
    c.io.send_handshake(&msg, Some(transcript))?;
    if let (Some(cert), Some(scheme)) = (cert, scheme) {
        let mut content = [0u8; 200];
        let len = verify::signed_content(false, transcript.current().as_ref(), &mut content);
        let mut sig = [0u8; MAX_SIGNATURE_LEN];
        let sig_len = cert.key.sign(scheme, &content[..len], &mut c.rng, &mut sig)?;
        let cv = HandshakeMessage::CertificateVerify(CertificateVerify {
            scheme,
            signature: &sig[..sig_len],
        });
        c.io.send_handshake(&cv, Some(transcript))?;
        c.params.client_auth = Some(scheme);
    }
    Ok(())
}

fn server_client_hello(
    c: &mut Core<'_, '_>,
    random: [u8; 32],
    raw: &[u8],
    ch: &ClientHello<'_>,
    retry: Option<Retry>,
) -> Result<State, Error> {
    let config = c.server.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    let x = &ch.extensions;
    // RFC 8446 §4.2.10: we decline early data, so it is skipped until the client's next
    // flight; §4.1.2: a second ClientHello does not offer it again.
    if retry.is_some() && x.early_data {
        return Err(crate::msgs::InvalidMessage::IllegalValue.into());
    }
    c.skip_early = x.early_data.then_some(0);
    // RFC 8446 Appendix D.5: a hello claiming SSL 3.0 or older is refused whatever else it
    // offers.
    if ch.legacy_version.0 <= 0x0300
        || !x.supported_versions.is_some_and(|v| v.contains(&ProtocolVersion::TLSV1_3))
    {
        return Err(PeerIncompatible::NoTls13.into());
    }
    // RFC 8446 §4.2.9: a PSK offer needs psk_key_exchange_modes.
    if x.pre_shared_key.is_some() && x.psk_modes.is_none() {
        return Err(crate::msgs::InvalidMessage::MissingExtension.into());
    }
    // A PSK we take fixes the suite; without one the server's first suite the client has,
    // and a certificate.
    let chosen = choose_psk(&config, ch);
    let suite = match &chosen {
        Some(p) => p.suite,
        None => config
            .suites
            .iter()
            .copied()
            .find(|s| ch.cipher_suites.contains(&s.suite))
            .ok_or(PeerIncompatible::NoCommonSuite)?,
    };
    let certificate = match chosen {
        Some(_) => None,
        None => Some(server_certificate(&config, x)?),
    };
    if retry.as_ref().is_some_and(|r| r.suite != suite) {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    }
    // psk_ke: no key exchange, so no share to pick and no HelloRetryRequest.
    let psk_ke = chosen.as_ref().is_some_and(|p| p.mode == PskKeyExchangeMode::PSK_KE);
    let share = if psk_ke {
        None
    } else {
        match select_share(c, &config, random, raw, ch, suite, retry.as_ref())? {
            Ok(share) => Some(share),
            // A HelloRetryRequest was sent.
            Err(state) => return Ok(state),
        }
    };
    let (record_size_limit, max_fragment_length) = server_record_limits(c, &config, x)?;
    // RFC 7301 §3.1: a server without protocols ignores the client's offer.
    let alpn = match x.alpn.filter(|_| !config.alpn.is_empty()) {
        None => None,
        Some(offered) => Some(
            config
                .alpn
                .iter()
                .position(|p| offered.contains(&ProtocolName(p)))
                .ok_or(PeerIncompatible::NoCommonAlpn)?,
        ),
    };
    if let Some(name) = x.server_name {
        // A decoded name is a valid host name of at most 253 bytes (RFC 6066 §3).
        let n = name.len().min(255);
        c.sni[..n].copy_from_slice(&name[..n]);
        c.sni_len = n;
    }
    let key =
        share.map(|s| KeyShare::generate(s.group, config.key_exchanges, &mut c.rng)).transpose()?;
    let shared = match (&key, share) {
        (Some(k), Some(s)) => Some(k.agree(s.key)?),
        _ => None,
    };
    let public = key.as_ref().map(KeyShare::public);
    let first_flight = retry.is_none();
    let mut transcript = match retry {
        Some(r) => r.transcript,
        None => Transcript::new(suite.hash),
    };
    // The binder of the identity we take must verify over the transcript so far and the
    // ClientHello up to the binders (RFC 8446 §4.2.11.2); if it does not, the handshake
    // fails rather than falling back.
    if let (Some(p), Some(offer)) = (&chosen, x.pre_shared_key) {
        let cut = raw.len().checked_sub(offer.binders_encoded_len());
        let truncated =
            cut.and_then(|n| raw.get(..n)).ok_or(crate::msgs::InvalidMessage::BadLength)?;
        let mut bt = transcript.clone();
        bt.update(truncated);
        let early = EarlySecret::new(suite.hash, Some(p.psk.key()));
        let external = matches!(p.psk, ServerPsk::External(_));
        let expected = finished_verify_data(&early.binder_key(external), &bt.current());
        let binder = offer.binders.iter().nth(p.index).map_or(&[][..], |b| b.0);
        if !verify_finished(&expected, binder) {
            return Err(PeerMisbehaved::BadPskBinder.into());
        }
    }
    if share.is_none() && chosen.is_none() {
        // Unreachable (psk_ke is only chosen with a PSK), but never derive keys from
        // neither a key exchange nor a PSK.
        return Err(PeerIncompatible::NoCommonGroup.into());
    }
    transcript.update(raw);
    let sh = HandshakeMessage::ServerHello(ServerHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random,
        session_id: ch.session_id,
        cipher_suite: suite.suite,
        extensions: ServerHelloExtensions {
            supported_version: Some(ProtocolVersion::TLSV1_3),
            key_share: share
                .zip(public.as_ref())
                .map(|(s, p)| KeyShareEntry { group: s.group, key: p.as_ref() }),
            selected_identity: chosen.as_ref().and_then(|p| u16::try_from(p.index).ok()),
            ..ServerHelloExtensions::default()
        },
    });
    c.io.send_handshake(&sh, Some(&mut transcript))?;
    if first_flight && !ch.session_id.is_empty() {
        // Middlebox compatibility mode (RFC 8446 §D.4).
        c.io.send_plain(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
    }
    let zeros = [0u8; 48];
    let ikm = shared.as_ref().map_or(&zeros[..suite.hash.output_len()], |s| s.as_ref());
    let psk_bytes = chosen.as_ref().map(|p| p.psk.key());
    let mut hs = enter_handshake(c, suite, transcript, ikm, psk_bytes, false)?;
    let ee = HandshakeMessage::EncryptedExtensions(EncryptedExtensions {
        // RFC 6066 §3: a resumed session acknowledges no server_name.
        server_name_ack: x.server_name.is_some()
            && !matches!(chosen.as_ref().map(|p| &p.psk), Some(ServerPsk::Ticket(_))),
        alpn: alpn.map(|i| config.alpn[i]),
        record_size_limit,
        max_fragment_length,
        ..EncryptedExtensions::default()
    });
    c.io.send_handshake(&ee, Some(&mut hs.transcript))?;
    let (resumed, external_psk) = match chosen.as_ref().map(|p| &p.psk) {
        Some(ServerPsk::Ticket(_)) => (true, false),
        Some(ServerPsk::External(_)) => (false, true),
        None => (false, false),
    };
    // A resumed session keeps the scheme, client identity and authentication time of the
    // one it came from.
    let (scheme, resumed_client_auth) = match (&chosen, certificate) {
        (Some(ChosenPsk { psk: ServerPsk::Ticket(t), .. }), _) => {
            c.client_identity = t.client;
            c.authenticated_at = Some(t.authenticated_at);
            let client_auth = match t.client {
                ClientIdentity::Certificate { scheme, end_entity, .. } => {
                    c.peer_cert_sha256 = Some(end_entity);
                    Some(scheme)
                }
                ClientIdentity::ExternalPsk { identity } => {
                    let sha = |k: &&ExternalPsk<'_>| Sha256::digest(k.identity) == identity;
                    c.peer_psk =
                        config.psks.and_then(|p| p.keys.iter().find(sha)).map(|k| k.identity);
                    None
                }
                ClientIdentity::Anonymous => None,
            };
            (t.scheme, client_auth)
        }
        (Some(ChosenPsk { psk: ServerPsk::External(p), .. }), _) => {
            // The PSK authenticates the client: its tickets remember which one.
            let identity = Sha256::digest(p.identity);
            c.client_identity = ClientIdentity::ExternalPsk { identity };
            c.peer_psk = Some(p.identity);
            (SignatureScheme(0), None)
        }
        (_, Some((_, scheme))) => (scheme, None),
        _ => (SignatureScheme(0), None),
    };
    // RFC 8446 §4.3.2: no CertificateRequest in a PSK handshake.
    let client_auth = config.client_auth.is_some() && chosen.is_none();
    if client_auth {
        let mut buf = [SignatureScheme(0); MAX_LIST];
        let cr = HandshakeMessage::CertificateRequest(CertificateRequest {
            context: &[],
            signature_algorithms: Some(List::items(supported_schemes(&mut buf))),
        });
        c.io.send_handshake(&cr, Some(&mut hs.transcript))?;
    }
    if let Some((certified, scheme)) = certificate {
        send_server_certificate(c, certified, scheme, &mut hs.transcript)?;
    }
    let verify_data = finished_verify_data(&hs.server_hs, &hs.transcript.current());
    c.io.send_handshake(
        &HandshakeMessage::Finished(verify_data.as_ref()),
        Some(&mut hs.transcript),
    )?;
    let th: Digest = hs.transcript.current();
    let client_app = hs.master.client_traffic(&th);
    let server_app = hs.master.server_traffic(&th);
    c.set_write(suite, &server_app)?;
    c.server_app = Some(server_app);
    c.params = Negotiated {
        suite: suite.suite,
        group: share.map_or(NamedGroup(0), |s| s.group),
        scheme,
        alpn,
        retried: !first_flight,
        client_auth: resumed_client_auth,
        resumed,
        external_psk,
    };
    let st = ServerExpectFinished {
        client_hs: hs.client_hs,
        client_app,
        exporter: hs.master.exporter(&th),
        transcript: hs.transcript,
        suite,
        master: hs.master,
        send_tickets: x.psk_modes.is_some_and(|m| {
            m.contains(&PskKeyExchangeMode::PSK_DHE_KE)
                || (config.tickets.is_some_and(|t| t.psk_ke)
                    && m.contains(&PskKeyExchangeMode::PSK_KE))
        }),
    };
    Ok(if client_auth {
        State::ServerExpectCertificate(st)
    } else {
        State::ServerExpectFinished(st)
    })
}

/// Picks the certificate to present and its signature scheme: the first certificate valid
/// for the client's SNI name whose key can sign with a scheme `offered` accepts, else the
/// first whose key can.
fn choose_certificate<'a>(
    certs: &'a [CertifiedKey<'a>],
    sni: Option<&[u8]>,
    offered: impl Fn(SignatureScheme) -> bool + Copy,
) -> Option<(&'a CertifiedKey<'a>, SignatureScheme)> {
    let usable = || certs.iter().filter_map(move |c| Some((c, choose_scheme(c.key, offered)?)));
    let name = sni.and_then(|n| core::str::from_utf8(n).ok());
    name.and_then(|n| usable().find(|(c, _)| verify::cert_matches_name(c.chain[0], n)))
        .or_else(|| usable().next())
}

#[cfg(all(test, feature = "std"))]
mod tests {
    //! What only the crate can set up: a peer that breaks a negotiated record limit, and
    //! server answers our own server never gives.

    use std::vec;
    use std::vec::Vec;

    use core_hash::OsRandom;
    use pki_types::CertificateDer;

    use super::*;
    use crate::sign::SigningKey;

    const CA: &[u8] = include_bytes!("../tests/data/ca.der");
    const CERT: &[u8] = include_bytes!("../tests/data/server.der");
    const KEY: &[u8] = include_bytes!("../tests/data/server.key.der");

    fn leak<T>(v: T) -> &'static T {
        std::boxed::Box::leak(std::boxed::Box::new(v))
    }

    fn bufs() -> Buffers<'static> {
        Buffers {
            received: Vec::leak(vec![0; 17_000]),
            send: Vec::leak(vec![0; 40_000]),
            handshake: Vec::leak(vec![0; 8_000]),
        }
    }

    fn client_config(
        record_size_limit: Option<u16>,
        max_fragment_length: Option<MaxFragmentLength>,
    ) -> ClientConfig<'static> {
        let ca = leak(CertificateDer::from(CA));
        ClientConfig {
            record_size_limit,
            max_fragment_length,
            ..ClientConfig::new(
                leak([webpki::anchor_from_trusted_cert(ca).unwrap()]),
                &crate::SystemClock,
            )
        }
    }

    fn pair(
        client: ClientConfig<'static>,
        server_limit: Option<u16>,
    ) -> (Connection<'static, 'static>, Connection<'static, 'static>) {
        let key = leak(SigningKey::from_pkcs8_der(KEY).unwrap());
        let server = ServerConfig {
            record_size_limit: server_limit,
            ..ServerConfig::new(leak([CertifiedKey { chain: leak([CERT]), key }]))
        };
        let c = Connection::client(client, "localhost", bufs(), &mut OsRandom).unwrap();
        let s = Connection::server(server, bufs(), &mut OsRandom).unwrap();
        (c, s)
    }

    fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
        let data = from.pending_send().to_vec();
        from.sent(data.len());
        to.receive_space()[..data.len()].copy_from_slice(&data);
        to.received(data.len())
    }

    fn handshake(c: &mut Connection<'_, '_>, s: &mut Connection<'_, '_>) {
        for _ in 0..3 {
            pump(c, s).unwrap();
            pump(s, c).unwrap();
        }
        assert!(!c.is_handshaking() && !s.is_handshaking());
    }

    /// `from` ignores the limit it agreed to and sends `len` bytes in one record: `to`
    /// answers `record_overflow`, releases none of it, and `from` gets the alert.
    fn overflow(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>, len: usize) {
        from.c.io.send_limit = MAX_PLAINTEXT_LEN;
        assert_eq!(from.write(&vec![5; len]).unwrap(), len);
        assert_eq!(pump(from, to), Err(Error::RecordOverflow));
        assert_eq!(to.read(&mut [0; 16]), Err(Error::RecordOverflow));
        assert_eq!(pump(to, from), Err(Error::AlertReceived(AlertDescription::RECORD_OVERFLOW)));
    }

    #[test]
    fn a_server_over_the_clients_record_size_limit_gets_record_overflow() {
        let (mut c, mut s) = pair(client_config(Some(100), None), None);
        handshake(&mut c, &mut s);
        // 99 content bytes and the type byte fill the limit exactly; one more is over.
        assert_eq!(s.write(&[1; 99]).unwrap(), 99);
        pump(&mut s, &mut c).unwrap();
        assert_eq!(c.read(&mut [0; 200]).unwrap(), 99);
        overflow(&mut s, &mut c, 100);
    }

    #[test]
    fn a_client_over_the_servers_record_size_limit_gets_record_overflow() {
        let (mut c, mut s) = pair(client_config(Some(1000), None), Some(300));
        handshake(&mut c, &mut s);
        overflow(&mut c, &mut s, 300);
    }

    #[test]
    fn a_peer_over_the_max_fragment_length_gets_record_overflow() {
        let m = MaxFragmentLength::LEN_1024;
        let (mut c, mut s) = pair(client_config(None, Some(m)), None);
        handshake(&mut c, &mut s);
        overflow(&mut c, &mut s, 1025);
        let (mut c, mut s) = pair(client_config(None, Some(m)), None);
        handshake(&mut c, &mut s);
        overflow(&mut s, &mut c, 1025);
    }

    /// Padding counts against `record_size_limit` (RFC 8449 §4: the limit is on the whole
    /// TLSInnerPlaintext): 10 content bytes padded past the limit are `record_overflow`.
    #[test]
    fn padding_counts_against_the_limit() {
        let (mut c, mut s) = pair(client_config(Some(64), None), None);
        handshake(&mut c, &mut s);
        let mut record = [0u8; 200];
        let key = s.c.io.write_key.as_mut().unwrap();
        let n = key.seal(ContentType::APPLICATION_DATA, &[7; 10], 53, &mut record).unwrap();
        c.receive_space()[..n].copy_from_slice(&record[..n]);
        assert_eq!(c.received(n), Ok(()));
        assert_eq!(c.read(&mut [0; 64]), Ok(10));
        let key = s.c.io.write_key.as_mut().unwrap();
        let n = key.seal(ContentType::APPLICATION_DATA, &[7; 10], 54, &mut record).unwrap();
        c.receive_space()[..n].copy_from_slice(&record[..n]);
        assert_eq!(c.received(n), Err(Error::RecordOverflow));
    }

    /// A Certificate message (RFC 8446 §4.4.2) of one entry, `CERT`, with `extensions`.
    fn certificate_with(extensions: &[u8]) -> Vec<u8> {
        let u24 = |n: usize| [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let mut entry = u24(CERT.len()).to_vec();
        entry.extend_from_slice(CERT);
        entry.extend_from_slice(&u16::try_from(extensions.len()).unwrap().to_be_bytes());
        entry.extend_from_slice(extensions);
        let mut body = vec![0]; // empty certificate_request_context
        body.extend_from_slice(&u24(entry.len()));
        body.extend(entry);
        let mut msg = vec![11];
        msg.extend_from_slice(&u24(body.len()));
        msg.extend(body);
        msg
    }

    /// RFC 8446 §4.4.2, §4.2: Halite solicits no CertificateEntry extension (neither OCSP nor
    /// SCTs), so one in a peer's Certificate is unsupported_extension, in both roles (both
    /// check it in `check_certificate`), before the chain or signature is looked at.
    #[test]
    fn certificate_entry_extensions_are_unsolicited() {
        let anchor = webpki::anchor_from_trusted_cert(leak(CertificateDer::from(CA))).unwrap();
        let roots = [anchor];
        // CertificateVerify: ed25519, a 64-byte signature that does not verify.
        let mut cv = vec![15, 0, 0, 68, 0x08, 0x07, 0, 64];
        cv.extend_from_slice(&[0; 64]);
        let now = UnixTime::since_unix_epoch(core::time::Duration::from_secs(1_800_000_000));
        let peers = [verify::Peer::Server("localhost"), verify::Peer::Client];
        for extension in [&[0x00, 0x7f, 0, 0][..], &[0, 5, 0, 3, 1, 0, 0], &[0, 18, 0, 2, 0, 0]] {
            for peer in peers {
                let cert = certificate_with(extension);
                let got = check_certificate(
                    &mut Transcript::new(HashAlg::Sha256),
                    &cert,
                    &cv,
                    (&roots, None),
                    peer,
                    now,
                );
                assert_eq!(
                    got.map(|_| ()),
                    Err(crate::msgs::InvalidMessage::UnexpectedExtension.into()),
                    "{extension:?} {peer:?}"
                );
                assert_eq!(
                    Error::from(crate::msgs::InvalidMessage::UnexpectedExtension).alert(),
                    Some(AlertDescription::UNSUPPORTED_EXTENSION)
                );
            }
        }
        // Without the extension the same message goes on to the signature (which fails).
        let got = check_certificate(
            &mut Transcript::new(HashAlg::Sha256),
            &certificate_with(&[]),
            &cv,
            (&roots, None),
            peers[0],
            now,
        );
        assert_eq!(got.map(|_| ()), Err(Error::PeerMisbehaved(PeerMisbehaved::BadSignature)));
    }

    /// The client's checks of the server's answer, on EncryptedExtensions our server never
    /// sends.
    #[test]
    fn server_answers_are_checked() {
        use crate::msgs::InvalidMessage::{IllegalValue, UnexpectedExtension};
        let m512 = MaxFragmentLength::LEN_512;
        let cases: [(Option<u16>, Option<MaxFragmentLength>, EncryptedExtensions<'_>, _); 6] = [
            // Answers to what was not offered.
            (
                None,
                Some(m512),
                EncryptedExtensions { record_size_limit: Some(100), ..Default::default() },
                UnexpectedExtension,
            ),
            (
                Some(100),
                None,
                EncryptedExtensions { max_fragment_length: Some(m512), ..Default::default() },
                UnexpectedExtension,
            ),
            // A limit below 64, a fragment length other than the offered one, both at once.
            (
                Some(100),
                None,
                EncryptedExtensions { record_size_limit: Some(63), ..Default::default() },
                IllegalValue,
            ),
            (
                None,
                Some(m512),
                EncryptedExtensions {
                    max_fragment_length: Some(MaxFragmentLength::LEN_1024),
                    ..Default::default()
                },
                IllegalValue,
            ),
            (
                None,
                Some(m512),
                EncryptedExtensions {
                    max_fragment_length: Some(MaxFragmentLength(9)),
                    ..Default::default()
                },
                IllegalValue,
            ),
            (
                Some(100),
                Some(m512),
                EncryptedExtensions {
                    record_size_limit: Some(100),
                    max_fragment_length: Some(m512),
                    ..Default::default()
                },
                IllegalValue,
            ),
        ];
        for (rsl, mfl, ee, want) in cases {
            let config = client_config(rsl, mfl);
            let (mut c, _) = pair(config, None);
            assert_eq!(client_record_limits(&mut c.c, &config, &ee), Err(want.into()), "{ee:?}");
        }
        // A limit above the protocol's is taken as the protocol's.
        let config = client_config(Some(100), None);
        let (mut c, _) = pair(config, None);
        let ee = EncryptedExtensions { record_size_limit: Some(u16::MAX), ..Default::default() };
        client_record_limits(&mut c.c, &config, &ee).unwrap();
        assert_eq!(c.record_limits(), RecordLimits { send: MAX_PLAINTEXT_LEN, receive: 100 });
    }
}
