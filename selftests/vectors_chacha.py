"""ChaCha, XChaCha and HChaCha known answers: the self-tests, the test suite
(tests/test_chacha.py, test_aead.py) and the native check of the assembly
(tests/asmcheck/vectors.py) read them from here.

- RFC 8439 section 2.3.2 and Appendix A.1 #1-#5 (block function, 12-byte
  nonce), section 2.4.2 and Appendix A.2 #1-#3 (encryption).
- XChaCha20 and XChaCha12: "Random ( 1)" of google/adiantum
  ``test_vectors/ours/XChaCha`` (MIT licence), keystream blocks at counters
  0, 1023 and 1024 (tests/test_known_answers.py checks them against the
  copies of those files in tests/vectors/adiantum/).
- ChaCha20 and ChaCha12 with an 8-byte nonce: those XChaCha vectors seen
  through their HChaCha subkeys (:func:`~.vector_types.through_subkeys`;
  subkey computed with pycryptodome's HChaCha20, and with our portable C
  for HChaCha12; the XChaCha vectors themselves check both subkeys on
  every implementation).
- HChaCha20: draft-irtf-cfrg-xchacha-03 section 2.2.1; XChaCha20:
  its Appendix A.3.2.
"""

from .rfc8439 import IETF_CONTRIBUTION, JABBERWOCKY, KEY_A2_3, SUNSCREEN
from .vector_types import EncryptionVector, StreamVector, through_subkeys

_KEY_00_1F = bytes(range(32)).hex()
_ZERO_KEY = "00" * 32
_ZERO_NONCE = "00" * 12
_KEY_LAST_01 = "00" * 31 + "01"
_NONCE_LAST_02 = "00" * 11 + "02"

#: RFC 8439 section 2.3.2 and Appendix A.1, by their names in the RFC.
RFC8439_BLOCKS = {
    "2.3.2": StreamVector(
        key=_KEY_00_1F,
        nonce="000000090000004a00000000",
        blocks={
            1: "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
               "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
        },
    ),
    "A.1 #1": StreamVector(
        key=_ZERO_KEY,
        nonce=_ZERO_NONCE,
        blocks={
            0: "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
               "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
        },
    ),
    "A.1 #2": StreamVector(
        key=_ZERO_KEY,
        nonce=_ZERO_NONCE,
        blocks={
            1: "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
               "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f",
        },
    ),
    "A.1 #3": StreamVector(
        key=_KEY_LAST_01,
        nonce=_ZERO_NONCE,
        blocks={
            1: "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a"
               "8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0",
        },
    ),
    "A.1 #4": StreamVector(
        key="00ff" + "00" * 30,
        nonce=_ZERO_NONCE,
        blocks={
            2: "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca"
               "13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096",
        },
    ),
    "A.1 #5": StreamVector(
        key=_ZERO_KEY,
        nonce=_NONCE_LAST_02,
        blocks={
            0: "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7"
               "8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d",
        },
    ),
}

#: RFC 8439 section 2.4.2 and Appendix A.2, by their names in the RFC.
RFC8439_ENCRYPTIONS = {
    "2.4.2": EncryptionVector(
        key=_KEY_00_1F,
        nonce="000000000000004a00000000",
        counter=1,
        plaintext=SUNSCREEN,
        ciphertext="6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
                   "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
                   "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
                   "5af90bbf74a35be6b40b8eedf2785e42874d",
    ),
    # 64 zero bytes: the ciphertext is A.1 #1's keystream block
    "A.2 #1": EncryptionVector(
        key=_ZERO_KEY,
        nonce=_ZERO_NONCE,
        counter=0,
        plaintext=bytes(64),
        ciphertext=RFC8439_BLOCKS["A.1 #1"].blocks[0],
    ),
    "A.2 #2": EncryptionVector(
        key=_KEY_LAST_01,
        nonce=_NONCE_LAST_02,
        counter=1,
        plaintext=IETF_CONTRIBUTION,
        ciphertext="a3fbf07df3fa2fde4f376ca23e82737041605d9f4f4f57bd8cff2c1d4b7955ec"
                   "2a97948bd3722915c8f3d337f7d370050e9e96d647b7c39f56e031ca5eb6250d"
                   "4042e02785ececfa4b4bb5e8ead0440e20b6e8db09d881a7c6132f420e527950"
                   "42bdfa7773d8a9051447b3291ce1411c680465552aa6c405b7764d5e87bea85a"
                   "d00f8449ed8f72d0d662ab052691ca66424bc86d2df80ea41f43abf937d3259d"
                   "c4b2d0dfb48a6c9139ddd7f76966e928e635553ba76c5c879d7b35d49eb2e62b"
                   "0871cdac638939e25e8a1e0ef9d5280fa8ca328b351c3c765989cbcf3daa8b6c"
                   "cc3aaf9f3979c92b3720fc88dc95ed84a1be059c6499b9fda236e7e818b04b0b"
                   "c39c1e876b193bfe5569753f88128cc08aaa9b63d1a16f80ef2554d7189c411f"
                   "5869ca52c5b83fa36ff216b9c1d30062bebcfd2dc5bce0911934fda79a86f6e6"
                   "98ced759c3ff9b6477338f3da4f9cd8514ea9982ccafb341b2384dd902f3d1ab"
                   "7ac61dd29c6f21ba5b862f3730e37cfdc4fd806c22f221",
    ),
    "A.2 #3": EncryptionVector(
        key=KEY_A2_3,
        nonce=_NONCE_LAST_02,
        counter=42,
        plaintext=JABBERWOCKY,
        ciphertext="62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf"
                   "166d3df2d721caf9b21e5fb14c616871fd84c54f9d65b283196c7fe4f60553eb"
                   "f39c6402c42234e32a356b3e764312a61a5532055716ead6962568f87d3f3f77"
                   "04c6a8d1bcd1bf4d50d6154b6da731b187b58dfd728afa36757a797ac188d1",
    ),
}

# "Random ( 1)" of google/adiantum's XChaCha20 and XChaCha12 files: one key
# and nonce for both
_ADIANTUM_KEY = "8266851ec38621074f6f9e445e194d40147880fc21281e315d0b32dee24d8a1e"
_ADIANTUM_NONCE = "c7cfe494e56c8f8cdf2c69a53e9e595393ca92cdadee0259"

XCHACHA20 = (
    StreamVector(
        key=_ADIANTUM_KEY,
        nonce=_ADIANTUM_NONCE,
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
        key=_ADIANTUM_KEY,
        nonce=_ADIANTUM_NONCE,
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

#: (key, 16-byte input, rounds, 32-byte output), hex: the draft's section
#: 2.2.1, then the HChaCha20 and HChaCha12 subkeys of the XChaCha vectors.
HCHACHA = (
    (_KEY_00_1F, "000000090000004a0000000031415927", 20,
     "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc"),
    (_ADIANTUM_KEY, _ADIANTUM_NONCE[:32], 20,
     "a879154f9c6e59f0ba4f760cba4ccbfb962a0fedd7ef9ef81d1244a098988d46"),
    (_ADIANTUM_KEY, _ADIANTUM_NONCE[:32], 12,
     "d5f12ed8ab375b7cee51aa566dd5705e3a2862dca1e33259cbf6ffd8c4f269c4"),
)

CHACHA20 = (*RFC8439_BLOCKS.values(), *through_subkeys(XCHACHA20, HCHACHA))
CHACHA12 = through_subkeys(XCHACHA12, HCHACHA)

_DHOLE = (b'The dhole (pronounced "dole") is also known as the Asiatic wild dog, red dog, '
          b"and whistling dog. It is about the size of a German shepherd but looks more like "
          b"a long-legged fox. This highly elusive and skilled jumper is classified with "
          b"wolves, coyotes, jackals, and foxes in the taxonomic family Canidae.")

#: draft-irtf-cfrg-xchacha-03 Appendix A.3.2.  As published the nonce ends
#: in ...55 56 58 (there is no 57), and the ciphertext starts at keystream
#: block 1 (the AEAD convention: block 0 is the Poly1305 key).
XCHACHA20_DRAFT = EncryptionVector(
    key=bytes(range(0x80, 0xA0)).hex(),
    nonce="404142434445464748494a4b4c4d4e4f5051525354555658",
    counter=1,
    plaintext=_DHOLE,
    ciphertext="7d0a2e6b7f7c65a236542630294e063b7ab9b555a5d5149aa21e4ae1e4fbce87"
               "ecc8e08a8b5e350abe622b2ffa617b202cfad72032a3037e76ffdcdc4376ee05"
               "3a190d7e46ca1de04144850381b9cb29f051915386b8a710b8ac4d027b8b050f"
               "7cba5854e028d564e453b8a968824173fc16488b8970cac828f11ae53cabd201"
               "12f87107df24ee6183d2274fe4c8b1485534ef2c5fbc1ec24bfc3663efaa08bc"
               "047d29d25043532db8391a8a3d776bf4372a6955827ccb0cdd4af403a7ce4c63"
               "d595c75a43e045f0cce1f29c8b93bd65afc5974922f214a40b7c402cdb91ae73"
               "c0b63615cdad0480680f16515a7ace9d39236464328a37743ffc28f4ddb324f4"
               "d0f5bbdc270c65b1749a6efff1fbaa09536175ccd29fb9e6057b307320d31683"
               "8a9c71f70b5b5907a66f7ea49aadc409",
)
