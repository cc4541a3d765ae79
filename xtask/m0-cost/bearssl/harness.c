/*
 * BearSSL cost firmware for `cargo xtask m0 --cost --bearssl`: the rows of the Halite table
 * that BearSSL's published Cortex-M0+ figures name, each run between two calls of
 * m0_cost_mark() (the function the QEMU counting plugin watches), printing the same
 * `cost <id> <bytes> <stack> <marks> ok|FAIL why` lines as the Rust firmware so that one
 * parser and one cycle model serve both. Operations are chosen at compile time: OP_ALL, or
 * one OP_<NAME>; with none defined only the overhead calibration runs (the empty image the
 * flash figure is measured against). Bare metal, no libc: semihosting for output and exit.
 */
#include <stddef.h>
#include <stdint.h>
#include "bearssl.h"
#if defined(OP_ALL) || defined(OP_RSA2048_PUBLIC) || defined(OP_RSA2048_PRIVATE)
#include "rsa_key.h"
#endif

extern uint32_t __stack_top, __bss_start, __bss_end, __data_start, __data_end, __data_load;
void reset(void);
int main(void);

__attribute__((section(".vector_table"), used))
static const void *const vectors[2] = { &__stack_top, (const void *)reset };

/* ---- libc pieces BearSSL needs (word copies when aligned, as the Rust firmware's src/mem.rs) ---- */

void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;
	if ((((uintptr_t)dp | (uintptr_t)sp) & 3) == 0) {
		for (; n >= 4; n -= 4, dp += 4, sp += 4)
			*(uint32_t *)(void *)dp = *(const uint32_t *)(const void *)sp;
	}
	while (n--)
		*dp++ = *sp++;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;
	if (dp <= sp || dp >= sp + n)
		return memcpy(d, s, n);
	while (n--)
		dp[n] = sp[n];
	return d;
}

void *memset(void *d, int c, size_t n)
{
	unsigned char *dp = d;
	if (((uintptr_t)dp & 3) == 0) {
		uint32_t w = (unsigned char)c * 0x01010101u;
		for (; n >= 4; n -= 4, dp += 4)
			*(uint32_t *)(void *)dp = w;
	}
	while (n--)
		*dp++ = (unsigned char)c;
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] - y[i];
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

/* ---- semihosting ---- */

static int semihost(int op, const void *arg)
{
	register int r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;
	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

static void put(const char *s) { semihost(0x04, s); } /* SYS_WRITE0 */

static void put_u32(uint32_t v)
{
	char buf[11];
	int i = 10;
	buf[i] = 0;
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(buf + i);
}

static void __attribute__((noreturn)) exit_with(int ok)
{
	/* SYS_EXIT with ADP_Stopped_ApplicationExit (status 0) or RunTimeErrorUnknown. */
	semihost(0x18, (const void *)(ok ? 0x20026 : 0x20023));
	for (;;) {
	}
}

/* ---- marks and stack painting ---- */

/* The plugin counts instructions between executions of this function's first instruction. */
__attribute__((noinline, used)) void m0_cost_mark(void) { __asm__ volatile("" ::: "memory"); }

#define PAINT 0xA5A5A5A5u

/* Paints the free stack below this frame; returns nothing, stack_used() reads it back. */
static __attribute__((noinline)) void paint(void)
{
	volatile uint32_t here = 0;
	uint32_t *p = &__bss_end, *top = (uint32_t *)((uintptr_t)&here - 64);
	while (p < top)
		*p++ = PAINT;
}

static uint32_t stack_used(void)
{
	const uint32_t *p = &__bss_end;
	while (*p == PAINT)
		p++;
	return (uint32_t)((uintptr_t)&__stack_top - (uintptr_t)p);
}

static int failures;

static void report(const char *id, uint32_t len, const char *why)
{
	uint32_t stack = stack_used();
	put("cost ");
	put(id);
	put(" ");
	put_u32(len);
	put(" ");
	put_u32(stack);
	put(" 2 ");
	if (why) {
		failures++;
		put("FAIL ");
		put(why);
	} else {
		put("ok");
	}
	put("\n");
}

/* Keeps the compiler from moving work across the marks or dropping results. */
#define OPAQUE(p) __asm__ volatile("" : : "r"(p) : "memory")

#define BULK_SHORT 512
#define BULK_LONG (512 + 2048)
static unsigned char __attribute__((unused)) buf[BULK_LONG] __attribute__((aligned(4)));

static const unsigned char __attribute__((unused)) KEY16[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
static const unsigned char __attribute__((unused)) KEY32[32] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };
static const unsigned char __attribute__((unused)) NONCE12[12] = { 0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0 };

/* One per-byte operation over `len` bytes of buf. */
typedef void (*bulk_fn)(size_t len);

static __attribute__((noinline)) void bulk(const char *id, bulk_fn f)
{
	static const uint32_t lengths[2] = { BULK_SHORT, BULK_LONG };
	for (int i = 0; i < 2; i++) {
		paint();
		m0_cost_mark();
		f(lengths[i]);
		m0_cost_mark();
		report(id, lengths[i], 0);
	}
}

#if defined(OP_ALL) || defined(OP_SHA256)
static void sha256(size_t len)
{
	br_sha256_context c;
	unsigned char out[32];
	br_sha256_init(&c);
	br_sha256_update(&c, buf, len);
	br_sha256_out(&c, out);
	OPAQUE(out);
}
#endif

#if defined(OP_ALL) || defined(OP_SHA512)
static void sha512(size_t len)
{
	br_sha512_context c;
	unsigned char out[64];
	br_sha512_init(&c);
	br_sha512_update(&c, buf, len);
	br_sha512_out(&c, out);
	OPAQUE(out);
}
#endif

#if defined(OP_ALL) || defined(OP_AES128_CTR)
static void aes128_ctr(size_t len)
{
	br_aes_ct_ctr_keys k;
	br_aes_ct_ctr_init(&k, KEY16, 16);
	br_aes_ct_ctr_run(&k, NONCE12, 1, buf, len);
	OPAQUE(buf);
}
#endif

#if defined(OP_ALL) || defined(OP_CHACHA20)
static void chacha20(size_t len)
{
	br_chacha20_ct_run(KEY32, NONCE12, 1, buf, len);
	OPAQUE(buf);
}
#endif

#if defined(OP_ALL) || defined(OP_GHASH)
static void ghash(size_t len)
{
	unsigned char y[16] = { 0 };
	br_ghash_ctmul32(y, KEY16, buf, len);
	OPAQUE(y);
}
#endif

#if defined(OP_ALL) || defined(OP_POLY1305)
/* Poly1305 alone: br_poly1305_ctmul32_run also encrypts with the ChaCha20 it is given, so it
   gets one that does nothing (the one-time key is then zero; the code is constant-time). */
static uint32_t no_chacha(const void *key, const void *iv, uint32_t cc, void *data, size_t len)
{
	(void)key;
	(void)iv;
	(void)data;
	(void)len;
	return cc;
}

static void poly1305(size_t len)
{
	unsigned char tag[16];
	br_poly1305_ctmul32_run(KEY32, NONCE12, buf, len, 0, 0, tag, no_chacha, 1);
	OPAQUE(tag);
}
#endif

/* A per-operation run: `what` returns 0 or a failure reason. */
static __attribute__((noinline)) void once(const char *id, const char *(*what)(void))
{
	paint();
	const char *why = what();
	report(id, 0, why);
}

static const char *overhead(void)
{
	m0_cost_mark();
	m0_cost_mark();
	return 0;
}

#if defined(OP_ALL) || defined(OP_X25519)
/* RFC 7748 §5.2, first vector. */
static const char *x25519(void)
{
	static const unsigned char want[32] = { 0xc3, 0xda, 0x55, 0x37, 0x9d, 0xe9, 0xc6, 0x90,
		0x8e, 0x94, 0xea, 0x4d, 0xf2, 0x8d, 0x08, 0x4f, 0x32, 0xec, 0xcf, 0x03, 0x49, 0x1c,
		0x71, 0xf7, 0x54, 0xb4, 0x07, 0x55, 0x77, 0xa2, 0x85, 0x52 };
	static const unsigned char k[32] = { 0xa5, 0x46, 0xe3, 0x6b, 0xf0, 0x52, 0x7c, 0x9d, 0x3b,
		0x16, 0x15, 0x4b, 0x82, 0x46, 0x5e, 0xdd, 0x62, 0x14, 0x4c, 0x0a, 0xc1, 0xfc, 0x5a,
		0x18, 0x50, 0x6a, 0x22, 0x44, 0xba, 0x44, 0x9a, 0xc4 };
	unsigned char u[32] = { 0xe6, 0xdb, 0x68, 0x67, 0x58, 0x30, 0x30, 0xdb, 0x35, 0x94, 0xc1,
		0xa4, 0x24, 0xb1, 0x5f, 0x7c, 0x72, 0x66, 0x24, 0xec, 0x26, 0xb3, 0x35, 0x3b, 0x10,
		0xa9, 0x03, 0xa6, 0xd0, 0xab, 0x1c, 0x4c };
	m0_cost_mark();
	uint32_t ok = br_ec_c25519_m15.mul(u, 32, k, 32, BR_EC_curve25519);
	m0_cost_mark();
	return ok == 1 && memcmp(u, want, 32) == 0 ? 0 : "wrong X25519 output";
}
#endif

#if defined(OP_ALL) || defined(OP_P256_ECDH)
/* RFC 5903 §8.1: the responder's secret times the initiator's point. */
static const char *p256_ecdh(void)
{
	static const unsigned char i[32] = { 0xC8, 0x8F, 0x01, 0xF5, 0x10, 0xD9, 0xAC, 0x3F, 0x70,
		0xA2, 0x92, 0xDA, 0xA2, 0x31, 0x6D, 0xE5, 0x44, 0xE9, 0xAA, 0xB8, 0xAF, 0xE8, 0x40,
		0x49, 0xC6, 0x2A, 0x9C, 0x57, 0x86, 0x2D, 0x14, 0x33 };
	static const unsigned char gir[32] = { 0xD6, 0x84, 0x0F, 0x6B, 0x42, 0xF6, 0xED, 0xAF, 0xD1,
		0x31, 0x16, 0xE0, 0xE1, 0x25, 0x65, 0x20, 0x2F, 0xEF, 0x8E, 0x9E, 0xCE, 0x7D, 0xCE,
		0x03, 0x81, 0x24, 0x64, 0xD0, 0x4B, 0x94, 0x42, 0xDE };
	unsigned char gr[65] = { 0x04, 0xD1, 0x2D, 0xFB, 0x52, 0x89, 0xC8, 0xD4, 0xF8, 0x12, 0x08,
		0xB7, 0x02, 0x70, 0x39, 0x8C, 0x34, 0x22, 0x96, 0x97, 0x0A, 0x0B, 0xCC, 0xB7, 0x4C,
		0x73, 0x6F, 0xC7, 0x55, 0x44, 0x94, 0xBF, 0x63, 0x56, 0xFB, 0xF3, 0xCA, 0x36, 0x6C,
		0xC2, 0x3E, 0x81, 0x57, 0x85, 0x4C, 0x13, 0xC5, 0x8D, 0x6A, 0xAC, 0x23, 0xF0, 0x46,
		0xAD, 0xA3, 0x0F, 0x83, 0x53, 0xE7, 0x4F, 0x33, 0x03, 0x98, 0x72, 0xAB };
	m0_cost_mark();
	uint32_t ok = br_ec_p256_m15.mul(gr, 65, i, 32, BR_EC_secp256r1);
	m0_cost_mark();
	return ok == 1 && memcmp(gr + 1, gir, 32) == 0 ? 0 : "wrong P-256 shared secret";
}
#endif

#if defined(OP_ALL) || defined(OP_RSA2048_PUBLIC) || defined(OP_RSA2048_PRIVATE)
static const br_rsa_public_key __attribute__((unused)) rsa_pk = { (unsigned char *)RSA_N, sizeof RSA_N,
	(unsigned char *)RSA_E, sizeof RSA_E };
static const br_rsa_private_key __attribute__((unused)) rsa_sk = { 2048, (unsigned char *)RSA_P, sizeof RSA_P,
	(unsigned char *)RSA_Q, sizeof RSA_Q, (unsigned char *)RSA_DP, sizeof RSA_DP,
	(unsigned char *)RSA_DQ, sizeof RSA_DQ, (unsigned char *)RSA_IQ, sizeof RSA_IQ };
#endif

#if defined(OP_ALL) || defined(OP_RSA2048_PUBLIC)
/* RSAVP1 of core-rsa's test signature: its PKCS#1 v1.5 padding must come out. */
static const char *rsa2048_public(void)
{
	unsigned char x[256];
	memcpy(x, RSA_SIG, 256);
	m0_cost_mark();
	uint32_t ok = br_rsa_i15_public(x, 256, &rsa_pk);
	m0_cost_mark();
	return ok == 1 && x[0] == 0 && x[1] == 1 && x[2] == 0xff && x[255 - 32 - 19] == 0
		? 0 : "wrong RSA public operation output";
}
#endif

#if defined(OP_ALL) || defined(OP_RSA2048_PRIVATE)
/* RSASP1 (CRT, no blinding in BearSSL) of the public operation's output: the signature. */
static const char *rsa2048_private(void)
{
	unsigned char x[256];
	memcpy(x, RSA_SIG, 256);
	if (br_rsa_i15_public(x, 256, &rsa_pk) != 1)
		return "RSA public operation failed";
	m0_cost_mark();
	uint32_t ok = br_rsa_i15_private(x, &rsa_sk);
	m0_cost_mark();
	return ok == 1 && memcmp(x, RSA_SIG, 256) == 0 ? 0 : "wrong RSA signature";
}
#endif

int main(void)
{
	/* Every image links the harness's loops, the empty one too, so they cancel out of the
	   flash figures (as in the Rust firmware). */
	OPAQUE(bulk);
	once("overhead", overhead);
#if defined(OP_ALL) || defined(OP_SHA256)
	bulk("sha256", sha256);
#endif
#if defined(OP_ALL) || defined(OP_SHA512)
	bulk("sha512", sha512);
#endif
#if defined(OP_ALL) || defined(OP_AES128_CTR)
	bulk("aes128-ctr", aes128_ctr);
#endif
#if defined(OP_ALL) || defined(OP_CHACHA20)
	bulk("chacha20", chacha20);
#endif
#if defined(OP_ALL) || defined(OP_GHASH)
	bulk("ghash", ghash);
#endif
#if defined(OP_ALL) || defined(OP_POLY1305)
	bulk("poly1305", poly1305);
#endif
#if defined(OP_ALL) || defined(OP_X25519)
	once("x25519", x25519);
#endif
#if defined(OP_ALL) || defined(OP_P256_ECDH)
	once("p256-ecdh", p256_ecdh);
#endif
#if defined(OP_ALL) || defined(OP_RSA2048_PUBLIC)
	once("rsa2048-public", rsa2048_public);
#endif
#if defined(OP_ALL) || defined(OP_RSA2048_PRIVATE)
	once("rsa2048-private", rsa2048_private);
#endif
	put("bearssl-cost: done\n");
	exit_with(failures == 0);
}

void reset(void)
{
	uint32_t *d = &__data_start;
	const uint32_t *s = &__data_load;
	while (d < &__data_end)
		*d++ = *s++;
	for (uint32_t *b = &__bss_start; b < &__bss_end; b++)
		*b = 0;
	main();
	exit_with(0);
}
