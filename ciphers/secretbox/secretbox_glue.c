/* secretbox_glue.c - NaCl crypto_secretbox: XSalsa20-Poly1305.
 *
 * Written from the NaCl/libsodium documentation of crypto_secretbox_easy:
 * the XSalsa20 stream of (key, 24-byte nonce) is laid over 32 zero bytes
 * followed by the message; the first 32 bytes of the stream are the
 * one-time Poly1305 key, the rest encrypts the message (the ciphertext
 * starts at byte 32 of keystream block 0), and the tag is Poly1305 of the
 * ciphertext alone.  The box is tag || ciphertext (16 + n bytes).
 *
 * Sealing processes the data in chunks that stay in L1: each chunk is
 * encrypted and then authenticated while hot.  The first chunk is 32 bytes
 * longer than the rest, so that after the 32 bytes left in block 0 every
 * chunk starts on a keystream block boundary and the wide SIMD routines
 * see whole groups of blocks.  With AVX2, whole 512-byte groups from data
 * byte 32 on go through one routine that runs Salsa20 and Poly1305 at
 * once (asm/salsa20-poly1305-amd64-avx2.S; stitched_noburn below).
 * Opening makes two passes instead: the MAC over the whole ciphertext,
 * then, for an authentic box only, the cipher (open_noburn), so that a
 * forgery never puts plaintext in the caller's memory.  One stack burn per
 * public call covers both primitives. */
#include "secretbox.h"

GCRY_IMPORT (salsa20, gcry_salsa20_exports)
GCRY_IMPORT (poly1305, gcry_poly1305_exports)

/* Bytes per step (after the first): a multiple of the 16-block SIMD group,
 * small enough to stay in the L1 cache. */
#define SECRETBOX_CHUNK 4096

/* The data bytes that share keystream block 0 with the Poly1305 key. */
#define SECRETBOX_HEAD 32

#ifdef USE_AMD64
/* asm/salsa20-poly1305-amd64-avx2.S (Salsa20/20, words 8-9 the counter) */
extern poly1305_stitched_routine _gcry_salsa20_poly1305_amd64_avx2_blocks8;
#endif

/* The joins, the composite's drivers with its stitched routine: name
 * suffix, priority (its hundreds the SIMD level of the pair it joins), the
 * GCRY_HWF_* bits it needs, tag, description, the stitched routine (NULL:
 * each part's own, chunk by chunk).  The rule (gcry_join_fits; in Python
 * gcrylike._spec.joined) gives each Salsa20/Poly1305 pair the join of its
 * level, else the separate one.  A row's place is its id. */
static const gcry_driver secretbox_joins[] = {
  { "separate", 100, 0, "", "XSalsa20 and Poly1305 chunk by chunk", NULL },
#ifdef USE_AMD64
  { "stitched", 400, GCRY_HWF_AVX2, "",
    "Salsa20 and Poly1305 stitched in one AVX2 pass, eight blocks at a time",
    GCRY_OPS (poly1305_join_ops, _gcry_salsa20_poly1305_amd64_avx2_blocks8) },
#endif
};

GCRY_DRIVERS_ACCESSOR (gcry_secretbox_drivers, secretbox_joins)


size_t
gcry_secretbox_ctxsize (void)
{
  return sizeof (secretbox_ctx);
}

int
gcry_secretbox_setkey (void *c, const uint8_t *key, size_t keylen,
                       unsigned int salsa_impl, unsigned int poly_impl, unsigned int join)
{
  secretbox_ctx *ctx = c;
  int rc;

  if (keylen != SECRETBOX_KEY)
    return GCRY_ERR_INV_KEYLEN;
  if (!gcry_join_ok (secretbox_joins, sizeof secretbox_joins / sizeof secretbox_joins[0], join,
                     salsa20_api->drivers, salsa_impl, poly1305_api->drivers, poly_impl))
    return GCRY_ERR_NOT_SUPPORTED;
  gcry_wipememory (ctx, sizeof *ctx);
  rc = salsa20_api->setkey (&ctx->xsalsa, key, keylen, 20, salsa_impl, 1);
  if (rc)
    return rc;
  ctx->poly_impl = poly_impl;
  ctx->join = join;
  return GCRY_OK;
}

/* Seal one piece of data (N > 0): encrypt it, then authenticate the
 * ciphertext it wrote. */
static unsigned int
seal_piece_noburn (salsa20_ctx *stream, poly1305_ctx *mac, uint8_t *dst, const uint8_t *src,
                   size_t n)
{
  unsigned int burn;

  burn = salsa20_api->crypt_noburn (stream, dst, src, n);
  burn = gcry_max_burn (burn, poly1305_api->update_noburn (mac, dst, n));
  return burn + GCRY_C_FRAME;
}

/* One group of the stitched routine: 8 Salsa20 blocks, 32 Poly1305 blocks. */
#define SECRETBOX_STITCH 512

/* The stitched routine of KEYED's join, or NULL. */
static poly1305_stitched_routine *
stitched_of (const secretbox_ctx *keyed)
{
  const poly1305_join_ops *join = secretbox_joins[keyed->join].ops;

  return join ? join->stitched : NULL;
}

/* Seal N bytes (a positive multiple of SECRETBOX_STITCH) with Salsa20 and
 * Poly1305 stitched in one pass; both streams at a block boundary (no
 * keystream left over, no MAC bytes buffered).  The MAC authenticates the
 * ciphertext the routine wrote, so it runs one group behind: group 0 is
 * encrypted alone, group i (i >= 1) together with the ciphertext of group
 * i - 1, and the last group's ciphertext is absorbed alone.  Adds the
 * groups the routine ran to KEYED's test counter.  (The 64-bit block
 * counter cannot wrap here: it starts at 1 and a size_t of data is fewer
 * than 2^58 blocks.) */
static unsigned int
seal_stitched_noburn (poly1305_stitched_routine *stitched, secretbox_ctx *keyed,
                      salsa20_ctx *stream, poly1305_ctx *mac, uint8_t *dst, const uint8_t *src,
                      size_t n)
{
  size_t ran = n / SECRETBOX_STITCH - 1;
  unsigned int burn;

  burn = salsa20_api->crypt_noburn (stream, dst, src, SECRETBOX_STITCH);
  if (ran)
    burn = gcry_max_burn (burn, stitched
                                  (stream->input, dst + SECRETBOX_STITCH,
                                   src + SECRETBOX_STITCH,
                                   ran * (SECRETBOX_STITCH / SALSA20_BLOCK),
                                   mac->h, mac->r, dst));
  burn = gcry_max_burn (burn, poly1305_api->update_noburn (mac, dst + n - SECRETBOX_STITCH,
                                                      SECRETBOX_STITCH));
  gcry_atomic_add_u64 (&keyed->stitched, (uint64_t)ran);
  return burn + GCRY_C_FRAME;
}

/* The stream of (KEYED, NONCE) into STREAM, its first 32 bytes keying MAC:
 * what both directions start from.  The caller wipes STREAM and MAC. */
static unsigned int
begin_noburn (const secretbox_ctx *keyed, const uint8_t *nonce, size_t noncelen,
              salsa20_ctx *stream, poly1305_ctx *mac, int *rc)
{
  static const uint8_t zeros[32];
  uint8_t polykey[32];
  unsigned int burn;

  memcpy (stream, &keyed->xsalsa, sizeof *stream);
  mac->table_ready = 0;
  burn = salsa20_api->setiv_noburn (stream, nonce, noncelen, rc);
  if (*rc)
    return burn + sizeof (polykey) + GCRY_C_FRAME;
  /* one-time Poly1305 key: keystream bytes 0-31; the data uses 32 on */
  burn = gcry_max_burn (burn, salsa20_api->crypt_noburn (stream, polykey, zeros, sizeof polykey));
  burn = gcry_max_burn (burn, poly1305_api->setkey_noburn (mac, polykey, keyed->poly_impl));
  gcry_wipememory (polykey, sizeof polykey);
  return burn + sizeof (polykey) + GCRY_C_FRAME;
}

static void
end_work (salsa20_ctx *stream, poly1305_ctx *mac)
{
  poly1305_api->wipe (mac);
  gcry_wipememory (stream, sizeof *stream);
}

/* XSalsa20 of the N bytes of SRC into DST and Poly1305 of that ciphertext
 * into TAG.  The keyed context is not changed (but for the test counter of
 * stitched groups). */
static unsigned int
seal_noburn (secretbox_ctx *keyed, const uint8_t *nonce, size_t noncelen,
             const uint8_t *src, size_t n, uint8_t *dst, uint8_t tag[SECRETBOX_TAG], int *rc)
{
  poly1305_stitched_routine *stitched = stitched_of (keyed);
  salsa20_ctx stream;
  poly1305_ctx mac;
  unsigned int burn;
  size_t step = SECRETBOX_CHUNK + SECRETBOX_HEAD;

  burn = begin_noburn (keyed, nonce, noncelen, &stream, &mac, rc);
  if (*rc)
    {
      end_work (&stream, &mac);
      return burn + sizeof (stream) + sizeof (mac) + GCRY_C_FRAME;
    }
  /* With a stitched join and at least one whole group after the head: the
   * head (data bytes 0-31, the rest of keystream block 0: two Poly1305
   * blocks) on its own, then whole groups stitched (data bytes 32 + 64m
   * on use keystream block m + 1, and the ciphertext's Poly1305 blocks
   * stay 16-byte aligned to the data), the rest in chunks below */
  if (n >= SECRETBOX_HEAD + SECRETBOX_STITCH && stitched)
    {
      size_t k = (n - SECRETBOX_HEAD) - (n - SECRETBOX_HEAD) % SECRETBOX_STITCH;

      burn = gcry_max_burn (burn, seal_piece_noburn (&stream, &mac, dst, src,
                                                     SECRETBOX_HEAD));
      burn = gcry_max_burn (burn, seal_stitched_noburn (stitched, keyed, &stream, &mac,
                                                        dst + SECRETBOX_HEAD,
                                                        src + SECRETBOX_HEAD, k));
      dst += SECRETBOX_HEAD + k;
      src += SECRETBOX_HEAD + k;
      n -= SECRETBOX_HEAD + k;
      step = SECRETBOX_CHUNK;
    }

  while (n)
    {
      size_t len = n < step ? n : step;
      burn = gcry_max_burn (burn, seal_piece_noburn (&stream, &mac, dst, src, len));
      dst += len;
      src += len;
      n -= len;
      step = SECRETBOX_CHUNK;
    }
  burn = gcry_max_burn (burn, poly1305_api->tag_noburn (&mac, tag));
  end_work (&stream, &mac);
  return burn + sizeof (stream) + sizeof (mac) + GCRY_C_FRAME;
}

/* Open the N-byte ciphertext SRC whose tag is WANT (copied by the caller
 * before DST, which may overlap it, is written): the MAC over the whole
 * ciphertext first, and only if it matches, the cipher into DST; a
 * forgery leaves DST as it was (CHECKSUM). */
static unsigned int
open_noburn (const secretbox_ctx *keyed, const uint8_t *nonce, size_t noncelen,
             const uint8_t *src, size_t n, const uint8_t want[SECRETBOX_TAG], uint8_t *dst,
             int *rc)
{
  salsa20_ctx stream;
  poly1305_ctx mac;
  uint8_t tag[SECRETBOX_TAG];
  unsigned int burn;

  burn = begin_noburn (keyed, nonce, noncelen, &stream, &mac, rc);
  if (!*rc)
    {
      if (n)
        burn = gcry_max_burn (burn, poly1305_api->update_noburn (&mac, src, n));
      burn = gcry_max_burn (burn, poly1305_api->tag_noburn (&mac, tag));
      if (gcry_ct_memcmp (tag, want, sizeof tag))
        *rc = GCRY_ERR_CHECKSUM;
      gcry_wipememory (tag, sizeof tag);
    }
  if (!*rc && n)
    burn = gcry_max_burn (burn, salsa20_api->crypt_noburn (&stream, dst, src, n));
  end_work (&stream, &mac);
  return burn + sizeof (stream) + sizeof (mac) + sizeof (tag) + GCRY_C_FRAME;
}

/* OUT = tag || ciphertext (16 + N bytes).  SRC may be OUT + 16 (in place)
 * but must not overlap the ciphertext otherwise. */
int
gcry_secretbox_seal (void *c, const uint8_t *nonce, size_t noncelen,
                     const uint8_t *src, size_t n, uint8_t *out)
{
  uint8_t tag[SECRETBOX_TAG];
  int rc;

  if (gcry_bad_overlap (out + SECRETBOX_TAG, src, n))
    return GCRY_ERR_INV_ARG;
  gcry_burn_stack (seal_noburn (c, nonce, noncelen, src, n, out + SECRETBOX_TAG, tag, &rc));
  if (!rc)
    memcpy (out, tag, sizeof tag);
  gcry_wipememory (tag, sizeof tag);
  return rc;
}

/* SRC is the box, tag || ciphertext (N >= 16 bytes); OUT gets the N - 16
 * bytes of plaintext only if the tag verifies, and is not written
 * otherwise (CHECKSUM): no plaintext is released.  OUT may be SRC + 16 (in
 * place) or overlap the tag alone. */
int
gcry_secretbox_open (void *c, const uint8_t *nonce, size_t noncelen,
                     const uint8_t *src, size_t n, uint8_t *out)
{
  uint8_t want[SECRETBOX_TAG];
  int rc;

  if (n < SECRETBOX_TAG)
    return noncelen == SECRETBOX_NONCE ? GCRY_ERR_CHECKSUM : GCRY_ERR_INV_IV;
  n -= SECRETBOX_TAG;
  if (gcry_bad_overlap (out, src + SECRETBOX_TAG, n))
    return GCRY_ERR_INV_ARG;
  /* the box's tag, before OUT (which may overlap it) is written */
  memcpy (want, src, sizeof want);
  gcry_burn_stack (open_noburn (c, nonce, noncelen, src + SECRETBOX_TAG, n, want, out, &rc));
  gcry_wipememory (want, sizeof want);
  return rc;
}
