//! The client role: its ClientHello ([`hello`]) and the TLS 1.3 handshake after it
//! ([`tls13`]), one state per expected message.

pub(crate) mod hello;
#[cfg(feature = "tls12")]
pub(crate) mod tls12;
pub(crate) mod tls13;

use core::mem;

use crate::config::ClientConfig;
use crate::engine::Core;
use crate::engine::handshake::{Handshaking, Traffic, key_update};
use crate::error::{Error, PeerMisbehaved};
use crate::msgs::HandshakeMessage;
use hello::{ClientHelloSent, RetrySent};
use tls13::{CertificateReply, ClientExpectFinished};

/// A client's handshake, one state per expected message. The hello states carry the offered
/// ticket, so they are the large ones; with no allocator there is nothing to box into.
#[allow(clippy::large_enum_variant)]
pub(crate) enum ClientState {
    ExpectServerHello(ClientHelloSent),
    /// After a HelloRetryRequest and the second ClientHello.
    ExpectServerHello2(RetrySent),
    ExpectEncryptedExtensions(Handshaking),
    /// The server's Certificate (with its CertificateVerify), or a CertificateRequest first.
    ExpectCertificate(Handshaking),
    ExpectFinished(ClientExpectFinished),
    Traffic(Traffic),
    /// TLS 1.2: the server's Certificate with its ServerKeyExchange.
    #[cfg(feature = "tls12")]
    ExpectCertificate12(tls12::Hello12),
    /// TLS 1.2: a CertificateRequest or the ServerHelloDone.
    #[cfg(feature = "tls12")]
    ExpectServerHelloDone12(tls12::Kx12),
    /// TLS 1.2: the server's NewSessionTicket (when its ServerHello announced one) and
    /// ChangeCipherSpec, after our Finished or a ServerHello that resumes a session.
    #[cfg(feature = "tls12")]
    ExpectCcs12(tls12::Finished12),
    /// TLS 1.2: the server's Finished.
    #[cfg(feature = "tls12")]
    ExpectFinished12(tls12::Finished12),
    /// TLS 1.2 traffic.
    #[cfg(feature = "tls12")]
    Traffic12(tls12::Traffic12),
    Dead,
}

impl ClientState {
    /// Whether the connection negotiated TLS 1.2 (its messages are read as TLS 1.2's).
    #[cfg(feature = "tls12")]
    pub(crate) fn is_tls12(&self) -> bool {
        matches!(
            self,
            Self::ExpectCertificate12(_)
                | Self::ExpectServerHelloDone12(_)
                | Self::ExpectCcs12(_)
                | Self::ExpectFinished12(_)
                | Self::Traffic12(_)
        )
    }

    /// Never: TLS 1.2 is not built (the `tls12` feature).
    #[cfg(not(feature = "tls12"))]
    #[allow(clippy::unused_self)] // the signature of the `tls12` build
    pub(crate) fn is_tls12(&self) -> bool {
        false
    }

    /// Never: TLS 1.2 is not built (the `tls12` feature).
    #[cfg(not(feature = "tls12"))]
    #[allow(clippy::unused_self)] // the signature of the `tls12` build
    pub(crate) fn holds_ticket12(&self) -> bool {
        false
    }
}

/// Takes the state out of `slot`, hands it to `next` and leaves the state that returns there.
/// Out of line, so that the moved state and the next one are in a frame of their own, one
/// message at a time, not in the dispatch's beside every other handler's; and not generic,
/// so that the moves are written once rather than once per handler (on a Cortex-M0 each copy
/// of them was ~150 bytes of flash).
#[inline(never)]
fn step(
    slot: &mut ClientState,
    next: &mut dyn FnMut(ClientState) -> Result<ClientState, Error>,
) -> Result<(), Error> {
    let state = mem::replace(slot, ClientState::Dead);
    *slot = next(state)?;
    Ok(())
}

/// [`step`] with the state `slot` holds matched against `pattern` (the dispatch has checked
/// it is the one expected; any other is an unexpected message all the same).
macro_rules! step {
    ($slot:expr, $pattern:pat => $next:expr) => {
        step($slot, &mut |state| match state {
            $pattern => $next,
            _ => Err(PeerMisbehaved::UnexpectedMessage.into()),
        })
    };
}

/// Hands one message to the state in `slot` expecting it and leaves the next state there,
/// in place ([`step`]).
// The message is destructured by the match; a reference would only add indirection.
#[allow(clippy::large_types_passed_by_value)]
pub(crate) fn handle<'a>(
    c: &mut Core<'a, '_>,
    config: &ClientConfig<'a>,
    slot: &mut ClientState,
    raw: &[u8],
    msg: HandshakeMessage<'_>,
    ticket: &[u8],
) -> Result<(), Error> {
    use ClientState as S;
    use HandshakeMessage as M;
    match (&*slot, msg) {
        // No supported_versions: the server chose TLS 1.2 (or older).
        #[cfg(feature = "tls12")]
        (S::ExpectServerHello(_), M::ServerHello(sh))
            if sh.extensions.supported_version.is_none()
                && config.offers(crate::msgs::ProtocolVersion::TLSV1_2) =>
        {
            step!(slot, S::ExpectServerHello(st) => tls12::client_server_hello(c, config, st, raw, &sh))
        }
        (S::ExpectServerHello(_), M::ServerHello(sh)) => step!(slot, S::ExpectServerHello(st) => {
            tls13::client_server_hello(c, config, st, raw, &sh, ticket)
        }),
        (S::ExpectServerHello2(_), M::ServerHello(sh)) => {
            step!(slot, S::ExpectServerHello2(st) => {
                if sh.is_retry_request() {
                    // RFC 8446 §4.1.4: a second HelloRetryRequest is unexpected_message.
                    return Err(PeerMisbehaved::UnexpectedMessage.into());
                }
                // RFC 8446 §4.1.4: the ServerHello keeps the HelloRetryRequest's selected_version
                // (TLS 1.3); another, or none, is illegal_parameter.
                if sh.extensions.supported_version != Some(crate::msgs::ProtocolVersion::TLSV1_3) {
                    return Err(crate::msgs::InvalidMessage::IllegalValue.into());
                }
                hello::client_check_hello(&sh, st.session_id.as_slice())?;
                if sh.cipher_suite != st.suite.suite {
                    return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
                }
                let psk = st.psk.as_ref();
                tls13::client_key_exchange(
                    c,
                    config,
                    (&st.key, st.classical),
                    st.suite,
                    st.transcript,
                    raw,
                    &sh,
                    psk,
                )
            })
        }
        (S::ExpectEncryptedExtensions(_), M::EncryptedExtensions(ee)) => {
            step!(slot, S::ExpectEncryptedExtensions(hs) => {
                tls13::client_encrypted_extensions(c, config, hs, raw, &ee)
            })
        }
        (S::ExpectCertificate(hs), M::CertificateRequest(cr))
            if hs.reply == CertificateReply::NotRequested =>
        {
            step!(slot, S::ExpectCertificate(hs) => {
                tls13::client_certificate_request(config, hs, raw, &cr)
            })
        }
        (S::ExpectFinished(_), M::Finished(fin)) => {
            step!(slot, S::ExpectFinished(st) => tls13::client_finished(c, config, st, raw, fin))
        }
        // Only servers send tickets; they are kept when the client has a store, and
        // dropped without the `tickets` feature (RFC 8446 §4.6.1 lets a client ignore them).
        #[cfg(feature = "tickets")]
        (S::Traffic(t), M::NewSessionTicket(nst)) => {
            tls13::client_new_session_ticket(c, config, t, &nst);
            Ok(())
        }
        #[cfg(not(feature = "tickets"))]
        (S::Traffic(_), M::NewSessionTicket(_)) => Ok(()),
        (S::Traffic(_), M::KeyUpdate(req)) => {
            step!(slot, S::Traffic(t) => Ok(S::Traffic(key_update(c, t, req)?)))
        }
        _ => Err(PeerMisbehaved::UnexpectedMessage.into()),
    }
}

/// The server's Certificate with its CertificateVerify, to the state in `slot` (which
/// expects them), in place as [`handle`].
pub(crate) fn certificate<'a>(
    c: &mut Core<'a, '_>,
    config: &ClientConfig<'a>,
    slot: &mut ClientState,
    raw_cert: &[u8],
    raw_cv: &[u8],
) -> Result<(), Error> {
    step!(slot, ClientState::ExpectCertificate(hs) => {
        tls13::client_certificate(c, config, hs, raw_cert, raw_cv)
    })
}
