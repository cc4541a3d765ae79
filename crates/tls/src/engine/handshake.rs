//! The handshake states of both roles, the dispatch of each message to its state, and what
//! both roles do alike: the handshake secrets, certificate and Finished checks, KeyUpdate.

use core_hash::Sha256;
use pki_types::{TrustAnchor, UnixTime};

use crate::clock::Clock;
use crate::error::{CertificateError, Error, PeerMisbehaved};
use crate::key_schedule::{
    Digest, EarlySecret, MasterSecret, Secret, Transcript, next_traffic_secret, verify_finished,
};
use crate::msgs::handshake::{Body, Typed};
use crate::msgs::{Certificate, CertificateVerify, Codec, KeyUpdateRequest, SignatureScheme};
use crate::suites::Suite;
use crate::ticket::ClientIdentity;
use crate::verify::{self, CertVerifier};

use super::Core;
use crate::client::ClientState;
use crate::client::tls13::CertificateReply;
use crate::config::ClientConfig;
use crate::config::MAX_KEY_UPDATES;
#[cfg(feature = "server")]
use crate::config::ServerConfig;
use crate::config::{MAX_CHAIN, MAX_LIST};
#[cfg(feature = "server")]
use crate::server::ServerState;

/// A connection's role, with its configuration and its handshake state: each role has its
/// own states, one per expected message ([`ClientState`], [`ServerState`]).
// The client's hello states carry the offered ticket, so the client is the larger role; with
// no allocator there is nothing to box into.
#[allow(clippy::large_enum_variant)]
pub(crate) enum State<'a> {
    Client(ClientConfig<'a>, ClientState),
    #[cfg(feature = "server")]
    Server(ServerConfig<'a>, ServerState),
}

impl State<'_> {
    /// The traffic state, once the handshake is done.
    pub(crate) fn traffic(&self) -> Option<&Traffic> {
        match self {
            Self::Client(_, ClientState::Traffic(t)) => Some(t),
            #[cfg(feature = "server")]
            Self::Server(_, ServerState::Traffic(t)) => Some(t),
            _ => None,
        }
    }

    /// As [`traffic`](Self::traffic), to change it.
    pub(crate) fn traffic_mut(&mut self) -> Option<&mut Traffic> {
        match self {
            Self::Client(_, ClientState::Traffic(t)) => Some(t),
            #[cfg(feature = "server")]
            Self::Server(_, ServerState::Traffic(t)) => Some(t),
            _ => None,
        }
    }

    /// Whether the handshake is done (either version).
    pub(crate) fn in_traffic(&self) -> bool {
        #[cfg(feature = "tls12")]
        let traffic12 = self.traffic12();
        #[cfg(not(feature = "tls12"))]
        let traffic12 = false;
        self.traffic().is_some() || traffic12
    }

    /// Whether the TLS 1.2 handshake is done.
    #[cfg(feature = "tls12")]
    pub(crate) fn traffic12(&self) -> bool {
        match self {
            Self::Client(_, st) => matches!(st, ClientState::Traffic12(_)),
            #[cfg(feature = "server")]
            Self::Server(_, st) => matches!(st, ServerState::Traffic12(_)),
        }
    }

    /// Whether this is a server that has not had a ClientHello yet.
    pub(crate) fn awaits_client_hello(&self) -> bool {
        match self {
            Self::Client(..) => false,
            #[cfg(feature = "server")]
            Self::Server(_, st) => matches!(st, ServerState::ExpectClientHello { .. }),
        }
    }

    /// Whether the connection negotiated TLS 1.2 (its messages are read as TLS 1.2's, and
    /// change_cipher_spec is a real message).
    pub(crate) fn is_tls12(&self) -> bool {
        match self {
            Self::Client(_, st) => st.is_tls12(),
            #[cfg(feature = "server")]
            Self::Server(_, st) => st.is_tls12(),
        }
    }

    /// Ends the handshake or traffic for good, after an error.
    pub(crate) fn kill(&mut self) {
        match self {
            Self::Client(_, st) => *st = ClientState::Dead,
            #[cfg(feature = "server")]
            Self::Server(_, st) => *st = ServerState::Dead,
        }
    }
}

pub(crate) struct Handshaking {
    pub(crate) suite: Suite,
    pub(crate) transcript: Transcript,
    pub(crate) client_hs: Secret,
    pub(crate) server_hs: Secret,
    pub(crate) master: MasterSecret,
    /// Client only: what the server's CertificateRequest, if any, calls for.
    pub(crate) reply: CertificateReply,
    /// Client only: whether the server's Certificate holds a raw public key (RFC 7250), as
    /// its EncryptedExtensions said.
    pub(crate) peer_raw_key: bool,
    /// Client only: whether ours must (RFC 7250 `client_certificate_type`).
    pub(crate) own_raw_key: bool,
}

pub(crate) struct Traffic {
    pub(crate) suite: Suite,
    pub(crate) read_secret: Secret,
    pub(crate) write_secret: Secret,
    /// The exporter master secret, for
    /// [`Connection::export_keying_material`](crate::Connection::export_keying_material).
    pub(crate) exporter: Secret,
    /// Client: the resumption master secret, for the PSKs of NewSessionTickets (with a
    /// ticket store: [`crate::ClientConfig::tickets`]).
    #[cfg(feature = "tickets")]
    pub(crate) resumption: Option<Secret>,
    /// Whether we have answered a peer's update_requested and sent no application data
    /// since: another request is then answered already (RFC 8446 §4.6.3: any number of
    /// requests while we are silent get a single update).
    pub(crate) updated_since_data: bool,
}

/// Derives the handshake secrets after the hellos and keys both directions.
pub(crate) fn enter_handshake(
    c: &mut Core<'_, '_>,
    suite: Suite,
    transcript: Transcript,
    shared: &[u8],
    psk: Option<&[u8]>,
    client: bool,
) -> Result<Handshaking, Error> {
    let hs_secret = EarlySecret::new(suite.hash, psk)?.into_handshake(shared);
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
        peer_raw_key: false,
        own_raw_key: false,
    })
}

/// Traffic, either role: the peer's KeyUpdate (RFC 8446 §4.6.3) turns its traffic key, and
/// an update_requested is answered with ours unless we have answered one already and sent
/// nothing since.
pub(crate) fn key_update(
    c: &mut Core<'_, '_>,
    mut t: Traffic,
    req: KeyUpdateRequest,
) -> Result<Traffic, Error> {
    c.since_data.count(
        |s| &mut s.key_updates,
        MAX_KEY_UPDATES,
        PeerMisbehaved::TooManyKeyUpdates,
    )?;
    t.read_secret = next_traffic_secret(&t.read_secret);
    c.set_read(t.suite, &t.read_secret)?;
    if req == KeyUpdateRequest::UPDATE_REQUESTED && !t.updated_since_data {
        t.updated_since_data = true;
        let msg = Typed(KeyUpdateRequest::UPDATE_NOT_REQUESTED);
        c.io.send_handshake(&msg, None)?;
        t.write_secret = next_traffic_secret(&t.write_secret);
        c.set_write(t.suite, &t.write_secret)?;
    }
    Ok(t)
}

/// Checks a peer's Certificate and CertificateVerify (the chain to `roots` at `now` for
/// `peer`, or by the verifier when there is one, then the signature over the transcript up
/// to the Certificate), adding both to `transcript`; returns the scheme used and the peer's
/// identity: the SHA-256 of its end-entity certificate and the digest of what the chain was
/// trusted through ([`verify::anchor_digest`] of its root, or the verifier's). Without the
/// `x509` feature, [`CertificateError::NotBuiltIn`] before anything is read.
#[cfg_attr(not(feature = "x509"), allow(unreachable_code, unused_variables))]
pub(crate) fn check_certificate(
    transcript: &mut Transcript,
    raw_cert: &[u8],
    raw_cv: &[u8],
    (roots, verifier): (&[TrustAnchor<'_>], Option<&dyn CertVerifier>),
    peer: verify::Peer<'_>,
    now: UnixTime,
) -> Result<(SignatureScheme, ClientIdentity), Error> {
    #[cfg(not(feature = "x509"))]
    return Err(Error::InvalidCertificate(CertificateError::NotBuiltIn));
    check_signed(transcript, raw_cert, raw_cv, peer, |chain, message, cv| {
        let (ee, inter) = (chain[0], &chain[1..]);
        // Whatever vouches for the chain (webpki or a pinning verifier), the key must be
        // allowed to sign (RFC 8446 §4.4.2.4).
        verify::check_key_usage(ee)?;
        match verifier {
            Some(v) => v.verify(ee, inter, peer, now, cv.scheme, message, cv.signature),
            None => {
                verify::verify_peer(ee, inter, roots, peer, now, cv.scheme, message, cv.signature)
            }
        }
    })
}

/// The raw public keys (RFC 7250) a peer may authenticate with: [`crate::rpk::PinnedKeys`],
/// or without the `raw-public-keys` feature a type with no values, so that [`check_peer`]
/// is never given any and links no raw-key check.
#[cfg(feature = "raw-public-keys")]
pub(crate) type Pins<'a> = crate::rpk::PinnedKeys<'a>;
/// The raw public keys (RFC 7250) a peer may authenticate with: none without the
/// `raw-public-keys` feature.
#[cfg(not(feature = "raw-public-keys"))]
pub(crate) type Pins<'a> = NoPins;
/// A type with no values: [`Pins`] without the `raw-public-keys` feature.
#[cfg(not(feature = "raw-public-keys"))]
pub(crate) enum NoPins {}

/// Checks a peer's Certificate and CertificateVerify in either form, for both roles: against
/// `pins` when the peer was told to present a raw public key (RFC 7250 §4.2: `pins` is then
/// `Some`), else the chain to `roots` or by `verifier` at `clock`'s time
/// ([`check_certificate`]). Returns the scheme used and the peer's identity.
pub(crate) fn check_peer(
    transcript: &mut Transcript,
    (raw_cert, raw_cv): (&[u8], &[u8]),
    pins: Option<&Pins<'_>>,
    chain: (&[TrustAnchor<'_>], Option<&dyn CertVerifier>),
    clock: &dyn Clock,
    peer: verify::Peer<'_>,
) -> Result<(SignatureScheme, ClientIdentity), Error> {
    match pins {
        #[cfg(feature = "raw-public-keys")]
        Some(pins) => check_raw_key(transcript, raw_cert, raw_cv, pins, peer),
        #[cfg(not(feature = "raw-public-keys"))]
        Some(never) => match *never {},
        None => check_certificate(transcript, raw_cert, raw_cv, chain, peer, clock.now()),
    }
}

/// As [`check_certificate`] for a peer that authenticates with a raw public key (RFC 7250
/// §3): the Certificate's one entry is a SubjectPublicKeyInfo that must be one of `pins`,
/// and the CertificateVerify is checked with its key. The identity's digests are both the
/// SHA-256 of the SPKI (which a server's tickets carry, to resume only while it is pinned).
#[cfg(feature = "raw-public-keys")]
fn check_raw_key(
    transcript: &mut Transcript,
    raw_cert: &[u8],
    raw_cv: &[u8],
    pins: &crate::rpk::PinnedKeys<'_>,
    peer: verify::Peer<'_>,
) -> Result<(SignatureScheme, ClientIdentity), Error> {
    check_signed(transcript, raw_cert, raw_cv, peer, |chain, message, cv| {
        let [spki] = chain else {
            return Err(Error::InvalidCertificate(CertificateError::UnknownRawKey));
        };
        crate::rpk::verify(spki, pins, cv.scheme, message, cv.signature)?;
        Ok(Sha256::digest(spki))
    })
}

/// What both kinds of peer authentication share: the Certificate and CertificateVerify
/// decoded, an empty context, no entry extensions, at least one entry and at most
/// [`MAX_CHAIN`], a scheme we verify; then `check` is given the entries, the signed content
/// (RFC 8446 §4.4.3, over the transcript through the Certificate) and the CertificateVerify,
/// and returns the digest of what vouched for the peer. Both messages go into `transcript`.
fn check_signed(
    transcript: &mut Transcript,
    raw_cert: &[u8],
    raw_cv: &[u8],
    peer: verify::Peer<'_>,
    check: impl FnOnce(&[&[u8]], &[u8], &CertificateVerify<'_>) -> Result<[u8; 32], Error>,
) -> Result<(SignatureScheme, ClientIdentity), Error> {
    let cert: Certificate<'_> = decode_one(raw_cert)?;
    let cv: CertificateVerify<'_> = decode_one(raw_cv)?;
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
    let anchor = check(&chain[..n], &content[..len], &cv)?;
    transcript.update(raw_cv);
    let end_entity = Sha256::digest(chain[0]);
    Ok((cv.scheme, ClientIdentity::Certificate { scheme: cv.scheme, end_entity, anchor }))
}

/// Decodes `raw` as a message of type `M`; one of another type is an unexpected message,
/// whatever its body holds. Only `M`'s decoder is linked: decoding any
/// [`HandshakeMessage`](crate::msgs::HandshakeMessage) would bring every message's, the
/// ClientHello's with its PSK offer among them (~3.5 KB on a Cortex-M0 client that reads
/// only these two).
fn decode_one<'a, M: Body<'a>>(raw: &'a [u8]) -> Result<M, Error> {
    if raw.first() != Some(&M::TYPE.0) {
        return Err(PeerMisbehaved::UnexpectedMessage.into());
    }
    Ok(Typed::<M>::decode(raw)?.0)
}

/// Refuses a Certificate any of whose entries carries an extension: Halite asks for neither
/// status_request nor signed_certificate_timestamp, and a CertificateEntry extension must
/// answer one the ClientHello (or CertificateRequest) offered (RFC 8446 §4.4.2), so any is
/// unsolicited: unsupported_extension (§4.2). The codec keeps them, for a faithful re-encoding.
pub(crate) fn refuse_entry_extensions(cert: &Certificate<'_>) -> Result<(), Error> {
    if cert.entries.iter().any(|entry| !entry.extensions.is_empty()) {
        return Err(crate::msgs::InvalidMessage::UnexpectedExtension.into());
    }
    Ok(())
}

/// Checks a peer's Finished: one of the wrong length does not parse (`decode_error`, RFC
/// 8446 §4.4.4 and §6), one with the wrong value is `decrypt_error`.
pub(crate) fn check_finished(expected: &Digest, fin: &[u8]) -> Result<(), Error> {
    if fin.len() != expected.as_ref().len() {
        return Err(crate::msgs::InvalidMessage::BadLength.into());
    }
    if !verify_finished(expected, fin) {
        return Err(PeerMisbehaved::BadFinished.into());
    }
    Ok(())
}

/// The schemes we verify, for `signature_algorithms`, written into `buf`: none without the
/// `x509` and `raw-public-keys` features (so that no verifier is linked).
pub(crate) fn supported_schemes(buf: &mut [SignatureScheme; MAX_LIST]) -> &[SignatureScheme] {
    if !cfg!(any(feature = "x509", feature = "raw-public-keys")) {
        return &[];
    }
    let mut n = 0;
    for ((s, _), slot) in verify::SUPPORTED_SCHEMES.iter().zip(buf.iter_mut()) {
        *slot = *s;
        n += 1;
    }
    &buf[..n]
}

#[cfg(test)]
mod tests {
    use super::decode_one;
    use crate::error::{Error, PeerMisbehaved};
    use crate::msgs::{Certificate, CertificateVerify, InvalidMessage, SignatureScheme};

    /// A CertificateVerify (Ed25519, a 2-byte signature) on the wire.
    const CV: [u8; 10] = [15, 0, 0, 6, 0x08, 0x07, 0, 2, 0xaa, 0xbb];

    #[test]
    fn one_type_is_decoded_and_any_other_is_unexpected() {
        let cv: CertificateVerify<'_> = decode_one(&CV).unwrap();
        assert_eq!((cv.scheme, cv.signature), (SignatureScheme::ED25519, &[0xaa, 0xbb][..]));
        let unexpected = Err(Error::PeerMisbehaved(PeerMisbehaved::UnexpectedMessage));
        // Another type, well formed or not, and nothing at all.
        assert_eq!(decode_one::<Certificate<'_>>(&CV).map(|_| ()), unexpected);
        assert_eq!(decode_one::<Certificate<'_>>(&[20, 0, 0, 9]).map(|_| ()), unexpected);
        assert_eq!(decode_one::<Certificate<'_>>(&[]).map(|_| ()), unexpected);
        // The right type, but malformed: a decoding error.
        let truncated = decode_one::<CertificateVerify<'_>>(&CV[..9]).map(|_| ());
        assert!(matches!(truncated, Err(Error::InvalidMessage(_))), "{truncated:?}");
        let trailing = [15, 0, 0, 7, 0x08, 0x07, 0, 2, 0xaa, 0xbb, 0];
        assert_eq!(
            decode_one::<CertificateVerify<'_>>(&trailing).map(|_| ()),
            Err(Error::InvalidMessage(InvalidMessage::TrailingData))
        );
    }
}
