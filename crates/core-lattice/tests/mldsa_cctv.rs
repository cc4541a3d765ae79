//! The accumulated ML-DSA vectors of C2SP CCTV (c2sp.org/CCTV/ML-DSA, "accumulated"): one
//! SHAKE128 with empty input is read 32 bytes at a time for the seeds ξ; for each, the public
//! key of `keygen(ξ)` and then its deterministic signature (rnd = 0³²) of the empty message
//! with the empty context are absorbed, in that order, by a second SHAKE128, and the
//! signature must verify. The first 32 bytes read from the second SHAKE128 after 100 and
//! after 10 000 iterations are published (CCTV's generator is libcrux-ml-dsa's
//! `generate_key_pair(seed)` and `sign(&sk, b"", b"", [0; 32])`).

use core_hash::Shake128;
use core_lattice::{Implementation, MlDsaImpl, mldsa44, mldsa65, mldsa87};
use hex_literal::hex;

macro_rules! accumulate {
    ($module:ident, $iterations:expr, $imp:expr) => {{
        let mut seeds = Shake128::new().finalize_xof();
        let mut acc = Shake128::new();
        for _ in 0..$iterations {
            let mut xi = [0u8; 32];
            seeds.read(&mut xi);
            let sk = $module::SigningKey::from_seed_with_impl(&xi, $imp);
            let pk = sk.verifying_key();
            acc.update(pk.as_bytes());
            let sig = sk.sign_deterministic(b"", b"").unwrap();
            acc.update(sig.as_bytes());
            pk.verify(b"", b"", &sig).unwrap();
        }
        let mut out = [0u8; 32];
        acc.finalize_xof().read(&mut out);
        out
    }};
}

#[test]
fn accumulated_100() {
    for imp in MlDsaImpl::available() {
        let name = imp.name();
        let want44 = hex!("d51148e1f9f4fa1a723a6cf42e25f2a99eb5c1b378b3d2dbbd561b1203beeae4");
        assert_eq!(accumulate!(mldsa44, 100, imp), want44, "ML-DSA-44 on {name}");
        let want65 = hex!("8358a1843220194417cadbc2651295cd8fc65125b5a5c1a239a16dc8b57ca199");
        assert_eq!(accumulate!(mldsa65, 100, imp), want65, "ML-DSA-65 on {name}");
        let want87 = hex!("8c3ad714777622b8f21ce31bb35f71394f23bc0fcf3c78ace5d608990f3b061b");
        assert_eq!(accumulate!(mldsa87, 100, imp), want87, "ML-DSA-87 on {name}");
    }
}

#[test]
#[ignore = "10 000 key pairs and signatures per parameter set: 218 s in the test profile on a loaded 2-core machine"]
fn accumulated_10k() {
    for imp in MlDsaImpl::available() {
        let name = imp.name();
        let want44 = hex!("e7fd21f6a59bcba60d65adc44404bb29a7c00e5d8d3ec06a732c00a306a7d143");
        assert_eq!(accumulate!(mldsa44, 10_000, imp), want44, "ML-DSA-44 on {name}");
        let want65 = hex!("5ff5e196f0b830c3b10a9eb5358e7c98a3a20136cb677f3ae3b90175c3ace329");
        assert_eq!(accumulate!(mldsa65, 10_000, imp), want65, "ML-DSA-65 on {name}");
        let want87 = hex!("80a8cf39317f7d0be0e24972c51ac152bd2a3e09bc0c32ce29dd82c4e7385e60");
        assert_eq!(accumulate!(mldsa87, 10_000, imp), want87, "ML-DSA-87 on {name}");
    }
}
