"""Tests for make_vec: mode resolution, the vector entry point path, and the sync/async paths (once vector exists)."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import pytest

import reference.envs  # noqa: F401 - registers the built-in ids
from gymspec import AutoresetMode
from reference import error
from reference.registration import VectorizeMode, WrapperSpec, make_vec, register, spec



def _vector_class(name: str) -> None:
    """Skip unless ``reference.vector`` (written by another helper, later) already provides ``name``."""
    if importlib.util.find_spec("reference.vector") is None:
        pytest.skip("reference.vector does not exist yet")
    if not hasattr(importlib.import_module("reference.vector"), name):
        pytest.skip(f"reference.vector.{name} does not exist yet")


class FakeVectorEnv:
    """A stand-in native vector env: records how the vector entry point was called."""

    def __init__(self, num_envs: int, autoreset: object = AutoresetMode.NEXT_STEP, **kwargs: Any) -> None:
        self.num_envs = num_envs
        self.kwargs = kwargs
        self.metadata: dict[str, Any] = {"autoreset_mode": autoreset}
        self.spec: Any = None

    @property
    def unwrapped(self) -> FakeVectorEnv:
        return self


def _register_vec(env_id: str, **kwargs: Any) -> None:
    register(env_id, vector_entry_point="tests.reference.registration.test_make_vec:FakeVectorEnv", **kwargs)


def test_invalid_mode_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="vectorization_mode must be one of \\['async', 'sync', 'vector_entry_point'\\]"):
        make_vec("CartPole-v1", vectorization_mode="threads")


def test_vector_entry_point_is_the_default_when_present() -> None:
    _register_vec("MvOnly-v0", max_episode_steps=9, kwargs={"a": 1})
    env: Any = make_vec("MvOnly-v0", num_envs=3, b=2)
    assert isinstance(env, FakeVectorEnv)
    assert env.num_envs == 3
    assert env.kwargs == {"a": 1, "b": 2, "max_episode_steps": 9}
    assert env.spec.kwargs == {"a": 1, "b": 2, "max_episode_steps": 9, "num_envs": 3,
                               "vectorization_mode": "vector_entry_point"}
    assert spec("MvOnly-v0").kwargs == {"a": 1}


def test_vector_entry_point_forbids_vector_kwargs_and_wrappers() -> None:
    _register_vec("MvForbid-v0")
    with pytest.raises(error.Error, match="`vector_kwargs` is not empty"):
        make_vec("MvForbid-v0", vector_kwargs={"copy": False})
    with pytest.raises(error.Error, match="with the wrappers argument"):
        make_vec("MvForbid-v0", wrappers=[lambda e: e])
    _register_vec("MvAdditional-v0", additional_wrappers=(WrapperSpec("W", "pkg:W", {}),))
    with pytest.raises(error.Error, match="additional_wrappers parameter in spec being not empty"):
        make_vec("MvAdditional-v0")
    with pytest.raises(error.Error, match="doesn't have an entry point"):
        make_vec("MvForbid-v0", vectorization_mode=VectorizeMode.SYNC)


def test_missing_vector_entry_point() -> None:
    with pytest.raises(error.Error, match="doesn't have a vector entry point"):
        make_vec("MountainCar-v0", vectorization_mode="vector_entry_point")


def test_autoreset_metadata_warnings() -> None:
    _register_vec("MvBadMode-v0", kwargs={"autoreset": "NextStep"})
    with pytest.warns(UserWarning, match="is not an instance of AutoresetMode"):
        make_vec("MvBadMode-v0")


def test_make_vec_rejects_bad_ids() -> None:
    with pytest.raises(error.Error, match="make_vec id must be a str or an EnvSpec"):
        make_vec(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_sync_and_async_modes_make_wrapped_sub_envs(mode: str) -> None:
    _vector_class("SyncVectorEnv" if mode == "sync" else "AsyncVectorEnv")
    env = make_vec("CartPole-v1", num_envs=2, vectorization_mode=mode)
    try:
        assert env.num_envs == 2
        made_spec = env.unwrapped.spec
        assert made_spec is not None
        assert made_spec.kwargs == {"num_envs": 2, "vectorization_mode": mode}
        obs, _ = env.reset(seed=0)
        assert obs.shape == (2, 4)
    finally:
        env.close()


def test_default_mode_without_vector_entry_point_is_sync() -> None:
    _vector_class("SyncVectorEnv")
    env = make_vec("Pendulum-v1", num_envs=2)
    try:
        assert type(env).__name__ == "SyncVectorEnv"
    finally:
        env.close()


def test_sync_mode_applies_wrappers_and_vector_kwargs() -> None:
    _vector_class("SyncVectorEnv")
    from reference.wrappers import TransformReward

    def double(env: Any) -> Any:
        return TransformReward(env, lambda r: 2 * float(r))

    env = make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync", wrappers=[double], vector_kwargs={"copy": False})
    try:
        env.reset(seed=0)
        rewards = env.step(env.action_space.sample())[1]
        assert rewards.tolist() == [2.0, 2.0]
        made_spec = env.unwrapped.spec
        assert made_spec is not None
        assert made_spec.kwargs["wrappers"] == [double] and made_spec.kwargs["vector_kwargs"] == {"copy": False}
    finally:
        env.close()
