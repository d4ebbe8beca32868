/* aes_depth.c - test-only: the AES-NI assembly routines for
 * tests/test_asm_depth.py, on 15 blocks (a group of eight, then four, two
 * and one) (the runs and the measuring: gcry_asm_depth in
 * gcrylike/_native/burn.c). */
#include "aes_glue.h"

#ifdef USE_AMD64
/* the key schedule goes to the key buffer (480 of its bytes) */
#define KEY(a) ((aes256_aesni_key *)(a)->key)
GCRY_DEPTH_THUNK (aesni_setkey, _gcry_aes256_amd64_aesni_setkey (KEY (a), a->src))
GCRY_DEPTH_THUNK (aesni_encrypt, _gcry_aes256_amd64_aesni_encrypt (KEY (a), a->dst, a->src, 15))
GCRY_DEPTH_THUNK (aesni_decrypt, _gcry_aes256_amd64_aesni_decrypt (KEY (a), a->dst, a->src, 15))

static const gcry_depth_case cases[] = {
  { "_gcry_aes256_amd64_aesni_setkey", aesni_setkey },
  { "_gcry_aes256_amd64_aesni_encrypt", aesni_encrypt },
  { "_gcry_aes256_amd64_aesni_decrypt", aesni_decrypt },
};
#endif

/* Routine WHICH: its name, and unless REPORTED is NULL its reported and
 * measured depth, run SHIFT bytes deeper (0 or 16); GCRY_ERR_INV_ARG past
 * the last, NOT_SUPPORTED without assembly. */
int
gcry_aes_asm_depth (unsigned int which, unsigned int shift, const char **name,
                    unsigned int *reported, size_t *measured)
{
#ifdef USE_AMD64
  return gcry_asm_depth (cases, sizeof cases / sizeof cases[0], which, shift, name,
                         reported, measured);
#else
  (void)which, (void)shift, (void)name, (void)reported, (void)measured;
  return GCRY_ERR_NOT_SUPPORTED;
#endif
}
