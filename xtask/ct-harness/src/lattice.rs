//! core-lattice under secret seeds: on every ML-KEM implementation, ML-KEM-768 key generation
//! from secret `d` and `z`, encapsulation with a secret `m` to the resulting (public) key, and
//! decapsulation with the secret parts of the decapsulation key (ŝ and z) of the valid
//! ciphertext and of a modified one (implicit rejection). The encapsulation key and the
//! ciphertext are public once made, so they are declassified before they are compared or fed
//! to the next step; the library itself declares ρ public (`core_hash::declassify`), since
//! the matrix sampling it seeds is rejection sampling over public data.
//!
//! ML-DSA-44 and -65 (η = 2 and 4) on every ML-DSA implementation: key generation from a
//! secret ξ, then signing with the key as a holder stores it (K, s₁, s₂ and t₀ secret; ρ and
//! tr public), deterministically and with secret randomness, and with the key expanded
//! (`ExpandedSigningKey`), on several messages so that rejected candidates are certainly
//! among the runs. The library declassifies what FIPS 204 makes public or allows to leak: ρ,
//! the positions `ExpandS` rejects, whether each candidate was rejected, which bytes
//! `SampleInBall` rejects, and the accepted hint. A candidate's c̃ and c stay secret (a rejected
//! one is never published), so a branch or memory index on them is reported: the earlier
//! signing (a variable-time `SampleInBall`, products that indexed by c's positions) gave 149
//! reports here once its declassification of c̃ was removed.

use core_lattice::Implementation as _;
use core_lattice::mlkem768::{CIPHERTEXT_LEN, Ciphertext, DECAPSULATION_KEY_LEN, DecapsulationKey};
use core_lattice::{MlDsaImpl, MlKemImpl};

use crate::{Tally, every, secret_array, valgrind};

/// Bytes of the encoded ŝ at the start of an ML-KEM-768 decapsulation key (384·k).
const S_HAT_LEN: usize = 384 * 3;

/// Defines `$module(t, imp)`: ML-DSA key generation and signing of one parameter set.
macro_rules! mldsa {
    ($module:ident, $name:literal) => {
        fn $module(t: &mut Tally, imp: MlDsaImpl) {
            let xi: [u8; 32] = secret_array(70);
            let sk = core_lattice::$module::SigningKey::from_seed_with_impl(&xi, imp);
            t.agree(concat!($name, " keygen pk"), sk.verifying_key().as_bytes());
            // The public key (and tr) rebuilt from the now public bytes.
            let Ok(vk) =
                core_lattice::$module::VerifyingKey::from_bytes(sk.verifying_key().as_bytes())
            else {
                t.expect(concat!($name, " public key"), false);
                return;
            };

            let mut bytes = *sk.as_bytes();
            valgrind::declassify(&bytes);
            valgrind::classify(&mut bytes[32..64]); // K (ρ and tr before and after are public)
            valgrind::classify(&mut bytes[128..]); // s₁, s₂, t₀
            let Ok(mut held) = core_lattice::$module::SigningKey::from_bytes(&bytes) else {
                t.expect(concat!($name, " signing key"), false);
                return;
            };
            held.set_implementation(imp);
            let sig = held.sign_deterministic(b"message", b"context");
            let Ok(sig) = sig else {
                t.expect(concat!($name, " sign"), false);
                return;
            };
            t.agree(concat!($name, " sign deterministic"), sig.as_bytes());
            t.expect(concat!($name, " verifies"), vk.verify(b"message", b"context", &sig).is_ok());

            let rnd: [u8; 32] = secret_array(71);
            let Ok(mu) = vk.compute_mu(b"message", b"") else {
                t.expect(concat!($name, " mu"), false);
                return;
            };
            let hedged = held.sign_mu_with_randomness(&mu, &rnd);
            t.agree(concat!($name, " sign hedged"), hedged.as_bytes());
            t.expect(concat!($name, " hedged verifies"), vk.verify_mu(&mu, &hedged).is_ok());

            // The same key expanded for repeated signing (Â and NTT(s₁), NTT(s₂), NTT(t₀)
            // held).
            let expanded = core_lattice::$module::ExpandedSigningKey::new(held);
            let again = expanded.sign_mu_with_randomness(&mu, &rnd);
            t.agree(concat!($name, " sign expanded"), again.as_bytes());
            t.expect(concat!($name, " expanded signs as the key"), again == hedged);

            // More messages: a signature rejects 3.25 candidates on average (ML-DSA-44; 4.1
            // for -65), and eight all accepting their first would take odds below 10^−5.
            for m in 0..8u8 {
                let sig = expanded.sign_deterministic(&[m], b"");
                let Ok(sig) = sig else {
                    t.expect(concat!($name, " sign"), false);
                    return;
                };
                t.agree(&format!(concat!($name, " sign message {}"), m), sig.as_bytes());
                t.expect(concat!($name, " verifies"), vk.verify(&[m], b"", &sig).is_ok());
            }
        }
    };
}

mldsa!(mldsa44, "mldsa44");
mldsa!(mldsa65, "mldsa65");
/// Every check in this module.
pub(crate) fn run(t: &mut Tally) {
    for imp in every::<MlKemImpl>() {
        t.cover("mlkem", imp.name());
        mlkem768(t, imp);
    }
    for imp in every::<MlDsaImpl>() {
        t.cover("mldsa", imp.name());
        mldsa44(t, imp);
        mldsa65(t, imp);
    }
}

fn mlkem768(t: &mut Tally, imp: MlKemImpl) {
    let d: [u8; 32] = secret_array(60);
    let z: [u8; 32] = secret_array(61);
    let dk = DecapsulationKey::from_seed_with_impl(&d, &z, imp);
    let ek = dk.encapsulation_key();
    // `agree` declassifies the key where it lies: it is public from here on.
    t.agree("mlkem768 keygen ek", ek.as_bytes());

    let m: [u8; 32] = secret_array(62);
    let (ct, sent) = ek.encapsulate_deterministic(&m);
    t.agree("mlkem768 encaps ct", ct.as_bytes());
    t.agree("mlkem768 encaps key", sent.as_bytes());

    // The decapsulation key as a holder stores it: ŝ and z secret, the encapsulation key and
    // its hash public.
    let mut bytes: [u8; DECAPSULATION_KEY_LEN] = *dk.as_bytes();
    valgrind::declassify(&bytes);
    valgrind::classify(&mut bytes[..S_HAT_LEN]);
    valgrind::classify(&mut bytes[DECAPSULATION_KEY_LEN - 32..]);
    let Ok(mut held) = DecapsulationKey::from_bytes(&bytes) else {
        t.expect("mlkem768 decapsulation key", false);
        return;
    };
    held.set_implementation(imp);

    let received = held.decapsulate(&ct);
    t.agree("mlkem768 decaps key", received.as_bytes());
    t.expect("mlkem768 decaps agrees with encaps", received == sent);

    let mut modified: [u8; CIPHERTEXT_LEN] = *ct.as_bytes();
    modified[CIPHERTEXT_LEN / 2] ^= 1;
    let Ok(modified) = Ciphertext::from_bytes(&modified) else {
        t.expect("mlkem768 ciphertext", false);
        return;
    };
    let rejected = held.decapsulate(&modified);
    t.agree("mlkem768 decaps implicit rejection", rejected.as_bytes());
    t.expect("mlkem768 implicit rejection differs", rejected != sent);
}
