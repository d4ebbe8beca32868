"""ChaCha8 for gcrylike: an example plugin built with gcrylike's kit.

Its C uses gcrylike's installed headers (the stream driver skeleton, the
error codes, wiping and stack burning), its build uses ``gcrylike.build``,
its self-test ``gcrylike.selftests.stream_selftest``.
"""

from __future__ import annotations

from gcrylike import CipherSpec, CounterExhausted, Implementation
from gcrylike.selftests import StreamVector, stream_selftest

from ._chacha8 import lib

# Any positive id no other registered spec uses.
ALGO_ID = 40002
# The C implementation ids (chacha8.c): the Implementation tokens.
GENERIC, SSE2 = 0, 1

# Known answers.  Block 0 for the all-zero 256- and 128-bit keys and nonce:
# draft-strombergson-chacha-test-vectors-01, TC1, 8 rounds.  Block 1000 of
# the zero key was computed with a pure-Python ChaCha (the example's tests
# check the plugin against it on random inputs), so that the self-test's
# check of a block inside a 32-block request has a known answer.
VECTORS = [
    StreamVector(key="00" * 32, nonce="00" * 8, rounds=8, blocks={
        0: "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
           "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42",
        1000: "15ab2a7771d561523faa47bfe2f955ba3e507becbcc79775611b4d69a2c83248"
              "7e00cc74c274c3116b9c9a2dc0dbc6a14ed582da18f2b4e9175368e603a96b19"}),
    StreamVector(key="00" * 16, nonce="00" * 8, rounds=8, blocks={
        0: "e28a5fa4a67f8c5defed3e6fb7303486aa8427d31419a729572d777953491120"
           "b64ab8e72b8deb85cd6aea7cb6089a101824beeb08814a428aab1fa2c816081b"}),
]


# Hooks: ctx is the context's cffi ``void *``; key and iv are cffi buffers.
def _setkey(ctx, key, impl):
    return lib.c8_setkey(ctx, key, len(key), impl.token)  # 0 or an ErrorCode


def _setiv(ctx, iv):
    lib.c8_setiv(ctx, iv)


def _setctr(ctx, block):
    if block >= 1 << 64:
        raise CounterExhausted(f"CHACHA8: block {block} is past the counter")
    lib.c8_setctr(ctx, block)


def _selftest(spec, impl):
    stream_selftest(spec, impl, VECTORS)


def _implementations() -> tuple[Implementation, ...]:
    built = lib.c8_impls()  # what this build compiled in (no .S: generic only)
    rows = [("chacha8-generic", 100, (), GENERIC, "portable C"),
            ("chacha8-amd64-sse2", 300, {"sse2"}, SSE2, "SSE2, one block in row form")]
    return tuple(Implementation(driver, prio, feats, token, desc)
                 for driver, prio, feats, token, desc in rows if built >> token & 1)


SPEC = CipherSpec(
    name="CHACHA8",
    algo=ALGO_ID,
    aliases=("chacha8-djb",),
    key_sizes=(32, 16),
    iv_sizes=(8,),
    context_size=lib.c8_ctxsize(),
    implementations=_implementations(),
    setkey=_setkey,
    setiv=_setiv,
    setctr=_setctr,
    encrypt_stream=lib.c8_crypt,   # the cffi function itself: the fast path
    decrypt_stream=lib.c8_crypt,
    selftest=_selftest,
    description="ChaCha with 8 rounds, 64-bit nonce (gcrylike plugin example)",
    api_version=1,
)
