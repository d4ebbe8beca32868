/* poly1305_aarch64.h - the aarch64 Poly1305 routines' contract, and the C
 * that fills the NEON routine's table (poly1305_aarch64_tables.c); the
 * routines are declared beside their driver rows (poly1305_glue.c).
 *
 * asm/poly1305-aarch64-scalar.S: 64-bit limbs, MUL/UMULH, baseline
 * ARMv8-A, little-endian.  Its contract is that of
 * _gcry_poly1305_amd64_scalar_blocks (poly1305_amd64.h): NBLOCKS full
 * blocks, each with the 2^128 bit; h[2] <= 7 on entry, <= 4 on exit; no
 * table; returns the burn depth (0: it uses no stack).
 *
 * asm/poly1305-aarch64-neon.S: two streams of 26-bit limbs in NEON lanes,
 * with the powers of r that _gcry_poly1305_aarch64_neon_setup writes into
 * TABLE (POLY1305_TABLE_BYTES, secret: the owner wipes it).  The contract
 * of the amd64 SIMD block functions: NBLOCKS a multiple of 4 (the
 * remainder ignored, below 4 it returns at once), the same accumulator
 * bounds; returns its burn depth (64: it saves d8-d15 below the stack
 * pointer). */
#ifndef GCRYLIKE_POLY1305_AARCH64_H
#define GCRYLIKE_POLY1305_AARCH64_H

#include <stddef.h>
#include <stdint.h>

void _gcry_poly1305_aarch64_neon_setup (const uint64_t r[2], void *table);

#endif
