"""The per-process state of one conformance run: resolved options, targets, their shared state, the watchdog.

Created lazily, the first time a conformance test asks for it, so a pytest run that never collects the suite never
imports a target, a registry or Hypothesis.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from conformance._engine.options import ENV_VAR, CaseParam, option
from conformance._engine.targets import (
    Target,
    TargetSpecError,
    TargetsRequest,
    parse_kwargs,
    registry_module,
    resolve_targets,
)

__all__ = ["ConformanceSession", "validate_options"]

DEFAULT_TIMEOUT = 10.0

_VECTORIZATION_MODES = ("sync", "async", "vector_entry_point")


def _env_var_targets() -> list[str]:
    return [part for part in re.split(r"[\s,]+", os.environ.get(ENV_VAR, "")) if part]


def _request(config: pytest.Config) -> TargetsRequest:
    registry = option(config, "registry") or "reference"
    # An unusable --registry is a usage error even when no id target needs it.
    registry_module(registry, vector=bool(option(config, "vector_env_id")))
    mode = option(config, "vectorization_mode")
    if mode is not None and mode not in _VECTORIZATION_MODES:
        raise TargetSpecError(f"--vectorization-mode must be one of {list(_VECTORIZATION_MODES)}, got {mode!r}")
    return TargetsRequest(
        envs=[*option(config, "env"), *_env_var_targets()],
        env_ids=option(config, "env_id"),
        vector_envs=option(config, "vector_env"),
        vector_env_ids=option(config, "vector_env_id"),
        func_envs=option(config, "func_env"),
        registry=registry,
        vectorization_mode=mode,
        env_kwargs=parse_kwargs(option(config, "env_kwargs")),
    )


def _timeout(config: pytest.Config) -> float:
    raw = option(config, "timeout")
    if raw is None:
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise TargetSpecError(f"--conformance-timeout must be a positive number of seconds, got {raw!r}")
    return value


def validate_options(config: pytest.Config) -> None:
    """Check every conformance option that was given (no target is imported or constructed).

    Raises:
        pytest.UsageError: If an option is malformed.
    """
    from conformance._engine.profiles import PROFILES

    try:
        request = _request(config)
        _timeout(config)
        named = (request.envs, request.env_ids, request.vector_envs, request.vector_env_ids, request.func_envs)
        if any(named):  # with no target named, resolving would import the reference's envs: not at configure time
            resolve_targets(request)
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
        from conformance._engine.profiles import DEFAULT_PROFILE, PROFILES
        from conformance._engine.watchdog import Watchdog

        self.config = config
        self.profile = PROFILES[option(config, "profile") or DEFAULT_PROFILE]
        try:
            self.targets = resolve_targets(_request(config))
            timeout = _timeout(config)
        except TargetSpecError as exc:
            raise pytest.UsageError(str(exc)) from None
        self.watchdog = Watchdog(timeout)
        self._states: dict[str, Any] = {}

    def state(self, target: Target) -> Any:
        """The shared :class:`~conformance._engine.state.TargetState` of a target (created on first use)."""
        from conformance._engine.state import TargetState

        found = self._states.get(target.id)
        if found is None:
            found = TargetState(target, self.watchdog)
            self._states[target.id] = found
        return found

    def case(self, param: CaseParam) -> Any:
        """Build the :class:`~conformance._engine.case.Case` of one item."""
        from conformance._engine.case import Case
        from gymspec.rules import RULES

        if param.rule_id is None:
            raise ValueError("CaseParam rule_id must be a rule id for a rule item, got None")
        rule = RULES.get(param.rule_id)
        if rule is None:
            raise pytest.UsageError(f"conformance test names rule {param.rule_id!r}, which gymspec.rules lacks")
        return Case(rule, self.state(param.target), self.profile, self.watchdog, owns=param.owns)

    def close(self) -> None:
        """Release the watchdog's worker thread."""
        self.watchdog.shutdown()
