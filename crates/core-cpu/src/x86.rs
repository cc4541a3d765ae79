//! `x86_64` detection with CPUID, and XGETBV for the register state the OS saves: AVX and
//! AVX-512 instructions are only usable when the OS has enabled their state in XCR0.

use crate::Features;
use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv, CpuidResult};

/// Whether bit `n` of `word` is set.
const fn bit(word: u32, n: u32) -> bool {
    word >> n & 1 == 1
}

// `__cpuid` became a safe function in later Rust releases; the `unsafe` blocks keep the
// crate building on its minimum supported version.
#[allow(unused_unsafe)]
pub(crate) fn detect() -> Features {
    let mut f = Features::NONE;
    let mut add = |present: bool, feature: Features| {
        if present {
            f = f.union(feature);
        }
    };

    // SAFETY: CPUID exists on every x86_64 CPU; leaf 0 is always valid.
    let max_leaf = unsafe { __cpuid(0) }.eax;
    // SAFETY: leaf 1 exists on every x86_64 CPU.
    let l1 = unsafe { __cpuid(1) };
    let l7 = if max_leaf >= 7 {
        // SAFETY: leaf 7 was checked to be supported.
        unsafe { __cpuid_count(7, 0) }
    } else {
        CpuidResult { eax: 0, ebx: 0, ecx: 0, edx: 0 }
    };

    // XCR0 may only be read when the OS advertises XSAVE support (OSXSAVE).
    let xcr0 = if bit(l1.ecx, 27) { read_xcr0() } else { 0 };
    let os_avx = xcr0 & 0b110 == 0b110; // XMM and YMM state
    let os_avx512 = os_avx && xcr0 & 0b1110_0000 == 0b1110_0000; // opmask, ZMM_Hi256, Hi16_ZMM

    add(bit(l1.edx, 26), Features::SSE2);
    add(bit(l1.ecx, 9), Features::SSSE3);
    add(bit(l1.ecx, 19), Features::SSE41);
    add(bit(l1.ecx, 25), Features::AES);
    add(bit(l1.ecx, 1), Features::PCLMULQDQ);
    add(bit(l7.ebx, 29), Features::SHA);
    add(bit(l7.ebx, 3), Features::BMI1);
    add(bit(l7.ebx, 8), Features::BMI2);
    add(bit(l7.ebx, 19), Features::ADX);

    add(os_avx && bit(l1.ecx, 28), Features::AVX);
    add(os_avx && bit(l7.ebx, 5), Features::AVX2);
    // VEX/EVEX-encoded only in Halite, so they need the AVX state too.
    add(os_avx && bit(l7.ecx, 9), Features::VAES);
    add(os_avx && bit(l7.ecx, 10), Features::VPCLMULQDQ);
    add(os_avx && bit(l7.ecx, 8), Features::GFNI);

    add(os_avx512 && bit(l7.ebx, 16), Features::AVX512F);
    add(os_avx512 && bit(l7.ebx, 31), Features::AVX512VL);
    add(os_avx512 && bit(l7.ebx, 30), Features::AVX512BW);
    add(os_avx512 && bit(l7.ebx, 17), Features::AVX512DQ);
    add(os_avx512 && bit(l7.ebx, 21), Features::AVX512IFMA);
    f
}

fn read_xcr0() -> u64 {
    #[target_feature(enable = "xsave")]
    fn xgetbv0() -> u64 {
        // SAFETY: XGETBV with ECX = 0 is valid whenever XSAVE is enabled, which this
        // function's target feature and its only caller (OSXSAVE checked) guarantee.
        unsafe { _xgetbv(0) }
    }
    // SAFETY: the caller checked CPUID.1:ECX.OSXSAVE, so XGETBV is available.
    unsafe { xgetbv0() }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    /// Cross-check against the standard library's detection, which is independent code.
    #[test]
    fn agrees_with_std() {
        let f = detect();
        let pairs = [
            (Features::SSE2, std::is_x86_feature_detected!("sse2")),
            (Features::SSSE3, std::is_x86_feature_detected!("ssse3")),
            (Features::SSE41, std::is_x86_feature_detected!("sse4.1")),
            (Features::AES, std::is_x86_feature_detected!("aes")),
            (Features::PCLMULQDQ, std::is_x86_feature_detected!("pclmulqdq")),
            (Features::SHA, std::is_x86_feature_detected!("sha")),
            (Features::AVX, std::is_x86_feature_detected!("avx")),
            (Features::AVX2, std::is_x86_feature_detected!("avx2")),
            (Features::BMI1, std::is_x86_feature_detected!("bmi1")),
            (Features::BMI2, std::is_x86_feature_detected!("bmi2")),
            (Features::ADX, std::is_x86_feature_detected!("adx")),
            (Features::AVX512F, std::is_x86_feature_detected!("avx512f")),
            (Features::AVX512VL, std::is_x86_feature_detected!("avx512vl")),
            (Features::AVX512BW, std::is_x86_feature_detected!("avx512bw")),
            (Features::AVX512DQ, std::is_x86_feature_detected!("avx512dq")),
            (Features::AVX512IFMA, std::is_x86_feature_detected!("avx512ifma")),
            (Features::VAES, std::is_x86_feature_detected!("vaes")),
            (Features::VPCLMULQDQ, std::is_x86_feature_detected!("vpclmulqdq")),
            (Features::GFNI, std::is_x86_feature_detected!("gfni")),
        ];
        for (feature, std_says) in pairs {
            assert_eq!(f.contains(feature), std_says, "{feature}");
        }
    }
}
