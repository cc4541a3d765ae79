#!/bin/sh
# Regenerates the keyUsage test certificates (run once, after gen-more.sh; the outputs are
# checked in). Each re-certifies an existing server key of gen-more.sh under its own root with
# a different keyUsage extension, for the check that a TLS 1.3 CertificateVerify key allows
# digitalSignature (RFC 5280 §4.2.1.3, RFC 8446 §4.4.2.4).
set -e
cd "$(dirname "$0")"
# make OUT TYPE DIGEST SAN KEYUSAGE-LINE
make() {
  out=$1; t=$2; md=$3; san=$4; ku=$5
  openssl req -new -key server-$t.key -subj "/CN=localhost" -out $out.csr
  printf 'basicConstraints=critical,CA:FALSE\n%bextendedKeyUsage=serverAuth\nsubjectAltName=%s\n' \
    "$ku" "$san" > $out.ext
  openssl x509 -req -in $out.csr -CA ca-$t.pem -CAkey ca-$t.key -CAcreateserial -$md \
    -days 36500 -extfile $out.ext -out $out.pem
  openssl x509 -in $out.pem -outform DER -out $out.der
  rm -f $out.csr $out.ext ca-$t.srl
}
make server-p256-ku-encipherment p256 sha256 "DNS:localhost,DNS:p256.halite" 'keyUsage=critical,keyEncipherment\n'
make server-p256-ku-absent p256 sha256 "DNS:localhost,DNS:p256.halite" ''
make server-rsa-ku-encipherment rsa sha256 "DNS:localhost,DNS:rsa.halite" 'keyUsage=critical,keyEncipherment\n'
make server-rsa-ku-both rsa sha256 "DNS:localhost,DNS:rsa.halite" 'keyUsage=critical,digitalSignature,keyEncipherment\n'
