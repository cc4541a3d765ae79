//! The server's answer to a ClientHello: suite, group, PSK, certificate and extensions
//! chosen, a HelloRetryRequest when no share fits, then its flight through Finished.

use core_hash::Sha256;

use crate::error::{Error, PeerIncompatible, PeerMisbehaved};
use crate::key_schedule::{Digest, EarlySecret, Transcript, finished_verify_data, verify_finished};
use crate::kx;
use crate::msgs::PskKeyExchangeMode;
use crate::msgs::{
    CertificateRequest, ClientExtensions, ClientHello, ContentType, EncryptedExtensions,
    HandshakeMessage, KeyShareEntry, List, MaxFragmentLength, NamedGroup, ProtocolName,
    ProtocolVersion, ServerHello, ServerHelloExtensions, SignatureScheme,
};
use crate::provider::choose_scheme;
use crate::psk::ExternalPsk;
use crate::record::MAX_PLAINTEXT_LEN;
use crate::sign::CertifiedKey;
use crate::suites::Suite;
use crate::ticket::ClientIdentity;
use crate::verify::{self};

use crate::config::MAX_LIST;
use crate::config::ServerConfig;
use crate::conn::Negotiated;
use crate::engine::Core;
use crate::engine::handshake::{enter_handshake, supported_schemes};
use crate::server::ServerState;
use crate::server::psk::{ChosenPsk, ServerPsk, choose_psk};
#[cfg(feature = "tls12")]
use crate::server::tls12;
use crate::server::tls13::{
    ServerExpectFinished, client_certificate_type, send_server_certificate, server_certificate,
};

pub(crate) struct Retry {
    pub(crate) suite: Suite,
    pub(crate) group: NamedGroup,
    pub(crate) transcript: Transcript,
}

/// Server: takes the client's `record_size_limit` (answering with ours) or, without one, its
/// `max_fragment_length` (echoed), and sets both directions' limits; returns what
/// EncryptedExtensions carries (RFC 8449 §4, §5; RFC 6066 §4).
pub(crate) fn server_record_limits(
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

/// Server: the client's share in our most preferred group, or (as `Err`) the state after a
/// HelloRetryRequest for one the client supports (RFC 8446 §4.1.4).
#[allow(clippy::too_many_arguments)] // the hello, its context, and the retry state
pub(crate) fn select_share<'m>(
    c: &mut Core<'_, '_>,
    config: &ServerConfig<'_>,
    random: [u8; 32],
    raw: &[u8],
    ch: &ClientHello<'m>,
    suite: Suite,
    retry: Option<&Retry>,
) -> Result<Result<KeyShareEntry<'m>, ServerState>, Error> {
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
        let mut transcript = Transcript::new(suite.hash)?;
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
        return Ok(Err(ServerState::ExpectClientHello2 {
            random,
            retry: Retry { suite, group, transcript },
        }));
    };
    Ok(Ok(share))
}

/// The version to speak with a client (RFC 8446 §4.2.1, Appendix D): the highest of its
/// `supported_versions` we accept, or without the extension TLS 1.2 for a `legacy_version`
/// of TLS 1.2 or above. A hello claiming SSL 3.0 or older is refused whatever else it
/// offers (Appendix D.5). TLS 1.2 is only taken with certificates (no external PSKs in
/// it). A server that accepts TLS 1.3 only refuses as it always did
/// ([`PeerIncompatible::NoTls13`]); one that accepts TLS 1.2 with
/// [`PeerIncompatible::NoCommonVersion`]. Both are protocol_version; with `TLS_FALLBACK_SCSV`
/// either is [`PeerMisbehaved::InappropriateFallback`] (RFC 7507 §3).
pub(crate) fn choose_version(
    config: &ServerConfig<'_>,
    ch: &ClientHello<'_>,
) -> Result<ProtocolVersion, Error> {
    let (v13, v12) = (ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2);
    // RFC 7507 §3: a fallback retry (TLS_FALLBACK_SCSV) offering less than we speak means its
    // first attempt was interfered with: inappropriate_fallback rather than protocol_version.
    let refused: Error = if ch.has_fallback_scsv() {
        PeerMisbehaved::InappropriateFallback.into()
    } else if config.accepts(v12) {
        PeerIncompatible::NoCommonVersion.into()
    } else {
        PeerIncompatible::NoTls13.into()
    };
    if ch.legacy_version.0 <= 0x0300 {
        return Err(refused);
    }
    let listed = |v| ch.extensions.supported_versions.is_some_and(|l| l.contains(&v));
    let offers12 = match ch.extensions.supported_versions {
        Some(l) => l.contains(&v12),
        // RFC 8446 §4.2.1: without the extension, TLS 1.2 or older, whatever legacy_version
        // says above it.
        None => ch.legacy_version >= v12,
    };
    let serves12 = config.accepts(v12) && !config.certs.is_empty();
    if config.accepts(v13) && listed(v13) {
        Ok(v13)
    } else if serves12 && offers12 {
        Ok(v12)
    } else {
        Err(refused)
    }
}

#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn server_client_hello<'a>(
    c: &mut Core<'a, '_>,
    config: &ServerConfig<'a>,
    random: [u8; 32],
    raw: &[u8],
    ch: &ClientHello<'_>,
    retry: Option<Retry>,
) -> Result<ServerState, Error> {
    let x = &ch.extensions;
    // TLS 1.3 if the client offers it and we accept it; else TLS 1.2 if both do (never after
    // a HelloRetryRequest, which only TLS 1.3 has).
    #[cfg(feature = "tls12")]
    if choose_version(config, ch)? == ProtocolVersion::TLSV1_2 {
        if retry.is_some() {
            return Err(crate::msgs::InvalidMessage::IllegalValue.into());
        }
        return tls12::server_client_hello(c, config, random, raw);
    }
    // Without the `tls12` feature no configuration accepts TLS 1.2 (`ServerConfig::check`),
    // so it is never chosen.
    #[cfg(not(feature = "tls12"))]
    choose_version(config, ch)?;
    // RFC 8446 §4.1.2: a TLS 1.3 hello lists the null compression method alone.
    if !ClientHello::only_null_compression(raw) {
        return Err(crate::msgs::InvalidMessage::IllegalValue.into());
    }
    if let Some(e) = x.pre_shared_key_error {
        return Err(e.into());
    }
    // RFC 8446 §4.2.10: we decline early data, so it is skipped until the client's next
    // flight; §4.1.2: a second ClientHello does not offer it again.
    if retry.is_some() && x.early_data {
        return Err(crate::msgs::InvalidMessage::IllegalValue.into());
    }
    c.skip_early = x.early_data.then_some(0);
    // RFC 8446 §4.2.9: a PSK offer needs psk_key_exchange_modes.
    if x.pre_shared_key.is_some() && x.psk_modes.is_none() {
        return Err(crate::msgs::InvalidMessage::MissingExtension.into());
    }
    // A PSK we take fixes the suite; without one the server's first suite the client has,
    // and a certificate.
    let chosen = choose_psk(config, ch);
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
        None => Some(server_certificate(config, x)?),
    };
    if retry.as_ref().is_some_and(|r| r.suite != suite) {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    }
    // psk_ke: no key exchange, so no share to pick and no HelloRetryRequest.
    let psk_ke = chosen.as_ref().is_some_and(|p| p.mode == PskKeyExchangeMode::PSK_KE);
    let share = if psk_ke {
        None
    } else {
        match select_share(c, config, random, raw, ch, suite, retry.as_ref())? {
            Ok(share) => Some(share),
            // A HelloRetryRequest was sent.
            Err(state) => return Ok(state),
        }
    };
    let (record_size_limit, max_fragment_length) = server_record_limits(c, config, x)?;
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
    // The server's share and the shared secret in one step (KEM-shaped: for a
    // Diffie–Hellman group, a fresh key pair and the function of the client's share).
    let (public, shared) = match share {
        Some(s) => {
            let (public, shared) =
                kx::encapsulate(s.group, config.key_exchanges, &mut c.rng, s.key)?;
            (Some(public), Some(shared))
        }
        None => (None, None),
    };
    let first_flight = retry.is_none();
    let mut transcript = match retry {
        Some(r) => r.transcript,
        None => Transcript::new(suite.hash)?,
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
        let early = EarlySecret::for_suite(bt.suite_hash(), Some(p.psk.key()));
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
    // RFC 8446 §4.3.2: no CertificateRequest in a PSK handshake.
    let client_auth = config.client_auth.filter(|_| chosen.is_none());
    let (client_raw_key, client_certificate_type) = match &client_auth {
        Some(auth) => client_certificate_type(auth, x)?,
        None => (false, None),
    };
    let ee = HandshakeMessage::EncryptedExtensions(EncryptedExtensions {
        // RFC 6066 §3: a resumed session acknowledges no server_name.
        server_name_ack: x.server_name.is_some()
            && !matches!(chosen.as_ref().map(|p| &p.psk), Some(ServerPsk::Ticket(_))),
        alpn: alpn.map(|i| config.alpn[i]),
        record_size_limit,
        max_fragment_length,
        // RFC 7250 §4.2: the types chosen, answering the client's lists.
        client_certificate_type,
        server_certificate_type: certificate
            .filter(|_| server_lists_types(x))
            .map(|(c, _)| c.certificate_type()),
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
    let client_auth = client_auth.is_some();
    if client_auth {
        let mut buf = [SignatureScheme(0); MAX_LIST];
        let cr = HandshakeMessage::CertificateRequest(CertificateRequest {
            context: &[],
            signature_algorithms: Some(List::items(supported_schemes(&mut buf))),
        });
        c.io.send_handshake(&cr, Some(&mut hs.transcript))?;
    }
    if let Some((credential, scheme)) = certificate {
        send_server_certificate(c, credential, scheme, &mut hs.transcript)?;
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
        version: crate::msgs::ProtocolVersion::TLSV1_3,
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
        client_raw_key,
    };
    Ok(if client_auth {
        ServerState::ExpectCertificate(st)
    } else {
        ServerState::ExpectFinished(st)
    })
}

/// Whether the client sent `server_certificate_type` (RFC 7250 §4.1), which our
/// EncryptedExtensions then answers; never without the `raw-public-keys` feature (a server
/// without it ignores the extension, as one without RFC 7250 does).
fn server_lists_types(x: &ClientExtensions<'_>) -> bool {
    cfg!(feature = "raw-public-keys") && x.server_certificate_types.is_some()
}

/// Picks the certificate to present and its signature scheme: the first certificate valid
/// for the client's SNI name whose key can sign with a scheme `offered` accepts, else the
/// first whose key can.
pub(crate) fn choose_certificate<'a>(
    certs: &'a [CertifiedKey<'a>],
    sni: Option<&[u8]>,
    offered: impl Fn(SignatureScheme) -> bool + Copy,
) -> Option<(&'a CertifiedKey<'a>, SignatureScheme)> {
    let usable = || certs.iter().filter_map(move |c| Some((c, choose_scheme(c.key, offered)?)));
    let name = sni.and_then(|n| core::str::from_utf8(n).ok());
    name.and_then(|n| usable().find(|(c, _)| verify::cert_matches_name(c.chain[0], n)))
        .or_else(|| usable().next())
}
