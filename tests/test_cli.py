"""The gcrylike command: list, selftest, config, and its polish (version,
help, columns, errors, progress line)."""

from __future__ import annotations

import io
import re
import sys

import pytest

import gcrylike
from gcrylike._cli import main


def test_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for info in gcrylike.implementations("salsa20"):
        assert info.driver in out
    assert "SALSA20 [cipher, id 313]" in out and "using" in out and "prio" in out


_LIST_HEADER = re.compile(r"^(\S+) \[(\w+), id (\d+)\](?: \(aliases: (.*)\))?: (.*); "
                          r"using (.*)$")
_LIST_ROW = re.compile(r"^  ([* ]) (\S+) +prio +(-?\d+)  needs (\S+) +(available|unavailable: "
                       r"(.*)); selftest (\w+)$")


def test_list_shows_the_implementations_view(capsys):
    """``gcrylike list`` prints gcrylike.implementations() and
    algorithm_info(), record for record: nothing it says comes from anywhere
    else."""
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    shown: list[tuple] = []
    for line in lines:
        if line.startswith(("# ", "plugin ")):  # the footer: notes, unregistered plugins
            continue
        head = _LIST_HEADER.match(line)
        if head:
            name, kind, algo_id, aliases, _sizes, using = head.groups()
            info = gcrylike.algorithm_info(name)
            assert (kind, int(algo_id)) == (info.kind, info.id)
            assert (tuple(aliases.split(", ")) if aliases else ()) == info.aliases
            continue
        row = _LIST_ROW.match(line)
        assert row, line
        mark, driver, prio, needs, state, reason, selftest = row.groups()
        shown.append((name, kind, driver, int(prio), frozenset(needs.split(",")) - {"-"},
                      state == "available", mark == "*", reason or "", selftest))
        if mark == "*":
            assert using == driver
    assert shown == [(i.algorithm, i.kind, i.driver, i.priority, i.features, i.available,
                      i.chosen, i.reason, i.selftest) for i in gcrylike.implementations()]


def test_selftest(capsys):
    assert main(["selftest"]) == 0
    out = capsys.readouterr().out
    assert "all passed" in out
    for algo in gcrylike.algorithms():
        for info in gcrylike.implementations(algo):
            line = next(ln for ln in out.splitlines() if info.driver + " " in ln)
            assert ("passed" if info.available else "skipped") in line


def test_config(capsys):
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    cfg = gcrylike.config()
    assert f"use-amd64:{'yes' if cfg.use_amd64 else 'no'}" in out
    drivers = {i.driver for i in gcrylike.implementations("salsa20")}
    assert cfg.use_amd64 == ("salsa20-amd64-sse2" in drivers)
    assert cfg.chosen["SALSA20"] in drivers
    for spec in gcrylike._registry.all_specs():  # one kind:NAME:driver line each
        assert f"{spec.kind}:{spec.name}:{cfg.chosen[spec.name]}" in out.splitlines()


def test_config_names_the_data_path(capsys):
    """``data-path:`` says whether data calls take gcrylike._fastcall or cffi:
    what a keyed handle really does."""
    assert main(["config"]) == 0
    out = capsys.readouterr().out.splitlines()
    cfg = gcrylike.config()
    h = gcrylike.cipher_open("chacha20")
    h.setkey(bytes(32))
    h.setiv(bytes(12))
    try:
        assert cfg.data_path == gcrylike.data_path(h)
    finally:
        h.close()
    assert cfg.data_path in ("fastcall", "cffi")
    assert (cfg.data_path_reason == "") == (cfg.data_path == "fastcall")
    line = next(ln for ln in out if ln.startswith("data-path:"))
    assert line.split(":", 1)[1].split(" ")[0] == cfg.data_path


def test_config_data_path_without_the_fast_path():
    import os
    import subprocess

    env = {**os.environ, "GCRYLIKE_NO_FASTCALL": "1"}
    out = subprocess.run([sys.executable, "-m", "gcrylike", "config"], env=env, cwd="/",
                         capture_output=True, text=True, check=True).stdout
    assert "data-path:cffi (GCRYLIKE_NO_FASTCALL is set)" in out.splitlines()


def test_hwf_deny_option(capsys):
    prev = gcrylike.set_hwf_deny([])
    try:
        assert main(["--hwf-deny", "all", "config"]) == 0
        assert "cipher:SALSA20:salsa20-generic" in capsys.readouterr().out
        assert main(["--hwf-deny", "nonsense", "config"]) == 2
        assert "nonsense" in capsys.readouterr().err
    finally:
        gcrylike.set_hwf_deny(prev)


# -- polish: version, help, columns, errors, progress ---------------------------


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"gcrylike {gcrylike.__version__}\n"


@pytest.mark.parametrize("command", [[], ["list"], ["selftest"], ["config"], ["bench"]])
def test_help_is_plain_text(capsys, command):
    with pytest.raises(SystemExit) as exc:
        main([*command, "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: gcrylike")
    # no reStructuredText: no ``literals``, no :role:`targets`, no backquotes at all
    assert "`" not in text and not re.search(r":[a-z]+:", text), text
    if command == ["bench"]:
        for option in ("--json", "--csv", "--plot", "--peers", "--impl", "--quick"):
            assert option in text


def _column(lines: list[str], word: str) -> set[int]:
    return {line.index(word) for line in lines}


def test_list_columns_fit_the_longest_names(capsys):
    assert main(["list"]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("  ")]
    infos = [i for a in gcrylike.algorithms() for i in gcrylike.implementations(a)]
    assert len(lines) == len(infos)
    longest = max(len(i.driver) for i in infos)
    # every "prio" and "needs" at one column, two spaces past the longest driver name
    assert _column(lines, " prio ") == {4 + longest + 1}
    assert len(_column(lines, " needs ")) == 1
    for line, info in zip(lines, infos, strict=True):
        assert line[4:].startswith(info.driver + " ")


def test_selftest_columns_fit_the_longest_names(capsys):
    assert main(["selftest"]) == 0
    lines = capsys.readouterr().out.splitlines()[:-1]
    reports = gcrylike.selftest()
    width = max(len(r.algorithm) for r in reports) + 2 + max(len(r.driver) for r in reports) + 2
    for line in lines:
        assert line[width - 2:width] == "  " and line[width] != " ", line
        assert line[width:].split()[0] in ("passed", "failed", "skipped"), line


def test_bench_header_fits_a_long_name(capsys):
    spec = gcrylike._registry.lookup("adiantum")
    assert len(spec.name) > 16  # longer than bench-slope's column
    driver = [i.driver for i in gcrylike.implementations(spec.name) if i.available][-1]
    assert main(["bench", "--quick", "--repeats", "1", "--impl", driver, "adiantum"]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "|" in ln]
    assert lines[0].startswith(f" {spec.name} |  nanosecs/byte")
    assert _column(lines, "|") == {len(spec.name) + 2}  # header, rows, sector lines


@pytest.mark.parametrize("argv", [["bench", "--impl", "nosuch", "salsa20"],
                                  ["bench", "--impl", "nosuch"],
                                  ["bench", "--impl", "chacha20-generic", "salsa20"]])
def test_bench_unknown_impl_is_an_error(capsys, argv):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing printed before the error
    assert captured.err.startswith("gcrylike bench: error: --impl ")
    assert "no such driver" in captured.err and argv[2] in captured.err


def test_bench_impl_alone_picks_its_algorithms(capsys):
    assert main(["bench", "--quick", "--repeats", "1", "--impl", "salsa20r12-generic"]) == 0
    out = capsys.readouterr().out
    headers = re.findall(r"^ (\S+) +\|  nanosecs/byte", out, re.M)
    assert headers == ["SALSA20R12"]


def test_list_error_prints_no_partial_output(capsys, monkeypatch):
    calls = []

    def failing(name):
        calls.append(name)
        if len(calls) > 1:
            raise gcrylike.GcryError("registry broke")
        return real(name)

    real = gcrylike.algorithm_info
    monkeypatch.setattr(gcrylike, "algorithm_info", failing)
    assert main(["list"]) == 1  # a failure, not a usage error
    captured = capsys.readouterr()
    assert captured.out == "" and "registry broke" in captured.err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("fmt", ["slope", "tcrypt"])
def test_bench_progress_line_on_a_terminal(capsys, monkeypatch, fmt):
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["bench", "--quick", "--repeats", "1", "--seconds", "0.001", "--format", fmt,
                 "salsa20r12"]) == 0
    out, text = capsys.readouterr().out, err.getvalue()
    wipe = "\r\x1b[K"
    assert f"{wipe}gcrylike bench: 1/1 SALSA20R12: " in text
    for d in [i.driver for i in gcrylike.implementations("salsa20r12") if i.available]:
        assert d in text
    assert text.endswith(wipe)  # cleared at the end
    assert "\r" not in out and "\x1b" not in out


def test_bench_no_progress_line_when_not_a_terminal(capsys):
    assert main(["bench", "--quick", "--repeats", "1", "salsa20r12"]) == 0
    assert capsys.readouterr().err == ""


_BENCH_MODULES_AFTER = """
import contextlib, io, sys
from gcrylike._cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:  # --help
        pass
print(sorted(m for m in sys.modules if m == "gcrylike._bench" or m.startswith("gcrylike._bench.")))
"""


def _bench_modules_after(*argv: str) -> list[str]:
    """The gcrylike._bench modules a fresh interpreter has imported after
    running the command ``argv`` (gcrylike._cli.main)."""
    import ast
    import subprocess

    res = subprocess.run([sys.executable, "-c", _BENCH_MODULES_AFTER, *argv],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    return ast.literal_eval(res.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("argv", [["list"], ["selftest"], ["config"], ["--help"],
                                  ["list", "--json"], ["config", "--json"],
                                  ["selftest", "--json", "chacha20"],
                                  ["list", "--help"], ["--hwf-deny", "avx2", "config"]])
def test_commands_but_bench_import_no_benchmark_module(argv):
    assert _bench_modules_after(*argv) == []


def test_bench_command_still_has_its_options():
    assert "gcrylike._bench" in _bench_modules_after("bench", "--help")


# -- issue 22: --json, selftest ALGO..., what list says -------------------------------------

def test_list_json(capsys):
    import json

    assert main(["list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    names = [a["name"] for a in data["algorithms"]]
    assert names == [gcrylike.algorithm_info(n).name for n in names] and "CHACHA20" in names
    chacha = data["algorithms"][names.index("CHACHA20")]
    drivers = [i["driver"] for i in chacha["implementations"]]
    assert drivers == [i.driver for i in gcrylike.implementations("chacha20")]
    assert isinstance(chacha["implementations"][0]["features"], list)
    assert data["plugin_errors"] == gcrylike.plugin_errors()


def test_config_json(capsys):
    import json

    assert main(["config", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["version"] == gcrylike.__version__
    assert data["chosen"] == gcrylike.config().chosen


def test_selftest_some_algorithms(capsys):
    assert main(["selftest", "chacha20", "Salsa20"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[-1] == "selftest: all passed"
    assert {r.split()[0] for r in rows[:-1]} == {"CHACHA20", "SALSA20"}


def test_selftest_json(capsys):
    import json

    assert main(["selftest", "--json", "chacha20"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] is True
    assert {r["algorithm"] for r in data["reports"]} == {"CHACHA20"}
    assert all(set(r) == {"algorithm", "driver", "status", "reason"} for r in data["reports"])


def test_selftest_unknown_algorithm_is_an_error(capsys):
    assert main(["selftest", "chacha20", "nope"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("gcrylike selftest: error: ") and "nope" in err


def test_list_shows_a_plugin_that_failed_with_its_reason(capsys, monkeypatch):
    monkeypatch.setattr(gcrylike, "plugin_errors",
                        lambda: {"broken (pkg.mod:SPECS)": "self-test failed: wrong answer"})
    assert main(["list"]) == 0  # shown, not an error: selftest's exit status says that
    out = capsys.readouterr().out
    assert ("plugin broken (pkg.mod:SPECS): not registered: self-test failed: wrong answer"
            in out)


def test_list_says_what_untested_means(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "'untested' = not yet run in this process" in out and "gcrylike selftest" in out


# -- issue 22: one error style ------------------------------------------------------------

_ERROR = re.compile(r"^(gcrylike(?: \w+)?): error: (\S.*)$")


def _error_lines(err: str) -> tuple[str, str, list[str]]:
    """(prog, message, the lines after it) of an error on stderr, in the
    command's one form: no argparse usage block above it."""
    lines = err.splitlines()
    m = _ERROR.match(lines[0])
    assert m, err
    return m[1], m[2], lines[1:]


@pytest.mark.parametrize("argv, prog, words", [
    # argparse's own refusals
    ([], "gcrylike", "required: COMMAND"),
    (["nosuchcommand"], "gcrylike", "invalid choice"),
    (["list", "--nosuch"], "gcrylike", "unrecognized arguments"),
    (["bench", "--sizes", "x", "salsa20"], "gcrylike bench", "bad size list"),
    (["bench", "--format", "x"], "gcrylike bench", "invalid choice"),
    # the tool's: unknown names, options that do not go together
    (["selftest", "nope"], "gcrylike selftest", "nope"),
    (["bench", "--quick", "nope"], "gcrylike bench", "nope"),
    (["bench", "--impl", "nosuch", "salsa20"], "gcrylike bench", "no such driver"),
    (["bench", "--format", "tcrypt", "--csv", "x.csv", "salsa20"], "gcrylike bench",
     "do not go with --format tcrypt"),
    (["--hwf-deny", "nonsense", "config"], "gcrylike", "nonsense"),
])
def test_usage_errors_have_one_form_and_status_2(capsys, argv, prog, words):
    prev = gcrylike.set_hwf_deny([])
    try:
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse's, through the same report
            status = exc.code
    finally:
        gcrylike.set_hwf_deny(prev)
    assert status == 2
    out, err = capsys.readouterr()
    shown, message, rest = _error_lines(err)
    assert out == "" and shown == prog and words in message
    assert rest == [f"see '{prog} --help'"]  # one hint line, no usage block
    assert not message.endswith("]"), message  # no "[INV_NAME]" code for a typo


def test_failures_have_the_same_form_and_status_1(capsys, monkeypatch, tmp_path):
    def broken(name):
        raise gcrylike.GcryError("registry broke")

    monkeypatch.setattr(gcrylike, "algorithm_info", broken)
    assert main(["list"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and _error_lines(err) == ("gcrylike list", "registry broke [INV_ARG]", [])
    monkeypatch.undo()

    # an output file that cannot be written once the run is done
    from gcrylike._bench.report import records

    def unwritable(rec, path):
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(records, "write_json", unwritable)
    monkeypatch.setattr("gcrylike._bench.runner.write_json", unwritable)
    path = str(tmp_path / "r.json")
    assert main(["bench", "--quick", "--repeats", "1", "--impl", "salsa20r12-generic",
                 "--json", path, "salsa20r12"]) == 1
    prog, message, rest = _error_lines(capsys.readouterr().err)
    assert (prog, rest) == ("gcrylike bench", []) and "Permission denied" in message
