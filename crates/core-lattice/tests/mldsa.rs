//! ML-DSA's API beyond the known answers: every malformed key, signature and context is
//! refused with its own error (FIPS 204 §§5–7), hedged signing and the external-μ interface
//! agree with the rest, and keys round-trip through their encodings, in all three parameter
//! sets and on every implementation this CPU runs.

use core_hash::{OsRandom, RandomError, RandomSource};
use core_lattice::{Error, Implementation, MAX_CONTEXT_LEN, MlDsaImpl, mldsa44, mldsa65, mldsa87};

/// A random source that always fails.
struct Broken;

impl RandomSource for Broken {
    fn fill(&mut self, _: &mut [u8]) -> Result<(), RandomError> {
        Err(RandomError::Unavailable)
    }
}

macro_rules! suite {
    ($name:ident, $module:ident, l = $l:literal, eta_bits = $eta_bits:literal,
     c_tilde = $c_tilde:literal, z_bits = $z_bits:literal, omega = $omega:literal) => {
        mod $name {
            use super::*;
            use $module::{Signature, SigningKey, VerifyingKey};

            const HINT: usize = $c_tilde + 32 * $z_bits * $l;

            /// A key on `imp`, a message, a context and a valid signature with at least two
            /// hint bits in one row (most signatures have dozens).
            fn signed(imp: MlDsaImpl) -> (SigningKey, Vec<u8>, Signature) {
                let sk = SigningKey::from_seed_with_impl(&[7; 32], imp);
                for n in 0u8.. {
                    let msg = vec![n; 5];
                    let sig = sk.sign_deterministic(&msg, b"ctx").unwrap();
                    let counts = &sig.as_bytes()[HINT + $omega..];
                    if counts.windows(2).any(|w| w[1] >= w[0] + 2) || counts[0] >= 2 {
                        return (sk, msg, sig);
                    }
                }
                unreachable!()
            }

            /// `sig` with `edit` applied to its bytes.
            fn edited(sig: &Signature, edit: impl FnOnce(&mut [u8])) -> Signature {
                let mut bytes = sig.as_bytes().to_vec();
                edit(&mut bytes);
                Signature::from_bytes(&bytes).unwrap()
            }

            #[test]
            fn wrong_lengths_are_refused() {
                let sk = SigningKey::from_seed(&[1; 32]);
                let pk = sk.verifying_key().as_bytes().to_vec();
                let sig = sk.sign_deterministic(b"m", b"").unwrap().as_bytes().to_vec();
                let skb = sk.as_bytes().to_vec();
                for cut in [1, pk.len()] {
                    assert_eq!(
                        VerifyingKey::from_bytes(&pk[..pk.len() - cut]).err(),
                        Some(Error::InvalidLength)
                    );
                    assert_eq!(
                        Signature::from_bytes(&sig[..sig.len() - cut]).err(),
                        Some(Error::InvalidLength)
                    );
                    assert_eq!(
                        SigningKey::from_bytes(&skb[..skb.len() - cut]).err(),
                        Some(Error::InvalidLength)
                    );
                }
                let longer = [&sig[..], &[0]].concat();
                assert_eq!(Signature::from_bytes(&longer).err(), Some(Error::InvalidLength));
            }

            #[test]
            fn contexts_over_255_bytes_are_refused() {
                let sk = SigningKey::from_seed(&[2; 32]);
                let vk = sk.verifying_key();
                let long = [0u8; MAX_CONTEXT_LEN + 1];
                let ok = sk.sign_deterministic(b"m", &long[..MAX_CONTEXT_LEN]).unwrap();
                assert_eq!(vk.verify(b"m", &long[..MAX_CONTEXT_LEN], &ok), Ok(()));
                assert_eq!(sk.sign_deterministic(b"m", &long).err(), Some(Error::ContextTooLong));
                assert_eq!(sk.sign(b"m", &long, &mut OsRandom).err(), Some(Error::ContextTooLong));
                assert_eq!(vk.compute_mu(b"m", &long).err(), Some(Error::ContextTooLong));
                assert_eq!(vk.verify(b"m", &long, &ok), Err(Error::ContextTooLong));
            }

            #[test]
            fn malformed_signatures_are_refused_with_their_error() {
                for imp in MlDsaImpl::available() {
                    let (sk, msg, sig) = signed(imp);
                    let vk = sk.verifying_key();
                    // Both entry points, which must agree.
                    let verify = |s: &Signature| {
                        let verdict = vk.verify(&msg, b"ctx", s);
                        assert_eq!(vk.verify_bytes(&msg, b"ctx", s.as_bytes()), verdict);
                        verdict
                    };
                    assert_eq!(verify(&sig), Ok(()), "{}", imp.name());
                    let b = sig.as_bytes();
                    let counts: Vec<usize> = b[HINT + $omega..].iter().map(|&c| c.into()).collect();
                    let total = *counts.last().unwrap();

                    // c̃ changed, message or context changed: the commitment does not match.
                    assert_eq!(verify(&edited(&sig, |s| s[0] ^= 1)), Err(Error::InvalidSignature));
                    assert_eq!(vk.verify(b"other", b"ctx", &sig), Err(Error::InvalidSignature));
                    assert_eq!(vk.verify(&msg, b"ctX", &sig), Err(Error::InvalidSignature));
                    // A hint bit dropped (still a valid encoding): wrong w₁.
                    let dropped = edited(&sig, |s| {
                        let last = HINT + $omega + counts.len() - 1;
                        s[HINT + total - 1] = 0;
                        s[last] -= 1;
                    });
                    assert_eq!(verify(&dropped), Err(Error::InvalidSignature));

                    // z = γ₁: the first value of γ₁ − z (its low z_bits bits) set to 0.
                    let z_big = edited(&sig, |s| s[$c_tilde..$c_tilde + 2].fill(0));
                    assert_eq!(
                        verify(
                            &edited(&z_big, |s| s[$c_tilde + 2] &= !((1u8 << ($z_bits - 16)) - 1))
                        ),
                        Err(Error::SignatureOutOfRange)
                    );

                    // Hint: a count over ω, counts that decrease, indices out of order or
                    // repeated, a non-zero byte after the last index.
                    assert_eq!(
                        verify(&edited(&sig, |s| s[HINT + $omega] = $omega + 1)),
                        Err(Error::InvalidHint)
                    );
                    let last = HINT + $omega + counts.len() - 1;
                    assert_eq!(
                        verify(&edited(&sig, |s| s[last] = $omega + 1)),
                        Err(Error::InvalidHint)
                    );
                    let row = (0..counts.len())
                        .find(|&i| counts[i] >= if i == 0 { 2 } else { counts[i - 1] + 2 })
                        .unwrap();
                    let start = if row == 0 { 0 } else { counts[row - 1] };
                    if row + 1 < counts.len() {
                        let decreasing =
                            edited(&sig, |s| s[HINT + $omega + row + 1] = (start) as u8);
                        assert_eq!(verify(&decreasing), Err(Error::InvalidHint));
                    }
                    let swapped = edited(&sig, |s| s.swap(HINT + start, HINT + start + 1));
                    assert_eq!(verify(&swapped), Err(Error::InvalidHint));
                    let repeated = edited(&sig, |s| s[HINT + start + 1] = s[HINT + start]);
                    assert_eq!(verify(&repeated), Err(Error::InvalidHint));
                    if total < $omega {
                        let padded = edited(&sig, |s| s[HINT + $omega - 1] = 1);
                        assert_eq!(verify(&padded), Err(Error::InvalidHint));
                    }
                }
            }

            #[test]
            fn signing_keys_round_trip_and_inconsistent_ones_are_refused() {
                let sk = SigningKey::from_seed(&[3; 32]);
                assert_eq!(sk.seed(), Some(&[3; 32]));
                let back = SigningKey::from_bytes(sk.as_bytes()).unwrap();
                assert_eq!(back.seed(), None);
                assert_eq!(back.verifying_key(), sk.verifying_key());
                assert_eq!(
                    back.sign_deterministic(b"m", b"").unwrap(),
                    sk.sign_deterministic(b"m", b"").unwrap()
                );
                let vk = VerifyingKey::from_bytes(sk.verifying_key().as_bytes()).unwrap();
                assert_eq!(&vk, sk.verifying_key());

                let s1 = 128; // ρ, K, tr
                let t0 = s1 + 32 * $eta_bits * ($l + (vk.as_bytes().len() - 32) / 320);
                let refused = |edit: &dyn Fn(&mut [u8])| {
                    let mut bytes = sk.as_bytes().to_vec();
                    edit(&mut bytes);
                    SigningKey::from_bytes(&bytes).err()
                };
                // s₁[0]'s first value at its largest (η − value far below −η).
                let top = (1u8 << $eta_bits) - 1;
                assert_eq!(refused(&|b| b[s1] |= top), Some(Error::InvalidSigningKey));
                assert_eq!(refused(&|b| b[t0] ^= 1), Some(Error::InvalidSigningKey));
                assert_eq!(refused(&|b| b[64] ^= 1), Some(Error::InvalidSigningKey)); // tr
                assert_eq!(refused(&|b| b[0] ^= 1), Some(Error::InvalidSigningKey)); // ρ
            }

            #[test]
            fn prehashed_signatures_verify_only_with_their_hash() {
                use core_lattice::PreHash::*;
                let sk = SigningKey::from_seed(&[4; 32]);
                let vk = sk.verifying_key();
                let hashes = [Sha256, Sha384, Sha512, Sha3_256, Sha3_512, Shake128, Shake256];
                for (i, &hash) in hashes.iter().enumerate() {
                    let sig = sk.sign_prehashed(hash, b"message", b"c", &mut OsRandom).unwrap();
                    assert_eq!(
                        vk.verify_prehashed(hash, b"message", b"c", &sig),
                        Ok(()),
                        "{hash:?}"
                    );
                    let other = hashes[(i + 1) % hashes.len()];
                    assert_eq!(
                        vk.verify_prehashed(other, b"message", b"c", &sig),
                        Err(Error::InvalidSignature)
                    );
                    assert_eq!(vk.verify(b"message", b"c", &sig), Err(Error::InvalidSignature));
                    assert_eq!(
                        vk.verify_prehashed(hash, b"massage", b"c", &sig),
                        Err(Error::InvalidSignature)
                    );
                }
                let pure = sk.sign_deterministic(b"message", b"c").unwrap();
                assert_eq!(
                    vk.verify_prehashed(Sha256, b"message", b"c", &pure),
                    Err(Error::InvalidSignature)
                );
                let long = [0u8; MAX_CONTEXT_LEN + 1];
                assert_eq!(
                    sk.sign_prehashed(Sha256, b"m", &long, &mut OsRandom).err(),
                    Some(Error::ContextTooLong)
                );
            }

            #[test]
            fn hedged_and_external_mu_signatures_verify() {
                let sk = SigningKey::generate(&mut OsRandom).unwrap();
                let vk = sk.verifying_key();
                let a = sk.sign(b"message", b"", &mut OsRandom).unwrap();
                let b = sk.sign(b"message", b"", &mut OsRandom).unwrap();
                assert_ne!(a, b, "hedged signatures differ");
                assert_eq!(vk.verify(b"message", b"", &a), Ok(()));
                assert_eq!(vk.verify(b"message", b"", &b), Ok(()));
                let mu = vk.compute_mu(b"message", b"c").unwrap();
                let c = sk.sign_mu(&mu, &mut OsRandom).unwrap();
                assert_eq!(vk.verify(b"message", b"c", &c), Ok(()));
                assert_eq!(vk.verify_mu(&mu, &c), Ok(()));
                assert_eq!(
                    sk.sign_mu_with_randomness(&mu, &[0; 32]),
                    sk.sign_deterministic(b"message", b"c").unwrap()
                );
                assert_eq!(sk.sign(b"m", b"", &mut Broken).err(), Some(Error::RandomSource));
                assert_eq!(sk.sign_mu(&mu, &mut Broken).err(), Some(Error::RandomSource));
                assert_eq!(SigningKey::generate(&mut Broken).err(), Some(Error::RandomSource));
            }
        }
    };
}

suite!(mldsa44_api, mldsa44, l = 4, eta_bits = 3, c_tilde = 32, z_bits = 18, omega = 80);
suite!(mldsa65_api, mldsa65, l = 5, eta_bits = 4, c_tilde = 48, z_bits = 20, omega = 55);
suite!(mldsa87_api, mldsa87, l = 7, eta_bits = 3, c_tilde = 64, z_bits = 20, omega = 75);
