//! The session-ticket encrypter for stateless TLS resumption: AES-256-GCM under a random
//! key, rotated every six hours by rustls's `TicketRotator` (a ticket stays readable for one
//! rotation after its key is retired).

use std::sync::Arc;

use core_aead::Aead;
use core_hash::RandomSource;
use rustls::Error;
use rustls::crypto::GetRandomFailed;
use rustls::server::ProducesTickets;
use rustls::ticketer::TicketRotator;

/// Seconds between key rotations.
const ROTATION: u32 = 6 * 60 * 60;
/// Bytes naming the key a ticket was sealed under.
const KEY_NAME_LEN: usize = 16;
/// Bytes of the per-ticket random nonce.
const NONCE_LEN: usize = 12;
/// Bytes of the GCM tag.
const TAG_LEN: usize = 16;

/// Makes ticket encrypters for `ServerConfig::ticketer`.
#[derive(Debug)]
pub struct Ticketer;

impl Ticketer {
    /// A rotating AES-256-GCM ticketer with fresh random keys.
    #[allow(clippy::new_ret_no_self)]
    pub fn new() -> Result<Arc<dyn ProducesTickets>, Error> {
        Ok(Arc::new(TicketRotator::new(ROTATION, generate)?))
    }
}

fn generate() -> Result<Box<dyn ProducesTickets>, GetRandomFailed> {
    let mut key = [0u8; 32];
    let mut key_name = [0u8; KEY_NAME_LEN];
    core_hash::PooledOsRandom.fill(&mut key).map_err(|_| GetRandomFailed)?;
    core_hash::PooledOsRandom.fill(&mut key_name).map_err(|_| GetRandomFailed)?;
    let aead = core_aead::Aes256Gcm::new(&key);
    zeroize::Zeroize::zeroize(&mut key);
    let aead = aead.map_err(|_| GetRandomFailed)?;
    Ok(Box::new(AeadTicketer { aead, key_name }))
}

/// One ticket key. A ticket is `key_name ‖ nonce ‖ ciphertext ‖ tag`, with the key name as
/// the additional data.
struct AeadTicketer {
    aead: core_aead::Aes256Gcm,
    key_name: [u8; KEY_NAME_LEN],
}

impl core::fmt::Debug for AeadTicketer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("AeadTicketer")
    }
}

impl ProducesTickets for AeadTicketer {
    fn enabled(&self) -> bool {
        true
    }

    fn lifetime(&self) -> u32 {
        // Twice the rotation: a ticket outlives its key's turn as the current one.
        ROTATION * 2
    }

    fn encrypt(&self, plain: &[u8]) -> Option<Vec<u8>> {
        let mut nonce = [0u8; NONCE_LEN];
        core_hash::PooledOsRandom.fill(&mut nonce).ok()?;
        let mut ticket = Vec::with_capacity(KEY_NAME_LEN + NONCE_LEN + plain.len() + TAG_LEN);
        ticket.extend_from_slice(&self.key_name);
        ticket.extend_from_slice(&nonce);
        ticket.extend_from_slice(plain);
        let body = &mut ticket[KEY_NAME_LEN + NONCE_LEN..];
        let tag = self.aead.seal_in_place_detached(&nonce, &self.key_name, body).ok()?;
        ticket.extend_from_slice(tag.as_ref());
        Some(ticket)
    }

    fn decrypt(&self, ticket: &[u8]) -> Option<Vec<u8>> {
        let (name, rest) = ticket.split_at_checked(KEY_NAME_LEN)?;
        let (nonce, rest) = rest.split_at_checked(NONCE_LEN)?;
        let (body, tag) = rest.split_at_checked(rest.len().checked_sub(TAG_LEN)?)?;
        // The key name is public (it travels in clear); a plain comparison is fine.
        if name != self.key_name {
            return None;
        }
        let mut plain = body.to_vec();
        self.aead.open_in_place_detached(nonce, name, &mut plain, tag).ok()?;
        Some(plain)
    }
}
