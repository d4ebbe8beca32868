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

GCRY_ASM_DEPTH_HOOK (gcry_aes_asm_depth)
