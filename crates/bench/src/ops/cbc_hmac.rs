//! TLS 1.2 CBC records (AES-128-CBC with HMAC-SHA256 or HMAC-SHA1, MAC-then-encrypt) at TLS
//! record sizes: Halite's `AesCbcHmac`, and OpenSSL's stitched `EVP_aes_128_cbc_hmac_sha256()`
//! / `_sha1()` in process through openssl-sys, driven as OpenSSL's own TLS record layer
//! drives them: MAC key by `EVP_CTRL_AEAD_SET_MAC_KEY`, the record header by
//! `EVP_CTRL_AEAD_TLS1_AAD`, the explicit IV as the first block of the input. The other
//! peers have no such construction.

use super::aead::{Direction, OPEN, SEAL, open_runner};
use super::cbc::CBC_IV;
use super::{Halite, KEY, Library, Op, Peer, Runner, Unit};
use core_aead::{AesCbcHmac, AesImpl, Implementation as _, RecordHash, RecordHeader};
use core_hash::{Sha1, Sha256};
use openssl_sys::{EVP_CIPHER, EVP_CIPHER_CTX};
use std::ffi::{c_int, c_uint, c_void};
use std::ptr;

/// TLS record sizes: a record in a 1500-byte packet, and a full record.
const SIZES: &[usize] = &[1350, 16384];
/// The most plaintext one record carries (RFC 5246 §6.2.1); a longer message (the agreement
/// check's 64 KiB) is cut to one record's worth by every runner alike.
const MAX_RECORD: usize = 1 << 14;

/// The first record's worth of `m`.
fn record(m: &[u8]) -> &[u8] {
    &m[..m.len().min(MAX_RECORD)]
}

/// The header under which every record is authenticated: sequence 0, application data, TLS 1.2.
const HEADER: RecordHeader = RecordHeader { sequence: 0, content_type: 23, version: 0x0303 };

/// The operations, in table order.
pub(super) fn ops() -> Vec<Op> {
    let op = |id, what, halite: fn() -> Halite, make: fn() -> Runner| Op {
        id,
        group: "aead",
        what,
        unit: Unit::Bytes,
        sizes: Some(SIZES),
        halite,
        peers: vec![Peer { library: Library::OpenSsl, make }],
        openssl: None,
        canonical: None,
    };
    vec![
        op(
            "aes-128-cbc-hmac-sha256-encrypt",
            "TLS 1.2 CBC record seal: HMAC-SHA256 then AES-128-CBC (explicit IV)",
            || halite::<Sha256>(SEAL),
            || openssl::<Sha256>(SEAL),
        ),
        op(
            "aes-128-cbc-hmac-sha256-decrypt",
            "TLS 1.2 CBC record open: AES-128-CBC, constant-time padding and HMAC-SHA256 check",
            || halite::<Sha256>(OPEN),
            || openssl::<Sha256>(OPEN),
        ),
        op(
            "aes-128-cbc-hmac-sha1-encrypt",
            "TLS 1.2 CBC record seal: HMAC-SHA1 then AES-128-CBC (explicit IV)",
            || halite::<Sha1>(SEAL),
            || openssl::<Sha1>(SEAL),
        ),
        op(
            "aes-128-cbc-hmac-sha1-decrypt",
            "TLS 1.2 CBC record open: AES-128-CBC, constant-time padding and HMAC-SHA1 check",
            || halite::<Sha1>(OPEN),
            || openssl::<Sha1>(OPEN),
        ),
    ]
}

/// The MAC key: the first `H::OUTPUT_LEN` bytes of [`KEY`] reversed (TLS keys are as long
/// as the hash's output).
fn mac_key<H: RecordHash>() -> Vec<u8> {
    KEY.iter().rev().take(H::OUTPUT_LEN).copied().collect()
}

/// Halite's record seal or open (the plaintext moved to the front of the output, as the
/// other runners return it) under the first 16 bytes of [`KEY`].
fn halite<H: RecordHash + 'static>(dir: Direction) -> Halite {
    let run = || -> Runner {
        let key = AesCbcHmac::<H>::new(&KEY[..16], &mac_key::<H>()).expect("a 16-byte key");
        let opener = key.clone();
        let seal: Runner = Box::new(move |m, out| {
            let m = record(m);
            let start = out.len();
            out.resize(start + AesCbcHmac::<H>::sealed_len(m.len()), 0);
            out[start + 16..start + 16 + m.len()].copy_from_slice(m);
            key.seal_in_place(&HEADER, &CBC_IV, &mut out[start..], m.len()).expect("room");
        });
        if dir == SEAL {
            return seal;
        }
        open_runner(seal, move |buf| {
            let len = opener.open_in_place(&HEADER, buf).expect("our own record opens").len();
            buf.copy_within(16..16 + len, 0);
            len
        })
    };
    let name = format!("{}+{}", AesImpl::best().name(), H::Impl::best().name());
    Halite { default_impl: name.clone(), default: run(), impls: vec![(name, run())] }
}

const EVP_CTRL_AEAD_TLS1_AAD: c_int = 0x16;
const EVP_CTRL_AEAD_SET_MAC_KEY: c_int = 0x17;

unsafe extern "C" {
    fn EVP_aes_128_cbc_hmac_sha256() -> *const EVP_CIPHER;
    fn EVP_aes_128_cbc_hmac_sha1() -> *const EVP_CIPHER;
    fn EVP_Cipher(ctx: *mut EVP_CIPHER_CTX, out: *mut u8, inp: *const u8, len: c_uint) -> c_int;
}

/// One keyed `EVP_CIPHER_CTX` of OpenSSL's stitched cipher for `H`, freed on drop.
struct Stitched(*mut EVP_CIPHER_CTX);

impl Stitched {
    fn new<H: RecordHash>(encrypt: bool) -> Self {
        // SAFETY: plain libcrypto calls on a context this function owns; the key, IV and MAC
        // key buffers outlive the calls that read them.
        unsafe {
            let cipher = if H::OUTPUT_LEN == 32 {
                EVP_aes_128_cbc_hmac_sha256()
            } else {
                EVP_aes_128_cbc_hmac_sha1()
            };
            assert!(!cipher.is_null(), "libcrypto has the stitched cipher");
            let ctx = openssl_sys::EVP_CIPHER_CTX_new();
            assert!(!ctx.is_null());
            let init = openssl_sys::EVP_CipherInit_ex(
                ctx,
                cipher,
                ptr::null_mut(),
                KEY.as_ptr(),
                [0u8; 16].as_ptr(),
                c_int::from(encrypt),
            );
            assert_eq!(init, 1, "the stitched cipher runs on this CPU");
            let mut mac_key = mac_key::<H>();
            let len = mac_key.len() as c_int;
            let set = openssl_sys::EVP_CIPHER_CTX_ctrl(
                ctx,
                EVP_CTRL_AEAD_SET_MAC_KEY,
                len,
                mac_key.as_mut_ptr().cast::<c_void>(),
            );
            assert!(set > 0, "the MAC key");
            Self(ctx)
        }
    }

    /// Starts a record: the chaining value back to zero, and the TLS header with `len`
    /// (what `EVP_CTRL_AEAD_TLS1_AAD` takes: the plaintext and explicit IV when sealing, the
    /// fragment when opening); returns what the control returns (the padding and MAC length
    /// when sealing).
    fn start(&mut self, len: usize) -> usize {
        let mut aad = [0u8; 13];
        aad[..8].copy_from_slice(&HEADER.sequence.to_be_bytes());
        aad[8] = HEADER.content_type;
        aad[9..11].copy_from_slice(&HEADER.version.to_be_bytes());
        aad[11..].copy_from_slice(&(len as u16).to_be_bytes());
        // SAFETY: the context is live; the IV and AAD buffers outlive the calls.
        unsafe {
            let init = openssl_sys::EVP_CipherInit_ex(
                self.0,
                ptr::null(),
                ptr::null_mut(),
                ptr::null(),
                [0u8; 16].as_ptr(),
                -1,
            );
            assert_eq!(init, 1);
            let extra = openssl_sys::EVP_CIPHER_CTX_ctrl(
                self.0,
                EVP_CTRL_AEAD_TLS1_AAD,
                13,
                aad.as_mut_ptr().cast::<c_void>(),
            );
            usize::try_from(extra).expect("the header is accepted")
        }
    }

    /// `EVP_Cipher` in place over `buf`; whether it succeeded.
    fn cipher(&mut self, buf: &mut [u8]) -> bool {
        let len = c_uint::try_from(buf.len()).expect("a record");
        // SAFETY: the context is live and `buf` is `len` bytes, read and written in place.
        unsafe { EVP_Cipher(self.0, buf.as_mut_ptr(), buf.as_ptr(), len) > 0 }
    }
}

impl Drop for Stitched {
    fn drop(&mut self) {
        // SAFETY: the context was allocated by `EVP_CIPHER_CTX_new` and is freed once.
        unsafe { openssl_sys::EVP_CIPHER_CTX_free(self.0) };
    }
}

/// OpenSSL's stitched record seal or open. Sealing puts `D_K(CBC_IV)` in the explicit-IV
/// block under a zero chaining value, so the record's first block is `CBC_IV`, as Halite's
/// is, and the records can be compared byte for byte.
fn openssl<H: RecordHash>(dir: Direction) -> Runner {
    let mut first = CBC_IV;
    core_aead::Aes::new(&KEY[..16]).expect("a 16-byte key").decrypt_block(&mut first);
    let mut sealer = Stitched::new::<H>(true);
    let seal: Runner = Box::new(move |m, out| {
        let m = record(m);
        let extra = sealer.start(16 + m.len());
        let start = out.len();
        out.extend_from_slice(&first);
        out.extend_from_slice(m);
        out.resize(start + 16 + m.len() + extra, 0);
        assert!(sealer.cipher(&mut out[start..]), "the record seals");
    });
    if dir == SEAL {
        return seal;
    }
    let mut opener = Stitched::new::<H>(false);
    open_runner(seal, move |buf| {
        opener.start(buf.len());
        assert!(opener.cipher(buf), "our own record opens");
        let pad = usize::from(buf[buf.len() - 1]);
        let len = buf.len() - 16 - H::OUTPUT_LEN - 1 - pad;
        buf.copy_within(16..16 + len, 0);
        len
    })
}
