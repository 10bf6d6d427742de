"""Step cost of ``make("CartPole-v1")`` (all wrappers ``make`` adds) against the raw env and against Gymnasium.

Run: ``python benchmarks/bench_make.py [--steps N] [--repeats R]``

One timed call runs ``N`` steps of a fixed seeded action sequence, resetting whenever an episode ends (so reset
cost is included, amortised over CartPole's ~20-step random-action episodes); the figure is seconds per step.
Each case pairs two targets and times them in interleaved rounds (``benchmarks._timing.compare``), so load drift
on a shared machine hits both alike; the figures are medians over the rounds.

Targets (issue 6): our make-wrapped step <= 1.10x our raw step, and <= 0.90x Gymnasium's make-wrapped step.
The other rows are context: what the checker costs, the floor any pure-Python layer pays (a pass-through that
only counts steps), and how the raw environments compare. The exit status is 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np

if __package__ in (None, ""):  # run as a script: make ``benchmarks._timing`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import Row, compare, print_table

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__all__ = ["main", "run"]

_AnyEnv: TypeAlias = Any
_MAKE_VS_RAW = 1.10
_MAKE_VS_GYMNASIUM = 0.90


class _CountingPassThrough:
    """The cheapest Python layer a time limit can be: forward ``step``/``reset`` and count steps.

    Not a wrapper anyone should use; it measures the floor that any pure-Python ``make`` stack pays per step
    before it checks anything, which puts the make/raw target in context.
    """

    def __init__(self, env: _AnyEnv) -> None:
        self._step = env.step
        self._reset = env.reset
        self.elapsed = 0

    def step(self, action: int) -> _AnyEnv:
        self.elapsed += 1
        return self._step(action)

    def reset(self, *, seed: int | None = None) -> _AnyEnv:
        self.elapsed = 0
        return self._reset(seed=seed)

    def close(self) -> None:
        pass


def _factories() -> dict[str, Callable[[], _AnyEnv]]:
    import gymnasium
    from gymnasium.envs.classic_control import CartPoleEnv as GymCartPole

    import reference.envs  # noqa: F401 - registers CartPole-v1
    from reference.envs.classic_control.cartpole import CartPoleEnv
    from reference.registration import make

    return {
        "raw": CartPoleEnv,
        "make": lambda: make("CartPole-v1"),
        "make, no checker": lambda: make("CartPole-v1", disable_env_checker=True),
        "counting pass-through": lambda: _CountingPassThrough(CartPoleEnv()),
        "gymnasium raw": GymCartPole,
        "gymnasium make": lambda: gymnasium.make("CartPole-v1"),
    }


def _rollout(env: _AnyEnv, actions: list[int]) -> Callable[[], object]:
    """A callable that steps ``env`` through ``actions``, resetting whenever an episode ends."""
    env.reset(seed=0)

    def roll() -> None:
        # Looked up per call, not once: the first reset may rebind them (make's fast path).
        step, reset = env.step, env.reset
        for action in actions:
            _, _, terminated, truncated, _ = step(action)
            if terminated or truncated:
                reset()

    return roll


def run(steps: int, repeats: int) -> tuple[list[Row], list[Row]]:
    """Measure the cases.

    Args:
        steps: Steps per timed call.
        repeats: Interleaved rounds per case.

    Returns:
        ``(vs_raw, vs_gymnasium)``: rows whose ratio is against our raw env, and against Gymnasium's make.
        Times are seconds per step.
    """
    actions = np.random.default_rng(0).integers(0, 2, size=steps).tolist()
    envs = {name: factory() for name, factory in _factories().items()}
    rollouts = {name: _rollout(env, actions) for name, env in envs.items()}
    for roll in rollouts.values():  # warm-up: imports, first-call checks, caches
        roll()

    def rows(cases: dict[str, tuple[str, str]]) -> list[Row]:
        pairs = {name: (rollouts[ours], rollouts[theirs]) for name, (ours, theirs) in cases.items()}
        return [Row(r.name, r.ours / steps, r.theirs / steps) for r in compare(pairs, repeat=repeats, number=1)]

    vs_raw = rows({
        "make / raw": ("make", "raw"),
        "make, no checker / raw": ("make, no checker", "raw"),
        "counting pass-through / raw": ("counting pass-through", "raw"),
    })
    vs_gymnasium = rows({
        "make / gymnasium make": ("make", "gymnasium make"),
        "raw / gymnasium raw": ("raw", "gymnasium raw"),
    })
    for env in envs.values():
        env.close()
    return vs_raw, vs_gymnasium


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the tables.

    Args:
        argv: Command-line arguments (defaults to ``sys.argv[1:]``).

    Returns:
        0 when both targets are met, else 1.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--steps", type=int, default=20_000, help="steps per timed call")
    parser.add_argument("--repeats", type=int, default=15, help="interleaved rounds per case")
    args = parser.parse_args(argv)

    vs_raw, vs_gymnasium = run(args.steps, args.repeats)
    print(f"CartPole-v1 step cost (resets included): {args.steps} steps x {args.repeats} interleaved rounds, medians")
    print_table([*vs_raw, *vs_gymnasium], ours="ours", theirs="baseline")
    ok_raw = vs_raw[0].ratio <= _MAKE_VS_RAW
    ok_gym = vs_gymnasium[0].ratio <= _MAKE_VS_GYMNASIUM
    print(f"target make/raw <= {_MAKE_VS_RAW:.2f}: {vs_raw[0].ratio:.3f} {'PASS' if ok_raw else 'FAIL'}")
    print(
        f"target make/gymnasium make <= {_MAKE_VS_GYMNASIUM:.2f}: {vs_gymnasium[0].ratio:.3f} "
        f"{'PASS' if ok_gym else 'FAIL'}"
    )
    return 0 if ok_raw and ok_gym else 1


if __name__ == "__main__":
    sys.exit(main())
