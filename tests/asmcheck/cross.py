"""The native check cross-built for other targets and run under qemu-user
(the ``cross`` tox env).

For each target the check (tests/asmcheck/build.py) is built statically
with that target's cross compiler, so it holds only what the target has:

  aarch64  the NEON and Crypto Extensions routines (asm/*-aarch64-*.S)
           against the portable C, under qemu-aarch64's default CPU and
           the models below (cores with and without the Crypto
           Extensions' and NEON's every instruction); then with --mutant,
           where the planted wrong routines (tests/asmcheck/mutant-aarch64.S)
           must each fail; then once per planted fault
           (tests/asmcheck/faults.py: a one-line change of a real
           routine's .S), built against the changed copy of asm/, which
           must fail
  s390x    the portable C on a big-endian target (qemu-s390x)
  armhf    the portable C on a 32-bit target (qemu-arm)
  windows  the portable C built by mingw-w64 as a Windows program, run
           under wine (no assembly: the .S files are ELF and SysV)

Before each target's check, every C file of the Python-facing glue
(ciphers/*/*.c, gcrylike/_native/core.c) is compiled for it with the
target's macro (USE_AARCH64 on aarch64), -Wall -Wextra -Werror, as a
GCRYLIKE_WERROR=1 wheel build would, and once more with GCRY_TEST_HOOKS
as the test copies are: the Python modules themselves are not built here
(no Python for the target), so this is what says they would compile.

After each target's check, --guard-probe (a read past a buffer's guard
page, which the check's fault handler must report) and
tests/native/portable_check.c (portable.h's aligned memory, thread and
clock) run the same way.  Then the MSVC spellings of compiler.h: every
glue file compiled by clang in MSVC mode (_MSC_VER, no __GNUC__) for x86-64
and arm64 Windows, against wine's C runtime and Windows headers, with
-Wvla -Werror (there is no MSVC here; this is the nearest compiler).

Each run prints "N passed, M failed" (the glue: one per file and flavour),
the mutants and faults how many of them were caught; the script exits
non-zero on any failure.

The compilers, C libraries, qemu and wine come from Debian's packages:
missing ones are installed with apt-get (as root, as CI runs; otherwise the
script says what to install and fails).  Windows is optional, as wine does
not install everywhere: when its packages cannot be installed, the windows
target and the MSVC-mode compile are skipped with the reason.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
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

#: What the windows target and the MSVC-mode compile need, the same way;
#: optional: skipped with the reason when these do not install.
WINDOWS_NEEDS = {
    "x86_64-w64-mingw32-gcc": "gcc-mingw-w64-x86-64",
    "wine": "wine",
    "/usr/lib/wine/wine64": "wine64",
    "clang-16": "clang-16",
    "/usr/include/wine/wine/msvcrt/stdlib.h": "libwine-dev",
}

#: wine without its debug channels, without the .NET and HTML engines
#: (which it would offer to download when it makes its prefix) and with a
#: prefix of its own under .tox (made on the first run, about 6 s)
WINE_ENV = {"WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="}
WINE_PREFIX = HERE.parent.parent / ".tox" / "wine-prefix"

#: qemu-aarch64's CPU models the aarch64 check runs on besides its default
#: (the little cores cortex-a35/a53, the big cortex-a72, the server
#: neoverse-n1, and max, every feature qemu emulates)
AARCH64_CPUS = ("cortex-a35", "cortex-a53", "cortex-a72", "neoverse-n1", "max")

#: (target, compiler, the runs: each a qemu command line, and whether the
#: target has assembly whose mutants and faults must be caught)
TARGETS = [
    ("aarch64", "aarch64-linux-gnu-gcc",
     [["qemu-aarch64"], *(["qemu-aarch64", "-cpu", cpu] for cpu in AARCH64_CPUS)], True),
    ("s390x", "s390x-linux-gnu-gcc", [["qemu-s390x"]], False),
    ("armhf", "arm-linux-gnueabihf-gcc", [["qemu-arm"]], False),
    ("windows", "x86_64-w64-mingw32-gcc", [["wine"]], False),
]

#: the planted wrong routines of mutant-aarch64.S, each of which must fail
MUTANTS = ("asmcheck_mutant_underreports", "asmcheck_mutant_chacha_rounds")

#: what the wheel's modules compile from C (burn.c is in each; fastcall.c
#: aside: it needs the target's Python headers), and how: the warnings of a GCRYLIKE_WERROR=1
#: build (gcrylike/build.py warning_flags), position independent as an
#: extension, and without variable-length arrays, which MSVC lacks
#: (-Wvla); plain, then as the test copies (tests/native/build_hooks.py)
GLUE_SOURCES = (*sorted((HERE.parent.parent / "ciphers").glob("*/*.c")),
                HERE.parent.parent / "gcrylike/_native/core.c",
                HERE.parent.parent / "gcrylike/_native/burn.c")
GLUE_FLAGS = ["-c", "-fPIC", "-Wall", "-Wextra", "-Wvla", "-Werror"]
GLUE_FLAVOURS = ((), ("-DGCRY_TEST_HOOKS",))

#: clang in MSVC mode: the MSVC branches of compiler.h, for x86-64 and arm64
#: Windows (the Pythons MSVC builds for), with wine's C runtime and Windows
#: headers after clang's own (its intrin.h, which MSVC's stands for).
#: Wine's winnt.h defines _InterlockedCompareExchange128 as a function,
#: which clang has built in on x86-64: renamed out of the way.
MSVC_MODE = ["clang-16", "-fms-compatibility", "-fms-extensions", "-std=c11",
             "-c", "-Wall", "-Wextra", "-Wvla", "-Werror",
             "-D_InterlockedCompareExchange128=wine_InterlockedCompareExchange128",
             "-idirafter", "/usr/include/wine/wine/msvcrt",
             "-idirafter", "/usr/include/wine/wine/windows"]
MSVC_TARGETS = ("x86_64-pc-windows-msvc", "aarch64-pc-windows-msvc")

#: portable.h's services in a program of their own (aligned memory, a
#: thread, the clock), run on each target
PORTABLE_CHECK = HERE.parent / "native" / "portable_check.c"


def missing(needs: dict[str, str]) -> list[str]:
    return sorted({pkg for need, pkg in needs.items()
                   if not (Path(need).exists() if need.startswith("/") else shutil.which(need))})


def install(packages: list[str]) -> str | None:
    """apt-get install PACKAGES (after an update if the first try fails:
    a fresh machine's package lists may be missing or old); None when
    they are installed, else why not."""
    if os.geteuid() != 0:
        return f"missing Debian packages (install as root): {' '.join(packages)}"
    print(f"cross: installing {' '.join(packages)}", flush=True)
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=False).returncode:
        subprocess.run(["apt-get", "update", "-q"], env=env, stdout=subprocess.DEVNULL,
                       check=False)
        res = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, check=False)
        if res.returncode:
            return f"apt-get cannot install {' '.join(packages)}: {res.stderr.strip()[-300:]}"
    return None


def load(name: str):
    """tests/asmcheck/NAME.py (by path, as tests/test_native_check.py loads
    build.py)."""
    spec = importlib.util.spec_from_file_location(f"asmcheck_{name}", HERE / f"{name}.py")
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


def compile_glue(label: str, bases: list[tuple[str, list[str]]], out: Path) -> bool:
    """Every glue file compiled by each of BASES (a name for its failures,
    the command before the flavour and the file), in each flavour, into
    OUT; LABEL's "N passed, M failed" line."""
    failed = []
    for name, base in bases:
        for flavour in GLUE_FLAVOURS:
            for src in GLUE_SOURCES:
                code, text = run([*base, *flavour, str(src), "-o", str(out)])
                if code:
                    failed.append(f"FAIL {name}{src.relative_to(HERE.parent.parent)} "
                                  f"{' '.join(flavour)}:\n{text[-1500:]}")
    total = len(bases) * len(GLUE_FLAVOURS) * len(GLUE_SOURCES)
    print(f"{label}: {total - len(failed)} passed, {len(failed)} failed", flush=True)
    for line in failed:
        print(f"  {line}")
    return not failed


def check_glue(target: str, build, tmp: str) -> bool:
    """Compile every glue file for the compiler's target, each flavour."""
    base = [*build.compiler(), *build.flags(build.target_arch()), *GLUE_FLAGS,
            *(f"-I{d}" for d in build.include_dirs())]
    return compile_glue(f"{target} glue (-Werror)", [("", base)], Path(tmp, "glue.o"))


def try_fault(build, faults, fault, runner: list[str], where: Path, vectors: Path) -> str:
    """Plant FAULT in a copy of asm/ at WHERE, build the check against it
    (with the known answers' C, VECTORS) and run the fault's rows:
    "caught: " and the first failure, or why not."""
    if not faults.plant(fault, build.ROOT / "asm", where):
        return "STALE (its line is not in the file)"
    res = subprocess.run(build.command(where / "asmcheck", vectors, asm=where),
                         capture_output=True, text=True, check=False)
    if res.returncode:
        return f"STALE (does not build)\n{res.stderr[-1500:]}"
    code, out = run([*runner, str(where / "asmcheck"), "--only", fault.rows])
    first = next((line.strip() for line in out.splitlines() if "FAIL" in line), None)
    if code != 1 or not first:
        return "NOT CAUGHT"
    return "caught: " + (first if len(first) <= 160 else first[:157] + "...")


def check_faults(target: str, build, runner: list[str], tmp: str) -> bool:
    """Each planted fault of the target's assembly (faults.py): the check
    built against asm/ with the fault in it must fail the fault's rows
    (a failed verdict, or a fault signal, which the check reports as a
    FAIL line too).  Two at a time: each is mostly a compiler run."""
    faults = load("faults")
    planted = faults.FAULTS.get(build.target_arch(), ())
    vectors = build.generate(Path(tmp))
    with ThreadPoolExecutor(max_workers=2) as pool:
        verdicts = list(pool.map(
            lambda n: try_fault(build, faults, planted[n], runner, Path(tmp, f"fault{n}"),
                                vectors),
            range(len(planted))))
    for n, (fault, verdict) in enumerate(zip(planted, verdicts, strict=True)):
        print(f"  fault {n + 1} ({fault.file}: {fault.what}): {verdict}", flush=True)
    caught = sum(v.startswith("caught") for v in verdicts)
    print(f"{target} planted faults: {caught} of {len(planted)} caught", flush=True)
    return bool(planted) and caught == len(planted)


def check_guard(target: str, runner: list[str], exe: Path) -> bool:
    """--guard-probe: the read past a guard page must be reported."""
    code, out = run([*runner, str(exe), "--guard-probe"])
    caught = code == 1 and "access past a buffer's guard page" in out and "(crashed)" in out
    print(f"{target} --guard-probe: {int(caught)} of 1 reads past a guard page caught",
          flush=True)
    if not caught:
        print(f"  {out.strip()[-500:]}")
    return caught


def check_portable_h(target: str, build, runner: list[str], tmp: str, suffix: str) -> bool:
    """portable_check.c built for the target (statically) and run."""
    exe = Path(tmp, f"portable-{target}{suffix}")
    threads = [] if suffix else ["-pthread"]
    code, out = run([*build.compiler(), *build.FLAGS, "-Wall", "-Wextra", "-Wvla", "-Werror",
                     *threads, f"-I{HERE.parent.parent / 'gcrylike/_native'}",
                     str(PORTABLE_CHECK), "-o", str(exe)])
    if code:
        print(f"{target} portable.h: does not build:\n{out[-1500:]}")
        return False
    return check_run(f"{target} portable.h ({' '.join(runner)})", *run([*runner, str(exe)]))


def check_msvc_mode(build, tmp: str) -> bool:
    """Every glue file through clang in MSVC mode, per target and flavour."""
    incs = [f"-I{d}" for d in build.include_dirs()]
    return compile_glue("msvc-mode glue (clang-16, x86-64 and arm64 Windows)",
                        [(f"{triple} ", [*MSVC_MODE, f"--target={triple}", *incs])
                         for triple in MSVC_TARGETS], Path(tmp, "glue.obj"))


def main() -> int:
    need = missing(NEEDS)
    if need and (why := install(need)):
        sys.exit(f"cross: {why}")
    need = missing(WINDOWS_NEEDS)
    no_windows = install(need) if need else None
    os.environ.update(WINE_ENV)
    if "WINEPREFIX" not in os.environ:
        WINE_PREFIX.parent.mkdir(parents=True, exist_ok=True)
        os.environ["WINEPREFIX"] = str(WINE_PREFIX)
    build = load("build")
    ok = True
    with tempfile.TemporaryDirectory(prefix="asmcheck-cross-") as tmp:
        for target, cc, runs, has_asm in TARGETS:
            if target == "windows" and no_windows:
                print(f"windows: skipped: {no_windows}", flush=True)
                continue
            os.environ["CC"] = cc
            ok &= check_glue(target, build, tmp)
            suffix = ".exe" if "-mingw" in build.dump_machine() else ""
            out = Path(tmp, f"asmcheck-{target}{suffix}")
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
                ok &= check_faults(target, build, runs[0], tmp)
            ok &= check_guard(target, runs[0], out)
            ok &= check_portable_h(target, build, runs[0], tmp, suffix)
        if no_windows:
            print(f"msvc-mode glue: skipped: {no_windows}", flush=True)
        else:
            ok &= check_msvc_mode(build, tmp)
    print("cross: all passed" if ok else "cross: FAILED", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
