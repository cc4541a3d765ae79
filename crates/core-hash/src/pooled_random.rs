//! [`PooledOsRandom`]: the OS's randomness, drawn [`POOL_LEN`] bytes at a time into a
//! per-thread pool, so that many small draws cost one system call (a TLS handshake through
//! rustls-halite draws client and server randoms, session ids, ticket nonces, key shares and
//! ECDSA's hedging separately). A `getrandom` call costs ~450 ns on the machine the benchmarks
//! run on; about five of them were the gap between a resumed TLS 1.2 pair on rustls-halite
//! and on aws-lc-rs, which keeps a user-space DRBG for the same reason.
//!
//! Each pooled byte is handed out once and wiped as it goes; a thread's pool is wiped when the
//! thread ends. A forked child must never repeat bytes its parent hands out: on Linux a pool is
//! used only while a page mapped with `MADV_WIPEONFORK` still holds the generation the pool was
//! filled under (the kernel gives the child that page zeroed, so the child's first draw sees
//! the change and refills). Where that page cannot be had — another OS, a kernel older than
//! 4.14, or an emulator whose `madvise` accepts any advice and does nothing (qemu-user; it is
//! caught by also asking for an invalid advice, which a real kernel refuses) — every request
//! goes to the OS directly.

use core::cell::RefCell;

use zeroize::Zeroize;

use crate::{OsRandom, RandomError, RandomSource};

/// Bytes drawn from the OS per refill: a full hybrid-group TLS handshake on both sides takes
/// about 300, a resumed one about 100.
const POOL_LEN: usize = 512;
/// Requests longer than this go to the OS directly (a pool would serve few of them).
const MAX_POOLED: usize = 64;

/// The OS's randomness through a fork-safe per-thread pool: for many small draws (up to 64
/// bytes each; longer ones go to the OS directly) at a fraction of [`OsRandom`]'s cost.
///
/// Each pooled byte is handed out once and wiped as it goes. On Linux the pool is refilled
/// after a `fork` (a page mapped with `MADV_WIPEONFORK` tells), so a child never repeats
/// its parent's bytes; where that cannot be detected (other systems, kernels before 4.14,
/// emulators that ignore `madvise`) every draw goes to the OS, as with [`OsRandom`]. `std`
/// feature.
#[derive(Clone, Copy, Debug, Default)]
pub struct PooledOsRandom;

impl RandomSource for PooledOsRandom {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), RandomError> {
        let Some(generation) = fork::generation().filter(|_| dest.len() <= MAX_POOLED) else {
            return OsRandom.fill(dest);
        };
        // During thread teardown, or if a fill were ever re-entered, the OS serves directly.
        POOL.try_with(|pool| match pool.try_borrow_mut() {
            Ok(mut pool) => pool.take(generation, dest),
            Err(_) => OsRandom.fill(dest),
        })
        .unwrap_or_else(|_| OsRandom.fill(dest))
    }
}

std::thread_local! {
    static POOL: RefCell<Pool> = const { RefCell::new(Pool::EMPTY) };
}

/// One thread's unused random bytes: `bytes[next..]`, drawn under `generation`.
struct Pool {
    bytes: [u8; POOL_LEN],
    next: usize,
    generation: u64,
}

impl Pool {
    const EMPTY: Self = Self { bytes: [0; POOL_LEN], next: POOL_LEN, generation: 0 };

    /// Moves `dest.len()` (at most [`MAX_POOLED`]) unused bytes into `dest`, refilling first
    /// if too few are left or they were drawn before a fork.
    fn take(&mut self, generation: u64, dest: &mut [u8]) -> Result<(), RandomError> {
        if self.generation != generation || POOL_LEN - self.next < dest.len() {
            self.next = POOL_LEN;
            self.bytes.zeroize();
            OsRandom.fill(&mut self.bytes)?;
            self.next = 0;
            self.generation = generation;
        }
        let taken = &mut self.bytes[self.next..self.next + dest.len()];
        dest.copy_from_slice(taken);
        taken.zeroize();
        self.next += dest.len();
        Ok(())
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

/// Fork detection through a page the kernel wipes in a forked child.
#[cfg(target_os = "linux")]
mod fork {
    use core::sync::atomic::{AtomicU64, Ordering};
    use std::sync::OnceLock;

    /// The generation mark: nonzero in the process that set it, zero in a child forked since.
    static MARK: OnceLock<Option<&'static AtomicU64>> = OnceLock::new();
    /// The last generation handed out. Ordinary memory, so a child inherits it and its new
    /// generation differs from every one its parent's pools were filled under.
    static LAST: AtomicU64 = AtomicU64::new(0);

    /// The current generation, or `None` if fork detection is unavailable (then nothing may
    /// be pooled).
    pub(super) fn generation() -> Option<u64> {
        let mark = (*MARK.get_or_init(map_mark))?;
        let current = mark.load(Ordering::Acquire);
        if current != 0 {
            return Some(current);
        }
        // First use, or the first draw in a forked child: start a new generation (another
        // thread may have just done so; then its generation stands).
        let new = LAST.fetch_add(1, Ordering::AcqRel) + 1;
        match mark.compare_exchange(0, new, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => Some(new),
            Err(set) => Some(set),
        }
    }

    /// Maps the mark's page with `MADV_WIPEONFORK`, or `None` where the kernel refuses.
    fn map_mark() -> Option<&'static AtomicU64> {
        const PAGE: usize = 4096;
        // SAFETY: an anonymous private mapping of one page at an address the kernel picks
        // touches no existing memory; the result is checked for MAP_FAILED.
        let page = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                PAGE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if page == libc::MAP_FAILED {
            return None;
        }
        // An madvise that accepts nonsense advice cannot be trusted to wipe on fork either:
        // qemu-user, for one, answers success to every advice and ignores it.
        // SAFETY: `page` is the one-page mapping just made, which nothing else refers to;
        // invalid advice changes nothing.
        let ignores_advice = unsafe { libc::madvise(page, PAGE, -1) } == 0;
        // SAFETY: as above.
        let wipes =
            !ignores_advice && unsafe { libc::madvise(page, PAGE, libc::MADV_WIPEONFORK) } == 0;
        if !wipes {
            // SAFETY: as above; the mapping is given back unused.
            unsafe { libc::munmap(page, PAGE) };
            return None;
        }
        // SAFETY: the page is zero-filled, page-aligned (so aligned for `AtomicU64`), readable
        // and writable, and never unmapped, so a `'static` shared reference to an atomic at
        // its start is valid; it is only ever accessed through that atomic.
        Some(unsafe { &*page.cast::<AtomicU64>() })
    }
}

/// Without a way to see forks, nothing is pooled.
#[cfg(not(target_os = "linux"))]
mod fork {
    pub(super) fn generation() -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pooled_draws_differ_and_are_wiped_from_the_pool() {
        let mut a = [0u8; 32];
        let mut b = [0u8; 32];
        PooledOsRandom.fill(&mut a).unwrap();
        PooledOsRandom.fill(&mut b).unwrap();
        assert_ne!(a, b);
        assert_ne!(a, [0; 32]);
        if let Some(generation) = fork::generation() {
            POOL.with_borrow(|pool| {
                assert_eq!(pool.generation, generation);
                assert!(pool.next >= 64, "both draws came from the pool");
                assert!(pool.bytes[..pool.next].iter().all(|&b| b == 0), "taken bytes are wiped");
            });
        }
    }

    #[test]
    fn a_pool_refills_when_short_and_serves_every_length() {
        // More than a pool's worth in draws of every pooled length, then one the OS serves.
        let mut seen = std::collections::HashSet::new();
        for len in (1..=MAX_POOLED).chain(1..=MAX_POOLED) {
            let mut buf = std::vec![0u8; len];
            PooledOsRandom.fill(&mut buf).unwrap();
            if len >= 16 {
                assert!(seen.insert(buf), "a 128-bit draw repeated");
            }
        }
        let mut big = [0u8; MAX_POOLED + 1];
        PooledOsRandom.fill(&mut big).unwrap();
        assert_ne!(big, [0; MAX_POOLED + 1]);
    }

    #[test]
    fn a_new_generation_discards_the_pool() {
        let mut pool = Pool::EMPTY;
        let mut a = [0u8; 16];
        pool.take(1, &mut a).unwrap();
        let unused = pool.bytes[16..32].to_vec();
        let mut b = [0u8; 16];
        pool.take(2, &mut b).unwrap();
        assert_eq!(pool.generation, 2);
        assert_eq!(pool.next, 16, "refilled before taking");
        assert_ne!(b.to_vec(), unused, "bytes drawn under the old generation were handed out");
    }
}
