"""CPU feature detection and the deny list."""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest

import gcrylike
from gcrylike import _hwf

# The kernel's name in /proc/cpuinfo for each of our feature names, per
# architecture: its machine name, the line that lists the flags, and the
# features of ours that are that architecture's (every other one must be
# undetected there).
AARCH64_FEATURES = {"neon": "asimd", "aes": "aes", "pmull": "pmull"}
CPUINFO = {
    "x86_64": ("flags", {f: {"aesni": "aes", "pclmul": "pclmulqdq"}.get(f, f)
                         for f in _hwf.FEATURES if f not in AARCH64_FEATURES}),
    "aarch64": ("Features", AARCH64_FEATURES),
}


def _cpuinfo_flags(line_name: str):
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.split(":", 1)[0].strip() == line_name:
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return None


def test_detection_matches_kernel_view():
    """Each feature is detected exactly when the kernel lists it; the
    machine name must match too (under qemu-user an emulated aarch64 reads
    the x86 host's /proc/cpuinfo)."""
    machine = platform.machine().lower().replace("amd64", "x86_64").replace("arm64", "aarch64")
    if machine not in CPUINFO:
        pytest.skip(f"no cpuinfo mapping for {machine}")
    line_name, ours = CPUINFO[machine]
    flags = _cpuinfo_flags(line_name)
    if flags is None or not flags & set(ours.values()):
        pytest.skip(f"no {machine} /proc/cpuinfo here")
    for name in _hwf.FEATURES:
        assert (name in _hwf.detected()) == (name in ours and ours[name] in flags), name


def test_features_are_what_the_core_extension_reports():
    """FEATURES is gcry_hwf_name bit by bit, and the core has no name (and
    detects nothing) past the last one."""
    from gcrylike._core import ffi, lib

    names = [lib.gcry_hwf_name(bit) for bit in range(64)]
    reported = [ffi.string(n).decode() for n in names[:len(_hwf.FEATURES)]]
    assert tuple(reported) == _hwf.FEATURES
    assert all(n == ffi.NULL for n in names[len(_hwf.FEATURES):])
    assert len(set(_hwf.FEATURES)) == len(_hwf.FEATURES) >= 12
    assert lib.gcry_hwf_detect() >> len(_hwf.FEATURES) == 0
    assert _hwf.AVX512_FAMILY == {"avx512f", "avx512vl", "avx512bw", "avx512ifma"}


def test_features_are_hwf_h_list():
    """The installed core's names are hwf.h's list, in its order (the bits
    the native check and every GCRY_HWF_* mask use)."""
    hwf_h = Path(__file__).resolve().parent.parent / "gcrylike" / "_native" / "hwf.h"
    listed = re.findall(r'^\s*X \(\w+, "(\w+)"\)', hwf_h.read_text(), re.M)
    assert tuple(listed) == _hwf.FEATURES


def test_parse_names():
    assert _hwf.parse_names("avx2, SSSE3:sse2") == {"avx2", "ssse3", "sse2"}
    assert _hwf.parse_names(["avx512vl"]) == {"avx512vl"}
    assert _hwf.parse_names("all") == set(_hwf.FEATURES)
    assert _hwf.parse_names("") == set()
    with pytest.raises(gcrylike.UnknownName) as info:
        _hwf.parse_names("avx2,turbo")
    assert isinstance(info.value, LookupError) and "turbo" in str(info.value)


def test_set_deny_returns_previous_and_applies():
    prev = gcrylike.set_hwf_deny("sse2,avx2")
    try:
        assert "sse2" not in gcrylike.hw_features() and "avx2" not in gcrylike.hw_features()
        assert gcrylike.set_hwf_deny("all") == {"sse2", "avx2"}
        assert gcrylike.hw_features() == frozenset()
        with gcrylike.cipher_open("salsa20") as h:
            assert h.info.driver == "salsa20-generic"
    finally:
        gcrylike.set_hwf_deny(prev)


def _run(args, **env):
    full = {**os.environ, **env}
    return subprocess.run([sys.executable, "-I", "-m", "gcrylike", *args],
                          capture_output=True, text=True, env=full, check=False)


def test_env_deny_list():
    # (the AVX-512 Salsa20 driver needs neither sse2 nor ssse3; on aarch64
    # the NEON one is denied by its own)
    res = _run(["config"], GCRYLIKE_HWF_DENY="sse2:ssse3:avx512f:neon")
    assert res.returncode == 0, res.stderr
    denied = next(line for line in res.stdout.splitlines() if line.startswith("hwf-denied:"))
    assert set(denied[11:].split(",")) == {"sse2", "ssse3", "avx512f", "neon"}
    assert "cipher:SALSA20:salsa20-generic" in res.stdout


def test_env_deny_unknown_name_is_an_error():
    res = _run(["config"], GCRYLIKE_HWF_DENY="warpdrive")
    assert res.returncode != 0 and "warpdrive" in res.stderr


def test_valgrind_denies_avx512():
    # valgrind's preload library in LD_PRELOAD is how we recognise it; a
    # missing file only makes ld.so print a warning.  Added to what is
    # preloaded already (the sanitize env's ASan runtime must stay first).
    preload = f"{os.environ.get('LD_PRELOAD', '')} /nonexistent/vgpreload_memcheck-amd64-linux.so"
    res = _run(["config"], LD_PRELOAD=preload.strip())
    denied = next(line for line in res.stdout.splitlines() if line.startswith("hwf-denied:"))
    assert {"avx512f", "avx512vl", "avx512bw", "avx512ifma"} <= set(denied[11:].split(","))
