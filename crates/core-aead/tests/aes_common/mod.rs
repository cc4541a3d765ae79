//! Helpers shared by the AES, GHASH, GCM and CCM suites: say which implementations this CPU
//! could not check, and a reference AES from RustCrypto for differential tests.
#![allow(dead_code, unreachable_pub)]

use aes::cipher::{BlockEncrypt, KeyInit, generic_array::GenericArray};
use core_aead::Implementation;

/// Prints the implementations of `I` this CPU cannot run, so a green run says what it skipped.
pub fn report_unavailable<I: Implementation>(what: &str) {
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
