/* kinds_stream.c - ChaCha and Salsa20: the block routines, HChaCha and
 * HSalsa20, against the portable C (ciphers/chacha/chacha_generic.c,
 * ciphers/salsa20/salsa20_generic.c) and the known answers of vectors.h: every
 * block of selftests/vectors_chacha.py's ChaCha20 and ChaCha12 vectors
 * (RFC 8439, and google/adiantum's XChaCha vectors through their HChaCha
 * subkeys), of vectors_salsa20.py (google/adiantum, eSTREAM) and of NaCl's
 * XSalsa20 stream through its HSalsa20 subkey (vectors_xsalsa20.py), and
 * every HChaCha and HSalsa20 answer there.
 *
 * Both ciphers run the same checks; a `core` says where each keeps its
 * counter, nonce and key words and which portable functions are its
 * reference. */
#include <stdio.h>
#include <string.h>

#include "asmcheck.h"
#include "kinds_stream.h"

const core CORE_CHACHA = {
  "ChaCha", 12, 14, { 4, 5, 6, 7, 8, 9, 10, 11 }, { 0, 1, 2, 3 }, { 12, 13, 14, 15 },
  chacha_generic_block, hchacha_generic,
};

const core CORE_SALSA20 = {
  "Salsa20", 8, 6, { 1, 2, 3, 4, 11, 12, 13, 14 }, { 0, 5, 10, 15 }, { 6, 7, 8, 9 },
  salsa20_generic_block, hsalsa20_generic,
};

static const unsigned int ROUNDS[] = { 20, 12, 8 };



/* the expected output and a copy of the input (single-threaded) */
static uint8_t expect[GUARDED_BYTES], orig[GUARDED_BYTES];

uint64_t
core_counter (const core *c, const uint32_t st[16])
{
  return st[c->ctr] | (uint64_t)st[c->ctr + 1] << 32;
}

static void
set_counter (const core *c, uint32_t st[16], uint64_t v)
{
  st[c->ctr] = (uint32_t)v;
  st[c->ctr + 1] = (uint32_t)(v >> 32);
}

void
core_state (const core *c, uint32_t st[16], const uint8_t *key, size_t keylen,
            const uint8_t *nonce, size_t noncelen, uint64_t ctr)
{
  const uint32_t *k = keylen == 32 ? gcry_sigma : gcry_tau;
  unsigned int i;

  for (i = 0; i < 4; i++)
    st[c->const_words[i]] = k[i];
  for (i = 0; i < 8; i++)
    st[c->key_words[i]] = gcry_load_le32 (key + 4 * (i % (keylen / 4)));
  if (noncelen == 12)
    {
      /* RFC 8439: a 32-bit counter, the nonce in the next three words */
      st[c->ctr] = (uint32_t)ctr;
      for (i = 0; i < 3; i++)
        st[c->ctr + 1 + i] = gcry_load_le32 (nonce + 4 * i);
    }
  else
    {
      set_counter (c, st, ctr);
      st[c->nonce] = gcry_load_le32 (nonce);
      st[c->nonce + 1] = gcry_load_le32 (nonce + 4);
    }
}

/* A random state: random key, nonce and constants of either key size, and
 * a counter of the kind MODE asks for, N blocks ahead. */
static const char *const COUNTER_MODES[] = {
  "random", "carry across 2^32", "last blocks before 2^64", "zero"
};

void
core_random_state (check *t, const core *c, uint32_t st[16], size_t n, unsigned int mode)
{
  uint8_t key[32], nonce[8];
  uint64_t ctr;

  rnd_bytes (t, key, sizeof key);
  rnd_bytes (t, nonce, sizeof nonce);
  switch (mode)
    {
    case 0:
      ctr = rnd64 (t);
      break;
    case 1:                     /* word low runs over within the call */
      ctr = (rnd64 (t) & ~0xffffffffULL) | (0xffffffffULL - rnd_below (t, n + 1));
      break;
    case 2:                     /* ends at 2^64 or one block before */
      ctr = (uint64_t)0 - n - rnd_below (t, 2);
      break;
    default:
      ctr = 0;
      break;
    }
  core_state (c, st, key, rnd_below (t, 4) ? 32 : 16, nonce, 8, ctr);
}

/* The portable reference: N blocks of DST = SRC ^ keystream, the counter
 * words advanced as one 64-bit counter. */
void
core_ref_blocks (const core *c, uint32_t st[16], uint8_t *dst, const uint8_t *src, size_t n,
                 unsigned int rounds)
{
  uint32_t ks[16];
  size_t i;
  unsigned int j;

  for (i = 0; i < n; i++)
    {
      c->block (ks, st, rounds);
      for (j = 0; j < 16; j++)
        gcry_store_le32 (dst + 64 * i + 4 * j,
                         gcry_load_le32 (src + 64 * i + 4 * j) ^ ks[j]);
      set_counter (c, st, core_counter (c, st) + 1);
    }
}

size_t
first_diff (const uint8_t *a, const uint8_t *b, size_t n)
{
  size_t i;
  for (i = 0; i < n && a[i] == b[i]; i++)
    ;
  return i;
}

/* The state for a call: 64-byte aligned like every context's, at the end
 * of its guarded mapping or not. */
uint32_t *
place_state (check *t, const uint32_t st[16])
{
  uint32_t *p = (uint32_t *)guarded_place (t, &buf_state, 64,
                                           rnd_below (t, 2) ? PLACE_AT_END : PLACE_ALIGNED);
  memcpy (p, st, 64);
  return p;
}

/* One call of a blocks routine on N blocks against the reference. */
static void
blocks_case (check *t, const row *r, const core *c, size_t n, unsigned int rounds,
             unsigned int mode, placement ps, placement pd, int inplace)
{
  blocks_fn fn = (blocks_fn)r->fn;
  uint32_t st0[16], st_ref[16], *st;
  size_t len = n * 64;
  uint8_t *src, *dst;

  core_random_state (t, c, st0, n, mode);
  st = place_state (t, st0);
  src = guarded_place (t, &buf_src, len, ps);
  dst = inplace ? src : guarded_place (t, &buf_dst, len, pd);
  memcpy (orig, src, len);
  memcpy (st_ref, st0, 64);
  core_ref_blocks (c, st_ref, expect, orig, n, rounds);
  set_case (t, "%zu blocks, %u rounds, counter %#llx (%s), src %s, %s", n, rounds,
            (unsigned long long)core_counter (c, st0), COUNTER_MODES[mode],
            placement_name (ps), inplace ? "in place" : placement_name (pd));

  fn (st, dst, src, n, rounds);

  verdict (t, !memcmp (dst, expect, len), "output differs from the portable C at byte %zu",
           first_diff (dst, expect, len));
  verdict (t, !memcmp (st, st_ref, 64), "state after the call: counter %#llx, expected %#llx",
           (unsigned long long)core_counter (c, st), (unsigned long long)core_counter (c, st_ref));
  verdict (t, inplace || !memcmp (src, orig, len), "the source changed");
  verdict (t, guarded_intact (&buf_dst) && guarded_intact (&buf_src)
           && guarded_intact (&buf_state), "wrote outside its output");
}

/* The largest multiple of the width the random cases use: well past the
 * width, at least 48 blocks. */
unsigned int
max_multiple (const row *r)
{
  unsigned int k = 48 / r->width;
  return k < 8 ? 8 : k;
}

void
compare_blocks (check *t, const row *r, const core *c)
{
  unsigned int k, mode, i;

  /* every multiple up to well past the width, each counter kind */
  for (k = 0; k <= max_multiple (r); k++)
    for (mode = 0; mode < 4; mode++)
      blocks_case (t, r, c, (size_t)k * r->width, ROUNDS[(k + mode) % 3], mode,
                   (placement)((k + mode) % PLACE_COUNT),
                   (placement)((k + 2 * mode + 1) % PLACE_COUNT), mode == 3);
  /* around the length from which the routine changes path */
  {
    size_t longer[5];
    unsigned int n = reach_lengths (r, longer);
    for (i = 0; i < n; i++)
      for (mode = 0; mode < 4; mode++)
        blocks_case (t, r, c, longer[i], ROUNDS[(i + mode) % 3], mode,
                     (placement)((i + mode) % PLACE_COUNT),
                     (placement)((i + 2 * mode + 1) % PLACE_COUNT), mode == 3);
  }
  /* and random ones */
  for (i = 0; i < 64; i++)
    blocks_case (t, r, c, rnd_below (t, max_multiple (r) + 1) * r->width,
                 ROUNDS[rnd_below (t, 3)], (unsigned int)rnd_below (t, 4),
                 (placement)rnd_below (t, PLACE_COUNT), (placement)rnd_below (t, PLACE_COUNT),
                 rnd_below (t, 3) == 0);
}

/* ---- HChaCha / HSalsa20 -------------------------------------------- */

static void
hash_case (check *t, const row *r, const core *c, const uint32_t st0[16], unsigned int rounds,
           const uint8_t *want)
{
  hash_fn fn = (hash_fn)r->fn;
  uint32_t words[8], *st;
  uint8_t ref[32], *out;
  placement po = (placement)rnd_below (t, PLACE_COUNT);
  unsigned int i;

  c->hash (words, st0, rounds);
  for (i = 0; i < 8; i++)
    gcry_store_le32 (ref + 4 * i, words[i]);
  st = place_state (t, st0);
  out = guarded_place (t, &buf_dst, 32, po);

  fn (st, out, rounds);

  verdict (t, !memcmp (out, ref, 32), "output differs from the portable C at byte %zu",
           first_diff (out, ref, 32));
  if (want)
    verdict (t, !memcmp (out, want, 32), "output differs from the published vector");
  verdict (t, !memcmp (st, st0, 64), "the state changed");
  verdict (t, guarded_intact (&buf_dst) && guarded_intact (&buf_state),
           "wrote outside its output");
}

void
compare_hash (check *t, const row *r, const core *c)
{
  uint32_t st[16];
  unsigned int i;

  for (i = 0; i < 48; i++)
    {
      unsigned int rounds = ROUNDS[i % 3];
      core_random_state (t, c, st, 1, i % 4);
      if (i % 8 == 7)                   /* any words at all */
        rnd_bytes (t, st, sizeof st);
      set_case (t, "random state %u, %u rounds", i, rounds);
      hash_case (t, r, c, st, rounds, NULL);
    }
}

/* The state of a hash vector (its input where the counter and nonce
 * sit) and the output it must give. */
void
hash_vector_state (const core *c, const hash_vector *v, uint32_t st[16], uint8_t want[32])
{
  uint8_t k[32], in[16];
  unsigned int i;

  hex_to_bytes (v->key, k, 32);
  hex_to_bytes (v->input, in, 16);
  hex_to_bytes (v->out, want, 32);
  core_state (c, st, k, 32, in, 8, 0);
  for (i = 0; i < 4; i++)
    st[c->in_words[i]] = gcry_load_le32 (in + 4 * i);
}

static void
vector_hash (check *t, const row *r, const core *c, const hash_vector *v)
{
  uint8_t want[32];
  uint32_t st[16];

  hash_vector_state (c, v, st, want);
  set_case (t, "vector key %.16s.., input %.16s..", v->key, v->input);
  hash_case (t, r, c, st, v->rounds, want);
}

/* A keystream vector: block CTR of KEY and NONCE (zero plaintext), as
 * block 0 of a call of the routine's width. */
void
vector_block (check *t, const row *r, const core *c, const stream_vector *v)
{
  blocks_fn fn = (blocks_fn)r->fn;
  uint8_t key[32], nonce[12], want[64], *dst;
  uint32_t st0[16], *st;
  size_t keylen = hex_len (v->key), noncelen = hex_len (v->nonce), n = r->width;

  hex_to_bytes (v->key, key, keylen);
  hex_to_bytes (v->nonce, nonce, noncelen);
  hex_to_bytes (v->block, want, 64);
  core_state (c, st0, key, keylen, nonce, noncelen, v->ctr);
  st = place_state (t, st0);
  dst = guarded_place (t, &buf_dst, n * 64, PLACE_UNALIGNED);
  memset (dst, 0, n * 64);
  set_case (t, "vector %s/%u key %.16s.. block %llu", c->name, v->rounds, v->key,
            (unsigned long long)v->ctr);
  fn (st, dst, dst, n, v->rounds);
  verdict (t, !memcmp (dst, want, 64), "block differs from the published vector at byte %zu",
           first_diff (dst, want, 64));
}

/* ---- the kinds ----------------------------------------------------- */

static void
chacha_compare (check *t, const row *r)
{
  compare_blocks (t, r, &CORE_CHACHA);
}

static void
chacha_vectors (check *t, const row *r)
{
  size_t i;
  for (i = 0; i < VECTORS_CHACHA_N; i++)
    vector_block (t, r, &CORE_CHACHA, &VECTORS_CHACHA[i]);
}

static void
salsa20_compare (check *t, const row *r)
{
  compare_blocks (t, r, &CORE_SALSA20);
}

static void
salsa20_vectors (check *t, const row *r)
{
  size_t i;
  for (i = 0; i < VECTORS_SALSA20_N; i++)
    vector_block (t, r, &CORE_SALSA20, &VECTORS_SALSA20[i]);
}

static void
hchacha_compare (check *t, const row *r)
{
  compare_hash (t, r, &CORE_CHACHA);
}

static void
hchacha_vectors (check *t, const row *r)
{
  size_t i;
  for (i = 0; i < VECTORS_HCHACHA_N; i++)
    vector_hash (t, r, &CORE_CHACHA, &VECTORS_HCHACHA[i]);
}

static void
hsalsa20_compare (check *t, const row *r)
{
  compare_hash (t, r, &CORE_SALSA20);
}

static void
hsalsa20_vectors (check *t, const row *r)
{
  size_t i;
  for (i = 0; i < VECTORS_HSALSA20_N; i++)
    vector_hash (t, r, &CORE_SALSA20, &VECTORS_HSALSA20[i]);
}

/* the depth probe's calls */
static void
blocks_depth (const row *r, size_t n, uint64_t a[7])
{
  (void)r;
  a[0] = (uintptr_t)dbuf.state;
  a[1] = (uintptr_t)dbuf.dst;
  a[2] = (uintptr_t)dbuf.src;
  a[3] = n;
  a[4] = 20;
}

static void
hash_depth (const row *r, size_t n, uint64_t a[7])
{
  (void)r, (void)n;
  a[0] = (uintptr_t)dbuf.state;
  a[1] = (uintptr_t)dbuf.dst;
  a[2] = 20;
}

const kind kind_chacha_blocks = {
  "ChaCha blocks (state, dst, src, nblocks, rounds) vs chacha_generic_block",
  chacha_compare, chacha_vectors, blocks_depth, { 0, 1, 2, 3, 4, 8 }, 6,
};
const kind kind_salsa20_blocks = {
  "Salsa20 blocks (state, dst, src, nblocks, rounds) vs salsa20_generic_block",
  salsa20_compare, salsa20_vectors, blocks_depth, { 0, 1, 2, 3, 4, 8 }, 6,
};
const kind kind_hchacha = {
  "HChaCha (state, out32, rounds) vs hchacha_generic",
  hchacha_compare, hchacha_vectors, hash_depth, { 1 }, 1,
};
const kind kind_hsalsa20 = {
  "HSalsa20 (state, out32, rounds) vs hsalsa20_generic",
  hsalsa20_compare, hsalsa20_vectors, hash_depth, { 1 }, 1,
};
