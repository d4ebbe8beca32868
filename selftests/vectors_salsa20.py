"""Salsa20 and Salsa20/12 known answers: the self-tests and the native check
of the assembly (tests/asmcheck/vectors.py) read them from here.

Keystream blocks at block counters 0, 1023 and 1024 from the Adiantum
authors' test vectors (google/adiantum ``test_vectors/ours/Salsa20``, MIT
licence, "Random ( 1)" of each file), plus eSTREAM's Set 1 vector 0 (key
80 00 .. 00, zero IV) for both key sizes; tests/test_known_answers.py checks
them against the copies of those files in tests/vectors/.
"""

from .vector_types import StreamVector

# "Random ( 1)" of the 32- and of the 16-byte-key files: one key and nonce
# for Salsa20/20 and Salsa20/12
_KEY32 = "bb46d11f8c91035334e5259c8104211c3b295461ee7a79a775f102e9b3aed61a"
_NONCE32 = "43715a0da0dd6096"
_KEY16 = "0e1cac747a2c4d4aca96dfbd0a97e5c4"
_NONCE16 = "c59d134767c56c35"

VECTORS = (
    StreamVector(
        rounds=20,
        key=_KEY32,
        nonce=_NONCE32,
        blocks={
            0: "44377a2eea4da99561c41e14a06da57233ebb67b48dccba23f6d6cb03623a0c1"
                "bb8feb9d44ada14a6f2e6919d60dc6c93bdf7cd800440c09f20f240d939b0606",
            1023: "df365cdcafee07dacb7a68d0d797ca16b665a721add75719f0b696aee46e646b"
                "0c60b116df9d4e84afe5363e9f18590ab07d7661ceea47f158d738ffc927d9b1",
            1024: "34bb7a143743fdceb1cecdf9bb9bd5125c0cd28b768cad9cbabc0909cdad0c0c"
                "58865640e9c24aad4b574db33b85065c15facaee98a257d60a0656095344aae1",
        },
    ),
    StreamVector(
        rounds=20,
        key=_KEY16,
        nonce=_NONCE16,
        blocks={
            0: "ff42b1b0e41969f8f37ab358aa9435d9d185dc9e0e06ba3e49b09aeae31a7e59"
                "ddf30f053946d8bdefbb55190c87c58408c71fce813e65a88a926cfa4933a3e1",
            1023: "ebd055173d12daca43277a170938042ae8ebbb55b3aa96364c57a76f5c686265"
                "d5e6efbe11fc8bda59da0689eb1fa4f057778c53013972be1d9fd6285cdc1e95",
            1024: "a3580a24f5086ddf482011ebce27ead3f79b433f261bc57a59cc46e628472360"
                "894ecf19d0da0904966a45a87fb80bccd11f9211a27afc1dc23ae8810dbf7ff7",
        },
    ),
    StreamVector(
        rounds=12,
        key=_KEY32,
        nonce=_NONCE32,
        blocks={
            0: "c3310214890830c002b1eb34da3c37d2767ba2cb11a9f9cdf0eccb202d30003a"
                "075060222d15a7293ec4d0961a465da70a7b13215ba4ad4e8a8dc2f39bbdc6c6",
            1023: "27d83e2ab786f420eb0c34da17ed95cd828242bf08ef56ef5f68d55c6f0e4a76"
                "b27cf32abcf4b98483bb7fe242953c044e2714fb6afafaf56e849ff68ae584eb",
            1024: "19361448fbd6ef14cbe8592220e6e5000b5e10d4a730b1a0ae60a4b2c4090321"
                "748c38d7dae03c1848b9aa5bdda518a404a6f6dde3bde0db195edb92268af827",
        },
    ),
    StreamVector(
        rounds=12,
        key=_KEY16,
        nonce=_NONCE16,
        blocks={
            0: "d6d6febb894c7fdaa175c15d0f0dca1216ba0779482e16df55b36b31214fc451"
                "2359a63f51d504fad6328a1a10be40f5b038ebf525ff3bb995dc725497510065",
            1023: "79eb67d74bd3e8270dc1ca4d79237839a6007dd8d2abc3563fe892a8d4be914d"
                "045d7d4d5c712ce90fa36ef3084990f7b60bbdfe56a2d15d5b5bad5dde113754",
            1024: "0dff238f651c0f1dd089a6a59e2a9b856be27849dbfb2c14541cca406a573e90"
                "1c477a9de7b38cc388f8573d2e9c9ce807a801944ce42c0b09e65d5fff9de73d",
        },
    ),
    # eSTREAM verified.test-vectors, Set 1 vector# 0, 256-bit and 128-bit keys
    StreamVector(
        rounds=20,
        key="80" + "00" * 31,
        nonce="00" * 8,
        blocks={
            0: "e3be8fdd8beca2e3ea8ef9475b29a6e7003951e1097a5c38d23b7a5fad9f6844"
               "b22c97559e2723c7cbbd3fe4fc8d9a0744652a83e72a9c461876af4d7ef1a117",
        },
    ),
    StreamVector(
        rounds=20,
        key="80" + "00" * 15,
        nonce="00" * 8,
        blocks={
            0: "4dfa5e481da23ea09a31022050859936da52fcee218005164f267cb65f5cfd7f"
               "2b4f97e0ff16924a52df269515110a07f9e460bc65ef95da58f740b7d1dbb0aa",
        },
    ),
)
