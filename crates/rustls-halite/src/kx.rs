//! Key-exchange groups: X25519 (RFC 7748) and ECDH over P-256, P-384 and P-521 (SEC 1,
//! uncompressed points only, RFC 8446 §4.2.8.2), and their hybrids with ML-KEM (FIPS 203,
//! `core-lattice`) for TLS 1.3 (draft-ietf-tls-ecdhe-mlkem), each with a fresh key from OS
//! randomness.

use rustls::crypto::{
    ActiveKeyExchange, CompletedKeyExchange, GetRandomFailed, SharedSecret, SupportedKxGroup,
};
use rustls::{Error, NamedGroup, PeerMisbehaved, ProtocolVersion};

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
        let secret = core_ec::x25519::SecretKey::generate(&mut core_hash::PooledOsRandom)
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
                let secret = core_ec::$curve::SecretKey::generate(&mut core_hash::PooledOsRandom)
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

/// The ML-KEM parameter set of a hybrid.
#[derive(Clone, Copy, Debug)]
enum Kem {
    MlKem768,
    MlKem1024,
}

/// A client's ML-KEM decapsulation key (wiped on drop by `core-lattice`).
enum DecapsulationKey {
    MlKem768(Box<core_lattice::mlkem768::DecapsulationKey>),
    MlKem1024(Box<core_lattice::mlkem1024::DecapsulationKey>),
}

impl Kem {
    fn ek_len(self) -> usize {
        match self {
            Self::MlKem768 => core_lattice::mlkem768::ENCAPSULATION_KEY_LEN,
            Self::MlKem1024 => core_lattice::mlkem1024::ENCAPSULATION_KEY_LEN,
        }
    }

    fn ct_len(self) -> usize {
        match self {
            Self::MlKem768 => core_lattice::mlkem768::CIPHERTEXT_LEN,
            Self::MlKem1024 => core_lattice::mlkem1024::CIPHERTEXT_LEN,
        }
    }

    /// A fresh key pair: the decapsulation key and the encoded encapsulation key.
    fn generate(self) -> Result<(DecapsulationKey, Vec<u8>), Error> {
        let mut rng = core_hash::PooledOsRandom;
        Ok(match self {
            Self::MlKem768 => {
                let dk = core_lattice::mlkem768::DecapsulationKey::generate(&mut rng)
                    .map_err(|_| GetRandomFailed)?;
                let ek = dk.encapsulation_key().as_bytes().to_vec();
                (DecapsulationKey::MlKem768(Box::new(dk)), ek)
            }
            Self::MlKem1024 => {
                let dk = core_lattice::mlkem1024::DecapsulationKey::generate(&mut rng)
                    .map_err(|_| GetRandomFailed)?;
                let ek = dk.encapsulation_key().as_bytes().to_vec();
                (DecapsulationKey::MlKem1024(Box::new(dk)), ek)
            }
        })
    }

    /// Server: a ciphertext to the client's encapsulation key `ek` (checked as FIPS 203 §7.2
    /// says) and the shared key it carries.
    fn encapsulate(self, ek: &[u8]) -> Result<(Vec<u8>, core_lattice::SharedSecret), Error> {
        let mut rng = core_hash::PooledOsRandom;
        let random = |e| match e {
            core_lattice::Error::RandomSource => Error::from(GetRandomFailed),
            _ => bad_share(),
        };
        Ok(match self {
            Self::MlKem768 => {
                let ek = core_lattice::mlkem768::EncapsulationKey::from_bytes(ek)
                    .map_err(|_| bad_share())?;
                let (ct, key) = ek.encapsulate(&mut rng).map_err(random)?;
                (ct.as_bytes().to_vec(), key)
            }
            Self::MlKem1024 => {
                let ek = core_lattice::mlkem1024::EncapsulationKey::from_bytes(ek)
                    .map_err(|_| bad_share())?;
                let (ct, key) = ek.encapsulate(&mut rng).map_err(random)?;
                (ct.as_bytes().to_vec(), key)
            }
        })
    }
}

impl DecapsulationKey {
    /// The shared key in `ct`; a ciphertext of the wrong length is refused, any other gives
    /// a key (implicit rejection, FIPS 203 Algorithm 21).
    fn decapsulate(&self, ct: &[u8]) -> Result<core_lattice::SharedSecret, Error> {
        Ok(match self {
            Self::MlKem768(dk) => {
                let ct =
                    core_lattice::mlkem768::Ciphertext::from_bytes(ct).map_err(|_| bad_share())?;
                dk.decapsulate(&ct)
            }
            Self::MlKem1024(dk) => {
                let ct =
                    core_lattice::mlkem1024::Ciphertext::from_bytes(ct).map_err(|_| bad_share())?;
                dk.decapsulate(&ct)
            }
        })
    }
}

/// A hybrid of ML-KEM and an ECDH group (draft-ietf-tls-ecdhe-mlkem §3): shares and secrets
/// are the two parts concatenated, ML-KEM first for `X25519MLKEM768`, ECDH first for the NIST
/// ones. TLS 1.3 only.
#[derive(Debug)]
struct HybridGroup {
    name: NamedGroup,
    classical: &'static dyn SupportedKxGroup,
    classical_len: usize,
    kem: Kem,
    kem_first: bool,
}

/// `X25519MLKEM768` (0x11ec): ML-KEM-768 and X25519.
pub static X25519MLKEM768: &dyn SupportedKxGroup = &HybridGroup {
    name: NamedGroup::X25519MLKEM768,
    classical: X25519,
    classical_len: 32,
    kem: Kem::MlKem768,
    kem_first: true,
};

/// `SecP256r1MLKEM768` (0x11eb): ECDH over P-256 and ML-KEM-768.
pub static SECP256R1MLKEM768: &dyn SupportedKxGroup = &HybridGroup {
    name: NamedGroup::secp256r1MLKEM768,
    classical: SECP256R1,
    classical_len: 65,
    kem: Kem::MlKem768,
    kem_first: false,
};

/// `SecP384r1MLKEM1024` (0x11ed): ECDH over P-384 and ML-KEM-1024.
pub static SECP384R1MLKEM1024: &dyn SupportedKxGroup = &HybridGroup {
    name: NamedGroup::Unknown(0x11ed),
    classical: SECP384R1,
    classical_len: 97,
    kem: Kem::MlKem1024,
    kem_first: false,
};

impl HybridGroup {
    /// A peer's share as (ML-KEM part of `kem_len` bytes, ECDH part), or `None` for any
    /// other length.
    fn split<'a>(&self, share: &'a [u8], kem_len: usize) -> Option<(&'a [u8], &'a [u8])> {
        if share.len() != kem_len + self.classical_len {
            return None;
        }
        Some(if self.kem_first {
            share.split_at(kem_len)
        } else {
            let (ecdh, kem) = share.split_at(self.classical_len);
            (kem, ecdh)
        })
    }

    /// The ML-KEM and ECDH parts in this group's order.
    fn join(&self, kem: &[u8], ecdh: &[u8]) -> Vec<u8> {
        if self.kem_first { [kem, ecdh].concat() } else { [ecdh, kem].concat() }
    }
}

impl SupportedKxGroup for HybridGroup {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let classical = self.classical.start()?;
        let (dk, ek) = self.kem.generate()?;
        let public = self.join(&ek, classical.pub_key());
        Ok(Box::new(HybridExchange {
            name: self.name,
            classical,
            dk,
            public,
            ct_len: self.kem.ct_len(),
            classical_len: self.classical_len,
            kem_first: self.kem_first,
        }))
    }

    fn start_and_complete(&self, client_share: &[u8]) -> Result<CompletedKeyExchange, Error> {
        let (ek, ecdh) = self.split(client_share, self.kem.ek_len()).ok_or_else(bad_share)?;
        let (ct, kem_secret) = self.kem.encapsulate(ek)?;
        let classical = self.classical.start_and_complete(ecdh)?;
        Ok(CompletedKeyExchange {
            group: self.name,
            pub_key: self.join(&ct, &classical.pub_key),
            secret: SharedSecret::from(
                self.join(kem_secret.as_bytes(), classical.secret.secret_bytes()),
            ),
        })
    }

    fn name(&self) -> NamedGroup {
        self.name
    }

    fn usable_for_version(&self, version: ProtocolVersion) -> bool {
        version == ProtocolVersion::TLSv1_3
    }
}

/// One hybrid exchange in progress (the client's side).
struct HybridExchange {
    name: NamedGroup,
    classical: Box<dyn ActiveKeyExchange>,
    dk: DecapsulationKey,
    public: Vec<u8>,
    ct_len: usize,
    classical_len: usize,
    kem_first: bool,
}

impl ActiveKeyExchange for HybridExchange {
    fn complete(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, Error> {
        if peer.len() != self.ct_len + self.classical_len {
            return Err(bad_share());
        }
        let (ct, ecdh) = if self.kem_first {
            peer.split_at(self.ct_len)
        } else {
            let (ecdh, ct) = peer.split_at(self.classical_len);
            (ct, ecdh)
        };
        let kem_secret = self.dk.decapsulate(ct)?;
        let kem_first = self.kem_first;
        let classical = self.classical.complete(ecdh)?;
        let (a, b) = if kem_first {
            (&kem_secret.as_bytes()[..], classical.secret_bytes())
        } else {
            (classical.secret_bytes(), &kem_secret.as_bytes()[..])
        };
        Ok(SharedSecret::from([a, b].concat()))
    }

    /// The ECDH part may be offered as a share of its own, with the same key.
    fn hybrid_component(&self) -> Option<(NamedGroup, &[u8])> {
        Some((self.classical.group(), self.classical.pub_key()))
    }

    fn complete_hybrid_component(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, Error> {
        self.classical.complete(peer)
    }

    fn pub_key(&self) -> &[u8] {
        &self.public
    }

    fn group(&self) -> NamedGroup {
        self.name
    }
}
