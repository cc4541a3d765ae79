//! The send side of the record layer: handshake messages, alerts and other content framed
//! (before keys) or protected into the send buffer, split to the peer's record limit.

use crate::error::{ApiMisuse, BufferKind, Error};
use crate::key_schedule::Transcript;
use crate::msgs::{AlertDescription, AlertLevel, Codec, ContentType, ProtocolVersion, Writer};
#[cfg(feature = "tls12")]
use crate::record::tls12::RecordProtection12;
use crate::record::{HEADER_LEN, MAX_PLAINTEXT_LEN, RecordHeader, RecordProtection};

/// One direction's record protection, of the version the connection negotiated.
pub(crate) enum Protection {
    /// TLS 1.3: the true content type inside, padding, the IV XOR sequence nonce.
    V13(RecordProtection),
    /// TLS 1.2: the content type in the clear header, explicit or XOR nonces.
    #[cfg(feature = "tls12")]
    V12(RecordProtection12),
}

impl Protection {
    /// The whole record's length for `len` content bytes (TLS 1.3: and `padding`).
    pub(crate) fn sealed_len(&self, len: usize, padding: usize) -> usize {
        match self {
            Self::V13(k) => k.sealed_len(len, padding),
            #[cfg(feature = "tls12")]
            Self::V12(k) => k.sealed_len(len),
        }
    }

    /// The longest record body (after the header) a peer's record may have: for TLS 1.3
    /// `inner_limit` (the TLSInnerPlaintext limit) and the tag; for TLS 1.2 2^14 + 2048
    /// (RFC 5246 §6.2.3; the 2^14 plaintext limit is checked once it opens), or a negotiated
    /// plaintext limit (RFC 8449 §4, RFC 6066 §4) with the nonce and tag.
    pub(crate) fn max_body(&self, inner_limit: usize) -> usize {
        match self {
            Self::V13(k) => inner_limit + k.alg().tag_len(),
            #[cfg(feature = "tls12")]
            Self::V12(k) if inner_limit <= MAX_PLAINTEXT_LEN => inner_limit + k.overhead(),
            #[cfg(feature = "tls12")]
            Self::V12(_) => crate::record::tls12::MAX_CIPHERTEXT_LEN,
        }
    }

    /// Seals `len` content bytes at `buf[5..]` as one record at the start of `buf`.
    pub(crate) fn seal_in_place(
        &mut self,
        typ: ContentType,
        buf: &mut [u8],
        len: usize,
        padding: usize,
    ) -> Result<usize, Error> {
        match self {
            Self::V13(k) => k.seal_in_place(typ, buf, len, padding),
            #[cfg(feature = "tls12")]
            Self::V12(k) => {
                let at = k.payload_offset();
                let total = k.sealed_len(len);
                if buf.len() < total {
                    return Err(Error::too_small(BufferKind::Send, total));
                }
                buf.copy_within(HEADER_LEN..HEADER_LEN + len, at);
                k.seal_in_place(typ, buf, len)
            }
        }
    }

    /// Opens the whole record in place: its content type, and where its content starts and
    /// ends in `record`.
    pub(crate) fn open(&mut self, record: &mut [u8]) -> Result<(ContentType, usize, usize), Error> {
        match self {
            Self::V13(k) => {
                let (typ, content) = k.open(record)?;
                Ok((typ, HEADER_LEN, HEADER_LEN + content.len()))
            }
            #[cfg(feature = "tls12")]
            Self::V12(k) => {
                let at = k.payload_offset();
                let (typ, content) = k.open(record)?;
                Ok((typ, at, at + content.len()))
            }
        }
    }
}

/// The record side of a connection: the send and receive buffers and the keys.
pub(crate) struct Io<'b> {
    pub(crate) rx: &'b mut [u8],
    /// Where the unprocessed received bytes start: records are consumed by moving this
    /// offset, and the bytes are moved to the front only when that is worth it (see
    /// [`Connection::receive_space`](crate::Connection::receive_space)), so receiving costs
    /// time linear in the bytes received.
    pub(crate) rx_start: usize,
    /// Where the received bytes end.
    pub(crate) rx_len: usize,
    pub(crate) tx: &'b mut [u8],
    pub(crate) tx_len: usize,
    /// The most content bytes one protected record to the peer may carry: 2^14, or less when
    /// the peer's `record_size_limit` or a `max_fragment_length` asks for it.
    pub(crate) send_limit: usize,
    /// The most content bytes one unprotected record may carry: 2^14, or a negotiated
    /// `max_fragment_length`, which binds the handshake records before keys too (RFC 6066 §4:
    /// a TLS 1.2 server's Certificate goes out in the clear).
    pub(crate) plain_limit: usize,
    /// The longest TLSInnerPlaintext (content, type byte and padding) a protected record from
    /// the peer may carry: 2^14 + 1, or the negotiated limit (longer is `record_overflow`).
    pub(crate) recv_limit: usize,
    pub(crate) read_key: Option<Protection>,
    pub(crate) write_key: Option<Protection>,
}

impl Io<'_> {
    /// Queues one handshake message as one record (protected once keys are set), adding it
    /// to `transcript`.
    pub(crate) fn send_handshake<'m>(
        &mut self,
        msg: &impl Codec<'m>,
        transcript: Option<&mut Transcript>,
    ) -> Result<(), Error> {
        self.send_handshake_patched(msg, transcript, |_| Ok(()))
    }

    /// As [`send_handshake`](Self::send_handshake), letting `patch` change the encoded
    /// message before it is hashed and sealed (to fill in PSK binders).
    pub(crate) fn send_handshake_patched<'m>(
        &mut self,
        msg: &impl Codec<'m>,
        transcript: Option<&mut Transcript>,
        patch: impl FnOnce(&mut [u8]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let start = self.tx_len;
        let too_small = |io: &Self| {
            let mut m = Writer::measuring();
            let n = msg.encode(&mut m).map_or(0, |()| m.len());
            Error::too_small(BufferKind::Send, start + io.queued_len(n))
        };
        let Some(body) = self.tx.get_mut(start + HEADER_LEN..) else {
            return Err(too_small(self));
        };
        let mut w = Writer::new(body);
        if msg.encode(&mut w).is_err() {
            return Err(too_small(self));
        }
        let n = w.len();
        if n > MAX_PLAINTEXT_LEN {
            // A handshake message is sent in one record: a certificate chain that long is not
            // usable.
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        patch(&mut self.tx[start + HEADER_LEN..start + HEADER_LEN + n])?;
        if let Some(t) = transcript {
            t.update(&self.tx[start + HEADER_LEN..start + HEADER_LEN + n]);
        }
        self.seal_queued(ContentType::HANDSHAKE, start, n)
    }

    /// The bytes `n` bytes of content take once queued: one record before keys, else as
    /// many protected records as the peer's limit asks for.
    pub(crate) fn queued_len(&self, n: usize) -> usize {
        let Some(k) = &self.write_key else {
            let count = records(n, self.plain_limit.max(1));
            return HEADER_LEN * count + n;
        };
        let limit = self.send_limit.max(1);
        let count = records(n, limit);
        k.sealed_len(limit, 0) * (count - 1) + k.sealed_len(n - limit * (count - 1), 0)
    }

    /// Protects (or frames, before keys) `n` bytes already at `tx[start + 5..]`. Protected
    /// content longer than the peer's record size limit is split over several records: the
    /// chunks are moved apart (last first, so none is overwritten) to make room for each
    /// record's header, type byte and tag, then sealed in order.
    pub(crate) fn seal_queued(
        &mut self,
        typ: ContentType,
        start: usize,
        n: usize,
    ) -> Result<(), Error> {
        let Some(k) = &mut self.write_key else {
            // Unprotected: split to the plaintext limit the same way, each record only a
            // header longer than its chunk.
            let limit = self.plain_limit.max(1);
            let count = records(n, limit);
            let per = HEADER_LEN + limit;
            let end = start + HEADER_LEN * count + n;
            if end > self.tx.len() {
                return Err(Error::too_small(BufferKind::Send, end));
            }
            for i in (1..count).rev() {
                let from = start + HEADER_LEN + i * limit;
                let len = limit.min(n - i * limit);
                self.tx.copy_within(from..from + len, start + i * per + HEADER_LEN);
            }
            for i in 0..count {
                let len = limit.min(n - i * limit);
                RecordHeader::write(typ, len, &mut self.tx[start + i * per..]);
            }
            self.tx_len += HEADER_LEN * count + n;
            return Ok(());
        };
        let limit = self.send_limit.max(1);
        let count = records(n, limit);
        let per = k.sealed_len(limit, 0);
        let last = n - limit * (count - 1);
        let end = start + per * (count - 1) + k.sealed_len(last, 0);
        if end > self.tx.len() {
            return Err(Error::too_small(BufferKind::Send, end));
        }
        for i in (1..count).rev() {
            let from = start + HEADER_LEN + i * limit;
            let len = limit.min(n - i * limit);
            self.tx.copy_within(from..from + len, start + i * per + HEADER_LEN);
        }
        for i in 0..count {
            let len = limit.min(n - i * limit);
            let total = k.seal_in_place(typ, &mut self.tx[start + i * per..], len, 0)?;
            self.tx_len += total;
        }
        Ok(())
    }

    /// Rewrites the legacy version of every record queued from `tx[from..]` (which must be
    /// unprotected): RFC 8446 §5.1 lets the initial ClientHello's records say TLS 1.0.
    pub(crate) fn set_record_version(&mut self, from: usize, version: ProtocolVersion) {
        let mut at = from;
        while let Some(h) = self.tx[..self.tx_len].get_mut(at..at + HEADER_LEN) {
            h[1..3].copy_from_slice(&version.0.to_be_bytes());
            at += HEADER_LEN + usize::from(u16::from_be_bytes([h[3], h[4]]));
        }
    }

    pub(crate) fn send_plain(&mut self, typ: ContentType, data: &[u8]) -> Result<(), Error> {
        let start = self.tx_len;
        let needed = start + self.queued_len(data.len());
        let body = self
            .tx
            .get_mut(start + HEADER_LEN..start + HEADER_LEN + data.len())
            .ok_or(Error::too_small(BufferKind::Send, needed))?;
        body.copy_from_slice(data);
        self.seal_queued(typ, start, data.len())
    }

    pub(crate) fn send_alert(&mut self, desc: AlertDescription) {
        let level = if desc == AlertDescription::CLOSE_NOTIFY {
            AlertLevel::WARNING
        } else {
            AlertLevel::FATAL
        };
        // Best effort: with no room left the alert is dropped, the error stays.
        let _ = self.send_plain(ContentType::ALERT, &[level.0, desc.0]);
    }
}

/// How many records `n` bytes of content take at most `limit` (nonzero) bytes each, at least
/// one: `n.div_ceil(limit).max(1)`, counted by subtraction instead, as a Cortex-M0 has no
/// divide instruction and a division links a ~400-byte routine that nothing else in a device
/// client needs. The loop runs once per record, as sealing them does.
fn records(n: usize, limit: usize) -> usize {
    let (mut count, mut rest) = (1, n);
    while rest > limit {
        rest -= limit;
        count += 1;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::records;

    #[test]
    fn records_is_div_ceil_of_at_least_one() {
        for limit in [1, 2, 3, 63, 64, 512, 16_384] {
            for n in (0..3 * limit + 2).chain([16_384, 16_385, 65_536]) {
                assert_eq!(records(n, limit), n.div_ceil(limit).max(1), "{n} / {limit}");
            }
        }
    }
}
