"""NaCl secretbox (XSalsa20-Poly1305) known answers: the self-tests and the
test suite (tests/test_secretbox.py) read them from here.

Published: NaCl ``tests/secretbox.c``, the 131-byte message sealed with
"firstkey" 1b275564.. and nonce 69696ee9..; the box (tag || ciphertext,
crypto_secretbox_easy's layout) is NaCl's output without its 16 leading
zero bytes, checked again against libsodium.

Computed once with libsodium's ``crypto_secretbox_easy`` through ctypes
(libsodium 1.0.18) and embedded here: key SHA-256("gcrylike secretbox key"),
nonce SHA-256("gcrylike secretbox nonce")[:24], messages
``bytes((7 * i + 3) & 0xFF for i in range(n))``; for the long message only
the SHA-256 of the box is kept (n = 9000 crosses the glue's chunk steps).
"""

from .vector_types import SecretBoxVector
from .vectors_xsalsa20 import NACL_FIRSTKEY, NACL_NONCE

_KEY = "633e7f25de9d807519b866a1742e2cab6542c13e38606a88b54c643c34641f67"
_NONCE = "25378006cd45da9c6e6e9882c90f9293c212a83ff006d1a9"


def pattern(n: int) -> bytes:
    return bytes((i * 7 + 3) & 0xFF for i in range(n))


#: NaCl tests/secretbox.c
NACL = SecretBoxVector(
    key=NACL_FIRSTKEY,
    nonce=NACL_NONCE,
    message=bytes.fromhex(
        "be075fc53c81f2d5cf141316ebeb0c7b5228c52a4c62cbd44b66849b64244ffc"
        "e5ecbaaf33bd751a1ac728d45e6c61296cdc3c01233561f41db66cce314adb31"
        "0e3be8250c46f06dceea3a7fa1348057e2f6556ad6b1318a024a838f21af1fde"
        "048977eb48f59ffd4924ca1c60902e52f0a089bc76897040e082f93776384864"
        "5e0705"),
    box="f3ffc7703f9400e52a7dfb4b3d3305d98e993b9f48681273c29650ba32fc76ce"
        "48332ea7164d96a4476fb8c531a1186ac0dfc17c98dce87b4da7f011ec48c972"
        "71d2c20f9b928fe2270d6fb863d51738b48eeee314a7cc8ab932164548e526ae"
        "90224368517acfeabd6bb3732bc0e9da99832b61ca01b6de56244a9e88d5f9b3"
        "7973f622a43d14a6599b1f654cb45a74e355a5",
)

SECRETBOX = (
    NACL,
    SecretBoxVector(key=_KEY, nonce=_NONCE, message=b"",
                    box="596bc73ecde524d3c99b9209317ed396"),
    SecretBoxVector(key=_KEY, nonce=_NONCE, message=pattern(1),
                    box="3560435e4eed278a4cb026eac82d81c643"),
    SecretBoxVector(key=_KEY, nonce=_NONCE, message=pattern(33),
                    box="52e4d7ebd192360e7a4984792b27306c43dcd9075c4bf0048f5b4123bca5b395"
                        "e032c5cf495375a8225610022fe9cc8425"),
    SecretBoxVector(key=_KEY, nonce=_NONCE, message=pattern(9000),
                    box_sha256="0f01cc2df978f2daaa47031b02e4b44e"
                               "3f676f31bcaa2b79aeb372e04179640f"),
)
