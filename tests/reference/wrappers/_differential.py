"""Run the same wrapper over our env and Gymnasium's (bit-identical seeded envs) and compare every output."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest


def assert_same(ours: Any, theirs: Any, *, exact: bool = True) -> None:
    """Assert two observations/rewards are equal (recursing into dicts and tuples)."""
    if isinstance(ours, dict):
        assert isinstance(theirs, dict) and list(ours) == list(theirs)
        for key in ours:
            assert_same(ours[key], theirs[key], exact=exact)
    elif isinstance(ours, tuple):
        assert isinstance(theirs, tuple) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            assert_same(a, b, exact=exact)
    elif exact:
        np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
        assert np.asarray(ours).dtype == np.asarray(theirs).dtype
    else:
        np.testing.assert_allclose(np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float), rtol=1e-6)


def compare_rollouts(
    ours: Any,
    theirs: Any,
    actions: Sequence[Any],
    *,
    seed: int = 0,
    exact: bool = True,
    compare_spaces: bool = True,
) -> None:
    """Reset both with ``seed``, step both with ``actions`` (resetting on episode end), compare everything."""
    if compare_spaces:
        assert repr(ours.observation_space) == repr(theirs.observation_space)
        assert repr(ours.action_space) == repr(theirs.action_space)
    obs_a, _ = ours.reset(seed=seed)
    obs_b, _ = theirs.reset(seed=seed)
    assert_same(obs_a, obs_b, exact=exact)
    for action in actions:
        a = ours.step(action)
        b = theirs.step(action)
        assert_same(a[0], b[0], exact=exact)
        assert_same(a[1], b[1], exact=exact)
        assert a[2:4] == b[2:4]
        if a[2] or a[3]:
            assert_same(ours.reset()[0], theirs.reset()[0], exact=exact)


def gym_env(name: str, **kwargs: Any) -> Any:
    """Gymnasium's raw classic-control env ``name`` (e.g. ``"CartPoleEnv"``)."""
    classic = pytest.importorskip("gymnasium.envs.classic_control")
    return getattr(classic, name)(**kwargs)


def gym_wrapper(name: str) -> Callable[..., Any]:
    """Gymnasium's wrapper class ``name``."""
    return getattr(pytest.importorskip("gymnasium.wrappers"), name)  # type: ignore[no-any-return]


def cartpole_actions(n: int = 60, seed: int = 0) -> list[int]:
    return np.random.default_rng(seed).integers(0, 2, n).tolist()  # type: ignore[no-any-return]


def pendulum_actions(n: int = 40, seed: int = 0, scale: float = 3.0) -> list[Any]:
    rng = np.random.default_rng(seed)
    return [rng.uniform(-scale, scale, size=(1,)).astype(np.float32) for _ in range(n)]
