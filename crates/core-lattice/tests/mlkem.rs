//! ML-KEM's behaviour at its edges: the input checks of FIPS 203 §7, implicit rejection and
//! its value, and the typed API (lengths, round trips, random-source failures), on all three
//! parameter sets.

mod common;

use common::{MlKem512, MlKem768, MlKem1024, Set};
use core_hash::{RandomError, RandomSource, Shake256};
use core_lattice::{Error, Implementation, MlKemImpl, mlkem768};

const Q: u16 = 3329;

fn seeds(tag: u8) -> ([u8; 32], [u8; 32], [u8; 32]) {
    ([tag; 32], [tag.wrapping_add(1); 32], [tag.wrapping_add(2); 32])
}

/// Overwrites the 12-bit value at `index` of an encoded vector.
fn set12(bytes: &mut [u8], index: usize, value: u16) {
    let at = 3 * (index / 2);
    if index.is_multiple_of(2) {
        bytes[at] = value as u8;
        bytes[at + 1] = (bytes[at + 1] & 0xf0) | (value >> 8) as u8;
    } else {
        bytes[at + 1] = (bytes[at + 1] & 0x0f) | ((value << 4) as u8);
        bytes[at + 2] = (value >> 4) as u8;
    }
}

/// J(z ‖ c): the key implicit rejection must return.
fn rejection_key(dk: &[u8], ct: &[u8]) -> [u8; 32] {
    let mut j = Shake256::new();
    j.update(&dk[dk.len() - 32..]);
    j.update(ct);
    let mut out = [0u8; 32];
    j.finalize_xof().read(&mut out);
    out
}

/// Every value from q to 4095 at every coefficient position of t̂ (what CCTV's `modulus/`
/// vectors hold) is refused by the modulus check; q − 1 everywhere is accepted.
fn encapsulation_key_with_a_coefficient_from_q_up_is_refused<S: Set>() {
    let (d, z, _) = seeds(1);
    let imp = MlKemImpl::available().next().unwrap();
    let (ek, dk) = S::keygen(&d, &z, imp);
    let m = [7u8; 32];
    assert!(S::encaps(&ek, &m, imp).is_ok());
    let mut bad = ek.clone();
    for index in 0..256 * S::K {
        for value in Q..4096 {
            set12(&mut bad, index, value);
            assert_eq!(
                S::encaps(&bad, &m, imp),
                Err(Error::InvalidEncapsulationKey),
                "{}: coefficient {index} = {value}",
                S::NAME
            );
        }
        // The same kind of key inside a decapsulation key whose hash matches it is refused too.
        if index.is_multiple_of(61) {
            let mut bad_dk = dk.clone();
            let ek_at = 384 * S::K;
            bad_dk[ek_at..ek_at + bad.len()].copy_from_slice(&bad);
            let hash: [u8; 32] = core_hash::Sha3_256::digest(&bad);
            bad_dk[ek_at + bad.len()..ek_at + bad.len() + 32].copy_from_slice(&hash);
            assert_eq!(
                S::decaps(&bad_dk, &vec![0; S::CT_LEN], imp),
                Err(Error::InvalidDecapsulationKey),
                "{}: coefficient {index}",
                S::NAME
            );
        }
        bad.copy_from_slice(&ek);
    }
    // q − 1 everywhere is valid.
    for index in 0..256 * S::K {
        set12(&mut bad, index, Q - 1);
    }
    assert!(S::encaps(&bad, &m, imp).is_ok());
}

#[test]
fn mlkem512_encapsulation_keys_with_a_coefficient_from_q_up_are_refused() {
    encapsulation_key_with_a_coefficient_from_q_up_is_refused::<MlKem512>();
}

#[test]
fn mlkem768_encapsulation_keys_with_a_coefficient_from_q_up_are_refused() {
    encapsulation_key_with_a_coefficient_from_q_up_is_refused::<MlKem768>();
}

#[test]
fn mlkem1024_encapsulation_keys_with_a_coefficient_from_q_up_are_refused() {
    encapsulation_key_with_a_coefficient_from_q_up_is_refused::<MlKem1024>();
}

fn decapsulation_key_hash_is_checked<S: Set>() {
    let (d, z, _) = seeds(3);
    let imp = MlKemImpl::available().next().unwrap();
    let (_, dk) = S::keygen(&d, &z, imp);
    let ct = vec![0x5a; S::CT_LEN];
    assert!(S::decaps(&dk, &ct, imp).is_ok());
    // A changed byte in the embedded encapsulation key, or in the stored hash.
    for at in [384 * S::K, 768 * S::K + 31, 768 * S::K + 32, 768 * S::K + 63] {
        let mut bad = dk.clone();
        bad[at] ^= 1;
        assert_eq!(
            S::decaps(&bad, &ct, imp),
            Err(Error::InvalidDecapsulationKey),
            "{} byte {at}",
            S::NAME
        );
    }
}

#[test]
fn decapsulation_keys_whose_hash_does_not_match_are_refused() {
    decapsulation_key_hash_is_checked::<MlKem512>();
    decapsulation_key_hash_is_checked::<MlKem768>();
    decapsulation_key_hash_is_checked::<MlKem1024>();
}

fn wrong_lengths_are_refused<S: Set>() {
    let (d, z, m) = seeds(5);
    let imp = MlKemImpl::available().next().unwrap();
    let (ek, dk) = S::keygen(&d, &z, imp);
    let (ct, _) = S::encaps(&ek, &m, imp).unwrap();
    for delta in [-1isize, 1] {
        let len = |n: usize| n.checked_add_signed(delta).unwrap();
        let resized = |v: &[u8], n: usize| {
            let mut r = v.to_vec();
            r.resize(n, 0);
            r
        };
        assert_eq!(S::encaps(&resized(&ek, len(S::EK_LEN)), &m, imp), Err(Error::InvalidLength));
        assert_eq!(S::decaps(&resized(&dk, len(S::DK_LEN)), &ct, imp), Err(Error::InvalidLength));
        assert_eq!(S::decaps(&dk, &resized(&ct, len(S::CT_LEN)), imp), Err(Error::InvalidLength));
    }
    assert_eq!(S::encaps(&[], &m, imp), Err(Error::InvalidLength));
}

#[test]
fn wrong_lengths_are_refused_with_a_typed_error() {
    wrong_lengths_are_refused::<MlKem512>();
    wrong_lengths_are_refused::<MlKem768>();
    wrong_lengths_are_refused::<MlKem1024>();
}

/// A ciphertext that differs from the right one in a single late byte (the last one, the
/// last of u, and one right after a zero byte, where a string comparison would stop) gives
/// J(z ‖ c), never the encapsulated key.
fn late_differences_are_rejected<S: Set>() {
    for imp in MlKemImpl::available() {
        for tag in 0..4 {
            let (d, z, m) = seeds(10 * tag);
            let (ek, dk) = S::keygen(&d, &z, imp);
            let (ct, k) = S::encaps(&ek, &m, imp).unwrap();
            assert_eq!(S::decaps(&dk, &ct, imp).unwrap(), k);
            let u_len = S::CT_LEN - if S::K == 4 { 160 } else { 128 };
            let after_zero = ct.iter().position(|&b| b == 0).map(|i| i + 1);
            for at in [Some(S::CT_LEN - 1), Some(u_len - 1), Some(u_len), after_zero]
                .into_iter()
                .flatten()
            {
                if at >= S::CT_LEN {
                    continue;
                }
                for flip in [1u8, 0x80] {
                    let mut bad = ct.clone();
                    bad[at] ^= flip;
                    let got = S::decaps(&dk, &bad, imp).unwrap();
                    assert_ne!(
                        got,
                        k,
                        "{} on {}: byte {at} ^ {flip:#x} accepted",
                        S::NAME,
                        imp.name()
                    );
                    assert_eq!(got, rejection_key(&dk, &bad), "{} byte {at}", S::NAME);
                }
            }
        }
    }
}

#[test]
fn ciphertexts_that_differ_only_late_are_rejected() {
    late_differences_are_rejected::<MlKem512>();
    late_differences_are_rejected::<MlKem768>();
    late_differences_are_rejected::<MlKem1024>();
}

fn implicit_rejection_returns_j_of_z_and_c<S: Set>() {
    let (d, z, _) = seeds(20);
    let imp = MlKemImpl::available().next().unwrap();
    let (_, dk) = S::keygen(&d, &z, imp);
    for fill in [0u8, 0xff, 0x42] {
        let ct = vec![fill; S::CT_LEN];
        assert_eq!(S::decaps(&dk, &ct, imp).unwrap(), rejection_key(&dk, &ct), "{}", S::NAME);
    }
    assert_eq!(&dk[S::DK_LEN - 32..], &z);
}

#[test]
fn implicit_rejection_returns_j_of_z_and_the_ciphertext() {
    implicit_rejection_returns_j_of_z_and_c::<MlKem512>();
    implicit_rejection_returns_j_of_z_and_c::<MlKem768>();
    implicit_rejection_returns_j_of_z_and_c::<MlKem1024>();
}

#[test]
fn keys_and_ciphertexts_round_trip_through_bytes() {
    let dk = mlkem768::DecapsulationKey::from_seed(&[1; 32], &[2; 32]);
    let ek = dk.encapsulation_key();
    let again = mlkem768::EncapsulationKey::from_bytes(ek.as_bytes()).unwrap();
    assert_eq!(again, ek);
    let dk2 = mlkem768::DecapsulationKey::from_bytes(dk.as_bytes()).unwrap();
    assert_eq!(dk2.as_bytes(), dk.as_bytes());
    let (ct, k) = ek.encapsulate_deterministic(&[3; 32]);
    let ct2 = mlkem768::Ciphertext::from_bytes(ct.as_bytes()).unwrap();
    assert_eq!(ct2, ct);
    assert_eq!(dk2.decapsulate(&ct2), k);
    assert_eq!(ct.as_bytes().len(), mlkem768::CIPHERTEXT_LEN);
    assert_eq!(mlkem768::ENCAPSULATION_KEY_LEN, 1184);
    assert_eq!(mlkem768::DECAPSULATION_KEY_LEN, 2400);
    assert_eq!(mlkem768::CIPHERTEXT_LEN, 1088);
    assert_eq!(core_lattice::mlkem512::CIPHERTEXT_LEN, 768);
    assert_eq!(core_lattice::mlkem1024::CIPHERTEXT_LEN, 1568);
    // Debug output names no secret.
    let shown = format!("{dk:?} {k:?}");
    assert!(!shown.contains(&format!("{:?}", &k.as_bytes()[..4])), "{shown}");
}

#[test]
fn random_keys_and_encapsulations_agree() {
    let mut rng = core_hash::OsRandom;
    let dk = mlkem768::DecapsulationKey::generate(&mut rng).unwrap();
    let other = mlkem768::DecapsulationKey::generate(&mut rng).unwrap();
    assert_ne!(dk.as_bytes(), other.as_bytes());
    let (ct, k) = dk.encapsulation_key().encapsulate(&mut rng).unwrap();
    assert_eq!(dk.decapsulate(&ct), k);
    assert_ne!(other.decapsulate(&ct), k);
    // Into the caller's ciphertext: overwrites it whole, the same as the returned one.
    let mut into = mlkem768::Ciphertext::from_bytes(&[0xa5; mlkem768::CIPHERTEXT_LEN]).unwrap();
    let k2 = dk.encapsulation_key().encapsulate_into(&mut rng, &mut into).unwrap();
    assert_eq!(dk.decapsulate(&into), k2);
    assert_ne!(k2, k);
    let (ct3, k3) = dk.encapsulation_key().encapsulate_deterministic(&[7; 32]);
    let k4 = dk.encapsulation_key().encapsulate_deterministic_into(&[7; 32], &mut into);
    assert_eq!((&into, &k4), (&ct3, &k3));
    assert_eq!(ek_failure(&mut into), Error::RandomSource);
}

/// `encapsulate_into` with a failing random source: the error, and `ct` left alone.
fn ek_failure(ct: &mut mlkem768::Ciphertext) -> Error {
    let before = ct.clone();
    let ek = mlkem768::DecapsulationKey::from_seed(&[1; 32], &[2; 32]).encapsulation_key();
    let err = ek.encapsulate_into(&mut Broken, ct).unwrap_err();
    assert_eq!(*ct, before);
    err
}

struct Broken;

impl RandomSource for Broken {
    fn fill(&mut self, _: &mut [u8]) -> Result<(), RandomError> {
        Err(RandomError::Unavailable)
    }
}

/// Key generation into the caller's slot: the same key as by value, whatever the slot held,
/// and an empty slot after a failing random source.
#[test]
fn keys_built_in_the_callers_slot() {
    for imp in MlKemImpl::available() {
        let want = mlkem768::DecapsulationKey::from_seed_with_impl(&[1; 32], &[2; 32], imp);
        let mut slot = Some(mlkem768::DecapsulationKey::from_seed(&[3; 32], &[4; 32]));
        let dk = mlkem768::DecapsulationKey::from_seed_in(&mut slot, &[1; 32], &[2; 32], imp);
        assert_eq!(dk.as_bytes(), want.as_bytes());
        assert_eq!(dk.implementation(), imp);
    }
    let mut slot = None;
    let dk = mlkem768::DecapsulationKey::generate_in(&mut slot, &mut core_hash::OsRandom).unwrap();
    let (ct, k) = dk.encapsulation_key().encapsulate(&mut core_hash::OsRandom).unwrap();
    assert_eq!(dk.decapsulate(&ct), k);
    let err = mlkem768::DecapsulationKey::generate_in(&mut slot, &mut Broken).unwrap_err();
    assert_eq!(err, Error::RandomSource);
    assert!(slot.is_none());
}

#[test]
fn a_failing_random_source_is_an_error() {
    assert_eq!(mlkem768::DecapsulationKey::generate(&mut Broken).unwrap_err(), Error::RandomSource);
    let ek = mlkem768::DecapsulationKey::from_seed(&[1; 32], &[2; 32]).encapsulation_key();
    assert_eq!(ek.encapsulate(&mut Broken).unwrap_err(), Error::RandomSource);
}

#[test]
fn keys_use_the_implementation_they_are_given() {
    for imp in MlKemImpl::available() {
        let mut dk = mlkem768::DecapsulationKey::from_seed_with_impl(&[1; 32], &[2; 32], imp);
        assert_eq!(dk.implementation(), imp);
        assert_eq!(dk.encapsulation_key().implementation(), imp);
        dk.set_implementation(MlKemImpl::best());
        assert_eq!(dk.implementation(), MlKemImpl::best());
        // Keys compare by their bytes, not by the implementation they run on.
        let mut ek = dk.encapsulation_key();
        ek.set_implementation(imp);
        assert_eq!(ek, dk.encapsulation_key());
    }
}
