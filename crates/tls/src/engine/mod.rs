//! The engine both roles share: the send and receive buffers and keys ([`io`]), reading
//! records and joining handshake messages ([`deframe`]), and the handshake states and their
//! dispatch ([`handshake`]); the role-specific states are in `crate::client` and
//! `crate::server`.

pub(crate) mod deframe;
pub(crate) mod handshake;
pub(crate) mod io;

use core_hash::{HmacDrbg, RandomError, RandomSource, Sha256};
use zeroize::Zeroize;

use crate::error::{Error, PeerMisbehaved};
use crate::key_schedule::Secret;
use crate::record::RecordProtection;
use crate::suites::Suite;
use crate::ticket::{ClientIdentity, TicketTooLong};

use self::io::{Io, Protection};
use crate::conn::Negotiated;

/// Everything but the handshake buffer and the state, so a handler can borrow a message from
/// the buffer while it changes the rest.
pub(crate) struct Core<'a, 'b> {
    pub(crate) io: Io<'b>,
    pub(crate) sni: [u8; 255],
    pub(crate) sni_len: usize,
    /// Where the current application-data record's plaintext sits in `rx`, and where the
    /// record ends.
    pub(crate) app: Option<(usize, usize, usize)>,
    pub(crate) error: Option<Error>,
    pub(crate) peer_closed: bool,
    /// Whether the peer's change_cipher_spec has come: it sends one at most (RFC 8446
    /// Appendix D.4), so a second is unexpected_message.
    pub(crate) ccs_received: bool,
    /// Server: while the early data a client offered (which we decline) is still to be
    /// skipped (RFC 8446 §4.2.10), the record bytes skipped so far.
    pub(crate) skip_early: Option<usize>,
    /// What the peer sent that carries no application data since the last record that did.
    pub(crate) since_data: SinceData,
    pub(crate) negotiated: Option<Negotiated>,
    /// Set by a handler whose message changes the peer's keys: nothing may follow it in the
    /// handshake buffer (RFC 8446 §5.1).
    pub(crate) key_changed: bool,
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    /// The server's application write secret between its Finished and the client's.
    pub(crate) server_app: Option<Secret>,
    /// The parameters agreed so far; copied to `negotiated` when the handshake completes.
    pub(crate) params: Negotiated,
    /// A per-connection generator seeded from the caller's source at construction, for the
    /// randomness needed while handling messages (key shares chosen by the peer, signatures).
    pub(crate) rng: ConnRng,
    /// Client: the last session ticket that did not fit its storage.
    pub(crate) refused_ticket: Option<TicketTooLong>,
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    /// Server: who the client is (for the tickets we issue).
    pub(crate) client_identity: ClientIdentity,
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    /// Server: when the session was authenticated, if before this handshake (resumed).
    pub(crate) authenticated_at: Option<u64>,
    /// The SHA-256 of the peer's end-entity certificate (server: also from a ticket).
    pub(crate) peer_cert_sha256: Option<[u8; 32]>,
    /// The identity of the external PSK that authenticated the peer (server: also of a
    /// resumed session's).
    pub(crate) peer_psk: Option<&'a [u8]>,
}

impl Core<'_, '_> {
    pub(crate) fn set_read(&mut self, suite: Suite, secret: &Secret) -> Result<(), Error> {
        self.io.read_key = Some(Protection::V13(RecordProtection::new(suite.aead, secret)?));
        self.key_changed = true;
        Ok(())
    }

    pub(crate) fn set_write(&mut self, suite: Suite, secret: &Secret) -> Result<(), Error> {
        self.io.write_key = Some(Protection::V13(RecordProtection::new(suite.aead, secret)?));
        Ok(())
    }
}

/// Counts of records and messages that carry no application data, received since the last
/// application-data record that did; each is bounded (by [`MAX_EMPTY_RECORDS`],
/// [`MAX_KEY_UPDATES`] and [`MAX_USER_CANCELED`]) so that a peer cannot keep a connection busy
/// without end while sending nothing.
///
/// [`MAX_EMPTY_RECORDS`]: crate::conn::MAX_EMPTY_RECORDS
/// [`MAX_KEY_UPDATES`]: crate::conn::MAX_KEY_UPDATES
/// [`MAX_USER_CANCELED`]: crate::conn::MAX_USER_CANCELED
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SinceData {
    pub(crate) empty_records: u8,
    pub(crate) key_updates: u8,
    pub(crate) warning_alerts: u8,
}

impl SinceData {
    /// Counts one more of what `count` picks; `err` once past `max`.
    pub(crate) fn count(
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

/// Bytes of entropy a [`ConnRng`] draws: one SHA-256 output.
const ENTROPY_LEN: usize = 32;

/// Bytes of seed a [`ConnRng`] draws: the entropy and half as much again as the nonce, as
/// `HmacDrbg::from_source` draws them (SP 800-90A §8.6.7).
const SEED_LEN: usize = ENTROPY_LEN + ENTROPY_LEN / 2;

/// Bytes of source output a [`ConnRng`] keeps to hand out as they are, before it needs its
/// generator: a client's random and session id, or a server's random and a ticket nonce.
const SPARE_LEN: usize = 64;

/// The personalization string of every connection's generator.
const PERSONALIZATION: &[u8] = b"halite tls connection";

/// A connection's HMAC-DRBG, instantiated on first use from a seed drawn when the connection
/// is made. Instantiation costs about as much as two HMAC-SHA-256 keyings and four MACs, and
/// many connections never need the generator (a resumed TLS 1.2 client or server, a TLS 1.3
/// PSK-only one). The same call to the caller's source also draws [`SPARE_LEN`] bytes that
/// serve, as they are, the first requests that fit in them (the randoms, a session id, a
/// ticket nonce): one system call per connection, where there were up to three; the
/// generator's own output is the same as instantiating at once.
// No allocator: the generator lives inline, and the seed shares its room.
#[allow(clippy::large_enum_variant)]
pub(crate) enum ConnRng {
    /// Not yet instantiated: the seed, and source output of which the last `left` bytes are
    /// still unused; all wiped when used or dropped.
    Seeded { seed: [u8; SEED_LEN], spare: [u8; SPARE_LEN], left: usize },
    /// Instantiated.
    Ready(HmacDrbg<Sha256>),
}

impl ConnRng {
    /// Draws the seed and the spare bytes from `source`, in one call.
    pub(crate) fn from_source(source: &mut dyn RandomSource) -> Result<Self, Error> {
        let mut drawn = [0u8; SEED_LEN + SPARE_LEN];
        if source.fill(&mut drawn).is_err() {
            drawn.zeroize();
            return Err(Error::RandomFailed);
        }
        let mut this = Self::Seeded { seed: [0; SEED_LEN], spare: [0; SPARE_LEN], left: SPARE_LEN };
        if let Self::Seeded { seed, spare, .. } = &mut this {
            seed.copy_from_slice(&drawn[..SEED_LEN]);
            spare.copy_from_slice(&drawn[SEED_LEN..]);
        }
        drawn.zeroize();
        Ok(this)
    }

    /// The generator, instantiated now if it was not yet.
    fn drbg(&mut self) -> Result<&mut HmacDrbg<Sha256>, RandomError> {
        if let Self::Seeded { seed, spare, .. } = self {
            let (entropy, nonce) = seed.split_at(ENTROPY_LEN);
            let drbg = HmacDrbg::new(entropy, nonce, PERSONALIZATION);
            seed.zeroize();
            spare.zeroize();
            // Cannot fail: the entropy is a full SHA-256 output.
            *self = Self::Ready(drbg.map_err(|_| RandomError::Unavailable)?);
        }
        match self {
            Self::Ready(drbg) => Ok(drbg),
            Self::Seeded { .. } => Err(RandomError::Unavailable),
        }
    }
}

impl RandomSource for ConnRng {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), RandomError> {
        if let Self::Seeded { spare, left, .. } = self
            && dest.len() <= *left
        {
            // The last unused bytes, wiped once handed out.
            let from = &mut spare[*left - dest.len()..*left];
            dest.copy_from_slice(from);
            from.zeroize();
            *left -= dest.len();
            return Ok(());
        }
        self.drbg()?.fill(dest)
    }
}

impl Drop for ConnRng {
    fn drop(&mut self) {
        if let Self::Seeded { seed, spare, .. } = self {
            seed.zeroize();
            spare.zeroize();
        }
    }
}

pub(crate) fn random<const N: usize>(rng: &mut dyn RandomSource) -> Result<[u8; N], Error> {
    let mut out = [0u8; N];
    rng.fill(&mut out).map_err(|_| Error::RandomFailed)?;
    Ok(out)
}

/// The most bytes a [`Connection`](crate::Connection) takes on `thumbv6m-none-eabi`, checked
/// when the crate builds there (Halite issue 22: the connection object stays small, with no
/// heap to move its states into). The largest handshake states set it: with the `tls12`
/// feature a TLS 1.2 client's after the ServerKeyExchange and its ClientHello state (768 and
/// 696 bytes), which keep private keys only, never a public value (up to 1665 bytes for a
/// hybrid); without it, the TLS 1.3-only size.
#[cfg(all(target_arch = "arm", target_os = "none", feature = "tls12"))]
pub(crate) const MAX_CONNECTION_SIZE_M0: usize = 3552;
/// As above, TLS 1.3 only.
#[cfg(all(target_arch = "arm", target_os = "none", not(feature = "tls12")))]
pub(crate) const MAX_CONNECTION_SIZE_M0: usize = 3456;

#[cfg(all(target_arch = "arm", target_os = "none"))]
const _: () = assert!(
    core::mem::size_of::<crate::Connection<'static, 'static>>() <= MAX_CONNECTION_SIZE_M0,
    "Connection grew on thumbv6m (Halite issue 22): shrink the largest state, or raise \
     MAX_CONNECTION_SIZE_M0 knowingly"
);

#[cfg(all(test, target_pointer_width = "64"))]
mod size_tests {
    use crate::Connection;

    /// Halite issue 22: the connection object, with its largest handshake state, stays at
    /// or under this on 64-bit targets (10 176 bytes when the TLS 1.2 Finished states held
    /// two keyed record protections, 8 176 while key shares kept their public value; 6336
    /// before the raw-public-key settings, two borrowed pointers in `ClientConfig`).
    const MAX_CONNECTION_SIZE_64: usize = 6352;

    #[test]
    fn connection_does_not_grow() {
        let size = core::mem::size_of::<Connection<'static, 'static>>();
        assert!(
            size <= MAX_CONNECTION_SIZE_64,
            "Connection is {size} bytes, over {MAX_CONNECTION_SIZE_64} (Halite issue 22: the \
             connection object and buffers of a 1.2 connection are no larger than for 1.3)"
        );
    }
}

#[cfg(test)]
mod rng_tests {
    use super::*;

    /// A source that counts bytes, or fails.
    struct Counter(Option<u8>);

    impl RandomSource for Counter {
        fn fill(&mut self, dest: &mut [u8]) -> Result<(), RandomError> {
            let n = self.0.as_mut().ok_or(RandomError::Unavailable)?;
            for b in dest {
                *b = *n;
                *n = n.wrapping_add(1);
            }
            Ok(())
        }
    }

    /// Requests that fit in the spare bytes get the source's output as it is, and the
    /// generator stays unmade; the first that does not instantiates it, and from then on the
    /// stream is `HmacDrbg::from_source`'s over the same source (seed first).
    #[test]
    fn spare_bytes_then_the_eager_generator() {
        let mut lazy = ConnRng::from_source(&mut Counter(Some(3))).unwrap();
        let mut a = [0u8; 100];
        lazy.fill(&mut a[..32]).unwrap();
        lazy.fill(&mut a[32..44]).unwrap();
        assert!(matches!(lazy, ConnRng::Seeded { left: 20, .. }));
        // Handed out from the end of the spare bytes, which follow the seed.
        let first = (3 + SEED_LEN + SPARE_LEN - 32) as u8;
        assert!(a[..32].iter().zip(first..).all(|(x, y)| *x == y), "{a:?}");
        let next = (3 + SEED_LEN + SPARE_LEN - 44) as u8;
        assert!(a[32..44].iter().zip(next..).all(|(x, y)| *x == y), "{a:?}");
        let mut eager =
            HmacDrbg::<Sha256>::from_source(&mut Counter(Some(3)), PERSONALIZATION).unwrap();
        for len in [32, 12, 1, 100] {
            let (mut a, mut b) = ([0u8; 100], [0u8; 100]);
            lazy.fill(&mut a[..len]).unwrap();
            eager.fill(&mut b[..len]).unwrap();
            assert_eq!(a, b, "{len}");
            assert!(matches!(lazy, ConnRng::Ready(_)));
        }
    }

    /// The source is called once for the seed and the spare bytes.
    #[test]
    fn one_call_to_the_source() {
        struct Calls(usize);
        impl RandomSource for Calls {
            fn fill(&mut self, dest: &mut [u8]) -> Result<(), RandomError> {
                self.0 += 1;
                dest.fill(7);
                Ok(())
            }
        }
        let mut calls = Calls(0);
        let mut rng = ConnRng::from_source(&mut calls).unwrap();
        let mut out = [0u8; SPARE_LEN];
        rng.fill(&mut out).unwrap();
        rng.fill(&mut out[..1]).unwrap();
        assert_eq!(calls.0, 1);
    }

    #[test]
    fn a_failing_source_is_an_error() {
        assert!(matches!(ConnRng::from_source(&mut Counter(None)), Err(Error::RandomFailed)));
    }
}
