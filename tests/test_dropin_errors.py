"""Drop-ins keep the caller's code working (issue 22): a forgery from a
class that borrows cryptography's or PyNaCl's name is caught by an unchanged
``except InvalidTag`` / ``except nacl.exceptions.CryptoError`` (and still by
``except gcrylike.AuthenticationFailed``, never by ``except ValueError``),
neither library is imported by ``import gcrylike``; ``Adiantum.generate_key``;
IV length errors that read "must be 8, 12 or 16 bytes"."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys

import pytest

import gcrylike

InvalidTag = pytest.importorskip("cryptography.exceptions").InvalidTag
CryptoError = pytest.importorskip("nacl.exceptions").CryptoError

KEY = bytes(range(32))
AEADS = [(gcrylike.ChaCha20Poly1305, 12), (gcrylike.XChaCha20Poly1305, 24)]


def _forged(cls, nlen):
    box = cls(KEY)
    nonce = bytes(nlen)
    ct = bytearray(box.encrypt(nonce, b"attack at dawn", b"hdr"))
    ct[-1] ^= 1
    return box, nonce, bytes(ct)


def _check_family(err, borrowed):
    """``err`` is an AuthenticationFailed (code CHECKSUM), ``borrowed`` and
    no ValueError; printed and named as gcrylike's."""
    assert isinstance(err, gcrylike.AuthenticationFailed) and isinstance(err, borrowed)
    assert isinstance(err, gcrylike.GcryError) and not isinstance(err, ValueError)
    assert err.code == gcrylike.ErrorCode.CHECKSUM and str(err).endswith(" [CHECKSUM]")
    assert type(err).__name__ == "AuthenticationFailed"
    assert repr(err).startswith("AuthenticationFailed(")


def _decrypts(box, nonce, ct):
    """The ways to open ``ct``: decrypt and decrypt_into."""
    return {
        "decrypt": lambda: box.decrypt(nonce, ct, b"hdr"),
        "decrypt_into": lambda: box.decrypt_into(nonce, ct, b"hdr", bytearray(len(ct) - 16)),
    }


@pytest.mark.parametrize("cls,nlen", AEADS, ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("how", ["decrypt", "decrypt_into"])
def test_forged_aead_is_caught_by_except_invalid_tag(cls, nlen, how):
    box, nonce, ct = _forged(cls, nlen)
    call = _decrypts(box, nonce, ct)[how]
    try:
        call()
    except ValueError:
        pytest.fail("a forgery was caught as a ValueError")
    except InvalidTag as exc:
        _check_family(exc, InvalidTag)
    else:
        pytest.fail("no error")
    with pytest.raises(gcrylike.AuthenticationFailed):
        call()


@pytest.mark.parametrize("cls,nlen", AEADS, ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("impl", ["general", "fast"])
def test_every_aead_path_raises_invalid_tag(cls, nlen, impl):
    """The truncated input (shorter than the tag) and both call paths: the
    native fast path and the general cffi one (a fresh handle's first call
    may take either; force the general one through the method it falls
    back to)."""
    box, nonce, ct = _forged(cls, nlen)
    opener = box.decrypt if impl == "fast" else box._general_open
    for data in (ct, ct[:15], b""):
        with pytest.raises(InvalidTag) as info:
            opener(nonce, data, b"hdr")
        _check_family(info.value, InvalidTag)


def test_a_nonce_error_is_no_forgery():
    box = gcrylike.ChaCha20Poly1305(KEY)
    with pytest.raises(gcrylike.InvalidIVLength) as info:
        box.decrypt(bytes(11), bytes(32), None)
    assert not isinstance(info.value, InvalidTag)


def _secretbox_forgeries():
    box = gcrylike.SecretBox(KEY)
    msg = box.encrypt(b"attack at dawn", bytes(24))
    bad = bytearray(msg)
    bad[-1] ^= 1
    return box, {
        "forged": lambda: box.decrypt(bytes(bad)),
        "forged box": lambda: box.decrypt(bytes(bad[24:]), bytes(24)),
        "truncated": lambda: box.decrypt(msg[:30]),  # shorter than nonce + tag
        "shorter than the nonce": lambda: box.decrypt(msg[:10]),
        "truncated box": lambda: box.decrypt(msg[24:30], bytes(24)),
        "general path": lambda: box._oneshot(1, bytes(24), bytes(bad[24:]), None, None),
    }


@pytest.mark.parametrize("case", list(_secretbox_forgeries()[1]))
def test_forged_secretbox_is_caught_by_except_crypto_error(case):
    call = _secretbox_forgeries()[1][case]
    try:
        call()
    except ValueError:
        pytest.fail("a forgery was caught as a ValueError")
    except CryptoError as exc:
        _check_family(exc, CryptoError)
        assert not isinstance(exc, InvalidTag)
    else:
        pytest.fail("no error")
    with pytest.raises(gcrylike.AuthenticationFailed):
        call()


def test_other_forgeries_stay_plain():
    """Classes that borrow no name raise plain AuthenticationFailed."""
    h = gcrylike.cipher_open("chacha20", "poly1305")
    h.setkey(KEY)
    h.setiv(bytes(12))
    h.encrypt(b"data")
    with pytest.raises(gcrylike.AuthenticationFailed) as info:
        h.checktag(bytes(16))
    assert type(info.value) is gcrylike.AuthenticationFailed


def test_one_class_per_library_pickled_and_copied():
    box, nonce, ct = _forged(gcrylike.ChaCha20Poly1305, 12)
    errors = []
    for _ in range(2):
        with pytest.raises(InvalidTag) as info:
            box.decrypt(nonce, ct, b"hdr")
        errors.append(info.value)
    x_box, x_nonce, x_ct = _forged(gcrylike.XChaCha20Poly1305, 24)
    with pytest.raises(InvalidTag) as info:
        x_box.decrypt(x_nonce, x_ct, b"hdr")
    errors.append(info.value)
    assert len({type(e) for e in errors}) == 1  # built once
    err = errors[0]
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is type(err) and again.args == err.args and str(again) == str(err)
    assert again.code == gcrylike.ErrorCode.CHECKSUM
    nacl_err = pytest.raises(CryptoError, _secretbox_forgeries()[1]["forged"]).value
    assert type(nacl_err) is not type(err)
    assert type(pickle.loads(pickle.dumps(nacl_err))) is type(nacl_err)


def _child(code: str) -> str:
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


_FORGE = """
box = gcrylike.{cls}(bytes(32))
try:
    box.decrypt({args})
except gcrylike.AuthenticationFailed as exc:
    err = exc
"""


def test_import_gcrylike_imports_neither_library():
    code = ("import sys, gcrylike\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('cryptography', 'nacl')))\n"
            + _FORGE.format(cls="SecretBox", args="bytes(40)")
            + "print('nacl' in sys.modules, 'cryptography' in sys.modules)\n"
            + _FORGE.format(cls="ChaCha20Poly1305", args="bytes(12), bytes(16), None")
            + "print('cryptography' in sys.modules)\n")
    assert _child(code).splitlines() == ["[]", "True False", "True"]


def test_without_the_library_plain_authentication_failed():
    # None in sys.modules makes the import fail, as if not installed
    code = ("import sys\n"
            "sys.modules['cryptography'] = sys.modules['nacl'] = None\n"
            "import gcrylike, pickle\n"
            + _FORGE.format(cls="ChaCha20Poly1305", args="bytes(12), bytes(16), None")
            + "print(type(err) is gcrylike.AuthenticationFailed)\n"
            + _FORGE.format(cls="SecretBox", args="bytes(10)")
            + "print(type(err) is gcrylike.AuthenticationFailed)\n"
            + "print(type(pickle.loads(pickle.dumps(err))) is gcrylike.AuthenticationFailed)\n")
    assert _child(code).splitlines() == ["True", "True", "True"]


def test_a_forgery_pickled_with_the_library_unpickles_without_it():
    box, nonce, ct = _forged(gcrylike.ChaCha20Poly1305, 12)
    err = pytest.raises(InvalidTag, box.decrypt, nonce, ct, b"hdr").value
    blob = pickle.dumps(err)
    code = ("import sys, pickle\n"
            "sys.modules['cryptography'] = None\n"
            "import gcrylike\n"
            f"err = pickle.loads({blob!r})\n"
            "print(type(err) is gcrylike.AuthenticationFailed, err)\n")
    assert _child(code) == f"True {err}"


# == Adiantum.generate_key ==========================================================

def test_adiantum_generate_key():
    keys = {gcrylike.Adiantum.generate_key() for _ in range(8)}
    assert len(keys) == 8 and all(type(k) is bytes and len(k) == 32 for k in keys)
    assert len(set(b"".join(keys))) > 64  # random bytes, not a pattern
    for variant in ("xchacha12", "xchacha20"):
        key = gcrylike.Adiantum.generate_key()
        with gcrylike.Adiantum(key, variant) as adi:
            assert adi.decrypt(adi.encrypt(bytes(32), b"t"), b"t") == bytes(32)


# == IV length messages =============================================================

def test_iv_error_lists_the_sizes():
    with gcrylike.cipher_open("chacha20") as h:
        h.setkey(KEY)
        with pytest.raises(gcrylike.InvalidIVLength) as info:
            h.setiv(bytes(9))
    assert "IV must be 8, 12 or 16 bytes, got 9" in str(info.value)


def test_two_and_one_sizes_read_as_before():
    with gcrylike.cipher_open("salsa20") as h:
        with pytest.raises(gcrylike.InvalidKeyLength, match="key must be 16 or 32 bytes, got 9"):
            h.setkey(bytes(9))
        h.setkey(KEY)
        with pytest.raises(gcrylike.InvalidIVLength, match="IV must be 8 bytes, got 9"):
            h.setiv(bytes(9))
