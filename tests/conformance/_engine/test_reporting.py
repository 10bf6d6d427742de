"""Progress lines: per target, once when it finishes, at most every few seconds while it runs, never under -q, only
where pytest's row of dots ends; warnings located in the suite's own calls kept apart from the targets'; and the
reporter of a run with no conformance item loads nothing of the engine."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance._engine import reporting
from conformance._engine.reporting import Progress, Reporter
from conformance.results import RuleResult
from tests.meta._run import BASE_ARGS, REPO, has_xdist, run_suite, suite_env


class _Writer:
    def __init__(self) -> None:
        self.width_of_current_line = 0  # at the start of a row


class _Terminal:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self._tw = _Writer()

    def ensure_newline(self) -> None:
        pass

    def write(self, text: str) -> None:
        self.lines += text.splitlines()


class _Config:
    def __init__(self, verbosity: int) -> None:
        self.verbosity = verbosity
        self.terminal = _Terminal()
        self.pluginmanager = self

    def get_verbosity(self) -> int:
        return self.verbosity

    def get_plugin(self, name: str) -> Any:
        return self.terminal if name == "terminalreporter" else None


class _Report:
    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid


def _run(verbosity: int) -> list[str]:
    clock = [100.0]
    config = _Config(verbosity)
    progress = Progress(config, lambda nodeid: nodeid.split("/")[0], lambda: clock[0])  # type: ignore[arg-type]
    progress.expect([f"a/{i}" for i in range(4)] + ["b/0"])
    for i in range(4):
        clock[0] += 6.0  # a long run: past the quiet start, and lines at most every 10 s
        for _ in range(3):  # setup, call, teardown of one item
            progress.reported(_Report(f"a/{i}"), RuleResult("ENV-001", "a", "MUST", "passed"))  # type: ignore[arg-type]
        progress.flush()
    progress.reported(_Report("b/0"), RuleResult("ENV-001", "b", "MUST", "passed"))  # type: ignore[arg-type]
    progress.flush()
    return config.terminal.lines


def test_lines_for_long_runs() -> None:
    lines = _run(0)
    assert [line for line in lines if "done" in line] == ["conformance: a 4/4 items done, 18.0 s",
                                                           "conformance: b 1/1 items done, 0.0 s"]
    assert [line for line in lines if "running" in line] == ["conformance: a 2/4 items running, 6.0 s"]


def test_lines_still_due_when_the_run_ends_are_dropped() -> None:
    # The summary's table follows at once, with every target's items and time.
    config = _Config(0)
    clock = [100.0]
    progress = Progress(config, lambda nodeid: nodeid.split("/")[0], lambda: clock[0])  # type: ignore[arg-type]
    progress.expect(["a/0"])
    clock[0] += 6.0
    progress.reported(_Report("a/0"), RuleResult("ENV-001", "a", "MUST", "passed"))  # type: ignore[arg-type]
    config.terminal._tw.width_of_current_line = 3  # in the middle of a row: the line waits
    progress.flush()
    assert progress.due and config.terminal.lines == []
    progress.flush(end=True)
    assert not progress.due and config.terminal.lines == []


def test_quiet_under_q() -> None:
    assert _run(-1) == []


def test_a_run_without_conformance_items_never_loads_the_target_machinery(tmp_path: Path) -> None:
    """The plugin is loaded by every pytest run of a project that installs the suite: ending such a run must not
    import the session's module (and with it Hypothesis and the engine), which only a run of the suite needs."""
    (tmp_path / "test_plain.py").write_text("def test_plain():\n    pass\n")
    script = (
        "import sys, pytest\n"
        f"code = pytest.main([{str(tmp_path)!r}, '-q', '-p', 'no:cacheprovider', '-p', 'no:hypothesispytest'])\n"
        "print('loaded' if 'conformance._engine.session' in sys.modules else 'not loaded', int(code))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120, check=False)
    assert run.stdout.split()[-3:] == ["not", "loaded", "0"], run.stdout


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "xdist"])
def test_a_warning_located_in_the_suites_call_is_not_listed_as_the_targets(tmp_path: Path, parallel: bool) -> None:
    # Issue 39 item 5: "conformance/test_space.py:290: Casting input x to numpy array" (a target's answer to a list
    # the suite passes on purpose, located at the suite's call) was listed among the target's own warnings. Under
    # pytest-xdist, the job processes also sent every warning to the controller through the channel they inherited,
    # which listed them again, as the suite modules' own.
    if parallel and not has_xdist():
        pytest.skip("needs pytest-xdist")
    target = "tests.meta.broken.chatty:WarnsAtItsCaller"
    run = run_suite(["--env", target, "--rules", "SEED-00[12]", "--conformance-profile", "quick",
                     *(["-n", "2"] if parallel else [])], tmp_path / "r.json")
    lines = run.output.splitlines()
    own = [line for line in lines if "about itself" in line]
    calls = [line for line in lines if "about the call" in line]
    assert len(own) == 1 and own[0].startswith(f"  [{target}] builtins.UserWarning "), run.output[-3000:]
    assert "tests/meta/broken/chatty.py:" in own[0], own
    assert len(calls) == 1 and calls[0].startswith("  builtins.UserWarning at conformance/_engine/"), calls
    assert "(1 target, " in calls[0], calls
    heading = lines[lines.index(calls[0]) - 1]
    assert heading.startswith("warnings about the suite's own calls"), heading


# A run whose every report makes a progress line due (no quiet start, no interval): the lines the suite writes on a
# long run, in a short one.
_EAGER = (
    "import sys, pytest\n"
    "from conformance._engine.reporting import Progress\n"
    "Progress.EVERY = Progress.QUIET_FOR = 0.0\n"
    "sys.exit(pytest.main(sys.argv[1:]))\n"
)
_ROW = re.compile(r"^(\S+\.py )?[.sFEx]+ *\[ *\d+%\]$")  # a whole row of dots: it ends with pytest's percentage


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "xdist"])
def test_progress_lines_never_split_a_row_of_dots(tmp_path: Path, parallel: bool) -> None:
    # Issue 39 item 5: a progress line written while pytest's row was half full split it ("........" / the line /
    # "." and the rest of the row on a line of its own).
    if parallel and not has_xdist():
        pytest.skip("needs pytest-xdist")
    args = [arg for arg in BASE_ARGS if arg != "-q"] + [
        "--env", "tests.meta.broken._base:Walk", "--env", "tests.meta.broken.chatty:WarnsAtItsCaller",
        "--rules", "ENV-00*,SEED-00*", "--conformance-profile", "quick",
        "-W", "ignore::pytest.PytestAssertRewriteWarning",
        *(["-n", "2"] if parallel else [])]
    run = subprocess.run([sys.executable, "-c", _EAGER, *args], capture_output=True, text=True, cwd=REPO,
                         env=suite_env(COLUMNS="40"), timeout=600, check=False)
    lines = run.stdout.splitlines()
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    progress = [i for i, line in enumerate(lines) if "conformance: tests.meta" in line]
    assert progress, run.stdout[-3000:]  # lines while the targets run
    for i in progress:
        assert lines[i].startswith("conformance: "), lines[i]  # never at the end of a row
        assert _ROW.match(lines[i - 1]) or i - 1 in progress, "\n".join(lines[i - 2:i + 2])


@pytest.mark.parametrize("nested", [True, False])
def test_a_thread_isolated_run_ends_its_process_only_when_it_is_not_nested_in_another(
    nested: bool, pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under thread isolation a run whose worker thread is stuck in a target's call ends its process at unconfigure
    (interpreter shutdown would finalize modules under the thread); a run nested in another (this test session's
    pytest.main, say, inside an xdist worker) must not: it ended the outer run's worker ("node down")."""
    exits: list[int] = []
    monkeypatch.setattr(os, "_exit", exits.append)
    from conformance._engine import watchdog  # late: the reporter looks for it only once a run has imported it

    monkeypatch.setattr(watchdog, "stuck_threads", lambda: 1)
    reporter = Reporter(pytestconfig)  # this session's own reporter is live: the new one is nested in it
    assert reporter.nested
    reporter.nested = nested
    monkeypatch.setattr(reporter, "_worker", lambda: False)  # as in a run of its own, not an xdist worker's
    reporter.exitstatus = 1
    reporter.pytest_unconfigure(pytestconfig)
    assert exits == ([] if nested else [1])
    assert reporting._LIVE_RUNS[0] >= 1  # the session's own reporter is still counted  # pyright: ignore[reportPrivateUsage]
