//! Links the firmware for the micro:bit memory map (the same `memory.x` as `m0-kat`), or with
//! `HALITE_M0_TLS_RAM=128` for QEMU's `netduino2` (128 KiB of RAM), while the client's stack
//! does not yet fit the micro:bit's 16 KiB; only when building for a bare-metal target: on
//! the host, m0-tls is the std server.

use std::{env, fs, path::PathBuf};

fn main() {
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("none") {
        let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
        if env::var("HALITE_M0_TLS_RAM").as_deref() == Ok("128") {
            let big = "/* STM32F205 (QEMU `-machine netduino2`): flash aliased at 0, 128K RAM. */\n\
                        MEMORY\n{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 256K\n  \
                        RAM   : ORIGIN = 0x20000000, LENGTH = 128K\n}\n";
            fs::write(out.join("memory.x"), big).expect("write memory.x to OUT_DIR");
        } else {
            fs::copy("../m0-kat/memory.x", out.join("memory.x")).expect("copy memory.x");
        }
        println!("cargo:rustc-link-search={}", out.display());
        println!("cargo:rustc-link-arg=-Tlink.x");
    }
    println!("cargo:rerun-if-env-changed=HALITE_M0_TLS_RAM");
    println!("cargo:rerun-if-changed=../m0-kat/memory.x");
    println!("cargo:rerun-if-changed=build.rs");
}
