//! Links the firmware for the micro:bit memory map (the same `memory.x` as `m0-kat`), but only
//! when building for a bare-metal target: on the host, m0-cost is an ordinary std binary.
//! Also rebuilds when `HALITE_M0_COST_OP` (the operation selection) changes.

use std::{env, fs, path::PathBuf};

fn main() {
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("none") {
        let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
        fs::copy("../m0-kat/memory.x", out.join("memory.x")).expect("copy memory.x to OUT_DIR");
        println!("cargo:rustc-link-search={}", out.display());
        println!("cargo:rustc-link-arg=-Tlink.x");
    }
    println!("cargo:rerun-if-env-changed=HALITE_M0_COST_OP");
    println!("cargo:rerun-if-changed=../m0-kat/memory.x");
    println!("cargo:rerun-if-changed=build.rs");
}
