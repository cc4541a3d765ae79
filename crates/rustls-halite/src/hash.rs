//! rustls's [`hash::Hash`] over `core_hash`'s SHA-256 and SHA-384: the transcript hash of
//! every handshake.

use rustls::crypto::hash::{self, HashAlgorithm, Output};

/// A `core_hash` hash function as a rustls hash.
pub(crate) struct Hash<H> {
    algorithm: HashAlgorithm,
    _hash: core::marker::PhantomData<fn() -> H>,
}

impl<H> Hash<H> {
    const fn new(algorithm: HashAlgorithm) -> Self {
        Self { algorithm, _hash: core::marker::PhantomData }
    }
}

/// SHA-256.
pub(crate) static SHA256: Hash<core_hash::Sha256> = Hash::new(HashAlgorithm::SHA256);
/// SHA-384.
pub(crate) static SHA384: Hash<core_hash::Sha384> = Hash::new(HashAlgorithm::SHA384);

impl<H: core_hash::Hash + Send + Sync + 'static> hash::Hash for Hash<H> {
    fn start(&self) -> Box<dyn hash::Context> {
        Box::new(Context(H::new()))
    }

    fn hash(&self, data: &[u8]) -> Output {
        Output::new(H::digest(data).as_ref())
    }

    fn output_len(&self) -> usize {
        H::OUTPUT_LEN
    }

    fn algorithm(&self) -> HashAlgorithm {
        self.algorithm
    }
}

/// A running hash.
struct Context<H>(H);

impl<H: core_hash::Hash + Send + Sync + 'static> hash::Context for Context<H> {
    fn fork_finish(&self) -> Output {
        Output::new(self.0.clone().finalize().as_ref())
    }

    fn fork(&self) -> Box<dyn hash::Context> {
        Box::new(Self(self.0.clone()))
    }

    fn finish(self: Box<Self>) -> Output {
        Output::new(self.0.finalize().as_ref())
    }

    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
}
