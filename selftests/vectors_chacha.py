"""ChaCha, XChaCha and HChaCha known answers for the self-tests.

- RFC 8439 section 2.3.2 (block function, 12-byte nonce, counter 1) and
  Appendix A.1 test vector #1 (all-zero key and nonce).
- XChaCha20 and XChaCha12: "Random ( 1)" of google/adiantum
  ``test_vectors/ours/XChaCha`` (MIT licence), keystream blocks at counters
  0, 1023 and 1024.
- ChaCha20 with an 8-byte nonce at counters 1023 and 1024: the same
  XChaCha20 vector seen through its HChaCha20 subkey (subkey computed with
  pycryptodome's HChaCha20 and the blocks checked with its ChaCha20).
- ChaCha12 with an 8-byte nonce: the XChaCha12 vector through its HChaCha12
  subkey (derived with our portable C; the XChaCha12 vector itself checks
  HChaCha12 on every implementation).
- HChaCha20: draft-irtf-cfrg-xchacha-03 section 2.2.1.
"""

from .runner import StreamVector

CHACHA20 = (
    StreamVector(
        key="000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        nonce="000000090000004a00000000",
        blocks={
            1: "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
               "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
        },
    ),
    StreamVector(
        key="00" * 32,
        nonce="00" * 8,
        blocks={
            0: "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
               "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
        },
    ),
    StreamVector(
        key="a879154f9c6e59f0ba4f760cba4ccbfb962a0fedd7ef9ef81d1244a098988d46",
        nonce="93ca92cdadee0259",
        blocks={
            1023: "5f0b9d82eaa125cc7e1474332c36a94f8088585bf58a733b1441c54fc9f990aa"
               "3376b76c5684aae01f5ff4387b109fbff14d1f57e72a2c42c27ae00528acc15d",
            1024: "43d0a6090c841528eb7b0184a92e0a4572a49a9c3d0a200b2bd9ce3668dd2ffb"
               "4c64d5d6e6f4e1595e9de72d1ca3001f8d46524dd59ccfd2b31bb21f8e88237c",
        },
    ),
)

# The XChaCha12 vector below through its HChaCha12 subkey (8-byte nonce).
CHACHA12 = (
    StreamVector(
        rounds=12,
        key="d5f12ed8ab375b7cee51aa566dd5705e3a2862dca1e33259cbf6ffd8c4f269c4",
        nonce="93ca92cdadee0259",
        blocks={
            1023: "07d98990c16dd949ca3f3361099fa5d76b0adee980d2a2f4aa6d45edfdf5ff5b"
               "809c52d9ed44fa94650facd14a5983101b31fedf372f1bb0843fca725ca5d5f4",
            1024: "3b1a991fd13854f92400dc9df0183c03b0a7c810df4f5dce36371ad0960160e9"
               "5e2ac651822069ead0666f293854be57f222cd347a489c0ac379095715a8d417",
        },
    ),
)

XCHACHA20 = (
    StreamVector(
        key="8266851ec38621074f6f9e445e194d40147880fc21281e315d0b32dee24d8a1e",
        nonce="c7cfe494e56c8f8cdf2c69a53e9e595393ca92cdadee0259",
        blocks={
            0: "c6f639eb103120123ee20b6fc4aaf316072b71d90a9384252164725113634663"
               "d4c685361dd5ba0510815e15c2e1a930a642ff04b90862816d727c19a145dae1",
            1023: "5f0b9d82eaa125cc7e1474332c36a94f8088585bf58a733b1441c54fc9f990aa"
               "3376b76c5684aae01f5ff4387b109fbff14d1f57e72a2c42c27ae00528acc15d",
            1024: "43d0a6090c841528eb7b0184a92e0a4572a49a9c3d0a200b2bd9ce3668dd2ffb"
               "4c64d5d6e6f4e1595e9de72d1ca3001f8d46524dd59ccfd2b31bb21f8e88237c",
        },
    ),
)

XCHACHA12 = (
    StreamVector(
        rounds=12,
        key="8266851ec38621074f6f9e445e194d40147880fc21281e315d0b32dee24d8a1e",
        nonce="c7cfe494e56c8f8cdf2c69a53e9e595393ca92cdadee0259",
        blocks={
            0: "e3a9ae210654bb5a0ae7a15c85b53e9abb0cf950e2f09789c5093562b0ffecdb"
               "2dac3aa06c90e6ac989ba24d78a96063991dbe8fe13426712cd74e28335c66a4",
            1023: "07d98990c16dd949ca3f3361099fa5d76b0adee980d2a2f4aa6d45edfdf5ff5b"
               "809c52d9ed44fa94650facd14a5983101b31fedf372f1bb0843fca725ca5d5f4",
            1024: "3b1a991fd13854f92400dc9df0183c03b0a7c810df4f5dce36371ad0960160e9"
               "5e2ac651822069ead0666f293854be57f222cd347a489c0ac379095715a8d417",
        },
    ),
)

# (key, 16-byte input, rounds, 32-byte output)
HCHACHA = (
    ("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "000000090000004a0000000031415927", 20,
     "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc"),
)
