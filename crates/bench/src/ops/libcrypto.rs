//! OpenSSL's libcrypto in process, through the `openssl` crate: the `openssl` column, measured
//! in the same rounds as every other peer and checked against Halite's output like them.
//!
//! Each runner uses libcrypto the way a careful OpenSSL user does: algorithms fetched once
//! (`EVP_MD_fetch`, `EVP_CIPHER_fetch`), one context per key reused for every message — a digest
//! re-initialised on its `EVP_MD_CTX`, HMAC re-keyed from its precomputed pads (`HMAC_Init_ex`
//! with no key, which is what the 3.0 HMAC provider behind `EVP_MAC` runs), an AEAD re-initialised
//! with only a new nonce (`EVP_EncryptInit_ex` with no cipher and no key keeps the key
//! schedule). Public-key operations go through `EVP_PKEY` with a fresh `EVP_PKEY_CTX` per call
//! (`EVP_DigestSignInit`, `EVP_PKEY_derive_init`), as OpenSSL's API requires; ECDSA signatures
//! are converted from DER to `r ‖ s`, the output every other library gives.

use ::openssl::bn::{BigNum, BigNumContext};
use ::openssl::derive::Deriver;
use ::openssl::ec::{EcGroup, EcKey, EcPoint};
use ::openssl::ecdsa::EcdsaSig;
use ::openssl::hash::MessageDigest;
use ::openssl::md::Md;
use ::openssl::md_ctx::MdCtx;
use ::openssl::nid::Nid;
use ::openssl::pkey::{Id, PKey, Private, Public};
use ::openssl::rsa::Padding;
use ::openssl::sign::RsaPssSaltlen;
use std::ptr;

use super::aead::{AAD, Direction, NONCE, OPEN, SEAL, open_runner};
use super::ec::{ED25519_SEED, X25519_PEER_SECRET, X25519_SECRET};
use super::rsa::{KEY_2048, KEY_3072, KEY_4096};
use super::{KEY, Library, Peer, Runner, p256, p384, verify_runner};

/// libcrypto's entry for op `id`, if it implements it.
pub(super) fn peer(id: &str) -> Option<Peer> {
    let make: fn() -> Runner = match id {
        "sha1" => || digest("SHA1", None),
        "sha224" => || digest("SHA2-224", None),
        "sha256" => || digest("SHA2-256", None),
        "sha384" => || digest("SHA2-384", None),
        "sha512" => || digest("SHA2-512", None),
        "sha512-256" => || digest("SHA2-512/256", None),
        "sha3-224" => || digest("SHA3-224", None),
        "sha3-256" => || digest("SHA3-256", None),
        "sha3-384" => || digest("SHA3-384", None),
        "sha3-512" => || digest("SHA3-512", None),
        "shake128" => || digest("SHAKE128", Some(32)),
        "shake256" => || digest("SHAKE256", Some(64)),
        "hmac-sha256" => || hmac(MessageDigest::sha256()),
        "hmac-sha384" => || hmac(MessageDigest::sha384()),
        "hmac-sha512" => || hmac(MessageDigest::sha512()),
        "aes-128-gcm-seal" => || aead("AES-128-GCM", 16, SEAL),
        "aes-128-gcm-open" => || aead("AES-128-GCM", 16, OPEN),
        "aes-256-gcm-seal" => || aead("AES-256-GCM", 32, SEAL),
        "aes-256-gcm-open" => || aead("AES-256-GCM", 32, OPEN),
        "chacha20-poly1305-seal" => || aead("ChaCha20-Poly1305", 32, SEAL),
        "chacha20-poly1305-open" => || aead("ChaCha20-Poly1305", 32, OPEN),
        "x25519-derive" => x25519_derive,
        "x25519-agree" => x25519_agree,
        "ed25519-sign" => ed25519_sign,
        "ed25519-verify" => ed25519_verify,
        "p256-ecdh" => || ecdh(Nid::X9_62_PRIME256V1, &p256::SECRET, &p256::PEER_SECRET),
        "p256-ecdsa-sign" => || ecdsa_sign(Nid::X9_62_PRIME256V1, &p256::SECRET, "SHA2-256"),
        "p256-ecdsa-verify" => || ecdsa_verify(Nid::X9_62_PRIME256V1, &p256::SECRET, "SHA2-256"),
        "p384-ecdh" => || ecdh(Nid::SECP384R1, &p384::SECRET, &p384::PEER_SECRET),
        "p384-ecdsa-sign" => || ecdsa_sign(Nid::SECP384R1, &p384::SECRET, "SHA2-384"),
        "p384-ecdsa-verify" => || ecdsa_verify(Nid::SECP384R1, &p384::SECRET, "SHA2-384"),
        "rsa2048-pkcs1-sign" => || rsa_sign(KEY_2048, Padding::PKCS1),
        "rsa2048-pss-sign" => || rsa_sign(KEY_2048, Padding::PKCS1_PSS),
        "rsa3072-pkcs1-sign" => || rsa_sign(KEY_3072, Padding::PKCS1),
        "rsa4096-pkcs1-sign" => || rsa_sign(KEY_4096, Padding::PKCS1),
        "rsa2048-pkcs1-verify" => || rsa_verify(KEY_2048),
        "rsa3072-pkcs1-verify" => || rsa_verify(KEY_3072),
        "rsa4096-pkcs1-verify" => || rsa_verify(KEY_4096),
        _ => return None,
    };
    Some(Peer { library: Library::OpenSsl, make })
}

/// A fetched digest (`SHA2-256`…); the names are OpenSSL 3's.
fn fetch_md(name: &str) -> Md {
    Md::fetch(None, name, None).expect("libcrypto has the digest")
}

/// The digest `name`, re-initialised on one `EVP_MD_CTX` for every message; for an
/// extendable-output function, `xof_len` bytes of output.
fn digest(name: &str, xof_len: Option<usize>) -> Runner {
    let md = fetch_md(name);
    let len = xof_len.unwrap_or(md.size());
    let mut ctx = MdCtx::new().expect("a digest context");
    Box::new(move |m, out| {
        ctx.digest_init(&md).expect("init");
        ctx.digest_update(m).expect("update");
        let start = out.len();
        out.resize(start + len, 0);
        let output = &mut out[start..];
        match xof_len {
            Some(_) => ctx.digest_final_xof(output),
            None => ctx.digest_final(output).map(drop),
        }
        .expect("a digest");
    })
}

/// An `HMAC_CTX`, keyed once and freed on drop. The `openssl` crate wraps HMAC only as an
/// `EVP_PKEY`, which needs a new `EVP_PKEY_CTX` per message; this keeps one keyed context.
struct HmacCtx(*mut openssl_sys::HMAC_CTX);

impl HmacCtx {
    /// A context keyed with `key` for HMAC-`md`.
    fn new(md: MessageDigest, key: &[u8]) -> HmacCtx {
        ::openssl::init();
        // SAFETY: no preconditions; a null result is checked below.
        let ctx = HmacCtx(unsafe { openssl_sys::HMAC_CTX_new() });
        assert!(!ctx.0.is_null(), "HMAC_CTX_new failed");
        let len = i32::try_from(key.len()).expect("a short key");
        // SAFETY: `ctx.0` is a live context; the key pointer is valid for `len` bytes; `md` is
        // one of libcrypto's static digests; no engine.
        let keyed = unsafe {
            openssl_sys::HMAC_Init_ex(ctx.0, key.as_ptr().cast(), len, md.as_ptr(), ptr::null_mut())
        };
        assert_eq!(keyed, 1, "HMAC_Init_ex failed");
        ctx
    }

    /// Appends the tag of `m` to `out`, restarting from the stored key.
    fn mac(&mut self, m: &[u8], out: &mut Vec<u8>) {
        let mut tag = [0u8; openssl_sys::EVP_MAX_MD_SIZE as usize];
        let mut len = 0;
        // SAFETY: `self.0` was keyed in `new`, so a null key and digest re-use that key
        // (HMAC(3)); `m` is valid for `m.len()` bytes; `tag` holds `EVP_MAX_MD_SIZE` bytes, the
        // most `HMAC_Final` writes.
        let ok = unsafe {
            openssl_sys::HMAC_Init_ex(self.0, ptr::null(), 0, ptr::null(), ptr::null_mut()) == 1
                && openssl_sys::HMAC_Update(self.0, m.as_ptr(), m.len()) == 1
                && openssl_sys::HMAC_Final(self.0, tag.as_mut_ptr(), &raw mut len) == 1
        };
        assert!(ok, "HMAC failed");
        out.extend_from_slice(&tag[..len as usize]);
    }
}

impl Drop for HmacCtx {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `HMAC_CTX_new`, is not null, and is freed only here.
        unsafe { openssl_sys::HMAC_CTX_free(self.0) };
    }
}

/// HMAC-`md` under [`KEY`]: keyed once, then restarted from the stored pads per message.
fn hmac(md: MessageDigest) -> Runner {
    let mut ctx = HmacCtx::new(md, &KEY);
    Box::new(move |m, out| ctx.mac(m, out))
}

/// A fetched cipher and one `EVP_CIPHER_CTX` keyed with it for one direction, both freed on
/// drop. The `openssl` crate's `CipherCtx` asks the provider for the IV length on every nonce
/// (`EVP_CIPHER_CTX_get_iv_length`, a parameter query in OpenSSL 3.0) and checks output sizes
/// on every update, which cost small messages most of their time; this makes the calls
/// `openssl speed -aead` makes and no others.
struct AeadCtx {
    cipher: *mut openssl_sys::EVP_CIPHER,
    ctx: *mut openssl_sys::EVP_CIPHER_CTX,
}

impl AeadCtx {
    /// The AEAD `name` keyed with `key`, to seal if `encrypt`, else to open.
    fn new(name: &str, key: &[u8], encrypt: bool) -> AeadCtx {
        ::openssl::init();
        let name = std::ffi::CString::new(name).expect("a name without NUL");
        // SAFETY: the default library context and no properties; `name` is NUL-terminated; the
        // results are checked below and freed only on drop.
        let aead = unsafe {
            AeadCtx {
                cipher: openssl_sys::EVP_CIPHER_fetch(ptr::null_mut(), name.as_ptr(), ptr::null()),
                ctx: openssl_sys::EVP_CIPHER_CTX_new(),
            }
        };
        assert!(!aead.cipher.is_null() && !aead.ctx.is_null(), "libcrypto has the AEAD");
        let init =
            if encrypt { openssl_sys::EVP_EncryptInit_ex } else { openssl_sys::EVP_DecryptInit_ex };
        // SAFETY: a live context and cipher; `key` is as long as the cipher's key (the callers
        // pass the cipher's key length); no engine, no IV yet.
        let keyed =
            unsafe { init(aead.ctx, aead.cipher, ptr::null_mut(), key.as_ptr(), ptr::null()) };
        assert_eq!(keyed, 1, "the key");
        aead
    }

    /// Seals `buf` in place under `nonce` and the AAD; writes the tag to `tag`.
    fn seal(&mut self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], tag: &mut [u8; 16]) {
        assert!(self.crypt(nonce, aad, buf, tag, true), "sealing failed");
    }

    /// Opens `buf` in place under `nonce`, the AAD and `tag`; whether the tag was right.
    fn open(&mut self, nonce: &[u8; 12], aad: &[u8], buf: &mut [u8], tag: &[u8]) -> bool {
        let mut tag: [u8; 16] = tag.try_into().expect("a 16-byte tag");
        self.crypt(nonce, aad, buf, &mut tag, false)
    }

    /// One message in the context's direction (`encrypt` says which it was keyed for): the
    /// nonce, the tag set when opening, the AAD, `buf` in place, the final check, the tag read
    /// when sealing. Whether every call succeeded (when opening, whether the tag was right).
    fn crypt(
        &mut self,
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        tag: &mut [u8; 16],
        encrypt: bool,
    ) -> bool {
        let (mut n, mut last) = (0, 0);
        let aad_len = i32::try_from(aad.len()).expect("a short AAD");
        let len = i32::try_from(buf.len()).expect("a short message");
        let ctrl = |ctx, op, tag: &mut [u8; 16]| {
            // SAFETY: a live context; the tag operations read or write the 16 bytes of `tag`.
            unsafe { openssl_sys::EVP_CIPHER_CTX_ctrl(ctx, op, 16, tag.as_mut_ptr().cast()) == 1 }
        };
        // SAFETY: `self.ctx` was keyed in `new`, so a null cipher and key keep that key and
        // direction (`enc` −1) and set only the 12-byte nonce (the ciphers' default IV length);
        // the AAD and `buf` are valid for their lengths, and these stream-like AEADs write
        // exactly `len` bytes over their own input (in place is allowed) and nothing at the end
        // (`EVP_CipherFinal` is `EVP_CipherFinal_ex` since OpenSSL 1.1).
        unsafe {
            let ctx = self.ctx;
            openssl_sys::EVP_CipherInit_ex(
                ctx,
                ptr::null(),
                ptr::null_mut(),
                ptr::null(),
                nonce.as_ptr(),
                -1,
            ) == 1
                && (encrypt || ctrl(ctx, openssl_sys::EVP_CTRL_GCM_SET_TAG, tag))
                && openssl_sys::EVP_CipherUpdate(
                    ctx,
                    ptr::null_mut(),
                    &raw mut n,
                    aad.as_ptr(),
                    aad_len,
                ) == 1
                && openssl_sys::EVP_CipherUpdate(
                    ctx,
                    buf.as_mut_ptr(),
                    &raw mut n,
                    buf.as_ptr(),
                    len,
                ) == 1
                && n == len
                && openssl_sys::EVP_CipherFinal(ctx, buf.as_mut_ptr(), &raw mut last) == 1
                && last == 0
                && (!encrypt || ctrl(ctx, openssl_sys::EVP_CTRL_GCM_GET_TAG, tag))
        }
    }
}

impl Drop for AeadCtx {
    fn drop(&mut self) {
        // SAFETY: both pointers came from `new`, are not null, and are freed only here.
        unsafe {
            openssl_sys::EVP_CIPHER_CTX_free(self.ctx);
            openssl_sys::EVP_CIPHER_free(self.cipher);
        }
    }
}

/// The AEAD `name` with the first `key_len` bytes of [`KEY`], `dir` (see `aead_op`): one
/// [`AeadCtx`] per direction, keyed once, given only the nonce per message.
fn aead(name: &str, key_len: usize, dir: Direction) -> Runner {
    let mut sealer = AeadCtx::new(name, &KEY[..key_len], true);
    let seal: Runner = Box::new(move |m, out| {
        let start = out.len();
        out.extend_from_slice(m);
        let mut tag = [0u8; 16];
        sealer.seal(&NONCE, &AAD, &mut out[start..], &mut tag);
        out.extend_from_slice(&tag);
    });
    if dir == SEAL {
        return seal;
    }
    let mut opener = AeadCtx::new(name, &KEY[..key_len], false);
    open_runner(seal, move |buf| {
        let (ct, tag) = buf.split_at_mut(buf.len() - 16);
        assert!(opener.open(&NONCE, &AAD, ct, tag), "our own ciphertext opens");
        ct.len()
    })
}

/// The public key of the X25519 secret `secret`.
fn x25519_public(secret: &[u8]) -> PKey<Public> {
    let key = PKey::private_key_from_raw_bytes(secret, Id::X25519).expect("an X25519 key");
    let raw = key.raw_public_key().expect("a public key");
    PKey::public_key_from_raw_bytes(&raw, Id::X25519).expect("an X25519 key")
}

/// The shared secret of `key` with `peer`, appended to `out`.
fn derive<T: ::openssl::pkey::HasPrivate>(key: &PKey<T>, peer: &PKey<Public>, out: &mut Vec<u8>) {
    let mut deriver = Deriver::new(key).expect("a derivation context");
    deriver.set_peer(peer).expect("a valid peer");
    deriver.derive_to_vec().map(|s| out.extend_from_slice(&s)).expect("a shared secret");
}

/// `x25519-derive`: the fixed key against the fixed peer key.
fn x25519_derive() -> Runner {
    let key = PKey::private_key_from_raw_bytes(&X25519_SECRET, Id::X25519).expect("a key");
    let peer = x25519_public(&X25519_PEER_SECRET);
    Box::new(move |_, out| derive(&key, &peer, out))
}

/// `x25519-agree`: a fresh key, its public key, and the shared secret with the fixed peer.
fn x25519_agree() -> Runner {
    let peer = x25519_public(&X25519_PEER_SECRET);
    Box::new(move |_, out| {
        let key = PKey::generate_x25519().expect("OS entropy");
        out.extend_from_slice(&key.raw_public_key().expect("a public key"));
        derive(&key, &peer, out);
    })
}

/// The Ed25519 key of [`ED25519_SEED`].
fn ed25519_key() -> PKey<Private> {
    PKey::private_key_from_raw_bytes(&ED25519_SEED, Id::ED25519).expect("an Ed25519 seed")
}

/// `ed25519-sign` (`EVP_DigestSign` with no digest, as Ed25519 requires).
fn ed25519_sign() -> Runner {
    let key = ed25519_key();
    let mut ctx = MdCtx::new().expect("a context");
    Box::new(move |m, out| {
        ctx.digest_sign_init(None, &key).expect("a signing context");
        ctx.digest_sign_to_vec(m, out).expect("a signature");
    })
}

/// `ed25519-verify`.
fn ed25519_verify() -> Runner {
    let key = ed25519_key();
    let public =
        PKey::public_key_from_raw_bytes(&key.raw_public_key().expect("a key"), Id::ED25519)
            .expect("an Ed25519 key");
    let mut signer = MdCtx::new().expect("a context");
    let mut verifier = MdCtx::new().expect("a context");
    verify_runner(
        move |m| {
            let mut sig = Vec::new();
            signer.digest_sign_init(None, &key).expect("a signing context");
            signer.digest_sign_to_vec(m, &mut sig).expect("a signature");
            sig
        },
        move |m, sig| {
            verifier.digest_verify_init(None, &public).expect("a verifying context");
            verifier.digest_verify(m, sig).unwrap_or(false)
        },
    )
}

/// The key with private scalar `secret` on curve `nid`.
fn ec_key(nid: Nid, secret: &[u8]) -> EcKey<Private> {
    let group = EcGroup::from_curve_name(nid).expect("a named curve");
    let d = BigNum::from_slice(secret).expect("a scalar");
    let mut ctx = BigNumContext::new().expect("a context");
    let mut point = EcPoint::new(&group).expect("a point");
    point.mul_generator2(&group, &d, &mut ctx).expect("the public point");
    EcKey::from_private_components(&group, &d, &point).expect("a valid key")
}

/// `ec_key`'s public half alone.
fn ec_public(nid: Nid, secret: &[u8]) -> PKey<Public> {
    let key = ec_key(nid, secret);
    let public = EcKey::from_public_key(key.group(), key.public_key()).expect("a public key");
    PKey::from_ec_key(public).expect("a key")
}

/// `p256-ecdh`, `p384-ecdh`: the fixed key against the fixed peer key.
fn ecdh(nid: Nid, secret: &[u8], peer_secret: &[u8]) -> Runner {
    let key = PKey::from_ec_key(ec_key(nid, secret)).expect("a key");
    let peer = ec_public(nid, peer_secret);
    Box::new(move |_, out| derive(&key, &peer, out))
}

/// ECDSA signing with digest `md` (random nonces), output `r ‖ s`.
fn ecdsa_sign(nid: Nid, secret: &[u8], md: &str) -> Runner {
    let len = secret.len();
    let mut sign = ecdsa_der_signer(nid, secret, md);
    Box::new(move |m, out| {
        let sig = EcdsaSig::from_der(&sign(m)).expect("a DER signature");
        let pad = i32::try_from(len).expect("a scalar length");
        out.extend_from_slice(&sig.r().to_vec_padded(pad).expect("r fits"));
        out.extend_from_slice(&sig.s().to_vec_padded(pad).expect("s fits"));
    })
}

/// ECDSA signing to OpenSSL's own DER encoding.
fn ecdsa_der_signer(nid: Nid, secret: &[u8], md: &str) -> impl FnMut(&[u8]) -> Vec<u8> + 'static {
    let key = PKey::from_ec_key(ec_key(nid, secret)).expect("a key");
    let md = fetch_md(md);
    let mut ctx = MdCtx::new().expect("a context");
    move |m| {
        let mut der = Vec::new();
        ctx.digest_sign_init(Some(&md), &key).expect("a signing context");
        ctx.digest_sign_to_vec(m, &mut der).expect("a signature");
        der
    }
}

/// ECDSA verification with digest `md` of a DER signature made once per message length.
fn ecdsa_verify(nid: Nid, secret: &[u8], md: &str) -> Runner {
    let public = ec_public(nid, secret);
    let sign = ecdsa_der_signer(nid, secret, md);
    let md = fetch_md(md);
    let mut ctx = MdCtx::new().expect("a context");
    verify_runner(sign, move |m, sig| {
        ctx.digest_verify_init(Some(&md), &public).expect("a verifying context");
        ctx.digest_verify(m, sig).unwrap_or(false)
    })
}

/// RSA signing with SHA-256 and `padding` (PSS: a 32-byte salt, MGF1-SHA-256).
fn rsa_sign(pkcs8: &[u8], padding: Padding) -> Runner {
    let key = PKey::private_key_from_pkcs8(pkcs8).expect("the fixture key");
    let md = fetch_md("SHA2-256");
    let mut ctx = MdCtx::new().expect("a context");
    Box::new(move |m, out| {
        let pctx = ctx.digest_sign_init(Some(&md), &key).expect("a signing context");
        pctx.set_rsa_padding(padding).expect("a padding");
        if padding == Padding::PKCS1_PSS {
            pctx.set_rsa_pss_saltlen(RsaPssSaltlen::DIGEST_LENGTH).expect("a salt length");
        }
        ctx.digest_sign_to_vec(m, out).expect("a signature");
    })
}

/// RSA PKCS#1 v1.5 SHA-256 verification of a signature made once per message length.
fn rsa_verify(pkcs8: &[u8]) -> Runner {
    let key = PKey::private_key_from_pkcs8(pkcs8).expect("the fixture key");
    let public = PKey::public_key_from_der(&key.public_key_to_der().expect("a public key"))
        .expect("a public key");
    let (sign_md, verify_md) = (fetch_md("SHA2-256"), fetch_md("SHA2-256"));
    let mut signer = MdCtx::new().expect("a context");
    let mut verifier = MdCtx::new().expect("a context");
    verify_runner(
        move |m| {
            let mut sig = Vec::new();
            signer.digest_sign_init(Some(&sign_md), &key).expect("a signing context");
            signer.digest_sign_to_vec(m, &mut sig).expect("a signature");
            sig
        },
        move |m, sig| {
            verifier.digest_verify_init(Some(&verify_md), &public).expect("a verifying context");
            verifier.digest_verify(m, sig).unwrap_or(false)
        },
    )
}
