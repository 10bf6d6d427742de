"""Failure injection for ``AsyncVectorEnv``: crashing sub-envs, killed workers, hangs, and cleanup afterwards.

After every failure, ``close()`` must work and leave no worker process, no shared-memory segment in ``/dev/shm``
and no extra file descriptor behind. Waits never hang on a dead worker, even when a grandchild process keeps
the dead worker's pipe open.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import multiprocessing
import os
import pickle
import signal
import time

import numpy as np
import pytest

from reference.error import AlreadyPendingCallError
from reference.spaces import Discrete
from reference.vector import AsyncVectorEnv
from reference.vector._async.worker import RemoteTraceback
from reference.vector.async_vector_env import WorkerDiedError
from tests.reference._limits import within
from tests.reference.vector._helpers import (
    Crashing,
    Echo,
    Forking,
    ShortEpisodes,
    Sleepy,
    Unpicklable,
    broken_factory,
)
from tests.reference.vector._leaks import no_leaks, workers_alive

pytestmark = pytest.mark.filterwarnings("ignore:.*close\\(\\) while a")

def test_sub_env_exception_names_the_sub_env_and_carries_the_remote_traceback() -> None:
    factories = [functools.partial(Crashing, crash_at=1000)] * 4
    factories[2] = functools.partial(Crashing, crash_at=2)
    with no_leaks():
        envs = AsyncVectorEnv(factories, num_workers=2)
        envs.reset(seed=0)
        envs.step(np.zeros(4, dtype=np.int64))
        with pytest.raises(ValueError, match="boom at step 2") as info:
            envs.step(np.zeros(4, dtype=np.int64))
        assert "sub-env 2 (AsyncVectorEnv worker 1" in "\n".join(getattr(info.value, "__notes__", []))
        cause = info.value.__cause__
        assert isinstance(cause, RemoteTraceback)
        assert "Traceback (most recent call last)" in str(cause) and "in step" in str(cause)
        assert "boom at step 2" in str(cause) and "sub-env 2" in str(cause)
        # The failure is reported, not fatal: the vector env keeps working and closes cleanly.
        envs.step(np.zeros(4, dtype=np.int64))
        envs.close()


def test_exception_that_cannot_be_unpickled_becomes_a_runtime_error() -> None:
    with no_leaks(), AsyncVectorEnv([ShortEpisodes, Unpicklable], num_workers=2) as envs:
        envs.reset(seed=0)
        with pytest.raises(RuntimeError, match="StubbornError: stubborn 1 2"):
            envs.step(np.zeros(2, dtype=np.int64))


def test_constructor_failure_is_raised_and_cleaned_up() -> None:
    with no_leaks():
        with pytest.raises(RuntimeError, match="cannot build this sub-env") as info:
            AsyncVectorEnv([ShortEpisodes, ShortEpisodes, ShortEpisodes, broken_factory], num_workers=2)
        assert "sub-env 3" in "\n".join(getattr(info.value, "__notes__", []))


def test_space_mismatch_in_a_worker_is_a_runtime_error() -> None:
    with no_leaks(), pytest.raises(RuntimeError, match="sub-env 1 observation_space must equal"):
        AsyncVectorEnv([lambda: ShortEpisodes(obs_kind="box"), ShortEpisodes], num_workers=2)


@pytest.mark.parametrize("timeout", [None, 10.0])
def test_killed_idle_worker_makes_the_next_call_raise(timeout: float | None) -> None:
    with no_leaks():
        envs = AsyncVectorEnv([ShortEpisodes] * 4, num_workers=2)
        envs.reset(seed=0)
        os.kill(envs._pool.pids[1], signal.SIGKILL)
        envs._pool.processes[1].join(5)
        start = time.monotonic()
        with within(5), pytest.raises(WorkerDiedError, match="worker 1 .*SIGKILL"):
            envs.step_async(np.zeros(4, dtype=np.int64))
            envs.step_wait(timeout=timeout)
        assert time.monotonic() - start < 2
        with pytest.raises(WorkerDiedError):
            envs.reset()
        envs.close()


def test_worker_killed_during_a_pending_step_raises_promptly() -> None:
    with no_leaks():
        envs = AsyncVectorEnv([functools.partial(Sleepy, 0.4)] * 2, num_workers=2)
        envs.reset(seed=0)
        envs.step_async(np.zeros(2, dtype=np.int64))
        time.sleep(0.05)
        os.kill(envs._pool.pids[0], signal.SIGKILL)
        start = time.monotonic()
        with within(5), pytest.raises(WorkerDiedError, match="worker 0"):
            envs.step_wait()
        assert time.monotonic() - start < 0.35, "the dead worker must be noticed before the live one answers"
        envs.close()


def test_dead_worker_is_detected_even_if_a_grandchild_holds_its_pipe() -> None:
    with no_leaks():
        envs = AsyncVectorEnv([Forking, Forking], num_workers=2)
        grandchildren = envs.get_attr("grandchild")
        try:
            envs.reset(seed=0)
            os.kill(envs._pool.pids[1], signal.SIGKILL)
            with within(5), pytest.raises(WorkerDiedError):
                envs.step(np.zeros(2, dtype=np.int64))
            envs.close()
        finally:
            for pid in grandchildren:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def test_hung_sub_env_times_out_and_close_terminates_it() -> None:
    with no_leaks():
        envs = AsyncVectorEnv([functools.partial(Sleepy, 0.0), functools.partial(Sleepy, 60.0)], num_workers=2)
        envs.reset(seed=0)
        envs.step_async(np.zeros(2, dtype=np.int64))
        start = time.monotonic()
        with pytest.raises(multiprocessing.TimeoutError, match="step_wait must receive"):
            envs.step_wait(timeout=0.2)
        assert 0.15 < time.monotonic() - start < 2
        with pytest.raises(AlreadyPendingCallError):
            envs.step_async(np.zeros(2, dtype=np.int64))
        start = time.monotonic()
        with within(10):
            envs.close(timeout=0.3)
        assert time.monotonic() - start < 5


def test_timed_out_wait_can_be_resumed() -> None:
    with no_leaks(), AsyncVectorEnv([functools.partial(Sleepy, 0.3)] * 2, num_workers=2) as envs:
        envs.reset(seed=0)
        envs.step_async(np.array([2, 2]))
        with pytest.raises(multiprocessing.TimeoutError):
            envs.step_wait(timeout=0.01)
        obs, rewards, *_ = envs.step_wait(timeout=10)
        assert obs.shape == (2, 2) and rewards.shape == (2,)
        envs.step(np.array([0, 0]))  # the pipes are still in step with the commands


def test_close_with_a_pending_call_and_terminate() -> None:
    with no_leaks():
        envs = AsyncVectorEnv([functools.partial(Sleepy, 0.1)] * 2, num_workers=2)
        envs.reset(seed=0)
        envs.step_async(np.zeros(2, dtype=np.int64))
        envs.close()
        envs = AsyncVectorEnv([ShortEpisodes] * 2, num_workers=2)
        envs.close(terminate=True)


def test_garbage_collected_env_leaves_no_workers() -> None:
    with no_leaks():
        gc.disable()
        try:
            envs = AsyncVectorEnv([ShortEpisodes] * 2, num_workers=2)
            envs.reset(seed=0)
            del envs  # the last reference: the workers are stopped at once, no cyclic GC needed
            assert workers_alive() == []
        finally:
            gc.enable()


def test_unpicklable_values_are_reported_clearly() -> None:
    factory = functools.partial(Echo, Discrete(2), Discrete(2))
    with no_leaks(), AsyncVectorEnv([factory] * 2, num_workers=1) as envs:
        envs.reset(seed=0)
        with pytest.raises(TypeError, match="call\\('generator'\\) results must be picklable"):
            envs.call("generator")
        with pytest.raises((AttributeError, TypeError, pickle.PicklingError)):
            envs.set_attr("payload", lambda: None)  # refused before anything is sent
        assert envs.get_attr("_t") == (0, 0), "failed calls leave the env usable"
