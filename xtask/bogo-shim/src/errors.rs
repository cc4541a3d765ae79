//! Halite's errors as BoringSSL's error codes (`:NAME:` on stderr), which the runner matches
//! against each test's expected error; where BoringSSL distinguishes more cases than Halite,
//! the config's `ErrorMap` lists Halite's name as an accepted alternative.

use tls::msgs::{AlertDescription, InvalidMessage};
use tls::{CertificateError, Error, PeerIncompatible, PeerMisbehaved};

/// The BoringSSL error code for `e`.
pub(crate) fn code(e: Error) -> String {
    let name = match e {
        Error::InvalidMessage(m) => match m {
            InvalidMessage::DuplicateExtension => "DUPLICATE_EXTENSION",
            InvalidMessage::UnexpectedExtension => "UNEXPECTED_EXTENSION",
            InvalidMessage::MissingExtension => "MISSING_EXTENSION",
            InvalidMessage::IllegalValue => "ILLEGAL_PARAMETER",
            _ => "DECODE_ERROR",
        },
        Error::PeerMisbehaved(p) => match p {
            PeerMisbehaved::SelectedUnofferedParameter => "WRONG_CIPHER_RETURNED",
            PeerMisbehaved::InvalidKeyShare => "BAD_ECPOINT",
            PeerMisbehaved::BadFinished | PeerMisbehaved::BadPskBinder => "DIGEST_CHECK_FAILED",
            PeerMisbehaved::BadSignature => "BAD_SIGNATURE",
            PeerMisbehaved::InterleavedOrUnalignedRecords => "EXCESS_HANDSHAKE_DATA",
            PeerMisbehaved::EmptyRecord => "UNEXPECTED_RECORD",
            PeerMisbehaved::DowngradeDetected => "TLS13_DOWNGRADE",
            PeerMisbehaved::InappropriateFallback => "INAPPROPRIATE_FALLBACK",
            PeerMisbehaved::UselessRetryRequest => "ILLEGAL_HELLO_RETRY_REQUEST_WITH_OFFERED_GROUP",
            PeerMisbehaved::TooMuchEarlyData => "TOO_MUCH_SKIPPED_EARLY_DATA",
            PeerMisbehaved::TooManyEmptyRecords => "TOO_MANY_EMPTY_FRAGMENTS",
            PeerMisbehaved::TooManyKeyUpdates => "TOO_MANY_KEY_UPDATES",
            PeerMisbehaved::TooManyWarningAlerts => "TOO_MANY_WARNING_ALERTS",
            // UnexpectedMessage, and what later versions add.
            _ => "UNEXPECTED_MESSAGE",
        },
        Error::PeerIncompatible(p) => match p {
            PeerIncompatible::NoTls13 | PeerIncompatible::NoCommonVersion => "UNSUPPORTED_PROTOCOL",
            PeerIncompatible::Renegotiation => "NO_RENEGOTIATION",
            PeerIncompatible::NoExtendedMasterSecret => "EXTENDED_MASTER_SECRET_REQUIRED",
            PeerIncompatible::NoCommonSuite => "NO_SHARED_CIPHER",
            PeerIncompatible::NoCommonGroup => "NO_SHARED_GROUP",
            PeerIncompatible::NoCommonSignatureScheme
            | PeerIncompatible::NoSchemeInCommon { .. } => "NO_COMMON_SIGNATURE_ALGORITHMS",
            PeerIncompatible::NoCommonAlpn => "NO_APPLICATION_PROTOCOL",
            PeerIncompatible::UnknownPskIdentity => "PSK_IDENTITY_NOT_FOUND",
            _ => "HANDSHAKE_FAILURE",
        },
        Error::InvalidCertificate(CertificateError::NoCertificate) => {
            "PEER_DID_NOT_RETURN_A_CERTIFICATE"
        }
        Error::InvalidCertificate(CertificateError::BadEncoding) => "CANNOT_PARSE_LEAF_CERT",
        Error::InvalidCertificate(CertificateError::KeyUsageForbidsSigning) => {
            "KEY_USAGE_BIT_INCORRECT"
        }
        Error::InvalidCertificate(_) => "CERTIFICATE_VERIFY_FAILED",
        Error::DecryptFailed => "DECRYPTION_FAILED_OR_BAD_RECORD_MAC",
        Error::RecordOverflow => "ENCRYPTED_LENGTH_TOO_LONG",
        Error::AlertReceived(a) => return format!(":{}:", alert_code(a)),
        Error::BufferTooSmall { .. } => "EXCESSIVE_MESSAGE_SIZE",
        Error::SequenceExhausted | Error::RandomFailed | Error::ApiMisuse(_) => "INTERNAL_ERROR",
        _ => "UNKNOWN_ERROR",
    };
    format!(":{name}:")
}

/// BoringSSL's code for a fatal alert received from the peer (`SSL_R_SSLV3_ALERT_…` and
/// `SSL_R_TLSV1_ALERT_…`, by the RFC that introduced the alert).
fn alert_code(a: AlertDescription) -> String {
    let name = match a.0 {
        0 => "SSLV3_ALERT_CLOSE_NOTIFY",
        10 => "SSLV3_ALERT_UNEXPECTED_MESSAGE",
        20 => "SSLV3_ALERT_BAD_RECORD_MAC",
        21 => "TLSV1_ALERT_DECRYPTION_FAILED",
        22 => "TLSV1_ALERT_RECORD_OVERFLOW",
        30 => "SSLV3_ALERT_DECOMPRESSION_FAILURE",
        40 => "SSLV3_ALERT_HANDSHAKE_FAILURE",
        41 => "SSLV3_ALERT_NO_CERTIFICATE",
        42 => "SSLV3_ALERT_BAD_CERTIFICATE",
        43 => "SSLV3_ALERT_UNSUPPORTED_CERTIFICATE",
        44 => "SSLV3_ALERT_CERTIFICATE_REVOKED",
        45 => "SSLV3_ALERT_CERTIFICATE_EXPIRED",
        46 => "SSLV3_ALERT_CERTIFICATE_UNKNOWN",
        47 => "SSLV3_ALERT_ILLEGAL_PARAMETER",
        48 => "TLSV1_ALERT_UNKNOWN_CA",
        49 => "TLSV1_ALERT_ACCESS_DENIED",
        50 => "TLSV1_ALERT_DECODE_ERROR",
        51 => "TLSV1_ALERT_DECRYPT_ERROR",
        60 => "TLSV1_ALERT_EXPORT_RESTRICTION",
        70 => "TLSV1_ALERT_PROTOCOL_VERSION",
        71 => "TLSV1_ALERT_INSUFFICIENT_SECURITY",
        80 => "TLSV1_ALERT_INTERNAL_ERROR",
        86 => "TLSV1_ALERT_INAPPROPRIATE_FALLBACK",
        90 => "TLSV1_ALERT_USER_CANCELLED",
        100 => "TLSV1_ALERT_NO_RENEGOTIATION",
        109 => "TLSV1_ALERT_MISSING_EXTENSION",
        110 => "TLSV1_UNSUPPORTED_EXTENSION",
        111 => "TLSV1_CERTIFICATE_UNOBTAINABLE",
        112 => "TLSV1_UNRECOGNIZED_NAME",
        113 => "TLSV1_BAD_CERTIFICATE_STATUS_RESPONSE",
        114 => "TLSV1_BAD_CERTIFICATE_HASH_VALUE",
        115 => "TLSV1_ALERT_UNKNOWN_PSK_IDENTITY",
        116 => "TLSV1_ALERT_CERTIFICATE_REQUIRED",
        120 => "TLSV1_ALERT_NO_APPLICATION_PROTOCOL",
        121 => "TLSV1_ALERT_ECH_REQUIRED",
        n => return format!("TLSV1_ALERT_UNKNOWN_{n}"),
    };
    name.to_owned()
}
