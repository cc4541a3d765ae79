//! The server's choice of a PSK: a ticket it issued or an external PSK, with the binder
//! checked, and the resumption mode.

use core_hash::Sha256;

use crate::key_schedule::HashAlg;
use crate::msgs::PskKeyExchangeMode;
use crate::msgs::{CipherSuite, ClientHello, List};
use crate::psk::ExternalPsk;
use crate::suites::{self, Suite};
use crate::ticket::{ClientIdentity, TicketState};
use crate::verify;

use crate::config::{MAX_TICKET_LIFETIME, ServerConfig};

/// A PSK the server takes: one of its tickets, or one of its external PSKs.
pub(crate) enum ServerPsk<'a> {
    Ticket(TicketState),
    External(&'a ExternalPsk<'a>),
}

impl ServerPsk<'_> {
    pub(crate) fn key(&self) -> &[u8] {
        match self {
            Self::Ticket(t) => &t.psk[..t.psk_len],
            Self::External(p) => p.key,
        }
    }
}

/// The PSK a server takes: which, the index of its identity in the ClientHello, the mode,
/// and the suite it is used with.
pub(crate) struct ChosenPsk<'a> {
    pub(crate) psk: ServerPsk<'a>,
    pub(crate) index: usize,
    pub(crate) mode: PskKeyExchangeMode,
    pub(crate) suite: Suite,
}

/// The mode a PSK is taken in: `psk_ke` if we allow it and the client lists it, else
/// `psk_dhe_ke` if the client lists that.
pub(crate) fn psk_mode(
    modes: List<'_, PskKeyExchangeMode, crate::msgs::U8>,
    allow_psk_ke: bool,
) -> Option<PskKeyExchangeMode> {
    if allow_psk_ke && modes.contains(&PskKeyExchangeMode::PSK_KE) {
        Some(PskKeyExchangeMode::PSK_KE)
    } else if modes.contains(&PskKeyExchangeMode::PSK_DHE_KE) {
        Some(PskKeyExchangeMode::PSK_DHE_KE)
    } else {
        None
    }
}

/// Server: the first PSK identity offered that we can take (RFC 8446 §4.2.11) — one of our
/// tickets within its lifetime, or one of our external PSKs — in a mode both sides list,
/// with a suite of its hash that both sides have (for a ticket its own suite first). The
/// binder is checked later, over the whole transcript.
pub(crate) fn choose_psk<'a>(
    config: &ServerConfig<'a>,
    ch: &ClientHello<'_>,
) -> Option<ChosenPsk<'a>> {
    let x = &ch.extensions;
    let modes = x.psk_modes?;
    let offer = x.pre_shared_key?;
    let common = |hash: HashAlg, first: Option<CipherSuite>| {
        let shared = |s: &Suite| s.hash == hash && ch.cipher_suites.contains(&s.suite);
        first
            .and_then(|f| suites::find(config.suites, f))
            .filter(shared)
            .or_else(|| config.suites.iter().copied().find(shared))
    };
    for (index, identity) in offer.identities.iter().enumerate() {
        let ticket = config.tickets.and_then(|t| Some((t, t.key.open(identity.identity)?)));
        if let Some((tickets, state)) = ticket {
            let now = tickets.clock.now().as_secs();
            let max_age = tickets.max_auth_age.min(MAX_TICKET_LIFETIME);
            let fresh = now >= state.issued_at
                && now - state.issued_at < u64::from(tickets.lifetime)
                && now >= state.authenticated_at
                && now - state.authenticated_at < u64::from(max_age);
            let identity_ok = client_identity_holds(config, &state.client);
            let hash = suites::find(suites::ALL_SUITES, state.suite).map(|s| s.hash);
            let mode = psk_mode(modes, tickets.psk_ke);
            if let (true, Some(hash), Some(mode)) = (fresh && identity_ok, hash, mode)
                && let Some(suite) = common(hash, Some(state.suite))
            {
                return Some(ChosenPsk { psk: ServerPsk::Ticket(state), index, mode, suite });
            }
            continue;
        }
        let Some(psks) = config.psks else { continue };
        let Some(psk) = psks.find(identity.identity) else { continue };
        if let (Some(mode), Some(suite)) = (psk_mode(modes, psks.psk_ke), common(psk.hash, None)) {
            return Some(ChosenPsk { psk: ServerPsk::External(psk), index, mode, suite });
        }
    }
    None
}

/// Whether `anchor` is the SHA-256 of a client raw public key `auth` still pins (what a
/// session a raw key authenticated carries, RFC 7250).
fn raw_key_pinned(auth: &crate::config::ClientAuth<'_>, anchor: &[u8; 32]) -> bool {
    #[cfg(feature = "raw-public-keys")]
    return auth.raw_keys.is_some_and(|p| p.keys.iter().any(|k| Sha256::digest(k) == *anchor));
    #[cfg(not(feature = "raw-public-keys"))]
    {
        let _ = (auth, anchor);
        false
    }
}

/// Server: whether a ticket's client identity still stands under `config`. An anonymous
/// session resumes unless client authentication is required; a certificate-authenticated
/// one only while a root of `ClientAuth.roots` is the one its chain was verified to (a
/// server that dropped the root, or client authentication, does not resume it), or, for a
/// raw public key, while that key is pinned; one
/// authenticated by an external PSK (which counts as client authentication) only while the
/// server still has that PSK. Costs a SHA-256 per configured root or PSK identity.
pub(crate) fn client_identity_holds(config: &ServerConfig<'_>, client: &ClientIdentity) -> bool {
    match client {
        ClientIdentity::Anonymous => !config.client_auth.is_some_and(|a| a.required),
        ClientIdentity::Certificate { anchor, .. } => config.client_auth.is_some_and(|a| {
            raw_key_pinned(&a, anchor)
                || match a.verifier {
                    Some(v) => v.trusts(anchor),
                    None => a.roots.iter().any(|r| verify::anchor_digest(r) == *anchor),
                }
        }),
        ClientIdentity::ExternalPsk { identity } => config
            .psks
            .is_some_and(|p| p.keys.iter().any(|k| Sha256::digest(k.identity) == *identity)),
    }
}
