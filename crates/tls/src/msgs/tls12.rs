//! The messages and extension bodies only TLS 1.2 has (RFC 5246, RFC 8422 for ECDHE,
//! RFC 7627, RFC 5746, RFC 5077), on the same strict [`Reader`]/[`Writer`] codec as the 1.3
//! messages, and the downgrade sentinels of RFC 8446 §4.1.3.
//!
//! Every vector is checked against its declared range (`<1..2^8-1>` and so on): an empty
//! vector where the grammar needs one item, a truncated field or a trailing byte is an
//! [`InvalidMessage`].

use crate::error::{Error, PeerMisbehaved};
use crate::msgs::{
    Codec, EncodeError, InvalidMessage, List, NamedGroup, Payload, ProtocolVersion, Reader,
    SignatureScheme, U8, U16, U24, Writer,
};

/// `ECCurveType.named_curve` (RFC 8422 §5.4), the only curve type allowed.
pub const NAMED_CURVE: u8 = 3;
/// `ECPointFormat.uncompressed` (RFC 8422 §5.1.2).
pub const UNCOMPRESSED: u8 = 0;
/// `ClientCertificateType.rsa_sign` (RFC 5246 §7.4.4).
pub const RSA_SIGN: u8 = 1;
/// `ClientCertificateType.ecdsa_sign` (RFC 8422 §5.5).
pub const ECDSA_SIGN: u8 = 64;

/// The last 8 bytes of a TLS 1.3-capable server's random when it negotiates TLS 1.2.
pub const DOWNGRADE_TLS12: [u8; 8] = *b"DOWNGRD\x01";
/// The last 8 bytes of a TLS 1.2-or-later server's random when it negotiates TLS 1.1 or
/// below.
pub const DOWNGRADE_TLS11: [u8; 8] = *b"DOWNGRD\x00";
/// What JDK 11's servers write in place of [`DOWNGRADE_TLS12`] (a bug of theirs) when they
/// negotiate TLS 1.2; BoringSSL refuses it as the TLS 1.2 sentinel, and so does Halite.
pub const DOWNGRADE_JDK11: [u8; 8] = [0xed, 0xbf, 0xb4, 0xa8, 0xc2, 0x47, 0x10, 0xff];

/// `opaque x<1..2^8-1>`: a one-byte-length vector that may not be empty.
fn read_u8_non_empty<'a>(r: &mut Reader<'a>) -> Result<&'a [u8], InvalidMessage> {
    let v = Payload::<U8>::read(r)?.0;
    if v.is_empty() {
        return Err(InvalidMessage::BadLength);
    }
    Ok(v)
}

/// ServerECDHParams (RFC 8422 §5.4): a named curve and the server's ephemeral public key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EcdheParams<'a> {
    /// The group (`ECParameters` with `curve_type` named_curve).
    pub group: NamedGroup,
    /// The public key (`ECPoint`, `opaque point<1..2^8-1>`).
    pub public: &'a [u8],
}

impl<'a> Codec<'a> for EcdheParams<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.u8(NAMED_CURVE)?;
        self.group.encode(w)?;
        w.bytes::<U8>(self.public)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        // explicit_prime (1) and explicit_char2 (2) are deprecated (RFC 8422 §5.4).
        if r.u8()? != NAMED_CURVE {
            return Err(InvalidMessage::IllegalValue);
        }
        let group = NamedGroup::read(r)?;
        let public = read_u8_non_empty(r)?;
        Ok(Self { group, public })
    }
}

/// The longest content a ServerKeyExchange signature covers: both randoms, the curve type,
/// the group and a point of at most 255 bytes with its length.
pub const MAX_SIGNED_PARAMS_LEN: usize = 32 + 32 + 1 + 2 + 1 + 255;

/// What a ServerKeyExchange signature covers (RFC 8422 §5.4), held without an allocator.
#[derive(Clone, Copy)]
pub struct SignedParams {
    bytes: [u8; MAX_SIGNED_PARAMS_LEN],
    len: usize,
}

impl AsRef<[u8]> for SignedParams {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl core::fmt::Debug for SignedParams {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SignedParams({} bytes)", self.len)
    }
}

impl EcdheParams<'_> {
    /// `client_random ‖ server_random ‖ ServerECDHParams`: the content the server signs.
    /// A point over 255 bytes (which no group has, and which cannot be encoded) is an
    /// [`EncodeError`].
    pub fn signed_content(
        &self,
        client_random: &[u8; 32],
        server_random: &[u8; 32],
    ) -> Result<SignedParams, EncodeError> {
        let mut s = SignedParams { bytes: [0; MAX_SIGNED_PARAMS_LEN], len: 0 };
        let mut w = Writer::new(&mut s.bytes);
        w.put(client_random)?;
        w.put(server_random)?;
        self.encode(&mut w)?;
        s.len = w.len();
        Ok(s)
    }
}

/// ServerKeyExchange for the ECDHE suites (RFC 8422 §5.4, RFC 5246 §7.4.3): the parameters
/// and the `DigitallySigned` over them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerKeyExchange<'a> {
    /// The curve and the server's ephemeral public key.
    pub params: EcdheParams<'a>,
    /// The signature scheme (`SignatureAndHashAlgorithm`, the same code points).
    pub scheme: SignatureScheme,
    /// The signature (`opaque signature<0..2^16-1>`).
    pub signature: &'a [u8],
}

impl<'a> Codec<'a> for ServerKeyExchange<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        self.params.encode(w)?;
        self.scheme.encode(w)?;
        w.bytes::<U16>(self.signature)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let params = EcdheParams::read(r)?;
        let scheme = SignatureScheme::read(r)?;
        let signature = Payload::<U16>::read(r)?.0;
        Ok(Self { params, scheme, signature })
    }
}

/// ClientKeyExchange for the ECDHE suites (RFC 8422 §5.7): the client's ephemeral public
/// key (`ECPoint`, `opaque point<1..2^8-1>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientKeyExchange<'a> {
    /// The public key.
    pub public: &'a [u8],
}

impl<'a> Codec<'a> for ClientKeyExchange<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<U8>(self.public)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        Ok(Self { public: read_u8_non_empty(r)? })
    }
}

/// A `DistinguishedName` (`opaque DistinguishedName<1..2^16-1>`), DER left uninterpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistinguishedName<'a>(pub &'a [u8]);

impl<'a> Codec<'a> for DistinguishedName<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<U16>(self.0)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let dn = Payload::<U16>::read(r)?.0;
        if dn.is_empty() {
            return Err(InvalidMessage::BadLength);
        }
        Ok(Self(dn))
    }
}

/// The TLS 1.2 CertificateRequest (RFC 5246 §7.4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CertificateRequest12<'a> {
    /// `ClientCertificateType certificate_types<1..2^8-1>` ([`RSA_SIGN`], [`ECDSA_SIGN`]…).
    pub certificate_types: &'a [u8],
    /// `supported_signature_algorithms<2..2^16-2>`.
    pub signature_algorithms: List<'a, SignatureScheme, U16>,
    /// `DistinguishedName certificate_authorities<0..2^16-1>`.
    pub certificate_authorities: List<'a, DistinguishedName<'a>, U16>,
}

impl<'a> Codec<'a> for CertificateRequest12<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<U8>(self.certificate_types)?;
        self.signature_algorithms.encode(w)?;
        self.certificate_authorities.encode(w)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let certificate_types = read_u8_non_empty(r)?;
        let signature_algorithms = List::read(r)?;
        if signature_algorithms.is_empty() {
            return Err(InvalidMessage::BadLength);
        }
        let certificate_authorities = List::read(r)?;
        Ok(Self { certificate_types, signature_algorithms, certificate_authorities })
    }
}

/// ServerHelloDone (RFC 5246 §7.4.5): an empty body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerHelloDone;

impl Codec<'_> for ServerHelloDone {
    fn encode(&self, _: &mut Writer<'_>) -> Result<(), EncodeError> {
        Ok(())
    }
    fn read(_: &mut Reader<'_>) -> Result<Self, InvalidMessage> {
        Ok(Self)
    }
}

/// One certificate of a TLS 1.2 chain (`opaque ASN.1Cert<1..2^24-1>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asn1Cert<'a>(pub &'a [u8]);

impl<'a> Codec<'a> for Asn1Cert<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<U24>(self.0)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let cert = Payload::<U24>::read(r)?.0;
        if cert.is_empty() {
            return Err(InvalidMessage::BadLength);
        }
        Ok(Self(cert))
    }
}

/// The TLS 1.2 Certificate message (RFC 5246 §7.4.2): the chain, end entity first, with no
/// request context and no per-certificate extensions. An empty chain is a client declining
/// to authenticate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Certificate12<'a> {
    /// `ASN.1Cert certificate_list<0..2^24-1>`.
    pub certs: List<'a, Asn1Cert<'a>, U24>,
}

impl<'a> Codec<'a> for Certificate12<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        self.certs.encode(w)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        Ok(Self { certs: List::read(r)? })
    }
}

/// The TLS 1.2 NewSessionTicket (RFC 5077 §3.3). An empty ticket means the server sends
/// none after all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewSessionTicket12<'a> {
    /// `ticket_lifetime_hint` in seconds (0: unspecified).
    pub lifetime_hint: u32,
    /// `opaque ticket<0..2^16-1>`.
    pub ticket: &'a [u8],
}

impl<'a> Codec<'a> for NewSessionTicket12<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.u32(self.lifetime_hint)?;
        w.bytes::<U16>(self.ticket)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let lifetime_hint = r.u32()?;
        let ticket = Payload::<U16>::read(r)?.0;
        Ok(Self { lifetime_hint, ticket })
    }
}

/// The `extended_master_secret` extension body (RFC 7627 §5.1): empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtendedMasterSecret;

impl Codec<'_> for ExtendedMasterSecret {
    fn encode(&self, _: &mut Writer<'_>) -> Result<(), EncodeError> {
        Ok(())
    }
    fn read(_: &mut Reader<'_>) -> Result<Self, InvalidMessage> {
        Ok(Self)
    }
}

/// The `renegotiation_info` extension body (RFC 5746 §3.2):
/// `opaque renegotiated_connection<0..255>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenegotiationInfo<'a>(pub &'a [u8]);

impl RenegotiationInfo<'_> {
    /// The body for an initial handshake: empty.
    pub const INITIAL: Self = Self(&[]);

    /// On an initial handshake (the only kind Halite does) the field must be empty (RFC 5746
    /// §3.4, §3.6): [`PeerMisbehaved::RenegotiationInfoNotEmpty`] otherwise.
    pub fn check_initial(&self) -> Result<(), Error> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(PeerMisbehaved::RenegotiationInfoNotEmpty.into())
        }
    }
}

impl<'a> Codec<'a> for RenegotiationInfo<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<U8>(self.0)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        Ok(Self(Payload::<U8>::read(r)?.0))
    }
}

/// The `ec_point_formats` extension body (RFC 8422 §5.1.2):
/// `ECPointFormat ec_point_format_list<1..2^8-1>`, which must include uncompressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EcPointFormats<'a>(pub List<'a, u8, U8>);

impl EcPointFormats<'_> {
    /// The only list Halite sends: uncompressed.
    pub const UNCOMPRESSED_ONLY: Self = EcPointFormats(List::items(&[UNCOMPRESSED]));
}

impl<'a> Codec<'a> for EcPointFormats<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        self.0.encode(w)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let list = List::<u8, U8>::read(r)?;
        if list.is_empty() {
            return Err(InvalidMessage::BadLength);
        }
        // RFC 8422 §5.1.2: a list without uncompressed is refused with illegal_parameter.
        if !list.contains(&UNCOMPRESSED) {
            return Err(InvalidMessage::IllegalValue);
        }
        Ok(Self(list))
    }
}

/// The `session_ticket` extension body (RFC 5077 §3.2): the ticket itself, with no length
/// prefix of its own (empty in a ServerHello, or from a client with no ticket).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionTicketExt<'a>(pub &'a [u8]);

impl<'a> Codec<'a> for SessionTicketExt<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.put(self.0)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        Ok(Self(r.take(r.left())?))
    }
}

/// Which downgrade sentinel a server random ends with (RFC 8446 §4.1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Downgrade {
    /// `DOWNGRD\x01`: a TLS 1.3 server negotiated TLS 1.2.
    ToTls12,
    /// `DOWNGRD\x00`: a TLS 1.2 (or later) server negotiated TLS 1.1 or below.
    ToTls11,
    /// [`DOWNGRADE_JDK11`]: JDK 11's mistaken form of `ToTls12`.
    Jdk11,
}

/// The sentinel at the end of `server_random`, if any.
pub fn downgrade_sentinel(server_random: &[u8; 32]) -> Option<Downgrade> {
    let tail = &server_random[24..];
    if tail == DOWNGRADE_TLS12 {
        Some(Downgrade::ToTls12)
    } else if tail == DOWNGRADE_TLS11 {
        Some(Downgrade::ToTls11)
    } else if tail == DOWNGRADE_JDK11 {
        Some(Downgrade::Jdk11)
    } else {
        None
    }
}

/// The client's check of a TLS 1.2 (or older) ServerHello's random (RFC 8446 §4.1.3): a
/// client that offered up to `client_max` refuses either sentinel if it offered TLS 1.3, and
/// the TLS 1.1 one if it offered TLS 1.2 — [`PeerMisbehaved::DowngradeDetected`].
pub fn check_downgrade(server_random: &[u8; 32], client_max: ProtocolVersion) -> Result<(), Error> {
    let refused = match downgrade_sentinel(server_random) {
        None => false,
        Some(Downgrade::ToTls12 | Downgrade::Jdk11) => client_max >= ProtocolVersion::TLSV1_3,
        Some(Downgrade::ToTls11) => client_max >= ProtocolVersion::TLSV1_2,
    };
    if refused { Err(PeerMisbehaved::DowngradeDetected.into()) } else { Ok(()) }
}

/// The server's side: a server that supports TLS 1.3 and negotiates TLS 1.2 writes the
/// sentinel into the last 8 bytes of its fresh random (RFC 8446 §4.1.3); otherwise the
/// random is left alone.
pub fn mark_downgrade(server_random: &mut [u8; 32], server_max: ProtocolVersion) {
    if server_max >= ProtocolVersion::TLSV1_3 {
        server_random[24..].copy_from_slice(&DOWNGRADE_TLS12);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hex_literal::hex;

    /// Encodes `v`, checks it decodes back to itself, and returns the encoding.
    fn round_trip<'a, T: Codec<'a> + PartialEq + core::fmt::Debug>(
        v: &T,
        buf: &'a mut [u8],
    ) -> &'a [u8] {
        let mut w = Writer::new(buf);
        v.encode(&mut w).unwrap();
        let n = w.len();
        let bytes = &buf[..n];
        assert_eq!(T::decode(bytes).as_ref(), Ok(v));
        bytes
    }

    /// Every proper prefix and every one-byte extension of `bytes` fails to decode as `T`.
    fn prefixes_and_trailers_fail<'a, T: Codec<'a> + core::fmt::Debug>(bytes: &'a [u8]) {
        for n in 0..bytes.len() {
            assert!(T::decode(&bytes[..n]).is_err(), "prefix of {n} bytes decoded");
        }
        let mut longer = bytes.to_vec();
        longer.push(0);
        let longer: &'a [u8] = std::boxed::Box::leak(longer.into_boxed_slice());
        assert_eq!(T::decode(longer).map(|_| ()), Err(InvalidMessage::TrailingData));
    }

    #[test]
    fn server_key_exchange_round_trips_and_gives_the_signed_content() {
        let ske = ServerKeyExchange {
            params: EcdheParams { group: NamedGroup::X25519, public: &[9; 32] },
            scheme: SignatureScheme::ECDSA_SECP256R1_SHA256,
            signature: &[0x30, 0x44, 1, 2],
        };
        let mut buf = [0u8; 128];
        let bytes = round_trip(&ske, &mut buf);
        assert_eq!(bytes[..4], [3, 0x00, 0x1d, 32]);
        assert_eq!(bytes[36..], [0x04, 0x03, 0, 4, 0x30, 0x44, 1, 2]);
        prefixes_and_trailers_fail::<ServerKeyExchange<'_>>(bytes);
        let signed = ske.params.signed_content(&[1; 32], &[2; 32]).unwrap();
        let mut expected = std::vec![1u8; 32];
        expected.extend([2u8; 32]);
        expected.extend(&bytes[..36]);
        assert_eq!(signed.as_ref(), &expected[..]);
        // Explicit curves, and an empty point, are refused.
        let mut explicit = bytes.to_vec();
        explicit[0] = 1;
        assert_eq!(
            ServerKeyExchange::decode(&explicit).map(|_| ()),
            Err(InvalidMessage::IllegalValue)
        );
        assert_eq!(
            ServerKeyExchange::decode(&[3, 0, 0x17, 0, 4, 3, 0, 0]).map(|_| ()),
            Err(InvalidMessage::BadLength)
        );
        // The longest point still fits the signed content; the signature may be empty.
        let big = EcdheParams { group: NamedGroup::SECP521R1, public: &[4; 255] };
        assert_eq!(big.signed_content(&[0; 32], &[0; 32]).unwrap().as_ref().len(), 323);
        let long = EcdheParams { group: NamedGroup::SECP521R1, public: &[4; 256] };
        assert!(long.signed_content(&[0; 32], &[0; 32]).is_err());
        let empty_sig = ServerKeyExchange { signature: &[], ..ske };
        round_trip(&empty_sig, &mut buf);
    }

    #[test]
    fn client_key_exchange_needs_a_point() {
        let cke = ClientKeyExchange { public: &hex!("04 0102") };
        let mut buf = [0u8; 8];
        let bytes = round_trip(&cke, &mut buf);
        assert_eq!(bytes, hex!("03 04 0102"));
        prefixes_and_trailers_fail::<ClientKeyExchange<'_>>(bytes);
        assert_eq!(ClientKeyExchange::decode(&[0]).map(|_| ()), Err(InvalidMessage::BadLength));
        let too_long = ClientKeyExchange { public: &[0; 256] };
        assert_eq!(too_long.encode(&mut Writer::new(&mut [0; 300])), Err(EncodeError));
    }

    #[test]
    fn certificate_request_round_trips_and_refuses_bad_lengths() {
        let schemes =
            [SignatureScheme::ECDSA_SECP256R1_SHA256, SignatureScheme::RSA_PSS_RSAE_SHA256];
        let cas = [DistinguishedName(b"\x30\x00"), DistinguishedName(b"\x30\x01\x00")];
        let req = CertificateRequest12 {
            certificate_types: &[ECDSA_SIGN, RSA_SIGN],
            signature_algorithms: List::items(&schemes),
            certificate_authorities: List::items(&cas),
        };
        let mut buf = [0u8; 64];
        let bytes = round_trip(&req, &mut buf);
        assert_eq!(bytes, hex!("02 4001 0004 0403 0804 0009 0002 3000 0003 300100"));
        prefixes_and_trailers_fail::<CertificateRequest12<'_>>(bytes);
        let bad = |b: &[u8]| CertificateRequest12::decode(b).map(|_| ());
        // No certificate types; no schemes; an odd scheme list; an empty DN.
        assert_eq!(bad(&hex!("00 0002 0403 0000")), Err(InvalidMessage::BadLength));
        assert_eq!(bad(&hex!("01 40 0000 0000")), Err(InvalidMessage::BadLength));
        assert_eq!(bad(&hex!("01 40 0003 040308 0000")), Err(InvalidMessage::BadLength));
        assert_eq!(bad(&hex!("01 40 0002 0403 0002 0000")), Err(InvalidMessage::BadLength));
        // No authorities is fine.
        assert!(bad(&hex!("01 40 0002 0403 0000")).is_ok());
    }

    #[test]
    fn server_hello_done_and_extended_master_secret_are_empty() {
        assert_eq!(ServerHelloDone::decode(&[]), Ok(ServerHelloDone));
        assert_eq!(ServerHelloDone::decode(&[0]), Err(InvalidMessage::TrailingData));
        assert_eq!(ExtendedMasterSecret::decode(&[]), Ok(ExtendedMasterSecret));
        assert_eq!(ExtendedMasterSecret::decode(&[0]), Err(InvalidMessage::TrailingData));
        let mut buf = [0u8; 1];
        assert!(round_trip(&ServerHelloDone, &mut buf).is_empty());
        assert!(round_trip(&ExtendedMasterSecret, &mut buf).is_empty());
    }

    #[test]
    fn certificate_round_trips_and_refuses_empty_certs() {
        let certs = [Asn1Cert(b"\x30\x03abc"), Asn1Cert(b"\x30\x00")];
        let msg = Certificate12 { certs: List::items(&certs) };
        let mut buf = [0u8; 32];
        let bytes = round_trip(&msg, &mut buf);
        assert_eq!(bytes, hex!("00000d 000005 3003616263 000002 3000"));
        prefixes_and_trailers_fail::<Certificate12<'_>>(bytes);
        assert_eq!(Certificate12::decode(&hex!("000000")).map(|c| c.certs.is_empty()), Ok(true));
        assert_eq!(
            Certificate12::decode(&hex!("000003 000000")).map(|_| ()),
            Err(InvalidMessage::BadLength)
        );
        // A certificate whose length runs past the list.
        assert_eq!(
            Certificate12::decode(&hex!("000004 000002 30")).map(|_| ()),
            Err(InvalidMessage::BadLength)
        );
    }

    #[test]
    fn new_session_ticket_round_trips() {
        let t = NewSessionTicket12 { lifetime_hint: 7200, ticket: b"opaque" };
        let mut buf = [0u8; 16];
        let bytes = round_trip(&t, &mut buf);
        assert_eq!(bytes, hex!("00001c20 0006 6f7061717565"));
        prefixes_and_trailers_fail::<NewSessionTicket12<'_>>(bytes);
        let none = NewSessionTicket12 { lifetime_hint: 0, ticket: b"" };
        assert_eq!(round_trip(&none, &mut buf), hex!("00000000 0000"));
    }

    #[test]
    fn renegotiation_info_must_be_empty_initially() {
        let mut buf = [0u8; 16];
        assert_eq!(round_trip(&RenegotiationInfo::INITIAL, &mut buf), [0]);
        assert_eq!(RenegotiationInfo::INITIAL.check_initial(), Ok(()));
        let r = RenegotiationInfo::decode(&hex!("0c 000102030405060708090a0b")).unwrap();
        assert_eq!(
            r.check_initial(),
            Err(Error::PeerMisbehaved(PeerMisbehaved::RenegotiationInfoNotEmpty))
        );
        assert_eq!(
            Error::from(PeerMisbehaved::RenegotiationInfoNotEmpty).alert(),
            Some(crate::msgs::AlertDescription::HANDSHAKE_FAILURE)
        );
        prefixes_and_trailers_fail::<RenegotiationInfo<'_>>(&[1, 0]);
        assert_eq!(RenegotiationInfo::decode(&[]), Err(InvalidMessage::Truncated));
    }

    #[test]
    fn ec_point_formats_must_offer_uncompressed() {
        let mut buf = [0u8; 4];
        assert_eq!(round_trip(&EcPointFormats::UNCOMPRESSED_ONLY, &mut buf), [1, 0]);
        assert!(EcPointFormats::decode(&[3, 1, 0, 2]).is_ok());
        assert_eq!(EcPointFormats::decode(&[2, 1, 2]), Err(InvalidMessage::IllegalValue));
        assert_eq!(EcPointFormats::decode(&[0]), Err(InvalidMessage::BadLength));
        assert_eq!(EcPointFormats::decode(&[2, 0]).map(|_| ()), Err(InvalidMessage::Truncated));
        assert_eq!(EcPointFormats::decode(&[]).map(|_| ()), Err(InvalidMessage::Truncated));
    }

    #[test]
    fn session_ticket_extension_is_the_bare_ticket() {
        let mut buf = [0u8; 8];
        assert_eq!(round_trip(&SessionTicketExt(b"tkt"), &mut buf), b"tkt");
        assert_eq!(SessionTicketExt::decode(&[]), Ok(SessionTicketExt(&[])));
    }

    #[test]
    fn downgrade_sentinels_are_set_and_checked() {
        assert_eq!(DOWNGRADE_TLS12, hex!("44 4F 57 4E 47 52 44 01"));
        assert_eq!(DOWNGRADE_TLS11, hex!("44 4F 57 4E 47 52 44 00"));
        let plain = [0x5a; 32];
        let mut r12 = plain;
        mark_downgrade(&mut r12, ProtocolVersion::TLSV1_3);
        let mut r11 = plain;
        r11[24..].copy_from_slice(&DOWNGRADE_TLS11);
        let mut untouched = plain;
        mark_downgrade(&mut untouched, ProtocolVersion::TLSV1_2);
        assert_eq!(untouched, plain);
        assert_eq!(downgrade_sentinel(&plain), None);
        assert_eq!(downgrade_sentinel(&r12), Some(Downgrade::ToTls12));
        assert_eq!(downgrade_sentinel(&r11), Some(Downgrade::ToTls11));
        let detected = Err(Error::PeerMisbehaved(PeerMisbehaved::DowngradeDetected));
        let (v13, v12) = (ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2);
        assert_eq!(check_downgrade(&plain, v13), Ok(()));
        assert_eq!(check_downgrade(&r12, v13), detected);
        assert_eq!(check_downgrade(&r11, v13), detected);
        assert_eq!(check_downgrade(&r12, v12), Ok(()), "a 1.2-only client ignores the 1.2 mark");
        assert_eq!(check_downgrade(&r11, v12), detected);
        // JDK 11's form of the TLS 1.2 mark (BoGo's Client-RejectJDK11DowngradeRandom).
        let mut jdk = plain;
        jdk[24..].copy_from_slice(&hex!("ed bf b4 a8 c2 47 10 ff"));
        assert_eq!(downgrade_sentinel(&jdk), Some(Downgrade::Jdk11));
        assert_eq!(check_downgrade(&jdk, v13), detected);
        assert_eq!(check_downgrade(&jdk, v12), Ok(()));
    }

    proptest::proptest! {
        /// No input makes any decoder panic, and what decodes re-encodes to the same bytes.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600)) {
            fn check<'a, T: Codec<'a>>(bytes: &'a [u8]) {
                if let Ok(v) = T::decode(bytes) {
                    let mut buf = std::vec![0u8; bytes.len()];
                    let mut w = Writer::new(&mut buf);
                    v.encode(&mut w).unwrap();
                    assert_eq!(w.written(), bytes);
                }
            }
            check::<ServerKeyExchange<'_>>(&bytes);
            check::<ClientKeyExchange<'_>>(&bytes);
            check::<CertificateRequest12<'_>>(&bytes);
            check::<ServerHelloDone>(&bytes);
            check::<Certificate12<'_>>(&bytes);
            check::<NewSessionTicket12<'_>>(&bytes);
            check::<ExtendedMasterSecret>(&bytes);
            check::<RenegotiationInfo<'_>>(&bytes);
            check::<EcPointFormats<'_>>(&bytes);
            check::<SessionTicketExt<'_>>(&bytes);
        }
    }
}
