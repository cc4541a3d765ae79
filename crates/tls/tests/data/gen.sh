#!/bin/sh
# Regenerates the Ed25519 test PKI (run once; the outputs are checked in).
set -e
cd "$(dirname "$0")"
openssl genpkey -algorithm ed25519 -out ca.key
openssl req -x509 -new -key ca.key -subj "/CN=Halite Test CA" -days 36500 -out ca.pem \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
openssl genpkey -algorithm ed25519 -out server.key
openssl req -new -key server.key -subj "/CN=localhost" -out server.csr
printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,DNS:test.halite\n' > server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 36500 -extfile server.ext -out server.pem
# A second, unrelated CA (for the unknown-CA test).
openssl genpkey -algorithm ed25519 -out other-ca.key
openssl req -x509 -new -key other-ca.key -subj "/CN=Other CA" -days 36500 -out other-ca.pem \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
for f in ca server other-ca; do openssl x509 -in $f.pem -outform DER -out $f.der; done
# The server's raw 32-byte Ed25519 seed, for the in-process tests.
openssl pkey -in server.key -outform DER | tail -c 32 > server.seed
rm -f server.csr server.ext ca.srl other-ca.key
