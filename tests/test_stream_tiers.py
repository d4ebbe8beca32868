"""The SIMD tier tables of the stream ciphers keep the shared driver's rules.

Salsa20 and ChaCha describe their SIMD tiers as rows of one table each
(``chacha_glue.c``, ``salsa20_glue.c``) run by one driver
(``gcrylike/_native/stream_driver.h``).  ``gcry_stream_check_tiers`` there
checks every row (a test-only hook per module): routine widths strictly
decreasing and at most 16, each with a function, every wide-tail rule's
window non-empty and at most 16 blocks, every tail routine listed with the
same width in some row (so it is never called for a width it does not make),
tail rules only in rows with routines, and an empty portable row 0.  The
keystream the rows produce is checked against the references by the cipher
tests (test_salsa20.py, test_chacha.py, ...) at every tier.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import testhooks

import gcrylike
from gcrylike.ciphers.chacha import DRIVERS as CHACHA_DRIVERS
from gcrylike.ciphers.chacha import _chacha
from gcrylike.ciphers.salsa20 import DRIVERS as SALSA20_DRIVERS
from gcrylike.ciphers.salsa20 import _salsa20

CHECK_MAX = 40 * 64 + 63    # lengths the driver check runs (chacha_driver_check.c)

# (module, installed impls mask); the tier checks are test-only, in the
# module's test copy (tests/testhooks.py)
MODULES = [
    pytest.param("chacha", _chacha.lib.gcry_chacha_impls, id="chacha"),
    pytest.param("salsa20", _salsa20.lib.gcry_salsa20_impls, id="salsa20"),
]
#: each module's implementation ids (the enum of its header, as the module
#: reads it) and its portable one
#: the repository's assembly (a cipher's files are <cipher>-<arch>-*.S)
ASM = Path(__file__).resolve().parent.parent / "asm"
IDS = {"chacha": (_chacha.lib, "CHACHA_IMPL_"), "salsa20": (_salsa20.lib, "SALSA20_IMPL_")}
#: each module's driver rows (its glue's, compiled in)
DRIVERS = {"chacha": CHACHA_DRIVERS, "salsa20": SALSA20_DRIVERS}


def _ids(module: str) -> tuple[int, dict[str, int]]:
    lib, prefix = IDS[module]
    ids = {n: getattr(lib, n) for n in dir(lib) if n.startswith(prefix)}
    return ids[prefix + "GENERIC"], ids


@pytest.mark.parametrize("module, impls", MODULES)
def test_tier_table_keeps_the_driver_rules(module, impls):
    code = getattr(testhooks.copy(module).lib, f"gcry_{module}_tiers_check")()
    assert code == 0, f"row {code >> 8} breaks rule {code & 0xFF} (see stream_driver.h)"


@pytest.mark.parametrize("module, impls", MODULES)
def test_built_implementations_are_the_table_rows(module, impls):
    """The ids built (a tier row each) are the driver rows' ids: with the
    assembly of an architecture its tiers beside the portable one, without
    assembly the portable one alone."""
    generic, ids = _ids(module)
    assert sorted(ids.values()) == list(range(len(ids))), ids  # the glue's mask bits
    want = sum(1 << d.token for d in DRIVERS[module])
    assert impls() == want
    arch = gcrylike.config().asm_arch
    if arch is None or not list(ASM.glob(f"{module}-{arch}-*.S")):
        assert want == 1 << generic  # no assembly, or none of this cipher for the arch
    else:
        assert want & ~(1 << generic), "assembly built, but no tier beside the portable one"


def test_driver_runs_widths_up_to_16():
    # rows listing the AVX2 eight-block routine as 16 wide (tests/native/
    # chacha_driver_check.c): groups of 16, 16-block wide tails, windows
    if not gcrylike.config().use_amd64:
        pytest.skip("built without assembly")
    code = testhooks.copy("chacha").lib.gcry_chacha_driver_check()
    assert code >= 0, "the check table breaks the driver rules"
    row, length = divmod(code - 1, CHECK_MAX)
    assert code == 0, f"row {row + 1} differs from the portable row at {length} bytes"
