#!/bin/sh
# Makes the test keys this crate needs beyond crates/tls/tests/data (run once with OpenSSL 3;
# the outputs are checked in). Test-only keys: never use them for anything else.
#
# - ca-p521 / server-p521: an ECDSA P-521 root and a "localhost" leaf signed by it with
#   SHA-512 (rustls's ring provider has no P-521, so these are for Halite-to-Halite runs).
# - server-p256.sec1.der, server-p384.sec1.der, server-p521.sec1.der: the same keys as
#   crates/tls/tests/data/server-p256.key etc. in SEC1 `ECPrivateKey` form.
# - server-rsa.pkcs1.der: crates/tls/tests/data/server-rsa.key as a PKCS#1 `RSAPrivateKey`.
# - rsa1024.key.der, ed448.key.der: PKCS#8 keys of kinds the provider refuses.
# - rsa-pss-sha1.key.der, rsa-pss-sha256-salt20.key.der: id-RSASSA-PSS keys whose parameters
#   (SHA-1; SHA-256 with a 20-byte salt) match no rsa_pss_pss_* scheme, so they are refused. The
#   usable RSA-PSS keys are crates/tls/tests/data/server-pss* (gen-pss.sh there).
set -e
cd "$(dirname "$0")"
tls=../../../tls/tests/data
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-521 -out ca-p521.key
openssl req -x509 -new -key ca-p521.key -sha512 -subj "/CN=Halite Test CA (p521)" -days 36500 \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
  -out ca-p521.pem
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-521 -out server-p521.key
openssl req -new -key server-p521.key -subj "/CN=localhost" -out server-p521.csr
printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost\n' > server-p521.ext
openssl x509 -req -in server-p521.csr -CA ca-p521.pem -CAkey ca-p521.key -CAcreateserial -sha512 \
  -days 36500 -extfile server-p521.ext -out server-p521.pem
openssl x509 -in ca-p521.pem -outform DER -out ca-p521.der
openssl x509 -in server-p521.pem -outform DER -out server-p521.der
openssl pkcs8 -topk8 -nocrypt -in server-p521.key -outform DER -out server-p521.key.der
rm -f server-p521.csr server-p521.ext ca-p521.srl ca-p521.pem server-p521.pem
openssl ec -in $tls/server-p256.key -outform DER -out server-p256.sec1.der
openssl ec -in $tls/server-p384.key -outform DER -out server-p384.sec1.der
openssl ec -in server-p521.key -outform DER -out server-p521.sec1.der
openssl rsa -in $tls/server-rsa.key -traditional -outform DER -out server-rsa.pkcs1.der
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -outform DER -out rsa1024.key.der
openssl genpkey -algorithm ed448 -outform DER -out ed448.key.der
openssl genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_pss_keygen_md:sha1 \
  -outform DER -out rsa-pss-sha1.key.der
openssl genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_pss_keygen_md:sha256 \
  -pkeyopt rsa_pss_keygen_mgf1_md:sha256 -pkeyopt rsa_pss_keygen_saltlen:20 \
  -outform DER -out rsa-pss-sha256-salt20.key.der
rm -f ca-p521.key server-p521.key
