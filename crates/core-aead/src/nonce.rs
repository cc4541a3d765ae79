//! Nonces for record protocols: [`Nonce`], a 96-bit AEAD nonce, and [`NonceCounter`], which
//! makes one per record as TLS does (a fixed IV XOR the record's sequence number) and refuses
//! to go on, rather than wrap, when the sequence numbers run out.

use crate::Error;
use core::fmt;
use core_hash::{RandomError, RandomSource};

/// A 96-bit AEAD nonce: the nonce length of AES-GCM, AES-CCM and ChaCha20-Poly1305 in TLS
/// (`Aead::NONCE_LEN` for them). Nonces are not secret; what must never happen is one used
/// twice under the same key. Pass it where a nonce is asked for with
/// [`as_bytes`](Self::as_bytes) or `as_ref()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nonce([u8; Nonce::LEN]);

impl Nonce {
    /// Bytes in a nonce.
    pub const LEN: usize = 12;

    /// The nonce with these bytes.
    #[must_use]
    pub const fn new(bytes: [u8; Self::LEN]) -> Self {
        Self(bytes)
    }

    /// The nonce with these bytes, which must be [`Nonce::LEN`] long.
    pub fn try_from_slice(bytes: &[u8]) -> Result<Self, Error> {
        bytes.try_into().map(Self).map_err(|_| Error::InvalidNonceLength)
    }

    /// A nonce of fresh random bytes from `rng`, for messages without a sequence number. Random
    /// 96-bit nonces may collide: keep under 2^32 messages per key (NIST SP 800-38D §8.3), or
    /// use XChaCha20-Poly1305's 192-bit nonces.
    pub fn random(rng: &mut dyn RandomSource) -> Result<Self, RandomError> {
        let mut bytes = [0; Self::LEN];
        rng.fill(&mut bytes)?;
        Ok(Self(bytes))
    }

    /// The nonce of record `sequence` under `iv`: the sequence number, big-endian and padded
    /// on the left to 12 bytes, XOR the IV (RFC 8446 §5.3, RFC 7905 §2).
    #[must_use]
    pub fn xor_sequence(iv: &[u8; Self::LEN], sequence: u64) -> Self {
        let mut bytes = *iv;
        for (b, s) in bytes[Self::LEN - 8..].iter_mut().zip(sequence.to_be_bytes()) {
            *b ^= s;
        }
        Self(bytes)
    }

    /// The nonce's bytes.
    #[must_use]
    pub const fn as_bytes(&self) -> &[u8; Self::LEN] {
        &self.0
    }
}

impl From<[u8; Nonce::LEN]> for Nonce {
    fn from(bytes: [u8; Nonce::LEN]) -> Self {
        Self(bytes)
    }
}

impl AsRef<[u8]> for Nonce {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// A [`NonceCounter`] has given all 2^64 of its nonces: rekey before sealing more. A type of
/// its own rather than an [`Error`] variant, which would grow the firmware's AEAD code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NonceExhausted;

impl fmt::Display for NonceExhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("nonce sequence numbers used up; rekey")
    }
}

#[cfg(feature = "std")]
impl std::error::Error for NonceExhausted {}

/// One nonce per record, as TLS 1.3 (RFC 8446 §5.3) and TLS 1.2's ChaCha20-Poly1305
/// (RFC 7905 §2) build them: a fixed 96-bit IV XOR a 64-bit sequence number that starts at 0
/// and goes up by one per nonce. After the nonce of sequence number 2^64 − 1 it gives
/// [`NonceExhausted`] (time to rekey) instead of wrapping to a nonce already used.
///
/// The IV is kept secret, as TLS derives it with the key: it is wiped on drop and not shown
/// by `Debug`.
///
/// ```
/// use core_aead::{Aead, ChaCha20Poly1305, NonceCounter};
///
/// let aead = ChaCha20Poly1305::new(&[0x42; 32])?;
/// let mut sending = NonceCounter::new([7; 12]);
/// let mut receiving = NonceCounter::new([7; 12]);
/// for message in [&b"first"[..], b"second"] {
///     let mut record = [0u8; 64];
///     record[..message.len()].copy_from_slice(message);
///     let nonce = sending.next_nonce()?;
///     let n = aead.seal_in_place_append_tag(nonce.as_bytes(), b"", &mut record, message.len())?;
///     let nonce = receiving.next_nonce()?;
///     let opened = aead.open_in_place(nonce.as_bytes(), b"", &mut record[..n])?;
///     assert_eq!(opened, message);
/// }
/// assert_eq!(sending.sequence_number(), Some(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct NonceCounter {
    iv: [u8; Nonce::LEN],
    /// The sequence number of the next nonce; `None` once all 2^64 have been given.
    next: Option<u64>,
}

impl NonceCounter {
    /// A counter over `iv` whose first nonce is sequence number 0.
    #[must_use]
    pub fn new(iv: [u8; Nonce::LEN]) -> Self {
        Self::starting_at(iv, 0)
    }

    /// A counter over `iv` whose next nonce is sequence number `sequence`: to resume a
    /// connection's count.
    #[must_use]
    pub fn starting_at(iv: [u8; Nonce::LEN], sequence: u64) -> Self {
        Self { iv, next: Some(sequence) }
    }

    /// The sequence number the next nonce will have, or `None` when all are used.
    #[must_use]
    pub fn sequence_number(&self) -> Option<u64> {
        self.next
    }

    /// The next nonce, its sequence number counted as used; [`NonceExhausted`] once the
    /// nonce of sequence number 2^64 − 1 has been given.
    pub fn next_nonce(&mut self) -> Result<Nonce, NonceExhausted> {
        let sequence = self.next.ok_or(NonceExhausted)?;
        self.next = sequence.checked_add(1);
        Ok(Nonce::xor_sequence(&self.iv, sequence))
    }
}

impl Drop for NonceCounter {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.iv);
    }
}

impl fmt::Debug for NonceCounter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NonceCounter").field("next", &self.next).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source that counts up, or fails.
    struct Counting(Option<u8>);

    impl RandomSource for Counting {
        fn fill(&mut self, out: &mut [u8]) -> Result<(), RandomError> {
            let next = self.0.as_mut().ok_or(RandomError::Unavailable)?;
            for b in out {
                *b = *next;
                *next += 1;
            }
            Ok(())
        }
    }

    #[test]
    fn random_nonces_come_from_the_source() {
        let mut rng = Counting(Some(0));
        let first = Nonce::random(&mut rng).unwrap();
        assert_eq!(first.as_bytes(), &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        assert_eq!(Nonce::random(&mut rng).unwrap().as_bytes()[0], 12);
        assert_eq!(Nonce::random(&mut Counting(None)), Err(RandomError::Unavailable));
    }

    /// The nonces of a few sequence numbers under one IV, worked out by hand.
    #[test]
    fn xor_sequence_matches_tls() {
        let iv = hex_literal::hex!("5b78923dee08579033e523d9");
        assert_eq!(Nonce::xor_sequence(&iv, 0).as_bytes(), &iv);
        assert_eq!(
            Nonce::xor_sequence(&iv, 1).as_bytes(),
            &hex_literal::hex!("5b78923dee08579033e523d8")
        );
        assert_eq!(
            Nonce::xor_sequence(&iv, 0x0102_0304_0506_0708).as_bytes(),
            &hex_literal::hex!("5b78923def0a549436e324d1")
        );
    }

    #[test]
    fn counter_counts_then_refuses_to_wrap() {
        let iv = [0xa5; 12];
        let mut c = NonceCounter::new(iv);
        assert_eq!(c.next_nonce(), Ok(Nonce::new(iv)));
        assert_eq!(c.next_nonce(), Ok(Nonce::xor_sequence(&iv, 1)));
        assert_eq!(c.sequence_number(), Some(2));

        let mut c = NonceCounter::starting_at(iv, u64::MAX - 1);
        assert_eq!(c.next_nonce(), Ok(Nonce::xor_sequence(&iv, u64::MAX - 1)));
        assert_eq!(c.next_nonce(), Ok(Nonce::xor_sequence(&iv, u64::MAX)));
        assert_eq!(c.sequence_number(), None);
        assert_eq!(c.next_nonce(), Err(NonceExhausted));
        assert_eq!(c.next_nonce(), Err(NonceExhausted), "stays exhausted");
    }

    #[test]
    fn nonce_from_slice_checks_length() {
        assert_eq!(Nonce::try_from_slice(&[3; 12]), Ok(Nonce::from([3; 12])));
        assert_eq!(Nonce::try_from_slice(&[3; 11]), Err(Error::InvalidNonceLength));
        assert_eq!(Nonce::try_from_slice(&[3; 24]), Err(Error::InvalidNonceLength));
    }

    #[test]
    fn debug_hides_the_iv() {
        let c = NonceCounter::new([0xee; 12]);
        let shown = std::format!("{c:?}");
        assert!(!shown.contains("238") && !shown.contains("ee"), "{shown}");
        assert!(shown.contains("next"), "{shown}");
    }
}
