//! A forked child must not hand out the random bytes its parent hands out next:
//! `PooledOsRandom` pools OS randomness per thread, and the pool must be refilled after a fork.

#![cfg(target_os = "linux")]

use core_hash::{PooledOsRandom, RandomSource};

#[test]
fn a_forked_child_does_not_repeat_its_parents_random_bytes() {
    let mut random = PooledOsRandom;
    // Fill this thread's pool, so that unused pooled bytes exist at the fork.
    let mut first = [0u8; 16];
    random.fill(&mut first).unwrap();

    let mut fds = [0i32; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: the child only draws random bytes, writes them to the pipe and calls _exit,
    // never returning into the test harness.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let mut child = [0u8; 32];
        let ok = random.fill(&mut child).is_ok();
        // SAFETY: writes 32 bytes from a live buffer to the pipe's write end, then ends the
        // child without running the parent's destructors or test harness.
        unsafe {
            if ok {
                libc::write(fds[1], child.as_ptr().cast(), child.len());
            }
            libc::_exit(0);
        }
    }
    let mut parent = [0u8; 32];
    random.fill(&mut parent).unwrap();

    let mut child = [0u8; 32];
    // SAFETY: reads at most 32 bytes into a live 32-byte buffer; closes our two descriptors.
    let read = unsafe {
        libc::close(fds[1]);
        let n = libc::read(fds[0], child.as_mut_ptr().cast(), child.len());
        libc::close(fds[0]);
        n
    };
    let mut status = 0;
    // SAFETY: waits for the child forked above.
    unsafe { libc::waitpid(pid, &raw mut status, 0) };
    assert_eq!(read, 32, "the child could not draw random bytes");
    assert_ne!(child, parent, "the child handed out the bytes its parent handed out");
    assert_ne!(child, [0; 32]);
}
