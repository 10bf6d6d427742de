"""Tests for reference.utils.passive_env_checker: the same warnings and exception types as Gymnasium's functions."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import reference
from reference.utils import passive_env_checker as ours_checker
from tests.reference.utils._broken import good_reset, make_env
from tests.reference.utils.test_env_checker import _kind

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils import passive_env_checker as gym_checker  # noqa: E402

pytestmark = pytest.mark.gymnasium


def _step_returning(value: Any) -> Any:
    def step(self: Any, action: Any) -> Any:
        return value(self) if callable(value) else value

    return step


def _obs(self: Any) -> Any:
    return np.zeros(2, np.float32)


STEP_DEFECTS = {
    "not a tuple": "error",
    "three values": (1, 2, 3),
    "old 4-tuple": lambda self: (_obs(self), 0.0, False, {}),
    "old 4-tuple, done not bool": lambda self: (_obs(self), 0.0, "no", {}),
    "terminated not bool": lambda self: (_obs(self), 0.0, "no", False, {}),
    "truncated not bool": lambda self: (_obs(self), 0.0, False, 1, {}),
    "reward a string": lambda self: (_obs(self), "r", False, False, {}),
    "reward NaN": lambda self: (_obs(self), float("nan"), False, False, {}),
    "reward inf": lambda self: (_obs(self), np.inf, False, False, {}),
    "info a string": lambda self: (_obs(self), 0.0, False, False, "info"),
    "obs a list": lambda self: ([0.0, 0.0], 0.0, False, False, {}),
    "obs float64": lambda self: (np.zeros(2), 0.0, False, False, {}),
    "obs outside": lambda self: (np.full(2, 9, np.float32), 0.0, False, False, {}),
}


def _run(check: Any) -> tuple[type[BaseException] | None, list[type[Warning]]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            check()
        except Exception as exc:  # noqa: BLE001 - the type is the result
            return _kind(exc), sorted({w.category for w in caught}, key=str)
    return None, sorted({w.category for w in caught}, key=str)


@pytest.mark.parametrize("defect", list(STEP_DEFECTS))
def test_step_checker_matches_gymnasium(defect: str) -> None:
    step = _step_returning(STEP_DEFECTS[defect])
    ours = make_env(reference, reference.spaces, step=step)
    theirs = make_env(gymnasium, gymnasium.spaces, step=step)
    assert _run(lambda: ours_checker.env_step_passive_checker(ours, 0)) == _run(
        lambda: gym_checker.env_step_passive_checker(theirs, 0)
    )


def _reset_no_seed(self: Any, options: Any = None) -> Any:
    return np.zeros(2, np.float32), {}


def _reset_seed_default(self: Any, seed: int = 3, options: Any = None) -> Any:
    return np.zeros(2, np.float32), {}


def _reset_no_options(self: Any, seed: int | None = None) -> Any:
    return np.zeros(2, np.float32), {}


def _reset_returning(value: Any) -> Any:
    def reset(self: Any, *, seed: int | None = None, options: Any = None) -> Any:
        good_reset(self, seed=seed)
        return value

    return reset


RESET_DEFECTS = {
    "no seed": _reset_no_seed,
    "seed defaults to a value": _reset_seed_default,
    "no options": _reset_no_options,
    "a list": _reset_returning([np.zeros(2, np.float32), {}]),
    "three values": _reset_returning((np.zeros(2, np.float32), {}, 1)),
    "info a set": _reset_returning((np.zeros(2, np.float32), {1, 2})),
    "obs outside": _reset_returning((np.full(2, 9, np.float32), {})),
}


@pytest.mark.parametrize("defect", list(RESET_DEFECTS))
def test_reset_checker_matches_gymnasium(defect: str) -> None:
    ours = make_env(reference, reference.spaces, reset=RESET_DEFECTS[defect])
    theirs = make_env(gymnasium, gymnasium.spaces, reset=RESET_DEFECTS[defect])
    assert _run(lambda: ours_checker.env_reset_passive_checker(ours)) == _run(
        lambda: gym_checker.env_reset_passive_checker(theirs)
    )


RENDER_DEFECTS: dict[str, dict[str, Any]] = {
    "no render modes": {"metadata": {"render_modes": None}},
    "modes a string": {"metadata": {"render_modes": "rgb_array", "render_fps": 1}},
    "a mode not a string": {"metadata": {"render_modes": ["rgb_array", 1], "render_fps": 1}},
    "no fps": {"metadata": {"render_modes": ["rgb_array"]}},
    "fps a string": {"metadata": {"render_modes": ["rgb_array"], "render_fps": "x"}},
    "fps zero": {"metadata": {"render_modes": ["rgb_array"], "render_fps": 0}},
    "undeclared mode": {"metadata": {"render_modes": ["rgb_array"], "render_fps": 4}, "render_mode": "human"},
    "mode without modes": {"metadata": {"render_modes": [], "render_fps": 4}, "render_mode": "human"},
    "rgb frame of floats": {
        "metadata": {"render_modes": ["rgb_array"], "render_fps": 4},
        "render_mode": "rgb_array",
        "render": lambda self: np.zeros((2, 2, 3)),
    },
    "ansi not a string": {
        "metadata": {"render_modes": ["ansi"], "render_fps": 4},
        "render_mode": "ansi",
        "render": lambda self: 3,
    },
}


@pytest.mark.parametrize("defect", list(RENDER_DEFECTS))
def test_render_checker_matches_gymnasium(defect: str) -> None:
    ours = make_env(reference, reference.spaces, **RENDER_DEFECTS[defect])
    theirs = make_env(gymnasium, gymnasium.spaces, **RENDER_DEFECTS[defect])
    assert _run(lambda: ours_checker.env_render_passive_checker(ours)) == _run(
        lambda: gym_checker.env_render_passive_checker(theirs)
    )


SPACES = {
    "not a space": ("error", "error"),
    "equal bounds": (
        reference.spaces.Box(np.zeros(2, np.float32), np.zeros(2, np.float32)),
        gymnasium.spaces.Box(np.zeros(2, np.float32), np.zeros(2, np.float32)),
    ),
    "empty Tuple": (reference.spaces.Tuple([]), gymnasium.spaces.Tuple([])),
    "empty Dict": (reference.spaces.Dict(), gymnasium.spaces.Dict()),
    "fine": (reference.spaces.Discrete(3), gymnasium.spaces.Discrete(3)),
}


@pytest.mark.parametrize("case", list(SPACES))
@pytest.mark.parametrize("role", ["action", "observation"])
def test_space_checks_match_gymnasium(case: str, role: str) -> None:
    ours, theirs = SPACES[case]
    assert _run(lambda: getattr(ours_checker, f"check_{role}_space")(ours)) == _run(
        lambda: getattr(gym_checker, f"check_{role}_space")(theirs)
    )


def test_check_obs_structure_errors() -> None:
    space = reference.spaces.Dict(a=reference.spaces.Discrete(2))
    with pytest.raises(AssertionError, match="must be a dict"):
        ours_checker.check_obs({1, 2}, space, "reset")
    with pytest.raises(AssertionError, match="keys must be the Dict space's keys"):
        ours_checker.check_obs({"b": 0}, space, "step")
    with pytest.raises(AssertionError, match="must have 2 elements"):
        ours_checker.check_obs((0,), reference.spaces.Tuple([reference.spaces.Discrete(2)] * 2), "step")


def test_data_reuse_warnings() -> None:
    buffer = np.zeros(2)
    with pytest.warns(UserWarning, match="observations returned by `reset` and the following `step` share"):
        ours_checker.env_data_reuse_passive_checker((buffer, {}), (buffer[:], {}), "reset", "step")
    info: dict[str, Any] = {}
    with pytest.warns(UserWarning, match="infos returned by `step` and the following `step` share"):
        ours_checker.env_data_reuse_passive_checker((np.zeros(2), info), (np.zeros(2), info), "step", "step")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours_checker.env_data_reuse_passive_checker((np.zeros(2), {}), (np.zeros(2), {}), "step", "step")
