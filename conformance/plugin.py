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
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conformance._engine.cost import METER
from conformance._engine.options import (
    ENV_VAR,
    FLAG_OPTIONS,
    LIST_OPTIONS,
    OPTION_HELP,
    OPTION_NAMES,
    PROJECT_KEY,
    SUITE_MODULES,
    CaseParam,
    flag,
    item_param,
    module_needed,
    option,
    rule_selected,
)
from conformance._engine.evidence import passed_over_note
from conformance._engine.outcomes import NotCheckable, RuleFailure, Unchecked
from conformance._engine.output import take_output
from conformance._engine.project import Baseline, BaselineError, ProjectTableError, find_pyproject, read_table
from conformance._engine.report import PROPERTY, record_of
from conformance._engine.reporting import BASELINE_KEY, RUNNER_KEY, Reporter, orphan_record, target_group
from conformance.results import CONSTRUCT, Evidence, Outcome, RuleResult, rule_level

# Imported when pytest loads the plugin, before any target can be: it records the process-wide state (warning
# filters, logging, print options, signals) that each item starts from, whatever a target changes.
from conformance._kit import pristine as _pristine  # noqa: E402, F401  # pyright: ignore[reportUnusedImport]

if TYPE_CHECKING:
    from conformance._engine.project import ProjectTable
    from conformance._engine.runner import ItemRunner

__all__ = [
    "CASE_KEY",
    "NOT_APPLICABLE",
    "pytest_addoption",
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_generate_tests",
    "pytest_ignore_collect",
    "pytest_pyfunc_call",
    "pytest_report_teststatus",
    "pytest_runtest_makereport",
    "pytest_runtest_protocol",
    "pytest_runtest_setup",
]

MARKER = "conformance_rule"
CASE_KEY = pytest.StashKey[Any]()
# When the item's current phase began: the meter's clock, and its target seconds so far.
_PHASE_KEY = pytest.StashKey[tuple[float, float]]()


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
        "markers", f"{MARKER}(rule_id, kinds=('env',), owns=(), floor=Floor()): the gymspec rule a conformance test "
        "checks, and the least evidence it needs"
    )
    table = _project_table(config)
    config.stash[PROJECT_KEY] = table
    given = any(option(config, name) not in (None, [], False) for name in OPTION_NAMES) or bool(os.environ.get(ENV_VAR))
    if given:
        from conformance._engine.session import validate_options  # late: the plugin is inert outside the suite

        try:
            validate_options(config)
        except pytest.UsageError as exc:
            raise pytest.UsageError(_from_table(str(exc), table, config)) from None
    config.stash[BASELINE_KEY] = _baseline(config)
    if (given or "conformance" in config.args) and getattr(config.option, "dist", None) == "load":
        # Under pytest-xdist, keep a target's items on one worker: its zygote, measured costs and shared trace
        # are built once per worker that runs it (items of other tests are not grouped, so they spread as usual).
        config.option.dist = "loadgroup"
    config.pluginmanager.register(Reporter(config), "conformance-reporter")


def _project_table(config: pytest.Config) -> ProjectTable | None:
    """The ``[tool.conformance]`` table that configures this run (``None``: no table, or not a run of the suite)."""
    raw = config.getoption(OPTION_NAMES["project"], default=None) or config.getini(OPTION_NAMES["project"])
    # Only a run of the suite reads it: a project's own test runs never import its targets (nor this machinery).
    if raw == "none" or not (raw or "conformance" in config.args):
        return None
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
    try:
        return Baseline.load(config.invocation_params.dir / str(path))
    except BaselineError as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One item per (rule, target) for rule tests; one per target for the construction check."""
    names = metafunc.fixturenames
    if "conformance_case" not in names and "conformance_target" not in names:
        return
    from conformance._engine.session import get_session  # late: the plugin is inert outside the suite

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
    floor = marker.kwargs.get("floor")
    # A target that cannot exist (an id a sweep could not import) has only its construction check, which skips.
    chosen = [target for target in session.targets if target.kind in kinds and target.unavailable is None]
    params = [CaseParam(rule_id, target, owns, floor) for target in chosen]
    metafunc.parametrize("conformance_case", params, ids=[f"{rule_id}-{t.id}" for t in chosen], indirect=True)


_SUITE_DIR = Path(__file__).resolve().parent


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave out the suite's rule modules whose items no target of the run and no rule ``--rules`` selects would
    have (the vector and functional modules for an env target, say): they are not even imported."""
    if collection_path.name not in SUITE_MODULES or collection_path.resolve().parent != _SUITE_DIR:
        return None
    from conformance._engine.session import get_session  # late: the plugin is inert outside the suite
    from gymspec.rules import RULES  # late: the plugin is inert outside the suite

    kinds = {target.kind for target in get_session(config).targets if target.unavailable is None}
    selected = [rule_id for rule_id in RULES if rule_selected(config, rule_id)]
    return None if module_needed(collection_path.name, kinds, selected) else True


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
    if RUNNER_KEY in config.stash:
        return config.stash[RUNNER_KEY]
    runner = None
    from conformance._engine.session import get_session, jobs_for  # late: the plugin is inert outside the suite

    conformance = get_session(config)
    if conformance.limits.isolation == "process":
        # Late: jobs and the runner import the whole engine, NumPy and Hypothesis included, which a pytest run that
        # collects no conformance item (the plugin is loaded in every run of a project that installs the suite) does
        # not need.
        from conformance._engine.jobs import settle_imports
        from conformance._engine.runner import ItemRunner
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
    config.stash[RUNNER_KEY] = runner
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


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Generator[None, Any, Any]:
    """A check that stops as not checkable before its examples run (reading the facts its strategies are drawn from,
    say) skips as it would inside them: :class:`NotCheckable` is how a check ends, never a failure of its rule."""
    try:
        return (yield)
    except NotCheckable as exc:
        param = item_param(pyfuncitem)
        if param is None or param.rule_id is None:
            raise
        from conformance._engine.verdicts import not_checked  # late: the plugin is inert outside the suite

        pytest.skip(not_checked(param.rule_id, param.target.id, str(exc)))


# --- records and reports ---------------------------------------------------------------------------------------------


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    text = str(longrepr[2]) if isinstance(longrepr, tuple) else str(longrepr)
    return text.removeprefix("Skipped: ")


def _record(
    item: pytest.Item, param: CaseParam, report: pytest.TestReport, call: pytest.CallInfo[None], output: str
) -> RuleResult:
    case = item.stash.get(CASE_KEY, None)
    rule = param.rule_id or CONSTRUCT
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
            message, reproducer = error.message() + _observed(case), error.reproducer
        elif call.excinfo is not None:
            message = call.excinfo.exconly()
    else:
        violations: list[RuleFailure] = list(getattr(case, "violations", []))
        outcome = "warned" if violations and report.when == "call" else "passed"
        if violations:
            message, reproducer = violations[0].message() + _observed(case), violations[0].reproducer
    tally = getattr(case, "tally", None)
    evidence = tally.evidence() if tally is not None else Evidence()
    note = passed_over_note(rule, evidence, list(getattr(tally, "rejected", [])))
    if note and outcome in ("passed", "warned") and report.when == "call":
        message = f"{message}\n{note}" if message else note
    seconds, target_seconds = _phase_seconds(item, report)
    return RuleResult(rule, param.target.id, rule_level(rule), outcome, message, reproducer, item.nodeid,
                      evidence=evidence, seconds=round(seconds, 4), target_seconds=round(target_seconds, 4),
                      output=output)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Start the clock of a conformance item's time, and of the part spent inside the target's calls
    (:mod:`conformance._engine.cost`): each phase's record takes its share."""
    if item_param(item) is not None:
        item.stash[_PHASE_KEY] = (METER.clock(), METER.seconds)


def _phase_seconds(item: pytest.Item, report: pytest.TestReport) -> tuple[float, float]:
    """The wall seconds of the item's phase that just ended, and of those the seconds inside the target's calls:
    both read from the meter's clock, so the suite's own time (the difference) is never negative."""
    now = (METER.clock(), METER.seconds)
    begun = item.stash.get(_PHASE_KEY, None)
    item.stash[_PHASE_KEY] = now
    if begun is None:  # a report of a phase the setup hook did not see begin: pytest's own timing, no target time
        return report.duration, 0.0
    wall, spent = now[0] - begun[0], now[1] - begun[1]
    return max(wall, spent), spent


def _observed(case: Any) -> str:
    """The line a finding's message ends with: what the item observed before (and while) it found it."""
    tally = getattr(case, "tally", None)
    return f"\n  observed: {tally.evidence().describe()}" if tally is not None else ""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """Attach the item's record to its report, with what the target printed (the report pytest shows keeps none of
    it); show rule failures as their own text, not a traceback."""
    report = yield
    param = item_param(item)
    if param is None:
        return report
    output = take_output(report)
    if call.excinfo is not None and isinstance(call.excinfo.value, RuleFailure) and report.failed:
        failure = call.excinfo.value
        report.longrepr = failure.message() + _observed(item.stash.get(CASE_KEY, None)) + failure.render()[
            len(failure.message()):]
    elif call.excinfo is not None and isinstance(call.excinfo.value, Unchecked) and report.failed:
        report.longrepr = str(call.excinfo.value)
    report.user_properties = [*report.user_properties, (PROPERTY, _record(item, param, report, call, output).to_dict())]
    return report


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """(pytest-xdist, on the controller) Under ``--dist loadgroup``, send each target's items to one worker, found
    from their node ids, so its zygote, measured costs and shared rollouts are made once.

    pytest-xdist's own grouping reads ``xdist_group`` marks on the workers and renames the node ids, which does not
    work with every pytest (since 9.x a node id cannot be renamed); other items are grouped by their marks as usual.
    """
    if getattr(config.option, "dist", None) != "loadgroup":
        return None
    from conformance._engine.scheduling import TargetScheduling  # late: it imports pytest-xdist, an optional plugin

    return TargetScheduling(config, log, target_group)


NOT_APPLICABLE = "not applicable"
"""pytest's category (and the tally's word) for an item whose rule is not about the target."""


def pytest_report_teststatus(report: pytest.TestReport) -> tuple[str, str, str] | None:
    """Count an item the suite records as ``error`` as an error in pytest's own tally too; count an item whose rule
    is not about the target apart from the skips, once in the tally ("182 not applicable"): ``-ra`` lists every skip,
    and these need no reading (the report keeps each one's reason)."""
    record = record_of(report)
    if record is None and report.failed and report.when not in ("setup", "call", "teardown"):
        record = orphan_record(report, "")
    if record is not None and record.outcome == "error" and report.failed:
        return "error", "E", "ERROR"
    if record is not None and record.not_applicable and report.skipped:
        return NOT_APPLICABLE, "s", "NOT APPLICABLE"
    return None
