//! The receive side: whole records read from the receive buffer, opened, and sorted into
//! handshake messages (joined across records), alerts and application data, with the checks
//! on each (record limits, change_cipher_spec, early data to skip, empty records).

#[cfg(any(feature = "server", feature = "tls12"))]
use core::mem;

use crate::error::{BufferKind, Error, PeerIncompatible, PeerMisbehaved};
#[cfg(any(feature = "server", feature = "tls12"))]
use crate::msgs::Codec;
use crate::msgs::{
    AlertDescription, ContentType, HELLO_RETRY_REQUEST_RANDOM, HandshakeMessage,
    HandshakeMessage12, HandshakeType, ProtocolVersion, server_sends, split_handshake,
};
#[cfg(feature = "tls12")]
use crate::record::tls12::MAX_CIPHERTEXT_LEN as MAX_CIPHERTEXT_LEN12;
use crate::record::{HEADER_LEN, MAX_CIPHERTEXT_LEN, MAX_PLAINTEXT_LEN, RecordHeader};

use super::SinceData;
use super::handshake::State;
#[cfg(feature = "tls12")]
use super::io::Protection;
#[cfg(feature = "tls12")]
use crate::client::tls12::is_tls12_message;
use crate::client::{self, ClientState};
use crate::config::{MAX_EMPTY_RECORDS, MAX_SKIPPED_EARLY_DATA, MAX_USER_CANCELED};
use crate::conn::Connection;
#[cfg(feature = "server")]
use crate::server::tls13::{server_client_certificate, server_no_client_certificate};
#[cfg(feature = "server")]
use crate::server::{self, ServerState};

/// Whether `typ` is a handshake message TLS 1.3 sends and this crate reads.
pub(crate) fn is_tls13_message(typ: HandshakeType) -> bool {
    [
        HandshakeType::CLIENT_HELLO,
        HandshakeType::SERVER_HELLO,
        HandshakeType::NEW_SESSION_TICKET,
        HandshakeType::ENCRYPTED_EXTENSIONS,
        HandshakeType::CERTIFICATE,
        HandshakeType::CERTIFICATE_REQUEST,
        HandshakeType::CERTIFICATE_VERIFY,
        HandshakeType::FINISHED,
        HandshakeType::KEY_UPDATE,
    ]
    .contains(&typ)
}

/// Whether `msg` is the last of the peer's flight: a ClientHello, a HelloRetryRequest, a
/// TLS 1.2 ServerHelloDone.
fn ends_flight(state: &State<'_>, msg: &[u8]) -> bool {
    let Some(&typ) = msg.first() else { return false };
    let typ = HandshakeType(typ);
    match state {
        #[cfg(feature = "server")]
        State::Server(..) => typ == HandshakeType::CLIENT_HELLO,
        State::Client(..) => {
            typ == HandshakeType::SERVER_HELLO_DONE
                || (typ == HandshakeType::SERVER_HELLO
                    && msg.get(6..38) == Some(&HELLO_RETRY_REQUEST_RANDOM[..]))
        }
    }
}

impl Connection<'_, '_> {
    pub(crate) fn fail_on(&mut self, r: Result<(), Error>) -> Result<(), Error> {
        if let Err(e) = r {
            if self.c.error.is_none() {
                self.c.error = Some(e);
                self.c.app = None;
                let tls12 = self.c.params.version == ProtocolVersion::TLSV1_2;
                self.state.kill();
                if let Some(mut alert) = e.alert() {
                    // RFC 5246 has no certificate_required: a missing client certificate is
                    // handshake_failure there (§7.4.6).
                    if tls12 && alert == AlertDescription::CERTIFICATE_REQUIRED {
                        alert = AlertDescription::HANDSHAKE_FAILURE;
                    }
                    self.c.io.send_alert(alert);
                }
            }
            return Err(e);
        }
        Ok(())
    }

    /// Marks the next `n` received bytes processed.
    pub(crate) fn consume_rx(&mut self, n: usize) {
        let io = &mut self.c.io;
        io.rx_start += n;
        if io.rx_start == io.rx_len {
            io.rx_start = 0;
            io.rx_len = 0;
        }
    }

    /// Reads whole records from the receive buffer until application data is ready or
    /// more bytes are needed.
    pub(crate) fn process(&mut self) -> Result<(), Error> {
        while self.c.app.is_none() && !self.c.peer_closed {
            let base = self.c.io.rx_start;
            let max_len = match self.c.io.read_key {
                #[cfg(feature = "tls12")]
                Some(Protection::V12(_)) => MAX_CIPHERTEXT_LEN12,
                _ => MAX_CIPHERTEXT_LEN,
            };
            let rest = &self.c.io.rx[base..self.c.io.rx_len];
            let Some(header) = RecordHeader::parse_max(rest, max_len)? else {
                break;
            };
            // RFC 8449 §4 and RFC 8446 §5.4: a protected record's TLSInnerPlaintext (its body
            // less the tag) within our limit, an unprotected one within 2^14. Checked on the
            // header, so a record over the limit is `record_overflow` even when it would not
            // fit a receive buffer sized for the limit. Early data we may skip was sent before
            // the client knew our limit: it is checked once it decrypts.
            let max_body = match &self.c.io.read_key {
                Some(k) if header.typ != ContentType::CHANGE_CIPHER_SPEC => {
                    k.max_body(self.c.io.recv_limit)
                }
                _ => MAX_PLAINTEXT_LEN,
            };
            let skipping =
                self.c.skip_early.is_some() && header.typ == ContentType::APPLICATION_DATA;
            if header.len > max_body && !skipping {
                return Err(Error::RecordOverflow);
            }
            let total = HEADER_LEN + header.len;
            if total > self.c.io.rx.len() {
                return Err(Error::too_small(BufferKind::Received, total));
            }
            if self.c.io.rx_len - base < total {
                break;
            }
            if header.typ == ContentType::CHANGE_CIPHER_SPEC {
                // Middlebox compatibility: one byte 0x01, only after the first ClientHello
                // and before the peer's Finished (RFC 8446 §5), never inside a fragmented
                // handshake message (§5.1).
                if self.hs_len != 0 {
                    return Err(PeerMisbehaved::InterleavedOrUnalignedRecords.into());
                }
                // TLS 1.2: a real message, switching the peer's records to its keys.
                #[cfg(feature = "tls12")]
                if self.state.is_tls12() {
                    if self.c.io.rx[base + HEADER_LEN..base + total] != [1] {
                        return Err(PeerMisbehaved::UnexpectedMessage.into());
                    }
                    match &mut self.state {
                        State::Client(_, slot) => {
                            let state = mem::replace(slot, ClientState::Dead);
                            *slot = client::tls12::client_change_cipher_spec(&mut self.c, state)?;
                        }
                        #[cfg(feature = "server")]
                        State::Server(_, slot) => {
                            let state = mem::replace(slot, ServerState::Dead);
                            *slot = server::tls12::server_change_cipher_spec(&mut self.c, state)?;
                        }
                    }
                    self.c.key_changed = false;
                    self.consume_rx(total);
                    continue;
                }
                if !self.is_handshaking()
                    || self.c.ccs_received
                    || self.state.awaits_client_hello()
                    || self.c.io.rx[base + HEADER_LEN..base + total] != [1]
                {
                    return Err(PeerMisbehaved::UnexpectedMessage.into());
                }
                self.c.ccs_received = true;
                self.consume_rx(total);
                continue;
            }
            // Where the content sits in `rx`; `None` for early data to skip (RFC 8446
            // §4.2.10): before the second ClientHello every protected record, after a
            // ServerHello those that fail with the handshake key (which leaves its sequence
            // number as it was).
            let opened = match &mut self.c.io.read_key {
                None if skipping => None,
                None => Some((header.typ, base + HEADER_LEN, base + total)),
                Some(k) => match k.open(&mut self.c.io.rx[base..base + total]) {
                    Ok((typ, start, end)) => Some((typ, base + start, base + end)),
                    Err(Error::DecryptFailed) if skipping => None,
                    Err(e) => return Err(e),
                },
            };
            let Some((typ, start, end)) = opened else {
                // Early data we would skip still may not come between the fragments of a
                // handshake message (RFC 8446 §5.1).
                if self.hs_len != 0 {
                    return Err(PeerMisbehaved::InterleavedOrUnalignedRecords.into());
                }
                let skipped = self.c.skip_early.unwrap_or(0) + header.len;
                if skipped > MAX_SKIPPED_EARLY_DATA {
                    return Err(PeerMisbehaved::TooMuchEarlyData.into());
                }
                self.c.skip_early = Some(skipped);
                self.consume_rx(total);
                continue;
            };
            if skipping {
                // The client's first record under the handshake key ends its early data.
                self.c.skip_early = None;
                if header.len > max_body {
                    return Err(Error::RecordOverflow);
                }
            }
            if self.c.io.read_key.is_none() && typ == ContentType::APPLICATION_DATA {
                return Err(PeerMisbehaved::UnexpectedMessage.into());
            }
            match typ {
                ContentType::HANDSHAKE => {
                    if start == end {
                        return Err(PeerMisbehaved::EmptyRecord.into());
                    }
                    let n = end - start;
                    if self.hs_start + self.hs_len + n > self.hs_end && self.hs_start > 0 {
                        // The kept peer certificate gives its room to reassembly.
                        self.hs.copy_within(self.hs_start..self.hs_start + self.hs_len, 0);
                        self.hs_start = 0;
                    }
                    // Room for the message so far plus whatever sits past hs_end (a ticket
                    // being offered).
                    let needed = self.hs_len + n + (self.hs.len() - self.hs_end);
                    let dst = self.hs[self.hs_start..self.hs_end]
                        .get_mut(self.hs_len..self.hs_len + n)
                        .ok_or(Error::too_small(BufferKind::Handshake, needed))?;
                    dst.copy_from_slice(&self.c.io.rx[start..end]);
                    self.hs_len += end - start;
                    self.consume_rx(total);
                    self.process_handshake()?;
                }
                ContentType::ALERT => {
                    let body = &self.c.io.rx[start..end];
                    // RFC 8446 §5.4 and §6: an empty alert record is unexpected_message,
                    // any other length but two decode_error.
                    if body.is_empty() {
                        return Err(PeerMisbehaved::EmptyRecord.into());
                    }
                    if body.len() != 2 {
                        return Err(crate::msgs::InvalidMessage::BadLength.into());
                    }
                    // RFC 8446 §6: AlertLevel is warning(1) or fatal(2); any other level is
                    // not an alert we can act on but a malformed one, illegal_parameter.
                    if !matches!(body[0], 1 | 2) {
                        return Err(crate::msgs::InvalidMessage::IllegalValue.into());
                    }
                    let (warning, desc) = (body[0] == 1, AlertDescription(body[1]));
                    self.consume_rx(total);
                    // A close inside a fragmented handshake message is a truncation, not a
                    // clean close (RFC 8446 §5.1).
                    if desc == AlertDescription::CLOSE_NOTIFY && self.hs_len != 0 {
                        return Err(PeerMisbehaved::InterleavedOrUnalignedRecords.into());
                    }
                    // RFC 8446 §6.1: user_canceled is a closure alert, not an error; the
                    // close_notify that should follow ends the connection. In TLS 1.2 (and
                    // before a TLS 1.2 peer has chosen its version) any other warning is not
                    // an error either (RFC 5246 §7.2): both are skipped, a few in a row.
                    if desc == AlertDescription::USER_CANCELED
                        || (warning
                            && desc != AlertDescription::CLOSE_NOTIFY
                            && self.may_be_tls12())
                    {
                        self.c.since_data.count(
                            |s| &mut s.warning_alerts,
                            MAX_USER_CANCELED,
                            PeerMisbehaved::TooManyWarningAlerts,
                        )?;
                        continue;
                    }
                    // A server that answers our ClientHello with protocol_version speaks
                    // none of the versions we offered: say so rather than only pass the
                    // alert on (`NoTls13` when we offered TLS 1.3 alone).
                    let refused_hello = if let State::Client(
                        config,
                        ClientState::ExpectServerHello(_) | ClientState::ExpectServerHello2(_),
                    ) = &self.state
                        && desc == AlertDescription::PROTOCOL_VERSION
                    {
                        Some(config.offers(ProtocolVersion::TLSV1_2))
                    } else {
                        None
                    };
                    if desc == AlertDescription::CLOSE_NOTIFY {
                        self.c.peer_closed = true;
                    } else {
                        let e = match refused_hello {
                            Some(true) => PeerIncompatible::NoCommonVersion.into(),
                            Some(false) => PeerIncompatible::NoTls13.into(),
                            None => Error::AlertReceived(desc),
                        };
                        self.c.error = Some(e);
                        self.state.kill();
                        return Err(e);
                    }
                }
                ContentType::APPLICATION_DATA => {
                    if self.is_handshaking() || self.hs_len != 0 {
                        return Err(PeerMisbehaved::UnexpectedMessage.into());
                    }
                    if start == end {
                        self.c.since_data.count(
                            |s| &mut s.empty_records,
                            MAX_EMPTY_RECORDS,
                            PeerMisbehaved::TooManyEmptyRecords,
                        )?;
                        self.consume_rx(total);
                    } else {
                        self.c.since_data = SinceData::default();
                        self.c.app = Some((start, end, base + total));
                    }
                }
                _ => return Err(PeerMisbehaved::UnexpectedMessage.into()),
            }
        }
        Ok(())
    }

    /// Whether the connection is TLS 1.2, or may still become TLS 1.2: before the version is
    /// chosen, when we offer or accept it.
    fn may_be_tls12(&self) -> bool {
        match &self.state {
            State::Client(config, ClientState::ExpectServerHello(_)) => {
                config.offers(ProtocolVersion::TLSV1_2)
            }
            #[cfg(feature = "server")]
            State::Server(config, ServerState::ExpectClientHello { .. }) => {
                config.accepts(ProtocolVersion::TLSV1_2)
            }
            state => state.is_tls12(),
        }
    }

    /// Takes out of the handshake buffer the whole HelloRequests a TLS 1.2 server sent while
    /// the handshake its ServerHello began is still under way: RFC 5246 §7.4.1.1 has the
    /// client ignore them there, and keep them out of the transcript. Before the ServerHello
    /// the version is not known, and TLS 1.3 has no HelloRequest: one there is an unexpected
    /// message; after the handshake, a request to renegotiate, refused
    /// ([`PeerIncompatible::Renegotiation`]).
    #[cfg(feature = "tls12")]
    fn drop_hello_requests(&mut self) {
        #[cfg_attr(not(feature = "server"), allow(irrefutable_let_patterns))]
        let State::Client(_, state) = &self.state else { return };
        if !state.is_tls12() || matches!(state, ClientState::Traffic12(_)) {
            return;
        }
        // The message the state handles next (two for the server's Certificate with its
        // ServerKeyExchange); later ones are looked at once they are next, in the state then.
        let wanted = if matches!(state, ClientState::ExpectCertificate12(_)) { 2 } else { 1 };
        let (base, mut at, mut kept) = (self.hs_start, 0, 0);
        while kept < wanted {
            let Some((msg, _)) = split_handshake(&self.hs[base + at..base + self.hs_len]) else {
                break;
            };
            let n = msg.len();
            if msg == [HandshakeType::HELLO_REQUEST.0, 0, 0, 0] {
                self.hs.copy_within(base + at + n..base + self.hs_len, base + at);
                self.hs_len -= n;
            } else {
                at += n;
                kept += 1;
            }
        }
    }

    /// Handles every whole message in the handshake buffer.
    pub(crate) fn process_handshake(&mut self) -> Result<(), Error> {
        'messages: loop {
            #[cfg(feature = "tls12")]
            self.drop_hello_requests();
            let base = self.hs_start;
            let buf = &self.hs[base..base + self.hs_len];
            let Some((first, rest)) = split_handshake(buf) else { break };
            let tls12 = self.state.is_tls12();
            // A type TLS 1.3 does not send (HelloRequest, a TLS 1.2 message, a number no one
            // assigned) is an unexpected message whatever it holds (RFC 8446 §4, §6.2); so
            // is, after a TLS 1.2 ServerHello, a type TLS 1.2 does not have.
            let known = if tls12 { HandshakeMessage12::is_tls12_type } else { is_tls13_message };
            if !known(HandshakeType(first[0])) {
                return Err(PeerMisbehaved::UnexpectedMessage.into());
            }
            // The peer waits for our answer to the last message of its flight, so nothing may
            // follow it, as nothing may follow a key change (RFC 8446 §5.1); checked before it
            // is answered, so that the alert is the answer.
            if !rest.is_empty() && ends_flight(&self.state, first) {
                return Err(PeerMisbehaved::InterleavedOrUnalignedRecords.into());
            }
            // A Certificate is handled together with the CertificateVerify after it, so the
            // certificate need not be copied out of the buffer; once checked it stays there
            // (`keep`) for `peer_identity`.
            let (used, keep) = match &mut self.state {
                State::Client(config, slot) => {
                    let (used, keep) = 'message: {
                        #[cfg(feature = "tls12")]
                        if slot.is_tls12() {
                            let state = mem::replace(slot, ClientState::Dead);
                            let (used, next, keep) = match state {
                                // TLS 1.2: the Certificate with the ServerKeyExchange after it.
                                ClientState::ExpectCertificate12(hello) => {
                                    if first[0] != HandshakeType::CERTIFICATE.0 {
                                        return Err(PeerMisbehaved::UnexpectedMessage.into());
                                    }
                                    let Some((second, _)) = split_handshake(rest) else {
                                        *slot = ClientState::ExpectCertificate12(hello);
                                        break 'messages;
                                    };
                                    if !is_tls12_message(HandshakeType(second[0])) {
                                        return Err(PeerMisbehaved::UnexpectedMessage.into());
                                    }
                                    let next = client::tls12::client_certificate(
                                        &mut self.c,
                                        config,
                                        hello,
                                        first,
                                        second,
                                    )?;
                                    (first.len() + second.len(), next, first.len())
                                }
                                state => {
                                    let msg = HandshakeMessage12::decode(first)?;
                                    let ticket = &self.hs[self.hs_end..];
                                    let mut next = client::tls12::handle(
                                        &mut self.c,
                                        config,
                                        state,
                                        first,
                                        &msg,
                                        ticket,
                                    )?;
                                    let first_len = first.len();
                                    // A TLS 1.2 NewSessionTicket's ticket waits at the end of
                                    // the buffer for the server's Finished (which makes it
                                    // worth keeping).
                                    if let HandshakeMessage12::NewSessionTicket(nst) = msg
                                        && next.holds_ticket12()
                                    {
                                        let n = nst.ticket.len();
                                        let (from, live_end) =
                                            (base + first_len - n, base + self.hs_len);
                                        if self.hs.len() - live_end >= n {
                                            self.hs.copy_within(from..from + n, self.hs.len() - n);
                                            self.hs_end = self.hs.len() - n;
                                        } else {
                                            next.forget_ticket12();
                                            let capacity = self.hs.len() - live_end;
                                            self.c.refused_ticket =
                                                Some(crate::ticket::TicketTooLong {
                                                    len: n,
                                                    capacity,
                                                });
                                        }
                                    }
                                    (first_len, next, 0)
                                }
                            };
                            *slot = next;
                            break 'message (used, keep);
                        }
                        if matches!(slot, ClientState::ExpectCertificate(_))
                            && first.first() != Some(&HandshakeType::CERTIFICATE_REQUEST.0)
                        {
                            let Some((second, _)) = split_handshake(rest) else {
                                break 'messages;
                            };
                            if !is_tls13_message(HandshakeType(second[0])) {
                                return Err(PeerMisbehaved::UnexpectedMessage.into());
                            }
                            // Nothing to check a server's Certificate with: refused here,
                            // so that none of that code is linked.
                            if cfg!(not(any(feature = "x509", feature = "raw-public-keys"))) {
                                let e = crate::error::CertificateError::NotBuiltIn;
                                return Err(Error::InvalidCertificate(e));
                            }
                            client::certificate(&mut self.c, config, slot, first, second)?;
                            break 'message (first.len() + second.len(), first.len());
                        }
                        if !server_sends(HandshakeType(first[0])) {
                            return Err(PeerMisbehaved::UnexpectedMessage.into());
                        }
                        let msg = HandshakeMessage::decode_from_server(first)?;
                        let first_len = first.len();
                        let ticket = &self.hs[self.hs_end..];
                        client::handle(&mut self.c, config, slot, first, msg, ticket)?;
                        (first_len, 0)
                    };
                    if !matches!(slot, ClientState::ExpectServerHello2(_)) && !slot.holds_ticket12()
                    {
                        // The offered ticket is not sent again: its room is for reassembly now.
                        self.hs_end = self.hs.len();
                    }
                    (used, keep)
                }
                #[cfg(feature = "server")]
                State::Server(config, slot) => {
                    let state = mem::replace(slot, ServerState::Dead);
                    let (used, next, keep) = match state {
                        // TLS 1.2: a client's certificate stays in the buffer for its
                        // CertificateVerify (after the ClientKeyExchange) and `peer_identity`.
                        #[cfg(feature = "tls12")]
                        ServerState::ExpectCertificate12(kx) => {
                            let msg = HandshakeMessage12::decode(first)?;
                            let next = server::tls12::handle(
                                &mut self.c,
                                config,
                                ServerState::ExpectCertificate12(kx),
                                first,
                                &msg,
                            )?;
                            let keep =
                                if self.c.peer_cert_sha256.is_some() { first.len() } else { 0 };
                            (first.len(), next, keep)
                        }
                        #[cfg(feature = "tls12")]
                        ServerState::ExpectCertificateVerify12(v) => {
                            let kept = &self.hs[..base];
                            let next = server::tls12::server_certificate_verify(
                                &mut self.c,
                                v,
                                first,
                                kept,
                            )?;
                            (first.len(), next, 0)
                        }
                        #[cfg(feature = "tls12")]
                        state if state.is_tls12() => {
                            let msg = HandshakeMessage12::decode(first)?;
                            let next =
                                server::tls12::handle(&mut self.c, config, state, first, &msg)?;
                            (first.len(), next, 0)
                        }
                        ServerState::ExpectCertificate(st) => {
                            let HandshakeMessage::Certificate(cert) =
                                HandshakeMessage::decode(first)?
                            else {
                                return Err(PeerMisbehaved::UnexpectedMessage.into());
                            };
                            if cert.entries.iter().next().is_none() {
                                let next = server_no_client_certificate(config, st, first, &cert)?;
                                (first.len(), next, 0)
                            } else {
                                let Some((second, _)) = split_handshake(rest) else {
                                    *slot = ServerState::ExpectCertificate(st);
                                    break;
                                };
                                if !is_tls13_message(HandshakeType(second[0])) {
                                    return Err(PeerMisbehaved::UnexpectedMessage.into());
                                }
                                let next = server_client_certificate(
                                    &mut self.c,
                                    config,
                                    st,
                                    first,
                                    second,
                                )?;
                                (first.len() + second.len(), next, first.len())
                            }
                        }
                        state => {
                            let msg = HandshakeMessage::decode(first)?;
                            let first_len = first.len();
                            let next = server::handle(&mut self.c, config, state, first, msg)?;
                            (first_len, next, 0)
                        }
                    };
                    self.hs_end = self.hs.len();
                    *slot = next;
                    (used, keep)
                }
            };
            self.hs.copy_within(base + used..base + self.hs_len, base + keep);
            self.hs_len -= used;
            self.hs_start += keep;
            if self.c.key_changed && self.hs_len != 0 {
                return Err(PeerMisbehaved::InterleavedOrUnalignedRecords.into());
            }
            self.c.key_changed = false;
        }
        Ok(())
    }
}
