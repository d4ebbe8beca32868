/* salsa208.c - Salsa20/8 for the gcrylike plugin example: key and nonce
 * set-up, the portable core, leftover keystream, counter exhaustion, and
 * one stack burn per call, written out by hand to show the hooks at work
 * (the ChaCha8 example lets gcrylike's stream driver skeleton do the
 * stream part).  common.h, found through gcrylike.get_include(), gives the
 * error codes (gcrylike.ErrorCode), gcry_wipememory and gcry_burn_stack,
 * little-endian loads and GCRY_C_FRAME. */
#include "common.h"

#define BLOCK 64
#define ROUNDS 8

enum { IMPL_GENERIC = 0, IMPL_SSE2 = 1 };        /* Implementation.token */

typedef struct {
  uint32_t input[16];       /* Salsa20 state; words 8-9: 64-bit counter */
  uint8_t pad[BLOCK];       /* keystream of the last partial block */
  unsigned int unused;      /* bytes of pad not used yet */
  unsigned int impl;        /* token of the implementation chosen */
  unsigned int exhausted;   /* the counter wrapped: no keystream left */
} s208_ctx;

#ifdef USE_AMD64
/* csrc/xor-amd64-sse2.S; returns the stack depth it used. */
unsigned int _s208_xor_sse2 (uint8_t *dst, const uint8_t *src,
                             const uint8_t *ks, size_t n16);
#endif

size_t
s208_ctxsize (void)
{
  return sizeof (s208_ctx);
}

int
s208_have_asm (void)
{
#ifdef USE_AMD64
  return 1;
#else
  return 0;
#endif
}

int
s208_setkey (void *c, const uint8_t *key, size_t keylen, unsigned int impl)
{
  s208_ctx *ctx = c;
  const uint32_t *k = keylen == 32 ? gcry_sigma : gcry_tau;
  const uint8_t *key_hi = keylen == 32 ? key + 16 : key;
  int i;

  if (keylen != 16 && keylen != 32)
    return GCRY_ERR_INV_KEYLEN;
  if (impl != IMPL_GENERIC && !(impl == IMPL_SSE2 && s208_have_asm ()))
    return GCRY_ERR_NOT_SUPPORTED;
  gcry_wipememory (ctx, sizeof *ctx);
  for (i = 0; i < 4; i++)
    {
      ctx->input[5 * i] = k[i];
      ctx->input[1 + i] = gcry_load_le32 (key + 4 * i);
      ctx->input[11 + i] = gcry_load_le32 (key_hi + 4 * i);
    }
  ctx->impl = impl;
  return GCRY_OK;
}

void
s208_setctr (void *c, uint64_t block)
{
  s208_ctx *ctx = c;
  ctx->input[8] = (uint32_t)block;
  ctx->input[9] = (uint32_t)(block >> 32);
  gcry_wipememory (ctx->pad, sizeof ctx->pad);
  ctx->unused = 0;
  ctx->exhausted = 0;
}

void
s208_setiv (void *c, const uint8_t *iv)
{
  s208_ctx *ctx = c;
  ctx->input[6] = gcry_load_le32 (iv);
  ctx->input[7] = gcry_load_le32 (iv + 4);
  s208_setctr (c, 0);
}

#define QR(a, b, c, d) do {                      \
    x[b] ^= gcry_rol32 (x[a] + x[d], 7);         \
    x[c] ^= gcry_rol32 (x[b] + x[a], 9);         \
    x[d] ^= gcry_rol32 (x[c] + x[b], 13);        \
    x[a] ^= gcry_rol32 (x[d] + x[c], 18);        \
  } while (0)

/* One keystream block into KS; advances the counter.  Returns the stack
 * depth it may have used (check such estimates against the disassembly). */
static GCRY_NOINLINE unsigned int
keystream_block (s208_ctx *ctx, uint8_t ks[BLOCK])
{
  uint32_t x[16];
  int i;

  memcpy (x, ctx->input, sizeof x);
  for (i = 0; i < ROUNDS; i += 2)
    {
      QR (0, 4, 8, 12);  QR (5, 9, 13, 1);  QR (10, 14, 2, 6);  QR (15, 3, 7, 11);
      QR (0, 1, 2, 3);   QR (5, 6, 7, 4);   QR (10, 11, 8, 9);  QR (15, 12, 13, 14);
    }
  for (i = 0; i < 16; i++)
    gcry_store_le32 (ks + 4 * i, x[i] + ctx->input[i]);
  if (++ctx->input[8] == 0 && ++ctx->input[9] == 0)
    ctx->exhausted = 1;
  return sizeof x + GCRY_C_FRAME;
}

/* dst = src ^ ks for n bytes, with the implementation chosen at setkey. */
static unsigned int
xor_keystream (unsigned int impl, uint8_t *dst, const uint8_t *src,
               const uint8_t *ks, size_t n)
{
  unsigned int burn = 0;
  size_t i = 0;

#ifdef USE_AMD64
  if (impl == IMPL_SSE2 && n >= 16)
    {
      burn = _s208_xor_sse2 (dst, src, ks, n / 16);
      i = n & ~(size_t)15;
    }
#else
  (void)impl;                   /* portable build: one implementation */
#endif
  for (; i < n; i++)
    dst[i] = src[i] ^ ks[i];
  return burn;
}

static GCRY_NOINLINE unsigned int
do_crypt (s208_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n)
{
  uint8_t ks[BLOCK];
  unsigned int burn = 0;
  size_t take = n < ctx->unused ? n : ctx->unused;

  /* 1. keystream left over from the previous call */
  xor_keystream (IMPL_GENERIC, dst, src, ctx->pad + BLOCK - ctx->unused, take);
  ctx->unused -= take;
  dst += take, src += take, n -= take;

  /* 2. whole blocks */
  for (; n >= BLOCK; dst += BLOCK, src += BLOCK, n -= BLOCK)
    {
      burn = gcry_max_burn (burn, keystream_block (ctx, ks));
      burn = gcry_max_burn (burn, xor_keystream (ctx->impl, dst, src, ks, BLOCK));
    }

  /* 3. a partial block: keep the rest of its keystream in pad */
  if (n)
    {
      burn = gcry_max_burn (burn, keystream_block (ctx, ctx->pad));
      xor_keystream (IMPL_GENERIC, dst, src, ctx->pad, n);
      ctx->unused = BLOCK - n;
    }

  gcry_wipememory (ks, sizeof ks);
  return burn + sizeof ks + GCRY_C_FRAME;  /* callees, then our own frame */
}

int
s208_crypt (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  s208_ctx *ctx = c;
  uint64_t ctr = (uint64_t)ctx->input[9] << 32 | ctx->input[8];
  size_t from_pad = n < ctx->unused ? n : ctx->unused;
  uint64_t need = ((uint64_t)(n - from_pad) + BLOCK - 1) / BLOCK;

  /* dst may be src, but a partial overlap would read bytes already written. */
  if (gcry_bad_overlap (dst, src, n))
    return GCRY_ERR_INV_ARG;
  /* Refuse, before writing anything, to run past block 2^64 - 1. */
  if (need && (ctx->exhausted || (ctr != 0 && need > 0 - ctr)))
    return GCRY_ERR_TOO_LARGE;
  if (n)
    gcry_burn_stack (do_crypt (ctx, dst, src, n));  /* one burn, the deepest */
  return GCRY_OK;
}
