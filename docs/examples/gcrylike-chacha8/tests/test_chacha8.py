"""The plugin's own tests, on gcrylike's test helpers (gcrylike.testing):
known answers on every driver this CPU can run, every driver against a
pure-Python ChaCha8 over random keys, nonces, lengths, splits and offsets,
and the entry point loads without errors."""

import struct

from chacha8 import VECTORS

import gcrylike
import gcrylike.testing as gt

MASK = 0xFFFFFFFF


def _rotl(v, c):
    return ((v << c) | (v >> (32 - c))) & MASK


def _block(key, nonce, counter):
    """One ChaCha8 keystream block, straight from Bernstein's description."""
    consts = b"expand 32-byte k" if len(key) == 32 else b"expand 16-byte k"
    k = struct.unpack("<8I", key if len(key) == 32 else key + key)
    state = [*struct.unpack("<4I", consts), *k, counter & MASK, counter >> 32,
             *struct.unpack("<2I", nonce)]
    x = list(state)
    for _ in range(4):  # 8 rounds: 4 column and 4 diagonal
        for a, b, c, d in ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                           (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)):
            x[a] = (x[a] + x[b]) & MASK
            x[d] = _rotl(x[d] ^ x[a], 16)
            x[c] = (x[c] + x[d]) & MASK
            x[b] = _rotl(x[b] ^ x[c], 12)
            x[a] = (x[a] + x[b]) & MASK
            x[d] = _rotl(x[d] ^ x[a], 8)
            x[c] = (x[c] + x[d]) & MASK
            x[b] = _rotl(x[b] ^ x[c], 7)
    return struct.pack("<16I", *((v + s) & MASK for v, s in zip(x, state, strict=True)))


def chacha8(key, nonce, data):
    stream = b"".join(_block(key, nonce, i) for i in range((len(data) + 63) // 64))
    return bytes(a ^ b for a, b in zip(data, stream[:len(data)], strict=True))


def test_loaded_without_errors():
    assert gcrylike.plugin_errors() == {}
    assert "CHACHA8" in gcrylike.algorithms()


def test_known_answers_on_every_driver():
    assert gt.check_known_answers("chacha8", VECTORS)


def test_reference_matches_the_known_answers():
    for vec in VECTORS:
        for block, want in vec.blocks.items():
            key, nonce = bytes.fromhex(vec.key), bytes.fromhex(vec.nonce)
            assert _block(key, nonce, block).hex() == want


def test_every_driver_agrees_with_the_reference():
    gt.compare("chacha8", chacha8, trials=8)
