/* kinds_stream.c - ChaCha and Salsa20: the block routines, HChaCha and
 * HSalsa20, against the portable C (ciphers/chacha/chacha_generic.c,
 * ciphers/salsa20/salsa20_generic.c) and published vectors.
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

/* RFC 8439 2.3.2 and A.1 #1; the XChaCha vectors of google/adiantum
 * through their HChaCha subkeys (selftests/vectors_chacha.py). */
static const stream_vector CHACHA_VECTORS[] = {
  { 20, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "000000090000004a00000000", 1,
    "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
    "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e" },
  { 20, "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000", 0,
    "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
    "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586" },
  { 20, "a879154f9c6e59f0ba4f760cba4ccbfb962a0fedd7ef9ef81d1244a098988d46",
    "93ca92cdadee0259", 1023,
    "5f0b9d82eaa125cc7e1474332c36a94f8088585bf58a733b1441c54fc9f990aa"
    "3376b76c5684aae01f5ff4387b109fbff14d1f57e72a2c42c27ae00528acc15d" },
  { 20, "a879154f9c6e59f0ba4f760cba4ccbfb962a0fedd7ef9ef81d1244a098988d46",
    "93ca92cdadee0259", 1024,
    "43d0a6090c841528eb7b0184a92e0a4572a49a9c3d0a200b2bd9ce3668dd2ffb"
    "4c64d5d6e6f4e1595e9de72d1ca3001f8d46524dd59ccfd2b31bb21f8e88237c" },
  { 12, "d5f12ed8ab375b7cee51aa566dd5705e3a2862dca1e33259cbf6ffd8c4f269c4",
    "93ca92cdadee0259", 1024,
    "3b1a991fd13854f92400dc9df0183c03b0a7c810df4f5dce36371ad0960160e9"
    "5e2ac651822069ead0666f293854be57f222cd347a489c0ac379095715a8d417" },
};

/* google/adiantum Salsa20 "Random ( 1)", eSTREAM Set 1 vector 0, and
 * NaCl's XSalsa20 stream through its HSalsa20 subkey at blocks 2^32 - 1 and
 * 2^32 (selftests/vectors_salsa20.py, vectors_xsalsa20.py). */
static const stream_vector SALSA20_VECTORS[] = {
  { 20, "bb46d11f8c91035334e5259c8104211c3b295461ee7a79a775f102e9b3aed61a",
    "43715a0da0dd6096", 1023,
    "df365cdcafee07dacb7a68d0d797ca16b665a721add75719f0b696aee46e646b"
    "0c60b116df9d4e84afe5363e9f18590ab07d7661ceea47f158d738ffc927d9b1" },
  { 20, "0e1cac747a2c4d4aca96dfbd0a97e5c4", "c59d134767c56c35", 1024,
    "a3580a24f5086ddf482011ebce27ead3f79b433f261bc57a59cc46e628472360"
    "894ecf19d0da0904966a45a87fb80bccd11f9211a27afc1dc23ae8810dbf7ff7" },
  { 12, "bb46d11f8c91035334e5259c8104211c3b295461ee7a79a775f102e9b3aed61a",
    "43715a0da0dd6096", 0,
    "c3310214890830c002b1eb34da3c37d2767ba2cb11a9f9cdf0eccb202d30003a"
    "075060222d15a7293ec4d0961a465da70a7b13215ba4ad4e8a8dc2f39bbdc6c6" },
  { 20, "8000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000", 0,
    "e3be8fdd8beca2e3ea8ef9475b29a6e7003951e1097a5c38d23b7a5fad9f6844"
    "b22c97559e2723c7cbbd3fe4fc8d9a0744652a83e72a9c461876af4d7ef1a117" },
  { 20, "80000000000000000000000000000000", "0000000000000000", 0,
    "4dfa5e481da23ea09a31022050859936da52fcee218005164f267cb65f5cfd7f"
    "2b4f97e0ff16924a52df269515110a07f9e460bc65ef95da58f740b7d1dbb0aa" },
  { 20, "dc908dda0b9344a953629b733820778880f3ceb421bb61b91cbd4c3e66256ce4",
    "8219e0036b7a0b37", 0xffffffffULL,
    "b46af0bf761b78533e01a0dd7e07216c9710ef35f09a28d1e5fa469b602472ca"
    "5085f6dbcc6a6b51fb89986f8feca85658d05701f5677d0bb340a1f2c7695472" },
  { 20, "dc908dda0b9344a953629b733820778880f3ceb421bb61b91cbd4c3e66256ce4",
    "8219e0036b7a0b37", 0x100000000ULL,
    "19f5420c62ffff7d1304dad82b6dec2bdc59ec12a9e18a774eed128c2c90610a"
    "9d4c75c0817d64817a76bbc12746971ae897af210a072c1bc9fb044e086b7bfe" },
};

static void
chacha_compare (check *t, const row *r)
{
  compare_blocks (t, r, &CORE_CHACHA);
}

static void
chacha_vectors (check *t, const row *r)
{
  size_t i;
  for (i = 0; i < ARRAY_SIZE (CHACHA_VECTORS); i++)
    vector_block (t, r, &CORE_CHACHA, &CHACHA_VECTORS[i]);
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
  for (i = 0; i < ARRAY_SIZE (SALSA20_VECTORS); i++)
    vector_block (t, r, &CORE_SALSA20, &SALSA20_VECTORS[i]);
}

static void
hchacha_compare (check *t, const row *r)
{
  compare_hash (t, r, &CORE_CHACHA);
}

/* draft-irtf-cfrg-xchacha 2.2.1, and the XChaCha20/12 subkeys of the
 * adiantum vector (the keys of CHACHA_VECTORS above) */
const hash_vector HCHACHA_VECTORS[] = {
  { "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "000000090000004a0000000031415927", 20,
    "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc" },
  { "8266851ec38621074f6f9e445e194d40147880fc21281e315d0b32dee24d8a1e",
    "c7cfe494e56c8f8cdf2c69a53e9e5953", 20,
    "a879154f9c6e59f0ba4f760cba4ccbfb962a0fedd7ef9ef81d1244a098988d46" },
  { "8266851ec38621074f6f9e445e194d40147880fc21281e315d0b32dee24d8a1e",
    "c7cfe494e56c8f8cdf2c69a53e9e5953", 12,
    "d5f12ed8ab375b7cee51aa566dd5705e3a2862dca1e33259cbf6ffd8c4f269c4" },
};
const size_t HCHACHA_NVECTORS = ARRAY_SIZE (HCHACHA_VECTORS);

static void
hchacha_vectors (check *t, const row *r)
{
  size_t i;
  for (i = 0; i < HCHACHA_NVECTORS; i++)
    vector_hash (t, r, &CORE_CHACHA, &HCHACHA_VECTORS[i]);
}

static void
hsalsa20_compare (check *t, const row *r)
{
  compare_hash (t, r, &CORE_SALSA20);
}

/* NaCl core1 and core2, and selftests/vectors_xsalsa20.py's third */
static const hash_vector HSALSA20_VECTORS[] = {
  { "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742",
    "00000000000000000000000000000000", 20,
    "1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389" },
  { "1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389",
    "69696ee955b62b73cd62bda875fc73d6", 20,
    "dc908dda0b9344a953629b733820778880f3ceb421bb61b91cbd4c3e66256ce4" },
  { "2e4a765ab976a77f7df2bbd467ccc37ea88afb2c4aec5d219cabc3cae5b90255",
    "1b36be8154cb9d6551400b008c992404", 20,
    "4d77d1d764d71eb48328959df772525855c706df33aa1a462253b15508578b23" },
};

static void
hsalsa20_vectors (check *t, const row *r)
{
  size_t i;
  for (i = 0; i < ARRAY_SIZE (HSALSA20_VECTORS); i++)
    vector_hash (t, r, &CORE_SALSA20, &HSALSA20_VECTORS[i]);
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
