//! Every library computes the same thing: the agreement check `speed` runs before measuring,
//! as a test, over every operation in the registry, plus the peer adapters waiting for their
//! Halite counterpart (HMAC).

use bench::check::{EDGE_LENGTHS, check_in_process, check_openssl, hex};
use bench::ops::{self, Runner, message};
use bench::{Library, registry};

/// The libraries that can run here (graviola needs certain CPU extensions).
fn usable() -> Vec<Library> {
    Library::ALL
        .into_iter()
        .filter(|l| match l.availability() {
            Ok(()) => true,
            Err(why) => {
                eprintln!("skipping {l}: {why}");
                false
            }
        })
        .collect()
}

#[test]
fn every_library_and_implementation_agrees_with_halite() {
    let libraries = usable();
    // Up to 64 KiB: every multi-block and multi-record path; `speed` itself checks 1 MiB in
    // release before it measures (at the test profile's opt-level that one size took minutes).
    let sizes = [16, 64, 1350, 16384, 1 << 16];
    for op in registry() {
        let found = check_in_process(&op, &libraries, &sizes);
        assert!(
            found.is_empty(),
            "{}",
            found.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
        );
    }
}

#[test]
fn openssl_speed_agrees_with_halite() {
    if let Err(why) = Library::OpensslSpeed.availability() {
        eprintln!("skipping: {why}");
        return;
    }
    for op in registry() {
        match check_openssl(&op) {
            Ok(found) => assert!(found.is_empty(), "{found:?}"),
            Err(why) => panic!("{}: {why}", op.id),
        }
    }
}

#[test]
fn registry_is_well_formed() {
    let ids = ops::op_ids();
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "duplicate op ids: {ids:?}");
    for op in registry() {
        assert!(op.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
        let halite = (op.halite)();
        assert!(!halite.impls.is_empty(), "{}: no Halite implementation", op.id);
        assert!(halite.impls.iter().any(|(name, _)| *name == halite.default_impl));
        assert!(!op.peers.is_empty(), "{}: nothing to compare with", op.id);
        assert!(
            op.peers
                .iter()
                .all(|p| p.library != Library::Halite && p.library != Library::OpensslSpeed)
        );
    }
    // libcrypto in process is a peer of every group it implements.
    let registry = registry();
    for id in ["sha1", "sha3-512", "hmac-sha384", "aes-256-gcm-open", "chacha20-poly1305-seal"]
        .into_iter()
        .chain(["ed25519-verify", "p384-ecdh", "p256-ecdsa-sign", "rsa4096-pkcs1-verify"])
    {
        let op = registry.iter().find(|op| op.id == id).expect("the op exists");
        assert!(op.peer(Library::OpenSsl).is_some(), "{id}: no openssl peer");
    }
}

/// HMAC-SHA-256 from every peer adapter, ready for the `hmac-sha256` op.
#[test]
fn hmac_peers_agree() {
    let mut runners: Vec<(&str, Runner)> = vec![
        ("ring", ops::ring_hmac(ring::hmac::HMAC_SHA256)),
        ("aws-lc-rs", ops::aws_hmac(aws_lc_rs::hmac::HMAC_SHA256)),
        ("rustcrypto", ops::rustcrypto_mac::<hmac::Hmac<sha2::Sha256>>()),
    ];
    if Library::Graviola.availability().is_ok() {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        runners.push(("graviola", ops::graviola_hmac::<graviola::hashing::Sha256>()));
    }
    let openssl = Library::OpensslSpeed.availability().is_ok();
    for &len in EDGE_LENGTHS {
        let input = message(len);
        let outputs: Vec<(&str, String)> = runners
            .iter_mut()
            .map(|(name, r)| {
                let mut out = Vec::new();
                r(&input, &mut out);
                (*name, hex(&out))
            })
            .collect();
        for (name, out) in &outputs {
            assert_eq!(out, &outputs[0].1, "{name} on {len} bytes");
        }
        if openssl && len % 64 == 0 {
            let check = ops::openssl_hmac("sha256").check.expect("HMAC has a check command");
            let got = bench::openssl::compute(&check, &input).unwrap();
            assert_eq!(hex(&got), outputs[0].1, "openssl on {len} bytes");
        }
    }
}
