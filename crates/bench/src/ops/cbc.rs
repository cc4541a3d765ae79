//! The AES-CBC operations: one stream (PKCS#7 padding, as `openssl enc` pads) and the
//! multi-buffer encryption of many streams at once, as Halite and each peer computes them.
//! ring and aws-lc-rs expose no CBC; RustCrypto's `cbc` over `aes` is the Rust peer.

use super::{Halite, KEY, Library, MB_MESSAGES, MB_SIZES, Op, OpensslSpec, Runner, Unit, peer};
use cbc::cipher::{BlockEncryptMut, KeyIvInit, block_padding::Pkcs7};

/// The IV of every CBC operation, in every library.
pub const CBC_IV: [u8; 16] = *b"Halite bench IV!";

/// The operations, in table order.
pub(super) fn ops() -> Vec<Op> {
    let key = crate::check::hex(&KEY[..16]);
    let iv = crate::check::hex(&CBC_IV);
    vec![
        Op {
            id: "aes-128-cbc-encrypt",
            group: "aead",
            what: "AES-128-CBC encryption with PKCS#7 padding, one stream",
            unit: Unit::Bytes,
            sizes: None,
            halite: halite_aes_128_cbc,
            peers: peer(Library::RustCrypto, rustcrypto_aes_128_cbc).into_iter().collect(),
            openssl: Some(OpensslSpec {
                speed: vec!["-evp".into(), "aes-128-cbc".into()],
                check: Some(vec![
                    "enc".into(),
                    "-aes-128-cbc".into(),
                    "-K".into(),
                    key,
                    "-iv".into(),
                    iv,
                ]),
            }),
            canonical: None,
        },
        Op {
            id: "aes-128-cbc-mb",
            group: "aead",
            what: "AES-128-CBC encryption with PKCS#7 padding of 16 streams under 16 keys \
                   (multi-buffer); peers encrypt them one after another",
            unit: Unit::Bytes,
            sizes: Some(MB_SIZES),
            halite: halite_aes_128_cbc_mb,
            peers: peer(Library::RustCrypto, rustcrypto_aes_128_cbc_mb).into_iter().collect(),
            openssl: None,
            canonical: None,
        },
    ]
}

/// Appends `m` and its PKCS#7 padding to `out`; returns where they start.
fn append_padded(m: &[u8], out: &mut Vec<u8>) -> usize {
    let start = out.len();
    let pad = 16 - m.len() % 16;
    out.extend_from_slice(m);
    out.resize(start + m.len() + pad, pad as u8);
    start
}

/// Halite's AES-128-CBC under the first 16 bytes of [`KEY`]: the default key, then each AES
/// implementation.
#[must_use]
pub fn halite_aes_128_cbc() -> Halite {
    use core_aead::{Aes, AesImpl, Implementation as _};
    let run = |aes: Aes| -> Runner {
        Box::new(move |m, out| {
            let start = append_padded(m, out);
            let mut iv = CBC_IV;
            aes.cbc_encrypt(&mut iv, &mut out[start..]).expect("whole blocks");
        })
    };
    let key = |imp| Aes::with_impl(imp, &KEY[..16]).expect("a 16-byte key");
    Halite {
        default_impl: AesImpl::best().name().to_owned(),
        default: run(Aes::new(&KEY[..16]).expect("a 16-byte key")),
        impls: AesImpl::available().map(|imp| (imp.name().to_owned(), run(key(imp)))).collect(),
    }
}

/// RustCrypto's `cbc::Encryptor<aes::Aes128>` with PKCS#7 padding.
#[must_use]
pub fn rustcrypto_aes_128_cbc() -> Runner {
    Box::new(|m, out| rustcrypto_encrypt(&KEY[..16], m, out))
}

/// One RustCrypto CBC encryption of `m` under `key`, appended to `out`.
fn rustcrypto_encrypt(key: &[u8], m: &[u8], out: &mut Vec<u8>) {
    let start = append_padded(m, out);
    let enc = cbc::Encryptor::<aes::Aes128>::new_from_slices(key, &CBC_IV).expect("key and IV");
    enc.encrypt_padded_mut::<Pkcs7>(&mut out[start..], m.len()).expect("room for the padding");
}

/// The key of multi-buffer stream `i`: [`KEY`]'s first 16 bytes with the first one changed.
fn mb_key(i: usize) -> [u8; 16] {
    let mut key = [0u8; 16];
    key.copy_from_slice(&KEY[..16]);
    key[0] ^= i as u8;
    key
}

/// The [`MB_MESSAGES`] equal messages a multi-buffer row splits its input into.
fn mb_split(m: &[u8]) -> impl Iterator<Item = &[u8]> {
    let len = m.len() / MB_MESSAGES;
    (0..MB_MESSAGES).map(move |i| &m[i * len..(i + 1) * len])
}

/// Halite's multi-buffer AES-128-CBC (`Aes::cbc_encrypt_many`): each message padded, then the
/// 16 streams encrypted side by side; the default and every multi-buffer implementation
/// (`sequential` being one-stream CBC on the best AES implementation, in a loop).
#[must_use]
pub fn halite_aes_128_cbc_mb() -> Halite {
    use core_aead::{Aes, CbcMbImpl, CbcStream, Implementation as _};
    let run = |imp: Option<CbcMbImpl>| -> Runner {
        let keys: Vec<Aes> =
            (0..MB_MESSAGES).map(|i| Aes::new(&mb_key(i)).expect("a 16-byte key")).collect();
        Box::new(move |m, out| {
            let start = out.len();
            for part in mb_split(m) {
                append_padded(part, out);
            }
            let each = (out.len() - start) / MB_MESSAGES;
            let mut bufs = out[start..].chunks_exact_mut(each);
            let mut streams: [CbcStream<'_>; MB_MESSAGES] = core::array::from_fn(|i| CbcStream {
                key: &keys[i],
                iv: CBC_IV,
                buf: bufs.next().expect("one buffer per stream"),
            });
            match imp {
                Some(imp) => imp.cbc_encrypt(&mut streams),
                None => Aes::cbc_encrypt_many(&mut streams),
            }
            .expect("whole blocks");
        })
    };
    Halite {
        default_impl: CbcMbImpl::best().name().to_owned(),
        default: run(None),
        impls: CbcMbImpl::available().map(|imp| (imp.name().to_owned(), run(Some(imp)))).collect(),
    }
}

/// RustCrypto's AES-128-CBC on each of the [`MB_MESSAGES`] messages in turn, each under its
/// own key.
#[must_use]
pub fn rustcrypto_aes_128_cbc_mb() -> Runner {
    Box::new(|m, out| {
        for (i, part) in mb_split(m).enumerate() {
            rustcrypto_encrypt(&mb_key(i), part, out);
        }
    })
}
