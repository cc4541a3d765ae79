//! The firmware's `memcpy`, `memmove` and `memset` (and their `__aeabi_*` entry points, which
//! LLVM calls on ARM), as small Thumb-1 loops: a word at a time when both pointers are
//! word-aligned, else a byte at a time. They stand in for `compiler_builtins`' (whose `memcpy`
//! alone is about 600 bytes of shifting word copies), so that Halite's flash figures are taken
//! with a libc of the same kind as the C one the BearSSL harness (`bearssl/harness.c`) links.
//! `compiler_builtins`' versions are weak symbols: these strong ones replace them at link time.
//!
//! Each family sits in a section of its own, so an image keeps only the ones it calls.

core::arch::global_asm!(
    r#"
    .syntax unified
    .thumb

    .section .text.halite_memcpy, "ax", %progbits
    .balign 2

    @ memmove(dest, src, n): forward (through memcpy) when `dest - src >= n` as unsigned,
    @ that is when dest is below src or past the end of the source; else byte by byte from
    @ the end.
    .global memmove
    .global __aeabi_memmove
    .global __aeabi_memmove4
    .global __aeabi_memmove8
    .thumb_func
    .type memmove, %function
memmove:
    .thumb_func
    .type __aeabi_memmove, %function
__aeabi_memmove:
    .thumb_func
    .type __aeabi_memmove4, %function
__aeabi_memmove4:
    .thumb_func
    .type __aeabi_memmove8, %function
__aeabi_memmove8:
    subs r3, r0, r1
    cmp r3, r2
    bhs memcpy
1:
    subs r2, #1
    bcc 2f
    ldrb r3, [r1, r2]
    strb r3, [r0, r2]
    b 1b
2:
    bx lr
    .size memmove, . - memmove

    @ memcpy(dest, src, n): returns dest. Always copies forward, as memmove relies on.
    .global memcpy
    .global __aeabi_memcpy
    .global __aeabi_memcpy4
    .global __aeabi_memcpy8
    .thumb_func
    .type memcpy, %function
memcpy:
    .thumb_func
    .type __aeabi_memcpy, %function
__aeabi_memcpy:
    .thumb_func
    .type __aeabi_memcpy4, %function
__aeabi_memcpy4:
    .thumb_func
    .type __aeabi_memcpy8, %function
__aeabi_memcpy8:
    mov r12, r0
    movs r3, r0
    orrs r3, r1
    lsls r3, r3, #30
    bne 3f
    subs r2, #4
    bcc 2f
1:
    ldm r1!, {{r3}}
    stm r0!, {{r3}}
    subs r2, #4
    bcs 1b
2:
    adds r2, #4
3:
    cmp r2, #0
    beq 5f
    subs r1, r1, r0
4:
    ldrb r3, [r0, r1]
    strb r3, [r0]
    adds r0, #1
    subs r2, #1
    bne 4b
5:
    mov r0, r12
    bx lr
    .size memcpy, . - memcpy

    .section .text.halite_memset, "ax", %progbits
    .balign 2

    @ __aeabi_memclr(dest, n) is __aeabi_memset(dest, n, 0), which is memset(dest, c, n)
    @ with the last two arguments swapped.
    .global __aeabi_memclr
    .global __aeabi_memclr4
    .global __aeabi_memclr8
    .global __aeabi_memset
    .global __aeabi_memset4
    .global __aeabi_memset8
    .global memset
    .thumb_func
    .type __aeabi_memclr, %function
__aeabi_memclr:
    .thumb_func
    .type __aeabi_memclr4, %function
__aeabi_memclr4:
    .thumb_func
    .type __aeabi_memclr8, %function
__aeabi_memclr8:
    movs r2, #0
    .thumb_func
    .type __aeabi_memset, %function
__aeabi_memset:
    .thumb_func
    .type __aeabi_memset4, %function
__aeabi_memset4:
    .thumb_func
    .type __aeabi_memset8, %function
__aeabi_memset8:
    mov r3, r1
    mov r1, r2
    mov r2, r3
    .thumb_func
    .type memset, %function
memset:
    mov r12, r0
    movs r3, #255
    ands r1, r3
    lsls r3, r1, #8
    orrs r1, r3
    lsls r3, r1, #16
    orrs r1, r3
    lsls r3, r0, #30
    bne 3f
    subs r2, #4
    bcc 2f
1:
    stm r0!, {{r1}}
    subs r2, #4
    bcs 1b
2:
    adds r2, #4
3:
    subs r2, #1
    bcc 4f
    strb r1, [r0, r2]
    b 3b
4:
    mov r0, r12
    bx lr
    .size __aeabi_memclr, . - __aeabi_memclr
"#
);

/// Bytes of the buffer [`check`] works in.
const CHECK_LEN: usize = 48;

/// The byte at `i` of the pattern [`check`] fills its buffer with.
fn pattern(i: usize) -> u8 {
    (i as u8).wrapping_mul(7).wrapping_add(1)
}

/// Checks the routines above through the calls LLVM makes for `copy_nonoverlapping`, `copy`
/// and `write_bytes`: every alignment of source and destination, lengths 0 to 19 (word loop,
/// byte tail, both), memmove in both directions, memset with zero (`__aeabi_memclr`) and a
/// byte with its top bit set. Only the image with every operation runs it, so it adds nothing
/// to the per-operation and empty images the flash figures come from.
pub(crate) fn check() -> Result<(), &'static str> {
    use core::hint::black_box;
    let mut buf = [0u8; CHECK_LEN];
    let mut src = [0u8; CHECK_LEN];
    for (i, b) in src.iter_mut().enumerate() {
        *b = pattern(i);
    }
    for d in 0..4 {
        for s in 0..8 {
            for n in 0..20 {
                // memcpy: buf[d..d + n] = src[s..s + n], the rest of buf untouched (zero).
                buf.fill(0);
                let (dp, sp) = (black_box(buf.as_mut_ptr()), black_box(src.as_ptr()));
                // SAFETY: `d + n` and `s + n` are at most 3 + 19 and 7 + 19, inside both
                // buffers of `CHECK_LEN` bytes, which do not overlap.
                unsafe { core::ptr::copy_nonoverlapping(sp.add(s), dp.add(d), black_box(n)) };
                for (i, &b) in buf.iter().enumerate() {
                    let want = if (d..d + n).contains(&i) { pattern(i - d + s) } else { 0 };
                    if b != want {
                        return Err("memcpy");
                    }
                }
                // memmove within one buffer: moving from `s` to `d`, up or down.
                buf.copy_from_slice(&src);
                let p = black_box(buf.as_mut_ptr());
                // SAFETY: both ranges are inside the buffer, as above; `copy` allows overlap.
                unsafe { core::ptr::copy(p.add(s), p.add(d), black_box(n)) };
                for (i, &b) in buf.iter().enumerate() {
                    let want =
                        if (d..d + n).contains(&i) { pattern(i - d + s) } else { pattern(i) };
                    if b != want {
                        return Err("memmove");
                    }
                }
            }
        }
        for n in 0..20 {
            for fill in [0u8, 0xa5] {
                buf.copy_from_slice(&src);
                let p = black_box(buf.as_mut_ptr());
                // SAFETY: `d + n` is inside the buffer, as above.
                unsafe { core::ptr::write_bytes(p.add(d), black_box(fill), black_box(n)) };
                for (i, &b) in buf.iter().enumerate() {
                    let want = if (d..d + n).contains(&i) { fill } else { pattern(i) };
                    if b != want {
                        return Err("memset");
                    }
                }
            }
        }
    }
    Ok(())
}
