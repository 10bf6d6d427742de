"""``check_env``: the conformance suite as a function, for a user's own tests, scripts and notebooks.

It runs exactly what ``pytest --pyargs conformance`` runs — the same rules, checks, reproducers and supervision (every
item in a supervised process, so a crash, a hang or a leak of the target becomes a rule's outcome) — in a child
``pytest`` process of its own, and reads back the JSON report. The child shares nothing with the caller but that
report: a caller's pytest session, its options, plugins, ``conftest.py`` files and ini settings do not reach it, and
none of the suite's options are needed.

An object the child can import by ``module:qualname`` (a class or function of an importable module) is passed as
the ``--env`` option would pass it. Anything else — an instance, a lambda, a ``functools.partial``, a class defined
in a notebook, in a script's ``__main__`` or inside a test function — travels pickled with cloudpickle (by value
when its module cannot be imported), and each construction in the child unpickles a fresh copy
(:mod:`conformance._engine.callables`).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias, get_args

from conformance._engine.options import ENV_VAR as _TARGETS_VAR
from conformance._engine.options import rules_select_any
from conformance.results import RaiseOn, Report
from conformance.rule_warnings import warning_class

if TYPE_CHECKING:
    from conformance._engine.callables import Launch

__all__ = ["Kind", "Profile", "check_env"]

Kind: TypeAlias = Literal["env", "vector", "func"]
"""What a target is: an ``Env``, a ``VectorEnv`` or a ``FuncEnv`` (or a class or factory of one)."""

Profile: TypeAlias = Literal["quick", "default", "thorough"]
"""How hard the suite tries: Hypothesis examples per rule and steps per rollout."""

_KINDS: tuple[Kind, ...] = get_args(Kind)
_PROFILES: tuple[Profile, ...] = get_args(Profile)
_RAISE_ON: tuple[RaiseOn, ...] = get_args(RaiseOn)
_USAGE_ERROR = 4


def _rules_text(rules: str | Iterable[str] | None) -> str | None:
    if rules is None:
        return None
    text = rules if isinstance(rules, str) else ",".join(rules)
    if not rules_select_any(text):
        raise ValueError(
            f"check_env rules must select at least one rule of the catalog, got {rules!r}. "
            "Hint: globs such as 'SEED-*', '!RENDER-*' (python -m gymspec.rules lists the ids)"
        )
    return text


def _timeout_text(timeout: float | None) -> str | None:
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < math.inf:
        raise ValueError(f"check_env timeout must be a positive number of seconds, got {timeout!r}")
    return repr(float(timeout))


def _kwargs_text(env_kwargs: Mapping[str, object] | None, launch: Launch) -> str | None:
    if env_kwargs is None:
        return None
    if launch.shipment is not None and launch.shipment.manifest.instance:
        raise TypeError("check_env env_kwargs apply to classes, factories and ids, got an instance; build it with them")
    try:
        return json.dumps(dict(env_kwargs))
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"check_env env_kwargs must be JSON-serialisable, got {env_kwargs!r} ({exc}). "
            "Hint: bind other values with functools.partial(factory, ...)"
        ) from None


def _python_path() -> str:
    """The caller's ``sys.path`` (less the interpreter's own directories) ahead of ``PYTHONPATH``."""
    own = {os.path.realpath(prefix) for prefix in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    entries: list[str] = []
    for entry in sys.path:
        path = os.path.realpath(entry or os.getcwd())
        if os.path.isdir(path) and not any(path == root or path.startswith(root + os.sep) for root in own):
            entries.append(path)
    inherited = os.environ.get("PYTHONPATH")
    return os.pathsep.join(dict.fromkeys([*entries, *([inherited] if inherited else [])]))


def _child_environment(extra: Mapping[str, str]) -> dict[str, str]:
    # Nothing of the caller's pytest configuration reaches the child: no PYTEST_ADDOPTS or plugins, no targets from
    # CONFORMANCE_ENV, and no warning filters that would turn a SHOULD finding into an error of the item.
    env = {
        name: value for name, value in os.environ.items()
        if not name.startswith("PYTEST_") and name not in (_TARGETS_VAR, "PYTHONWARNINGS")
    }
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env["PYTHONPATH"] = _python_path()
    env.update(extra)
    return env


def _run(launch: Launch, options: Sequence[str], scratch: Path) -> Report:
    # Late: this module is imported with the package, in every pytest run that loads the plugin; the target machinery
    # (and the package itself, still being imported then) is needed only when check_env runs.
    import conformance
    from conformance._engine.callables import ENV_VAR as _MANIFEST_VAR
    from conformance._engine.callables import ship

    extra: dict[str, str] = {}
    if launch.shipment is not None:
        shipment = launch.shipment
        extra[_MANIFEST_VAR] = str(ship(shipment.obj, shipment.manifest, scratch, by_value=shipment.by_value))
    package = Path(conformance.__file__).parent
    ini = scratch / "pytest.ini"
    ini.write_text("[pytest]\n", encoding="utf-8")
    report_path = scratch / "report.json"
    # The package's path (not --pyargs) anchors conftest discovery there, so the caller's conftest.py stays out;
    # our own ini file keeps the caller's ini settings out; the rootdir keeps node ids as the pytest path has them.
    command = [
        sys.executable, "-m", "pytest", str(package), "-c", str(ini), "--rootdir", str(package.parent),
        "-p", "conformance.plugin", "-p", "no:cacheprovider", "-q", "--no-header", "--tb=no",
        "--conformance-report", str(report_path), *options, launch.option, launch.spec, *launch.args,
    ]
    completed = subprocess.run(
        command, env=_child_environment(extra), stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
    )
    if not report_path.exists():
        output = (completed.stdout + completed.stderr).strip()[-4000:]
        error = ValueError if completed.returncode == _USAGE_ERROR else RuntimeError
        raise error(
            f"check_env: the conformance run ended without a report (exit code {completed.returncode}):\n{output}"
        )
    return Report.from_json(report_path.read_text(encoding="utf-8"))


def check_env(
    target: object,
    *,
    kind: Kind | None = None,
    profile: Profile = "quick",
    rules: str | Iterable[str] | None = None,
    timeout: float | None = None,
    raise_on: RaiseOn = "must",
    registry: str | None = None,
    vectorization_mode: str | None = None,
    env_kwargs: Mapping[str, object] | None = None,
) -> Report:
    """Check ``target`` against the gymspec rules, as ``pytest --pyargs conformance`` would, and report.

    Args:
        target: What to check:

            * an env class or factory (called with no arguments, or with ``render_mode=...`` for the render rules),
              a vector env's class or factory (called with ``num_envs=...``), a FuncEnv's class or factory;
            * an env or FuncEnv instance: each construction checks a fresh copy, so rules that need another
              render mode than the instance's skip, saying to pass the class;
            * a registered id (``"CartPole-v1"``, ``"mypkg:MyEnv-v0"`` imports ``mypkg`` first), made with
              ``registry``'s ``make`` (``make_vec`` with ``kind="vector"``); or a ``"pkg.module:attr"`` path.
        kind: ``"env"``, ``"vector"`` or ``"func"``, when the target's own shape does not tell: a class is a
            FuncEnv if it has ``initial``, ``transition``, ...; a vector env if it takes or annotates
            ``num_envs``; a function by its ``num_envs`` parameter or its return annotation; else an env.
        profile: ``"quick"`` (seconds), ``"default"`` or ``"thorough"``: examples per rule and steps per rollout.
        rules: Only these rule ids: comma-separated globs or an iterable of them; ``"!GLOB"`` leaves rules out
            (``"!RENDER-*"`` is Gymnasium's ``skip_render_check=True``).
        timeout: Seconds a cheap call into the target may take before it counts as hung (the suite's default: 10;
            a first call of its kind, a compile say, may take 6 times as long, and a kind measured as slower 3 times
            its cost).
        raise_on: ``"must"`` raises :class:`ConformanceError` if a MUST rule is violated (or a check errored),
            ``"should"`` on SHOULD violations too, ``"never"`` only returns the report.
        registry: For ids: ``"reference"`` (the default), ``"gymnasium"`` or a module path with ``make``.
        vectorization_mode: For vector ids: ``"sync"``, ``"async"`` or ``"vector_entry_point"``.
        env_kwargs: Keyword arguments for every construction (JSON values), e.g. ``{"size": 5}``.

    Returns:
        Every rule's outcome, message, reproducer and timing. SHOULD violations not raised are also emitted as
        warnings of their rule's class (subclasses of :class:`conformance.ConformanceWarning`), so a test
        session's warning filters apply to them.

    Raises:
        ConformanceError: If ``raise_on`` says the violations found must fail (see
            :meth:`Report.raise_for_violations`; an ``AssertionError``, as Gymnasium's checker raises).
        TypeError: If ``target`` is none of the above, or an instance that cannot be pickled.
        ValueError: If an option is malformed (an unknown registry, a rule filter matching nothing, ...).
        RuntimeError: If the suite itself could not run (its output is in the message).
    """
    if kind is not None and kind not in _KINDS:
        raise ValueError(f"check_env kind must be one of {list(_KINDS)} or None, got {kind!r}")
    if profile not in _PROFILES:
        raise ValueError(f"check_env profile must be one of {list(_PROFILES)}, got {profile!r}")
    if raise_on not in _RAISE_ON:
        raise ValueError(f"check_env raise_on must be one of {list(_RAISE_ON)}, got {raise_on!r}")
    from conformance._engine.callables import launch_for  # late: see _run

    launch = launch_for(target, kind, registry, vectorization_mode)
    options = ["--conformance-profile", profile]
    for flag, value in (("--rules", _rules_text(rules)), ("--conformance-timeout", _timeout_text(timeout)),
                        ("--env-kwargs", _kwargs_text(env_kwargs, launch))):
        if value is not None:
            options += [flag, value]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="conformance-check-") as scratch:
        report = _run(launch, options, Path(scratch))
    report = replace(report, seconds=time.perf_counter() - started)
    if raise_on != "should":
        for result in report.warned:
            warnings.warn(warning_class(result.rule)(result.details()), stacklevel=2)
    report.raise_for_violations(raise_on)
    return report
