//! K-PKE and ML-KEM (FIPS 203 §5 and §6) over any backend, written for a small stack: the
//! matrix Â is never held whole; each entry is sampled when it is needed and multiplied into
//! one accumulator, each row of the result is encoded (or, when decapsulation re-encrypts,
//! compared) as soon as it is complete, and noise polynomials are sampled one at a time. What
//! stays live is one vector of k polynomials (ŝ or ŷ), an accumulator and a scratch polynomial.

use super::MlKemImpl;
use super::poly::{self, Poly, add_assign, sample_cbd, sample_ntt};
use core_hash::{Sha3_256, Sha3_512, Shake256};
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
/// so its state is off the stack before the polynomial work that follows.
#[inline(never)]
fn g(a: &[u8], b: &[u8], first: &mut [u8; 32], second: &mut [u8; 32]) {
    let mut h = Sha3_512::new();
    h.update(a);
    h.update(b);
    let mut out = h.finalize();
    first.copy_from_slice(&out[..32]);
    second.copy_from_slice(&out[32..]);
    out.zeroize();
}

/// H = SHA3-256 (FIPS 203 §4.1).
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
    fn new() -> Self {
        Self { vec: [const { Poly::ZERO }; K], acc: Poly::ZERO, tmp: Poly::ZERO }
    }
}

impl<const K: usize> Drop for Scratch<K> {
    fn drop(&mut self) {
        self.vec.zeroize();
        self.acc.zeroize();
        self.tmp.zeroize();
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
    let keccak = imp.keccak();

    let mut scratch = Scratch::<K>::new();
    let Scratch { vec: s_hat, acc, tmp } = &mut scratch;
    for (i, s) in s_hat.iter_mut().enumerate() {
        sample_cbd(keccak, p.eta1, sigma, i as u8, s);
        imp.ntt(s);
    }
    for i in 0..K {
        // t̂[i] = Σ_j Â[i, j] ∘ ŝ[j] + ê[i], with Â[i, j] = SampleNTT(ρ ‖ j ‖ i).
        row_times_vector(imp, rho, |j| [j as u8, i as u8], s_hat, acc, tmp);
        imp.to_mont(acc);
        sample_cbd(keccak, p.eta1, sigma, (K + i) as u8, tmp);
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

/// `acc` = Σ_j M_j ∘ `vec[j]` (times R^−1), where M_j = SampleNTT(ρ ‖ `index(j)`): one row of
/// Â (or of its transpose) times a vector. Portable code samples each entry into `tmp` just
/// before its product, so only one is ever held; `x86_avx2` samples the whole row (k ≤ 4
/// entries) at once on the four-way Keccak-f, for the stack of a server.
fn row_times_vector<const K: usize>(
    imp: MlKemImpl,
    rho: &[u8],
    index: impl Fn(usize) -> [u8; 2],
    vec: &[Poly; K],
    acc: &mut Poly,
    tmp: &mut Poly,
) {
    acc.0 = [0; poly::N];
    #[cfg(target_arch = "x86_64")]
    if let MlKemImpl::X86Avx2(token) = imp {
        let mut row = [const { Poly::ZERO }; K];
        let index: [[u8; 2]; K] = core::array::from_fn(index);
        super::x86_avx2::sample_ntt_x4(token, rho, &index, &mut row);
        for (a, v) in row.iter().zip(vec) {
            imp.basemul_acc(acc, a, v);
        }
        return;
    }
    let keccak = imp.keccak();
    for (j, v) in vec.iter().enumerate() {
        let [a, b] = index(j);
        sample_ntt(keccak, rho, a, b, tmp);
        imp.basemul_acc(acc, tmp, v);
    }
}

/// K-PKE.Encrypt (FIPS 203 Algorithm 14) of the message `m` with randomness `r` under `ek`,
/// into `out`; returns the comparison's difference (zero when equal, and when writing).
fn encrypt<const K: usize>(
    imp: MlKemImpl,
    p: Params,
    ek: &[u8],
    m: &[u8; 32],
    r: &[u8; 32],
    mut out: Sink<'_>,
) -> u8 {
    let rho = &ek[384 * K..];
    let keccak = imp.keccak();
    let mut scratch = Scratch::<K>::new();
    let Scratch { vec: y_hat, acc, tmp } = &mut scratch;
    for (i, y) in y_hat.iter_mut().enumerate() {
        sample_cbd(keccak, p.eta1, r, i as u8, y);
        imp.ntt(y);
    }
    let u_len = 32 * p.du as usize;
    for i in 0..K {
        // u[i] = NTT^−1(Σ_j Â[j, i] ∘ ŷ[j]) + e₁[i], with Â[j, i] = SampleNTT(ρ ‖ i ‖ j).
        row_times_vector(imp, rho, |j| [i as u8, j as u8], y_hat, acc, tmp);
        imp.inv_ntt(acc);
        sample_cbd(keccak, ETA2, r, (K + i) as u8, tmp);
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
    sample_cbd(keccak, ETA2, r, (2 * K) as u8, tmp);
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
    let mut scratch = Scratch::<1>::new();
    let Scratch { vec: [u], acc, tmp: s } = &mut scratch;
    // w = v' − NTT^−1(Σ_i ŝ[i] ∘ NTT(u'[i]))
    for i in 0..K {
        imp.decode_decompress(&c[u_len * i..u_len * (i + 1)], p.du, u);
        imp.ntt(u);
        imp.decode12(&dk_pke[384 * i..384 * (i + 1)], s);
        imp.basemul_acc(acc, s, u);
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
pub(crate) fn encaps<const K: usize>(
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
    encrypt::<K>(imp, p, ek, m, &r, Sink::Write(ct));
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

/// ML-KEM.Decaps_internal (FIPS 203 Algorithm 18) with implicit rejection: the shared key of
/// `ct` under `dk`, or J(z ‖ c) if re-encryption does not give `ct` back — chosen by a
/// constant-time selection after comparing every byte.
pub(crate) fn decaps<const K: usize>(imp: MlKemImpl, p: Params, dk: &[u8], ct: &[u8]) -> [u8; 32] {
    let dk_pke = &dk[..384 * K];
    let ek = &dk[384 * K..768 * K + 32];
    let h_ek = &dk[768 * K + 32..768 * K + 64];
    let z = &dk[768 * K + 64..768 * K + 96];

    let mut m = Zeroizing::new([0u8; 32]);
    decrypt::<K>(imp, p, dk_pke, ct, &mut m);
    let mut key = [0u8; 32];
    let mut r = Zeroizing::new([0u8; 32]);
    g(&m[..], h_ek, &mut key, &mut r);

    let mut rejected = [0u8; 32];
    j(z, ct, &mut rejected);

    let diff = encrypt::<K>(imp, p, ek, &m, &r, Sink::Compare { expected: ct, diff: 0 });
    let equal = diff.ct_eq(&0);
    for (k, bar) in key.iter_mut().zip(&rejected) {
        k.conditional_assign(bar, !equal);
    }
    rejected.zeroize();
    key
}
