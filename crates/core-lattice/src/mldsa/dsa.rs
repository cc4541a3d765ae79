//! ML-DSA's internal algorithms (FIPS 204 §6: KeyGen_internal, Sign_internal,
//! Verify_internal) and the message representative μ (§5.2), over any backend, written for a
//! small stack: the matrix Â is never held; each entry is sampled when its product is needed.
//! Keys and signatures stay encoded; each polynomial is decoded when it is used.

use super::poly::{
    Challenge, D, Gamma2, N, Poly, centered, exceeds, freeze, pack, pack_signed, power2round,
    sample_bounded, sample_in_ball, sample_in_ball_secret, sample_uniform, sample_uniform_each,
    unpack, unpack_signed,
};
use super::portable;
use super::{MlDsaImpl, PreHash};
use crate::Error;
use core_hash::Shake256;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

/// An ML-DSA parameter set (FIPS 204 Table 1) less k and ℓ, which are const parameters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    /// η: the range of s₁ and s₂.
    pub(crate) eta: i32,
    /// τ: the number of ±1 in the challenge c.
    pub(crate) tau: usize,
    /// log₂ γ₁: the range of the mask y (17 or 19).
    pub(crate) gamma1_bits: u32,
    /// γ₂ and its Decompose constants.
    pub(crate) gamma2: Gamma2,
    /// β = τ·η.
    pub(crate) beta: i32,
    /// ω: the most hint bits a signature may carry.
    pub(crate) omega: usize,
    /// λ/4: bytes of the commitment hash c̃.
    pub(crate) c_tilde_len: usize,
}

impl Params {
    /// Bits per coefficient of s₁ and s₂ in a signing key: bitlen(2η).
    pub(crate) const fn eta_bits(self) -> u32 {
        if self.eta == 2 { 3 } else { 4 }
    }

    /// Bits per coefficient of z in a signature: 1 + bitlen(γ₁ − 1).
    pub(crate) const fn z_bits(self) -> u32 {
        self.gamma1_bits + 1
    }

    /// Bytes of a public key (FIPS 204 Algorithm 22): ρ and t₁ at 10 bits.
    pub(crate) const fn pk_len(k: usize) -> usize {
        32 + 320 * k
    }

    /// Bytes of a signing key (Algorithm 24): ρ, K, tr, s₁, s₂, and t₀ at 13 bits.
    pub(crate) const fn sk_len(self, k: usize, l: usize) -> usize {
        128 + 32 * self.eta_bits() as usize * (k + l) + 416 * k
    }

    /// Bytes of a signature (Algorithm 26): c̃, z, and the hint's ω + k bytes.
    pub(crate) const fn sig_len(self, k: usize, l: usize) -> usize {
        self.c_tilde_len + 32 * self.z_bits() as usize * l + self.omega + k
    }

    /// γ₁.
    const fn gamma1(self) -> i32 {
        1 << self.gamma1_bits
    }
}

/// Where each part of an encoded signing key (FIPS 204 Algorithm 24) starts.
struct SkLayout {
    s1: usize,
    /// ℓ: s₂ follows the ℓ polynomials of s₁.
    l: usize,
    t0: usize,
    /// Bytes of one encoded s₁ or s₂ polynomial.
    eta_len: usize,
}

impl SkLayout {
    fn new<const K: usize, const L: usize>(p: Params) -> Self {
        let eta_len = 32 * p.eta_bits() as usize;
        Self { s1: 128, l: L, t0: 128 + eta_len * (K + L), eta_len }
    }

    /// Decodes `s₁[j]` (or `s₂[j − ℓ]` for j ≥ ℓ: they are consecutive) into `out`.
    fn s(&self, p: Params, sk: &[u8], j: usize, out: &mut Poly) {
        let at = self.s1 + j * self.eta_len;
        unpack_signed(&sk[at..at + self.eta_len], p.eta, p.eta_bits(), out);
    }

    /// Adds 2^[`PAIR_SHIFT`]·`s₂[i]` to `out`.
    fn add_s2_shifted(&self, p: Params, sk: &[u8], i: usize, out: &mut Poly) {
        let at = self.s1 + (self.l + i) * self.eta_len;
        unpack(&sk[at..at + self.eta_len], p.eta_bits(), |c, v| {
            out.0[c] += (p.eta - v.cast_signed()) << PAIR_SHIFT;
        });
    }

    /// Decodes `t₀[i]` into `out`.
    fn t0(&self, sk: &[u8], i: usize, out: &mut Poly) {
        let at = self.t0 + 416 * i;
        unpack_signed(&sk[at..at + 416], 1 << (D - 1), D, out);
    }
}

/// `acc` = Σ_j Â[i, j] ∘ `vec(j)` (times R^−1), where Â[i, j] = RejNTTPoly(ρ ‖ j ‖ i): row `i`
/// of Â, `held` or else sampled an entry at a time, times a vector whose entries
/// `vec(j, out)` produces one at a time (decoded or taken from memory), so that streaming
/// holds only one entry of Â and one of the vector.
fn row_times<'v, const L: usize>(
    imp: MlDsaImpl,
    rho: &[u8; 32],
    i: usize,
    held: Option<&[Poly; L]>,
    mut vec: impl FnMut(usize, &mut Poly) -> Option<&'v Poly>,
    acc: &mut Poly,
    tmp: &mut [Poly; 2],
) {
    acc.0 = [0; N];
    let [a, v] = tmp;
    for j in 0..L {
        let a = if let Some(row) = held {
            &row[j]
        } else {
            sample_uniform(imp.keccak(), rho, j as u8, i as u8, a);
            &*a
        };
        match vec(j, v) {
            Some(held) => imp.pointwise_acc(acc, a, held),
            None => imp.pointwise_acc(acc, a, v),
        }
    }
}

/// ExpandA (FIPS 204 Algorithm 32): all of Â into `a`, as many entries at a time as the
/// backend's samplers run (so across rows: k·ℓ/8 batches with AVX-512).
fn sample_matrix<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    rho: &[u8; 32],
    a: &mut [[Poly; L]; K],
) {
    let width = imp.sampler_width();
    for (c, entries) in a.as_flattened_mut().chunks_mut(width).enumerate() {
        // Entry w·c + k is Â[(w·c + k) / ℓ, (w·c + k) mod ℓ], sampled from ρ ‖ s ‖ r.
        let index: [[u8; 2]; 8] = core::array::from_fn(|k| {
            let e = width * c + k;
            [(e % L) as u8, (e / L) as u8]
        });
        imp.sample_uniform_wide(rho, &index[..entries.len()], entries);
    }
}

/// Polynomials that may hold secrets, wiped on drop. Built in place, like ML-KEM's scratch.
struct Scratch<const M: usize> {
    vec: [Poly; M],
    acc: Poly,
    tmp: [Poly; 2],
}

impl<const M: usize> Scratch<M> {
    fn new() -> Self {
        Self { vec: [const { Poly::ZERO }; M], acc: Poly::ZERO, tmp: [Poly::ZERO, Poly::ZERO] }
    }
}

impl<const M: usize> Drop for Scratch<M> {
    fn drop(&mut self) {
        self.vec.zeroize();
        self.acc.zeroize();
        self.tmp.zeroize();
    }
}

/// Where signing takes the products with Â and with the key from: sampled, decoded and
/// transformed from the encoded key each time they are used ([`Streamed`], for a small
/// stack), or held ([`Expanded`]). The key's parts are indexed as one vector s₁ ‖ s₂ ‖ t₀.
pub(crate) trait KeySource<const K: usize, const L: usize> {
    /// `w[i]` += Â[i, j] ∘ `y_hat` (times R^−1) for every row i: column `j` of Â times one
    /// polynomial of ŷ; `tmp` is scratch.
    fn column_times(
        &self,
        imp: MlDsaImpl,
        j: usize,
        y_hat: &Poly,
        w: &mut [Poly; K],
        tmp: &mut Poly,
    );

    /// NTT(s₁\[j\] + 2^[`PAIR_SHIFT`]·s₂\[j\]) for j < ℓ, NTT(s₂\[j\]) for ℓ ≤ j < k, or
    /// NTT(t₀\[j − k\]) beyond: held, or computed into `tmp`.
    fn key_hat<'a>(&'a self, imp: MlDsaImpl, j: usize, tmp: &'a mut Poly) -> &'a Poly;
}

/// The encoded signing key itself as a [`KeySource`]: nothing is held, each entry of Â is
/// sampled and each polynomial of the key decoded and transformed when it is used.
struct Streamed<'k> {
    p: Params,
    sk: &'k [u8],
    layout: SkLayout,
    rho: [u8; 32],
}

impl<'k> Streamed<'k> {
    fn new<const K: usize, const L: usize>(p: Params, sk: &'k [u8]) -> Self {
        // ρ is published in pk: the rejection sampling of Â may branch on it.
        let rho = core_hash::declassify(sk[..32].try_into().unwrap_or([0; 32]));
        Self { p, sk, layout: SkLayout::new::<K, L>(p), rho }
    }

    /// s₁\[j\] + 2^[`PAIR_SHIFT`]·s₂\[j\], s₂\[j\] or t₀\[j − k\] (as [`KeySource::key_hat`]
    /// numbers them) decoded into `out`.
    fn decode<const K: usize, const L: usize>(&self, j: usize, out: &mut Poly) {
        if j < L {
            self.layout.s(self.p, self.sk, j, out);
            self.layout.add_s2_shifted(self.p, self.sk, j, out);
        } else if j < K {
            self.layout.s(self.p, self.sk, L + j, out);
        } else {
            self.layout.t0(self.sk, j - K, out);
        }
    }
}

impl<const K: usize, const L: usize> KeySource<K, L> for Streamed<'_> {
    fn column_times(
        &self,
        imp: MlDsaImpl,
        j: usize,
        y_hat: &Poly,
        w: &mut [Poly; K],
        tmp: &mut Poly,
    ) {
        for (i, wi) in w.iter_mut().enumerate() {
            sample_uniform(imp.keccak(), &self.rho, j as u8, i as u8, tmp);
            imp.pointwise_acc(wi, tmp, y_hat);
        }
    }

    fn key_hat<'a>(&'a self, imp: MlDsaImpl, j: usize, tmp: &'a mut Poly) -> &'a Poly {
        self.decode::<K, L>(j, tmp);
        imp.ntt(tmp);
        tmp
    }
}

/// A signing key expanded for signing: Â, and s₁, s₂ and t₀ decoded and in T_q (s₁ paired
/// with s₂, see [`PAIR_SHIFT`]), so that no iteration of the signing loop samples, decodes
/// or transforms them again: (k·ℓ + 2k) KiB, 24 KiB for ML-DSA-44, 42 KiB for ML-DSA-65,
/// 72 KiB for ML-DSA-87. The key's parts are wiped on drop (Â is public).
pub(crate) struct Expanded<const K: usize, const L: usize> {
    a: [[Poly; L]; K],
    /// The first k polynomials [`KeySource::key_hat`] numbers: s₁ and s₂ paired, then s₂.
    s_hat: [Poly; K],
    t0_hat: [Poly; K],
}

impl<const K: usize, const L: usize> Expanded<K, L> {
    /// The expansion of the encoded signing key `sk` on `imp`.
    pub(crate) fn new(imp: MlDsaImpl, p: Params, sk: &[u8]) -> Self {
        let mut e = Self {
            a: [const { [const { Poly::ZERO }; L] }; K],
            s_hat: [const { Poly::ZERO }; K],
            t0_hat: [const { Poly::ZERO }; K],
        };
        let key = Streamed::new::<K, L>(p, sk);
        sample_matrix(imp, &key.rho, &mut e.a);
        for (j, s) in e.s_hat.iter_mut().chain(&mut e.t0_hat).enumerate() {
            key.decode::<K, L>(j, s);
            imp.ntt(s);
        }
        e
    }
}

impl<const K: usize, const L: usize> KeySource<K, L> for Expanded<K, L> {
    fn column_times(
        &self,
        imp: MlDsaImpl,
        j: usize,
        y_hat: &Poly,
        w: &mut [Poly; K],
        _: &mut Poly,
    ) {
        for (wi, row) in w.iter_mut().zip(&self.a) {
            imp.pointwise_acc(wi, &row[j], y_hat);
        }
    }

    fn key_hat<'a>(&'a self, _: MlDsaImpl, j: usize, _: &'a mut Poly) -> &'a Poly {
        match j.checked_sub(K) {
            None => &self.s_hat[j],
            Some(i) => &self.t0_hat[i],
        }
    }
}

impl<const K: usize, const L: usize> Drop for Expanded<K, L> {
    fn drop(&mut self) {
        self.s_hat.zeroize();
        self.t0_hat.zeroize();
    }
}

/// c·s₁\[j\] and c·s₂\[j\] come from one product, c·(s₁\[j\] + 2^9·s₂\[j\]) (j < ℓ ≤ k), so a
/// signing iteration takes k + k inverse NTTs rather than ℓ + 2k: both products are below
/// τ·η ≤ 196 < 2^8 in absolute value, so their sum is below (q − 1)/2 and its centred
/// representative splits exactly ([`unpair`]).
const PAIR_SHIFT: u32 = 9;

/// The two products in `v` ≡ a + 2^9·b (mod q), |a|, |b| < 2^8: (a, b), without a branch.
#[inline]
fn unpair(v: i32) -> (i32, i32) {
    let v = centered(v);
    let half = 1 << (PAIR_SHIFT - 1);
    let a = ((v + half) & ((1 << PAIR_SHIFT) - 1)) - half;
    (a, (v - a) >> PAIR_SHIFT)
}

/// `out` = c·s in R_q for s = s₁\[j\] + 2^9·s₂\[j\], s₂\[j\] or t₀\[j − k\] as
/// [`KeySource::key_hat`] numbers them, from ĉ = NTT(c): NTT^−1(ĉ ∘ ŝ), a representative
/// of `|value| < 2^30`; `tmp` is scratch. The same operations whatever c is: the product is
/// constant time in c as in s.
fn times_c<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    key: &impl KeySource<K, L>,
    j: usize,
    c_hat: &Poly,
    out: &mut Poly,
    tmp: &mut Poly,
) {
    out.0 = [0; N];
    imp.pointwise_acc(out, c_hat, key.key_hat(imp, j, tmp));
    imp.inv_ntt(out);
}

/// ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6): writes the public key `pk` and signing key
/// `sk` of the seed ξ.
pub(crate) fn keygen<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    p: Params,
    xi: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) {
    // (ρ, ρ′, K) = H(ξ ‖ k ‖ ℓ, 128)
    let mut seeds = Zeroizing::new([0u8; 128]);
    let mut h = Shake256::new();
    h.update(xi);
    h.update(&[K as u8, L as u8]);
    let mut reader = h.finalize_xof();
    reader.read(&mut seeds[..]);
    reader.zeroize();
    sk[..32].copy_from_slice(&seeds[..32]);
    sk[32..64].copy_from_slice(&seeds[96..]);
    let rho_prime: &[u8; 64] = seeds[32..96].try_into().unwrap_or(&[0; 64]);
    if imp.holds_matrix() {
        expand_s_wide::<K, L>(imp, p, rho_prime, sk);
    } else {
        let layout = SkLayout::new::<K, L>(p);
        let mut s = Poly::ZERO;
        for r in 0..K + L {
            sample_bounded(imp.keccak(), rho_prime, r as u16, p.eta.cast_unsigned(), &mut s);
            let at = layout.s1 + r * layout.eta_len;
            pack_signed(&s, p.eta, p.eta_bits(), &mut sk[at..at + layout.eta_len]);
        }
        s.zeroize();
    }
    derive_public::<K, L>(imp, p, sk, pk);
}

/// ExpandS (FIPS 204 Algorithm 33) of ρ′ into s₁ and s₂ in `sk`, as many polynomials at a
/// time as the backend's samplers run, for the backends with a many-way Keccak-f. Not
/// inlined, so the polynomials are on the stack only on that path.
#[inline(never)]
fn expand_s_wide<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    p: Params,
    rho_prime: &[u8; 64],
    sk: &mut [u8],
) {
    let layout = SkLayout::new::<K, L>(p);
    let width = imp.sampler_width();
    let mut s = Zeroizing::new([const { Poly::ZERO }; 8]);
    for first in (0..K + L).step_by(width) {
        let rows: [u16; 8] = core::array::from_fn(|k| (first + k) as u16);
        let count = (K + L - first).min(width);
        imp.sample_bounded_wide(rho_prime, &rows[..count], p.eta.cast_unsigned(), &mut s[..count]);
        for (r, s) in (first..).zip(&s[..count]) {
            let at = layout.s1 + r * layout.eta_len;
            pack_signed(s, p.eta, p.eta_bits(), &mut sk[at..at + layout.eta_len]);
        }
    }
}

/// The rest of KeyGen from ρ, s₁ and s₂ in `sk`: t = NTT^−1(Â ∘ NTT(s₁)) + s₂ row by row,
/// Power2Round into t₁ (written to `pk` after ρ) and t₀ (written to `sk`), then tr = H(pk, 64)
/// into `sk`. Not inlined, so its polynomials are off the stack while the hashes run.
#[inline(never)]
pub(crate) fn derive_public<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    p: Params,
    sk: &mut [u8],
    pk: &mut [u8],
) {
    // ρ is published in pk: the rejection sampling of Â may branch on it.
    let rho: [u8; 32] = core_hash::declassify(sk[..32].try_into().unwrap_or([0; 32]));
    if imp.holds_matrix() {
        derive_public_held::<K, L>(imp, p, &rho, sk, pk);
    } else {
        derive_public_with::<K, L>(imp, p, &rho, None, sk, pk);
    }
}

/// [`derive_public`] with all of Â sampled first, for the backends that hold it. Not
/// inlined, so Â is on the stack only on that path.
#[inline(never)]
fn derive_public_held<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    p: Params,
    rho: &[u8; 32],
    sk: &mut [u8],
    pk: &mut [u8],
) {
    let mut a = [const { [const { Poly::ZERO }; L] }; K];
    sample_matrix(imp, rho, &mut a);
    derive_public_with::<K, L>(imp, p, rho, Some(&a), sk, pk);
}

/// [`derive_public`] with Â `held`, or streamed when `None`.
fn derive_public_with<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    p: Params,
    rho: &[u8; 32],
    held: Option<&[[Poly; L]; K]>,
    sk: &mut [u8],
    pk: &mut [u8],
) {
    let layout = SkLayout::new::<K, L>(p);
    pk[..32].copy_from_slice(rho);
    let mut scratch = Scratch::<L>::new();
    let Scratch { vec: s1_hat, acc, tmp } = &mut scratch;
    for (j, s) in s1_hat.iter_mut().enumerate() {
        layout.s(p, sk, j, s);
        imp.ntt(s);
    }
    for i in 0..K {
        row_times::<L>(imp, rho, i, held.map(|a| &a[i]), |j, _| Some(&s1_hat[j]), acc, tmp);
        imp.inv_ntt(acc);
        // t₀ overwrites s₂[i] where it is decoded, t₁ goes to the other scratch polynomial.
        let [t0, t1] = &mut *tmp;
        layout.s(p, sk, L + i, t0);
        for ((a, hi), lo) in acc.0.iter().zip(&mut t1.0).zip(&mut t0.0) {
            (*hi, *lo) = power2round(freeze(*a + *lo));
        }
        pack(&mut pk[32 + 320 * i..32 + 320 * (i + 1)], 10, |c| t1.0[c].cast_unsigned());
        let at = layout.t0 + 416 * i;
        pack_signed(t0, 1 << (D - 1), D, &mut sk[at..at + 416]);
    }
    Shake256::digest_into(pk, &mut sk[64..128]);
}

/// Whether every coefficient of s₁ and s₂ in `sk` is in `-η..=η` (an encoding from elsewhere
/// may hold others), in constant time: they are secret.
pub(crate) fn s_in_range<const K: usize, const L: usize>(p: Params, sk: &[u8]) -> subtle::Choice {
    let layout = SkLayout::new::<K, L>(p);
    let mut s = Zeroizing::new(Poly::ZERO);
    let mut bad = 0;
    for j in 0..K + L {
        layout.s(p, sk, j, &mut s);
        for &c in &s.0 {
            bad |= exceeds(c, p.eta + 1);
        }
    }
    bad.ct_eq(&0)
}

/// μ = H(tr ‖ M′, 64) with M′ = 0 ‖ |ctx| ‖ ctx ‖ M (FIPS 204 Algorithms 2 and 3), or
/// [`Error::ContextTooLong`].
pub(crate) fn mu(tr: &[u8], ctx: &[u8], msg: &[u8]) -> Result<[u8; 64], Error> {
    mu_of(tr, 0, ctx, &[msg])
}

/// HashML-DSA's μ = H(tr ‖ M′, 64) with M′ = 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M) (FIPS 204
/// Algorithms 4 and 5), or [`Error::ContextTooLong`].
pub(crate) fn mu_prehashed(
    tr: &[u8],
    ctx: &[u8],
    hash: PreHash,
    msg: &[u8],
) -> Result<[u8; 64], Error> {
    let mut digest = [0u8; 64];
    let len = hash.digest(msg, &mut digest);
    let oid = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, hash.oid_last_arc()];
    mu_of(tr, 1, ctx, &[&oid, &digest[..len]])
}

/// H(tr ‖ domain ‖ |ctx| ‖ ctx ‖ parts…, 64).
fn mu_of(tr: &[u8], domain: u8, ctx: &[u8], parts: &[&[u8]]) -> Result<[u8; 64], Error> {
    let ctx_len = u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong)?;
    let mut h = Shake256::new();
    h.update(tr);
    h.update(&[domain, ctx_len]);
    h.update(ctx);
    for part in parts {
        h.update(part);
    }
    let mut mu = [0u8; 64];
    h.finalize_xof().read(&mut mu);
    Ok(mu)
}

/// The commitment hash c̃ = H(μ ‖ w₁Encode(w₁), λ/4) absorbed one row of w₁ at a time.
struct Commitment {
    h: Shake256,
    bits: u32,
}

impl Commitment {
    fn new(mu: &[u8; 64], gamma2: Gamma2) -> Self {
        let mut h = Shake256::new();
        h.update(mu);
        Self { h, bits: gamma2.w1_bits() }
    }

    /// Absorbs w₁Encode of one polynomial of w₁ (FIPS 204 Algorithm 28).
    fn absorb(&mut self, w1: impl Fn(usize) -> i32) {
        let mut bytes = [0u8; 32 * 6];
        let bytes = &mut bytes[..32 * self.bits as usize];
        pack(bytes, self.bits, |c| w1(c).cast_unsigned());
        self.h.update(bytes);
    }

    fn finish(self, out: &mut [u8]) {
        self.h.finalize_xof().read(out);
    }
}

/// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) from the message representative μ: writes
/// the signature of `mu` under the encoded key `sk` with the randomness `rnd` (zeros for the
/// deterministic variant) into `sig`.
///
/// Timing: each iteration of the rejection loop runs every check on every coefficient,
/// whatever failed first, and only the one bit "rejected or not" is declassified, so the
/// number of iterations is the only data-dependent timing of the loop, the one FIPS 204
/// accepts: it depends on discarded candidates, not on the key. (ExpandS in key generation
/// leaks the positions of rejected half-bytes, which are independent of the kept ones; see
/// `poly::sample_bounded`.) The challenge c̃ of a candidate is public only once the candidate
/// is accepted and c̃ is in the signature: a rejected candidate's c is never published, and
/// is not free of the key (that c was rejected says a little about c·s₁ and c·s₂: Karabulut
/// et al., HOST 2021, a weakening; Zhou et al., TCHES 2025, key recovery when the rejected z
/// leaks too). So nothing here declassifies c̃ or c: SampleInBall runs in constant time
/// (`poly::sample_in_ball_secret`: masked passes for its swaps; only which bytes of
/// SHAKE256(c̃) it rejects is declassified, a pattern independent of c, and it squeezes one
/// block but with a probability below 2^−87), and the products c·s₁, c·s₂ and c·t₀ are
/// NTT^−1(ĉ ∘ ŝ) with ĉ = NTT(c), the same operations for every c. Where the accepted
/// signature goes, c̃ is the caller's to publish; the hint's positions are declassified on
/// acceptance (HintBitPack).
pub(crate) fn sign<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    p: Params,
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) {
    if imp.holds_matrix() {
        sign_expanding::<K, L>(imp, p, sk, mu, rnd, sig);
    } else {
        sign_with::<K, L, _>(imp, p, sk, &Streamed::new::<K, L>(p, sk), mu, rnd, sig);
    }
}

/// [`sign`] with the key expanded first, for the backends that hold Â. Not inlined, so the
/// expansion is on the stack only on that path.
#[inline(never)]
fn sign_expanding<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    p: Params,
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) {
    let key = Expanded::<K, L>::new(imp, p, sk);
    sign_with::<K, L, _>(imp, p, sk, &key, mu, rnd, sig);
}

/// [`sign`] with Â and the key's products with c taken from `key` (K, the rest of the
/// encoded key `sk` signing needs, is read from `sk`).
pub(crate) fn sign_with<const K: usize, const L: usize, S: KeySource<K, L>>(
    imp: MlDsaImpl,
    p: Params,
    sk: &[u8],
    key: &S,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) {
    // ρ″ = H(K ‖ rnd ‖ μ, 64)
    let mut rho2 = Zeroizing::new([0u8; 64]);
    let mut h = Shake256::new();
    h.update(&sk[32..64]);
    h.update(rnd);
    h.update(mu);
    let mut reader = h.finalize_xof();
    reader.read(&mut rho2[..]);
    reader.zeroize();

    let (gamma1, gamma2) = (p.gamma1(), p.gamma2.gamma2);
    let z_len = 32 * p.z_bits() as usize;
    let (c_tilde, rest) = sig.split_at_mut(p.c_tilde_len);
    let (z_out, h_out) = rest.split_at_mut(z_len * L);

    // y; w (in 0..q) and, once each row is used, its hint bits; NTT(y_j), then ĉ.
    let mut y = Zeroizing::new([const { Poly::ZERO }; L]);
    let mut work = Scratch::<K>::new();
    let mut kappa: u16 = 0;
    loop {
        let width = imp.sampler_width();
        for (c, ys) in y.chunks_mut(width).enumerate() {
            let kappas: [u16; 8] =
                core::array::from_fn(|k| kappa.wrapping_add((width * c + k) as u16));
            imp.expand_mask_wide(&rho2, &kappas[..ys.len()], p.gamma1_bits, ys);
        }
        // w = NTT^−1(Â ∘ ŷ), a column of Â (one NTT(y_j)) at a time; w₁ = HighBits(w),
        // c̃ = H(μ ‖ w₁Encode(w₁)).
        let Scratch { vec: w, acc, tmp } = &mut work;
        for wi in w.iter_mut() {
            wi.0 = [0; N];
        }
        for (j, yj) in y.iter().enumerate() {
            acc.0 = yj.0;
            imp.ntt(acc);
            key.column_times(imp, j, acc, w, &mut tmp[0]);
        }
        let mut commitment = Commitment::new(mu, p.gamma2);
        for wi in w.iter_mut() {
            imp.inv_ntt(wi);
            // w₁'s row into scratch.
            let w1 = &mut tmp[0];
            vectorized!(imp, {
                for (c, h) in wi.0.iter_mut().zip(&mut w1.0) {
                    *c = freeze(*c);
                    *h = p.gamma2.high_bits(*c);
                }
            });
            commitment.absorb(|c| w1.0[c]);
        }
        commitment.finish(c_tilde);
        // c̃ and c stay secret: they are published only if this candidate is accepted.
        let c_hat = acc;
        vectorized!(imp, sample_in_ball_secret(imp.keccak(), c_tilde, p.tau, c_hat));
        imp.ntt(c_hat);

        // z = y + c·s₁, ‖z‖∞ < γ₁ − β; r = w − c·s₂ with ‖LowBits(r)‖∞ < γ₂ − β; c·t₀ with
        // ‖c·t₀‖∞ < γ₂; the hint h = HighBits(r + c·t₀) ≠ HighBits(r) with at most ω ones,
        // written over w. Row i of z is made with row i of r, from one product.
        let (mut rejected, mut ones) = (0u32, 0u32);
        let [product, scratch] = &mut *tmp;
        for (i, wi) in w.iter_mut().enumerate() {
            // c·s₂[i], and c·s₁[i] paired with it for i < ℓ, into `product`; z[i] into
            // `scratch`.
            times_c::<K, L>(imp, key, i, c_hat, product, scratch);
            if let Some(y) = y.get(i) {
                rejected |= vectorized!(imp, {
                    let mut out = 0;
                    for ((zc, pc), &yc) in scratch.0.iter_mut().zip(&mut product.0).zip(&y.0) {
                        let (cs1, cs2) = unpair(*pc);
                        *zc = centered(cs1 + yc);
                        *pc = cs2;
                        out |= exceeds(*zc, gamma1 - p.beta);
                    }
                    out
                });
                pack_signed(scratch, gamma1, p.z_bits(), &mut z_out[z_len * i..z_len * (i + 1)]);
            }
            vectorized!(imp, {
                for (wc, &cs2) in wi.0.iter_mut().zip(&product.0) {
                    *wc = freeze(*wc - cs2);
                }
            });
            times_c::<K, L>(imp, key, K + i, c_hat, product, scratch);
            let (row_rejected, row_ones) = vectorized!(imp, {
                let (mut rejected, mut ones) = (0u32, 0u32);
                for (wc, &ct0) in wi.0.iter_mut().zip(&product.0) {
                    let (r1, r0) = p.gamma2.decompose(*wc);
                    let ct0 = centered(ct0);
                    rejected |= exceeds(r0, gamma2 - p.beta) | exceeds(ct0, gamma2);
                    let differs = (p.gamma2.high_bits(freeze(*wc + ct0)) ^ r1).cast_unsigned();
                    let bit = (differs | differs.wrapping_neg()) >> 31;
                    *wc = bit.cast_signed();
                    ones += bit;
                }
                (rejected, ones)
            });
            rejected |= row_rejected;
            ones += row_ones;
        }
        // More than ω ones: ω − ones wraps, setting the top bit.
        rejected |= u32::try_from(p.omega).unwrap_or(0).wrapping_sub(ones) >> 31;
        if core_hash::declassify(rejected) == 0 {
            // Accepted: the hint is part of the signature, so public (HintBitPack,
            // FIPS 204 Algorithm 20).
            h_out.fill(0);
            let mut index = 0;
            for (i, wi) in w.iter().enumerate() {
                for (j, &bit) in wi.0.iter().enumerate() {
                    if core_hash::declassify(bit) != 0 {
                        h_out[index] = j as u8;
                        index += 1;
                    }
                }
                h_out[p.omega + i] = index as u8;
            }
            return;
        }
        kappa = kappa.wrapping_add(L as u16);
    }
}

/// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) of `sig` on the message representative μ
/// under the encoded public key `pk`. Public data throughout, so it may branch and stop
/// early. Each row of w′ is computed, turned into w₁′ and absorbed before the next.
pub(crate) fn verify<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    p: Params,
    pk: &[u8],
    mu: &[u8; 64],
    sig: &[u8],
) -> Result<(), Error> {
    if imp.holds_matrix() {
        verify_holding_a::<K, L>(imp, p, pk, mu, sig)
    } else {
        verify_streamed::<K, L>(imp, p, pk, mu, sig)
    }
}

/// A signature split into c̃, z and the hint, with the hint's encoding checked.
struct SigParts<'s> {
    c_tilde: &'s [u8],
    z: &'s [u8],
    hint: &'s [u8],
}

impl<'s> SigParts<'s> {
    fn new<const K: usize, const L: usize>(p: Params, sig: &'s [u8]) -> Result<Self, Error> {
        let z_len = 32 * p.z_bits() as usize * L;
        let (c_tilde, rest) = sig.split_at_checked(p.c_tilde_len).ok_or(Error::InvalidLength)?;
        let (z, hint) = rest.split_at_checked(z_len).ok_or(Error::InvalidLength)?;
        check_hint::<K>(p, hint)?;
        Ok(Self { c_tilde, z, hint })
    }

    /// NTT(z), each polynomial of z first checked: ‖z‖∞ < γ₁ − β.
    fn z_hat<const L: usize>(
        &self,
        imp: MlDsaImpl,
        p: Params,
        z_hat: &mut [Poly; L],
    ) -> Result<(), Error> {
        let gamma1 = p.gamma1();
        let z_len = 32 * p.z_bits() as usize;
        // Indexed, not `chunks_exact`: that divides by the variable length.
        for (j, out) in z_hat.iter_mut().enumerate() {
            unpack_signed(&self.z[z_len * j..z_len * (j + 1)], gamma1, p.z_bits(), out);
            let out_of_range = imp
                .vectorized(|| out.0.iter().fold(0, |bad, &c| bad | exceeds(c, gamma1 - p.beta)));
            if out_of_range != 0 {
                return Err(Error::SignatureOutOfRange);
            }
            imp.ntt(out);
        }
        Ok(())
    }

    /// Absorbs row `i` of w₁′ = UseHint(h, w′) with `w` = w′\[i\] (unreduced); `start` is where
    /// the row's hint indices begin, moved to the next row's.
    /// The row of w₁′ replaces `w`, a whole row at a time, so the loop vectorizes on the
    /// backends with a vector unit.
    fn absorb_row(
        &self,
        imp: MlDsaImpl,
        p: Params,
        i: usize,
        start: &mut usize,
        w: &mut Poly,
        to: &mut Commitment,
    ) {
        let end = usize::from(self.hint[p.omega + i]);
        let mut h = [0u8; N];
        for &at in &self.hint[*start..end] {
            h[usize::from(at)] = 1;
        }
        *start = end;
        imp.vectorized(|| {
            for (wc, &hc) in w.0.iter_mut().zip(&h) {
                *wc = p.gamma2.use_hint(i32::from(hc), freeze(*wc));
            }
        });
        to.absorb(|c| w.0[c]);
    }

    /// Whether c̃ is the hash the commitment computed.
    fn check(&self, p: Params, commitment: Commitment) -> Result<(), Error> {
        let mut got = [0u8; 64];
        commitment.finish(&mut got[..p.c_tilde_len]);
        if got[..p.c_tilde_len] == *self.c_tilde { Ok(()) } else { Err(Error::InvalidSignature) }
    }
}

/// Row `i` of t₁ in `pk`, coefficient `c`, times 2^d.
fn t1_shifted(pk: &[u8], i: usize, c: usize) -> i32 {
    // 10 bits at bit 10c of the row: in the two bytes from byte ⌊10c/8⌋.
    let at = 32 + 320 * i + ((10 * c) >> 3);
    let two = u32::from(pk[at]) | u32::from(pk.get(at + 1).copied().unwrap_or(0)) << 8;
    (((two >> ((10 * c) & 7)) & 0x3ff) << D).cast_signed()
}

/// [`verify`] for the backends that stream (the Cortex-M0's): NTT(z) is held (ℓ KiB; its ℓ
/// NTTs are done once), each entry of Â is multiplied into the row's accumulator as it is
/// sampled (no polynomial holds it), and c·t₁·2^d is subtracted in R_q after the inverse NTT
/// as τ signed shifts of t₁, read from `pk` (no NTT, no polynomial for c or t₁): ℓ + 1
/// polynomials are live.
#[inline(never)]
fn verify_streamed<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    p: Params,
    pk: &[u8],
    mu: &[u8; 64],
    sig: &[u8],
) -> Result<(), Error> {
    let rho: &[u8; 32] =
        pk.get(..32).and_then(|r| r.try_into().ok()).ok_or(Error::InvalidLength)?;
    if pk.len() != Params::pk_len(K) {
        return Err(Error::InvalidLength);
    }
    let parts = SigParts::new::<K, L>(p, sig)?;
    let mut z_hat = [const { Poly::ZERO }; L];
    parts.z_hat(imp, p, &mut z_hat)?;
    let c = Challenge::sample(imp.keccak(), parts.c_tilde, p.tau);
    let mut commitment = Commitment::new(mu, p.gamma2);
    let mut w = Poly::ZERO;
    let mut start = 0;
    for i in 0..K {
        // w′ = NTT^−1(Â ∘ NTT(z)) − c·t₁·2^d, row i. Values in T_q are the same on every
        // backend, so one coefficient's product is `portable`'s.
        w.0 = [0; N];
        for (j, zj) in z_hat.iter().enumerate() {
            sample_uniform_each(imp.keccak(), rho, j as u8, i as u8, |n, a| {
                w.0[n] += portable::product(a, zj.0[n]);
            });
        }
        imp.inv_ntt(&mut w);
        // |w| < q + τ·2^23 < 2^29.
        c.sub_times(&mut w, |c| t1_shifted(pk, i, c));
        parts.absorb_row(imp, p, i, &mut start, &mut w, &mut commitment);
    }
    parts.check(p, commitment)
}

/// [`verify`] with all of Â sampled first (four entries at a time), NTT(z) computed once
/// and c·t₁ as a product in T_q, for the backends that hold them. Not inlined, so they
/// are on the stack only on that path.
#[inline(never)]
fn verify_holding_a<const K: usize, const L: usize>(
    imp: MlDsaImpl,
    p: Params,
    pk: &[u8],
    mu: &[u8; 64],
    sig: &[u8],
) -> Result<(), Error> {
    let rho: &[u8; 32] =
        pk.get(..32).and_then(|r| r.try_into().ok()).ok_or(Error::InvalidLength)?;
    let parts = SigParts::new::<K, L>(p, sig)?;
    let mut z_hat = [const { Poly::ZERO }; L];
    parts.z_hat(imp, p, &mut z_hat)?;
    let mut a = [const { [const { Poly::ZERO }; L] }; K];
    sample_matrix(imp, rho, &mut a);
    let mut c_hat = Poly::ZERO;
    sample_in_ball(imp.keccak(), parts.c_tilde, p.tau, &mut c_hat);
    for c in &mut c_hat.0 {
        *c = -*c;
    }
    imp.ntt(&mut c_hat);
    let mut commitment = Commitment::new(mu, p.gamma2);
    let (mut acc, mut t1) = (Poly::ZERO, Poly::ZERO);
    let mut start = 0;
    for (i, row) in a.iter().enumerate() {
        // w′ = NTT^−1(Â ∘ NTT(z) − ĉ ∘ NTT(t₁·2^d)), row i.
        acc.0 = [0; N];
        for (aij, zj) in row.iter().zip(&z_hat) {
            imp.pointwise_acc(&mut acc, aij, zj);
        }
        unpack(&pk[32 + 320 * i..32 + 320 * (i + 1)], 10, |c, v| t1.0[c] = (v << D).cast_signed());
        imp.ntt(&mut t1);
        imp.pointwise_acc(&mut acc, &c_hat, &t1);
        imp.inv_ntt(&mut acc);
        parts.absorb_row(imp, p, i, &mut start, &mut acc, &mut commitment);
    }
    parts.check(p, commitment)
}

/// The checks of HintBitUnpack (FIPS 204 Algorithm 21): the running counts never decrease
/// nor exceed ω, each row's indices strictly increase, and the unused bytes are zero.
fn check_hint<const K: usize>(p: Params, hint: &[u8]) -> Result<(), Error> {
    let (indices, counts) = hint.split_at(p.omega);
    let mut start = 0;
    for &end in counts {
        let end = usize::from(end);
        if end < start || end > p.omega {
            return Err(Error::InvalidHint);
        }
        if indices[start..end].windows(2).any(|w| w[0] >= w[1]) {
            return Err(Error::InvalidHint);
        }
        start = end;
    }
    if indices[start..].iter().any(|&b| b != 0) {
        return Err(Error::InvalidHint);
    }
    let _ = K;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of products |a|, |b| < 2^8 comes back out of a + 2^9·b, from each of its
    /// representatives an inverse NTT may leave (in `-q..q`).
    #[test]
    fn unpair_splits_every_pair() {
        use super::super::poly::Q;
        for a in -255..=255 {
            for b in -255..=255 {
                let v = a + (b << PAIR_SHIFT);
                for r in [v, v + Q, v - Q] {
                    assert_eq!(unpair(r), (a, b), "a = {a}, b = {b}, r = {r}");
                }
            }
        }
    }

    #[test]
    fn sizes_are_fips_204_table_2() {
        use super::super::{P44, P65, P87};
        assert_eq!((Params::pk_len(4), P44.sk_len(4, 4), P44.sig_len(4, 4)), (1312, 2560, 2420));
        assert_eq!((Params::pk_len(6), P65.sk_len(6, 5), P65.sig_len(6, 5)), (1952, 4032, 3309));
        assert_eq!((Params::pk_len(8), P87.sk_len(8, 7), P87.sig_len(8, 7)), (2592, 4896, 4627));
    }
}
