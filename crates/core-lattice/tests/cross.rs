//! Every implementation this CPU runs against `portable`, byte for byte, on random seeds,
//! messages and (invalid) ciphertexts: key generation, encapsulation, decapsulation of the
//! right ciphertext and implicit rejection of a random one.

mod common;

use common::{MlKem512, MlKem768, MlKem1024, Set};
use core_lattice::{Implementation, MlKemImpl};
use proptest::prelude::*;

fn agree<S: Set>(d: [u8; 32], z: [u8; 32], m: [u8; 32], noise: &[u8]) {
    let portable = MlKemImpl::by_name("portable").unwrap();
    let bad_ct: Vec<u8> = noise.iter().cycle().take(S::CT_LEN).copied().collect();
    let (ek, dk) = S::keygen(&d, &z, portable);
    let (ct, k) = S::encaps(&ek, &m, portable).unwrap();
    let k_bad = S::decaps(&dk, &bad_ct, portable).unwrap();
    for imp in MlKemImpl::available() {
        let name = format!("{} on {}", S::NAME, imp.name());
        assert_eq!(S::keygen(&d, &z, imp), (ek.clone(), dk.clone()), "keys, {name}");
        assert_eq!(S::encaps(&ek, &m, imp).unwrap(), (ct.clone(), k), "encaps, {name}");
        assert_eq!(S::decaps(&dk, &ct, imp).unwrap(), k, "decaps, {name}");
        assert_eq!(S::decaps(&dk, &bad_ct, imp).unwrap(), k_bad, "rejection, {name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mlkem512_implementations_agree(
        d in any::<[u8; 32]>(), z in any::<[u8; 32]>(), m in any::<[u8; 32]>(),
        noise in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        agree::<MlKem512>(d, z, m, &noise);
    }

    #[test]
    fn mlkem768_implementations_agree(
        d in any::<[u8; 32]>(), z in any::<[u8; 32]>(), m in any::<[u8; 32]>(),
        noise in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        agree::<MlKem768>(d, z, m, &noise);
    }

    #[test]
    fn mlkem1024_implementations_agree(
        d in any::<[u8; 32]>(), z in any::<[u8; 32]>(), m in any::<[u8; 32]>(),
        noise in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        agree::<MlKem1024>(d, z, m, &noise);
    }
}

/// On a CPU with AVX2 the AVX2 implementation is listed and is the default.
#[test]
fn avx2_is_listed_and_preferred_where_the_cpu_has_it() {
    let has_avx2 = core_cpu::Avx2::get().is_some() && cfg!(target_arch = "x86_64");
    listed_and_preferred_exactly_when("x86_avx2", has_avx2);
}

/// On an aarch64 CPU with NEON the NEON implementation is listed and is the default.
#[test]
fn aarch64_is_listed_and_preferred_where_the_cpu_has_neon() {
    let has_neon = core_cpu::Neon::get().is_some() && cfg!(target_arch = "aarch64");
    listed_and_preferred_exactly_when("aarch64", has_neon);
}

/// The implementation `name` is available, and the default, exactly when `usable`.
fn listed_and_preferred_exactly_when(name: &str, usable: bool) {
    let listed = MlKemImpl::available().any(|i| i.name() == name);
    assert_eq!(listed, usable, "mlkem/{name}");
    if listed {
        assert_eq!(MlKemImpl::best().name(), name);
    } else {
        println!("mlkem/{name}: not available on this CPU");
    }
}
