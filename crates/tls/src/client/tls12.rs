//! The TLS 1.2 client after its ClientHello (RFC 5246 §7.3, ECDHE suites of RFC 8422 with
//! AEAD records only): ServerHello, the server's Certificate with its ServerKeyExchange, an
//! optional CertificateRequest, ServerHelloDone; then our ClientKeyExchange,
//! ChangeCipherSpec and Finished, and the server's ChangeCipherSpec and Finished.
//!
//! What Halite requires of a TLS 1.2 server: the extended master secret (RFC 7627; without it
//! [`PeerIncompatible::NoExtendedMasterSecret`]), an empty `renegotiation_info` (RFC 5746;
//! absent is [`PeerIncompatible::NoSecureRenegotiation`]), a ServerKeyExchange in a group we
//! offered, signed with a scheme we offered that fits the suite. Renegotiation is refused: a
//! HelloRequest in traffic ends the connection with a `no_renegotiation` alert
//! ([`PeerIncompatible::Renegotiation`]), the simple choice RFC 5746 §4.2 allows. A
//! CertificateRequest is answered with an empty Certificate (client certificates in TLS 1.2
//! are not implemented yet). No session is cached or resumed.

use core_hash::Sha256;

use crate::error::{CertificateError, Error, PeerIncompatible, PeerMisbehaved};
use crate::key_schedule::Transcript;
use crate::key_schedule::tls12::{MasterSecret, PreMasterSecret, Sender};
use crate::kx::KeyShare;
use crate::msgs::tls12::{Certificate12, ClientKeyExchange, check_downgrade};
use crate::msgs::{
    Codec, ContentType, EncryptedExtensions, HandshakeMessage12, HandshakeType, InvalidMessage,
    List, NamedGroup, ProtocolVersion, ServerHello, SignatureScheme,
};
use crate::record::tls12::RecordProtection12;
use crate::suites::tls12::{self as suites12, Auth, Suite12};
use crate::verify;

use crate::client::ClientState;
use crate::client::hello::{ClientHelloSent, sends_sni};
use crate::client::tls13::client_record_limits;
use crate::config::{ClientConfig, MAX_CHAIN};
use crate::engine::Core;
use crate::engine::io::Protection;

/// What the hellos fixed: the suite, the transcript so far and both randoms.
pub(crate) struct Hello12 {
    suite: Suite12,
    transcript: Transcript,
    client_random: [u8; 32],
    server_random: [u8; 32],
}

/// After the ServerKeyExchange: our ephemeral key and the premaster secret it made.
pub(crate) struct Kx12 {
    hello: Hello12,
    key: KeyShare,
    pms: PreMasterSecret,
    cert_requested: bool,
}

/// After our Finished: the server's ChangeCipherSpec (which switches to `read`) and Finished.
pub(crate) struct Finished12 {
    transcript: Transcript,
    master: MasterSecret,
    client_random: [u8; 32],
    server_random: [u8; 32],
    /// The server's write protection, in force once its ChangeCipherSpec comes.
    read: Option<RecordProtection12>,
}

/// Traffic: what exporters need.
pub(crate) struct Traffic12 {
    pub(crate) master: MasterSecret,
    pub(crate) client_random: [u8; 32],
    pub(crate) server_random: [u8; 32],
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
pub(crate) fn client_server_hello(
    c: &mut Core<'_, '_>,
    config: &ClientConfig<'_>,
    st: ClientHelloSent,
    raw: &[u8],
    sh: &ServerHello<'_>,
) -> Result<ClientState, Error> {
    if sh.legacy_version != ProtocolVersion::TLSV1_2 {
        return Err(PeerIncompatible::NoTls13.into());
    }
    // RFC 8446 §4.1.3: a 1.3-capable client refuses a 1.3 server's downgrade sentinel.
    check_downgrade(&sh.random, config.max_version())?;
    // Our session id is random and names no session: a server that echoes it resumes one
    // we did not offer.
    if !sh.session_id.is_empty() && sh.session_id == st.session_id {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    }
    let suite = suites12::find(config.suites12, sh.cipher_suite)
        .ok_or(PeerMisbehaved::SelectedUnofferedParameter)?;
    let x = &sh.extensions;
    if x.key_share.is_some() || x.selected_identity.is_some() || x.cookie.is_some() {
        return Err(InvalidMessage::UnexpectedExtension.into());
    }
    if x.session_ticket || (x.server_name_ack && !sends_sni(&c.sni[..c.sni_len])) {
        return Err(InvalidMessage::UnexpectedExtension.into());
    }
    if !x.extended_master_secret {
        return Err(PeerIncompatible::NoExtendedMasterSecret.into());
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
    let mut transcript = match suite.hash {
        crate::key_schedule::HashAlg::Sha256 => st.th256,
        crate::key_schedule::HashAlg::Sha384 => st.th384,
    };
    transcript.update(raw);
    c.params.version = ProtocolVersion::TLSV1_2;
    c.params.suite = suite.suite;
    Ok(ClientState::ExpectCertificate12(Hello12 {
        suite,
        transcript,
        client_random: st.random,
        server_random: sh.random,
    }))
}

/// The server's Certificate and ServerKeyExchange, handled together so that the chain can
/// stay in the handshake buffer while the signature is checked: the chain to our roots (or
/// by the configured verifier), the signature over `client_random ‖ server_random ‖ params`
/// with a scheme we offered that fits the suite, a group we offered; then our half of the
/// key exchange.
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
    if n == 0 {
        return Err(Error::InvalidCertificate(CertificateError::NoCertificate));
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
    hello.transcript.update(raw_cert);
    hello.transcript.update(raw_ske);
    c.params.scheme = ske.scheme;
    c.params.group = group;
    c.peer_cert_sha256 = Some(Sha256::digest(ee));
    let key = KeyShare::keygen(group, config.key_exchanges, &mut c.rng)?;
    let shared = key.decapsulate(ske.params.public)?;
    let pms = PreMasterSecret::from(&shared);
    Ok(ClientState::ExpectServerHelloDone12(Kx12 { hello, key, pms, cert_requested: false }))
}

/// ExpectServerHelloDone: a CertificateRequest first (answered with an empty Certificate),
/// then ServerHelloDone, which our flight answers.
pub(crate) fn client_server_hello_done(
    c: &mut Core<'_, '_>,
    mut kx: Kx12,
    raw: &[u8],
    msg: &HandshakeMessage12<'_>,
) -> Result<ClientState, Error> {
    match msg {
        HandshakeMessage12::CertificateRequest(_) if !kx.cert_requested => {
            kx.hello.transcript.update(raw);
            kx.cert_requested = true;
            Ok(ClientState::ExpectServerHelloDone12(kx))
        }
        HandshakeMessage12::ServerHelloDone => {
            let Kx12 { hello, key, pms, cert_requested } = kx;
            let Hello12 { suite, mut transcript, client_random, server_random } = hello;
            transcript.update(raw);
            if cert_requested {
                let empty =
                    HandshakeMessage12::Certificate(Certificate12 { certs: List::items(&[]) });
                c.io.send_handshake(&empty, Some(&mut transcript))?;
            }
            let public = key.public();
            let cke = HandshakeMessage12::ClientKeyExchange(ClientKeyExchange {
                public: public.as_ref(),
            });
            c.io.send_handshake(&cke, Some(&mut transcript))?;
            // RFC 7627 §4: the session hash is the transcript through ClientKeyExchange.
            let master = pms.into_extended_master(suite.hash, transcript.current().as_ref());
            let kb = master.key_block(
                suite.key_len(),
                suite.iv_len(),
                &client_random,
                &server_random,
            )?;
            let write = RecordProtection12::new(suite.aead, kb.client_key(), kb.client_iv())?;
            let read = RecordProtection12::new(suite.aead, kb.server_key(), kb.server_iv())?;
            c.io.send_plain(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
            c.io.write_key = Some(Protection::V12(write));
            let verify_data = master.verify_data(Sender::Client, transcript.current().as_ref());
            let fin = HandshakeMessage12::Finished(&verify_data);
            c.io.send_handshake(&fin, Some(&mut transcript))?;
            Ok(ClientState::ExpectCcs12(Finished12 {
                transcript,
                master,
                client_random,
                server_random,
                read: Some(read),
            }))
        }
        _ => Err(PeerMisbehaved::UnexpectedMessage.into()),
    }
}

/// The server's ChangeCipherSpec: its records are protected from here on.
pub(crate) fn client_change_cipher_spec(
    c: &mut Core<'_, '_>,
    state: ClientState,
) -> Result<ClientState, Error> {
    let ClientState::ExpectCcs12(mut f) = state else {
        return Err(PeerMisbehaved::UnexpectedMessage.into());
    };
    let read = f.read.take().ok_or(PeerMisbehaved::UnexpectedMessage)?;
    c.io.read_key = Some(Protection::V12(read));
    c.key_changed = true;
    Ok(ClientState::ExpectFinished12(f))
}

/// Hands one TLS 1.2 message to the state expecting it.
pub(crate) fn handle(
    c: &mut Core<'_, '_>,
    state: ClientState,
    raw: &[u8],
    msg: &HandshakeMessage12<'_>,
) -> Result<ClientState, Error> {
    match (state, msg) {
        (ClientState::ExpectServerHelloDone12(kx), msg) => {
            client_server_hello_done(c, kx, raw, msg)
        }
        (ClientState::ExpectFinished12(f), HandshakeMessage12::Finished(fin)) => {
            f.master.check_finished(Sender::Server, f.transcript.current().as_ref(), fin)?;
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

/// Whether `typ` may come in a TLS 1.2 handshake to a client.
pub(crate) fn is_tls12_message(typ: HandshakeType) -> bool {
    HandshakeMessage12::is_tls12_type(typ)
}
