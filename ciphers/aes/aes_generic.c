/* aes_generic.c - portable, constant-time AES-256 (FIPS-197), bitsliced.
 *
 * Written from FIPS-197 and the bitslicing literature (Kasper-Schwabe,
 * "Faster and Timing-Attack Resistant AES-GCM", CHES 2009; Boyar-Peralta,
 * "A depth-16 circuit for the AES S-box", 2011).
 *
 * Constant time: the only memory accesses are at addresses fixed by the
 * public block count (byte loads/stores of the data, the round-key array in
 * order); there are no tables, and no branch or loop depends on key or
 * data.  SubBytes is a Boolean circuit of AND/XOR/NOT on whole words.  The
 * key schedule uses the same circuit for SubWord.
 *
 * Bitsliced layout.  Four blocks are processed together in eight uint64_t
 * slices q[0..7]; q[b] holds bit b (b = 0 the least significant) of all 64
 * state bytes.  The byte in row r, column c of block j (FIPS-197 state
 * s[r,c] = in[r + 4c]) sits at bit position
 *
 *         p = 16 r + 4 c + j                        (0 <= p < 64)
 *
 * so each row is a 16-bit lane of every slice.  That makes the linear
 * layers word operations:
 *   - MixColumns needs the byte one row down in the same column: a 64-bit
 *     rotation of every slice by 16 bits;
 *   - ShiftRows rotates row r left by r columns: each 16-bit row lane is
 *     rotated by 4 r bits (one delta swap and three masks per slice);
 *   - AddRoundKey is one XOR per slice, the round key stored bitsliced and
 *     replicated over the four block lanes.
 */
#include "aes.h"

#define M64(x) ((uint64_t)(x##ULL))

/* Statement X(b) for the eight slices, written out: the per-slice steps are
 * unrolled in the source rather than left to the optimiser, so that q[]
 * lives in registers. */
#define SLICES8(X) X (0) X (1) X (2) X (3) X (4) X (5) X (6) X (7)

/**********************************************************************
 * Packing: four 16-byte blocks <-> eight slices.
 *
 * Step 1 builds eight words W[0..7], one byte per (row, column pair):
 * W[4 h + j] (h = column parity, j = block) holds, in byte 2 r + g, the
 * state byte at row r, column h + 2 g of block j.  Step 2 transposes the
 * 8x8 bit matrix formed by byte k of W[0..7] for every k at once: after
 * it, bit 8 k + i of q[b] is bit b of byte k of W[i].  With i = 4 h + j and
 * k = 2 r + g that is position 16 r + 4 (h + 2 g) + j, as required.
 * The transpose is an involution, so unpacking runs it again and undoes
 * step 1.
 **********************************************************************/

/* Bytes 0..3 of x to bytes 0, 2, 4, 6 of the result. */
static inline uint64_t
spread_bytes (uint32_t x)
{
  uint64_t v = x;
  v = (v | (v << 16)) & M64 (0x0000FFFF0000FFFF);
  v = (v | (v << 8)) & M64 (0x00FF00FF00FF00FF);
  return v;
}

/* Inverse of spread_bytes: bytes 0, 2, 4, 6 of v to bytes 0..3. */
static inline uint32_t
gather_bytes (uint64_t v)
{
  v &= M64 (0x00FF00FF00FF00FF);
  v = (v | (v >> 8)) & M64 (0x0000FFFF0000FFFF);
  v = (v | (v >> 16)) & M64 (0x00000000FFFFFFFF);
  return (uint32_t)v;
}

/* Exchange the bits of a selected by (mask << n) with the bits of b
 * selected by mask. */
#define SWAPMOVE(a, b, mask, n)                        \
  do {                                                 \
    uint64_t t_ = (((a) >> (n)) ^ (b)) & (mask);       \
    (b) ^= t_;                                         \
    (a) ^= t_ << (n);                                  \
  } while (0)

/* Transpose the 8x8 bit matrix held in byte k of w[0..7], for all eight k:
 * stage s swaps bit s of the word index with bit s of the bit index. */
static inline void
transpose8 (uint64_t w[8])
{
  SWAPMOVE (w[0], w[1], M64 (0x5555555555555555), 1);
  SWAPMOVE (w[2], w[3], M64 (0x5555555555555555), 1);
  SWAPMOVE (w[4], w[5], M64 (0x5555555555555555), 1);
  SWAPMOVE (w[6], w[7], M64 (0x5555555555555555), 1);
  SWAPMOVE (w[0], w[2], M64 (0x3333333333333333), 2);
  SWAPMOVE (w[1], w[3], M64 (0x3333333333333333), 2);
  SWAPMOVE (w[4], w[6], M64 (0x3333333333333333), 2);
  SWAPMOVE (w[5], w[7], M64 (0x3333333333333333), 2);
  SWAPMOVE (w[0], w[4], M64 (0x0F0F0F0F0F0F0F0F), 4);
  SWAPMOVE (w[1], w[5], M64 (0x0F0F0F0F0F0F0F0F), 4);
  SWAPMOVE (w[2], w[6], M64 (0x0F0F0F0F0F0F0F0F), 4);
  SWAPMOVE (w[3], w[7], M64 (0x0F0F0F0F0F0F0F0F), 4);
}

/* 64 bytes (four blocks) at in -> slices q. */
static void
pack4 (uint64_t q[8], const uint8_t *in)
{
  unsigned int j;

  for (j = 0; j < 4; j++)
    {
      const uint8_t *b = in + 16 * j;
      uint32_t c0 = gcry_load_le32 (b + 0), c1 = gcry_load_le32 (b + 4);
      uint32_t c2 = gcry_load_le32 (b + 8), c3 = gcry_load_le32 (b + 12);
      q[j] = spread_bytes (c0) | (spread_bytes (c2) << 8);
      q[4 + j] = spread_bytes (c1) | (spread_bytes (c3) << 8);
    }
  transpose8 (q);
}

/* Slices q -> 64 bytes at out.  Destroys q. */
static void
unpack4 (uint8_t *out, uint64_t q[8])
{
  unsigned int j;

  transpose8 (q);
  for (j = 0; j < 4; j++)
    {
      uint8_t *b = out + 16 * j;
      gcry_store_le32 (b + 0, gather_bytes (q[j]));
      gcry_store_le32 (b + 4, gather_bytes (q[4 + j]));
      gcry_store_le32 (b + 8, gather_bytes (q[j] >> 8));
      gcry_store_le32 (b + 12, gather_bytes (q[4 + j] >> 8));
    }
}

/**********************************************************************
 * SubBytes.
 *
 * bp_core is the Boyar-Peralta depth-16 circuit for the AES S-box (128
 * gates: 34 AND, 94 XOR; the paper's four output XNORs are plain XORs here
 * and the complements are applied by the callers): it computes L(x^-1), where
 * x^-1 is the inverse in GF(2^8) (0 -> 0) and L the linear part of the
 * FIPS-197 affine map, S(x) = L(x^-1) + 0x63.  The paper numbers bits from
 * the most significant: U0 = bit 7 of the input ... U7 = bit 0, and S0 =
 * bit 7 of the output ... S7 = bit 0.
 **********************************************************************/
static inline void
bp_core (uint64_t q[8])
{
  uint64_t U0 = q[7], U1 = q[6], U2 = q[5], U3 = q[4];
  uint64_t U4 = q[3], U5 = q[2], U6 = q[1], U7 = q[0];
  uint64_t T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14;
  uint64_t T15, T16, T17, T18, T19, T20, T21, T22, T23, T24, T25, T26, T27;
  uint64_t M1, M2, M3, M4, M5, M6, M7, M8, M9, M10, M11, M12, M13, M14;
  uint64_t M15, M16, M17, M18, M19, M20, M21, M22, M23, M24, M25, M26, M27;
  uint64_t M28, M29, M30, M31, M32, M33, M34, M35, M36, M37, M38, M39, M40;
  uint64_t M41, M42, M43, M44, M45, M46, M47, M48, M49, M50, M51, M52, M53;
  uint64_t M54, M55, M56, M57, M58, M59, M60, M61, M62, M63;
  uint64_t L0, L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11, L12, L13, L14;
  uint64_t L15, L16, L17, L18, L19, L20, L21, L22, L23, L24, L25, L26, L27;
  uint64_t L28, L29;

  /* top linear layer */
  T1 = U0 ^ U3;    T2 = U0 ^ U5;    T3 = U0 ^ U6;    T4 = U3 ^ U5;
  T5 = U4 ^ U6;    T6 = T1 ^ T5;    T7 = U1 ^ U2;    T8 = U7 ^ T6;
  T9 = U7 ^ T7;    T10 = T6 ^ T7;   T11 = U1 ^ U5;   T12 = U2 ^ U5;
  T13 = T3 ^ T4;   T14 = T6 ^ T11;  T15 = T5 ^ T11;  T16 = T5 ^ T12;
  T17 = T9 ^ T16;  T18 = U3 ^ U7;   T19 = T7 ^ T18;  T20 = T1 ^ T19;
  T21 = U6 ^ U7;   T22 = T7 ^ T21;  T23 = T2 ^ T22;  T24 = T2 ^ T10;
  T25 = T20 ^ T17; T26 = T3 ^ T16;  T27 = T1 ^ T12;

  /* middle non-linear layer: inversion in the tower field */
  M1 = T13 & T6;   M2 = T23 & T8;   M3 = T14 ^ M1;   M4 = T19 & U7;
  M5 = M4 ^ M1;    M6 = T3 & T16;   M7 = T22 & T9;   M8 = T26 ^ M6;
  M9 = T20 & T17;  M10 = M9 ^ M6;   M11 = T1 & T15;  M12 = T4 & T27;
  M13 = M12 ^ M11; M14 = T2 & T10;  M15 = M14 ^ M11; M16 = M3 ^ M2;
  M17 = M5 ^ T24;  M18 = M8 ^ M7;   M19 = M10 ^ M15; M20 = M16 ^ M13;
  M21 = M17 ^ M15; M22 = M18 ^ M13; M23 = M19 ^ T25; M24 = M22 ^ M23;
  M25 = M22 & M20; M26 = M21 ^ M25; M27 = M20 ^ M21; M28 = M23 ^ M25;
  M29 = M28 & M27; M30 = M26 & M24; M31 = M20 & M23; M32 = M27 & M31;
  M33 = M27 ^ M25; M34 = M21 & M22; M35 = M24 & M34; M36 = M24 ^ M25;
  M37 = M21 ^ M29; M38 = M32 ^ M33; M39 = M23 ^ M30; M40 = M35 ^ M36;
  M41 = M38 ^ M40; M42 = M37 ^ M39; M43 = M37 ^ M38; M44 = M39 ^ M40;
  M45 = M42 ^ M41;
  M46 = M44 & T6;  M47 = M40 & T8;  M48 = M39 & U7;  M49 = M43 & T16;
  M50 = M38 & T9;  M51 = M37 & T17; M52 = M42 & T15; M53 = M45 & T27;
  M54 = M41 & T10; M55 = M44 & T13; M56 = M40 & T23; M57 = M39 & T19;
  M58 = M43 & T3;  M59 = M38 & T22; M60 = M37 & T20; M61 = M42 & T1;
  M62 = M45 & T4;  M63 = M41 & T2;

  /* bottom linear layer (output complements left out) */
  L0 = M61 ^ M62;  L1 = M50 ^ M56;  L2 = M46 ^ M48;  L3 = M47 ^ M55;
  L4 = M54 ^ M58;  L5 = M49 ^ M61;  L6 = M62 ^ L5;   L7 = M46 ^ L3;
  L8 = M51 ^ M59;  L9 = M52 ^ M53;  L10 = M53 ^ L4;  L11 = M60 ^ L2;
  L12 = M48 ^ M51; L13 = M50 ^ L0;  L14 = M52 ^ M61; L15 = M55 ^ L1;
  L16 = M56 ^ L0;  L17 = M57 ^ L1;  L18 = M58 ^ L8;  L19 = M63 ^ L4;
  L20 = L0 ^ L1;   L21 = L1 ^ L7;   L22 = L3 ^ L12;  L23 = L18 ^ L2;
  L24 = L15 ^ L9;  L25 = L6 ^ L10;  L26 = L7 ^ L9;   L27 = L8 ^ L10;
  L28 = L11 ^ L14; L29 = L11 ^ L17;

  q[7] = L6 ^ L24;     /* S0 */
  q[6] = L16 ^ L26;    /* S1 */
  q[5] = L19 ^ L28;    /* S2 */
  q[4] = L6 ^ L21;     /* S3 */
  q[3] = L20 ^ L22;    /* S4 */
  q[2] = L25 ^ L29;    /* S5 */
  q[1] = L13 ^ L27;    /* S6 */
  q[0] = L6 ^ L23;     /* S7 */
}

/* SubBytes on every byte: S(x) = L(x^-1) + 0x63 (bits 0, 1, 5, 6). */
static inline void
sub_bytes (uint64_t q[8])
{
  bp_core (q);
  q[0] = ~q[0];
  q[1] = ~q[1];
  q[5] = ~q[5];
  q[6] = ~q[6];
}

/* L^-1 of FIPS-197 5.3.2: y -> (y <<< 1) ^ (y <<< 3) ^ (y <<< 6) on each
 * byte, i.e. out bit b = y[b-1] ^ y[b-3] ^ y[b-6] (indices mod 8).  With
 * a[b] = y[b] ^ y[b-2] that is out bit b = a[b-1] ^ y[b+2]: 16 XORs. */
static inline void
lin_inv (uint64_t q[8])
{
  uint64_t y0 = q[0], y1 = q[1], y2 = q[2], y3 = q[3];
  uint64_t y4 = q[4], y5 = q[5], y6 = q[6], y7 = q[7];

  uint64_t a0 = y0 ^ y6, a1 = y1 ^ y7, a2 = y2 ^ y0, a3 = y3 ^ y1;
  uint64_t a4 = y4 ^ y2, a5 = y5 ^ y3, a6 = y6 ^ y4, a7 = y7 ^ y5;

  q[0] = a7 ^ y2;
  q[1] = a0 ^ y3;
  q[2] = a1 ^ y4;
  q[3] = a2 ^ y5;
  q[4] = a3 ^ y6;
  q[5] = a4 ^ y7;
  q[6] = a5 ^ y0;
  q[7] = a6 ^ y1;
}

/* InvSubBytes: S^-1(y) = (L^-1(y) + 0x05)^-1, and z^-1 = L^-1(L(z^-1)),
 * so: inverse affine map, the circuit, L^-1. */
static inline void
inv_sub_bytes (uint64_t q[8])
{
  lin_inv (q);
  q[0] = ~q[0];
  q[2] = ~q[2];
  bp_core (q);
  lin_inv (q);
}

/**********************************************************************
 * ShiftRows / MixColumns / AddRoundKey on the slices.
 **********************************************************************/

static inline uint64_t
ror64 (uint64_t x, unsigned int n)
{
  return (x >> n) | (x << (64 - n));
}

/* ShiftRows rotates row lane r (bits 16r..16r+15) right by 4r bits (new
 * column c = old column c + r).  Done in two steps on the lanes: rows 2
 * and 3 rotated by 8 (a swap of the two bytes of the lane, one delta swap),
 * then rows 1 and 3 rotated right by 4.  The inverse does the same two
 * steps with the rotation by 4 to the left (the steps commute). */
static inline uint64_t
rot8_rows23 (uint64_t x)
{
  uint64_t t = ((x >> 8) ^ x) & M64 (0x00FF00FF00000000);
  return x ^ t ^ (t << 8);
}

static inline uint64_t
shift_rows1 (uint64_t x)
{
  x = rot8_rows23 (x);
  return (x & M64 (0x0000FFFF0000FFFF))
         | ((x >> 4) & M64 (0x0FFF00000FFF0000))
         | ((x << 12) & M64 (0xF0000000F0000000));
}

static inline uint64_t
inv_shift_rows1 (uint64_t x)
{
  x = rot8_rows23 (x);
  return (x & M64 (0x0000FFFF0000FFFF))
         | ((x << 4) & M64 (0xFFF00000FFF00000))
         | ((x >> 12) & M64 (0x000F0000000F0000));
}

static inline void
shift_rows (uint64_t q[8])
{
#define SR_(b) q[b] = shift_rows1 (q[b]);
  SLICES8 (SR_)
#undef SR_
}

static inline void
inv_shift_rows (uint64_t q[8])
{
#define ISR_(b) q[b] = inv_shift_rows1 (q[b]);
  SLICES8 (ISR_)
#undef ISR_
}

/* Multiplication of every byte by x (02) modulo x^8 + x^4 + x^3 + x + 1:
 * bit b of 02 t is t[b-1], plus t[7] into bits 0, 1, 3 and 4.  It is
 * written out inside the two MixColumns below. */

/* MixColumns, a'[r] = 02 a[r] + 03 a[r+1] + a[r+2] + a[r+3]
 *                   = 02 t[r] + a[r+1] + t[r+2],  t[r] = a[r] + a[r+1].
 * ror 16 brings row r+1 to row r, ror 32 row r+2. */
static inline void
mix_columns (uint64_t q[8])
{
#define MC_(b) uint64_t r##b = ror64 (q[b], 16), t##b = q[b] ^ r##b;
  SLICES8 (MC_)
#undef MC_
  q[0] = t7 ^ r0 ^ ror64 (t0, 32);
  q[1] = t0 ^ t7 ^ r1 ^ ror64 (t1, 32);
  q[2] = t1 ^ r2 ^ ror64 (t2, 32);
  q[3] = t2 ^ t7 ^ r3 ^ ror64 (t3, 32);
  q[4] = t3 ^ t7 ^ r4 ^ ror64 (t4, 32);
  q[5] = t4 ^ r5 ^ ror64 (t5, 32);
  q[6] = t5 ^ r6 ^ ror64 (t6, 32);
  q[7] = t6 ^ r7 ^ ror64 (t7, 32);
}

/* InvMixColumns.  As polynomials over GF(2^8) modulo X^4 + 1,
 *   (03 X^3 + 01 X^2 + 01 X + 02) (04 X^2 + 05)
 *     = 0B X^3 + 0D X^2 + 09 X + 0E,
 * the InvMixColumns polynomial of FIPS-197 5.3.3; so InvMixColumns is
 * MixColumns after a'[r] = 05 a[r] + 04 a[r+2] = a[r] + 04 u[r] with
 * u[r] = a[r] + a[r+2].  Bit b of 04 u is u[b-2], reduced:
 *   (u6, u6^u7, u0^u7, u1^u6, u2^u6^u7, u3^u7, u4, u5)  for b = 0..7. */
static inline void
inv_mix_columns (uint64_t q[8])
{
#define IMC_(b) uint64_t u##b = q[b] ^ ror64 (q[b], 32);
  SLICES8 (IMC_)
#undef IMC_
  q[0] ^= u6;
  q[1] ^= u6 ^ u7;
  q[2] ^= u0 ^ u7;
  q[3] ^= u1 ^ u6;
  q[4] ^= u2 ^ u6 ^ u7;
  q[5] ^= u3 ^ u7;
  q[6] ^= u4;
  q[7] ^= u5;
  mix_columns (q);
}

static inline void
add_round_key (uint64_t q[8], const uint64_t rk[8])
{
#define ARK_(b) q[b] ^= rk[b];
  SLICES8 (ARK_)
#undef ARK_
}

/* The cipher and the inverse cipher (FIPS-197 5.1, 5.3) on one group of
 * four blocks in place. */
static void
encrypt4 (const aes256_generic_key *k, uint64_t q[8])
{
  unsigned int r;

  add_round_key (q, k->rk[0]);
  for (r = 1; r < AES256_ROUNDS; r++)
    {
      sub_bytes (q);
      shift_rows (q);
      mix_columns (q);
      add_round_key (q, k->rk[r]);
    }
  sub_bytes (q);
  shift_rows (q);
  add_round_key (q, k->rk[AES256_ROUNDS]);
}

static void
decrypt4 (const aes256_generic_key *k, uint64_t q[8])
{
  unsigned int r;

  add_round_key (q, k->rk[AES256_ROUNDS]);
  for (r = AES256_ROUNDS - 1; r > 0; r--)
    {
      inv_shift_rows (q);
      inv_sub_bytes (q);
      add_round_key (q, k->rk[r]);
      inv_mix_columns (q);
    }
  inv_shift_rows (q);
  inv_sub_bytes (q);
  add_round_key (q, k->rk[0]);
}

/* Burn-depth estimates.  The deepest call chain is setkey -> sub_word ->
 * bp_core, or encrypt/decrypt -> {en,de}crypt4 -> bp_core; bp_core names
 * 128 words, which an unoptimised build keeps on the stack, and the linear
 * layers up to 24 more.  One GCRY_C_FRAME per level.  (Measured with the
 * project flags, -O2: about 630 bytes for setkey, 550 for encrypt/decrypt;
 * at -O0 about 1550 and 1370.) */
#define AES_GENERIC_SBOX_LOCALS (128 * sizeof (uint64_t))
#define AES_GENERIC_LINEAR_LOCALS (24 * sizeof (uint64_t))
#define AES_GENERIC_CRYPT_BURN                                            \
  (4 * AES_BLOCK + 8 * sizeof (uint64_t) + AES_GENERIC_LINEAR_LOCALS     \
   + AES_GENERIC_SBOX_LOCALS + 3 * GCRY_C_FRAME)
#define AES_GENERIC_SETKEY_BURN                                           \
  (4 * 4 * (AES256_ROUNDS + 1) + 4 * AES_BLOCK + 8 * sizeof (uint64_t)   \
   + AES_GENERIC_SBOX_LOCALS + 3 * GCRY_C_FRAME)

/**********************************************************************
 * Key schedule (FIPS-197 5.2, Nk = 8).
 **********************************************************************/

/* SubWord through the circuit: the word's four bytes go to bits 0..3 of
 * the slices (the other 60 lanes compute S(0) and are dropped). */
static uint32_t
sub_word (uint32_t w)
{
  uint64_t q[8];
  uint32_t out = 0;
  unsigned int b, i;

  for (b = 0; b < 8; b++)
    {
      q[b] = 0;
      for (i = 0; i < 4; i++)
        q[b] |= (uint64_t)((w >> (8 * i + b)) & 1) << i;
    }
  sub_bytes (q);
  for (b = 0; b < 8; b++)
    for (i = 0; i < 4; i++)
      out |= (uint32_t)((q[b] >> i) & 1) << (8 * i + b);
  gcry_wipememory (q, sizeof q);
  return out;
}

/* Words are held little-endian: byte 0 of w[i] (the first byte of the
 * word in FIPS-197 order) in bits 0..7.  RotWord is then a rotation right
 * by 8, and Rcon[i/Nk] goes into bits 0..7. */
GCRY_NOINLINE unsigned int
aes256_generic_setkey (aes256_generic_key *k, const uint8_t key[32])
{
  uint32_t w[4 * (AES256_ROUNDS + 1)];
  uint8_t buf[4 * AES_BLOCK];
  uint32_t rcon = 1, t;
  unsigned int i, r, j;

  for (i = 0; i < 8; i++)
    w[i] = gcry_load_le32 (key + 4 * i);
  for (i = 8; i < 4 * (AES256_ROUNDS + 1); i++)
    {
      t = w[i - 1];
      if (i % 8 == 0)           /* public index, not secret */
        {
          t = sub_word ((t >> 8) | (t << 24)) ^ rcon;
          rcon <<= 1;           /* 01..40: never needs the reduction */
        }
      else if (i % 8 == 4)
        t = sub_word (t);
      w[i] = w[i - 8] ^ t;
    }

  /* Bitslice each round key, the same 16 bytes in all four lanes. */
  for (r = 0; r <= AES256_ROUNDS; r++)
    {
      for (j = 0; j < 4; j++)
        for (i = 0; i < 4; i++)
          gcry_store_le32 (buf + 16 * j + 4 * i, w[4 * r + i]);
      pack4 (k->rk[r], buf);
    }

  gcry_wipememory (w, sizeof w);
  gcry_wipememory (buf, sizeof buf);
  return AES_GENERIC_SETKEY_BURN;
}

/**********************************************************************
 * ECB over nblocks: groups of four straight from src; a last group of
 * 1..3 blocks is staged zero-padded in a local buffer.  src is read in full
 * for a group before dst is written, so dst == src is fine.
 **********************************************************************/

static inline unsigned int
crypt_blocks (const aes256_generic_key *k, uint8_t *dst, const uint8_t *src,
              size_t nblocks,
              void (*fn) (const aes256_generic_key *, uint64_t *))
{
  uint64_t q[8];
  uint8_t buf[4 * AES_BLOCK];
  size_t i;

  /* Even with nblocks == 0 the prologue has pushed registers: the estimate
   * is returned unconditionally. */
  for (; nblocks >= 4; nblocks -= 4, src += 4 * AES_BLOCK,
       dst += 4 * AES_BLOCK)
    {
      pack4 (q, src);
      fn (k, q);
      unpack4 (dst, q);
    }
  if (nblocks)
    {
      for (i = 0; i < nblocks * AES_BLOCK; i++)
        buf[i] = src[i];
      for (; i < sizeof buf; i++)
        buf[i] = 0;
      pack4 (q, buf);
      fn (k, q);
      unpack4 (buf, q);
      for (i = 0; i < nblocks * AES_BLOCK; i++)
        dst[i] = buf[i];
      gcry_wipememory (buf, sizeof buf);
    }
  gcry_wipememory (q, sizeof q);
  return AES_GENERIC_CRYPT_BURN;
}

GCRY_NOINLINE unsigned int
aes256_generic_encrypt (const aes256_generic_key *k, uint8_t *dst,
                        const uint8_t *src, size_t nblocks)
{
  return crypt_blocks (k, dst, src, nblocks, encrypt4);
}

GCRY_NOINLINE unsigned int
aes256_generic_decrypt (const aes256_generic_key *k, uint8_t *dst,
                        const uint8_t *src, size_t nblocks)
{
  return crypt_blocks (k, dst, src, nblocks, decrypt4);
}
