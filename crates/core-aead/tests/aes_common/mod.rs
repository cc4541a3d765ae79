//! Helpers shared by the AES, GHASH, GCM and CCM suites: say which implementations this CPU
//! could not check, and a reference AES from RustCrypto for differential tests.
#![allow(dead_code, unreachable_pub)]

use aes::cipher::{BlockEncrypt, KeyInit, generic_array::GenericArray};
use core_aead::Implementation;

/// Prints (once per test binary) the implementations of `I` this CPU cannot run, so a green
/// run says what it skipped.
pub fn report_unavailable<I: Implementation>(what: &str) {
    static REPORTED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut reported = REPORTED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if reported.iter().any(|w| w == what) {
        return;
    }
    reported.push(what.to_owned());
    let available: Vec<&str> = I::available().map(I::name).collect();
    for name in I::ALL {
        if !available.contains(name) {
            println!("{what}: implementation {name} is not available on this CPU; not checked");
        }
    }
}

/// Hex to bytes, for vectors written as text.
pub fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// RustCrypto's AES block encryption, for any key size.
pub fn reference_encrypt(key: &[u8], block: &mut [u8; 16]) {
    let b = GenericArray::from_mut_slice(block);
    match key.len() {
        16 => aes::Aes128::new_from_slice(key).unwrap().encrypt_block(b),
        24 => aes::Aes192::new_from_slice(key).unwrap().encrypt_block(b),
        32 => aes::Aes256::new_from_slice(key).unwrap().encrypt_block(b),
        n => panic!("no AES with a {n}-byte key"),
    }
}

/// CTR with a 32-bit counter built on RustCrypto's block cipher.
pub fn reference_ctr32(key: &[u8], ctr: &[u8; 16], data: &mut [u8]) {
    let mut c = u32::from_be_bytes(ctr[12..].try_into().unwrap());
    for chunk in data.chunks_mut(16) {
        let mut block = *ctr;
        block[12..].copy_from_slice(&c.to_be_bytes());
        reference_encrypt(key, &mut block);
        for (d, k) in chunk.iter_mut().zip(block) {
            *d ^= k;
        }
        c = c.wrapping_add(1);
    }
}

/// Whether `vaesenc` on a YMM register computes its upper half from the upper half's own data,
/// as the SDM says. QEMU 7.2's TCG does not (it reuses the lower half's state), so under
/// `qemu-x86_64 -cpu max` the VAES implementations cannot be checked; the suites then say so
/// and leave them out. `true` where there is no VAES to ask about.
#[cfg(target_arch = "x86_64")]
pub fn vaes_is_sound() -> bool {
    static SOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SOUND.get_or_init(probe_vaes)
}

#[cfg(target_arch = "x86_64")]
fn probe_vaes() -> bool {
    use core::arch::x86_64::{
        __m256i, _mm_aesenc_si128, _mm_set_epi64x, _mm256_aesenc_epi128, _mm256_extracti128_si256,
        _mm256_set_m128i,
    };
    #[target_feature(enable = "avx2,vaes,aes")]
    fn probe() -> bool {
        let lo = _mm_set_epi64x(0x0123_4567_89ab_cdef, 0x1122_3344_5566_7788);
        let hi = _mm_set_epi64x(0x7766_5544_3322_1100, 0x0f1e_2d3c_4b5a_6978);
        let k = _mm_set_epi64x(0x0f0e_0d0c_0b0a_0908, 0x0706_0504_0302_0100);
        let r: __m256i = _mm256_aesenc_epi128(_mm256_set_m128i(hi, lo), _mm256_set_m128i(k, k));
        // SAFETY: a 128-bit vector and two `u64`s have the same size, and any bits are valid.
        let want: [u64; 2] = unsafe { core::mem::transmute(_mm_aesenc_si128(hi, k)) };
        // SAFETY: as above.
        let got: [u64; 2] = unsafe { core::mem::transmute(_mm256_extracti128_si256::<1>(r)) };
        got == want
    }
    if !(std::is_x86_feature_detected!("vaes") && std::is_x86_feature_detected!("avx2")) {
        return true;
    }
    // SAFETY: VAES, AVX2 and AES-NI were detected just above (AES-NI comes with VAES).
    let sound = unsafe { probe() };
    if !sound {
        println!(
            "x86_vaes: this CPU (an emulator?) computes vaesenc's upper YMM lane from the lower \
             lane's data; VAES implementations not checked here (see aes::x86_vaes's model test)"
        );
    }
    sound
}

#[cfg(not(target_arch = "x86_64"))]
pub fn vaes_is_sound() -> bool {
    true
}

/// The AES implementations this CPU can run and that can be checked here.
pub fn checkable_aes() -> Vec<core_aead::AesImpl> {
    let vaes_ok = vaes_is_sound();
    core_aead::AesImpl::available()
        .filter(|imp| vaes_ok || !matches!(imp, core_aead::AesImpl::X86Vaes(_)))
        .collect()
}
