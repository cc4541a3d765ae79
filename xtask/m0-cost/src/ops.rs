//! The measured operations. Each takes the message buffer (empty for per-operation rows) and
//! a [`Timer`], sets up outside the timed span, times the work with [`Timer::time`] and checks
//! the answer where a known one exists, so a miscompiled or skipped computation fails
//! instead of looking fast. Implementations are named by their enum variant where the crate has
//! a choice, so each row says what it measured and only that implementation is linked (a
//! lookup by name would link every one the target has). SHA-256 and SHA-512 run `digest`:
//! on the Cortex-M0 its `best()` is the portable implementation, known at compile time, and
//! the one-call form is the smaller.
//!
//! Adding an operation is one line in the `registry!` call below plus its function here, and
//! a row with the same id in `xtask/src/cost.rs`. An operation that needs more RAM than the
//! micro:bit's 16 KiB is also listed in [`LARGE_RAM`]: it is left out of the `all` image and
//! measured in an image of its own on a board model with 128 KiB.

use core::hint::black_box;

use core_aead::{
    Aead, Aes, Aes128Gcm, AesImpl, ChaCha20, ChaCha20Impl, ChaCha20Poly1305, GcmImpl, Ghash,
    GhashImpl, Poly1305, Poly1305Impl,
};
use core_ec::ed25519::{Signature, SigningKey, VerifyingKey};
use core_ec::p256;
use core_ec::x25519::{self, SecretKey};
use core_hash::{KeccakImpl, RandomError, RandomSource, Sha3_256, Sha256, Sha512, Shake128};
use core_lattice::{MlDsaImpl, MlKemImpl, mldsa44, mldsa65, mlkem768};
use core_rsa::MontImpl;
use hex_literal::hex;

use crate::Timer;

/// What one operation's figure is per.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Per byte of a long message, processed in blocks of this many bytes: it runs at two
    /// lengths, both whole blocks, and the figure is the difference over the extra bytes.
    Bulk(usize),
    /// Per operation: one run.
    Once,
}

/// The shorter bulk length is at least this many bytes…
const BULK_SHORT: usize = 512;
/// …and the longer one at least this many more.
const BULK_EXTRA: usize = 2048;

impl Kind {
    /// The message lengths it runs at.
    pub(crate) fn lengths(self) -> impl Iterator<Item = usize> {
        let (lengths, n) = match self {
            Kind::Bulk(block) => {
                let short = BULK_SHORT.div_ceil(block) * block;
                ([short, short + BULK_EXTRA.div_ceil(block) * block], 2)
            }
            Kind::Once => ([0, 0], 1),
        };
        lengths.into_iter().take(n)
    }
}

/// One measured operation.
#[derive(Clone, Copy)]
pub(crate) struct Op {
    /// The id xtask's table knows it by.
    pub(crate) id: &'static str,
    /// Per byte or per operation.
    pub(crate) kind: Kind,
    /// Sets up, times the work, checks the answer.
    pub(crate) run: fn(&mut [u8], &mut Timer) -> Result<(), &'static str>,
}

/// Operations whose stack does not fit the micro:bit's 16 KiB of RAM: the `all` image leaves
/// them out (and says so), and xtask measures each in its own image linked for, and run on,
/// QEMU's `netduino2` board (an STM32F205 with 128 KiB of RAM; build-time `HALITE_M0_COST_RAM=128`), run with `-cpu cortex-m0`.
/// RSA-2048 signing fits since core-rsa's `max-bits-2048` cap (about 10 KB of stack), ML-KEM-768
/// encapsulation and decapsulation since their ciphertext is written into the caller's storage
/// and key generation keeps no second copy of the matrix-vector scratch, ML-DSA-44
/// verification since it reads the signature where it is stored (about 11 KB with its key).
/// ML-DSA-65 verification does not: its key (2 KB) and own stack (NTT(z) held: ℓ = 5 KiB)
/// come to about 13 KB; ML-DSA-44 signing needs a key generation's stack (about 15 KB) in its
/// setup and a signing key (4 KB) beside its own stack.
pub(crate) const LARGE_RAM: &[&str] = &["mldsa65-verify", "mldsa44-sign"];

/// An empty timed span: the marker's own cost, subtracted from per-operation figures.
pub(crate) const OVERHEAD: Op = Op { id: "overhead", kind: Kind::Once, run: overhead };

/// Declares the operations: `"id" => kind, function;`. Each is linked only if the build's
/// selection includes it (see `crate::selected`), so a one-operation image holds just its code.
macro_rules! registry {
    ($($(#[$cfg:meta])* $id:literal => $kind:expr, $run:path;)*) => {
        /// The id of every operation, in run order.
        pub(crate) const IDS: &[&str] = &[$($(#[$cfg])* $id),*];

        /// [`OVERHEAD`] then every operation linked into this image, in run order: worked out
        /// at compile time, so the unselected operations' functions are not referenced, and
        /// the code that walks it is the same in every image (the empty one included, so it
        /// cancels out of the flash figures).
        static PICKED: ([Op; IDS.len() + 1], usize) = {
            let all = [OVERHEAD, $($(#[$cfg])* Op { id: $id, kind: $kind, run: $run }),*];
            let mut picked = [OVERHEAD; IDS.len() + 1];
            let (mut n, mut i) = (1, 1);
            while i < all.len() {
                if crate::selected(all[i].id) {
                    picked[n] = all[i];
                    n += 1;
                }
                i += 1;
            }
            (picked, n)
        };
    };
}

/// The calibration span, then the operations this image links.
pub(crate) fn picked() -> &'static [Op] {
    &PICKED.0[..PICKED.1]
}

registry! {
    "sha256" => Kind::Bulk(64), sha256;
    "sha512" => Kind::Bulk(128), sha512;
    "sha3-256" => Kind::Bulk(136), sha3_256;
    "shake128-squeeze" => Kind::Bulk(168), shake128_squeeze;
    "aes128-ctr" => Kind::Bulk(16), aes128_ctr;
    "aes128-cbc-enc" => Kind::Bulk(16), aes128_cbc_enc;
    "aes128-cbc-dec" => Kind::Bulk(16), aes128_cbc_dec;
    "aes128-gcm" => Kind::Bulk(16), aes128_gcm;
    "chacha20" => Kind::Bulk(64), chacha20;
    "chacha20-unaligned" => Kind::Bulk(64), chacha20_unaligned;
    "chacha20-poly1305" => Kind::Bulk(64), chacha20_poly1305;
    "ghash" => Kind::Bulk(16), ghash;
    "poly1305" => Kind::Bulk(16), poly1305;
    "x25519" => Kind::Once, x25519_mul;
    "x25519-base" => Kind::Once, x25519_base;
    #[cfg(target_arch = "arm")]
    "fe25519-mul" => Kind::Once, fe25519_mul;
    #[cfg(target_arch = "arm")]
    "fe25519-square" => Kind::Once, fe25519_square;
    "ed25519-sign" => Kind::Once, ed25519_sign;
    "ed25519-verify" => Kind::Once, ed25519_verify;
    #[cfg(target_arch = "arm")]
    "p256-fe-mul" => Kind::Once, p256_fe_mul;
    #[cfg(target_arch = "arm")]
    "p256-fe-square" => Kind::Once, p256_fe_square;
    "p256-ecdh" => Kind::Once, p256_ecdh;
    "p256-sign" => Kind::Once, p256_sign;
    "p256-verify" => Kind::Once, p256_verify;
    "rsa2048-public" => Kind::Once, rsa2048_public;
    "rsa2048-private" => Kind::Once, rsa2048_private;
    "mlkem768-keygen" => Kind::Once, mlkem768_keygen;
    "mlkem768-encaps" => Kind::Once, mlkem768_encaps;
    "mlkem768-decaps" => Kind::Once, mlkem768_decaps;
    "mldsa44-verify" => Kind::Once, mldsa44_verify;
    "mldsa65-verify" => Kind::Once, mldsa65_verify;
    "mldsa44-sign" => Kind::Once, mldsa44_sign;
}

// Every operation has the registry's signature, failing or not.
#[allow(clippy::unnecessary_wraps)]
fn overhead(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    t.time(|| ());
    Ok(())
}

const KEY16: [u8; 16] = hex!("000102030405060708090a0b0c0d0e0f");
const KEY32: [u8; 32] = hex!("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
const NONCE12: [u8; 12] = hex!("000000090000004a00000000");

// Every operation has the registry's signature, failing or not.
#[allow(clippy::unnecessary_wraps)]
fn sha256(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    t.time(|| Sha256::digest(black_box(buf)));
    Ok(())
}

// Every operation has the registry's signature, failing or not.
#[allow(clippy::unnecessary_wraps)]
fn sha512(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    t.time(|| Sha512::digest(black_box(buf)));
    Ok(())
}

/// The Keccak-f the SHA-3 rows run on: on the Cortex-M0 `thumb1`, the assembly in place of
/// `portable32` (whose Rust twin measured 215.9 cycles/B of SHA3-256 against 162.3 for it).
#[cfg(target_arch = "arm")]
const KECCAK: KeccakImpl = KeccakImpl::Thumb1;
#[cfg(not(target_arch = "arm"))]
const KECCAK: KeccakImpl = KeccakImpl::Portable32;

// Every operation has the registry's signature, failing or not.
#[allow(clippy::unnecessary_wraps)]
fn sha3_256(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let mut h = Sha3_256::with_impl(KECCAK);
    t.time(|| {
        h.update(black_box(buf));
        h.finalize()
    });
    Ok(())
}

/// SHAKE128 output, as ML-KEM's matrix sampling draws it: the empty input's first
/// `buf.len()` bytes, squeezed block after block into `buf`.
// Every operation has the registry's signature, failing or not.
#[allow(clippy::unnecessary_wraps)]
fn shake128_squeeze(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let reader = Shake128::with_impl(KECCAK).finalize_xof();
    t.time(|| black_box(reader.clone()).read(black_box(&mut *buf)));
    Ok(())
}

/// The key for the AES rows, on the preferred implementation (thumb1). A macro rather than a function returning the key: the key
/// (about 490 bytes) is then built in the operation's frame and borrowed from its `Result`,
/// not moved through a helper's frame and out of the `Result`, two more copies on the stack.
macro_rules! aes128_ct32 {
    ($aes:ident) => {
        let key = Aes::with_impl(AesImpl::preferred(), &KEY16);
        let Ok($aes) = &key else { return Err("AES key refused") };
    };
}

fn aes128_ctr(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    aes128_ct32!(aes);
    let mut counter = [0u8; 16];
    t.time(|| aes.apply_ctr32(&mut counter, black_box(buf)));
    Ok(())
}

fn aes128_cbc_enc(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    aes128_ct32!(aes);
    let mut iv = [0u8; 16];
    t.time(|| aes.cbc_encrypt(&mut iv, black_box(buf))).map_err(|_| "CBC length refused")
}

fn aes128_cbc_dec(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    aes128_ct32!(aes);
    let mut iv = [0u8; 16];
    t.time(|| aes.cbc_decrypt(&mut iv, black_box(buf))).map_err(|_| "CBC length refused")
}

fn aes128_gcm(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let key = Aes128Gcm::with_impl(GcmImpl::preferred(), &KEY16).map_err(|_| "GCM key")?;
    t.time(|| key.seal_in_place_detached(&NONCE12, &[], black_box(buf))).map_err(|_| "GCM seal")?;
    Ok(())
}

fn chacha20(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    // Borrowed from its `Result`, as the AES rows' key: not moved out of it, one copy fewer.
    let key = ChaCha20::with_impl(&KEY32, ChaCha20Impl::preferred());
    let Ok(key) = &key else { return Err("key") };
    t.time(|| key.apply_keystream(&NONCE12, 1, black_box(buf))).map_err(|_| "ChaCha20")
}

/// ChaCha20 on a buffer one byte past a word boundary (the buffer's first byte is not used).
fn chacha20_unaligned(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let key = ChaCha20::with_impl(&KEY32, ChaCha20Impl::preferred());
    let Ok(key) = &key else { return Err("key") };
    let buf = buf.get_mut(1..).ok_or("empty buffer")?;
    t.time(|| key.apply_keystream(&NONCE12, 1, black_box(buf))).map_err(|_| "ChaCha20")
}

fn chacha20_poly1305(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let chacha = ChaCha20Impl::preferred();
    let poly = Poly1305Impl::preferred();
    let key = ChaCha20Poly1305::with_impls(&KEY32, chacha, poly);
    let Ok(key) = &key else { return Err("key") };
    t.time(|| key.seal_in_place_detached(&NONCE12, &[], black_box(buf))).map_err(|_| "seal")?;
    Ok(())
}

// Every operation has the registry's signature, failing or not.
#[allow(clippy::unnecessary_wraps)]
fn ghash(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let mut g = Ghash::with_impl(GhashImpl::preferred(), &KEY16);
    t.time(|| {
        g.update_padded(black_box(buf));
        g.finish()
    });
    Ok(())
}

fn poly1305(buf: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let mut p = Poly1305::with_impl(&KEY32, Poly1305Impl::preferred()).map_err(|_| "key")?;
    t.time(|| {
        p.update(black_box(buf));
        p.finalize()
    });
    Ok(())
}

/// RFC 7748 §5.2, first vector: a variable-base Montgomery-ladder multiplication.
fn x25519_mul(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let k = hex!("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
    let u = hex!("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c");
    let want = hex!("c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552");
    let got = t.time(|| x25519::x25519(black_box(&k), black_box(&u)));
    if got == Ok(want) { Ok(()) } else { Err("wrong X25519 output") }
}

/// Operands for the field rows: pseudo-random words (below 2^255, though any value below
/// 2^256 is an element of the Thumb-1 field; below P-256's p too).
#[cfg(target_arch = "arm")]
const FE_A: [u32; 8] = [
    0x8f3a_21c4,
    0x1b9e_77d0,
    0xe5c2_0a6b,
    0x44d1_f9a3,
    0x9a07_3e5c,
    0x6cbe_1298,
    0xf0d4_5b71,
    0x2387_aa0e,
];
#[cfg(target_arch = "arm")]
const FE_B: [u32; 8] = [
    0x5d9c_e4a7,
    0xc1f0_3b28,
    0x7a66_d19e,
    0x0e8b_54f3,
    0xb347_c6d2,
    0x29af_8e15,
    0xd82c_7049,
    0x7e13_6b8c,
];

/// One Curve25519 field multiplication (the Thumb-1 field, result below 2^256), checked
/// against `FE_A·FE_B mod p` computed with arbitrary-precision integers.
#[cfg(target_arch = "arm")]
fn fe25519_mul(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    use core_ec::__m0_test as fe;
    let r = t.time(|| fe::fe_mul_raw(black_box(&FE_A), black_box(&FE_B)));
    let want = hex!("8ee40357e02e0ecb57d7e752bd965436f8f0acd833206f1e3caf84d35ab97733");
    if fe::fe_to_bytes(&r) == want { Ok(()) } else { Err("wrong product") }
}

/// One Curve25519 field squaring (the Thumb-1 field), checked against `FE_A² mod p`.
#[cfg(target_arch = "arm")]
fn fe25519_square(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    use core_ec::__m0_test as fe;
    let r = t.time(|| fe::fe_square_raw(black_box(&FE_A)));
    let want = hex!("967a88c5ce3674222a12aa4995572cbaacd84339c36f1802931d13ee6cc64564");
    if fe::fe_to_bytes(&r) == want { Ok(()) } else { Err("wrong square") }
}

/// Words below 2^256 as 32 big-endian bytes.
#[cfg(target_arch = "arm")]
fn be_bytes(w: &[u32; 8]) -> [u8; 32] {
    let mut b = [0u8; 32];
    for (c, x) in b.chunks_exact_mut(4).zip(w.iter().rev()) {
        c.copy_from_slice(&x.to_be_bytes());
    }
    b
}

/// One P-256 field multiplication (`p256_thumb1`: the Thumb-1 product and Montgomery
/// reduction), checked against `FE_A·FE_B·2^−256 mod p` computed with arbitrary-precision
/// integers (both operands are below p).
#[cfg(target_arch = "arm")]
fn p256_fe_mul(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    use core_ec::__m0_test as fe;
    let r = t.time(|| fe::p256_fe_mul_raw(black_box(&FE_A), black_box(&FE_B)));
    let want = hex!("1809af19bd3fe196392cdd55ceaf964eb369a540bedf7b56c6e038dc92fdbc1d");
    if be_bytes(&r) == want { Ok(()) } else { Err("wrong P-256 product") }
}

/// One P-256 field squaring (`p256_thumb1`), checked against `FE_A²·2^−256 mod p`.
#[cfg(target_arch = "arm")]
fn p256_fe_square(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    use core_ec::__m0_test as fe;
    let r = t.time(|| fe::p256_fe_square_raw(black_box(&FE_A)));
    let want = hex!("b0f00c12041d86336896e95a156fa06091bdbf3d20f39610915b22eb85024b5a");
    if be_bytes(&r) == want { Ok(()) } else { Err("wrong P-256 square") }
}

/// RFC 7748 §6.1: Alice's public key, a fixed-base multiplication.
fn x25519_base(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    // The bytes are hidden from the optimiser, not the key: a hidden key would hide its field
    // implementation too and link every one (on the Cortex-M0 `thumb1` and `portable32`).
    let secret = SecretKey::from_bytes(black_box(hex!(
        "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"
    )));
    let public = t.time(|| secret.public_key());
    let want = hex!("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
    if public.as_bytes() == &want { Ok(()) } else { Err("wrong X25519 public key") }
}

/// RFC 8032 §7.1 TEST 3.
const SEED3: [u8; 32] = hex!("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7");
const PUB3: [u8; 32] = hex!("fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025");
const MSG3: [u8; 2] = hex!("af82");
const SIG3: [u8; 64] = hex!(
    "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
    "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
);

/// Signing with a key expanded beforehand (RFC 8032 §7.1 TEST 3).
fn ed25519_sign(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    // The seed is hidden, not the key (see `x25519_base`).
    let key = SigningKey::from_seed(black_box(&SEED3));
    let sig = t.time(|| key.sign(black_box(&MSG3)));
    if sig.to_bytes() == SIG3 { Ok(()) } else { Err("wrong Ed25519 signature") }
}

/// Verifying with a public key decoded beforehand (RFC 8032 §7.1 TEST 3).
fn ed25519_verify(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    // The encoding is hidden, not the key (see `x25519_base`).
    let key = VerifyingKey::from_bytes(black_box(&PUB3)).map_err(|_| "public key refused")?;
    let sig = Signature::from_bytes(SIG3);
    let verdict = t.time(|| key.verify(black_box(&MSG3), black_box(&sig)));
    verdict.map_err(|_| "valid Ed25519 signature refused")
}

/// RFC 6979 A.2.5's P-256 key (the private scalar) and public point.
const P256_X: [u8; 32] = hex!("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721");
const P256_PUBLIC: [u8; 65] = hex!(
    "04 60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6
        7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"
);
/// Its deterministic SHA-256 signature of "sample" (r ‖ s).
const P256_SIG: [u8; 64] = hex!(
    "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716
     F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"
);

/// P-256 ECDH (RFC 5903 §8.1): one variable-base point multiplication and its encoding.
fn p256_ecdh(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let i = hex!("C88F01F510D9AC3F70A292DAA2316DE544E9AAB8AFE84049C62A9C57862D1433");
    let gr = hex!(
        "04 D12DFB5289C8D4F81208B70270398C342296970A0BCCB74C736FC7554494BF63
            56FBF3CA366CC23E8157854C13C58D6AAC23F046ADA30F8353E74F33039872AB"
    );
    let gir = hex!("D6840F6B42F6EDAFD13116E0E12565202FEF8E9ECE7DCE03812464D04B9442DE");
    // The bytes are hidden, not the keys (see `x25519_base`).
    let secret = p256::SecretKey::from_bytes(black_box(&i)).map_err(|_| "secret key refused")?;
    let peer = p256::PublicKey::from_sec1_bytes(black_box(&gr)).map_err(|_| "peer key refused")?;
    let shared = t.time(|| secret.diffie_hellman(&peer));
    match shared {
        Ok(s) if *s.as_bytes() == gir => Ok(()),
        _ => Err("wrong P-256 shared secret"),
    }
}

/// ECDSA P-256 signature of "sample" with SHA-256 and an RFC 6979 nonce (A.2.5).
fn p256_sign(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    // The bytes are hidden, not the key (see `x25519_base`).
    let key = p256::SigningKey::from_bytes(black_box(&P256_X)).map_err(|_| "key refused")?;
    let sig = t.time(|| key.sign(black_box(b"sample")));
    if sig.to_bytes() == P256_SIG { Ok(()) } else { Err("wrong P-256 signature") }
}

/// ECDSA P-256 verification of that signature.
fn p256_verify(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    // The bytes are hidden, not the key (see `x25519_base`).
    let key =
        p256::PublicKey::from_sec1_bytes(black_box(&P256_PUBLIC)).map_err(|_| "key refused")?;
    let sig = p256::Signature::from_bytes(&P256_SIG).map_err(|_| "signature refused")?;
    let verdict = t.time(|| key.verify(black_box(b"sample"), black_box(&sig)));
    verdict.map_err(|_| "valid P-256 signature refused")
}

/// An RSA-2048 key with `e = 65537` from core-rsa's test data, as its components (written by
/// `build.rs`: the key is built from them, not parsed from DER), and its PKCS#1 v1.5 SHA-256
/// signature of `message.txt` there.
mod rsa_key {
    include!(concat!(env!("OUT_DIR"), "/rsa_key.rs"));
}
use rsa_key::{RSA_D, RSA_DP, RSA_DQ, RSA_E, RSA_N, RSA_P, RSA_Q, RSA_QINV};
const RSA_SIG: &[u8; 256] =
    include_bytes!("../../../crates/core-rsa/tests/data/rsa2048_e65537.sha256.sig");
/// SHA-256 of core-rsa's `tests/data/message.txt`, written out so that the RSA images do not
/// link a SHA-256 just to check their answers (the host test below recomputes it).
const RSA_MESSAGE_SHA256: [u8; 32] =
    hex!("69de01034b7cfac15671b981bdc1a5539a871a7615e82614c41452fbd3a79b6f");

/// The PKCS#1 v1.5 encoding of that digest in 256 bytes (RFC 8017 §9.2):
/// `00 01 ff…ff 00 DigestInfo digest`.
fn rsa_encoded_message() -> [u8; 256] {
    const DIGEST_INFO: [u8; 19] = hex!("3031300d060960864801650304020105000420");
    let mut em = [0xffu8; 256];
    em[0] = 0;
    em[1] = 1;
    let t = 256 - DIGEST_INFO.len() - 32;
    em[t - 1] = 0;
    em[t..256 - 32].copy_from_slice(&DIGEST_INFO);
    em[256 - 32..].copy_from_slice(&RSA_MESSAGE_SHA256);
    em
}

/// RSAVP1 with `e = 65537` (the raw public operation; `MontImpl::preferred()`, thumb1): the
/// signature's image must be the encoded message.
fn rsa2048_public(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let key = core_rsa::PublicKey::from_components_with_impl(&RSA_N, &RSA_E, MontImpl::preferred())
        .map_err(|_| "RSA public key refused")?;
    let mut em = [0u8; 256];
    let verdict = t.time(|| black_box(&key).raw_public(black_box(RSA_SIG), &mut em));
    verdict.map_err(|_| "RSA public operation failed")?;
    if em == rsa_encoded_message() { Ok(()) } else { Err("wrong RSA public operation output") }
}

/// A deterministic stand-in for a TRNG, for the private operation's blinding: xorshift32.
/// Measurement only; the timed work does not depend on the values beyond the usual noise.
struct Xorshift(u32);

impl RandomSource for Xorshift {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), RandomError> {
        for b in dest {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 17;
            self.0 ^= self.0 << 5;
            *b = self.0 as u8;
        }
        Ok(())
    }
}

/// RSASP1 (the raw private operation, thumb1) as core-rsa does it: blinded with a fresh
/// `r^e` and `r^-1`, two CRT exponentiations, Garner, and the check of the result with the
/// public exponent. Its output must be the known PKCS#1 v1.5 signature.
fn rsa2048_private(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    // Borrowed out of the Result, not moved: a move would be a second copy of the key on the
    // stack.
    let parsed = core_rsa::PrivateKey::from_components(
        &RSA_N,
        &RSA_E,
        &RSA_D,
        &RSA_P,
        &RSA_Q,
        &RSA_DP,
        &RSA_DQ,
        &RSA_QINV,
        MontImpl::preferred(),
    );
    let Ok(key) = &parsed else { return Err("RSA private key refused") };
    let em = rsa_encoded_message();
    let mut sig = [0u8; 256];
    let mut rng = Xorshift(0x2545_f491);
    let verdict = t.time(|| black_box(key).raw_private(black_box(&em), &mut sig, &mut rng));
    verdict.map_err(|_| "RSA private operation failed")?;
    if &sig == RSA_SIG { Ok(()) } else { Err("wrong RSA signature") }
}

/// ML-KEM-768 inputs and answers: m0-kat's known answers (`xtask/m0-kat/src/checks/mlkem.rs`,
/// whose host test recomputes them with RustCrypto's `ml-kem`).
const MLKEM_D: [u8; 32] = hex!("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
const MLKEM_Z: [u8; 32] = hex!("202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f");
const MLKEM_M: [u8; 32] = hex!("404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f");
/// H(ek) = SHA3-256 of the encapsulation key, which the decapsulation key holds.
const MLKEM_EK_SHA3: [u8; 32] =
    hex!("a24e16d8f8f9383a95b77050f4d9fd2f5733eec1d63ef3c23ebf9918173669a7");
/// The shared key of `MLKEM_M`.
const MLKEM_K: [u8; 32] = hex!("9cddd089ffe70e3996e76f7c8d06746df34d07e8657bc0fcf2bb0e1c3084aea1");

/// ML-KEM-768 key generation (on the preferred implementation, `thumb1` with `asm`) from the
/// seeds hidden from the optimiser.
#[inline(never)]
fn mlkem768_key() -> mlkem768::DecapsulationKey {
    let (d, z) = (black_box(&MLKEM_D), black_box(&MLKEM_Z));
    mlkem768::DecapsulationKey::from_seed_with_impl(d, z, MlKemImpl::preferred())
}

/// The encapsulation key of [`mlkem768_key`], out of line so that the decapsulation key is
/// not left in the caller's frame.
#[inline(never)]
fn mlkem768_ek() -> mlkem768::EncapsulationKey {
    mlkem768_key().encapsulation_key()
}

/// ML-KEM-768 encapsulation of `MLKEM_M` to `dk`'s key into `ct`, for the decapsulation
/// row's setup.
#[inline(never)]
fn mlkem768_ciphertext(dk: &mlkem768::DecapsulationKey, ct: &mut mlkem768::Ciphertext) {
    dk.encapsulation_key().encapsulate_deterministic_into(black_box(&MLKEM_M), ct);
}

/// ML-KEM.KeyGen_internal(d, z) into the caller's storage (`from_seed_in`): checked by H(ek),
/// which the decapsulation key holds. The key lives and is wiped (dropped) inside the timed
/// span, so the figures hold one copy of it (returning it through [`Timer::time`] would take
/// two more on the stack) and its wiping.
fn mlkem768_keygen(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let (d, z) = (black_box(&MLKEM_D), black_box(&MLKEM_Z));
    let mut h_ek = [0u8; 32];
    t.time(|| {
        let mut slot = None;
        let dk = mlkem768::DecapsulationKey::from_seed_in(&mut slot, d, z, MlKemImpl::preferred());
        let held = &dk.as_bytes()[mlkem768::DECAPSULATION_KEY_LEN - 64..];
        h_ek.copy_from_slice(&held[..32]);
    });
    if h_ek == MLKEM_EK_SHA3 { Ok(()) } else { Err("wrong ML-KEM-768 key") }
}

/// ML-KEM.Encaps_internal(ek, m) to a key made beforehand, into the caller's ciphertext; the
/// stack figure leaves out that key generation (the stack is painted again after it).
fn mlkem768_encaps(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let ek = mlkem768_ek();
    let mut ct = mlkem768::Ciphertext::default();
    crate::forget_setup_stack();
    let k = t.time(|| {
        black_box(&ek).encapsulate_deterministic_into(black_box(&MLKEM_M), black_box(&mut ct))
    });
    if k.as_bytes() == &MLKEM_K { Ok(()) } else { Err("wrong ML-KEM-768 shared key") }
}

/// ML-KEM.Decaps of a valid ciphertext (the work is the same for an invalid one: implicit
/// rejection is branch-free), with the key and ciphertext made beforehand, as for
/// encapsulation. Its image links key generation and encapsulation for the setup, so its
/// flash figure is that of all three operations.
fn mlkem768_decaps(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let dk = mlkem768_key();
    let mut ct = mlkem768::Ciphertext::default();
    mlkem768_ciphertext(&dk, &mut ct);
    crate::forget_setup_stack();
    let k = t.time(|| black_box(&dk).decapsulate(black_box(&ct)));
    if k.as_bytes() == &MLKEM_K { Ok(()) } else { Err("wrong ML-KEM-768 shared key") }
}

/// ML-DSA inputs and answers: m0-kat's known answers (`xtask/m0-kat/data/`, keys of the
/// seed 00 01 … 1f and deterministic signatures of `MLDSA_MSG` with an empty context, which
/// m0-kat's host test recomputes with RustCrypto's `ml-dsa`). Named statics, so xtask can
/// leave them out of the rows' flash figures: they are the data an operation is given (a
/// device receives the signature, and its key is its own), 3.8 KB for ML-DSA-44 verification
/// and 5.3 KB for -65, where the operation's code is about 8 KB.
pub(crate) mod inputs {
    use core_lattice::{mldsa44, mldsa65};

    pub(crate) static MLDSA_MSG: [u8; 32] = *b"m0-kat: ML-DSA-44 on a Cortex-M0";
    pub(crate) static MLDSA44_PK: [u8; mldsa44::PUBLIC_KEY_LEN] =
        *include_bytes!("../../m0-kat/data/mldsa44.pk");
    pub(crate) static MLDSA44_SIG: [u8; mldsa44::SIGNATURE_LEN] =
        *include_bytes!("../../m0-kat/data/mldsa44.sig");
    pub(crate) static MLDSA65_PK: [u8; mldsa65::PUBLIC_KEY_LEN] =
        *include_bytes!("../../m0-kat/data/mldsa65.pk");
    pub(crate) static MLDSA65_SIG: [u8; mldsa65::SIGNATURE_LEN] =
        *include_bytes!("../../m0-kat/data/mldsa65.sig");
}

use inputs::{MLDSA_MSG, MLDSA44_PK, MLDSA44_SIG, MLDSA65_PK, MLDSA65_SIG};

/// Declares an ML-DSA verification row: the key decoded (and tr = H(pk) computed) beforehand,
/// then ML-DSA.Verify (`portable`) of the signature where it is stored (in flash, as a
/// device verifies one it received into a buffer: no copy on the stack), which must be valid.
macro_rules! mldsa_verify {
    ($name:ident, $module:ident, $pk:ident, $sig:ident) => {
        fn $name(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
            // Matched, not `map_err(..)?`: each of those moves the 1.4 KB key.
            let Ok(mut key) = $module::VerifyingKey::from_bytes(black_box(&$pk)) else {
                return Err("key refused");
            };
            key.set_implementation(MlDsaImpl::Portable);
            let verdict = t.time(|| key.verify_bytes(black_box(&MLDSA_MSG), b"", black_box(&$sig)));
            verdict.map_err(|_| "valid ML-DSA signature refused")
        }
    };
}

mldsa_verify!(mldsa44_verify, mldsa44, MLDSA44_PK, MLDSA44_SIG);
mldsa_verify!(mldsa65_verify, mldsa65, MLDSA65_PK, MLDSA65_SIG);

/// ML-DSA-44 deterministic signing (`portable`, streamed) with a key made from the seed
/// beforehand; the stack figure leaves out that key generation.
fn mldsa44_sign(_: &mut [u8], t: &mut Timer) -> Result<(), &'static str> {
    let seed: [u8; 32] = core::array::from_fn(|i| i as u8);
    let key = mldsa44::SigningKey::from_seed_with_impl(black_box(&seed), MlDsaImpl::Portable);
    crate::forget_setup_stack();
    let sig = t.time(|| black_box(&key).sign_deterministic(black_box(&MLDSA_MSG), b""));
    match sig {
        Ok(sig) if *sig.as_bytes() == MLDSA44_SIG => Ok(()),
        _ => Err("wrong ML-DSA-44 signature"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rsa_digest_is_the_messages() {
        let message = include_bytes!("../../../crates/core-rsa/tests/data/message.txt");
        assert_eq!(Sha256::digest(message), RSA_MESSAGE_SHA256);
    }

    /// The components build.rs wrote are the DER files' key.
    #[test]
    fn rsa_components_are_the_der_keys() {
        let der = include_bytes!("../../../crates/core-rsa/tests/data/rsa2048_e65537.pkcs8.der");
        let parsed = core_rsa::PrivateKey::from_pkcs8_der(der).unwrap();
        let public = parsed.public_key();
        let mut n = [0u8; 256];
        let len = public.write_modulus(&mut n).unwrap();
        assert_eq!(&n[..len], &RSA_N[..]);
        assert_eq!(public.exponent(), 65537);
        let spki = include_bytes!("../../../crates/core-rsa/tests/data/rsa2048_e65537.spki.der");
        let mut ours = [0u8; 512];
        let key = core_rsa::PublicKey::from_components(&RSA_N, &RSA_E).unwrap();
        let len = key.to_spki_der(&mut ours).unwrap();
        assert_eq!(&ours[..len], &spki[..]);
        let mut a = [0u8; 2048];
        let built = core_rsa::PrivateKey::from_components(
            &RSA_N,
            &RSA_E,
            &RSA_D,
            &RSA_P,
            &RSA_Q,
            &RSA_DP,
            &RSA_DQ,
            &RSA_QINV,
            <MontImpl as core_rsa::Implementation>::best(),
        )
        .unwrap();
        let mut b = [0u8; 2048];
        let (la, lb) = (parsed.to_pkcs8_der(&mut a).unwrap(), built.to_pkcs8_der(&mut b).unwrap());
        assert_eq!(&a[..la], &b[..lb]);
        assert_eq!(&a[..la], &der[..]);
    }
}
