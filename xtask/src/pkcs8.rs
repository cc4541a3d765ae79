//! The components of an RSA test key, read from its PKCS#8 DER: just enough DER for core-rsa's
//! test key, for the BearSSL harness (xtask) and the m0-cost firmware's build script, which
//! includes this file with `#[path]`.

/// One DER element: tag, contents, and what follows it.
fn der(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, mut rest) = rest.split_first()?;
    let len = if first < 0x80 {
        usize::from(first)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let (len, after) = rest.split_at(n);
        rest = after;
        len.iter().fold(0usize, |acc, &b| (acc << 8) | usize::from(b))
    };
    (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
}

/// The nine INTEGERs of the `RSAPrivateKey` inside a PKCS#8 key (version, n, e, d, p, q, dp,
/// dq, qinv), leading zeros stripped.
pub(crate) fn rsa_integers(pkcs8: &[u8]) -> Option<[&[u8]; 9]> {
    let (0x30, info, _) = der(pkcs8)? else { return None };
    let (0x02, _, rest) = der(info)? else { return None };
    let (0x30, _, rest) = der(rest)? else { return None };
    let (0x04, octets, _) = der(rest)? else { return None };
    let (0x30, mut key, _) = der(octets)? else { return None };
    let mut ints: [&[u8]; 9] = [&[]; 9];
    for slot in &mut ints {
        let (0x02, value, rest) = der(key)? else { return None };
        let first = value.iter().position(|&b| b != 0).unwrap_or(value.len().max(1) - 1);
        *slot = &value[first..];
        key = rest;
    }
    Some(ints)
}
