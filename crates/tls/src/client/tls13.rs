//! The TLS 1.3 client after its ClientHello: ServerHello, EncryptedExtensions, the server's
//! certificate, CertificateRequest and Finished, and the client's own certificate.

use crate::error::{Error, PeerIncompatible, PeerMisbehaved};
use crate::key_schedule::{Transcript, finished_verify_data};
use crate::kx::KeyShare;
use crate::msgs::PskKeyExchangeMode;
use crate::msgs::handshake::{Typed, VerifyData};
use crate::msgs::{
    Certificate, CertificateEntry, CertificateVerify, ContentType, EncryptedExtensions, List,
    NamedGroup, ServerHello, SignatureScheme,
};
use crate::provider::Signer;
use crate::record::MAX_PLAINTEXT_LEN;
use crate::sign::MAX_SIGNATURE_LEN;
use crate::suites::{self, Suite};
use crate::ticket::ClientIdentity;
use crate::verify::{self};

use crate::client::ClientState;
use crate::client::hello::{
    ClientHelloSent, Offered, RetrySent, client_check_hello, client_psk_modes, send_client_hello,
};
use crate::client::hello::{offered_classical_part, offered_types, sends_sni};
use crate::config::ClientConfig;
use crate::config::MAX_CHAIN;
use crate::engine::Core;
use crate::engine::handshake::{Handshaking, Traffic, check_finished, check_peer, enter_handshake};
#[cfg(feature = "tickets")]
use crate::key_schedule::resumption_psk;
use crate::msgs::CertificateRequest;
#[cfg(feature = "tickets")]
use crate::msgs::NewSessionTicket;
use crate::provider::choose_scheme;
use crate::schedule::SuiteHash;
#[cfg(feature = "tickets")]
use crate::ticket::{Session, Ticket};

/// A client's answer to a CertificateRequest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CertificateReply {
    /// No CertificateRequest came.
    NotRequested,
    /// An empty Certificate: no certificate configured, or none the server accepts.
    Empty,
    /// Our certificate, and a CertificateVerify with this scheme.
    Sign(SignatureScheme),
    /// Our raw public key (RFC 7250), and a CertificateVerify with this scheme.
    #[cfg(feature = "raw-public-keys")]
    SignRawKey(SignatureScheme),
}

pub(crate) struct ClientExpectFinished {
    pub(crate) hs: Handshaking,
}

/// Client: applies the server's answer to `record_size_limit` or `max_fragment_length`.
/// Only an offered extension may be answered (else `unsupported_extension`), a limit below
/// 64, a different fragment length, or both at once are `illegal_parameter` (RFC 8449 §4, §5;
/// RFC 6066 §4).
pub(crate) fn client_record_limits(
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

#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn client_server_hello<'a>(
    c: &mut Core<'a, '_>,
    config: &ClientConfig<'a>,
    st: ClientHelloSent,
    raw: &[u8],
    sh: &ServerHello<'_>,
    ticket: &[u8],
) -> Result<ClientState, Error> {
    // A client that offers TLS 1.2 only takes no TLS 1.3 ServerHello.
    if !config.offers(crate::msgs::ProtocolVersion::TLSV1_3) {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    }
    client_check_hello(sh, st.session_id.as_slice())?;
    let suite = suites::find(config.suites, sh.cipher_suite)
        .ok_or(PeerMisbehaved::SelectedUnofferedParameter)?;
    // Offering TLS 1.3, we made a key (checked above).
    let Some(st_key) = st.key else {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    };
    let mut transcript = match SuiteHash::new(suite.hash)? {
        SuiteHash::Sha256 => Transcript::Sha256(st.th256),
        // Kept whenever a SHA-384 suite is offered.
        #[cfg(feature = "sha384")]
        SuiteHash::Sha384 => {
            Transcript::Sha384(st.th384.ok_or(PeerMisbehaved::SelectedUnofferedParameter)?)
        }
    };
    if !sh.is_retry_request() {
        let classical = offered_classical_part(config, &st_key).map(|(g, _)| g);
        return client_key_exchange(
            c,
            config,
            (&st_key, classical),
            suite,
            transcript,
            raw,
            sh,
            st.offer.psk(),
        );
    }
    // HelloRetryRequest (RFC 8446 §4.1.4): a group we offered but sent no share for, and/or
    // a cookie to echo; anything that would leave ClientHello2 unchanged is illegal.
    let x = &sh.extensions;
    let key = match x.selected_group {
        Some(g)
            if g == st_key.group()
                || offered_classical_part(config, &st_key).is_some_and(|(c, _)| c == g)
                || !config.groups.contains(&g) =>
        {
            return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
        }
        Some(g) => KeyShare::keygen(g, config.key_exchanges, &mut c.rng)?,
        None if x.cookie.is_none() => return Err(PeerMisbehaved::UselessRetryRequest.into()),
        None => st_key,
    };
    // A new group gets its one share (RFC 8446 §4.1.2); after a cookie-only retry the shares
    // are the first ClientHello's, a hybrid's Diffie–Hellman part included.
    let one_share = x.selected_group.is_some();
    let classical = offered_classical_part(config, &key).map(|(g, _)| g).filter(|_| !one_share);
    transcript.restart_for_retry();
    transcript.update(raw);
    // Middlebox compatibility mode (RFC 8446 §D.4): a dummy change_cipher_spec before the
    // second flight.
    c.io.send_plain(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
    // The PSK stays on offer only if its hash is the suite's (RFC 8446 §4.1.4), with its
    // binder now over message_hash, the HRR and ClientHello2.
    let psk = st.offer.into_psk().filter(|p| p.hash(config) == Some(suite.hash));
    let offer = psk.as_ref().map(|t| (t, ticket, transcript.clone()));
    send_client_hello(
        c,
        config,
        &st.random,
        st.session_id.as_slice(),
        Some(&key),
        x.cookie,
        one_share,
        Some(&mut transcript),
        offer,
        None,
    )?;
    c.params.retried = true;
    Ok(ClientState::ExpectServerHello2(RetrySent {
        key,
        classical,
        session_id: st.session_id,
        suite,
        transcript,
        psk,
    }))
}

/// Completes the key exchange with the ServerHello's share, which must be in `key`'s group
/// or in the Diffie–Hellman group of a hybrid `key` that we offered a share for too (the
/// second of `key`).
// The configuration joined the arguments when the roles split; each is a different piece.
#[allow(clippy::too_many_arguments)]
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn client_key_exchange<'a>(
    c: &mut Core<'a, '_>,
    config: &ClientConfig<'a>,
    key: (&KeyShare, Option<NamedGroup>),
    suite: Suite,
    mut transcript: Transcript,
    raw: &[u8],
    sh: &ServerHello<'_>,
    offered: Option<&Offered>,
) -> Result<ClientState, Error> {
    let modes = client_psk_modes(config);
    // RFC 8446 §4.2.11: the server may only pick the one identity we offered, with a suite
    // of the PSK's hash.
    let psk = match (sh.extensions.selected_identity, offered) {
        (None, _) => None,
        (Some(0), Some(p)) if p.hash(config) == Some(suite.hash) => Some(p),
        (Some(_), _) => return Err(PeerMisbehaved::SelectedUnofferedParameter.into()),
    };
    // A key share, unless the server resumed with psk_ke (which we must have listed); with
    // a PSK, a share means psk_dhe_ke, which we must have listed too.
    let zeros = [0u8; 48];
    let shared;
    let (ikm, group): (&[u8], NamedGroup) = match sh.extensions.key_share {
        Some(share) => {
            // Our share's group, or the Diffie–Hellman part of a hybrid when we offered it
            // as a share of its own.
            let (key, classical) = key;
            if (share.group != key.group() && Some(share.group) != classical)
                || (psk.is_some() && !modes.contains(&PskKeyExchangeMode::PSK_DHE_KE))
            {
                return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
            }
            shared = key.decapsulate_in(share.group, share.key)?;
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
        #[cfg(feature = "tickets")]
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
    let key = psk.map(|p| p.key(config));
    // Middlebox compatibility mode (RFC 8446 §D.4): our ClientHello carried a session id, so
    // a dummy change_cipher_spec goes out before our second flight (and before an alert we
    // send from now on), unprotected, once: after a HelloRetryRequest it went before the
    // second ClientHello.
    if !c.params.retried {
        c.io.send_plain(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
    }
    Ok(ClientState::ExpectEncryptedExtensions(enter_handshake(
        c, suite, transcript, ikm, key, true,
    )?))
}

#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn client_certificate<'a>(
    c: &mut Core<'a, '_>,
    config: &ClientConfig<'a>,
    mut hs: Handshaking,
    raw_cert: &[u8],
    raw_cv: &[u8],
) -> Result<ClientState, Error> {
    let name = core::str::from_utf8(&c.sni[..c.sni_len]).unwrap_or("");
    let peer = verify::Peer::Server(name);
    // A raw public key when EncryptedExtensions said so (RFC 7250 §4.2), else a chain.
    let (scheme, identity) = check_peer(
        &mut hs.transcript,
        (raw_cert, raw_cv),
        config.server_pins().filter(|_| hs.peer_raw_key),
        (config.roots, config.verifier),
        config.clock,
        peer,
    )?;
    c.params.scheme = scheme;
    if let ClientIdentity::Certificate { end_entity, .. } = identity {
        c.peer_cert_sha256 = Some(end_entity);
    }
    Ok(ClientState::ExpectFinished(ClientExpectFinished { hs }))
}

#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn client_finished<'a>(
    c: &mut Core<'a, '_>,
    config: &ClientConfig<'a>,
    st: ClientExpectFinished,
    raw: &[u8],
    fin: &[u8],
) -> Result<ClientState, Error> {
    let mut hs = st.hs;
    let expected = finished_verify_data(&hs.server_hs, &hs.transcript.current());
    check_finished(&expected, fin)?;
    hs.transcript.update(raw);
    let th = hs.transcript.current();
    let client_app = hs.master.client_traffic(&th);
    let server_app = hs.master.server_traffic(&th);
    let exporter = hs.master.exporter(&th);
    if hs.reply != CertificateReply::NotRequested {
        send_client_certificate(c, config, hs.reply, &mut hs.transcript)?;
    }
    let verify_data = finished_verify_data(&hs.client_hs, &hs.transcript.current());
    let fin = Typed(VerifyData(verify_data.as_ref()));
    c.io.send_handshake(&fin, Some(&mut hs.transcript))?;
    c.set_write(hs.suite, &client_app)?;
    c.set_read(hs.suite, &server_app)?;
    c.negotiated = Some(c.params);
    // Only for the PSKs of tickets we can keep.
    #[cfg(feature = "tickets")]
    let resumption = config.ticket_store().map(|_| hs.master.resumption(&hs.transcript.current()));
    Ok(ClientState::Traffic(Traffic {
        suite: hs.suite,
        read_secret: server_app,
        write_secret: client_app,
        exporter,
        #[cfg(feature = "tickets")]
        resumption,
        updated_since_data: false,
    }))
}

/// A key and the scheme it signs our CertificateVerify with.
type Signing<'k> = (&'k dyn Signer, SignatureScheme);

/// Client: answers a CertificateRequest with our Certificate (empty if we have none the
/// server accepts) and, with one, a CertificateVerify.
pub(crate) fn send_client_certificate<'a>(
    c: &mut Core<'a, '_>,
    config: &ClientConfig<'a>,
    reply: CertificateReply,
    transcript: &mut Transcript,
) -> Result<(), Error> {
    let mut entries = [CertificateEntry { cert: &[], extensions: &[] }; MAX_CHAIN];
    // Our chain, or our raw public key as its one entry (RFC 7250 §3), and its key.
    #[cfg(feature = "raw-public-keys")]
    let spki: [&[u8]; 1];
    let (chain, signer): (&[&[u8]], Option<Signing<'_>>) = match (reply, config.client_cert) {
        (CertificateReply::Sign(scheme), Some(cert)) => (cert.chain, Some((cert.key, scheme))),
        #[cfg(feature = "raw-public-keys")]
        (CertificateReply::SignRawKey(scheme), _) => match config.client_raw_key {
            Some(k) => {
                spki = [k.spki];
                (&spki, Some((k.key, scheme)))
            }
            None => (&[], None),
        },
        _ => (&[], None),
    };
    let n = chain.len().min(MAX_CHAIN);
    for (e, der) in entries.iter_mut().zip(chain) {
        e.cert = der;
    }
    let msg = Typed(Certificate { context: &[], entries: List::items(&entries[..n]) });
    c.io.send_handshake(&msg, Some(transcript))?;
    if let Some((key, scheme)) = signer {
        let mut content = [0u8; 200];
        let len = verify::signed_content(false, transcript.current().as_ref(), &mut content);
        let mut sig = [0u8; MAX_SIGNATURE_LEN];
        let sig_len = key.sign(scheme, &content[..len], &mut c.rng, &mut sig)?;
        let cv = Typed(CertificateVerify { scheme, signature: &sig[..sig_len] });
        c.io.send_handshake(&cv, Some(transcript))?;
        c.params.client_auth = Some(scheme);
    }
    Ok(())
}

/// ExpectEncryptedExtensions: the answers to what we offered (SNI, ALPN, record limits); a
/// PSK handshake goes on to Finished (no certificate messages, RFC 8446 §2.2).
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn client_encrypted_extensions<'a>(
    c: &mut Core<'a, '_>,
    config: &ClientConfig<'a>,
    mut hs: Handshaking,
    raw: &[u8],
    ee: &EncryptedExtensions<'_>,
) -> Result<ClientState, Error> {
    hs.transcript.update(raw);
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
    client_record_limits(c, config, ee)?;
    let psk = c.params.resumed || c.params.external_psk;
    (hs.peer_raw_key, hs.own_raw_key) = client_certificate_types(config, ee, psk)?;
    // A PSK handshake has no certificate messages (RFC 8446 §2.2).
    Ok(if psk {
        ClientState::ExpectFinished(ClientExpectFinished { hs })
    } else {
        ClientState::ExpectCertificate(hs)
    })
}

/// Client: the certificate types the server chose (RFC 7250 §4.2), each one we offered (an
/// answer to an extension we did not send is `unsupported_extension`, a type we did not list
/// `illegal_parameter`); without `server_certificate_type` the server's Certificate is
/// X.509, which a client that pins raw keys only refuses with `unsupported_certificate`
/// unless a PSK spares the certificate (`psk`). Returns whether the server's Certificate
/// holds a raw key, and whether ours must.
pub(crate) fn client_certificate_types(
    config: &ClientConfig<'_>,
    ee: &EncryptedExtensions<'_>,
    psk: bool,
) -> Result<(bool, bool), Error> {
    use crate::msgs::CertificateType;
    use crate::msgs::InvalidMessage::{IllegalValue, UnexpectedExtension};
    let chosen = |answer, offer: Option<&[CertificateType]>| match (answer, offer) {
        (None, _) => Ok(CertificateType::X509),
        (Some(t), Some(o)) if o.contains(&t) => Ok(t),
        (Some(_), Some(_)) => Err(IllegalValue),
        (Some(_), None) => Err(UnexpectedExtension),
    };
    let (ours, theirs) = offered_types(config);
    let raw = CertificateType::RAW_PUBLIC_KEY;
    let server = chosen(ee.server_certificate_type, theirs)? == raw;
    let client = chosen(ee.client_certificate_type, ours)? == raw;
    if !server && !psk && !config.accepts_x509() {
        return Err(PeerIncompatible::NoCommonCertificateType.into());
    }
    Ok((server, client))
}

/// ExpectCertificate, a CertificateRequest first: what we will answer it with.
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn client_certificate_request(
    config: &ClientConfig<'_>,
    mut hs: Handshaking,
    raw: &[u8],
    cr: &CertificateRequest<'_>,
) -> Result<ClientState, Error> {
    // RFC 8446 §4.3.2: the context is empty during the handshake, and
    // signature_algorithms must be there.
    if !cr.context.is_empty() {
        return Err(crate::msgs::InvalidMessage::IllegalValue.into());
    }
    let offered = cr.signature_algorithms.ok_or(crate::msgs::InvalidMessage::MissingExtension)?;
    let scheme = |key| choose_scheme(key, |s| offered.contains(&s));
    hs.reply = match config.client_cert.and_then(|cert| scheme(cert.key)) {
        Some(scheme) if !hs.own_raw_key => CertificateReply::Sign(scheme),
        _ => CertificateReply::Empty,
    };
    // The server asked for our raw public key (RFC 7250 §4.2).
    #[cfg(feature = "raw-public-keys")]
    if hs.own_raw_key {
        hs.reply = config
            .client_raw_key
            .and_then(|k| scheme(k.key))
            .map_or(CertificateReply::Empty, CertificateReply::SignRawKey);
    }
    hs.transcript.update(raw);
    Ok(ClientState::ExpectCertificate(hs))
}

/// Traffic: a NewSessionTicket is kept when we have a store (and room in it).
#[cfg(feature = "tickets")]
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn client_new_session_ticket(
    c: &mut Core<'_, '_>,
    config: &ClientConfig<'_>,
    t: &Traffic,
    nst: &NewSessionTicket<'_>,
) {
    if let (Some(store), Some(rms)) = (config.ticket_store(), &t.resumption) {
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
}
