/* adiantum_phases.c - where a 4 KiB Adiantum-XChaCha12 sector's time goes.
 *
 * Not part of the library or its tests: a measuring tool for the figures in
 * docs/algorithms.rst (Adiantum).  It includes ciphers/adiantum/adiantum_glue.c
 * itself, so its static stages can be timed one by one, on the AVX-512 tier
 * (AVX-512 XChaCha12 and NH, AVX2 Poly1305, AES-NI), and prints for each
 * phase the minimum over many runs of rdtsc ticks per call (each run
 * averages 16 calls: a virtual machine's rdtsc may step in tens of ticks).
 * Needs an AVX-512 CPU.  Build and run from the repository root:
 *
 *   gcc -O2 -fno-strict-aliasing -DUSE_AMD64=1 -Iciphers/adiantum -Iciphers/chacha \
 *     -Iciphers/poly1305 -Iciphers/nhpoly1305 -Iciphers/aes -Iasm -Igcrylike/_native \
 *     -o /tmp/adiantum_phases docs/models/adiantum_phases.c \
 *     ciphers/chacha/chacha_glue.c ciphers/chacha/chacha_generic.c \
 *     ciphers/poly1305/poly1305_glue.c ciphers/poly1305/poly1305_generic.c \
 *     ciphers/poly1305/poly1305_amd64_tables.c ciphers/nhpoly1305/nhpoly1305_glue.c \
 *     ciphers/nhpoly1305/nh_generic.c ciphers/aes/aes_glue.c ciphers/aes/aes_generic.c \
 *     gcrylike/_native/burn.c asm/chacha-amd64-*.S asm/poly1305-amd64-*.S \
 *     asm/nh-amd64-*.S asm/aes-amd64-aesni.S
 *   /tmp/adiantum_phases [runs]        (default 4000)
 *   /tmp/adiantum_phases [runs] loop   (crypt_sectors only: for perf record)
 */
#include "adiantum_glue.c"
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>
#include "poly1305_amd64.h"

/* the routines timed alone (their declarations beside their driver rows) */
extern nh_routine _gcry_nh_amd64_avx512;
extern nh_units_routine _gcry_nh_amd64_avx512_units;
extern poly1305_simd_routine _gcry_poly1305_amd64_avx2_blocks,
  _gcry_poly1305_amd64_avx512ifma_blocks;
extern poly1305_scalar_routine _gcry_poly1305_amd64_scalar_blocks;
extern gcry_stream_blocks_routine _gcry_chacha_amd64_avx512_blocks16;
extern gcry_stream_hcore_routine _gcry_hchacha_amd64_avx512;
extern gcry_stream_hcore4_routine _gcry_hchacha4_amd64_avx512;
extern gcry_stream_hcore16_routine _gcry_hchacha16_amd64_avx512;

/* The id of the driver SUFFIX of the component whose rows ACCESSOR gives. */
static unsigned int
driver (const gcry_driver *(*accessor) (size_t *n), const char *suffix)
{
  size_t n;
  const gcry_driver *rows = accessor (&n);
  int id = gcry_driver_find (rows, n, suffix);

  if (id < 0)
    {
      printf ("no driver %s\n", suffix);
      exit (1);
    }
  return (unsigned int)id;
}

#define SECT 4096
#define NSEC 16                 /* sectors per crypt_sectors call, as the bench */
#define INNER 16                /* calls per timed run */

static GCRY_ALIGNED (64) uint8_t buf[NSEC * SECT];
static GCRY_ALIGNED (64) adiantum_ctx actx;
static GCRY_ALIGNED (64) uint8_t ifma_table[POLY1305_TABLE_BYTES];
static uint64_t lanes_out[40];

/* LABEL: min over RUNS of the ticks of INNER executions of STMT, / PER. */
#define TIME(label, runs, per, stmt)                                         \
  do {                                                                       \
    uint64_t best_ = ~0ull;                                                  \
    for (int r_ = 0; r_ < (runs); r_++)                                      \
      {                                                                      \
        uint64_t t0_ = __rdtsc ();                                           \
        for (int k_ = 0; k_ < INNER; k_++)                                   \
          {                                                                  \
            stmt;                                                            \
          }                                                                  \
        uint64_t t1_ = __rdtsc ();                                           \
        if (t1_ - t0_ < best_)                                               \
          best_ = t1_ - t0_;                                                 \
      }                                                                      \
    printf ("%-40s %8.1f ticks\n", label, (double)best_ / (per) / INNER);    \
  } while (0)

int
main (int argc, char **argv)
{
  int runs = argc > 1 ? atoi (argv[1]) : 4000;
  adiantum_ctx *ctx = &actx;
  uint8_t key[32], tweak[32] = { 0 }, h_t[16], h[16], blk[64], mid[64];
  uint8_t hashes[4 * NH_HASH_BYTES];
  uint32_t st[16];
  GCRY_ALIGNED (64) uint32_t st4[64];
  GCRY_ALIGNED (64) uint32_t nz16[64], out16[128];
  uint64_t acc[3] = { 0 };
  adiantum_msg m;
  sector_tweak_form form;
  chacha_ctx s;
  uint8_t nonce[24] = { 0 };
  int rc, i;

  for (i = 0; i < 32; i++)
    key[i] = (uint8_t)i;
  for (size_t j = 0; j < sizeof buf; j++)
    buf[j] = (uint8_t)(j * 7);
  memset (blk, 0x5a, sizeof blk);
  rc = gcry_adiantum_setkey (ctx, key, 32, 12, driver (gcry_chacha_drivers, "amd64-avx512"),
                             driver (gcry_nh_drivers, "amd64-avx512"),
                             driver (gcry_poly1305_drivers, "amd64-avx2"),
                             driver (gcry_aes_drivers, "amd64-aesni"));
  if (rc)
    {
      printf ("setkey: %d\n", rc);
      return 1;
    }
  if (argc > 2)
    {
      for (i = 0; i < runs; i++)
        gcry_adiantum_crypt_sectors (ctx, buf, NSEC, SECT, 5, 1);
      return 0;
    }

  printf ("-- whole sectors\n");
  TIME ("crypt_sectors, 16 sectors (per sector)", runs / 16, NSEC,
        gcry_adiantum_crypt_sectors (ctx, buf, NSEC, SECT, 5, 1));
  TIME ("crypt_noburn, one sector", runs, 1, crypt_noburn (ctx, buf, buf, SECT, tweak, 32, 1));
  printf ("-- its stages, one sector\n");
  TIME ("stage_front (NH, tweak hash, Poly1305)", runs, 1,
        stage_front (ctx, &m, buf, SECT, tweak, 32, NULL, NULL, 0, 1));
  TIME ("stage_aes (1 block)", runs, 1, stage_aes (ctx, &m, 1, 1));
  TIME ("stage_keys (1 HChaCha12)", runs, 1, stage_keys (ctx, &m, 1));
  TIME ("stage_back (XChaCha12, NH, Poly1305)", runs, 1,
        stage_back (ctx, &m, buf, buf, SECT, NULL, 0, 1));
  TIME ("  tweak_hash (3 scalar blocks)", runs, 1, tweak_hash (ctx, SECT - 16, tweak, 32, h_t));
  tweak_acc (ctx, SECT - 16, tweak, 32, form.a);
  form.sector = 5;
  TIME ("  tweak hash of a sector, closed form", runs, 1,
        (message_tweak_hash (ctx, SECT - 16, tweak, 32, &form, h_t), form.sector += h_t[0]));
  TIME ("  nhpoly1305_oneshot 4080 B", runs, 1,
        nhpoly1305_oneshot_noburn (&ctx->hash, buf, SECT - 16, h));
  printf ("-- the routines alone\n");
  TIME ("NH units x3 + 1008 B", runs, 1,
        (_gcry_nh_amd64_avx512_units (ctx->hash.nhkey, buf, 3, hashes),
         _gcry_nh_amd64_avx512 (ctx->hash.nhkey, buf + 3072, 1008, hashes + 96)));
  TIME ("Poly1305 AVX2, 8 blocks", runs, 1,
        _gcry_poly1305_amd64_avx2_blocks (acc, ctx->hash.poly.table, hashes, 8));
  _gcry_poly1305_amd64_avx512ifma_setup (ctx->hash.poly.r, ifma_table);
  TIME ("Poly1305 IFMA, 8 blocks", runs, 1,
        _gcry_poly1305_amd64_avx512ifma_blocks (acc, ifma_table, hashes, 8));
  TIME ("Poly1305 lanes, 8 messages x 8 blocks", runs, 1,
        _gcry_poly1305_amd64_avx512_lanes8 (ctx->poly_powers, (const uint64_t *)buf, 8,
                                            lanes_out));
  TIME ("Poly1305 scalar, 8 blocks", runs, 1,
        _gcry_poly1305_amd64_scalar_blocks (acc, ctx->hash.poly.r, hashes, 8));
  TIME ("AES-256 AES-NI, 1 block", runs, 1, aes256_encrypt_noburn (&ctx->aes, mid, blk, 1));
  TIME ("AES-256 AES-NI, 4 blocks", runs, 1, aes256_encrypt_noburn (&ctx->aes, mid, blk, 4));
  memcpy (&s, &ctx->stream, sizeof s);
  TIME ("XChaCha setiv (copy, HChaCha12)", runs, 1,
        (memcpy (&s, &ctx->stream, sizeof s), chacha_setiv_noburn (&s, nonce, 24, &rc)));
  memcpy (st, s.input, sizeof st);
  for (i = 0; i < 64; i++)
    st4[i] = st[i % 16] * (uint32_t)(i / 16 + 1);
  TIME ("HChaCha12 x1, dependent chain", runs, 1,
        (_gcry_hchacha_amd64_avx512 (st4, h_t, 12), st4[12] ^= h_t[0]));
  TIME ("HChaCha12 x4 (hchacha4), dependent chain", runs, 1,
        (_gcry_hchacha4_amd64_avx512 (st4, hashes, 12), st4[12] ^= hashes[0]));
  for (i = 0; i < 64; i++)
    nz16[i] = st4[i] ^ (uint32_t)i;
  TIME ("HChaCha12 x16, dependent chain", runs, 1,
        (_gcry_hchacha16_amd64_avx512 (st, nz16, out16, 12), nz16[0] ^= out16[0]));
  TIME ("chacha_crypt_noburn 4096 B (driver)", runs, 1,
        chacha_crypt_noburn (&s, buf, buf, SECT));
  TIME ("blocks16, 64 blocks in one call", runs, 1,
        _gcry_chacha_amd64_avx512_blocks16 (st, buf, buf, 64, 12));
  TIME ("blocks16, 4 calls of 16 blocks", runs, 1,
        for (int q = 0; q < 4; q++)
          _gcry_chacha_amd64_avx512_blocks16 (st, buf + 1024 * q, buf + 1024 * q, 16, 12));
  printf ("-- stream then NH, 4 KiB: two passes or chunk by chunk\n");
  TIME ("64 blocks, then NH x4", runs, 1,
        (_gcry_chacha_amd64_avx512_blocks16 (st, buf, buf, 64, 12),
         _gcry_nh_amd64_avx512_units (ctx->hash.nhkey, buf, 4, hashes)));
  TIME ("(32 blocks, NH x2) x2", runs, 1,
        for (int q = 0; q < 2; q++)
          {
            _gcry_chacha_amd64_avx512_blocks16 (st, buf + 2048 * q, buf + 2048 * q, 32, 12);
            _gcry_nh_amd64_avx512_units (ctx->hash.nhkey, buf + 2048 * q, 2, hashes + 64 * q);
          });
  TIME ("(16 blocks, NH x1) x4", runs, 1,
        for (int q = 0; q < 4; q++)
          {
            _gcry_chacha_amd64_avx512_blocks16 (st, buf + 1024 * q, buf + 1024 * q, 16, 12);
            _gcry_nh_amd64_avx512_units (ctx->hash.nhkey, buf + 1024 * q, 1, hashes + 32 * q);
          });
  gcry_wipememory (&m, sizeof m);
  gcry_wipememory (&s, sizeof s);
  return 0;
}
