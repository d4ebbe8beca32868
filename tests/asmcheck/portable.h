/* portable.h - the portable C in the assembly's signatures (portable.c). */
#ifndef GCRYLIKE_ASMCHECK_PORTABLE_H
#define GCRYLIKE_ASMCHECK_PORTABLE_H

#include <stddef.h>
#include <stdint.h>

unsigned int asmcheck_chacha_portable_blocks (uint32_t *state, uint8_t *dst, const uint8_t *src,
                                              size_t nblocks, unsigned int rounds);
unsigned int asmcheck_salsa20_portable_blocks (uint32_t *state, uint8_t *dst, const uint8_t *src,
                                               size_t nblocks, unsigned int rounds);
unsigned int asmcheck_hchacha_portable (const uint32_t *state, uint8_t *out32, unsigned int rounds);
unsigned int asmcheck_hsalsa20_portable (const uint32_t *state, uint8_t *out32, unsigned int rounds);

#endif
