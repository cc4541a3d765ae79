//! SHA-3 and SHAKE known answers (FIPS 202 examples from NIST's Cryptographic Standards and
//! Guidelines pages: the empty message, "abc", and 200 bytes of 0xA3) on every Keccak
//! implementation, fed whole and in uneven pieces, and random messages in random pieces
//! against each other and against RustCrypto's `sha3`. Speed is measured in `crates/bench`.

use core_hash::{
    Hash, Implementation, KeccakImpl, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256,
};
use hex_literal::hex;
use proptest::prelude::*;

/// Every implementation this CPU can run, including the portable one that `available()` leaves
/// out for this word size; says once which ones it cannot run.
fn implementations() -> Vec<KeccakImpl> {
    static REPORT: std::sync::Once = std::sync::Once::new();
    let mut all: Vec<KeccakImpl> = KeccakImpl::available().collect();
    for name in KeccakImpl::ALL {
        match KeccakImpl::by_name(name) {
            Some(imp) if !all.contains(&imp) => all.push(imp),
            Some(_) => {}
            None => REPORT.call_once(|| {
                let missing: Vec<&str> = KeccakImpl::ALL
                    .iter()
                    .copied()
                    .filter(|n| KeccakImpl::by_name(n).is_none())
                    .collect();
                println!("sha3: not available on this CPU, not checked: {}", missing.join(", "));
            }),
        }
    }
    all
}

/// The 1600-bit message of NIST's SHA-3 examples: 200 bytes of 0xA3.
const A3_200: &[u8] = &[0xA3; 200];

/// Checks `want == H(msg)` on every implementation, whole and in uneven pieces.
fn check<H: Hash<Impl = KeccakImpl>>(msg: &[u8], want: &[u8]) {
    assert_eq!(want.len(), H::OUTPUT_LEN, "vector has the wrong length");
    for imp in implementations() {
        for chunk in [msg.len().max(1), 1, 7, H::BLOCK_LEN - 1, H::BLOCK_LEN, H::BLOCK_LEN + 1] {
            let mut h = H::with_impl(imp);
            for piece in msg.chunks(chunk) {
                h.update(piece);
            }
            assert_eq!(h.finalize().as_ref(), want, "{}: pieces of {chunk}", imp.name());
        }
    }
}

/// Reads `out.len()` bytes from a reader in pieces of the given sizes, cycling through them.
macro_rules! read_in_pieces {
    ($reader:expr, $out:expr, $pieces:expr) => {{
        let (reader, out, pieces): (_, &mut [u8], &[usize]) = (&mut $reader, $out, $pieces);
        let mut done = 0;
        for &n in pieces.iter().cycle() {
            let n = n.min(out.len() - done);
            reader.read(&mut out[done..done + n]);
            done += n;
            if done == out.len() {
                break;
            }
        }
    }};
}

/// Checks that SHAKE (`$shake`) of `$msg` starts with `$want` on every implementation, with
/// the input in uneven pieces and the output read in uneven pieces.
macro_rules! check_shake {
    ($shake:ty, $msg:expr, $want:expr) => {{
        let (msg, want): (&[u8], &[u8]) = ($msg, &$want);
        let rate = <$shake>::BLOCK_LEN;
        for imp in implementations() {
            for chunk in [msg.len().max(1), 1, rate - 1, rate + 1] {
                for reads in [&[want.len()][..], &[1], &[rate - 1, 2], &[rate, 7, 300]] {
                    let mut x = <$shake>::with_impl(imp);
                    for piece in msg.chunks(chunk) {
                        x.update(piece);
                    }
                    let mut reader = x.finalize_xof();
                    let mut got = vec![0u8; want.len()];
                    read_in_pieces!(reader, &mut got, reads);
                    assert_eq!(got, want, "{}: in {chunk}, out {reads:?}", imp.name());
                }
            }
        }
        let mut got = vec![0u8; want.len()];
        <$shake>::digest_into(msg, &mut got);
        assert_eq!(got, want, "digest_into");
    }};
}

#[test]
fn sha3_224_examples() {
    check::<Sha3_224>(b"", &hex!("6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7"));
    check::<Sha3_224>(b"abc", &hex!("e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf"));
    check::<Sha3_224>(A3_200, &hex!("9376816aba503f72f96ce7eb65ac095deee3be4bf9bbc2a1cb7e11e0"));
}

#[test]
fn sha3_256_examples() {
    check::<Sha3_256>(
        b"",
        &hex!("a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"),
    );
    check::<Sha3_256>(
        b"abc",
        &hex!("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
    );
    check::<Sha3_256>(
        A3_200,
        &hex!("79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787"),
    );
}

#[test]
fn sha3_384_examples() {
    check::<Sha3_384>(
        b"",
        &hex!(
            "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2a"
            "c3713831264adb47fb6bd1e058d5f004"
        ),
    );
    check::<Sha3_384>(
        b"abc",
        &hex!(
            "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
            "98d88cea927ac7f539f1edf228376d25"
        ),
    );
    check::<Sha3_384>(
        A3_200,
        &hex!(
            "1881de2ca7e41ef95dc4732b8f5f002b189cc1e42b74168ed1732649ce1dbcdd"
            "76197a31fd55ee989f2d7050dd473e8f"
        ),
    );
}

#[test]
fn sha3_512_examples() {
    check::<Sha3_512>(
        b"",
        &hex!(
            "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
            "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26"
        ),
    );
    check::<Sha3_512>(
        b"abc",
        &hex!(
            "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
            "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"
        ),
    );
    check::<Sha3_512>(
        A3_200,
        &hex!(
            "e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca8"
            "1b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00"
        ),
    );
}

/// One million 'a': many whole blocks through the multi-block absorb path.
#[test]
fn sha3_256_million_a() {
    let msg = vec![b'a'; 1_000_000];
    for imp in implementations() {
        let mut h = Sha3_256::with_impl(imp);
        h.update(&msg);
        assert_eq!(
            h.finalize(),
            hex!("5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1"),
            "{}",
            imp.name()
        );
    }
}

#[test]
fn shake128_examples() {
    // 4096 bits of output, as in NIST's examples: several blocks of squeezing.
    check_shake!(
        Shake128,
        b"",
        hex!(
            "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef263cb1eea988004b93"
            "103cfb0aeefd2a686e01fa4a58e8a3639ca8a1e3f9ae57e235b8cc873c23dc62b8d260169afa2f75"
            "ab916a58d974918835d25e6a435085b2badfd6dfaac359a5efbb7bcc4b59d538df9a04302e10c8bc"
            "1cbf1a0b3a5120ea17cda7cfad765f5623474d368ccca8af0007cd9f5e4c849f167a580b14aabdef"
            "aee7eef47cb0fca9767be1fda69419dfb927e9df07348b196691abaeb580b32def58538b8d23f877"
            "32ea63b02b4fa0f4873360e2841928cd60dd4cee8cc0d4c922a96188d032675c8ac850933c7aff15"
            "33b94c834adbb69c6115bad4692d8619f90b0cdf8a7b9c264029ac185b70b83f2801f2f4b3f70c59"
            "3ea3aeeb613a7f1b1de33fd75081f592305f2e4526edc09631b10958f464d889f31ba010250fda7f"
            "1368ec2967fc84ef2ae9aff268e0b1700affc6820b523a3d917135f2dff2ee06bfe72b3124721d4a"
            "26c04e53a75e30e73a7a9c4a95d91c55d495e9f51dd0b5e9d83c6d5e8ce803aa62b8d654db53d09b"
            "8dcff273cdfeb573fad8bcd45578bec2e770d01efde86e721a3f7c6cce275dabe6e2143f1af18da7"
            "efddc4c7b70b5e345db93cc936bea323491ccb38a388f546a9ff00dd4e1300b9b2153d2041d205b4"
            "43e41b45a653f2a5c4492c1add544512dda2529833462b71a41a45be97290b6f"
        )
    );
    check_shake!(
        Shake128,
        b"abc",
        hex!(
            "5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8"
            "44c50af32acd3f2cdd066568706f509bc1bdde58295dae3f891a9a0fca578378"
        )
    );
    check_shake!(
        Shake128,
        A3_200,
        hex!(
            "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037cf232ef7164a6d1e"
            "b448c8908186ad852d3f85a5cf28da1ab6fe3438171978467f1c05d58c7ef38c284c41f6c2221a76"
            "f12ab1c04082660250802294fb87180213fdef5b0ecb7df50ca1f8555be14d32e10f6edcde892c09"
            "424b29f597afc270c904556bfcb47a7d40778d390923642b3cbd0579e60908d5a000c1d08b98ef93"
            "3f806445bf87f8b009ba9e94f7266122ed7ac24e5e266c42a82fa1bbefb7b8db0066e16a85e0493f"
            "07df4809aec084a593748ac3dde5a6d7aae1e8b6e5352b2d71efbb47d4caeed5e6d633805d2d323e"
            "6fd81b4684b93a2677d45e7421c2c6aea259b855a698fd7d13477a1fe53e5a4a6197dbec5ce95f50"
            "5b520bcd9570c4a8265a7e01f89c0c002c59bfec6cd4a5c109258953ee5ee70cd577ee217af21fa7"
            "0178f0946c9bf6ca8751793479f6b537737e40b6ed28511d8a2d7e73eb75f8daac912ff906e0ab95"
            "5b083bac45a8e5e9b744c8506f37e9b4e749a184b30f43eb188d855f1b70d71ff3e50c537ac1b0f8"
            "974f0fe1a6ad295ba42f6aec74d123a7abedde6e2c0711cab36be5acb1a5a11a4b1db08ba6982efc"
            "cd716929a7741cfc63aa4435e0b69a9063e880795c3dc5ef3272e11c497a91acf699fefee206227a"
            "44c9fb359fd56ac0a9a75a743cff6862f17d7259ab075216c0699511643b6439"
        )
    );
}

#[test]
fn shake256_examples() {
    check_shake!(
        Shake256,
        b"",
        hex!(
            "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200"
            "cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be141e96616fb13957692cc7edd0b45ae3"
            "dc07223c8e92937bef84bc0eab862853349ec75546f58fb7c2775c38462c5010d846c185c15111e5"
            "95522a6bcd16cf86f3d122109e3b1fdd943b6aec468a2d621a7c06c6a957c62b54dafc3be87567d6"
            "77231395f6147293b68ceab7a9e0c58d864e8efde4e1b9a46cbe854713672f5caaae314ed9083dab"
            "4b099f8e300f01b8650f1f4b1d8fcf3f3cb53fb8e9eb2ea203bdc970f50ae55428a91f7f53ac266b"
            "28419c3778a15fd248d339ede785fb7f5a1aaa96d313eacc890936c173cdcd0fab882c45755feb3a"
            "ed96d477ff96390bf9a66d1368b208e21f7c10d04a3dbd4e360633e5db4b602601c14cea737db3dc"
            "f722632cc77851cbdde2aaf0a33a07b373445df490cc8fc1e4160ff118378f11f0477de055a81a9e"
            "da57a4a2cfb0c83929d310912f729ec6cfa36c6ac6a75837143045d791cc85eff5b21932f23861bc"
            "f23a52b5da67eaf7baae0f5fb1369db78f3ac45f8c4ac5671d85735cdddb09d2b1e34a1fc066ff4a"
            "162cb263d6541274ae2fcc865f618abe27c124cd8b074ccd516301b91875824d09958f341ef274bd"
            "ab0bae316339894304e35877b0c28a9b1fd166c796b9cc258a064a8f57e27f2a"
        )
    );
    check_shake!(
        Shake256,
        b"abc",
        hex!(
            "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739"
            "d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4"
        )
    );
    check_shake!(
        Shake256,
        A3_200,
        hex!(
            "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d2d700caae7396ece"
            "96604440577da4f3aa22aeb8857f961c4cd8e06f0ae6610b1048a7f64e1074cd629e85ad7566048e"
            "fc4fb500b486a3309a8f26724c0ed628001a1099422468de726f1061d99eb9e93604d5aa7467d4b1"
            "bd6484582a384317d7f47d750b8f5499512bb85a226c4243556e696f6bd072c5aa2d9b69730244b5"
            "6853d16970ad817e213e470618178001c9fb56c54fefa5fee67d2da524bb3b0b61ef0e9114a92cdb"
            "b6cccb98615cfe76e3510dd88d1cc28ff99287512f24bfafa1a76877b6f37198e3a641c68a7c42d4"
            "5fa7acc10dae5f3cefb7b735f12d4e589f7a456e78c0f5e4c4471fffa5e4fa0514ae974d8c264851"
            "3b5db494cea847156d277ad0e141c24c7839064cd08851bc2e7ca109fd4e251c35bb0a04fb05b364"
            "ff8c4d8b59bc303e25328c09a882e952518e1a8ae0ff265d61c465896973d7490499dc639fb8502b"
            "39456791b1b6ec5bcc5d9ac36a6df622a070d43fed781f5f149f7b62675e7d1a4d6dec48c1c71645"
            "86eae06a51208c0b791244d307726505c3ad4b26b6822377257aa152037560a739714a3ca79bd605"
            "547c9b78dd1f596f2d4f1791bc689a0e9b799a37339c04275733740143ef5d2b58b96a363d4e0807"
            "6a1a9d7846436e4dca5728b6f760eef0ca92bf0be5615e96959d767197a0beeb"
        )
    );
}

/// Forking: a clone of a hasher, or of a reader, continues independently of the original.
#[test]
fn clones_fork_state() {
    let mut a = Sha3_256::new();
    a.update(b"hello ");
    let mut b = a.clone();
    a.update(b"world");
    b.update(b"there");
    assert_eq!(a.finalize(), Sha3_256::digest(b"hello world"));
    assert_eq!(b.finalize(), Sha3_256::digest(b"hello there"));

    let mut r = Shake256::new().finalize_xof();
    let mut first = [0u8; 100];
    r.read(&mut first);
    let mut fork = r.clone();
    let (mut x, mut y) = ([0u8; 300], [0u8; 300]);
    r.read(&mut x);
    fork.read(&mut y);
    assert_eq!(x, y);
    let mut whole = [0u8; 400];
    Shake256::digest_into(b"", &mut whole);
    assert_eq!(whole[..100], first);
    assert_eq!(whole[100..], x);
}

/// Debug output must not reveal the state.
#[test]
fn debug_hides_state() {
    let mut h = Sha3_512::new();
    h.update(b"secret key material");
    let shown = format!("{h:?}");
    assert!(shown.starts_with("Sha3_512 { implementation: "), "{shown}");
    assert!(!shown.contains("state"), "{shown}");
    let shown = format!("{:?}", Shake128::new());
    assert!(shown.starts_with("Shake128 { implementation: "), "{shown}");
}

/// The generic [`Hash`] view agrees with the inherent one, and the rate is the block length.
#[test]
fn hash_trait() {
    fn via_trait<H: Hash>(data: &[u8]) -> H::Output {
        let mut h = H::new();
        h.update(data);
        h.finalize()
    }
    assert_eq!(via_trait::<Sha3_384>(b"abc"), Sha3_384::digest(b"abc"));
    assert_eq!(
        [Sha3_224::BLOCK_LEN, Sha3_256::BLOCK_LEN, Sha3_384::BLOCK_LEN, Sha3_512::BLOCK_LEN],
        [144, 136, 104, 72]
    );
    assert_eq!(<Sha3_224 as Hash>::BLOCK_LEN, core_hash::MAX_BLOCK_LEN);
    assert_eq!(Shake128::BLOCK_LEN, 168);
    assert_eq!(Sha3_256::new().implementation(), KeccakImpl::best());
}

/// Hashes `data` with `H` on `imp`, in pieces whose sizes cycle through `pieces`.
fn hash_pieces<H: Hash<Impl = KeccakImpl>>(
    imp: KeccakImpl,
    data: &[u8],
    pieces: &[usize],
) -> H::Output {
    let mut h = H::with_impl(imp);
    let mut rest = data;
    for &n in pieces.iter().cycle() {
        let (now, later) = rest.split_at(n.min(rest.len()));
        h.update(now);
        rest = later;
        if rest.is_empty() {
            break;
        }
    }
    h.finalize()
}

/// Every implementation agrees with RustCrypto on `data` fed in the given pieces.
fn agree<H: Hash<Impl = KeccakImpl>, R: sha3::Digest>(data: &[u8], pieces: &[usize]) {
    let want = R::digest(data);
    for imp in implementations() {
        let got = hash_pieces::<H>(imp, data, pieces);
        assert_eq!(got.as_ref(), want.as_slice(), "{}, {} bytes", imp.name(), data.len());
    }
}

/// Every implementation of SHAKE (`$shake`) agrees with RustCrypto's (`$rc`).
macro_rules! agree_shake {
    ($shake:ty, $rc:ty, $data:expr, $pieces:expr, $out_len:expr, $reads:expr) => {{
        use sha3::digest::{ExtendableOutput, Update, XofReader};
        let (data, pieces, reads): (&[u8], &[usize], &[usize]) = (&$data, &$pieces, &$reads);
        let mut want = vec![0u8; $out_len];
        let mut rc = <$rc>::default();
        rc.update(data);
        rc.finalize_xof().read(&mut want);
        for imp in implementations() {
            let mut x = <$shake>::with_impl(imp);
            for piece in data.chunks(pieces[0]) {
                x.update(piece);
            }
            let mut reader = x.finalize_xof();
            let mut got = vec![0u8; want.len()];
            read_in_pieces!(reader, &mut got, reads);
            assert_eq!(got, want, "{}, {} bytes in, {reads:?} out", imp.name(), data.len());
        }
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_messages_match_rustcrypto(
        data in proptest::collection::vec(any::<u8>(), 0..=10 * 1024),
        pieces in proptest::collection::vec(1usize..400, 1..6),
    ) {
        agree::<Sha3_224, sha3::Sha3_224>(&data, &pieces);
        agree::<Sha3_256, sha3::Sha3_256>(&data, &pieces);
        agree::<Sha3_384, sha3::Sha3_384>(&data, &pieces);
        agree::<Sha3_512, sha3::Sha3_512>(&data, &pieces);
    }

    #[test]
    fn random_shake_matches_rustcrypto(
        data in proptest::collection::vec(any::<u8>(), 0..=10 * 1024),
        piece in 1usize..400,
        out_len in 0usize..=800,
        reads in proptest::collection::vec(1usize..400, 1..6),
    ) {
        agree_shake!(Shake128, sha3::Shake128, data, [piece], out_len, reads);
        agree_shake!(Shake256, sha3::Shake256, data, [piece], out_len, reads);
    }
}
