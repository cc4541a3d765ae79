//! The panic handler of the firmware that print their panics (m0-kat, m0-tls): the message and
//! location on semihosting's stderr, then exit status 101, as std. It is this file rather than
//! semihosting's `panic-handler` feature because Cargo unifies features across one build:
//! `cargo clippy -p m0-kat -p m0-cost` would give m0-cost, whose handler prints no message
//! (see its main.rs), a second one.

/// Exit status after a panic (as std's).
const EXIT_PANIC: i32 = 101;

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    semihosting::eprintln!("{info}");
    semihosting::process::exit(EXIT_PANIC)
}
