//! P-521 on every implementation: Wycheproof ECDH (SPKI and raw point) and ECDSA (DER and
//! P1363), RFC 6979 A.2.7 deterministic signatures, key and signature encodings, every
//! implementation against every other, and differential checks against RustCrypto `p521`
//! (ring has no P-521).

mod nist_common;

use nist_common::Counts as C;

// Counts are (valid passed, invalid rejected, acceptable seen, acceptable accepted), on every
// implementation. ECDH over SPKI: the acceptable cases are BER-flavoured encodings
// (`InvalidAsn`) and explicit curve parameters (`UnnamedCurve`), which the strict DER parser
// refuses, and one compressed point, which is accepted. ECDSA sets have no acceptable cases.
nist_suite!(
    p521, P521Impl, 66,
    ecdh: EcdhSecp521r1, EcdhSecp521r1Ecpoint,
    ecdsa: EcdsaSecp521r1Sha512, EcdsaSecp521r1Sha512P1363,
    counts: C { valid: 632, invalid: 56, acceptable: 228, acceptable_accepted: 1 },
        C { valid: 632, invalid: 28, acceptable: 1, acceptable_accepted: 1 },
        C { valid: 228, invalid: 301, acceptable: 0, acceptable_accepted: 0 },
        C { valid: 227, invalid: 81, acceptable: 0, acceptable_accepted: 0 }
);

// RustCrypto's P-521 signer draws its nonce at random, so only cross-verification applies.
r_plus_n_branch!(
    66,
    EcdsaSecp521r1Sha512P1363,
    "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409"
);

rustcrypto_differential!(p521, 66, false);

/// RFC 6979 A.2.7: the P-521 key and its signatures with SHA-256 and SHA-512 (the RFC
/// prints 521-bit values in 131 hex digits; they are left-padded to 66 bytes).
#[test]
fn rfc6979_a_2_7() {
    use core_hash::Sha256;
    let x = unhex(
        "00FAD06DAA62BA3B25D2FB40133DA757205DE67F5BB0018FEE8C86E1B68C7E75C
           AA896EB32F1F47C70855836A6D16FCC1466F6D8FBEC67DB89EC0C08B0E996B83538",
    );
    let u = unhex(
        "04 01894550D0785932E00EAA23B694F213F8C3121F86DC97A04E5A7167DB4E5BCD3
              71123D46E45DB6B5D5370A7F20FB633155D38FFA16D2BD761DCAC474B9A2F5023A4
            00493101C962CD4D2FDDF782285E64584139C2F91B47F87FF82354D6630F746A2
              8A0DB25741B5B34A828008B22ACC23F924FAAFBD4D33F81EA66956DFEAA2BFDFCF5",
    );
    for imp in impls() {
        let sk = SigningKey::from(SecretKey::from_bytes_with_impl(&x, imp).unwrap());
        assert_eq!(&sk.verifying_key().to_sec1_bytes()[..], &u[..]);
        let check =
            |sig: Signature, rs: &str| assert_eq!(&sig.to_bytes()[..], &unhex(rs)[..], "{imp:?}");
        check(
            sk.sign_prehash_with::<Sha256>(Sha256::digest(b"sample").as_ref()),
            "01511BB4D675114FE266FC4372B87682BAECC01D3CC62CF2303C92B3526012659
               D16876E25C7C1E57648F23B73564D67F61C6F14D527D54972810421E7D87589E1A7
             004A171143A83163D6DF460AAF61522695F207A58B95C0644D87E52AA1A347916
               E4F7A72930B1BC06DBE22CE3F58264AFD23704CBB63B29B931F7DE6C9D949A7ECFC",
        );
        check(
            sk.sign(b"sample"),
            "00C328FAFCBD79DD77850370C46325D987CB525569FB63C5D3BC53950E6D4C5F1
               74E25A1EE9017B5D450606ADD152B534931D7D4E8455CC91F9B15BF05EC36E377FA
             00617CCE7CF5064806C467F678D3B4080D6F1CC50AF26CA209417308281B68AF2
               82623EAA63E5B5C0723D8B8C37FF0777B1A20F8CCB1DCCC43997F1EE0E44DA4A67A",
        );
        check(
            sk.sign_prehash_with::<Sha256>(Sha256::digest(b"test").as_ref()),
            "000E871C4A14F993C6C7369501900C4BC1E9C7B0B4BA44E04868B30B41D807104
               2EB28C4C250411D0CE08CD197E4188EA4876F279F90B3D8D74A3C76E6F1E4656AA8
             00CD52DBAA33B063C3A6CD8058A1FB0A46A4754B034FCC644766CA14DA8CA5CA9
               FDE00E88C1AD60CCBA759025299079D7A427EC3CC5B619BFBC828E7769BCD694E86",
        );
        let sig = sk.sign(b"test");
        check(
            sig,
            "013E99020ABF5CEE7525D16B69B229652AB6BDF2AFFCAEF38773B4B7D08725F10
               CDB93482FDCC54EDCEE91ECA4166B2A7C6265EF0CE2BD7051B7CEF945BABD47EE6D
             01FBD0013C674AA79CB39849527916CE301C66EA7CE8B80682786AD60F98F7E78
               A19CA69EFF5C57400E3B3A0AD66CE0978214D13BAF4E9AC60752F7B155E2DE4DCE3",
        );
        sk.verifying_key().verify(b"test", &sig).unwrap();
    }
}
