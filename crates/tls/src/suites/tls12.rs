//! The TLS 1.2 cipher suites Halite implements — ECDHE key exchange, ECDSA or RSA
//! certificates, AEAD records — and a classification of the families it refuses (static
//! RSA, finite-field DHE, CBC, RC4, DES/3DES, export, NULL, anonymous…) so a handshake can
//! say why a peer's offer had nothing usable.
//!
//! With the `cbc` feature, `CBC_SUITES12` adds the ECDHE AES-CBC suites with HMAC-SHA1,
//! -SHA256 and -SHA384 for old peers. They are in no default list and a configuration that
//! names them must also set its `enable_cbc`: CBC with MAC-then-encrypt is the construction
//! behind Lucky Thirteen and POODLE, and RFC 9325 §4.2 recommends against it. Halite opens
//! MAC-then-encrypt records in constant time and negotiates encrypt_then_mac (RFC 7366)
//! whenever the peer offers it.

use crate::key_schedule::HashAlg;
use crate::msgs::CipherSuite;
use crate::record::tls12::NonceShape;
use crate::suites::AeadAlg;

/// The kind of certificate key that signs the ServerKeyExchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Auth {
    /// An ECDSA key (or, by RFC 8422 §5.1.1, Ed25519).
    Ecdsa,
    /// An RSA key (PKCS#1 v1.5 or PSS signatures).
    Rsa,
}

/// How a TLS 1.2 suite protects its records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bulk12 {
    /// An AEAD (RFC 5246 §6.2.3.3).
    Aead(AeadAlg),
    /// AES-CBC with an HMAC (RFC 5246 §6.2.3.2), encrypt-then-MAC when negotiated (RFC 7366).
    #[cfg(feature = "cbc")]
    Cbc(CbcAlg),
}

/// The AES-CBC and HMAC pairs of the TLS 1.2 CBC suites (`cbc` feature).
#[cfg(feature = "cbc")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CbcAlg {
    /// AES-128-CBC with HMAC-SHA1 (`_AES_128_CBC_SHA`).
    Aes128Sha1,
    /// AES-256-CBC with HMAC-SHA1 (`_AES_256_CBC_SHA`).
    Aes256Sha1,
    /// AES-128-CBC with HMAC-SHA256 (`_AES_128_CBC_SHA256`).
    Aes128Sha256,
    /// AES-256-CBC with HMAC-SHA384 (`_AES_256_CBC_SHA384`, RFC 5289).
    Aes256Sha384,
}

#[cfg(feature = "cbc")]
impl CbcAlg {
    /// The AES key length.
    pub const fn key_len(self) -> usize {
        match self {
            Self::Aes128Sha1 | Self::Aes128Sha256 => 16,
            Self::Aes256Sha1 | Self::Aes256Sha384 => 32,
        }
    }

    /// The MAC key and MAC length: the hash's output length (RFC 5246 §6.2.3.1).
    pub const fn mac_len(self) -> usize {
        match self {
            Self::Aes128Sha1 | Self::Aes256Sha1 => 20,
            Self::Aes128Sha256 => 32,
            Self::Aes256Sha384 => 48,
        }
    }
}

impl Bulk12 {
    /// The write key length.
    pub fn key_len(self) -> usize {
        match self {
            Self::Aead(a) => a.key_len(),
            #[cfg(feature = "cbc")]
            Self::Cbc(c) => c.key_len(),
        }
    }
}

/// A TLS 1.2 suite: its code point, certificate kind, record protection and PRF hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suite12 {
    /// The wire value.
    pub suite: CipherSuite,
    /// Who signs the key exchange.
    pub auth: Auth,
    /// The record protection.
    pub bulk: Bulk12,
    /// The PRF hash (also the transcript hash for Finished and extended master secret).
    pub hash: HashAlg,
}

impl Suite12 {
    /// The write key length.
    pub fn key_len(&self) -> usize {
        self.bulk.key_len()
    }

    /// The write IV length from the key block: 4 for GCM and CCM (the fixed part), 12 for
    /// ChaCha20-Poly1305 (0 for a custom AEAD, which TLS 1.2 does not support yet). CBC
    /// records carry their IV; their 16 bytes here key the IV generator of the sending side
    /// (see `record::tls12`), which the peer never sees used.
    pub fn iv_len(&self) -> usize {
        match self.bulk {
            Bulk12::Aead(a) => NonceShape::of(a).map_or(0, NonceShape::iv_len),
            #[cfg(feature = "cbc")]
            Bulk12::Cbc(_) => 16,
        }
    }

    /// The MAC key length from the key block: 0 for an AEAD.
    pub fn mac_key_len(&self) -> usize {
        match self.bulk {
            Bulk12::Aead(_) => 0,
            #[cfg(feature = "cbc")]
            Bulk12::Cbc(c) => c.mac_len(),
        }
    }

    /// Whether records are AES-CBC with an HMAC.
    pub fn is_cbc(&self) -> bool {
        !matches!(self.bulk, Bulk12::Aead(_))
    }

    /// The IANA name, e.g. `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256` (`"unknown"` outside
    /// [`ALL_SUITES12`]).
    pub fn iana_name(&self) -> &'static str {
        NAMES.iter().find(|n| n.0 == self.suite).map_or("unknown", |n| n.1)
    }

    /// The OpenSSL name, e.g. `ECDHE-ECDSA-AES128-GCM-SHA256` (`"unknown"` outside
    /// [`ALL_SUITES12`]).
    pub fn openssl_name(&self) -> &'static str {
        NAMES.iter().find(|n| n.0 == self.suite).map_or("unknown", |n| n.2)
    }
}

/// Each suite's code point, IANA name and OpenSSL name.
const NAMES: &[(CipherSuite, &str, &str)] = &[
    (
        CipherSuite::ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        "ECDHE-ECDSA-AES128-GCM-SHA256",
    ),
    (
        CipherSuite::ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
        "ECDHE-ECDSA-AES256-GCM-SHA384",
    ),
    (
        CipherSuite::ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        "ECDHE-ECDSA-CHACHA20-POLY1305",
    ),
    (
        CipherSuite::ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "ECDHE-RSA-AES128-GCM-SHA256",
    ),
    (
        CipherSuite::ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384",
    ),
    (
        CipherSuite::ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        "ECDHE-RSA-CHACHA20-POLY1305",
    ),
    (
        CipherSuite::ECDHE_ECDSA_WITH_AES_128_CCM,
        "TLS_ECDHE_ECDSA_WITH_AES_128_CCM",
        "ECDHE-ECDSA-AES128-CCM",
    ),
    (
        CipherSuite::ECDHE_ECDSA_WITH_AES_128_CCM_8,
        "TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8",
        "ECDHE-ECDSA-AES128-CCM8",
    ),
    (
        CipherSuite::ECDHE_ECDSA_WITH_AES_128_CBC_SHA,
        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
        "ECDHE-ECDSA-AES128-SHA",
    ),
    (
        CipherSuite::ECDHE_ECDSA_WITH_AES_256_CBC_SHA,
        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
        "ECDHE-ECDSA-AES256-SHA",
    ),
    (
        CipherSuite::ECDHE_ECDSA_WITH_AES_128_CBC_SHA256,
        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
        "ECDHE-ECDSA-AES128-SHA256",
    ),
    (
        CipherSuite::ECDHE_RSA_WITH_AES_128_CBC_SHA,
        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
        "ECDHE-RSA-AES128-SHA",
    ),
    (
        CipherSuite::ECDHE_RSA_WITH_AES_256_CBC_SHA,
        "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
        "ECDHE-RSA-AES256-SHA",
    ),
    (
        CipherSuite::ECDHE_RSA_WITH_AES_128_CBC_SHA256,
        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
        "ECDHE-RSA-AES128-SHA256",
    ),
    (
        CipherSuite::ECDHE_ECDSA_WITH_AES_256_CBC_SHA384,
        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384",
        "ECDHE-ECDSA-AES256-SHA384",
    ),
    (
        CipherSuite::ECDHE_RSA_WITH_AES_256_CBC_SHA384,
        "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384",
        "ECDHE-RSA-AES256-SHA384",
    ),
];

const fn suite(suite: CipherSuite, auth: Auth, aead: AeadAlg, hash: HashAlg) -> Suite12 {
    Suite12 { suite, auth, bulk: Bulk12::Aead(aead), hash }
}

/// `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256`.
pub const TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: Suite12 = suite(
    CipherSuite::ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    Auth::Ecdsa,
    AeadAlg::Aes128Gcm,
    HashAlg::Sha256,
);
/// `TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384`.
pub const TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: Suite12 = suite(
    CipherSuite::ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    Auth::Ecdsa,
    AeadAlg::Aes256Gcm,
    HashAlg::Sha384,
);
/// `TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256`.
pub const TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: Suite12 = suite(
    CipherSuite::ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    Auth::Ecdsa,
    AeadAlg::ChaCha20Poly1305,
    HashAlg::Sha256,
);
/// `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`.
pub const TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: Suite12 = suite(
    CipherSuite::ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    Auth::Rsa,
    AeadAlg::Aes128Gcm,
    HashAlg::Sha256,
);
/// `TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384`.
pub const TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: Suite12 = suite(
    CipherSuite::ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    Auth::Rsa,
    AeadAlg::Aes256Gcm,
    HashAlg::Sha384,
);
/// `TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256`.
pub const TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: Suite12 = suite(
    CipherSuite::ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    Auth::Rsa,
    AeadAlg::ChaCha20Poly1305,
    HashAlg::Sha256,
);
/// `TLS_ECDHE_ECDSA_WITH_AES_128_CCM` (RFC 7251: the PRF is SHA-256).
pub const TLS_ECDHE_ECDSA_WITH_AES_128_CCM: Suite12 = suite(
    CipherSuite::ECDHE_ECDSA_WITH_AES_128_CCM,
    Auth::Ecdsa,
    AeadAlg::Aes128Ccm,
    HashAlg::Sha256,
);
/// `TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8` (its short tag makes it off by default).
pub const TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8: Suite12 = suite(
    CipherSuite::ECDHE_ECDSA_WITH_AES_128_CCM_8,
    Auth::Ecdsa,
    AeadAlg::Aes128Ccm8,
    HashAlg::Sha256,
);

#[cfg(feature = "cbc")]
const fn cbc(suite: CipherSuite, auth: Auth, alg: CbcAlg, hash: HashAlg) -> Suite12 {
    Suite12 { suite, auth, bulk: Bulk12::Cbc(alg), hash }
}

/// `TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA` (`cbc` feature; the PRF is SHA-256, RFC 5246 §5).
#[cfg(feature = "cbc")]
pub const TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: Suite12 = cbc(
    CipherSuite::ECDHE_ECDSA_WITH_AES_128_CBC_SHA,
    Auth::Ecdsa,
    CbcAlg::Aes128Sha1,
    HashAlg::Sha256,
);
/// `TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA` (`cbc` feature).
#[cfg(feature = "cbc")]
pub const TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: Suite12 = cbc(
    CipherSuite::ECDHE_ECDSA_WITH_AES_256_CBC_SHA,
    Auth::Ecdsa,
    CbcAlg::Aes256Sha1,
    HashAlg::Sha256,
);
/// `TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256` (`cbc` feature).
#[cfg(feature = "cbc")]
pub const TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: Suite12 = cbc(
    CipherSuite::ECDHE_ECDSA_WITH_AES_128_CBC_SHA256,
    Auth::Ecdsa,
    CbcAlg::Aes128Sha256,
    HashAlg::Sha256,
);
/// `TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384` (`cbc` feature; RFC 5289: the PRF is SHA-384).
#[cfg(feature = "cbc")]
pub const TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384: Suite12 = cbc(
    CipherSuite::ECDHE_ECDSA_WITH_AES_256_CBC_SHA384,
    Auth::Ecdsa,
    CbcAlg::Aes256Sha384,
    HashAlg::Sha384,
);
/// `TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA` (`cbc` feature).
#[cfg(feature = "cbc")]
pub const TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: Suite12 = cbc(
    CipherSuite::ECDHE_RSA_WITH_AES_128_CBC_SHA,
    Auth::Rsa,
    CbcAlg::Aes128Sha1,
    HashAlg::Sha256,
);
/// `TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA` (`cbc` feature).
#[cfg(feature = "cbc")]
pub const TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: Suite12 = cbc(
    CipherSuite::ECDHE_RSA_WITH_AES_256_CBC_SHA,
    Auth::Rsa,
    CbcAlg::Aes256Sha1,
    HashAlg::Sha256,
);
/// `TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256` (`cbc` feature).
#[cfg(feature = "cbc")]
pub const TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: Suite12 = cbc(
    CipherSuite::ECDHE_RSA_WITH_AES_128_CBC_SHA256,
    Auth::Rsa,
    CbcAlg::Aes128Sha256,
    HashAlg::Sha256,
);
/// `TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384` (`cbc` feature; RFC 5289: the PRF is SHA-384).
#[cfg(feature = "cbc")]
pub const TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384: Suite12 = cbc(
    CipherSuite::ECDHE_RSA_WITH_AES_256_CBC_SHA384,
    Auth::Rsa,
    CbcAlg::Aes256Sha384,
    HashAlg::Sha384,
);

/// The CBC suites (`cbc` feature), in order of preference: in no default list, and refused
/// in a configuration without `enable_cbc` (see the module documentation for why).
#[cfg(feature = "cbc")]
pub const CBC_SUITES12: &[Suite12] = &[
    TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256,
    TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384,
    TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,
    TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA,
    TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256,
    TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384,
    TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,
    TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,
];

/// The 1.2 suites offered and accepted by default, in order of preference (ECDSA before
/// RSA, AES-GCM before ChaCha20 as the 1.3 list has it).
pub const DEFAULT_SUITES12: &[Suite12] = &[
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    TLS_ECDHE_ECDSA_WITH_AES_128_CCM,
];

/// Every 1.2 suite this crate implements.
pub const ALL_SUITES12: &[Suite12] = &[
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    TLS_ECDHE_ECDSA_WITH_AES_128_CCM,
    TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8,
];

/// The suite among [`ALL_SUITES12`] (and `CBC_SUITES12` with the `cbc` feature) with this
/// IANA or OpenSSL name (for `--suites`).
pub fn by_name(name: &str) -> Option<Suite12> {
    #[cfg(feature = "cbc")]
    let all = ALL_SUITES12.iter().chain(CBC_SUITES12);
    #[cfg(not(feature = "cbc"))]
    let all = ALL_SUITES12.iter();
    all.copied().find(|s| s.iana_name() == name || s.openssl_name() == name)
}

/// The suite with this code point among `suites`.
pub fn find(suites: &[Suite12], code: CipherSuite) -> Option<Suite12> {
    suites.iter().copied().find(|s| s.suite == code)
}

/// Why a TLS 1.2 suite of the registry is refused, most serious reason first: a suite that
/// is both static RSA and CBC is [`Refused::StaticRsa`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// An export-grade suite (40/56-bit keys, RFC 2246 appendix).
    Export,
    /// No encryption at all.
    Null,
    /// No authentication (`DH_anon`, `ECDH_anon`).
    Anonymous,
    /// RC4 (RFC 7465).
    Rc4,
    /// DES or triple DES (64-bit blocks, Sweet32; RFC 9325 §4.1).
    TripleDes,
    /// Static RSA key transport: no forward secrecy, Bleichenbacher oracles (RFC 9325).
    StaticRsa,
    /// Static (EC)DH certificates: no forward secrecy.
    StaticDh,
    /// Finite-field ephemeral Diffie-Hellman (RFC 9325 §4.1: not recommended; no checked
    /// groups in 1.2 before RFC 7919).
    Dhe,
    /// Pre-shared key, SRP or Kerberos key exchanges, which Halite's 1.2 does not do.
    OtherKeyExchange,
    /// CBC with MAC-then-encrypt (Lucky13, POODLE-class padding oracles): the ECDHE ones
    /// are implemented, in `CBC_SUITES12` with the `cbc` feature, and off by default.
    Cbc,
}

#[derive(Clone, Copy)]
enum Kx {
    Rsa,
    Dh,
    Dhe,
    Ecdh,
    Ecdhe,
    Anon,
    Other,
}

#[derive(Clone, Copy)]
enum Enc {
    Null,
    Rc4,
    Des,
    Cbc,
    Aead,
}

/// Ranges of the IANA TLS Cipher Suites registry by key exchange and cipher; `true` marks
/// export suites. ARIA and Camellia GCM ranges and unassigned codes are left out.
const REGISTRY: &[(u16, u16, Kx, Enc, bool)] = {
    use Enc::{Aead, Cbc, Des, Null, Rc4};
    use Kx::{Anon, Dh, Dhe, Ecdh, Ecdhe, Other, Rsa};
    &[
        (0x0001, 0x0002, Rsa, Null, false),
        (0x0003, 0x0003, Rsa, Rc4, true),
        (0x0004, 0x0005, Rsa, Rc4, false),
        (0x0006, 0x0006, Rsa, Cbc, true),
        (0x0007, 0x0007, Rsa, Cbc, false),
        (0x0008, 0x0008, Rsa, Des, true),
        (0x0009, 0x000a, Rsa, Des, false),
        (0x000b, 0x000b, Dh, Des, true),
        (0x000c, 0x000d, Dh, Des, false),
        (0x000e, 0x000e, Dh, Des, true),
        (0x000f, 0x0010, Dh, Des, false),
        (0x0011, 0x0011, Dhe, Des, true),
        (0x0012, 0x0013, Dhe, Des, false),
        (0x0014, 0x0014, Dhe, Des, true),
        (0x0015, 0x0016, Dhe, Des, false),
        (0x0017, 0x0017, Anon, Rc4, true),
        (0x0018, 0x0018, Anon, Rc4, false),
        (0x0019, 0x0019, Anon, Des, true),
        (0x001a, 0x001b, Anon, Des, false),
        (0x001e, 0x0025, Other, Cbc, false),
        (0x0026, 0x002b, Other, Cbc, true),
        (0x002c, 0x002e, Other, Null, false),
        (0x002f, 0x002f, Rsa, Cbc, false),
        (0x0030, 0x0031, Dh, Cbc, false),
        (0x0032, 0x0033, Dhe, Cbc, false),
        (0x0034, 0x0034, Anon, Cbc, false),
        (0x0035, 0x0035, Rsa, Cbc, false),
        (0x0036, 0x0037, Dh, Cbc, false),
        (0x0038, 0x0039, Dhe, Cbc, false),
        (0x003a, 0x003a, Anon, Cbc, false),
        (0x003b, 0x003b, Rsa, Null, false),
        (0x003c, 0x003d, Rsa, Cbc, false),
        (0x003e, 0x003f, Dh, Cbc, false),
        (0x0040, 0x0040, Dhe, Cbc, false),
        (0x0041, 0x0041, Rsa, Cbc, false),
        (0x0042, 0x0043, Dh, Cbc, false),
        (0x0044, 0x0045, Dhe, Cbc, false),
        (0x0046, 0x0046, Anon, Cbc, false),
        (0x0067, 0x0067, Dhe, Cbc, false),
        (0x0068, 0x0069, Dh, Cbc, false),
        (0x006a, 0x006b, Dhe, Cbc, false),
        (0x006c, 0x006d, Anon, Cbc, false),
        (0x0084, 0x0084, Rsa, Cbc, false),
        (0x0085, 0x0086, Dh, Cbc, false),
        (0x0087, 0x0088, Dhe, Cbc, false),
        (0x0089, 0x0089, Anon, Cbc, false),
        (0x008a, 0x008a, Other, Rc4, false),
        (0x008b, 0x008b, Other, Des, false),
        (0x008c, 0x008d, Other, Cbc, false),
        (0x008e, 0x008e, Other, Rc4, false),
        (0x008f, 0x008f, Other, Des, false),
        (0x0090, 0x0091, Other, Cbc, false),
        (0x0092, 0x0092, Other, Rc4, false),
        (0x0093, 0x0093, Other, Des, false),
        (0x0094, 0x0095, Other, Cbc, false),
        (0x0096, 0x0096, Rsa, Cbc, false),
        (0x0097, 0x0098, Dh, Cbc, false),
        (0x0099, 0x009a, Dhe, Cbc, false),
        (0x009b, 0x009b, Anon, Cbc, false),
        (0x009c, 0x009d, Rsa, Aead, false),
        (0x009e, 0x009f, Dhe, Aead, false),
        (0x00a0, 0x00a1, Dh, Aead, false),
        (0x00a2, 0x00a3, Dhe, Aead, false),
        (0x00a4, 0x00a5, Dh, Aead, false),
        (0x00a6, 0x00a7, Anon, Aead, false),
        (0x00a8, 0x00ad, Other, Aead, false),
        (0x00ae, 0x00af, Other, Cbc, false),
        (0x00b0, 0x00b1, Other, Null, false),
        (0x00b2, 0x00b3, Other, Cbc, false),
        (0x00b4, 0x00b5, Other, Null, false),
        (0x00b6, 0x00b7, Other, Cbc, false),
        (0x00b8, 0x00b9, Other, Null, false),
        (0x00ba, 0x00ba, Rsa, Cbc, false),
        (0x00bb, 0x00bc, Dh, Cbc, false),
        (0x00bd, 0x00be, Dhe, Cbc, false),
        (0x00bf, 0x00bf, Anon, Cbc, false),
        (0x00c0, 0x00c0, Rsa, Cbc, false),
        (0x00c1, 0x00c2, Dh, Cbc, false),
        (0x00c3, 0x00c4, Dhe, Cbc, false),
        (0x00c5, 0x00c5, Anon, Cbc, false),
        (0xc001, 0xc001, Ecdh, Null, false),
        (0xc002, 0xc002, Ecdh, Rc4, false),
        (0xc003, 0xc003, Ecdh, Des, false),
        (0xc004, 0xc005, Ecdh, Cbc, false),
        (0xc006, 0xc006, Ecdhe, Null, false),
        (0xc007, 0xc007, Ecdhe, Rc4, false),
        (0xc008, 0xc008, Ecdhe, Des, false),
        (0xc009, 0xc00a, Ecdhe, Cbc, false),
        (0xc00b, 0xc00b, Ecdh, Null, false),
        (0xc00c, 0xc00c, Ecdh, Rc4, false),
        (0xc00d, 0xc00d, Ecdh, Des, false),
        (0xc00e, 0xc00f, Ecdh, Cbc, false),
        (0xc010, 0xc010, Ecdhe, Null, false),
        (0xc011, 0xc011, Ecdhe, Rc4, false),
        (0xc012, 0xc012, Ecdhe, Des, false),
        (0xc013, 0xc014, Ecdhe, Cbc, false),
        (0xc015, 0xc015, Anon, Null, false),
        (0xc016, 0xc016, Anon, Rc4, false),
        (0xc017, 0xc017, Anon, Des, false),
        (0xc018, 0xc019, Anon, Cbc, false),
        (0xc01a, 0xc01c, Other, Des, false),
        (0xc01d, 0xc022, Other, Cbc, false),
        (0xc023, 0xc024, Ecdhe, Cbc, false),
        (0xc025, 0xc026, Ecdh, Cbc, false),
        (0xc027, 0xc028, Ecdhe, Cbc, false),
        (0xc029, 0xc02a, Ecdh, Cbc, false),
        (0xc02b, 0xc02c, Ecdhe, Aead, false),
        (0xc02d, 0xc02e, Ecdh, Aead, false),
        (0xc02f, 0xc030, Ecdhe, Aead, false),
        (0xc031, 0xc032, Ecdh, Aead, false),
        (0xc033, 0xc033, Other, Rc4, false),
        (0xc034, 0xc034, Other, Des, false),
        (0xc035, 0xc038, Other, Cbc, false),
        (0xc039, 0xc03b, Other, Null, false),
        (0xc09c, 0xc09d, Rsa, Aead, false),
        (0xc09e, 0xc09f, Dhe, Aead, false),
        (0xc0a0, 0xc0a1, Rsa, Aead, false),
        (0xc0a2, 0xc0a3, Dhe, Aead, false),
        (0xc0a4, 0xc0ab, Other, Aead, false),
        (0xc0ac, 0xc0af, Ecdhe, Aead, false),
        (0xcca8, 0xcca9, Ecdhe, Aead, false),
        (0xccaa, 0xccaa, Dhe, Aead, false),
        (0xccab, 0xccae, Other, Aead, false),
    ]
};

/// Why `code` is refused, if it is a registered TLS 1.2 suite of a family Halite never
/// negotiates (CBC: not by default). `None` for the suites of [`ALL_SUITES12`], for ECDHE
/// AEAD suites it merely
/// does not implement (AES-256-CCM, ARIA, Camellia…), for TLS 1.3 suites, signalling values
/// and unknown codes.
pub fn refused(code: CipherSuite) -> Option<Refused> {
    let &(_, _, kx, enc, export) =
        REGISTRY.iter().find(|(lo, hi, ..)| (*lo..=*hi).contains(&code.0))?;
    Some(match (kx, enc) {
        _ if export => Refused::Export,
        (_, Enc::Null) => Refused::Null,
        (Kx::Anon, _) => Refused::Anonymous,
        (_, Enc::Rc4) => Refused::Rc4,
        (_, Enc::Des) => Refused::TripleDes,
        (Kx::Rsa, _) => Refused::StaticRsa,
        (Kx::Dh | Kx::Ecdh, _) => Refused::StaticDh,
        (Kx::Dhe, _) => Refused::Dhe,
        (Kx::Other, _) => Refused::OtherKeyExchange,
        (Kx::Ecdhe, Enc::Cbc) => Refused::Cbc,
        (Kx::Ecdhe, Enc::Aead) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_have_their_registry_codes_names_and_lengths() {
        let expected: [(u16, &str, Auth, usize, usize, HashAlg); 8] = [
            (0xc02b, "ECDHE-ECDSA-AES128-GCM-SHA256", Auth::Ecdsa, 16, 4, HashAlg::Sha256),
            (0xc02c, "ECDHE-ECDSA-AES256-GCM-SHA384", Auth::Ecdsa, 32, 4, HashAlg::Sha384),
            (0xcca9, "ECDHE-ECDSA-CHACHA20-POLY1305", Auth::Ecdsa, 32, 12, HashAlg::Sha256),
            (0xc02f, "ECDHE-RSA-AES128-GCM-SHA256", Auth::Rsa, 16, 4, HashAlg::Sha256),
            (0xc030, "ECDHE-RSA-AES256-GCM-SHA384", Auth::Rsa, 32, 4, HashAlg::Sha384),
            (0xcca8, "ECDHE-RSA-CHACHA20-POLY1305", Auth::Rsa, 32, 12, HashAlg::Sha256),
            (0xc0ac, "ECDHE-ECDSA-AES128-CCM", Auth::Ecdsa, 16, 4, HashAlg::Sha256),
            (0xc0ae, "ECDHE-ECDSA-AES128-CCM8", Auth::Ecdsa, 16, 4, HashAlg::Sha256),
        ];
        assert_eq!(ALL_SUITES12.len(), expected.len());
        for (s, (code, ossl, auth, key, iv, hash)) in ALL_SUITES12.iter().zip(expected) {
            assert_eq!(s.suite.0, code);
            assert_eq!(s.openssl_name(), ossl);
            assert_eq!((s.auth, s.key_len(), s.iv_len(), s.hash), (auth, key, iv, hash), "{s:?}");
            assert!(s.iana_name().starts_with("TLS_ECDHE_"));
            assert_eq!(by_name(s.iana_name()), Some(*s));
            assert_eq!(by_name(ossl), Some(*s));
            assert_eq!(find(ALL_SUITES12, s.suite), Some(*s));
            assert_eq!(refused(s.suite), None);
        }
        assert_eq!(TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8.bulk, Bulk12::Aead(AeadAlg::Aes128Ccm8));
        assert!(!DEFAULT_SUITES12.contains(&TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8));
        assert_eq!(by_name("TLS_AES_128_GCM_SHA256"), None);
        assert_eq!(by_name("RC4-SHA"), None);
        let unknown =
            Suite12 { suite: CipherSuite(0x1301), ..TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 };
        assert_eq!((unknown.iana_name(), unknown.openssl_name()), ("unknown", "unknown"));
    }

    #[test]
    fn refused_families_are_classified() {
        let cases: [(u16, Option<Refused>); 20] = [
            (0x0003, Some(Refused::Export)),    // RSA_EXPORT_WITH_RC4_40_MD5
            (0x0014, Some(Refused::Export)),    // DHE_RSA_EXPORT_WITH_DES40_CBC_SHA
            (0x0002, Some(Refused::Null)),      // RSA_WITH_NULL_SHA
            (0xc006, Some(Refused::Null)),      // ECDHE_ECDSA_WITH_NULL_SHA
            (0x0034, Some(Refused::Anonymous)), // DH_anon_WITH_AES_128_CBC_SHA
            (0xc018, Some(Refused::Anonymous)), // ECDH_anon_WITH_AES_128_CBC_SHA
            (0x0005, Some(Refused::Rc4)),       // RSA_WITH_RC4_128_SHA
            (0xc011, Some(Refused::Rc4)),       // ECDHE_RSA_WITH_RC4_128_SHA
            (0x000a, Some(Refused::TripleDes)), // RSA_WITH_3DES_EDE_CBC_SHA
            (0xc012, Some(Refused::TripleDes)), // ECDHE_RSA_WITH_3DES_EDE_CBC_SHA
            (0x002f, Some(Refused::StaticRsa)), // RSA_WITH_AES_128_CBC_SHA
            (0x009c, Some(Refused::StaticRsa)), // RSA_WITH_AES_128_GCM_SHA256
            (0xc02d, Some(Refused::StaticDh)),  // ECDH_ECDSA_WITH_AES_128_GCM_SHA256
            (0x009e, Some(Refused::Dhe)),       // DHE_RSA_WITH_AES_128_GCM_SHA256
            (0xccaa, Some(Refused::Dhe)),       // DHE_RSA_WITH_CHACHA20_POLY1305_SHA256
            (0x00a8, Some(Refused::OtherKeyExchange)), // PSK_WITH_AES_128_GCM_SHA256
            (0xc013, Some(Refused::Cbc)),       // ECDHE_RSA_WITH_AES_128_CBC_SHA
            (0xc027, Some(Refused::Cbc)),       // ECDHE_RSA_WITH_AES_128_CBC_SHA256
            (0xc0ad, None),                     // ECDHE_ECDSA_WITH_AES_256_CCM: not refused
            (0x1301, None),                     // a TLS 1.3 suite
        ];
        for (code, want) in cases {
            assert_eq!(refused(CipherSuite(code)), want, "{code:#06x}");
        }
        assert_eq!(refused(CipherSuite::EMPTY_RENEGOTIATION_INFO_SCSV), None);
        assert_eq!(refused(CipherSuite::FALLBACK_SCSV), None);
        // The table is sorted and its ranges do not overlap.
        assert!(REGISTRY.windows(2).all(|w| w[0].1 < w[1].0 && w[0].0 <= w[0].1));
    }

    /// Every suite's key block keys both directions of its record layer: what the client
    /// writes the server reads, and a direction keyed with the other side's keys fails.
    #[test]
    fn every_suite_keys_records_from_its_key_block() {
        use crate::msgs::ContentType;
        use crate::record::tls12::RecordProtection12;
        use crate::schedule::tls12::{MasterSecret, Sender};
        #[cfg(feature = "cbc")]
        let all = ALL_SUITES12.iter().chain(CBC_SUITES12);
        #[cfg(not(feature = "cbc"))]
        let all = ALL_SUITES12.iter();
        for s in all {
            let ms = MasterSecret::from_bytes(s.hash, &[7; 48]).unwrap();
            let (mac, key, iv) = (s.mac_key_len(), s.key_len(), s.iv_len());
            let kb = ms.key_block_with_mac(mac, key, iv, &[1; 32], &[2; 32]).unwrap();
            let keyed = |sender| RecordProtection12::keyed(s.bulk, &kb, sender, false).unwrap();
            let (mut client_tx, mut server_rx) = (keyed(Sender::Client), keyed(Sender::Client));
            let mut wrong_rx = keyed(Sender::Server);
            let mut buf = [0u8; 96];
            let n = client_tx.seal(ContentType::HANDSHAKE, b"finished", &mut buf).unwrap();
            let mut copy = buf;
            assert_eq!(server_rx.open(&mut buf[..n]).unwrap().1, b"finished", "{s:?}");
            assert!(wrong_rx.open(&mut copy[..n]).is_err(), "{s:?}");
        }
    }
}
