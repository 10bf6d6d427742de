"""Wall time, CPU, peak memory and where the time goes (the target's calls or the suite's own work) of the
conformance suite on real targets, as a user runs it, with same-run ratios against a baseline and Gymnasium.

Run: ``python benchmarks/bench_suite.py [--profile default] [--repeats 3] [--only NAME ...] [--baseline DIR]
[--cold] [--no-bytecode] [--venvs DIR] [--reports DIR]``

Each case is one ``pytest --pyargs conformance`` run in a child process (exactly the user's command), timed from
start to exit; the peak resident memory is the largest of the run's processes (``wait4``'s ``ru_maxrss``), and the
CPU seconds are those of the whole process tree (every process is reaped by its parent, so ``wait4`` sums them).
On a shared machine wall time drifts with the load while CPU seconds barely do: read both. From the run's JSON
report come its items' *target* seconds (inside calls into the target: constructions, resets, steps, renders,
closes, reads) and *suite* seconds (the rest of the items' wall time), and the items that spent the most suite
time: a rule whose suite time is many times its target time spends its time on the suite's own work. Cases whose
packages (or venv) are missing are listed as skipped. The cases run in interleaved rounds (``--repeats``; the order
alternates between rounds) and the medians are reported, so load drift affects every case alike.

Same-run comparisons: ``--baseline DIR`` runs every case again with ``DIR`` (a checkout of an earlier commit, e.g.
``git worktree add /tmp/old <commit>``) first on ``PYTHONPATH``, interleaved with the current code, and adds the
baseline's median wall time, the ratio current/baseline and the baseline's median CPU seconds. A case with a Gymnasium counterpart also runs
``gymnasium.utils.env_checker.check_env`` on the same id in a child process of its own (interpreter start and
imports included, as the suite's run includes them), interleaved too, and adds the ratio suite/check_env.

Bytecode: the suite's modules are compiled on import and pytest rewrites the asserts of its plugins' packages
(Hypothesis, gymspec); a user's installed packages keep that bytecode, so later runs read it. By default every run
keeps its bytecode under one scratch ``PYTHONPYCACHEPREFIX`` (warmed by an untimed ``--collect-only`` run of each
checkout), as a user's second run does; ``--no-bytecode`` leaves ``PYTHONDONTWRITEBYTECODE`` as the environment has
it, so a machine that sets it compiles every module in every run (a first run in a fresh CI job pays about that).

Hypothesis' cache: the suite keeps Hypothesis' cache of constants read from local modules in the user's cache
directory (``$XDG_CACHE_HOME/gymspec-conformance``), so runs after the first find it warm, as a user's do;
``--cold`` gives every run an empty cache directory of its own.

Targets (2 cores, default profile, quiet machine): issue 38 — CartPole-v1 (Gymnasium's) <= 1.5 s and <= 4x its
``check_env``, its collection (``--collect-only``) <= 0.6 s CPU, the reference registry without ``-n`` (README's first
command) <= 60 s; issue 13 — ALE/Pong-v5, Humanoid-v5, FetchReach <= 60 s, CarRacing-v3 <= 90 s, the reference
registry with ``-n 2`` <= 90 s; issue 23 — FrankaKitchen-v1 <= 60 s, a target whose constructor takes 20 s <= 300 s
(quick: <= 120 s); issue 38 — the slow-import (spawn) target and Meta-World MT10 <= 300 s. The ``in-process`` row runs
CartPole without supervision (``--conformance-isolation thread``): the price of running items in processes.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CASES", "Case", "main"]

_REPO = Path(__file__).resolve().parents[1]
_WORST = 3  # items per case named as spending the most suite time


@dataclass(frozen=True)
class Case:
    """One suite run.

    Attributes:
        name: The row's name.
        args: The target options (and anything else) after ``pytest --pyargs conformance``.
        needs: Modules that must be importable (else the case is skipped).
        target: The wall-time target in seconds (0: none).
        quick_target: The target under ``--profile quick`` (0: none).
        check_env: A Gymnasium id (``module:id`` imports the module first) whose ``check_env`` the case is compared
            with ("": none).
        check_env_factor: The most the suite's wall time may be, as a multiple of ``check_env``'s (0: no target).
        cpu_target: A target on the run's CPU seconds instead of its wall time (0: none).
        venv: A venv (by its folder's name under ``--venvs``) whose interpreter runs the case ("": this one).
        env: Extra environment variables of the run.
    """

    name: str
    args: tuple[str, ...]
    needs: tuple[str, ...] = ()
    target: float = 0.0
    quick_target: float = 0.0
    check_env: str = ""
    check_env_factor: float = 0.0
    cpu_target: float = 0.0
    venv: str = ""
    env: Mapping[str, str] = field(default_factory=dict[str, str])

    def target_for(self, profile: str) -> float:
        """The wall-time target under ``profile`` (0: none)."""
        if profile == "quick":
            return self.quick_target
        return self.target if profile == "default" else 0.0


_GYM = ("--registry", "gymnasium")
CASES: tuple[Case, ...] = (
    Case("CartPole-v1", ("--env-id", "CartPole-v1", *_GYM), target=1.5, check_env="CartPole-v1", check_env_factor=4.0),
    Case("CartPole-v1 collection", ("--env-id", "CartPole-v1", *_GYM, "--collect-only"), cpu_target=0.6),
    Case("CartPole-v1 in-process", ("--env-id", "CartPole-v1", *_GYM, "--conformance-isolation", "thread")),
    Case("reference registry", (), target=60.0),
    Case("reference registry -n 2", ("-n", "2"), ("xdist",), 90.0),
    Case("ALE/Pong-v5", ("--env-id", "ale_py:ALE/Pong-v5", *_GYM), ("ale_py",), 60.0, check_env="ale_py:ALE/Pong-v5"),
    Case("Humanoid-v5", ("--env-id", "Humanoid-v5", *_GYM), ("mujoco",), 60.0, check_env="Humanoid-v5"),
    Case("FetchReach-v4", ("--env-id", "gymnasium_robotics:FetchReach-v4", *_GYM), ("gymnasium_robotics",), 60.0,
         check_env="gymnasium_robotics:FetchReach-v4"),
    Case("CarRacing-v3", ("--env-id", "CarRacing-v3", *_GYM), ("Box2D",), 90.0, check_env="CarRacing-v3"),
    Case("FrankaKitchen-v1", ("--env-id", "gymnasium_robotics:FrankaKitchen-v1", *_GYM), ("gymnasium_robotics",),
         60.0, check_env="gymnasium_robotics:FrankaKitchen-v1"),
    # Issue 23: a constructor of 20 s (tests/meta's SlowConstructor; the repository must be on PYTHONPATH).
    Case("20 s constructor", ("--env", "tests.meta.broken.unchecked:SlowConstructor", "--env-kwargs",
                              '{"seconds": 20}'), ("tests.meta",), 300.0, 120.0),
    # Issue 36: a factory whose import takes seconds and leaves threads (spawn isolation); it breaks ENV-011, so the
    # run exits 1 (its verdict is the meta-tests'; here its time is).
    Case("slow-import (spawn) target", ("--env", "tests.meta.broken.slow_import:env_011"), ("tests.meta",), 300.0),
    Case("phys2d CartPole func JAX", ("--func-env", "gymnasium.envs.phys2d.cartpole:CartPoleFunctional"),
         ("jax", "gymnasium")),
    Case("phys2d/CartPole-v1 JAX", ("--env-id", "phys2d/CartPole-v1", *_GYM), ("jax", "gymnasium")),
    Case("Meta-World MT10", ("--vector-env", "tests.ecosystem.sim_targets:metaworld_mt10_vector"), target=300.0,
         venv="metaworld"),
)


def _available(case: Case, venvs: Path) -> str:
    if case.venv:
        python = venvs / case.venv / "bin" / "python"
        return "" if python.exists() else f"needs the venv {python.parent.parent}"
    missing = [name for name in case.needs if not _importable(name)]
    return f"needs {', '.join(missing)}" if missing else ""


def _importable(name: str) -> bool:
    if str(_REPO) not in sys.path:  # run as a script, this folder is on the path, not the repository
        sys.path.append(str(_REPO))
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a dotted name whose parent is missing (tests.meta without the repository)
        return False


@dataclass(frozen=True)
class _Run:
    seconds: float
    cpu: float
    peak_mib: float
    status: int
    target_seconds: float = 0.0
    suite_seconds: float = 0.0
    worst: tuple[tuple[str, float, float], ...] = ()
    """The items with the most suite time: ``(rule [target], suite seconds, target seconds)``."""


@dataclass(frozen=True)
class _Setting:
    """What every run of one bench invocation shares."""

    profile: str
    cold: bool
    bytecode: Path | None
    venvs: Path
    reports: Path | None = None
    """Where each run's JSON report is kept (``None``: nowhere)."""


def _environment(setting: _Setting, scratch: Path, path: str, extra: Mapping[str, str]) -> dict[str, str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "MUJOCO_GL": "egl", **extra}
    if setting.cold:
        env["XDG_CACHE_HOME"] = str(scratch / "cache")
    if setting.bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(setting.bytecode)
    if path:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (path, env.get("PYTHONPATH", ""))))
    return env


def _timed(command: Sequence[str], cwd: Path, env: Mapping[str, str]) -> tuple[float, float, float, int]:
    """Run ``command``; its wall seconds, the CPU seconds of its process tree, its peak MiB and exit code."""
    started = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def _python(case: Case, setting: _Setting) -> str:
    return str(setting.venvs / case.venv / "bin" / "python") if case.venv else sys.executable


def _run(case: Case, setting: _Setting, checkout: str) -> _Run:
    """One run of ``case`` with ``checkout`` first on ``PYTHONPATH``."""
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        report = scratch / "report.json"
        command = [
            _python(case, setting), "-m", "pytest", "--pyargs", "conformance", "-q", "-p", "no:cacheprovider",
            "-o", "addopts=", "--conformance-profile", setting.profile, "--conformance-report", str(report), *case.args,
        ]
        seconds, cpu, peak, status = _timed(command, scratch, _environment(setting, scratch, checkout, case.env))
        if setting.reports is not None and report.exists():
            setting.reports.mkdir(parents=True, exist_ok=True)
            name = "".join(char if char.isalnum() else "-" for char in f"{case.name} {Path(checkout).name}")
            shutil.copy(report, setting.reports / f"{name}-{time.strftime('%H%M%S')}.json")
        return _Run(seconds, cpu, peak, status, *_costs(report))


def _costs(report: Path) -> tuple[float, float, tuple[tuple[str, float, float], ...]]:
    """The items' target and suite seconds, and the items with the most suite time (nothing without a report)."""
    try:
        results = json.loads(report.read_text(encoding="utf-8"))["results"]
    except (OSError, ValueError, KeyError):
        return 0.0, 0.0, ()
    # An item whose process died or hung has no measured target time (null): its seconds are left out here.
    items = [(f"{r['rule']} [{r['target']}]", float(r.get("seconds", 0.0)), float(r["target_seconds"]))
             for r in results if r.get("target_seconds") is not None]
    suite = sorted(((name, max(0.0, wall - spent), spent) for name, wall, spent in items), key=lambda x: -x[1])
    return sum(spent for _, _, spent in items), sum(s for _, s, _ in suite), tuple(suite[:_WORST])


_CHECK_ENV = """
import importlib, sys
module, _, name = sys.argv[1].rpartition(":")
if module:
    importlib.import_module(module)
import gymnasium
from gymnasium.utils.env_checker import check_env
env = gymnasium.make(name)
check_env(env.unwrapped)
env.close()
"""


def _check_env(case: Case, setting: _Setting) -> float:
    """Wall seconds of a child process that runs Gymnasium's ``check_env`` on the case's id."""
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        env = _environment(setting, scratch, "", case.env)
        seconds, _, _, status = _timed([_python(case, setting), "-c", _CHECK_ENV, case.check_env], scratch, env)
    return seconds if status == 0 else float("nan")


def _warm(checkouts: Sequence[str], setting: _Setting) -> None:
    """An untimed run of each checkout's collection, so the timed runs read bytecode as a user's runs do."""
    for checkout in checkouts:
        with tempfile.TemporaryDirectory() as folder:
            scratch = Path(folder)
            command = [sys.executable, "-m", "pytest", "--pyargs", "conformance", "-q", "-p", "no:cacheprovider",
                       "-o", "addopts=", "--collect-only", "--env-id", "CartPole-v1", *_GYM]
            _timed(command, scratch, _environment(setting, scratch, checkout, {}))


def _median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the cases and print the table; the exit status is 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--profile", default="default", choices=("quick", "default", "thorough"))
    parser.add_argument("--repeats", type=int, default=1, help="interleaved rounds (medians are reported)")
    parser.add_argument("--only", nargs="*", default=None, help="run only cases whose name contains one of these")
    parser.add_argument("--baseline", default="", help="a checkout of an earlier commit to compare against")
    parser.add_argument("--cold", action="store_true", help="give every run an empty Hypothesis cache directory")
    parser.add_argument("--no-bytecode", action="store_true", help="keep the environment's bytecode setting")
    parser.add_argument("--venvs", default="/work/venvs", help="where the venvs of cases that name one are")
    parser.add_argument("--reports", default="", help="keep each run's JSON report in this folder")
    options = parser.parse_args(argv)
    if options.baseline and not (Path(options.baseline) / "conformance").is_dir():
        parser.error(f"--baseline must be a checkout holding conformance/, got {options.baseline!r}")
    with tempfile.TemporaryDirectory(prefix="bench-suite-bytecode-") as bytecode:
        setting = _Setting(options.profile, options.cold, None if options.no_bytecode else Path(bytecode),
                           Path(options.venvs), Path(options.reports) if options.reports else None)
        return _bench(options, setting)


def _bench(options: argparse.Namespace, setting: _Setting) -> int:
    cases = [case for case in CASES if not options.only or any(word in case.name for word in options.only)]
    runnable = [case for case in cases if not _available(case, setting.venvs)]
    checkouts = [str(_REPO)] + ([str(Path(options.baseline).resolve())] if options.baseline else [])
    if setting.bytecode is not None:
        _warm(checkouts, setting)
    timings: dict[str, list[_Run]] = {case.name: [] for case in runnable}
    before: dict[str, list[_Run]] = {case.name: [] for case in runnable}
    checker: dict[str, list[float]] = {case.name: [] for case in runnable}
    for round_ in range(max(1, options.repeats)):
        for case in runnable:
            kinds = ["current", *(["baseline"] if options.baseline else []), *(["check_env"] if case.check_env else [])]
            for kind in kinds if round_ % 2 == 0 else reversed(kinds):  # alternate who goes first
                if kind == "current":
                    timings[case.name].append(_run(case, setting, checkouts[0]))
                elif kind == "baseline":
                    before[case.name].append(_run(case, setting, checkouts[1]))
                else:
                    checker[case.name].append(_check_env(case, setting))
    return _print(cases, setting, options.baseline, timings, before, checker)


def _print(
    cases: Sequence[Case], setting: _Setting, baseline: str, timings: Mapping[str, list[_Run]],
    before: Mapping[str, list[_Run]], checker: Mapping[str, list[float]],
) -> int:
    missed = False
    extra = f" {'baseline s':>10} {'ratio':>6} {'base cpu':>8}" if baseline else ""
    compared = any(case.check_env for case in cases)
    versus = f" {'check_env s':>11} {'x':>6}" if compared else ""
    header = f"{'case':<28} {'seconds':>8} {'cpu s':>7} {'peak MiB':>9} {'target s':>9} {'suite s':>8}"
    print(f"{header}{extra}{versus} {'goal':>8}  {'exit':>4}  verdict")
    worst: list[str] = []
    for case in cases:
        reason = _available(case, setting.venvs)
        if reason:
            print(f"{case.name:<28} {'-':>8}  skipped ({reason})")
            continue
        runs = timings[case.name]
        seconds, cpu = _median([r.seconds for r in runs]), _median([r.cpu for r in runs])
        spent, suite = _median([r.target_seconds for r in runs]), _median([r.suite_seconds for r in runs])
        row = f"{case.name:<28} {seconds:8.1f} {cpu:7.1f} {max(r.peak_mib for r in runs):9.0f} {spent:9.1f} {suite:8.1f}"
        if baseline:
            old = _median([r.seconds for r in before[case.name]])
            row += f" {old:10.1f} {seconds / old:6.2f} {_median([r.cpu for r in before[case.name]]):8.1f}"
        ok = True
        if compared:
            checked = _median(checker[case.name])
            row += f" {checked:11.2f} {seconds / checked:6.1f}" if case.check_env else f" {'-':>11} {'-':>6}"
            if case.check_env and case.check_env_factor and setting.profile == "default":
                ok = seconds <= case.check_env_factor * checked
        goal = case.target_for(setting.profile)
        if case.cpu_target:
            ok, goal_text = ok and cpu <= case.cpu_target, f"{case.cpu_target:g} cpu"
        else:
            ok, goal_text = ok and (not goal or seconds <= goal), f"{goal:g}" if goal else "-"
        has_goal = bool(goal or case.cpu_target or (case.check_env_factor and setting.profile == "default"))
        missed |= has_goal and not ok
        verdict = ("met" if ok else "MISSED") if has_goal else ""
        print(f"{row} {goal_text:>8}  {runs[-1].status:>4}  {verdict}")
        last = runs[len(runs) // 2]
        if last.worst:
            items = ", ".join(f"{name} {s:.1f} s (target {t:.1f} s)" for name, s, t in last.worst)
            worst.append(f"  {case.name}: {items}")
    if worst:
        print("most suite time (a median run's items):")
        print("\n".join(worst))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
