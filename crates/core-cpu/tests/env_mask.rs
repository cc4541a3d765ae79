//! `HALITE_CPU_DISABLE` is read at detection time. Its own test binary with a single test, so
//! setting the variable cannot race with another thread.

use core_cpu::{Features, features};

#[test]
fn env_variable_masks_features() {
    // SAFETY: the only test in this binary; no other thread reads the environment.
    unsafe { std::env::set_var("HALITE_CPU_DISABLE", "sse2, aes,avx512f") };
    let f = features();
    assert!(!f.contains(Features::SSE2) && !f.contains(Features::AES), "{f}");
    assert!(!f.contains(Features::AVX512F), "{f}");
}
