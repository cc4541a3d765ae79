//! The hash operations: digests, SHAKE, HMAC and HKDF, as Halite and each peer computes them.

use super::{Halite, KEY, Library, Op, OpensslSpec, Peer, Runner, Unit, peer};

/// A hash operation: message in, digest out; `openssl-speed` runs it as `openssl speed -evp NAME`.
fn hash_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    openssl_name: &str,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "hash",
        what,
        unit: Unit::Bytes,
        sizes: None,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: Some(OpensslSpec {
            speed: vec!["-evp".into(), openssl_name.into()],
            check: Some(vec!["dgst".into(), "-binary".into(), format!("-{openssl_name}")]),
        }),
        canonical: None,
    }
}

/// An HMAC operation under [`KEY`]: message in, tag out, the key schedule done once outside
/// the timing (every library keeps a keyed state and copies it per message); `openssl-speed`
/// runs it as `openssl speed -hmac NAME`.
fn hmac_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    openssl_name: &str,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "hash",
        what,
        unit: Unit::Bytes,
        sizes: None,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: Some(openssl_hmac(openssl_name)),
        canonical: None,
    }
}

/// A SHAKE operation: message in, a fixed length of output. OpenSSL's check asks for the same
/// length (`-xoflen`); `openssl speed` squeezes its default length, which costs the same single
/// permutation as long as the output fits in one rate block, as it does here.
fn shake_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    peers: Vec<Option<Peer>>,
) -> Op {
    let out_len = (halite)().default_len();
    Op {
        id,
        group: "hash",
        what,
        unit: Unit::Bytes,
        sizes: None,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: Some(OpensslSpec {
            speed: vec!["-evp".into(), id.into()],
            check: Some(vec![
                "dgst".into(),
                "-binary".into(),
                format!("-{id}"),
                format!("-xoflen={out_len}"),
            ]),
        }),
        canonical: None,
    }
}

/// An HKDF operation, counted in operations: HKDF-Extract with [`KEY`] as salt and the
/// message as IKM, then HKDF-Expand of one hash length with [`HKDF_INFO`] — the shape of each
/// step of the TLS 1.3 key schedule. `openssl speed` has no HKDF.
fn hkdf_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "hash",
        what,
        unit: Unit::Ops,
        sizes: None,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: None,
        canonical: None,
    }
}

/// How many messages a multi-buffer row hashes per call.
pub const MB_MESSAGES: usize = 16;

/// The sizes of the multi-buffer rows: [`MB_MESSAGES`] messages of 64 B, 1350 B (a TLS
/// record) and 16 KiB, given as the total per call so that rates are aggregate throughput.
pub const MB_SIZES: &[usize] = &[MB_MESSAGES * 64, MB_MESSAGES * 1350, MB_MESSAGES * 16384];

/// A multi-buffer operation: the message split into [`MB_MESSAGES`] equal messages, each
/// hashed, the digests appended in order. Peers hash them one after another (none has a
/// multi-buffer API); `openssl speed -mb` exists only for the stitched AES-CBC-HMAC ciphers in
/// OpenSSL 3.0 ("-mb can be used only with a multi-block capable cipher"), so there is no
/// `openssl-speed` column (nor an in-process one: OpenSSL has no multi-buffer digest API either).
fn hash_mb_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "hash",
        what,
        unit: Unit::Bytes,
        sizes: Some(MB_SIZES),
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: None,
        canonical: None,
    }
}

/// The [`MB_MESSAGES`] messages a multi-buffer row splits its input into.
fn mb_split(m: &[u8]) -> [&[u8]; MB_MESSAGES] {
    let len = m.len() / MB_MESSAGES;
    core::array::from_fn(|i| &m[i * len..(i + 1) * len])
}

/// A single-message runner applied to each of the [`MB_MESSAGES`] messages in turn.
fn each_message(mut single: Runner) -> Runner {
    Box::new(move |m, out| {
        for part in mb_split(m) {
            single(part, out);
        }
    })
}

/// Halite's multi-buffer SHA-256: the default (`Sha256::digest_many`) and every multi-buffer
/// implementation, `sequential` being the single-buffer backend (SHA-NI here) in a loop.
#[must_use]
pub fn halite_sha256_mb() -> Halite {
    use core_hash::{Implementation as _, Sha256MbImpl};
    let run = |imp: Sha256MbImpl| -> Runner {
        Box::new(move |m, out| {
            let mut digests = [[0u8; 32]; MB_MESSAGES];
            imp.digest_many(&mb_split(m), &mut digests).expect("one slot per message");
            out.extend_from_slice(digests.as_flattened());
        })
    };
    Halite {
        default_impl: Sha256MbImpl::best().name().to_owned(),
        default: Box::new(|m, out| {
            let mut digests = [[0u8; 32]; MB_MESSAGES];
            core_hash::Sha256::digest_many(&mb_split(m), &mut digests)
                .expect("one slot per message");
            out.extend_from_slice(digests.as_flattened());
        }),
        impls: Sha256MbImpl::available().map(|imp| (imp.name().to_owned(), run(imp))).collect(),
    }
}

/// Halite's multi-buffer HMAC-SHA-256 under [`KEY`] (`Hmac::mac_many`, keys padded per
/// message as the API takes a key per pair): the default and every multi-buffer
/// implementation.
#[must_use]
pub fn halite_hmac_sha256_mb() -> Halite {
    use core_hash::{Hmac, Implementation as _, Sha256, Sha256MbImpl};
    let run = |imp: Sha256MbImpl| -> Runner {
        Box::new(move |m, out| {
            let pairs = mb_split(m).map(|part| (&KEY[..], part));
            let mut tags = [[0u8; 32]; MB_MESSAGES];
            Hmac::<Sha256>::mac_many_with(imp, &pairs, &mut tags).expect("one slot per pair");
            out.extend_from_slice(tags.as_flattened());
        })
    };
    Halite {
        default_impl: Sha256MbImpl::best().name().to_owned(),
        default: run(Sha256MbImpl::best()),
        impls: Sha256MbImpl::available().map(|imp| (imp.name().to_owned(), run(imp))).collect(),
    }
}

/// RustCrypto's `Hkdf<D>` (see `hkdf_op`) as a runner factory; the output length is the
/// hash length. A macro, because `Hkdf<D>`'s bounds on `D` are too many to spell generically.
macro_rules! rustcrypto_hkdf {
    ($digest:ty) => {
        || -> Runner {
            Box::new(|ikm, out| {
                use sha2::Digest as _;
                let hk = hkdf::Hkdf::<$digest>::new(Some(&KEY), ikm);
                let start = out.len();
                out.resize(start + <$digest>::output_size(), 0);
                hk.expand(HKDF_INFO, &mut out[start..])
                    .expect("one hash length is a valid HKDF output");
            })
        }
    };
}

/// The hash operations, in table order.
pub(super) fn ops() -> Vec<Op> {
    use Library::{AwsLcRs, Ring, RustCrypto};
    vec![
        hash_op(
            "sha256",
            "SHA-256 digest",
            halite_hash::<core_hash::Sha256>,
            "sha256",
            vec![
                peer(Ring, || ring_digest(&ring::digest::SHA256)),
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA256)),
                graviola!(graviola_hash::<graviola::hashing::Sha256>),
                peer(RustCrypto, rustcrypto_digest::<sha2::Sha256>),
            ],
        ),
        hash_mb_op(
            "sha256-mb",
            "SHA-256 of 16 messages at once (size: the 16 together)",
            halite_sha256_mb,
            vec![
                peer(Ring, || each_message(ring_digest(&ring::digest::SHA256))),
                peer(AwsLcRs, || each_message(aws_digest(&aws_lc_rs::digest::SHA256))),
                graviola!(|| each_message(graviola_hash::<graviola::hashing::Sha256>())),
                peer(RustCrypto, || each_message(rustcrypto_digest::<sha2::Sha256>())),
            ],
        ),
        hash_op(
            "sha224",
            "SHA-224 digest",
            halite_hash::<core_hash::Sha224>,
            "sha224",
            vec![
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA224)),
                peer(RustCrypto, rustcrypto_digest::<sha2::Sha224>),
            ],
        ),
        hash_op(
            "sha384",
            "SHA-384 digest",
            halite_hash::<core_hash::Sha384>,
            "sha384",
            vec![
                peer(Ring, || ring_digest(&ring::digest::SHA384)),
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA384)),
                graviola!(graviola_hash::<graviola::hashing::Sha384>),
                peer(RustCrypto, rustcrypto_digest::<sha2::Sha384>),
            ],
        ),
        hash_op(
            "sha512",
            "SHA-512 digest",
            halite_hash::<core_hash::Sha512>,
            "sha512",
            vec![
                peer(Ring, || ring_digest(&ring::digest::SHA512)),
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA512)),
                graviola!(graviola_hash::<graviola::hashing::Sha512>),
                peer(RustCrypto, rustcrypto_digest::<sha2::Sha512>),
            ],
        ),
        hash_op(
            "sha512-256",
            "SHA-512/256 digest",
            halite_hash::<core_hash::Sha512_256>,
            "sha512-256",
            vec![
                peer(Ring, || ring_digest(&ring::digest::SHA512_256)),
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA512_256)),
                peer(RustCrypto, rustcrypto_digest::<sha2::Sha512_256>),
            ],
        ),
        hash_op(
            "sha1",
            "SHA-1 digest (legacy)",
            halite_hash::<core_hash::Sha1>,
            "sha1",
            vec![
                peer(Ring, || ring_digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY)),
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY)),
                peer(RustCrypto, rustcrypto_digest::<sha1::Sha1>),
            ],
        ),
        hash_op(
            "sha3-224",
            "SHA3-224 digest",
            halite_hash::<core_hash::Sha3_224>,
            "sha3-224",
            vec![peer(RustCrypto, rustcrypto_digest::<sha3::Sha3_224>)],
        ),
        hash_op(
            "sha3-256",
            "SHA3-256 digest",
            halite_hash::<core_hash::Sha3_256>,
            "sha3-256",
            vec![
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA3_256)),
                peer(RustCrypto, rustcrypto_digest::<sha3::Sha3_256>),
            ],
        ),
        hash_op(
            "sha3-384",
            "SHA3-384 digest",
            halite_hash::<core_hash::Sha3_384>,
            "sha3-384",
            vec![
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA3_384)),
                peer(RustCrypto, rustcrypto_digest::<sha3::Sha3_384>),
            ],
        ),
        hash_op(
            "sha3-512",
            "SHA3-512 digest",
            halite_hash::<core_hash::Sha3_512>,
            "sha3-512",
            vec![
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA3_512)),
                peer(RustCrypto, rustcrypto_digest::<sha3::Sha3_512>),
            ],
        ),
        shake_op(
            "shake128",
            "SHAKE128, 32 bytes of output",
            halite_shake::<core_hash::Shake128, 32>,
            vec![peer(RustCrypto, rustcrypto_xof::<sha3::Shake128, 32>)],
        ),
        shake_op(
            "shake256",
            "SHAKE256, 64 bytes of output",
            halite_shake::<core_hash::Shake256, 64>,
            vec![peer(RustCrypto, rustcrypto_xof::<sha3::Shake256, 64>)],
        ),
        hmac_op(
            "hmac-sha256",
            "HMAC-SHA-256 tag, 32-byte key",
            halite_hmac::<core_hash::Sha256>,
            "sha256",
            vec![
                peer(Ring, || ring_hmac(ring::hmac::HMAC_SHA256)),
                peer(AwsLcRs, || aws_hmac(aws_lc_rs::hmac::HMAC_SHA256)),
                graviola!(graviola_hmac::<graviola::hashing::Sha256>),
                peer(RustCrypto, rustcrypto_mac::<hmac::Hmac<sha2::Sha256>>),
            ],
        ),
        hash_mb_op(
            "hmac-sha256-mb",
            "HMAC-SHA-256 of 16 messages at once, 32-byte key (size: the 16 together)",
            halite_hmac_sha256_mb,
            vec![
                peer(Ring, || each_message(ring_hmac(ring::hmac::HMAC_SHA256))),
                peer(AwsLcRs, || each_message(aws_hmac(aws_lc_rs::hmac::HMAC_SHA256))),
                graviola!(|| each_message(graviola_hmac::<graviola::hashing::Sha256>())),
                peer(RustCrypto, || each_message(rustcrypto_mac::<hmac::Hmac<sha2::Sha256>>())),
            ],
        ),
        hmac_op(
            "hmac-sha384",
            "HMAC-SHA-384 tag, 32-byte key",
            halite_hmac::<core_hash::Sha384>,
            "sha384",
            vec![
                peer(Ring, || ring_hmac(ring::hmac::HMAC_SHA384)),
                peer(AwsLcRs, || aws_hmac(aws_lc_rs::hmac::HMAC_SHA384)),
                graviola!(graviola_hmac::<graviola::hashing::Sha384>),
                peer(RustCrypto, rustcrypto_mac::<hmac::Hmac<sha2::Sha384>>),
            ],
        ),
        hmac_op(
            "hmac-sha512",
            "HMAC-SHA-512 tag, 32-byte key",
            halite_hmac::<core_hash::Sha512>,
            "sha512",
            vec![
                peer(Ring, || ring_hmac(ring::hmac::HMAC_SHA512)),
                peer(AwsLcRs, || aws_hmac(aws_lc_rs::hmac::HMAC_SHA512)),
                graviola!(graviola_hmac::<graviola::hashing::Sha512>),
                peer(RustCrypto, rustcrypto_mac::<hmac::Hmac<sha2::Sha512>>),
            ],
        ),
        hkdf_op(
            "hkdf-sha256",
            "HKDF-SHA-256 extract + expand of 32 bytes",
            halite_hkdf::<core_hash::Sha256>,
            vec![
                peer(Ring, || ring_hkdf(ring::hkdf::HKDF_SHA256)),
                peer(AwsLcRs, || aws_hkdf(aws_lc_rs::hkdf::HKDF_SHA256)),
                peer(RustCrypto, rustcrypto_hkdf!(sha2::Sha256)),
            ],
        ),
        hkdf_op(
            "hkdf-sha384",
            "HKDF-SHA-384 extract + expand of 48 bytes",
            halite_hkdf::<core_hash::Sha384>,
            vec![
                peer(Ring, || ring_hkdf(ring::hkdf::HKDF_SHA384)),
                peer(AwsLcRs, || aws_hkdf(aws_lc_rs::hkdf::HKDF_SHA384)),
                peer(RustCrypto, rustcrypto_hkdf!(sha2::Sha384)),
            ],
        ),
    ]
}

/// Halite's side of any [`core_hash::Hash`]: the default constructor and every implementation.
#[must_use]
pub fn halite_hash<H: core_hash::Hash + 'static>() -> Halite {
    use core_hash::Implementation as _;
    let impls = H::implementations()
        .map(|imp| {
            let run: Runner = Box::new(move |m: &[u8], out: &mut Vec<u8>| {
                let mut h = H::with_impl(imp);
                h.update(m);
                out.extend_from_slice(h.finalize().as_ref());
            });
            (imp.name().to_owned(), run)
        })
        .collect();
    Halite {
        default_impl: <H::Impl as core_hash::Implementation>::best().name().to_owned(),
        default: Box::new(|m, out| out.extend_from_slice(H::digest(m).as_ref())),
        impls,
    }
}

/// Halite's HMAC over any [`core_hash::Hash`] under [`KEY`]: keyed once per implementation,
/// the keyed state copied for each message.
#[must_use]
pub fn halite_hmac<H: core_hash::Hash + 'static>() -> Halite {
    use core_hash::{Hmac, Implementation as _};
    let keyed = |mac: Hmac<H>| -> Runner {
        Box::new(move |m: &[u8], out: &mut Vec<u8>| {
            let mut mac = mac.clone();
            mac.update(m);
            out.extend_from_slice(mac.finalize().as_ref());
        })
    };
    Halite {
        default_impl: <H::Impl as core_hash::Implementation>::best().name().to_owned(),
        default: keyed(Hmac::<H>::new(&KEY)),
        impls: H::implementations()
            .map(|imp| (imp.name().to_owned(), keyed(Hmac::with_impl(imp, &KEY))))
            .collect(),
    }
}

/// Halite's HKDF over any [`core_hash::Hash`] (see `hkdf_op`). HKDF runs on the hash's best
/// implementation, so that is its only entry.
#[must_use]
pub fn halite_hkdf<H: core_hash::Hash + 'static>() -> Halite {
    use core_hash::Implementation as _;
    // The salt is keyed once, as ring's `Salt` and aws-lc-rs's are.
    let run = || -> Runner {
        let salt = core_hash::HkdfSalt::<H>::new(&KEY);
        Box::new(move |ikm: &[u8], out: &mut Vec<u8>| {
            let prk = salt.extract(ikm);
            let mut okm = [0u8; core_hash::MAX_OUTPUT_LEN];
            let okm = &mut okm[..H::OUTPUT_LEN];
            prk.expand(HKDF_INFO, okm).expect("one hash length is a valid HKDF output");
            out.extend_from_slice(okm);
        })
    };
    let best = <H::Impl as core_hash::Implementation>::best().name().to_owned();
    Halite { default_impl: best.clone(), default: run(), impls: vec![(best, run())] }
}

/// The SHAKE functions, which share no trait in core-hash: enough to run them generically.
pub trait Shake: 'static {
    /// A fresh instance on `imp`.
    fn with_impl(imp: core_hash::KeccakImpl) -> Self;
    /// Absorbs `data`.
    fn absorb(&mut self, data: &[u8]);
    /// Squeezes `out.len()` bytes.
    fn squeeze(self, out: &mut [u8]);
    /// `out.len()` bytes of output for `data`, on the default implementation.
    fn digest_into(data: &[u8], out: &mut [u8]);
}

macro_rules! shake {
    ($($t:ty),*) => {$(
        impl Shake for $t {
            fn with_impl(imp: core_hash::KeccakImpl) -> Self {
                <$t>::with_impl(imp)
            }
            fn absorb(&mut self, data: &[u8]) {
                self.update(data);
            }
            fn squeeze(self, out: &mut [u8]) {
                self.finalize_xof().read(out);
            }
            fn digest_into(data: &[u8], out: &mut [u8]) {
                <$t>::digest_into(data, out);
            }
        }
    )*};
}
shake!(core_hash::Shake128, core_hash::Shake256);

/// Halite's SHAKE with `N` bytes of output: the one-shot default and every Keccak
/// implementation.
#[must_use]
pub fn halite_shake<S: Shake, const N: usize>() -> Halite {
    use core_hash::{Implementation as _, KeccakImpl};
    Halite {
        default_impl: KeccakImpl::best().name().to_owned(),
        default: Box::new(|m, out| {
            let mut buf = [0u8; N];
            S::digest_into(m, &mut buf);
            out.extend_from_slice(&buf);
        }),
        impls: KeccakImpl::available()
            .map(|imp| {
                let run: Runner = Box::new(move |m: &[u8], out: &mut Vec<u8>| {
                    let mut s = S::with_impl(imp);
                    s.absorb(m);
                    let mut buf = [0u8; N];
                    s.squeeze(&mut buf);
                    out.extend_from_slice(&buf);
                });
                (imp.name().to_owned(), run)
            })
            .collect(),
    }
}

/// ring's one-shot digest.
#[must_use]
pub fn ring_digest(alg: &'static ring::digest::Algorithm) -> Runner {
    Box::new(move |m, out| out.extend_from_slice(ring::digest::digest(alg, m).as_ref()))
}

/// aws-lc-rs's one-shot digest.
#[must_use]
pub fn aws_digest(alg: &'static aws_lc_rs::digest::Algorithm) -> Runner {
    Box::new(move |m, out| out.extend_from_slice(aws_lc_rs::digest::digest(alg, m).as_ref()))
}

/// graviola's one-shot hash.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_hash<H: graviola::hashing::Hash + 'static>() -> Runner {
    Box::new(|m, out| out.extend_from_slice(H::hash(m).as_ref()))
}

/// A RustCrypto `Digest`'s one-shot digest.
#[must_use]
pub fn rustcrypto_digest<D: sha2::Digest + 'static>() -> Runner {
    Box::new(|m, out| out.extend_from_slice(&D::digest(m)))
}

/// A RustCrypto extendable-output function's one-shot output of `N` bytes.
#[must_use]
pub fn rustcrypto_xof<X, const N: usize>() -> Runner
where
    X: sha3::digest::ExtendableOutput + sha3::digest::Update + Default + 'static,
{
    Box::new(|m, out| {
        let mut buf = [0u8; N];
        X::digest_xof(m, &mut buf);
        out.extend_from_slice(&buf);
    })
}

/// The HKDF-Expand `info` every library uses.
pub const HKDF_INFO: &[u8] = b"tls13 Halite bench";

/// ring's HKDF (see `hkdf_op`); the output length is the hash length.
#[must_use]
pub fn ring_hkdf(alg: ring::hkdf::Algorithm) -> Runner {
    let salt = ring::hkdf::Salt::new(alg, &KEY);
    Box::new(move |ikm, out| {
        let len = alg.hmac_algorithm().digest_algorithm().output_len();
        let start = out.len();
        out.resize(start + len, 0);
        salt.extract(ikm)
            .expand(&[HKDF_INFO], alg)
            .and_then(|okm| okm.fill(&mut out[start..]))
            .expect("one hash length is a valid HKDF output");
    })
}

/// aws-lc-rs's HKDF (see `hkdf_op`); the output length is the hash length.
#[must_use]
pub fn aws_hkdf(alg: aws_lc_rs::hkdf::Algorithm) -> Runner {
    let salt = aws_lc_rs::hkdf::Salt::new(alg, &KEY);
    Box::new(move |ikm, out| {
        let len = alg.hmac_algorithm().digest_algorithm().output_len;
        let start = out.len();
        out.resize(start + len, 0);
        salt.extract(ikm)
            .expand(&[HKDF_INFO], alg)
            .and_then(|okm| okm.fill(&mut out[start..]))
            .expect("one hash length is a valid HKDF output");
    })
}

/// ring's HMAC under [`KEY`], for the `hmac-*` ops.
#[must_use]
pub fn ring_hmac(alg: ring::hmac::Algorithm) -> Runner {
    let key = ring::hmac::Key::new(alg, &KEY);
    Box::new(move |m, out| out.extend_from_slice(ring::hmac::sign(&key, m).as_ref()))
}

/// aws-lc-rs's HMAC under [`KEY`], for the `hmac-*` ops.
#[must_use]
pub fn aws_hmac(alg: aws_lc_rs::hmac::Algorithm) -> Runner {
    let key = aws_lc_rs::hmac::Key::new(alg, &KEY);
    Box::new(move |m, out| out.extend_from_slice(aws_lc_rs::hmac::sign(&key, m).as_ref()))
}

/// graviola's HMAC under [`KEY`], for the `hmac-*` ops.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_hmac<H: graviola::hashing::Hash + Clone + 'static>() -> Runner {
    let key = graviola::hashing::hmac::Hmac::<H>::new(KEY);
    Box::new(move |m, out| {
        let mut mac = key.clone();
        mac.update(m);
        out.extend_from_slice(mac.finish().as_ref());
    })
}

/// A RustCrypto MAC (`hmac::Hmac<sha2::Sha256>`) under [`KEY`], for the `hmac-*` ops.
#[must_use]
pub fn rustcrypto_mac<M: hmac::Mac + hmac::digest::KeyInit + Clone + 'static>() -> Runner {
    let key =
        <M as hmac::digest::KeyInit>::new_from_slice(&KEY).expect("HMAC takes any key length");
    Box::new(move |m, out| {
        let mut mac = key.clone();
        mac.update(m);
        out.extend_from_slice(&mac.finalize().into_bytes());
    })
}

/// The `openssl` way to run HMAC-`digest` under [`KEY`] (`digest` as OpenSSL names it,
/// `sha256`), for the `hmac-*` ops.
#[must_use]
pub fn openssl_hmac(digest: &str) -> OpensslSpec {
    let hexkey = crate::check::hex(&KEY);
    OpensslSpec {
        speed: vec!["-hmac".into(), digest.into()],
        check: Some(vec![
            "mac".into(),
            "-binary".into(),
            "-digest".into(),
            digest.into(),
            "-macopt".into(),
            format!("hexkey:{hexkey}"),
            "HMAC".into(),
        ]),
    }
}
