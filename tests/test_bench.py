"""``gcrylike bench`` and the peer adapters.

Nothing here asserts on speed: only on the fit, the shape of the output and
that the peers compute the same thing we do.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re
import struct
import sys
from xml.etree import ElementTree

import pytest

import gcrylike
from gcrylike import _fast
from gcrylike._bench import cpuclock, options, ours, targets, tcrypt, timing
from gcrylike._bench import peers as _peers
from gcrylike._bench.fit import fit_slope
from gcrylike._cli import main
from gcrylike.selftests import vectors_chacha

KEY = bytes(range(0x80, 0xA0))
DATA = bytes((7 * i + 3) & 0xFF for i in range(1000))  # not a multiple of 64

#: A slope row's figures; "call ns" is never negative ("*": a measured short call).
ROW = r"(?:[\d.]+|-) ns/B\s+(?:[\d.]+|-) MiB/s\s+(?:[\d.]+|-) c/B\s+(?:\d+|-)\s+\d+\*?"


#: The slope rows of one of our drivers, by kind of algorithm.
ROWS_BY_KIND = {
    "cipher": ("STREAM enc", "STREAM dec"),
    "block": ("ECB enc", "ECB dec"),
    "mac": ("MAC",),
    "aead": ("POLY1305 enc", "POLY1305 dec", "POLY1305 auth"),
    "tweakable": ("SECTOR enc", "SECTOR dec"),
    "secretbox": ("SECRETBOX enc", "SECRETBOX dec"),
}


def _unwrapped(out: str) -> str:
    """The bench's output with each wrapped ``#`` note back on one line."""
    return re.sub(r"\n *#   ", " ", out)


def _runnable(algo: str) -> list[str]:
    return [i.driver for i in gcrylike.implementations(algo) if i.available]


def _specs(*kinds: str) -> list:
    return [s for s in gcrylike._registry.all_specs() if s.kind in kinds]


def _rows(labels) -> str:
    return "".join(rf"\s+{re.escape(label)} \|\s*{ROW}.*\n" for label in labels)


def _assert_rows_or_selftest_skip(out: str, driver: str,
                                  labels=ROWS_BY_KIND["cipher"]) -> None:
    """Rows for ``driver``, or a note that it failed its selftest (an
    implementation may be broken while someone works on it; the bench must
    then say so instead of measuring it)."""
    rows = re.search(rf"^ {re.escape(driver)} \(ours(?:: [^\n]*)?\)\n{_rows(labels)}", out + "\n",
                     re.M)
    if rows is None:
        assert re.search(rf"# {re.escape(driver)}: skipped \(.*SELFTEST", out), out


def _assert_spec_table(out: str, spec) -> None:
    """The header of ``spec`` and the rows of every driver that runs here."""
    assert re.search(rf"^ {re.escape(spec.name)} +\|  nanosecs/byte   mebibytes/sec", out,
                     re.M), (spec.name, out)
    drivers = _runnable(spec.name)
    assert drivers, spec.name
    for d in drivers:
        _assert_rows_or_selftest_skip(out, d, ROWS_BY_KIND[spec.kind])


# -- the slope fit ------------------------------------------------------------


def test_fit_recovers_exact_line():
    xs = [1024 * k for k in range(1, 17)]
    ys = [1234.5 + 0.731 * x for x in xs]
    fit = fit_slope(xs, ys)
    assert fit.slope == pytest.approx(0.731, rel=1e-12)
    assert fit.intercept == pytest.approx(1234.5, rel=1e-9)
    assert fit.r2 == pytest.approx(1.0)


def test_fit_recovers_noisy_line():
    rng = random.Random(20240501)
    xs = [1024 * k for k in range(1, 17) for _ in range(5)]
    ys = [600.0 + 2.5 * x + rng.gauss(0, 50) for x in xs]
    fit = fit_slope(xs, ys)
    assert fit.slope == pytest.approx(2.5, rel=0.01)
    assert fit.intercept == pytest.approx(600.0, abs=60)
    assert 0.99 < fit.r2 < 1.0


def test_fit_flat_and_negative_intercept():
    fit = fit_slope([1, 2, 3], [5.0, 5.0, 5.0])
    assert (fit.slope, fit.intercept, fit.r2) == (0.0, 5.0, 1.0)
    fit = fit_slope([100, 200], [50.0, 150.0])
    assert fit.slope == pytest.approx(1.0)
    assert fit.intercept == pytest.approx(-50.0)


#: Medians of a shared machine's run (ns per call at 1..16 KiB): the points
#: bend upwards, so the line through them meets the y axis below zero.
BENT_SIZES = [1024 * k for k in range(1, 17)]
BENT_TIMES = [300.0 + 0.5 * x + 2e-5 * x * x for x in BENT_SIZES]


def test_call_ns_is_never_negative():
    from gcrylike._bench.fit import CALL_SIZE, call_cost
    from gcrylike._bench.report.table import MEASURED_MARK, row

    fit = fit_slope(BENT_SIZES, BENT_TIMES)
    assert fit.intercept < 0  # the case the column must not show
    call = call_cost(fit, 310.0)  # one measured 64-byte call
    assert (call.ns, call.fitted) == (310.0, False)
    line = row("STREAM enc", fit, call, 3000.0, 3000.0, 16)
    assert not re.search(r"-\d", line), line
    assert line.rstrip().endswith(f"310{MEASURED_MARK}"), line
    # an intercept above a whole short call is no fixed cost either
    high = fit_slope([1024, 2048], [900.0, 1400.0])
    assert call_cost(high, 320.0) == type(call)(320.0, False)
    # one that can be the fixed cost is shown as it is, unmarked
    fine = call_cost(fit_slope([1024, 2048], [700.0, 1200.0]), 250.0)
    assert fine.fitted and fine.ns == pytest.approx(200.0)
    assert not row("MAC", fit, fine, None, None, 16).rstrip().endswith(MEASURED_MARK)
    assert CALL_SIZE == 64  # the footnote and the records name it


@pytest.mark.parametrize("xs, ys", [([1], [1.0]), ([4, 4, 4], [1.0, 2.0, 3.0]),
                                    ([1, 2], [1.0])])
def test_fit_rejects_degenerate_input(xs, ys):
    with pytest.raises(ValueError):
        fit_slope(xs, ys)


# -- helpers ------------------------------------------------------------------


def test_parse_sizes():
    assert options.parse_sizes("1k-4k:1k") == (1024, 2048, 3072, 4096)
    assert options.parse_sizes("64,1k,64, 16KiB") == (64, 1024, 16384)
    assert options.parse_sizes("256-1024") == (256, 512, 768, 1024)
    for bad in ("1k", "x,1k", "0,1k", "-5,1k"):
        with pytest.raises(Exception, match="size"):
            options.parse_sizes(bad)


def test_cpuinfo_parsing(monkeypatch):
    text = ("processor\t: 0\ncpu MHz\t\t: 2445.430\n\n"
            "processor\t: 1\ncpu MHz\t\t: 4199.9\n\n")
    monkeypatch.setattr(cpuclock, "cpus", lambda: [0, 1])
    assert cpuclock.cpuinfo_mhz(text) == 4199.9
    monkeypatch.setattr(cpuclock, "cpus", lambda: [0])  # only the CPUs we may run on
    assert cpuclock.cpuinfo_mhz(text) == 2445.43
    assert cpuclock.cpuinfo_mhz("flags: sse2\n") is None


def test_time_per_call_and_count_for_measure_something():
    calls = []
    med = timing.time_per_call({1: lambda: calls.append(1), 2: lambda: None}, 3, 1e5)
    assert set(med) == {1, 2} and all(v > 0 for v in med.values())
    ops, elapsed = timing.count_for(lambda: None, 0.005)
    assert ops > 0 and elapsed >= 0.005


# -- the command --------------------------------------------------------------


def test_bench_slope_table(capsys):
    assert main(["bench", "--quick", "salsa20"]) == 0
    out = capsys.readouterr().out
    assert "Cipher:" in out
    assert re.search(r"^ SALSA20 +\|  nanosecs/byte   mebibytes/sec   cycles/byte  auto Mhz"
                     r" +call ns$", out, re.M), out
    drivers = _runnable("SALSA20")
    assert drivers
    for d in drivers:
        _assert_rows_or_selftest_skip(out, d)
    assert "SALSA20R12" not in out
    assert "# clock:" in out and "call ns:" in out


def test_bench_default_is_every_algorithm_and_cpu_mhz(capsys):
    assert main(["bench", "--quick", "--repeats", "1", "--cpu-mhz", "4200"]) == 0
    out = capsys.readouterr().out
    for algo in gcrylike.algorithms():
        assert re.search(rf"^ {re.escape(algo)} +\|", out, re.M), algo
    assert "4200 MHz from --cpu-mhz" in out


def test_bench_quick_default_covers_every_kind(capsys):
    """The plain `gcrylike bench --quick`: every algorithm of every kind the
    registry holds, with the rows of its kind for every driver that runs."""
    assert main(["bench", "--quick"]) == 0
    out = capsys.readouterr().out
    kinds = {s.kind for s in gcrylike._registry.all_specs()}
    assert {"cipher", "mac", "aead", "secretbox"} <= kinds
    for spec in gcrylike._registry.all_specs():
        if spec.kind in ROWS_BY_KIND:
            _assert_spec_table(out, spec)
        else:  # a kind the bench does not know yet says so instead of vanishing
            assert re.search(rf"^ {re.escape(spec.name)} +\|.*\n # not measured: ", out,
                             re.M), spec.name
    # bench-slope's sections: ciphers (stream, block, AEAD modes, secretbox), then MACs
    assert out.index("\nCipher:\n") < out.index("\n XSALSA20-POLY1305 ") < out.index("\nMAC:\n")
    assert "# MAC: one message per call" in out and "# POLY1305 enc/dec/auth:" in out


@pytest.mark.parametrize("algos", [["poly1305", "nhpoly1305"],
                                   ["chacha20-poly1305", "xchacha20-poly1305"]])
def test_bench_mac_and_aead_rows(capsys, algos):
    assert main(["bench", "--quick", "--repeats", "1", *algos]) == 0
    out = capsys.readouterr().out
    specs = [gcrylike._registry.lookup(a) for a in algos]
    assert ("MAC:" if specs[0].kind == "mac" else "Cipher:") in out.splitlines()
    for spec in specs:
        _assert_spec_table(out, spec)
    assert "ours one-shot" not in out  # only with --peers
    assert "SALSA20" not in out


def test_bench_unknown_kind_is_a_note(capsys, monkeypatch):
    monkeypatch.delitem(ours.OUR_TARGETS, "mac")
    assert main(["bench", "--quick", "poly1305"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^ POLY1305 +\|.*\n # not measured: gcrylike bench has no rows for mac "
                     r"algorithms yet\n +=$", out, re.M), out
    assert main(["bench", "--quick", "--format", "tcrypt", "poly1305"]) == 0
    assert "# poly1305 not measured" in capsys.readouterr().out


@pytest.mark.parametrize("extra", [["--clock", "wall"], ["--stat", "min"],
                                   ["--sizes", "64,1k-3k:1k", "--repeats", "2"]])
def test_bench_options(capsys, extra):
    assert main(["bench", "--quick", *extra, "salsa20r12"]) == 0
    out = capsys.readouterr().out
    for d in _runnable("SALSA20R12"):
        _assert_rows_or_selftest_skip(out, d)
    if "--clock" in extra:
        assert "wall clock" in out and "times: elapsed (wall) time" in out
    if "--stat" in extra:
        assert " min of 3 batches" in out
    if "--sizes" in extra:
        assert "sizes 64, 1024, 2048, 3072 B, median of 2 batches" in out


def test_bench_impl_filter(capsys):
    driver = _runnable("SALSA20")[-1]
    assert main(["bench", "--quick", "--impl", driver, "salsa20"]) == 0
    out = capsys.readouterr().out
    others = [d for d in _runnable("SALSA20") if d != driver]
    assert all(f" {d} (ours)" not in out for d in others)


def test_bench_unknown_algorithm(capsys):
    assert main(["bench", "--quick", "no-such-cipher"]) == 2
    assert "unknown algorithm" in capsys.readouterr().err


def test_bench_tcrypt(capsys):
    assert main(["bench", "--format", "tcrypt", "--quick", "--seconds", "0.002",
                 "salsa20"]) == 0
    out = capsys.readouterr().out
    for d in _runnable("SALSA20"):
        if f"# salsa20 {d}: skipped" in out:
            continue
        block = out.split(f"testing speed of salsa20 ({d}) encryption\n", 1)[1]
        lines = block.splitlines()[:5]
        for i, (line, size) in enumerate(zip(lines, targets.TCRYPT_SIZES, strict=True)):
            m = re.fullmatch(rf"test {i} \(256 bit key, {size} byte blocks\): (\d+) operations"
                             r" in ([\d.]+) seconds \((\d+) bytes\)", line)
            assert m, line
            assert int(m[3]) == int(m[1]) * size


TCRYPT_MAC_LINE = (r"test *(\d+) \( *(\d+) byte blocks, *(\d+) bytes per update, *(\d+) updates\):"
                   r" +(\d+) opers/sec, +(\d+) bytes/sec")


def _tcrypt_mac_lines(out: str, algo: str, driver: str) -> list[re.Match]:
    block = out.split(f"testing speed of {algo} ({driver})\n", 1)[1].split("\n\n", 1)[0]
    lines = block.splitlines()
    matches = [re.fullmatch(TCRYPT_MAC_LINE, line) for line in lines]
    assert all(matches), lines
    return matches


@pytest.mark.parametrize("algo", ["poly1305", "nhpoly1305"])
def test_bench_tcrypt_mac(capsys, algo):
    assert main(["bench", "--format", "tcrypt", "--quick", "--seconds", "0.001", algo]) == 0
    out = capsys.readouterr().out
    for d in _runnable(algo):
        if f"# {algo} {d}: skipped" in out:
            continue
        matches = _tcrypt_mac_lines(out, algo, d)
        # the kernel's poly1305 template, whole and split into updates
        assert [(int(m[1]), int(m[2]), int(m[3])) for m in matches] == [
            (i, b, p) for i, (b, p) in enumerate(tcrypt.TCRYPT_MAC_TEMPLATE)]
        for m in matches:
            assert int(m[4]) == int(m[2]) // int(m[3])
            assert int(m[5]) > 0
            assert abs(int(m[6]) - int(m[5]) * int(m[2])) <= int(m[2])  # rounding only


@pytest.mark.parametrize("algo", ["chacha20-poly1305", "xchacha20-poly1305"])
def test_bench_tcrypt_aead(capsys, algo):
    assert main(["bench", "--format", "tcrypt", "--quick", "--seconds", "0.001", algo]) == 0
    out = capsys.readouterr().out
    for d in _runnable(algo):
        if f"# {algo} {d}: skipped" in out:
            continue
        for word in ("encryption", "decryption"):
            block = out.split(f"testing speed of {algo} ({d}) {word}\n", 1)[1]
            for i, (line, size) in enumerate(zip(block.splitlines()[:5], targets.TCRYPT_SIZES,
                                                 strict=True)):
                m = re.fullmatch(rf"test {i} \(256 bit key, {size} byte blocks\): (\d+) "
                                 r"operations in ([\d.]+) seconds \((\d+) bytes\)", line)
                assert m, line
                assert int(m[3]) == int(m[1]) * size


def test_bench_tcrypt_peers_mac_and_aead(capsys):
    assert main(["bench", "--format", "tcrypt", "--quick", "--seconds", "0.001", "--peers",
                 "poly1305", "chacha20-poly1305"]) == 0
    out = capsys.readouterr().out
    best = _runnable("POLY1305")[0]
    if f"# poly1305 {best}: skipped" not in out:
        # a one-shot call cannot split a message: the whole-message lines only,
        # numbered as in the template
        whole = [(i, b) for i, (b, p) in enumerate(tcrypt.TCRYPT_MAC_TEMPLATE) if b == p]
        matches = _tcrypt_mac_lines(out, "poly1305", f"{best} one-shot")
        assert [(int(m[1]), int(m[2])) for m in matches] == whole
    for p, o in MAC_AEAD_OFFERS:
        if p.unavailable_reason() is None and o.algorithm in ("POLY1305", "CHACHA20-POLY1305"):
            assert re.search(rf"^testing speed of {o.algorithm.lower()} \(peer {p.name} ", out,
                             re.M), (p.name, o.algorithm)


def test_bench_peers_rows(capsys):
    pytest.importorskip("Crypto.Cipher.Salsa20")
    assert main(["bench", "--quick", "--repeats", "1", "--peers", "salsa20"]) == 0
    out = capsys.readouterr().out
    m = re.search(r"^ pycryptodome \S+ \(peer, [^)]*\)\n"
                  rf"\s+STREAM enc \|\s*{ROW}.*\n"
                  rf"\s+STREAM dec \|\s*{ROW}.*\n"
                  r"\s+ours/peer \|  1 KiB x[\d.]+   8 KiB x[\d.]+   64 KiB x[\d.]+"
                  r"   64 B x[\d.]+ .*\n"
                  # from bytes into a separate buffer (pycryptodome's output=)
                  r"\s+out= buffer \|  1 KiB x[\d.]+   8 KiB x[\d.]+   64 KiB x[\d.]+"
                  r"   64 B x[\d.]+ .*\n"
                  # pycryptodome also returns new bytes: the third call style
                  r"\s+new bytes \|  1 KiB x[\d.]+   8 KiB x[\d.]+   64 KiB x[\d.]+"
                  r"   64 B x[\d.]+ \((\d+) vs (\d+) ns/call\)", out, re.M)
    assert m, out
    assert int(m[1]) > 0 and int(m[2]) > 0
    assert "Bindings differ" in out and "new bytes: the same ratios" in out
    assert "out= buffer: the same ratios" in out


def test_bench_new_bytes_only_where_the_peer_has_that_call(capsys):
    """libsodium and libgcrypt (ctypes, preallocated output) get no second
    line; the ratio compares our encrypt(data) with the peer's call."""
    sodium = next(p for p in _peers.PEERS if p.name == "libsodium")
    if sodium.unavailable_reason():
        pytest.skip(f"libsodium: {sodium.unavailable_reason()}")
    assert main(["bench", "--quick", "--repeats", "1", "--peers", "salsa20r12"]) == 0
    out = capsys.readouterr().out
    block = out.split(" libsodium ", 1)[1].split("\n libgcrypt ", 1)[0].split("\n =", 1)[0]
    assert "ours/peer |" in block and "new bytes |" not in block, block


def test_bench_peers_mac_and_aead_rows(capsys):
    assert main(["bench", "--quick", "--repeats", "1", "--peers", "poly1305",
                 "chacha20-poly1305"]) == 0
    out = capsys.readouterr().out
    ratio = (r"\s+ours/peer \|  1 KiB x[\d.]+   8 KiB x[\d.]+   64 KiB x[\d.]+   64 B x[\d.]+"
             r" .*\[ours: (.+)\]\n")
    for algo, one_shot in (("POLY1305", "one-shot MAC"), ("CHACHA20-POLY1305", "one-shot enc")):
        table = re.split(r"\n +=\n", out.split(f"\n {algo} ", 1)[1], maxsplit=1)[0] + "\n"
        best = _runnable(algo)[0]
        if f"# {best}: skipped" in table:
            continue
        # our one-shot API is measured as a row of its own, on one of our drivers
        m = re.search(rf"^ (\S+) \(ours one-shot: [^\n]*\)\n{_rows([one_shot])}", table, re.M)
        assert m and m[1] in _runnable(algo), table
        for p, o in MAC_AEAD_OFFERS:
            if o.algorithm != algo:
                continue
            reason = p.unavailable_reason()
            if reason:
                assert f"# peer {p.name}: not available" in table
                continue
            label = ({"mac": "MAC", "aead": "POLY1305 enc"}[o.kind] if o.api == _peers.HANDLE
                     else one_shot)
            m = re.search(rf"^ {p.name} \S+.* \(peer, [^\n]*\)\n{_rows([label])}{ratio}",
                          table, re.M)
            if m is None:  # an offer the installed version lacks is a note, not a crash
                assert re.search(rf"# peer {p.name}: skipped \(PeerUnavailable", table), table
                continue
            # like for like: one-shot peers against our one-shot row, handles
            # against our fastest handle
            if o.api == _peers.HANDLE:
                assert m[1] in _runnable(algo), m[0]
            else:
                assert m[1].endswith(" one-shot"), m[0]
    assert "one-shot rows set the key up inside every call" in out


def test_bench_peers_missing_is_a_note(capsys, monkeypatch):
    def missing():
        raise ImportError("No module named 'nosuchlib'")

    fake = _peers.Peer("nosuchlib", "ctypes", missing, (
        _peers.Offer("SALSA20", _peers.STREAM, (32,), (8,), None),  # type: ignore[arg-type]
    ))
    monkeypatch.setattr(_peers, "PEERS", (fake,))
    assert main(["bench", "--quick", "--repeats", "1", "--peers", "salsa20", "salsa20r12"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"# peer nosuchlib: not available \(ImportError: No module", out)
    assert "# no peer library in gcrylike._bench.peers offers SALSA20R12" in out


def test_peer_note_only_under_the_algorithms_it_offers(capsys, monkeypatch):
    """A missing peer is a note under each algorithm it offers, naming
    nothing of another's: pycryptodome's reason once named its Salsa20
    module under CHACHA20 and POLY1305."""
    from gcrylike._bench.peers import pycryptodome

    for pkg in ("Crypto", "Cryptodome"):  # import fails, even if imported before
        monkeypatch.setitem(sys.modules, pkg, None)
        monkeypatch.setitem(sys.modules, f"{pkg}.Cipher", None)
    fresh = _peers.Peer("pycryptodome", "its own C binding", pycryptodome._load_pycryptodome,
                        pycryptodome.PEER.offers)
    monkeypatch.setattr(_peers, "PEERS", (fresh,))
    assert main(["bench", "--quick", "--repeats", "1", "--peers", "--impl",
                 _runnable("CHACHA20")[-1], "chacha20"]) == 0
    out = _unwrapped(capsys.readouterr().out)
    assert "# peer pycryptodome: not available (not installed" in out
    assert "salsa" not in out.lower()


def test_peer_offer_check_is_per_algorithm():
    """A library that loads but lacks one offer's module is unavailable for
    that algorithm only."""
    def lacks_salsa(lib):
        raise _peers.PeerUnavailable("this lib has no Salsa20")

    peer = _peers.Peer("somelib", "ctypes", lambda: (object(), "1.0"), (
        _peers.Offer("SALSA20", _peers.STREAM, (32,), (8,), None,  # type: ignore[arg-type]
                     check=lacks_salsa),
        _peers.Offer("CHACHA20", _peers.STREAM, (32,), (12,), None),  # type: ignore[arg-type]
        _peers.Offer("ADIANTUM", _peers.STREAM, (32,), (8,), None,  # type: ignore[arg-type]
                     reference="SALSA20"),
    ))
    assert peer.unavailable_reason() is None
    assert peer.unavailable_reason("chacha20") is None
    assert peer.unavailable_reason("SALSA20") == "this lib has no Salsa20"
    assert peer.unavailable_reason("ADIANTUM") == "this lib has no Salsa20"  # runs Salsa20


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_notes_wrap_to_the_terminal_or_100_columns(monkeypatch):
    from gcrylike._bench.console import PLAIN_WIDTH, Console

    words = " ".join(f"word{i}" for i in range(200))
    text = f"peer x: not available ({words}) chacha20-amd64-avx512-with-a-long-name end"
    plain = io.StringIO()
    Console(out=plain, progress=False).note(text, indent=" ")
    lines = plain.getvalue().splitlines()
    assert PLAIN_WIDTH == 100 and len(lines) > 5
    assert max(map(len, lines)) <= 100 and max(map(len, lines)) > 90
    assert lines[0].startswith(" # peer x") and all(ln.startswith(" #   ") for ln in lines[1:])
    assert _unwrapped(plain.getvalue()).strip() == f"# {text}"
    assert any("chacha20-amd64-avx512-with-a-long-name" in ln for ln in lines)  # not split

    monkeypatch.setattr("shutil.get_terminal_size", lambda *a: os.terminal_size((60, 24)))
    tty = _Tty()
    Console(out=tty, progress=False).note(text)
    lines = tty.getvalue().splitlines()
    assert max(map(len, lines)) <= 60 and max(map(len, lines)) > 50


# -- the peer adapters compute what we compute ----------------------------------

OFFERS = [(p, o) for p in _peers.PEERS for o in p.offers
          if o.kind == _peers.STREAM and not o.reference]
MAC_AEAD_OFFERS = [(p, o) for p in _peers.PEERS for o in p.offers
                   if o.kind in (_peers.MAC, _peers.AEAD)]


def _ours(algo: str, key: bytes, nonce: bytes, chunks: list[bytes]) -> list[bytes]:
    with gcrylike.cipher_open(algo) as h:
        h.setkey(key)
        h.setiv(nonce)
        return [h.encrypt(c) for c in chunks]


@pytest.mark.parametrize("peer, offer", OFFERS, ids=[f"{p.name}-{o.algorithm}" for p, o in OFFERS])
def test_peer_matches_ours(peer, offer):
    if offer.algorithm not in gcrylike.algorithms():
        pytest.skip(f"we have no {offer.algorithm} yet")
    reason = peer.unavailable_reason()
    if reason:
        pytest.skip(f"{peer.name}: {reason}")
    spec = gcrylike._registry.lookup(offer.algorithm)
    key_sizes = [k for k in (32, 16) if k in offer.key_sizes and k in spec.key_sizes]
    nonce_sizes = [n for n in spec.iv_sizes if n in offer.nonce_sizes]
    assert key_sizes and nonce_sizes
    for k in key_sizes:
        for n in nonce_sizes:
            key, nonce = KEY[:k], bytes(range(0x30, 0x30 + n))
            want = _ours(offer.algorithm, key, nonce, [DATA])[0]
            c = peer.crypter(offer.algorithm, key, nonce)
            dst = bytearray(len(DATA))
            c(DATA, dst)
            assert bytes(dst) == want, (peer.name, offer.algorithm, k, n)
            c.close()
            # decryption in place, and through bind() into another buffer
            # (a timed in-place bind may write elsewhere: cryptography 51
            # refuses overlapping buffers)
            c = peer.crypter(offer.algorithm, key, nonce)
            buf = bytearray(want)
            c.decrypt(buf, buf)
            assert bytes(buf) == DATA
            c.close()
            c = peer.crypter(offer.algorithm, key, nonce)
            dst = bytearray(len(want))
            c.bind(want, dst, decrypt=True)()
            assert bytes(dst) == DATA
            c.close()
            # the bench's in-place rows: two views of one buffer, as it binds them
            c = peer.crypter(offer.algorithm, key, nonce)
            view = memoryview(bytearray(want))
            c.bind(view[:], view[:], decrypt=True)()
            c.close()


@pytest.mark.parametrize("peer, offer", [(p, o) for p, o in OFFERS if o.stateful],
                         ids=[f"{p.name}-{o.algorithm}" for p, o in OFFERS if o.stateful])
def test_stateful_peer_continues_the_keystream(peer, offer):
    if offer.algorithm not in gcrylike.algorithms():
        pytest.skip(f"we have no {offer.algorithm} yet")
    if peer.unavailable_reason():
        pytest.skip(peer.unavailable_reason())
    spec = gcrylike._registry.lookup(offer.algorithm)
    nonce = bytes(range(_peers.common_nonce_size(spec.iv_sizes, offer)))
    chunks = [DATA[:100], DATA[100:128], DATA[128:]]
    want = _ours(offer.algorithm, KEY, nonce, chunks)
    c = peer.crypter(offer.algorithm, KEY, nonce)
    got = []
    for chunk in chunks:
        dst = bytearray(len(chunk))
        c(chunk, dst)
        got.append(bytes(dst))
    c.close()
    assert got == want


def _peer_outputs(algo: str, nonce: bytes) -> dict[str, bytes]:
    outs = {}
    for p, o in OFFERS:
        if o.algorithm != algo or len(nonce) not in o.nonce_sizes or p.unavailable_reason():
            continue
        with p.crypter(algo, KEY, nonce) as c:
            dst = bytearray(len(DATA))
            c(DATA, dst)
            outs[p.name] = bytes(dst)
    return outs


@pytest.mark.parametrize("algo, nonce_size", [("CHACHA20", 8), ("CHACHA20", 12),
                                              ("CHACHA20", 16), ("XCHACHA20", 24)])
def test_peers_agree_with_each_other(algo, nonce_size):
    outs = _peer_outputs(algo, bytes(range(0x10, 0x10 + nonce_size)))
    if len(outs) < 2:
        pytest.skip(f"fewer than two peers offer {algo} here")
    assert len(set(outs.values())) == 1, {k: v[:16].hex() for k, v in outs.items()}


def test_chacha20_peers_known_answer():
    # RFC 8439 appendix A.1 test vector #1: zero key and nonce, block 0.
    vec = vectors_chacha.RFC8439_BLOCKS["A.1 #1"]
    assert vec.key == bytes(32).hex() and vec.nonce == bytes(12).hex()
    want = bytes.fromhex(vec.blocks[0])[:16]
    found = 0
    for p, o in OFFERS:
        if o.algorithm == "CHACHA20" and not p.unavailable_reason():
            with p.crypter("CHACHA20", bytes(32), bytes(12)) as c:
                dst = bytearray(16)
                c(bytes(16), dst)
                assert bytes(dst) == want, p.name
                found += 1
    if not found:
        pytest.skip("no ChaCha20 peer installed")


def test_crypter_checks_lengths_and_offers():
    p = next((p for p in _peers.PEERS if p.offer("SALSA20") and not p.unavailable_reason()),
             None)
    if p is None:
        pytest.skip("no SALSA20 peer installed")
    with pytest.raises(KeyError):
        p.crypter("NO-SUCH", KEY, bytes(8))
    with pytest.raises(ValueError):
        p.crypter("SALSA20", KEY, bytes(7))
    with p.crypter("SALSA20", KEY, bytes(8)) as c, pytest.raises(ValueError):
        c(bytes(10), bytearray(9))


def test_bench_survives_a_failing_peer(capsys, monkeypatch):
    def boom(src, dst):
        raise RuntimeError("peer exploded")

    def make(lib, key, nonce):
        return _peers.Crypter(boom)

    fake = _peers.Peer("brokenlib", "ctypes", lambda: (None, "0.1"), (
        _peers.Offer("SALSA20", _peers.STREAM, (32,), (8,), make),
    ))
    monkeypatch.setattr(_peers, "PEERS", (fake,))
    assert main(["bench", "--quick", "--repeats", "1", "--peers", "salsa20"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"# peer brokenlib 0\.1 via ctypes: failed \(RuntimeError: peer exploded",
                     out), out
    assert re.search(r"^ +=$", out, re.M)
    assert main(["bench", "--quick", "--format", "tcrypt", "--seconds", "0.001", "--peers",
                 "salsa20"]) == 0
    assert "# salsa20 peer brokenlib 0.1 via ctypes: failed" in capsys.readouterr().out


# -- MAC and AEAD peers compute what we compute ---------------------------------


def _offer_ids(offers):
    return [f"{p.name}-{o.algorithm}" for p, o in offers]


def _usable(peer, offer):
    if offer.algorithm not in gcrylike.algorithms():
        pytest.skip(f"we have no {offer.algorithm}")
    reason = peer.unavailable_reason()
    if reason:
        pytest.skip(f"{peer.name}: {reason}")


def _adapter(peer, offer, key):
    try:
        if offer.kind == _peers.MAC:
            return peer.tagger(offer.algorithm, key)
        return peer.sealer(offer.algorithm, key)
    except _peers.PeerUnavailable as exc:  # e.g. no raw Poly1305 class in this version
        pytest.skip(str(exc))


#: Message lengths around the 16-byte Poly1305 block and the 64-byte ChaCha
#: block, and a few random ones.
LENGTHS = [0, 1, 15, 16, 17, 63, 64, 65, 1000, *random.Random(8439).sample(range(2, 5000), 4)]


@pytest.mark.parametrize("peer, offer",
                         [(p, o) for p, o in MAC_AEAD_OFFERS if o.kind == _peers.MAC],
                         ids=_offer_ids([(p, o) for p, o in MAC_AEAD_OFFERS
                                         if o.kind == _peers.MAC]))
def test_mac_peer_matches_ours(peer, offer):
    _usable(peer, offer)
    rng = random.Random(f"{peer.name}/{offer.algorithm}")
    for n in LENGTHS:
        key, data = rng.randbytes(32), rng.randbytes(n)
        want = gcrylike.mac(offer.algorithm, key, data)
        with _adapter(peer, offer, key) as t:
            assert t(data) == want, (peer.name, n)
            # the call the bench times, kept alone, twice on the same state
            call = t.bind(data)  # nothing else holds its buffers now (refcounting)
            junk = [bytearray(rng.randbytes(48)) for _ in range(50)]
            assert call.read(call()) == want, (peer.name, n)
            assert call.read(call()) == want, (peer.name, n)
            del junk


@pytest.mark.parametrize("peer, offer",
                         [(p, o) for p, o in MAC_AEAD_OFFERS if o.kind == _peers.AEAD],
                         ids=_offer_ids([(p, o) for p, o in MAC_AEAD_OFFERS
                                         if o.kind == _peers.AEAD]))
def test_aead_peer_matches_ours(peer, offer):
    _usable(peer, offer)
    spec = gcrylike._registry.lookup(offer.algorithm)
    nonce_size = _peers.common_nonce_size(spec.iv_sizes, offer)
    assert nonce_size
    ours_cls = {"CHACHA20-POLY1305": gcrylike.ChaCha20Poly1305,
                "XCHACHA20-POLY1305": gcrylike.XChaCha20Poly1305}[offer.algorithm]
    rng = random.Random(f"{peer.name}/{offer.algorithm}")
    for n in LENGTHS:
        for aad_len in (0, 1, 13, 64):
            key, nonce = rng.randbytes(32), rng.randbytes(nonce_size)
            data, aad = rng.randbytes(n), rng.randbytes(aad_len)
            want = ours_cls(key).encrypt(nonce, data, aad)
            with _adapter(peer, offer, key) as s:
                assert s(nonce, data, aad) == want, (peer.name, n, aad_len)
                call = s.bind(nonce, data, aad)
                junk = [bytearray(rng.randbytes(n + 16)) for _ in range(20)]
                assert call.read(call()) == want, (peer.name, n, aad_len)
                assert call.read(call()) == want, (peer.name, n, aad_len)
                del junk


def test_sealer_and_tagger_check_their_offers():
    p = next((p for p, o in MAC_AEAD_OFFERS
              if o.algorithm == "CHACHA20-POLY1305" and not p.unavailable_reason()), None)
    if p is None:
        pytest.skip("no CHACHA20-POLY1305 peer installed")
    with pytest.raises(TypeError):
        p.tagger("CHACHA20-POLY1305", KEY)
    with pytest.raises(ValueError):
        p.sealer("CHACHA20-POLY1305", KEY[:16])
    with p.sealer("CHACHA20-POLY1305", KEY) as s, pytest.raises(ValueError, match="nonce"):
        s(bytes(8), b"data")
    if p.offer("CHACHA20"):
        with pytest.raises(TypeError):
            p.crypter("CHACHA20-POLY1305", KEY, bytes(12))


# -- our bench targets do the work their rows name --------------------------------


def _first(algo: str) -> str:
    drivers = _runnable(algo)
    if not drivers:
        pytest.skip(f"no {algo} driver runs here")
    return drivers[0]


@pytest.mark.parametrize("algo", ["POLY1305", "NHPOLY1305"])
def test_mac_targets_compute_the_mac(algo):
    spec = gcrylike._registry.lookup(algo)
    bufs = targets.Buffers(4096)
    key = targets.key_for(spec.key_sizes)
    for driver in _runnable(algo):
        target = ours.mac_target(spec, driver, bufs)
        try:
            for n in (64, 1000, 4096):
                want = gcrylike.mac(algo, key, bufs.data(n))
                assert target.bind(n)() == want, (driver, n)
                assert target.bind(n)() == want  # reset() really starts over
                assert target.split(n, 16 if n % 16 == 0 else n)() == want
        finally:
            target.close()
    one = ours.one_shot_target(spec, _first(algo), bufs)
    assert one.bind(100)() == gcrylike.mac(algo, key, bufs.data(100))
    one.close()


@pytest.mark.parametrize("algo", ["CHACHA20-POLY1305", "XCHACHA20-POLY1305"])
def test_aead_targets_compute_the_aead(algo):
    spec = gcrylike._registry.lookup(algo)
    box_cls = {"CHACHA20-POLY1305": gcrylike.ChaCha20Poly1305,
               "XCHACHA20-POLY1305": gcrylike.XChaCha20Poly1305}[algo]
    key = targets.key_for(spec.key_sizes)
    nonce = targets.NONCE[:spec.iv_sizes[0]]
    box = box_cls(key)
    for driver in _runnable(algo):
        bufs = targets.Buffers(4096)
        target = ours.aead_target(spec, driver, bufs)
        try:
            for n in (64, 1000):
                plain = bytes(bufs[n])
                tag = target.bind(n, "POLY1305 enc")()  # in place
                assert bytes(bufs[n]) + tag == box.encrypt(nonce, plain), (driver, n)
                # dec verifies a valid tag over fixed ciphertext (it raises if not)
                target.bind(n, "POLY1305 dec")()
                target.bind(n, "POLY1305 dec")()
                ct_tag = box.encrypt(nonce, b"", bufs.data(n))
                assert target.bind(n, "POLY1305 auth")() == ct_tag, (driver, n)
        finally:
            target.close()
    bufs = targets.Buffers(4096)
    one = ours.one_shot_target(spec, _first(algo), bufs)
    assert one.bind(300)() == box.encrypt(nonce, bufs.data(300))
    one.close()
    box.close()


def test_bench_survives_a_failing_mac_peer(capsys, monkeypatch):
    def make(lib, key):
        def bind(data):
            def call():
                raise RuntimeError("mac peer exploded")

            return call, bytes

        return _peers.Tagger(bind)

    fake = _peers.Peer("brokenmac", "ctypes", lambda: (None, "0.2"), (
        _peers.Offer("POLY1305", _peers.MAC, (32,), (), make, "broken"),
    ))
    monkeypatch.setattr(_peers, "PEERS", (fake,))
    assert main(["bench", "--quick", "--repeats", "1", "--peers", "poly1305"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"# peer brokenmac 0\.2 via ctypes: failed \(RuntimeError: mac peer "
                     r"exploded", out), out
    assert "ours one-shot" in out and re.search(r"^ +=$", out, re.M)
    assert main(["bench", "--quick", "--format", "tcrypt", "--seconds", "0.001", "--peers",
                 "poly1305"]) == 0
    assert "# poly1305 peer brokenmac 0.2 via ctypes: failed" in capsys.readouterr().out


def test_core_clock_estimate_is_plausible():
    """bench-slope's "auto" clock: a timed chain of one-cycle adds."""
    import platform

    mhz = cpuclock.estimate_mhz()
    if platform.machine() not in ("x86_64", "AMD64"):
        assert mhz is None
        return
    assert mhz is not None and 200 < mhz < 10000
    clock = cpuclock.detect_clock(None)
    assert clock.auto and clock.pool is not None and clock.pool.samples
    assert "one-cycle adds" in clock.source
    assert cpuclock.detect_clock(1234.0).mhz == 1234.0


#: Estimates of one core on a shared machine: most slowed by other work.
SWINGING = [1194.0, 3486.0, 2210.0, 1850.0, 3460.0, 2900.0, 3479.0, 3001.0, 1500.0]


def test_clock_pool_takes_the_highest_estimate_that_others_agree_with():
    from gcrylike._bench.clockpool import FIRST, QUORUM, ClockPool

    pool = ClockPool()
    for mhz in SWINGING[:2]:
        pool.add(mhz)
    assert pool.highest == 3486.0 and pool.mhz is None  # one estimate alone is not trusted
    for mhz in SWINGING[2:]:
        pool.add(mhz)
    assert pool.agreeing == 3 >= QUORUM and pool.mhz == 3486.0
    assert "highest of 9 estimates (1194 to 3486 MHz; 3 within 3% of it)" in pool.describe()
    pool.add(None)  # a failed estimate
    pool.add(0.0)
    assert len(pool.samples) == 9

    # a lucky reading far above the rest is not trusted until the clock holds there
    odd = ClockPool()
    for mhz in (2400.0, 2410.0, 2395.0, 5000.0):
        odd.add(mhz)
    assert odd.mhz is None and "did not agree" in odd.describe()

    # filling stops once the estimates agree, or after FIRST of them
    readings = iter(SWINGING)
    filled = ClockPool()
    filled.fill(lambda: next(readings))
    assert filled.samples == SWINGING[:7] and filled.mhz == 3486.0
    never = ClockPool()
    never.fill(lambda: 1000.0 + 500 * len(never.samples))
    assert len(never.samples) == FIRST and never.mhz is None


def test_pooled_clock_holds_between_rows():
    """The clock of c/B is the pooled one: a slow estimate after a row does
    not pull the next row's cycles/byte down."""
    readings = iter([*SWINGING[:7], 1200.0, 1300.0])  # 7: until three agree
    clock = cpuclock.pooled_clock(lambda: next(readings), "injected")
    assert clock.mhz == 3486.0
    assert clock.reading() == 3486.0 and clock.mhz == 3486.0  # 1200 came in
    assert clock.reading() == 3486.0 and clock.mhz == 3486.0  # 1300 came in
    assert "injected: the highest of 9 estimates" in clock.describe()


def test_adiantum_sector_batches(capsys):
    """The storage call: per-sector cost of encrypt_sectors for the default
    and the portable driver, with the reference ratio when a peer is there."""
    assert main(["bench", "--quick", "--peers", "adiantum"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"encrypt_sectors \|  16 x 4096-byte sectors per call", out), out
    default = gcrylike._registry.choose(gcrylike._registry.lookup("adiantum")).driver
    assert re.search(rf"\|  {re.escape(default)}: \d+ ns \([\d.]+ MiB/s\)", out), out
    if default != "adiantum-xchacha12-generic":
        assert re.search(rf"{re.escape(default)} / adiantum-xchacha12-generic: x[\d.]+", out)
    try:
        import cryptography  # noqa: F401
    except ImportError:
        return
    assert re.search(r"ours/peer \|  4 KiB sectors x[\d.]+", out), out


# -- the secretbox: our rows and its peers ------------------------------------------

SECRETBOX_OFFERS = [(p, o) for p in _peers.PEERS for o in p.offers
                    if o.kind == _peers.SECRETBOX]


def test_secretbox_offers_are_listed():
    assert {p.name for p, _ in SECRETBOX_OFFERS} >= {"libsodium", "PyNaCl"}
    assert all(o.algorithm == "XSALSA20-POLY1305" for _, o in SECRETBOX_OFFERS)


@pytest.mark.parametrize("algo", ["secretbox", "xsalsa20-poly1305"])
def test_bench_secretbox_rows(capsys, algo):
    assert main(["bench", "--quick", "--repeats", "1", algo]) == 0
    out = capsys.readouterr().out
    assert "Cipher:" in out.splitlines() and "Other:" not in out.splitlines()
    assert "not measured" not in out
    _assert_spec_table(out, gcrylike._registry.lookup(algo))
    assert "# SECRETBOX enc/dec: one box per call" in out


def test_bench_secretbox_peers_rows(capsys):
    assert main(["bench", "--quick", "--repeats", "1", "--peers", "secretbox"]) == 0
    out = capsys.readouterr().out
    ratio = (r"\s+ours/peer \|  1 KiB x[\d.]+   8 KiB x[\d.]+   64 KiB x[\d.]+   64 B x[\d.]+"
             r" \(\d+ vs \d+ ns/call\)   \[ours: (.+)\]\n")
    assert "(ours one-shot:" not in out  # our rows are the one-shot API already
    for p, _ in SECRETBOX_OFFERS:
        reason = p.unavailable_reason()
        if reason:
            assert f"# peer {p.name}: not available" in out
            continue
        m = re.search(rf"^ {re.escape(p.name)} \S+.* \(peer, [^\n]*\)\n"
                      rf"{_rows(['SECRETBOX enc'])}{ratio}", out, re.M)
        assert m, (p.name, out)
        assert m[1] in _runnable("XSALSA20-POLY1305"), m[0]


def test_bench_tcrypt_secretbox(capsys):
    assert main(["bench", "--format", "tcrypt", "--quick", "--seconds", "0.001", "--peers",
                 "secretbox"]) == 0
    out = capsys.readouterr().out
    for d in _runnable("XSALSA20-POLY1305"):
        if f"# xsalsa20-poly1305 {d}: skipped" in out:
            continue
        for word in ("encryption", "decryption"):
            assert f"testing speed of xsalsa20-poly1305 ({d}) {word}\n" in out, (d, word)
    for p, _ in SECRETBOX_OFFERS:
        if p.unavailable_reason() is None:
            assert re.search(rf"^testing speed of xsalsa20-poly1305 \(peer {re.escape(p.name)} ",
                             out, re.M), p.name


def test_secretbox_targets_compute_the_box():
    spec = gcrylike._registry.lookup("XSALSA20-POLY1305")
    key = targets.key_for(spec.key_sizes)
    nonce = targets.NONCE[:spec.iv_sizes[0]]
    bufs = targets.Buffers(4096)
    drivers = _runnable("XSALSA20-POLY1305")
    assert drivers
    for driver in drivers:
        target = ours.secretbox_target(spec, driver, bufs)
        try:
            assert target.api == _peers.ONE_SHOT and target.main == "SECRETBOX enc"
            for n in (0, 64, 1000, 4096):
                with gcrylike.SecretBox(key, impl=driver) as box:
                    want = box.encrypt(bufs.data(n), nonce)  # nonce || box, as PyNaCl
                assert target.bind(n, "SECRETBOX enc")() == want, (driver, n)
                assert target.bind(n, "SECRETBOX dec")() == bufs.data(n), (driver, n)
        finally:
            target.close()


@pytest.mark.parametrize("peer, offer", SECRETBOX_OFFERS, ids=_offer_ids(SECRETBOX_OFFERS))
def test_secretbox_peer_matches_ours(peer, offer):
    _usable(peer, offer)
    rng = random.Random(f"{peer.name}/{offer.algorithm}")
    for n in LENGTHS:
        for _ in range(2):
            key, nonce, data = rng.randbytes(32), rng.randbytes(24), rng.randbytes(n)
            want = gcrylike.SecretBox(key).encrypt(data, nonce).ciphertext
            assert len(want) == n + 16
            try:
                boxer = peer.boxer(offer.algorithm, key)
            except _peers.PeerUnavailable as exc:
                pytest.skip(str(exc))
            with boxer:
                assert boxer(nonce, data) == want, (peer.name, n)
                # the call the bench times, kept alone, twice
                call = boxer.bind(nonce, data)
                junk = [bytearray(rng.randbytes(n + 16)) for _ in range(20)]
                assert call.read(call()) == want, (peer.name, n)
                assert call.read(call()) == want, (peer.name, n)
                del junk
            assert gcrylike.SecretBox(key).decrypt(want, nonce) == data


def test_boxer_checks_its_offer():
    p = next((p for p, _ in SECRETBOX_OFFERS if not p.unavailable_reason()), None)
    if p is None:
        pytest.skip("neither PyNaCl nor libsodium loads here")
    with pytest.raises(TypeError):
        p.sealer("XSALSA20-POLY1305", KEY)
    with pytest.raises(ValueError):
        p.boxer("XSALSA20-POLY1305", KEY[:16])
    with p.boxer("XSALSA20-POLY1305", KEY) as b, pytest.raises(ValueError, match="nonce"):
        b(bytes(12), b"data")


# -- machine-readable records: --json and --csv ---------------------------------

#: A table row: label | ns/B MiB/s c/B auto-Mhz call-ns
TABLE_ROW = re.compile(r"^ +(\S.*?) \|\s+([\d.]+|-) ns/B\s+([\d.]+|-) MiB/s\s+([\d.]+|-) c/B"
                       r"\s+(\d+|-)\s+(\d+)\*?(?:$|  )")


def _table_rows(out: str) -> list[tuple[str, str, str, str, str]]:
    """(group title, label, ns/B, MiB/s, call ns) of every slope row of the table."""
    rows, title = [], None
    for line in out.splitlines():
        m = TABLE_ROW.match(line)
        if m:
            rows.append((title, m[1], m[2], m[3], m[6]))
        elif line.startswith(" ") and "|" not in line and not line.lstrip().startswith(
                ("#", "=")):
            title = line[1:]
    return rows


def _check_record_numbers(rec: dict) -> None:
    for key in ("size", "size_min", "size_max", "ns_per_byte", "mib_per_s", "cycles_per_byte",
                "mhz", "ns_per_call", "ratio", "versus_ns_per_call", "threads", "cpu_ns_thread",
                "cpu_ns_process"):
        if rec[key] is not None:
            assert isinstance(rec[key], (int, float)) and rec[key] > 0, (key, rec)
    if rec["record"] == "slope":
        # the intercept is a fitted value: noise can push it below zero, but
        # the call cost shown never goes there
        assert isinstance(rec["intercept_ns"], float) and rec["r2"] <= 1.0, rec
        assert rec["call_ns"] >= 0 and rec["call_from"] in ("fit", "64-byte call"), rec
        assert (rec["call_from"] == "fit") == (rec["call_ns"] == rec["intercept_ns"]), rec
        assert rec["size_min"] < rec["size_max"] and isinstance(rec["noisy"], bool)
        assert (rec["ns_per_byte"] is None) == (rec["mib_per_s"] is None), rec
    if rec["record"] == "point":
        assert rec["mib_per_s"] == pytest.approx(
            rec["size"] / rec["ns_per_call"] * 1e9 / 2**20, rel=1e-4), rec


def test_bench_json_and_csv_hold_every_table_row(capsys, tmp_path):
    from gcrylike._bench.report.records import FIELDS, read_csv

    jpath, cpath = tmp_path / "r.json", tmp_path / "r.csv"
    assert main(["bench", "--quick", "--repeats", "1", "--peers", "--json", str(jpath),
                 "--csv", str(cpath), "salsa20", "poly1305"]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert f"wrote {jpath}" in captured.err and f"wrote {cpath}" in captured.err
    doc = json.loads(jpath.read_text())
    assert doc["format"] == "gcrylike-bench" and doc["schema"] == 3
    assert doc["fields"] == list(FIELDS)
    assert doc["settings"]["sizes"] == list(options.QUICK_SIZES)
    assert doc["command"][-2:] == ["salsa20", "poly1305"]
    m = doc["machine"]
    assert m["cpu_model"] and m["cores"] >= 1 and m["mhz_source"]
    assert set(m["features_in_use"]) == set(gcrylike.config().active_features)
    v = doc["versions"]
    assert v["gcrylike"] == gcrylike.__version__ and v["python"].split()[-1].count(".") == 2
    assert set(v["peers"]) == {p.name for p in _peers.PEERS}
    for name, info in v["peers"].items():
        assert (info["version"] is None) == (info["unavailable"] is not None), name

    records = doc["records"]
    for rec in records:
        assert list(rec) == list(FIELDS), rec
        assert rec["record"] in ("slope", "point", "ratio", "sectors", "threads")
        assert rec["algorithm"] in ("SALSA20", "POLY1305")
        assert rec["role"] in ("impl", "one-shot", "peer") and rec["driver"]
        _check_record_numbers(rec)

    # every row of the table is one slope record with the same figures
    table = _table_rows(out)
    slope = [r for r in records if r["record"] == "slope"]
    assert len(table) == len(slope) and table
    for (title, label, ns, mib, call), rec in zip(table, slope, strict=True):
        assert (title, label) == (rec["target"], rec["operation"])
        if ns == "-":
            assert rec["ns_per_byte"] is None
        else:
            # the table's figures are the records' rounded to its decimals
            assert float(ns) == pytest.approx(rec["ns_per_byte"], abs=5.01e-4)
            assert float(mib) == pytest.approx(rec["mib_per_s"], abs=0.0501)
        assert int(call) == pytest.approx(rec["call_ns"], abs=0.501)
    # each slope record's fit points, at every size of the run
    for rec in slope:
        sizes = [p["size"] for p in records if p["record"] == "point"
                 and (p["target"], p["operation"]) == (rec["target"], rec["operation"])]
        assert sizes == list(options.QUICK_SIZES), rec
    # each ours/peer line: one ratio record per size it shows
    ratio_lines = re.findall(r"^ +(ours/peer|out= buffer|new bytes) \|  (.*)\[ours: ", out,
                             re.M)
    ratios = [r for r in records if r["record"] == "ratio" and r["style"] != "threads"]
    assert len(ratios) == sum(len(re.findall(r" x[\d.]+", parts)) for _, parts in ratio_lines)
    assert all(r["versus"] and r["style"] in ("in place", "out= buffer", "new bytes")
               for r in ratios)
    assert {r["style"] for r in ratios} >= {"in place", "out= buffer"}
    assert m["data_path"] == gcrylike.config().data_path
    assert m["threads_default"] == gcrylike._fast.DEFAULT_THREADS

    # the CSV: a plain one (header row first) holding the same records as
    # strings; the run's header is the JSON's alone
    with open(cpath, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    assert reader.fieldnames == list(FIELDS)
    assert rows == read_csv(str(cpath))
    assert len(rows) == len(records)
    for row, rec in zip(rows, records, strict=True):
        assert list(row) == list(FIELDS) and None not in row  # no stray cells
        assert row["driver"] == rec["driver"] and row["operation"] == rec["operation"]
        assert row["ns_per_call"] == ("" if rec["ns_per_call"] is None
                                      else str(rec["ns_per_call"]))
    assert not cpath.read_text().startswith("#")


def test_bench_records_of_the_storage_call(tmp_path, capsys):
    path = tmp_path / "a.json"
    driver = _runnable("ADIANTUM(XCHACHA12,AES)")[-1]
    assert main(["bench", "--quick", "--repeats", "1", "--impl", driver, "--json", str(path),
                 "adiantum"]) == 0
    capsys.readouterr()
    records = json.loads(path.read_text())["records"]
    sectors = [r for r in records if r["record"] == "sectors"]
    assert [r["driver"] for r in sectors] == [driver]
    assert sectors[0]["size"] == 4096 and sectors[0]["operation"] == "encrypt_sectors"
    for rec in records:
        _check_record_numbers(rec)


@pytest.mark.parametrize("extra, message", [
    (["--format", "tcrypt", "--json", "x.json"], "do not go with --format tcrypt"),
    (["--plot", "x.gif"], ".png, .svg or .pdf"),
    (["--csv", "/no/such/dir/x.csv"], "no such directory"),
])
def test_bench_output_errors_come_before_the_run(capsys, extra, message):
    assert main(["bench", "--quick", *extra, "salsa20"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err


# -- --plot -------------------------------------------------------------------------


def test_bench_plot_needs_the_extra(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    assert main(["bench", "--quick", "--plot", str(tmp_path / "p.png"), "salsa20"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before measuring anything
    assert "matplotlib" in captured.err and "gcrylike[plot]" in captured.err
    assert not (tmp_path / "p.png").exists()


def test_bench_plot_png_and_svg(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "p.png", tmp_path / "p.svg"
    assert main(["bench", "--quick", "--repeats", "1", "--plot", str(png), "salsa20r12"]) == 0
    assert main(["bench", "--quick", "--repeats", "1", "--plot", str(svg), "salsa20r12"]) == 0
    capsys.readouterr()
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert 400 <= width <= 4000 and 300 <= height <= 4000
    text = svg.read_text()
    root = ElementTree.fromstring(text)
    assert root.tag.endswith("svg")
    # matplotlib draws text as paths, each after a comment holding the text
    labels = re.findall(r"<!-- (.*?) -->", text)
    assert "SALSA20R12" in labels and "MiB/s" in labels
    for d in _runnable("SALSA20R12"):
        if f"# {d}: skipped" not in text:
            assert d in labels, d


def test_plot_has_one_line_per_driver_and_peer(tmp_path):
    pytest.importorskip("matplotlib")
    from gcrylike._bench.report.plot import plot

    def rec(algo, role, driver, target, size, mib, primary=True):
        return {"record": "point", "algorithm": algo, "role": role, "driver": driver,
                "target": target, "operation": "STREAM enc", "primary": primary,
                "size": size, "mib_per_s": mib}

    records = []
    for size, mib in ((64, 100.0), (1024, 900.0), (65536, 3000.0)):
        records += [rec("CHACHA20", "impl", "chacha20-fast", "chacha20-fast (ours)", size, mib),
                    rec("CHACHA20", "impl", "chacha20-fast", "chacha20-fast (ours)", size, 1.0,
                        primary=False),  # not the main operation: not drawn
                    rec("CHACHA20", "peer", "peer lib 1.0 via ctypes",
                        "lib 1.0, OpenSSL 3 (peer, ctypes: f)", size, mib / 2),
                    rec("POLY1305", "one-shot", "poly-x one-shot", "poly-x (ours one-shot)",
                        size, mib)]
    fig = plot(records, {"machine": {"cpu_model": "Test CPU"}}, str(tmp_path / "t.png"))
    panels = {ax.get_title(): ax for ax in fig.axes if ax.get_visible()}
    assert set(panels) == {"CHACHA20", "POLY1305"}
    ax = panels["CHACHA20"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["chacha20-fast", "lib 1.0"]
    assert ax.get_xscale() == "log"
    ours, peer = ax.get_lines()
    assert list(ours.get_xdata()) == [64, 1024, 65536]
    assert list(peer.get_ydata()) == [50.0, 450.0, 1500.0] and peer.get_linestyle() == "--"
    assert [t.get_text() for t in panels["POLY1305"].get_legend().get_texts()] == [
        "poly-x one-shot"]
    assert "Test CPU" in fig.get_suptitle() and "dashed: peers" in fig.get_suptitle()
    assert "ours via" not in fig.get_suptitle()  # the header does not say
    fig = plot(records, {"machine": {"data_path": "fastcall"}}, str(tmp_path / "f.png"))
    assert "ours via gcrylike._fastcall" in fig.get_suptitle()
    fig = plot(records[3::4], {}, str(tmp_path / "o.png"))  # ours only: no peer key
    assert "peers" not in fig.get_suptitle()


#: A run's header as the records hold it, with a long CPU name and peers.
LONG_HEADER = {
    "machine": {"cpu_model": "AMD EPYC 9R14 96-Core Processor with a long model name",
                "mhz": 3675.2, "mhz_source": "timed chains", "data_path": "fastcall"},
    "versions": {"gcrylike": "0.1.0"}, "settings": {"stat": "min", "repeats": 11,
                                                   "clock": "cpu"},
    "date": "2026-12-06T10:00:00+00:00"}


def _points(algorithm: str, role: str = "impl", driver: str = "x-generic") -> list[dict]:
    return [{"record": "point", "algorithm": algorithm, "role": role, "driver": driver,
             "target": f"{driver} (ours)" if role != "peer" else "lib 1.0 (peer, ctypes: f)",
             "operation": "STREAM enc", "primary": True, "size": size, "mib_per_s": mib}
            for size, mib in ((64, 100.0), (1024, 900.0), (65536, 3000.0))]


def test_plot_of_one_algorithm_keeps_its_caption_inside_the_figure(tmp_path):
    """A one-panel figure's caption is wrapped to the figure's width (at
    its "; " first), and the file is saved at 135 dpi with a tight box."""
    pytest.importorskip("matplotlib")
    from gcrylike._bench.report.plot import plot

    records = _points("CHACHA20") + _points("CHACHA20", "peer", "peer lib 1.0 via ctypes")
    path = tmp_path / "one.png"
    fig = plot(records, LONG_HEADER, str(path))
    title = fig.get_suptitle()
    assert "\n" in title and "; solid: ours" not in title  # broken at its "; "
    assert any(line.startswith("solid: ours, dashed: peers") for line in title.splitlines())
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)  # the constrained layout, as saving does it
    box = fig._suptitle.get_window_extent(renderer)
    assert 0 <= box.x0 and box.x1 <= fig.bbox.width, (box, fig.bbox)  # not clipped
    data = path.read_bytes()
    width, _height = struct.unpack(">II", data[16:24])
    assert 6.4 * 125 < width < 6.4 * 145, width  # ~135 dpi, not 100


def test_plot_per_algorithm_file_names(tmp_path):
    pytest.importorskip("matplotlib")
    from gcrylike._bench.report.plot import file_name, plot_files

    assert file_name("d/bench-{algorithm}.svg", "ADIANTUM(XCHACHA12,AES)") == (
        "d/bench-adiantum-xchacha12-aes.svg")
    records = _points("CHACHA20-POLY1305") + _points("POLY1305")
    written = plot_files(records, LONG_HEADER, str(tmp_path / "b-{algorithm}.svg"))
    assert written == [str(tmp_path / "b-chacha20-poly1305.svg"),
                       str(tmp_path / "b-poly1305.svg")]
    for name, algo in zip(written, ("CHACHA20-POLY1305", "POLY1305"), strict=True):
        labels = re.findall(r"<!-- (.*?) -->", open(name, encoding="utf-8").read())
        assert algo in labels and {"CHACHA20-POLY1305", "POLY1305"} - {algo} - set(labels)
    assert plot_files(records, LONG_HEADER, str(tmp_path / "all.svg")) == [
        str(tmp_path / "all.svg")]


def test_bench_plot_per_algorithm(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    assert main(["bench", "--quick", "--repeats", "1", "--impl", "salsa20r12-generic",
                 "--impl", "salsa20-generic", "--plot", str(tmp_path / "p-{algorithm}.png"),
                 "salsa20r12", "salsa20"]) == 0
    err = capsys.readouterr().err
    for algo in ("salsa20r12", "salsa20"):
        path = tmp_path / f"p-{algo}.png"
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"wrote {path}" in err


# -- the data path, the out= buffer call style, the thread rows ------------------------


def test_bench_header_names_the_data_path(capsys):
    """The table's header and the bindings note say which path our data
    calls take, and it is the one our handles really take."""
    from gcrylike._bench.report.table import path_words

    driver = _runnable("CHACHA20")[0]
    assert main(["bench", "--quick", "--repeats", "1", "--peers", "--impl", driver,
                 "chacha20"]) == 0
    out = _unwrapped(capsys.readouterr().out)
    path = gcrylike.config().data_path
    words = path_words()
    assert out.splitlines()[1] == f"# ours: data calls through {words}"
    assert words.startswith("gcrylike._fastcall" if path == "fastcall" else "cffi (")
    assert f"# Bindings differ: ours goes through {words} and" in out
    assert "goes through cffi" not in out or path == "cffi"
    assert f"{driver}: data calls through" not in out  # the handle agrees with the header


def test_bench_without_the_fast_path(tmp_path):
    """GCRYLIKE_NO_FASTCALL=1: the header, the records and the notes say cffi,
    and there are no thread rows (cffi keeps every call on its thread)."""
    import os
    import subprocess

    path = tmp_path / "r.json"
    env = {**os.environ, "GCRYLIKE_NO_FASTCALL": "1"}
    driver = _runnable("CHACHA20")[-1]
    run = subprocess.run([sys.executable, "-m", "gcrylike", "bench", "--quick", "--repeats",
                          "1", "--impl", driver, "--json", str(path), "chacha20"],
                         env=env, cwd="/", capture_output=True, text=True, check=True)
    out = run.stdout
    assert "# ours: data calls through cffi (GCRYLIKE_NO_FASTCALL is set)" in out, out
    assert " threads |" not in out
    assert "# threads: no thread rows" in out
    doc = json.loads(path.read_text())
    assert doc["machine"]["data_path"] == "cffi"
    assert doc["machine"]["data_path_reason"] == "GCRYLIKE_NO_FASTCALL is set"
    assert not [r for r in doc["records"] if r["record"] == "threads"]


def test_out_buffer_calls_write_the_separate_buffer():
    """The out= buffer binders: ours encrypt(data, out=buf) and a peer's
    call from the same bytes into the scratch buffer, each leaving the
    ciphertext there and the data buffer untouched."""
    from gcrylike._bench.theirs import peer_target

    spec = gcrylike._registry.lookup("CHACHA20")
    bufs = targets.Buffers(4096)
    before = bytes(bufs.buf)
    n = 1000
    mine = ours.stream_target(spec, _runnable("CHACHA20")[0], bufs)
    try:
        mine.apart(n)()
        h = ours.keyed(gcrylike.cipher_open("chacha20"), targets.key_for(spec.key_sizes),
                       targets.NONCE[:spec.iv_sizes[0]])
        assert bytes(bufs.scratch(n)) == h.encrypt(bufs.data(n))
        h.close()
    finally:
        mine.close()
    assert bytes(bufs.buf) == before
    tried = 0
    for peer, offer in _peers.peers_for("CHACHA20"):
        if offer.reference or peer.unavailable_reason():
            continue
        bufs.scratch(n)[:] = bytes(n)
        theirs = peer_target(spec, peer, offer, bufs)
        try:
            theirs.apart(n)()
        finally:
            theirs.close()
        nonce = targets.NONCE[:_peers.common_nonce_size(spec.iv_sizes, offer)]
        expect = _ours("CHACHA20", targets.key_for(spec.key_sizes), nonce, [bufs.data(n)])[0]
        assert bytes(bufs.scratch(n)) == expect, peer.name
        assert bytes(bufs.buf) == before, peer.name
        tried += 1
    if not tried:
        pytest.skip("no ChaCha20 peer installed")


def test_bench_thread_rows(capsys, tmp_path):
    """A 16 MiB stream call and encrypt_sectors over 16 MiB, on 1 thread and
    on set_threads's default, with the speed-up, in the table and the records."""
    from gcrylike._bench import threads

    n = threads.thread_count()
    if n < 2:
        pytest.skip(f"no thread rows here: {threads.why_no_threads()}")
    path = tmp_path / "t.json"
    prev = gcrylike.set_threads(1)  # the rows measure 1 and the default whatever this is
    try:
        stream = _runnable("CHACHA20")[0]
        sector = _runnable("ADIANTUM(XCHACHA12,AES)")[0]
        assert main(["bench", "--quick", "--repeats", "1", "--impl", stream, "--impl", sector,
                     "--json", str(path), "chacha20", "adiantum"]) == 0
        assert gcrylike.set_threads(prev) == 1  # left as it was
    finally:
        gcrylike.set_threads(prev)
    out = capsys.readouterr().out
    for what, driver in (("one encrypt\\(buf, out=buf\\)", stream),
                         ("sectors of 4 KiB, encrypt_sectors\\(buf, 0, 4096, threads=n\\)",
                          sector)):
        assert re.search(rf"^ +threads \|  16 MiB per call, {what} \[{re.escape(driver)}\], "
                         rf"wall clock:\n +\|  1 thread: [\d.]+ ms \(\d+ MiB/s\); "
                         rf"CPU [\d.]+ ms on this thread of [\d.]+ ms in all\n"
                         rf" +\|  {n} threads: [\d.]+ ms \(\d+ MiB/s\); "
                         rf"CPU [\d.]+ ms on this thread of [\d.]+ ms in all\n"
                         rf" +\|  speed-up 1 -> {n} threads: x[\d.]+\n", out, re.M), out
    assert f"# threads: one 16 MiB call on 1 thread and on {n} " in out
    records = json.loads(path.read_text())["records"]
    for op, driver in (("encrypt", stream), ("encrypt_sectors", sector)):
        rows = [r for r in records if r["record"] == "threads" and r["operation"] == op]
        assert [r["threads"] for r in rows] == [1, n] and {r["driver"] for r in rows} == {driver}
        assert all(r["size"] == threads.THREAD_BYTES for r in rows)
        # the work is shared out: N threads leave the calling thread about
        # 1/N of it (CPU time, whatever other processes do to the wall clock)
        one, many = rows
        assert one["cpu_ns_thread"] <= one["cpu_ns_process"] * 1.05
        assert many["cpu_ns_thread"] < 0.8 * many["cpu_ns_process"], many
        (ratio,) = [r for r in records if r["style"] == "threads" and r["operation"] == op]
        assert ratio["record"] == "ratio" and ratio["threads"] == n
        assert ratio["ratio"] == pytest.approx(rows[0]["ns_per_call"] / rows[1]["ns_per_call"],
                                               rel=1e-6)
        for r in (*rows, ratio):
            _check_record_numbers(r)


def test_thread_calls_compute_the_same_bytes():
    """The calls the thread rows time encrypt as one call on one thread
    does, whatever the count (and set_threads comes back as it was)."""
    from gcrylike._bench import threads

    for algo, make in (("CHACHA20", threads.stream_calls),
                       ("ADIANTUM(XCHACHA12,AES)", threads.sector_calls)):
        spec = gcrylike._registry.lookup(algo)
        driver = _runnable(algo)[0]
        outputs = []
        for count in (1, 3):
            buf = bytearray(random.Random(5).randbytes(4 << 20))
            fns, handle = make(spec, driver, buf, (count,))
            prev = gcrylike.set_threads(None)
            try:
                fns[count]()
            finally:
                handle.close()
                gcrylike.set_threads(prev)
            outputs.append(bytes(buf))
        assert outputs[0] == outputs[1], algo
        assert outputs[0] != random.Random(5).randbytes(4 << 20)


def test_no_thread_rows_on_one_cpu(capsys, monkeypatch):
    from gcrylike._bench import threads

    monkeypatch.setattr(_fast.os, "sched_getaffinity", lambda pid: {0})
    assert threads.thread_count() == 1
    assert threads.why_no_threads() == "this process may use one CPU only"
    monkeypatch.setattr("gcrylike._bench.slope.thread_count", threads.thread_count)
    assert main(["bench", "--quick", "--repeats", "1", "--impl", _runnable("SALSA20")[-1],
                 "salsa20"]) == 0
    out = capsys.readouterr().out
    assert " threads |" not in out
    assert "# threads: no thread rows, this process may use one CPU only." in out


# -- the bench is a client of the public API ----------------------------------------


def _modules(root, package: str, skip: str | None = None):
    """(module name, its package, its AST) of every module under ``root``,
    the folder of package ``package``, without the subpackage ``skip``."""
    import ast
    import pathlib

    root = pathlib.Path(root)
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if skip and ".".join(parts).startswith(skip):
            continue
        if parts[-1] == "__init__":
            parts.pop()
            name = pkg = ".".join(parts)
        else:
            name, pkg = ".".join(parts), ".".join(parts[:-1])
        yield name, pkg, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _defined_private_names(trees) -> set[str]:
    """Private names the modules define: attributes they assign, functions,
    classes and variables, ``__slots__`` entries."""
    import ast

    names = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.add(node.value)  # __slots__ entries, names in getattr()
    return {n for n in names if isinstance(n, str) and _is_private(n)}


def private_api_uses(bench_root, gcrylike_root, public: set[str]) -> list[str]:
    """Where the bench (the package in ``bench_root``) steps outside
    gcrylike's public API (``public``: gcrylike.__all__; ``gcrylike_root``:
    the gcrylike package): an import of a private gcrylike module or name,
    ``gcrylike.X`` for an X neither in ``__all__`` nor a public submodule, a
    private attribute that gcrylike defines read on anything but ``self`` or
    ``cls`` (``handle._path``) or named in ``getattr``, a private module
    given to ``import_module``."""
    import ast
    import pathlib

    bench = list(_modules(bench_root, "gcrylike._bench"))
    theirs = _defined_private_names(
        tree for _, _, tree in _modules(gcrylike_root, "gcrylike", skip="gcrylike._bench"))
    found = []

    def module_ok(module: str) -> bool:
        # the bench's own modules, gcrylike itself, public submodules (gcrylike.testing)
        return (module == "gcrylike._bench" or module.startswith("gcrylike._bench.")
                or not any(_is_private(p) for p in module.split(".")))

    def public_name(name: str) -> bool:
        root = pathlib.Path(gcrylike_root)
        return name in public or (not _is_private(name) and (
            (root / f"{name}.py").exists() or (root / name / "__init__.py").exists()))

    for name, pkg, tree in bench:
        aliases = set()  # names the gcrylike module is bound to here
        for node in ast.walk(tree):
            where = f"{name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] != "gcrylike":
                        continue
                    if not module_ok(a.name):
                        found.append(f"{where}: import {a.name}")
                    if a.name == "gcrylike":
                        aliases.add(a.asname or "gcrylike")
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[:len(pkg.split(".")) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                if module.split(".")[0] != "gcrylike":
                    continue
                if not module_ok(module):
                    found.append(f"{where}: from {module} import ...")
                elif module == "gcrylike":
                    found += [f"{where}: from gcrylike import {a.name}" for a in node.names
                              if not (a.name == "_bench" or public_name(a.name))]
            elif isinstance(node, ast.Attribute):
                if isinstance(node.value, ast.Name) and node.value.id in aliases:
                    if not public_name(node.attr):
                        found.append(f"{where}: gcrylike.{node.attr} (not in __all__)")
                elif node.attr in theirs and not (
                        isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                    found.append(f"{where}: .{node.attr} (gcrylike's private attribute)")
            elif isinstance(node, ast.Call) and node.args:
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                arg = [a.value for a in node.args[:2] if isinstance(a, ast.Constant)]
                if (called in ("getattr", "setattr", "hasattr", "delattr") and len(arg) == 1
                        and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)
                        and arg[0] in theirs):
                    found.append(f"{where}: {called}(..., {arg[0]!r})")
                elif (called in ("import_module", "__import__") and arg
                      and isinstance(arg[0], str) and not module_ok(arg[0])):
                    found.append(f"{where}: {called}({arg[0]!r})")
    return found


def test_bench_uses_only_the_public_api():
    """The bench is a client of gcrylike like any other (issue 19, item 6):
    every module of the installed gcrylike._bench imports nothing private
    of gcrylike, uses only names of gcrylike.__all__ and reads no private
    attribute of a gcrylike object."""
    import importlib.util
    import pathlib

    bench_root = pathlib.Path(importlib.util.find_spec("gcrylike._bench").origin).parent
    assert private_api_uses(bench_root, bench_root.parent, set(gcrylike.__all__)) == []


def test_the_public_api_check_finds_private_uses(tmp_path):
    """The check above refuses each way of reaching past the public API."""
    import importlib.util
    import pathlib

    root = pathlib.Path(importlib.util.find_spec("gcrylike").origin).parent
    bench = tmp_path / "_bench"
    (bench / "report").mkdir(parents=True)
    (bench / "__init__.py").write_text("")
    (bench / "report" / "__init__.py").write_text("")
    cases = {
        "from ... import _registry": "from gcrylike import _registry",
        "from ..._aead import _OneShotAead": "from gcrylike._aead import",
        "import gcrylike._core": "import gcrylike._core",
        "import gcrylike\nx = gcrylike._fast": "gcrylike._fast (not in __all__)",
        "import gcrylike as g\nx = g.algorithms, g._hwf": "gcrylike._hwf",
        "def f(h):\n    return h._path": "._path (gcrylike's private attribute)",
        "def f(h):\n    return getattr(h, '_spec')": "getattr(..., '_spec')",
        "import importlib\nimportlib.import_module('gcrylike._registry')": "'gcrylike._registry'",
    }
    for source, expected in cases.items():
        (bench / "report" / "mod.py").write_text(source + "\n")
        found = private_api_uses(bench, root, set(gcrylike.__all__))
        assert len(found) == 1 and expected in found[0], (source, found)
    # the bench's own private names, and relative imports inside the bench, are its own
    (bench / "report" / "mod.py").write_text(
        "from ..report import mod\nimport gcrylike\n\nclass A:\n    def __init__(self):\n"
        "        self._mine = gcrylike.config()\n\n\ndef f(a):\n    return a._mine\n")
    assert private_api_uses(bench, root, set(gcrylike.__all__)) == []


@pytest.mark.parametrize("name", sorted(ours.ONE_SHOT_CLASSES))
def test_one_shot_classes_serve_their_algorithms(name):
    """The bench's table of our public one-shot classes: each class runs
    the algorithm it is listed under, on that algorithm's chosen driver."""
    infos = gcrylike.implementations(name)
    box = ours.ONE_SHOT_CLASSES[name](bytes(32))
    try:
        assert box.driver == next(i.driver for i in infos if i.chosen)
    finally:
        box.close()
    assert {i.kind for i in infos} <= {"aead", "secretbox"}


def test_bench_names_a_plugin_off_the_fast_path(capsys, clean_registry, monkeypatch):
    """A plugin whose hooks are Python functions takes cffi: its rows say so
    (gcrylike.data_path of its handle) when the process takes the fast path."""
    import toy_cipher

    gcrylike.register(toy_cipher.make_spec())
    monkeypatch.setattr("gcrylike._bench.slope.thread_count", lambda: 1)  # 16 MiB in Python
    assert main(["bench", "--quick", "--repeats", "1", "--sizes", "64,128", "toy"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^ toy-python \(ours\)\n", out, re.M), out
    note = " # toy-python: data calls through cffi, not fastcall"
    assert (note in out.splitlines()) == (gcrylike.config().data_path == "fastcall"), out
