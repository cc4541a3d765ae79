//! rustls's TLS 1.2 PRF ([`Prf`]) straight on `core_hash::tls12_prf`: the keyed HMAC lives
//! on the stack, where rustls's generic `PrfUsingHmac` boxes one per call (behind two dynamic
//! calls per block) and computes one `A(i)` more than it uses.

use rustls::Error;
use rustls::crypto::ActiveKeyExchange;
use rustls::crypto::tls12::Prf;
use rustls::version::TLS12;

/// The TLS 1.2 PRF (RFC 5246 §5) over hash `H`.
pub(crate) struct Tls12Prf<H>(core::marker::PhantomData<fn() -> H>);

/// The TLS 1.2 PRF over SHA-256.
pub(crate) static PRF_SHA256: Tls12Prf<core_hash::Sha256> = Tls12Prf(core::marker::PhantomData);
/// The TLS 1.2 PRF over SHA-384.
pub(crate) static PRF_SHA384: Tls12Prf<core_hash::Sha384> = Tls12Prf(core::marker::PhantomData);

impl<H: core_hash::Hash> Prf for Tls12Prf<H> {
    fn for_key_exchange(
        &self,
        output: &mut [u8; 48],
        kx: Box<dyn ActiveKeyExchange>,
        peer_pub_key: &[u8],
        label: &[u8],
        seed: &[u8],
    ) -> Result<(), Error> {
        let secret = kx.complete_for_tls_version(peer_pub_key, &TLS12)?;
        core_hash::tls12_prf::<H>(secret.secret_bytes(), label, &[seed], output);
        Ok(())
    }

    fn for_secret(&self, output: &mut [u8], secret: &[u8], label: &[u8], seed: &[u8]) {
        core_hash::tls12_prf::<H>(secret, label, &[seed], output);
    }
}

#[cfg(test)]
mod tests {
    use rustls::crypto::ring::cipher_suite as ring;
    use rustls::crypto::tls12::Prf;

    use super::{PRF_SHA256, PRF_SHA384};

    fn ring_prf(suite: rustls::SupportedCipherSuite) -> &'static dyn Prf {
        match suite {
            rustls::SupportedCipherSuite::Tls12(s) => s.prf_provider,
            rustls::SupportedCipherSuite::Tls13(_) => panic!("not a TLS 1.2 suite"),
        }
    }

    /// Equal to ring's provider for output lengths around the hash lengths (Finished, the key
    /// blocks, the master secret, and longer).
    #[test]
    fn equals_rings() {
        let cases: [(&dyn Prf, &dyn Prf); 2] = [
            (&PRF_SHA256, ring_prf(ring::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)),
            (&PRF_SHA384, ring_prf(ring::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384)),
        ];
        for (ours, ring) in cases {
            for len in [1, 12, 31, 32, 33, 40, 48, 72, 97, 200] {
                let secret: Vec<u8> = (0..len as u8).map(|i| i.wrapping_mul(37)).collect();
                let seed = [len as u8; 64];
                let mut a = vec![0u8; len];
                let mut b = vec![0u8; len];
                ours.for_secret(&mut a, &secret, b"key expansion", &seed);
                ring.for_secret(&mut b, &secret, b"key expansion", &seed);
                assert_eq!(a, b, "length {len}");
            }
        }
    }
}
