"""cryptography's ChaCha20Poly1305 tests and their vectors (see ../README.md)."""
