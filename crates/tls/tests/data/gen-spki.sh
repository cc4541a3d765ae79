#!/bin/sh
# The raw public keys (RFC 7250) of tests/rpk.rs: each leaf's SubjectPublicKeyInfo, as DER
# (`*.spki.der`, what a Certificate carries and a client pins) and PEM (`*.spki.pem`, for
# gnutls-serv/gnutls-cli --rawpkfile). Derived from the certificates, no new keys.
set -eu
cd "$(dirname "$0")"
for t in server server-p256 server-rsa server-pss client-ed25519 client-p256; do
    openssl x509 -in "$t.pem" -pubkey -noout > "$t.spki.pem"
    openssl pkey -pubin -in "$t.spki.pem" -outform DER -out "$t.spki.der"
done
