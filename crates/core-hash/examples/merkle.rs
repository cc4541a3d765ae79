//! A Merkle tree root (RFC 6962 §2.1: leaf hash SHA-256(0x00 ‖ leaf), node hash
//! SHA-256(0x01 ‖ left ‖ right)) computed level by level with `Sha256::digest_many`, so every
//! hash of a level runs side by side in SIMD lanes, and checked against the recursive
//! definition computed one hash at a time.
//!
//! Run with `cargo run --release -p core-hash --example merkle [LEAVES] [LEAF_BYTES]`.

use core_hash::{Sha256, Sha256MbImpl};
use std::time::Instant;

/// The root by levels: hash all leaves at once, then all pairs of each level at once; a lone
/// last node moves up unchanged, which gives RFC 6962's left-balanced tree.
fn root_many(leaves: &[Vec<u8>]) -> [u8; 32] {
    if leaves.is_empty() {
        return Sha256::digest(&[]);
    }
    let prefixed: Vec<Vec<u8>> = leaves.iter().map(|l| [&[0u8][..], l].concat()).collect();
    let messages: Vec<&[u8]> = prefixed.iter().map(Vec::as_slice).collect();
    let mut level = vec![[0u8; 32]; leaves.len()];
    Sha256::digest_many(&messages, &mut level).expect("one slot per leaf");
    while level.len() > 1 {
        let pairs: Vec<[u8; 65]> = level
            .chunks_exact(2)
            .map(|p| {
                let mut node = [0x01u8; 65];
                node[1..33].copy_from_slice(&p[0]);
                node[33..].copy_from_slice(&p[1]);
                node
            })
            .collect();
        let messages: Vec<&[u8]> = pairs.iter().map(|p| &p[..]).collect();
        let mut next = vec![[0u8; 32]; pairs.len()];
        Sha256::digest_many(&messages, &mut next).expect("one slot per pair");
        if level.len() % 2 == 1 {
            next.push(level[level.len() - 1]);
        }
        level = next;
    }
    level[0]
}

/// MTH(D\[n\]) as RFC 6962 §2.1 defines it, one hash at a time.
fn root_single(leaves: &[Vec<u8>]) -> [u8; 32] {
    match leaves.len() {
        0 => Sha256::digest(&[]),
        1 => {
            let mut h = Sha256::new();
            h.update(&[0x00]);
            h.update(&leaves[0]);
            h.finalize()
        }
        n => {
            let k = 1 << (usize::BITS - 1 - (n - 1).leading_zeros());
            let mut h = Sha256::new();
            h.update(&[0x01]);
            h.update(&root_single(&leaves[..k]));
            h.update(&root_single(&leaves[k..]));
            h.finalize()
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>().expect("a number"));
    let count = args.next().unwrap_or(10_000);
    let leaf_len = args.next().unwrap_or(200);
    let leaves: Vec<Vec<u8>> =
        (0..count).map(|i| (0..leaf_len + i % 7).map(|j| (i * 31 + j) as u8).collect()).collect();

    // Every tree size up to 40 first, where the odd-node rule is exercised at every level.
    for n in 0..=40 {
        assert_eq!(root_many(&leaves[..n.min(count)]), root_single(&leaves[..n.min(count)]));
    }

    let start = Instant::now();
    let many = root_many(&leaves);
    let t_many = start.elapsed();
    let start = Instant::now();
    let single = root_single(&leaves);
    let t_single = start.elapsed();
    assert_eq!(many, single, "the two computations of the root differ");

    print!("root of {count} leaves of ~{leaf_len} bytes: ");
    for b in many {
        print!("{b:02x}");
    }
    println!();
    println!(
        "digest_many ({}): {t_many:?}; one hash at a time: {t_single:?}",
        core_hash::Implementation::name(<Sha256MbImpl as core_hash::Implementation>::best())
    );
}
