//! The TLS 1.3 server after its flight: the client's certificate and Finished, and the
//! tickets sent after it.

use crate::error::{ApiMisuse, CertificateError, Error, PeerIncompatible, SchemeSet};
use crate::key_schedule::{MasterSecret, Secret, Transcript, resumption_psk};
use crate::msgs::NewSessionTicket;
use crate::msgs::{
    Certificate, CertificateEntry, CertificateType, CertificateVerify, ClientExtensions,
    HandshakeMessage, List, SignatureScheme,
};
use crate::sign::{CertifiedKey, MAX_SIGNATURE_LEN};
use crate::suites::Suite;
use crate::ticket::{ClientIdentity, TicketState};
use crate::verify::{self};

use crate::config::MAX_CHAIN;
use crate::config::{ClientAuth, MAX_TICKET_LIFETIME, ServerConfig};
use crate::engine::handshake::check_peer;
use crate::engine::handshake::{Traffic, check_finished};
use crate::engine::{Core, random};
use crate::key_schedule::finished_verify_data;
use crate::server::ServerState;
use crate::server::hello::choose_certificate;

pub(crate) struct ServerExpectFinished {
    pub(crate) client_hs: Secret,
    pub(crate) client_app: Secret,
    /// The exporter master secret (over the transcript through server Finished).
    pub(crate) exporter: Secret,
    pub(crate) transcript: Transcript,
    pub(crate) suite: Suite,
    pub(crate) master: MasterSecret,
    /// Whether the client listed a resumption mode we take, so tickets are of use to it.
    pub(crate) send_tickets: bool,
    /// Whether the client's Certificate must hold a raw public key (RFC 7250).
    pub(crate) client_raw_key: bool,
}

/// What a server authenticates with in a full handshake: one of its chains, or its raw
/// public key (RFC 7250).
#[derive(Clone, Copy)]
pub(crate) enum Credential<'a> {
    Chain(&'a CertifiedKey<'a>),
    #[cfg(feature = "raw-public-keys")]
    RawKey(&'a crate::rpk::RawKey<'a>),
}

impl Credential<'_> {
    /// The type our Certificate holds, to name in `server_certificate_type`.
    pub(crate) fn certificate_type(self) -> CertificateType {
        match self {
            Self::Chain(_) => CertificateType::X509,
            #[cfg(feature = "raw-public-keys")]
            Self::RawKey(_) => CertificateType::RAW_PUBLIC_KEY,
        }
    }
}

/// Server: the Certificate and CertificateVerify of a full handshake.
pub(crate) fn send_server_certificate(
    c: &mut Core<'_, '_>,
    credential: Credential<'_>,
    scheme: SignatureScheme,
    transcript: &mut Transcript,
) -> Result<(), Error> {
    let mut entries = [CertificateEntry { cert: &[], extensions: &[] }; MAX_CHAIN];
    let (chain, key): (&[&[u8]], _) = match credential {
        Credential::Chain(certified) => (certified.chain, certified.key),
        // The SubjectPublicKeyInfo alone (RFC 7250 §3).
        #[cfg(feature = "raw-public-keys")]
        Credential::RawKey(raw) => (core::slice::from_ref(&raw.spki), raw.key),
    };
    let n = chain.len().min(MAX_CHAIN);
    for (e, der) in entries.iter_mut().zip(chain) {
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
    let sig_len = key.sign(scheme, &content[..len], &mut c.rng, &mut sig)?;
    let cv = HandshakeMessage::CertificateVerify(CertificateVerify {
        scheme,
        signature: &sig[..sig_len],
    });
    c.io.send_handshake(&cv, Some(transcript))
}

/// Server: the certificate to authenticate with when no PSK is taken. A server with only
/// external PSKs refuses with `unknown_psk_identity` (RFC 8446 §6.2); certificate
/// authentication needs `signature_algorithms` (§4.2.3). A client that lists raw public
/// keys in `server_certificate_type` before X.509 gets our raw key if we have one, and one
/// that lists only a type we lack is `unsupported_certificate` (RFC 7250 §4.2).
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn server_certificate<'a>(
    config: &ServerConfig<'a>,
    x: &ClientExtensions<'_>,
) -> Result<(Credential<'a>, SignatureScheme), Error> {
    if config.certs.is_empty() && !config.has_raw_key() {
        return Err(PeerIncompatible::UnknownPskIdentity.into());
    }
    let offered = x.signature_algorithms.ok_or(crate::msgs::InvalidMessage::MissingExtension)?;
    let no_scheme = |ours: &mut dyn Iterator<Item = SignatureScheme>| -> Error {
        let (ours, theirs) = (SchemeSet::new(ours), SchemeSet::new(offered.iter()));
        PeerIncompatible::NoSchemeInCommon { ours, theirs }.into()
    };
    #[cfg(feature = "raw-public-keys")]
    {
        let types = x.server_certificate_types.map(|l| l.iter());
        let typ = crate::rpk::choose_type(types, !config.certs.is_empty(), config.has_raw_key())?;
        if let Some(raw) = config.raw_key.filter(|_| typ == CertificateType::RAW_PUBLIC_KEY) {
            return crate::provider::choose_scheme(raw.key, |s| offered.contains(&s))
                .map(|s| (Credential::RawKey(raw), s))
                .ok_or_else(|| no_scheme(&mut raw.key.schemes().iter().copied()));
        }
    }
    choose_certificate(config.certs, x.server_name, |s| offered.contains(&s))
        .map(|(c, s)| (Credential::Chain(c), s))
        .ok_or_else(|| {
            no_scheme(&mut config.certs.iter().flat_map(|c| c.key.schemes().iter().copied()))
        })
}

/// Server: whether the client's Certificate must hold a raw public key (RFC 7250 §4.2),
/// when we ask for one: the first type of its `client_certificate_type` list that `auth`
/// accepts (X.509 without the extension); none in common is `unsupported_certificate`.
/// Also what EncryptedExtensions answers (`None` when the client sent no list).
#[cfg_attr(not(feature = "raw-public-keys"), allow(clippy::unnecessary_wraps))]
pub(crate) fn client_certificate_type(
    auth: &ClientAuth<'_>,
    x: &ClientExtensions<'_>,
) -> Result<(bool, Option<CertificateType>), Error> {
    #[cfg(feature = "raw-public-keys")]
    {
        let offered = x.client_certificate_types;
        let types = offered.map(|l| l.iter());
        let typ = crate::rpk::choose_type(types, auth.accepts_x509(), auth.raw_keys.is_some())?;
        Ok((typ == CertificateType::RAW_PUBLIC_KEY, offered.map(|_| typ)))
    }
    #[cfg(not(feature = "raw-public-keys"))]
    {
        let _ = (auth, x);
        Ok((false, None))
    }
}

/// Server: sends the configured number of NewSessionTickets (RFC 8446 §4.6.1) after the
/// client's Finished, each sealing the PSK for its nonce.
pub(crate) fn send_tickets<'a>(
    c: &mut Core<'a, '_>,
    config: &ServerConfig<'a>,
    st: &ServerExpectFinished,
) -> Result<(), Error> {
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

/// Server: the client sent an empty Certificate.
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn server_no_client_certificate(
    config: &ServerConfig<'_>,
    mut st: ServerExpectFinished,
    raw: &[u8],
    cert: &Certificate<'_>,
) -> Result<ServerState, Error> {
    if !cert.context.is_empty() {
        return Err(crate::msgs::InvalidMessage::IllegalValue.into());
    }
    if config.client_auth.is_none_or(|a| a.required) {
        return Err(Error::InvalidCertificate(CertificateError::NoCertificate));
    }
    st.transcript.update(raw);
    Ok(ServerState::ExpectFinished(st))
}

/// Server: the client's Certificate and CertificateVerify.
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn server_client_certificate<'a>(
    c: &mut Core<'a, '_>,
    config: &ServerConfig<'a>,
    mut st: ServerExpectFinished,
    raw_cert: &[u8],
    raw_cv: &[u8],
) -> Result<ServerState, Error> {
    let auth = config.client_auth.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    // A raw public key when we asked for one (RFC 7250 §4.2), else a chain.
    let (scheme, identity) = check_peer(
        &mut st.transcript,
        (raw_cert, raw_cv),
        auth.pins().filter(|_| st.client_raw_key),
        (auth.roots, auth.verifier),
        auth.clock,
        verify::Peer::Client,
    )?;
    c.params.client_auth = Some(scheme);
    c.client_identity = identity;
    if let ClientIdentity::Certificate { end_entity, .. } = identity {
        c.peer_cert_sha256 = Some(end_entity);
    }
    Ok(ServerState::ExpectFinished(st))
}

/// ExpectFinished: the client's Finished checked, its traffic key set, the handshake done,
/// and our tickets sent.
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn server_finished<'a>(
    c: &mut Core<'a, '_>,
    config: &ServerConfig<'a>,
    mut st: ServerExpectFinished,
    raw: &[u8],
    fin: &[u8],
) -> Result<ServerState, Error> {
    let expected = finished_verify_data(&st.client_hs, &st.transcript.current());
    check_finished(&expected, fin)?;
    c.set_read(st.suite, &st.client_app)?;
    c.negotiated = Some(c.params);
    // The server's write secret is the one already in use; keep a copy for KeyUpdate.
    let write_secret = c.server_app.take().ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
    st.transcript.update(raw);
    send_tickets(c, config, &st)?;
    Ok(ServerState::Traffic(Traffic {
        suite: st.suite,
        read_secret: st.client_app,
        write_secret,
        exporter: st.exporter,
        #[cfg(feature = "tickets")]
        resumption: None,
        updated_since_data: false,
    }))
}
