//! Key-exchange groups: X25519 (RFC 7748) and ECDH over P-256, P-384 and P-521 (SEC 1,
//! uncompressed points only, RFC 8446 §4.2.8.2), each with a fresh key from OS randomness.

use rustls::crypto::{ActiveKeyExchange, GetRandomFailed, SharedSecret, SupportedKxGroup};
use rustls::{Error, NamedGroup, PeerMisbehaved};

/// The peer's key share was unusable.
fn bad_share() -> Error {
    PeerMisbehaved::InvalidKeyShare.into()
}

/// X25519.
#[derive(Debug)]
struct X25519Group;

/// X25519 (RFC 7748, RFC 8446 §4.2.7).
pub static X25519: &dyn SupportedKxGroup = &X25519Group;

impl SupportedKxGroup for X25519Group {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let secret = core_ec::x25519::SecretKey::generate(&mut core_hash::OsRandom)
            .map_err(|_| GetRandomFailed)?;
        let public = *secret.public_key().as_bytes();
        Ok(Box::new(X25519Exchange { secret, public }))
    }

    fn name(&self) -> NamedGroup {
        NamedGroup::X25519
    }
}

/// One X25519 exchange in progress.
struct X25519Exchange {
    secret: core_ec::x25519::SecretKey,
    public: [u8; 32],
}

impl ActiveKeyExchange for X25519Exchange {
    fn complete(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, Error> {
        let peer = core_ec::x25519::PublicKey::from_slice(peer).map_err(|_| bad_share())?;
        // An all-zero result (a low-order peer point) is refused (RFC 8446 §7.4.2).
        let shared = self.secret.diffie_hellman(&peer).map_err(|_| bad_share())?;
        Ok(SharedSecret::from(&shared.as_bytes()[..]))
    }

    fn pub_key(&self) -> &[u8] {
        &self.public
    }

    fn group(&self) -> NamedGroup {
        NamedGroup::X25519
    }
}

macro_rules! nist_group {
    ($(#[$doc:meta])* $static:ident, $group:ident, $exchange:ident, $curve:ident, $named:ident, $point:expr) => {
        #[derive(Debug)]
        struct $group;

        $(#[$doc])*
        pub static $static: &dyn SupportedKxGroup = &$group;

        impl SupportedKxGroup for $group {
            fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
                let secret = core_ec::$curve::SecretKey::generate(&mut core_hash::OsRandom)
                    .map_err(|_| GetRandomFailed)?;
                let public = secret.public_key().to_sec1_bytes();
                Ok(Box::new($exchange { secret, public }))
            }

            fn name(&self) -> NamedGroup {
                NamedGroup::$named
            }
        }

        /// One ECDH exchange in progress.
        struct $exchange {
            secret: core_ec::$curve::SecretKey,
            public: [u8; $point],
        }

        impl ActiveKeyExchange for $exchange {
            fn complete(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, Error> {
                // TLS allows only the uncompressed form (RFC 8446 §4.2.8.2).
                if peer.len() != $point || peer[0] != 0x04 {
                    return Err(bad_share());
                }
                let peer = core_ec::$curve::PublicKey::from_sec1_bytes(peer)
                    .map_err(|_| bad_share())?;
                let shared = self.secret.diffie_hellman(&peer).map_err(|_| bad_share())?;
                Ok(SharedSecret::from(&shared.as_bytes()[..]))
            }

            fn pub_key(&self) -> &[u8] {
                &self.public
            }

            fn group(&self) -> NamedGroup {
                NamedGroup::$named
            }
        }
    };
}

nist_group!(
    /// ECDH over P-256 (secp256r1).
    SECP256R1, P256Group, P256Exchange, p256, secp256r1, 65
);
nist_group!(
    /// ECDH over P-384 (secp384r1).
    SECP384R1, P384Group, P384Exchange, p384, secp384r1, 97
);
nist_group!(
    /// ECDH over P-521 (secp521r1).
    SECP521R1, P521Group, P521Exchange, p521, secp521r1, 133
);
