"""Run cryptography's ChaCha20Poly1305 tests against gcrylike's class, minus
the two behaviours gcrylike deliberately does not copy (docs/usage.rst,
"Differences from cryptography"), each skipped with why."""

import contextlib
import importlib.util

import pytest

# they import InvalidTag and UnsupportedAlgorithm from cryptography itself
collect_ignore_glob = [] if importlib.util.find_spec("cryptography") else ["test_*.py"]

DELIBERATE = {
    "test_data_too_large": "cryptography refuses data and associated data of 2**32 "
                           "bytes or more; gcrylike takes any length the algorithm can "
                           "(RFC 8439 allows 2**38 - 64 bytes of data)",
    "test_encrypt_into_overlapping_buffer[0]": "buf at offset 0 is the data itself: "
                           "gcrylike works in place there, cryptography refuses any overlap "
                           "(every other overlap is refused by both)",
}


def pytest_collection_modifyitems(items):
    for item in items:
        reason = DELIBERATE.get(item.name)
        if reason is not None and item.path.parent.name == "cryptography_tests":
            item.add_marker(pytest.mark.skip(reason=f"deliberately not copied: {reason}"))


if not hasattr(pytest, "Subtests"):  # pytest < 9 has no built-in subtests fixture
    class _Subtests:
        """Each vector as part of the one test (the first failure ends it)."""

        @contextlib.contextmanager
        def test(self, **kwargs):
            yield

    @pytest.fixture
    def subtests():
        return _Subtests()
