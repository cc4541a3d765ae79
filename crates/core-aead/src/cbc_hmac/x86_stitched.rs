//! The stitched sealing kernels of `core_asm` (`x86_64::aead::cbc_hmac`), taken when the
//! record key's AES schedule is for the AES instructions (any of the x86 implementations) and
//! its MAC runs on the SHA extensions: one loop CBC-encrypts and hashes, both chains in
//! registers and their instructions interleaved. Other pairs, and the steps these do not
//! take, go through the composition in `seal_in_place`, the kernels' twin.

use crate::{Aes, AesImpl};
use core_hash::{Sha1Impl, Sha256Impl};

/// The AES-NI token and encryption schedule of `aes`, if it was expanded for the AES
/// instructions.
fn aes_ni(aes: &Aes) -> Option<(core_cpu::Aes, &[[u8; 16]; 15], usize)> {
    let token = match aes.implementation() {
        AesImpl::X86Aesni(token) => token,
        AesImpl::X86Vaes(token) => token.weaken(),
        AesImpl::X86Vaes512(token) => token.weaken(),
        _ => return None,
    };
    let (keys, rounds) = aes.x86_enc_keys()?;
    Some((token, keys, rounds))
}

/// The stitched steps of a HMAC-SHA256 record seal (see
/// [`RecordHash::seal_steps`](super::RecordHash::seal_steps)): the number done.
pub(super) fn seal_sha256(
    imp: Sha256Impl,
    aes: &Aes,
    chain: &mut [u8; 16],
    state: &mut [u32; 8],
    buf: &mut [u8],
    lead: usize,
) -> usize {
    let Sha256Impl::X86Shani(sha) = imp else { return 0 };
    let Some((token, keys, rounds)) = aes_ni(aes) else { return 0 };
    core_asm::x86_64::aead::cbc_hmac::seal_sha256(token, sha, keys, rounds, chain, state, buf, lead)
}

/// The stitched steps of a HMAC-SHA1 record seal, on the first five words of `state`.
pub(super) fn seal_sha1(
    imp: Sha1Impl,
    aes: &Aes,
    chain: &mut [u8; 16],
    state: &mut [u32; 8],
    buf: &mut [u8],
    lead: usize,
) -> usize {
    let Sha1Impl::X86Shani(sha) = imp else { return 0 };
    let Some((token, keys, rounds)) = aes_ni(aes) else { return 0 };
    let Some((words, _)) = state.split_first_chunk_mut::<5>() else { return 0 };
    core_asm::x86_64::aead::cbc_hmac::seal_sha1(token, sha, keys, rounds, chain, words, buf, lead)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Implementation;

    type Kernel<'a> = &'a dyn Fn(&Aes, &mut [u8; 16], &mut [u32; 8], &mut [u8], usize) -> usize;

    /// `kernel` against its twin (one CBC call and one `compress` per step) for every x86 AES
    /// implementation, key size, lead and length, steps counted: a record test would pass
    /// even if the kernel were never reached.
    fn matches_its_twin(kernel: Kernel<'_>, compress: &dyn Fn(&mut [u32; 8], &[u8; 64])) {
        for name in ["x86_aesni", "x86_vaes", "x86_vaes512"] {
            let Some(imp) = AesImpl::by_name(name) else {
                std::println!("{name}: not available on this CPU");
                continue;
            };
            for key_len in [16u8, 24, 32] {
                let key: std::vec::Vec<u8> = (0..key_len).collect();
                let aes = Aes::with_impl(imp, &key).unwrap();
                for (lead, len) in
                    [(51, 115usize), (51, 1350), (0, 197), (13, 200), (64, 64), (51, 50)]
                {
                    let data: std::vec::Vec<u8> = (0..len)
                        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[3])
                        .collect();
                    let (mut buf, mut chain, mut state) =
                        (data.clone(), [7u8; 16], [0x0123_4567u32; 8]);
                    let steps = kernel(&aes, &mut chain, &mut state, &mut buf, lead);
                    let what = std::format!("{name} {key_len} {lead} {len}");
                    assert_eq!(steps, len.saturating_sub(lead) / 64, "{what}");
                    let (mut twin, mut twin_chain, mut twin_state) =
                        (data, [7u8; 16], [0x0123_4567u32; 8]);
                    for k in 0..steps {
                        let block: [u8; 64] = twin[lead + 64 * k..][..64].try_into().unwrap();
                        let (blocks, _) = twin[64 * k..64 * (k + 1)].as_chunks_mut::<16>();
                        aes.cbc_encrypt_blocks(&mut twin_chain, blocks);
                        compress(&mut twin_state, &block);
                    }
                    assert_eq!((buf, chain, state), (twin, twin_chain, twin_state), "{what}");
                }
            }
        }
    }

    #[test]
    fn sha256_kernel_matches_its_twin() {
        let Some(sha) = Sha256Impl::by_name("x86_shani") else {
            std::println!("x86_shani: not available on this CPU");
            return;
        };
        matches_its_twin(
            &|aes, chain, state, buf, lead| seal_sha256(sha, aes, chain, state, buf, lead),
            &|state, block| sha.compress_blocks(state, core::slice::from_ref(block)),
        );
    }

    #[test]
    fn sha1_kernel_matches_its_twin() {
        let Some(sha) = Sha1Impl::by_name("x86_shani") else {
            std::println!("x86_shani: not available on this CPU");
            return;
        };
        matches_its_twin(
            &|aes, chain, state, buf, lead| seal_sha1(sha, aes, chain, state, buf, lead),
            &|state, block| {
                let (words, _) = state.split_first_chunk_mut::<5>().unwrap();
                sha.compress_blocks(words, core::slice::from_ref(block));
            },
        );
    }
}
