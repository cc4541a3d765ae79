//! The AEAD operations: seal and open of AES-GCM, AES-CCM, ChaCha20-Poly1305 and
//! XChaCha20-Poly1305, as Halite and each peer computes them.

use super::{Halite, KEY, Library, Op, OpensslSpec, Peer, Runner, Unit, peer};

/// An AEAD operation under [`KEY`], [`NONCE`] (or [`NONCE_24`]) and the 13-byte [`AAD`] (the TLS
/// 1.2 record header, as `openssl speed -aead` uses). A seal copies the message into the output
/// and seals it there (output: ciphertext then tag); an open copies a ciphertext and tag made
/// once per message length into the output and opens it there (output: the message again).
/// Every library pays the same copy. `openssl-speed` runs seals as
/// `openssl speed -aead -evp NAME`; opens have no `openssl-speed` column, as its `-decrypt` AEAD
/// figures for GCM on this machine are an order of magnitude below its encryption ones, which
/// points at per-call set-up rather than decryption (the in-process `openssl` column opens at
/// the speed it seals).
fn aead_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    openssl_name: Option<&str>,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "aead",
        what,
        unit: Unit::Bytes,
        sizes: None,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: openssl_name.map(|name| OpensslSpec {
            speed: vec!["-aead".into(), "-evp".into(), name.into()],
            check: None,
        }),
        canonical: None,
    }
}

/// The AEAD operations, in table order.
pub(super) fn ops() -> Vec<Op> {
    use Library::{AwsLcRs, Ring, RustCrypto};
    vec![
        aead_op(
            "aes-128-gcm-seal",
            "AES-128-GCM seal, 13-byte AAD",
            halite_aes_gcm::<16, SEAL>,
            Some("aes-128-gcm"),
            vec![
                peer(Ring, || ring_aead(&ring::aead::AES_128_GCM, SEAL)),
                peer(AwsLcRs, || aws_aead(&aws_lc_rs::aead::AES_128_GCM, SEAL)),
                graviola!(graviola_aes_gcm::<16, SEAL>),
                peer(RustCrypto, rustcrypto_aead::<aes_gcm::Aes128Gcm, SEAL>),
            ],
        ),
        aead_op(
            "aes-128-gcm-open",
            "AES-128-GCM open, 13-byte AAD",
            halite_aes_gcm::<16, OPEN>,
            None,
            vec![
                peer(Ring, || ring_aead(&ring::aead::AES_128_GCM, OPEN)),
                peer(AwsLcRs, || aws_aead(&aws_lc_rs::aead::AES_128_GCM, OPEN)),
                graviola!(graviola_aes_gcm::<16, OPEN>),
                peer(RustCrypto, rustcrypto_aead::<aes_gcm::Aes128Gcm, OPEN>),
            ],
        ),
        aead_op(
            "aes-256-gcm-seal",
            "AES-256-GCM seal, 13-byte AAD",
            halite_aes_gcm::<32, SEAL>,
            Some("aes-256-gcm"),
            vec![
                peer(Ring, || ring_aead(&ring::aead::AES_256_GCM, SEAL)),
                peer(AwsLcRs, || aws_aead(&aws_lc_rs::aead::AES_256_GCM, SEAL)),
                graviola!(graviola_aes_gcm::<32, SEAL>),
                peer(RustCrypto, rustcrypto_aead::<aes_gcm::Aes256Gcm, SEAL>),
            ],
        ),
        aead_op(
            "aes-256-gcm-open",
            "AES-256-GCM open, 13-byte AAD",
            halite_aes_gcm::<32, OPEN>,
            None,
            vec![
                peer(Ring, || ring_aead(&ring::aead::AES_256_GCM, OPEN)),
                peer(AwsLcRs, || aws_aead(&aws_lc_rs::aead::AES_256_GCM, OPEN)),
                graviola!(graviola_aes_gcm::<32, OPEN>),
                peer(RustCrypto, rustcrypto_aead::<aes_gcm::Aes256Gcm, OPEN>),
            ],
        ),
        aead_op(
            "aes-128-ccm-seal",
            "AES-128-CCM seal (16-byte tag, 12-byte nonce), 13-byte AAD",
            halite_aes_ccm::<16, SEAL>,
            Some("aes-128-ccm"),
            vec![peer(RustCrypto, rustcrypto_aead::<Aes128Ccm, SEAL>)],
        ),
        aead_op(
            "aes-128-ccm-open",
            "AES-128-CCM open (16-byte tag, 12-byte nonce), 13-byte AAD",
            halite_aes_ccm::<16, OPEN>,
            None,
            vec![peer(RustCrypto, rustcrypto_aead::<Aes128Ccm, OPEN>)],
        ),
        aead_op(
            "chacha20-poly1305-seal",
            "ChaCha20-Poly1305 seal, 13-byte AAD",
            halite_chacha20_poly1305::<SEAL>,
            Some("chacha20-poly1305"),
            vec![
                peer(Ring, || ring_aead(&ring::aead::CHACHA20_POLY1305, SEAL)),
                peer(AwsLcRs, || aws_aead(&aws_lc_rs::aead::CHACHA20_POLY1305, SEAL)),
                graviola!(graviola_chacha20_poly1305::<SEAL>),
                peer(RustCrypto, rustcrypto_aead::<chacha20poly1305::ChaCha20Poly1305, SEAL>),
            ],
        ),
        aead_op(
            "chacha20-poly1305-open",
            "ChaCha20-Poly1305 open, 13-byte AAD",
            halite_chacha20_poly1305::<OPEN>,
            None,
            vec![
                peer(Ring, || ring_aead(&ring::aead::CHACHA20_POLY1305, OPEN)),
                peer(AwsLcRs, || aws_aead(&aws_lc_rs::aead::CHACHA20_POLY1305, OPEN)),
                graviola!(graviola_chacha20_poly1305::<OPEN>),
                peer(RustCrypto, rustcrypto_aead::<chacha20poly1305::ChaCha20Poly1305, OPEN>),
            ],
        ),
        aead_op(
            "xchacha20-poly1305-seal",
            "XChaCha20-Poly1305 seal (24-byte nonce), 13-byte AAD",
            halite_xchacha20_poly1305,
            None,
            vec![peer(RustCrypto, rustcrypto_aead::<chacha20poly1305::XChaCha20Poly1305, SEAL>)],
        ),
    ]
}

/// Direction of an AEAD op, as a const parameter of the runner factories: [`SEAL`] or [`OPEN`].
pub type Direction = bool;
/// Seal (encrypt and tag).
pub const SEAL: Direction = false;
/// Open (verify and decrypt).
pub const OPEN: Direction = true;

/// Wraps a seal into an open (see `aead_op`): each new message length is sealed once with
/// `seal` (the first call for a length, a warm-up, pays it), then every call copies
/// ciphertext‖tag into the output and opens it there with `open`, which returns the plaintext
/// length. One cached length, not a map, so a lookup costs nothing at 64 bytes.
pub(super) fn open_runner(
    mut seal: Runner,
    mut open: impl FnMut(&mut [u8]) -> usize + 'static,
) -> Runner {
    let mut sealed: Option<(usize, Vec<u8>)> = None;
    Box::new(move |m, out| {
        let ct = match &mut sealed {
            Some((len, ct)) if *len == m.len() => ct,
            slot => {
                let mut ct = Vec::new();
                seal(m, &mut ct);
                &mut slot.insert((m.len(), ct)).1
            }
        };
        let start = out.len();
        out.extend_from_slice(ct);
        let len = open(&mut out[start..]);
        out.truncate(start + len);
    })
}

/// Halite's AEAD `dir` (see `aead_op`) on keys from `make`, under `nonce`.
fn halite_aead<A: core_aead::Aead + 'static>(
    make: impl Fn() -> A,
    nonce: &'static [u8],
    dir: Direction,
) -> Runner {
    let key = make();
    let seal: Runner = Box::new(move |m: &[u8], out: &mut Vec<u8>| {
        let start = out.len();
        out.extend_from_slice(m);
        let tag = key
            .seal_in_place_detached(nonce, &AAD, &mut out[start..])
            .expect("benchmark messages are within the AEAD's limits");
        out.extend_from_slice(tag.as_ref());
    });
    if dir == SEAL {
        return seal;
    }
    let key = make();
    open_runner(seal, move |buf| {
        let (ct, tag) = buf.split_at_mut(buf.len() - A::TAG_LEN);
        key.open_in_place_detached(nonce, &AAD, ct, tag).expect("our own ciphertext opens");
        ct.len()
    })
}

/// Halite's side of an AEAD op: the default key from `new`, then each implementation in
/// `impls` by name.
fn halite_aead_impls<A: core_aead::Aead + 'static, I: Copy + 'static>(
    new: fn() -> A,
    default_impl: String,
    impls: impl Iterator<Item = (String, I)>,
    with: fn(I) -> A,
    nonce: &'static [u8],
    dir: Direction,
) -> Halite {
    Halite {
        default_impl,
        default: halite_aead(new, nonce, dir),
        impls: impls
            .map(|(name, imp)| (name, halite_aead(move || with(imp), nonce, dir)))
            .collect(),
    }
}

/// Halite's AES-GCM with a `K`-byte key (the first `K` bytes of [`KEY`]): the default key, then
/// each registered implementation (the stitched loop, each AES implementation with its GHASH).
#[must_use]
pub fn halite_aes_gcm<const K: usize, const DIR: Direction>() -> Halite {
    use core_aead::{Aead as _, AesGcm, GcmImpl, Implementation as _};
    let new = || AesGcm::<K>::new(&KEY[..K]).expect("an AES key length");
    halite_aead_impls(
        new,
        new().implementation().name().to_owned(),
        GcmImpl::available().map(|imp| (imp.name().to_owned(), imp)),
        |imp| AesGcm::<K>::with_impl(imp, &KEY[..K]).expect("an AES key length"),
        &NONCE,
        DIR,
    )
}

/// Halite's AES-CCM with a `K`-byte key, 16-byte tags and 12-byte nonces (TLS's
/// `TLS_AES_128_CCM_SHA256`), on each AES implementation.
#[must_use]
pub fn halite_aes_ccm<const K: usize, const DIR: Direction>() -> Halite {
    use core_aead::{Aead as _, AesCcm, AesImpl, Implementation as _};
    let new = || AesCcm::<K, 16>::new(&KEY[..K]).expect("an AES key length");
    halite_aead_impls(
        new,
        AesImpl::best().name().to_owned(),
        AesImpl::available().map(|imp| (imp.name().to_owned(), imp)),
        |imp| AesCcm::<K, 16>::with_impl(imp, &KEY[..K]).expect("an AES key length"),
        &NONCE,
        DIR,
    )
}

/// A ChaCha20 and a Poly1305 implementation, run together.
type ChaChaPair = (core_aead::ChaCha20Impl, core_aead::Poly1305Impl);

/// The ChaCha20 × Poly1305 pairings worth measuring: each ChaCha20 implementation with the
/// default Poly1305 and each Poly1305 implementation with the default ChaCha20 (named
/// `chacha20+poly1305`), rather than every pair; the default pair's name first.
fn chacha_pairs() -> (String, Vec<(String, ChaChaPair)>) {
    use core_aead::{Aead as _, ChaCha20Impl, ChaCha20Poly1305, Implementation as _, Poly1305Impl};
    let (chacha, poly) = ChaCha20Poly1305::new(&KEY).expect("a 32-byte key").implementations();
    let name = |c: ChaCha20Impl, p: Poly1305Impl| format!("{}+{}", c.name(), p.name());
    let mut pairs: Vec<_> = ChaCha20Impl::available().map(|c| (c, poly)).collect();
    pairs.extend(Poly1305Impl::available().filter(|&p| p != poly).map(|p| (chacha, p)));
    (name(chacha, poly), pairs.into_iter().map(|(c, p)| (name(c, p), (c, p))).collect())
}

/// Halite's ChaCha20-Poly1305: the default key, then the pairings of `chacha_pairs`.
#[must_use]
pub fn halite_chacha20_poly1305<const DIR: Direction>() -> Halite {
    use core_aead::{Aead as _, ChaCha20Poly1305};
    let (default_impl, pairs) = chacha_pairs();
    halite_aead_impls(
        || ChaCha20Poly1305::new(&KEY).expect("a 32-byte key"),
        default_impl,
        pairs.into_iter(),
        |(c, p)| ChaCha20Poly1305::with_impls(&KEY, c, p).expect("a 32-byte key"),
        &NONCE,
        DIR,
    )
}

/// Halite's XChaCha20-Poly1305 seal under [`NONCE_24`]: the default key, then the pairings of
/// `chacha_pairs`.
#[must_use]
pub fn halite_xchacha20_poly1305() -> Halite {
    use core_aead::{Aead as _, XChaCha20Poly1305};
    let (default_impl, pairs) = chacha_pairs();
    halite_aead_impls(
        || XChaCha20Poly1305::new(&KEY).expect("a 32-byte key"),
        default_impl,
        pairs.into_iter(),
        |(c, p)| XChaCha20Poly1305::with_impls(&KEY, c, p).expect("a 32-byte key"),
        &NONCE_24,
        SEAL,
    )
}

/// The nonce of every AEAD seal (each library is keyed once and seals with one nonce: fine
/// for a benchmark, never for real traffic).
pub const NONCE: [u8; 12] = *b"bench nonce!";
/// The nonce of XChaCha20-Poly1305 seals: 24 bytes, starting with [`NONCE`].
pub const NONCE_24: [u8; 24] = *b"bench nonce!, extended!!";
/// The associated data of every AEAD seal: 13 bytes, like a TLS 1.2 record's.
pub const AAD: [u8; 13] = *b"record header";

/// ring's AEAD `dir` (see `aead_op`).
#[must_use]
pub fn ring_aead(alg: &'static ring::aead::Algorithm, dir: Direction) -> Runner {
    use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
    let key = || LessSafeKey::new(UnboundKey::new(alg, &KEY[..alg.key_len()]).expect("key length"));
    let sealer = key();
    let seal: Runner = Box::new(move |m, out| {
        let start = out.len();
        out.extend_from_slice(m);
        let nonce = Nonce::assume_unique_for_key(NONCE);
        let tag = sealer
            .seal_in_place_separate_tag(nonce, Aad::from(AAD), &mut out[start..])
            .expect("benchmark messages are within the AEAD's limits");
        out.extend_from_slice(tag.as_ref());
    });
    if dir == SEAL {
        return seal;
    }
    let opener = key();
    open_runner(seal, move |buf| {
        let nonce = Nonce::assume_unique_for_key(NONCE);
        opener.open_in_place(nonce, Aad::from(AAD), buf).expect("our own ciphertext opens").len()
    })
}

/// aws-lc-rs's AEAD `dir` (see `aead_op`).
#[must_use]
pub fn aws_aead(alg: &'static aws_lc_rs::aead::Algorithm, dir: Direction) -> Runner {
    use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
    let key = || LessSafeKey::new(UnboundKey::new(alg, &KEY[..alg.key_len()]).expect("key length"));
    let sealer = key();
    let seal: Runner = Box::new(move |m, out| {
        let start = out.len();
        out.extend_from_slice(m);
        let nonce = Nonce::assume_unique_for_key(NONCE);
        let tag = sealer
            .seal_in_place_separate_tag(nonce, Aad::from(AAD), &mut out[start..])
            .expect("benchmark messages are within the AEAD's limits");
        out.extend_from_slice(tag.as_ref());
    });
    if dir == SEAL {
        return seal;
    }
    let opener = key();
    open_runner(seal, move |buf| {
        let nonce = Nonce::assume_unique_for_key(NONCE);
        opener.open_in_place(nonce, Aad::from(AAD), buf).expect("our own ciphertext opens").len()
    })
}

/// graviola's AEADs share this shape but no trait: `encrypt(nonce, aad, inout, tag)` and
/// `decrypt(nonce, aad, inout, tag) -> Result`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! graviola_aead {
    ($make:expr, $dir:expr) => {{
        let sealer = $make;
        let seal: Runner = Box::new(move |m, out| {
            let start = out.len();
            out.extend_from_slice(m);
            let mut tag = [0u8; 16];
            sealer.encrypt(&NONCE, &AAD, &mut out[start..], &mut tag);
            out.extend_from_slice(&tag);
        });
        if $dir == SEAL {
            return seal;
        }
        let opener = $make;
        open_runner(seal, move |buf| {
            let (ct, tag) = buf.split_at_mut(buf.len() - 16);
            opener.decrypt(&NONCE, &AAD, ct, tag).expect("our own ciphertext opens");
            ct.len()
        })
    }};
}

/// graviola's ChaCha20-Poly1305 `DIR` (see `aead_op`).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_chacha20_poly1305<const DIR: Direction>() -> Runner {
    graviola_aead!(graviola::aead::ChaCha20Poly1305::new(KEY), DIR)
}

/// graviola's AES-GCM with a `K`-byte key, `DIR` (see `aead_op`).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_aes_gcm<const K: usize, const DIR: Direction>() -> Runner {
    graviola_aead!(graviola::aead::AesGcm::new(&KEY[..K]), DIR)
}

/// RustCrypto's AES-128-CCM with a 16-byte tag and a 12-byte nonce (TLS's parameters).
pub type Aes128Ccm = ccm::Ccm<aes::Aes128, ccm::consts::U16, ccm::consts::U12>;

/// A RustCrypto AEAD's `DIR` (see `aead_op`); the nonce is the first `NonceSize` bytes of
/// [`NONCE_24`] (so [`NONCE`] for 12-byte nonces).
#[must_use]
pub fn rustcrypto_aead<A, const DIR: Direction>() -> Runner
where
    A: chacha20poly1305::aead::AeadInPlace + chacha20poly1305::KeyInit + 'static,
{
    use chacha20poly1305::aead::{AeadCore, generic_array::typenum::Unsigned};
    let nonce_len = <A as AeadCore>::NonceSize::USIZE;
    let nonce = chacha20poly1305::aead::Nonce::<A>::clone_from_slice(&NONCE_24[..nonce_len]);
    let key = || A::new_from_slice(&KEY[..A::key_size()]).expect("key length");
    let sealer = key();
    let n = nonce.clone();
    let seal: Runner = Box::new(move |m, out| {
        let start = out.len();
        out.extend_from_slice(m);
        let tag = sealer
            .encrypt_in_place_detached(&n, &AAD, &mut out[start..])
            .expect("benchmark messages are within the AEAD's limits");
        out.extend_from_slice(&tag);
    });
    if DIR == SEAL {
        return seal;
    }
    let opener = key();
    let tag_len = <A as AeadCore>::TagSize::USIZE;
    open_runner(seal, move |buf| {
        let (ct, tag) = buf.split_at_mut(buf.len() - tag_len);
        let tag = chacha20poly1305::aead::Tag::<A>::from_slice(tag);
        opener.decrypt_in_place_detached(&nonce, &AAD, ct, tag).expect("our own ciphertext opens");
        ct.len()
    })
}
