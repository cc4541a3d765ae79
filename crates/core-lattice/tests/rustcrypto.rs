//! Byte-for-byte agreement with RustCrypto's `ml-kem` through the deterministic API, on random
//! seeds, messages and (invalid) ciphertexts, for every implementation this CPU runs.

mod common;

use common::{MlKem512, MlKem768, MlKem1024, Run, Set};
use ml_kem::kem::Decapsulate;
use ml_kem::{B32, EncapsulateDeterministic, EncodedSizeUser, KemCore};
use proptest::prelude::*;

/// RustCrypto's run.
fn reference<K: KemCore>(d: &[u8; 32], z: &[u8; 32], m: &[u8; 32], bad_ct: &[u8]) -> Run {
    let (dk, ek) = K::generate_deterministic(&B32::from(*d), &B32::from(*z));
    let (ct, k) = ek.encapsulate_deterministic(&B32::from(*m)).unwrap();
    let bad = ml_kem::Ciphertext::<K>::try_from(bad_ct).unwrap();
    let k_bad = dk.decapsulate(&bad).unwrap();
    Run {
        ek: ek.as_bytes().to_vec(),
        dk: dk.as_bytes().to_vec(),
        ct: ct.to_vec(),
        k: k.to_vec(),
        k_bad: k_bad.to_vec(),
    }
}

fn agree<S: Set, K: KemCore>(d: [u8; 32], z: [u8; 32], m: [u8; 32], noise: &[u8]) {
    common::agree_with::<S>("RustCrypto ml-kem", d, z, m, noise, reference::<K>);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mlkem512_agrees_with_rustcrypto(
        d in any::<[u8; 32]>(), z in any::<[u8; 32]>(), m in any::<[u8; 32]>(),
        noise in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        agree::<MlKem512, ml_kem::MlKem512>(d, z, m, &noise);
    }

    #[test]
    fn mlkem768_agrees_with_rustcrypto(
        d in any::<[u8; 32]>(), z in any::<[u8; 32]>(), m in any::<[u8; 32]>(),
        noise in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        agree::<MlKem768, ml_kem::MlKem768>(d, z, m, &noise);
    }

    #[test]
    fn mlkem1024_agrees_with_rustcrypto(
        d in any::<[u8; 32]>(), z in any::<[u8; 32]>(), m in any::<[u8; 32]>(),
        noise in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        agree::<MlKem1024, ml_kem::MlKem1024>(d, z, m, &noise);
    }
}
