/* kinds_aes.c - AES-256 (AES-NI key schedule, encryption, decryption)
 * against the portable bitsliced C (ciphers/aes/aes_generic.c) and
 * FIPS-197 / selftests/vectors_aes.py.  The encrypt and decrypt rows use
 * their row's partner (aux) for the key schedule; the setkey row checks
 * the schedule's layout and runs both directions through it. */
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

/* FIPS-197 C.3, and 19 blocks (the eight-, four- and one-block paths)
 * whose ciphertext OpenSSL computed (selftests/vectors_aes.py) */
static uint8_t plain[16 * 19], cipher[16 * 19];

static void
crypt_vectors (check *t, const row *r, int decrypt)
{
  static const char MULTI[] =
    "31c91512759c3d33144e8f3de6422a4624f3971386a3c73235d67dacdc0c7b7e"
    "824b3d57616a5d86105d8b4bda430bc4923ad43cf06704b5631c630830fc6835"
    "961f852c52e34b500eefb7b443e1cbd2db57b101bbd80fae9a898f000dfb1136"
    "4793667c0e7ba81a4950e782e7f355796d478da867895063ee31555b0745b82c"
    "39dae6a83e574805be23e565643c8919ffc964cb2467ef053846f73ed5785a43"
    "0b06a4ad3c19b4e90c749e25ed92ab14484da9c9d3d058afa7e14814bd7bf8ad"
    "1783d75ed675078d23a511c8b719156c85b63747e857918f342ff53a994a0949"
    "92d3fada741f928eb4f851057cab0387e453dfe82ad362eb9bf3312e8d2d10cc"
    "31c91512759c3d33144e8f3de6422a4624f3971386a3c73235d67dacdc0c7b7e"
    "824b3d57616a5d86105d8b4bda430bc4";
  uint8_t key[32];
  crypt_fn fn = (crypt_fn)r->fn;
  setkey_fn setkey = (setkey_fn)r->aux;

  pattern (key, 32, 1, 0);
  hex_to_bytes ("00112233445566778899aabbccddeeff", plain, 16);
  hex_to_bytes ("8ea2b7ca516745bfeafc49904b496089", cipher, 16);
  crypt_case (t, fn, setkey, decrypt, 1, PLACE_UNALIGNED, PLACE_AT_END, 0, key,
              decrypt ? cipher : plain, decrypt ? plain : cipher);
  pattern (plain, sizeof plain, 29, 7);
  hex_to_bytes (MULTI, cipher, sizeof cipher);
  crypt_case (t, fn, setkey, decrypt, 19, PLACE_UNALIGNED, PLACE_AT_END, 0, key,
              decrypt ? cipher : plain, decrypt ? plain : cipher);
}

static void encrypt_compare (check *t, const row *r) { crypt_compare (t, r, 0); }
static void decrypt_compare (check *t, const row *r) { crypt_compare (t, r, 1); }
static void encrypt_vectors (check *t, const row *r) { crypt_vectors (t, r, 0); }
static void decrypt_vectors (check *t, const row *r) { crypt_vectors (t, r, 1); }

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
