//! Time-stamp ticks per 32 AES blocks of the stitched VAES-512 AES-GCM loop (best of 3000
//! 16 KiB messages, or the length given), and the throughput of the instructions that bound
//! it, for the header of core-aead's `gcm/x86_vaes_vpclmul.rs`. `x86_64` only.
//!
//! ```text
//! cargo run --release -p bench --example gcm_ticks -- seal128|open128|seal256|open256 [LEN] [IMPL]
//! cargo run --release -p bench --example gcm_ticks -- kernels
//! ```
//!
//! A tick is a time-stamp-counter tick; `kernels` prints a 3-cycle `imul` chain in ticks, so
//! cycles per tick is 3 over that figure (1.61 on the session-23 host).

// Tick counts far below 2^52: printing them as f64 loses nothing.
#![allow(clippy::cast_precision_loss)]

#[cfg(target_arch = "x86_64")]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("seal128", String::as_str);
    if what == "kernels" {
        x86::kernels();
        return;
    }
    let len = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(16384);
    let name = args.get(2).map_or("x86_vaes_vpclmul512", String::as_str);
    match x86::message(what, len, name) {
        Some(ticks) => println!(
            "{what} {name} {len} B: {ticks} ticks, {:.2} per 32 blocks",
            ticks as f64 * 512.0 / len as f64
        ),
        None => eprintln!("unknown operation or implementation (or not on this CPU)"),
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    eprintln!("x86_64 only");
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::asm;
    use core::arch::x86_64::_rdtsc;
    use core_aead::{AesGcm, GcmImpl, Implementation};
    use std::hint::black_box;

    fn ticks() -> u64 {
        // SAFETY: `rdtsc` is in every x86_64 CPU and only reads the time-stamp counter.
        unsafe { _rdtsc() }
    }

    /// Ticks of one message, best of 3000: `seal` or `open` (each open after a seal of the
    /// same buffer, untimed, so its tag is right), for a 16- or 32-byte key.
    pub(super) fn message(what: &str, len: usize, name: &str) -> Option<u64> {
        let imp = GcmImpl::by_name(name)?;
        match what {
            "seal128" => best::<16>(imp, len, true),
            "open128" => best::<16>(imp, len, false),
            "seal256" => best::<32>(imp, len, true),
            "open256" => best::<32>(imp, len, false),
            _ => None,
        }
    }

    fn best<const K: usize>(imp: GcmImpl, len: usize, seal: bool) -> Option<u64> {
        let key = AesGcm::<K>::with_impl(imp, &[3; K]).ok()?;
        let (iv, aad) = ([7u8; 12], [1u8; 13]);
        let mut buf = vec![0x5a; len];
        let mut best = u64::MAX;
        for _ in 0..3000 {
            let t = if seal {
                let t0 = ticks();
                black_box(key.seal_in_place_detached_with_iv(&iv, &aad, black_box(&mut buf)).ok()?);
                ticks() - t0
            } else {
                let tag = key.seal_in_place_detached_with_iv(&iv, &aad, &mut buf).ok()?;
                let t0 = ticks();
                key.open_in_place_detached_with_iv(&iv, &aad, black_box(&mut buf), black_box(&tag))
                    .ok()?;
                ticks() - t0
            };
            best = best.min(t);
        }
        Some(best)
    }

    /// Runs `$body` ($n instructions) 1000 times, best of 50, and prints ticks per instruction.
    macro_rules! kernel {
        ($name:expr, $n:expr, $body:expr) => {{
            let mut best = u64::MAX;
            for _ in 0..50 {
                let t0 = ticks();
                // SAFETY: the loop touches only the registers it declares and no memory; the
                // VAES/VPCLMULQDQ/AVX-512 ones run only after `kernels` checked the features.
                unsafe {
                    asm!("mov {c}, 1000", "2:", $body, "dec {c}", "jnz 2b", c = out(reg) _,
                        out("rax") _,
                        out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
                        out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
                        out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
                        out("zmm12") _, out("zmm13") _, out("zmm14") _, out("zmm15") _,
                        out("zmm16") _, out("zmm17") _,
                        options(nostack, nomem));
                }
                best = best.min(ticks() - t0);
            }
            println!("{:44} {:6.3} ticks", $name, best as f64 / 1000.0 / $n as f64);
        }};
    }

    /// Eight independent `$op zmmI, zmm(8+I), zmm15` for I = 0…7.
    macro_rules! eight {
        ($op:literal, $w:literal, $imm:literal) => {
            concat!(
                $op, " ", $w, "0, ", $w, "8, ", $w, "15", $imm, "\n", $op, " ", $w, "1, ", $w,
                "9, ", $w, "15", $imm, "\n", $op, " ", $w, "2, ", $w, "10, ", $w, "15", $imm, "\n",
                $op, " ", $w, "3, ", $w, "11, ", $w, "15", $imm, "\n", $op, " ", $w, "4, ", $w,
                "12, ", $w, "15", $imm, "\n", $op, " ", $w, "5, ", $w, "13, ", $w, "15", $imm,
                "\n", $op, " ", $w, "6, ", $w, "14, ", $w, "15", $imm, "\n", $op, " ", $w, "7, ",
                $w, "8, ", $w, "15", $imm, "\n",
            )
        };
    }

    /// Ticks per instruction of the loop's instructions, alone and mixed.
    pub(super) fn kernels() {
        let ok = std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("vaes")
            && std::arch::is_x86_feature_detected!("vpclmulqdq")
            && std::arch::is_x86_feature_detected!("avx512bw");
        kernel!(
            "imul chain (3 cycles each)",
            4,
            "imul rax, rax\nimul rax, rax\nimul rax, rax\nimul rax, rax"
        );
        if !ok {
            println!("no VAES/VPCLMULQDQ/AVX-512 here");
            return;
        }
        kernel!("vaesenc zmm chain (latency)", 1, "vaesenc zmm0, zmm0, zmm15");
        kernel!("vaesenc zmm, 8 independent", 8, eight!("vaesenc", "zmm", ""));
        kernel!("vaesenc ymm, 8 independent", 8, eight!("vaesenc", "ymm", ""));
        kernel!("vpclmulqdq zmm, 8 independent", 8, eight!("vpclmulqdq", "zmm", ", 0"));
        kernel!("vpclmulqdq ymm, 8 independent", 8, eight!("vpclmulqdq", "ymm", ", 0"));
        kernel!("vpxord zmm, 8 independent", 8, eight!("vpxord", "zmm", ""));
        kernel!("vpshufb zmm, 8 independent", 8, eight!("vpshufb", "zmm", ""));
        kernel!(
            "8 vaesenc zmm + 2 vpclmulqdq zmm (per instr)",
            10,
            concat!(
                eight!("vaesenc", "zmm", ""),
                "vpclmulqdq zmm16, zmm8, zmm15, 0\nvpclmulqdq zmm17, zmm9, zmm15, 0\n"
            )
        );
        kernel!(
            "8 vaesenc zmm + 8 vpxord zmm (per instr)",
            16,
            concat!(eight!("vaesenc", "zmm", ""), eight!("vpxord", "zmm", ""))
        );
    }
}
