//! An unknown name in `HALITE_CPU_DISABLE` fails safe: every feature is disabled.

#[test]
fn unknown_name_disables_everything() {
    // SAFETY: the only test in this binary; no other thread reads the environment.
    unsafe { std::env::set_var("HALITE_CPU_DISABLE", "aes,no-such-feature") };
    assert!(core_cpu::features().is_empty());
}
