//! Session tickets for PSK resumption (RFC 8446 §4.6.1, §4.2.11): what a client keeps from a
//! NewSessionTicket and the caller-supplied store it keeps it in, and the server's stateless
//! tickets — the resumption state sealed with AES-256-GCM under a key the caller provides, so
//! the server keeps nothing per client; and, for TLS 1.2 clients that take no ticket, the
//! server's session-id cache ([`SessionCache`]) keeping the same state in the clear.

// Without `tickets` a client keeps no session (a TLS 1.2 one is still built, and dropped):
// the parts of a session that resumption reads are the public API's alone then.
#![cfg_attr(not(feature = "tickets"), allow(dead_code))]

use core_aead::{Aead, Aes256Gcm};
use zeroize::Zeroize;

use crate::error::{ApiMisuse, Error};
use crate::msgs::{CipherSuite, SignatureScheme};

/// The longest resumption PSK: a SHA-384 output.
const MAX_PSK_LEN: usize = 48;

/// The longest ticket the protocol carries (`opaque ticket<1..2^16-1>`, RFC 8446 §4.6.1).
pub const MAX_TICKET_LEN: usize = 0xffff;

/// What a client keeps of a NewSessionTicket besides the opaque ticket: the PSK it stands
/// for, the suite and server signature scheme of the session, and the ticket's age
/// parameters. Fixed size (under 100 bytes), so the connection can hold it while the ticket
/// bytes stay in caller storage; the PSK is wiped on drop.
#[derive(Clone)]
pub struct Session {
    suite: CipherSuite,
    scheme: SignatureScheme,
    psk: [u8; MAX_PSK_LEN],
    psk_len: usize,
    age_add: u32,
    lifetime: u32,
    received_at: u64,
    server_cert_sha256: Option<[u8; 32]>,
    /// TLS 1.2 only: how the session is resumed (`None`: a TLS 1.3 ticket).
    tls12: Option<Resume12>,
}

/// A session id as a ClientHello carries it (RFC 5246 §7.4.1.2: `opaque SessionID<0..32>`),
/// by value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SessionId {
    bytes: [u8; 32],
    len: u8,
}

impl SessionId {
    /// The id `id`, if it is at most 32 bytes long.
    pub(crate) fn new(id: &[u8]) -> Option<Self> {
        let mut bytes = [0; 32];
        bytes.get_mut(..id.len())?.copy_from_slice(id);
        Some(Self { bytes, len: id.len() as u8 })
    }

    /// The id's bytes.
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// How a TLS 1.2 session (RFC 5246 §7.4.1.2, RFC 5077) is resumed: by the server's session
/// id, or by the ticket the [`Ticket`] holds. The session's PSK is its master secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Resume12 {
    /// The server's session id (1 to 32 bytes), or `None`: it gave none.
    pub(crate) session_id: Option<SessionId>,
    /// Whether the [`Ticket`]'s bytes are a session ticket; otherwise they repeat the id.
    pub(crate) by_ticket: bool,
    /// Whether the session has an extended master secret (RFC 7627); Halite makes no other.
    pub(crate) ems: bool,
    /// Whether its records were encrypt-then-MAC (RFC 7366), which a resumption must keep.
    pub(crate) etm: bool,
}

impl core::fmt::Debug for Session {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Session")
            .field("suite", &self.suite)
            .field("lifetime", &self.lifetime)
            .field("received_at", &self.received_at)
            .finish_non_exhaustive()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.psk.zeroize();
    }
}

impl Session {
    /// The session of a NewSessionTicket received at `now` (Unix seconds); `None` when the
    /// PSK is longer than any suite's hash. A lifetime over seven days is cut to seven days
    /// (RFC 8446 §4.6.1: clients must not keep tickets longer).
    pub(crate) fn new(
        suite: CipherSuite,
        scheme: SignatureScheme,
        psk: &[u8],
        (age_add, lifetime): (u32, u32),
        now: u64,
        server_cert_sha256: Option<[u8; 32]>,
    ) -> Option<Self> {
        if psk.len() > MAX_PSK_LEN {
            return None;
        }
        let mut s = Self {
            suite,
            scheme,
            psk: [0; MAX_PSK_LEN],
            psk_len: psk.len(),
            age_add,
            lifetime: lifetime.min(crate::conn::MAX_TICKET_LIFETIME),
            received_at: now,
            server_cert_sha256,
            tls12: None,
        };
        s.psk[..psk.len()].copy_from_slice(psk);
        Some(s)
    }

    /// A TLS 1.2 session: its master secret, suite and server scheme, how to resume it, and
    /// the time it was made with a lifetime (the ticket's hint, or a default).
    #[cfg(feature = "tls12")]
    pub(crate) fn new12(
        suite: CipherSuite,
        scheme: SignatureScheme,
        master: &[u8; MAX_PSK_LEN],
        resume: Resume12,
        (lifetime, now): (u32, u64),
        server_cert_sha256: Option<[u8; 32]>,
    ) -> Self {
        let mut psk = [0; MAX_PSK_LEN];
        psk.copy_from_slice(master);
        Self {
            suite,
            scheme,
            psk,
            psk_len: MAX_PSK_LEN,
            age_add: 0,
            lifetime: lifetime.min(crate::conn::MAX_TICKET_LIFETIME),
            received_at: now,
            server_cert_sha256,
            tls12: Some(resume),
        }
    }

    /// TLS 1.2: how the session is resumed (`None` for a TLS 1.3 ticket).
    pub(crate) fn tls12(&self) -> Option<Resume12> {
        self.tls12
    }

    /// Whether this is a TLS 1.2 session (resumed by session id or RFC 5077 ticket) rather
    /// than a TLS 1.3 ticket.
    pub fn is_tls12(&self) -> bool {
        self.tls12.is_some()
    }

    /// The suite of the connection that issued it (resumption needs one with the same hash).
    pub fn suite(&self) -> CipherSuite {
        self.suite
    }

    /// The signature scheme the original handshake authenticated the server with.
    pub fn scheme(&self) -> SignatureScheme {
        self.scheme
    }

    /// The SHA-256 of the server's end-entity certificate in the handshake the session comes
    /// from (`None`: an external PSK authenticated the server).
    pub fn server_cert_sha256(&self) -> Option<[u8; 32]> {
        self.server_cert_sha256
    }

    /// When it was received (Unix seconds).
    pub fn received_at(&self) -> u64 {
        self.received_at
    }

    /// The lifetime the server gave, in seconds (at most seven days).
    pub fn lifetime(&self) -> u32 {
        self.lifetime
    }

    /// Whether it may still be offered at `now` (Unix seconds).
    pub fn is_valid_at(&self, now: u64) -> bool {
        now >= self.received_at && now - self.received_at < u64::from(self.lifetime)
    }

    pub(crate) fn psk(&self) -> &[u8] {
        &self.psk[..self.psk_len]
    }

    /// `obfuscated_ticket_age` at `now`: the age in milliseconds plus `age_add`, modulo 2^32.
    pub(crate) fn obfuscated_age(&self, now: u64) -> u32 {
        let age_ms = now.saturating_sub(self.received_at).saturating_mul(1000);
        (age_ms as u32).wrapping_add(self.age_add)
    }
}

/// A ticket a client received: its [`Session`] and the opaque ticket sent back as the PSK
/// identity, borrowed from wherever it is kept (the handshake buffer as it arrives, a
/// [`TicketStore`]'s storage afterwards).
#[derive(Clone, Debug)]
pub struct Ticket<'t> {
    session: Session,
    ticket: &'t [u8],
}

impl<'t> Ticket<'t> {
    /// The ticket `ticket` for `session`; `None` unless it is 1 to [`MAX_TICKET_LEN`] bytes.
    /// A store rebuilds what it kept with this.
    pub fn new(session: Session, ticket: &'t [u8]) -> Option<Self> {
        (1..=MAX_TICKET_LEN).contains(&ticket.len()).then_some(Self { session, ticket })
    }

    /// The session the ticket resumes.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The opaque ticket sent back as the PSK identity.
    pub fn ticket(&self) -> &'t [u8] {
        self.ticket
    }

    /// The session, leaving the ticket bytes where they are.
    pub fn into_session(self) -> Session {
        self.session
    }
}

/// A session ticket that does not fit where it was to be kept: `len` bytes for `capacity`.
/// A store answers this when it cannot keep one (tickets may be up to 65535 bytes, RFC 8446
/// §4.6.1), and the client when a stored ticket is longer than it can offer from its
/// handshake buffer; see [`crate::Connection::refused_ticket`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicketTooLong {
    /// The ticket's length in bytes.
    pub len: usize,
    /// The bytes the storage had for it.
    pub capacity: usize,
}

impl core::fmt::Display for TicketTooLong {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "a {}-byte session ticket does not fit the {} bytes available for it",
            self.len, self.capacity
        )
    }
}

/// Where a client keeps tickets between connections, keyed by server name. The store owns
/// the storage for the ticket bytes (no allocator in the core: [`SliceTicketStore`] keeps
/// one ticket in a caller's buffer, `MemoryTicketStore` any number on the heap with `std`).
/// The methods take `&self` so a configuration can share one store; implementations use a
/// `Cell`, `RefCell` or `Mutex` inside. RFC 8446 §C.4 asks clients not to reuse a ticket:
/// a store that hands each out once ([`TicketStore::take`] removing it) does that.
pub trait TicketStore: core::fmt::Debug {
    /// Keeps `ticket` for `server_name` (replacing an older one as the store sees fit), or
    /// says how long it was and how much room there is when it cannot.
    fn put(&self, server_name: &str, ticket: &Ticket<'_>) -> Result<(), TicketTooLong>;

    /// A ticket for `server_name`, if one is kept, with its bytes copied into `out`; the
    /// store may forget it. A kept ticket longer than `out` is `Err` (and stays kept).
    fn take<'o>(
        &self,
        server_name: &str,
        out: &'o mut [u8],
    ) -> Result<Option<Ticket<'o>>, TicketTooLong>;
}

/// A [`TicketStore`] without an allocator: the newest ticket of one server, kept in a
/// caller-provided buffer that holds the server name and the ticket (so a 1 KiB buffer keeps
/// tickets up to 1 KiB less the name). Longer tickets are refused with [`TicketTooLong`].
pub struct SliceTicketStore<'s> {
    slot: core::cell::RefCell<Slot<'s>>,
}

struct Slot<'s> {
    buf: &'s mut [u8],
    name_len: usize,
    ticket_len: usize,
    session: Option<Session>,
}

impl core::fmt::Debug for SliceTicketStore<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SliceTicketStore").field("empty", &self.is_empty()).finish()
    }
}

impl<'s> SliceTicketStore<'s> {
    /// A store keeping its ticket in `storage`.
    pub fn new(storage: &'s mut [u8]) -> Self {
        Self {
            slot: core::cell::RefCell::new(Slot {
                buf: storage,
                name_len: 0,
                ticket_len: 0,
                session: None,
            }),
        }
    }

    /// Whether no ticket is kept.
    pub fn is_empty(&self) -> bool {
        self.slot.try_borrow().map_or(true, |s| s.session.is_none())
    }
}

impl TicketStore for SliceTicketStore<'_> {
    fn put(&self, server_name: &str, ticket: &Ticket<'_>) -> Result<(), TicketTooLong> {
        let Ok(mut slot) = self.slot.try_borrow_mut() else { return Ok(()) };
        let (name, bytes) = (server_name.as_bytes(), ticket.ticket());
        let capacity = slot.buf.len().saturating_sub(name.len());
        if bytes.len() > capacity {
            return Err(TicketTooLong { len: bytes.len(), capacity });
        }
        slot.buf[..name.len()].copy_from_slice(name);
        slot.buf[name.len()..name.len() + bytes.len()].copy_from_slice(bytes);
        slot.name_len = name.len();
        slot.ticket_len = bytes.len();
        slot.session = Some(ticket.session().clone());
        Ok(())
    }

    fn take<'o>(
        &self,
        server_name: &str,
        out: &'o mut [u8],
    ) -> Result<Option<Ticket<'o>>, TicketTooLong> {
        let Ok(mut slot) = self.slot.try_borrow_mut() else { return Ok(None) };
        let (n, len) = (slot.name_len, slot.ticket_len);
        if slot.session.is_none() || slot.buf[..n] != *server_name.as_bytes() {
            return Ok(None);
        }
        let capacity = out.len();
        let dst = out.get_mut(..len).ok_or(TicketTooLong { len, capacity })?;
        dst.copy_from_slice(&slot.buf[n..n + len]);
        Ok(slot.session.take().and_then(|s| Ticket::new(s, dst)))
    }
}

/// A [`TicketStore`] in memory keeping the newest ticket per server name, of any length the
/// protocol allows (std only).
#[cfg(feature = "std")]
#[derive(Debug, Default)]
pub struct MemoryTicketStore {
    #[allow(clippy::type_complexity)] // a map from name to what `Ticket` borrows and holds
    tickets: std::sync::Mutex<
        std::collections::HashMap<std::string::String, (Session, std::vec::Vec<u8>)>,
    >,
}

#[cfg(feature = "std")]
impl MemoryTicketStore {
    /// Whether no ticket is kept.
    pub fn is_empty(&self) -> bool {
        self.tickets.lock().map_or(true, |m| m.is_empty())
    }

    /// Forgets the ticket kept for `server_name`, if any; returns whether there was one.
    pub fn forget(&self, server_name: &str) -> bool {
        self.tickets.lock().is_ok_and(|mut m| m.remove(server_name).is_some())
    }
}

#[cfg(feature = "std")]
impl TicketStore for MemoryTicketStore {
    fn put(&self, server_name: &str, ticket: &Ticket<'_>) -> Result<(), TicketTooLong> {
        if let Ok(mut m) = self.tickets.lock() {
            m.insert(server_name.into(), (ticket.session().clone(), ticket.ticket().to_vec()));
        }
        Ok(())
    }

    fn take<'o>(
        &self,
        server_name: &str,
        out: &'o mut [u8],
    ) -> Result<Option<Ticket<'o>>, TicketTooLong> {
        let Ok(mut m) = self.tickets.lock() else { return Ok(None) };
        let Some((_, bytes)) = m.get(server_name) else { return Ok(None) };
        let len = bytes.len();
        if len > out.len() {
            return Err(TicketTooLong { len, capacity: out.len() });
        }
        let Some((session, bytes)) = m.remove(server_name) else { return Ok(None) };
        out[..len].copy_from_slice(&bytes);
        Ok(Ticket::new(session, &out[..len]))
    }
}

#[cfg_attr(not(feature = "server"), allow(dead_code))]
/// Who the client of a session is, as the server's ticket remembers it so that a resumed
/// session is no more authenticated than the handshake that issued it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClientIdentity {
    /// The client did not authenticate.
    Anonymous,
    /// A certificate: the scheme of its CertificateVerify, the SHA-256 of the end-entity
    /// certificate, and [`crate::verify::anchor_digest`] of the root it was verified to.
    Certificate { scheme: SignatureScheme, end_entity: [u8; 32], anchor: [u8; 32] },
    /// An external PSK: the SHA-256 of its identity.
    ExternalPsk { identity: [u8; 32] },
}

#[cfg_attr(not(feature = "server"), allow(dead_code))]
/// The state a server seals into a ticket.
pub(crate) struct TicketState {
    pub(crate) suite: CipherSuite,
    pub(crate) scheme: SignatureScheme,
    pub(crate) issued_at: u64,
    /// When the full handshake that authenticated the peers ran (Unix seconds): kept by
    /// every resumption, so authentication ages from there (RFC 8446 §4.6.1).
    pub(crate) authenticated_at: u64,
    pub(crate) client: ClientIdentity,
    pub(crate) age_add: u32,
    pub(crate) psk: [u8; MAX_PSK_LEN],
    pub(crate) psk_len: usize,
}

impl Drop for TicketState {
    fn drop(&mut self) {
        self.psk.zeroize();
    }
}

/// Plaintext: version, suite, scheme, issued_at, authenticated_at, age_add, PSK length, PSK,
/// client identity kind, its scheme, and two digests (end-entity or PSK identity, anchor).
const STATE_LEN: usize = 1 + 2 + 2 + 8 + 8 + 4 + 1 + MAX_PSK_LEN + 1 + 2 + 32 + 32;
#[cfg_attr(not(feature = "server"), allow(dead_code))]
const NONCE_LEN: usize = 12;
#[cfg_attr(not(feature = "server"), allow(dead_code))]
const TAG_LEN: usize = 16;
/// The length of every ticket this server issues.
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub(crate) const SEALED_LEN: usize = NONCE_LEN + STATE_LEN + TAG_LEN;
#[cfg_attr(not(feature = "server"), allow(dead_code))]
const VERSION: u8 = 2;

#[cfg_attr(not(feature = "server"), allow(dead_code))]
/// Writes fields one after the other.
struct Put<'a>(&'a mut [u8], usize);

#[cfg_attr(not(feature = "server"), allow(dead_code))]
impl Put<'_> {
    fn put(&mut self, bytes: &[u8]) {
        self.0[self.1..self.1 + bytes.len()].copy_from_slice(bytes);
        self.1 += bytes.len();
    }
}

#[cfg_attr(not(feature = "server"), allow(dead_code))]
/// Reads fields one after the other.
struct Get<'a>(&'a [u8], usize);

#[cfg_attr(not(feature = "server"), allow(dead_code))]
impl Get<'_> {
    fn get<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        out.copy_from_slice(&self.0[self.1..self.1 + N]);
        self.1 += N;
        out
    }
}

/// The server's ticket key: AES-256-GCM over the resumption state, with a random nonce per
/// ticket. Rotate it to bound how long tickets stay valid beyond their lifetime.
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub struct TicketKey(Aes256Gcm);

impl core::fmt::Debug for TicketKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("TicketKey(..)")
    }
}

impl TicketKey {
    /// The key from 32 secret bytes.
    pub fn new(key: &[u8; 32]) -> Result<Self, Error> {
        Aes256Gcm::new(key).map(Self).map_err(|_| Error::ApiMisuse(ApiMisuse::BadConfig))
    }

    /// Seals `state` with `nonce` into `out`.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    pub(crate) fn seal(&self, state: &TicketState, nonce: &[u8; NONCE_LEN]) -> [u8; SEALED_LEN] {
        let mut out = [0u8; SEALED_LEN];
        out[..NONCE_LEN].copy_from_slice(nonce);
        let body = &mut out[NONCE_LEN..NONCE_LEN + STATE_LEN];
        encode_state(state, body);
        match self.0.seal_in_place_detached(nonce, b"halite ticket", body) {
            Ok(tag) => out[NONCE_LEN + STATE_LEN..].copy_from_slice(tag.as_ref()),
            // Fixed-size input well under the AEAD's limit: cannot fail; an all-zero ticket
            // would only fail to open.
            Err(_) => out.zeroize(),
        }
        out
    }

    /// Opens a ticket; `None` if it is not one of ours (or was tampered with).
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    pub(crate) fn open(&self, ticket: &[u8]) -> Option<TicketState> {
        if ticket.len() != SEALED_LEN {
            return None;
        }
        let mut body = [0u8; STATE_LEN];
        body.copy_from_slice(&ticket[NONCE_LEN..NONCE_LEN + STATE_LEN]);
        let tag = &ticket[NONCE_LEN + STATE_LEN..];
        self.0
            .open_in_place_detached(&ticket[..NONCE_LEN], b"halite ticket", &mut body, tag)
            .ok()?;
        let state = decode_state(&body);
        body.zeroize();
        state
    }
}

/// Writes `state` in the plaintext layout of [`STATE_LEN`] bytes into `body`.
#[cfg_attr(not(feature = "server"), allow(dead_code))]
fn encode_state(state: &TicketState, body: &mut [u8]) {
    let mut w = Put(body, 0);
    w.put(&[VERSION]);
    w.put(&state.suite.0.to_be_bytes());
    w.put(&state.scheme.0.to_be_bytes());
    w.put(&state.issued_at.to_be_bytes());
    w.put(&state.authenticated_at.to_be_bytes());
    w.put(&state.age_add.to_be_bytes());
    w.put(&[state.psk_len as u8]);
    w.put(&state.psk);
    let (kind, scheme, id, anchor) = match state.client {
        ClientIdentity::Anonymous => (0, SignatureScheme(0), [0; 32], [0; 32]),
        ClientIdentity::Certificate { scheme, end_entity, anchor } => {
            (1, scheme, end_entity, anchor)
        }
        ClientIdentity::ExternalPsk { identity } => (2, SignatureScheme(0), identity, [0; 32]),
    };
    w.put(&[kind]);
    w.put(&scheme.0.to_be_bytes());
    w.put(&id);
    w.put(&anchor);
}

/// Reads what [`encode_state`] wrote; `None` for another version or an impossible field.
#[cfg_attr(not(feature = "server"), allow(dead_code))]
fn decode_state(body: &[u8]) -> Option<TicketState> {
    let mut r = Get(body, 0);
    let [version] = r.get::<1>();
    let suite = CipherSuite(u16::from_be_bytes(r.get()));
    let scheme = SignatureScheme(u16::from_be_bytes(r.get()));
    let issued_at = u64::from_be_bytes(r.get());
    let authenticated_at = u64::from_be_bytes(r.get());
    let age_add = u32::from_be_bytes(r.get());
    let [psk_len] = r.get::<1>();
    let psk_len = usize::from(psk_len);
    let psk = r.get::<MAX_PSK_LEN>();
    let [kind] = r.get::<1>();
    let client_scheme = SignatureScheme(u16::from_be_bytes(r.get()));
    let (id, anchor) = (r.get::<32>(), r.get::<32>());
    let client = match kind {
        0 => ClientIdentity::Anonymous,
        1 => ClientIdentity::Certificate { scheme: client_scheme, end_entity: id, anchor },
        2 => ClientIdentity::ExternalPsk { identity: id },
        _ => return None,
    };
    if version != VERSION || psk_len > MAX_PSK_LEN {
        return None;
    }
    Some(TicketState { suite, scheme, issued_at, authenticated_at, client, age_add, psk, psk_len })
}

/// The length of a [`CachedSession`]: the ticket plaintext's and a SHA-256 of the SNI name.
pub const CACHED_SESSION_LEN: usize = STATE_LEN + 32;

/// A TLS 1.2 session as a server keeps it in a [`SessionCache`] under its session id
/// (RFC 5246 §7.4.1.2): the plaintext a ticket would seal (suite, scheme, times, client
/// identity, master secret) and a digest of the client's SNI name, in a fixed
/// [`CACHED_SESSION_LEN`] bytes. It holds the master secret in the clear: keep it no longer
/// nor more widely than the session may be resumed. Wiped on drop.
#[derive(Clone)]
pub struct CachedSession([u8; CACHED_SESSION_LEN]);

impl core::fmt::Debug for CachedSession {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("CachedSession(..)")
    }
}

impl Drop for CachedSession {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

#[cfg_attr(not(feature = "server"), allow(dead_code))]
impl CachedSession {
    /// `state` for a client that named `sni` (its SHA-256; of nothing without SNI).
    #[cfg(feature = "tls12")]
    pub(crate) fn new(state: &TicketState, sni: &[u8]) -> Self {
        let mut out = [0u8; CACHED_SESSION_LEN];
        encode_state(state, &mut out[..STATE_LEN]);
        out[STATE_LEN..].copy_from_slice(&core_hash::Sha256::digest(sni));
        Self(out)
    }

    /// The state, if the session was made for a client that named `sni`.
    #[cfg(feature = "tls12")]
    pub(crate) fn open(&self, sni: &[u8]) -> Option<TicketState> {
        let same = self.0[STATE_LEN..] == core_hash::Sha256::digest(sni)[..];
        same.then(|| decode_state(&self.0[..STATE_LEN])).flatten()
    }

    /// The encoded bytes, for a cache that keeps them elsewhere (a file, shared memory).
    pub fn as_bytes(&self) -> &[u8; CACHED_SESSION_LEN] {
        &self.0
    }

    /// A session from the bytes [`CachedSession::as_bytes`] gave. Bytes that are not one
    /// are taken but never resume.
    pub fn from_bytes(bytes: &[u8; CACHED_SESSION_LEN]) -> Self {
        Self(*bytes)
    }
}

/// A TLS 1.2 server's session-id cache (RFC 5246 §7.4.1.2), which the caller provides: the
/// server stores each session it makes without a ticket under a fresh random 32-byte id, and
/// resumes a client that offers that id while the cache still has it. The methods take
/// `&self` so a configuration can share one cache; implementations use a `RefCell` (one
/// thread, as [`ArraySessionCache`]) or a `Mutex` inside. A cache may forget any session at
/// any time: the client then gets a full handshake.
pub trait SessionCache: core::fmt::Debug {
    /// Keeps `session` under `id`, evicting another as the cache sees fit (or dropping it).
    fn put(&self, id: &[u8; 32], session: &CachedSession);

    /// The session kept under `id`, if any.
    fn get(&self, id: &[u8; 32]) -> Option<CachedSession>;
}

/// A session id and the session kept under it.
type CacheEntry = ([u8; 32], CachedSession);

/// A [`SessionCache`] without an allocator: the `N` newest sessions, in place (about
/// 210 bytes each), the oldest evicted first. Interior mutability by `RefCell`, so it is
/// not `Sync`: one per thread, or wrap a `SessionCache` around a lock where there is one.
pub struct ArraySessionCache<const N: usize> {
    slots: core::cell::RefCell<[Option<CacheEntry>; N]>,
    /// The slot the next session goes to.
    next: core::cell::Cell<usize>,
}

impl<const N: usize> ArraySessionCache<N> {
    /// An empty cache.
    pub fn new() -> Self {
        Self {
            slots: core::cell::RefCell::new([const { None }; N]),
            next: core::cell::Cell::new(0),
        }
    }

    /// How many sessions are kept.
    pub fn len(&self) -> usize {
        self.slots.try_borrow().map_or(0, |s| s.iter().flatten().count())
    }

    /// Whether no session is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets every session.
    pub fn clear(&self) {
        if let Ok(mut slots) = self.slots.try_borrow_mut() {
            *slots = [const { None }; N];
        }
    }
}

impl<const N: usize> Default for ArraySessionCache<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> core::fmt::Debug for ArraySessionCache<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ArraySessionCache").field("len", &self.len()).finish()
    }
}

impl<const N: usize> SessionCache for ArraySessionCache<N> {
    fn put(&self, id: &[u8; 32], session: &CachedSession) {
        let Ok(mut slots) = self.slots.try_borrow_mut() else { return };
        // The same id again replaces its session; otherwise the oldest slot goes.
        let at = slots.iter().position(|s| s.as_ref().is_some_and(|(k, _)| k == id));
        let at = at.unwrap_or_else(|| {
            let n = self.next.get();
            self.next.set(if n + 1 >= N { 0 } else { n + 1 });
            n
        });
        if let Some(slot) = slots.get_mut(at) {
            *slot = Some((*id, session.clone()));
        }
    }

    fn get(&self, id: &[u8; 32]) -> Option<CachedSession> {
        let slots = self.slots.try_borrow().ok()?;
        slots.iter().flatten().find(|(k, _)| k == id).map(|(_, s)| s.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A TLS 1.2 server's session id may be any length up to 32 (BoGo's
    /// Client-ShortSessionID gives 1 byte): it is kept, and offered back, whole.
    #[test]
    fn session_ids_of_any_length_up_to_32_are_kept() {
        let all: [u8; 32] = core::array::from_fn(|i| i as u8 + 1);
        for len in [0, 1, 16, 32] {
            assert_eq!(SessionId::new(&all[..len]).unwrap().as_slice(), &all[..len]);
        }
        assert_eq!(SessionId::new(&[1; 33]), None);
    }

    #[test]
    fn tickets_open_only_untampered_and_under_their_key() {
        let key = TicketKey::new(&[3; 32]).unwrap();
        let mut psk = [0u8; MAX_PSK_LEN];
        psk[..32].fill(9);
        let client = ClientIdentity::Certificate {
            scheme: SignatureScheme::ECDSA_SECP256R1_SHA256,
            end_entity: [4; 32],
            anchor: [5; 32],
        };
        let state = TicketState {
            suite: CipherSuite::TLS13_AES_128_GCM_SHA256,
            scheme: SignatureScheme::ED25519,
            issued_at: 1_700_000_000,
            authenticated_at: 1_600_000_000,
            client,
            age_add: 77,
            psk,
            psk_len: 32,
        };
        let t = key.seal(&state, &[1; 12]);
        let back = key.open(&t).unwrap();
        assert_eq!(back.suite, state.suite);
        assert_eq!(back.scheme, state.scheme);
        assert_eq!((back.issued_at, back.authenticated_at), (1_700_000_000, 1_600_000_000));
        assert_eq!(back.age_add, 77);
        assert_eq!(back.client, client);
        assert_eq!(back.psk[..back.psk_len], [9; 32]);
        for i in 0..t.len() {
            let mut bad = t;
            bad[i] ^= 1;
            assert!(key.open(&bad).is_none(), "byte {i}");
        }
        assert!(TicketKey::new(&[4; 32]).unwrap().open(&t).is_none());
        assert!(key.open(&t[..t.len() - 1]).is_none());
        assert!(key.open(&[]).is_none());
        for client in [ClientIdentity::Anonymous, ClientIdentity::ExternalPsk { identity: [6; 32] }]
        {
            let state = TicketState { client, psk, ..state };
            assert_eq!(key.open(&key.seal(&state, &[2; 12])).unwrap().client, client);
        }
    }

    #[test]
    fn client_ticket_ages() {
        let t = Session::new(
            CipherSuite::TLS13_AES_128_GCM_SHA256,
            SignatureScheme::ED25519,
            &[1; 32],
            (0xffff_ff00, 100),
            1000,
            None,
        )
        .unwrap();
        assert!(t.is_valid_at(1000) && t.is_valid_at(1099));
        assert!(!t.is_valid_at(1100) && !t.is_valid_at(999));
        let long = Session::new(t.suite(), t.scheme(), &[1; 32], (0, u32::MAX), 0, None).unwrap();
        assert_eq!(long.lifetime(), 604_800, "seven days at most");
        assert_eq!(t.obfuscated_age(1001), 1000u32.wrapping_add(0xffff_ff00));
        assert!(Session::new(t.suite(), t.scheme(), &[0; 49], (0, 1), 0, None).is_none());
        assert!(Ticket::new(t.clone(), &[]).is_none());
        assert!(Ticket::new(t.clone(), &std::vec![0; MAX_TICKET_LEN + 1]).is_none());
    }

    /// The slice store keeps a ticket as long as its buffer less the name, says how long and
    /// how much room when one is longer, and hands a kept one out once.
    #[test]
    fn the_slice_store_keeps_what_fits_and_says_what_does_not() {
        let session = Session::new(
            CipherSuite::TLS13_AES_128_GCM_SHA256,
            SignatureScheme::ED25519,
            &[1; 32],
            (7, 100),
            1000,
            None,
        )
        .unwrap();
        let mut storage = [0u8; 700];
        let store = SliceTicketStore::new(&mut storage);
        let big = [5u8; 700 - 9 + 1];
        let refused = store.put("localhost", &Ticket::new(session.clone(), &big).unwrap());
        assert_eq!(refused, Err(TicketTooLong { len: 692, capacity: 691 }));
        assert!(store.is_empty());
        let fits = [6u8; 691];
        store.put("localhost", &Ticket::new(session.clone(), &fits).unwrap()).unwrap();
        let mut out = [0u8; 690];
        let short = store.take("localhost", &mut out).map(|t| t.map(|t| t.ticket().len()));
        assert_eq!(short, Err(TicketTooLong { len: 691, capacity: 690 }));
        let mut out = [0u8; 1000];
        assert!(store.take("other", &mut out).unwrap().is_none());
        let t = store.take("localhost", &mut out).unwrap().unwrap();
        assert_eq!((t.ticket(), t.session().psk()), (&fits[..], &[1; 32][..]));
        assert!(store.take("localhost", &mut [0u8; 1000]).unwrap().is_none(), "taken once");
    }
}
