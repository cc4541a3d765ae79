//! Hashes: the input's first byte picks an algorithm and the second how to cut the rest into
//! pieces; every implementation this CPU runs must give, one-shot and piece by piece, the
//! digest RustCrypto gives (`sha1`, `sha2`, `sha3`), and SHAKE must read the same in one
//! squeeze or many.
#![no_main]

use core_hash::{
    Hash, Implementation, KeccakImpl, Sha1, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Sha224, Sha256,
    Sha384, Sha512, Sha512_256, Shake128, Shake256,
};
use halite_fuzz::{Input, every, pieces};
use libfuzzer_sys::fuzz_target;
use sha3::digest::{Digest, ExtendableOutput, Update, XofReader};

/// Checks `H` on `data` against the reference digest `want`.
fn check<H: Hash>(data: &[u8], seed: u8, want: &[u8]) {
    for imp in every::<H::Impl>() {
        let mut h = H::with_impl(imp);
        h.update(data);
        assert_eq!(h.finalize().as_ref(), want, "one-shot, {}", imp.name());
        let mut h = H::with_impl(imp);
        for piece in pieces(data, seed) {
            h.update(piece);
        }
        assert_eq!(h.finalize().as_ref(), want, "in pieces, {}", imp.name());
    }
}

/// RustCrypto's digest of `data` with `D`.
fn reference<D: Digest>(data: &[u8]) -> Vec<u8> {
    D::digest(data).to_vec()
}

/// SHAKE on every Keccak implementation, in pieces and read in pieces, against RustCrypto.
fn check_shake<X: Default + Update + ExtendableOutput>(
    data: &[u8],
    seed: u8,
    ours: impl Fn(KeccakImpl, &[&[u8]], &[usize]) -> Vec<u8>,
) {
    let reads: Vec<usize> = pieces(&[0; 700], seed).iter().map(|p| p.len()).collect();
    let total: usize = reads.iter().sum();
    let mut want = vec![0; total];
    let mut x = X::default();
    x.update(data);
    x.finalize_xof().read(&mut want);
    for imp in every::<KeccakImpl>() {
        let got = ours(imp, &pieces(data, seed), &reads);
        assert_eq!(got, want, "shake, {}", imp.name());
    }
}

/// Our SHAKE over `data` in `pieces`, squeezed in reads of the given lengths.
macro_rules! shake {
    ($ty:ty) => {
        |imp: KeccakImpl, data: &[&[u8]], reads: &[usize]| {
            let mut x = <$ty>::with_impl(imp);
            for piece in data {
                x.update(piece);
            }
            let mut reader = x.finalize_xof();
            let mut out = Vec::new();
            for &n in reads {
                let mut chunk = vec![0; n];
                reader.read(&mut chunk);
                out.extend_from_slice(&chunk);
            }
            out
        }
    };
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let which = input.byte();
    let seed = input.byte();
    let data = input.rest();
    match which % 12 {
        0 => check::<Sha1>(data, seed, &reference::<sha1::Sha1>(data)),
        1 => check::<Sha224>(data, seed, &reference::<sha2::Sha224>(data)),
        2 => check::<Sha256>(data, seed, &reference::<sha2::Sha256>(data)),
        3 => check::<Sha384>(data, seed, &reference::<sha2::Sha384>(data)),
        4 => check::<Sha512>(data, seed, &reference::<sha2::Sha512>(data)),
        5 => check::<Sha512_256>(data, seed, &reference::<sha2::Sha512_256>(data)),
        6 => check::<Sha3_224>(data, seed, &reference::<sha3::Sha3_224>(data)),
        7 => check::<Sha3_256>(data, seed, &reference::<sha3::Sha3_256>(data)),
        8 => check::<Sha3_384>(data, seed, &reference::<sha3::Sha3_384>(data)),
        9 => check::<Sha3_512>(data, seed, &reference::<sha3::Sha3_512>(data)),
        10 => check_shake::<sha3::Shake128>(data, seed, shake!(Shake128)),
        _ => check_shake::<sha3::Shake256>(data, seed, shake!(Shake256)),
    }
});
