//! The linker setup the firmware build scripts share: cortex-m-rt's `link.x` over the
//! micro:bit's `memory.x`, or, when the environment variable a firmware names is `128`, a map
//! for QEMU's `netduino2` (an STM32F205: flash aliased at 0, 128 KiB of RAM) for what needs
//! more stack than the micro:bit has. Only for a bare-metal target: on the host the firmware
//! crates are ordinary std binaries. Included with `#[path]` by the build scripts.

use std::{env, fs, path::PathBuf};

/// Links for the micro:bit, or for `netduino2` when `ram_env` is `128`.
pub(crate) fn link(ram_env: &str) {
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("none") {
        let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
        if env::var(ram_env).as_deref() == Ok("128") {
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
    println!("cargo:rerun-if-env-changed={ram_env}");
    println!("cargo:rerun-if-changed=../m0-kat/memory.x");
    println!("cargo:rerun-if-changed=../m0-kat/link.rs");
}
