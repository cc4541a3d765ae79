//! What the ML-KEM test suites share: one macro that gives each parameter set the same
//! operations under the same names, so a suite is written once and run on all three.

#![allow(dead_code, unreachable_pub)]

use core_lattice::{Error, Implementation, MlKemImpl, SharedSecret};

/// The operations of one parameter set, by name, over byte vectors.
pub trait Set {
    const NAME: &'static str;
    const K: usize;
    const EK_LEN: usize;
    const DK_LEN: usize;
    const CT_LEN: usize;
    /// (ek, dk) from the seeds.
    fn keygen(d: &[u8; 32], z: &[u8; 32], imp: MlKemImpl) -> (Vec<u8>, Vec<u8>);
    /// (ek, dk) from the seeds as the FIPS 203 draft made them (G(d) without k).
    fn keygen_draft(d: &[u8; 32], z: &[u8; 32], imp: MlKemImpl) -> (Vec<u8>, Vec<u8>);
    /// (ct, key) for `m` under `ek`.
    fn encaps(ek: &[u8], m: &[u8; 32], imp: MlKemImpl) -> Result<(Vec<u8>, [u8; 32]), Error>;
    /// The key in `ct` under `dk`.
    fn decaps(dk: &[u8], ct: &[u8], imp: MlKemImpl) -> Result<[u8; 32], Error>;
}

fn key(s: &SharedSecret) -> [u8; 32] {
    *s.as_bytes()
}

macro_rules! set {
    ($ty:ident, $module:ident, $name:literal, $k:literal) => {
        pub struct $ty;
        impl Set for $ty {
            const NAME: &'static str = $name;
            const K: usize = $k;
            const EK_LEN: usize = core_lattice::$module::ENCAPSULATION_KEY_LEN;
            const DK_LEN: usize = core_lattice::$module::DECAPSULATION_KEY_LEN;
            const CT_LEN: usize = core_lattice::$module::CIPHERTEXT_LEN;
            fn keygen(d: &[u8; 32], z: &[u8; 32], imp: MlKemImpl) -> (Vec<u8>, Vec<u8>) {
                let dk = core_lattice::$module::DecapsulationKey::from_seed_with_impl(d, z, imp);
                (dk.encapsulation_key().as_bytes().to_vec(), dk.as_bytes().to_vec())
            }
            fn keygen_draft(d: &[u8; 32], z: &[u8; 32], imp: MlKemImpl) -> (Vec<u8>, Vec<u8>) {
                let dk =
                    core_lattice::$module::DecapsulationKey::from_seed_draft_for_tests(d, z, imp);
                (dk.encapsulation_key().as_bytes().to_vec(), dk.as_bytes().to_vec())
            }
            fn encaps(
                ek: &[u8],
                m: &[u8; 32],
                imp: MlKemImpl,
            ) -> Result<(Vec<u8>, [u8; 32]), Error> {
                let mut ek = core_lattice::$module::EncapsulationKey::from_bytes(ek)?;
                ek.set_implementation(imp);
                let (ct, k) = ek.encapsulate_deterministic(m);
                Ok((ct.as_bytes().to_vec(), key(&k)))
            }
            fn decaps(dk: &[u8], ct: &[u8], imp: MlKemImpl) -> Result<[u8; 32], Error> {
                let mut dk = core_lattice::$module::DecapsulationKey::from_bytes(dk)?;
                dk.set_implementation(imp);
                let ct = core_lattice::$module::Ciphertext::from_bytes(ct)?;
                Ok(key(&dk.decapsulate(&ct)))
            }
        }
    };
}

set!(MlKem512, mlkem512, "ML-KEM-512", 2);
set!(MlKem768, mlkem768, "ML-KEM-768", 3);
set!(MlKem1024, mlkem1024, "ML-KEM-1024", 4);

/// What a reference library's run of key generation, encapsulation and two decapsulations gives.
pub struct Run {
    pub ek: Vec<u8>,
    pub dk: Vec<u8>,
    pub ct: Vec<u8>,
    /// The key of `m`.
    pub k: Vec<u8>,
    /// The key of the invalid ciphertext.
    pub k_bad: Vec<u8>,
}

/// Checks every implementation this CPU runs against `reference`'s run, byte for byte: keys
/// from `d` and `z`, encapsulation of `m`, decapsulation of that ciphertext and of `noise`
/// repeated to a ciphertext's length (implicit rejection). `reference` gets the seeds, the
/// message and the invalid ciphertext.
pub fn agree_with<S: Set>(
    library: &str,
    d: [u8; 32],
    z: [u8; 32],
    m: [u8; 32],
    noise: &[u8],
    reference: impl FnOnce(&[u8; 32], &[u8; 32], &[u8; 32], &[u8]) -> Run,
) {
    let bad_ct: Vec<u8> = noise.iter().cycle().take(S::CT_LEN).copied().collect();
    let Run { ek, dk, ct, k, k_bad } = reference(&d, &z, &m, &bad_ct);
    for imp in MlKemImpl::available() {
        let name = format!("{} on {} against {library}", S::NAME, imp.name());
        let (our_ek, our_dk) = S::keygen(&d, &z, imp);
        assert_eq!(our_ek, ek, "ek, {name}");
        assert_eq!(our_dk, dk, "dk, {name}");
        let (our_ct, our_k) = S::encaps(&ek, &m, imp).unwrap();
        assert_eq!(our_ct, ct, "ct, {name}");
        assert_eq!(our_k.to_vec(), k, "key, {name}");
        assert_eq!(S::decaps(&dk, &ct, imp).unwrap().to_vec(), k, "decapsulated key, {name}");
        assert_eq!(S::decaps(&dk, &bad_ct, imp).unwrap().to_vec(), k_bad, "rejection, {name}");
    }
}
