"""What each routine's arguments are, where that differs from the default.

Default (every prototype in ciphers/*/*.h today): the argument registers
hold pointers, lengths, counts and round numbers, all public; the memory
they point to is secret.  A routine that took a secret by value in a
register would be listed in SECRET_REGISTERS.  Arguments past the sixth
are on the stack above the return address: STACK_ARGUMENTS says how many
8-byte slots there are, so loading them is a public load.
"""

from __future__ import annotations

SECRET_REGISTERS: dict[str, tuple[str, ...]] = {}

STACK_ARGUMENTS: dict[str, int] = {
    # (input, dst, src, nblocks, h, r, mac_src): mac_src is the seventh
    "_gcry_chacha20_poly1305_amd64_avx2_blocks8": 1,
    "_gcry_salsa20_poly1305_amd64_avx2_blocks8": 1,
}
