"""Step cost of ``make("CartPole-v1")`` (all wrappers ``make`` adds) against the raw env and against Gymnasium.

Run: ``python benchmarks/bench_make.py [--steps N] [--repeats R]``

Every target steps the same seeded action sequence (resetting whenever an episode ends); targets are measured in
interleaved rounds so machine-load drift hits all of them alike, and the table reports the median per round.
Targets (checked at the end): our make-wrapped step <= 1.10x our raw step, and <= 0.90x Gymnasium's make-wrapped
step. The exit status is 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

_AnyEnv: TypeAlias = Any
_MAKE_VS_RAW = 1.10
_MAKE_VS_GYMNASIUM = 0.90


def _targets() -> dict[str, Callable[[], _AnyEnv]]:
    import gymnasium
    from gymnasium.envs.classic_control import CartPoleEnv as GymCartPole

    import reference.envs  # noqa: F401 - registers CartPole-v1
    from reference.envs.classic_control.cartpole import CartPoleEnv
    from reference.registration import make

    return {
        "reference raw CartPoleEnv": CartPoleEnv,
        "reference make('CartPole-v1')": lambda: make("CartPole-v1"),
        "reference make(..., no checker)": lambda: make("CartPole-v1", disable_env_checker=True),
        "gymnasium raw CartPoleEnv": GymCartPole,
        "gymnasium make('CartPole-v1')": lambda: gymnasium.make("CartPole-v1"),
    }


def _time_steps(env: _AnyEnv, actions: list[int]) -> float:
    """Seconds per step over ``actions``, resetting whenever an episode ends."""
    step, reset = env.step, env.reset
    reset(seed=0)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        for action in actions:
            _, _, terminated, truncated, _ = step(action)
            if terminated or truncated:
                reset()
        elapsed = time.perf_counter() - start
    finally:
        if gc_was_enabled:
            gc.enable()
    return elapsed / len(actions)


def run(steps: int, repeats: int) -> dict[str, float]:
    """Measure every target and return the median seconds per step by target name.

    Args:
        steps: Steps per measurement.
        repeats: Interleaved measurement rounds.

    Returns:
        Median seconds per step for each target.
    """
    actions = np.random.default_rng(0).integers(0, 2, size=steps).tolist()
    envs = {name: factory() for name, factory in _targets().items()}
    for env in envs.values():  # warm-up: imports, first-call checks, caches
        _time_steps(env, actions[: min(2000, steps)])
    samples: dict[str, list[float]] = {name: [] for name in envs}
    for round_index in range(repeats):
        # Rotate the order each round so no target always runs first (or last) in a round.
        names = list(envs)
        names = names[round_index % len(names) :] + names[: round_index % len(names)]
        for name in names:
            samples[name].append(_time_steps(envs[name], actions))
    for env in envs.values():
        env.close()
    return {name: statistics.median(values) for name, values in samples.items()}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table.

    Args:
        argv: Command-line arguments (defaults to ``sys.argv[1:]``).

    Returns:
        0 when both targets are met, else 1.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--steps", type=int, default=20_000, help="steps per measurement")
    parser.add_argument("--repeats", type=int, default=15, help="interleaved rounds")
    args = parser.parse_args(argv)

    medians = run(args.steps, args.repeats)
    ours_raw = medians["reference raw CartPoleEnv"]
    ours_make = medians["reference make('CartPole-v1')"]
    gym_make = medians["gymnasium make('CartPole-v1')"]

    print(f"CartPole-v1 step cost: {args.steps} steps x {args.repeats} interleaved rounds, median per round")
    print(f"{'target':<34} {'us/step':>9} {'vs our raw':>11} {'vs gym make':>12}")
    for name, seconds in medians.items():
        print(f"{name:<34} {seconds * 1e6:>9.3f} {seconds / ours_raw:>10.3f}x {seconds / gym_make:>11.3f}x")

    make_vs_raw = ours_make / ours_raw
    make_vs_gym = ours_make / gym_make
    ok_raw = make_vs_raw <= _MAKE_VS_RAW
    ok_gym = make_vs_gym <= _MAKE_VS_GYMNASIUM
    print(f"target make/raw <= {_MAKE_VS_RAW:.2f}: {make_vs_raw:.3f} {'PASS' if ok_raw else 'FAIL'}")
    print(f"target make/gymnasium make <= {_MAKE_VS_GYMNASIUM:.2f}: {make_vs_gym:.3f} {'PASS' if ok_gym else 'FAIL'}")
    return 0 if ok_raw and ok_gym else 1


if __name__ == "__main__":
    sys.exit(main())
