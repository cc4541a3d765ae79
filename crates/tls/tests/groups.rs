//! Key-exchange groups in memory: every group in both roles, server preference, client-side
//! HelloRetryRequest (new group, cookie echo) and its refusals (a second HRR, an HRR that
//! changes nothing or asks for a group never offered), invalid key shares from either side
//! and the TLS 1.2 downgrade sentinel, each with its typed error and alert.

#![allow(clippy::doc_markdown)] // protocol message names are prose here

mod pair;

use tls::msgs::{AlertDescription, Codec, HandshakeMessage, NamedGroup};
use tls::{Connection, Error, PeerIncompatible, PeerMisbehaved};

use pair::{
    Bufs, SERVER_CERT, assert_refused, client, feed, handshake, hrr_record, key, pump, roots, run,
    server, server_hello_for,
};

const X25519: NamedGroup = NamedGroup::X25519;
const P256: NamedGroup = NamedGroup::SECP256R1;
const P384: NamedGroup = NamedGroup::SECP384R1;
const P521: NamedGroup = NamedGroup::SECP521R1;

#[test]
fn every_group_in_both_roles() {
    for g in tls::kx::ALL_GROUPS {
        assert_eq!(run(&[*g], &[*g]), (*g, false), "{g:?}");
    }
}

#[test]
fn server_takes_its_preferred_group_among_the_shares() {
    // The client sends a share for P-384 only; the server prefers x25519 but takes P-384
    // rather than retry.
    assert_eq!(run(&[P384, X25519], &[X25519, P384]), (P384, false));
}

#[test]
fn client_follows_a_hello_retry_request_to_another_group() {
    for g in [P256, P384, P521] {
        assert_eq!(run(&[X25519, g], &[g]), (g, true), "{g:?}");
    }
    assert_eq!(run(&[P521, P256, X25519], &[X25519, P256]), (X25519, true));
}

#[test]
fn no_common_group_is_handshake_failure() {
    let (roots, key, chain) = (roots(), key(), [SERVER_CERT]);
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let mut c = client(&roots, &[X25519, P256], &mut cb);
    let mut s = server(&key, &chain, &[P384], &mut sb);
    assert_eq!(
        handshake(&mut c, &mut s),
        Err((false, Error::PeerIncompatible(PeerIncompatible::NoCommonGroup)))
    );
    assert_eq!(
        pump(&mut s, &mut c),
        Err(Error::AlertReceived(AlertDescription::HANDSHAKE_FAILURE))
    );
}

/// The client's ClientHello as (session id, offered group of its only share), consuming it.
fn take_client_hello(c: &mut Connection<'_, '_>) -> (Vec<u8>, NamedGroup, Option<Vec<u8>>) {
    let rec = c.pending_send().to_vec();
    c.sent(rec.len());
    // Skip a change_cipher_spec record (middlebox compatibility) before the hello.
    let rec = if rec[0] == 20 { &rec[6..] } else { &rec[..] };
    let HandshakeMessage::ClientHello(ch) = HandshakeMessage::decode(&rec[5..]).unwrap() else {
        panic!("not a ClientHello");
    };
    let shares: Vec<_> = ch.extensions.key_shares.unwrap().iter().collect();
    assert_eq!(shares.len(), 1);
    (ch.session_id.to_vec(), shares[0].group, ch.extensions.cookie.map(<[u8]>::to_vec))
}

#[test]
fn hello_retry_request_cookie_is_echoed() {
    let roots = roots();
    let mut cb = Bufs::new();
    let mut c = client(&roots, &[X25519, P256], &mut cb);
    let (sid, first, cookie) = take_client_hello(&mut c);
    assert_eq!((first, cookie), (X25519, None));
    // Cookie only: the same share again, with the cookie.
    feed(&mut c, &hrr_record(&sid, None, Some(b"server state"))).unwrap();
    let (sid2, group, cookie) = take_client_hello(&mut c);
    assert_eq!(sid2, sid);
    assert_eq!(group, X25519);
    assert_eq!(cookie.as_deref(), Some(&b"server state"[..]));

    // New group and cookie together.
    let mut cb = Bufs::new();
    let mut c = client(&roots, &[X25519, P384], &mut cb);
    let (sid, _, _) = take_client_hello(&mut c);
    feed(&mut c, &hrr_record(&sid, Some(P384), Some(b"c"))).unwrap();
    let (_, group, cookie) = take_client_hello(&mut c);
    assert_eq!((group, cookie.as_deref()), (P384, Some(&b"c"[..])));
    // A second HelloRetryRequest is unexpected_message.
    assert_refused(
        &mut c,
        &hrr_record(&sid, Some(P256), None),
        Error::PeerMisbehaved(PeerMisbehaved::UnexpectedMessage),
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn useless_or_unoffered_retry_requests_are_illegal_parameter() {
    let roots = roots();
    let cases: [(Option<NamedGroup>, Error); 3] = [
        // Nothing would change.
        (None, Error::PeerMisbehaved(PeerMisbehaved::UselessRetryRequest)),
        // The group we already sent a share for.
        (Some(X25519), Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter)),
        // A group we never offered.
        (Some(P521), Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter)),
    ];
    for (group, err) in cases {
        let mut cb = Bufs::new();
        let mut c = client(&roots, &[X25519, P256], &mut cb);
        let (sid, _, _) = take_client_hello(&mut c);
        assert_refused(
            &mut c,
            &hrr_record(&sid, group, None),
            err,
            AlertDescription::ILLEGAL_PARAMETER,
        );
    }
}
#[test]
fn invalid_server_key_shares_are_illegal_parameter() {
    let roots = roots();
    for g in tls::kx::CLASSICAL_GROUPS {
        let mut cb = Bufs::new();
        let mut c = client(&roots, std::slice::from_ref(g), &mut cb);
        let (sh, at) = server_hello_for(&mut c, *g);
        let mut bad = sh.clone();
        if *g == X25519 {
            bad[at..at + 32].fill(0); // low order: all-zero shared secret
        } else {
            bad[at] = 2; // not the uncompressed form
        }
        assert_refused(
            &mut c,
            &bad,
            Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare),
            AlertDescription::ILLEGAL_PARAMETER,
        );
        if *g != X25519 {
            // Off the curve.
            let mut cb = Bufs::new();
            let mut c = client(&roots, std::slice::from_ref(g), &mut cb);
            let (mut bad, at) = server_hello_for(&mut c, *g);
            bad[at + 20] ^= 1;
            assert_refused(
                &mut c,
                &bad,
                Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare),
                AlertDescription::ILLEGAL_PARAMETER,
            );
        }
    }
}

#[test]
fn invalid_client_key_share_is_illegal_parameter() {
    let (roots, key, chain) = (roots(), key(), [SERVER_CERT]);
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let c = client(&roots, &[P256], &mut cb);
    let mut s = server(&key, &chain, &[P256], &mut sb);
    let mut ch = c.pending_send().to_vec();
    // The P-256 point is the last 65 bytes before supported_versions and the rest; find it
    // by its 0x04 tag after the key_share entry header (group 0x0017, length 0x0041).
    let at = ch.windows(4).position(|w| w == [0x00, 0x17, 0x00, 0x41]).unwrap() + 4;
    assert_eq!(ch[at], 4);
    ch[at + 64] ^= 1;
    assert_refused(
        &mut s,
        &ch,
        Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare),
        AlertDescription::ILLEGAL_PARAMETER,
    );
}

#[test]
fn downgrade_sentinel_is_refused() {
    let roots = roots();
    for last in [0u8, 1] {
        let mut cb = Bufs::new();
        let mut c = client(&roots, &[X25519], &mut cb);
        let (mut sh, _) = server_hello_for(&mut c, X25519);
        // The random is at 5 + 4 + 2; its last 8 bytes are the sentinel.
        sh[5 + 4 + 2 + 24..5 + 4 + 2 + 31].copy_from_slice(b"DOWNGRD");
        sh[5 + 4 + 2 + 31] = last;
        assert_refused(
            &mut c,
            &sh,
            Error::PeerMisbehaved(PeerMisbehaved::DowngradeDetected),
            AlertDescription::ILLEGAL_PARAMETER,
        );
    }
}
