"""What several RFC 8439 test vectors share, written once for
``vectors_chacha``, ``vectors_poly1305`` and ``vectors_aead``: the texts
they encrypt or authenticate, and the key of A.2 #3, A.3 #4 and A.5.
"""

#: Section 2.4.2 (ChaCha20) and 2.8.2 (ChaCha20-Poly1305); the XChaCha
#: draft's AEAD example A.3.1 too.
SUNSCREEN = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one "
             b"tip for the future, sunscreen would be it.")

#: Appendix A.2 #2 (ChaCha20), A.3 #2 and #3 (Poly1305).
IETF_CONTRIBUTION = (
    b"Any submission to the IETF intended by the Contributor for publication as all or "
    b"part of an IETF Internet-Draft or RFC and any statement made within the context "
    b"of an IETF activity is considered an \"IETF Contribution\". Such statements include "
    b"oral statements in IETF sessions, as well as written and electronic communications "
    b"made at any time or place, which are addressed to")

#: Appendix A.2 #3 (ChaCha20) and A.3 #4 (Poly1305).
JABBERWOCKY = (b"'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\n"
               b"All mimsy were the borogoves,\nAnd the mome raths outgrabe.")

#: The key of Appendix A.2 #3 (ChaCha20), A.3 #4 (Poly1305) and A.5
#: (ChaCha20-Poly1305), hex.
KEY_A2_3 = "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"
