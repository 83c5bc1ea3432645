"""Bad input never produces a traceback: generated command lines over every command and
option registered at test time (discovered from the Typer app, so new commands are
covered without touching this file), run in-process through `nacverify.cli.app.main`.

Property: the process would exit with 0, 1, 2 or 3; nothing prints a traceback; every
exit 2 comes with exactly one non-empty line on stderr.

Keeping examples cheap: most command lines carry a token the parser rejects (unknown
option, a value of the wrong type, an unknown choice), numeric options get small values,
and an example that still runs longer than `CAP_S` is interrupted with a
KeyboardInterrupt (what Ctrl-C does), which must itself end cleanly (exit 3)."""

from __future__ import annotations

import contextlib
import enum
import io
import os
import signal
import sys
from collections import Counter
from pathlib import Path

import h5py
import pytest
import typer.main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nacverify.claims import Verdict
from nacverify.cli.app import app, main
from nacverify.report import Report, write_report

sys.path.insert(0, str(Path(__file__).parent))
from report_samples import _claim  # noqa: E402

CAP_S = 2.0
SURE_S = 300.0  # the cap of a chosen command line (not a generated one) that answers in seconds: a loaded machine must not turn it into an interrupt
EXAMPLES = 240
POISON_HEAVY, POISON_LIGHT = 0.85, 0.3  # chance of a parser-rejected token (numerical commands / report, list)


def _commands(group, path=()):
    """(path, click command) for every leaf command, and every group itself."""
    out = [(path, group)] if path else []
    for name, cmd in sorted(group.commands.items()):
        if hasattr(cmd, "commands"):
            out += _commands(cmd, (*path, name))
        else:
            out.append(((*path, name), cmd))
    return out


COMMANDS = _commands(typer.main.get_command(app))


def _kind(param) -> tuple[str, list[str]]:
    """The value kind of a parameter (typer's own parameter model, or click's)."""
    t = None
    bare = getattr(param, "bare_type", None)
    if callable(bare):
        try:
            t = bare()
        except Exception:  # noqa: BLE001
            t = None
    if t is None:
        t = getattr(param, "type", None)
    if isinstance(t, type):
        if issubclass(t, enum.Enum):
            return "choice", [str(m.value) for m in t]
        for base, kind in ((bool, "bool"), (int, "int"), (float, "float"), (os.PathLike, "path")):
            if issubclass(t, base):
                return kind, []
        return "text", []
    choices = getattr(t, "choices", None)
    if choices:
        return "choice", [str(c) for c in choices]
    name = str(getattr(t, "name", "text")).lower()
    for key, kind in (("bool", "bool"), ("int", "int"), ("float", "float"), ("path", "path"), ("file", "path")):
        if key in name:
            return kind, []
    return "text", []


INTS = ["0", "1", "2", "3", "-1", "-7"]
BAD_INTS = ["abc", "1.5", "", "0x", "1e3"]
FLOATS = ["0", "1", "0.5", "-1", "1e-3", "1e-300", "nan", "inf", "-inf", "1e308", "2"]
BAD_FLOATS = ["abc", "", "1,5", "--"]
TEXTS = ["", "x", "*", "nac.*", "nac.thm3.*", "nope.*", "a b", "'", '"', "0.5 + 0.05*sin(6*t)", "__import__('os')", "1/0", "t**1000", "é∂ƒ", "-",
         # formulas of the issue-38 campaign's families: exact powers and exponentials too costly to compute, deep nesting, values not real
         "9^9^9^9", "0.5+t^(10^10^10)", "exp(10^9*log(10))", "10^300*10^300*10^300*10^300", "sigmoid(-10^5)", "1e999", "log(-1)+t",
         "sin(" * 17 + "t" + ")" * 17, "-" * 70 + "t", "zzz*"]


def _text():
    return st.one_of(st.sampled_from(TEXTS), st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12))


def _value(kind: str, choices: list[str], name: str, paths: dict[str, list[str]]):
    """A value that the parser accepts (mostly; the poison token handles rejection)."""
    if kind == "int":
        if name in ("seed",):
            return st.sampled_from(INTS + ["2147483648", "18446744073709551616", "-99999999999999999999"])
        return st.sampled_from(INTS)
    if kind == "float":
        return st.sampled_from(FLOATS)
    if kind == "choice":
        return st.sampled_from(choices)
    if kind == "bool":
        return st.sampled_from(["true", "false", "1", "0"])
    if kind == "path":
        pool = paths["out"] if name in ("out", "plot") else paths["in"]
        return st.one_of(st.sampled_from(pool), st.sampled_from(paths["in"] + paths["out"]))
    return _text()


def _poison(kind: str, choices: list[str]) -> list[str]:
    if kind == "int":
        return BAD_INTS
    if kind == "float":
        return BAD_FLOATS
    if kind == "choice":
        return ["bogus", "", choices[0].upper() + "x" if choices else "x"]
    return []


@st.composite
def command_lines(draw, paths):
    path, cmd = draw(st.sampled_from(COMMANDS))
    argv = list(path)
    if draw(st.integers(0, 19)) == 0:  # a misspelt command
        argv[-1] = argv[-1] + draw(st.sampled_from(["x", "-", "_"]))
    params = [p for p in getattr(cmd, "params", []) if not getattr(p, "hidden", False)]
    options = [p for p in params if p.param_type_name == "option"]
    arguments = [p for p in params if p.param_type_name == "argument"]
    chunks: list[list[str]] = []
    for p in draw(st.lists(st.sampled_from(options), max_size=5, unique_by=lambda p: p.name)) if options else []:
        opt = draw(st.sampled_from(list(p.opts) + list(p.secondary_opts)))
        if p.is_flag or getattr(p, "count", False):
            chunks.append([opt])
            continue
        kind, choices = _kind(p)
        chunks.append([opt] + [draw(_value(kind, choices, p.name, paths)) for _ in range(max(p.nargs, 1))])
    positional = []
    for a in arguments:
        if a.required or draw(st.booleans()):
            positional.append(draw(st.sampled_from(paths["in"])) if _kind(a)[0] == "path" else draw(_text()))
    if draw(st.integers(0, 5)) == 0:
        positional = positional[: draw(st.integers(0, len(positional)))]  # a missing argument
    if draw(st.integers(0, 7)) == 0:
        positional.append(draw(_text()))  # one too many
    heavy = path and path[0] not in ("report", "list")
    if draw(st.floats(0, 1)) < (POISON_HEAVY if heavy else POISON_LIGHT):  # a token the parser must reject
        typed = [p for p in options if not p.is_flag and _poison(*_kind(p))]
        choice = draw(st.integers(0, 2))
        if choice == 0 or not typed:
            chunks.append([draw(st.sampled_from(["--no-such-option", "-Z", "---", "--Out"]))])
        else:
            p = draw(st.sampled_from(typed))
            chunks.append([p.opts[0], draw(st.sampled_from(_poison(*_kind(p))))])
    if draw(st.integers(0, 15)) == 0:
        chunks.append(["--help"])
    order = draw(st.permutations(range(len(chunks))))
    tokens = [tok for i in order for tok in chunks[i]]
    cut = draw(st.integers(0, len(positional)))
    argv += positional[:cut] + tokens + positional[cut:]
    if chunks and not chunks[-1][1:] and draw(st.integers(0, 9)) == 0:
        argv.append(draw(st.sampled_from(["--out", "--seed", "--rtol", "--only"])))  # an option missing its value at the end
    return argv


def _input_files(folder: Path) -> list[str]:
    folder.mkdir()
    good = write_report(Report(command="fuzz", seed=1, results=[]), folder / "good.h5")
    from nacverify.claims import evaluate

    two = write_report(Report(command="fuzz", results=[evaluate(_claim("f.one", Verdict.HOLDS, Verdict.HOLDS, scalars={"m": 1.0})),
                                                       evaluate(_claim("f.two", Verdict.REFUTED, Verdict.HOLDS))]), folder / "two.h5")
    (folder / "junk.h5").write_bytes(b"\x89HDF\r\n\x1a\n" + b"garbage" * 50)
    (folder / "empty.h5").write_bytes(b"")
    with h5py.File(folder / "foreign.h5", "w") as f:
        f.attrs["format"] = "something-else"
    future = write_report(Report(command="fuzz"), folder / "future.h5")
    with h5py.File(future, "a") as f:
        f.attrs["schema_version"] = "7.0"
    broken = write_report(Report(command="fuzz", results=[evaluate(_claim("f.b", Verdict.HOLDS, Verdict.HOLDS))]), folder / "broken.h5")
    with h5py.File(broken, "a") as f:
        del f["claims/f.b/scalars"]
    (folder / "sub").mkdir()
    (folder / "odd[").mkdir()  # a path that reads as rich markup: .../odd[/x].h5
    odd = write_report(Report(command="fuzz [/b]", results=[evaluate(_claim("f.[b]", Verdict.HOLDS, Verdict.HOLDS, message="[/] [bold x", scalars={"[/i]": "[/]"}))]),
                       folder / "odd[" / "x].h5")
    damaged = write_report(Report(command="fuzz", results=[evaluate(_claim("f.d", Verdict.HOLDS, Verdict.HOLDS))]), folder / "damaged.h5")
    with h5py.File(damaged, "a") as f:
        f["claims/f.d"].attrs["verdict"] = "banana"  # a verdict no nacverify writes: refused on reading (issue 38)
    return [str(good), str(two), str(folder / "junk.h5"), str(folder / "empty.h5"), str(folder / "foreign.h5"), str(future), str(broken),
            str(odd), str(damaged), str(folder / "missing.h5"), str(folder / "sub"), "", "/proc/nope/r.h5"]


def _run(argv: list[str], cap: float = CAP_S) -> tuple[int, str, str]:
    """main(argv) with output captured, interrupted (KeyboardInterrupt, as Ctrl-C) once it
    has run `cap` seconds and every 0.5 s after, until it returns. An interrupt due while
    Python runs a garbage-collector callback or a finaliser (where exceptions are ignored),
    or the CLI's unraisable-exception hook (`cli._signals.redelivering`, which runs
    where an exception is only printed as "Exception ignored"), is postponed by 50 ms."""
    out, err = io.StringIO(), io.StringIO()
    active = [True]

    def alarm(signum, frame):
        if not active[0]:
            return
        code = frame.f_code if frame is not None else None
        in_unraisable_hook = code is not None and code.co_name == "hook" and code.co_filename.endswith(os.path.join("cli", "_signals.py"))
        if code is not None and (code.co_name in ("__del__", "gc_callback", "_remove", "callback") or code.co_name.endswith(("_callback", "remove"))
                                 or "hypothesis" in code.co_filename
                                 or in_unraisable_hook):
            signal.setitimer(signal.ITIMER_REAL, 0.05, 0.5)
            return
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, cap, 0.5)
    code: object = None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(argv)
            except SystemExit as exc:
                active[0] = False
                code = exc.code
            finally:
                active[0] = False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return code, out.getvalue(), err.getvalue()


def test_generated_command_lines_exit_cleanly(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # default report paths land in the test's folder
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("NACVERIFY_DEBUG", raising=False)
    ins = _input_files(tmp_path / "in")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mine.png").write_text("the user's")  # --plot over it needs --force (issue 38)
    outs = [str(tmp_path / "out" / f"o{i}.h5") for i in range(6)] + [str(tmp_path / "out" / "page"), str(tmp_path / "out"), ins[0], "/proc/nope/r.h5", "",
                                                                     str(tmp_path / "out" / "mine.png"), "/proc/x.png", "/proc/x.json"]
    paths = {"in": ins, "out": outs}
    codes: Counter = Counter()
    commands_seen: Counter = Counter()

    def check(argv):
        code, stdout, stderr = _run(argv)
        codes[code] += 1
        commands_seen[argv[0] if argv else ""] += 1
        assert code in (0, 1, 2, 3), (argv, code, stderr[-800:])
        assert "Traceback" not in stdout + stderr, (argv, stderr[-2000:])
        if code == 2:
            lines = [line for line in stderr.splitlines() if line.strip()]
            assert len(lines) == 1, (argv, stderr)
            assert lines[0].startswith("nacverify: error: "), (argv, stderr)

    for path, _ in COMMANDS:  # every command at least once, whatever the generator favours
        check([*path, "--no-such-option"])
        check([*path, "--help"])

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=False,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
    @given(argv=command_lines(paths))
    def run(argv):
        check(argv)

    run()
    assert sum(codes.values()) >= 200 + 2 * len(COMMANDS)
    assert codes[2] > 50 and codes[0] > 0, codes  # the generator reaches both rejections and successes
    assert {p[0] for p, _ in COMMANDS} <= set(commands_seen), (commands_seen, codes)


def test_discovery_covers_every_registered_command():
    """The generator's command list is the app's: `report show|html|diff` and the rest."""
    paths = {p for p, _ in COMMANDS}
    assert {("report",), ("report", "show"), ("report", "html"), ("report", "diff"), ("list",), ("frozen-error",)} <= paths
    for _, cmd in COMMANDS:
        for p in getattr(cmd, "params", []):
            if p.param_type_name == "option" and not p.is_flag:
                assert _kind(p)[0] in ("int", "float", "choice", "path", "text", "bool"), p.name


@pytest.mark.parametrize("argv", [["--help"], ["report", "diff", "--help"], ["-h"]])
def test_help_exits_0(argv):
    code, stdout, stderr = _run(argv)
    assert code == 0 and "Usage" in stdout and stderr == ""


@pytest.mark.parametrize("argv", [[], ["report"], ["solve"]])
def test_bare_program_and_groups_show_help_and_exit_2(argv):
    """As click does (issue 23): a command line that names no command is a usage error."""
    code, stdout, stderr = _run(argv)
    assert code == 2 and "Usage" in stdout
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("nacverify: error: missing command (see `") and lines[0].endswith(f"{' '.join(argv)} --help`)".lstrip())


@pytest.mark.parametrize("argv", [["list"], ["--help"], ["list", "--format", "json"]])
def test_a_closed_stdout_ends_the_command_quietly_by_sigpipe(argv):
    """`nacverify list | head -1` (issue 38): rich answered the broken pipe with SystemExit(1), which
    main turned into exit 3 and an error line. Now the command ends as git and coreutils do when
    their reader goes away: killed by SIGPIPE (the shell's status 141), nothing on stderr."""
    import shutil
    import subprocess

    exe = shutil.which("nacverify")
    if exe is None:
        pytest.skip("console script not installed")
    proc = subprocess.Popen([exe, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # the reader goes away before the first line
    stderr = proc.stderr.read()
    proc.wait(timeout=120)
    assert proc.returncode == -signal.SIGPIPE, (proc.returncode, stderr)
    assert stderr == "", stderr


@pytest.mark.parametrize("argv", [["list"], ["list", "--format", "json"], ["--help"]])
def test_a_full_disk_under_stdout_is_an_environment_problem_in_one_line(argv):
    """`nacverify list > /dev/full` (issue 38) was "internal error: OSError ..." (a bug, by its
    words); --help even printed a traceback. It is exit 3, one line naming the cause."""
    import shutil
    import subprocess

    exe = shutil.which("nacverify")
    if exe is None or not os.path.exists("/dev/full"):
        pytest.skip("console script or /dev/full missing")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([exe, *argv], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 3, proc.stderr
    assert proc.stderr.strip() == "nacverify: error: cannot write the output: No space left on device", proc.stderr


def test_regressions_found_by_fuzzing(tmp_path):
    """A seed beyond int64 no longer loses a finished run at the report write (HDF5 has no
    such integer: stored as a decimal string); an impossible allocation is an environment
    problem with a plain message, not an 'internal error'."""
    path = write_report(Report(command="c", seed=2**64, sections={"s": {"n": 2**70, "m": -(2**63)}}), tmp_path / "r.h5")
    from nacverify.report import read_report

    data = read_report(path)
    assert data.attrs["seed"] == str(2**64) and data.sections["s"]["n"] == str(2**70) and data.sections["s"]["m"] == -(2**63)
    code, _, stderr = _run(["frozen-error", "-r", "slow", "--points", "99999999999", "--out", str(tmp_path / "big.h5")])
    assert code == 3 and stderr.strip().startswith("nacverify: error: out of memory"), stderr


def test_a_grid_that_cannot_fit_is_refused_before_any_work(tmp_path, monkeypatch):
    """On the 16-core GPU machine (128 GiB, overcommitting kernel) --points 99999999999 crashed a
    pytest worker: the allocation was attempted. Now the grid's arrays (16 float64 arrays of --points,
    SolveOptions.ARRAYS_PER_POINT) are compared with the memory available before any solve: 10^5
    points need 12.8 MB, refused here with 1 MiB 'available', which the old code ran to the end."""
    import collections

    import psutil

    from nacverify.cli.app import app
    from typer.testing import CliRunner

    fake = collections.namedtuple("vm", "available total")(2**20, 2**20)
    monkeypatch.setattr(psutil, "virtual_memory", lambda: fake)
    res = CliRunner().invoke(app, ["frozen-error", "-r", "slow", "--points", "100000", "--out", str(tmp_path / "r.h5")])
    assert res.exit_code == 3 and "out of memory: --points 100000 needs about 0.0119 GiB" in res.stderr, res.stderr
    assert not (tmp_path / "r.h5").exists()


def test_report_text_is_printed_literally(tmp_path):
    """File names and report strings that look like rich markup are printed as they are (they
    once raised MarkupError: 'internal error'); a verdict no nacverify writes is refused in one
    line (issue 38; it used to be shown and counted)."""
    ins = _input_files(tmp_path / "in")
    odd = [p for p in ins if "odd[" in p][0]
    for argv in (["report", "show", odd], ["report", "show", odd, "--claim", "f.[b]"], ["report", "diff", ins[0], odd, "--allow-missing"],
                 ["report", "html", odd, "--out", str(tmp_path / "page")]):
        code, stdout, stderr = _run(argv, cap=SURE_S)
        assert code == 0 and stderr == "", (argv, stderr)
        if argv[1] == "show":
            assert odd in stdout.replace("\n", "")
    code, stdout, _ = _run(["report", "show", odd, "--claim", "f.[b]"], cap=SURE_S)
    assert "f.[b]: holds" in stdout and "[/] [bold x" in stdout and "[/i]" in stdout
    assert "[/] [bold x" in (tmp_path / "page" / "index.html").read_text()
    damaged = [p for p in ins if p.endswith("damaged.h5")][0]
    for argv in (["report", "show", damaged], ["report", "html", damaged, "--out", str(tmp_path / "page2")], ["findings", "--report", damaged],
                 ["report", "export", damaged, "--to", "csv"], ["report", "diff", ins[0], damaged]):
        code, stdout, stderr = _run(argv, cap=SURE_S)
        assert code == 2 and stdout == "", (argv, code, stdout)
        assert stderr.strip() == f"nacverify: error: {damaged} is damaged: claim 'f.d' has verdict 'banana', not one of holds, refuted, inapplicable, " \
                                 "inconclusive, error", (argv, stderr)
    assert not (tmp_path / "page2").exists()


def test_error_line_stays_one_line_with_control_characters_in_a_path(tmp_path):
    """Found by the generator: a file name with \\x1e (which str.splitlines breaks at) split the
    one-line error in two."""
    code, stdout, stderr = _run(["report", "html", "--out", str(tmp_path / "o"), "\x1e0"])
    assert code == 2
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "\\x1e0" in lines[0], stderr


def test_interrupted_main_called_from_python_returns_instead_of_ending_the_process(monkeypatch):
    """The console script ends an interrupted run with os._exit (no teardown); main(argv) called
    in-process (as here) must still raise SystemExit(3), never end the caller's process."""
    import nacverify.cli.app as app_mod

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(app_mod, "app", boom)
    monkeypatch.setattr(app_mod.os, "_exit", lambda code: (_ for _ in ()).throw(AssertionError("os._exit called in-process")))
    with pytest.raises(SystemExit) as info:
        app_mod.main(["list"])
    assert info.value.code == 3


def _campaign(tmp: Path) -> list[tuple[list[str], dict[str, str], int, str]]:
    """Issue 38's bad-input campaign, the inputs that run in a second or two: (argv, environment,
    exit code, words of the one line on stderr). Files named here are made by `_campaign_files`."""
    ins = {Path(p).name: p for p in _input_files(tmp / "in") if p}
    f = {name: str(tmp / "files" / name) for name in ("p.png", "notes.txt", "page")}
    power = "raises to a power beyond ±10,000"
    cases = [
        (["frozen-error", "-r", "slow", "--seed", "-1"], {}, 2, "--seed must be >= 0"),
        (["frozen-error", "-r", "slow", "--rtol", "nan"], {}, 2, "--rtol must be a positive finite number"),
        (["frozen-error", "-r", "slow", "-T", "inf"], {}, 2, "--T must be finite"),
        (["frozen-error", "-r", "oscillatory", "--sweep", "10", "--chunk", "-1"], {}, 2, "--chunk must be >= 1"),
        (["frozen-error", "-r", "oscillatory", "--cycles", "0.1"], {}, 2, "cycles must be >= 0.25"),
        (["frozen-error", "-r", "slow", "-v", "-q"], {}, 2, "--verbose and --quiet exclude each other"),
        (["frozen-error", "--regime", "custom", "--phi", "9^9^9^9", "--omega", "1"], {}, 2, power),
        (["frozen-error", "--regime", "custom", "--phi", "0.5+t^(10^10^10)", "--omega", "1"], {}, 2, power),
        (["frozen-error", "--regime", "custom", "--phi", "t^(10^9)", "--omega", "1"], {}, 2, power),
        (["frozen-error", "--regime", "custom", "--phi", "2^-100000000", "--omega", "1"], {}, 2, power),
        (["frozen-error", "--regime", "custom", "--phi", "0.5", "--omega", "E^(10^9*log(10))"], {}, 2, "--omega: formula"),
        (["frozen-error", "--regime", "custom", "--phi", "exp(10^9*log(10))", "--omega", "1"], {}, 2, "exp() of a number beyond"),
        (["frozen-error", "--regime", "custom", "--phi", "softplus(10^4)", "--omega", "1"], {}, 2, "softplus() of a number beyond"),
        (["frozen-error", "--regime", "custom", "--phi", "10^300*10^300*10^300*10^300", "--omega", "1"], {}, 2, "holds a number of magnitude beyond"),
        (["frozen-error", "--regime", "custom", "--phi", "1e999", "--omega", "1"], {}, 2, "holds a number of magnitude beyond"),
        (["frozen-error", "--regime", "custom", "--phi", "sin(" * 17 + "t" + ")" * 17, "--omega", "1"], {}, 2, "nests functions and powers deeper than 16"),
        (["frozen-error", "--regime", "custom", "--phi", "-" * 70 + "t", "--omega", "1"], {}, 2, "nested deeper than 64 levels"),
        (["frozen-error", "--regime", "custom", "--phi", "log(-1)+t", "--omega", "1"], {}, 2, "--phi is not real at t = 0"),
        (["frozen-error", "--regime", "custom", "--phi", "__import__('os').system('id')", "--omega", "1"], {}, 2, "is not allowed"),
        (["solve", "nac", "--regime", "custom", "--phi", "9^9^9^9", "--omega", "1", "--backend", "diffrax,scipy"], {}, 2, power),
        (["frozen-error", "-r", "slow", "--plot", f["p.png"]], {}, 2, "exists; choose another --plot or pass --force"),
        (["frozen-error", "-r", "slow", "--plot", "/proc/x.png"], {}, 2, "--plot /proc/x.png: folder /proc is not writable"),
        (["frozen-error", "-r", "slow", "--out", "/proc/x.h5"], {}, 2, "--out /proc/x.h5: folder /proc is not writable"),
        (["frozen-error", "-r", "slow", "--junit-xml", "/proc/x.xml"], {}, 2, "--junit-xml /proc/x.xml: folder /proc is not writable"),
        (["report", "export", ins["good.h5"], "--to", "json", "-o", "/proc/x.json"], {}, 2, "--out /proc/x.json: folder /proc is not writable"),
        (["report", "export", ins["good.h5"], "--to", "csv", "-o", ins["good.h5"], "--force"], {}, 2, "is the report being exported"),
        (["report", "export", ins["good.h5"], "--to", "json", "-o", f["notes.txt"]], {}, 2, "exists; choose another --out or pass --force"),
        (["report", "html", ins["good.h5"], "--out", "/proc/x"], {}, 2, "--out /proc/x: folder is not writable"),
        (["audit-gen", "/proc/x.h5", "--pairs", "16"], {}, 2, "/proc/x.h5: folder /proc is not writable"),  # was "16 pairs need 0.0 GiB"
        (["report", "html", ins["good.h5"], "--out", f["notes.txt"]], {}, 2, "exists and is not a folder"),
        (["report", "show", ins["damaged.h5"]], {}, 2, "is damaged: claim 'f.d' has verdict 'banana'"),
        (["report", "diff", ins["good.h5"], ins["damaged.h5"]], {}, 2, "is damaged"),
        (["report", "export", ins["damaged.h5"], "--to", "csv"], {}, 2, "is damaged"),
        (["findings", "--report", ins["damaged.h5"]], {}, 2, "is damaged"),
        (["report", "show", ins["junk.h5"]], {}, 2, "is corrupt or unreadable"),
        (["report", "show", ins["empty.h5"]], {}, 2, "is corrupt or unreadable"),
        (["report", "show", ins["foreign.h5"]], {}, 2, "is not a nacverify report"),
        (["report", "show", ins["broken.h5"]], {}, 2, "is corrupt or unreadable"),
        (["list", "--only", "zzz*"], {}, 2, "no claim matches 'zzz*'"),
        (["check", "--only", "zzz*"], {}, 2, "no claim matches 'zzz*'"),
        (["prove", "--only", "zzz*"], {}, 2, "no proof obligation matches 'zzz*'"),
        (["coverage", "--source", "999"], {}, 2, "unknown source '999'"),
        (["coverage"], {"NACVERIFY_SEEDS": str(tmp / "nowhere")}, 2, "NACVERIFY_SEEDS="),
        (["coverage"], {"NACVERIFY_SEEDS": str(tmp / "files")}, 2, "the folder lacks 5 of the 5 source documents"),
        (["list", "--only", "nac.thm1.*"], {"NACVERIFY_REFERENCE": str(tmp / "nowhere")}, 2, "NACVERIFY_REFERENCE="),
        (["list", "--only", "nac.thm1.*"], {"NACVERIFY_PROGRAM_CACHE": "/proc/x"}, 2, "NACVERIFY_PROGRAM_CACHE=/proc/x: not a writable folder"),
        (["list", "--only", "nac.thm1.*"], {"NACVERIFY_CATALOG_CACHE": f["notes.txt"]}, 2, "not a folder"),
        (["list", "--only", "nac.thm1.*"], {"XDG_CACHE_HOME": "relative"}, 2, "XDG_CACHE_HOME=relative: not an absolute path"),
    ]
    return cases


def _campaign_files(tmp: Path) -> None:
    (tmp / "files").mkdir()
    (tmp / "files" / "p.png").write_text("the user's picture")
    (tmp / "files" / "notes.txt").write_text("the user's notes")


def test_the_campaigns_inputs_keep_their_answers(tmp_path, monkeypatch):
    """Issue 38's inputs (and more of their families), each in-process: the exit code, one line on
    stderr with its words, no traceback, and no file of the user's changed."""
    import hashlib

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "120")
    _campaign_files(tmp_path)
    cases = _campaign(tmp_path)

    def state() -> dict[str, str]:
        return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(tmp_path.rglob("*")) if p.is_file()}

    before = state()
    for argv, env, expected, words in cases:
        with monkeypatch.context() as m:
            for name, value in env.items():
                m.setenv(name, value)
            code, stdout, stderr = _run(argv, cap=SURE_S)
        assert "Traceback" not in stdout + stderr, (argv, stderr[-2000:])
        lines = [line for line in stderr.splitlines() if line.strip()]
        assert code == expected and len(lines) == 1 and lines[0].startswith("nacverify: error: ") and words in lines[0], (argv, code, stderr)
    assert state() == before  # nothing written, nothing changed, nothing removed
    assert len(cases) >= 45
