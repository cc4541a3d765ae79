//! GHASH on every implementation: the GCM specification's GHASH values (test cases 2 and 4)
//! and random keys and messages, each implementation against the others.

mod aes_common;

use aes_common::{report_unavailable, unhex};
use core_aead::{Ghash, GhashImpl, Implementation};
use proptest::prelude::*;

/// The GHASH outputs listed in the GCM specification for test cases 2 and 4 (the hash of
/// the AAD, the ciphertext and the length block, before the mask).
#[test]
fn gcm_spec_ghash_values() {
    report_unavailable::<GhashImpl>("ghash");
    let cases = [
        (
            "66e94bd4ef8a2c3b884cfa59ca342b2e",
            "",
            "0388dace60b6a392f328c2b971b2fe78",
            "00000000000000000000000000000080",
            "f38cbb1ad69223dcc3457ae5b6b0f885",
        ),
        (
            "b83b533708bf535d0aa6e52980d53b78",
            "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e
             21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
            "00000000000000a000000000000001e0",
            "698e57f70e6ecc7fd9463b7260a9ae5f",
        ),
    ];
    for imp in GhashImpl::available() {
        for (h, a, c, lengths, want) in cases {
            let h: [u8; 16] = unhex(h).try_into().unwrap();
            let mut g = Ghash::with_impl(imp, &h);
            assert_eq!(g.implementation(), imp);
            g.update_padded(&unhex(a));
            g.update_padded(&unhex(c));
            g.update_padded(&unhex(lengths));
            assert_eq!(g.finish()[..], unhex(want)[..], "{}", imp.name());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// All implementations agree on random keys and messages cut into random pieces (each
    /// piece padded, as GCM pads AAD and ciphertext), including lengths that are not
    /// multiples of the eight-block batch.
    #[test]
    fn implementations_agree(
        h in any::<[u8; 16]>(),
        data in proptest::collection::vec(any::<u8>(), 0..=4096),
        cuts in proptest::collection::vec(0usize..=4096, 0..4),
    ) {
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(data.len())).collect();
        cuts.sort_unstable();
        let mut results = Vec::new();
        for imp in GhashImpl::available() {
            let mut g = Ghash::with_impl(imp, &h);
            let mut start = 0;
            for &cut in cuts.iter().chain([data.len()].iter()) {
                g.update_padded(&data[start..cut]);
                start = cut;
            }
            results.push((imp.name(), g.finish()));
        }
        for (name, r) in &results[1..] {
            prop_assert_eq!(r, &results[0].1, "{} vs {}", name, results[0].0);
        }
    }
}
