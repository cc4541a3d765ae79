//! RSA keys: parsing (PKCS#1 and `SubjectPublicKeyInfo` public keys, PKCS#1 and PKCS#8 private
//! keys), validation, export, and the raw operations (RFC 8017 §5.1–5.2) every scheme is built
//! on. The private operation uses the CRT with Garner's recombination, blinds its input with
//! a fresh `r^e` each call (undone with `r^-1`), and checks its result against the public key
//! before releasing it, so a fault in the computation cannot leak a factor.

use crate::blinding::BlindingCache;
use crate::der::{self, KeyAlg, PssKeyParams, Reader, Writer};
use crate::mont::{
    Dyn, Engine, Mont, MontImpl, PowJob, W64, Word, add, add_mod, ct_eq, digits_for, dispatch,
    inv_vartime, is_zero, is_zero_vartime, leading_zero_bytes_ct, load_be, lt_vartime, mul_full,
    store_be, sub_borrow, sub_mod,
};
use crate::{Error, RandomSource};
use core_der::pkix::{AlgorithmIdentifier, PrivateKeyInfo, SubjectPublicKeyInfo};
use zeroize::Zeroize;

/// The smallest modulus accepted for public-key operations (verification of legacy keys).
pub const MIN_PUBLIC_BITS: usize = 1024;
/// The smallest modulus accepted for private keys and encryption.
pub const MIN_PRIVATE_BITS: usize = 2048;

/// A public key's arithmetic: the modulus and the exponent.
#[derive(Clone)]
pub(crate) struct PubCore<W: Word> {
    pub(crate) n: Mont<W>,
    pub(crate) e: u64,
}

impl<W: Word> PubCore<W> {
    fn empty() -> Self {
        Self { n: Mont::empty(), e: 0 }
    }

    /// Sets this key to `(n, e)` in place.
    fn init<E: Engine<W = W>>(&mut self, eng: E, n: &[u8], e: u64) -> Result<(), Error> {
        // Too long for the buffers is a size the build does not support (see `MAX_BITS` and
        // its caps), not a bad modulus. A public modulus: its length may be computed plainly.
        let significant = n.len() - n.iter().take_while(|&&b| b == 0).count();
        if significant > crate::MAX_BITS / 8 {
            return Err(Error::UnsupportedKeySize);
        }
        self.n.init(eng, n, 0).map_err(|_| Error::InvalidModulus)?;
        if self.n.bits() < MIN_PUBLIC_BITS || self.n.bits() > crate::MAX_BITS {
            return Err(Error::UnsupportedKeySize);
        }
        if e < 3 || e & 1 == 0 {
            return Err(Error::InvalidExponent);
        }
        self.e = e;
        Ok(())
    }

    /// RSAEP / RSAVP1: `out = input^e mod n` for a `k`-byte `input < n`.
    #[inline(never)] // one stack frame per engine, not the largest of all
    fn public_op<E: Engine<W = W>>(
        &self,
        eng: E,
        input: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        let (l, k) = (self.n.len(), self.n.byte_len());
        if input.len() != k || out.len() != k {
            return Err(Error::InvalidLength);
        }
        let mut x = W::buf();
        load_be(&mut x.as_mut()[..l], input);
        if !lt_vartime(&x.as_ref()[..l], self.n.n()) {
            return Err(Error::OutOfRange);
        }
        // Bare metal: products only, no conversion back, and the input read again for the
        // last product rather than kept (see `pow_odd_vartime`); the result replaces it.
        #[cfg(target_os = "none")]
        {
            let input = crate::mont::BeBytes(input);
            self.n.pow_odd_vartime::<E, false>(eng, x.as_mut(), &input, self.e, false);
            store_be(&x.as_ref()[..l], out);
        }
        #[cfg(not(target_os = "none"))]
        {
            let mut y = W::buf();
            self.n.pow_e_vartime(eng, &mut y.as_mut()[..l], &x.as_ref()[..l], self.e, false);
            store_be(&y.as_ref()[..l], out);
        }
        Ok(())
    }
}

/// An RSA public key `(n, e)`, with `n` of 1024 to 8192 bits and `e` odd, at least 3 and at
/// most 64 bits, prepared for one [`MontImpl`].
///
/// ```
/// use core_rsa::{HashAlg, PublicKey};
///
/// # let der = include_bytes!("../tests/data/rsa2048_e65537.spki.der");
/// # let sig = include_bytes!("../tests/data/rsa2048_e65537.sha256.sig");
/// let key = PublicKey::from_spki_der(der)?;
/// assert_eq!(key.bits(), 2048);
/// key.verify_pkcs1v15(HashAlg::Sha256, b"Halite RSA test message\n", sig)?;
/// assert!(key.verify_pkcs1v15(HashAlg::Sha256, b"another message", sig).is_err());
/// # Ok::<(), core_rsa::Error>(())
/// ```
#[derive(Clone)]
pub struct PublicKey {
    inner: Dyn<PubCore<W64>, PubCore<u16>>,
    alg: KeyAlg,
}

impl core::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PublicKey")
            .field("bits", &self.bits())
            .field("e", &self.exponent())
            .field("implementation", &self.implementation())
            .finish()
    }
}

/// `e` from its big-endian magnitude, if it fits in 64 bits.
fn exponent(e: &[u8]) -> Result<u64, Error> {
    let start = e.iter().position(|&b| b != 0).unwrap_or(e.len());
    let e = &e[start..];
    if e.len() > 8 {
        return Err(Error::InvalidExponent);
    }
    Ok(e.iter().fold(0u64, |acc, &b| (acc << 8) | b as u64))
}

impl PublicKey {
    /// The key with modulus `n` and exponent `e` (big-endian magnitudes), on the best
    /// implementation for this CPU.
    pub fn from_components(n: &[u8], e: &[u8]) -> Result<Self, Error> {
        Self::from_components_with_impl(n, e, MontImpl::preferred())
    }

    /// The same on a chosen implementation.
    #[inline] // one call to `build`, which keeps the per-engine temporaries out of line
    pub fn from_components_with_impl(n: &[u8], e: &[u8], imp: MontImpl) -> Result<Self, Error> {
        Self::build(n, e, imp, KeyAlg::RSA)
    }

    /// The key with algorithm `alg`, built in place: on the Cortex-M0 every copy of a key
    /// costs 2 KiB of stack, so the algorithm goes in here rather than into a copy after.
    #[inline(never)] // keeps the per-engine temporaries out of the callers' frames
    fn build(n: &[u8], e: &[u8], imp: MontImpl, alg: KeyAlg) -> Result<Self, Error> {
        let e = exponent(e)?;
        let mut key = Self {
            alg,
            inner: match imp {
                #[cfg(target_pointer_width = "64")]
                MontImpl::Portable64 => Dyn::Portable64(PubCore::empty()),
                #[cfg(not(target_pointer_width = "64"))]
                MontImpl::Portable64 => Dyn::narrow(PubCore::empty()),
                #[cfg(any(
                    not(all(target_arch = "arm", feature = "asm")),
                    feature = "portable-twins"
                ))]
                MontImpl::Portable15 => Dyn::Portable15(PubCore::empty()),
                #[cfg(all(target_arch = "arm", feature = "asm"))]
                MontImpl::Thumb1 => Dyn::Thumb1(PubCore::empty()),
                MontImpl::X86Adx(t) => Dyn::X86Adx(t, PubCore::empty()),
                MontImpl::X86Avx512Ifma(i, a) => Dyn::X86Avx512Ifma(i, a, PubCore::empty()),
            },
        };
        dispatch!(&mut key.inner, |eng, k| k.init(eng, n, e))?;
        Ok(key)
    }

    /// The key from a PKCS#1 `RSAPublicKey` (RFC 8017 A.1.1) in DER.
    pub fn from_pkcs1_der(der: &[u8]) -> Result<Self, Error> {
        Self::from_pkcs1_der_with_impl(der, MontImpl::preferred())
    }

    /// The same on a chosen implementation.
    pub fn from_pkcs1_der_with_impl(der: &[u8], imp: MontImpl) -> Result<Self, Error> {
        Self::from_pkcs1_der_alg(der, imp, KeyAlg::RSA)
    }

    /// The key from a PKCS#1 `RSAPublicKey` with algorithm `alg`.
    fn from_pkcs1_der_alg(der: &[u8], imp: MontImpl, alg: KeyAlg) -> Result<Self, Error> {
        let (n, e) = read_pkcs1_public(der)?;
        Self::build(n, e, imp, alg)
    }

    /// The key from an X.509 `SubjectPublicKeyInfo` (RFC 5280 §4.1) in DER, with the
    /// rsaEncryption algorithm or id-RSASSA-PSS (RFC 4055 §1.2, with the `pss-keys` feature,
    /// on by default; its parameters, absent or present, stay with the key). A key of another
    /// kind is [`Error::WrongAlgorithm`] naming it.
    pub fn from_spki_der(der: &[u8]) -> Result<Self, Error> {
        Self::from_spki_der_with_impl(der, MontImpl::preferred())
    }

    /// The same on a chosen implementation.
    pub fn from_spki_der_with_impl(der: &[u8], imp: MontImpl) -> Result<Self, Error> {
        let (alg, pkcs1) = read_spki(der)?;
        Self::from_pkcs1_der_alg(pkcs1, imp, alg)
    }

    /// The same key on another implementation.
    pub fn with_impl(&self, imp: MontImpl) -> Result<Self, Error> {
        let mut n = [0u8; crate::MAX_BITS / 8];
        let len = self.write_modulus(&mut n)?;
        Self::build(&n[..len], &self.exponent().to_be_bytes(), imp, self.alg)
    }

    /// What the key's `SubjectPublicKeyInfo` calls it: [`KeyAlgorithm::Rsa`]
    /// (rsaEncryption) or [`KeyAlgorithm::RsaPss`] (id-RSASSA-PSS, signatures only).
    ///
    /// [`KeyAlgorithm::Rsa`]: crate::KeyAlgorithm::Rsa
    /// [`KeyAlgorithm::RsaPss`]: crate::KeyAlgorithm::RsaPss
    pub fn algorithm(&self) -> crate::KeyAlgorithm {
        self.alg.kind()
    }

    /// An id-RSASSA-PSS key's RSASSA-PSS-params (RFC 4055 §3.1), which may be none; `None`
    /// for an rsaEncryption key.
    pub fn pss_params(&self) -> Option<PssKeyParams> {
        self.alg.pss_params()
    }

    /// The implementation this key computes on.
    pub fn implementation(&self) -> MontImpl {
        self.inner.implementation()
    }

    /// The modulus's bit length.
    pub fn bits(&self) -> usize {
        dispatch!(&self.inner, |_e, k| k.n.bits())
    }

    /// The modulus's byte length `k`: the length of every signature and ciphertext.
    pub fn modulus_len(&self) -> usize {
        dispatch!(&self.inner, |_e, k| k.n.byte_len())
    }

    /// The public exponent.
    pub fn exponent(&self) -> u64 {
        dispatch!(&self.inner, |_e, k| k.e)
    }

    /// Writes the modulus big-endian (without leading zeros) into `out`; returns its length.
    pub fn write_modulus(&self, out: &mut [u8]) -> Result<usize, Error> {
        let k = self.modulus_len();
        let out = out.get_mut(..k).ok_or(Error::BufferTooSmall)?;
        dispatch!(&self.inner, |_e, c| store_be(c.n.n(), out));
        Ok(k)
    }

    /// RSAVP1/RSAEP (RFC 8017 §5.1.1, §5.2.2): `out = input^e mod n` for a `k`-byte
    /// `input < n`; `out` is `k` bytes.
    #[inline(never)] // keeps the per-engine temporaries out of the callers' frames
    pub fn raw_public(&self, input: &[u8], out: &mut [u8]) -> Result<(), Error> {
        dispatch!(&self.inner, |eng, k| k.public_op(eng, input, out))
    }

    /// The PKCS#1 `RSAPublicKey` DER length.
    fn pkcs1_content_len(n: &[u8], e: &[u8]) -> usize {
        der::tlv_len(der::uint_content_len(n)) + der::tlv_len(der::uint_content_len(e))
    }

    fn parts(&self) -> ([u8; crate::MAX_BITS / 8], usize, [u8; 8], usize) {
        let mut n = [0u8; crate::MAX_BITS / 8];
        let len = self.write_modulus(&mut n).unwrap_or(0);
        let e = self.exponent().to_be_bytes();
        let e_start = e.iter().position(|&b| b != 0).unwrap_or(8);
        (n, len, e, e_start)
    }

    /// Writes the PKCS#1 `RSAPublicKey` DER into `out`; returns its length.
    pub fn to_pkcs1_der(&self, out: &mut [u8]) -> Result<usize, Error> {
        let (n, len, e, es) = self.parts();
        let (n, e) = (&n[..len], &e[es..]);
        let mut w = Writer::new(out);
        w.header(der::SEQUENCE, Self::pkcs1_content_len(n, e))?;
        w.uint(n)?;
        w.uint(e)?;
        Ok(w.len())
    }

    /// Writes the `SubjectPublicKeyInfo` DER into `out` (rsaEncryption, or id-RSASSA-PSS
    /// with its parameters for a key read as one); returns its length.
    pub fn to_spki_der(&self, out: &mut [u8]) -> Result<usize, Error> {
        let mut pkcs1 = [0u8; MAX_PKCS1_PUBLIC_DER_LEN];
        let len = self.to_pkcs1_der(&mut pkcs1)?;
        let mut params = [0u8; der::MAX_PSS_PARAMS];
        let algorithm = self.alg.identifier(&mut params)?;
        let spki = SubjectPublicKeyInfo { algorithm, public_key: &pkcs1[..len] };
        Ok(spki.to_der(out)?)
    }
}

/// A private key's arithmetic: the public part, the primes as moduli, the CRT exponents,
/// `q^-1 mod p`, and `d` for export only.
pub(crate) struct PrivCore<W: Word> {
    public: PubCore<W>,
    p: Mont<W>,
    q: Mont<W>,
    dp: W::Buf,
    dq: W::Buf,
    qinv: W::Buf,
    d: W::Buf,
    /// The blinding pair kept between operations (none on the Cortex-M0).
    blind: BlindingCache<W>,
}

impl<W: Word> Drop for PrivCore<W> {
    fn drop(&mut self) {
        self.dp.zeroize();
        self.dq.zeroize();
        self.qinv.zeroize();
        self.d.zeroize();
    }
}

/// The big-endian magnitudes of a private key's components, in `RSAPrivateKey` order after
/// its version's slot (RFC 8017 A.1.2): n, e, d, p, q, dp, dq, qinv. One array, so the DER
/// walk fills it in place rather than into a copy (Cortex-M0 flash).
struct Components<'a>([&'a [u8]; 9]);

impl<'a> Components<'a> {
    /// The components given one by one (the version's slot empty).
    #[allow(clippy::too_many_arguments, clippy::many_single_char_names)]
    fn new(
        n: &'a [u8],
        e: &'a [u8],
        d: &'a [u8],
        p: &'a [u8],
        q: &'a [u8],
        dp: &'a [u8],
        dq: &'a [u8],
        qinv: &'a [u8],
    ) -> Self {
        Self([&[], n, e, d, p, q, dp, dq, qinv])
    }

    /// Reads a PKCS#1 `RSAPrivateKey` (two primes; multi-prime keys are not supported).
    // The DER walk stays in `core_der::Error` (one conversion in the caller rather than one
    // per field) and fills `self` where it is (Cortex-M0 flash).
    fn read(&mut self, der: &'a [u8]) -> Result<(), core_der::Error> {
        read_uints(der, &mut self.0)?;
        // The version, 0 (two-prime).
        if self.0[0].is_empty() { Ok(()) } else { Err(core_der::Error::NonCanonical) }
    }

    fn n(&self) -> &'a [u8] {
        self.0[1]
    }
    fn e(&self) -> &'a [u8] {
        self.0[2]
    }
    fn d(&self) -> &'a [u8] {
        self.0[3]
    }
    fn p(&self) -> &'a [u8] {
        self.0[4]
    }
    fn q(&self) -> &'a [u8] {
        self.0[5]
    }
    fn dp(&self) -> &'a [u8] {
        self.0[6]
    }
    fn dq(&self) -> &'a [u8] {
        self.0[7]
    }
    fn qinv(&self) -> &'a [u8] {
        self.0[8]
    }
}

/// Reads a PKCS#1 `RSAPublicKey`: the magnitudes of `n` and `e`.
fn read_pkcs1_public(der: &[u8]) -> Result<(&[u8], &[u8]), core_der::Error> {
    let mut ints: [&[u8]; 2] = [&[]; 2];
    read_uints(der, &mut ints)?;
    Ok((ints[0], ints[1]))
}

/// Reads a SEQUENCE of exactly `out.len()` non-negative INTEGERs' magnitudes into `out`: the
/// one walk of both PKCS#1 keys, with one call site for all their INTEGERs (Cortex-M0 flash).
#[inline(never)] // see `Components::from_der`
fn read_uints<'a>(der: &'a [u8], out: &mut [&'a [u8]]) -> Result<(), core_der::Error> {
    let mut seq = Reader::new(der::only(der, der::SEQUENCE)?);
    for int in out {
        *int = seq.uint()?;
    }
    seq.finish()
}

/// Reads an RSA key's `SubjectPublicKeyInfo`: its algorithm and its PKCS#1 `RSAPublicKey`.
fn read_spki(der: &[u8]) -> Result<(KeyAlg, &[u8]), Error> {
    read_envelope(der, false)
}

/// Reads an RSA key's PKCS#8 `PrivateKeyInfo`: its algorithm and its PKCS#1 `RSAPrivateKey`.
fn read_pkcs8(der: &[u8]) -> Result<(KeyAlg, &[u8]), Error> {
    read_envelope(der, true)
}

/// Reads an RSA key's SPKI (`pkcs8` false) or PKCS#8 envelope: one walk for both, as they
/// differ only in the version field and the key's string type (Cortex-M0 flash).
#[inline(never)] // see `Components::from_der`
fn read_envelope(der: &[u8], pkcs8: bool) -> Result<(KeyAlg, &[u8]), Error> {
    let (algorithm, key, rest) = read_envelope_fields(der, pkcs8)?;
    let alg = KeyAlg::from_identifier(&algorithm)?;
    // Attributes and a version-2 public key are not expected in RSA keys; refuse them.
    if !rest.is_empty() {
        return Err(Error::InvalidDer);
    }
    Ok((alg, key))
}

/// The algorithm and key of an SPKI or a PKCS#8 key (version 0 or 1), and for PKCS#8 the
/// bytes after them unread: an RSA key refuses whatever follows, so walking attributes and a
/// public key with [`PrivateKeyInfo::from_der`] only to refuse them would cost the Cortex-M0
/// ~200 B of code.
fn read_envelope_fields(
    der: &[u8],
    pkcs8: bool,
) -> Result<(AlgorithmIdentifier<'_>, &[u8], &[u8]), core_der::Error> {
    let mut r = Reader::new(der::only(der, der::SEQUENCE)?);
    if pkcs8 {
        let version = r.uint()?;
        if !version.is_empty() && version != [1] {
            return Err(core_der::Error::NonCanonical);
        }
    }
    let algorithm = AlgorithmIdentifier::from_contents(r.read(der::SEQUENCE)?)?;
    let key = if pkcs8 {
        r.read(core_der::der::OCTET_STRING)?
    } else {
        let key = r.bit_string()?;
        r.finish()?;
        key
    };
    Ok((algorithm, key, r.rest()))
}

/// Loads `bytes` into the first `len` digits of `dst`, or fails with `err`.
fn load<W: Word>(dst: &mut W::Buf, bytes: &[u8], len: usize, err: Error) -> Result<(), Error> {
    if len > W::CAP || !load_be(&mut dst.as_mut()[..len], bytes) {
        return Err(err);
    }
    Ok(())
}

impl<W: Word> PrivCore<W> {
    /// A placeholder to [`init`](Self::init) in place.
    #[inline(always)]
    fn empty() -> Self {
        Self {
            public: PubCore::empty(),
            p: Mont::empty(),
            q: Mont::empty(),
            dp: W::buf(),
            dq: W::buf(),
            qinv: W::buf(),
            d: W::buf(),
            blind: BlindingCache::new(),
        }
    }

    /// Sets this key to the components `c`, in place: a key is a dozen numbers of
    /// [`MAX_BITS`](crate::MAX_BITS), and every move of one through a `Result` would be
    /// another copy on the stack, which the Cortex-M0 does not have room for.
    #[inline(never)] // one stack frame per engine, not the largest of all
    fn init<E: Engine<W = W>>(&mut self, eng: E, c: &Components<'_>) -> Result<(), Error> {
        let bad = Error::InvalidPrivateKey;
        self.public.init(eng, c.n(), exponent(c.e())?)?;
        if self.public.n.bits() < MIN_PRIVATE_BITS {
            return Err(Error::UnsupportedKeySize);
        }
        let ln = self.public.n.len();
        // The primes' lengths are public (half the key size); their bytes are not.
        let strip = |b: &[u8]| b.len() - core_hash::declassify(leading_zero_bytes_ct(b));
        // Both primes get the digit count of the longer, so one R serves both halves.
        let lh = digits_for::<W>(strip(c.p()).max(strip(c.q())));
        if 2 * lh > W::CAP || ln > 2 * lh {
            return Err(bad);
        }
        self.p.init(eng, c.p(), lh).map_err(|_| bad)?;
        self.q.init(eng, c.q(), lh).map_err(|_| bad)?;
        load::<W>(&mut self.dp, c.dp(), lh, bad)?;
        load::<W>(&mut self.dq, c.dq(), lh, bad)?;
        load::<W>(&mut self.qinv, c.qinv(), lh, bad)?;
        load::<W>(&mut self.d, c.d(), ln, bad)?;
        self.check(eng)
    }

    /// Checks that `n = p·q`, the CRT exponents invert `e` and `qinv·q ≡ 1 (mod p)`, in
    /// constant time (the key is secret even when it is wrong).
    #[inline(never)] // one stack frame per engine, not the largest of all
    fn check<E: Engine<W = W>>(&self, eng: E) -> Result<(), Error> {
        let (lh, ln) = (self.p.len(), self.public.n.len());
        let mut ok = subtle::Choice::from(1);
        // n = p·q
        // 2·lh digits fit a buffer (checked by `init`).
        let mut prod = W::buf();
        mul_full(&mut prod.as_mut()[..2 * lh], self.p.n(), self.q.n());
        ok &= ct_eq(&prod.as_ref()[..ln], self.public.n.n());
        for &d in &prod.as_ref()[ln..2 * lh] {
            ok &= d.ct_eq(&W::ZERO);
        }
        prod.zeroize();
        // dp < p, dq < q, qinv < p
        for (x, m) in [(&self.dp, &self.p), (&self.dq, &self.q), (&self.qinv, &self.p)] {
            ok &= sub_borrow(&x.as_ref()[..lh], m.n()).ct_eq(&W::ONE);
        }
        // qinv·q ≡ 1 (mod p)
        let mut t = W::buf();
        let mut u = W::buf();
        self.p.enter_mont(eng, &mut t.as_mut()[..lh], self.q.n());
        self.p.mul(eng, &mut u.as_mut()[..lh], &t.as_ref()[..lh], &self.qinv.as_ref()[..lh]);
        let mut one = W::buf();
        one.as_mut()[0] = W::ONE;
        ok &= ct_eq(&u.as_ref()[..lh], &one.as_ref()[..lh]);
        // (2^e)^dp ≡ 2 (mod p), and the same for q.
        for (m, d) in [(&self.p, &self.dp), (&self.q, &self.dq)] {
            let mut two = W::buf();
            two.as_mut()[0] = W::from_u64(2);
            m.enter_mont(eng, &mut t.as_mut()[..lh], &two.as_ref()[..lh]);
            m.pow_e_vartime(eng, u.as_mut(), &two.as_ref()[..lh], self.public.e, true);
            m.pow_ct_small(eng, two.as_mut(), &u.as_ref()[..lh], d.as_ref(), m.bits());
            ok &= ct_eq(&two.as_ref()[..lh], &t.as_ref()[..lh]);
        }
        t.zeroize();
        u.zeroize();
        // Whether the key is consistent is public: the call fails on it.
        if core_hash::declassify(bool::from(ok)) { Ok(()) } else { Err(Error::InvalidPrivateKey) }
    }

    /// A uniformly random value in `[1, 2^(bits-1))`, below `n`.
    fn random_below_n(&self, rng: &mut dyn RandomSource, out: &mut [W]) -> Result<(), Error> {
        let k = self.public.n.byte_len();
        let bits = self.public.n.bits();
        let mut bytes = [0u8; crate::MAX_BITS / 8];
        loop {
            let b = &mut bytes[..k];
            rng.fill(b).map_err(|_| Error::RandomFailed)?;
            let excess = 8 * k - (bits - 1);
            // bits lies in (8(k-1), 8k], so 1 ≤ excess ≤ 8: only the first byte changes.
            b[0] &= 0xffu8.checked_shr(excess as u32).unwrap_or(0);
            load_be(out, b);
            // Whether a fresh draw is zero (a 2^-(bits-1) event) says nothing about the value
            // kept, so the verdict may be public.
            if !core_hash::declassify(bool::from(is_zero(out))) {
                bytes.zeroize();
                return Ok(());
            }
        }
    }

    /// `x mod m` in Montgomery form for `x < m.R²` of `2·m.len()` digits:
    /// `x_lo·R + x_hi·R² = x·R (mod m)`, the second term by entering Montgomery form twice
    /// (one multiplication more than with a stored `R³`, which would be two more numbers in
    /// every key).
    fn reduce_into<E: Engine<W = W>>(eng: E, m: &Mont<W>, out: &mut [W], x: &[W]) {
        let lh = m.len();
        let (mut t, mut u) = (W::buf(), W::buf());
        m.enter_mont(eng, out, &x[..lh]);
        m.enter_mont(eng, &mut t.as_mut()[..lh], &x[lh..2 * lh]);
        m.enter_mont(eng, &mut u.as_mut()[..lh], &t.as_ref()[..lh]);
        add_mod(out, &u.as_ref()[..lh], m.n());
        t.zeroize();
        u.zeroize();
    }

    /// RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1): `out = input^d mod n`, blinded, by the CRT,
    /// checked with the public exponent.
    #[inline(never)] // one stack frame per engine, not the largest of all
    fn private_op<E: Engine<W = W>>(
        &self,
        eng: E,
        input: &[u8],
        out: &mut [u8],
        rng: &mut dyn RandomSource,
    ) -> Result<(), Error> {
        let nm = &self.public.n;
        let (ln, k, lh) = (nm.len(), nm.byte_len(), self.p.len());
        if input.len() != k || out.len() != k {
            return Err(Error::InvalidLength);
        }
        let mut c = W::buf();
        load_be(&mut c.as_mut()[..ln], input);
        // The input may hold a secret until the result is released (a PSS encoding holds the
        // salt), but the comparison is the borrow of c − n, in constant time, and whether the
        // input is in range is public: the call fails on it.
        if !core_hash::declassify(lt_vartime(&c.as_ref()[..ln], nm.n())) {
            return Err(Error::OutOfRange);
        }
        let (mut r, mut b, mut t, mut u) = (W::buf(), W::buf(), W::buf(), W::buf());
        let (mut cb, mut rinv_m) = (W::buf(), W::buf());
        // Blinding: the pair A = r^e·R, r^-1·R kept with the key, squared (see `blinding`),
        // or a fresh one, inverting r·b/R for a second random b so the variable-time
        // inversion sees a value unrelated to r. A goes in cb, r^-1·R in rinv_m.
        if !self.blind.take(eng, nm, &mut cb.as_mut()[..ln], &mut rinv_m.as_mut()[..ln]) {
            loop {
                self.random_below_n(rng, &mut r.as_mut()[..ln])?;
                self.random_below_n(rng, &mut b.as_mut()[..ln])?;
                nm.pow_e_vartime(eng, cb.as_mut(), &r.as_ref()[..ln], self.public.e, true);
                nm.mul(eng, &mut u.as_mut()[..ln], &r.as_ref()[..ln], &b.as_ref()[..ln]); // r·b/R
                // r·b/R is uniform and independent of r (b is never revealed), so it is public:
                // the point of the second factor is that the variable-time inversion may see it.
                for d in &mut u.as_mut()[..ln] {
                    *d = core_hash::declassify(*d);
                }
                if is_zero_vartime(&u.as_ref()[..ln]) {
                    continue;
                }
                if !inv_vartime(&mut t.as_mut()[..ln], &u.as_ref()[..ln], nm.n()) {
                    continue; // gcd(r·b, n) > 1: only with a negligible probability
                }
                // R/(r·b), then R²/(r·b), then times b: R/r = r^-1·R.
                nm.enter_mont(eng, &mut u.as_mut()[..ln], &t.as_ref()[..ln]);
                nm.mul(eng, &mut rinv_m.as_mut()[..ln], &u.as_ref()[..ln], &b.as_ref()[..ln]);
                break;
            }
            self.blind.put(&cb.as_ref()[..ln], &rinv_m.as_ref()[..ln]);
        }
        // The blinded input c·r^e, in u.
        nm.mul(eng, &mut u.as_mut()[..ln], &c.as_ref()[..ln], &cb.as_ref()[..ln]);
        // m1 = u^dp mod p, m2 = u^dq mod q (Montgomery forms), in the blinding factors'
        // buffers: every buffer here is one more number on the Cortex-M0's small stack. m2
        // holds the base mod q until the exponentiations are done.
        let (m1, m2) = (&mut r, &mut b);
        Self::reduce_into(eng, &self.p, &mut t.as_mut()[..lh], u.as_ref());
        Self::reduce_into(eng, &self.q, &mut m2.as_mut()[..lh], u.as_ref());
        Mont::pow_ct_pair(
            eng,
            PowJob {
                m: &self.p,
                out: m1.as_mut(),
                base: &t.as_ref()[..lh],
                exp: self.dp.as_ref(),
                bits: self.p.bits(),
            },
            PowJob {
                m: &self.q,
                out: u.as_mut(),
                base: &m2.as_ref()[..lh],
                exp: self.dq.as_ref(),
                bits: self.q.bits(),
            },
        );
        self.q.leave_mont(eng, &mut m2.as_mut()[..lh], &u.as_ref()[..lh]);
        // Garner: h = (m1 - m2)·qinv mod p, m = m2 + h·q.
        self.p.enter_mont(eng, &mut t.as_mut()[..lh], &m2.as_ref()[..lh]);
        sub_mod(&mut m1.as_mut()[..lh], &t.as_ref()[..lh], self.p.n());
        self.p.mul(eng, &mut u.as_mut()[..lh], &m1.as_ref()[..lh], &self.qinv.as_ref()[..lh]);
        // The product has 2·lh digits, which a buffer holds (`init` checked it), and cb is free.
        let w = &mut cb.as_mut()[..2 * lh];
        mul_full(w, &u.as_ref()[..lh], self.q.n());
        let mut carry = add(&mut w[..lh], &m2.as_ref()[..lh]);
        for d in &mut w[lh..] {
            (*d, carry) = W::adc(*d, W::ZERO, carry);
        }
        // Unblind: m = mb·r^-1.
        nm.mul(eng, &mut t.as_mut()[..ln], &w[..ln], &rinv_m.as_ref()[..ln]);
        // Fault check: m^e must give c back.
        nm.pow_e_vartime(eng, &mut u.as_mut()[..ln], &t.as_ref()[..ln], self.public.e, false);
        let ok = ct_eq(&u.as_ref()[..ln], &c.as_ref()[..ln]);
        store_be(&t.as_ref()[..ln], out);
        for buf in [&mut c, &mut r, &mut b, &mut t, &mut u, &mut cb, &mut rinv_m] {
            buf.zeroize();
        }
        // Whether the result checked out is public: the call fails on it.
        if core_hash::declassify(bool::from(ok)) {
            Ok(())
        } else {
            out.zeroize();
            self.blind.clear();
            Err(Error::Fault)
        }
    }
}

/// An RSA private key with two primes, prepared for CRT operations on one [`MontImpl`].
/// Everything secret is wiped on drop.
///
/// ```
/// use core_rsa::{HashAlg, OsRandom, PrivateKey};
///
/// # let der = include_bytes!("../tests/data/rsa2048_e65537.pkcs8.der");
/// let key = PrivateKey::from_pkcs8_der(der)?;
/// let mut sig = [0u8; 256];
/// key.sign_pkcs1v15(HashAlg::Sha256, b"hello", &mut OsRandom, &mut sig)?;
/// key.public_key().verify_pkcs1v15(HashAlg::Sha256, b"hello", &sig)?;
/// # Ok::<(), core_rsa::Error>(())
/// ```
pub struct PrivateKey {
    inner: Dyn<PrivCore<W64>, PrivCore<u16>>,
    alg: KeyAlg,
}

impl core::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PrivateKey")
            .field("bits", &self.bits())
            .field("implementation", &self.implementation())
            .finish_non_exhaustive()
    }
}

impl PrivateKey {
    /// The key from a PKCS#1 `RSAPrivateKey` (RFC 8017 A.1.2, two primes) in DER.
    pub fn from_pkcs1_der(der: &[u8]) -> Result<Self, Error> {
        Self::from_pkcs1_der_with_impl(der, MontImpl::preferred())
    }

    /// The same on a chosen implementation.
    pub fn from_pkcs1_der_with_impl(der: &[u8], imp: MontImpl) -> Result<Self, Error> {
        Self::from_pkcs1_der_alg(der, imp, KeyAlg::RSA)
    }

    /// The key from a PKCS#1 `RSAPrivateKey` with algorithm `alg`, built in place.
    fn from_pkcs1_der_alg(der: &[u8], imp: MontImpl, alg: KeyAlg) -> Result<Self, Error> {
        let mut c = Components([&[]; 9]);
        c.read(der)?;
        Self::build(&c, imp, alg)
    }

    /// The key from a PKCS#8 `PrivateKeyInfo` (RFC 5208) in DER, holding an rsaEncryption
    /// key or an id-RSASSA-PSS one (RFC 4055, with the `pss-keys` feature, on by default; its
    /// parameters, absent or present, stay with the key). A key of another kind is
    /// [`Error::WrongAlgorithm`] naming it.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
        Self::from_pkcs8_der_with_impl(der, MontImpl::preferred())
    }

    /// The same on a chosen implementation.
    pub fn from_pkcs8_der_with_impl(der: &[u8], imp: MontImpl) -> Result<Self, Error> {
        let (alg, pkcs1) = read_pkcs8(der)?;
        Self::from_pkcs1_der_alg(pkcs1, imp, alg)
    }

    /// What the key's PKCS#8 form calls it: [`KeyAlgorithm::Rsa`] or
    /// [`KeyAlgorithm::RsaPss`] (signatures only).
    ///
    /// [`KeyAlgorithm::Rsa`]: crate::KeyAlgorithm::Rsa
    /// [`KeyAlgorithm::RsaPss`]: crate::KeyAlgorithm::RsaPss
    pub fn algorithm(&self) -> crate::KeyAlgorithm {
        self.alg.kind()
    }

    /// An id-RSASSA-PSS key's RSASSA-PSS-params (which may be none); `None` for an
    /// rsaEncryption key.
    pub fn pss_params(&self) -> Option<PssKeyParams> {
        self.alg.pss_params()
    }

    /// The key from its components, big-endian magnitudes (RFC 8017 §3.2, second form).
    #[allow(clippy::too_many_arguments)]
    pub fn from_components(
        n: &[u8],
        e: &[u8],
        d: &[u8],
        p: &[u8],
        q: &[u8],
        dp: &[u8],
        dq: &[u8],
        qinv: &[u8],
        imp: MontImpl,
    ) -> Result<Self, Error> {
        Self::build(&Components::new(n, e, d, p, q, dp, dq, qinv), imp, KeyAlg::RSA)
    }

    #[inline(never)] // keeps the per-engine temporaries out of the callers' frames
    fn build(c: &Components<'_>, imp: MontImpl, alg: KeyAlg) -> Result<Self, Error> {
        // Built in place (see `PrivCore::init`); the one copy left is into the returned
        // `Result`, which a caller can borrow from rather than move out of.
        let mut key = Self::empty(imp);
        key.alg = alg;
        dispatch!(&mut key.inner, |eng, k| k.init(eng, c))?;
        Ok(key)
    }

    /// A zeroed key for `imp`, to be initialised in place; out of line, so that each arm
    /// writes straight into the caller's slot rather than into temporaries of its own.
    #[inline(never)]
    fn empty(imp: MontImpl) -> Self {
        match imp {
            #[cfg(target_pointer_width = "64")]
            MontImpl::Portable64 => {
                Self { inner: Dyn::Portable64(PrivCore::empty()), alg: KeyAlg::RSA }
            }
            #[cfg(not(target_pointer_width = "64"))]
            MontImpl::Portable64 => {
                Self { inner: Dyn::narrow(PrivCore::empty()), alg: KeyAlg::RSA }
            }
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            MontImpl::Portable15 => {
                Self { inner: Dyn::Portable15(PrivCore::empty()), alg: KeyAlg::RSA }
            }
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            MontImpl::Thumb1 => Self { inner: Dyn::Thumb1(PrivCore::empty()), alg: KeyAlg::RSA },
            MontImpl::X86Adx(t) => {
                Self { inner: Dyn::X86Adx(t, PrivCore::empty()), alg: KeyAlg::RSA }
            }
            MontImpl::X86Avx512Ifma(i, a) => {
                Self { inner: Dyn::X86Avx512Ifma(i, a, PrivCore::empty()), alg: KeyAlg::RSA }
            }
        }
    }

    /// The implementation this key computes on.
    pub fn implementation(&self) -> MontImpl {
        self.inner.implementation()
    }

    /// The modulus's bit length.
    pub fn bits(&self) -> usize {
        dispatch!(&self.inner, |_e, k| k.public.n.bits())
    }

    /// The modulus's byte length `k`.
    pub fn modulus_len(&self) -> usize {
        dispatch!(&self.inner, |_e, k| k.public.n.byte_len())
    }

    /// The public half.
    pub fn public_key(&self) -> PublicKey {
        PublicKey {
            alg: self.alg,
            inner: match &self.inner {
                Dyn::Portable64(k) => Dyn::Portable64(k.public.clone()),
                #[cfg(any(
                    not(all(target_arch = "arm", feature = "asm")),
                    feature = "portable-twins"
                ))]
                Dyn::Portable15(k) => Dyn::Portable15(k.public.clone()),
                #[cfg(all(target_arch = "arm", feature = "asm"))]
                Dyn::Thumb1(k) => Dyn::Thumb1(k.public.clone()),
                Dyn::X86Adx(t, k) => Dyn::X86Adx(*t, k.public.clone()),
                Dyn::X86Avx512Ifma(i, a, k) => Dyn::X86Avx512Ifma(*i, *a, k.public.clone()),
            },
        }
    }

    /// The same key on another implementation.
    pub fn with_impl(&self, imp: MontImpl) -> Result<Self, Error> {
        let mut der = [0u8; PKCS1_MAX];
        let len = self.to_pkcs1_der(&mut der)?;
        let k = Self::from_pkcs1_der_alg(&der[..len], imp, self.alg);
        der.zeroize();
        k
    }

    /// RSADP/RSASP1 (RFC 8017 §5.1.2, §5.2.1): `out = input^d mod n` for a `k`-byte
    /// `input < n`, blinded with randomness from `rng` and checked before release (a failed
    /// check is [`Error::Fault`] and leaves `out` zeroed).
    pub fn raw_private(
        &self,
        input: &[u8],
        out: &mut [u8],
        rng: &mut dyn RandomSource,
    ) -> Result<(), Error> {
        dispatch!(&self.inner, |eng, k| k.private_op(eng, input, out, rng))
    }

    /// Writes the PKCS#1 `RSAPrivateKey` DER into `out`; returns its length.
    pub fn to_pkcs1_der(&self, out: &mut [u8]) -> Result<usize, Error> {
        dispatch!(&self.inner, |_e, k| write_pkcs1(k, out))
    }

    /// Writes the PKCS#8 `PrivateKeyInfo` DER into `out` (rsaEncryption, or id-RSASSA-PSS
    /// with its parameters for a key read as one); returns its length. The output is secret.
    pub fn to_pkcs8_der(&self, out: &mut [u8]) -> Result<usize, Error> {
        let mut inner = [0u8; PKCS1_MAX];
        let mut params = [0u8; der::MAX_PSS_PARAMS];
        let r = self.to_pkcs1_der(&mut inner).and_then(|len| {
            let info = PrivateKeyInfo {
                algorithm: self.alg.identifier(&mut params)?,
                private_key: &inner[..len],
                attributes: None,
                public_key: None,
            };
            Ok(info.to_der(out)?)
        });
        inner.zeroize();
        r
    }
}

/// An upper bound on a [`MAX_BITS`](crate::MAX_BITS) key's PKCS#1 `RSAPrivateKey` DER:
/// `n` and `d` of `k` bytes, five CRT values of `k/2`, each with a sign byte and a 4-byte
/// header, the exponent and version, the SEQUENCE header.
pub const MAX_PKCS1_DER_LEN: usize =
    2 * (crate::MAX_BITS / 8 + 5) + 5 * (crate::MAX_BITS / 16 + 5) + 10 + 3 + 4;
const PKCS1_MAX: usize = MAX_PKCS1_DER_LEN;
/// An upper bound on a key's PKCS#8 DER: the PKCS#1 key, the version, an id-RSASSA-PSS
/// identifier with the longest parameters kept, and the headers.
pub const MAX_PKCS8_DER_LEN: usize = MAX_PKCS1_DER_LEN + 3 + MAX_ALGORITHM_LEN + 4 + 4;
/// An upper bound on a key's PKCS#1 `RSAPublicKey` DER: `n` with a sign byte, `e` (at most
/// 64 bits), the headers.
pub const MAX_PKCS1_PUBLIC_DER_LEN: usize = crate::MAX_BITS / 8 + 5 + 11 + 4;
/// An upper bound on a key's `SubjectPublicKeyInfo` DER.
pub const MAX_PUBLIC_KEY_DER_LEN: usize = MAX_PKCS1_PUBLIC_DER_LEN + 5 + MAX_ALGORITHM_LEN + 4;
/// The longest `AlgorithmIdentifier` written: id-RSASSA-PSS with the longest parameters.
const MAX_ALGORITHM_LEN: usize = 2 + 11 + der::MAX_PSS_PARAMS;
/// An upper bound on [`PrivateKey::to_pkcs8_pem`]'s output.
pub const MAX_PKCS8_PEM_LEN: usize =
    core_der::pem::encoded_len(crate::pem::PKCS8, MAX_PKCS8_DER_LEN);
/// An upper bound on [`PrivateKey::to_pkcs1_pem`]'s output.
pub const MAX_PKCS1_PEM_LEN: usize =
    core_der::pem::encoded_len(crate::pem::PKCS1, MAX_PKCS1_DER_LEN);
/// An upper bound on [`PublicKey::to_public_key_pem`]'s output.
pub const MAX_PUBLIC_KEY_PEM_LEN: usize =
    core_der::pem::encoded_len(crate::pem::PUBLIC_KEY, MAX_PUBLIC_KEY_DER_LEN);
/// An upper bound on [`PublicKey::to_pkcs1_pem`]'s output.
pub const MAX_PKCS1_PUBLIC_PEM_LEN: usize =
    core_der::pem::encoded_len(crate::pem::PKCS1_PUBLIC, MAX_PKCS1_PUBLIC_DER_LEN);

/// The 8 integers of an `RSAPrivateKey`, each as a big-endian buffer and its used tail.
fn write_pkcs1<W: Word>(k: &PrivCore<W>, out: &mut [u8]) -> Result<usize, Error> {
    const B: usize = crate::MAX_BITS / 8;
    let mut bufs = [[0u8; B]; 8];
    let lh = k.p.len();
    let ln = k.public.n.len();
    let kn = k.public.n.byte_len();
    let kp = k.p.byte_len().max(k.q.byte_len());
    let sources: [(&[W], usize); 8] = [
        (k.public.n.n(), kn),
        (&[], 0),
        (&k.d.as_ref()[..ln], kn),
        (k.p.n(), kp),
        (k.q.n(), kp),
        (&k.dp.as_ref()[..lh], kp),
        (&k.dq.as_ref()[..lh], kp),
        (&k.qinv.as_ref()[..lh], kp),
    ];
    let mut spans = [(0usize, 0usize); 8];
    for (i, (src, len)) in sources.iter().enumerate() {
        if i == 1 {
            let e = k.public.e.to_be_bytes();
            bufs[1][..8].copy_from_slice(&e);
            let s = e.iter().position(|&b| b != 0).unwrap_or(8);
            spans[1] = (s, 8);
            continue;
        }
        store_be(src, &mut bufs[i][..*len]);
        let s = bufs[i][..*len].iter().position(|&b| b != 0).unwrap_or(*len);
        spans[i] = (s, *len);
    }
    let content = 3 + spans
        .iter()
        .enumerate()
        .map(|(i, &(s, e))| der::tlv_len(der::uint_content_len(&bufs[i][s..e])))
        .sum::<usize>();
    let r = (|| {
        let mut w = Writer::new(out);
        w.header(der::SEQUENCE, content)?;
        w.uint(&[])?;
        for (i, &(s, e)) in spans.iter().enumerate() {
            w.uint(&bufs[i][s..e])?;
        }
        Ok(w.len())
    })();
    bufs.zeroize();
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use core_der::KeyAlgorithm;

    /// A PKCS#8 key with version `v`, algorithm OID `oid` (with NULL parameters), privateKey
    /// `01` and `tail` after it.
    fn pkcs8(v: u8, oid: &[u8], tail: &[u8]) -> std::vec::Vec<u8> {
        let mut body = std::vec![0x02, 1, v, 0x30, oid.len() as u8 + 4, 0x06, oid.len() as u8];
        body.extend_from_slice(oid);
        body.extend_from_slice(&[0x05, 0, 0x04, 1, 1]);
        body.extend_from_slice(tail);
        let mut der = std::vec![0x30, body.len() as u8];
        der.extend(body);
        der
    }

    /// The short PKCS#8 walk accepts versions 0 and 1 and refuses what an RSA key never has
    /// (attributes, a public key), after the algorithm, as `PrivateKeyInfo::from_der` did.
    #[test]
    fn pkcs8_walk_refuses_extras() {
        let rsa = core_der::pkix::oid::RSA_ENCRYPTION;
        assert_eq!(read_pkcs8(&pkcs8(0, rsa, &[])), Ok((KeyAlg::RSA, &[1u8][..])));
        assert_eq!(read_pkcs8(&pkcs8(1, rsa, &[])), Ok((KeyAlg::RSA, &[1u8][..])));
        assert_eq!(read_pkcs8(&pkcs8(2, rsa, &[])), Err(Error::InvalidDer));
        assert_eq!(read_pkcs8(&pkcs8(0, rsa, &[0xa0, 0])), Err(Error::InvalidDer));
        assert_eq!(read_pkcs8(&pkcs8(1, rsa, &[0x81, 2, 0, 7])), Err(Error::InvalidDer));
        let ed = core_der::pkix::oid::ED25519;
        let found = KeyAlgorithm::Ed25519;
        assert_eq!(
            read_pkcs8(&pkcs8(1, ed, &[0x81, 2, 0, 7])),
            Err(Error::WrongAlgorithm { found })
        );
    }
}
