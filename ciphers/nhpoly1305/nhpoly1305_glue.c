/* nhpoly1305_glue.c - NHPoly1305: chunk buffering, NH on the chosen
 * implementation (many chunks per call in bulk), Poly1305 over the NH
 * outputs, and the MAC entry points with one stack burn each. */
#include "nhpoly1305.h"

GCRY_IMPORT (poly1305, gcry_poly1305_exports)

#ifdef USE_AMD64
/* asm/nh-amd64-{sse2,avx2,avx512}.S (the AVX-512 ones take the key
 * arranged) */
extern nh_routine _gcry_nh_amd64_sse2, _gcry_nh_amd64_avx2, _gcry_nh_amd64_avx512;
extern nh_units_routine _gcry_nh_amd64_sse2_units, _gcry_nh_amd64_avx2_units,
  _gcry_nh_amd64_avx512_units;
#endif
#ifdef USE_AARCH64
/* asm/nh-aarch64-neon.S */
extern nh_routine _gcry_nh_aarch64_neon;
extern nh_units_routine _gcry_nh_aarch64_neon_units;
#endif

#define NH_OPS(...) GCRY_OPS (nh_ops, __VA_ARGS__)

/* NH's drivers compiled in: name suffix, priority, the GCRY_HWF_* bits
 * they need, tag, description, what it runs.  A row's place is its id. */
static const gcry_driver nh_drivers[] = {
  { "generic", 100, 0, "", "portable C NH", NH_OPS (nh_generic, nh_generic_units, 0) },
#ifdef USE_AMD64
  { "amd64-sse2", 300, GCRY_HWF_SSE2, "", "SSE2 NH (pmuludq)",
    NH_OPS (_gcry_nh_amd64_sse2, _gcry_nh_amd64_sse2_units, 0) },
  { "amd64-avx2", 400, GCRY_HWF_AVX2, "", "AVX2 NH (vpmuludq)",
    NH_OPS (_gcry_nh_amd64_avx2, _gcry_nh_amd64_avx2_units, 0) },
  { "amd64-avx512", 500, GCRY_HWF_AVX2 | GCRY_HWF_AVX512F, "",
    "AVX-512 NH (512-bit vpmuludq, key held pre-arranged)",
    NH_OPS (_gcry_nh_amd64_avx512, _gcry_nh_amd64_avx512_units, 1) },
#endif
#ifdef USE_AARCH64
  { "aarch64-neon", 300, GCRY_HWF_NEON, "", "NEON NH (umlal, umlal2)",
    NH_OPS (_gcry_nh_aarch64_neon, _gcry_nh_aarch64_neon_units, 0) },
#endif
};

GCRY_DRIVERS_ACCESSOR (gcry_nh_drivers, nh_drivers)

/* IMPL names an NH driver built into this module. */
static int
nh_impl_ok (unsigned int impl)
{
  return GCRY_DRIVER_OK (nh_drivers, impl);
}

/* What NH driver IMPL (checked at setkey) runs. */
static const nh_ops *
nh_of (unsigned int impl)
{
  return nh_drivers[impl].ops;
}

static unsigned int
nh_one (unsigned int impl, const uint32_t *key, const uint8_t *msg, size_t len,
        uint8_t hash[NH_HASH_BYTES])
{
  return nh_of (impl)->one (key, msg, len, hash);
}

static unsigned int
nh_units (unsigned int impl, const uint32_t *key, const uint8_t *msg, size_t nunits,
          uint8_t *hashes)
{
  return nh_of (impl)->units (key, msg, nunits, hashes);
}

unsigned int
nhpoly1305_setkey_noburn (nhpoly1305_ctx *ctx, const uint8_t *key,
                          unsigned int nh_impl, unsigned int poly_impl)
{
  uint8_t polykey[POLY1305_KEY];
  unsigned int burn, i;

  gcry_wipememory (ctx, sizeof *ctx);
  memcpy (polykey, key, 16);
  memset (polykey + 16, 0, 16);       /* no s: the bare polynomial value */
  burn = poly1305_api->setkey_noburn (&ctx->poly, polykey, poly_impl);
  for (i = 0; i < NH_KEY_WORDS; i++)
    ctx->nhkey[i] = gcry_load_le32 (key + 16 + 4 * i);
  if (nh_of (nh_impl)->arranged)
    nh_key_arrange (ctx->nhkey);
  ctx->nh_impl = nh_impl;
  gcry_wipememory (polykey, sizeof polykey);
  return burn + sizeof (polykey) + GCRY_C_FRAME;
}

unsigned int
nhpoly1305_update_noburn (nhpoly1305_ctx *ctx, const uint8_t *m, size_t n)
{
  uint8_t hashes[NH_BATCH * NH_HASH_BYTES];
  unsigned int burn = 0;

  /* 1. complete a buffered chunk */
  if (ctx->buflen)
    {
      size_t take = NH_UNIT - ctx->buflen;
      if (take > n)
        take = n;
      memcpy (ctx->buf + ctx->buflen, m, take);
      ctx->buflen += (unsigned int)take;
      m += take;
      n -= take;
      if (ctx->buflen < NH_UNIT)
        return GCRY_C_FRAME;
      burn = nh_one (ctx->nh_impl, ctx->nhkey, ctx->buf, NH_UNIT, hashes);
      burn = gcry_max_burn (burn, poly1305_api->update_noburn (&ctx->poly, hashes, NH_HASH_BYTES));
      ctx->buflen = 0;
    }

  /* 2. whole chunks straight from the input, NH_BATCH at a time (a chunk
   *    is hashed the same whether or not it is the last one) */
  while (n >= NH_UNIT)
    {
      size_t nunits = n / NH_UNIT;
      if (nunits > NH_BATCH)
        nunits = NH_BATCH;
      burn = gcry_max_burn (burn, nh_units (ctx->nh_impl, ctx->nhkey, m, nunits, hashes));
      burn = gcry_max_burn (burn, poly1305_api->update_noburn (&ctx->poly, hashes,
                                                          nunits * NH_HASH_BYTES));
      m += nunits * NH_UNIT;
      n -= nunits * NH_UNIT;
    }

  /* 3. keep the rest */
  if (n)
    {
      memcpy (ctx->buf, m, n);
      ctx->buflen = (unsigned int)n;
    }
  gcry_wipememory (hashes, sizeof hashes);
  return burn + sizeof (hashes) + GCRY_C_FRAME;
}

unsigned int
nhpoly1305_final_noburn (const nhpoly1305_ctx *ctx, uint8_t out[16])
{
  poly1305_ctx poly;
  uint8_t hash[NH_HASH_BYTES];
  uint8_t last[NH_UNIT];
  unsigned int burn = 0;

  poly1305_api->copy (&poly, &ctx->poly);
  if (ctx->buflen)
    {
      /* pad the last chunk with zeros to a multiple of 16 bytes */
      size_t len = (ctx->buflen + 15) & ~(size_t)15;
      memcpy (last, ctx->buf, ctx->buflen);
      memset (last + ctx->buflen, 0, len - ctx->buflen);
      burn = nh_one (ctx->nh_impl, ctx->nhkey, last, len, hash);
      burn = gcry_max_burn (burn, poly1305_api->update_noburn (&poly, hash, NH_HASH_BYTES));
      gcry_wipememory (last, len);
    }
  burn = gcry_max_burn (burn, poly1305_api->tag_noburn (&poly, out));
  poly1305_api->wipe (&poly);
  gcry_wipememory (hash, sizeof hash);
  return burn + sizeof (poly) + sizeof (hash) + sizeof (last) + GCRY_C_FRAME;
}

/* -- one message under a keyed, untouched context (Adiantum's H_L) ----
 *
 * Chunks are hashed straight from the message (only a last partial chunk
 * is copied, to pad it), their NH outputs gathered in the accumulator and
 * absorbed by Poly1305 NH_BATCH at a time or at the end, into an outside
 * accumulator: the keyed context is neither copied nor changed. */

void
nhpoly1305_acc_init (nhpoly1305_acc *acc)
{
  acc->h[0] = acc->h[1] = acc->h[2] = 0;
  acc->nhashes = 0;
}

/* Absorb the gathered NH outputs. */
static unsigned int
acc_flush (const nhpoly1305_ctx *ctx, nhpoly1305_acc *acc)
{
  unsigned int burn;

  burn = poly1305_api->blocks_into (&ctx->poly, acc->h, acc->hashes,
                               acc->nhashes * (NH_HASH_BYTES / POLY1305_BLOCK));
  acc->nhashes = 0;
  return burn;
}

/* The last LEN (< NH_UNIT, not a multiple of 16) bytes, zero-padded to 16,
 * in their own frame (the 1 KiB copy is counted here). */
static GCRY_NOINLINE unsigned int
nh_padded (const nhpoly1305_ctx *ctx, const uint8_t *msg, size_t len, uint8_t *hash)
{
  uint8_t last[NH_UNIT];
  size_t padded = (len + 15) & ~(size_t)15;
  unsigned int burn;

  memcpy (last, msg, len);
  memset (last + len, 0, padded - len);
  burn = nh_one (ctx->nh_impl, ctx->nhkey, last, padded, hash);
  gcry_wipememory (last, padded);
  return burn + sizeof (last) + GCRY_C_FRAME;
}

unsigned int
nhpoly1305_acc_chunks (const nhpoly1305_ctx *ctx, nhpoly1305_acc *acc, const uint8_t *msg,
                       size_t len)
{
  unsigned int burn = 0;

  while (len)
    {
      uint8_t *slot = acc->hashes + acc->nhashes * NH_HASH_BYTES;
      size_t nunits = len / NH_UNIT;

      if (nunits > NH_BATCH - acc->nhashes)
        nunits = NH_BATCH - acc->nhashes;
      if (nunits)
        {
          burn = gcry_max_burn (burn, nh_units (ctx->nh_impl, ctx->nhkey, msg, nunits, slot));
          acc->nhashes += (unsigned int)nunits;
          msg += nunits * NH_UNIT;
          len -= nunits * NH_UNIT;
        }
      else
        {
          /* the message's last, partial chunk */
          if (len % NH_MSG_GRAIN)
            burn = gcry_max_burn (burn, nh_padded (ctx, msg, len, slot));
          else
            burn = gcry_max_burn (burn, nh_one (ctx->nh_impl, ctx->nhkey, msg, len, slot));
          acc->nhashes++;
          len = 0;
        }
      if (acc->nhashes == NH_BATCH)
        burn = gcry_max_burn (burn, acc_flush (ctx, acc));
    }
  return burn + GCRY_C_FRAME;
}

unsigned int
nhpoly1305_acc_final (const nhpoly1305_ctx *ctx, nhpoly1305_acc *acc, uint8_t out[16])
{
  unsigned int burn = 0;

  if (acc->nhashes)
    burn = acc_flush (ctx, acc);
  burn = gcry_max_burn (burn, poly1305_api->tag_of (&ctx->poly, acc->h, out));
  return burn + GCRY_C_FRAME;
}

/* NHPoly1305 of one whole message with a keyed, untouched CTX. */
unsigned int
nhpoly1305_oneshot_noburn (const nhpoly1305_ctx *ctx, const uint8_t *msg, size_t len,
                           uint8_t out[16])
{
  nhpoly1305_acc acc;
  unsigned int burn;

  nhpoly1305_acc_init (&acc);
  burn = nhpoly1305_acc_chunks (ctx, &acc, msg, len);
  burn = gcry_max_burn (burn, nhpoly1305_acc_final (ctx, &acc, out));
  return burn + sizeof (acc) + GCRY_C_FRAME;
}

/* -- MAC entry points ---------------------------------------------- */

size_t
gcry_nhpoly1305_ctxsize (void)
{
  return sizeof (nhpoly1305_ctx);
}

int
gcry_nhpoly1305_setkey (void *c, const uint8_t *key, size_t keylen,
                        unsigned int nh_impl, unsigned int poly_impl)
{
  if (keylen != NHPOLY1305_KEY_BYTES)
    return GCRY_ERR_INV_KEYLEN;
  if (!nh_impl_ok (nh_impl) || !poly1305_api->impl_ok (poly_impl))
    return GCRY_ERR_NOT_SUPPORTED;
  gcry_burn_stack (nhpoly1305_setkey_noburn (c, key, nh_impl, poly_impl));
  return GCRY_OK;
}

int
gcry_nhpoly1305_update (void *c, const uint8_t *m, size_t n)
{
  if (n)
    gcry_burn_stack (nhpoly1305_update_noburn (c, m, n));
  return GCRY_OK;
}

int
gcry_nhpoly1305_read (void *c, uint8_t *out, size_t outlen)
{
  if (outlen != 16)
    return GCRY_ERR_INV_LENGTH;
  gcry_burn_stack (nhpoly1305_final_noburn (c, out));
  return GCRY_OK;
}

int
gcry_nhpoly1305_verify (void *c, const uint8_t *tag, size_t taglen)
{
  uint8_t mine[16];
  int bad;

  gcry_burn_stack (nhpoly1305_final_noburn (c, mine));
  bad = gcry_ct_memcmp (mine, tag, taglen < 16 ? taglen : 16);
  gcry_wipememory (mine, sizeof mine);
  return (bad || taglen != 16) ? GCRY_ERR_CHECKSUM : GCRY_OK;
}

#ifdef GCRY_TEST_HOOKS
/* Test-only, in the test copies alone (tests/native/nhpoly1305_hooks.c
 * declares it): NH alone on implementation IMPL (the caller checks the CPU
 * runs it), with the raw 1072-byte KEY (arranged here for the AVX-512
 * routine, as setkey does): NUNITS 0 hashes the LEN-byte MSG into 32 bytes
 * at OUT, else NUNITS whole 1024-byte units into 32 bytes each. */
int
gcry_nh_test (unsigned int impl, const uint8_t *key, const uint8_t *msg, size_t len,
              size_t nunits, uint8_t *out)
{
  GCRY_ALIGNED (32) uint32_t words[NH_KEY_WORDS];
  unsigned int burn, i;

  if (!nh_impl_ok (impl))
    return GCRY_ERR_NOT_SUPPORTED;
  if (len > NH_UNIT)
    return GCRY_ERR_INV_LENGTH;
  for (i = 0; i < NH_KEY_WORDS; i++)
    words[i] = gcry_load_le32 (key + 4 * i);
  if (nh_of (impl)->arranged)
    nh_key_arrange (words);
  burn = nunits ? nh_units (impl, words, msg, nunits, out) : nh_one (impl, words, msg, len, out);
  gcry_wipememory (words, sizeof words);
  gcry_burn_stack (burn + GCRY_C_FRAME);
  return GCRY_OK;
}
#endif

static const gcry_nhpoly1305_exports nhpoly1305_exports = {
  sizeof (gcry_nhpoly1305_exports), gcry_nh_drivers, nhpoly1305_setkey_noburn,
  nhpoly1305_acc_init, nhpoly1305_acc_chunks, nhpoly1305_acc_final
};
GCRY_EXPORT (nhpoly1305, gcry_nhpoly1305_exports, nhpoly1305_exports)
