//! Valgrind client requests, for the constant-time harness (`cargo xtask ct`) only: the one
//! `core_hash::declassify` makes, behind a safe [`declassify`].

/// `value`, declared public to memcheck (marked defined, whatever secrets it came from), and
/// read back through memory so that the compiler cannot keep using a copy made before the
/// request: `core_hash::declassify` with its `ct-check` feature. Natively the identity.
#[inline(always)]
#[must_use]
pub fn declassify<T: Copy>(value: T) -> T {
    let mut value = value;
    // SAFETY: the range is exactly `value`, a live local.
    unsafe { make_mem_defined(core::ptr::from_mut(&mut value).cast(), size_of::<T>()) };
    // SAFETY: `value` is a live, initialised local of type `T`.
    unsafe { core::ptr::read_volatile(&raw const value) }
}

/// Memcheck's `VG_USERREQ__MAKE_MEM_DEFINED` on `len` bytes at `ptr` (`memcheck.h`:
/// `VG_USERREQ_TOOL_BASE('M', 'C') + 2`), through valgrind's x86-64 client-request sequence.
/// Natively it changes nothing.
///
/// # Safety
///
/// `ptr` must be valid for `len` bytes (memcheck only changes its shadow state of them, but a
/// wrong range would mark unrelated memory defined).
#[inline(never)]
unsafe fn make_mem_defined(ptr: *mut u8, len: usize) {
    const MAKE_MEM_DEFINED: usize = (((b'M' as usize) << 24) | ((b'C' as usize) << 16)) + 2;
    let args = [MAKE_MEM_DEFINED, ptr as usize, len, 0, 0, 0];
    // SAFETY: the rotations of `rdi` total 128 bits and `xchg rbx, rbx` swaps a register with
    // itself, so natively nothing changes but the flags (clobbered by default). Under valgrind
    // the core reads the six words at `rax`, alive for the call, and only changes memcheck's
    // shadow state of `len` bytes at `ptr`, which the caller vouches for; `rdx` gets the result.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") 0usize => _,
            in("rax") args.as_ptr(),
            inout("rdi") 0usize => _,
            options(nostack),
        );
    }
}
