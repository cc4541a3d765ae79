//! The crate's registry: every implementation it lists either runs here and gives the right
//! answer, or is reported as unavailable; the portable ones are always available.

use core_hash::{Hash, Implementation, Sha1, Sha3_256, Sha256, Sha512};
use hex_literal::hex;

/// The "abc" digest of `algorithm` on the implementation called `name`.
fn abc(algorithm: &str, name: &str) -> Option<Vec<u8>> {
    fn on<H: Hash>(name: &str) -> Option<Vec<u8>> {
        let imp = H::Impl::by_name(name)?;
        let mut h = H::with_impl(imp);
        h.update(b"abc");
        Some(h.finalize().as_ref().to_vec())
    }
    match algorithm {
        "sha1" => on::<Sha1>(name),
        "sha256" => on::<Sha256>(name),
        "sha256-mb" => {
            let imp = core_hash::Sha256MbImpl::by_name(name)?;
            let mut out = [[0u8; 32]];
            imp.digest_many(&[b"abc"], &mut out).ok()?;
            Some(out[0].to_vec())
        }
        "sha512" => on::<Sha512>(name),
        "sha3" => on::<Sha3_256>(name),
        #[cfg(feature = "legacy")]
        "md5" => on::<core_hash::Md5>(name),
        _ => None,
    }
}

#[test]
fn every_registered_implementation_answers_or_is_reported() {
    let want = |algorithm: &str| -> Vec<u8> {
        match algorithm {
            "sha1" => hex!("a9993e364706816aba3e25717850c26c9cd0d89d").to_vec(),
            "sha256" | "sha256-mb" => {
                hex!("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad").to_vec()
            }
            "sha512" => hex!(
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
            )
            .to_vec(),
            "sha3" => {
                hex!("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532").to_vec()
            }
            "md5" => hex!("900150983cd24fb0d6963f7d28e17f72").to_vec(),
            other => panic!("registry lists {other} but this test has no vector for it"),
        }
    };
    let mut ran = 0;
    for r in core_hash::implementations() {
        if let Some(got) = abc(r.algorithm, r.implementation) {
            assert!(r.available, "{r:?} ran but is listed as unavailable");
            assert_eq!(got, want(r.algorithm), "{}/{}", r.algorithm, r.implementation);
            println!("{}/{}: ok", r.algorithm, r.implementation);
            ran += 1;
        } else {
            assert!(!r.available, "{r:?} is listed as available but cannot be built");
            assert_ne!(r.implementation, "portable", "portable must always exist");
            println!("{}/{}: not available on this CPU", r.algorithm, r.implementation);
        }
    }
    assert!(ran >= 3, "at least the portable implementations run");
}
