//! The TLS 1.2 server (RFC 5246 §7.3, the ECDHE suites of RFC 8422 with AEAD records only):
//! the version chosen from the ClientHello, then ServerHello, Certificate, ServerKeyExchange
//! and ServerHelloDone; the client's ClientKeyExchange, ChangeCipherSpec and Finished; our
//! ChangeCipherSpec and Finished.
//!
//! What Halite requires of a TLS 1.2 client: no `TLS_FALLBACK_SCSV` when we speak TLS 1.3
//! (RFC 7507: inappropriate_fallback), the extended master secret (RFC 7627 §5.3; a
//! client without it is refused with handshake_failure,
//! [`PeerIncompatible::NoExtendedMasterSecret`]), an empty `renegotiation_info` if it sends
//! one (RFC 5746 §3.6; answered empty when it sends the extension or the SCSV), the null
//! compression method among those it lists (a list without it is illegal_parameter), a
//! suite of [`ServerConfig::suites12`] that one of our certificates can sign for with a
//! scheme of its `signature_algorithms`, and a group of RFC 8422 (x25519, secp256r1,
//! secp384r1, secp521r1) among our groups (without `supported_groups`, our first).
//! Renegotiation is refused: a ClientHello after the handshake ends the connection with a
//! fatal `no_renegotiation` alert ([`PeerIncompatible::Renegotiation`]) — RFC 5746 §4.4
//! lets a server refuse, and a fatal alert leaves no half-renegotiated state to reason
//! about. With [`ServerConfig::tickets`], a client that sends `session_ticket` gets a
//! NewSessionTicket (RFC 5077) sealing the session's master secret, suite and scheme under
//! the same key as TLS 1.3 tickets (each version's tickets name its own suites, so neither
//! resumes in the other), and resumes with it in an abbreviated handshake. With
//! [`ServerConfig::session_cache`] and no ticket issued, the ServerHello of a full handshake
//! carries a fresh 32-byte session id under which the session is cached once the client's
//! Finished is checked, and a ClientHello offering it resumes while the cache keeps it
//! (RFC 5246 §7.4.1.2; a valid ticket is looked at first, RFC 5077 §3.4).
//!
//! Client certificates (RFC 5246 §7.4.4, §7.4.6, §7.4.8): with [`ServerConfig::client_auth`]
//! a full handshake sends a CertificateRequest after the ServerKeyExchange (certificate types
//! `ecdsa_sign` and `rsa_sign`, no certificate authorities) and expects the client's
//! Certificate, checked as in TLS 1.3 (to `ClientAuth.roots`, or by the verifier's
//! [`CertVerifier::verify_chain`]), then its ClientKeyExchange and, when it sent a
//! certificate, its CertificateVerify. That signs every handshake message so far, which
//! this server does not keep (no allocator): while a CertificateVerify may come it runs the
//! transcript under SHA-256, SHA-384 and SHA-512 (the last two sharing one block buffer, so
//! the three take less room than two transcripts), the request offers the schemes of
//! [`TLS12_DIGEST_SCHEMES`] (ECDSA with SHA-256 or SHA-384, RSA-PSS and PKCS#1 v1.5 with any
//! of the three), and the signature is checked from the hash of the scheme
//! ([`verify_signature_digest12`]); any other scheme is
//! [`PeerMisbehaved::SelectedUnofferedParameter`] (illegal_parameter), a bad signature
//! [`PeerMisbehaved::BadSignature`] (decrypt_error). An empty Certificate is taken when client
//! authentication is optional, else refused ([`CertificateError::NoCertificate`], with
//! handshake_failure: TLS 1.2 has no certificate_required). The client's certificate stays in
//! the handshake buffer from its Certificate to its CertificateVerify (and after, for
//! [`crate::Connection::peer_identity`]). A resumed session asks for no certificate: it keeps
//! the client identity its ticket carries, as in TLS 1.3.
//!
//! [`CertVerifier::verify_chain`]: crate::verify::CertVerifier::verify_chain
//! [`TLS12_DIGEST_SCHEMES`]: crate::verify::TLS12_DIGEST_SCHEMES
//! [`verify_signature_digest12`]: crate::verify::verify_signature_digest12
//! [`ServerConfig::client_auth`]: crate::ServerConfig::client_auth
//! [`CertificateError::NoCertificate`]: crate::error::CertificateError::NoCertificate
//!
//! [`ServerConfig::suites12`]: crate::ServerConfig::suites12
//! [`ServerConfig::tickets`]: crate::ServerConfig::tickets
//! [`ServerConfig::session_cache`]: crate::ServerConfig::session_cache

use core_hash::{Sha256, Sha384And512};
use zeroize::Zeroize;

use crate::client::tls12::scheme_hash;
use crate::error::{
    BufferKind, CertificateError, Error, PeerIncompatible, PeerMisbehaved, SchemeSet,
};
use crate::key_schedule::tls12::{MasterSecret, PreMasterSecret, Sender};
use crate::key_schedule::{Digest, Transcript};
use crate::kx::KeyShare;
use crate::msgs::tls12::{
    Asn1Cert, Certificate12, CertificateRequest12, ECDSA_SIGN, EcPointFormats, EcdheParams,
    RSA_SIGN, RenegotiationInfo, ServerKeyExchange, mark_downgrade,
};
use crate::msgs::{
    CertificateVerify, ClientExtensions, ClientHello, Codec, ContentType, HandshakeMessage12,
    InvalidMessage, List, MaxFragmentLength, NamedGroup, ProtocolName, ProtocolVersion,
    ServerHello, ServerHelloExtensions, SignatureScheme,
};
use crate::record::MAX_PLAINTEXT_LEN;
use crate::record::tls12::{PendingKeys, RecordProtection12};
use crate::schedule::SuiteHash;
use crate::sign::{CertifiedKey, MAX_SIGNATURE_LEN, choose_scheme_tls12};
use crate::suites::tls12::{Auth, Suite12};
use crate::verify;

use crate::config::{MAX_CHAIN, MAX_TICKET_LIFETIME, ServerConfig};
use crate::conn::Negotiated;
use crate::engine::io::Protection;
use crate::engine::{Core, random};
use crate::key_schedule::tls12::MASTER_SECRET_LEN;
use crate::msgs::tls12::{NewSessionTicket12, SessionTicketExt};
use crate::server::ServerState;
use crate::server::psk::client_identity_holds;
use crate::suites::tls12 as suites12;
use crate::ticket::{CachedSession, ClientIdentity, TicketState};

/// After our flight: the client's ClientKeyExchange, answered with our ephemeral `key`.
pub(crate) struct Kx12 {
    suite: Suite12,
    hashes: Hashes12,
    client_random: [u8; 32],
    server_random: [u8; 32],
    key: KeyShare,
    /// Whether a NewSessionTicket goes before our Finished (RFC 5077 §3.3).
    send_ticket: bool,
    /// The session id our ServerHello gave, under which the session is cached once the
    /// client's Finished is checked (`None`: not cached).
    cache_id: Option<[u8; 32]>,
    /// The [`verify::anchor_digest`] (or verifier's digest) of the client's checked chain,
    /// once its Certificate named one: a CertificateVerify follows the ClientKeyExchange.
    /// With the length of its Certificate message, kept in the handshake buffer.
    client_cert: Option<([u8; 32], usize)>,
    /// Whether CBC records are encrypt-then-MAC (RFC 7366).
    etm: bool,
}

/// After the ClientKeyExchange of a client that sent a certificate: its CertificateVerify
/// (RFC 5246 §7.4.8), over the transcript in `finished` (through the ClientKeyExchange),
/// then what [`Finished12`] expects.
pub(crate) struct Verify12 {
    finished: Finished12,
    /// The same messages under the other hashes (see [`Hashes12`]): digests, not running
    /// transcripts, as nothing more is signed.
    others: OtherDigests,
    /// What the client's chain was trusted through.
    anchor: [u8; 32],
    /// The length of the client's Certificate message, kept in the handshake buffer.
    cert_len: usize,
}

/// The transcript of a full handshake until the ClientKeyExchange.
enum Hashes12 {
    /// Under the suite's hash only: no CertificateVerify comes.
    Suite(Transcript),
    /// With client authentication, until the client's Certificate says whether a
    /// CertificateVerify comes: under every hash of [`verify::TLS12_DIGEST_SCHEMES`], the
    /// suite's among them (SHA-384 and SHA-512 share one block buffer: 400 bytes for the
    /// three, less than two [`Transcript`]s).
    All(Sha256, Sha384And512),
}

/// The digests of a transcript under the hashes other than the suite's.
struct OtherDigests {
    /// Under SHA-384 for a SHA-256 suite, SHA-256 for a SHA-384 one.
    other: Digest,
    sha512: [u8; 64],
}

impl Hashes12 {
    /// A transcript of `raw` (the ClientHello) under the suite's `hash`, or under every hash
    /// when a CertificateVerify may come.
    fn new(hash: SuiteHash, client_auth: bool, raw: &[u8]) -> Self {
        let mut h = if client_auth {
            Self::All(Sha256::new(), Sha384And512::new())
        } else {
            Self::Suite(Transcript::for_suite(hash))
        };
        h.update(raw);
        h
    }

    fn update(&mut self, msg: &[u8]) {
        match self {
            Self::Suite(t) => t.update(msg),
            Self::All(a, b) => {
                a.update(msg);
                b.update(msg);
            }
        }
    }

    /// The running transcript under the suite's `hash`, and the digests under the others
    /// when they ran.
    fn split(self, hash: SuiteHash) -> (Transcript, Option<OtherDigests>) {
        let (s256, pair) = match self {
            Self::Suite(t) => return (t, None),
            Self::All(a, b) => (a, b),
        };
        let (s384, s512) = pair.split();
        let (transcript, other) = match hash {
            SuiteHash::Sha256 => (Transcript::Sha256(s256), Digest::from_slice(&s384.finalize())),
            SuiteHash::Sha384 => (Transcript::Sha384(s384), Digest::from_slice(&s256.finalize())),
        };
        (transcript, other.map(|other| OtherDigests { other, sha512: s512.finalize() }))
    }
}

/// After the ClientKeyExchange: the client's ChangeCipherSpec (which puts its write keys of
/// `keys` in force) and Finished, then ours under the server's.
pub(crate) struct Finished12 {
    transcript: Transcript,
    master: MasterSecret,
    client_random: [u8; 32],
    server_random: [u8; 32],
    /// Both directions' keys, each keyed when it comes into force (keyed protections are
    /// ~2 KiB each, so the state keeps only the key block).
    keys: PendingKeys,
    /// Whether our ChangeCipherSpec and Finished are still to come: not in a resumption,
    /// where ours came first.
    write_pending: bool,
    /// Whether a NewSessionTicket goes before our Finished.
    send_ticket: bool,
    /// As [`Kx12::cache_id`].
    cache_id: Option<[u8; 32]>,
}

/// Traffic: what exporters need.
pub(crate) struct Traffic12 {
    pub(crate) master: MasterSecret,
    pub(crate) client_random: [u8; 32],
    pub(crate) server_random: [u8; 32],
}

/// Whether `scheme` is one a certificate for `auth` suites signs with (RFC 8422 §5.1.1:
/// Ed25519 goes with the ECDSA suites).
fn scheme_fits(auth: Auth, scheme: SignatureScheme) -> bool {
    let ecdsa = matches!(
        scheme,
        SignatureScheme::ED25519
            | SignatureScheme::ECDSA_SECP256R1_SHA256
            | SignatureScheme::ECDSA_SECP384R1_SHA384
            | SignatureScheme::ECDSA_SECP521R1_SHA512
    );
    ecdsa == (auth == Auth::Ecdsa)
}

/// The curve of an ECDSA key, by the TLS 1.3 scheme it signs with (which names the curve);
/// `None` for other keys.
fn ecdsa_curve(key: &dyn crate::provider::Signer) -> Option<NamedGroup> {
    key.schemes().iter().find_map(|s| match *s {
        SignatureScheme::ECDSA_SECP256R1_SHA256 => Some(NamedGroup::SECP256R1),
        SignatureScheme::ECDSA_SECP384R1_SHA384 => Some(NamedGroup::SECP384R1),
        SignatureScheme::ECDSA_SECP521R1_SHA512 => Some(NamedGroup::SECP521R1),
        _ => None,
    })
}

/// The certificate to present and its TLS 1.2 scheme, among those whose key signs with a
/// scheme `offered` accepts: one valid for the client's SNI name whose ECDSA curve (if it
/// has one) is among the client's `supported_groups` (RFC 8422 §5.1; OpenSSL's client
/// refuses a certificate on another curve), else one on such a curve, else one valid for
/// the name, else the first (rustls's client, say, does not check the curve).
fn choose_certificate12<'a>(
    certs: &'a [CertifiedKey<'a>],
    x: &ClientExtensions<'_>,
    offered: impl Fn(SignatureScheme) -> bool + Copy,
) -> Option<(&'a CertifiedKey<'a>, SignatureScheme)> {
    let groups = x.supported_groups;
    let curve_ok = move |c: &CertifiedKey<'_>| {
        ecdsa_curve(c.key).is_none_or(|g| groups.is_none_or(|l| l.contains(&g)))
    };
    let name = x.server_name.and_then(|n| core::str::from_utf8(n).ok());
    let named =
        move |c: &CertifiedKey<'_>| name.is_some_and(|n| verify::cert_matches_name(c.chain[0], n));
    let usable =
        || certs.iter().filter_map(move |c| Some((c, choose_scheme_tls12(c.key, offered)?)));
    usable()
        .find(|(c, _)| named(c) && curve_ok(c))
        .or_else(|| usable().find(|(c, _)| curve_ok(c)))
        .or_else(|| usable().find(|(c, _)| named(c)))
        .or_else(|| usable().next())
}

/// Our most preferred TLS 1.2 suite the client offers that one of our certificates can sign
/// for, with that certificate and its scheme. No suite in common (counting only those our
/// keys can sign for) is [`PeerIncompatible::NoCommonSuite`]; suites in common but no
/// certificate that signs with a
/// scheme the client takes, [`PeerIncompatible::NoSchemeInCommon`] (a client without
/// `signature_algorithms` takes SHA-1 only, RFC 5246 §7.4.1.4.1, which Halite does not sign
/// with).
fn choose_suite<'a>(
    config: &ServerConfig<'a>,
    ch: &ClientHello<'_>,
) -> Result<(Suite12, &'a CertifiedKey<'a>, SignatureScheme), Error> {
    let x = &ch.extensions;
    let theirs = x.signature_algorithms;
    let mut common = false;
    for suite in config.suites12.iter().filter(|s| ch.offers_suite(s.suite)) {
        // A suite counts as common if one of our keys can sign for it at all.
        let signs = |c: &CertifiedKey<'_>| {
            c.key.tls12_schemes().iter().any(|s| scheme_fits(suite.auth, *s))
        };
        common |= config.certs.iter().any(signs);
        let offered = |s| theirs.is_some_and(|l| l.contains(&s)) && scheme_fits(suite.auth, s);
        if let Some((cert, scheme)) = choose_certificate12(config.certs, x, offered) {
            return Ok((*suite, cert, scheme));
        }
    }
    if !common {
        return Err(PeerIncompatible::NoCommonSuite.into());
    }
    let ours =
        SchemeSet::new(config.certs.iter().flat_map(|c| c.key.tls12_schemes().iter().copied()));
    let theirs = SchemeSet::new(theirs.iter().flat_map(List::iter));
    Err(PeerIncompatible::NoSchemeInCommon { ours, theirs }.into())
}

/// Our most preferred ECDHE group (RFC 8422 §5.1.1: no hybrids in TLS 1.2) among the
/// client's `supported_groups`, or our first without the extension.
fn choose_group(config: &ServerConfig<'_>, x: &ClientExtensions<'_>) -> Result<NamedGroup, Error> {
    let ecdhe =
        [NamedGroup::X25519, NamedGroup::SECP256R1, NamedGroup::SECP384R1, NamedGroup::SECP521R1];
    let mut ours = config.groups.iter().copied().filter(|g| ecdhe.contains(g));
    match x.supported_groups {
        Some(l) => ours.find(|g| l.contains(g)),
        None => ours.next(),
    }
    .ok_or_else(|| PeerIncompatible::NoCommonGroup.into())
}

/// The record limits of a TLS 1.2 connection (RFC 8449 §4, RFC 6066 §4): the client's
/// `record_size_limit` taken (and ours, at most 2^14 in TLS 1.2, answered), or else its
/// `max_fragment_length` echoed, which binds our unprotected records too.
fn record_limits(
    c: &mut Core<'_, '_>,
    config: &ServerConfig<'_>,
    x: &ClientExtensions<'_>,
) -> Result<(Option<u16>, Option<MaxFragmentLength>), Error> {
    if let Some(limit) = x.record_size_limit {
        if limit < 64 {
            return Err(InvalidMessage::IllegalValue.into());
        }
        let ours = config.record_size_limit.unwrap_or(u16::MAX).min(MAX_PLAINTEXT_LEN as u16);
        // The TLS 1.3 reading (the limit less a type byte) is one byte short of TLS 1.2's,
        // and safe with both.
        c.io.send_limit = (usize::from(limit) - 1).min(MAX_PLAINTEXT_LEN);
        c.io.recv_limit = usize::from(ours);
        return Ok((Some(ours), None));
    }
    if let Some(m) = x.max_fragment_length {
        let len = m.bytes().ok_or(InvalidMessage::IllegalValue)?;
        c.io.send_limit = len;
        c.io.recv_limit = len;
        return Ok((None, Some(m)));
    }
    Ok((None, None))
}

/// A ClientHello for which TLS 1.2 was chosen: the checks, the choices, and our flight
/// through ServerHelloDone.
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn server_client_hello<'a>(
    c: &mut Core<'a, '_>,
    config: &ServerConfig<'a>,
    mut random: [u8; 32],
    raw: &[u8],
) -> Result<ServerState, Error> {
    // The same bytes again, with the TLS 1.2 extensions read strictly.
    let HandshakeMessage12::ClientHello(ch12) = HandshakeMessage12::decode(raw)? else {
        return Err(PeerMisbehaved::UnexpectedMessage.into());
    };
    let (ch, x12) = (&ch12.hello, &ch12.tls12);
    let x = &ch.extensions;
    // RFC 7507 §3: a fallback retry to a server that speaks TLS 1.3 means the first
    // attempt was interfered with.
    if ch.has_fallback_scsv() && config.accepts(ProtocolVersion::TLSV1_3) {
        return Err(PeerMisbehaved::InappropriateFallback.into());
    }
    if !x12.extended_master_secret {
        return Err(PeerIncompatible::NoExtendedMasterSecret.into());
    }
    if let Some(r) = x12.renegotiation_info {
        r.check_initial()?;
    }
    let secure_renegotiation =
        x12.renegotiation_info.is_some() || ch.has_empty_renegotiation_info_scsv();
    let formats = x12.ec_point_formats.is_some();
    #[cfg(feature = "cbc")]
    let etm = x12.encrypt_then_mac && !config.cbc_decline_etm;
    #[cfg(not(feature = "cbc"))]
    let etm = x12.encrypt_then_mac;
    // RFC 7366 §3.1: a CBC session keeps its encrypt_then_mac. Ours always take it when
    // offered, so one resumes only when it is offered again (a client that made it without
    // gets a full handshake, with the upgrade; one that drops it cannot resume).
    let keeps_etm = |state: &TicketState| {
        etm || suites12::find(config.suites12, state.suite).is_none_or(|s| !s.is_cbc())
    };
    // RFC 5077 §3.1: a ticket of ours for a suite we still accept resumes its session;
    // §3.4: else the session id is looked up as without a ticket.
    if let Some(state) = resumable(config, ch, x12.session_ticket).filter(keeps_etm) {
        let how = Resumed { point_formats: formats, secure_renegotiation, new_ticket: true, etm };
        return resume(c, config, random, raw, ch, how, &state);
    }
    if let Some(state) = cached(config, ch).filter(keeps_etm) {
        let new_ticket = config.tickets.is_some() && x12.session_ticket.is_some();
        let how = Resumed { point_formats: formats, secure_renegotiation, new_ticket, etm };
        return resume(c, config, random, raw, ch, how, &state);
    }
    let group = choose_group(config, x)?;
    let (suite, certified, scheme) = choose_suite(config, ch)?;
    // RFC 7366 §3: answered for a CBC suite only.
    let etm = etm && suite.is_cbc();
    // RFC 7301 §3.1: a server without protocols ignores the client's offer.
    let alpn = choose_alpn(config, x)?;
    if let Some(name) = x.server_name {
        let n = name.len().min(255);
        c.sni[..n].copy_from_slice(&name[..n]);
        c.sni_len = n;
    }
    let (record_size_limit, max_fragment_length) = record_limits(c, config, x)?;
    if config.accepts(ProtocolVersion::TLSV1_3) {
        mark_downgrade(&mut random, ProtocolVersion::TLSV1_3);
    }
    let key = KeyShare::keygen(group, config.key_exchanges, &mut c.rng)?;
    // With client authentication, the transcript under every hash a CertificateVerify may
    // sign with.
    let mut hashes = Hashes12::new(SuiteHash::new(suite.hash)?, config.client_auth.is_some(), raw);
    // A client that sends the extension takes tickets (RFC 5077 §3.2).
    let send_ticket = config.tickets.is_some() && x12.session_ticket.is_some();
    // RFC 5246 §7.4.1.3: a session id to resume by, when there is a cache and no ticket.
    let cache_id = match config.session_cache {
        Some(_) if !send_ticket => Some(crate::engine::random::<32>(&mut c.rng)?),
        _ => None,
    };
    let sh = HandshakeMessage12::ServerHello(ServerHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random,
        session_id: cache_id.as_ref().map_or(&[][..], |id| &id[..]),
        cipher_suite: suite.suite,
        extensions: ServerHelloExtensions {
            extended_master_secret: true,
            renegotiation_info: secure_renegotiation.then_some(RenegotiationInfo::INITIAL),
            ec_point_formats: x12.ec_point_formats.map(|_| EcPointFormats::UNCOMPRESSED_ONLY),
            alpn: alpn.map(|i| config.alpn[i]),
            server_name_ack: x.server_name.is_some(),
            max_fragment_length,
            record_size_limit,
            session_ticket: send_ticket,
            encrypt_then_mac: etm,
            ..ServerHelloExtensions::default()
        },
    });
    send_flight(c, &sh, &mut hashes)?;
    // RFC 6066 §4: from here every record, the clear ones too, within the fragment length.
    if max_fragment_length.is_some() {
        c.io.plain_limit = c.io.send_limit;
    }
    let mut certs = [Asn1Cert(&[]); MAX_CHAIN];
    let n = certified.chain.len().min(MAX_CHAIN);
    for (slot, der) in certs.iter_mut().zip(certified.chain) {
        *slot = Asn1Cert(der);
    }
    let cert = HandshakeMessage12::Certificate(Certificate12 { certs: List::items(&certs[..n]) });
    send_flight(c, &cert, &mut hashes)?;
    let public = key.public()?;
    let params = EcdheParams { group, public: public.as_ref() };
    let content = params
        .signed_content(&ch.random, &random)
        .map_err(|_| Error::ApiMisuse(crate::error::ApiMisuse::BadConfig))?;
    let mut sig = [0u8; MAX_SIGNATURE_LEN];
    let sig_len = certified.key.sign(scheme, content.as_ref(), &mut c.rng, &mut sig)?;
    let ske = HandshakeMessage12::ServerKeyExchange(ServerKeyExchange {
        params,
        scheme,
        signature: &sig[..sig_len],
    });
    send_flight(c, &ske, &mut hashes)?;
    if config.client_auth.is_some() {
        send_certificate_request(c, &mut hashes)?;
    }
    send_flight(c, &HandshakeMessage12::ServerHelloDone, &mut hashes)?;
    c.params = Negotiated {
        version: ProtocolVersion::TLSV1_2,
        suite: suite.suite,
        group,
        scheme,
        alpn,
        retried: false,
        client_auth: None,
        resumed: false,
        external_psk: false,
    };
    let kx = Kx12 {
        suite,
        hashes,
        client_random: ch.random,
        server_random: random,
        key,
        send_ticket,
        cache_id,
        client_cert: None,
        etm,
    };
    Ok(if config.client_auth.is_some() {
        ServerState::ExpectCertificate12(kx)
    } else {
        ServerState::ExpectClientKeyExchange12(kx)
    })
}

/// Sends one message of our flight, adding it to the transcript.
fn send_flight(
    c: &mut Core<'_, '_>,
    msg: &HandshakeMessage12<'_>,
    hashes: &mut Hashes12,
) -> Result<(), Error> {
    c.io.send_handshake_patched(msg, None, |m| {
        hashes.update(m);
        Ok(())
    })
}

/// Our CertificateRequest (RFC 5246 §7.4.4): ECDSA or RSA certificates, signing with a scheme
/// of [`verify::TLS12_DIGEST_SCHEMES`] (SHA-256, SHA-384 or SHA-512, the transcripts we run),
/// from any authority.
fn send_certificate_request(c: &mut Core<'_, '_>, hashes: &mut Hashes12) -> Result<(), Error> {
    let cr = HandshakeMessage12::CertificateRequest(CertificateRequest12 {
        certificate_types: &[ECDSA_SIGN, RSA_SIGN],
        signature_algorithms: List::items(verify::TLS12_DIGEST_SCHEMES),
        certificate_authorities: List::items(&[]),
    });
    send_flight(c, &cr, hashes)
}

/// The client's Certificate (RFC 5246 §7.4.6): an empty one, when client authentication is
/// optional; else a chain checked to our roots (or by the verifier) for client use, which
/// stays in the handshake buffer for its CertificateVerify.
#[inline(never)] // one frame per message, not one for all (issue 26)
fn server_client_certificate(
    c: &mut Core<'_, '_>,
    config: &ServerConfig<'_>,
    mut kx: Kx12,
    raw: &[u8],
    cert: &Certificate12<'_>,
) -> Result<ServerState, Error> {
    let auth = config.client_auth.ok_or(Error::ApiMisuse(crate::error::ApiMisuse::BadConfig))?;
    let mut chain: [&[u8]; MAX_CHAIN] = [&[]; MAX_CHAIN];
    let mut n = 0;
    for der in &cert.certs {
        if n == MAX_CHAIN {
            return Err(Error::InvalidCertificate(CertificateError::ChainTooLong));
        }
        chain[n] = der.0;
        n += 1;
    }
    if n > 0 {
        let (ee, inter) = (chain[0], &chain[1..n]);
        verify::check_key_usage(ee)?;
        let (peer, now) = (verify::Peer::Client, auth.clock.now());
        let anchor = match auth.verifier {
            Some(v) => v.verify_chain(ee, inter, peer, now)?,
            None => verify::verify_chain(ee, inter, auth.roots, peer, now)?,
        };
        kx.client_cert = Some((anchor, raw.len()));
        c.peer_cert_sha256 = Some(Sha256::digest(ee));
    } else if auth.required {
        return Err(Error::InvalidCertificate(CertificateError::NoCertificate));
    } else if let Hashes12::All(..) = kx.hashes {
        // No CertificateVerify to come: the suite's hash is enough.
        let (transcript, _) = kx.hashes.split(SuiteHash::new(kx.suite.hash)?);
        kx.hashes = Hashes12::Suite(transcript);
    }
    kx.hashes.update(raw);
    Ok(ServerState::ExpectClientKeyExchange12(kx))
}

/// The client's CertificateVerify (RFC 5246 §7.4.8): a scheme we offered, and a signature by
/// the key of the certificate `kept` in the handshake buffer over the transcript through the
/// ClientKeyExchange. The client is authenticated from here.
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn server_certificate_verify(
    c: &mut Core<'_, '_>,
    mut v: Verify12,
    raw: &[u8],
    kept: &[u8],
) -> Result<ServerState, Error> {
    let HandshakeMessage12::CertificateVerify(cv) = HandshakeMessage12::decode(raw)? else {
        return Err(PeerMisbehaved::UnexpectedMessage.into());
    };
    let CertificateVerify { scheme, signature } = cv;
    if !verify::TLS12_DIGEST_SCHEMES.contains(&scheme) {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    }
    // The certificate gave its room to a later message that did not fit beside it.
    let too_small = Error::too_small(BufferKind::Handshake, v.cert_len + raw.len());
    let HandshakeMessage12::Certificate(cert) =
        HandshakeMessage12::decode(kept).map_err(|_| too_small)?
    else {
        return Err(too_small);
    };
    let ee = cert.certs.iter().next().ok_or(too_small)?.0;
    let transcript = &mut v.finished.transcript;
    let suite_digest = transcript.current();
    let digest: &[u8] = match scheme_hash(scheme) {
        Some(h) if h == transcript.alg() => suite_digest.as_ref(),
        Some(_) => v.others.other.as_ref(),
        None => &v.others.sha512,
    };
    verify::verify_signature_digest12(ee, scheme, digest, signature)?;
    transcript.update(raw);
    c.params.client_auth = Some(scheme);
    let end_entity = Sha256::digest(ee);
    c.client_identity = ClientIdentity::Certificate { scheme, end_entity, anchor: v.anchor };
    Ok(ServerState::ExpectCcs12(v.finished))
}

/// The client's ClientKeyExchange: its share with our key gives the premaster secret, the
/// extended master secret (RFC 7627 §4: over the transcript through this message) and both
/// directions' keys; a client that sent a certificate sends its CertificateVerify next.
#[inline(never)] // one frame per message, not one for all (issue 26)
fn server_client_key_exchange(
    mut kx: Kx12,
    raw: &[u8],
    public: &[u8],
) -> Result<ServerState, Error> {
    let shared = kx.key.decapsulate(public)?;
    let pms = PreMasterSecret::new(shared.as_ref())?;
    kx.hashes.update(raw);
    let suite = kx.suite;
    let (transcript, others) = kx.hashes.split(SuiteHash::new(suite.hash)?);
    let master = pms.into_extended_master(suite.hash, transcript.current().as_ref())?;
    let randoms = (&kx.client_random, &kx.server_random);
    let keys = PendingKeys::derive(&suite, &master, randoms, kx.etm)?;
    let finished = Finished12 {
        transcript,
        master,
        client_random: kx.client_random,
        server_random: kx.server_random,
        keys,
        write_pending: true,
        send_ticket: kx.send_ticket,
        cache_id: kx.cache_id,
    };
    Ok(match (kx.client_cert, others) {
        (Some((anchor, cert_len)), Some(others)) => {
            ServerState::ExpectCertificateVerify12(Verify12 { finished, others, anchor, cert_len })
        }
        // A certificate without the transcripts to check it with cannot be: the hashes all
        // run from the ClientHello when a certificate is asked for.
        (Some(_), None) => return Err(Error::ApiMisuse(crate::error::ApiMisuse::BadConfig)),
        (None, _) => ServerState::ExpectCcs12(finished),
    })
}

/// The client's ChangeCipherSpec: its records are protected from here on.
#[inline(never)] // one frame per message, not one for all (issue 26)
pub(crate) fn server_change_cipher_spec(
    c: &mut Core<'_, '_>,
    state: ServerState,
) -> Result<ServerState, Error> {
    let ServerState::ExpectCcs12(f) = state else {
        return Err(PeerMisbehaved::UnexpectedMessage.into());
    };
    c.io.read_key = Some(Protection::V12(f.keys.protection(Sender::Client)?));
    c.key_changed = true;
    Ok(ServerState::ExpectFinished12(f))
}

/// The client's Finished, checked; our ChangeCipherSpec and Finished answer it and the
/// handshake is done.
#[inline(never)] // one frame per message, not one for all (issue 26)
fn server_finished(
    c: &mut Core<'_, '_>,
    config: &ServerConfig<'_>,
    mut f: Finished12,
    raw: &[u8],
    fin: &[u8],
) -> Result<ServerState, Error> {
    f.master.check_finished(Sender::Client, f.transcript.current().as_ref(), fin)?;
    f.transcript.update(raw);
    // A resumption sent our Finished already.
    if f.write_pending {
        if f.send_ticket {
            let now = config.tickets.map_or(0, |t| t.clock.now().as_secs());
            send_ticket(c, config, &f.master, now, &mut f.transcript)?;
        }
        let write = f.keys.protection(Sender::Server)?;
        send_finished(c, &f.master, write, &mut f.transcript)?;
        if let (Some(id), Some(sessions)) = (f.cache_id, config.session_cache) {
            let state = session_state(c, &f.master, sessions.clock.now().as_secs());
            sessions.cache.put(&id, &CachedSession::new(&state, &c.sni[..c.sni_len]));
        }
    }
    c.negotiated = Some(c.params);
    Ok(ServerState::Traffic12(Traffic12 {
        master: f.master,
        client_random: f.client_random,
        server_random: f.server_random,
    }))
}

/// Our ChangeCipherSpec, then our Finished under `write`.
fn send_finished(
    c: &mut Core<'_, '_>,
    master: &MasterSecret,
    write: RecordProtection12,
    transcript: &mut Transcript,
) -> Result<(), Error> {
    c.io.send_plain(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
    c.io.write_key = Some(Protection::V12(write));
    let verify_data = master.verify_data(Sender::Server, transcript.current().as_ref());
    c.io.send_handshake(&HandshakeMessage12::Finished(&verify_data), Some(transcript))
}

/// A NewSessionTicket (RFC 5077 §3.3) sealing the session: its suite, scheme and (extended)
/// master secret, issued `now`, authenticated when the full handshake it comes from ran.
fn send_ticket(
    c: &mut Core<'_, '_>,
    config: &ServerConfig<'_>,
    master: &MasterSecret,
    now: u64,
    transcript: &mut Transcript,
) -> Result<(), Error> {
    let Some(tickets) = config.tickets else { return Ok(()) };
    let state = session_state(c, master, now);
    let nonce: [u8; 12] = random(&mut c.rng)?;
    let sealed = tickets.key.seal(&state, &nonce);
    let nst = HandshakeMessage12::NewSessionTicket(NewSessionTicket12 {
        lifetime_hint: tickets.lifetime.min(MAX_TICKET_LIFETIME),
        ticket: &sealed,
    });
    c.io.send_handshake(&nst, Some(transcript))
}

/// The state of this connection's session, made or resumed at `now`: its suite, scheme and
/// (extended) master secret, authenticated when the full handshake it comes from ran.
fn session_state(c: &Core<'_, '_>, master: &MasterSecret, now: u64) -> TicketState {
    let mut state = TicketState {
        suite: c.params.suite,
        scheme: c.params.scheme,
        issued_at: now,
        authenticated_at: c.authenticated_at.unwrap_or(now),
        client: c.client_identity,
        age_add: 0,
        psk: [0; MASTER_SECRET_LEN],
        psk_len: MASTER_SECRET_LEN,
    };
    state.psk.copy_from_slice(master.as_bytes());
    state
}

/// Whether a session `state` found for `ch` may resume at `now`: issued less than
/// `lifetime` ago and authenticated less than `max_age` ago (each at most seven days), for a
/// TLS 1.2 suite we accept and the client offers, with a master secret and a client
/// identity that still stands. The extended master secret needs no check: every session
/// Halite makes has one, and a client without it is refused before resumption.
fn usable(
    config: &ServerConfig<'_>,
    ch: &ClientHello<'_>,
    state: &TicketState,
    now: u64,
    (lifetime, max_age): (u32, u32),
) -> bool {
    let within = |since: u64, limit: u32| {
        now >= since && now - since < u64::from(limit.min(MAX_TICKET_LIFETIME))
    };
    let suite_ok =
        suites12::find(config.suites12, state.suite).is_some() && ch.offers_suite(state.suite);
    within(state.issued_at, lifetime)
        && within(state.authenticated_at, max_age)
        && suite_ok
        && state.psk_len == MASTER_SECRET_LEN
        && client_identity_holds(config, &state.client)
}

/// The session a client's session id resumes (RFC 5246 §7.4.1.2): one our cache still
/// keeps under that id, made for the same SNI name (RFC 6066 §3), [`usable`] within the
/// cache's lifetime.
fn cached(config: &ServerConfig<'_>, ch: &ClientHello<'_>) -> Option<TicketState> {
    let sessions = config.session_cache?;
    let id: &[u8; 32] = ch.session_id.try_into().ok()?;
    let state = sessions.cache.get(id)?.open(ch.extensions.server_name.unwrap_or(&[]))?;
    let now = sessions.clock.now().as_secs();
    let limits = (sessions.lifetime, sessions.lifetime);
    usable(config, ch, &state, now, limits).then_some(state)
}

/// The session a client's `session_ticket` resumes: one of our tickets, within its lifetime
/// and authentication age, for a TLS 1.2 suite we accept and the client offers (a TLS 1.3
/// ticket names a 1.3 suite, so it never resumes here, nor a 1.2 one in TLS 1.3), from a
/// session whose client identity still stands.
fn resumable(
    config: &ServerConfig<'_>,
    ch: &ClientHello<'_>,
    ticket: Option<SessionTicketExt<'_>>,
) -> Option<TicketState> {
    let tickets = config.tickets?;
    let state = tickets.key.open(ticket?.0)?;
    let now = tickets.clock.now().as_secs();
    let limits = (tickets.lifetime, tickets.max_auth_age);
    usable(config, ch, &state, now, limits).then_some(state)
}

/// What a resumption answers besides the session: the client's `ec_point_formats` and
/// secure renegotiation echoed, and whether the ServerHello announces a fresh ticket.
#[allow(clippy::struct_excessive_bools)] // one per extension the client sent, as on the wire
#[derive(Clone, Copy)]
struct Resumed {
    point_formats: bool,
    secure_renegotiation: bool,
    /// Whether a NewSessionTicket follows the ServerHello (the client took tickets and we
    /// issue them; always when resuming by ticket, RFC 5077 §3.1).
    new_ticket: bool,
    /// Whether the client offered encrypt_then_mac (RFC 7366).
    etm: bool,
}

/// The abbreviated handshake of a resumed session (RFC 5077 §3.1, RFC 5246 §7.3):
/// ServerHello (echoing the client's session id), a fresh ticket if `how` says so, our
/// ChangeCipherSpec and Finished; then the client's.
fn resume(
    c: &mut Core<'_, '_>,
    config: &ServerConfig<'_>,
    mut random: [u8; 32],
    raw: &[u8],
    ch: &ClientHello<'_>,
    how: Resumed,
    state: &TicketState,
) -> Result<ServerState, Error> {
    let Resumed { point_formats, secure_renegotiation, new_ticket, etm } = how;
    let x = &ch.extensions;
    let suite =
        suites12::find(config.suites12, state.suite).ok_or(PeerIncompatible::NoCommonSuite)?;
    let etm = etm && suite.is_cbc();
    let alpn = choose_alpn(config, x)?;
    if let Some(name) = x.server_name {
        let n = name.len().min(255);
        c.sni[..n].copy_from_slice(&name[..n]);
        c.sni_len = n;
    }
    let (record_size_limit, max_fragment_length) = record_limits(c, config, x)?;
    if config.accepts(ProtocolVersion::TLSV1_3) {
        mark_downgrade(&mut random, ProtocolVersion::TLSV1_3);
    }
    let mut transcript = Transcript::new(suite.hash)?;
    transcript.update(raw);
    let sh = HandshakeMessage12::ServerHello(ServerHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random,
        session_id: ch.session_id,
        cipher_suite: suite.suite,
        extensions: ServerHelloExtensions {
            extended_master_secret: true,
            renegotiation_info: secure_renegotiation.then_some(RenegotiationInfo::INITIAL),
            ec_point_formats: point_formats.then_some(EcPointFormats::UNCOMPRESSED_ONLY),
            alpn: alpn.map(|i| config.alpn[i]),
            // RFC 6066 §3: a resumed session acknowledges no server_name.
            server_name_ack: false,
            max_fragment_length,
            record_size_limit,
            session_ticket: new_ticket,
            encrypt_then_mac: etm,
            ..ServerHelloExtensions::default()
        },
    });
    c.io.send_handshake(&sh, Some(&mut transcript))?;
    if max_fragment_length.is_some() {
        c.io.plain_limit = c.io.send_limit;
    }
    let mut bytes = [0u8; MASTER_SECRET_LEN];
    bytes.copy_from_slice(&state.psk[..MASTER_SECRET_LEN]);
    let master = MasterSecret::from_bytes(suite.hash, &bytes)?;
    bytes.zeroize();
    // The session's client identity goes on, as in a TLS 1.3 resumption.
    c.client_identity = state.client;
    let client_auth = match state.client {
        ClientIdentity::Certificate { scheme, end_entity, .. } => {
            c.peer_cert_sha256 = Some(end_entity);
            Some(scheme)
        }
        _ => None,
    };
    c.params = Negotiated {
        version: ProtocolVersion::TLSV1_2,
        suite: suite.suite,
        group: NamedGroup(0),
        scheme: state.scheme,
        alpn,
        retried: false,
        client_auth,
        resumed: true,
        external_psk: false,
    };
    c.authenticated_at = Some(state.authenticated_at);
    if new_ticket {
        let now = config.tickets.map_or(0, |t| t.clock.now().as_secs());
        send_ticket(c, config, &master, now, &mut transcript)?;
    }
    let keys = PendingKeys::derive(&suite, &master, (&ch.random, &random), etm)?;
    send_finished(c, &master, keys.protection(Sender::Server)?, &mut transcript)?;
    Ok(ServerState::ExpectCcs12(Finished12 {
        transcript,
        master,
        client_random: ch.random,
        server_random: random,
        keys,
        write_pending: false,
        send_ticket: false,
        cache_id: None,
    }))
}

/// The ALPN protocol: our most preferred the client offers (RFC 7301 §3.1: a server
/// without protocols ignores the offer; one with no protocol in common refuses).
fn choose_alpn(
    config: &ServerConfig<'_>,
    x: &ClientExtensions<'_>,
) -> Result<Option<usize>, Error> {
    let Some(offered) = x.alpn.filter(|_| !config.alpn.is_empty()) else { return Ok(None) };
    let found = config.alpn.iter().position(|p| offered.contains(&ProtocolName(p)));
    Ok(Some(found.ok_or(PeerIncompatible::NoCommonAlpn)?))
}

/// Hands one TLS 1.2 message to the state expecting it.
pub(crate) fn handle(
    c: &mut Core<'_, '_>,
    config: &ServerConfig<'_>,
    state: ServerState,
    raw: &[u8],
    msg: &HandshakeMessage12<'_>,
) -> Result<ServerState, Error> {
    match (state, msg) {
        (ServerState::ExpectCertificate12(kx), HandshakeMessage12::Certificate(cert)) => {
            server_client_certificate(c, config, kx, raw, cert)
        }
        (
            ServerState::ExpectClientKeyExchange12(kx),
            HandshakeMessage12::ClientKeyExchange(cke),
        ) => server_client_key_exchange(kx, raw, cke.public),
        (ServerState::ExpectFinished12(f), HandshakeMessage12::Finished(fin)) => {
            server_finished(c, config, f, raw, fin)
        }
        // RFC 5746 §4.4: a server that does not renegotiate may refuse; we end the
        // connection with a fatal no_renegotiation.
        (ServerState::Traffic12(_), HandshakeMessage12::ClientHello(_)) => {
            Err(PeerIncompatible::Renegotiation.into())
        }
        _ => Err(PeerMisbehaved::UnexpectedMessage.into()),
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    //! What a test outside the crate cannot send: a ClientHello under the traffic keys, a
    //! wrong Finished.

    use std::vec;
    use std::vec::Vec;

    use core_hash::OsRandom;
    use pki_types::CertificateDer;

    use super::resumable;
    use crate::msgs::{AlertDescription, ClientHello12, ProtocolVersion};
    use crate::sign::{CertifiedKey, SigningKey};
    use crate::{Buffers, ClientConfig, Connection, Error, PeerIncompatible, ServerConfig};

    const CA: &[u8] = include_bytes!("../../tests/data/ca-p256.der");
    const CERT: &[u8] = include_bytes!("../../tests/data/server-p256.der");
    const KEY: &[u8] = include_bytes!("../../tests/data/server-p256.key.der");
    const ONLY12: &[ProtocolVersion] = &[ProtocolVersion::TLSV1_2];

    fn leak<T>(v: T) -> &'static T {
        std::boxed::Box::leak(std::boxed::Box::new(v))
    }

    fn bufs() -> Buffers<'static> {
        Buffers {
            received: Vec::leak(vec![0; 17_000]),
            send: Vec::leak(vec![0; 17_000]),
            handshake: Vec::leak(vec![0; 8_000]),
        }
    }

    fn pair() -> (Connection<'static, 'static>, Connection<'static, 'static>) {
        let ca = leak(CertificateDer::from(CA));
        let roots = leak([webpki::anchor_from_trusted_cert(ca).unwrap()]);
        let client =
            ClientConfig { versions: ONLY12, ..ClientConfig::new(roots, &crate::SystemClock) };
        let key = leak(SigningKey::from_pkcs8_der(KEY).unwrap());
        let certs = leak([CertifiedKey { chain: leak([CERT]), key }]);
        let server = ServerConfig { versions: ONLY12, ..ServerConfig::new(certs) };
        let c = Connection::client(client, "localhost", bufs(), &mut OsRandom).unwrap();
        let s = Connection::server(server, bufs(), &mut OsRandom).unwrap();
        (c, s)
    }

    fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
        let data = from.pending_send().to_vec();
        from.sent(data.len());
        to.receive_space()[..data.len()].copy_from_slice(&data);
        to.received(data.len())
    }

    /// RFC 5746 §4.4: a ClientHello in traffic (a renegotiation) ends the connection with a
    /// fatal no_renegotiation.
    #[test]
    fn renegotiation_is_refused() {
        let (mut c, mut s) = pair();
        for _ in 0..3 {
            pump(&mut c, &mut s).unwrap();
            pump(&mut s, &mut c).unwrap();
        }
        assert!(!s.is_handshaking());
        let hello = crate::msgs::HandshakeMessage12::ClientHello(ClientHello12 {
            hello: crate::msgs::ClientHello {
                legacy_version: ProtocolVersion::TLSV1_2,
                random: [1; 32],
                session_id: &[],
                cipher_suites: crate::msgs::List::items(&[
                    crate::msgs::CipherSuite::ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
                ]),
                extensions: crate::msgs::ClientExtensions::default(),
            },
            tls12: crate::msgs::ClientExtensions12 {
                extended_master_secret: true,
                renegotiation_info: Some(crate::msgs::tls12::RenegotiationInfo(&[0; 12])),
                ..Default::default()
            },
        });
        c.c.io.send_handshake(&hello, None).unwrap();
        let want = Error::PeerIncompatible(PeerIncompatible::Renegotiation);
        assert_eq!(pump(&mut c, &mut s), Err(want));
        assert_eq!(want.alert(), Some(AlertDescription::NO_RENEGOTIATION));
        assert_eq!(
            pump(&mut s, &mut c),
            Err(Error::AlertReceived(AlertDescription::NO_RENEGOTIATION))
        );
    }

    /// A ticket names its version's suite: a TLS 1.3 ticket does not resume a TLS 1.2
    /// session, nor a TLS 1.2 ticket a TLS 1.3 one, even under the same key.
    #[test]
    fn tickets_do_not_cross_versions() {
        use crate::msgs::{CipherSuite, ClientExtensions, ClientHello, List, SignatureScheme};
        use crate::msgs::{OfferedPsks, PskBinder, PskIdentity, PskKeyExchangeMode};
        use crate::ticket::{ClientIdentity, TicketKey, TicketState};
        let key = leak(TicketKey::new(&[3; 32]).unwrap());
        let now = crate::UnixTime::now().as_secs();
        let seal = |suite: CipherSuite| {
            let state = TicketState {
                suite,
                scheme: SignatureScheme::ECDSA_SECP256R1_SHA256,
                issued_at: now,
                authenticated_at: now,
                client: ClientIdentity::Anonymous,
                age_add: 0,
                psk: [5; 48],
                psk_len: if suite.0 >> 8 == 0x13 { 32 } else { 48 },
            };
            std::vec::Vec::leak(key.seal(&state, &[1; 12]).to_vec())
        };
        let (t13, t12) = (
            seal(CipherSuite::TLS13_AES_128_GCM_SHA256),
            seal(CipherSuite::ECDHE_ECDSA_WITH_AES_128_GCM_SHA256),
        );
        let config = ServerConfig {
            versions: &[ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2],
            tickets: Some(crate::ServerTickets::new(key, &crate::SystemClock)),
            ..ServerConfig::new(&[])
        };
        let suites = [
            CipherSuite::TLS13_AES_128_GCM_SHA256,
            CipherSuite::ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        ];
        let hello = |x: ClientExtensions<'static>| ClientHello {
            legacy_version: ProtocolVersion::TLSV1_2,
            random: [0; 32],
            session_id: &[],
            cipher_suites: List::items(leak(suites)),
            extensions: x,
        };
        // TLS 1.2: its own ticket resumes, the 1.3 one does not.
        let ch = hello(ClientExtensions::default());
        let ext = |t: &'static [u8]| Some(crate::msgs::tls12::SessionTicketExt(t));
        assert!(resumable(&config, &ch, ext(t12)).is_some());
        assert!(resumable(&config, &ch, ext(t13)).is_none());
        // TLS 1.3: its own ticket is a PSK, the 1.2 one is not.
        let offer = |t: &'static [u8]| {
            let ids = leak([PskIdentity { identity: t, obfuscated_age: 0 }]);
            let binders = leak([PskBinder(&[0; 32])]);
            ClientExtensions {
                psk_modes: Some(List::items(leak([PskKeyExchangeMode::PSK_DHE_KE]))),
                pre_shared_key: Some(OfferedPsks {
                    identities: List::items(ids),
                    binders: List::items(binders),
                }),
                ..ClientExtensions::default()
            }
        };
        assert!(crate::server::psk::choose_psk(&config, &hello(offer(t13))).is_some());
        assert!(crate::server::psk::choose_psk(&config, &hello(offer(t12))).is_none());
    }

    /// A tampered Finished record is bad_record_mac, and the handshake does not complete.
    #[test]
    fn a_tampered_finished_is_refused() {
        let (mut c, mut s) = pair();
        pump(&mut c, &mut s).unwrap();
        pump(&mut s, &mut c).unwrap();
        // The client's ClientKeyExchange, ChangeCipherSpec and Finished: flip the last byte
        // (in the Finished record's tag).
        let mut data = c.pending_send().to_vec();
        c.sent(data.len());
        let last = data.len() - 1;
        data[last] ^= 1;
        s.receive_space()[..data.len()].copy_from_slice(&data);
        assert_eq!(s.received(data.len()), Err(Error::DecryptFailed));
        assert!(s.negotiated().is_none());
    }
}
