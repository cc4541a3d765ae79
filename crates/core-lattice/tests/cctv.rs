//! The accumulated pq-crystals vectors of C2SP CCTV (c2sp.org/CCTV/ML-KEM): a SHAKE-128 stream
//! with empty input draws, for each test, d, z, m and a random (invalid) ciphertext; a running
//! SHAKE-128 absorbs ek, dk, the ciphertext of m and its key (checked equal to the key
//! decapsulation gives), and the key implicit rejection gives for the random ciphertext. The
//! first 32 bytes of its output after 10 000 (and 1 000 000) tests are published. Also CCTV's
//! "unlucky" matrix-sampling and `strcmp` vectors (files in `data/cctv/`).
//!
//! CCTV publishes two sets of outputs: one for the FIPS 203 initial public draft (with the Â
//! index order of the final standard), whose key generation hashes `d` alone where FIPS 203
//! hashes `d ‖ k`, and one for the final standard. Both are checked: the draft set through a
//! hidden draft key generation (everything after key generation is FIPS 203's), the final set
//! through the public one.

mod common;

use common::{MlKem512, MlKem768, MlKem1024, Set};
use core_hash::Shake128;
use core_lattice::{Implementation, MlKemImpl};
use hex_literal::hex;

fn accumulate<S: Set>(tests: usize, imp: MlKemImpl, draft: bool) -> [u8; 32] {
    let mut rng = Shake128::new().finalize_xof();
    let mut acc = Shake128::new();
    let mut ct_random = vec![0u8; S::CT_LEN];
    for _ in 0..tests {
        let (mut d, mut z, mut m) = ([0u8; 32], [0u8; 32], [0u8; 32]);
        rng.read(&mut d);
        rng.read(&mut z);
        let (ek, dk) = if draft { S::keygen_draft(&d, &z, imp) } else { S::keygen(&d, &z, imp) };
        acc.update(&ek);
        acc.update(&dk);
        rng.read(&mut m);
        let (ct, k) = S::encaps(&ek, &m, imp).unwrap();
        acc.update(&ct);
        acc.update(&k);
        assert_eq!(S::decaps(&dk, &ct, imp).unwrap(), k, "{}", S::NAME);
        rng.read(&mut ct_random);
        acc.update(&S::decaps(&dk, &ct_random, imp).unwrap());
    }
    let mut out = [0u8; 32];
    acc.finalize_xof().read(&mut out);
    out
}

#[test]
fn rng_stream_starts_as_published() {
    let mut first = [0u8; 16];
    Shake128::new().finalize_xof().read(&mut first);
    assert_eq!(first, hex!("7f9c2ba4e88f827d616045507605853e"));
}

/// The `name = hex` lines of a CCTV vector file.
fn field(file: &str, name: &str) -> Vec<u8> {
    let line = file
        .lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(" = ")))
        .unwrap_or_else(|| panic!("no {name}"));
    (0..line.len()).step_by(2).map(|i| u8::from_str_radix(&line[i..i + 2], 16).unwrap()).collect()
}

/// CCTV's unlucky vector: `d` gives a ρ whose matrix sampling reads more than 575 bytes of
/// SHAKE-128 (which happens with probability 2^−38 otherwise).
fn unlucky<S: Set>(file: &str) {
    let d: [u8; 32] = field(file, "d").try_into().unwrap();
    let z: [u8; 32] = field(file, "z").try_into().unwrap();
    let m: [u8; 32] = field(file, "m").try_into().unwrap();
    for imp in MlKemImpl::available() {
        let (ek, dk) = S::keygen_draft(&d, &z, imp);
        assert_eq!(ek, field(file, "ek"), "{} ek on {}", S::NAME, imp.name());
        assert_eq!(dk, field(file, "dk"), "{} dk on {}", S::NAME, imp.name());
        let (c, k) = S::encaps(&ek, &m, imp).unwrap();
        assert_eq!(c, field(file, "c"), "{} c on {}", S::NAME, imp.name());
        assert_eq!(k.to_vec(), field(file, "K"), "{} K on {}", S::NAME, imp.name());
        assert_eq!(S::decaps(&dk, &c, imp).unwrap(), k, "{} on {}", S::NAME, imp.name());
    }
}

#[test]
fn unlucky_matrix_sampling_vectors() {
    unlucky::<MlKem512>(include_str!("data/cctv/unluckysample/ML-KEM-512.txt"));
    unlucky::<MlKem768>(include_str!("data/cctv/unluckysample/ML-KEM-768.txt"));
    unlucky::<MlKem1024>(include_str!("data/cctv/unluckysample/ML-KEM-1024.txt"));
}

/// CCTV's `strcmp` vectors: a ciphertext whose re-encryption differs from it only after a
/// zero byte must still be rejected, giving the implicit-rejection key K.
fn strcmp<S: Set>(file: &str) {
    for imp in MlKemImpl::available() {
        let k = S::decaps(&field(file, "dk"), &field(file, "c"), imp).unwrap();
        assert_eq!(k.to_vec(), field(file, "K"), "{} on {}", S::NAME, imp.name());
    }
}

#[test]
fn strcmp_vectors_are_rejected() {
    strcmp::<MlKem512>(include_str!("data/cctv/strcmp/ML-KEM-512.txt"));
    strcmp::<MlKem768>(include_str!("data/cctv/strcmp/ML-KEM-768.txt"));
    strcmp::<MlKem1024>(include_str!("data/cctv/strcmp/ML-KEM-1024.txt"));
}

/// Checks the draft-era output (`draft`) and the final standard's (`fips203`).
fn check<S: Set>(tests: usize, draft: [u8; 32], fips203: [u8; 32]) {
    for imp in MlKemImpl::available() {
        let got = accumulate::<S>(tests, imp, true);
        assert_eq!(got, draft, "{} (draft key generation) on {}", S::NAME, imp.name());
        let got = accumulate::<S>(tests, imp, false);
        assert_eq!(got, fips203, "{} (FIPS 203) on {}", S::NAME, imp.name());
    }
}

#[test]
fn accumulated_10k_mlkem512() {
    check::<MlKem512>(
        10_000,
        hex!("845913ea5a308b803c764a9ed8e9d814ca1fd9c82ba43c7b1e64b79c7a6ec8e4"),
        hex!("705dcffc87f4e67e35a09dcaa31772e86f3341bd3ccf1e78a5fef99ae6a35a13"),
    );
}

#[test]
fn accumulated_10k_mlkem768() {
    check::<MlKem768>(
        10_000,
        hex!("f7db260e1137a742e05fe0db9525012812b004d29040a5b606aad3d134b548d3"),
        hex!("f959d18d3d1180121433bf0e05f11e7908cf9d03edc150b2b07cb90bef5bc1c1"),
    );
}

#[test]
fn accumulated_10k_mlkem1024() {
    check::<MlKem1024>(
        10_000,
        hex!("47ac888fe61544efc0518f46094b4f8a600965fc89822acb06dc7169d24f3543"),
        hex!("e3bf82b013307b2e9d47dde791ff6dfc82e694e6382404abdb948b908b75bad5"),
    );
}

#[test]
#[ignore = "one million tests per parameter set: minutes"]
fn accumulated_1m() {
    check::<MlKem512>(
        1_000_000,
        hex!("578eeaa1156848cbf7a15bafef963b4ccabe3308ddfb7dbdd20ad965f634e81d"),
        hex!("21dd330d4355f2ae2876b9fa2b9de62ecaf76aca1d598de8db2b467d36e36a6a"),
    );
    check::<MlKem768>(
        1_000_000,
        hex!("70090cc5842aad0ec43d5042c783fae9bc320c047b5dafcb6e134821db02384d"),
        hex!("3b108396a277f2952ff3243a985c9709bcb95788c39b7b36a2c4e19d1a41e51e"),
    );
    check::<MlKem1024>(
        1_000_000,
        hex!("7ccc6d803739d3db3c5ce39c7130f459db32a199c6605e3be210e5a89d4c4b95"),
        hex!("6377c4f0ecfdb32e63f7b58227960828784fe0b3e0e5e5e9f77be300f003512a"),
    );
}
