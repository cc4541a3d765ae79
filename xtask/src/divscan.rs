//! The division check (KyberSlash): no division may run on core-lattice's secrets. FIPS 203
//! writes Compress as a division by q, which compiles to `div` on x86-64 and to a call of
//! `__aeabi_uidiv` on the Cortex-M0 (which has no divide instruction): both take a time that
//! depends on the dividend. Halite's Compress multiplies and shifts instead; this check keeps
//! it that way, in object code, where a refactoring or a new compiler would show.
//!
//! How: the disassembly (`objdump -d -C`, GNU or LLVM) is split into functions with the
//! functions each one calls (`bl`, `call`, and jumps to another function's start, which are
//! tail calls) and the division instructions it holds (`div`/`idiv` on x86-64). Starting from
//! the roots — every function whose name contains one of the given markers (`core_lattice`,
//! and on the firmware the ML-KEM checks and cost operations that core-lattice is inlined
//! into) — every function reachable by direct calls is visited; reaching a division helper
//! (`__aeabi_uidiv`, `__udivsi3`, `__udivti3`, …) or a division instruction fails the check,
//! with the call path. Panic paths are not followed (a function whose name says `panic` or
//! `fail`, and `core::fmt`): they format the panic message, whose integer printing divides,
//! after the computation has been abandoned. Nor are the functions of other crates in
//! [`REVIEWED`], whose divisions were read and act on public lengths and indices. Calls
//! through function pointers are not seen.
//!
//! Where: `m0 ct-scan` runs it on both firmware images (after the branch scan), and `ct
//! div-scan` on the release `ct-harness` binary that `cargo xtask ct` builds for x86-64, which
//! runs every ML-KEM implementation the machine has and so links them all.

use std::collections::{BTreeMap, VecDeque};

use crate::util::StageResult;

/// Division helpers of the ARM EABI, libgcc and compiler-builtins (32, 64 and 128 bits).
const HELPERS: &[&str] = &[
    "__aeabi_uidiv",
    "__aeabi_uidivmod",
    "__aeabi_idiv",
    "__aeabi_idivmod",
    "__aeabi_uldivmod",
    "__aeabi_ldivmod",
    "__udivsi3",
    "__divsi3",
    "__umodsi3",
    "__modsi3",
    "__udivmodsi4",
    "__divmodsi4",
    "__udivdi3",
    "__divdi3",
    "__umoddi3",
    "__moddi3",
    "__udivmoddi4",
    "__divmoddi4",
    "__udivti3",
    "__divti3",
    "__umodti3",
    "__modti3",
    "__udivmodti4",
    "__divmodti4",
];

/// Functions outside core-lattice whose divisions were reviewed and found to act on public
/// values only: the walk does not enter them. Each says what it divides. The Cortex-M0 has no
/// divide instruction and LLVM does not turn a 32-bit division by a constant into a multiply
/// there, so even `len / 136` is a helper call.
const REVIEWED: &[(&str, &str)] = &[
    (
        "core_hash::sha3::sponge::Sponge<_>::absorb",
        "the message length by the rate (`as_chunks::<RATE>`): lengths are public",
    ),
    ("core_hash::sha3::Sha3_512::update", "the same absorb, inlined: the length by the rate"),
    ("core_hash::sha3::Sha3_256::update", "the same absorb, inlined: the length by the rate"),
    (
        "core::iter::adapters::zip::TrustedRandomAccessNoCoerce::size",
        "a zipped chunk iterator's length (slice length by chunk size): lengths are public",
    ),
    (
        "core_hash::sha3::portable::permute",
        "Keccak-f[1600]: lane indices mod 5 of its fixed loop counters (`core::array::from_fn`)",
    ),
];

/// Whether `name` is a division helper (or compiler-builtins' generic division it wraps).
fn is_helper(name: &str) -> bool {
    HELPERS.contains(&name) || name.contains("specialized_div_rem")
}

/// Whether `mnemonic` is an integer division instruction: x86's `div`, `idivl`, `divq`, … (not
/// `divss`), and Armv7-M's `udiv`/`sdiv` should the firmware ever target a core with them.
fn is_division(mnemonic: &str) -> bool {
    let base = mnemonic.strip_prefix('i').unwrap_or(mnemonic);
    matches!(base, "div" | "divb" | "divw" | "divl" | "divq") || matches!(mnemonic, "udiv" | "sdiv")
}

/// Whether the walk stops at `name`: a panic path, which divides only to print a message.
fn is_panic_path(name: &str) -> bool {
    name.contains("panic") || name.contains("fail") || name.starts_with("core::fmt::")
}

/// One function: what it calls directly and its division instructions.
#[derive(Debug, Default)]
struct Function {
    calls: Vec<String>,
    divisions: Vec<String>,
}

/// The target of a call or jump operand `… <name>` or `… <name+0x1c>`, with the offset.
fn target(instruction: &str) -> Option<(&str, bool)> {
    let start = instruction.find('<')?;
    let inner = instruction[start + 1..].strip_suffix('>')?;
    Some(match inner.rsplit_once("+0x") {
        Some((name, _)) => (name, true),
        None => (inner, false),
    })
}

/// Splits `objdump -d -C` output into functions by name (copies of one name merged).
fn parse(disassembly: &str) -> BTreeMap<String, Function> {
    let mut functions: BTreeMap<String, Function> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in disassembly.lines() {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_suffix(">:")
            && let Some((addr, name)) = rest.split_once(" <")
            && u64::from_str_radix(addr, 16).is_ok()
        {
            functions.entry(name.to_owned()).or_default();
            current = Some(name.to_owned());
            continue;
        }
        let Some((addr, rest)) = trimmed.split_once(':') else { continue };
        if addr.is_empty() || u64::from_str_radix(addr, 16).is_err() {
            continue;
        }
        let Some(name) = &current else { continue };
        // `addr:<tab>encoding<tab>instruction…`; a continuation line of a long x86 encoding
        // has no instruction.
        let instruction =
            rest.split('\t').map(str::trim).filter(|f| !f.is_empty()).skip(1).collect::<Vec<_>>();
        let instruction = instruction.join(" ");
        let mnemonic = instruction.split_whitespace().next().unwrap_or("");
        let base = mnemonic.split('.').next().unwrap_or("");
        let function = functions.entry(name.clone()).or_default();
        if is_division(base) {
            function.divisions.push(trimmed.to_owned());
        }
        let is_call = matches!(base, "bl" | "blx" | "call" | "callq");
        let is_jump = matches!(base, "b" | "jmp" | "jmpq");
        if (is_call || is_jump)
            && let Some((callee, offset)) = target(&instruction)
            // A jump inside the function is control flow; one to another function's start
            // is a tail call.
            && (is_call || (!offset && callee != name))
        {
            function.calls.push(callee.to_owned());
        }
    }
    functions
}

/// `root → … → at`, following the callers `reached` recorded.
fn call_path(reached: &BTreeMap<&str, Option<&str>>, at: &str) -> String {
    let mut names = vec![at];
    let mut at = at;
    while let Some(Some(caller)) = reached.get(at) {
        names.push(caller);
        at = caller;
    }
    names.reverse();
    names.join(" → ")
}

/// Checks that no division is reachable from a function whose name contains one of `roots`.
/// `what` names the disassembled file in the messages.
pub(crate) fn check(disassembly: &str, roots: &[&str], what: &str) -> StageResult {
    let functions = parse(disassembly);
    // How each visited function was reached: its caller, for the path in the message.
    let mut reached: BTreeMap<&str, Option<&str>> = BTreeMap::new();
    let mut queue = VecDeque::new();
    for name in functions.keys().filter(|n| roots.iter().any(|r| n.contains(r))) {
        reached.insert(name, None);
        queue.push_back(name.as_str());
    }
    if reached.is_empty() {
        return Err(format!("{what}: no function named after {roots:?} to start from"));
    }
    let roots_found = reached.len();
    let mut problems = Vec::new();
    while let Some(name) = queue.pop_front() {
        if is_helper(name) {
            problems.push(format!("calls a division helper: {}", call_path(&reached, name)));
            continue;
        }
        let Some(function) = functions.get(name) else { continue };
        for line in &function.divisions {
            problems.push(format!("divides in {}: {line}", call_path(&reached, name)));
        }
        for callee in &function.calls {
            if is_panic_path(callee)
                || REVIEWED.iter().any(|(reviewed, _)| callee == reviewed)
                || reached.contains_key(callee.as_str())
            {
                continue;
            }
            reached.insert(callee, Some(name));
            queue.push_back(callee);
        }
    }
    println!(
        "xtask: division check of {what}: {} functions reached from {roots_found} roots, {} \
         problems",
        reached.len(),
        problems.len()
    );
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{what}: division reachable from core-lattice (variable-time: see \
             xtask/src/divscan.rs):\n  {}",
            problems.join("\n  ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Thumb-1 Compress written as FIPS 203 writes it: `bl __aeabi_uidiv` one call down, in a
    /// function of another crate.
    const THUMB: &str = "\
00001000 <core_lattice::mlkem::poly::compress>:
    1000:\tb580      \tpush\t{r7, lr}
    1002:\tf000 f805 \tbl\t1010 <core::num::round_div>
    1006:\td1fc      \tbne.n\t1002 <core_lattice::mlkem::poly::compress+0x2>
    1008:\tf000 f820 \tbl\t1050 <core::panicking::panic_bounds_check>
    100c:\tbd80      \tpop\t{r7, pc}

00001010 <core::num::round_div>:
    1010:\tb580      \tpush\t{r7, lr}
    1012:\tf000 f811 \tbl\t1038 <__aeabi_uidiv>
    1016:\tbd80      \tpop\t{r7, pc}

00001038 <__aeabi_uidiv>:
    1038:\t2200      \tmovs\tr2, #0

00001050 <core::panicking::panic_bounds_check>:
    1050:\tf000 f801 \tbl\t1056 <core::fmt::num::imp::fmt_u32>

00001056 <core::fmt::num::imp::fmt_u32>:
    1056:\tf7ff ffef \tbl\t1038 <__aeabi_uidiv>
";

    /// The same on x86-64 (LLVM's objdump layout): a `divl` in a callee.
    const X86: &str = "\
0000000000001000 <core_lattice::mlkem::poly::compress>:
    1000: 55                           \tpushq\t%rbp
    1001: e8 0a 00 00 00               \tcallq\t0x1010 <core::num::round_div>
    1006: e9 f5 ff ff ff               \tjmp\t0x1000 <core_lattice::mlkem::poly::compress>
    100b: c3                           \tretq

0000000000001010 <core::num::round_div>:
    1010: f7 f1                        \tdivl\t%ecx
    1012: f3 0f 5e c1                  \tdivss\t%xmm1, %xmm0
    1016: c3                           \tretq

0000000000001020 <other::code>:
    1020: 48 f7 f1                     \tdivq\t%rcx
";

    #[test]
    fn a_division_helper_call_is_refused() {
        let err = check(THUMB, &["core_lattice"], "fixture").unwrap_err();
        assert!(
            err.contains(
                "calls a division helper: core_lattice::mlkem::poly::compress → \
                 core::num::round_div → __aeabi_uidiv"
            ),
            "{err}"
        );
        // Once: the panic path's division (message formatting) is not followed.
        assert_eq!(err.matches("__aeabi_uidiv").count(), 1, "{err}");
    }

    #[test]
    fn a_division_instruction_is_refused() {
        let err = check(X86, &["core_lattice"], "fixture").unwrap_err();
        assert!(
            err.contains("divides in core_lattice::mlkem::poly::compress → core::num::round_div"),
            "{err}"
        );
        assert!(err.contains("divl"), "{err}");
        assert!(!err.contains("divss"), "floating point is not integer division: {err}");
        assert!(!err.contains("divq"), "other::code is not reachable: {err}");
    }

    #[test]
    fn reviewed_functions_are_not_entered() {
        let fixture = THUMB.replace("core::num::round_div", "core_hash::sha3::portable::permute");
        assert!(check(&fixture, &["core_lattice"], "fixture").is_ok());
    }

    #[test]
    fn code_without_division_passes() {
        let clean = THUMB.replace("bl\t1038 <__aeabi_uidiv>", "muls\tr0, r1");
        assert!(check(&clean, &["core_lattice"], "fixture").is_ok());
        assert!(check(&X86.replace("divl", "imull"), &["core_lattice"], "fixture").is_ok());
        let none = check(&clean, &["no_such_crate"], "fixture").unwrap_err();
        assert!(none.contains("no function named after"), "{none}");
    }

    #[test]
    fn mnemonics_are_classified() {
        for m in ["div", "idiv", "divl", "idivq", "divb", "udiv", "sdiv"] {
            assert!(is_division(m), "{m}");
        }
        for m in ["divss", "divsd", "vdivps", "idivx", "udiv8"] {
            assert!(!is_division(m), "{m}");
        }
        assert!(is_helper("__aeabi_uidivmod") && is_helper("__udivti3"));
        assert!(!is_helper("__aeabi_lmul") && !is_helper("memcpy"));
    }
}
