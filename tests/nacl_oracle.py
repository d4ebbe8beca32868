"""Outside answers for XSalsa20, HSalsa20 and NaCl's secretbox, shared by
test_xsalsa20.py and test_secretbox.py.

* libsodium through ctypes: the system's libsodium, or else the copy PyNaCl
  bundles (its ``nacl/_sodium`` extension exports libsodium's functions);
* PyNaCl's own API (``nacl.secret.SecretBox``), a second path;
* a pure-Python HSalsa20/XSalsa20 written here from Bernstein's "Salsa20
  specification" and "Extending the Salsa20 nonce" (any even round count,
  any 64-bit block counter; slow, so only for spot checks).

``SODIUM`` / ``PYNACL`` are None when the library cannot be loaded; tests
that need them skip with :data:`NO_ORACLE` as the reason.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import struct
from functools import cache

M32 = 0xFFFFFFFF
SIGMA = struct.unpack("<4I", b"expand 32-byte k")
END = 1 << 64  # the block counter is 64 bits


def _load_sodium() -> tuple[ctypes.CDLL | None, str]:
    candidates = []
    found = ctypes.util.find_library("sodium")
    if found:
        candidates.append(found)
    candidates += ["libsodium.so.23", "libsodium.so.26", "libsodium.so"]
    try:
        import nacl._sodium

        candidates.append(nacl._sodium.__file__)
    except ImportError:
        pass
    errors = []
    for cand in candidates:
        try:
            lib = ctypes.CDLL(cand)
            lib.crypto_stream_xsalsa20_xor_ic  # noqa: B018  (present?)
            lib.crypto_core_hsalsa20  # noqa: B018
            lib.crypto_secretbox_easy  # noqa: B018
        except (OSError, AttributeError) as exc:
            errors.append(f"{cand}: {exc}")
            continue
        if lib.sodium_init() < 0:
            errors.append(f"{cand}: sodium_init failed")
            continue
        return lib, cand
    return None, "; ".join(errors) or "no candidates"


SODIUM, SODIUM_WHERE = _load_sodium()

try:
    import nacl.secret as _nacl_secret

    PYNACL = _nacl_secret
except ImportError:
    PYNACL = None

NO_ORACLE = ("neither libsodium (ctypes) nor PyNaCl loads here "
             f"({SODIUM_WHERE}); pip install pynacl")

if SODIUM is not None:
    _ull = ctypes.c_ulonglong
    _vp, _cp = ctypes.c_void_p, ctypes.c_char_p
    SODIUM.crypto_stream_xsalsa20_xor_ic.argtypes = [_vp, _cp, _ull, _cp, ctypes.c_uint64, _cp]
    SODIUM.crypto_stream_xsalsa20_xor_ic.restype = ctypes.c_int
    SODIUM.crypto_core_hsalsa20.argtypes = [_vp, _cp, _cp, _cp]
    SODIUM.crypto_core_hsalsa20.restype = ctypes.c_int
    SODIUM.crypto_secretbox_easy.argtypes = [_vp, _cp, _ull, _cp, _cp]
    SODIUM.crypto_secretbox_easy.restype = ctypes.c_int
    SODIUM.crypto_secretbox_open_easy.argtypes = [_vp, _cp, _ull, _cp, _cp]
    SODIUM.crypto_secretbox_open_easy.restype = ctypes.c_int


# -- libsodium ----------------------------------------------------------------

def sodium_xsalsa20(key: bytes, nonce: bytes, data: bytes, block: int = 0) -> bytes:
    """``crypto_stream_xsalsa20_xor_ic``: data XOR the stream from block ``block``."""
    out = ctypes.create_string_buffer(max(len(data), 1))
    assert SODIUM.crypto_stream_xsalsa20_xor_ic(out, bytes(data), len(data), nonce, block,
                                                key) == 0
    return out.raw[:len(data)]


def sodium_hsalsa20(key: bytes, data: bytes) -> bytes:
    """``crypto_core_hsalsa20`` (20 rounds, the default constants)."""
    out = ctypes.create_string_buffer(32)
    assert SODIUM.crypto_core_hsalsa20(out, data, key, None) == 0
    return out.raw


def sodium_secretbox(key: bytes, nonce: bytes, msg: bytes) -> bytes:
    """``crypto_secretbox_easy``: tag || ciphertext."""
    out = ctypes.create_string_buffer(len(msg) + 16)
    assert SODIUM.crypto_secretbox_easy(out, bytes(msg), len(msg), nonce, key) == 0
    return out.raw


def sodium_secretbox_open(key: bytes, nonce: bytes, box: bytes) -> bytes | None:
    """``crypto_secretbox_open_easy``: the message, or None if it refuses."""
    if len(box) < 16:
        return None
    out = ctypes.create_string_buffer(max(len(box) - 16, 1))
    if SODIUM.crypto_secretbox_open_easy(out, bytes(box), len(box), nonce, key) != 0:
        return None
    return out.raw[:len(box) - 16]


# -- PyNaCl -------------------------------------------------------------------

def pynacl_secretbox(key: bytes, nonce: bytes, msg: bytes) -> bytes:
    """PyNaCl's ``SecretBox.encrypt`` returns nonce || box: the box part."""
    sealed = PYNACL.SecretBox(key).encrypt(bytes(msg), nonce)
    assert sealed.nonce == nonce
    return bytes(sealed)[len(nonce):]


def pynacl_secretbox_open(key: bytes, nonce: bytes, box: bytes) -> bytes | None:
    from nacl.exceptions import CryptoError

    try:
        return PYNACL.SecretBox(key).decrypt(bytes(box), nonce)
    except (CryptoError, ValueError):
        return None


def pynacl_keystream_from_32(key: bytes, nonce: bytes, n: int) -> bytes:
    """XSalsa20 keystream bytes 32 .. 32 + n through PyNaCl's API: the
    ciphertext of a secretbox of zeros (its first 32 stream bytes key
    Poly1305)."""
    return pynacl_secretbox(key, nonce, bytes(n))[16:]


# -- pure Python --------------------------------------------------------------

def _rotl(v: int, c: int) -> int:
    return ((v << c) | (v >> (32 - c))) & M32


def salsa20_rounds(x: list[int], rounds: int) -> list[int]:
    """``rounds`` Salsa20 rounds (double rounds: columnround, then rowround)
    over the 16-word state ``x``; no feed-forward.  test_salsa20.py's
    reference block function uses them too."""
    x = list(x)

    def quarterround(a: int, b: int, c: int, d: int) -> None:
        x[b] ^= _rotl((x[a] + x[d]) & M32, 7)
        x[c] ^= _rotl((x[b] + x[a]) & M32, 9)
        x[d] ^= _rotl((x[c] + x[b]) & M32, 13)
        x[a] ^= _rotl((x[d] + x[c]) & M32, 18)

    for _ in range(rounds // 2):
        # columnround, then rowround
        quarterround(0, 4, 8, 12)
        quarterround(5, 9, 13, 1)
        quarterround(10, 14, 2, 6)
        quarterround(15, 3, 7, 11)
        quarterround(0, 1, 2, 3)
        quarterround(5, 6, 7, 4)
        quarterround(10, 11, 8, 9)
        quarterround(15, 12, 13, 14)
    return x


def _state(key: bytes, w6_9: tuple[int, ...]) -> list[int]:
    k = struct.unpack("<8I", key)
    return [SIGMA[0], *k[:4], SIGMA[1], *w6_9, SIGMA[2], *k[4:], SIGMA[3]]


def ref_hsalsa20(key: bytes, data: bytes, rounds: int = 20) -> bytes:
    """HSalsa20: the Salsa20 rounds over constants, key and the 16-byte
    input, no feed-forward; words 0, 5, 10, 15, 6, 7, 8, 9."""
    x = salsa20_rounds(_state(key, struct.unpack("<4I", data)), rounds)
    return struct.pack("<8I", *(x[i] for i in (0, 5, 10, 15, 6, 7, 8, 9)))


@cache
def ref_xsalsa20_block(key: bytes, nonce: bytes, block: int, rounds: int = 20) -> bytes:
    """Keystream block ``block`` of XSalsa20: Salsa20 keyed with
    HSalsa20(key, nonce[:16]), nonce[16:] in words 6-7."""
    assert len(key) == 32 and len(nonce) == 24 and 0 <= block < END
    inp = _state(ref_hsalsa20(key, nonce[:16], rounds),
                 (*struct.unpack("<2I", nonce[16:]), block & M32, block >> 32))
    x = salsa20_rounds(inp, rounds)
    return struct.pack("<16I", *((a + b) & M32 for a, b in zip(x, inp, strict=True)))


def ref_keystream(key: bytes, nonce: bytes, nbytes: int, block: int = 0) -> bytes:
    nblocks = -(-nbytes // 64)
    return b"".join(ref_xsalsa20_block(key, nonce, block + i)
                    for i in range(nblocks))[:nbytes]
