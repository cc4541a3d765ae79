//! RSA verification against ring: PKCS#1 v1.5 (SHA-256/384/512) and PSS (salt as long as the
//! hash, as ring requires) under the checked-in 2048-, 3072- and 4096-bit test keys with
//! e = 3 and e = 65537, the same verdict on the implementation the input picks (one per input
//! keeps the rate up; the fuzzer reaches each). So that valid signatures are reached, the
//! input names a key, a scheme, a mode, an implementation and a message: our signature as it
//! is (which ring must accept, and for PKCS#1 v1.5, which is deterministic, match byte for
//! byte where ring takes the key pair: e = 65537), with one bit flipped in the signature or
//! the message, or a signature from the input.
#![no_main]

use std::sync::OnceLock;

use core_rsa::{HashAlg, MontImpl, PrivateKey, Pss, PublicKey};
use halite_fuzz::{FixedRandom, Input, every, flip};
use libfuzzer_sys::fuzz_target;
use ring::rand::SystemRandom;
use ring::signature::{self, RsaKeyPair, RsaPublicKeyComponents};

macro_rules! data {
    ($name:literal, $form:literal) => {
        include_bytes!(concat!("../../crates/core-rsa/tests/data/", $name, $form))
    };
}

/// The test keys: PKCS#8 and SubjectPublicKeyInfo.
const KEYS: [(&[u8], &[u8]); 6] = [
    (data!("rsa2048_e65537", ".pkcs8.der"), data!("rsa2048_e65537", ".spki.der")),
    (data!("rsa2048_e3", ".pkcs8.der"), data!("rsa2048_e3", ".spki.der")),
    (data!("rsa3072_e65537", ".pkcs8.der"), data!("rsa3072_e65537", ".spki.der")),
    (data!("rsa3072_e3", ".pkcs8.der"), data!("rsa3072_e3", ".spki.der")),
    (data!("rsa4096_e65537", ".pkcs8.der"), data!("rsa4096_e65537", ".spki.der")),
    (data!("rsa4096_e3", ".pkcs8.der"), data!("rsa4096_e3", ".spki.der")),
];

/// One test key: ours on each implementation (loaded when first picked: loading checks the
/// key, which is slow under the fuzzer's instrumentation), ring's, and its public numbers.
struct Key {
    ours: Vec<(MontImpl, OnceLock<PrivateKey>)>,
    der: &'static [u8],
    /// ring refuses key pairs with e < 65537, so only those have one.
    ring: Option<RsaKeyPair>,
    n: Vec<u8>,
    e: Vec<u8>,
}

impl Key {
    fn ours(&self, pick: usize) -> &PrivateKey {
        let (imp, key) = &self.ours[pick % self.ours.len()];
        key.get_or_init(|| PrivateKey::from_pkcs8_der_with_impl(self.der, *imp).expect("parses"))
    }
}

fn keys() -> &'static [Key] {
    static ALL: OnceLock<Vec<Key>> = OnceLock::new();
    ALL.get_or_init(|| {
        KEYS.iter()
            .map(|&(der, spki)| {
                let ours = every::<MontImpl>().into_iter().map(|i| (i, OnceLock::new())).collect();
                let public = PublicKey::from_spki_der(spki).expect("parses");
                let mut n = vec![0u8; public.modulus_len()];
                public.write_modulus(&mut n).expect("fits");
                let e = public.exponent().to_be_bytes();
                let e = e[e.iter().position(|&b| b != 0).unwrap_or(7)..].to_vec();
                let ring = RsaKeyPair::from_pkcs8(der).ok();
                assert!(ring.is_some() || e == [3], "ring refuses the test key");
                Key { ours, der, ring, n, e }
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let key = &keys()[usize::from(input.byte()) % KEYS.len()];
    let scheme = input.byte() % 6;
    let mode = input.byte() % 4;
    let pick = input.byte();
    let at = usize::from(u16::from_le_bytes(input.array()));
    let seed = u64::from_le_bytes(input.array());
    let msg_len = usize::from(input.byte());
    let mut msg = input.bytes(msg_len).to_vec();
    let (hash, pkcs1, ring_alg): (_, _, &'static signature::RsaParameters) = match scheme {
        0 => (HashAlg::Sha256, true, &signature::RSA_PKCS1_2048_8192_SHA256),
        1 => (HashAlg::Sha384, true, &signature::RSA_PKCS1_2048_8192_SHA384),
        2 => (HashAlg::Sha512, true, &signature::RSA_PKCS1_2048_8192_SHA512),
        3 => (HashAlg::Sha256, false, &signature::RSA_PSS_2048_8192_SHA256),
        4 => (HashAlg::Sha384, false, &signature::RSA_PSS_2048_8192_SHA384),
        _ => (HashAlg::Sha512, false, &signature::RSA_PSS_2048_8192_SHA512),
    };
    let pss = Pss::with_salt_len(hash, hash.output_len());
    let k = key.n.len();
    let mut sig = vec![0u8; k];
    let mut rng = FixedRandom::new(seed);
    let signer = key.ours(usize::from(pick));
    if pkcs1 {
        signer.sign_pkcs1v15(hash, &msg, &mut rng, &mut sig).expect("signs");
        if let (0, Some(ring)) = (mode, &key.ring) {
            let encoding: &'static dyn signature::RsaEncoding = match scheme {
                0 => &signature::RSA_PKCS1_SHA256,
                1 => &signature::RSA_PKCS1_SHA384,
                _ => &signature::RSA_PKCS1_SHA512,
            };
            let mut theirs = vec![0u8; k];
            ring.sign(encoding, &SystemRandom::new(), &msg, &mut theirs).expect("ring signs");
            assert_eq!(sig, theirs, "PKCS#1 v1.5 signature differs from ring's");
        }
    } else {
        signer.sign_pss(pss, &msg, &mut rng, &mut sig).expect("signs");
    }
    match mode {
        0 => {}
        1 => flip(&mut sig, at),
        2 => flip(&mut msg, at),
        _ => sig = input.rest().to_vec(),
    }
    let components = RsaPublicKeyComponents { n: &key.n, e: &key.e };
    let ring_ok = components.verify(ring_alg, &msg, &sig).is_ok();
    if mode == 0 {
        assert!(ring_ok, "ring refused our signature");
    }
    let public = signer.public_key();
    let ok = if pkcs1 {
        public.verify_pkcs1v15(hash, &msg, &sig).is_ok()
    } else {
        let any_salt = public.verify_pss(Pss::new(hash), &msg, &sig).is_ok();
        let exact = public.verify_pss(pss, &msg, &sig).is_ok();
        assert!(any_salt || !exact, "accepted with a fixed salt length, not with any");
        exact
    };
    assert_eq!(ok, ring_ok, "verdicts differ on {:?}", signer.implementation());
});
