/* kinds_stitched.c - the stitched routines (asm/chacha20-poly1305-amd64-
 * avx2.S, asm/salsa20-poly1305-amd64-avx2.S): the cipher's 20-round blocks
 * and Poly1305 over MAC_SRC in one pass, against the portable block
 * function and poly1305_generic64_blocks, with every aliasing the glue
 * uses: the MAC reading the source (decryption, in place or not), reading
 * one group behind the output (encryption), or a buffer of its own. */
#include <stdio.h>
#include <string.h>

#include "asmcheck.h"

/* Only with assembly: these kinds serve assembly rows alone, and their
 * reference Poly1305 needs unsigned __int128, which 32-bit targets lack. */
#if ASMCHECK_HAVE_PROBE
#include "kinds_stream.h"
#include "poly1305.h"

typedef unsigned int (*stitched_fn) (uint32_t *state, uint8_t *dst, const uint8_t *src,
                                     size_t nblocks, uint64_t h[3], const uint64_t r[2],
                                     const uint8_t *mac_src);

#define GROUP 512               /* bytes of one group of eight blocks */

enum mac_mode { MAC_SRC, MAC_SRC_IN_PLACE, MAC_BEHIND_DST, MAC_BEHIND_IN_PLACE, MAC_OWN,
                MAC_MODES };
static const char *const MAC_MODE_NAMES[] = {
  "mac reads src", "in place, mac reads src", "mac reads dst - 512",
  "in place, mac reads dst - 512", "mac reads its own buffer"
};

static uint8_t expect[GUARDED_BYTES + GROUP], orig[GUARDED_BYTES + GROUP];
static uint8_t mac_in[GUARDED_BYTES + GROUP];

static void
stitched_case (check *t, const row *r, const core *c, size_t n, uint64_t ctr,
               enum mac_mode mode, placement ps)
{
  uint32_t st0[16], st_ref[16], *st;
  uint64_t h[3], h_ref[3], rk[2], h_red[3], ref_red[3];
  uint8_t key[32], nonce[8], rkey[16], *src, *dst, *mac, *area;
  size_t len = n * 64;
  int behind = mode == MAC_BEHIND_DST || mode == MAC_BEHIND_IN_PLACE;
  int inplace = mode == MAC_SRC_IN_PLACE || mode == MAC_BEHIND_IN_PLACE;

  rnd_bytes (t, key, 32);
  rnd_bytes (t, nonce, 8);
  rnd_bytes (t, rkey, 16);
  poly1305_clamp (rk, rkey);
  rnd_bytes (t, h, 16);
  h[2] = rnd_below (t, 8);
  core_state (c, st0, key, 32, nonce, 8, ctr);
  st = place_state (t, st0);

  /* the output, with a group in front of it when the MAC reads behind */
  area = guarded_place (t, &buf_dst, len + (behind ? GROUP : 0), ps);
  dst = area + (behind ? GROUP : 0);
  src = inplace ? dst : guarded_place (t, &buf_src, len, (placement)rnd_below (t, PLACE_COUNT));
  memcpy (orig, area, len + (behind ? GROUP : 0));
  mac = mode == MAC_OWN ? guarded_place (t, &buf_mac, len, PLACE_AT_END)
        : behind ? area : src;

  /* the reference: the cipher, then the MAC over what MAC_SRC holds when
   * the routine reads it (behind: the group before, then the output) */
  memcpy (st_ref, st0, 64);
  core_ref_blocks (c, st_ref, expect, src, len ? n : 0, 20);
  if (behind)
    {
      memcpy (mac_in, orig, GROUP);
      memcpy (mac_in + GROUP, expect, len > GROUP ? len - GROUP : 0);
    }
  else
    memcpy (mac_in, mac, len);
  memcpy (h_ref, h, sizeof h);
  poly1305_generic64_blocks (h_ref, rk, mac_in, len / 16, 1);
  if (!inplace)
    memcpy (orig, src, len);

  set_case (t, "%zu blocks, counter %#llx, %s, output %s", n, (unsigned long long)ctr,
            MAC_MODE_NAMES[mode], placement_name (ps));
  ((stitched_fn)r->fn) (st, dst, src, n, h, rk, mac);

  verdict (t, !memcmp (dst, expect, len), "output differs from the portable C at byte %zu",
           first_diff (dst, expect, len));
  verdict (t, !memcmp (st, st_ref, 64), "state after the call: counter %#llx, expected %#llx",
           (unsigned long long)core_counter (c, st), (unsigned long long)core_counter (c, st_ref));
  poly1305_reduce (h_red, h);
  poly1305_reduce (ref_red, h_ref);
  verdict (t, !memcmp (h_red, ref_red, sizeof h_red),
           "accumulator differs from the portable C (mod p)");
  verdict (t, h[2] <= 7, "accumulator not partially reduced: h[2] = %llu",
           (unsigned long long)h[2]);
  verdict (t, inplace || !memcmp (src, orig, len), "the source changed");
  verdict (t, guarded_intact (&buf_dst) && guarded_intact (&buf_src)
           && guarded_intact (&buf_state) && guarded_intact (&buf_mac),
           "wrote outside its output");
}

static uint64_t
random_counter (check *t, size_t n, unsigned int kind)
{
  switch (kind)
    {
    case 0:
      return rnd64 (t);
    case 1:
      return (rnd64 (t) & ~0xffffffffULL) | (0xffffffffULL - rnd_below (t, n + 1));
    case 2:
      return (uint64_t)0 - n - rnd_below (t, 2);
    default:
      return 0;
    }
}

static void
stitched_compare (check *t, const row *r, const core *c)
{
  unsigned int k, mode, i;
  for (k = 0; k <= 8; k++)
    for (mode = 0; mode < MAC_MODES; mode++)
      {
        size_t n = (size_t)k * r->width;
        stitched_case (t, r, c, n, random_counter (t, n, (k + mode) % 4), (enum mac_mode)mode,
                       (placement)((k + mode) % PLACE_COUNT));
      }
  for (i = 0; i < 32; i++)
    {
      size_t n = rnd_below (t, 9) * r->width;
      stitched_case (t, r, c, n, random_counter (t, n, (unsigned int)rnd_below (t, 4)),
                     (enum mac_mode)rnd_below (t, MAC_MODES),
                     (placement)rnd_below (t, PLACE_COUNT));
    }
}

/* Known answers through one group (vectors.h): the keystream block of a
 * published vector (block 0 of the group, zero plaintext) and the first
 * group of a Poly1305 answer at least a group long (the rest and the tag
 * by the portable C); every such pair.  The routines run 20 rounds of the
 * 8-byte-nonce layout with a 32-byte key: the vectors that fit. */
static void
stitched_vector (check *t, const row *r, const core *c, const stream_vector *v,
                 const mac_vector *p)
{
  uint8_t key[32], nonce[8], want[64], pkey[32], tag[16], want_tag[16], last[16];
  uint64_t h[3], rk[2];
  uint32_t st[16], *stp;
  uint8_t *dst, *mac, *msg;
  size_t n = r->width, len = hex_len (p->message), full = len / 16;

  hex_to_bytes (v->key, key, 32);
  hex_to_bytes (v->nonce, nonce, 8);
  hex_to_bytes (v->block, want, 64);
  hex_to_bytes (p->key, pkey, 32);
  hex_to_bytes (p->tag, want_tag, 16);
  poly1305_clamp (rk, pkey);
  core_state (c, st, key, 32, nonce, 8, v->ctr);
  stp = place_state (t, st);
  dst = guarded_place (t, &buf_dst, n * 64, PLACE_UNALIGNED);
  memset (dst, 0, n * 64);
  msg = guarded_place (t, &buf_src, len, PLACE_ALIGNED);
  hex_to_bytes (p->message, msg, len);
  mac = guarded_place (t, &buf_mac, n * 64, PLACE_AT_END);
  memcpy (mac, msg, n * 64);
  h[0] = h[1] = h[2] = 0;
  set_case (t, "vector %s block %llu, Poly1305 of %zu bytes, tag %.8s..", c->name,
            (unsigned long long)v->ctr, len, p->tag);
  ((stitched_fn)r->fn) (stp, dst, dst, n, h, rk, mac);
  verdict (t, !memcmp (dst, want, 64), "block differs from the published vector");
  poly1305_generic64_blocks (h, rk, msg + n * 64, full - n * 4, 1);
  if (len % 16)
    {
      memset (last, 0, 16);
      memcpy (last, msg + 16 * full, len % 16);
      last[len % 16] = 1;
      poly1305_generic64_blocks (h, rk, last, 1, 0);
    }
  poly1305_tag (tag, h, pkey + 16);
  verdict (t, !memcmp (tag, want_tag, 16), "tag differs from the published vector");
}

static void
stitched_vectors (check *t, const row *r, const core *c, const stream_vector *vs, size_t nv)
{
  size_t i, j, ran = 0;
  for (i = 0; i < nv; i++)
    {
      if (vs[i].rounds != 20 || hex_len (vs[i].key) != 32 || hex_len (vs[i].nonce) != 8)
        continue;
      for (j = 0; j < VECTORS_POLY1305_N; j++)
        if (hex_len (VECTORS_POLY1305[j].message) >= r->width * 64)
          {
            stitched_vector (t, r, c, &vs[i], &VECTORS_POLY1305[j]);
            ran++;
          }
    }
  set_case (t, "the known answers of vectors.h");
  if (!ran)
    verdict (t, 0, "no %s vector (20 rounds, 32-byte key, 8-byte nonce) and no Poly1305 "
             "answer of %u bytes or more to run", c->name, r->width * 64);
}

static void cp_compare (check *t, const row *r) { stitched_compare (t, r, &CORE_CHACHA); }
static void sp_compare (check *t, const row *r) { stitched_compare (t, r, &CORE_SALSA20); }
static void cp_vectors (check *t, const row *r)
{
  stitched_vectors (t, r, &CORE_CHACHA, VECTORS_CHACHA, VECTORS_CHACHA_N);
}
static void sp_vectors (check *t, const row *r)
{
  stitched_vectors (t, r, &CORE_SALSA20, VECTORS_SALSA20, VECTORS_SALSA20_N);
}

/* the MAC reads the source, as when decrypting */
static void
stitched_depth (const row *r, size_t n, uint64_t a[7])
{
  (void)r;
  a[0] = (uintptr_t)dbuf.state;
  a[1] = (uintptr_t)dbuf.dst;
  a[2] = (uintptr_t)dbuf.src;
  a[3] = n;
  a[4] = (uintptr_t)dbuf.h;
  a[5] = (uintptr_t)dbuf.r;
  a[6] = (uintptr_t)dbuf.src;
}

const kind kind_chacha20_poly1305 = {
  "ChaCha20 + Poly1305 stitched (state, dst, src, nblocks, h, r, mac_src)",
  cp_compare, cp_vectors, stitched_depth, { 0, 1, 2, 3 }, 4,
};
const kind kind_salsa20_poly1305 = {
  "Salsa20 + Poly1305 stitched (state, dst, src, nblocks, h, r, mac_src)",
  sp_compare, sp_vectors, stitched_depth, { 0, 1, 2, 3 }, 4,
};

#endif /* ASMCHECK_HAVE_PROBE */
