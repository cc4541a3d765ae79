//! `LabeledExtract` and `LabeledExpand` (RFC 9180 §4): every HKDF call in HPKE, each bound to
//! the protocol version, the suite (KEM alone, or KEM, KDF and AEAD) and a label, so no two
//! derivations can collide.

use core_hash::{Hash, Hkdf, Hmac};

use crate::{Error, Secret};

/// The version string every label starts with.
const VERSION: &[u8] = b"HPKE-v1";

/// `LabeledExtract(salt, label, ikm)`, the input keying material given as the concatenation
/// of `ikm` (an empty `salt` is HKDF's string of zeros, which HMAC pads the same way).
pub(crate) fn labeled_extract<H: Hash>(
    suite_id: &[u8],
    salt: &[u8],
    label: &[u8],
    ikm: &[&[u8]],
) -> Secret<H> {
    let mut mac = Hmac::<H>::new(salt);
    for part in [VERSION, suite_id, label].iter().chain(ikm) {
        mac.update(part);
    }
    Secret(mac.finalize())
}

/// `LabeledExpand(prk, label, info, L)` into `out` (L is its length), `info` given as the
/// concatenation of its parts. [`Error::ExportTooLong`] past 255 hash lengths.
pub(crate) fn labeled_expand<H: Hash>(
    suite_id: &[u8],
    prk: &Secret<H>,
    label: &[u8],
    info: &[&[u8]],
    out: &mut [u8],
) -> Result<(), Error> {
    let len = u16::try_from(out.len()).map_err(|_| Error::ExportTooLong)?.to_be_bytes();
    // A PRK is always a hash length, so only the output length can be refused.
    let hkdf = Hkdf::<H>::from_prk(prk.as_bytes()).map_err(|_| Error::ExportTooLong)?;
    // Room for the four fixed parts and up to four of `info` (callers pass at most three).
    let mut parts: [&[u8]; 8] = [&[]; 8];
    let head = [&len[..], VERSION, suite_id, label];
    let n = head.len() + info.len();
    let parts = parts.get_mut(..n).ok_or(Error::ExportTooLong)?;
    for (slot, part) in parts.iter_mut().zip(head.iter().chain(info)) {
        *slot = part;
    }
    hkdf.expand_multi_info(parts, out).map_err(|_| Error::ExportTooLong)
}

/// A buffer for one hash-length secret, to be overwritten by [`labeled_expand`]: `H::Output`
/// has no constructor of its own, so it starts as a copy of `seed`'s bytes.
pub(crate) fn hash_len_buffer<H: Hash>(seed: &Secret<H>) -> Secret<H> {
    Secret(seed.0)
}
