"""Run the same wrapper over our env and Gymnasium's (bit-identical seeded envs) and compare every output."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from tests.reference._equality import assert_identical


def _compare(ours: Any, theirs: Any, exact: bool, where: str) -> None:
    if exact:
        assert_identical(ours, theirs, where, key_order=True)
    else:
        # Running statistics accumulate in a different order than Gymnasium's: equal within rounding only, which
        # conformance.equality (exact by design) does not express. The values compared are arrays or numbers.
        np.testing.assert_allclose(np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float), rtol=1e-6, err_msg=where)


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
    _compare(obs_a, obs_b, exact, "reset: observation")
    for index, action in enumerate(actions):
        a = ours.step(action)
        b = theirs.step(action)
        _compare(a[0], b[0], exact, f"step {index}: observation")
        # Python and NumPy float rewards are interchangeable (Gymnasium mixes them): compare them as arrays.
        _compare(np.asarray(a[1]), np.asarray(b[1]), exact, f"step {index}: reward")
        assert a[2:4] == b[2:4]
        if a[2] or a[3]:
            _compare(ours.reset()[0], theirs.reset()[0], exact, f"reset after step {index}: observation")


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
