//! K-PKE and ML-KEM (FIPS 203 §5 and §6) over any backend, written for a small stack: on the
//! small cores (`portable`, `thumb1`) the matrix Â is never held whole, nor is any entry of
//! it: each entry is sampled 32 coefficients at a time and multiplied into one accumulator by
//! the vector (ŝ or ŷ) kept encoded, 384 bytes a polynomial ([`sample_ntt_times`]); each row
//! of the result is encoded (or, when decapsulation re-encrypts, compared) as soon as it is
//! complete, and the noise is sampled into the accumulator. What stays live is the encoded
//! vector and the accumulator (1.7 KiB for k = 3); decapsulation, whose caller also holds the
//! key and the ciphertext, keeps ŷ[k−1] only as y[k−1] packed (96 bytes) and rebuilds it in
//! the accumulator for each row ([`encrypt_streamed`]: 1.4 KiB). A backend with vector registers keeps
//! whole polynomials, and one with a four-way Keccak-f samples Â whole and the noise four
//! polynomials at a time ([`Matrix`], [`Noise`]), on a server's stack.

use super::MlKemImpl;
use super::poly::{self, Poly, add_assign, sample_cbd, sample_ntt};
use crate::shake::OneBlockShake;
use core_hash::{Sha3_256, Shake256};
use subtle::{ConditionallySelectable, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

/// An ML-KEM parameter set (FIPS 203 Table 2) less k, which is a const parameter.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    /// η₁: the noise width of s, e and y.
    pub(crate) eta1: u32,
    /// d_u: bits per coefficient of u in a ciphertext.
    pub(crate) du: u32,
    /// d_v: bits per coefficient of v.
    pub(crate) dv: u32,
}

/// η₂, the same in every parameter set.
const ETA2: u32 = 2;

/// Where [`encrypt`] puts the ciphertext: into a buffer, or (for decapsulation's
/// re-encryption) nowhere but a running comparison with the received one.
enum Sink<'a> {
    /// Write the ciphertext here.
    Write(&'a mut [u8]),
    /// OR the XOR of each byte with this ciphertext's into `diff`: zero at the end means equal.
    /// Every byte is compared, whatever came before (no early exit).
    Compare { expected: &'a [u8], diff: u8 },
}

impl Sink<'_> {
    /// The ciphertext's bytes from `at` on are `bytes`.
    #[inline]
    fn put(&mut self, at: usize, bytes: &[u8]) {
        match self {
            Self::Write(out) => out[at..at + bytes.len()].copy_from_slice(bytes),
            Self::Compare { expected, diff } => {
                for (e, b) in expected[at..at + bytes.len()].iter().zip(bytes) {
                    *diff |= e ^ b;
                }
            }
        }
    }
}

/// G = SHA3-512 of `a ‖ b` (FIPS 203 §4.1), written as its two 32-byte halves. Not inlined,
/// so its state is off the stack before the polynomial work that follows. On the small
/// cores on one Keccak state (`a ‖ b` is 33 or 64 bytes, less than a block), without
/// core-hash's streaming hasher: its code and its block buffer are then not linked.
#[inline(never)]
fn g(a: &[u8], b: &[u8], first: &mut [u8; 32], second: &mut [u8; 32]) {
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let mut out = {
        let mut out = [0u8; 64];
        let keccak = core_hash::KeccakImpl::preferred();
        crate::shake::sha3_one_block::<72>(keccak, &[a, b], &mut out);
        out
    };
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    let mut out = {
        let mut h = core_hash::Sha3_512::new();
        h.update(a);
        h.update(b);
        h.finalize()
    };
    first.copy_from_slice(&out[..32]);
    second.copy_from_slice(&out[32..]);
    out.zeroize();
}

/// H = SHA3-256 (FIPS 203 §4.1). Not inlined, like [`g`].
#[inline(never)]
pub(crate) fn h(data: &[u8]) -> [u8; 32] {
    Sha3_256::digest(data)
}

/// The polynomials K-PKE works in: a vector (ŝ or ŷ), an accumulator and a scratch
/// polynomial, any of which may hold secrets, so they are wiped on drop. Built in place (a
/// by-value array from a closure costs another copy of the vector on a small core's stack).
struct Scratch<const K: usize> {
    vec: [Poly; K],
    acc: Poly,
    tmp: Poly,
}

impl<const K: usize> Scratch<K> {
    /// All zero. A constant rather than a constructor: the Cortex-M0 build then zeroes the
    /// caller's variable in place, where building the vector and moving it in takes a second
    /// copy of it on the stack (1.5 KiB for k = 3).
    const ZERO: Self = Self { vec: [const { Poly::ZERO }; K], acc: Poly::ZERO, tmp: Poly::ZERO };
}

impl<const K: usize> Drop for Scratch<K> {
    fn drop(&mut self) {
        self.vec.zeroize();
        self.acc.zeroize();
        self.tmp.zeroize();
    }
}

/// The noise polynomials SamplePolyCBD_η(PRF_η(s, n)) for the nonces n = `first`,
/// `first` + 1, … in order (FIPS 203 Algorithms 13 and 14 draw them so). `portable` samples
/// each one when it is asked for, so only the caller's polynomial is on the stack; `x86_avx2`
/// samples the next (up to) four at once on the four-way Keccak-f whenever two or more are
/// still to come, and hands out copies.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
struct Noise<'a> {
    imp: MlKemImpl,
    eta: u32,
    seed: &'a [u8; 32],
    /// The nonce of the next polynomial handed out.
    nonce: u8,
    /// How many are still to be handed out.
    remaining: usize,
    /// The batch, how many of it were handed out, and how many it holds.
    #[cfg(target_arch = "x86_64")]
    batch: ([Poly; 4], usize, usize),
}

#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
impl<'a> Noise<'a> {
    /// The `count` polynomials from nonce `first` on.
    fn new(imp: MlKemImpl, eta: u32, seed: &'a [u8; 32], first: u8, count: usize) -> Self {
        Self {
            imp,
            eta,
            seed,
            nonce: first,
            remaining: count,
            #[cfg(target_arch = "x86_64")]
            batch: ([const { Poly::ZERO }; 4], 0, 0),
        }
    }

    /// The next polynomial, into `out`: coefficients in `-η..=η`.
    fn next(&mut self, out: &mut Poly) {
        #[cfg(target_arch = "x86_64")]
        if let MlKemImpl::X86Avx2(token) = self.imp {
            let (polys, used, n) = &mut self.batch;
            if *used == *n && self.remaining >= 2 {
                // The new batch overwrites the old; wipe what it does not cover.
                let new = self.remaining.min(4);
                polys[new.min(*n)..*n].iter_mut().for_each(Zeroize::zeroize);
                *n = new;
                *used = 0;
                let nonces = nonces(self.nonce);
                super::x86_avx2::sample_cbd_x4(
                    token,
                    self.eta,
                    self.seed,
                    &nonces[..*n],
                    &mut polys[..*n],
                );
            }
            if let Some(p) = polys[..*n].get(*used) {
                out.0 = p.0;
                *used += 1;
                self.nonce = self.nonce.wrapping_add(1);
                self.remaining = self.remaining.saturating_sub(1);
                return;
            }
        }
        sample_cbd(self.imp.keccak(), self.eta, self.seed, self.nonce, out);
        self.nonce = self.nonce.wrapping_add(1);
        self.remaining = self.remaining.saturating_sub(1);
    }
}

impl Drop for Noise<'_> {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        self.batch.0[..self.batch.2].iter_mut().for_each(Zeroize::zeroize);
    }
}

/// Four consecutive nonces from `first` on.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn nonces(first: u8) -> [u8; 4] {
    core::array::from_fn(|k| first.wrapping_add(k as u8))
}

/// SamplePolyCBD_η(PRF_η(`seed`, `first` + i)) into each `out[i]`, four at a time on a
/// backend with a four-way Keccak-f.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn sample_noise(imp: MlKemImpl, eta: u32, seed: &[u8; 32], first: u8, out: &mut [Poly]) {
    for (c, chunk) in out.chunks_mut(4).enumerate() {
        let nonces = nonces(first.wrapping_add(4 * c as u8));
        #[cfg(target_arch = "x86_64")]
        if let MlKemImpl::X86Avx2(token) = imp {
            super::x86_avx2::sample_cbd_x4(token, eta, seed, &nonces[..chunk.len()], chunk);
            continue;
        }
        for (p, nonce) in chunk.iter_mut().zip(nonces) {
            sample_cbd(imp.keccak(), eta, seed, nonce, p);
        }
    }
}

/// ML-KEM.KeyGen_internal (FIPS 203 Algorithm 16, with K-PKE.KeyGen, Algorithm 13): writes
/// `dk` (768k + 96 bytes, the encapsulation key in the middle) from the seeds `d` and `z`.
/// `draft` leaves out the byte k after `d` in G's input, as the FIPS 203 initial public draft
/// did: only for known answers made for the draft (the CCTV accumulated vectors).
pub(crate) fn keygen<const K: usize>(
    imp: MlKemImpl,
    p: Params,
    d: &[u8; 32],
    z: &[u8; 32],
    dk: &mut [u8],
    draft: bool,
) {
    let (dk_pke, rest) = dk.split_at_mut(384 * K);
    let (ek, rest) = rest.split_at_mut(384 * K + 32);
    let (hash, z_out) = rest.split_at_mut(32);
    let mut rho = [0u8; 32];
    let mut sigma = Zeroizing::new([0u8; 32]);
    let k = [K as u8];
    g(d, if draft { &[] } else { &k }, &mut rho, &mut sigma);
    // ρ is published in ek: the rejection sampling of Â may branch on it (a no-op unless
    // core-hash's `ct-check` feature runs this under valgrind).
    let rho = core_hash::declassify(rho);
    pke_keygen::<K>(imp, p, &rho, &sigma, dk_pke, ek);
    hash.copy_from_slice(&h(ek));
    z_out.copy_from_slice(z);
}

/// K-PKE.KeyGen (FIPS 203 Algorithm 13) after G: writes the encoded ŝ to `dk_pke` and the
/// encryption key to `ek`. Not inlined, so its polynomials are not on the stack while G and
/// H run.
#[inline(never)]
fn pke_keygen<const K: usize>(
    imp: MlKemImpl,
    p: Params,
    rho: &[u8; 32],
    sigma: &[u8; 32],
    dk_pke: &mut [u8],
    ek: &mut [u8],
) {
    match imp {
        #[cfg(target_arch = "x86_64")]
        MlKemImpl::X86Avx2(_) => pke_keygen_whole::<K>(imp, p, rho, sigma, dk_pke, ek),
        #[cfg(target_arch = "aarch64")]
        MlKemImpl::Aarch64(_) => pke_keygen_whole::<K>(imp, p, rho, sigma, dk_pke, ek),
        #[allow(unreachable_patterns)]
        _ => pke_keygen_streamed::<K>(imp, p, rho, sigma, dk_pke, ek),
    }
}

/// [`pke_keygen`] for the small cores (`portable`, `thumb1`), as [`encrypt_streamed`]: ŝ is
/// encoded into `dk_pke` as soon as it is sampled, and each entry of Â is multiplied by it
/// [`CHUNK`] coefficients at a time, so only the accumulator and the noise polynomial are
/// whole.
fn pke_keygen_streamed<const K: usize>(
    imp: MlKemImpl,
    p: Params,
    rho: &[u8; 32],
    sigma: &[u8; 32],
    dk_pke: &mut [u8],
    ek: &mut [u8],
) {
    let mut acc = Poly::ZERO;
    let mut e = Poly::ZERO;
    // Slices by index, not `chunks_exact`: its length division is a library call on the
    // Cortex-M0, which the division scan refuses.
    for j in 0..K {
        acc.0 = [0; poly::N];
        poly::sample_cbd_add(imp.keccak(), p.eta1, sigma, j as u8, &mut acc);
        imp.ntt(&mut acc);
        imp.encode12(&acc, &mut dk_pke[384 * j..384 * (j + 1)]);
    }
    for i in 0..K {
        // t̂[i] = Σ_j Â[i, j] ∘ ŝ[j] + ê[i], with Â[i, j] = SampleNTT(ρ ‖ j ‖ i).
        acc.0 = [0; poly::N];
        for j in 0..K {
            if let Some(s) = dk_pke[384 * j..].first_chunk::<384>() {
                sample_ntt_times(imp, rho, [j as u8, i as u8], Factor::Encoded(s), &mut acc);
            }
        }
        imp.to_mont(&mut acc);
        e.0 = [0; poly::N];
        poly::sample_cbd_add(imp.keccak(), p.eta1, sigma, (K + i) as u8, &mut e);
        imp.ntt(&mut e);
        add_assign(&mut acc, &e);
        imp.reduce_sum(&mut acc);
        imp.encode12(&acc, &mut ek[384 * i..384 * (i + 1)]);
    }
    ek[384 * K..].copy_from_slice(rho);
    acc.zeroize();
    e.zeroize();
}

/// [`pke_keygen`] on whole polynomials, for the backends that multiply them in vector
/// registers (`x86_avx2`, `aarch64`).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn pke_keygen_whole<const K: usize>(
    imp: MlKemImpl,
    p: Params,
    rho: &[u8; 32],
    sigma: &[u8; 32],
    dk_pke: &mut [u8],
    ek: &mut [u8],
) {
    let mut scratch = Scratch::<K>::ZERO;
    let Scratch { vec: s_hat, acc, tmp } = &mut scratch;
    // ŝ and ê: one draw of 2k polynomials, so ML-KEM-512's four take one four-way call.
    let mut noise = Noise::new(imp, p.eta1, sigma, 0, 2 * K);
    for s in s_hat.iter_mut() {
        noise.next(s);
        imp.ntt(s);
    }
    let a_hat = Matrix::<K>::new(imp, rho, false);
    for i in 0..K {
        // t̂[i] = Σ_j Â[i, j] ∘ ŝ[j] + ê[i], with Â[i, j] = SampleNTT(ρ ‖ j ‖ i).
        a_hat.row_times(i, acc, tmp, |j, acc, a| imp.basemul_acc(acc, a, &s_hat[j]));
        imp.to_mont(acc);
        noise.next(tmp);
        imp.ntt(tmp);
        add_assign(acc, tmp);
        imp.reduce(acc);
        imp.encode12(acc, &mut ek[384 * i..384 * (i + 1)]);
    }
    ek[384 * K..].copy_from_slice(rho);
    for (s, out) in s_hat.iter().zip(dk_pke.chunks_exact_mut(384)) {
        imp.encode12(s, out);
    }
}

/// The matrix Â of ρ (FIPS 203 Algorithms 13 and 14), entry (i, j) of row i being
/// SampleNTT(ρ ‖ `index(i, j)`): ρ ‖ j ‖ i for Â itself, ρ ‖ i ‖ j for its transpose.
/// Portable code samples each entry just before its product, so only one is ever held;
/// `x86_avx2` samples all k² entries four at a time on the four-way Keccak-f when built
/// (k² ≤ 16 polynomials, 8 KiB of a server's stack), so no lane of the four idles but in the
/// last batch.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
struct Matrix<'a, const K: usize> {
    imp: MlKemImpl,
    rho: &'a [u8],
    transposed: bool,
    #[cfg(target_arch = "x86_64")]
    entries: Option<[[Poly; K]; K]>,
}

#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
impl<'a, const K: usize> Matrix<'a, K> {
    fn new(imp: MlKemImpl, rho: &'a [u8], transposed: bool) -> Self {
        #[cfg(target_arch = "x86_64")]
        if let MlKemImpl::X86Avx2(token) = imp {
            let mut entries = [const { [const { Poly::ZERO }; K] }; K];
            let mut index = [[0u8; 2]; 16];
            for (n, ij) in index.iter_mut().take(K * K).enumerate() {
                *ij = Self::index(transposed, n / K, n % K);
            }
            let flat = entries.as_flattened_mut();
            for (idx, out) in index[..K * K].chunks(4).zip(flat.chunks_mut(4)) {
                // A last entry alone (k = 3) goes to the single-state Keccak-f: about 0.6 of
                // a four-way call (perf, Zen 5).
                if let ([[a, b]], [p]) = (idx, &mut *out) {
                    sample_ntt(imp.keccak(), rho, *a, *b, p);
                } else {
                    super::x86_avx2::sample_ntt_x4(token, rho, idx, out);
                }
            }
            return Self { imp, rho, transposed, entries: Some(entries) };
        }
        Self {
            imp,
            rho,
            transposed,
            #[cfg(target_arch = "x86_64")]
            entries: None,
        }
    }

    /// The two index bytes of entry (i, j).
    fn index(transposed: bool, i: usize, j: usize) -> [u8; 2] {
        if transposed { [i as u8, j as u8] } else { [j as u8, i as u8] }
    }

    /// `acc` = Σ_j M[i, j] ∘ v[j] (times the backend's factor): row i times a vector, the
    /// product of each entry `a` = M[i, j] being `times(j, acc, a)` (which adds `a ∘ v[j]` to
    /// `acc`), `tmp` as scratch.
    fn row_times(
        &self,
        i: usize,
        acc: &mut Poly,
        tmp: &mut Poly,
        mut times: impl FnMut(usize, &mut Poly, &Poly),
    ) {
        acc.0 = [0; poly::N];
        #[cfg(target_arch = "x86_64")]
        if let Some(entries) = &self.entries {
            for (j, a) in entries[i].iter().enumerate() {
                times(j, acc, a);
            }
            return;
        }
        let keccak = self.imp.keccak();
        for j in 0..K {
            let [a, b] = Self::index(self.transposed, i, j);
            sample_ntt(keccak, self.rho, a, b, tmp);
            times(j, acc, tmp);
        }
    }
}

/// K-PKE.Encrypt (FIPS 203 Algorithm 14) of the message `m` with randomness `r` under `ek`,
/// into `out`; returns the comparison's difference (zero when equal, and when writing). `V`
/// is k − 1 (a const parameter of its own: array lengths cannot be computed from `K`);
/// `last`, room for ŷ[k−1] on the small cores (see [`encrypt_streamed`]).
fn encrypt<const K: usize, const V: usize>(
    imp: MlKemImpl,
    p: Params,
    ek: &[u8],
    m: &[u8; 32],
    r: &[u8; 32],
    out: Sink<'_>,
    last: Option<&mut [u8; 384]>,
) -> u8 {
    match imp {
        #[cfg(target_arch = "x86_64")]
        MlKemImpl::X86Avx2(_) => encrypt_whole::<K>(imp, p, ek, m, r, out),
        #[cfg(target_arch = "aarch64")]
        MlKemImpl::Aarch64(_) => encrypt_whole::<K>(imp, p, ek, m, r, out),
        #[allow(unreachable_patterns)]
        _ => encrypt_streamed::<K, V>(imp, p, ek, m, r, out, last),
    }
}

/// [`encrypt`] for the small cores (`portable`, `thumb1`): ŷ[0..k−1] are kept encoded (384
/// bytes a polynomial, not 512), and each entry of Â and each t̂[j] go into the one
/// accumulator [`CHUNK`] coefficients at a time (multiplied by the encoded ŷ[j] directly),
/// the noise a coefficient at a time, so no polynomial but the accumulator is ever whole.
/// ŷ[k−1] is kept encoded in `last` when the caller has room for it; otherwise only y[k−1]
/// is kept (3 bits a coefficient, 96 bytes), and each row rebuilds ŷ[k−1] = NTT(y[k−1]) in
/// the accumulator and multiplies it there by its entry ([`Factor::Acc`]) before adding the
/// other products: three more NTTs (about 66 000 Cortex-M0+ cycles for ML-KEM-768) for 288
/// bytes less stack. Polynomials then take 768 + 96 + 512 bytes for ML-KEM-768 where
/// [`encrypt_whole`] holds 2.5 KiB.
#[inline(never)]
fn encrypt_streamed<const K: usize, const V: usize>(
    imp: MlKemImpl,
    p: Params,
    ek: &[u8],
    m: &[u8; 32],
    r: &[u8; 32],
    mut out: Sink<'_>,
    mut last: Option<&mut [u8; 384]>,
) -> u8 {
    const { assert!(V + 1 == K) };
    let rho = &ek[384 * K..];
    let mut y_hat = [[0u8; 384]; V];
    let mut y_last = [0u8; poly::NOISE_BYTES];
    let mut acc = Poly::ZERO;
    for j in 0..K {
        acc.0 = [0; poly::N];
        poly::sample_cbd_add(imp.keccak(), p.eta1, r, j as u8, &mut acc);
        let Some(y) = y_hat.get_mut(j).or(last.as_deref_mut()) else {
            poly::pack_noise(&acc, &mut y_last);
            break;
        };
        imp.ntt(&mut acc);
        imp.encode12(&acc, y);
    }
    let last = last.as_deref();
    let u_len = 32 * p.du as usize;
    for i in 0..K {
        // u[i] = NTT^−1(Σ_j Â[j, i] ∘ ŷ[j]) + e₁[i], with Â[j, i] = SampleNTT(ρ ‖ i ‖ j).
        let y = start_last(imp, &y_last, last, &mut acc);
        sample_ntt_times(imp, rho, [i as u8, V as u8], y, &mut acc);
        for (j, y) in y_hat.iter().enumerate() {
            sample_ntt_times(imp, rho, [i as u8, j as u8], Factor::Encoded(y), &mut acc);
        }
        imp.inv_ntt(&mut acc);
        poly::sample_cbd_add(imp.keccak(), ETA2, r, (K + i) as u8, &mut acc);
        imp.reduce_sum(&mut acc);
        imp.compress_encode(&acc, p.du, |k, b| out.put(u_len * i + k, b));
    }
    // v = NTT^−1(Σ_j t̂[j] ∘ ŷ[j]) + e₂ + Decompress₁(m).
    let t_hat = ek.as_chunks::<384>().0;
    let y = start_last(imp, &y_last, last, &mut acc);
    if let Some(t) = t_hat.get(V) {
        encoded_times(imp, t, y, &mut acc);
    }
    for (t, y) in t_hat.iter().zip(&y_hat) {
        encoded_times(imp, t, Factor::Encoded(y), &mut acc);
    }
    imp.inv_ntt(&mut acc);
    poly::sample_cbd_add(imp.keccak(), ETA2, r, (2 * K) as u8, &mut acc);
    poly::add_message(m, &mut acc);
    imp.reduce(&mut acc);
    imp.compress_encode(&acc, p.dv, |k, b| out.put(u_len * K + k, b));
    y_hat.zeroize();
    y_last.zeroize();
    acc.zeroize();
    match out {
        Sink::Write(_) => 0,
        Sink::Compare { diff, .. } => diff,
    }
}

/// Starts the accumulator of a row of [`encrypt_streamed`] for the product by ŷ[k−1]: zero,
/// with ŷ[k−1] kept encoded in `last`, or else ŷ[k−1] itself, rebuilt from y[k−1] (packed in
/// `y_last`), for the first product to replace.
fn start_last<'a>(
    imp: MlKemImpl,
    y_last: &[u8; poly::NOISE_BYTES],
    last: Option<&'a [u8; 384]>,
    acc: &mut Poly,
) -> Factor<'a> {
    if let Some(y) = last {
        acc.0 = [0; poly::N];
        return Factor::Encoded(y);
    }
    poly::unpack_noise(y_last, acc);
    imp.ntt(acc);
    Factor::Acc
}

/// The polynomial a streamed product multiplies by, [`CHUNK`] coefficients at a time.
#[derive(Clone, Copy)]
enum Factor<'a> {
    /// Encoded by ByteEncode_12 (ŷ[j], 384 bytes): the product is added to the accumulator.
    Encoded(&'a [u8; 384]),
    /// The accumulator itself (coefficients in `-q..q`): the product replaces it.
    Acc,
}

impl Factor<'_> {
    /// Chunk `c` of the product by `a` (times the backend's factor; `a` public, below 4096)
    /// into `out`, the same chunk of the accumulator: added, or for [`Factor::Acc`]
    /// replacing it ([`times_in_place`]).
    #[inline(always)]
    fn times(self, imp: MlKemImpl, c: usize, out: &mut [i16; CHUNK], a: &[i16; CHUNK]) {
        match self {
            Self::Encoded(v) => {
                if let Some(v) = v.as_chunks::<{ CHUNK / 4 * 6 }>().0.get(c) {
                    imp.basemul_encoded(out, a, v.as_chunks::<6>().0, c * CHUNK / 4);
                }
            }
            Self::Acc => times_in_place(imp, c, out, a),
        }
    }
}

/// `out = a ∘ out` on chunk `c` (times the backend's factor): `out` (in `-q..q`) is encoded
/// into a buffer and cleared, and multiplied back in. Not inlined, so its buffer is not in
/// the sampler's frame while Keccak-f runs.
#[inline(never)]
fn times_in_place(imp: MlKemImpl, c: usize, out: &mut [i16; CHUNK], a: &[i16; CHUNK]) {
    let mut b = [0u8; CHUNK / 4 * 6];
    for (b, x) in b.as_chunks_mut::<3>().0.iter_mut().zip(out.as_chunks::<2>().0) {
        let w = u32::from(poly::to_unsigned(x[0])) | (u32::from(poly::to_unsigned(x[1])) << 12);
        *b = [w as u8, (w >> 8) as u8, (w >> 16) as u8];
    }
    *out = [0; CHUNK];
    imp.basemul_encoded(out, a, b.as_chunks::<6>().0, c * CHUNK / 4);
    b.zeroize();
}

/// Coefficients of a matrix entry (or of t̂[j]) that [`encrypt_streamed`] holds at once:
/// eight quads, one product call.
const CHUNK: usize = 32;

/// `acc += SampleNTT(ρ ‖ idx) ∘ v` (times the backend's product factor; with `v` the
/// accumulator itself, `acc = SampleNTT(ρ ‖ idx) ∘ acc`), the entry multiplied in [`CHUNK`]
/// coefficients at a time as the rejection sampler yields them: it is never whole. The
/// matrix is public, so the sampler may branch on its values. Not inlined, so its Keccak
/// state is not in the caller's frame while the noise sampler's is.
#[inline(never)]
fn sample_ntt_times(imp: MlKemImpl, rho: &[u8], idx: [u8; 2], v: Factor<'_>, acc: &mut Poly) {
    let mut xof = OneBlockShake::<168>::new(imp.keccak(), &[rho, &idx]);
    // Eight triples of bytes (two 12-bit values each), three lanes of the state.
    let mut block = [0u8; 24];
    let mut at = block.len();
    // One place more than a chunk: values are written two at a time, the second kept only
    // if below q, and one past the chunk is the next chunk's first.
    let mut chunk = [0i16; CHUNK + 1];
    let mut n = 0;
    for (c, out) in acc.0.as_chunks_mut::<CHUNK>().0.iter_mut().enumerate() {
        while n < CHUNK {
            if at >= block.len() {
                xof.read(&mut block);
                at = 0;
            }
            (at, n) = rejection_chunk(imp, &block, at, &mut chunk, n);
        }
        if let Some(a) = chunk.first_chunk::<CHUNK>() {
            v.times(imp, c, out, a);
        }
        chunk[0] = chunk[CHUNK];
        n -= CHUNK;
    }
}

/// `SampleNTT`'s rejection step for [`sample_ntt_times`]: the 12-bit values of `block`'s
/// triples from byte `at` on that are below q, appended to `chunk` from place `n` on until
/// it holds a chunk or the block is used up; returns the new `at` and `n`.
#[inline(always)]
fn rejection_chunk(
    imp: MlKemImpl,
    block: &[u8; 24],
    at: usize,
    chunk: &mut [i16; CHUNK + 1],
    n: usize,
) -> (usize, usize) {
    let bytes = block.get(at..).unwrap_or_default();
    let (used, kept) = imp.rejection_sample(bytes, chunk.get_mut(n..).unwrap_or_default());
    (at + used, n + kept)
}

/// `acc += t ∘ v` (times the backend's product factor; with `v` the accumulator itself,
/// `acc = t ∘ acc`) for `t` encoded (t̂[j] from the encapsulation key): `t` is decoded
/// [`CHUNK`] coefficients at a time. Not inlined, so its chunk is not in the caller's frame
/// while the samplers run.
#[inline(never)]
fn encoded_times(imp: MlKemImpl, t: &[u8; 384], v: Factor<'_>, acc: &mut Poly) {
    let mut chunk = [0i16; CHUNK];
    let outs = acc.0.as_chunks_mut::<CHUNK>().0.iter_mut();
    for (c, (out, t)) in outs.zip(t.as_chunks::<{ CHUNK / 4 * 6 }>().0).enumerate() {
        for (pair, b) in chunk.as_chunks_mut::<2>().0.iter_mut().zip(t.as_chunks::<3>().0) {
            let (b0, b1, b2) = (u16::from(b[0]), u16::from(b[1]), u16::from(b[2]));
            pair[0] = (b0 | ((b1 & 0x0f) << 8)).cast_signed();
            pair[1] = ((b1 >> 4) | (b2 << 4)).cast_signed();
        }
        v.times(imp, c, out, &chunk);
    }
}

/// [`encrypt`] on whole polynomials, for the backends that multiply them in vector registers
/// (`x86_avx2`, `aarch64`).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn encrypt_whole<const K: usize>(
    imp: MlKemImpl,
    p: Params,
    ek: &[u8],
    m: &[u8; 32],
    r: &[u8; 32],
    mut out: Sink<'_>,
) -> u8 {
    let rho = &ek[384 * K..];
    let mut scratch = Scratch::<K>::ZERO;
    let Scratch { vec: y_hat, acc, tmp } = &mut scratch;
    sample_noise(imp, p.eta1, r, 0, y_hat);
    for y in y_hat.iter_mut() {
        imp.ntt(y);
    }
    // e₁ (k polynomials) and e₂, in nonce order.
    let mut e = Noise::new(imp, ETA2, r, K as u8, K + 1);
    let u_len = 32 * p.du as usize;
    let a_hat_t = Matrix::<K>::new(imp, rho, true);
    for i in 0..K {
        // u[i] = NTT^−1(Σ_j Â[j, i] ∘ ŷ[j]) + e₁[i], with Â[j, i] = SampleNTT(ρ ‖ i ‖ j).
        a_hat_t.row_times(i, acc, tmp, |j, acc, a| imp.basemul_acc(acc, a, &y_hat[j]));
        imp.inv_ntt(acc);
        e.next(tmp);
        add_assign(acc, tmp);
        imp.reduce(acc);
        imp.compress_encode(acc, p.du, |k, b| out.put(u_len * i + k, b));
    }
    // v = NTT^−1(Σ_j t̂[j] ∘ ŷ[j]) + e₂ + Decompress₁(m).
    acc.0 = [0; poly::N];
    for (j, y) in y_hat.iter().enumerate() {
        imp.decode12(&ek[384 * j..384 * (j + 1)], tmp);
        imp.basemul_acc(acc, tmp, y);
    }
    imp.inv_ntt(acc);
    e.next(tmp);
    add_assign(acc, tmp);
    imp.decode_message(m, tmp);
    add_assign(acc, tmp);
    imp.reduce(acc);
    imp.compress_encode(acc, p.dv, |k, b| out.put(u_len * K + k, b));
    match out {
        Sink::Write(_) => 0,
        Sink::Compare { diff, .. } => diff,
    }
}

/// K-PKE.Decrypt (FIPS 203 Algorithm 15): the message in `c` under the encoded ŝ `dk_pke`.
/// Not inlined, so its three polynomials are off the stack before re-encryption.
#[inline(never)]
fn decrypt<const K: usize>(imp: MlKemImpl, p: Params, dk_pke: &[u8], c: &[u8], m: &mut [u8; 32]) {
    let u_len = 32 * p.du as usize;
    let mut scratch = Scratch::<1>::ZERO;
    let Scratch { vec: [u], acc, tmp: s } = &mut scratch;
    // w = v' − NTT^−1(Σ_i ŝ[i] ∘ NTT(u'[i]))
    for i in 0..K {
        imp.decode_decompress(&c[u_len * i..u_len * (i + 1)], p.du, u);
        imp.ntt(u);
        imp.basemul_acc_encoded(acc, u, &dk_pke[384 * i..384 * (i + 1)], s);
    }
    imp.inv_ntt(acc);
    imp.decode_decompress(&c[u_len * K..], p.dv, u);
    for (w, v) in acc.0.iter_mut().zip(&u.0) {
        *w = v.wrapping_sub(*w);
    }
    imp.reduce(acc);
    imp.encode_message(acc, m);
}

/// ML-KEM.Encaps_internal (FIPS 203 Algorithm 17): writes the ciphertext of `m` under `ek`
/// (whose hash H(ek) is `h_ek`) into `ct` and returns the shared key.
pub(crate) fn encaps<const K: usize, const V: usize>(
    imp: MlKemImpl,
    p: Params,
    ek: &[u8],
    h_ek: &[u8; 32],
    m: &[u8; 32],
    ct: &mut [u8],
) -> [u8; 32] {
    let mut key = [0u8; 32];
    let mut r = Zeroizing::new([0u8; 32]);
    g(m, h_ek, &mut key, &mut r);
    // Room for ŷ[k−1] on the small cores, which stream (encapsulation's stack has it).
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let mut last = Zeroizing::new([0u8; 384]);
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let last = Some(&mut *last);
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    let last = None;
    encrypt::<K, V>(imp, p, ek, m, &r, Sink::Write(ct), last);
    key
}

/// K̄ = J(z ‖ c) = SHAKE256(z ‖ c, 32) (FIPS 203 §4.1), the key implicit rejection returns.
/// Not inlined, like [`g`].
#[inline(never)]
fn j(z: &[u8], c: &[u8], out: &mut [u8; 32]) {
    let mut j = Shake256::new();
    j.update(z);
    j.update(c);
    let mut reader = j.finalize_xof();
    reader.read(out);
    reader.zeroize();
}

/// ML-KEM.Decaps_internal (FIPS 203 Algorithm 18) with implicit rejection: writes to `key`
/// the shared key of `ct` under `dk`, or J(z ‖ c) if re-encryption does not give `ct` back —
/// chosen by a constant-time selection after comparing every byte. The key goes straight
/// into the caller's storage, and K̄ is computed after the re-encryption, so neither is a
/// second 32 bytes on the stack while it runs (the deepest point of a Cortex-M0's
/// decapsulation).
pub(crate) fn decaps<const K: usize, const V: usize>(
    imp: MlKemImpl,
    p: Params,
    dk: &[u8],
    ct: &[u8],
    key: &mut [u8; 32],
) {
    let dk_pke = &dk[..384 * K];
    let ek = &dk[384 * K..768 * K + 32];
    let h_ek = &dk[768 * K + 32..768 * K + 64];
    let z = &dk[768 * K + 64..768 * K + 96];

    let mut m = Zeroizing::new([0u8; 32]);
    decrypt::<K>(imp, p, dk_pke, ct, &mut m);
    let mut r = Zeroizing::new([0u8; 32]);
    g(&m[..], h_ek, key, &mut r);

    let diff = encrypt::<K, V>(imp, p, ek, &m, &r, Sink::Compare { expected: ct, diff: 0 }, None);
    let equal = diff.ct_eq(&0);
    let mut rejected = [0u8; 32];
    j(z, ct, &mut rejected);
    for (k, bar) in key.iter_mut().zip(&rejected) {
        k.conditional_assign(bar, !equal);
    }
    rejected.zeroize();
}
