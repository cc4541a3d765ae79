//! Checks for `core-hash` on the firmware's portable code: FIPS 180-4 and FIPS 202 examples,
//! RFC 4231 HMAC, RFC 5869 HKDF and a NIST CAVP HMAC-DRBG answer, on every implementation
//! the target can run (on the Cortex-M0 that is the portable ones).

use core_hash::{
    Hash, Hkdf, Hmac, HmacDrbg, Implementation, KeccakImpl, Sha1, Sha3_256, Sha224, Sha256, Sha384,
    Sha512, Shake128, Shake256,
};
use hex_literal::hex;

use super::{Check, ensure};

/// The core-hash checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "hash::sha1_abc", run: sha1_abc },
    Check { name: "hash::sha224_abc", run: sha224_abc },
    Check { name: "hash::sha256_abc", run: sha256_abc },
    Check { name: "hash::sha256_448_streamed", run: sha256_448_streamed },
    Check { name: "hash::sha384_abc", run: sha384_abc },
    Check { name: "hash::sha512_abc", run: sha512_abc },
    Check { name: "hash::sha3_256_abc", run: sha3_256_abc },
    Check { name: "hash::sha3_256_portable32", run: sha3_256_portable32 },
    Check { name: "hash::shake128_empty", run: shake128_empty },
    Check { name: "hash::shake_multiblock", run: shake_multiblock },
    Check { name: "hash::hmac_sha256_rfc4231", run: hmac_sha256_rfc4231 },
    Check { name: "hash::hkdf_sha256_rfc5869", run: hkdf_sha256_rfc5869 },
    Check { name: "hash::hmac_drbg_cavp", run: hmac_drbg_cavp },
];

/// `H(msg) == want` on every implementation of `H` available on this target.
fn every_impl<H: Hash>(msg: &[u8], want: &[u8]) -> Result<(), &'static str> {
    let mut ran = false;
    for imp in H::implementations() {
        let mut h = H::with_impl(imp);
        h.update(msg);
        ensure(h.finalize().as_ref() == want, imp.name())?;
        ran = true;
    }
    ensure(ran, "no implementation available")
}

fn sha1_abc() -> Result<(), &'static str> {
    every_impl::<Sha1>(b"abc", &hex!("a9993e364706816aba3e25717850c26c9cd0d89d"))
}

fn sha224_abc() -> Result<(), &'static str> {
    every_impl::<Sha224>(b"abc", &hex!("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"))
}

fn sha256_abc() -> Result<(), &'static str> {
    every_impl::<Sha256>(
        b"abc",
        &hex!("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    )
}

/// The 448-bit FIPS 180 example fed in uneven pieces, across a block boundary.
fn sha256_448_streamed() -> Result<(), &'static str> {
    let msg = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    let mut h = Sha256::new();
    for piece in msg.chunks(5) {
        h.update(piece);
    }
    let fork = h.clone();
    ensure(
        h.finalize() == hex!("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        "streamed digest",
    )?;
    ensure(fork.finalize() == Sha256::digest(msg), "cloned state")
}

fn sha384_abc() -> Result<(), &'static str> {
    every_impl::<Sha384>(
        b"abc",
        &hex!(
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded163"
            "1a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
        ),
    )
}

fn sha512_abc() -> Result<(), &'static str> {
    every_impl::<Sha512>(
        b"abc",
        &hex!(
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
    )
}

fn sha3_256_abc() -> Result<(), &'static str> {
    every_impl::<Sha3_256>(
        b"abc",
        &hex!("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
    )
}

/// The bit-interleaved Keccak by name (`thumb1` on the Cortex-M0 with `asm`, `portable32`
/// elsewhere), whatever the target's default (FIPS 202 example: SHA3-256 of the empty
/// message), streamed across the 136-byte rate.
fn sha3_256_portable32() -> Result<(), &'static str> {
    let imp = KeccakImpl::by_name("thumb1")
        .or_else(|| KeccakImpl::by_name("portable32"))
        .ok_or("no bit-interleaved Keccak")?;
    let mut h = Sha3_256::with_impl(imp);
    h.update(b"");
    ensure(
        h.finalize() == hex!("a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"),
        "empty message",
    )?;
    let data = [0xa3u8; 200];
    let mut h = Sha3_256::with_impl(imp);
    for piece in data.chunks(37) {
        h.update(piece);
    }
    ensure(h.finalize() == Sha3_256::digest(&data), "200 x 0xa3 streamed")
}

/// SHAKE128 of the empty message, squeezed in two reads.
fn shake128_empty() -> Result<(), &'static str> {
    let mut reader = Shake128::new().finalize_xof();
    let mut out = [0u8; 32];
    let (a, b) = out.split_at_mut(5);
    reader.read(a);
    reader.read(b);
    ensure(
        out == hex!("7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"),
        "output",
    )
}

/// SHAKE128 and SHAKE256 of the 200 bytes 00 01 … c7 (two blocks absorbed), 600 bytes out
/// (four and five blocks squeezed) in uneven reads, on every Keccak-f implementation the
/// target has (on the Cortex-M0 `thumb1`, `portable32` and `portable`): the last 32 bytes
/// against Python's `hashlib` (OpenSSL), and the whole output against the first
/// implementation's.
fn shake_multiblock() -> Result<(), &'static str> {
    let input: [u8; 200] = core::array::from_fn(|i| i as u8);
    let tails = [
        hex!("9be02ad62d0ee55f799d26a6c40538b5e7b012742bb3198b2efc96db188bad82"),
        hex!("fd2460f182dd5a58269c2e5d0b0d1c513014a1cdf8f677d7430b7a6f9c7a8d9c"),
    ];
    let mut first = [[0u8; 600]; 2];
    for (n, imp) in KeccakImpl::available().enumerate() {
        let mut out = [[0u8; 600]; 2];
        let mut readers = (
            {
                let mut h = Shake128::with_impl(imp);
                h.update(&input[..3]);
                h.update(&input[3..]);
                h.finalize_xof()
            },
            {
                let mut h = Shake256::with_impl(imp);
                h.update(&input);
                h.finalize_xof()
            },
        );
        for piece in out[0].chunks_mut(167) {
            readers.0.read(piece);
        }
        for piece in out[1].chunks_mut(137) {
            readers.1.read(piece);
        }
        for (o, tail) in out.iter().zip(&tails) {
            ensure(o[600 - 32..] == tail[..], imp.name())?;
        }
        if n == 0 {
            first = out;
        }
        ensure(out == first, imp.name())?;
    }
    Ok(())
}

/// RFC 4231 test case 2, and `verify` accepting it and rejecting a flipped bit.
fn hmac_sha256_rfc4231() -> Result<(), &'static str> {
    let want = hex!("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    let mut m = Hmac::<Sha256>::new(b"Jefe");
    m.update(b"what do ya want for nothing?");
    ensure(m.clone().finalize() == want, "tag")?;
    let mut bad = want;
    bad[0] ^= 1;
    ensure(m.clone().verify(&bad).is_err(), "accepted a wrong tag")?;
    ensure(m.verify(&want).is_ok(), "rejected the right tag")
}

/// RFC 5869 test case 1.
fn hkdf_sha256_rfc5869() -> Result<(), &'static str> {
    let salt = hex!("000102030405060708090a0b0c");
    let mut okm = [0u8; 42];
    Hkdf::<Sha256>::extract(&salt, &[0x0b; 22])
        .expand(&hex!("f0f1f2f3f4f5f6f7f8f9"), &mut okm)
        .map_err(|_| "expand refused")?;
    ensure(
        okm == hex!(
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
            "34007208d5b887185865"
        ),
        "okm",
    )
}

/// NIST CAVP `HMAC_DRBG.rsp`, SHA-256, no reseed, count 0: the second 1024-bit output.
fn hmac_drbg_cavp() -> Result<(), &'static str> {
    let mut d = HmacDrbg::<Sha256>::new(
        &hex!("ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488"),
        &hex!("659ba96c601dc69fc902940805ec0ca8"),
        b"",
    )
    .map_err(|_| "instantiate refused")?;
    let mut out = [0u8; 128];
    d.generate(&mut out, b"").map_err(|_| "generate refused")?;
    d.generate(&mut out, b"").map_err(|_| "generate refused")?;
    ensure(
        out == hex!(
            "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89"
            "d54fbb978a15b5c443c9ec21036d2460b6f73ebad0dc2aba6e624abf07745bc1"
            "07694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668"
            "961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8"
        ),
        "returned bits",
    )
}
