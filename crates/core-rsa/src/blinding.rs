//! A blinding pair kept with a private key between operations. A fresh pair costs the
//! public-exponent power `r^e` and an inversion, about a tenth of an RSA-2048 signature; as in
//! OpenSSL and BoringSSL, a pair is drawn once and then squared for each later operation
//! (`r^e → r^2e`, `r⁻¹ → r⁻²`, still a matching pair), for [`USES`] operations before the
//! next draw.
//!
//! The pair sits behind a lock that is only ever tried, never waited on: a thread that finds
//! it taken draws a fresh pair of its own, so signing with one key from several threads
//! stays correct and never blocks. Targets without atomic swap (the Cortex-M0) have no cache
//! and always draw: the key keeps its size there.

#[cfg(target_has_atomic = "8")]
pub(crate) use cached::BlindingCache;
#[cfg(not(target_has_atomic = "8"))]
pub(crate) use uncached::BlindingCache;

/// Operations one drawn pair serves, squared in between.
#[cfg(target_has_atomic = "8")]
const USES: u8 = 32;

#[cfg(target_has_atomic = "8")]
mod cached {
    use spin::mutex::SpinMutex;
    use zeroize::Zeroize;

    use super::USES;
    use crate::mont::{Engine, Mont, Word};

    /// The pair in Montgomery form (`a = r^e·R`, `ai = r⁻¹·R`) and how many operations it has
    /// served (0: none kept).
    struct Slot<W: Word> {
        uses: u8,
        a: W::Buf,
        ai: W::Buf,
    }

    /// One blinding pair behind a try-lock: `spin`'s mutex, only ever tried (a compare-exchange
    /// with Acquire; the guard's drop is a Release store), so each holder sees the writes of
    /// the one before and no thread waits.
    pub(crate) struct BlindingCache<W: Word> {
        slot: SpinMutex<Slot<W>>,
    }

    impl<W: Word> BlindingCache<W> {
        /// An empty cache.
        pub(crate) fn new() -> Self {
            Self { slot: SpinMutex::new(Slot { uses: 0, a: W::buf(), ai: W::buf() }) }
        }

        /// The next pair into `a` and `ai` (`n.len()` digits each): the kept one squared
        /// modulo `n`, which is kept in its place. False when there is none to use (none
        /// kept, spent, or another thread holds it); then nothing is written.
        pub(crate) fn take<E: Engine<W = W>>(
            &self,
            eng: E,
            n: &Mont<W>,
            a: &mut [W],
            ai: &mut [W],
        ) -> bool {
            let Some(mut slot) = self.slot.try_lock() else { return false };
            // How often a pair was used is public (it counts calls).
            if slot.uses == 0 || slot.uses >= USES {
                return false;
            }
            let l = n.len();
            n.mul(eng, a, &slot.a.as_ref()[..l], &slot.a.as_ref()[..l]);
            n.mul(eng, ai, &slot.ai.as_ref()[..l], &slot.ai.as_ref()[..l]);
            slot.a.as_mut()[..l].copy_from_slice(a);
            slot.ai.as_mut()[..l].copy_from_slice(ai);
            slot.uses += 1;
            true
        }

        /// Keeps a freshly drawn pair (if no other thread holds the cache).
        pub(crate) fn put(&self, a: &[W], ai: &[W]) {
            if let Some(mut slot) = self.slot.try_lock() {
                slot.a.as_mut()[..a.len()].copy_from_slice(a);
                slot.ai.as_mut()[..ai.len()].copy_from_slice(ai);
                slot.uses = 1;
            }
        }

        /// Forgets the pair (after a failed fault check, in case it was the pair that went
        /// wrong). A thread holding the cache forgets nothing, and its pair is checked by
        /// its own operation.
        pub(crate) fn clear(&self) {
            if let Some(mut slot) = self.slot.try_lock() {
                slot.a.zeroize();
                slot.ai.zeroize();
                slot.uses = 0;
            }
        }
    }

    impl<W: Word> Drop for BlindingCache<W> {
        fn drop(&mut self) {
            let slot = self.slot.get_mut();
            slot.a.zeroize();
            slot.ai.zeroize();
        }
    }
}

#[cfg(not(target_has_atomic = "8"))]
mod uncached {
    use core::marker::PhantomData;

    use crate::mont::{Engine, Mont, Word};

    /// No cache: every operation draws its pair.
    pub(crate) struct BlindingCache<W: Word>(PhantomData<W>);

    // The same methods as the cached version, so the private operation reads the same on
    // every target; here they do nothing.
    #[allow(clippy::unused_self)]
    impl<W: Word> BlindingCache<W> {
        pub(crate) fn new() -> Self {
            Self(PhantomData)
        }

        #[inline(always)]
        pub(crate) fn take<E: Engine<W = W>>(
            &self,
            _eng: E,
            _n: &Mont<W>,
            _a: &mut [W],
            _ai: &mut [W],
        ) -> bool {
            false
        }

        #[inline(always)]
        pub(crate) fn put(&self, _a: &[W], _ai: &[W]) {}

        #[inline(always)]
        pub(crate) fn clear(&self) {}
    }
}
