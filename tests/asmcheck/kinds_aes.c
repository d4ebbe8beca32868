/* kinds_aes.c - AES-256 (AES-NI key schedule, encryption, decryption)
 * against the portable bitsliced C (ciphers/aes/aes_generic.c) and the
 * known answers of vectors.h (selftests/vectors_aes.py).  The encrypt and
 * decrypt rows use their row's partner (aux) for the key schedule; the
 * setkey row checks the schedule's layout and runs both directions
 * through it. */
#include <stdio.h>
#include <string.h>

#include "asmcheck.h"
#include "aes.h"
#include "kinds_stream.h"

typedef unsigned int (*setkey_fn) (aes256_aesni_key *k, const uint8_t key[32]);
typedef unsigned int (*crypt_fn) (const aes256_aesni_key *k, uint8_t *dst, const uint8_t *src,
                                  size_t nblocks);

/* The row of kind K whose key schedule comes from the setkey row R. */
static const row *
partner (const row *r, const kind *k)
{
  size_t i;
  for (i = 0; i < asmcheck_nrows; i++)
    if (asmcheck_rows[i].k == k && asmcheck_rows[i].aux == r->fn)
      return &asmcheck_rows[i];
  return NULL;
}

static aes256_generic_key gkey;
static uint8_t expect[GUARDED_BYTES], orig[GUARDED_BYTES];

/* The AES-NI schedule of KEY by SETKEY, placed at the end of its mapping
 * (an over-read of the schedule faults). */
static aes256_aesni_key *
schedule (check *t, setkey_fn setkey, const uint8_t key[32])
{
  aes256_aesni_key *k =
    (aes256_aesni_key *)guarded_place (t, &buf_state, sizeof (aes256_aesni_key), PLACE_AT_END);
  uint8_t *kb = guarded_place (t, &buf_mac, 32, PLACE_UNALIGNED);
  memcpy (kb, key, 32);
  setkey (k, kb);
  return k;
}

/* One call on N blocks in direction DECRYPT of routine FN. */
static void
crypt_case (check *t, crypt_fn fn, setkey_fn setkey, int decrypt, size_t n, placement ps,
            placement pd, int inplace, const uint8_t *key_in, const uint8_t *src_in,
            const uint8_t *want)
{
  uint8_t key[32], *src, *dst;
  aes256_aesni_key *k;
  size_t len = n * 16;

  if (key_in)
    memcpy (key, key_in, 32);
  else
    rnd_bytes (t, key, 32);
  k = schedule (t, setkey, key);
  aes256_generic_setkey (&gkey, key);
  src = guarded_place (t, &buf_src, len, ps);
  if (src_in)
    memcpy (src, src_in, len);
  dst = inplace ? src : guarded_place (t, &buf_dst, len, pd);
  memcpy (orig, src, len);
  if (decrypt)
    aes256_generic_decrypt (&gkey, expect, orig, n);
  else
    aes256_generic_encrypt (&gkey, expect, orig, n);
  set_case (t, "%s %zu blocks, src %s, %s", decrypt ? "decrypt" : "encrypt", n,
            placement_name (ps), inplace ? "in place" : placement_name (pd));
  fn (k, dst, src, n);
  verdict (t, !memcmp (dst, expect, len), "output differs from the portable C at byte %zu",
           first_diff (dst, expect, len));
  if (want)
    verdict (t, !memcmp (dst, want, len), "output differs from the published vector");
  verdict (t, inplace || !memcmp (src, orig, len), "the source changed");
  verdict (t, guarded_intact (&buf_src) && guarded_intact (&buf_dst)
           && guarded_intact (&buf_state), "wrote outside its output");
}

static void
crypt_compare (check *t, const row *r, int decrypt)
{
  setkey_fn setkey = (setkey_fn)r->aux;
  unsigned int n, i;
  for (n = 0; n <= 48; n++)
    crypt_case (t, (crypt_fn)r->fn, setkey, decrypt, n, (placement)(n % PLACE_COUNT),
                (placement)((n / 3) % PLACE_COUNT), n % 5 == 4, NULL, NULL, NULL);
  for (i = 0; i < 32; i++)
    crypt_case (t, (crypt_fn)r->fn, setkey, decrypt, rnd_below (t, 200),
                (placement)rnd_below (t, PLACE_COUNT), (placement)rnd_below (t, PLACE_COUNT),
                rnd_below (t, 3) == 0, NULL, NULL, NULL);
}

/* The known answers of vectors.h (selftests/vectors_aes.py: FIPS-197 C.3, and
 * 19 blocks, the eight-, four- and one-block paths, whose ciphertext
 * OpenSSL computed), each direction through the routine. */
static uint8_t plain[GUARDED_BYTES / 2], cipher[GUARDED_BYTES / 2];

static void
crypt_vectors (check *t, const row *r, int decrypt)
{
  uint8_t key[32];
  crypt_fn fn = (crypt_fn)r->fn;
  setkey_fn setkey = (setkey_fn)r->aux;
  size_t i;

  for (i = 0; i < VECTORS_AES256_N; i++)
    {
      const block_vector *v = &VECTORS_AES256[i];
      size_t len = hex_len (v->plaintext);

      if (hex_len (v->key) != 32 || len % 16 || len > sizeof plain
          || hex_len (v->ciphertext) != len)
        {
          verdict (t, 0, "known answer %zu is not an AES-256 vector of whole blocks", i);
          continue;
        }
      hex_to_bytes (v->key, key, 32);
      hex_to_bytes (v->plaintext, plain, len);
      hex_to_bytes (v->ciphertext, cipher, len);
      crypt_case (t, fn, setkey, decrypt, len / 16, PLACE_UNALIGNED, PLACE_AT_END, 0, key,
                  decrypt ? cipher : plain, decrypt ? plain : cipher);
    }
}

static void encrypt_compare (check *t, const row *r) { crypt_compare (t, r, 0); }
static void decrypt_compare (check *t, const row *r) { crypt_compare (t, r, 1); }
static void encrypt_vectors (check *t, const row *r) { crypt_vectors (t, r, 0); }
static void decrypt_vectors (check *t, const row *r) { crypt_vectors (t, r, 1); }

/* x times y in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS-197 4.2),
 * bit by bit: the check's own arithmetic, nothing secret. */
static uint8_t
gf_mul (uint8_t x, uint8_t y)
{
  uint8_t p = 0;
  for (; y; y >>= 1)
    {
      if (y & 1)
        p ^= x;
      x = (uint8_t)(x << 1 ^ (x & 0x80 ? 0x1b : 0));
    }
  return p;
}

/* FIPS-197 5.3.3 on one round key: each column times {0b}x^3 + {0d}x^2 +
 * {09}x + {0e}. */
static void
inv_mix_columns (uint8_t out[16], const uint8_t in[16])
{
  static const uint8_t M[4] = { 14, 11, 13, 9 };
  unsigned int c, i, j;
  for (c = 0; c < 16; c += 4)
    for (i = 0; i < 4; i++)
      {
        uint8_t v = 0;
        for (j = 0; j < 4; j++)
          v ^= gf_mul (in[c + j], M[(j - i) & 3]);
        out[c + i] = v;
      }
}

/* Whether dec[r] is InvMixColumns (enc[14 - r]) for every inner round
 * (FIPS-197 5.3.5, the equivalent inverse cipher's schedule). */
static int
dec_schedule_ok (const aes256_aesni_key *k)
{
  uint8_t want[16];
  unsigned int r;
  for (r = 1; r < 14; r++)
    {
      inv_mix_columns (want, k->enc + 16 * (14 - r));
      if (memcmp (want, k->dec + 16 * r, 16))
        return 0;
    }
  return 1;
}

/* The schedule's layout (aes.h): enc[] starts with the key, dec[] is enc[]
 * reversed with InvMixColumns inside, so dec[0] = enc[14], dec[14] =
 * enc[0]; then both directions through it (the crypt rows' partners). */
static void
setkey_compare (check *t, const row *r)
{
  const row *enc = partner (r, &kind_aes_encrypt), *dec = partner (r, &kind_aes_decrypt);
  unsigned int i;
  for (i = 0; i < 32; i++)
    {
      uint8_t key[32];
      aes256_aesni_key *k;
      rnd_bytes (t, key, 32);
      if (i == 0)
        memset (key, 0, 32);
      if (i == 1)
        memset (key, 0xff, 32);
      k = schedule (t, (setkey_fn)r->fn, key);
      set_case (t, "random key %u", i);
      verdict (t, !memcmp (k->enc, key, 32), "round keys 0-1 are not the key");
      verdict (t, !memcmp (k->dec, k->enc + 16 * 14, 16) && !memcmp (k->dec + 16 * 14, k->enc, 16),
               "decryption schedule's ends are not the encryption schedule's");
      verdict (t, dec_schedule_ok (k), "dec[r] is not InvMixColumns (enc[14 - r])");
      verdict (t, guarded_intact (&buf_state), "wrote outside the schedule");
      if (enc)
        crypt_case (t, (crypt_fn)enc->fn, (setkey_fn)r->fn, 0, 1 + i % 17,
                    PLACE_UNALIGNED, PLACE_ALIGNED, 0, key, NULL, NULL);
      if (dec)
        crypt_case (t, (crypt_fn)dec->fn, (setkey_fn)r->fn, 1, 1 + i % 17,
                    PLACE_UNALIGNED, PLACE_ALIGNED, 0, key, NULL, NULL);
    }
}

static void
setkey_depth (const row *r, size_t n, uint64_t a[7])
{
  (void)r, (void)n;
  a[0] = (uintptr_t)dbuf.key;
  a[1] = (uintptr_t)dbuf.src;
}

static void
crypt_depth (const row *r, size_t n, uint64_t a[7])
{
  (void)r;
  a[0] = (uintptr_t)dbuf.key;
  a[1] = (uintptr_t)dbuf.dst;
  a[2] = (uintptr_t)dbuf.src;
  a[3] = n;
}

const kind kind_aes_setkey = {
  "AES-256 key schedule (key, key32): layout, and both directions through it",
  setkey_compare, NULL, setkey_depth, { 1 }, 1,
};
/* 15 and 31 blocks: a group of eight, then four, two and one */
const kind kind_aes_encrypt = {
  "AES-256 encrypt (key, dst, src, nblocks) + its setkey vs aes256_generic_encrypt",
  encrypt_compare, encrypt_vectors, crypt_depth, { 0, 1, 2, 4, 8, 15, 31 }, 7,
};
const kind kind_aes_decrypt = {
  "AES-256 decrypt (key, dst, src, nblocks) + its setkey vs aes256_generic_decrypt",
  decrypt_compare, decrypt_vectors, crypt_depth, { 0, 1, 2, 4, 8, 15, 31 }, 7,
};
