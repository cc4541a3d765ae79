//! The TLS 1.2 client after its ClientHello (RFC 5246 §7.3, ECDHE suites of RFC 8422 with
//! AEAD records only): ServerHello, the server's Certificate with its ServerKeyExchange, an
//! optional CertificateRequest, ServerHelloDone; then our Certificate (when asked),
//! ClientKeyExchange, CertificateVerify (when we sent a certificate), ChangeCipherSpec and
//! Finished, and the server's NewSessionTicket (RFC 5077, when it said it would send one),
//! ChangeCipherSpec and Finished. A resumed session (RFC 5246 §7.3 abbreviated handshake)
//! is ServerHello, the server's NewSessionTicket (if any), ChangeCipherSpec and Finished,
//! then ours.
//!
//! What Halite requires of a TLS 1.2 server: the extended master secret (RFC 7627; without it
//! [`PeerIncompatible::NoExtendedMasterSecret`]), an empty `renegotiation_info` (RFC 5746;
//! absent is [`PeerIncompatible::NoSecureRenegotiation`]), a ServerKeyExchange in a group we
//! offered, signed with a scheme we offered that fits the suite. Renegotiation is refused: a
//! HelloRequest in traffic ends the connection with a `no_renegotiation` alert
//! ([`PeerIncompatible::Renegotiation`]), the simple choice RFC 5746 §4.2 allows; one during
//! the handshake (after the ServerHello) is ignored and kept out of the transcript (RFC 5246
//! §7.4.1.1), as `engine::deframe` does.
//!
//! Client certificates: a CertificateRequest is answered with [`ClientConfig::client_cert`]
//! when its key can sign one of the request's `supported_signature_algorithms` with a
//! certificate type the request lists (RFC 5246 §7.4.4: `rsa_sign` for RSA, `ecdsa_sign` for
//! ECDSA), else with an empty Certificate (§7.4.6); the server decides whether to go on.
//! The CertificateVerify signs every handshake message so far (§7.4.8), which this client
//! does not keep (no allocator): it keeps the transcript as running SHA-256 *and* SHA-384
//! hashes until the request says which the signature uses, and signs that hash
//! ([`crate::provider::Signer::sign_digest`]). So the key must sign digests with SHA-256 or
//! SHA-384 ([`crate::provider::Signer::tls12_digest_schemes`]): Ed25519 keys, which sign whole
//! messages, answer a TLS 1.2 request with an empty Certificate. `certificate_authorities` is
//! not read: there is one certificate to offer.
//!
//! Resumption: with a [`ClientConfig::tickets`] store, the ClientHello carries a
//! `session_ticket` extension (RFC 5077 §3.2), and after a full handshake whose server
//! Finished checks, the session — master secret, suite, the server's 32-byte session id
//! and/or its ticket, the extended master secret flag — goes into the store as a
//! [`crate::ticket::Ticket`] whose [`crate::ticket::Session::is_tls12`] is true. The next
//! connection to the same name offers it: its session id (a fresh random one when it has
//! none) and its ticket. A ServerHello echoing that id resumes it (RFC 5246 §7.4.1.3, RFC 5077
//! §3.4), which must keep the session's suite ([`PeerMisbehaved::SelectedUnofferedParameter`]
//! otherwise, illegal_parameter) and the extended master secret (RFC 7627 §5.3, required of
//! every ServerHello anyway); any other id is a full handshake. A resumed session is kept
//! again afterwards: with the server's new ticket if it sent one, else by its id if it has
//! one (a ticket is offered once).

use core_hash::Sha256;

use crate::error::{CertificateError, Error, PeerIncompatible, PeerMisbehaved};
use crate::key_schedule::tls12::{MasterSecret, PreMasterSecret, Sender};
use crate::key_schedule::{HashAlg, Transcript};
use crate::kx::KeyShare;
use crate::msgs::tls12::{
    Asn1Cert, Certificate12, CertificateRequest12, ClientKeyExchange, ECDSA_SIGN, RSA_SIGN,
    check_downgrade,
};
use crate::msgs::{
    CertificateVerify, Codec, ContentType, EncryptedExtensions, HandshakeMessage12, HandshakeType,
    InvalidMessage, List, NamedGroup, ProtocolVersion, ServerHello, SignatureScheme,
};
use crate::record::tls12::PendingKeys;
use crate::schedule::SuiteHash;
use crate::sign::MAX_SIGNATURE_LEN;
use crate::suites::tls12::{self as suites12, Auth, Suite12};
use crate::ticket::{Resume12, Session, SessionId, Ticket};
use crate::verify;

use crate::client::ClientState;
use crate::client::hello::{ClientHelloSent, sends_sni};
use crate::client::tls13::client_record_limits;
use crate::config::{ClientConfig, MAX_CHAIN};
use crate::engine::Core;
use crate::engine::io::Protection;

/// The lifetime given to a session the server set none for (a session id, a ticket with a
/// lifetime hint of 0): two hours, as long as most servers cache sessions.
pub(crate) const SESSION_LIFETIME12: u32 = 7200;

/// What the hellos fixed: the suite, the transcript so far and both randoms.
pub(crate) struct Hello12 {
    suite: Suite12,
    transcript: Transcript,
    /// The transcript under the other hash (SHA-384 for a SHA-256 suite and the reverse),
    /// while a CertificateVerify may need it.
    alt: Option<Transcript>,
    client_random: [u8; 32],
    server_random: [u8; 32],
    /// What to keep of the session: the server's id, whether a ticket comes.
    resume: SessionPlan,
}

/// What a handshake will make of the session for later resumption.
#[derive(Clone, Copy)]
struct SessionPlan {
    /// The server's session id, when it gave one.
    session_id: Option<SessionId>,
    /// Whether the ServerHello had `session_ticket`: a NewSessionTicket comes before the
    /// server's ChangeCipherSpec (RFC 5077 §3.3), and no other time.
    ticket_expected: bool,
    /// Whether the ServerHello had `encrypt_then_mac` (RFC 7366), for a CBC suite.
    etm: bool,
}

/// A client's answer to a TLS 1.2 CertificateRequest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reply12 {
    /// An empty Certificate: no certificate, or none the request accepts.
    Empty,
    /// Our certificate, and a CertificateVerify with this scheme.
    Sign(SignatureScheme),
}

/// After the ServerKeyExchange: our ephemeral key and the premaster secret it made.
pub(crate) struct Kx12 {
    hello: Hello12,
    key: KeyShare,
    pms: PreMasterSecret,
    /// The answer to the CertificateRequest, once one came.
    reply: Option<Reply12>,
}

/// After our Finished (or, resuming, the ServerHello): the server's NewSessionTicket, then
/// its ChangeCipherSpec (which puts the server's write keys of `keys` in force) and Finished.
pub(crate) struct Finished12 {
    transcript: Transcript,
    master: MasterSecret,
    client_random: [u8; 32],
    server_random: [u8; 32],
    /// Both directions' keys, each keyed when it comes into force (keyed protections are
    /// ~2 KiB each, so the state keeps only the key block).
    keys: PendingKeys,
    /// Resuming: our write keys come into force once the server's Finished checks and our
    /// ChangeCipherSpec follows.
    write_pending: bool,
    suite: Suite12,
    resume: SessionPlan,
    /// The lifetime hint of the NewSessionTicket received with a ticket; the ticket itself
    /// waits at the end of the handshake buffer (see `engine::deframe`) until the Finished.
    ticket: Option<u32>,
}

/// Traffic: what exporters need.
pub(crate) struct Traffic12 {
    pub(crate) master: MasterSecret,
    pub(crate) client_random: [u8; 32],
    pub(crate) server_random: [u8; 32],
}

impl ClientState {
    /// Whether a TLS 1.2 NewSessionTicket's ticket waits at the end of the handshake buffer.
    pub(crate) fn holds_ticket12(&self) -> bool {
        matches!(self, Self::ExpectCcs12(f) | Self::ExpectFinished12(f) if f.ticket.is_some())
    }

    /// Gives up the ticket waiting for the Finished (it did not fit).
    pub(crate) fn forget_ticket12(&mut self) {
        if let Self::ExpectCcs12(f) | Self::ExpectFinished12(f) = self {
            f.ticket = None;
        }
    }
}

/// The hash of a TLS 1.2 scheme a CertificateVerify signs with (SHA-256 or SHA-384: the
/// two the transcript runs on).
pub(crate) fn scheme_hash(scheme: SignatureScheme) -> Option<HashAlg> {
    match scheme {
        SignatureScheme::ECDSA_SECP256R1_SHA256
        | SignatureScheme::RSA_PSS_RSAE_SHA256
        | SignatureScheme::RSA_PSS_PSS_SHA256
        | SignatureScheme::RSA_PKCS1_SHA256 => Some(HashAlg::Sha256),
        SignatureScheme::ECDSA_SECP384R1_SHA384
        | SignatureScheme::RSA_PSS_RSAE_SHA384
        | SignatureScheme::RSA_PSS_PSS_SHA384
        | SignatureScheme::RSA_PKCS1_SHA384 => Some(HashAlg::Sha384),
        _ => None,
    }
}

/// Whether a certificate signing with `scheme` is of a type in `types` (RFC 5246 §7.4.4,
/// RFC 8422 §5.5): `ecdsa_sign` for ECDSA, `rsa_sign` for RSA.
fn type_fits(types: &[u8], scheme: SignatureScheme) -> bool {
    let ecdsa = matches!(
        scheme,
        SignatureScheme::ECDSA_SECP256R1_SHA256 | SignatureScheme::ECDSA_SECP384R1_SHA384
    );
    types.contains(if ecdsa { &ECDSA_SIGN } else { &RSA_SIGN })
}

/// The groups TLS 1.2 ECDHE can use (RFC 8422 §5.1.1): no hybrids.
fn is_ecdhe_group(g: NamedGroup) -> bool {
    [NamedGroup::X25519, NamedGroup::SECP256R1, NamedGroup::SECP384R1, NamedGroup::SECP521R1]
        .contains(&g)
}

/// Whether `scheme` is one a server with `auth` keys signs with (RFC 8422 §5.1.1: Ed25519
/// with the ECDSA suites).
fn scheme_fits(auth: Auth, scheme: SignatureScheme) -> bool {
    let ecdsa = matches!(
        scheme,
        SignatureScheme::ED25519
            | SignatureScheme::ECDSA_SECP256R1_SHA256
            | SignatureScheme::ECDSA_SECP384R1_SHA384
            | SignatureScheme::ECDSA_SECP521R1_SHA512
    );
    verify::SUPPORTED_SCHEMES_TLS12.contains(&scheme) && (ecdsa == (auth == Auth::Ecdsa))
}

/// A ServerHello without `supported_versions`: the server chose TLS 1.2 (which we offered).
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn client_server_hello(
    c: &mut Core<'_, '_>,
    config: &ClientConfig<'_>,
    st: ClientHelloSent,
    raw: &[u8],
    sh: &ServerHello<'_>,
) -> Result<ClientState, Error> {
    // An older version than the TLS 1.2 we offered (with or without TLS 1.3).
    if sh.legacy_version != ProtocolVersion::TLSV1_2 {
        return Err(PeerIncompatible::NoCommonVersion.into());
    }
    // RFC 8446 §4.1.3: a 1.3-capable client refuses a 1.3 server's downgrade sentinel.
    check_downgrade(&sh.random, config.max_version())?;
    // The id we sent names the offered session, if any (else it is random): a server that
    // echoes it resumes that session, one we did not offer is refused.
    let echoed = !sh.session_id.is_empty() && sh.session_id == st.session_id.as_slice();
    let resumed = match (st.offer.tls12(), echoed) {
        (Some(s), true) => Some(s),
        (None, true) => return Err(PeerMisbehaved::SelectedUnofferedParameter.into()),
        (_, false) => None,
    };
    let suite = suites12::find(config.suites12, sh.cipher_suite)
        .ok_or(PeerMisbehaved::SelectedUnofferedParameter)?;
    let x = &sh.extensions;
    if x.key_share.is_some() || x.selected_identity.is_some() || x.cookie.is_some() {
        return Err(InvalidMessage::UnexpectedExtension.into());
    }
    // session_ticket answers ours, sent only with a store (RFC 5077 §3.2).
    if (x.session_ticket && config.ticket_store().is_none())
        || (x.server_name_ack && !sends_sni(&c.sni[..c.sni_len]))
    {
        return Err(InvalidMessage::UnexpectedExtension.into());
    }
    if !x.extended_master_secret {
        return Err(PeerIncompatible::NoExtendedMasterSecret.into());
    }
    // RFC 7366 §3: encrypt_then_mac answers ours, sent with CBC suites, and goes with a CBC
    // suite only.
    if x.encrypt_then_mac && !suite.is_cbc() {
        return Err(InvalidMessage::UnexpectedExtension.into());
    }
    x.renegotiation_info.ok_or(PeerIncompatible::NoSecureRenegotiation)?.check_initial()?;
    c.params.alpn = match x.alpn {
        None => None,
        Some(_) if config.alpn.is_empty() => {
            return Err(InvalidMessage::UnexpectedExtension.into());
        }
        Some(p) => Some(
            config
                .alpn
                .iter()
                .position(|o| *o == p)
                .ok_or(PeerMisbehaved::SelectedUnofferedParameter)?,
        ),
    };
    let limits = EncryptedExtensions {
        record_size_limit: x.record_size_limit,
        max_fragment_length: x.max_fragment_length,
        ..Default::default()
    };
    client_record_limits(c, config, &limits)?;
    // SHA-384 is kept whenever a SHA-384 suite is offered or our key may need it.
    let (mut transcript, other) = match SuiteHash::new(suite.hash)? {
        SuiteHash::Sha256 => (Transcript::Sha256(st.th256), st.th384.map(Transcript::Sha384)),
        SuiteHash::Sha384 => (
            Transcript::Sha384(st.th384.ok_or(PeerMisbehaved::SelectedUnofferedParameter)?),
            Some(Transcript::Sha256(st.th256)),
        ),
    };
    transcript.update(raw);
    c.params.version = ProtocolVersion::TLSV1_2;
    c.params.suite = suite.suite;
    let session_id = SessionId::new(sh.session_id).filter(|id| !id.as_slice().is_empty());
    let plan =
        SessionPlan { session_id, ticket_expected: x.session_ticket, etm: x.encrypt_then_mac };
    if let Some(session) = resumed {
        return resume(c, session, suite, transcript, (st.random, sh.random), plan);
    }
    // A CertificateVerify may need the other hash: keep it while a certificate may be asked
    // for.
    let alt = config.client_cert.filter(|ck| !ck.key.tls12_digest_schemes().is_empty()).and(other);
    let alt = alt.map(|mut other| {
        other.update(raw);
        other
    });
    Ok(ClientState::ExpectCertificate12(Hello12 {
        suite,
        transcript,
        alt,
        client_random: st.random,
        server_random: sh.random,
        resume: plan,
    }))
}

/// A ServerHello that resumes `session` (RFC 5246 §7.3): the suite must be the session's;
/// both directions are keyed from its master secret and the new randoms, and the server's
/// ChangeCipherSpec and Finished come next.
fn resume(
    c: &mut Core<'_, '_>,
    session: &Session,
    suite: Suite12,
    transcript: Transcript,
    (client_random, server_random): ([u8; 32], [u8; 32]),
    plan: SessionPlan,
) -> Result<ClientState, Error> {
    if suite.suite != session.suite() {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    }
    // RFC 7366 §3.1: a resumed session keeps the encrypt_then_mac decision of the one that
    // made it; a server that drops (or adds) it is refused with handshake_failure.
    if session.tls12().is_some_and(|r| r.etm != plan.etm) {
        return Err(PeerIncompatible::EncryptThenMacChanged.into());
    }
    let bytes = <&[u8; 48]>::try_from(session.psk())
        .map_err(|_| Error::ApiMisuse(crate::error::ApiMisuse::BadConfig))?;
    let master = MasterSecret::from_bytes(suite.hash, bytes)?;
    let keys = PendingKeys::derive(&suite, &master, (&client_random, &server_random), plan.etm)?;
    c.params.resumed = true;
    c.params.scheme = session.scheme();
    c.peer_cert_sha256 = session.server_cert_sha256();
    // The session's id goes on (a resumed session is the same session); the id echoed may
    // be the random one sent with a ticket, which names nothing to the server.
    let id = session.tls12().and_then(|r| r.session_id);
    Ok(ClientState::ExpectCcs12(Finished12 {
        transcript,
        master,
        client_random,
        server_random,
        keys,
        write_pending: true,
        suite,
        resume: SessionPlan { session_id: id, ..plan },
        ticket: None,
    }))
}

/// The server's Certificate and ServerKeyExchange, handled together so that the chain can
/// stay in the handshake buffer while the signature is checked: the chain to our roots (or
/// by the configured verifier), the signature over `client_random ‖ server_random ‖ params`
/// with a scheme we offered that fits the suite, a group we offered; then our half of the
/// key exchange.
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn client_certificate(
    c: &mut Core<'_, '_>,
    config: &ClientConfig<'_>,
    mut hello: Hello12,
    raw_cert: &[u8],
    raw_ske: &[u8],
) -> Result<ClientState, Error> {
    let HandshakeMessage12::Certificate(cert) = HandshakeMessage12::decode(raw_cert)? else {
        return Err(PeerMisbehaved::UnexpectedMessage.into());
    };
    let HandshakeMessage12::ServerKeyExchange(ske) = HandshakeMessage12::decode(raw_ske)? else {
        return Err(PeerMisbehaved::UnexpectedMessage.into());
    };
    let mut chain: [&[u8]; MAX_CHAIN] = [&[]; MAX_CHAIN];
    let mut n = 0;
    for c in &cert.certs {
        if n == MAX_CHAIN {
            return Err(Error::InvalidCertificate(CertificateError::ChainTooLong));
        }
        chain[n] = c.0;
        n += 1;
    }
    // RFC 5246 §7.4.2: the server's chain starts with its certificate; an empty one is a
    // malformed message, decode_error (TLS 1.2 has no certificate_required alert).
    if n == 0 {
        return Err(InvalidMessage::BadLength.into());
    }
    let group = ske.params.group;
    if !config.groups.contains(&group) || !is_ecdhe_group(group) {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    }
    if !scheme_fits(hello.suite.auth, ske.scheme) {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    }
    let content = ske
        .params
        .signed_content(&hello.client_random, &hello.server_random)
        .map_err(|_| InvalidMessage::BadLength)?;
    let (ee, inter) = (chain[0], &chain[1..n]);
    verify::check_key_usage(ee)?;
    let name = core::str::from_utf8(&c.sni[..c.sni_len]).unwrap_or("");
    let peer = verify::Peer::Server(name);
    let now = config.clock.now();
    // A configured verifier checks the chain and the signature (with the schemes it
    // knows); webpki's path checks the signature with the TLS 1.2 schemes.
    if let Some(v) = config.verifier {
        v.verify(ee, inter, peer, now, ske.scheme, content.as_ref(), ske.signature)?;
    } else {
        verify::verify_chain(ee, inter, config.roots, peer, now)?;
        let (scheme, sig) = (ske.scheme, ske.signature);
        verify::verify_signature_for(ProtocolVersion::TLSV1_2, ee, scheme, content.as_ref(), sig)?;
    }
    for t in core::iter::once(&mut hello.transcript).chain(hello.alt.as_mut()) {
        t.update(raw_cert);
        t.update(raw_ske);
    }
    c.params.scheme = ske.scheme;
    c.params.group = group;
    c.peer_cert_sha256 = Some(Sha256::digest(ee));
    let key = KeyShare::keygen(group, config.key_exchanges, &mut c.rng)?;
    let shared = key.decapsulate(ske.params.public)?;
    let pms = PreMasterSecret::new(shared.as_ref())?;
    Ok(ClientState::ExpectServerHelloDone12(Kx12 { hello, key, pms, reply: None }))
}

/// A CertificateRequest: the scheme we will sign with, if our certificate has one the
/// request accepts (with its certificate type), else an empty Certificate. The transcript
/// under the other hash is kept only if that scheme needs it.
fn client_certificate_request(
    config: &ClientConfig<'_>,
    mut kx: Kx12,
    raw: &[u8],
    cr: &CertificateRequest12<'_>,
) -> Kx12 {
    let scheme = config.client_cert.and_then(|ck| {
        ck.key.tls12_digest_schemes().iter().copied().find(|s| {
            cr.signature_algorithms.contains(s)
                && type_fits(cr.certificate_types, *s)
                && scheme_hash(*s).is_some()
        })
    });
    let hello = &mut kx.hello;
    hello.transcript.update(raw);
    let needs_alt = scheme.and_then(scheme_hash).is_some_and(|h| h != hello.suite.hash);
    hello.alt = hello.alt.take().filter(|_| needs_alt).map(|mut t| {
        t.update(raw);
        t
    });
    kx.reply = Some(scheme.map_or(Reply12::Empty, Reply12::Sign));
    kx
}

/// ExpectServerHelloDone: a CertificateRequest first, then ServerHelloDone, which our
/// flight answers: Certificate (if asked), ClientKeyExchange, CertificateVerify (if we sent
/// a certificate), ChangeCipherSpec and Finished.
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn client_server_hello_done(
    c: &mut Core<'_, '_>,
    config: &ClientConfig<'_>,
    kx: Kx12,
    raw: &[u8],
    msg: &HandshakeMessage12<'_>,
) -> Result<ClientState, Error> {
    match msg {
        HandshakeMessage12::CertificateRequest(cr) if kx.reply.is_none() => Ok(
            ClientState::ExpectServerHelloDone12(client_certificate_request(config, kx, raw, cr)),
        ),
        HandshakeMessage12::ServerHelloDone => {
            let Kx12 { hello, key, pms, reply } = kx;
            let Hello12 { suite, mut transcript, mut alt, client_random, server_random, resume } =
                hello;
            transcript.update(raw);
            if let Some(t) = alt.as_mut() {
                t.update(raw);
            }
            // Each message we send goes into the other transcript too, while it runs.
            let mut also = |m: &mut [u8]| {
                if let Some(t) = alt.as_mut() {
                    t.update(m);
                }
                Ok(())
            };
            let cert = match (reply, config.client_cert) {
                (Some(Reply12::Sign(scheme)), Some(ck)) => Some((scheme, ck)),
                _ => None,
            };
            if reply.is_some() {
                let mut certs = [Asn1Cert(&[]); MAX_CHAIN];
                let chain = cert.map_or(&[][..], |(_, ck)| ck.chain);
                let n = chain.len().min(MAX_CHAIN);
                for (slot, der) in certs.iter_mut().zip(chain) {
                    *slot = Asn1Cert(der);
                }
                let msg = HandshakeMessage12::Certificate(Certificate12 {
                    certs: List::items(&certs[..n]),
                });
                c.io.send_handshake_patched(&msg, Some(&mut transcript), &mut also)?;
            }
            let public = key.public()?;
            let cke = HandshakeMessage12::ClientKeyExchange(ClientKeyExchange {
                public: public.as_ref(),
            });
            c.io.send_handshake_patched(&cke, Some(&mut transcript), &mut also)?;
            // RFC 7627 §4: the session hash is the transcript through ClientKeyExchange.
            let master = pms.into_extended_master(suite.hash, transcript.current().as_ref())?;
            if let Some((scheme, ck)) = cert {
                // RFC 5246 §7.4.8: the signature over every handshake message so far, hashed
                // with the scheme's hash.
                let digest = match alt {
                    Some(t) if scheme_hash(scheme) == Some(t.alg()) => t.current(),
                    _ => transcript.current(),
                };
                let mut sig = [0u8; MAX_SIGNATURE_LEN];
                let n = ck.key.sign_digest(scheme, digest.as_ref(), &mut c.rng, &mut sig)?;
                let cv = HandshakeMessage12::CertificateVerify(CertificateVerify {
                    scheme,
                    signature: &sig[..n],
                });
                c.io.send_handshake(&cv, Some(&mut transcript))?;
                c.params.client_auth = Some(scheme);
            }
            let randoms = (&client_random, &server_random);
            let keys = PendingKeys::derive(&suite, &master, randoms, resume.etm)?;
            c.io.send_plain(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
            c.io.write_key = Some(Protection::V12(keys.protection(Sender::Client)?));
            let verify_data = master.verify_data(Sender::Client, transcript.current().as_ref());
            let fin = HandshakeMessage12::Finished(&verify_data);
            c.io.send_handshake(&fin, Some(&mut transcript))?;
            Ok(ClientState::ExpectCcs12(Finished12 {
                transcript,
                master,
                client_random,
                server_random,
                keys,
                write_pending: false,
                suite,
                resume,
                ticket: None,
            }))
        }
        _ => Err(PeerMisbehaved::UnexpectedMessage.into()),
    }
}

/// The server's ChangeCipherSpec: its records are protected from here on.
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn client_change_cipher_spec(
    c: &mut Core<'_, '_>,
    state: ClientState,
) -> Result<ClientState, Error> {
    let ClientState::ExpectCcs12(f) = state else {
        return Err(PeerMisbehaved::UnexpectedMessage.into());
    };
    // RFC 5077 §3.3: a server that said it sends a NewSessionTicket sends it first.
    if f.resume.ticket_expected {
        return Err(PeerMisbehaved::UnexpectedMessage.into());
    }
    c.io.read_key = Some(Protection::V12(f.keys.protection(Sender::Server)?));
    c.key_changed = true;
    Ok(ClientState::ExpectFinished12(f))
}

/// Hands one TLS 1.2 message to the state expecting it; `ticket` is the end of the
/// handshake buffer, where a NewSessionTicket's ticket waits for the server's Finished.
pub(crate) fn handle(
    c: &mut Core<'_, '_>,
    config: &ClientConfig<'_>,
    state: ClientState,
    raw: &[u8],
    msg: &HandshakeMessage12<'_>,
    ticket: &[u8],
) -> Result<ClientState, Error> {
    match (state, msg) {
        (ClientState::ExpectServerHelloDone12(kx), msg) => {
            client_server_hello_done(c, config, kx, raw, msg)
        }
        // RFC 5077 §3.3: after our Finished (or the resuming ServerHello), when the
        // ServerHello said so. An empty ticket is none after all.
        (ClientState::ExpectCcs12(mut f), HandshakeMessage12::NewSessionTicket(nst))
            if f.resume.ticket_expected =>
        {
            f.transcript.update(raw);
            f.resume.ticket_expected = false;
            if !nst.ticket.is_empty() {
                f.ticket = Some(nst.lifetime_hint);
            }
            Ok(ClientState::ExpectCcs12(f))
        }
        (ClientState::ExpectFinished12(mut f), HandshakeMessage12::Finished(fin)) => {
            f.master.check_finished(Sender::Server, f.transcript.current().as_ref(), fin)?;
            if f.write_pending {
                // Resuming: our ChangeCipherSpec and Finished follow the server's.
                f.transcript.update(raw);
                c.io.send_plain(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
                c.io.write_key = Some(Protection::V12(f.keys.protection(Sender::Client)?));
                let verify_data =
                    f.master.verify_data(Sender::Client, f.transcript.current().as_ref());
                c.io.send_handshake(&HandshakeMessage12::Finished(&verify_data), None)?;
            }
            keep_session(c, config, &f, ticket);
            c.negotiated = Some(c.params);
            Ok(ClientState::Traffic12(Traffic12 {
                master: f.master,
                client_random: f.client_random,
                server_random: f.server_random,
            }))
        }
        // RFC 5746 §4.2: a client that does not renegotiate may refuse; we end the
        // connection with no_renegotiation.
        (ClientState::Traffic12(_), HandshakeMessage12::HelloRequest) => {
            Err(PeerIncompatible::Renegotiation.into())
        }
        _ => Err(PeerMisbehaved::UnexpectedMessage.into()),
    }
}

/// Puts the session of a finished handshake into the store, if there is one: with the
/// ticket just received, else by the server's session id (a session resumed by a ticket
/// the server did not renew is kept only by its id, when it has one).
fn keep_session(c: &mut Core<'_, '_>, config: &ClientConfig<'_>, f: &Finished12, ticket: &[u8]) {
    let Some(store) = config.ticket_store() else { return };
    let by_ticket = f.ticket.is_some() && !ticket.is_empty();
    let id = f.resume.session_id;
    let bytes: &[u8] = match (by_ticket, &id) {
        (true, _) => ticket,
        (false, Some(id)) => id.as_slice(),
        (false, None) => return,
    };
    let lifetime = f.ticket.filter(|&l| by_ticket && l > 0).unwrap_or(SESSION_LIFETIME12);
    let resume = Resume12 { session_id: id, by_ticket, ems: true, etm: f.resume.etm };
    let session = Session::new12(
        f.suite.suite,
        c.params.scheme,
        f.master.as_bytes(),
        resume,
        (lifetime, config.clock.now().as_secs()),
        c.peer_cert_sha256,
    );
    let name = core::str::from_utf8(&c.sni[..c.sni_len]).unwrap_or("");
    if let Some(t) = Ticket::new(session, bytes)
        && let Err(e) = store.put(name, &t)
    {
        c.refused_ticket = Some(e);
    }
}

/// Whether `typ` may come in a TLS 1.2 handshake to a client.
pub(crate) fn is_tls12_message(typ: HandshakeType) -> bool {
    HandshakeMessage12::is_tls12_type(typ)
}
