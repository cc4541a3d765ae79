//! The ML-KEM hybrid groups (draft-ietf-tls-ecdhe-mlkem) in memory: each in both roles,
//! the client's default shares (X25519MLKEM768 and X25519 with one X25519 key), a server
//! without hybrids taking the X25519 one, HelloRetryRequest to each hybrid (one share in the
//! second ClientHello), and a server's hybrid shares that are not valid, each with its typed
//! error and alert.

#![allow(clippy::doc_markdown)] // protocol message names are prose here

mod pair;

use tls::msgs::{AlertDescription, Codec, HandshakeMessage, NamedGroup};
use tls::{Connection, Error, PeerMisbehaved};

use pair::{
    Bufs, SERVER_CERT, assert_refused, client, feed, hrr_record, key, pump, roots, run, server,
    server_hello_for,
};

const X25519MLKEM768: NamedGroup = NamedGroup::X25519MLKEM768;
const P256MLKEM768: NamedGroup = NamedGroup::SECP256R1MLKEM768;
const P384MLKEM1024: NamedGroup = NamedGroup::SECP384R1MLKEM1024;
const HYBRIDS: [NamedGroup; 3] = [X25519MLKEM768, P256MLKEM768, P384MLKEM1024];
const DEFAULT: &[NamedGroup] = tls::kx::DEFAULT_GROUPS;
const CLASSICAL: &[NamedGroup] = tls::kx::CLASSICAL_GROUPS;

/// Key shares as (group, key).
type Shares = Vec<(NamedGroup, Vec<u8>)>;

/// The client's ClientHello: its session id, its shares and the record's length, consuming it.
fn take_shares(c: &mut Connection<'_, '_>) -> (Vec<u8>, Shares, usize) {
    let rec = c.pending_send().to_vec();
    c.sent(rec.len());
    // Skip a change_cipher_spec record (middlebox compatibility) before the hello.
    let rec = if rec[0] == 20 { &rec[6..] } else { &rec[..] };
    let HandshakeMessage::ClientHello(ch) = HandshakeMessage::decode(&rec[5..]).unwrap() else {
        panic!("not a ClientHello");
    };
    let shares = ch.extensions.key_shares.unwrap().iter().map(|s| (s.group, s.key.to_vec()));
    (ch.session_id.to_vec(), shares.collect(), rec.len())
}

#[test]
fn every_hybrid_in_both_roles() {
    for g in HYBRIDS {
        assert_eq!(run(&[g], &[g]), (g, false), "{g:?}");
    }
    // The defaults on both sides: X25519MLKEM768, at once.
    assert_eq!(run(DEFAULT, DEFAULT), (X25519MLKEM768, false));
}

#[test]
fn default_client_shares_one_x25519_key_between_the_hybrid_and_x25519() {
    let roots = roots();
    let mut cb = Bufs::new();
    let mut c = client(&roots, DEFAULT, &mut cb);
    let (_, shares, len) = take_shares(&mut c);
    let groups: Vec<_> = shares.iter().map(|s| (s.0, s.1.len())).collect();
    assert_eq!(groups, [(X25519MLKEM768, 1184 + 32), (NamedGroup::X25519, 32)]);
    // The X25519 share is the hybrid's X25519 part: ML-KEM first (draft §3).
    assert_eq!(shares[1].1, shares[0].1[1184..]);
    // One record, well within the 16 KiB a record may carry.
    assert!(len < 1700, "{len}-byte ClientHello record");
    // With the NIST hybrid first, the P-256 point leads its share.
    let mut cb = Bufs::new();
    let mut c = client(&roots, &[P256MLKEM768, NamedGroup::SECP256R1], &mut cb);
    let (_, shares, _) = take_shares(&mut c);
    assert_eq!(shares[0].1.len(), 65 + 1184);
    assert_eq!((shares[1].0, &shares[1].1[..]), (NamedGroup::SECP256R1, &shares[0].1[..65]));
    // Without the classical group configured, the hybrid's share only.
    let mut cb = Bufs::new();
    let mut c = client(&roots, &[P384MLKEM1024], &mut cb);
    let (_, shares, _) = take_shares(&mut c);
    assert_eq!(
        shares.iter().map(|s| (s.0, s.1.len())).collect::<Vec<_>>(),
        [(P384MLKEM1024, 1665)]
    );
}

#[test]
fn a_first_classical_group_shares_its_key_with_a_later_hybrid() {
    // X25519 preferred, X25519MLKEM768 listed later: both get a share (as BoringSSL sends
    // the first classical and the first post-quantum group's), X25519's first, one key.
    let roots = roots();
    let groups = [NamedGroup::X25519, NamedGroup::SECP256R1, X25519MLKEM768];
    let mut cb = Bufs::new();
    let mut c = client(&roots, &groups, &mut cb);
    let (_, shares, _) = take_shares(&mut c);
    let got: Vec<_> = shares.iter().map(|s| (s.0, s.1.len())).collect();
    assert_eq!(got, [(NamedGroup::X25519, 32), (X25519MLKEM768, 1216)]);
    assert_eq!(shares[0].1, shares[1].1[1184..]);
    // Either is taken without a retry.
    assert_eq!(run(&groups, &[X25519MLKEM768]), (X25519MLKEM768, false));
    assert_eq!(run(&groups, &[NamedGroup::X25519]), (NamedGroup::X25519, false));
    assert_eq!(run(&groups, DEFAULT), (X25519MLKEM768, false));
    // A classical group no listed hybrid contains: its share only.
    let mut cb = Bufs::new();
    let mut c = client(&roots, &[NamedGroup::SECP384R1, X25519MLKEM768], &mut cb);
    let (_, shares, _) = take_shares(&mut c);
    assert_eq!(shares.iter().map(|s| s.0).collect::<Vec<_>>(), [NamedGroup::SECP384R1]);
}

#[test]
fn a_server_without_hybrids_takes_the_classical_share() {
    assert_eq!(run(DEFAULT, CLASSICAL), (NamedGroup::X25519, false));
    assert_eq!(
        run(&[P256MLKEM768, NamedGroup::SECP256R1], CLASSICAL),
        (NamedGroup::SECP256R1, false)
    );
    // A hybrid-only server asks a client with a P-521 share only for the hybrid.
    assert_eq!(
        run(&[NamedGroup::SECP521R1, X25519MLKEM768], &[X25519MLKEM768]),
        (X25519MLKEM768, true)
    );
}

#[test]
fn hello_retry_request_to_each_hybrid() {
    // P-521 first: no hybrid contains it, so its share goes alone.
    for g in HYBRIDS {
        assert_eq!(run(&[NamedGroup::SECP521R1, g], &[g]), (g, true), "{g:?}");
    }
    // From a hybrid to another, and from a hybrid to a classical group.
    assert_eq!(run(&[X25519MLKEM768, P384MLKEM1024], &[P384MLKEM1024]), (P384MLKEM1024, true));
    assert_eq!(run(DEFAULT, &[NamedGroup::SECP384R1]), (NamedGroup::SECP384R1, true));
}

#[test]
fn the_second_client_hello_carries_the_one_share_asked_for() {
    let roots = roots();
    let mut cb = Bufs::new();
    let mut c =
        client(&roots, &[NamedGroup::SECP256R1, X25519MLKEM768, NamedGroup::X25519], &mut cb);
    let (sid, shares, _) = take_shares(&mut c);
    assert_eq!(shares.len(), 1);
    feed(&mut c, &hrr_record(&sid, Some(X25519MLKEM768), None)).unwrap();
    let (_, shares, _) = take_shares(&mut c);
    let groups: Vec<_> = shares.iter().map(|s| (s.0, s.1.len())).collect();
    assert_eq!(groups, [(X25519MLKEM768, 1216)], "RFC 8446 §4.1.2: only the group asked for");
}

#[test]
fn a_cookie_only_retry_keeps_both_shares() {
    let roots = roots();
    let mut cb = Bufs::new();
    let mut c = client(&roots, DEFAULT, &mut cb);
    let (sid, first, _) = take_shares(&mut c);
    feed(&mut c, &hrr_record(&sid, None, Some(b"cookie"))).unwrap();
    let (_, second, _) = take_shares(&mut c);
    // RFC 8446 §4.1.2: without a selected_group the key shares are unchanged.
    assert_eq!(first, second);
    assert_eq!(second.len(), 2);
}

#[test]
fn a_cookie_only_retry_sends_each_groups_share_again_byte_for_byte() {
    // The connection keeps no public value (a hybrid's ML-KEM key is its seed): the second
    // ClientHello computes each share again, and it must be the first's.
    let roots = roots();
    for g in tls::kx::ALL_GROUPS {
        let only = [*g];
        let mut cb = Bufs::new();
        let mut c = client(&roots, &only, &mut cb);
        let (sid, first, _) = take_shares(&mut c);
        feed(&mut c, &hrr_record(&sid, None, Some(b"cookie"))).unwrap();
        let (sid2, second, _) = take_shares(&mut c);
        assert_eq!(sid2, sid, "{g:?}");
        assert_eq!(first.len(), 1, "{g:?}");
        assert_eq!(first, second, "{g:?}");
    }
}

#[test]
fn retry_requests_for_a_group_already_shared_are_illegal_parameter() {
    let roots = roots();
    // The default client sent X25519MLKEM768 and X25519 shares: neither may be asked for.
    for g in [X25519MLKEM768, NamedGroup::X25519] {
        let mut cb = Bufs::new();
        let mut c = client(&roots, DEFAULT, &mut cb);
        let (sid, _, _) = take_shares(&mut c);
        assert_refused(
            &mut c,
            &hrr_record(&sid, Some(g), None),
            Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter),
            AlertDescription::ILLEGAL_PARAMETER,
        );
    }
}

#[test]
fn invalid_hybrid_server_shares_are_refused() {
    let roots = roots();
    let invalid = Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare);
    for g in HYBRIDS {
        let only = [g];
        // A Diffie–Hellman part that is no public value: all zero.
        let mut cb = Bufs::new();
        let mut c = client(&roots, &only, &mut cb);
        let (mut bad, at) = server_hello_for(&mut c, g);
        let (ecdh_at, ecdh_len) = match g {
            X25519MLKEM768 => (at + 1088, 32),
            P256MLKEM768 => (at, 65),
            _ => (at, 97),
        };
        bad[ecdh_at..ecdh_at + ecdh_len].fill(0);
        assert_refused(&mut c, &bad, invalid, AlertDescription::ILLEGAL_PARAMETER);
        // A share one byte short (the lengths of the extension and message shrink with it).
        let mut cb = Bufs::new();
        let mut c = client(&roots, &only, &mut cb);
        let (sh, at) = server_hello_for(&mut c, g);
        let short = shorten_share(&sh, at);
        assert_refused(&mut c, &short, invalid, AlertDescription::ILLEGAL_PARAMETER);
        // A changed ciphertext decapsulates to another key (implicit rejection): the server's
        // next record fails to decrypt.
        let mut cb = Bufs::new();
        let mut c = client(&roots, &only, &mut cb);
        let (key, chain) = (key(), [SERVER_CERT]);
        let mut sb = Bufs::new();
        let mut s = server(&key, &chain, &only, &mut sb);
        pump(&mut c, &mut s).unwrap();
        let mut flight = s.pending_send().to_vec();
        let ct_at = if g == X25519MLKEM768 { at } else { at + ecdh_len };
        flight[ct_at + 100] ^= 0x10;
        assert_eq!(feed(&mut c, &flight), Err(Error::DecryptFailed), "{g:?}");
    }
}

/// `sh` (a ServerHello record whose share starts at `at`) with the share's last byte cut and
/// every length that covers it decreased.
fn shorten_share(sh: &[u8], at: usize) -> Vec<u8> {
    let mut out = sh.to_vec();
    let share_len = usize::from(out[at - 2]) << 8 | usize::from(out[at - 1]);
    out.remove(at + share_len - 1);
    let dec16 = |b: &mut [u8], i: usize| {
        let v = (u16::from(b[i]) << 8 | u16::from(b[i + 1])) - 1;
        b[i..i + 2].copy_from_slice(&v.to_be_bytes());
    };
    dec16(&mut out, 3); // record
    dec16(&mut out, 7); // handshake (24 bits, the top byte 0)
    dec16(&mut out, at - 2); // key_exchange
    dec16(&mut out, at - 6); // extension_data
    // The extensions block: after the session id, the suite and the compression method.
    let sid_len = usize::from(out[5 + 4 + 2 + 32]);
    dec16(&mut out, 5 + 4 + 2 + 32 + 1 + sid_len + 3);
    out
}
