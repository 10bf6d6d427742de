"""Wall time and peak memory of the conformance suite on real targets, as a user runs it.

Run: ``python benchmarks/bench_suite.py [--profile default] [--repeats 1] [--only NAME ...] [--baseline DIR] [--cold]``

Each case is one ``pytest --pyargs conformance`` run in a child process (exactly the user's command), timed from
start to exit; the peak resident memory is the largest of the run's processes (``wait4``'s ``ru_maxrss``), and the
CPU seconds are those of the whole process tree (every process is reaped by its parent, so ``wait4`` sums them).
On a shared machine wall time drifts with the load while CPU seconds barely do: read both. Cases whose packages
are not installed (ALE, MuJoCo, Gymnasium-Robotics, Box2D) are listed as skipped. With ``--repeats`` above one,
the cases are run in interleaved rounds and the medians reported, so load drift affects every case alike.

Each run starts in a fresh directory. The suite keeps Hypothesis' cache of constants read from local modules in
the user's cache directory (``$XDG_CACHE_HOME/gymspec-conformance``), so runs after the first find it warm, as a
user's do; ``--cold`` gives every run an empty cache directory of its own (a first run on a new machine: with an
editable install, Hypothesis then reads the suite's own ~180 modules). Engines before that change kept the cache
in the run's directory, so they always start cold here: compare with ``--baseline`` under ``--cold``.

``--baseline DIR`` also runs every case with ``DIR`` (a checkout of an earlier commit, e.g. made with
``git worktree add /tmp/old <commit>``) first on ``PYTHONPATH``, interleaved with the current code, and adds the
baseline's median wall time and the ratio current/baseline.

The ``warm-ups`` column counts the processes that imported and probed a target (``jobs.warm_target``, counted by a
wrapper the run installs before pytest starts): a target run under spawn isolation pays its import in each of them
(issue 36: a worker per lane, once per lane; it was once per batch of items).

Targets (issue 13, default profile on a 2-core machine): CartPole-v1 <= 3 s, ALE/Pong-v5 <= 60 s, Humanoid-v5
<= 60 s, FetchReach <= 60 s, CarRacing-v3 <= 90 s, the reference's whole registry with ``-n 2`` <= 90 s; issue 23:
FrankaKitchen-v1 <= 60 s, a target whose constructor takes 20 s <= 300 s (quick: <= 120 s). The
``in-process`` row runs CartPole without supervision (``--conformance-isolation thread``): the price of running
every item in its own process.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CASES", "Case", "main"]


@dataclass(frozen=True)
class Case:
    """One suite run.

    Attributes:
        name: The row's name.
        args: The target options (and anything else) after ``pytest --pyargs conformance``.
        needs: Modules that must be importable (else the case is skipped).
        target: The wall-time target in seconds (0: none).
        quick_target: The target under ``--profile quick`` (0: none).
    """

    name: str
    args: tuple[str, ...]
    needs: tuple[str, ...] = ()
    target: float = 0.0
    quick_target: float = 0.0

    def target_for(self, profile: str) -> float:
        """The wall-time target under ``profile`` (0: none)."""
        if profile == "quick":
            return self.quick_target
        return self.target if profile == "default" else 0.0


CASES: tuple[Case, ...] = (
    Case("CartPole-v1", ("--env-id", "CartPole-v1"), target=3.0),
    Case("CartPole-v1 in-process", ("--env-id", "CartPole-v1", "--conformance-isolation", "thread")),
    Case("ALE/Pong-v5", ("--env-id", "ale_py:ALE/Pong-v5", "--registry", "gymnasium"), ("ale_py",), 60.0),
    Case("Humanoid-v5", ("--env-id", "Humanoid-v5", "--registry", "gymnasium"), ("mujoco",), 60.0),
    Case("FetchReach-v4", ("--env-id", "gymnasium_robotics:FetchReach-v4", "--registry", "gymnasium"),
         ("gymnasium_robotics",), 60.0),
    Case("CarRacing-v3", ("--env-id", "CarRacing-v3", "--registry", "gymnasium"), ("Box2D",), 90.0),
    Case("reference registry -n 2", ("-n", "2"), ("xdist",), 90.0),
    Case("FrankaKitchen-v1", ("--env-id", "gymnasium_robotics:FrankaKitchen-v1", "--registry", "gymnasium"),
         ("gymnasium_robotics",), 60.0),
    # Issue 23: a constructor of 20 s (tests/meta's SlowConstructor; the repository must be on PYTHONPATH).
    Case("20 s constructor", ("--env", "tests.meta.broken.unchecked:SlowConstructor", "--env-kwargs",
                              '{"seconds": 20}'), ("tests.meta",), 300.0, 120.0),
    # Issue 36: spawn isolation's import paid per worker: a factory importing a package that takes 4 s and leaves two
    # threads running (tests/meta's slow_import), and Gymnasium's JAX envs.
    Case("slow import (spawn)", ("--env", "tests.meta.broken.slow_import:walk"), ("tests.meta",)),
    Case("phys2d CartPole func JAX", ("--func-env", "gymnasium.envs.phys2d.cartpole:CartPoleFunctional"),
         ("jax", "gymnasium")),
    Case("phys2d/CartPole-v1 JAX", ("--env-id", "phys2d/CartPole-v1", "--registry", "gymnasium"), ("jax", "gymnasium")),
)

# Runs pytest with the zygotes' warm-up wrapped so that each process running it leaves a line in $_WARM_UPS: jobs
# name their functions by module and name, so every process the run forks finds the wrapper there.
_COUNTING = """
import os, sys
import conformance._engine.jobs as jobs
warm = jobs.warm_target
def warm_target(payload):
    with open(os.environ["GYMSPEC_BENCH_WARM_UPS"], "a", encoding="ascii") as log:
        log.write(f"{os.getpid()}\\n")
    return warm(payload)
jobs.warm_target = warm_target
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""


def _available(case: Case) -> str:
    missing = [name for name in case.needs if not _importable(name)]
    return f"needs {', '.join(missing)}" if missing else ""


def _importable(name: str) -> bool:
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
    warm_ups: int


def _run(case: Case, profile: str, baseline: str = "", *, cold: bool = False) -> _Run:
    """One run of ``case`` (with ``baseline`` first on ``PYTHONPATH`` when given; ``cold``: with an empty cache)."""
    with tempfile.TemporaryDirectory() as scratch:
        warm_ups = Path(scratch) / "warm-ups"
        command = [
            sys.executable, "-c", _COUNTING, "--pyargs", "conformance", "-q", "-p", "no:cacheprovider",
            "-o", "addopts=", "--conformance-profile", profile,
            "--conformance-report", str(Path(scratch) / "report.json"), *case.args,
        ]
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "MUJOCO_GL": "egl",
               "GYMSPEC_BENCH_WARM_UPS": str(warm_ups)}
        if cold:
            env["XDG_CACHE_HOME"] = str(Path(scratch) / "cache")
        if baseline:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, (baseline, env.get("PYTHONPATH", ""))))
        started = time.perf_counter()
        child = subprocess.Popen(command, cwd=scratch, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        counted = len(warm_ups.read_text(encoding="ascii").split()) if warm_ups.exists() else 0
    cpu = usage.ru_utime + usage.ru_stime
    return _Run(seconds, cpu, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), counted)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the cases and print the table; the exit status is 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--profile", default="default", choices=("quick", "default", "thorough"))
    parser.add_argument("--repeats", type=int, default=1, help="interleaved rounds (medians are reported)")
    parser.add_argument("--only", nargs="*", default=None, help="run only cases whose name contains one of these")
    parser.add_argument("--baseline", default="", help="a checkout of an earlier commit to compare against")
    parser.add_argument("--cold", action="store_true", help="give every run an empty cache directory")
    options = parser.parse_args(argv)
    if options.baseline and not (Path(options.baseline) / "conformance").is_dir():
        parser.error(f"--baseline must be a checkout holding conformance/, got {options.baseline!r}")
    cases = [case for case in CASES if not options.only or any(word in case.name for word in options.only)]
    runnable = [case for case in cases if not _available(case)]
    timings: dict[str, list[_Run]] = {case.name: [] for case in runnable}
    before: dict[str, list[_Run]] = {case.name: [] for case in runnable}
    for _ in range(max(1, options.repeats)):
        for case in runnable:
            timings[case.name].append(_run(case, options.profile, cold=options.cold))
            if options.baseline:
                before[case.name].append(_run(case, options.profile, options.baseline, cold=options.cold))
    missed = False
    extra = f" {'baseline s':>10} {'ratio':>6} {'warm-ups':>8}" if options.baseline else ""
    print(f"{'case':<26} {'seconds':>8} {'cpu s':>7} {'peak MiB':>9} {'warm-ups':>8}{extra} {'target':>7}  {'exit':>4}  "
          "verdict")
    for case in cases:
        reason = _available(case)
        if reason:
            print(f"{case.name:<26} {'-':>8} {'-':>7} {'-':>9} {'-':>8}{' ' * len(extra)} {'-':>7}  {'-':>4}  "
                  f"skipped ({reason})")
            continue
        runs = timings[case.name]
        seconds = statistics.median(run.seconds for run in runs)
        cpu = statistics.median(run.cpu for run in runs)
        peak = max(run.peak_mib for run in runs)
        warm_ups = statistics.median(run.warm_ups for run in runs)
        status = runs[-1].status
        compared = ""
        if options.baseline:
            old = statistics.median(run.seconds for run in before[case.name])
            old_warm_ups = statistics.median(run.warm_ups for run in before[case.name])
            compared = f" {old:10.1f} {seconds / old:6.2f} {old_warm_ups:8g}"
        verdict = ""
        goal = case.target_for(options.profile)
        if goal:
            ok = seconds <= goal
            missed |= not ok
            verdict = "met" if ok else "MISSED"
        target = f"{goal:g}" if goal else "-"
        print(f"{case.name:<26} {seconds:8.1f} {cpu:7.1f} {peak:9.0f} {warm_ups:8g}{compared} {target:>7}  {status:>4}  "
              f"{verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
