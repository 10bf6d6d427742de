"""The suite survives its targets: every hostile target of ``tests.meta.broken.hostile`` (crashes, hangs in every
kind of call, leaked threads and processes, memory floods, odd finalizers) gets a rule-tagged outcome, without xdist
and (one target per way to hurt a worker) with it, in a report that agrees with pytest's counts, with nothing left
running; Ctrl-C stops a run at once; and neither the suite's imports nor its runs change global state."""

from __future__ import annotations

import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conformance._engine.processes import cpu_and_state
from tests.meta._run import BASE_ARGS, REPO, SuiteRun, has_xdist, run_inprocess, run_suite, suite_env
from tests.meta.broken.hostile import HOSTILE, PID_DIR, Hostile
from tests.meta.broken.costly import COSTLY
from tests.meta.broken.unchecked import TIMEOUT, UNCHECKED

_PACKAGE = "tests.meta.broken"
_WALK = f"{_PACKAGE}._base:Walk"


_MAIN_RULES = "ENV-00*,ENV-01*,ENV-020,SEED-00[12],SPACE-00[17],RENDER-004"
_MEMORY_RULES = "ENV-001,ENV-004,ENV-01[67],SEED-00[127]"
_SHAPES_RULES = "ENV-00*,ENV-01*,SEED-00*,RENDER-00*"
_SUMMARY = re.compile(r"(\d+) (passed|failed|skipped|not applicable|errors?)\b")


def _summary_line(output: str) -> str:
    """pytest's final tally ("3 failed, 20 passed in 4.2s"), wherever in the output it is."""
    lines = [line for line in output.splitlines() if re.search(r" in [\d.]+s\b", line) and _SUMMARY.search(line)]
    return lines[-1] if lines else ""


# The xdist run of the main corpus takes one target per way a target can hurt an xdist worker: a process killed by a
# signal, a SystemExit, a SIGTERM to itself, a hang in a call, a stall confirmed in a fresh process, a hang in the
# constructor, a leaked non-daemon thread, leaked processes, a crash partway through a batch of items. The serial run
# takes every target; the other hangs (reset, render, close, spaces) and crashes (SIGSEGV, os._exit) go through the
# same supervision as the ones kept, and halve this run when they are left out.
_XDIST = frozenset({"AbortsOnStep", "SysExitsOnStep", "SignalsOnStep", "SleepsOnStep", "StallsOnce",
                    "SleepsInConstructor", "StartsThread", "ForksChild", "AbortsInHumanMode"})


@dataclass(frozen=True)
class _Attack:
    run: SuiteRun
    seconds: float
    pids: Path
    hostiles: tuple[Hostile, ...] = ()


def _attack(tmp: Path, which: str, parallel: bool) -> _Attack:
    pids = tmp / "pids"
    pids.mkdir()
    if which == "unchecked":
        return _attack_unchecked(tmp, pids, parallel)
    hostiles = tuple(h for h in HOSTILE if h.run == which and (not parallel or h.target in _XDIST))
    args = [arg for spec in (*(hostile.spec for hostile in hostiles), _WALK) for arg in ("--env", spec)]
    if which == "main":
        args += ["--conformance-timeout", "1", "--rules", _MAIN_RULES]
    elif which == "shapes":
        args += ["--conformance-timeout", "1", "--rules", _SHAPES_RULES]
    else:
        # A 1 GiB observation costs the env itself a second a step: its rollout rules are left out to save minutes.
        # The 4 MiB one runs them all: rollouts keep bounded copies, so it passes under the cap (it once held
        # a copy of every observation, near 1 GB).
        args += ["--conformance-memory", "3GiB", "--rules", _MEMORY_RULES,
                 "-k", "not ((ENV-01 or SEED-00) and HugeObservation)"]
    args += ["--conformance-profile", "quick", *(["-n", "2"] if parallel else [])]
    started = time.monotonic()
    # No display, whatever this machine has: AbortsInHumanMode's crash in human mode is then a missing display's.
    headless = {"DISPLAY": "", "WAYLAND_DISPLAY": ""}
    run = run_suite(args, tmp / "report.json", timeout=600, env={PID_DIR: str(pids), **headless})
    return _Attack(run, time.monotonic() - started, pids, hostiles)


_UNCHECKED_RULES = "ENV-00[1-4],ENV-016,ENV-021,SEED-00[19],SPACE-001"


def _attack_unchecked(tmp: Path, pids: Path, parallel: bool) -> _Attack:
    targets = [unchecked.spec for unchecked in UNCHECKED]
    args = [arg for spec in targets for arg in ("--env", spec)]
    args += ["--conformance-timeout", f"{TIMEOUT:g}", "--rules", _UNCHECKED_RULES, "--conformance-profile", "quick",
             *(["-n", "2"] if parallel else [])]
    started = time.monotonic()
    run = run_suite(args, tmp / "report.json", timeout=600, env={PID_DIR: str(pids)})
    return _Attack(run, time.monotonic() - started, pids)


_RUNS = [("main", False), ("main", True), ("memory", False), ("shapes", False), ("unchecked", False)]


@pytest.fixture(scope="module", params=_RUNS, ids=[f"{w}{'-xdist' if p else ''}" for w, p in _RUNS])
def attack(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, _Attack]:
    which, parallel = request.param
    if parallel and not has_xdist():
        pytest.skip("pytest-xdist is not installed")
    return which, _attack(tmp_path_factory.mktemp(which), which, parallel)


def test_a_target_is_checked_or_not_checked_never_silently_skipped(attack: tuple[str, _Attack]) -> None:
    """Unsafe to fork, compiling on its first calls, slow to construct, allowing one live instance: each gets a
    verdict on every rule, in the isolation it needs (said in the summary); the last warns ENV-021, and the rules
    that need two live instances check it with the second in a process of its own."""
    which, attacked = attack
    if which != "unchecked":
        pytest.skip("the unchecked run checks these targets")
    run = attacked.run
    assert run.returncode == pytest.ExitCode.OK, run.output[-3000:]
    notes = run.report["summary"]["isolation"]
    for unchecked in UNCHECKED:
        records = [r for r in run.report["results"] if r["target"] == unchecked.spec]
        assert records, unchecked
        assert {r["outcome"] for r in records} <= {"passed", "warned"}, records
        warned = {r["rule"]: r["message"] for r in records if r["outcome"] == "warned"}
        assert set(warned) == ({unchecked.warns} if unchecked.warns else set()), warned
        if unchecked.warns:
            assert unchecked.message in warned[unchecked.warns], warned
        assert unchecked.spec not in run.report["summary"].get("not_checked", {}), run.report["summary"]
        if unchecked.isolation:
            assert unchecked.isolation in notes.get(unchecked.spec, ""), notes
            assert f"isolation: {notes[unchecked.spec]} ({unchecked.spec})" in run.output
        else:
            assert unchecked.spec not in notes, notes


def test_a_slow_constructor_is_checked_on_every_rule_as_a_fast_one(tmp_path: Path) -> None:
    """A constructor of 2 s (shelf, recycling and one example per item when a construction is that costly,
    conformance/_engine/shelf.py) gets the verdict the same env constructed in microseconds gets, on every rule:
    nothing is left unchecked to save constructions. How long it takes is the benchmark's business
    (benchmarks/bench_suite.py --only "20 s"), not this test's."""
    slow = "tests.meta.broken.unchecked:SlowConstructor"
    args = ["--env", slow, "--env", _WALK, "--conformance-profile", "quick"]
    run = run_suite(args, tmp_path / "report.json", timeout=600)
    assert run.returncode == pytest.ExitCode.OK, run.output[-3000:]
    assert "NOT CHECKED" not in run.output
    assert run.outcomes(slow) == run.outcomes(_WALK)
    assert len(run.outcomes(slow)) > 50 and set(run.outcomes(slow).values()) <= {"passed", "skipped"}


_CHEAP_BATCH = 8  # items a job of a cheap target runs (conformance/_engine/runner.py)


def test_items_a_crash_kept_from_running_share_their_next_process(tmp_path: Path) -> None:
    """A cheap target's items run in batches; when an item kills its process (human mode aborts with no display),
    the items of that batch that never ran go into one new batch, not a process each (under spawn, each process
    imports and probes the target anew: FrankaKitchen's human-mode items once cost it 32 probes)."""
    pids = tmp_path / "pids"
    pids.mkdir()
    target = "tests.meta.broken.hostile:AbortsInHumanModeNamingProcesses"
    args = ["--env", target, "--rules", "RENDER-0*,RENDER-1*", "--conformance-profile", "quick"]
    run = run_suite(args, tmp_path / "report.json", env={PID_DIR: str(pids), "DISPLAY": "", "WAYLAND_DISPLAY": ""})
    outcomes = run.outcomes(target)
    crashed = [rule for rule, outcome in outcomes.items() if outcome == "skipped"]
    assert crashed and "failed" not in outcomes.values(), outcomes
    # The zygote's probe, the cost probe, the batches, and one more batch after each crash.
    most = 2 + math.ceil(len(outcomes) / _CHEAP_BATCH) + len(crashed)
    assert len(list(pids.iterdir())) <= most, (outcomes, run.output[-2000:])


def test_a_costly_broken_env_fails_its_rule_as_its_cheap_twin(tmp_path: Path) -> None:
    """Broken envs behind a constructor slow enough for the shelf, the bin and the cut constructions (ENV-021's
    second instance, ENV-030's two, SEED-006 stopping at the first instance that differs, human mode from the shelf)
    still fail, or warn on, their rule: no saving hides a defect."""
    args = [arg for _, target in COSTLY for arg in ("--env", target)]
    rules = ",".join(sorted({rule for rule, _ in COSTLY}))
    run = run_suite([*args, "--rules", rules, "--conformance-profile", "quick"], tmp_path / "report.json",
                    timeout=600)
    for rule, target in COSTLY:
        outcome = run.outcomes(target).get(rule)
        assert outcome in ("failed", "warned"), (target, rule, run.outcomes(target), run.output[-2000:])


def test_each_hostile_target_gets_its_rule_tagged_outcome(attack: tuple[str, _Attack]) -> None:
    which, attacked = attack
    if which == "unchecked":
        pytest.skip("the unchecked run has its own test")
    run = attacked.run
    assert attacked.hostiles, which
    for hostile in attacked.hostiles:
        outcomes = run.outcomes(hostile.spec)
        assert "CONSTRUCT" in outcomes, (hostile.target, outcomes)
        records = [r for r in run.report["results"] if r["target"] == hostile.spec]
        if hostile.rule:
            record = run.result(hostile.spec, hostile.rule)
            assert record["outcome"] == "failed", (hostile.target, record)
            assert hostile.message in record["message"], (hostile.target, record["message"])
        elif hostile.message:
            assert any(r["outcome"] == "failed" and hostile.message in r["message"] for r in records), hostile
        for record in records:
            if record["rule"] == (hostile.rule or None):
                continue
            assert record["outcome"] in hostile.others, (hostile.target, record)
            if record["outcome"] in ("failed", "error"):
                assert hostile.message in record["message"] or "hung earlier" in record["message"], record
            if record["outcome"] == "skipped" and "reported by" in record["message"]:
                # A skip may name another rule as the reporter only when that rule did fail.
                owner = re.search(r"reported by ((?:[A-Z]+-\d{3}(?:, | or )?)+|the construction check|"
                                  r"test_target_constructs)", record["message"])
                assert owner is not None, record
                reporters = re.findall(r"[A-Z]+-\d{3}", owner[1]) or ["CONSTRUCT"]
                outcomes = run.outcomes(hostile.spec)
                assert any(outcomes.get(reporter) == "failed" for reporter in reporters), (record, outcomes)
            assert record["message"].startswith((record["rule"], "CONSTRUCT")) or not record["message"], record


def test_a_hang_ends_only_the_items_that_make_its_shape_of_call(attack: tuple[str, _Attack]) -> None:
    """Issue 36 item 5: one slow call must not silence its whole kind. A reset with a seed of 2**32 that takes a
    minute, or a construction in human mode that stalls, ended every later item of the target with "not called
    again"; now each target gets the correct Walk's verdict on every rule but those whose items make that call."""
    which, attacked = attack
    if which != "shapes":
        pytest.skip("the shapes run checks these targets")
    run = attacked.run
    walk = run.outcomes(_WALK)
    seeds = run.outcomes(f"{_PACKAGE}.hostile:SlowOnHugeSeeds")
    assert {rule: outcome for rule, outcome in seeds.items() if outcome != walk[rule]} == {"SEED-007": "failed"}
    human = f"{_PACKAGE}.hostile:StallsInHumanMode"
    differing = [run.result(human, rule) for rule, outcome in run.outcomes(human).items() if outcome != walk[rule]]
    assert differing, "no item constructed in human mode"
    for record in differing:
        assert record["outcome"] == "skipped" and "did not return" in record["message"], record
        assert "no display" in record["message"], record
    assert len(differing) < len(walk) // 4, [record["rule"] for record in differing]


def test_the_correct_target_beside_them_passes(attack: tuple[str, _Attack]) -> None:
    which, attacked = attack
    if which == "unchecked":
        pytest.skip("no correct target beside them")
    assert set(attacked.run.outcomes(_WALK).values()) <= {"passed", "skipped"}


def test_the_report_agrees_with_pytest(attack: tuple[str, _Attack]) -> None:
    which, attacked = attack
    run = attacked.run
    # The unchecked targets are all checked now: warnings at most (ENV-021), so that run passes.
    expected = pytest.ExitCode.OK if which == "unchecked" else pytest.ExitCode.TESTS_FAILED
    assert run.returncode == expected, run.output[-3000:]
    tail = _summary_line(run.output)
    counted = {kind.rstrip("s") if kind.startswith("error") else kind: int(n) for n, kind in _SUMMARY.findall(tail)}
    reported = run.report["summary"]["pytest"]
    assert {kind: n for kind, n in reported.items() if n} == counted, tail
    assert run.report["summary"]["total"] == len(run.report["results"])


def test_each_record_is_its_own_items(attack: tuple[str, _Attack]) -> None:
    """One record per item, made from that item's own reports: a process that dies partway through a batch must not
    pass an earlier item's results off as a later one's."""
    _, attacked = attack
    records = attacked.run.report["results"]
    nodeids = [record["nodeid"] for record in records]
    assert len(nodeids) == len(set(nodeids)), "an item's reports were logged twice"
    for record in records:
        if record["rule"] != "CONSTRUCT":
            assert f"[{record['rule']}-" in record["nodeid"], record
    tail = _summary_line(attacked.run.output)
    assert len(records) == sum(int(n) for n, _ in _SUMMARY.findall(tail)), tail


def _running(pid: int) -> bool:
    """Whether ``pid`` still runs: a killed orphan stays a zombie until init reaps it, which is not running."""
    _, state = cpu_and_state(pid)
    if state:
        return state != "Z"
    try:  # gone, or no /proc: ask the kernel (a zombie then counts as running)
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_nothing_outlives_the_run(attack: tuple[str, _Attack]) -> None:
    _, attacked = attack
    started = [int(entry.name) for entry in attacked.pids.iterdir() if entry.name.isdigit()]  # not StallsOnce's
    # The run's last kills are asynchronous (SIGKILL is delivered, then init reaps): a few seconds to finish.
    deadline = time.monotonic() + 10
    alive = [pid for pid in started if _running(pid)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [pid for pid in alive if _running(pid)]
    assert not alive, f"processes started by targets outlived the run: {alive}"
    assert attacked.seconds < 300, f"the run took {attacked.seconds:.0f} s"


def test_large_observations_are_checked_in_bounded_memory(attack: tuple[str, _Attack]) -> None:
    which, attacked = attack
    if which != "memory":
        pytest.skip("the memory run checks the 4 MiB observations")
    records = [r for r in attacked.run.report["results"] if r["target"].endswith(":FourMiBObservation")]
    rollouts = [r for r in records if r["evidence"].get("steps")]
    assert rollouts and all(r["outcome"] == "passed" for r in records), records
    # A job process starts near 150 MiB (pytest, Hypothesis, NumPy); the rollouts add their 64 MiB copy budget,
    # a window of 8 observations and digests, not one 4 MiB copy per step as they once did (near 1 GB).
    assert max(r["peak_mib"] for r in rollouts) < 450, [(r["rule"], r["peak_mib"]) for r in rollouts]


def _as_from_a_terminal() -> None:
    """Start the child as a shell would: SIGINT delivered and handled by default, whatever this test process (an
    xdist worker that has run other tests) blocks or ignores, since a child inherits both."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _await_hanging_call(child: subprocess.Popen[bytes], pids: Path) -> None:
    """Wait (up to 2 minutes) until the target's process wrote its pid on entering its hanging call."""
    deadline = time.monotonic() + 120
    while not any(pids.iterdir()) and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.05)
    if not any(pids.iterdir()):
        early = child.communicate(timeout=20)[0].decode(errors="replace") if child.poll() is not None else ""
        pytest.fail(f"the target never reached its hanging call (exit {child.returncode}): {early[-3000:]}")


def test_ctrl_c_stops_at_once_and_the_report_says_so(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    report = tmp_path / "report.json"
    command = [sys.executable, "-m", "pytest", *BASE_ARGS, "--conformance-report", str(report),
               "--env", f"{_PACKAGE}.hostile:SleepsOnStep", "--conformance-timeout", "120", "--rules", "ENV-016"]
    env = {**suite_env(), PID_DIR: str(pids)}
    child = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             start_new_session=True, preexec_fn=_as_from_a_terminal)
    try:
        _await_hanging_call(child, pids)
        os.killpg(child.pid, signal.SIGINT)  # what a terminal does on Ctrl-C: the whole foreground group
        output, _ = child.communicate(timeout=60)  # "at once", with room for a machine running other suites
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    text = output.decode(errors="replace")
    assert child.returncode == pytest.ExitCode.INTERRUPTED, text[-3000:]
    data = json.loads(report.read_text(encoding="utf-8"))
    interrupted = [r for r in data["results"] if r["rule"] == "ENV-016"]
    assert interrupted and interrupted[0]["outcome"] == "error", data["results"]
    assert "interrupted" in interrupted[0]["message"], interrupted[0]
    assert data["summary"]["run"]["interrupted"] is True
    assert "1 error" in _summary_line(text), text[-2000:]
    for entry in pids.iterdir():
        with pytest.raises(ProcessLookupError):
            os.kill(int(entry.name), 0)


def _judged(tmp_path: Path, name: str) -> tuple[float, SuiteRun]:
    """A run of the looping reset and the looping render (each a first call: 6 timeouts of 1 s), and its seconds."""
    args = ["--env", f"{_PACKAGE}.hostile:SpinsInReset", "--env", f"{_PACKAGE}.hostile:SpinsInRender",
            "--rules", "ENV-004,RENDER-004", "--conformance-timeout", "1", "--conformance-profile", "quick"]
    started = time.monotonic()
    run = run_suite(args, tmp_path / f"{name}.json", timeout=600)
    return time.monotonic() - started, run


@pytest.mark.slow  # two runs, one of them under load: a minute or more
def test_a_call_that_loops_is_judged_under_load_about_as_soon_as_on_a_quiet_machine(tmp_path: Path) -> None:
    """Issue 36 item 6: on 2 cores at load 5-9 a looping reset() was judged after more than 300 s (125-185 s quiet):
    a loop getting a quarter of a CPU passed for a starved call (up to 4 times its limit) and its hang was confirmed in
    a fresh process (as long again). A loop that gets its share of a CPU is judged at its limit now, and not rerun. A
    bound on the mechanism, compared with this test's own quiet run under two busy processes per core: noisy on a
    machine already loaded by others (the loop then gets less than a third of a CPU, and is excused as long as the
    load explains, up to twice its limit while it runs), hence the margin."""
    quiet_seconds, quiet = _judged(tmp_path, "quiet")
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 * (os.cpu_count() or 1))]
    try:
        loaded_seconds, loaded = _judged(tmp_path, "loaded")
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    reset, render = f"{_PACKAGE}.hostile:SpinsInReset", f"{_PACKAGE}.hostile:SpinsInRender"
    for run in (quiet, loaded):
        assert "the target hung: env.reset() did not return within" in run.result(reset, "ENV-004")["message"]
        assert "render() in mode 'rgb_array' did not return within" in run.result(render, "RENDER-004")["message"]
    # The looping render hangs in its item's own job: its seconds are the judgement's.
    judged = [run.result(render, "RENDER-004")["seconds"] for run in (quiet, loaded)]
    print(f"judged quiet, loaded: {judged} s; runs {quiet_seconds:.1f} s, {loaded_seconds:.1f} s")
    assert judged[1] <= 2 * judged[0] + 1, judged
    # The whole run also starts pytest, imports and warms up under the load: CPU work, which two busy processes per
    # core make 2.5 times as long.
    assert loaded_seconds <= 3 * quiet_seconds, (quiet_seconds, loaded_seconds)


# pytest, then a line with its own peak resident memory (what it read of the targets' output would show there).
_SAYS_ITS_PEAK = """
import sys, pytest
code = pytest.main(sys.argv[1:])
with open("/proc/self/status", encoding="ascii") as status:
    print("peak", *[line.split()[1] for line in status if line.startswith("VmHWM:")], "kB")
sys.exit(code)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the peak memory from /proc")
def test_a_target_printing_100_mib_leaves_the_run_and_its_report_intact(tmp_path: Path) -> None:
    """FloodsOutputOnStep prints 100 MiB in each instance's first step and fails ENV-011: the run ends as any failing
    run does (it once ended with an INTERNALERROR, the pytest process at 4 GB), its report is complete, the failing
    item's record keeps the last lines of what it printed and the terminal none of it, and the pytest process never
    holds what the target printed."""
    report = tmp_path / "report.json"
    target = f"{_PACKAGE}.hostile:FloodsOutputOnStep"
    command = [sys.executable, "-c", _SAYS_ITS_PEAK, *BASE_ARGS, "--conformance-report", str(report), "--env", target,
               "--rules", "ENV-011,ENV-016", "--conformance-profile", "quick", "--conformance-timeout", "60"]
    completed = subprocess.run(command, cwd=REPO, env=suite_env(), capture_output=True, text=True, timeout=600,
                               check=False)
    text = completed.stdout + completed.stderr
    assert completed.returncode == pytest.ExitCode.TESTS_FAILED, text[-3000:]
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["summary"]["run"]["incomplete"] is False and data["summary"]["total"] == len(data["results"]) == 3
    outcomes = {r["rule"]: r["outcome"] for r in data["results"]}
    assert outcomes == {"ENV-011": "failed", "ENV-016": "passed", "CONSTRUCT": "passed"}, data["results"]
    output = next(r["output"] for r in data["results"] if r["rule"] == "ENV-011")
    assert output.startswith("stdout (call, the last 20 of ") and "\nstderr (call" in output, output[-3000:]
    assert output.endswith("\nFloodsOutputOnStep: the last line on stderr"), output[-3000:]
    assert len(output) < 20_000 and "x" * 1023 not in text and len(text) < 1 << 20, text[-3000:]
    peak = re.search(r"peak (\d+) kB", text)
    assert peak is not None and int(peak[1]) < 1 << 20, text[-2000:]  # under 1 GiB: it never read the 100 MiB


def test_suite_run_leaves_global_generators_alone() -> None:
    random.seed(1234)
    np.random.seed(1234)
    before = (random.getstate(), np.random.get_state())
    args = ["--pyargs", "conformance", "-p", "no:cacheprovider", "-o", "addopts=", "-q", "--tb=no",
            "--env", f"{_PACKAGE}.seeding:Seed008AdvancesGlobal",
            "--env", f"{_PACKAGE}.space:space_008_global_generator",
            "--conformance-profile", "quick", "--rules", "SEED-00[18],SPACE-00[478],ENV-009"]
    code = pytest.main(args)
    after = (random.getstate(), np.random.get_state())
    assert code == pytest.ExitCode.TESTS_FAILED  # the two envs do touch the global generators
    assert before[0] == after[0]
    assert all(np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(before[1], after[1]))


def test_imports_have_no_side_effects() -> None:
    script = """
import random, numpy as np, hypothesis
random.seed(5); np.random.seed(5)
state = (random.getstate(), np.random.get_state()[1].copy())
profile = hypothesis.settings._current_profile
import conformance, conformance.plugin, conformance._engine.case, conformance._kit.strategies
import conformance._engine.profiles
import conformance.test_env, conformance.test_space, conformance.test_seeding, conformance.test_render
import conformance.test_wrapper, conformance._engine.report, conformance.__main__
assert random.getstate() == state[0]
assert (np.random.get_state()[1] == state[1]).all()
assert hypothesis.settings._current_profile == profile
assert hypothesis.settings().max_examples == hypothesis.settings.default.max_examples
print("clean")
"""
    completed = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=False)
    assert completed.stdout.strip() == "clean", completed.stderr


def _plain_run(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    # Without conformance options nothing of the suite beyond the plugin may be imported; with one (here
    # --conformance-report) the options are validated, which needs the target parser but still no target.
    watched = "('reference', 'gymnasium')" if options else "('reference', 'gymnasium', 'conformance._engine.targets')"
    (tmp_path / "test_plain.py").write_text(
        "import sys\n\n"
        "def test_plain():\n"
        f"    loaded = [m for m in {watched} if m in sys.modules]\n"
        "    assert not loaded, loaded\n"
    )
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *options, str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )


def test_plugin_is_inert_outside_the_suite(tmp_path: Path) -> None:
    completed = _plain_run(tmp_path)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "conformance" not in completed.stdout


def test_plugin_writes_no_report_without_conformance_items(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    completed = _plain_run(tmp_path, "-p", "no:hypothesispytest", "--conformance-report", str(report))
    assert "1 passed" in completed.stdout, completed.stdout + completed.stderr
    assert "conformance summary" not in completed.stdout
    assert not report.exists()


def _records(run: SuiteRun) -> set[tuple[str, str, str]]:
    return {(r["target"], r["rule"], r["outcome"]) for r in run.report["results"]}


@pytest.mark.skipif(not has_xdist(), reason="pytest-xdist is not installed")
def test_report_aggregates_across_xdist_workers(tmp_path: Path) -> None:
    args = ["--env", _WALK, "--env", f"{_PACKAGE}.env:Env009StepOutside", "--rules", "ENV-00*",
            "--conformance-profile", "quick"]
    single = run_inprocess(args, tmp_path / "single.json")
    parallel = run_suite([*args, "-n", "2"], tmp_path / "parallel.json")
    assert _records(single) == _records(parallel)
    assert parallel.report["summary"]["failed"] == 1
    assert "conformance summary" in parallel.output


def _start(report: Path, pids: Path, *args: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "pytest", *BASE_ARGS, "--conformance-report", str(report), *args]
    env = {**suite_env(), PID_DIR: str(pids)}
    return subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True, preexec_fn=_as_from_a_terminal)


def _results_so_far(report: Path) -> int:
    try:
        return len(json.loads(report.read_text(encoding="utf-8"))["results"])
    except (OSError, ValueError, KeyError):
        return 0


def _killed_once(tmp_path: Path, ready: Callable[[Path], bool], seconds: float, *args: str) -> dict[str, Any]:
    """Start a run of the slow constructor, SIGKILL its process group once ``ready(report)`` (what `timeout -s KILL`
    or a CI job's limit does: no handler runs), and read the report it left."""
    pids = tmp_path / "pids"
    pids.mkdir()
    report = tmp_path / "report.json"
    child = _start(report, pids, "--env", "tests.meta.broken.unchecked:SlowConstructor", "--conformance-profile",
                   "quick", *args)
    try:
        deadline = time.monotonic() + seconds
        while not ready(report) and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.1)
        assert child.poll() is None, "the run ended before it could be killed"
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    data: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))  # valid JSON, whatever the moment
    return data


def test_a_run_killed_before_its_first_item_leaves_an_empty_report(tmp_path: Path) -> None:
    # A target whose warm-up outlasts the job's limit: the report on disk says nothing finished, not what an earlier
    # run at the same path found.
    stale = tmp_path / "report.json"
    stale.write_text('{"results": [{"outcome": "passed"}], "summary": {}}', encoding="utf-8")

    def begun(report: Path) -> bool:
        return '"incomplete": true' in report.read_text(encoding="utf-8")

    data = _killed_once(tmp_path, begun, 120, "--env-kwargs", '{"seconds": 600}')
    assert data["results"] == [] and data["summary"]["run"]["incomplete"] is True


def test_a_run_killed_outright_leaves_a_valid_report_of_what_finished(tmp_path: Path) -> None:
    data = _killed_once(tmp_path, lambda report: _results_so_far(report) >= 3, 300, "--conformance-timeout",
                        f"{TIMEOUT:g}")
    assert data["summary"]["run"]["incomplete"] is True
    assert len(data["results"]) >= 3 and data["summary"]["total"] == len(data["results"])
    assert all(r["outcome"] in ("passed", "skipped", "warned") for r in data["results"]), data["results"]


def test_sigterm_writes_the_final_report_and_the_summary(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    report = tmp_path / "report.json"
    child = _start(report, pids, "--env", f"{_PACKAGE}.hostile:SleepsOnStep", "--conformance-timeout", "120",
                   "--rules", "ENV-016")
    try:
        _await_hanging_call(child, pids)
        os.kill(child.pid, signal.SIGTERM)  # what `timeout` sends: to the process, not its group
        output, _ = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    text = output.decode(errors="replace")
    assert child.returncode == pytest.ExitCode.INTERRUPTED, text[-3000:]
    assert "conformance summary" in text and "interrupted by SIGTERM" in text, text[-3000:]
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["summary"]["run"]["incomplete"] is False and data["summary"]["run"]["signal"] == "SIGTERM"
    assert [r["outcome"] for r in data["results"] if r["rule"] == "ENV-016"] == ["error"], data["results"]
