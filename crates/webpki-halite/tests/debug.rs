//! The `ECDSA_*` statics read as the `EcdsaVerify` they check with.

use pki_types::SignatureVerificationAlgorithm;
use webpki_halite::{self as verify, Curve, EcdsaVerify, HashAlg};

#[test]
fn ecdsa_statics_read_as_their_ecdsa_verify() {
    let cases = [
        (verify::ECDSA_P256_SHA256, Curve::P256, HashAlg::Sha256),
        (verify::ECDSA_P256_SHA384, Curve::P256, HashAlg::Sha384),
        (verify::ECDSA_P384_SHA384, Curve::P384, HashAlg::Sha384),
        (verify::ECDSA_P521_SHA512, Curve::P521, HashAlg::Sha512),
    ];
    for (alg, curve, hash) in cases {
        assert_eq!(format!("{alg:?}"), format!("{:?}", EcdsaVerify { curve, hash }));
        assert_eq!(alg.signature_alg_id(), EcdsaVerify { curve, hash }.signature_alg_id());
        assert_eq!(alg.public_key_alg_id(), EcdsaVerify { curve, hash }.public_key_alg_id());
    }
}
