//! HMAC-DRBG (NIST SP 800-90A Rev. 1 §10.1.2) over any [`Hash`]: deterministic expansion of
//! a seed into a stream of random bytes, with reseeding, additional input and the reseed
//! counter limit.

use crate::{Hash, Hmac, MAX_OUTPUT_LEN, RandomError, RandomSource};
use core::fmt;

/// Why a DRBG call was refused. The DRBG state is unchanged on error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DrbgError {
    /// Fewer than [`MIN_ENTROPY_LEN`] bytes of entropy input (including none at all).
    InsufficientEntropy,
    /// The reseed interval was reached: call [`HmacDrbg::reseed`] first.
    ReseedRequired,
    /// More than [`MAX_REQUEST_LEN`] bytes were requested in one call.
    RequestTooLarge,
    /// The entropy source failed while seeding.
    EntropySource(RandomError),
}

impl fmt::Display for DrbgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InsufficientEntropy => {
                write!(f, "DRBG entropy input shorter than {MIN_ENTROPY_LEN} bytes")
            }
            Self::ReseedRequired => f.write_str("DRBG reseed interval reached; reseed first"),
            Self::RequestTooLarge => {
                write!(f, "DRBG request larger than {MAX_REQUEST_LEN} bytes")
            }
            Self::EntropySource(e) => write!(f, "DRBG entropy source failed: {e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DrbgError {}

/// The least entropy input accepted: 128 bits, enough for the 128-bit security strength
/// (SP 800-90A §8.4). Give more (a hash length) for a stronger instantiation.
pub const MIN_ENTROPY_LEN: usize = 16;
/// The most bytes one `generate` call may return: 2^19 bits (SP 800-90A Table 2).
pub const MAX_REQUEST_LEN: usize = 1 << 16;
/// The default reseed interval: 2^48 requests (SP 800-90A Table 2).
pub const RESEED_INTERVAL: u64 = 1 << 48;

/// An HMAC-DRBG instance. Its key and value are wiped on drop.
///
/// ```
/// use core_hash::{HmacDrbg, Sha256};
///
/// let mut drbg = HmacDrbg::<Sha256>::new(&[7; 32], b"nonce", b"my app")?;
/// let mut key = [0u8; 16];
/// drbg.generate(&mut key, b"")?;
/// # Ok::<(), core_hash::DrbgError>(())
/// ```
pub struct HmacDrbg<H: Hash> {
    /// HMAC keyed with the current K.
    key: Hmac<H>,
    /// The current V (the first `H::OUTPUT_LEN` bytes are used).
    v: [u8; MAX_OUTPUT_LEN],
    reseed_counter: u64,
    reseed_interval: u64,
}

impl<H: Hash> HmacDrbg<H> {
    /// Instantiate (§10.1.2.3) from `entropy` (at least [`MIN_ENTROPY_LEN`] bytes), a nonce
    /// and an optional personalization string.
    pub fn new(entropy: &[u8], nonce: &[u8], personalization: &[u8]) -> Result<Self, DrbgError> {
        if entropy.len() < MIN_ENTROPY_LEN {
            return Err(DrbgError::InsufficientEntropy);
        }
        let mut v = [0u8; MAX_OUTPUT_LEN];
        v[..H::OUTPUT_LEN].fill(0x01);
        let mut drbg = Self {
            key: Hmac::new(&[0u8; MAX_OUTPUT_LEN][..H::OUTPUT_LEN]),
            v,
            reseed_counter: 1,
            reseed_interval: RESEED_INTERVAL,
        };
        drbg.update(&[entropy, nonce, personalization]);
        Ok(drbg)
    }

    /// Instantiates from a [`RandomSource`]: a hash length of entropy and half of one as the
    /// nonce (the SP 800-90A §8.6.7 arrangement), plus `personalization`.
    pub fn from_source(
        source: &mut impl RandomSource,
        personalization: &[u8],
    ) -> Result<Self, DrbgError> {
        let mut seed = [0u8; MAX_OUTPUT_LEN + MAX_OUTPUT_LEN / 2];
        let seed_len = H::OUTPUT_LEN + H::OUTPUT_LEN / 2;
        let result =
            source.fill(&mut seed[..seed_len]).map_err(DrbgError::EntropySource).and_then(|()| {
                let (entropy, nonce) = seed[..seed_len].split_at(H::OUTPUT_LEN);
                Self::new(entropy, nonce, personalization)
            });
        crate::wipe(&mut seed);
        result
    }

    /// Sets the reseed interval (requests between reseeds), for callers that want to reseed
    /// more often than every 2^48 requests. Values above [`RESEED_INTERVAL`] are capped.
    #[must_use]
    pub fn with_reseed_interval(mut self, requests: u64) -> Self {
        self.reseed_interval = requests.min(RESEED_INTERVAL);
        self
    }

    /// Reseed (§10.1.2.4) with fresh `entropy` and optional additional input.
    pub fn reseed(&mut self, entropy: &[u8], additional: &[u8]) -> Result<(), DrbgError> {
        if entropy.len() < MIN_ENTROPY_LEN {
            return Err(DrbgError::InsufficientEntropy);
        }
        self.update(&[entropy, additional]);
        self.reseed_counter = 1;
        Ok(())
    }

    /// Generate (§10.1.2.5): fills `out` (at most [`MAX_REQUEST_LEN`] bytes), mixing in
    /// `additional` input if it is not empty.
    pub fn generate(&mut self, out: &mut [u8], additional: &[u8]) -> Result<(), DrbgError> {
        if out.len() > MAX_REQUEST_LEN {
            return Err(DrbgError::RequestTooLarge);
        }
        if self.reseed_counter > self.reseed_interval {
            return Err(DrbgError::ReseedRequired);
        }
        if !additional.is_empty() {
            self.update(&[additional]);
        }
        let n = H::OUTPUT_LEN;
        for chunk in out.chunks_mut(n) {
            self.next_v();
            chunk.copy_from_slice(&self.v[..chunk.len()]);
        }
        self.update(&[additional]);
        self.reseed_counter += 1;
        Ok(())
    }

    /// V = HMAC(K, V).
    fn next_v(&mut self) {
        let n = H::OUTPUT_LEN;
        let mut m = self.key.clone();
        m.update(&self.v[..n]);
        let mut t = m.finalize();
        self.v[..n].copy_from_slice(t.as_ref());
        crate::wipe(t.as_mut());
    }

    /// `HMAC_DRBG_Update` (§10.1.2.2) with the concatenation of `provided` as `provided_data`.
    fn update(&mut self, provided: &[&[u8]]) {
        let empty = provided.iter().all(|p| p.is_empty());
        for round in [0x00u8, 0x01] {
            if round == 0x01 && empty {
                break;
            }
            let n = H::OUTPUT_LEN;
            let mut m = self.key.clone();
            m.update(&self.v[..n]);
            m.update(&[round]);
            for p in provided {
                m.update(p);
            }
            let mut k = m.finalize();
            self.key = Hmac::with_impl(self.key.implementation(), k.as_ref());
            crate::wipe(k.as_mut());
            self.next_v();
        }
    }
}

impl<H: Hash> RandomSource for HmacDrbg<H> {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), RandomError> {
        for chunk in dest.chunks_mut(MAX_REQUEST_LEN) {
            self.generate(chunk, b"").map_err(|e| match e {
                DrbgError::ReseedRequired => RandomError::ReseedRequired,
                _ => RandomError::Unavailable,
            })?;
        }
        Ok(())
    }
}

impl<H: Hash> Drop for HmacDrbg<H> {
    fn drop(&mut self) {
        crate::wipe(&mut self.v);
    }
}

impl<H: Hash> fmt::Debug for HmacDrbg<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HmacDrbg")
            .field("reseed_counter", &self.reseed_counter)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sha256;

    #[test]
    fn errors_leave_state_alone() {
        assert_eq!(
            HmacDrbg::<Sha256>::new(&[], b"n", b"").err(),
            Some(DrbgError::InsufficientEntropy)
        );
        let mut d = HmacDrbg::<Sha256>::new(&[1; 32], b"n", b"").unwrap().with_reseed_interval(2);
        let mut twin = HmacDrbg::<Sha256>::new(&[1; 32], b"n", b"").unwrap();
        let mut big = std::vec![0u8; MAX_REQUEST_LEN + 1];
        assert_eq!(d.generate(&mut big, b""), Err(DrbgError::RequestTooLarge));
        assert_eq!(d.reseed(&[0; 15], b""), Err(DrbgError::InsufficientEntropy));
        let (mut a, mut b) = ([0u8; 40], [0u8; 40]);
        d.generate(&mut a, b"").unwrap();
        twin.generate(&mut b, b"").unwrap();
        assert_eq!(a, b, "refused calls must not have changed the state");
        d.generate(&mut a, b"").unwrap();
        assert_eq!(d.generate(&mut a, b""), Err(DrbgError::ReseedRequired));
        assert_eq!(d.fill(&mut a), Err(RandomError::ReseedRequired));
        d.reseed(&[2; 16], b"").unwrap();
        assert_eq!(d.generate(&mut a, b""), Ok(()));
    }
}
