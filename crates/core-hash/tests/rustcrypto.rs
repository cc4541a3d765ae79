//! The `rustcrypto` feature: RustCrypto's generic `hmac`, `hkdf` and `pbkdf2` (the `digest`
//! 0.11 generation) instantiated with Halite's hashers agree with the same crates instantiated
//! with RustCrypto's `sha1`/`sha2`/`sha3`, on random inputs; `Digest`, `FixedOutputReset`
//! and SHAKE's `ExtendableOutput` agree likewise (with `sha3` 0.10's SHAKE), and `OsRandom` is a `rand_core` RNG.

use digest::block_api::BlockSizeUser;
use digest::{Digest, ExtendableOutput, FixedOutputReset, KeyInit, Mac, Update, XofReader};
use hkdf_0_13::{GenericHkdf, HmacImpl, SimpleHkdf};
use hmac_0_13::{Hmac, SimpleHmac};
use proptest::prelude::*;

/// Every check of one pair: Halite's `H` and RustCrypto's `R`, the same hash function, with
/// `M` RustCrypto's HMAC over `R` (`Hmac<R>` where `R` has the block-level API, as SHA-1 and
/// SHA-2 do; `SimpleHmac<R>` for SHA-3, which has not).
fn agree<H, R, M>(key: &[u8], msg: &[u8], info: &[u8], okm_len: usize, rounds: u32)
where
    H: Digest + BlockSizeUser + FixedOutputReset + Clone,
    R: Digest,
    M: Mac + KeyInit + HmacImpl + digest::FixedOutput,
{
    // Digest, in one call and in uneven pieces.
    let want = R::digest(msg);
    assert_eq!(H::digest(msg).as_slice(), want.as_slice());
    let mut h = H::new();
    for piece in msg.chunks(7) {
        Digest::update(&mut h, piece);
    }
    assert_eq!(h.finalize().as_slice(), want.as_slice());

    // Reset: a used hasher, finalised with reset, then reused, is a fresh one.
    let mut h = H::new();
    Digest::update(&mut h, key);
    assert_eq!(
        FixedOutputReset::finalize_fixed_reset(&mut h).as_slice(),
        R::digest(key).as_slice()
    );
    Digest::update(&mut h, msg);
    assert_eq!(h.finalize().as_slice(), want.as_slice());

    // HMAC: `SimpleHmac` on Halite against `Hmac` on RustCrypto.
    let mut ours = <SimpleHmac<H> as KeyInit>::new_from_slice(key).unwrap();
    Mac::update(&mut ours, msg);
    let mut theirs = <M as KeyInit>::new_from_slice(key).unwrap();
    Mac::update(&mut theirs, msg);
    let tag = Mac::finalize(theirs).into_bytes();
    assert_eq!(Mac::finalize(ours.clone()).into_bytes().as_slice(), tag.as_slice());
    ours.verify_slice(&tag).unwrap();

    // HKDF (RFC 5869): extract with `key` as the salt, expand with `info`.
    let (ours, theirs) =
        (SimpleHkdf::<H>::new(Some(key), msg), GenericHkdf::<M>::new(Some(key), msg));
    let (mut a, mut b) = (vec![0; okm_len], vec![0; okm_len]);
    ours.expand(info, &mut a).unwrap();
    theirs.expand(info, &mut b).unwrap();
    assert_eq!(a, b);

    // PBKDF2 (RFC 8018) with `key` as the password and `info` as the salt.
    let (mut a, mut b) = (vec![0; okm_len], vec![0; okm_len]);
    pbkdf2::pbkdf2::<SimpleHmac<H>>(key, info, rounds, &mut a).unwrap();
    pbkdf2::pbkdf2::<M>(key, info, rounds, &mut b).unwrap();
    assert_eq!(a, b);
}

/// SHAKE through `ExtendableOutput`, read in uneven pieces, against RustCrypto's `sha3` 0.10
/// (its successor moved SHAKE to a crate the workspace does not use).
fn xof_agrees<H, R>(msg: &[u8], out_len: usize)
where
    H: ExtendableOutput + Default,
    R: sha3::digest::ExtendableOutput + Default,
{
    let mut ours = H::default();
    Update::update(&mut ours, msg);
    let mut reader = ours.finalize_xof();
    let mut a = vec![0; out_len];
    for piece in a.chunks_mut(5) {
        reader.read(piece);
    }
    let mut b = vec![0; out_len];
    let mut theirs = R::default();
    sha3::digest::Update::update(&mut theirs, msg);
    sha3::digest::XofReader::read(&mut theirs.finalize_xof(), &mut b);
    assert_eq!(a, b);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn generic_constructions_agree_with_rustcrypto(
        key in proptest::collection::vec(any::<u8>(), 0..300),
        msg in proptest::collection::vec(any::<u8>(), 0..600),
        info in proptest::collection::vec(any::<u8>(), 0..80),
        okm_len in 1usize..200,
        rounds in 1u32..4,
    ) {
        let args = (&key[..], &msg[..], &info[..], okm_len, rounds);
        macro_rules! each {
            ($($ours:ty, $theirs:ty, $mac:ident;)*) => {$(
                agree::<$ours, $theirs, $mac<$theirs>>(args.0, args.1, args.2, args.3, args.4);
            )*};
        }
        each! {
            core_hash::Sha1, sha1_0_11::Sha1, Hmac;
            core_hash::Sha224, sha2_0_11::Sha224, Hmac;
            core_hash::Sha256, sha2_0_11::Sha256, Hmac;
            core_hash::Sha384, sha2_0_11::Sha384, Hmac;
            core_hash::Sha512, sha2_0_11::Sha512, Hmac;
            core_hash::Sha512_256, sha2_0_11::Sha512_256, Hmac;
            core_hash::Sha3_224, sha3_0_12::Sha3_224, SimpleHmac;
            core_hash::Sha3_256, sha3_0_12::Sha3_256, SimpleHmac;
            core_hash::Sha3_384, sha3_0_12::Sha3_384, SimpleHmac;
            core_hash::Sha3_512, sha3_0_12::Sha3_512, SimpleHmac;
        }
    }

    #[test]
    fn shake_agrees_with_rustcrypto(
        msg in proptest::collection::vec(any::<u8>(), 0..600),
        out_len in 0usize..500,
    ) {
        xof_agrees::<core_hash::Shake128, sha3::Shake128>(&msg, out_len);
        xof_agrees::<core_hash::Shake256, sha3::Shake256>(&msg, out_len);
    }
}

/// `OsRandom` is a fallible crypto RNG, and `UnwrapErr` makes it the infallible kind that
/// RustCrypto's key generation takes.
#[test]
fn os_random_is_a_rand_core_rng() {
    fn draw<R: rand_core::TryCryptoRng>(rng: &mut R) -> [u8; 32] {
        let mut out = [0; 32];
        rng.try_fill_bytes(&mut out).unwrap();
        out
    }
    fn infallible<R: rand_core::CryptoRng>(rng: &mut R) -> u64 {
        rng.next_u64() | u64::from(rng.next_u32())
    }
    let (a, b) = (draw(&mut core_hash::OsRandom), draw(&mut core_hash::OsRandom));
    assert_ne!(a, b, "two 256-bit draws collided");
    let mut rng = rand_core::UnwrapErr(core_hash::OsRandom);
    assert_ne!(infallible(&mut rng), 0);
}
