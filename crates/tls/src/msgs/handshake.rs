//! TLS 1.3 handshake messages (RFC 8446 §4) and the extensions they carry, decoded by
//! borrowing from the received bytes and encoded into a caller's buffer.
//!
//! Extensions are decoded into a struct per message with one field per extension this crate
//! understands; unknown ones are skipped (as the RFC requires of receivers) except in
//! EncryptedExtensions, which only answers what the ClientHello asked; a repeated known one
//! is an error, and one a message must not carry is refused.

use super::codec::{
    Codec, EncodeError, InvalidMessage, List, Payload, Reader, U8, U16, U24, Writer,
};
use super::enums::{
    CertificateType, CipherSuite, ExtensionType, HandshakeType, KeyUpdateRequest,
    MaxFragmentLength, NamedGroup, ProtocolVersion, PskKeyExchangeMode, SignatureScheme,
};

/// The `random` a ServerHello carries when it is really a HelloRetryRequest (RFC 8446 §4.1.3).
pub const HELLO_RETRY_REQUEST_RANDOM: [u8; 32] = [
    0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
    0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
];

/// One offered or chosen key share: a group and the public key in that group's encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyShareEntry<'a> {
    /// The group.
    pub group: NamedGroup,
    /// The public value (`opaque key_exchange<1..2^16-1>`).
    pub key: &'a [u8],
}

impl<'a> Codec<'a> for KeyShareEntry<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        self.group.encode(w)?;
        w.bytes::<U16>(self.key)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let group = NamedGroup::read(r)?;
        let key = Payload::<U16>::read(r)?.0;
        if key.is_empty() {
            return Err(InvalidMessage::IllegalValue);
        }
        Ok(Self { group, key })
    }
}

/// A protocol name in ALPN (`opaque ProtocolName<1..2^8-1>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProtocolName<'a>(pub &'a [u8]);

impl<'a> Codec<'a> for ProtocolName<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<U8>(self.0)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let p = Payload::<U8>::read(r)?.0;
        // `opaque ProtocolName<1..2^8-1>` (RFC 7301 §3.1): an empty name does not parse.
        if p.is_empty() {
            return Err(InvalidMessage::BadLength);
        }
        Ok(Self(p))
    }
}

/// One PSK identity offered in `pre_shared_key` (RFC 8446 §4.2.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PskIdentity<'a> {
    /// The ticket (`opaque identity<1..2^16-1>`).
    pub identity: &'a [u8],
    /// The ticket's age in milliseconds plus its `age_add`, modulo 2^32.
    pub obfuscated_age: u32,
}

impl<'a> Codec<'a> for PskIdentity<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<U16>(self.identity)?;
        w.u32(self.obfuscated_age)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let identity = Payload::<U16>::read(r)?.0;
        if identity.is_empty() {
            return Err(InvalidMessage::IllegalValue);
        }
        Ok(Self { identity, obfuscated_age: r.u32()? })
    }
}

/// One PSK binder (`opaque PskBinderEntry<32..255>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PskBinder<'a>(pub &'a [u8]);

impl<'a> Codec<'a> for PskBinder<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<U8>(self.0)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let b = Payload::<U8>::read(r)?.0;
        // `opaque PskBinderEntry<32..255>` (RFC 8446 §4.2.11): a shorter one does not parse,
        // which is decode_error (§6), not an illegal value.
        if b.len() < 32 {
            return Err(InvalidMessage::BadLength);
        }
        Ok(Self(b))
    }
}

/// A ClientHello's `pre_shared_key` extension: identities and their binders, one each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OfferedPsks<'a> {
    /// The identities.
    pub identities: List<'a, PskIdentity<'a>, U16>,
    /// The binders, in the same order.
    pub binders: List<'a, PskBinder<'a>, U16>,
}

impl OfferedPsks<'_> {
    /// The encoded length of the binders list (with its two-byte length): what is cut off the
    /// end of the ClientHello to hash it for the binders.
    pub fn binders_encoded_len(&self) -> usize {
        2 + self.binders.iter().map(|b| 1 + b.0.len()).sum::<usize>()
    }
}

/// Whether an extension of type `typ` appears in `earlier`, the well-formed start of the same
/// extensions block.
fn repeats(earlier: &[u8], typ: ExtensionType) -> bool {
    let mut r = Reader::new(earlier);
    while let (Ok(t), Ok(_)) = (ExtensionType::read(&mut r), r.sub::<U16>()) {
        if t == typ {
            return true;
        }
    }
    false
}

/// Reads an extensions block, calling `each` with every extension's type and a reader over
/// its body; `each` must consume the whole body. A type that appears twice, known to this
/// crate or not, is [`InvalidMessage::DuplicateExtension`] (RFC 8446 §4.2: "There MUST NOT be
/// more than one extension of the same type in a given extension block"). The check rescans
/// the block, quadratic in its extension count, which the handshake buffer bounds.
fn read_extensions<'a>(
    r: &mut Reader<'a>,
    each: impl FnMut(ExtensionType, &mut Reader<'a>) -> Result<bool, InvalidMessage>,
) -> Result<(), InvalidMessage> {
    read_extension_block(r.sub::<U16>()?, each)
}

/// As [`read_extensions`], over the contents of a block whose length is already read.
fn read_extension_block<'a>(
    mut block: Reader<'a>,
    mut each: impl FnMut(ExtensionType, &mut Reader<'a>) -> Result<bool, InvalidMessage>,
) -> Result<(), InvalidMessage> {
    let whole = block.rest();
    while !block.is_empty() {
        let earlier = &whole[..whole.len() - block.left()];
        let typ = ExtensionType::read(&mut block)?;
        let mut body = block.sub::<U16>()?;
        if repeats(earlier, typ) {
            return Err(InvalidMessage::DuplicateExtension);
        }
        if each(typ, &mut body)? {
            body.expect_empty()?;
        }
    }
    Ok(())
}

/// Reads a `cookie` extension body: `opaque cookie<1..2^16-1>` (RFC 8446 §4.2.2), so an empty
/// one is a decode error.
fn read_cookie<'a>(r: &mut Reader<'a>) -> Result<&'a [u8], InvalidMessage> {
    let cookie = Payload::<U16>::read(r)?.0;
    if cookie.is_empty() {
        return Err(InvalidMessage::BadLength);
    }
    Ok(cookie)
}

/// Writes one extension: type, then a body with a two-byte length.
fn write_extension(
    w: &mut Writer<'_>,
    typ: ExtensionType,
    body: impl FnOnce(&mut Writer<'_>) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    typ.encode(w)?;
    w.prefixed::<U16>(body)
}

/// Reads a `server_name` extension body from a ClientHello: the host name, the only name type
/// defined (RFC 6066 §3), checked by [`dns_host_name`].
fn read_server_name<'a>(r: &mut Reader<'a>) -> Result<&'a [u8], InvalidMessage> {
    let mut list = r.sub::<U16>()?;
    let mut host = None;
    while !list.is_empty() {
        let name_type = list.u8()?;
        let name = Payload::<U16>::read(&mut list)?.0;
        if name_type == 0 {
            if host.is_some() {
                return Err(InvalidMessage::IllegalValue);
            }
            host = Some(dns_host_name(name).ok_or(InvalidMessage::IllegalValue)?);
        }
    }
    host.ok_or(InvalidMessage::IllegalValue)
}

/// `name` as a DNS host name (RFC 6066 §3, RFC 1123 §2.1), without the one trailing dot a
/// client may have left on it; `None` if it is not one. A host name is ASCII letters, digits
/// and hyphens (and underscores, which real names carry) in dot-separated labels of 1 to 63
/// bytes that neither start nor end with a hyphen, 253 bytes at most. A name whose last label
/// is all digits is an IP literal (no top-level domain is numeric), which §3 forbids; an IPv6
/// literal fails on its colons.
pub fn dns_host_name(name: &[u8]) -> Option<&[u8]> {
    let name = name.strip_suffix(b".").unwrap_or(name);
    if name.is_empty() || name.len() > 253 {
        return None;
    }
    let mut last_numeric = false;
    for label in name.split(|&b| b == b'.') {
        let ok = (1..=63).contains(&label.len())
            && label.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            && label.first() != Some(&b'-')
            && label.last() != Some(&b'-');
        if !ok {
            return None;
        }
        last_numeric = label.iter().all(u8::is_ascii_digit);
    }
    (!last_numeric).then_some(name)
}

/// Reads a list the protocol says holds at least one item (`<2..2^16-2>` and the like, e.g.
/// `supported_signature_algorithms` in RFC 8446 §4.2.3): an empty one is `decode_error`.
fn read_non_empty<'a, T: Codec<'a> + Copy, W: super::codec::LenWidth>(
    r: &mut Reader<'a>,
) -> Result<List<'a, T, W>, InvalidMessage> {
    let list = List::read(r)?;
    if list.is_empty() {
        return Err(InvalidMessage::BadLength);
    }
    Ok(list)
}

/// Reads a `max_fragment_length` body: a code outside the four RFC 6066 defines is
/// `illegal_parameter` (RFC 6066 §4).
fn read_max_fragment_length(r: &mut Reader<'_>) -> Result<MaxFragmentLength, InvalidMessage> {
    let m = MaxFragmentLength::read(r)?;
    m.bytes().map(|_| m).ok_or(InvalidMessage::IllegalValue)
}

/// The extensions of a ClientHello this crate understands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientExtensions<'a> {
    /// `server_name`: the DNS host name the client wants (decoding refuses anything else,
    /// and drops a trailing dot: see [`dns_host_name`]).
    pub server_name: Option<&'a [u8]>,
    /// `supported_versions`.
    pub supported_versions: Option<List<'a, ProtocolVersion, U8>>,
    /// `supported_groups`.
    pub supported_groups: Option<List<'a, NamedGroup, U16>>,
    /// `signature_algorithms`.
    pub signature_algorithms: Option<List<'a, SignatureScheme, U16>>,
    /// `key_share`: the client's offered shares.
    pub key_shares: Option<List<'a, KeyShareEntry<'a>, U16>>,
    /// `application_layer_protocol_negotiation`.
    pub alpn: Option<List<'a, ProtocolName<'a>, U16>>,
    /// `cookie`, echoed from a HelloRetryRequest.
    pub cookie: Option<&'a [u8]>,
    /// `psk_key_exchange_modes`.
    pub psk_modes: Option<List<'a, PskKeyExchangeMode, U8>>,
    /// `record_size_limit` (RFC 8449).
    pub record_size_limit: Option<u16>,
    /// `max_fragment_length` (RFC 6066 §4); only the four defined codes decode.
    pub max_fragment_length: Option<MaxFragmentLength>,
    /// `client_certificate_type` (RFC 7250 §4.1): the types the client can authenticate
    /// with, in its order of preference.
    pub client_certificate_types: Option<List<'a, CertificateType, U8>>,
    /// `server_certificate_type` (RFC 7250 §4.1): the types the client accepts from the
    /// server, in its order of preference.
    pub server_certificate_types: Option<List<'a, CertificateType, U8>>,
    /// `early_data` (RFC 8446 §4.2.10): the client sends 0-RTT data after this hello,
    /// which this crate's server declines and skips.
    pub early_data: bool,
    /// `pre_shared_key`, always the last extension.
    pub pre_shared_key: Option<OfferedPsks<'a>>,
    /// Why a `pre_shared_key` did not parse (then `pre_shared_key` is `None`): a TLS 1.3
    /// server refuses the hello with it, a TLS 1.2 one ignores the extension as it ignores
    /// any it does not know (BoGo's client sends one with a 12-byte binder beside a 1.2
    /// session ticket). Never encoded.
    pub pre_shared_key_error: Option<InvalidMessage>,
}

impl<'a> ClientExtensions<'a> {
    /// Encodes the block with `extra` extensions written before `pre_shared_key`, which must
    /// stay last (RFC 8446 §4.2.11); the RFC 7250 certificate type lists only if
    /// `CERTIFICATE_TYPES` (see [`OwnClientHello`]).
    fn encode_with<const CERTIFICATE_TYPES: bool>(
        &self,
        w: &mut Writer<'_>,
        extra: impl FnOnce(&mut Writer<'_>) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        w.prefixed::<U16>(|w| {
            if let Some(host) = self.server_name {
                write_extension(w, ExtensionType::SERVER_NAME, |w| {
                    w.prefixed::<U16>(|w| {
                        w.u8(0)?;
                        w.bytes::<U16>(host)
                    })
                })?;
            }
            if let Some(l) = &self.supported_groups {
                write_extension(w, ExtensionType::SUPPORTED_GROUPS, |w| l.encode(w))?;
            }
            if let Some(l) = &self.signature_algorithms {
                write_extension(w, ExtensionType::SIGNATURE_ALGORITHMS, |w| l.encode(w))?;
            }
            if let Some(l) = &self.alpn {
                write_extension(w, ExtensionType::ALPN, |w| l.encode(w))?;
            }
            if let Some(limit) = self.record_size_limit {
                write_extension(w, ExtensionType::RECORD_SIZE_LIMIT, |w| w.u16(limit))?;
            }
            if let Some(m) = self.max_fragment_length {
                write_extension(w, ExtensionType::MAX_FRAGMENT_LENGTH, |w| m.encode(w))?;
            }
            if let Some(l) = &self.key_shares {
                write_extension(w, ExtensionType::KEY_SHARE, |w| l.encode(w))?;
            }
            if let Some(l) = &self.supported_versions {
                write_extension(w, ExtensionType::SUPPORTED_VERSIONS, |w| l.encode(w))?;
            }
            if let Some(c) = self.cookie {
                write_extension(w, ExtensionType::COOKIE, |w| w.bytes::<U16>(c))?;
            }
            if let Some(l) = &self.psk_modes {
                write_extension(w, ExtensionType::PSK_KEY_EXCHANGE_MODES, |w| l.encode(w))?;
            }
            if let Some(l) = self.client_certificate_types.filter(|_| CERTIFICATE_TYPES) {
                write_extension(w, ExtensionType::CLIENT_CERTIFICATE_TYPE, |w| l.encode(w))?;
            }
            if let Some(l) = self.server_certificate_types.filter(|_| CERTIFICATE_TYPES) {
                write_extension(w, ExtensionType::SERVER_CERTIFICATE_TYPE, |w| l.encode(w))?;
            }
            if self.early_data {
                write_extension(w, ExtensionType::EARLY_DATA, |_| Ok(()))?;
            }
            extra(w)?;
            if let Some(p) = &self.pre_shared_key {
                write_extension(w, ExtensionType::PRE_SHARED_KEY, |w| {
                    p.identities.encode(w)?;
                    p.binders.encode(w)
                })?;
            }
            Ok(())
        })
    }

    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let mut x = Self::default();
        read_extensions(r, |typ, b| {
            // RFC 8446 §4.2.11: pre_shared_key must be the last extension (the binders are
            // computed over everything before them), known or not.
            if x.pre_shared_key.is_some() || x.pre_shared_key_error.is_some() {
                return Err(InvalidMessage::IllegalValue);
            }
            match typ {
                ExtensionType::SERVER_NAME => x.server_name = Some(read_server_name(b)?),
                ExtensionType::SUPPORTED_VERSIONS => {
                    x.supported_versions = Some(read_non_empty(b)?);
                }
                ExtensionType::SUPPORTED_GROUPS => x.supported_groups = Some(read_non_empty(b)?),
                ExtensionType::SIGNATURE_ALGORITHMS => {
                    x.signature_algorithms = Some(read_non_empty(b)?);
                }
                ExtensionType::KEY_SHARE => x.key_shares = Some(List::read(b)?),
                ExtensionType::ALPN => x.alpn = Some(read_non_empty(b)?),
                ExtensionType::COOKIE => x.cookie = Some(read_cookie(b)?),
                ExtensionType::PSK_KEY_EXCHANGE_MODES => x.psk_modes = Some(read_non_empty(b)?),
                ExtensionType::RECORD_SIZE_LIMIT => x.record_size_limit = Some(b.u16()?),
                ExtensionType::MAX_FRAGMENT_LENGTH => {
                    x.max_fragment_length = Some(read_max_fragment_length(b)?);
                }
                ExtensionType::CLIENT_CERTIFICATE_TYPE => {
                    x.client_certificate_types = Some(read_non_empty(b)?);
                }
                ExtensionType::SERVER_CERTIFICATE_TYPE => {
                    x.server_certificate_types = Some(read_non_empty(b)?);
                }
                // An empty body (checked by read_extensions).
                ExtensionType::EARLY_DATA => x.early_data = true,
                ExtensionType::PRE_SHARED_KEY => {
                    match read_offered_psks(b) {
                        Ok(p) => x.pre_shared_key = Some(p),
                        Err(e) => x.pre_shared_key_error = Some(e),
                    }
                    // Whatever did not parse is skipped with the extension.
                    return Ok(false);
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(x)
    }
}

/// Reads a `pre_shared_key` body of a ClientHello (RFC 8446 §4.2.11), to its end.
fn read_offered_psks<'a>(b: &mut Reader<'a>) -> Result<OfferedPsks<'a>, InvalidMessage> {
    let identities: List<'a, PskIdentity<'a>, U16> = List::read(b)?;
    let binders: List<'a, PskBinder<'a>, U16> = List::read(b)?;
    b.expect_empty()?;
    let (ni, nb) = (identities.iter().count(), binders.iter().count());
    // `identities<7..2^16-1>` and `binders<33..2^16-1>`: an empty list does not parse; one
    // binder per identity is a rule of the protocol.
    if ni == 0 || nb == 0 {
        return Err(InvalidMessage::BadLength);
    }
    if ni != nb {
        return Err(InvalidMessage::IllegalValue);
    }
    Ok(OfferedPsks { identities, binders })
}

/// ClientHello (RFC 8446 §4.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientHello<'a> {
    /// `legacy_version`: TLS 1.2 from a TLS 1.3 client (the version is negotiated by
    /// `supported_versions`); kept so that SSL 3.0 can be refused (RFC 8446 Appendix D.5).
    pub legacy_version: ProtocolVersion,
    /// 32 random bytes.
    pub random: [u8; 32],
    /// `legacy_session_id` (non-empty in middlebox compatibility mode).
    pub session_id: &'a [u8],
    /// Offered cipher suites, in the client's order of preference.
    pub cipher_suites: List<'a, CipherSuite, U16>,
    /// The extensions this crate understands.
    pub extensions: ClientExtensions<'a>,
}

impl<'a> Codec<'a> for ClientHello<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        self.encode_with::<true>(w, |_| Ok(()))
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let legacy_version = ProtocolVersion::read(r)?;
        let random = r.array()?;
        let session_id = Payload::<U8>::read(r)?.0;
        // `legacy_session_id<0..32>`: longer does not parse (RFC 8446 §4.1.2, §6).
        if session_id.len() > 32 {
            return Err(InvalidMessage::BadLength);
        }
        let cipher_suites = List::read(r)?;
        // RFC 5246 §7.4.1.2: the list must hold the null method, which is what Halite
        // takes; TLS 1.3 allows it alone, which [`ClientHello::only_null_compression`]
        // checks once the version is chosen.
        if !Payload::<U8>::read(r)?.0.contains(&0) {
            return Err(InvalidMessage::IllegalValue);
        }
        // RFC 5246 §7.4.1.2: a hello before TLS 1.2's extensions may end here; it offers
        // none (and so no TLS 1.3, nor the extended master secret).
        let extensions =
            if r.is_empty() { ClientExtensions::default() } else { ClientExtensions::read(r)? };
        Ok(Self { legacy_version, random, session_id, cipher_suites, extensions })
    }
}

impl ClientHello<'_> {
    /// Encodes the hello with `extra` extensions before `pre_shared_key`, and the RFC 7250
    /// certificate type lists only if `CERTIFICATE_TYPES`.
    fn encode_with<const CERTIFICATE_TYPES: bool>(
        &self,
        w: &mut Writer<'_>,
        extra: impl FnOnce(&mut Writer<'_>) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        self.legacy_version.encode(w)?;
        w.put(&self.random)?;
        w.bytes::<U8>(self.session_id)?;
        self.cipher_suites.encode(w)?;
        w.bytes::<U8>(&[0])?;
        self.extensions.encode_with::<CERTIFICATE_TYPES>(w, extra)
    }

    /// Whether the compression methods of the encoded ClientHello message `raw` (with its
    /// handshake header) are the null method alone, as TLS 1.3 requires (RFC 8446 §4.1.2:
    /// any other list is illegal_parameter); a TLS 1.2 hello may list others beside it.
    pub fn only_null_compression(raw: &[u8]) -> bool {
        let mut r = Reader::new(raw.get(4..).unwrap_or(&[]));
        let methods = (|| {
            r.take(2 + 32)?;
            r.sub::<U8>()?;
            r.sub::<U16>()?;
            Ok::<_, InvalidMessage>(Payload::<U8>::read(&mut r)?.0)
        })();
        methods.is_ok_and(|m| m == [0])
    }

    /// Whether the client offered `suite`.
    pub fn offers_suite(&self, suite: CipherSuite) -> bool {
        self.cipher_suites.contains(&suite)
    }

    /// Whether the suites carry `TLS_EMPTY_RENEGOTIATION_INFO_SCSV` (RFC 5746 §3.3): for a
    /// TLS 1.2 server, the same as an empty `renegotiation_info`.
    pub fn has_empty_renegotiation_info_scsv(&self) -> bool {
        self.offers_suite(CipherSuite::EMPTY_RENEGOTIATION_INFO_SCSV)
    }

    /// Whether the suites carry `TLS_FALLBACK_SCSV` (RFC 7507 §3): the client retries with
    /// a lower version than its highest.
    pub fn has_fallback_scsv(&self) -> bool {
        self.offers_suite(CipherSuite::FALLBACK_SCSV)
    }
}

/// The TLS 1.2-only extensions of a ClientHello (RFC 7627, RFC 5746, RFC 8422, RFC 5077).
/// [`ClientHello`] skips them, as TLS 1.3 ignores them (so a 1.3 server never refuses a
/// hello for a malformed one, as BoringSSL and OpenSSL do not); a server that negotiates
/// TLS 1.2 reads them from the same bytes with [`ClientHello12`], strictly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientExtensions12<'a> {
    /// `extended_master_secret` (RFC 7627 §5.1), whose body is empty.
    pub extended_master_secret: bool,
    /// `renegotiation_info` (RFC 5746 §3.2).
    pub renegotiation_info: Option<crate::msgs::tls12::RenegotiationInfo<'a>>,
    /// `ec_point_formats` (RFC 8422 §5.1.2); decoding refuses a list without uncompressed.
    pub ec_point_formats: Option<crate::msgs::tls12::EcPointFormats<'a>>,
    /// `session_ticket` (RFC 5077 §3.2): the ticket, empty when the client has none.
    pub session_ticket: Option<crate::msgs::tls12::SessionTicketExt<'a>>,
    /// `encrypt_then_mac` (RFC 7366 §2), whose body is empty: sent with CBC suites.
    pub encrypt_then_mac: bool,
}

impl<'a> ClientExtensions12<'a> {
    /// Writes the extensions that are set (type, length, body each).
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        if self.extended_master_secret {
            write_extension(w, ExtensionType::EXTENDED_MASTER_SECRET, |_| Ok(()))?;
        }
        if let Some(r) = &self.renegotiation_info {
            write_extension(w, ExtensionType::RENEGOTIATION_INFO, |w| r.encode(w))?;
        }
        if let Some(f) = &self.ec_point_formats {
            write_extension(w, ExtensionType::EC_POINT_FORMATS, |w| f.encode(w))?;
        }
        if let Some(t) = &self.session_ticket {
            write_extension(w, ExtensionType::SESSION_TICKET, |w| t.encode(w))?;
        }
        if self.encrypt_then_mac {
            write_extension(w, ExtensionType::ENCRYPT_THEN_MAC, |_| Ok(()))?;
        }
        Ok(())
    }

    /// Reads them from an extensions block (with its length), skipping every other type.
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        use crate::msgs::tls12::{EcPointFormats, RenegotiationInfo, SessionTicketExt};
        let mut x = Self::default();
        read_extensions(r, |typ, b| {
            match typ {
                // An empty body (checked by read_extensions).
                ExtensionType::EXTENDED_MASTER_SECRET => x.extended_master_secret = true,
                ExtensionType::ENCRYPT_THEN_MAC => x.encrypt_then_mac = true,
                ExtensionType::RENEGOTIATION_INFO => {
                    x.renegotiation_info = Some(RenegotiationInfo::read(b)?);
                }
                ExtensionType::EC_POINT_FORMATS => {
                    x.ec_point_formats = Some(EcPointFormats::read(b)?);
                }
                ExtensionType::SESSION_TICKET => {
                    x.session_ticket = Some(SessionTicketExt::read(b)?);
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(x)
    }
}

/// A ClientHello with its TLS 1.2 extensions: what a client that offers TLS 1.2 sends (the
/// 1.2 extensions go before `pre_shared_key`, which stays last), and how a server that
/// negotiated TLS 1.2 reads the hello [`HandshakeMessage`] already decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientHello12<'a> {
    /// The hello and the extensions both versions share.
    pub hello: ClientHello<'a>,
    /// The TLS 1.2-only extensions.
    pub tls12: ClientExtensions12<'a>,
}

impl<'a> Codec<'a> for ClientHello12<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        self.hello.encode_with::<true>(w, |w| self.tls12.encode(w))
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let mut again = r.clone();
        let hello = ClientHello::read(r)?;
        // The same bytes up to the extensions, which ClientHello::read has checked.
        again.take(2 + 32)?;
        again.sub::<U8>()?;
        again.sub::<U16>()?;
        again.sub::<U8>()?;
        let tls12 = if again.is_empty() {
            ClientExtensions12::default()
        } else {
            ClientExtensions12::read(&mut again)?
        };
        Ok(Self { hello, tls12 })
    }
}

/// Reads an ALPN body that selects a protocol: a list of exactly one name (RFC 7301 §3.1).
fn read_selected_alpn<'a>(b: &mut Reader<'a>) -> Result<&'a [u8], InvalidMessage> {
    let list = List::<ProtocolName<'a>, U16>::read(b)?;
    let mut it = list.iter();
    let (Some(p), None) = (it.next(), it.next()) else {
        return Err(InvalidMessage::IllegalValue);
    };
    Ok(p.0)
}

/// The extensions of a ServerHello or HelloRetryRequest.
#[allow(clippy::struct_excessive_bools)] // one per extension with an empty body, as on the wire
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerHelloExtensions<'a> {
    /// `supported_versions`: the selected version.
    pub supported_version: Option<ProtocolVersion>,
    /// `key_share` in a ServerHello: the server's share.
    pub key_share: Option<KeyShareEntry<'a>>,
    /// `key_share` in a HelloRetryRequest: the group the client must use.
    pub selected_group: Option<NamedGroup>,
    /// `cookie` in a HelloRetryRequest.
    pub cookie: Option<&'a [u8]>,
    /// `pre_shared_key` in a ServerHello: the index of the PSK identity the server took.
    pub selected_identity: Option<u16>,
    /// `extended_master_secret` (RFC 7627 §5.2). This and the fields below are read only
    /// from a ServerHello without `supported_versions`, a TLS 1.2 (or older) one; in a
    /// TLS 1.3 ServerHello they are refused as unexpected, as before 1.2 existed.
    pub extended_master_secret: bool,
    /// `renegotiation_info` (RFC 5746 §3.2), TLS 1.2 only.
    pub renegotiation_info: Option<crate::msgs::tls12::RenegotiationInfo<'a>>,
    /// `ec_point_formats` (RFC 8422 §5.1.2), TLS 1.2 only; must include uncompressed.
    pub ec_point_formats: Option<crate::msgs::tls12::EcPointFormats<'a>>,
    /// An empty `session_ticket` (RFC 5077 §3.2): the server will send a NewSessionTicket.
    /// TLS 1.2 only; a non-empty body is refused.
    pub session_ticket: bool,
    /// The selected ALPN protocol (RFC 7301 §3.1), TLS 1.2 only (1.3 puts it in
    /// EncryptedExtensions).
    pub alpn: Option<&'a [u8]>,
    /// An empty `server_name`: the server used the client's SNI (RFC 6066 §3), TLS 1.2 only.
    pub server_name_ack: bool,
    /// `max_fragment_length` (RFC 6066 §4), TLS 1.2 only.
    pub max_fragment_length: Option<MaxFragmentLength>,
    /// `record_size_limit` (RFC 8449 §4), TLS 1.2 only.
    pub record_size_limit: Option<u16>,
    /// `encrypt_then_mac` (RFC 7366 §2): CBC records are encrypt-then-MAC. TLS 1.2 only.
    pub encrypt_then_mac: bool,
}

impl<'a> ServerHelloExtensions<'a> {
    /// Reads the TLS 1.2 extensions of a ServerHello without `supported_versions` from its
    /// extensions block (with its length), strictly; the others were read already.
    fn read_tls12(&mut self, r: &mut Reader<'a>) -> Result<(), InvalidMessage> {
        use crate::msgs::tls12::{EcPointFormats, RenegotiationInfo};
        read_extensions(r, |typ, b| {
            match typ {
                // Empty bodies (checked by read_extensions).
                ExtensionType::EXTENDED_MASTER_SECRET => self.extended_master_secret = true,
                ExtensionType::ENCRYPT_THEN_MAC => self.encrypt_then_mac = true,
                ExtensionType::SESSION_TICKET => self.session_ticket = true,
                ExtensionType::SERVER_NAME => self.server_name_ack = true,
                ExtensionType::RENEGOTIATION_INFO => {
                    self.renegotiation_info = Some(RenegotiationInfo::read(b)?);
                }
                ExtensionType::EC_POINT_FORMATS => {
                    self.ec_point_formats = Some(EcPointFormats::read(b)?);
                }
                ExtensionType::ALPN => self.alpn = Some(read_selected_alpn(b)?),
                ExtensionType::MAX_FRAGMENT_LENGTH => {
                    self.max_fragment_length = Some(read_max_fragment_length(b)?);
                }
                ExtensionType::RECORD_SIZE_LIMIT => self.record_size_limit = Some(b.u16()?),
                // Read by the first pass (and refused by a TLS 1.2 client), or offered by the
                // client, so a server may answer them (some send their supported_groups):
                // skipped.
                ExtensionType::SUPPORTED_VERSIONS
                | ExtensionType::KEY_SHARE
                | ExtensionType::COOKIE
                | ExtensionType::PRE_SHARED_KEY
                | ExtensionType::SUPPORTED_GROUPS
                | ExtensionType::SIGNATURE_ALGORITHMS
                | ExtensionType::PSK_KEY_EXCHANGE_MODES => return Ok(false),
                // RFC 5246 §7.4.1.4: an extension the client did not offer is
                // unsupported_extension.
                _ => return Err(InvalidMessage::UnexpectedExtension),
            }
            Ok(true)
        })
    }

    /// Writes the TLS 1.2 extensions that are set.
    fn encode_tls12(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        if self.extended_master_secret {
            write_extension(w, ExtensionType::EXTENDED_MASTER_SECRET, |_| Ok(()))?;
        }
        if let Some(r) = &self.renegotiation_info {
            write_extension(w, ExtensionType::RENEGOTIATION_INFO, |w| r.encode(w))?;
        }
        if let Some(f) = &self.ec_point_formats {
            write_extension(w, ExtensionType::EC_POINT_FORMATS, |w| f.encode(w))?;
        }
        if self.session_ticket {
            write_extension(w, ExtensionType::SESSION_TICKET, |_| Ok(()))?;
        }
        if let Some(p) = self.alpn {
            write_extension(w, ExtensionType::ALPN, |w| {
                w.prefixed::<U16>(|w| ProtocolName(p).encode(w))
            })?;
        }
        if self.server_name_ack {
            write_extension(w, ExtensionType::SERVER_NAME, |_| Ok(()))?;
        }
        if let Some(m) = self.max_fragment_length {
            write_extension(w, ExtensionType::MAX_FRAGMENT_LENGTH, |w| m.encode(w))?;
        }
        if let Some(limit) = self.record_size_limit {
            write_extension(w, ExtensionType::RECORD_SIZE_LIMIT, |w| w.u16(limit))?;
        }
        if self.encrypt_then_mac {
            write_extension(w, ExtensionType::ENCRYPT_THEN_MAC, |_| Ok(()))?;
        }
        Ok(())
    }
}

/// ServerHello, or a HelloRetryRequest when `random` is [`HELLO_RETRY_REQUEST_RANDOM`]
/// (RFC 8446 §4.1.3, §4.1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerHello<'a> {
    /// `legacy_version`: TLS 1.2 in every TLS 1.3 ServerHello (RFC 8446 §4.1.3).
    pub legacy_version: ProtocolVersion,
    /// 32 random bytes (or the HRR constant).
    pub random: [u8; 32],
    /// `legacy_session_id_echo`.
    pub session_id: &'a [u8],
    /// The selected suite.
    pub cipher_suite: CipherSuite,
    /// The extensions this crate understands.
    pub extensions: ServerHelloExtensions<'a>,
}

impl ServerHello<'_> {
    /// Whether this is a HelloRetryRequest.
    pub fn is_retry_request(&self) -> bool {
        self.random == HELLO_RETRY_REQUEST_RANDOM
    }
}

impl<'a> Codec<'a> for ServerHello<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        self.legacy_version.encode(w)?;
        w.put(&self.random)?;
        w.bytes::<U8>(self.session_id)?;
        self.cipher_suite.encode(w)?;
        w.u8(0)?;
        let x = &self.extensions;
        w.prefixed::<U16>(|w| {
            if let Some(ks) = &x.key_share {
                write_extension(w, ExtensionType::KEY_SHARE, |w| ks.encode(w))?;
            }
            if let Some(g) = x.selected_group {
                write_extension(w, ExtensionType::KEY_SHARE, |w| g.encode(w))?;
            }
            if let Some(c) = x.cookie {
                write_extension(w, ExtensionType::COOKIE, |w| w.bytes::<U16>(c))?;
            }
            if let Some(i) = x.selected_identity {
                write_extension(w, ExtensionType::PRE_SHARED_KEY, |w| w.u16(i))?;
            }
            if let Some(v) = x.supported_version {
                write_extension(w, ExtensionType::SUPPORTED_VERSIONS, |w| v.encode(w))?;
            }
            x.encode_tls12(w)
        })
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let legacy_version = ProtocolVersion::read(r)?;
        let random: [u8; 32] = r.array()?;
        let session_id = Payload::<U8>::read(r)?.0;
        // `legacy_session_id<0..32>`: longer does not parse (RFC 8446 §4.1.2, §6).
        if session_id.len() > 32 {
            return Err(InvalidMessage::BadLength);
        }
        let cipher_suite = CipherSuite::read(r)?;
        if r.u8()? != 0 {
            return Err(InvalidMessage::IllegalValue);
        }
        let hrr = random == HELLO_RETRY_REQUEST_RANDOM;
        let mut x = ServerHelloExtensions::default();
        let mut unexpected = false;
        let mut again = r.clone();
        read_extensions(r, |typ, b| {
            match typ {
                ExtensionType::SUPPORTED_VERSIONS => {
                    x.supported_version = Some(ProtocolVersion::read(b)?);
                }
                ExtensionType::KEY_SHARE if hrr => x.selected_group = Some(NamedGroup::read(b)?),
                ExtensionType::KEY_SHARE => x.key_share = Some(KeyShareEntry::read(b)?),
                ExtensionType::COOKIE if hrr => x.cookie = Some(read_cookie(b)?),
                ExtensionType::PRE_SHARED_KEY if !hrr => x.selected_identity = Some(b.u16()?),
                // RFC 8446 §4.1.3/§4.1.4: nothing else may appear, but an older version's
                // ServerHello (no supported_versions) carries its own extensions: it decodes,
                // so that the client can say the server does not speak TLS 1.3.
                _ => {
                    unexpected = true;
                    return Ok(false);
                }
            }
            Ok(true)
        })?;
        if unexpected && x.supported_version.is_some() {
            return Err(InvalidMessage::UnexpectedExtension);
        }
        if x.supported_version.is_none() {
            x.read_tls12(&mut again)?;
        }
        Ok(Self { legacy_version, random, session_id, cipher_suite, extensions: x })
    }
}

/// EncryptedExtensions (RFC 8446 §4.3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EncryptedExtensions<'a> {
    /// An empty `server_name`: the server used the client's SNI.
    pub server_name_ack: bool,
    /// The selected ALPN protocol.
    pub alpn: Option<&'a [u8]>,
    /// `supported_groups`: the server's preference, informational.
    pub supported_groups: Option<List<'a, NamedGroup, U16>>,
    /// `record_size_limit` (RFC 8449).
    pub record_size_limit: Option<u16>,
    /// `max_fragment_length` (RFC 6066 §4): the client's value, accepted.
    pub max_fragment_length: Option<MaxFragmentLength>,
    /// `client_certificate_type` (RFC 7250 §4.2): the type the client's Certificate must
    /// hold, with a CertificateRequest.
    pub client_certificate_type: Option<CertificateType>,
    /// `server_certificate_type` (RFC 7250 §4.2): the type the server's Certificate holds.
    pub server_certificate_type: Option<CertificateType>,
}

impl<'a> Codec<'a> for EncryptedExtensions<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.prefixed::<U16>(|w| {
            if self.server_name_ack {
                write_extension(w, ExtensionType::SERVER_NAME, |_| Ok(()))?;
            }
            if let Some(g) = &self.supported_groups {
                write_extension(w, ExtensionType::SUPPORTED_GROUPS, |w| g.encode(w))?;
            }
            if let Some(p) = self.alpn {
                write_extension(w, ExtensionType::ALPN, |w| {
                    w.prefixed::<U16>(|w| ProtocolName(p).encode(w))
                })?;
            }
            if let Some(limit) = self.record_size_limit {
                write_extension(w, ExtensionType::RECORD_SIZE_LIMIT, |w| w.u16(limit))?;
            }
            if let Some(m) = self.max_fragment_length {
                write_extension(w, ExtensionType::MAX_FRAGMENT_LENGTH, |w| m.encode(w))?;
            }
            if let Some(t) = self.client_certificate_type {
                write_extension(w, ExtensionType::CLIENT_CERTIFICATE_TYPE, |w| t.encode(w))?;
            }
            if let Some(t) = self.server_certificate_type {
                write_extension(w, ExtensionType::SERVER_CERTIFICATE_TYPE, |w| t.encode(w))?;
            }
            Ok(())
        })
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        Self::read_with::<true>(r)
    }
}

impl<'a> EncryptedExtensions<'a> {
    /// Reads the extensions; the RFC 7250 certificate types only if `CERTIFICATE_TYPES`, else
    /// either is an unexpected extension like any other this reader does not take. Our client
    /// reads them only with the `raw-public-keys` feature (without it it never offers them,
    /// so an answer is `unsupported_extension` all the same), and links no reader for them.
    fn read_with<const CERTIFICATE_TYPES: bool>(
        r: &mut Reader<'a>,
    ) -> Result<Self, InvalidMessage> {
        let mut x = Self::default();
        read_extensions(r, |typ, b| {
            match typ {
                ExtensionType::CLIENT_CERTIFICATE_TYPE if CERTIFICATE_TYPES => {
                    x.client_certificate_type = Some(CertificateType::read(b)?);
                }
                ExtensionType::SERVER_CERTIFICATE_TYPE if CERTIFICATE_TYPES => {
                    x.server_certificate_type = Some(CertificateType::read(b)?);
                }
                ExtensionType::SERVER_NAME => x.server_name_ack = true,
                ExtensionType::SUPPORTED_GROUPS => x.supported_groups = Some(List::read(b)?),
                ExtensionType::ALPN => x.alpn = Some(read_selected_alpn(b)?),
                ExtensionType::RECORD_SIZE_LIMIT => x.record_size_limit = Some(b.u16()?),
                ExtensionType::MAX_FRAGMENT_LENGTH => {
                    x.max_fragment_length = Some(read_max_fragment_length(b)?);
                }
                // RFC 8446 §4.2: an extension in EncryptedExtensions answers one in the
                // ClientHello, and this crate's client sends none but the above (whether it
                // sent those is checked by the handshake): anything else is
                // unsupported_extension.
                _ => return Err(InvalidMessage::UnexpectedExtension),
            }
            Ok(true)
        })?;
        Ok(x)
    }
}

/// One certificate in a Certificate message, with its extensions left opaque.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CertificateEntry<'a> {
    /// The DER certificate (`opaque cert_data<1..2^24-1>`).
    pub cert: &'a [u8],
    /// The entry's extensions block (OCSP, SCT), not interpreted.
    pub extensions: &'a [u8],
}

impl<'a> Codec<'a> for CertificateEntry<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<U24>(self.cert)?;
        w.bytes::<U16>(self.extensions)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let cert = Payload::<U24>::read(r)?.0;
        if cert.is_empty() {
            return Err(InvalidMessage::IllegalValue);
        }
        let extensions = Payload::<U16>::read(r)?.0;
        Ok(Self { cert, extensions })
    }
}

/// Certificate (RFC 8446 §4.4.2): the end-entity certificate first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Certificate<'a> {
    /// `certificate_request_context`, empty for a server.
    pub context: &'a [u8],
    /// The chain.
    pub entries: List<'a, CertificateEntry<'a>, U24>,
}

impl<'a> Codec<'a> for Certificate<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<U8>(self.context)?;
        self.entries.encode(w)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let context = Payload::<U8>::read(r)?.0;
        let entries = List::read(r)?;
        Ok(Self { context, entries })
    }
}

/// CertificateVerify (RFC 8446 §4.4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CertificateVerify<'a> {
    /// The scheme used.
    pub scheme: SignatureScheme,
    /// The signature.
    pub signature: &'a [u8],
}

impl<'a> Codec<'a> for CertificateVerify<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        self.scheme.encode(w)?;
        w.bytes::<U16>(self.signature)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let scheme = SignatureScheme::read(r)?;
        let signature = Payload::<U16>::read(r)?.0;
        Ok(Self { scheme, signature })
    }
}

/// CertificateRequest (RFC 8446 §4.3.2), with the one extension this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CertificateRequest<'a> {
    /// `certificate_request_context` (empty during the handshake).
    pub context: &'a [u8],
    /// `signature_algorithms`: the schemes the server accepts in the client's
    /// CertificateVerify (required; `None` only when the peer left it out).
    pub signature_algorithms: Option<List<'a, SignatureScheme, U16>>,
}

impl<'a> Codec<'a> for CertificateRequest<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.bytes::<U8>(self.context)?;
        w.prefixed::<U16>(|w| {
            if let Some(l) = &self.signature_algorithms {
                write_extension(w, ExtensionType::SIGNATURE_ALGORITHMS, |w| l.encode(w))?;
            }
            Ok(())
        })
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let context = Payload::<U8>::read(r)?.0;
        let mut signature_algorithms = None;
        read_extensions(r, |typ, b| {
            match typ {
                ExtensionType::SIGNATURE_ALGORITHMS => {
                    signature_algorithms = Some(read_non_empty(b)?);
                }
                // certificate_authorities, oid_filters, signature_algorithms_cert: not used.
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(Self { context, signature_algorithms })
    }
}

/// NewSessionTicket (RFC 8446 §4.6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewSessionTicket<'a> {
    /// Lifetime in seconds (at most 7 days).
    pub lifetime: u32,
    /// Obfuscation added to the ticket age.
    pub age_add: u32,
    /// Per-ticket nonce.
    pub nonce: &'a [u8],
    /// The opaque ticket.
    pub ticket: &'a [u8],
    /// The extensions block, not interpreted.
    pub extensions: &'a [u8],
}

impl<'a> Codec<'a> for NewSessionTicket<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.u32(self.lifetime)?;
        w.u32(self.age_add)?;
        w.bytes::<U8>(self.nonce)?;
        w.bytes::<U16>(self.ticket)?;
        w.bytes::<U16>(self.extensions)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        let lifetime = r.u32()?;
        let age_add = r.u32()?;
        let nonce = Payload::<U8>::read(r)?.0;
        let ticket = Payload::<U16>::read(r)?.0;
        // `opaque ticket<1..2^16-1>`: an empty one does not parse.
        if ticket.is_empty() {
            return Err(InvalidMessage::BadLength);
        }
        if lifetime > 604_800 {
            return Err(InvalidMessage::IllegalValue);
        }
        let extensions = Payload::<U16>::read(r)?.0;
        // Unknown extensions are ignored (RFC 8446 §4.6.1), but the block must be well formed
        // and repeat no type.
        read_extension_block(Reader::new(extensions), |_, _| Ok(false))?;
        Ok(Self { lifetime, age_add, nonce, ticket, extensions })
    }
}

/// A parsed handshake message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandshakeMessage<'a> {
    /// ClientHello.
    ClientHello(ClientHello<'a>),
    /// ServerHello or HelloRetryRequest.
    ServerHello(ServerHello<'a>),
    /// EncryptedExtensions.
    EncryptedExtensions(EncryptedExtensions<'a>),
    /// Certificate.
    Certificate(Certificate<'a>),
    /// CertificateRequest.
    CertificateRequest(CertificateRequest<'a>),
    /// CertificateVerify.
    CertificateVerify(CertificateVerify<'a>),
    /// Finished: the verify data (its length is the suite's hash length, checked later).
    Finished(&'a [u8]),
    /// NewSessionTicket.
    NewSessionTicket(NewSessionTicket<'a>),
    /// KeyUpdate.
    KeyUpdate(KeyUpdateRequest),
}

impl HandshakeMessage<'_> {
    /// The message's type.
    pub fn typ(&self) -> HandshakeType {
        match self {
            Self::ClientHello(_) => HandshakeType::CLIENT_HELLO,
            Self::ServerHello(_) => HandshakeType::SERVER_HELLO,
            Self::EncryptedExtensions(_) => HandshakeType::ENCRYPTED_EXTENSIONS,
            Self::Certificate(_) => HandshakeType::CERTIFICATE,
            Self::CertificateRequest(_) => HandshakeType::CERTIFICATE_REQUEST,
            Self::CertificateVerify(_) => HandshakeType::CERTIFICATE_VERIFY,
            Self::Finished(_) => HandshakeType::FINISHED,
            Self::NewSessionTicket(_) => HandshakeType::NEW_SESSION_TICKET,
            Self::KeyUpdate(_) => HandshakeType::KEY_UPDATE,
        }
    }
}

/// Splits the next whole handshake message (4-byte header and body) off the front of `buf`,
/// or returns `None` if `buf` does not yet hold all of it.
pub fn split_handshake(buf: &[u8]) -> Option<(&[u8], &[u8])> {
    let len = usize::from(*buf.get(1)?) << 16
        | usize::from(*buf.get(2)?) << 8
        | usize::from(*buf.get(3)?);
    let end = 4usize.checked_add(len)?;
    (buf.len() >= end).then(|| buf.split_at(end))
}

impl<'a> Codec<'a> for HandshakeMessage<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        self.typ().encode(w)?;
        w.prefixed::<U24>(|w| match self {
            Self::ClientHello(m) => m.encode(w),
            Self::ServerHello(m) => m.encode(w),
            Self::EncryptedExtensions(m) => m.encode(w),
            Self::Certificate(m) => m.encode(w),
            Self::CertificateRequest(m) => m.encode(w),
            Self::CertificateVerify(m) => m.encode(w),
            Self::Finished(v) => w.put(v),
            Self::NewSessionTicket(m) => m.encode(w),
            Self::KeyUpdate(k) => k.encode(w),
        })
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        Self::read_from::<true, true, true>(r)
    }
}

/// Whether a client of this build reads a message of type `typ` from its server (with
/// [`HandshakeMessage::decode_from_server`]): not a ClientHello, and without the
/// `x509` feature none of the certificate handshake's messages, which a server that
/// authenticates with a PSK must not send (RFC 8446 §4.3.2, §4.4). Any other type is an
/// unexpected message, whatever it holds, so its decoder is not linked into a client.
pub(crate) fn server_sends(typ: HandshakeType) -> bool {
    const CERTIFICATE_MESSAGES: [HandshakeType; 3] = [
        HandshakeType::CERTIFICATE,
        HandshakeType::CERTIFICATE_REQUEST,
        HandshakeType::CERTIFICATE_VERIFY,
    ];
    typ != HandshakeType::CLIENT_HELLO
        && (cfg!(feature = "x509") || !CERTIFICATE_MESSAGES.contains(&typ))
}

impl<'a> HandshakeMessage<'a> {
    /// Decodes one message a server sends, of a type [`server_sends`] accepts (any other is
    /// an illegal type here; the client refuses it as unexpected before decoding).
    // Its frame (the decoders' locals) is not added to the handshake dispatch's, under every
    // state handler (issue 26).
    #[inline(never)]
    pub(crate) fn decode_from_server(bytes: &'a [u8]) -> Result<Self, InvalidMessage> {
        let mut r = Reader::new(bytes);
        let m = Self::read_from::<
            false,
            { cfg!(feature = "x509") },
            { cfg!(feature = "raw-public-keys") },
        >(&mut r)?;
        r.expect_empty()?;
        Ok(m)
    }

    /// Reads one message; a ClientHello only if `CLIENT_HELLO`, a Certificate,
    /// CertificateRequest or CertificateVerify only if `CERTIFICATES` (else each is an
    /// illegal type), the RFC 7250 certificate types of EncryptedExtensions only if
    /// `CERTIFICATE_TYPES` (see [`EncryptedExtensions::read_with`]).
    fn read_from<
        const CLIENT_HELLO: bool,
        const CERTIFICATES: bool,
        const CERTIFICATE_TYPES: bool,
    >(
        r: &mut Reader<'a>,
    ) -> Result<Self, InvalidMessage> {
        let typ = HandshakeType::read(r)?;
        let mut b = r.sub::<U24>()?;
        let m = match typ {
            HandshakeType::CLIENT_HELLO if CLIENT_HELLO => {
                Self::ClientHello(ClientHello::read(&mut b)?)
            }
            HandshakeType::SERVER_HELLO => Self::ServerHello(ServerHello::read(&mut b)?),
            HandshakeType::ENCRYPTED_EXTENSIONS => Self::EncryptedExtensions(
                EncryptedExtensions::read_with::<CERTIFICATE_TYPES>(&mut b)?,
            ),
            HandshakeType::CERTIFICATE if CERTIFICATES => {
                Self::Certificate(Certificate::read(&mut b)?)
            }
            HandshakeType::CERTIFICATE_REQUEST if CERTIFICATES => {
                Self::CertificateRequest(CertificateRequest::read(&mut b)?)
            }
            HandshakeType::CERTIFICATE_VERIFY if CERTIFICATES => {
                Self::CertificateVerify(CertificateVerify::read(&mut b)?)
            }
            HandshakeType::FINISHED => Self::Finished(b.take(b.left())?),
            HandshakeType::NEW_SESSION_TICKET => {
                Self::NewSessionTicket(NewSessionTicket::read(&mut b)?)
            }
            HandshakeType::KEY_UPDATE => {
                let k = KeyUpdateRequest::read(&mut b)?;
                if k.0 > 1 {
                    return Err(InvalidMessage::IllegalValue);
                }
                Self::KeyUpdate(k)
            }
            _ => return Err(InvalidMessage::IllegalValue),
        };
        b.expect_empty()?;
        Ok(m)
    }
}

/// A handshake message body of one fixed type (RFC 8446 §4), which [`Typed`] frames.
pub(crate) trait Body<'a>: Codec<'a> {
    /// The message's type.
    const TYPE: HandshakeType;
}

impl<'a> Body<'a> for ClientHello<'a> {
    const TYPE: HandshakeType = HandshakeType::CLIENT_HELLO;
}

impl<'a> Body<'a> for Certificate<'a> {
    const TYPE: HandshakeType = HandshakeType::CERTIFICATE;
}

impl<'a> Body<'a> for CertificateVerify<'a> {
    const TYPE: HandshakeType = HandshakeType::CERTIFICATE_VERIFY;
}

impl Body<'_> for KeyUpdateRequest {
    const TYPE: HandshakeType = HandshakeType::KEY_UPDATE;
}

/// The ClientHello this crate's client sends: a [`ClientHello`] encoded with the RFC 7250
/// certificate type lists only with the `raw-public-keys` feature. Without it the client
/// never offers them ([`crate::client::hello::offered_types`]), so the wire is the same and
/// their encoder is not linked.
pub(crate) struct OwnClientHello<'a>(pub(crate) ClientHello<'a>);

impl<'a> Codec<'a> for OwnClientHello<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        self.0.encode_with::<{ cfg!(feature = "raw-public-keys") }>(w, |_| Ok(()))
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        ClientHello::read(r).map(Self)
    }
}

impl<'a> Body<'a> for OwnClientHello<'a> {
    const TYPE: HandshakeType = HandshakeType::CLIENT_HELLO;
}

/// A Finished message's body: the verify data, the whole body (RFC 8446 §4.4.4).
pub(crate) struct VerifyData<'a>(pub(crate) &'a [u8]);

impl<'a> Codec<'a> for VerifyData<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        w.put(self.0)
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        Ok(Self(r.take(r.left())?))
    }
}

impl<'a> Body<'a> for VerifyData<'a> {
    const TYPE: HandshakeType = HandshakeType::FINISHED;
}

/// One handshake message of a type fixed at compile time, on the wire as the
/// [`HandshakeMessage`] of that type. What the engine sends goes through it: encoding the enum
/// links every message's encoder (a client's ClientHello and Finished would bring the
/// server's ServerHello, EncryptedExtensions, CertificateRequest and NewSessionTicket).
pub(crate) struct Typed<M>(pub(crate) M);

impl<'a, M: Body<'a>> Codec<'a> for Typed<M> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        M::TYPE.encode(w)?;
        w.prefixed::<U24>(|w| self.0.encode(w))
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        if HandshakeType::read(r)? != M::TYPE {
            return Err(InvalidMessage::IllegalValue);
        }
        let mut b = r.sub::<U24>()?;
        let m = M::read(&mut b)?;
        b.expect_empty()?;
        Ok(Self(m))
    }
}

/// A TLS 1.2 handshake message (RFC 5246 §7.4, RFC 8422, RFC 5077), for a connection that
/// has negotiated TLS 1.2. [`HandshakeMessage`] reads TLS 1.3's and refuses the 1.2-only
/// types (and this reader refuses the 1.3-only ones), so neither version's state machine
/// can be handed the other's messages. The bodies are the codecs of [`crate::msgs::tls12`];
/// ServerKeyExchange and ClientKeyExchange are those of the ECDHE suites, the only ones
/// Halite implements.
// The ClientHello, with every extension decoded in place, is the large variant; a decoded
// message lives for one step of the handshake, so there is nothing to gain by boxing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandshakeMessage12<'a> {
    /// HelloRequest: an empty body (a renegotiation request, which the caller refuses).
    HelloRequest,
    /// ClientHello, with its TLS 1.2 extensions.
    ClientHello(ClientHello12<'a>),
    /// ServerHello.
    ServerHello(ServerHello<'a>),
    /// Certificate: the chain with no context and no per-certificate extensions.
    Certificate(crate::msgs::tls12::Certificate12<'a>),
    /// ServerKeyExchange.
    ServerKeyExchange(crate::msgs::tls12::ServerKeyExchange<'a>),
    /// CertificateRequest.
    CertificateRequest(crate::msgs::tls12::CertificateRequest12<'a>),
    /// ServerHelloDone.
    ServerHelloDone,
    /// CertificateVerify: a `DigitallySigned`, the same scheme and signature as in TLS 1.3.
    CertificateVerify(CertificateVerify<'a>),
    /// ClientKeyExchange.
    ClientKeyExchange(crate::msgs::tls12::ClientKeyExchange<'a>),
    /// Finished: the verify data (its length, 12 for every Halite suite, is checked later).
    Finished(&'a [u8]),
    /// NewSessionTicket.
    NewSessionTicket(crate::msgs::tls12::NewSessionTicket12<'a>),
}

impl HandshakeMessage12<'_> {
    /// The message's type.
    pub fn typ(&self) -> HandshakeType {
        match self {
            Self::HelloRequest => HandshakeType::HELLO_REQUEST,
            Self::ClientHello(_) => HandshakeType::CLIENT_HELLO,
            Self::ServerHello(_) => HandshakeType::SERVER_HELLO,
            Self::Certificate(_) => HandshakeType::CERTIFICATE,
            Self::ServerKeyExchange(_) => HandshakeType::SERVER_KEY_EXCHANGE,
            Self::CertificateRequest(_) => HandshakeType::CERTIFICATE_REQUEST,
            Self::ServerHelloDone => HandshakeType::SERVER_HELLO_DONE,
            Self::CertificateVerify(_) => HandshakeType::CERTIFICATE_VERIFY,
            Self::ClientKeyExchange(_) => HandshakeType::CLIENT_KEY_EXCHANGE,
            Self::Finished(_) => HandshakeType::FINISHED,
            Self::NewSessionTicket(_) => HandshakeType::NEW_SESSION_TICKET,
        }
    }

    /// Whether `typ` is a message type TLS 1.2 has: what a 1.2 state machine checks before
    /// decoding, to answer any other with unexpected_message.
    pub fn is_tls12_type(typ: HandshakeType) -> bool {
        [
            HandshakeType::HELLO_REQUEST,
            HandshakeType::CLIENT_HELLO,
            HandshakeType::SERVER_HELLO,
            HandshakeType::NEW_SESSION_TICKET,
            HandshakeType::CERTIFICATE,
            HandshakeType::SERVER_KEY_EXCHANGE,
            HandshakeType::CERTIFICATE_REQUEST,
            HandshakeType::SERVER_HELLO_DONE,
            HandshakeType::CERTIFICATE_VERIFY,
            HandshakeType::CLIENT_KEY_EXCHANGE,
            HandshakeType::FINISHED,
        ]
        .contains(&typ)
    }
}

impl<'a> Codec<'a> for HandshakeMessage12<'a> {
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), EncodeError> {
        self.typ().encode(w)?;
        w.prefixed::<U24>(|w| match self {
            Self::HelloRequest | Self::ServerHelloDone => Ok(()),
            Self::ClientHello(m) => m.encode(w),
            Self::ServerHello(m) => m.encode(w),
            Self::Certificate(m) => m.encode(w),
            Self::ServerKeyExchange(m) => m.encode(w),
            Self::CertificateRequest(m) => m.encode(w),
            Self::CertificateVerify(m) => m.encode(w),
            Self::ClientKeyExchange(m) => m.encode(w),
            Self::Finished(v) => w.put(v),
            Self::NewSessionTicket(m) => m.encode(w),
        })
    }
    fn read(r: &mut Reader<'a>) -> Result<Self, InvalidMessage> {
        use crate::msgs::tls12 as m12;
        let typ = HandshakeType::read(r)?;
        let mut b = r.sub::<U24>()?;
        let m = match typ {
            HandshakeType::HELLO_REQUEST => Self::HelloRequest,
            HandshakeType::CLIENT_HELLO => Self::ClientHello(ClientHello12::read(&mut b)?),
            HandshakeType::SERVER_HELLO => Self::ServerHello(ServerHello::read(&mut b)?),
            HandshakeType::CERTIFICATE => Self::Certificate(m12::Certificate12::read(&mut b)?),
            HandshakeType::SERVER_KEY_EXCHANGE => {
                Self::ServerKeyExchange(m12::ServerKeyExchange::read(&mut b)?)
            }
            HandshakeType::CERTIFICATE_REQUEST => {
                Self::CertificateRequest(m12::CertificateRequest12::read(&mut b)?)
            }
            HandshakeType::SERVER_HELLO_DONE => Self::ServerHelloDone,
            HandshakeType::CERTIFICATE_VERIFY => {
                Self::CertificateVerify(CertificateVerify::read(&mut b)?)
            }
            HandshakeType::CLIENT_KEY_EXCHANGE => {
                Self::ClientKeyExchange(m12::ClientKeyExchange::read(&mut b)?)
            }
            HandshakeType::FINISHED => Self::Finished(b.take(b.left())?),
            HandshakeType::NEW_SESSION_TICKET => {
                Self::NewSessionTicket(m12::NewSessionTicket12::read(&mut b)?)
            }
            // EncryptedExtensions, KeyUpdate, EndOfEarlyData and unassigned numbers, as
            // HandshakeMessage refuses the 1.2-only types.
            _ => return Err(InvalidMessage::IllegalValue),
        };
        b.expect_empty()?;
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use hex_literal::hex;

    use super::*;

    /// RFC 8448 §3: the ClientHello and the client's Finished.
    const CLIENT_HELLO: [u8; 196] = hex!(
        "010000c00303cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece7000006130113031302010000910000000b0009000006736572766572ff01000100000a00140012001d0017001800190100010101020103010400230000003300260024001d002099381de560e4bd43d23d8e435a7dbafeb3c06e51c13cae4d5413691e529aaf2c002b0003020304000d0020001e040305030603020308040805080604010501060102010402050206020202002d00020101001c00024001"
    );
    const CLIENT_FINISHED: [u8; 36] =
        hex!("14000020a8ec436d677634ae525ac1fcebe11a039ec17694fac6e98527b642f2edd5ce61");

    fn encode<'a>(m: &impl Codec<'a>) -> ([u8; 256], usize) {
        let mut buf = [0u8; 256];
        let mut w = Writer::new(&mut buf);
        m.encode(&mut w).unwrap();
        let n = w.len();
        (buf, n)
    }

    #[test]
    fn typed_messages_are_the_enum_on_the_wire() {
        let Ok(HandshakeMessage::ClientHello(ch)) = HandshakeMessage::decode(&CLIENT_HELLO) else {
            panic!("not a ClientHello")
        };
        // Re-encoded in this crate's extension order, which differs from the trace's.
        let (typed, n) = encode(&Typed(ch));
        let (whole, m) = encode(&HandshakeMessage::ClientHello(ch));
        assert_eq!(typed[..n], whole[..m]);
        assert_eq!(Typed::<ClientHello<'_>>::decode(&typed[..n]).map(|t| t.0), Ok(ch));
        let fin = Typed(VerifyData(&CLIENT_FINISHED[4..]));
        let (buf, n) = encode(&fin);
        assert_eq!(buf[..n], CLIENT_FINISHED);
        assert_eq!(
            Typed::<VerifyData<'_>>::decode(&CLIENT_HELLO).err(),
            Some(InvalidMessage::IllegalValue),
            "a Typed reads only its own type"
        );
        let (buf, n) = encode(&Typed(KeyUpdateRequest::UPDATE_REQUESTED));
        assert_eq!(buf[..n], hex!("1800000101"));
    }

    #[test]
    fn a_server_message_is_never_a_client_hello() {
        assert!(!server_sends(HandshakeType::CLIENT_HELLO));
        assert!(server_sends(HandshakeType::FINISHED));
        assert_eq!(server_sends(HandshakeType::CERTIFICATE), cfg!(feature = "x509"));
        assert_eq!(
            HandshakeMessage::decode_from_server(&CLIENT_HELLO).err(),
            Some(InvalidMessage::IllegalValue)
        );
        assert_eq!(
            HandshakeMessage::decode_from_server(&CLIENT_FINISHED),
            HandshakeMessage::decode(&CLIENT_FINISHED).map_err(|_| InvalidMessage::Truncated)
        );
    }

    /// Our client's hello and EncryptedExtensions reader take the RFC 7250 certificate types
    /// only with `raw-public-keys`; the public codec always does.
    #[test]
    fn certificate_types_only_where_raw_keys_are_built() {
        let raw = [CertificateType::RAW_PUBLIC_KEY];
        let Ok(HandshakeMessage::ClientHello(mut ch)) = HandshakeMessage::decode(&CLIENT_HELLO)
        else {
            panic!("not a ClientHello")
        };
        let (plain, n) = encode(&Typed(ch));
        assert_eq!(encode(&Typed(OwnClientHello(ch))).0[..n], plain[..n]);
        ch.extensions.server_certificate_types = Some(List::items(&raw));
        let (typed, n) = encode(&Typed(ch));
        let (own, m) = encode(&Typed(OwnClientHello(ch)));
        assert_eq!(typed[..n] == own[..m], cfg!(feature = "raw-public-keys"));
        // EncryptedExtensions with server_certificate_type: raw public key.
        let ee = hex!("0800000700050014000102");
        let read = EncryptedExtensions {
            server_certificate_type: Some(CertificateType::RAW_PUBLIC_KEY),
            ..EncryptedExtensions::default()
        };
        assert_eq!(HandshakeMessage::decode(&ee), Ok(HandshakeMessage::EncryptedExtensions(read)));
        let from_server = HandshakeMessage::decode_from_server(&ee);
        if cfg!(feature = "raw-public-keys") {
            assert_eq!(from_server, Ok(HandshakeMessage::EncryptedExtensions(read)));
        } else {
            assert_eq!(from_server, Err(InvalidMessage::UnexpectedExtension));
        }
    }
}
