//! Key exchange for the `key_share` extension: X25519 and the NIST curves P-256, P-384 and
//! P-521 from `core-ec`, with the public values in the encodings RFC 8446 §4.2.8.2 fixes (32
//! raw bytes for X25519, uncompressed SEC1 points `04‖X‖Y` for the NIST groups) and every
//! peer value checked before use. The interface is KEM-shaped, so that ML-KEM and its hybrids
//! fit as the Diffie–Hellman groups do: the client makes a key pair ([`KeyShare::keygen`]) and
//! later decapsulates the server's share ([`KeyShare::decapsulate`]); the server answers a
//! client's share in one call ([`encapsulate`]: for a Diffie–Hellman group, a fresh key pair
//! and the function of the client's share). A configuration's `key_exchanges` can put a
//! user's [`KeyExchange`] in place of any of them, or add a group.

use core_ec::{p256, p384, p521, x25519};
use core_hash::RandomSource;
use zeroize::Zeroize;

use crate::error::{ApiMisuse, Error, PeerMisbehaved};
use crate::msgs::NamedGroup;
use crate::provider::{KeyExchange, MAX_KX_SECRET_LEN};

/// Every group this crate implements, in the default order of preference.
pub const ALL_GROUPS: &[NamedGroup] =
    &[NamedGroup::X25519, NamedGroup::SECP256R1, NamedGroup::SECP384R1, NamedGroup::SECP521R1];

/// The groups offered and accepted by default, in order of preference (a client sends a key
/// share for the first only).
pub const DEFAULT_GROUPS: &[NamedGroup] = ALL_GROUPS;

/// The longest public value: an uncompressed P-521 point.
pub const MAX_PUBLIC_LEN: usize = p521::UNCOMPRESSED_LEN;

/// The longest shared secret: a P-521 x-coordinate.
pub const MAX_SHARED_LEN: usize = p521::SCALAR_LEN;

/// Whether this crate implements `group`.
pub fn is_supported(group: NamedGroup) -> bool {
    ALL_GROUPS.contains(&group)
}

/// The name used on the examples' command line and in their `negotiated:` line.
pub fn group_name(group: NamedGroup) -> Option<&'static str> {
    Some(match group {
        NamedGroup::X25519 => "x25519",
        NamedGroup::SECP256R1 => "secp256r1",
        NamedGroup::SECP384R1 => "secp384r1",
        NamedGroup::SECP521R1 => "secp521r1",
        _ => return None,
    })
}

/// The group with this name (as [`group_name`] gives it).
pub fn group_by_name(name: &str) -> Option<NamedGroup> {
    ALL_GROUPS.iter().copied().find(|g| group_name(*g) == Some(name))
}

/// An ephemeral private key in one group.
pub enum KeyShare {
    /// X25519.
    X25519(x25519::SecretKey),
    /// secp256r1.
    P256(p256::SecretKey),
    /// secp384r1.
    P384(p384::SecretKey),
    /// secp521r1.
    P521(p521::SecretKey),
    /// A group computed by a user's [`KeyExchange`].
    Custom(CustomShare),
}

/// A [`KeyExchange`]'s private key and public value; the key is wiped on drop.
pub struct CustomShare {
    kx: &'static dyn KeyExchange,
    secret: [u8; MAX_KX_SECRET_LEN],
    secret_len: usize,
    public: PublicValue,
}

impl Drop for CustomShare {
    fn drop(&mut self) {
        self.secret.zeroize();
    }
}

impl core::fmt::Debug for KeyShare {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "KeyShare({:?})", self.group())
    }
}

/// A public value, in its wire encoding.
#[derive(Clone, Copy)]
pub struct PublicValue {
    bytes: [u8; MAX_PUBLIC_LEN],
    len: usize,
}

impl AsRef<[u8]> for PublicValue {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// An ECDH result, wiped on drop.
pub struct SharedSecret {
    bytes: [u8; MAX_SHARED_LEN],
    len: usize,
}

impl AsRef<[u8]> for SharedSecret {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl Drop for SharedSecret {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

/// A fresh NIST scalar by rejection sampling (each draw is in range with probability > 1/2).
fn nist_scalar<K>(
    rng: &mut dyn RandomSource,
    buf: &mut [u8],
    top_mask: u8,
    make: impl Fn(&[u8]) -> Result<K, core_ec::Error>,
) -> Result<K, Error> {
    for _ in 0..64 {
        rng.fill(buf).map_err(|_| Error::RandomFailed)?;
        buf[0] &= top_mask;
        if let Ok(k) = make(buf) {
            buf.zeroize();
            return Ok(k);
        }
    }
    buf.zeroize();
    Err(Error::RandomFailed)
}

fn bad_share(_: core_ec::Error) -> Error {
    Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare)
}

/// Checks that `peer` is an uncompressed point of exactly `len` bytes (RFC 8446 §4.2.8.2 allows
/// no other form) before it is decoded and checked against the curve.
fn uncompressed(peer: &[u8], len: usize) -> Result<&[u8], Error> {
    if peer.len() != len || peer.first() != Some(&4) {
        return Err(PeerMisbehaved::InvalidKeyShare.into());
    }
    Ok(peer)
}

impl KeyShare {
    /// Client, the first step: a fresh key in `group` from `rng` ([`KeyExchange::keygen`]),
    /// by the first of `custom` in that group, else by `core-ec`. A group neither implements
    /// is [`ApiMisuse::BadConfig`].
    pub fn keygen(
        group: NamedGroup,
        custom: &[&'static dyn KeyExchange],
        rng: &mut dyn RandomSource,
    ) -> Result<Self, Error> {
        if let Some(&kx) = custom.iter().find(|k| k.group() == group) {
            let mut share = CustomShare {
                kx,
                secret: [0; MAX_KX_SECRET_LEN],
                secret_len: 0,
                public: PublicValue { bytes: [0; MAX_PUBLIC_LEN], len: 0 },
            };
            let (s, p) = kx.keygen(rng, &mut share.secret, &mut share.public.bytes)?;
            if s > MAX_KX_SECRET_LEN || p == 0 || p > MAX_PUBLIC_LEN {
                return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
            }
            share.secret_len = s;
            share.public.len = p;
            return Ok(Self::Custom(share));
        }
        Ok(match group {
            NamedGroup::X25519 => {
                let mut b = [0u8; 32];
                rng.fill(&mut b).map_err(|_| Error::RandomFailed)?;
                let k = x25519::SecretKey::from_bytes(b);
                b.zeroize();
                Self::X25519(k)
            }
            NamedGroup::SECP256R1 => {
                Self::P256(nist_scalar(rng, &mut [0u8; 32], 0xff, p256::SecretKey::from_bytes)?)
            }
            NamedGroup::SECP384R1 => {
                Self::P384(nist_scalar(rng, &mut [0u8; 48], 0xff, p384::SecretKey::from_bytes)?)
            }
            NamedGroup::SECP521R1 => {
                Self::P521(nist_scalar(rng, &mut [0u8; 66], 0x01, p521::SecretKey::from_bytes)?)
            }
            _ => return Err(Error::ApiMisuse(ApiMisuse::BadConfig)),
        })
    }

    /// The group this key is in.
    pub fn group(&self) -> NamedGroup {
        match self {
            Self::X25519(_) => NamedGroup::X25519,
            Self::P256(_) => NamedGroup::SECP256R1,
            Self::P384(_) => NamedGroup::SECP384R1,
            Self::P521(_) => NamedGroup::SECP521R1,
            Self::Custom(c) => c.kx.group(),
        }
    }

    /// The public value to send.
    pub fn public(&self) -> PublicValue {
        let mut out = PublicValue { bytes: [0; MAX_PUBLIC_LEN], len: 0 };
        let mut put = |b: &[u8]| {
            out.bytes[..b.len()].copy_from_slice(b);
            out.len = b.len();
        };
        match self {
            Self::X25519(k) => put(k.public_key().as_bytes()),
            Self::P256(k) => put(&k.public_key().to_sec1_bytes()),
            Self::P384(k) => put(&k.public_key().to_sec1_bytes()),
            Self::P521(k) => put(&k.public_key().to_sec1_bytes()),
            Self::Custom(c) => return c.public,
        }
        out
    }

    /// Client, the last step ([`KeyExchange::decapsulate`]): the shared secret with the
    /// server's share, which must be a valid key in this group (else
    /// [`PeerMisbehaved::InvalidKeyShare`], answered with illegal_parameter). For the
    /// Diffie–Hellman groups this is the Diffie–Hellman function, which either side may
    /// compute with the other's public value.
    pub fn decapsulate(&self, peer: &[u8]) -> Result<SharedSecret, Error> {
        let mut out = SharedSecret { bytes: [0; MAX_SHARED_LEN], len: 0 };
        let mut put = |b: &[u8]| {
            out.bytes[..b.len()].copy_from_slice(b);
            out.len = b.len();
        };
        match self {
            Self::X25519(k) => {
                let p = x25519::PublicKey::from_slice(peer).map_err(bad_share)?;
                put(k.diffie_hellman(&p).map_err(bad_share)?.as_bytes());
            }
            Self::P256(k) => {
                let p = uncompressed(peer, p256::UNCOMPRESSED_LEN)?;
                let p = p256::PublicKey::from_sec1_bytes(p).map_err(bad_share)?;
                put(k.diffie_hellman(&p).map_err(bad_share)?.as_bytes());
            }
            Self::P384(k) => {
                let p = uncompressed(peer, p384::UNCOMPRESSED_LEN)?;
                let p = p384::PublicKey::from_sec1_bytes(p).map_err(bad_share)?;
                put(k.diffie_hellman(&p).map_err(bad_share)?.as_bytes());
            }
            Self::P521(k) => {
                let p = uncompressed(peer, p521::UNCOMPRESSED_LEN)?;
                let p = p521::PublicKey::from_sec1_bytes(p).map_err(bad_share)?;
                put(k.diffie_hellman(&p).map_err(bad_share)?.as_bytes());
            }
            Self::Custom(c) => {
                let len = c.kx.decapsulate(&c.secret[..c.secret_len], peer, &mut out.bytes)?;
                if len == 0 || len > MAX_SHARED_LEN {
                    return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
                }
                out.len = len;
            }
        }
        Ok(out)
    }
}

/// Server, in one step ([`KeyExchange::encapsulate`]): from the client's share in `group`,
/// the server's share to send and the shared secret, by the first of `custom` in that group,
/// else by `core-ec` (a fresh key pair and the Diffie–Hellman function with the client's
/// share). A client share that is not valid is [`PeerMisbehaved::InvalidKeyShare`]; a group
/// neither implements is [`ApiMisuse::BadConfig`].
pub fn encapsulate(
    group: NamedGroup,
    custom: &[&'static dyn KeyExchange],
    rng: &mut dyn RandomSource,
    client_share: &[u8],
) -> Result<(PublicValue, SharedSecret), Error> {
    if let Some(&kx) = custom.iter().find(|k| k.group() == group) {
        let mut public = PublicValue { bytes: [0; MAX_PUBLIC_LEN], len: 0 };
        let mut shared = SharedSecret { bytes: [0; MAX_SHARED_LEN], len: 0 };
        let (p, s) = kx.encapsulate(rng, client_share, &mut public.bytes, &mut shared.bytes)?;
        if p == 0 || p > MAX_PUBLIC_LEN || s == 0 || s > MAX_SHARED_LEN {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        public.len = p;
        shared.len = s;
        return Ok((public, shared));
    }
    let key = KeyShare::keygen(group, &[], rng)?;
    let shared = key.decapsulate(client_share)?;
    Ok((key.public(), shared))
}

#[cfg(test)]
mod tests {
    use super::*;
    use core_hash::{HmacDrbg, Sha256};

    fn rng() -> HmacDrbg<Sha256> {
        HmacDrbg::new(&[7; 32], &[1; 16], b"kx test").unwrap()
    }

    #[test]
    fn every_group_agrees_with_itself() {
        let mut r = rng();
        for &g in ALL_GROUPS {
            let a = KeyShare::keygen(g, &[], &mut r).unwrap();
            let b = KeyShare::keygen(g, &[], &mut r).unwrap();
            assert_eq!(a.group(), g);
            let ab = a.decapsulate(b.public().as_ref()).unwrap();
            let ba = b.decapsulate(a.public().as_ref()).unwrap();
            assert_eq!(ab.as_ref(), ba.as_ref(), "{g:?}");
            assert_ne!(ab.as_ref(), &[0u8; 66][..ab.as_ref().len()]);
        }
    }

    #[test]
    fn encapsulate_and_decapsulate_agree_in_every_group() {
        let mut r = rng();
        for &g in ALL_GROUPS {
            let client = KeyShare::keygen(g, &[], &mut r).unwrap();
            let (server_share, server_secret) =
                encapsulate(g, &[], &mut r, client.public().as_ref()).unwrap();
            let client_secret = client.decapsulate(server_share.as_ref()).unwrap();
            assert_eq!(client_secret.as_ref(), server_secret.as_ref(), "{g:?}");
            assert_ne!(server_share.as_ref(), client.public().as_ref(), "{g:?}");
            let bad = Err(Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare));
            assert_eq!(encapsulate(g, &[], &mut r, &[]).map(|_| ()), bad, "{g:?}");
        }
    }

    #[test]
    fn invalid_peer_values_are_refused() {
        let mut r = rng();
        let bad = Err(Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare));
        for &g in ALL_GROUPS {
            let a = KeyShare::keygen(g, &[], &mut r).unwrap();
            let good = a.public();
            let good = good.as_ref();
            // Wrong length, empty, and (for the NIST groups) compressed or off-curve points.
            assert!(a.decapsulate(&good[..good.len() - 1]).is_err(), "{g:?}");
            assert!(a.decapsulate(&[]).is_err(), "{g:?}");
            if g == NamedGroup::X25519 {
                // A low-order point gives the all-zero secret.
                assert_eq!(a.decapsulate(&[0u8; 32]).map(|_| ()), bad);
            } else {
                let mut c = good.to_vec();
                c[0] = 2;
                assert_eq!(a.decapsulate(&c).map(|_| ()), bad, "{g:?} wrong tag");
                let mut c = good.to_vec();
                let last = c.len() - 1;
                c[last] ^= 1;
                assert_eq!(a.decapsulate(&c).map(|_| ()), bad, "{g:?} off the curve");
                let compressed = &good[..=(good.len() - 1) / 2];
                assert_eq!(a.decapsulate(compressed).map(|_| ()), bad, "{g:?} compressed");
                let mut zero = good.to_vec();
                zero[1..].fill(0);
                assert_eq!(a.decapsulate(&zero).map(|_| ()), bad, "{g:?} zero point");
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for &g in ALL_GROUPS {
            assert_eq!(group_by_name(group_name(g).unwrap()), Some(g));
        }
        assert_eq!(group_by_name("x448"), None);
    }
}
