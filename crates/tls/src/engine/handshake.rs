//! The handshake states of both roles, the dispatch of each message to its state, and what
//! both roles do alike: the handshake secrets, certificate and Finished checks, KeyUpdate.

use core_hash::Sha256;
use pki_types::{TrustAnchor, UnixTime};

use crate::error::{ApiMisuse, CertificateError, Error, PeerMisbehaved};
use crate::key_schedule::{
    Digest, EarlySecret, MasterSecret, Secret, Transcript, finished_verify_data,
    next_traffic_secret, resumption_psk, verify_finished,
};
use crate::msgs::{Certificate, Codec, HandshakeMessage, KeyUpdateRequest, SignatureScheme};
use crate::provider::choose_scheme;
use crate::suites::Suite;
use crate::ticket::{ClientIdentity, Session, Ticket};
use crate::verify::{self, CertVerifier};

use super::Core;
use crate::client::hello::{ClientHelloSent, RetrySent, client_check_hello, sends_sni};
use crate::client::tls13::{
    CertificateReply, ClientExpectFinished, client_finished, client_key_exchange,
    client_record_limits, client_server_hello,
};
use crate::config::MAX_KEY_UPDATES;
use crate::config::{MAX_CHAIN, MAX_LIST};
use crate::server::hello::{Retry, server_client_hello};
use crate::server::tls13::{ServerExpectFinished, send_tickets};

/// One handshake state per expected message. The client's hello states carry the offered
/// ticket, so they are the large ones; with no allocator there is nothing to box into.
#[allow(clippy::large_enum_variant)]
pub(crate) enum State {
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

pub(crate) struct Handshaking {
    pub(crate) suite: Suite,
    pub(crate) transcript: Transcript,
    pub(crate) client_hs: Secret,
    pub(crate) server_hs: Secret,
    pub(crate) master: MasterSecret,
    /// Client only: what the server's CertificateRequest, if any, calls for.
    pub(crate) reply: CertificateReply,
}

pub(crate) struct Traffic {
    pub(crate) suite: Suite,
    pub(crate) read_secret: Secret,
    pub(crate) write_secret: Secret,
    /// The exporter master secret, for [`Connection::export_keying_material`].
    pub(crate) exporter: Secret,
    /// Client: the resumption master secret, for the PSKs of NewSessionTickets.
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
pub(crate) fn handle(
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

/// Checks a peer's Certificate and CertificateVerify (the chain to `roots` at `now` for
/// `peer`, or by the verifier when there is one, then the signature over the transcript up
/// to the Certificate), adding both to `transcript`; returns the scheme used and the peer's
/// identity: the SHA-256 of its end-entity certificate and the digest of what the chain was
/// trusted through ([`verify::anchor_digest`] of its root, or the verifier's).
pub(crate) fn check_certificate(
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

/// The schemes we verify, for `signature_algorithms`, written into `buf`.
pub(crate) fn supported_schemes(buf: &mut [SignatureScheme; MAX_LIST]) -> &[SignatureScheme] {
    let mut n = 0;
    for ((s, _), slot) in verify::SUPPORTED_SCHEMES.iter().zip(buf.iter_mut()) {
        *slot = *s;
        n += 1;
    }
    &buf[..n]
}
