//! `cargo xtask ci`'s checks that assembly and `unsafe` stay where DESIGN.md puts them: in
//! `asm/` (and, for `unsafe`, the intrinsic backend files).
//!
//! - `asm-home`: no `asm!`, `global_asm!` or `naked_asm!` in the library crates under `crates/`;
//! - `unsafe-budget`: the `unsafe` keywords in those crates' `src/`, outside the intrinsic
//!   backend files (see [`is_intrinsic_backend`]), may not exceed [`UNSAFE_BASELINE`];
//! - `labels`: implementation labels spell a CPU feature one way (`x86_avx512_ifma`);
//! - `no-asm-build`: each primitive crate and core-asm, built without default features (so
//!   without `asm`) for `x86_64` and the Cortex-M0, emits no inline assembly with instructions
//!   in its LLVM IR.
//!
//! The firmware and harness crates under `xtask/` (semihosting, cycle counters, fault
//! injection) and `fuzz/` are not library code and are not checked.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::m0;
use crate::util::{self, StageResult};
use crate::workspace::Workspace;

/// The `unsafe` keywords counted by [`unsafe_budget`]: 102 before issue 28, 33 after its first
/// round moved the assembly into core-asm, 5 after its second, where every backend calls safe
/// core-asm kernels (a kernel whose only obligation is a CPU feature takes that feature's
/// core-cpu token) and core-rsa's blinding cache is a `spin` try-lock. The 5 left are
/// core-hash's `pooled_random.rs`: libc's `mmap`, `madvise(MADV_WIPEONFORK)` and `munmap` for
/// fork safety, and the atomic view of that page. Those are OS calls, not assembly, and no
/// well-kept crate makes them safe: rustix's `mmap` and `madvise` are `unsafe fn`s as well, and
/// a `&'static AtomicU64` over a mapped page needs the unstable `AtomicU64::from_mut` or another
/// crate. It may only go down: lower it when code stops needing `unsafe`.
const UNSAFE_BASELINE: usize = 5;

/// The library crates under `crates/` whose sources the checks read: every member there but
/// `bench` (a measuring tool that calls peers' C libraries through FFI).
fn library_dirs(ws: &Workspace) -> Vec<PathBuf> {
    let crates = ws.root.join("crates");
    ws.members
        .iter()
        .filter(|m| m.dir.parent() == Some(crates.as_path()) && m.name != "bench")
        .map(|m| m.dir.clone())
        .collect()
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// `line` without its `//` comment (a `//` inside a string literal cuts early, which only
/// ever hides code from the checks on that one line; none of the checked crates has one before
/// an `unsafe` or `asm!`).
fn code_of(line: &str) -> &str {
    line.find("//").map_or(line, |at| &line[..at])
}

/// Whether `text` invokes an assembly macro: `asm!`, `global_asm!` or `naked_asm!` followed by
/// its delimiter (so prose naming `asm!` in a comment does not count).
fn invokes_asm(code: &str) -> bool {
    ["asm!", "global_asm!", "naked_asm!"].iter().any(|mac| {
        code.match_indices(mac).any(|(at, _)| {
            let before = code[..at].chars().next_back();
            let whole_word = !before.is_some_and(|c| c.is_alphanumeric() || c == '_');
            let after = code[at + mac.len()..].trim_start().chars().next();
            whole_word && matches!(after, Some('(' | '{' | '['))
        })
    })
}

/// How many times the keyword `unsafe` occurs in `code`.
fn unsafe_keywords(code: &str) -> usize {
    code.match_indices("unsafe")
        .filter(|&(at, word)| {
            let before = code[..at].chars().next_back();
            let after = code[at + word.len()..].chars().next();
            let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !ident(before) && !ident(after)
        })
        .count()
}

/// Whether `path` (below a crate's `src/`) is an intrinsic backend file: a file or directory
/// named after an instruction set, `x86`, `x86_*` or `aarch64*` (`sha256/x86_shani.rs`,
/// `poly1305/x86_avx512.rs`, `core-cpu`'s `x86.rs`). Those are the low layer that calls
/// `core::arch` intrinsics under a token and may hold `unsafe`; Thumb-1 and the portable files
/// may not (their assembly belongs in `asm/`).
fn is_intrinsic_backend(below_src: &Path) -> bool {
    below_src.components().any(|c| {
        let name = c.as_os_str().to_string_lossy();
        let stem = name.strip_suffix(".rs").unwrap_or(&name);
        stem == "x86" || stem.starts_with("x86_") || stem.starts_with("aarch64")
    })
}

/// The path of `file` relative to `root`, with `/` separators, for messages.
fn relative(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap_or(file);
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// `asm-home`: no assembly macro in the library crates.
pub(crate) fn asm_home(ws: &Workspace) -> StageResult {
    let mut offenders = Vec::new();
    for dir in library_dirs(ws) {
        for file in rust_files(&dir) {
            let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            if text.lines().any(|l| invokes_asm(code_of(l))) {
                offenders.push(relative(&ws.root, &file));
            }
        }
    }
    println!("assembly outside asm/: {} file(s)", offenders.len());
    if offenders.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "assembly outside asm/ (move it into core-asm as a documented kernel): {}",
            offenders.join(", ")
        ))
    }
}

/// The `unsafe` keywords in `text` (comments left out).
fn count_unsafe(text: &str) -> usize {
    text.lines().map(|l| unsafe_keywords(code_of(l))).sum()
}

/// `unsafe-budget`: the `unsafe` keywords in the library crates' `src/` outside the intrinsic
/// backend files, printed per file (and named in the failure), may not exceed
/// [`UNSAFE_BASELINE`].
pub(crate) fn unsafe_budget(ws: &Workspace) -> StageResult {
    let mut total = 0;
    let mut files = Vec::new();
    for dir in library_dirs(ws) {
        let src = dir.join("src");
        for file in rust_files(&src) {
            let below = file.strip_prefix(&src).unwrap_or(&file);
            if is_intrinsic_backend(below) {
                continue;
            }
            let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let n = count_unsafe(&text);
            if n > 0 {
                files.push(format!("{} ({n})", relative(&ws.root, &file)));
                total += n;
            }
        }
    }
    println!(
        "unsafe outside asm/ and the intrinsic backends: {total} (baseline {UNSAFE_BASELINE})"
    );
    for file in &files {
        println!("  {file}");
    }
    if total > UNSAFE_BASELINE {
        return Err(format!(
            "{total} `unsafe` outside asm/ and the intrinsic backend files, more than the \
             baseline {UNSAFE_BASELINE}: put the new unsafe code in core-asm or a backend file \
             (by file: {})",
            files.join(", ")
        ));
    }
    if total < UNSAFE_BASELINE {
        println!("below the baseline: lower UNSAFE_BASELINE in xtask/src/checks.rs to {total}");
    }
    Ok(())
}

/// The inline assembly in LLVM IR `ir` written in the workspace at `root`, as the source file
/// each piece was written in (`?` without debug information, which counts too). What the
/// standard library and dependencies write in `asm!` is not Halite's: `core::hint::black_box`
/// (the barriers' fallback with `asm` off), `core::arch`'s CPUID, zeroize's barrier.
fn halite_asm(ir: &str, root: &str) -> Vec<String> {
    let metadata: HashMap<&str, &str> =
        ir.lines().filter(|l| l.starts_with('!')).filter_map(|l| l.split_once(" = ")).collect();
    // A location's scope (a subprogram or lexical block) names the file.
    let source_of = |line: &str| -> Option<String> {
        let dbg = line.split("!dbg ").nth(1)?.split([',', ' ']).next()?;
        let location = metadata.get(dbg)?;
        let scope = metadata.get(field(location, "scope")?)?;
        let file = metadata.get(field(scope, "file")?)?;
        let quoted = |key: &str| {
            let value = file.split(&format!("{key}: \"")).nth(1)?;
            Some(&value[..value.find('"')?])
        };
        let (name, dir) = (quoted("filename")?, quoted("directory")?);
        // Workspace files are relative to the root (absolute when built from elsewhere).
        Some(if dir == root || name.starts_with(root) { name.to_owned() } else { String::new() })
    };
    ir.lines()
        .filter(|line| line.starts_with("module asm ") || line.contains(" asm "))
        .filter(|line| !line.starts_with('!') && !line.starts_with("declare "))
        .map(|line| source_of(line).unwrap_or_else(|| "?".to_owned()))
        .filter(|file| !file.is_empty())
        .collect()
}

/// The metadata reference (`!12`) in field `name` of debug-information node `node`.
fn field<'a>(node: &'a str, name: &str) -> Option<&'a str> {
    let at = node.find(&format!("{name}: !"))? + name.len() + 2;
    let rest = &node[at..];
    Some(&rest[..rest.find(|c: char| c != '!' && !c.is_ascii_digit()).unwrap_or(rest.len())])
}

/// `no-asm-build`: every primitive crate and core-asm, built without default features for the
/// host (`x86_64`) and the Cortex-M0, has no inline assembly of its own in its LLVM IR.
/// The IR of a crate holds its own functions and every generic or `#[inline]` function of its
/// dependencies it instantiates, so with core-asm checked too nothing escapes.
pub(crate) fn no_asm_build(ws: &Workspace) -> StageResult {
    let mut crates: Vec<&str> = vec!["core-asm"];
    crates.extend(ws.primitive_crates());
    let ir_dir = ws.target_dir.join("no-asm-ir");
    let mut failures = Vec::new();
    for target in [None, Some(m0::TARGET)] {
        for krate in &crates {
            let out = ir_dir.join(target.unwrap_or("host")).join(format!("{krate}.ll"));
            if let Some(parent) = out.parent() {
                fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            let mut cmd = util::cargo();
            cmd.args(["rustc", "-p", krate, "--lib", "--no-default-features"]);
            if let Some(t) = target {
                cmd.args(["--target", t]);
            }
            // Unoptimised (the IR is only read) but with line tables, which name each block's
            // source file.
            cmd.args(["--", "-Copt-level=0", "-Cdebuginfo=line-tables-only"]);
            cmd.arg(format!("--emit=llvm-ir={}", out.display()));
            let where_ = format!("{krate} ({})", target.unwrap_or("host"));
            if let Err(e) = util::run(&mut cmd) {
                failures.push(format!("{where_}: {e}"));
                continue;
            }
            let ir = fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            let mut found = halite_asm(&ir, &ws.root.to_string_lossy());
            println!("{where_}: {} inline assembly block(s) of its own", found.len());
            found.sort();
            found.dedup();
            if !found.is_empty() {
                failures.push(format!("{where_} has assembly without `asm`: {}", found.join(" ")));
            }
        }
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("; ")) }
}

/// How each CPU feature is spelled in implementation labels, where it has been spelled more
/// than one way: a label naming the feature (the first string) must use the second.
const SPELLINGS: &[(&str, &str)] = &[("ifma", "avx512_ifma")];

/// The implementation labels (`"x86_…"`, `"aarch64_…"` string literals) in `text` that spell a
/// feature otherwise than [`SPELLINGS`] says.
fn misspelled_labels(text: &str) -> Vec<&str> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|l| l.starts_with("x86_") || l.starts_with("aarch64_"))
        .filter(|l| l.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'))
        .filter(|l| SPELLINGS.iter().any(|(f, spelled)| l.contains(f) && !l.contains(spelled)))
        .collect()
}

/// `labels`: implementation labels spell each CPU feature one way ([`SPELLINGS`]).
pub(crate) fn label_spellings(ws: &Workspace) -> StageResult {
    let mut found = Vec::new();
    for dir in library_dirs(ws) {
        for file in rust_files(&dir.join("src")) {
            let rel = relative(&ws.root, &file);
            let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            found.extend(misspelled_labels(&text).into_iter().map(|l| format!("{rel}: {l}")));
        }
    }
    if found.is_empty() {
        Ok(())
    } else {
        Err(format!("labels with another spelling of a feature: {}", found.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_spell_features_one_way() {
        assert_eq!(
            misspelled_labels(r#"X(A) => "x86_avx512ifma", Y => "x86_ifma", "x86_avx512_ifma""#),
            ["x86_avx512ifma", "x86_ifma"]
        );
        assert!(misspelled_labels(r#""x86_64", "x86_adx", "aarch64""#).is_empty());
    }

    #[test]
    fn asm_invocations_are_told_from_prose() {
        assert!(invokes_asm("    core::arch::asm!("));
        assert!(invokes_asm("global_asm! {"));
        assert!(invokes_asm("naked_asm!(\"ret\")"));
        assert!(!invokes_asm("in `asm!` with conditional moves"));
        assert!(!invokes_asm(code_of("x = 1; // asm!(\"nop\")")));
        assert!(!invokes_asm("my_asm!(x)"));
    }

    #[test]
    fn unsafe_is_counted_as_a_keyword() {
        assert_eq!(count_unsafe("unsafe { f() }\nunsafe fn g() {}\n"), 2);
        assert_eq!(count_unsafe("// SAFETY: unsafe is fine\nlet unsafe_thing = 1;"), 0);
        assert_eq!(count_unsafe("#[unsafe(naked)]"), 1);
    }

    #[test]
    fn intrinsic_backends_are_named_after_the_instruction_set() {
        for yes in ["x86.rs", "sha256/x86_shani.rs", "aes/aarch64.rs", "x86_avx2/mod.rs"] {
            assert!(is_intrinsic_backend(Path::new(yes)), "{yes}");
        }
        for no in ["chacha20/portable.rs", "aes/thumb1.rs", "lib.rs", "nist/mont64.rs"] {
            assert!(!is_intrinsic_backend(Path::new(no)), "{no}");
        }
    }

    #[test]
    fn only_the_workspace_assembly_counts() {
        let ir = concat!(
            "  call void asm sideeffect \"# ${0:q}\", \"r,~{memory}\"(ptr %x), !dbg !10\n",
            "  %1 = call i64 asm sideeffect \"mulx $2\", \"=r,r\"(i64 %a) #3, !dbg !20\n",
            "  %2 = call i64 asm \"nop\", \"=r\"()\n",
            "module asm \".globl halite_c25519_mul128\"\n",
            "define void @asm_free() {\n",
            "!10 = !DILocation(line: 1, column: 2, scope: !11, inlinedAt: !20)\n",
            "!11 = distinct !DISubprogram(name: \"black_box\", file: !12, line: 3)\n",
            "!12 = !DIFile(filename: \"library/core/src/hint.rs\", directory: \"/rustc/x\")\n",
            "!20 = !DILocation(line: 5, column: 9, scope: !21)\n",
            "!21 = distinct !DILexicalBlock(scope: !11, file: !22, line: 4, column: 5)\n",
            "!22 = !DIFile(filename: \"crates/core-ec/src/p256.rs\", directory: \"/w\")\n",
        );
        assert_eq!(halite_asm(ir, "/w"), ["crates/core-ec/src/p256.rs", "?", "?"]);
    }
}
