//! The crate's registry: every implementation it lists either runs here and agrees with
//! RustCrypto's `ml-kem`, or is reported as unavailable; the portable one is always available.

use core_lattice::{Implementation, MlDsaImpl, MlKemImpl, mldsa44, mlkem768};
use ml_kem::kem::Decapsulate;
use ml_kem::{B32, EncapsulateDeterministic, EncodedSizeUser, KemCore, MlKem768};

#[test]
fn every_registered_implementation_answers_or_is_reported() {
    let (d, z, m) = ([0x11; 32], [0x22; 32], [0x33; 32]);
    let (ref_dk, ref_ek) = MlKem768::generate_deterministic(&B32::from(d), &B32::from(z));
    let (ref_ct, ref_k) = ref_ek.encapsulate_deterministic(&B32::from(m)).unwrap();
    let mut ran = 0;
    for r in core_lattice::implementations().filter(|r| r.algorithm == "mlkem") {
        if let Some(imp) = MlKemImpl::by_name(r.implementation) {
            assert!(r.available, "{r:?} ran but is listed as unavailable");
            let dk = mlkem768::DecapsulationKey::from_seed_with_impl(&d, &z, imp);
            assert_eq!(&dk.as_bytes()[..], &ref_dk.as_bytes()[..], "{}", r.implementation);
            let (ct, k) = dk.encapsulation_key().encapsulate_deterministic(&m);
            assert_eq!(&ct.as_bytes()[..], &ref_ct[..], "{}", r.implementation);
            assert_eq!(&k.as_bytes()[..], &ref_k[..], "{}", r.implementation);
            let back = ref_dk.decapsulate(&ref_ct).unwrap();
            assert_eq!(&dk.decapsulate(&ct).as_bytes()[..], &back[..], "{}", r.implementation);
            println!("mlkem/{}: ok", r.implementation);
            ran += 1;
        } else {
            assert!(!r.available, "{r:?} is listed as available but cannot be built");
            assert_ne!(r.implementation, "portable", "portable must always exist");
            println!("mlkem/{}: not available on this CPU", r.implementation);
        }
    }
    assert!(ran >= 1, "at least the portable implementation runs");
}

#[test]
fn every_mldsa_implementation_signs_as_rustcrypto_or_is_reported() {
    use ml_dsa::{B32, MlDsa44};
    let seed = [0x44; 32];
    let rc = ml_dsa::SigningKey::<MlDsa44>::from_seed(&B32::from(seed));
    let want = rc.expanded_key().sign_deterministic(b"registry", b"").unwrap().encode();
    let mut ran = 0;
    for r in core_lattice::implementations().filter(|r| r.algorithm == "mldsa") {
        if let Some(imp) = MlDsaImpl::by_name(r.implementation) {
            assert!(r.available, "{r:?} ran but is listed as unavailable");
            let sk = mldsa44::SigningKey::from_seed_with_impl(&seed, imp);
            let sig = sk.sign_deterministic(b"registry", b"").unwrap();
            assert_eq!(&sig.as_bytes()[..], &want[..], "{}", r.implementation);
            println!("mldsa/{}: ok", r.implementation);
            ran += 1;
        } else {
            assert!(!r.available, "{r:?} is listed as available but cannot be built");
            assert_ne!(r.implementation, "portable", "portable must always exist");
            println!("mldsa/{}: not available on this CPU", r.implementation);
        }
    }
    assert!(ran >= 1, "at least the portable implementation runs");
    assert_eq!(
        core_lattice::implementations().filter(|r| r.algorithm == "mlkem").count(),
        MlKemImpl::ALL.len()
    );
}
