"""The pytest11 plugin of the conformance suite: options, ini keys, the marker, item generation, supervision, reporting.

Loaded by every pytest run in an environment where gymspec is installed (entry point ``conformance``), so it is
inert by construction: registering options and the marker is all it does until a test requesting
``conformance_case`` or ``conformance_target`` is collected. Only then are targets resolved, items run under
supervision (:mod:`conformance._engine.runner`), and the run gets a JSON report and a terminal summary.

The report is kept true whatever happens: every conformance item that pytest counts has exactly one record, with
the same category (an item the suite records as ``error`` is counted by pytest as an error too, through
``pytest_report_teststatus``); an item whose process crashed, hung or was interrupted is recorded with the reason;
an xdist worker's crash report gets a record built from its node id; an item that started and never reported (an
interrupt in thread isolation) gets an error report of its own. Under pytest-xdist, items run on workers and their
records reach the controller inside the reports' ``user_properties``; the controller alone writes the report (to a
temporary file renamed into place) and the table.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conformance._engine.narrowing import is_dict, is_list
from conformance._engine.options import (
    ENV_VAR,
    FLAG_OPTIONS,
    LIST_OPTIONS,
    OPTION_HELP,
    OPTION_NAMES,
    PROJECT_KEY,
    CaseParam,
    flag,
    item_param,
    option,
    rule_selected,
)
from conformance._engine.progress import Progress
from conformance._engine.report import PROPERTY, record_of
from conformance.results import Outcome, Report, RuleResult, rule_level

# Imported when pytest loads the plugin, before any target can be: it records the process-wide state (warning
# filters, logging, print options, signals) that each item starts from, whatever a target changes.
from conformance._kit import pristine as _pristine  # noqa: E402, F401  # pyright: ignore[reportUnusedImport]

if TYPE_CHECKING:
    from conformance._engine.baseline import Baseline, Entry
    from conformance._engine.project import ProjectTable
    from conformance._engine.runner import ItemRunner

__all__ = [
    "CASE_KEY",
    "pytest_addoption",
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_generate_tests",
    "pytest_report_teststatus",
    "pytest_runtest_makereport",
    "pytest_runtest_protocol",
]

MARKER = "conformance_rule"
CASE_KEY = pytest.StashKey[Any]()
_BASELINE_KEY = pytest.StashKey["Baseline | None"]()
_RUNNER_KEY = pytest.StashKey["ItemRunner | None"]()
_CONSTRUCT = "CONSTRUCT"
_TARGET_WARNINGS = "conformance-target-warnings"  # the same as conformance._engine.runner.TARGET_WARNINGS
# A conformance item's node id: conformance/test_<area>.py::test_<name>[<rule id>-<target id>] (or [<target id>]).
# Its file is one of the suite's, relative to the rootdir: the package's own directory under `--pyargs conformance`,
# a directory above it otherwise. An "@group" suffix is pytest-xdist's, under --dist loadgroup.
_SUITE_FILES = "|".join(sorted(re.escape(path.stem) for path in Path(__file__).parent.glob("test_*.py")))
_NODEID = re.compile(rf"(?:^|(?:^|/)conformance/)(?:{_SUITE_FILES})\.py::test_\w+\[(?P<param>.*)\](?:@[^\]]*)?$")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # terminal colours some packages put in their warnings
_PARAM = re.compile(r"^(?P<rule>[A-Z]+-\d{3})-(?P<target>.+)$")


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register the suite's options and their ini keys (same names as the option destinations)."""
    group = parser.getgroup("conformance", "gymspec conformance suite (pytest --pyargs conformance)")
    for name, dest in OPTION_NAMES.items():
        metavar, text = OPTION_HELP[name]
        command_line = flag(name)
        if name in FLAG_OPTIONS:
            group.addoption(command_line, action="store_true", dest=dest, default=None, help=text)
            parser.addini(dest, help=f"{text} (ini form of {command_line})", type="bool", default=False)
            continue
        action = "append" if name in LIST_OPTIONS else "store"
        group.addoption(command_line, action=action, dest=dest, default=None, metavar=metavar, help=text)
        if name in LIST_OPTIONS:
            parser.addini(dest, help=f"{text} (ini form of {command_line})", type="linelist")
        else:
            parser.addini(dest, help=f"{text} (ini form of {command_line})", type="string")


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker; validate the conformance options only when one of them was given."""
    config.addinivalue_line(
        "markers", f"{MARKER}(rule_id, kinds=('env',), owns=()): the gymspec rule a conformance test checks"
    )
    table = _project_table(config)
    config.stash[PROJECT_KEY] = table
    given = any(option(config, name) not in (None, [], False) for name in OPTION_NAMES) or bool(os.environ.get(ENV_VAR))
    if given:
        from conformance._engine.session import validate_options

        try:
            validate_options(config)
        except pytest.UsageError as exc:
            raise pytest.UsageError(_from_table(str(exc), table, config)) from None
    config.stash[_BASELINE_KEY] = _baseline(config)
    if (given or "conformance" in config.args) and getattr(config.option, "dist", None) == "load":
        # Under pytest-xdist, keep a target's items on one worker: its zygote, measured costs and shared trace
        # are built once per worker that runs it (items of other tests are not grouped, so they spread as usual).
        config.option.dist = "loadgroup"
    config.pluginmanager.register(_Reporter(config), "conformance-reporter")


def _project_table(config: pytest.Config) -> ProjectTable | None:
    """The ``[tool.conformance]`` table that configures this run (``None``: no table, or not a run of the suite)."""
    raw = config.getoption(OPTION_NAMES["project"], default=None) or config.getini(OPTION_NAMES["project"])
    # Only a run of the suite reads it: a project's own test runs never import its targets (nor this machinery).
    if raw == "none" or not (raw or "conformance" in config.args):
        return None
    from conformance._engine.project import ProjectTableError, find_pyproject, read_table

    if raw:
        path = config.invocation_params.dir / str(raw)
        if not path.is_file():
            raise pytest.UsageError(f"--conformance-project must be a pyproject.toml file or 'none', got {raw!r} "
                                    f"(no such file from {config.invocation_params.dir})")
    else:
        found = find_pyproject(config.invocation_params.dir)
        if found is None:
            return None
        path = found
    try:
        return read_table(path)
    except ProjectTableError as exc:
        raise pytest.UsageError(str(exc)) from None


def _from_table(message: str, table: ProjectTable | None, config: pytest.Config) -> str:
    """A usage error about an option the table set names the table's key instead of the flag."""
    if table is None:
        return message
    for name in table.values:
        command_line = flag(name)
        given = config.getoption(OPTION_NAMES[name], default=None) not in (None, [], False)
        if message.startswith(command_line + " ") and not given:
            return table.where(name) + message[len(command_line):]
    return message


def _baseline(config: pytest.Config) -> Baseline | None:
    path = option(config, "baseline")
    if not path:
        return None
    from conformance._engine.baseline import Baseline, BaselineError

    try:
        return Baseline.load(config.invocation_params.dir / str(path))
    except BaselineError as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One item per (rule, target) for rule tests; one per target for the construction check."""
    names = metafunc.fixturenames
    if "conformance_case" not in names and "conformance_target" not in names:
        return
    from conformance._engine.session import get_session

    session = get_session(metafunc.config)
    if "conformance_target" in names:
        targets = session.targets
        params = [CaseParam(None, target) for target in targets]
        metafunc.parametrize("conformance_target", params, ids=[t.id for t in targets], indirect=True)
        return
    marker = metafunc.definition.get_closest_marker(MARKER)
    if marker is None:
        raise pytest.UsageError(f"{metafunc.definition.nodeid} requests conformance_case without @{MARKER}")
    rule_id = str(marker.args[0])
    kinds = tuple(marker.kwargs.get("kinds", ("env",)))
    owns = tuple(marker.kwargs.get("owns", ()))
    # A target that cannot exist (an id a sweep could not import) has only its construction check, which skips.
    chosen = [target for target in session.targets if target.kind in kinds and target.unavailable is None]
    params = [CaseParam(rule_id, target, owns) for target in chosen]
    metafunc.parametrize("conformance_case", params, ids=[f"{rule_id}-{t.id}" for t in chosen], indirect=True)


def _wants_suite(item: pytest.Item) -> bool:
    names = getattr(item, "fixturenames", ())
    return "conformance_case" in names or "conformance_target" in names


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Drop rules no target has (pytest's "empty parameter set" items) and rules ``--rules`` leaves out; group items
    by target for ``--dist loadgroup``."""
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    rules_given = bool(option(config, "rules"))
    selected_rules = 0
    # The mark is pytest-xdist's (registered by it): without the plugin, --strict-markers rejects it, and there is
    # nothing to group anyway.
    xdist = config.pluginmanager.hasplugin("xdist")
    for item in items:
        if not _wants_suite(item):
            keep.append(item)
            continue
        param = item_param(item)
        if param is None:  # a rule with no target of its kinds: nothing to check, nothing to count
            drop.append(item)
            continue
        if param.rule_id is not None:
            if rules_given and not rule_selected(config, param.rule_id):
                drop.append(item)
                continue
            selected_rules += 1
        if xdist:
            item.add_marker(pytest.mark.xdist_group(name=param.target.id))
        keep.append(item)
    if rules_given and selected_rules == 0 and any(_wants_suite(item) for item in items):
        kinds = sorted({p.target.kind for p in map(item_param, items) if p is not None})
        raise pytest.UsageError(
            f"--rules must select at least one rule that applies to the targets, got {option(config, 'rules')!r} "
            f"(the targets are of kind {', '.join(kinds) or 'none'})"
        )
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# --- supervised execution ------------------------------------------------------------------------------------------


def _runner(config: pytest.Config, session: pytest.Session) -> ItemRunner | None:
    if _RUNNER_KEY in config.stash:
        return config.stash[_RUNNER_KEY]
    runner = None
    from conformance._engine.session import get_session

    conformance = get_session(config)
    if conformance.limits.isolation == "process":
        from conformance._engine.jobs import settle_imports
        from conformance._engine.runner import ItemRunner
        from conformance._engine.session import jobs_for
        from conformance._engine.supervisor import Supervisor

        targets = {param.target.id for item in session.items if (param := item_param(item)) is not None}
        supervisor = Supervisor(
            conformance.limits.timeout,
            conformance.limits.memory,
            settle=settle_imports,
            parallel=jobs_for(config, len(targets)),
            start=conformance.limits.start,
        )
        runner = ItemRunner(config, supervisor)
        runner.bind(list(session.items))
    config.stash[_RUNNER_KEY] = runner
    return runner


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """Run a conformance item in a supervised process (``--conformance-isolation auto|fork|spawn``; auto is the
    default)."""
    param = item_param(item)
    if param is None:
        return None
    runner = _runner(item.config, item.session)
    if runner is None:
        return None
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    for report in runner.run(item, param):
        item.ihook.pytest_runtest_logreport(report=report)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    if runner.interrupted is not None:
        raise KeyboardInterrupt(runner.interrupted)
    return True


# --- records and reports ---------------------------------------------------------------------------------------------


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    text = str(longrepr[2]) if isinstance(longrepr, tuple) else str(longrepr)
    return text.removeprefix("Skipped: ")


def _record(
    item: pytest.Item, param: CaseParam, report: pytest.TestReport, call: pytest.CallInfo[None]
) -> RuleResult:
    from conformance._engine.outcomes import RuleFailure, Unchecked

    case = item.stash.get(CASE_KEY, None)
    rule = param.rule_id or _CONSTRUCT
    message, reproducer = "", ""
    outcome: Outcome
    if report.skipped:
        outcome, message = "skipped", _skip_reason(report)
    elif report.failed:
        error = call.excinfo.value if call.excinfo is not None else None
        outcome = "failed" if report.when == "call" and not isinstance(error, Unchecked) else "error"
        if isinstance(error, Unchecked):
            message = str(error)
        elif isinstance(error, RuleFailure):
            message, reproducer = error.message(), error.reproducer
        elif call.excinfo is not None:
            message = call.excinfo.exconly()
    else:
        violations: list[RuleFailure] = list(getattr(case, "violations", []))
        outcome = "warned" if violations and report.when == "call" else "passed"
        if violations:
            message, reproducer = violations[0].message(), violations[0].reproducer
    return RuleResult(rule, param.target.id, rule_level(rule), outcome, message, reproducer, item.nodeid,
                      examples=getattr(case, "examples", 0), steps=getattr(case, "steps", 0),
                      seconds=round(report.duration, 4))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """Attach the item's record to its report; show rule failures as their own text, not a traceback."""
    report = yield
    param = item_param(item)
    if param is None:
        return report
    from conformance._engine.outcomes import RuleFailure, Unchecked

    if call.excinfo is not None and isinstance(call.excinfo.value, RuleFailure) and report.failed:
        report.longrepr = call.excinfo.value.render()
    elif call.excinfo is not None and isinstance(call.excinfo.value, Unchecked) and report.failed:
        report.longrepr = str(call.excinfo.value)
    report.user_properties = [*report.user_properties, (PROPERTY, _record(item, param, report, call).to_dict())]
    return report


def _rule_and_target(nodeid: str) -> tuple[str, str] | None:
    """The rule id (``CONSTRUCT`` for a target's construction item) and target id of a conformance item's node id;
    ``None`` for any other item's."""
    match = _NODEID.search(nodeid)
    if match is None:
        return None
    param = match["param"]
    found = _PARAM.match(param)
    return (found["rule"], found["target"]) if found else (_CONSTRUCT, param)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """(pytest-xdist, on the controller) Under ``--dist loadgroup``, send each target's items to one worker, found
    from their node ids, so its zygote, measured costs and shared rollouts are made once.

    pytest-xdist's own grouping reads ``xdist_group`` marks on the workers and renames the node ids, which does not
    work with every pytest (since 9.x a node id cannot be renamed); other items are grouped by their marks as usual.
    """
    if getattr(config.option, "dist", None) != "loadgroup":
        return None
    from conformance._engine.scheduling import TargetScheduling

    return TargetScheduling(config, log, _target_group)


def _target_group(nodeid: str) -> str | None:
    parsed = _rule_and_target(nodeid)
    return None if parsed is None else parsed[1]


def _orphan_record(report: pytest.TestReport, reason: str) -> RuleResult | None:
    """A record for a conformance item's report the suite did not make (an xdist worker crash), from its node id."""
    parsed = _rule_and_target(report.nodeid)
    if parsed is None:
        return None
    rule, target = parsed
    return RuleResult(rule, target, rule_level(rule), "error", reason, nodeid=report.nodeid)


def pytest_report_teststatus(report: pytest.TestReport) -> tuple[str, str, str] | None:
    """Count an item the suite records as ``error`` as an error in pytest's own tally too."""
    record = record_of(report)
    if record is None and report.failed and report.when not in ("setup", "call", "teardown"):
        record = _orphan_record(report, "")
    if record is not None and record.outcome == "error" and report.failed:
        return "error", "E", "ERROR"
    return None


class _Reporter:
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
        self.progress = Progress(config, _target_group)
        self.fixed: list[Entry] = []
        # The targets' own warnings: (target, category, message, where) -> the number of items that raised it.
        self.target_warnings: dict[tuple[str, str, str, str], int] = {}
        self.signal = ""
        self.sigterm_caught = False
        self.exitstatus: int | pytest.ExitCode | None = None
        self.started = time.monotonic()
        self.live: Any = None  # the report on disk while the run goes on (LiveReport), where one is asked for
        path = option(config, "report")
        if path and not self._worker():
            from conformance._engine.report import LiveReport

            self.live = LiveReport(path)
            self._catch_sigterm()

    def _catch_sigterm(self) -> None:
        """Make SIGTERM (a CI job's cancel, ``timeout``) stop the run as Ctrl-C does, so the report and the summary
        are still written; a handler the user installed stays."""
        import signal
        import threading

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
            self.live.update(merged, self._meta())

    def pytest_runtest_logstart(self, nodeid: str, location: tuple[str, int | None, str]) -> None:
        self.running[nodeid] = location

    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        self.running.pop(nodeid, None)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Merge the phases of each item into one record (the most severe outcome wins); a finding the baseline
        accepts becomes ``accepted`` here, before pytest's own reporters count it (as xfailed)."""
        record = record_of(report)
        if record is None and report.failed:
            record = _orphan_record(report, str(report.longrepr))
        if record is not None:
            baseline = self.config.stash.get(_BASELINE_KEY, None)
            if baseline is not None:
                record = baseline.accept(report, record)
            self._merge(record)
            self.progress.reported(report, record)
        self._gather_warnings(report)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.progress.expect(item.nodeid for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """(pytest-xdist, on the controller) Every worker collects the same items: count them once."""
        del node
        self.progress.expect(ids)

    def _gather_warnings(self, report: pytest.TestReport) -> None:
        parsed = _rule_and_target(report.nodeid)
        for name, value in getattr(report, "user_properties", ()):
            if name != _TARGET_WARNINGS or parsed is None or not is_list(value):
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
                if key not in seen:  # counted once per item, however often the item raised it
                    seen.add(key)
                    self.target_warnings[key] = self.target_warnings.get(key, 0) + 1

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
            record = _orphan_record(report, reason)
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
        baseline: Baseline | None = self.config.stash.get(_BASELINE_KEY, None)
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
        """The warnings the targets raised themselves, once per target and warning, with the number of items."""
        if not self.target_warnings:
            return
        terminalreporter.write_line("warnings the targets raised (once each, with the number of items that raised it):")
        for (target, category, message, where), count in sorted(self.target_warnings.items()):
            text = " ".join(_ANSI.sub("", message).split())
            if len(text) > 200:
                text = text[:197] + "..."
            terminalreporter.write_line(f"  [{target}] {category} ({count} item{'' if count == 1 else 's'}) at {where}: {text}")

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        """Give SIGTERM back its default (a process that runs pytest.main and goes on, e.g. a test session, must not
        keep a handler that turns its children's termination into KeyboardInterrupt); under thread isolation, end
        the process at once when a worker thread is still stuck in a call of the target: interpreter shutdown would
        finalize modules under it (one such run crashed at exit)."""
        if self.sigterm_caught:
            import signal

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
        runner = self.config.stash.get(_RUNNER_KEY, None)
        if runner is not None:
            runner.supervisor.close()
        from conformance._engine.session import existing_session

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
        from conformance._engine.report import write_report

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
        baseline: Baseline | None = self.config.stash.get(_BASELINE_KEY, None)
        if baseline is not None:
            from conformance._engine.baseline import fingerprint

            found = [(r.target, r.rule, fingerprint(r.rule, r.target, r.message)) for r in results
                     if r.outcome in ("failed", "warned", "error", "accepted")]
            self.fixed = baseline.fixed([(r.target, r.rule) for r in results if r.outcome != "skipped"], found)
        writers: list[tuple[str, Callable[[], object]]] = []
        html, badge, written = option(self.config, "html"), option(self.config, "badge"), option(self.config,
                                                                                                  "write_baseline")
        if html:
            from conformance._engine.html import write_html

            meta = {"profile": option(self.config, "profile") or "default", "rules": option(self.config, "rules")}
            writers.append((html, lambda: write_html(html, results, meta)))
        if badge:
            from conformance._engine.badge import write_badge

            writers.append((badge, lambda: write_badge(badge, results)))
        if written:
            from conformance._engine.baseline import write_baseline

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

