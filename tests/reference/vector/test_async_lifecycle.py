"""``AsyncVectorEnv``'s lifecycle never hangs and never orphans.

* ``close()`` after a timed-out wait returns within the grace period (plus the kill grace), terminating only the
  workers that did not answer; the others still close their sub-envs.
* Workers die with their parent: after the parent is ``SIGKILL``ed, no worker survives it by more than a second or
  two, whether it was idle or stuck in a busy sub-env, whatever the start method, and whichever thread built the
  vector env. Nothing is left in ``/dev/shm``.

The parent-death tests run the parent in a subprocess (a script below) so that it can be killed for real.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from reference.vector import AsyncVectorEnv
from tests.reference._limits import within
from tests.reference.vector._helpers import MarksClose, Sleepy
from tests.reference.vector._leaks import SHM, no_leaks

pytestmark = pytest.mark.filterwarnings("ignore:.*close\\(\\) while a")

REPO = Path(__file__).resolve().parents[3]
KILL_GRACE = 1.0  # how long close() gives a terminated worker before SIGKILL


def test_close_after_a_timed_out_step_returns_within_the_grace_period() -> None:
    with no_leaks():
        envs = AsyncVectorEnv([functools.partial(Sleepy, 0.0), functools.partial(Sleepy, 600.0)], num_workers=2)
        envs.reset(seed=0)
        envs.step_async(np.zeros(2, dtype=np.int64))
        with pytest.raises(multiprocessing.TimeoutError, match="call step_wait\\(\\) again to keep waiting, or close"):
            envs.step_wait(timeout=0.2)
        grace = AsyncVectorEnv.close_grace_period
        start = time.monotonic()
        with within(grace + KILL_GRACE + 10):
            envs.close()  # the default arguments
        assert time.monotonic() - start < grace + KILL_GRACE + 5
        assert envs.closed


@pytest.mark.parametrize("call", ["step", "reset", "call"])
def test_close_after_a_timed_out_wait_terminates_only_the_unresponsive_workers(call: str, tmp_path: Path) -> None:
    markers = [tmp_path / "closed-0", tmp_path / "closed-1"]
    with no_leaks():
        envs = AsyncVectorEnv([functools.partial(MarksClose, 0.0, str(marker)) for marker in markers], num_workers=2)
        envs.close_grace_period = 0.3
        envs.reset(seed=0)
        envs.set_attr("delay", [0.0, 600.0])  # sub-env 1 (worker 1) now hangs in step, reset and nap
        if call == "step":
            envs.step_async(np.zeros(2, dtype=np.int64))
        elif call == "reset":
            envs.reset_async()
        else:
            envs.call_async("nap")
        with pytest.raises(multiprocessing.TimeoutError, match=f"{call}_wait must receive"):
            getattr(envs, f"{call}_wait")(timeout=0.1)
        with within(10):
            envs.close()
        assert markers[0].exists(), "the responsive worker must still close its sub-env"
        assert not markers[1].exists(), "the hung worker is terminated, not asked to close"


# --- the parent dies ------------------------------------------------------------------------------------------------

PARENT = """
import functools, sys, threading, time
import numpy as np
from reference.vector import AsyncVectorEnv
from tests.reference.vector._helpers import Busy, Sleepy

context, state, where = sys.argv[1:4]
made = []

def build():
    envs = AsyncVectorEnv([Busy, Busy, functools.partial(Sleepy, 0.0)], num_workers=3, context=context)
    envs.reset(seed=0)
    made.append(envs)

if where == "thread":
    thread = threading.Thread(target=build)
    thread.start()
    thread.join()
else:
    build()
envs = made[0]
envs.reset(seed=1)  # the workers outlive the thread that built them
if state == "busy":
    envs.step_async(np.zeros(3, dtype=np.int64))  # workers 0 and 1 never return from step
print(" ".join(map(str, envs._pool.pids)), flush=True)
time.sleep(600)
"""


def _gone(pid: int) -> bool:
    """Whether ``pid`` has exited (a zombie waiting to be reaped counts as exited)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def _shm() -> set[str]:
    return set(os.listdir(SHM)) if os.path.isdir(SHM) else set()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    ("context", "state", "where"),
    [
        ("fork", "idle", "main"),
        ("fork", "busy", "main"),
        ("spawn", "busy", "main"),
        ("forkserver", "busy", "main"),
        ("fork", "busy", "thread"),
    ],
)
def test_workers_die_with_a_killed_parent(context: str, state: str, where: str) -> None:
    shm_before = _shm()
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, context, state, where],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout is not None
        with within(120):
            line = parent.stdout.readline()
        pids = [int(pid) for pid in line.split()]
        assert len(pids) == 3, f"the parent script failed (exit status {parent.poll()})"
        time.sleep(0.3)  # let the busy workers enter their loop
        assert not any(_gone(pid) for pid in pids)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 2.0
    while not all(_gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    survivors = [pid for pid in pids if not _gone(pid)]
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    assert survivors == [], f"workers {survivors} outlived their SIGKILLed parent by 2 s"
    # A forkserver or resource tracker left behind by the parent cleans up after it; give it a moment.
    deadline = time.monotonic() + 5.0
    while _shm() - shm_before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _shm() - shm_before == set()
