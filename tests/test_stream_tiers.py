"""The SIMD tier tables of the stream ciphers keep the shared driver's rules.

Salsa20 and ChaCha describe their SIMD tiers inside their driver rows
(``chacha_glue.c``, ``salsa20_glue.c``), run by one driver
(``gcrylike/_native/stream_driver.h``).  ``gcry_stream_check_tiers`` there
checks every row (a test-only hook per module): routine widths strictly
decreasing and at most 16, each with a function, every wide-tail rule's
window non-empty and at most 16 blocks, every tail routine listed with the
same width in some row (so it is never called for a width it does not make),
tail rules only in rows with routines.  The
keystream the rows produce is checked against the references by the cipher
tests (test_salsa20.py, test_chacha.py, ...) at every tier.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import testhooks

import gcrylike
from gcrylike.ciphers.chacha import DRIVERS as CHACHA_DRIVERS
from gcrylike.ciphers.salsa20 import DRIVERS as SALSA20_DRIVERS

CHECK_MAX = 40 * 64 + 63    # lengths the driver check runs (chacha_driver_check.c)

MODULES = ["chacha", "salsa20"]
#: the repository's assembly (a cipher's files are <cipher>-<arch>-*.S)
ASM = Path(__file__).resolve().parent.parent / "asm"
#: each module's driver rows (its glue's, compiled in)
DRIVERS = {"chacha": CHACHA_DRIVERS, "salsa20": SALSA20_DRIVERS}


@pytest.mark.parametrize("module", MODULES)
def test_tier_table_keeps_the_driver_rules(module):
    code = getattr(testhooks.copy(module).lib, f"gcry_{module}_tiers_check")()
    assert code == 0, f"row {code >> 8} breaks rule {code & 0xFF} (see stream_driver.h)"


@pytest.mark.parametrize("module", MODULES)
def test_built_implementations_are_the_driver_rows(module):
    """A driver's token is its row's place: the tokens are 0, 1, ... in
    the rows' order, the portable one first; with the assembly of an
    architecture its tiers come beside it, without assembly it is alone."""
    drivers = DRIVERS[module]
    assert [d.token for d in drivers] == list(range(len(drivers)))
    assert drivers[0].suffix == "generic"
    arch = gcrylike.config().asm_arch
    if arch is None or not list(ASM.glob(f"{module}-{arch}-*.S")):
        assert len(drivers) == 1  # no assembly, or none of this cipher for the arch
    else:
        assert len(drivers) > 1, "assembly built, but no tier beside the portable one"
        assert all(d.suffix.startswith(arch) for d in drivers[1:])


def test_driver_runs_widths_up_to_16():
    # rows listing the AVX2 eight-block routine as 16 wide (tests/native/
    # chacha_driver_check.c): groups of 16, 16-block wide tails, windows
    if not gcrylike.config().use_amd64:
        pytest.skip("built without assembly")
    code = testhooks.copy("chacha").lib.gcry_chacha_driver_check()
    assert code >= 0, "the check table breaks the driver rules"
    row, length = divmod(code - 1, CHECK_MAX)
    assert code == 0, f"row {row + 1} differs from the portable row at {length} bytes"
