//! The protocol's registries (RFC 8446 §4 and the IANA TLS parameters) as open newtypes: each
//! is a `u8` or `u16` with named constants, so a value this crate does not know survives a
//! round trip and still prints as a number.

use core::fmt;

use super::codec::{Codec, EncodeError, InvalidMessage, Reader, Writer};

macro_rules! wire_enum {
    (
        $(#[$doc:meta])*
        $name:ident($int:ident) { $($(#[$vdoc:meta])* $var:ident = $val:expr,)* }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub $int);

        impl $name {
            $($(#[$vdoc])* pub const $var: Self = Self($val);)*

            /// The registry name of a known value.
            pub fn name(self) -> Option<&'static str> {
                match self {
                    $(Self::$var => Some(stringify!($var)),)*
                    _ => None,
                }
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self.name() {
                    Some(n) => f.write_str(n),
                    None => write!(f, "{}({:#x})", stringify!($name), self.0),
                }
            }
        }

        impl Codec<'_> for $name {
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
                self.0.encode(w)
            }
            fn read(r: &mut Reader<'_>) -> Result<Self, InvalidMessage> {
                $int::read(r).map(Self)
            }
        }
    };
}

wire_enum! {
    /// The record layer's content type (RFC 8446 §5.1).
    ContentType(u8) {
        /// `change_cipher_spec`, only ever seen for middlebox compatibility.
        CHANGE_CIPHER_SPEC = 20,
        /// `alert`.
        ALERT = 21,
        /// `handshake`.
        HANDSHAKE = 22,
        /// `application_data`, also the outer type of every protected record.
        APPLICATION_DATA = 23,
    }
}

wire_enum! {
    /// A handshake message's type (RFC 8446 §4).
    HandshakeType(u8) {
        /// `hello_request` (TLS 1.2, RFC 5246 §7.4.1.1): a renegotiation request, refused.
        HELLO_REQUEST = 0,
        /// `client_hello`.
        CLIENT_HELLO = 1,
        /// `server_hello` (also HelloRetryRequest).
        SERVER_HELLO = 2,
        /// `new_session_ticket`.
        NEW_SESSION_TICKET = 4,
        /// `end_of_early_data`.
        END_OF_EARLY_DATA = 5,
        /// `encrypted_extensions`.
        ENCRYPTED_EXTENSIONS = 8,
        /// `certificate`.
        CERTIFICATE = 11,
        /// `server_key_exchange` (TLS 1.2, RFC 5246 §7.4.3).
        SERVER_KEY_EXCHANGE = 12,
        /// `certificate_request`.
        CERTIFICATE_REQUEST = 13,
        /// `server_hello_done` (TLS 1.2, RFC 5246 §7.4.5).
        SERVER_HELLO_DONE = 14,
        /// `certificate_verify`.
        CERTIFICATE_VERIFY = 15,
        /// `client_key_exchange` (TLS 1.2, RFC 5246 §7.4.7).
        CLIENT_KEY_EXCHANGE = 16,
        /// `finished`.
        FINISHED = 20,
        /// `key_update`.
        KEY_UPDATE = 24,
        /// `message_hash`, the synthetic message that replaces ClientHello1 after an HRR.
        MESSAGE_HASH = 254,
    }
}

wire_enum! {
    /// A protocol version (`legacy_version` and `supported_versions`).
    ProtocolVersion(u16) {
        /// TLS 1.0, which Halite does not speak: the legacy record version of an initial
        /// ClientHello (RFC 8446 §5.1).
        TLSV1_0 = 0x0301,
        /// TLS 1.2, the legacy version every TLS 1.3 hello carries.
        TLSV1_2 = 0x0303,
        /// TLS 1.3.
        TLSV1_3 = 0x0304,
    }
}

wire_enum! {
    /// An extension's type (RFC 8446 §4.2 and others).
    ExtensionType(u16) {
        /// `server_name` (RFC 6066).
        SERVER_NAME = 0,
        /// `max_fragment_length` (RFC 6066).
        MAX_FRAGMENT_LENGTH = 1,
        /// `supported_groups`.
        SUPPORTED_GROUPS = 10,
        /// `ec_point_formats` (TLS 1.2, RFC 8422 §5.1.2).
        EC_POINT_FORMATS = 11,
        /// `signature_algorithms`.
        SIGNATURE_ALGORITHMS = 13,
        /// `application_layer_protocol_negotiation` (RFC 7301).
        ALPN = 16,
        /// `client_certificate_type` (RFC 7250 §4.1).
        CLIENT_CERTIFICATE_TYPE = 19,
        /// `server_certificate_type` (RFC 7250 §4.1).
        SERVER_CERTIFICATE_TYPE = 20,
        /// `encrypt_then_mac` (TLS 1.2 CBC suites, RFC 7366 §2).
        ENCRYPT_THEN_MAC = 22,
        /// `extended_master_secret` (TLS 1.2, RFC 7627 §5.1).
        EXTENDED_MASTER_SECRET = 23,
        /// `record_size_limit` (RFC 8449).
        RECORD_SIZE_LIMIT = 28,
        /// `session_ticket` (TLS 1.2, RFC 5077 §3.2).
        SESSION_TICKET = 35,
        /// `pre_shared_key`.
        PRE_SHARED_KEY = 41,
        /// `early_data`.
        EARLY_DATA = 42,
        /// `supported_versions`.
        SUPPORTED_VERSIONS = 43,
        /// `cookie`.
        COOKIE = 44,
        /// `psk_key_exchange_modes`.
        PSK_KEY_EXCHANGE_MODES = 45,
        /// `signature_algorithms_cert`.
        SIGNATURE_ALGORITHMS_CERT = 50,
        /// `key_share`.
        KEY_SHARE = 51,
        /// `renegotiation_info` (TLS 1.2, RFC 5746 §3.2).
        RENEGOTIATION_INFO = 0xff01,
    }
}

wire_enum! {
    /// What a Certificate message's entries hold (RFC 7250 §3, IANA's TLS Certificate Types).
    CertificateType(u8) {
        /// An X.509 certificate chain, the default.
        X509 = 0,
        /// One DER SubjectPublicKeyInfo, a raw public key the peer knows by value.
        RAW_PUBLIC_KEY = 2,
    }
}

wire_enum! {
    /// A key-exchange group (RFC 8446 §4.2.7).
    NamedGroup(u16) {
        /// `secp256r1`.
        SECP256R1 = 0x0017,
        /// `secp384r1`.
        SECP384R1 = 0x0018,
        /// `secp521r1`.
        SECP521R1 = 0x0019,
        /// `x25519`.
        X25519 = 0x001d,
        /// `x448`.
        X448 = 0x001e,
        /// `SecP256r1MLKEM768`: P-256 ECDH and ML-KEM-768 (draft-ietf-tls-ecdhe-mlkem).
        SECP256R1MLKEM768 = 0x11eb,
        /// `X25519MLKEM768`: ML-KEM-768 and X25519 (draft-ietf-tls-ecdhe-mlkem).
        X25519MLKEM768 = 0x11ec,
        /// `SecP384r1MLKEM1024`: P-384 ECDH and ML-KEM-1024 (draft-ietf-tls-ecdhe-mlkem).
        SECP384R1MLKEM1024 = 0x11ed,
    }
}

wire_enum! {
    /// A signature scheme (RFC 8446 §4.2.3).
    SignatureScheme(u16) {
        /// `rsa_pkcs1_sha256`.
        RSA_PKCS1_SHA256 = 0x0401,
        /// `rsa_pkcs1_sha384`.
        RSA_PKCS1_SHA384 = 0x0501,
        /// `rsa_pkcs1_sha512`.
        RSA_PKCS1_SHA512 = 0x0601,
        /// `ecdsa_secp256r1_sha256`.
        ECDSA_SECP256R1_SHA256 = 0x0403,
        /// `ecdsa_secp384r1_sha384`.
        ECDSA_SECP384R1_SHA384 = 0x0503,
        /// `ecdsa_secp521r1_sha512`.
        ECDSA_SECP521R1_SHA512 = 0x0603,
        /// `rsa_pss_rsae_sha256`.
        RSA_PSS_RSAE_SHA256 = 0x0804,
        /// `rsa_pss_rsae_sha384`.
        RSA_PSS_RSAE_SHA384 = 0x0805,
        /// `rsa_pss_rsae_sha512`.
        RSA_PSS_RSAE_SHA512 = 0x0806,
        /// `ed25519`.
        ED25519 = 0x0807,
        /// `ed448`.
        ED448 = 0x0808,
        /// `rsa_pss_pss_sha256`.
        RSA_PSS_PSS_SHA256 = 0x0809,
        /// `rsa_pss_pss_sha384`.
        RSA_PSS_PSS_SHA384 = 0x080a,
        /// `rsa_pss_pss_sha512`.
        RSA_PSS_PSS_SHA512 = 0x080b,
        /// `mldsa44` (draft-ietf-tls-mldsa: pure ML-DSA-44, TLS 1.3 only).
        ML_DSA_44 = 0x0904,
        /// `mldsa65`.
        ML_DSA_65 = 0x0905,
        /// `mldsa87`.
        ML_DSA_87 = 0x0906,
    }
}

wire_enum! {
    /// A cipher suite (RFC 8446 §B.4; the TLS 1.2 ones Halite implements, RFC 5289, RFC 7905,
    /// RFC 7251, named as IANA names them without the `TLS_` prefix).
    CipherSuite(u16) {
        /// `TLS_AES_128_GCM_SHA256`.
        TLS13_AES_128_GCM_SHA256 = 0x1301,
        /// `TLS_AES_256_GCM_SHA384`.
        TLS13_AES_256_GCM_SHA384 = 0x1302,
        /// `TLS_CHACHA20_POLY1305_SHA256`.
        TLS13_CHACHA20_POLY1305_SHA256 = 0x1303,
        /// `TLS_AES_128_CCM_SHA256`.
        TLS13_AES_128_CCM_SHA256 = 0x1304,
        /// `TLS_AES_128_CCM_8_SHA256`.
        TLS13_AES_128_CCM_8_SHA256 = 0x1305,
        /// `TLS_EMPTY_RENEGOTIATION_INFO_SCSV` (RFC 5746 §3.3): not a suite, a client's
        /// signal that it supports secure renegotiation.
        EMPTY_RENEGOTIATION_INFO_SCSV = 0x00ff,
        /// `TLS_FALLBACK_SCSV` (RFC 7507): not a suite, a client's signal that it retries
        /// with a lower version than it supports.
        FALLBACK_SCSV = 0x5600,
        /// `TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA` (RFC 8422).
        ECDHE_ECDSA_WITH_AES_128_CBC_SHA = 0xc009,
        /// `TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA` (RFC 8422).
        ECDHE_ECDSA_WITH_AES_256_CBC_SHA = 0xc00a,
        /// `TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA` (RFC 8422).
        ECDHE_RSA_WITH_AES_128_CBC_SHA = 0xc013,
        /// `TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA` (RFC 8422).
        ECDHE_RSA_WITH_AES_256_CBC_SHA = 0xc014,
        /// `TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256` (RFC 5289).
        ECDHE_ECDSA_WITH_AES_128_CBC_SHA256 = 0xc023,
        /// `TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384` (RFC 5289).
        ECDHE_ECDSA_WITH_AES_256_CBC_SHA384 = 0xc024,
        /// `TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256` (RFC 5289).
        ECDHE_RSA_WITH_AES_128_CBC_SHA256 = 0xc027,
        /// `TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384` (RFC 5289).
        ECDHE_RSA_WITH_AES_256_CBC_SHA384 = 0xc028,
        /// `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256` (RFC 5289).
        ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 = 0xc02b,
        /// `TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384` (RFC 5289).
        ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 = 0xc02c,
        /// `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256` (RFC 5289).
        ECDHE_RSA_WITH_AES_128_GCM_SHA256 = 0xc02f,
        /// `TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384` (RFC 5289).
        ECDHE_RSA_WITH_AES_256_GCM_SHA384 = 0xc030,
        /// `TLS_ECDHE_ECDSA_WITH_AES_128_CCM` (RFC 7251).
        ECDHE_ECDSA_WITH_AES_128_CCM = 0xc0ac,
        /// `TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8` (RFC 7251).
        ECDHE_ECDSA_WITH_AES_128_CCM_8 = 0xc0ae,
        /// `TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256` (RFC 7905).
        ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 = 0xcca8,
        /// `TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256` (RFC 7905).
        ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 = 0xcca9,
    }
}

wire_enum! {
    /// An alert's level (RFC 8446 §6).
    AlertLevel(u8) {
        /// `warning`.
        WARNING = 1,
        /// `fatal`.
        FATAL = 2,
    }
}

wire_enum! {
    /// An alert's description (RFC 8446 §6).
    AlertDescription(u8) {
        /// `close_notify`.
        CLOSE_NOTIFY = 0,
        /// `unexpected_message`.
        UNEXPECTED_MESSAGE = 10,
        /// `bad_record_mac`.
        BAD_RECORD_MAC = 20,
        /// `record_overflow`.
        RECORD_OVERFLOW = 22,
        /// `handshake_failure`.
        HANDSHAKE_FAILURE = 40,
        /// `bad_certificate`.
        BAD_CERTIFICATE = 42,
        /// `unsupported_certificate`.
        UNSUPPORTED_CERTIFICATE = 43,
        /// `certificate_revoked`.
        CERTIFICATE_REVOKED = 44,
        /// `certificate_expired`.
        CERTIFICATE_EXPIRED = 45,
        /// `certificate_unknown`.
        CERTIFICATE_UNKNOWN = 46,
        /// `illegal_parameter`.
        ILLEGAL_PARAMETER = 47,
        /// `unknown_ca`.
        UNKNOWN_CA = 48,
        /// `access_denied`.
        ACCESS_DENIED = 49,
        /// `decode_error`.
        DECODE_ERROR = 50,
        /// `decrypt_error`.
        DECRYPT_ERROR = 51,
        /// `protocol_version`.
        PROTOCOL_VERSION = 70,
        /// `insufficient_security`.
        INSUFFICIENT_SECURITY = 71,
        /// `internal_error`.
        INTERNAL_ERROR = 80,
        /// `inappropriate_fallback`.
        INAPPROPRIATE_FALLBACK = 86,
        /// `user_canceled`.
        USER_CANCELED = 90,
        /// `no_renegotiation` (TLS 1.2, RFC 5246 §7.2.2).
        NO_RENEGOTIATION = 100,
        /// `missing_extension`.
        MISSING_EXTENSION = 109,
        /// `unsupported_extension`.
        UNSUPPORTED_EXTENSION = 110,
        /// `unrecognized_name`.
        UNRECOGNIZED_NAME = 112,
        /// `bad_certificate_status_response`.
        BAD_CERTIFICATE_STATUS_RESPONSE = 113,
        /// `unknown_psk_identity`.
        UNKNOWN_PSK_IDENTITY = 115,
        /// `certificate_required`.
        CERTIFICATE_REQUIRED = 116,
        /// `no_application_protocol`.
        NO_APPLICATION_PROTOCOL = 120,
    }
}

wire_enum! {
    /// A PSK key-exchange mode (RFC 8446 §4.2.9).
    PskKeyExchangeMode(u8) {
        /// `psk_ke`: resumption without a fresh key exchange.
        PSK_KE = 0,
        /// `psk_dhe_ke`: resumption with (EC)DHE.
        PSK_DHE_KE = 1,
    }
}

wire_enum! {
    /// A `max_fragment_length` value (RFC 6066 §4): the most plaintext bytes a record may
    /// carry, as a code for 2^9 to 2^12.
    MaxFragmentLength(u8) {
        /// 512 bytes.
        LEN_512 = 1,
        /// 1024 bytes.
        LEN_1024 = 2,
        /// 2048 bytes.
        LEN_2048 = 3,
        /// 4096 bytes.
        LEN_4096 = 4,
    }
}

impl MaxFragmentLength {
    /// The length in bytes, or `None` for a code RFC 6066 does not define.
    pub fn bytes(self) -> Option<usize> {
        matches!(self.0, 1..=4).then(|| 256 << self.0)
    }
}

wire_enum! {
    /// Whether a KeyUpdate asks the peer to update its own keys too (RFC 8446 §4.6.3).
    KeyUpdateRequest(u8) {
        /// `update_not_requested`.
        UPDATE_NOT_REQUESTED = 0,
        /// `update_requested`.
        UPDATE_REQUESTED = 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;

    #[test]
    fn unknown_values_survive_and_print() {
        let g = NamedGroup::decode(&[0x12, 0x34]).unwrap();
        assert_eq!(g, NamedGroup(0x1234));
        assert_eq!(format!("{g:?}"), "NamedGroup(0x1234)");
        assert_eq!(format!("{:?}", NamedGroup::X25519), "X25519");
        let mut buf = [0u8; 2];
        let mut w = Writer::new(&mut buf);
        g.encode(&mut w).unwrap();
        assert_eq!(buf, [0x12, 0x34]);
    }

    #[cfg(feature = "tls12")]
    #[test]
    fn tls12_registry_values() {
        assert_eq!(HandshakeType::HELLO_REQUEST, HandshakeType(0));
        assert_eq!(HandshakeType::SERVER_KEY_EXCHANGE, HandshakeType(12));
        assert_eq!(HandshakeType::SERVER_HELLO_DONE, HandshakeType(14));
        assert_eq!(HandshakeType::CLIENT_KEY_EXCHANGE, HandshakeType(16));
        assert_eq!(format!("{:?}", HandshakeType(14)), "SERVER_HELLO_DONE");
        assert_eq!(ExtensionType::EC_POINT_FORMATS, ExtensionType(11));
        assert_eq!(ExtensionType::EXTENDED_MASTER_SECRET, ExtensionType(23));
        assert_eq!(ExtensionType::SESSION_TICKET, ExtensionType(35));
        assert_eq!(ExtensionType::RENEGOTIATION_INFO, ExtensionType(0xff01));
        assert_eq!(format!("{:?}", ExtensionType(0xff01)), "RENEGOTIATION_INFO");
        assert_eq!(CipherSuite::FALLBACK_SCSV, CipherSuite(0x5600));
        assert_eq!(CipherSuite::EMPTY_RENEGOTIATION_INFO_SCSV, CipherSuite(0x00ff));
        let suites = [
            (CipherSuite::ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, 0xc02b),
            (CipherSuite::ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, 0xc02c),
            (CipherSuite::ECDHE_RSA_WITH_AES_128_GCM_SHA256, 0xc02f),
            (CipherSuite::ECDHE_RSA_WITH_AES_256_GCM_SHA384, 0xc030),
            (CipherSuite::ECDHE_ECDSA_WITH_AES_128_CCM, 0xc0ac),
            (CipherSuite::ECDHE_ECDSA_WITH_AES_128_CCM_8, 0xc0ae),
            (CipherSuite::ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, 0xcca8),
            (CipherSuite::ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, 0xcca9),
        ];
        for (s, code) in suites {
            assert_eq!(s.0, code);
            // The Debug name is the IANA name without its `TLS_` prefix.
            let iana = crate::suites::tls12::ALL_SUITES12.iter().find(|x| x.suite == s).unwrap();
            assert_eq!(std::format!("TLS_{s:?}"), iana.iana_name());
        }
    }
}
