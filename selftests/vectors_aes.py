"""AES-256 known answers: the self-tests, the test suite (tests/test_aes.py)
and the native check of the assembly (tests/asmcheck/vectors.py) read them from
here.

FIPS-197 Appendix C.3, and 19 blocks (so the eight- and four-block AES-NI
paths and the bitsliced four-block groups meet a known answer) whose
ciphertext was computed with OpenSSL through ``cryptography``.
"""

KEY = bytes(range(32))
FIPS197_C3 = ("00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089")
MULTI_PLAIN = bytes((i * 29 + 7) & 0xFF for i in range(16 * 19))
MULTI_CIPHER = (
    "31c91512759c3d33144e8f3de6422a4624f3971386a3c73235d67dacdc0c7b7e"
    "824b3d57616a5d86105d8b4bda430bc4923ad43cf06704b5631c630830fc6835"
    "961f852c52e34b500eefb7b443e1cbd2db57b101bbd80fae9a898f000dfb1136"
    "4793667c0e7ba81a4950e782e7f355796d478da867895063ee31555b0745b82c"
    "39dae6a83e574805be23e565643c8919ffc964cb2467ef053846f73ed5785a43"
    "0b06a4ad3c19b4e90c749e25ed92ab14484da9c9d3d058afa7e14814bd7bf8ad"
    "1783d75ed675078d23a511c8b719156c85b63747e857918f342ff53a994a0949"
    "92d3fada741f928eb4f851057cab0387e453dfe82ad362eb9bf3312e8d2d10cc"
    "31c91512759c3d33144e8f3de6422a4624f3971386a3c73235d67dacdc0c7b7e"
    "824b3d57616a5d86105d8b4bda430bc4"
)
