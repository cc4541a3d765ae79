//! What the handshake and the record layer need from their cryptography, as traits a user can
//! implement: a record AEAD ([`RecordAead`]), a key-exchange group ([`KeyExchange`]) and a
//! certificate's private key ([`Signer`]).
//!
//! Halite's own primitives are the default table: the suites of [`crate::suites`] name
//! `core-aead` ciphers, the groups of [`crate::kx`] are `core-ec`'s, and a
//! [`SigningKey`](crate::SigningKey) signs with `core-ec` or `core-rsa`. A configuration
//! replaces an entry by naming an implementation of one of these traits instead — a hardware
//! AES engine as [`AeadAlg::Custom`](crate::suites::AeadAlg::Custom) in a [`Suite`](crate::suites::Suite),
//! a group `core-ec` lacks in `key_exchanges`, a key held by a secure element as the `key` of a
//! [`CertifiedKey`](crate::CertifiedKey). No allocator is needed: AEADs and groups are
//! `&'static` objects that keep no per-connection state themselves (the connection stores the
//! key material they are handed), signers are borrowed for the configuration's lifetime.
//!
//! ```
//! use tls::provider::RecordAead;
//! use tls::suites::{AeadAlg, Suite};
//! use tls::msgs::CipherSuite;
//! use tls::key_schedule::HashAlg;
//! use core_aead::{Aead, Aes128Gcm};
//!
//! /// AES-128-GCM through `core-aead`, keyed per record — where a hardware engine would go.
//! #[derive(Debug)]
//! struct MyGcm;
//!
//! impl RecordAead for MyGcm {
//!     fn key_len(&self) -> usize { 16 }
//!     fn tag_len(&self) -> usize { 16 }
//!     fn seal(&self, key: &[u8], nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], tag: &mut [u8])
//!         -> Result<(), tls::Error> {
//!         let aead = Aes128Gcm::new(key).map_err(|_| tls::Error::RecordOverflow)?;
//!         let t = aead.seal_in_place_detached(nonce, aad, buf).map_err(|_| tls::Error::RecordOverflow)?;
//!         tag.copy_from_slice(t.as_ref());
//!         Ok(())
//!     }
//!     fn open(&self, key: &[u8], nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], tag: &[u8])
//!         -> Result<(), tls::Error> {
//!         let aead = Aes128Gcm::new(key).map_err(|_| tls::Error::DecryptFailed)?;
//!         aead.open_in_place_detached(nonce, aad, buf, tag).map_err(|_| tls::Error::DecryptFailed)
//!     }
//! }
//!
//! static MY_GCM: MyGcm = MyGcm;
//! let suite = Suite {
//!     suite: CipherSuite::TLS13_AES_128_GCM_SHA256,
//!     hash: HashAlg::Sha256,
//!     aead: AeadAlg::Custom(&MY_GCM),
//! };
//! let suites = [suite];
//! # let roots = [];
//! let config = tls::ClientConfig { suites: &suites, ..tls::ClientConfig::new(&roots, &tls::SystemClock) };
//! # let _ = config;
//! ```

use core::fmt::Debug;

use core_hash::RandomSource;
use zeroize::Zeroize;

use crate::error::{ApiMisuse, Error};
use crate::kx::{MAX_PUBLIC_LEN, MAX_SHARED_LEN};
use crate::msgs::{NamedGroup, SignatureScheme};
use crate::sign::MAX_SIGNATURE_LEN;

/// The longest key a [`RecordAead`] may ask for (the key schedule derives at most 32 bytes).
pub const MAX_AEAD_KEY_LEN: usize = 32;
/// The longest tag a [`RecordAead`] may produce.
pub const MAX_AEAD_TAG_LEN: usize = 16;
/// The longest private key a [`KeyExchange`] may keep in a connection: room for a hybrid's
/// ML-KEM key as its 64-byte seed and a P-384 scalar (a KEM keeps its seed, not the expanded
/// decapsulation key, as the built-in hybrids do).
pub const MAX_KX_SECRET_LEN: usize = 64 + 48;

/// An AEAD that protects TLS 1.3 records, given the traffic key on every call.
///
/// The connection derives the key (`key_len` bytes) and keeps it, zeroized when replaced; the
/// implementation may cache a key schedule of its own. The record layer checks lengths,
/// builds the nonce (IV XOR sequence number) and the additional data (the record header),
/// and zeroes `buf` whenever `open` fails, so no unauthenticated plaintext is released
/// whatever the implementation leaves there.
pub trait RecordAead: Debug + Sync {
    /// Key length in bytes, 1 to [`MAX_AEAD_KEY_LEN`].
    fn key_len(&self) -> usize;
    /// Tag length in bytes, 1 to [`MAX_AEAD_TAG_LEN`].
    fn tag_len(&self) -> usize;
    /// Encrypts `buf` in place and writes the tag into `tag` (`tag_len` bytes).
    fn seal(
        &self,
        key: &[u8],
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        tag: &mut [u8],
    ) -> Result<(), Error>;
    /// Checks `tag` and decrypts `buf` in place; any error is reported to the peer as
    /// `bad_record_mac`.
    fn open(
        &self,
        key: &[u8],
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error>;
}

/// A key-exchange group for the `key_share` extension (RFC 8446 §4.2.8), shaped as a key
/// encapsulation mechanism so that Diffie–Hellman groups and KEMs (ML-KEM and its hybrids)
/// fit alike: the client makes a private key ([`keygen`](Self::keygen)) and sends its public
/// share ([`public`](Self::public)); the server answers with its own share and gets the
/// shared secret in one call ([`encapsulate`](Self::encapsulate)); the client gets the same
/// secret from the server's share ([`decapsulate`](Self::decapsulate)). A Diffie–Hellman group
/// needs only `keygen`, `public` and `decapsulate` (the Diffie–Hellman function of our private
/// key and the peer's share): the default `encapsulate` is a fresh key pair and that same
/// function. Listed in a configuration's `key_exchanges`, it computes its group in place of
/// `core-ec` (or adds one `core-ec` lacks: the group must also be in `groups` to be offered or
/// accepted).
///
/// A connection keeps only the private key (at most [`MAX_KX_SECRET_LEN`] bytes), not the
/// public share (up to [`MAX_PUBLIC_LEN`]): it asks for the share each time it sends it,
/// which is once per handshake, twice after a HelloRetryRequest that asks only for a cookie.
pub trait KeyExchange: Debug + Sync {
    /// The group's code point.
    fn group(&self) -> NamedGroup;
    /// Client: makes a fresh private key from `rng`, written to the front of `secret`;
    /// returns its length. The connection keeps the secret and zeroizes it when it is done.
    fn keygen(
        &self,
        rng: &mut dyn RandomSource,
        secret: &mut [u8; MAX_KX_SECRET_LEN],
    ) -> Result<usize, Error>;
    /// The public share of `secret` (as `keygen` wrote it) in wire encoding, written to the
    /// front of `public`; returns its length. It must be the same bytes every time: a
    /// ClientHello sent again after a HelloRetryRequest repeats the share (RFC 8446 §4.1.2).
    fn public(&self, secret: &[u8], public: &mut [u8; MAX_PUBLIC_LEN]) -> Result<usize, Error>;
    /// Client: the shared secret of `secret` (as `keygen` wrote it) and the server's share,
    /// written to the front of `out`; returns its length. A share that is not valid must be
    /// an error ([`PeerMisbehaved::InvalidKeyShare`](crate::PeerMisbehaved::InvalidKeyShare)
    /// is answered with `illegal_parameter`).
    fn decapsulate(
        &self,
        secret: &[u8],
        server_share: &[u8],
        out: &mut [u8; MAX_SHARED_LEN],
    ) -> Result<usize, Error>;
    /// Server: from the client's share, the server's share (written to the front of
    /// `server_share`) and the shared secret (to the front of `out`); returns the two lengths.
    /// A client share that is not valid must be an error, as for `decapsulate`.
    ///
    /// The default is the Diffie–Hellman one: a fresh key by [`keygen`](Self::keygen), whose
    /// [`public`](Self::public) value is the server's share, and
    /// [`decapsulate`](Self::decapsulate) of that key with the client's share. A KEM must
    /// provide its own.
    fn encapsulate(
        &self,
        rng: &mut dyn RandomSource,
        client_share: &[u8],
        server_share: &mut [u8; MAX_PUBLIC_LEN],
        out: &mut [u8; MAX_SHARED_LEN],
    ) -> Result<(usize, usize), Error> {
        let mut secret = [0u8; MAX_KX_SECRET_LEN];
        let r = self.keygen(rng, &mut secret).and_then(|s| {
            let private = secret.get(..s).ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
            let p = self.public(private, server_share)?;
            Ok((p, self.decapsulate(private, client_share, out)?))
        });
        secret.zeroize();
        r
    }
}

/// The private key of a certificate, signing CertificateVerify messages.
/// [`SigningKey`](crate::SigningKey) implements it with `core-ec` and `core-rsa`.
pub trait Signer: Debug + Sync {
    /// The schemes this key can sign with, in order of preference.
    fn schemes(&self) -> &[SignatureScheme];
    /// The schemes this key can sign with in TLS 1.2 (a ServerKeyExchange, a client's
    /// CertificateVerify), in order of preference. TLS 1.2 reads an `ecdsa_*` scheme as
    /// "ECDSA with this hash" whatever the key's curve and allows RSA PKCS#1 v1.5 (RFC 5246
    /// §7.4.1.4.1, RFC 8422 §5.1.1), so this may list more than [`schemes`](Self::schemes);
    /// by default it is the same list, which means the same in 1.2.
    fn tls12_schemes(&self) -> &[SignatureScheme] {
        self.schemes()
    }
    /// Signs `msg` with `scheme` (one of [`schemes`](Self::schemes) or
    /// [`tls12_schemes`](Self::tls12_schemes)) into `out`; returns the signature's length.
    /// `rng` is there for randomized schemes (RSA-PSS salts, blinding).
    fn sign(
        &self,
        scheme: SignatureScheme,
        msg: &[u8],
        rng: &mut dyn RandomSource,
        out: &mut [u8; MAX_SIGNATURE_LEN],
    ) -> Result<usize, Error>;
    /// The TLS 1.2 schemes this key can sign a message *hash* with
    /// ([`sign_digest`](Self::sign_digest)), in order of preference, of those whose hash is
    /// SHA-256 or SHA-384. A TLS 1.2 client's CertificateVerify signs every handshake message
    /// so far (RFC 5246 §7.4.8), which a client without an allocator does not keep: it keeps
    /// running SHA-256 and SHA-384 hashes instead and signs one of them. Empty by default
    /// (and for Ed25519, which signs whole messages): such a key answers a TLS 1.2
    /// CertificateRequest with an empty Certificate.
    fn tls12_digest_schemes(&self) -> &[SignatureScheme] {
        &[]
    }
    /// Signs a message given as its `digest` under `scheme`'s hash, with `scheme` (one of
    /// [`tls12_digest_schemes`](Self::tls12_digest_schemes)), into `out`; returns the
    /// signature's length. The default refuses ([`crate::ApiMisuse::BadConfig`]).
    fn sign_digest(
        &self,
        scheme: SignatureScheme,
        digest: &[u8],
        rng: &mut dyn RandomSource,
        out: &mut [u8; MAX_SIGNATURE_LEN],
    ) -> Result<usize, Error> {
        let _ = (scheme, digest, rng, out);
        Err(Error::ApiMisuse(crate::error::ApiMisuse::BadConfig))
    }
}

/// Our most preferred scheme of `key` that `offered` accepts.
pub(crate) fn choose_scheme(
    key: &dyn Signer,
    offered: impl Fn(SignatureScheme) -> bool,
) -> Option<SignatureScheme> {
    key.schemes().iter().copied().find(|s| offered(*s))
}
