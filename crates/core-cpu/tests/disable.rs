//! `disable` before first use removes features from `features()` and from every token.
//! Its own test binary, so nothing detected features earlier in the process.

use core_cpu::{Aes, Avx2, Features, disable, features};

#[test]
fn disable_before_first_use_is_honoured() {
    disable(Features::AES.union(Features::AVX2)).expect("nothing has detected features yet");
    let f = features();
    assert!(!f.contains(Features::AES), "{f}");
    assert!(!f.contains(Features::AVX2), "{f}");
    assert!(Aes::get().is_none());
    assert!(Avx2::get().is_none());
    // Too late now: the cache is filled and tokens may be out.
    assert!(disable(Features::SSE2).is_err());
}
