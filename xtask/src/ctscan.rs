//! The `m0 ct-scan` stage: disassembles the Cortex-M0 firmware and checks that the functions
//! that compute on secrets hold no conditional branch beyond the ones listed in [`ALLOWED`].
//!
//! Why: Thumb-1 has no conditional select, so when LLVM recognises a carry, a borrow or a
//! comparison computed from secret words it may emit a compare and a `b<cond>` around a `mov`,
//! a timing leak that the valgrind check (`cargo xtask ct`, x86-64 only) never sees. It
//! happened in core-rsa's `portable15` borrow and in core-ec's `serial32::sub_l`; both now pass
//! the word the flag is taken from through a value barrier (`core_hash::value_barrier`).
//!
//! How: both firmware images (`m0-kat`, and `m0-cost` with every operation linked: LTO inlines
//! differently in each) are disassembled with `objdump -d -C`; every function in [`ALLOWED`] is
//! found by its demangled name (each monomorphised copy in each image is checked), and its
//! conditional branches are counted. Each entry names how many branches were reviewed and found to depend
//! only on loop counters, lengths or public data, and why. More branches than that fail the
//! stage, with the branches listed for review; a listed function missing from the firmware
//! fails it too (it was inlined: list its caller instead), so the list cannot quietly go stale.
//! LLVM's `0xd4d4` padding after a function's last instruction decodes as `bmi` and is skipped.
//!
//! The same disassembly then goes through the division check ([`crate::divscan`]): no call of
//! a division helper (`__aeabi_uidiv`, …) may be reachable from core-lattice (`KyberSlash`).
//!
//! By hand (what this automates): `arm-none-eabi-objdump -d -C target/xtask/m0-kat.elf`, find
//! the function, and for each `b<cond>` read the instruction that set the flags: a compare of
//! an index or length is fine; a compare, `adds`/`subs` carry or bit test of key, nonce-derived
//! state, field element, scalar or tag bytes is a leak.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use crate::util::{self, StageResult};
use crate::{divscan, m0};

/// A secret-processing function and the conditional branches it may have.
struct Allowed {
    /// The demangled name as `objdump -C` prints it between `<` and `>`.
    name: &'static str,
    /// How many conditional branches each copy may have (all reviewed).
    branches: usize,
    /// What those branches test.
    why: &'static str,
}

/// Reviewed with `--profile size` (opt-level z, fat LTO) on Rust 1.95.
const ALLOWED: &[Allowed] = &[
    // core-ec, NIST curves: the 15-bit Montgomery field (P-256 and P-384 copies) and points.
    a("<core_ec::nist::mont15::Fixed15<M,_> as core_ec::nist::Field>::mul", 1, "limb loop"),
    a("<core_ec::nist::mont15::Fixed15<M,_> as core_ec::nist::Field>::add", 0, ""),
    a("<core_ec::nist::mont15::Fixed15<M,_> as core_ec::nist::Field>::sub", 0, ""),
    a("core_ec::nist::Field::sqr", 0, ""),
    a("core_ec::nist::Field::neg", 0, ""),
    a("core_ec::nist::Field::eq", 0, ""),
    // Written out for P-256 (no loop, no branch) since its result was zeroed by `memclr`.
    a("core_ec::nist::mont15::Mont15<_>::select", 0, ""),
    a("core_ec::nist::mont15::Mont15<_>::is_zero", 1, "limb loop"),
    a(
        "core_ec::nist::mont15::Mont15<_>::plain_to_be",
        4,
        "byte loop, bit offsets of the output bytes (the Montgomery product is `mul`'s now)",
    ),
    // (`add`, `double`, `select` and `recode` are inlined into their callers since the
    // Jacobian windows and comb: their branches are counted there.)
    a("core_ec::nist::point::Curve<F,S>::jac_double", 0, ""),
    a(
        "core_ec::nist::point::Curve<F,S>::mul_base",
        21,
        "comb geometry (rows, spacing, div_ceil of lengths), row and entry loops, bounds, the \
         full-table check (table and order lengths), and the inlined `recode`'s byte and digit \
         loops (iterator states)",
    ),
    a("core_ec::nist::point::split_digit", 0, ""),
    // core-ec, curve25519: the 32-bit field, points, scalars mod L, X25519.
    // The Thumb-1 multiplication's column loops (`portable32/thumb1.rs`): the compares are
    // of limb pointers against the column's end, the `subs` of the pass counter.
    a(
        "<core_ec::curve25519::portable32::Fe as core_ec::curve25519::field::Field>::mul",
        10,
        "eight column loops (limb pointer against its end), the pass counter, the last column",
    ),
    a("<core_ec::curve25519::portable32::Fe as core_ec::curve25519::field::Field>::square", 0, ""),
    a("<core_ec::curve25519::portable32::Fe as core_ec::curve25519::field::Field>::add", 0, ""),
    a("<core_ec::curve25519::portable32::Fe as core_ec::curve25519::field::Field>::sub", 0, ""),
    a(
        "<core_ec::curve25519::portable32::Fe as core_ec::curve25519::field::Field>::to_bytes",
        5,
        "limb loop, byte iterator, bit offsets of the output bytes",
    ),
    a(
        "<core_ec::curve25519::portable32::Fe as subtle::ConditionallySelectable>::conditional_select",
        1,
        "limb loop",
    ),
    a(
        "<core_ec::curve25519::portable32::Fe as subtle::ConditionallySelectable>::conditional_swap",
        1,
        "limb loop (the swap itself is masked)",
    ),
    a("core_ec::curve25519::portable32::Fe::fold255", 0, ""),
    // The Thumb-1 field (`thumb1.rs`, `thumb1/mul_karatsuba.rs`, `thumb1/square_karatsuba.rs`):
    // the product and the square with their reduction (`Fe::mul` and `Fe::square` are
    // inlined calls to them), `add`, `sub`, the conditional select and swap, and `mul_a24`,
    // `add_mul_a24` (the ladder's `AA + a24·E`, in place) and `to_bytes` (inlined into their
    // callers) are straight-line assembly; `to_bytes` is assembly because its compiled masked
    // select became a `bmi` on the mask.
    a("core_asm::thumbv6m::ec::curve25519::mul_karatsuba::mul", 0, ""),
    a("core_asm::thumbv6m::ec::curve25519::mul_karatsuba::mul_to", 0, ""),
    a("core_asm::thumbv6m::ec::curve25519::square_karatsuba::square_raw", 0, ""),
    // The same assembly without the fold, for P-256's field.
    a("core_asm::thumbv6m::ec::curve25519::mul_karatsuba::mul_wide", 0, ""),
    a("core_asm::thumbv6m::ec::curve25519::square_karatsuba::square_wide", 0, ""),
    // Their 128-bit subroutines (naked functions, shared by both variants).
    a("core_asm::thumbv6m::ec::curve25519::mul_karatsuba::mul128", 0, ""),
    a("core_asm::thumbv6m::ec::curve25519::square_karatsuba::square128", 0, ""),
    a("<core_ec::curve25519::thumb1::Fe as core_ec::curve25519::field::Field>::add", 0, ""),
    a("<core_ec::curve25519::thumb1::Fe as core_ec::curve25519::field::Field>::sub", 0, ""),
    a(
        "<core_ec::curve25519::thumb1::Fe as subtle::ConditionallySelectable>::conditional_select",
        0,
        "",
    ),
    a(
        "<core_ec::curve25519::thumb1::Fe as subtle::ConditionallySelectable>::conditional_swap",
        0,
        "",
    ),
    // P-256's Thumb-1 field (`nist/p256_thumb1.rs`): the reduction, `add`, `sub`, `halve`
    // and the select are assembly, straight-line but for halve's word loop (the product is
    // `mul_karatsuba`'s).
    a("core_ec::nist::p256_thumb1::redc", 0, ""),
    a("core_ec::nist::p256_thumb1::mul", 0, ""),
    a("core_ec::nist::p256_thumb1::sqr", 0, ""),
    a("core_ec::nist::p256_thumb1::add", 0, ""),
    a("core_ec::nist::p256_thumb1::sub", 0, ""),
    a("core_ec::nist::p256_thumb1::halve", 1, "the shift's word loop (fixed count)"),
    a("core_ec::nist::p256_thumb1::select", 0, ""),
    a("<core_ec::nist::p256_thumb1::P256Thumb1 as core_ec::nist::Field>::is_zero", 0, ""),
    a(
        "<core_ec::nist::p256_thumb1::P256Thumb1 as core_ec::nist::Field>::to_be",
        2,
        "byte loop (output length) and the byte's position against 32",
    ),
    a("core_ec::curve25519::portable32::Fe::chain", 1, "limb loop"),
    a("core_ec::curve25519::field::Field::invert", 0, ""),
    a("core_ec::curve25519::field::Field::square_n", 1, "squaring count"),
    a("core_ec::curve25519::field::Field::is_zero", 0, ""),
    a("core_ec::curve25519::field::Field::is_negative", 0, ""),
    a("core_ec::curve25519::field::Field::equals", 0, ""),
    a("core_ec::curve25519::field::Field::neg", 0, ""),
    a("core_ec::curve25519::field::pow_2_250_1", 0, ""),
    a("core_ec::curve25519::edwards::Point<F>::double", 0, ""),
    a("core_ec::curve25519::edwards::Point<F>::cached", 0, ""),
    // 5 since the Cortex-M0 has one Curve25519 field (LTO keeps the comb out of line): the
    // recoding's byte and carry loops, the digit loop and its first-digit test, the entry loop.
    a("core_ec::curve25519::edwards::Point<F>::mul_base", 5, "digit loops and table-entry loops"),
    a("core_ec::curve25519::scalar::serial32::sub_l", 2, "word loops (the borrow is arithmetic)"),
    a("core_ec::curve25519::scalar::serial32::add", 1, "word loop"),
    a("core_ec::curve25519::scalar::serial32::double_add_bit", 1, "word loop"),
    a("core_ec::curve25519::scalar::reduce_wide", 1, "bit loop"),
    // 3 with one field on the Cortex-M0; 4 since the firmware has two (thumb1, portable32).
    a(
        "core_ec::x25519::x25519_with_impl",
        4,
        "the (public) field implementation, the ladder loop of each field, the public \
         all-zero verdict",
    ),
    // core-aead.
    // Thumb-1 assembly on the Cortex-M0 (core-asm's `thumbv6m/aead/aes.rs`), straight-line.
    a("core_asm::thumbv6m::aead::aes::sub_bytes", 0, ""),
    // ct32's cipher is out of line since CTR got its own loop (`ct32::encrypt2` was the
    // entry, 19 branches, before); its callers load and store the planes.
    a(
        "core_aead::aes::thumb1::encrypt_planes",
        // 3 before ShiftRows became a loop over the planes; 4 before the middle rounds'
        // linear steps went into assembly (`thumb1::shift_mix_add`) and the first and last
        // round keys were taken apart here.
        6,
        "round count (slice bounds and the empty and short schedules), the first and last \
         round keys' plane loops, the round loop",
    ),
    a("core_asm::thumbv6m::aead::aes::shift_mix_add", 1, "plane loop"),
    a("core_asm::thumbv6m::aead::aes::ortho", 1, "the loop over the two groups of four words"),
    // The block loops of `aes::batched`, one per backend (ct32's only in m0-kat).
    a(
        "core_aead::aes::thumb1::<impl core_aead::aes::Backend for \
         core_aead::aes::ct32::Key<core_aead::aes::thumb1::Thumb1>>::encrypt_blocks::{{closure}}",
        6,
        "block loop, group length",
    ),
    a(
        "<core_aead::aes::ct32::Key<core_aead::aes::ct32::Ct32> as \
         core_aead::aes::Backend>::encrypt_blocks::{{closure}}",
        6,
        "block loop, group length",
    ),
    // 9 while CTR XORed whole words and then a byte tail; 3 with a byte loop alone. 7 in
    // m0-cost, which links thumb1 alone; 11 in m0-kat, which links ct32 beside it
    // (core-aead's `portable-twins`) and inlines its loop here too.
    a(
        "core_aead::aes::Aes::ctr32",
        11,
        "chunk loop and length, the whole-chunk test, the assembly's pass loop, the last \
         chunk's word and byte loops, backend dispatch; ct32's chunk loop and length and \
         its byte loop",
    ),
    a("core_aead::aes::ct32::ctr32::{{closure}}", 0, ""),
    a("core_aead::ghash::ct32::xor_be", 1, "byte loop"),
    a(
        "core_aead::ghash::GhashKey::update_blocks",
        // 8 in m0-cost (thumb1 alone), 17 in m0-kat, where ct32's loops are inlined beside
        // thumb1's (core-aead's `portable-twins`).
        17,
        // 45 before ct64 left 32-bit builds (its inlined multiply's shift counts went with it);
        // 13 before ct32 multiplied 16-bit halves (no bit reversal); 9, then 6, when the lower
        // Karatsuba level was done per group of three products (two loops fewer); 8 since
        // the reduction runs a word a step and the accumulator is stored a byte a step.
        "block, group, product, Karatsuba, reduction and store loops (each implementation's), \
         backend dispatch",
    ),
    // 3 before the products went through 13-bit halves (`blocks_halves`, with the Thumb-1
    // dot product of core-asm's `thumbv6m/aead/poly1305.rs` inlined: straight-line).
    // 6 in m0-kat, which links portable32's Rust dot product (a loop over the five terms)
    // beside thumb1's (core-aead's `portable-twins`).
    a(
        "core_aead::poly1305::portable32::State::blocks",
        6,
        "block loop, the loop loading its words, the limb loop, the loops zeroing and \
         filling the key's halves, the Rust dot product's term loop",
    ),
    // The Cortex-M0 block in Thumb-1 assembly (core-asm's `thumbv6m/aead/chacha20.rs`);
    // before it, the compiled `portable::xor_block` had 3 (round, column and byte loops).
    a(
        "core_asm::thumbv6m::aead::chacha20::xor_block",
        5,
        "the state-copy, column, double-round, final-XOR and wiping loops (fixed trip counts)",
    ),
    // `xor_bytes` (inline assembly) inlined: before it, the compiled byte loop had 1.
    a(
        "core_aead::chacha20::thumb1::xor_copy",
        4,
        "the tests for a whole word and for a tail, the word loop and the byte loop, over the \
         chunk's (public) length",
    ),
    a("core_aead::tag_eq", 1, "the tags' (public) lengths"),
    a(
        "core_aead::aes::Aes::with_impl",
        // 33 before ct64 (and its key schedule) left 32-bit builds; 21 before SubBytes moved
        // out of line (`ct32::sub_bytes`); 16 before SubWord went through the planes and
        // the round keys stayed words (no bit-gathering or words-to-bytes loops); 8 before
        // ct32's key expansion moved out of line (`ct32::Key::new`). 2 in m0-kat, which
        // has thumb1 and ct32 (core-aead's `portable-twins`): one `Key::new` each.
        2,
        "the (public) implementation",
    ),
    a(
        "core_aead::aes::ct32::Key<S>::new",
        9,
        "key length, expansion loop and its word-index tests, spreading loops, index bounds",
    ),
    // 8 with the bare-metal column loop of the inlined key block's rounds, which is how the
    // m0-kat image had it again since ct32's key schedule shrank (LTO inlines differently); 7
    // since the block is `thumb1::xor_block`, out of line; 5 since the key block is
    // `thumb1::xor_copy`'s (its bytes loop went with it).
    // 10 in m0-kat, where the portable twin's key block and block loop are inlined beside
    // thumb1's (core-aead's `portable-twins`).
    a(
        "core_aead::chacha20::ChaCha20Impl::keystream",
        10,
        "the (public) implementation, whether there is a key block, the block loops, the \
         buffer's alignment and the chunk's length, the portable tail",
    ),
    // 2 before Poly1305's blocks on the Cortex-M0 stayed out of line (`blocks_halves`): what
    // is left is straight-line.
    // 2 in m0-kat, which has thumb1 and portable32 (core-aead's `portable-twins`).
    a("core_aead::chacha20poly1305::Engine::tag", 2, "the (public) Poly1305 implementation"),
    // poly1305::aead_tag's block closures are inlined into their caller since the M0 image
    // links only portable32 (one instance each, no 64-bit-limb backends).
    a(
        "core_aead::gcm::GcmKey::open",
        5,
        "the nonce's Result, lengths, and the public verdict of tag_eq",
    ),
    a(
        "<core_aead::ccm::AesCcm<_,_> as core_aead::Aead>::open_in_place_detached",
        4,
        "backend dispatch, lengths, and the public verdict of tag_eq",
    ),
    // core-hash.
    a("core_hash::hmac::Hmac<H>::verify", 2, "backend dispatch, byte loop"),
    a(
        "core_hash::sha256::portable::compress",
        6,
        "block, load, schedule and round loops, dispatch",
    ),
    a("core_hash::sha512::portable::compress", 5, "block, round and schedule loops, dispatch"),
    // The Thumb-1 Keccak-f (core-asm): straight-line rounds.
    a(
        "core_asm::thumbv6m::hash::keccak_f1600_interleaved",
        1,
        "the loop over pairs of rounds (round-constant pointer against its end)",
    ),
    // ML-KEM's ring arithmetic in Thumb-1 assembly (core-asm's `thumbv6m/lattice.rs`).
    a(
        "core_asm::thumbv6m::lattice::ntt_layer",
        3,
        "the (public) layer number's range, the butterfly and block loops (pointers against ends)",
    ),
    a(
        "core_asm::thumbv6m::lattice::inv_ntt_layer",
        3,
        "the (public) layer number's range, the butterfly and block loops (pointers against ends)",
    ),
    a(
        "core_asm::thumbv6m::lattice::mul_const",
        1,
        "the coefficient loop (pointer against its end)",
    ),
    a(
        "core_asm::thumbv6m::lattice::basemul_acc_packed",
        5,
        "the (public) slice lengths' minimum and checks, the loop over pairs (pointer against its end)",
    ),
    // ML-KEM's Rust code on secret coefficients: `to_unsigned`'s sign mask (in `encode12` and
    // `compress`) compiled to `cmp; bpl; adds` until it went through a value barrier (session 23).
    a(
        "core_lattice::mlkem::MlKemImpl::encode12",
        3,
        "the output length check and the loop over coefficient pairs (counter against zero)",
    ),
    a("core_lattice::mlkem::poly::compress", 0, ""),
    a(
        "core_lattice::mlkem::poly::sample_cbd_add",
        7,
        "η's chunk length, the block and chunk loops, the sponge position against the rate \
         (136) and the bytes left: counters and public lengths",
    ),
    // core-rsa (the 15-bit engine's carries and borrows pass through a value barrier).
    // One more each since the exponentiation's products may skip the final subtraction: the
    // branch tests that public flag (`reduce`), before `reduce_once`.
    a(
        "core_rsa::mont::portable15::mont_mul",
        10,
        "digit loops, their bounds and parity, the public `reduce` flag",
    ),
    // 14 since the assembly rows take four digits a pass (the Rust head of up to three
    // digits is a loop where one odd digit was an `if`); 15 with the `reduce` flag.
    a(
        "core_rsa::mont::portable15::mont_sqr",
        15,
        "digit loops, their bounds and the row length mod 4, the public `reduce` flag",
    ),
    // (`portable64` is not built for 32-bit targets: a request for it gets `portable15`.)
    a("core_rsa::mont::ops::sub_borrow", 2, "the slices' common length, digit loop"),
    a("core_rsa::mont::ops::reduce_once", 2, "the slices' common length, digit loop"),
    a("core_rsa::mont::ops::add", 2, "the slices' common length, digit loop"),
    a("core_rsa::mont::ops::ct_eq", 2, "the slices' common length, digit loop"),
    a("core_rsa::mont::ops::mul_full", 4, "digit loops and their bounds"),
    // ops::bit is inlined into its callers since it shifts narrow digits as u32 (its
    // public index check is counted in pow_ct_with's closure below).
    a("core_rsa::mont::ops::leading_zero_bytes_ct", 1, "byte loop"),
    // Out of line since its masks were compiled as a branch on each bit of a secret prime's
    // digits (in Mont::init, which the scan does not list).
    a("core_rsa::mont::ops::bits_ct_narrow", 2, "digit loop, bit loop"),
    a("core_rsa::mont::select", 4, "entry loop, digit loop, their bounds"),
    a(
        "core_rsa::mont::Mont<W>::pow_ct_with",
        17,
        "table-building loop and its parity, window and squaring loops, lengths and slice \
         bounds (17 since the lazy products: their flag is the public bit length and digit \
         count, and the final subtraction adds slicing)",
    ),
    a(
        "core_rsa::mont::Mont<W>::pow_ct_with::{{closure}}",
        2,
        "bit loop of a window digit, the (public) bit index against the exponent length",
    ),
    // Software 64-bit multiply the field code calls.
    a("__aeabi_lmul", 0, ""),
];

const fn a(name: &'static str, branches: usize, why: &'static str) -> Allowed {
    Allowed { name, branches, why }
}

/// One conditional branch in the disassembly.
#[derive(Debug, PartialEq, Eq)]
struct Branch {
    /// Its line, trimmed (address, encoding, instruction).
    line: String,
    /// The last instruction before it that sets the flags (`cmp`, `adds`, `lsls`, …).
    before: String,
}

/// A function's conditional branches, by start address and demangled name.
#[derive(Debug, Default)]
struct Function {
    name: String,
    branches: Vec<Branch>,
}

/// Thumb condition codes.
const CONDITIONS: [&str; 16] = [
    "eq", "ne", "cs", "cc", "hs", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le",
];

/// Whether `mnemonic` is a conditional branch (`beq`, `bne.n`, `bcs.w`, …).
fn is_conditional_branch(mnemonic: &str) -> bool {
    let base = mnemonic.split('.').next().unwrap_or("");
    base.len() == 3 && base.starts_with('b') && CONDITIONS.contains(&&base[1..])
}

/// Whether a Thumb-1 instruction sets the condition flags: the compares and tests, and the
/// flag-setting (`…s`) data-processing instructions. Loads, stores, branches and the high
/// register `mov`/`add` do not.
fn sets_flags(mnemonic: &str) -> bool {
    matches!(mnemonic, "cmp" | "cmn" | "tst")
        || (mnemonic.len() == 4
            && mnemonic.ends_with('s')
            && !matches!(mnemonic, "ldrs" | "strs")
            && !mnemonic.starts_with("bl"))
}

/// Splits `objdump -d -C` output (GNU or LLVM) into functions with their conditional branches.
fn parse(disassembly: &str) -> Vec<Function> {
    let mut functions: Vec<Function> = Vec::new();
    let mut before = String::new();
    for line in disassembly.lines() {
        let trimmed = line.trim();
        // A function header: `0001030c <name>:`.
        if let Some(rest) = trimmed.strip_suffix(">:")
            && let Some((addr, name)) = rest.split_once(" <")
            && u64::from_str_radix(addr, 16).is_ok()
        {
            functions.push(Function { name: name.to_owned(), branches: Vec::new() });
            before.clear();
            continue;
        }
        // An instruction: `1030c:<tab>b5f8 [<tab>or spaces]push ...`.
        let Some((addr, rest)) = trimmed.split_once(':') else { continue };
        if addr.is_empty() || u64::from_str_radix(addr, 16).is_err() {
            continue;
        }
        let mut fields = rest.split('\t').map(str::trim).filter(|f| !f.is_empty());
        let Some(encoding) = fields.next() else { continue };
        let instruction = fields.collect::<Vec<_>>().join(" ");
        let mnemonic = instruction.split_whitespace().next().unwrap_or("");
        let Some(function) = functions.last_mut() else { continue };
        // LLVM pads functions with 0xd4d4, which decodes as `bmi`.
        let padding = encoding.replace(' ', "") == "d4d4";
        if is_conditional_branch(mnemonic) && !padding {
            function.branches.push(Branch { line: trimmed.to_owned(), before: before.clone() });
        }
        if sets_flags(mnemonic) {
            before = instruction;
        }
    }
    functions
}

/// Checks `functions` against [`ALLOWED`]; the error lists every problem.
fn check(functions: &[Function], allowed: &[Allowed]) -> StageResult {
    let mut problems = Vec::new();
    let mut checked = 0;
    for rule in allowed {
        let copies: Vec<_> = functions.iter().filter(|f| f.name == rule.name).collect();
        if copies.is_empty() {
            problems.push(format!(
                "{}: not in the firmware (inlined or renamed? list its caller instead)",
                rule.name
            ));
        }
        let most = copies.iter().map(|f| f.branches.len()).max();
        for f in copies {
            checked += 1;
            if f.branches.len() > rule.branches {
                let mut p = format!(
                    "{}: {} conditional branches, {} reviewed ({}):",
                    rule.name,
                    f.branches.len(),
                    rule.branches,
                    if rule.why.is_empty() { "none allowed" } else { rule.why }
                );
                for b in &f.branches {
                    let _ = write!(p, "\n      {}    flags from: {}", b.line, b.before);
                }
                problems.push(p);
            }
        }
        if let Some(most) = most
            && most < rule.branches
        {
            println!(
                "xtask: note: {} has at most {most} conditional branches, fewer than the {} \
                 reviewed; lower its entry",
                rule.name, rule.branches
            );
        }
    }
    println!("xtask: ct-scan checked {checked} function copies ({} entries)", allowed.len());
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "conditional branches to review in secret-processing functions (see xtask/src/ctscan.rs):\n  {}",
            problems.join("\n  ")
        ))
    }
}

/// `arm-none-eabi-objdump`, else `llvm-objdump` from rustup's llvm-tools (as new as rustc).
/// Not an `llvm-objdump` found on `PATH`: Debian 12's (LLVM 14) demangles Rust's generic
/// names (`<… as …>::mul`) only in part, so the allow-list would match nothing and the stage
/// would fail on a machine that happens to have LLVM installed.
pub(crate) fn objdump() -> Result<std::path::PathBuf, String> {
    util::find_program("arm-none-eabi-objdump")
        .or_else(|| m0::rustup_llvm_tool("llvm-objdump"))
        .ok_or_else(|| {
            "missing arm-none-eabi-objdump (Debian: binutils-arm-none-eabi) or llvm-objdump \
             (rustup component add llvm-tools)"
                .to_owned()
        })
}

/// The stage: scans the firmware images `elfs` together.
pub(crate) fn run(elfs: &[PathBuf]) -> StageResult {
    let tool = objdump()?;
    let mut functions = Vec::new();
    let mut divisions = Vec::new();
    for elf in elfs {
        let text = util::output(Command::new(&tool).args(["-d", "-C"]).arg(elf))?;
        let found = parse(&text);
        if found.is_empty() {
            return Err(format!("no functions found in the disassembly of {}", elf.display()));
        }
        functions.extend(found);
        let name = elf.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        if let Err(why) = divscan::check(&text, DIVISION_ROOTS, &name) {
            divisions.push(why);
        }
    }
    let branches = check(&functions, ALLOWED);
    match (branches, divisions.is_empty()) {
        (Ok(()), true) => Ok(()),
        (Ok(()), false) => Err(divisions.join("\n")),
        (Err(why), true) => Err(why),
        (Err(why), false) => Err(format!("{why}\n{}", divisions.join("\n"))),
    }
}

/// Where the division check (`crate::divscan`) starts on the firmware: core-lattice's own
/// functions, and the ML-KEM checks (`m0_kat::checks::mlkem`) and cost operations
/// (`m0_cost::ops::mlkem768_…`) that LTO inlines its entry points into.
const DIVISION_ROOTS: &[&str] = &["core_lattice", "mlkem"];

#[cfg(test)]
mod tests {
    use super::*;

    const GNU: &str = "\
0001030c <core_ec::nist::mont15::Mont15<_>::select>:
   10326:\t2948      \tcmp\tr1, #72\t@ 0x48
   10328:\td007      \tbeq.n\t1033a <core_ec::nist::mont15::Mont15<_>::select+0x2e>
   1033a:\tbdf8      \tpop\t{r3, r4, r5, r6, r7, pc}
   1033c:\td4d4      \tbmi.n\t102e8 <x>

00016fbc <core_ec::curve25519::scalar::serial32::sub_l>:
   16ff2:\t4294      \tcmp\tr4, r2
   16ff4:\t461a      \tmov\tr2, r3
   16ff6:\td300      \tbcc.n\t16ffa <core_ec::curve25519::scalar::serial32::sub_l+0x3e>
   16ff8:\t462a      \tmov\tr2, r5
   16ffa:\t4286      \tcmp\tr6, r0
   16ffc:\td300      \tbcc.n\t17000 <core_ec::curve25519::scalar::serial32::sub_l+0x44>
   16ffe:\tb.n\t16fdc
";

    const LLVM: &str = "\
0001030c <core_ec::nist::mont15::Mont15<_>::select>:
   10326: 48 29        \tcmp\tr1, #0x48
   10328: 07 d0        \tbeq\t0x1033a <core_ec::nist::mont15::Mont15<_>::select+0x2e>
   1033c: d4 d4        \tbmi\t0x102e8
";

    #[test]
    fn branches_are_found_and_padding_skipped() {
        let f = parse(GNU);
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].name, "core_ec::nist::mont15::Mont15<_>::select");
        assert_eq!(f[0].branches.len(), 1, "{:?}", f[0].branches);
        assert!(f[0].branches[0].before.starts_with("cmp r1, #72"));
        assert_eq!(f[1].branches.len(), 2);
        // The flags of the first `bcc` come from the `cmp` before the `mov`.
        assert!(f[1].branches[0].before.starts_with("cmp r4, r2"));
        let f = parse(LLVM);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].branches.len(), 1);
    }

    #[test]
    fn mnemonics_are_classified() {
        for m in ["beq", "bne.n", "bcs.w", "bmi", "ble.n"] {
            assert!(is_conditional_branch(m), "{m}");
        }
        for m in ["b", "b.n", "bl", "blx", "bx", "bics", "bkpt", "beq2"] {
            assert!(!is_conditional_branch(m), "{m}");
        }
        for m in ["cmp", "tst", "adds", "subs", "lsls", "movs", "adcs", "mvns", "muls"] {
            assert!(sets_flags(m), "{m}");
        }
        for m in ["ldr", "str", "mov", "add", "ldrb", "strh", "push", "pop", "bl", "b.n", "blx"] {
            assert!(!sets_flags(m), "{m}");
        }
    }

    #[test]
    fn extra_or_missing_functions_fail() {
        let f = parse(GNU);
        let ok = [
            a("core_ec::nist::mont15::Mont15<_>::select", 1, "limb loop"),
            a("core_ec::curve25519::scalar::serial32::sub_l", 2, "test"),
        ];
        assert!(check(&f, &ok).is_ok());
        // The leak this stage exists for: two branches on borrows where one loop was reviewed.
        let tight = [a("core_ec::curve25519::scalar::serial32::sub_l", 1, "word loop")];
        let err = check(&f, &tight).unwrap_err();
        assert!(err.contains("sub_l: 2 conditional branches, 1 reviewed"), "{err}");
        assert!(err.contains("flags from: cmp r6, r0"), "{err}");
        let missing = [a("core_ec::nist::mont15::Mont15<_>::gone", 0, "")];
        assert!(check(&f, &missing).unwrap_err().contains("not in the firmware"));
    }
}
