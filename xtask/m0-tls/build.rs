//! Links the firmware for the micro:bit memory map (the same `memory.x` as `m0-kat`), or with
//! `HALITE_M0_TLS_RAM=128` for QEMU's `netduino2` (128 KiB of RAM), to measure by hand a
//! client that does not fit the micro:bit's 16 KiB; on the host, m0-tls is the std server.

#[path = "../m0-kat/link.rs"]
mod link;

fn main() {
    link::link("HALITE_M0_TLS_RAM");
    println!("cargo:rerun-if-changed=build.rs");
}
