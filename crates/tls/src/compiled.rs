//! What this build compiles in, out of constant lists that pair every choice (a group, a
//! suite) with whether its cargo feature is on: the public lists (`kx::ALL_GROUPS`,
//! `suites::DEFAULT_SUITES`…) are built from them at compile time, and frames are sized by
//! the largest choice that is on.

/// How many entries of `all` this build has.
pub(crate) const fn count<T>(all: &[(T, bool)]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < all.len() {
        if all[i].1 {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The entries of `all` this build has, in order; `N` is their [`count`] (`fill` only
/// initializes the array).
pub(crate) const fn compiled_in<T: Copy, const N: usize>(all: &[(T, bool)], fill: T) -> [T; N] {
    let mut out = [fill; N];
    let (mut n, mut i) = (0, 0);
    while i < all.len() {
        if all[i].1 {
            out[n] = all[i].0;
            n += 1;
        }
        i += 1;
    }
    out
}

/// The largest of `lens` whose feature is on (0 if none is).
pub(crate) const fn max_len(lens: &[(usize, bool)]) -> usize {
    let (mut max, mut i) = (0, 0);
    while i < lens.len() {
        if lens[i].1 && lens[i].0 > max {
            max = lens[i].0;
        }
        i += 1;
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_is_on_is_kept_in_order() {
        const ALL: [(u16, bool); 5] = [(1, false), (2, true), (3, false), (4, true), (5, true)];
        const ON: [u16; count(&ALL)] = compiled_in(&ALL, 0);
        assert_eq!(ON, [2, 4, 5]);
        assert_eq!(count(&ALL[..1]), 0);
        assert_eq!(max_len(&[(1665, false), (133, true), (32, true)]), 133);
        assert_eq!(max_len(&[(1665, false)]), 0);
    }
}
