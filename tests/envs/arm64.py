"""The Python suite on an emulated aarch64 Debian (the on-demand ``arm64``
tox env; not in env_list or CI: about 25 minutes from nothing).

As root on a Debian x86-64 host:

1. installs ``debootstrap``, ``qemu-user-static`` and ``binfmt-support``
   when missing, mounts binfmt_misc when it is not (containers) and enables
   qemu-aarch64 there, so the arm64 root's programs run under qemu-user;
2. makes the arm64 root with debootstrap (bookworm, Python 3.11, gcc) in
   ROOT, once: later runs reuse it (delete ROOT to start afresh);
3. copies the source tree into ROOT/src (the files git tracks, else the
   tree without build products) and, in a chroot with /proc, /dev and the
   host's resolv.conf and CA bundle (for pip): a venv with the suite's dependencies (once), the
   package built and installed from the copy with ``GCRYLIKE_WERROR=1``
   (``USE_AARCH64``: the NEON and Crypto Extensions drivers), then
   ``gcrylike list``, ``gcrylike selftest`` and pytest from /tmp, as the
   py env runs them.

Usage: ``python3 tests/envs/arm64.py ROOT [pytest arguments]``; ``--no-pytest``
as the first pytest argument stops after the selftest.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

TREE = Path(__file__).resolve().parent.parent.parent

#: Debian packages the host needs, by the path each provides.
HOST_NEEDS = {"/usr/sbin/debootstrap": "debootstrap",
              "/usr/bin/qemu-aarch64-static": "qemu-user-static",
              "/usr/sbin/update-binfmts": "binfmt-support"}
#: what the root gets beside the minimal base: the interpreter (3.11, as
#: the wheel's abi3 floor), its headers and a compiler for the build, and
#: the CA certificates pip needs
ROOT_PACKAGES = "python3,python3-venv,python3-dev,gcc,libc6-dev,ca-certificates"
SUITE = "pip setuptools wheel cffi pytest pycryptodome cryptography pynacl hypothesis numpy " \
        "matplotlib"
BINFMT = Path("/proc/sys/fs/binfmt_misc")
#: where the root gets the host's CA bundle
HOST_CA = Path("/etc/ssl/certs/host-ca-bundle.crt")


def sh(*cmd: str, **kw) -> None:
    print("arm64: " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)


def host() -> None:
    missing = [pkg for path, pkg in HOST_NEEDS.items() if not Path(path).exists()]
    if missing:
        sh("apt-get", "install", "-y", "-q", "--no-install-recommends", *missing,
           env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    if not (BINFMT / "register").exists():
        sh("mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT))
    if not (BINFMT / "qemu-aarch64").exists():
        sh("update-binfmts", "--enable", "qemu-aarch64")


def make_root(root: Path) -> None:
    if (root / "usr/bin/python3").exists():
        return
    sh("debootstrap", "--arch=arm64", "--variant=minbase", f"--include={ROOT_PACKAGES}",
       "bookworm", str(root), "http://deb.debian.org/debian")


def copy_tree(dest: Path) -> None:
    """The source tree into DEST: the files git tracks, or (an unpacked
    sdist) everything but build products."""
    shutil.rmtree(dest, ignore_errors=True)
    listed = subprocess.run(["git", "-C", str(TREE), "ls-files", "-z"], capture_output=True,
                            check=False)
    if listed.returncode == 0 and listed.stdout:
        for name in filter(None, listed.stdout.decode().split("\0")):
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(TREE / name, dest / name)
    else:
        shutil.copytree(TREE, dest, ignore=shutil.ignore_patterns(
            ".tox", ".git", "build", "dist", "*.egg-info", "__pycache__", "*.so", "*.o"))


def in_root(root: Path, script: str) -> None:
    """SCRIPT (sh) in a chroot of ROOT with /proc and /dev mounted."""
    mounts = [("proc", root / "proc", ["-t", "proc", "proc"]),
              ("dev", root / "dev", ["--bind", "/dev"])]
    done = []
    shutil.copy2("/etc/resolv.conf", root / "etc/resolv.conf")
    # the host's CA bundle, the one its pip trusts: where an intercepting
    # proxy signs the traffic, Debian's own certificates do not verify it
    shutil.copy2(os.environ.get("PIP_CERT") or os.environ.get("SSL_CERT_FILE")
                 or "/etc/ssl/certs/ca-certificates.crt", root / HOST_CA.relative_to("/"))
    try:
        for _, where, how in mounts:
            sh("mount", *how, str(where))
            done.append(where)
        sh("chroot", str(root), "/bin/sh", "-ec", script,
           env={"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": "/root",
                "LANG": "C.UTF-8", "PIP_CERT": str(HOST_CA)})
    finally:
        for where in reversed(done):
            subprocess.run(["umount", str(where)], check=False)


def main(argv: list[str]) -> int:
    if os.geteuid() != 0:
        sys.exit("arm64: needs root (debootstrap, mount, chroot)")
    root = Path(argv[0]).resolve()
    pytest_args = argv[1:]
    no_pytest = pytest_args[:1] == ["--no-pytest"]
    host()
    make_root(root)
    copy_tree(root / "src")
    env = ("GCRYLIKE_TESTHOOKS_DIR=/opt/gcrylike-venv/testhooks GCRYLIKE_EXPECT_FASTCALL=1 "
           "GCRYLIKE_WERROR=1")
    script = f"""
test -x /opt/gcrylike-venv/bin/pip || python3 -m venv /opt/gcrylike-venv
/opt/gcrylike-venv/bin/pip install -q -U {SUITE}
cd /src && GCRYLIKE_WERROR=1 /opt/gcrylike-venv/bin/pip install -q --no-build-isolation .
cd /tmp
/opt/gcrylike-venv/bin/gcrylike config
/opt/gcrylike-venv/bin/gcrylike list
/opt/gcrylike-venv/bin/gcrylike selftest
"""
    if not no_pytest:
        script += (f"{env} /opt/gcrylike-venv/bin/python -m pytest -p no:cacheprovider "
                   f"{shlex.join(pytest_args)} /src/tests\n")
    in_root(root, script)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
