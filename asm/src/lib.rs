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
#![no_std]

pub mod ct;

#[cfg(all(feature = "valgrind", target_arch = "x86_64"))]
pub mod valgrind;

#[cfg(all(feature = "asm", target_arch = "x86_64"))]
pub mod x86_64;

#[cfg(all(feature = "asm", target_arch = "arm"))]
pub mod thumbv6m;
