"""XSalsa20 and HSalsa20 known answers: the self-tests, the test suite
(tests/test_xsalsa20.py) and the native check of the assembly
(tests/asmcheck/vectors.py, through :data:`XSALSA20_AS_SALSA20`) read them
from here.

Published facts (NaCl's own tests, checked again against libsodium):

* HSalsa20: NaCl ``tests/core1.c`` (the shared secret
  4a5d9d5b.. with a zero input gives "firstkey" 1b275564..) and
  ``tests/core2.c`` (firstkey with the first 16 bytes of the nonce
  69696ee9.. gives "secondkey" dc908dda..);
* XSalsa20: NaCl ``tests/stream3.c``, the first 32 bytes of the stream of
  firstkey and nonce 69696ee9..7b0a0b37 (eea6a725..c8cff880).

Computed once with libsodium through ctypes
(``crypto_stream_xsalsa20_xor_ic``, ``crypto_core_hsalsa20``; libsodium
1.0.18) and embedded here as hex, each also matching a pure-Python
XSalsa20 written from Bernstein's "Extending the Salsa20 nonce": the rest
of block 0 of the NaCl stream and its blocks 1023, 1024, 2^32 - 1 and 2^32
(the counter carry into word 9), a second key and nonce (SHA-256 of
"gcrylike xsalsa20 key 1" / "... nonce 1", the nonce truncated to 24
bytes) at blocks 0, 1, 7, 1023 and 1024, and a third HSalsa20 answer
(SHA-256 of "gcrylike hsalsa20 key" / "... input").
"""

from .vector_types import StreamVector, through_subkeys

#: NaCl's shared secret (tests/core1.c), "firstkey" (its HSalsa20 with a
#: zero input), the nonce of tests/stream3.c and secretbox.c, and
#: "secondkey" (tests/core2.c: HSalsa20 of firstkey and the nonce's first
#: 16 bytes), hex.
NACL_SHARED = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
NACL_FIRSTKEY = "1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389"
NACL_NONCE = "69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37"
NACL_SECONDKEY = "dc908dda0b9344a953629b733820778880f3ceb421bb61b91cbd4c3e66256ce4"

XSALSA20 = (
    StreamVector(
        key=NACL_FIRSTKEY,
        nonce=NACL_NONCE,
        blocks={
            # bytes 0-31 are NaCl's stream3 output
            0: "eea6a7251c1e72916d11c2cb214d3c252539121d8e234e652d651fa4c8cff880"
               "309e645a74e9e0a60d8243acd9177ab51a1beb8d5a2f5d700c093c5e55855796",
            1023: "f3c735226873df11d9781cd17ab487f07b74a7435e631ee4339bc1c1389f8669"
                  "6c76fe8a6166a792dab9a74ccb5484914369ee7cf86f44df1dfd025df99da870",
            1024: "1a6f7457c3a90b2e7d02747634271eded9279b8ce184f05e5512ea182d0a3365"
                  "039441e3abebb53a10589118dce09981eb850924fbf188935b8ffea360a14275",
            2**32 - 1: "b46af0bf761b78533e01a0dd7e07216c9710ef35f09a28d1e5fa469b602472ca"
                       "5085f6dbcc6a6b51fb89986f8feca85658d05701f5677d0bb340a1f2c7695472",
            2**32: "19f5420c62ffff7d1304dad82b6dec2bdc59ec12a9e18a774eed128c2c90610a"
                   "9d4c75c0817d64817a76bbc12746971ae897af210a072c1bc9fb044e086b7bfe",
        },
    ),
    StreamVector(
        key="eb4aff1b91c0191e90ef1c62cfc325f93b04eaed3118e3fdad040cdec5d9ab16",
        nonce="0328c537a7adc8875f916b0da71904dec96ab6ec3a63c345",
        blocks={
            0: "6601b85c679d9f38022ad567f0cbd4fac8277ebe50b27f910c9ec0b04199be7d"
               "da32b6b607783a7b88e36c10cdcfdbd83122dfe16da828d089365b6dcd41c696",
            1: "7d95d461b55e2073fc83a3fa3906bd0b0656a19bd7905aa41356e9c318eb333a"
               "782ef1e58618e54aeaf2d45612f53acde383c106886f675e9ad0410d08dcf94b",
            7: "ad1c6e3e6954f37128c54f44db731e38d03281f6fbeaab2e2ab14c42661f2d52"
               "8300b8a3f9ce56209a4ee7f0fef5ec2a56357ee0b04191980d1efb656e2d09e7",
            1023: "657e274a0e02f38f3abf42052a5d435abf1f2d67740d4ffc553c15f077d25db9"
                  "826f137618f219e5d8dc0f086c945982a6d022032a07b1d2434e15632a0474e5",
            1024: "83031311592c8bca766b31f1eb5271103aeb3387a87eccb60e7d39deda306c59"
                  "2b35071caacf80db3696939acef44071654f7da4b8fca1b2aeb30e32a5ef43a9",
        },
    ),
)

#: (key, 16-byte input, rounds, 32-byte output), hex
HSALSA20 = (
    (NACL_SHARED, "00" * 16, 20, NACL_FIRSTKEY),
    (NACL_FIRSTKEY, NACL_NONCE[:32], 20, NACL_SECONDKEY),
    ("2e4a765ab976a77f7df2bbd467ccc37ea88afb2c4aec5d219cabc3cae5b90255",
     "1b36be8154cb9d6551400b008c992404", 20,
     "4d77d1d764d71eb48328959df772525855c706df33aa1a462253b15508578b23"),
)

#: The XSalsa20 vectors HSALSA20 has the subkey of, as Salsa20 vectors (the
#: subkey and the nonce's last 8 bytes): the NaCl stream's blocks, across
#: the counter carry at 2^32 too.
XSALSA20_AS_SALSA20 = through_subkeys(XSALSA20, HSALSA20)
