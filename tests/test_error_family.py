"""One error family, one type per cause: every public entry point, driven
with a battery of bad arguments, raises only GcryError subclasses (each also
the builtin a caller would catch), and the type depends on the cause, not on
which kind of buffer carried it."""

from __future__ import annotations

import array
import ctypes
import pickle

import pytest

import gcrylike

try:  # numpy's buffers raise other exceptions than memoryview's: both must map alike
    import numpy as np
except ImportError:  # the tox envs install it; without it those cases drop out
    np = None


class Weird:
    """An object no entry point knows."""

    def __index__(self):  # an int in disguise, nowhere accepted
        raise RuntimeError("never called")


def _readonly_array():
    if np is None:
        return memoryview(bytes(64))
    a = np.zeros(64, dtype=np.uint8)
    a.flags.writeable = False
    return a


def _strided_array(n=64):
    if np is None:
        return memoryview(bytearray(n))[::2]
    return np.zeros(n, dtype=np.uint8)[::2]


BAD = [
    None, True, 1.5, -1, 0, 5, 2**32, 2**64 + 16, 2**200, -(2**70), "x", "chacha20" * 40,
    "", b"", bytes(1), bytes(33), bytes(4097), bytearray(7), [], [1, 2], {}, {"a": 1},
    object(), Weird(), memoryview(bytes(64))[::2], _strided_array(),
    memoryview(bytearray(16)), memoryview(bytearray(64))[::2],  # unhashable: hash raises
    _readonly_array(), array.array("I", [1, 2, 3]),
    (ctypes.c_uint8 * 16)(), float("nan"), 1j, range(3), b"\xff" * 16,
]
if np is not None:
    BAD.append(np.zeros((4, 4), dtype=np.uint32))
BAD_IDS = [f"{type(v).__name__}{i}" for i, v in enumerate(BAD)]


def only_gcry_errors(call, *args, **kwargs):
    """Run ``call``; any exception must be a GcryError (and so a builtin too)."""
    try:
        call(*args, **kwargs)
    except gcrylike.GcryError as exc:
        assert type(exc) is not gcrylike.GcryError, exc  # a subclass, by cause
        assert isinstance(exc, (TypeError, ValueError, ArithmeticError, LookupError,
                                RuntimeError, gcrylike.AuthenticationFailed)), exc
        return exc
    return None


def _stream():
    h = gcrylike.cipher_open("chacha20")
    h.setkey(bytes(32))
    h.setiv(bytes(12))
    return h


def _xstream():
    h = gcrylike.cipher_open("xsalsa20")
    h.setkey(bytes(32))
    h.setiv(bytes(24))
    return h


def _mac():
    h = gcrylike.mac_open("poly1305")
    h.setkey(bytes(range(32)))
    return h


def _aead():
    h = gcrylike.cipher_open("chacha20", mode="poly1305")
    h.setkey(bytes(32))
    h.setiv(bytes(12))
    return h


def _tweak():
    return gcrylike.Adiantum(bytes(32))


def _block():
    h = gcrylike.block_cipher_open("aes256")
    h.setkey(bytes(32))
    return h


# (name, callable factory, good positional args, keyword args tried)
ENTRY_POINTS = [
    ("implementations", lambda: gcrylike.implementations, ("chacha20",), {}),
    ("set_hwf_deny", lambda: gcrylike.set_hwf_deny, ("",), {}),
    ("hchacha", lambda: gcrylike.hchacha, (bytes(32), bytes(16)), {"rounds": 20, "impl": None}),
    ("hsalsa20", lambda: gcrylike.hsalsa20, (bytes(32), bytes(16)), {"rounds": 20, "impl": None}),
    ("cipher_open", lambda: gcrylike.cipher_open, ("chacha20",), {"impl": None, "mode": None}),
    ("mac_open", lambda: gcrylike.mac_open, ("poly1305",), {"impl": None}),
    ("mac", lambda: gcrylike.mac, ("poly1305", bytes(32), b"x"), {"impl": None}),
    ("block_cipher_open", lambda: gcrylike.block_cipher_open, ("aes256",), {"impl": None}),
    ("tweakable_open", lambda: gcrylike.tweakable_open, ("adiantum",), {"impl": None}),
    ("unregister", lambda: gcrylike.unregister, ("no-such-algorithm",), {}),
    ("register", lambda: gcrylike.register, (None,), {}),
    ("Context", lambda: gcrylike.Context, (64,), {}),
    ("ChaCha20Poly1305", lambda: gcrylike.ChaCha20Poly1305, (bytes(32),), {"impl": None}),
    ("XChaCha20Poly1305", lambda: gcrylike.XChaCha20Poly1305, (bytes(32),), {"impl": None}),
    ("SecretBox", lambda: gcrylike.SecretBox, (bytes(32),), {"impl": None, "encoder": None}),
    ("Adiantum", lambda: gcrylike.Adiantum, (bytes(32), "xchacha12"), {"impl": None}),
    ("stream.setkey", lambda: _stream().setkey, (bytes(32),), {}),
    ("stream.setiv", lambda: _stream().setiv, (bytes(12),), {}),
    ("xstream.setiv", lambda: _xstream().setiv, (bytes(24),), {}),
    ("stream.setctr", lambda: _stream().setctr, (1,), {}),
    ("xstream.setctr", lambda: _xstream().setctr, (1,), {}),
    ("stream.encrypt", lambda: _stream().encrypt, (b"data",), {"out": None}),
    ("stream.decrypt", lambda: _stream().decrypt, (b"data",), {"out": None}),
    ("mac.setkey", lambda: _mac().setkey, (bytes(32),), {}),
    ("mac.update", lambda: _mac().update, (b"x",), {}),
    ("mac.verify", lambda: _mac().verify, (bytes(16),), {}),
    ("aead.setkey", lambda: _aead().setkey, (bytes(32),), {}),
    ("aead.setiv", lambda: _aead().setiv, (bytes(12),), {}),
    ("aead.authenticate", lambda: _aead().authenticate, (b"ad",), {}),
    ("aead.encrypt", lambda: _aead().encrypt, (b"data",), {"out": None}),
    ("aead.decrypt", lambda: _aead().decrypt, (b"data",), {"out": None}),
    ("aead.checktag", lambda: _aead().checktag, (bytes(16),), {}),
    ("chacha20poly1305.encrypt", lambda: gcrylike.ChaCha20Poly1305(bytes(32)).encrypt,
     (bytes(12), b"data", b"ad"), {}),
    ("chacha20poly1305.decrypt", lambda: gcrylike.ChaCha20Poly1305(bytes(32)).decrypt,
     (bytes(12), bytes(40), b"ad"), {}),
    ("xchacha20poly1305.decrypt", lambda: gcrylike.XChaCha20Poly1305(bytes(32)).decrypt,
     (bytes(24), bytes(40), None), {}),
    ("secretbox.encrypt", lambda: gcrylike.SecretBox(bytes(32)).encrypt,
     (b"data", bytes(24)), {"encoder": None}),
    ("secretbox.decrypt", lambda: gcrylike.SecretBox(bytes(32)).decrypt,
     (bytes(40), bytes(24)), {"encoder": None}),
    ("secretbox.decrypt(message)", lambda: gcrylike.SecretBox(bytes(32)).decrypt,
     (bytes(64),), {}),
    ("tweakable.encrypt", lambda: _tweak().encrypt, (bytes(32), b"tw"), {"out": None}),
    ("tweakable.decrypt", lambda: _tweak().decrypt, (bytes(32), b"tw"), {"out": None}),
    ("tweakable.encrypt_sectors", lambda: _tweak().encrypt_sectors,
     (bytearray(4096), 7, 4096), {}),
    ("tweakable.decrypt_sectors", lambda: _tweak().decrypt_sectors,
     (bytearray(4096), 7, 4096), {}),
    ("block.encrypt_blocks", lambda: _block().encrypt_blocks, (bytes(32),), {"out": None}),
    ("block.decrypt_blocks", lambda: _block().decrypt_blocks, (bytes(32),), {"out": None}),
]


@pytest.fixture(autouse=True)
def _keep_deny_list():
    before = gcrylike.set_hwf_deny("")
    gcrylike.set_hwf_deny(before)
    yield
    gcrylike.set_hwf_deny(before)


@pytest.mark.parametrize("name,factory,good,keywords", ENTRY_POINTS,
                         ids=[e[0] for e in ENTRY_POINTS])
def test_bad_arguments_raise_only_gcry_errors(name, factory, good, keywords):
    """Each positional and keyword argument in turn gets every bad value
    (the others stay good): a GcryError or a result, nothing else."""
    raised = 0
    for i in range(len(good)):
        for bad in BAD:
            args = list(good)
            args[i] = bad
            raised += only_gcry_errors(factory(), *args) is not None
    for key in keywords:
        for bad in BAD:
            raised += only_gcry_errors(factory(), *good, **{key: bad}) is not None
    assert raised  # the battery did reach refusals


@pytest.mark.parametrize("value", [pytest.param(v, id=i)
                                   for v, i in zip(BAD, BAD_IDS, strict=True)])
def test_bad_out_buffers_raise_only_gcry_errors(value):
    for h in (_stream(), _aead(), _block()):
        crypt = h.encrypt_blocks if hasattr(h, "encrypt_blocks") else h.encrypt
        only_gcry_errors(crypt, bytes(32), out=value)
    only_gcry_errors(_tweak().encrypt, bytes(32), b"tw", out=value)
    only_gcry_errors(_tweak().encrypt_sectors, value, 0, 16)


def test_too_many_arguments_are_python_errors_of_the_call_itself():
    # a wrong call signature is Python's own TypeError, as for any function
    with pytest.raises(TypeError):
        gcrylike.cipher_open("chacha20", None, None)


# -- one type per cause ----------------------------------------------------------------------

def strided_inputs():
    arrays = [] if np is None else [np.zeros((8, 8), dtype=np.uint8)[:, :4]]
    return [memoryview(bytes(64))[::2], memoryview(bytearray(64))[::2], _strided_array(),
            *arrays]


def readonly_outs():
    return [bytes(64), memoryview(bytes(64)), _readonly_array(), b"\0" * 64]


def data_calls():
    """(description, call(data, out)) for every call taking data and out=."""
    return [
        ("stream.encrypt", lambda d, o: _stream().encrypt(d, out=o)),
        ("aead.encrypt", lambda d, o: _aead().encrypt(d, out=o)),
        ("aead.decrypt", lambda d, o: _aead().decrypt(d, out=o)),
        ("tweakable.encrypt", lambda d, o: _tweak().encrypt(d, b"t", out=o)),
        ("block.encrypt_blocks", lambda d, o: _block().encrypt_blocks(d, out=o)),
    ]


@pytest.mark.parametrize("desc,call", data_calls())
def test_non_contiguous_input_is_one_type_for_every_exporter(desc, call):
    for data in strided_inputs():
        with pytest.raises(gcrylike.NotContiguous, match="C-contiguous") as info:
            call(data, None)
        assert isinstance(info.value, gcrylike.InvalidType) and isinstance(info.value, TypeError)
    for out in strided_inputs()[1:]:  # writable but strided
        with pytest.raises(gcrylike.NotContiguous):
            call(bytes(32), out)


@pytest.mark.parametrize("desc,call", data_calls())
def test_read_only_out_is_one_type_for_every_exporter(desc, call):
    for out in readonly_outs():
        with pytest.raises(gcrylike.ReadOnlyBuffer, match="writable") as info:
            call(bytes(32), out)
        assert isinstance(info.value, TypeError)


def test_read_only_sector_buffer():
    for buf in readonly_outs():
        with pytest.raises(gcrylike.ReadOnlyBuffer):
            _tweak().encrypt_sectors(buf, 0, 16)


def test_not_a_buffer_is_invalid_type_and_nothing_more_specific():
    for obj in (None, 5, [1], object()):
        with pytest.raises(gcrylike.InvalidType) as info:
            _stream().encrypt(obj)
        assert type(info.value) is gcrylike.InvalidType
    with pytest.raises(gcrylike.InvalidType, match="not str"):
        _stream().encrypt("text")


def test_deny_list_of_the_wrong_type():
    for bad in (5, None, 1.5, b"avx2", [1], ["avx2", None]):
        with pytest.raises(gcrylike.InvalidType) as info:
            gcrylike.set_hwf_deny(bad)
        assert isinstance(info.value, TypeError)
    with pytest.raises(gcrylike.UnknownName):
        gcrylike.set_hwf_deny(["avx2", "avx9000"])


def test_sector_numbers_and_sizes_out_of_range():
    h = _tweak()
    with pytest.raises(gcrylike.InvalidLength, match="larger than any buffer"):
        h.encrypt_sectors(bytearray(0), 0, 2**64 + 16)
    with pytest.raises(gcrylike.InvalidArgument, match="64 bits"):
        h.encrypt_sectors(bytearray(4096), 2**64 + 16)
    with pytest.raises(gcrylike.InvalidArgument, match="64 bits"):
        h.encrypt_sectors(bytearray(8192), 2**64 - 1)


def test_context_size_is_checked():
    for bad, cls in ((-1, gcrylike.InvalidArgument), (2**64, gcrylike.InvalidArgument),
                     ("64", gcrylike.InvalidType), (1.5, gcrylike.InvalidType)):
        with pytest.raises(cls):
            gcrylike.Context(bad)


def test_not_picklable_is_a_type_error():
    with pytest.raises(TypeError):
        pickle.dumps(_stream())


# -- messages that say what was expected ------------------------------------------------------

@pytest.mark.parametrize("driver", [i.driver for i in gcrylike.implementations("poly1305")
                                    if i.available] + [None])
def test_one_shot_mac_key_length_message(driver):
    for keylen in (0, 16, 31, 33):
        with pytest.raises(gcrylike.InvalidKeyLength, match=f"key must be 32 bytes, got {keylen}"):
            gcrylike.mac("poly1305", bytes(keylen), b"x", impl=driver)
        with pytest.raises(gcrylike.InvalidKeyLength, match=f"key must be 32 bytes, got {keylen}"):
            gcrylike.mac("poly1305", bytearray(keylen), memoryview(b"x"), impl=driver)


@pytest.mark.parametrize("fn", [gcrylike.hchacha, gcrylike.hsalsa20])
def test_subkey_functions_blame_data(fn):
    for n in (0, 15, 17, 24):
        with pytest.raises(gcrylike.InvalidIVLength, match=f"data must be 16 bytes, got {n}") as e:
            fn(bytes(32), bytes(n))
        assert "iv" not in str(e.value).lower().replace("inv_iv", "")


def _aead_at(phase: str):
    h = gcrylike.cipher_open("chacha20", mode="poly1305")
    h.setkey(bytes(32))
    if phase != "need_iv":
        h.setiv(bytes(12))
    if phase == "encrypting":
        h.encrypt(b"abc")
    if phase == "decrypting":
        h.decrypt(b"abc")
    if phase == "done":
        h.gettag()
    return h


AEAD_CALLS = {
    "authenticate": lambda h, kind: h.authenticate(kind(b"ad")),
    "encrypt": lambda h, kind: h.encrypt(kind(b"data")),
    "decrypt": lambda h, kind: h.decrypt(kind(b"data")),
    "gettag": lambda h, kind: h.gettag(),
    "checktag": lambda h, kind: h.checktag(kind(bytes(16))),
}
# (phase, call) -> what the message must say
EXPECTED_ORDER = {
    ("need_iv", "authenticate"): r"setiv\(\) must come before authenticate\(\)",
    ("need_iv", "encrypt"): r"setiv\(\) must come before encrypt\(\)",
    ("need_iv", "decrypt"): r"setiv\(\) must come before decrypt\(\)",
    ("need_iv", "gettag"): r"setiv\(\) must come before gettag\(\)",
    ("need_iv", "checktag"): r"setiv\(\) must come before checktag\(\)",
    ("encrypting", "authenticate"): r"authenticate\(\) must come before the first encrypt\(\)",
    ("decrypting", "authenticate"): r"authenticate\(\) must come before the first decrypt\(\)",
    ("encrypting", "decrypt"): r"decrypt\(\) after encrypt\(\) in the same message",
    ("decrypting", "encrypt"): r"encrypt\(\) after decrypt\(\) in the same message",
    ("done", "authenticate"): r"authenticate\(\) must come before gettag\(\)/checktag\(\)",
    ("done", "encrypt"): r"encrypt\(\) must come before gettag\(\)/checktag\(\)",
    ("done", "decrypt"): r"decrypt\(\) must come before gettag\(\)/checktag\(\)",
}


@pytest.mark.parametrize("phase,call", EXPECTED_ORDER, ids="-".join)
@pytest.mark.parametrize("kind", [bytes, bytearray], ids=["fast", "general"])
def test_aead_out_of_order_says_which_call_was_expected(phase, call, kind):
    h = _aead_at(phase)
    with pytest.raises(gcrylike.InvalidState, match=EXPECTED_ORDER[phase, call]):
        AEAD_CALLS[call](h, kind)
    # the refusal changed nothing: the allowed calls still work as before
    if phase == "done":
        assert h.gettag() == _aead_at("done").gettag()


def test_aead_in_order_calls_are_not_refused():
    for phase in ("encrypting", "decrypting", "done"):
        h = _aead_at(phase)
        h.gettag()
        h.checktag(h.gettag())


# The overlap check runs on each family's encrypt call (aead.decrypt is not part of it).
@pytest.mark.parametrize("desc,call", [c for c in data_calls() if c[0] != "aead.decrypt"])
def test_overlapping_out_says_it_overlaps(desc, call):
    buf = bytearray(128)
    view = memoryview(buf)
    for shift in (1, 16, 31, -16):
        data = view[32:64]
        out = view[32 + shift:64 + shift]
        with pytest.raises(gcrylike.InvalidArgument, match="out overlaps data"):
            call(data, out)
    assert call(view[32:64], view[64:96]) == 32  # touching is fine
    assert call(view[32:64], view[32:64]) == 32  # same start: in place
