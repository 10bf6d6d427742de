"""The pytest11 plugin of the conformance suite: options, ini keys, the marker, item generation, reporting.

Loaded by every pytest run in an environment where gymspec is installed (entry point ``conformance``), so it is
inert by construction: registering options and the marker is all it does until a test requesting
``conformance_case`` or ``conformance_target`` is collected. Only then are targets resolved, and only then does the
run get a JSON report and a terminal summary. Under pytest-xdist, items run on workers and their records reach the
controller inside the reports' ``user_properties``; the controller alone writes the report and the table.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import pytest

from conformance._engine.options import (
    ENV_VAR,
    LIST_OPTIONS,
    OPTION_HELP,
    OPTION_NAMES,
    CaseParam,
    flag,
    option,
    rule_selected,
)

if TYPE_CHECKING:
    from conformance._engine.session import ConformanceSession

__all__ = [
    "CASE_KEY",
    "get_session",
    "pytest_addoption",
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_generate_tests",
    "pytest_runtest_makereport",
]

MARKER = "conformance_rule"
CASE_KEY = pytest.StashKey[Any]()
_SESSION_KEY = pytest.StashKey["ConformanceSession"]()
_CONSTRUCT = "CONSTRUCT"
_PROPERTY = "conformance"

def pytest_addoption(parser: pytest.Parser) -> None:
    """Register the suite's options and their ini keys (same names as the option destinations)."""
    group = parser.getgroup("conformance", "gymspec conformance suite (pytest --pyargs conformance)")
    for name, dest in OPTION_NAMES.items():
        metavar, text = OPTION_HELP[name]
        command_line = flag(name)
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
    given = any(option(config, name) not in (None, []) for name in OPTION_NAMES) or bool(os.environ.get(ENV_VAR))
    if given:
        from conformance._engine.session import validate_options

        validate_options(config)
    config.pluginmanager.register(_Reporter(config), "conformance-reporter")


def get_session(config: pytest.Config) -> ConformanceSession:
    """The run's :class:`ConformanceSession`, created on first use."""
    session = config.stash.get(_SESSION_KEY, None)
    if session is None:
        from conformance._engine.session import ConformanceSession

        session = ConformanceSession(config)
        config.stash[_SESSION_KEY] = session
    return session


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One item per (rule, target) for rule tests; one per target for the construction check."""
    names = metafunc.fixturenames
    if "conformance_case" not in names and "conformance_target" not in names:
        return
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
    chosen = [target for target in session.targets if target.kind in kinds]
    params = [CaseParam(rule_id, target, owns) for target in chosen]
    metafunc.parametrize("conformance_case", params, ids=[f"{rule_id}-{t.id}" for t in chosen], indirect=True)


def _param(item: pytest.Item) -> CaseParam | None:
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    param = callspec.params.get("conformance_case", callspec.params.get("conformance_target"))
    return param if isinstance(param, CaseParam) else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Apply ``--rules``: deselect rule items whose id does not match (the construction check always stays)."""
    if not option(config, "rules"):
        return
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        param = _param(item)
        rule_id = None if param is None else param.rule_id
        (drop if rule_id is not None and not rule_selected(config, rule_id) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    text = str(longrepr[2]) if isinstance(longrepr, tuple) else str(longrepr)
    return text.removeprefix("Skipped: ")


def _record(
    item: pytest.Item, param: CaseParam, report: pytest.TestReport, call: pytest.CallInfo[None]
) -> dict[str, str]:
    from conformance._engine.outcomes import RuleFailure

    case = item.stash.get(CASE_KEY, None)
    rule = getattr(case, "rule", None)
    level = rule.level.value if rule is not None else "MUST"
    record = {"target": param.target.id, "rule": param.rule_id or _CONSTRUCT, "level": level, "nodeid": item.nodeid}
    message, reproducer = "", ""
    if report.skipped:
        outcome, message = "skipped", _skip_reason(report)
    elif report.failed:
        outcome = "failed" if report.when == "call" else "error"
        error = call.excinfo.value if call.excinfo is not None else None
        if isinstance(error, RuleFailure):
            message, reproducer = error.message(), error.reproducer
        elif call.excinfo is not None:
            message = call.excinfo.exconly()
    else:
        violations: list[RuleFailure] = list(getattr(case, "violations", []))
        outcome = "warned" if violations and report.when == "call" else "passed"
        if violations:
            message, reproducer = violations[0].message(), violations[0].reproducer
    record.update(outcome=outcome, message=message, reproducer=reproducer)
    return record


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """Attach the item's record to its report; show rule failures as their own text, not a traceback."""
    report = yield
    param = _param(item)
    if param is None:
        return report
    from conformance._engine.outcomes import RuleFailure

    if call.excinfo is not None and isinstance(call.excinfo.value, RuleFailure) and report.failed:
        report.longrepr = call.excinfo.value.render()
    report.user_properties = [*report.user_properties, (_PROPERTY, _record(item, param, report, call))]
    return report


class _Reporter:
    """Collects the records where reports are logged (the xdist controller, or the only process).

    Args:
        config: The run's config.
    """

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.records: dict[str, Any] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Merge the phases of each item into one record (the most severe outcome wins)."""
        for name, value in report.user_properties:
            if name != _PROPERTY or not isinstance(value, dict):
                continue
            from conformance._engine.report import Result

            result = Result(**value)
            previous = self.records.get(result.nodeid)
            self.records[result.nodeid] = result if previous is None else previous.merge(result)

    def _worker(self) -> bool:
        return hasattr(self.config, "workerinput")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Print the target × area table (only when conformance items ran)."""
        results = list(self.records.values())
        if not results or self._worker():
            return
        from conformance._engine.report import format_table

        profile = option(self.config, "profile") or "default"
        terminalreporter.write_sep("=", f"conformance summary (profile {profile})")
        for line in format_table(results):
            terminalreporter.write_line(line)
        failing = sorted({f"{r.rule} [{r.target}]" for r in results if r.outcome in ("failed", "error")})
        if failing:
            terminalreporter.write_line("violated MUST rules: " + ", ".join(failing), red=True)
        warned = sorted({f"{r.rule} [{r.target}]" for r in results if r.outcome == "warned"})
        if warned:
            terminalreporter.write_line("SHOULD warnings: " + ", ".join(warned), yellow=True)
        path = option(self.config, "report")
        if path:
            terminalreporter.write_line(f"conformance report: {path}")

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Write the JSON report (not on xdist workers) and release the watchdog."""
        conformance = self.config.stash.get(_SESSION_KEY, None)
        if conformance is not None:
            conformance.close()
        path = option(self.config, "report")
        if not path or self._worker() or (conformance is None and not self.records):
            return
        from conformance._engine.report import write_report

        meta = {
            "profile": option(self.config, "profile") or "default",
            "rules": option(self.config, "rules") or "*",
            "registry": option(self.config, "registry") or "reference",
            "python": sys.version.split()[0],
        }
        write_report(path, list(self.records.values()), meta)
