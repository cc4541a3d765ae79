//! HPKE (RFC 9180) for rustls's Encrypted Client Hello, on core-hpke: the `Hpke` suites
//! rustls selects from an `ECHConfigList` (or uses for ECH GREASE), each a core-hpke suite
//! behind rustls's `Hpke`, `HpkeSealer` and `HpkeOpener` traits.
//!
//! Eighteen suites: the twelve of rustls's aws-lc-rs provider, under its names
//! (`DH_KEM_<curve>_<KEM's HKDF>_<AEAD>`, the symmetric KDF the KEM's), and X25519 and P-256
//! with HKDF-SHA384 as the symmetric KDF, which name it after the KEM's
//! (`DH_KEM_X25519_HKDF_SHA256_HKDF_SHA384_<AEAD>`).
//!
//! ```
//! use rustls::client::{EchGreaseConfig, EchMode};
//! use rustls::crypto::hpke::Hpke;
//! use rustls_halite::hpke;
//!
//! // ECH GREASE: an ECH extension sealed to a throwaway key, for servers without ECH.
//! let suite = hpke::DH_KEM_X25519_HKDF_SHA256_AES_128;
//! let (placeholder, _) = suite.generate_key_pair()?;
//! let grease = EchMode::Grease(EchGreaseConfig::new(suite, placeholder));
//! let config = rustls::ClientConfig::builder_with_provider(rustls_halite::default_provider().into())
//!     .with_ech(grease)?;
//!
//! // A real `ECHConfigList` (from the server's HTTPS DNS record) is matched against these:
//! // `EchConfig::new(list, hpke::ALL_SUPPORTED_SUITES)`.
//! # let _ = config;
//! # Ok::<(), rustls::Error>(())
//! ```

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use core_hpke::{
    Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, DhKemP256HkdfSha256, DhKemP384HkdfSha384,
    DhKemP521HkdfSha512, DhKemX25519HkdfSha256, HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Kem, Mode,
    OsRandom, RecipientContext, SenderContext,
};
use rustls::crypto::hpke::{
    EncapsulatedSecret, Hpke, HpkeOpener, HpkePrivateKey, HpkePublicKey, HpkeSealer, HpkeSuite,
};
use rustls::internal::msgs::enums::{HpkeAead, HpkeKdf, HpkeKem};
use rustls::internal::msgs::handshake::HpkeSymmetricCipherSuite;
use rustls::{Error, OtherError};

/// One HPKE suite: KEM `K`, KDF `F` and AEAD `A` of core-hpke, as a rustls [`Hpke`].
pub struct HaliteHpke<K, F, A>(Types<K, F, A>);

/// The suite's types, held as a function's result so the suite is `Send` and `Sync` whatever
/// they are: it holds no value of them.
type Types<K, F, A> = PhantomData<fn() -> (K, F, A)>;

impl<K, F, A> HaliteHpke<K, F, A> {
    const SUITE: Self = Self(PhantomData);
}

type Suite<K, F, A> = core_hpke::Hpke<K, F, A>;

impl<K, F, A> Hpke for HaliteHpke<K, F, A>
where
    K: Kem + 'static,
    K::SecretKey: Send + Sync,
    F: Kdf + 'static,
    A: core_hpke::Aead + Send + Sync + 'static,
{
    fn seal(
        &self,
        info: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        pub_key: &HpkePublicKey,
    ) -> Result<(EncapsulatedSecret, Vec<u8>), Error> {
        let (enc, mut sealer) = self.setup_sealer(info, pub_key)?;
        Ok((enc, sealer.seal(aad, plaintext)?))
    }

    fn setup_sealer(
        &self,
        info: &[u8],
        pub_key: &HpkePublicKey,
    ) -> Result<(EncapsulatedSecret, Box<dyn HpkeSealer + 'static>), Error> {
        let pk_r = K::deserialize_public_key(&pub_key.0).map_err(other)?;
        let (enc, context) = Suite::<K, F, A>::setup_sender(&pk_r, info, Mode::Base, &mut OsRandom)
            .map_err(other)?;
        Ok((EncapsulatedSecret(enc.as_ref().to_vec()), Box::new(Sealer(context))))
    }

    fn open(
        &self,
        enc: &EncapsulatedSecret,
        info: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        secret_key: &HpkePrivateKey,
    ) -> Result<Vec<u8>, Error> {
        self.setup_opener(enc, info, secret_key)?.open(aad, ciphertext)
    }

    fn setup_opener(
        &self,
        enc: &EncapsulatedSecret,
        info: &[u8],
        secret_key: &HpkePrivateKey,
    ) -> Result<Box<dyn HpkeOpener + 'static>, Error> {
        let sk_r = K::deserialize_private_key(secret_key.secret_bytes()).map_err(other)?;
        let context =
            Suite::<K, F, A>::setup_recipient(&enc.0, &sk_r, info, Mode::Base).map_err(other)?;
        Ok(Box::new(Opener(context)))
    }

    fn generate_key_pair(&self) -> Result<(HpkePublicKey, HpkePrivateKey), Error> {
        let (sk, pk) = K::generate_key_pair(&mut OsRandom).map_err(other)?;
        let public = HpkePublicKey(K::serialize_public_key(&pk).as_ref().to_vec());
        let private = HpkePrivateKey::from(K::serialize_private_key(&sk).as_ref().to_vec());
        Ok((public, private))
    }

    fn suite(&self) -> HpkeSuite {
        HpkeSuite {
            kem: HpkeKem::from(K::ID),
            sym: HpkeSymmetricCipherSuite {
                kdf_id: HpkeKdf::from(F::ID),
                aead_id: HpkeAead::from(A::ID),
            },
        }
    }
}

impl<K, F, A> fmt::Debug for HaliteHpke<K, F, A>
where
    Self: Hpke,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.suite().fmt(f)
    }
}

/// A sender's context as rustls's [`HpkeSealer`].
struct Sealer<F: Kdf, A: core_hpke::Aead>(SenderContext<F, A>);

impl<F: Kdf + 'static, A: core_hpke::Aead + Send + Sync + 'static> HpkeSealer for Sealer<F, A> {
    fn seal(&mut self, aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        let mut sealed = plaintext.to_vec();
        sealed.resize(plaintext.len() + A::TAG_LEN, 0);
        let len = self.0.seal_in_place_append_tag(aad, &mut sealed, plaintext.len());
        len.map_err(other)?;
        Ok(sealed)
    }
}

/// A recipient's context as rustls's [`HpkeOpener`].
struct Opener<F: Kdf, A: core_hpke::Aead>(RecipientContext<F, A>);

impl<F: Kdf + 'static, A: core_hpke::Aead + Send + Sync + 'static> HpkeOpener for Opener<F, A> {
    fn open(&mut self, aad: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
        let mut buf = ciphertext.to_vec();
        let len = self.0.open_in_place(aad, &mut buf).map_err(other)?.len();
        buf.truncate(len);
        Ok(buf)
    }
}

macro_rules! debug_as_context {
    ($($name:ident),*) => {$(
        impl<F: Kdf, A: core_hpke::Aead> fmt::Debug for $name<F, A> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}
debug_as_context!(Sealer, Opener);

/// A forged ciphertext is rustls's `DecryptError`; anything else (a bad key, a spent
/// context) keeps core-hpke's error.
fn other(e: core_hpke::Error) -> Error {
    match e {
        core_hpke::Error::OpenFailed => Error::DecryptError,
        e => Error::Other(OtherError(Arc::new(e))),
    }
}

macro_rules! suites {
    ($($(#[$doc:meta])* $name:ident = $kem:ty, $kdf:ty, $aead:ty;)*) => {
        $(
            $(#[$doc])*
            pub static $name: &HaliteHpke<$kem, $kdf, $aead> = &HaliteHpke::SUITE;
        )*
        /// Every suite above, in that order: X25519, then the NIST curves by size, each
        /// with the KEM's KDF; then the HKDF-SHA384 ones.
        pub static ALL_SUPPORTED_SUITES: &[&dyn Hpke] = &[$($name),*];
    };
}

suites! {
    /// DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM.
    DH_KEM_X25519_HKDF_SHA256_AES_128 = DhKemX25519HkdfSha256, HkdfSha256, Aes128Gcm;
    /// DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM.
    DH_KEM_X25519_HKDF_SHA256_AES_256 = DhKemX25519HkdfSha256, HkdfSha256, Aes256Gcm;
    /// DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305.
    DH_KEM_X25519_HKDF_SHA256_CHACHA20_POLY1305 =
        DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305;
    /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM.
    DH_KEM_P256_HKDF_SHA256_AES_128 = DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm;
    /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM.
    DH_KEM_P256_HKDF_SHA256_AES_256 = DhKemP256HkdfSha256, HkdfSha256, Aes256Gcm;
    /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305.
    DH_KEM_P256_HKDF_SHA256_CHACHA20_POLY1305 = DhKemP256HkdfSha256, HkdfSha256, ChaCha20Poly1305;
    /// DHKEM(P-384, HKDF-SHA384), HKDF-SHA384, AES-128-GCM.
    DH_KEM_P384_HKDF_SHA384_AES_128 = DhKemP384HkdfSha384, HkdfSha384, Aes128Gcm;
    /// DHKEM(P-384, HKDF-SHA384), HKDF-SHA384, AES-256-GCM.
    DH_KEM_P384_HKDF_SHA384_AES_256 = DhKemP384HkdfSha384, HkdfSha384, Aes256Gcm;
    /// DHKEM(P-384, HKDF-SHA384), HKDF-SHA384, ChaCha20-Poly1305.
    DH_KEM_P384_HKDF_SHA384_CHACHA20_POLY1305 = DhKemP384HkdfSha384, HkdfSha384, ChaCha20Poly1305;
    /// DHKEM(P-521, HKDF-SHA512), HKDF-SHA512, AES-128-GCM.
    DH_KEM_P521_HKDF_SHA512_AES_128 = DhKemP521HkdfSha512, HkdfSha512, Aes128Gcm;
    /// DHKEM(P-521, HKDF-SHA512), HKDF-SHA512, AES-256-GCM.
    DH_KEM_P521_HKDF_SHA512_AES_256 = DhKemP521HkdfSha512, HkdfSha512, Aes256Gcm;
    /// DHKEM(P-521, HKDF-SHA512), HKDF-SHA512, ChaCha20-Poly1305.
    DH_KEM_P521_HKDF_SHA512_CHACHA20_POLY1305 = DhKemP521HkdfSha512, HkdfSha512, ChaCha20Poly1305;
    /// DHKEM(X25519, HKDF-SHA256), HKDF-SHA384, AES-128-GCM.
    DH_KEM_X25519_HKDF_SHA256_HKDF_SHA384_AES_128 = DhKemX25519HkdfSha256, HkdfSha384, Aes128Gcm;
    /// DHKEM(X25519, HKDF-SHA256), HKDF-SHA384, AES-256-GCM.
    DH_KEM_X25519_HKDF_SHA256_HKDF_SHA384_AES_256 = DhKemX25519HkdfSha256, HkdfSha384, Aes256Gcm;
    /// DHKEM(X25519, HKDF-SHA256), HKDF-SHA384, ChaCha20-Poly1305.
    DH_KEM_X25519_HKDF_SHA256_HKDF_SHA384_CHACHA20_POLY1305 =
        DhKemX25519HkdfSha256, HkdfSha384, ChaCha20Poly1305;
    /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA384, AES-128-GCM.
    DH_KEM_P256_HKDF_SHA256_HKDF_SHA384_AES_128 = DhKemP256HkdfSha256, HkdfSha384, Aes128Gcm;
    /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA384, AES-256-GCM.
    DH_KEM_P256_HKDF_SHA256_HKDF_SHA384_AES_256 = DhKemP256HkdfSha256, HkdfSha384, Aes256Gcm;
    /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA384, ChaCha20-Poly1305.
    DH_KEM_P256_HKDF_SHA256_HKDF_SHA384_CHACHA20_POLY1305 =
        DhKemP256HkdfSha256, HkdfSha384, ChaCha20Poly1305;
}
