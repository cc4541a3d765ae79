//! Halite's assembly, in one place.
//!
//! Each kernel is a small `unsafe fn` in the module of its architecture and the crate it
//! serves (`x86_64::ec`, `thumbv6m::aead`, …), with its contract, its cost and its source in
//! the doc comment. The backend files of the primitive crates keep the Rust around the kernels
//! and call them; every kernel has a Rust twin there, and tests compare the two on every target
//! where both exist. The kernel modules exist only with the `asm` feature; without it this crate
//! holds no assembly, and [`ct`] falls back to Rust.
//!
//! # Safety discipline
//!
//! A kernel is `unsafe fn` when its caller must prove something its argument types do not
//! carry, and its `# Safety` section says what; a kernel whose only obligations are covered by
//! its references and arrays (a register-only Thumb-1 product, say) is a safe `fn` with the
//! `// SAFETY:` reasoning inside. There are only three kinds of obligation:
//!
//! - **CPU features**: an `x86_64` kernel using an extension (ADX, BMI2, AVX-512 IFMA, VAES…)
//!   may only be called when the CPU has it. Callers hold a `core_cpu` token for it (tokens
//!   are obtained only from detection); a kernel that takes the token as a parameter (the
//!   P-256 and P-384 ones in `x86_64::ec` take `core_cpu::Adx`) is a safe `fn`, otherwise
//!   callers name the token in their `// SAFETY:` comment.
//! - **Memory**: pointer arguments are valid for the reads and writes the contract states, for
//!   the lengths it states; slices and arrays are preferred to raw pointers so the type carries
//!   the length, and a kernel never reads or writes outside what it was given.
//! - **Nothing else**: kernels do not touch the stack beyond their own frame, keep the stack
//!   aligned where they call nothing, restore callee-saved registers, and declare every
//!   register and flag they clobber (`asm!` operands, `clobber_abi`, or a naked function that
//!   follows the C ABI). None has secret-dependent branches or memory indices: that is a
//!   correctness property checked by `cargo xtask ct` and the Cortex-M0 `ct-scan`, not a
//!   safety one.
//!
//! Inside a kernel, `// SAFETY:` comments explain why each `asm!` block meets its contract in
//! terms of the above. Whole routines are naked functions (`#[unsafe(naked)]` with
//! `naked_asm!`) called through a Rust signature, never unversioned global symbols, so two
//! versions of this crate can be linked into one image.
//!
//! # Layout, and why no `.S` files
//!
//! `src/<target>/<crate>` holds the kernels of one primitive crate for one architecture
//! (`thumbv6m::aead::aes`, `x86_64::ec::safegcd`…); `thumbv6m` is any 32-bit Arm with `asm`,
//! which is where the primitive crates' `if thumb1` backends are compiled. Which backend runs
//! is not decided here: each algorithm's implementation enum (`core_cpu::implementation_enum!`)
//! lists its backends, and detection or, without it, the enum's `PORTABLE` constant picks
//! one. Each primitive crate's additive `asm` feature (on by default) forwards to this crate's;
//! with it off this crate holds no kernel (only [`ct`] and the ct harness's `valgrind`
//! requests), and every backend that calls one is compiled out, leaving its Rust twin.
//!
//! Every kernel is `asm!` inside a Rust function or a naked function; none is a `.S` file.
//! `asm!` lets the compiler allocate the registers around a short kernel and inline it into
//! the loop that calls it (the Thumb-1 products and x86-64 `cmov` steps would lose their gain
//! to a call), naked functions give whole routines a Rust signature and a mangled, versioned
//! symbol, and neither needs a C toolchain for the cross targets or a build script; `cfg`s
//! and features apply to them as to any Rust item. A kernel would move to a `.S` file built
//! with `cc` only if it needed something neither can express, which none does.
#![no_std]

pub mod ct;

#[cfg(all(feature = "valgrind", target_arch = "x86_64"))]
pub mod valgrind;

#[cfg(all(feature = "asm", target_arch = "x86_64"))]
pub mod x86_64;

#[cfg(all(feature = "asm", target_arch = "arm"))]
pub mod thumbv6m;
