//! Links the firmware for the micro:bit memory map, but only when building for a bare-metal
//! target: on the host, m0-kat is an ordinary std binary and must link as one.
//!
//! `-Tlink.x` (cortex-m-rt's linker script, which includes our `memory.x`) is passed with
//! `rustc-link-arg`, so it applies to this package's binaries only and not to the other
//! workspace crates built for `thumbv6m-none-eabi`.

use std::{env, fs, path::PathBuf};

fn main() {
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("none") {
        let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
        fs::copy("memory.x", out.join("memory.x")).expect("copy memory.x to OUT_DIR");
        println!("cargo:rustc-link-search={}", out.display());
        println!("cargo:rustc-link-arg=-Tlink.x");
    }
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=build.rs");
}
