"""What the run shows on the terminal and in its JSON report: progress lines, and the reporter that gathers item records
where pytest logs reports (the files written for people are :mod:`conformance._engine.artifacts`).

**Progress.** Progress of long runs on the terminal: per target, items done of its total and the time so far.

**The reporter.** What the run reports, gathered where pytest logs reports (pytest-xdist's controller, or the only
process): the :class:`Reporter` the plugin registers — item records merged phase by phase, the live and final JSON report, the
terminal summary, the targets' own warnings, HTML, badge and baseline — and how a conformance item's node id names its
rule and target (for reports the suite did not make: an xdist worker's crash).

Loaded with the plugin in every pytest session, so it imports nothing heavy at module level: what only a run with
conformance items needs (the session, the report writers) is imported where it is used.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conformance._engine.artifacts import write_badge, write_html
from conformance._engine.describe import is_dict, is_list
from conformance._engine.options import option
from conformance._engine.project import fingerprint, write_baseline
from conformance._engine.report import PROPERTY, TARGET_WARNINGS, LiveReport, record_of, write_report
from conformance.results import CONSTRUCT, Report, RuleResult, rule_level

if TYPE_CHECKING:
    from conformance._engine.project import Baseline, Entry
    from conformance._engine.session import ConformanceSession
    from conformance._engine.runner import ItemRunner

__all__ = [
    "BASELINE_KEY",
    "Progress",
    "RUNNER_KEY",
    "Reporter",
    "orphan_record",
    "rule_and_target",
    "target_group",
]


# --- Progress ------------------------------------------------------------------------------------------------------

class Progress:
    """Per target, items done of total and the time since its first item, on the terminal of long runs.

    Args:
        config: The run's config (verbosity, the terminal reporter).
        target_of: The target id of a conformance item's node id (``None`` for other items).
        clock: Seconds, monotonic.

    A line is due when a target finishes and, while one runs, at most every :attr:`EVERY` seconds; nothing in the
    first few seconds (short runs stay as pytest prints them) and nothing under ``-q``. A due line waits for the end
    of pytest's row of dots (:meth:`flush`, after each item): written in the middle, it split the row in two.
    """

    EVERY = 10.0
    QUIET_FOR = 5.0

    def __init__(
        self, config: pytest.Config, target_of: Callable[[str], str | None], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.config = config
        self.target_of = target_of
        self.clock = clock
        self.totals: dict[str, int] = {}
        self.done: dict[str, set[str]] = {}
        self.started: dict[str, float] = {}
        self.announced: set[str] = set()
        self.began = clock()
        self.last = self.began
        self.due: dict[str, str] = {}  # target -> its latest line not yet written

    def expect(self, nodeids: Iterable[str]) -> None:
        """Count each target's items (once: every xdist worker reports the same collection)."""
        if self.totals:
            return
        for nodeid in nodeids:
            target = self.target_of(nodeid)
            if target is not None:
                self.totals[target] = self.totals.get(target, 0) + 1

    def reported(self, report: pytest.TestReport, record: RuleResult) -> None:
        """Note an item's report; a line is due when its target finished or the last line is old enough."""
        target = record.target
        now = self.clock()
        self.started.setdefault(target, now)
        done = self.done.setdefault(target, set())
        done.add(report.nodeid)
        total = self.totals.get(target)
        if self.config.get_verbosity() < 0 or total is None or now - self.began < self.QUIET_FOR:
            return
        finished = len(done) >= total
        if finished:
            if target in self.announced:  # the item's later phases
                return
            self.announced.add(target)
        elif now - self.last < self.EVERY or now - self.started[target] < self.QUIET_FOR:
            return
        self.last = now
        state = "done" if finished else "running"
        self.due[target] = f"conformance: {target} {len(done)}/{total} items {state}, {now - self.started[target]:.1f} s"

    def flush(self, *, end: bool = False) -> None:
        """Write the due lines where pytest's row of dots has ended (after an item). Under ``-v`` every item's line
        is a row of its own. ``end``: the run's items are over, and what is still due is dropped: the summary's
        table, which follows, has every target's items and time (most targets end in the suite's last module, so
        their lines would all come here, one per target)."""
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if end:
            self.due.clear()
        if not self.due or reporter is None:
            return
        if self.config.get_verbosity() > 0:
            reporter.ensure_newline()
            if _column(reporter):  # pytest-xdist's rows have no file name, which ensure_newline goes by
                reporter.write("\n")
        elif _column(reporter) != 0:
            return
        for line in self.due.values():
            reporter.write(line + "\n")
        self.due.clear()


def _column(reporter: Any) -> int | None:
    """Where on its line the terminal is (0: at the start of a row); ``None`` when pytest does not say."""
    width = getattr(getattr(reporter, "_tw", None), "width_of_current_line", None)
    return width if isinstance(width, int) else None


# --- The reporter --------------------------------------------------------------------------------------------------

BASELINE_KEY = pytest.StashKey["Baseline | None"]()
"""The run's baseline (``--conformance-baseline``), read at configure time."""
RUNNER_KEY = pytest.StashKey["ItemRunner | None"]()
"""The run's item runner, made with the first conformance item."""

# A conformance item's node id: conformance/test_<area>.py::test_<name>[<rule id>-<target id>] (or [<target id>]).
# Its file is one of the suite's, relative to the rootdir: the package's own directory under `--pyargs conformance`,
# a directory above it otherwise. An "@group" suffix is pytest-xdist's, under --dist loadgroup.
_SUITE_FILES = "|".join(sorted(re.escape(path.stem) for path in Path(__file__).parents[1].glob("test_*.py")))
_NODEID = re.compile(rf"(?:^|(?:^|/)conformance/)(?:{_SUITE_FILES})\.py::test_\w+\[(?P<param>.*)\](?:@[^\]]*)?$")
_PARAM = re.compile(r"^(?P<rule>[A-Z]+-\d{3})-(?P<target>.+)$")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # terminal colours some packages put in their warnings


_SUITE_DIR = Path(__file__).resolve().parents[1]


@functools.lru_cache(maxsize=256)
def _in_suite(filename: str) -> str | None:
    """Where a warning's location is in the suite's own code (``conformance/test_space.py``): the warning is about a
    call the suite made (a target that warns its caller); ``None`` for a location anywhere else (the target's)."""
    try:
        path = Path(filename).resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    if not path.is_relative_to(_SUITE_DIR):
        return None
    return (Path(_SUITE_DIR.name) / path.relative_to(_SUITE_DIR)).as_posix()


def _items(count: int) -> str:
    return f"{count} item{'' if count == 1 else 's'}"


def _one_line(message: str) -> str:
    """A warning's message on one line, without terminal colours, at most 200 characters."""
    text = " ".join(_ANSI.sub("", message).split())
    return text if len(text) <= 200 else text[:197] + "..."


def rule_and_target(nodeid: str) -> tuple[str, str] | None:
    """The rule id (``CONSTRUCT`` for a target's construction item) and target id of a conformance item's node id;
    ``None`` for any other item's."""
    match = _NODEID.search(nodeid)
    if match is None:
        return None
    param = match["param"]
    found = _PARAM.match(param)
    return (found["rule"], found["target"]) if found else (CONSTRUCT, param)


def target_group(nodeid: str) -> str | None:
    """The target id of a conformance item's node id (``None`` for any other item): its xdist group."""
    parsed = rule_and_target(nodeid)
    return None if parsed is None else parsed[1]


def orphan_record(report: pytest.TestReport, reason: str) -> RuleResult | None:
    """A record for a conformance item's report the suite did not make (an xdist worker crash), from its node id."""
    parsed = rule_and_target(report.nodeid)
    if parsed is None:
        return None
    rule, target = parsed
    return RuleResult(rule, target, rule_level(rule), "error", reason, nodeid=report.nodeid)


class Reporter:
    """Collects the records where reports are logged (the xdist controller, or the only process).

    Args:
        config: The run's config.
    """

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.records: dict[str, RuleResult] = {}
        self.running: dict[str, tuple[str, int | None, str]] = {}
        self.interrupted = False
        self.internal_error = ""
        self.progress = Progress(config, target_group)
        self.fixed: list[Entry] = []
        # The targets' own warnings: (target, category, message, where) -> the number of items that raised it.
        self.target_warnings: dict[tuple[str, str, str, str], int] = {}
        # Warnings located in the suite's own code (a target warning about the call the suite made, e.g. a list
        # where an array is expected): (category, message, where) -> the targets that raised it, and its items.
        self.probe_warnings: dict[tuple[str, str, str], tuple[set[str], int]] = {}
        self.signal = ""
        self.sigterm_caught = False
        self.exitstatus: int | pytest.ExitCode | None = None
        self.started = time.monotonic()
        self.live: Any = None  # the report on disk while the run goes on (LiveReport), where one is asked for
        path = option(config, "report")
        if path and not self._worker():
            self.live = LiveReport(path)
            self._catch_sigterm()

    def _catch_sigterm(self) -> None:
        """Make SIGTERM (a CI job's cancel, ``timeout``) stop the run as Ctrl-C does, so the report and the summary
        are still written; a handler the user installed stays."""
        if threading.current_thread() is not threading.main_thread():
            return
        if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
            return

        def stop(signum: int, frame: object) -> None:
            del signum, frame
            self.signal = "SIGTERM"
            raise KeyboardInterrupt("SIGTERM")

        signal.signal(signal.SIGTERM, stop)
        self.sigterm_caught = True

    def _meta(self) -> dict[str, Any]:
        return {
            "profile": option(self.config, "profile") or "default",
            "rules": option(self.config, "rules") or "*",
            "registry": option(self.config, "registry") or "reference",
            "python": sys.version.split()[0],
            "interrupted": self.interrupted,
            "signal": self.signal,
            "internal_error": self.internal_error,
        }

    def _merge(self, result: RuleResult) -> None:
        previous = self.records.get(result.nodeid)
        merged = result if previous is None else previous.merge(result)
        self.records[result.nodeid] = merged
        if self.live is not None:
            self.live.update(merged)  # on disk when the item has ended (pytest_runtest_logfinish)

    def pytest_runtest_logstart(self, nodeid: str, location: tuple[str, int | None, str]) -> None:
        self.running[nodeid] = location

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        """The item has ended: its record goes to disk, and a due progress line to the terminal if pytest's row of
        dots has ended (``trylast``: after pytest wrote the item's letter and ended the row, if it did)."""
        self.running.pop(nodeid, None)
        if self.live is not None:
            self.live.flush(self._meta())
        self.progress.flush()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Merge the phases of each item into one record (the most severe outcome wins); a finding the baseline
        accepts becomes ``accepted`` here, before pytest's own reporters count it (as xfailed)."""
        record = record_of(report)
        if record is None and report.failed:
            record = orphan_record(report, str(report.longrepr))
        if record is not None:
            baseline = self.config.stash.get(BASELINE_KEY, None)
            if baseline is not None:
                record = baseline.accept(report, record)
            self._merge(record)
            self.progress.reported(report, record)
        self._gather_warnings(report)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.progress.expect(item.nodeid for item in session.items)
        self._begin([item.nodeid for item in session.items])

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """(pytest-xdist, on the controller) Every worker collects the same items: count them once."""
        del node
        self.progress.expect(ids)
        self._begin(ids)

    def _begin(self, nodeids: list[str]) -> None:
        """Put the run's report on disk before its first item ends (a session with no conformance item writes
        none: the plugin stays inert there)."""
        if self.live is not None and not self.records and any(rule_and_target(nodeid) for nodeid in nodeids):
            self.live.begin(self._meta())

    def _gather_warnings(self, report: pytest.TestReport) -> None:
        parsed = rule_and_target(report.nodeid)
        for name, value in getattr(report, "user_properties", ()):
            if name != TARGET_WARNINGS or parsed is None or not is_list(value):
                continue
            seen: set[tuple[str, str, str, str]] = set()
            for warning in value:
                if not is_dict(warning):
                    continue
                key = (
                    parsed[1],
                    f"{warning.get('module')}.{warning.get('name')}",
                    str(warning.get("message", "")),
                    f"{warning.get('filename')}:{warning.get('lineno')}",
                )
                if key in seen:  # counted once per item, however often the item raised it
                    continue
                seen.add(key)
                suite = _in_suite(str(warning.get("filename")))
                if suite is None:
                    self.target_warnings[key] = self.target_warnings.get(key, 0) + 1
                    continue
                probe = (key[1], key[2], f"{suite}:{warning.get('lineno')}")
                targets, items = self.probe_warnings.get(probe, (set(), 0))
                self.probe_warnings[probe] = (targets | {key[0]}, items + 1)

    def pytest_keyboard_interrupt(self) -> None:
        self.interrupted = True
        self._unfinished("interrupted (Ctrl-C) before it finished")

    def pytest_internalerror(self, excrepr: Any) -> None:
        self.internal_error = str(excrepr).splitlines()[-1] if str(excrepr) else "internal error"
        self._unfinished(f"pytest stopped with an internal error before it finished: {self.internal_error}")

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed and "conformance" in report.nodeid:
            reason = str(report.longrepr).strip().splitlines()[-1]
            self._merge(RuleResult("COLLECT", "-", rule_level("COLLECT"), "error", reason, nodeid=report.nodeid))

    def _unfinished(self, reason: str) -> None:
        """Log an error report for every conformance item that started and never reported, so pytest counts it."""
        for nodeid, location in list(self.running.items()):
            if nodeid in self.records:
                continue
            report = pytest.TestReport(nodeid, location, {}, "failed", reason, "setup")
            record = orphan_record(report, reason)
            if record is None:
                continue
            properties: list[tuple[str, object]] = [(PROPERTY, record.to_dict())]
            report.user_properties = properties
            self.config.hook.pytest_runtest_logreport(report=report)
        self.running.clear()

    def _worker(self) -> bool:
        return hasattr(self.config, "workerinput")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Print the target × area table (only when conformance items ran)."""
        results = list(self.records.values())
        if not results or self._worker():
            return
        report = Report(tuple(results))
        profile = option(self.config, "profile") or "default"
        terminalreporter.write_sep("=", f"conformance summary (profile {profile})")
        for line in report.table():
            terminalreporter.write_line(line)
        effort = report.effort()
        if effort:
            terminalreporter.write_line("effort (steps and examples by rule area; costly targets get fewer):")
            for line in effort:
                terminalreporter.write_line(f"  {line}")
        cost = report.cost_lines()
        if cost:
            terminalreporter.write_line("time (items' seconds inside the target's calls, and the suite's own):")
            for line in cost:
                terminalreporter.write_line(f"  {line}")
        failing = sorted({f"{r.rule} [{r.target}]" for r in results if r.outcome in ("failed", "error")})
        if failing:
            terminalreporter.write_line("violated MUST rules or errors: " + ", ".join(failing), red=True)
        warned = sorted({f"{r.rule} [{r.target}]" for r in results if r.outcome == "warned"})
        if warned:
            terminalreporter.write_line("SHOULD warnings: " + ", ".join(warned), yellow=True)
        for target, note in report.isolation.items():
            terminalreporter.write_line(f"isolation: {note} ({target})")
        for target, count in report.not_checked.items():
            terminalreporter.write_line(
                f"NOT CHECKED: {target} — {count} item{'s' if count != 1 else ''} could not be checked (errors above "
                "name the cause and the remedy); the target has not passed", red=True)
        if self.interrupted:
            why = f" by {self.signal}" if self.signal else ""
            terminalreporter.write_line(f"the run was interrupted{why}: items that did not run are not in the table")
        self._summarize_warnings(terminalreporter)
        self._baseline_summary(terminalreporter, results)
        for name, what in (("report", "conformance report"), ("html", "HTML report"), ("badge", "badge")):
            path = option(self.config, name)
            if path:
                terminalreporter.write_line(f"{what}: {path}")

    def _baseline_summary(self, terminalreporter: Any, results: list[RuleResult]) -> None:
        baseline: Baseline | None = self.config.stash.get(BASELINE_KEY, None)
        if baseline is None:
            return
        accepted = sum(r.outcome == "accepted" for r in results)
        new = sum(r.outcome in ("failed", "warned", "error") for r in results)
        terminalreporter.write_line(
            f"baseline {baseline.path}: {accepted} accepted, {new} new, {len(self.fixed)} fixed", bold=True
        )
        strict = bool(option(self.config, "strict_baseline"))
        for entry in self.fixed:
            terminalreporter.write_line(
                f"  fixed: {entry.rule} [{entry.target}] {entry.fingerprint} no longer occurs: remove it from the "
                f"baseline{' (--conformance-baseline-strict fails the run until then)' if strict else ''}",
                red=strict, green=not strict,
            )

    def _summarize_warnings(self, terminalreporter: Any) -> None:
        """The warnings the targets raised themselves, once per target and warning, with the number of items; then
        those located in the suite's own calls, once each, apart: they are about how the suite called the target."""
        if self.target_warnings:
            terminalreporter.write_line(
                "warnings the targets raised (once each, with the number of items that raised it):")
        for (target, category, message, where), count in sorted(self.target_warnings.items()):
            terminalreporter.write_line(f"  [{target}] {category} ({_items(count)}) at {where}: {_one_line(message)}")
        if self.probe_warnings:
            terminalreporter.write_line(
                "warnings about the suite's own calls (located in its code: the targets' answers to calls the suite "
                "makes on purpose, such as a list where an array is expected; not the targets' own warnings):")
        for (category, message, where), (targets, count) in sorted(self.probe_warnings.items()):
            plural = "" if len(targets) == 1 else "s"
            terminalreporter.write_line(
                f"  {category} at {where} ({len(targets)} target{plural}, {_items(count)}): {_one_line(message)}")

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        """Give SIGTERM back its default (a process that runs pytest.main and goes on, e.g. a test session, must not
        keep a handler that turns its children's termination into KeyboardInterrupt); under thread isolation, end
        the process at once when a worker thread is still stuck in a call of the target: interpreter shutdown would
        finalize modules under it (one such run crashed at exit)."""
        if self.sigterm_caught:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            self.sigterm_caught = False
        watchdog = sys.modules.get("conformance._engine.watchdog")
        if self.exitstatus is None or self._worker() or watchdog is None or not watchdog.stuck_threads():
            return
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        os._exit(int(self.exitstatus))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int | pytest.ExitCode) -> None:
        """Stop the supervised processes; write the JSON report (not on xdist workers)."""
        self.exitstatus = exitstatus
        self.progress.flush(end=True)
        runner = self.config.stash.get(RUNNER_KEY, None)
        if runner is not None:
            runner.supervisor.close()
        # Only a run that made a session has one to close: the session's module (NumPy, Hypothesis, the target
        # machinery) is not imported at the end of every pytest run of a project that has the suite installed.
        conformance: ConformanceSession | None = None
        if "conformance._engine.session" in sys.modules:
            from conformance._engine.session import existing_session  # late: imported only by a run that made one

            conformance = existing_session(self.config)
        if conformance is not None:
            conformance.close()
        self._unfinished("the run ended before it finished")
        if self._worker() or (conformance is None and not self.records):
            return
        self._outputs(session)
        path = option(self.config, "report")
        if not path:
            return
        report = Report(tuple(self.records.values()), time.monotonic() - self.started,
                        {**self._meta(), "incomplete": False})
        try:
            write_report(path, report)
        except OSError as exc:
            reporter = self.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_line(f"conformance report not written to {path}: {exc}", red=True)

    def _outputs(self, session: pytest.Session) -> None:
        """The HTML report, the badge and a written baseline; a strict baseline with fixed entries fails the run."""
        results = list(self.records.values())
        baseline: Baseline | None = self.config.stash.get(BASELINE_KEY, None)
        if baseline is not None:
            found = [(r.target, r.rule, fingerprint(r.rule, r.target, r.message)) for r in results
                     if r.outcome in ("failed", "warned", "error", "accepted")]
            self.fixed = baseline.fixed([(r.target, r.rule) for r in results if r.outcome != "skipped"], found)
        writers: list[tuple[str, Callable[[], object]]] = []
        html, badge, written = option(self.config, "html"), option(self.config, "badge"), option(self.config,
                                                                                                  "write_baseline")
        if html:
            meta = {"profile": option(self.config, "profile") or "default", "rules": option(self.config, "rules")}
            writers.append((html, lambda: write_html(html, results, meta)))
        if badge:
            writers.append((badge, lambda: write_badge(badge, results)))
        if written:
            writers.append((written, lambda: write_baseline(written, results, baseline)))
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        for path, write in writers:
            try:
                write()
            except OSError as exc:
                if reporter is not None:
                    reporter.write_line(f"conformance: {path} not written: {exc}", red=True)
        if self.fixed and option(self.config, "strict_baseline") and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
