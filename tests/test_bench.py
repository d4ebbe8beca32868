"""``gcrylike bench`` and the peer adapters.

Nothing here asserts on speed: only on the fit, the shape of the output and
that the peers compute the same thing we do.
"""

from __future__ import annotations

import random
import re

import pytest

import gcrylike
from gcrylike import _bench, _peers
from gcrylike._cli import main

KEY = bytes(range(0x80, 0xA0))
DATA = bytes((7 * i + 3) & 0xFF for i in range(1000))  # not a multiple of 64

ROW = r"(?:[\d.]+|-) ns/B\s+(?:[\d.]+|-) MiB/s\s+(?:[\d.]+|-) c/B\s+(?:\d+|-)\s+-?\d+"


def _runnable(algo: str) -> list[str]:
    return [i.driver for i in gcrylike.implementations(algo) if i.available]


def _assert_rows_or_selftest_skip(out: str, driver: str) -> None:
    """Rows for ``driver``, or a note that it failed its selftest (an
    implementation may be broken while someone works on it; the bench must
    then say so instead of measuring it)."""
    rows = re.search(rf"^ {re.escape(driver)} \(ours\)\n"
                     rf"\s+STREAM enc \|\s*{ROW}.*\n"
                     rf"\s+STREAM dec \|\s*{ROW}", out, re.M)
    if rows is None:
        assert re.search(rf"# {re.escape(driver)}: skipped \(.*SELFTEST", out), out


# -- the slope fit ------------------------------------------------------------


def test_fit_recovers_exact_line():
    xs = [1024 * k for k in range(1, 17)]
    ys = [1234.5 + 0.731 * x for x in xs]
    fit = _bench.fit_slope(xs, ys)
    assert fit.slope == pytest.approx(0.731, rel=1e-12)
    assert fit.intercept == pytest.approx(1234.5, rel=1e-9)
    assert fit.r2 == pytest.approx(1.0)


def test_fit_recovers_noisy_line():
    rng = random.Random(20240501)
    xs = [1024 * k for k in range(1, 17) for _ in range(5)]
    ys = [600.0 + 2.5 * x + rng.gauss(0, 50) for x in xs]
    fit = _bench.fit_slope(xs, ys)
    assert fit.slope == pytest.approx(2.5, rel=0.01)
    assert fit.intercept == pytest.approx(600.0, abs=60)
    assert 0.99 < fit.r2 < 1.0


def test_fit_flat_and_negative_intercept():
    fit = _bench.fit_slope([1, 2, 3], [5.0, 5.0, 5.0])
    assert (fit.slope, fit.intercept, fit.r2) == (0.0, 5.0, 1.0)
    fit = _bench.fit_slope([100, 200], [50.0, 150.0])
    assert fit.slope == pytest.approx(1.0)
    assert fit.intercept == pytest.approx(-50.0)


@pytest.mark.parametrize("xs, ys", [([1], [1.0]), ([4, 4, 4], [1.0, 2.0, 3.0]),
                                    ([1, 2], [1.0])])
def test_fit_rejects_degenerate_input(xs, ys):
    with pytest.raises(ValueError):
        _bench.fit_slope(xs, ys)


# -- helpers ------------------------------------------------------------------


def test_parse_sizes():
    assert _bench.parse_sizes("1k-4k:1k") == (1024, 2048, 3072, 4096)
    assert _bench.parse_sizes("64,1k,64, 16KiB") == (64, 1024, 16384)
    assert _bench.parse_sizes("256-1024") == (256, 512, 768, 1024)
    for bad in ("1k", "x,1k", "0,1k", "-5,1k"):
        with pytest.raises(Exception, match="size"):
            _bench.parse_sizes(bad)


def test_cpuinfo_parsing(monkeypatch):
    text = ("processor\t: 0\ncpu MHz\t\t: 2445.430\n\n"
            "processor\t: 1\ncpu MHz\t\t: 4199.9\n\n")
    monkeypatch.setattr(_bench, "_cpus", lambda: [0, 1])
    assert _bench.cpuinfo_mhz(text) == 4199.9
    monkeypatch.setattr(_bench, "_cpus", lambda: [0])  # only the CPUs we may run on
    assert _bench.cpuinfo_mhz(text) == 2445.43
    assert _bench.cpuinfo_mhz("flags: sse2\n") is None


def test_time_per_call_and_count_for_measure_something():
    calls = []
    med = _bench.time_per_call({1: lambda: calls.append(1), 2: lambda: None}, 3, 1e5)
    assert set(med) == {1, 2} and all(v > 0 for v in med.values())
    ops, elapsed = _bench.count_for(lambda: None, 0.005)
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
        assert re.search(rf"^ {algo} +\|", out, re.M)
    assert "4200 MHz from --cpu-mhz" in out


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
        for i, (line, size) in enumerate(zip(lines, _bench.TCRYPT_SIZES, strict=True)):
            m = re.fullmatch(rf"test {i} \(256 bit key, {size} byte blocks\): (\d+) operations"
                             r" in ([\d.]+) seconds \((\d+) bytes\)", line)
            assert m, line
            assert int(m[3]) == int(m[1]) * size


def test_bench_peers_rows(capsys):
    pytest.importorskip("Crypto.Cipher.Salsa20")
    assert main(["bench", "--quick", "--repeats", "1", "--peers", "salsa20"]) == 0
    out = capsys.readouterr().out
    m = re.search(r"^ pycryptodome \S+ \(peer, [^)]*\)\n"
                  rf"\s+STREAM enc \|\s*{ROW}.*\n"
                  rf"\s+STREAM dec \|\s*{ROW}.*\n"
                  r"\s+ours/peer \|  8 KiB x[\d.]+   64 KiB x[\d.]+   64 B x[\d.]+", out, re.M)
    assert m, out
    assert "Bindings differ" in out


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
    assert "# no peer library in gcrylike._peers offers SALSA20R12" in out


# -- the peer adapters compute what we compute ----------------------------------

OFFERS = [(p, o) for p in _peers.PEERS for o in p.offers]


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
            # decryption, in place, and through bind()
            c = peer.crypter(offer.algorithm, key, nonce)
            buf = bytearray(want)
            c.bind(buf, buf, decrypt=True)()
            assert bytes(buf) == DATA
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
    want = bytes.fromhex("76b8e0ada0f13d90405d6ae55386bd28")
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
