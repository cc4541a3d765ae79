//! The TLS 1.2 pseudorandom function (RFC 5246 §5) and the secrets it derives: the master
//! secret (§8.1) or extended master secret (RFC 7627 §4), the key block (§6.3), the Finished
//! `verify_data` (§7.4.9) and exported keying material (RFC 5705).
//!
//! The secrets move through types as the 1.3 schedule does — [`PreMasterSecret`] →
//! [`MasterSecret`] → [`KeyBlock`] — and each is wiped on drop and never printed.
//!
//! [`PreMasterSecret`]: crate::schedule::tls12::PreMasterSecret
//! [`MasterSecret`]: crate::schedule::tls12::MasterSecret
//! [`KeyBlock`]: crate::schedule::tls12::KeyBlock
//!
//! `PRF(secret, label, seed) = P_hash(secret, label ‖ seed)` with
//! `P_hash(secret, seed) = HMAC(secret, A(1) ‖ seed) ‖ HMAC(secret, A(2) ‖ seed) ‖ …`,
//! `A(0) = seed`, `A(i) = HMAC(secret, A(i-1))`, where the hash is the suite's PRF hash
//! (SHA-256, or SHA-384 for the `_SHA384` suites).

use core::fmt;

use core_hash::{Sha256, Sha384, tls12_prf};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::error::{ApiMisuse, Error, PeerMisbehaved};
use crate::key_schedule::HashAlg;
use crate::schedule::SuiteHash;

/// Bytes in the master secret (RFC 5246 §8.1).
pub const MASTER_SECRET_LEN: usize = 48;
/// Bytes in a Finished message's `verify_data` (RFC 5246 §7.4.9).
pub const VERIFY_DATA_LEN: usize = 12;
/// Bytes in a hello random.
pub const RANDOM_LEN: usize = 32;
/// The longest write key a 1.2 AEAD suite uses.
pub const MAX_KEY_LEN: usize = 32;
/// The longest write IV a 1.2 AEAD suite uses (ChaCha20-Poly1305's, RFC 7905).
pub const MAX_IV_LEN: usize = 16;
/// The longest MAC key of a key block: HMAC-SHA384's 48 bytes (the CBC suites).
pub const MAX_MAC_KEY_LEN: usize = 48;

/// The labels the handshake itself uses, which an exporter may not (RFC 5705 §4).
const RESERVED_LABELS: [&[u8]; 5] = [
    b"client finished",
    b"server finished",
    b"master secret",
    b"extended master secret",
    b"key expansion",
];

/// The TLS 1.2 PRF over `hash`: fills `out` with `PRF(secret, label, seed)`, where the seed
/// is the concatenation of the `seed` parts (so callers need not join randoms in a buffer).
/// Any output length is allowed; a hash no suite uses is [`ApiMisuse::BadConfig`].
pub fn prf(
    hash: HashAlg,
    secret: &[u8],
    label: &[u8],
    seed: &[&[u8]],
    out: &mut [u8],
) -> Result<(), Error> {
    suite_prf(SuiteHash::new(hash)?, secret, label, seed, out);
    Ok(())
}

fn suite_prf(hash: SuiteHash, secret: &[u8], label: &[u8], seed: &[&[u8]], out: &mut [u8]) {
    match hash {
        SuiteHash::Sha256 => tls12_prf::<Sha256>(secret, label, seed, out),
        SuiteHash::Sha384 => tls12_prf::<Sha384>(secret, label, seed, out),
    }
}

/// Which side sent a Finished message, choosing its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sender {
    /// The client: `"client finished"`.
    Client,
    /// The server: `"server finished"`.
    Server,
}

impl Sender {
    const fn label(self) -> &'static [u8] {
        match self {
            Self::Client => b"client finished",
            Self::Server => b"server finished",
        }
    }
}

/// The longest premaster secret: P-521's x-coordinate, the longest ECDHE result of the
/// groups TLS 1.2 can use (RFC 8422 §5.10; the hybrids are TLS 1.3 only).
pub const MAX_PREMASTER_LEN: usize = 66;

/// The key exchange's result (for ECDHE the x-coordinate or X25519 output), wiped on drop.
pub struct PreMasterSecret {
    bytes: [u8; MAX_PREMASTER_LEN],
    len: u8,
}

impl PreMasterSecret {
    /// A premaster secret from bytes; refused (as [`ApiMisuse::BadConfig`]) if empty or
    /// longer than any TLS 1.2 group's shared secret ([`MAX_PREMASTER_LEN`]).
    pub fn new(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.is_empty() || bytes.len() > MAX_PREMASTER_LEN {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        let mut s = Self { bytes: [0; MAX_PREMASTER_LEN], len: bytes.len() as u8 };
        s.bytes[..bytes.len()].copy_from_slice(bytes);
        Ok(s)
    }

    fn get(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The master secret of RFC 5246 §8.1:
    /// `PRF(pre_master_secret, "master secret", client_random ‖ server_random)[0..48]`.
    /// Only for resuming peers that refuse extended master secret; new handshakes use
    /// [`PreMasterSecret::into_extended_master`].
    pub fn into_master(
        self,
        hash: HashAlg,
        client_random: &[u8; RANDOM_LEN],
        server_random: &[u8; RANDOM_LEN],
    ) -> Result<MasterSecret, Error> {
        let hash = SuiteHash::new(hash)?;
        let mut m = MasterSecret { hash, bytes: [0; MASTER_SECRET_LEN] };
        suite_prf(
            hash,
            self.get(),
            b"master secret",
            &[client_random, server_random],
            &mut m.bytes,
        );
        Ok(m)
    }

    /// The extended master secret of RFC 7627 §4:
    /// `PRF(pre_master_secret, "extended master secret", session_hash)[0..48]`, where the
    /// session hash is the transcript hash through ClientKeyExchange.
    pub fn into_extended_master(
        self,
        hash: HashAlg,
        session_hash: &[u8],
    ) -> Result<MasterSecret, Error> {
        let hash = SuiteHash::new(hash)?;
        let mut m = MasterSecret { hash, bytes: [0; MASTER_SECRET_LEN] };
        suite_prf(hash, self.get(), b"extended master secret", &[session_hash], &mut m.bytes);
        Ok(m)
    }
}

impl Drop for PreMasterSecret {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

impl fmt::Debug for PreMasterSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PreMasterSecret(..)")
    }
}

/// The 48-byte master secret and the PRF hash of the suite it was made for, wiped on drop.
#[derive(Clone)]
pub struct MasterSecret {
    hash: SuiteHash,
    bytes: [u8; MASTER_SECRET_LEN],
}

impl MasterSecret {
    /// A master secret from its bytes: one resumed from a session ticket or cache.
    /// A hash no suite uses is [`ApiMisuse::BadConfig`].
    pub fn from_bytes(hash: HashAlg, bytes: &[u8; MASTER_SECRET_LEN]) -> Result<Self, Error> {
        Ok(Self { hash: SuiteHash::new(hash)?, bytes: *bytes })
    }

    /// The bytes, to store in a session ticket.
    pub fn as_bytes(&self) -> &[u8; MASTER_SECRET_LEN] {
        &self.bytes
    }

    /// The PRF hash.
    pub fn hash(&self) -> HashAlg {
        self.hash.alg()
    }

    /// The key block of RFC 5246 §6.3 for an AEAD suite (no MAC keys):
    /// `PRF(master_secret, "key expansion", server_random ‖ client_random)` cut into the
    /// client and server write keys (`key_len` bytes each) and write IVs (`iv_len` each).
    /// Lengths over [`MAX_KEY_LEN`] or [`MAX_IV_LEN`] are [`ApiMisuse::BadConfig`].
    pub fn key_block(
        &self,
        key_len: usize,
        iv_len: usize,
        client_random: &[u8; RANDOM_LEN],
        server_random: &[u8; RANDOM_LEN],
    ) -> Result<KeyBlock, Error> {
        self.key_block_with_mac(0, key_len, iv_len, client_random, server_random)
    }

    /// As [`MasterSecret::key_block`], with the client and server MAC keys (`mac_len` bytes
    /// each, at most [`MAX_MAC_KEY_LEN`]) first, as a CBC suite has them.
    pub fn key_block_with_mac(
        &self,
        mac_len: usize,
        key_len: usize,
        iv_len: usize,
        client_random: &[u8; RANDOM_LEN],
        server_random: &[u8; RANDOM_LEN],
    ) -> Result<KeyBlock, Error> {
        if key_len > MAX_KEY_LEN || iv_len > MAX_IV_LEN || mac_len > MAX_MAC_KEY_LEN {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        let mut raw = [0u8; 2 * (MAX_MAC_KEY_LEN + MAX_KEY_LEN + MAX_IV_LEN)];
        let raw_len = 2 * (mac_len + key_len + iv_len);
        suite_prf(
            self.hash,
            &self.bytes,
            b"key expansion",
            &[server_random, client_random],
            &mut raw[..raw_len],
        );
        let mut kb = KeyBlock {
            client_mac: [0; MAX_MAC_KEY_LEN],
            server_mac: [0; MAX_MAC_KEY_LEN],
            mac_len,
            client_key: [0; MAX_KEY_LEN],
            server_key: [0; MAX_KEY_LEN],
            client_iv: [0; MAX_IV_LEN],
            server_iv: [0; MAX_IV_LEN],
            key_len,
            iv_len,
        };
        let (cm, rest) = raw.split_at(mac_len);
        let (sm, rest) = rest.split_at(mac_len);
        kb.client_mac[..mac_len].copy_from_slice(cm);
        kb.server_mac[..mac_len].copy_from_slice(sm);
        let (ck, rest) = rest.split_at(key_len);
        let (sk, rest) = rest.split_at(key_len);
        let (ci, rest) = rest.split_at(iv_len);
        kb.client_key[..key_len].copy_from_slice(ck);
        kb.server_key[..key_len].copy_from_slice(sk);
        kb.client_iv[..iv_len].copy_from_slice(ci);
        kb.server_iv[..iv_len].copy_from_slice(&rest[..iv_len]);
        raw.zeroize();
        Ok(kb)
    }

    /// The `verify_data` of `sender`'s Finished (RFC 5246 §7.4.9):
    /// `PRF(master_secret, finished_label, Hash(handshake_messages))[0..12]`.
    pub fn verify_data(&self, sender: Sender, handshake_hash: &[u8]) -> [u8; VERIFY_DATA_LEN] {
        let mut out = [0u8; VERIFY_DATA_LEN];
        suite_prf(self.hash, &self.bytes, sender.label(), &[handshake_hash], &mut out);
        out
    }

    /// Checks a received Finished body against the expected `verify_data` in constant
    /// time: [`PeerMisbehaved::BadFinished`] if it differs (or is not 12 bytes).
    pub fn check_finished(
        &self,
        sender: Sender,
        handshake_hash: &[u8],
        received: &[u8],
    ) -> Result<(), Error> {
        let expected = self.verify_data(sender, handshake_hash);
        if received.len() == VERIFY_DATA_LEN && bool::from(expected.ct_eq(received)) {
            Ok(())
        } else {
            Err(PeerMisbehaved::BadFinished.into())
        }
    }

    /// Exported keying material (RFC 5705 §4): `PRF(master_secret, label, client_random ‖
    /// server_random [‖ uint16 context_length ‖ context])`. An absent context and an empty
    /// one give different output, as the RFC requires. A label the handshake itself uses
    /// (`"master secret"`, `"key expansion"`…), or a context over 65535 bytes, is
    /// [`ApiMisuse::BadConfig`].
    pub fn export(
        &self,
        label: &[u8],
        context: Option<&[u8]>,
        client_random: &[u8; RANDOM_LEN],
        server_random: &[u8; RANDOM_LEN],
        out: &mut [u8],
    ) -> Result<(), Error> {
        if RESERVED_LABELS.contains(&label) {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        match context {
            None => suite_prf(self.hash, &self.bytes, label, &[client_random, server_random], out),
            Some(ctx) => {
                let len = u16::try_from(ctx.len())
                    .map_err(|_| Error::ApiMisuse(ApiMisuse::BadConfig))?
                    .to_be_bytes();
                suite_prf(
                    self.hash,
                    &self.bytes,
                    label,
                    &[client_random, server_random, &len, ctx],
                    out,
                );
            }
        }
        Ok(())
    }
}

impl Drop for MasterSecret {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

impl fmt::Debug for MasterSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MasterSecret({:?}, ..)", self.hash)
    }
}

/// The write keys and IVs (and MAC keys, for a CBC suite) of both directions, wiped on drop.
pub struct KeyBlock {
    client_mac: [u8; MAX_MAC_KEY_LEN],
    server_mac: [u8; MAX_MAC_KEY_LEN],
    mac_len: usize,
    client_key: [u8; MAX_KEY_LEN],
    server_key: [u8; MAX_KEY_LEN],
    client_iv: [u8; MAX_IV_LEN],
    server_iv: [u8; MAX_IV_LEN],
    key_len: usize,
    iv_len: usize,
}

impl KeyBlock {
    /// `client_write_MAC_key` (empty for an AEAD suite).
    pub fn client_mac_key(&self) -> &[u8] {
        &self.client_mac[..self.mac_len]
    }

    /// `server_write_MAC_key` (empty for an AEAD suite).
    pub fn server_mac_key(&self) -> &[u8] {
        &self.server_mac[..self.mac_len]
    }

    /// `client_write_key`.
    pub fn client_key(&self) -> &[u8] {
        &self.client_key[..self.key_len]
    }

    /// `server_write_key`.
    pub fn server_key(&self) -> &[u8] {
        &self.server_key[..self.key_len]
    }

    /// `client_write_IV` (4 bytes for GCM/CCM, 12 for ChaCha20-Poly1305).
    pub fn client_iv(&self) -> &[u8] {
        &self.client_iv[..self.iv_len]
    }

    /// `server_write_IV`.
    pub fn server_iv(&self) -> &[u8] {
        &self.server_iv[..self.iv_len]
    }
}

impl Drop for KeyBlock {
    fn drop(&mut self) {
        self.client_mac.zeroize();
        self.server_mac.zeroize();
        self.client_key.zeroize();
        self.server_key.zeroize();
        self.client_iv.zeroize();
        self.server_iv.zeroize();
    }
}

impl fmt::Debug for KeyBlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyBlock(key {} bytes, iv {} bytes, ..)", self.key_len, self.iv_len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hex_literal::hex;

    const CLIENT_RANDOM: [u8; 32] = [0xaa; 32];
    const SERVER_RANDOM: [u8; 32] = [0xbb; 32];
    const PMS: [u8; 66] = [0xcc; 66];
    /// `openssl kdf -keylen 48 -kdfopt digest:SHA256 -kdfopt hexsecret:cc…cc (66 bytes)
    /// -kdfopt hexseed:<"master secret">aa…aa(32)bb…bb(32) TLS1-PRF`
    const MASTER: [u8; 48] = hex!(
        "1017f2d50f5c4f63884f5d2f4ae0d88e6646f5efd9a5e84a1c59b17511c47321"
        "e448756d048f1ef527ab9847073e3273"
    );

    #[test]
    fn prf_output_is_a_prefix_whatever_its_length() {
        let mut long = [0u8; 97];
        prf(HashAlg::Sha384, b"k", b"l", &[b"s"], &mut long).unwrap();
        for n in [0, 1, 47, 48, 49, 96] {
            let mut short = [0u8; 97];
            prf(HashAlg::Sha384, b"k", b"l", &[b"s"], &mut short[..n]).unwrap();
            assert_eq!(short[..n], long[..n], "length {n}");
        }
        // A split seed is the same seed.
        let mut split = [0u8; 97];
        prf(HashAlg::Sha384, b"k", b"", &[b"l", b"", b"s"], &mut split).unwrap();
        assert_eq!(split, long);
    }

    #[test]
    fn master_secret_matches_openssl() {
        let pms = PreMasterSecret::new(&PMS).unwrap();
        let ms = pms.into_master(HashAlg::Sha256, &CLIENT_RANDOM, &SERVER_RANDOM).unwrap();
        assert_eq!(ms.as_bytes(), &MASTER);
    }

    /// `openssl kdf -keylen 48 -kdfopt digest:SHA384 -kdfopt hexsecret:cc…cc (66 bytes)
    /// -kdfopt hexseed:<hex "extended master secret"><SHA-384("session")> TLS1-PRF`
    #[test]
    fn extended_master_secret_matches_openssl() {
        let session_hash = HashAlg::Sha384.digest(b"session");
        assert_eq!(
            session_hash.as_ref(),
            hex!(
                "b1e24729396710ce6a41d8ebcb1a55709bd807a101ba2743843b0d5f73e1b4da"
                "49e07126f16045a39676de257a1ed8a8"
            )
        );
        let pms = PreMasterSecret::new(&PMS).unwrap();
        let ms = pms.into_extended_master(HashAlg::Sha384, session_hash.as_ref()).unwrap();
        assert_eq!(
            ms.as_bytes(),
            &hex!(
                "4815f59659aa7cc49d45b0dae017704a489388363b747f30407e1b32e13ce61b"
                "94003c64c862912f34511143317c00ba"
            )
        );
        assert_eq!(ms.hash(), HashAlg::Sha384);
    }

    /// `openssl kdf -keylen 88 -kdfopt digest:SHA256 -kdfopt hexsecret:<MASTER>
    /// -kdfopt hexseed:<hex "key expansion">bb…bb(32)aa…aa(32) TLS1-PRF` (the 40-byte
    /// block is its prefix).
    #[test]
    fn key_block_matches_openssl_for_gcm_and_chacha() {
        let ms = MasterSecret::from_bytes(HashAlg::Sha256, &MASTER).unwrap();
        let full = hex!(
            "5b27a182d14b8b8d99fbf413ba73c4c7470f1a3c010194a6c27e3a3fad0a39a2"
            "816ce32ca352aa07011ca3f91ff41c8d57d22ef7e610812efc15db534b6ffd55"
            "675644a2fbf875a68c65eb2b1c515c11cd1673ac45369616"
        );
        // AES-128-GCM: 16-byte keys, 4-byte fixed IVs.
        let kb = ms.key_block(16, 4, &CLIENT_RANDOM, &SERVER_RANDOM).unwrap();
        assert_eq!(kb.client_key(), &full[..16]);
        assert_eq!(kb.server_key(), &full[16..32]);
        assert_eq!(kb.client_iv(), &full[32..36]);
        assert_eq!(kb.server_iv(), &full[36..40]);
        // ChaCha20-Poly1305: 32-byte keys, 12-byte IVs (RFC 7905).
        let kb = ms.key_block(32, 12, &CLIENT_RANDOM, &SERVER_RANDOM).unwrap();
        assert_eq!(kb.client_key(), &full[..32]);
        assert_eq!(kb.server_key(), &full[32..64]);
        assert_eq!(kb.client_iv(), &full[64..76]);
        assert_eq!(kb.server_iv(), &full[76..88]);
        assert!(ms.key_block(33, 4, &CLIENT_RANDOM, &SERVER_RANDOM).is_err());
        assert!(ms.key_block(16, 17, &CLIENT_RANDOM, &SERVER_RANDOM).is_err());
    }

    /// `openssl kdf -keylen 12 -kdfopt digest:SHA256 -kdfopt hexsecret:<MASTER>
    /// -kdfopt hexseed:<hex "client finished"/"server finished"><SHA-256("handshake")>
    /// TLS1-PRF`
    #[test]
    fn finished_matches_openssl_and_is_checked() {
        let ms = MasterSecret::from_bytes(HashAlg::Sha256, &MASTER).unwrap();
        let hh = HashAlg::Sha256.digest(b"handshake");
        let client = hex!("0cdf4e46d99c0f7ca6eabff3");
        let server = hex!("089a779e2d61203d7a09b4f6");
        assert_eq!(ms.verify_data(Sender::Client, hh.as_ref()), client);
        assert_eq!(ms.verify_data(Sender::Server, hh.as_ref()), server);
        assert_eq!(ms.check_finished(Sender::Client, hh.as_ref(), &client), Ok(()));
        let bad = Err(Error::PeerMisbehaved(PeerMisbehaved::BadFinished));
        assert_eq!(ms.check_finished(Sender::Server, hh.as_ref(), &client), bad);
        assert_eq!(ms.check_finished(Sender::Client, hh.as_ref(), &client[..11]), bad);
        assert_eq!(ms.check_finished(Sender::Client, hh.as_ref(), &[]), bad);
        for i in 0..12 {
            let mut c = client;
            c[i] ^= 1;
            assert_eq!(ms.check_finished(Sender::Client, hh.as_ref(), &c), bad);
        }
    }

    /// `openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt hexsecret:<MASTER>
    /// -kdfopt hexseed:<hex "EXPERIMENTAL test">aa…aa(32)bb…bb(32)[0003 "ctx" | 0000]
    /// TLS1-PRF`
    #[test]
    fn exporter_matches_openssl_and_tells_absent_from_empty_context() {
        let ms = MasterSecret::from_bytes(HashAlg::Sha256, &MASTER).unwrap();
        let mut out = [0u8; 32];
        let label = b"EXPERIMENTAL test";
        let (c, s) = (&CLIENT_RANDOM, &SERVER_RANDOM);
        ms.export(label, None, c, s, &mut out).unwrap();
        assert_eq!(out, hex!("50fed4c8a8e1c9adce421b21fa915cf4579d5b721d544cc5645372de39906b2a"));
        ms.export(label, Some(b"ctx"), c, s, &mut out).unwrap();
        assert_eq!(out, hex!("3a4b12a7ba905968f676911cd4e54b8b4a878ab947185be01270f12760bf960a"));
        ms.export(label, Some(b""), c, s, &mut out).unwrap();
        assert_eq!(out, hex!("75456fec4e6e6be33aa6505f735d13307a86ba366626eacebac13008ab15bb87"));
        let misuse = Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        for reserved in RESERVED_LABELS {
            assert_eq!(ms.export(reserved, None, c, s, &mut out), misuse);
        }
        let huge = std::vec![0u8; 65536];
        assert_eq!(ms.export(label, Some(&huge), c, s, &mut out), misuse);
        assert!(ms.export(label, Some(&huge[1..]), c, s, &mut out).is_ok());
    }

    #[test]
    fn premaster_lengths_are_checked_and_secrets_do_not_print() {
        assert!(PreMasterSecret::new(&[]).is_err());
        assert!(PreMasterSecret::new(&[1; MAX_PREMASTER_LEN + 1]).is_err());
        assert!(PreMasterSecret::new(&[1; MAX_PREMASTER_LEN]).is_ok());
        let pms = PreMasterSecret::new(&[1; 32]).unwrap();
        assert_eq!(std::format!("{pms:?}"), "PreMasterSecret(..)");
        let ms = MasterSecret::from_bytes(HashAlg::Sha256, &[0x42; 48]).unwrap();
        assert!(!std::format!("{ms:?}").contains("42"));
        let kb = ms.key_block(16, 4, &CLIENT_RANDOM, &SERVER_RANDOM).unwrap();
        assert_eq!(std::format!("{kb:?}"), "KeyBlock(key 16 bytes, iv 4 bytes, ..)");
    }

    fn rustls_prf(suite: rustls::SupportedCipherSuite) -> &'static dyn rustls::crypto::tls12::Prf {
        match suite {
            rustls::SupportedCipherSuite::Tls12(s) => s.prf_provider,
            rustls::SupportedCipherSuite::Tls13(_) => unreachable!("a TLS 1.2 suite"),
        }
    }

    proptest::proptest! {
        /// The PRF equals rustls's (its ring provider) for any secret, label, seed and length.
        #[test]
        fn prf_matches_rustls(
            secret in proptest::collection::vec(proptest::prelude::any::<u8>(), 1..200),
            label in proptest::collection::vec(proptest::prelude::any::<u8>(), 1..40),
            seed in proptest::collection::vec(proptest::prelude::any::<u8>(), 1..100),
            len in 0usize..300,
        ) {
            use rustls::crypto::ring::cipher_suite as cs;
            for (hash, suite) in [
                (HashAlg::Sha256, cs::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256),
                (HashAlg::Sha384, cs::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384),
            ] {
                let mut ours = std::vec![0u8; len];
                let mut theirs = std::vec![0u8; len];
                prf(hash, &secret, &label, &[&seed], &mut ours).unwrap();
                rustls_prf(suite).for_secret(&mut theirs, &secret, &label, &seed);
                proptest::prop_assert_eq!(&ours, &theirs, "{:?}", hash);
            }
        }
    }
}
