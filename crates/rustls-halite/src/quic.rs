//! QUIC packet protection (RFC 9001 §5) as rustls's [`quic::Algorithm`], on the TLS 1.3 suites:
//! packet keys seal and open in place under the QUIC nonce (the IV XOR-ed with the packet
//! number, §5.3), and header protection masks the first byte and the packet number with AES
//! of the sample (§5.4.3) or ChaCha20 keyed by it (§5.4.4). Each key is expanded once, when
//! rustls derives it; a packet costs one seal or open and one block of AES or ChaCha20, with
//! no allocation.

use core::marker::PhantomData;

use core_aead::Aead;
use rustls::crypto::cipher::{AeadKey, Iv, Nonce};
use rustls::{Error, quic};
use subtle::{ConditionallySelectable, ConstantTimeLess};

use crate::aead::Refused;

/// Bytes of ciphertext sampled for header protection, for every algorithm here (§5.4.2).
const SAMPLE_LEN: usize = 16;

/// Header protection masks the first byte and at most four packet number bytes (§5.4.1).
const MASK_LEN: usize = 5;

/// The header form bit (RFC 9000 §17.2), which header protection leaves in the clear: set for
/// long headers, whose low four bits are masked, clear for short ones, whose low five are.
const LONG_HEADER_FORM: u8 = 0x80;

/// A cipher that turns a header protection sample into a mask (RFC 9001 §5.4.1).
pub(crate) trait HeaderCipher: Sized + Send + Sync + 'static {
    /// Expands the header protection key.
    fn new(key: &[u8]) -> Result<Self, core_aead::Error>;

    /// The mask for `sample`.
    fn mask(&self, sample: &[u8; SAMPLE_LEN]) -> Result<[u8; MASK_LEN], core_aead::Error>;
}

/// AES header protection (§5.4.3): the mask is the sample encrypted as one AES block.
impl HeaderCipher for core_aead::Aes {
    fn new(key: &[u8]) -> Result<Self, core_aead::Error> {
        core_aead::Aes::new(key)
    }

    fn mask(&self, sample: &[u8; SAMPLE_LEN]) -> Result<[u8; MASK_LEN], core_aead::Error> {
        let mut block = *sample;
        self.encrypt_block(&mut block);
        let mut mask = [0u8; MASK_LEN];
        mask.copy_from_slice(&block[..MASK_LEN]);
        Ok(mask)
    }
}

/// ChaCha20 header protection (§5.4.4): the sample's first four bytes are the block counter
/// (little-endian), the other twelve the nonce, and the mask is the first keystream bytes.
impl HeaderCipher for core_aead::ChaCha20 {
    fn new(key: &[u8]) -> Result<Self, core_aead::Error> {
        core_aead::ChaCha20::new(key)
    }

    fn mask(&self, sample: &[u8; SAMPLE_LEN]) -> Result<[u8; MASK_LEN], core_aead::Error> {
        let (counter, nonce) = sample.split_at(4);
        let counter = u32::from_le_bytes([counter[0], counter[1], counter[2], counter[3]]);
        let mut mask = [0u8; MASK_LEN];
        // Five bytes fit in the block at any counter, even the last one.
        self.apply_keystream(nonce, counter, &mut mask)?;
        Ok(mask)
    }
}

/// The QUIC packet and header protection of a TLS 1.3 suite whose AEAD is `A` and whose header
/// protection cipher is `H`, with the suite's limits (RFC 9001 §6.6).
pub(crate) struct QuicAlgorithm<A, H> {
    confidentiality_limit: u64,
    integrity_limit: u64,
    _alg: PhantomData<fn() -> (A, H)>,
}

impl<A, H> QuicAlgorithm<A, H> {
    const fn new(confidentiality_limit: u64, integrity_limit: u64) -> Self {
        Self { confidentiality_limit, integrity_limit, _alg: PhantomData }
    }
}

/// AES-128-GCM: 2^23 packets sealed and 2^52 forgeries tried per key (§6.6, B.1).
pub(crate) static AES_128_GCM: QuicAlgorithm<core_aead::Aes128Gcm, core_aead::Aes> =
    QuicAlgorithm::new(1 << 23, 1 << 52);
/// AES-256-GCM: the same limits as AES-128-GCM.
pub(crate) static AES_256_GCM: QuicAlgorithm<core_aead::Aes256Gcm, core_aead::Aes> =
    QuicAlgorithm::new(1 << 23, 1 << 52);
/// ChaCha20-Poly1305: no confidentiality limit below the 2^62 packet numbers, 2^36
/// forgeries tried per key (§6.6).
pub(crate) static CHACHA20_POLY1305: QuicAlgorithm<
    core_aead::ChaCha20Poly1305,
    core_aead::ChaCha20,
> = QuicAlgorithm::new(u64::MAX, 1 << 36);

impl<A, H> quic::Algorithm for QuicAlgorithm<A, H>
where
    A: Aead + Send + Sync + 'static,
    H: HeaderCipher,
{
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn quic::PacketKey> {
        // rustls's `quic::Tag` is 16 bytes: only AEADs with 16-byte tags may be QUIC's.
        const { assert!(A::TAG_LEN == 16) };
        match A::new(key.as_ref()) {
            Ok(key) => Box::new(PacketKey {
                key,
                iv,
                confidentiality_limit: self.confidentiality_limit,
                integrity_limit: self.integrity_limit,
            }),
            Err(_) => Box::new(Refused),
        }
    }

    fn header_protection_key(&self, key: AeadKey) -> Box<dyn quic::HeaderProtectionKey> {
        match H::new(key.as_ref()) {
            Ok(cipher) => Box::new(HeaderKey(cipher)),
            Err(_) => Box::new(Refused),
        }
    }

    fn aead_key_len(&self) -> usize {
        A::KEY_LEN
    }
}

/// One direction's header protection key, expanded.
struct HeaderKey<H>(H);

impl<H: HeaderCipher> HeaderKey<H> {
    /// Applies the mask of `sample` to `first` and `packet_number` (§5.4.1); the packet number
    /// length comes from the first byte as it is unprotected: before masking when `unmask` is
    /// false, after it when true. Nothing changes on error.
    fn apply(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
        unmask: bool,
    ) -> Result<(), Error> {
        let Ok(sample) = <&[u8; SAMPLE_LEN]>::try_from(sample) else {
            return Err(Error::General("QUIC header protection sample is not 16 bytes".into()));
        };
        if packet_number.len() > MASK_LEN - 1 {
            return Err(Error::General("QUIC packet number longer than 4 bytes".into()));
        }
        let mask = self.0.mask(sample).map_err(|_| Error::EncryptError)?;
        let bits = if *first & LONG_HEADER_FORM != 0 { 0x0f } else { 0x1f };
        let clear_first = if unmask { *first ^ (mask[0] & bits) } else { *first };
        let pn_len = (clear_first & 0x03) + 1;
        *first ^= mask[0] & bits;
        // A receiver passes four bytes before it knows the length; those past it are payload
        // and stay as they are. The length is protected, so it selects without a branch.
        for (i, (byte, m)) in (0u8..).zip(packet_number.iter_mut().zip(&mask[1..])) {
            *byte ^= u8::conditional_select(&0, m, i.ct_lt(&pn_len));
        }
        Ok(())
    }
}

impl<H: HeaderCipher> quic::HeaderProtectionKey for HeaderKey<H> {
    fn encrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.apply(sample, first, packet_number, false)
    }

    fn decrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.apply(sample, first, packet_number, true)
    }

    fn sample_len(&self) -> usize {
        SAMPLE_LEN
    }
}

/// One direction's packet key: the expanded AEAD key, the IV and the suite's limits.
struct PacketKey<A> {
    key: A,
    iv: Iv,
    confidentiality_limit: u64,
    integrity_limit: u64,
}

impl<A: Aead> PacketKey<A> {
    /// Seals `payload` in place under `nonce` with the header as associated data.
    fn seal(&self, nonce: &Nonce, header: &[u8], payload: &mut [u8]) -> Result<quic::Tag, Error> {
        self.key
            .seal_in_place_detached(&nonce.0, header, payload)
            .map(|tag| quic::Tag::from(tag.as_ref()))
            .map_err(|_| Error::EncryptError)
    }

    /// Opens `payload` (ciphertext then tag) in place; returns the plaintext at its front.
    fn open<'a>(
        &self,
        nonce: &Nonce,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        let Some(plain_len) = payload.len().checked_sub(A::TAG_LEN) else {
            return Err(Error::DecryptError);
        };
        let (text, tag) = payload.split_at_mut(plain_len);
        self.key
            .open_in_place_detached(&nonce.0, header, text, tag)
            .map_err(|_| Error::DecryptError)?;
        Ok(text)
    }
}

impl<A: Aead + Send + Sync> quic::PacketKey for PacketKey<A> {
    fn encrypt_in_place(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<quic::Tag, Error> {
        self.seal(&Nonce::new(&self.iv, packet_number), header, payload)
    }

    fn encrypt_in_place_for_path(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<quic::Tag, Error> {
        self.seal(&Nonce::for_path(path_id, &self.iv, packet_number), header, payload)
    }

    fn decrypt_in_place<'a>(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        self.open(&Nonce::new(&self.iv, packet_number), header, payload)
    }

    fn decrypt_in_place_for_path<'a>(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        self.open(&Nonce::for_path(path_id, &self.iv, packet_number), header, payload)
    }

    fn tag_len(&self) -> usize {
        A::TAG_LEN
    }

    fn confidentiality_limit(&self) -> u64 {
        self.confidentiality_limit
    }

    fn integrity_limit(&self) -> u64 {
        self.integrity_limit
    }
}

impl quic::HeaderProtectionKey for Refused {
    fn encrypt_in_place(&self, _: &[u8], _: &mut u8, _: &mut [u8]) -> Result<(), Error> {
        Err(Error::EncryptError)
    }

    fn decrypt_in_place(&self, _: &[u8], _: &mut u8, _: &mut [u8]) -> Result<(), Error> {
        Err(Error::DecryptError)
    }

    fn sample_len(&self) -> usize {
        SAMPLE_LEN
    }
}

impl quic::PacketKey for Refused {
    fn encrypt_in_place(&self, _: u64, _: &[u8], _: &mut [u8]) -> Result<quic::Tag, Error> {
        Err(Error::EncryptError)
    }

    fn decrypt_in_place<'a>(&self, _: u64, _: &[u8], _: &'a mut [u8]) -> Result<&'a [u8], Error> {
        Err(Error::DecryptError)
    }

    fn tag_len(&self) -> usize {
        16
    }

    fn confidentiality_limit(&self) -> u64 {
        0
    }

    fn integrity_limit(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::{HeaderCipher, SAMPLE_LEN};

    fn sample(hex: &str) -> [u8; SAMPLE_LEN] {
        core::array::from_fn(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
    }

    fn key<const N: usize>(hex: &str) -> [u8; N] {
        core::array::from_fn(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
    }

    /// The masks of RFC 9001 A.2 (client Initial), A.3 (server Initial), both AES-128, and A.5
    /// (ChaCha20), from the `hp` keys and samples printed there.
    #[test]
    fn rfc9001_masks() {
        let cases: [(&[u8], &str, [u8; 5]); 3] = [
            (
                &key::<16>("9f50449e04a0e810283a1e9933adedd2"),
                "d1b1c98dd7689fb8ec11d242b123dc9b",
                [0x43, 0x7b, 0x9a, 0xec, 0x36],
            ),
            (
                &key::<16>("c206b8d9b9f0f37644430b490eeaa314"),
                "2cd0991cd25b0aac406a5816b6394100",
                [0x2e, 0xc0, 0xd8, 0x35, 0x6a],
            ),
            (
                &key::<32>("25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4"),
                "5e5cd55c41f69080575d7999c25a5bfb",
                [0xae, 0xfe, 0xfe, 0x7d, 0x03],
            ),
        ];
        for (hp, s, want) in cases {
            let got = if hp.len() == 16 {
                <core_aead::Aes as HeaderCipher>::new(hp).unwrap().mask(&sample(s))
            } else {
                <core_aead::ChaCha20 as HeaderCipher>::new(hp).unwrap().mask(&sample(s))
            };
            assert_eq!(got.unwrap(), want, "sample {s}");
        }
    }

    /// ChaCha20 header protection works at the last block counter (a sample starting with
    /// four 0xff bytes), where a longer keystream would wrap.
    #[test]
    fn chacha20_mask_at_the_last_counter() {
        let hp = <core_aead::ChaCha20 as HeaderCipher>::new(&[7; 32]).unwrap();
        let mut s = [0x5a; SAMPLE_LEN];
        s[..4].fill(0xff);
        let mask = hp.mask(&s).unwrap();
        let mut want = [0u8; 5];
        hp.apply_keystream(&s[4..], u32::MAX, &mut want).unwrap();
        assert_eq!(mask, want);
        assert_ne!(mask, [0; 5]);
    }
}
