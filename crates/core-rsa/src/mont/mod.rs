//! Montgomery arithmetic modulo an odd number of up to [`MAX_BITS`](crate::MAX_BITS) bits, and
//! modular exponentiation on it, with one implementation per limb width or instruction set:
//!
//! - [`portable64`]: 64-bit limbs, `u128` products; the default on 64-bit targets;
//! - [`portable15`]: 15-bit digits in `u16` with 32-bit products only (BearSSL's `i15`); the
//!   default on 32-bit targets but Arm with `asm`;
//! - `thumb1`: `portable15` with its row loops in Thumb-1 assembly; in its place on 32-bit Arm
//!   with `asm` (the Cortex-M0), where `portable15` is not built, so that an image links one
//!   copy of the generic code (the Rust twin is checked on the Cortex-M0 by the firmware's
//!   known answers with `asm` off, `cargo xtask m0 --no-asm`);
//! - `x86_adx`: 64-bit limbs with `mulx`/`adcx`/`adox` carry chains (x86-64 with BMI2 and ADX);
//! - `x86_avx512ifma`: constant-time exponentiation on 52-bit limbs in ZMM registers with
//!   AVX-512 IFMA for moduli of 7 to 32 64-bit limbs (the RSA-2048/3072/4096 CRT halves), two
//!   at once for a CRT private operation, and public exponents up to 64 limbs (RSA-4096
//!   verification); everything else on `x86_adx`.
//!
//! Numbers are fixed-capacity digit buffers on the stack; every loop runs over the modulus's
//! digit count, which is public. The constant-time exponentiation uses a fixed window and reads
//! its table by scanning every entry; the variable-time one is for public exponents only.

mod inverse;
mod inverse15;
mod ops;
mod portable15;
#[cfg(all(target_arch = "arm", feature = "asm"))]
mod thumb1;
// On 32-bit targets only its `Word` impl for `u64` is used (by the inversions); the engine
// is not built there (see `W64`).
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
mod portable64;
#[cfg(target_arch = "x86_64")]
mod x86_adx;
#[cfg(target_arch = "x86_64")]
mod x86_avx512ifma;

pub(crate) use ops::*;
#[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
pub(crate) use portable15::Portable15;
#[cfg(target_pointer_width = "64")]
pub(crate) use portable64::Portable64;
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) use thumb1::Thumb1;
#[cfg(target_arch = "x86_64")]
pub(crate) use x86_adx::X86Adx;
#[cfg(target_arch = "x86_64")]
pub(crate) use x86_avx512ifma::X86Avx512Ifma;

use crate::Error;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

core_cpu::implementation_enum! {
    /// A Montgomery-arithmetic implementation. The accelerated ones carry the CPU-feature token
    /// that proves they can run, so they can only be obtained through
    /// [`Implementation::available`]. Both portable ones are available everywhere, the one for
    /// the native word size first, so both are tested on every target.
    pub enum MontImpl {
        accelerated {
            /// 52-bit limbs with AVX-512 IFMA for the exponentiations modulo numbers of 7 to 32
            /// 64-bit limbs (RSA-2048 to RSA-4096 private keys) and public ones up to 64 limbs,
            /// MULX/ADCX/ADOX for the rest.
            X86Avx512Ifma(core_cpu::Avx512Ifma, core_cpu::Adx) => "x86_avx512_ifma",
            /// 64-bit limbs with MULX/ADCX/ADOX carry chains.
            X86Adx(core_cpu::Adx) => "x86_adx",
        }
        portable {
            /// 64-bit limbs with `u128` products. Its engine is built on 64-bit targets only:
            /// elsewhere it runs [`Portable15`](Self::Portable15)'s, which keeps a second copy
            /// of the generic code out of Cortex-M0 images.
            Portable64 => "portable64" for 64,
            /// `portable15` with its row loops in Thumb-1 assembly: the Cortex-M0 path (32-bit
            /// Arm with `asm` only, where it replaces `portable15`).
            Thumb1 => "thumb1" for 32 if thumb1,
            /// 15-bit digits with 32-bit products only, in Rust: `thumb1`'s twin.
            Portable15 => "portable15" for 32 if twin,
        }
    }
}

/// The digit type of the data kept for the 64-bit-limb engines (`portable64`, `x86_adx`,
/// `x86_avx512ifma`): `u64` on 64-bit targets. Elsewhere those engines are not built and the
/// variants of [`Dyn`] meant for them hold 15-bit digits that no code creates, so the generic
/// code is compiled once, for `portable15`.
#[cfg(target_pointer_width = "64")]
pub(crate) type W64 = u64;
/// See the 64-bit definition.
#[cfg(not(target_pointer_width = "64"))]
pub(crate) type W64 = u16;

/// The portable engine for [`W64`] digits, which the 64-bit-limb variants of [`Dyn`] fall
/// back to where their own engine does not exist.
#[cfg(target_pointer_width = "64")]
pub(crate) const PORTABLE_WIDE: Portable64 = Portable64;
/// See the 64-bit definition.
#[cfg(not(any(target_pointer_width = "64", all(target_arch = "arm", feature = "asm"))))]
pub(crate) const PORTABLE_WIDE: Portable15 = Portable15;
/// See the 64-bit definition.
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) const PORTABLE_WIDE: Thumb1 = Thumb1;

/// One way of doing Montgomery multiplication on digits of type `W`.
pub(crate) trait Engine: Copy {
    /// The digit type.
    type W: Word;
    /// Whether [`Engine::sqr`] uses its scratch space (if not, none is reserved, which saves
    /// a double-length buffer of stack on the Cortex-M0).
    const SQR_SCRATCH: bool = false;
    /// `r = a·b/R mod n` for `a < R`, `b < n`, all of `n.len()` digits; `r` must not alias.
    fn mul(self, r: &mut [Self::W], a: &[Self::W], b: &[Self::W], n: &[Self::W], n0: Self::W);
    /// `r = a²/R mod n` for `a < n`; `scratch` has at least `2·n.len()` digits.
    fn sqr(
        self,
        r: &mut [Self::W],
        a: &[Self::W],
        n: &[Self::W],
        n0: Self::W,
        scratch: &mut [Self::W],
    ) {
        let _ = scratch;
        self.mul(r, a, a, n, n0);
    }
    /// [`Engine::mul`], leaving `r` only below `2n` when `lazy` (no final subtraction), for
    /// `a, b < 2n` and `4n ≤ R`: the products inside an exponentiation, whose result is
    /// reduced once at the end. The default always reduces.
    fn mul_lazy(
        self,
        r: &mut [Self::W],
        a: &[Self::W],
        b: &[Self::W],
        n: &[Self::W],
        n0: Self::W,
        lazy: bool,
    ) {
        let _ = lazy;
        self.mul(r, a, b, n, n0);
    }
    /// [`Engine::sqr`] likewise.
    fn sqr_lazy(
        self,
        r: &mut [Self::W],
        a: &[Self::W],
        n: &[Self::W],
        n0: Self::W,
        scratch: &mut [Self::W],
        lazy: bool,
    ) {
        let _ = lazy;
        self.sqr(r, a, n, n0, scratch);
    }
    /// Runs the constant-time exponentiations `jobs` (one, or two whose moduli have one
    /// length) by this engine's own method and returns `true`, or returns `false` untouched
    /// when it has none for them, leaving them to [`Mont::pow_ct`]'s generic code.
    fn pow_ct_jobs(self, jobs: &mut [PowJob<'_, Self::W>]) -> bool {
        let _ = jobs;
        false
    }
    /// Runs the exponentiation `job` by a public exponent (its base may be secret) by this
    /// engine's own method and returns `true`, or returns `false` untouched when it has none
    /// for it, leaving it to [`Mont::pow_vartime`]'s generic code.
    fn pow_vartime_job(self, job: &mut PowJob<'_, Self::W>) -> bool {
        let _ = job;
        false
    }
    /// Runs [`Mont::pow_e_vartime`] (`out = x^exp` for `x < m` in normal form and a public
    /// `exp`, in Montgomery form with `mont_out`) by this engine's own method and returns
    /// `true`, or returns `false` untouched when it has none, leaving it to the generic code.
    /// Hosts only (bare metal has its own path).
    #[cfg(not(target_os = "none"))]
    fn pow_e_job(
        self,
        m: &Mont<Self::W>,
        out: &mut [Self::W],
        x: &[Self::W],
        exp: u64,
        mont_out: bool,
    ) -> bool {
        let _ = (m, out, x, exp, mont_out);
        false
    }
}

/// One constant-time exponentiation: `out = base^exp` in Montgomery form modulo `m`, for
/// `base` in Montgomery form and a secret `exp` of `bits` bits (public).
pub(crate) struct PowJob<'a, W: Word> {
    pub(crate) m: &'a Mont<W>,
    pub(crate) out: &'a mut [W],
    pub(crate) base: &'a [W],
    pub(crate) exp: &'a [W],
    pub(crate) bits: usize,
}

/// A value kept per implementation: the engine and the data in its digit type. Matching on it
/// with [`dispatch!`] runs generic code on the right engine, and a mismatch cannot be built.
#[derive(Clone)]
pub(crate) enum Dyn<T64, T15> {
    // Never built on 32-bit targets, where `portable64` requests get the 15-bit engine.
    #[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
    Portable64(T64),
    #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
    Portable15(T15),
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Thumb1(T15),
    X86Adx(core_cpu::Adx, T64),
    X86Avx512Ifma(core_cpu::Avx512Ifma, core_cpu::Adx, T64),
}

impl<T64, T15> Dyn<T64, T15> {
    /// The variant for 15-bit digits on this target: `Thumb1` on 32-bit Arm with `asm`,
    /// `Portable15` elsewhere (what `portable64` requests get on 32-bit targets).
    #[cfg(not(target_pointer_width = "64"))]
    pub(crate) fn narrow(c: T15) -> Self {
        #[cfg(not(all(target_arch = "arm", feature = "asm")))]
        return Self::Portable15(c);
        #[cfg(all(target_arch = "arm", feature = "asm"))]
        return Self::Thumb1(c);
    }

    /// The implementation this value is for.
    pub(crate) fn implementation(&self) -> MontImpl {
        match self {
            Self::Portable64(_) => MontImpl::Portable64,
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Portable15(_) => MontImpl::Portable15,
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            Self::Thumb1(_) => MontImpl::Thumb1,
            Self::X86Adx(t, _) => MontImpl::X86Adx(*t),
            Self::X86Avx512Ifma(i, a, _) => MontImpl::X86Avx512Ifma(*i, *a),
        }
    }
}

/// Runs `$body` with `$e` bound to the engine and `$c` to the data of a [`Dyn`] (or a tuple of
/// `Dyn`s built together; see the RSA keys).
macro_rules! dispatch {
    ($dyn:expr, |$e:ident, $c:pat_param| $body:expr) => {
        match $dyn {
            $crate::mont::Dyn::Portable64($c) => {
                let $e = $crate::mont::PORTABLE_WIDE;
                $body
            }
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            $crate::mont::Dyn::Portable15($c) => {
                let $e = $crate::mont::Portable15;
                $body
            }
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            $crate::mont::Dyn::Thumb1($c) => {
                let $e = $crate::mont::Thumb1;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::mont::Dyn::X86Adx(token, $c) => {
                let $e = $crate::mont::X86Adx(*token);
                $body
            }
            #[cfg(not(target_arch = "x86_64"))]
            $crate::mont::Dyn::X86Adx(_, $c) => {
                let $e = $crate::mont::PORTABLE_WIDE;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::mont::Dyn::X86Avx512Ifma(ifma, adx, $c) => {
                let $e = $crate::mont::X86Avx512Ifma(*ifma, *adx);
                $body
            }
            #[cfg(not(target_arch = "x86_64"))]
            $crate::mont::Dyn::X86Avx512Ifma(_, _, $c) => {
                let $e = $crate::mont::PORTABLE_WIDE;
                $body
            }
        }
    };
}
pub(crate) use dispatch;

/// Builds a [`Dyn`] for `imp` by running `$body` with `$e` bound to its engine.
macro_rules! build {
    ($imp:expr, |$e:ident| $body:expr) => {
        match $imp {
            #[cfg(target_pointer_width = "64")]
            $crate::mont::MontImpl::Portable64 => {
                let $e = $crate::mont::Portable64;
                $body.map($crate::mont::Dyn::Portable64)
            }
            #[cfg(not(target_pointer_width = "64"))]
            $crate::mont::MontImpl::Portable64 => {
                let $e = $crate::mont::PORTABLE_WIDE;
                $body.map($crate::mont::Dyn::narrow)
            }
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            $crate::mont::MontImpl::Portable15 => {
                let $e = $crate::mont::Portable15;
                $body.map($crate::mont::Dyn::Portable15)
            }
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            $crate::mont::MontImpl::Thumb1 => {
                let $e = $crate::mont::Thumb1;
                $body.map($crate::mont::Dyn::Thumb1)
            }
            #[cfg(target_arch = "x86_64")]
            $crate::mont::MontImpl::X86Adx(token) => {
                let $e = $crate::mont::X86Adx(token);
                $body.map(|c| $crate::mont::Dyn::X86Adx(token, c))
            }
            #[cfg(not(target_arch = "x86_64"))]
            $crate::mont::MontImpl::X86Adx(token) => {
                let $e = $crate::mont::PORTABLE_WIDE;
                $body.map(|c| $crate::mont::Dyn::X86Adx(token, c))
            }
            #[cfg(target_arch = "x86_64")]
            $crate::mont::MontImpl::X86Avx512Ifma(ifma, adx) => {
                let $e = $crate::mont::X86Avx512Ifma(ifma, adx);
                $body.map(|c| $crate::mont::Dyn::X86Avx512Ifma(ifma, adx, c))
            }
            #[cfg(not(target_arch = "x86_64"))]
            $crate::mont::MontImpl::X86Avx512Ifma(ifma, adx) => {
                let $e = $crate::mont::PORTABLE_WIDE;
                $body.map(|c| $crate::mont::Dyn::X86Avx512Ifma(ifma, adx, c))
            }
        }
    };
}

/// An odd modulus `n > 1` in Montgomery form: `n`, `R² mod n` (with `R = 2^(BITS·len)`) and
/// `-n^-1 mod 2^BITS`. Wiped on drop, since the primes of an RSA key are moduli too.
#[derive(Clone)]
pub(crate) struct Mont<W: Word> {
    n: W::Buf,
    rr: W::Buf,
    n0: W,
    len: usize,
    bits: usize,
}

impl<W: Word> Drop for Mont<W> {
    fn drop(&mut self) {
        self.n.zeroize();
        self.rr.zeroize();
        self.n0.zeroize();
    }
}

impl<W: Word> Mont<W> {
    /// The context for the odd `n > 1` given as big-endian `bytes` (leading zero bytes are
    /// ignored); computed in constant time for a given bit length, as primes are secret.
    pub(crate) fn new<E: Engine<W = W>>(e: E, bytes: &[u8]) -> Result<Self, Error> {
        Self::new_padded(e, bytes, 0)
    }

    /// The same with at least `min_len` digits, so the two primes of a key share `R`.
    pub(crate) fn new_padded<E: Engine<W = W>>(
        e: E,
        bytes: &[u8],
        min_len: usize,
    ) -> Result<Self, Error> {
        let mut m = Self::empty();
        m.init(e, bytes, min_len)?;
        Ok(m)
    }

    /// A placeholder to [`init`](Self::init) in place.
    pub(crate) fn empty() -> Self {
        Self { n: W::buf(), rr: W::buf(), n0: W::ZERO, len: 1, bits: 0 }
    }

    /// Sets this context to the modulus `bytes` with at least `min_len` digits, in place (no
    /// second copy of the digits: stack is scarce on the Cortex-M0).
    #[inline(never)]
    pub(crate) fn init<E: Engine<W = W>>(
        &mut self,
        e: E,
        bytes: &[u8],
        min_len: usize,
    ) -> Result<(), Error> {
        // The modulus may be a secret prime (a private key's p or q): its length and bit
        // length are public (the key size), and so is whether it is odd (the call fails on
        // it), but nothing else; all three are computed in constant time and declassified.
        let start = core_hash::declassify(leading_zero_bytes_ct(bytes));
        let bytes = &bytes[start..];
        let len = digits_for::<W>(bytes.len()).max(min_len);
        if bytes.is_empty() || len > W::CAP {
            return Err(Error::InvalidModulus);
        }
        self.len = len;
        if !load_be(&mut self.n.as_mut()[..len], bytes) {
            return Err(Error::InvalidModulus);
        }
        self.bits = core_hash::declassify(bits_ct(self.n()));
        if core_hash::declassify(self.n()[0].to_u64() & 1) == 0 || self.bits < 2 {
            return Err(Error::InvalidModulus);
        }
        self.n0 = W::neg_inv(self.n()[0]);
        self.compute_rr(e);
        Ok(())
    }

    /// `R² mod n`, by [`rr_by`](Self::rr_by) with the most squarings on hosts and none on
    /// bare metal, where the doublings alone (twice as many for an even digit count, the same
    /// for RSA-2048's 137 digits, whose `B` is odd) keep the squaring loop out of a public
    /// key's code: key set-up is not where the time goes there.
    #[inline(never)] // one stack frame per engine, not the largest of all
    fn compute_rr<E: Engine<W = W>>(&mut self, e: E) {
        let b = W::BITS as usize * self.len;
        let k = if cfg!(target_os = "none") { 0 } else { b.trailing_zeros() };
        self.rr_by(e, k);
    }

    /// `R² mod n`: `2^(B+s) mod n` by doubling from `2^(bits-1)`, which is the Montgomery form
    /// of `2^s`, then `k` Montgomery squarings to the form of `2^(s·2^k) = 2^B = R`, where
    /// `2^k` divides `B = BITS·len`.
    #[inline(always)]
    fn rr_by<E: Engine<W = W>>(&mut self, e: E, k: u32) {
        let l = self.len;
        let b = W::BITS as usize * l;
        let s = b >> k;
        let n = &self.n.as_ref()[..l];
        let x = &mut self.rr.as_mut()[..l];
        x.fill(W::ZERO);
        let top = self.bits - 1;
        x[top / W::BITS as usize] = W::from_u64(1 << (top % W::BITS as usize));
        for _ in 0..(b + s - top) {
            double_mod(x, n);
        }
        if k > 0 {
            // t is the one temporary.
            let mut t = W::buf();
            let (tl, n0) = (&mut t.as_mut()[..l], self.n0);
            with_scratch::<E, _>(|wide| {
                for _ in 0..k {
                    e.sqr(tl, x, n, n0, wide);
                    x.copy_from_slice(tl);
                }
            });
            t.zeroize();
        }
    }

    /// The modulus's digits.
    #[inline]
    pub(crate) fn n(&self) -> &[W] {
        &self.n.as_ref()[..self.len]
    }

    /// `R² mod n`.
    #[inline]
    pub(crate) fn rr(&self) -> &[W] {
        &self.rr.as_ref()[..self.len]
    }

    /// The digit count.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The bit length of `n` (public even for a prime: it is half the modulus's).
    #[inline]
    pub(crate) fn bits(&self) -> usize {
        self.bits
    }

    /// The byte length of `n`.
    #[inline]
    pub(crate) fn byte_len(&self) -> usize {
        self.bits.div_ceil(8)
    }

    /// `r = a·b/R mod n`.
    #[inline]
    pub(crate) fn mul<E: Engine<W = W>>(&self, e: E, r: &mut [W], a: &[W], b: &[W]) {
        e.mul(r, a, b, self.n(), self.n0);
    }

    /// `r = a·R mod n` for `a < R`: into Montgomery form.
    #[inline]
    pub(crate) fn enter_mont<E: Engine<W = W>>(&self, e: E, r: &mut [W], a: &[W]) {
        e.mul(r, a, self.rr(), self.n(), self.n0);
    }

    /// `r = a/R mod n`: out of Montgomery form.
    pub(crate) fn leave_mont<E: Engine<W = W>>(&self, e: E, r: &mut [W], a: &[W]) {
        let mut one = W::buf();
        one.as_mut()[0] = W::ONE;
        e.mul(r, a, &one.as_ref()[..self.len], self.n(), self.n0);
    }

    /// `out = base^exp` in Montgomery form, for `base` in Montgomery form and a secret `exp` of
    /// `exp_bits` bits (public); constant time: fixed windows, every table entry read.
    // Out of line: inlined twice into `pow_ct_pair`'s fallback loop, its window table would be
    // two tables in one frame (2.2 KB more stack for RSA-2048 on the Cortex-M0).
    #[inline(never)]
    pub(crate) fn pow_ct<E: Engine<W = W>>(
        &self,
        e: E,
        out: &mut [W],
        base: &[W],
        exp: &[W],
        exp_bits: usize,
    ) {
        let job = PowJob { m: self, out, base, exp, bits: exp_bits };
        let mut jobs = [job];
        if e.pow_ct_jobs(&mut jobs) {
            return;
        }
        let [PowJob { out, base, exp, bits, .. }] = jobs;
        let mut table = W::table();
        with_scratch::<E, _>(|wide| {
            self.pow_ct_with(e, out, base, exp, bits, wide, table.as_mut());
        });
    }

    /// Two constant-time exponentiations (the halves of an RSA-CRT private operation), at
    /// once when the engine can interleave them, else one after the other.
    pub(crate) fn pow_ct_pair<E: Engine<W = W>>(e: E, a: PowJob<'_, W>, b: PowJob<'_, W>) {
        let mut jobs = [a, b];
        if e.pow_ct_jobs(&mut jobs) {
            return;
        }
        for j in jobs {
            j.m.pow_ct(e, j.out, j.base, j.exp, j.bits);
        }
    }

    /// [`pow_ct`](Self::pow_ct) with a window table of only a double-length buffer (a narrower
    /// window): for the checks of a key at set-up, whose stack adds to the key's own on the
    /// Cortex-M0 while speed matters less.
    pub(crate) fn pow_ct_small<E: Engine<W = W>>(
        &self,
        e: E,
        out: &mut [W],
        base: &[W],
        exp: &[W],
        exp_bits: usize,
    ) {
        let mut table = W::wide();
        with_scratch::<E, _>(|wide| {
            self.pow_ct_with(e, out, base, exp, exp_bits, wide, table.as_mut());
        });
    }

    /// The exponentiation with the window `table` given (its length bounds the window); wipes
    /// the table.
    #[inline(never)] // one stack frame per engine, not the largest of all
    #[allow(clippy::too_many_arguments)]
    fn pow_ct_with<E: Engine<W = W>>(
        &self,
        e: E,
        out: &mut [W],
        base: &[W],
        exp: &[W],
        exp_bits: usize,
        wide: &mut [W],
        table: &mut [W],
    ) {
        let l = self.len;
        let (n, n0) = (self.n(), self.n0);
        // Products below 2n need 4n ≤ R: two spare bits in the digits (RSA-2048's primes have
        // eleven on 15-bit digits). Public: the bit length and digit count.
        let lazy = self.bits + 2 <= W::BITS as usize * l;
        let w = window(exp_bits, l, table.len());
        let count = 1usize << w;
        let w = w as usize;
        let mut t1 = W::buf();
        let mut t2 = W::buf();
        {
            let tab = &mut table[..count * l];
            // table[i] = base^i in Montgomery form; t1 holds the 1 for table[0] = R mod n.
            t1.as_mut()[0] = W::ONE;
            e.mul(&mut tab[..l], self.rr(), &t1.as_ref()[..l], n, n0);
            tab[l..2 * l].copy_from_slice(&base[..l]);
            for i in 2..count {
                let (prev, cur) = tab.split_at_mut(i * l);
                let cur = &mut cur[..l];
                if i % 2 == 0 {
                    e.sqr_lazy(cur, &prev[(i / 2) * l..(i / 2 + 1) * l], n, n0, wide, lazy);
                } else {
                    e.mul_lazy(cur, &prev[(i - 1) * l..i * l], &base[..l], n, n0, lazy);
                }
            }
        }
        let tab = &table[..count * l];
        let windows = exp_bits.div_ceil(w).max(1);
        let digit = |k: usize| -> usize {
            (0..w).fold(0usize, |acc, j| acc | ((bit(exp, k * w + j) as usize) << j))
        };
        let mut acc = &mut t1.as_mut()[..l];
        let mut tmp = &mut t2.as_mut()[..l];
        select(acc, tab, l, digit(windows - 1));
        for k in (0..windows - 1).rev() {
            for _ in 0..w {
                e.sqr_lazy(tmp, acc, n, n0, wide, lazy);
                core::mem::swap(&mut acc, &mut tmp);
            }
            select(tmp, tab, l, digit(k));
            let (a, b) = (&*acc, &*tmp);
            out[..l].copy_from_slice(a);
            e.mul_lazy(acc, &out[..l], b, n, n0, lazy);
        }
        // Below 2n (lazy) or n: below n either way after one conditional subtraction.
        reduce_once(acc, W::ZERO, n);
        out[..l].copy_from_slice(acc);
        for d in table.iter_mut() {
            d.zeroize();
        }
        t1.zeroize();
        t2.zeroize();
    }

    /// `out = base^exp` in Montgomery form for a PUBLIC `exp` of `exp_bits` bits, by plain
    /// square-and-multiply: variable time in the exponent only.
    #[inline(never)] // one stack frame per engine, not the largest of all
    pub(crate) fn pow_vartime<E: Engine<W = W>>(
        &self,
        e: E,
        out: &mut [W],
        base: &[W],
        exp: &[W],
        exp_bits: usize,
    ) {
        let job = &mut PowJob { m: self, out, base, exp, bits: exp_bits };
        if e.pow_vartime_job(job) {
            return;
        }
        let l = self.len;
        let (n, n0) = (self.n(), self.n0);
        let out = &mut out[..l];
        let top = (0..exp_bits).rev().find(|&i| bit(exp, i) == 1);
        let Some(top) = top else {
            // base^0 = 1 = R mod n.
            let mut one = W::buf();
            one.as_mut()[0] = W::ONE;
            e.mul(out, self.rr(), &one.as_ref()[..l], n, n0);
            return;
        };
        let mut t = W::buf();
        with_scratch::<E, _>(|wide| {
            // The accumulator alternates between `out` and `t`; `in_out` says where it is.
            let tmp = &mut t.as_mut()[..l];
            out.copy_from_slice(&base[..l]);
            let mut in_out = true;
            let mut step = |in_out: &mut bool, f: &mut dyn FnMut(&mut [W], &[W])| {
                if *in_out {
                    f(tmp, out);
                } else {
                    f(out, tmp);
                }
                *in_out = !*in_out;
            };
            for i in (0..top).rev() {
                step(&mut in_out, &mut |r, a| e.sqr(r, a, n, n0, wide));
                if bit(exp, i) == 1 {
                    step(&mut in_out, &mut |r, a| e.mul(r, a, &base[..l], n, n0));
                }
            }
            if !in_out {
                out.copy_from_slice(tmp);
            }
        });
        t.zeroize();
    }
}

impl<W: Word> Mont<W> {
    /// `out = x^exp` for `x < n` in normal form and an odd PUBLIC `exp > 1` (an RSA `e`): in
    /// Montgomery form with `mont_out`, else in normal form. Bare metal: by
    /// `pow_odd_vartime`, with squarings, which needs no conversion
    /// back; hosts: by the engine's [`Engine::pow_e_job`], else by
    /// [`pow_vartime`](Self::pow_vartime) (which the engines may run their own way) between
    /// conversions.
    #[cfg_attr(not(target_os = "none"), inline(never))] // hosts: one frame per engine
    pub(crate) fn pow_e_vartime<E: Engine<W = W>>(
        &self,
        e: E,
        out: &mut [W],
        x: &[W],
        exp: u64,
        mont_out: bool,
    ) {
        #[cfg(target_os = "none")]
        self.pow_odd_vartime::<E, true>(e, out, &x, exp, mont_out);
        #[cfg(not(target_os = "none"))]
        {
            if e.pow_e_job(self, out, x, exp, mont_out) {
                return;
            }
            let l = self.len;
            let mut d = [W::ZERO; 5]; // 64 bits take at most five digits
            load_be(&mut d, &exp.to_be_bytes());
            let (mut xm, mut y) = (W::buf(), W::buf());
            self.enter_mont(e, &mut xm.as_mut()[..l], &x[..l]);
            if mont_out {
                self.pow_vartime(e, out, &xm.as_ref()[..l], &d, 64);
            } else {
                self.pow_vartime(e, y.as_mut(), &xm.as_ref()[..l], &d, 64);
                self.leave_mont(e, out, &y.as_ref()[..l]);
            }
            xm.zeroize();
            y.zeroize();
        }
    }

    /// `out = x^exp mod n` for `x < n` in normal form and an odd PUBLIC `exp > 1`, by
    /// square-and-multiply, in normal form or (with `mont_out`) in Montgomery form. The
    /// squares are [`Engine::sqr`] if `SQR`, else products: the public operation on bare
    /// metal then links no squaring routine (its speed is ample there), while the private
    /// operation's `r^e` and check keep the faster squares. The last product takes `x` itself
    /// (or its Montgomery form, for `mont_out`), which leaves the result in the form wanted
    /// with no conversion back. `x` is a [`Base`]: digits the caller keeps, or its input
    /// bytes, read again for that last product (into the buffer of the Montgomery form, spent
    /// by then), so that the public operation keeps no fourth number on the Cortex-M0's stack.
    /// Variable time in `exp` only.
    #[cfg(any(test, target_os = "none"))]
    #[inline(never)] // one stack frame per engine, not the largest of all
    pub(crate) fn pow_odd_vartime<E: Engine<W = W>, const SQR: bool>(
        &self,
        e: E,
        out: &mut [W],
        x: &impl Base<W>,
        exp: u64,
        mont_out: bool,
    ) {
        // Bit `i` of `exp` by 32-bit shifts (no 64-bit shift routine on 32-bit targets).
        let (lo, hi) = (exp as u32, (exp >> 32) as u32);
        let bit = |i: u32| if i < 32 { lo >> i & 1 } else { hi >> (i - 32) & 1 };
        let l = self.len;
        let (n, n0) = (self.n(), self.n0);
        let out = &mut out[..l];
        let mut top = 63;
        while top > 0 && bit(top) == 0 {
            top -= 1;
        }
        let (mut xm_buf, mut t_buf) = (W::buf(), W::buf());
        let (xm, t) = (&mut xm_buf.as_mut()[..l], &mut t_buf.as_mut()[..l]);
        self.enter_mont(e, xm, x.digits(t));
        out.copy_from_slice(xm);
        with_scratch::<E, _>(|wide| {
            // out holds x^(exp >> i)·R mod n before each pass; bit 0 (set) is the last product.
            for i in (0..top).rev() {
                if SQR {
                    e.sqr(t, out, n, n0, wide);
                } else {
                    e.mul(t, out, out, n, n0);
                }
                let factor = if i == 0 && !mont_out {
                    Some(x.digits(xm)) // x itself, its Montgomery form spent
                } else if bit(i) == 1 {
                    Some(&*xm)
                } else {
                    None
                };
                match factor {
                    Some(f) => e.mul(out, t, f, n, n0),
                    None => out.copy_from_slice(t),
                }
            }
        });
        xm_buf.zeroize();
        t_buf.zeroize();
    }
}

/// The base of [`Mont::pow_odd_vartime`]: digits the caller keeps, or big-endian bytes
/// ([`BeBytes`]) converted into the scratch buffer given, each time the digits are wanted.
#[cfg(any(test, target_os = "none"))]
pub(crate) trait Base<W: Word> {
    /// The digits, as kept or written into `buf` (the modulus's digit count).
    fn digits<'a>(&'a self, buf: &'a mut [W]) -> &'a [W];
}

#[cfg(any(test, target_os = "none"))]
impl<W: Word> Base<W> for &[W] {
    fn digits<'a>(&'a self, _: &'a mut [W]) -> &'a [W] {
        self
    }
}

/// A [`Base`] given as big-endian bytes that fit the modulus's digits.
#[cfg(any(test, target_os = "none"))]
pub(crate) struct BeBytes<'a>(pub(crate) &'a [u8]);

#[cfg(any(test, target_os = "none"))]
impl<W: Word> Base<W> for BeBytes<'_> {
    #[inline(always)]
    fn digits<'a>(&'a self, buf: &'a mut [W]) -> &'a [W] {
        load_be(buf, self.0);
        buf
    }
}

/// Runs `f` with the scratch space `E::sqr` needs: a double-length buffer, or nothing.
fn with_scratch<E: Engine, R>(f: impl FnOnce(&mut [E::W]) -> R) -> R {
    if E::SQR_SCRATCH {
        let mut w = E::W::wide();
        let r = f(w.as_mut());
        w.zeroize();
        r
    } else {
        f(&mut [])
    }
}

/// The window width minimising the work of an exponentiation, counted in multiplications:
/// `⌈bits/w⌉` of them, each after a table scan of `2^w·len` digits (about `2^w/(2·len)`
/// multiplications' worth), plus `2^w` to fill the table; among the widths whose table fits
/// in `cap` digits. Public inputs only; out of line so the Cortex-M0 constant-time scan of
/// [`Mont::pow_ct_with`] sees only the exponentiation's own branches.
#[inline(never)]
fn window(exp_bits: usize, len: usize, cap: usize) -> u32 {
    let mut best = 1;
    let mut cost = usize::MAX;
    for w in 1..=7u32 {
        let entries = 1usize << w;
        if entries * len > cap {
            break;
        }
        // In units of 1/(2·len) multiplications, to stay in integers.
        let per_window = 2 * len + entries;
        let c = exp_bits.div_ceil(w as usize) * per_window + entries * 2 * len;
        if c < cost {
            cost = c;
            best = w;
        }
    }
    best
}

/// `dst = table[idx]` for a secret `idx`, reading every entry of `len` digits.
fn select<W: Word>(dst: &mut [W], table: &[W], len: usize, idx: usize) {
    dst.fill(W::ZERO);
    for (k, entry) in table.chunks_exact(len).enumerate() {
        let m = W::mask((k as u32).ct_eq(&(idx as u32)));
        for (d, &t) in dst.iter_mut().zip(entry) {
            *d = *d | (t & m);
        }
    }
}

/// An odd modulus of up to [`MAX_BITS`](crate::MAX_BITS) bits prepared for modular
/// exponentiation, on one [`MontImpl`]: the public `modexp` API for protocols other than RSA.
///
/// ```
/// use core_rsa::Modulus;
///
/// let m = Modulus::new(&[0x0b, 0xb9])?; // 3001
/// let mut out = [0u8; 2];
/// m.pow(&[0x07], &[0x03, 0xe8], &mut out)?; // 7^1000 mod 3001, constant time
/// let mut check = [0u8; 2];
/// m.pow_vartime(&[0x07], &[0x03, 0xe8], &mut check)?; // the same, exponent public
/// assert_eq!(out, check);
/// # Ok::<(), core_rsa::Error>(())
/// ```
#[derive(Clone)]
pub struct Modulus {
    inner: Dyn<Mont<W64>, Mont<u16>>,
}

impl core::fmt::Debug for Modulus {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Modulus")
            .field("implementation", &self.implementation())
            .field("bits", &self.bits())
            .finish_non_exhaustive()
    }
}

impl Modulus {
    /// The odd modulus `n > 1` given big-endian, on the best implementation for this CPU.
    pub fn new(n: &[u8]) -> Result<Self, Error> {
        Self::with_impl(n, MontImpl::preferred())
    }

    /// The same on a chosen implementation.
    #[inline(never)]
    pub fn with_impl(n: &[u8], imp: MontImpl) -> Result<Self, Error> {
        Ok(Self { inner: build!(imp, |e| Mont::new(e, n))? })
    }

    /// The implementation this modulus computes on.
    pub fn implementation(&self) -> MontImpl {
        self.inner.implementation()
    }

    /// The modulus's bit length.
    pub fn bits(&self) -> usize {
        dispatch!(&self.inner, |_e, m| m.bits())
    }

    /// The modulus's byte length: the length of every result.
    pub fn byte_len(&self) -> usize {
        dispatch!(&self.inner, |_e, m| m.byte_len())
    }

    /// `out = base^exp mod n`, constant time in `base` and `exp` for their given lengths.
    /// `base` (big-endian, any value) is at most [`byte_len`](Self::byte_len) bytes long;
    /// `exp` at most `MAX_BITS / 8`; `out` is exactly `byte_len` bytes.
    pub fn pow(&self, base: &[u8], exp: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.pow_inner(base, exp, out, true)
    }

    /// `out = base^exp mod n` for a PUBLIC exponent (an RSA `e`, a group order): faster,
    /// variable time in `exp` (still constant time in `base`).
    pub fn pow_vartime(&self, base: &[u8], exp: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.pow_inner(base, exp, out, false)
    }

    // Into both callers: each is then one dispatch to `pow_bytes`, not a call to a third.
    #[inline(always)]
    fn pow_inner(&self, base: &[u8], exp: &[u8], out: &mut [u8], ct: bool) -> Result<(), Error> {
        dispatch!(&self.inner, |e, m| pow_bytes(e, m, base, exp, out, ct))
    }
}

#[inline(never)] // one stack frame per engine, not the largest of all
fn pow_bytes<E: Engine>(
    e: E,
    m: &Mont<E::W>,
    base: &[u8],
    exp: &[u8],
    out: &mut [u8],
    ct: bool,
) -> Result<(), Error> {
    let l = m.len();
    if out.len() != m.byte_len() {
        return Err(Error::InvalidLength);
    }
    if base.len() > m.byte_len() || exp.len() > crate::MAX_BITS / 8 {
        return Err(Error::InvalidLength);
    }
    let mut b = E::W::buf();
    let mut x = E::W::buf();
    let mut ex = E::W::buf();
    // Both fit: base has at most byte_len bytes, and l digits hold byte_len bytes.
    let ok = load_be(&mut b.as_mut()[..l], base) && load_be(ex.as_mut(), exp);
    if ok {
        m.enter_mont(e, &mut x.as_mut()[..l], &b.as_ref()[..l]);
        let bits = exp.len() * 8;
        if ct {
            m.pow_ct(e, b.as_mut(), &x.as_ref()[..l], ex.as_ref(), bits);
        } else {
            m.pow_vartime(e, b.as_mut(), &x.as_ref()[..l], ex.as_ref(), bits);
        }
        m.leave_mont(e, &mut x.as_mut()[..l], &b.as_ref()[..l]);
        store_be(&x.as_ref()[..l], out);
    }
    b.zeroize();
    x.zeroize();
    ex.zeroize();
    if ok { Ok(()) } else { Err(Error::InvalidLength) }
}

/// `base^exp mod modulus` for big-endian numbers, in constant time in `base` and `exp` (for
/// their lengths), on the best implementation: a shorthand for [`Modulus::new`] and
/// [`Modulus::pow`]. `out` is as long as `modulus` without its leading zero bytes. For many
/// exponentiations modulo one number, build the [`Modulus`] once.
///
/// ```
/// // 4^13 mod 497 = 445 (Schneier's example), as big-endian bytes.
/// let mut out = [0u8; 2];
/// core_rsa::modexp(&[4], &[13], &[0x01, 0xf1], &mut out)?;
/// assert_eq!(out, [0x01, 0xbd]);
/// // An even modulus is refused.
/// assert_eq!(core_rsa::modexp(&[4], &[13], &[0x01, 0xf0], &mut out), Err(core_rsa::Error::InvalidModulus));
/// # Ok::<(), core_rsa::Error>(())
/// ```
pub fn modexp(base: &[u8], exp: &[u8], modulus: &[u8], out: &mut [u8]) -> Result<(), Error> {
    Modulus::new(modulus)?.pow(base, exp, out)
}

/// [`modexp`] for a PUBLIC exponent: variable time in `exp` (constant time in `base`).
///
/// ```
/// // An RSA public operation with a toy key: n = 3233 = 61·53, e = 17; 65^17 mod n = 2790.
/// let mut out = [0u8; 2];
/// core_rsa::modexp_vartime(&[65], &[17], &3233u16.to_be_bytes(), &mut out)?;
/// assert_eq!(u16::from_be_bytes(out), 2790);
/// # Ok::<(), core_rsa::Error>(())
/// ```
pub fn modexp_vartime(
    base: &[u8],
    exp: &[u8],
    modulus: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    Modulus::new(modulus)?.pow_vartime(base, exp, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `R² mod n` by doublings alone (bare metal) equals the hosts' doublings and squarings,
    /// for odd and even digit counts.
    #[test]
    fn rr_by_doublings_matches_squarings() {
        fn check<E: Engine>(e: E, n: &[u8]) {
            let mut m = Mont::new(e, n).unwrap();
            let b = E::W::BITS as usize * m.len();
            let want: std::vec::Vec<E::W> = m.rr().to_vec();
            for k in 0..=b.trailing_zeros() {
                m.rr_by(e, k);
                assert_eq!(m.rr(), &want[..], "k = {k}, {} digits", m.len());
            }
        }
        let mut n = [0u8; 64];
        for (i, b) in n.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(73).wrapping_add(0x31);
        }
        n[0] |= 0x80;
        for len in 1..=64 {
            let mut v = n[..len].to_vec();
            v[len - 1] |= 1;
            if len == 1 {
                v[0] |= 2;
            }
            check(Portable15, &v);
            #[cfg(target_pointer_width = "64")]
            check(Portable64, &v);
        }
    }

    /// The bare-metal exponentiations by a public odd exponent (products only or with
    /// squarings; normal or Montgomery form out) agree with the hosts' (`pow_vartime` between
    /// conversions, as `pow_e_vartime` does there), on both portable engines.
    #[test]
    fn pow_odd_vartime_matches_pow_vartime() {
        fn check<E: Engine>(e: E, n: &[u8], x: &[u8], exp: u64) {
            let m = Mont::new(e, n).unwrap();
            let l = m.len();
            let (mut xd, mut ed) = (E::W::buf(), E::W::buf());
            assert!(load_be(&mut xd.as_mut()[..l], x));
            assert!(load_be(ed.as_mut(), &exp.to_be_bytes()));
            let (mut b, mut c, mut want) = (E::W::buf(), E::W::buf(), E::W::buf());
            m.enter_mont(e, &mut b.as_mut()[..l], &xd.as_ref()[..l]);
            m.pow_vartime(e, c.as_mut(), &b.as_ref()[..l], ed.as_ref(), 64); // x^exp·R
            m.leave_mont(e, &mut want.as_mut()[..l], &c.as_ref()[..l]);
            for mont_out in [false, true] {
                let want = if mont_out { &c.as_ref()[..l] } else { &want.as_ref()[..l] };
                let mut a = E::W::buf();
                let xs = &xd.as_ref()[..l];
                m.pow_odd_vartime::<E, false>(e, a.as_mut(), &xs, exp, mont_out);
                assert_eq!(&a.as_ref()[..l], want, "exp {exp}, n {n:02x?}, x {x:02x?}");
                let mut a = E::W::buf();
                m.pow_odd_vartime::<E, false>(e, a.as_mut(), &BeBytes(x), exp, mont_out);
                assert_eq!(&a.as_ref()[..l], want, "exp {exp}, n {n:02x?}, x {x:02x?}, bytes");
                let mut a = E::W::buf();
                m.pow_odd_vartime::<E, true>(e, a.as_mut(), &xs, exp, mont_out);
                assert_eq!(&a.as_ref()[..l], want, "exp {exp}, n {n:02x?}, x {x:02x?}, sqr");
                let mut a = E::W::buf();
                m.pow_e_vartime(e, a.as_mut(), &xd.as_ref()[..l], exp, mont_out);
                assert_eq!(&a.as_ref()[..l], want, "exp {exp}, n {n:02x?}, x {x:02x?}");
            }
        }
        let (mut n, mut x) = ([0u8; 256], [0u8; 256]);
        let mut s = 0x1234_5678_9abc_def1u64;
        for (nb, xb) in n.iter_mut().zip(x.iter_mut()) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            *nb = s as u8;
            *xb = (s >> 8) as u8;
        }
        for len in [1usize, 2, 8, 33, 128, 256] {
            let (n, x) = (&mut n[..len], &mut x[..len]);
            // n odd with its top bit set; x < n with its top bit clear.
            n[0] |= 0x80;
            n[len - 1] |= 1;
            x[0] &= 0x7f;
            for exp in [3u64, 5, 17, 65537, 0x8000_0000_0000_0001, u64::MAX] {
                check(Portable15, n, x, exp);
                #[cfg(target_pointer_width = "64")]
                check(Portable64, n, x, exp);
            }
        }
    }
}
