//! The server role: the ClientHello answered ([`hello`]), the PSK chosen ([`psk`]), the
//! TLS 1.3 handshake after the server's flight ([`tls13`]), and the TLS 1.2 handshake
//! (`tls12`, with the `tls12` feature), one state per expected message.

pub(crate) mod hello;
pub(crate) mod psk;
#[cfg(feature = "tls12")]
pub(crate) mod tls12;
pub(crate) mod tls13;

use crate::config::ServerConfig;
use crate::engine::Core;
use crate::engine::handshake::{Traffic, key_update};
use crate::error::{Error, PeerMisbehaved};
use crate::msgs::HandshakeMessage;
use hello::Retry;
use tls13::ServerExpectFinished;

/// A server's handshake, one state per expected message. The TLS 1.2 key exchange holds a
/// [`KeyShare`](crate::kx::KeyShare), the large one; with no allocator there is nothing to
/// box into.
#[allow(clippy::large_enum_variant)]
pub(crate) enum ServerState {
    ExpectClientHello {
        random: [u8; 32],
    },
    /// After a HelloRetryRequest: the suite is fixed and the transcript holds
    /// `message_hash(ClientHello1)` and the HRR.
    ExpectClientHello2 {
        random: [u8; 32],
        retry: Retry,
    },
    /// With client authentication: the client's Certificate (and CertificateVerify) come
    /// before its Finished.
    ExpectCertificate(ServerExpectFinished),
    ExpectFinished(ServerExpectFinished),
    Traffic(Traffic),
    /// TLS 1.2 with client authentication: the client's Certificate.
    #[cfg(feature = "tls12")]
    ExpectCertificate12(tls12::Kx12),
    /// TLS 1.2: the client's ClientKeyExchange.
    #[cfg(feature = "tls12")]
    ExpectClientKeyExchange12(tls12::Kx12),
    /// TLS 1.2, after a client certificate and the ClientKeyExchange: its CertificateVerify.
    #[cfg(feature = "tls12")]
    ExpectCertificateVerify12(tls12::Verify12),
    /// TLS 1.2: the client's ChangeCipherSpec.
    #[cfg(feature = "tls12")]
    ExpectCcs12(tls12::Finished12),
    /// TLS 1.2: the client's Finished.
    #[cfg(feature = "tls12")]
    ExpectFinished12(tls12::Finished12),
    /// TLS 1.2 traffic.
    #[cfg(feature = "tls12")]
    Traffic12(tls12::Traffic12),
    Dead,
}

impl ServerState {
    /// Whether the connection negotiated TLS 1.2 (its messages are read as TLS 1.2's).
    #[cfg(feature = "tls12")]
    pub(crate) fn is_tls12(&self) -> bool {
        matches!(
            self,
            Self::ExpectCertificate12(_)
                | Self::ExpectClientKeyExchange12(_)
                | Self::ExpectCertificateVerify12(_)
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
}

/// Hands one message to the state expecting it and returns the next state.
// The message is destructured by the match; a reference would only add indirection.
#[allow(clippy::large_types_passed_by_value)]
pub(crate) fn handle<'a>(
    c: &mut Core<'a, '_>,
    config: &ServerConfig<'a>,
    state: ServerState,
    raw: &[u8],
    msg: HandshakeMessage<'_>,
) -> Result<ServerState, Error> {
    match (state, msg) {
        (ServerState::ExpectClientHello { random }, HandshakeMessage::ClientHello(ch)) => {
            hello::server_client_hello(c, config, random, raw, &ch, None)
        }
        (ServerState::ExpectClientHello2 { random, retry }, HandshakeMessage::ClientHello(ch)) => {
            hello::server_client_hello(c, config, random, raw, &ch, Some(retry))
        }
        (ServerState::ExpectFinished(st), HandshakeMessage::Finished(fin)) => {
            tls13::server_finished(c, config, st, raw, fin)
        }
        (ServerState::Traffic(t), HandshakeMessage::KeyUpdate(req)) => {
            Ok(ServerState::Traffic(key_update(c, t, req)?))
        }
        _ => Err(PeerMisbehaved::UnexpectedMessage.into()),
    }
}
