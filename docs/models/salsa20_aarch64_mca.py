"""llvm-mca's cycles per 64-byte Salsa20 block on aarch64 cores: the NEON
routines of asm/salsa20-aarch64-neon.S beside the portable C.

Not part of the library or its tests: the same model as
chacha_aarch64_mca.py (whose helpers it uses; see there for the parts
measured), on asm/salsa20-aarch64-neon.S and
ciphers/salsa20/salsa20_generic.c.  The portable C's double round is 67
instructions: gcc folds each rotation into the eor (``eor w, w, w, ror #n``),
so Salsa20's C is about twice as dense as ChaCha's on aarch64.

Usage (Debian: gcc-aarch64-linux-gnu, llvm-16):

    python3 docs/models/salsa20_aarch64_mca.py [--mcpu cortex-a53 ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chacha_aarch64_mca import report  # noqa: E402

if __name__ == "__main__":
    sys.exit(report("salsa20"))
