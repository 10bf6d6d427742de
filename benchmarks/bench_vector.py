"""Vector environment throughput: our Sync/AsyncVectorEnv against Gymnasium's, measured in the same run.

Run: ``python -m benchmarks.bench_vector [--rounds R] [--seconds S]``

Cases (env-steps per second, higher is better; the ratio is ours / baseline):

* CartPole-v1 dynamics at N = 2, 4, 8, 16 with ``SyncVectorEnv`` and ``AsyncVectorEnv`` (ours over the reference
  ``CartPoleEnv``, Gymnasium's over Gymnasium's ``CartPoleEnv``; default options, fork context);
* ours ``SyncVectorEnv`` at N=16 against a plain serial loop over 16 raw reference envs that does the same work by
  hand (step, reset ended envs, write observations/rewards/flags into preallocated arrays), and, for information,
  against a bare loop that batches nothing;
* ours ``AsyncVectorEnv`` at N=16 against envpool's C++ ``CartPole-v1`` (threads, same batch size), when envpool is
  installed (``pip install envpool``; the row is skipped otherwise);
* a 210x160x3 uint8 image-observation env (twins defined below for both libraries) with ``AsyncVectorEnv`` at N=4;
* construct + first ``reset`` of an N=8 CartPole ``AsyncVectorEnv`` (fork), in milliseconds (lower is better).

Every case is measured in interleaved rounds (ours and the baseline take turns in short timed chunks, swapping
order every round) so load drift on a shared machine hits both alike; each figure is the median over the chunks.
The targets are checked at the end; the exit status is 1 when one is missed.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, SupportsFloat, TypeAlias

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

_Vec: TypeAlias = Any
_Info: TypeAlias = dict[str, Any]
_Obs: TypeAlias = Any
_SIZES = (2, 4, 8, 16)
_IMAGE_SHAPE = (210, 160, 3)


# --- the image-observation env, once per library ------------------------------------------------------------------


class _ImageLogic:
    """An Atari-sized env: every step paints one row and returns a fresh 210x160x3 frame; 100-step episodes."""

    if TYPE_CHECKING:  # the Env it is mixed into provides it, as a property

        @property
        def np_random(self) -> np.random.Generator: ...
        @np_random.setter
        def np_random(self, value: np.random.Generator) -> None: ...

    def _setup(self, spaces: Any) -> None:
        self.observation_space = spaces.Box(0, 255, _IMAGE_SHAPE, dtype=np.uint8)
        self.action_space = spaces.Discrete(4)
        self._frame = np.zeros(_IMAGE_SHAPE, dtype=np.uint8)
        self._t = 0

    def reset(self, *, seed: int | None = None, options: _Info | None = None) -> tuple[_Obs, _Info]:
        super().reset(seed=seed)  # type: ignore[misc]
        self._frame[:] = self.np_random.integers(0, 255)
        self._t = 0
        return self._frame.copy(), {}

    def step(self, action: Any) -> tuple[_Obs, SupportsFloat, bool, bool, _Info]:
        self._t += 1
        self._frame[self._t % _IMAGE_SHAPE[0]] = (int(action) * 60 + self._t) % 256
        return self._frame.copy(), 1.0, False, self._t >= 100, {}


def _image_env_classes() -> tuple[type, type]:
    import gymnasium

    from reference.core import Env
    from reference.spaces import Box, Discrete

    class RefImageEnv(_ImageLogic, Env[Any, Any]):
        def __init__(self) -> None:
            self._setup(type("spaces", (), {"Box": Box, "Discrete": Discrete}))

    class GymImageEnv(_ImageLogic, gymnasium.Env[Any, Any]):
        def __init__(self) -> None:
            self._setup(gymnasium.spaces)

    return RefImageEnv, GymImageEnv


# --- measurement --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """One table row: medians over rounds, and the target the ratio must meet."""

    name: str
    ours: float
    baseline: float
    unit: str
    target: float
    higher_is_better: bool = True
    paired_ratio: float | None = None

    @property
    def ratio(self) -> float:
        """The median of the per-round ratios when measured in pairs, else the ratio of the medians."""
        return self.ours / self.baseline if self.paired_ratio is None else self.paired_ratio

    @property
    def ok(self) -> bool:
        return self.ratio >= self.target if self.higher_is_better else self.ours <= self.target


class _Stepper:
    """A vector env (or the plain loop) reset once and stepped in timed chunks."""

    def __init__(self, make: Callable[[], _Vec], actions: np.ndarray[Any, Any]) -> None:
        self.envs = make()
        self.envs.reset(seed=0)
        self.actions = actions
        self.chunk = len(actions)
        self.samples: list[float] = []

    def calibrate(self, seconds: float) -> None:
        """Pick how many steps one timed chunk takes so that it lasts about ``seconds``."""
        start = time.perf_counter()
        self.run(len(self.actions))
        per_step = (time.perf_counter() - start) / len(self.actions)
        self.chunk = max(1, int(seconds / per_step))

    def run(self, steps: int) -> None:
        step, actions, count = self.envs.step, self.actions, len(self.actions)
        for index in range(steps):
            step(actions[index % count])

    def timed_chunk(self) -> None:
        gc.disable()
        try:
            start = time.perf_counter()
            self.run(self.chunk)
            elapsed = time.perf_counter() - start
        finally:
            gc.enable()
        self.samples.append(self.chunk * self.actions.shape[1] / elapsed)

    def close(self) -> None:
        self.envs.close()


def _interleaved(
    ours_make: Callable[[], _Vec],
    baseline_make: Callable[[], _Vec],
    actions: np.ndarray[Any, Any],
    rounds: int,
    seconds: float,
) -> tuple[float, float, float]:
    """Median env-steps/s of both sides, over ``rounds`` alternating chunks of about ``seconds`` each.

    Both sides live for the whole measurement and take turns every chunk, so a load spike on the shared machine
    lands on one chunk of each rather than on one side's whole measurement. The ratio is the median of the
    per-round ratios (each from two adjacent chunks), which cancels slow drift best.
    """
    ours, baseline = _Stepper(ours_make, actions), _Stepper(baseline_make, actions)
    try:
        ours.calibrate(seconds)
        baseline.calibrate(seconds)
        for index in range(rounds):
            first, second = (ours, baseline) if index % 2 == 0 else (baseline, ours)
            first.timed_chunk()
            second.timed_chunk()
        ratios = [a / b for a, b in zip(ours.samples, baseline.samples, strict=True)]
        return statistics.median(ours.samples), statistics.median(baseline.samples), statistics.median(ratios)
    finally:
        ours.close()
        baseline.close()


class _EnvPool:
    """envpool's C++ CartPole-v1 batch (its own thread pool) behind the stepper's reset/step/close calls."""

    def __init__(self, n: int) -> None:
        import envpool  # pyright: ignore[reportMissingImports] - optional, absent in CI

        self.env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=n, seed=0)

    def reset(self, *, seed: int) -> None:
        self.env.reset()

    def step(self, actions: np.ndarray[Any, Any]) -> None:
        self.env.step(actions)

    def close(self) -> None:
        self.env.close()


def _has_envpool() -> bool:
    try:
        import envpool  # noqa: F401  # pyright: ignore[reportMissingImports] - optional, absent in CI
    except ImportError:
        return False
    return True


class _PlainLoop:
    """The hand-written baseline: raw envs stepped in a loop, outputs written into preallocated arrays."""

    def __init__(self, n: int) -> None:
        from reference.envs.classic_control.cartpole import CartPoleEnv

        self.envs = [CartPoleEnv() for _ in range(n)]
        self.obs = np.zeros((n, 4), dtype=np.float32)
        self.rewards = np.zeros(n)
        self.terminations = np.zeros(n, dtype=np.bool_)
        self.truncations = np.zeros(n, dtype=np.bool_)

    def reset(self, *, seed: int) -> None:
        for i, env in enumerate(self.envs):
            self.obs[i] = env.reset(seed=seed + i)[0]

    def step(self, actions: np.ndarray[Any, Any]) -> None:
        obs, rewards, terminations, truncations = self.obs, self.rewards, self.terminations, self.truncations
        for i, env in enumerate(self.envs):
            observation, reward, terminated, truncated, _ = env.step(actions[i])
            if terminated or truncated:
                observation, _ = env.reset()
            obs[i] = observation
            rewards[i] = reward
            terminations[i] = terminated
            truncations[i] = truncated

    def close(self) -> None:
        for env in self.envs:
            env.close()


class _BareLoop(_PlainLoop):
    """For reference only: steps and resets the raw envs but batches nothing (no outputs are kept)."""

    def step(self, actions: np.ndarray[Any, Any]) -> None:
        for i, env in enumerate(self.envs):
            _, _, terminated, truncated, _ = env.step(actions[i])
            if terminated or truncated:
                env.reset()


def _alternating(ours: Callable[[], float], baseline: Callable[[], float], rounds: int) -> tuple[float, float]:
    ours_samples, baseline_samples = [], []
    for index in range(rounds):
        if index % 2:
            baseline_samples.append(baseline())
            ours_samples.append(ours())
        else:
            ours_samples.append(ours())
            baseline_samples.append(baseline())
    return statistics.median(ours_samples), statistics.median(baseline_samples)


def _construct_and_reset(make: Callable[[], _Vec]) -> float:
    start = time.perf_counter()
    envs = make()
    envs.reset(seed=0)
    elapsed = time.perf_counter() - start
    envs.close()
    return elapsed * 1e3


def run(rounds: int, seconds: float) -> list[Result]:
    """Measure every case.

    Args:
        rounds: Interleaved rounds per case.
        seconds: Minimum stepping time per measurement.

    Returns:
        The table rows.
    """
    import gymnasium
    from gymnasium.envs.classic_control.cartpole import CartPoleEnv as GymCartPole

    from reference.envs.classic_control.cartpole import CartPoleEnv
    from reference.vector import AsyncVectorEnv, SyncVectorEnv

    rng = np.random.default_rng(0)
    results = []
    for n in _SIZES:
        actions = rng.integers(0, 2, size=(64, n))
        ours, theirs, ratio = _interleaved(
            lambda: SyncVectorEnv([CartPoleEnv] * n),
            lambda: gymnasium.vector.SyncVectorEnv([GymCartPole] * n),
            actions,
            rounds,
            seconds,
        )
        results.append(
            Result(f"CartPole Sync  N={n:<2} vs gymnasium", ours, theirs, "steps/s", 1.2 if n == 16 else 0, True, ratio)
        )
    actions16 = rng.integers(0, 2, size=(64, 16))
    ours, plain, ratio = _interleaved(
        lambda: SyncVectorEnv([CartPoleEnv] * 16), lambda: _PlainLoop(16), actions16, rounds, seconds
    )
    results.append(Result("CartPole Sync  N=16 vs plain loop", ours, plain, "steps/s", 0.95, True, ratio))
    ours, bare, ratio = _interleaved(
        lambda: SyncVectorEnv([CartPoleEnv] * 16), lambda: _BareLoop(16), actions16, rounds, seconds
    )
    results.append(Result("CartPole Sync  N=16 vs bare loop (info)", ours, bare, "steps/s", 0, True, ratio))
    for n in _SIZES:
        actions = rng.integers(0, 2, size=(64, n))
        ours, theirs, ratio = _interleaved(
            lambda: AsyncVectorEnv([CartPoleEnv] * n),
            lambda: gymnasium.vector.AsyncVectorEnv([GymCartPole] * n),
            actions,
            rounds,
            seconds,
        )
        results.append(
            Result(f"CartPole Async N={n:<2} vs gymnasium", ours, theirs, "steps/s", 10 if n == 16 else 0, True, ratio)
        )
    if _has_envpool():
        ours, theirs, ratio = _interleaved(
            lambda: AsyncVectorEnv([CartPoleEnv] * 16), lambda: _EnvPool(16), actions16, rounds, seconds
        )
        results.append(Result("CartPole Async N=16 vs envpool", ours, theirs, "steps/s", 0.8, True, ratio))
    else:
        print("envpool is not installed: the envpool row is skipped (pip install envpool)", file=sys.stderr)
    ref_image, gym_image = _image_env_classes()
    image_actions = rng.integers(0, 4, size=(64, 4))
    ours, theirs, ratio = _interleaved(
        lambda: AsyncVectorEnv([ref_image] * 4),
        lambda: gymnasium.vector.AsyncVectorEnv([gym_image] * 4),
        image_actions,
        rounds,
        seconds,
    )
    results.append(Result("Image 210x160x3 Async N=4 vs gymnasium", ours, theirs, "steps/s", 1.5, True, ratio))
    ours_ms, theirs_ms = _alternating(
        lambda: _construct_and_reset(lambda: AsyncVectorEnv([CartPoleEnv] * 8, context="fork")),
        lambda: _construct_and_reset(lambda: gymnasium.vector.AsyncVectorEnv([GymCartPole] * 8, context="fork")),
        max(rounds // 2, 5),
    )
    results.append(Result("Async construct+reset N=8 (fork)", ours_ms, theirs_ms, "ms", 50.0, higher_is_better=False))
    return results


def print_results(results: list[Result]) -> bool:
    """Print the table; return whether every target is met."""
    width = max(len(r.name) for r in results)
    header = f"{'case':<{width}}  {'ours':>12}  {'baseline':>12}  {'ratio':>7}  target"
    print(header)
    print("-" * len(header))
    all_ok = True
    for r in results:
        if r.higher_is_better:
            target = f">= {r.target:g}x" if r.target else ""
        else:
            target = f"<= {r.target:g} {r.unit}"
        mark = "" if r.ok else "  MISSED"
        all_ok = all_ok and r.ok
        print(f"{r.name:<{width}}  {r.ours:>12,.1f}  {r.baseline:>12,.1f}  {r.ratio:>6.2f}x  {target}{mark}")
    print("(steps/s = env-steps per second, median over chunks; ratio = median of paired per-round ours/baseline;")
    print(" construct+reset in ms, median over rounds)")
    return all_ok


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table.

    Args:
        argv: Command-line arguments (``sys.argv[1:]`` when ``None``).

    Returns:
        0 when every target is met, else 1.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=20, help="alternating timed chunks per side and case")
    parser.add_argument("--seconds", type=float, default=0.05, help="length of one timed chunk (default 0.05 s)")
    args = parser.parse_args(argv)
    return 0 if print_results(run(args.rounds, args.seconds)) else 1


if __name__ == "__main__":
    sys.exit(main())
