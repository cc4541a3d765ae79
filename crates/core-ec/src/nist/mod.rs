//! Arithmetic for the NIST prime curves P-256, P-384 and P-521, shared by the three public
//! modules: field and scalar arithmetic in Montgomery form behind the [`Field`] trait (two
//! generic widths, `mont64` and `mont15`, plus two P-256-only fields that use the shape of its
//! prime, `p256_mont64` in portable Rust, `p256_x86_adx` on MULX/ADCX/ADOX and `p256_thumb1`
//! in Thumb-1 assembly for the Cortex-M0, and P-384's
//! field and scalars on MULX/ADCX/ADOX, `p384_x86_adx`; one file each),
//! points and scalar multiplication ([`point`]), ECDH and ECDSA on byte strings ([`ops`]), the
//! DER codecs ([`der`]) and the macro that stamps out each curve's public types ([`api`]).

pub(crate) mod api;
pub(crate) mod der;
mod mont15;
#[cfg(target_pointer_width = "64")]
mod mont64;
pub(crate) mod ops;
#[cfg(target_pointer_width = "64")]
pub(crate) mod p256_mont64;
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) mod p256_thumb1;
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
pub(crate) mod p256_x86_adx;
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
pub(crate) mod p384_x86_adx;
pub(crate) mod point;
#[cfg(target_pointer_width = "64")]
pub(crate) mod safegcd;
pub(crate) mod tables;
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
pub(crate) mod x86_adx;

pub(crate) use mont15::{Fixed15, Modulus15, Mont15};
#[cfg(target_pointer_width = "64")]
pub(crate) use mont64::{Fixed64, Modulus64, Mont64};

use core_hash::Registered;
use subtle::{Choice, ConstantTimeEq};

/// The longest field element or scalar, in bytes (P-521).
pub(crate) const MAX_LEN: usize = 66;

/// Arithmetic modulo one odd prime (a curve's field prime or its group order) in some
/// representation: elements are kept reduced and in Montgomery form, and every operation is
/// constant-time unless its name says otherwise.
pub(crate) trait Field: Sync {
    /// An element.
    type E: Copy + zeroize::Zeroize + 'static;

    /// The modulus, big-endian, in the curve's byte length.
    fn modulus(&self) -> &'static [u8];
    /// Zero.
    fn zero(&self) -> Self::E;
    /// One.
    fn one(&self) -> Self::E;
    /// `a + b`.
    fn add(&self, a: &Self::E, b: &Self::E) -> Self::E;
    /// `a − b`.
    fn sub(&self, a: &Self::E, b: &Self::E) -> Self::E;
    /// `a · b`.
    fn mul(&self, a: &Self::E, b: &Self::E) -> Self::E;
    /// `b` if `choice` is set, else `a`, without branching.
    fn select(a: &Self::E, b: &Self::E, choice: Choice) -> Self::E;
    /// Whether `a` is zero.
    fn is_zero(a: &Self::E) -> Choice;
    /// The element with big-endian value `bytes` (at most the modulus's length) and whether
    /// that value was below the modulus; zero when it was not.
    fn import_be(&self, bytes: &[u8]) -> (Self::E, Choice);
    /// Whether the big-endian `bytes` (at most the modulus's length) are below the modulus:
    /// [`Field::import_be`]'s flag, without the conversion where a representation can skip it.
    fn below_modulus(&self, bytes: &[u8]) -> Choice {
        self.import_be(bytes).1
    }
    /// The element with big-endian value `bytes` reduced by at most one subtraction: for
    /// values below twice the modulus (an x-coordinate taken mod n, a truncated hash).
    fn import_be_reduce(&self, bytes: &[u8]) -> Self::E;
    /// The canonical big-endian value of `a`, right-aligned in `out`.
    fn to_be(&self, a: &Self::E, out: &mut [u8]);

    /// The curve's comb table in this representation, `[x, y]` per entry, when the
    /// representation has one built in (empty: convert from [`Field::comb_bytes`]).
    fn comb(&self) -> &'static [[Self::E; 2]] {
        &[]
    }

    /// The comb table as bytes, for a representation without one built in: `comb_rows` rows
    /// of 8 affine points `x‖y`, row `i` holding `j·16^(s·i)·G` for `j = 1..=8` and `s =`
    /// [`point::COMB_SPACING`] (see `Curve::mul_base`). Kept with the field rather than with
    /// the curve's parameters, so that code which never multiplies the base point (ECDH)
    /// does not link it.
    fn comb_bytes(&self) -> &'static [u8] {
        &[]
    }

    /// `G, 3G, …, 127G` affine (`[x, y]`), when the representation has them built in, for
    /// verification's width-8 NAF of `u₁`; or just `G, 3G, 5G, 7G` for a width-4 NAF without
    /// linking the comb table (empty: width 4 over the comb's first row).
    fn odd_g(&self) -> &'static [[Self::E; 2]] {
        &[]
    }

    /// Whether [`point::Curve`]'s variable-base multiplication makes its window table affine
    /// (one inversion and about seven products per entry) to add with mixed additions (four
    /// products and a squaring fewer each): worth it where an inversion is cheap next to the
    /// additions saved (P-384 on `x86_adx`: ECDH about +2%; P-256 there lost 2% on AMD Zen 5 and
    /// gains about 1% on the Intel core measured since, where its full addition is 470 TSC
    /// ticks against 320 for the mixed one).
    const AFFINE_WINDOW_TABLE: bool = false;

    /// Whether signature verification (`point::Curve::mul2_vartime`) makes the public key's
    /// odd multiples affine (one variable-time inversion and about seven products for its
    /// eight points) to add them with mixed additions (four products and a squaring fewer
    /// each, about 43 per P-256 verification): worth it where [`Field::invert_vartime`] is
    /// fast.
    const AFFINE_VERIFY_TABLE: bool = false;

    /// Doubles the Jacobian point `p = (X : Y : Z)` on an `a = −3` curve in place and returns
    /// `true`, for a field that runs the whole doubling as one routine (its result must equal
    /// the generic formula's, [`point::Curve`]'s `jac_double`, identity included); `false`,
    /// `p` untouched: the generic formula runs. In place, so a routine can read and write the
    /// limbs where they are rather than through copies.
    #[inline]
    fn jac_double(&self, _p: &mut [Self::E; 3]) -> bool {
        false
    }

    /// `p + q` in Jacobian coordinates and whether `p = q`, for a field that runs the whole
    /// addition as one routine (the same result and flag as [`point::Curve`]'s `jac_add`);
    /// `None`: the generic formula runs.
    #[inline]
    fn jac_add(&self, _p: &[Self::E; 3], _q: &[Self::E; 3]) -> Option<([Self::E; 3], Choice)> {
        None
    }

    /// `p + (x2, y2)` for an affine second point and whether they are equal, for a field that
    /// runs the whole mixed addition as one routine (as [`point::Curve`]'s `jac_add_affine`);
    /// `None`: the generic formula runs.
    #[inline]
    fn jac_add_affine(
        &self,
        _p: &[Self::E; 3],
        _x2: &Self::E,
        _y2: &Self::E,
    ) -> Option<([Self::E; 3], Choice)> {
        None
    }

    /// One step of the full-comb loop (`Curve::mul_base_full`) for a field that runs it as
    /// its own routine: `acc + d·T` for the row `T` (affine entries `j·T` for `j` up to
    /// `row.len()`) and a digit `d` no larger in magnitude, or `d·T` where `acc` is the
    /// identity, or `acc` for `d = 0`, with no doubling check (the caller's rows cannot hit
    /// `acc = d·T`), in constant time; `false`, `acc` untouched: the generic steps run.
    #[inline]
    fn comb_add(&self, _acc: &mut [Self::E; 3], _row: &[[Self::E; 2]], _digit: i8) -> bool {
        false
    }

    /// Entry `abs` (1 to `row.len()`; anything else gives zeros) of a comb-table row, reading
    /// every entry: the signing loop's table scan, which a field may do on plain masks.
    #[inline]
    fn select_entry(&self, row: &[[Self::E; 2]], abs: u8) -> [Self::E; 2] {
        let mut x = self.zero();
        let mut y = self.zero();
        for (j, e) in row.iter().enumerate() {
            let hit = (j as u8 + 1).ct_eq(&abs);
            x = Self::select(&x, &e[0], hit);
            y = Self::select(&y, &e[1], hit);
        }
        [x, y]
    }

    /// Entry `abs` (1 to `table.len()`; anything else gives zeros) of a variable-base window
    /// table of Jacobian points, reading every entry, as [`Self::select_entry`].
    #[inline]
    fn select_point(&self, table: &[[Self::E; 3]], abs: u8) -> [Self::E; 3] {
        let mut pick = [self.zero(), self.zero(), self.zero()];
        for (j, entry) in table.iter().enumerate() {
            let hit = (j as u8 + 1).ct_eq(&abs);
            for (c, e) in pick.iter_mut().zip(entry) {
                *c = Self::select(c, e, hit);
            }
        }
        pick
    }

    /// `a²`.
    #[inline]
    fn sqr(&self, a: &Self::E) -> Self::E {
        self.mul(a, a)
    }

    /// `a/2`: what the point doubling uses instead of three additions. This default
    /// multiplies by `2⁻¹` (an inversion per call): every field the point formulas run on
    /// overrides it with the add-`m`-if-odd-and-shift of [`Mont64::halve`].
    fn halve(&self, a: &Self::E) -> Self::E {
        let two = self.add(&self.one(), &self.one());
        self.mul(a, &self.invert(&two))
    }

    /// `−a`.
    #[inline]
    fn neg(&self, a: &Self::E) -> Self::E {
        self.sub(&self.zero(), a)
    }

    /// Whether `a = b`.
    #[inline]
    fn eq(&self, a: &Self::E, b: &Self::E) -> Choice {
        Self::is_zero(&self.sub(a, b))
    }

    /// `a^e` for a public exponent `e` (big-endian), by left-to-right sliding windows of up
    /// to 5 bits over the odd powers `a, a³, …, a³¹` (about one product per six bits of `e`
    /// against one per four for fixed windows): the sequence of operations depends only on
    /// `e`, so `a` may be secret.
    fn pow_public(&self, a: &Self::E, e: &[u8]) -> Self::E {
        let mut table = [*a; 16];
        let a2 = self.sqr(a);
        for i in 1..16 {
            table[i] = self.mul(&table[i - 1], &a2);
        }
        // Bit `i` of `e`, counted from the least significant.
        let bit = |i: usize| (e[e.len() - 1 - i / 8] >> (i % 8)) & 1;
        let mut acc = self.one();
        let mut started = false;
        // Bits `i − 1` down to 0 are still to do.
        let mut i = 8 * e.len();
        while i > 0 {
            if bit(i - 1) == 0 {
                if started {
                    acc = self.sqr(&acc);
                }
                i -= 1;
                continue;
            }
            // The window: bits i − 1 down to j, at most five, ending on a set bit.
            let mut j = i.saturating_sub(5);
            while bit(j) == 0 {
                j += 1;
            }
            let value = (j..i).rev().fold(0usize, |v, k| (v << 1) | usize::from(bit(k)));
            // The exponent is public, so indexing by its digits is safe.
            if started {
                for _ in j..i {
                    acc = self.sqr(&acc);
                }
                acc = self.mul(&acc, &table[value >> 1]);
            } else {
                acc = table[value >> 1];
                started = true;
            }
            i = j;
        }
        table.iter_mut().for_each(zeroize::Zeroize::zeroize);
        acc
    }

    /// `a⁻¹` by Fermat's little theorem (`a^(m−2)`); zero for zero.
    fn invert(&self, a: &Self::E) -> Self::E {
        let m = self.modulus();
        let mut e = [0u8; MAX_LEN];
        let e = &mut e[..m.len()];
        e.copy_from_slice(m);
        // m − 2: m is odd and above 2, so the borrow stops within the last two bytes.
        let mut borrow = 2u16;
        for b in e.iter_mut().rev() {
            let v = u16::from(*b).wrapping_sub(borrow);
            *b = v as u8;
            borrow = (v >> 15) & 1;
        }
        self.pow_public(a, e)
    }

    /// `a⁻¹` for a public `a` (verification's `s`), in variable time where that is faster;
    /// zero for zero.
    fn invert_vartime(&self, a: &Self::E) -> Self::E {
        self.invert(a)
    }

    /// A square root of `a` and whether `a` has one, for a modulus `≡ 3 (mod 4)`:
    /// `a^((m+1)/4)`, checked by squaring.
    fn sqrt(&self, a: &Self::E) -> (Self::E, Choice) {
        let m = self.modulus();
        let mut e = [0u8; MAX_LEN];
        let e = &mut e[..m.len()];
        // (m + 1) / 4 = (m >> 2) + 1, as m ≡ 3 (mod 4).
        let mut carry_in = 0u8;
        for (o, &b) in e.iter_mut().zip(m) {
            *o = (carry_in << 6) | (b >> 2);
            carry_in = b & 3;
        }
        let mut carry = 1u16;
        for b in e.iter_mut().rev() {
            let v = u16::from(*b) + carry;
            *b = v as u8;
            carry = v >> 8;
        }
        let r = self.pow_public(a, e);
        let ok = self.eq(&self.sqr(&r), a);
        (r, ok)
    }
}

core_cpu::implementation_enum! {
    /// An implementation of the NIST-curve arithmetic (the same for P-256, P-384 and P-521).
    pub enum P521Impl {
        accelerated {}
        portable {
            /// Montgomery arithmetic in 64-bit limbs with `u128` products: the 64-bit
            /// default. Not offered on 32-bit targets, where every `u128` product would be a
            /// library call.
            Mont64 => "mont64" for 64 if target_pointer_width = "64",
            /// Montgomery arithmetic in 15-bit limbs with 32-bit products only: the default
            /// on 32-bit targets, and the one for the Cortex-M0.
            Mont15 => "mont15" for 32,
        }
    }
}

core_cpu::implementation_enum! {
    /// An implementation of the P-256 arithmetic: the two NIST-curve ones of
    /// [`p521::P521Impl`](crate::p521::P521Impl) plus field implementations specialised to
    /// P-256's prime, chosen when a key is built. Accelerated variants carry the CPU-feature
    /// token that proves they can run. On 32-bit Arm with the `asm` feature `p256_thumb1`
    /// comes first, and `preferred()` (what the constructors use) is that constant there,
    /// so the Cortex-M0 image links it alone; `mont15`, its Rust twin, stays reachable by
    /// name for the firmware's cross-checks.
    ///
    /// ```
    /// use core_ec::Implementation;
    /// use core_ec::p256::{P256Impl, SecretKey};
    ///
    /// let key = SecretKey::from_bytes(&[7; 32])?;
    /// for imp in P256Impl::available() {
    ///     let on = SecretKey::from_bytes_with_impl(&key.to_bytes(), imp)?;
    ///     let (a, b) = (on.public_key().to_sec1_bytes(), key.public_key().to_sec1_bytes());
    ///     assert_eq!(a, b, "{}", imp.name());
    /// }
    /// # Ok::<(), core_ec::Error>(())
    /// ```
    pub enum P256Impl {
        accelerated {
            /// P-256's field on MULX/ADCX/ADOX (`x86_64` with BMI2 and ADX): the specialised
            /// reduction of `p256_mont64`, the products and squares in `asm!`.
            X86Adx(core_cpu::Adx) => "x86_adx" if all(target_arch = "x86_64", feature = "asm"),
        }
        portable {
            /// P-256's field in 64-bit limbs with a reduction specialised to the prime's shape
            /// (shifts and one product per step), safegcd inversion; portable Rust, 64-bit
            /// targets.
            P256Mont64 => "p256_mont64" for 64 if target_pointer_width = "64",
            /// The generic 64-bit Montgomery arithmetic (as for P-384 and P-521).
            Mont64 => "mont64" for 64 if target_pointer_width = "64",
            /// P-256's field on eight 32-bit words with the product and a reduction
            /// specialised to the prime in Thumb-1 assembly: the default on 32-bit Arm with
            /// the `asm` feature (Cortex-M0).
            P256Thumb1 => "p256_thumb1" for 32 if thumb1,
            /// The generic 15-bit Montgomery arithmetic: the default on other 32-bit targets.
            /// `p256_thumb1`'s twin: a key stores its choice, and a stored choice of two is
            /// opaque to the compiler, so both fields would be linked (measured: the P-256
            /// ECDH image 8 628 → 14 664 B of flash).
            Mont15 => "mont15" for 32 if twin,
        }
    }
}

core_cpu::implementation_enum! {
    /// An implementation of the P-384 arithmetic: the two NIST-curve ones of
    /// [`p521::P521Impl`](crate::p521::P521Impl) plus the field and scalars on
    /// MULX/ADCX/ADOX, chosen when a key is built. The accelerated variant carries the
    /// CPU-feature token that proves it can run.
    ///
    /// ```
    /// use core_ec::Implementation;
    /// use core_ec::p384::{P384Impl, SecretKey};
    ///
    /// let key = SecretKey::from_bytes(&[7; 48])?;
    /// for imp in P384Impl::available() {
    ///     let on = SecretKey::from_bytes_with_impl(&key.to_bytes(), imp)?;
    ///     let (a, b) = (on.public_key().to_sec1_bytes(), key.public_key().to_sec1_bytes());
    ///     assert_eq!(a, b, "{}", imp.name());
    /// }
    /// # Ok::<(), core_ec::Error>(())
    /// ```
    pub enum P384Impl {
        accelerated {
            /// P-384's field and scalars on MULX/ADCX/ADOX (`x86_64` with BMI2 and ADX):
            /// Montgomery products in `asm!`, safegcd inversions.
            X86Adx(core_cpu::Adx) => "x86_adx" if all(target_arch = "x86_64", feature = "asm"),
        }
        portable {
            /// The generic 64-bit Montgomery arithmetic (as for P-521).
            Mont64 => "mont64" for 64 if target_pointer_width = "64",
            /// The generic 15-bit Montgomery arithmetic: the default on 32-bit targets
            /// (Cortex-M0).
            Mont15 => "mont15" for 32,
        }
    }
}

/// This module's rows of the crate registry.
pub(crate) fn implementations() -> impl Iterator<Item = Registered> {
    core_hash::registered::<P256Impl>("p256")
        .chain(core_hash::registered::<P384Impl>("p384"))
        .chain(core_hash::registered::<P521Impl>("p521"))
}

/// The bytes of a hex string (whitespace not allowed), at compile time: for the curve
/// constants and the comb tables.
pub(crate) const fn hex<const L: usize>(s: &str) -> [u8; L] {
    const fn digit(c: u8) -> u8 {
        match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => panic!("not a hex digit"),
        }
    }
    let s = s.as_bytes();
    assert!(s.len() == 2 * L, "hex string has the wrong length");
    let mut out = [0u8; L];
    let mut i = 0;
    while i < L {
        out[i] = (digit(s[2 * i]) << 4) | digit(s[2 * i + 1]);
        i += 1;
    }
    out
}
