//! The public key, signature and ECDH types of one NIST curve, stamped out by [`nist_api!`]
//! in `p256.rs`, `p384.rs` and `p521.rs` so the three modules have the same shape; each
//! operation picks the field implementation the key was built with ([`with_curve!`]).

/// Runs `$body` with `$c` bound to the calling module's curve (`PARAMS`, `FP64`/`FQ64`,
/// `FP15`/`FQ15`) on implementation `$imp`.
macro_rules! with_curve {
    ($imp:expr, |$c:ident| $body:expr) => {
        match $imp {
            #[cfg(target_pointer_width = "64")]
            $crate::nist::P521Impl::Mont64 => {
                let $c = $crate::nist::point::Curve::new(&FP64, &FQ64, &PARAMS);
                $body
            }
            $crate::nist::P521Impl::Mont15 => {
                let $c = $crate::nist::point::Curve::new(&FP15, &FQ15, &PARAMS);
                $body
            }
        }
    };
}
pub(crate) use with_curve;

/// The public API of one curve: `$len` is the byte length of field elements and scalars,
/// `$hash` the hash ECDSA uses by default and `$imp` the curve's implementation enum
/// (re-exported under its own name in the curve's module). The calling module brings a
/// `with_curve!` macro into scope that dispatches on `$imp` (the shared [`with_curve!`] for
/// [`P521Impl`]).
///
/// [`P521Impl`]: crate::nist::P521Impl
macro_rules! nist_api {
    ($name:literal, $len:literal, $hash:ty, $hash_name:literal, $imp:ident) => {
        use $crate::nist::{der, ops};
        use $crate::Error;
        use core_hash::{Hash, RandomSource};
        #[cfg(test)]
        use core_hash::Implementation;
        use core::fmt;
        use zeroize::Zeroize;

        pub use $crate::nist::$imp;

        /// Bytes in a field element and in a scalar (private key, `r`, `s`).
        pub const SCALAR_LEN: usize = $len;
        /// Bytes in an uncompressed SEC1 point (`04‖x‖y`).
        pub const UNCOMPRESSED_LEN: usize = 1 + 2 * $len;
        /// Bytes in a compressed SEC1 point (`02`/`03‖x`).
        pub const COMPRESSED_LEN: usize = 1 + $len;
        /// Bytes in a fixed-size (IEEE P1363) signature `r‖s`.
        pub const SIGNATURE_LEN: usize = 2 * $len;
        /// Bytes in the DER `SubjectPublicKeyInfo` [`PublicKey::to_public_key_der`] writes.
        pub const PUBLIC_KEY_DER_LEN: usize = der::spki_len(OID.len(), UNCOMPRESSED_LEN);
        /// Bytes in the PEM [`PublicKey::to_public_key_pem`] writes.
        pub const PUBLIC_KEY_PEM_LEN: usize =
            core_der::pem::encoded_len($crate::encoding::PUBLIC_KEY_LABEL, PUBLIC_KEY_DER_LEN);
        /// Bytes in the DER PKCS#8 key [`SecretKey::to_pkcs8_der`] writes.
        pub const PKCS8_DER_LEN: usize = der::pkcs8_len($len, UNCOMPRESSED_LEN, OID.len());
        /// Bytes in the PEM [`SecretKey::to_pkcs8_pem`] writes.
        pub const PKCS8_PEM_LEN: usize =
            core_der::pem::encoded_len($crate::encoding::PKCS8_LABEL, PKCS8_DER_LEN);
        /// Bytes in the DER SEC1 `ECPrivateKey` [`SecretKey::to_sec1_der`] writes.
        pub const SEC1_DER_LEN: usize = der::sec1_len($len, UNCOMPRESSED_LEN, OID.len());
        /// Bytes in the PEM [`SecretKey::to_sec1_pem`] writes.
        pub const SEC1_PEM_LEN: usize =
            core_der::pem::encoded_len($crate::encoding::SEC1_LABEL, SEC1_DER_LEN);

        #[doc = concat!("A ", $name, " private scalar for ECDH (and the key inside a [`SigningKey`]): in `1..n`, wiped on drop.")]
        #[derive(Clone)]
        pub struct SecretKey {
            d: [u8; $len],
            imp: $imp,
        }

        impl SecretKey {
            /// The key with big-endian scalar `bytes`, which must be exactly
            /// [`SCALAR_LEN`] bytes and in `1..n`.
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                Self::from_bytes_with_impl(bytes, $imp::preferred())
            }

            /// As [`from_bytes`](Self::from_bytes), on a given implementation.
            pub fn from_bytes_with_impl(bytes: &[u8], imp: $imp) -> Result<Self, Error> {
                let d: [u8; $len] = bytes.try_into().map_err(|_| Error::InvalidLength)?;
                let ok = with_curve!(imp, |c| ops::scalar_in_range(&c, &d));
                let key = Self { d, imp };
                // The verdict is public (the call fails on it); declared so for `xtask ct`.
                if core_hash::declassify(bool::from(ok)) { Ok(key) } else { Err(Error::InvalidScalar) }
            }

            /// A fresh key from `rng`, by rejection sampling (FIPS 186-5 A.4.2).
            pub fn generate(rng: &mut impl RandomSource) -> Result<Self, Error> {
                Self::generate_with_impl(rng, $imp::preferred())
            }

            /// As [`generate`](Self::generate), on a given implementation.
            pub fn generate_with_impl(
                rng: &mut impl RandomSource,
                imp: $imp,
            ) -> Result<Self, Error> {
                let mut d = [0u8; $len];
                // Each draw is in range with probability above 1/2; 64 failures in a row
                // mean the source is broken.
                for _ in 0..64 {
                    rng.fill(&mut d).map_err(|_| Error::RandomSource)?;
                    d[0] &= top_mask();
                    if let Ok(key) = Self::from_bytes_with_impl(&d, imp) {
                        d.zeroize();
                        return Ok(key);
                    }
                }
                d.zeroize();
                Err(Error::RandomSource)
            }

            /// Reads a SEC1 `ECPrivateKey` (RFC 5915) for this curve. A public key inside it
            /// must match the private scalar; parameters naming another curve are
            /// [`Error::WrongAlgorithm`].
            pub fn from_sec1_der(der: &[u8]) -> Result<Self, Error> {
                let parsed = der::parse_ec_private_key(der, PARAMS.oid, $len)?;
                Self::from_parsed(&parsed)
            }

            /// Reads the first `EC PRIVATE KEY` (SEC1) block of a PEM text, such as
            /// `openssl ecparam -genkey` writes (an `EC PARAMETERS` block before it is
            /// skipped).
            pub fn from_sec1_pem(text: &str) -> Result<Self, Error> {
                core_der::pem::read_key::<{ $crate::encoding::MAX_DER }, _, _>(text, $crate::encoding::SEC1_LABEL, Self::from_sec1_der)
            }

            /// Reads a PKCS#8 `PrivateKeyInfo` (RFC 5208, or RFC 5958 v2) holding a key for
            /// this curve; a key of another kind is [`Error::WrongAlgorithm`] naming it.
            pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
                let parsed = der::parse_pkcs8(der, PARAMS.oid, $len)?;
                Self::from_parsed(&parsed)
            }

            /// Reads the first `PRIVATE KEY` (PKCS#8) block of a PEM text.
            pub fn from_pkcs8_pem(text: &str) -> Result<Self, Error> {
                core_der::pem::read_key::<{ $crate::encoding::MAX_DER }, _, _>(text, $crate::encoding::PKCS8_LABEL, Self::from_pkcs8_der)
            }

            fn from_parsed(parsed: &der::EcPrivateKey<'_>) -> Result<Self, Error> {
                let key = Self::from_bytes(parsed.scalar)?;
                if let Some(public) = parsed.public {
                    let given = PublicKey::from_sec1_bytes(public)?;
                    if given.xy != key.public_key().xy {
                        return Err(Error::InvalidEncoding);
                    }
                }
                Ok(key)
            }

            /// Writes the key as PKCS#8 v1 DER (with the public key in the inner
            /// `ECPrivateKey`); returns the length written. The output is secret.
            pub fn to_pkcs8_der(&self, out: &mut [u8]) -> Result<usize, Error> {
                let public = self.public_key().to_sec1_bytes();
                der::write_pkcs8(&self.d, &public, PARAMS.oid, out)
            }

            /// Writes the key as a `PRIVATE KEY` PEM block ([`PKCS8_PEM_LEN`] bytes) into
            /// `out`; returns the text. The output is secret.
            pub fn to_pkcs8_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
                core_der::pem::write_key::<PKCS8_DER_LEN, _>($crate::encoding::PKCS8_LABEL, out, |b| {
                    self.to_pkcs8_der(b)
                })
            }

            /// Writes the key as a SEC1 `ECPrivateKey` with the curve named in its parameters
            /// and the public key (as `openssl ec` writes it); returns the length written,
            /// [`SEC1_DER_LEN`]. The output is secret.
            pub fn to_sec1_der(&self, out: &mut [u8]) -> Result<usize, Error> {
                let public = self.public_key().to_sec1_bytes();
                der::write_ec_private_key(&self.d, &public, Some(PARAMS.oid), out)
            }

            /// Writes the key as an `EC PRIVATE KEY` PEM block ([`SEC1_PEM_LEN`] bytes) into
            /// `out`; returns the text. The output is secret.
            pub fn to_sec1_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
                core_der::pem::write_key::<SEC1_DER_LEN, _>($crate::encoding::SEC1_LABEL, out, |b| {
                    self.to_sec1_der(b)
                })
            }

            /// [`to_pkcs8_pem`](Self::to_pkcs8_pem) into a new `String`, wiped on drop.
            #[cfg(feature = "alloc")]
            pub fn to_pkcs8_pem_string(
                &self,
            ) -> Result<zeroize::Zeroizing<alloc::string::String>, Error> {
                core_der::pem::encode_string_with::<PKCS8_DER_LEN, _>(
                    $crate::encoding::PKCS8_LABEL,
                    |b| self.to_pkcs8_der(b),
                )
            }

            /// [`to_sec1_pem`](Self::to_sec1_pem) into a new `String`, wiped on drop.
            #[cfg(feature = "alloc")]
            pub fn to_sec1_pem_string(
                &self,
            ) -> Result<zeroize::Zeroizing<alloc::string::String>, Error> {
                core_der::pem::encode_string_with::<SEC1_DER_LEN, _>(
                    $crate::encoding::SEC1_LABEL,
                    |b| self.to_sec1_der(b),
                )
            }

            /// The big-endian scalar. The copy is the caller's to wipe.
            pub fn to_bytes(&self) -> [u8; $len] {
                self.d
            }

            /// The public key `d·G`.
            pub fn public_key(&self) -> PublicKey {
                let mut xy = [0u8; 2 * $len];
                let r = with_curve!(self.imp, |c| ops::public_key(&c, &self.d, &mut xy));
                // The scalar was checked when the key was built, so this cannot fail.
                debug_assert!(r.is_ok());
                PublicKey { xy, imp: self.imp }
            }

            /// The ECDH shared secret with `peer` (SEC 1 §3.3.1): the x-coordinate of `d·Q`.
            pub fn diffie_hellman(&self, peer: &PublicKey) -> Result<SharedSecret, Error> {
                let mut out = [0u8; $len];
                with_curve!(self.imp, |c| ops::ecdh(&c, &self.d, &peer.xy, &mut out))?;
                Ok(SharedSecret(out))
            }

            /// The implementation this key computes with.
            pub fn implementation(&self) -> $imp {
                self.imp
            }
        }

        impl Drop for SecretKey {
            fn drop(&mut self) {
                self.d.zeroize();
            }
        }

        impl fmt::Debug for SecretKey {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct("SecretKey").field("imp", &self.imp).finish_non_exhaustive()
            }
        }

        /// The mask for the top byte of a scalar: the bits above the group order's length.
        const fn top_mask() -> u8 {
            match PARAMS.qlen % 8 {
                0 => 0xff,
                r => (1u8 << r) - 1,
            }
        }

        #[doc = concat!("The ECDH function on ", $name, ": `secret`·`peer`, x-coordinate.")]
        pub fn ecdh(secret: &SecretKey, peer: &PublicKey) -> Result<SharedSecret, Error> {
            secret.diffie_hellman(peer)
        }

        /// An ECDH shared secret (the x-coordinate), wiped on drop. Feed it to a KDF.
        pub struct SharedSecret([u8; $len]);

        impl SharedSecret {
            /// The secret's bytes.
            pub fn as_bytes(&self) -> &[u8; $len] {
                &self.0
            }
        }

        impl Drop for SharedSecret {
            fn drop(&mut self) {
                self.0.zeroize();
            }
        }

        impl fmt::Debug for SharedSecret {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("SharedSecret(..)")
            }
        }

        #[doc = concat!("A ", $name, " public key: a point on the curve, never the identity, checked when built.")]
        ///
        /// Two keys are equal when their points are, whichever implementation each computes
        /// with.
        #[derive(Clone, Copy)]
        pub struct PublicKey {
            xy: [u8; 2 * $len],
            imp: $imp,
        }

        /// The key that verifies signatures is the public key.
        pub type VerifyingKey = PublicKey;

        impl PublicKey {
            /// Decodes a SEC1 point (uncompressed `04‖x‖y` or compressed `02`/`03‖x`),
            /// checking coordinate range and the curve equation.
            pub fn from_sec1_bytes(bytes: &[u8]) -> Result<Self, Error> {
                Self::from_sec1_bytes_with_impl(bytes, $imp::preferred())
            }

            /// As [`from_sec1_bytes`](Self::from_sec1_bytes), on a given implementation.
            pub fn from_sec1_bytes_with_impl(bytes: &[u8], imp: $imp) -> Result<Self, Error> {
                let mut xy = [0u8; 2 * $len];
                with_curve!(imp, |c| {
                    let (x, y) = c.decode(bytes)?;
                    $crate::nist::Field::to_be(c.fp, &x, &mut xy[..$len]);
                    $crate::nist::Field::to_be(c.fp, &y, &mut xy[$len..]);
                    Ok::<(), Error>(())
                })?;
                Ok(Self { xy, imp })
            }

            /// Reads a `SubjectPublicKeyInfo` (RFC 5480) for this curve.
            pub fn from_spki_der(der: &[u8]) -> Result<Self, Error> {
                Self::from_spki_der_with_impl(der, $imp::preferred())
            }

            /// As [`from_spki_der`](Self::from_spki_der), on a given implementation.
            pub fn from_spki_der_with_impl(der: &[u8], imp: $imp) -> Result<Self, Error> {
                Self::from_sec1_bytes_with_impl(der::parse_spki(der, PARAMS.oid)?, imp)
            }

            /// The uncompressed SEC1 encoding `04‖x‖y`.
            pub fn to_sec1_bytes(&self) -> [u8; 1 + 2 * $len] {
                let mut out = [4u8; 1 + 2 * $len];
                out[1..].copy_from_slice(&self.xy);
                out
            }

            /// The compressed SEC1 encoding `02`/`03‖x`.
            pub fn to_sec1_compressed(&self) -> [u8; 1 + $len] {
                let mut out = [0u8; 1 + $len];
                out[0] = 2 | (self.xy[2 * $len - 1] & 1);
                out[1..].copy_from_slice(&self.xy[..$len]);
                out
            }

            /// Writes the `SubjectPublicKeyInfo` DER; returns the length written.
            pub fn to_spki_der(&self, out: &mut [u8]) -> Result<usize, Error> {
                der::write_spki(&self.to_sec1_bytes(), PARAMS.oid, out)
            }

            /// Reads a `SubjectPublicKeyInfo` (RFC 5480) for this curve (as
            /// [`from_spki_der`](Self::from_spki_der)); a key of another kind is
            /// [`Error::WrongAlgorithm`] naming it.
            pub fn from_public_key_der(der: &[u8]) -> Result<Self, Error> {
                Self::from_spki_der(der)
            }

            /// Reads the first `PUBLIC KEY` block of a PEM text.
            pub fn from_public_key_pem(text: &str) -> Result<Self, Error> {
                core_der::pem::read_key::<{ $crate::encoding::MAX_DER }, _, _>(
                    text,
                    $crate::encoding::PUBLIC_KEY_LABEL,
                    Self::from_public_key_der,
                )
            }

            /// Writes the `SubjectPublicKeyInfo` DER (uncompressed point), [`PUBLIC_KEY_DER_LEN`]
            /// bytes; returns the length written.
            pub fn to_public_key_der(&self, out: &mut [u8]) -> Result<usize, Error> {
                self.to_spki_der(out)
            }

            /// Writes a `PUBLIC KEY` PEM block ([`PUBLIC_KEY_PEM_LEN`] bytes) into `out`;
            /// returns the text.
            pub fn to_public_key_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
                core_der::pem::write_key::<PUBLIC_KEY_DER_LEN, _>(
                    $crate::encoding::PUBLIC_KEY_LABEL,
                    out,
                    |b| self.to_spki_der(b),
                )
            }

            /// [`to_public_key_pem`](Self::to_public_key_pem) into a new `String`.
            #[cfg(feature = "alloc")]
            pub fn to_public_key_pem_string(&self) -> Result<alloc::string::String, Error> {
                core_der::pem::encode_string_with::<PUBLIC_KEY_DER_LEN, _>(
                    $crate::encoding::PUBLIC_KEY_LABEL,
                    |b| self.to_spki_der(b),
                )
                .map(|s| alloc::string::String::clone(&s))
            }

            #[doc = concat!("Verifies an ECDSA signature of `msg` hashed with ", $hash_name, ".")]
            pub fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), Error> {
                self.verify_prehash(<$hash>::digest(msg).as_ref(), sig)
            }

            /// Verifies an ECDSA signature of a message hash (of any length: it is
            /// truncated to the group order's length as FIPS 186-5 says). Variable time:
            /// everything here is public.
            pub fn verify_prehash(&self, hash: &[u8], sig: &Signature) -> Result<(), Error> {
                with_curve!(self.imp, |c| {
                    ops::verify::<_, _, { $crate::nist::point::naf_digits($len) }>(
                        &c, &self.xy, hash, &sig.rs,
                    )
                })
            }

            /// The same key on another implementation.
            #[must_use]
            pub fn with_impl(self, imp: $imp) -> Self {
                Self { imp, ..self }
            }

            /// The implementation this key computes with.
            pub fn implementation(&self) -> $imp {
                self.imp
            }
        }

        impl PartialEq for PublicKey {
            fn eq(&self, other: &Self) -> bool {
                self.xy == other.xy
            }
        }

        impl Eq for PublicKey {}

        impl fmt::Debug for PublicKey {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("PublicKey(")?;
                for b in self.to_sec1_bytes() {
                    write!(f, "{b:02x}")?;
                }
                f.write_str(")")
            }
        }

        #[doc = concat!("A ", $name, " ECDSA signing key: the private scalar and its public key.")]
        #[derive(Clone, Debug)]
        pub struct SigningKey {
            secret: SecretKey,
            public: PublicKey,
        }

        impl From<SecretKey> for SigningKey {
            fn from(secret: SecretKey) -> Self {
                let public = secret.public_key();
                Self { secret, public }
            }
        }

        impl SigningKey {
            /// The key with big-endian scalar `bytes` (exactly [`SCALAR_LEN`] bytes, in `1..n`).
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                SecretKey::from_bytes(bytes).map(Self::from)
            }

            /// A fresh key from `rng`.
            pub fn generate(rng: &mut impl RandomSource) -> Result<Self, Error> {
                SecretKey::generate(rng).map(Self::from)
            }

            /// The private key.
            pub fn secret_key(&self) -> &SecretKey {
                &self.secret
            }

            /// The big-endian scalar, as [`from_bytes`](Self::from_bytes) takes it. The copy
            /// is the caller's to wipe.
            pub fn to_bytes(&self) -> [u8; $len] {
                self.secret.to_bytes()
            }

            /// Reads a PKCS#8 key ([`SecretKey::from_pkcs8_der`]).
            pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
                SecretKey::from_pkcs8_der(der).map(Self::from)
            }

            /// Reads a `PRIVATE KEY` PEM block ([`SecretKey::from_pkcs8_pem`]).
            pub fn from_pkcs8_pem(text: &str) -> Result<Self, Error> {
                SecretKey::from_pkcs8_pem(text).map(Self::from)
            }

            /// Reads a SEC1 key ([`SecretKey::from_sec1_der`]).
            pub fn from_sec1_der(der: &[u8]) -> Result<Self, Error> {
                SecretKey::from_sec1_der(der).map(Self::from)
            }

            /// Reads an `EC PRIVATE KEY` PEM block ([`SecretKey::from_sec1_pem`]).
            pub fn from_sec1_pem(text: &str) -> Result<Self, Error> {
                SecretKey::from_sec1_pem(text).map(Self::from)
            }

            /// Writes PKCS#8 DER ([`SecretKey::to_pkcs8_der`]).
            pub fn to_pkcs8_der(&self, out: &mut [u8]) -> Result<usize, Error> {
                self.secret.to_pkcs8_der(out)
            }

            /// Writes a `PRIVATE KEY` PEM block ([`SecretKey::to_pkcs8_pem`]).
            pub fn to_pkcs8_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
                self.secret.to_pkcs8_pem(out)
            }

            /// Writes SEC1 DER ([`SecretKey::to_sec1_der`]).
            pub fn to_sec1_der(&self, out: &mut [u8]) -> Result<usize, Error> {
                self.secret.to_sec1_der(out)
            }

            /// Writes an `EC PRIVATE KEY` PEM block ([`SecretKey::to_sec1_pem`]).
            pub fn to_sec1_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
                self.secret.to_sec1_pem(out)
            }

            /// [`SecretKey::to_pkcs8_pem_string`].
            #[cfg(feature = "alloc")]
            pub fn to_pkcs8_pem_string(
                &self,
            ) -> Result<zeroize::Zeroizing<alloc::string::String>, Error> {
                self.secret.to_pkcs8_pem_string()
            }

            /// The public key that verifies this key's signatures.
            pub fn verifying_key(&self) -> &VerifyingKey {
                &self.public
            }

            /// The public key that verifies this key's signatures (the same as
            /// [`verifying_key`](Self::verifying_key), named as on every key type).
            pub fn public_key(&self) -> &VerifyingKey {
                &self.public
            }

            #[doc = concat!("Signs `msg` hashed with ", $hash_name, ", with the deterministic RFC 6979 nonce.")]
            pub fn sign(&self, msg: &[u8]) -> Signature {
                self.sign_prehash_with::<$hash>(<$hash>::digest(msg).as_ref())
            }

            #[doc = concat!("Signs a ", $hash_name, " message hash, with the RFC 6979 nonce over ", $hash_name, ".")]
            ///
            /// A `hash` of another length is [`Error::InvalidLength`]: a short or mistaken
            /// prehash would otherwise be signed as given. For another hash use
            /// [`sign_prehash_with`](Self::sign_prehash_with).
            pub fn sign_prehash(&self, hash: &[u8]) -> Result<Signature, Error> {
                if hash.len() != <$hash as Hash>::OUTPUT_LEN {
                    return Err(Error::InvalidLength);
                }
                Ok(self.sign_prehash_with::<$hash>(hash))
            }

            /// Signs a message hash made with `H`, deriving the RFC 6979 nonce with HMAC over
            /// `H` as the RFC says (so signatures match its appendix A.2 vectors).
            pub fn sign_prehash_with<H: Hash>(&self, hash: &[u8]) -> Signature {
                self.sign_inner::<H>(hash, &[])
            }

            /// Signs `msg` with an RFC 6979 nonce hedged by 32 bytes from `rng` (§3.6):
            /// still safe if `rng` is weak, and not deterministic, which resists fault and
            /// side-channel attacks that need repeated nonces.
            pub fn sign_hedged(
                &self,
                msg: &[u8],
                rng: &mut impl RandomSource,
            ) -> Result<Signature, Error> {
                let mut extra = [0u8; 32];
                rng.fill(&mut extra).map_err(|_| Error::RandomSource)?;
                let sig = self.sign_inner::<$hash>(<$hash>::digest(msg).as_ref(), &extra);
                extra.zeroize();
                Ok(sig)
            }

            fn sign_inner<H: Hash>(&self, hash: &[u8], extra: &[u8]) -> Signature {
                let mut rs = [0u8; 2 * $len];
                let d = &self.secret.d;
                let r = with_curve!(self.secret.imp, |c| {
                    ops::sign::<H, _, _>(&c, d, hash, extra, &mut rs)
                });
                // The scalar was checked when the key was built, so signing cannot fail.
                debug_assert!(r.is_ok());
                Signature { rs }
            }
        }

        #[doc = concat!("A ", $name, " ECDSA signature `(r, s)`, both in `1..n`.")]
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct Signature {
            rs: [u8; 2 * $len],
        }

        /// A DER-encoded signature (`Ecdsa-Sig-Value`), no allocation needed.
        #[derive(Clone, Copy)]
        pub struct DerSignature {
            buf: [u8; der::MAX_SIGNATURE_LEN],
            len: usize,
        }

        impl AsRef<[u8]> for DerSignature {
            fn as_ref(&self) -> &[u8] {
                &self.buf[..self.len]
            }
        }

        impl fmt::Debug for DerSignature {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("DerSignature(")?;
                for b in self.as_ref() {
                    write!(f, "{b:02x}")?;
                }
                f.write_str(")")
            }
        }

        impl Signature {
            /// The signature `r‖s` in its fixed-size form (IEEE P1363), each half
            /// [`SCALAR_LEN`] bytes big-endian and in `1..n`.
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                let rs: [u8; 2 * $len] = bytes.try_into().map_err(|_| Error::InvalidLength)?;
                let n = PARAMS.n;
                for half in rs.chunks_exact($len) {
                    if half.iter().all(|&b| b == 0) || !der::less_than(half, n) {
                        return Err(Error::InvalidSignature);
                    }
                }
                Ok(Self { rs })
            }

            /// The signature from strict DER (`Ecdsa-Sig-Value`).
            pub fn from_der(der: &[u8]) -> Result<Self, Error> {
                let mut rs = [0u8; 2 * $len];
                der::parse_signature(der, $len, &mut rs)?;
                Self::from_bytes(&rs)
            }

            /// The fixed-size form `r‖s`.
            pub fn to_bytes(&self) -> [u8; 2 * $len] {
                self.rs
            }

            /// The DER form.
            pub fn to_der(&self) -> DerSignature {
                let mut buf = [0u8; der::MAX_SIGNATURE_LEN];
                let len = der::write_signature(&self.rs, $len, &mut buf).unwrap_or(0);
                DerSignature { buf, len }
            }
        }

        impl fmt::Debug for Signature {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("Signature(")?;
                for b in self.rs {
                    write!(f, "{b:02x}")?;
                }
                f.write_str(")")
            }
        }

        /// The comb table is checked against one computed from scratch, on every
        /// implementation.
        #[cfg(test)]
        #[test]
        fn comb_table_is_right() {
            for imp in $imp::available() {
                with_curve!(imp, |c| {
                    let table = $crate::nist::point::comb_table(&c);
                    assert!(table == COMB_BYTES, "{} comb table differs on {imp:?}", $name);
                });
            }
        }

        /// Field and scalar arithmetic agree across implementations and obey the algebra:
        /// `a·a⁻¹ = 1`, `(a + b) − b = a`, `√(a²) = ±a`, on a spread of values including
        /// `0`, `1` and `m − 1`.
        #[cfg(test)]
        #[test]
        fn field_arithmetic_is_consistent() {
            use $crate::nist::Field;
            fn values(m: &[u8]) -> std::vec::Vec<std::vec::Vec<u8>> {
                let mut out = std::vec![std::vec![0u8; m.len()], std::vec![0u8; m.len()]];
                out[1][m.len() - 1] = 1;
                let mut top = m.to_vec();
                *top.last_mut().unwrap() -= 1;
                out.push(top);
                let mut x = 0x9e3779b97f4a7c15u64;
                for _ in 0..20 {
                    let mut v: std::vec::Vec<u8> = (0..m.len())
                        .map(|_| {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            x as u8
                        })
                        .collect();
                    v[0] &= m[0] >> 1;
                    out.push(v);
                }
                out
            }
            fn check<F: Field>(f: &F, a: &[u8], b: &[u8], out: &mut std::vec::Vec<u8>) {
                let len = a.len();
                let (x, okx) = f.import_be(a);
                let (y, oky) = f.import_be(b);
                assert!(bool::from(okx & oky));
                let one = f.one();
                let mut buf = std::vec![0u8; len];
                for v in [f.add(&x, &y), f.sub(&x, &y), f.mul(&x, &y), f.sqr(&x), f.invert(&x), f.neg(&x)] {
                    f.to_be(&v, &mut buf);
                    out.extend_from_slice(&buf);
                }
                assert!(bool::from(f.eq(&f.sub(&f.add(&x, &y), &y), &x)));
                if !bool::from(F::is_zero(&x)) {
                    assert!(bool::from(f.eq(&f.mul(&x, &f.invert(&x)), &one)));
                }
                f.to_be(&x, &mut buf);
                assert_eq!(&buf[..], a);
            }
            for (m, name) in [(&P_BYTES[..], "p"), (PARAMS.n, "n")] {
                let vals = values(m);
                let mut results: std::vec::Vec<std::vec::Vec<u8>> = std::vec::Vec::new();
                for imp in $imp::available() {
                    let mut out = std::vec::Vec::new();
                    with_curve!(imp, |c| {
                        for pair in vals.windows(2) {
                            if name == "p" {
                                check(c.fp, &pair[0], &pair[1], &mut out);
                            } else {
                                check(c.fq, &pair[0], &pair[1], &mut out);
                            }
                        }
                        if name == "p" {
                            for v in &vals {
                                let (x, _) = c.fp.import_be(v);
                                let (r, ok) = c.fp.sqrt(&c.fp.sqr(&x));
                                assert!(bool::from(ok));
                                assert!(bool::from(c.fp.eq(&r, &x) | c.fp.eq(&r, &c.fp.neg(&x))));
                            }
                        }
                    });
                    results.push(out);
                }
                assert!(results.windows(2).all(|w| w[0] == w[1]), "{} {name}: implementations differ", $name);
            }
        }

        /// The variable-base multiplication's exceptional last window (`k ≡ 2·digit`, the
        /// Jacobian addition's `p = q` case, at `k = n − 2j`) and its neighbours `n − 2j ± 1`
        /// agree with the comb on `G`, in every implementation.
        #[cfg(test)]
        #[test]
        fn mul_exceptional_scalars() {
            use $crate::nist::Field;
            for imp in $imp::available() {
                with_curve!(imp, |c| {
                    let g = c.generator();
                    for j in 1u8..=40 {
                        let mut k = [0u8; $len];
                        k.copy_from_slice(PARAMS.n);
                        let mut borrow = u16::from(j);
                        for b in k.iter_mut().rev() {
                            let v = u16::from(*b).wrapping_sub(borrow);
                            *b = v as u8;
                            borrow = (v >> 15) & 1;
                        }
                        let want = c.mul_base(&k);
                        let got = c.mul(&g, &k);
                        let (wx, wy, winf) = c.to_affine(&want);
                        let (gx, gy, ginf) = c.to_affine(&got);
                        assert!(
                            bool::from(winf) == bool::from(ginf)
                                && bool::from(c.fp.eq(&wx, &gx) & c.fp.eq(&wy, &gy)),
                            "{} {imp:?}: n − {j}",
                            $name
                        );
                    }
                });
            }
        }

        /// `u1·G + u2·Q` in variable time agrees with the constant-time multiplications on the
        /// cases that take its exceptional branches (sums that meet the identity, doublings
        /// inside an addition): `Q` = `G`, `−G`, `2G` and `u1, u2` = 1, 2, 3, n − 1, n − 2.
        #[cfg(test)]
        #[test]
        fn mul2_vartime_edge_cases() {
            use $crate::nist::Field;
            let small = |k: u8| {
                let mut v = [0u8; $len];
                v[$len - 1] = k;
                v
            };
            let minus = |k: u8| {
                let mut v = [0u8; $len];
                v.copy_from_slice(PARAMS.n);
                v[$len - 1] -= k;
                v
            };
            let scalars = [small(1), small(2), small(3), minus(1), minus(2)];
            for imp in $imp::available() {
                with_curve!(imp, |c| {
                    let g = c.generator();
                    for q in [g, c.neg(&g), c.double(&g)] {
                        for u1 in &scalars {
                            for u2 in &scalars {
                                let want = c.add(&c.mul_base(u1), &c.mul(&q, u2));
                                let [x, y, z] = c.mul2_vartime::<
                                    { $crate::nist::point::naf_digits($len) },
                                >(u1, u2, &q);
                                let got = c.jacobian_to_proj(&x, &y, &z);
                                let (wx, wy, winf) = c.to_affine(&want);
                                let (gx, gy, ginf) = c.to_affine(&got);
                                assert!(
                                    bool::from(winf) == bool::from(ginf)
                                        && bool::from(c.fp.eq(&wx, &gx) & c.fp.eq(&wy, &gy)),
                                    "{} {imp:?}: u1 {u1:02x?} u2 {u2:02x?}",
                                    $name
                                );
                            }
                        }
                    }
                });
            }
        }

        /// `u1·G + u2·Q` in variable time agrees with the constant-time `u1·G + u2·Q` (comb,
        /// window and complete addition) on random scalars and keys, in every implementation.
        #[cfg(test)]
        mod mul2_vartime_random {
            use super::*;
            use proptest::prelude::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(24))]
                #[test]
                fn agrees_with_constant_time(
                    bytes in proptest::collection::vec(any::<u8>(), 3 * $len),
                ) {
                    use $crate::nist::Field;
                    let mut k = [[0u8; $len]; 3];
                    for (k, chunk) in k.iter_mut().zip(bytes.chunks_exact($len)) {
                        k.copy_from_slice(chunk);
                        k[0] &= top_mask();
                    }
                    // Big-endian and of equal length: below n is below in byte order.
                    prop_assume!(k.iter().all(|k| &k[..] < PARAMS.n));
                    let [u1, u2, d] = &k;
                    for imp in $imp::available() {
                        with_curve!(imp, |c| {
                            let q = c.mul_base(d);
                            let want = c.add(&c.mul_base(u1), &c.mul(&q, u2));
                            let [x, y, z] = c.mul2_vartime::<
                                { $crate::nist::point::naf_digits($len) },
                            >(u1, u2, &q);
                            let got = c.jacobian_to_proj(&x, &y, &z);
                            let (wx, wy, winf) = c.to_affine(&want);
                            let (gx, gy, ginf) = c.to_affine(&got);
                            prop_assert!(
                                bool::from(winf) == bool::from(ginf)
                                    && bool::from(c.fp.eq(&wx, &gx) & c.fp.eq(&wy, &gy)),
                                "{} {:?}", $name, imp
                            );
                        });
                    }
                }
            }
        }

        /// Prints the comb table as hex, for regenerating `tables.rs`:
        /// `cargo test -p core-ec --lib print_comb_table -- --ignored --nocapture`.
        #[cfg(test)]
        #[test]
        #[ignore = "generator, not a test"]
        fn print_comb_table() {
            let table = with_curve!($imp::preferred(), |c| $crate::nist::point::comb_table(&c));
            std::print!("TABLE {} ", $name);
            for b in table {
                std::print!("{b:02x}");
            }
            std::println!();
        }
    };
}
pub(crate) use nist_api;
