"""The native check cross-built for other targets and run under qemu-user
(the ``cross`` tox env).

For each target the check (tests/asmcheck/build.py) is built statically
with that target's cross compiler, so it holds only what the target has:

  aarch64  the NEON routines (asm/*-aarch64-*.S) against the portable C,
           under qemu-aarch64's default CPU, -cpu cortex-a53 and -cpu max;
           then with --mutant, where the planted wrong routines
           (tests/asmcheck/mutant-aarch64.S) must each fail
  s390x    the portable C on a big-endian target (qemu-s390x)
  armhf    the portable C on a 32-bit target (qemu-arm)

and prints "N passed, M failed" per run; exits non-zero on any failure.
Windows is not a target here: the check itself needs POSIX (mmap guard
pages, signals), and wine is not installed by this script.

The compilers, C libraries and qemu come from Debian's packages: missing
ones are installed with apt-get (as root, as CI runs; otherwise the script
says what to install and fails).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed", re.M)

#: What must exist (a program on PATH or a file), and the Debian package
#: that brings it.
NEEDS = {
    "qemu-aarch64": "qemu-user",
    "aarch64-linux-gnu-gcc": "gcc-aarch64-linux-gnu",
    "/usr/aarch64-linux-gnu/lib/libc.a": "libc6-dev-arm64-cross",
    "s390x-linux-gnu-gcc": "gcc-s390x-linux-gnu",
    "/usr/s390x-linux-gnu/lib/libc.a": "libc6-dev-s390x-cross",
    "arm-linux-gnueabihf-gcc": "gcc-arm-linux-gnueabihf",
    "/usr/arm-linux-gnueabihf/lib/libc.a": "libc6-dev-armhf-cross",
}

#: (target, compiler, the runs: each a qemu command line, and whether the
#: target has assembly whose mutants must be caught)
TARGETS = [
    ("aarch64", "aarch64-linux-gnu-gcc",
     [["qemu-aarch64"], ["qemu-aarch64", "-cpu", "cortex-a53"], ["qemu-aarch64", "-cpu", "max"]],
     True),
    ("s390x", "s390x-linux-gnu-gcc", [["qemu-s390x"]], False),
    ("armhf", "arm-linux-gnueabihf-gcc", [["qemu-arm"]], False),
]

#: the planted wrong routines of mutant-aarch64.S, each of which must fail
MUTANTS = ("asmcheck_mutant_underreports", "asmcheck_mutant_chacha_rounds")


def missing() -> list[str]:
    return sorted({pkg for need, pkg in NEEDS.items()
                   if not (Path(need).exists() if need.startswith("/") else shutil.which(need))})


def install(packages: list[str]) -> None:
    """apt-get install PACKAGES (after an update if the first try fails:
    a fresh machine's package lists may be missing or old)."""
    if os.geteuid() != 0:
        sys.exit(f"cross: missing Debian packages (install as root): {' '.join(packages)}")
    print(f"cross: installing {' '.join(packages)}", flush=True)
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=False).returncode:
        subprocess.run(["apt-get", "update", "-q"], env=env, stdout=subprocess.DEVNULL, check=True)
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)


def builder():
    spec = importlib.util.spec_from_file_location("asmcheck_build", HERE / "build.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run(cmd: list[str]) -> tuple[int, str]:
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    return res.returncode, res.stdout + res.stderr


def check_run(label: str, code: int, out: str) -> bool:
    """One run's summary line; True when it passed cleanly and every row
    the emulated CPU has ran."""
    found = SUMMARY.findall(out)
    passed, failed = map(int, found[-1]) if found else (0, 1)
    print(f"{label}: {passed} passed, {failed} failed", flush=True)
    for line in out.splitlines():
        if "FAIL" in line or line.startswith("skip "):
            print(f"  {line}")
    skipped = re.findall(r"^skip (\S+):", out, re.M)
    return bool(found) and code == 0 and failed == 0 and passed > 0 and not skipped


def check_mutants(label: str, code: int, out: str) -> bool:
    caught = [m for m in MUTANTS if re.search(rf"^FAIL {m}:", out, re.M)]
    print(f"{label} --mutant: {len(caught)} of {len(MUTANTS)} planted wrong routines caught",
          flush=True)
    return code == 1 and len(caught) == len(MUTANTS)


def main() -> int:
    need = missing()
    if need:
        install(need)
    build = builder()
    ok = True
    with tempfile.TemporaryDirectory(prefix="asmcheck-cross-") as tmp:
        for target, cc, runs, has_asm in TARGETS:
            os.environ["CC"] = cc
            out = Path(tmp, f"asmcheck-{target}")
            res = build.build(out)
            if res.returncode:
                print(f"{target}: the native check does not build:\n{res.stderr[-3000:]}")
                ok = False
                continue
            arch = build.target_arch()
            if (arch is not None) != has_asm:
                print(f"{target}: built with assembly {arch!r}, expected "
                      f"{'some' if has_asm else 'none'}")
                ok = False
            for runner in runs:
                label = f"{target} ({' '.join(runner)})"
                ok &= check_run(label, *run([*runner, str(out)]))
            if has_asm:
                ok &= check_mutants(target, *run([*runs[0], str(out), "--mutant", "--only",
                                                  "asmcheck_mutant"]))
    print("cross: all passed" if ok else "cross: FAILED", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
