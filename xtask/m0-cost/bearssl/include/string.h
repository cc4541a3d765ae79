/* The four string.h functions BearSSL calls; harness.c defines them (no libc here). */
#ifndef HALITE_BEARSSL_STRING_H
#define HALITE_BEARSSL_STRING_H
#include <stddef.h>
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
#endif
