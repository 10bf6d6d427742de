"""Tests for reference.utils.env_checker: check_env finds what Gymnasium's finds, with Gymnasium's exception types."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference
from reference.utils.env_checker import check_env, check_space_limit, data_equivalence
from tests.reference.utils._broken import good_reset, make_env

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils import env_checker as gym_checker  # noqa: E402

pytestmark = pytest.mark.gymnasium


def _no_super_reset(self: Any, *, seed: int | None = None, options: Any = None) -> Any:
    return self.observation_space.sample(), {}


def _fixed_seed_reset(self: Any, *, seed: int | None = None, options: Any = None) -> Any:
    base: Any = type(self).__mro__[1]
    base.reset(self, seed=1)
    return np.zeros(2, np.float32), {}


def _reset_without_seed(self: Any) -> Any:
    return np.zeros(2, np.float32), {}


def _reset_list(self: Any, *, seed: int | None = None, options: Any = None) -> Any:
    good_reset(self, seed=seed)
    return [np.zeros(2, np.float32), {}]


def _reset_outside(self: Any, *, seed: int | None = None, options: Any = None) -> Any:
    good_reset(self, seed=seed)
    return np.full(2, 5.0, np.float32), {}


def _reset_info_list(self: Any, *, seed: int | None = None, options: Any = None) -> Any:
    good_reset(self, seed=seed)
    return np.zeros(2, np.float32), []


def _random_step(self: Any, action: Any) -> Any:
    return np.random.uniform(0, 1, 2).astype(np.float32), 0.0, False, False, {}


def _reused_obs_step(self: Any, action: Any) -> Any:
    if not hasattr(self, "buffer"):
        self.buffer = np.zeros(2, np.float32)
    return self.buffer, 0.0, False, False, {}


DEFECTS: dict[str, dict[str, Any]] = {
    "reset ignores seed": {"reset": _no_super_reset},
    "reset seeds a fixed value": {"reset": _fixed_seed_reset},
    "reset takes no seed": {"reset": _reset_without_seed},
    "reset returns a list": {"reset": _reset_list},
    "reset obs outside the space": {"reset": _reset_outside},
    "reset info not a dict": {"reset": _reset_info_list},
    "step is random": {"step": _random_step},
    "step reuses its obs buffer": {"step": _reused_obs_step},
    "no action space": {"action_space": None},
    "no observation space": {"observation_space": None},
}


def _kind(exc: BaseException) -> type[BaseException]:
    """The most specific type both frameworks share: a builtin, or the error base of either package."""
    if isinstance(exc, (reference.error.Error, gymnasium.error.Error)) and not isinstance(exc, AssertionError):
        return Exception  # each package's own Error
    for builtin in (AssertionError, AttributeError, TypeError, ValueError):
        if isinstance(exc, builtin):
            return builtin
    return type(exc)


def _outcome(check: Any, env: Any) -> type[BaseException] | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            check(env)
        except Exception as exc:  # noqa: BLE001 - the type is the result
            return _kind(exc)
    return None


@pytest.mark.parametrize("defect", list(DEFECTS))
def test_check_env_fails_where_gymnasium_fails_with_its_exception_type(defect: str) -> None:
    ours = _outcome(
        lambda e: check_env(e, skip_render_check=True), make_env(reference, reference.spaces, **DEFECTS[defect])
    )
    theirs = _outcome(
        lambda e: gym_checker.check_env(e, skip_render_check=True),
        make_env(gymnasium, gymnasium.spaces, **DEFECTS[defect]),
    )
    assert theirs is not None, "the defect should fail Gymnasium's checker"
    assert ours is theirs


def test_a_non_environment_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="check_env env must be an instance of a reference.Env"):
        check_env("not an env")  # type: ignore[arg-type]


def _warnings(check: Any, env: Any) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(env)
    return sorted({str(w.message) for w in caught})


@pytest.mark.parametrize("env_id", ["CartPole-v1", "FrozenLake-v1", "Pendulum-v1", "Blackjack-v1", "Acrobot-v1"])
def test_builtin_environments_pass_with_gymnasiums_warnings(env_id: str) -> None:
    """Only the space-limit advice, exactly as Gymnasium gives it for its own copy of the environment."""
    ours = _warnings(check_env, reference.make(env_id).unwrapped)
    theirs = _warnings(gym_checker.check_env, gymnasium.make(env_id).unwrapped)
    assert ours == theirs
    assert all("infinity" in m or "we recommend using a symmetric" in m for m in ours)


def test_warn_argument_and_wrapped_env_warn() -> None:
    with pytest.warns(UserWarning, match="parameter is now ignored"):
        check_env(reference.make("FrozenLake-v1").unwrapped, warn=True, skip_render_check=True)
    with pytest.warns(UserWarning, match="different from the unwrapped version"):
        check_env(reference.make("FrozenLake-v1"), skip_render_check=True)


def test_space_limit_warnings_match_gymnasium() -> None:
    cases = [(-np.inf, 1.0, "observation"), (0.0, np.inf, "observation"), (-2.0, 3.0, "action"), (-1.0, 1.0, "action")]
    for low, high, role in cases:
        with warnings.catch_warnings(record=True) as ours:
            warnings.simplefilter("always")
            check_space_limit(reference.spaces.Box(low, high, (2,), dtype=np.float32), role)
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            gym_checker.check_space_limit(gymnasium.spaces.Box(low, high, (2,), dtype=np.float32), role)
        assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]


_LEAVES = st.one_of(
    st.integers(-3, 3),
    st.floats(-2, 2, allow_nan=False),
    st.booleans(),
    st.text(max_size=2),
    st.lists(st.floats(-1, 1), min_size=1, max_size=3).map(np.array),
    st.lists(st.integers(0, 3), min_size=1, max_size=3).map(lambda v: np.array(v, dtype=np.int8)),
)
_DATA = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=3)
    | st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(st.sampled_from("abc"), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(a=_DATA, b=_DATA, exact=st.booleans())
def test_data_equivalence_matches_gymnasium(a: Any, b: Any, exact: bool) -> None:
    assert data_equivalence(a, b, exact) == gym_checker.data_equivalence(a, b, exact)
    assert data_equivalence(a, a, exact)
