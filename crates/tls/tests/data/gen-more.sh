#!/bin/sh
# Regenerates the ECDSA P-256, ECDSA P-384 and RSA-2048 test PKI (run once; the outputs are
# checked in). Each type has its own root and a leaf for "localhost" plus a name of its own,
# so a server holding all of them can be told apart by SNI.
set -e
cd "$(dirname "$0")"
leaf_ext() {
  printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=%s\nsubjectAltName=%s\n' "$1" "$2"
}
ca_ext='-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign'
# make NAME "KEYGEN ARGS" DIGEST SAN
make() {
  name=$1; keyargs=$2; md=$3; san=$4
  openssl genpkey $keyargs -out ca-$name.key
  openssl req -x509 -new -key ca-$name.key -$md -subj "/CN=Halite Test CA ($name)" -days 36500 \
    $ca_ext -out ca-$name.pem
  openssl genpkey $keyargs -out server-$name.key
  openssl req -new -key server-$name.key -subj "/CN=localhost" -out server-$name.csr
  leaf_ext serverAuth "$san" > server-$name.ext
  openssl x509 -req -in server-$name.csr -CA ca-$name.pem -CAkey ca-$name.key -CAcreateserial \
    -$md -days 36500 -extfile server-$name.ext -out server-$name.pem
  # A client certificate from the same root (for client authentication).
  openssl genpkey $keyargs -out client-$name.key
  openssl req -new -key client-$name.key -subj "/CN=Halite test client ($name)" -out client-$name.csr
  leaf_ext clientAuth "DNS:client.halite" > client-$name.ext
  openssl x509 -req -in client-$name.csr -CA ca-$name.pem -CAkey ca-$name.key -CAcreateserial \
    -$md -days 36500 -extfile client-$name.ext -out client-$name.pem
  for f in ca-$name server-$name client-$name; do
    openssl x509 -in $f.pem -outform DER -out $f.der
    # PKCS#8 DER of the key beside the PEM (`pkey -outform DER` would write SEC1/PKCS#1).
    openssl pkcs8 -topk8 -nocrypt -in $f.key -outform DER -out $f.key.der
  done
  rm -f server-$name.csr server-$name.ext client-$name.csr client-$name.ext ca-$name.srl
}
make p256 "-algorithm EC -pkeyopt ec_paramgen_curve:P-256" sha256 "DNS:localhost,DNS:p256.halite"
make p384 "-algorithm EC -pkeyopt ec_paramgen_curve:P-384" sha384 "DNS:localhost,DNS:p384.halite"
make rsa "-algorithm RSA -pkeyopt rsa_keygen_bits:2048" sha256 "DNS:localhost,DNS:rsa.halite"
# RSA leaves whose PKCS#1 signatures use SHA-384 and SHA-512, from the same RSA root.
for md in sha384 sha512; do
  openssl req -new -key server-rsa.key -subj "/CN=localhost" -out server-rsa-$md.csr
  leaf_ext serverAuth "DNS:localhost,DNS:rsa.halite" > server-rsa-$md.ext
  openssl x509 -req -in server-rsa-$md.csr -CA ca-rsa.pem -CAkey ca-rsa.key -CAcreateserial \
    -$md -days 36500 -extfile server-rsa-$md.ext -out server-rsa-$md.pem
  openssl x509 -in server-rsa-$md.pem -outform DER -out server-rsa-$md.der
  rm -f server-rsa-$md.csr server-rsa-$md.ext ca-rsa.srl
done
# A client certificate under the Ed25519 root of gen.sh.
openssl genpkey -algorithm ed25519 -out client-ed25519.key
openssl req -new -key client-ed25519.key -subj "/CN=Halite test client (ed25519)" -out client-ed25519.csr
leaf_ext clientAuth "DNS:client.halite" > client-ed25519.ext
openssl x509 -req -in client-ed25519.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 36500 \
  -extfile client-ed25519.ext -out client-ed25519.pem
openssl x509 -in client-ed25519.pem -outform DER -out client-ed25519.der
openssl pkcs8 -topk8 -nocrypt -in client-ed25519.key -outform DER -out client-ed25519.key.der
openssl pkcs8 -topk8 -nocrypt -in server.key -outform DER -out server.key.der
rm -f client-ed25519.csr client-ed25519.ext ca.srl
# A 1024-bit RSA key's PKCS#1 public key and a SHA-256 PKCS#1 v1.5 signature by it, to check
# that keys under 2048 bits are refused.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out rsa1024.key
openssl rsa -in rsa1024.key -RSAPublicKey_out -outform DER -out rsa1024.pub.pkcs1.der
printf 'Halite small RSA key\n' > rsa1024.msg
openssl dgst -sha256 -sign rsa1024.key -out rsa1024.sha256.sig rsa1024.msg
rm -f rsa1024.key
