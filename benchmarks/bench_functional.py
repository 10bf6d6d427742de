"""Throughput of functional CartPole through ``FunctionalVectorEnv`` against Gymnasium's hand-vectorised CartPole.

Run: ``python -m benchmarks.bench_functional [--sizes 16 256 4096] [--repeat R] [--seconds S]``

For each ``num_envs`` N, ``make_vec("phys2d/CartPole-v1", num_envs=N)`` (ours: one batched ``FuncEnv`` call per
step, ``NEXT_STEP`` autoreset with masks) and ``gymnasium.make_vec("CartPole-v1", num_envs=N,
vectorization_mode="vector_entry_point")`` (Gymnasium's ``CartPoleVectorEnv``) step the same seeded batches of
random actions, so both reset the same share of sub-envs every step. envpool joins when it is installed. Targets
are timed in interleaved rounds (order swapped every round) so load drift hits all alike; the table shows the
median env-steps per second and the ratio to Gymnasium. Target: ratio >= 0.9 at N = 4096; the exit status is 1
when it is missed.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
from typing_extensions import TypeAlias

from benchmarks._timing import compare

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

_VectorEnv: TypeAlias = Any  # ours, Gymnasium's or envpool's
_TARGET_SIZE = 4096
_TARGET_RATIO = 0.9
_ACTION_BATCHES = 64


def _stepper(env: _VectorEnv, actions: list[np.ndarray[Any, Any]]) -> Callable[[], object]:
    """A zero-argument callable stepping ``env`` with the next action batch (cycling)."""
    env.reset(seed=0)
    step = env.step
    count = len(actions)
    state = [0]

    def run() -> object:
        i = state[0]
        state[0] = i + 1
        return step(actions[i % count])

    return run


def _envpool(num_envs: int) -> _VectorEnv | None:
    if importlib.util.find_spec("envpool") is None:
        return None
    import envpool  # pyright: ignore[reportMissingImports] - optional, absent in CI

    return envpool.make("CartPole-v1", env_type="gymnasium", num_envs=num_envs, seed=0)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table.

    Args:
        argv: Command-line arguments (default: ``sys.argv[1:]``).

    Returns:
        0 when the N = 4096 target is met (or not measured), else 1.
    """
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 256, _TARGET_SIZE])
    parser.add_argument("--repeat", type=int, default=9, help="interleaved rounds per target (median taken)")
    parser.add_argument("--env-steps", type=int, default=400_000, help="env-steps per timed round and target")
    args = parser.parse_args(argv)

    import gymnasium

    from reference.envs.functional import register_functional_envs
    from reference.registration import make_vec

    register_functional_envs()
    have_envpool = importlib.util.find_spec("envpool") is not None
    print(f"numpy {np.__version__}, gymnasium {gymnasium.__version__}, envpool {'installed' if have_envpool else 'not installed'}")
    header = f"{'N':>6}  {'ours steps/s':>14}  {'gymnasium steps/s':>18}  {'ratio':>6}"
    if have_envpool:
        header += f"  {'envpool steps/s':>16}  {'ours/envpool':>12}"
    print(header)
    print("-" * len(header))
    target_ok = True
    for n in args.sizes:
        rng = np.random.default_rng(n)
        actions = [rng.integers(0, 2, size=n) for _ in range(_ACTION_BATCHES)]
        ours = make_vec("phys2d/CartPole-v1", num_envs=n)
        theirs = gymnasium.make_vec("CartPole-v1", num_envs=n, vectorization_mode="vector_entry_point")
        pool = _envpool(n)
        number = max(20, args.env_steps // n)
        cases = {"gymnasium": (_stepper(ours, actions), _stepper(theirs, actions))}
        if pool is not None:
            cases["envpool"] = (_stepper(ours, actions), _stepper(pool, actions))
        rows = {row.name: row for row in compare(cases, repeat=args.repeat, number=number)}
        gym_row = rows["gymnasium"]
        ratio = gym_row.theirs / gym_row.ours
        line = f"{n:>6}  {n / gym_row.ours:>14,.0f}  {n / gym_row.theirs:>18,.0f}  {ratio:>6.2f}"
        if "envpool" in rows:
            pool_row = rows["envpool"]
            line += f"  {n / pool_row.theirs:>16,.0f}  {pool_row.theirs / pool_row.ours:>12.2f}"
        print(line)
        if n == _TARGET_SIZE and ratio < _TARGET_RATIO:
            target_ok = False
        ours.close()
        theirs.close()
        if pool is not None:
            pool.close()
    print(f"ratio = ours / gymnasium env-steps per second; target at N={_TARGET_SIZE}: >= {_TARGET_RATIO}")
    if not target_ok:
        print(f"TARGET MISSED at N={_TARGET_SIZE}")
    return 0 if target_ok else 1


if __name__ == "__main__":
    sys.exit(main())
