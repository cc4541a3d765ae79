//! The one DER reader the crate needs (X.690 §8.1): PKCS#8 keys in `sign` and the keyUsage
//! extension in `verify` walk their structures with it.

/// One DER element of `input` (definite lengths of up to four bytes): its tag, its contents
/// and what follows it; `None` when `input` does not start with a whole one.
pub(crate) fn element(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let (bytes, rest) = rest.split_at_checked(usize::from(first & 0x7f))?;
        if bytes.is_empty() || bytes.len() > 4 {
            return None; // indefinite (not DER), or longer than anything we read
        }
        let len = bytes.iter().fold(0u32, |n, &b| (n << 8) | u32::from(b));
        (usize::try_from(len).ok()?, rest)
    };
    let (contents, rest) = rest.split_at_checked(len)?;
    Some((tag, contents, rest))
}
