/* poly1305_amd64.h - the amd64 SIMD Poly1305 block functions
 * (asm/poly1305-amd64-sse2.S, asm/poly1305-amd64-avx2.S) and the C that
 * fills their tables of powers of r (poly1305_amd64_tables.c); the
 * AVX512-IFMA routine (asm/poly1305-amd64-avx512.S, radix 2^44, described
 * there) follows the same contract.
 *
 * Written from RFC 8439 section 2.5 and Bernstein's Poly1305 paper.  Only
 * built on x86-64 (USE_AMD64); System V AMD64 ABI.
 *
 * Representation.  Between calls the accumulator is h[0] + 2^64 h[1] +
 * 2^128 h[2], only partially reduced modulo p = 2^130 - 5, with h[2] <= 7
 * on entry and on exit; the portable C does the final reduction.  Inside
 * the routines it is five 26-bit limbs (radix 2^26), one 64-bit lane per
 * independent stream: two streams (SSE2) or four (AVX2), interleaved block
 * by block and recombined with the powers r^2, r^1 (SSE2) or r^4 .. r^1
 * (AVX2) at the end of every call.
 *
 * TABLE is POLY1305_AMD64_TABLE_BYTES of 64-byte aligned memory, written
 * by the setup function of the same flavour from the clamped r and read by
 * its blocks function only; its layout is private to the pair (described
 * in poly1305_amd64_tables.c).  It holds secret key material: the owner
 * wipes it.
 *
 * The blocks functions absorb NBLOCKS full 16-byte blocks of M (any
 * alignment), each with the 2^128 bit: h = (h + m + 2^128) r mod p.  SSE2
 * wants NBLOCKS a multiple of 2, AVX2 a multiple of 4 (the remainder is
 * ignored; 0 returns at once).  They return their stack burn depth, the
 * bytes written below the stack pointer at entry, which the caller wipes
 * (they do not): their main loops keep expanded powers of r in a frame,
 *   SSE2: 288 + (entry rsp mod 16) = 296 bytes for nblocks >= 10, else 0;
 *   AVX2: 1152 + (entry rsp mod 32) = 1160 or 1176 for nblocks >= 20,
 *         else 0
 * (exact values computed at run time).  They clear every vector register
 * that held key, accumulator or message data (SSE2: pxor of xmm0-15;
 * AVX2: vzeroall).  No branch or memory index depends on secret data.
 */
#ifndef GCRYLIKE_POLY1305_AMD64_H
#define GCRYLIKE_POLY1305_AMD64_H

#include <stddef.h>
#include <stdint.h>

#define POLY1305_AMD64_TABLE_BYTES 512

/* The table set-up functions (poly1305_amd64_tables.c); the blocks
 * routines are declared beside their driver rows (poly1305_glue.c).
 * asm/poly1305-amd64-avx512.S: eight streams in zmm, radix 2^44 with
 * AVX512-IFMA; NBLOCKS a multiple of 8; uses no stack (returns 0) and
 * clears zmm0-31.  Needs AVX512F and AVX512-IFMA. */
void _gcry_poly1305_amd64_sse2_setup (const uint64_t r[2], void *table);
void _gcry_poly1305_amd64_avx2_setup (const uint64_t r[2], void *table);
void _gcry_poly1305_amd64_avx512ifma_setup (const uint64_t r[2], void *table);

/* asm/poly1305-amd64-avx512-lanes.S: eight messages of NBLOCKS (0 to 8)
 * blocks each at once, one per qword lane (AVX512F), from zero
 * accumulators and without the s pad: BLOCKS word-major (qword q of block
 * j of message k at blocks[16 j + 8 q + k]), OUT the values fully reduced
 * mod p and taken mod 2^128 (qword w of message k at out[8 w + k]).
 * POWERS (576 bytes, secret: the owner wipes it) from the setup function.
 * Uses no stack (returns 0); clears every vector register it used. */
#define POLY1305_LANES_POWERS 72        /* qwords */
void _gcry_poly1305_amd64_avx512_lanes_setup (const uint64_t r[2], uint64_t *powers);
unsigned int _gcry_poly1305_amd64_avx512_lanes8 (const uint64_t *powers,
                                                 const uint64_t *blocks, size_t nblocks,
                                                 uint64_t *out);

/* asm/poly1305-amd64-scalar.S (poly1305_scalar_routine): the same step
 * one block at a time in general-purpose registers, for the SIMD drivers'
 * short inputs and leftover blocks; no table.  Returns the burn depth. */

#endif
