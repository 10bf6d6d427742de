"""The state of one conformance run in one process: resolved options, targets, their shared state, the guard.

Created lazily, the first time a conformance test asks for it, so a pytest run that never collects the suite never
imports a target, a registry or Hypothesis. :func:`validate_options` checks every option before any test runs, so a
mistake is one usage error (exit code 4) instead of a failure after the whole run.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conformance._engine.cost import metered
from conformance._engine.options import ENV_VAR, CaseParam, option, rule_areas, rules_select_any
from conformance._engine.sweep import Match, expand
from conformance._engine.targets import (
    Expander,
    Target,
    TargetSpecError,
    TargetsRequest,
    parse_kwargs,
    registry_module,
    resolve_targets,
    shard,
)
from conformance._engine.supervisor import default_memory_cap, fork_available
from conformance._engine.watchdog import Guard, Watchdog

if TYPE_CHECKING:
    from conformance._engine.case import Case
    from conformance._engine.state import TargetState

__all__ = ["ConformanceSession", "Limits", "existing_session", "get_session", "jobs_for", "limits", "validate_options"]

DEFAULT_TIMEOUT = 10.0

_VECTORIZATION_MODES = ("sync", "async", "vector_entry_point")
_ISOLATIONS = ("auto", "fork", "spawn", "thread")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B?|B)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _env_var_targets() -> list[str]:
    return [part for part in re.split(r"[\s,]+", os.environ.get(ENV_VAR, "")) if part]


def _request(config: pytest.Config, expander: Expander | None = None) -> TargetsRequest:
    registry = option(config, "registry") or "reference"
    # An unusable --registry is a usage error even when no id target needs it.
    registry_module(registry, vector=bool(option(config, "vector_env_id")))
    mode = option(config, "vectorization_mode")
    if mode is not None and mode not in _VECTORIZATION_MODES:
        raise TargetSpecError(f"--vectorization-mode must be one of {list(_VECTORIZATION_MODES)}, got {mode!r}")
    return TargetsRequest(
        envs=option(config, "env"),
        env_var_envs=_env_var_targets(),
        env_ids=option(config, "env_id"),
        vector_envs=option(config, "vector_env"),
        vector_env_ids=option(config, "vector_env_id"),
        func_envs=option(config, "func_env"),
        registry=registry,
        vectorization_mode=mode,
        env_kwargs=parse_kwargs(option(config, "env_kwargs")),
        expander=expander,
    )


def _shard(config: pytest.Config) -> tuple[int, int] | None:
    raw = option(config, "shard")
    if raw is None:
        return None
    index, _, count = str(raw).partition("/")
    if not (index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count)):
        raise TargetSpecError(f"--conformance-shard must be I/N with 1 <= I <= N, e.g. 2/4, got {raw!r}")
    return int(index), int(count)


_RESOLVED = pytest.StashKey[list[Target]]()


def _expander(run_limits: Limits) -> Expander:
    """Glob expansion in a supervised child under process isolation (in this process otherwise)."""

    def run(registry_path: str, module: str | None, pattern: str, vector: bool) -> list[Match]:
        isolated = run_limits.isolation == "process"
        return expand(registry_path, module, pattern, vector=vector, isolated=isolated, timeout=run_limits.timeout)

    return run


def _timeout(config: pytest.Config) -> float:
    raw = option(config, "timeout")
    if raw is None:
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise TargetSpecError(f"--conformance-timeout must be a positive number of seconds, got {raw!r}")
    return value


def _budget(config: pytest.Config) -> float | None:
    """``--conformance-budget`` in seconds (``None``: the profile's)."""
    raw = option(config, "budget")
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise TargetSpecError(f"--conformance-budget must be a positive number of seconds, got {raw!r}; it is the "
                              "target time a target's items may spend in all, e.g. 60")
    return value


def parse_size(text: str) -> int:
    """Parse a memory size: ``"2GiB"``, ``"512M"``, ``"1.5G"``, ``"1048576"`` (bytes); ``"0"`` means no cap.

    Raises:
        TargetSpecError: If the text is not a size.
    """
    match = _SIZE.match(text)
    if match is None:
        raise TargetSpecError(
            f"--conformance-memory must be a size such as 2GiB, 512MiB or a number of bytes (0: no cap), got {text!r}"
        )
    unit = (match[2] or "").upper().rstrip("B").rstrip("I")
    return int(float(match[1]) * _UNITS[unit])


def _isolation(config: pytest.Config) -> tuple[str, str]:
    """``("process", start)`` (start: ``"auto"``, ``"fork"`` or ``"spawn"``) or ``("thread", "")``."""
    raw = option(config, "isolation")
    if raw is None or raw == "auto":
        return ("process", "auto") if fork_available() else ("thread", "")
    if raw not in _ISOLATIONS:
        raise TargetSpecError(f"--conformance-isolation must be one of {list(_ISOLATIONS)}, got {raw!r}")
    if raw != "thread" and not fork_available():
        raise TargetSpecError(
            f"--conformance-isolation must be 'thread' or 'auto' on this platform (it has no fork), got {raw!r}"
        )
    return ("thread", "") if raw == "thread" else ("process", str(raw))


_MAX_AUTO_JOBS = 4


def jobs_for(config: pytest.Config, targets: int) -> int:
    """How many supervised processes may run items at once in this process, for a run of ``targets`` targets: the
    count ``--conformance-jobs`` gives, or by default the usable CPUs shared among the xdist workers that can get a
    target (at most :data:`_MAX_AUTO_JOBS`).

    Raises:
        TargetSpecError: If ``--conformance-jobs`` is malformed.
    """
    given = _given_jobs(config)
    if given is not None:
        return given
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    # xdist workers already run one item each: the CPUs are theirs to share. (Their count comes from the worker's
    # own config, not the environment, which a pytest run started from a worker would inherit.) A target's items all
    # go to one worker, so with fewer targets than workers, only as many share them.
    workerinput: Any = getattr(config, "workerinput", None)
    try:
        workers = max(1, int(workerinput["workercount"])) if workerinput is not None else 1
    except (KeyError, TypeError, ValueError):
        workers = 1
    workers = max(1, min(workers, targets))
    return max(1, min(_MAX_AUTO_JOBS, cpus // workers))


def _given_jobs(config: pytest.Config) -> int | None:
    """The count ``--conformance-jobs`` gives (``None``: auto)."""
    raw = option(config, "jobs")
    if raw is None or raw == "auto":
        return None
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise TargetSpecError(f"--conformance-jobs must be a positive number of processes or 'auto', got {raw!r}")
    return value


class Limits:
    """The resolved limits of the run.

    Attributes:
        timeout: Seconds one call into a target may take.
        memory: Bytes of resident memory one item may hold (0: no cap).
        isolation: ``"process"`` or ``"thread"``.
        start: Under process isolation, how item processes start: ``"auto"``, ``"fork"`` or ``"spawn"``
            (:class:`~conformance._engine.supervisor.Supervisor`).
        jobs: The number of supervised processes ``--conformance-jobs`` gives (``None``: auto, decided by
            :func:`jobs_for` once the run's targets are known).
    """

    def __init__(
        self, timeout: float, memory: int, isolation: str, jobs: int | None = None, start: str = "auto"
    ) -> None:
        self.timeout = timeout
        self.memory = memory
        self.isolation = isolation
        self.start = start
        self.jobs = jobs


def limits(config: pytest.Config) -> Limits:
    """The run's :class:`Limits` (defaults where the options are not given).

    Raises:
        TargetSpecError: If an option is malformed.
    """
    raw_memory = option(config, "memory")
    memory = default_memory_cap() if raw_memory is None else parse_size(str(raw_memory))
    isolation, start = _isolation(config)
    return Limits(_timeout(config), memory, isolation, _given_jobs(config), start)


def _check_report_path(raw: str) -> None:
    """The report path must be a writable file path: checked before the run, not after it."""
    path = Path(raw)
    if path.is_dir():
        raise TargetSpecError(f"--conformance-report must be a file path, got {raw!r}, which is a directory")
    parent = path.parent
    existing = parent
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise TargetSpecError(
            f"--conformance-report must be a path in a writable directory, got {raw!r} ({existing} is not a directory)"
        )
    try:
        parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".conformance-", delete=True):
            pass
    except OSError as exc:
        raise TargetSpecError(
            f"--conformance-report must be a path in a writable directory, got {raw!r} ({exc.strerror or exc})"
        ) from None


def _check_rules(patterns: str) -> None:
    if not rules_select_any(patterns):
        raise TargetSpecError(
            f"--rules must select at least one rule, got {patterns!r} (no rule id matches); rule ids look like "
            f"ENV-004, areas are {', '.join(rule_areas())}; e.g. --rules 'SEED-*' or --rules '!VEC-002'"
        )


def validate_options(config: pytest.Config) -> None:
    """Check every conformance option that was given (no target is imported or constructed).

    Raises:
        pytest.UsageError: If an option is malformed (one line saying which, what it must be and what it was).
    """
    # Late, as everywhere in this module: profiles imports Hypothesis, and the plugin validates the options of every
    # pytest run, including those of a project that never checks a target.
    from conformance._engine.profiles import PROFILES

    try:
        run_limits = limits(config)
        _budget(config)
        request = _request(config, _expander(run_limits))
        _shard(config)
        named = (request.envs, request.env_var_envs, request.env_ids, request.vector_envs, request.vector_env_ids,
                 request.func_envs)
        if any(named):  # with no target named, resolving would import the reference's envs: not at configure time
            # Globs are expanded now (in a supervised child), so a sweep that matches nothing is a usage error;
            # the session reuses the result.
            config.stash[_RESOLVED] = resolve_targets(request)
        report = option(config, "report")
        if report:
            _check_report_path(str(report))
        patterns = option(config, "rules")
        if patterns:
            _check_rules(str(patterns))
    except TargetSpecError as exc:
        raise pytest.UsageError(str(exc)) from None
    profile = option(config, "profile")
    if profile is not None and profile not in PROFILES:
        raise pytest.UsageError(f"--conformance-profile must be one of {sorted(PROFILES)}, got {profile!r}")


class ConformanceSession:
    """Everything one process needs to run conformance items.

    Args:
        config: The pytest config.
    """

    def __init__(self, config: pytest.Config) -> None:
        from conformance._engine.profiles import DEFAULT_PROFILE, PROFILES  # late: Hypothesis (see validate_options)

        self.config = config
        self.profile = PROFILES[option(config, "profile") or DEFAULT_PROFILE]
        budget = _budget(config)
        if budget is not None:
            self.profile = dataclasses.replace(self.profile, budget=budget)
        try:
            self.limits = limits(config)
            resolved = config.stash.get(_RESOLVED, None)
            if resolved is None:
                resolved = resolve_targets(_request(config, _expander(self.limits)))
            self.targets = resolved
            sharding = _shard(config)
            if sharding is not None:
                self.targets = shard(self.targets, *sharding)
        except TargetSpecError as exc:
            raise pytest.UsageError(str(exc)) from None
        # Metered: every call into a target is timed into the process's meter (an item's target time).
        self.watchdog: Guard = metered(Watchdog(self.limits.timeout))
        self._states: dict[str, TargetState] = {}

    @property
    def timeout(self) -> float:
        """Seconds one call into a target may take."""
        return self.limits.timeout

    def use_guard(self, guard: Guard) -> None:
        """Route every later call into a target through ``guard`` (a supervised process's board)."""
        self.watchdog.shutdown()
        self.watchdog = metered(guard)
        for state in self._states.values():
            state.guard = self.watchdog

    def state(self, target: Target) -> TargetState:
        """The shared :class:`~conformance._engine.state.TargetState` of a target (created on first use)."""
        # Late: state and case import NumPy and Hypothesis, which a run that never checks a target (the plugin is
        # loaded by every pytest run of a project that has the suite installed) does not pay for.
        from conformance._engine.state import TargetState

        found = self._states.get(target.id)
        if found is None:
            found = TargetState(target, self.watchdog)
            self._states[target.id] = found
        return found

    def case(self, param: CaseParam) -> Case:
        """Build the :class:`~conformance._engine.case.Case` of one item."""
        # Late: case imports NumPy and Hypothesis (see state).
        from conformance._engine.case import Case
        from gymspec.rules import RULES

        if param.rule_id is None:
            raise ValueError("CaseParam rule_id must be a rule id for a rule item, got None")
        rule = RULES.get(param.rule_id)
        if rule is None:
            raise pytest.UsageError(f"conformance test names rule {param.rule_id!r}, which gymspec.rules lacks")
        return Case(rule, self.state(param.target), self.profile, self.watchdog, owns=param.owns, floor=param.floor)

    def close(self) -> None:
        """Release the guard's worker thread."""
        self.watchdog.shutdown()


_SESSION_KEY = pytest.StashKey[ConformanceSession]()


def get_session(config: pytest.Config) -> ConformanceSession:
    """The run's :class:`ConformanceSession`, created on first use (one per pytest config, in every process)."""
    session = config.stash.get(_SESSION_KEY, None)
    if session is None:
        session = ConformanceSession(config)
        config.stash[_SESSION_KEY] = session
    return session


def existing_session(config: pytest.Config) -> ConformanceSession | None:
    """The run's session if one was made (at the end of a run that collected no conformance item there is none)."""
    return config.stash.get(_SESSION_KEY, None)
