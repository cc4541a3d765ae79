//! Where a connection reads the time: certificate validity (RFC 5280 §4.1.2.5) and ticket
//! ages and lifetimes (RFC 8446 §4.6.1, §4.2.11.1). The configuration holds a [`Clock`] read
//! at each use, so one configuration serves connections for as long as it lives; a device
//! without a clock passes a fixed [`UnixTime`], which is a clock that never moves.

use pki_types::UnixTime;

/// A source of the current time.
///
/// Not a `Debug` subtrait: its vtable would hold the clock's `Debug` impl, and through it
/// `core::fmt`, in every firmware that reads a clock (~2.8 KB on a Cortex-M0). A configuration
/// prints its clock as `Clock`.
pub trait Clock: Sync {
    /// The time now.
    fn now(&self) -> UnixTime;
}

impl core::fmt::Debug for dyn Clock + '_ {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Clock")
    }
}

/// A fixed time: for a device without a clock (a build date, a time from the network) and
/// for tests.
impl Clock for UnixTime {
    fn now(&self) -> UnixTime {
        *self
    }
}

/// The system's clock (std only).
#[cfg(feature = "std")]
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

#[cfg(feature = "std")]
impl Clock for SystemClock {
    fn now(&self) -> UnixTime {
        let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        UnixTime::since_unix_epoch(since.unwrap_or_default())
    }
}
