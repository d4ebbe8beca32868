"""PyNaCl 1.6.2's tests/test_secret.py and what it imports (see ../README.md)."""
