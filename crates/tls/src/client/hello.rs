//! The client's ClientHello: building it (with the PSK offer and its binder), the first and
//! the one after a HelloRetryRequest, and the checks every ServerHello gets.

use crate::error::{Error, PeerIncompatible, PeerMisbehaved};
use crate::key_schedule::{EarlySecret, HashAlg, Transcript, finished_verify_data};
use crate::kx::KeyShare;
use crate::msgs::handshake::{OwnClientHello, Typed};
use crate::msgs::tls12::{EcPointFormats, RenegotiationInfo};
use crate::msgs::{
    CertificateType, CipherSuite, ClientExtensions, ClientHello, KeyShareEntry, List, ProtocolName,
    ProtocolVersion, ServerHello, SignatureScheme,
};
use crate::msgs::{ClientExtensions12, ClientHello12, HandshakeMessage12};
use crate::msgs::{OfferedPsks, PskBinder, PskIdentity, PskKeyExchangeMode};
#[cfg(feature = "tickets")]
use crate::suites;
use crate::suites::Suite;
use crate::ticket::{Session, SessionId};

use crate::config::ClientConfig;
use crate::config::MAX_LIST;
use crate::engine::Core;
use crate::engine::handshake::supported_schemes;
use core_hash::Sha256;
#[cfg(feature = "sha384")]
use core_hash::Sha384;

pub(crate) struct ClientHelloSent {
    /// Our key share; `None` when we offer TLS 1.2 only (the key comes with the
    /// ServerKeyExchange then).
    pub(crate) key: Option<KeyShare>,
    pub(crate) random: [u8; 32],
    pub(crate) session_id: SessionId,
    /// The ClientHello under both hashes until the ServerHello picks one (kept as bare
    /// hashes, without the [`Transcript`] tag: SHA-256's state is half of SHA-384's); SHA-384
    /// only if [`ClientConfig::needs_sha384`](crate::ClientConfig) says so, and only built
    /// with the `sha384` feature.
    pub(crate) th256: Sha256,
    #[cfg(feature = "sha384")]
    pub(crate) th384: Option<Sha384>,
    /// The PSK and TLS 1.2 session offered, if any.
    pub(crate) offer: Resumption,
}

/// What a ClientHello offers to resume. The store gives one session, a TLS 1.3 ticket or a
/// TLS 1.2 session, so the two share their room.
pub(crate) enum Resumption {
    None,
    /// A TLS 1.3 PSK.
    Psk(Offered),
    /// A TLS 1.2 session, by its id or its ticket (kept at the end of the handshake buffer
    /// until the ServerHello), with the external PSK offered for TLS 1.3 beside it or not.
    #[cfg(feature = "tickets")]
    Tls12 {
        session: Session,
        external_psk: bool,
    },
}

impl Resumption {
    /// The TLS 1.3 PSK offered.
    pub(crate) fn psk(&self) -> Option<&Offered> {
        match self {
            Self::Psk(p) => Some(p),
            #[cfg(feature = "tickets")]
            Self::Tls12 { external_psk: true, .. } => Some(&Offered::External),
            #[cfg(feature = "tickets")]
            Self::Tls12 { .. } => None,
            Self::None => None,
        }
    }

    /// The TLS 1.3 PSK offered, to keep after a HelloRetryRequest.
    pub(crate) fn into_psk(self) -> Option<Offered> {
        match self {
            Self::Psk(p) => Some(p),
            #[cfg(feature = "tickets")]
            Self::Tls12 { external_psk: true, .. } => Some(Offered::External),
            #[cfg(feature = "tickets")]
            Self::Tls12 { .. } => None,
            Self::None => None,
        }
    }

    /// The TLS 1.2 session offered.
    pub(crate) fn tls12(&self) -> Option<&Session> {
        match self {
            #[cfg(feature = "tickets")]
            Self::Tls12 { session, .. } => Some(session),
            Self::None | Self::Psk(_) => None,
        }
    }
}

/// The PSK a client offers: a ticket for resumption, or the configured external PSK.
pub(crate) enum Offered {
    /// The ticket's session; the ticket itself is kept at the end of the handshake buffer
    /// until the ServerHello.
    #[cfg(feature = "tickets")]
    Ticket(Session),
    External,
}

impl Offered {
    /// The hash the PSK is bound to.
    pub(crate) fn hash(&self, config: &ClientConfig<'_>) -> Option<HashAlg> {
        match self {
            #[cfg(feature = "tickets")]
            Self::Ticket(t) => ticket_hash(t),
            Self::External => config.external_psk.map(|p| p.hash),
        }
    }

    /// The key.
    pub(crate) fn key<'k>(&'k self, config: &ClientConfig<'k>) -> &'k [u8] {
        match self {
            #[cfg(feature = "tickets")]
            Self::Ticket(t) => t.psk(),
            Self::External => config.external_psk.map_or(&[], |p| p.key),
        }
    }
}

/// After a HelloRetryRequest and the second ClientHello: the suite is fixed and the
/// transcript holds `message_hash(ClientHello1)`, the HRR and ClientHello2.
pub(crate) struct RetrySent {
    pub(crate) key: KeyShare,
    /// The Diffie–Hellman group of a hybrid `key` offered as a share of its own (after a
    /// cookie-only retry, as in the first ClientHello), which the server may answer in.
    pub(crate) classical: Option<crate::msgs::NamedGroup>,
    pub(crate) session_id: SessionId,
    pub(crate) suite: Suite,
    pub(crate) transcript: Transcript,
    pub(crate) psk: Option<Offered>,
}

/// Queues a ClientHello (the first, or the second after a HelloRetryRequest with `key` in the
/// group it asked for and its `cookie`), adding it to `transcript` if given. The first may carry a
/// hybrid key's Diffie–Hellman part as a second share ([`offered_classical_part`]); with
/// `one_share` (the second after a retry that named a group) it carries only `key`'s share
/// (RFC 8446 §4.1.2).
// The configuration joined the arguments when the roles split; each is a different piece.
#[allow(clippy::too_many_arguments)]
pub(crate) fn send_client_hello<'a>(
    c: &mut Core<'a, '_>,
    config: &ClientConfig<'a>,
    random: &[u8; 32],
    session_id: &[u8],
    key: Option<&KeyShare>,
    cookie: Option<&[u8]>,
    one_share: bool,
    transcript: Option<&mut Transcript>,
    psk: Option<(&Offered, &[u8], Transcript)>,
    ticket12: Option<&[u8]>,
) -> Result<(), Error> {
    // A PSK offer: the ticket or the external identity, and a placeholder binder filled in
    // below.
    let hash_len = psk.as_ref().map_or(0, |(_, _, t)| t.alg().output_len());
    let zero_binder = [0u8; 48];
    let identity = psk.as_ref().map(|&(p, ticket, _)| psk_identity(config, p, ticket));
    let identities = identity.as_slice();
    let binders = [PskBinder(&zero_binder[..hash_len])];
    let tls13 = config.offers(ProtocolVersion::TLSV1_3);
    // Without the `tls12` feature a constant, so the TLS 1.2 hello is not built in.
    let tls12 = cfg!(feature = "tls12") && config.offers(ProtocolVersion::TLSV1_2);
    // The TLS 1.3 suites first, then the TLS 1.2 ones.
    let mut suites_buf = [CipherSuite(0); 2 * MAX_LIST];
    let mut n_suites = 0;
    let s13 = config.suites.iter().map(|s| s.suite).filter(|_| tls13);
    #[cfg(feature = "tls12")]
    let s12 = config.suites12.iter().map(|s| s.suite).filter(|_| tls12);
    #[cfg(not(feature = "tls12"))]
    let s12 = core::iter::empty();
    for (slot, s) in suites_buf.iter_mut().zip(s13.chain(s12)) {
        *slot = s;
        n_suites += 1;
    }
    let mut alpn_buf = [ProtocolName(&[]); MAX_LIST];
    for (slot, p) in alpn_buf.iter_mut().zip(config.alpn) {
        *slot = ProtocolName(p);
    }
    let mut schemes = [SignatureScheme(0); MAX_LIST];
    let mut all_schemes = [SignatureScheme(0); 2 * MAX_LIST];
    let mut n_schemes = 0;
    let s13 = supported_schemes(&mut schemes).iter().copied();
    let s12 = crate::verify::SUPPORTED_SCHEMES_TLS12.iter().copied().filter(|_| tls12);
    for s in s13.chain(s12) {
        if n_schemes < all_schemes.len() && !all_schemes[..n_schemes].contains(&s) {
            all_schemes[n_schemes] = s;
            n_schemes += 1;
        }
    }
    let versions: &[ProtocolVersion] = match (tls13, tls12) {
        (true, true) => &[ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2],
        (true, false) => &[ProtocolVersion::TLSV1_3],
        _ => &[ProtocolVersion::TLSV1_2],
    };
    // A client that offers only TLS 1.2 has no key share to send (`key` is `None`).
    let public = key.map(KeyShare::public).transpose()?;
    let mut shares = [KeyShareEntry { group: crate::msgs::NamedGroup(0), key: &[] }; 2];
    let mut n_shares = 0;
    if let (Some(key), Some(public)) = (key, public.as_ref()) {
        shares[0] = KeyShareEntry { group: key.group(), key: public.as_ref() };
        n_shares = 1;
        if let Some((group, range)) = offered_classical_part(config, key).filter(|_| !one_share) {
            let part = KeyShareEntry { group, key: public.as_ref().get(range).unwrap_or_default() };
            // In the order of our preference.
            let pos = |g| config.groups.iter().position(|x| *x == g);
            if pos(group) < pos(key.group()) {
                shares = [part, shares[0]];
            } else {
                shares[1] = part;
            }
            n_shares = 2;
        }
    }
    // A client that offers only TLS 1.2 lists only the groups TLS 1.2 can use, and sends no
    // key_share (a TLS 1.3 extension, RFC 8446 §4.2.8).
    let mut groups_buf = [crate::msgs::NamedGroup(0); MAX_LIST];
    let mut n_groups = 0;
    for (slot, g) in groups_buf
        .iter_mut()
        .zip(config.groups.iter().copied().filter(|&g| tls13 || !crate::kx::is_tls13_only(g)))
    {
        *slot = g;
        n_groups += 1;
    }
    let name = &c.sni[..c.sni_len];
    let hello = ClientHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random: *random,
        session_id,
        cipher_suites: List::items(&suites_buf[..n_suites]),
        extensions: ClientExtensions {
            server_name: sends_sni(name).then_some(name),
            supported_versions: Some(List::items(versions)),
            supported_groups: Some(List::items(&groups_buf[..n_groups])),
            // None without certificates: an external PSK authenticates the server then.
            signature_algorithms: (n_schemes > 0).then(|| List::items(&all_schemes[..n_schemes])),
            key_shares: (tls13 && n_shares > 0).then(|| List::items(&shares[..n_shares])),
            alpn: (!config.alpn.is_empty()).then(|| List::items(&alpn_buf[..config.alpn.len()])),
            cookie,
            record_size_limit: config.record_size_limit,
            max_fragment_length: config.max_fragment_length,
            // With a store, psk_dhe_ke says we take tickets even when we offer none (RFC
            // 8446 §4.2.9: servers send tickets only for modes the client lists).
            psk_modes: (psk.is_some() || config.ticket_store().is_some())
                .then(|| List::items(client_psk_modes(config))),
            client_certificate_types: offered_types(config).0.map(List::items),
            server_certificate_types: offered_types(config).1.map(List::items),
            early_data: false,
            pre_shared_key: psk.is_some().then(|| OfferedPsks {
                identities: List::items(identities),
                binders: List::items(&binders),
            }),
            pre_shared_key_error: None,
        },
    };
    let patch = |msg: &mut [u8]| {
        let Some((offered, _, mut bt)) = psk else { return Ok(()) };
        // RFC 8446 §4.2.11.2: the binder is over the ClientHello up to the binders list.
        let cut =
            msg.len().checked_sub(3 + hash_len).ok_or(crate::msgs::InvalidMessage::BadLength)?;
        bt.update(&msg[..cut]);
        let early = EarlySecret::for_suite(bt.suite_hash(), Some(offered.key(config)));
        let external = matches!(offered, Offered::External);
        let binder = finished_verify_data(&early.binder_key(external), &bt.current());
        msg[cut + 3..].copy_from_slice(binder.as_ref());
        Ok(())
    };
    if tls12 {
        // RFC 7627, RFC 5746 (an empty renegotiation_info: an initial handshake), RFC 8422
        // (uncompressed points only).
        let ch = HandshakeMessage12::ClientHello(ClientHello12 {
            hello,
            tls12: ClientExtensions12 {
                extended_master_secret: true,
                renegotiation_info: Some(RenegotiationInfo::INITIAL),
                ec_point_formats: Some(EcPointFormats::UNCOMPRESSED_ONLY),
                // RFC 5077 §3.2: with a store, the ticket to resume or an empty one (which
                // asks for a ticket).
                session_ticket: config
                    .ticket_store()
                    .map(|_| crate::msgs::tls12::SessionTicketExt(ticket12.unwrap_or(&[]))),
                // RFC 7366: asked for whenever a CBC suite is offered.
                encrypt_then_mac: offers_cbc(config),
            },
        });
        c.io.send_handshake_patched(&ch, transcript, patch)
    } else {
        c.io.send_handshake_patched(&Typed(OwnClientHello(hello)), transcript, patch)
    }
}

/// The identity a PSK is offered under: the ticket (`ticket`, with the ticket's obfuscated
/// age) or the external PSK's (whose age is 0, RFC 8446 §4.2.11).
#[cfg_attr(not(feature = "tickets"), allow(unused_variables))]
fn psk_identity<'a>(config: &ClientConfig<'a>, p: &Offered, ticket: &'a [u8]) -> PskIdentity<'a> {
    match p {
        #[cfg(feature = "tickets")]
        Offered::Ticket(t) => PskIdentity {
            identity: ticket,
            obfuscated_age: t.obfuscated_age(config.clock.now().as_secs()),
        },
        Offered::External => PskIdentity {
            identity: config.external_psk.map_or(&[], |e| e.identity),
            obfuscated_age: 0,
        },
    }
}

/// The certificate types a client offers (RFC 7250 §4.1), for `client_certificate_type` and
/// `server_certificate_type`: each only when a raw public key is configured for that side
/// (without the extension, X.509 is meant), the raw key first.
pub(crate) fn offered_types(
    config: &ClientConfig<'_>,
) -> (Option<&'static [CertificateType]>, Option<&'static [CertificateType]>) {
    #[cfg(feature = "raw-public-keys")]
    {
        const RAW_OR_X509: &[CertificateType] =
            &[CertificateType::RAW_PUBLIC_KEY, CertificateType::X509];
        let client = config
            .client_raw_key
            .map(|_| if config.client_cert.is_some() { RAW_OR_X509 } else { &RAW_OR_X509[..1] });
        (client, config.server_keys.map(crate::rpk::PinnedKeys::types))
    }
    #[cfg(not(feature = "raw-public-keys"))]
    {
        let _ = config;
        (None, None)
    }
}

/// The second key share a client sends beside a hybrid's: the hybrid's Diffie–Hellman group
/// with the same key, when that group is configured too (so that a server without the hybrid
/// needs no HelloRetryRequest) and no `key_exchanges` entry replaces it (whose key it would
/// not be), and where its public value sits in the hybrid's share.
pub(crate) fn offered_classical_part(
    config: &ClientConfig<'_>,
    key: &KeyShare,
) -> Option<(crate::msgs::NamedGroup, core::ops::Range<usize>)> {
    key.classical_part().filter(|(g, _)| {
        config.groups.contains(g) && !config.key_exchanges.iter().any(|k| k.group() == *g)
    })
}

/// The group of the key a client makes for its first ClientHello: its first group, except
/// that a first Diffie–Hellman group that a later hybrid contains (X25519 before
/// X25519MLKEM768) takes the hybrid's key, whose Diffie–Hellman part is then that group's
/// share: the first classical and the first post-quantum group both get a share, as
/// BoringSSL sends them, from one key. Not when `key_exchanges` replaces either group.
pub(crate) fn first_key_group(config: &ClientConfig<'_>) -> Option<crate::msgs::NamedGroup> {
    if !config.offers(ProtocolVersion::TLSV1_3) {
        // A TLS 1.2 client sends no share and makes no key until the ServerKeyExchange
        // names the group; it still needs a group TLS 1.2 can use.
        return config.groups.iter().copied().find(|&g| !crate::kx::is_tls13_only(g));
    }
    let first = *config.groups.first()?;
    let custom = |g: crate::msgs::NamedGroup| config.key_exchanges.iter().any(|k| k.group() == g);
    let hybrid = config
        .groups
        .iter()
        .copied()
        .find(|&g| crate::kx::classical_of(g) == Some(first))
        .filter(|&g| !custom(g) && !custom(first));
    Some(hybrid.unwrap_or(first))
}

/// Whether a client sends `name` as SNI: not when it is empty or an IP address (RFC 6066
/// §3).
pub(crate) fn sends_sni(name: &[u8]) -> bool {
    !name.is_empty() && !is_ip_literal(name)
}

/// Whether `name` is an IP address literal, parsed exactly where certificate names (which
/// may be addresses) or `std` bring the parser (and UTF-8 validation) in anyway.
#[cfg(any(feature = "x509", feature = "std"))]
fn is_ip_literal(name: &[u8]) -> bool {
    core::str::from_utf8(name).is_ok_and(|n| n.parse::<core::net::IpAddr>().is_ok())
}

/// Whether `name` is an IP address literal, in a device build without certificates:
/// [`looks_like_ip_literal`], on the bytes.
#[cfg(not(any(feature = "x509", feature = "std")))]
fn is_ip_literal(name: &[u8]) -> bool {
    looks_like_ip_literal(name)
}

/// Whether `name` looks like an IP address literal, told without the 1.8 KB address parser
/// that a device build would link for nothing else: IPv6 addresses have a colon, which no
/// host name has, and a host name's last label is not all digits (RFC 1123 §2.1), which
/// every IPv4 address is (so a digits-and-dots name that is not a valid address is not sent
/// either).
#[cfg(any(test, not(any(feature = "x509", feature = "std"))))]
fn looks_like_ip_literal(name: &[u8]) -> bool {
    name.contains(&b':') || name.iter().all(|&b| b.is_ascii_digit() || b == b'.')
}

/// The resumption modes a client offers.
pub(crate) fn client_psk_modes<'a>(config: &ClientConfig<'a>) -> &'a [PskKeyExchangeMode] {
    if config.psk_modes.is_empty() { &[PskKeyExchangeMode::PSK_DHE_KE] } else { config.psk_modes }
}

/// The hash of the suite a ticket was issued under.
#[cfg(feature = "tickets")]
pub(crate) fn ticket_hash(t: &Session) -> Option<HashAlg> {
    suites::find(suites::ALL_SUITES, t.suite()).map(|s| s.hash)
}

/// The checks every ServerHello and HelloRetryRequest gets: legacy_version TLS 1.2, TLS 1.3
/// selected and our session id echoed.
pub(crate) fn client_check_hello(sh: &ServerHello<'_>, session_id: &[u8]) -> Result<(), Error> {
    // A server that chose an older version (or claims SSL 3.0, RFC 8446 Appendix D.5) does
    // not speak TLS 1.3; one that chose TLS 1.3 has legacy_version TLS 1.2 (§4.1.3).
    if sh.legacy_version.0 <= 0x0300
        || sh.extensions.supported_version != Some(ProtocolVersion::TLSV1_3)
    {
        return Err(PeerIncompatible::NoTls13.into());
    }
    if sh.legacy_version != ProtocolVersion::TLSV1_2 {
        return Err(crate::msgs::InvalidMessage::IllegalValue.into());
    }
    if sh.session_id != session_id {
        return Err(PeerMisbehaved::SelectedUnofferedParameter.into());
    }
    // RFC 8446 §4.1.3: a TLS 1.3 client that negotiated 1.3 must still refuse the sentinels a
    // 1.2 or older server puts in its random.
    if sh.random[24..31] == *b"DOWNGRD" && matches!(sh.random[31], 0 | 1) {
        return Err(PeerMisbehaved::DowngradeDetected.into());
    }
    Ok(())
}

/// Whether the TLS 1.2 suites offered include a CBC one (`cbc` feature).
fn offers_cbc(config: &ClientConfig<'_>) -> bool {
    #[cfg(feature = "cbc")]
    return config.suites12.iter().any(crate::suites::tls12::Suite12::is_cbc);
    #[cfg(not(feature = "cbc"))]
    {
        let _ = config;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::{looks_like_ip_literal, sends_sni};

    /// RFC 6066 §3: host names go in SNI, IP addresses (v4 and v6) and the empty name do not;
    /// the device builds' cheap test agrees with the address parser on each.
    #[test]
    fn sni_is_sent_for_host_names_only() {
        for name in ["example.com", "sensor-17", "xn--bcher-kva.example", "1.example", "a1"] {
            assert!(sends_sni(name.as_bytes()), "{name}");
            assert!(!looks_like_ip_literal(name.as_bytes()), "{name}");
        }
        for name in ["192.0.2.1", "127.0.0.1", "2001:db8::1", "::1", "::ffff:192.0.2.1"] {
            assert!(!sends_sni(name.as_bytes()), "{name}");
            assert!(looks_like_ip_literal(name.as_bytes()), "{name}");
        }
        assert!(!sends_sni(b""));
    }
}
