//! Memcheck client requests, written here as the instruction sequence `valgrind.h` defines
//! rather than through a crate (`crabgrind` needs the C headers and a C compiler at build
//! time; four requests do not justify that). On x86-64 a request is the "special instruction
//! preamble" — `rdi` rotated left by 3, 13, 61 and 51 bits (128 in all, so `rdi` is
//! unchanged) followed by `xchg rbx, rbx` — with `rax` pointing at six words (the request
//! code and five arguments) and `rdx` holding the default result, which valgrind replaces.
//! Natively the sequence changes nothing and the default comes back, so the harness also
//! runs (and checks its results) without valgrind. Other architectures get no-ops.

/// `VG_USERREQ_TOOL_BASE('M', 'C')`: memcheck's requests start here (`memcheck.h`).
const MEMCHECK_BASE: usize = ((b'M' as usize) << 24) | ((b'C' as usize) << 16);
/// `VG_USERREQ__MAKE_MEM_UNDEFINED`: addressable, contents undefined.
const MAKE_MEM_UNDEFINED: usize = MEMCHECK_BASE + 1;
/// `VG_USERREQ__MAKE_MEM_DEFINED`: addressable, contents defined.
const MAKE_MEM_DEFINED: usize = MEMCHECK_BASE + 2;
/// `VG_USERREQ__GET_VBITS`: copies the validity bits of a range out (1 bits are undefined).
const GET_VBITS: usize = MEMCHECK_BASE + 8;
/// `VG_USERREQ__RUNNING_ON_VALGRIND` (`valgrind.h`): answers 1 (or more) under valgrind.
const RUNNING_ON_VALGRIND: usize = 0x1001;

/// Issues client request `args[0]` with arguments `args[1..]`; `default` comes back when not
/// running under valgrind.
#[cfg(target_arch = "x86_64")]
fn request(default: usize, args: &[usize; 6]) -> usize {
    let result;
    // SAFETY: the rotations total 128 bits, so `rdi` (declared clobbered all the same) ends as
    // it began; `xchg rbx, rbx` swaps a register with itself. Natively the sequence therefore
    // only sets flags, which the default options already assume clobbered. Under valgrind the
    // core reads the six words at `rax` (alive and borrowed for the call) and writes `rdx`,
    // the declared output; of memcheck's requests only `GET_VBITS` writes memory, into the
    // buffer its caller lends it exclusively for the call (the asm is not `nomem`).
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") default => result,
            in("rax") args.as_ptr(),
            inout("rdi") 0usize => _,
            options(nostack),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn request(default: usize, _args: &[usize; 6]) -> usize {
    default
}

/// Whether this process runs under valgrind.
pub(crate) fn running_on_valgrind() -> bool {
    request(0, &[RUNNING_ON_VALGRIND, 0, 0, 0, 0, 0]) != 0
}

/// Marks `secret` as undefined: from here on memcheck reports any branch, memory address or
/// system call that depends on it, and on anything computed from it.
pub(crate) fn classify(secret: &mut [u8]) {
    request(0, &[MAKE_MEM_UNDEFINED, secret.as_mut_ptr() as usize, secret.len(), 0, 0, 0]);
}

/// Marks `public` as defined again: for outputs that are public by design (a ciphertext, a
/// tag, a digest), before the harness compares or prints them.
pub(crate) fn declassify(public: &[u8]) {
    request(0, &[MAKE_MEM_DEFINED, public.as_ptr() as usize, public.len(), 0, 0, 0]);
}

/// Marks the bytes of `value` as defined: for a verdict (`Result`) that a verifying function
/// returns, public by design but computed from secrets, before the harness branches on it.
pub(crate) fn declassify_value<T>(value: &mut T) {
    let args = [MAKE_MEM_DEFINED, core::ptr::from_mut(value) as usize, size_of::<T>(), 0, 0, 0];
    request(0, &args);
}

/// Memcheck's validity bits for `bytes` (a set bit is an undefined bit), or `None` when not
/// running under valgrind.
fn vbits(bytes: &[u8]) -> Option<Vec<u8>> {
    if !running_on_valgrind() {
        return None;
    }
    let mut vbits = vec![0u8; bytes.len()];
    let args = [GET_VBITS, bytes.as_ptr() as usize, vbits.as_mut_ptr() as usize, bytes.len(), 0, 0];
    // 1 means the bits were copied (0 would be "not running under memcheck", 2 and 3
    // unaddressable ranges).
    (request(0, &args) == 1).then_some(vbits)
}

/// Whether memcheck sees every bit of `bytes` as undefined (`None` when not running under
/// valgrind): the harness checks this once, to prove [`classify`] takes effect.
pub(crate) fn all_undefined(bytes: &[u8]) -> Option<bool> {
    vbits(bytes).map(|v| v.iter().all(|&b| b == 0xff))
}

/// Whether memcheck sees any bit of `bytes` as undefined (`None` when not running under
/// valgrind): an output computed from a secret must be, or memcheck lost track of the secret
/// on the way (an instruction it models as producing defined bits) and the check of what
/// follows would prove nothing.
pub(crate) fn any_undefined(bytes: &[u8]) -> Option<bool> {
    vbits(bytes).map(|v| v.iter().any(|&b| b != 0))
}
