//! ECDSA verification on P-256 (SHA-256) and P-384 (SHA-384) against ring: the same verdict on
//! the field implementation the input picks (one per input keeps the rate up; the fuzzer
//! reaches each), for fixed-size and DER signatures. So that valid signatures are
//! reached, the input names a private key (its bytes, pushed into range), a message and a
//! mode: the signature made with that key as it is, with one bit flipped in the signature, the
//! message or the public key, or signature and public key taken from the input as they are.
#![no_main]

use halite_fuzz::{Input, every, flip};
use libfuzzer_sys::fuzz_target;
use ring::signature::{
    ECDSA_P256_SHA256_ASN1, ECDSA_P256_SHA256_FIXED, ECDSA_P384_SHA384_ASN1,
    ECDSA_P384_SHA384_FIXED, UnparsedPublicKey, VerificationAlgorithm,
};

macro_rules! check {
    ($curve:ident, $imp:ident, $fixed:expr, $asn1:expr, $input:expr) => {{
        use core_ec::$curve::{$imp as NistImpl, PublicKey, SCALAR_LEN, Signature, SigningKey};
        let input: &mut Input<'_> = $input;
        let mode = input.byte();
        let pick = input.byte();
        let at = usize::from(u16::from_le_bytes(input.array()));
        let mut scalar: [u8; SCALAR_LEN] = input.array();
        // Below the group order of either curve, and never zero.
        scalar[0] &= 0x7f;
        scalar[SCALAR_LEN - 1] |= 1;
        let key = SigningKey::from_bytes(&scalar).expect("scalar in range");
        let msg_len = usize::from(input.byte());
        let mut msg = input.bytes(msg_len).to_vec();
        let sig = key.sign(&msg);
        let mut public = key.verifying_key().to_sec1_bytes().to_vec();
        let mut fixed = sig.to_bytes().to_vec();
        let mut der = sig.to_der().as_ref().to_vec();
        match mode % 6 {
            0 => {}
            1 => flip(&mut fixed, at),
            2 => flip(&mut der, at),
            3 => flip(&mut msg, at),
            4 => flip(&mut public, at),
            _ => {
                let public_len = usize::from(input.byte());
                public = input.bytes(public_len).to_vec();
                let rest = input.rest();
                fixed = rest.to_vec();
                der = rest.to_vec();
            }
        }
        let ring_fixed = verify_ring(&$fixed, &public, &msg, &fixed);
        let ring_der = verify_ring(&$asn1, &public, &msg, &der);
        if mode % 6 == 0 {
            assert!(ring_fixed && ring_der, "ring refused our signature");
        }
        let all = every::<NistImpl>();
        {
            let imp = all[usize::from(pick) % all.len()];
            // ring takes uncompressed points only.
            let ours_key = PublicKey::from_sec1_bytes_with_impl(&public, imp)
                .ok()
                .filter(|_| public.first() == Some(&4));
            let verify = |sig: Result<Signature, core_ec::Error>| {
                let (Some(k), Ok(sig)) = (ours_key, sig) else { return false };
                k.verify(&msg, &sig).is_ok()
            };
            assert_eq!(verify(Signature::from_bytes(&fixed)), ring_fixed, "fixed, {imp:?}");
            assert_eq!(verify(Signature::from_der(&der)), ring_der, "DER, {imp:?}");
        }
    }};
}

fn verify_ring(
    alg: &'static dyn VerificationAlgorithm,
    public: &[u8],
    msg: &[u8],
    sig: &[u8],
) -> bool {
    UnparsedPublicKey::new(alg, public).verify(msg, sig).is_ok()
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    if input.byte().is_multiple_of(2) {
        check!(p256, P256Impl, ECDSA_P256_SHA256_FIXED, ECDSA_P256_SHA256_ASN1, &mut input);
    } else {
        check!(p384, P384Impl, ECDSA_P384_SHA384_FIXED, ECDSA_P384_SHA384_ASN1, &mut input);
    }
});
