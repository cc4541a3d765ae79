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
//!
//! With the `tls12` feature (on by default) a client also offers TLS 1.2
//! ([`ClientConfig::versions`]) and a server accepts it ([`ServerConfig::versions`]), the
//! highest version both speak being taken ([`DEFAULT_VERSIONS`]): ECDHE with AEAD suites only, the extended master secret
//! required, renegotiation refused; the client also does client certificates and resumption
//! by session id and RFC 5077 ticket, the server resumption by ticket (see
//! `crate::client::tls12` and `crate::server::tls12`).

use core_hash::{RandomSource, Sha256};

use crate::error::{ApiMisuse, Error};
use crate::key_schedule::{Transcript, next_traffic_secret};
use crate::kx::KeyShare;
use crate::msgs::handshake::Typed;
use crate::msgs::{
    AlertDescription, CertificateEntry, CipherSuite, Codec, ContentType, HandshakeMessage,
    KeyUpdateRequest, List, NamedGroup, ProtocolVersion, SignatureScheme,
};
use crate::record::{HEADER_LEN, MAX_PLAINTEXT_LEN, RecordHeader, RecordProtection};
#[cfg(feature = "tickets")]
use crate::suites;
use crate::ticket::{ClientIdentity, Session, SessionId, TicketTooLong};

use crate::client::ClientState;
use crate::client::hello::{
    ClientHelloSent, Offered, Resumption, first_key_group, send_client_hello,
};
#[cfg(feature = "tls12")]
pub use crate::config::ServerSessionCache;
pub use crate::config::{
    Buffers, ClientAuth, ClientConfig, DEFAULT_VERSIONS, MAX_EMPTY_RECORDS, MAX_KEY_UPDATES,
    MAX_SKIPPED_EARLY_DATA, MAX_TICKET_LIFETIME, MAX_USER_CANCELED, ServerConfig, ServerTickets,
};
use crate::engine::handshake::State;
use crate::engine::io::{Io, Protection};
use crate::engine::{ConnRng, Core, SinceData, random};
#[cfg(feature = "server")]
use crate::server::ServerState;

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
    /// The protocol version: [`ProtocolVersion::TLSV1_3`] or [`ProtocolVersion::TLSV1_2`].
    pub version: ProtocolVersion,
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
    /// was resumed with `psk_ke`, without a key exchange; in TLS 1.2, by session id or
    /// ticket, always without one).
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
pub struct CertificateChain<'c>(pub(crate) Chain<'c>);

/// The chain in the form its version sends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chain<'c> {
    /// TLS 1.3: entries with (empty) extensions.
    V13(List<'c, CertificateEntry<'c>, crate::msgs::U24>),
    /// TLS 1.2: bare certificates.
    V12(List<'c, crate::msgs::tls12::Asn1Cert<'c>, crate::msgs::U24>),
}

impl<'c> CertificateChain<'c> {
    /// The end-entity certificate (DER).
    pub fn end_entity(&self) -> Option<&'c [u8]> {
        self.iter().next()
    }

    /// The certificates (DER), end-entity first, then the intermediates as sent.
    pub fn iter(&self) -> impl Iterator<Item = &'c [u8]> + use<'c> {
        let (v13, v12) = match self.0 {
            Chain::V13(l) => (Some(l.iter().map(|e| e.cert)), None),
            Chain::V12(l) => (None, Some(l.iter().map(|c| c.0))),
        };
        v13.into_iter().flatten().chain(v12.into_iter().flatten())
    }
}

/// A TLS 1.3 or TLS 1.2 connection, client or server, over caller-provided buffers.
///
/// See `tests/handshake.rs` for a client and a server driven against each other in memory.
pub struct Connection<'a, 'b> {
    pub(crate) c: Core<'a, 'b>,
    pub(crate) hs: &'b mut [u8],
    pub(crate) hs_len: usize,
    /// Where handshake reassembly starts in `hs`: after the peer's Certificate message once
    /// it is checked (kept for [`Connection::peer_identity`] until the room is needed).
    pub(crate) hs_start: usize,
    /// Where handshake reassembly ends in `hs`: its length, less the ticket a client offers
    /// (kept at the end until the ServerHello, to be sent again after a HelloRetryRequest).
    pub(crate) hs_end: usize,
    pub(crate) state: State<'a>,
}

impl core::fmt::Debug for Connection<'_, '_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Connection")
            .field("negotiated", &self.c.negotiated)
            .field("error", &self.c.error)
            .finish_non_exhaustive()
    }
}

impl<'a, 'b> Connection<'a, 'b> {
    /// A connection in `state` with nothing received or sent yet; `rng` is drawn from first,
    /// so that a failing source leaves nothing built.
    fn new(bufs: Buffers<'b>, state: State<'a>, rng: &mut dyn RandomSource) -> Result<Self, Error> {
        let rng = ConnRng::from_source(rng)?;
        Ok(Self::with_rng(bufs, state, rng))
    }

    /// As [`new`](Self::new), with the generator drawn already (infallible, so that the value
    /// can be built straight into a caller's slot).
    fn with_rng(bufs: Buffers<'b>, state: State<'a>, rng: ConnRng) -> Self {
        let Buffers { received, send, handshake } = bufs;
        Self {
            c: Core {
                io: Io {
                    rx: received,
                    rx_start: 0,
                    rx_len: 0,
                    tx: send,
                    tx_len: 0,
                    send_limit: MAX_PLAINTEXT_LEN,
                    plain_limit: MAX_PLAINTEXT_LEN,
                    recv_limit: MAX_PLAINTEXT_LEN + 1,
                    read_key: None,
                    write_key: None,
                },
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
                    version: ProtocolVersion::TLSV1_3,
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
        }
    }

    /// Starts a client handshake with `server_name` (sent as SNI and checked against the
    /// certificate); the ClientHello is queued at once. On a small device, where the
    /// connection returned by value costs its size again in stack, [`Connection::client_in`]
    /// builds it in the caller's storage instead.
    pub fn client(
        config: ClientConfig<'a>,
        server_name: &'a str,
        bufs: Buffers<'b>,
        rng: &mut dyn RandomSource,
    ) -> Result<Self, Error> {
        config.check(server_name)?;
        let mut conn = Self::new(bufs, State::Client(config, ClientState::Dead), rng)?;
        conn.start_client(config, server_name, rng)?;
        Ok(conn)
    }

    /// As [`Connection::client`], building the connection in `slot` (whatever it held is
    /// dropped first) and returning it there: no connection-sized value is returned or moved
    /// on the stack. On an error that comes after the connection is built, `slot` holds it
    /// failed, with the same [`Connection::error`].
    // Out of line: the connection is built as a temporary before it is moved into `slot`,
    // and inlined into the caller that temporary's stack stays reserved under the whole
    // handshake (1.4 KB on the Cortex-M0).
    #[inline(never)]
    pub fn client_in<'s>(
        slot: &'s mut Option<Self>,
        config: ClientConfig<'a>,
        server_name: &'a str,
        bufs: Buffers<'b>,
        rng: &mut dyn RandomSource,
    ) -> Result<&'s mut Self, Error> {
        config.check(server_name)?;
        let conn_rng = ConnRng::from_source(rng)?;
        *slot = None;
        let conn =
            slot.insert(Self::with_rng(bufs, State::Client(config, ClientState::Dead), conn_rng));
        if let Err(e) = conn.start_client(config, server_name, rng) {
            // Nothing was sent: no alert, only the sticky error.
            conn.c.error = Some(e);
            conn.state.kill();
            return Err(e);
        }
        Ok(conn)
    }

    /// Client, on a connection just built with `config`: the key share, the offered ticket
    /// or PSK, the ClientHello queued and hashed.
    // Out of line: its frame (the key share, the ClientHello's lists) is given back before
    // the handshake's, instead of staying in the caller's for the connection's life.
    #[inline(never)]
    fn start_client(
        &mut self,
        config: ClientConfig<'a>,
        server_name: &'a str,
        rng: &mut dyn RandomSource,
    ) -> Result<(), Error> {
        let Some(first_group) = first_key_group(&config) else {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        };
        let conn = self;
        let name = server_name.as_bytes();
        conn.c.sni[..name.len()].copy_from_slice(name);
        conn.c.sni_len = name.len();
        // A TLS 1.2-only client makes its key when the ServerKeyExchange names the group.
        let key = if config.offers(ProtocolVersion::TLSV1_3) {
            Some(KeyShare::keygen(first_group, config.key_exchanges, rng)?)
        } else {
            None
        };
        // From the bytes the connection's generator drew with its seed: no second system call.
        let random_bytes: [u8; 32] = random(&mut conn.c.rng)?;
        let random_id: [u8; 32] = random(&mut conn.c.rng)?;
        // A ticket for the server if there is one, else the external PSK (TLS 1.3 only). A
        // TLS 1.2 session is offered by its id (when it has one) and ticket (when it has
        // one) instead.
        let tls13 = config.offers(ProtocolVersion::TLSV1_3);
        let external_psk = config.external_psk.is_some() && tls13;
        #[cfg(feature = "tickets")]
        let offer = match conn.take_ticket(&config, server_name) {
            Some(session) if session.is_tls12() => Resumption::Tls12 { session, external_psk },
            Some(session) => Resumption::Psk(Offered::Ticket(session)),
            None if external_psk => Resumption::Psk(Offered::External),
            None => Resumption::None,
        };
        #[cfg(not(feature = "tickets"))]
        let offer =
            if external_psk { Resumption::Psk(Offered::External) } else { Resumption::None };
        let r12 = offer.tls12().and_then(Session::tls12);
        // The session id: the offered TLS 1.2 session's; else random, in TLS 1.3's
        // compatibility mode (RFC 8446 Appendix D.4) or beside a TLS 1.2 ticket (to tell
        // resumption, RFC 5077 §3.4); else, offering TLS 1.2 only and no session, empty (RFC
        // 5246 §7.4.1.2).
        let session_id = match r12.and_then(|r| r.session_id) {
            Some(id) => id,
            None if tls13 || r12.is_some() => SessionId::new(&random_id).unwrap_or_default(),
            None => SessionId::default(),
        };
        let ticket12 = r12.filter(|r| r.by_ticket).map(|_| &conn.hs[conn.hs_end..]);
        let psk = offer.psk();
        let binder_base = psk.and_then(|p| p.hash(&config)).map(Transcript::new).transpose()?;
        let psk = psk.zip(binder_base).map(|(p, t)| (p, &conn.hs[conn.hs_end..], t));
        send_client_hello(
            &mut conn.c,
            &config,
            &random_bytes,
            session_id.as_slice(),
            key.as_ref(),
            None,
            false,
            None,
            psk,
            ticket12,
        )?;
        // RFC 8446 §5.1 and Appendix D: the initial ClientHello's records may say TLS 1.0, for
        // servers that know no newer version; most clients do, and every later record says
        // TLS 1.2.
        conn.c.io.set_record_version(0, ProtocolVersion::TLSV1_0);
        // The ClientHello under both hashes, until the ServerHello says which one the suite
        // uses.
        let ch = &conn.c.io.tx[HEADER_LEN..conn.c.io.tx_len];
        // SHA-384 only when an offered suite or our key may need it.
        let mut th256 = Sha256::new();
        th256.update(ch);
        #[cfg(feature = "sha384")]
        let th384 = config.needs_sha384().then(|| {
            let mut h = core_hash::Sha384::new();
            h.update(ch);
            h
        });
        let hello = ClientHelloSent {
            key,
            random: random_bytes,
            session_id,
            th256,
            #[cfg(feature = "sha384")]
            th384,
            offer,
        };
        conn.state = State::Client(config, ClientState::ExpectServerHello(hello));
        Ok(())
    }

    /// Client: takes the store's ticket for `server_name` into the end of the handshake
    /// buffer, where it stays until the ServerHello. It may use half the buffer; the rest is
    /// for the ServerHello (or HelloRetryRequest). Returns its session if it can be offered:
    /// within its lifetime, for a suite we offer.
    #[cfg(feature = "tickets")]
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
        // A TLS 1.3 ticket for a suite we offer; a TLS 1.2 session (with the extended
        // master secret, RFC 7627 §5.3) for a TLS 1.2 suite we offer.
        let usable = match session.tls12() {
            None => {
                config.offers(ProtocolVersion::TLSV1_3)
                    && suites::find(config.suites, session.suite()).is_some()
            }
            Some(r) => {
                r.ems
                    && config.offers(ProtocolVersion::TLSV1_2)
                    && config.offers_suite12(session.suite())
            }
        };
        if !session.is_valid_at(now) || !usable {
            return None;
        }
        self.hs_end = self.hs.len() - len;
        self.hs.copy_within(..len, self.hs_end);
        Some(session)
    }

    /// Starts a server connection, waiting for a ClientHello; without the `server` feature,
    /// [`ApiMisuse::BadConfig`].
    // Out of line, as `client`.
    #[inline(never)]
    pub fn server(
        config: ServerConfig<'a>,
        bufs: Buffers<'b>,
        rng: &mut dyn RandomSource,
    ) -> Result<Self, Error> {
        #[cfg(not(feature = "server"))]
        return {
            let _ = (config, bufs, rng);
            Err(Error::ApiMisuse(ApiMisuse::BadConfig))
        };
        #[cfg(feature = "server")]
        return {
            config.check()?;
            let mut conn = Self::new(bufs, State::Server(config, ServerState::Dead), rng)?;
            // From the bytes the connection's generator drew with its seed: no second system
            // call.
            let random = random(&mut conn.c.rng)?;
            conn.state = State::Server(config, ServerState::ExpectClientHello { random });
            Ok(conn)
        };
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
    /// the room there was — a NewSessionTicket the [`TicketStore`](crate::ticket::TicketStore) could not keep, or a kept
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
        !self.state.in_traffic()
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
        let kept = &self.hs[..self.hs_start];
        let chain = if self.c.negotiated.is_some_and(|n| n.version == ProtocolVersion::TLSV1_2) {
            match crate::msgs::HandshakeMessage12::decode(kept) {
                Ok(crate::msgs::HandshakeMessage12::Certificate(cert)) => {
                    Some(CertificateChain(Chain::V12(cert.certs)))
                }
                _ => None,
            }
        } else {
            match HandshakeMessage::decode(kept) {
                Ok(HandshakeMessage::Certificate(cert)) => {
                    Some(CertificateChain(Chain::V13(cert.entries)))
                }
                _ => None,
            }
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
    ///
    /// Records are as long as [`RecordLimits::send`] allows: one is cut short by the room left
    /// in the send buffer only when nothing else is queued (a buffer smaller than one record),
    /// so a caller that sends what is queued and writes the rest again never splits its data
    /// into more records than it needs.
    pub fn write(&mut self, data: &[u8]) -> Result<usize, Error> {
        if let Some(e) = self.c.error {
            return Err(e);
        }
        if self.is_handshaking() {
            return Err(Error::ApiMisuse(ApiMisuse::HandshakeNotComplete));
        }
        let mut done = 0;
        while done < data.len() {
            let overhead = self.c.io.queued_len(0);
            let room = self.c.io.tx.len() - self.c.io.tx_len;
            if room <= overhead {
                break;
            }
            let whole = (data.len() - done).min(self.c.io.send_limit);
            let n = whole.min(room - overhead);
            if n < whole && self.c.io.tx_len > 0 {
                break;
            }
            self.c.io.send_plain(ContentType::APPLICATION_DATA, &data[done..done + n])?;
            done += n;
        }
        if let (Some(t), true) = (self.state.traffic_mut(), done > 0) {
            t.updated_since_data = false;
        }
        Ok(done)
    }

    /// Queues a close_notify alert.
    pub fn close(&mut self) {
        self.c.io.send_alert(AlertDescription::CLOSE_NOTIFY);
    }

    /// Asks the peer to update its keys and updates ours (RFC 8446 §4.6.3); TLS 1.2 has no
    /// KeyUpdate ([`ApiMisuse::BadConfig`]).
    pub fn key_update(&mut self) -> Result<(), Error> {
        // TLS 1.2 has no KeyUpdate.
        #[cfg(feature = "tls12")]
        if self.state.traffic12() {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        let Some(t) = self.state.traffic_mut() else {
            return Err(Error::ApiMisuse(ApiMisuse::HandshakeNotComplete));
        };
        let msg = Typed(KeyUpdateRequest::UPDATE_REQUESTED);
        self.c.io.send_handshake(&msg, None)?;
        t.write_secret = next_traffic_secret(&t.write_secret);
        self.c.io.write_key =
            Some(Protection::V13(RecordProtection::new(t.suite.aead, &t.write_secret)?));
        Ok(())
    }

    /// Fills `out` with keying material exported under `label` and `context` (RFC 8446 §7.5,
    /// RFC 5705): `HKDF-Expand-Label(Derive-Secret(exporter_master_secret, label, ""),
    /// "exporter", Hash(context), out.len())`, the same on both ends of the connection, for
    /// protocols that bind keys or tokens to the TLS session. TLS 1.3 makes no difference
    /// between an empty and an absent context. Only once the handshake is done
    /// ([`ApiMisuse::HandshakeNotComplete`] before, the sticky error after a failure); a label
    /// over 249 bytes or more than 255 hash lengths of output is [`ApiMisuse::BadConfig`].
    ///
    /// On a TLS 1.2 connection it is RFC 5705's `PRF(master_secret, label, client_random ‖
    /// server_random ‖ uint16 length ‖ context)`, always with the context (an empty one too);
    /// a label the handshake itself uses is [`ApiMisuse::BadConfig`].
    pub fn export_keying_material(
        &self,
        label: &[u8],
        context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        if let Some(e) = self.c.error {
            return Err(e);
        }
        // RFC 5705 §4: with a context (here always, even an empty one).
        #[cfg(feature = "tls12")]
        if let State::Client(_, ClientState::Traffic12(t)) = &self.state {
            return t.master.export(label, Some(context), &t.client_random, &t.server_random, out);
        }
        #[cfg(all(feature = "tls12", feature = "server"))]
        if let State::Server(_, ServerState::Traffic12(t)) = &self.state {
            return t.master.export(label, Some(context), &t.client_random, &t.server_random, out);
        }
        let Some(t) = self.state.traffic() else {
            return Err(Error::ApiMisuse(ApiMisuse::HandshakeNotComplete));
        };
        let alg = t.exporter.suite_hash();
        if label.len() > 249 || out.len() > 255 * alg.output_len() {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        let secret = alg.derive_secret(&t.exporter, label, &alg.hash(&[]));
        alg.expand_label(&secret, b"exporter", alg.hash(context).as_ref(), out);
        Ok(())
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    //! What only the crate can set up: a peer that breaks a negotiated record limit, and
    //! server answers our own server never gives.

    use std::vec;
    use std::vec::Vec;

    #[cfg(feature = "x509")]
    use core_hash::OsRandom;
    use pki_types::CertificateDer;

    use super::*;
    #[cfg(feature = "x509")]
    use crate::client::tls13::client_record_limits;
    use crate::engine::handshake::check_certificate;
    use crate::error::PeerMisbehaved;
    use crate::key_schedule::HashAlg;
    #[cfg(feature = "x509")]
    use crate::msgs::{EncryptedExtensions, MaxFragmentLength};
    use crate::verify;
    use pki_types::UnixTime;

    const CA: &[u8] = include_bytes!("../tests/data/ca.der");
    const CERT: &[u8] = include_bytes!("../tests/data/server.der");
    #[cfg(all(feature = "server", feature = "x509"))]
    const KEY: &[u8] = include_bytes!("../tests/data/server.key.der");

    fn leak<T>(v: T) -> &'static T {
        std::boxed::Box::leak(std::boxed::Box::new(v))
    }

    #[cfg(feature = "x509")]
    fn bufs() -> Buffers<'static> {
        Buffers {
            received: Vec::leak(vec![0; 17_000]),
            send: Vec::leak(vec![0; 40_000]),
            handshake: Vec::leak(vec![0; 8_000]),
        }
    }

    #[cfg(feature = "x509")]
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

    #[cfg(all(feature = "server", feature = "x509"))]
    fn pair(
        config: ClientConfig<'static>,
        server_limit: Option<u16>,
    ) -> (Connection<'static, 'static>, Connection<'static, 'static>) {
        use crate::sign::{CertifiedKey, SigningKey};
        let key = leak(SigningKey::from_pkcs8_der(KEY).unwrap());
        let server = ServerConfig {
            record_size_limit: server_limit,
            ..ServerConfig::new(leak([CertifiedKey { chain: leak([CERT]), key }]))
        };
        let s = Connection::server(server, bufs(), &mut OsRandom).unwrap();
        (client(&config), s)
    }

    #[cfg(feature = "x509")]
    fn client(config: &ClientConfig<'static>) -> Connection<'static, 'static> {
        Connection::client(*config, "localhost", bufs(), &mut OsRandom).unwrap()
    }

    #[cfg(all(feature = "server", feature = "x509"))]
    fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
        let data = from.pending_send().to_vec();
        from.sent(data.len());
        to.receive_space()[..data.len()].copy_from_slice(&data);
        to.received(data.len())
    }

    #[cfg(all(feature = "server", feature = "x509"))]
    fn handshake(c: &mut Connection<'_, '_>, s: &mut Connection<'_, '_>) {
        for _ in 0..3 {
            pump(c, s).unwrap();
            pump(s, c).unwrap();
        }
        assert!(!c.is_handshaking() && !s.is_handshaking());
    }

    /// A client built in place completes the same handshake; one its configuration refuses
    /// leaves the slot as it was.
    #[cfg(all(feature = "server", feature = "x509"))]
    #[test]
    fn a_client_built_in_place_handshakes() {
        let (_, mut s) = pair(client_config(None, None), None);
        let mut slot = Some(pair(client_config(None, None), None).0);
        let c = Connection::client_in(
            &mut slot,
            client_config(None, None),
            "localhost",
            bufs(),
            &mut OsRandom,
        )
        .unwrap();
        handshake(c, &mut s);
        assert!(slot.as_ref().is_some_and(|c| c.negotiated().is_some()));
        let config = ClientConfig { groups: &[], ..client_config(None, None) };
        let bad = Connection::client_in(&mut slot, config, "localhost", bufs(), &mut OsRandom);
        assert_eq!(bad.err(), Some(Error::ApiMisuse(ApiMisuse::BadConfig)));
        assert!(slot.is_some_and(|c| c.negotiated().is_some()));
    }

    /// `from` ignores the limit it agreed to and sends `len` bytes in one record: `to`
    /// answers `record_overflow`, releases none of it, and `from` gets the alert.
    #[cfg(all(feature = "server", feature = "x509"))]
    fn overflow(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>, len: usize) {
        from.c.io.send_limit = MAX_PLAINTEXT_LEN;
        assert_eq!(from.write(&vec![5; len]).unwrap(), len);
        assert_eq!(pump(from, to), Err(Error::RecordOverflow));
        assert_eq!(to.read(&mut [0; 16]), Err(Error::RecordOverflow));
        assert_eq!(pump(to, from), Err(Error::AlertReceived(AlertDescription::RECORD_OVERFLOW)));
    }

    #[cfg(all(feature = "server", feature = "x509"))]
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

    #[cfg(all(feature = "server", feature = "x509"))]
    #[test]
    fn a_client_over_the_servers_record_size_limit_gets_record_overflow() {
        let (mut c, mut s) = pair(client_config(Some(1000), None), Some(300));
        handshake(&mut c, &mut s);
        overflow(&mut c, &mut s, 300);
    }

    #[cfg(all(feature = "server", feature = "x509"))]
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
    #[cfg(all(feature = "server", feature = "x509"))]
    #[test]
    fn padding_counts_against_the_limit() {
        let (mut c, mut s) = pair(client_config(Some(64), None), None);
        handshake(&mut c, &mut s);
        let mut record = [0u8; 200];
        let Some(Protection::V13(key)) = s.c.io.write_key.as_mut() else { panic!() };
        let n = key.seal(ContentType::APPLICATION_DATA, &[7; 10], 53, &mut record).unwrap();
        c.receive_space()[..n].copy_from_slice(&record[..n]);
        assert_eq!(c.received(n), Ok(()));
        assert_eq!(c.read(&mut [0; 64]), Ok(10));
        let Some(Protection::V13(key)) = s.c.io.write_key.as_mut() else { panic!() };
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
        // Without `x509` no Certificate message is read: each is `NotBuiltIn`.
        let refused = |e: Error| {
            if cfg!(feature = "x509") {
                Err(e)
            } else {
                Err(Error::InvalidCertificate(crate::error::CertificateError::NotBuiltIn))
            }
        };
        for extension in [&[0x00, 0x7f, 0, 0][..], &[0, 5, 0, 3, 1, 0, 0], &[0, 18, 0, 2, 0, 0]] {
            for peer in peers {
                let cert = certificate_with(extension);
                let got = check_certificate(
                    &mut Transcript::new(HashAlg::Sha256).unwrap(),
                    &cert,
                    &cv,
                    (&roots, None),
                    peer,
                    now,
                );
                assert_eq!(
                    got.map(|_| ()),
                    refused(crate::msgs::InvalidMessage::UnexpectedExtension.into()),
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
            &mut Transcript::new(HashAlg::Sha256).unwrap(),
            &certificate_with(&[]),
            &cv,
            (&roots, None),
            peers[0],
            now,
        );
        assert_eq!(got.map(|_| ()), refused(Error::PeerMisbehaved(PeerMisbehaved::BadSignature)));
    }

    /// The client's checks of the server's answer, on EncryptedExtensions our server never
    /// sends.
    #[cfg(feature = "x509")]
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
            let mut c = client(&config);
            assert_eq!(client_record_limits(&mut c.c, &config, &ee), Err(want.into()), "{ee:?}");
        }
        // A limit above the protocol's is taken as the protocol's.
        let config = client_config(Some(100), None);
        let mut c = client(&config);
        let ee = EncryptedExtensions { record_size_limit: Some(u16::MAX), ..Default::default() };
        client_record_limits(&mut c.c, &config, &ee).unwrap();
        assert_eq!(c.record_limits(), RecordLimits { send: MAX_PLAINTEXT_LEN, receive: 100 });
    }

    /// The ClientHello is hashed with SHA-384 as well only when an offered suite uses it or
    /// our key may sign a TLS 1.2 CertificateVerify over the other hash.
    #[cfg(feature = "tls12")]
    #[test]
    fn sha384_transcript_only_when_it_may_be_needed() {
        use crate::provider::Signer as _;
        use crate::sign::{CertifiedKey, SigningKey};
        use crate::suites::tls12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 as GCM12;
        use crate::suites::{TLS13_AES_128_GCM_SHA256 as GCM13, TLS13_AES_256_GCM_SHA384};
        let clock = leak(UnixTime::since_unix_epoch(core::time::Duration::from_secs(1 << 30)));
        let defaults = ClientConfig::new(&[], clock);
        assert!(defaults.needs_sha384(), "the default suites have AES-256-GCM-SHA384");
        let sha256 = ClientConfig { suites: leak([GCM13]), suites12: leak([GCM12]), ..defaults };
        assert!(!sha256.needs_sha384());
        let v13 = ClientConfig { suites: leak([GCM13, TLS13_AES_256_GCM_SHA384]), ..sha256 };
        assert!(v13.needs_sha384());
        let v12 = ClientConfig { versions: leak([ProtocolVersion::TLSV1_2]), ..v13 };
        assert!(!v12.needs_sha384(), "a TLS 1.3 suite is not offered over TLS 1.2");
        // An ECDSA P-256 key signs TLS 1.2 digests (the Ed25519 `KEY` does not).
        let p256 = include_bytes!("../tests/data/server-p256.key.der");
        let key = leak(SigningKey::from_pkcs8_der(p256).unwrap());
        assert!(!key.tls12_digest_schemes().is_empty());
        let cert = CertifiedKey { chain: leak([CERT]), key };
        assert!(ClientConfig { client_cert: Some(cert), ..sha256 }.needs_sha384());
    }
}
