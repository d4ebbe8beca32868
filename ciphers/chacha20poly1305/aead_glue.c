/* aead_glue.c - ChaCha20-Poly1305 and XChaCha20-Poly1305.
 *
 * Poly1305 key from ChaCha20 block 0 of the nonce, data from block 1;
 * MAC over aad || pad16 || ciphertext || pad16 || le64(aadlen) ||
 * le64(ctlen).  Streamed data (the handle's encrypt/decrypt) is processed
 * in chunks that stay in L1: each chunk is encrypted and then
 * authenticated (or authenticated and then decrypted) while hot, rather
 * than two passes over the whole message.  With AVX2, whole 512-byte
 * groups go through one routine that runs both at once
 * (asm/chacha20-poly1305-amd64-avx2.S; stitched_noburn below).  A one-shot
 * open is the exception: it makes the two passes, the MAC over the whole
 * ciphertext and then, for an authentic message only, the cipher
 * (open_noburn).  One stack burn per public call covers both primitives. */
#include "aead.h"

GCRY_IMPORT (chacha, gcry_chacha_exports)
GCRY_IMPORT (poly1305, gcry_poly1305_exports)

/* Bytes per stitched step: large enough for the 8-block SIMD routines and
 * the four-way Poly1305, small enough to stay in the L1 cache. */
#define AEAD_CHUNK 4096

/* A 32-bit block counter from 1: at most 2^32 - 1 blocks of data. */
#define AEAD_MAX_CT (((uint64_t)1 << 38) - 64)

/* Whether N bytes of data are more than the counter reaches.  A function
 * of a 64-bit N: where size_t is 32 bits the comparison of a size_t
 * is always false, which -Wextra (-Wtype-limits) reports. */
static inline int
too_long (uint64_t n)
{
  return n > AEAD_MAX_CT;
}

#ifdef USE_AMD64
/* asm/chacha20-poly1305-amd64-avx2.S */
extern poly1305_stitched_routine _gcry_chacha20_poly1305_amd64_avx2_blocks8;
#endif

/* The joins, the composite's drivers with its stitched routine: name
 * suffix, priority (its hundreds the SIMD level of the pair it joins), the
 * GCRY_HWF_* bits it needs, tag, description, the stitched routine (NULL:
 * each part's own, chunk by chunk).  The rule (gcry_join_fits; in Python
 * gcrylike._spec.joined) gives each ChaCha/Poly1305 pair the join of its
 * level, else the separate one.  A row's place is its id. */
static const gcry_driver aead_joins[] = {
  { "separate", 100, 0, "", "ChaCha20 and Poly1305 chunk by chunk", NULL },
#ifdef USE_AMD64
  { "stitched", 400, GCRY_HWF_AVX2, "",
    "ChaCha20 and Poly1305 stitched in one AVX2 pass, eight blocks at a time",
    GCRY_OPS (poly1305_join_ops, _gcry_chacha20_poly1305_amd64_avx2_blocks8) },
#endif
};

GCRY_DRIVERS_ACCESSOR (gcry_aead_drivers, aead_joins)

size_t
gcry_aead_ctxsize (void)
{
  return sizeof (aead_ctx);
}

int
gcry_aead_setkey (void *c, const uint8_t *key, size_t keylen,
                  unsigned int chacha_impl, unsigned int poly_impl, unsigned int join,
                  int xchacha)
{
  aead_ctx *ctx = c;
  int rc;

  if (keylen != 32)
    return GCRY_ERR_INV_KEYLEN;
  if (!gcry_join_ok (aead_joins, sizeof aead_joins / sizeof aead_joins[0], join,
                     chacha_api->drivers, chacha_impl, poly1305_api->drivers, poly_impl))
    return GCRY_ERR_NOT_SUPPORTED;
  gcry_wipememory (ctx, sizeof *ctx);
  rc = chacha_api->setkey (&ctx->chacha, key, keylen, 20, chacha_impl, xchacha);
  if (rc)
    return rc;
  ctx->poly_impl = poly_impl;
  ctx->join = join;
  ctx->phase = AEAD_NEED_IV;
  return GCRY_OK;
}

/* A one-shot message of up to this many bytes takes its keystream from the
 * call that makes the Poly1305 key: block 0 and up to seven data blocks
 * come from one SIMD call (side by side) instead of serial calls. */
#define AEAD_HEAD (7 * CHACHA_BLOCK)
/* (Longer messages start with a serial block 0: splitting off a head
 * would leave the rest a block short of the 8-block width.) */

/* Install the nonce and key the MAC from keystream block 0.  KS receives
 * blocks 0 .. KSLEN/64 - 1 (KSLEN a multiple of 64, at least 64); the
 * caller wipes it. */
static unsigned int
start_noburn (aead_ctx *ctx, const uint8_t *iv, size_t ivlen,
              uint8_t *ks, size_t kslen, int *rc)
{
  static const uint8_t zeros[CHACHA_BLOCK + AEAD_HEAD];
  unsigned int burn;

  if (ivlen != (ctx->chacha.xchacha ? 24u : 12u))
    {
      *rc = GCRY_ERR_INV_IV;
      return 0;
    }
  *rc = chacha_api->setiv (&ctx->chacha, iv, ivlen);
  if (*rc)
    return 0;
  /* one-time Poly1305 key: the first 32 bytes of keystream block 0 */
  burn = chacha_api->crypt_noburn (&ctx->chacha, ks, zeros, kslen);
  burn = gcry_max_burn (burn, poly1305_api->setkey_noburn (&ctx->mac, ks, ctx->poly_impl));
  ctx->aadlen = ctx->ctlen = 0;
  ctx->phase = AEAD_AAD;
  return burn + GCRY_C_FRAME;
}

static unsigned int
setiv_noburn (aead_ctx *ctx, const uint8_t *iv, size_t ivlen, int *rc)
{
  uint8_t block0[CHACHA_BLOCK];
  unsigned int burn;

  burn = start_noburn (ctx, iv, ivlen, block0, sizeof block0, rc);
  gcry_wipememory (block0, sizeof block0);
  return burn + sizeof (block0) + GCRY_C_FRAME;
}

int
gcry_aead_setiv (void *c, const uint8_t *iv, size_t ivlen)
{
  int rc;
  gcry_burn_stack (setiv_noburn (c, iv, ivlen, &rc));
  return rc;
}

int
gcry_aead_authenticate (void *c, const uint8_t *aad, size_t n)
{
  aead_ctx *ctx = c;

  if (ctx->phase != AEAD_AAD)
    return GCRY_ERR_INV_STATE;
  if (n)
    gcry_burn_stack (poly1305_api->update_noburn (&ctx->mac, aad, n));
  ctx->aadlen += n;
  return GCRY_OK;
}

/* The data phase starts: close the AAD with its padding. */
static unsigned int
enter_data (aead_ctx *ctx, int encrypting, int *rc)
{
  unsigned int burn = 0;

  *rc = GCRY_OK;
  if (ctx->phase == AEAD_AAD)
    {
      burn = poly1305_api->pad16_noburn (&ctx->mac);
      ctx->phase = AEAD_DATA;
      ctx->encrypting = encrypting;
    }
  else if (ctx->phase != AEAD_DATA || ctx->encrypting != (unsigned int)encrypting)
    *rc = GCRY_ERR_INV_STATE;
  return burn;
}

/* One piece of data (N > 0), MAC and cipher in the direction's order:
 * encryption authenticates the ciphertext it wrote, decryption the
 * ciphertext before it is overwritten in place.  KS, if not NULL, is the
 * piece's keystream, made ahead; otherwise the cipher runs on. */
static unsigned int
piece_noburn (aead_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n,
              const uint8_t *ks, int encrypting)
{
  unsigned int burn = 0;

  if (!encrypting)
    burn = poly1305_api->update_noburn (&ctx->mac, src, n);
  if (ks)
    gcry_xor_bytes (dst, src, ks, n);
  else
    burn = gcry_max_burn (burn, chacha_api->crypt_noburn (&ctx->chacha, dst, src, n));
  if (encrypting)
    burn = gcry_max_burn (burn, poly1305_api->update_noburn (&ctx->mac, dst, n));
  ctx->ctlen += n;
  return burn + GCRY_C_FRAME;
}

/* One group of the stitched routine: 8 ChaCha20 blocks, 32 Poly1305 blocks. */
#define AEAD_STITCH 512

/* The stitched routine of CTX's join if it can take the data from here on
 * (both streams at a block boundary: no keystream left over from a partial
 * block, no MAC bytes buffered), else NULL. */
static poly1305_stitched_routine *
stitch_ok (const aead_ctx *ctx)
{
  const poly1305_join_ops *join = aead_joins[ctx->join].ops;

  return join && ctx->chacha.pos.unused == 0 && ctx->mac.buflen == 0 ? join->stitched : NULL;
}

/* N bytes (a positive multiple of AEAD_STITCH) with ChaCha20 and Poly1305
 * stitched in one pass.  Decryption authenticates each group's ciphertext
 * as it decrypts it (the routine loads a group's MAC input before storing
 * its output, so in place is fine).  Encryption authenticates the
 * ciphertext it wrote, so the MAC runs one group behind: group 0 is
 * encrypted alone, group i (i >= 1) together with the ciphertext of group
 * i - 1, and the last group's ciphertext is absorbed alone. */
static unsigned int
stitched_noburn (poly1305_stitched_routine *stitched, aead_ctx *ctx, uint8_t *dst,
                 const uint8_t *src, size_t n, int encrypting)
{
  const uint32_t nonce_word = ctx->chacha.input[13];
  size_t groups = n / AEAD_STITCH;
  unsigned int burn;

  if (encrypting)
    {
      burn = chacha_api->crypt_noburn (&ctx->chacha, dst, src, AEAD_STITCH);
      if (groups > 1)
        {
          burn = gcry_max_burn (burn, stitched
                                (ctx->chacha.input, dst + AEAD_STITCH, src + AEAD_STITCH,
                                 (groups - 1) * (AEAD_STITCH / CHACHA_BLOCK),
                                 ctx->mac.h, ctx->mac.r, dst));
          chacha_api->counter_done (&ctx->chacha, nonce_word);
          ctx->stitched += groups - 1;
        }
      burn = gcry_max_burn (burn, poly1305_api->update_noburn (&ctx->mac, dst + n - AEAD_STITCH,
                                                          AEAD_STITCH));
    }
  else
    {
      burn = stitched
               (ctx->chacha.input, dst, src, groups * (AEAD_STITCH / CHACHA_BLOCK),
                ctx->mac.h, ctx->mac.r, src);
      chacha_api->counter_done (&ctx->chacha, nonce_word);
      ctx->stitched += groups;
    }
  ctx->ctlen += n;
  return burn + GCRY_C_FRAME;
}

static unsigned int
crypt_noburn (aead_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n,
              int encrypting, int *rc)
{
  poly1305_stitched_routine *stitched;
  unsigned int burn;

  /* refuse bad requests before anything changes state */
  if (gcry_bad_overlap (dst, src, n))
    {
      *rc = GCRY_ERR_INV_ARG;
      return 0;
    }
  if (n > AEAD_MAX_CT - ctx->ctlen)
    {
      *rc = GCRY_ERR_TOO_LARGE;
      return 0;
    }
  burn = enter_data (ctx, encrypting, rc);
  if (*rc)
    return burn;
  /* whole groups stitched when possible (the whole run in one pass: the
   * routine keeps its 512-byte groups in L1 itself); the rest in chunks */
  if (n >= AEAD_STITCH && (stitched = stitch_ok (ctx)))
    {
      size_t k = n - n % AEAD_STITCH;
      burn = gcry_max_burn (burn, stitched_noburn (stitched, ctx, dst, src, k, encrypting));
      dst += k;
      src += k;
      n -= k;
    }
  while (n)
    {
      size_t len = n < AEAD_CHUNK ? n : AEAD_CHUNK;
      burn = gcry_max_burn (burn, piece_noburn (ctx, dst, src, len, NULL, encrypting));
      dst += len;
      src += len;
      n -= len;
    }
  return burn + GCRY_C_FRAME;
}

int
gcry_aead_encrypt (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  int rc;
  gcry_burn_stack (crypt_noburn (c, dst, src, n, 1, &rc));
  return rc;
}

int
gcry_aead_decrypt (void *c, uint8_t *dst, const uint8_t *src, size_t n)
{
  int rc;
  gcry_burn_stack (crypt_noburn (c, dst, src, n, 0, &rc));
  return rc;
}

/* Pad the ciphertext, absorb the two lengths, keep the tag. */
static unsigned int
finish_noburn (aead_ctx *ctx, int *rc)
{
  uint8_t lengths[16];
  unsigned int burn = 0;

  *rc = GCRY_OK;
  if (ctx->phase == AEAD_DONE)
    return 0;
  if (ctx->phase == AEAD_NEED_IV)
    {
      *rc = GCRY_ERR_INV_STATE;
      return 0;
    }
  if (ctx->phase == AEAD_AAD)
    burn = poly1305_api->pad16_noburn (&ctx->mac);
  burn = gcry_max_burn (burn, poly1305_api->pad16_noburn (&ctx->mac));
  gcry_store_le32 (lengths, (uint32_t)ctx->aadlen);
  gcry_store_le32 (lengths + 4, (uint32_t)(ctx->aadlen >> 32));
  gcry_store_le32 (lengths + 8, (uint32_t)ctx->ctlen);
  gcry_store_le32 (lengths + 12, (uint32_t)(ctx->ctlen >> 32));
  burn = gcry_max_burn (burn, poly1305_api->update_noburn (&ctx->mac, lengths, sizeof lengths));
  burn = gcry_max_burn (burn, poly1305_api->tag_noburn (&ctx->mac, ctx->tag));
  poly1305_api->wipe (&ctx->mac);
  ctx->phase = AEAD_DONE;
  return burn + sizeof (lengths) + GCRY_C_FRAME;
}

int
gcry_aead_gettag (void *c, uint8_t *tag, size_t taglen)
{
  aead_ctx *ctx = c;
  int rc;

  if (taglen != POLY1305_TAG)
    return GCRY_ERR_INV_LENGTH;
  gcry_burn_stack (finish_noburn (ctx, &rc));
  if (!rc)
    memcpy (tag, ctx->tag, POLY1305_TAG);
  return rc;
}

/* 0 if TAG is right (constant-time compare), CHECKSUM otherwise; a tag of
 * another length never verifies. */
int
gcry_aead_checktag (void *c, const uint8_t *tag, size_t taglen)
{
  aead_ctx *ctx = c;
  int rc, bad;

  gcry_burn_stack (finish_noburn (ctx, &rc));
  if (rc)
    return rc;
  bad = gcry_ct_memcmp (ctx->tag, tag, taglen < POLY1305_TAG ? taglen : POLY1305_TAG);
  return (bad || taglen != POLY1305_TAG) ? GCRY_ERR_CHECKSUM : GCRY_OK;
}

/* -- one-shot: work on a copy so one keyed context serves many threads;
 * an open verifies the whole message before it deciphers any of it -- */

/* Seal a one-shot message of N <= AEAD_HEAD bytes, whose keystream came
 * with block 0 (KS). */
static unsigned int
seal_head_noburn (aead_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n,
                  const uint8_t *ks, int *rc)
{
  unsigned int burn;

  burn = enter_data (ctx, 1, rc);
  if (n)
    burn = gcry_max_burn (burn, piece_noburn (ctx, dst, src, n, ks, 1));
  return burn + GCRY_C_FRAME;
}

/* Keystream blocks to make for block 0 and N bytes of data: with SIMD, a
 * whole number of one call's width (2, 4 or 8 blocks side by side cost
 * about what one block alone does); otherwise just those needed. */
static size_t
keystream_blocks (const chacha_ctx *chacha, size_t n)
{
  return chacha_api->call_blocks (chacha->impl, 1 + (n + CHACHA_BLOCK - 1) / CHACHA_BLOCK,
                                  1 + AEAD_HEAD / CHACHA_BLOCK);
}

/* What a one-shot call works on: a copy of the keyed context with the
 * nonce installed and the MAC keyed from keystream block 0, which KS
 * holds with (for a message of at most AEAD_HEAD bytes) the data's
 * keystream after it. */
typedef struct {
  aead_ctx work;
  uint8_t ks[CHACHA_BLOCK + AEAD_HEAD];
  size_t kslen;
  size_t head;  /* N if the data's keystream is in KS, else 0 */
} oneshot_ctx;

/* Refuse a bad request before any work, then set ONE up for N bytes from
 * SRC into DST and absorb the associated data.  The caller calls
 * end_oneshot whatever RC says. */
static unsigned int
begin_oneshot_noburn (const aead_ctx *keyed, oneshot_ctx *one, const uint8_t *nonce,
                      size_t noncelen, const uint8_t *aad, size_t aadlen,
                      const uint8_t *dst, const uint8_t *src, size_t n, int *rc)
{
  aead_ctx *work = &one->work;
  unsigned int burn;

  one->head = n <= AEAD_HEAD ? n : 0;
  one->kslen = 0;
  work->phase = AEAD_DONE;  /* nothing to wipe yet but the cipher state */
  memcpy (&work->chacha, &keyed->chacha, sizeof work->chacha);
  if (gcry_bad_overlap (dst, src, n))
    {
      *rc = GCRY_ERR_INV_ARG;
      return 0;
    }
  if (too_long (n))
    {
      *rc = GCRY_ERR_TOO_LARGE;
      return 0;
    }
  one->kslen = keystream_blocks (&keyed->chacha, one->head) * CHACHA_BLOCK;
  /* setiv keys the MAC afresh: only the cipher state is copied */
  work->poly_impl = keyed->poly_impl;
  work->join = keyed->join;
  work->phase = AEAD_NEED_IV;
  work->mac.table_ready = 0;
  work->stitched = 0;
  burn = start_noburn (work, nonce, noncelen, one->ks, one->kslen, rc);
  if (!*rc && aadlen)
    {
      burn = gcry_max_burn (burn, poly1305_api->update_noburn (&work->mac, aad, aadlen));
      work->aadlen = aadlen;
    }
  return burn + GCRY_C_FRAME;
}

/* Wipe what a one-shot call's context holds. */
static void
end_oneshot (oneshot_ctx *one)
{
  aead_ctx *work = &one->work;

  /* finish_noburn wiped the MAC state; the rest holds the key */
  gcry_wipememory (one->ks, one->kslen);
  gcry_wipememory (&work->chacha, sizeof work->chacha);
  gcry_wipememory (work->tag, sizeof work->tag);
  if (work->phase != AEAD_DONE)
    poly1305_api->wipe (&work->mac);
}

/* Seal N bytes of SRC into DST, the tag into TAG. */
static unsigned int
seal_noburn (const aead_ctx *keyed, const uint8_t *nonce, size_t noncelen,
             const uint8_t *aad, size_t aadlen, const uint8_t *src, size_t n,
             uint8_t *dst, uint8_t *tag, int *rc)
{
  oneshot_ctx one;
  unsigned int burn;

  burn = begin_oneshot_noburn (keyed, &one, nonce, noncelen, aad, aadlen, dst, src, n, rc);
  if (!*rc && n == one.head)
    burn = gcry_max_burn (burn, seal_head_noburn (&one.work, dst, src, n,
                                                  one.ks + CHACHA_BLOCK, rc));
  else if (!*rc)
    burn = gcry_max_burn (burn, crypt_noburn (&one.work, dst, src, n, 1, rc));
  if (!*rc)
    burn = gcry_max_burn (burn, finish_noburn (&one.work, rc));
  if (!*rc)
    memcpy (tag, one.work.tag, POLY1305_TAG);
  end_oneshot (&one);
  return burn + sizeof (one) + GCRY_C_FRAME;
}

/* Open N bytes of ciphertext SRC whose tag is WANT (a copy the caller made
 * before DST, which may overlap it, is written).  Verify, then decrypt:
 * the MAC runs over the whole ciphertext first, and only an authentic
 * message is deciphered into DST, so a forgery never puts plaintext where
 * the caller (or another thread, or a shared mapping) can see it; DST is
 * then left as it was.  In place (DST == SRC) is fine: the cipher pass
 * reads each block before it writes it. */
static unsigned int
open_noburn (const aead_ctx *keyed, const uint8_t *nonce, size_t noncelen,
             const uint8_t *aad, size_t aadlen, const uint8_t *src, size_t n,
             const uint8_t *want, uint8_t *dst, int *rc)
{
  oneshot_ctx one;
  unsigned int burn;

  burn = begin_oneshot_noburn (keyed, &one, nonce, noncelen, aad, aadlen, dst, src, n, rc);
  if (!*rc)
    {
      burn = gcry_max_burn (burn, enter_data (&one.work, 0, rc));
      if (n)
        burn = gcry_max_burn (burn, poly1305_api->update_noburn (&one.work.mac, src, n));
      one.work.ctlen = n;
      burn = gcry_max_burn (burn, finish_noburn (&one.work, rc));
    }
  if (!*rc && gcry_ct_memcmp (one.work.tag, want, POLY1305_TAG))
    *rc = GCRY_ERR_CHECKSUM;
  if (!*rc && n == one.head)
    gcry_xor_bytes (dst, src, one.ks + CHACHA_BLOCK, n);
  else if (!*rc)
    burn = gcry_max_burn (burn, chacha_api->crypt_noburn (&one.work.chacha, dst, src, n));
  end_oneshot (&one);
  return burn + sizeof (one) + GCRY_C_FRAME;
}

/* out = ciphertext || tag (N + 16 bytes). */
int
gcry_aead_seal (void *c, const uint8_t *nonce, size_t noncelen,
                const uint8_t *aad, size_t aadlen, const uint8_t *src, size_t n,
                uint8_t *out)
{
  int rc;

  gcry_burn_stack (seal_noburn (c, nonce, noncelen, aad, aadlen, src, n, out, out + n, &rc));
  return rc;
}

/* SRC is ciphertext || tag (N >= 16); OUT gets the N - 16 bytes of
 * plaintext only if the tag verifies, and is not written otherwise
 * (CHECKSUM).  OUT may be SRC (in place) or overlap the tag alone. */
int
gcry_aead_open (void *c, const uint8_t *nonce, size_t noncelen,
                const uint8_t *aad, size_t aadlen, const uint8_t *src, size_t n,
                uint8_t *out)
{
  uint8_t want[POLY1305_TAG];
  int rc;

  if (n < POLY1305_TAG)
    return GCRY_ERR_CHECKSUM;
  n -= POLY1305_TAG;
  memcpy (want, src + n, sizeof want);
  gcry_burn_stack (open_noburn (c, nonce, noncelen, aad, aadlen, src, n, want, out, &rc));
  return rc;
}
