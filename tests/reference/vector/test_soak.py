"""Soak tests (``-m slow``): long runs keep memory and file descriptors flat, in the parent and the workers."""

from __future__ import annotations

import gc
import os
import resource

import numpy as np
import pytest

from reference.vector import AsyncVectorEnv
from tests.reference.vector._helpers import ShortEpisodes
from tests.reference.vector._leaks import open_fds, workers_alive

pytestmark = pytest.mark.slow

PAGE = resource.getpagesize()


def rss(pid: int | str = "self") -> int:
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * PAGE


def fd_count(pid: int | str = "self") -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_100k_steps_keep_memory_and_file_descriptors_flat() -> None:
    # ShortEpisodes ends an episode every 1-4 steps and reports infos on every step, so the autoreset and the
    # pickled-info paths run constantly, not just the shared-memory fast path.
    envs = AsyncVectorEnv([ShortEpisodes] * 4, num_workers=2)
    pids = envs._pool.pids
    envs.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, 3, size=(1000, 4))
    samples = []
    for step in range(100_000):
        envs.step(actions[step % 1000])
        if step % 10_000 == 9_999:
            gc.collect()
            samples.append((rss(), fd_count(), [rss(pid) for pid in pids], [fd_count(pid) for pid in pids]))
    envs.close()
    print(f"\nRSS (MiB) parent / workers, fds parent / workers, every 10k steps:")
    for parent_rss, parent_fds, worker_rss, worker_fds in samples:
        workers = "/".join(f"{rss_ / 2**20:.1f}" for rss_ in worker_rss)
        print(f"  {parent_rss / 2**20:.1f} / {workers}  fds {parent_fds} / {worker_fds}")
    baseline, last = samples[1], samples[-1]  # the first 10k steps warm caches and allocators up
    assert last[0] - baseline[0] < 8 * 2**20, f"parent RSS grew: {[s[0] for s in samples]}"
    assert last[1] == baseline[1], f"parent fds changed: {[s[1] for s in samples]}"
    for worker, (start_rss, end_rss) in enumerate(zip(baseline[2], last[2], strict=True)):
        assert end_rss - start_rss < 8 * 2**20, f"worker {worker} RSS grew: {[s[2][worker] for s in samples]}"
    assert last[3] == baseline[3], f"worker fds changed: {[s[3] for s in samples]}"


def test_200_create_close_cycles_leave_nothing_behind() -> None:
    def cycle() -> None:
        with AsyncVectorEnv([ShortEpisodes] * 2, num_workers=2) as envs:
            envs.reset(seed=0)
            envs.step(np.zeros(2, dtype=np.int64))

    cycle()
    gc.collect()
    fds, memory = open_fds(), rss()
    for _ in range(200):
        cycle()
    gc.collect()
    assert workers_alive() == []
    assert open_fds() == fds
    assert rss() - memory < 16 * 2**20
