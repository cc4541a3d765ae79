//! Checks for `core-ec`'s Curve25519 code as the firmware builds it (on the Cortex-M0 the
//! `thumb1` field, eight 32-bit words with the product in Thumb-1 assembly, and the one-row
//! fixed-base table): RFC 7748 X25519 vectors and Diffie–Hellman, the zero-secret refusal,
//! RFC 8032 Ed25519 verification and signing, and on the Cortex-M0 the `thumb1` field
//! against `portable32` (which the host tests cannot run): its 512-bit product against a
//! schoolbook reference, every field operation on edge and pseudo-random values, and X25519
//! and the fixed-base multiplication of Ed25519 through both fields.

use core_ec::Implementation;
use core_ec::ed25519::{Signature, SigningKey, VerifyingKey};
use core_ec::x25519::{self, FieldImpl, PublicKey, SecretKey};
use hex_literal::hex;

use super::{Check, ensure};

/// The Curve25519 checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "ec25519::impl_fits_target", run: impl_fits_target },
    Check { name: "ec25519::x25519_rfc7748", run: x25519_rfc7748 },
    Check { name: "ec25519::x25519_dh_rfc7748", run: x25519_dh_rfc7748 },
    Check { name: "ec25519::x25519_low_order", run: x25519_low_order },
    Check { name: "ec25519::x25519_dh_random", run: x25519_dh_random },
    Check { name: "ec25519::ed25519_verify_rfc8032", run: ed25519_verify_rfc8032 },
    Check { name: "ec25519::ed25519_sign_rfc8032", run: ed25519_sign_rfc8032 },
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Check { name: "ec25519::thumb1_product", run: thumb1::product },
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Check { name: "ec25519::thumb1_square", run: thumb1::square },
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Check { name: "ec25519::thumb1_field_ops", run: thumb1::field_ops },
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Check { name: "ec25519::thumb1_x25519_vs_portable32", run: thumb1::x25519_vs_portable32 },
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Check { name: "ec25519::thumb1_ed25519_vs_portable32", run: thumb1::ed25519_vs_portable32 },
];

/// On the Cortex-M0 with `asm` the field is the Thumb-1 one, with its Rust twin `portable32`
/// beside it only because this firmware enables core-ec's `portable-twins`; on other 32-bit
/// targets (and without `asm`) it is `portable32`.
fn impl_fits_target() -> Result<(), &'static str> {
    // On a 64-bit host, whatever is fastest there (x86_adx or portable64), which must then be
    // the first available.
    if cfg!(all(target_arch = "arm", feature = "asm")) {
        ensure(
            FieldImpl::preferred().name() == "thumb1",
            "unexpected default field implementation",
        )?;
        ensure(FieldImpl::ALL == ["thumb1", "portable32"], "not the Thumb-1 field and its twin")
    } else if cfg!(target_pointer_width = "32") {
        ensure(FieldImpl::best().name() == "portable32", "unexpected default field implementation")
    } else {
        ensure(FieldImpl::available().next() == Some(FieldImpl::best()), "best is not first")?;
        ensure(FieldImpl::best().name() != "portable32", "32-bit field chosen on a 64-bit host")
    }
}

/// RFC 7748 §5.2, first vector.
fn x25519_rfc7748() -> Result<(), &'static str> {
    let k = hex!("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
    let u = hex!("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c");
    let want = hex!("c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552");
    ensure(x25519::x25519(&k, &u) == Ok(want), "wrong output")
}

/// RFC 7748 §6.1: Alice's public key (through the Edwards comb) and the shared secret.
fn x25519_dh_rfc7748() -> Result<(), &'static str> {
    let alice = SecretKey::from_bytes(hex!(
        "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"
    ));
    let bob_pub = PublicKey::from_bytes(hex!(
        "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
    ));
    let a_pub = hex!("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
    ensure(alice.public_key().as_bytes() == &a_pub, "wrong public key")?;
    let shared = alice.diffie_hellman(&bob_pub).map_err(|_| "agreement refused")?;
    let want = hex!("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
    ensure(shared.as_bytes() == &want, "wrong shared secret")
}

/// A low-order peer key (u = 0) gives `ZeroSharedSecret`.
fn x25519_low_order() -> Result<(), &'static str> {
    let got = x25519::x25519(&[0x42; 32], &[0; 32]);
    ensure(matches!(got, Err(core_ec::Error::ZeroSharedSecret)), "zero secret not refused")
}

/// Diffie–Hellman agreement between pseudo-random secrets: `a·(b·B) = b·(a·B)`, the public
/// keys through the Edwards comb and the shared secrets through the ladder. On the Cortex-M0
/// this cross-checks the field multiplication in Thumb assembly (which the host tests cannot
/// run) on values no fixed vector chose, against the two other paths through it.
fn x25519_dh_random() -> Result<(), &'static str> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut secret = || {
        let mut k = [0u8; 32];
        for b in &mut k {
            // xorshift64: fixed, so a failure reproduces.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *b = (state >> 24) as u8;
        }
        SecretKey::from_bytes(k)
    };
    for _ in 0..3 {
        let (a, b) = (secret(), secret());
        let ab = a.diffie_hellman(&b.public_key()).map_err(|_| "agreement refused")?;
        let ba = b.diffie_hellman(&a.public_key()).map_err(|_| "agreement refused")?;
        ensure(ab.as_bytes() == ba.as_bytes(), "the two sides disagree")?;
    }
    Ok(())
}

const SEED3: [u8; 32] = hex!("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7");
const PUB3: [u8; 32] = hex!("fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025");
const SIG3: [u8; 64] = hex!(
    "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
    "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
);

/// RFC 8032 §7.1 TEST 3 verifies; with a flipped bit it does not.
fn ed25519_verify_rfc8032() -> Result<(), &'static str> {
    let vk = VerifyingKey::from_bytes(&PUB3).map_err(|_| "key refused")?;
    ensure(vk.verify(&hex!("af82"), &Signature::from_bytes(SIG3)).is_ok(), "valid refused")?;
    let mut bad = SIG3;
    bad[40] ^= 4;
    ensure(vk.verify(&hex!("af82"), &Signature::from_bytes(bad)).is_err(), "forgery accepted")
}

/// RFC 8032 §7.1 TEST 3: the public key from the seed and the signature.
fn ed25519_sign_rfc8032() -> Result<(), &'static str> {
    let key = SigningKey::from_seed(&SEED3);
    ensure(key.verifying_key().to_bytes() == PUB3, "wrong public key")?;
    ensure(key.sign(&hex!("af82")).to_bytes() == SIG3, "wrong signature")
}

/// The `thumb1` field against `portable32` on the device.
#[cfg(all(target_arch = "arm", feature = "asm"))]
mod thumb1 {
    use core_ec::__m0_test as fe;
    use core_ec::x25519;

    use super::ensure;

    /// A fixed xorshift64 stream, so a failure reproduces.
    struct Rng(u64);

    impl Rng {
        fn word(&mut self) -> u32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 16) as u32
        }

        fn words(&mut self) -> [u32; 8] {
            core::array::from_fn(|_| self.word())
        }

        fn bytes(&mut self) -> [u8; 32] {
            let mut b = [0u8; 32];
            for (c, w) in b.chunks_exact_mut(4).zip(self.words()) {
                c.copy_from_slice(&w.to_le_bytes());
            }
            b
        }
    }

    /// p − 1 = 2^255 − 20, p, 2^255 − 1 (above p), 2^256 − 1, zero, one, 2^255, 2^32 − 1 in
    /// one word, and alternating words: the carry and sign edges of the product and the
    /// reductions. Then the Karatsuba product's: 128-bit halves that are equal while their
    /// 64-bit quarters differ by the most either way (a zero difference over maximal
    /// borrows), every 64-bit quarter equal to one (all differences zero with a subtracted
    /// sign), halves that differ only in their low word, and `2^32·2 + 2^32 − 1`, whose
    /// 64×64 product with `2^64 − 1` carries into the third word exactly when the cross
    /// products' second word is all ones.
    const EDGES: [[u32; 8]; 15] = {
        const M: u32 = u32::MAX;
        [
            [0xffff_ffec, M, M, M, M, M, M, 0x7fff_ffff],
            [0xffff_ffed, M, M, M, M, M, M, 0x7fff_ffff],
            [M, M, M, M, M, M, M, 0x7fff_ffff],
            [M; 8],
            [0; 8],
            [1, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, 0x8000_0000],
            [0, 0, 0, M, 0, 0, 0, 0],
            [M, 0, M, 0, 0, M, 0, M],
            [M, M, 0, 0, M, M, 0, 0],
            [0, 0, M, M, 0, 0, M, M],
            [0, 0, M, M, M, M, 0, 0],
            [1, 0, 1, 0, 1, 0, 1, 0],
            [M, 1, 2, 3, 0, 1, 2, 3],
            [M, 2, 0, 0, 0, 0, 0, 0],
        ]
    };

    /// The 512-bit product by schoolbook with 64-bit arithmetic.
    fn schoolbook(a: &[u32; 8], b: &[u32; 8]) -> [u32; 16] {
        let mut r = [0u32; 16];
        for i in 0..8 {
            let mut c = 0u64;
            for j in 0..8 {
                c += u64::from(a[i]) * u64::from(b[j]) + u64::from(r[i + j]);
                r[i + j] = c as u32;
                c >>= 32;
            }
            r[i + 8] = c as u32;
        }
        r
    }

    /// `lo + 38·hi` below 2^256 the way the assembly folds a 512-bit `t`: the top word first,
    /// its bits from 2^255 up as 19 times them into word 0, then words 0 to 6 in one carried
    /// pass whose carry goes into word 7 (below 2^31, so it cannot carry out); with whether
    /// that carry is not zero.
    fn fold(t: &[u32; 16]) -> ([u32; 8], bool) {
        let mut r = [0u32; 8];
        let top = u64::from(t[7]) + 38 * u64::from(t[15]);
        let mut c = 19 * (top >> 31);
        for i in 0..7 {
            c += u64::from(t[i]) + 38 * u64::from(t[i + 8]);
            r[i] = c as u32;
            c >>= 32;
        }
        r[7] = (top & 0x7fff_ffff) as u32 + c as u32;
        (r, c != 0)
    }

    /// The product and square references: schoolbook, folded.
    fn mul_ref(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
        fold(&schoolbook(a, b)).0
    }

    /// The pairs the field checks run on: every pair of edge values, then pseudo-random ones.
    fn pairs(random: usize) -> impl Iterator<Item = ([u32; 8], [u32; 8])> {
        let edges = EDGES.iter().flat_map(|a| EDGES.iter().map(move |b| (*a, *b)));
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        edges.chain((0..random).map(move |_| (rng.words(), rng.words())))
    }

    /// The product and square, with their fold, against the schoolbook product folded the
    /// same way (word for word, not just modulo p), and without it (P-256's field takes the
    /// 512-bit results) against the schoolbook product itself. The fold's carry into its top
    /// word is checked to happen.
    pub(super) fn product() -> Result<(), &'static str> {
        let mut last_carry = false;
        for (a, b) in pairs(40) {
            ensure(fe::mul_reduced(&a, &b) == mul_ref(&a, &b), "wrong product")?;
            ensure(fe::square_reduced(&a) == mul_ref(&a, &a), "wrong square")?;
            ensure(fe::mul_wide(&a, &b) == schoolbook(&a, &b), "wrong wide product")?;
            ensure(fe::square_wide(&a) == schoolbook(&a, &a), "wrong wide square")?;
            last_carry |= fold(&schoolbook(&a, &b)).1;
        }
        ensure(last_carry, "the fold's carry into its top word is not exercised")
    }

    /// The squaring (`thumb1/square_karatsuba.rs`) against the folded schoolbook product beyond
    /// [`product`]'s pairs: half-word patterns, single words and three values whose carries
    /// ripple where random ones essentially never do — through the top three words of the
    /// result (the first two) and into the top word of a 128-bit square (the third, whose high
    /// 64-bit half squared ends in nearly 96 one bits). With them, dropping any one instruction
    /// of the assembly, or the carry of any `ADCS`/`SBCS`, fails the check.
    pub(super) fn square() -> Result<(), &'static str> {
        const M: u32 = u32::MAX;
        const MORE: [[u32; 8]; 10] = [
            [0xffff_0000; 8],
            [0x0000_ffff; 8],
            [0xffff_0000, 0xffff, 0xffff_0000, 0xffff, 0xffff_0000, 0xffff, 0xffff_0000, 0xffff],
            [M, 0, M, 0, M, 0, M, 0],
            [0, M, 0, M, 0, M, 0, M],
            [M, M, M, M, 0, 0, 0, 0],
            [0, 0, 0, 0, M, M, M, M],
            [M, M, M, M, M, M, M - 1, M],
            [M, M, M, M, 0x7fff_ffff, 0x7fff_ffff, M, M - 1],
            [M, M, 0x6842_faaa, 0xe472_38e2, 0, 0, 0, 0],
        ];
        let singles = (0..8).flat_map(|i| {
            [1, 0x8000_0001, M].map(|w| {
                let mut a = [0; 8];
                a[i] = w;
                a
            })
        });
        let mut rng = Rng(0x5851_f42d_4c95_7f2d);
        let random = (0..200).map(|_| rng.words());
        for a in MORE.into_iter().chain(singles).chain(random) {
            ensure(fe::square_reduced(&a) == mul_ref(&a, &a), "wrong square")?;
            ensure(fe::square_wide(&a) == schoolbook(&a, &a), "wrong wide square")?;
        }
        Ok(())
    }

    /// Every field operation against `portable32`.
    pub(super) fn field_ops() -> Result<(), &'static str> {
        pairs(20).try_for_each(|(a, b)| fe::field_ops_agree(&a, &b))
    }

    /// X25519 with pseudo-random scalars and points (any 32 bytes, the top bit too) on both
    /// fields.
    pub(super) fn x25519_vs_portable32() -> Result<(), &'static str> {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20 {
            let (k, u) = (rng.bytes(), rng.bytes());
            let got = x25519::x25519(&k, &u).unwrap_or([0; 32]);
            ensure(got == fe::x25519_portable32(&k, &u), "the fields disagree")?;
        }
        Ok(())
    }

    /// The fixed-base multiplication of Ed25519 key derivation and signing on both fields, for
    /// pseudo-random scalars below 2^255 (the comb's range) and the edges 0, 1 and 2^255 − 1;
    /// signing itself is checked on `thumb1` against RFC 8032.
    pub(super) fn ed25519_vs_portable32() -> Result<(), &'static str> {
        let mut rng = Rng(0x0123_4567_89ab_cdef);
        let mut one = [0; 32];
        one[0] = 1;
        let mut top = [0xff; 32];
        top[31] = 0x7f;
        let random = (0..6).map(|_| {
            let mut k = rng.bytes();
            k[31] &= 0x7f;
            k
        });
        for k in [[0; 32], one, top].into_iter().chain(random) {
            ensure(fe::mul_base_agree(&k), "the fixed-base multiplications disagree")?;
        }
        Ok(())
    }
}
