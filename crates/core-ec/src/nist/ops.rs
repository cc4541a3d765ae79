//! ECDH (SEC 1 §3.3.1) and ECDSA (FIPS 186-5 §6.4, nonces by RFC 6979) on byte strings, for
//! any curve and field implementation: the public modules wrap these in typed keys.
//! Everything that touches a private scalar or a nonce is constant-time; verification is not
//! and need not be.

use super::point::Curve;
use super::{Field, MAX_LEN};
use crate::Error;
use core_hash::{Hash, Hmac};
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

/// Whether the big-endian `k` (the curve's length) is in `1..n`, in constant time.
pub(crate) fn scalar_in_range<F: Field, S: Field>(c: &Curve<'_, F, S>, k: &[u8]) -> Choice {
    // On the bytes, without a conversion into the scalar field (on the Cortex-M0 its
    // Montgomery product was about 1 KiB of the ECDH image, for this check alone).
    let any = k.iter().fold(0u8, |acc, &b| acc | b);
    c.fq.below_modulus(k) & !any.ct_eq(&0)
}

/// The public point `d·G` of the private scalar `d`, uncompressed SEC1 without the tag
/// (`x‖y`) in `out` (twice the curve's length).
pub(crate) fn public_key<F: Field, S: Field>(
    c: &Curve<'_, F, S>,
    d: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    // Whether the key is valid is public (the call fails on it): declared so for the
    // constant-time check, as are the other verdicts below.
    if !core_hash::declassify(bool::from(scalar_in_range(c, d))) {
        return Err(Error::InvalidScalar);
    }
    let p = c.mul_base(d);
    let (x, y, inf) = c.to_affine(&p);
    // Unreachable for 0 < d < n on a prime-order curve; kept as a check.
    if core_hash::declassify(bool::from(inf)) {
        return Err(Error::InvalidScalar);
    }
    let len = c.params.len;
    c.fp.to_be(&x, &mut out[..len]);
    c.fp.to_be(&y, &mut out[len..2 * len]);
    Ok(())
}

/// Checks a public key given as `x‖y` (already range- and curve-checked when it was built),
/// returning its affine coordinates.
fn point_from_xy<F: Field, S: Field>(
    c: &Curve<'_, F, S>,
    xy: &[u8],
) -> Result<(F::E, F::E), Error> {
    let len = c.params.len;
    let (x, okx) = c.fp.import_be(&xy[..len]);
    let (y, oky) = c.fp.import_be(&xy[len..2 * len]);
    if !bool::from(okx & oky) {
        return Err(Error::InvalidEncoding);
    }
    if !bool::from(c.on_curve(&x, &y)) {
        return Err(Error::PointNotOnCurve);
    }
    Ok((x, y))
}

/// The ECDH shared secret: the x-coordinate of `d·Q`, in `out` (the curve's length).
pub(crate) fn ecdh<F: Field, S: Field>(
    c: &Curve<'_, F, S>,
    d: &[u8],
    peer_xy: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    // Whether the key is valid is public (the call fails on it): declared so for the
    // constant-time check, as are the other verdicts below.
    if !core_hash::declassify(bool::from(scalar_in_range(c, d))) {
        return Err(Error::InvalidScalar);
    }
    let (qx, qy) = point_from_xy(c, peer_xy)?;
    let s = c.mul_affine(&qx, &qy, d);
    let (x, _, inf) = c.to_affine(&s);
    if core_hash::declassify(bool::from(inf)) {
        return Err(Error::ZeroSharedSecret);
    }
    c.fp.to_be(&x, out);
    Ok(())
}

/// `bits2int` of RFC 6979 §2.3.2, as `len` big-endian bytes: the leftmost `qlen` bits of `h`
/// (or all of a shorter `h`, left-padded).
fn bits2int(qlen: usize, len: usize, h: &[u8], out: &mut [u8]) {
    out[..len].fill(0);
    if 8 * h.len() <= qlen {
        out[len - h.len()..len].copy_from_slice(h);
        return;
    }
    out[..len].copy_from_slice(&h[..len]);
    let shift = 8 * len - qlen;
    if shift > 0 {
        for i in (0..len).rev() {
            let prev = if i > 0 { out[i - 1] } else { 0 };
            out[i] = (out[i] >> shift) | (prev << (8 - shift));
        }
    }
}

/// The message representative `e = bits2int(h) mod n` (FIPS 186-5 §6.4.1 step 4), in `fq`.
fn hash_to_scalar<F: Field, S: Field>(c: &Curve<'_, F, S>, h: &[u8]) -> S::E {
    let len = c.params.len;
    let mut buf = [0u8; MAX_LEN];
    bits2int(c.params.qlen, len, h, &mut buf);
    // bits2int(h) < 2^qlen < 2n for every curve here, so one subtraction reduces it.
    c.fq.import_be_reduce(&buf[..len])
}

/// The RFC 6979 §3.2 nonce for private key `d` and hash `h` with HMAC over `H`, with
/// `extra` appended to the seed material as §3.6 allows (empty for the deterministic
/// variant). Writes `k` big-endian to `out`.
fn rfc6979_nonce<H: Hash, F: Field, S: Field>(
    c: &Curve<'_, F, S>,
    d: &[u8],
    h: &[u8],
    extra: &[u8],
    out: &mut [u8],
) {
    let len = c.params.len;
    let hlen = H::OUTPUT_LEN;
    let mut v = [1u8; core_hash::MAX_OUTPUT_LEN];
    let mut k = [0u8; core_hash::MAX_OUTPUT_LEN];
    // bits2octets(h) = int2octets(bits2int(h) mod n).
    let mut h1 = [0u8; MAX_LEN];
    let e = hash_to_scalar(c, h);
    c.fq.to_be(&e, &mut h1[..len]);
    // HMAC keyed with the current K, set up once per K and cloned for each use (the key
    // schedule is two compressions).
    let mut keyed = Hmac::<H>::new(&k[..hlen]);
    for round in [0u8, 1] {
        let mut mac = keyed.clone();
        mac.update(&v[..hlen]);
        mac.update(&[round]);
        mac.update(d);
        mac.update(&h1[..len]);
        mac.update(extra);
        k[..hlen].copy_from_slice(mac.finalize().as_ref());
        keyed = Hmac::<H>::new(&k[..hlen]);
        let mut mac = keyed.clone();
        mac.update(&v[..hlen]);
        v[..hlen].copy_from_slice(mac.finalize().as_ref());
    }
    let mut t = [0u8; MAX_LEN + core_hash::MAX_OUTPUT_LEN];
    loop {
        let mut tlen = 0;
        while tlen < len {
            let mut mac = keyed.clone();
            mac.update(&v[..hlen]);
            v[..hlen].copy_from_slice(mac.finalize().as_ref());
            t[tlen..tlen + hlen].copy_from_slice(&v[..hlen]);
            tlen += hlen;
        }
        bits2int(c.params.qlen, len, &t[..tlen], out);
        // A candidate outside 1..n is rejected and the next one drawn; which candidate is
        // used is not secret.
        if core_hash::declassify(bool::from(scalar_in_range(c, &out[..len]))) {
            break;
        }
        let mut mac = keyed.clone();
        mac.update(&v[..hlen]);
        mac.update(&[0]);
        k[..hlen].copy_from_slice(mac.finalize().as_ref());
        keyed = Hmac::<H>::new(&k[..hlen]);
        let mut mac = keyed.clone();
        mac.update(&v[..hlen]);
        v[..hlen].copy_from_slice(mac.finalize().as_ref());
    }
    t.zeroize();
    k.zeroize();
    v.zeroize();
    h1.zeroize();
}

/// ECDSA signature `r‖s` (each the curve's length) of the hash `h` under private scalar `d`,
/// with the RFC 6979 nonce over `H` and optional extra randomness.
pub(crate) fn sign<H: Hash, F: Field, S: Field>(
    c: &Curve<'_, F, S>,
    d: &[u8],
    h: &[u8],
    extra: &[u8],
    sig: &mut [u8],
) -> Result<(), Error> {
    let len = c.params.len;
    let (mut dm, ok) = c.fq.import_be(d);
    if !core_hash::declassify(bool::from(ok & !S::is_zero(&dm))) {
        return Err(Error::InvalidScalar);
    }
    let e = hash_to_scalar(c, h);
    let mut k = [0u8; MAX_LEN];
    let mut extra_nonce = 0u8;
    loop {
        // The RFC 6979 loop only ends with r ≠ 0 and s ≠ 0 (probability 2^-256 otherwise);
        // on the next try the candidate comes from extra data with a counter appended.
        let mut seed = [0u8; 2 * MAX_LEN + 1];
        let extra_len = extra.len().min(2 * MAX_LEN);
        seed[..extra_len].copy_from_slice(&extra[..extra_len]);
        let seed_len = if extra_nonce == 0 { extra_len } else { extra_len + 1 };
        seed[extra_len] = extra_nonce;
        rfc6979_nonce::<H, F, S>(c, d, h, &seed[..seed_len], &mut k[..len]);
        let rp = c.mul_base(&k[..len]);
        let (x, _, _) = c.to_affine(&rp);
        let mut xb = [0u8; MAX_LEN];
        c.fp.to_be(&x, &mut xb[..len]);
        // r = x mod n, with x < p < 2n.
        let r = c.fq.import_be_reduce(&xb[..len]);
        let (mut km, _) = c.fq.import_be(&k[..len]);
        let mut kinv = c.fq.invert(&km);
        let s = c.fq.mul(&kinv, &c.fq.add(&e, &c.fq.mul(&r, &dm)));
        km.zeroize();
        kinv.zeroize();
        if !core_hash::declassify(bool::from(S::is_zero(&r) | S::is_zero(&s))) {
            c.fq.to_be(&r, &mut sig[..len]);
            c.fq.to_be(&s, &mut sig[len..2 * len]);
            break;
        }
        extra_nonce = extra_nonce.wrapping_add(1);
    }
    k.zeroize();
    dm.zeroize();
    Ok(())
}

/// Verifies the ECDSA signature `r‖s` of the hash `h` under the public key `x‖y`, with
/// `NAF` digits per scalar in the double multiplication (see `Curve::mul2_vartime`).
pub(crate) fn verify<F: Field, S: Field, const NAF: usize>(
    c: &Curve<'_, F, S>,
    q_xy: &[u8],
    h: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    let len = c.params.len;
    let (qx, qy) = point_from_xy(c, q_xy)?;
    let q = super::point::Proj { x: qx, y: qy, z: c.fp.one() };
    let (r, okr) = c.fq.import_be(&sig[..len]);
    let (s, oks) = c.fq.import_be(&sig[len..2 * len]);
    if !bool::from(okr & oks & !S::is_zero(&r) & !S::is_zero(&s)) {
        return Err(Error::InvalidSignature);
    }
    let e = hash_to_scalar(c, h);
    // s is public: variable-time inversion.
    let w = c.fq.invert_vartime(&s);
    let mut u1 = [0u8; MAX_LEN];
    let mut u2 = [0u8; MAX_LEN];
    c.fq.to_be(&c.fq.mul(&e, &w), &mut u1[..len]);
    c.fq.to_be(&c.fq.mul(&r, &w), &mut u2[..len]);
    let [x, _, z] = c.mul2_vartime::<NAF>(&u1[..len], &u2[..len], &q);
    if bool::from(F::is_zero(&z)) {
        return Err(Error::InvalidSignature);
    }
    // R = (X : Y : Z) is (X/Z², Y/Z³): x(R) mod n = r ⇔ X = r·Z², or X = (r + n)·Z² when
    // r + n < p. No inversion needed.
    let f = c.fp;
    let zz = f.sqr(&z);
    let (rf, _) = f.import_be(&sig[..len]);
    if bool::from(f.eq(&x, &f.mul(&rf, &zz))) {
        return Ok(());
    }
    let mut rn = [0u8; MAX_LEN];
    let mut carry = 0u16;
    for i in (0..len).rev() {
        let v = u16::from(sig[i]) + u16::from(c.params.n[i]) + carry;
        rn[i] = v as u8;
        carry = v >> 8;
    }
    let (rnf, below_p) = f.import_be(&rn[..len]);
    if carry == 0 && bool::from(below_p) && bool::from(f.eq(&x, &f.mul(&rnf, &zz))) {
        return Ok(());
    }
    Err(Error::InvalidSignature)
}
