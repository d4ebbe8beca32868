/* adiantum_glue.c - Adiantum encryption and decryption (paper section 2):
 *
 *   P = P_L || P_R (P_R the last 16 bytes), H(T, L) = H_T + NHPoly1305(L)
 *   P_M = P_R + H(T, P_L);  C_M = AES(P_M)
 *   C_L = P_L ^ XChaCha(K_S, nonce = C_M || 1 || 0^7);  C_R = C_M - H(T, C_L)
 *
 * with + and - modulo 2^128 on little-endian values and H_T the bare
 * Poly1305 value of le64(8 |L|) || le64(0) || T under K_T, computed once
 * per message.  Subkeys come from XChaCha(K_S, nonce 1 || 0^23).  All
 * internals run without burning; each entry point burns once. */
#include "adiantum.h"

/* r = a + b or a - b mod 2^128 (64-bit halves moved whole: the byte-wise
 * form compiled to some sixty shifts and byte stores, 4% of a sector) */
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
  int rc;

  if (keylen != ADIANTUM_KEY)
    return GCRY_ERR_INV_KEYLEN;
  if (!aes_impl_ok (aes_impl) || !poly1305_impl_ok (poly_impl)
      || nh_impl > 31 || !(gcry_nh_impls () & (1u << nh_impl)))
    return GCRY_ERR_NOT_SUPPORTED;
  gcry_wipememory (ctx, sizeof *ctx);
  rc = gcry_chacha_setkey (&ctx->stream, key, keylen, rounds, chacha_impl, 1);
  if (rc)
    return rc;

  /* K_E || K_T || K_L || K_N = XChaCha(K_S, 1 || 0^23) */
  memcpy (&kdf, &ctx->stream, sizeof kdf);
  burn = chacha_setiv_noburn (&kdf, nonce, sizeof nonce, &rc);
  burn = gcry_max_burn (burn, chacha_crypt_noburn (&kdf, derived, zeros, sizeof derived));
  burn = gcry_max_burn (burn, aes256_setkey_noburn (&ctx->aes, derived, aes_impl));
  memcpy (polykey, derived + 32, 16);
  memset (polykey + 16, 0, 16);
  burn = gcry_max_burn (burn, poly1305_setkey_noburn (&ctx->tweak, polykey, poly_impl));
  burn = gcry_max_burn (burn, nhpoly1305_setkey_noburn (&ctx->hash, derived + 48, nh_impl,
                                                        poly_impl));
  /* every message copies this Poly1305 state: give it its powers now */
  burn = gcry_max_burn (burn, poly1305_prepare (&ctx->hash.poly));
  gcry_wipememory (derived, sizeof derived);
  gcry_wipememory (polykey, sizeof polykey);
  gcry_wipememory (&kdf, sizeof kdf);
  gcry_burn_stack (burn + sizeof (derived) + sizeof (kdf) + GCRY_C_FRAME);
  return GCRY_OK;
}

/* H_T: the tweak hash, shared by both hash steps of one message. */
static unsigned int
tweak_hash (const adiantum_ctx *ctx, size_t len_l, const uint8_t *tweak, size_t tweaklen,
            uint8_t out[16])
{
  poly1305_ctx poly;
  uint8_t lengths[16];
  uint64_t bits = (uint64_t)len_l * 8;
  unsigned int burn;

  poly1305_copy (&poly, &ctx->tweak);
  gcry_store_le32 (lengths, (uint32_t)bits);
  gcry_store_le32 (lengths + 4, (uint32_t)(bits >> 32));
  memset (lengths + 8, 0, 8);
  burn = poly1305_update_noburn (&poly, lengths, sizeof lengths);
  if (tweaklen)
    burn = gcry_max_burn (burn, poly1305_update_noburn (&poly, tweak, tweaklen));
  burn = gcry_max_burn (burn, poly1305_tag_noburn (&poly, out));
  poly1305_wipe (&poly);
  return burn + sizeof (poly) + sizeof (lengths) + GCRY_C_FRAME;
}

/* H(T, L) = H_T + NHPoly1305(L) */
static unsigned int
full_hash (const adiantum_ctx *ctx, const uint8_t h_t[16], const uint8_t *l, size_t len_l,
           uint8_t out[16])
{
  uint8_t h_l[16];
  unsigned int burn;

  burn = nhpoly1305_oneshot_noburn (&ctx->hash, l, len_l, h_l);
  add128 (out, h_t, h_l, 0);
  gcry_wipememory (h_l, sizeof h_l);
  return burn + sizeof (h_l) + GCRY_C_FRAME;
}

/* dst[0:len] = src[0:len] ^ XChaCha(K_S, C_M || 1 || 0^7) */
static unsigned int
stream_xor (const adiantum_ctx *ctx, const uint8_t c_m[16], uint8_t *dst, const uint8_t *src,
            size_t len)
{
  chacha_ctx stream;
  uint8_t nonce[24];
  unsigned int burn;
  int rc;

  memcpy (&stream, &ctx->stream, sizeof stream);
  memcpy (nonce, c_m, 16);
  memset (nonce + 16, 0, 8);
  nonce[16] = 1;
  burn = chacha_setiv_noburn (&stream, nonce, sizeof nonce, &rc);
  if (len)
    burn = gcry_max_burn (burn, chacha_crypt_noburn (&stream, dst, src, len));
  gcry_wipememory (&stream, sizeof stream);
  return burn + sizeof (stream) + sizeof (nonce) + GCRY_C_FRAME;
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

static unsigned int
crypt_noburn (const adiantum_ctx *ctx, uint8_t *dst, const uint8_t *src, size_t n,
              const uint8_t *tweak, size_t tweaklen, int encrypting)
{
  const size_t len_l = n - ADIANTUM_BLOCK;
  uint8_t h_t[16], h[16], mid[16], block[16];
  unsigned int burn;

  burn = tweak_hash (ctx, len_l, tweak, tweaklen, h_t);
  burn = gcry_max_burn (burn, full_hash (ctx, h_t, src, len_l, h));
  if (encrypting)
    {
      add128 (block, src + len_l, h, 0);                              /* P_M */
      burn = gcry_max_burn (burn, aes256_encrypt_noburn (&ctx->aes, mid, block, 1)); /* C_M */
      burn = gcry_max_burn (burn, stream_xor (ctx, mid, dst, src, stream_len (len_l, n))); /* C_L */
      burn = gcry_max_burn (burn, full_hash (ctx, h_t, dst, len_l, h));
      add128 (dst + len_l, mid, h, 1);                                /* C_R */
    }
  else
    {
      add128 (mid, src + len_l, h, 0);                                /* C_M */
      burn = gcry_max_burn (burn, stream_xor (ctx, mid, dst, src, stream_len (len_l, n))); /* P_L */
      burn = gcry_max_burn (burn, aes256_decrypt_noburn (&ctx->aes, block, mid, 1)); /* P_M */
      burn = gcry_max_burn (burn, full_hash (ctx, h_t, dst, len_l, h));
      add128 (dst + len_l, block, h, 1);                              /* P_R */
    }
  gcry_wipememory (h_t, sizeof h_t);
  gcry_wipememory (h, sizeof h);
  gcry_wipememory (mid, sizeof mid);
  gcry_wipememory (block, sizeof block);
  return burn + 4 * 16 + GCRY_C_FRAME;
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

/* NSECTORS sectors of SECTOR_SIZE bytes in place, sector i with the 32-byte
 * tweak le64(FIRST + i) || 0^24 (dm-crypt's plain64 IV). */
int
gcry_adiantum_crypt_sectors (void *c, uint8_t *buf, size_t nsectors, size_t sector_size,
                             uint64_t first, int encrypting)
{
  uint8_t tweak[ADIANTUM_TWEAK_MAX];
  unsigned int burn = 0;
  size_t i;

  if (sector_size < ADIANTUM_BLOCK)
    return GCRY_ERR_INV_LENGTH;
  memset (tweak, 0, sizeof tweak);
  for (i = 0; i < nsectors; i++, buf += sector_size)
    {
      uint64_t sector = first + i;
      gcry_store_le32 (tweak, (uint32_t)sector);
      gcry_store_le32 (tweak + 4, (uint32_t)(sector >> 32));
      burn = gcry_max_burn (burn, crypt_noburn (c, buf, buf, sector_size, tweak,
                                                sizeof tweak, encrypting));
    }
  gcry_burn_stack (burn + sizeof (tweak) + GCRY_C_FRAME);
  return GCRY_OK;
}

size_t
gcry_adiantum_ctxsize (void)
{
  return sizeof (adiantum_ctx);
}
