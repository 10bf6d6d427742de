"""Where a slow constructor's constructions happen in a suite run: how many, in which process, for which rule.

Run: ``python benchmarks/bench_constructions.py [--profile default] [--seconds 20] [--baseline DIR] [--repeats 1]``

Each run is ``pytest --pyargs conformance --env <CountedSlowConstructor> --env-kwargs '{"seconds": S}'`` in a child
process (tests/meta's ``SlowConstructor``, logging every construction: ``benchmarks/_counted.py``). The table
gives the run's wall time and, per rule (``warm-up``: the zygotes' probe and shelf), the constructions and the
processes they ran in; a construction in a zygote is paid before any item of its target starts, one in an item
occupies one of the run's slots for its whole length. ``--baseline DIR`` (a checkout of an earlier commit) runs
the same with ``DIR`` first on ``PYTHONPATH``, interleaved round by round, so both see the same load.

Issue 23's targets for ``--seconds 20`` on a 2-core machine: the default profile in 300 s, quick in 120 s
(``benchmarks/bench_suite.py --only "20 s"`` times the plain ``SlowConstructor``).

Where a quick run's ~250 s went before zygotes were cloned (2026-11-28, both profiles alike: a costly target gets one
example per item): ~12 s to start; each of the two zygotes builds its probe and its shelf, 8 constructions one after
the other (160 s), before it serves an item; then 8 constructions inside items (ENV-030 two, RENDER-002 two,
RENDER-001, RENDER-003, RENDER-014, SEED-012's fresh interpreter): 160 slot-seconds on 2 slots (~80 s).

Cloning the zygotes whose probe's construction waits gave four processes and four slots, but each still built its
shelf one instance after another (~210 s: the render rules use an instance in every declared mode, all in their one
process, so none started before 12 + 20 + 5 x 20 = 132 s). Such a zygote now builds its whole shelf at once, a
thread a construction (``conformance/_engine/shelf.py``): its items start after one construction's wait (12 + 20 +
20 s), and the run is bound by the items that build two instances in a row (ENV-030, RENDER-002): ~85 s under either
profile.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["main"]

_ROOT = Path(__file__).resolve().parent.parent
_TARGET_MODULE = "_counted_target"  # the logging target, copied into each run's directory (found with any tree)
_RULE = re.compile(r"\[([A-Z]+-\d{3})-")


@dataclass(frozen=True)
class _Run:
    seconds: float
    status: int
    constructions: list[dict[str, object]]


def _run(profile: str, seconds: float, baseline: str) -> _Run:
    with tempfile.TemporaryDirectory() as scratch:
        source = (_ROOT / "benchmarks" / "_counted.py").read_text(encoding="utf-8")
        Path(scratch, f"{_TARGET_MODULE}.py").write_text(source, encoding="utf-8")
        log = Path(scratch, "constructions.jsonl")
        command = [
            sys.executable, "-m", "pytest", "--pyargs", "conformance", "-q", "-p", "no:cacheprovider", "-o",
            "addopts=", "--conformance-profile", profile, "--conformance-report", str(Path(scratch, "report.json")),
            "--env", f"{_TARGET_MODULE}:CountedSlowConstructor", "--env-kwargs", json.dumps({"seconds": seconds}),
        ]
        path = [scratch, *(p for p in (baseline, str(_ROOT)) if p)]
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "GYMSPEC_CONSTRUCTION_LOG": str(log), "PYTHONPATH": os.pathsep.join(path)}
        started = time.perf_counter()
        status = subprocess.run(command, cwd=scratch, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, check=False).returncode
        elapsed = time.perf_counter() - started
        lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return _Run(elapsed, status, [json.loads(line) for line in lines])


def _phase(record: dict[str, object]) -> str:
    found = _RULE.search(str(record.get("item") or ""))
    return found[1] if found else "warm-up"


def _print(title: str, runs: list[_Run]) -> None:
    seconds = statistics.median(run.seconds for run in runs)
    last = runs[-1]
    print(f"{title}: {seconds:.1f} s (median of {len(runs)}; exit {last.status}), "
          f"{len(last.constructions)} constructions in the last run")
    by_phase: dict[str, list[dict[str, object]]] = collections.defaultdict(list)
    for record in last.constructions:
        by_phase[_phase(record)].append(record)
    for phase, records in sorted(by_phase.items(), key=lambda kv: (kv[0] != "warm-up", kv[0])):
        processes = len({record["pid"] for record in records})
        modes = collections.Counter(str(record["mode"]) for record in records)
        raised = sum(1 for record in records if record["raised"])
        detail = ", ".join(f"{mode} x{count}" for mode, count in sorted(modes.items()))
        print(f"  {phase:<10} {len(records):>3} in {processes} process(es)  [{detail}]"
              + (f"  ({raised} raised)" if raised else ""))


def main(argv: Sequence[str] | None = None) -> int:
    """Run and print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--profile", default="default", choices=("quick", "default", "thorough"))
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each construction takes")
    parser.add_argument("--repeats", type=int, default=1, help="interleaved rounds (medians are reported)")
    parser.add_argument("--baseline", default="", help="a checkout of an earlier commit to compare against")
    options = parser.parse_args(argv)
    if options.baseline and not (Path(options.baseline) / "conformance").is_dir():
        parser.error(f"--baseline must be a checkout holding conformance/, got {options.baseline!r}")
    current: list[_Run] = []
    before: list[_Run] = []
    for _ in range(max(1, options.repeats)):
        current.append(_run(options.profile, options.seconds, ""))
        if options.baseline:
            before.append(_run(options.profile, options.seconds, options.baseline))
    _print(f"current ({options.profile}, {options.seconds:g} s constructor)", current)
    if before:
        _print(f"baseline {options.baseline}", before)
        ratio = statistics.median(r.seconds for r in current) / statistics.median(r.seconds for r in before)
        print(f"ratio current/baseline: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
