/* adiantum_glue.c - Adiantum encryption and decryption (paper section 2):
 *
 *   P = P_L || P_R (P_R the last 16 bytes), H(T, L) = H_T + NHPoly1305(L)
 *   P_M = P_R + H(T, P_L);  C_M = AES(P_M)
 *   C_L = P_L ^ XChaCha(K_S, nonce = C_M || 1 || 0^7);  C_R = C_M - H(T, C_L)
 *
 * with + and - modulo 2^128 on little-endian values and H_T the bare
 * Poly1305 value of le64(8 |L|) || le64(0) || T under K_T, computed once
 * per message.  Subkeys come from XChaCha(K_S, nonce 1 || 0^23).  All
 * internals run without burning; each entry point burns once.  The
 * per-message steps leave their small secrets (hash values, nonces, AES
 * blocks) in their own frames unwiped: the entry point's burn, whose depth
 * counts those frames, clears them once per call (tests/test_burn_stack.py
 * checks its reach for both entry points), cheaper than the eight wipe
 * calls a sector made for them (docs/algorithms.rst, "Adiantum",
 * per-sector cost). */
#include "adiantum.h"

GCRY_IMPORT (chacha, gcry_chacha_exports)
GCRY_IMPORT (poly1305, gcry_poly1305_exports)
GCRY_IMPORT (nhpoly1305, gcry_nhpoly1305_exports)
GCRY_IMPORT (aes, gcry_aes_exports)

/* The sector calls' tweak hashes in closed form (sector_tweak_form) need
 * Poly1305's 128-bit-product helpers; other builds hash each tweak. */
#ifdef __SIZEOF_INT128__
# define ADIANTUM_SECTOR_TWEAK_FORM 1
#endif

/* The stack the table set-up of the lanes routine may leave key material
 * in (as poly1305_glue.c's SETUP_BURN for its siblings). */
#define ADIANTUM_LANES_SETUP_BURN 1024

/* r = a + b or a - b mod 2^128 (64-bit halves moved whole: the byte-wise
 * form compiled to some sixty shifts and byte stores; docs/algorithms.rst,
 * "Adiantum", per-sector cost) */
static void
add128 (uint8_t r[16], const uint8_t a[16], const uint8_t b[16], int subtract)
{
  uint64_t a0 = gcry_load_le64 (a), a1 = gcry_load_le64 (a + 8);
  uint64_t b0 = gcry_load_le64 (b), b1 = gcry_load_le64 (b + 8);
  uint64_t r0, r1;

  if (subtract)
    {
      r0 = a0 - b0;
      r1 = a1 - b1 - (a0 < b0);
    }
  else
    {
      r0 = a0 + b0;
      r1 = a1 + b1 + (r0 < a0);
    }
  gcry_store_le64 (r, r0);
  gcry_store_le64 (r + 8, r1);
}

int
gcry_adiantum_setkey (void *c, const uint8_t *key, size_t keylen, unsigned int rounds,
                      unsigned int chacha_impl, unsigned int nh_impl,
                      unsigned int poly_impl, unsigned int aes_impl)
{
  static const uint8_t zeros[ADIANTUM_DERIVED];
  adiantum_ctx *ctx = c;
  uint8_t nonce[24] = { 1 };
  uint8_t derived[ADIANTUM_DERIVED];
  uint8_t polykey[POLY1305_KEY];
  chacha_ctx kdf;
  unsigned int burn;
  size_t nh_count, chacha_count, poly_count;
  const gcry_driver *chacha = chacha_api->drivers (&chacha_count);
  const gcry_driver *poly = poly1305_api->drivers (&poly_count);
  int rc, lanes;

  (void)nhpoly1305_api->nh_drivers (&nh_count);
  if (keylen != ADIANTUM_KEY)
    return GCRY_ERR_INV_KEYLEN;
  if (!aes_api->impl_ok (aes_impl) || poly_impl >= poly_count || nh_impl >= nh_count
      || chacha_impl >= chacha_count)
    return GCRY_ERR_NOT_SUPPORTED;
  gcry_wipememory (ctx, sizeof *ctx);
  rc = chacha_api->setkey (&ctx->stream, key, keylen, rounds, chacha_impl, 1);
  if (rc)
    return rc;

  /* K_E || K_T || K_L || K_N = XChaCha(K_S, 1 || 0^23) */
  memcpy (&kdf, &ctx->stream, sizeof kdf);
  burn = chacha_api->setiv_noburn (&kdf, nonce, sizeof nonce, &rc);
  burn = gcry_max_burn (burn, chacha_api->crypt_noburn (&kdf, derived, zeros, sizeof derived));
  burn = gcry_max_burn (burn, aes_api->setkey_noburn (&ctx->aes, derived, aes_impl));
  memcpy (polykey, derived + 32, 16);
  memset (polykey + 16, 0, 16);
  burn = gcry_max_burn (burn, poly1305_api->setkey_noburn (&ctx->tweak, polykey, poly_impl));
  burn = gcry_max_burn (burn, nhpoly1305_api->setkey_noburn (&ctx->hash, derived + 48, nh_impl,
                                                        poly_impl));
  /* every message copies this Poly1305 state: give it its powers now */
  burn = gcry_max_burn (burn, poly1305_api->prepare (&ctx->hash.poly));
#ifdef ADIANTUM_SECTOR_TWEAK_FORM
  burn = gcry_max_burn (burn, poly1305_api->r_squared (&ctx->tweak, ctx->tweak_r2));
#endif
  /* the eight-message Poly1305 beside a SIMD Poly1305 and a ChaCha driver
   * whose features include the lanes' (the AVX-512 one) */
  lanes = gcry_driver_level (&poly[poly_impl]) >= 3 && poly1305_api->lanes_hwf
          && (chacha[chacha_impl].hwf & poly1305_api->lanes_hwf) == poly1305_api->lanes_hwf;
#ifdef USE_AMD64
  if (lanes)
    {
      poly1305_api->lanes_setup (ctx->hash.poly.r, ctx->poly_powers);
      poly1305_api->lanes_setup (ctx->tweak.r, ctx->tweak_powers);
      ctx->poly_lanes = 1;
      burn = gcry_max_burn (burn, ADIANTUM_LANES_SETUP_BURN);
    }
#else
  (void)lanes;
#endif
  gcry_wipememory (derived, sizeof derived);
  gcry_wipememory (polykey, sizeof polykey);
  gcry_wipememory (&kdf, sizeof kdf);
  gcry_burn_stack (burn + sizeof (derived) + sizeof (kdf) + GCRY_C_FRAME);
  return GCRY_OK;
}

/* The bare Poly1305 accumulator of le64(8 |L|) || le64(0) || T for a
 * tweak of whole blocks (the sector calls' 32 bytes), in H. */
static unsigned int
tweak_acc (const adiantum_ctx *ctx, size_t len_l, const uint8_t *tweak, size_t tweaklen,
           uint64_t h[3])
{
  uint8_t block[16 + ADIANTUM_TWEAK_MAX];

  gcry_store_le64 (block, (uint64_t)len_l * 8);
  memset (block + 8, 0, 8);
  memcpy (block + 16, tweak, tweaklen);
  h[0] = h[1] = h[2] = 0;
  return poly1305_api->blocks_into (&ctx->tweak, h, block, 1 + tweaklen / POLY1305_BLOCK)
         + sizeof (block) + GCRY_C_FRAME;
}

/* H_T: the tweak hash, shared by both hash steps of one message.  A tweak
 * of whole blocks goes straight into an outside accumulator; another needs
 * the context's partial-block padding. */
static unsigned int
tweak_hash (const adiantum_ctx *ctx, size_t len_l, const uint8_t *tweak, size_t tweaklen,
            uint8_t out[16])
{
  uint8_t block[16];
  uint64_t h[3];
  poly1305_ctx poly;
  unsigned int burn;

  if (tweaklen % POLY1305_BLOCK == 0)
    {
      burn = tweak_acc (ctx, len_l, tweak, tweaklen, h);
      burn = gcry_max_burn (burn, poly1305_api->tag_of (&ctx->tweak, h, out));
    }
  else
    {
      gcry_store_le64 (block, (uint64_t)len_l * 8);
      memset (block + 8, 0, 8);
      poly1305_api->copy (&poly, &ctx->tweak);
      burn = poly1305_api->update_noburn (&poly, block, 16);
      burn = gcry_max_burn (burn, poly1305_api->update_noburn (&poly, tweak, tweaklen));
      burn = gcry_max_burn (burn, poly1305_api->tag_noburn (&poly, out));
      poly1305_api->wipe (&poly);
    }
  return burn + sizeof (poly) + sizeof (block) + sizeof (h) + GCRY_C_FRAME;
}

/* The sector calls' tweaks le64(i) || 0^24 differ in one block word, and
 * the Poly1305 of le64(8 |L|) || 0^8 || le64(i) || 0^24 is
 *   (B_0 + 2^128) r^3 + (i + 2^128) r^2 + 2^128 r = A + i r^2  (mod p),
 * A the hash with i = 0.  So a batch computes A once and each sector one
 * 64-bit multiply-add with the r^2 kept from setkey, instead of three
 * dependent block steps (docs/algorithms.rst, "Adiantum", per-sector cost). */
typedef struct {
  uint64_t a[3];               /* the accumulator of sector 0's tweak */
  uint64_t sector;             /* this sector's number */
} sector_tweak_form;

/* H_T of a message: from its tweak, or (FORM not NULL) in closed form. */
static unsigned int
message_tweak_hash (const adiantum_ctx *ctx, size_t len_l, const uint8_t *tweak,
                    size_t tweaklen, const sector_tweak_form *form, uint8_t out[16])
{
#ifdef ADIANTUM_SECTOR_TWEAK_FORM
  uint64_t h[3];
  unsigned int burn;

  if (form)
    {
      burn = poly1305_api->muladd64 (h, form->a, ctx->tweak_r2, form->sector);
      burn = gcry_max_burn (burn, poly1305_api->tag_of (&ctx->tweak, h, out));
      return burn + sizeof (h) + GCRY_C_FRAME;
    }
#else
  (void)form;
#endif
  return tweak_hash (ctx, len_l, tweak, tweaklen, out) + GCRY_C_FRAME;
}

/* The XChaCha length: L rounded up to whole 64-byte blocks when that still
 * fits in the message, because the bytes past L are overwritten with C_R or
 * P_R afterwards and the SIMD code then needs no partial-block tail. */
static size_t
stream_len (size_t len_l, size_t n)
{
  size_t up = (len_l + 63) & ~(size_t)63;
  return up <= n ? up : len_l;
}

/* Sectors whose XChaCha keys are made together: one HChaCha16 call on the
 * AVX-512 tier, cheaper a key than HChaCha4 in groups of four
 * (docs/algorithms.rst, "Adiantum", per-sector cost). */
#define ADIANTUM_GROUP 16

/* One message between its stages: the secrets the later stages need. */
typedef struct {
  uint8_t h_t[16];          /* H_T */
  uint8_t mid[24];          /* C_M, then stage_keys' 1 || 0^7: the XChaCha nonce */
  uint8_t block[16];        /* P_M (encrypting) */
  chacha_ctx stream;        /* XChaCha(K_S, C_M || 1 || 0^7), keyed by stage_key */
} adiantum_msg;

/* The NH outputs of up to eight messages of one length (the sector calls
 * on the AVX-512 tier), word-major for _gcry_poly1305_amd64_avx512_lanes8,
 * which hashes them all at once: eight independent Poly1305 of eight
 * blocks in one throughput-bound pass, where one message alone is a
 * latency-bound chain (docs/algorithms.rst, "Adiantum", per-sector cost). */
#define LANES 8
#define LANES_BLOCKS 8         /* four NH units: sectors up to 4096 + 16 bytes */
typedef struct {
  uint64_t blocks[LANES_BLOCKS][2][LANES];
} nh_lanes;

/* The least group that takes the lanes routine: below it the per-message
 * Poly1305 is cheaper than three eight-lane calls (measured through Python:
 * docs/algorithms.rst, "Adiantum", per-sector cost). */
#define LANES_MIN 4
/* Whether a group of N sectors of SECTOR_SIZE bytes takes the lanes routine. */
static int
lanes_fit (const adiantum_ctx *ctx, size_t sector_size, size_t n)
{
  return ctx->poly_lanes && n >= LANES_MIN && sector_size > ADIANTUM_BLOCK
         && sector_size - ADIANTUM_BLOCK <= LANES_BLOCKS / 2 * NH_UNIT;
}

/* The Poly1305 blocks of a sector's NH outputs: two a 1 KiB unit. */
static size_t
lanes_nblocks (size_t sector_size)
{
  return 2 * ((sector_size - ADIANTUM_BLOCK + NH_UNIT - 1) / NH_UNIT);
}

/* Message K's NH outputs (from ACC) into lane K of L. */
static void
lanes_put (nh_lanes *l, size_t k, const nhpoly1305_acc *acc)
{
  size_t j;

  for (j = 0; j < 2 * acc->nhashes; j++)
    {
      l->blocks[j][0][k] = gcry_load_le64 (acc->hashes + 16 * j);
      l->blocks[j][1][k] = gcry_load_le64 (acc->hashes + 16 * j + 8);
    }
}

/* One lanes8 call: eight messages of NBLOCKS word-major BLOCKS under the
 * powers of K_T (TWEAK_KEY) or of K_L's r, from zero accumulators and
 * without s; the values of the first N as 16 little-endian bytes each, the
 * k-th at OUT + k STRIDE. */
static unsigned int
lanes_run (const adiantum_ctx *ctx, int tweak_key, const uint64_t *blocks, size_t nblocks,
           size_t n, uint8_t *out, size_t stride)
{
  uint64_t h[2][LANES];
  unsigned int burn;
  size_t k;

#ifdef USE_AMD64
  burn = poly1305_api->lanes8 (tweak_key ? ctx->tweak_powers : ctx->poly_powers,
                                             blocks, nblocks, &h[0][0]);
#else
  /* not reached: poly_lanes is set on the AVX-512 tier only */
  (void)ctx, (void)tweak_key, (void)blocks, (void)nblocks;
  memset (h, 0, sizeof h);
  burn = 0;
#endif
  for (k = 0; k < n; k++, out += stride)
    {
      gcry_store_le64 (out, h[0][k]);
      gcry_store_le64 (out + 8, h[1][k]);
    }
  return burn + sizeof (h) + GCRY_C_FRAME;
}

/* H_L of the N (up to eight) messages of L, each of NBLOCKS blocks (the
 * routine reduces them itself: H_L has s = 0). */
static unsigned int
lanes_hash (const adiantum_ctx *ctx, nh_lanes *l, size_t n, size_t nblocks,
            uint8_t h_l[][16])
{
  size_t i;

  if (n < LANES)                /* the unused lanes: defined values */
    for (i = 0; i < nblocks; i++)
      {
        memset (&l->blocks[i][0][n], 0, (LANES - n) * 8);
        memset (&l->blocks[i][1][n], 0, (LANES - n) * 8);
      }
  return lanes_run (ctx, 0, &l->blocks[0][0][0], nblocks, n, h_l[0], 16) + GCRY_C_FRAME;
}

/* H_T of the N (up to eight) sectors FIRST, FIRST + 1, ... of SECTOR_SIZE
 * bytes into M[k].h_t, by the lanes routine under K_T: the three blocks
 * le64(8 |L|) || 0^8, le64(sector) || 0^8, 0^16 of each (the 32-byte
 * plain64 tweak after the length block), word-major. */
static unsigned int
lanes_tweaks (const adiantum_ctx *ctx, adiantum_msg *m, size_t n, size_t sector_size,
              uint64_t first)
{
  uint64_t blocks[3][2][LANES];
  size_t k;

  for (k = 0; k < LANES; k++)
    {
      blocks[0][0][k] = (uint64_t)(sector_size - ADIANTUM_BLOCK) * 8;
      blocks[1][0][k] = first + k;      /* past N: defined values, unused */
      blocks[0][1][k] = blocks[1][1][k] = blocks[2][0][k] = blocks[2][1][k] = 0;
    }
  return lanes_run (ctx, 1, &blocks[0][0][0], 3, n, m[0].h_t, sizeof *m) + sizeof (blocks)
         + GCRY_C_FRAME;
}

/* The end of stage 1 once H_T and H_L are known: the AES input. */
static void
front_done (adiantum_msg *m, const uint8_t *src, size_t n, const uint8_t h_l[16],
            int encrypting)
{
  uint8_t h[16];

  add128 (h, m->h_t, h_l, 0);
  add128 (encrypting ? m->block : m->mid, src + n - ADIANTUM_BLOCK, h, 0);  /* P_M or C_M */
}

/* Stage 1, from the input alone: H_T, the hash of the input's L part, and
 * the AES input (encrypting: P_M = P_R + H; decrypting: C_M = C_R + H).
 * The NH pass (throughput-bound) comes first, the latency-bound tweak hash
 * and Poly1305 after it, so that in a batch they overlap the next SIMD
 * pass.  With LANES, the NH outputs go to its lane K instead, and the
 * tweak hash (lanes_tweaks), H_L (lanes_hash) and front_done wait for the
 * group. */
static unsigned int
stage_front (const adiantum_ctx *ctx, adiantum_msg *m, const uint8_t *src, size_t n,
             const uint8_t *tweak, size_t tweaklen, const sector_tweak_form *form,
             nh_lanes *lanes, size_t k, int encrypting)
{
  const size_t len_l = n - ADIANTUM_BLOCK;
  nhpoly1305_acc acc;
  uint8_t h_l[16];
  unsigned int burn;

  nhpoly1305_api->acc_init (&acc);
  burn = nhpoly1305_api->acc_chunks (&ctx->hash, &acc, src, len_l);
  if (lanes)
    lanes_put (lanes, k, &acc);
  else
    {
      burn = gcry_max_burn (burn, message_tweak_hash (ctx, len_l, tweak, tweaklen, form,
                                                      m->h_t));
      burn = gcry_max_burn (burn, nhpoly1305_api->acc_final (&ctx->hash, &acc, h_l));
      front_done (m, src, n, h_l, encrypting);
    }
  return burn + sizeof (acc) + 2 * 16 + GCRY_C_FRAME;
}

/* Stage 2a: the AES block of N messages in one call (C_M = AES(P_M), or
 * P_M = AES^-1(C_M)): independent blocks overlap in the AES-NI pipeline. */
static unsigned int
stage_aes (const adiantum_ctx *ctx, adiantum_msg *m, size_t n, int encrypting)
{
  uint8_t in[ADIANTUM_GROUP][16], out[ADIANTUM_GROUP][16];
  unsigned int burn;
  size_t i;

  for (i = 0; i < n; i++)
    memcpy (in[i], encrypting ? m[i].block : m[i].mid, 16);
  if (encrypting)
    burn = aes_api->encrypt_noburn (&ctx->aes, out[0], in[0], n);
  else
    burn = aes_api->decrypt_noburn (&ctx->aes, out[0], in[0], n);
  for (i = 0; i < n; i++)
    memcpy (encrypting ? m[i].mid : m[i].block, out[i], 16);
  return burn + sizeof (in) + sizeof (out) + GCRY_C_FRAME;
}

/* Stage 2: the XChaCha keys of N messages (HChaCha: a single one is bound
 * by its rounds' latency, so a batch gets up to sixteen from one AVX-512
 * call).  The nonces are the messages' own MID fields, completed here with
 * one 8-byte store each (a copy of C_M, then a byte store into zeroes,
 * made the 4-byte loads of the nonce words wait for both stores), and the
 * stream contexts get only the keyed context's key, rounds and
 * implementation, not a copy of all of it. */
static unsigned int
stage_keys (const adiantum_ctx *ctx, adiantum_msg *m, size_t n)
{
  chacha_ctx *streams[ADIANTUM_GROUP];
  const uint8_t *ivs[ADIANTUM_GROUP];
  unsigned int burn;
  size_t i;

  for (i = 0; i < n; i++)
    {
      gcry_store_le64 (m[i].mid + 16, 1);
      streams[i] = &m[i].stream;
      ivs[i] = m[i].mid;
    }
  burn = chacha_api->xchacha_setiv_many_noburn (&ctx->stream, streams, ivs, n);
  return burn + sizeof (streams) + sizeof (ivs) + GCRY_C_FRAME;
}

/* The end of stage 3 once H_L of the output is known: its last 16 bytes. */
static void
back_done (const adiantum_msg *m, uint8_t *dst, size_t n, const uint8_t h_l[16],
           int encrypting)
{
  uint8_t h[16];

  add128 (h, m->h_t, h_l, 0);
  add128 (dst + n - ADIANTUM_BLOCK, encrypting ? m->mid : m->block, h, 1);  /* C_R or P_R */
}

/* Stage 3: C_L (P_L) = input L ^ the stream, then its hash and C_R = C_M -
 * H (P_R = P_M - H).  The stream runs over L rounded up to whole blocks
 * where that fits: the bytes past L get C_R (P_R) last (stage 1 read the
 * input's R part).  With LANES, as stage_front: back_done after
 * lanes_hash. */
static unsigned int
stage_back (const adiantum_ctx *ctx, adiantum_msg *m, uint8_t *dst, const uint8_t *src,
            size_t n, nh_lanes *lanes, size_t k, int encrypting)
{
  const size_t len_l = n - ADIANTUM_BLOCK;
  nhpoly1305_acc acc;
  uint8_t h_l[16];
  unsigned int burn = 0;

  if (len_l)
    burn = chacha_api->crypt_noburn (&m->stream, dst, src, stream_len (len_l, n));
  nhpoly1305_api->acc_init (&acc);
  burn = gcry_max_burn (burn, nhpoly1305_api->acc_chunks (&ctx->hash, &acc, dst, len_l));
  if (lanes)
    lanes_put (lanes, k, &acc);
  else
    {
      burn = gcry_max_burn (burn, nhpoly1305_api->acc_final (&ctx->hash, &acc, h_l));
      back_done (m, dst, n, h_l, encrypting);
    }
  return burn + sizeof (acc) + 2 * 16 + GCRY_C_FRAME;
}

static unsigned int
crypt_noburn (const adiantum_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n,
              const uint8_t *tweak, size_t tweaklen, int encrypting)
{
  adiantum_msg m;
  unsigned int burn;

  burn = stage_front (ctx, &m, src, n, tweak, tweaklen, NULL, NULL, 0, encrypting);
  burn = gcry_max_burn (burn, stage_aes (ctx, &m, 1, encrypting));
  burn = gcry_max_burn (burn, stage_keys (ctx, &m, 1));
  burn = gcry_max_burn (burn, stage_back (ctx, &m, dst, src, n, NULL, 0, encrypting));
  gcry_wipememory (&m, sizeof m);
  return burn + sizeof (m) + GCRY_C_FRAME;
}

static int
check_args (const uint8_t *dst, const uint8_t *src, size_t n, size_t tweaklen)
{
  if (n < ADIANTUM_BLOCK)
    return GCRY_ERR_INV_LENGTH;
  if (tweaklen > ADIANTUM_TWEAK_MAX)
    return GCRY_ERR_INV_IV;
  if (gcry_bad_overlap (dst, src, n))
    return GCRY_ERR_INV_ARG;
  return GCRY_OK;
}

int
gcry_adiantum_encrypt (void *c, uint8_t *dst, const uint8_t *src, size_t n,
                       const uint8_t *tweak, size_t tweaklen)
{
  int rc = check_args (dst, src, n, tweaklen);
  if (!rc)
    gcry_burn_stack (crypt_noburn (c, dst, src, n, tweak, tweaklen, 1));
  return rc;
}

int
gcry_adiantum_decrypt (void *c, uint8_t *dst, const uint8_t *src, size_t n,
                       const uint8_t *tweak, size_t tweaklen)
{
  int rc = check_args (dst, src, n, tweaklen);
  if (!rc)
    gcry_burn_stack (crypt_noburn (c, dst, src, n, tweak, tweaklen, 0));
  return rc;
}

/* Stage 1 of sectors FIRST + I .. FIRST + I + N - 1 (at BUF) into M; their
 * tweaks le64(sector) || 0^24 (dm-crypt's plain64 IV) in closed form from
 * FORM's A where the build has it; their NH outputs hashed eight at a time
 * by the lanes routine where it fits (lanes_fit). */
static unsigned int
front_group (const adiantum_ctx *ctx, adiantum_msg *m, const uint8_t *buf, size_t n,
             size_t sector_size, uint64_t first, size_t i, sector_tweak_form *form,
             int encrypting)
{
  const int lanes = lanes_fit (ctx, sector_size, n);
  uint8_t tweak[ADIANTUM_TWEAK_MAX];
  nh_lanes l[ADIANTUM_GROUP / LANES];
  uint8_t h_l[ADIANTUM_GROUP][16];
  unsigned int burn = 0;
  size_t j;

  memset (tweak, 0, sizeof tweak);
  for (j = 0; j < n; j++)
    {
      form->sector = first + i + j;
      gcry_store_le64 (tweak, form->sector);
      burn = gcry_max_burn (burn, stage_front (ctx, &m[j], buf + j * sector_size, sector_size,
                                               tweak, sizeof tweak, form,
                                               lanes ? &l[j / LANES] : NULL, j % LANES,
                                               encrypting));
    }
  if (lanes)
    {
      size_t nblocks = lanes_nblocks (sector_size);
      for (j = 0; j < n; j += LANES)
        {
          size_t k = n - j < LANES ? n - j : LANES;
          burn = gcry_max_burn (burn, lanes_tweaks (ctx, m + j, k, sector_size,
                                                    first + i + j));
          burn = gcry_max_burn (burn, lanes_hash (ctx, &l[j / LANES], k, nblocks, h_l + j));
        }
      for (j = 0; j < n; j++)
        front_done (&m[j], buf + j * sector_size, sector_size, h_l[j], encrypting);
    }
  return burn + sizeof (tweak) + sizeof (l) + sizeof (h_l) + GCRY_C_FRAME;
}

/* Stage 3 of the N sectors at BUF (M their stage 1 and keys), the hashes
 * as front_group's. */
static unsigned int
back_group (const adiantum_ctx *ctx, adiantum_msg *m, uint8_t *buf, size_t n,
            size_t sector_size, int encrypting)
{
  const int lanes = lanes_fit (ctx, sector_size, n);
  nh_lanes l[ADIANTUM_GROUP / LANES];
  uint8_t h_l[ADIANTUM_GROUP][16];
  unsigned int burn = 0;
  size_t j;

  for (j = 0; j < n; j++)
    burn = gcry_max_burn (burn, stage_back (ctx, &m[j], buf + j * sector_size,
                                            buf + j * sector_size, sector_size,
                                            lanes ? &l[j / LANES] : NULL, j % LANES,
                                            encrypting));
  if (lanes)
    {
      size_t nblocks = lanes_nblocks (sector_size);
      for (j = 0; j < n; j += LANES)
        burn = gcry_max_burn (burn, lanes_hash (ctx, &l[j / LANES],
                                                n - j < LANES ? n - j : LANES, nblocks,
                                                h_l + j));
      for (j = 0; j < n; j++)
        back_done (&m[j], buf + j * sector_size, sector_size, h_l[j], encrypting);
    }
  return burn + sizeof (l) + sizeof (h_l) + GCRY_C_FRAME;
}

/* NSECTORS sectors of SECTOR_SIZE bytes in place, sector i with the 32-byte
 * tweak le64(FIRST + i) || 0^24 (dm-crypt's plain64 IV).  In groups of
 * ADIANTUM_GROUP: the group's stage 1, its XChaCha keys in one call, then
 * the next group's stage 1 before this group's stage 3, so that the
 * latency-bound steps (HChaCha; tweak hash, Poly1305, AES) have
 * independent SIMD work beside them.  Stage 1 of a sector only reads that
 * sector, which no other sector's stage 3 writes. */
int
gcry_adiantum_crypt_sectors (void *c, uint8_t *buf, size_t nsectors, size_t sector_size,
                             uint64_t first, int encrypting)
{
  const adiantum_ctx *ctx = c;
  static const uint8_t tweak0[ADIANTUM_TWEAK_MAX];
  adiantum_msg msgs[2][ADIANTUM_GROUP];
  sector_tweak_form form;
  unsigned int burn;
  size_t i, n, next;

  if (sector_size < ADIANTUM_BLOCK)
    return GCRY_ERR_INV_LENGTH;
  if (nsectors == 0)
    return GCRY_OK;
  burn = tweak_acc (ctx, sector_size - ADIANTUM_BLOCK, tweak0, sizeof tweak0, form.a);
  n = nsectors < ADIANTUM_GROUP ? nsectors : ADIANTUM_GROUP;
  burn = gcry_max_burn (burn, front_group (ctx, msgs[0], buf, n, sector_size, first, 0,
                                           &form, encrypting));
  for (i = 0; i < nsectors; i += n, buf += n * sector_size)
    {
      adiantum_msg *m = msgs[(i / ADIANTUM_GROUP) & 1];

      n = nsectors - i < ADIANTUM_GROUP ? nsectors - i : ADIANTUM_GROUP;
      burn = gcry_max_burn (burn, stage_aes (ctx, m, n, encrypting));
      burn = gcry_max_burn (burn, stage_keys (ctx, m, n));
      next = nsectors - i - n < ADIANTUM_GROUP ? nsectors - i - n : ADIANTUM_GROUP;
      if (next)
        burn = gcry_max_burn (burn, front_group (ctx, msgs[(i / ADIANTUM_GROUP + 1) & 1],
                                                 buf + n * sector_size, next, sector_size,
                                                 first, i + n, &form, encrypting));
      burn = gcry_max_burn (burn, back_group (ctx, m, buf, n, sector_size, encrypting));
    }
  /* the messages used: a call of one group leaves the second set as it was */
  gcry_wipememory (msgs, (nsectors < 2 * ADIANTUM_GROUP ? nsectors : 2 * ADIANTUM_GROUP)
                         * sizeof (adiantum_msg));
  gcry_wipememory (&form, sizeof form);
  /* the stages' frames, below this one (MSGS and FORM, in it, are wiped
   * above: counting them here wiped 8 KiB more of stack a call) */
  gcry_burn_stack (burn + GCRY_C_FRAME);
  return GCRY_OK;
}

size_t
gcry_adiantum_ctxsize (void)
{
  return sizeof (adiantum_ctx);
}
