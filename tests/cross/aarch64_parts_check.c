/* aarch64_parts_check.c - the aarch64 assembly of issue 21 part B (AES-256
 * with the Crypto Extensions, NH with NEON, scalar Poly1305) against the
 * portable C, as a static program run under qemu-aarch64
 * (tests/cross/run_aarch64_parts.sh builds and runs it).
 *
 * Every call of an assembly routine goes through a64_call_checked
 * (aarch64_call_check.S), so each case also checks the calling
 * convention: x19-x28, x29, sp and d8-d15 preserved; the returned burn
 * depth at least the stack bytes actually written below the entry sp; and
 * every vector register either untouched or zero on return (no key,
 * message or state left behind).  Inputs that the contracts bound are
 * placed against a PROT_NONE page, so a read past the bound faults.
 *
 * Prints "N passed, M failed" and exits non-zero on any failure.
 * Usage: aarch64_parts_check [seed]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aes.h"
#include "nh.h"
#include "poly1305.h"

/* the routines checked (declared beside their driver rows in the glue) */
extern aes256_hw_setkey_routine _gcry_aes256_aarch64_ce_setkey;
extern aes256_hw_crypt_routine _gcry_aes256_aarch64_ce_encrypt, _gcry_aes256_aarch64_ce_decrypt;
extern nh_routine _gcry_nh_aarch64_neon;
extern nh_units_routine _gcry_nh_aarch64_neon_units;
extern poly1305_scalar_routine _gcry_poly1305_aarch64_scalar_blocks;

/* aarch64_call_check.S */
struct a64_call_record {
  uint64_t ret, depth, gpr_bad, pad;
  uint8_t v[32][16];
};
uint64_t a64_call_checked (void *fn, uint64_t a0, uint64_t a1, uint64_t a2,
                           uint64_t a3, struct a64_call_record *rec);
#define A64_V_PATTERN 0x40

static unsigned long passed, failed;

static void
check (int ok, const char *what, unsigned long cas)
{
  if (ok)
    passed++;
  else if (failed++ < 20)
    printf ("FAIL: %s (case %lu)\n", what, cas);
}

/* xorshift64*: reproducible inputs from the seed. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
rnd64 (void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dULL;
}

static void
rnd_bytes (uint8_t *p, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    p[i] = (uint8_t)(rnd64 () >> 56);
}

/* Call FN through the checker and judge the convention. */
static uint64_t
call (void *fn, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
      const char *what, unsigned long cas)
{
  struct a64_call_record rec;
  unsigned int n, i, bad_v = 0;
  char msg[96];

  a64_call_checked (fn, a0, a1, a2, a3, &rec);
  snprintf (msg, sizeof msg, "%s: callee-saved x19-x29/sp", what);
  check (rec.gpr_bad == 0, msg, cas);
  for (n = 0; n < 32; n++)
    {
      int untouched = 1, zero = 1;
      for (i = 0; i < 16; i++)
        {
          untouched &= rec.v[n][i] == A64_V_PATTERN + n;
          zero &= rec.v[n][i] == 0;
        }
      /* d8-d15 (low halves of v8-v15) must come back; anything else must
       * be left as it was or cleared */
      if (n >= 8 && n < 16)
        for (i = 0; i < 8; i++)
          if (rec.v[n][i] != A64_V_PATTERN + n)
            untouched = zero = 0;
      if (!untouched && !zero)
        bad_v |= 1u << n;
    }
  snprintf (msg, sizeof msg, "%s: vector registers cleared (bad mask %#x)", what, bad_v);
  check (bad_v == 0, msg, cas);
  snprintf (msg, sizeof msg, "%s: burn depth %lu >= stack written %lu", what,
            (unsigned long)(uint32_t)rec.ret, (unsigned long)rec.depth);
  check ((uint32_t)rec.ret >= rec.depth, msg, cas);
  return rec.ret;
}

/* Memory against a PROT_NONE page: guard_end () returns the first byte
 * of the inaccessible page, with a writable page before it. */
static uint8_t *guard_base;
static long page;

static uint8_t *
guard_end (void)
{
  return guard_base + page;
}

static void
guard_init (void)
{
  page = sysconf (_SC_PAGESIZE);
  guard_base = mmap (NULL, 2 * page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (guard_base == MAP_FAILED || mprotect (guard_base + page, page, PROT_NONE))
    {
      perror ("guard page");
      exit (2);
    }
}

/**********************************************************************
 * AES-256
 **********************************************************************/

/* FIPS-197 GF(2^8) multiplication, for the decryption schedule check. */
static uint8_t
gmul (uint8_t a, uint8_t b)
{
  uint8_t p = 0;
  while (b)
    {
      if (b & 1)
        p ^= a;
      a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
      b >>= 1;
    }
  return p;
}

static void
inv_mix_columns (uint8_t out[16], const uint8_t in[16])
{
  int c;
  for (c = 0; c < 4; c++)
    {
      const uint8_t *a = in + 4 * c;
      uint8_t *o = out + 4 * c;
      o[0] = gmul (a[0], 14) ^ gmul (a[1], 11) ^ gmul (a[2], 13) ^ gmul (a[3], 9);
      o[1] = gmul (a[0], 9) ^ gmul (a[1], 14) ^ gmul (a[2], 11) ^ gmul (a[3], 13);
      o[2] = gmul (a[0], 13) ^ gmul (a[1], 9) ^ gmul (a[2], 14) ^ gmul (a[3], 11);
      o[3] = gmul (a[0], 11) ^ gmul (a[1], 13) ^ gmul (a[2], 9) ^ gmul (a[3], 14);
    }
}

static aes256_aesni_key ce_key;
static aes256_generic_key gen_key;

/* The schedule's structure (aes.h) on random keys: rounds 0-1 are the
 * key, dec[] is FIPS-197 5.3.5's equivalent inverse cipher's.  No vector
 * is written here: the published ones (FIPS-197, RFC 8439) run through
 * these routines in the native check (tests/asmcheck rows, from
 * selftests/vectors_*.py, where they are written once). */
static void
test_aes_schedule (unsigned long ncases)
{
  uint8_t key[32], t[16];
  unsigned long cas;
  int r, ok;

  for (cas = 0; cas < ncases; cas++)
    {
      rnd_bytes (key, 32);
      call (_gcry_aes256_aarch64_ce_setkey, (uint64_t)&ce_key, (uint64_t)key, 0, 0,
            "aes setkey", cas);
      check (!memcmp (ce_key.enc, key, 32), "AES-256 schedule rounds 0-1 = key", cas);
      check (!memcmp (ce_key.dec, ce_key.enc + 224, 16)
             && !memcmp (ce_key.dec + 224, ce_key.enc, 16), "AES-256 dec[0], dec[14]", cas);
      for (r = 1, ok = 1; r < 14; r++)
        {
          inv_mix_columns (t, ce_key.enc + 16 * (14 - r));
          ok &= !memcmp (t, ce_key.dec + 16 * r, 16);
        }
      check (ok, "AES-256 dec[r] = InvMixColumns(enc[14-r])", cas);
    }
}

/* Random keys, block counts 0..40 (the 8-, 4-, 2- and 1-block paths and
 * their combinations), any alignment, in place or not; bytes around dst
 * must stay untouched. */
static void
test_aes_random (unsigned long ncases)
{
  static uint8_t src[40 * 16 + 64], dst[40 * 16 + 64], ref[40 * 16 + 64], back[40 * 16 + 64];
  unsigned long cas;

  for (cas = 0; cas < ncases; cas++)
    {
      uint8_t key[32];
      size_t n = (cas < 41) ? cas : rnd64 () % 41;
      size_t so = rnd64 () % 16, doff = rnd64 () % 16, len = 16 * n;
      int inplace = (rnd64 () & 3) == 0;
      uint8_t *s = src + so, *d = inplace ? src + so : dst + doff;
      int around_ok;

      rnd_bytes (key, 32);
      rnd_bytes (src, sizeof src);
      rnd_bytes (dst, sizeof dst);
      if (!inplace)
        memcpy (back, dst, sizeof dst);
      aes256_generic_setkey (&gen_key, key);
      aes256_generic_encrypt (&gen_key, ref, s, n);
      call (_gcry_aes256_aarch64_ce_setkey, (uint64_t)&ce_key, (uint64_t)key, 0, 0,
            "aes setkey", cas);
      call (_gcry_aes256_aarch64_ce_encrypt, (uint64_t)&ce_key, (uint64_t)d, (uint64_t)s, n,
            "aes encrypt", cas);
      check (!memcmp (d, ref, len), "AES-256 encrypt = portable C", cas);
      around_ok = inplace || (!memcmp (dst, back, doff)
                              && !memcmp (dst + doff + len, back + doff + len,
                                          sizeof dst - doff - len));
      check (around_ok, "AES-256 encrypt writes only dst[0, 16 n)", cas);

      /* decrypt what the portable C encrypted, in place or not */
      memcpy (s, ref, len);
      aes256_generic_decrypt (&gen_key, ref, s, n);
      call (_gcry_aes256_aarch64_ce_decrypt, (uint64_t)&ce_key, (uint64_t)d, (uint64_t)s, n,
            "aes decrypt", cas);
      check (!memcmp (d, ref, len), "AES-256 decrypt = portable C", cas);
    }
}

/**********************************************************************
 * NH
 **********************************************************************/

/* One NH case of LEN bytes (any value; the routines round it down) with
 * the key's readable bytes [0, round16(LEN) + 48) and the message's
 * [0, LEN) ending at the guard page. */
static void
nh_case (size_t len, size_t misalign, unsigned long cas)
{
  static uint32_t full_key[NH_KEY_WORDS];
  static uint8_t msgbuf[NH_UNIT + 64];
  uint8_t ref[NH_HASH_BYTES], out[NH_HASH_BYTES + 16], before[NH_HASH_BYTES + 16];
  size_t klen = (len & ~(size_t)15) + 48;
  uint32_t *key;
  uint8_t *msg;

  rnd_bytes ((uint8_t *)full_key, sizeof full_key);
  rnd_bytes (msgbuf, sizeof msgbuf);
  rnd_bytes (out, sizeof out);
  memcpy (before, out, sizeof out);
  nh_generic (full_key, msgbuf, len, ref);

  /* key at the guard (16-byte aligned: klen is a multiple of 16) */
  key = (uint32_t *)(guard_end () - klen);
  memcpy (key, full_key, klen);
  call (_gcry_nh_aarch64_neon, (uint64_t)key, (uint64_t)msgbuf, len, (uint64_t)out,
        "nh (key at guard)", cas);
  check (!memcmp (out, ref, 32) && !memcmp (out + 32, before + 32, 16),
         "NH = portable C (key against the guard page)", cas);

  /* message at the guard, misaligned by its length and MISALIGN */
  msg = guard_end () - len - misalign;
  memcpy (msg, msgbuf, len);
  memset (out, 0x77, 32);
  call (_gcry_nh_aarch64_neon, (uint64_t)full_key, (uint64_t)msg, len, (uint64_t)(out + 3),
        "nh (message at guard)", cas);
  check (!memcmp (out + 3, ref, 32), "NH = portable C (message against the guard page)", cas);
}

static void
test_nh (unsigned long per_len)
{
  static uint32_t key[NH_KEY_WORDS];
  static uint8_t msg[8 * NH_UNIT + 16], ref[9 * NH_HASH_BYTES], out[9 * NH_HASH_BYTES];
  unsigned long cas = 0, i;
  size_t len, n;

  /* every length 0..1024 (multiples of 16 and the bytes in between,
   * which are ignored) */
  for (len = 0; len <= NH_UNIT; len++)
    for (i = 0; i < ((len & 15) ? 1 : per_len); i++)
      nh_case (len, i & 7, cas++);

  /* units: 0..8, any alignment, nothing written past nunits hashes */
  for (n = 0; n <= 8; n++)
    for (i = 0; i < 8; i++, cas++)
      {
        size_t mo = rnd64 () % 16;
        rnd_bytes ((uint8_t *)key, sizeof key);
        rnd_bytes (msg, sizeof msg);
        rnd_bytes (out, sizeof out);
        memcpy (ref, out, sizeof ref);
        nh_generic_units (key, msg + mo, n, ref);
        call (_gcry_nh_aarch64_neon_units, (uint64_t)key, (uint64_t)(msg + mo), n,
              (uint64_t)out, "nh units", cas);
        check (!memcmp (out, ref, sizeof out), "NH units = portable C", cas);
      }
}

/**********************************************************************
 * Poly1305
 **********************************************************************/

/* A 64-bit word near the edges the carries care about. */
static uint64_t
edge64 (void)
{
  static const uint64_t edges[] = {
    0, 1, 2, 3, 4, 5, 0xfffffffffffffffaULL, 0xfffffffffffffffbULL,
    0xfffffffffffffffcULL, 0xfffffffffffffffeULL, 0xffffffffffffffffULL,
    0x7fffffffffffffffULL, 0x8000000000000000ULL
  };
  uint64_t x = rnd64 ();
  switch (x & 3)
    {
    case 0:
    case 1:
      return edges[(x >> 8) % (sizeof edges / sizeof edges[0])];
    case 2:
      return rnd64 () | 0xffffffff00000000ULL;
    default:
      return rnd64 ();
    }
}

static void
test_poly_random (unsigned long ncases)
{
  static uint8_t msg[24 * 16 + 16];
  unsigned long cas;

  for (cas = 0; cas < ncases; cas++)
    {
      uint64_t h[3], ref[3], r[2];
      size_t n = (cas < 25) ? cas : rnd64 () % 25, mo = rnd64 () % 16, i;
      int kind = (int)(cas % 5), zero_msg;

      /* r: random, the largest clamped value, small, or 1 (h r = h: only
       * the fold's carries are at work, which edge values of h then
       * reach) */
      r[0] = rnd64 () & 0x0ffffffc0fffffffULL;
      r[1] = rnd64 () & 0x0ffffffc0ffffffcULL;
      if (kind == 1)
        {
          r[0] = 0x0ffffffc0fffffffULL;
          r[1] = 0x0ffffffc0ffffffcULL;
        }
      else if (kind == 2)
        r[1] &= 0xfc;
      else if (kind == 4)
        {
          r[0] = 1;
          r[1] = 0;
        }
      /* h: anywhere in the allowed range, often at the edges (h2 <= 7) */
      h[0] = edge64 ();
      h[1] = edge64 ();
      h[2] = (kind >= 3) ? 7 - rnd64 () % 2 : rnd64 () % 8;
      /* r = 1, half the time: h1 all ones and zero blocks, so that the
       * fold's carry runs through h0 and h1 into h2 */
      zero_msg = kind == 4 && (rnd64 () & 1);
      if (zero_msg)
        h[1] = ~(uint64_t)0;
      /* message: random, all ones, zero or edge words */
      for (i = 0; i < n; i++)
        {
          uint64_t w0 = (kind == 1) ? ~(uint64_t)0 : zero_msg ? 0 : edge64 ();
          uint64_t w1 = (kind == 1) ? ~(uint64_t)0 : zero_msg ? 0 : edge64 ();
          memcpy (msg + mo + 16 * i, &w0, 8);
          memcpy (msg + mo + 16 * i + 8, &w1, 8);
        }
      memcpy (ref, h, sizeof h);
      poly1305_generic64_blocks (ref, r, msg + mo, n, 1);
      call (_gcry_poly1305_aarch64_scalar_blocks, (uint64_t)h, (uint64_t)r,
            (uint64_t)(msg + mo), n, "poly1305", cas);
      check (h[0] == ref[0] && h[1] == ref[1] && h[2] == ref[2],
             "Poly1305 h = portable C", cas);
      check (n == 0 || h[2] <= 4, "Poly1305 h[2] <= 4 on exit", cas);
    }
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    rng_state ^= strtoull (argv[1], NULL, 0) * 0x9e3779b97f4a7c15ULL;
  guard_init ();

  test_aes_schedule (16);
  test_aes_random (3000);
  test_nh (40);
  test_poly_random (20000);

  printf ("%lu passed, %lu failed\n", passed, failed);
  return failed != 0;
}
