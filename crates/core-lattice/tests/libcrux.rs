//! Byte-for-byte agreement with `libcrux-ml-kem` (formally verified, from Cryspen) through the
//! deterministic API, on random seeds, messages and (invalid) ciphertexts, for every
//! implementation this CPU runs.

mod common;

use common::{MlKem512, MlKem768, MlKem1024, Run};
use proptest::prelude::*;

/// libcrux's run of one parameter set's module (`libcrux_ml_kem::mlkem768` and so on).
macro_rules! reference {
    ($name:ident, $module:ident) => {
        fn $name(d: &[u8; 32], z: &[u8; 32], m: &[u8; 32], bad_ct: &[u8]) -> Run {
            use libcrux_ml_kem::$module as kem;
            let mut seed = [0u8; 64];
            seed[..32].copy_from_slice(d);
            seed[32..].copy_from_slice(z);
            let pair = kem::generate_key_pair(seed);
            let (ct, k) = kem::encapsulate(pair.public_key(), *m);
            let bad = bad_ct.try_into().unwrap();
            Run {
                ek: pair.pk().to_vec(),
                dk: pair.sk().to_vec(),
                ct: ct.as_slice().to_vec(),
                k: k.to_vec(),
                k_bad: kem::decapsulate(pair.private_key(), &bad).to_vec(),
            }
        }
    };
}

reference!(libcrux512, mlkem512);
reference!(libcrux768, mlkem768);
reference!(libcrux1024, mlkem1024);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mlkem512_agrees_with_libcrux(
        d in any::<[u8; 32]>(), z in any::<[u8; 32]>(), m in any::<[u8; 32]>(),
        noise in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        common::agree_with::<MlKem512>("libcrux", d, z, m, &noise, libcrux512);
    }

    #[test]
    fn mlkem768_agrees_with_libcrux(
        d in any::<[u8; 32]>(), z in any::<[u8; 32]>(), m in any::<[u8; 32]>(),
        noise in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        common::agree_with::<MlKem768>("libcrux", d, z, m, &noise, libcrux768);
    }

    #[test]
    fn mlkem1024_agrees_with_libcrux(
        d in any::<[u8; 32]>(), z in any::<[u8; 32]>(), m in any::<[u8; 32]>(),
        noise in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        common::agree_with::<MlKem1024>("libcrux", d, z, m, &noise, libcrux1024);
    }
}
