#!/bin/sh
# Regenerates the RSASSA-PSS test PKI (run once; the outputs are checked in): keys whose
# SPKI/PKCS#8 algorithm is id-RSASSA-PSS (1.2.840.113549.1.1.10), as Java and OpenSSL make them,
# for the rsa_pss_pss_* signature schemes (RFC 8446 §4.2.3). Every signature uses a salt as
# long as the hash (`rsa_pss_saltlen:digest`), the only form X.509 verifiers agree on.
set -e
cd "$(dirname "$0")"
leaf_ext() {
  printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=%s\nsubjectAltName=%s\n' "$1" "$2"
}
sig='-sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest'
pss='-algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048'
# The root: an RSA-PSS key without parameters, self-signed with RSASSA-PSS SHA-256.
openssl genpkey $pss -out ca-pss.key
openssl req -x509 -new -key ca-pss.key -sha256 $sig -subj "/CN=Halite Test CA (pss)" -days 36500 \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
  -out ca-pss.pem
# leaf NAME "KEYGEN ARGS" DIGEST EKU SAN
leaf() {
  openssl genpkey $2 -out $1.key
  openssl req -new -key $1.key -subj "/CN=$6" -out $1.csr
  leaf_ext $4 "$5" > $1.ext
  openssl x509 -req -in $1.csr -CA ca-pss.pem -CAkey ca-pss.key -CAcreateserial -$3 $sig \
    -days 36500 -extfile $1.ext -out $1.pem
  rm -f $1.csr $1.ext ca-pss.srl
}
# A server leaf with an unrestricted RSA-PSS key (no RSASSA-PSS-params), signed with SHA-256.
leaf server-pss "$pss" sha256 serverAuth "DNS:localhost,DNS:pss.halite" localhost
# A server leaf whose key is restricted by RSASSA-PSS-params to SHA-384 (MGF1-SHA-384, salt 48),
# signed with SHA-384.
leaf server-pss-sha384 "$pss -pkeyopt rsa_pss_keygen_md:sha384 -pkeyopt rsa_pss_keygen_mgf1_md:sha384 \
  -pkeyopt rsa_pss_keygen_saltlen:48" sha384 serverAuth "DNS:localhost,DNS:pss.halite" localhost
# A client leaf with an unrestricted RSA-PSS key.
leaf client-pss "$pss" sha256 clientAuth "DNS:client.halite" "Halite test client (pss)"
for f in ca-pss server-pss server-pss-sha384 client-pss; do
  openssl x509 -in $f.pem -outform DER -out $f.der
  openssl pkcs8 -topk8 -nocrypt -in $f.key -outform DER -out $f.key.der
done
