"""Collect PyNaCl's tests only where they can run: they take
``HexEncoder`` and ``CryptoError`` from PyNaCl itself (what a user moving
over still imports) and draw inputs with hypothesis."""

import importlib.util

_MISSING = [m for m in ("nacl", "hypothesis") if importlib.util.find_spec(m) is None]
# a missing module shows as "no tests ran" for this folder, not as errors
collect_ignore_glob = ["test_*.py"] if _MISSING else []
